//! Errors of the JMESPath engine.

use std::fmt;

/// Why a JMESPath expression failed to compile or to evaluate.
///
/// The first five follow the error names of the JMESPath compliance suite (`syntax`,
/// `unknown-function`, `invalid-arity`, `invalid-type`, `invalid-value`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum JmespathErrorKind {
    /// The text is not a standard JMESPath expression (`a[`, `let $x = ...`, `a ? b : c`).
    Syntax,
    /// A call to a function that is not one of the 26 built-ins (`foo(@)`).
    UnknownFunction,
    /// A built-in called with the wrong number of arguments (`abs()`).
    Arity,
    /// An argument of the wrong type at run time (`abs('x')`).
    InvalidType,
    /// A value that is never valid where it is written (a slice step of `0`).
    InvalidValue,
    /// The expression is too long or nests too deeply, or evaluation did too much work.
    LimitExceeded,
}

impl JmespathErrorKind {
    /// The name the JMESPath compliance suite uses for this kind (`syntax`, `invalid-type`, ...);
    /// `limit-exceeded` for [`JmespathErrorKind::LimitExceeded`].
    pub fn as_str(self) -> &'static str {
        match self {
            JmespathErrorKind::Syntax => "syntax",
            JmespathErrorKind::UnknownFunction => "unknown-function",
            JmespathErrorKind::Arity => "invalid-arity",
            JmespathErrorKind::InvalidType => "invalid-type",
            JmespathErrorKind::InvalidValue => "invalid-value",
            JmespathErrorKind::LimitExceeded => "limit-exceeded",
        }
    }
}

impl fmt::Display for JmespathErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A compile or run-time failure of a JMESPath expression.
///
/// The message reads on its own (`unknown function 'foo()'`,
/// `syntax error at offset 8: expected ']', found end of expression`); it does not repeat the
/// expression, which the caller adds.
///
/// ```
/// use a2ui_catalog_mcp::jmespath::{Expression, JmespathErrorKind};
/// let err = Expression::compile("foo(@)").unwrap_err();
/// assert_eq!(err.kind(), JmespathErrorKind::UnknownFunction);
/// assert_eq!(err.message(), "unknown function 'foo()'");
/// assert_eq!(err.offset(), Some(0));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JmespathError {
    kind: JmespathErrorKind,
    message: String,
    offset: Option<usize>,
}

/// The message of an evaluation stopped by its allowance of output values.
pub(crate) const OUTPUT_LIMIT: &str =
    "evaluation exceeded its budget of output values (the result is too large)";

impl JmespathError {
    /// Whether the evaluation was stopped by its allowance of output values (rather than steps).
    pub(crate) fn is_output_limit(&self) -> bool {
        self.kind == JmespathErrorKind::LimitExceeded && self.message == OUTPUT_LIMIT
    }

    pub(crate) fn new(kind: JmespathErrorKind, message: impl Into<String>) -> Self {
        JmespathError {
            kind,
            message: message.into(),
            offset: None,
        }
    }

    /// A syntax error at a byte offset of the expression; the offset is part of the message.
    pub(crate) fn syntax(offset: usize, what: impl fmt::Display) -> Self {
        JmespathError {
            kind: JmespathErrorKind::Syntax,
            message: format!("syntax error at offset {offset}: {what}"),
            offset: Some(offset),
        }
    }

    pub(crate) fn at(mut self, offset: usize) -> Self {
        self.offset = Some(offset);
        self
    }

    pub(crate) fn limit(message: impl Into<String>) -> Self {
        JmespathError::new(JmespathErrorKind::LimitExceeded, message)
    }

    /// What went wrong.
    pub fn kind(&self) -> JmespathErrorKind {
        self.kind
    }

    /// The message, without the expression.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The byte offset in the expression where the problem was found, for compile errors.
    pub fn offset(&self) -> Option<usize> {
        self.offset
    }
}

impl fmt::Display for JmespathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for JmespathError {}
