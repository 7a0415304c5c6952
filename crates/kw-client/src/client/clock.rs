//! The server's clock, as its responses' `Date` headers tell it: what a time the server wrote
//! (a condition's `lastTransitionTime`, an event's `firstTimestamp`) is on kw's clock. A Pod
//! stuck since 10:00 by the server's clock has been stuck for as long as the server's clock
//! says, whatever kw's clock reads. Without a `Date` header (a proxy that drops it) nothing is
//! converted, and the caller falls back on what it saw itself.

use std::sync::Mutex;
use std::time::{Duration, SystemTime};

/// How far kw's clock is ahead of the server's, from the last response with a `Date`.
#[derive(Debug, Default)]
pub struct ServerClock {
    /// (kw's time − the server's), as (ahead, amount).
    offset: Mutex<Option<(bool, Duration)>>,
}

impl ServerClock {
    /// A response came at kw's `now` with `Date: date` (RFC 9110's IMF-fixdate).
    pub fn heard(&self, date: &str, now: SystemTime) {
        let Some(server) = parse_http_date(date) else {
            return;
        };
        let offset = match now.duration_since(server) {
            Ok(ahead) => (true, ahead),
            Err(behind) => (false, behind.duration()),
        };
        *kw_base::mutex::lock(&self.offset) = Some(offset);
    }

    /// `at`, a time the server wrote, on kw's clock; `None` while the server's clock is unknown.
    pub fn to_local(&self, at: SystemTime) -> Option<SystemTime> {
        let (ahead, amount) = (*kw_base::mutex::lock(&self.offset))?;
        match ahead {
            true => at.checked_add(amount),
            false => at.checked_sub(amount),
        }
    }
}

/// `Sun, 06 Nov 1994 08:49:37 GMT`, the only form a server may send now.
fn parse_http_date(date: &str) -> Option<SystemTime> {
    let mut words = date.split_ascii_whitespace().skip(1);
    let (day, month, year, time, zone) = (
        words.next()?,
        words.next()?,
        words.next()?,
        words.next()?,
        words.next()?,
    );
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let month = MONTHS.iter().position(|m| *m == month)? + 1;
    if zone != "GMT" || words.next().is_some() || day.len() != 2 || year.len() != 4 {
        return None;
    }
    humantime::parse_rfc3339(&format!("{year}-{month:02}-{day}T{time}Z")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_servers_time_is_read_on_kws_clock() {
        let clock = ServerClock::default();
        let at = humantime::parse_rfc3339("2026-11-28T05:00:00Z").unwrap();
        assert_eq!(clock.to_local(at), None);
        let now = humantime::parse_rfc3339("2026-11-28T05:00:10Z").unwrap();
        clock.heard("Sat, 28 Nov 2026 05:00:00 GMT", now);
        assert_eq!(clock.to_local(at), Some(now));
        clock.heard("Sat, 28 Nov 2026 05:00:20 GMT", now);
        assert_eq!(clock.to_local(at), Some(now - Duration::from_secs(20)));
        for bad in [
            "",
            "Sat, 28 Nov 2026 05:00:00 UTC",
            "28 Nov 2026",
            "Sat, 28 Foo 2026 05:00:00 GMT",
        ] {
            assert_eq!(parse_http_date(bad), None, "{bad}");
        }
    }
}
