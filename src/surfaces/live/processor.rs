//! The processor's side of the live trees: building and updating them after each message,
//! host write and tool result, and handing their changes over.

use super::changes::*;
use super::tree::*;
use super::view::*;
use crate::error::{Error, ErrorCode};
use crate::path::{DataPath, JsonPointer};
use crate::surfaces::resolve::ResolveLimits;
use crate::surfaces::tool_runs::{Start, Started};
use crate::surfaces::{Applied, Processor, Surface};
use serde_json::Value;
use std::collections::HashSet;
use std::sync::Arc;

impl Surface {
    /// The live tree, when the processor keeps one
    /// ([`ProcessorOptions::live`](crate::surfaces::ProcessorOptions::live)).
    pub fn live(&self) -> Option<LiveView<'_>> {
        let tree = self.live.as_deref()?;
        Some(LiveView {
            surface: self,
            tree,
        })
    }
}

impl Processor {
    /// What changed since the last call (see [`Changes`]): with
    /// [`ProcessorOptions::live`](crate::surfaces::ProcessorOptions::live) set, every message, write
    /// and refresh records what it changed in the live trees; until taken, changes accumulate.
    pub fn take_changes(&mut self) -> Changes {
        self.journal.take()
    }

    /// A property's tool run ended: it shows the value (or is failed with the error), and the
    /// change is recorded, unless the property was computed again since (`ticket`) or its
    /// instance is gone.
    pub(crate) fn set_prop(
        &mut self,
        surface_id: &str,
        instance: InstanceId,
        index: u32,
        ticket: u64,
        result: Result<Value, String>,
    ) -> bool {
        let Some(surface) = self.surfaces.get_mut(surface_id) else {
            return false;
        };
        let Some(tree) = surface.live.as_deref_mut() else {
            return false;
        };
        if !tree.is_pending(instance, index, ticket) {
            return false;
        }
        let Some(i) = tree.lookup(instance) else {
            return false;
        };
        let Some(prop) = surface
            .components
            .get(&*tree.inst(i).component)
            .and_then(|c| c.compiled.get(index as usize))
            .map(|(name, _)| name.clone())
        else {
            return false;
        };
        // The result is charged as the tree's own values are: past the live trees' byte limit
        // the property fails with LIMIT_EXCEEDED instead of keeping it.
        let before = (tree.count, tree.bytes);
        let room = self.live_totals.room(tree.limits, tree);
        let old = prop_bytes(&tree.inst(i).props[index as usize]);
        let mut state = PropState::Computed(result.map(Arc::new));
        if (tree.bytes - old).saturating_add(prop_bytes(&state)) > room.1 {
            state = PropState::Computed(Err(format!(
                "LIMIT_EXCEEDED: the tool's result would make the live trees hold more than {} bytes (ResolveLimits::max_bytes)",
                tree.limits.max_bytes
            )));
        }
        let new = prop_bytes(&state);
        let inst = tree.inst_mut(i);
        inst.bytes = inst.bytes.saturating_sub(old) + new;
        inst.props[index as usize] = state;
        tree.bytes = tree.bytes.saturating_sub(old) + new;
        self.live_totals.update(before, tree);
        let name = tree.name(&prop);
        self.journal
            .per_surface
            .entry(surface_id.to_owned())
            .or_default()
            .updated
            .push((instance, name));
        true
    }

    /// Updates the live trees after a message that applied.
    pub(crate) fn live_after(&mut self, applied: &Applied, existed: bool) {
        let Some(limits) = self.options.live else {
            return;
        };
        match applied {
            Applied::SurfaceCreated(id) => {
                let Some(surface) = self.surfaces.get_mut(id) else {
                    return;
                };
                let raw = self.journal.per_surface.entry(id.clone()).or_default();
                let (tree, runs) = LiveTree::build(surface, limits, &mut self.live_totals, raw);
                let starts = tree.run_starts(surface, runs);
                surface.live = Some(Box::new(tree));
                self.journal.created_surfaces.push(id.clone());
                self.start_prop_runs(id, starts);
            }
            Applied::SurfaceDeleted(id) if existed => {
                self.journal.per_surface.remove(id);
                self.journal.deleted_surfaces.push(id.clone());
            }
            Applied::ComponentsUpdated { surface_id, ids } => {
                let ids: HashSet<&str> = ids.iter().map(String::as_str).collect();
                self.update_live(surface_id, limits, Some(&ids), None);
            }
            Applied::DataModelUpdated(id) => self.update_live(id, limits, None, None),
            _ => {}
        }
    }

    /// Starts the evaluations of properties that call tools: each runs, read-only, until its
    /// first tool call (its run queued) or its value.
    pub(super) fn start_prop_runs(&mut self, surface_id: &str, starts: Vec<Start>) {
        for start in starts {
            let Some((_, index, ticket)) = start.prop.clone() else {
                continue;
            };
            let Some(instance) = start.instance else {
                continue;
            };
            if let Started::Done(result) = self.start_run(surface_id, start) {
                let result = result.map_err(|e| e.to_string());
                self.set_prop(surface_id, instance, index, ticket, result);
            }
        }
    }

    /// Applies to a surface's live tree the data changes recorded since, then the components
    /// `ids` sent again, if any; the property `skip` is not computed again (it made the
    /// changes).
    pub(super) fn update_live(
        &mut self,
        surface_id: &str,
        limits: ResolveLimits,
        ids: Option<&HashSet<&str>>,
        skip: Option<(InstanceId, u32)>,
    ) {
        let Some(surface) = self.surfaces.get_mut(surface_id) else {
            return;
        };
        let Some(mut tree) = surface.live.take() else {
            return;
        };
        let changes = surface.data.take_changes();
        let raw = self
            .journal
            .per_surface
            .entry(surface_id.to_owned())
            .or_default();
        let skip = skip.and_then(|(instance, index)| Some((tree.lookup(instance)?, index)));
        let before = (tree.count, tree.bytes);
        let mut work = Work {
            surface,
            limits,
            room: self.live_totals.room(limits, &tree),
            eval: None,
            raw,
            dirty: Vec::new(),
            runs: Vec::new(),
            skip,
        };
        tree.apply_data(&mut work, &changes);
        if let Some(ids) = ids {
            tree.apply_components(&mut work, ids);
        }
        let runs = std::mem::take(&mut work.runs);
        self.live_totals.update(before, &tree);
        let starts = tree.run_starts(surface, runs);
        surface.live = Some(tree);
        self.start_prop_runs(surface_id, starts);
    }

    /// Applies to the live tree of `surface_id` the data changes made by other means since
    /// the last message or write: through [`Surface::tracked_data_model`](crate::surfaces::Surface::tracked_data_model), or by an action's
    /// function call ([`Processor::activate`](crate::surfaces::Processor::activate)). Nothing to do without
    /// [`ProcessorOptions::live`](crate::surfaces::ProcessorOptions::live).
    pub fn refresh(&mut self, surface_id: &str) {
        self.refresh_skipping(surface_id, None);
    }

    /// [`refresh`](Processor::refresh), without computing the property `skip` again.
    pub(crate) fn refresh_skipping(&mut self, surface_id: &str, skip: Option<(InstanceId, u32)>) {
        if let Some(limits) = self.options.live {
            self.update_live(surface_id, limits, None, skip);
        }
    }

    /// The host writes `value` into the property `prop` of an instance: a two-way bound input
    /// (its property a bare binding, `{"path": P}`) writes `P` in the instance's data context.
    /// What it changed is recorded ([`take_changes`](Processor::take_changes)). A property
    /// that is not a bare binding, an instance gone, or a write the model refuses is an error
    /// and changes nothing.
    ///
    /// ```
    /// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, ResolveLimits};
    /// use serde_json::json;
    /// let mut p = Processor::new(ProcessorOptions::default().with_accept_unregistered_catalogs(true).with_live(ResolveLimits::default()));
    /// p.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
    ///     "dataModel": {"people": [{"name": "Ada"}, {"name": "Lin"}]},
    ///     "components": [
    ///         {"id": "root", "component": "Column", "children": {"componentId": "field", "path": "/people"}},
    ///         {"id": "field", "component": "TextField", "label": "Name", "value": {"path": "name"}}
    ///     ]}})).unwrap();
    /// let created = p.take_changes();
    /// assert_eq!(created.surfaces["s"].created.len(), 3);
    /// let live = p.surface("s").unwrap().live().unwrap();
    /// let second = live.node(live.root().unwrap()).unwrap().children()[1];
    ///
    /// p.write("s", second, "value", json!("Grace"))?;
    /// assert_eq!(p.surface("s").unwrap().data_model()["people"][1]["name"], "Grace");
    /// let changes = p.take_changes();
    /// assert_eq!(changes.surfaces["s"].updated, [(second, vec!["value".to_string()])]);
    ///
    /// // An item appended: one instance made, the rows before it kept, the list's children changed.
    /// p.process(&json!({"version": "v1.0", "updateDataModel": {"surfaceId": "s", "path": "/people/2", "value": {"name": "Bo"}}})).unwrap();
    /// let changes = p.take_changes();
    /// assert_eq!(changes.surfaces["s"].created.len(), 1);
    /// assert_eq!(changes.surfaces["s"].updated[0].1, ["children"]);
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn write(
        &mut self,
        surface_id: &str,
        instance: InstanceId,
        prop: &str,
        value: Value,
    ) -> Result<(), Error> {
        let bad = |why: String| Error::new(ErrorCode::ValidationFailed, why);
        let surface = self
            .surfaces
            .get(surface_id)
            .ok_or_else(|| bad(format!("Surface not found: '{surface_id}'")))?;
        let live = surface.live().ok_or_else(|| {
            bad("the processor keeps no live tree (set ProcessorOptions::live)".into())
        })?;
        let node = live
            .node(instance)
            .ok_or_else(|| bad(format!("no instance {instance} in surface '{surface_id}'")))?;
        let path = node.writable_path(prop).ok_or_else(|| {
            bad(format!(
                "property '{prop}' of '{}' is not two-way bound (not a bare path binding)",
                node.key()
            ))
        })?;
        self.set_data(surface_id, &path, value)
    }

    /// The host writes `value` at `path` (absolute, or relative to `context`, a node's data
    /// context), as a two-way bound input does; recorded as [`write`](Processor::write) is.
    pub fn write_path(
        &mut self,
        surface_id: &str,
        context: &JsonPointer,
        path: &str,
        value: Value,
    ) -> Result<(), Error> {
        let path = DataPath::parse(path)?.resolve(context);
        self.set_data(surface_id, &path, value)
    }

    pub(super) fn set_data(
        &mut self,
        surface_id: &str,
        path: &JsonPointer,
        value: Value,
    ) -> Result<(), Error> {
        let surface = self.surfaces.get_mut(surface_id).ok_or_else(|| {
            Error::new(
                ErrorCode::ValidationFailed,
                format!("Surface not found: '{surface_id}'"),
            )
        })?;
        surface.data.set(path, value)?;
        self.refresh(surface_id);
        Ok(())
    }

    /// The host removes a component from a surface (A2UI messages have no removal; a host
    /// editing a surface, or a test harness, may): its instances become pending placeholders,
    /// and the root's removal empties the tree when nothing else is left. Returns whether
    /// there was one.
    pub fn remove_component(&mut self, surface_id: &str, component_id: &str) -> bool {
        let Some(surface) = self.surfaces.get_mut(surface_id) else {
            return false;
        };
        let Some(removed) = surface.components.remove(component_id) else {
            return false;
        };
        surface.parents.unlink(component_id, &removed.children);
        surface.component_bytes -= removed.bytes;
        surface.order.retain(|id| id != component_id);
        if let Some(limits) = self.options.live {
            let ids = HashSet::from([component_id]);
            self.update_live(surface_id, limits, Some(&ids), None);
        }
        true
    }
}
