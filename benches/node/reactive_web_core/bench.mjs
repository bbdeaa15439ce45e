// The workload of benches/reactive.rs ("reactive-refresh") on the real web renderer core,
// @a2ui/web_core (version pinned in package.json), with bindings made as its renderer makes
// them: DataContext.subscribeDynamicValue. N keys bound to /rows/i/name (a row context and the
// relative path `name`), 100 to /rows, 100 to /, 100 to /settings/k/value. Timed: one
// DataModel.set and the notifications it delivers (synchronous), at /rows/{N/2}/name (201
// notifications) and at /rows (the list replaced: N + 200). Memory per binding: heap growth
// while subscribing, after a forced GC.
//
//   cd benches/node/reactive_web_core && npm install && node --expose-gc bench.mjs
import { fmt, measure as timed } from '../timing.mjs';
import { DataModel, DataContext } from '@a2ui/web_core/v0_9';

function rows(n, tag) {
  return Array.from({ length: n }, (_, i) => ({ name: `${tag}${i}` }));
}

const gc = globalThis.gc ?? (() => {});
for (const n of [1000, 10000, 100000]) {
  const settings = Array.from({ length: 100 }, (_, k) => ({ value: k }));
  const model = new DataModel({ rows: rows(n, 'r'), settings });
  const surface = { dataModel: model, catalog: { invoker: () => undefined } };
  const root = new DataContext(surface, '/');
  let notified = 0;
  const onChange = () => { notified++; };
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const subs = [];
  for (let i = 0; i < n; i++) {
    subs.push(new DataContext(surface, `/rows/${i}`).subscribeDynamicValue({ path: 'name' }, onChange));
  }
  for (let k = 0; k < 100; k++) {
    subs.push(root.subscribeDynamicValue({ path: '/rows' }, onChange));
    subs.push(root.subscribeDynamicValue({ path: '/' }, onChange));
    subs.push(root.subscribeDynamicValue({ path: `/settings/${k}/value` }, onChange));
  }
  gc();
  const perBinding = (process.memoryUsage().heapUsed - heapBefore) / subs.length;

  const row = `/rows/${n / 2}/name`;
  notified = 0;
  model.set(row, 'x');
  if (notified !== 201) throw new Error(`expected 201 notifications, got ${notified}`);
  const lists = [rows(n, 'a'), rows(n, 'b')];
  notified = 0;
  model.set('/rows', lists[0]);
  if (notified !== n + 200) throw new Error(`expected ${n + 200} notifications, got ${notified}`);

  const measure = (op, budgetNs) => timed(op, budgetNs, 31);
  const edit = measure((t) => model.set(row, t % 2 ? 'x' : 'y'), 20_000_000);
  const replace = measure((t) => model.set('/rows', lists[t % 2]), 50_000_000);
  console.log(`n=${n} set-row+notify: min ${fmt(edit.min)} median ${fmt(edit.median)}`
    + ` | set-rows+notify: min ${fmt(replace.min)} median ${fmt(replace.median)}`
    + ` | heap per binding ${perBinding.toFixed(0)} B (${subs.length} bindings)`);
  for (const s of subs) s.unsubscribe();
}
