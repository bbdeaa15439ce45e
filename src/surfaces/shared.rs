//! A processor shared between threads, as the MCP host's message sink: [`SharedProcessor`](crate::surfaces::SharedProcessor).

use super::processor::*;
use super::*;
use crate::error::Error;
use crate::origin::Provenance;
use serde_json::Value;

/// A processor shared with an [`McpHost`](crate::mcp::McpHost) as its
/// [`MessageSink`](crate::mcp::MessageSink): the A2UI messages a tool returns are processed as they
/// arrive, each atomic, the refused ones kept for the host to read
/// ([`take_errors`](SharedProcessor::take_errors)). A `callRendererFunction` or an
/// `agentFunctionResponse` among them is refused, not taken: a tool is not the agent.
///
/// ```
/// use a2ui_catalog_mcp::mcp::MessageSink;
/// use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, SharedProcessor};
/// use serde_json::json;
/// let shared = SharedProcessor::new(Processor::new(ProcessorOptions::default().with_accept_unregistered_catalogs(true)));
/// shared.process(vec![json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c"}}), json!({})]);
/// assert!(shared.has_surface("s"));
/// assert_eq!(shared.take_errors().len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct SharedProcessor {
    pub(super) inner: std::sync::Arc<std::sync::Mutex<(Processor, Vec<Error>)>>,
}

impl SharedProcessor {
    /// Shares `processor`.
    pub fn new(processor: Processor) -> SharedProcessor {
        SharedProcessor {
            inner: std::sync::Arc::new(std::sync::Mutex::new((processor, Vec::new()))),
        }
    }

    /// Runs `f` on the processor (a poisoned lock is taken over: the processor's state is
    /// consistent between messages, since each applies atomically).
    pub fn with<R>(&self, f: impl FnOnce(&mut Processor) -> R) -> R {
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut guard.0)
    }

    /// The errors of the messages refused since the last call.
    pub fn take_errors(&self) -> Vec<Error> {
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        std::mem::take(&mut guard.1)
    }
}

impl SharedProcessor {
    pub(super) fn process_all(&self, messages: &[Value], source: Option<&Provenance>) {
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let (processor, errors) = &mut *guard;
        for message in messages {
            if let Some(key) = rpc::agent_call_key(message) {
                errors.push(processor.refuse_function_call(key));
                continue;
            }
            match processor.process(message) {
                Ok(Applied::SurfaceCreated(id)) => {
                    if let (Some(source), Some(surface)) = (source, processor.surface_mut(&id)) {
                        surface.set_source(source.clone());
                    }
                }
                Ok(_) => {}
                Err(e) => errors.push(e),
            }
        }
    }
}

impl crate::mcp::MessageSink for SharedProcessor {
    fn process(&self, messages: Vec<Value>) {
        self.process_all(&messages, None);
    }

    /// Processes the messages a tool returned; the surfaces they create remember the tool and
    /// its server ([`Surface::source`](crate::surfaces::Surface::source)).
    fn process_from(&self, messages: Vec<Value>, source: &Provenance) {
        self.process_all(&messages, Some(source));
    }

    fn has_surface(&self, surface_id: &str) -> bool {
        self.with(|p| p.surface(surface_id).is_some())
    }
}
