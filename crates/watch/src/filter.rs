//! Which paths count: the map build's ignore rules, applied one path at a time.
//!
//! A walker sees a directory before its contents, so it can prune ignored subtrees; a watcher
//! sees single paths out of the blue. [`IgnoreFilter`] answers "would the walk of
//! [`walk_builder`] have visited this path?" for one path, with the same rules, so that the
//! watcher and the map build never disagree about which files exist.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::{Match, WalkBuilder};

/// Directory names that are never walked or watched, wherever they appear below the root,
/// whatever the ignore files say: version-control internals, dependency caches, build outputs
/// and navmap's own map folder.
pub const SKIPPED_DIRS: &[&str] = &[
    ".git",
    "node_modules",
    "target",
    ".venv",
    "dist",
    "build",
    ".navmap",
];

/// Ignore files read in every directory, in precedence order (a match in `.ignore` beats one
/// in `.gitignore`, as in ripgrep).
const RULE_FILES: &[&str] = &[".ignore", ".gitignore"];

/// Above this many cached directories the cache is dropped rather than grown: it is only a
/// cache, and rebuilding an entry is one or two small file reads.
const MAX_CACHED_DIRS: usize = 50_000;

/// True when `name` is one of [`SKIPPED_DIRS`].
pub fn is_skipped_name(name: &OsStr) -> bool {
    SKIPPED_DIRS.iter().any(|s| OsStr::new(s) == name)
}

/// A walker over `root` with exactly the rules [`IgnoreFilter`] applies: `.gitignore` files
/// (nested ones too, honoured even outside a git repository), `.ignore` files,
/// `.git/info/exclude`, and [`SKIPPED_DIRS`] pruned. Hidden files are *not* skipped, symlinks
/// are not followed, and nothing outside the root is read (no global git excludes, no ignore
/// files of parent directories): navmap reads only inside the root.
///
/// The map build should walk with this, so that the watcher reports exactly the files the
/// build would see.
pub fn walk_builder(root: &Path) -> WalkBuilder {
    let mut builder = WalkBuilder::new(root);
    builder
        .standard_filters(false)
        .hidden(false)
        .parents(false)
        .git_global(false)
        .git_ignore(true)
        .git_exclude(true)
        .ignore(true)
        .require_git(false)
        .follow_links(false)
        // Depth 0 is the root itself, which may well be called `build`.
        .filter_entry(|entry| entry.depth() == 0 || !is_skipped_name(entry.file_name()));
    builder
}

/// The ignore rules of one directory.
struct DirRules {
    /// One matcher per [`RULE_FILES`] entry, same order.
    matchers: Vec<Gitignore>,
}

/// Decides, one root-relative path at a time, whether the map build ignores it.
///
/// Rules (the same as [`walk_builder`]): a path is ignored when any of its components is in
/// [`SKIPPED_DIRS`], or when it or any ancestor directory is ignored by the nearest matching
/// `.ignore`, else the nearest matching `.gitignore`, else `<root>/.git/info/exclude`. A `!`
/// pattern re-includes, as in git, except inside an ignored directory.
///
/// Ignore files are read lazily and cached; call [`IgnoreFilter::invalidate`] when one
/// changes.
pub struct IgnoreFilter {
    root: PathBuf,
    exclude: Gitignore,
    dirs: HashMap<PathBuf, DirRules>,
}

impl IgnoreFilter {
    /// A filter for the (ideally canonical) `root`.
    pub fn new(root: &Path) -> Self {
        let exclude = load(root, &root.join(".git").join("info").join("exclude"));
        IgnoreFilter {
            root: root.to_path_buf(),
            exclude,
            dirs: HashMap::new(),
        }
    }

    /// The root this filter judges paths against.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// True when the map build would not see `rel` (root-relative). `is_dir` says whether `rel`
    /// names a directory (it matters for patterns such as `out/`). Paths with `..`, absolute
    /// paths and the empty path are ignored: they do not name anything below the root.
    pub fn is_ignored(&mut self, rel: &Path, is_dir: bool) -> bool {
        let Some(names) = normal_components(rel) else {
            return true;
        };
        if names.iter().any(|n| is_skipped_name(n)) {
            return true;
        }
        let mut prefix = PathBuf::new();
        for (i, name) in names.iter().enumerate() {
            prefix.push(name);
            let last = i + 1 == names.len();
            if self.matched(&prefix, !last || is_dir) {
                return true;
            }
        }
        false
    }

    /// Like [`IgnoreFilter::is_ignored`], for a walk that has already established that every
    /// ancestor of `rel` is kept: only the last component is judged.
    pub fn is_ignored_entry(&mut self, rel: &Path, is_dir: bool) -> bool {
        match rel.file_name() {
            Some(name) if !is_skipped_name(name) => self.matched(rel, is_dir),
            _ => true,
        }
    }

    /// Forgets the cached rules of directory `rel_dir` (root-relative; empty for the root),
    /// after one of its ignore files changed.
    pub fn invalidate(&mut self, rel_dir: &Path) {
        self.dirs.remove(rel_dir);
        if rel_dir.as_os_str().is_empty() {
            self.exclude = load(&self.root, &self.root.join(".git/info/exclude"));
        }
    }

    /// True when `rel` is an ignore file whose change alters the rules ([`RULE_FILES`]).
    pub fn is_rule_file(rel: &Path) -> bool {
        rel.file_name()
            .is_some_and(|n| RULE_FILES.iter().any(|r| OsStr::new(r) == n))
    }

    /// Whether the rules say `rel` itself (not its ancestors) is ignored.
    fn matched(&mut self, rel: &Path, is_dir: bool) -> bool {
        let abs = self.root.join(rel);
        // Nearest directory first; per rule file, the nearest non-`None` match decides.
        let mut decided: Vec<Match<()>> = vec![Match::None; RULE_FILES.len()];
        let mut dir = rel.parent();
        while let Some(d) = dir {
            let rules = self.rules(d);
            for (slot, matcher) in decided.iter_mut().zip(&rules.matchers) {
                if slot.is_none() {
                    *slot = matcher.matched(&abs, is_dir).map(|_| ());
                }
            }
            dir = d.parent();
        }
        let verdict = decided
            .into_iter()
            .fold(Match::None, Match::or)
            .or(self.exclude.matched(&abs, is_dir).map(|_| ()));
        verdict.is_ignore()
    }

    fn rules(&mut self, rel_dir: &Path) -> &DirRules {
        if self.dirs.len() >= MAX_CACHED_DIRS && !self.dirs.contains_key(rel_dir) {
            self.dirs.clear();
        }
        let root = &self.root;
        self.dirs.entry(rel_dir.to_path_buf()).or_insert_with(|| {
            let dir = root.join(rel_dir);
            DirRules {
                matchers: RULE_FILES
                    .iter()
                    .map(|f| load(&dir, &dir.join(f)))
                    .collect(),
            }
        })
    }
}

/// The matcher of one ignore file, rooted at `dir`; empty when the file is absent. A
/// malformed line is skipped (git does the same); the rest of the file still applies.
fn load(dir: &Path, file: &Path) -> Gitignore {
    if !file.is_file() {
        return Gitignore::empty();
    }
    let mut builder = GitignoreBuilder::new(dir);
    if let Some(err) = builder.add(file) {
        tracing::debug!(file = %file.display(), %err, "ignore file partly unreadable");
    }
    builder.build().unwrap_or_else(|err| {
        tracing::debug!(file = %file.display(), %err, "ignore file unusable");
        Gitignore::empty()
    })
}

/// The names of `rel` when it is a non-empty relative path made only of plain names.
fn normal_components(rel: &Path) -> Option<Vec<&OsStr>> {
    let mut names = Vec::new();
    for c in rel.components() {
        match c {
            Component::Normal(n) => names.push(n),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!names.is_empty()).then_some(names)
}

/// `abs` as a root-relative, `/`-separated string, when it lies lexically below `root` and
/// is valid UTF-8 (a path that cannot be spelled in the contract's JSON is not reported).
pub(crate) fn relative(root: &Path, abs: &Path) -> Option<(PathBuf, String)> {
    let rel = abs.strip_prefix(root).ok()?;
    let names = normal_components(rel)?;
    let mut text = String::new();
    for n in &names {
        if !text.is_empty() {
            text.push('/');
        }
        text.push_str(n.to_str()?);
    }
    Some((names.iter().collect(), text))
}

/// True unless `abs` resolves (through symlinks) to somewhere outside `root`. A path that no
/// longer exists is judged by its nearest existing ancestor.
pub(crate) fn stays_inside(root: &Path, abs: &Path) -> bool {
    let mut probe = Some(abs);
    while let Some(p) = probe {
        if let Ok(real) = std::fs::canonicalize(p) {
            return real.starts_with(root);
        }
        probe = p.parent();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn tree(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = dir.path().join(path);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, text).unwrap();
        }
        dir
    }

    #[test]
    fn skipped_dirs_anywhere_but_not_the_root_itself() {
        let dir = tree(&[]);
        let mut f = IgnoreFilter::new(dir.path());
        assert!(f.is_ignored(Path::new("node_modules/x/index.js"), false));
        assert!(f.is_ignored(Path::new("a/b/target/debug/x.rs"), false));
        assert!(f.is_ignored(Path::new(".git/HEAD"), false));
        assert!(f.is_ignored(Path::new(".navmap/map.db"), false));
        assert!(f.is_ignored(Path::new("pkg/.venv"), true));
        assert!(!f.is_ignored(Path::new("src/targets.rs"), false));
        assert!(!f.is_ignored(Path::new(".github/ci.yml"), false));
    }

    #[test]
    fn nested_gitignore_negation_ignore_file_and_exclude() {
        let dir = tree(&[
            (".gitignore", "*.log\nout/\ngen/\n"),
            (".git/info/exclude", "secret.txt\n"),
            ("sub/.gitignore", "!keep.log\n"),
            ("sub/.ignore", "local.py\n"),
            ("gen/.gitignore", "!inside.py\n"),
        ]);
        let mut f = IgnoreFilter::new(dir.path());
        assert!(f.is_ignored(Path::new("a.log"), false));
        assert!(f.is_ignored(Path::new("deep/b.log"), false));
        assert!(
            !f.is_ignored(Path::new("sub/keep.log"), false),
            "nearer ! wins"
        );
        assert!(
            f.is_ignored(Path::new("sub/local.py"), false),
            ".ignore applies"
        );
        assert!(f.is_ignored(Path::new("secret.txt"), false), "info/exclude");
        assert!(
            f.is_ignored(Path::new("x/out/y.py"), false),
            "dir pattern via ancestor"
        );
        assert!(
            !f.is_ignored(Path::new("out"), false),
            "dir-only pattern, a file"
        );
        assert!(
            f.is_ignored(Path::new("gen/inside.py"), false),
            "nothing re-includes inside an ignored directory"
        );
        assert!(!f.is_ignored(Path::new("src/main.py"), false));
    }

    #[test]
    fn invalidate_rereads_rules() {
        let dir = tree(&[(".gitignore", "a.py\n")]);
        let mut f = IgnoreFilter::new(dir.path());
        assert!(f.is_ignored(Path::new("a.py"), false));
        fs::write(dir.path().join(".gitignore"), "b.py\n").unwrap();
        f.invalidate(Path::new(""));
        assert!(!f.is_ignored(Path::new("a.py"), false));
        assert!(f.is_ignored(Path::new("b.py"), false));
    }

    /// The per-path filter and the walker agree on a tree exercising every rule.
    #[test]
    fn filter_agrees_with_walk_builder() {
        let dir = tree(&[
            (".gitignore", "*.log\nout/\n/rootonly.py\n"),
            (".git/info/exclude", "excluded.py\n"),
            (".git/config", ""),
            ("rootonly.py", ""),
            ("a/rootonly.py", ""),
            ("a/x.log", ""),
            ("a/out/y.py", ""),
            ("a/.gitignore", "!x.log\nz.py\n"),
            ("a/z.py", ""),
            ("a/b/z.py", ""),
            ("a/b/.ignore", "!z.py\n"),
            ("excluded.py", ""),
            ("node_modules/m/i.js", ""),
            ("build/gen.py", ""),
            ("pkg/dist/d.js", ""),
            (".hidden/h.py", ""),
            ("src/lib.rs", ""),
        ]);
        let root = dir.path();
        let mut walked: Vec<String> = walk_builder(root)
            .build()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
            .map(|e| relative(root, e.path()).unwrap().1)
            .collect();
        walked.sort();

        let mut f = IgnoreFilter::new(root);
        let mut kept = Vec::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(d) = stack.pop() {
            for e in fs::read_dir(&d).unwrap() {
                let e = e.unwrap();
                let (rel, text) = relative(root, &e.path()).unwrap();
                let is_dir = e.file_type().unwrap().is_dir();
                // Judge every path in full, not just walked ones: the point is per-path use.
                if f.is_ignored(&rel, is_dir) {
                    continue;
                }
                if is_dir {
                    stack.push(e.path());
                } else {
                    kept.push(text);
                }
            }
        }
        kept.sort();
        assert_eq!(kept, walked);
        assert!(walked.contains(&"a/x.log".to_string()));
        assert!(walked.contains(&"a/b/z.py".to_string()));
        assert!(!walked.contains(&"a/z.py".to_string()));
        assert!(walked.contains(&".hidden/h.py".to_string()));
    }

    #[test]
    fn relative_paths_and_containment() {
        let dir = tree(&[("a/b.py", "")]);
        let root = fs::canonicalize(dir.path()).unwrap();
        let (_, text) = relative(&root, &root.join("a/b.py")).unwrap();
        assert_eq!(text, "a/b.py");
        assert!(relative(&root, &root).is_none());
        assert!(relative(&root, Path::new("/elsewhere/x")).is_none());
        assert!(stays_inside(&root, &root.join("a/b.py")));
        assert!(stays_inside(&root, &root.join("a/gone/deeper.py")));
        #[cfg(unix)]
        {
            let outside = tempfile::tempdir().unwrap();
            fs::write(outside.path().join("o.py"), "").unwrap();
            std::os::unix::fs::symlink(outside.path(), root.join("link")).unwrap();
            assert!(!stays_inside(&root, &root.join("link/o.py")));
        }
    }
}
