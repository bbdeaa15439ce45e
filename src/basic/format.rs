//! formatNumber, formatCurrency and pluralize with ICU4X's CLDR data, as JavaScript's
//! `Intl.NumberFormat` and `Intl.PluralRules` give them.
//!
//! A number is taken at its shortest round-trip decimal form (what ICU does with a double),
//! then rounded half away from zero ("half-expand", Intl's default) to the fraction digits.

use super::args::{Get, Kind, arg_error, number_arg};
use super::shared::{Currency, Shared};
use crate::catalog::{StaticArg, StaticArgs};
use crate::error::{Error, ErrorCode};
use crate::json::kind_name;
use fixed_decimal::Decimal;
use icu_experimental::dimension::currency::CurrencyType;
use icu_experimental::dimension::currency::formatter::CurrencyFormatter;
use icu_plurals::PluralCategory;
use serde_json::Value;
use std::sync::{Arc, OnceLock, PoisonError};
use writeable::Writeable;

/// `decimals`: an integer from 0 to 20.
pub(crate) fn decimals(kind: Kind, v: &Value) -> Result<Option<i16>, Error> {
    match v {
        Value::Null => Ok(None),
        Value::Number(n) => match n.as_f64() {
            Some(d) if d.fract() == 0.0 && (0.0..=20.0).contains(&d) => Ok(Some(d as i16)),
            _ => Err(arg_error(
                kind,
                "decimals",
                format!("must be an integer from 0 to 20, got {n}"),
            )),
        },
        other => Err(arg_error(
            kind,
            "decimals",
            format!("must be an integer from 0 to 20, got {}", kind_name(other)),
        )),
    }
}

/// The value to format: a number, or a string `Number()` reads; `None` for `null` (which
/// formats as `""`).
fn value(kind: Kind, args: &(impl Get + ?Sized)) -> Result<Option<f64>, Error> {
    number_arg(kind, args, "value")
}

/// A literal `value`, checked when the payload is compiled.
pub(crate) fn check_value(kind: Kind, v: &Value) -> Result<(), Error> {
    value(kind, [("value".to_owned(), v.clone())].as_slice()).map(|_| ())
}

fn grouping(kind: Kind, args: &(impl Get + ?Sized)) -> Result<bool, Error> {
    match args.get("grouping") {
        None | Some(Value::Null) => Ok(true),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(arg_error(
            kind,
            "grouping",
            format!("must be a boolean, got {}", kind_name(other)),
        )),
    }
}

/// The formatted text, written once into a string sized for it: `to_string` would start empty
/// and grow it (ICU4X's currency formatter gives no length hint).
fn text(formatted: &impl Writeable) -> String {
    // A formatted number of 16 integer digits, its separators and a symbol fit in 32 bytes.
    let mut out = String::with_capacity(formatted.writeable_length_hint().capacity().max(32));
    // Writing to a String cannot fail.
    let _ = formatted.write_to(&mut out);
    out
}

/// `n` (finite, not negative) at its shortest round-trip decimal form, as `digits × 10^exp`.
fn shortest(n: f64) -> (u64, i32) {
    let mut buffer = ryu_js::Buffer::new();
    let text = buffer.format_finite(n);
    let mut digits = 0u64;
    let mut exp = 0i32;
    let mut fraction = false;
    for (i, b) in text.bytes().enumerate() {
        match b {
            b'.' => fraction = true,
            b'0'..=b'9' if digits < 1_000_000_000_000_000_000 => {
                digits = digits * 10 + u64::from(b - b'0');
                if fraction {
                    exp -= 1;
                }
            }
            // Past 18 digits (Ryu gives at most 17 significant ones, but writes 1.2e20 as
            // 120000000000000000000): a zero of the integer part.
            b'0'..=b'9' => exp += 1,
            // `e` and the exponent, signed (`1e+21`, `1.5e-7`).
            _ => {
                exp += text[i + 1..].parse::<i32>().unwrap_or(0);
                break;
            }
        }
    }
    (digits, exp)
}

/// `n` at its shortest round-trip decimal form (what ICU does with a double), rounded
/// half-expand to `max` fraction digits, trailing zeros dropped past `min`. The rounding is
/// done on the integer of significant digits, so the decimal is built once, short.
fn rounded(n: f64, min: i16, max: i16) -> Decimal {
    let (mut digits, mut exp) = if n.is_finite() {
        shortest(n.abs())
    } else {
        (0, 0)
    };
    let cut = -i32::from(max) - exp;
    if cut > 0 {
        // Cutting digits means a fraction was written: `digits` has at most 17 significant
        // digits and no zeros after them, so below 10^17, and 10^k for k ≥ 18 is more than
        // twice it: it rounds to 0.
        digits = match 10u64.checked_pow(cut as u32) {
            Some(unit) if cut < 19 => {
                let (q, r) = (digits / unit, digits % unit);
                q + u64::from(r >= unit - r)
            }
            _ => 0,
        };
        exp = -i32::from(max);
    }
    let mut d = Decimal::from(digits);
    // |exp| ≤ 343 (5e-324 has 1 digit at 10^-324; 1.8e308 17 digits at 10^292).
    d.multiply_pow10(exp as i16);
    d.absolute.trim_end();
    d.absolute.pad_end(-min);
    if n.is_sign_negative() {
        d.sign = fixed_decimal::Sign::Negative;
    }
    d
}

/// formatNumber, its literal options read from the call site's state when there is one.
pub(crate) fn format_number(
    shared: &Shared,
    args: &(impl Get + ?Sized),
    site: Option<&Site>,
) -> Result<Value, Error> {
    let kind = Kind::FormatNumber;
    let (decimals, grouped) = Site::options(site, kind, args)?;
    let Some(n) = value(kind, args)? else {
        return Ok(Value::String(String::new()));
    };
    let (min, max) = decimals.map_or((0, 3), |d| (d, d));
    let d = rounded(n, min, max);
    let f = &shared.numbers;
    let formatter = if grouped { &f.grouped } else { &f.ungrouped };
    Ok(Value::String(text(&formatter.format(&d))))
}

impl Shared {
    /// The locale's formatter of this currency (an unknown ISO 4217 code is an error).
    pub(crate) fn currency_formatter(&self, code: &str) -> Result<Arc<Currency>, Error> {
        let key = code.to_ascii_uppercase();
        let mut cache = self
            .currencies
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(c) = cache.get(&key) {
            return Ok(Arc::clone(c));
        }
        let unknown = || {
            arg_error(
                Kind::FormatCurrency,
                "currency",
                format!("is not an ISO 4217 currency code: {code:?}"),
            )
        };
        if key.len() != 3 || !key.bytes().all(|b| b.is_ascii_uppercase()) {
            return Err(unknown());
        }
        let currency =
            CurrencyType::try_from_str(&key.to_ascii_lowercase()).map_err(|_| unknown())?;
        let prefs = (&self.numbers.locale).into();
        let formatter = CurrencyFormatter::try_new_symbol(prefs, currency, Default::default())
            .map_err(|e| {
                Error::new(
                    ErrorCode::ExpressionError,
                    format!("formatCurrency: no data for {code}: {e}"),
                )
            })?;
        let digits = i16::from(currency_digits(currency));
        let c = Arc::new(Currency { formatter, digits });
        if cache.len() < 512 {
            cache.insert(key, Arc::clone(&c));
        }
        Ok(c)
    }
}

/// The currency's minor units from ICU4X's ISO 4217 data (JPY 0, BHD 3, most 2).
fn currency_digits(currency: CurrencyType) -> u8 {
    use icu_experimental::dimension::provider::currency::fractions::CurrencyFractionsV1;
    use icu_provider::prelude::*;
    let loaded: Result<DataResponse<CurrencyFractionsV1>, _> =
        icu_experimental::provider::Baked.load(Default::default());
    loaded.map_or(2, |r| r.payload.get().resolve(currency).digits)
}

/// A formatCurrency call site's currency formatter: found when the payload is compiled for a
/// literal code; for a bound one, the first code the site formats is kept here, so that a site
/// that always sees the same code reaches its formatter without the shared cache's lock.
pub(crate) enum CurrencySite {
    Literal(Arc<Currency>),
    Bound(OnceLock<(Box<str>, Arc<Currency>)>),
}

impl CurrencySite {
    /// The site's formatter for this code, if it holds it.
    fn get(&self, code: &str) -> Option<&Currency> {
        match self {
            CurrencySite::Literal(c) => Some(c),
            CurrencySite::Bound(first) => first
                .get()
                .filter(|(seen, _)| **seen == *code)
                .map(|(_, c)| &**c),
        }
    }

    /// Keeps a bound site's first code (another code already held stays: this one goes
    /// through the shared cache each time).
    fn remember(&self, code: &str, currency: &Arc<Currency>) {
        if let CurrencySite::Bound(first) = self {
            let _ = first.set((code.into(), Arc::clone(currency)));
        }
    }
}

/// What a formatNumber or formatCurrency call site's literal arguments fix when the payload
/// is compiled: each option is `None` when bound (read at each call).
pub(crate) struct Site {
    decimals: Option<Option<i16>>,
    grouped: Option<bool>,
    currency: Option<CurrencySite>,
}

impl Site {
    /// The call site's literal options, already checked (each error at its argument).
    pub(crate) fn prepare(
        kind: Kind,
        args: &StaticArgs<'_>,
        shared: &Shared,
    ) -> Result<Site, Error> {
        let at = |arg: &'static str| move |e: Error| e.with_location(format!("args/{arg}"));
        let decimals = match args.get("decimals") {
            StaticArg::Absent => Some(None),
            StaticArg::Literal(v) => Some(decimals(kind, v).map_err(at("decimals"))?),
            StaticArg::Dynamic => None,
        };
        let grouped = match args.get("grouping") {
            StaticArg::Absent => Some(true),
            StaticArg::Literal(v) => Some(
                grouping(kind, [("grouping".to_owned(), v.clone())].as_slice())
                    .map_err(at("grouping"))?,
            ),
            StaticArg::Dynamic => None,
        };
        let currency = match (kind, args.get("currency")) {
            (Kind::FormatCurrency, StaticArg::Literal(Value::String(code))) => Some(
                CurrencySite::Literal(shared.currency_formatter(code).map_err(at("currency"))?),
            ),
            (Kind::FormatCurrency, _) => Some(CurrencySite::Bound(OnceLock::new())),
            _ => None,
        };
        Ok(Site {
            decimals,
            grouped,
            currency,
        })
    }

    /// `decimals` and `grouping`: the site's literals, else the call's arguments.
    fn options(
        site: Option<&Site>,
        kind: Kind,
        args: &(impl Get + ?Sized),
    ) -> Result<(Option<i16>, bool), Error> {
        let decimals = match site.and_then(|s| s.decimals) {
            Some(d) => d,
            None => decimals(kind, args.get("decimals").unwrap_or(&Value::Null))?,
        };
        let grouped = match site.and_then(|s| s.grouped) {
            Some(g) => g,
            None => grouping(kind, args)?,
        };
        Ok((decimals, grouped))
    }
}

/// formatCurrency, its formatter and literal options found through the call site's state
/// when there is one.
pub(crate) fn format_currency(
    shared: &Shared,
    args: &(impl Get + ?Sized),
    site: Option<&Site>,
) -> Result<Value, Error> {
    let kind = Kind::FormatCurrency;
    let (decimals, grouped) = Site::options(site, kind, args)?;
    let code = match args.get("currency") {
        Some(Value::String(s)) => s.as_str(),
        other => {
            return Err(arg_error(
                kind,
                "currency",
                format!(
                    "must be an ISO 4217 code, got {}",
                    kind_name(other.unwrap_or(&Value::Null))
                ),
            ));
        }
    };
    let found;
    let site = site.and_then(|s| s.currency.as_ref());
    let currency = match site.and_then(|site| site.get(code)) {
        Some(currency) => currency,
        None => {
            found = shared.currency_formatter(code)?;
            if let Some(site) = site {
                site.remember(code, &found);
            }
            &*found
        }
    };
    let Some(n) = value(kind, args)? else {
        return Ok(Value::String(String::new()));
    };
    // ICU4X's currency formatter rounds to the currency's own digits with grouping: format
    // that, then put the number as asked (decimals, grouping) in place of its digits.
    let digits = currency.digits;
    let own = rounded(n, digits, digits);
    let with_symbol = text(&currency.formatter.format_fixed_decimal(&own));
    let (min, max) = decimals.map_or((digits, digits), |d| (d, d));
    if (min, max) == (digits, digits) && grouped {
        return Ok(Value::String(with_symbol));
    }
    let wanted = rounded(n, min, max);
    let f = &shared.numbers;
    let mut own_abs = own.clone();
    own_abs.sign = fixed_decimal::Sign::None;
    let mut wanted_abs = wanted.clone();
    wanted_abs.sign = fixed_decimal::Sign::None;
    let own_text = f.grouped.format(&own_abs).to_string();
    let wanted_text = if grouped { &f.grouped } else { &f.ungrouped }
        .format(&wanted_abs)
        .to_string();
    let mut out = with_symbol.replacen(&own_text, &wanted_text, 1);
    // Rounded to the currency's digits a tiny negative can be zero while the asked digits
    // keep it negative, or the other way round: the sign follows the number shown.
    let own_negative = with_symbol.contains('-') || with_symbol.contains('\u{2212}');
    let wanted_negative = wanted.sign == fixed_decimal::Sign::Negative;
    if own_negative != wanted_negative {
        let mut flipped = own.clone();
        flipped.sign = wanted.sign;
        let redone = currency
            .formatter
            .format_fixed_decimal(&flipped)
            .to_string();
        out = redone.replacen(&own_text, &wanted_text, 1);
    }
    Ok(Value::String(out))
}

pub(crate) fn pluralize(shared: &Shared, args: &(impl Get + ?Sized)) -> Result<Value, Error> {
    let kind = Kind::Pluralize;
    let n = value(kind, args)?.unwrap_or(0.0);
    let exact = |name: &str, v: f64| {
        if n == v {
            args.get(name).and_then(Value::as_str)
        } else {
            None
        }
    };
    if let Some(text) = exact("zero", 0.0)
        .or_else(|| exact("one", 1.0))
        .or_else(|| exact("two", 2.0))
    {
        return Ok(Value::String(text.to_owned()));
    }
    // Intl.PluralRules reads the number as formatted with up to 3 fraction digits.
    let d = rounded(n, 0, 3);
    let category = shared.numbers.plurals.category_for(&d);
    let name = match category {
        PluralCategory::Zero => "zero",
        PluralCategory::One => "one",
        PluralCategory::Two => "two",
        PluralCategory::Few => "few",
        PluralCategory::Many => "many",
        PluralCategory::Other => "other",
    };
    let text = args
        .get(name)
        .and_then(Value::as_str)
        .or_else(|| args.get("other").and_then(Value::as_str))
        .ok_or_else(|| arg_error(kind, "other", "must be a string"))?;
    Ok(Value::String(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fixed_decimal::{FloatPrecision, SignedRoundingMode, UnsignedRoundingMode};

    /// fixed_decimal's own conversion and rounding, the oracle `rounded` must equal.
    fn by_fixed_decimal(n: f64, min: i16, max: i16) -> Decimal {
        let mut d = Decimal::try_from_f64(n, FloatPrecision::RoundTrip).unwrap_or_default();
        d.round_with_mode(
            -max,
            SignedRoundingMode::Unsigned(UnsignedRoundingMode::HalfExpand),
        );
        d.absolute.trim_end();
        d.absolute.pad_end(-min);
        d
    }

    #[test]
    fn rounded_equals_fixed_decimals_rounding() {
        let mut values = vec![
            0.0,
            -0.0,
            0.5,
            1.5,
            2.5,
            -2.5,
            0.125,
            0.0005,
            -0.004,
            -0.005,
            1.005,
            9.995,
            99.995,
            999_999.995,
            0.1 + 0.2,
            1e-7,
            1.5e-7,
            123e-20,
            5e-324,
            1e21,
            1.2e20,
            123_456_789_012_345_680_000.0,
            9_007_199_254_740_993.0,
            1e308,
            f64::MAX,
            f64::MIN_POSITIVE,
            0.000_001,
            0.999_999_999_999_999_9,
        ];
        // The bench's values and a spread of magnitudes.
        for i in 0..2000u32 {
            let v = f64::from((i * 37) % 10000) / 7.0 * 13.7 - 5000.0;
            values.push(v);
            values.push(v * 10f64.powi(i as i32 % 40 - 20));
        }
        for &n in &values {
            for (min, max) in [(0, 3), (2, 2), (0, 0), (3, 3), (20, 20), (0, 20), (1, 17)] {
                let want = by_fixed_decimal(n, min, max);
                let got = rounded(n, min, max);
                assert_eq!(got.to_string(), want.to_string(), "{n:e} ({min}, {max})");
                assert_eq!(got.sign, want.sign, "{n:e} ({min}, {max})");
            }
        }
    }
}
