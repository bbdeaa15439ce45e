//! Resource limits: every one configurable, every one with a safe default, so that untrusted
//! payloads, data and tool results cannot exhaust the host.

/// Entries of each bounded cache the crate keeps, unless told otherwise: compiled JMESPath
/// expressions and regex patterns that come from data, and MCP resources read by URI.
pub const DEFAULT_CACHE_CAPACITY: usize = 256;

/// The limits an [`Environment`](crate::Environment) applies to what it compiles and runs.
///
/// Functions read them from their call ([`CallContext::limits`](crate::CallContext::limits)),
/// so changing them rebuilds nothing: the next compilation and evaluation use the new values.
///
/// ```
/// use a2ui_catalog_mcp::{Environment, Limits};
/// let mut limits = Limits::default();
/// assert_eq!((limits.max_depth, limits.max_index), (128, 10_000));
/// limits.jmespath.max_length = 64;
/// let mut env = Environment::new();
/// env.set_limits(limits);
/// assert_eq!(env.limits().jmespath.max_length, 64);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Deepest nesting of a payload, and of JSON text the engine parses (tool results,
    /// resources, MCP App components and requests). Default 128. Deeper is `LIMIT_EXCEEDED`.
    pub max_depth: usize,
    /// Highest array index a write may create (by appending or padding). Default 10 000
    /// (inclusive); above is `DATA_ERROR`. An element that exists may be written whatever its
    /// index.
    pub max_index: usize,
    /// Most items one function may return (`split`'s pieces, say). Default 4 194 304.
    pub max_output_items: usize,
    /// Most bytes of text one function may return. Default 64 MiB.
    pub max_output_bytes: usize,
    /// `transformData`'s expressions: longest (default 4 096 bytes), deepest (64) and most
    /// evaluation steps.
    pub jmespath: crate::jmespath::Limits,
    /// Entries of each compiled-pattern cache (JMESPath and regex patterns that come from data).
    /// Default [`DEFAULT_CACHE_CAPACITY`]; the least recently used entry is evicted.
    pub cache_capacity: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_depth: 128,
            max_index: 10_000,
            max_output_items: 4 << 20,
            max_output_bytes: 64 << 20,
            jmespath: crate::jmespath::Limits::default(),
            cache_capacity: DEFAULT_CACHE_CAPACITY,
        }
    }
}
