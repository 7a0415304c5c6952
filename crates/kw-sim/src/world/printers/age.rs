//! Ages as the API server prints them: `translateTimestampSince` and apimachinery's
//! `duration.HumanDuration` (two or three significant figures: `59s`, `5m10s`, `2d4h`, `3y`).

use std::time::SystemTime;

/// `HumanDuration` for a signed number of nanoseconds.
pub fn human_duration(nanos: i128) -> String {
    const SECOND: i128 = 1_000_000_000;
    const MINUTE: i128 = 60 * SECOND;
    const HOUR: i128 = 60 * MINUTE;
    // Division truncates toward zero, as Go's conversions of a Duration do.
    let seconds = nanos / SECOND;
    // Up to a second in the future counts as "now": clocks of different machines disagree.
    if seconds < -1 {
        return "<invalid>".into();
    }
    if seconds < 0 {
        return "0s".into();
    }
    if seconds < 60 * 2 {
        return format!("{seconds}s");
    }
    let minutes = nanos / MINUTE;
    if minutes < 10 {
        let rest = seconds % 60;
        return if rest == 0 {
            format!("{minutes}m")
        } else {
            format!("{minutes}m{rest}s")
        };
    }
    if minutes < 60 * 3 {
        return format!("{minutes}m");
    }
    let hours = nanos / HOUR;
    if hours < 8 {
        let rest = minutes % 60;
        return if rest == 0 {
            format!("{hours}h")
        } else {
            format!("{hours}h{rest}m")
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        let rest = hours % 24;
        return if rest == 0 {
            format!("{}d", hours / 24)
        } else {
            format!("{}d{rest}h", hours / 24)
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        let rest = (hours / 24) % 365;
        return if rest == 0 {
            format!("{}y", hours / 24 / 365)
        } else {
            format!("{}y{rest}d", hours / 24 / 365)
        };
    }
    format!("{}y", hours / 24 / 365)
}

/// Parses a `metav1.Time` (RFC 3339, UTC). `None` for a missing, zero or malformed time.
pub fn parse_time(value: Option<&str>) -> Option<SystemTime> {
    let text = value?;
    let at = humantime::parse_rfc3339(text).ok()?;
    // Go's zero time (0001-01-01) cannot be represented here and fails to parse, as it should:
    // the printers treat it as unset.
    Some(at)
}

/// Signed nanoseconds from `at` to `now`.
pub fn nanos_between(at: SystemTime, now: SystemTime) -> i128 {
    match now.duration_since(at) {
        Ok(elapsed) => elapsed.as_nanos() as i128,
        Err(ahead) => -(ahead.duration().as_nanos() as i128),
    }
}

/// `translateTimestampSince`: `<unknown>` for an unset time, else its `HumanDuration` age.
pub fn since(value: Option<&str>, now: SystemTime) -> String {
    match parse_time(value) {
        Some(at) => human_duration(nanos_between(at, now)),
        None => "<unknown>".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    const S: i128 = 1_000_000_000;

    #[test]
    fn human_duration_matches_apimachinery() {
        let cases: &[(i128, &str)] = &[
            (-3 * S, "<invalid>"),
            (-S - S / 2, "0s"),
            (-S / 2, "0s"),
            (0, "0s"),
            (59 * S, "59s"),
            (119 * S, "119s"),
            (120 * S, "2m"),
            (310 * S, "5m10s"),
            (599 * S, "9m59s"),
            (600 * S, "10m"),
            (179 * 60 * S, "179m"),
            (3 * 3600 * S, "3h"),
            (3 * 3600 * S + 25 * 60 * S, "3h25m"),
            (8 * 3600 * S, "8h"),
            (47 * 3600 * S, "47h"),
            (48 * 3600 * S, "2d"),
            (52 * 3600 * S, "2d4h"),
            (7 * 86400 * S + 23 * 3600 * S, "7d23h"),
            (8 * 86400 * S, "8d"),
            (729 * 86400 * S, "729d"),
            (730 * 86400 * S, "2y"),
            (731 * 86400 * S, "2y1d"),
            (8 * 365 * 86400 * S, "8y"),
            (10 * 365 * 86400 * S + 86400 * S, "10y"),
        ];
        for (nanos, expected) in cases {
            assert_eq!(human_duration(*nanos), *expected, "for {nanos}ns");
        }
    }

    #[test]
    fn since_handles_missing_and_bad_timestamps() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_310);
        assert_eq!(since(Some("2023-11-14T22:13:20Z"), now), "5m10s");
        assert_eq!(since(None, now), "<unknown>");
        assert_eq!(since(Some("yesterday"), now), "<unknown>");
        assert_eq!(since(Some("2023-11-14T22:13:20.250Z"), now), "5m9s");
    }
}
