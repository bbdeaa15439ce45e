// The stream of benches/surfaces.rs on the real web renderer core, @a2ui/web_core (version
// pinned in package.json): its v0_9 MessageProcessor with the basic catalog's components, and a
// NodeResolver on the surface (made when the processor creates it, as a renderer makes it),
// headless. Stream: createSurface, updateComponents (a Column with a Text and a List over
// /rows whose row template, a Row, holds two bound Texts), updateDataModel of N rows, then one
// row's edit. Timed: the whole stream on a new processor (its nodes resolved as the messages
// arrive: the resolver materialises them eagerly), and the one-row edit alone (the message
// processed, the resolver's signals notified). Memory per rendered node: heap growth over the
// whole stream, after a forced GC, divided by the nodes.
//
//   cd benches/node/surfaces_web_core && npm install && node --expose-gc bench.mjs [N...]
import { fmt, measure as timed } from '../timing.mjs';
import {
  MessageProcessor, NodeResolver, Catalog, BASIC_COMPONENTS, BASIC_FUNCTIONS,
} from '@a2ui/web_core/v0_9';

const catalog = new Catalog('bench-catalog', BASIC_COMPONENTS, BASIC_FUNCTIONS);

function messages(n) {
  const rows = Array.from({ length: n }, (_, i) => ({ name: `r${i}`, n: i }));
  return [
    { version: 'v0.9', createSurface: { surfaceId: 's', catalogId: catalog.id } },
    { version: 'v0.9', updateComponents: { surfaceId: 's', components: [
      { id: 'root', component: 'Column', children: ['title', 'list'] },
      { id: 'title', component: 'Text', text: 'Rows' },
      { id: 'list', component: 'List', children: { componentId: 'row', path: '/rows' } },
      { id: 'row', component: 'Row', children: ['name', 'count'] },
      { id: 'name', component: 'Text', text: { path: 'name' } },
      { id: 'count', component: 'Text', text: { path: 'n' } },
    ] } },
    { version: 'v0.9', updateDataModel: { surfaceId: 's', path: '/rows', value: rows } },
  ];
}

function edit(n, value) {
  return { version: 'v0.9', updateDataModel: { surfaceId: 's', path: `/rows/${n / 2}/name`, value } };
}

/** A processor with a resolver on each surface it creates. */
function renderer() {
  const processor = new MessageProcessor([catalog]);
  const state = { processor, resolver: undefined };
  processor.model.onSurfaceCreated.subscribe((surface) => {
    state.resolver = new NodeResolver(surface, catalog);
  });
  return state;
}

/** The node of the edited row's name, to check the edit reached it. */
function nameNode(resolver, n) {
  const root = resolver.rootNode.peek ? resolver.rootNode.peek() : resolver.rootNode.value;
  const props = (node) => (node.props.peek ? node.props.peek() : node.props.value);
  const list = props(root).children[1];
  const row = props(list).children[n / 2];
  return props(props(row).children[0]);
}

const gc = globalThis.gc ?? (() => {});
const sizes = process.argv.slice(2).map(Number);
for (const n of sizes.length ? sizes : [1000, 10000]) {
  const stream = messages(n);
  // Memory: the heap a whole stream leaves, per rendered node.
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let kept = renderer();
  kept.processor.processMessages([...stream, edit(n, 'x')]);
  gc();
  const nodes = kept.resolver.activeNodeCount;
  const perNode = (process.memoryUsage().heapUsed - heapBefore) / nodes;
  if (nodes !== 3 + 3 * n) throw new Error(`expected ${3 + 3 * n} nodes, got ${nodes}`);
  const shown = nameNode(kept.resolver, n).text;
  if ((shown?.value ?? shown) !== 'x') throw new Error(`the edit did not reach its node: ${JSON.stringify(shown)}`);

  const measure = (op, budgetNs) => timed(op, budgetNs, 21);
  const edits = [edit(n, 'x'), edit(n, 'y')];
  const whole = measure((t) => {
    const r = renderer();
    r.processor.processMessages([...stream, edits[t % 2]]);
    if (r.resolver.activeNodeCount !== 3 + 3 * n) throw new Error('not resolved');
    r.resolver.dispose();
  }, 200_000_000);
  const one = measure((t) => kept.processor.processMessages([edits[t % 2]]), 20_000_000);
  console.log(`web_core n=${n} stream+resolve: min ${fmt(whole.min)} median ${fmt(whole.median)}`
    + ` | one-row edit: min ${fmt(one.min)} median ${fmt(one.median)}`
    + ` | heap per rendered node ${perNode.toFixed(0)} B (${nodes} nodes)`);
  kept.resolver.dispose();
  kept = undefined;
}
