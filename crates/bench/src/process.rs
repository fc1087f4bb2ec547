//! What a user of the `navmap` program waits for, measured on the process: `navmap
//! rebuild` with nothing changed and with one file changed (wall time and CPU time of the
//! child from `wait4`, its peak RSS from `/proc`), and `navmap serve` answering MCP `initialize` (from
//! spawning the process to reading the answer).
//!
//! The in-process figures of `main.rs` time the library; these include start-up, opening
//! SQLite and exit (issue 19: everything before the first query).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::{ms, percentiles};

/// One finished child: wall ms, CPU ms (user + system), peak RSS in MB.
struct Run {
    wall: f64,
    cpu: f64,
    rss_mb: f64,
    stdout: String,
}

/// Runs `bin args…` to its end and measures it.
fn run(bin: &Path, args: &[&std::ffi::OsStr]) -> Option<Run> {
    let t = Instant::now();
    let child = Command::new(bin)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: plain FFI calls with valid pointers; `pid` is our unreaped child (std's
    // `Child` is never waited on, so the pid cannot have been reused).
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // Peak RSS is read from /proc while the child runs (`VmHWM` of its own memory):
    // `ru_maxrss` from `wait4` is useless here, as Linux carries the spawning process's
    // high-water mark (the bench's map, via vfork) across `exec` into the child's.
    let mut hwm_kb = 0u64;
    loop {
        hwm_kb = hwm_kb.max(vm_hwm_kb(pid).unwrap_or(0));
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        if r < 0 {
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
    let mut out = String::new();
    let mut stdout = child.stdout?;
    std::io::Read::read_to_string(&mut stdout, &mut out).ok()?;
    let wall = ms(t.elapsed());
    let secs = |tv: libc::timeval| tv.tv_sec as f64 * 1e3 + tv.tv_usec as f64 / 1e3;
    Some(Run {
        wall,
        cpu: secs(usage.ru_utime) + secs(usage.ru_stime),
        rss_mb: hwm_kb as f64 / 1024.0,
        stdout: out,
    })
}

/// `VmHWM` of a running process, in kB.
fn vm_hwm_kb(pid: libc::pid_t) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn report(what: &str, runs: Vec<Run>) {
    if runs.is_empty() {
        println!("CLI {what}: failed");
        return;
    }
    let rss = runs.iter().map(|r| r.rss_mb).fold(0.0, f64::max);
    let (wall, _, _) = percentiles(runs.iter().map(|r| r.wall).collect());
    let (cpu, _, _) = percentiles(runs.iter().map(|r| r.cpu).collect());
    let up_to_date = runs
        .iter()
        .filter(|r| r.stdout.contains("up to date"))
        .count();
    println!(
        "CLI {what}: median {wall:.1} ms wall, {cpu:.1} ms CPU, peak RSS {rss:.1} MB ({} runs, {up_to_date} answered 'up to date' from SQLite)",
        runs.len()
    );
}

/// `navmap rebuild` five times with nothing changed, then five times after appending a
/// newline to one of `files` (root-relative).
pub(crate) fn cli_rebuilds(bin: &Path, root: &Path, db: &Path, files: &[String]) {
    let args = [
        std::ffi::OsStr::new("rebuild"),
        std::ffi::OsStr::new("--root"),
        root.as_os_str(),
        std::ffi::OsStr::new("--db"),
        db.as_os_str(),
    ];
    // The library's runs before left files racy-fresh; one rebuild settles them.
    let _ = run(bin, &args);
    let noop: Vec<Run> = (0..5).filter_map(|_| run(bin, &args)).collect();
    report("no-op rebuild", noop);
    let mut one = vec![];
    for f in files.iter().step_by((files.len() / 5).max(1)).take(5) {
        let p = root.join(f);
        let Ok(mut text) = std::fs::read(&p) else {
            continue;
        };
        text.push(b'\n');
        if std::fs::write(&p, text).is_err() {
            continue;
        }
        if let Some(r) = run(bin, &args) {
            one.push(r);
        }
    }
    report("one-file rebuild", one);
}

/// `navmap rebuild` into a new database (a cold build) and `navmap rebuild --full` over the
/// existing one: the full rebuild must not hold the old map beside the new one.
pub(crate) fn cli_cold_and_full(bin: &Path, root: &Path, db: &Path) {
    let cold_db = db.with_file_name("cold-cli.db");
    let cold = run(
        bin,
        &[
            "rebuild".as_ref(),
            "--root".as_ref(),
            root.as_os_str(),
            "--db".as_ref(),
            cold_db.as_os_str(),
        ],
    );
    for suffix in ["", "-wal", "-shm"] {
        let mut p = cold_db.clone().into_os_string();
        p.push(suffix);
        let _ = std::fs::remove_file(p);
    }
    let full = run(
        bin,
        &[
            "rebuild".as_ref(),
            "--full".as_ref(),
            "--root".as_ref(),
            root.as_os_str(),
            "--db".as_ref(),
            db.as_os_str(),
        ],
    );
    for (what, r) in [("cold rebuild", cold), ("rebuild --full", full)] {
        match r {
            Some(r) => println!(
                "CLI {what}: {:.0} ms wall, {:.0} ms CPU, peak RSS {:.1} MB",
                r.wall, r.cpu, r.rss_mb
            ),
            None => println!("CLI {what}: failed"),
        }
    }
}

/// Spawning `navmap serve` until its `initialize` answer is read, five times.
pub(crate) fn initialize(bin: &Path, root: &Path, db: &Path) {
    let mut times = vec![];
    for _ in 0..5 {
        let t = Instant::now();
        let Ok(mut child) = Command::new(bin)
            .args(["serve", "--no-build", "--no-watch", "--root"])
            .arg(root)
            .arg("--db")
            .arg(db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
        else {
            break;
        };
        let init = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "navmap-bench", "version": "0"}}});
        let mut stdin = child.stdin.take().expect("stdin");
        let _ = writeln!(stdin, "{init}");
        let _ = stdin.flush();
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        if stdout.read_line(&mut line).is_ok() && line.contains("\"result\"") {
            times.push(ms(t.elapsed()));
        }
        drop(stdin);
        let _ = child.kill();
        let _ = child.wait();
    }
    if times.is_empty() {
        println!("MCP initialize: failed");
        return;
    }
    let (p50, _, max) = percentiles(times);
    println!("MCP initialize answered (spawn to answer): median {p50:.1} ms, max {max:.1} ms");
}
