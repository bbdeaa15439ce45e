//! Resource limits (engine.md §5): every one configurable, every one with a safe default.

/// The limits an [`Environment`](crate::Environment) applies to what it compiles and runs.
///
/// ```
/// use a2ui_catalog_mcp::Limits;
/// let limits = Limits::default();
/// assert_eq!(limits.max_depth, 128);
/// assert_eq!(limits.max_index, 10_000);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Deepest nesting of a payload, and of JSON text the engine parses (tool results,
    /// resources). Default 128. Deeper is `LIMIT_EXCEEDED` at compile time.
    pub max_depth: usize,
    /// Highest array index a write may use. Default 10 000 (inclusive); above is `DATA_ERROR`.
    pub max_index: usize,
    /// Most items one function may return (`split`'s pieces, say). Default 4 194 304.
    pub max_output_items: usize,
    /// Most bytes of text one function may return. Default 64 MiB.
    pub max_output_bytes: usize,
    /// Longest JMESPath expression, in bytes. Default 4 096.
    pub max_jmespath_length: usize,
    /// Deepest nesting of a JMESPath expression. Default 64.
    pub max_jmespath_depth: usize,
    /// Entries of each compiled-pattern cache (JMESPath and regex patterns that come from data).
    /// Default 256; the least recently used entry is evicted.
    pub cache_capacity: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_depth: 128,
            max_index: 10_000,
            max_output_items: 4 << 20,
            max_output_bytes: 64 << 20,
            max_jmespath_length: 4096,
            max_jmespath_depth: 64,
            cache_capacity: 256,
        }
    }
}
