//! The component graph of a surface as a message would leave it: self references and cycles
//! always, dangling children, orphans and a missing `root` in strict mode.
//!
//! Each check costs what the message touches, not the graph behind it (a message re-sending
//! the parent of a 100 000-component subtree walks none of it):
//!
//! - a cycle the message makes passes through an edge the message adds (a child its component
//!   did not name before), since the surface as it stands has none. Such an edge `u → v` closes
//!   a cycle only if `u` is reachable from `v`, so two searches run side by side, forward from
//!   the new edges' children and backward (through [`Parents`]) from their parents; the first to
//!   finish bounds the region any such cycle lies in, and a depth-first walk of that region
//!   alone finds it. The work is about twice the smaller of the two searches, and at most
//!   [`MAX_STEPS_BASE`] plus [`STEPS_PER_EDGE`] per edge the message names: a message that
//!   would need more (it links a long ancestry to a large subtree) is refused with
//!   `LIMIT_EXCEEDED`.
//! - in strict mode the surface as it stands has no orphan (the message that would have left
//!   one was refused), and its graph has no cycle and no dangling child, so a component is
//!   unreachable from `root` exactly when it, or one of its ancestors, has no parent. Only the
//!   message's components and the children its components stop naming can lose their last
//!   parent, so only they are looked at.
//!
//! Walks use explicit stacks; the candidate graph is the surface's components overlaid with
//! the message's, never a copy.

use super::{Component, Surface};
use crate::error::Error;
use crate::stream::Category;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The edges a message's cycle check may always follow (see the module's documentation);
/// with [`STEPS_PER_EDGE`], what bounds the check's work per message.
///
/// ```
/// use a2ui_catalog_mcp::surfaces::{MAX_STEPS_BASE, STEPS_PER_EDGE};
/// // A message naming 10 children may follow this many edges looking for a cycle.
/// assert_eq!(MAX_STEPS_BASE + 10 * STEPS_PER_EDGE, 66_176);
/// ```
pub const MAX_STEPS_BASE: usize = 1 << 16;

/// The further edges a message's cycle check may follow per child the message names.
pub const STEPS_PER_EDGE: usize = 64;

/// The JSON Pointer (relative to the component) of a slot: `children[2]` → `children/2`, `tabs[0].child` → `tabs/0/child`.
///
/// ```
/// assert_eq!(a2ui_catalog_mcp::surfaces::slot_pointer("tabs[0].child"), "tabs/0/child");
/// ```
pub fn slot_pointer(slot: &str) -> String {
    slot.replace("].", "/").replace('[', "/").replace(']', "")
}

/// Who names each component: the reverse of every component's children, kept by the
/// processor as components are installed and removed. Ids are shared (`Arc<str>`), so a long
/// id naming many children is stored once per component, not once per edge.
#[derive(Debug, Default)]
pub(crate) struct Parents {
    /// Child id (defined or not) → parent id → how many of that parent's slots name it.
    by_child: HashMap<Arc<str>, HashMap<Arc<str>, u32>>,
}

impl Parents {
    /// Records the edges of `parent`.
    pub(crate) fn link(&mut self, parent: &str, children: &[(String, String, bool)]) {
        if children.is_empty() {
            return;
        }
        let parent: Arc<str> = match self.by_child.get_key_value(parent) {
            Some((key, _)) => key.clone(),
            None => Arc::from(parent),
        };
        for (child, _, _) in children {
            let map = match self.by_child.get_mut(child.as_str()) {
                Some(map) => map,
                None => self.by_child.entry(Arc::from(child.as_str())).or_default(),
            };
            *map.entry(parent.clone()).or_insert(0) += 1;
        }
    }

    /// Forgets the edges of `parent` (as [`link`](Parents::link) recorded them).
    pub(crate) fn unlink(&mut self, parent: &str, children: &[(String, String, bool)]) {
        for (child, _, _) in children {
            let Some(map) = self.by_child.get_mut(child.as_str()) else {
                continue;
            };
            if let Some(count) = map.get_mut(parent) {
                *count -= 1;
                if *count == 0 {
                    map.remove(parent);
                }
            }
            if map.is_empty() {
                self.by_child.remove(child.as_str());
            }
        }
    }

    /// The distinct components that name `child`.
    fn of<'a>(&'a self, child: &str) -> impl Iterator<Item = &'a str> + 'a {
        self.by_child
            .get(child)
            .into_iter()
            .flat_map(|map| map.keys().map(|k| &**k))
    }
}

/// The surface's graph with a message's components in place of the ones they replace.
struct Overlay<'a> {
    surface: &'a Surface,
    fresh: HashMap<&'a str, &'a Component>,
    /// For each child the message's components name: those components.
    fresh_parents: HashMap<&'a str, Vec<&'a str>>,
}

impl<'a> Overlay<'a> {
    fn new(surface: &'a Surface, new: &'a [Component]) -> Overlay<'a> {
        let fresh: HashMap<&str, &Component> = new.iter().map(|c| (c.def.id.as_str(), c)).collect();
        let mut fresh_parents: HashMap<&str, Vec<&str>> = HashMap::new();
        for c in new {
            for (child, _, _) in &c.children {
                let parents = fresh_parents.entry(child.as_str()).or_default();
                // A parent naming a child in two slots is one parent.
                if parents.last() != Some(&c.def.id.as_str()) {
                    parents.push(c.def.id.as_str());
                }
            }
        }
        Overlay {
            surface,
            fresh,
            fresh_parents,
        }
    }

    /// The component an id names, as the message would leave it.
    fn get(&self, id: &str) -> Option<&'a Component> {
        self.fresh
            .get(id)
            .copied()
            .or_else(|| self.surface.components.get(id))
    }

    /// The children ids of a component, defined or not.
    fn children(&self, id: &str) -> impl Iterator<Item = &'a str> + 'a {
        self.get(id)
            .into_iter()
            .flat_map(|c| c.children.iter().map(|(child, _, _)| child.as_str()))
    }

    /// The distinct components that would name `id` (each parent at most once from the
    /// surface; a message's component replaces its old edges).
    fn parents(&self, id: &str) -> impl Iterator<Item = &'a str> + '_ {
        let surface = self.surface;
        let kept = surface
            .parents
            .of(id)
            .filter(|p| !self.fresh.contains_key(p));
        let added = self.fresh_parents.get(id).into_iter().flatten().copied();
        kept.chain(added)
    }

    /// Whether `id` would have a parent. A stored parent counts unless the message replaces
    /// it (a replaced parent that still names `id` is among the message's parents); stopping
    /// at the first that counts, the scan passes only edges the message's components had.
    fn has_parent(&self, id: &str) -> bool {
        self.fresh_parents.contains_key(id)
            || self
                .surface
                .parents
                .of(id)
                .any(|p| !self.fresh.contains_key(p))
    }
}

/// Checks the graph the surface would have with `new` installed.
pub(crate) fn check(surface: &Surface, new: &[Component], strict: bool) -> Result<(), Error> {
    let overlay = Overlay::new(surface, new);

    for component in new {
        let def = &component.def;
        for (child, slot, _) in &component.children {
            if *child == def.id {
                return Err(Error::in_message(
                    Category::Integrity,
                    format!("{}/{}", def.pointer, slot_pointer(slot)),
                    format!(
                        "Self-reference detected: component '{}' names itself as its child ({slot})",
                        def.id
                    ),
                ));
            }
            if strict && overlay.get(child).is_none() {
                return Err(Error::in_message(
                    Category::Integrity,
                    format!("{}/{}", def.pointer, slot_pointer(slot)),
                    format!(
                        "Dangling reference: component '{}' names the child '{child}' ({slot}), which is not defined",
                        def.id
                    ),
                ));
            }
        }
    }

    cycles(&overlay, new)?;

    if strict {
        orphans(&overlay, new)?;
    }
    Ok(())
}

/// The edges a message adds: children a component did not name before (or all of a new
/// component's), as (message index of the parent, child).
fn added_edges<'a>(overlay: &Overlay<'a>, new: &'a [Component]) -> Vec<(usize, &'a str)> {
    let mut out = Vec::new();
    for (at, component) in new.iter().enumerate() {
        if component.children.is_empty() {
            continue;
        }
        let old: HashSet<&str> = match overlay.surface.components.get(&component.def.id) {
            Some(old) => old.children.iter().map(|(c, _, _)| c.as_str()).collect(),
            None => HashSet::new(),
        };
        for (child, _, _) in &component.children {
            // A child not defined anywhere cannot be on a cycle.
            if !old.contains(child.as_str()) && overlay.get(child).is_some() {
                out.push((at, child.as_str()));
            }
        }
    }
    out
}

/// One of the two searches of [`cycles`]: breadth-first from its seeds, one node at a time.
struct Search<'a> {
    seen: HashSet<&'a str>,
    queue: std::collections::VecDeque<&'a str>,
    steps: usize,
}

impl<'a> Search<'a> {
    fn new(seeds: impl Iterator<Item = &'a str>) -> Search<'a> {
        let mut seen = HashSet::new();
        let mut queue = std::collections::VecDeque::new();
        for seed in seeds {
            if seen.insert(seed) {
                queue.push_back(seed);
            }
        }
        Search {
            seen,
            queue,
            steps: 0,
        }
    }

    /// Expands one node through `next`; false once there is nothing left.
    fn step<I: Iterator<Item = &'a str>>(&mut self, next: impl FnOnce(&'a str) -> I) -> bool {
        let Some(id) = self.queue.pop_front() else {
            return false;
        };
        for n in next(id) {
            self.steps += 1;
            #[cfg(test)]
            tests::count(1);
            if self.seen.insert(n) {
                self.queue.push_back(n);
            }
        }
        true
    }
}

fn cycles(overlay: &Overlay<'_>, new: &[Component]) -> Result<(), Error> {
    let edges = added_edges(overlay, new);
    if edges.is_empty() {
        return Ok(());
    }
    let named: usize = new.iter().map(|c| c.children.len()).sum();
    let budget = MAX_STEPS_BASE.saturating_add(named.saturating_mul(STEPS_PER_EDGE));

    // Forward from the new edges' children (defined ones), backward from their parents.
    let mut forward = Search::new(edges.iter().map(|(_, child)| *child));
    let mut backward = Search::new(edges.iter().map(|(at, _)| new[*at].def.id.as_str()));
    let forward_done = loop {
        // The side that has done less goes next, so the work stays near twice the smaller.
        let go_forward = forward.steps <= backward.steps;
        let more = if go_forward {
            // Children not defined are seeds of nothing, but following them is counted.
            forward.step(|id| overlay.children(id))
        } else {
            backward.step(|id| overlay.parents(id))
        };
        if !more {
            break go_forward;
        }
        if forward.steps + backward.steps > budget {
            return Err(Error::in_message(
                Category::Recursion,
                "",
                format!(
                    "checking this message's components for a cycle would follow more than {budget} edges of surface '{}' (the limit for a message naming {named} children)",
                    overlay.surface.id
                ),
            ));
        }
    };

    // Any cycle through a new edge lies in the finished search's region: walk it alone,
    // forward, or backward (a cycle of parents is a cycle reversed).
    let cycle = if forward_done {
        find_cycle(&forward.seen, |id| overlay.children(id))
    } else {
        find_cycle(&backward.seen, |id| overlay.parents(id)).map(|mut c| {
            c.reverse();
            c
        })
    };
    let Some(mut cycle) = cycle else {
        return Ok(());
    };
    // Named from the first of the message's components on it, as the message lists them.
    let rank: HashMap<&str, usize> = new
        .iter()
        .enumerate()
        .map(|(i, c)| (c.def.id.as_str(), i))
        .collect();
    cycle.pop(); // the first node again
    let start = (0..cycle.len())
        .filter(|i| rank.contains_key(cycle[*i]))
        .min_by_key(|i| rank[cycle[*i]])
        .unwrap_or(0);
    cycle.rotate_left(start);
    cycle.push(cycle[0]);
    let pointer = rank
        .get(cycle[0])
        .map(|i| new[*i].def.pointer.clone())
        .unwrap_or_default();
    Err(Error::in_message(
        Category::Integrity,
        pointer,
        format!("Circular component reference: {}", cycle.join(" → ")),
    ))
}

/// A cycle among `region`'s nodes through `next` (restricted to the region), as a path whose
/// last node is its first; depth-first with an explicit stack.
fn find_cycle<'a, I: Iterator<Item = &'a str>>(
    region: &HashSet<&'a str>,
    next: impl Fn(&'a str) -> I,
) -> Option<Vec<&'a str>> {
    // 1 = on the current path, 2 = done.
    let mut state: HashMap<&str, u8> = HashMap::with_capacity(region.len());
    // Visit in a fixed order, so the cycle named does not depend on hashing.
    let mut starts: Vec<&str> = region.iter().copied().collect();
    starts.sort_unstable();
    for start in starts {
        if state.contains_key(start) {
            continue;
        }
        let mut stack: Vec<(&str, I)> = vec![(start, next(start))];
        let mut path: Vec<&str> = vec![start];
        state.insert(start, 1);
        while let Some((_, iter)) = stack.last_mut() {
            let n = iter.next();
            #[cfg(test)]
            tests::count(1);
            match n {
                Some(n) if region.contains(n) => match state.get(n) {
                    Some(1) => {
                        let from = path.iter().position(|p| *p == n).unwrap_or(0);
                        let mut cycle = path[from..].to_vec();
                        cycle.push(n);
                        return Some(cycle);
                    }
                    Some(_) => {}
                    None => {
                        state.insert(n, 1);
                        path.push(n);
                        stack.push((n, next(n)));
                    }
                },
                Some(_) => {}
                None => {
                    let (done, _) = stack.pop().expect("not empty");
                    state.insert(done, 2);
                    path.pop();
                }
            }
        }
    }
    None
}

/// Strict mode: a missing `root`, and the orphans the message would leave (see the module's
/// documentation for why only the message's components and the children they drop are looked
/// at).
fn orphans(overlay: &Overlay<'_>, new: &[Component]) -> Result<(), Error> {
    if overlay.get("root").is_none() {
        return Err(Error::in_message(
            Category::Integrity,
            "",
            format!(
                "Missing root component: surface '{}' has no component 'root'",
                overlay.surface.id
            ),
        ));
    }
    let dropped = new.iter().flat_map(|c| {
        overlay
            .surface
            .components
            .get(&c.def.id)
            .into_iter()
            .flat_map(|old| old.children.iter().map(|(child, _, _)| child.as_str()))
    });
    let mut seen = HashSet::new();
    let candidates = new.iter().map(|c| c.def.id.as_str()).chain(dropped);
    for id in candidates {
        #[cfg(test)]
        tests::count(1);
        if !seen.insert(id) || id == "root" || overlay.get(id).is_none() || overlay.has_parent(id) {
            continue;
        }
        let at = overlay
            .fresh
            .get(id)
            .map(|c| c.def.pointer.clone())
            .unwrap_or_default();
        return Err(Error::in_message(
            Category::Integrity,
            at,
            format!("component '{id}' is not reachable from 'root' (an orphan)"),
        ));
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

#[cfg(test)]
mod tests {
    //! The work of each check is counted (edges and candidates looked at), so these tests
    //! bound the work, not the clock.
    use crate::surfaces::{Processor, ProcessorOptions};
    use serde_json::{Value, json};
    use std::cell::Cell;

    thread_local! {
        static STEPS: Cell<u64> = const { Cell::new(0) };
    }

    pub(super) fn count(n: u64) {
        STEPS.with(|s| s.set(s.get() + n));
    }

    /// The steps `run` took.
    fn steps(run: impl FnOnce()) -> u64 {
        STEPS.with(|s| s.set(0));
        run();
        STEPS.with(Cell::get)
    }

    const BASIC: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

    fn processor(strict: bool) -> Processor {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/a2ui-v1/schemas/catalogs/basic/catalog.json"
        ))
        .unwrap();
        let mut p = Processor::new(ProcessorOptions::default().with_strict(strict));
        p.register_catalog(&serde_json::from_str(&text).unwrap())
            .unwrap();
        p
    }

    fn create(components: Vec<Value>) -> Value {
        json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": BASIC, "components": components}})
    }

    fn update(components: Vec<Value>) -> Value {
        json!({"version": "v1.0", "updateComponents": {"surfaceId": "s", "components": components}})
    }

    fn column(id: &str, children: &[String]) -> Value {
        json!({"id": id, "component": "Column", "children": children})
    }

    fn text(id: &str) -> Value {
        json!({"id": id, "component": "Text", "text": "x"})
    }

    fn chain(n: usize) -> Vec<Value> {
        (0..n)
            .map(|i| {
                if i + 1 < n {
                    json!({"id": format!("c{i}"), "component": "Card", "child": format!("c{}", i + 1)})
                } else {
                    text(&format!("c{i}"))
                }
            })
            .collect()
    }

    /// Issue 34's first graph case: a parent of a 100 000-component subtree sent again 4 000
    /// times walked the subtree each time.
    #[test]
    fn a_parent_sent_again_does_not_walk_its_subtree() {
        for strict in [false, true] {
            let mut p = processor(strict);
            let kids: Vec<String> = (0..20_000).map(|i| format!("k{i}")).collect();
            let mut components = vec![column("root", &["big".to_owned()]), column("big", &kids)];
            components.extend(kids.iter().map(|k| text(k)));
            p.process(&create(components)).unwrap();
            let work = steps(|| {
                for _ in 0..4_000 {
                    p.process(&update(vec![column("root", &["big".to_owned()])]))
                        .unwrap();
                }
            });
            assert!(work <= 4 * 4_000, "strict {strict}: {work} steps");
        }
    }

    /// Issue 34's second: a 4 000-component chain re-rooted 4 000 times (root names another
    /// link of it each time) walked the chain below the new child each time.
    #[test]
    fn re_rooting_a_chain_costs_what_the_message_names() {
        let n = 4_000;
        let mut p = processor(false);
        let mut components = chain(n);
        components.push(json!({"id": "root", "component": "Card", "child": "c0"}));
        p.process(&create(components)).unwrap();
        let work = steps(|| {
            for i in 0..n {
                let m = update(vec![
                    json!({"id": "root", "component": "Card", "child": format!("c{}", (i * 7) % n)}),
                ]);
                p.process(&m).unwrap();
            }
        });
        // Each message: the backward search from root finds no parent.
        assert!(work <= 8 * n as u64, "{work} steps");
    }

    /// In strict mode, the same chain grown at its tail one link per message: the orphan check
    /// looks at the new link and the edge it fills, not the chain from root.
    #[test]
    fn strict_growth_costs_what_the_message_names() {
        let n = 4_000;
        let mut p = processor(true);
        p.process(&create(vec![
            json!({"id": "root", "component": "Card", "child": "c0"}),
            text("c0"),
        ]))
        .unwrap();
        let work = steps(|| {
            for i in 0..n {
                p.process(&update(vec![
                    json!({"id": format!("c{i}"), "component": "Card", "child": format!("c{}", i + 1)}),
                    text(&format!("c{}", i + 1)),
                ]))
                .unwrap();
            }
        });
        assert!(work <= 16 * n as u64, "{work} steps");
        assert!(p.surface("s").unwrap().graph_problems().orphans.is_empty());
    }

    /// A message linking a long ancestry to a large subtree is refused once it would follow
    /// more edges than its budget, and changes nothing.
    #[test]
    fn a_cycle_search_past_the_budget_is_refused() {
        let n = 100_000;
        let mut p = Processor::new(
            ProcessorOptions::default()
                .with_max_components(n + 10)
                .with_max_held_bytes(256 << 20),
        );
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/a2ui-v1/schemas/catalogs/basic/catalog.json"
        ))
        .unwrap();
        p.register_catalog(&serde_json::from_str(&text).unwrap())
            .unwrap();
        let mut components = chain(n);
        components.push(json!({"id": "root", "component": "Card", "child": "c0"}));
        p.process(&create(components)).unwrap();
        // The middle link names the head of a chain as deep below as above: no cycle (the
        // chain's tail is a Text), but each search would cover 100 000 links.
        let mid = n / 2;
        let err = p
            .process(&update(vec![json!({"id": format!("c{mid}"), "component": "Row", "children": [format!("c{}", mid + 1), format!("c{}", mid + 2)]})]))
            .unwrap_err();
        assert_eq!(
            err.category().code(),
            crate::ErrorCode::LimitExceeded,
            "{err}"
        );
        let s = p.surface("s").unwrap();
        assert_eq!(s.component(&format!("c{mid}")).unwrap().component, "Card");
    }

    #[test]
    fn cycles_through_several_new_edges_are_found_and_named_from_the_message() {
        let mut p = processor(false);
        p.process(&create(vec![
            column("root", &["a".to_owned()]),
            column("a", &["b".to_owned()]),
            column("b", &["c".to_owned()]),
            text("c"),
            text("d"),
        ]))
        .unwrap();
        // c → d and d → a: a cycle a → b → c → d → a through two new edges.
        let err = p
            .process(&update(vec![
                column("c", &["d".to_owned()]),
                column("d", &["a".to_owned()]),
            ]))
            .unwrap_err();
        assert_eq!(
            err.message(),
            "Circular component reference: c → d → a → b → c"
        );
        assert_eq!(err.location(), "/updateComponents/components/0");
        // A new edge whose child leads elsewhere is no cycle, and a dropped edge frees one:
        // b stops naming c, then c may name b.
        p.process(&update(vec![column("c", &["d".to_owned()])]))
            .unwrap();
        p.process(&update(vec![
            column("b", &[]),
            column("c", &["b".to_owned()]),
        ]))
        .unwrap();
        // A child defined later closes a cycle through its own edges.
        p.process(&update(vec![column("e", &["f".to_owned()])]))
            .unwrap();
        let err = p
            .process(&update(vec![column("f", &["e".to_owned()])]))
            .unwrap_err();
        assert_eq!(err.message(), "Circular component reference: f → e → f");
    }

    #[test]
    fn strict_orphans_from_dropped_edges_and_removed_parents() {
        let mut p = processor(true);
        p.process(&create(vec![
            column("root", &["a".to_owned(), "b".to_owned()]),
            column("a", &["x".to_owned()]),
            column("b", &["x".to_owned()]),
            text("x"),
        ]))
        .unwrap();
        // x keeps a parent (b) when a drops it.
        p.process(&update(vec![column("a", &[])])).unwrap();
        // Now b drops it too: x is an orphan, reported at the surface (it is not in the message).
        let err = p.process(&update(vec![column("b", &[])])).unwrap_err();
        assert_eq!(
            err.message(),
            "component 'x' is not reachable from 'root' (an orphan)"
        );
        assert_eq!(err.location(), "");
        // Moving x from b to a in one message is fine.
        p.process(&update(vec![
            column("b", &[]),
            column("a", &["x".to_owned()]),
        ]))
        .unwrap();
        // A new subtree hanging from nothing: its top is the orphan named.
        let err = p
            .process(&update(vec![text("y"), column("z", &["y".to_owned()])]))
            .unwrap_err();
        assert_eq!(
            err.message(),
            "component 'z' is not reachable from 'root' (an orphan)"
        );
        assert_eq!(err.location(), "/updateComponents/components/1");
        let s = p.surface("s").unwrap();
        assert!(s.component("y").is_none());
        assert!(s.graph_problems().orphans.is_empty());
    }

    /// The incremental checks against a walk of the whole candidate graph (what the checks
    /// did before they were incremental), over thousands of random messages on a dozen ids:
    /// they accept and refuse the same messages.
    #[test]
    fn incremental_checks_agree_with_whole_graph_walks() {
        use std::collections::{HashMap, HashSet};
        let mut next = crate::test_rng::below(0x2545_f491_4f6c_dd1d);
        let ids = [
            "root", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k",
        ];
        for strict in [false, true] {
            let mut p = processor(strict);
            let mut committed: HashMap<&str, Vec<&str>> = HashMap::new();
            let mut created = false;
            if strict {
                // A strict stream starts whole: a chain through every id.
                let chain: Vec<Value> = ids
                    .iter()
                    .enumerate()
                    .map(|(i, id)| {
                        let kids: Vec<String> =
                            ids.get(i + 1).map(|k| k.to_string()).into_iter().collect();
                        column(id, &kids)
                    })
                    .collect();
                p.process(&create(chain)).unwrap();
                for (i, id) in ids.iter().enumerate() {
                    committed.insert(id, ids.get(i + 1).into_iter().copied().collect());
                }
                created = true;
            }
            let (mut accepted, mut refused) = (0, 0);
            for _ in 0..3_000 {
                let mut message: Vec<(&str, Vec<&str>)> = Vec::new();
                for _ in 0..1 + next(3) {
                    let id = ids[next(ids.len() as u64) as usize];
                    if message.iter().any(|(m, _)| *m == id) {
                        continue;
                    }
                    // Mostly children already defined, so that strict streams grow too.
                    let known: Vec<&str> = committed.keys().copied().collect();
                    let kids = (0..next(4))
                        .map(|_| {
                            if next(4) != 0 && !known.is_empty() {
                                let mut sorted = known.clone();
                                sorted.sort_unstable();
                                sorted[next(sorted.len() as u64) as usize]
                            } else {
                                ids[next(ids.len() as u64) as usize]
                            }
                        })
                        .collect::<Vec<_>>();
                    message.push((id, kids));
                }
                // The oracle: the candidate graph walked whole.
                let mut candidate = committed.clone();
                for (id, kids) in &message {
                    candidate.insert(id, kids.clone());
                }
                let self_ref = message.iter().any(|(id, kids)| kids.contains(id));
                let dangling = strict
                    && message
                        .iter()
                        .any(|(_, kids)| kids.iter().any(|k| !candidate.contains_key(k)));
                let cycle = {
                    let mut state: HashMap<&str, u8> = HashMap::new();
                    let mut found = false;
                    for start in candidate.keys() {
                        if state.contains_key(start) {
                            continue;
                        }
                        let mut stack = vec![(*start, 0usize)];
                        state.insert(start, 1);
                        while let Some((node, at)) = stack.pop() {
                            let kids = &candidate[node];
                            if at < kids.len() {
                                stack.push((node, at + 1));
                                let kid = kids[at];
                                if !candidate.contains_key(kid) {
                                    continue;
                                }
                                match state.get(kid) {
                                    Some(1) => found = true,
                                    Some(_) => {}
                                    None => {
                                        state.insert(kid, 1);
                                        stack.push((kid, 0));
                                    }
                                }
                            } else {
                                state.insert(node, 2);
                            }
                        }
                    }
                    found
                };
                let unreachable = strict && {
                    match candidate.get("root") {
                        None => true,
                        Some(_) => {
                            let mut seen: HashSet<&str> = HashSet::from(["root"]);
                            let mut stack = vec!["root"];
                            while let Some(n) = stack.pop() {
                                for k in &candidate[n] {
                                    if candidate.contains_key(k) && seen.insert(k) {
                                        stack.push(k);
                                    }
                                }
                            }
                            seen.len() < candidate.len()
                        }
                    }
                };
                let expect_ok = !(self_ref || dangling || cycle || unreachable);
                let components: Vec<Value> = message
                    .iter()
                    .map(|(id, kids)| {
                        let kids: Vec<String> = kids.iter().map(|k| k.to_string()).collect();
                        column(id, &kids)
                    })
                    .collect();
                let got = if created {
                    p.process(&update(components))
                } else {
                    p.process(&create(components))
                };
                assert_eq!(
                    got.is_ok(),
                    expect_ok,
                    "strict {strict}: {message:?} on {committed:?}: {got:?}"
                );
                if expect_ok {
                    created = true;
                    committed = candidate;
                    accepted += 1;
                } else {
                    refused += 1;
                }
            }
            eprintln!("strict {strict}: {accepted} accepted, {refused} refused");
            assert!(
                accepted > 50 && refused > 100,
                "strict {strict}: {accepted} / {refused}"
            );
        }
    }
}
