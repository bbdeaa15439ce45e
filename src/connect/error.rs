//! What went wrong with which server.

use std::fmt;

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
    pub(super) kind: ConnectErrorKind,
    pub(super) message: String,
    pub(super) stderr: Option<String>,
}

impl ConnectError {
    pub(super) fn new(
        server: &str,
        kind: ConnectErrorKind,
        message: impl Into<String>,
    ) -> ConnectError {
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
