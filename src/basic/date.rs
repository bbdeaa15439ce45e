//! formatDate: ISO 8601 or epoch-millisecond input, read with jiff and shown in the host's time
//! zone; TR35 patterns formatted by ICU4X with the locale's names.

use super::args::{Get, Kind, arg_error};
use super::shared::Shared;
use crate::error::{Error, ErrorCode};
use crate::json::kind_name;
use icu_calendar::Gregorian;
use icu_datetime::input::{Date, DateTime, Time};
use icu_datetime::pattern::{DateTimePattern, FixedCalendarDateTimeNames};
use jiff::Timestamp;
use serde_json::Value;
use writeable::TryWriteable;

/// The longest pattern accepted, in bytes (longer: `LIMIT_EXCEEDED`).
pub const MAX_PATTERN_BYTES: usize = 256;
/// The longest date text read; longer text is no date (`""`).
const MAX_DATE_BYTES: usize = 64;

/// JavaScript's time value range: ±100 000 000 days from the epoch, in milliseconds.
const MAX_TIME: i64 = 8_640_000_000_000_000;
const DAY_MS: i64 = 86_400_000;
/// The Gregorian calendar repeats every 400 years, 146 097 days: a date outside the years
/// jiff reads is read 400-year cycles nearer, then moved back.
const CYCLE_YEARS: i64 = 400;
const CYCLE_MS: i64 = 146_097 * DAY_MS;

/// The instant a value names, in epoch milliseconds within JavaScript's range: an ISO 8601
/// date (midnight UTC), date-time (UTC without an offset) or instant, with a four-digit year
/// or the expanded `±YYYYYY` one, or epoch milliseconds (a fraction truncated toward zero, as
/// JavaScript's `TimeClip` does). `None`: no such date.
fn instant(v: &Value) -> Option<i64> {
    let ms = match v {
        Value::Number(n) => {
            let ms = n.as_f64()?;
            if !ms.is_finite() || ms.abs() > MAX_TIME as f64 {
                return None;
            }
            // In range, so exact as an integer; `-0.5` truncates to 0.
            ms.trunc() as i64
        }
        Value::String(s) if s.len() <= MAX_DATE_BYTES => parse_date(s.trim())?,
        _ => return None,
    };
    (ms.abs() <= MAX_TIME).then_some(ms)
}

/// An ISO 8601 text's instant. Its year, four digits or the expanded `±YYYYYY`, is read as
/// the year of jiff's range with the same place in the 400-year cycle, and the cycles are added
/// back: jiff reads neither the expanded years nor the last hours of year 9999.
fn parse_date(s: &str) -> Option<i64> {
    fn digits(d: Option<&str>) -> Option<&str> {
        d.filter(|d| d.bytes().all(|b| b.is_ascii_digit()))
    }
    let (year, rest) = match s.as_bytes().first() {
        Some(sign @ (b'+' | b'-')) => {
            let year: i64 = digits(s.get(1..7))?.parse().ok()?;
            // `-000000` is not a year in ECMAScript's format.
            if *sign == b'-' && year == 0 {
                return None;
            }
            (if *sign == b'-' { -year } else { year }, &s[7..])
        }
        _ => (digits(s.get(0..4))?.parse().ok()?, &s[4..]),
    };
    let near = year.rem_euclid(CYCLE_YEARS) + 2000;
    let (text, cycles) = (format!("{near:04}{rest}"), (year - near) / CYCLE_YEARS);
    let ms = if let Ok(t) = text.parse::<Timestamp>() {
        t.as_millisecond()
    } else {
        text.parse::<jiff::civil::DateTime>()
            .ok()?
            .to_zoned_datetime(jiff::tz::TimeZone::UTC)
            .ok()?
            .timestamp()
            .as_millisecond()
    };
    ms.checked_add(cycles.checked_mul(CYCLE_MS)?)
}

/// The proleptic Gregorian (year, month, day) of a day counted from 1970-01-01 (Howard
/// Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `Date.prototype.toISOString()`: a four-digit year from 0 to 9999, else a sign and six
/// digits.
fn iso(ms: i64) -> String {
    let (year, month, day) = civil_from_days(ms.div_euclid(DAY_MS));
    let of_day = ms.rem_euclid(DAY_MS);
    let (h, m, sec, milli) = (
        of_day / 3_600_000,
        of_day / 60_000 % 60,
        of_day / 1_000 % 60,
        of_day % 1_000,
    );
    let year = match year {
        0..=9999 => format!("{year:04}"),
        y if y < 0 => format!("-{:06}", -y),
        y => format!("+{y:06}"),
    };
    format!("{year}-{month:02}-{day:02}T{h:02}:{m:02}:{sec:02}.{milli:03}Z")
}

/// The letters of TR35 pattern fields the formatter writes (or refuses itself): any other
/// letter outside quotes would be echoed or written as a placeholder, so it is refused.
const FIELDS: &str = "abcdeghmrsuvyzABDEFGHKLMOU";

/// The first letter of `pattern` outside quotes that names no field the formatter writes.
fn unwritable_field(pattern: &str) -> Option<char> {
    let mut quoted = false;
    pattern.chars().find(|&c| {
        if c == '\'' {
            // `''` is a quote, inside or outside quotes: toggling twice keeps the state.
            quoted = !quoted;
            return false;
        }
        !quoted && c.is_ascii_alphabetic() && !FIELDS.contains(c)
    })
}

pub(crate) fn format_date(shared: &Shared, args: &(impl Get + ?Sized)) -> Result<Value, Error> {
    let kind = Kind::FormatDate;
    let format = match args.get("format") {
        Some(Value::String(s)) => s.as_str(),
        other => {
            return Err(arg_error(
                kind,
                "format",
                format!(
                    "must be a string, got {}",
                    kind_name(other.unwrap_or(&Value::Null))
                ),
            ));
        }
    };
    if format.len() > MAX_PATTERN_BYTES {
        return Err(Error::new(
            ErrorCode::LimitExceeded,
            format!(
                "formatDate: the pattern has {} bytes, more than the limit of {MAX_PATTERN_BYTES}",
                format.len()
            ),
        )
        .with_function(kind.name()));
    }
    let pattern_error = |m: String| arg_error(kind, "format", m);
    if format != "ISO"
        && let Some(letter) = unwritable_field(format)
    {
        return Err(pattern_error(format!(
            "has the field '{letter}', which formatDate cannot write (quote a literal \
             letter: '{letter}'): {format:?}"
        )));
    }
    let value = args.get("value").unwrap_or(&Value::Null);
    let Some(ms) = instant(value) else {
        return Ok(Value::String(String::new()));
    };
    if format == "ISO" {
        return Ok(Value::String(iso(ms)));
    }
    let outside = || {
        pattern_error(format!(
            "cannot be written for a date outside the years -9999 to 9999 (\"ISO\" can): \
             {format:?}"
        ))
    };
    let t = Timestamp::from_millisecond(ms).map_err(|_| outside())?;
    let zoned = t.to_zoned_datetime(shared.time_zone.clone());
    let dt = zoned.datetime();
    let (Ok(date), Ok(time)) = (
        Date::try_new_gregorian(i32::from(dt.year()), dt.month() as u8, dt.day() as u8),
        Time::try_new(
            dt.hour() as u8,
            dt.minute() as u8,
            dt.second() as u8,
            dt.subsec_nanosecond() as u32,
        ),
    ) else {
        return Err(outside());
    };
    let input = DateTime { date, time };
    let pattern: DateTimePattern = DateTimePattern::try_from_pattern_str(format)
        .map_err(|e| pattern_error(format!("is not a TR35 pattern ({e:?}): {format:?}")))?;
    let mut names = FixedCalendarDateTimeNames::<Gregorian>::try_new((&shared.locale).into())
        .map_err(|e| pattern_error(format!("has no locale data: {e}")))?;
    let formatter = names
        .include_for_pattern(&pattern)
        .map_err(|e| pattern_error(format!("cannot be formatted ({e:?}): {format:?}")))?;
    let formatted = formatter.format(&input);
    let out = match formatted.try_write_to_string() {
        Ok(text) => text.into_owned(),
        Err((e, _)) => {
            return Err(pattern_error(format!(
                "needs what a date has not ({e:?}): {format:?}"
            )));
        }
    };
    Ok(Value::String(out))
}
