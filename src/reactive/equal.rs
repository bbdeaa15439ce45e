//! JSON equality as a renderer needs it to decide whether a recomputed value changed.

use serde_json::Value;

/// Whether two JSON values are equal as JSON: numbers by value (`1` equals `1.0`), object
/// members in any order, arrays in order. Iterative, for values of any depth.
///
/// A recomputed value equal to the previous one by this rule needs no redraw.
///
/// ```
/// use a2ui_catalog_mcp::reactive::json_eq;
/// use serde_json::json;
/// assert!(json_eq(&json!({"a": 1, "b": [2.0]}), &json!({"b": [2], "a": 1.0})));
/// assert!(!json_eq(&json!([1, 2]), &json!([2, 1])));
/// assert!(!json_eq(&json!(1), &json!("1")));
/// ```
pub fn json_eq(a: &Value, b: &Value) -> bool {
    crate::json::deep_equal(a, b, |x, y| {
        match (x.as_i64(), y.as_i64(), x.as_u64(), y.as_u64()) {
            (Some(x), Some(y), _, _) => x == y,
            (_, _, Some(x), Some(y)) => x == y,
            _ => x.as_f64() == y.as_f64(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn numbers_by_value_keys_in_any_order() {
        assert!(json_eq(&json!(u64::MAX), &json!(u64::MAX)));
        assert!(!json_eq(&json!(-1), &json!(u64::MAX)));
        assert!(json_eq(&json!(0.5), &json!(0.5)));
        assert!(!json_eq(&json!({"a": 1}), &json!({"a": 1, "b": 2})));
        assert!(!json_eq(&json!({"a": 1}), &json!({"b": 1})));
        assert!(json_eq(&json!(null), &json!(null)));
    }

    #[test]
    fn deep_values_do_not_recurse() {
        let mut a = json!(1);
        let mut b = json!(1.0);
        for _ in 0..100_000 {
            a = Value::Array(vec![a]);
            b = Value::Array(vec![b]);
        }
        assert!(json_eq(&a, &b));
        crate::json::drop_deep(a);
        crate::json::drop_deep(b);
    }
}
