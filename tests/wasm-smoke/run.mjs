// Runs the smoke module (src/lib.rs) under Node: checks that it imports nothing (no
// wasm-bindgen, no WASI: it must run in any WebAssembly host), exports exactly its interface,
// and evaluates payloads and tool chains as the native crate does, through the interface a
// renderer uses (module.mjs).
//
// Usage: node tests/wasm-smoke/run.mjs path/to/a2ui_wasm_smoke.wasm
import { readFileSync, statSync } from "node:fs";
import assert from "node:assert/strict";
import { Engine, DONE, BAD_REQUEST, WAITING } from "./module.mjs";

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
  "function answer", "function compile", "function evaluate", "function fail",
  "function input", "function model_read", "function model_set", "function output_len",
  "function output_ptr", "function release", "function text_buffer", "function text_grow",
  "global __data_end", "global __heap_base", "memory memory",
]);

const engine = new Engine(module);
const { wasm } = engine;

/** A scripted MCP client: each tool answers its CallToolResult in `tools`. */
const scripted = (tools = {}) => (name) => {
  if (!Object.hasOwn(tools, name)) throw new Error(`no tool '${name}'`);
  return tools[name];
};

/**
 * One request `{payload, data, tools}` as JSON text: compiles the payload, sets the model,
 * evaluates; returns [status, answer], the answer `{model}` when the payload evaluated.
 */
function runText(text) {
  let request;
  try {
    request = JSON.parse(text);
  } catch {
    // Not JSON: the module must say so itself.
    const [, error] = engine.compileText(text);
    assert.equal(engine.setModelText(text), BAD_REQUEST, "a model that is not JSON");
    return [error.status, error];
  }
  const [handle, error] = engine.compileText(JSON.stringify(request.payload ?? null));
  if (!handle) return [error.status, error];
  try {
    assert.equal(engine.setModelText(JSON.stringify(request.data ?? {})), DONE);
    const [status, answer] = engine.evaluate(handle, scripted(request.tools));
    return status === DONE ? [status, { model: engine.read("") }] : [status, answer];
  } finally {
    assert.equal(wasm.release(handle), DONE);
  }
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

// The interface itself: text blocks that are not ASCII (their buffer grows), several blocks
// among others, one compiled payload evaluated on two models, and answers that are not usable.
{
  const search = call("callMcpTool", { name: "search" });
  const [handle] = engine.compileText(JSON.stringify(call("updateDataModel", { updates: {
    "/text": call("transformData", { jmespath: "text", data: search }),
    "/kinds": call("transformData", { jmespath: "toolResult.content[*].type", data: search }),
    "/json": call("transformData", { jmespath: "json", data: search }),
  } })));
  assert.ok(handle > 0);
  const blocks = ["[\"Ünïcødé 🎉\",", "\"\u{10FFFF}\", \"ß\"]"];
  const tools = { search: { content: [
    { type: "text", text: blocks[0] }, { type: "image", data: "AA==", mimeType: "image/png" },
    { type: "text", text: blocks[1] },
  ] } };
  for (const q of ["one", "two"]) {
    assert.equal(engine.setModelText(JSON.stringify({ q })), DONE);
    assert.equal(engine.evaluate(handle, scripted(tools))[0], DONE);
    assert.deepEqual(engine.read(""), { q, text: blocks.join("\n"), kinds: ["text", "image", "text"],
      json: ["Ünïcødé 🎉", "\u{10FFFF}", "ß"] });
  }
  console.log("ok: text blocks as UTF-8 bytes, one payload evaluated twice");

  // Not usable: the module says so, and the evaluation still waits for a usable answer.
  assert.equal(wasm.evaluate(handle), WAITING);
  const at = wasm.text_buffer(2);
  new Uint8Array(wasm.memory.buffer, at, 2).set([0xc3, 0x28]);
  engine.input(JSON.stringify({ result: { content: [{ type: "text" }] }, texts: [[0, 2]] }));
  assert.equal(wasm.answer(), BAD_REQUEST);
  assert.match(engine.output().error.message, /not UTF-8/);
  engine.input(JSON.stringify({ result: { content: [] }, texts: [[0, 1]] }));
  assert.equal(wasm.answer(), BAD_REQUEST, "a text listed but not written");
  assert.equal(engine.answer(tools.search), WAITING, "the second call of the payload");
  // A new evaluation cancels the waiting one: it writes nothing more.
  engine.setModelText("{}");
  assert.equal(wasm.evaluate(handle), WAITING);
  assert.equal(engine.answer({ content: [{ type: "text", text: "[1]" }] }), WAITING);
  assert.equal(wasm.evaluate(handle), WAITING);
  assert.deepEqual(engine.read(""), {});
  assert.equal(wasm.release(handle), DONE);
  assert.equal(engine.answer(tools.search), WAITING, "a waiting evaluation keeps its payload");
  assert.equal(wasm.release(handle), BAD_REQUEST);
  assert.equal(wasm.evaluate(handle), BAD_REQUEST);
  engine.input("no/pointer");
  assert.equal(wasm.model_read(), BAD_REQUEST);
  console.log("ok: answers and requests that are not usable");
}
// The regex dialect's Unicode tables in the module (the regex crates are built with only the
// tables it reads): captures as V8's own RegExp with the `u` flag gives them.
{
  const patterns = [
    "(\\p{Lu}+)\\s(\\p{Script=Greek}+)", "(\\p{scx=Latn}+)\\P{L}+(\\p{Nd}+)",
    "(\\p{Emoji_Presentation})(\\p{White_Space})", "\\b(\\w+)\\b", "(?:ß|(\\p{Ll}))([^\\p{Ll}]+)",
    "(\\p{Any})(\\p{ASCII_Hex_Digit}+)",
  ];
  const values = ["ÉCOLE αβγ", "naïve -- 42", "x🎉\u3000y", "déjà vu", "Straße ÜBER", "Ωcafe"];
  for (const pattern of patterns) {
    const [handle, error] = engine.compileText(JSON.stringify(
      call("updateDataModel", { updates: { "/m": call("regexCapture", { pattern, value: values }) } })));
    assert.ok(handle > 0, `${pattern}: ${JSON.stringify(error)}`);
    assert.equal(engine.setModelText("{}"), DONE);
    assert.equal(engine.evaluate(handle, scripted())[0], DONE, pattern);
    const re = new RegExp(pattern, "u");
    const expected = values.map((v) => re.exec(v)?.slice(1).map((g) => g ?? "") ?? null);
    assert.deepEqual(engine.read("/m"), expected, pattern);
    assert.equal(wasm.release(handle), DONE);
  }
  console.log(`ok: ${patterns.length} patterns with Unicode properties, as V8 reads them`);
}
// The size budget for the release module run.sh builds (LTO, opt-level "s", no simd128): held
// here so that growth past it is seen when it happens, not found later. It is issue 26's
// target, 1.5 MB: met at 1 496 648 B, missed on 2026-12-07 at 1 506 177 B (the processor's tool
// runs, November's v1.0 rules, the evaluation byte budget), met again the same day at
// 1 495 865 B once patterns were built on regex-automata's meta engine directly; missed again
// by issue 37 (1 501 444 B under CI) and met at 1 498 866 B (docs/performance.md).
const BUDGET = 1_500_000;
const size = statSync(path).size;
assert.ok(size <= BUDGET, `the module is ${size} bytes, over the ${BUDGET}-byte budget (docs/performance.md)`);
console.log(`wasm smoke: ${cases.length + 3} cases passed; ${size} bytes (budget ${BUDGET}), no imports`);
