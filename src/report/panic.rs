//! A panic is a bug in kw, and still ends as every other error does: one line on stderr and a
//! documented exit code (`exit::INTERNAL`), with the terminal given back if the live view had
//! it. No Rust backtrace unless a developer asks for one with `RUST_BACKTRACE`.

use std::io::Write;
use std::panic::PanicHookInfo;

use super::exit;
use kw_output::output::escape::escaped;

/// Replace the default panic hook for the whole process: a panic on any thread ends kw.
pub fn install() {
    std::panic::set_hook(Box::new(|info| {
        kw_output::output::live::restore_after_panic();
        let mut stderr = std::io::stderr().lock();
        let _ = writeln!(stderr, "{}", line(&message(info), location(info)));
        if std::env::var_os("RUST_BACKTRACE").is_some_and(|v| v != "0") {
            let _ = writeln!(stderr, "{}", std::backtrace::Backtrace::force_capture());
        }
        let _ = stderr.flush();
        std::process::exit(exit::INTERNAL);
    }));
}

fn message(info: &PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".to_string())
}

fn location(info: &PanicHookInfo<'_>) -> Option<String> {
    info.location()
        .map(|at| format!("{}:{}", at.file(), at.line()))
}

/// The one line: the message may quote server data (an index, a name), so it is escaped and
/// kept to one line of bounded length.
fn line(message: &str, location: Option<String>) -> String {
    const MAX: usize = 300;
    let flat: String = message
        .chars()
        .map(|c| if c == '\n' || c == '\t' { ' ' } else { c })
        .take(MAX)
        .collect();
    let at = location.map(|at| format!(" at {at}")).unwrap_or_default();
    format!(
        "kw: internal error: {}{at} (a bug in kw; please report it with the command that caused it)",
        escaped(&flat)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_is_one_escaped_bounded_line() {
        let said = line("bad \u{1b}]52;c;x\u{7}\nsecond", Some("src/x.rs:3".into()));
        assert!(!said.contains('\n') && !said.contains('\u{1b}') && !said.contains('\u{7}'));
        assert!(said.starts_with("kw: internal error: bad ^[]52;c;x^G second at src/x.rs:3"));
        assert!(line(&"x".repeat(10_000), None).len() < 500);
    }
}
