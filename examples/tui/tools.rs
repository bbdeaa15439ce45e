//! The terminal renderer's host side: a thread with its own runtime holds the MCP host and
//! makes the tool calls the processor asks for (`ToolRun`s), several at a time; their results
//! come back over a channel for the processor (`StreamApp`) to take in. The processor stays on
//! the UI's thread and is never locked while a server answers.

use a2ui_catalog_mcp::mcp::protocol::ACTION_TOOL_NAME;
use a2ui_catalog_mcp::mcp::{McpHost, MessageSink, Provenance, ToolClient};
use a2ui_catalog_mcp::surfaces::{ToolDone, ToolRun};
use a2ui_catalog_mcp::{Environment, JsonPointer, MCP_CATALOG_ID, Origin, SharedModel};
use serde_json::{Value, json};
use std::future::Future;
use std::pin::Pin;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// What the worker's host is: the host, and the client of the server named so, when it lists
/// `a2ui_action` (where a surface's actions go), when the servers are real connections.
pub struct Hosted {
    pub host: McpHost,
    pub action_server: ActionServer,
}

/// The client of the server named so, when it lists `a2ui_action`.
pub type ActionServer = Box<dyn Fn(&str) -> Option<Arc<dyn ToolClient>> + Send>;

impl From<McpHost> for Hosted {
    fn from(host: McpHost) -> Hosted {
        Hosted {
            host,
            action_server: Box::new(|_| None),
        }
    }
}

/// Makes the host, on the worker's runtime.
pub type MakeHost = Box<
    dyn FnOnce(Arc<dyn MessageSink>) -> Pin<Box<dyn Future<Output = Result<Hosted, String>>>>
        + Send,
>;

/// What the worker is asked to do.
enum Job {
    Run(Box<ToolRun>),
    /// A call the user asked for (`--call`): its result's A2UI messages come back.
    Call(String, Value),
    /// An `action` message of a surface that came from the server named: to its
    /// `a2ui_action` tool when it lists one (the answer's messages come back as a call's do).
    Action(String, Value),
}

/// What comes back.
pub enum Answer {
    Run(ToolDone),
    /// The messages a `--call`'s result carried and where they came from, with the tool's
    /// name; or its error.
    Call(String, Result<(Vec<Value>, Option<Provenance>), String>),
}

/// The A2UI messages of a `--call`, and where they came from, kept for the UI's thread.
#[derive(Default)]
struct Collected(Mutex<(Vec<Value>, Option<Provenance>)>);

impl Collected {
    fn take(&self) -> (Vec<Value>, Option<Provenance>) {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl MessageSink for Collected {
    fn process(&self, messages: Vec<Value>) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .0
            .extend(messages);
    }

    fn process_from(&self, messages: Vec<Value>, source: &Provenance) {
        let mut kept = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        kept.0.extend(messages);
        kept.1 = Some(source.clone());
    }

    fn has_surface(&self, _: &str) -> bool {
        false
    }
}

/// The worker thread and its channels.
pub struct ToolWorker {
    jobs: tokio::sync::mpsc::UnboundedSender<Job>,
    answers: mpsc::Receiver<Answer>,
    /// Jobs sent whose answer has not come back.
    outstanding: usize,
}

impl ToolWorker {
    /// Starts the thread and its host; fails when the host cannot be made (a server that
    /// does not start).
    pub fn start(make_host: MakeHost) -> Result<ToolWorker, String> {
        let (jobs, mut incoming) = tokio::sync::mpsc::unbounded_channel::<Job>();
        let (answer, answers) = mpsc::channel::<Answer>();
        let (ready, started) = mpsc::channel::<Result<(), String>>();
        std::thread::spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(e) => {
                    let _ = ready.send(Err(format!("cannot start a runtime: {e}")));
                    return;
                }
            };
            runtime.block_on(async move {
                let collected = Arc::new(Collected::default());
                let (host, action_server) = match make_host(collected.clone()).await {
                    Ok(hosted) => (Arc::new(hosted.host), hosted.action_server),
                    Err(e) => {
                        let _ = ready.send(Err(e));
                        return;
                    }
                };
                let _ = ready.send(Ok(()));
                while let Some(job) = incoming.recv().await {
                    let host = host.clone();
                    let answer = answer.clone();
                    match job {
                        Job::Run(run) => {
                            tokio::spawn(async move {
                                let _ = answer.send(Answer::Run(run.execute(&host).await));
                            });
                        }
                        // One at a time: their messages are told apart by order.
                        Job::Action(server, action) => {
                            let tool = ACTION_TOOL_NAME.to_owned();
                            let result = match action_server(&server) {
                                Some(client) => {
                                    let own = McpHost::new(client).with_sink(collected.clone());
                                    call(&own, &tool, action).await.map(|()| collected.take())
                                }
                                None => Err(format!("server '{server}' has no {tool} tool")),
                            };
                            let _ = answer.send(Answer::Call(tool, result));
                        }
                        Job::Call(tool, arguments) => {
                            let result = call(&host, &tool, arguments).await.map(|()| {
                                std::mem::take(
                                    &mut *collected
                                        .0
                                        .lock()
                                        .unwrap_or_else(PoisonError::into_inner),
                                )
                            });
                            let _ = answer.send(Answer::Call(tool, result));
                        }
                    }
                }
            });
        });
        match started.recv() {
            Ok(Ok(())) => Ok(ToolWorker {
                jobs,
                answers,
                outstanding: 0,
            }),
            Ok(Err(e)) => Err(e),
            Err(_) => Err("the MCP host's thread ended".into()),
        }
    }

    pub fn run(&mut self, run: ToolRun) {
        if self.jobs.send(Job::Run(Box::new(run))).is_ok() {
            self.outstanding += 1;
        }
    }

    /// Sends an action (the `action` message's body) to the server `server`'s `a2ui_action`.
    pub fn action(&mut self, server: String, action: Value) {
        if self.jobs.send(Job::Action(server, action)).is_ok() {
            self.outstanding += 1;
        }
    }

    pub fn call(&mut self, tool: String, arguments: Value) {
        if self.jobs.send(Job::Call(tool, arguments)).is_ok() {
            self.outstanding += 1;
        }
    }

    /// Whether answers are still to come.
    pub fn busy(&self) -> bool {
        self.outstanding > 0
    }

    /// The next answer: waits up to `wait` (none: only what is there).
    pub fn next(&mut self, wait: Option<Duration>) -> Option<Answer> {
        if self.outstanding == 0 {
            return None;
        }
        let answer = match wait {
            Some(wait) => self.answers.recv_timeout(wait).ok(),
            None => self.answers.try_recv().ok(),
        };
        if answer.is_some() {
            self.outstanding -= 1;
        }
        answer
    }
}

/// A call the user asked for, as a tap would make it; its arguments are data (read through a
/// binding, never evaluated).
async fn call(host: &McpHost, tool: &str, arguments: Value) -> Result<(), String> {
    let payload = Environment::new()
        .compile(&json!({"@call": "callMcpTool", "catalogId": MCP_CATALOG_ID,
            "args": {"name": tool, "arguments": {"@path": "/arguments"}}}))
        .map_err(|e| e.to_string())?;
    let model = SharedModel::new(json!({"arguments": arguments}));
    payload
        .eval_async_from(&model, &JsonPointer::root(), host, Origin::Action)
        .await
        .map(drop)
        .map_err(|e| e.to_string())
}
