//! The implementations of the 26 built-in functions of standard JMESPath (their names and
//! arities, which the parser checks, are in `func.rs`).

use super::ast::NodeId;
use super::error::{JmespathError, JmespathErrorKind};
use super::func::Func;
use super::interpreter::Interp;
use super::value::{Num, Val, equals, number_text, push_json};
use super::view::JsonView;
use crate::json::MAX_SAFE_INTEGER;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::rc::Rc;

fn type_error(func: Func, arg: usize, expected: &str, got: &str) -> JmespathError {
    JmespathError::new(
        JmespathErrorKind::InvalidType,
        format!(
            "invalid type for argument {} of {}(): expected {expected}, got {got}",
            arg + 1,
            func.name()
        ),
    )
}

fn wrong<'a, V: JsonView + ?Sized>(
    func: Func,
    arg: usize,
    expected: &str,
    got: &Val<'a, V>,
) -> JmespathError {
    type_error(func, arg, expected, got.type_name())
}

/// The element types an array holds when they are all numbers or all strings.
enum Uniform {
    Empty,
    Numbers,
    Strings,
}

fn uniform<'a, V: JsonView + ?Sized>(items: &[Val<'a, V>]) -> Option<Uniform> {
    let Some(first) = items.first() else {
        return Some(Uniform::Empty);
    };
    if first.as_num().is_some() {
        items
            .iter()
            .all(|v| v.as_num().is_some())
            .then_some(Uniform::Numbers)
    } else if first.as_str().is_some() {
        items
            .iter()
            .all(|v| v.as_str().is_some())
            .then_some(Uniform::Strings)
    } else {
        None
    }
}

/// Orders two numbers or two strings (strings by code point, as the specification says).
fn order<'a, V: JsonView + ?Sized>(a: &Val<'a, V>, b: &Val<'a, V>) -> Ordering {
    match (a, b) {
        (Val::Num(x), Val::Num(y)) => x.compare(*y).unwrap_or(Ordering::Equal),
        _ => a.as_str().cmp(&b.as_str()),
    }
}

/// The description of an array whose elements are not all of one allowed type.
fn mixed_array<'a, V: JsonView + ?Sized>(items: &[Val<'a, V>], want: &str) -> String {
    let bad = items.iter().find(|v| match want {
        "number" => v.as_num().is_none(),
        "string" => v.as_str().is_none(),
        _ => !(v.as_num().is_some() || v.as_str().is_some()),
    });
    match bad {
        Some(v) => format!("array containing {}", v.type_name()),
        None => "array".to_string(),
    }
}

/// `+text` in JavaScript: `to_number` of a string, `None` where JavaScript gives `NaN`.
pub(crate) fn js_string_to_number(text: &str) -> Option<Num> {
    let t = text.trim_matches(crate::json::is_js_space);
    if t.is_empty() {
        return Some(Num::Int(0));
    }
    let (negative, body) = match t.as_bytes()[0] {
        b'+' => (false, &t[1..]),
        b'-' => (true, &t[1..]),
        _ => (false, t),
    };
    let sign = if negative { -1.0 } else { 1.0 };
    if body == "Infinity" {
        return Some(Num::Float(sign * f64::INFINITY));
    }
    let radix = match t.get(..2) {
        Some("0x" | "0X") => 16,
        Some("0o" | "0O") => 8,
        Some("0b" | "0B") => 2,
        _ => 10,
    };
    if radix != 10 {
        let digits = &t[2..];
        if digits.is_empty() {
            return None;
        }
        let mut value = 0.0f64;
        for c in digits.chars() {
            value = value * f64::from(radix) + f64::from(c.to_digit(radix)?);
        }
        return Some(Num::computed(value));
    }
    // StrUnsignedDecimalLiteral: digits [. digits] [e [+-] digits], or . digits [e ...].
    let bytes = body.as_bytes();
    let mut i = 0;
    let int_digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    if bytes.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        i += frac_digits;
    }
    if int_digits + frac_digits == 0 {
        return None;
    }
    if matches!(bytes.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(bytes.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_digits = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        if exp_digits == 0 {
            return None;
        }
        i += exp_digits;
    }
    if i != bytes.len() {
        return None;
    }
    let magnitude: f64 = body.parse().ok()?;
    Some(Num::computed(sign * magnitude))
}

impl<'a, V: JsonView + ?Sized> Interp<'a, V> {
    /// Evaluates the arguments of a call against `cur`, then applies the function.
    pub(crate) fn call(
        &self,
        func: Func,
        arg_nodes: &'a [NodeId],
        cur: &Val<'a, V>,
    ) -> Result<Val<'a, V>, JmespathError> {
        if arg_nodes.len() <= 3 {
            let mut args = [Val::Null, Val::Null, Val::Null];
            for (slot, &node) in args.iter_mut().zip(arg_nodes) {
                *slot = self.eval(node, cur)?;
            }
            self.apply(func, &mut args[..arg_nodes.len()])
        } else {
            let mut args = Vec::with_capacity(arg_nodes.len());
            for &node in arg_nodes {
                args.push(self.eval(node, cur)?);
            }
            self.apply(func, &mut args)
        }
    }

    fn number(&self, func: Func, args: &[Val<'a, V>], i: usize) -> Result<Num, JmespathError> {
        args[i]
            .as_num()
            .ok_or_else(|| wrong(func, i, "number", &args[i]))
    }

    fn text<'s>(
        &self,
        func: Func,
        args: &'s [Val<'a, V>],
        i: usize,
    ) -> Result<&'s str, JmespathError> {
        args[i]
            .as_str()
            .ok_or_else(|| wrong(func, i, "string", &args[i]))
    }

    fn expref(&self, func: Func, args: &[Val<'a, V>], i: usize) -> Result<NodeId, JmespathError> {
        match args[i] {
            Val::ExpRef(node) => Ok(node),
            ref other => Err(wrong(func, i, "expression", other)),
        }
    }

    /// The elements of an array argument, counted against the budget.
    fn elements(
        &self,
        func: Func,
        args: &[Val<'a, V>],
        i: usize,
    ) -> Result<Vec<Val<'a, V>>, JmespathError> {
        let Some(items) = args[i].items() else {
            return Err(wrong(func, i, "array", &args[i]));
        };
        self.budget.spend(args[i].len() as u64)?;
        Ok(items.collect())
    }

    fn numbers(
        &self,
        func: Func,
        args: &[Val<'a, V>],
        i: usize,
    ) -> Result<Vec<Num>, JmespathError> {
        let items = self
            .elements(func, args, i)
            .map_err(|_| wrong(func, i, "array[number]", &args[i]))?;
        items
            .iter()
            .map(|v| v.as_num())
            .collect::<Option<Vec<Num>>>()
            .ok_or_else(|| type_error(func, i, "array[number]", &mixed_array(&items, "number")))
    }

    /// The values of an object argument, or `None` if it is not an object.
    fn non_expref(&self, func: Func, args: &[Val<'a, V>]) -> Result<(), JmespathError> {
        match args.iter().position(|a| matches!(a, Val::ExpRef(_))) {
            Some(i) => Err(type_error(func, i, "a value", "expression")),
            None => Ok(()),
        }
    }

    /// The key an expression gives each element for `sort_by`, `max_by`, `min_by`: all numbers or
    /// all strings.
    fn keys_by(
        &self,
        func: Func,
        items: &[Val<'a, V>],
        expr: NodeId,
    ) -> Result<Vec<Val<'a, V>>, JmespathError> {
        let mut keys = Vec::with_capacity(items.len());
        for item in items {
            keys.push(self.eval(expr, item)?);
        }
        match uniform(&keys) {
            Some(_) => Ok(keys),
            None => Err(type_error(
                func,
                1,
                "an expression giving all numbers or all strings",
                &format!(
                    "{} in {}",
                    keys.iter()
                        .find(|k| k.as_num().is_none() && k.as_str().is_none())
                        .map_or("a mix of numbers and strings", |k| k.type_name()),
                    if keys.len() == 1 {
                        "its only key"
                    } else {
                        "the keys"
                    }
                ),
            )),
        }
    }

    fn apply(&self, func: Func, args: &mut [Val<'a, V>]) -> Result<Val<'a, V>, JmespathError> {
        if !matches!(func, Func::Map | Func::MaxBy | Func::MinBy | Func::SortBy) {
            self.non_expref(func, args)?;
        }
        Ok(match func {
            Func::Abs => Val::Num(match self.number(func, args, 0)? {
                Num::Int(i) if i.unsigned_abs() <= MAX_SAFE_INTEGER => Num::Int(i.abs()),
                // Beyond 2^53, JavaScript computes with the nearest double.
                n => Num::computed(n.as_f64().abs()),
            }),
            Func::Avg => {
                let nums = self.numbers(func, args, 0)?;
                if nums.is_empty() {
                    Val::Null
                } else {
                    let total: f64 = nums.iter().map(|n| n.as_f64()).sum();
                    Val::Num(Num::computed(total / nums.len() as f64))
                }
            }
            Func::Ceil | Func::Floor => Val::Num(match self.number(func, args, 0)? {
                Num::Float(f) if func == Func::Ceil => Num::computed(f.ceil()),
                Num::Float(f) => Num::computed(f.floor()),
                // A safe integer comes back as itself; a larger one as JavaScript's double.
                whole => Num::computed(whole.as_f64()),
            }),
            Func::Contains => {
                if let Some(subject) = args[0].as_str() {
                    Val::Bool(args[1].as_str().is_some_and(|s| subject.contains(s)))
                } else if let Some(items) = args[0].items() {
                    let mut found = false;
                    for item in items {
                        self.budget.spend(1)?;
                        if equals(&item, &args[1], &self.budget)? {
                            found = true;
                            break;
                        }
                    }
                    Val::Bool(found)
                } else {
                    return Err(wrong(func, 0, "array or string", &args[0]));
                }
            }
            Func::EndsWith | Func::StartsWith => {
                let subject = self.text(func, args, 0)?;
                let affix = self.text(func, args, 1)?;
                Val::Bool(if func == Func::EndsWith {
                    subject.ends_with(affix)
                } else {
                    subject.starts_with(affix)
                })
            }
            Func::Join => {
                let glue = self.text(func, args, 0)?;
                let items = self
                    .elements(func, args, 1)
                    .map_err(|_| wrong(func, 1, "array[string]", &args[1]))?;
                let mut out = String::new();
                for (i, item) in items.iter().enumerate() {
                    let Some(s) = item.as_str() else {
                        return Err(type_error(
                            func,
                            1,
                            "array[string]",
                            &mixed_array(&items, "string"),
                        ));
                    };
                    if i > 0 {
                        out.push_str(glue);
                    }
                    out.push_str(s);
                    self.budget.spend_text(s.len() + glue.len())?;
                }
                Val::string(out)
            }
            Func::Keys | Func::Values => {
                let Some(entries) = args[0].entries() else {
                    return Err(wrong(func, 0, "object", &args[0]));
                };
                self.budget.spend(args[0].len() as u64)?;
                Val::array(if func == Func::Keys {
                    entries.map(|(k, _)| Val::Str(k)).collect()
                } else {
                    entries.map(|(_, v)| v).collect()
                })
            }
            Func::Length => match &args[0] {
                v if v.as_str().is_some() => {
                    let s = v.as_str().unwrap_or("");
                    self.budget.spend_text(s.len())?;
                    Val::Num(Num::Int(s.chars().count() as i64))
                }
                v if v.is_array() || v.is_object() => Val::Num(Num::Int(v.len() as i64)),
                other => return Err(wrong(func, 0, "string, array or object", other)),
            },
            Func::Map => {
                let expr = self.expref(func, args, 0)?;
                let items = self.elements(func, args, 1)?;
                let mut out = Vec::with_capacity(items.len());
                for item in &items {
                    out.push(self.eval(expr, item)?);
                }
                Val::array(out)
            }
            Func::Max | Func::Min => {
                let items = self
                    .elements(func, args, 0)
                    .map_err(|_| wrong(func, 0, "array[number] or array[string]", &args[0]))?;
                if uniform(&items).is_none() {
                    return Err(type_error(
                        func,
                        0,
                        "array[number] or array[string]",
                        &mixed_array(&items, "number or string"),
                    ));
                }
                let want = if func == Func::Max {
                    Ordering::Greater
                } else {
                    Ordering::Less
                };
                let mut best: Option<Val<'a, V>> = None;
                for item in items {
                    if best.as_ref().is_none_or(|b| order(&item, b) == want) {
                        best = Some(item);
                    }
                }
                best.unwrap_or(Val::Null)
            }
            Func::MaxBy | Func::MinBy => {
                let items = self.elements(func, args, 0)?;
                let expr = self.expref(func, args, 1)?;
                let keys = self.keys_by(func, &items, expr)?;
                let want = if func == Func::MaxBy {
                    Ordering::Greater
                } else {
                    Ordering::Less
                };
                let mut best: Option<usize> = None;
                for i in 0..keys.len() {
                    if best.is_none_or(|b| order(&keys[i], &keys[b]) == want) {
                        best = Some(i);
                    }
                }
                match best {
                    Some(i) => items[i].clone(),
                    None => Val::Null,
                }
            }
            Func::Merge => self.merge(args)?,
            Func::NotNull => args
                .iter()
                .find(|v| !v.is_null())
                .cloned()
                .unwrap_or(Val::Null),
            Func::Reverse => {
                if let Some(s) = args[0].as_str() {
                    self.budget.spend_text(s.len())?;
                    Val::string(s.chars().rev().collect())
                } else if args[0].is_array() {
                    let mut items = self.elements(func, args, 0)?;
                    items.reverse();
                    Val::array(items)
                } else {
                    return Err(wrong(func, 0, "array or string", &args[0]));
                }
            }
            Func::Sort => {
                let mut items = self
                    .elements(func, args, 0)
                    .map_err(|_| wrong(func, 0, "array[number] or array[string]", &args[0]))?;
                if uniform(&items).is_none() {
                    return Err(type_error(
                        func,
                        0,
                        "array[number] or array[string]",
                        &mixed_array(&items, "number or string"),
                    ));
                }
                items.sort_by(order);
                Val::array(items)
            }
            Func::SortBy => {
                let items = self.elements(func, args, 0)?;
                let expr = self.expref(func, args, 1)?;
                let keys = self.keys_by(func, &items, expr)?;
                let mut order_of: Vec<usize> = (0..items.len()).collect();
                order_of.sort_by(|&a, &b| order(&keys[a], &keys[b]));
                Val::array(order_of.into_iter().map(|i| items[i].clone()).collect())
            }
            Func::Sum => {
                let nums = self.numbers(func, args, 0)?;
                let mut int_total: Option<i64> = Some(0);
                let mut float_total = 0.0;
                for n in &nums {
                    // Exact integer sums equal JavaScript's sum of doubles only while every
                    // addend and partial sum is a safe integer; past that, doubles as in
                    // JavaScript (`sum([9007199254740993])` is 9007199254740992).
                    int_total = match (int_total, n) {
                        (Some(t), Num::Int(i)) if i.unsigned_abs() <= MAX_SAFE_INTEGER => t
                            .checked_add(*i)
                            .filter(|t| t.unsigned_abs() <= MAX_SAFE_INTEGER),
                        _ => None,
                    };
                    float_total += n.as_f64();
                }
                Val::Num(match int_total {
                    Some(t) => Num::Int(t),
                    None => Num::computed(float_total),
                })
            }
            Func::ToArray => {
                if args[0].is_array() {
                    std::mem::replace(&mut args[0], Val::Null)
                } else {
                    Val::array(vec![std::mem::replace(&mut args[0], Val::Null)])
                }
            }
            Func::ToNumber => match &args[0] {
                Val::Num(n) => Val::Num(*n),
                v => match v.as_str() {
                    Some(s) => js_string_to_number(s).map_or(Val::Null, Val::Num),
                    None => Val::Null,
                },
            },
            Func::ToString => self.to_string_of(std::mem::replace(&mut args[0], Val::Null))?,
            Func::Type => Val::Str(args[0].type_name()),
        })
    }

    /// `to_string(arg)`: a string as it is, anything else as JSON text.
    pub(crate) fn to_string_of(&self, arg: Val<'a, V>) -> Result<Val<'a, V>, JmespathError> {
        Ok(match arg {
            Val::Str(_) | Val::String(_) => arg,
            Val::Num(n) => Val::string(number_text(n)),
            other => {
                let mut out = String::new();
                push_json(&mut out, other, &self.budget)?;
                Val::string(out)
            }
        })
    }

    fn merge(&self, args: &[Val<'a, V>]) -> Result<Val<'a, V>, JmespathError> {
        let mut members: Vec<(&'a str, Val<'a, V>)> = Vec::new();
        let mut index: HashMap<&'a str, usize> = HashMap::new();
        for (i, arg) in args.iter().enumerate() {
            let Some(entries) = arg.entries() else {
                return Err(wrong(Func::Merge, i, "object", arg));
            };
            self.budget.spend(arg.len() as u64)?;
            for (key, value) in entries {
                // Later objects win; a key keeps the position where it first appeared.
                match index.get(key) {
                    Some(&at) => members[at].1 = value,
                    None => {
                        index.insert(key, members.len());
                        members.push((key, value));
                    }
                }
            }
        }
        Ok(Val::Object(Rc::new(members)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_convert_like_javascript() {
        let n = |s: &str| js_string_to_number(s);
        assert_eq!(n("2048"), Some(Num::Int(2048)));
        assert_eq!(n(" 1.5 "), Some(Num::Float(1.5)));
        assert_eq!(n("1.0"), Some(Num::Int(1)));
        assert_eq!(n("-.5e1"), Some(Num::Int(-5)));
        assert_eq!(n("1e21"), Some(Num::Float(1e21)));
        assert_eq!(n("0x1A"), Some(Num::Int(26)));
        assert_eq!(n("5."), Some(Num::Int(5)));
        assert_eq!(n("+.5"), Some(Num::Float(0.5)));
        assert_eq!(n("1E+2"), Some(Num::Int(100)));
        assert_eq!(n(""), Some(Num::Int(0)));
        assert_eq!(n("-Infinity"), Some(Num::Float(f64::NEG_INFINITY)));
        for bad in [
            "abc", "1e", ".", "1.2.3", "inf", "NaN", "0x", "-0x1", "1_000", "+",
        ] {
            assert_eq!(n(bad), None, "{bad}");
        }
    }

    #[test]
    fn arity_messages() {
        let err = Func::Abs.check_arity(2).unwrap_err();
        assert_eq!(
            err.message(),
            "invalid arity for abs(): expected 1 argument, got 2"
        );
        let err = Func::Merge.check_arity(0).unwrap_err();
        assert_eq!(
            err.message(),
            "invalid arity for merge(): expected at least 1 argument, got 0"
        );
    }
}
