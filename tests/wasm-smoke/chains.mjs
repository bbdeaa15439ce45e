// Times the guide's two chains in the smoke module under Node, on the inputs of the Node
// reference (`make_inputs.py`, written to $TMPDIR/a2ui-perf by `node node_chains.js`), for
// docs/performance.md.
//
// Usage: node tests/wasm-smoke/chains.mjs MODULE.wasm [DIR=$TMPDIR/a2ui-perf] [REPEAT=30] [NAMES]
//
// What is timed is what the Node reference (node_chains.js) times: from the CallToolResult, as
// the renderer's MCP client hands it over (a parsed envelope whose text block is a string), to
// the writes in the data model. The payload is compiled once; the data model is set afresh
// before each evaluation, not timed. Timed: starting the evaluation, reading its tool request,
// writing the text into the module's memory (`TextEncoder.encodeInto`) with the rest of the
// result as JSON, and the evaluation through to its writes. Timed apart:
// - `rows back`: the written value handed to JavaScript (serialized in the module, decoded
//   and `JSON.parse`d), which a JavaScript renderer needs and Node's reference already has;
// - `call alone`: the same call with the tool's response read for its name only (the text
//   handed in, the response built, its JSON checked when it is JSON);
// - `encodeInto`: the text written into the module's memory, alone.
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Engine, DONE } from "./module.mjs";

const [path, dir = join(tmpdir(), "a2ui-perf"), repeat = "30",
  names = "json-1000-1,json-10000-1,text-1000-1,text-10000-1"] = process.argv.slice(2);
const engine = new Engine(new WebAssembly.Module(readFileSync(path)));
const encoder = new TextEncoder();
const WARMUP = 5;

/** Min and median of `f()` (µs) over REPEAT runs after the warm-up; `before()` untimed. */
function time(f, before = () => {}) {
  const times = [];
  for (let i = 0; i < WARMUP + Number(repeat); i++) {
    before();
    const start = process.hrtime.bigint();
    f();
    const took = Number(process.hrtime.bigint() - start) / 1000;
    if (i >= WARMUP) times.push(took);
  }
  times.sort((a, b) => a - b);
  return { min: times[0], median: times[times.length >> 1] };
}

/** The payload's `callMcpTool` call. */
function findCall(node) {
  if (node?.["@call"] === "callMcpTool") return node;
  for (const child of Object.values(node?.args ?? {})) {
    const found = typeof child === "object" && findCall(child);
    if (found) return found;
  }
  return null;
}

function compile(payload) {
  const [handle, error] = engine.compileText(JSON.stringify(payload));
  if (!handle) throw new Error(JSON.stringify(error));
  return handle;
}

for (const name of names.split(",")) {
  const read = (f) => JSON.parse(readFileSync(join(dir, name, f), "utf8"));
  const server = read("server.json");
  const payload = read("payload.json");
  const dataText = JSON.stringify(read("data.json"));
  // The reference's scripted server: the tool's first result, already parsed.
  const callTool = (tool) => server.results[tool][0];
  const reset = () => engine.setModelText(dataText);
  const evaluate = (handle) => () => {
    const [status, answer] = engine.evaluate(handle, callTool);
    if (status !== DONE) throw new Error(JSON.stringify(answer));
  };

  const chain = compile(payload);
  // The path the chain writes: the key of its final reshape (`{"/issues": …}`).
  const written = payload.args.updates.args.jmespath.match(/^\{"(\/[^"]*)"/)[1];
  const chainTime = time(evaluate(chain), reset);
  let rows;
  const back = time(() => { rows = engine.read(written); });
  if (!Array.isArray(rows) || rows.length === 0) throw new Error(`${name}: no rows at ${written}`);

  // The chain's call, its response read for the tool's name only.
  const call = findCall(payload);
  const callOnly = compile({ "@call": "updateDataModel", args: { updates: { "/called": {
    "@call": "transformData", args: { jmespath: "toolName", data: call } } } } });
  const callTime = time(evaluate(callOnly), reset);

  const text = Object.values(server.results)[0][0].content[0].text;
  const at = engine.wasm.input(3 * text.length);
  const encodeTime = time(() => encoder.encodeInto(
    text, new Uint8Array(engine.wasm.memory.buffer, at, 3 * text.length)));

  const f = (t) => `${t.min.toFixed(0)} / ${t.median.toFixed(0)}`;
  console.log(`${name}: chain ${f(chainTime)} µs (min / median), rows back ${f(back)} ` +
    `(${rows.length} rows), call alone ${f(callTime)}, encodeInto ${f(encodeTime)}`);
}
