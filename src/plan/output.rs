//! How to print, as far as the flags decide it.

use crate::wire::EventType;
use kw_output::output::printer::{DiffDetail, OutputFormat, SortBy, TimestampFormat};
use kw_output::output::terminal::ColorChoice;

/// How to print, as far as the flags decide it (the terminal and colour are decided by
/// `kw_output::output::terminal`, per run).
#[derive(Debug, Clone)]
pub struct OutputPlan {
    pub format: OutputFormat,
    pub watch_events: bool,
    pub no_headers: bool,
    pub show_kind: bool,
    pub show_managed_fields: bool,
    pub show_labels: bool,
    pub label_columns: Vec<String>,
    pub sort_by: Option<SortBy>,
    pub timestamps: Option<TimestampFormat>,
    pub color: ColorChoice,
    pub diff: Option<DiffDetail>,
    pub ignore_unchanged: bool,
    pub only: Vec<EventType>,
    /// `--server-print=false`: plain objects, and kubectl's client-side table (NAME, AGE).
    pub client_side_table: bool,
}

impl OutputPlan {
    /// A verb's own format with none of get's decorations: no headers to choose, no colour,
    /// no diff, every event type. `rollout status` and `wait` print kubectl's fixed lines.
    pub fn plain(format: OutputFormat) -> OutputPlan {
        OutputPlan {
            format,
            watch_events: false,
            no_headers: false,
            show_kind: false,
            show_managed_fields: false,
            show_labels: false,
            label_columns: Vec::new(),
            sort_by: None,
            timestamps: None,
            color: ColorChoice::Never,
            diff: None,
            ignore_unchanged: false,
            only: Vec::new(),
            client_side_table: false,
        }
    }
}
