// The reference of benches/basic.rs: @a2ui/web_core 0.11.0's own basic catalog implementations
// (formatString, formatDate) and Node's Intl.NumberFormat (cached, as web_core caches it), over
// the same 10 000 rows and values. Setup: `npm ci` (or `npm install`) in this folder, then
// `node benches/node/basic/basic_catalog.js`. Prints min and median of 15 runs per workload.
// The modules themselves, as web_core's own tests import them (the package index also loads
// its Lit components, which need a browser).
const WC = './node_modules/@a2ui/web_core/src/v0_9';
const { BASIC_FUNCTIONS } = await import(`${WC}/basic_catalog/functions/basic_functions.js`);
const { Catalog } = await import(`${WC}/catalog/types.js`);
const { getValue } = await import(`${WC}/reactivity/signals.js`);
const { DataModel } = await import(`${WC}/state/data-model.js`);
const { DataContext } = await import(`${WC}/rendering/data-context.js`);

// Functions return a value or a signal of one (formatString's is computed).
const value = (x) => (typeof x === 'object' && x !== null ? getValue(x) : x);
const N = 10000;
const TEMPLATE = "${name}: ${formatCurrency(value: ${price}, currency: 'EUR')} (${pluralize(value: ${count}, one: 'one item', other: 'many items')})";
const rows = [];
for (let i = 0; i < N; i++) rows.push({ name: `item ${i}`, price: (i * 37) % 10000 / 7, count: i % 3 });
const values = rows.map((r) => r.price * 13.7 - 5000);
const stamps = rows.map((_, i) => 1.7e12 + i * 3_600_000 * 7);

const catalog = new Catalog('bench', [], BASIC_FUNCTIONS);
const model = new DataModel({ rows, values, stamps });
const surface = { dataModel: model, catalog: { invoker: catalog.invoker }, dispatchError: () => {} };

function stats(name, run) {
  const times = [];
  let sink = 0;
  for (let r = 0; r < 15; r++) {
    const t0 = process.hrtime.bigint();
    sink += run();
    times.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  times.sort((a, b) => a - b);
  console.log(`${name}: min ${times[0].toFixed(3)} ms, median ${times[7].toFixed(3)} ms (sink ${sink % 7})`);
}

stats('web_core formatString, 10000 rows', () => {
  let total = 0;
  for (let i = 0; i < N; i++) {
    const cx = new DataContext(surface, `/rows/${i}`);
    total += value(catalog.invoker('formatString', { value: TEMPLATE }, cx)).length;
  }
  return total;
});
const root = new DataContext(surface, '/');
stats('web_core formatDate, 10000 timestamps', () => {
  let total = 0;
  for (let i = 0; i < N; i++) total += value(catalog.invoker('formatDate', { value: stamps[i], format: 'yyyy-MM-dd HH:mm' }, root)).length;
  return total;
});
const currency = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'EUR' });
stats('Intl.NumberFormat currency EUR (cached), 10000 values', () => {
  let total = 0;
  for (let i = 0; i < N; i++) total += currency.format(values[i]).length;
  return total;
});
const number = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
stats('Intl.NumberFormat 2 decimals (cached), 10000 values', () => {
  let total = 0;
  for (let i = 0; i < N; i++) total += number.format(values[i]).length;
  return total;
});
console.log(`node ${process.version}, ICU ${process.versions.icu}`);
