//! The [`Environment`]: the catalogs, the default catalog and the limits a host compiles
//! payloads with.

use crate::builtins::MCP_CATALOG_ID;
use crate::catalog::Catalog;
use crate::error::{Error, Phase};
use crate::limits::Limits;
use crate::payload::{self, Payload, Scope};
use serde_json::Value;
use std::collections::HashMap;

/// What payloads are compiled against: catalogs by id, the default catalog, and limits.
///
/// Create one per host (or per surface when surfaces differ), compile payloads with it, and
/// evaluate the compiled [`Payload`]s as often as needed.
///
/// ```
/// use a2ui_catalog_mcp::Environment;
/// use serde_json::json;
///
/// let env = Environment::new();
/// let payload = env.compile(&json!({
///     "@call": "updateDataModel",
///     "args": {"updates": {"/greeting": {"@call": "split", "args": {"value": "a b", "separator": " "}}}}
/// })).unwrap();
/// let mut model = json!({});
/// payload.eval(&mut model).unwrap();
/// assert_eq!(model, json!({"greeting": ["a", "b"]}));
/// ```
#[derive(Debug, Clone)]
pub struct Environment {
    catalogs: HashMap<String, Catalog>,
    default_catalog: String,
    limits: Limits,
}

impl Default for Environment {
    fn default() -> Environment {
        Environment::new()
    }
}

impl Environment {
    /// An environment with the MCP catalog registered and used as the default catalog, and the
    /// default [`Limits`].
    pub fn new() -> Environment {
        let mut env = Environment::empty();
        env.add_catalog(Catalog::mcp());
        env
    }

    /// An environment without any catalog. The default catalog id is still the MCP one: add a
    /// catalog with that id, or set another default.
    pub fn empty() -> Environment {
        Environment {
            catalogs: HashMap::new(),
            default_catalog: MCP_CATALOG_ID.to_owned(),
            limits: Limits::default(),
        }
    }

    /// Registers a catalog (replacing one with the same id).
    pub fn add_catalog(&mut self, catalog: Catalog) -> &mut Environment {
        self.catalogs.insert(catalog.id().to_owned(), catalog);
        self
    }

    /// The catalog with this id, to add functions to it.
    pub fn catalog_mut(&mut self, id: &str) -> Option<&mut Catalog> {
        self.catalogs.get_mut(id)
    }

    /// Sets the catalog used by calls without `catalogId` (normally the surface's catalog).
    /// Default: the MCP catalog.
    pub fn set_default_catalog(&mut self, id: impl Into<String>) -> &mut Environment {
        self.default_catalog = id.into();
        self
    }

    /// The default catalog id.
    pub fn default_catalog(&self) -> &str {
        &self.default_catalog
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Replaces all limits. Payloads compiled from now on apply them (functions read them
    /// from each call); payloads compiled before keep theirs.
    pub fn set_limits(&mut self, limits: Limits) -> &mut Environment {
        self.limits = limits;
        self
    }

    /// Deepest payload nesting (default 128).
    pub fn set_max_depth(&mut self, depth: usize) -> &mut Environment {
        self.limits.max_depth = depth;
        self
    }

    /// Highest array index a write may use (default 10 000).
    pub fn set_max_index(&mut self, index: usize) -> &mut Environment {
        self.limits.max_index = index;
        self
    }

    /// Most items and bytes of text one function may return (defaults 4 194 304 and 64 MiB).
    pub fn set_max_output(&mut self, items: usize, bytes: usize) -> &mut Environment {
        self.limits.max_output_items = items;
        self.limits.max_output_bytes = bytes;
        self
    }

    /// Compiles a payload: checks its shape, resolves every function, checks arguments, and
    /// prepares literal JMESPath expressions and patterns. Every problem is reported at once
    /// (see [`Error::related`]).
    pub fn compile(&self, payload: &Value) -> Result<Payload, Error> {
        let scope = Scope {
            catalogs: &self.catalogs,
            default_catalog: &self.default_catalog,
            limits: &self.limits,
        };
        payload::compile(&scope, payload)
    }

    /// Parses JSON text (with the depth limit) and compiles it.
    pub fn compile_str(&self, payload: &str) -> Result<Payload, Error> {
        let value = crate::json::from_str_limited(payload, self.limits.max_depth)
            .map_err(|e| e.with_phase(Phase::Compile))?;
        self.compile(&value)
    }

    /// The catalog with this id.
    pub fn catalog(&self, id: &str) -> Option<&Catalog> {
        self.catalogs.get(id)
    }

    /// The ids of the registered catalogs, sorted.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Environment, MCP_CATALOG_ID};
    /// assert_eq!(Environment::new().catalog_ids(), [MCP_CATALOG_ID]);
    /// ```
    pub fn catalog_ids(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = self.catalogs.keys().map(String::as_str).collect();
        ids.sort_unstable();
        ids
    }
}
