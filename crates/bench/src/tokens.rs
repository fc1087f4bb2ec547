//! `navmap-bench tokens`: what navigation costs an agent in tokens, navmap against grep+read.
//!
//! The questions live in `questions/tokens.json` (data, not code: they name languages,
//! files and symbols, which the core crates' guard keeps out of Rust sources). Each has a
//! hand-checked expected answer, the cheapest tool sequence an agent would use, and a
//! grep+read baseline that this bench runs itself:
//!
//! - navmap tokens = chars/4 (rounded up) of every envelope the sequence returns, through
//!   the real `navmap serve` over MCP stdio with the real language servers;
//! - baseline tokens = chars/4 of what an agent would read: the output of `grep -rnE` (run
//!   from the corpus root, with `--include`s), then each file named by a step, or a 200-line
//!   window around its hit when the file is longer.
//!
//! Every call's answer is checked: `ok: true`, each expected needle (a string, or a number
//! that must appear as a whole number) in its `data`, no rejected needle. A question whose
//! answer does not match counts as wrong, whatever its tokens. Also printed: the tokens of
//! the compact `tools/list` result (chars/4 of its JSON).
//!
//! ```text
//! scripts/install-servers.sh && cargo build --release -p navmap -p navmap-bench
//! target/release/navmap-bench tokens [--only <id part>] [--show] [--navmap <bin>]
//! ```
//! Corpora are copied to temporary directories first (the originals are only read): the
//! repository's fixtures, part of the interpreter's standard library found through its own
//! `sysconfig`, a crate from the cargo registry at the version `Cargo.lock` pins, and
//! declaration files from the npm tools folder.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// Lines read around a hit in a longer file.
const WINDOW: usize = 200;
/// How long one tool call may take before the question counts as failed.
const CALL_TIMEOUT: Duration = Duration::from_secs(180);

struct Opts {
    navmap: PathBuf,
    only: Vec<String>,
    show: bool,
    questions: PathBuf,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn usage() -> ! {
    eprintln!(
        "usage: navmap-bench tokens [--only <question id part>]... [--show] [--navmap <bin>] \
         [--questions <file>]"
    );
    std::process::exit(2)
}

fn parse(args: &[String]) -> Opts {
    let mut o = Opts {
        navmap: super::default_navmap().unwrap_or_else(|| PathBuf::from("navmap")),
        only: vec![],
        show: false,
        questions: Path::new(env!("CARGO_MANIFEST_DIR")).join("questions/tokens.json"),
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().unwrap_or_else(|| usage());
        match a.as_str() {
            "--navmap" => o.navmap = val().into(),
            "--only" => o.only.push(val()),
            "--show" => o.show = true,
            "--questions" => o.questions = val().into(),
            _ => usage(),
        }
    }
    o
}

/// The npm packages of `scripts/install-servers.sh` (`navmap servers install` with
/// `NAVMAP_DATA_DIR=.tools` puts them in `.tools/npm/node_modules`; older checkouts had
/// `.tools/node_modules`), if installed.
fn tools_dir() -> Option<PathBuf> {
    ["npm/node_modules", "node_modules"].iter().find_map(|sub| {
        let d = repo().join(".tools").join(sub);
        d.is_dir().then(|| d.canonicalize().unwrap_or(d))
    })
}

/// `PATH` for navmap: the tools folder's `.bin` first.
fn child_path() -> String {
    let path = std::env::var("PATH").unwrap_or_default();
    match tools_dir() {
        Some(t) => format!("{}:{path}", t.join(".bin").display()),
        None => path,
    }
}

/// `PATH` for a server the bench starts itself: navmap's venv (clangd) and the tools
/// folder's `.bin` first.
pub(crate) fn tools_bin_path() -> String {
    format!(
        "{}:{}",
        repo().join(".tools/venv/bin").display(),
        child_path()
    )
}

/// A directory holding the npm package `name`: the repository's tools folder, else the
/// one beside a `.bin` on `PATH` that has it.
pub(crate) fn npm_package(name: &str) -> Option<PathBuf> {
    if let Some(t) = tools_dir()
        && t.join(name).is_dir()
    {
        return Some(t.join(name));
    }
    std::env::var("PATH").ok()?.split(':').find_map(|d| {
        let p = Path::new(d).join("..").join(name);
        p.is_dir().then(|| p.canonicalize().unwrap_or(p))
    })
}

// ---- corpora ---------------------------------------------------------------------------

/// Where a corpus's files come from (see `questions/tokens.json`).
fn corpus_source(spec: &Value) -> Result<PathBuf, String> {
    if let Some(dir) = spec["repo"].as_str() {
        return Ok(repo().join(dir));
    }
    if let Some(cmd) = spec["command"].as_array() {
        let argv: Vec<&str> = cmd.iter().filter_map(Value::as_str).collect();
        let out = Command::new(argv[0])
            .args(&argv[1..])
            .output()
            .map_err(|e| format!("{}: {e}", argv[0]))?;
        return Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()));
    }
    if let Some(name) = spec["cargo_crate"].as_str() {
        let version = locked_version(name)?;
        let home = std::env::var("CARGO_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|_| {
                PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".cargo")
            });
        let src = home.join("registry/src");
        for index in std::fs::read_dir(&src).map_err(|e| format!("{}: {e}", src.display()))? {
            let p = index.map_err(|e| e.to_string())?.path();
            let dir = p.join(format!("{name}-{version}"));
            if dir.is_dir() {
                return Ok(dir);
            }
        }
        return Err(format!(
            "{name}-{version} is not in {} (run cargo fetch)",
            src.display()
        ));
    }
    if let Some(module) = spec["go_module"].as_str() {
        return go_module(module);
    }
    if let Some(path) = spec["npm"].as_str() {
        let (package, rest) = path.split_once('/').unwrap_or((path, ""));
        let dir = npm_package(package).ok_or_else(|| {
            format!("npm package {package} not found (run scripts/install-servers.sh)")
        })?;
        return Ok(dir.join(rest));
    }
    Err(format!("unknown corpus source {spec}"))
}

/// navmap's data folder (`NAVMAP_DATA_DIR`, else the repository's `.tools`): where
/// `scripts/install-servers.sh` builds gopls, whose module cache holds real Go modules.
pub(crate) fn data_dir() -> PathBuf {
    std::env::var_os("NAVMAP_DATA_DIR")
        .map(PathBuf::from)
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or_else(|| repo().join(".tools"))
}

/// The Go module `module` in the data folder's module cache (`go/pkg/mod`), whichever
/// version gopls's install pulled (the newest when there are several). The cache spells
/// an upper-case letter `!` and the lower-case one (`github.com/!burnt!sushi/toml`).
fn go_module(module: &str) -> Result<PathBuf, String> {
    let escaped: String = module
        .chars()
        .flat_map(|c| {
            if c.is_ascii_uppercase() {
                vec!['!', c.to_ascii_lowercase()]
            } else {
                vec![c]
            }
        })
        .collect();
    let (parent, last) = escaped.rsplit_once('/').unwrap_or(("", &escaped));
    let cache = data_dir().join("go/pkg/mod");
    let dir = cache.join(parent);
    let prefix = format!("{last}@");
    let mut found: Vec<(Vec<u64>, PathBuf)> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let version = name
                .strip_prefix(&prefix)?
                .trim_start_matches('v')
                .to_string();
            // v1.10.0 after v1.9.0: numeric parts, not text, order them.
            let key = version
                .split(['.', '-', '+'])
                .map(|p| p.parse().unwrap_or(0))
                .collect();
            e.path().is_dir().then(|| (key, e.path()))
        })
        .collect();
    found.sort();
    found.pop().map(|(_, p)| p).ok_or_else(|| {
        format!(
            "Go module {module} is not in {} (scripts/install-servers.sh builds gopls there; \
             its module cache holds the module)",
            cache.display()
        )
    })
}

/// The version of `name` that the workspace's `Cargo.lock` pins.
fn locked_version(name: &str) -> Result<String, String> {
    let lock = std::fs::read_to_string(repo().join("Cargo.lock")).map_err(|e| e.to_string())?;
    let mut lines = lock.lines();
    while let Some(l) = lines.next() {
        if l.trim() == format!("name = \"{name}\"")
            && let Some(v) = lines.next()
            && let Some(v) = v.trim().strip_prefix("version = \"")
        {
            return Ok(v.trim_end_matches('"').to_string());
        }
    }
    Err(format!("{name} is not in Cargo.lock"))
}

/// Copies `from` (only the `take` entries when given) into `to`, without caches and links.
fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    let ft = std::fs::symlink_metadata(from)?.file_type();
    if ft.is_symlink() {
        return Ok(());
    }
    if ft.is_dir() {
        let name = from.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if matches!(name, "__pycache__" | "node_modules" | "target" | ".git") {
            return Ok(());
        }
        std::fs::create_dir_all(to)?;
        for e in std::fs::read_dir(from)? {
            let e = e?;
            copy_tree(&e.path(), &to.join(e.file_name()))?;
        }
        return Ok(());
    }
    std::fs::copy(from, to)?;
    // A Go module cache's files are read-only; the copy is the corpus's, to edit and remove.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mut perms = std::fs::metadata(to)?.permissions();
        if perms.mode() & 0o200 == 0 {
            perms.set_mode(perms.mode() | 0o200);
            std::fs::set_permissions(to, perms)?;
        }
    }
    Ok(())
}

/// The local Maven repository (`~/.m2/repository`; a `settings.xml` naming another one is
/// not read).
fn maven_repository() -> PathBuf {
    PathBuf::from(std::env::var("HOME").unwrap_or_default()).join(".m2/repository")
}

/// The jar of a Maven coordinate `group:artifact:version[:jar[:classifier]]` in the local
/// repository; fetched once with `mvn dependency:get` (Maven Central) when it is not there,
/// so that every later run is offline.
fn maven_jar(coord: &str) -> Result<PathBuf, String> {
    let parts: Vec<&str> = coord.split(':').collect();
    let [group, artifact, version, rest @ ..] = parts.as_slice() else {
        return Err(format!(
            "{coord}: not group:artifact:version[:jar[:classifier]]"
        ));
    };
    let classifier = rest.get(1).map(|c| format!("-{c}")).unwrap_or_default();
    let jar = maven_repository()
        .join(group.replace('.', "/"))
        .join(artifact)
        .join(version)
        .join(format!("{artifact}-{version}{classifier}.jar"));
    if jar.is_file() {
        return Ok(jar);
    }
    println!(
        "fetching {coord} from Maven Central: mvn -q dependency:get -Dartifact={coord} (into {})",
        maven_repository().display()
    );
    let out = Command::new("mvn")
        .args(["-q", "dependency:get", &format!("-Dartifact={coord}")])
        .output()
        .map_err(|e| format!("mvn: {e} (Maven is needed once to fetch {coord})"))?;
    if !out.status.success() || !jar.is_file() {
        return Err(format!(
            "mvn dependency:get {coord} failed: {}",
            String::from_utf8_lossy(&out.stdout).trim()
        ));
    }
    Ok(jar)
}

/// A corpus from a Maven sources jar (`maven`): unpacked into `unpack` under the copy (a
/// Maven layout, `src/main/java`, with the `pom.xml` the corpus writes, so that jdtls
/// imports it as a project), without the jar's `META-INF`.
fn unpack_maven(spec: &Value, into: &Path) -> Result<(), String> {
    let coord = spec["maven"].as_str().unwrap_or("");
    let jar = maven_jar(coord)?;
    let dir = into.join(spec["unpack"].as_str().unwrap_or(""));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let out = Command::new("unzip")
        .args(["-q", "-o"])
        .arg(&jar)
        .args(["-x", "META-INF/*", "-d"])
        .arg(&dir)
        .output()
        .map_err(|e| format!("unzip: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "unzip {}: {}",
            jar.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(())
}

pub(crate) fn prepare(spec: &Value, into: &Path) -> Result<(), String> {
    if spec.get("maven").is_some() {
        unpack_maven(spec, into)?;
        return write_files(spec, into);
    }
    let src = corpus_source(spec)?;
    if !src.is_dir() {
        return Err(format!("{} is not a directory", src.display()));
    }
    match spec["take"].as_array() {
        Some(take) => {
            for t in take.iter().filter_map(Value::as_str) {
                copy_tree(&src.join(t), &into.join(t)).map_err(|e| format!("{t}: {e}"))?;
            }
        }
        None => copy_tree(&src, into).map_err(|e| e.to_string())?,
    }
    write_files(spec, into)
}

/// The files a corpus writes into its copy (`write`: name → text).
fn write_files(spec: &Value, into: &Path) -> Result<(), String> {
    for (name, text) in spec["write"].as_object().into_iter().flatten() {
        std::fs::write(into.join(name), text.as_str().unwrap_or("")).map_err(|e| e.to_string())?;
    }
    Ok(())
}

// ---- MCP ---------------------------------------------------------------------------------

/// `navmap serve` over stdio, JSON-RPC by hand (one object per line).
pub(crate) struct Server {
    child: Child,
    stdin: ChildStdin,
    lines: std::sync::mpsc::Receiver<String>,
    id: u64,
}

impl Server {
    pub(crate) fn start(bin: &Path, root: &Path) -> Result<Server, String> {
        Self::start_with(bin, root, &[])
    }

    /// `start` with extra environment variables (a corpus's server command overrides).
    pub(crate) fn start_with(
        bin: &Path,
        root: &Path,
        env: &[(String, String)],
    ) -> Result<Server, String> {
        let mut child = Command::new(bin)
            .arg("serve")
            .arg("--root")
            .arg(root)
            .env("PATH", child_path())
            .env("NAVMAP_DATA_DIR", repo().join(".tools"))
            .env_remove("NAVMAP_TOKEN_BUDGET")
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
        let stdin = child.stdin.take().expect("stdin");
        let stdout: ChildStdout = child.stdout.take().expect("stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines() {
                let Ok(l) = l else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        let mut s = Server {
            child,
            stdin,
            lines,
            id: 0,
        };
        s.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "navmap-bench", "version": "0"}}),
        )?;
        s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))?;
        Ok(s)
    }

    fn send(&mut self, msg: &Value) -> Result<(), String> {
        writeln!(self.stdin, "{msg}").map_err(|e| e.to_string())?;
        self.stdin.flush().map_err(|e| e.to_string())
    }

    pub(crate) fn request(&mut self, method: &str, params: Value) -> Result<Value, String> {
        self.id += 1;
        let id = self.id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))?;
        let deadline = Instant::now() + CALL_TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .map_err(|_| format!("{method}: no answer within {CALL_TIMEOUT:?}"))?;
            let Ok(v) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if v["id"] == id {
                if let Some(e) = v.get("error") {
                    return Err(format!("{method}: {e}"));
                }
                return Ok(v["result"].clone());
            }
        }
    }

    /// A tool call: the envelope's text (what the agent reads).
    pub(crate) fn call(&mut self, tool: &str, args: &Value) -> Result<String, String> {
        let r = self.request("tools/call", json!({"name": tool, "arguments": args}))?;
        r["content"][0]["text"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| format!("{tool}: no text content"))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

// ---- answers -----------------------------------------------------------------------------

/// Does `hay` hold `n` as a whole number (not part of a longer one)?
fn has_number(hay: &str, n: u64) -> bool {
    let needle = n.to_string();
    let b = hay.as_bytes();
    hay.match_indices(&needle).any(|(i, _)| {
        let before = i == 0 || !b[i - 1].is_ascii_digit();
        let end = i + needle.len();
        let after = end >= b.len() || !b[end].is_ascii_digit();
        before && after
    })
}

fn has(hay: &str, needle: &Value) -> bool {
    match needle {
        Value::Number(n) => n.as_u64().is_some_and(|n| has_number(hay, n)),
        Value::String(s) => hay.contains(s.as_str()),
        // Any of several spellings.
        Value::Array(alts) => alts.iter().any(|a| has(hay, a)),
        _ => false,
    }
}

/// Problems with one envelope against the call's expectations (empty: it matched).
fn check(envelope: &str, call: &Value) -> Vec<String> {
    let Ok(v) = serde_json::from_str::<Value>(envelope) else {
        return vec!["not JSON".into()];
    };
    if v["ok"] != true {
        return vec![format!("not ok: {}", v["error"])];
    }
    let data = v["data"].to_string();
    let mut problems = vec![];
    for n in call["expect"].as_array().into_iter().flatten() {
        if !has(&data, n) {
            problems.push(format!("missing {n}"));
        }
    }
    for n in call["reject"].as_array().into_iter().flatten() {
        if has(&data, n) {
            problems.push(format!("wrongly claims {n}"));
        }
    }
    problems
}

// ---- the grep+read baseline ------------------------------------------------------------

/// What the agent reads without navmap, step by step; the chars it read.
struct Baseline<'a> {
    root: &'a Path,
    /// `(file, line)` of each hit of the last grep, in output order.
    hits: Vec<(String, usize)>,
    chars: usize,
}

impl Baseline<'_> {
    fn step(&mut self, s: &Value) -> Result<(), String> {
        if let Some(pattern) = s["grep"].as_str() {
            let mut cmd = Command::new("grep");
            cmd.current_dir(self.root).arg("-rnE");
            for i in s["include"].as_array().into_iter().flatten() {
                cmd.arg(format!("--include={}", i.as_str().unwrap_or("")));
            }
            cmd.arg("--").arg(pattern);
            cmd.arg(s["in"].as_str().unwrap_or("."));
            let out = cmd.output().map_err(|e| format!("grep: {e}"))?;
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            self.chars += text.chars().count();
            let single = s["in"]
                .as_str()
                .is_some_and(|p| self.root.join(p).is_file());
            self.hits = text
                .lines()
                .filter_map(|l| {
                    if single {
                        let (n, _) = l.split_once(':')?;
                        Some((s["in"].as_str()?.to_string(), n.parse().ok()?))
                    } else {
                        let (f, rest) = l.split_once(':')?;
                        let (n, _) = rest.split_once(':')?;
                        Some((f.trim_start_matches("./").to_string(), n.parse().ok()?))
                    }
                })
                .collect();
            if self.hits.is_empty() && s["may_miss"] != true {
                return Err(format!("baseline grep {pattern:?} found nothing"));
            }
        } else if let Some(n) = s["read_hits"].as_u64() {
            // A window around each hit that no earlier window covers, at most n windows.
            let mut read: Vec<(String, usize, usize)> = vec![];
            for (f, l) in &self.hits {
                if read.len() as u64 >= n {
                    break;
                }
                if read.iter().any(|(g, a, b)| g == f && (*a..*b).contains(l)) {
                    continue;
                }
                let (chars, a, b) = read_window(&self.root.join(f), *l)?;
                self.chars += chars;
                read.push((f.clone(), a, b));
            }
        } else if let Some(f) = s["read"].as_str() {
            let line = s["line"].as_u64().unwrap_or(1) as usize;
            self.chars += read_window(&self.root.join(f), line)?.0;
        } else if let Some(includes) = s["list"].as_array() {
            // `find . -name …`: the file list an agent starts from.
            let mut cmd = Command::new("find");
            cmd.current_dir(self.root)
                .arg(".")
                .arg("-type")
                .arg("f")
                .arg("(");
            for (k, i) in includes.iter().enumerate() {
                if k > 0 {
                    cmd.arg("-o");
                }
                cmd.arg("-name").arg(i.as_str().unwrap_or(""));
            }
            cmd.arg(")");
            let out = cmd.output().map_err(|e| format!("find: {e}"))?;
            self.chars += out.stdout.len();
        } else {
            return Err(format!("unknown baseline step {s}"));
        }
        Ok(())
    }
}

/// The chars of the whole file when it is short, else of a window of [`WINDOW`] lines
/// centred on `line`; with the 1-based lines it covers (`a..b`).
fn read_window(path: &Path, line: usize) -> Result<(usize, usize, usize), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= WINDOW {
        return Ok((text.chars().count(), 1, lines.len() + 1));
    }
    let start = line
        .saturating_sub(WINDOW / 2 + 1)
        .min(lines.len() - WINDOW);
    let chars = lines[start..start + WINDOW]
        .iter()
        .map(|l| l.chars().count() + 1)
        .sum();
    Ok((chars, start + 1, start + WINDOW + 1))
}

// ---- the run -----------------------------------------------------------------------------

struct Outcome {
    id: String,
    kind: String,
    navmap: usize,
    calls: usize,
    baseline: usize,
    right: bool,
    problems: Vec<String>,
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

pub fn main(args: &[String]) {
    let o = parse(args);
    let spec: Value = std::fs::read_to_string(&o.questions)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| panic!("cannot read {}", o.questions.display()));
    let questions: Vec<&Value> = spec["questions"]
        .as_array()
        .expect("questions")
        .iter()
        .filter(|q| {
            o.only.is_empty()
                || o.only
                    .iter()
                    .any(|s| q["id"].as_str().unwrap_or("").contains(s.as_str()))
        })
        .collect();
    println!("navmap: {}", o.navmap.display());
    let mut outcomes: Vec<Outcome> = vec![];
    let mut tools_list = None;
    for (name, corpus) in spec["corpora"].as_object().expect("corpora") {
        let qs: Vec<&&Value> = questions
            .iter()
            .filter(|q| q["corpus"] == name.as_str())
            .collect();
        if qs.is_empty() {
            continue;
        }
        let tmp = tempfile::tempdir().expect("temp dir");
        let root = tmp.path().join(name);
        let fail_all = |why: String, outcomes: &mut Vec<Outcome>| {
            println!("\n## {name}: {why}");
            for q in &qs {
                outcomes.push(Outcome {
                    id: q["id"].as_str().unwrap_or("").into(),
                    kind: q["kind"].as_str().unwrap_or("").into(),
                    navmap: 0,
                    calls: 0,
                    baseline: 0,
                    right: false,
                    problems: vec![why.clone()],
                });
            }
        };
        if let Err(e) = std::fs::create_dir_all(&root)
            .map_err(|e| e.to_string())
            .and_then(|_| prepare(corpus, &root))
        {
            fail_all(format!("corpus not available: {e}"), &mut outcomes);
            continue;
        }
        let started = Instant::now();
        let mut server = match Server::start(&o.navmap, &root) {
            Ok(s) => s,
            Err(e) => {
                fail_all(e, &mut outcomes);
                continue;
            }
        };
        if tools_list.is_none()
            && let Ok(r) = server.request("tools/list", json!({}))
        {
            tools_list = Some(tokens(&r.to_string()));
        }
        // Not counted: wait for the map, then wake the language servers the questions use.
        let mut setup = vec![json!({"tool": "map_rebuild", "args": {}})];
        setup.extend(corpus["warm"].as_array().cloned().unwrap_or_default());
        for w in &setup {
            if let Err(e) = server.call(w["tool"].as_str().unwrap_or(""), &w["args"]) {
                println!("  setup {w}: {e}");
            }
        }
        println!(
            "\n## {name} ({}; ready in {:.1} s)",
            corpus["about"].as_str().unwrap_or(""),
            started.elapsed().as_secs_f64()
        );
        println!(
            "{:<22} {:<13} {:>7} {:>6} {:>7}  answer",
            "question", "kind", "navmap", "calls", "grep"
        );
        for q in qs {
            let id = q["id"].as_str().unwrap_or("").to_string();
            let mut out = Outcome {
                id: id.clone(),
                kind: q["kind"].as_str().unwrap_or("").into(),
                navmap: 0,
                calls: 0,
                baseline: 0,
                right: true,
                problems: vec![],
            };
            for call in q["calls"].as_array().into_iter().flatten() {
                let tool = call["tool"].as_str().unwrap_or("");
                match server.call(tool, &call["args"]) {
                    Ok(text) => {
                        out.navmap += tokens(&text);
                        out.calls += 1;
                        if o.show {
                            println!("  {tool} {} → {text}", call["args"]);
                        }
                        out.problems.extend(
                            check(&text, call)
                                .into_iter()
                                .map(|p| format!("{tool}: {p}")),
                        );
                    }
                    Err(e) => out.problems.push(e),
                }
            }
            let mut b = Baseline {
                root: &root,
                hits: vec![],
                chars: 0,
            };
            for s in q["baseline"].as_array().into_iter().flatten() {
                if let Err(e) = b.step(s) {
                    out.problems.push(e);
                }
            }
            out.baseline = b.chars.div_ceil(4);
            out.right = out.problems.is_empty();
            println!(
                "{:<22} {:<13} {:>7} {:>6} {:>7}  {} ({:.1}×){}",
                out.id,
                out.kind,
                out.navmap,
                out.calls,
                out.baseline,
                if out.right { "right" } else { "WRONG" },
                ratio(&out),
                if out.problems.is_empty() {
                    String::new()
                } else {
                    format!(" — {}", out.problems.join("; "))
                }
            );
            outcomes.push(out);
        }
        drop(server);
    }
    summary(&outcomes, tools_list);
}

fn ratio(o: &Outcome) -> f64 {
    if o.navmap == 0 {
        return 0.0;
    }
    o.baseline as f64 / o.navmap as f64
}

fn summary(outcomes: &[Outcome], tools_list: Option<usize>) {
    let mut kinds: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for o in outcomes {
        kinds.entry(o.kind.as_str()).or_default().push(ratio(o));
    }
    println!("\n## Summary (ratio = grep+read tokens / navmap tokens)");
    println!("{:<16} {:>3} {:>8}", "kind", "n", "median");
    let mut lowest = f64::INFINITY;
    for (k, v) in &kinds {
        let m = median(v.clone());
        lowest = lowest.min(m);
        println!("{k:<16} {:>3} {m:>7.2}×", v.len());
    }
    let overall = median(outcomes.iter().map(ratio).collect());
    let right = outcomes.iter().filter(|o| o.right).count();
    let navmap: usize = outcomes.iter().map(|o| o.navmap).sum();
    let grep: usize = outcomes.iter().map(|o| o.baseline).sum();
    println!(
        "overall: {} questions, median ratio {overall:.2}×, lowest kind median {lowest:.2}×, \
         {right}/{} answers right; total tokens navmap {navmap}, grep+read {grep}",
        outcomes.len(),
        outcomes.len()
    );
    match tools_list {
        Some(t) => println!("tools/list: {t} tokens"),
        None => println!("tools/list: not measured"),
    }
    for o in outcomes.iter().filter(|o| !o.right) {
        println!("wrong: {} — {}", o.id, o.problems.join("; "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_match_whole() {
        assert!(has_number(r#"{"line":27}"#, 27));
        assert!(has_number("a.b:27", 27));
        assert!(!has_number(r#"{"line":127}"#, 27));
        assert!(!has_number(r#"{"line":270}"#, 27));
    }

    #[test]
    fn a_wrong_answer_shows_as_wrong() {
        let call = json!({"expect": ["SessionStore.get", 18], "reject": ["api.py"]});
        let right = r#"{"ok":true,"data":{"calls":[{"id":"x#SessionStore.get","line":18}]}}"#;
        assert!(check(right, &call).is_empty());
        let extra = r#"{"ok":true,"data":{"calls":["x#SessionStore.get:18","api.py"]}}"#;
        assert_eq!(check(extra, &call), vec![r#"wrongly claims "api.py""#]);
        let missing = r#"{"ok":true,"data":{"calls":["x#SessionStore.get:19"]}}"#;
        assert_eq!(check(missing, &call), vec!["missing 18"]);
        // The expected words in an error or outside data do not count.
        let error = r#"{"ok":false,"error":{"message":"SessionStore.get 18"}}"#;
        assert_eq!(check(error, &call).len(), 1);
        let any = json!({"expect": [["Module", "module"]]});
        assert!(check(r#"{"ok":true,"data":"a module"}"#, &any).is_empty());
    }

    #[test]
    fn windows_are_whole_short_files_or_two_hundred_lines() {
        let dir = tempfile::tempdir().unwrap();
        let short = dir.path().join("short");
        std::fs::write(&short, "a\nb\n").unwrap();
        assert_eq!(read_window(&short, 1).unwrap(), (4, 1, 3));
        let long = dir.path().join("long");
        std::fs::write(&long, "x\n".repeat(1000)).unwrap();
        assert_eq!(read_window(&long, 500).unwrap(), (400, 400, 600));
        assert_eq!(read_window(&long, 3).unwrap(), (400, 1, 201));
        assert_eq!(read_window(&long, 999).unwrap(), (400, 801, 1001));
    }
}
