//! `a2ui-mcp`: compile, evaluate and test A2UI payloads and message streams against the MCP
//! catalog and any catalog document, from the command line (the fixture format of `fixtures`
//! is in `docs/fixtures.md`).

#[path = "a2ui-mcp/session.rs"]
mod session;

use a2ui_catalog_mcp::basic::{BASIC_CATALOG_ID, BASIC_CATALOG_JSON, BasicCatalog};
use a2ui_catalog_mcp::connect::{
    ConnectOptions, Connections, JsonLinesAudit, ServerSpec, Unattended,
};
use a2ui_catalog_mcp::fixtures::{self, FIXTURE_MAX_DEPTH};
use a2ui_catalog_mcp::mcp::ToolClient;
use a2ui_catalog_mcp::mcp::{AuditEvent, McpHost, MessageSink};
use a2ui_catalog_mcp::messages::{self, StreamChecker};
use a2ui_catalog_mcp::regex::Pattern;
use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, ResolveLimits, SharedProcessor};
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{
    Catalog, Environment, Error, JsonPointer, MissingCatalog, Payload, Phase, SharedModel,
    Spelling, Warning, mcp::ToolNames,
};
use a2ui_catalog_mcp::{MCP_CATALOG_ID, Origin};
use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

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
    about = "Compile, evaluate and test A2UI payloads and message streams for the MCP catalog"
)]
struct Cli {
    /// Print errors as JSON instead of text.
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Command,
}

/// How bindings and calls are spelled.
#[derive(Clone, Copy, ValueEnum)]
enum SpellingArg {
    /// `{"@path": …}`, `{"@call": …}` (the MCP catalog's); plain-shaped literals are warnings.
    At,
    /// `{"path": …}`, `{"call": …}` as well (the A2UI specification's).
    Plain,
}

/// What payloads are compiled against.
#[derive(clap::Args)]
struct EnvOptions {
    /// A catalog document (JSON) to register beside the MCP catalog; repeat for several.
    #[arg(long = "catalog", value_name = "CATALOG.json")]
    catalogs: Vec<PathBuf>,
    /// The catalog of calls without `catalogId` (default: the MCP catalog). In a message
    /// stream, a surface's own catalog comes from its `createSurface`.
    #[arg(long, value_name = "ID")]
    default_catalog: Option<String>,
    /// How bindings and calls are spelled.
    #[arg(long, value_enum, default_value = "at")]
    spelling: SpellingArg,
    /// The basic catalog's locale (BCP 47) for numbers, currencies, plurals and dates.
    #[arg(long, value_name = "BCP47", default_value = "en-US")]
    locale: String,
    /// The basic catalog's IANA time zone for formatDate.
    #[arg(long, value_name = "IANA", default_value = "UTC")]
    time_zone: String,
}

/// The MCP servers a command calls, and what it lets them do (`eval`; `render` will take the
/// same). No one is at the keyboard: read-only tools (`readOnlyHint: true`) run; any other
/// tool runs only when named with `--allow-tool`, and a refused call changes nothing.
#[derive(clap::Args)]
struct McpArgs {
    /// An MCP server to start, as a command line: split into words as a shell splits them
    /// (quotes, backslashes), started without a shell; it speaks MCP over its standard input
    /// and output. Repeat for several. A tool name two servers share goes to the first given.
    #[arg(long = "mcp", value_name = "'COMMAND ARGS…'")]
    commands: Vec<String>,
    /// An MCP server's streamable HTTP endpoint (http://…). Repeat for several.
    #[arg(long = "mcp-url", value_name = "URL")]
    urls: Vec<String>,
    /// How long a server may take to answer one request (initialize, tools/list, each call).
    #[arg(long, value_name = "SECONDS", default_value = "30")]
    tool_timeout: f64,
    /// A tool that may run although it is not read-only (destructive or unannotated), from a
    /// binding or a tap. Repeat for several.
    #[arg(long = "allow-tool", value_name = "NAME")]
    allow_tools: Vec<String>,
    /// Write one JSON line per tool call (allowed or refused) to FILE.
    #[arg(long, value_name = "FILE")]
    audit: Option<PathBuf>,
    /// Copy the servers' standard error to this one's as it comes, each line prefixed with
    /// its server (it is always shown with a server's error).
    #[arg(long)]
    mcp_stderr: bool,
}

/// Who an evaluation acts for.
#[derive(Clone, Copy, ValueEnum)]
enum OriginArg {
    /// A bound value recomputed: no user activation.
    Binding,
    /// A user's tap on a component (user activation).
    Action,
}

#[derive(Subcommand)]
enum Command {
    /// Check payloads or A2UI message streams (a JSON array or JSON lines of messages): print
    /// every problem and warning with its location; exit 1 if any file has a problem. For a
    /// payload, also list the tools it can call, with a warning for each tool name that comes
    /// from the data model.
    Check {
        /// Payload or message stream files (JSON, JSON lines).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        env: EnvOptions,
        /// Judge every message of a stream strictly: a dangling child, an orphan or a missing
        /// root left by any message is a problem (by default the surfaces are judged as the
        /// stream leaves them).
        #[arg(long)]
        strict: bool,
    },
    /// Process A2UI message streams (a JSON array, JSON lines, {"messages": [...]}, the
    /// gallery's {name, description, messages}) and print, one line per stream, what they
    /// draw: {"surfaces": {"SURFACE_ID": {"catalogId", "dataModel", "errors", "nodes"}}}, the nodes
    /// breadth first from root with every property resolved. Values that call a tool are
    /// shown pending, unless MCP servers are given (`--mcp`, `--mcp-url`, `--server`): then
    /// the tools are called, and the steps `--type`, `--click` and `--call` run a user's
    /// session in the order given, each step's tool calls completed before the next; the
    /// output adds `forAgent` (the `action` and `error` messages no server took) and `steps`
    /// (what failed or was refused).
    Render {
        /// Message stream files.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        env: EnvOptions,
        #[command(flatten)]
        mcp: McpArgs,
        /// A scripted MCP server (the fixtures' `server` object) instead of real ones.
        #[arg(long, conflicts_with_all = ["commands", "urls"])]
        server: Option<PathBuf>,
        /// Activate a component (a tap): `[SURFACE:]COMPONENT[@DATAPATH]`; SURFACE may be left
        /// out when there is one surface, DATAPATH picks a template row's instance.
        #[arg(long = "click", value_name = "[SURFACE:]COMPONENT[@DATAPATH]")]
        clicks: Vec<String>,
        /// Type TEXT into an input: its bound path is written as typing does.
        #[arg(long = "type", value_name = "[SURFACE:]COMPONENT[@DATAPATH]=TEXT")]
        types: Vec<String>,
        /// Call a tool as the host would (a user's action) and process the A2UI messages its
        /// result carries.
        #[arg(long = "call", value_name = "TOOL[=JSON]")]
        calls: Vec<String>,
        /// Add `timings`: per step, its whole time, the time its tool calls took as the client
        /// saw them (the servers and the transport), and the rest (the engine's).
        #[arg(long)]
        timings: bool,
    },
    /// Evaluate a payload and print {"value", "dataModel", "messages"} (and "warnings").
    Eval {
        /// The payload file (JSON).
        payload: PathBuf,
        #[command(flatten)]
        env: EnvOptions,
        /// The data model file (JSON); default `{}`.
        #[arg(long)]
        data: Option<PathBuf>,
        /// The data context, a JSON Pointer; default the root.
        #[arg(long)]
        context: Option<String>,
        /// A scripted MCP server (the fixtures' `server` object) for `callMcpTool`.
        #[arg(long, conflicts_with_all = ["commands", "urls"])]
        server: Option<PathBuf>,
        #[command(flatten)]
        mcp: McpArgs,
        /// Who the evaluation acts for, as the tool policy sees it.
        #[arg(long, value_enum, default_value = "binding")]
        origin: OriginArg,
        /// Compile once, evaluate N times on fresh copies of the data, and report timings.
        #[arg(long, value_name = "N")]
        repeat: Option<usize>,
    },
    /// Print the data model paths a payload reads (its dependency set) as a JSON array: what a
    /// surface reacts to.
    Deps {
        /// The payload file (JSON).
        payload: PathBuf,
        #[command(flatten)]
        env: EnvOptions,
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
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let sub_matches = matches.subcommand().map(|(_, m)| m);
    let result = match cli.command {
        Command::Check { files, env, strict } => environment(&env).and_then(|e| {
            // A linter of agents' output: literal arguments against the catalogs' own schemas,
            // the built-in catalogs' included.
            let e = e.with_schema_checks(true);
            check(&e, &documents(&env)?, strict, &files, cli.json)
        }),
        Command::Render {
            files,
            env,
            mcp,
            server,
            clicks,
            types,
            calls,
            timings,
        } => environment(&env).and_then(|e| {
            let steps = session_steps(&clicks, &types, &calls, sub_matches).map_err(Failure::Io)?;
            let specs = server_specs(&mcp, sub_matches);
            let servers = Servers {
                scripted: server.as_deref(),
                specs: &specs,
                mcp: &mcp,
            };
            render(e, &documents(&env)?, &files, &servers, &steps, timings)
        }),
        Command::Eval {
            payload,
            env,
            data,
            context,
            server,
            mcp,
            origin,
            repeat,
        } => environment(&env).and_then(|e| {
            let servers = server_specs(&mcp, sub_matches);
            eval(
                &e,
                &payload,
                data.as_deref(),
                context.as_deref(),
                Servers {
                    scripted: server.as_deref(),
                    specs: &servers,
                    mcp: &mcp,
                },
                origin,
                repeat,
            )
        }),
        Command::Deps {
            payload,
            env,
            context,
        } => environment(&env).and_then(|e| deps(&e, &payload, context.as_deref())),
        Command::Regex { batch: _ } => regex_lines(),
        Command::Fixtures { paths } => run_fixtures(&paths),
    };
    match result {
        Ok(code) => code,
        Err(failure) => {
            print_failure(&failure, cli.json);
            ExitCode::FAILURE
        }
    }
}

fn read_json(path: &Path, max_depth: usize) -> Result<Value, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| cannot_read(path, &e))?;
    let value = a2ui_catalog_mcp::json::from_str_limited(&text, max_depth)
        .map_err(|e| Error::new(e.code(), format!("{}: {}", path.display(), e.message())))?;
    Ok(value)
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

/// Why a command stopped: the engine's error, or a file the command could not read (not a
/// problem of the payload, so not reported as one).
enum Failure {
    Io(String),
    Engine(Error),
    /// An MCP server could not be used (it names the server).
    Server(String),
}

impl From<Error> for Failure {
    fn from(err: Error) -> Self {
        Failure::Engine(err)
    }
}

fn print_failure(failure: &Failure, as_json: bool) {
    match failure {
        Failure::Engine(err) => print_error(err, as_json),
        Failure::Io(message) if as_json => {
            out!(
                "{}",
                json!({"ok": false, "errors": [{"code": "IO_ERROR", "message": message}]})
            );
        }
        Failure::Io(message) => eprintln!("a2ui-mcp: {message}"),
        Failure::Server(message) if as_json => {
            out!(
                "{}",
                json!({"ok": false, "errors": [{"code": "MCP_SERVER_ERROR", "message": message}]})
            );
        }
        Failure::Server(message) => eprintln!("a2ui-mcp: {message}"),
    }
}

fn print_error(err: &Error, as_json: bool) {
    if as_json {
        let errors: Vec<Value> = err.problems().map(error_json).collect();
        out!("{}", json!({"ok": false, "errors": errors}));
    } else {
        eprint!("{err:#}");
    }
}

/// The environment of `check` and `eval`: the MCP catalog, the basic catalog (in the locale and
/// time zone given), the catalog documents given, the default catalog and the spelling.
fn environment(options: &EnvOptions) -> Result<Environment, Failure> {
    let mut env = Environment::new();
    let basic = BasicCatalog::new()
        .with_locale_or_default(&options.locale)
        .with_time_zone(&options.time_zone)?;
    env.add_catalog(basic.build());
    for path in &options.catalogs {
        let text = std::fs::read_to_string(path).map_err(|e| cannot_read(path, &e))?;
        let catalog = Catalog::from_schema_str(&text)
            .map_err(|e| Error::new(e.code(), format!("{}: {}", path.display(), e.message())))?;
        // A document of the basic catalog's id declares what the crate implements already:
        // the implemented catalog stays.
        if catalog.id() != BASIC_CATALOG_ID {
            env.add_catalog(catalog);
        }
    }
    if let Some(id) = &options.default_catalog {
        env = env.with_default_catalog(id.clone());
    }
    Ok(env.with_spelling(match options.spelling {
        SpellingArg::At => Spelling::At,
        SpellingArg::Plain => Spelling::Plain,
    }))
}

/// The catalog documents whose component schemas `check` applies: the basic catalog's, then
/// the --catalog documents.
fn documents(options: &EnvOptions) -> Result<Vec<Value>, Failure> {
    let mut docs =
        vec![serde_json::from_str(BASIC_CATALOG_JSON).expect("the bundled catalog is JSON")];
    for path in &options.catalogs {
        docs.push(read_json(path, FIXTURE_MAX_DEPTH)?);
    }
    Ok(docs)
}

/// One level more than the limit is read, so that the compiler reports the depth problem with
/// its location.
fn payload_depth(env: &Environment) -> usize {
    env.limits().max_depth + 1
}

fn compile(env: &Environment, path: &Path) -> Result<Payload, Failure> {
    let payload = read_json(path, payload_depth(env))?;
    Ok(env.compile(&payload)?)
}

fn warning_json(warning: &Warning) -> Value {
    json!({
        "code": warning.code().as_str(),
        "location": warning.location(),
        "message": warning.message(),
        "suggestion": warning.suggestion(),
    })
}

/// `check`: each file is a message stream when it reads as one, else a payload.
fn check(
    env: &Environment,
    documents: &[Value],
    strict: bool,
    files: &[PathBuf],
    as_json: bool,
) -> Result<ExitCode, Failure> {
    let mut failed = false;
    // The catalog documents are read once, into a checker each stream takes a fresh copy of
    // (made at the first stream: a check of payloads needs none).
    let mut template: Option<StreamChecker<'_>> = None;
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| cannot_read(path, &e))?;
        let ok = if messages::is_stream(&text) {
            let template = match &mut template {
                Some(template) => template,
                None => {
                    let mut checker = StreamChecker::new(env).with_strict(strict);
                    for document in documents {
                        checker.add_catalog_document(document)?;
                    }
                    template.insert(checker)
                }
            };
            check_stream(template.fresh(), path, &text, as_json)
        } else {
            check_payload(env, path, &text, as_json)
        };
        failed |= !ok;
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn check_payload(env: &Environment, path: &Path, text: &str, as_json: bool) -> bool {
    let file = path.display();
    let found = match a2ui_catalog_mcp::json::from_str_limited(text, payload_depth(env)) {
        Ok(payload) => env.check(&payload),
        Err(e) => {
            let err = Error::new(e.code(), format!("{file}: {}", e.message()));
            if as_json {
                out!(
                    "{}",
                    json!({"file": path, "kind": "payload", "ok": false, "errors": [error_json(&err)], "warnings": []})
                );
            } else {
                eprintln!("{err}");
            }
            return false;
        }
    };
    // The tools a payload that compiles can call.
    let tools = found
        .payload()
        .map(|p| p.tool_names().clone())
        .unwrap_or_default();
    let tool_warnings = dynamic_tool_warnings(&tools);
    if as_json {
        let errors: Vec<Value> = found.errors().iter().map(error_json).collect();
        let mut warnings: Vec<Value> = found.warnings().iter().map(warning_json).collect();
        warnings.extend(tool_warnings.iter().map(|(location, message)| {
            json!({"code": "DYNAMIC_TOOL_NAME", "location": location, "message": message, "suggestion": null})
        }));
        out!(
            "{}",
            json!({"file": path, "kind": "payload", "ok": found.is_ok(), "errors": errors,
                   "warnings": warnings, "tools": tools.literal, "dynamicToolNames": tools.dynamic})
        );
        return found.is_ok();
    }
    for err in found.errors() {
        eprintln!("{file}: {err}");
    }
    for warning in found.warnings() {
        eprintln!("{file}: warning {warning}");
    }
    for (location, message) in &tool_warnings {
        let at = if location.is_empty() { "/" } else { location };
        eprintln!("{file}: warning DYNAMIC_TOOL_NAME at {at}: {message}");
    }
    let (e, w) = (
        found.errors().len(),
        found.warnings().len() + tool_warnings.len(),
    );
    match (e, w) {
        (0, 0) => out!("{file}: no problems"),
        _ => out!("{file}: {e} problem{}, {w} warning{}", plural(e), plural(w)),
    }
    if !tools.literal.is_empty() {
        out!("{file}: tools it can call: {}", tools.literal.join(", "));
    }
    found.is_ok()
}

/// A tool name taken from the data is a warning, not a problem: the payload is valid, but the
/// host cannot know in advance which tools it calls. `(location, message)` per such call.
fn dynamic_tool_warnings(tools: &ToolNames) -> Vec<(String, String)> {
    tools
        .dynamic_at
        .iter()
        .map(|at| {
            let message = "the tool name of this callMcpTool comes from the data model when the \
                           payload runs: it may call any tool the host allows";
            (at.clone(), message.to_owned())
        })
        .collect()
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn check_stream(mut checker: StreamChecker<'_>, path: &Path, text: &str, as_json: bool) -> bool {
    checker.check_stream(text);
    let report = checker.finish();
    let file = path.display();
    if as_json {
        let errors: Vec<Value> = report
            .problems()
            .iter()
            .map(|p| {
                let mut e = error_json(p);
                e["index"] = json!(p.message_index());
                e
            })
            .collect();
        let warnings: Vec<Value> = report
            .warnings()
            .iter()
            .map(|w| {
                let mut e = warning_json(w);
                e["index"] = json!(w.message_index());
                e
            })
            .collect();
        out!(
            "{}",
            json!({"file": path, "kind": "stream", "ok": report.is_clean(), "messages": report.message_count(), "errors": errors, "warnings": warnings})
        );
        return report.is_clean();
    }
    for problem in report.problems() {
        let hint = if let Some(MissingCatalog::NotRegistered(_)) = problem.missing_catalog() {
            " (register it with --catalog CATALOG.json, the catalog's document)"
        } else {
            ""
        };
        eprintln!("{file}: {problem}{hint}");
    }
    for warning in report.warnings() {
        eprintln!("{file}: {warning}");
    }
    let (n, e, w) = (
        report.message_count(),
        report.problems().len(),
        report.warnings().len(),
    );
    // Problems name messages by their index from 0, as `--json` gives it ("index"): the
    // summary says so once.
    out!(
        "{file}: {n} message{} (numbered from 0), {e} problem{}, {w} warning{}",
        plural(n),
        plural(e),
        plural(w)
    );
    report.is_clean()
}

/// `render`: each stream through a permissive processor, its surfaces resolved; with servers
/// or steps, a live processor runs the session (`session.rs`).
fn render(
    env: Environment,
    documents: &[Value],
    files: &[PathBuf],
    servers: &Servers<'_>,
    steps: &[session::Step],
    timings: bool,
) -> Result<ExitCode, Failure> {
    let with_session = servers.scripted.is_some() || !servers.specs.is_empty() || !steps.is_empty();
    let options = if with_session {
        ProcessorOptions::default().with_live(ResolveLimits::default())
    } else {
        ProcessorOptions::default()
    };
    // The documents are read once; each file gets a fresh processor with them.
    let mut template = Processor::with_environment(env.clone(), options);
    for doc in documents {
        template.register_catalog(doc)?;
    }
    for path in files {
        let mut processor = template.fresh();
        let text = std::fs::read_to_string(path).map_err(|e| cannot_read(path, &e))?;
        // Read as `check` reads it: a message that cannot be read is refused where it stands,
        // and the others are drawn.
        let read = messages::read_stream(&text, env.limits().max_depth);
        let mut errors = Vec::new();
        let unread = |e: Error| Error::in_message(e.category(), "", e.message());
        for message in read.messages {
            match message {
                Ok(message) => errors.extend(processor.process_all(&message)),
                Err(e) => errors.push(processor.refuse(unread(e))),
            }
        }
        if let Some(e) = read.broken {
            errors.push(processor.refuse(unread(e)));
        }
        if !with_session {
            out!(
                "{}",
                processor.render_json(&errors, ResolveLimits::default())
            );
            continue;
        }
        let output = run_session(processor, &env, servers, steps, &errors, timings)?;
        out!("{output}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The steps of `render`, in the order they were given on the command line.
fn session_steps(
    clicks: &[String],
    types: &[String],
    calls: &[String],
    matches: Option<&ArgMatches>,
) -> Result<Vec<session::Step>, String> {
    let positions = |id: &str, n: usize| -> Vec<usize> {
        matches
            .and_then(|m| m.indices_of(id))
            .map_or_else(|| (0..n).collect(), Iterator::collect)
    };
    let mut steps: Vec<(usize, session::Step)> = Vec::new();
    for (at, text) in positions("clicks", clicks.len()).into_iter().zip(clicks) {
        steps.push((at, session::Step::click(text)?));
    }
    for (at, text) in positions("types", types.len()).into_iter().zip(types) {
        steps.push((at, session::Step::type_text(text)?));
    }
    for (at, text) in positions("calls", calls.len()).into_iter().zip(calls) {
        steps.push((at, session::Step::call(text)?));
    }
    steps.sort_by_key(|(at, _)| *at);
    Ok(steps.into_iter().map(|(_, step)| step).collect())
}

/// Runs the session on a processed stream, against the servers given, and returns its output.
/// The servers are ended whatever happens.
fn run_session(
    processor: Processor,
    env: &Environment,
    servers: &Servers<'_>,
    steps: &[session::Step],
    errors: &[Error],
    timings: bool,
) -> Result<Value, Failure> {
    let shared = SharedProcessor::new(processor);
    let policy = || Unattended::allowing(servers.mcp.allow_tools.iter().cloned());
    let run = |hosting: Option<session::Hosting<'_>>| -> Result<Value, Failure> {
        let mut session = session::Session::new(shared.clone(), hosting, env.clone());
        if timings {
            session = session.with_timings();
        }
        session.start()?;
        for step in steps {
            session.step(step)?;
        }
        Ok(session.output(errors))
    };
    if let Some(path) = servers.scripted {
        let server = ScriptedServer::from_json(&read_json(path, FIXTURE_MAX_DEPTH)?)?;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Failure::Io(format!("cannot start the MCP runtime: {e}")))?;
        let host = McpHost::new(Arc::new(server.clone()))
            .with_sink(Arc::new(shared.clone()))
            .with_policy(policy());
        let host_for = |client: Arc<dyn ToolClient>| {
            McpHost::new(client)
                .with_sink(Arc::new(shared.clone()))
                .with_policy(policy())
        };
        return run(Some(session::Hosting {
            runtime: &runtime,
            host: &host,
            connections: None,
            host_for: &host_for,
        }));
    }
    if servers.specs.is_empty() {
        return run(None);
    }
    let connected = Connected::connect_to(
        servers.specs,
        servers.mcp,
        Arc::new(shared.clone()),
        Arc::new(Messages::default()),
    )?;
    let meta = connected.host_meta.clone();
    let audit = connected.audit.clone();
    let host_for = |client: Arc<dyn ToolClient>| {
        let mut host = McpHost::new(client)
            .with_sink(Arc::new(shared.clone()))
            .with_meta(meta.clone())
            .with_policy(policy());
        if let Some(audit) = &audit {
            let audit = audit.clone();
            host = host.with_audit(move |event: &AuditEvent| audit.record_event(event));
        }
        host
    };
    let output = run(Some(session::Hosting {
        runtime: &connected.runtime,
        host: &connected.host,
        connections: Some(&connected.connections),
        host_for: &host_for,
    }));
    let closed = connected.close();
    let output = output?;
    closed?;
    Ok(output)
}

/// The servers `eval` calls: a scripted one, or real ones.
struct Servers<'a> {
    scripted: Option<&'a Path>,
    specs: &'a [ServerSpec],
    mcp: &'a McpArgs,
}

/// The servers of `--mcp` and `--mcp-url`, in the order they were given on the command line
/// (the first one given wins a tool name two servers share).
fn server_specs(mcp: &McpArgs, matches: Option<&ArgMatches>) -> Vec<ServerSpec> {
    let positions = |id: &str, n: usize| -> Vec<usize> {
        matches
            .and_then(|m| m.indices_of(id))
            .map_or_else(|| (0..n).collect(), Iterator::collect)
    };
    let mut specs: Vec<(usize, ServerSpec)> = positions("commands", mcp.commands.len())
        .into_iter()
        .zip(mcp.commands.iter().map(ServerSpec::command))
        .chain(
            positions("urls", mcp.urls.len())
                .into_iter()
                .zip(mcp.urls.iter().map(ServerSpec::url)),
        )
        .collect();
    specs.sort_by_key(|(at, _)| *at);
    specs.into_iter().map(|(_, spec)| spec).collect()
}

/// The renderer capabilities the CLI declares: A2UI v1.0 with the basic and MCP catalogs.
fn client_capabilities() -> Value {
    json!({"v1.0": {"supportedCatalogIds": [BASIC_CATALOG_ID, MCP_CATALOG_ID]}})
}

/// Keeps the A2UI messages tool results carry, for the output.
#[derive(Default)]
struct Messages(Mutex<Vec<Value>>);

impl MessageSink for Messages {
    fn process(&self, messages: Vec<Value>) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .extend(messages);
    }

    fn has_surface(&self, surface_id: &str) -> bool {
        let messages = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        messages.iter().any(|m| {
            m.pointer("/createSurface/surfaceId")
                .and_then(Value::as_str)
                == Some(surface_id)
        })
    }
}

/// Connected servers, their host and the runtime they run on.
struct Connected {
    runtime: tokio::runtime::Runtime,
    connections: Connections,
    host: McpHost,
    /// The `_meta` sent with every call (the renderer's capabilities).
    host_meta: Value,
    messages: Arc<Messages>,
    audit: Option<Arc<JsonLinesAudit>>,
}

impl Connected {
    fn connect(specs: &[ServerSpec], mcp: &McpArgs) -> Result<Connected, Failure> {
        let messages = Arc::new(Messages::default());
        Connected::connect_to(specs, mcp, messages.clone(), messages)
    }

    /// Connects, with `sink` as the host's message sink (`messages` is kept for `eval`'s
    /// output).
    fn connect_to(
        specs: &[ServerSpec],
        mcp: &McpArgs,
        sink: Arc<dyn MessageSink>,
        messages: Arc<Messages>,
    ) -> Result<Connected, Failure> {
        let timeout = Duration::try_from_secs_f64(mcp.tool_timeout)
            .ok()
            .filter(|t| !t.is_zero())
            .ok_or_else(|| {
                Failure::Io(format!(
                    "--tool-timeout must be a number of seconds above 0, got {}",
                    mcp.tool_timeout
                ))
            })?;
        let audit = match &mcp.audit {
            Some(path) => {
                let file = std::fs::File::create(path)
                    .map_err(|e| Failure::Io(format!("cannot write {}: {e}", path.display())))?;
                Some(Arc::new(JsonLinesAudit::new(file)))
            }
            None => None,
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Failure::Io(format!("cannot start the MCP runtime: {e}")))?;
        let options = ConnectOptions::new()
            .with_timeout(timeout)
            .with_echo_stderr(mcp.mcp_stderr)
            .with_client_capabilities(client_capabilities());
        let connections = runtime
            .block_on(Connections::connect(specs, &options))
            .map_err(|e| Failure::Server(e.to_string()))?;
        for warning in connections.warnings() {
            eprintln!("a2ui-mcp: warning: {warning}");
        }
        let host_meta = connections.call_meta(&options);
        let mut host = McpHost::with_router(Arc::new(connections.clone()))
            .with_sink(sink)
            .with_meta(host_meta.clone())
            .with_policy(Unattended::allowing(mcp.allow_tools.iter().cloned()));
        if let Some(audit) = &audit {
            let audit = audit.clone();
            host = host.with_audit(move |event: &AuditEvent| audit.record_event(event));
        }
        Ok(Connected {
            runtime,
            connections,
            host,
            host_meta,
            messages,
            audit,
        })
    }

    /// Ends the servers, and says whether the audit log is whole.
    fn close(self) -> Result<(), Failure> {
        self.runtime.block_on(self.connections.close());
        match self.audit.and_then(|a| a.take_error()) {
            Some(e) => Err(Failure::Io(format!("the audit log is incomplete: {e}"))),
            None => Ok(()),
        }
    }
}

fn eval(
    env: &Environment,
    path: &Path,
    data: Option<&Path>,
    context: Option<&str>,
    servers: Servers<'_>,
    origin: OriginArg,
    repeat: Option<usize>,
) -> Result<ExitCode, Failure> {
    let context = context.map_or_else(|| Ok(JsonPointer::root()), JsonPointer::parse)?;
    let data = match data {
        Some(p) => read_json(p, FIXTURE_MAX_DEPTH)?,
        None => json!({}),
    };
    let origin = match origin {
        OriginArg::Binding => Origin::Binding,
        OriginArg::Action => Origin::Action,
    };
    let server = match servers.scripted {
        Some(p) => Some(ScriptedServer::from_json(&read_json(
            p,
            FIXTURE_MAX_DEPTH,
        )?)?),
        None => None,
    };
    let started = Instant::now();
    let payload = compile(env, path)?;
    let compile_micros = started.elapsed().as_secs_f64() * 1e6;
    // Started once the payload compiles: a payload with a problem starts no server.
    let connected = if servers.specs.is_empty() {
        None
    } else {
        Some(Connected::connect(servers.specs, servers.mcp)?)
    };
    let result = eval_with(
        &payload,
        &data,
        &context,
        origin,
        server.as_ref(),
        connected.as_ref(),
        compile_micros,
        repeat,
    );
    if let Some(connected) = connected {
        connected.close()?;
    }
    out!(
        "{}",
        serde_json::to_string_pretty(&result?).unwrap_or_default()
    );
    Ok(ExitCode::SUCCESS)
}

/// `eval`'s evaluations (and timings), on a scripted server, real ones, or none.
#[allow(clippy::too_many_arguments)]
fn eval_with(
    payload: &Payload,
    data: &Value,
    context: &JsonPointer,
    origin: Origin,
    server: Option<&ScriptedServer>,
    connected: Option<&Connected>,
    compile_micros: f64,
    repeat: Option<usize>,
) -> Result<Value, Failure> {
    // One host for every repetition, as a renderer keeps one (its resource cache included).
    let scripted_host = server.map(ScriptedServer::host);
    let run = |model: Value| -> Result<(Value, Value), Error> {
        let host = match (&scripted_host, connected) {
            (Some(host), _) => host,
            (None, Some(connected)) => &connected.host,
            (None, None) => {
                let mut model = model;
                let value = payload.eval_in(&mut model, context)?;
                return Ok((value, model));
            }
        };
        let shared = SharedModel::new(model);
        let evaluation = payload.eval_async_from(&shared, context, host, origin);
        let value = match connected {
            Some(connected) if scripted_host.is_none() => connected.runtime.block_on(evaluation),
            _ => block_on(evaluation),
        }?;
        Ok((value, shared.into_inner()))
    };
    let (value, model) = run(data.clone())?;
    let messages = match (server, connected) {
        (Some(server), _) => server.messages(),
        (None, Some(connected)) => connected
            .messages
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone(),
        (None, None) => Vec::new(),
    };
    let mut out = json!({"value": value, "dataModel": model, "messages": messages});
    if !payload.warnings().is_empty() {
        out["warnings"] = payload.warnings().iter().map(warning_json).collect();
    }
    if let Some(n) = repeat {
        let mut times = Vec::with_capacity(n);
        for _ in 0..n {
            let fresh = data.clone();
            // The scripted results are copied before the clock starts: a real client's result
            // is its own, so a host pays no such copy.
            if let Some(server) = server {
                server.stage_next_results();
            }
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
    Ok(out)
}

/// `deps`: the payload's dependency set in the context, sorted, each once (the root is `/`).
fn deps(env: &Environment, path: &Path, context: Option<&str>) -> Result<ExitCode, Failure> {
    let context = context.map_or_else(|| Ok(JsonPointer::root()), JsonPointer::parse)?;
    let payload = compile(env, path)?;
    let paths: Vec<String> = payload
        .dependencies(&context)
        .iter()
        .map(ToString::to_string)
        .collect();
    out!("{}", Value::from(paths));
    Ok(ExitCode::SUCCESS)
}

/// `regex`: one line in, one line out, until the end of standard input.
fn regex_lines() -> Result<ExitCode, Failure> {
    use std::io::{BufRead, Write};
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| Failure::Io(format!("cannot read standard input: {e}")))?;
        if line.trim().is_empty() {
            continue;
        }
        let out = regex_line(&line).unwrap_or_else(|error| json!({"ok": false, "error": error}));
        if let Err(e) = writeln!(stdout, "{out}") {
            exit_on_write_error(&e);
        }
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
            let text = a2ui_catalog_mcp::json::to_js_string(input);
            let groups = pattern.captures(&text);
            groups.map_or(Value::Null, |g| g.into_iter().map(Value::from).collect())
        })
        .collect();
    Ok(json!({"ok": true, "captures": captures}))
}

/// The fixture files of `paths`: files as given, folders walked for `*.json` in name order.
fn fixture_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
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

fn cannot_read(path: &Path, e: &std::io::Error) -> Failure {
    Failure::Io(format!("cannot read {}: {e}", path.display()))
}

fn run_fixtures(paths: &[PathBuf]) -> Result<ExitCode, Failure> {
    let mut outcomes = Vec::new();
    for file in fixture_files(paths)? {
        let text = std::fs::read_to_string(&file).map_err(|e| cannot_read(&file, &e))?;
        let mut found = fixtures::run_text(&text)
            .map_err(|e| Error::new(e.code(), format!("{}: {}", file.display(), e.message())))?;
        outcomes.append(&mut found);
    }
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
