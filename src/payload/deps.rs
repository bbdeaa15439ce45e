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

impl Deps {
    /// See [`Payload::dependencies`](crate::Payload::dependencies).
    pub(crate) fn dependencies(&self, context: &JsonPointer) -> Vec<JsonPointer> {
        let deps = self;
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

    /// See [`Payload::depends_on_context`](crate::Payload::depends_on_context).
    pub(crate) fn depends_on_context(&self) -> bool {
        !self.relative.is_empty()
    }

    /// See [`Payload::absolute_dependencies`](crate::Payload::absolute_dependencies).
    pub(crate) fn absolute_dependencies(&self) -> impl Iterator<Item = &JsonPointer> {
        self.absolute.iter().map(|(_, p)| p)
    }

    /// See [`Payload::relative_dependencies`](crate::Payload::relative_dependencies).
    pub(crate) fn relative_dependencies(&self) -> impl Iterator<Item = &[String]> {
        self.relative.iter().map(|(_, tokens)| tokens.as_slice())
    }

    /// See [`Payload::may_write`](crate::Payload::may_write).
    pub(crate) fn may_write(&self) -> bool {
        self.may_write
    }
}

#[cfg(test)]
mod tests;
