//! A2UI message streams: the text is checked as a stream (`messages::check_stream`,
//! `is_stream`), then each line that parses as JSON is applied to a tracked data model
//! (`TrackedModel::apply_message`). No input may panic, hang or overflow the stack; a message
//! refused with an error changes nothing.
#![no_main]

use a2ui_catalog_mcp::reactive::TrackedModel;
use a2ui_catalog_mcp::{Environment, messages};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};
use std::sync::OnceLock;

/// Built once: making an environment parses the MCP catalog, which would dominate each run.
static ENV: OnceLock<Environment> = OnceLock::new();

fuzz_target!(|input: &[u8]| {
    let Ok(text) = std::str::from_utf8(input) else {
        return;
    };
    let env = ENV.get_or_init(Environment::new);
    let report = messages::check_stream(env, text);
    assert_eq!(report.is_clean(), report.problems().is_empty());
    let _ = messages::is_stream(text);
    let mut model = TrackedModel::new(json!({"rows": ["a", "b"], "user": {"name": "x"}}))
        .with_max_index(10_000);
    for line in text.lines() {
        let Ok(message) = a2ui_catalog_mcp::json::from_str_limited(line, 64) else {
            continue;
        };
        let before: Value = model.get().clone();
        let changes = model.changes().len();
        if model.apply_message(&message).is_err() {
            assert_eq!(model.get(), &before, "a refused message changed the model");
            assert_eq!(
                model.changes().len(),
                changes,
                "a refused message recorded a change"
            );
        }
    }
    let _ = model.take_changes();
});
