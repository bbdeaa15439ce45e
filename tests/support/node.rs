//! Node.js for the differential tests (V8's `RegExp`, `Intl`, `JSON.parse`): the reference
//! the crate's answers are compared with.
//!
//! Without Node the tests fail, saying what to do, because a run that silently skipped them
//! would look like a pass; `A2UI_SKIP_NODE=1` asks to skip them instead, with a notice on the
//! terminal (a machine without Node, such as a minimal CI image).

use std::io::Write;
use std::process::{Command, Stdio};

/// Set (to anything but `0` or nothing) to skip the tests that need Node.js.
pub const SKIP_VAR: &str = "A2UI_SKIP_NODE";

fn skip_requested() -> bool {
    std::env::var(SKIP_VAR).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Runs `script` with `node -e`, feeding it `input` on stdin, and returns its stdout; `None`
/// when the tests that need Node are skipped (`A2UI_SKIP_NODE=1`, with a notice naming `test`).
/// Panics with what to do when Node cannot be run, and when the script fails.
pub fn run(test: &str, script: &str, input: &str) -> Option<String> {
    if skip_requested() {
        eprintln!("note: {test} skipped ({SKIP_VAR} is set): it compares with Node.js");
        return None;
    }
    let mut child = match Command::new("node")
        .arg("-e")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
    {
        Ok(child) => child,
        Err(e) => panic!(
            "{test} compares with Node.js, and `node` could not be run ({e}). To fix it: install \
             Node.js 20 or later with `node` on PATH, or set {SKIP_VAR}=1 to skip the tests that \
             need it."
        ),
    };
    let mut stdin = child.stdin.take().expect("node's stdin");
    let input = input.to_owned();
    // Written from another thread: a big input would otherwise fill the pipe while node's
    // output fills the other one.
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("node's output");
    writer
        .join()
        .expect("writer thread")
        .expect("write to node");
    assert!(
        output.status.success(),
        "{test}: node failed: {}",
        output.status
    );
    Some(String::from_utf8(output.stdout).expect("node writes UTF-8"))
}
