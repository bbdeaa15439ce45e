//! What the live trees changed, as the host takes it ([`Processor::take_changes`](crate::surfaces::Processor::take_changes)):
//! instance ids and the journal they are recorded in.

pub(super) use crate::surfaces::instance::InstanceId;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// What changed in one surface ([`Changes::surfaces`](crate::surfaces::Changes::surfaces)).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SurfaceChanges {
    /// Instances made, in the order they were made (parents before children).
    pub created: Vec<InstanceId>,
    /// Instances dropped (their children included), in the order they were dropped.
    pub removed: Vec<InstanceId>,
    /// Instances that existed before and still do, with the properties whose resolved value
    /// changed, sorted by instance, each property once. A property naming children (`child`,
    /// `children`) is listed when the instances it names changed (a template's rows appeared
    /// or disappeared, a placeholder was replaced); `checks` when the checks' outcome did. An
    /// instance whose component was sent again (same type) lists every property of the new
    /// definition: one complete snapshot, as `node_resolution.yaml` expects.
    pub updated: Vec<(InstanceId, Vec<String>)>,
}

impl SurfaceChanges {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.created.is_empty() && self.removed.is_empty() && self.updated.is_empty()
    }
}

/// What changed since the last [`Processor::take_changes`](crate::surfaces::Processor::take_changes).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Changes {
    /// Surfaces created (and still there).
    pub surfaces_created: Vec<String>,
    /// Surfaces deleted.
    pub surfaces_deleted: Vec<String>,
    /// Per surface still there, what changed in its tree (surfaces where nothing did are not
    /// listed; a surface created is listed with its instances created).
    pub surfaces: BTreeMap<String, SurfaceChanges>,
}

impl Changes {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.surfaces_created.is_empty()
            && self.surfaces_deleted.is_empty()
            && self.surfaces.is_empty()
    }
}

/// Tool runs started in one update: (instance, property, ticket).
pub(super) type Runs = Vec<(u32, u32, u64)>;

/// Changes as they are recorded, put in order by [`Processor::take_changes`](crate::surfaces::Processor::take_changes).
#[derive(Debug, Default)]
pub(crate) struct Journal {
    pub(super) created_surfaces: Vec<String>,
    pub(super) deleted_surfaces: Vec<String>,
    pub(super) per_surface: HashMap<String, Raw>,
}

#[derive(Debug, Default)]
pub(super) struct Raw {
    pub(super) created: Vec<InstanceId>,
    pub(super) removed: Vec<InstanceId>,
    pub(super) updated: Vec<(InstanceId, Arc<str>)>,
}

impl Journal {
    pub(super) fn take(&mut self) -> Changes {
        let journal = std::mem::take(self);
        let deleted: HashSet<&String> = journal.deleted_surfaces.iter().collect();
        let created: HashSet<&String> = journal.created_surfaces.iter().collect();
        let mut out = Changes {
            surfaces_created: journal
                .created_surfaces
                .iter()
                .filter(|s| !deleted.contains(s))
                .cloned()
                .collect(),
            surfaces_deleted: journal
                .deleted_surfaces
                .iter()
                .filter(|s| !created.contains(s))
                .cloned()
                .collect(),
            surfaces: BTreeMap::new(),
        };
        for (surface, raw) in journal.per_surface {
            // A surface deleted since (and not created again) has nothing left to report.
            if deleted.contains(&surface) && !out.surfaces_created.contains(&surface) {
                continue;
            }
            let removed: HashSet<InstanceId> = raw.removed.iter().copied().collect();
            let created: HashSet<InstanceId> = raw.created.iter().copied().collect();
            let mut updated: Vec<(InstanceId, Arc<str>)> = raw
                .updated
                .into_iter()
                .filter(|(id, _)| !removed.contains(id) && !created.contains(id))
                .collect();
            updated.sort_unstable();
            updated.dedup();
            let mut grouped: Vec<(InstanceId, Vec<String>)> = Vec::new();
            for (id, prop) in updated {
                match grouped.last_mut() {
                    Some((last, props)) if *last == id => props.push(prop.to_string()),
                    _ => grouped.push((id, vec![prop.to_string()])),
                }
            }
            let changes = SurfaceChanges {
                created: raw
                    .created
                    .into_iter()
                    .filter(|id| !removed.contains(id))
                    .collect(),
                removed: raw
                    .removed
                    .into_iter()
                    .filter(|id| !created.contains(id))
                    .collect(),
                updated: grouped,
            };
            if !changes.is_empty() {
                out.surfaces.insert(surface, changes);
            }
        }
        out
    }
}
