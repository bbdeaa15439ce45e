//! Resource limits: every one configurable, every one with a safe default, so that untrusted
//! payloads, data and tool results cannot exhaust the host.

/// Entries of each bounded cache the crate keeps, unless told otherwise: compiled JMESPath
/// expressions and regex patterns that come from data, and MCP resources read by URI.
/// [`Limits::cache_capacity`] says it to users.
pub(crate) const DEFAULT_CACHE_CAPACITY: usize = 256;

/// The limits an [`Environment`](crate::Environment) applies to what it compiles and runs.
///
/// Functions read them from their call ([`CallContext::limits`](crate::CallContext::limits)),
/// so changing them rebuilds nothing: the next compilation and evaluation use the new values.
///
/// ```
/// use a2ui_catalog_mcp::{Environment, Limits};
/// let mut limits = Limits::default();
/// assert_eq!((limits.max_depth, limits.max_index, limits.cache_capacity), (128, 10_000, 256));
/// limits.jmespath.max_length = 64;
/// let env = Environment::new().with_limits(limits);
/// assert_eq!(env.limits().jmespath.max_length, 64);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Deepest nesting of a payload, and of JSON text the engine parses (tool results,
    /// resources, MCP App components and requests); most tokens of a path a payload, a tool call
    /// or an agent's message names; deepest nesting a write may make (its path's tokens and its
    /// value's depth together). Default 128. Deeper is `LIMIT_EXCEEDED`.
    pub max_depth: usize,
    /// Highest array index a write may create (by appending or padding). Default 10 000
    /// (inclusive); above is `DATA_ERROR`. An element that exists may be written whatever its
    /// index.
    pub max_index: usize,
    /// Most items one function may return (`split`'s pieces, the values of a `transformData`
    /// result). Default 4 194 304.
    pub max_output_items: usize,
    /// Most bytes of text one function may return. Default 64 MiB.
    pub max_output_bytes: usize,
    /// `transformData`'s expressions: longest (default 4 096 bytes), deepest (64) and most
    /// evaluation steps of one call.
    pub jmespath: crate::jmespath::JmespathLimits,
    /// Most JMESPath evaluation steps one evaluation of a payload may take, its
    /// `transformData` calls together (each one is also bounded by `jmespath.max_steps`), and
    /// the payload's own nodes it visits (one step each). Default 4 194 304. Past it is
    /// `LIMIT_EXCEEDED`.
    pub max_eval_steps: u64,
    /// Most values one evaluation of a payload may create, all its calls together: the nodes of
    /// `transformData`'s results, the `null`s its writes pad arrays with, and the items of
    /// `split` and `regexCapture`. Default 524 288. Each is charged before it is built; past
    /// it is `LIMIT_EXCEEDED` and nothing more is written.
    pub max_eval_items: u64,
    /// Most bytes of values one evaluation of a payload may copy or make, all its calls
    /// together: each binding's copy of the model's value, `formatString`'s output and what a
    /// template from data reads. Default 16 MiB. Each is charged before it is made (an
    /// output as it grows); past it is `LIMIT_EXCEEDED`. A renderer's surfaces give all the
    /// evaluations one message causes one budget (10 000 rows of a template are one
    /// message's work, not 10 000 budgets).
    pub max_eval_bytes: u64,
    /// Entries of each compiled-pattern cache (JMESPath and regex patterns that come from data).
    /// Default 256; the least recently used entry is evicted.
    pub cache_capacity: usize,
    /// Bytes of compiled regex programs each regex pattern cache may hold (`regexCapture`'s,
    /// the basic catalog's `regex`'s), each pattern counted at its
    /// [`memory_usage`](crate::regex::Pattern::memory_usage). Default 4 MiB; the least
    /// recently used patterns are evicted, and a pattern used again after that is compiled
    /// again, charged to its evaluation's budget.
    pub pattern_cache_bytes: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_depth: 128,
            max_index: 10_000,
            max_output_items: 4 << 20,
            max_output_bytes: 64 << 20,
            jmespath: crate::jmespath::JmespathLimits::default(),
            max_eval_steps: 4 << 20,
            max_eval_items: 1 << 19,
            max_eval_bytes: 16 << 20,
            cache_capacity: DEFAULT_CACHE_CAPACITY,
            pattern_cache_bytes: 4 << 20,
        }
    }
}

/// A count an evaluation spends from: atomic only so that a budget can be shared by reference
/// with an evaluation that awaits a tool call on another thread; one evaluation at a time
/// spends from it, so a relaxed load and store suffice (no read-modify-write is needed).
#[derive(Debug)]
struct Counter(std::sync::atomic::AtomicU64);

impl Counter {
    fn new(n: u64) -> Counter {
        Counter(std::sync::atomic::AtomicU64::new(n))
    }

    fn get(&self) -> u64 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn set(&self, n: u64) {
        self.0.store(n, std::sync::atomic::Ordering::Relaxed);
    }
}

/// What one evaluation of a payload may still spend ([`Limits::max_eval_steps`] and
/// [`Limits::max_eval_items`]): one per evaluation, shared by all its calls, so that a payload
/// of many small calls is bounded as one large call is.
#[derive(Debug)]
pub(crate) struct EvalBudget {
    steps: Counter,
    items: Counter,
    bytes: Counter,
    max_steps: u64,
    max_items: u64,
    max_bytes: u64,
}

impl EvalBudget {
    pub(crate) fn new(limits: &Limits) -> EvalBudget {
        EvalBudget {
            steps: Counter::new(limits.max_eval_steps),
            items: Counter::new(limits.max_eval_items),
            bytes: Counter::new(limits.max_eval_bytes),
            max_steps: limits.max_eval_steps,
            max_items: limits.max_eval_items,
            max_bytes: limits.max_eval_bytes,
        }
    }

    /// Charges `n` bytes about to be copied or made (`what` says which), or refuses them
    /// (`LIMIT_EXCEEDED`) and charges nothing.
    pub(crate) fn spend_bytes(&self, n: u64, what: &str) -> Result<(), crate::error::Error> {
        let left = self.bytes.get();
        if n > left {
            return Err(crate::error::Error::new(
                crate::error::ErrorCode::LimitExceeded,
                format!(
                    "{what} would take the evaluation past its budget of {} bytes \
                     (Limits::max_eval_bytes)",
                    self.max_bytes
                ),
            ));
        }
        self.bytes.set(left - n);
        Ok(())
    }

    /// Charges a copy of `value` before it is made (walking no more of it than the budget has
    /// left), or refuses it.
    pub(crate) fn spend_copy(
        &self,
        value: &serde_json::Value,
        what: &str,
    ) -> Result<(), crate::error::Error> {
        let left = self.bytes.get();
        let n = copy_bytes(value, left).unwrap_or(u64::MAX);
        self.spend_bytes(n, what)
    }

    /// Charges one step of the payload's own evaluation (a node visited), or refuses it: the
    /// work of many evaluations sharing a budget is bounded, even when each fails early.
    pub(crate) fn step(&self) -> Result<(), crate::error::Error> {
        let left = self.steps.get();
        if left == 0 {
            return Err(self.steps_exceeded());
        }
        self.steps.set(left - 1);
        Ok(())
    }

    /// The JMESPath steps left.
    pub(crate) fn steps(&self) -> u64 {
        self.steps.get()
    }

    /// Charges `n` steps of work about to be done (`what` says which), or refuses them
    /// (`LIMIT_EXCEEDED`) and charges nothing.
    pub(crate) fn spend_steps(&self, n: u64, what: &str) -> Result<(), crate::error::Error> {
        let left = self.steps.get();
        if n > left {
            return Err(crate::error::Error::new(
                crate::error::ErrorCode::LimitExceeded,
                format!(
                    "{what} would take the evaluation past its budget of {} steps \
                     (Limits::max_eval_steps)",
                    self.max_steps
                ),
            ));
        }
        self.steps.set(left - n);
        Ok(())
    }

    /// The bytes left to copy or make.
    pub(crate) fn bytes(&self) -> u64 {
        self.bytes.get()
    }

    /// The values left to create.
    pub(crate) fn items(&self) -> u64 {
        self.items.get()
    }

    /// Records what a JMESPath search used (it was given at most what was left).
    pub(crate) fn used(&self, steps: u64, items: u64) {
        self.steps.set(self.steps.get().saturating_sub(steps));
        self.items.set(self.items.get().saturating_sub(items));
    }

    /// Charges `n` values about to be created (`what` says which, for the message), or refuses
    /// them (`LIMIT_EXCEEDED`) and charges nothing.
    pub(crate) fn spend_items(&self, n: u64, what: &str) -> Result<(), crate::error::Error> {
        let left = self.items.get();
        if n > left {
            return Err(self.items_exceeded(what));
        }
        self.items.set(left - n);
        Ok(())
    }

    /// The error of an evaluation that would create more values than
    /// [`Limits::max_eval_items`].
    pub(crate) fn items_exceeded(&self, what: &str) -> crate::error::Error {
        crate::error::Error::new(
            crate::error::ErrorCode::LimitExceeded,
            format!(
                "{what} would take the evaluation past its budget of {} values (Limits::max_eval_items)",
                self.max_items
            ),
        )
    }

    /// The error of an evaluation that would take more JMESPath steps than
    /// [`Limits::max_eval_steps`].
    pub(crate) fn steps_exceeded(&self) -> crate::error::Error {
        crate::error::Error::new(
            crate::error::ErrorCode::LimitExceeded,
            format!(
                "the evaluation and its JMESPath expressions together would take more than its \
                 budget of {} steps (Limits::max_eval_steps)",
                self.max_steps
            ),
        )
    }
}

/// What a copy of `value` holds, estimated from above (each value's slot, each string's and
/// key's text; not the allocator's share, which the surfaces' estimate adds); `None` past `max`.
pub(crate) fn copy_bytes(value: &serde_json::Value, max: u64) -> Option<u64> {
    const SLOT: usize = std::mem::size_of::<serde_json::Value>();
    const COPY: crate::json::ByteCosts = crate::json::ByteCosts {
        string: 0,
        item: SLOT,
        array: 0,
        entry: 32 + SLOT,
        object: 0,
    };
    let max = usize::try_from(max).unwrap_or(usize::MAX);
    crate::json::bytes_with(value, max, &COPY).map(|n| n as u64)
}
