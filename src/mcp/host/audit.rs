//! The record of every tool call, allowed or denied, once it ends ([`AuditEvent`], sent to the
//! host's [`AuditSink`]); a call whose evaluation is dropped is recorded as cancelled.

use super::policy::Decision;
use crate::origin::{Invocation, Origin, Provenance};
use serde_json::Value;
use std::fmt;
use std::time::Duration;

/// How an audited call ended.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum CallOutcome {
    /// Refused before anything was sent: by the host's policy, or (for an `McpApp` widget) by
    /// the widget's `allowedTools`.
    Denied,
    /// The tool answered, and its result was used.
    Ok,
    /// The tool answered with `isError: true`.
    ToolError,
    /// The call failed on the host's side: no connected server has the tool, the client's
    /// request failed, a resource the result links could not be read, the result could not be
    /// used, or the response could not be written. The message says why.
    HostFailure(String),
    /// The evaluation was dropped while the call (or the policy's decision) was pending.
    Cancelled,
    /// The tool answered, but a newer call to the same `targetDataPath` had started: this
    /// call's write was dropped (latest call wins).
    Superseded,
}

impl fmt::Display for CallOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CallOutcome::Denied => f.write_str("denied"),
            CallOutcome::Ok => f.write_str("ok"),
            CallOutcome::ToolError => f.write_str("isError"),
            CallOutcome::HostFailure(why) => write!(f, "host failure: {why}"),
            CallOutcome::Cancelled => f.write_str("cancelled"),
            CallOutcome::Superseded => f.write_str("superseded"),
        }
    }
}

/// One audited tool call.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct AuditEvent {
    /// The tool's name.
    pub tool: String,
    /// The arguments, as evaluated (and sent, when the call was allowed).
    pub arguments: Value,
    /// The server, as its client names it.
    pub server: Option<String>,
    /// Why the call was made.
    pub origin: Origin,
    /// Where the surface (or app) that made the call came from, when the host said.
    pub source: Option<Provenance>,
    /// The decision; `None` when there was none: the evaluation was dropped while the policy
    /// was deciding, or no connected server has the tool (the policy is not asked then).
    /// Without a policy every call is [`Decision::Allow`].
    pub decision: Option<Decision>,
    /// How the call ended.
    pub outcome: CallOutcome,
    /// What the call did that the host should know of although it worked (a
    /// `structuredContent` dropped for not matching the tool's `outputSchema`).
    pub warnings: Vec<String>,
    /// From the start of the decision to the end of the call. `None` where the platform has no
    /// clock (`wasm32-unknown-unknown`).
    pub duration: Option<Duration>,
}

impl AuditEvent {
    /// The event as one JSON object, for a log of JSON lines: `tool`, `arguments`, `server`,
    /// `origin` (`"binding"`, `"action"`, `"app"`, `"agent"`), `source` (`{"tool", "server"}`
    /// or `null`), `decision` (`"allow"`, `"deny"` or `null`), `reason` (a denial's), `outcome`
    /// (`"denied"`, `"ok"`, `"isError"`, `"hostFailure"`, `"cancelled"`, `"superseded"`),
    /// `failure` (a host failure's message), `warnings` and `durationMs` (`null` without a
    /// clock).
    ///
    /// ```
    /// use a2ui_catalog_mcp::mcp::AuditEvent;
    /// fn log_line(event: &AuditEvent) -> String {
    ///     event.to_json().to_string()
    /// }
    /// ```
    pub fn to_json(&self) -> Value {
        let (decision, reason) = match &self.decision {
            Some(Decision::Allow) => (Value::from("allow"), Value::Null),
            Some(Decision::Deny(why)) => (Value::from("deny"), Value::from(why.as_str())),
            None => (Value::Null, Value::Null),
        };
        let (outcome, failure) = match &self.outcome {
            CallOutcome::Denied => ("denied", Value::Null),
            CallOutcome::Ok => ("ok", Value::Null),
            CallOutcome::ToolError => ("isError", Value::Null),
            CallOutcome::HostFailure(why) => ("hostFailure", Value::from(why.as_str())),
            CallOutcome::Cancelled => ("cancelled", Value::Null),
            CallOutcome::Superseded => ("superseded", Value::Null),
        };
        let source = self.source.as_ref().map_or(
            Value::Null,
            |s| serde_json::json!({"tool": s.tool, "server": s.server}),
        );
        serde_json::json!({
            "tool": self.tool,
            "arguments": self.arguments,
            "server": self.server,
            "origin": self.origin.as_str(),
            "source": source,
            "decision": decision,
            "reason": reason,
            "outcome": outcome,
            "failure": failure,
            "warnings": self.warnings,
            "durationMs": self.duration.map(|d| d.as_secs_f64() * 1e3),
        })
    }
}

impl fmt::Display for AuditEvent {
    /// One line: `close_issue {"id":3} on github: denied (it is destructive) in 1.2 ms`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.tool, self.arguments)?;
        if let Some(server) = &self.server {
            write!(f, " on {server}")?;
        }
        if self.origin != Origin::Binding {
            write!(f, " (from {})", self.origin)?;
        }
        match (&self.decision, &self.outcome) {
            (Some(Decision::Deny(why)), _) => write!(f, ": denied ({why})")?,
            (Some(Decision::Allow), outcome) => write!(f, ": allowed, {outcome}")?,
            (None, CallOutcome::Cancelled) => f.write_str(": cancelled before the decision")?,
            (None, outcome) => write!(f, ": {outcome}")?,
        }
        for warning in &self.warnings {
            write!(f, "; {warning}")?;
        }
        if let Some(d) = self.duration {
            write!(f, " in {:.1} ms", d.as_secs_f64() * 1e3)?;
        }
        Ok(())
    }
}

/// Receives one [`AuditEvent`] per tool call. Closures `Fn(&AuditEvent)` are sinks.
///
/// `record` runs on the evaluation's task (or, for a cancelled call, wherever the evaluation's
/// future is dropped): keep it short, and hand slow work (a file, the network) to the host's
/// own queue.
pub trait AuditSink: Send + Sync {
    /// Records one call.
    fn record(&self, event: &AuditEvent);
}

impl<F: Fn(&AuditEvent) + Send + Sync> AuditSink for F {
    fn record(&self, event: &AuditEvent) {
        self(event)
    }
}

/// The audit record of one call in flight. It is written when the call ends, and also when the
/// future that runs the call is dropped first: the call is then [`CallOutcome::Cancelled`].
/// Without a sink it holds nothing (the arguments are not copied).
pub(crate) struct AuditRecord<'h> {
    pending: Option<Pending<'h>>,
}

struct Pending<'h> {
    sink: &'h dyn AuditSink,
    tool: String,
    arguments: Value,
    server: Option<String>,
    origin: Origin,
    source: Option<Provenance>,
    decision: Option<Decision>,
    warnings: Vec<String>,
    clock: Stopwatch,
}

impl<'h> AuditRecord<'h> {
    pub(crate) fn start(
        sink: Option<&'h dyn AuditSink>,
        tool: &str,
        arguments: &Value,
        server: Option<&str>,
        invocation: &Invocation,
    ) -> AuditRecord<'h> {
        AuditRecord {
            pending: sink.map(|sink| Pending {
                sink,
                tool: tool.to_owned(),
                arguments: arguments.clone(),
                server: server.map(str::to_owned),
                origin: invocation.origin,
                source: invocation.source.clone(),
                decision: None,
                warnings: Vec::new(),
                clock: Stopwatch::start(),
            }),
        }
    }

    /// The policy's decision (the call is still running).
    pub(crate) fn decided(&mut self, decision: &Decision) {
        if let Some(p) = &mut self.pending {
            p.decision = Some(decision.clone());
        }
    }

    /// Something the host should know of the call (it is still running).
    pub(crate) fn warn(&mut self, warning: String) {
        if let Some(p) = &mut self.pending {
            p.warnings.push(warning);
        }
    }

    /// The call ended.
    pub(crate) fn finish(mut self, outcome: CallOutcome) {
        self.write(outcome);
    }

    fn write(&mut self, outcome: CallOutcome) {
        if let Some(p) = self.pending.take() {
            p.sink.record(&AuditEvent {
                tool: p.tool,
                arguments: p.arguments,
                server: p.server,
                origin: p.origin,
                source: p.source,
                decision: p.decision,
                outcome,
                warnings: p.warnings,
                duration: p.clock.elapsed(),
            });
        }
    }
}

impl Drop for AuditRecord<'_> {
    fn drop(&mut self) {
        // Reached with a pending record only when the call's future was dropped mid-call.
        self.write(CallOutcome::Cancelled);
    }
}

/// A clock where the platform has one.
#[derive(Clone, Copy)]
struct Stopwatch {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    start: std::time::Instant,
}

impl Stopwatch {
    fn start() -> Stopwatch {
        Stopwatch {
            #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
            start: std::time::Instant::now(),
        }
    }

    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    fn elapsed(&self) -> Option<Duration> {
        Some(self.start.elapsed())
    }

    /// `std::time::Instant::now` panics on `wasm32-unknown-unknown`: no clock, no duration.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    fn elapsed(&self) -> Option<Duration> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_record_dropped_before_its_end_is_a_cancelled_call() {
        let events = std::sync::Mutex::new(Vec::new());
        let sink = |e: &AuditEvent| events.lock().unwrap().push(e.clone());
        let args = json!({"id": 1});
        let started = |origin| {
            AuditRecord::start(Some(&sink), "t", &args, Some("s"), &Invocation::new(origin))
        };
        drop(started(Origin::Binding));
        let mut allowed = started(Origin::App);
        allowed.decided(&Decision::Allow);
        drop(allowed);
        let mut finished = started(Origin::Binding);
        finished.decided(&Decision::Allow);
        finished.finish(CallOutcome::Ok);
        let seen: Vec<_> = events
            .lock()
            .unwrap()
            .iter()
            .map(|e| (e.decision.clone(), e.outcome.clone(), e.origin))
            .collect();
        assert_eq!(
            seen,
            [
                (None, CallOutcome::Cancelled, Origin::Binding),
                (Some(Decision::Allow), CallOutcome::Cancelled, Origin::App),
                (Some(Decision::Allow), CallOutcome::Ok, Origin::Binding),
            ]
        );
        assert!(events.lock().unwrap()[2].duration.is_some());
        // Without a sink nothing is kept, and nothing happens on drop.
        assert!(
            AuditRecord::start(None, "t", &args, None, &Invocation::default())
                .pending
                .is_none()
        );
    }

    #[test]
    fn audit_events_read_in_one_line() {
        let event = AuditEvent {
            tool: "close_issue".into(),
            arguments: json!({"id": 3}),
            server: Some("github".into()),
            origin: Origin::Binding,
            source: None,
            decision: Some(Decision::deny("it is destructive")),
            outcome: CallOutcome::Denied,
            warnings: Vec::new(),
            duration: None,
        };
        assert_eq!(
            event.to_string(),
            r#"close_issue {"id":3} on github: denied (it is destructive)"#
        );
        let cancelled = AuditEvent {
            decision: None,
            outcome: CallOutcome::Cancelled,
            origin: Origin::App,
            server: None,
            duration: Some(Duration::from_millis(2)),
            ..event.clone()
        };
        assert_eq!(
            cancelled.to_string(),
            r#"close_issue {"id":3} (from an MCP App): cancelled before the decision in 2.0 ms"#
        );
        let superseded = AuditEvent {
            decision: Some(Decision::Allow),
            outcome: CallOutcome::Superseded,
            ..event
        };
        assert!(superseded.to_string().ends_with(": allowed, superseded"));
    }
}
