//! `a2ui-mcp`: compile, evaluate and test A2UI payloads against the MCP catalog from the
//! command line (fixtures.md, "The command-line tool").

use a2ui_catalog_mcp::fixtures::{self, FIXTURE_MAX_DEPTH};
use a2ui_catalog_mcp::{Environment, Error, JsonPointer, Payload, Phase};
use clap::{Parser, Subcommand};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

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
        /// Compile once, evaluate N times on fresh copies of the data, and report timings.
        #[arg(long, value_name = "N")]
        repeat: Option<usize>,
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
            repeat,
        } => eval(&payload, data.as_deref(), context.as_deref(), repeat),
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
            a2ui_catalog_mcp::ErrorCode::ValidationFailed,
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
    repeat: Option<usize>,
) -> Result<ExitCode, Error> {
    let env = Environment::new();
    let context = context.map_or_else(|| Ok(JsonPointer::root()), JsonPointer::parse)?;
    let data = match data {
        Some(p) => read_json(p, FIXTURE_MAX_DEPTH)?,
        None => json!({}),
    };
    let started = Instant::now();
    let payload = compile(&env, path)?;
    let compile_micros = started.elapsed().as_secs_f64() * 1e6;

    let mut model = data.clone();
    let value = payload.eval_in(&mut model, &context)?;
    let mut out = json!({"value": value, "dataModel": model, "messages": []});
    if let Some(n) = repeat {
        let mut times = Vec::with_capacity(n);
        for _ in 0..n {
            let mut fresh = data.clone();
            let started = Instant::now();
            let result = payload.eval_in(&mut fresh, &context);
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

fn run_fixtures(paths: &[PathBuf]) -> Result<ExitCode, Error> {
    let outcomes = fixtures::run_paths(paths)?;
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
