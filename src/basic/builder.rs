//! [`BasicCatalog`]: the basic catalog built with the host's locale, time zone and URL
//! schemes.

use super::args::Kind;
use super::document::BASIC_CATALOG_JSON;
use super::functions::Basic;
use super::shared::{NumberFormatters, Shared, UrlRequests};
use crate::cache::LruCache;
use crate::catalog::Catalog;
use crate::error::{Error, ErrorCode};
use crate::origin::{Access, AllowedCallers};
use icu_locale_core::Locale;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

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
    /// that want the documented fallback use [`locale_or_default`](BasicCatalog::with_locale_or_default).
    /// A well-formed tag of a language the compiled data does not have falls back to `en-US`
    /// (ICU4X alone would fall back to CLDR's root locale).
    ///
    /// ```
    /// use a2ui_catalog_mcp::basic::BasicCatalog;
    /// assert_eq!(BasicCatalog::new().with_locale("cy")?.locale_tag(), "cy");
    /// assert_eq!(BasicCatalog::new().with_locale("ja-JP")?.locale_tag(), "ja-JP");
    /// assert_eq!(BasicCatalog::new().with_locale("xx-ZZ")?.locale_tag(), "en-US");
    /// # Ok::<(), a2ui_catalog_mcp::Error>(())
    /// ```
    pub fn with_locale(mut self, tag: &str) -> Result<BasicCatalog, Error> {
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
    pub fn with_locale_or_default(self, tag: &str) -> BasicCatalog {
        let fallback = self.clone();
        self.with_locale(tag).unwrap_or(fallback)
    }

    /// Sets the IANA time zone (`Europe/Berlin`); an unknown one is an error.
    pub fn with_time_zone(mut self, name: &str) -> Result<BasicCatalog, Error> {
        self.time_zone = jiff::tz::TimeZone::get(name).map_err(|e| {
            Error::new(
                ErrorCode::ValidationFailed,
                format!("unknown time zone '{name}': {e}"),
            )
        })?;
        Ok(self)
    }

    /// Lets `openUrl` open URLs of this scheme too (`mailto`, `tel`).
    pub fn with_allowed_scheme(mut self, scheme: &str) -> BasicCatalog {
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
            numbers: NumberFormatters::new(&self.locale),
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
