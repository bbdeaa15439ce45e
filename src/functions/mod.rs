//! Coercion to text the way JavaScript does it, shared by the built-in functions and JMESPath's
//! `to_string`.
//!
//! It sits at the layer of `json`, beside which it belongs, and is re-exported at the crate
//! root. (This module is removed when jmespath stops importing functions: the coercion then
//! lives in `json`.)

mod coerce;

pub(crate) use coerce::push_js_number;
pub use coerce::{js_number_string, to_js_string};
