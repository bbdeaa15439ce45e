//! Values during evaluation: borrowed from the input or the expression where possible, owned
//! (behind `Rc`, so copies are cheap) where an expression builds them. Deep comparisons, JSON
//! text and the final `serde_json::Value` are all produced with explicit stacks, so deeply
//! nested input cannot overflow the call stack.

use super::ast::NodeId;
use super::error::JmespathError;
use super::view::{JsonKind, JsonView};
use crate::json::{MAX_SAFE_INTEGER, js_number_string, push_js_number};
use serde_json::{Map, Number, Value};
use std::cmp::Ordering;
use std::rc::Rc;

/// A JSON number as the interpreter computes with it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Num {
    Int(i64),
    UInt(u64),
    Float(f64),
}

impl Num {
    pub(crate) fn from_number(n: &Number) -> Num {
        if let Some(i) = n.as_i64() {
            Num::Int(i)
        } else if let Some(u) = n.as_u64() {
            Num::UInt(u)
        } else {
            Num::Float(n.as_f64().unwrap_or(f64::NAN))
        }
    }

    /// A computed number: integral values that JavaScript prints without a fraction become
    /// integers, so `sum`, `avg`, `floor`... keep integers as integers. Past 2^53 the integer
    /// is the double's exact value, which is what JavaScript prints for it (below 2^63).
    pub(crate) fn computed(f: f64) -> Num {
        // 2^63 as a double: the first integral value an `i64` cannot hold.
        const I64_END: f64 = 9_223_372_036_854_775_808.0;
        if f.fract() == 0.0 && f.abs() < I64_END {
            Num::Int(f as i64)
        } else {
            Num::Float(f)
        }
    }

    pub(crate) fn as_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::UInt(u) => u as f64,
            Num::Float(f) => f,
        }
    }

    /// The number for the output; a non-finite result (`to_number('Infinity')`) has no JSON
    /// form and becomes `null`, as `JSON.stringify` prints it.
    pub(crate) fn to_json(self) -> Value {
        match self {
            Num::Int(i) => Value::Number(i.into()),
            Num::UInt(u) => Value::Number(u.into()),
            Num::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
        }
    }

    /// Compares as JavaScript does: as doubles, so integers beyond 2^53 that round to the same
    /// double are equal (`9007199254740993 == 9007199254740992`).
    pub(crate) fn compare(self, other: Num) -> Option<Ordering> {
        match (self, other) {
            // Safe integers are exact doubles: comparing them as integers is the same answer.
            (Num::Int(a), Num::Int(b))
                if a.unsigned_abs() <= MAX_SAFE_INTEGER && b.unsigned_abs() <= MAX_SAFE_INTEGER =>
            {
                Some(a.cmp(&b))
            }
            (a, b) => a.as_f64().partial_cmp(&b.as_f64()),
        }
    }
}

/// `n` as `JSON.stringify` prints it (what `to_string` returns): JavaScript's form, or `null`
/// for a result that has no JSON form (`to_number('Infinity')`).
pub(crate) fn number_text(n: Num) -> String {
    match n {
        // A safe integer prints as itself: the usual `to_string(number)` of a record, written
        // without the round trip through a `serde_json::Number`.
        Num::Int(i) if i.unsigned_abs() <= MAX_SAFE_INTEGER => i.to_string(),
        _ => match n.to_json() {
            Value::Number(number) => js_number_string(&number),
            _ => "null".to_owned(),
        },
    }
}

/// Appends [`number_text`] of `n`.
fn push_number(out: &mut String, n: Num) {
    match n.to_json() {
        Value::Number(number) => push_js_number(out, &number),
        _ => out.push_str("null"),
    }
}

/// An intermediate value. `'a` is the lifetime of both the input and the compiled expression.
pub(crate) enum Val<'a, V: ?Sized> {
    Null,
    Bool(bool),
    Num(Num),
    /// A string of the input or of the expression.
    Str(&'a str),
    /// A string a function built (not shared: built strings are rarely copied, and the output
    /// takes them without another allocation).
    String(String),
    /// An array or object of the input (scalars of the input are unpacked into the variants above).
    View(&'a V),
    /// An array or object literal of the expression.
    Json(&'a Value),
    /// An array an expression built.
    Array(Rc<Vec<Val<'a, V>>>),
    /// An object a multi-select hash or `merge` built; keys are unique.
    Object(Rc<Vec<(&'a str, Val<'a, V>)>>),
    /// `&expr`, only ever a function argument.
    ExpRef(NodeId),
}

impl<V: ?Sized> Clone for Val<'_, V> {
    fn clone(&self) -> Self {
        match self {
            Val::Null => Val::Null,
            Val::Bool(b) => Val::Bool(*b),
            Val::Num(n) => Val::Num(*n),
            Val::Str(s) => Val::Str(s),
            Val::String(s) => Val::String(s.clone()),
            Val::View(v) => Val::View(v),
            Val::Json(j) => Val::Json(j),
            Val::Array(a) => Val::Array(Rc::clone(a)),
            Val::Object(o) => Val::Object(Rc::clone(o)),
            Val::ExpRef(e) => Val::ExpRef(*e),
        }
    }
}

impl<'a, V: JsonView + ?Sized> Val<'a, V> {
    #[inline]
    pub(crate) fn from_view(v: &'a V) -> Self {
        match v.kind() {
            JsonKind::Null => Val::Null,
            JsonKind::Bool => Val::Bool(v.as_bool().unwrap_or(false)),
            JsonKind::Number => v
                .as_number()
                .map_or(Val::Null, |n| Val::Num(Num::from_number(&n))),
            JsonKind::String => Val::Str(v.as_str().unwrap_or("")),
            JsonKind::Array | JsonKind::Object => Val::View(v),
        }
    }

    #[inline]
    pub(crate) fn from_json(v: &'a Value) -> Self {
        match v {
            Value::Null => Val::Null,
            Value::Bool(b) => Val::Bool(*b),
            Value::Number(n) => Val::Num(Num::from_number(n)),
            Value::String(s) => Val::Str(s),
            Value::Array(_) | Value::Object(_) => Val::Json(v),
        }
    }

    pub(crate) fn string(s: String) -> Self {
        Val::String(s)
    }

    pub(crate) fn array(items: Vec<Val<'a, V>>) -> Self {
        Val::Array(Rc::new(items))
    }

    #[inline]
    pub(crate) fn is_null(&self) -> bool {
        matches!(self, Val::Null)
    }

    pub(crate) fn kind(&self) -> Option<JsonKind> {
        Some(match self {
            Val::Null => JsonKind::Null,
            Val::Bool(_) => JsonKind::Bool,
            Val::Num(_) => JsonKind::Number,
            Val::Str(_) | Val::String(_) => JsonKind::String,
            Val::View(v) => v.kind(),
            Val::Json(Value::Array(_)) | Val::Array(_) => JsonKind::Array,
            Val::Json(_) | Val::Object(_) => JsonKind::Object,
            Val::ExpRef(_) => return None,
        })
    }

    /// The JMESPath type name (`type()`), `expression` for `&expr`.
    pub(crate) fn type_name(&self) -> &'static str {
        match self.kind() {
            Some(JsonKind::Null) => "null",
            Some(JsonKind::Bool) => "boolean",
            Some(JsonKind::Number) => "number",
            Some(JsonKind::String) => "string",
            Some(JsonKind::Array) => "array",
            Some(JsonKind::Object) => "object",
            None => "expression",
        }
    }

    #[inline]
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Val::Str(s) => Some(s),
            Val::String(s) => Some(s),
            _ => None,
        }
    }

    #[inline]
    pub(crate) fn as_num(&self) -> Option<Num> {
        match self {
            Val::Num(n) => Some(*n),
            _ => None,
        }
    }

    pub(crate) fn is_array(&self) -> bool {
        self.kind() == Some(JsonKind::Array)
    }

    pub(crate) fn is_object(&self) -> bool {
        self.kind() == Some(JsonKind::Object)
    }

    /// JMESPath truthiness: `null`, `false`, `""`, `[]` and `{}` are false.
    pub(crate) fn is_truthy(&self) -> bool {
        match self {
            Val::Null => false,
            Val::Bool(b) => *b,
            Val::Num(_) | Val::ExpRef(_) => true,
            Val::Str(s) => !s.is_empty(),
            Val::String(s) => !s.is_empty(),
            Val::View(v) => !v.is_empty(),
            Val::Json(Value::Array(a)) => !a.is_empty(),
            Val::Json(Value::Object(o)) => !o.is_empty(),
            Val::Json(_) => true,
            Val::Array(a) => !a.is_empty(),
            Val::Object(o) => !o.is_empty(),
        }
    }

    /// The member `key`, or `None` when this is not an object or has no such member.
    #[inline]
    pub(crate) fn member(&self, key: &str) -> Option<Val<'a, V>> {
        match self {
            Val::View(v) => v.get(key).map(Val::from_view),
            Val::Json(Value::Object(o)) => o.get(key).map(Val::from_json),
            Val::Object(o) => o.iter().find(|(k, _)| *k == key).map(|(_, v)| v.clone()),
            _ => None,
        }
    }

    /// Number of elements of an array, members of an object; 0 otherwise.
    pub(crate) fn len(&self) -> usize {
        match self {
            Val::View(v) => v.len(),
            Val::Json(Value::Array(a)) => a.len(),
            Val::Json(Value::Object(o)) => o.len(),
            Val::Array(a) => a.len(),
            Val::Object(o) => o.len(),
            _ => 0,
        }
    }

    /// `[i]`, negative from the end; `null` out of range or on a non-array.
    pub(crate) fn index(&self, i: i64) -> Val<'a, V> {
        if !self.is_array() {
            return Val::Null;
        }
        let Some(at) = array_position(self.len(), i) else {
            return Val::Null;
        };
        match self {
            Val::View(v) => v.index(at).map_or(Val::Null, Val::from_view),
            Val::Json(Value::Array(a)) => a.get(at).map_or(Val::Null, Val::from_json),
            Val::Array(a) => a.get(at).cloned().unwrap_or(Val::Null),
            _ => Val::Null,
        }
    }

    /// The elements, if this is an array.
    pub(crate) fn items(&self) -> Option<Items<'a, V>> {
        match self {
            Val::View(v) => v.array_iter().map(Items::View),
            Val::Json(Value::Array(a)) => Some(Items::Json(a.iter())),
            Val::Array(a) => Some(Items::Owned(Rc::clone(a), 0)),
            _ => None,
        }
    }

    /// The members, if this is an object.
    pub(crate) fn entries(&self) -> Option<Entries<'a, V>> {
        match self {
            Val::View(v) => v.object_iter().map(Entries::View),
            Val::Json(Value::Object(o)) => Some(Entries::Json(o.iter())),
            Val::Object(o) => Some(Entries::Owned(Rc::clone(o), 0)),
            _ => None,
        }
    }
}

/// The position `[i]` designates in an array of `len` elements, counting from the end when `i` is
/// negative; `None` before the start.
pub(crate) fn array_position(len: usize, i: i64) -> Option<usize> {
    if i < 0 {
        let back = usize::try_from(i.unsigned_abs()).ok()?;
        len.checked_sub(back)
    } else {
        usize::try_from(i).ok()
    }
}

/// Iterator over an array value's elements.
pub(crate) enum Items<'a, V: JsonView + ?Sized + 'a> {
    View(V::ArrayIter<'a>),
    Json(std::slice::Iter<'a, Value>),
    Owned(Rc<Vec<Val<'a, V>>>, usize),
}

impl<'a, V: JsonView + ?Sized + 'a> Iterator for Items<'a, V> {
    type Item = Val<'a, V>;

    #[inline]
    fn next(&mut self) -> Option<Val<'a, V>> {
        match self {
            Items::View(it) => it.next().map(Val::from_view),
            Items::Json(it) => it.next().map(Val::from_json),
            Items::Owned(items, at) => {
                let item = items.get(*at)?.clone();
                *at += 1;
                Some(item)
            }
        }
    }
}

/// Iterator over an object value's members.
pub(crate) enum Entries<'a, V: JsonView + ?Sized + 'a> {
    View(V::ObjectIter<'a>),
    Json(serde_json::map::Iter<'a>),
    Owned(Rc<Vec<(&'a str, Val<'a, V>)>>, usize),
}

impl<'a, V: JsonView + ?Sized + 'a> Iterator for Entries<'a, V> {
    type Item = (&'a str, Val<'a, V>);

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        match self {
            Entries::View(it) => it.next().map(|(k, v)| (k, Val::from_view(v))),
            Entries::Json(it) => it.next().map(|(k, v)| (k.as_str(), Val::from_json(v))),
            Entries::Owned(members, at) => {
                let (k, v) = members.get(*at)?;
                *at += 1;
                Some((k, v.clone()))
            }
        }
    }
}

/// Counts work against the evaluation budget: steps, and the values of the output.
pub(crate) struct Budget {
    left: std::cell::Cell<u64>,
    values: std::cell::Cell<u64>,
}

impl Budget {
    #[cfg(test)]
    pub(crate) fn new(steps: u64) -> Self {
        Budget::with_values(steps, u64::MAX)
    }

    pub(crate) fn with_values(steps: u64, values: u64) -> Self {
        Budget {
            left: std::cell::Cell::new(steps),
            values: std::cell::Cell::new(values),
        }
    }

    /// The steps and output values left.
    pub(crate) fn left(&self) -> (u64, u64) {
        (self.left.get(), self.values.get())
    }

    /// `n` values of the output (or slots reserved for them), about to be built: each costs a
    /// step and one of the output's values.
    #[inline]
    pub(crate) fn spend_output(&self, n: u64) -> Result<(), JmespathError> {
        let values = self.values.get();
        if n > values {
            return Err(JmespathError::limit(super::error::OUTPUT_LIMIT));
        }
        self.spend(n)?;
        self.values.set(values - n);
        Ok(())
    }

    #[inline]
    pub(crate) fn spend(&self, steps: u64) -> Result<(), JmespathError> {
        let left = self.left.get();
        if steps > left {
            return Err(JmespathError::limit(
                "evaluation exceeded its budget of steps (the expression does too much work)",
            ));
        }
        self.left.set(left - steps);
        Ok(())
    }

    /// Text of `len` bytes copied into the output: one of the output's values per 64 bytes
    /// (a value's own size), and one step per 16 bytes.
    #[inline]
    pub(crate) fn spend_output_text(&self, len: usize) -> Result<(), JmespathError> {
        let values = (len / 64) as u64;
        self.spend_output(values)?;
        self.spend((len / 16) as u64 - values)
    }

    /// Text of `len` bytes costs one step per 16 bytes.
    #[inline]
    pub(crate) fn spend_text(&self, len: usize) -> Result<(), JmespathError> {
        self.spend((len / 16) as u64)
    }
}

/// JMESPath equality: deep, numbers by value, object member order ignored.
pub(crate) fn equals<'a, V: JsonView + ?Sized>(
    a: &Val<'a, V>,
    b: &Val<'a, V>,
    budget: &Budget,
) -> Result<bool, JmespathError> {
    // Fast paths for the common scalar comparisons of filters.
    match (a, b) {
        (Val::Null, Val::Null) => return Ok(true),
        (Val::Bool(x), Val::Bool(y)) => return Ok(x == y),
        (Val::Num(x), Val::Num(y)) => return Ok(x.compare(*y) == Some(Ordering::Equal)),
        _ => {}
    }
    if let (Some(x), Some(y)) = (a.as_str(), b.as_str()) {
        return Ok(x == y);
    }
    // Values of different types are never equal: say so before setting up the walk.
    match (a.kind(), b.kind()) {
        (Some(x), Some(y)) if x == y => {}
        _ => return Ok(false),
    }
    let mut stack = vec![(a.clone(), b.clone())];
    while let Some((x, y)) = stack.pop() {
        budget.spend(1)?;
        let (Some(kx), Some(ky)) = (x.kind(), y.kind()) else {
            return Ok(false);
        };
        if kx != ky {
            return Ok(false);
        }
        match kx {
            JsonKind::Null => {}
            JsonKind::Bool => {
                if matches!((&x, &y), (Val::Bool(p), Val::Bool(q)) if p != q) {
                    return Ok(false);
                }
            }
            JsonKind::Number => {
                let same = match (x.as_num(), y.as_num()) {
                    (Some(p), Some(q)) => p.compare(q) == Some(Ordering::Equal),
                    _ => false,
                };
                if !same {
                    return Ok(false);
                }
            }
            JsonKind::String => {
                if x.as_str() != y.as_str() {
                    return Ok(false);
                }
            }
            JsonKind::Array => {
                if x.len() != y.len() {
                    return Ok(false);
                }
                if let (Some(ix), Some(iy)) = (x.items(), y.items()) {
                    stack.extend(ix.zip(iy));
                }
            }
            JsonKind::Object => {
                if x.len() != y.len() {
                    return Ok(false);
                }
                for (key, vx) in x.entries().into_iter().flatten() {
                    match y.member(key) {
                        Some(vy) => stack.push((vx, vy)),
                        None => return Ok(false),
                    }
                }
            }
        }
    }
    Ok(true)
}

/// One pending piece of JSON text.
enum Piece<'a, V: ?Sized> {
    Value(Val<'a, V>),
    Text(&'static str),
    Key(&'a str),
}

/// Appends `val` as `JSON.stringify` prints it (compact, keys in order, JavaScript numbers).
pub(crate) fn push_json<'a, V: JsonView + ?Sized>(
    out: &mut String,
    val: Val<'a, V>,
    budget: &Budget,
) -> Result<(), JmespathError> {
    match &val {
        Val::Num(n) => {
            push_number(out, *n);
            return Ok(());
        }
        Val::Str(s) => {
            push_json_string(out, s);
            return budget.spend_text(s.len());
        }
        _ => {}
    }
    let mut stack = vec![Piece::Value(val)];
    while let Some(piece) = stack.pop() {
        budget.spend(1)?;
        let val = match piece {
            Piece::Text(t) => {
                out.push_str(t);
                continue;
            }
            Piece::Key(k) => {
                push_json_string(out, k);
                out.push(':');
                continue;
            }
            Piece::Value(v) => v,
        };
        match &val {
            Val::Null | Val::ExpRef(_) => out.push_str("null"),
            Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Val::Num(n) => push_number(out, *n),
            Val::Str(s) => push_json_string(out, s),
            Val::String(s) => push_json_string(out, s),
            _ => {
                if let Some(items) = val.items() {
                    let items: Vec<_> = items.collect();
                    out.push('[');
                    stack.push(Piece::Text("]"));
                    for (i, item) in items.into_iter().enumerate().rev() {
                        stack.push(Piece::Value(item));
                        if i > 0 {
                            stack.push(Piece::Text(","));
                        }
                    }
                } else if let Some(entries) = val.entries() {
                    let entries: Vec<_> = entries.collect();
                    out.push('{');
                    stack.push(Piece::Text("}"));
                    for (i, (k, v)) in entries.into_iter().enumerate().rev() {
                        stack.push(Piece::Value(v));
                        stack.push(Piece::Key(k));
                        if i > 0 {
                            stack.push(Piece::Text(","));
                        }
                    }
                }
            }
        }
    }
    budget.spend_text(out.len())
}

/// A JSON string literal with `JSON.stringify`'s escapes.
fn push_json_string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    let mut from = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[from..i]);
        if escape.is_empty() {
            out.push_str("\\u00");
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 0xf) as usize] as char);
        } else {
            out.push_str(escape);
        }
        from = i + 1;
    }
    out.push_str(&s[from..]);
    out.push('"');
}

/// A container being rebuilt as a `serde_json::Value`.
enum Frame<'a, V: JsonView + ?Sized + 'a> {
    Array(Vec<Value>, Items<'a, V>),
    Object(Map<String, Value>, Entries<'a, V>, &'a str),
}

/// The output: `val` as a `serde_json::Value`, built without recursion.
#[inline]
pub(crate) fn to_value<'a, V: JsonView + ?Sized>(
    val: Val<'a, V>,
    budget: &Budget,
) -> Result<Value, JmespathError> {
    // Scalars, most results, are converted in line; containers need the stack.
    budget.spend_output(1)?;
    Ok(match val {
        Val::Null | Val::ExpRef(_) => Value::Null,
        Val::Bool(b) => Value::Bool(b),
        Val::Num(n) => n.to_json(),
        Val::Str(s) => {
            budget.spend_output_text(s.len())?;
            Value::String(s.to_owned())
        }
        Val::String(s) => {
            budget.spend_output_text(s.len())?;
            Value::String(s)
        }
        other => return container_to_value(other, budget),
    })
}

/// [`to_value`] of an array or object.
fn container_to_value<'a, V: JsonView + ?Sized>(
    val: Val<'a, V>,
    budget: &Budget,
) -> Result<Value, JmespathError> {
    let mut stack: Vec<Frame<'a, V>> = Vec::new();
    let mut next = val;
    loop {
        // Turn `next` into a finished value, or open a frame for it. The caller paid for the
        // value itself; a container pays for its elements (an object member for its key too)
        // before their room is reserved, a string for its text.
        let mut done = match next {
            Val::Null | Val::ExpRef(_) => Some(Value::Null),
            Val::Bool(b) => Some(Value::Bool(b)),
            Val::Num(n) => Some(n.to_json()),
            Val::Str(s) => {
                budget.spend_output_text(s.len())?;
                Some(Value::String(s.to_owned()))
            }
            Val::String(s) => {
                budget.spend_output_text(s.len())?;
                Some(Value::String(s))
            }
            other => {
                if let Some(items) = other.items() {
                    budget.spend_output(other.len() as u64)?;
                    stack.push(Frame::Array(Vec::with_capacity(other.len()), items));
                } else if let Some(entries) = other.entries() {
                    budget.spend_output(2 * other.len() as u64)?;
                    stack.push(Frame::Object(Map::with_capacity(other.len()), entries, ""));
                }
                None
            }
        };
        // Attach finished values to their parents until a parent has another child to visit.
        loop {
            let Some(top) = stack.last_mut() else {
                return Ok(done.unwrap_or(Value::Null));
            };
            let child = match top {
                Frame::Array(out, items) => {
                    if let Some(v) = done.take() {
                        out.push(v);
                    }
                    items.next()
                }
                Frame::Object(out, entries, key) => {
                    if let Some(v) = done.take() {
                        out.insert((*key).to_owned(), v);
                    }
                    entries.next().map(|(k, v)| {
                        *key = k;
                        v
                    })
                }
            };
            match child {
                Some(c) => {
                    next = c;
                    break;
                }
                None => {
                    done = Some(match stack.pop() {
                        Some(Frame::Array(out, _)) => Value::Array(out),
                        Some(Frame::Object(out, _, _)) => Value::Object(out),
                        None => Value::Null,
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    type V<'a> = Val<'a, Value>;

    #[test]
    fn numbers_print_as_json_stringify_does() {
        let cases = [
            (Num::Int(0), "0"),
            (Num::Int(-7), "-7"),
            (Num::Int(-9_007_199_254_740_991), "-9007199254740991"),
            (Num::Int(9_007_199_254_740_991), "9007199254740991"),
            (Num::Int(-9_007_199_254_740_992), "-9007199254740992"),
            (Num::Int(9_007_199_254_740_993), "9007199254740992"),
            (Num::Int(i64::MIN), "-9223372036854776000"),
            (Num::UInt(u64::MAX), "18446744073709552000"),
            (Num::Float(1.5), "1.5"),
            (Num::Float(1e21), "1e+21"),
            (Num::Float(-0.0), "0"),
            (Num::Float(f64::NAN), "null"),
            (Num::Float(f64::INFINITY), "null"),
        ];
        for (n, expected) in cases {
            assert_eq!(number_text(n), expected, "{n:?}");
            let mut out = String::new();
            push_number(&mut out, n);
            assert_eq!(out, expected, "{n:?}");
        }
    }

    #[test]
    fn computed_numbers_stay_integers() {
        assert_eq!(Num::computed(3.0), Num::Int(3));
        assert_eq!(Num::computed(1.5), Num::Float(1.5));
        assert_eq!(Num::computed(1e300), Num::Float(1e300));
        assert_eq!(Num::Float(f64::INFINITY).to_json(), Value::Null);
    }

    #[test]
    fn deep_input_is_handled_without_recursion() {
        let mut deep = json!(1);
        for _ in 0..100_000 {
            deep = Value::Array(vec![deep]);
        }
        let budget = Budget::new(u64::MAX);
        let a: V = Val::from_view(&deep);
        assert!(equals(&a, &a.clone(), &budget).unwrap());
        let mut text = String::new();
        push_json(&mut text, a.clone(), &budget).unwrap();
        assert_eq!(text.len(), 200_001);
        let copy = to_value(a, &budget).unwrap();
        crate::json::drop_deep(copy);
        crate::json::drop_deep(deep);
    }

    #[test]
    fn json_text_like_javascript() {
        let data = json!({"b": [1, 1.5, "x\n\u{1}\"", null, true], "a": {}});
        let mut text = String::new();
        push_json(&mut text, V::from_view(&data), &Budget::new(100)).unwrap();
        assert_eq!(text, r#"{"b":[1,1.5,"x\n\u0001\"",null,true],"a":{}}"#);
    }

    #[test]
    fn equality_ignores_member_order_and_number_form() {
        let a = json!({"x": [1, {"y": 2}], "z": null});
        let b = json!({"z": null, "x": [1.0, {"y": 2}]});
        let budget = Budget::new(100);
        assert!(equals(&V::from_view(&a), &V::from_view(&b), &budget).unwrap());
        let c = json!({"z": null, "x": [1.0, {"y": 3}]});
        assert!(!equals(&V::from_view(&a), &V::from_view(&c), &budget).unwrap());
    }

    #[test]
    fn budget_stops_work() {
        let data = json!([1, 2, 3, 4]);
        assert!(to_value(V::from_view(&data), &Budget::new(3)).is_err());
    }
}
