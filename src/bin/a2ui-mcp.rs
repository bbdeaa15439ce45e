//! `a2ui-mcp`: compile, evaluate and test A2UI payloads against the MCP catalog from the
//! command line (fixtures.md, "The command-line tool").

use a2ui_catalog_mcp::fixtures::{self, FIXTURE_MAX_DEPTH};
use a2ui_catalog_mcp::regex::Pattern;
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{Environment, Error, ErrorCode, JsonPointer, Payload, Phase, SharedModel};
use clap::{Parser, Subcommand};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

// The CLI's timings (`eval --repeat`) should measure the crate, not the system allocator's
// heuristics. With glibc's malloc, a chain over a multi-megabyte tool text frees its memory
// back to the kernel after each run (heap trimming, mmap thresholds) and pays page faults to
// get it back in the next, which a long-running renderer does not (docs/performance.md has the
// figures). mimalloc keeps its pages, so the CLI reports what such a renderer sees. The
// library itself does not choose an allocator: hosts do.
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
    /// Print the data model paths a payload reads (its dependency set) as a JSON array: what a
    /// surface reacts to.
    Deps {
        /// The payload file (JSON).
        payload: PathBuf,
        /// The data context relative paths join, a JSON Pointer; default the root.
        #[arg(long)]
        context: Option<String>,
    },
    /// Check patterns against the A2UI regex dialect and match them: JSON lines
    /// `{"pattern", "inputs"}` on standard input, one JSON line out per line in.
    Regex {
        /// Accepted for older scripts; reading JSON lines is what `regex` does.
        #[arg(long, hide = true)]
        batch: bool,
    },
    /// Run fixture files or folders; end with "N passed, M failed" (exit 1 if any failed).
    Fixtures {
        /// Fixture files or folders of them.
        #[arg(required = true)]
        paths: Vec<PathBuf>,
    },
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
        Command::Deps { payload, context } => deps(&payload, context.as_deref()),
        Command::Regex { batch: _ } => regex_lines(),
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
    let text = std::fs::read_to_string(path).map_err(|e| cannot_read(path, &e))?;
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
        println!("{}", json!({"ok": false, "errors": errors}));
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
        println!("{}", json!({"ok": true, "errors": []}));
    } else {
        println!("{}: no problems", path.display());
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
    println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    Ok(ExitCode::SUCCESS)
}

/// `deps`: the payload's dependency set in the context, sorted, each once (the root is `/`).
fn deps(path: &Path, context: Option<&str>) -> Result<ExitCode, Error> {
    let context = context.map_or_else(|| Ok(JsonPointer::root()), JsonPointer::parse)?;
    let payload = compile(&Environment::new(), path)?;
    let paths: Vec<String> = payload
        .dependencies(&context)
        .iter()
        .map(ToString::to_string)
        .collect();
    println!("{}", Value::from(paths));
    Ok(ExitCode::SUCCESS)
}

/// `regex`: one line in, one line out, until the end of standard input.
fn regex_lines() -> Result<ExitCode, Error> {
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
        let out = regex_line(&line).unwrap_or_else(|error| json!({"ok": false, "error": error}));
        writeln!(stdout, "{out}")
            .map_err(|e| Error::new(ErrorCode::ValidationFailed, format!("cannot write: {e}")))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// One line of `regex`: the pattern's verdict and the captures of each input (coerced to
/// text as JavaScript does), or why the line cannot be answered.
fn regex_line(line: &str) -> Result<Value, String> {
    let request = a2ui_catalog_mcp::json::from_str_limited(line, FIXTURE_MAX_DEPTH)
        .map_err(|e| e.message().to_owned())?;
    let Some(pattern) = request.get("pattern").and_then(Value::as_str) else {
        return Err("each line needs a string \"pattern\"".into());
    };
    let pattern = Pattern::new(pattern).map_err(|e| e.message().to_owned())?;
    let inputs = request.get("inputs").and_then(Value::as_array);
    let captures: Vec<Value> = (inputs.map(Vec::as_slice).unwrap_or_default().iter())
        .map(|input| {
            let text = a2ui_catalog_mcp::to_js_string(input);
            let groups = pattern.captures(&text);
            groups.map_or(Value::Null, |g| g.into_iter().map(Value::from).collect())
        })
        .collect();
    Ok(json!({"ok": true, "captures": captures}))
}

/// The fixture files of `paths`: files as given, folders walked for `*.json` in name order.
fn fixture_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Error> {
    let (mut files, mut pending) = (Vec::new(), paths.iter().rev().cloned().collect::<Vec<_>>());
    while let Some(path) = pending.pop() {
        if !path.is_dir() {
            files.push(path);
            continue;
        }
        let read = std::fs::read_dir(&path).map_err(|e| cannot_read(&path, &e))?;
        let mut entries: Vec<PathBuf> = read.filter_map(|e| Some(e.ok()?.path())).collect();
        entries.retain(|e| e.is_dir() || e.extension().is_some_and(|x| x == "json"));
        entries.sort();
        pending.extend(entries.into_iter().rev());
    }
    Ok(files)
}

fn cannot_read(path: &Path, e: &std::io::Error) -> Error {
    Error::new(
        ErrorCode::ValidationFailed,
        format!("cannot read {}: {e}", path.display()),
    )
}

fn run_fixtures(paths: &[PathBuf]) -> Result<ExitCode, Error> {
    let mut outcomes = Vec::new();
    for file in fixture_files(paths)? {
        let text = std::fs::read_to_string(&file).map_err(|e| cannot_read(&file, &e))?;
        let mut found = fixtures::run_text(&text)
            .map_err(|e| Error::new(e.code(), format!("{}: {}", file.display(), e.message())))?;
        outcomes.append(&mut found);
    }
    let failed: Vec<_> = outcomes.iter().filter(|o| !o.passed()).collect();
    for outcome in &failed {
        println!("FAIL {}", outcome.id);
        for failure in &outcome.failures {
            println!("    {failure}");
        }
    }
    println!(
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
