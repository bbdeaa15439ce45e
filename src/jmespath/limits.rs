//! The limits that bound what an expression may cost, with their defaults.

/// Hard ceiling on [`JmespathLimits::max_depth`]: parsing and evaluation recurse once per level, so a
/// larger setting could overflow a 2 MiB thread stack whatever the caller asks for.
pub const MAX_DEPTH_CEILING: usize = 256;

/// Bounds on what an expression may cost.
///
/// ```
/// use a2ui_catalog_mcp::jmespath::{Expression, JmespathErrorKind, JmespathLimits};
/// let mut limits = JmespathLimits::default();
/// limits.max_depth = 3;
/// assert!(Expression::compile_with("a.b", &limits).is_ok());
/// let err = Expression::compile_with("a.b.c.d", &limits).unwrap_err();
/// assert_eq!(err.kind(), JmespathErrorKind::LimitExceeded);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct JmespathLimits {
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

impl Default for JmespathLimits {
    fn default() -> Self {
        JmespathLimits {
            max_length: 4096,
            max_depth: 64,
            max_steps: 10_000_000,
        }
    }
}
