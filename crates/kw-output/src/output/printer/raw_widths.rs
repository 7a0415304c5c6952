//! kubectl 1.37's header padding (cli-runtime's `printTable` since its fix for alignment across
//! periodic flushes): before a Table is written, each column's widest cell is measured in
//! bytes of the cell's raw string, before a line break cuts it to `first line...` and before
//! escaping; the header cell (or, under `--no-headers`, the first row's cell) is padded with
//! spaces by that much, so the column is at least that wide. A multi-line or non-ASCII cell
//! therefore widens its column past what is printed in it. The last column is not padded.

use serde_json::Value;

/// The raw widths of one Table's rows (kw's initial list), column by column as the tabwriter
/// counts them (kw's prefix columns first).
#[derive(Debug, Default)]
pub struct RawWidths {
    /// The widest raw cell of each column so far.
    widest: Vec<usize>,
    /// The first row's cells: (printed width, raw width).
    first_row: Vec<(usize, usize)>,
}

/// A cell's raw width as kubectl measures it: a string's bytes, anything else as printed.
pub fn raw_width(cell: &Value, printed: usize) -> usize {
    match cell {
        Value::String(text) => text.len(),
        Value::Null => 0,
        _ => printed,
    }
}

impl RawWidths {
    /// One row: `cells` are (printed width, raw width) per column, the last column included.
    pub fn add(&mut self, cells: &[(usize, usize)]) {
        if self.first_row.is_empty() {
            self.first_row = cells.to_vec();
        }
        if self.widest.len() < cells.len() {
            self.widest.resize(cells.len(), 0);
        }
        for (column, &(_, raw)) in cells.iter().enumerate() {
            self.widest[column] = self.widest[column].max(raw);
        }
    }

    /// The width each column but the last must be at least, as kubectl's padding makes it:
    /// with a header, the widest raw cell; without, the first row's printed cell plus its pad.
    /// Nothing once taken, so that only the first Table is padded, as kubectl pads it.
    pub fn take_minimums(&mut self, headers: bool) -> Vec<(usize, usize)> {
        let widest = std::mem::take(&mut self.widest);
        let first_row = std::mem::take(&mut self.first_row);
        let last = widest.len().saturating_sub(1);
        widest
            .iter()
            .enumerate()
            .take(last)
            .map(|(column, &max)| match headers {
                true => (column, max),
                false => {
                    let (printed, raw) = first_row.get(column).copied().unwrap_or_default();
                    (column, printed + max.saturating_sub(raw))
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_cell_widens_its_column_to_its_raw_bytes_but_not_the_last() {
        let mut widths = RawWidths::default();
        widths.add(&[(5, 5), (21, 74), (3, 3)]);
        widths.add(&[(5, 5), (4, 4), (9, 9)]);
        assert_eq!(widths.take_minimums(true), vec![(0, 5), (1, 74)]);
        assert!(
            widths.take_minimums(true).is_empty(),
            "the first Table only"
        );
    }

    #[test]
    fn without_a_header_the_first_row_is_padded_by_what_it_lacks_of_the_widest() {
        let mut widths = RawWidths::default();
        widths.add(&[(21, 74), (1, 1)]);
        widths.add(&[(4, 4), (1, 1)]);
        assert_eq!(widths.take_minimums(false), vec![(0, 21)]);
        let mut widths = RawWidths::default();
        widths.add(&[(2, 2), (1, 1)]);
        widths.add(&[(30, 30), (1, 1)]);
        assert_eq!(widths.take_minimums(false), vec![(0, 30)]);
    }

    #[test]
    fn strings_count_bytes_other_cells_as_printed() {
        assert_eq!(raw_width(&Value::String("żółw".into()), 4), 7);
        assert_eq!(raw_width(&serde_json::json!(12), 2), 2);
        assert_eq!(raw_width(&Value::Null, 0), 0);
    }
}
