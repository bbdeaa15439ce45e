//! Which server to connect to: a command line or a URL.

use std::fmt;

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
