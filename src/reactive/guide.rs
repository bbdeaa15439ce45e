//! The renderer guide (`docs/renderers.md`), whose examples run as doctests.

// The renderer guide's examples (docs/renderers.md) run as doctests; they use the scripted
// server of `testing`.
#[doc = include_str!("../../docs/renderers.md")]
#[cfg(all(doctest, feature = "testing"))]
pub struct RenderersGuideDoctests;
