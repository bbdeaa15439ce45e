//! A server started as a child process and spoken to over its standard input and output: the
//! process (in a process group of its own, so that what it starts ends with it), the rmcp
//! transport over its pipes, and what it wrote to its standard error.
//!
//! The transport is this module's own rather than rmcp's `TokioChildProcess` for three things a
//! host of other people's servers needs: a message over the size limit closes the connection
//! with that reason instead of being dropped while its caller waits for an answer that never
//! comes; an answer that is not JSON-RPC fails its request at once; and the whole process group
//! is signalled on close and on drop, without a runtime.

use super::diagnostics::Diagnostics;
use rmcp::RoleClient;
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How long a server may take to exit once its standard input is closed, and then once it is
/// asked to terminate, before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(2);
const TERM_GRACE: Duration = Duration::from_millis(500);

/// The child process, shared by the transport (which closes it) and the connection (which reads
/// its exit status and kills it when dropped).
pub(crate) struct ChildProcess {
    child: Mutex<Option<Child>>,
    /// The process group the child leads (its pid), where process groups exist.
    group: Option<i32>,
    status: Mutex<Option<ExitStatus>>,
    /// Whether the group was killed: once only, since an empty group's id may in time be
    /// another's.
    ended: std::sync::atomic::AtomicBool,
}

impl ChildProcess {
    /// The child's process id, which is its process group's.
    pub(crate) fn id(&self) -> Option<u32> {
        self.group.and_then(|g| u32::try_from(g).ok())
    }

    /// The exit status, once the child has exited (reaped here).
    pub(crate) fn exit_status(&self) -> Option<ExitStatus> {
        if let Some(status) = *self.status.lock().unwrap_or_else(PoisonError::into_inner) {
            return Some(status);
        }
        let mut child = self.child.lock().unwrap_or_else(PoisonError::into_inner);
        let status = child.as_mut()?.try_wait().ok()??;
        *self.status.lock().unwrap_or_else(PoisonError::into_inner) = Some(status);
        Some(status)
    }

    /// The exit status, waiting at most `limit` for it.
    pub(crate) async fn wait_exit(&self, limit: Duration) -> Option<ExitStatus> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            if let Some(status) = self.exit_status() {
                return Some(status);
            }
            if tokio::time::Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Signals the whole group (the child and what it started). Errors are ignored: the group
    /// may be gone already.
    fn signal_group(&self, terminate: bool) {
        #[cfg(unix)]
        if let Some(group) = self.group {
            use nix::sys::signal::{Signal, killpg};
            let signal = if terminate {
                Signal::SIGTERM
            } else {
                Signal::SIGKILL
            };
            let _ = killpg(nix::unistd::Pid::from_raw(group), signal);
        }
        if !terminate {
            let mut child = self.child.lock().unwrap_or_else(PoisonError::into_inner);
            if let Some(child) = child.as_mut() {
                let _ = child.start_kill();
            }
        }
    }

    /// The MCP way to end a stdio server: its input closed (by the caller), time to exit, then
    /// SIGTERM, then SIGKILL; the group is killed in any case, for what the server started and
    /// left behind.
    pub(crate) async fn shut_down(&self) {
        if self.wait_exit(EXIT_GRACE).await.is_none() {
            self.signal_group(true);
            if self.wait_exit(TERM_GRACE).await.is_none() {
                self.signal_group(false);
                self.wait_exit(TERM_GRACE).await;
            }
        }
        // The leader may be gone while its children still run.
        self.kill_group_once();
    }
}

impl ChildProcess {
    /// Kills the group at once, unless it was killed already. The leader may have exited on
    /// its own (a crash mid-call) while what it started still runs in the group.
    pub(crate) fn kill_group_once(&self) {
        if !self.ended.swap(true, std::sync::atomic::Ordering::SeqCst) {
            self.signal_group(false);
        }
    }
}

impl Drop for ChildProcess {
    fn drop(&mut self) {
        // Dropped without a close (an error, a panic, a host that forgot): nothing may survive
        // the connection.
        self.kill_group_once();
    }
}

/// Starts `words` (a program and its arguments) with piped standard streams, in a process group
/// of its own, and starts collecting its standard error into `diagnostics`.
pub(crate) fn spawn(
    words: &[String],
    diagnostics: &Arc<Diagnostics>,
    max_message_bytes: usize,
) -> std::io::Result<(StdioTransport, Arc<ChildProcess>)> {
    let (program, args) = words
        .split_first()
        .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "no command"))?;
    let mut command = Command::new(program);
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    command.process_group(0);
    let mut child = command.spawn()?;
    let stdin = child.stdin.take().expect("stdin is piped");
    let stdout = child.stdout.take().expect("stdout is piped");
    let stderr = child.stderr.take().expect("stderr is piped");
    let group = child.id().and_then(|id| i32::try_from(id).ok());
    let process = Arc::new(ChildProcess {
        child: Mutex::new(Some(child)),
        group,
        status: Mutex::new(None),
        ended: std::sync::atomic::AtomicBool::new(false),
    });
    tokio::spawn(collect_stderr(stderr, diagnostics.clone()));
    let transport = StdioTransport {
        read: BufReader::new(stdout),
        line: Vec::new(),
        discarding: false,
        max_message_bytes,
        write: Arc::new(tokio::sync::Mutex::new(Some(stdin))),
        process: process.clone(),
        diagnostics: diagnostics.clone(),
    };
    Ok((transport, process))
}

/// Reads the server's standard error until it closes, in chunks (a line may be endless).
async fn collect_stderr(mut stderr: tokio::process::ChildStderr, diagnostics: Arc<Diagnostics>) {
    let mut chunk = vec![0; 8192];
    loop {
        match stderr.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => diagnostics.stderr(&chunk[..n]),
        }
    }
    diagnostics.stderr_closed();
}

/// The rmcp transport over a child's pipes: one JSON-RPC message a line.
pub(crate) struct StdioTransport {
    read: BufReader<ChildStdout>,
    /// The line being read; kept across cancelled reads (rmcp polls `receive` in a `select!`).
    line: Vec<u8>,
    /// Skipping the rest of a line over the limit.
    discarding: bool,
    max_message_bytes: usize,
    write: Arc<tokio::sync::Mutex<Option<ChildStdin>>>,
    process: Arc<ChildProcess>,
    diagnostics: Arc<Diagnostics>,
}

enum Line {
    Complete,
    TooLong,
    End,
}

impl StdioTransport {
    /// Reads one line into `self.line`, never holding more than the limit. Cancel-safe: bytes
    /// are moved from the reader's buffer to `self.line` with no await in between.
    async fn read_line(&mut self) -> Line {
        loop {
            let buf = match self.read.fill_buf().await {
                Ok([]) | Err(_) => return Line::End,
                Ok(buf) => buf,
            };
            let (take, complete) = match memchr::memchr(b'\n', buf) {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            if !self.discarding && self.line.len() + take > self.max_message_bytes {
                self.discarding = true;
                self.line = Vec::new();
            }
            if !self.discarding {
                self.line.extend_from_slice(&buf[..take]);
            }
            self.read.consume(take);
            if complete {
                if std::mem::take(&mut self.discarding) {
                    return Line::TooLong;
                }
                return Line::Complete;
            }
        }
    }
}

impl Transport<RoleClient> for StdioTransport {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let write = self.write.clone();
        async move {
            let mut line = serde_json::to_vec(&item).map_err(std::io::Error::other)?;
            line.push(b'\n');
            let mut stdin = write.lock().await;
            let Some(stdin) = stdin.as_mut() else {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::NotConnected,
                    "the server's standard input is closed",
                ));
            };
            stdin.write_all(&line).await?;
            stdin.flush().await
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            match self.read_line().await {
                Line::End => return None,
                Line::TooLong => {
                    // Its answer is lost: closing now fails the request that waits for it,
                    // with this reason, instead of letting it wait for its timeout.
                    self.diagnostics.fatal(format!(
                        "it sent a message of more than {} (the limit of one message), so the \
                         connection was closed",
                        bytes(self.max_message_bytes)
                    ));
                    return None;
                }
                Line::Complete => {}
            }
            let line = std::mem::take(&mut self.line);
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<RxJsonRpcMessage<RoleClient>>(text) {
                Ok(message) => return Some(message),
                Err(e) => {
                    if let Some(answer) = self.invalid(text, &e) {
                        return Some(answer);
                    }
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        // End of input is the server's cue to exit.
        drop(self.write.lock().await.take());
        self.process.shut_down().await;
        Ok(())
    }
}

impl StdioTransport {
    /// A line that is not a JSON-RPC message: noted for the errors to come. When it carries the
    /// id of a request, it was that request's answer: it fails the request at once, as an error
    /// answer saying what was wrong.
    fn invalid(
        &self,
        text: &[u8],
        error: &serde_json::Error,
    ) -> Option<RxJsonRpcMessage<RoleClient>> {
        let start = String::from_utf8_lossy(&text[..text.len().min(120)]).into_owned();
        let why = format!("it sent a line that is not JSON-RPC ({error}): {start:?}");
        self.diagnostics.note(why.clone());
        // The answer of a request, by its id: the error below says why, as the note does.
        let id = serde_json::from_slice::<Value>(text)
            .ok()?
            .get("id")
            .filter(|id| id.is_string() || id.is_u64() || id.is_i64())?
            .clone();
        serde_json::from_value(json!({
            "jsonrpc": "2.0",
            "id": id,
            "error": {"code": -32603, "message": why}
        }))
        .ok()
    }
}

/// A byte count for people: `16 MiB`, `512 KiB`, `100 bytes`.
pub(crate) fn bytes(n: usize) -> String {
    if n >= 1 << 20 && n.is_multiple_of(1 << 20) {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n.is_multiple_of(1 << 10) {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}
