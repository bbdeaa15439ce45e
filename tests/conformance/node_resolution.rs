//! `node_resolution.yaml` (`resolve_nodes`): the case's fixture becomes a surface of a live
//! [`Processor`] (`ProcessorOptions::live`), each step one call of the public API, and the
//! live tree ([`Surface::live`]) with the changes it reported ([`Processor::take_changes`])
//! is compared with the step's expectations.
//!
//! Nodes are named as the suite names them: `root`, then each child by its slot
//! (`root/children/0`, `root/children/0/child`). The mapping of each expectation:
//!
//! - `nodes`: the tree holds exactly those nodes; `component_id`, `type`, `data_path`, `state`
//!   (`resolved`: no state; `pending`), and per property `{value, writable}` (the resolved
//!   value; `writable` when the property is two-way bound, `LiveNode::writable_path`),
//!   `{node}` / `[{node}]` (the children in that slot) or `{action: true}`;
//! - `emissions`: the instances reported updated by the step, each once;
//! - `same_nodes` / `replaced_nodes`: the instance at that name is / is not the one before;
//! - `destroyed`: the instances reported removed, named as they were before the step (a
//!   `dispose`, mapped onto `deleteSurface`, drops every node);
//! - `data`: the data model at those pointers;
//! - `events`: the `action` message an `invoke` built ([`Processor::activate`]);
//! - `functions`: the catalog functions an `invoke` ran (a host function recording its calls).
//!
//! Ops: `write` is [`Processor::write`] on the node's property (its data scope), `set_data` an
//! `updateDataModel` message, `update_components` an `updateComponents` message,
//! `remove_component` [`Processor::remove_component`] (A2UI messages remove no component;
//! the suite's own model does), `dispose` a `deleteSurface` message, `invoke`
//! [`Processor::activate`].

use crate::suite::{Outcome, root};
use a2ui_catalog_mcp::functions::ArgSchema;
use a2ui_catalog_mcp::surfaces::{InstanceId, Processor, ProcessorOptions, ResolveLimits};
use a2ui_catalog_mcp::surfaces::{LiveView, NodeState, slot_pointer};
use a2ui_catalog_mcp::{Args, Catalog, Environment};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// The catalog the fixtures' surfaces use: the basic catalog's component schemas (the suite's
/// `v0_9_1` copy is not shipped; the vendored v1 one has the same components), with `openUrl`
/// implemented by the runner to record its calls.
const CATALOG: &str = "urn:a2ui-conformance:node-resolution";

type Calls = Arc<Mutex<Vec<Value>>>;

fn processor(calls: &Calls) -> Result<Processor, String> {
    let recorded = calls.clone();
    let catalog = Catalog::new(CATALOG).with_function(
        "openUrl",
        ArgSchema::new().required("url"),
        move |args: &Args<'_>| {
            recorded
                .lock()
                .unwrap()
                .push(json!({"name": "openUrl", "args": {"url": args.value_or_null("url")}}));
            Ok(Value::Null)
        },
    );
    let mut env = Environment::new();
    env.add_catalog(catalog);
    let options = ProcessorOptions::default().with_live(ResolveLimits::default());
    let mut p = Processor::with_environment(env, options);
    let basic = std::fs::read_to_string(root().join("catalogs/basic/v1/catalog.json"))
        .map_err(|e| e.to_string())?;
    let mut basic: Value = serde_json::from_str(&basic).map_err(|e| e.to_string())?;
    basic["catalogId"] = json!(CATALOG);
    basic.as_object_mut().unwrap().remove("functions");
    basic.as_object_mut().unwrap().remove("protocolVersion");
    p.register_catalog(&basic).map_err(|e| e.to_string())?;
    Ok(p)
}

/// The tree's nodes by the suite's names, and each instance's name.
fn names(
    live: Option<LiveView<'_>>,
) -> (BTreeMap<String, InstanceId>, HashMap<InstanceId, String>) {
    let mut by_name = BTreeMap::new();
    let mut by_id = HashMap::new();
    let Some(live) = live else {
        return (by_name, by_id);
    };
    for id in live.instances() {
        let node = live.node(id).unwrap();
        let name = match (node.parent(), node.slot()) {
            (Some(parent), Some(slot)) => format!("{}/{}", by_id[&parent], slot_pointer(&slot)),
            _ => "root".to_owned(),
        };
        by_name.insert(name.clone(), id);
        by_id.insert(id, name);
    }
    (by_name, by_id)
}

/// The property a slot belongs to: `children[2]` → `children`.
fn slot_prop(slot: &str) -> &str {
    &slot[..slot.find(['[', '.']).unwrap_or(slot.len())]
}

fn check_nodes(p: &Processor, want: &Value) -> Result<(), String> {
    let live = p.surface("s").and_then(|s| s.live());
    let (by_name, by_id) = names(live);
    let want = want.as_object().ok_or("nodes is not a map")?;
    let have: Vec<&String> = by_name.keys().collect();
    let mut expected: Vec<&String> = want.keys().collect();
    expected.sort();
    if have != expected {
        return Err(format!("nodes {have:?}, expected {expected:?}"));
    }
    let Some(live) = live else { return Ok(()) };
    for (name, spec) in want {
        let node = live.node(by_name[name]).unwrap();
        let field = |k: &str| spec.get(k).and_then(Value::as_str);
        if let Some(id) = field("component_id")
            && id != node.component_id()
        {
            return Err(format!("{name}: component_id {}", node.component_id()));
        }
        if let Some(ty) = field("type")
            && Some(ty) != node.component_type()
        {
            return Err(format!("{name}: type {:?}", node.component_type()));
        }
        if let Some(path) = field("data_path")
            && path != node.data_path().to_string()
        {
            return Err(format!("{name}: data_path {}", node.data_path()));
        }
        if let Some(state) = field("state") {
            let got = match node.state() {
                None => "resolved",
                Some(NodeState::Pending) => "pending",
                Some(NodeState::Failed(_)) => "failed",
            };
            if got != state {
                return Err(format!("{name}: state {got}"));
            }
        }
        let Some(props) = spec.get("props").and_then(Value::as_object) else {
            continue;
        };
        for (prop, want) in props {
            let children: Vec<&String> = node
                .children()
                .iter()
                .filter(|c| {
                    live.node(**c)
                        .and_then(|n| n.slot())
                        .is_some_and(|s| slot_prop(&s) == prop)
                })
                .map(|c| &by_id[c])
                .collect();
            let ok = match want {
                Value::Array(items) => {
                    let names: Vec<&str> =
                        items.iter().filter_map(|i| i["node"].as_str()).collect();
                    children.iter().map(|s| s.as_str()).eq(names)
                }
                Value::Object(w) if w.contains_key("node") => {
                    children.len() == 1 && Some(children[0].as_str()) == w["node"].as_str()
                }
                Value::Object(w) if w.contains_key("action") => node
                    .prop(prop)
                    .is_some_and(|a| a.get("event").is_some() || a.get("functionCall").is_some()),
                Value::Object(w) => {
                    let value = node.prop(prop);
                    let writable = node.writable_path(prop).is_some();
                    w.get("value").is_none_or(|v| value.as_ref() == Some(v))
                        && w.get("writable")
                            .is_none_or(|b| b.as_bool() == Some(writable))
                }
                _ => false,
            };
            if !ok {
                return Err(format!(
                    "{name}.{prop}: expected {want}, got {:?} (writable {}, children {children:?})",
                    node.prop(prop),
                    node.writable_path(prop).is_some()
                ));
            }
        }
    }
    Ok(())
}

/// What one step did, for the step's expectations.
struct Step {
    before: HashMap<InstanceId, String>,
    before_names: BTreeMap<String, InstanceId>,
    emitted: Vec<InstanceId>,
    removed: Vec<InstanceId>,
    disposed: bool,
    event: Option<Value>,
}

fn check_step(p: &Processor, step: &Step, expect: &Value, calls: &Calls) -> Result<(), String> {
    if let Some(nodes) = expect.get("nodes") {
        check_nodes(p, nodes)?;
    }
    let (by_name, by_id) = names(p.surface("s").and_then(|s| s.live()));
    if let Some(want) = expect.get("emissions").and_then(Value::as_object) {
        let mut got: BTreeMap<String, u64> = BTreeMap::new();
        for id in &step.emitted {
            let name = by_id
                .get(id)
                .ok_or("an emitting instance is not in the tree")?;
            *got.entry(name.clone()).or_default() += 1;
        }
        let want: BTreeMap<String, u64> = want
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
            .collect();
        if got != want {
            return Err(format!("emissions {got:?}, expected {want:?}"));
        }
    }
    for (key, same) in [("same_nodes", true), ("replaced_nodes", false)] {
        for name in expect
            .get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = name.as_str().unwrap();
            let (now, then) = (by_name.get(name), step.before_names.get(name));
            if now.is_none() || then.is_none() || (now == then) != same {
                return Err(format!("{key}: {name} is {now:?}, was {then:?}"));
            }
        }
    }
    if let Some(want) = expect.get("destroyed").and_then(Value::as_object) {
        let removed: Vec<InstanceId> = if step.disposed {
            step.before.keys().copied().collect()
        } else {
            step.removed.clone()
        };
        let mut got: BTreeMap<String, u64> = BTreeMap::new();
        for id in removed {
            let name = step
                .before
                .get(&id)
                .ok_or("a removed instance was not in the tree")?;
            *got.entry(name.clone()).or_default() += 1;
        }
        let want: BTreeMap<String, u64> = want
            .iter()
            .map(|(k, v)| (k.clone(), v.as_u64().unwrap_or(0)))
            .collect();
        if got != want {
            return Err(format!("destroyed {got:?}, expected {want:?}"));
        }
    }
    if let Some(want) = expect.get("data").and_then(Value::as_object) {
        let model = p.surface("s").ok_or("no surface")?.data_model();
        for (pointer, value) in want {
            if model.pointer(pointer) != Some(value) {
                return Err(format!("data {pointer}: {:?}", model.pointer(pointer)));
            }
        }
    }
    if let Some(want) = expect.get("events").and_then(Value::as_array) {
        let got: Vec<Value> = step
            .event
            .iter()
            .map(|m| {
                let a = &m["action"];
                json!({"name": a["name"], "source_component_id": a["sourceComponentId"], "context": a["context"]})
            })
            .collect();
        if &got != want {
            return Err(format!("events {got:?}, expected {want:?}"));
        }
    }
    if let Some(want) = expect.get("functions").and_then(Value::as_array) {
        let got = calls.lock().unwrap().clone();
        if &got != want {
            return Err(format!("functions {got:?}, expected {want:?}"));
        }
    }
    Ok(())
}

fn run_op(p: &mut Processor, op: &Value, step: &mut Step) -> Result<(), String> {
    let by_name = &step.before_names;
    let node = |key: &str| -> Result<InstanceId, String> {
        let name = op[key].as_str().ok_or("no node")?;
        by_name.get(name).copied().ok_or(format!("no node {name}"))
    };
    match op["op"].as_str().unwrap_or("") {
        "write" => {
            let prop = op["property"].as_str().ok_or("no property")?;
            p.write("s", node("node")?, prop, op["value"].clone())
                .map_err(|e| e.to_string())
        }
        "set_data" => p
            .process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": op["path"], "value": op["value"]}}))
            .map(drop)
            .map_err(|e| e.to_string()),
        "update_components" => p
            .process(&json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": op["components"]}}))
            .map(drop)
            .map_err(|e| e.to_string()),
        "remove_component" => {
            let id = op["component_id"].as_str().ok_or("no component_id")?;
            p.remove_component("s", id)
                .then_some(())
                .ok_or(format!("no component {id}"))
        }
        "dispose" => {
            step.disposed = true;
            p.process(&json!({"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}))
                .map(drop)
                .map_err(|e| e.to_string())
        }
        "invoke" => {
            let id = node("node")?;
            let live = p.surface("s").and_then(|s| s.live()).ok_or("no tree")?;
            let n = live.node(id).ok_or("no node")?;
            let (component, scope) = (n.component_id().to_owned(), n.data_path().clone());
            let done = p
                .activate("s", &component, &scope, "2026-01-01T00:00:00Z")
                .map_err(|e| e.to_string())?;
            if let Some(e) = done.errors.first() {
                return Err(format!("invoke failed: {e}"));
            }
            step.event = done.message;
            Ok(())
        }
        other => Err(format!("unknown op {other}")),
    }
}

fn fixture(case: &Value) -> Result<Value, String> {
    let path = case["fixture"].as_str().ok_or("no fixture")?;
    let text = std::fs::read_to_string(root().join("conformance").join(path))
        .map_err(|e| e.to_string())?;
    serde_yaml_ng::from_str(&text).map_err(|e| e.to_string())
}

pub fn run(case: &Value) -> Outcome {
    match run_case(case) {
        Ok(()) => Outcome::Passed,
        Err(why) => Outcome::Failed(why),
    }
}

fn run_case(case: &Value) -> Result<(), String> {
    if case["action"] != "resolve_nodes" {
        return Err(format!("unknown action {}", case["action"]));
    }
    let fixture = fixture(case)?;
    let calls: Calls = Arc::default();
    let mut p = processor(&calls)?;
    p.process(&json!({"version": "v1.0", "createSurface": {
        "surfaceId": "s", "catalogId": CATALOG, "dataModel": fixture["data"],
        "components": fixture["components"]}}))
        .map_err(|e| format!("fixture: {e}"))?;
    p.take_changes();
    if let Some(nodes) = case["expect"].get("nodes") {
        check_nodes(&p, nodes).map_err(|e| format!("fixture: {e}"))?;
    }
    for (i, op) in case["steps"].as_array().into_iter().flatten().enumerate() {
        let (before_names, before) = names(p.surface("s").and_then(|s| s.live()));
        let mut step = Step {
            before,
            before_names,
            emitted: Vec::new(),
            removed: Vec::new(),
            disposed: false,
            event: None,
        };
        let at = |e: String| format!("step {i} ({}): {e}", op["op"]);
        run_op(&mut p, op, &mut step).map_err(at)?;
        let changes = p.take_changes();
        if let Some(c) = changes.surfaces.get("s") {
            step.emitted = c.updated.iter().map(|(id, _)| *id).collect();
            step.removed = c.removed.clone();
        }
        check_step(&p, &step, &op["expect"], &calls).map_err(at)?;
    }
    Ok(())
}
