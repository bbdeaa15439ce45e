//! `a2ui-mcp`: compile, evaluate and test A2UI payloads against the MCP catalog from the
//! command line (fixtures.md, "The command-line tool").

use a2ui_catalog_mcp::fixtures::{self, FIXTURE_MAX_DEPTH};
use a2ui_catalog_mcp::model::SharedModel;
use a2ui_catalog_mcp::regex::Pattern;
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{Environment, Error, ErrorCode, JsonPointer, Payload, Phase};
use clap::{Parser, Subcommand};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

// The CLI's timings (`eval --repeat`) should measure the crate, not the system allocator's
// heuristics. With glibc's malloc, a chain over a multi-megabyte tool text frees its memory
// back to the kernel after each run (heap trimming, mmap thresholds) and pays page faults to
// get it back in the next: measured at 10 000 search results, 5.9 ms per run against 2.75 ms
// with trimming turned off (GLIBC_TUNABLES), which is what the in-process criterion benchmark
// shows. mimalloc (well kept, Microsoft's, small) keeps its pages, so the CLI reports what a
// long-running renderer sees. The library itself does not choose an allocator: hosts do.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "a2ui-mcp",
    version,
    about = "Compile, evaluate and test A2UI payloads for the MCP catalog"
)]
struct Cli {
    /// Print errors as JSON instead of text.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile a payload and report every problem with its location (exit 1 if any).
    Check {
        /// The payload file (JSON).
        payload: PathBuf,
    },
    /// Evaluate a payload and print {"value", "dataModel", "messages"}.
    Eval {
        /// The payload file (JSON).
        payload: PathBuf,
        /// The data model file (JSON); default `{}`.
        #[arg(long)]
        data: Option<PathBuf>,
        /// The data context, a JSON Pointer; default the root.
        #[arg(long)]
        context: Option<String>,
        /// A scripted MCP server (the fixtures' `server` object) for `callMcpTool`.
        #[arg(long)]
        server: Option<PathBuf>,
        /// Compile once, evaluate N times on fresh copies of the data, and report timings.
        #[arg(long, value_name = "N")]
        repeat: Option<usize>,
    },
    /// Check patterns against the A2UI regex dialect and match them: JSON lines
    /// `{"pattern", "inputs"}` on standard input, one JSON line out per line in.
    Regex {
        /// Read JSON lines from standard input (the only mode).
        #[arg(long, required = true)]
        batch: bool,
    },
    /// Run fixture files or folders; end with "N passed, M failed" (exit 1 if any failed).
    Fixtures {
        /// Fixture files or folders of them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
}

/// `println!` that ends the program quietly (status 0) when standard output is a pipe whose
/// reader has gone (`a2ui-mcp eval … | head`): what the reader wanted was written. Any other
/// write error is reported, status 1. `println!` would panic on both.
macro_rules! out {
    ($($arg:tt)*) => {
        write_stdout(format_args!($($arg)*))
    };
}

fn write_stdout(args: std::fmt::Arguments<'_>) {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    if let Err(e) = stdout
        .write_fmt(args)
        .and_then(|()| stdout.write_all(b"\n"))
    {
        exit_on_write_error(&e);
    }
}

fn exit_on_write_error(e: &std::io::Error) -> ! {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
    eprintln!("a2ui-mcp: cannot write to standard output: {e}");
    std::process::exit(1);
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Check { payload } => check(&payload, cli.json),
        Command::Eval {
            payload,
            data,
            context,
            server,
            repeat,
        } => eval(
            &payload,
            data.as_deref(),
            context.as_deref(),
            server.as_deref(),
            repeat,
        ),
        Command::Regex { batch: _ } => regex_batch(),
        Command::Fixtures { paths } => run_fixtures(&paths),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            print_error(&err, cli.json);
            ExitCode::FAILURE
        }
    }
}

fn read_json(path: &Path, max_depth: usize) -> Result<Value, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        Error::new(
            ErrorCode::ValidationFailed,
            format!("cannot read {}: {e}", path.display()),
        )
    })?;
    a2ui_catalog_mcp::json::from_str_limited(&text, max_depth)
        .map_err(|e| Error::new(e.code(), format!("{}: {}", path.display(), e.message())))
}

fn error_json(err: &Error) -> Value {
    let phase = match err.phase() {
        Phase::Compile => "compile",
        Phase::Eval => "eval",
    };
    json!({
        "code": err.code().as_str(),
        "function": err.function(),
        "location": err.location(),
        "message": err.message(),
        "phase": phase,
    })
}

fn print_error(err: &Error, as_json: bool) {
    if as_json {
        let errors: Vec<Value> = err.problems().map(error_json).collect();
        out!("{}", json!({"ok": false, "errors": errors}));
    } else {
        eprint!("{err:#}");
    }
}

fn compile(env: &Environment, path: &Path) -> Result<Payload, Error> {
    // One level more than the limit is read, so that the compiler reports the depth problem
    // with its location.
    let payload = read_json(path, env.limits().max_depth + 1)?;
    env.compile(&payload)
}

fn check(path: &Path, as_json: bool) -> Result<ExitCode, Error> {
    compile(&Environment::new(), path)?;
    if as_json {
        out!("{}", json!({"ok": true, "errors": []}));
    } else {
        out!("{}: no problems", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

fn eval(
    path: &Path,
    data: Option<&Path>,
    context: Option<&str>,
    server: Option<&Path>,
    repeat: Option<usize>,
) -> Result<ExitCode, Error> {
    let env = Environment::new();
    let context = context.map_or_else(|| Ok(JsonPointer::root()), JsonPointer::parse)?;
    let data = match data {
        Some(p) => read_json(p, FIXTURE_MAX_DEPTH)?,
        None => json!({}),
    };
    let server = match server {
        Some(p) => Some(ScriptedServer::from_json(&read_json(
            p,
            FIXTURE_MAX_DEPTH,
        )?)?),
        None => None,
    };
    // One host for every repetition, as a renderer keeps one (its resource cache included).
    let host = server.as_ref().map(ScriptedServer::host);
    let started = Instant::now();
    let payload = compile(&env, path)?;
    let compile_micros = started.elapsed().as_secs_f64() * 1e6;

    let run = |model: Value| -> Result<(Value, Value), Error> {
        match &host {
            None => {
                let mut model = model;
                let value = payload.eval_in(&mut model, &context)?;
                Ok((value, model))
            }
            Some(host) => {
                let shared = SharedModel::new(model);
                let value = block_on(payload.eval_async(&shared, &context, host))?;
                Ok((value, shared.into_inner()))
            }
        }
    };
    let (value, model) = run(data.clone())?;
    let messages = server
        .as_ref()
        .map_or_else(Vec::new, ScriptedServer::messages);
    let mut out = json!({"value": value, "dataModel": model, "messages": messages});
    if let Some(n) = repeat {
        let mut times = Vec::with_capacity(n);
        for _ in 0..n {
            let fresh = data.clone();
            let started = Instant::now();
            let result = run(fresh);
            times.push(started.elapsed().as_secs_f64() * 1e6);
            result?;
        }
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
        let min = times.first().copied().unwrap_or(0.0);
        out["timing"] = json!({"compileMicros": compile_micros, "evalMicrosMedian": median, "evalMicrosMin": min, "runs": n});
    }
    out!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    Ok(ExitCode::SUCCESS)
}

/// `regex --batch`: one line in, one line out, until the end of standard input.
fn regex_batch() -> Result<ExitCode, Error> {
    use std::io::{BufRead, Write};
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| {
            Error::new(
                ErrorCode::ValidationFailed,
                format!("cannot read standard input: {e}"),
            )
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let out = match a2ui_catalog_mcp::json::from_str_limited(&line, FIXTURE_MAX_DEPTH) {
            Err(e) => json!({"ok": false, "error": e.message()}),
            Ok(request) => match (
                request.get("pattern").and_then(Value::as_str),
                request.get("inputs"),
            ) {
                (Some(pattern), inputs) => match Pattern::new(pattern) {
                    Err(e) => json!({"ok": false, "error": e.message()}),
                    Ok(p) => {
                        let captures: Vec<Value> = inputs
                            .and_then(Value::as_array)
                            .map(Vec::as_slice)
                            .unwrap_or_default()
                            .iter()
                            .map(|input| {
                                let text = a2ui_catalog_mcp::functions::to_js_string(input);
                                p.captures(&text).map_or(Value::Null, |groups| {
                                    groups.into_iter().map(Value::from).collect()
                                })
                            })
                            .collect();
                        json!({"ok": true, "captures": captures})
                    }
                },
                (None, _) => json!({"ok": false, "error": "each line needs a string \"pattern\""}),
            },
        };
        if let Err(e) = writeln!(stdout, "{out}") {
            exit_on_write_error(&e);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn run_fixtures(paths: &[PathBuf]) -> Result<ExitCode, Error> {
    let outcomes = fixtures::run_paths(paths)?;
    let failed: Vec<_> = outcomes.iter().filter(|o| !o.passed()).collect();
    for outcome in &failed {
        out!("FAIL {}", outcome.id);
        for failure in &outcome.failures {
            out!("    {failure}");
        }
    }
    out!(
        "{} passed, {} failed",
        outcomes.len() - failed.len(),
        failed.len()
    );
    Ok(if failed.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
