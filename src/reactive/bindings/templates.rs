//! Templates: one payload evaluated in each element of an array, its rows reported one by one
//! ([`RowChanges`](crate::reactive::RowChanges)).

use super::recompute::{Outcome, settle};
use super::registry::Bindings;
use super::state::{Change, RowChanges, ValueState};
use super::unit::{Slot, Template};
use crate::error::{Error, ErrorCode};
use crate::model::DataModel;
use crate::path::JsonPointer;
use crate::payload::Payload;
use crate::reactive::{ChangeSet, PathIndex};
use serde_json::Value;
use std::borrow::{Borrow, Cow};
use std::hash::Hash;
use std::sync::Arc;

impl<K: Eq + Hash + Clone> Bindings<K> {
    /// Binds `key` to a template's per-row property: `payload` evaluated in each element of the
    /// array at `array`, in the data context `array/i` joined with `item` (a path relative to
    /// the element; the root for the element itself). One registration, whatever the number
    /// of rows: the rows follow the array. A change reports, in [`Change::rows`], which rows
    /// appeared, disappeared, were removed (the rows after them moving up) or changed; a one-row
    /// edit refreshes that row alone, and a bare `{"@path": …}` row is never evaluated.
    ///
    /// A key already bound (to a value or a template) is bound again. A payload that may write
    /// is refused (`DATA_ERROR`), and so is one that calls a tool (bind such rows one by one
    /// with [`register`](Bindings::register), each with its own run).
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Environment, JsonPointer, DataModel};
    /// use a2ui_catalog_mcp::reactive::{Bindings, TrackedModel};
    /// use serde_json::json;
    /// use std::sync::Arc;
    ///
    /// let env = Environment::new();
    /// let name = Arc::new(env.compile(&json!({"@path": "name"}))?);
    /// let p = |s: &str| JsonPointer::parse(s).unwrap();
    /// let mut model = TrackedModel::new(json!({"rows": [{"name": "a"}, {"name": "b"}, {"name": "c"}]}));
    /// let mut bindings = Bindings::new();
    /// bindings.register_template("list.name", p("/rows"), name, JsonPointer::root())?;
    /// let first = bindings.refresh(&mut model);
    /// assert_eq!(first[0].rows.as_ref().unwrap().appeared, 0..3);
    ///
    /// // One row edited: that row alone.
    /// model.set(&p("/rows/2/name"), json!("c2"))?;
    /// let rows = bindings.refresh(&mut model).remove(0).rows.unwrap();
    /// assert_eq!(rows.changed, [2]);
    /// assert_eq!(bindings.row_value("list.name", 2, model.get()).as_deref(), Some(&json!("c2")));
    ///
    /// // Row 0 removed: rows 1 and 2 moved up, nothing to evaluate or redraw.
    /// model.remove(&p("/rows/0"))?;
    /// let rows = bindings.refresh(&mut model).remove(0).rows.unwrap();
    /// assert_eq!((rows.removed, rows.changed, rows.len), (vec![0], vec![], 2));
    ///
    /// // A row appended.
    /// model.set(&p("/rows/2"), json!({"name": "d"}))?;
    /// let rows = bindings.refresh(&mut model).remove(0).rows.unwrap();
    /// assert_eq!(rows.appeared, 2..3);
    /// assert_eq!(bindings.evaluations(), 0);
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn register_template(
        &mut self,
        key: K,
        array: JsonPointer,
        payload: Arc<Payload>,
        item: JsonPointer,
    ) -> Result<(), Error> {
        if payload.may_write() || payload.calls_tools() {
            return Err(Error::new(
                ErrorCode::DataError,
                "a template's bound value must only read the data model: this payload may \
                 write, or calls a tool (bind such rows one by one with register, each with its \
                 own run)",
            ));
        }
        // Rows are the array's path plus an index plus the item context: bounded as a
        // register context is.
        let max_depth = payload.limits().max_depth;
        crate::path::check_pointer(&array, max_depth.saturating_sub(1 + item.tokens().len()))?;
        self.detach_template(&key);
        self.detach_key(&key);
        let item: Vec<String> = item.tokens().to_vec();
        let join =
            |tokens: &[String]| -> Vec<String> { item.iter().chain(tokens).cloned().collect() };
        let bare = match payload.bare_path() {
            Some(crate::path::DataPath::Relative(tokens)) => Some(join(tokens)).filter(|t| {
                !JsonPointer::from_tokens(t.iter().map(String::as_str)).has_forbidden_token()
            }),
            _ => None,
        };
        let row_deps: Vec<Vec<String>> = payload.relative_dependencies().map(join).collect();
        let abs_deps: Vec<JsonPointer> = payload.absolute_dependencies().cloned().collect();
        let mut deps = abs_deps.clone();
        deps.push(array.clone());
        let template = Template {
            key: key.clone(),
            array,
            payload,
            item,
            bare,
            row_deps,
            abs_deps,
            rows: Vec::new(),
            len: 0,
            fresh: true,
        };
        let id = match self.free_templates.pop() {
            Some(id) => {
                self.templates[id as usize] = Some(template);
                id
            }
            None => {
                self.templates.push(Some(template));
                u32::try_from(self.templates.len() - 1).unwrap_or(u32::MAX)
            }
        };
        self.index.register(Slot::Template(id), &deps);
        self.template_keys.insert(key, id);
        self.fresh_templates.push(id);
        Ok(())
    }

    /// Drops the template bound to `key`, if any; returns whether there was one.
    pub(super) fn detach_template<Q>(&mut self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let Some(id) = self.template_keys.remove(key) else {
            return false;
        };
        self.templates[id as usize] = None;
        self.index.unregister(&Slot::Template(id));
        self.free_templates.push(id);
        true
    }

    /// How many rows the template bound to `key` had at the last recompute.
    pub fn rows<Q>(&self, key: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let id = *self.template_keys.get(key)?;
        Some(self.templates[id as usize].as_ref()?.len)
    }

    /// The state of row `row` of the template bound to `key`: [`Bound`](ValueState::Bound)
    /// for a bare binding (read it with [`row_value`](Bindings::row_value)).
    pub fn row_state<Q>(&self, key: &Q, row: usize) -> Option<&ValueState>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
    {
        let id = *self.template_keys.get(key)?;
        let template = self.templates[id as usize].as_ref()?;
        if row >= template.len {
            return None;
        }
        match template.bare {
            Some(_) => Some(&ValueState::Bound),
            None => template.rows.get(row),
        }
    }

    /// The value of row `row` of the template bound to `key`, lent without copying (as
    /// [`value`](Bindings::value)): a bare binding's borrowed from `model`, a computed one from
    /// the bindings.
    pub fn row_value<'a, Q, M>(
        &'a self,
        key: &Q,
        row: usize,
        model: &'a M,
    ) -> Option<Cow<'a, Value>>
    where
        K: Borrow<Q>,
        Q: Eq + Hash + ?Sized,
        M: DataModel + ?Sized,
    {
        let id = *self.template_keys.get(key)?;
        let template = self.templates[id as usize].as_ref()?;
        if row >= template.len {
            return None;
        }
        match &template.bare {
            Some(tokens) => {
                let mut path = template.array.clone();
                path.push(row.to_string());
                for token in tokens {
                    path.push(token.clone());
                }
                Some(model.read(&path).unwrap_or(Cow::Owned(Value::Null)))
            }
            None => template.rows.get(row)?.value().map(Cow::Borrowed),
        }
    }

    /// Refreshes a template: the rows the changes reach (all of them when `changes` is `None`,
    /// for a new template), and reports what changed.
    pub(super) fn refresh_template<M: DataModel + ?Sized>(
        &mut self,
        id: u32,
        model: &M,
        changes: Option<(&ChangeSet, &PathIndex<u32>)>,
        out: &mut Vec<Change<K>>,
    ) {
        let Some(template) = self.templates[id as usize].as_mut() else {
            return;
        };
        let len = model
            .read(&template.array)
            .and_then(|v| v.as_array().map(Vec::len))
            .unwrap_or(0);
        let old_len = template.len;
        let mut rows = RowChanges {
            len,
            ..RowChanges::default()
        };
        // The rows there were (after removals) that the changes reach.
        let mut reach: Vec<usize> = Vec::new();
        let mut all = false;
        match changes {
            None => {
                all = true;
                rows.replaced = true;
            }
            Some((changes, located)) => {
                let mut under: Vec<u32> = Vec::new();
                located.strictly_below(&template.array, &mut under);
                let removals = changes
                    .removals_from(&template.array)
                    .filter(|_| under.is_empty() && !located.any_strictly_above(&template.array));
                if let Some(removed) = removals {
                    // Each removal must name a row there was, and the count must add up;
                    // otherwise the array changed in a way removals do not explain.
                    let fits = removed.len() <= old_len
                        && old_len - removed.len() == len
                        && removed.iter().enumerate().all(|(n, &i)| i < old_len - n);
                    if fits {
                        for &i in &removed {
                            if template.bare.is_none() && i < template.rows.len() {
                                template.rows.remove(i);
                            }
                        }
                        rows.removed = removed;
                    } else {
                        all = true;
                        rows.replaced = true;
                    }
                } else if located.any_at_or_above(&template.array) {
                    all = true;
                    rows.replaced = true;
                }
                if !all
                    && template
                        .abs_deps
                        .iter()
                        .any(|d| located.any_at_or_above(d) || located.any_strictly_below(d))
                {
                    all = true;
                }
                if !all {
                    let depth = template.array.tokens().len();
                    for change in under {
                        let Some(path) = changes.get(change as usize) else {
                            continue;
                        };
                        let tokens = &path.tokens()[depth..];
                        let Some(row) = tokens.first().and_then(|t| crate::path::array_index(t))
                        else {
                            continue;
                        };
                        let rest = &tokens[1..];
                        let reads = template.row_deps.iter().any(|d| {
                            let common = d.len().min(rest.len());
                            d[..common] == rest[..common]
                        });
                        if reads {
                            reach.push(row);
                        }
                    }
                    reach.sort_unstable();
                    reach.dedup();
                }
            }
        }
        let before = old_len - rows.removed.len();
        let kept = before.min(len);
        if all {
            reach = (0..kept).collect();
        }
        reach.retain(|&row| row < kept);
        rows.appeared = kept..len;
        rows.disappeared = len..before.max(len);
        match template.bare {
            Some(_) => {
                self.recomputed += (reach.len() + rows.appeared.len()) as u64;
                rows.changed = reach;
            }
            None => {
                template.rows.truncate(kept);
                for row in reach {
                    let context = template.row_context(row);
                    self.evaluations += 1;
                    self.recomputed += 1;
                    let outcome = Outcome::Evaluated(template.payload.eval_read(model, &context));
                    let old = std::mem::replace(&mut template.rows[row], ValueState::Bound);
                    let (state, changed) = settle(Some(old), outcome);
                    template.rows[row] = state;
                    if changed {
                        rows.changed.push(row);
                    }
                }
                for row in rows.appeared.clone() {
                    let context = template.row_context(row);
                    self.evaluations += 1;
                    self.recomputed += 1;
                    let outcome = Outcome::Evaluated(template.payload.eval_read(model, &context));
                    template.rows.push(settle(None, outcome).0);
                }
            }
        }
        template.len = len;
        if !rows.is_empty() {
            out.push(Change {
                key: template.key.clone(),
                under: Arc::from([]),
                rows: Some(Box::new(rows)),
            });
        }
    }
}
