//! [`ArgValue`]: one value on its way into a function, in whichever form it has, and its one
//! conversion to `serde_json`.

use super::response::ToolResponse;
use super::shared_text::SharedText;
use serde_json::Value;
use std::borrow::Cow;
use std::sync::Arc;

/// One value: JSON, a tool's response object, or strings of a shared text.
pub(crate) enum ArgValue<'a> {
    Json(Cow<'a, Value>),
    Response(Arc<ToolResponse>),
    Text(Arc<SharedText>),
}

/// A borrowed [`ArgValue`], for readers that take every form (JMESPath).
#[derive(Clone, Copy)]
pub(crate) enum ArgView<'v> {
    Json(&'v Value),
    Response(&'v Arc<ToolResponse>),
    Text(&'v Arc<SharedText>),
}

impl<'a> ArgValue<'a> {
    /// The value as `serde_json` (built on first use for the other forms, then kept).
    pub(crate) fn json(&self) -> &Value {
        match self {
            ArgValue::Json(v) => v,
            ArgValue::Response(r) => r.value(),
            ArgValue::Text(t) => t.value(),
        }
    }

    /// The value as `serde_json`: owned values move, lent ones stay borrowed, and the other
    /// forms are converted (without a copy when nothing else shares them).
    pub(crate) fn into_json(self) -> Cow<'a, Value> {
        match self {
            ArgValue::Json(v) => v,
            ArgValue::Response(r) => Cow::Owned(
                Arc::try_unwrap(r).map_or_else(|r| r.value().clone(), ToolResponse::into_value),
            ),
            ArgValue::Text(t) => Cow::Owned(
                Arc::try_unwrap(t).map_or_else(|t| t.value().clone(), SharedText::into_value),
            ),
        }
    }

    /// The value in whichever form it has.
    pub(crate) fn view(&self) -> ArgView<'_> {
        match self {
            ArgValue::Json(v) => ArgView::Json(v),
            ArgValue::Response(r) => ArgView::Response(r),
            ArgValue::Text(t) => ArgView::Text(t),
        }
    }
}
