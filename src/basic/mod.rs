//! The A2UI basic catalog (feature `basic-catalog`): its 30 functions, formatString's `${…}`
//! language ([`Template`]), and number, currency, plural and date formatting with the host's
//! locale and time zone.
//!
//! ```
//! use a2ui_catalog_mcp::basic::{BasicCatalog, BASIC_CATALOG_ID};
//! use a2ui_catalog_mcp::Environment;
//! use serde_json::json;
//!
//! let mut env = Environment::new();
//! env.add_catalog(BasicCatalog::new().locale("de-DE")?.build());
//! env.set_default_catalog(BASIC_CATALOG_ID);
//! let label = env.compile(&json!({"@call": "formatString", "args": {
//!     "value": "${name}: ${formatCurrency(value: ${price}, currency: 'EUR')}"}}))?;
//! assert_eq!(label.eval(&mut json!({"name": "Tee", "price": 1234.5}))?, json!("Tee: 1.234,50\u{a0}€"));
//! # Ok::<(), a2ui_catalog_mcp::Error>(())
//! ```
//!
//! # What the functions do
//!
//! The catalog document is the v1.0 specification's (`catalog/basic-catalog-v1.json`,
//! [`BASIC_CATALOG_JSON`]), read with [`Catalog::from_schema`]: required and undeclared
//! arguments are compile-time `VALIDATION_FAILED` with their location; literal arguments are
//! checked by the functions themselves (the suite's numeric text and truthy values pass where
//! the schema's types would refuse them), at compile time where they are literal. The rules follow
//! `docs/basic-catalog.md`:
//!
//! - `required`, `regex` (the crate's portable dialect and safety check), `length` (UTF-16
//!   code units, as JavaScript counts; `split` counts code points), `numeric`, `email` (the
//!   reference's ASCII check) return booleans; `and`, `or`, `not` use JavaScript truthiness and
//!   read a `validationResult` object's `valid`; `and` / `or` need at least two values.
//! - `formatNumber`, `formatCurrency`: ICU4X with the host's locale; `decimals` (0..=20) fixes
//!   the minimum and maximum fraction digits; absent, up to 3 for numbers and the currency's
//!   minor units; `null` gives `""`.
//! - `formatDate`: TR35 patterns formatted by ICU4X in the host's locale and time zone; `"ISO"`
//!   gives `toISOString()`'s form; an impossible date gives `""`.
//! - `pluralize`: the locale's CLDR cardinal category; `zero` / `one` / `two` win for exactly
//!   0 / 1 / 2; then `other`.
//! - Operators follow JavaScript's `Number` arithmetic; a result JSON cannot hold (`x / 0`) is
//!   `EXPRESSION_ERROR`. `equals` compares JSON values deeply.
//! - `openUrl` does no I/O: it queues the URL for the host ([`UrlRequests`]), for `http` and
//!   `https` only unless the host allows more ([`BasicCatalog::allow_scheme`]).
//! - `formatString`: a literal template is expanded at compile time into bindings and calls
//!   ([`Function::expand`](crate::Function::expand)): its paths are exact dependencies, its
//!   calls are checked and located like any other, a tool called inside it is the payload's
//!   tool call. A template from data is parsed once per distinct text (bounded cache) and may
//!   read paths and call the catalog's pure functions only.

mod date;
mod format;
mod functions;
mod template;

pub use template::{Call, Expr, MAX_NESTING, MAX_PARTS, MAX_TEMPLATE_BYTES, Template};

use crate::builtins::MCP_CATALOG_ID;
use crate::cache::LruCache;
use crate::catalog::Catalog;
use crate::error::{Error, ErrorCode};
use crate::origin::{Access, AllowedCallers};
use functions::{Basic, Kind, TemplateCache};
use icu_locale_core::Locale;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

/// The id of the basic catalog (v1.0).
pub const BASIC_CATALOG_ID: &str =
    "https://a2ui.org/specification/v1_0/catalogs/basic/catalog.json";

/// The basic catalog document the crate implements (the v1.0 specification's, 30 functions).
pub const BASIC_CATALOG_JSON: &str = include_str!("../../catalog/basic-catalog-v1.json");

/// The URLs `openUrl` asked the host to open, in order; the host takes them and opens them
/// (the crate does no I/O). Clones share the queue.
#[derive(Debug, Clone, Default)]
pub struct UrlRequests(Arc<Mutex<Vec<String>>>);

impl UrlRequests {
    pub(crate) fn push(&self, url: String) {
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(url);
    }

    /// Takes the queued URLs.
    pub fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// What every function of one built catalog shares: the locale's formatters, the time zone,
/// the caches.
pub(crate) struct Shared {
    pub(crate) locale: Locale,
    pub(crate) time_zone: jiff::tz::TimeZone,
    pub(crate) schemes: Vec<String>,
    pub(crate) url_requests: UrlRequests,
    pub(crate) patterns: crate::builtins::patterns::PatternCache,
    pub(crate) templates: TemplateCache,
    pub(crate) numbers: format::NumberFormatters,
    pub(crate) currencies: Mutex<HashMap<String, Arc<format::Currency>>>,
    /// The MCP catalog's function names: a template's call to one names that catalog.
    mcp_functions: Vec<String>,
}

impl Shared {
    /// The `catalogId` a template's call names: the basic catalog for its own functions, the
    /// MCP catalog for its, else none (the environment's default catalog).
    pub(crate) fn catalog_of(&self, name: &str) -> Option<String> {
        if Kind::of(name).is_some() {
            Some(BASIC_CATALOG_ID.to_owned())
        } else if self.mcp_functions.iter().any(|f| f == name) {
            Some(MCP_CATALOG_ID.to_owned())
        } else {
            None
        }
    }
}

/// Whether the compiled data has the locale's language: month names are the most
/// language-specific data (ICU4X drops data equal to its fallback, so number symbols or plural
/// rules equal to the root locale's would not tell).
fn has_data(locale: &Locale) -> bool {
    use icu_datetime::provider::names::DatetimeNamesMonthGregorianV1;
    use icu_provider::prelude::*;
    let data_locale = DataLocale::from(locale);
    let mut request = DataRequest {
        id: DataIdentifierBorrowed::for_marker_attributes_and_locale(
            DataMarkerAttributes::from_str_or_panic("5"),
            &data_locale,
        ),
        ..Default::default()
    };
    // Wide names ("5"): the question is only which locale the data comes from.
    request.metadata.silent = true;
    let response: Result<DataResponse<DatetimeNamesMonthGregorianV1>, _> =
        icu_datetime::provider::Baked.load(request);
    // `metadata.locale` names the locale fallback reached; none: the locale itself had it.
    response.is_ok_and(|r| r.metadata.locale.is_none_or(|l| !l.is_unknown()))
}

/// Builds the basic catalog with the host's locale, time zone and URL schemes.
///
/// Locales: ICU4X's compiled data ships every CLDR locale with modern coverage (de, fr, ja, hi,
/// ar, pt, ru, pl, cy, en-IN, …): any BCP 47 tag resolves to its nearest supported locale by
/// CLDR fallback, and a tag that cannot be read falls back to `en-US`. A host that needs other
/// data builds ICU4X's data itself; the defaults here are the compiled set.
#[derive(Debug, Clone)]
pub struct BasicCatalog {
    locale: Locale,
    time_zone: jiff::tz::TimeZone,
    schemes: Vec<String>,
    url_requests: UrlRequests,
}

impl Default for BasicCatalog {
    fn default() -> BasicCatalog {
        BasicCatalog::new()
    }
}

impl BasicCatalog {
    /// `en-US`, `UTC`, `http` and `https`.
    pub fn new() -> BasicCatalog {
        BasicCatalog {
            locale: icu_locale_core::locale!("en-US"),
            time_zone: jiff::tz::TimeZone::UTC,
            schemes: vec!["http".into(), "https".into()],
            url_requests: UrlRequests::default(),
        }
    }

    /// Sets the locale (BCP 47). A tag that cannot be read is an error here; the CLI and hosts
    /// that want the documented fallback use [`locale_or_default`](BasicCatalog::locale_or_default).
    /// A well-formed tag of a language the compiled data does not have falls back to `en-US`
    /// (ICU4X alone would fall back to CLDR's root locale).
    ///
    /// ```
    /// use a2ui_catalog_mcp::basic::BasicCatalog;
    /// assert_eq!(BasicCatalog::new().locale("cy")?.locale_tag(), "cy");
    /// assert_eq!(BasicCatalog::new().locale("ja-JP")?.locale_tag(), "ja-JP");
    /// assert_eq!(BasicCatalog::new().locale("xx-ZZ")?.locale_tag(), "en-US");
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn locale(mut self, tag: &str) -> Result<BasicCatalog, Error> {
        let locale = Locale::try_from_str(tag).map_err(|e| {
            Error::new(
                ErrorCode::ValidationFailed,
                format!("the locale '{tag}' is not a BCP 47 tag: {e}"),
            )
        })?;
        self.locale = if has_data(&locale) {
            locale
        } else {
            icu_locale_core::locale!("en-US")
        };
        Ok(self)
    }

    /// The locale in use, as a BCP 47 tag.
    pub fn locale_tag(&self) -> String {
        self.locale.to_string()
    }

    /// Sets the locale, falling back to `en-US` when the tag cannot be read.
    pub fn locale_or_default(self, tag: &str) -> BasicCatalog {
        let fallback = self.clone();
        self.locale(tag).unwrap_or(fallback)
    }

    /// Sets the IANA time zone (`Europe/Berlin`); an unknown one is an error.
    pub fn time_zone(mut self, name: &str) -> Result<BasicCatalog, Error> {
        self.time_zone = jiff::tz::TimeZone::get(name).map_err(|e| {
            Error::new(
                ErrorCode::ValidationFailed,
                format!("unknown time zone '{name}': {e}"),
            )
        })?;
        Ok(self)
    }

    /// Lets `openUrl` open URLs of this scheme too (`mailto`, `tel`).
    pub fn allow_scheme(mut self, scheme: &str) -> BasicCatalog {
        self.schemes.push(scheme.to_ascii_lowercase());
        self
    }

    /// The queue `openUrl` puts its requests in (shared with the catalogs this builds).
    pub fn url_requests(&self) -> UrlRequests {
        self.url_requests.clone()
    }

    /// The catalog: declared from [`BASIC_CATALOG_JSON`], every function implemented.
    pub fn build(&self) -> Catalog {
        // Like the MCP catalog's, these functions check their literal arguments themselves, by
        // the decided rules: the suite and the reference accept numeric text, truthy values
        // and arrays where the schema's types say number, boolean or string. Required and
        // undeclared arguments and `returnType` are still checked from the document, and the
        // schema itself when the environment asks for it (`Environment::set_schema_checks`).
        // The document and its validators are read once per process; the implementations,
        // with their caches and the host's locale, are made per catalog.
        static DECLARED: std::sync::OnceLock<Catalog> = std::sync::OnceLock::new();
        let mut catalog = DECLARED
            .get_or_init(|| {
                let schema: Value = serde_json::from_str(BASIC_CATALOG_JSON)
                    .expect("the bundled catalog is valid JSON");
                Catalog::from_schema_without_literal_checks(&schema)
                    .expect("the bundled catalog is well formed")
            })
            .clone();
        let shared = Arc::new(Shared {
            numbers: format::NumberFormatters::new(&self.locale),
            locale: self.locale.clone(),
            time_zone: self.time_zone.clone(),
            schemes: self.schemes.clone(),
            url_requests: self.url_requests.clone(),
            patterns: Default::default(),
            templates: LruCache::default(),
            currencies: Mutex::new(HashMap::new()),
            mcp_functions: Catalog::mcp()
                .function_names()
                .iter()
                .map(|s| (*s).to_owned())
                .collect(),
        });
        for (name, kind) in Kind::ALL {
            catalog.implement(
                name,
                Basic {
                    kind,
                    shared: Arc::clone(&shared),
                },
            );
        }
        // openUrl needs user activation, as the web reference's v1.0 catalog declares it and
        // the decided rules say; the specification's catalog text (the bundled document) does
        // not carry the flag, so it is set here, and the engine enforces it: from a binding it
        // is a denial, never a silent open.
        catalog
            .set_access("openUrl", Access::new(AllowedCallers::RendererOnly, true))
            .expect("the bundled catalog declares openUrl");
        catalog
    }
}

#[cfg(test)]
mod tests;
