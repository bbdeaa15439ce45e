//! How a processor judges messages and what it may hold: [`ProcessorOptions`](crate::surfaces::ProcessorOptions).

use super::*;

/// How a [`Processor`](crate::surfaces::Processor) judges messages.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct ProcessorOptions {
    /// Strict validation (the suite's `strictMode`, `check --strict`): a dangling child, an
    /// orphan and a missing `root` are errors of the message that leaves them, and literal
    /// arguments of every catalog function are validated against its catalog document's schema
    /// ([`Environment::set_schema_checks`](crate::Environment::with_schema_checks)). Default off: a renderer draws a child not yet
    /// defined as pending, since streams send parents first.
    pub strict: bool,
    /// A message without `version` is an error (the v1.0 processor's rule). Default off: it
    /// reads as v0.9.
    pub require_version: bool,
    /// The catalog whose component schemas check the components of a surface whose default
    /// catalog is not registered (a validator given one catalog). Default none.
    pub fallback_catalog: Option<String>,
    /// The most components the processor's surfaces may hold together (each surface's, summed:
    /// a stream cannot multiply the limit by creating more surfaces). Default 100 000; a
    /// message that would pass it is `LIMIT_EXCEEDED` and changes nothing.
    pub max_components: usize,
    /// The most surfaces the processor may hold at once. Default 1 024; a `createSurface` past
    /// it is `LIMIT_EXCEEDED` (delete one first).
    pub max_surfaces: usize,
    /// The most bytes the processor's surfaces may hold together: their ids, their components
    /// (ids, properties, children, and again for what dynamic properties compile to) and their
    /// data models, estimated from above ([`TrackedModel::held_bytes`](crate::reactive::TrackedModel::held_bytes)). Default 32 MiB; an
    /// agent's message that would pass it (`createSurface`, `updateComponents`,
    /// `updateDataModel`) is `LIMIT_EXCEEDED` and changes nothing. What the surface's own
    /// evaluations and tool results write is bounded per evaluation ([`crate::Limits`]) and
    /// counted, so the next message of the agent finds it.
    pub max_held_bytes: usize,
    /// A `createSurface` may name a default catalog that is not registered (its components are
    /// then not checked against a schema). Default off: `Catalog not found`, a `CatalogError`.
    pub accept_unregistered_catalogs: bool,
    /// Calls are checked (their catalogs resolved, their functions and arguments compiled).
    /// Default on; a host that only needs the surfaces' structure (a test of actions that
    /// compiles them itself) turns it off, and then nothing of a component is compiled.
    pub check_calls: bool,
    /// Keep each surface's resolved tree live, with the limits of its resolution, and record
    /// what each message, host write and refresh changes ([`Processor::take_changes`](crate::surfaces::Processor::take_changes),
    /// [`Surface::live`](crate::surfaces::Surface::live)). Default none: a renderer that resolves whole trees
    /// ([`Surface::resolve`](crate::surfaces::Surface::resolve)) pays nothing for it.
    pub live: Option<ResolveLimits>,
    /// The spelling the values of messages before v1.0 are read in. Default the plain one, as
    /// their specifications write them; a linter that wants the `@` spelling everywhere (the
    /// stream check in an `@` environment) reads them in it, each plain-shaped value a literal
    /// and a warning.
    pub earlier_spelling: crate::syntax::Spelling,
    /// The most tool runs that may wait for their answer at once ([`Processor::take_tool_runs`](crate::surfaces::Processor::take_tool_runs)).
    /// Default 4 096; one more fails its evaluation with `LIMIT_EXCEEDED`.
    pub max_pending_runs: usize,
}

impl Default for ProcessorOptions {
    fn default() -> ProcessorOptions {
        ProcessorOptions {
            strict: false,
            require_version: false,
            fallback_catalog: None,
            max_components: 100_000,
            max_surfaces: 1024,
            max_held_bytes: 32 << 20,
            accept_unregistered_catalogs: false,
            check_calls: true,
            live: None,
            earlier_spelling: crate::syntax::Spelling::Plain,
            max_pending_runs: 4096,
        }
    }
}

impl ProcessorOptions {
    /// Sets [`strict`](ProcessorOptions::strict).
    pub fn with_strict(mut self, strict: bool) -> ProcessorOptions {
        self.strict = strict;
        self
    }

    /// Sets [`require_version`](ProcessorOptions::require_version).
    pub fn with_require_version(mut self, require: bool) -> ProcessorOptions {
        self.require_version = require;
        self
    }

    /// Sets [`fallback_catalog`](ProcessorOptions::fallback_catalog).
    pub fn with_fallback_catalog(mut self, id: impl Into<String>) -> ProcessorOptions {
        self.fallback_catalog = Some(id.into());
        self
    }

    /// Sets [`accept_unregistered_catalogs`](ProcessorOptions::accept_unregistered_catalogs).
    pub fn with_accept_unregistered_catalogs(mut self, accept: bool) -> ProcessorOptions {
        self.accept_unregistered_catalogs = accept;
        self
    }

    /// Sets [`earlier_spelling`](ProcessorOptions::earlier_spelling).
    pub fn with_earlier_spelling(mut self, spelling: crate::syntax::Spelling) -> ProcessorOptions {
        self.earlier_spelling = spelling;
        self
    }

    /// Sets [`check_calls`](ProcessorOptions::check_calls).
    pub fn with_check_calls(mut self, check: bool) -> ProcessorOptions {
        self.check_calls = check;
        self
    }

    /// Sets [`live`](ProcessorOptions::live).
    pub fn with_live(mut self, limits: ResolveLimits) -> ProcessorOptions {
        self.live = Some(limits);
        self
    }

    /// Sets [`max_pending_runs`](ProcessorOptions::max_pending_runs).
    pub fn with_max_pending_runs(mut self, max: usize) -> ProcessorOptions {
        self.max_pending_runs = max;
        self
    }

    /// Sets [`max_components`](ProcessorOptions::max_components).
    pub fn with_max_components(mut self, max: usize) -> ProcessorOptions {
        self.max_components = max;
        self
    }

    /// Sets [`max_surfaces`](ProcessorOptions::max_surfaces).
    pub fn with_max_surfaces(mut self, max: usize) -> ProcessorOptions {
        self.max_surfaces = max;
        self
    }

    /// Sets [`max_held_bytes`](ProcessorOptions::max_held_bytes).
    pub fn with_max_held_bytes(mut self, max: usize) -> ProcessorOptions {
        self.max_held_bytes = max;
        self
    }
}
