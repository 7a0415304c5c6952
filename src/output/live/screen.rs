//! Drawing frames on the terminal, in place, with crossterm. The frame is drawn on the normal
//! screen (not the alternate one), below where the command was typed, so that whatever ends
//! the view (a condition, `--timeout`, Ctrl-C) leaves its last frame on screen, with the
//! cursor on the line under it.
//!
//! A redraw goes back to the frame's first line and overwrites each line, clearing what is
//! left of it, then clears below: no line is blanked before it is written, so nothing
//! flickers. The frame is always shorter than the screen, so it never scrolls and the relative
//! move lands on its first line. After a resize the old frame may have been reflowed by the
//! terminal: the screen is cleared and the frame drawn from the top.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use crossterm::{cursor, queue, terminal};

/// The cursor is hidden while the view draws; `restore` shows it again.
static HIDDEN: AtomicBool = AtomicBool::new(false);

pub(super) struct Screen {
    /// Lines of the frame on screen (the cursor is on the line under them).
    drawn: usize,
    size: Option<(u16, u16)>,
}

impl Screen {
    pub(super) fn new() -> Screen {
        Screen {
            drawn: 0,
            size: None,
        }
    }

    /// The terminal's size now, in columns and lines; whether it changed since the last call.
    pub(super) fn measure(&mut self) -> ((usize, usize), bool) {
        let size = terminal::size()
            .ok()
            .filter(|(w, h)| *w > 0 && *h > 0)
            .or_else(|| {
                crate::output::terminal::stdout_width()
                    .map(|w| (u16::try_from(w).unwrap_or(u16::MAX), 24))
            })
            .unwrap_or((80, 24));
        let resized = self.size.is_some_and(|old| old != size);
        self.size = Some(size);
        ((usize::from(size.0), usize::from(size.1)), resized)
    }

    /// Replace the frame on screen with `lines`.
    pub(super) fn draw(&mut self, lines: &[Vec<u8>], resized: bool) -> io::Result<()> {
        let mut out: Vec<u8> = Vec::with_capacity(lines.iter().map(Vec::len).sum::<usize>() + 64);
        if !HIDDEN.swap(true, Ordering::SeqCst) {
            queue!(out, cursor::Hide)?;
        }
        if resized {
            queue!(
                out,
                cursor::MoveTo(0, 0),
                terminal::Clear(terminal::ClearType::All)
            )?;
        } else if self.drawn > 0 {
            // `MoveUp(0)` would move one line: crossterm sends the count as it is.
            let up = u16::try_from(self.drawn).unwrap_or(u16::MAX);
            queue!(out, cursor::MoveToColumn(0), cursor::MoveUp(up))?;
        }
        for line in lines {
            out.extend_from_slice(line);
            queue!(out, terminal::Clear(terminal::ClearType::UntilNewLine))?;
            out.push(b'\n');
        }
        queue!(out, terminal::Clear(terminal::ClearType::FromCursorDown))?;
        let mut stdout = io::stdout().lock();
        stdout.write_all(&out)?;
        stdout.flush()?;
        self.drawn = lines.len();
        Ok(())
    }
}

/// Show the cursor again if the view hid it. Called at the end of the view and from the
/// Ctrl-C handler, which takes the stdout lock, so a frame being written is finished first.
pub fn restore() {
    if HIDDEN.swap(false, Ordering::SeqCst) {
        let mut stdout = io::stdout().lock();
        let _ = crossterm::execute!(stdout, cursor::Show);
    }
}
