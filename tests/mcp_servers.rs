//! `a2ui-mcp eval --mcp/--mcp-url` against MCP servers nobody here wrote: the official
//! filesystem server (npm, over stdio, `support::npm_server`) and a server written with the
//! official Python MCP SDK (over streamable HTTP on a loopback port,
//! `tests/python/http_server.py`, `support::python_env`), both prepared by the tests on first
//! use; and a plain Python script that misbehaves on purpose (`tests/python/misbehaving_server.py`)
//! for the bad inputs. Every case runs the CLI binary, and checks that no process it started
//! outlives it.
#![cfg(feature = "cli")]

mod support;

use serde_json::{Value, json};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};
use support::cli::{cli, stdout_json, write_json};

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A word no other process has in its command line, to find the processes of one case.
fn marker(case: &str) -> String {
    format!("a2ui-marker-{case}-{}", std::process::id())
}

/// The processes whose command line contains `marker` (Linux: /proc; elsewhere none is seen).
fn processes_with(marker: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) else {
            continue;
        };
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if cmdline.contains(marker) {
            // A zombie whose parent has not reaped it yet is not running.
            let state = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            let running = state
                .rsplit_once(") ")
                .is_none_or(|(_, rest)| !rest.starts_with('Z'));
            if running {
                found.push(cmdline);
            }
        }
    }
    found
}

/// Fails when a process of the case is still there (after a moment for signals to land).
fn assert_no_process_left(marker: &str) {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let left = processes_with(marker);
        if left.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "processes outlived the CLI: {left:?}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn quote(path: &Path) -> String {
    format!("'{}'", path.display())
}

/// The audit log's lines.
fn audit_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("the audit log")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The official filesystem server, over stdio.

/// A directory with two files and a folder, and the `--mcp` command line of the filesystem
/// server on it (with the case's marker, as an extra allowed directory).
fn filesystem_fixture(entry: &Path, case: &str) -> (PathBuf, String, String) {
    let dir = temp_dir(case);
    std::fs::write(dir.join("notes.txt"), "first\nsecond\n").unwrap();
    std::fs::write(dir.join("plan.md"), "# Plan\n").unwrap();
    std::fs::create_dir(dir.join("photos")).unwrap();
    std::fs::write(dir.join("photos").join("cat.jpg"), "").unwrap();
    let marker = marker(case);
    let extra = dir.join(&marker);
    std::fs::create_dir(&extra).unwrap();
    let command = format!("node {} {} {}", quote(entry), quote(&dir), quote(&extra));
    (dir, command, marker)
}

#[test]
fn the_text_chain_on_list_directory() {
    let Some(entry) = support::npm_server::entry() else {
        return;
    };
    let (dir, command, marker) = filesystem_fixture(&entry, "list");
    // The CLI's own files go elsewhere: the listing is of the server's directory only.
    let work = temp_dir("list-work");
    let data = write_json(&work, "data.json", &json!({"dir": dir}));
    let audit = work.join("audit.jsonl");
    let out = cli(&[
        "eval",
        "examples/payloads/fs-list.json",
        "--data",
        &data,
        "--mcp",
        &command,
        "--audit",
        audit.to_str().unwrap(),
    ]);
    let result = stdout_json(&out);
    let mut entries = result["dataModel"]["entries"]
        .as_array()
        .expect("entries")
        .clone();
    entries.sort_by_key(|e| e["name"].as_str().unwrap_or_default().to_owned());
    assert_eq!(
        Value::from(entries),
        json!([
            {"kind": "DIR", "name": marker},
            {"kind": "FILE", "name": "notes.txt"},
            {"kind": "DIR", "name": "photos"},
            {"kind": "FILE", "name": "plan.md"}
        ])
    );
    // One call, read-only, allowed from a binding, on the server that named itself.
    let lines = audit_lines(&audit);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(lines[0]["tool"], "list_directory");
    assert_eq!(lines[0]["arguments"], json!({"path": dir}));
    assert_eq!(lines[0]["server"], "secure-filesystem-server");
    assert_eq!(lines[0]["origin"], "binding");
    assert_eq!(lines[0]["decision"], "allow");
    assert_eq!(lines[0]["outcome"], "ok");
    assert!(lines[0]["durationMs"].as_f64().is_some());
    assert_no_process_left(&marker);
}

#[test]
fn the_json_chain_on_directory_tree() {
    let Some(entry) = support::npm_server::entry() else {
        return;
    };
    let (dir, command, marker) = filesystem_fixture(&entry, "tree");
    let data = write_json(&temp_dir("tree-work"), "data.json", &json!({"dir": dir}));
    let result = stdout_json(&cli(&[
        "eval",
        "examples/payloads/fs-tree.json",
        "--data",
        &data,
        "--mcp",
        &command,
    ]));
    let mut tree = result["dataModel"]["tree"]
        .as_array()
        .expect("tree")
        .clone();
    tree.sort_by_key(|e| e["name"].as_str().unwrap_or_default().to_owned());
    assert_eq!(
        Value::from(tree),
        json!([
            {"name": marker, "type": "directory", "children": 0},
            {"name": "notes.txt", "type": "file", "children": 0},
            {"name": "photos", "type": "directory", "children": 1},
            {"name": "plan.md", "type": "file", "children": 0}
        ])
    );
    assert_no_process_left(&marker);
}

#[test]
fn a_destructive_call_runs_only_when_allowed() {
    let Some(entry) = support::npm_server::entry() else {
        return;
    };
    let (dir, command, marker) = filesystem_fixture(&entry, "write");
    let target = dir.join("new.txt");
    let payload = write_json(
        &dir,
        "write.json",
        &json!({"@call": "callMcpTool", "args": {"name": "write_file",
            "arguments": {"path": target, "content": "written by a tap"},
            "targetDataPath": "/written"}}),
    );
    let audit = dir.join("audit.jsonl");
    let audit_arg = audit.to_str().unwrap();

    // A tap (user activation) on a destructive tool: no one is there to consent.
    for origin in ["action", "binding"] {
        let out = cli(&[
            "eval", &payload, "--mcp", &command, "--origin", origin, "--audit", audit_arg,
        ]);
        assert_eq!(out.status.code(), Some(1), "refused from {origin}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("MCP tool 'write_file' is not allowed")
                && stderr.contains("not read-only"),
            "{stderr}"
        );
        assert!(out.stdout.is_empty(), "nothing is printed but the error");
        assert!(!target.exists(), "a refused call changes nothing");
        let lines = audit_lines(&audit);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0]["decision"], "deny");
        assert_eq!(lines[0]["outcome"], "denied");
        assert_eq!(lines[0]["origin"], origin);
        assert!(
            lines[0]["reason"]
                .as_str()
                .unwrap()
                .contains("not read-only")
        );
    }

    // Named with --allow-tool, it runs.
    let out = cli(&[
        "eval",
        &payload,
        "--mcp",
        &command,
        "--origin",
        "action",
        "--allow-tool",
        "write_file",
        "--audit",
        audit_arg,
    ]);
    let result = stdout_json(&out);
    assert_eq!(result["dataModel"]["written"]["toolName"], "write_file");
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "written by a tap"
    );
    let lines = audit_lines(&audit);
    assert_eq!(
        (&lines[0]["decision"], &lines[0]["outcome"]),
        (&json!("allow"), &json!("ok"))
    );
    assert_no_process_left(&marker);
}

// ---------------------------------------------------------------------------------------------
// A Python SDK server over streamable HTTP.

/// The HTTP server's process: killed when the test ends, however it ends.
struct HttpServer {
    child: Child,
    url: String,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `tests/python/http_server.py` on a free loopback port and waits until it listens.
fn http_server(python: &Path) -> HttpServer {
    // The port is free now; the server takes it a moment later (another process taking it in
    // between makes the server fail to start, which the wait below reports).
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free loopback port")
        .port();
    let child = Command::new(python)
        .arg(manifest_dir().join("tests/python/http_server.py"))
        .arg(port.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the Python HTTP server starts");
    let mut server = HttpServer {
        child,
        url: format!("http://127.0.0.1:{port}/mcp"),
    };
    let address = SocketAddr::from(([127, 0, 0, 1], port));
    let deadline = Instant::now() + Duration::from_secs(60);
    while TcpStream::connect_timeout(&address, Duration::from_millis(200)).is_err() {
        if let Ok(Some(status)) = server.child.try_wait() {
            let mut stderr = String::new();
            if let Some(mut pipe) = server.child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
            }
            panic!("the Python HTTP server exited ({status}): {stderr}");
        }
        assert!(
            Instant::now() < deadline,
            "the Python HTTP server did not listen on {port} within 60 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    server
}

#[test]
fn a_python_sdk_server_over_streamable_http() {
    let Some(python) = support::python_env::interpreter() else {
        return;
    };
    let server = http_server(&python);
    let dir = temp_dir("http");

    // The renderer capabilities, in initialize and in the call's _meta.
    let caps = write_json(
        &dir,
        "caps.json",
        &json!({"@call": "callMcpTool", "args": {"name": "echo_capabilities", "targetDataPath": "/caps"}}),
    );
    let result = stdout_json(&cli(&["eval", &caps, "--mcp-url", &server.url]));
    let declared = json!({"clientCapabilities": {"v1.0": {"supportedCatalogIds": [
        a2ui_catalog_mcp::basic::BASIC_CATALOG_ID, a2ui_catalog_mcp::MCP_CATALOG_ID]}}});
    let seen = &result["dataModel"]["caps"]["json"];
    assert_eq!(seen["initialize"], declared);
    assert_eq!(seen["call"], declared);
    assert_eq!(seen["client"], "a2ui-catalog-mcp");

    // The guide's json chain on the Python server's JSON text.
    let chain = write_json(
        &dir,
        "chain.json",
        &json!({"@call": "updateDataModel", "args": {"updates": {"@call": "transformData", "args": {
            "jmespath": "{\"/count\": json.count, \"/long\": json.words[?length(@) > `3`]}",
            "data": {"@call": "callMcpTool", "args": {"name": "word_count",
                "arguments": {"text": {"@path": "/text"}}}}}}}}),
    );
    let data = write_json(
        &dir,
        "data.json",
        &json!({"text": "tap a button call a tool"}),
    );
    let result = stdout_json(&cli(&[
        "eval",
        &chain,
        "--data",
        &data,
        "--mcp-url",
        &server.url,
    ]));
    assert_eq!(result["dataModel"]["count"], 6);
    assert_eq!(
        result["dataModel"]["long"],
        json!(["button", "call", "tool"])
    );

    // A destructive tool: refused, then allowed.
    let forget = write_json(
        &dir,
        "forget.json",
        &json!({"@call": "callMcpTool", "args": {"name": "forget",
            "arguments": {"name": "Ada"}, "targetDataPath": "/forgot"}}),
    );
    let out = cli(&[
        "eval",
        &forget,
        "--mcp-url",
        &server.url,
        "--origin",
        "action",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("MCP tool 'forget' is not allowed"));
    let result = stdout_json(&cli(&[
        "eval",
        &forget,
        "--mcp-url",
        &server.url,
        "--allow-tool",
        "forget",
    ]));
    assert_eq!(result["dataModel"]["forgot"]["text"], "forgot Ada");

    // 50 MB: over the limit of one message, a clear error naming the server and the tool.
    let big = write_json(
        &dir,
        "big.json",
        &json!({"@call": "callMcpTool", "args": {"name": "big_result",
            "arguments": {"size": 50}, "targetDataPath": "/big"}}),
    );
    let out = cli(&["eval", &big, "--mcp-url", &server.url]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("MCP server `{}`", server.url))
            && stderr.contains("'big_result'")
            && stderr.contains("16 MiB"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());

    // 100 000 content blocks: within the limits, so they are read, all of them.
    let many = write_json(
        &dir,
        "many.json",
        &json!({"@call": "updateDataModel", "args": {"updates": {"@call": "transformData", "args": {
            "jmespath": "{\"/blocks\": length(toolResult.content), \"/last\": toolResult.content[-1].text}",
            "data": {"@call": "callMcpTool", "args": {"name": "many_blocks",
                "arguments": {"count": 100000}}}}}}}),
    );
    let started = Instant::now();
    let result = stdout_json(&cli(&["eval", &many, "--mcp-url", &server.url]));
    assert_eq!(result["dataModel"]["blocks"], 100_000);
    assert_eq!(result["dataModel"]["last"], "99999");
    eprintln!("100 000 blocks over HTTP: {:?}", started.elapsed());
}

#[test]
fn an_http_server_that_is_not_there_is_an_error_naming_it() {
    let port = TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let dir = temp_dir("no-http");
    let payload = write_json(
        &dir,
        "p.json",
        &json!({"@call": "callMcpTool", "args": {"name": "x"}}),
    );
    let out = cli(&["eval", &payload, "--mcp-url", &url]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with(&format!("a2ui-mcp: MCP server `{url}`: initialize failed")),
        "{stderr}"
    );
    let out = cli(&["eval", &payload, "--mcp-url", "https://example.com/mcp"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("needs TLS"));
}

// ---------------------------------------------------------------------------------------------
// Servers that misbehave, over stdio.

/// Runs `poke` (or `tool`) through the CLI against `misbehaving_server.py MODE` and returns
/// the output, with the case's marker in the server's command line; checks that no process
/// is left.
fn misbehaving(python: &Path, mode: &str, extra: &[&str]) -> (Output, String, String) {
    let poke =
        json!({"@call": "callMcpTool", "args": {"name": "poke", "targetDataPath": "/poked"}});
    misbehaving_with(python, mode, extra, &poke)
}

/// [`misbehaving`] with another payload.
fn misbehaving_with(
    python: &Path,
    mode: &str,
    extra: &[&str],
    payload: &Value,
) -> (Output, String, String) {
    let marker = marker(mode);
    let command = format!(
        "{} {} {mode} poke {marker}",
        quote(python),
        quote(&manifest_dir().join("tests/python/misbehaving_server.py"))
    );
    let dir = temp_dir(mode);
    let payload = write_json(&dir, "payload.json", payload);
    let mut args = vec!["eval", &payload, "--mcp", &command];
    args.extend_from_slice(extra);
    let out = cli(&args);
    assert_no_process_left(&marker);
    (out, command, marker)
}

/// The CLI failed with one error that names the server and says `what`, and printed nothing.
fn assert_fails(out: &Output, server: &str, what: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing else is printed");
    assert!(
        stderr.contains(&format!("MCP server `{server}`")),
        "{stderr}"
    );
    for part in what {
        assert!(stderr.contains(part), "{part:?} in {stderr}");
    }
}

#[test]
fn a_server_that_fails_to_start() {
    let Some(python) = support::python_env::interpreter() else {
        return;
    };
    let (out, command, _) = misbehaving(&python, "fail", &[]);
    assert_fails(
        &out,
        &command,
        &[
            "initialize failed",
            "exit status: 2",
            "cannot open the database",
        ],
    );

    let dir = temp_dir("spawn");
    let payload = write_json(
        &dir,
        "p.json",
        &json!({"@call": "callMcpTool", "args": {"name": "x"}}),
    );
    let out = cli(&["eval", &payload, "--mcp", "no-such-mcp-server --stdio"]);
    assert_fails(
        &out,
        "no-such-mcp-server --stdio",
        &[
            "cannot start it",
            "is `no-such-mcp-server` installed and on PATH?",
        ],
    );
    let out = cli(&["eval", &payload, "--mcp", "node 'unclosed"]);
    assert_fails(&out, "node 'unclosed", &["single quote"]);
}

#[test]
fn a_server_that_exits_mid_call() {
    let Some(python) = support::python_env::interpreter() else {
        return;
    };
    let (out, command, _) = misbehaving(&python, "exit", &[]);
    assert_fails(
        &out,
        &command,
        &[
            "MCP tool 'poke'",
            "closed the connection during tools/call of 'poke'",
            "exit status: 3",
            "crashed in the middle of a call",
        ],
    );
    // What it started before it crashed ends too.
    let marker = marker("exit-child");
    let command = server_with_a_child_in(&python, &marker, "exit");
    let dir = temp_dir("exit-child");
    let payload = write_json(
        &dir,
        "poke.json",
        &json!({"@call": "callMcpTool", "args": {"name": "poke"}}),
    );
    let out = cli(&["eval", &payload, "--mcp", &command]);
    assert_fails(&out, &command, &["exit status: 3"]);
    assert_no_process_left(&marker);
}

#[test]
fn a_server_that_never_answers() {
    let Some(python) = support::python_env::interpreter() else {
        return;
    };
    let started = Instant::now();
    let (out, command, _) = misbehaving(&python, "hang", &["--tool-timeout", "1"]);
    assert_fails(
        &out,
        &command,
        &["did not answer tools/call of 'poke' within 1 second"],
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_server_that_sends_invalid_json_rpc() {
    let Some(python) = support::python_env::interpreter() else {
        return;
    };
    // An answer that is JSON but no JSON-RPC answer: the call fails at once.
    let (out, command, _) = misbehaving(&python, "invalid", &[]);
    assert_fails(
        &out,
        &command,
        &[
            "tools/call of 'poke'",
            "not JSON-RPC",
            "neither result nor error",
        ],
    );
    // A line that is not JSON: skipped, as the MCP SDKs do, and named when the call times out.
    let (out, command, _) = misbehaving(&python, "garbage", &["--tool-timeout", "1"]);
    assert_fails(
        &out,
        &command,
        &["did not answer", "not JSON-RPC", "this is not JSON"],
    );
}

#[test]
fn results_too_large_and_with_many_blocks() {
    let Some(python) = support::python_env::interpreter() else {
        return;
    };
    let (out, command, _) = misbehaving(&python, "big", &[]);
    assert_fails(
        &out,
        &command,
        &["during tools/call of 'poke'", "more than 16 MiB"],
    );
    // 100 000 blocks are within the limits: every one is read, and their texts joined.
    let started = Instant::now();
    let (out, _, _) = misbehaving_with(
        &python,
        "many",
        &[],
        &json!({"@call": "updateDataModel", "args": {"updates": {"@call": "transformData", "args": {
        "jmespath": "{\"/blocks\": length(toolResult.content), \"/last\": toolResult.content[-1].text, \"/chars\": length(text)}",
        "data": {"@call": "callMcpTool", "args": {"name": "poke"}}}}}}),
    );
    let result = stdout_json(&out);
    assert_eq!(result["dataModel"]["blocks"], 100_000);
    assert_eq!(result["dataModel"]["last"], "99999");
    // "0\n1\n…\n99999": 488 890 digits and 99 999 newlines.
    assert_eq!(result["dataModel"]["chars"], 588_889);
    eprintln!("100 000 blocks over stdio: {:?}", started.elapsed());
}

#[test]
fn tool_names_that_collide() {
    let Some(python) = support::python_env::interpreter() else {
        return;
    };
    // One server listing a name twice: its tool list is ambiguous.
    let (out, command, _) = misbehaving(&python, "duplicate", &[]);
    assert_fails(&out, &command, &["names the tool 'poke' twice"]);

    // Two servers with the same name: the first given wins, with a warning naming both.
    let marker = marker("collide");
    let server = |n: u32| {
        format!(
            "{} {} ok poke {marker}-{n}",
            quote(&python),
            quote(&manifest_dir().join("tests/python/misbehaving_server.py"))
        )
    };
    let (first, second) = (server(1), server(2));
    let dir = temp_dir("collide");
    let payload = write_json(
        &dir,
        "poke.json",
        &json!({"@call": "callMcpTool", "args": {"name": "poke", "targetDataPath": "/poked"}}),
    );
    for (a, b) in [(&first, &second), (&second, &first)] {
        let out = cli(&["eval", &payload, "--mcp", a, "--mcp", b]);
        let result = stdout_json(&out);
        let answer = result["dataModel"]["poked"]["text"].as_str().unwrap();
        assert_eq!(
            answer,
            format!("ok from ok {}", a.rsplit_once(" ok ").unwrap().1)
        );
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!(
                "warning: the tool 'poke' is offered by `{a}` and by `{b}`: calls go to `{a}`"
            )),
            "{stderr}"
        );
    }
    // The order is the command line's, across --mcp and --mcp-url.
    let out = cli(&[
        "eval",
        &payload,
        "--mcp-url",
        "http://127.0.0.1:9/mcp",
        "--mcp",
        &first,
    ]);
    assert_fails(&out, "http://127.0.0.1:9/mcp", &["initialize failed"]);
    assert_no_process_left(&marker);
}

// ---------------------------------------------------------------------------------------------
// The library's connections: no process outlives them.

/// A stdio server that starts a child of its own first (as `npx` starts node), both with the
/// marker in their command lines.
fn server_with_a_child(python: &Path, marker: &str) -> String {
    server_with_a_child_in(python, marker, "ok")
}

fn server_with_a_child_in(python: &Path, marker: &str, mode: &str) -> String {
    let script = manifest_dir().join("tests/python/misbehaving_server.py");
    format!(
        "sh -c '\"$0\" -c \"import time; time.sleep(300)\" {marker}-child & exec \"$0\" \"$1\" {mode} poke {marker}' {} {}",
        quote(python),
        quote(&script)
    )
}

/// Waits until `n` processes with the marker run (the server and its child).
fn wait_for_processes(marker: &str, n: usize) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while processes_with(marker).len() < n {
        assert!(Instant::now() < deadline, "{:?}", processes_with(marker));
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn connections_end_every_process_they_started() {
    use a2ui_catalog_mcp::connect::{ConnectOptions, Connections, ServerSpec};
    let Some(python) = support::python_env::interpreter() else {
        return;
    };
    if std::fs::read_dir("/proc").is_err() {
        return; // The processes cannot be seen here.
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let options = ConnectOptions::new();

    // Dropped without a close: the process group is killed at once.
    let dropped = marker("dropped");
    let spec = ServerSpec::command(server_with_a_child(&python, &dropped));
    let connections = runtime
        .block_on(Connections::connect(std::slice::from_ref(&spec), &options))
        .expect("connects");
    let server = connections.server_for("poke").expect("routed");
    assert_eq!(server.label(), spec.label());
    let named = connections.server_named("misbehaving-ok").expect("named");
    assert!(std::sync::Arc::ptr_eq(server, named));
    assert!(connections.server_named("another").is_none());
    assert!(server.process_id().is_some());
    wait_for_processes(&dropped, 2);
    drop(connections);
    assert_no_process_left(&dropped);

    // Closed: the server's input ends, and what it left behind is killed.
    let closed = marker("closed");
    let spec = ServerSpec::command(server_with_a_child(&python, &closed));
    runtime.block_on(async {
        let connections = Connections::connect(std::slice::from_ref(&spec), &options)
            .await
            .expect("connects");
        wait_for_processes(&closed, 2);
        connections.close().await;
    });
    assert_no_process_left(&closed);

    // A server that fails ends the ones already started.
    let partial = marker("partial");
    let good = ServerSpec::command(server_with_a_child(&python, &partial));
    let bad = ServerSpec::command(format!(
        "{} {} fail",
        quote(&python),
        quote(&manifest_dir().join("tests/python/misbehaving_server.py"))
    ));
    let err = runtime
        .block_on(Connections::connect(&[good, bad.clone()], &options))
        .expect_err("the second server fails");
    assert_eq!(err.server(), bad.label());
    assert_no_process_left(&partial);
}

/// A fresh directory for one case.
fn temp_dir(name: &str) -> PathBuf {
    support::cli::temp_dir("mcp-servers", name)
}
