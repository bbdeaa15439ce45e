//! `render`'s user session: the stream is processed by a live processor, then the steps run in
//! the order given (`--type` writes an input's bound path as typing does, `--click` activates a
//! component, `--call` calls a tool as the host would); after each step every tool call it
//! started (a tap's chain, the bound values its writes reach) completes before the next.
//!
//! The processor is the only writer of its surfaces: a tap's or a bound value's tool calls are
//! its tool runs (`Processor::take_tool_runs`), made with the host and handed back
//! (`finish_tool_run`); the messages a `--call` or an `a2ui_action` answer carries reach it as
//! the host's message sink (`SharedProcessor`), with the tool's provenance.

use super::Failure;
use a2ui_catalog_mcp::connect::Connections;
use a2ui_catalog_mcp::mcp::protocol::{ACTION_TOOL_NAME, ERROR_TOOL_NAME};
use a2ui_catalog_mcp::mcp::{McpHost, ToolClient};
use a2ui_catalog_mcp::surfaces::{
    InstanceId, Processor, ResolveLimits, RunOutcome, SharedProcessor,
};
use a2ui_catalog_mcp::{Environment, Error, JsonPointer, MCP_CATALOG_ID, Origin, SharedModel};
use serde_json::{Value, json};
use std::sync::Arc;

/// The most rounds of tool runs one step may make (a round: the runs queued, made, handed
/// back; its writes may queue the next): bound values whose writes reach each other could
/// otherwise call tools forever. A large surface is one round, however many runs it has (the
/// processor bounds those, `ProcessorOptions::max_pending_runs`).
const MAX_ROUNDS_PER_STEP: usize = 100;

/// Where a `--click` or `--type` acts: `[SURFACE:]COMPONENT[@DATAPATH]`.
#[derive(Debug, Clone)]
pub(crate) struct Target {
    surface: Option<String>,
    component: String,
    data_path: Option<JsonPointer>,
}

impl Target {
    fn parse(text: &str) -> Result<Target, String> {
        let (rest, data_path) = match text.split_once('@') {
            Some((rest, path)) => (
                rest,
                Some(JsonPointer::parse(path).map_err(|e| {
                    format!(
                        "'{text}': the data path after '@' is not a JSON Pointer: {}",
                        e.message()
                    )
                })?),
            ),
            None => (text, None),
        };
        let (surface, component) = match rest.split_once(':') {
            Some((surface, component)) => (Some(surface.to_owned()), component),
            None => (None, rest),
        };
        if component.is_empty() {
            return Err(format!(
                "'{text}' names no component ([SURFACE:]COMPONENT[@DATAPATH])"
            ));
        }
        Ok(Target {
            surface,
            component: component.to_owned(),
            data_path,
        })
    }
}

/// One step of the session.
#[derive(Debug, Clone)]
pub(crate) enum Step {
    Click(Target),
    Type(Target, String),
    Call(String, Value),
}

impl Step {
    pub(crate) fn click(text: &str) -> Result<Step, String> {
        Target::parse(text).map(Step::Click)
    }

    pub(crate) fn type_text(text: &str) -> Result<Step, String> {
        let (target, typed) = text
            .split_once('=')
            .ok_or_else(|| format!("--type '{text}' needs [SURFACE:]COMPONENT[@DATAPATH]=TEXT"))?;
        Ok(Step::Type(Target::parse(target)?, typed.to_owned()))
    }

    pub(crate) fn call(text: &str) -> Result<Step, String> {
        let (tool, arguments) = match text.split_once('=') {
            Some((tool, json)) => {
                let arguments: Value = serde_json::from_str(json)
                    .map_err(|e| format!("--call '{text}': the arguments are not JSON: {e}"))?;
                if !arguments.is_object() {
                    return Err(format!(
                        "--call '{text}': the arguments are not a JSON object"
                    ));
                }
                (tool, arguments)
            }
            None => (text, json!({})),
        };
        if tool.is_empty() {
            return Err(format!("--call '{text}' names no tool"));
        }
        Ok(Step::Call(tool.to_owned(), arguments))
    }

    fn describe(&self) -> String {
        let target = |t: &Target| {
            let mut s = String::new();
            if let Some(surface) = &t.surface {
                s.push_str(surface);
                s.push(':');
            }
            s.push_str(&t.component);
            if let Some(p) = &t.data_path {
                s.push('@');
                s.push_str(&p.to_string());
            }
            s
        };
        match self {
            Step::Click(t) => format!("--click {}", target(t)),
            Step::Type(t, text) => format!("--type {}={text}", target(t)),
            Step::Call(tool, args) => format!("--call {tool}={args}"),
        }
    }
}

/// The host side of a session: who makes the calls, on which runtime.
pub(crate) struct Hosting<'a> {
    pub(crate) runtime: &'a tokio::runtime::Runtime,
    pub(crate) host: &'a McpHost,
    /// The connected servers (to send an action to the server a surface came from), when real.
    pub(crate) connections: Option<&'a Connections>,
    /// Makes a host for one server (the `a2ui_action` and `a2ui_error` calls go to the
    /// surface's own server).
    pub(crate) host_for: &'a dyn Fn(Arc<dyn ToolClient>) -> McpHost,
}

/// A session: its processor, what it reported.
pub(crate) struct Session<'a> {
    shared: SharedProcessor,
    hosting: Option<Hosting<'a>>,
    env: Environment,
    /// Messages for the agent (`action`, `error`) that no server took.
    for_agent: Vec<Value>,
    /// What each step did that the output shows (a failed call, a refused one).
    reports: Vec<Value>,
    timestamp: String,
    /// Per step: its name, its whole time and the time its tool calls took (`--timings`).
    timings: Option<Vec<Value>>,
    /// The time spent in tool calls during the current step.
    tool_time: std::time::Duration,
}

impl<'a> Session<'a> {
    pub(crate) fn new(
        shared: SharedProcessor,
        hosting: Option<Hosting<'a>>,
        env: Environment,
    ) -> Session<'a> {
        Session {
            shared,
            hosting,
            env,
            for_agent: Vec::new(),
            reports: Vec::new(),
            timestamp: now(),
            timings: None,
            tool_time: std::time::Duration::ZERO,
        }
    }

    /// Records each step's time and its tool calls' time (the calls as the client sees them:
    /// the server's work and the transport), for the output's `timings`.
    pub(crate) fn with_timings(mut self) -> Session<'a> {
        self.timings = Some(Vec::new());
        self
    }

    /// Completes the tool runs the stream started (its bound values).
    pub(crate) fn start(&mut self) -> Result<(), Failure> {
        self.settle("the stream")
    }

    /// Runs one step, then every tool call it started.
    pub(crate) fn step(&mut self, step: &Step) -> Result<(), Failure> {
        let started = std::time::Instant::now();
        self.tool_time = std::time::Duration::ZERO;
        self.run_step(step)?;
        if let Some(timings) = &mut self.timings {
            let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
            timings.push(json!({"step": step.describe(), "totalMs": ms(started.elapsed()),
                "toolCallsMs": ms(self.tool_time), "engineMs": ms(started.elapsed().saturating_sub(self.tool_time))}));
        }
        Ok(())
    }

    fn run_step(&mut self, step: &Step) -> Result<(), Failure> {
        let name = step.describe();
        let failed = |why: String| Failure::Io(format!("{name}: {why}"));
        match step {
            Step::Click(target) => {
                let (surface, component, path, _) = self.find(target).map_err(failed)?;
                let has_action = self.shared.with(|p| {
                    p.surface(&surface)
                        .and_then(|s| s.component(&component))
                        .is_some_and(|c| c.props.contains_key("action"))
                });
                if !has_action {
                    return Err(failed(format!("component '{component}' has no action")));
                }
                let done = self
                    .shared
                    .with(|p| p.activate(&surface, &component, &path, &self.timestamp))
                    .map_err(|e| failed(e.to_string()))?;
                for e in &done.errors {
                    self.reports.push(
                        json!({"step": name, "component": component, "error": e.to_string()}),
                    );
                }
                if let Some(message) = done.message {
                    self.send_action(&name, &surface, message, done.data_model)?;
                }
                if let Some(value) = done.value {
                    self.reports
                        .push(json!({"step": name, "component": component, "value": value}));
                }
            }
            Step::Type(target, text) => {
                let (surface, component, _, instance) = self.find(target).map_err(failed)?;
                let instance = instance.ok_or_else(|| {
                    failed(format!(
                        "component '{component}' is not drawn (no instance to type into)"
                    ))
                })?;
                let prop = self
                    .shared
                    .with(|p| {
                        let live = p.surface(&surface)?.live()?;
                        let node = live.node(instance)?;
                        // Inputs (TextField, CheckBox, Slider, DateTimeInput, ChoicePicker)
                        // bind `value`; a Text's bound `text` is not typed into.
                        ["value"]
                            .into_iter()
                            .find(|prop| node.writable_path(prop).is_some())
                    })
                    .ok_or_else(|| {
                        failed(format!(
                            "component '{component}' has no bound input (no `value` bound with {{\"path\": …}})"
                        ))
                    })?;
                self.shared
                    .with(|p| p.write(&surface, instance, prop, Value::String(text.clone())))
                    .map_err(|e| failed(e.to_string()))?;
            }
            Step::Call(tool, arguments) => {
                let result = self.call(None, tool, arguments.clone());
                match result {
                    Ok(value) => self
                        .reports
                        .push(json!({"step": name, "tool": tool, "text": value.get("text")})),
                    Err(e) => self
                        .reports
                        .push(json!({"step": name, "tool": tool, "error": e})),
                }
            }
        }
        self.settle(&name)
    }

    /// The surface, component, data path and live instance a target names.
    fn find(
        &self,
        target: &Target,
    ) -> Result<(String, String, JsonPointer, Option<InstanceId>), String> {
        self.shared.with(|p| {
            let surface = match &target.surface {
                Some(id) => p
                    .surface(id)
                    .ok_or_else(|| format!("there is no surface '{id}'"))?,
                None => {
                    let mut all = p.surfaces();
                    match (all.next(), all.next()) {
                        (Some(only), None) => only,
                        (None, _) => return Err("there is no surface".to_owned()),
                        (Some(_), Some(_)) => {
                            let ids: Vec<&str> = p.surfaces().map(|s| s.id()).collect();
                            return Err(format!(
                                "there are several surfaces ({}): name one, SURFACE:COMPONENT",
                                ids.join(", ")
                            ));
                        }
                    }
                }
            };
            let component = &target.component;
            if surface.component(component).is_none() {
                return Err(format!(
                    "surface '{}' has no component '{component}'",
                    surface.id()
                ));
            }
            let live = surface.live();
            let instances: Vec<(InstanceId, JsonPointer)> = live
                .map(|live| {
                    live.instances()
                        .into_iter()
                        .filter_map(|id| {
                            let node = live.node(id)?;
                            (node.component_id() == component)
                                .then(|| (id, node.data_path().clone()))
                        })
                        .collect()
                })
                .unwrap_or_default();
            let (path, instance) = match &target.data_path {
                Some(path) => match instances.iter().find(|(_, p)| p == path) {
                    Some((id, _)) => (path.clone(), Some(*id)),
                    None => {
                        return Err(format!(
                            "component '{component}' has no instance at '{path}' (its rows: {})",
                            if instances.is_empty() {
                                "none".to_owned()
                            } else {
                                instances
                                    .iter()
                                    .map(|(_, p)| format!("'{p}'"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            }
                        ));
                    }
                },
                None => match instances.first() {
                    Some((id, path)) => (path.clone(), Some(*id)),
                    None => (JsonPointer::root(), None),
                },
            };
            Ok((surface.id().to_owned(), component.clone(), path, instance))
        })
    }

    /// Makes every tool run the processor queued, until none is left.
    fn settle(&mut self, step: &str) -> Result<(), Failure> {
        let mut rounds = 0;
        loop {
            let runs = self.shared.with(Processor::take_tool_runs);
            if runs.is_empty() {
                break;
            }
            let Some(hosting) = &self.hosting else {
                // No server: the values stay pending, as `render` without a session shows them.
                break;
            };
            rounds += 1;
            if rounds > MAX_ROUNDS_PER_STEP {
                return Err(Failure::Io(format!(
                    "{step}: its tool calls did not settle after {MAX_ROUNDS_PER_STEP} rounds (bound values whose writes reach each other?)"
                )));
            }
            for run in runs {
                let called = std::time::Instant::now();
                let done = hosting.runtime.block_on(run.execute(hosting.host));
                self.tool_time += called.elapsed();
                let outcome = self.shared.with(|p| p.finish_tool_run(done));
                if let RunOutcome::Failed {
                    surface_id,
                    component_id,
                    error,
                } = outcome
                {
                    self.reports.push(json!({"step": step, "surface": surface_id,
                        "component": component_id, "tool": run.tool(), "error": error.to_string()}));
                }
            }
        }
        self.report_refused(step)
    }

    /// Messages tool results carried that the processor refused: each goes to the surface's
    /// server as `a2ui_error` when it has that tool, else to the agent.
    fn report_refused(&mut self, step: &str) -> Result<(), Failure> {
        let mut refused: Vec<Error> = self.shared.take_errors();
        refused.extend(self.shared.with(Processor::take_forwarded_errors));
        for error in refused {
            let message = a2ui_catalog_mcp::surfaces::agent_error_message(&error);
            let server = error
                .surface_id()
                .and_then(|id| self.server_of(id, ERROR_TOOL_NAME));
            match server {
                Some(client) => {
                    let arguments = message["error"].clone();
                    if let Err(e) = self.call(Some(client), ERROR_TOOL_NAME, arguments) {
                        self.reports
                            .push(json!({"step": step, "tool": ERROR_TOOL_NAME, "error": e}));
                    }
                }
                None => self.for_agent.push(message),
            }
        }
        Ok(())
    }

    /// An `action` message: to the server the surface came from when it has `a2ui_action`
    /// (its answer's messages processed), else for the agent.
    fn send_action(
        &mut self,
        step: &str,
        surface: &str,
        message: Value,
        data_model: Option<Value>,
    ) -> Result<(), Failure> {
        match self.server_of(surface, ACTION_TOOL_NAME) {
            Some(client) => {
                let arguments = message["action"].clone();
                match self.call(Some(client), ACTION_TOOL_NAME, arguments) {
                    Ok(_) => self
                        .reports
                        .push(json!({"step": step, "sent": ACTION_TOOL_NAME})),
                    Err(e) => self
                        .reports
                        .push(json!({"step": step, "tool": ACTION_TOOL_NAME, "error": e})),
                }
            }
            None => {
                let mut message = message;
                if let Some(models) = data_model {
                    message["dataModel"] = models;
                }
                self.for_agent.push(message);
            }
        }
        Ok(())
    }

    /// The client of the server a surface came from, when that server lists `tool`.
    fn server_of(&self, surface: &str, tool: &str) -> Option<Arc<dyn ToolClient>> {
        let source = self
            .shared
            .with(|p| p.surface(surface)?.source().cloned())?;
        let name = source.server?;
        let connections = self.hosting.as_ref()?.connections?;
        connections
            .server_named(&name)
            .filter(|s| s.tools().iter().any(|t| t["name"] == tool))
            .map(|s| s.clone() as Arc<dyn ToolClient>)
    }

    /// Calls a tool as the host would (a user's action: `Origin::Action`), through `client`
    /// or the host's router; the A2UI messages its result carries reach the processor.
    fn call(
        &mut self,
        client: Option<Arc<dyn ToolClient>>,
        tool: &str,
        arguments: Value,
    ) -> Result<Value, String> {
        let hosting = self
            .hosting
            .as_ref()
            .ok_or_else(|| "no MCP server is connected (--mcp, --mcp-url, --server)".to_owned())?;
        // The arguments are data, read through a binding: never evaluated as dynamic values.
        let payload = self
            .env
            .compile(&json!({"@call": "callMcpTool", "catalogId": MCP_CATALOG_ID,
                "args": {"name": tool, "arguments": {"@path": "/arguments"}}}))
            .map_err(|e| e.to_string())?;
        let model = SharedModel::new(json!({"arguments": arguments}));
        let own;
        let host = match client {
            Some(client) => {
                own = (hosting.host_for)(client);
                &own
            }
            None => hosting.host,
        };
        let called = std::time::Instant::now();
        let result = hosting
            .runtime
            .block_on(payload.eval_async_from(&model, &JsonPointer::root(), host, Origin::Action))
            .map_err(|e| e.to_string());
        self.tool_time += called.elapsed();
        result
    }

    /// The output: what `render` prints, drawn from the live trees, with the messages for the
    /// agent and the steps' reports.
    pub(crate) fn output(&self, errors: &[Error]) -> Value {
        let mut out = self
            .shared
            .with(|p| p.render_json(errors, ResolveLimits::default()));
        out["forAgent"] = json!(self.for_agent);
        if !self.reports.is_empty() {
            out["steps"] = json!(self.reports);
        }
        if let Some(timings) = &self.timings {
            out["timings"] = json!(timings);
        }
        out
    }
}

/// Now, as the `action` messages' timestamp (RFC 3339, seconds, UTC).
fn now() -> String {
    jiff::Timestamp::now()
        .round(jiff::Unit::Second)
        .map_or_else(|_| jiff::Timestamp::now().to_string(), |t| t.to_string())
}
