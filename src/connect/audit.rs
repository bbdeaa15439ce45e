//! The audit as a file of JSON lines.

use crate::mcp::{AuditEvent, AuditSink};
use std::io::Write;
use std::sync::{Mutex, PoisonError};

/// An [`AuditSink`] that writes each event as one line of JSON ([`AuditEvent::to_json`]) and
/// flushes it, so that the log is whole whenever the host stops. A write that fails is kept
/// ([`take_error`](JsonLinesAudit::take_error)) and the next events are still tried.
///
/// ```
/// use a2ui_catalog_mcp::connect::JsonLinesAudit;
/// use a2ui_catalog_mcp::mcp::{AuditEvent, McpHost};
/// use std::sync::Arc;
/// # fn client() -> Arc<dyn a2ui_catalog_mcp::mcp::ToolClient> { unimplemented!() }
/// # fn _doc() -> std::io::Result<()> {
/// let audit = Arc::new(JsonLinesAudit::new(std::fs::File::create("calls.jsonl")?));
/// let log = audit.clone();
/// let host = McpHost::new(client()).with_audit(move |e: &AuditEvent| log.record_event(e));
/// // … evaluate …
/// if let Some(e) = audit.take_error() {
///     eprintln!("the audit log is incomplete: {e}");
/// }
/// # Ok(()) }
/// ```
pub struct JsonLinesAudit {
    out: Mutex<Box<dyn Write + Send>>,
    error: Mutex<Option<std::io::Error>>,
}

impl std::fmt::Debug for JsonLinesAudit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonLinesAudit").finish_non_exhaustive()
    }
}

impl JsonLinesAudit {
    /// A log written to `out`.
    pub fn new(out: impl Write + Send + 'static) -> JsonLinesAudit {
        JsonLinesAudit {
            out: Mutex::new(Box::new(out)),
            error: Mutex::new(None),
        }
    }

    /// Writes one event.
    pub fn record_event(&self, event: &AuditEvent) {
        let mut line = event.to_json().to_string();
        line.push('\n');
        let mut out = self.out.lock().unwrap_or_else(PoisonError::into_inner);
        if let Err(e) = out.write_all(line.as_bytes()).and_then(|()| out.flush()) {
            self.error
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .get_or_insert(e);
        }
    }

    /// The first write that failed, once.
    pub fn take_error(&self) -> Option<std::io::Error> {
        self.error
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

impl AuditSink for JsonLinesAudit {
    fn record(&self, event: &AuditEvent) {
        self.record_event(event);
    }
}
