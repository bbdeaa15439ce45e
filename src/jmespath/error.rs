//! Errors of the JMESPath engine and the limits that bound compilation and evaluation.

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

impl JmespathError {
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

/// Hard ceiling on [`Limits::max_depth`]: parsing and evaluation recurse once per level, so a
/// larger setting could overflow a 2 MiB thread stack whatever the caller asks for.
pub const MAX_DEPTH_CEILING: usize = 256;

/// Bounds on what an expression may cost.
///
/// ```
/// use a2ui_catalog_mcp::jmespath::{Expression, JmespathErrorKind, Limits};
/// let limits = Limits { max_depth: 3, ..Limits::default() };
/// assert!(Expression::compile_with("a.b", &limits).is_ok());
/// let err = Expression::compile_with("a.b.c.d", &limits).unwrap_err();
/// assert_eq!(err.kind(), JmespathErrorKind::LimitExceeded);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Longest expression accepted, in bytes (default 4 096).
    pub max_length: usize,
    /// Deepest nesting of the expression's syntax tree (default 64; `a.b.c` nests 3 deep, as
    /// does `[[a]]`). Capped at [`MAX_DEPTH_CEILING`].
    pub max_depth: usize,
    /// Evaluation budget (default 10 000 000): every array element or object member an
    /// evaluation visits or builds, and every 16 bytes of text a function builds, costs one
    /// step. It stops expressions whose work grows exponentially, such as `[@, @] | [] | ...`.
    pub max_steps: u64,
}

impl Limits {
    /// Limits with the given length and depth and the default evaluation budget.
    pub fn new(max_length: usize, max_depth: usize) -> Self {
        Limits {
            max_length,
            max_depth,
            ..Limits::default()
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_length: 4096,
            max_depth: 64,
            max_steps: 10_000_000,
        }
    }
}
