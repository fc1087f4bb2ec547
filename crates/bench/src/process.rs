//! What a user of the program waits for, measured on the process, for navmap and — in the
//! same run, interleaved — BlastCode (issue 19): MCP `initialize` (from spawning the server
//! to reading its answer), the CLI re-index with nothing changed and with one file changed,
//! a cold index, a full re-index, and the server's RSS after a query mix. Wall time and CPU
//! time of each child come from `wait4`, peak RSS from `/proc` while it runs.
//!
//! The in-process figures of `main.rs` time the library; these include start-up, opening
//! SQLite and exit (issue 19: everything before the first query).
//!
//! BlastCode is installed by the bench itself from crates.io (`cargo install --locked
//! blastcode@0.3.1`) into `<workspace>/.bench/blastcode` (git-ignored, never committed); a
//! machine where that fails runs navmap alone and says so.

use std::ffi::OsString;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{ms, percentiles};

/// The BlastCode release the issue measured.
const BLASTCODE_VERSION: &str = "0.3.1";

/// One program under test: how to index, re-index and serve one root with one database.
pub(crate) struct Program {
    pub name: &'static str,
    bin: PathBuf,
    /// `<bin> <index…> --root R --db D`: an incremental re-index (a cold build when D is new).
    index: Vec<&'static str>,
    /// A re-index that re-reads everything.
    full: Vec<&'static str>,
    /// The MCP server over stdio, on an existing index.
    serve: Vec<&'static str>,
    /// A symbol search tool and its query argument.
    search: (&'static str, &'static str),
    /// A "who calls / what does it call" tool, its argument and whether it takes the node
    /// ID (navmap) or the bare name (BlastCode).
    trace: (&'static str, &'static str, bool),
    /// What `stdout` of a no-op re-index says when it decided from SQLite alone.
    up_to_date: Option<&'static str>,
}

impl Program {
    pub(crate) fn navmap(bin: &Path) -> Program {
        Program {
            name: "navmap",
            bin: bin.to_path_buf(),
            index: vec!["rebuild"],
            full: vec!["rebuild", "--full"],
            serve: vec!["serve", "--no-build", "--no-watch"],
            search: ("map_search", "query"),
            trace: ("map_neighbors", "nodeId", true),
            up_to_date: Some("up to date"),
        }
    }

    fn blastcode(bin: PathBuf) -> Program {
        Program {
            name: "BlastCode",
            bin,
            index: vec!["index"],
            full: vec!["index", "--full"],
            serve: vec!["serve"],
            search: ("search_symbols", "query"),
            trace: ("trace_symbol", "symbol_name", false),
            up_to_date: None,
        }
    }

    fn args(&self, sub: &[&'static str], root: &Path, db: &Path) -> Vec<OsString> {
        let mut a: Vec<OsString> = sub.iter().map(OsString::from).collect();
        a.extend([
            "--root".into(),
            root.as_os_str().into(),
            "--db".into(),
            db.as_os_str().into(),
        ]);
        a
    }
}

/// BlastCode's `blast` binary, installed from crates.io into the workspace's git-ignored
/// `.bench/blastcode` on first use. `None` (with the reason printed) when it cannot be.
pub(crate) fn blastcode() -> Option<Program> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../.bench/blastcode");
    let bin = dir.join("bin/blast");
    if !bin.exists() {
        eprintln!(
            "installing BlastCode {BLASTCODE_VERSION} from crates.io into {}",
            dir.display()
        );
        let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
            .args(["install", "--locked", "--quiet", "blastcode", "--version"])
            .arg(BLASTCODE_VERSION)
            .arg("--root")
            .arg(&dir)
            .env_remove("CARGO_TARGET_DIR")
            .stdout(Stdio::null())
            .status();
        if !status.is_ok_and(|s| s.success()) || !bin.exists() {
            println!("BlastCode: not run (cargo install blastcode@{BLASTCODE_VERSION} failed)");
            return None;
        }
    }
    Some(Program::blastcode(bin))
}

/// One finished child: wall ms, CPU ms (user + system), peak RSS in MB.
struct Run {
    wall: f64,
    cpu: f64,
    rss_mb: f64,
    stdout: String,
}

/// Runs `bin args…` to its end and measures it.
fn run(bin: &Path, args: &[OsString]) -> Option<Run> {
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
        hwm_kb = hwm_kb.max(proc_status_kb(pid, "VmHWM:").unwrap_or(0));
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if r == pid {
            break;
        }
        if r < 0 {
            return None;
        }
        std::thread::sleep(Duration::from_millis(1));
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

/// A `/proc/<pid>/status` figure in kB (`VmHWM:`, `VmRSS:`).
fn proc_status_kb(pid: libc::pid_t, key: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(key))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Median wall, median CPU, max peak RSS of some runs.
#[derive(Clone, Copy)]
struct Summary {
    wall: f64,
    cpu: f64,
    rss: f64,
}

fn summarize(runs: &[Run]) -> Option<Summary> {
    if runs.is_empty() {
        return None;
    }
    Some(Summary {
        wall: percentiles(runs.iter().map(|r| r.wall).collect()).0,
        cpu: percentiles(runs.iter().map(|r| r.cpu).collect()).0,
        rss: runs.iter().map(|r| r.rss_mb).fold(0.0, f64::max),
    })
}

/// `navmap / other` as `12.3×`, or `–`.
fn ratio(a: f64, b: f64) -> String {
    if a.is_finite() && b.is_finite() && b > 0.0 {
        format!("{:.2}×", a / b)
    } else {
        "–".into()
    }
}

/// `<label> ratio navmap/<other>: <figures>` — navmap's ratio to the second program, one
/// `(name, ours, theirs)` per figure; nothing when only navmap ran.
fn print_ratio(label: &str, programs: &[Program], figures: &[(&str, f64, f64)]) {
    let [ours, theirs, ..] = programs else {
        return;
    };
    let figures: Vec<String> = figures
        .iter()
        .map(|(name, a, b)| {
            let r = ratio(*a, *b);
            if name.is_empty() {
                r
            } else {
                format!("{name} {r}")
            }
        })
        .collect();
    println!(
        "{label} ratio {}/{}: {}",
        ours.name,
        theirs.name,
        figures.join(", ")
    );
}

/// One figure for every program, then navmap's ratio to each other program.
fn report(what: &str, programs: &[Program], figures: &[Option<Summary>], runs: usize) {
    for (p, s) in programs.iter().zip(figures) {
        match s {
            Some(s) => println!(
                "CLI {what} [{}]: median {:.1} ms wall, {:.1} ms CPU, peak RSS {:.1} MB ({runs} runs)",
                p.name, s.wall, s.cpu, s.rss
            ),
            None => println!("CLI {what} [{}]: failed", p.name),
        }
    }
    if let (Some(Some(ours)), Some(Some(theirs))) = (figures.first(), figures.get(1)) {
        print_ratio(
            &format!("CLI {what}"),
            programs,
            &[
                ("CPU", ours.cpu, theirs.cpu),
                ("wall", ours.wall, theirs.wall),
                ("peak RSS", ours.rss, theirs.rss),
            ],
        );
    }
}

/// Each program's re-index five times with nothing changed, then five times after
/// appending a newline to one of `files` (root-relative): every program re-indexes after
/// the same edit, in turn. `dbs[i]` is program i's existing index.
pub(crate) fn cli_rebuilds(programs: &[Program], root: &Path, dbs: &[PathBuf], files: &[String]) {
    let index = |p: &Program, db: &Path| run(&p.bin, &p.args(&p.index, root, db));
    // The library's runs before left files racy-fresh; one re-index settles them.
    for (p, db) in programs.iter().zip(dbs) {
        let _ = index(p, db);
    }
    let mut noop: Vec<Vec<Run>> = programs.iter().map(|_| vec![]).collect();
    for _ in 0..5 {
        for ((p, db), runs) in programs.iter().zip(dbs).zip(&mut noop) {
            runs.extend(index(p, db));
        }
    }
    let figures: Vec<_> = noop.iter().map(|r| summarize(r)).collect();
    report("no-op re-index", programs, &figures, 5);
    for (p, runs) in programs.iter().zip(&noop) {
        if let Some(said) = p.up_to_date {
            let decided = runs.iter().filter(|r| r.stdout.contains(said)).count();
            println!(
                "  {} answered '{said}' from SQLite in {decided} of {} runs",
                p.name,
                runs.len()
            );
        }
    }
    let mut one: Vec<Vec<Run>> = programs.iter().map(|_| vec![]).collect();
    for f in files.iter().step_by((files.len() / 5).max(1)).take(5) {
        let p = root.join(f);
        let Ok(mut text) = std::fs::read(&p) else {
            continue;
        };
        text.push(b'\n');
        if std::fs::write(&p, text).is_err() {
            continue;
        }
        for ((p, db), runs) in programs.iter().zip(dbs).zip(&mut one) {
            runs.extend(index(p, db));
        }
    }
    let figures: Vec<_> = one.iter().map(|r| summarize(r)).collect();
    report("one-file re-index", programs, &figures, 5);
}

/// Rounds of [`cli_cold_and_full`]: CPU time on a shared machine moves by 10–20 % between
/// runs minutes apart (BlastCode's own cold index of the stdlib: 10.3–13.6 s), so one run
/// per program could tip a ratio either way; the median of three interleaved rounds is
/// what is compared.
const COLD_ROUNDS: usize = 3;

/// Each program's cold index into a new database, then its full re-index over the existing
/// one (navmap's must not hold the old map beside the new one), in [`COLD_ROUNDS`] rounds
/// that take the programs in turn: medians of wall and CPU time, the highest peak.
pub(crate) fn cli_cold_and_full(programs: &[Program], root: &Path, dbs: &[PathBuf]) {
    let mut cold: Vec<Vec<Run>> = programs.iter().map(|_| vec![]).collect();
    let mut full: Vec<Vec<Run>> = programs.iter().map(|_| vec![]).collect();
    for _ in 0..COLD_ROUNDS {
        for ((p, db), (cold, full)) in programs
            .iter()
            .zip(dbs)
            .zip(cold.iter_mut().zip(full.iter_mut()))
        {
            let cold_db = db.with_file_name(format!("cold-{}.db", p.name));
            cold.extend(run(&p.bin, &p.args(&p.index, root, &cold_db)));
            for suffix in ["", "-wal", "-shm"] {
                let mut f = cold_db.clone().into_os_string();
                f.push(suffix);
                let _ = std::fs::remove_file(f);
            }
            full.extend(run(&p.bin, &p.args(&p.full, root, db)));
        }
    }
    let cold: Vec<_> = cold.iter().map(|r| summarize(r)).collect();
    let full: Vec<_> = full.iter().map(|r| summarize(r)).collect();
    report("cold index", programs, &cold, COLD_ROUNDS);
    report("full re-index", programs, &full, COLD_ROUNDS);
}

/// A JSON-RPC connection over a child's stdio (one JSON object per line).
pub(crate) struct Conn {
    pub stdin: std::process::ChildStdin,
    pub stdout: BufReader<std::process::ChildStdout>,
    pub id: u64,
}

impl Conn {
    pub fn notify(&mut self, method: &str) {
        let msg = serde_json::json!({"jsonrpc": "2.0", "method": method});
        let _ = writeln!(self.stdin, "{msg}");
        let _ = self.stdin.flush();
    }

    /// Sends a request; the answer and the round-trip time in ms.
    pub fn request(
        &mut self,
        method: &str,
        params: serde_json::Value,
    ) -> Option<(serde_json::Value, f64)> {
        self.id += 1;
        let msg = serde_json::json!({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params});
        let t = Instant::now();
        writeln!(self.stdin, "{msg}").ok()?;
        self.stdin.flush().ok()?;
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let v: serde_json::Value = serde_json::from_str(&line).ok()?;
            if v["id"] == self.id {
                return Some((v, ms(t.elapsed())));
            }
        }
    }
}

pub(crate) const INIT_PARAMS: &str = r#"{"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "navmap-bench", "version": "0"}}"#;

/// Spawns a program's MCP server on `db`; the child and its connection.
fn spawn_server(p: &Program, root: &Path, db: &Path) -> Option<(std::process::Child, Conn)> {
    let mut child = Command::new(&p.bin)
        .args(p.args(&p.serve, root, db))
        .env_remove("NAVMAP_TOKEN_BUDGET")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let conn = Conn {
        stdin: child.stdin.take()?,
        stdout: BufReader::new(child.stdout.take()?),
        id: 0,
    };
    Some((child, conn))
}

/// Spawning each program's server until its `initialize` answer is read, five times each,
/// interleaved.
pub(crate) fn initialize(programs: &[Program], root: &Path, dbs: &[PathBuf]) {
    let mut times: Vec<Vec<f64>> = programs.iter().map(|_| vec![]).collect();
    let init: serde_json::Value = serde_json::from_str(INIT_PARAMS).expect("json");
    for _ in 0..5 {
        for ((p, db), times) in programs.iter().zip(dbs).zip(&mut times) {
            let t = Instant::now();
            let Some((mut child, mut conn)) = spawn_server(p, root, db) else {
                continue;
            };
            if conn
                .request("initialize", init.clone())
                .is_some_and(|(v, _)| v.get("result").is_some())
            {
                times.push(ms(t.elapsed()));
            }
            drop(conn);
            let _ = child.kill();
            let _ = child.wait();
        }
    }
    let medians: Vec<f64> = times.iter().map(|t| percentiles(t.clone()).0).collect();
    for ((p, t), m) in programs.iter().zip(&times).zip(&medians) {
        if t.is_empty() {
            println!("MCP initialize [{}]: failed", p.name);
        } else {
            let (_, _, max) = percentiles(t.clone());
            println!(
                "MCP initialize answered (spawn to answer) [{}]: median {m:.1} ms, max {max:.1} ms",
                p.name
            );
        }
    }
    if let [ours, theirs, ..] = medians[..] {
        print_ratio("MCP initialize", programs, &[("", ours, theirs)]);
    }
}

/// Each program's server answering a query mix (`queries` searches, then a trace of each
/// of `names` — navmap by node ID, BlastCode by name): the median latency of each tool and
/// the server's RSS (`VmRSS`) after the mix, and its peak (`VmHWM`).
pub(crate) fn serve_after_queries(
    programs: &[Program],
    root: &Path,
    dbs: &[PathBuf],
    queries: &[String],
    names: &[String],
    ids: &[String],
) {
    let init: serde_json::Value = serde_json::from_str(INIT_PARAMS).expect("json");
    let mut rss = vec![];
    for (p, db) in programs.iter().zip(dbs) {
        let Some((mut child, mut conn)) = spawn_server(p, root, db) else {
            println!("MCP serve [{}]: cannot start", p.name);
            rss.push(f64::NAN);
            continue;
        };
        let pid = child.id() as libc::pid_t;
        if conn.request("initialize", init.clone()).is_none() {
            println!("MCP serve [{}]: initialize failed", p.name);
            rss.push(f64::NAN);
            let _ = child.kill();
            let _ = child.wait();
            continue;
        }
        conn.notify("notifications/initialized");
        let call = |conn: &mut Conn, tool: &str, arg: &str, value: &str| {
            let args = serde_json::json!({ arg: value });
            conn.request(
                "tools/call",
                serde_json::json!({"name": tool, "arguments": args}),
            )
        };
        // The first answer may wait for the index to open; not part of the query figures.
        let warm = Instant::now();
        let _ = call(&mut conn, p.search.0, p.search.1, "warm-up");
        let first = ms(warm.elapsed());
        let mut search = vec![];
        for q in queries {
            search.extend(call(&mut conn, p.search.0, p.search.1, q).map(|(_, t)| t));
        }
        let mut trace = vec![];
        let (tool, arg, by_id) = p.trace;
        for (name, id) in names.iter().zip(ids) {
            let target = if by_id { id } else { name };
            trace.extend(call(&mut conn, tool, arg, target).map(|(_, t)| t));
        }
        let now_mb = proc_status_kb(pid, "VmRSS:").unwrap_or(0) as f64 / 1024.0;
        let peak_mb = proc_status_kb(pid, "VmHWM:").unwrap_or(0) as f64 / 1024.0;
        drop(conn);
        let _ = child.kill();
        let _ = child.wait();
        let (s50, s95, _) = percentiles(search.clone());
        let (t50, t95, _) = percentiles(trace.clone());
        println!(
            "MCP serve [{}]: first answer {first:.0} ms; {} p50 {s50:.2} / p95 {s95:.2} ms ({} calls); {tool} p50 {t50:.2} / p95 {t95:.2} ms ({} calls); RSS after the mix {now_mb:.1} MB (peak {peak_mb:.1} MB)",
            p.name,
            p.search.0,
            search.len(),
            trace.len()
        );
        rss.push(now_mb);
    }
    if let [ours, theirs, ..] = rss[..] {
        print_ratio("MCP serve RSS", programs, &[("", ours, theirs)]);
    }
}

/// The bench's own argument for the path of a program's database beside navmap's.
pub(crate) fn db_beside(db: &Path, p: &Program) -> PathBuf {
    if p.name == "navmap" {
        db.to_path_buf()
    } else {
        db.with_file_name(format!("{}.db", p.name.to_lowercase()))
    }
}
