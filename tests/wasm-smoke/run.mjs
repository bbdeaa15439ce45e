// Runs the smoke module (src/lib.rs) under Node: checks that it imports nothing (no
// wasm-bindgen, no WASI: it must run in any WebAssembly host), exports exactly its interface,
// and evaluates payloads and tool chains as the native crate does.
//
// Usage: node tests/wasm-smoke/run.mjs path/to/a2ui_wasm_smoke.wasm
import { readFileSync, statSync } from "node:fs";
import assert from "node:assert/strict";

const path = process.argv[2];
if (!path) {
  console.error("usage: node run.mjs MODULE.wasm");
  process.exit(2);
}
const module = new WebAssembly.Module(readFileSync(path));

// What the module needs from its host: nothing.
assert.deepEqual(WebAssembly.Module.imports(module), [], "the module imports nothing");
const exported = WebAssembly.Module.exports(module).map((e) => `${e.kind} ${e.name}`).sort();
assert.deepEqual(exported, [
  "function input", "function output_len", "function output_ptr", "function run",
  "global __data_end", "global __heap_base", "memory memory",
]);

const { exports: wasm } = new WebAssembly.Instance(module, {});

/** Sends one request (JSON text); returns [status, answer]. */
function runText(text) {
  const bytes = new TextEncoder().encode(text);
  const at = wasm.input(bytes.length);
  // Memory may have grown in `input`: take its buffer afterwards.
  new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
  const status = wasm.run();
  const out = new Uint8Array(wasm.memory.buffer, wasm.output_ptr(), wasm.output_len());
  return [status, JSON.parse(new TextDecoder().decode(out))];
}
const run = (request) => runText(JSON.stringify(request));

const MCP = "https://a2ui.org/specification/v1_0/catalogs/mcp/catalog.json";
const call = (fn, args) => ({ "@call": fn, catalogId: MCP, args });
const textResult = (text) => ({ content: [{ type: "text", text }] });

const cases = [
  {
    name: "a payload without tools",
    request: {
      payload: call("updateDataModel", { updates: {
        selected: true,
        "/tags": call("split", { value: { "@path": "/raw" }, separator: "," }),
      } }),
      data: { raw: "ui,mcp" },
    },
    status: 0,
    answer: { model: { raw: "ui,mcp", selected: true, tags: ["ui", "mcp"] } },
  },
  {
    name: "the guide's JSON chain: list → transformData → updateDataModel",
    request: {
      payload: call("updateDataModel", { updates: call("transformData", {
        jmespath: "{\"/issues\": json[?state == 'open'].{number: to_string(number), title: title}}",
        data: call("callMcpTool", { name: "list_issues",
                                    arguments: { repository: { "@path": "/repository" } } }),
      }) }),
      data: { repository: "a2ui/a2ui" },
      tools: { list_issues: textResult(JSON.stringify([
        { number: 7, state: "open", title: "Wasm" },
        { number: 8, state: "closed", title: "Done" },
        { number: 9, state: "open", title: "Docs" },
      ])) },
    },
    status: 0,
    answer: { model: { repository: "a2ui/a2ui",
      issues: [{ number: "7", title: "Wasm" }, { number: "9", title: "Docs" }] } },
  },
  {
    name: "the guide's text chain: split → regexCapture → transformData → updateDataModel",
    request: {
      payload: call("updateDataModel", { updates: call("transformData", {
        jmespath: "{\"/results\": [?@ != null].{title: [0], url: [1]}}",
        data: call("regexCapture", {
          pattern: "^Title: (.*)\nURL: (.*)",
          value: call("split", { separator: "\n\n", value: call("transformData", {
            jmespath: "text",
            data: call("callMcpTool", { name: "search", arguments: { query: { "@path": "/q" } } }),
          }) }),
        }),
      }) }),
      data: { q: "a2ui" },
      tools: { search: textResult(
        "Title: A2UI\nURL: https://a2ui.org\n\nnoise\n\nTitle: MCP\nURL: https://modelcontextprotocol.io") },
    },
    status: 0,
    answer: { model: { q: "a2ui", results: [
      { title: "A2UI", url: "https://a2ui.org" },
      { title: "MCP", url: "https://modelcontextprotocol.io" },
    ] } },
  },
  {
    name: "a failing tool writes nothing",
    request: {
      payload: call("updateDataModel", { updates: { "/x": call("callMcpTool", { name: "missing" }) } }),
      data: { x: 1 },
    },
    status: 1,
    code: "EXPRESSION_ERROR",
  },
  {
    name: "a payload that does not compile",
    request: { payload: { "@call": "noSuchFunction", args: {} }, data: {} },
    status: 1,
  },
];

for (const c of cases) {
  const [status, answer] = run(c.request);
  assert.equal(status, c.status, `${c.name}: status (${JSON.stringify(answer)})`);
  if (c.answer) assert.deepEqual(answer, c.answer, c.name);
  if (c.code) assert.equal(answer.error.code, c.code, `${c.name}: ${JSON.stringify(answer)}`);
  if (c.status !== 0) assert.ok(answer.error.message, `${c.name}: a message`);
  console.log(`ok: ${c.name}${c.status ? ` (${answer.error.code}: ${answer.error.message})` : ""}`);
}
// A request that is not JSON: the module says so, and keeps working.
assert.equal(runText("{not json")[0], 2);
assert.equal(run(cases[0].request)[0], 0);
console.log(`wasm smoke: ${cases.length} cases passed; ${statSync(path).size} bytes, no imports`);
