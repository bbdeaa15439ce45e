//! The official filesystem MCP server (`@modelcontextprotocol/server-filesystem`, npm), for
//! `tests/mcp_servers.rs`: installed once, at a pinned version, into `<target dir>/npm-mcp`,
//! and run with `node` (no network once installed).
//!
//! - `A2UI_SKIP_NODE=1`: skip the tests that need it, as the Node differential tests do.
//! - `A2UI_SKIP_MCP_SERVERS=1`: skip them when it cannot be installed (no npm, or the package
//!   registry cannot be reached), with a notice, instead of failing.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The package and the version the tests were written against.
pub const PACKAGE: &str = "@modelcontextprotocol/server-filesystem";
pub const VERSION: &str = "2026.8.31";
/// Set (to anything but `0` or nothing) to skip when it cannot be installed.
pub const SKIP_VAR: &str = "A2UI_SKIP_MCP_SERVERS";
const SKIP_NODE_VAR: &str = "A2UI_SKIP_NODE";

const HELP: &str = "To fix it: install Node.js 20 or later with npm, with access to the npm \
     registry (or an .npmrc pointing at a mirror); or set A2UI_SKIP_MCP_SERVERS=1 (or \
     A2UI_SKIP_NODE=1) to skip the tests against it.";

fn set(var: &str) -> bool {
    std::env::var_os(var).is_some_and(|v| !v.is_empty() && v != "0")
}

fn notice(message: &str) {
    let _ = writeln!(std::io::stderr(), "\nmcp_servers: {message}");
}

/// The server's entry point (`node ENTRY DIR…` runs it), installed on first use; `None` when
/// the tests are skipped. Panics with what went wrong and how to fix it.
pub fn entry() -> Option<PathBuf> {
    static ENTRY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    static SKIP_NOTICE: OnceLock<()> = OnceLock::new();
    if set(SKIP_NODE_VAR) {
        SKIP_NOTICE.get_or_init(|| {
            notice(&format!(
                "SKIPPED: the filesystem server's tests ({SKIP_NODE_VAR} is set)"
            ))
        });
        return None;
    }
    match ENTRY.get_or_init(install) {
        Ok(entry) => Some(entry.clone()),
        Err(why) if set(SKIP_VAR) => {
            SKIP_NOTICE.get_or_init(|| {
                notice(&format!(
                    "SKIPPED: the filesystem server ({SKIP_VAR} is set): {why}"
                ))
            });
            None
        }
        Err(why) => panic!("{why}\n{HELP}"),
    }
}

fn target_dir() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).to_path_buf()
}

fn entry_in(prefix: &Path) -> PathBuf {
    prefix
        .join("node_modules")
        .join(PACKAGE)
        .join("dist")
        .join("index.js")
}

fn install() -> Result<PathBuf, String> {
    let prefix = target_dir().join("npm-mcp");
    let stamp = prefix.join("a2ui-installed.txt");
    let wanted = format!("{PACKAGE}@{VERSION}");
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(wanted.as_str())
        && entry_in(&prefix).is_file()
    {
        return Ok(entry_in(&prefix));
    }
    notice(&format!(
        "installing {wanted} into {} with npm, once",
        prefix.display()
    ));
    // A fresh directory, moved into place only when whole: an interrupted run leaves nothing
    // half-installed behind.
    let fresh = prefix.with_extension(format!("tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    std::fs::create_dir_all(&fresh)
        .map_err(|e| format!("cannot create {}: {e}", fresh.display()))?;
    let out = Command::new("npm")
        .args([
            "install",
            "--no-audit",
            "--no-fund",
            "--no-save",
            "--silent",
            "--prefix",
        ])
        .arg(&fresh)
        .arg(&wanted)
        .output()
        .map_err(|e| format!("cannot run npm ({e})"))?;
    if !out.status.success() || !entry_in(&fresh).is_file() {
        let _ = std::fs::remove_dir_all(&fresh);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(6).collect();
        return Err(format!(
            "npm could not install {wanted} (is the registry reachable?): {}",
            tail.into_iter().rev().collect::<Vec<_>>().join(" | ")
        ));
    }
    std::fs::write(fresh.join("a2ui-installed.txt"), &wanted)
        .map_err(|e| format!("cannot write into {}: {e}", fresh.display()))?;
    let _ = std::fs::remove_dir_all(&prefix);
    if std::fs::rename(&fresh, &prefix).is_err() {
        let _ = std::fs::remove_dir_all(&fresh);
    }
    if entry_in(&prefix).is_file() {
        Ok(entry_in(&prefix))
    } else {
        Err(format!(
            "{wanted} is not in {} after its install",
            prefix.display()
        ))
    }
}
