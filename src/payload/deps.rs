//! What a compiled payload reads and whether it may write, known without evaluating it.
//!
//! A payload reads the data model through its bindings (`{"@path": …}`), wherever they sit (in
//! function arguments, arrays, objects, calls inside calls), and through the functions that
//! read it themselves, which declare those paths at compile time (`Function::reads`; the root
//! when they cannot tell). The dependencies of a payload are exactly these. Write targets are not
//! bindings: the keys of `updateDataModel`'s `updates` and a literal `targetDataPath` name where
//! to write, not what is read (a target read from the model through a binding is a read like any
//! other).
//!
//! The bindings are collected once, when the payload is compiled: absolute paths already sorted,
//! relative ones kept apart, so that the dependencies in one data context (one template row)
//! cost only joining the relative paths to it.

use super::Payload;
use super::program::{Node, NodeId, Program};
use crate::path::{DataPath, JsonPointer, escape_token};

/// The bindings of a program, prepared for [`Payload::dependencies`].
pub(crate) struct Deps {
    /// Absolute paths with their pointer strings, sorted by string, each once.
    absolute: Vec<(String, JsonPointer)>,
    /// Relative paths, each once: the escaped suffix to append to the context's pointer string
    /// (`""` for the context itself) and the tokens to append to the context.
    relative: Vec<(String, Vec<String>)>,
    may_write: bool,
}

impl Deps {
    pub(crate) fn of(program: &Program) -> Deps {
        let mut absolute = Vec::new();
        let mut relative = Vec::new();
        let mut may_write = false;
        // The program is a tree of nodes; an explicit stack keeps deep payloads off the call
        // stack.
        let mut stack: Vec<NodeId> = vec![program.root];
        let mut add = |path: &DataPath| match path {
            DataPath::Absolute(pointer) => absolute.push((pointer.to_string(), pointer.clone())),
            DataPath::Relative(tokens) => {
                let mut suffix = String::new();
                for token in tokens {
                    suffix.push('/');
                    suffix.push_str(&escape_token(token));
                }
                relative.push((suffix, tokens.clone()));
            }
        };
        while let Some(id) = stack.pop() {
            match program.node(id) {
                Node::Const(_) => {}
                Node::Bind(path) => add(path),
                Node::Array(items) => stack.extend(items),
                Node::Object(members) => stack.extend(members.iter().map(|(_, id)| *id)),
                Node::Call(call) => {
                    may_write |= call.may_write;
                    // What the function reads by itself (`Function::reads`).
                    call.reads.iter().for_each(&mut add);
                    stack.extend(call.args.iter().map(|(_, id)| *id));
                }
            }
        }
        sort_dedup(&mut absolute);
        relative.sort_unstable();
        relative.dedup();
        Deps {
            absolute,
            relative,
            may_write,
        }
    }
}

/// Sorts by pointer string and drops repeats. Distinct pointers can share a string (the root
/// and the single empty token both print as `/`), so ties sort by tokens and only equal
/// pointers are dropped.
fn sort_dedup(paths: &mut Vec<(String, JsonPointer)>) {
    paths.sort_unstable();
    paths.dedup_by(|a, b| a.1 == b.1);
}

impl Payload {
    /// The absolute paths this payload reads when evaluated with `context` as the data context:
    /// every binding (`@path`) at any depth, relative ones joined to `context` as evaluation
    /// joins them, sorted by pointer string (the root prints as `/`), each once.
    ///
    /// A binding to a path that does not exist yet is a dependency too: writing it later
    /// changes the value. The keys of `updateDataModel`'s `updates` and a literal
    /// `targetDataPath` are write targets, not dependencies. A function that reads the model
    /// itself adds the paths it declares ([`Function::reads`](crate::Function::reads)), or the
    /// root `/` (the whole model) when it cannot tell. The list is known without evaluating, and computing it
    /// for another context only joins the relative paths (see
    /// [`depends_on_context`](Payload::depends_on_context)).
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Environment, JsonPointer};
    /// use serde_json::json;
    ///
    /// let env = Environment::new();
    /// let payload = env.compile(&json!({
    ///     "@call": "updateDataModel",
    ///     "args": {"updates": {"/copy": {"@path": "name"}, "/seen": {"@path": "/clock"}}}
    /// }))?;
    /// let row = JsonPointer::parse("/rows/3")?;
    /// let deps: Vec<String> = payload.dependencies(&row).iter().map(ToString::to_string).collect();
    /// assert_eq!(deps, ["/clock", "/rows/3/name"]);
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn dependencies(&self, context: &JsonPointer) -> Vec<JsonPointer> {
        let deps = &self.deps;
        if deps.relative.is_empty() {
            return deps.absolute.iter().map(|(_, p)| p.clone()).collect();
        }
        let prefix = if context.is_root() {
            String::new()
        } else {
            context.to_string()
        };
        let mut joined: Vec<(String, JsonPointer)> = deps
            .relative
            .iter()
            .map(|(suffix, tokens)| {
                let mut text = String::with_capacity(prefix.len() + suffix.len());
                text.push_str(&prefix);
                text.push_str(suffix);
                if text.is_empty() {
                    text.push('/');
                }
                let pointer = JsonPointer::from_tokens(
                    context.tokens().iter().chain(tokens).map(String::as_str),
                );
                (text, pointer)
            })
            .collect();
        sort_dedup(&mut joined);
        // Both lists are sorted: merge them.
        let mut out = Vec::with_capacity(deps.absolute.len() + joined.len());
        let mut a = deps.absolute.iter().peekable();
        let mut b = joined.into_iter().peekable();
        loop {
            let take_a = match (a.peek(), b.peek()) {
                (None, None) => break,
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (Some(x), Some(y)) => match (&x.0, &x.1).cmp(&(&y.0, &y.1)) {
                    std::cmp::Ordering::Less => true,
                    std::cmp::Ordering::Greater => false,
                    std::cmp::Ordering::Equal => {
                        b.next();
                        true
                    }
                },
            };
            if take_a {
                out.extend(a.next().map(|(_, p)| p.clone()));
            } else {
                out.extend(b.next().map(|(_, p)| p));
            }
        }
        out
    }

    /// Whether the payload has relative bindings, so that its
    /// [`dependencies`](Payload::dependencies) differ from one data context to another. When it
    /// has none, one list serves every row of a template.
    ///
    /// ```
    /// # use a2ui_catalog_mcp::Environment;
    /// # use serde_json::json;
    /// let env = Environment::new();
    /// assert!(env.compile(&json!({"@path": "name"}))?.depends_on_context());
    /// assert!(!env.compile(&json!({"@path": "/title"}))?.depends_on_context());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn depends_on_context(&self) -> bool {
        !self.deps.relative.is_empty()
    }

    /// The absolute paths the payload reads, whatever its context (sorted, each once).
    pub(crate) fn absolute_dependencies(&self) -> impl Iterator<Item = &JsonPointer> {
        self.deps.absolute.iter().map(|(_, p)| p)
    }

    /// The relative paths the payload reads, as tokens to append to its context.
    pub(crate) fn relative_dependencies(&self) -> impl Iterator<Item = &[String]> {
        self.deps
            .relative
            .iter()
            .map(|(_, tokens)| tokens.as_slice())
    }

    /// Whether evaluating the payload may write to the data model: it calls `updateDataModel`,
    /// passes a `targetDataPath` to `callMcpTool`, or calls a host function that declares writes
    /// ([`Function::may_write`](crate::catalog::Function::may_write)). A payload that may not
    /// write only reads the model.
    ///
    /// ```
    /// # use a2ui_catalog_mcp::Environment;
    /// # use serde_json::json;
    /// let env = Environment::new();
    /// let label = env.compile(&json!({"@call": "split", "args": {"value": {"@path": "/csv"}, "separator": ","}}))?;
    /// assert!(!label.may_write());
    /// let select = env.compile(&json!({"@call": "updateDataModel", "args": {"updates": {"/selected": 1}}}))?;
    /// assert!(select.may_write());
    /// let search = env.compile(&json!({"@call": "callMcpTool", "args": {"name": "search", "targetDataPath": "/results"}}))?;
    /// assert!(search.may_write());
    /// let fetch = env.compile(&json!({"@call": "callMcpTool", "args": {"name": "search"}}))?;
    /// assert!(!fetch.may_write());
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn may_write(&self) -> bool {
        self.deps.may_write
    }
}

#[cfg(test)]
mod tests;
