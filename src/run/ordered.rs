//! A watch of several types in one table stream, in the order the types were asked for: each
//! type has a table of its own (its header once, its widths; `outputs`), and this gate lets
//! the tables' bytes reach stdout in that order. A type's initial list is written once every
//! type before it has listed, after a blank line, as a one-shot `get pods,deploy` lays them
//! out; what the watches print after their lists waits until every type has listed, so no
//! event cuts a table still being listed. Bytes wait here, never events: the printers lay a
//! row out once, as it comes.

use std::io::{self, Write};
use std::sync::Mutex;

/// The order a run's tables reach stdout in.
pub(super) struct Gate {
    state: Mutex<State>,
}

struct State {
    /// By the type's order among the targets; a slot no target has is listed from the start.
    types: Vec<Table>,
    /// Something has been written: the next table's list starts after a blank line.
    written: bool,
    /// `--no-headers` has no blank line between tables, as a one-shot list.
    blank_lines: bool,
    out: Box<dyn Write + Send>,
}

#[derive(Default)]
struct Table {
    /// Watchers of this type (several for `deploy/a deploy/b`), and those done listing.
    watchers: usize,
    listed: usize,
    /// Its list's bytes, and what its watch printed after, that have not gone out yet.
    list: Vec<u8>,
    watch: Vec<u8>,
    /// Some of its list has gone out (after the blank line).
    opened: bool,
}

impl Table {
    fn listed(&self) -> bool {
        self.listed >= self.watchers
    }
}

impl Gate {
    /// A gate to stdout for watchers at these orders (one entry per watcher).
    pub(super) fn new(orders: impl IntoIterator<Item = usize>, blank_lines: bool) -> Gate {
        Gate::to(orders, blank_lines, Box::new(io::stdout()))
    }

    fn to(
        orders: impl IntoIterator<Item = usize>,
        blank_lines: bool,
        out: Box<dyn Write + Send>,
    ) -> Gate {
        let mut types: Vec<Table> = Vec::new();
        for order in orders {
            if types.len() <= order {
                types.resize_with(order + 1, Table::default);
            }
            types[order].watchers += 1;
        }
        Gate {
            state: Mutex::new(State {
                types,
                written: false,
                blank_lines,
                out,
            }),
        }
    }

    /// Whether a gate orders anything: two types or more.
    pub(super) fn orders_several(&self) -> bool {
        let state = kw_base::mutex::lock(&self.state);
        state.types.iter().filter(|t| t.watchers > 0).count() > 1
    }

    /// `bytes` of the table at `order`, written now or when the tables before it allow.
    pub(super) fn write(&self, order: usize, bytes: &[u8]) -> io::Result<()> {
        let mut state = kw_base::mutex::lock(&self.state);
        let Some(table) = state.types.get_mut(order) else {
            return state.out.write_all(bytes);
        };
        match table.listed() {
            false => table.list.extend_from_slice(bytes),
            true => table.watch.extend_from_slice(bytes),
        }
        state.release()
    }

    /// One watcher at `order` has its list out (or has ended without one).
    pub(super) fn listed(&self, order: usize) -> io::Result<()> {
        let mut state = kw_base::mutex::lock(&self.state);
        if let Some(table) = state.types.get_mut(order) {
            table.listed += 1;
        }
        state.release()
    }

    /// The run is over: whatever waits goes out, in order.
    pub(super) fn finish(&self) -> io::Result<()> {
        let mut state = kw_base::mutex::lock(&self.state);
        for table in &mut state.types {
            table.listed = table.watchers;
        }
        state.release()?;
        state.out.flush()
    }

    pub(super) fn flush(&self) -> io::Result<()> {
        kw_base::mutex::lock(&self.state).out.flush()
    }
}

impl State {
    /// Write out, in order, what may go: each list once the lists before it are out, and
    /// what the watches printed once every list is.
    fn release(&mut self) -> io::Result<()> {
        let mut all_listed = true;
        for table in &mut self.types {
            if !table.list.is_empty() {
                if !table.opened && self.written && self.blank_lines {
                    self.out.write_all(b"\n")?;
                }
                table.opened = true;
                self.out.write_all(&std::mem::take(&mut table.list))?;
                self.written = true;
            }
            if !table.listed() {
                all_listed = false;
                break;
            }
        }
        if all_listed {
            for table in &mut self.types {
                if !table.watch.is_empty() {
                    self.out.write_all(&std::mem::take(&mut table.watch))?;
                    self.written = true;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;

    #[derive(Clone, Default)]
    struct Seen(Arc<Mutex<Vec<u8>>>);

    impl Write for Seen {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            kw_base::mutex::lock(&self.0).extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Seen {
        fn text(&self) -> String {
            String::from_utf8_lossy(&kw_base::mutex::lock(&self.0)).into_owned()
        }
    }

    #[test]
    fn each_list_waits_for_those_before_it_and_the_watches_for_every_list() {
        let seen = Seen::default();
        // pods (one watcher), deploy/a and deploy/b (two), rs.
        let gate = Gate::to([0, 1, 1, 2], true, Box::new(seen.clone()));
        assert!(gate.orders_several());
        gate.write(2, b"RS\n").unwrap();
        gate.write(1, b"D1\n").unwrap();
        assert_eq!(seen.text(), "");
        gate.write(0, b"P\n").unwrap();
        assert_eq!(seen.text(), "P\n");
        gate.listed(0).unwrap();
        gate.write(0, b"p-event\n").unwrap();
        assert_eq!(seen.text(), "P\n\nD1\n");
        gate.listed(1).unwrap();
        gate.write(1, b"D2\n").unwrap();
        gate.listed(1).unwrap();
        assert_eq!(seen.text(), "P\n\nD1\nD2\n\nRS\n");
        gate.write(1, b"d-event\n").unwrap();
        gate.listed(2).unwrap();
        assert_eq!(seen.text(), "P\n\nD1\nD2\n\nRS\np-event\nd-event\n");
        gate.write(2, b"rs-event\n").unwrap();
        assert!(seen.text().ends_with("d-event\nrs-event\n"));
    }

    #[test]
    fn without_lists_nothing_is_a_table_to_set_apart() {
        let seen = Seen::default();
        let gate = Gate::to([0, 1], true, Box::new(seen.clone()));
        gate.listed(1).unwrap();
        gate.write(1, b"d-event\n").unwrap();
        assert_eq!(seen.text(), "");
        gate.listed(0).unwrap();
        gate.write(0, b"p-event\n").unwrap();
        assert_eq!(seen.text(), "d-event\np-event\n");
        assert!(!Gate::new([0, 0], true).orders_several());
    }
}
