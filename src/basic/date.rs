//! formatDate: ISO 8601 or epoch-millisecond input, read with jiff and shown in the host's time
//! zone; TR35 patterns formatted by ICU4X with the locale's names.

use super::Shared;
use super::functions::{Get, Kind, arg_error};
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

/// The instant a value names: an ISO 8601 date (midnight UTC), date-time (UTC without an
/// offset) or instant, or epoch milliseconds. `None`: no such date.
fn instant(v: &Value) -> Option<Timestamp> {
    match v {
        Value::Number(n) => {
            let ms = n.as_f64()?;
            if !ms.is_finite() || ms.fract() != 0.0 || ms.abs() > 8.64e15 {
                return None;
            }
            Timestamp::from_millisecond(ms as i64).ok()
        }
        Value::String(s) if s.len() <= MAX_DATE_BYTES => {
            let s = s.trim();
            if let Ok(t) = s.parse::<Timestamp>() {
                return Some(t);
            }
            if let Ok(dt) = s.parse::<jiff::civil::DateTime>() {
                return dt
                    .to_zoned_datetime(jiff::tz::TimeZone::UTC)
                    .ok()
                    .map(|z| z.timestamp());
            }
            None
        }
        _ => None,
    }
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
    let value = args.get("value").unwrap_or(&Value::Null);
    let Some(t) = instant(value) else {
        return Ok(Value::String(String::new()));
    };
    if format == "ISO" {
        return Ok(Value::String(
            t.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
        ));
    }
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
        return Ok(Value::String(String::new()));
    };
    let input = DateTime { date, time };
    let pattern_error = |m: String| arg_error(kind, "format", m);
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
