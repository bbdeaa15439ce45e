//! The basic catalog's functions, written once over an argument lookup ([`Get`]) so that the
//! engine's calls and the interpolation of templates from data run the same code.

use super::args::{Get, Kind, arg_error, js_string_number, number_arg, number_value};
use super::shared::Shared;
use super::template::{Expr, Template};
use super::{date, format};
use crate::catalog::{Args, CallContext, Function, Prepared, StaticArg, StaticArgs};
use crate::error::{Error, ErrorCode};
use crate::json::{js_number_string, kind_name};
use crate::limits::{EvalBudget, Limits};
use crate::regex::Pattern;
use serde_json::Value;
use std::sync::Arc;

/// The longest URL `openUrl` opens, in bytes. Web servers commonly refuse a request line past
/// 8 KiB (nginx's and Apache's defaults), so a longer URL would not open anyway; a 100 KB one is
/// most likely data pasted where a link was meant.
pub(crate) const MAX_URL_BYTES: usize = 8 * 1024;

/// A bound of `length` or `numeric` (`min`, `max`): a JSON number, or absent. Unlike the
/// other numeric arguments, numeric text is refused: the catalog declares the bounds
/// `{"type": "number"}`, and the November 2026 rules (a2ui-core 0.5.0) refuse a string or a
/// boolean there, where a silent `Number("abc")` would make every check fail.
fn bound_arg(kind: Kind, value: Option<&Value>, name: &str) -> Result<Option<f64>, Error> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => Ok(n.as_f64()),
        Some(Value::String(s)) => Err(arg_error(
            kind,
            name,
            format!("must be a number, got the text {s:?}"),
        )),
        Some(other) => Err(arg_error(
            kind,
            name,
            format!("must be a number, got {}", kind_name(other)),
        )),
    }
}

/// The bounds of `length` or `numeric`: each a number, `min` not above `max`, and at least one
/// for `length`. The catalog's `anyOf: [{required: [min]}, {required: [max]}]` asks a bound of
/// both, and `check` and strict mode report a call without one
/// (`Environment::set_schema_checks`); when such a call runs anyway, `length` is an error (as
/// it always was) and `numeric` answers `false`: a check with nothing to check against does
/// not pass (it answered `true` before November 2026), and the A2UI suite's D23 case
/// evaluates `numeric` without a bound and wants `false`, not an error.
fn bounds(kind: Kind, args: &(impl Get + ?Sized)) -> Result<(Option<f64>, Option<f64>), Error> {
    let min = bound_arg(kind, args.get("min"), "min")?;
    let max = bound_arg(kind, args.get("max"), "max")?;
    if kind == Kind::Length || min.is_some() || max.is_some() {
        check_bounds(kind, min, max)?;
    }
    Ok((min, max))
}

fn check_bounds(kind: Kind, min: Option<f64>, max: Option<f64>) -> Result<(), Error> {
    match (min, max) {
        (None, None) => Err(arg_error(
            kind,
            "min",
            "or 'max' must be given: the check needs at least one bound",
        )),
        (Some(lo), Some(hi)) if lo > hi => Err(arg_error(
            kind,
            "min",
            // Rust prints whole doubles without a fraction, as JavaScript does.
            format!("({lo}) is greater than 'max' ({hi}): no value can pass"),
        )),
        _ => Ok(()),
    }
}

fn required_number(kind: Kind, args: &(impl Get + ?Sized), name: &str) -> Result<f64, Error> {
    number_arg(kind, args, name)?.ok_or_else(|| arg_error(kind, name, "must be a number, got null"))
}

/// A string argument (`null` and absent: `None`).
fn string_arg<'v>(
    kind: Kind,
    args: &'v (impl Get + ?Sized),
    name: &str,
) -> Result<Option<&'v str>, Error> {
    match args.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(arg_error(
            kind,
            name,
            format!("must be a string, got {}", kind_name(other)),
        )),
    }
}

/// An array argument of at least two values (`and`, `or`, `min`, `max`).
fn values_arg(kind: Kind, args: &(impl Get + ?Sized)) -> Result<&[Value], Error> {
    match args.get("values") {
        Some(Value::Array(items)) if items.len() >= 2 => Ok(items),
        Some(Value::Array(items)) => Err(arg_error(
            kind,
            "values",
            format!("needs at least 2 values, got {}", items.len()),
        )),
        other => Err(arg_error(
            kind,
            "values",
            format!(
                "must be an array, got {}",
                kind_name(other.unwrap_or(&Value::Null))
            ),
        )),
    }
}

/// A result JSON can hold: `x / 0` and `NaN` cannot.
fn finite(kind: Kind, n: f64) -> Result<Value, Error> {
    if n.is_finite() {
        Ok(number_value(n))
    } else {
        Err(Error::new(
            ErrorCode::ExpressionError,
            format!(
                "{}: the result is {} , which JSON cannot hold",
                kind.name(),
                if n.is_nan() { "NaN" } else { "infinite" }
            )
            .replace(" ,", ","),
        )
        .with_function(kind.name()))
    }
}

/// JavaScript truthiness, with v1.0 `validationResult` objects read by their `valid`.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) => true,
        Value::Object(map) => match map.get("valid") {
            Some(valid) => truthy(valid),
            None => true,
        },
    }
}

/// `String(v)` as formatString prints a value: `null` as `""`, objects and arrays as JSON.
pub(crate) fn display(v: &Value, out: &mut String) {
    match v {
        Value::Null => {}
        Value::String(s) => out.push_str(s),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&js_number_string(n)),
        other => out.push_str(&other.to_string()),
    }
}

/// UTF-16 code units, as JavaScript's `length` counts.
fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// The reference's ASCII email check: `local@domain.tld`, the local part of letters, digits
/// and `._%+-`, the domain of letters, digits, `.` and `-`, a top-level part of 2+ letters.
fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let local_ok = !local.is_empty()
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-'));
    let Some((host, tld)) = domain.rsplit_once('.') else {
        return false;
    };
    let host_ok = !host.is_empty()
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-'));
    local_ok && host_ok && tld.len() >= 2 && tld.bytes().all(|b| b.is_ascii_alphabetic())
}

/// Deep JSON equality, numbers as JavaScript's doubles (`1` equals `1.0`).
fn json_equal(a: &Value, b: &Value) -> bool {
    crate::json::deep_equal(a, b, |x, y| x.as_f64() == y.as_f64())
}

/// Math.round: halves go up (toward +∞).
fn js_round(x: f64) -> f64 {
    let floor = x.floor();
    if x - floor >= 0.5 { floor + 1.0 } else { floor }
}

impl Shared {
    /// Runs a function (all but formatString, which needs the call's context) on evaluated
    /// arguments; a regex compiled now is charged to `budget`.
    pub(crate) fn run(
        &self,
        kind: Kind,
        args: &(impl Get + ?Sized),
        limits: &Limits,
        budget: Option<&EvalBudget>,
    ) -> Result<Value, Error> {
        Ok(match kind {
            Kind::Required => Value::Bool(match args.get("value") {
                None | Some(Value::Null) => false,
                Some(Value::String(s)) => !s.is_empty(),
                Some(Value::Array(a)) => !a.is_empty(),
                Some(_) => true,
            }),
            Kind::Regex => {
                let pattern = string_arg(kind, args, "pattern")?.unwrap_or("");
                let pattern = self
                    .pattern(pattern, limits, budget)
                    .map_err(|e| e.with_function(kind.name()))?;
                let value = crate::json::to_js_string(args.get("value").unwrap_or(&Value::Null));
                Value::Bool(pattern.is_match(&value))
            }
            Kind::Length => {
                let len = match args.get("value") {
                    None | Some(Value::Null) => 0,
                    Some(Value::String(s)) => utf16_len(s),
                    Some(Value::Array(a)) => a.len(),
                    Some(other) => {
                        return Err(arg_error(
                            kind,
                            "value",
                            format!("must be a string or an array, got {}", kind_name(other)),
                        ));
                    }
                };
                let (min, max) = bounds(kind, args)?;
                let len = len as f64;
                Value::Bool(min.is_none_or(|m| len >= m) && max.is_none_or(|m| len <= m))
            }
            Kind::Numeric => {
                let n = match args.get("value") {
                    Some(Value::Number(n)) => n.as_f64(),
                    Some(Value::String(s)) if !s.trim().is_empty() => js_string_number(s),
                    _ => None,
                };
                let (min, max) = bounds(kind, args)?;
                let bounded = min.is_some() || max.is_some();
                Value::Bool(
                    bounded
                        && n.is_some_and(|n| {
                            n.is_finite()
                                && min.is_none_or(|m| n >= m)
                                && max.is_none_or(|m| n <= m)
                        }),
                )
            }
            Kind::Email => Value::Bool(match args.get("value") {
                Some(Value::String(s)) => is_email(s),
                _ => false,
            }),
            Kind::FormatString => {
                // Reached from a template from data only: a nested formatString there would
                // interpolate text again without bound.
                return Err(Error::new(
                    ErrorCode::ExpressionError,
                    "formatString cannot be called inside a template that comes from data",
                )
                .with_function(kind.name()));
            }
            Kind::FormatNumber => format::format_number(self, args, None)?,
            Kind::FormatCurrency => format::format_currency(self, args, None)?,
            Kind::FormatDate => date::format_date(self, args)?,
            Kind::Pluralize => format::pluralize(self, args)?,
            Kind::OpenUrl => self.open_url(args)?,
            Kind::And => Value::Bool(values_arg(kind, args)?.iter().all(truthy)),
            Kind::Or => Value::Bool(values_arg(kind, args)?.iter().any(truthy)),
            Kind::Not => Value::Bool(!truthy(args.get("value").unwrap_or(&Value::Null))),
            Kind::Add | Kind::Subtract | Kind::Multiply | Kind::Divide => {
                let a = required_number(kind, args, "a")?;
                let b = required_number(kind, args, "b")?;
                finite(
                    kind,
                    match kind {
                        Kind::Add => a + b,
                        Kind::Subtract => a - b,
                        Kind::Multiply => a * b,
                        _ => a / b,
                    },
                )?
            }
            Kind::GreaterThan => {
                Value::Bool(required_number(kind, args, "a")? > required_number(kind, args, "b")?)
            }
            Kind::LessThan => {
                Value::Bool(required_number(kind, args, "a")? < required_number(kind, args, "b")?)
            }
            Kind::Equals | Kind::NotEquals => {
                let a = args.get("a").unwrap_or(&Value::Null);
                let b = args.get("b").unwrap_or(&Value::Null);
                Value::Bool(json_equal(a, b) == (kind == Kind::Equals))
            }
            Kind::Contains | Kind::StartsWith | Kind::EndsWith => {
                let (other, test): (&str, fn(&str, &str) -> bool) = match kind {
                    Kind::Contains => ("substring", |s, t| s.contains(t)),
                    Kind::StartsWith => ("prefix", |s, t| s.starts_with(t)),
                    _ => ("suffix", |s, t| s.ends_with(t)),
                };
                let s = string_arg(kind, args, "string")?.unwrap_or("");
                let t = string_arg(kind, args, other)?.unwrap_or("");
                Value::Bool(test(s, t))
            }
            Kind::Clamp => {
                let v = required_number(kind, args, "value")?;
                let min = required_number(kind, args, "min")?;
                let max = required_number(kind, args, "max")?;
                if min > max {
                    return Err(arg_error(
                        kind,
                        "min",
                        format!("({min}) is greater than 'max' ({max})"),
                    ));
                }
                number_value(v.max(min).min(max))
            }
            Kind::Round => {
                let v = required_number(kind, args, "value")?;
                let decimals = match number_arg(kind, args, "decimals")? {
                    None => 0,
                    Some(d) if d.fract() == 0.0 && (0.0..=20.0).contains(&d) => d as i32,
                    Some(d) => {
                        return Err(arg_error(
                            kind,
                            "decimals",
                            format!("must be an integer from 0 to 20, got {d}"),
                        ));
                    }
                };
                let scale = 10f64.powi(decimals);
                let scaled = v * scale;
                finite(
                    kind,
                    if scaled.is_finite() {
                        js_round(scaled) / scale
                    } else {
                        v
                    },
                )?
            }
            Kind::Min | Kind::Max => {
                let values = values_arg(kind, args)?;
                let mut best: Option<f64> = None;
                for (i, v) in values.iter().enumerate() {
                    let n = match v {
                        Value::Number(n) => n.as_f64().unwrap_or(0.0),
                        other => {
                            return Err(arg_error(
                                kind,
                                &format!("values/{i}"),
                                format!("must be a number, got {}", kind_name(other)),
                            ));
                        }
                    };
                    best = Some(match best {
                        None => n,
                        Some(b) if kind == Kind::Min => b.min(n),
                        Some(b) => b.max(n),
                    });
                }
                number_value(best.unwrap_or(0.0))
            }
            Kind::Abs => number_value(required_number(kind, args, "value")?.abs()),
        })
    }

    /// A regex of the crate's dialect, checked and compiled once per text (a cache bounded by
    /// entries and bytes); compiled outside the cache's hold, it is charged to `budget`.
    fn pattern(
        &self,
        pattern: &str,
        limits: &Limits,
        budget: Option<&EvalBudget>,
    ) -> Result<Pattern, Error> {
        self.patterns
            .get(pattern, limits, budget)?
            .map_err(|e| Error::new(ErrorCode::ExpressionError, e.message().to_owned()))
    }

    fn open_url(&self, args: &(impl Get + ?Sized)) -> Result<Value, Error> {
        let kind = Kind::OpenUrl;
        let url = string_arg(kind, args, "url")?
            .ok_or_else(|| arg_error(kind, "url", "must be a string, got null"))?;
        self.url_verdict(url)?;
        self.url_requests.push(url.to_owned());
        Ok(Value::Null)
    }

    /// Whether the host opens this URL: a URI of the published form (`scheme:…`, no
    /// whitespace: [`uri_format_problem`](crate::json::uri_format_problem)), no longer than
    /// [`MAX_URL_BYTES`], of a scheme the host allows. `javascript:` has the form; it is
    /// refused because no host allows it by default (`BasicCatalog::with_allowed_scheme` is the
    /// host's decision), so the message names the scheme rather than the form.
    fn url_verdict(&self, url: &str) -> Result<(), Error> {
        let kind = Kind::OpenUrl;
        if url.len() > MAX_URL_BYTES {
            return Err(arg_error(
                kind,
                "url",
                format!(
                    "is {} bytes long, more than the {MAX_URL_BYTES} a URL to open may have",
                    url.len()
                ),
            ));
        }
        if let Some(why) = crate::json::uri_format_problem(url) {
            let shown: String = url.chars().take(80).collect();
            let more = if shown.len() < url.len() { "…" } else { "" };
            return Err(arg_error(
                kind,
                "url",
                format!("is not a URI: {shown:?}{more} {why}"),
            ));
        }
        let scheme = url
            .split_once(':')
            .map(|(s, _)| s.to_ascii_lowercase())
            .unwrap_or_default();
        if self.schemes.contains(&scheme) {
            Ok(())
        } else {
            Err(arg_error(
                kind,
                "url",
                format!(
                    "uses the scheme '{scheme}', which the host does not open (allowed: {})",
                    self.schemes.join(", ")
                ),
            ))
        }
    }

    /// Interpolates a template that came from data: paths read through `read`, calls to the
    /// catalog's pure functions only.
    pub(crate) fn interpolate(
        &self,
        template: &Template,
        read: &dyn Fn(&str) -> Result<Value, Error>,
        spend: &dyn Fn(usize) -> Result<(), Error>,
        limits: &Limits,
        budget: Option<&EvalBudget>,
    ) -> Result<String, Error> {
        let mut out = String::new();
        for part in template.parts() {
            let v = self.eval_expr(part, read, limits, budget)?;
            let before = out.len();
            display(&v, &mut out);
            // Charged as it grows: many calls of one template each stay within what the
            // evaluation has left, not a fresh max_output_bytes each.
            spend(out.len() - before)?;
            if out.len() > limits.max_output_bytes {
                return Err(Error::new(
                    ErrorCode::LimitExceeded,
                    format!(
                        "formatString: the output has more than {} bytes of text",
                        limits.max_output_bytes
                    ),
                ));
            }
        }
        Ok(out)
    }

    /// One expression's value. The parsed tree is at most `template::MAX_NESTING` deep, so
    /// this recursion is bounded.
    fn eval_expr(
        &self,
        expr: &Expr,
        read: &dyn Fn(&str) -> Result<Value, Error>,
        limits: &Limits,
        budget: Option<&EvalBudget>,
    ) -> Result<Value, Error> {
        match expr {
            Expr::Literal(v) => Ok(v.clone()),
            Expr::Path(p) => read(p),
            Expr::Call(call) => {
                let kind = match Kind::of(&call.name) {
                    Some(Kind::OpenUrl) | Some(Kind::FormatString) | None => {
                        return Err(Error::new(
                            ErrorCode::ExpressionError,
                            format!(
                                "formatString: a template that comes from data may call the basic catalog's pure functions only, not '{}'",
                                call.name
                            ),
                        )
                        .with_function("formatString"));
                    }
                    Some(kind) => kind,
                };
                let mut args = Vec::with_capacity(call.args.len());
                for (name, e) in &call.args {
                    args.push((name.clone(), self.eval_expr(e, read, limits, budget)?));
                }
                self.run(kind, args.as_slice(), limits, budget)
            }
        }
    }
}

/// A basic catalog function as the engine calls it.
pub(crate) struct Basic {
    pub(crate) kind: Kind,
    pub(crate) shared: Arc<Shared>,
}

/// What formatString's `prepare` found: the template was expanded at compile time.
struct Expanded;

impl Function for Basic {
    fn prepare(&self, args: &StaticArgs<'_>) -> Result<Option<Prepared>, Error> {
        if self.kind == Kind::FormatString && args.is_expanded("value") {
            return Ok(Some(Box::new(Expanded)));
        }
        // Literal arguments that can never work are found now, each at its argument.
        let literal = |name: &str| match args.get(name) {
            StaticArg::Literal(v) => Some(v),
            _ => None,
        };
        let at = |arg: &'static str| move |e: Error| e.with_location(format!("args/{arg}"));
        match self.kind {
            Kind::FormatNumber | Kind::FormatCurrency | Kind::Round => {
                if matches!(self.kind, Kind::FormatNumber | Kind::FormatCurrency)
                    && let Some(v) = literal("value")
                {
                    format::check_value(self.kind, v).map_err(at("value"))?;
                }
                if let Some(d) = literal("decimals") {
                    format::decimals(self.kind, d).map_err(at("decimals"))?;
                }
                if let Some(g) = literal("grouping")
                    && !g.is_boolean()
                    && !g.is_null()
                {
                    let e = arg_error(
                        self.kind,
                        "grouping",
                        format!("must be a boolean, got {}", kind_name(g)),
                    );
                    return Err(at("grouping")(e));
                }
                if matches!(self.kind, Kind::FormatNumber | Kind::FormatCurrency) {
                    let site = format::Site::prepare(self.kind, args, &self.shared)?;
                    return Ok(Some(Box::new(site)));
                }
            }
            Kind::Regex => {
                if let Some(Value::String(p)) = literal("pattern") {
                    self.shared
                        .pattern(p, args.limits(), None)
                        .map_err(at("pattern"))?;
                }
            }
            Kind::OpenUrl => {
                if let Some(url) = literal("url") {
                    self.shared.check_url(url).map_err(at("url"))?;
                }
            }
            Kind::Length | Kind::Numeric => {
                let kind = self.kind;
                let min = bound_arg(kind, literal("min"), "min").map_err(at("min"))?;
                let max = bound_arg(kind, literal("max"), "max").map_err(at("max"))?;
                // A call without any bound is the catalog schema's to refuse (`check`, strict
                // mode): the suite's D23 case evaluates `numeric` without one and wants `false`.
                check_bounds(
                    kind,
                    min.or(Some(f64::NEG_INFINITY)),
                    max.or(Some(f64::INFINITY)),
                )
                .map_err(at("min"))?;
            }
            _ => {}
        }
        Ok(None)
    }

    fn reads(&self, args: &StaticArgs<'_>) -> crate::catalog::Reads {
        if self.kind == Kind::FormatString
            && !args.is_expanded("value")
            && matches!(args.get("value"), StaticArg::Dynamic)
        {
            // A template from data may read any path.
            return crate::catalog::Reads::Everything;
        }
        crate::catalog::Reads::default()
    }

    fn expand(&self, arg: &str, literal: &Value, _limits: &Limits) -> Result<Option<Value>, Error> {
        if self.kind != Kind::FormatString || arg != "value" {
            return Ok(None);
        }
        let Value::String(text) = literal else {
            return Ok(None);
        };
        let template = Template::parse(text).map_err(|e| e.with_function("formatString"))?;
        let shared = &self.shared;
        Ok(Some(template.to_payload(&|name| shared.catalog_of(name))))
    }

    fn call(&self, args: &mut Args<'_>, cx: &mut CallContext<'_>) -> Result<Value, Error> {
        match self.kind {
            Kind::FormatNumber => {
                let site = cx.prepared::<format::Site>();
                return format::format_number(&self.shared, args, site);
            }
            Kind::FormatCurrency => {
                let site = cx.prepared::<format::Site>();
                return format::format_currency(&self.shared, args, site);
            }
            _ => {}
        }
        if self.kind != Kind::FormatString {
            return self.shared.run(self.kind, args, cx.limits(), cx.budget);
        }
        let value = args.get("value").unwrap_or(&Value::Null);
        if cx.prepared::<Expanded>().is_some() {
            let mut out = String::new();
            if let Value::Array(parts) = value {
                for part in parts {
                    display(part, &mut out);
                }
            }
            cx.check_output(1, out.len())?;
            cx.spend_bytes(out.len(), "formatString's output")?;
            return Ok(Value::String(out));
        }
        let Value::String(text) = value else {
            let mut out = String::new();
            display(value, &mut out);
            return Ok(Value::String(out));
        };
        let template = self.shared.template(text, cx.limits())?;
        let read = |path: &str| -> Result<Value, Error> {
            match cx.read(path)? {
                Some(v) => {
                    cx.spend_copy(&v, "formatString's copy of a value its template reads")?;
                    Ok(v.into_owned())
                }
                None => Ok(Value::Null),
            }
        };
        let spend = |n: usize| cx.spend_bytes(n, "formatString's output");
        let out = self
            .shared
            .interpolate(&template, &read, &spend, cx.limits(), cx.budget)?;
        Ok(Value::String(out))
    }
}

impl Shared {
    /// A template from data, parsed once per distinct text (bounded cache).
    fn template(&self, text: &str, limits: &Limits) -> Result<Arc<Template>, Error> {
        if let Some(t) = self.templates.get(text) {
            return Ok(t);
        }
        // Only parsed templates are kept: a bad one fails fast (the parser is linear and
        // bounded), and an error is not worth a cache slot.
        let t = Template::parse(text)
            .map(Arc::new)
            .map_err(|e| e.with_function("formatString"))?;
        self.templates
            .insert_within(Arc::from(text), Arc::clone(&t), limits.cache_capacity);
        Ok(t)
    }

    fn check_url(&self, url: &Value) -> Result<(), Error> {
        let Value::String(u) = url else {
            return Err(arg_error(
                Kind::OpenUrl,
                "url",
                format!("must be a string, got {}", kind_name(url)),
            ));
        };
        self.url_verdict(u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_numbers() {
        assert_eq!(js_string_number(" 42.5 "), Some(42.5));
        assert_eq!(js_string_number(""), Some(0.0));
        assert_eq!(js_string_number("0x1F"), Some(31.0));
        assert_eq!(js_string_number("1e3"), Some(1000.0));
        assert_eq!(js_string_number("abc"), None);
        assert_eq!(js_string_number("1,5"), None);
        assert_eq!(js_round(2.5), 3.0);
        assert_eq!(js_round(-2.5), -2.0);
        assert_eq!(js_round(-2.6), -3.0);
    }

    #[test]
    fn emails() {
        assert!(is_email("user@example.com"));
        assert!(!is_email("test@test.c"));
        assert!(!is_email("invalid-email"));
        assert!(!is_email("a@b@c.de"));
    }
}
