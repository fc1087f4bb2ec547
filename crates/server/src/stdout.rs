//! Command output on stdout (`navmap call`, `navmap servers`, `navmap rebuild`) that ends
//! the process quietly when the reader goes away: `navmap call … | head` closes the pipe
//! after ten lines, and `println!` would panic on the broken pipe. MCP frames of `serve`
//! do not come through here.

use std::io::Write;

/// `println!` for command output: see the module doc.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::stdout::line(format_args!($($arg)*))
    };
}
pub(crate) use outln;

/// Writes one line to stdout. A closed stdout ends the process with status 0, as for any
/// Unix filter whose reader has read enough; another write error ends it with status 1.
pub(crate) fn line(args: std::fmt::Arguments<'_>) {
    let mut out = std::io::stdout().lock();
    let written = out
        .write_fmt(args)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush());
    match written {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => {
            eprintln!("navmap: cannot write to stdout: {e}");
            std::process::exit(1);
        }
    }
}
