//! What the live view knows: the current objects, a block per type, each row as the table
//! printer rendered it, and when it last changed or was deleted. It lays a frame out for a
//! screen of a given size; it never writes to the terminal (`screen` does).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crossterm::style::Stylize;

use crate::output::printer::tabwriter::TabWriter;
use kw_events::readiness::{Judgement, State};
use kw_wire::EventType;

use super::cells::strip_styles;
use super::clock::{self, Ticking};
use kw_wait::wait::Judged;

/// A changed row stays highlighted this long.
pub(super) const HIGHLIGHT: Duration = Duration::from_millis(1500);
/// A deleted row stays, dimmed, this long.
pub(super) const LINGER: Duration = Duration::from_secs(3);
/// How far a pending failure's moment may seem to move between two looks at the judge (the
/// two clocks read a moment apart) before it is taken as moved.
const FAILING_JITTER: Duration = Duration::from_millis(500);

/// The status line's tail: while the view runs, how to end it (or that it has ended, with no
/// verdict to show); once the judge has decided, its verdict, which the last frame leads with.
#[derive(Debug, Clone, Copy)]
pub(super) enum StatusTail<'a> {
    Running(&'a str),
    Decided(&'a str),
}

/// Which type a block shows: group and plural, as discovery named it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct BlockKey {
    pub group: String,
    pub plural: String,
    pub singular: String,
}

/// An object's place in its block: rows sort as a list does (by namespace, then name), with
/// the context first when a run watches several.
type RowKey = (String, String, String);

/// One change, as a sink hands it over.
pub(super) struct Update {
    pub kind: EventType,
    /// An event of the initial list is not a change to highlight.
    pub listed: bool,
    pub context: String,
    pub namespace: String,
    pub name: String,
    /// The header and the row, tab-separated, as the table printer renders them.
    pub header: Vec<u8>,
    pub line: Vec<u8>,
    /// The object's age by kw's clock, in seconds, from its `creationTimestamp`.
    pub age: Option<u64>,
}

struct Row {
    line: Vec<u8>,
    status: String,
    /// Its READY cell says fewer are ready than wanted (`0/1`).
    short_of_ready: bool,
    /// Its AGE and `RESTARTS (Xs ago)`, written again at each frame.
    ticking: Option<Ticking>,
    /// The run's judge's judgement of the object (`judge`), with `--until ready`/`--fail-on
    /// failed`.
    judgement: Option<Judgement>,
    /// When the judge will fail it unless its stuck Pod recovers, and why (`judge`).
    failing: Option<(Instant, String)>,
    changed: Option<Instant>,
    deleted: Option<Instant>,
}

struct Block {
    key: BlockKey,
    order: usize,
    header: Vec<u8>,
    rows: BTreeMap<RowKey, Row>,
}

/// The live view's state, shared by the sinks (writing) and the screen (reading).
pub(super) struct Board {
    blocks: Vec<Block>,
    judging: bool,
    last_event: Option<Instant>,
    /// Something changed since the last frame.
    pub dirty: bool,
}

impl Board {
    pub(super) fn new(judging: bool) -> Board {
        Board {
            blocks: Vec::new(),
            judging,
            last_event: None,
            dirty: true,
        }
    }

    /// The block of a type, made on first sight. Blocks are shown in `order` (the type's place
    /// on the command line), whichever watcher starts first.
    pub(super) fn block(&mut self, key: BlockKey, order: usize) -> BlockKey {
        if !self.blocks.iter().any(|b| b.key == key) {
            let at = self.blocks.partition_point(|b| b.order <= order);
            self.blocks.insert(
                at,
                Block {
                    key: key.clone(),
                    order,
                    header: Vec::new(),
                    rows: BTreeMap::new(),
                },
            );
            self.dirty = true;
        }
        key
    }

    pub(super) fn update(&mut self, block: &BlockKey, update: Update, now: Instant) {
        let Some(block) = self.blocks.iter_mut().find(|b| &b.key == block) else {
            return;
        };
        self.last_event = Some(now);
        self.dirty = true;
        let key = (update.context, update.namespace, update.name);
        if update.kind == EventType::Deleted {
            if let Some(row) = block.rows.get_mut(&key) {
                row.deleted = Some(now);
            }
            return;
        }
        let status = cell_named(&update.header, &update.line, b"STATUS");
        let short_of_ready = short_of_ready(&cell_named(&update.header, &update.line, b"READY"));
        let ticking = clock::ticking(&update.header, &update.line, update.age, now);
        block.header = update.header;
        let changed = (!update.listed).then_some(now);
        // The judge's judgement stays until the judge is read again (`judge`).
        let (judgement, failing) = block
            .rows
            .remove(&key)
            .map_or((None, None), |row| (row.judgement, row.failing));
        block.rows.insert(
            key,
            Row {
                line: update.line,
                status,
                short_of_ready,
                ticking,
                judgement,
                failing,
                changed,
                deleted: None,
            },
        );
    }

    /// Take each row's judgement from the run's judge; whether any changed. A row the judge
    /// does not know (yet, or any more: deleted) has none.
    pub(super) fn judge(&mut self, judged: &Judged) -> bool {
        let mut changed = false;
        // The judge's moments are on the system clock; the frames count on `Instant`s.
        let (now, system_now) = (Instant::now(), std::time::SystemTime::now());
        for block in &mut self.blocks {
            let of_type = judged.of_type(&block.key.group, &block.key.plural);
            let failing_of_type = judged.failing_of_type(&block.key.group, &block.key.plural);
            for (key, row) in &mut block.rows {
                let judgement = of_type.and_then(|judgements| judgements.get(key));
                if row.judgement.as_ref() != judgement {
                    row.judgement = judgement.cloned();
                    changed = true;
                }
                let failing = failing_of_type
                    .and_then(|failing| failing.get(key))
                    .map(|failing| {
                        let left = failing.at.duration_since(system_now).unwrap_or_default();
                        (now + left, failing.cause.clone())
                    });
                // Read again at every look, but kept unless its clock moved: a countdown must
                // not jitter with the moment it was read.
                let same = match (&row.failing, &failing) {
                    (Some(kept), Some(fresh)) => {
                        kept.1 == fresh.1
                            && kept.0.max(fresh.0) - kept.0.min(fresh.0) <= FAILING_JITTER
                    }
                    (None, None) => true,
                    _ => false,
                };
                if !same {
                    row.failing = failing;
                    changed = true;
                }
            }
        }
        self.dirty |= changed;
        changed
    }

    /// Drop the rows deleted long enough ago; whether a row is still highlighted or dimmed,
    /// so that the screen redraws when that ends.
    pub(super) fn expire(&mut self, now: Instant) -> bool {
        let mut fading = false;
        for block in &mut self.blocks {
            block
                .rows
                .retain(|_, row| row.deleted.is_none_or(|d| now.duration_since(d) < LINGER));
            fading |= block.rows.values().any(|row| {
                row.deleted.is_some()
                    || row
                        .changed
                        .is_some_and(|c| now.duration_since(c) < HIGHLIGHT)
            });
        }
        fading
    }

    /// The frame for a screen `width` columns wide and `height` lines high: every line fits
    /// the width, and there are fewer lines than `height` (so that the line under the frame,
    /// where the cursor waits, does not scroll it).
    pub(super) fn frame(
        &self,
        now: Instant,
        width: usize,
        height: usize,
        reconnects: u64,
        notice: Option<String>,
        tail: StatusTail<'_>,
    ) -> Vec<Vec<u8>> {
        let room = height.saturating_sub(1).max(1);
        let blocks: Vec<&Block> = self
            .blocks
            .iter()
            .filter(|b| !b.header.is_empty())
            .collect();
        // Each block: header and footer; blank lines between blocks; the latest notice and the
        // status line last.
        let fixed =
            blocks.len() * 2 + blocks.len().saturating_sub(1) + 1 + usize::from(notice.is_some());
        let mut rows_left = room.saturating_sub(fixed);
        let mut lines: Vec<Vec<u8>> = Vec::new();
        for (index, block) in blocks.iter().enumerate() {
            if index > 0 {
                lines.push(Vec::new());
            }
            // Later blocks keep a line each for their `… and N more`.
            let later = blocks.len() - index - 1;
            let allowed = rows_left.saturating_sub(later.min(rows_left));
            // Short of room, deleted rows give theirs up first: they are no longer the state.
            let crowded = block.rows.len() > allowed;
            let rows: Vec<&Row> = block
                .rows
                .values()
                .filter(|row| !crowded || row.deleted.is_none())
                .collect();
            let total = rows.len();
            let shown = if total <= allowed {
                total
            } else {
                allowed.saturating_sub(1)
            };
            let rows = troubled_first(rows, shown);
            lines.extend(self.table(block, &rows, now, width));
            if shown < total {
                lines.push(
                    format!("… and {} more", total - shown)
                        .dim()
                        .to_string()
                        .into_bytes(),
                );
            }
            rows_left = rows_left.saturating_sub(shown + usize::from(shown < total));
            lines.push(self.footer(block));
        }
        if let Some(notice) = notice {
            lines.push(format!("kw: {notice}").dim().to_string().into_bytes());
        }
        lines.push(match tail {
            StatusTail::Running(how_to_end) => self.status_line(now, reconnects, how_to_end),
            StatusTail::Decided(verdict) => self.verdict_line(reconnects, verdict),
        });
        lines.truncate(room);
        lines.iter().map(|line| cut(line, width)).collect()
    }

    /// The header and `rows` of a block, aligned together, in `width` columns: the columns
    /// that do not fit are left out whole, from the right (a value cut short reads as another
    /// value: `4d20h` as `4d20`); the judgement, last, is kept and cut instead.
    fn table(&self, block: &Block, rows: &[&Row], now: Instant, width: usize) -> Vec<Vec<u8>> {
        let mut tabwriter = TabWriter::kubectl();
        tabwriter.set_measure(true, true);
        let mut text = Vec::new();
        let mut table: Vec<Vec<Vec<u8>>> = Vec::with_capacity(rows.len() + 1);
        let mut header: Vec<Vec<u8>> = block
            .header
            .split(|b| *b == b'\t')
            .map(<[u8]>::to_vec)
            .collect();
        if self.judging {
            header.push(b"JUDGEMENT".to_vec());
        }
        table.push(header);
        for row in rows {
            let line = clock::tick(&row.line, row.ticking.as_ref(), now);
            let mut cells: Vec<Vec<u8>> = line.split(|b| *b == b'\t').map(<[u8]>::to_vec).collect();
            if let Some(judgement) = &row.judgement {
                cells.push(judgement_cell(judgement, row.failing.as_ref(), now).into_bytes());
            }
            table.push(cells);
        }
        let kept = columns_that_fit(&table, width, self.judging);
        let mut input = Vec::new();
        for cells in &table {
            let cells: Vec<&[u8]> = kept
                .iter()
                .filter_map(|&column| cells.get(column).map(Vec::as_slice))
                .collect();
            input.extend_from_slice(&cells.join(&b'\t'));
            input.push(b'\n');
        }
        // Writing into a Vec cannot fail.
        let _ = tabwriter.write(&input, &mut text);
        let _ = tabwriter.flush(&mut text);
        let mut lines: Vec<Vec<u8>> = text.split(|b| *b == b'\n').map(<[u8]>::to_vec).collect();
        lines.truncate(rows.len() + 1);
        for (line, row) in lines.iter_mut().skip(1).zip(rows.iter()) {
            let plain = String::from_utf8_lossy(&strip_styles(line)).into_owned();
            if row.deleted.is_some() {
                *line = plain.dim().crossed_out().to_string().into_bytes();
            } else if row
                .changed
                .is_some_and(|c| now.duration_since(c) < HIGHLIGHT)
            {
                *line = plain.reverse().to_string().into_bytes();
            }
        }
        lines
    }

    /// `12 pods: 10 Running, 1 Pending, 1 CrashLoopBackOff`, or with judgements
    /// `3 deployments: 1 ready, 2 in progress, 0 failed`.
    fn footer(&self, block: &Block) -> Vec<u8> {
        let current: Vec<&Row> = block
            .rows
            .values()
            .filter(|r| r.deleted.is_none())
            .collect();
        let noun = if current.len() == 1 {
            &block.key.singular
        } else {
            &block.key.plural
        };
        let mut counts: Vec<(String, usize)> = Vec::new();
        if self.judging {
            for state in [State::Ready, State::InProgress, State::Failed] {
                let count = current
                    .iter()
                    .filter(|r| r.judgement.as_ref().is_some_and(|j| j.state == state))
                    .count();
                counts.push((state.to_string(), count));
            }
        } else {
            let mut by_status: BTreeMap<&str, usize> = BTreeMap::new();
            for row in current.iter().filter(|r| !r.status.is_empty()) {
                *by_status.entry(&row.status).or_default() += 1;
            }
            counts = by_status
                .into_iter()
                .map(|(status, count)| (status.to_string(), count))
                .collect();
            // The most common first; equal counts by name (the map's order, kept by a stable sort).
            counts.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
        }
        let mut text = format!("{} {noun}", current.len());
        let parts: Vec<String> = counts.iter().map(|(s, n)| format!("{n} {s}")).collect();
        if !parts.is_empty() {
            text.push_str(": ");
            text.push_str(&parts.join(", "));
        }
        text.bold().to_string().into_bytes()
    }
}

/// The display columns a judgement keeps before the columns left of it give way: its state word
/// and the start of its reason.
const JUDGEMENT_ROOM: usize = 36;

/// The columns of `table` (its header first) to show in `width` display columns: all when they
/// fit, else whole columns give way, in this order, until the rest fits: AGE (it tells the
/// least of trouble), then the others from the right, then STATUS, and RESTARTS last (what
/// people watch Pods for). Under a judgement STATUS goes with the others: the judgement says
/// it too. The first column and NAME say which object a row is and stay; so does the
/// judgement (when `judging`, the last column), to be cut if need be. Columns are laid out as
/// kubectl's tabwriter does: each as wide as its widest cell, three spaces between.
fn columns_that_fit(table: &[Vec<Vec<u8>>], width: usize, judging: bool) -> Vec<usize> {
    const GAP: usize = 3;
    let count = table.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0; count];
    for cells in table {
        for (column, cell) in cells.iter().enumerate() {
            let text = String::from_utf8_lossy(&strip_styles(cell)).into_owned();
            widths[column] =
                widths[column].max(unicode_width::UnicodeWidthStr::width(text.as_str()));
        }
    }
    let all: Vec<usize> = (0..count).collect();
    let total = widths.iter().sum::<usize>() + GAP * count.saturating_sub(1);
    if total <= width || count <= 1 {
        return all;
    }
    // The judgement says why a row is in trouble: it is the last to go. Other columns give
    // way to it until it has room for its state word and the start of its reason
    // (`in progress: Containers in CrashL`), or for all of it when shorter.
    let (judgement, reserve) = match judging {
        true => (Some(count - 1), GAP + widths[count - 1].min(JUDGEMENT_ROOM)),
        false => (None, 0),
    };
    let header = table.first().map(Vec::as_slice).unwrap_or_default();
    let named = |column: usize, name: &[u8]| {
        header
            .get(column)
            .is_some_and(|cell| strip_styles(cell) == name)
    };
    let stays = |column: usize| column == 0 || named(column, b"NAME") || Some(column) == judgement;
    let mut giving_way: Vec<usize> = (0..count).rev().filter(|&c| !stays(c)).collect();
    // A stable sort: from the right within each rank.
    giving_way.sort_by_key(|&column| match () {
        _ if named(column, b"AGE") => 0,
        _ if named(column, b"STATUS") && !judging => 2,
        _ if named(column, b"RESTARTS") => 3,
        _ => 1,
    });
    let mut kept = vec![true; count];
    let used = |kept: &[bool]| {
        let shown: Vec<usize> = (0..count)
            .filter(|&c| kept[c] && Some(c) != judgement)
            .collect();
        shown.iter().map(|&c| widths[c]).sum::<usize>() + GAP * shown.len().saturating_sub(1)
    };
    for column in giving_way {
        if used(&kept) + reserve <= width {
            break;
        }
        kept[column] = false;
    }
    all.into_iter().filter(|&c| kept[c]).collect()
}

/// The rows to show when only `shown` of `rows` (in list order) fit: those in trouble first
/// (failed, then in progress, then a status that is not a settled one), so that none hides
/// behind `… and N more`; shown in list order.
fn troubled_first(rows: Vec<&Row>, shown: usize) -> Vec<&Row> {
    if shown >= rows.len() {
        return rows;
    }
    let mut order: Vec<usize> = (0..rows.len()).collect();
    // A stable sort: list order within each rank.
    order.sort_by_key(|&index| trouble_rank(rows[index]));
    let mut chosen: Vec<usize> = order.into_iter().take(shown).collect();
    chosen.sort_unstable();
    chosen.into_iter().map(|index| rows[index]).collect()
}

/// 0 failed, 1 in progress (or, without judgements, a status other than a settled one, or
/// fewer containers ready than wanted), 2 fine.
fn trouble_rank(row: &Row) -> u8 {
    if let Some(judgement) = &row.judgement {
        return match judgement.state {
            State::Failed => 0,
            State::InProgress => 1,
            State::Ready => 2,
        };
    }
    const SETTLED: [&str; 6] = ["", "Running", "Completed", "Succeeded", "Active", "Bound"];
    if !SETTLED.contains(&row.status.as_str()) || row.short_of_ready {
        return 1;
    }
    2
}

/// Whether a READY cell (`1/3`) says fewer are ready than wanted.
fn short_of_ready(cell: &str) -> bool {
    let Some((ready, wanted)) = cell.split_once('/') else {
        return false;
    };
    match (ready.trim().parse::<u64>(), wanted.trim().parse::<u64>()) {
        (Ok(ready), Ok(wanted)) => ready < wanted,
        _ => false,
    }
}

/// The cell of a row under the column `name` (`STATUS`: what the footer counts), without
/// colour.
fn cell_named(header: &[u8], line: &[u8], name: &[u8]) -> String {
    let header = strip_styles(header);
    let Some(index) = header
        .split(|b| *b == b'\t')
        .position(|column| column == name)
    else {
        return String::new();
    };
    let line = strip_styles(line);
    line.split(|b| *b == b'\t')
        .nth(index)
        .map(|cell| String::from_utf8_lossy(cell).into_owned())
        .unwrap_or_default()
}

/// The judgement as its row shows it: `failed: ...`, `ready: ...`, or, while a stuck Pod's
/// grace runs, the failure it holds pending and when it falls (`failing in 20s:
/// CrashLoopBackOff (web)`), rather than an `in progress` that the verdict will contradict.
fn judgement_cell(
    judgement: &Judgement,
    failing: Option<&(Instant, String)>,
    now: Instant,
) -> String {
    let text = match failing.filter(|_| judgement.state == State::InProgress) {
        Some((at, cause)) => {
            let left = at.saturating_duration_since(now);
            // Whole seconds, rounded up: "failing in 0s" would read as already failed.
            let seconds = left.as_secs() + u64::from(left.subsec_nanos() > 0);
            match seconds {
                0 => format!("failing now: {cause}"),
                _ => format!("failing in {seconds}s: {cause}"),
            }
        }
        None => judgement.to_string(),
    };
    let text = text.replace(['\t', '\n', '\r'], " ");
    let text = kw_base::log::clean(&text).into_owned();
    match judgement.state {
        State::Ready => text.green().to_string(),
        State::InProgress => text.yellow().to_string(),
        State::Failed => text.red().to_string(),
    }
}

impl Board {
    /// The frame's last line while the view runs: `reconnects: 2 · last event 3s ago · ` and
    /// `how_to_end` (`Ctrl-C to end`; `ended` once it has, with no verdict to show).
    pub(super) fn status_line(&self, now: Instant, reconnects: u64, how_to_end: &str) -> Vec<u8> {
        let last = match self.last_event {
            Some(at) => format!("last event {}s ago", now.duration_since(at).as_secs()),
            None if self.blocks.is_empty() => "waiting for the first list".to_string(),
            None => "no events yet".to_string(),
        };
        format!("reconnects: {reconnects} · {last} · {how_to_end}")
            .dim()
            .to_string()
            .into_bytes()
    }

    /// The last frame's last line: the verdict first, so that a narrow screen cuts its detail
    /// and never its verb (`--fail-on failed met by deployment.apps/shop (pod/…`).
    pub(super) fn verdict_line(&self, reconnects: u64, verdict: &str) -> Vec<u8> {
        format!("{verdict} · reconnects: {reconnects}")
            .bold()
            .to_string()
            .into_bytes()
    }
}

/// The line cut to `width` display columns, its SGR sequences kept (and reset after a cut).
/// Characters `unicode-width` calls zero-width are bounded too (`width` of them at most): a
/// terminal may draw them (U+3164 takes two columns in glibc and tmux), and with auto-wrap off
/// it clips what overflows, but a name of a million of them must not be sent each frame.
pub(super) fn cut(line: &[u8], width: usize) -> Vec<u8> {
    let text = String::from_utf8_lossy(line);
    let mut out = String::with_capacity(text.len().min(width * 8 + 64));
    let mut used = 0;
    let mut unmeasured = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' && chars.peek() == Some(&'[') {
            out.push(c);
            for next in chars.by_ref() {
                out.push(next);
                if ('\x40'..='\x7e').contains(&next) && next != '[' {
                    break;
                }
            }
            continue;
        }
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        unmeasured += usize::from(w == 0);
        if used + w > width || unmeasured > width {
            out.push_str("\x1b[0m");
            break;
        }
        used += w;
        out.push(c);
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use kw_wait::wait::Failing;

    fn key() -> BlockKey {
        BlockKey {
            group: String::new(),
            plural: "pods".into(),
            singular: "pod".into(),
        }
    }

    fn update(kind: EventType, name: &str, status: &str, listed: bool) -> Update {
        Update {
            kind,
            listed,
            context: String::new(),
            namespace: "shop".into(),
            name: name.into(),
            header: b"NAME\tREADY\tSTATUS".to_vec(),
            line: format!("{name}\t1/1\t{status}").into_bytes(),
            age: None,
        }
    }

    fn plain(frame: &[Vec<u8>]) -> Vec<String> {
        frame
            .iter()
            .map(|l| String::from_utf8(strip_styles(l)).unwrap())
            .collect()
    }

    #[test]
    fn rows_sort_as_a_list_and_the_footer_counts_by_status() {
        let mut board = Board::new(false);
        let now = Instant::now();
        let block = board.block(key(), 0);
        for (name, status) in [
            ("web-b", "Running"),
            ("web-a", "Pending"),
            ("web-c", "Running"),
        ] {
            board.update(&block, update(EventType::Added, name, status, true), now);
        }
        let frame = plain(&board.frame(now, 80, 24, 2, None, StatusTail::Running("Ctrl-C to end")));
        assert!(frame[0].starts_with("NAME "), "{frame:?}");
        assert!(frame[1].starts_with("web-a "), "{frame:?}");
        assert!(frame[3].starts_with("web-c "), "{frame:?}");
        assert_eq!(frame[4], "3 pods: 2 Running, 1 Pending");
        assert!(
            frame[5].starts_with("reconnects: 2 · last event 0s ago"),
            "{frame:?}"
        );
    }

    #[test]
    fn a_deleted_row_lingers_dimmed_then_goes() {
        let mut board = Board::new(false);
        let now = Instant::now();
        let block = board.block(key(), 0);
        board.update(
            &block,
            update(EventType::Added, "web-a", "Running", true),
            now,
        );
        board.update(
            &block,
            update(EventType::Deleted, "web-a", "Running", false),
            now,
        );
        let frame = board.frame(now, 80, 24, 0, None, StatusTail::Running("Ctrl-C to end"));
        assert!(
            String::from_utf8_lossy(&frame[1]).contains("\x1b[2m"),
            "{frame:?}"
        );
        assert_eq!(plain(&frame)[2], "0 pods");
        assert!(board.expire(now));
        assert!(!board.expire(now + LINGER));
        assert_eq!(
            plain(&board.frame(
                now + LINGER,
                80,
                24,
                0,
                None,
                StatusTail::Running("Ctrl-C to end")
            ))
            .len(),
            3
        );
    }

    #[test]
    fn more_rows_than_lines_end_in_and_n_more() {
        let mut board = Board::new(false);
        let now = Instant::now();
        let block = board.block(key(), 0);
        for index in 0..30 {
            let name = format!("web-{index:02}");
            board.update(
                &block,
                update(EventType::Added, &name, "Running", true),
                now,
            );
        }
        let frame = plain(&board.frame(now, 80, 10, 0, None, StatusTail::Running("Ctrl-C to end")));
        assert_eq!(frame.len(), 9, "{frame:?}");
        assert_eq!(frame[6], "… and 25 more");
        assert_eq!(frame[7], "30 pods: 30 Running");
    }

    #[test]
    fn short_of_room_deleted_rows_give_way_to_current_ones() {
        let mut board = Board::new(false);
        let now = Instant::now();
        let block = board.block(key(), 0);
        for index in 0..10 {
            let name = format!("web-{index:02}");
            board.update(
                &block,
                update(EventType::Added, &name, "Running", true),
                now,
            );
        }
        for index in 0..7 {
            let name = format!("web-{index:02}");
            board.update(
                &block,
                update(EventType::Deleted, &name, "Running", false),
                now,
            );
        }
        let frame = plain(&board.frame(now, 80, 8, 0, None, StatusTail::Running("Ctrl-C to end")));
        let names: Vec<&str> = frame[1..4].iter().map(|l| &l[..6]).collect();
        assert_eq!(names, ["web-07", "web-08", "web-09"], "{frame:?}");
        assert_eq!(frame[4], "3 pods: 3 Running");
        // With room, they linger.
        assert_eq!(
            plain(&board.frame(now, 80, 24, 0, None, StatusTail::Running("Ctrl-C to end"))).len(),
            13
        );
    }

    #[test]
    fn judgements_get_a_column_and_the_footer_counts_them() {
        let mut board = Board::new(true);
        let now = Instant::now();
        let block = board.block(key(), 0);
        board.update(
            &block,
            update(EventType::Added, "web-a", "Pending", true),
            now,
        );
        let mut judged = Judged::default();
        let judgement = Judgement {
            state: State::InProgress,
            message: "Pod is not Ready".into(),
        };
        judged.insert(("", "pods"), ("", "shop", "web-a"), judgement.clone());
        assert!(board.judge(&judged));
        assert!(!board.judge(&judged), "nothing new");
        let frame =
            plain(&board.frame(now, 120, 24, 0, None, StatusTail::Running("Ctrl-C to end")));
        assert!(frame[0].ends_with("JUDGEMENT"), "{frame:?}");
        assert!(
            frame[1].ends_with("in progress: Pod is not Ready"),
            "{frame:?}"
        );
        assert_eq!(frame[2], "1 pod: 0 ready, 1 in progress, 0 failed");

        // A new event keeps the judge's judgement until the judge is read again; then the
        // judge's word (a child's crash, with no event for the row) is the row's.
        board.update(
            &block,
            update(EventType::Modified, "web-a", "Pending", false),
            now,
        );
        let frame =
            plain(&board.frame(now, 120, 24, 0, None, StatusTail::Running("Ctrl-C to end")));
        assert!(
            frame[1].ends_with("in progress: Pod is not Ready"),
            "{frame:?}"
        );
        let mut judged = Judged::default();
        let failed = Judgement {
            state: State::Failed,
            message: "CrashLoopBackOff (web)".into(),
        };
        judged.insert(("", "pods"), ("", "shop", "web-a"), failed);
        assert!(board.judge(&judged));
        let frame = plain(&board.frame(
            now,
            120,
            24,
            0,
            None,
            StatusTail::Decided("--fail-on failed met"),
        ));
        assert!(
            frame[1].ends_with("failed: CrashLoopBackOff (web)"),
            "{frame:?}"
        );
        assert_eq!(frame[2], "1 pod: 0 ready, 0 in progress, 1 failed");
        // The last frame's verdict comes first: a narrow screen cuts its detail, not its verb.
        assert!(
            frame[3].starts_with("--fail-on failed met · reconnects: 0"),
            "{frame:?}"
        );
        // Another type's judgements are not this one's.
        let mut elsewhere = Judged::default();
        elsewhere.insert(("apps", "pods"), ("", "shop", "web-a"), judgement);
        assert!(board.judge(&elsewhere));
        let frame =
            plain(&board.frame(now, 120, 24, 0, None, StatusTail::Running("Ctrl-C to end")));
        assert_eq!(frame[2], "1 pod: 0 ready, 0 in progress, 0 failed");
    }

    #[test]
    fn rows_in_trouble_are_never_hidden_behind_and_n_more() {
        let mut board = Board::new(false);
        let now = Instant::now();
        let block = board.block(key(), 0);
        for index in 0..30 {
            let name = format!("web-{index:02}");
            let status = match index {
                21 => "CrashLoopBackOff",
                27 => "Pending",
                _ => "Running",
            };
            board.update(&block, update(EventType::Added, &name, status, true), now);
        }
        let frame = plain(&board.frame(now, 80, 10, 0, None, StatusTail::Running("Ctrl-C to end")));
        let names: Vec<&str> = frame[1..6].iter().map(|l| &l[..6]).collect();
        // The two in trouble, then the first others; in list order.
        assert_eq!(
            names,
            ["web-00", "web-01", "web-02", "web-21", "web-27"],
            "{frame:?}"
        );
        assert_eq!(frame[6], "… and 25 more");
    }

    #[test]
    fn a_narrow_screen_drops_whole_columns_age_first_and_restarts_last() {
        let mut board = Board::new(true);
        let now = Instant::now();
        let block = board.block(key(), 0);
        let mut row = update(EventType::Added, "web-a", "Running", true);
        row.header = b"NAME\tREADY\tSTATUS\tRESTARTS\tAGE".to_vec();
        row.line = b"web-a\t1/1\tRunning\t7 (2m10s ago)\t4d20h".to_vec();
        board.update(&block, row, now);
        let mut judged = Judged::default();
        let ready = Judgement {
            state: State::Ready,
            message: "Pod is Ready".into(),
        };
        judged.insert(("", "pods"), ("", "shop", "web-a"), ready);
        board.judge(&judged);
        let wide = plain(&board.frame(now, 120, 24, 0, None, StatusTail::Running("Ctrl-C to end")));
        assert!(wide[1].contains("4d20h   ready: Pod is Ready"), "{wide:?}");
        // 55 columns: AGE, then STATUS (from the right) would crowd the judgement; they go
        // whole, RESTARTS stays, and the judgement, the last to go, stays whole.
        let narrow =
            plain(&board.frame(now, 55, 24, 0, None, StatusTail::Running("Ctrl-C to end")));
        assert_eq!(
            narrow[0].split_whitespace().last(),
            Some("JUDGEMENT"),
            "{narrow:?}"
        );
        assert!(!narrow[0].contains("AGE"), "{narrow:?}");
        assert!(!narrow[1].contains("4d20"), "{narrow:?}");
        assert!(!narrow[0].contains("STATUS"), "{narrow:?}");
        assert_eq!(
            narrow[1], "web-a   1/1     7 (2m10s ago)   ready: Pod is Ready",
            "{narrow:?}"
        );
        let tiny = plain(&board.frame(now, 30, 24, 0, None, StatusTail::Running("Ctrl-C to end")));
        // 30 columns: the name and the judgement, every other column gone first.
        assert_eq!(tiny[1], "web-a   ready: Pod is Ready", "{tiny:?}");
    }

    /// While a stuck Pod's grace runs the row says the failure the judge holds pending and
    /// when it falls, not an `in progress` the verdict would contradict; once failed, failed.
    #[test]
    fn a_pending_failure_counts_down_in_its_row() {
        let mut board = Board::new(true);
        let block = board.block(key(), 0);
        board.update(
            &block,
            update(EventType::Added, "web-a", "CrashLoopBackOff", true),
            Instant::now(),
        );
        let mut judged = Judged::default();
        let looping = Judgement {
            state: State::InProgress,
            message: "Containers in CrashLoop state: web".into(),
        };
        judged.insert(("", "pods"), ("", "shop", "web-a"), looping);
        // Half a second over 20 s: the count, rounded up, cannot depend on how long this takes.
        let at = std::time::SystemTime::now() + Duration::from_millis(20_500);
        let cause = "CrashLoopBackOff (web)".to_string();
        judged.insert_failing(("", "pods"), ("", "shop", "web-a"), Failing { at, cause });
        assert!(board.judge(&judged));
        let now = Instant::now();
        let frame =
            plain(&board.frame(now, 120, 24, 0, None, StatusTail::Running("Ctrl-C to end")));
        assert!(
            frame[1].ends_with("failing in 21s: CrashLoopBackOff (web)"),
            "{frame:?}"
        );
        let later = now + Duration::from_secs(15);
        let frame = plain(&board.frame(
            later,
            120,
            24,
            0,
            None,
            StatusTail::Running("Ctrl-C to end"),
        ));
        assert!(
            frame[1].ends_with("failing in 6s: CrashLoopBackOff (web)"),
            "{frame:?}"
        );
        // Read again a moment later: the same moment, nothing changed.
        assert!(!board.judge(&judged));

        let mut failed = Judged::default();
        let verdict = Judgement {
            state: State::Failed,
            message: "CrashLoopBackOff (web): back-off 10s".into(),
        };
        failed.insert(("", "pods"), ("", "shop", "web-a"), verdict);
        assert!(board.judge(&failed));
        let frame = plain(&board.frame(
            later,
            120,
            24,
            0,
            None,
            StatusTail::Running("Ctrl-C to end"),
        ));
        assert!(
            frame[1].ends_with("failed: CrashLoopBackOff (web): back-off 10s"),
            "{frame:?}"
        );
    }

    /// Without a judgement STATUS says what is wrong: only AGE and RESTARTS outlast it.
    #[test]
    fn without_a_judgement_status_and_restarts_go_last() {
        let mut board = Board::new(false);
        let now = Instant::now();
        let block = board.block(key(), 0);
        let name = "payments-worker-7c9f8d6b5-r6977";
        let mut row = update(EventType::Added, name, "CrashLoopBackOff", true);
        row.header = b"NAMESPACE\tNAME\tREADY\tSTATUS\tRESTARTS\tAGE".to_vec();
        row.line =
            format!("shop-prod\t{name}\t0/1\tCrashLoopBackOff\t7 (2m10s ago)\t4d20h").into_bytes();
        board.update(&block, row, now);
        let frame = plain(&board.frame(now, 80, 24, 0, None, StatusTail::Running("Ctrl-C to end")));
        assert_eq!(
            frame[1],
            format!("shop-prod   {name}   CrashLoopBackOff   7 (2m10s ago)"),
            "{frame:?}"
        );
    }

    /// At 80 columns a crash-looping Pod's row keeps its judgement's state word and the start
    /// of its reason: the columns left of it give way first.
    #[test]
    fn the_judgement_keeps_its_state_and_the_reasons_start_at_80_columns() {
        let mut board = Board::new(true);
        let now = Instant::now();
        let block = board.block(key(), 0);
        let mut row = update(
            EventType::Added,
            "shop-2xk6m8hss-6zjwc",
            "CrashLoopBackOff",
            true,
        );
        row.header = b"NAME\tREADY\tSTATUS\tRESTARTS\tAGE".to_vec();
        row.line = b"shop-2xk6m8hss-6zjwc\t0/1\tCrashLoopBackOff\t3 (1s ago)\t11s".to_vec();
        board.update(&block, row, now);
        let mut judged = Judged::default();
        let looping = Judgement {
            state: State::InProgress,
            message: "Containers in CrashLoop state: web".into(),
        };
        judged.insert(("", "pods"), ("", "shop", "shop-2xk6m8hss-6zjwc"), looping);
        board.judge(&judged);
        let frame = plain(&board.frame(now, 80, 24, 0, None, StatusTail::Running("Ctrl-C to end")));
        assert!(
            frame[1].contains("in progress: Containers in CrashL"),
            "{frame:?}"
        );
        assert_eq!(frame[0].split_whitespace().last(), Some("JUDGEMENT"));
        // RESTARTS, what a crash loop is watched for, stays; STATUS, which the judgement
        // restates, and AGE give way.
        assert!(frame[0].contains("RESTARTS"), "{frame:?}");
        assert!(
            frame[1].contains("0/1     3 (1s ago)   in progress"),
            "{frame:?}"
        );
    }

    #[test]
    fn zero_width_characters_are_bounded_too() {
        let line = format!("a{}", "\u{3164}".repeat(1000));
        let cut = String::from_utf8(cut(line.as_bytes(), 10)).unwrap();
        assert_eq!(cut.chars().filter(|c| *c == '\u{3164}').count(), 10);
    }

    #[test]
    fn lines_are_cut_to_the_width_keeping_styles_closed() {
        let line = "\x1b[32mRunning\x1b[0m and more".as_bytes();
        assert_eq!(cut(line, 4), b"\x1b[32mRunn\x1b[0m".to_vec());
        assert_eq!(cut(b"short", 10), b"short".to_vec());
    }
}
