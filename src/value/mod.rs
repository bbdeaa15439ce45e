//! The values that pass between the nodes of a payload and into functions.
//!
//! A value is JSON (lent by the data model or the payload, or owned), a tool's response object
//! ([`ToolResponse`]), or strings cut out of one shared text ([`SharedText`]). The last two
//! keep the form the built-in functions read fastest (a tool's `json` parsed once and read in
//! place, text shared instead of copied) and become `serde_json` only when something asks for
//! JSON; that conversion is written once, here.

mod arg_value;
mod response;
mod shared_text;

pub(crate) use arg_value::{ArgValue, ArgView};
pub(crate) use response::{
    AppMembers, JsonMember, JsonText, MembersOf, TextMember, ToolResponse, read_json,
};
pub(crate) use shared_text::{SharedText, TextShape, TextSource};
