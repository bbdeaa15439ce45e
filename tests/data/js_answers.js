// Writes tests/data/js_answers.json: what JavaScript answers for the cases of tests/js_answers.rs
// (issue 27 item 4). Run from a directory where `npm install jmespath@0.16.0` was done, or with
// NODE_PATH pointing at its node_modules: `node tests/data/js_answers.js > tests/data/js_answers.json`.
const jmespath = require('jmespath');

// to_number: every code point ECMAScript trims, and ones it does not that Rust's
// char::is_whitespace or Unicode's White_Space take.
const spaces = [];
for (let c = 0; c <= 0x10ffff; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  const s = String.fromCodePoint(c);
  if (+(s + '1' + s) === 1) spaces.push(c);
}
const notSpaces = [0x85, 0x1c, 0x1d, 0x1e, 0x1f, 0x180e, 0x200b, 0x2060, 0xfffe, 0x0];
const toNumber = [...spaces, ...notSpaces].map((c) => {
  const text = String.fromCodePoint(c) + '12' + String.fromCodePoint(c);
  return { text, result: jmespath.search({ t: text }, 'to_number(t)') };
});

// Numbers beyond 2^53: JSON text in, JSON text out (the data is parsed by JSON.parse, as a tool's
// text is).
const dataText = '{"n": 9007199254740993, "m": 9007199254740992, "k": -9007199254740993, '
  + '"xs": [9007199254740993, 1, -2], "ys": [9007199254740993, -9007199254740993, 5], "f": 1.5}';
const data = JSON.parse(dataText);
const expressions = [
  'n == `9007199254740992`', 'n == m', 'n != m', 'n > m', 'n >= m', 'n < m', 'k == `-9007199254740992`',
  'sum([n])', 'sum(xs)', 'sum(ys)', 'avg([n, m])', 'abs(k)', 'floor(n)', 'ceil(k)',
  'max([n, m]) == m', 'xs[?@ == `9007199254740992`] | length(@)', 'to_string(sum([n]))',
  'contains(xs, `9007199254740992`)', 'sum([`9007199254740991`, `1`, `1`])', 'sum([f, n])',
];
const jmes = expressions.map((expression) => ({
  expression, result: JSON.stringify(jmespath.search(data, expression)),
}));

// A tool's JSON text with lone surrogate escapes: JSON.parse's value with every string and key
// encoded as UTF-8 (what a UTF-8 data model holds), written as hex.
const hex = (s) => Buffer.from(s).toString('hex');
const hexed = (v) => (typeof v === 'string' ? hex(v)
  : Array.isArray(v) ? v.map(hexed)
    : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [hex(k), hexed(x)]))
      : v);
const texts = ['["\\ud800","ok"]', '{"k\\udc00": "\\ud83d\\ude00\\ud83d", "a": ["\\udfff\\udbff"]}'];
const surrogates = texts.map((text) => ({ text, utf8: hexed(JSON.parse(text)) }));

// The regex dialect: `(?:[]*)?` and friends, as V8 runs them with the `u` flag.
const patterns = ['(?:[]*)?', '([]*)?a', 'a(?:[]*)?b'].map((pattern) => ({
  pattern,
  matches: ['', 'a', 'ba', 'xyz'].map((input) => {
    const m = new RegExp(pattern, 'u').exec(input);
    return { input, match: m === null ? null : Array.from(m, (g) => (g === undefined ? null : g)) };
  }),
}));

process.stdout.write(JSON.stringify({ node: process.version, dataText, toNumber, jmes, surrogates, patterns }, null, 1) + '\n');
