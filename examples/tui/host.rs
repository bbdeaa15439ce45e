//! The example's MCP host: the demo servers of `examples/mcp_chains` (a "GitHub" server and a
//! search server), built with rmcp and served in this process over in-memory pipes.

#[path = "../mcp_chains/server.rs"]
#[allow(dead_code)]
mod server;

use a2ui_catalog_mcp::mcp::McpHost;
use a2ui_catalog_mcp::mcp::{ClientRouter, ToolClient};
use server::{DemoServer, Role, connect};
use std::error::Error;
use std::sync::Arc;

/// A host whose tools go to both demo servers (payloads name tools, the router finds them).
pub async fn demo_host() -> Result<McpHost, Box<dyn Error>> {
    let github = connect(DemoServer::new(Role::GitHub)).await?;
    let search = connect(DemoServer::new(Role::Search)).await?;
    let router = ClientRouter::new()
        .with_client(github as Arc<dyn ToolClient>)
        .with_client(search as Arc<dyn ToolClient>);
    Ok(McpHost::with_router(Arc::new(router)))
}
