//! Colour for tables: event types (ADDED green, MODIFIED yellow, DELETED red), status words by
//! meaning (green for healthy, yellow for on the way, red for broken), headers bold. Only ANSI
//! SGR sequences, which the tabwriter leaves out when it measures columns.

use crate::wire::EventType;

pub const RESET: &str = "\x1b[0m";
pub const BOLD: &str = "\x1b[1m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const RED: &str = "\x1b[31m";

pub fn event_color(kind: EventType) -> Option<&'static str> {
    match kind {
        EventType::Added => Some(GREEN),
        EventType::Modified => Some(YELLOW),
        EventType::Deleted | EventType::Error => Some(RED),
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
pub fn status_color(text: &str) -> Option<&'static str> {
    let word = text.split([',', ' ']).next().unwrap_or(text);
    match word {
        "Running" | "Ready" | "Completed" | "Succeeded" | "Active" | "Bound" | "Available"
        | "True" | "Complete" => Some(GREEN),
        "Pending" | "ContainerCreating" | "PodInitializing" | "Terminating" | "Unknown"
        | "SchedulingGated" | "Released" | "Progressing" => Some(YELLOW),
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
        | "False" => Some(RED),
        w if w.starts_with("Init:") => {
            if w.contains("Error") || w.contains("BackOff") || w.contains("ExitCode") {
                Some(RED)
            } else {
                Some(YELLOW)
            }
        }
        w if w.starts_with("ExitCode:") || w.starts_with("Signal:") => Some(RED),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_by_meaning() {
        assert_eq!(status_color("Running"), Some(GREEN));
        assert_eq!(status_color("ContainerCreating"), Some(YELLOW));
        assert_eq!(status_color("CrashLoopBackOff"), Some(RED));
        assert_eq!(status_color("Init:0/1"), Some(YELLOW));
        assert_eq!(status_color("Init:CrashLoopBackOff"), Some(RED));
        assert_eq!(status_color("Ready,SchedulingDisabled"), Some(GREEN));
        assert_eq!(status_color("1/1"), None);
        assert_eq!(event_color(EventType::Deleted), Some(RED));
    }
}
