//! Colour for tables: event types (ADDED green, MODIFIED yellow, DELETED red), status words by
//! meaning (green for healthy, yellow for on the way, red for broken), headers bold. Painted with
//! `colored` (only SGR sequences, which the tabwriter leaves out when it measures columns);
//! whether to paint at all is decided once, in `crate::output::terminal`.

use std::io::Write;

use colored::{Color, Colorize};

use kw_wire::EventType;

pub fn event_color(kind: EventType) -> Option<Color> {
    match kind {
        EventType::Added => Some(Color::Green),
        EventType::Modified => Some(Color::Yellow),
        EventType::Deleted | EventType::Error => Some(Color::Red),
        EventType::Bookmark => None,
    }
}

/// Columns whose words carry a meaning worth a colour.
pub fn is_status_column(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "status" | "phase" | "state" | "ready"
    )
}

/// The colour of a status word, if it has a meaning kw knows.
pub fn status_color(text: &str) -> Option<Color> {
    let word = text.split([',', ' ']).next().unwrap_or(text);
    match word {
        "Running" | "Ready" | "Completed" | "Succeeded" | "Active" | "Bound" | "Available"
        | "True" | "Complete" => Some(Color::Green),
        "Pending" | "ContainerCreating" | "PodInitializing" | "Terminating" | "Unknown"
        | "SchedulingGated" | "Released" | "Progressing" => Some(Color::Yellow),
        "Failed"
        | "CrashLoopBackOff"
        | "Error"
        | "ImagePullBackOff"
        | "ErrImagePull"
        | "OOMKilled"
        | "NotReady"
        | "Evicted"
        | "CreateContainerConfigError"
        | "InvalidImageName"
        | "Lost"
        | "False" => Some(Color::Red),
        w if w.starts_with("Init:") => {
            if w.contains("Error") || w.contains("BackOff") || w.contains("ExitCode") {
                Some(Color::Red)
            } else {
                Some(Color::Yellow)
            }
        }
        w if w.starts_with("ExitCode:") || w.starts_with("Signal:") => Some(Color::Red),
        _ => None,
    }
}

/// Append `text` in `color`.
pub fn write_colored(out: &mut Vec<u8>, text: &str, color: Color) {
    // Writing into a Vec cannot fail.
    let _ = write!(out, "{}", text.color(color));
}

/// Append `text` dimmed (SGR 2), for lines that explain the row above them.
pub fn write_dimmed(out: &mut Vec<u8>, text: &str) {
    let _ = write!(out, "{}", text.dimmed());
}

/// Append `text` in bold.
pub fn write_bold(out: &mut Vec<u8>, text: &str) {
    let _ = write!(out, "{}", text.bold());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_by_meaning() {
        assert_eq!(status_color("Running"), Some(Color::Green));
        assert_eq!(status_color("ContainerCreating"), Some(Color::Yellow));
        assert_eq!(status_color("CrashLoopBackOff"), Some(Color::Red));
        assert_eq!(status_color("Init:0/1"), Some(Color::Yellow));
        assert_eq!(status_color("Init:CrashLoopBackOff"), Some(Color::Red));
        assert_eq!(status_color("Ready,SchedulingDisabled"), Some(Color::Green));
        assert_eq!(status_color("1/1"), None);
        assert_eq!(event_color(EventType::Deleted), Some(Color::Red));
    }

    #[test]
    fn paints_with_sgr_sequences_when_told_to() {
        colored::control::set_override(true);
        let mut out = Vec::new();
        write_colored(&mut out, "Running", Color::Green);
        write_bold(&mut out, "NAME");
        assert_eq!(out, b"\x1b[32mRunning\x1b[0m\x1b[1mNAME\x1b[0m");
    }
}
