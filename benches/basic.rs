//! The basic catalog (issue 23): formatString's template over 10 000 rows, formatCurrency and
//! formatNumber over 10 000 values, formatDate over 10 000 timestamps, and the template's
//! compile time. The reference, run in the same session: `node benches/node/basic/basic_catalog.js`
//! (web_core 0.11.0's own formatString and formatDate, Node's cached `Intl.NumberFormat`), over
//! the same rows and values. Figures: docs/performance.md.

use a2ui_catalog_mcp::basic::{BASIC_CATALOG_ID, BasicCatalog};
use a2ui_catalog_mcp::{Environment, JsonPointer, Payload};
use criterion::{Criterion, criterion_group, criterion_main};
use serde_json::{Value, json};
use std::hint::black_box;

const N: usize = 10_000;
const TEMPLATE: &str = "${name}: ${formatCurrency(value: ${price}, currency: 'EUR')} (${pluralize(value: ${count}, one: 'one item', other: 'many items')})";

/// The rows, values and timestamps of benches/node/basic/basic_catalog.js.
fn model() -> Value {
    let rows: Vec<Value> = (0..N)
        .map(|i| json!({"name": format!("item {i}"), "price": ((i * 37) % 10000) as f64 / 7.0, "count": i % 3}))
        .collect();
    let values: Vec<Value> = (0..N)
        .map(|i| json!(((i * 37) % 10000) as f64 / 7.0 * 13.7 - 5000.0))
        .collect();
    let stamps: Vec<Value> = (0..N)
        .map(|i| json!(1.7e12 as i64 + i as i64 * 3_600_000 * 7))
        .collect();
    json!({"rows": rows, "values": values, "stamps": stamps})
}

fn env() -> Environment {
    Environment::new()
        .with_catalog(BasicCatalog::new().build())
        .with_default_catalog(BASIC_CATALOG_ID)
}

fn contexts(prefix: &str) -> Vec<JsonPointer> {
    (0..N)
        .map(|i| JsonPointer::parse(&format!("/{prefix}/{i}")).unwrap())
        .collect()
}

/// Evaluates `payload` in each context, as a renderer evaluates one label per row.
fn sweep(payload: &Payload, model: &Value, contexts: &[JsonPointer]) -> usize {
    let mut total = 0;
    for cx in contexts {
        total += payload
            .eval_read(model, cx)
            .unwrap()
            .as_str()
            .map_or(0, str::len);
    }
    total
}

fn bench(c: &mut Criterion) {
    let env = env();
    let model = model();
    let mut g = c.benchmark_group("basic");
    g.sample_size(15);

    let template = json!({"@call": "formatString", "args": {"value": TEMPLATE}});
    g.bench_function("compile the template", |b| {
        b.iter(|| env.compile(black_box(&template)).unwrap())
    });

    let rows = contexts("rows");
    let label = env.compile(&template).unwrap();
    g.bench_function("formatString, 10000 rows", |b| {
        b.iter(|| {
            let mut total = 0;
            for row in &rows {
                total += label
                    .eval_read(&model, row)
                    .unwrap()
                    .as_str()
                    .map_or(0, str::len);
            }
            total
        })
    });

    let values = contexts("values");
    let currency = env
        .compile(&json!({"@call": "formatCurrency", "args": {"value": {"@path": ""}, "currency": "EUR"}}))
        .unwrap();
    g.bench_function("formatCurrency EUR, 10000 values", |b| {
        b.iter(|| sweep(&currency, &model, &values))
    });
    let number = env
        .compile(&json!({"@call": "formatNumber", "args": {"value": {"@path": ""}, "decimals": 2}}))
        .unwrap();
    g.bench_function("formatNumber 2 decimals, 10000 values", |b| {
        b.iter(|| sweep(&number, &model, &values))
    });
    floors(&mut g, &env, &model, &values);
    let stamps = contexts("stamps");
    let date = env
        .compile(&json!({"@call": "formatDate", "args": {"value": {"@path": ""}, "format": "yyyy-MM-dd HH:mm"}}))
        .unwrap();
    g.bench_function("formatDate, 10000 timestamps", |b| {
        b.iter(|| sweep(&date, &model, &stamps))
    });
    g.finish();
}

/// Where formatCurrency's and formatNumber's time goes: the evaluator alone (a call site of
/// `abs` over the same values), and ICU4X's formatters alone on decimals rounded beforehand
/// (no evaluation, no conversion of the double): the floor to set against ICU4C in Node.
fn floors(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    env: &Environment,
    model: &Value,
    values: &[JsonPointer],
) {
    use fixed_decimal::{Decimal, FloatPrecision};
    use icu_decimal::DecimalFormatter;
    use icu_experimental::dimension::currency::CurrencyType;
    use icu_experimental::dimension::currency::formatter::CurrencyFormatter;
    use writeable::Writeable;

    // As the crate writes its results: once, into a string of 32 bytes.
    fn text(w: &impl Writeable) -> String {
        let mut out = String::with_capacity(32);
        let _ = w.write_to(&mut out);
        out
    }
    let abs = env
        .compile(&json!({"@call": "abs", "args": {"value": {"@path": ""}}}))
        .unwrap();
    g.bench_function("floor: the evaluator alone (abs), 10000 values", |b| {
        b.iter(|| {
            values
                .iter()
                .map(|cx| abs.eval_read(model, cx).unwrap().is_number() as usize)
                .sum::<usize>()
        })
    });
    let locale: icu_locale_core::Locale = "en-US".parse().unwrap();
    let decimals: Vec<Decimal> = model["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let mut d =
                Decimal::try_from_f64(v.as_f64().unwrap(), FloatPrecision::RoundTrip).unwrap();
            d.round(-2);
            d.absolute.pad_end(-2);
            d
        })
        .collect();
    let eur = CurrencyType::try_from_str("eur").unwrap();
    let currency =
        CurrencyFormatter::try_new_symbol((&locale).into(), eur, Default::default()).unwrap();
    g.bench_function(
        "floor: ICU4X CurrencyFormatter alone, 10000 decimals",
        |b| {
            b.iter(|| {
                decimals
                    .iter()
                    .map(|d| text(&currency.format_fixed_decimal(d)).len())
                    .sum::<usize>()
            })
        },
    );
    let number = DecimalFormatter::try_new((&locale).into(), Default::default()).unwrap();
    g.bench_function("floor: ICU4X DecimalFormatter alone, 10000 decimals", |b| {
        b.iter(|| {
            decimals
                .iter()
                .map(|d| text(&number.format(d)).len())
                .sum::<usize>()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
