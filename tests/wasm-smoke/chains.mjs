// Times the guide's two chains in the smoke module under Node, on the inputs of the Node
// reference (`../shared/perf-reference/make_inputs.py`, written to $TMPDIR/a2ui-perf by
// `node node_chains.js`), for docs/performance.md.
//
// Usage: node tests/wasm-smoke/chains.mjs MODULE.wasm [DIR=$TMPDIR/a2ui-perf] [REPEAT=30]
//
// Each evaluation is one `run` of the module: it parses the request (payload, data and the
// tool's CallToolResult, as JSON text: the module's only way in), evaluates, and writes the
// data model out as JSON. `request` is the same request with a payload that calls no tool
// (the tool result is still parsed): what the module's interface costs by itself.
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [path, dir = join(tmpdir(), "a2ui-perf"), repeat = "30"] = process.argv.slice(2);
const wasm = new WebAssembly.Instance(new WebAssembly.Module(readFileSync(path)), {}).exports;

function load(request) {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  const at = wasm.input(bytes.length);
  new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
}

function time(n) {
  const times = [];
  for (let i = 0; i < n + 5; i++) {
    const start = process.hrtime.bigint();
    const status = wasm.run();
    const took = Number(process.hrtime.bigint() - start) / 1000;
    if (status !== 0) {
      const out = new Uint8Array(wasm.memory.buffer, wasm.output_ptr(), wasm.output_len());
      throw new Error(new TextDecoder().decode(out));
    }
    if (i >= 5) times.push(took);
  }
  times.sort((a, b) => a - b);
  return { min: times[0], median: times[times.length >> 1] };
}

for (const name of ["json-1000-1", "json-10000-1", "text-1000-1", "text-10000-1"]) {
  const read = (f) => JSON.parse(readFileSync(join(dir, name, f), "utf8"));
  const server = read("server.json");
  const tools = Object.fromEntries(
    Object.entries(server.results).map(([tool, results]) => [tool, results[0]]));
  const data = read("data.json");
  load({ payload: read("payload.json"), data, tools });
  const chain = time(Number(repeat));
  load({ payload: { "@call": "updateDataModel", args: { updates: { "/x": 1 } } }, data, tools });
  const request = time(Number(repeat));
  const f = (t) => `${t.min.toFixed(0)} / ${t.median.toFixed(0)}`;
  console.log(`${name}: chain ${f(chain)} µs (min / median), request alone ${f(request)} µs`);
}
