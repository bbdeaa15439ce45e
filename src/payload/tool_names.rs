//! The static list of the tools a compiled payload can call (`Payload::tool_names`).

/// The tools a payload's tool calls (`callMcpTool`) name, known when it is compiled.
///
/// See [`Payload::tool_names`](crate::Payload::tool_names).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ToolNames {
    /// The names given as literals, sorted, each once.
    pub literal: Vec<String>,
    /// Whether a call's name is computed when the payload runs (a binding to the data model,
    /// or a function's result): that call may name any tool.
    pub dynamic: bool,
    /// Where those calls are: a JSON Pointer into the payload for each, in the order the
    /// compiler finished them (inner calls first).
    pub dynamic_at: Vec<String>,
}

impl ToolNames {
    /// Whether the payload calls no tool.
    pub fn is_empty(&self) -> bool {
        self.literal.is_empty() && !self.dynamic
    }

    /// Notes one tool call at `location`: its literal name, or `None` when the name is
    /// dynamic.
    pub(crate) fn add(&mut self, literal: Option<&str>, location: &str) {
        match literal {
            None => {
                self.dynamic = true;
                self.dynamic_at.push(location.to_owned());
            }
            Some(name) => {
                if let Err(at) = self.literal.binary_search_by(|n| n.as_str().cmp(name)) {
                    self.literal.insert(at, name.to_owned());
                }
            }
        }
    }
}
