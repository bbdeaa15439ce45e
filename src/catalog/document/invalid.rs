//! How a document that cannot be read as a catalog is reported.

use crate::error::{Error, ErrorCode};

pub(super) fn not_a_catalog(why: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::ValidationFailed,
        format!("not an A2UI catalog document: {why}"),
    )
}

pub(super) fn bad_entry(name: &str, why: impl std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::ValidationFailed,
        format!("invalid catalog document: function '{name}': {why}"),
    )
}
