// The JavaScript side of the smoke module's interface (src/lib.rs), as a web renderer would
// use it: compile a payload once, set the data model, evaluate; when the evaluation calls a
// tool, the renderer's MCP client answers and the `CallToolResult` goes back in, each text
// block written as UTF-8 straight into the module's memory (`TextEncoder.encodeInto`), the
// rest of the result as JSON.
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const DONE = 0, FAILED = 1, BAD_REQUEST = 2, WAITING = 3;

export class Engine {
  constructor(wasmModule) {
    this.wasm = new WebAssembly.Instance(wasmModule, {}).exports;
  }

  /** The last answer, parsed. */
  output() {
    const { wasm } = this;
    return JSON.parse(decoder.decode(
      new Uint8Array(wasm.memory.buffer, wasm.output_ptr(), wasm.output_len())));
  }

  /** Puts `text` in the input buffer. */
  input(text) {
    const bytes = encoder.encode(text);
    const at = this.wasm.input(bytes.length);
    // Memory may have grown in `input`: take its buffer afterwards.
    new Uint8Array(this.wasm.memory.buffer, at, bytes.length).set(bytes);
  }

  /** Compiles a payload (JSON text): [handle, null], or [0, the error answer]. */
  compileText(text) {
    this.input(text);
    const handle = this.wasm.compile();
    return handle > 0 ? [handle, null] : [0, { status: -handle, ...this.output() }];
  }

  setModelText(text) {
    this.input(text);
    return this.wasm.model_set();
  }

  /** The value at a JSON pointer of the data model, as a JavaScript value. */
  read(pointer) {
    this.input(pointer);
    if (this.wasm.model_read() !== DONE) throw new Error(JSON.stringify(this.output()));
    return this.output();
  }

  /**
   * Evaluates a compiled payload, answering its tool calls with `callTool(name, arguments)`
   * (a CallToolResult, or a thrown error: the call failed). Returns [status, answer].
   */
  evaluate(handle, callTool) {
    let status = this.wasm.evaluate(handle);
    while (status === WAITING) {
      const request = this.output();
      let result;
      try {
        if (!request.tool) throw new Error(`no resource '${request.resource.uri}'`);
        result = callTool(request.tool.name, request.tool.arguments);
      } catch (e) {
        this.input(String(e.message ?? e));
        status = this.wasm.fail();
        continue;
      }
      status = this.answer(result);
    }
    return [status, this.output()];
  }

  /** Hands a CallToolResult to the waiting evaluation: its status. */
  answer(result) {
    const texts = [];
    let envelope = result;
    const content = result?.content;
    if (Array.isArray(content)) {
      let blocks = null;
      content.forEach((block, i) => {
        if (block?.type === "text" && typeof block.text === "string") {
          texts.push([i, this.putText(block.text)]);
          blocks ??= content.slice();
          const { text, ...rest } = block;
          blocks[i] = rest;
        }
      });
      if (blocks) envelope = { ...result, content: blocks };
    }
    this.input(JSON.stringify({ result: envelope, texts }));
    return this.wasm.answer();
  }

  /** Writes one text block into a new text buffer of the module: its length in bytes. */
  putText(text) {
    const { wasm } = this;
    // Sized for text that is mostly ASCII (one byte per UTF-16 unit, with room for one unit
    // in 32 to take three); grown (once) to the most the rest can take otherwise. Growing
    // copies what was written, which costs as much as a tenth of the writing.
    const room = text.length + (text.length >> 4) + 16;
    let at = wasm.text_buffer(room);
    let { read, written } = encoder.encodeInto(
      text, new Uint8Array(wasm.memory.buffer, at, room));
    if (read < text.length) {
      const rest = text.length - read;
      at = wasm.text_grow(written + 3 * rest);
      const more = encoder.encodeInto(
        text.slice(read), new Uint8Array(wasm.memory.buffer, at + written, 3 * rest));
      written += more.written;
    }
    return written;
  }
}
