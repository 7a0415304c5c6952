//! `--timestamps`: when kw received each event, as a TIME column in tables and a `"ts"` field in
//! JSON event lines. Users wrap kubectl in shell loops just to get this.
//!
//! `local` is a short wall clock (`13:00:12.345`) in a table, where width is scarce and the
//! person reading knows the date, and the full RFC 3339 form with its offset in JSON lines,
//! which programs read later and elsewhere.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// `--timestamps[=rfc3339|local|relative]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimestampFormat {
    /// UTC, RFC 3339 to the millisecond: `2026-01-01T12:00:00.123Z`.
    #[default]
    Rfc3339,
    /// The local time: `13:00:00.123` in tables, `2026-01-01T13:00:00.123+01:00` in JSON.
    Local,
    /// Seconds since kw started: `+12.345s`.
    Relative,
}

impl std::str::FromStr for TimestampFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "rfc3339" => Ok(TimestampFormat::Rfc3339),
            "local" => Ok(TimestampFormat::Local),
            "relative" => Ok(TimestampFormat::Relative),
            other => Err(format!(
                "--timestamps must be rfc3339, local or relative, not {other:?}"
            )),
        }
    }
}

/// Format `at` for a table's TIME column: as `format_timestamp`, but `local` is the short
/// clock `HH:MM:SS.mmm`.
pub fn format_time_cell(format: TimestampFormat, at: SystemTime, start: SystemTime) -> String {
    match format {
        TimestampFormat::Local => {
            let offset = local_offset_seconds(at).unwrap_or(0);
            short_clock(at, offset)
        }
        _ => format_timestamp(format, at, start),
    }
}

/// Format `at` in full (JSON lines); `start` is when kw started (for `relative`).
pub fn format_timestamp(format: TimestampFormat, at: SystemTime, start: SystemTime) -> String {
    match format {
        TimestampFormat::Rfc3339 => humantime::format_rfc3339_millis(at).to_string(),
        TimestampFormat::Relative => {
            let elapsed = at.duration_since(start).unwrap_or(Duration::ZERO);
            format!("+{}.{:03}s", elapsed.as_secs(), elapsed.subsec_millis())
        }
        TimestampFormat::Local => match local_offset_seconds(at) {
            Some(offset) => format_with_offset(at, offset),
            None => humantime::format_rfc3339_millis(at).to_string(),
        },
    }
}

/// `at` shifted by `offset` seconds, written as RFC 3339 with that offset.
fn format_with_offset(at: SystemTime, offset: i64) -> String {
    let shifted = if offset >= 0 {
        at + Duration::from_secs(offset.unsigned_abs())
    } else {
        at.checked_sub(Duration::from_secs(offset.unsigned_abs()))
            .unwrap_or(UNIX_EPOCH)
    };
    let utc = humantime::format_rfc3339_millis(shifted).to_string();
    let base = utc.trim_end_matches('Z');
    if offset == 0 {
        return format!("{base}Z");
    }
    let sign = if offset < 0 { '-' } else { '+' };
    let minutes = offset.unsigned_abs() / 60;
    format!("{base}{sign}{:02}:{:02}", minutes / 60, minutes % 60)
}

/// `at` shifted by `offset` seconds, as `HH:MM:SS.mmm`.
fn short_clock(at: SystemTime, offset: i64) -> String {
    let full = format_with_offset(at, offset);
    // `2026-01-01T13:00:12.345+01:00`: the clock is the 12 characters after the `T`.
    match full.split_once('T') {
        Some((_, rest)) => rest.chars().take(12).collect(),
        None => full,
    }
}

/// The local zone's offset from UTC at `at`, from the C library (which reads `TZ` and
/// `/etc/localtime`).
#[cfg(unix)]
fn local_offset_seconds(at: SystemTime) -> Option<i64> {
    let seconds = at.duration_since(UNIX_EPOCH).ok()?.as_secs();
    let time = libc::time_t::try_from(seconds).ok()?;
    // SAFETY: `localtime_r` writes only into the `tm` we own and reads the `time_t` we pass.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    let result = unsafe { libc::localtime_r(&time, &mut tm) };
    if result.is_null() {
        return None;
    }
    Some(tm.tm_gmtoff as i64)
}

/// The local zone's offset from UTC at `at`: Windows' C library has no `tm_gmtoff`, so the
/// local calendar time is read back as if it were UTC and compared.
#[cfg(not(unix))]
fn local_offset_seconds(at: SystemTime) -> Option<i64> {
    let seconds = at.duration_since(UNIX_EPOCH).ok()?.as_secs();
    let time = libc::time_t::try_from(seconds).ok()?;
    // SAFETY: `localtime_s` writes only into the `tm` we own and reads the `time_t` we pass.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    if unsafe { libc::localtime_s(&mut tm, &time) } != 0 {
        return None;
    }
    let days = days_from_civil(
        i64::from(tm.tm_year) + 1900,
        i64::from(tm.tm_mon) + 1,
        i64::from(tm.tm_mday),
    );
    let local = days * 86_400
        + i64::from(tm.tm_hour) * 3_600
        + i64::from(tm.tm_min) * 60
        + i64::from(tm.tm_sec);
    Some(local - seconds as i64)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
#[cfg(not(unix))]
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_index = (month + 9) % 12;
    let day_of_year = (153 * month_index + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats() {
        let start = humantime::parse_rfc3339("2026-01-01T12:00:00Z").unwrap();
        let at = start + Duration::from_millis(12_345);
        assert_eq!(
            format_timestamp(TimestampFormat::Rfc3339, at, start),
            "2026-01-01T12:00:12.345Z"
        );
        assert_eq!(
            format_timestamp(TimestampFormat::Relative, at, start),
            "+12.345s"
        );
        assert_eq!(
            format_with_offset(at, 3600),
            "2026-01-01T13:00:12.345+01:00"
        );
        assert_eq!(
            format_with_offset(at, -5400),
            "2026-01-01T10:30:12.345-01:30"
        );
        assert_eq!(format_with_offset(at, 0), "2026-01-01T12:00:12.345Z");
        let local = format_timestamp(TimestampFormat::Local, at, start);
        assert!(local.starts_with("2026-01-01T"), "{local}");
    }

    #[test]
    fn tables_get_a_short_local_clock() {
        let start = humantime::parse_rfc3339("2026-01-01T23:59:59.5Z").unwrap();
        let at = start + Duration::from_millis(12_345);
        assert_eq!(short_clock(at, 0), "00:00:11.845");
        assert_eq!(short_clock(at, 3600), "01:00:11.845");
        assert_eq!(short_clock(at, -5400), "22:30:11.845");
        assert_eq!(short_clock(start, 0), "23:59:59.500");
        // Whole seconds still show their milliseconds, so the column keeps its width.
        let whole = humantime::parse_rfc3339("2026-01-01T08:05:03Z").unwrap();
        assert_eq!(short_clock(whole, 0), "08:05:03.000");
        let cell = format_time_cell(TimestampFormat::Local, at, start);
        assert_eq!(cell.len(), 12, "{cell}");
        assert_eq!(cell.as_bytes()[2], b':');
        assert_eq!(
            format_time_cell(TimestampFormat::Rfc3339, at, start),
            "2026-01-02T00:00:11.845Z"
        );
        assert_eq!(
            format_time_cell(TimestampFormat::Relative, at, start),
            "+12.345s"
        );
    }
}
