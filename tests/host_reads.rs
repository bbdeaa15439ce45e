//! A host function that reads the data model itself: a `formatString` like the basic
//! catalog's, which interpolates `${/order/total}` and
//! `${formatCurrency(value: ${/order/total}, currency: 'USD')}`. It reads the model through
//! `CallContext::read`, relative to the data context, and declares at compile time, from its
//! literal template, the paths it will read (`Function::reads`), so that the payload's
//! dependencies stay exact.

use a2ui_catalog_mcp::reactive::{ChangeSet, PathIndex};
use a2ui_catalog_mcp::{
    Args, CallContext, Catalog, Environment, Error, ErrorCode, Function, JsonPointer,
    functions::{ArgSchema, Prepared, Reads, StaticArg, StaticArgs},
};
use serde_json::{Value, json};

const BASIC: &str = "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

/// One piece of a template.
#[derive(Debug, Clone, PartialEq)]
enum Part {
    Text(String),
    /// `${/order/total}`, `${name}`.
    Path(String),
    /// `${formatCurrency(value: ${/order/total}, currency: 'USD')}`: the function's name and its
    /// named arguments.
    Call(String, Vec<(String, Arg)>),
}

#[derive(Debug, Clone, PartialEq)]
enum Arg {
    Path(String),
    Text(String),
    Number(f64),
}

/// The text inside `${…}` starting at `start` (just after `${`), and where it ends (just after
/// the matching `}`), nested `${…}` included.
fn expression(template: &str, start: usize) -> Result<(&str, usize), String> {
    let bytes = template.as_bytes();
    let (mut depth, mut i) = (1usize, start);
    while i < bytes.len() {
        if bytes[i..].starts_with(b"${") {
            depth += 1;
            i += 2;
            continue;
        }
        if bytes[i] == b'}' {
            depth -= 1;
            if depth == 0 {
                return Ok((&template[start..i], i + 1));
            }
        }
        i += 1;
    }
    Err(format!("'${{' without its '}}' in {template:?}"))
}

fn parse(template: &str) -> Result<Vec<Part>, String> {
    let mut parts = Vec::new();
    let mut rest = 0;
    while let Some(found) = template[rest..].find("${") {
        let open = rest + found;
        if open > rest {
            parts.push(Part::Text(template[rest..open].to_owned()));
        }
        let (inner, end) = expression(template, open + 2)?;
        parts.push(parse_expression(inner.trim())?);
        rest = end;
    }
    if rest < template.len() {
        parts.push(Part::Text(template[rest..].to_owned()));
    }
    Ok(parts)
}

fn parse_expression(inner: &str) -> Result<Part, String> {
    let name_end = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let Some(args) = inner[name_end..].strip_prefix('(') else {
        return Ok(Part::Path(inner.to_owned()));
    };
    let args = args
        .strip_suffix(')')
        .ok_or_else(|| format!("a call without its ')': {inner}"))?;
    let mut out = Vec::new();
    for arg in args.split(',').map(str::trim).filter(|a| !a.is_empty()) {
        let (name, value) = arg
            .split_once(':')
            .ok_or_else(|| format!("an argument without a name: {arg}"))?;
        let value = value.trim();
        let value = if let Some(path) = value.strip_prefix("${").and_then(|v| v.strip_suffix('}')) {
            Arg::Path(path.trim().to_owned())
        } else if let Some(text) = value.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')) {
            Arg::Text(text.to_owned())
        } else {
            Arg::Number(value.parse().map_err(|_| format!("not a value: {value}"))?)
        };
        out.push((name.trim().to_owned(), value));
    }
    Ok(Part::Call(inner[..name_end].to_owned(), out))
}

/// Every path a template reads, nested calls included.
fn paths(parts: &[Part]) -> Vec<String> {
    let mut out = Vec::new();
    for part in parts {
        match part {
            Part::Text(_) => {}
            Part::Path(p) => out.push(p.clone()),
            Part::Call(_, args) => out.extend(args.iter().filter_map(|(_, a)| match a {
                Arg::Path(p) => Some(p.clone()),
                _ => None,
            })),
        }
    }
    out
}

fn text_of(value: &Value) -> String {
    a2ui_catalog_mcp::json::to_js_string(value).into_owned()
}

struct FormatString;

impl FormatString {
    fn failure(message: String) -> Error {
        Error::new(ErrorCode::ExpressionError, message)
    }

    fn render(parts: &[Part], cx: &CallContext<'_>) -> Result<String, Error> {
        let read = |path: &str| -> Result<Value, Error> {
            Ok(cx.read(path)?.map_or(Value::Null, |v| v.into_owned()))
        };
        let mut out = String::new();
        for part in parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Path(p) => out.push_str(&text_of(&read(p)?)),
                Part::Call(name, args) if name == "formatCurrency" => {
                    let mut value = 0.0;
                    let mut currency = String::new();
                    for (arg, v) in args {
                        let v = match v {
                            Arg::Path(p) => read(p)?,
                            Arg::Text(t) => Value::from(t.clone()),
                            Arg::Number(n) => Value::from(*n),
                        };
                        match arg.as_str() {
                            "value" => value = v.as_f64().unwrap_or(f64::NAN),
                            "currency" => currency = text_of(&v),
                            other => {
                                return Err(Self::failure(format!(
                                    "formatCurrency has no argument '{other}'"
                                )));
                            }
                        }
                    }
                    out.push_str(&format!("{value:.2} {currency}"));
                }
                Part::Call(name, _) => {
                    return Err(Self::failure(format!(
                        "formatString cannot call '{name}' in a template"
                    )));
                }
            }
        }
        Ok(out)
    }
}

impl Function for FormatString {
    /// A literal template is parsed once; a malformed one is a compile-time error.
    fn prepare(&self, args: &StaticArgs<'_>) -> Result<Option<Prepared>, Error> {
        match args.get("value") {
            StaticArg::Literal(Value::String(template)) => {
                let parts = parse(template).map_err(Self::failure)?;
                Ok(Some(Box::new(parts)))
            }
            _ => Ok(None),
        }
    }

    /// A literal template says what it reads; a template from the model may read anything.
    fn reads(&self, args: &StaticArgs<'_>) -> Reads {
        match args.get("value") {
            StaticArg::Literal(Value::String(template)) => {
                Reads::Paths(parse(template).map(|p| paths(&p)).unwrap_or_default())
            }
            StaticArg::Literal(_) | StaticArg::Absent => Reads::Paths(Vec::new()),
            StaticArg::Dynamic => Reads::Everything,
        }
    }

    fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
        let parts = match cx.prepared::<Vec<Part>>() {
            Some(parts) => parts.clone(),
            None => parse(&text_of(args.value_or_null("value"))).map_err(Self::failure)?,
        };
        Ok(Value::from(Self::render(&parts, cx)?))
    }
}

/// The basic catalog declared from its JSON, with `formatString` implemented by the host.
fn env() -> Environment {
    let mut basic = Catalog::from_schema_str(include_str!("data/basic-catalog.json")).unwrap();
    basic
        .implement_function("formatString", FormatString)
        .unwrap();

    Environment::new()
        .with_catalog(basic)
        .with_default_catalog(BASIC)
}

fn pointer(text: &str) -> JsonPointer {
    JsonPointer::parse(text).unwrap()
}

fn strings(paths: &[JsonPointer]) -> Vec<String> {
    paths.iter().map(ToString::to_string).collect()
}

const TEMPLATE: &str =
    "${name}: ${/order/total} (${formatCurrency(value: ${/order/total}, currency: 'USD')})";

#[test]
fn the_template_reads_the_model_in_the_data_context() {
    let payload = env()
        .compile(&json!({"@call": "formatString", "args": {"value": TEMPLATE}}))
        .unwrap();
    let mut model = json!({"order": {"total": 12.5}, "rows": [{"name": "Ada"}, {"name": "Lin"}]});
    let value = payload.eval_in(&mut model, &pointer("/rows/1")).unwrap();
    assert_eq!(value, json!("Lin: 12.5 (12.50 USD)"));
    // A missing path reads as null, which prints as nothing (JavaScript's `String(x ?? '')`).
    let value = payload.eval(&mut json!({})).unwrap();
    assert_eq!(value, json!(":  (NaN USD)"));
}

#[test]
fn the_declared_reads_are_dependencies() {
    let payload = env()
        .compile(&json!({"@call": "formatString", "args": {"value": TEMPLATE}}))
        .unwrap();
    assert_eq!(
        strings(&payload.dependencies(&pointer("/rows/1"))),
        ["/order/total", "/rows/1/name"]
    );
    assert!(payload.depends_on_context());
    // A renderer that registered them recomputes the text when the total changes, and only
    // the row whose name changed.
    let mut index = PathIndex::new();
    for row in 0..3 {
        let context = pointer(&format!("/rows/{row}"));
        index.register(row, payload.dependencies(&context));
    }
    let mut changes = ChangeSet::new();
    changes.record(pointer("/rows/2/name"));
    assert_eq!(index.affected(&changes), [2]);
    changes.record(pointer("/order"));
    let mut all = index.affected(&changes);
    all.sort_unstable();
    assert_eq!(all, [0, 1, 2]);
}

#[test]
fn a_template_from_the_model_depends_on_everything() {
    let payload = env()
        .compile(&json!({"@call": "formatString", "args": {"value": {"@path": "/template"}}}))
        .unwrap();
    assert_eq!(
        strings(&payload.dependencies(&pointer("/rows/0"))),
        ["/", "/template"]
    );
    let mut model = json!({"template": "Total: ${/order/total}", "order": {"total": 3}});
    assert_eq!(payload.eval(&mut model).unwrap(), json!("Total: 3"));
}

#[test]
fn reads_of_nested_calls_join_the_bindings() {
    let payload = env()
        .compile(&json!({"@call": "formatString", "args": {"value": {
            "@call": "formatString", "args": {"value": "${/prefix}"}}}}))
        .unwrap();
    // The inner call reads `/prefix` and gives the outer one its template: the outer one may
    // read anything.
    assert_eq!(
        strings(&payload.dependencies(&JsonPointer::root())),
        ["/", "/prefix"]
    );
}

#[test]
fn a_malformed_template_or_declared_path_fails_to_compile() {
    let err = env()
        .compile(&json!({"@call": "formatString", "args": {"value": "${/order/total"}}))
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::ExpressionError);
    assert_eq!(err.function(), Some("formatString"));
    assert!(err.message().contains("without its '}'"), "{err}");

    /// Declares a path that is not one.
    struct BadReads;
    impl Function for BadReads {
        fn reads(&self, _args: &StaticArgs<'_>) -> Reads {
            Reads::Paths(vec!["/a~2b".into()])
        }
        fn call(&self, _args: &mut Args<'_>, _cx: &mut CallContext<'_>) -> Result<Value, Error> {
            Ok(Value::Null)
        }
    }
    let mut env = env();
    env.add_catalog(Catalog::new("x").with_function("bad", ArgSchema::new(), BadReads));
    let err = env
        .compile(&json!({"value": {"@call": "bad", "catalogId": "x"}}))
        .unwrap_err();
    assert_eq!(err.location(), "/value");
    assert!(
        err.message()
            .starts_with("'bad' declares that it reads '/a~2b', which is not a path"),
        "{err}"
    );
}

#[test]
fn reads_see_the_model_before_the_calls_own_writes() {
    /// Writes `/count` + 1 to `/count` and returns what it read.
    struct Bump;
    impl Function for Bump {
        fn reads(&self, _args: &StaticArgs<'_>) -> Reads {
            Reads::Paths(vec!["/count".into()])
        }
        fn may_write(&self, _args: &StaticArgs<'_>) -> bool {
            true
        }
        fn call(&self, _args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
            let before = cx.read("/count")?.and_then(|v| v.as_i64()).unwrap_or(0);
            cx.write("/count", Value::from(before + 1));
            assert_eq!(cx.read("/count")?.and_then(|v| v.as_i64()), Some(before));
            // The reserved tokens read as nothing, as bindings do.
            assert!(cx.read("/__proto__")?.is_none());
            assert_eq!(cx.read("bad~").unwrap_err().code(), ErrorCode::DataError);
            Ok(Value::from(before))
        }
    }
    let mut env = Environment::new();
    env.add_catalog(Catalog::new("x").with_function("bump", ArgSchema::new(), Bump));
    let payload = env
        .compile(&json!([{"@call": "bump", "catalogId": "x"}, {"@call": "bump", "catalogId": "x"}]))
        .unwrap();
    let mut model = json!({"count": 1});
    assert_eq!(payload.eval(&mut model).unwrap(), json!([1, 2]));
    assert_eq!(model, json!({"count": 3}));
    assert!(payload.may_write());
    assert_eq!(
        strings(&payload.dependencies(&JsonPointer::root())),
        ["/count"]
    );
}
