//! How to connect, and how long to wait.

use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use serde_json::Value;
use std::time::Duration;

/// How long a server may take to answer one request, by default.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(30);

/// The largest message a server may send, by default: 16 MiB, rmcp's own default for one
/// stdio line and one HTTP response.
pub const DEFAULT_MAX_MESSAGE_BYTES: usize = 16 << 20;

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
    pub(super) fn client_config(&self) -> ClientConfig {
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
