// Generates the differential cases of tests/intl_differential.rs with Node's Intl as the
// oracle: a seeded generator (the same seed gives the same cases), printed as JSON lines
// {"f": function, "locale", "args", "want"}. Usage: node tests/intl/generate.js [seed] [count]
'use strict';
const seed0 = Number(process.argv[2] || 23);
const count = Number(process.argv[3] || 10000);
let seed = seed0 >>> 0;
function rand() { // mulberry32
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const LOCALES = ['en-US', 'de-DE', 'fr-FR', 'ja-JP', 'hi-IN', 'ar-EG', 'pt-BR', 'ru-RU', 'pl-PL', 'cy', 'en-IN'];
const CURRENCIES = ['USD', 'EUR', 'JPY', 'GBP', 'CHF', 'CNY', 'INR', 'BRL', 'RUB', 'PLN', 'EGP', 'KWD', 'BHD', 'KRW', 'MXN', 'CAD', 'AUD', 'SEK', 'TRY', 'ZAR'];
function number() {
  switch (Math.floor(rand() * 9)) {
    case 0: return Math.floor(rand() * 100);
    case 1: return Math.round(rand() * 1e6) / 100;
    case 2: return -Math.round(rand() * 1e5) / 1000;
    case 3: return Math.floor(rand() * 10) + 0.5 + Math.floor(rand() * 3) * 0.0; // half-way
    case 4: return Number((rand() * 10).toFixed(3)) + 0.0005; // half-way at 3 digits
    case 5: return pick([1e21, 1.5e15, 123456789012.345, 9007199254740991, 1e308]);
    case 6: return pick([1e-7, 5e-324, 0.000123, -0.0001]);
    case 7: return pick([0, '-0', 1, 2, 3, 5, 11, 21, 22, 100, 1.5]); // '-0': JSON has no -0, Number('-0') is
    default: return Math.round((rand() - 0.5) * 1e9) / Math.pow(10, Math.floor(rand() * 6));
  }
}
const out = [];
for (let i = 0; i < count; i++) {
  const locale = pick(LOCALES);
  const kind = Math.floor(rand() * 4);
  const value = number();
  const num = Number(value);
  if (kind === 0) {
    const args = { value };
    const o = {};
    if (rand() < 0.5) { const d = Math.floor(rand() * 5); args.decimals = d; o.minimumFractionDigits = d; o.maximumFractionDigits = d; }
    if (rand() < 0.3) { args.grouping = false; o.useGrouping = false; }
    out.push({ f: 'formatNumber', locale, args, want: new Intl.NumberFormat(locale, o).format(num) });
  } else if (kind === 1) {
    const currency = pick(CURRENCIES);
    const args = { value, currency };
    const o = { style: 'currency', currency };
    if (rand() < 0.4) { const d = Math.floor(rand() * 4); args.decimals = d; o.minimumFractionDigits = d; o.maximumFractionDigits = d; }
    if (rand() < 0.2) { args.grouping = false; o.useGrouping = false; }
    out.push({ f: 'formatCurrency', locale, args, want: new Intl.NumberFormat(locale, o).format(num) });
  } else if (kind === 2) {
    const n = Math.abs(pick([num, Math.floor(rand() * 30), Math.floor(rand() * 300) / 10]));
    const names = ['zero', 'one', 'two', 'few', 'many', 'other'];
    const args = { value: n };
    for (const c of names) args[c] = c;
    const exact = n === 0 ? 'zero' : n === 1 ? 'one' : n === 2 ? 'two' : null;
    out.push({ f: 'pluralize', locale, args, want: exact || new Intl.PluralRules(locale).select(n) });
  } else {
    const ms = Math.floor(rand() * 4e12) - 1e12;
    // TR35 stand-alone fields against Intl with that one field (Intl takes no patterns).
    const [pattern, options] = pick([
      ['LLLL', { month: 'long' }],
      ['LLL', { month: 'short' }],
      ['cccc', { weekday: 'long' }],
      ['ccc', { weekday: 'short' }],
    ]);
    const want = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' }).format(new Date(ms));
    out.push({ f: 'formatDate', locale, args: { value: ms, format: pattern }, want });
  }
}
process.stdout.write(JSON.stringify({ seed: seed0, node: process.version, icu: process.versions.icu, cldr: process.versions.cldr, cases: out }) + '\n');
