//! The catalog functions and what they share.

mod coerce;

pub use coerce::{js_number_string, to_js_string};
pub(crate) use coerce::{push_js_number, push_js_string};
