//! Column alignment exactly as kubectl's tabwriter (`github.com/liggitt/tabwriter`, a fork of Go's
//! `text/tabwriter` with `RememberWidths`) lays out tab-separated text.
//!
//! kubectl writes tables through it with minwidth 6, tabwidth 4, padding 3, pad char ' ' and the
//! `RememberWidths` flag, and flushes after the initial list and after each watch event. The
//! algorithm is elastic tabstops: tab-terminated cells in contiguous lines form a column whose
//! width is max(minwidth, widest cell + padding); text after the last tab of a line is not part of
//! a column and is not padded. With `RememberWidths` a column's width never shrinks across
//! flushes, but lines already written are never realigned: that is kubectl's visible drift, and kw
//! reproduces it on purpose. Widths count Unicode scalar values (Go counts runes), not display
//! columns.
//!
//! Two kw-only measures, off unless asked for (so pipes get kubectl's layout): ANSI colour
//! sequences (`ESC [ ... m`) can be left out of widths, and widths can be display columns
//! (East Asian wide characters count two) rather than runes. `would_grow` and `reserve` let a
//! terminal table keep its columns stable.
//!
//! Only what kubectl's configuration exercises is implemented: no HTML filtering, no escape
//! sequences (0xff never occurs in UTF-8 text), no right alignment, no discarding of empty
//! columns, no tab padding.

use std::io::{self, Write};

/// kubectl's `printers.GetNewTabWriter` settings.
pub const KUBECTL_MIN_WIDTH: usize = 6;
pub const KUBECTL_TAB_WIDTH: usize = 4;
pub const KUBECTL_PADDING: usize = 3;

/// One segment of text terminated by a tab or a line break.
#[derive(Debug, Clone, Copy, Default)]
struct Cell {
    /// Bytes in `TabWriter::text`.
    size: usize,
    /// Runes, as Go counts them.
    width: usize,
}

/// Buffers tab-separated text and writes it aligned on `flush`.
#[derive(Debug)]
pub struct TabWriter {
    min_width: usize,
    padding: usize,
    remember_widths: bool,
    /// All text since the last flush, without tabs and line breaks.
    text: Vec<u8>,
    /// How far into `text` the width of the current cell has been counted.
    counted_up_to: usize,
    /// The cell being written.
    cell: Cell,
    /// Finished cells per line; line `line_count - 1` is the one being written. Vectors beyond
    /// `line_count` are kept from earlier flushes so that a line does not allocate.
    lines: Vec<Vec<Cell>>,
    line_count: usize,
    /// Widths of the columns being formatted (a stack during `format`, one per open block).
    widths: Vec<usize>,
    /// `RememberWidths`: the widest each column has ever been.
    max_widths: Vec<usize>,
    /// Formatted output, written out in one call per flush.
    staged: Vec<u8>,
    /// Leave ANSI SGR sequences out of widths (colour output).
    skip_ansi: bool,
    /// Measure display columns instead of runes (terminal output).
    display_width: bool,
}

impl TabWriter {
    /// A writer configured as kubectl configures its table output.
    pub fn kubectl() -> TabWriter {
        TabWriter::new(KUBECTL_MIN_WIDTH, KUBECTL_PADDING, true)
    }

    /// `tabwidth` only matters for tab padding, which kw never uses, so it is not a parameter.
    pub fn new(min_width: usize, padding: usize, remember_widths: bool) -> TabWriter {
        let mut writer = TabWriter {
            min_width,
            padding,
            remember_widths,
            text: Vec::new(),
            counted_up_to: 0,
            cell: Cell::default(),
            lines: Vec::new(),
            line_count: 0,
            widths: Vec::new(),
            max_widths: Vec::new(),
            staged: Vec::new(),
            skip_ansi: false,
            display_width: false,
        };
        writer.reset();
        writer
    }

    /// kw's measures: leave colour sequences out of widths, and/or count display columns.
    pub fn set_measure(&mut self, skip_ansi: bool, display_width: bool) {
        self.skip_ansi = skip_ansi;
        self.display_width = display_width;
    }

    /// Whether `line` (tab-separated, one line) has a cell wider than its column has been so
    /// far: printed now, it would not line up with the rows above it.
    pub fn would_grow(&self, line: &[u8]) -> bool {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let cells: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
        // The last cell is not part of a column.
        cells[..cells.len().saturating_sub(1)]
            .iter()
            .enumerate()
            .any(|(column, cell)| match self.max_widths.get(column) {
                Some(&width) => self.measure(cell) + self.padding > width,
                None => !self.max_widths.is_empty(),
            })
    }

    /// Make `column` at least `width` characters wide (plus padding) from now on.
    pub fn reserve(&mut self, column: usize, width: usize) {
        if self.max_widths.len() <= column {
            self.max_widths.resize(column + 1, self.min_width);
        }
        let wanted = (width + self.padding).max(self.min_width);
        if self.max_widths[column] < wanted {
            self.max_widths[column] = wanted;
        }
    }

    /// Make every column of `line` (tab-separated, one line) at least as wide as its cell there,
    /// as if the line had been written, without writing it.
    pub fn reserve_line(&mut self, line: &[u8]) {
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        let cells: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
        // The last cell is not part of a column.
        for (column, cell) in cells[..cells.len().saturating_sub(1)].iter().enumerate() {
            let width = self.measure(cell);
            self.reserve(column, width);
        }
    }

    /// The width of `text` as this writer counts it.
    fn measure(&self, text: &[u8]) -> usize {
        if !self.skip_ansi && !self.display_width {
            return text.iter().filter(|&&b| (b & 0xc0) != 0x80).count();
        }
        let text = String::from_utf8_lossy(text);
        let mut width = 0;
        let mut chars = text.chars().peekable();
        while let Some(ch) = chars.next() {
            if self.skip_ansi && ch == '\x1b' && chars.peek() == Some(&'[') {
                // A CSI sequence: parameters up to the final byte (`m` for colours).
                chars.next();
                for next in chars.by_ref() {
                    if ('@'..='~').contains(&next) {
                        break;
                    }
                }
                continue;
            }
            width += if self.display_width {
                unicode_width::UnicodeWidthChar::width(ch).unwrap_or(0)
            } else {
                1
            };
        }
        width
    }

    /// The remembered column widths (for tests and diagnostics).
    pub fn remembered_widths(&self) -> &[usize] {
        &self.max_widths
    }

    /// Take text. `\t` and `\v` end a cell, `\n` and `\f` end a line. Like Go's writer, a line of
    /// a single cell (or a `\f`) cannot affect later alignment, so it flushes at once; that is
    /// the only time this writes to `out`.
    pub fn write(&mut self, input: &[u8], out: &mut dyn Write) -> io::Result<()> {
        let mut start = 0;
        for (index, &byte) in input.iter().enumerate() {
            if !matches!(byte, b'\t' | 0x0b | b'\n' | 0x0c) {
                continue;
            }
            self.append(&input[start..index]);
            self.update_width();
            start = index + 1;
            let cells_in_line = self.terminate_cell();
            if byte == b'\n' || byte == 0x0c {
                self.add_line();
                if byte == 0x0c || cells_in_line == 1 {
                    self.flush(out)?;
                }
            }
        }
        self.append(&input[start..]);
        Ok(())
    }

    /// Format and write everything buffered. Remembered widths survive; the text does not.
    pub fn flush(&mut self, out: &mut dyn Write) -> io::Result<()> {
        if self.cell.size > 0 {
            self.update_width();
            self.terminate_cell();
        }
        self.staged.clear();
        self.format();
        let result = out.write_all(&self.staged);
        // Go resets even when the write fails.
        self.reset();
        result
    }

    /// Drop everything buffered, unwritten (a sorted table kubectl would not print).
    pub fn discard(&mut self) {
        self.reset();
    }

    fn reset(&mut self) {
        self.text.clear();
        self.counted_up_to = 0;
        self.cell = Cell::default();
        self.widths.clear();
        self.line_count = 0;
        self.add_line();
    }

    fn append(&mut self, text: &[u8]) {
        self.text.extend_from_slice(text);
        self.cell.size += text.len();
    }

    /// Count the runes appended since the last count, the way `utf8.RuneCount` does for valid
    /// UTF-8: every byte that is not a continuation byte starts a rune.
    fn update_width(&mut self) {
        let fresh = &self.text[self.counted_up_to..];
        self.cell.width += self.measure(fresh);
        self.counted_up_to = self.text.len();
    }

    fn terminate_cell(&mut self) -> usize {
        let cell = std::mem::take(&mut self.cell);
        // `reset` guarantees at least one line.
        let line = &mut self.lines[self.line_count - 1];
        line.push(cell);
        line.len()
    }

    fn add_line(&mut self) {
        if self.line_count < self.lines.len() {
            self.lines[self.line_count].clear();
        } else {
            self.lines.push(Vec::new());
        }
        self.line_count += 1;
    }

    /// Whether `line` has a tab-terminated cell in `column` (its last cell never counts).
    fn has_column(line: &[Cell], column: usize) -> bool {
        !line.is_empty() && column < line.len() - 1
    }

    /// Go's elastic-tabstop formatter over lines `0..line_count`, with Go's recursion (one level
    /// per column) turned into a stack of blocks: a cell of 100,000 tabs from a hostile custom
    /// resource makes 100,000 columns, which must cost heap, not the call stack.
    ///
    /// A block is a run of lines `line0..line1` that all have the columns of the blocks around
    /// it; its column is its depth (`widths.len()` while it is on top). Within a block, the
    /// lines that have its column form inner blocks, each formatted with that column's width.
    fn format(&mut self) {
        struct Block {
            /// The first line not yet written.
            line0: usize,
            line1: usize,
            /// Where to look for the next inner block.
            next: usize,
        }
        let mut pos = 0;
        let mut blocks = vec![Block {
            line0: 0,
            line1: self.line_count,
            next: 0,
        }];
        while let Some(block) = blocks.last_mut() {
            let column = self.widths.len();
            let mut this = block.next;
            while this < block.line1 && !Self::has_column(&self.lines[this], column) {
                this += 1;
            }
            if this >= block.line1 {
                // No more inner blocks: the rest of this block's lines, then back out.
                pos = self.write_lines(pos, block.line0, block.line1);
                blocks.pop();
                if !blocks.is_empty() {
                    self.widths.pop();
                }
                continue;
            }
            // An inner block starts here: print the lines before it.
            pos = self.write_lines(pos, block.line0, this);
            let inner0 = this;
            let mut width = self.min_width;
            while this < block.line1 && Self::has_column(&self.lines[this], column) {
                width = width.max(self.lines[this][column].width + self.padding);
                this += 1;
            }
            // After the inner block: its end line is written with this block's next run, and
            // Go's loop steps past it (it lacks the column).
            block.line0 = this;
            block.next = this + 1;
            let width = self.remembered(column, width);
            self.widths.push(width);
            blocks.push(Block {
                line0: inner0,
                line1: this,
                next: inner0,
            });
        }
    }

    /// `RememberWidths`: a column never gets narrower than it has been.
    fn remembered(&mut self, column: usize, width: usize) -> usize {
        if !self.remember_widths {
            return width;
        }
        if self.max_widths.len() < column {
            let known = self.max_widths.len();
            let missing = &self.widths[known..column];
            self.max_widths.extend_from_slice(missing);
        }
        if self.max_widths.len() == column {
            self.max_widths.push(width);
            width
        } else if self.max_widths[column] > width {
            self.max_widths[column]
        } else {
            self.max_widths[column] = width;
            width
        }
    }

    fn write_lines(&mut self, mut pos: usize, line0: usize, line1: usize) -> usize {
        for index in line0..line1 {
            for (column, cell) in self.lines[index].iter().enumerate() {
                if cell.size > 0 {
                    self.staged
                        .extend_from_slice(&self.text[pos..pos + cell.size]);
                    pos += cell.size;
                }
                if let Some(&width) = self.widths.get(column) {
                    let padding = width.saturating_sub(cell.width);
                    self.staged.resize(self.staged.len() + padding, b' ');
                }
            }
            if index + 1 == self.line_count {
                // The unterminated last line: no newline, write what is pending.
                self.staged
                    .extend_from_slice(&self.text[pos..pos + self.cell.size]);
                pos += self.cell.size;
            } else {
                self.staged.push(b'\n');
            }
        }
        pos
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(writer: &mut TabWriter, chunks: &[&str]) -> String {
        let mut out = Vec::new();
        for chunk in chunks {
            writer.write(chunk.as_bytes(), &mut out).unwrap();
        }
        writer.flush(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn column_width_is_widest_cell_plus_padding_and_last_cell_is_not_padded() {
        let mut writer = TabWriter::kubectl();
        let got = run(
            &mut writer,
            &["NAME\tREADY\tSTATUS\n", "nginx-abcdefgh\t1/1\tRunning\n"],
        );
        assert_eq!(
            got,
            "NAME             READY   STATUS\nnginx-abcdefgh   1/1     Running\n"
        );
    }

    #[test]
    fn min_width_applies_to_narrow_columns() {
        let mut writer = TabWriter::kubectl();
        let got = run(&mut writer, &["A\tB\tC\n", "x\ty\tz\n"]);
        assert_eq!(got, "A     B     C\nx     y     z\n");
    }

    #[test]
    fn remembered_widths_grow_but_earlier_lines_keep_their_layout() {
        let mut writer = TabWriter::kubectl();
        let mut out = Vec::new();
        writer.write(b"NAME\tAGE\n", &mut out).unwrap();
        writer.write(b"a\t1s\n", &mut out).unwrap();
        writer.flush(&mut out).unwrap();
        writer.write(b"a-much-longer-name\t2s\n", &mut out).unwrap();
        writer.flush(&mut out).unwrap();
        writer.write(b"b\t3s\n", &mut out).unwrap();
        writer.flush(&mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "NAME   AGE\na      1s\na-much-longer-name   2s\nb                    3s\n"
        );
        assert_eq!(writer.remembered_widths(), &[21]);
    }

    #[test]
    fn remembered_widths_never_shrink() {
        let mut writer = TabWriter::kubectl();
        let first = run(&mut writer, &["long-long-name\tx\n"]);
        let second = run(&mut writer, &["s\ty\n"]);
        assert_eq!(first, "long-long-name   x\n");
        assert_eq!(second, "s                y\n");
    }

    #[test]
    fn colour_sequences_take_no_room_when_asked() {
        let mut writer = TabWriter::kubectl();
        writer.set_measure(true, false);
        let got = run(&mut writer, &["\x1b[32mab\x1b[0m\tc\nabcdefg\td\n"]);
        assert_eq!(got, "\x1b[32mab\x1b[0m        c\nabcdefg   d\n");
    }

    #[test]
    fn display_width_counts_wide_characters_twice() {
        let mut writer = TabWriter::kubectl();
        writer.set_measure(false, true);
        let got = run(&mut writer, &["日本語\tx\nabcdefg\ty\n"]);
        assert_eq!(got, "日本語    x\nabcdefg   y\n");
    }

    #[test]
    fn growth_is_seen_before_it_happens() {
        let mut writer = TabWriter::kubectl();
        let _ = run(&mut writer, &["NAME\tSTATUS\nweb\tRunning\n"]);
        assert!(!writer.would_grow(b"api\tPending\n"));
        assert!(writer.would_grow(b"a-much-longer-name\tPending\n"));
        writer.reserve(0, 20);
        assert!(!writer.would_grow(b"a-much-longer-name\tPending\n"));
    }

    #[test]
    fn width_counts_runes_not_bytes() {
        let mut writer = TabWriter::kubectl();
        let got = run(&mut writer, &["héllo-wörld\tx\n", "abc\ty\n"]);
        // "héllo-wörld" is 11 runes (13 bytes): the column is 14 wide.
        assert_eq!(got, "héllo-wörld   x\nabc           y\n");
    }

    #[test]
    fn single_cell_lines_flush_immediately() {
        let mut writer = TabWriter::kubectl();
        let mut out = Vec::new();
        writer.write(b"NAME\n", &mut out).unwrap();
        assert_eq!(out, b"NAME\n");
        writer.write(b"x\ty\n", &mut out).unwrap();
        assert_eq!(out, b"NAME\n", "a two-cell line waits for the flush");
    }

    #[test]
    fn empty_cells_are_padded() {
        let mut writer = TabWriter::kubectl();
        let got = run(&mut writer, &["\tb\tc\n", "aaaaaaa\t\tc\n"]);
        assert_eq!(got, "          b     c\naaaaaaa         c\n");
    }

    #[test]
    fn columns_are_blocks_of_contiguous_lines() {
        // The middle line has no second column, so the third line's column 1 is a new block.
        let mut writer = TabWriter::new(0, 1, false);
        let got = run(&mut writer, &["a\tbbbbbb\tc\n", "a\td\n", "a\tb\tc\n"]);
        assert_eq!(got, "a bbbbbb c\na d\na b c\n");
    }

    #[test]
    fn a_hundred_thousand_columns_need_no_deep_stack() {
        // 64 KiB of stack: Go's recursion (one frame per column) would overflow it many times.
        let formatted = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(|| {
                let mut writer = TabWriter::kubectl();
                let tabs = "\t".repeat(100_000);
                run(&mut writer, &[&format!("NAME\tVALUE\nw\t{tabs}end\n")])
            })
            .unwrap()
            .join()
            .expect("formatted without overflowing the stack");
        let lines: Vec<&str> = formatted.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(
            lines[1].ends_with("end"),
            "{}",
            &lines[1][lines[1].len() - 20..]
        );
        // Each empty cell is padded to the minimum width plus padding, as Go pads it.
        assert!(lines[1].len() > 100_000 * 3);
    }

    #[test]
    fn unterminated_text_is_written_on_flush() {
        let mut writer = TabWriter::kubectl();
        let got = run(&mut writer, &["a\tb"]);
        assert_eq!(got, "a     b");
    }

    #[test]
    fn writes_may_split_cells_anywhere() {
        let mut writer = TabWriter::kubectl();
        let got = run(&mut writer, &["NA", "ME\tA", "GE\n", "x\t", "1", "\n"]);
        assert_eq!(got, "NAME   AGE\nx      1\n");
    }
}
