//! Go's `time.ParseDuration`, for flags kubectl reads with it (`--request-timeout`).

use std::time::Duration;

/// A Go `time.ParseDuration` string: a sequence of decimal numbers with units
/// `ns`, `us`/`µs`, `ms`, `s`, `m`, `h`. Negative durations make no sense for a timeout.
pub fn parse(text: &str) -> Result<Duration, String> {
    if text.starts_with('-') {
        return Err("a timeout cannot be negative".to_string());
    }
    let mut rest = text.strip_prefix('+').unwrap_or(text);
    if rest == "0" {
        return Ok(Duration::ZERO);
    }
    let mut total_nanos: f64 = 0.0;
    while !rest.is_empty() {
        let number_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let (number, after) = rest.split_at(number_len);
        if number.is_empty() || number == "." || number.matches('.').count() > 1 {
            return Err("expected a number like 30s, 1m or 1h30m".to_string());
        }
        let value: f64 = number
            .parse()
            .map_err(|_| format!("bad number \"{number}\""))?;
        let unit_len = after
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(after.len());
        let (unit, remaining) = after.split_at(unit_len);
        let nanos_per_unit = match unit {
            "ns" => 1.0,
            "us" | "µs" | "μs" => 1e3,
            "ms" => 1e6,
            "s" => 1e9,
            "m" => 60e9,
            "h" => 3600e9,
            "" => return Err(format!("missing unit after \"{number}\" (use s, m or h)")),
            other => return Err(format!("unknown unit \"{other}\" (use ms, s, m or h)")),
        };
        total_nanos += value * nanos_per_unit;
        rest = remaining;
    }
    // Cap far beyond any useful timeout so the conversion cannot overflow.
    const MAX_NANOS: f64 = 1e9 * 60.0 * 60.0 * 24.0 * 365.0 * 100.0;
    if !total_nanos.is_finite() || total_nanos > MAX_NANOS {
        return Err("too large".to_string());
    }
    Ok(Duration::from_nanos(total_nanos.round() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_go_durations() {
        assert_eq!(parse("1h30m"), Ok(Duration::from_secs(5400)));
        assert_eq!(parse("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(parse("500ms"), Ok(Duration::from_millis(500)));
        assert_eq!(parse("2µs"), Ok(Duration::from_micros(2)));
        assert_eq!(parse("0"), Ok(Duration::ZERO));
        assert!(parse("-1s").is_err());
        assert!(parse("1").is_err());
        assert!(parse("1d").is_err());
        assert!(parse("1..5s").is_err());
        assert!(parse("9999999999h").is_err());
    }
}
