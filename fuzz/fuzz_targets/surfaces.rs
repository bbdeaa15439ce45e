//! The message processor driven by generated streams: surfaces whose components form
//! templates over generated arrays, DAGs of shared children, chains, cycles and placeholders,
//! then repeated `updateComponents`, `updateDataModel` and `deleteSurface` messages, through a
//! processor that keeps its trees live and one that resolves them whole (`render_json`). Under
//! small `ResolveLimits`, each message's work and every tree are bounded: the live trees of all
//! surfaces together never hold more than the node limit, nor does what `render_json` gives.
#![no_main]

use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, ResolveLimits};
use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

const IDS: &[&str] = &["root", "a", "b", "c", "d", "row", "cell"];
const SURFACES: &[&str] = &["s", "t"];
const PATHS: &[&str] = &["/a", "/b", "/a/0", "", "name", "/s", "/a/0/b"];

fn limits() -> ResolveLimits {
    let mut limits = ResolveLimits::default();
    limits.max_nodes = 2_000;
    limits.max_bytes = 1 << 20;
    limits.max_template_items = 300;
    limits
}

/// A model value: arrays of generated lengths (templates over them), strings of generated
/// lengths (values bound by many nodes).
fn value(u: &mut Unstructured<'_>) -> Result<Value> {
    Ok(match u.int_in_range(0..=5)? {
        0 => Value::Array(vec![json!(0); u.int_in_range(0..=400)?]),
        1 => Value::Array(vec![
            json!({"b": [1, 2, 3], "name": "n"});
            u.int_in_range(0..=50)?
        ]),
        2 => json!("x".repeat(u.int_in_range(0..=5_000)?)),
        3 => json!(u.int_in_range(-3..=3)?),
        4 => json!({"a": [0, 0], "b": "y"}),
        _ => Value::Null,
    })
}

/// A component: a container of shared children, a template over a path, or a leaf bound to a
/// path or computed.
fn component(u: &mut Unstructured<'_>, id: &str) -> Result<Value> {
    Ok(match u.int_in_range(0..=5)? {
        0 => {
            let n = u.int_in_range(0..=40)?;
            let children: Vec<&str> = (0..n)
                .map(|_| u.choose(IDS).copied())
                .collect::<Result<_>>()?;
            json!({"id": id, "component": "Column", "children": children})
        }
        1 => json!({"id": id, "component": "List",
            "children": {"componentId": u.choose(IDS)?, "path": u.choose(PATHS)?}}),
        2 => json!({"id": id, "component": "Card", "child": u.choose(IDS)?}),
        3 => json!({"id": id, "component": "Text", "text": {"path": u.choose(PATHS)?}}),
        4 => json!({"id": id, "component": "Text",
            "text": {"call": "formatString", "args": {"value": "${/s}${/s} ${@index}"}}}),
        _ => json!({"id": id, "component": "Text", "text": "x"}),
    })
}

fn components(u: &mut Unstructured<'_>) -> Result<Value> {
    let n = u.int_in_range(1..=IDS.len())?;
    let mut out = Vec::with_capacity(n);
    for id in &IDS[..n] {
        out.push(component(u, id)?);
    }
    Ok(Value::Array(out))
}

fn message(u: &mut Unstructured<'_>) -> Result<Value> {
    let surface = u.choose(SURFACES)?;
    Ok(match u.int_in_range(0..=5)? {
        0 => {
            let model = json!({"a": value(u)?, "b": value(u)?, "s": value(u)?});
            json!({"version": "v1.0", "createSurface": {"surfaceId": surface, "catalogId": "c",
                "dataModel": model, "components": components(u)?}})
        }
        1 | 2 => json!({"version": "v1.0", "updateComponents": {"surfaceId": surface,
            "components": components(u)?}}),
        3 | 4 => json!({"version": "v1.0", "updateDataModel": {"surfaceId": surface,
            "path": u.choose(&["/a", "/b", "/s", "/a/0", "/a/1"])?, "value": value(u)?}}),
        _ => json!({"version": "v1.0", "deleteSurface": {"surfaceId": surface}}),
    })
}

fn run(u: &mut Unstructured<'_>) -> Result<()> {
    let options = ProcessorOptions::default().with_accept_unregistered_catalogs(true);
    let mut live = Processor::new(options.clone().with_live(limits()));
    let mut plain = Processor::new(options);
    let mut errors = Vec::new();
    for _ in 0..u.int_in_range(1..=16)? {
        let m = message(u)?;
        // The message is repeated: the work of each is bounded, not only the first's.
        for _ in 0..u.int_in_range(1..=3)? {
            let _ = live.process(&m);
            live.take_changes();
            errors.extend(plain.process(&m).err());
        }
        let nodes: usize = live
            .surfaces()
            .filter_map(|s| s.live())
            .map(|t| t.len())
            .sum();
        assert!(nodes <= limits().max_nodes, "{nodes} live nodes");
    }
    let out = plain.render_json(&errors, limits());
    let drawn: usize = out["surfaces"]
        .as_object()
        .map(|s| {
            s.values()
                .filter_map(|v| v["nodes"].as_array())
                .map(Vec::len)
                .sum()
        })
        .unwrap_or(0);
    assert!(drawn <= limits().max_nodes, "{drawn} nodes rendered");
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let _ = run(&mut Unstructured::new(data));
});
