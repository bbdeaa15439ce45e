//! What the components of one message say of their surface's spelling ([`Spelled`]), and how
//! many warnings the processor keeps for the host.

use crate::error::Warning;
use crate::syntax::Spelling;

/// The most warnings a processor keeps until the host takes them
/// ([`Processor::take_warnings`](crate::surfaces::Processor::take_warnings)); later ones are dropped.
pub(super) const MAX_WARNINGS: usize = 1024;

/// What the components of one message say of their surface's spelling, and the warnings to give
/// when the message applies.
pub(super) struct Spelled {
    pub(super) spelling: Option<Spelling>,
    pub(super) warnings: Vec<Warning>,
    /// Where values of the other spelling show, on a surface that read the plain one.
    pub(super) mixed_at: Option<String>,
}
