//! The Python environment of `tests/python_interop.rs`: an interpreter with the packages of
//! `tests/python/requirements.txt` (the official Python MCP SDK).
//!
//! Without configuration the tests make it themselves, once: a virtual environment in
//! `<target dir>/py-venv`, created with the first Python 3.10 or later on `PATH` (`python3`,
//! then `python3.13` … `python3.10`, then `python`) and filled by pip from the package index.
//! It is reused while it works and the requirements are unchanged (a copy of them is kept in
//! the environment); otherwise it is made again, in a fresh directory that replaces the old
//! one only once complete, so that an interrupted run leaves nothing half-made behind.
//!
//! - `A2UI_PYTHON=/path/to/python`: use that interpreter as it is (it must have the packages).
//! - `A2UI_SKIP_PYTHON_INTEROP=1`: when no interpreter can be had, skip the interop tests with a
//!   notice on the terminal instead of failing them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

/// An interpreter to use as it is.
pub const PYTHON_VAR: &str = "A2UI_PYTHON";
/// Set (to anything but `0` or nothing) to skip the interop tests when Python is missing.
pub const SKIP_VAR: &str = "A2UI_SKIP_PYTHON_INTEROP";
/// The oldest Python the MCP SDK supports.
const MIN_MINOR: u32 = 10;

/// What to do when no interpreter can be had.
const HELP: &str = "To fix it: install Python 3.10 or later (python3 on PATH) with access to \
     the package index (or a pip.conf / PIP_INDEX_URL pointing at a mirror); or set \
     A2UI_PYTHON to an interpreter that has the packages of tests/python/requirements.txt; or \
     set A2UI_SKIP_PYTHON_INTEROP=1 to skip the interop tests.";

/// The interpreter for the interop tests, prepared on first use (the other tests of the binary
/// wait for it); `None` when they are skipped. Panics with what went wrong and how to fix it.
pub fn interpreter() -> Option<PathBuf> {
    static PYTHON: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    static SKIP_NOTICE: OnceLock<()> = OnceLock::new();
    match PYTHON.get_or_init(prepare) {
        Ok(python) => Some(python.clone()),
        Err(why) if skip_requested() => {
            SKIP_NOTICE.get_or_init(|| {
                notice(&format!(
                    "SKIPPED: the Python interop tests ({SKIP_VAR} is set): {why}"
                ))
            });
            None
        }
        Err(why) => panic!("{why}\n{HELP}"),
    }
}

fn skip_requested() -> bool {
    std::env::var_os(SKIP_VAR).is_some_and(|v| !v.is_empty() && v != "0")
}

/// Writes straight to the terminal: the test harness captures `eprintln!`, and a skip or a long
/// setup must not pass unseen.
fn notice(message: &str) {
    let _ = writeln!(std::io::stderr(), "\npython_interop: {message}");
}

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn requirements_path() -> PathBuf {
    manifest_dir().join("tests/python/requirements.txt")
}

/// The target directory of this build (`CARGO_TARGET_TMPDIR` is `<target dir>/tmp`).
fn target_dir() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).to_path_buf()
}

fn venv_python(venv: &Path) -> PathBuf {
    if cfg!(windows) {
        venv.join("Scripts").join("python.exe")
    } else {
        venv.join("bin").join("python")
    }
}

fn prepare() -> Result<PathBuf, String> {
    if let Some(python) = std::env::var_os(PYTHON_VAR).filter(|p| !p.is_empty()) {
        let python = PathBuf::from(python);
        return match probe(&python) {
            Ok(_) => Ok(python),
            Err(why) => Err(format!("{PYTHON_VAR}={}: {why}", python.display())),
        };
    }
    let requirements = std::fs::read_to_string(requirements_path())
        .map_err(|e| format!("cannot read {}: {e}", requirements_path().display()))?;
    let venv = target_dir().join("py-venv");
    let python = venv_python(&venv);
    if stamp(&venv).as_deref() == Some(requirements.as_str()) && probe(&python).is_ok() {
        return Ok(python);
    }
    build(&venv, &requirements)?;
    probe(&python).map_err(|why| format!("the new environment {}: {why}", venv.display()))?;
    Ok(python)
}

/// The copy of the requirements the environment was made with.
fn stamp(venv: &Path) -> Option<String> {
    std::fs::read_to_string(venv.join("a2ui-requirements.txt")).ok()
}

/// Checks that the interpreter runs and has the MCP SDK; returns the SDK's version.
fn probe(python: &Path) -> Result<String, String> {
    let out = Command::new(python)
        .args([
            "-c",
            "import mcp.server.mcpserver, importlib.metadata as m; print(m.version('mcp'))",
        ])
        .output()
        .map_err(|e| format!("cannot run it ({e})"))?;
    if !out.status.success() {
        return Err(format!("it has no MCP SDK ({})", last_line(&out)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Makes the environment in a fresh directory, then moves it into place.
fn build(venv: &Path, requirements: &str) -> Result<(), String> {
    let (base, version) = base_python()?;
    let fresh = venv.with_extension(format!("tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&fresh);
    notice(&format!(
        "making the Python environment {} with {} (Python {version}) and pip, once",
        venv.display(),
        base.display()
    ));
    let out = run(Command::new(&base).arg("-m").arg("venv").arg(&fresh))?;
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(format!(
            "`{} -m venv` failed: {} (on Debian and Ubuntu the venv module is the package \
             python3-venv)",
            base.display(),
            last_line(&out)
        ));
    }
    let out = run(Command::new(venv_python(&fresh))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
        ])
        .arg(requirements_path()))?;
    if !out.status.success() {
        let _ = std::fs::remove_dir_all(&fresh);
        return Err(format!(
            "pip could not install tests/python/requirements.txt (is the package index \
             reachable?): {}",
            tail(&out, 6)
        ));
    }
    std::fs::write(fresh.join("a2ui-requirements.txt"), requirements)
        .map_err(|e| format!("cannot write into {}: {e}", fresh.display()))?;
    // Replace the old environment (a broken or outdated one) only now that the new one is whole.
    let old = venv.with_extension(format!("old-{}", std::process::id()));
    if venv.exists() {
        std::fs::rename(venv, &old)
            .map_err(|e| format!("cannot move the old {} aside: {e}", venv.display()))?;
    }
    let placed = std::fs::rename(&fresh, venv);
    let _ = std::fs::remove_dir_all(&old);
    if let Err(e) = placed {
        let _ = std::fs::remove_dir_all(&fresh);
        // Another test run may have placed its own meanwhile: the caller probes what is there.
        if !venv.exists() {
            return Err(format!(
                "cannot move the environment to {}: {e}",
                venv.display()
            ));
        }
    }
    Ok(())
}

/// The first Python 3.10 or later on `PATH`, with its version.
fn base_python() -> Result<(PathBuf, String), String> {
    let mut seen = Vec::new();
    for name in [
        "python3",
        "python3.13",
        "python3.12",
        "python3.11",
        "python3.10",
        "python",
    ] {
        let Ok(out) = Command::new(name)
            .args(["-c", "import sys; print('%d.%d' % sys.version_info[:2])"])
            .output()
        else {
            continue;
        };
        if !out.status.success() {
            continue;
        }
        let version = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        let minor = version
            .strip_prefix("3.")
            .and_then(|m| m.parse::<u32>().ok());
        if minor.is_some_and(|m| m >= MIN_MINOR) {
            return Ok((PathBuf::from(name), version));
        }
        seen.push(format!("{name} is Python {version}"));
    }
    Err(if seen.is_empty() {
        "the Python interop tests need Python 3.10 or later to install the official MCP SDK, \
         and there is no python3 on PATH"
            .to_owned()
    } else {
        format!(
            "the Python interop tests need Python 3.10 or later to install the official MCP \
             SDK; {}",
            seen.join(", ")
        )
    })
}

fn run(command: &mut Command) -> Result<Output, String> {
    command
        .output()
        .map_err(|e| format!("cannot run {:?}: {e}", command.get_program()))
}

/// The last non-empty line of the command's stderr (else stdout).
fn last_line(out: &Output) -> String {
    tail(out, 1)
}

/// The last `n` non-empty lines of the command's stderr (else stdout), joined.
fn tail(out: &Output, n: usize) -> String {
    let text = if out.stderr.iter().any(|b| !b.is_ascii_whitespace()) {
        String::from_utf8_lossy(&out.stderr)
    } else {
        String::from_utf8_lossy(&out.stdout)
    };
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    if lines.is_empty() {
        return format!("no output, {}", out.status);
    }
    lines[lines.len().saturating_sub(n)..].join(" | ")
}
