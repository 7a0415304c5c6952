//! A row's cells as the live view may show them. Two things differ from a table printed to a
//! stream:
//!
//! - A TAB in server text is shown as `^I` (the caret notation `escape` gives the other C0
//!   controls). The view lays its rows out by TAB, as the table printer does: a name holding one
//!   would split its cell, shift every column after it, and make the footer count another
//!   column's cell (`9/9`) as a status.
//! - Each cell is cut to `CELL_COLUMNS`, before it is formatted: no screen shows more of it, and
//!   the view lays every row out again at each frame, so a 20 MiB name would cost 20 MiB of
//!   work ten times a second.
//!
//! And `strip_styles`: a rendered cell's text without kw's own colours.

use std::borrow::Cow;

use serde_json::Value;

use kw_wire::TableColumnDefinition;

/// The most display columns of one cell the view keeps: wider than any terminal shows.
pub(super) const CELL_COLUMNS: usize = 512;

/// How a TAB in server text is shown.
const TAB: &str = "^I";

/// `text` with TABs shown and cut to `CELL_COLUMNS` (with `…`); borrowed when it fits as it is.
pub(super) fn fit_text(text: &str) -> Cow<'_, str> {
    let end = cut_at(text, CELL_COLUMNS);
    if end == text.len() && !text.contains('\t') {
        return Cow::Borrowed(text);
    }
    let mut fitted = text[..end].replace('\t', TAB);
    if end < text.len() {
        fitted.push('…');
    }
    Cow::Owned(fitted)
}

/// The byte offset in `text` where `columns` display columns end. Every character counts as
/// one column at least: a terminal may draw one that `unicode-width` calls zero-width (U+3164
/// takes two in glibc and tmux, the soft hyphen one), and a string of them must be bounded too.
fn cut_at(text: &str, columns: usize) -> usize {
    let mut used = 0;
    for (at, c) in text.char_indices() {
        used += unicode_width::UnicodeWidthChar::width(c)
            .unwrap_or(0)
            .max(1);
        if used > columns {
            return at;
        }
    }
    text.len()
}

/// `value` with each string in it fitted (`fit_text`); borrowed when nothing changes. A cell is
/// usually a string or a number; lists and maps are walked the same way.
fn fit_value(value: &Value) -> Cow<'_, Value> {
    match value {
        Value::String(text) => match fit_text(text) {
            Cow::Borrowed(_) => Cow::Borrowed(value),
            Cow::Owned(fitted) => Cow::Owned(Value::String(fitted)),
        },
        Value::Array(items) => match fit_values(items) {
            Cow::Borrowed(_) => Cow::Borrowed(value),
            Cow::Owned(items) => Cow::Owned(Value::Array(items)),
        },
        Value::Object(map) => {
            let changed = map.iter().any(|(k, v)| {
                matches!(fit_text(k), Cow::Owned(_)) || matches!(fit_value(v), Cow::Owned(_))
            });
            if !changed {
                return Cow::Borrowed(value);
            }
            let map = map
                .iter()
                .map(|(k, v)| (fit_text(k).into_owned(), fit_value(v).into_owned()))
                .collect();
            Cow::Owned(Value::Object(map))
        }
        _ => Cow::Borrowed(value),
    }
}

/// The cells, each fitted (`fit_value`); borrowed when nothing changes.
pub(super) fn fit_values(cells: &[Value]) -> Cow<'_, [Value]> {
    let fitted: Vec<Cow<'_, Value>> = cells.iter().map(fit_value).collect();
    if fitted.iter().all(|c| matches!(c, Cow::Borrowed(_))) {
        return Cow::Borrowed(cells);
    }
    Cow::Owned(fitted.into_iter().map(Cow::into_owned).collect())
}

/// The column definitions with their names fitted; borrowed when nothing changes.
pub(super) fn fit_columns(columns: &[TableColumnDefinition]) -> Cow<'_, [TableColumnDefinition]> {
    if columns
        .iter()
        .all(|c| matches!(fit_text(&c.name), Cow::Borrowed(_)))
    {
        return Cow::Borrowed(columns);
    }
    Cow::Owned(
        columns
            .iter()
            .map(|c| TableColumnDefinition {
                name: fit_text(&c.name).into_owned(),
                ..c.clone()
            })
            .collect(),
    )
}

/// A rendered row (cells joined by TAB) with each cell cut to `CELL_COLUMNS`: what a cell the
/// strings did not bound (a long list of numbers) still costs no more.
pub(super) fn cut_cells(line: Vec<u8>) -> Vec<u8> {
    let text = String::from_utf8_lossy(&line);
    let long = text
        .split('\t')
        .any(|cell| cut_at(cell, CELL_COLUMNS) < cell.len());
    if !long {
        return line;
    }
    let cells: Vec<String> = text
        .split('\t')
        .map(|cell| {
            let end = cut_at(cell, CELL_COLUMNS);
            if end == cell.len() {
                cell.to_string()
            } else {
                // Close whatever style the cut left open.
                format!("{}…\x1b[0m", &cell[..end])
            }
        })
        .collect();
    cells.join("\t").into_bytes()
}

/// The text without SGR sequences. Every ESC in a row is kw's own: cells escape the server's.
pub(super) fn strip_styles(line: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(line.len());
    let mut index = 0;
    while index < line.len() {
        if line[index] == 0x1b && line.get(index + 1) == Some(&b'[') {
            index += 2;
            while index < line.len() && !(0x40..=0x7e).contains(&line[index]) {
                index += 1;
            }
            index += 1;
        } else {
            out.push(line[index]);
            index += 1;
        }
    }
    out
}

/// Server text for a line of the frame outside the table (the verdict, a notice): controls
/// written out as on stderr (`log::clean`), and TABs shown, since the terminal would act on them.
pub(super) fn shown(text: &str) -> String {
    kw_base::log::clean(text).replace('\t', TAB)
}

/// The display width of a rendered line (its styles left out), as `unicode-width` counts it.
pub(super) fn display_width(line: &[u8]) -> usize {
    unicode_width::UnicodeWidthStr::width(String::from_utf8_lossy(&strip_styles(line)).as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tabs_are_shown_and_long_text_is_cut() {
        assert!(matches!(fit_text("web-1"), Cow::Borrowed("web-1")));
        assert_eq!(fit_text("a\tb"), "a^Ib");
        let long = "x".repeat(10_000);
        let fitted = fit_text(&long);
        assert_eq!(fitted.chars().count(), CELL_COLUMNS + 1);
        assert!(fitted.ends_with('…'));
        // Characters some terminals draw though unicode-width calls them zero-width.
        let fillers = "\u{3164}".repeat(100_000);
        assert_eq!(fit_text(&fillers).chars().count(), CELL_COLUMNS + 1);
    }

    #[test]
    fn cells_are_fitted_only_where_needed() {
        let cells = vec![json!("web\t1"), json!(3), json!(["a\tb", 1]), json!("ok")];
        let fitted = fit_values(&cells);
        assert_eq!(
            fitted.as_ref(),
            &[json!("web^I1"), json!(3), json!(["a^Ib", 1]), json!("ok")]
        );
        let plain = vec![json!("web"), json!({"k": "v"})];
        assert!(matches!(fit_values(&plain), Cow::Borrowed(_)));
    }

    #[test]
    fn rendered_cells_are_cut() {
        let line = format!("web\t{}\tRunning", "1,".repeat(2000)).into_bytes();
        let cut = String::from_utf8(cut_cells(line)).unwrap();
        let cells: Vec<&str> = cut.split('\t').collect();
        assert_eq!(cells.len(), 3);
        assert_eq!(cells[0], "web");
        assert!(cells[1].chars().count() < CELL_COLUMNS + 8, "{}", cells[1]);
        assert_eq!(cells[2], "Running");
    }
}
