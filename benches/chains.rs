//! The guide's two chains end to end (`docs/mcp.md`), from the tool result as a client hands it
//! over to the writes in the data model, at 1 000 and 10 000 records — the figures to compare
//! with the Node reference (`docs/performance.md` says how that one is run).
//!
//! `json-policy` is the json chain under the five-line policy of `docs/mcp.md`'s "Security", for the policy's cost.
//! `json-call` is the same call with a `transformData` that reads none of `json` (the call and
//! the reader's checking pass), and `depth-pass` the depth scan alone over the same text (the
//! floor issue 26 measures the chain against); `scan` (with the `internals` feature) the
//! reader's checking pass alone over that text. `text-output` builds the text chain's rows
//! alone, from strings found beforehand: what a `serde_json` data model costs at least.
//!
//! `surface-tap` is the json chain as a user taps it on a surface (`surfaces::Processor`): the
//! tap, the run handed to the host, the answer resumed into the surface's own model and the
//! changes taken; `json` is the same chain by `Payload::eval_async` on a `SharedModel`, the
//! yardstick it is held to. `surface-tap-list` adds a List that draws the issues written (a live
//! instance per row), what a renderer pays on top to show them.
//!
//! `cargo bench --bench chains --features testing,internals`
//!
//! The scripted server's result is copied in each benchmark's setup, outside the timing
//! (`ScriptedServer::stage_next_results`): a real client owns the result it returns, so the
//! copy is not part of what a host pays. One setup per timed evaluation (`PerIteration`), so
//! that every evaluation gets its staged copy; at hundreds of microseconds per evaluation the
//! per-iteration timer is noise.
//!
//! With `--features bench-mimalloc` the whole benchmark runs on mimalloc, the allocator the CLI
//! links (so `eval --server --repeat`, the issue's way of comparing with the Node reference,
//! runs on it too), and the group is named `chains_mimalloc`: the rows' floor then matches
//! what the CLI measures.

use a2ui_catalog_mcp::mcp::{
    ConsentForDestructive, ReadOnlyUnlessUserAction, SameServerAsSource, ToolPolicyExt,
};
use a2ui_catalog_mcp::surfaces::{Processor, ProcessorOptions, ResolveLimits, RunOutcome};
use a2ui_catalog_mcp::testing::{ScriptedServer, block_on};
use a2ui_catalog_mcp::{
    Environment, Invocation, JsonPointer, Origin, SharedModel, mcp::Provenance,
};
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};

#[cfg(feature = "bench-mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use serde_json::{Value, json};

#[path = "../tests/support/rng.rs"]
mod rng;
use rng::Rng;

/// Between `lo` and `hi` words of a tool text, some of them not ASCII.
fn words(r: &mut Rng, lo: u64, hi: u64) -> String {
    const WORDS: &[&str] = &[
        "render",
        "surface",
        "catalog",
        "button",
        "path",
        "token",
        "stream",
        "layout",
        "card",
        "é",
        "ж",
        "😀",
        "\"quoted\"",
    ];
    let n = lo + r.next() % (hi - lo + 1);
    (0..n).map(|_| r.pick(WORDS)).collect::<Vec<_>>().join(" ")
}

fn issues_text(n: usize) -> String {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let issues: Vec<Value> = (0..n)
        .map(|k| {
            let number = n - k + 100;
            json!({
                "number": number,
                "title": format!("Fix {}", words(&mut r, 2, 4)),
                "state": if r.next() % 100 < 55 { "open" } else { "closed" },
                "user": {"login": format!("user{}", r.next() % 500), "id": 1000 + r.next() % 100_000, "type": "User"},
                "labels": (0..r.next() % 4).map(|i| json!({"name": format!("label{i}")})).collect::<Vec<_>>(),
                "comments": r.next() % 40,
                "created_at": "2025-06-01T12:00:00Z",
                "html_url": format!("https://github.com/a2ui/a2ui/issues/{number}"),
                "body": words(&mut r, 10, 40),
            })
        })
        .collect();
    Value::Array(issues).to_string()
}

fn search_text(n: usize) -> String {
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    let mut blocks = vec![format!("Found {n} results for \"a2ui mcp\":")];
    for k in 0..n {
        let mut content = words(&mut r, 15, 45);
        if r.next() % 10 < 3 {
            content.push('\n');
            content.push_str(&words(&mut r, 3, 10));
        }
        blocks.push(format!(
            "Title: {}\nURL: https://example.com/{}/{k}\nContent: {content}",
            words(&mut r, 2, 5),
            words(&mut r, 1, 3).replace(' ', "-")
        ));
    }
    blocks.join("\n\n")
}

fn server(tool: &str, text: String) -> ScriptedServer {
    ScriptedServer::from_json(&json!({
        "tools": [{"name": tool, "inputSchema": {"type": "object"}, "_meta": {}}],
        "results": {tool: [{"content": [{"type": "text", "text": text}], "isError": false}]},
    }))
    .unwrap()
}

/// The json chain's server with a name and annotations, for the host's policy.
fn annotated_server(text: String) -> ScriptedServer {
    ScriptedServer::from_json(&json!({
        "name": "github",
        "tools": [{"name": "list_issues", "inputSchema": {"type": "object"}, "_meta": {},
                   "annotations": {"readOnlyHint": true}}],
        "results": {"list_issues": [{"content": [{"type": "text", "text": text}], "isError": false}]},
    }))
    .unwrap()
}

fn json_chain() -> Value {
    json!({"@call": "updateDataModel", "args": {"updates": {"@call": "transformData", "args": {
        "jmespath": "{\"/issues\": json[?state == 'open'].{number: to_string(number), title: title}}",
        "data": {"@call": "callMcpTool", "args": {"name": "list_issues", "arguments": {"repository": {"@path": "/repository"}}}}
    }}}})
}

fn text_chain() -> Value {
    json!({"@call": "updateDataModel", "args": {"updates": {"@call": "transformData", "args": {
        "jmespath": "{\"/results\": [?@ != null].{title: [0], url: [1]}}",
        "data": {"@call": "regexCapture", "args": {"pattern": "^Title: (.*)\nURL: (.*)", "value": {"@call": "split", "args": {
            "separator": "\n\n",
            "value": {"@call": "transformData", "args": {"jmespath": "text", "data": {"@call": "callMcpTool", "args": {
                "name": "tavily-search", "arguments": {"query": {"@path": "/query"}}}}}}
        }}}}
    }}}})
}

/// A surface whose Button runs the json chain and, `with_list`, whose List draws `/issues`, a
/// Text per row.
fn tap_surface(with_list: bool) -> Value {
    // The surface's own catalog is not the MCP catalog: each call names it.
    let chain = json_chain().to_string().replace(
        "\"@call\":",
        &format!(
            "\"catalogId\": \"{}\", \"@call\":",
            a2ui_catalog_mcp::MCP_CATALOG_ID
        ),
    );
    let chain: Value = serde_json::from_str(&chain).unwrap();
    let mut components = vec![
        json!({"id": "root", "component": "Column", "children": ["button", "list"]}),
        json!({"id": "button", "component": "Button", "child": "label",
            "action": {"functionCall": chain}}),
        json!({"id": "label", "component": "Text", "text": "Issues"}),
    ];
    if with_list {
        components.push(json!({"id": "list", "component": "List",
            "children": {"componentId": "row", "path": "/issues"}}));
        components.push(json!({"id": "row", "component": "Text", "text": {"@path": "title"}}));
    }
    json!({"version": "v1.0", "createSurface": {"surfaceId": "s", "catalogId": "c",
        "dataModel": {"repository": "a2ui/a2ui"}, "components": components}})
}

fn chains(c: &mut Criterion) {
    let env = Environment::new();
    let root = JsonPointer::root();
    let mut g = c.benchmark_group(if cfg!(feature = "bench-mimalloc") {
        "chains_mimalloc"
    } else {
        "chains"
    });
    g.sample_size(30);
    for n in [1_000, 10_000] {
        let cases = [
            (
                "json",
                env.compile(&json_chain()).unwrap(),
                server("list_issues", issues_text(n)),
                json!({"repository": "a2ui/a2ui"}),
            ),
            (
                "text",
                env.compile(&text_chain()).unwrap(),
                server("tavily-search", search_text(n)),
                json!({"query": "a2ui mcp"}),
            ),
        ];
        // The same json chain under docs/mcp.md's five-line policy (read-only anywhere, the rest
        // after a tap with consent, only from the surface's own server), evaluated as a binding
        // of a surface that came from the server: the policy allows, so the difference with
        // `json` is its cost (tool list held, annotations read, provenance compared).
        let policy = ReadOnlyUnlessUserAction::trusting(["github"])
            .and(SameServerAsSource)
            .and(ConsentForDestructive::new(|_| Box::pin(async { false })));
        let policy_server = annotated_server(issues_text(n));
        let host = policy_server.host().with_policy(policy);
        let payload = env.compile(&json_chain()).unwrap();
        let surface = Invocation::new(Origin::Binding)
            .with_source(Provenance::new("show_issues", Some("github".into())));
        let data = json!({"repository": "a2ui/a2ui"});
        g.bench_function(BenchmarkId::new("json-policy", n), |b| {
            b.iter_batched(
                || {
                    policy_server.stage_next_results();
                    SharedModel::new(data.clone())
                },
                |model| {
                    block_on(payload.eval_async_from(&model, &root, &host, &surface)).unwrap();
                    model
                },
                criterion::BatchSize::PerIteration,
            )
        });
        // The json chain as a user taps it on a surface: the Button's action stops at the
        // tool call, the run goes to the host, the host's answer (the scripted server's,
        // prepared) resumes it into the surface's own model, the List draws its rows and the
        // changes are taken. The processor and its surface are made outside the timing.
        let tap_server = server("list_issues", issues_text(n));
        let tap_host = tap_server.host();
        for (name, with_list) in [("surface-tap", false), ("surface-tap-list", true)] {
            let tap_surface = tap_surface(with_list);
            g.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter_batched(
                    || {
                        tap_server.stage_next_results();
                        let mut p = Processor::new(
                            ProcessorOptions::default()
                                .with_accept_unregistered_catalogs(true)
                                .with_live(ResolveLimits::default()),
                        );
                        p.process(&tap_surface).unwrap();
                        p.take_changes();
                        p
                    },
                    |mut p| {
                        let tap = p.activate("s", "button", &root, "t").unwrap();
                        assert!(tap.run.is_some());
                        for run in p.take_tool_runs() {
                            let done = block_on(run.execute(&tap_host));
                            assert!(matches!(p.finish_tool_run(done), RunOutcome::Done(_)));
                        }
                        std::hint::black_box(p.take_changes());
                        p
                    },
                    criterion::BatchSize::PerIteration,
                )
            });
        }
        // The text chain's output alone: the rows the data model receives (one `serde_json`
        // map per record, each from a clone of the keys' template, as the engine builds
        // them), from the records' title and URL found beforehand. The floor for any chain
        // whose data model holds `serde_json` values.
        let search = search_text(n);
        let pairs: Vec<(&str, &str)> = search
            .split("\n\n")
            .filter_map(|block| {
                let mut lines = block.lines();
                let title = lines.next()?.strip_prefix("Title: ")?;
                let url = lines.next()?.strip_prefix("URL: ")?;
                Some((title, url))
            })
            .collect();
        assert_eq!(pairs.len(), n);
        let mut template = serde_json::Map::new();
        template.insert("title".to_owned(), Value::Null);
        template.insert("url".to_owned(), Value::Null);
        g.bench_function(BenchmarkId::new("text-output", n), |b| {
            // Dropped outside the timing, as the chains' models are.
            b.iter_batched(
                || (),
                |()| {
                    let rows: Vec<Value> = std::hint::black_box(&pairs)
                        .iter()
                        .map(|&(title, url)| {
                            let mut row = serde_json::Map::with_capacity(2);
                            row.clone_from(&template);
                            let mut values = row.values_mut();
                            if let Some(v) = values.next() {
                                *v = Value::String(title.to_owned());
                            }
                            if let Some(v) = values.next() {
                                *v = Value::String(url.to_owned());
                            }
                            Value::Object(row)
                        })
                        .collect();
                    // Not `json!`, which would serialize `rows` into a copy.
                    let mut out = serde_json::Map::with_capacity(1);
                    out.insert("/results".to_owned(), Value::Array(rows));
                    Value::Object(out)
                },
                criterion::BatchSize::LargeInput,
            )
        });
        let text = issues_text(n);
        g.bench_function(BenchmarkId::new("depth-pass", n), |b| {
            b.iter(|| a2ui_catalog_mcp::json::nests_deeper_than(std::hint::black_box(&text), 128))
        });
        // The reader's checking pass alone over the same text (grammar, depth, numbers, and
        // the structure decoding reads): what the json chain costs at least before it decodes.
        #[cfg(feature = "internals")]
        g.bench_function(BenchmarkId::new("scan", n), |b| {
            b.iter(|| a2ui_catalog_mcp::json::tool_text_checks(std::hint::black_box(&text), 128))
        });
        // `serde_json` checking the same text and building nothing (`IgnoredAny`): a tuned
        // scalar validator, the yardstick for `scan`, which also records the structure.
        g.bench_function(BenchmarkId::new("serde-validate", n), |b| {
            b.iter(|| {
                serde_json::from_str::<serde::de::IgnoredAny>(std::hint::black_box(&text)).unwrap()
            })
        });
        let call_only = json!({"@call": "updateDataModel", "args": {"updates": {"@call": "transformData", "args": {
            "jmespath": "{\"/tool\": toolName}",
            "data": {"@call": "callMcpTool", "args": {"name": "list_issues", "arguments": {"repository": {"@path": "/repository"}}}}
        }}}});
        let call_only = env.compile(&call_only).unwrap();
        // The call alone runs as the chains do: it is one more case.
        let mut cases = Vec::from(cases);
        cases.insert(
            0,
            (
                "json-call",
                call_only,
                server("list_issues", text),
                json!({"repository": "a2ui/a2ui"}),
            ),
        );
        for (name, payload, server, data) in cases {
            let host = server.host();
            g.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter_batched(
                    || {
                        server.stage_next_results();
                        SharedModel::new(data.clone())
                    },
                    |model| {
                        block_on(payload.eval_async(&model, &root, &host)).unwrap();
                        model
                    },
                    criterion::BatchSize::PerIteration,
                )
            });
        }
    }
    g.finish();
}

criterion_group!(benches, chains);
criterion_main!(benches);
