//! The data model a surface binds to, as a trait the host implements, and the built-in
//! implementation over a `serde_json::Value`.
//!
//! The engine resolves paths, rejects the forbidden tokens and groups writes; the store only
//! reads a pointer and applies a group of writes all or nothing. The rules a store follows are
//! on [`DataModel`] and, for implementers, in `docs/data-model.md`; [`apply_writes`] and
//! [`read_value`] implement them over a `serde_json::Value`.

mod data_model;
mod read;
mod shared;
mod write;

pub use data_model::DataModel;
pub(crate) use data_model::padding_bound;
pub use read::read_value;
pub use shared::SharedModel;
pub(crate) use write::check_write_depth;
pub use write::{Write, apply_writes};
