//! Tool runs: the tool calls a surface's evaluations stop at, handed to the host, and their
//! answers taken back into the surface's own data model (see [`ToolRun`]).

use super::instance::InstanceId;
use super::{Applied, Processor};
use crate::error::{Error, ErrorCode};
use crate::limits::Limits;
use crate::mcp::McpHost;
use crate::mcp::call::ToolAnswer;
use crate::origin::{Invocation, Origin, Provenance};
use crate::path::JsonPointer;
use crate::payload::{PendingCall, Progress, Resumable};
use crate::reactive::TrackedModel;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// The next run's number.
static NEXT_RUN: AtomicU64 = AtomicU64::new(1);

/// The stopped evaluation of a run.
type Held = Resumable<TrackedModel<Value>>;

/// A tool call a surface needs, for the host to make.
///
/// Activating a component whose action is a `functionCall` ([`Processor::activate`]), and
/// computing a live property whose value calls a tool, run the payload against the surface's
/// data model until it reaches a tool call. The processor then keeps the stopped evaluation and
/// queues a [`ToolRun`]: the tool, its evaluated arguments, the origin, the surface and the
/// component. It is free at once: messages, writes and other activations go on while the
/// server answers. The host executes the run ([`ToolRun::execute`] with its
/// [`McpHost`](crate::mcp::McpHost): policy, consent, audit, output schemas, provenance) and
/// hands the [`ToolDone`] back ([`Processor::finish_tool_run`]); the evaluation resumes where it
/// stopped: the response object is written to `targetDataPath`, the A2UI messages the result
/// carried are processed (a surface they create remembers the tool and its server), then the
/// rest of the payload runs (`transformData`, `split`, `regexCapture`, `updateDataModel`, another
/// tool call, which queues another run). What it wrote reaches the live tree and
/// [`Processor::take_changes`].
///
/// The rules, the same for taps, keystrokes and bound properties:
///
/// - **Latest call wins.** A run with a `targetDataPath` supersedes every older run of the same
///   surface and path; a property's run is superseded when the property is computed again (its
///   dependencies changed). A superseded run is dropped at once: its result, handed back later,
///   writes nothing and the rest of its payload never runs.
/// - **A run whose surface, instance or property is gone is dropped** the same way.
/// - **A failed call writes nothing**: a host error, a refusal by the policy or `isError`
///   fails the evaluation, reported with the component it came from; writes that earlier
///   steps of the same payload completed stay (as with [`Payload::eval`]).
/// - **A bound value writes only through its tool calls.** Until its first tool answer a
///   bound property's evaluation is read-only (drawing never changes the model); from there on
///   its `targetDataPath` and `updateDataModel` writes land in the surface. Those writes do not
///   re-run the property that made them (it would call the tool again, forever, when it reads
///   what it writes).
/// - At most [`ProcessorOptions::max_pending_runs`](super::ProcessorOptions::max_pending_runs)
///   runs wait at once; one more fails its evaluation with `LIMIT_EXCEEDED`.
///
/// [`Payload::eval`]: crate::Payload::eval
///
/// ```
/// # #[cfg(feature = "testing")] {
/// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, RunOutcome};
/// use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
/// use a2ui_catalog_mcp::JsonPointer;
/// use serde_json::json;
///
/// let server = ScriptedServer::from_json(&json!({"results": {"list_directory": [
///     {"content": [{"type": "text", "text": "[FILE] a.md\n[DIR] src"}]}]}}))?;
/// let host = server.host();
/// let mut processor = Processor::new(ProcessorOptions::default().with_accept_unregistered_catalogs(true));
/// processor.process(&json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
///     "components": [{"id": "root", "component": "Button", "child": "label", "action": {"functionCall":
///         {"@call": "callMcpTool", "catalogId": a2ui_catalog_mcp::MCP_CATALOG_ID, "args": {"name": "list_directory",
///          "arguments": {"path": "/docs"}, "targetDataPath": "/listing"}}}}]}})).unwrap();
///
/// // The tap stops at the tool call: the processor is free while the host makes it.
/// let tap = processor.activate("s", "root", &JsonPointer::root(), "2026-12-07T10:00:00Z")?;
/// assert!(tap.run.is_some());
/// let run = processor.take_tool_runs().pop().unwrap();
/// assert_eq!((run.tool(), run.arguments()), ("list_directory", &json!({"path": "/docs"})));
///
/// let done = block_on(run.execute(&host));
/// assert!(matches!(processor.finish_tool_run(done), RunOutcome::Done(_)));
/// assert_eq!(processor.surface("s").unwrap().data_model()["listing"]["text"], "[FILE] a.md\n[DIR] src");
/// # }
/// # Ok::<(), a2ui_catalog_mcp::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct ToolRun {
    id: u64,
    surface_id: String,
    component_id: String,
    instance: Option<InstanceId>,
    prop: Option<String>,
    origin: Origin,
    context: JsonPointer,
    call: PendingCall,
    source: Option<Provenance>,
    limits: Arc<Limits>,
}

impl ToolRun {
    /// The run's number: unique in the process, never reused.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The surface.
    pub fn surface_id(&self) -> &str {
        &self.surface_id
    }

    /// The component whose action or property made the call.
    pub fn component_id(&self) -> &str {
        &self.component_id
    }

    /// The instance of the live tree, when the processor keeps one and found it.
    pub fn instance(&self) -> Option<InstanceId> {
        self.instance
    }

    /// The property whose value made the call (`checks` for the checks); `None` for the
    /// component's action.
    pub fn prop(&self) -> Option<&str> {
        self.prop.as_deref()
    }

    /// Why the call is made: [`Origin::Action`] for a tap, [`Origin::Binding`] for a bound
    /// property.
    pub fn origin(&self) -> Origin {
        self.origin
    }

    /// The data context of the evaluation.
    pub fn context(&self) -> &JsonPointer {
        &self.context
    }

    /// The tool.
    pub fn tool(&self) -> &str {
        &self.call.name
    }

    /// The evaluated arguments, exactly as they are sent.
    pub fn arguments(&self) -> &Value {
        &self.call.arguments
    }

    /// Where the response object is written when the answer comes back (`targetDataPath`,
    /// resolved).
    pub fn target(&self) -> Option<&JsonPointer> {
        self.call.target.as_ref()
    }

    /// Where the surface came from, when a tool's result created it.
    pub fn source(&self) -> Option<&Provenance> {
        self.source.as_ref()
    }

    /// The invocation the host's policy and audit see: the origin and the surface's provenance.
    pub fn invocation(&self) -> Invocation {
        let invocation = Invocation::new(self.origin);
        match &self.source {
            Some(source) => invocation.with_source(source.clone()),
            None => invocation,
        }
    }

    /// Makes the call with the host's clients, policy and audit: nothing is written and no
    /// message is processed until the result is handed to [`Processor::finish_tool_run`]. The
    /// future needs no particular runtime and is `Send`; dropping it cancels the call (the
    /// processor keeps the run until it is superseded or its surface goes).
    pub async fn execute(&self, host: &McpHost) -> ToolDone {
        let outcome = host
            .answer(
                &self.call.name,
                self.call.arguments.clone(),
                &self.invocation(),
                &self.limits,
            )
            .await;
        ToolDone {
            run: self.id,
            outcome,
        }
    }

    /// The result of a run the host could not make (a timeout of its own, a server that went
    /// away before the call was sent): the evaluation fails with `error`.
    pub fn fail(&self, error: Error) -> ToolDone {
        ToolDone {
            run: self.id,
            outcome: Err(error),
        }
    }
}

/// The result of a [`ToolRun`], for [`Processor::finish_tool_run`].
pub struct ToolDone {
    run: u64,
    outcome: Result<ToolAnswer, Error>,
}

impl std::fmt::Debug for ToolDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolDone")
            .field("run", &self.run)
            .field("error", &self.outcome.as_ref().err())
            .finish_non_exhaustive()
    }
}

impl ToolDone {
    /// The run it answers ([`ToolRun::id`]).
    pub fn run_id(&self) -> u64 {
        self.run
    }

    /// The call's error, when it failed.
    pub fn error(&self) -> Option<&Error> {
        self.outcome.as_ref().err()
    }
}

/// What handing a result back did ([`Processor::finish_tool_run`]).
#[derive(Debug)]
#[non_exhaustive]
pub enum RunOutcome {
    /// The evaluation finished: an action's value, or the property's new value.
    Done(Value),
    /// It went on to another tool call: a new run is queued
    /// ([`Processor::take_tool_runs`]).
    Waiting(u64),
    /// The call or the rest of the evaluation failed, with the component it came from; what
    /// the failed step would have written is not written.
    Failed {
        /// The surface.
        surface_id: String,
        /// The component whose action or property made the call.
        component_id: String,
        /// Why.
        error: Error,
    },
    /// Nothing happened: the run was superseded by a newer call, its surface, instance or
    /// property is gone, or it is not a pending run of this processor (handed back twice,
    /// never started).
    Ignored,
}

/// Where a run came from, to drop it when that goes.
#[derive(Debug, Clone)]
struct Owner {
    surface_id: String,
    /// The instance the run came from, when the live tree had it.
    instance: Option<InstanceId>,
    /// A property's run: its instance, the property's index and the ticket of its
    /// computation.
    prop: Option<(InstanceId, u32, u64)>,
}

/// A run waiting for its answer.
struct Pending {
    run: ToolRun,
    owner: Owner,
    eval: Held,
}

/// The processor's runs.
#[derive(Default)]
pub(crate) struct Runs {
    /// Runs not taken by the host yet (those superseded meanwhile are skipped when taken).
    queued: Vec<ToolRun>,
    pending: HashMap<u64, Pending>,
    /// The latest run per surface and `targetDataPath`.
    by_target: HashMap<(String, JsonPointer), u64>,
    /// The latest run per property (surface, instance, index).
    by_prop: HashMap<(String, InstanceId, u32), u64>,
}

impl std::fmt::Debug for Runs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runs")
            .field("pending", &self.pending.len())
            .finish_non_exhaustive()
    }
}

impl Runs {
    fn drop_run(&mut self, id: u64) -> Option<Pending> {
        let pending = self.pending.remove(&id)?;
        if let Some(target) = &pending.run.call.target {
            let key = (pending.owner.surface_id.clone(), target.clone());
            if self.by_target.get(&key) == Some(&id) {
                self.by_target.remove(&key);
            }
        }
        if let Some((instance, index, _)) = pending.owner.prop {
            let key = (pending.owner.surface_id.clone(), instance, index);
            if self.by_prop.get(&key) == Some(&id) {
                self.by_prop.remove(&key);
            }
        }
        Some(pending)
    }

    /// Every run of a surface dropped (the surface is deleted).
    pub(crate) fn drop_surface(&mut self, surface_id: &str) {
        let ids: Vec<u64> = self
            .pending
            .iter()
            .filter(|(_, p)| p.owner.surface_id == surface_id)
            .map(|(id, _)| *id)
            .collect();
        for id in ids {
            self.drop_run(id);
        }
    }

    /// Keeps a stopped evaluation and queues its run; older runs it supersedes are dropped.
    fn hold(&mut self, mut run: ToolRun, owner: Owner, eval: Held) -> u64 {
        // Unique in the process, not only in this processor: a result handed to the wrong
        // processor is not pending there.
        let id = NEXT_RUN.fetch_add(1, Ordering::Relaxed);
        run.id = id;
        if let Some(target) = &run.call.target {
            let key = (owner.surface_id.clone(), target.clone());
            if let Some(older) = self.by_target.insert(key, id) {
                self.drop_run(older);
            }
        }
        if let Some((instance, index, _)) = owner.prop {
            let key = (owner.surface_id.clone(), instance, index);
            if let Some(older) = self.by_prop.insert(key, id) {
                self.drop_run(older);
            }
        }
        self.queued.push(run.clone());
        self.pending.insert(id, Pending { run, owner, eval });
        id
    }
}

/// What starts an evaluation that may stop at tool calls.
pub(crate) struct Start {
    pub(crate) payload: Arc<crate::payload::Payload>,
    pub(crate) context: JsonPointer,
    pub(crate) origin: Origin,
    pub(crate) component_id: String,
    pub(crate) instance: Option<InstanceId>,
    /// A property's run: its name, index and the ticket of its computation.
    pub(crate) prop: Option<(String, u32, u64)>,
}

/// How a started evaluation went on.
pub(crate) enum Started {
    Done(Result<Value, Error>),
    Waiting(u64),
}

impl Processor {
    /// The tool runs queued since the last call, for the host to execute ([`ToolRun::execute`])
    /// and hand back ([`finish_tool_run`](Processor::finish_tool_run)): the tool calls of taps
    /// and of live properties. Runs superseded before they were taken are not listed.
    pub fn take_tool_runs(&mut self) -> Vec<ToolRun> {
        let queued = std::mem::take(&mut self.runs.queued);
        queued
            .into_iter()
            .filter(|run| self.runs.pending.contains_key(&run.id))
            .collect()
    }

    /// How many runs wait for their answer.
    pub fn pending_tool_runs(&self) -> usize {
        self.runs.pending.len()
    }

    /// Starts an evaluation against the surface's model; it runs until it is done or stops at
    /// a tool call (then held, its run queued).
    pub(crate) fn start_run(&mut self, surface_id: &str, start: Start) -> Started {
        let Some(surface) = self.surfaces.get_mut(surface_id) else {
            return Started::Done(Err(Error::new(
                ErrorCode::ValidationFailed,
                format!("Surface not found: '{surface_id}'"),
            )));
        };
        let read_only = start.origin == Origin::Binding;
        let limits = Arc::new(start.payload.limits().clone());
        let mut eval = Held::new(
            start.payload,
            start.context.clone(),
            start.origin,
            read_only,
        );
        let progress = eval.start(&mut surface.data);
        let source = surface.source().cloned();
        match progress {
            Progress::Done(result) => Started::Done(result),
            Progress::Answered => Started::Done(Err(stopped_without_call())),
            Progress::Call(call) => {
                let (prop, owner_prop) = match start.prop {
                    Some((name, index, ticket)) => (
                        Some(name),
                        start.instance.map(|instance| (instance, index, ticket)),
                    ),
                    None => (None, None),
                };
                let owner = Owner {
                    surface_id: surface_id.to_owned(),
                    instance: start.instance,
                    prop: owner_prop,
                };
                let run = ToolRun {
                    id: 0,
                    surface_id: surface_id.to_owned(),
                    component_id: start.component_id,
                    instance: start.instance,
                    prop,
                    origin: start.origin,
                    context: start.context,
                    call,
                    source,
                    limits,
                };
                self.queue(run, owner, eval)
            }
        }
    }

    /// Holds a stopped evaluation, unless too many are held already.
    fn queue(&mut self, run: ToolRun, owner: Owner, eval: Held) -> Started {
        let max = self.options.max_pending_runs;
        if self.runs.pending.len() >= max {
            return Started::Done(Err(Error::new(
                ErrorCode::LimitExceeded,
                format!(
                    "cannot call MCP tool '{}': {max} tool runs already wait for their answer \
                     (ProcessorOptions::max_pending_runs)",
                    run.call.name
                ),
            )));
        }
        Started::Waiting(self.runs.hold(run, owner, eval))
    }

    /// Hands the result of a run back: the evaluation resumes where it stopped (see the
    /// [`ToolRun`]) and what it wrote is recorded
    /// ([`take_changes`](Processor::take_changes)). A result for a run that is not pending
    /// (superseded, its surface or instance gone, handed back twice, never started) changes
    /// nothing.
    pub fn finish_tool_run(&mut self, done: ToolDone) -> RunOutcome {
        let Some(Pending {
            mut run,
            owner,
            mut eval,
        }) = self.runs.drop_run(done.run)
        else {
            return RunOutcome::Ignored;
        };
        if !self.still_wanted(&owner) {
            return RunOutcome::Ignored;
        }
        let fail = |run: &ToolRun, error: Error| RunOutcome::Failed {
            surface_id: run.surface_id.clone(),
            component_id: run.component_id.clone(),
            error,
        };
        let answer = match done.outcome {
            Ok(answer) => answer,
            Err(error) => {
                self.settle(&owner, Err(error.to_string()));
                return fail(&run, error);
            }
        };
        let ToolAnswer {
            response,
            messages,
            source,
        } = answer;
        let surface = self
            .surfaces
            .get_mut(&owner.surface_id)
            .expect("checked by still_wanted");
        let mut progress = eval.resume(&mut surface.data, response);
        if let Progress::Answered = progress {
            // The target is written: the messages the result carried come next, then the rest.
            self.process_forwarded(messages, &source);
            self.refresh_after_run(&owner);
            if !self.still_wanted(&owner) {
                return RunOutcome::Ignored;
            }
            let surface = self
                .surfaces
                .get_mut(&owner.surface_id)
                .expect("checked by still_wanted");
            progress = eval.proceed(&mut surface.data);
        }
        self.refresh_after_run(&owner);
        match progress {
            Progress::Done(Ok(value)) => {
                if owner.prop.is_some() {
                    self.settle(&owner, Ok(value.clone()));
                }
                RunOutcome::Done(value)
            }
            Progress::Done(Err(error)) => {
                self.settle(&owner, Err(error.to_string()));
                fail(&run, error)
            }
            Progress::Answered => {
                let error = stopped_without_call();
                self.settle(&owner, Err(error.to_string()));
                fail(&run, error)
            }
            Progress::Call(call) => {
                run.call = call;
                match self.queue(run.clone(), owner.clone(), eval) {
                    Started::Waiting(id) => RunOutcome::Waiting(id),
                    Started::Done(result) => {
                        let error = result.err().unwrap_or_else(stopped_without_call);
                        self.settle(&owner, Err(error.to_string()));
                        fail(&run, error)
                    }
                }
            }
        }
    }

    /// Whether the surface, instance and computation a run belongs to are still there.
    fn still_wanted(&self, owner: &Owner) -> bool {
        let Some(surface) = self.surfaces.get(&owner.surface_id) else {
            return false;
        };
        match (owner.prop, owner.instance) {
            (Some((instance, index, ticket)), _) => surface
                .live
                .as_deref()
                .is_some_and(|tree| tree.is_pending(instance, index, ticket)),
            (None, Some(instance)) => surface
                .live
                .as_deref()
                .is_none_or(|tree| tree.contains(instance)),
            (None, None) => true,
        }
    }

    /// A property's run ended: the property shows its value or its error.
    fn settle(&mut self, owner: &Owner, result: Result<Value, String>) {
        if let Some((instance, index, ticket)) = owner.prop {
            self.set_prop(&owner.surface_id, instance, index, ticket, result);
        }
    }

    /// What a run wrote reaches the live tree; a property's own writes do not compute it
    /// again.
    fn refresh_after_run(&mut self, owner: &Owner) {
        let skip = owner.prop.map(|(instance, index, _)| (instance, index));
        self.refresh_skipping(&owner.surface_id, skip);
    }

    /// Processes the A2UI messages a tool's result carried, with the tool's provenance; a
    /// resource that would create a surface that exists is skipped whole (a second call reuses
    /// the surface). Messages that fail change nothing and are kept for
    /// [`take_forwarded_errors`](Processor::take_forwarded_errors).
    fn process_forwarded(&mut self, resources: Vec<Vec<Value>>, source: &Provenance) {
        for messages in resources {
            let creates_existing = messages.iter().any(|m| {
                m.pointer("/createSurface/surfaceId")
                    .and_then(Value::as_str)
                    .is_some_and(|id| self.surfaces.contains_key(id))
            });
            if creates_existing {
                continue;
            }
            for message in &messages {
                if let Some(key) = super::rpc::agent_call_key(message) {
                    let refused = self.refuse_function_call(key);
                    self.forwarded_errors.push(refused);
                    continue;
                }
                match self.process(message) {
                    Ok(Applied::SurfaceCreated(id)) => {
                        if let Some(surface) = self.surfaces.get_mut(&id) {
                            surface.set_source(source.clone());
                        }
                    }
                    Ok(_) => {}
                    Err(e) => self.forwarded_errors.push(e),
                }
            }
        }
    }

    /// The errors of the messages tool results carried that were refused, since the last call.
    pub fn take_forwarded_errors(&mut self) -> Vec<crate::error::Error> {
        std::mem::take(&mut self.forwarded_errors)
    }
}

fn stopped_without_call() -> Error {
    Error::new(
        ErrorCode::ExpressionError,
        "the evaluation stopped without a tool call to wait for",
    )
}
