//! `navmap-bench`: how fast the map builds, rebuilds and answers, on real code.
//!
//! Each corpus is first **copied** into a temporary directory (so the one-file-change
//! measurement never touches the original, and the map database lives with the copy),
//! then: a cold build (wall time, LOC/s, files/s, peak RSS), reopening the map from SQLite,
//! no-op rebuilds, one-file-change rebuilds, and `search` / `neighbors` latency (p50, p95,
//! max over a few hundred queries drawn from the map itself: exact names, prefixes and
//! one-letter typos). All in-process: the MCP round trip is not included.
//!
//! ```text
//! cargo build --release -p navmap-bench
//! target/release/navmap-bench --corpus <dir>... [--exclude <dir name>]... [--max-loc <n>] [--langs <id,…>]
//! target/release/navmap-bench --generate <files> --lang <id> [--blocks <n>]
//! target/release/navmap-bench --preset <name>...   # presets.toml: five, jvm, native, script, new, …
//! target/release/navmap-bench --list-presets
//! target/release/navmap-bench tokens [--only <id part>] [--show]   # see tokens.rs
//! target/release/navmap-bench accuracy [--only <corpus>] [--targets <n>] [--show]   # accuracy.rs
//! ```
//! Peak RSS is the process's high-water mark (`VmHWM`), reset before each corpus.
//! With `--navmap <binary>` (default: a `navmap` next to this binary, if built), the same
//! queries also go through `navmap serve` over MCP stdio, timed from request to answer.
//! Presets (where each corpus comes from, which languages it keeps) are data in
//! `presets.toml`, compiled in; language ids stay out of this file (see the guard test).
//! Must not touch: anything outside the temporary copy (the corpus is only read; a
//! zipped corpus is unpacked with `unzip` inside the temp dir).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use navmap_map::{Direction, Map, MapConfig, NodeKind, RebuildOptions};

mod accuracy;
mod inactive;
mod process;
mod tokens;
mod typeshed;

/// Where a corpus comes from.
enum Source {
    /// Directories copied as they are (several: each into its own folder).
    Dirs(Vec<PathBuf>),
    /// An archive unpacked with `unzip` (only `members`, if any).
    Zip {
        archive: PathBuf,
        members: Vec<String>,
    },
    /// Synthetic modules from `templates/<lang>.tmpl`.
    Generate { files: usize, lang: String },
}

struct Opts {
    source: Source,
    /// A subdirectory of the source that is the corpus.
    root: Option<String>,
    exclude: Vec<String>,
    /// Copy only files of these languages (empty: every language the registry maps).
    langs: Vec<String>,
    max_loc: Option<u64>,
    blocks: usize,
    queries: usize,
    label: String,
    navmap: Option<PathBuf>,
    /// Also measure BlastCode's process (`process.rs`); `--no-peer` turns it off.
    peer: bool,
    /// Copy only these top-level directories (a preset's `pinned_by`), else all.
    only: Option<BTreeSet<String>>,
}

fn usage() -> ! {
    eprintln!(
        "usage: navmap-bench --corpus <dir>... [--exclude <name>]... [--max-loc <n>] [--langs <id,…>] [--queries <n>]\n\
         \x20      navmap-bench --generate <files> --lang <id> [--blocks <n>]\n\
         \x20      navmap-bench --preset <name>... [--queries <n>] [--no-mcp] [--no-peer]   (--list-presets)\n\
         \x20      navmap-bench tokens [--only <question id part>] [--show]\n\
         \x20      navmap-bench accuracy [--only <corpus part>] [--targets <n>] [--show]"
    );
    std::process::exit(2)
}

const PRESETS: &str = include_str!("../presets.toml");

fn presets() -> toml::Table {
    PRESETS.parse().expect("presets.toml parses")
}

fn list_presets() {
    for (name, p) in presets() {
        let about = p.get("about").and_then(|v| v.as_str()).unwrap_or("");
        println!("{name:18} {about}");
    }
}

/// The command line's runs: one per corpus (a preset group gives several). A preset whose
/// corpus is not on this machine is reported and left out.
fn parse() -> Vec<Opts> {
    let mut args = std::env::args().skip(1);
    let mut dirs: Vec<PathBuf> = vec![];
    let mut generate: Option<usize> = None;
    let mut lang: Option<String> = None;
    let mut o = Opts {
        source: Source::Dirs(vec![]),
        root: None,
        exclude: vec![],
        langs: vec![],
        max_loc: None,
        blocks: 8,
        queries: 300,
        label: String::new(),
        navmap: default_navmap(),
        peer: true,
        only: None,
    };
    let mut names = vec![];
    while let Some(a) = args.next() {
        let mut val = || args.next().unwrap_or_else(|| usage());
        match a.as_str() {
            "--corpus" => dirs.push(val().into()),
            "--exclude" => o.exclude.push(val()),
            "--langs" => o.langs.extend(val().split(',').map(str::to_string)),
            "--max-loc" => o.max_loc = Some(val().parse().unwrap_or_else(|_| usage())),
            "--generate" => generate = Some(val().parse().unwrap_or_else(|_| usage())),
            "--lang" => lang = Some(val()),
            "--blocks" => o.blocks = val().parse().unwrap_or_else(|_| usage()),
            "--queries" => o.queries = val().parse().unwrap_or_else(|_| usage()),
            "--preset" => names.push(val()),
            "--navmap" => o.navmap = Some(val().into()),
            "--no-mcp" => o.navmap = None,
            "--no-peer" => o.peer = false,
            "--list-presets" => {
                list_presets();
                std::process::exit(0)
            }
            _ => usage(),
        }
    }
    if names.is_empty() {
        o.source = match (generate, lang) {
            _ if !dirs.is_empty() => {
                o.label = dirs
                    .iter()
                    .map(|d| d.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" + ");
                Source::Dirs(dirs)
            }
            (Some(files), Some(lang)) => {
                o.label = format!("generated ({lang})");
                Source::Generate { files, lang }
            }
            _ => usage(),
        };
        return vec![o];
    }
    let table = presets();
    let mut out = vec![];
    for name in names {
        expand(&table, &name, &o, &mut out);
    }
    out
}

fn strings(v: Option<&toml::Value>) -> Vec<String> {
    v.and_then(|v| v.as_array())
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// One preset (or a group of them) as runs; `cli` carries `--queries` and the MCP binary.
fn expand(table: &toml::Table, name: &str, cli: &Opts, out: &mut Vec<Opts>) {
    let Some(p) = table.get(name).and_then(|p| p.as_table()) else {
        eprintln!("unknown preset {name} (see --list-presets)");
        usage()
    };
    if let Some(group) = p.get("group") {
        for member in strings(Some(group)) {
            expand(table, &member, cli, out);
        }
        return;
    }
    match preset_source(p) {
        Ok(source) => out.push(Opts {
            source,
            root: p.get("root").and_then(|v| v.as_str()).map(str::to_string),
            exclude: strings(p.get("exclude")),
            langs: strings(p.get("langs")),
            max_loc: p
                .get("max_loc")
                .and_then(|v| v.as_integer())
                .map(|n| n as u64),
            blocks: p
                .get("blocks")
                .and_then(|v| v.as_integer())
                .map_or(cli.blocks, |n| n as usize),
            queries: cli.queries,
            label: name.to_string(),
            navmap: cli.navmap.clone(),
            peer: cli.peer,
            only: p
                .get("pinned_by")
                .and_then(|v| v.as_str())
                .map(pinned_directories),
        }),
        Err(why) => println!("## {name}\nnot run: {why}\n"),
    }
}

fn preset_source(p: &toml::Table) -> Result<Source, String> {
    if let Some(files) = p.get("generate").and_then(|v| v.as_integer()) {
        let lang = p
            .get("lang")
            .and_then(|v| v.as_str())
            .ok_or("a generated preset names its lang")?;
        return Ok(Source::Generate {
            files: files as usize,
            lang: lang.to_string(),
        });
    }
    if let Some(cmd) = p.get("command") {
        let cmd = strings(Some(cmd));
        let out = std::process::Command::new(&cmd[0])
            .args(&cmd[1..])
            .output()
            .map_err(|e| format!("{}: {e}", cmd[0]))?;
        let dir = String::from_utf8_lossy(&out.stdout)
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        if dir.is_empty() || !Path::new(&dir).is_dir() {
            return Err(format!("{cmd:?} printed no directory"));
        }
        return Ok(Source::Dirs(vec![dir.into()]));
    }
    if let Some(zips) = p.get("zip") {
        let archive = strings(Some(zips))
            .iter()
            .flat_map(|z| glob(z))
            .find(|z| z.is_file())
            .ok_or_else(|| format!("none of {zips} exists"))?;
        return Ok(Source::Zip {
            archive,
            members: strings(p.get("members")),
        });
    }
    let dirs: Vec<PathBuf> = strings(p.get("dirs"))
        .iter()
        .flat_map(|d| glob(d))
        .filter(|d| d.is_dir())
        .collect();
    if dirs.is_empty() {
        return Err(format!("none of {:?} exists", p.get("dirs")));
    }
    Ok(Source::Dirs(dirs))
}

/// The paths matching `pattern`, where `*` in a component matches any name (sorted).
fn glob(pattern: &str) -> Vec<PathBuf> {
    let mut found = vec![PathBuf::from("/")];
    for comp in Path::new(pattern).components().skip(1) {
        let comp = comp.as_os_str().to_string_lossy();
        let Some((pre, post)) = comp.split_once('*') else {
            found = found.into_iter().map(|p| p.join(&*comp)).collect();
            continue;
        };
        let mut next = vec![];
        for dir in found {
            let mut names: Vec<String> = std::fs::read_dir(&dir)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.file_name().to_string_lossy().to_string())
                .filter(|n| {
                    n.len() >= pre.len() + post.len() && n.starts_with(pre) && n.ends_with(post)
                })
                .collect();
            names.sort();
            next.extend(names.into_iter().map(|n| dir.join(n)));
        }
        found = next;
    }
    found
}

fn default_navmap() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let p = exe.with_file_name("navmap");
    p.exists().then_some(p)
}

fn template_path(lang: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("templates")
        .join(format!("{lang}.tmpl"))
}

// ---- corpora -------------------------------------------------------------------------

/// Copies files of known languages (only `langs`, if any; nothing through symlinks) from
/// `from` to `to`, whole top-level directories in sorted order, until `max_loc` lines
/// (counting from `loc`, the lines copied before from other sources).
fn copy_corpus(from: &Path, to: &Path, o: &Opts, mut loc: u64) -> (u64, u64) {
    let registry = navmap_grammars::registry();
    let mut files = vec![];
    collect(from, from, &o.exclude, &o.langs, &registry, &mut files);
    files.sort();
    let mut count = 0u64;
    let mut last_top: Option<String> = None;
    for rel in files {
        let top = rel.split('/').next().unwrap_or("").to_string();
        if o.only.as_ref().is_some_and(|only| !only.contains(&top)) {
            continue;
        }
        if let Some(max) = o.max_loc
            && loc >= max
            && last_top.as_deref() != Some(top.as_str())
        {
            break;
        }
        last_top = Some(top);
        let src = from.join(&rel);
        let dst = to.join(&rel);
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        if let Ok(bytes) = std::fs::read(&src) {
            loc += bytes.iter().filter(|b| **b == b'\n').count() as u64;
            std::fs::write(&dst, bytes).unwrap();
            count += 1;
        }
    }
    (count, loc)
}

/// The registry directories (`<name>-<version>`) of the packages the workspace's lock
/// file `lock` (e.g. `Cargo.lock`) pins: the cargo-registry preset copies only these, so
/// its corpus is the same on every machine that built navmap, whatever else (BlastCode's
/// own dependencies, other projects) the registry holds.
fn pinned_directories(lock: &str) -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(lock);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let table: toml::Table = text
        .parse()
        .unwrap_or_else(|e| panic!("parsing {}: {e}", path.display()));
    table
        .get("package")
        .and_then(|p| p.as_array())
        .into_iter()
        .flatten()
        .filter_map(|p| p.as_table())
        .filter(|p| {
            p.get("source")
                .and_then(|s| s.as_str())
                .is_some_and(|s| s.starts_with("registry+"))
        })
        .filter_map(|p| {
            let name = p.get("name")?.as_str()?;
            let version = p.get("version")?.as_str()?;
            Some(format!("{name}-{version}"))
        })
        .collect()
}

/// Copies the run's source into `to` (a zip is unpacked next to it first, in `tmp`).
fn copy_source(o: &Opts, tmp: &Path, to: &Path) -> (u64, u64) {
    let within = |d: &Path| match &o.root {
        Some(r) => d.join(r),
        None => d.to_path_buf(),
    };
    match &o.source {
        Source::Generate { files, lang } => generate(to, lang, *files, o.blocks),
        Source::Dirs(dirs) if dirs.len() == 1 => copy_corpus(&within(&dirs[0]), to, o, 0),
        Source::Dirs(dirs) => {
            let (mut count, mut loc) = (0, 0);
            for (k, d) in dirs.iter().enumerate() {
                if o.max_loc.is_some_and(|m| loc >= m) {
                    break;
                }
                let name = d.file_name().map_or_else(
                    || format!("{k}"),
                    |n| format!("{k}-{}", n.to_string_lossy()),
                );
                let (c, l) = copy_corpus(&within(d), &to.join(name), o, loc);
                count += c;
                loc = l;
            }
            (count, loc)
        }
        Source::Zip { archive, members } => {
            let unpacked = tmp.join("unpacked");
            let status = std::process::Command::new("unzip")
                .args(["-q", "-o"])
                .arg(archive)
                .args(members)
                .arg("-d")
                .arg(&unpacked)
                .status()
                .expect("unzip on PATH");
            assert!(status.success(), "unzip {} failed", archive.display());
            let copied = copy_corpus(&within(&unpacked), to, o, 0);
            let _ = std::fs::remove_dir_all(&unpacked);
            copied
        }
    }
}

fn collect(
    root: &Path,
    dir: &Path,
    exclude: &[String],
    langs: &[String],
    reg: &navmap_language::Registry,
    out: &mut Vec<String>,
) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let Ok(ft) = e.file_type() else { continue };
        let name = e.file_name().to_string_lossy().to_string();
        if ft.is_symlink() || exclude.contains(&name) {
            continue;
        }
        let p = e.path();
        if ft.is_dir() {
            collect(root, &p, exclude, langs, reg, out);
        } else if let Ok(rel) = p.strip_prefix(root) {
            let rel = rel.to_string_lossy().replace('\\', "/");
            let known = reg
                .for_path(&rel)
                .is_some_and(|l| langs.is_empty() || langs.iter().any(|id| id == l.id()));
            if known || is_config(&name) {
                out.push(rel);
            }
        }
    }
}

fn is_config(name: &str) -> bool {
    matches!(
        name,
        "Cargo.toml" | "go.mod" | "tsconfig.json" | "package.json" | "pyproject.toml"
    )
}

/// A synthetic repository: `files` modules from the language's template.
fn generate(to: &Path, lang: &str, files: usize, blocks: usize) -> (u64, u64) {
    let registry = navmap_grammars::registry();
    let ext = registry
        .by_id(lang)
        .map(|l| l.manifest.extensions[0].clone())
        .unwrap_or_else(|| panic!("unknown language {lang}"));
    let text = std::fs::read_to_string(template_path(lang))
        .unwrap_or_else(|e| panic!("no template for {lang}: {e}"));
    let mut sections: std::collections::BTreeMap<String, String> = Default::default();
    let mut dirfiles = vec![];
    let mut current = String::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("@@") {
            let mut parts = rest.splitn(2, ' ');
            let key = parts.next().unwrap_or("").to_string();
            if key == "dirfile" {
                dirfiles.push(parts.next().unwrap_or("").to_string());
                continue;
            }
            current = key;
            continue;
        }
        let s = sections.entry(current.clone()).or_default();
        s.push_str(line);
        s.push('\n');
    }
    let per_dir = 50;
    let fill = |t: &str, i: usize, j: usize, b: usize| {
        t.replace("{i}", &i.to_string())
            .replace("{j}", &j.to_string())
            .replace("{di}", &(i / per_dir).to_string())
            .replace("{dj}", &(j / per_dir).to_string())
            .replace("{b}", &b.to_string())
    };
    let mut loc = 0u64;
    for i in 0..files {
        let j = (i * 7 + 3) % files;
        let mut body = fill(
            sections.get("header").map(String::as_str).unwrap_or(""),
            i,
            j,
            0,
        );
        for b in 0..blocks {
            body.push_str(&fill(
                sections.get("block").map(String::as_str).unwrap_or(""),
                i,
                j,
                b,
            ));
        }
        body.push_str(&fill(
            sections.get("footer").map(String::as_str).unwrap_or(""),
            i,
            j,
            0,
        ));
        let dir = to.join("gen").join(format!("d{}", i / per_dir));
        std::fs::create_dir_all(&dir).unwrap();
        for f in &dirfiles {
            std::fs::write(dir.join(f), "").unwrap();
            std::fs::write(to.join("gen").join(f), "").unwrap();
        }
        loc += body.lines().count() as u64;
        std::fs::write(dir.join(format!("m{i}.{ext}")), body).unwrap();
    }
    (files as u64, loc)
}

// ---- measuring -----------------------------------------------------------------------

fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map(|kb| kb / 1024.0)
        .unwrap_or(f64::NAN)
}

fn reset_peak_rss() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn percentiles(mut v: Vec<f64>) -> (f64, f64, f64) {
    if v.is_empty() {
        return (f64::NAN, f64::NAN, f64::NAN);
    }
    v.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize];
    (at(0.5), at(0.95), *v.last().unwrap())
}

/// A tiny deterministic generator (no dependency, same sample every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn typo(name: &str) -> String {
    let mut c: Vec<char> = name.chars().collect();
    if c.len() >= 4 {
        let i = c.len() / 2;
        c.swap(i - 1, i);
    }
    c.into_iter().collect()
}

fn run(o: &Opts) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path().join("repo");
    std::fs::create_dir_all(&root).unwrap();
    let started = Instant::now();
    let (copied, copied_loc) = copy_source(o, tmp.path(), &root);
    println!("## {}", o.label);
    println!(
        "corpus: {copied} files, {copied_loc} lines copied to a temp dir in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // Files written in the last 2 s are re-hashed by every rebuild until they age (a
    // same-tick write could otherwise be missed): let the fresh copy age first, as a
    // checkout would have.
    std::thread::sleep(Duration::from_millis(2100));
    let registry = Arc::new(navmap_grammars::registry());
    let db = tmp.path().join("map.db");
    let mut config = MapConfig::new(&root);
    config.db_path = Some(db.clone());

    reset_peak_rss();
    let rss_before = peak_rss_mb();
    let t = Instant::now();
    let (map, _) = Map::open(config.clone(), registry.clone()).expect("open");
    let cold = map
        .rebuild(RebuildOptions::default(), &|_| {})
        .expect("cold build");
    let cold_wall = t.elapsed();
    let peak = peak_rss_mb();
    let st = map.status().unwrap();
    let now_rss = std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map(|kb| kb / 1024.0)
        .unwrap_or(f64::NAN);
    let secs = cold_wall.as_secs_f64();
    println!(
        "cold build: {:.2} s wall · {} files ({} skipped) · {} lines · {:.0} LOC/s · {:.0} files/s · {} symbols · {} edges · peak RSS {:.0} MB (before: {:.0} MB, after: {:.0} MB) · db {:.1} MB",
        secs,
        cold.files,
        cold.files_skipped.values().sum::<u64>(),
        st.lines,
        st.lines as f64 / secs,
        cold.files as f64 / secs,
        cold.symbols,
        cold.edges,
        peak,
        rss_before,
        now_rss,
        std::fs::metadata(&db)
            .map(|m| m.len() as f64 / 1e6)
            .unwrap_or(0.0)
            + std::fs::metadata(db.with_extension("db-wal"))
                .map(|m| m.len() as f64 / 1e6)
                .unwrap_or(0.0),
    );
    let conf: Vec<String> = st
        .edges_by_confidence
        .iter()
        .map(|(c, n)| format!("{} {n}", c.as_str()))
        .collect();
    println!("edges by confidence: {}", conf.join(" · "));
    drop(map);

    let t = Instant::now();
    let (map, _) = Map::open(config, registry).expect("reopen");
    println!(
        "reopen (load from SQLite, rank, cluster, index): {:.0} ms",
        ms(t.elapsed())
    );

    let mut noop = vec![];
    for _ in 0..5 {
        let t = Instant::now();
        let s = map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        assert_eq!(s.files_indexed, 0);
        noop.push(ms(t.elapsed()));
    }
    let (p50, _, max) = percentiles(noop);
    println!(
        "no-op rebuild: median {p50:.1} ms, max {max:.1} ms ({} files)",
        cold.files
    );

    // One-file changes: append a newline to five different files.
    let files = map.files().unwrap();
    let mut rng = Lcg(42);
    let mut one = vec![];
    let mut resolved = vec![];
    let mut widest: Option<(String, u64)> = None;
    for _ in 0..5 {
        let f = &files[rng.below(files.len())];
        let p = root.join(f);
        let mut text = std::fs::read(&p).unwrap();
        text.push(b'\n');
        std::fs::write(&p, text).unwrap();
        let t = Instant::now();
        let s = map.rebuild(RebuildOptions::default(), &|_| {}).unwrap();
        one.push(ms(t.elapsed()));
        resolved.push(s.files_resolved);
        assert_eq!(s.files_indexed, 1, "{f}");
        if s.files_resolved > 1 && widest.as_ref().is_none_or(|(_, n)| s.files_resolved > *n) {
            widest = Some((f.clone(), s.files_resolved));
        }
    }
    let (p50, _, max) = percentiles(one);
    println!(
        "one-file rebuild: median {p50:.1} ms, max {max:.1} ms (files re-resolved: {resolved:?})"
    );
    // Which edit re-resolved the most other files: where to look when one-file is slow.
    if let Some((f, n)) = widest {
        println!("  widest one-file change: {f} (re-resolved {n} files)");
    }

    // Queries drawn from the map.
    let mut names = vec![];
    let mut ids = vec![];
    let mut guard = 0;
    while names.len() < o.queries && guard < o.queries * 20 {
        guard += 1;
        let f = &files[rng.below(files.len())];
        let nodes = map.nodes_in_file(f).unwrap();
        let defs: Vec<_> = nodes.iter().filter(|n| n.kind != NodeKind::File).collect();
        if defs.is_empty() {
            continue;
        }
        let n = defs[rng.below(defs.len())];
        if n.name.chars().count() >= 3 {
            names.push(n.name.clone());
            ids.push(n.id.clone());
        }
    }
    let mut queries = vec![];
    for (k, n) in names.iter().enumerate() {
        queries.push(match k % 3 {
            0 => n.clone(),
            1 => n.chars().take((n.chars().count() * 3 / 5).max(3)).collect(),
            _ => typo(n),
        });
    }
    let mut lat = vec![];
    let mut hits = 0usize;
    for q in &queries {
        let t = Instant::now();
        let r = map.search(q, None, 20).unwrap();
        lat.push(ms(t.elapsed()));
        hits += (!r.results.is_empty()) as usize;
    }
    let (p50, p95, max) = percentiles(lat);
    println!(
        "search: p50 {p50:.2} ms, p95 {p95:.2} ms, max {max:.2} ms over {} queries (exact/prefix/typo; {hits} with hits)",
        queries.len()
    );
    for depth in [1u32, 2] {
        let mut lat = vec![];
        for id in &ids {
            let t = Instant::now();
            let _ = map.neighbors(id, Direction::Both, None, depth, 50).unwrap();
            lat.push(ms(t.elapsed()));
        }
        let (p50, p95, max) = percentiles(lat);
        println!(
            "neighbors depth {depth}: p50 {p50:.2} ms, p95 {p95:.2} ms, max {max:.2} ms over {} nodes",
            ids.len()
        );
    }
    if let Some(bin) = &o.navmap {
        drop(map);
        mcp_latency(bin, &root, &db, &queries, &ids);
        // The process figures, for navmap and (unless `--no-peer`) BlastCode, interleaved.
        let mut programs = vec![process::Program::navmap(bin)];
        if o.peer {
            programs.extend(process::blastcode());
        }
        let dbs: Vec<PathBuf> = programs
            .iter()
            .map(|p| process::db_beside(&db, p))
            .collect();
        process::cli_rebuilds(&programs, &root, &dbs, &files);
        process::initialize(&programs, &root, &dbs);
        process::serve_after_queries(&programs, &root, &dbs, &queries, &names, &ids);
        process::cli_cold_and_full(&programs, &root, &dbs);
    }
    println!();
}

/// `map_search` and `map_neighbors` through `navmap serve` over stdio, JSON-RPC by hand.
fn mcp_latency(bin: &Path, root: &Path, db: &Path, queries: &[String], ids: &[String]) {
    use std::io::BufReader;
    use std::process::{Command, Stdio};
    let mut child = match Command::new(bin)
        .args(["serve", "--no-build", "--root"])
        .arg(root)
        .arg("--db")
        .arg(db)
        .env_remove("NAVMAP_TOKEN_BUDGET")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            println!("MCP: cannot start {}: {e}", bin.display());
            return;
        }
    };
    let mut conn = process::Conn {
        stdin: child.stdin.take().expect("stdin"),
        stdout: BufReader::new(child.stdout.take().expect("stdout")),
        id: 0,
    };
    let init = serde_json::json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "navmap-bench", "version": "0"}});
    if conn.request("initialize", init).is_none() {
        println!("MCP: initialize failed");
        return;
    }
    conn.notify("notifications/initialized");
    let mut request = |m: &str, p: serde_json::Value| conn.request(m, p);
    // The server loads the map from SQLite on start; wait until it answers.
    for _ in 0..100 {
        if let Some((v, _)) = request(
            "tools/call",
            serde_json::json!({"name": "map_status", "arguments": {}}),
        ) {
            let text = v["result"]["content"][0]["text"].as_str().unwrap_or("");
            if text.contains("\"built\":true") {
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut search = vec![];
    for q in queries {
        if let Some((_, t)) = request(
            "tools/call",
            serde_json::json!({"name": "map_search", "arguments": {"query": q}}),
        ) {
            search.push(t);
        }
    }
    let mut neighbors = vec![];
    for n in ids {
        if let Some((_, t)) = request(
            "tools/call",
            serde_json::json!({"name": "map_neighbors", "arguments": {"nodeId": n}}),
        ) {
            neighbors.push(t);
        }
    }
    let (p50, p95, max) = percentiles(search);
    println!("MCP stdio map_search: p50 {p50:.2} ms, p95 {p95:.2} ms, max {max:.2} ms");
    let (p50, p95, max) = percentiles(neighbors);
    println!(
        "MCP stdio map_neighbors (depth 1): p50 {p50:.2} ms, p95 {p95:.2} ms, max {max:.2} ms"
    );
    drop(conn);
    let _ = child.wait();
}

fn main() {
    // NAVMAP_LOG=navmap_map=debug shows the build's phases on stderr.
    if let Ok(filter) = tracing_subscriber::EnvFilter::try_from_env("NAVMAP_LOG") {
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_env_filter(filter)
            .init();
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "tokens") {
        tokens::main(&args[1..]);
        return;
    }
    if args.first().is_some_and(|a| a == "accuracy") {
        accuracy::main(&args[1..]);
        return;
    }
    for o in parse() {
        run(&o);
    }
}
