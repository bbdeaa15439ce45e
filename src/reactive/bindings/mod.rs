//! [`Bindings`]: a renderer's bound values, recomputed only where a change set reaches them.
//!
//! One concept a file: what a renderer reads (`state`), the shared values and templates the
//! index points at (`unit`), tool runs (`run`), the keys and their lookups (`registry`),
//! recomputing (`recompute`), templates (`templates`).

mod recompute;
mod registry;
mod run;
mod state;
mod templates;
mod unit;

pub use registry::Bindings;
pub use run::{BindingDone, BindingRun};
pub use state::{Change, RowChanges, ValueState};

#[cfg(all(test, feature = "testing"))]
mod tests;
