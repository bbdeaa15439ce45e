//! One connected server, a tool client whose requests time out and whose errors name it.

use super::command_line::split_command_line;
use super::diagnostics::Diagnostics;
use super::error::{ConnectError, ConnectErrorKind};
use super::options::ConnectOptions;
use super::spec::ServerSpec;
use super::stdio::{self, ChildProcess};
use crate::mcp::{BoxFuture, HostError, RmcpError, ToolClient};
use rmcp::RoleClient;
use rmcp::model::ClientConfig;
use rmcp::service::{Peer, RunningService, ServiceExt};
use serde_json::Value;
use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// How long closing one session may take before its process is ended anyway.
const CLOSE_LIMIT: Duration = Duration::from_secs(5);

/// One connected server: a [`ToolClient`] whose requests time out and whose errors name it.
///
/// Get them from [`Connections::servers`](crate::connect::Connections::servers).
pub struct Server {
    pub(super) label: String,
    peer: Peer<RoleClient>,
    service: Mutex<Option<RunningService<RoleClient, ClientConfig>>>,
    pub(super) tools: Vec<Value>,
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

    pub(super) async fn connect(
        spec: &ServerSpec,
        options: &ConnectOptions,
    ) -> Result<Server, ConnectError> {
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
    pub(super) async fn close(&self) {
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

pub(super) fn seconds(d: Duration) -> String {
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
