//! Who runs an evaluation, and for which surface: the [`Origin`] of its calls (a reactive
//! binding, a user's action, an MCP App, the agent) and the [`Provenance`] of the surface (the
//! tool and server whose result created it). Functions see them in their
//! [`CallContext`](crate::CallContext), the host's tool policy in its
//! [`ToolCallRequest`](crate::mcp::ToolCallRequest), the audit in its
//! [`AuditEvent`](crate::mcp::AuditEvent); the engine itself enforces what catalogs declare
//! (`requiresUserActivation`, `allowedCallers`) against the origin.

use crate::error::Denial;
use std::fmt;

/// Why an evaluation runs: who, in the end, asks for every call it makes.
///
/// The default, [`Origin::Binding`], is what an evaluation without an origin is: a value
/// computed because data changed, with no person behind it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Origin {
    /// A reactive re-evaluation: a bound value recomputed because the data model changed (a
    /// keystroke in a text field re-runs every binding that reads it). No user activation.
    #[default]
    Binding,
    /// The user activated a component (a tap, a click, Enter): its action's `functionCall` and
    /// everything that call evaluates. The only origin with user activation.
    Action,
    /// An MCP App (the `McpApp` component's sandboxed HTML) asked, through the MCP Apps bridge.
    App,
    /// The agent asked (`callRendererFunction`).
    Agent,
}

impl Origin {
    /// Every origin, in declaration order.
    pub const ALL: [Origin; 4] = [Origin::Binding, Origin::Action, Origin::App, Origin::Agent];

    /// The wire form: `"binding"`, `"action"`, `"app"`, `"agent"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Origin::Binding => "binding",
            Origin::Action => "action",
            Origin::App => "app",
            Origin::Agent => "agent",
        }
    }

    /// The origin of a wire form ([`as_str`](Origin::as_str)).
    pub fn parse(text: &str) -> Option<Origin> {
        Origin::ALL.into_iter().find(|o| o.as_str() == text)
    }

    /// Whether a person's gesture is behind the call (the HTML sense of "user activation"):
    /// only for [`Origin::Action`]. An MCP App's request may follow a click inside the app, but
    /// the host cannot tell it from a script's, so it has none.
    pub fn has_user_activation(self) -> bool {
        self == Origin::Action
    }

    /// Whether the renderer asks (a binding, an action, an MCP App), as opposed to the agent:
    /// the roles of a catalog's `allowedCallers`.
    pub fn is_renderer(self) -> bool {
        self != Origin::Agent
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Origin::Binding => "a binding",
            Origin::Action => "a user action",
            Origin::App => "an MCP App",
            Origin::Agent => "the agent",
        })
    }
}

/// Where a surface came from: the tool whose result carried its messages, and the server that
/// served the tool, as the tool's client names it.
///
/// The crate hands it to the [`MessageSink`](crate::mcp::MessageSink) with the messages; a surfaces
/// processor keeps it with the surface and passes it back with every evaluation of that
/// surface ([`Invocation::with_source`]), so that a policy can confine a surface to its own
/// server ([`SameServerAsSource`](crate::mcp::SameServerAsSource)).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Provenance {
    /// The tool whose result carried the messages.
    pub tool: String,
    /// The server, as its client names it; `None` when the client does not say.
    pub server: Option<String>,
}

impl Provenance {
    /// The provenance of messages `tool` of `server` returned.
    pub fn new(tool: impl Into<String>, server: Option<String>) -> Provenance {
        Provenance {
            tool: tool.into(),
            server,
        }
    }
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tool '{}'", self.tool)?;
        match &self.server {
            Some(server) => write!(f, " of server '{server}'"),
            None => f.write_str(" of an unnamed server"),
        }
    }
}

/// One evaluation's caller: its [`Origin`] and, for a surface that a tool's result created, the
/// surface's [`Provenance`]. An [`Origin`] converts into one without provenance, so the
/// evaluation methods take either.
///
/// ```
/// use a2ui_catalog_mcp::{Invocation, Origin, mcp::Provenance};
/// let tap = Invocation::new(Origin::Action)
///     .with_source(Provenance::new("show_board", Some("kanban".into())));
/// assert!(tap.origin.has_user_activation());
/// assert_eq!(Invocation::from(Origin::Binding), Invocation::default());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Invocation {
    /// Why the evaluation runs.
    pub origin: Origin,
    /// Where the evaluated surface came from, when a tool's result created it.
    pub source: Option<Provenance>,
}

impl Invocation {
    /// An invocation with this origin and no provenance.
    pub fn new(origin: Origin) -> Invocation {
        Invocation {
            origin,
            source: None,
        }
    }

    /// The same invocation for a surface that came from `source`.
    pub fn with_source(mut self, source: Provenance) -> Invocation {
        self.source = Some(source);
        self
    }
}

impl From<Origin> for Invocation {
    fn from(origin: Origin) -> Invocation {
        Invocation::new(origin)
    }
}

impl From<&Invocation> for Invocation {
    fn from(invocation: &Invocation) -> Invocation {
        invocation.clone()
    }
}

/// Who a catalog lets call a function (A2UI's `allowedCallers`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum AllowedCallers {
    /// Only the renderer: bindings, actions, MCP Apps (the A2UI default).
    #[default]
    RendererOnly,
    /// Only the agent (`callRendererFunction`).
    AgentOnly,
    /// Both.
    RendererOrAgent,
}

impl AllowedCallers {
    /// The wire form: `"rendererOnly"`, `"agentOnly"`, `"rendererOrAgent"`.
    pub fn as_str(self) -> &'static str {
        match self {
            AllowedCallers::RendererOnly => "rendererOnly",
            AllowedCallers::AgentOnly => "agentOnly",
            AllowedCallers::RendererOrAgent => "rendererOrAgent",
        }
    }

    /// The value of a wire form.
    pub fn parse(text: &str) -> Option<AllowedCallers> {
        [
            AllowedCallers::RendererOnly,
            AllowedCallers::AgentOnly,
            AllowedCallers::RendererOrAgent,
        ]
        .into_iter()
        .find(|c| c.as_str() == text)
    }

    /// Whether a call of this origin may go.
    pub fn admits(self, origin: Origin) -> bool {
        match self {
            AllowedCallers::RendererOnly => origin.is_renderer(),
            AllowedCallers::AgentOnly => !origin.is_renderer(),
            AllowedCallers::RendererOrAgent => true,
        }
    }
}

/// Who may call a function and when, as its catalog declares it (`allowedCallers`,
/// `requiresUserActivation`); the engine checks every call against the evaluation's origin,
/// whatever the host's tool policy says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub struct Access {
    /// Who may call it.
    pub allowed_callers: AllowedCallers,
    /// Whether a call needs user activation ([`Origin::Action`]).
    pub requires_user_activation: bool,
}

impl Access {
    /// The access of a function callable by `allowed_callers`, with or without user activation.
    pub fn new(allowed_callers: AllowedCallers, requires_user_activation: bool) -> Access {
        Access {
            allowed_callers,
            requires_user_activation,
        }
    }

    /// Why a call of this origin may not go (the kind and the reason), or `None` when it may.
    pub fn refusal(self, origin: Origin) -> Option<(Denial, String)> {
        if !self.allowed_callers.admits(origin) {
            return Some((
                Denial::AllowedCallers,
                format!(
                    "its catalog declares allowedCallers '{}', and the call comes from {origin}",
                    self.allowed_callers.as_str()
                ),
            ));
        }
        if self.requires_user_activation && !origin.has_user_activation() {
            return Some((
                Denial::UserActivation,
                format!(
                    "its catalog declares requiresUserActivation, and the call comes from {origin}, \
                 not a user action"
                ),
            ));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_round_trip_and_only_actions_activate() {
        for origin in Origin::ALL {
            assert_eq!(Origin::parse(origin.as_str()), Some(origin));
            assert_eq!(origin.has_user_activation(), origin == Origin::Action);
        }
        assert_eq!(Origin::parse("payload"), None);
        assert_eq!(Origin::default(), Origin::Binding);
    }

    #[test]
    fn access_follows_the_declaration() {
        let default = Access::default();
        assert!(default.refusal(Origin::Binding).is_none());
        assert!(default.refusal(Origin::App).is_none());
        let (kind, agent) = default.refusal(Origin::Agent).unwrap();
        assert_eq!(kind, Denial::AllowedCallers);
        assert!(
            agent.contains("'rendererOnly'") && agent.contains("the agent"),
            "{agent}"
        );
        let tap_only = Access::new(AllowedCallers::RendererOnly, true);
        assert!(tap_only.refusal(Origin::Action).is_none());
        for origin in [Origin::Binding, Origin::App] {
            assert_eq!(tap_only.refusal(origin).unwrap().0, Denial::UserActivation);
        }
        assert_eq!(
            tap_only.refusal(Origin::Agent).unwrap().0,
            Denial::AllowedCallers
        );
        let agent_only = Access::new(AllowedCallers::AgentOnly, false);
        assert!(agent_only.refusal(Origin::Agent).is_none());
        assert!(agent_only.refusal(Origin::Action).is_some());
        assert!(
            Access::new(AllowedCallers::RendererOrAgent, false)
                .refusal(Origin::Agent)
                .is_none()
        );
        assert_eq!(
            AllowedCallers::parse("agentOnly"),
            Some(AllowedCallers::AgentOnly)
        );
        assert_eq!(AllowedCallers::parse("anyone"), None);
    }
}
