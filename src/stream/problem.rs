//! A problem of one message ([`MessageError`]): a view of the crate's [`Error`].

use crate::error::{Category, Error};
use std::fmt;

/// A problem of one message: its category, a JSON Pointer inside the message, and what is wrong.
/// A view of the crate's [`Error`] ([`to_error`](MessageError::to_error)): a problem found by
/// compiling a value keeps the compiler's own error (its code, function and
/// [`missing_catalog`](Error::missing_catalog)), which equality does not look at.
#[derive(Debug, Clone)]
pub struct MessageError {
    /// What kind of problem.
    pub category: Category,
    /// A JSON Pointer inside the message (`""`: the message itself).
    pub pointer: String,
    /// What is wrong.
    pub message: String,
    /// What the engine's error behind it said beyond the category, when it has its own code
    /// (a value that does not compile).
    detail: Option<Box<Detail>>,
}

/// What a [`MessageError`] keeps of the engine's [`Error`] it was made from.
#[derive(Debug, Clone)]
struct Detail {
    code: crate::error::ErrorCode,
    phase: crate::error::Phase,
    function: Option<String>,
    missing_catalog: Option<crate::error::MissingCatalog>,
}

impl PartialEq for MessageError {
    fn eq(&self, other: &MessageError) -> bool {
        (self.category, &self.pointer, &self.message)
            == (other.category, &other.pointer, &other.message)
    }
}

impl Eq for MessageError {}

impl MessageError {
    /// A problem at `pointer`.
    pub fn new(
        category: Category,
        pointer: impl Into<String>,
        message: impl Into<String>,
    ) -> MessageError {
        MessageError {
            category,
            pointer: pointer.into(),
            message: message.into(),
            detail: None,
        }
    }

    /// The problem an [`Error`] of the engine is, at `pointer` in the message: its category,
    /// message, and (through [`to_error`](MessageError::to_error)) its code and function.
    pub fn of_error(error: Error, pointer: impl Into<String>) -> MessageError {
        MessageError {
            category: error.category(),
            pointer: pointer.into(),
            message: error.message().to_owned(),
            detail: Some(Box::new(Detail {
                code: error.code(),
                phase: error.phase(),
                function: error.function().map(str::to_owned),
                missing_catalog: error.missing_catalog().cloned(),
            })),
        }
    }

    /// The crate's [`Error`], located at the pointer, of this category.
    pub fn to_error(&self) -> Error {
        let Some(detail) = &self.detail else {
            return Error::new(self.category.code(), self.message.clone())
                .with_location(self.pointer.clone())
                .with_category(self.category);
        };
        let mut error = Error::new(detail.code, self.message.clone())
            .with_location(self.pointer.clone())
            .with_category(self.category)
            .with_phase(detail.phase);
        if let Some(function) = &detail.function {
            error = error.with_function(function.clone());
        }
        if let Some(missing) = &detail.missing_catalog {
            error = error.with_missing_catalog(missing.clone());
        }
        error
    }
}

impl fmt::Display for MessageError {
    /// `at /createSurface/surfaceId: ValidationError: surfaceId must be a string, got number`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = if self.pointer.is_empty() {
            "/"
        } else {
            &self.pointer
        };
        write!(f, "at {at}: {}: {}", self.category.as_str(), self.message)
    }
}

impl std::error::Error for MessageError {}
