//! The id of an instance of a live tree ([`InstanceId`]): what a tool run, a change and a view
//! name an instance by.

/// An instance of the live tree: stable while the instance lives (a template row keeps its id
/// when items are appended, inserted or removed after it), never reused after it is removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstanceId(pub(super) u64);

impl InstanceId {
    pub(super) fn new(slot: u32, generation: u32) -> InstanceId {
        InstanceId((u64::from(generation) << 32) | u64::from(slot))
    }

    pub(super) fn slot(self) -> u32 {
        // The low half is the slot by construction.
        (self.0 & 0xFFFF_FFFF) as u32
    }

    pub(super) fn generation(self) -> u32 {
        (self.0 >> 32) as u32
    }

    /// The id as a number (for a renderer's own maps).
    pub fn as_u64(self) -> u64 {
        self.0
    }
}

impl std::fmt::Display for InstanceId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}.{}", self.slot(), self.generation())
    }
}
