//! What a server did besides answering, kept for its errors.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

/// How much of a server's standard error is kept for its errors (the end of it).
const STDERR_KEPT: usize = 16 << 10;

/// How many of its last lines an error shows.
const STDERR_LINES_SHOWN: usize = 12;

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
    pub(super) fn new(label: &str, echo: bool) -> Arc<Diagnostics> {
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

    pub(super) fn fatal_reason(&self) -> Option<String> {
        self.lock().fatal.clone()
    }

    pub(super) fn notes(&self) -> Vec<String> {
        self.lock().notes.clone()
    }

    /// The last lines of standard error; after a short wait for the rest when the server is
    /// ending (what a crashing server says last is what explains it).
    pub(super) async fn stderr_tail(&self, wait: bool) -> Option<String> {
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
