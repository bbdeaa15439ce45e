//! What every function of one built catalog shares ([`Shared`]): the locale's formatters, the
//! time zone, the URL schemes and queue, the caches. The functions are methods on it, in the
//! files of their kind.

use super::args::Kind;
use super::document::BASIC_CATALOG_ID;
use super::template::Template;
use crate::builtins::MCP_CATALOG_ID;
use crate::cache::LruCache;
use crate::regex::Pattern;
use icu_decimal::options::{DecimalFormatterOptions, GroupingStrategy};
use icu_decimal::{DecimalFormatter, DecimalFormatterPreferences};
use icu_experimental::dimension::currency::formatter::CurrencyFormatter;
use icu_locale_core::Locale;
use icu_plurals::{PluralRules, PluralRulesPreferences};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

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
    pub(crate) patterns: LruCache<Arc<str>, Result<Pattern, String>>,
    pub(crate) templates: TemplateCache,
    pub(crate) numbers: NumberFormatters,
    pub(crate) currencies: Mutex<HashMap<String, Arc<Currency>>>,
    /// The MCP catalog's function names: a template's call to one names that catalog.
    pub(crate) mcp_functions: Vec<String>,
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

/// Parsed templates from data, by text.
pub(crate) type TemplateCache = LruCache<Arc<str>, Arc<Template>>;

/// The locale's number formatters, grouped and not, and its plural rules.
pub(crate) struct NumberFormatters {
    pub(super) grouped: DecimalFormatter,
    pub(super) ungrouped: DecimalFormatter,
    pub(super) plurals: PluralRules,
    pub(super) locale: Locale,
}

impl NumberFormatters {
    pub(crate) fn new(locale: &Locale) -> NumberFormatters {
        let prefs = DecimalFormatterPreferences::from(locale);
        let with = |g: GroupingStrategy| {
            let mut options = DecimalFormatterOptions::default();
            options.grouping_strategy = Some(g);
            // Compiled data covers every locale through fallback to the root locale.
            DecimalFormatter::try_new(prefs, options).expect("compiled decimal data")
        };
        NumberFormatters {
            grouped: with(GroupingStrategy::Auto),
            ungrouped: with(GroupingStrategy::Never),
            plurals: PluralRules::try_new_cardinal(PluralRulesPreferences::from(locale))
                .expect("compiled plural data"),
            locale: locale.clone(),
        }
    }
}

/// A currency's formatter in the locale, and its default fraction digits.
pub(crate) struct Currency {
    pub(super) formatter: CurrencyFormatter<DecimalFormatter>,
    pub(super) digits: i16,
}
