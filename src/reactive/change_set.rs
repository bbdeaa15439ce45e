//! [`ChangeSet`]: the absolute paths a group of writes changed, and its iterators.

use crate::model::DataModel;
use crate::path::{JsonPointer, array_index};
use indexmap::IndexSet;
use std::collections::HashSet;

/// The absolute paths one or more groups of writes changed, in the order first written, each
/// once.
///
/// A renderer gathers what changed during a frame (or while applying a batch of messages)
/// into one change set, then asks a [`PathIndex`](super::PathIndex) which keys it affects.
/// Writing `/a` and then `/a/b` records both: the set lists writes, it does not simplify them
/// (the index handles overlapping changes itself).
///
/// ```
/// use a2ui_catalog_mcp::{JsonPointer, reactive::ChangeSet};
/// let p = |s: &str| JsonPointer::parse(s).unwrap();
///
/// let mut frame = ChangeSet::new();
/// frame.record(p("/b"));
/// frame.record(p("/a"));
/// frame.record(p("/b")); // already there: keeps its first place
///
/// let mut batch = ChangeSet::new();
/// batch.record(p("/a"));
/// batch.record(p("/c"));
/// frame.merge(batch);
/// assert_eq!(frame.to_strings(), ["/b", "/a", "/c"]);
/// ```
#[derive(Debug, Clone, Default)]
pub struct ChangeSet {
    paths: IndexSet<JsonPointer>,
    /// Arrays recorded only because elements were removed from them (no write at them): a
    /// template over one can move its rows instead of refreshing them all.
    removal_only: HashSet<JsonPointer>,
    /// The elements removed from those arrays, in order: `(array, index at the time)`.
    removals: Vec<(JsonPointer, usize)>,
}

impl ChangeSet {
    /// An empty change set.
    pub fn new() -> ChangeSet {
        ChangeSet::default()
    }

    /// Records a write at `path`. Returns whether the path was new to the set (a path already
    /// recorded keeps its first place).
    pub fn record(&mut self, path: JsonPointer) -> bool {
        if !self.removal_only.is_empty() {
            self.removal_only.remove(&path);
        }
        self.paths.insert(path)
    }

    /// Records the removal of the member or element at `path`; `parent_is_array` says whether
    /// the container it is removed from is an array.
    ///
    /// Removing an array element shifts every element after it, so it is recorded as a change
    /// of the array itself; removing an object member is a change of that member only. Removing
    /// the root is a change of the root.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{JsonPointer, reactive::ChangeSet};
    /// let p = |s: &str| JsonPointer::parse(s).unwrap();
    /// let mut changes = ChangeSet::new();
    /// changes.record_removal(p("/rows/3"), true);
    /// changes.record_removal(p("/user/nickname"), false);
    /// assert_eq!(changes.to_strings(), ["/rows", "/user/nickname"]);
    /// ```
    pub fn record_removal(&mut self, path: JsonPointer, parent_is_array: bool) -> bool {
        match path.tokens().split_last() {
            Some((last, parent)) if parent_is_array => {
                let array = JsonPointer::from_tokens(parent.iter().map(String::as_str));
                let new = self.paths.insert(array.clone());
                if new {
                    self.removal_only.insert(array.clone());
                }
                match array_index(last) {
                    Some(index) if self.removal_only.contains(&array) => {
                        self.removals.push((array, index));
                    }
                    // Not an element this set can follow: a change of the array as a whole.
                    _ => {
                        self.removal_only.remove(&array);
                    }
                }
                new
            }
            _ => self.record(path),
        }
    }

    /// [`record_removal`](ChangeSet::record_removal), looking up in `model` whether the parent
    /// of `path` is an array. Call it before or after the removal: either way the parent is the
    /// same kind of container.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{JsonPointer, reactive::ChangeSet};
    /// use serde_json::json;
    /// let model = json!({"rows": ["a", "b"], "user": {"nickname": "x"}});
    /// let mut changes = ChangeSet::new();
    /// changes.record_removal_in(&model, JsonPointer::parse("/rows/0").unwrap());
    /// changes.record_removal_in(&model, JsonPointer::parse("/user/nickname").unwrap());
    /// assert_eq!(changes.to_strings(), ["/rows", "/user/nickname"]);
    /// ```
    pub fn record_removal_in<M: DataModel + ?Sized>(
        &mut self,
        model: &M,
        path: JsonPointer,
    ) -> bool {
        let parent_is_array = match path.tokens().split_last() {
            Some((_, parent)) => {
                let parent = JsonPointer::from_tokens(parent.iter().map(String::as_str));
                model.read(&parent).is_some_and(|v| v.is_array())
            }
            None => false,
        };
        self.record_removal(path, parent_is_array)
    }

    /// Appends the paths of `other` that are not in this set yet, in `other`'s order: the
    /// change set of two write groups applied one after the other.
    pub fn merge(&mut self, other: ChangeSet) {
        let ChangeSet {
            paths,
            removal_only,
            removals,
        } = other;
        for path in paths {
            let only = removal_only.contains(&path);
            if self.paths.contains(&path) {
                if !only {
                    self.removal_only.remove(&path);
                }
            } else {
                if only {
                    self.removal_only.insert(path.clone());
                }
                self.paths.insert(path);
            }
        }
        self.removals.extend(
            removals
                .into_iter()
                .filter(|(array, _)| self.removal_only.contains(array)),
        );
    }

    /// When `array` was recorded only because elements were removed from it (by
    /// [`record_removal`](ChangeSet::record_removal), no write at it), the indices removed, in
    /// order, each as it was when removed: the elements after it moved up by one. `None` when
    /// the array was written, or not recorded.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{JsonPointer, reactive::ChangeSet};
    /// let p = |s: &str| JsonPointer::parse(s).unwrap();
    /// let mut changes = ChangeSet::new();
    /// changes.record_removal(p("/rows/3"), true);
    /// changes.record_removal(p("/rows/0"), true);
    /// assert_eq!(changes.removals_from(&p("/rows")), Some(vec![3, 0]));
    /// changes.record(p("/rows"));
    /// assert_eq!(changes.removals_from(&p("/rows")), None);
    /// ```
    pub fn removals_from(&self, array: &JsonPointer) -> Option<Vec<usize>> {
        if !self.removal_only.contains(array) {
            return None;
        }
        Some(
            self.removals
                .iter()
                .filter(|(a, _)| a == array)
                .map(|(_, i)| *i)
                .collect(),
        )
    }

    /// The changed paths, in the order first written.
    pub fn iter(&self) -> ChangeSetIter<'_> {
        ChangeSetIter(self.paths.iter())
    }

    /// The `i`-th changed path.
    pub fn get(&self, i: usize) -> Option<&JsonPointer> {
        self.paths.get_index(i)
    }

    /// How many distinct paths changed.
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }

    /// Whether `path` was recorded (exactly; see [`affects`](super::affects) for the relation
    /// between paths).
    pub fn contains(&self, path: &JsonPointer) -> bool {
        self.paths.contains(path)
    }

    /// Forgets every path (keeps the allocation, for the next frame).
    pub fn clear(&mut self) {
        self.paths.clear();
        self.removal_only.clear();
        self.removals.clear();
    }

    /// The paths as JSON Pointer strings (the root is `/`), in order.
    pub fn to_strings(&self) -> Vec<String> {
        self.paths.iter().map(ToString::to_string).collect()
    }
}

/// Two change sets are equal when they list the same paths in the same order.
impl PartialEq for ChangeSet {
    fn eq(&self, other: &ChangeSet) -> bool {
        self.paths.len() == other.paths.len() && self.paths.iter().eq(other.paths.iter())
    }
}

impl Eq for ChangeSet {}

impl Extend<JsonPointer> for ChangeSet {
    fn extend<I: IntoIterator<Item = JsonPointer>>(&mut self, iter: I) {
        for path in iter {
            self.record(path);
        }
    }
}

impl FromIterator<JsonPointer> for ChangeSet {
    fn from_iter<I: IntoIterator<Item = JsonPointer>>(iter: I) -> ChangeSet {
        ChangeSet {
            paths: iter.into_iter().collect(),
            ..ChangeSet::default()
        }
    }
}

impl IntoIterator for ChangeSet {
    type Item = JsonPointer;
    type IntoIter = ChangeSetIntoIter;

    fn into_iter(self) -> ChangeSetIntoIter {
        ChangeSetIntoIter(self.paths.into_iter())
    }
}

impl<'a> IntoIterator for &'a ChangeSet {
    type Item = &'a JsonPointer;
    type IntoIter = ChangeSetIter<'a>;

    fn into_iter(self) -> ChangeSetIter<'a> {
        ChangeSetIter(self.paths.iter())
    }
}

/// The paths of a [`ChangeSet`], by value, in order.
#[derive(Debug)]
pub struct ChangeSetIntoIter(indexmap::set::IntoIter<JsonPointer>);

impl Iterator for ChangeSetIntoIter {
    type Item = JsonPointer;

    fn next(&mut self) -> Option<JsonPointer> {
        self.0.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for ChangeSetIntoIter {}

/// The paths of a [`ChangeSet`], borrowed, in order.
#[derive(Debug, Clone)]
pub struct ChangeSetIter<'a>(indexmap::set::Iter<'a, JsonPointer>);

impl<'a> Iterator for ChangeSetIter<'a> {
    type Item = &'a JsonPointer;

    fn next(&mut self) -> Option<&'a JsonPointer> {
        self.0.next()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl ExactSizeIterator for ChangeSetIter<'_> {}
