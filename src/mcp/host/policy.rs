//! Who may call which tool: the host's decision point before every `tools/call`
//! ([`ToolPolicy`] and the ready-made policies). What was decided is recorded by the audit
//! (`super::audit`). The rules are in the `mcp` module's documentation ("Security").

use super::client::BoxFuture;
use crate::origin::{Origin, Provenance};
use serde_json::Value;
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;

/// What a policy sees of a call before it is sent.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct ToolCallRequest<'a> {
    /// The tool's name.
    pub name: &'a str,
    /// The evaluated arguments, exactly as they would be sent.
    pub arguments: &'a Value,
    /// The server that would serve the call, as its client names it
    /// ([`ToolClient::server_name`](crate::mcp::ToolClient::server_name)); `None` when the
    /// client does not say.
    pub server: Option<&'a str>,
    /// The tool's entry from `tools/list` as the host holds it; `None` when the tool is not in
    /// the list.
    pub definition: Option<&'a Value>,
    /// Why the call is made: the origin of the evaluation that runs a payload's `callMcpTool`
    /// (a binding unless the host says otherwise, see
    /// [`Payload::eval_async_from`](crate::Payload::eval_async_from)), or [`Origin::App`] for an
    /// `McpApp` widget's request (already checked against its `allowedTools`).
    pub origin: Origin,
    /// Where the surface that makes the call came from (the tool and server whose result
    /// created it), when the host says ([`Invocation::with_source`](crate::Invocation::with_source));
    /// for an `McpApp` widget, where the app came from.
    pub source: Option<&'a Provenance>,
}

impl ToolCallRequest<'_> {
    /// The tool's `annotations` from `tools/list`, when it has any.
    pub fn annotations(&self) -> Option<&Value> {
        self.definition.and_then(|d| d.get("annotations"))
    }

    /// One boolean annotation (`readOnlyHint`, `destructiveHint`, `idempotentHint`,
    /// `openWorldHint`), when the tool declares it.
    pub fn hint(&self, name: &str) -> Option<bool> {
        self.annotations()?.get(name)?.as_bool()
    }

    /// Whether the tool may change things, by MCP's defaults: it is destructive unless it says
    /// it is read-only (`readOnlyHint: true`) or not destructive (`destructiveHint: false`). A
    /// tool missing from `tools/list` says nothing, so it is destructive.
    ///
    /// ```
    /// use a2ui_catalog_mcp::{Origin, mcp::ToolCallRequest};
    /// use serde_json::json;
    /// let def = json!({"name": "label", "annotations": {"destructiveHint": false}});
    /// let args = json!({});
    /// let call = ToolCallRequest::new("label", &args, Origin::Binding).with_definition(Some(&def));
    /// assert!(!call.is_destructive());
    /// assert!(ToolCallRequest::new("unknown", &args, Origin::Binding).is_destructive());
    /// ```
    pub fn is_destructive(&self) -> bool {
        self.hint("readOnlyHint") != Some(true) && self.hint("destructiveHint") != Some(false)
    }
}

impl<'a> ToolCallRequest<'a> {
    /// A call with neither server name nor definition (for tests of a policy).
    pub fn new(name: &'a str, arguments: &'a Value, origin: Origin) -> ToolCallRequest<'a> {
        ToolCallRequest {
            name,
            arguments,
            server: None,
            definition: None,
            origin,
            source: None,
        }
    }

    /// The same call from a surface (or app) that came from `source`.
    pub fn with_source(mut self, source: Option<&'a Provenance>) -> ToolCallRequest<'a> {
        self.source = source;
        self
    }

    /// The same call with the tool's `tools/list` entry.
    pub fn with_definition(mut self, definition: Option<&'a Value>) -> ToolCallRequest<'a> {
        self.definition = definition;
        self
    }

    /// The same call with the server's name.
    pub fn with_server(mut self, server: Option<&'a str>) -> ToolCallRequest<'a> {
        self.server = server;
        self
    }
}

/// A policy's answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Decision {
    /// Send the call.
    Allow,
    /// Do not send it; the reason ends up in the call's error and in the audit event.
    Deny(String),
}

impl Decision {
    /// A denial with this reason.
    pub fn deny(reason: impl Into<String>) -> Decision {
        Decision::Deny(reason.into())
    }

    /// Whether the call may go.
    pub fn is_allowed(&self) -> bool {
        matches!(self, Decision::Allow)
    }
}

/// Decides, before `tools/call` is sent, whether a call may go.
///
/// The future may take as long as the host likes (a consent dialog); other evaluations go on
/// meanwhile, and dropping the evaluation drops the pending decision.
///
/// ```
/// use a2ui_catalog_mcp::mcp::{BoxFuture, Decision, ToolCallRequest, ToolPolicy};
///
/// /// Nothing that touches the network.
/// struct ClosedWorld;
/// impl ToolPolicy for ClosedWorld {
///     fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
///         let open = call.hint("openWorldHint") != Some(false);
///         Box::pin(async move {
///             if open { Decision::deny("it may reach the open world") } else { Decision::Allow }
///         })
///     }
/// }
/// ```
pub trait ToolPolicy: Send + Sync {
    /// The decision for one call.
    fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision>;
}

/// Every call goes (the default: the behaviour of a host without a policy).
#[derive(Debug, Clone, Copy, Default)]
pub struct AllowAll;

impl ToolPolicy for AllowAll {
    fn decide<'a>(&'a self, _call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
        Box::pin(std::future::ready(Decision::Allow))
    }
}

/// Only the listed tools go.
///
/// ```
/// use a2ui_catalog_mcp::mcp::{AllowList, DenyList, ToolPolicyExt};
/// // The search tools, but never the one that sends mail.
/// let policy = AllowList::new(["search", "list_issues", "send_mail"]).and(DenyList::new(["send_mail"]));
/// ```
#[derive(Debug, Clone, Default)]
pub struct AllowList {
    tools: HashSet<String>,
}

impl AllowList {
    /// A list of the tools that may be called.
    pub fn new<S: Into<String>>(tools: impl IntoIterator<Item = S>) -> AllowList {
        AllowList {
            tools: tools.into_iter().map(Into::into).collect(),
        }
    }
}

impl ToolPolicy for AllowList {
    fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
        let decision = if self.tools.contains(call.name) {
            Decision::Allow
        } else {
            Decision::deny("it is not on the host's allow list")
        };
        Box::pin(std::future::ready(decision))
    }
}

/// Every tool but the listed ones goes.
#[derive(Debug, Clone, Default)]
pub struct DenyList {
    tools: HashSet<String>,
}

impl DenyList {
    /// A list of the tools that may not be called.
    pub fn new<S: Into<String>>(tools: impl IntoIterator<Item = S>) -> DenyList {
        DenyList {
            tools: tools.into_iter().map(Into::into).collect(),
        }
    }
}

impl ToolPolicy for DenyList {
    fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
        let decision = if self.tools.contains(call.name) {
            Decision::deny("it is on the host's deny list")
        } else {
            Decision::Allow
        };
        Box::pin(std::future::ready(decision))
    }
}

/// The consent callback of [`ConsentForDestructive`]: `true` allows the call.
pub type ConsentFn = dyn for<'a> Fn(&'a ToolCallRequest<'a>) -> BoxFuture<'a, bool> + Send + Sync;

/// Tools that are not destructive ([`ToolCallRequest::is_destructive`]) go; a destructive one goes
/// only when the consent callback says yes (a dialog that shows the tool and its arguments).
/// [`ConsentForDestructive::deny`] refuses them all without asking.
pub struct ConsentForDestructive {
    consent: Option<Arc<ConsentFn>>,
}

impl ConsentForDestructive {
    /// Asks `consent` about each destructive call.
    pub fn new(
        consent: impl for<'a> Fn(&'a ToolCallRequest<'a>) -> BoxFuture<'a, bool> + Send + Sync + 'static,
    ) -> ConsentForDestructive {
        ConsentForDestructive {
            consent: Some(Arc::new(consent)),
        }
    }

    /// Denies every destructive call.
    pub fn deny() -> ConsentForDestructive {
        ConsentForDestructive { consent: None }
    }
}

impl fmt::Debug for ConsentForDestructive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ConsentForDestructive")
            .field("asks", &self.consent.is_some())
            .finish()
    }
}

impl ToolPolicy for ConsentForDestructive {
    fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            if !call.is_destructive() {
                return Decision::Allow;
            }
            let why = if call.definition.is_none() {
                "it is not in the server's tool list, so it counts as destructive"
            } else {
                "it is destructive"
            };
            match &self.consent {
                Some(consent) if consent(call).await => Decision::Allow,
                Some(_) => Decision::deny(format!("{why} and the user did not consent")),
                None => Decision::deny(why),
            }
        })
    }
}

/// Read-only tools go from anywhere; any other tool only from a user's action
/// ([`Origin::Action`]): a keystroke that re-runs a binding cannot call a destructive tool, a tap
/// can. The rule of shipping A2UI hosts.
///
/// "Read-only" is the tool's `readOnlyHint: true` annotation, and annotations are only as
/// trustworthy as their server: they count only for the servers the host trusts
/// ([`trusting`](ReadOnlyUnlessUserAction::trusting),
/// [`trusting_every_server`](ReadOnlyUnlessUserAction::trusting_every_server)). With
/// [`new`](ReadOnlyUnlessUserAction::new) no server is trusted, so only user actions call tools.
/// Compose it with [`ConsentForDestructive`] to ask before a tap's destructive call.
///
/// ```
/// use a2ui_catalog_mcp::{Origin, mcp::{Decision, ReadOnlyUnlessUserAction, ToolCallRequest, ToolPolicy}};
/// use serde_json::json;
/// # // These policies decide at once: one poll answers (no executor, no `testing` feature).
/// # fn now(mut f: a2ui_catalog_mcp::mcp::BoxFuture<'_, Decision>) -> Decision {
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     match f.as_mut().poll(&mut cx) { std::task::Poll::Ready(d) => d, _ => panic!("pending") }
/// # }
/// let policy = ReadOnlyUnlessUserAction::trusting(["github"]);
/// let (list, close) = (json!({"name": "list", "annotations": {"readOnlyHint": true}}), json!({"name": "close"}));
/// let args = json!({});
/// let call = |def, origin| ToolCallRequest::new("t", &args, origin).with_server(Some("github")).with_definition(Some(def));
/// assert!(now(policy.decide(&call(&list, Origin::Binding))).is_allowed());
/// assert!(!now(policy.decide(&call(&close, Origin::Binding))).is_allowed());
/// assert!(now(policy.decide(&call(&close, Origin::Action))).is_allowed());
/// ```
#[derive(Debug, Clone, Default)]
pub struct ReadOnlyUnlessUserAction {
    trust: Trust,
}

#[derive(Debug, Clone, Default)]
enum Trust {
    #[default]
    Nobody,
    Everybody,
    Servers(HashSet<String>),
}

impl ReadOnlyUnlessUserAction {
    /// Trusts no server's annotations: every tool call needs a user action.
    pub fn new() -> ReadOnlyUnlessUserAction {
        ReadOnlyUnlessUserAction::default()
    }

    /// Trusts the annotations of these servers (as their clients name them,
    /// [`ToolClient::server_name`](crate::mcp::ToolClient::server_name)).
    pub fn trusting<S: Into<String>>(
        servers: impl IntoIterator<Item = S>,
    ) -> ReadOnlyUnlessUserAction {
        ReadOnlyUnlessUserAction {
            trust: Trust::Servers(servers.into_iter().map(Into::into).collect()),
        }
    }

    /// Trusts the annotations of every server (a host connected only to its own servers).
    pub fn trusting_every_server() -> ReadOnlyUnlessUserAction {
        ReadOnlyUnlessUserAction {
            trust: Trust::Everybody,
        }
    }

    fn trusts(&self, server: Option<&str>) -> bool {
        match &self.trust {
            Trust::Nobody => false,
            Trust::Everybody => true,
            Trust::Servers(servers) => server.is_some_and(|s| servers.contains(s)),
        }
    }
}

impl ToolPolicy for ReadOnlyUnlessUserAction {
    fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
        let decision = if call.origin.has_user_activation() {
            Decision::Allow
        } else if call.hint("readOnlyHint") != Some(true) {
            Decision::deny(format!(
                "it is not read-only (readOnlyHint), and the call comes from {}, not a user action",
                call.origin
            ))
        } else if !self.trusts(call.server) {
            Decision::deny(format!(
                "the host does not trust the annotations of {}, and the call comes from {}, not a user action",
                call.server.map_or_else(
                    || "an unnamed server".to_owned(),
                    |s| format!("server '{s}'")
                ),
                call.origin
            ))
        } else {
            Decision::Allow
        };
        Box::pin(std::future::ready(decision))
    }
}

/// A surface may call only tools of the server it came from ([`ToolCallRequest::source`]): a
/// remote server's surface cannot drive a local server's tools (the confused deputy). Surfaces
/// the host gives no provenance for (not created by a tool's result) are not confined. When
/// the surface's server or the tool's server has no name, they cannot be told apart: denied.
///
/// ```
/// use a2ui_catalog_mcp::{Origin, mcp::{Decision, Provenance, SameServerAsSource, ToolCallRequest, ToolPolicy}};
/// use serde_json::json;
/// # // These policies decide at once: one poll answers (no executor, no `testing` feature).
/// # fn now(mut f: a2ui_catalog_mcp::mcp::BoxFuture<'_, Decision>) -> Decision {
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     match f.as_mut().poll(&mut cx) { std::task::Poll::Ready(d) => d, _ => panic!("pending") }
/// # }
/// let source = Provenance::new("show_page", Some("web".into()));
/// let args = json!({});
/// let call = |server| ToolCallRequest::new("t", &args, Origin::Action).with_server(Some(server)).with_source(Some(&source));
/// assert!(now(SameServerAsSource.decide(&call("web"))).is_allowed());
/// assert!(!now(SameServerAsSource.decide(&call("filesystem"))).is_allowed());
/// ```
#[derive(Debug, Clone, Copy, Default)]
pub struct SameServerAsSource;

impl ToolPolicy for SameServerAsSource {
    fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
        let decision = match call.source {
            None => Decision::Allow,
            Some(source) => match (source.server.as_deref(), call.server) {
                (Some(from), Some(to)) if from == to => Decision::Allow,
                (Some(from), Some(to)) => Decision::deny(format!(
                    "the surface came from server '{from}' ({source}), and the tool is served by '{to}'"
                )),
                (Some(from), None) => Decision::deny(format!(
                    "the surface came from server '{from}', and the tool's server does not say its name"
                )),
                (None, _) => Decision::deny(format!(
                    "the surface came from {source}, whose server does not say its name"
                )),
            },
        };
        Box::pin(std::future::ready(decision))
    }
}

/// The policy of a host with no person at the keyboard (a command line, a CI job, a headless
/// renderer): read-only tools (`readOnlyHint: true`) run from bindings and from taps; any other
/// tool (destructive, or without annotations) needs consent from a tap and is never run from a
/// binding, and since no one is there to consent, it runs only when the host named it in
/// advance ([`allowing`](Unattended::allowing), the CLI's `--allow-tool`). The annotations of
/// every server count: such a host runs only servers its user chose.
///
/// ```
/// use a2ui_catalog_mcp::{Origin, mcp::{Decision, ToolCallRequest, ToolPolicy, Unattended}};
/// use serde_json::json;
/// # fn now(mut f: a2ui_catalog_mcp::mcp::BoxFuture<'_, Decision>) -> Decision {
/// #     let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
/// #     match f.as_mut().poll(&mut cx) { std::task::Poll::Ready(d) => d, _ => panic!("pending") }
/// # }
/// let policy = Unattended::allowing(["move_file"]);
/// let read = json!({"name": "read_file", "annotations": {"readOnlyHint": true}});
/// let write = json!({"name": "write_file", "annotations": {"destructiveHint": true}});
/// let moves = json!({"name": "move_file"});
/// let args = json!({});
/// let call = |def: &'static str, origin| ToolCallRequest::new(def, &args, origin);
/// let decide = |name, def, origin| now(policy.decide(&call(name, origin).with_definition(Some(def))));
/// assert!(decide("read_file", &read, Origin::Binding).is_allowed());
/// assert!(!decide("write_file", &write, Origin::Action).is_allowed());
/// assert!(decide("move_file", &moves, Origin::Binding).is_allowed());
/// ```
#[derive(Debug, Clone, Default)]
pub struct Unattended {
    allowed: HashSet<String>,
}

impl Unattended {
    /// Only read-only tools run.
    pub fn new() -> Unattended {
        Unattended::default()
    }

    /// Read-only tools, and these, run.
    pub fn allowing<S: Into<String>>(tools: impl IntoIterator<Item = S>) -> Unattended {
        Unattended {
            allowed: tools.into_iter().map(Into::into).collect(),
        }
    }
}

impl ToolPolicy for Unattended {
    fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
        let decision =
            if self.allowed.contains(call.name) || call.hint("readOnlyHint") == Some(true) {
                Decision::Allow
            } else {
                let what = if call.definition.is_none() {
                    "it is not in the server's tool list, so it counts as destructive"
                } else {
                    "it is not read-only (readOnlyHint)"
                };
                Decision::deny(if call.origin.has_user_activation() {
                    format!(
                        "{what}, so a tap needs the user's consent, and no one is here to give it: \
                     the host did not allow this tool in advance"
                    )
                } else {
                    format!(
                        "{what}, and the call comes from {}, which may call only read-only tools \
                     unless the host allowed this tool in advance",
                        call.origin
                    )
                })
            };
        Box::pin(std::future::ready(decision))
    }
}

/// Two policies that must both allow; the first one's denial is the answer, and the second is
/// not asked then.
#[derive(Debug, Clone)]
pub struct Both<A, B>(A, B);

impl<A: ToolPolicy, B: ToolPolicy> ToolPolicy for Both<A, B> {
    fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            match self.0.decide(call).await {
                Decision::Allow => self.1.decide(call).await,
                denied => denied,
            }
        })
    }
}

/// Composition of policies.
pub trait ToolPolicyExt: ToolPolicy + Sized {
    /// This policy, then `other`: a call goes only when both allow it.
    fn and<P: ToolPolicy>(self, other: P) -> Both<Self, P> {
        Both(self, other)
    }
}

impl<P: ToolPolicy> ToolPolicyExt for P {}

impl<P: ToolPolicy + ?Sized> ToolPolicy for Arc<P> {
    fn decide<'a>(&'a self, call: &'a ToolCallRequest<'a>) -> BoxFuture<'a, Decision> {
        (**self).decide(call)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::task::{Context, Poll, Waker};

    fn now<T>(f: BoxFuture<'_, T>) -> T {
        let mut f = f;
        match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(v) => v,
            Poll::Pending => panic!("the policy should answer at once"),
        }
    }

    fn defs() -> Vec<Value> {
        vec![
            json!({"name": "list_issues", "annotations": {"readOnlyHint": true}}),
            json!({"name": "close_issue", "annotations": {"destructiveHint": true}}),
            json!({"name": "label_issue", "annotations": {"readOnlyHint": false, "destructiveHint": false}}),
            json!({"name": "plain_tool"}),
            json!({"name": "odd", "annotations": {"readOnlyHint": "yes"}}),
        ]
    }

    #[test]
    fn destructive_follows_the_mcp_defaults() {
        let args = json!({});
        let defs = defs();
        let verdict = |name: &str| {
            let def = defs.iter().find(|d| d["name"] == name);
            ToolCallRequest::new(name, &args, Origin::Binding)
                .with_definition(def)
                .is_destructive()
        };
        assert!(!verdict("list_issues"));
        assert!(verdict("close_issue"));
        assert!(!verdict("label_issue"));
        assert!(
            verdict("plain_tool"),
            "no annotations: the defaults say destructive"
        );
        assert!(verdict("odd"), "a hint that is not a boolean says nothing");
        assert!(verdict("missing"), "not listed: destructive");
    }

    #[test]
    fn lists_and_composition() {
        let args = json!({"id": 1});
        let call = |name| ToolCallRequest::new(name, &args, Origin::Binding);
        let allow = AllowList::new(["a", "b"]);
        assert_eq!(now(allow.decide(&call("a"))), Decision::Allow);
        assert!(!now(allow.decide(&call("c"))).is_allowed());
        let deny = DenyList::new(["b"]);
        assert_eq!(now(deny.decide(&call("a"))), Decision::Allow);
        let Decision::Deny(why) = now(deny.decide(&call("b"))) else {
            panic!("b is denied")
        };
        assert!(why.contains("deny list"), "{why}");
        let both = AllowList::new(["a", "b"]).and(DenyList::new(["b"]));
        assert_eq!(now(both.decide(&call("a"))), Decision::Allow);
        assert!(!now(both.decide(&call("b"))).is_allowed());
        let Decision::Deny(why) = now(both.decide(&call("c"))) else {
            panic!("c is not allowed")
        };
        assert!(
            why.contains("allow list"),
            "the first denial answers: {why}"
        );
    }

    #[test]
    fn consent_is_asked_only_for_destructive_tools() {
        let asked = Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = asked.clone();
        let policy = ConsentForDestructive::new(move |call| {
            log.lock().unwrap().push(call.name.to_owned());
            let yes = call.arguments["confirm"] == true;
            Box::pin(std::future::ready(yes))
        });
        let defs = defs();
        let yes = json!({"confirm": true});
        let no = json!({"confirm": false});
        let call = |name: &'static str, args| {
            ToolCallRequest::new(name, args, Origin::App)
                .with_definition(defs.iter().find(|d| d["name"] == name))
        };
        // Bind the calls first: the futures borrow them.
        let (read, close_yes, close_no) = (
            call("list_issues", &no),
            call("close_issue", &yes),
            call("close_issue", &no),
        );
        assert_eq!(now(policy.decide(&read)), Decision::Allow);
        assert_eq!(now(policy.decide(&close_yes)), Decision::Allow);
        let Decision::Deny(why) = now(policy.decide(&close_no)) else {
            panic!("no consent")
        };
        assert!(why.contains("did not consent"), "{why}");
        assert_eq!(*asked.lock().unwrap(), ["close_issue", "close_issue"]);

        let strict = ConsentForDestructive::deny();
        let unlisted = call("ghost", &no);
        let Decision::Deny(why) = now(strict.decide(&unlisted)) else {
            panic!("unlisted tools are destructive")
        };
        assert!(why.contains("not in the server's tool list"), "{why}");
    }
}
