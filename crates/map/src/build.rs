//! Rebuilds: scan → read/hash/extract in parallel → apply → resolve → persist → rank.
//!
//! Two modes share the same steps:
//! - *fresh* (no map yet, or `full` over the whole root): a private model is filled while
//!   files stream out of the extraction workers (memory stays bounded: facts are dropped
//!   once applied), written to SQLite in large transactions, then swapped in whole —
//!   queries keep answering from the previous map meanwhile;
//! - *incremental*: changed files are extracted first, then applied to the live model
//!   under its write lock, with one SQLite transaction for the whole change.

use std::collections::{BTreeMap, BTreeSet};

use foldhash::HashSet;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc::sync_channel;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use navmap_extract::ImportTarget;
use navmap_extract::facts::FileFacts;
use navmap_language::Language;
use rayon::prelude::*;

use crate::apply::{self, Changes, Content, FileUpdate};
use crate::db::{self, Db, Meta};
use crate::error::{MapError, Result};
use crate::frontend::ModuleResolver;
use crate::id;
use crate::index;
use crate::model::{Ix, Model, Node, Opt32, Target};
use crate::packed::Refs;
use crate::resolve::{self, NewEdge, Pass, Resolver};
use crate::types::{Phase, Progress, RebuildOptions, RebuildSummary, SkipReason};
use crate::walk::{self, Scope, Seen};
use crate::{Inner, NodeKind, State};

/// Files per SQLite transaction in a fresh build: small enough that writing overlaps
/// with extraction instead of trailing it.
const FILES_PER_TRANSACTION: usize = 256;
/// Files applied between two folds of the model's list overlays in a fresh build
/// ([`Model::freeze_lists`]).
const FILES_PER_FREEZE: usize = 64;
/// Files whose uses a fresh build's Uses pass reads back and resolves at once
/// ([`LeftUses`]): the largest files come first, and 64 of them are a small part of all.
const FILES_PER_USES_BATCH: usize = 64;
/// A file modified this recently is re-hashed on the next rebuild even when its size and
/// mtime look unchanged (a write within the same mtime tick would otherwise be missed).
const RACY_NS: i64 = 2_000_000_000;

/// The builder's own state, guarded by `Inner::builder`.
#[derive(Default)]
pub(crate) struct BuilderState {
    pub resolver: Option<Box<dyn ModuleResolver>>,
    /// Config files the resolver was built with (or will be).
    pub configs: BTreeSet<String>,
}

/// A fresh build's references and mentions, left in the database once their file's row is
/// written (`FileRec::uses_on_disk`) and read back a batch of files at a time for the Uses
/// pass ([`FILES_PER_USES_BATCH`]); the few references the Structure pass reads (imports,
/// exports, bases) are kept here meanwhile. Issue 19: every file's uses held from its
/// extraction to the end of resolution were ≈ 3.7 MB of the cargo registry's cold peak.
#[derive(Default)]
struct LeftUses {
    /// Each file's references of the Structure pass, in order.
    structural: Vec<(Ix, Refs)>,
}

impl LeftUses {
    /// Lets go of the uses of `files`, whose rows were just written with them.
    fn leave(&mut self, model: &mut Model, files: &[Ix]) {
        for &f in files {
            let Some(rec) = model.file(f) else { continue };
            if rec.node.is_none()
                || rec.uses_on_disk
                || rec.refs_raw.is_some()
                || rec.mentions_raw.is_some()
            {
                continue;
            }
            let structural: Refs = rec
                .refs
                .iter()
                .filter(|r| Pass::Structure.owns(r.kind))
                .collect();
            if structural.len() > 0 {
                self.structural.push((f, structural));
            }
            model.let_go_of_uses(f);
        }
    }
}

/// A file to read, with what the map knew about it.
struct Job {
    seen: Seen,
    known_hash: Option<[u8; 32]>,
    known_skipped: Option<SkipReason>,
}

enum Outcome {
    Update(FileUpdate),
    /// Same content, new size/mtime.
    Touch {
        path: String,
        size: u64,
        mtime: i64,
    },
    /// Could not be read (vanished, permissions): left as it was.
    Unreadable,
}

/// The process's resident and peak resident memory (`VmRSS`, `VmHWM`) in MB, as
/// "rss/peak", for the phase timings at debug level; empty where `/proc` has none.
pub(crate) fn memory_mb() -> String {
    if !tracing::enabled!(tracing::Level::DEBUG) {
        return String::new();
    }
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .map(|k| format!("{:.1}", k / 1024.0))
            .unwrap_or_default()
    };
    format!("{}/{}", kb("VmRSS:"), kb("VmHWM:"))
}

/// Drops the resident pages of the program's own code and read-only data between the
/// phases of a fresh build ([`navmap_extract::release_code_pages`]): each phase then holds
/// only the code it runs, not every page the phases before it faulted in (issue 19: on the
/// cargo registry 17 MB of a cold build's 48–51 MB peak were the binary's pages).
fn release_code(at: &'static str) {
    let t = Instant::now();
    let advised = navmap_extract::release_code_pages();
    tracing::trace!(
        at,
        advised,
        us = t.elapsed().as_micros() as u64,
        "code pages released"
    );
}

fn now_ns() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos() as i64)
        .unwrap_or(0)
}

fn read_one(
    job: &Job,
    max_bytes: u64,
    full: bool,
    frontend: &dyn crate::frontend::Frontend,
    now: i64,
) -> Outcome {
    let s = &job.seen;
    let mtime = if now - s.mtime < RACY_NS { 0 } else { s.mtime };
    let update = |hash, content| {
        Outcome::Update(FileUpdate {
            path: s.path.clone(),
            lang: s.lang.id().to_string(),
            size: s.size,
            mtime,
            hash,
            content,
        })
    };
    if s.size > max_bytes {
        if job.known_skipped == Some(SkipReason::TooLarge) && !full {
            return Outcome::Touch {
                path: s.path.clone(),
                size: s.size,
                mtime,
            };
        }
        return update([0; 32], Content::Skipped(SkipReason::TooLarge));
    }
    let Ok(bytes) = std::fs::read(&s.abs) else {
        return Outcome::Unreadable;
    };
    let hash = *blake3::hash(&bytes).as_bytes();
    if !full && job.known_hash == Some(hash) {
        return Outcome::Touch {
            path: s.path.clone(),
            size: bytes.len() as u64,
            mtime,
        };
    }
    if let Some(why) = SkipReason::of(bytes.len() as u64, Some(&bytes), max_bytes) {
        return update(hash, Content::Skipped(why));
    }
    let Ok(text) = std::str::from_utf8(&bytes) else {
        return update(hash, Content::Skipped(SkipReason::InvalidUtf8));
    };
    let facts = extract_guarded(frontend, &s.lang, text, &s.path);
    update(hash, Content::Facts(Box::new(facts)))
}

/// Extraction must never fail a build: a panic yields an empty, error-flagged file.
fn extract_guarded(
    frontend: &dyn crate::frontend::Frontend,
    lang: &Language,
    text: &str,
    path: &str,
) -> FileFacts {
    match std::panic::catch_unwind(AssertUnwindSafe(|| frontend.extract(lang, path, text))) {
        Ok(f) => f,
        Err(_) => {
            tracing::warn!(
                path,
                "extraction panicked; the file is indexed without symbols"
            );
            FileFacts {
                lang: lang.id().to_string(),
                had_errors: true,
                lines: text.lines().count() as u32,
                ..FileFacts::default()
            }
        }
    }
}

impl Inner {
    /// One rebuild (not single-flighted: see `Map::rebuild`).
    pub(crate) fn rebuild_once(
        &self,
        opts: &RebuildOptions,
        progress: &dyn Fn(Progress),
    ) -> Result<RebuildSummary> {
        let started = Instant::now();
        let scope = Scope::new(opts.paths.as_deref())?;
        let mut builder = self.builder.lock().map_err(MapError::internal)?;
        let _writer = self.wait_for_other_writers()?;
        progress(Progress {
            phase: Phase::Scanning,
            done: 0,
            total: 0,
        });
        // The walk the no-op check just made, for the first rebuild of everything (used
        // once: a later rebuild walks again).
        let prior = self
            .prior_walk
            .lock()
            .map_err(MapError::internal)?
            .take()
            .filter(|_| scope.is_all());
        let walked = match prior {
            Some(w) => Arc::unwrap_or_clone(w),
            None => walk::walk(&self.root, &self.registry, &scope, &|p| {
                self.frontend.is_config_file(p)
            }),
        };
        let seen = walked.files;
        tracing::debug!(
            ms = started.elapsed().as_secs_f64() * 1e3,
            files = seen.len(),
            "walk"
        );
        let files_scanned = seen.len() as u64;
        let rewritten_elsewhere =
            self.rewritten_elsewhere(&mut builder, opts.full && scope.is_all())?;
        // Config files: re-hashed when in scope, kept as they were outside it.
        let config: BTreeMap<String, String> = {
            let st = self.state.read().map_err(MapError::internal)?;
            let mut c: BTreeMap<String, String> = st
                .meta
                .config
                .iter()
                .filter(|(p, _)| !scope.contains(p))
                .map(|(p, h)| (p.clone(), h.clone()))
                .collect();
            c.extend(self.config_hashes(&walked.configs, &st.meta.config));
            c
        };
        builder.configs = config.keys().cloned().collect();

        let (fresh, dirty) = {
            let st = self.state.read().map_err(MapError::internal)?;
            let fresh = st.model.file_by_path.is_empty()
                || (opts.full && scope.is_all())
                || rewritten_elsewhere;
            (fresh, st.meta.dirty)
        };
        let mut summary = RebuildSummary {
            files_scanned,
            ..Default::default()
        };
        if fresh {
            self.fresh_build(&mut builder, seen, config, progress, &mut summary)?;
        } else {
            self.incremental(
                &mut builder,
                seen,
                config,
                &scope,
                opts.full,
                dirty,
                progress,
                &mut summary,
            )?;
        }
        let st = self.state.read().map_err(MapError::internal)?;
        summary.files_skipped = st.skipped_counts();
        summary.files = st.model.indexed_file_ixs().count() as u64;
        summary.symbols = st.model.symbol_count() as u64;
        summary.edges = st.model.edge_count() as u64;
        summary.generation = st.meta.generation;
        summary.duration_ms = started.elapsed().as_millis() as u64;
        Ok(summary)
    }

    /// Holds the map database against other processes' rebuilds for as long as the
    /// returned file lives, waiting for one that holds it now (a shell `navmap rebuild`
    /// beside `serve`, or the other way round). Without it two writers' rows could
    /// interleave in one database: a rebuild writes in several transactions, and
    /// `rewritten_elsewhere` only sees a build that is finished. An advisory `flock` on the
    /// database file itself (no file of its own; SQLite's own locks are `fcntl` locks,
    /// which `flock` does not touch on Linux). `None` for an in-memory map, and where the
    /// file system has no such locks (rebuilds then go on as before, unguarded).
    fn wait_for_other_writers(&self) -> Result<Option<std::fs::File>> {
        if db::is_in_memory(&self.db_path) {
            return Ok(None);
        }
        let file = std::fs::File::open(&self.db_path).map_err(|e| {
            MapError::Internal(format!(
                "opening the map database {} to lock it: {e}",
                self.db_path.display()
            ))
        })?;
        match file.try_lock() {
            Ok(()) => Ok(Some(file)),
            Err(std::fs::TryLockError::WouldBlock) => {
                tracing::info!("another process is rebuilding the map: waiting for it");
                file.lock().map_err(|e| {
                    MapError::Internal(format!("waiting for the map database's lock: {e}"))
                })?;
                Ok(Some(file))
            }
            Err(std::fs::TryLockError::Error(e)) => {
                tracing::warn!("the map database cannot be locked ({e}): rebuilding unguarded");
                Ok(None)
            }
        }
    }

    /// Whether the rebuild must start from scratch because another process rebuilt the map
    /// since this model was loaded or built: the database's generation is not the model's,
    /// and an incremental build on top would mix this model's rows with the other build's
    /// (their node numbers differ). A whole build of the same extraction there (not dirty:
    /// no rebuild in progress or interrupted) is loaded in place of this model instead, as
    /// an open would, and the rebuild goes on incrementally from it (a load takes
    /// milliseconds where a build from scratch takes seconds, issue 19); otherwise, or when
    /// the rebuild is one from scratch anyway (`from_scratch`), the rebuild starts from
    /// scratch, numbered after the other build's generation.
    fn rewritten_elsewhere(&self, builder: &mut BuilderState, from_scratch: bool) -> Result<bool> {
        // The database's lock, then the state's (as `fresh_build`; the incremental path
        // takes them the other way round): no deadlock, because only rebuilds take the
        // database's lock and they hold the builder's. The generations are compared under
        // a read lock (answers go on); the write lock is taken only when they differ, and
        // held for the load: answers wait for it instead of seeing a half-loaded model,
        // and the old model is freed before the new one is read (one model's peak, not
        // two).
        let db = self.db.lock().map_err(MapError::internal)?;
        if db::is_in_memory(&db.path) {
            return Ok(false);
        }
        let theirs = db.read_meta()?;
        let ours = self
            .state
            .read()
            .map_err(MapError::internal)?
            .meta
            .generation;
        if theirs.generation == ours {
            return Ok(false);
        }
        // No other rebuild runs (the builder's lock): the generation read above still holds.
        let mut st = self.state.write().map_err(MapError::internal)?;
        // A rebuild from scratch (`full` over the whole root) loads nothing it would drop.
        let whole = !from_scratch
            && !theirs.dirty
            && theirs.built_at.is_some()
            && theirs.extraction.as_deref() == Some(self.extraction.as_str());
        if whole {
            st.model = Model::default();
            let mut model = Model::default();
            match db.load(&mut model, self.rebuild_only, self.uses.is_some()) {
                Ok(()) => {
                    tracing::info!(
                        ours,
                        theirs = theirs.generation,
                        "the map database was rebuilt elsewhere: loading its build"
                    );
                    db.release_memory();
                    *st = State::new(model, theirs, true);
                    builder.resolver = None;
                    return Ok(false);
                }
                Err(e) => {
                    // Nothing to answer from until the build from scratch is done.
                    tracing::warn!("loading the map another process built: {e}");
                    let meta = std::mem::take(&mut st.meta);
                    *st = State::new(Model::default(), meta, false);
                }
            }
        }
        tracing::info!(
            ours,
            theirs = theirs.generation,
            "the map database was rebuilt elsewhere: building from scratch"
        );
        st.meta.generation = st.meta.generation.max(theirs.generation);
        Ok(true)
    }

    fn jobs(&self, model: &Model, seen: Vec<Seen>, full: bool, keep: &mut Vec<Ix>) -> Vec<Job> {
        let mut jobs = Vec::new();
        for s in seen {
            let known = model
                .file_by_path
                .get(s.path.as_str())
                .map(|&f| (f, model.f(f)));
            if let Some((fix, f)) = known {
                keep.push(fix);
                if !full && f.size == s.size && f.mtime == s.mtime && f.mtime != 0 {
                    continue;
                }
            }
            jobs.push(Job {
                known_hash: known.map(|(_, f)| f.hash),
                known_skipped: known.and_then(|(_, f)| f.skipped),
                seen: s,
            });
        }
        jobs
    }

    /// Runs `read_one` over the jobs on the rayon pool, handing results to `sink` on this
    /// thread as they come.
    fn extract_stream(
        &self,
        jobs: Vec<Job>,
        full: bool,
        progress: &dyn Fn(Progress),
        mut sink: impl FnMut(Outcome) -> Result<()>,
    ) -> Result<()> {
        let total = jobs.len() as u64;
        let (tx, rx) = sync_channel::<Outcome>(32);
        let max = self.max_file_bytes;
        let frontend = self.frontend.clone();
        let now = now_ns();
        std::thread::scope(|s| {
            s.spawn(move || {
                jobs.into_par_iter().for_each_with(tx, |tx, job| {
                    let _ = tx.send(read_one(&job, max, full, &*frontend, now));
                });
            });
            let mut done = 0u64;
            let mut result = Ok(());
            for outcome in rx {
                done += 1;
                if result.is_ok() {
                    result = sink(outcome);
                }
                if done.is_multiple_of(64) || done == total {
                    progress(Progress {
                        phase: Phase::Indexing,
                        done,
                        total,
                    });
                }
            }
            result
        })
    }

    fn fresh_build(
        &self,
        builder: &mut BuilderState,
        seen: Vec<Seen>,
        config: BTreeMap<String, String>,
        progress: &dyn Fn(Progress),
        summary: &mut RebuildSummary,
    ) -> Result<()> {
        let mut model = Model::default();
        builder.resolver = None;
        let previous_generation = self
            .state
            .read()
            .map_err(MapError::internal)?
            .meta
            .generation;
        let mut db = self.db.lock().map_err(MapError::internal)?;
        // A small page cache while the build writes, put back after it
        // (`db::BUILD_CACHE_KIB`; a build that fails leaves it small: only slower reads).
        let cache = db.cache_size()?;
        db.set_cache_size(-db::BUILD_CACHE_KIB)?;
        {
            let tx = db.transaction()?;
            tx.execute_batch(
                "DELETE FROM files; DELETE FROM contents; DELETE FROM edges; DELETE FROM externals; DELETE FROM reach;",
            )?;
            db::set_meta(&tx, "dirty", "1")?;
            tx.commit()?;
        }
        let mut jobs = self.jobs(&model, seen, true, &mut Vec::new());
        // Largest files first (stable: walk order among equal sizes). One large file's
        // extraction (its tree, matches and facts) takes up to ≈ 15 MB for a moment: in walk
        // order the largest files often come last (`test/` in the Python stdlib), on top of
        // an almost complete model, and set the build's peak. Files are numbered in the
        // order they are applied, as with several workers already.
        jobs.sort_by_key(|j| std::cmp::Reverse(j.seen.size));
        // What the start-up ran (arguments, the walk, SQLite's schema) is not run again.
        release_code("extraction");
        let mut ch = Changes::default();
        // Uses left in the database as rows are written, where nothing after the build
        // reads them from the model (`Inner::leaves_uses`).
        let mut left = self.leaves_uses(&db).then(LeftUses::default);
        let mut pending = 0usize;
        let mut indexed = 0u64;
        let t = Instant::now();
        let mut consumer = std::time::Duration::ZERO;
        self.extract_stream(jobs, true, progress, |o| {
            let started = Instant::now();
            if let Outcome::Update(u) = o {
                if matches!(u.content, Content::Facts(_)) {
                    indexed += 1;
                }
                apply::apply_file(&mut model, u, &mut ch);
                pending += 1;
                if pending.is_multiple_of(FILES_PER_FREEZE) {
                    model.freeze_lists();
                }
                if pending >= FILES_PER_TRANSACTION {
                    write_rows_leaving_uses(&mut db, &mut model, &mut ch, left.as_mut())?;
                    pending = 0;
                    // The grammars' code and tables of the files done so far (the largest
                    // first, often of other languages than the rest) and the rows' writing.
                    release_code("rows");
                }
            }
            consumer += started.elapsed();
            Ok(())
        })?;
        write_rows_leaving_uses(&mut db, &mut model, &mut ch, left.as_mut())?;
        // The workers' parser heaps, idle until the next build, give their free pages back
        // before resolution allocates on top of them.
        rayon::broadcast(|_| navmap_extract::release_parser_memory());
        release_code("resolution");
        tracing::debug!(
            mem = memory_mb(),
            ms = t.elapsed().as_secs_f64() * 1e3,
            consumer_ms = consumer.as_secs_f64() * 1e3,
            "extract + apply + rows"
        );
        summary.files_indexed = indexed;
        summary.files_deleted = {
            let st = self.state.read().map_err(MapError::internal)?;
            st.model
                .indexed_file_ixs()
                .filter(|&f| {
                    let p = &*st.model.f(f).path;
                    model
                        .file_by_path
                        .get(p)
                        .is_none_or(|&n| model.f(n).node.is_none())
                })
                .count() as u64
        };
        let all: HashSet<Ix> = model.indexed_file_ixs().collect();
        let mut meta = Meta {
            generation: previous_generation + 1,
            config,
            ..Default::default()
        };
        let resolved = self.finish(
            builder,
            &mut db,
            &mut model,
            &mut ch,
            Some(all),
            left,
            &mut meta,
            progress,
        )?;
        summary.files_resolved = resolved.resolved;
        db.set_cache_size(cache)?;
        drop(db);
        release_code("finish");

        if self.uses.is_some() {
            model.put_uses_on_disk();
        }
        progress(Progress {
            phase: Phase::Ranking,
            done: 0,
            total: 1,
        });
        // The derived data (ranks, clusters, search) is computed before the swap so that
        // queries never see a half-ready map.
        let mut next = State::new(model, meta, true);
        next.refresh_derived(None, self.derive_eagerly);
        let mut st = self.state.write().map_err(MapError::internal)?;
        let old = std::mem::replace(&mut *st, next);
        drop(st);
        drop(old);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn incremental(
        &self,
        builder: &mut BuilderState,
        seen: Vec<Seen>,
        config: BTreeMap<String, String>,
        scope: &Scope,
        full: bool,
        dirty: bool,
        progress: &dyn Fn(Progress),
        summary: &mut RebuildSummary,
    ) -> Result<()> {
        let seen_paths: HashSet<String> = seen.iter().map(|s| s.path.clone()).collect();
        let (jobs, deleted, stale_seen) = {
            let st = self.state.read().map_err(MapError::internal)?;
            let mut keep = Vec::new();
            let jobs = self.jobs(&st.model, seen, full, &mut keep);
            let deleted: Vec<Ix> = st
                .model
                .file_ixs()
                .filter(|&f| {
                    let p = &*st.model.f(f).path;
                    scope.contains(p) && !seen_paths.contains(p)
                })
                .collect();
            (jobs, deleted, keep)
        };
        let mut outcomes = Vec::new();
        let t = Instant::now();
        self.extract_stream(jobs, full, progress, |o| {
            outcomes.push(o);
            Ok(())
        })?;
        tracing::debug!(
            ms = t.elapsed().as_secs_f64() * 1e3,
            files = outcomes.len(),
            "extract"
        );
        let mut st = self.state.write().map_err(MapError::internal)?;
        let mut db = self.db.lock().map_err(MapError::internal)?;
        let st = &mut *st;
        let mut ch = Changes {
            names_before: Some(Default::default()),
            ..Changes::default()
        };
        let config_changed = !same_contents(&config, &st.meta.config);
        if st.model.partial.is_some() {
            let whole = dirty || config_changed || !deleted.is_empty();
            ch.externals_before = load_for_change(&db, &mut st.model, &outcomes, whole)?;
        }
        for fix in stale_seen {
            if let Some(Some(f)) = st.model.files.get_mut(fix as usize) {
                f.stale = false;
            }
        }
        // Applying a change reads what the changed and removed files used before it (the
        // name indexes drop them): loaded when the model left it in the database (a map
        // that answers from there, or one a fresh build left so: `LeftUses`).
        {
            let updated = outcomes.iter().filter_map(|o| match o {
                Outcome::Update(u) => st.model.file_by_path.get(u.path.as_str()).copied(),
                _ => None,
            });
            let touched: Vec<Ix> = deleted.iter().copied().chain(updated).collect();
            for f in touched {
                db.load_uses(&mut st.model, f)?;
            }
        }
        for fix in deleted {
            apply::remove_file(&mut st.model, fix, &mut ch);
            summary.files_deleted += 1;
        }
        for o in outcomes {
            match o {
                Outcome::Update(u) => {
                    let was_indexed = st
                        .model
                        .file_by_path
                        .get(u.path.as_str())
                        .is_some_and(|&f| st.model.f(f).node.is_some());
                    match u.content {
                        Content::Facts(_) => summary.files_indexed += 1,
                        Content::Skipped(_) if was_indexed => summary.files_deleted += 1,
                        Content::Skipped(_) => {}
                    }
                    apply::apply_file(&mut st.model, u, &mut ch);
                }
                Outcome::Touch { path, size, mtime } => {
                    if let Some(&fix) = st.model.file_by_path.get(path.as_str()) {
                        apply::touch_file(&mut st.model, fix, size, mtime, &mut ch);
                    }
                }
                Outcome::Unreadable => {}
            }
        }
        if ch.is_empty() && !dirty && !config_changed {
            // Maps built before `counts` existed get them here, so the next no-op rebuild
            // can skip loading (`precheck.rs`).
            let counts_missing = st.meta.counts.is_none();
            if !ch.files_touched.is_empty() || counts_missing {
                let tx = db.transaction()?;
                for &f in &ch.files_touched {
                    db::touch_file_row(&tx, &st.model, f)?;
                }
                if counts_missing {
                    let counts = (st.model.symbol_count() as u64, st.model.edge_count() as u64);
                    db::set_meta(&tx, "counts", &db::counts_value(counts.0, counts.1))?;
                    st.meta.counts = Some(counts);
                }
                tx.commit()?;
                db.checkpoint();
            }
            if self.uses.is_some() {
                st.model.put_uses_on_disk();
            }
            return Ok(());
        }
        if config_changed {
            builder.resolver = None;
            ch.config_changed = true;
        }
        let all = dirty.then(|| st.model.indexed_file_ixs().collect());
        let mut meta = st.meta.clone();
        meta.generation += 1;
        meta.config = config;
        let resolved = self.finish(
            builder,
            &mut db,
            &mut st.model,
            &mut ch,
            all,
            None,
            &mut meta,
            progress,
        )?;
        summary.files_resolved = resolved.resolved;
        if self.uses.is_some() {
            // Written: the database holds them as the model does.
            st.model.put_uses_on_disk();
        }
        if st.model.partial.is_some() {
            let loaded = st.model.files.iter().flatten().filter(|f| f.loaded).count();
            tracing::debug!(loaded, files = st.model.files.len(), "partial load");
        }
        st.meta = meta;
        st.built = true;
        progress(Progress {
            phase: Phase::Ranking,
            done: 0,
            total: 1,
        });
        st.refresh_derived(Some(&resolved), self.derive_eagerly);
        Ok(())
    }

    /// Whether a fresh build leaves each file's uses in the database once its row is
    /// written ([`LeftUses`]): where nothing reads them from the model after the build — a
    /// map opened to rebuild only (`navmap rebuild`: rebuilds load what they re-resolve,
    /// and it answers no question about uses) or one that answers from the database
    /// (`MapConfig::uses_on_demand`). A map in memory has no rows to read them from.
    fn leaves_uses(&self, db: &Db) -> bool {
        !db::is_in_memory(&db.path) && (self.rebuild_only || self.uses.is_some())
    }

    /// A pass over files whose uses are left in the database ([`LeftUses`]), a batch of
    /// files at a time: their uses loaded, the batch resolved in parallel, the uses let
    /// go of. The edges are in `order`, as one parallel map over all files gives them.
    fn resolve_left_uses(
        &self,
        db: &Db,
        model: &mut Model,
        modres: &dyn ModuleResolver,
        order: &[Ix],
        pass: Pass,
    ) -> Result<Vec<(Ix, Vec<NewEdge>)>> {
        let mut edges = Vec::with_capacity(order.len());
        for batch in order.chunks(FILES_PER_USES_BATCH) {
            let loaded: Vec<Ix> = batch
                .iter()
                .copied()
                .filter(|&f| model.file(f).is_some_and(|r| r.uses_on_disk))
                .collect();
            for &f in &loaded {
                db.load_uses(model, f)?;
            }
            let r = Resolver::new(&*model, modres, &self.registry);
            edges.par_extend(batch.par_iter().map(|&f| {
                let mut es = guarded_resolve_file(&r, f, pass);
                es.shrink_to_fit();
                (f, es)
            }));
            for f in loaded {
                model.let_go_of_uses(f);
            }
        }
        Ok(edges)
    }

    /// `size:mtime:blake3` of each config file ([`config_hashes`] under this map's root).
    fn config_hashes(
        &self,
        files: &[String],
        previous: &BTreeMap<String, String>,
    ) -> BTreeMap<String, String> {
        config_hashes(&self.root, self.max_file_bytes, files, previous)
    }

    /// Import targets, resolution and persistence for a set of applied changes.
    /// `all`: re-resolve these files regardless of what changed (fresh builds, repairs).
    /// `left`: a fresh build left every file's uses in the database ([`LeftUses`]).
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        builder: &mut BuilderState,
        db: &mut Db,
        model: &mut Model,
        ch: &mut Changes,
        all: Option<HashSet<Ix>>,
        mut left: Option<LeftUses>,
        meta: &mut Meta,
        progress: &dyn Fn(Progress),
    ) -> Result<Finished> {
        // The module resolver knows the file set: rebuilt when it changes.
        let rebuilt = builder.resolver.is_none() || ch.file_set_changed;
        if rebuilt {
            let mut files: BTreeSet<String> = model
                .indexed_file_ixs()
                .map(|f| model.f(f).path.to_string())
                .collect();
            files.extend(builder.configs.iter().cloned());
            let read = |p: &str| read_config(&self.root, self.max_file_bytes, p);
            builder.resolver = Some(self.frontend.resolver(&self.registry, &files, &read));
        }
        let modres = builder.resolver.as_deref().expect("resolver");

        let mut affected: HashSet<Ix> = match &all {
            Some(a) => a.clone(),
            None => ch
                .resolve_files
                .iter()
                .copied()
                .filter(|&f| model.file(f).is_some_and(|r| r.node.is_some()))
                .collect(),
        };
        // Import targets: every file when the resolver changed, else the re-indexed ones.
        // Every import again when what resolves them changed; a resolver that was merely
        // not built yet (first rebuild after opening) agrees with the stored targets.
        let retarget_all = ch.file_set_changed || ch.config_changed || all.is_some();
        let target_files: Vec<Ix> = if retarget_all {
            model.indexed_file_ixs().collect()
        } else {
            affected.iter().copied().collect()
        };
        let t = Instant::now();
        let computed: Vec<(Ix, Vec<ImportTarget>)> = target_files
            .par_iter()
            .map(|&f| {
                let rec = model.f(f);
                let lang = self.registry.by_id(model.lang(rec.lang));
                let ts = rec
                    .imports
                    .iter()
                    .map(|i| match lang {
                        Some(l) => guarded_resolve(modres, l, &rec.path, &i.module),
                        None => ImportTarget::Unresolved,
                    })
                    .collect();
                (f, ts)
            })
            .collect();
        for (f, ts) in computed {
            let lang = model.f(f).lang;
            let new: Vec<Target> = ts
                .iter()
                .map(|t| match t {
                    ImportTarget::Files(_) => {
                        Target::Files(resolve::target_files(model, t).unwrap_or_default())
                    }
                    ImportTarget::External(pkg) => Target::External(ext_node(model, lang, pkg, ch)),
                    ImportTarget::Unresolved => Target::Unresolved,
                })
                .collect();
            let rec = model.f_mut(f);
            let changed = rec.imports.iter().zip(&new).any(|(i, t)| i.target != *t);
            for (i, t) in rec.imports.iter_mut().zip(new) {
                i.target = t;
            }
            if changed {
                affected.insert(f);
                ch.files_upserted.insert(f);
                // What it re-exports may now lead elsewhere.
                let names: Vec<_> = model
                    .f(f)
                    .imports
                    .iter()
                    .filter(|i| i.reexport)
                    .flat_map(|i| i.names.iter().map(|(n, a)| a.unwrap_or(*n)))
                    .collect();
                ch.changed_names.extend(names);
            }
        }
        if all.is_none() {
            // Where interfaces are satisfied structurally (Go), a call of one method of an
            // interface links to the types whose method sets hold all of its methods
            // (`Resolver::implementations`): a method added to or removed from a type, or
            // an interface, changes what the calls of its other methods reach. The users
            // of every method name of a changed file whose methods changed are resolved
            // again (a type's methods in other files of its package are not looked at).
            let mut sibling_names: Vec<crate::model::Sym> = Vec::new();
            for &f in &ch.files_upserted {
                let Some(rec) = model.file(f) else { continue };
                if !self
                    .registry
                    .by_id(model.lang(rec.lang))
                    .is_some_and(|l| l.manifest.structural_interfaces)
                {
                    continue;
                }
                let methods: Vec<crate::model::Sym> = model
                    .file_nodes(f)
                    .into_iter()
                    .map(|n| model.n(n))
                    .filter(|n| n.kind == NodeKind::Method)
                    .map(|n| n.name)
                    .collect();
                if methods.iter().any(|s| ch.changed_names.contains(s)) {
                    sibling_names.extend(methods);
                }
            }
            ch.changed_names.extend(sibling_names);
            // A partly loaded model has the users of a name only once they are loaded.
            let names: Vec<String> = ch
                .changed_names
                .iter()
                .map(|&s| model.names.str(s).to_string())
                .collect();
            let stored_users = db.load_users(model, names)?;
            affected.extend(
                stored_users
                    .into_iter()
                    .filter(|&f| model.file(f).is_some_and(|r| r.node.is_some())),
            );
            for &sym in &ch.changed_names {
                affected.extend(
                    model.users_by_name[sym as usize]
                        .iter()
                        .copied()
                        .filter(|&f| model.file(f).is_some_and(|r| r.node.is_some())),
                );
            }
        }
        let mut order: Vec<Ix> = affected.into_iter().collect();
        order.sort_unstable();
        let total = order.len() as u64;
        tracing::debug!(
            ms = t.elapsed().as_secs_f64() * 1e3,
            files = order.len(),
            mem = memory_mb(),
            "import targets"
        );
        let t = Instant::now();
        // A map opened to rebuild only kept mentions encoded: the files about to be
        // re-resolved need theirs (value uses link as references).
        for &f in &order {
            db::decode_kept_refs(model, f)?;
            db::decode_kept_mentions(model, f)?;
            // Left in the database (`MapConfig::uses_on_demand`): resolution reads them
            // (a fresh build's a batch at a time, below).
            if left.is_none() {
                db.load_uses(model, f)?;
            }
        }
        let sig_before: Vec<u64> = order.iter().map(|&f| edge_signature(model, f)).collect();
        for (i, pass) in [Pass::Structure, Pass::Uses].into_iter().enumerate() {
            progress(Progress {
                phase: Phase::Resolving,
                done: i as u64 * total / 2,
                total,
            });
            // Uses left in the database: the Structure pass reads the structural references
            // kept aside (a file's only ones it reads), the Uses pass loads a batch of
            // files' uses at a time.
            let held: Vec<Ix> = match (&mut left, pass) {
                (Some(l), Pass::Structure) => std::mem::take(&mut l.structural)
                    .into_iter()
                    .map(|(f, refs)| {
                        model.f_mut(f).refs = refs;
                        f
                    })
                    .collect(),
                _ => Vec::new(),
            };
            // In a partly loaded model, a pass that read what is not loaded yet runs again
            // once it is (`partial.rs`): the edges are those of the whole model.
            let edges: Vec<(Ix, Vec<NewEdge>)> = loop {
                model.take_demands();
                let edges = if left.is_some() && pass == Pass::Uses {
                    self.resolve_left_uses(db, model, modres, &order, pass)?
                } else {
                    let r = Resolver::new(model, modres, &self.registry);
                    order
                        .par_iter()
                        .map(|&f| {
                            // Exactly sized: a file's list grows by doubling, and a cold
                            // build's Uses pass held 2.4× its 162k edges' room beside the
                            // model until the arrays were built (issue 19: the peak).
                            let mut es = guarded_resolve_file(&r, f, pass);
                            es.shrink_to_fit();
                            (f, es)
                        })
                        .collect()
                };
                if model.partial.is_none() || !db.load_demands(model)? {
                    break edges;
                }
            };
            for f in held {
                model.f_mut(f).refs = Refs::default();
            }
            if all.is_some() {
                // The pass's code (resolution, and reading the uses back from SQLite) is
                // not run while its edges are placed.
                release_code("edges");
            }
            // Each file's edges of the pass cleared, then the new ones added in order:
            // the same lists as clearing and adding file by file (a file's clearing
            // touches only edges out of its own nodes), without a list per node edited.
            for (f, _) in &edges {
                model.clear_file_edges(*f, |k| pass.owns(k));
            }
            model.add_edges(|| {
                edges
                    .iter()
                    .flat_map(|(_, es)| es.iter().map(|e| (e.src, e.dst, e.kind, e.conf, e.line)))
            });
            drop(edges);
        }
        let edges_changed = order
            .iter()
            .zip(&sig_before)
            .any(|(&f, &before)| edge_signature(model, f) != before);
        tracing::debug!(
            ms = t.elapsed().as_secs_f64() * 1e3,
            edges_changed,
            mem = memory_mb(),
            "resolve"
        );
        if all.is_some() {
            // A fresh build or a repair: resolution's code is not run again here.
            release_code("rows of the build");
        }
        let t = Instant::now();
        ch.edges_dirty.extend(order.iter().copied());
        // External modules nobody imports any more. External modules only: a definition
        // of kind module (an inline `mod`) lives as long as its file.
        let is_orphan = |model: &Model, n: Ix| {
            model.slot(n).is_some_and(|node| {
                node.kind == NodeKind::Module
                    && node.file.is_none()
                    && model.inc[n as usize].is_empty()
            })
        };
        let orphans: Vec<Ix> = if model.partial.is_some() {
            // Only one that lost its loaded importers, or was made now, can be; and only
            // if none of the files stored as importing it still does.
            let mut candidates: Vec<Ix> = ch
                .externals_before
                .iter()
                .chain(&ch.nodes_upserted)
                .copied()
                .filter(|&n| is_orphan(model, n))
                .collect();
            candidates.sort_unstable();
            candidates.dedup();
            let mut orphans = Vec::new();
            for n in candidates {
                db.load_incoming(model, -(n as i64))?;
                if is_orphan(model, n) {
                    orphans.push(n);
                }
            }
            orphans
        } else {
            model.node_ixs().filter(|&n| is_orphan(model, n)).collect()
        };
        for n in orphans {
            model.remove_node(n);
            ch.nodes_upserted.remove(&n);
            ch.nodes_deleted.insert(n);
        }
        // One transaction: rows, edges, meta.
        meta.built_at = Some(
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map(|d| d.as_secs())
                .unwrap_or(0),
        );
        meta.dirty = false;
        let finished = Finished {
            resolved: total,
            graph_changed: edges_changed || !ch.nodes_deleted.is_empty() || ch.nodes_added,
            changed_nodes: ch
                .nodes_upserted
                .iter()
                .chain(&ch.nodes_deleted)
                .copied()
                .collect(),
        };
        // A row written again holds the file's references and mentions: loaded, or for
        // uses a fresh build left in the database, copied from the stored row as they are.
        if left.is_none() {
            let rewritten: Vec<Ix> = ch.files_upserted.iter().copied().collect();
            for f in rewritten {
                db.load_uses(model, f)?;
            }
        }
        let tx = db.transaction()?;
        if left.is_some() {
            let mut kept: Vec<Ix> = ch
                .files_upserted
                .iter()
                .copied()
                .filter(|&f| model.file(f).is_some_and(|r| r.uses_on_disk))
                .collect();
            kept.sort_unstable();
            for f in kept {
                ch.files_upserted.remove(&f);
                db::rewrite_file_row_keeping_uses(&tx, model, f)?;
            }
        }
        if all.is_some() {
            index::write_all(&tx, model)?;
        } else {
            if let Some(before) = &ch.names_before {
                index::update_names(&tx, model, before)?;
            }
            index::add_incoming(&tx, model, &ch.edges_dirty)?;
        }
        write_rows_tx(&tx, model, ch)?;
        for &f in &ch.edges_dirty {
            if model.file(f).is_some() {
                db::write_edges(&tx, model, f)?;
            }
        }
        db::set_meta(&tx, "generation", &meta.generation.to_string())?;
        db::set_meta(&tx, "built_at", &meta.built_at.unwrap_or(0).to_string())?;
        db::set_meta(
            &tx,
            "config",
            &serde_json::to_string(&meta.config).unwrap_or_default(),
        )?;
        db::set_meta(&tx, "dirty", "0")?;
        db::set_meta(&tx, "extraction", &self.extraction)?;
        crate::query_analyses::store_new(&tx)?;
        meta.extraction = Some(self.extraction.clone());
        let counts = (model.symbol_count() as u64, model.edge_count() as u64);
        db::set_meta(&tx, "counts", &db::counts_value(counts.0, counts.1))?;
        meta.counts = Some(counts);
        tx.commit()?;
        db.checkpoint();
        tracing::debug!(
            ms = t.elapsed().as_secs_f64() * 1e3,
            mem = memory_mb(),
            "orphans + sqlite"
        );
        Ok(finished)
    }
}

/// In a partly loaded model, loads what applying `outcomes` reads — the changed files and
/// the files stored with edges into them (a definition the change removes takes their
/// edges along, and they are re-resolved) — or every file (`whole`, or a file added,
/// newly skipped or newly indexed: what the partial model does not handle). Returns the
/// external modules loaded files point at before the change.
fn load_for_change(
    db: &Db,
    model: &mut Model,
    outcomes: &[Outcome],
    whole: bool,
) -> Result<Vec<Ix>> {
    let mut changed = Vec::new();
    let mut whole = whole;
    for o in outcomes {
        if let Outcome::Update(u) = o {
            let known = model
                .file_by_path
                .get(u.path.as_str())
                .and_then(|&f| Some((f, model.files.get(f as usize)?.as_ref()?)));
            match known {
                Some((f, rec))
                    if rec.skipped.is_none()
                        && rec.node.is_some()
                        && matches!(u.content, Content::Facts(_)) =>
                {
                    changed.push(f)
                }
                _ => whole = true,
            }
        }
    }
    if whole {
        db.load_rest(model)?;
        return Ok(Vec::new());
    }
    db.load_files(model, changed.iter().copied())?;
    for &f in &changed {
        db::decode_kept_refs(model, f)?;
    }
    for o in outcomes {
        let Outcome::Update(u) = o else { continue };
        let (Content::Facts(facts), Some(&f)) =
            (&u.content, model.file_by_path.get(u.path.as_str()))
        else {
            continue;
        };
        let new: HashSet<String> = apply::def_ids(&u.lang, &u.path, facts)
            .into_iter()
            .collect();
        let removes = model.files[f as usize].as_ref().is_some_and(|r| {
            r.defs
                .iter()
                .any(|&d| model.slot(d).is_some() && !new.contains(&model.node_id(d)))
        });
        if removes {
            db.load_incoming(model, f as i64)?;
        }
    }
    Ok(model
        .externals()
        .filter(|&n| !model.inc[n as usize].is_empty())
        .collect())
}

/// Config maps with the same files and contents (a touched config file changes nothing).
/// A resolver config file's text, when it is inside `root` (never followed out of it) and
/// not over `max_bytes`.
fn read_config(root: &Path, max_bytes: u64, path: &str) -> Option<String> {
    if id::check_path(path).is_err() {
        return None;
    }
    let p = root.join(path);
    // Never follow a config file out of the root.
    let canon = p.canonicalize().ok()?;
    if !canon.starts_with(root) {
        return None;
    }
    let meta = std::fs::metadata(&canon).ok()?;
    if meta.len() > max_bytes {
        return None;
    }
    std::fs::read_to_string(canon).ok()
}

/// `size:mtime:blake3` of each config file; a file whose size and mtime are what
/// `previous` recorded is not read again. A file changed within the last two seconds gets
/// mtime 0, so that the next build reads it again (an edit in the same tick would not
/// change its mtime).
pub(crate) fn config_hashes(
    root: &Path,
    max_bytes: u64,
    files: &[String],
    previous: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let now = now_ns();
    files
        .iter()
        .map(|f| {
            let stat = std::fs::metadata(root.join(f)).ok();
            let size = stat.as_ref().map(|m| m.len()).unwrap_or(0);
            let mtime = stat.as_ref().map(walk::mtime_ns).unwrap_or(0);
            let mtime = if now - mtime < RACY_NS { 0 } else { mtime };
            let key = format!("{size}:{mtime}:");
            if mtime != 0
                && let Some(prev) = previous.get(f)
                && prev.starts_with(&key)
            {
                return (f.clone(), prev.clone());
            }
            let h = read_config(root, max_bytes, f)
                .map(|t| blake3::hash(t.as_bytes()).to_hex().to_string())
                .unwrap_or_default();
            (f.clone(), format!("{key}{h}"))
        })
        .collect()
}

fn same_contents(a: &BTreeMap<String, String>, b: &BTreeMap<String, String>) -> bool {
    let hash = |v: &String| v.rsplit(':').next().unwrap_or("").to_string();
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((ka, va), (kb, vb))| ka == kb && hash(va) == hash(vb))
}

/// What `finish` tells the derived data.
pub(crate) struct Finished {
    pub resolved: u64,
    /// Nodes or edges were added, removed or changed: ranks and clusters are recomputed.
    pub graph_changed: bool,
    /// Nodes whose search entry may have changed.
    pub changed_nodes: Vec<Ix>,
}

/// A fingerprint of a file's outgoing edges (lines excluded: moving code changes nothing).
fn edge_signature(model: &Model, file: Ix) -> u64 {
    use std::hash::{Hash, Hasher};
    let Some(f) = model.file(file) else { return 0 };
    if f.node.is_none() {
        return 0;
    }
    let mut edges: Vec<(Ix, Ix, u8, u8)> = model
        .file_nodes(file)
        .into_iter()
        .flat_map(|s| {
            model.out[s as usize]
                .iter()
                .map(move |e| (s, e.other, e.kind as u8, e.conf as u8))
        })
        .collect();
    edges.sort_unstable();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    edges.hash(&mut h);
    h.finish()
}

fn guarded_resolve(
    modres: &dyn ModuleResolver,
    lang: &Language,
    from: &str,
    module: &str,
) -> ImportTarget {
    std::panic::catch_unwind(AssertUnwindSafe(|| modres.resolve(lang, from, module)))
        .unwrap_or(ImportTarget::Unresolved)
}

fn guarded_resolve_file(r: &Resolver, f: Ix, pass: Pass) -> Vec<NewEdge> {
    std::panic::catch_unwind(AssertUnwindSafe(|| r.resolve_file(f, pass))).unwrap_or_else(|_| {
        tracing::warn!(file = %r.model.f(f).path, "resolution panicked; the file keeps no edges");
        Vec::new()
    })
}

/// The node of an external module, created on first use.
fn ext_node(model: &mut Model, lang: u16, package: &str, ch: &mut Changes) -> Ix {
    let qname = model.texts.intern(package);
    if let Some(&ix) = model.externals_by_name.get(&(lang, qname)) {
        return ix;
    }
    let ix = model.next_node_ix();
    let name = model.names.intern(package);
    model.put_node(
        ix,
        Node {
            kind: NodeKind::Module,
            name,
            qname,
            dup: 1,
            lang,
            file: Opt32::NONE,
            parent: Opt32::NONE,
            start_line: 0,
            end_line: 0,
            name_line: 0,
            name_col: 0,
            signature: Opt32::NONE,
            doc: Opt32::NONE,
            exported: true,
        },
    );
    ch.nodes_upserted.insert(ix);
    ch.nodes_deleted.remove(&ix);
    ch.nodes_added = true;
    ix
}

fn write_rows(db: &mut Db, model: &Model, ch: &mut Changes) -> Result<()> {
    let t = Instant::now();
    let (files, nodes) = (ch.files_upserted.len(), ch.nodes_upserted.len());
    let tx = db.transaction()?;
    write_rows_tx(&tx, model, ch)?;
    tx.commit()?;
    tracing::debug!(
        ms = t.elapsed().as_secs_f64() * 1e3,
        files,
        nodes,
        mem = memory_mb(),
        "rows"
    );
    Ok(())
}

/// [`write_rows`], then lets go of the uses of the files written (`left`: [`LeftUses`]).
fn write_rows_leaving_uses(
    db: &mut Db,
    model: &mut Model,
    ch: &mut Changes,
    left: Option<&mut LeftUses>,
) -> Result<()> {
    let written: Vec<Ix> = match left {
        Some(_) => ch.files_upserted.iter().copied().collect(),
        None => Vec::new(),
    };
    write_rows(db, model, ch)?;
    if let Some(left) = left {
        left.leave(model, &written);
    }
    Ok(())
}

/// Writes (and forgets) the file and node rows a change set touched.
fn write_rows_tx(tx: &rusqlite::Transaction, model: &Model, ch: &mut Changes) -> Result<()> {
    for f in ch.files_deleted.drain() {
        db::delete_file_row(tx, f)?;
    }
    for n in ch.nodes_deleted.drain() {
        db::delete_node_row(tx, n)?;
    }
    for f in ch.files_upserted.drain() {
        if model.file(f).is_some() {
            db::write_file_row(tx, model, f)?;
        }
    }
    for f in ch.files_touched.drain() {
        if model.file(f).is_some() {
            db::touch_file_row(tx, model, f)?;
        }
    }
    for n in ch.nodes_upserted.drain() {
        if model.node(n).is_some() {
            db::write_node_row(tx, model, n)?;
        }
    }
    Ok(())
}

impl State {
    pub(crate) fn skipped_counts(&self) -> BTreeMap<SkipReason, u64> {
        let mut out = BTreeMap::new();
        for f in self.model.file_ixs() {
            if let Some(r) = self.model.f(f).skipped {
                *out.entry(r).or_insert(0) += 1;
            }
        }
        out
    }
}
