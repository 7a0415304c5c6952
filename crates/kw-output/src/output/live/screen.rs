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
//!
//! Auto-wrap is off while the view draws (`ESC[?7l`): a line the terminal finds wider than kw
//! measured it (U+3164 is zero columns for `unicode-width`, two for glibc and tmux) is clipped
//! at the right edge instead of wrapping onto a second line, which would move every later
//! redraw a line down. `restore` turns it back on, at the end of the view and on Ctrl-C.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use crossterm::{cursor, queue, terminal};

/// What the view has done to the terminal, which `restore` undoes. One process has one
/// terminal: the Ctrl-C handler, which knows nothing of the view, must find it.
struct Taken {
    /// The cursor is hidden and auto-wrap off.
    changed: bool,
    /// `restore` has run: nothing is drawn any more.
    given_back: bool,
    /// The frame's last line as Ctrl-C leaves it (its `Ctrl-C to end` replaced), when the
    /// frame on screen is not the last one.
    on_interrupt: Option<Vec<u8>>,
    /// The terminal was given back for a while (Ctrl-Z): the next frame is drawn anew where
    /// the cursor is, the shell having written below the old one.
    fresh: bool,
}

static TAKEN: Mutex<Taken> = Mutex::new(Taken {
    changed: false,
    given_back: false,
    on_interrupt: None,
    fresh: false,
});

/// `Taken::changed`, readable without the lock: by a signal handler (an abort), which may run
/// on the thread that holds it.
static CHANGED: AtomicBool = AtomicBool::new(false);
/// What gives the terminal back: auto-wrap on (`EnableLineWrap`), the cursor shown (`Show`).
const GIVE_BACK: &[u8] = b"\x1b[?7h\x1b[?25h";

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

    /// Replace the frame on screen with `lines`. `on_interrupt`: its last line as Ctrl-C should
    /// leave it (`None` for the last frame, which already says how the view ended).
    pub(super) fn draw(
        &mut self,
        lines: &[Vec<u8>],
        resized: bool,
        on_interrupt: Option<Vec<u8>>,
    ) -> io::Result<()> {
        let mut taken = kw_base::mutex::lock(&TAKEN);
        if taken.given_back {
            return Ok(());
        }
        if std::mem::take(&mut taken.fresh) {
            self.drawn = 0;
        }
        let mut out: Vec<u8> = Vec::with_capacity(lines.iter().map(Vec::len).sum::<usize>() + 64);
        if !taken.changed {
            queue!(out, cursor::Hide, terminal::DisableLineWrap)?;
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
        let width = self
            .size
            .map_or(usize::MAX, |(columns, _)| usize::from(columns));
        for line in lines {
            out.extend_from_slice(line);
            // With auto-wrap off, a line as wide as the screen leaves the cursor on its last
            // character, which clearing the rest of the line would erase.
            if super::cells::display_width(line) < width {
                queue!(out, terminal::Clear(terminal::ClearType::UntilNewLine))?;
            }
            out.push(b'\n');
        }
        queue!(out, terminal::Clear(terminal::ClearType::FromCursorDown))?;
        taken.changed = true;
        CHANGED.store(true, Ordering::SeqCst);
        taken.on_interrupt = on_interrupt;
        let mut stdout = io::stdout().lock();
        stdout.write_all(&out)?;
        stdout.flush()?;
        self.drawn = lines.len();
        Ok(())
    }
}

/// Give the terminal back: the frame's last line as Ctrl-C leaves it (when the frame on screen
/// still says `Ctrl-C to end`), the cursor shown and auto-wrap on again; nothing is drawn after.
/// Called at the end of the view and from the Ctrl-C handler, which waits for a frame being
/// written to be finished.
pub fn restore() {
    give_back(kw_base::mutex::lock(&TAKEN));
}

/// `restore` from the panic hook, which may run on the thread that holds the terminal in the
/// middle of a frame: then it gives nothing back rather than wait for itself forever.
pub fn restore_if_free() {
    let taken = match TAKEN.try_lock() {
        Ok(taken) => Some(taken),
        Err(std::sync::TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
        Err(std::sync::TryLockError::WouldBlock) => None,
    };
    match taken {
        // The frame's last line stays as it is: the view was not interrupted, it broke.
        Some(mut taken) => {
            taken.on_interrupt = None;
            give_back(taken);
        }
        None => {
            // Show the cursor and wrap again anyway: the half-written frame is lost either way.
            let mut stdout = io::stdout();
            let _ = queue!(stdout, terminal::EnableLineWrap, cursor::Show);
            let _ = stdout.flush();
        }
    }
}

/// Give the terminal back for a while (Ctrl-Z stops kw): the cursor shown and auto-wrap on, as
/// the shell expects them; the view draws again, anew, once kw is continued.
pub fn suspend() {
    let mut taken = kw_base::mutex::lock(&TAKEN);
    if taken.given_back || !std::mem::take(&mut taken.changed) {
        return;
    }
    CHANGED.store(false, Ordering::SeqCst);
    taken.fresh = true;
    let mut stdout = io::stdout().lock();
    let _ = stdout.write_all(GIVE_BACK);
    let _ = stdout.flush();
}

/// From a signal handler (an abort: a stack overflow, a failed allocation), where no lock may
/// be taken nor memory allocated: the cursor shown and auto-wrap on, in one `write(2)`, when
/// the view changed them. The frame is left as it is. (Unix only: the handler is.)
#[cfg(unix)]
pub fn restore_in_signal_handler() {
    if CHANGED.load(Ordering::SeqCst) {
        // SAFETY: write(2) is async-signal-safe; the bytes are a static.
        unsafe {
            libc::write(
                libc::STDOUT_FILENO,
                GIVE_BACK.as_ptr().cast(),
                GIVE_BACK.len(),
            );
        }
    }
}

fn give_back(mut taken: std::sync::MutexGuard<'_, Taken>) {
    taken.given_back = true;
    if !std::mem::take(&mut taken.changed) {
        return;
    }
    CHANGED.store(false, Ordering::SeqCst);
    let mut out: Vec<u8> = Vec::new();
    if let Some(line) = taken.on_interrupt.take() {
        // The cursor waits on the line under the frame.
        let _ = queue!(out, cursor::MoveToColumn(0), cursor::MoveUp(1));
        out.extend_from_slice(&line);
        let _ = queue!(out, terminal::Clear(terminal::ClearType::UntilNewLine));
        out.push(b'\n');
    }
    let _ = queue!(out, terminal::EnableLineWrap, cursor::Show);
    let mut stdout = io::stdout().lock();
    let _ = stdout.write_all(&out);
    let _ = stdout.flush();
}
