//! Equality of texts and of whole values, the hot comparisons of searches and of change
//! detection.

use serde_json::{Number, Value};

/// Whether two strings are the same, compared inline when they are short.
///
/// Member names and the values a filter tests are a few bytes long, and most comparisons of a
/// search are of such strings: a call into the C library's comparison cost more than comparing
/// them here, with two overlapping loads of each.
#[inline]
pub(crate) fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let word4 = |s: &[u8], at: usize| {
        let mut w = [0; 4];
        w.copy_from_slice(&s[at..at + 4]);
        u32::from_ne_bytes(w)
    };
    let word8 = |s: &[u8], at: usize| {
        let mut w = [0; 8];
        w.copy_from_slice(&s[at..at + 8]);
        u64::from_ne_bytes(w)
    };
    match n {
        0 => true,
        // The first, middle and last bytes are every byte of these.
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=8 => word4(a, 0) == word4(b, 0) && word4(a, n - 4) == word4(b, n - 4),
        9..=16 => word8(a, 0) == word8(b, 0) && word8(a, n - 8) == word8(b, n - 8),
        _ => a == b,
    }
}

/// Deep JSON equality with the number rule the caller chooses: object members in any order,
/// arrays in order, everything else by value. Iterative, for values of any depth. The engine has
/// two number rules: exact (`reactive::json_eq`, whether a value changed) and JavaScript's
/// doubles (the basic catalog's `equals`).
pub(crate) fn deep_equal(
    a: &Value,
    b: &Value,
    same_number: impl Fn(&Number, &Number) -> bool,
) -> bool {
    let mut stack = vec![(a, b)];
    while let Some((a, b)) = stack.pop() {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => {
                if !same_number(x, y) {
                    return false;
                }
            }
            (Value::Array(x), Value::Array(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                stack.extend(x.iter().zip(y));
            }
            (Value::Object(x), Value::Object(y)) => {
                if x.len() != y.len() {
                    return false;
                }
                for (k, xv) in x {
                    match y.get(k) {
                        Some(yv) => stack.push((xv, yv)),
                        None => return false,
                    }
                }
            }
            (x, y) => {
                if x != y {
                    return false;
                }
            }
        }
    }
    true
}
