//! "Latest started call wins" across threads: eight threads make 1 000 `callMcpTool` calls to
//! one `targetDataPath`, completing in scrambled order, some with a result slow to build. The
//! model logs every write it receives: a call may write only while no newer call has started,
//! so the writes come in start order and the latest started call's value is what stays.
#![cfg(feature = "testing")]

use a2ui_catalog_mcp::mcp::{BoxFuture, HostError, McpHost, ToolClient};
use a2ui_catalog_mcp::testing::block_on;
use a2ui_catalog_mcp::{
    DataModel, Environment, Error, JsonPointer, SharedModel, data_model::Write,
};
use serde_json::{Value, json};
use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

const THREADS: u64 = 8;
const CALLS: u64 = 1000;

/// A turnstile that lets one call start at a time: a thread passes it before it begins an
/// evaluation, and the client reopens it once the call is sent (the model has then recorded
/// the call as started), so the client's numbering is the model's start order.
#[derive(Default)]
struct Turnstile {
    busy: Mutex<bool>,
    open: Condvar,
}

impl Turnstile {
    fn enter(&self) {
        let mut busy = self.busy.lock().unwrap();
        while *busy {
            busy = self.open.wait(busy).unwrap();
        }
        *busy = true;
    }

    fn leave(&self) {
        *self.busy.lock().unwrap() = false;
        self.open.notify_one();
    }
}

/// Numbers the calls as they are sent; a scrambled delay per call; one call in four returns a
/// large result (slow to parse and to build into the response value).
struct Numbering {
    sent: AtomicU64,
    turnstile: Arc<Turnstile>,
}

/// A fixed scramble of the call numbers (xorshift), so that a failure reproduces.
fn scramble(n: u64) -> u64 {
    let mut x = n.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    x
}

impl ToolClient for Numbering {
    fn call_tool<'a>(
        &'a self,
        _name: &'a str,
        _arguments: &'a Value,
        _meta: Option<&'a Value>,
    ) -> BoxFuture<'a, Result<Value, HostError>> {
        Box::pin(async move {
            let n = self.sent.fetch_add(1, Ordering::SeqCst);
            self.turnstile.leave();
            let r = scramble(n);
            std::thread::sleep(Duration::from_micros(r % 1000));
            let rows = if r.is_multiple_of(4) { 4_000 } else { 1 };
            let rows: Vec<Value> = (0..rows).map(|i| json!({"id": i, "name": "row"})).collect();
            let text = json!({"n": n, "rows": rows}).to_string();
            Ok(json!({"content": [{"type": "text", "text": text}]}))
        })
    }

    fn read_resource<'a>(&'a self, uri: &'a str) -> BoxFuture<'a, Result<Value, HostError>> {
        Box::pin(async move { Err(format!("no resource {uri}").into()) })
    }
}

/// A model that records the call number of every write to `/out`.
#[derive(Default)]
struct Logged {
    value: Value,
    writes: Vec<u64>,
}

impl DataModel for Logged {
    fn read(&self, path: &JsonPointer) -> Option<Cow<'_, Value>> {
        self.value.read(path)
    }

    fn apply(&mut self, writes: Vec<Write>, max_index: usize) -> Result<(), Error> {
        for write in &writes {
            if let Some(n) = write.value.pointer("/json/n").and_then(Value::as_u64) {
                self.writes.push(n);
            }
        }
        self.value.apply(writes, max_index)
    }
}

#[test]
fn the_latest_started_call_stays_with_eight_threads() {
    let turnstile = Arc::new(Turnstile::default());
    let client = Arc::new(Numbering {
        sent: AtomicU64::new(0),
        turnstile: turnstile.clone(),
    });
    let host = McpHost::new(client.clone());
    let payload = Environment::new()
        .compile(
            &json!({"@call": "callMcpTool", "args": {"name": "work", "targetDataPath": "/out"}}),
        )
        .unwrap();
    let model = SharedModel::new(Logged {
        value: json!({}),
        writes: Vec::new(),
    });
    std::thread::scope(|scope| {
        for _ in 0..THREADS {
            scope.spawn(|| {
                for _ in 0..CALLS / THREADS {
                    turnstile.enter();
                    block_on(payload.eval_async(&model, &JsonPointer::root(), &host)).unwrap();
                }
            });
        }
    });
    let model = model.into_inner();
    assert_eq!(client.sent.load(Ordering::SeqCst), CALLS);
    let last = CALLS - 1;
    assert_eq!(
        model.value.pointer("/out/json/n"),
        Some(&json!(last)),
        "the latest started call's value stays (writes: {:?})",
        model.writes
    );
    let late: Vec<_> = model.writes.windows(2).filter(|w| w[0] >= w[1]).collect();
    assert!(
        late.is_empty(),
        "an older call wrote after a newer one: {late:?} ({} writes)",
        model.writes.len()
    );
}
