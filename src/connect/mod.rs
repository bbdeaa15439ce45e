//! Connections to real MCP servers (feature `connect`): a server started as a child process and
//! spoken to over stdio, or one reached over streamable HTTP, through the official Rust MCP
//! SDK (rmcp) on a tokio runtime, and the [`ToolRouter`] across them that an [`McpHost`] takes.
//!
//! This is the crate's only I/O, apart from the engine, which never needs it: the CLI
//! (`a2ui-mcp eval --mcp …`) and the examples use it, and a host with its own transport does
//! not turn it on.
//!
//! - **Servers** are given as [`ServerSpec`]s: a command line (split into words as a shell
//!   splits them, [`split_command_line`], and started without a shell) or an `http://` URL.
//! - **One name, one server.** [`Connections::connect`] lists every server's tools once
//!   (`tools/list`, every page) and routes each tool name to the server that offers it. When two
//!   servers offer the same name, **the first server given wins** and
//!   [`Connections::warnings`] names both; a server that lists one name twice is an error (its
//!   tool list is ambiguous, and a policy could read the wrong annotations).
//! - **Errors name the server** ([`ConnectError`]: its command line or URL): one that cannot be
//!   started, exits, closes its connection, sends a message over
//!   [`ConnectOptions::max_message_bytes`] or an answer that is not JSON-RPC, or does not answer
//!   within [`ConnectOptions::timeout`] (default 30 s) the `initialize`, `tools/list`,
//!   `tools/call` or `resources/read` it was sent. The end of the server's standard error comes
//!   with the error.
//! - **Standard error** of a stdio server is captured (the host's own output stays clean):
//!   shown in errors, and copied to the host's standard error, each line prefixed with the
//!   server, with [`ConnectOptions::echo_stderr`].
//! - **Renderer capabilities** go in `initialize`, under `capabilities.experimental.a2ui.
//!   clientCapabilities` ([`ConnectOptions::client_capabilities`]): rmcp's typed capabilities
//!   have no member for a top-level `a2ui`, and `experimental` is where MCP puts capabilities it
//!   does not define; [`renderer_capabilities`](crate::mcp::protocol::renderer_capabilities)
//!   reads both. Send them with every call too ([`McpHost::with_meta`], at the guide's
//!   `_meta.a2ui.clientCapabilities`; [`Connections::call_meta`] builds it).
//! - **No process outlives its connection.** A stdio server runs in a process group of its own
//!   (what `npx` or a shell script starts is in it): [`Connections::close`] closes its input, lets
//!   it exit, then terminates and kills the group; dropping the connections kills the group at
//!   once.
//!
//! HTTP is plain `http://` (local and development servers): this build has no TLS.
//!
//! ```no_run
//! use a2ui_catalog_mcp::connect::{ConnectOptions, Connections, ServerSpec, Unattended};
//! use a2ui_catalog_mcp::mcp::McpHost;
//! use a2ui_catalog_mcp::{Environment, JsonPointer, SharedModel};
//! use serde_json::json;
//! use std::sync::Arc;
//!
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! let servers = [ServerSpec::command("npx -y @modelcontextprotocol/server-filesystem /tmp")];
//! let capabilities = json!({"v1.0": {"supportedCatalogIds": [a2ui_catalog_mcp::MCP_CATALOG_ID]}});
//! let options = ConnectOptions::new().with_client_capabilities(capabilities);
//! let connections = Connections::connect(&servers, &options).await?;
//! for warning in connections.warnings() {
//!     eprintln!("warning: {warning}");
//! }
//! let host = McpHost::with_router(Arc::new(connections.clone()))
//!     .with_meta(connections.call_meta(&options))
//!     .with_policy(Unattended::allowing(["write_file"]));
//! let payload = Environment::new().compile(&json!({"@call": "callMcpTool", "args": {
//!     "name": "list_directory", "arguments": {"path": "/tmp"}, "targetDataPath": "/listing"}}))?;
//! let model = SharedModel::new(json!({}));
//! payload.eval_async(&model, &JsonPointer::root(), &host).await?;
//! connections.close().await;
//! # Ok(()) }
//! ```
//!
//! [`McpHost`]: crate::mcp::McpHost
//! [`McpHost::with_meta`]: crate::mcp::McpHost::with_meta

mod audit;
mod command_line;
mod stdio;

pub use crate::mcp::Unattended;
pub use audit::JsonLinesAudit;
pub use command_line::split_command_line;

use crate::mcp::{BoxFuture, HostError, RmcpError, ToolClient, ToolRouter};
use rmcp::RoleClient;
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::{Peer, RunningService, ServiceExt};
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use stdio::ChildProcess;

/// How long a server may take to answer one request, by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The largest message a server may send, by default: 16 MiB, rmcp's own default for one
/// stdio line and one HTTP response.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 16 << 20;

/// How long closing one session may take before its process is ended anyway.
const CLOSE_LIMIT: Duration = Duration::from_secs(5);

/// How much of a server's standard error is kept for its errors (the end of it).
const STDERR_KEPT: usize = 16 << 10;
/// How many of its last lines an error shows.
const STDERR_LINES_SHOWN: usize = 12;

/// An MCP server to connect to.
///
/// ```
/// use a2ui_catalog_mcp::connect::ServerSpec;
/// let local = ServerSpec::command("python3 server.py --root 'My Files'");
/// let remote = ServerSpec::url("http://127.0.0.1:8000/mcp");
/// assert_eq!(local.to_string(), "python3 server.py --root 'My Files'");
/// assert_eq!(remote.to_string(), "http://127.0.0.1:8000/mcp");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ServerSpec {
    /// A command line (split as a shell splits words, started without a shell): the server
    /// speaks MCP over its standard input and output.
    Command(String),
    /// The URL of a streamable HTTP endpoint (`http://…`).
    Url(String),
}

impl ServerSpec {
    /// A server started from this command line.
    pub fn command(line: impl Into<String>) -> ServerSpec {
        ServerSpec::Command(line.into())
    }

    /// A server at this URL.
    pub fn url(url: impl Into<String>) -> ServerSpec {
        ServerSpec::Url(url.into())
    }

    /// How errors name the server: its command line or URL, as given.
    pub fn label(&self) -> &str {
        match self {
            ServerSpec::Command(line) => line,
            ServerSpec::Url(url) => url,
        }
    }
}

impl fmt::Display for ServerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// How to connect, and how long to wait.
///
/// ```
/// use a2ui_catalog_mcp::connect::ConnectOptions;
/// use std::time::Duration;
/// let options = ConnectOptions::new().with_timeout(Duration::from_secs(5)).with_echo_stderr(true);
/// assert_eq!(options.timeout, Duration::from_secs(5));
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ConnectOptions {
    /// How long a server may take to answer one request (`initialize`, `tools/list`, each
    /// `tools/call` and `resources/read`): [`DEFAULT_TIMEOUT`] unless set.
    pub timeout: Duration,
    /// The largest message a server may send ([`DEFAULT_MAX_MESSAGE_BYTES`] unless set): a
    /// larger one fails the request with an error that says so (and, over stdio, ends the
    /// connection, whose framing cannot skip it safely).
    pub max_message_bytes: usize,
    /// The renderer capabilities sent in `initialize` (`capabilities.experimental.a2ui.
    /// clientCapabilities`), keyed by A2UI version: `{"v1.0": {"supportedCatalogIds": […]}}`.
    pub client_capabilities: Option<Value>,
    /// Copy each stdio server's standard error to this process's standard error as it comes,
    /// each line prefixed with `[server]` (it is kept for errors either way).
    pub echo_stderr: bool,
    /// The client's name and version in `initialize` (default: this crate's).
    pub client_name: String,
    /// See [`client_name`](ConnectOptions::client_name).
    pub client_version: String,
}

impl Default for ConnectOptions {
    fn default() -> Self {
        ConnectOptions {
            timeout: DEFAULT_TIMEOUT,
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            client_capabilities: None,
            echo_stderr: false,
            client_name: env!("CARGO_PKG_NAME").to_owned(),
            client_version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }
}

impl ConnectOptions {
    /// The defaults.
    pub fn new() -> ConnectOptions {
        ConnectOptions::default()
    }

    /// See [`timeout`](ConnectOptions::timeout).
    pub fn with_timeout(mut self, timeout: Duration) -> ConnectOptions {
        self.timeout = timeout;
        self
    }

    /// See [`max_message_bytes`](ConnectOptions::max_message_bytes).
    pub fn with_max_message_bytes(mut self, max: usize) -> ConnectOptions {
        self.max_message_bytes = max;
        self
    }

    /// See [`client_capabilities`](ConnectOptions::client_capabilities).
    pub fn with_client_capabilities(mut self, capabilities: Value) -> ConnectOptions {
        self.client_capabilities = Some(capabilities);
        self
    }

    /// See [`echo_stderr`](ConnectOptions::echo_stderr).
    pub fn with_echo_stderr(mut self, echo: bool) -> ConnectOptions {
        self.echo_stderr = echo;
        self
    }

    /// The `initialize` parameters rmcp sends.
    fn client_config(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        if let Some(caps) = &self.client_capabilities {
            let mut a2ui = serde_json::Map::new();
            a2ui.insert("clientCapabilities".to_owned(), caps.clone());
            capabilities.experimental = Some([("a2ui".to_owned(), a2ui)].into_iter().collect());
        }
        ClientConfig::new(
            capabilities,
            Implementation::new(self.client_name.clone(), self.client_version.clone()),
        )
    }
}

/// What went wrong with which server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConnectErrorKind {
    /// The command line or URL cannot be used (an unclosed quote, no command, not `http://`).
    InvalidSpec,
    /// The command could not be started.
    Spawn,
    /// The server did not answer within the timeout.
    Timeout,
    /// The server exited, or closed the connection.
    Closed,
    /// The server broke the protocol: a message over the limit, an answer that is not JSON-RPC,
    /// a tool list that names a tool twice, a failed `initialize`.
    Protocol,
    /// The server answered the request with a JSON-RPC error.
    Server,
    /// The transport failed otherwise (HTTP errors, for one).
    Transport,
}

/// An error of one server, named by its command line or URL, with the end of what it wrote to
/// its standard error when it wrote anything.
///
/// ```
/// use a2ui_catalog_mcp::connect::{ConnectErrorKind, ConnectOptions, Connections, ServerSpec};
/// # let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
/// # runtime.block_on(async {
/// let spec = ServerSpec::command("no-such-mcp-server --stdio");
/// let err = Connections::connect(&[spec], &ConnectOptions::new()).await.unwrap_err();
/// assert_eq!(err.kind(), ConnectErrorKind::Spawn);
/// assert_eq!(err.server(), "no-such-mcp-server --stdio");
/// assert!(err.to_string().starts_with("MCP server `no-such-mcp-server --stdio`: cannot start it"));
/// # });
/// ```
#[derive(Debug, Clone)]
pub struct ConnectError {
    server: String,
    kind: ConnectErrorKind,
    message: String,
    stderr: Option<String>,
}

impl ConnectError {
    fn new(server: &str, kind: ConnectErrorKind, message: impl Into<String>) -> ConnectError {
        ConnectError {
            server: server.to_owned(),
            kind,
            message: message.into(),
            stderr: None,
        }
    }

    /// The server, as given (command line or URL).
    pub fn server(&self) -> &str {
        &self.server
    }

    /// What went wrong.
    pub fn kind(&self) -> ConnectErrorKind {
        self.kind
    }

    /// What went wrong, in words, without the server's name.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The last lines the server wrote to its standard error, when it wrote any.
    pub fn stderr(&self) -> Option<&str> {
        self.stderr.as_deref()
    }
}

impl fmt::Display for ConnectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MCP server `{}`: {}", self.server, self.message)?;
        if let Some(stderr) = &self.stderr {
            write!(f, "; the end of its standard error:")?;
            for line in stderr.lines() {
                write!(f, "\n    {line}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for ConnectError {}

/// What a server did besides answering: the end of its standard error, and notes on what it
/// sent that could not be used.
pub(crate) struct Diagnostics {
    label: String,
    echo: bool,
    state: Mutex<DiagnosticState>,
    stderr_done: tokio::sync::Notify,
}

#[derive(Default)]
struct DiagnosticState {
    stderr: VecDeque<u8>,
    stderr_closed: bool,
    /// Whether the next byte echoed starts a line.
    echo_line_start: bool,
    notes: Vec<String>,
    /// Why the connection was closed from this side (the server broke the protocol).
    fatal: Option<String>,
}

impl Diagnostics {
    fn new(label: &str, echo: bool) -> Arc<Diagnostics> {
        Arc::new(Diagnostics {
            label: label.to_owned(),
            echo,
            state: Mutex::new(DiagnosticState {
                echo_line_start: true,
                ..DiagnosticState::default()
            }),
            stderr_done: tokio::sync::Notify::new(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, DiagnosticState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A chunk of the server's standard error.
    pub(crate) fn stderr(&self, chunk: &[u8]) {
        let mut state = self.lock();
        state.stderr.extend(chunk);
        let excess = state.stderr.len().saturating_sub(STDERR_KEPT);
        state.stderr.drain(..excess);
        if self.echo {
            use std::io::Write;
            let mut out = Vec::with_capacity(chunk.len() + 32);
            for &b in chunk {
                if state.echo_line_start {
                    out.extend_from_slice(format!("[{}] ", self.label).as_bytes());
                }
                out.push(b);
                state.echo_line_start = b == b'\n';
            }
            let _ = std::io::stderr().lock().write_all(&out);
        }
    }

    pub(crate) fn stderr_closed(&self) {
        self.lock().stderr_closed = true;
        self.stderr_done.notify_waiters();
    }

    /// Something the server sent that could not be used (kept for the errors to come).
    pub(crate) fn note(&self, note: String) {
        let mut state = self.lock();
        if state.notes.len() < 8 {
            state.notes.push(note);
        }
    }

    /// The server broke the protocol, and the connection is being closed for it.
    pub(crate) fn fatal(&self, why: String) {
        self.lock().fatal.get_or_insert(why);
    }

    fn fatal_reason(&self) -> Option<String> {
        self.lock().fatal.clone()
    }

    fn notes(&self) -> Vec<String> {
        self.lock().notes.clone()
    }

    /// The last lines of standard error; after a short wait for the rest when the server is
    /// ending (what a crashing server says last is what explains it).
    async fn stderr_tail(&self, wait: bool) -> Option<String> {
        if wait {
            let done = self.stderr_done.notified();
            if !self.lock().stderr_closed {
                let _ = tokio::time::timeout(Duration::from_millis(300), done).await;
            }
        }
        let state = self.lock();
        let (front, back) = state.stderr.as_slices();
        let text = String::from_utf8_lossy(&[front, back].concat()).into_owned();
        let lines: Vec<&str> = text
            .lines()
            .map(str::trim_end)
            .filter(|l| !l.is_empty())
            .collect();
        if lines.is_empty() {
            return None;
        }
        Some(lines[lines.len().saturating_sub(STDERR_LINES_SHOWN)..].join("\n"))
    }
}

/// One connected server: a [`ToolClient`] whose requests time out and whose errors name it.
///
/// Get them from [`Connections::servers`].
pub struct Server {
    label: String,
    peer: Peer<RoleClient>,
    service: Mutex<Option<RunningService<RoleClient, ClientConfig>>>,
    tools: Vec<Value>,
    timeout: Duration,
    max_message_bytes: usize,
    diagnostics: Arc<Diagnostics>,
    process: Option<Arc<ChildProcess>>,
}

impl fmt::Debug for Server {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Server")
            .field("label", &self.label)
            .field("name", &ToolClient::server_name(&self.peer))
            .field("tools", &self.tools.len())
            .finish_non_exhaustive()
    }
}

impl Server {
    /// The server as given: its command line or URL.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The tools it listed when it connected (`tools/list`, every page), as JSON.
    pub fn tools(&self) -> &[Value] {
        &self.tools
    }

    /// The `serverInfo` of its `initialize` answer, as JSON.
    pub fn server_info(&self) -> Option<Value> {
        let info = self.peer.peer_info()?;
        serde_json::to_value(info.server_info.as_ref()?).ok()
    }

    /// The operating system's id of the server's process (stdio servers), which leads the
    /// process group the server runs in.
    pub fn process_id(&self) -> Option<u32> {
        self.process.as_ref()?.id()
    }

    async fn connect(spec: &ServerSpec, options: &ConnectOptions) -> Result<Server, ConnectError> {
        let label = spec.label();
        let diagnostics = Diagnostics::new(label, options.echo_stderr);
        let config = options.client_config();
        let (service, process) = match spec {
            ServerSpec::Command(line) => {
                let words = split_command_line(line)
                    .map_err(|why| ConnectError::new(label, ConnectErrorKind::InvalidSpec, why))?;
                if words.is_empty() {
                    return Err(ConnectError::new(
                        label,
                        ConnectErrorKind::InvalidSpec,
                        "the command line is empty",
                    ));
                }
                let (transport, process) =
                    stdio::spawn(&words, &diagnostics, options.max_message_bytes).map_err(|e| {
                        let hint = if e.kind() == std::io::ErrorKind::NotFound {
                            format!(" (is `{}` installed and on PATH?)", words[0])
                        } else {
                            String::new()
                        };
                        ConnectError::new(
                            label,
                            ConnectErrorKind::Spawn,
                            format!("cannot start it: {e}{hint}"),
                        )
                    })?;
                let serving = tokio::time::timeout(options.timeout, config.serve(transport)).await;
                (serving, Some(process))
            }
            ServerSpec::Url(url) => {
                let transport = http_transport(url, options)
                    .map_err(|why| ConnectError::new(label, ConnectErrorKind::InvalidSpec, why))?;
                let serving = tokio::time::timeout(options.timeout, config.serve(transport)).await;
                (serving, None)
            }
        };
        let service = match service {
            Ok(Ok(service)) => service,
            Err(_) => {
                let error = ConnectError::new(
                    label,
                    ConnectErrorKind::Timeout,
                    format!(
                        "it did not answer initialize within {}",
                        seconds(options.timeout)
                    ),
                );
                return Err(finish_error(error, &diagnostics, process.as_deref()).await);
            }
            Ok(Err(e)) => {
                let error = ConnectError::new(
                    label,
                    ConnectErrorKind::Protocol,
                    format!("initialize failed: {e}"),
                );
                return Err(finish_error(error, &diagnostics, process.as_deref()).await);
            }
        };
        let mut partial = Server {
            label: label.to_owned(),
            peer: service.peer().clone(),
            service: Mutex::new(Some(service)),
            tools: Vec::new(),
            timeout: options.timeout,
            max_message_bytes: options.max_message_bytes,
            diagnostics,
            process,
        };
        let tools = partial
            .guard("tools/list", ToolClient::list_tools(&partial.peer))
            .await
            .map_err(|e| *e)?;
        let mut seen = std::collections::HashSet::new();
        for tool in &tools {
            let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
            if !seen.insert(name) {
                return Err(ConnectError::new(
                    label,
                    ConnectErrorKind::Protocol,
                    format!(
                        "its tools/list names the tool '{name}' twice, so which definition (and \
                         which annotations) holds is ambiguous"
                    ),
                ));
            }
        }
        partial.tools = tools;
        Ok(partial)
    }

    /// Runs one request under the timeout; its errors become [`ConnectError`]s naming the server.
    async fn guard<T>(
        &self,
        what: &str,
        request: BoxFuture<'_, Result<T, HostError>>,
    ) -> Result<T, Box<ConnectError>> {
        let error = match tokio::time::timeout(self.timeout, request).await {
            Ok(Ok(value)) => return Ok(value),
            Err(_) => ConnectError::new(
                &self.label,
                ConnectErrorKind::Timeout,
                format!("it did not answer {what} within {}", seconds(self.timeout)),
            ),
            Ok(Err(e)) => {
                let rmcp = e.downcast_ref::<RmcpError>();
                let closed = rmcp.is_some_and(RmcpError::is_transport_closed)
                    || self.peer.is_transport_closed();
                let notes = self.diagnostics.notes();
                let (kind, message) = match rmcp {
                    _ if closed => match self.diagnostics.fatal_reason() {
                        Some(why) => (ConnectErrorKind::Protocol, format!("during {what}, {why}")),
                        None if self.process.is_none() => (
                            ConnectErrorKind::Closed,
                            // rmcp's HTTP client ends the session on an SSE event over the
                            // limit without saying so to the caller.
                            format!(
                                "the connection closed during {what} (the server ended the \
                                 session, or sent a message over the limit of {})",
                                stdio::bytes(self.max_message_bytes)
                            ),
                        ),
                        None => (
                            ConnectErrorKind::Closed,
                            format!("it closed the connection during {what}"),
                        ),
                    },
                    // An answer of the server's that was not JSON-RPC (see stdio.rs).
                    Some(RmcpError::Server { message, .. }) if notes.contains(message) => {
                        (ConnectErrorKind::Protocol, format!("{what}: {message}"))
                    }
                    Some(RmcpError::Server { .. }) => {
                        (ConnectErrorKind::Server, format!("{what}: {e}"))
                    }
                    _ => (ConnectErrorKind::Transport, format!("{what}: {e}")),
                };
                ConnectError::new(&self.label, kind, message)
            }
        };
        Err(Box::new(
            finish_error(error, &self.diagnostics, self.process.as_deref()).await,
        ))
    }

    /// Ends the session and the server's process (see [`Connections::close`]).
    async fn close(&self) {
        let service = self
            .service
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(mut service) = service {
            // The transport's close ends a stdio server (three seconds at most); an HTTP
            // session's end is a request the server may not answer.
            let _ = service.close_with_timeout(CLOSE_LIMIT).await;
        }
        // Whatever the transport's close did (it may not have run: a session that ended
        // earlier, a close that timed out), the process ends here.
        if let Some(process) = &self.process {
            process.shut_down().await;
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // The transport, which shares the process, lives in rmcp's task until the runtime runs
        // it again (or never, when the runtime is gone): the process must not wait for that.
        if let Some(process) = &self.process {
            process.kill_group_once();
        }
    }
}

/// Adds what the server's process and standard error say to an error.
async fn finish_error(
    mut error: ConnectError,
    diagnostics: &Diagnostics,
    process: Option<&ChildProcess>,
) -> ConnectError {
    let ending = matches!(
        error.kind,
        ConnectErrorKind::Closed | ConnectErrorKind::Protocol
    );
    // A connection closed from this side ends the server: its exit says nothing then.
    let closed_here = diagnostics.fatal_reason().is_some();
    if let Some(process) = process.filter(|_| !closed_here) {
        let wait = if ending {
            Duration::from_millis(300)
        } else {
            Duration::ZERO
        };
        if let Some(status) = process.wait_exit(wait).await {
            error.kind = ConnectErrorKind::Closed;
            error.message.push_str(&format!(" (it exited: {status})"));
        }
    }
    for note in diagnostics.notes() {
        if error.message.contains(&note) {
            continue;
        }
        error.message.push_str("; ");
        error.message.push_str(&note);
    }
    error.stderr = diagnostics.stderr_tail(ending).await;
    error
}

fn seconds(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s == 1.0 {
        "1 second".to_owned()
    } else {
        format!("{s} seconds")
    }
}

fn http_transport(
    url: &str,
    options: &ConnectOptions,
) -> Result<impl rmcp::transport::Transport<RoleClient> + 'static, String> {
    use rmcp::transport::StreamableHttpClientTransport;
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    if url.starts_with("https://") {
        return Err(
            "https:// needs TLS, which this build does not include: use an http:// \
                    endpoint (a local server, or a local proxy)"
                .to_owned(),
        );
    }
    if !url.starts_with("http://") || url.len() == "http://".len() {
        return Err("the URL must start with http://".to_owned());
    }
    let mut config = StreamableHttpClientTransportConfig::with_uri(url.to_owned());
    config.max_json_response_size = options.max_message_bytes;
    config.max_sse_event_size = options.max_message_bytes;
    Ok(StreamableHttpClientTransport::from_config(config))
}

impl ToolClient for Server {
    fn call_tool<'a>(
        &'a self,
        name: &'a str,
        arguments: &'a Value,
        meta: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<Value, HostError>> {
        Box::pin(async move {
            let request = ToolClient::call_tool(&self.peer, name, arguments, meta);
            Ok(self
                .guard(&format!("tools/call of '{name}'"), request)
                .await?)
        })
    }

    fn read_resource<'a>(&'a self, uri: &'a str) -> BoxFuture<'a, Result<Value, HostError>> {
        Box::pin(async move {
            let request = ToolClient::read_resource(&self.peer, uri);
            Ok(self
                .guard(&format!("resources/read of '{uri}'"), request)
                .await?)
        })
    }

    /// The list it gave when it connected.
    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<Value>, HostError>> {
        let tools = self.tools.clone();
        Box::pin(async move { Ok(tools) })
    }

    fn server_name(&self) -> Option<String> {
        ToolClient::server_name(&self.peer)
    }
}

/// The connected servers, and the routing of tool names to them: give it to
/// [`McpHost::with_router`](crate::mcp::McpHost::with_router). Clones share the connections.
///
/// See the [module](self) documentation for the rules and an example.
#[derive(Clone, Default)]
pub struct Connections {
    servers: Vec<Arc<Server>>,
    /// Tool name → (server index, definition), the first server given winning.
    index: Arc<HashMap<String, (usize, Value)>>,
    warnings: Arc<Vec<String>>,
}

impl fmt::Debug for Connections {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connections")
            .field("servers", &self.servers)
            .field("tools", &self.index.len())
            .finish_non_exhaustive()
    }
}

impl Connections {
    /// Connects to every server (all at once), initializes each session and lists its tools.
    /// Fails with the first server's error, in the order given; the servers already started
    /// are then ended.
    pub async fn connect(
        specs: &[ServerSpec],
        options: &ConnectOptions,
    ) -> Result<Connections, ConnectError> {
        let mut tasks = tokio::task::JoinSet::new();
        for (i, spec) in specs.iter().enumerate() {
            let (spec, options) = (spec.clone(), options.clone());
            tasks.spawn(async move { (i, Server::connect(&spec, &options).await) });
        }
        let mut results: Vec<Option<Result<Server, ConnectError>>> =
            (0..specs.len()).map(|_| None).collect();
        while let Some(joined) = tasks.join_next().await {
            match joined {
                Ok((i, result)) => results[i] = Some(result),
                Err(e) => std::panic::resume_unwind(e.into_panic()),
            }
        }
        let mut servers = Vec::with_capacity(specs.len());
        let mut first_error = None;
        for result in results.into_iter().flatten() {
            match result {
                Ok(server) => servers.push(Arc::new(server)),
                Err(e) if first_error.is_none() => first_error = Some(e),
                Err(_) => {}
            }
        }
        if let Some(error) = first_error {
            for server in &servers {
                server.close().await;
            }
            return Err(error);
        }
        Ok(Connections::route(servers))
    }

    fn route(servers: Vec<Arc<Server>>) -> Connections {
        let mut index: HashMap<String, (usize, Value)> = HashMap::new();
        let mut warnings = Vec::new();
        for (i, server) in servers.iter().enumerate() {
            for tool in &server.tools {
                let Some(name) = tool.get("name").and_then(Value::as_str) else {
                    continue;
                };
                match index.get(name) {
                    Some((first, _)) => warnings.push(format!(
                        "the tool '{name}' is offered by `{}` and by `{}`: calls go to `{}`, the \
                         first given",
                        servers[*first].label, server.label, servers[*first].label
                    )),
                    None => {
                        index.insert(name.to_owned(), (i, tool.clone()));
                    }
                }
            }
        }
        Connections {
            servers,
            index: Arc::new(index),
            warnings: Arc::new(warnings),
        }
    }

    /// The servers, in the order given.
    pub fn servers(&self) -> &[Arc<Server>] {
        &self.servers
    }

    /// What the host should tell its user: one line per tool name two servers share.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The server a tool goes to, when one offers it.
    pub fn server_for(&self, tool: &str) -> Option<&Arc<Server>> {
        self.index.get(tool).map(|(i, _)| &self.servers[*i])
    }

    /// The server that named itself `name` in its `initialize` answer (`serverInfo.name`, as
    /// [`Provenance::server`](crate::mcp::Provenance) and audit events name it): where a
    /// surface's `a2ui_action` goes, whichever server a shared tool name is routed to.
    pub fn server_named(&self, name: &str) -> Option<&Arc<Server>> {
        self.servers
            .iter()
            .find(|s| ToolClient::server_name(&***s).as_deref() == Some(name))
    }

    /// The `_meta` to send with every call ([`McpHost::with_meta`](crate::mcp::McpHost::with_meta)):
    /// `{"a2ui": {"clientCapabilities": …}}` from the options, or `null` without capabilities.
    pub fn call_meta(&self, options: &ConnectOptions) -> Value {
        match &options.client_capabilities {
            Some(caps) => json!({"a2ui": {"clientCapabilities": caps}}),
            None => Value::Null,
        }
    }

    /// Ends every session and every server process, all at once: a stdio server's input is
    /// closed, it has two seconds to exit, then it is terminated, then its process group is
    /// killed. Calls still pending fail. Clones see the servers closed.
    pub async fn close(&self) {
        let mut tasks = tokio::task::JoinSet::new();
        for server in &self.servers {
            let server = server.clone();
            tasks.spawn(async move { server.close().await });
        }
        while tasks.join_next().await.is_some() {}
    }
}

impl ToolRouter for Connections {
    fn client_for<'a>(&'a self, tool: &'a str) -> BoxFuture<'a, Option<Arc<dyn ToolClient>>> {
        let client = self
            .server_for(tool)
            .map(|s| s.clone() as Arc<dyn ToolClient>);
        Box::pin(std::future::ready(client))
    }

    fn tool_definition<'a>(&'a self, tool: &'a str) -> BoxFuture<'a, Option<Value>> {
        let definition = self.index.get(tool).map(|(_, def)| def.clone());
        Box::pin(std::future::ready(definition))
    }
}

#[cfg(test)]
mod tests {
    use super::stdio::bytes;
    use super::*;

    #[test]
    fn capabilities_go_under_experimental_a2ui() {
        let caps = json!({"v1.0": {"supportedCatalogIds": ["c"]}});
        let options = ConnectOptions::new().with_client_capabilities(caps.clone());
        let params = serde_json::to_value(options.client_config()).unwrap();
        assert_eq!(
            params["capabilities"]["experimental"]["a2ui"]["clientCapabilities"],
            caps
        );
        let read = crate::mcp::protocol::renderer_capabilities(&params).expect("readable");
        assert_eq!(Value::Object(read.as_map().clone()), caps);
        assert_eq!(
            Connections::default().call_meta(&options),
            json!({"a2ui": {"clientCapabilities": caps}})
        );
    }

    #[test]
    fn sizes_and_durations_read_well() {
        assert_eq!(bytes(16 << 20), "16 MiB");
        assert_eq!(bytes(2048), "2 KiB");
        assert_eq!(bytes(1000), "1000 bytes");
        assert_eq!(seconds(Duration::from_secs(1)), "1 second");
        assert_eq!(seconds(Duration::from_millis(2500)), "2.5 seconds");
    }
}
