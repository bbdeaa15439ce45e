//! [`PathIndex`]: keys registered with the paths they read, and which of them a change set
//! affects.
//!
//! The index is a trie over path tokens, stored in an arena (`Vec<Node>`) and walked with loops,
//! never by recursion, so paths of any depth are safe. Keys are interned into dense `u32` slots;
//! every node keeps two counted sets of slots:
//!
//! - `own`: the slots registered at exactly this path;
//! - `below`: the slots registered at this path or anywhere under it.
//!
//! A change at `P` affects the `own` slots of every node on the way from the root to `P`
//! (ancestors of the change) and every slot in `below` of `P`'s node (the change itself and its
//! descendants). Answering walks `P`'s tokens and reads those sets: the cost is the depth of `P`
//! plus the number of slots reported, whatever else is registered. Keeping `below` costs one
//! counter per node on each registered path, paid at registration.
//!
//! With several changes, each node's `own` set is read at most once, and changes are taken
//! shallowest first so that a change inside a subtree already reported stops where that subtree
//! starts: no subtree is read twice, and a slot registered with a single path is reported at
//! most once without any lookup (only slots with several paths go through a set of seen slots).

use crate::path::JsonPointer;
use std::borrow::Borrow;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// A key's dense handle inside the index.
type Slot = u32;
/// A node's position in the arena.
type NodeId = u32;

const ROOT: NodeId = 0;

/// Hashes the index's own small integers (slots and node ids, handed out densely by the index
/// itself, never taken from input), so a multiplicative hash is enough and much cheaper than
/// SipHash. Path tokens, which come from payloads, keep the standard hasher.
#[derive(Default, Clone, Copy)]
struct DenseHasher(u64);

impl Hasher for DenseHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0 ^ u64::from(n)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type DenseBuild = BuildHasherDefault<DenseHasher>;
type DenseSet = HashSet<u32, DenseBuild>;

/// A multiset of slots: a short vector while small (most trie nodes hold one or two keys);
/// once it grows (the root's `below` holds every key), the same vector plus a map from slot to
/// position, so that reading it stays a scan of a vector and removing one stays O(1).
#[derive(Debug, Default)]
struct CountMap {
    items: Vec<(Slot, u32)>,
    /// Position of each slot in `items`, kept only past `SMALL_MAX` items.
    positions: Option<HashMap<Slot, u32, DenseBuild>>,
}

const SMALL_MAX: usize = 8;

impl CountMap {
    fn position(&self, slot: Slot) -> Option<usize> {
        match &self.positions {
            Some(map) => map.get(&slot).map(|&i| i as usize),
            None => self.items.iter().position(|(s, _)| *s == slot),
        }
    }

    fn add(&mut self, slot: Slot) {
        if let Some(i) = self.position(slot) {
            self.items[i].1 += 1;
            return;
        }
        // Positions fit in u32: there are no more items than slots.
        let at = self.items.len() as u32;
        self.items.push((slot, 1));
        match &mut self.positions {
            Some(map) => {
                map.insert(slot, at);
            }
            None if self.items.len() > SMALL_MAX => {
                let mut map =
                    HashMap::with_capacity_and_hasher(SMALL_MAX * 4, DenseBuild::default());
                map.extend(
                    self.items
                        .iter()
                        .enumerate()
                        .map(|(i, (s, _))| (*s, i as u32)),
                );
                self.positions = Some(map);
            }
            None => {}
        }
    }

    /// Takes one count of `slot` away (a slot that is not there is left alone).
    fn remove(&mut self, slot: Slot) {
        let Some(i) = self.position(slot) else {
            return;
        };
        self.items[i].1 -= 1;
        if self.items[i].1 > 0 {
            return;
        }
        self.items.swap_remove(i);
        if let Some(map) = &mut self.positions {
            map.remove(&slot);
            if let Some((moved, _)) = self.items.get(i) {
                map.insert(*moved, i as u32);
            }
        }
    }

    fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    fn len(&self) -> usize {
        self.items.len()
    }

    fn for_each(&self, mut f: impl FnMut(Slot)) {
        self.items.iter().for_each(|(s, _)| f(*s));
    }
}

#[derive(Debug, Default)]
struct Node {
    parent: NodeId,
    /// The token from the parent (empty for the root), to unlink the node when it empties.
    token: String,
    children: HashMap<String, NodeId>,
    own: CountMap,
    below: CountMap,
}

#[derive(Debug)]
struct Entry<K> {
    key: K,
    /// The node of each registered path (one per path, repeated paths included).
    ends: Vec<NodeId>,
}

/// Keys registered with the data model paths they read, answering which keys a
/// [`ChangeSet`](super::ChangeSet) affects.
///
/// The renderer chooses the keys: a component id and property name, an entity, an index into
/// its own table. The index is generic over them (`K: Eq + Hash + Clone`) so the renderer needs
/// no mapping of its own; inside, each key is interned once into a dense 4-byte handle, so the
/// trie stores and compares handles whatever `K` is, and a key is cloned only when it is
/// reported.
///
/// [`affected`](PathIndex::affected) costs the depth of the changed paths plus the number of
/// keys reported, however many keys are registered; registering a path costs its depth.
///
/// ```
/// use a2ui_catalog_mcp::{JsonPointer, reactive::{ChangeSet, PathIndex}};
/// let p = |s: &str| JsonPointer::parse(s).unwrap();
///
/// let mut index = PathIndex::new();
/// index.register(1, [p("/rows/0/name")]);
/// index.register(2, [p("/rows/1/name")]);
/// index.register(3, [p("/rows")]); // a list bound to the whole array
/// index.register(4, [p("/title"), p("/")]); // reads the whole model too
///
/// let changes: ChangeSet = [p("/rows/1/name")].into_iter().collect();
/// let mut keys = index.affected(&changes);
/// keys.sort();
/// assert_eq!(keys, [2, 3, 4]);
///
/// index.unregister(&4);
/// index.unregister(&99); // unknown: nothing happens
/// let mut keys = index.affected(&[p("/rows")].into_iter().collect());
/// keys.sort();
/// assert_eq!(keys, [1, 2, 3]);
/// ```
#[derive(Debug)]
pub struct PathIndex<K> {
    nodes: Vec<Node>,
    free_nodes: Vec<NodeId>,
    slots: HashMap<K, Slot>,
    entries: Vec<Option<Entry<K>>>,
    free_slots: Vec<Slot>,
}

impl<K: Eq + Hash + Clone> Default for PathIndex<K> {
    fn default() -> PathIndex<K> {
        PathIndex::new()
    }
}

impl<K: Eq + Hash + Clone> PathIndex<K> {
    /// An empty index.
    pub fn new() -> PathIndex<K> {
        PathIndex {
            nodes: vec![Node::default()],
            free_nodes: Vec::new(),
            slots: HashMap::new(),
            entries: Vec::new(),
            free_slots: Vec::new(),
        }
    }

    /// Registers `key` as reading `dependencies` (absolute paths, as
    /// [`Payload::dependencies`](crate::Payload::dependencies) gives them). A key already
    /// registered has its previous dependencies replaced. A key with no dependencies is
    /// registered but never affected.
    pub fn register<I>(&mut self, key: K, dependencies: I)
    where
        I: IntoIterator,
        I::Item: Borrow<JsonPointer>,
    {
        let slot = match self.slots.get(&key) {
            Some(&slot) => {
                self.detach(slot);
                slot
            }
            None => {
                let entry = Entry {
                    key: key.clone(),
                    ends: Vec::new(),
                };
                let slot = match self.free_slots.pop() {
                    Some(slot) => {
                        self.entries[slot as usize] = Some(entry);
                        slot
                    }
                    None => {
                        self.entries.push(Some(entry));
                        // More keys than u32 can count would not fit in memory with their paths.
                        Slot::try_from(self.entries.len() - 1).unwrap_or(Slot::MAX)
                    }
                };
                self.slots.insert(key, slot);
                slot
            }
        };
        let mut ends = Vec::new();
        for path in dependencies {
            ends.push(self.attach(slot, path.borrow()));
        }
        if let Some(entry) = self.entries[slot as usize].as_mut() {
            entry.ends = ends;
        }
    }

    /// Removes `key` and its dependencies. Returns whether it was registered (an unknown key is
    /// a no-op).
    pub fn unregister<Q>(&mut self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let Some(slot) = self.slots.remove(key) else {
            return false;
        };
        self.detach(slot);
        self.entries[slot as usize] = None;
        self.free_slots.push(slot);
        true
    }

    /// Whether `key` is registered.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        self.slots.contains_key(key)
    }

    /// How many keys are registered.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether no key is registered.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The paths `key` was registered with, in registration order (`None` for an unknown key).
    pub fn dependencies_of<Q>(&self, key: &Q) -> Option<Vec<JsonPointer>>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let slot = *self.slots.get(key)?;
        let entry = self.entries[slot as usize].as_ref()?;
        Some(entry.ends.iter().map(|&end| self.path_of(end)).collect())
    }

    /// The keys that the changes affect (see [`affects`](super::affects)), each once, in no
    /// particular order.
    pub fn affected(&self, changes: &super::ChangeSet) -> Vec<K> {
        self.affected_by(changes)
    }

    /// [`affected`](PathIndex::affected) for any list of changed paths (repeats allowed).
    ///
    /// ```
    /// use a2ui_catalog_mcp::{JsonPointer, reactive::PathIndex};
    /// let p = |s: &str| JsonPointer::parse(s).unwrap();
    /// let mut index = PathIndex::new();
    /// index.register("label", [p("/user/name")]);
    /// assert_eq!(index.affected_by(&[p("/user")]), ["label"]);
    /// assert!(index.affected_by(&[p("/username")]).is_empty());
    /// ```
    pub fn affected_by<'a, I>(&self, changes: I) -> Vec<K>
    where
        I: IntoIterator<Item = &'a JsonPointer>,
    {
        let mut order: Vec<&JsonPointer> = changes.into_iter().collect();
        let many = order.len() > 1;
        if many {
            // Shallowest first (stable: ties keep their order), so that a change under one
            // already answered meets that one's node and stops there.
            order.sort_by_key(|p| p.tokens().len());
        }
        let mut out = Collector::new(&self.entries);
        // Nodes whose `own` slots were reported, and nodes whose `below` slots were; only
        // needed when several changes can meet on the same nodes.
        let mut own_read = DenseSet::default();
        let mut below_read = DenseSet::default();
        'changes: for change in order {
            let mut id = ROOT;
            let mut tokens = change.tokens().iter();
            loop {
                if many && below_read.contains(&id) {
                    continue 'changes;
                }
                let node = &self.nodes[id as usize];
                let Some(token) = tokens.next() else {
                    // The changed path itself: everything registered at it or under it.
                    out.keys.reserve(node.below.len());
                    node.below.for_each(|slot| out.push(slot));
                    if many {
                        below_read.insert(id);
                    }
                    continue 'changes;
                };
                // An ancestor of the change: what is registered exactly here.
                if !many || own_read.insert(id) {
                    out.keys.reserve(node.own.len());
                    node.own.for_each(|slot| out.push(slot));
                }
                match node.children.get(token.as_str()) {
                    Some(&child) => id = child,
                    // Nothing is registered at or under the changed path.
                    None => continue 'changes,
                }
            }
        }
        out.keys
    }

    /// Whether a key is registered at `path` or at one of its ancestors. Costs the depth of
    /// `path`.
    pub(crate) fn any_at_or_above(&self, path: &JsonPointer) -> bool {
        self.walk_down(path)
            .is_some_and(|end| !self.nodes[end as usize].own.is_empty())
            || self.any_strictly_above(path)
    }

    /// Whether a key is registered at an ancestor of `path` (not at `path` itself). Costs the
    /// depth of `path`.
    pub(crate) fn any_strictly_above(&self, path: &JsonPointer) -> bool {
        let mut id = ROOT;
        for token in path.tokens() {
            let node = &self.nodes[id as usize];
            if !node.own.is_empty() {
                return true;
            }
            match node.children.get(token.as_str()) {
                Some(&child) => id = child,
                None => return false,
            }
        }
        false
    }

    /// The node of `path`, when the index has one.
    fn walk_down(&self, path: &JsonPointer) -> Option<NodeId> {
        let mut id = ROOT;
        for token in path.tokens() {
            id = *self.nodes[id as usize].children.get(token.as_str())?;
        }
        Some(id)
    }

    /// Whether a key is registered strictly under `path`. Costs the depth of `path`.
    pub(crate) fn any_strictly_below(&self, path: &JsonPointer) -> bool {
        self.walk_down(path).is_some_and(|id| {
            let node = &self.nodes[id as usize];
            node.below.len() > node.own.len()
        })
    }

    /// Appends to `out` the keys registered strictly under `path` (a key registered both at
    /// and under it too; a key registered under two of its children twice). Costs the depth of
    /// `path` plus the keys appended.
    pub(crate) fn strictly_below(&self, path: &JsonPointer, out: &mut Vec<K>) {
        let mut id = ROOT;
        for token in path.tokens() {
            match self.nodes[id as usize].children.get(token.as_str()) {
                Some(&child) => id = child,
                None => return,
            }
        }
        let node = &self.nodes[id as usize];
        let key = |slot: Slot| self.entries[slot as usize].as_ref().map(|e| &e.key);
        for &child in node.children.values() {
            self.nodes[child as usize]
                .below
                .for_each(|slot| out.extend(key(slot).cloned()));
        }
    }

    /// Adds one path of `slot`, creating the nodes it needs; returns the path's node.
    fn attach(&mut self, slot: Slot, path: &JsonPointer) -> NodeId {
        let mut id = ROOT;
        self.nodes[ROOT as usize].below.add(slot);
        for token in path.tokens() {
            id = match self.nodes[id as usize].children.get(token.as_str()) {
                Some(&child) => child,
                None => {
                    let child = self.new_node(id, token);
                    self.nodes[id as usize]
                        .children
                        .insert(token.clone(), child);
                    child
                }
            };
            self.nodes[id as usize].below.add(slot);
        }
        self.nodes[id as usize].own.add(slot);
        id
    }

    /// Removes every path of `slot` and the nodes left empty (the key stays interned).
    fn detach(&mut self, slot: Slot) {
        let ends = match self.entries[slot as usize].as_mut() {
            Some(entry) => std::mem::take(&mut entry.ends),
            None => return,
        };
        for end in ends {
            self.nodes[end as usize].own.remove(slot);
            let mut id = end;
            loop {
                self.nodes[id as usize].below.remove(slot);
                if id == ROOT {
                    break;
                }
                id = self.nodes[id as usize].parent;
            }
            // Unlink the nodes nothing is registered under any more, bottom up.
            let mut id = end;
            while id != ROOT && self.nodes[id as usize].below.is_empty() {
                let node = std::mem::take(&mut self.nodes[id as usize]);
                self.nodes[node.parent as usize]
                    .children
                    .remove(node.token.as_str());
                self.free_nodes.push(id);
                id = node.parent;
            }
        }
    }

    fn new_node(&mut self, parent: NodeId, token: &str) -> NodeId {
        let node = Node {
            parent,
            token: token.to_owned(),
            ..Node::default()
        };
        match self.free_nodes.pop() {
            Some(id) => {
                self.nodes[id as usize] = node;
                id
            }
            None => {
                self.nodes.push(node);
                // As for slots: more nodes than u32 counts would not fit in memory.
                NodeId::try_from(self.nodes.len() - 1).unwrap_or(NodeId::MAX)
            }
        }
    }

    /// Nodes in use, the root included (for tests of pruning).
    #[cfg(test)]
    pub(crate) fn live_nodes(&self) -> usize {
        self.nodes.len() - self.free_nodes.len()
    }

    fn path_of(&self, mut id: NodeId) -> JsonPointer {
        let mut tokens = Vec::new();
        while id != ROOT {
            let node = &self.nodes[id as usize];
            tokens.push(node.token.as_str());
            id = node.parent;
        }
        tokens.reverse();
        JsonPointer::from_tokens(tokens)
    }
}

/// Gathers reported slots as keys. The walk reports a slot registered with one path at most
/// once (see the module documentation), so only slots with several paths are checked against
/// the slots already seen.
struct Collector<'a, K> {
    entries: &'a [Option<Entry<K>>],
    seen: DenseSet,
    keys: Vec<K>,
}

impl<'a, K: Clone> Collector<'a, K> {
    fn new(entries: &'a [Option<Entry<K>>]) -> Collector<'a, K> {
        Collector {
            entries,
            seen: DenseSet::default(),
            keys: Vec::new(),
        }
    }

    fn push(&mut self, slot: Slot) {
        let Some(entry) = &self.entries[slot as usize] else {
            return;
        };
        if entry.ends.len() > 1 && !self.seen.insert(slot) {
            return;
        }
        self.keys.push(entry.key.clone());
    }
}
