//! Compile + evaluate: the first line of the input is the data model, the rest the payload.
#![no_main]

use a2ui_catalog_mcp::{Environment, JsonPointer};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Built once: making an environment parses the MCP catalog, which would dominate each run.
static ENV: OnceLock<Environment> = OnceLock::new();

fuzz_target!(|input: &[u8]| {
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    let (data, payload) = text.split_once('\n').unwrap_or(("{}", text));
    let env = ENV.get_or_init(Environment::new);
    let Ok(mut model) = a2ui_catalog_mcp::json::from_str_limited(data, 64) else {
        return;
    };
    if let Ok(compiled) = env.compile_str(payload) {
        let _ = compiled.eval(&mut model);
        let _ = compiled.eval_in(&mut model, &JsonPointer::from_tokens(["a", "0"]));
    }
});
