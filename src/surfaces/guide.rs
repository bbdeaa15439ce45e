//! The surfaces guide (`docs/surfaces.md`), whose examples run as doctests.

// The guide's examples are tested like the README's.
#[doc = include_str!("../../docs/surfaces.md")]
#[cfg(doctest)]
pub struct SurfacesGuideDoctests;
