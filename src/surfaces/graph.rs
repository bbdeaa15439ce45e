//! The component graph of a surface as a message would leave it: self references and cycles
//! always, dangling children, orphans and a missing `root` in strict mode. Walks use explicit
//! stacks; the candidate graph is the surface's components overlaid with the message's, never
//! a copy.

use super::schema::{ComponentSchema, children_of};
use super::{Component, Surface};
use crate::stream::{Category, ComponentDef, MessageError};
use std::collections::{HashMap, HashSet};

/// The children a component names, still to visit: (id, slot, template).
type Children = std::vec::IntoIter<(String, String, bool)>;

/// The JSON Pointer (relative to the component) of a slot: `children[2]` → `children/2`, `tabs[0].child` → `tabs/0/child`.
///
/// ```
/// assert_eq!(a2ui_catalog_mcp::surfaces::slot_pointer("tabs[0].child"), "tabs/0/child");
/// ```
pub fn slot_pointer(slot: &str) -> String {
    slot.replace("].", "/").replace('[', "/").replace(']', "")
}

/// Checks the graph the surface would have with `new` installed.
pub(crate) fn check<'a>(
    surface: &'a Surface,
    new: &'a [Component],
    strict: bool,
    schema_of: impl Fn(&ComponentDef) -> Option<&'a ComponentSchema>,
) -> Result<(), MessageError> {
    let fresh: HashMap<&str, &ComponentDef> =
        new.iter().map(|c| (c.def.id.as_str(), &c.def)).collect();
    let lookup = |id: &str| -> Option<&'a ComponentDef> {
        fresh
            .get(id)
            .copied()
            .or_else(|| surface.components.get(id).map(|c| &c.def))
    };
    let children = |def: &'a ComponentDef| match surface.components.get(&def.id) {
        Some(old) if !fresh.contains_key(def.id.as_str()) => old.children.clone(),
        _ => children_of(&def.props, schema_of(def)),
    };

    for component in new {
        let def = &component.def;
        for (child, slot, _) in children(def) {
            if child == def.id {
                return Err(MessageError::new(
                    Category::Integrity,
                    format!("{}/{}", def.pointer, slot_pointer(&slot)),
                    format!(
                        "Self-reference detected: component '{}' names itself as its child ({slot})",
                        def.id
                    ),
                ));
            }
            if strict && lookup(&child).is_none() {
                return Err(MessageError::new(
                    Category::Integrity,
                    format!("{}/{}", def.pointer, slot_pointer(&slot)),
                    format!(
                        "Dangling reference: component '{}' names the child '{child}' ({slot}), which is not defined",
                        def.id
                    ),
                ));
            }
        }
    }

    // Cycles: a cycle the message makes passes through one of its components, so a depth-first
    // walk from them finds it. 1 = on the current path, 2 = done.
    let mut state: HashMap<&str, u8> = HashMap::new();
    for start in new {
        if state.contains_key(start.def.id.as_str()) {
            continue;
        }
        let mut stack: Vec<(&str, Children)> = Vec::new();
        let mut path: Vec<&str> = Vec::new();
        let first = start.def.id.as_str();
        state.insert(first, 1);
        path.push(first);
        stack.push((first, children(&start.def).into_iter()));
        while let Some((_, next)) = stack.last_mut() {
            match next.next() {
                Some((child, _, _)) => {
                    let Some(def) = lookup(&child) else { continue };
                    let child = def.id.as_str();
                    match state.get(child) {
                        Some(1) => {
                            let from = path.iter().position(|p| *p == child).unwrap_or(0);
                            let mut cycle: Vec<&str> = path[from..].to_vec();
                            cycle.push(child);
                            return Err(MessageError::new(
                                Category::Integrity,
                                start.def.pointer.clone(),
                                format!("Circular component reference: {}", cycle.join(" → ")),
                            ));
                        }
                        Some(_) => {}
                        None => {
                            state.insert(child, 1);
                            path.push(child);
                            stack.push((child, children(def).into_iter()));
                        }
                    }
                }
                None => {
                    let (done, _) = stack.pop().expect("not empty");
                    state.insert(done, 2);
                    path.pop();
                }
            }
        }
    }

    if strict {
        let Some(root) = lookup("root") else {
            return Err(MessageError::new(
                Category::Integrity,
                "",
                format!(
                    "Missing root component: surface '{}' has no component 'root'",
                    surface.id
                ),
            ));
        };
        let mut reached: HashSet<&str> = HashSet::from(["root"]);
        let mut stack = vec![root];
        while let Some(def) = stack.pop() {
            for (child, _, _) in children(def) {
                if let Some(child) = lookup(&child)
                    && reached.insert(child.id.as_str())
                {
                    stack.push(child);
                }
            }
        }
        let orphan = new
            .iter()
            .map(|c| &c.def)
            .chain(surface.components().map(|c| &c.def))
            .find(|d| !reached.contains(d.id.as_str()));
        if let Some(orphan) = orphan {
            let at = if fresh.contains_key(orphan.id.as_str()) {
                orphan.pointer.clone()
            } else {
                String::new()
            };
            return Err(MessageError::new(
                Category::Integrity,
                at,
                format!(
                    "component '{}' is not reachable from 'root' (an orphan)",
                    orphan.id
                ),
            ));
        }
    }
    Ok(())
}

/// The graph of a surface as it stands (see [`super::GraphProblems`]).
pub(crate) fn problems(surface: &Surface) -> super::GraphProblems {
    let mut out = super::GraphProblems {
        has_root: surface.components.contains_key("root"),
        ..Default::default()
    };
    for component in surface.components() {
        for (child, slot, _) in &component.children {
            if !surface.components.contains_key(child) {
                out.dangling
                    .push((component.def.id.clone(), slot.clone(), child.clone()));
            }
        }
    }
    let mut reached: HashSet<&str> = HashSet::new();
    if out.has_root {
        reached.insert("root");
        let mut stack = vec!["root"];
        while let Some(id) = stack.pop() {
            for (child, _, _) in &surface.components[id].children {
                if let Some((key, _)) = surface.components.get_key_value(child.as_str())
                    && reached.insert(key.as_str())
                {
                    stack.push(key.as_str());
                }
            }
        }
    }
    // Without a root, nothing is reachable: the missing root is the problem, not each
    // component.
    if !out.has_root {
        return out;
    }
    out.orphans = surface
        .components()
        .filter(|c| !reached.contains(c.def.id.as_str()))
        .map(|c| c.def.id.clone())
        .collect();
    out
}
