//! JavaScript's coercion to text, which the functions share with JMESPath: defined in the
//! [`json`](crate::json) layer below both.

pub use crate::json::{js_number_string, to_js_string};
