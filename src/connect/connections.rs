//! The connected servers, and the routing of tool names to them.

use super::error::ConnectError;
use super::options::ConnectOptions;
use super::server::Server;
use super::spec::ServerSpec;
use crate::mcp::{BoxFuture, ToolClient, ToolRouter};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// The connected servers, and the routing of tool names to them: give it to
/// [`McpHost::with_router`](crate::mcp::McpHost::with_router). Clones share the connections.
///
/// See the [module](crate::connect) documentation for the rules and an example.
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
    use super::super::server::seconds;
    use super::super::stdio::bytes;
    use super::*;
    use std::time::Duration;

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
