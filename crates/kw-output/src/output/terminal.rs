//! What kind of place the output goes to, decided once before any printer exists: a terminal
//! gets colour (unless told otherwise), stable columns and display-width alignment; a pipe gets
//! kubectl's bytes. Printers are told the answer and never look at the environment themselves.
//!
//! The only place kw reads `NO_COLOR`, `CLICOLOR_FORCE`, `COLUMNS` and its test hook
//! `KW_FORCE_TERMINAL` (set to `1` to make tests see a terminal without one). Its one `unsafe`
//! block is the `TIOCGWINSZ` ioctl that asks the terminal its width, into a struct it owns.

use std::io::IsTerminal;

/// `--color`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// Colour on a terminal, unless `NO_COLOR` is set; `CLICOLOR_FORCE` forces it in a pipe.
    #[default]
    Auto,
    Always,
    Never,
}

impl std::str::FromStr for ColorChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "auto" => Ok(ColorChoice::Auto),
            "always" => Ok(ColorChoice::Always),
            "never" => Ok(ColorChoice::Never),
            other => Err(format!(
                "--color must be auto, always or never, not {other:?}"
            )),
        }
    }
}

/// Whether stdout is a terminal (or a test says to act as if).
pub fn stdout_is_terminal() -> bool {
    if std::env::var_os("KW_FORCE_TERMINAL").is_some_and(|v| v == "1") {
        return true;
    }
    std::io::stdout().is_terminal()
}

/// Whether kw's notices on stderr are dimmed: on a terminal, unless `NO_COLOR` is set (even to
/// nothing: notices are not output, and `--color` does not reach them).
pub fn dims_notices() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

/// The width of the terminal on stdout, in columns: `COLUMNS` when it is set to a number (as
/// for `ls`; also how tests fix a width), else what the terminal says, else unknown.
pub fn stdout_width() -> Option<usize> {
    if let Some(columns) = std::env::var("COLUMNS")
        .ok()
        .and_then(|v| parse_columns(&v))
    {
        return Some(columns);
    }
    terminal_columns()
}

#[cfg(unix)]
fn terminal_columns() -> Option<usize> {
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    // SAFETY: TIOCGWINSZ writes only into the `winsize` we own; a descriptor that is not a
    // terminal makes it fail, which is answered as "unknown".
    let result = unsafe { libc::ioctl(libc::STDOUT_FILENO, libc::TIOCGWINSZ, &mut size) };
    (result == 0 && size.ws_col > 0).then_some(usize::from(size.ws_col))
}

/// The console's width (Windows), when stdout is one.
#[cfg(not(unix))]
fn terminal_columns() -> Option<usize> {
    if !std::io::stdout().is_terminal() {
        return None;
    }
    let (columns, _) = crossterm::terminal::size().ok()?;
    (columns > 0).then_some(usize::from(columns))
}

fn parse_columns(value: &str) -> Option<usize> {
    value.trim().parse::<usize>().ok().filter(|&n| n > 0)
}

/// Whether to colour the output. The answer is also handed to `colored` (which the printers
/// paint with), so that its own guess from the environment never disagrees with `--color`.
pub fn use_color(choice: ColorChoice, terminal: bool) -> bool {
    let color = decide_color(choice, terminal);
    colored::control::set_override(color);
    color
}

fn decide_color(choice: ColorChoice, terminal: bool) -> bool {
    let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto if set("NO_COLOR") => false,
        ColorChoice::Auto
            if set("CLICOLOR_FORCE") && std::env::var_os("CLICOLOR_FORCE") != Some("0".into()) =>
        {
            true
        }
        ColorChoice::Auto => terminal,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_must_be_a_positive_number() {
        assert_eq!(parse_columns("120"), Some(120));
        assert_eq!(parse_columns(" 80\n"), Some(80));
        assert_eq!(parse_columns("0"), None);
        assert_eq!(parse_columns("wide"), None);
        assert_eq!(parse_columns("-3"), None);
    }
}
