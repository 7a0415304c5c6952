//! AGE and `RESTARTS (Xs ago)` kept moving between events. The server writes them as of the
//! event (`7s`, `7 (2m10s ago)`); the view shows a row for as long as nothing changes it, so
//! each frame writes them again as of now, in the same words (apimachinery's `HumanDuration`).
//!
//! AGE counts from the object's `creationTimestamp` when kw's clock agrees with the server's
//! cell at receipt (the exact age, to the second); otherwise (the clocks differ) from the cell
//! itself, read as the least age it can mean. `(Xs ago)` has no timestamp in the row's object:
//! it counts from its cell.

use std::borrow::Cow;
use std::time::Instant;

use crate::output::printer::fallback::human_duration;

use super::cells::strip_styles;

/// The cells of a row that tick, and since when.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Ticking {
    received: Instant,
    cells: Vec<(usize, Tick)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Tick {
    /// An AGE cell: the age in seconds at receipt.
    Age(u64),
    /// `7 (2m10s ago)`: the text before the duration, and the seconds at receipt.
    Ago { before: String, seconds: u64 },
}

/// Which cells of `line` (under `header`) tick, read at `received`. `age`: the object's age by
/// kw's clock at receipt, from its `creationTimestamp`, when it has one.
pub(super) fn ticking(
    header: &[u8],
    line: &[u8],
    age: Option<u64>,
    received: Instant,
) -> Option<Ticking> {
    let header = strip_styles(header);
    let line = strip_styles(line);
    let mut cells = Vec::new();
    for (index, (name, cell)) in header
        .split(|b| *b == b'\t')
        .zip(line.split(|b| *b == b'\t'))
        .enumerate()
    {
        let Ok(cell) = std::str::from_utf8(cell) else {
            continue;
        };
        match name {
            b"AGE" => {
                let Some(least) = parse_human(cell) else {
                    continue;
                };
                // kw's clock agrees with the server's: count from the timestamp, exactly.
                let seconds = age
                    .filter(|&exact| human_duration(exact as i64) == cell)
                    .unwrap_or(least);
                cells.push((index, Tick::Age(seconds)));
            }
            b"RESTARTS" => {
                let Some(inner) = cell.strip_suffix(" ago)") else {
                    continue;
                };
                let Some((before, duration)) = inner.rsplit_once('(') else {
                    continue;
                };
                let Some(seconds) = parse_human(duration) else {
                    continue;
                };
                cells.push((
                    index,
                    Tick::Ago {
                        before: format!("{before}("),
                        seconds,
                    },
                ));
            }
            _ => {}
        }
    }
    (!cells.is_empty()).then_some(Ticking { received, cells })
}

/// `line` with its ticking cells written as of `now`; borrowed when none has changed.
pub(super) fn tick<'a>(line: &'a [u8], ticking: Option<&Ticking>, now: Instant) -> Cow<'a, [u8]> {
    let Some(ticking) = ticking else {
        return Cow::Borrowed(line);
    };
    let elapsed = now.saturating_duration_since(ticking.received).as_secs();
    if elapsed == 0 {
        return Cow::Borrowed(line);
    }
    let mut cells: Vec<Cow<'_, [u8]>> = line.split(|b| *b == b'\t').map(Cow::Borrowed).collect();
    for (index, tick) in &ticking.cells {
        let Some(cell) = cells.get_mut(*index) else {
            continue;
        };
        let text = match tick {
            Tick::Age(seconds) => human_duration((seconds + elapsed) as i64),
            Tick::Ago { before, seconds } => {
                format!(
                    "{before}{} ago)",
                    human_duration((seconds + elapsed) as i64)
                )
            }
        };
        *cell = Cow::Owned(text.into_bytes());
    }
    Cow::Owned(cells.join(&b'\t'))
}

/// The least number of seconds a `HumanDuration` (`7s`, `2m10s`, `26h`, `4d20h`, `2y3d`) can
/// mean; `None` for anything else (`<invalid>`, `<unknown>`, a number alone).
fn parse_human(text: &str) -> Option<u64> {
    let mut rest = text;
    let mut seconds: u64 = 0;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let digits = rest.find(|c: char| !c.is_ascii_digit())?;
        if digits == 0 {
            return None;
        }
        let number: u64 = rest[..digits].parse().ok()?;
        let unit = match rest.as_bytes()[digits] {
            b's' => 1,
            b'm' => 60,
            b'h' => 3600,
            b'd' => 86_400,
            b'y' => 365 * 86_400,
            _ => return None,
        };
        seconds = seconds.checked_add(number.checked_mul(unit)?)?;
        rest = &rest[digits + 1..];
    }
    Some(seconds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn human_durations_read_as_their_least_seconds() {
        assert_eq!(parse_human("7s"), Some(7));
        assert_eq!(parse_human("2m10s"), Some(130));
        assert_eq!(parse_human("26h"), Some(26 * 3600));
        assert_eq!(parse_human("4d20h"), Some(4 * 86_400 + 20 * 3600));
        assert_eq!(parse_human("2y3d"), Some(2 * 365 * 86_400 + 3 * 86_400));
        for text in ["", "7", "<invalid>", "s", "1/1", "7x"] {
            assert_eq!(parse_human(text), None, "{text:?}");
        }
    }

    #[test]
    fn age_and_restarts_tick_from_receipt() {
        let at = Instant::now();
        let header = b"NAME\tREADY\tSTATUS\tRESTARTS\tAGE";
        let line = b"web\t1/1\tRunning\t7 (2m10s ago)\t7s";
        let cells = ticking(header, line, Some(7), at).expect("two cells tick");
        assert_eq!(tick(line, Some(&cells), at), &line[..]);
        let later = tick(line, Some(&cells), at + Duration::from_secs(30));
        assert_eq!(later, &b"web\t1/1\tRunning\t7 (2m40s ago)\t37s"[..]);
        // No restart yet: nothing to tick there.
        let line = b"web\t1/1\tRunning\t0\t26h";
        let cells = ticking(header, line, None, at).expect("AGE ticks");
        let later = tick(line, Some(&cells), at + Duration::from_secs(3600));
        assert_eq!(later, &b"web\t1/1\tRunning\t0\t27h"[..]);
    }

    #[test]
    fn the_exact_age_is_used_when_the_clocks_agree() {
        let at = Instant::now();
        let header = b"NAME\tAGE";
        // 26h59m: the cell says 26h; a minute later it is 27h.
        let exact = 26 * 3600 + 59 * 60;
        let cells = ticking(header, b"web\t26h", Some(exact), at).unwrap();
        let later = tick(b"web\t26h", Some(&cells), at + Duration::from_secs(60));
        assert_eq!(later, &b"web\t27h"[..]);
        // A clock that disagrees (a frozen simulated one) is not trusted.
        let cells = ticking(header, b"web\t26h", Some(5), at).unwrap();
        let later = tick(b"web\t26h", Some(&cells), at + Duration::from_secs(60));
        assert_eq!(later, &b"web\t26h"[..]);
    }
}
