//! The repository's file list, indexed for the lookups resolution makes.

use std::collections::{BTreeSet, HashMap, HashSet};

pub struct Repo {
    pub files: BTreeSet<String>,
    /// Every directory that holds a file, at any depth (`""` is the root).
    dirs: HashSet<String>,
    /// The files directly in each directory, sorted.
    children: HashMap<String, Vec<String>>,
}

impl Repo {
    pub fn new(files: &BTreeSet<String>) -> Repo {
        let mut dirs = HashSet::new();
        let mut children: HashMap<String, Vec<String>> = HashMap::new();
        dirs.insert(String::new());
        for f in files {
            children
                .entry(dirname(f).to_string())
                .or_default()
                .push(f.clone());
            let mut d = dirname(f);
            while !d.is_empty() && dirs.insert(d.to_string()) {
                d = dirname(d);
            }
        }
        Repo {
            files: files.clone(),
            dirs,
            children,
        }
    }

    pub fn is_file(&self, path: &str) -> bool {
        self.files.contains(path)
    }

    pub fn is_dir(&self, path: &str) -> bool {
        self.dirs.contains(path)
    }

    /// The files directly in `dir`.
    pub fn files_in(&self, dir: &str) -> &[String] {
        self.children.get(dir).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Files whose name is one of `names`, anywhere.
    pub fn named<'a>(&'a self, names: &'a [String]) -> impl Iterator<Item = &'a String> + 'a {
        self.files
            .iter()
            .filter(move |f| names.iter().any(|n| n == basename(f)))
    }

    /// The nearest directory at or above `dir` holding a file named one of `names`: that file.
    pub fn nearest(&self, dir: &str, names: &[String]) -> Option<String> {
        let mut d = dir;
        loop {
            for n in names {
                let p = join(d, n);
                if self.is_file(&p) {
                    return Some(p);
                }
            }
            if d.is_empty() {
                return None;
            }
            d = dirname(d);
        }
    }
}

pub fn dirname(path: &str) -> &str {
    path.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

pub fn basename(path: &str) -> &str {
    path.rsplit_once('/').map(|(_, b)| b).unwrap_or(path)
}

/// `dir` + `rel` (no normalisation).
pub fn join(dir: &str, rel: &str) -> String {
    match (dir.is_empty(), rel.is_empty()) {
        (true, _) => rel.to_string(),
        (_, true) => dir.to_string(),
        _ => format!("{dir}/{rel}"),
    }
}

/// Resolves `.` and `..` segments; `None` when the path climbs out of the root.
pub fn normalize(path: &str) -> Option<String> {
    let mut out: Vec<&str> = Vec::new();
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            s => out.push(s),
        }
    }
    Some(out.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_refuses_to_leave_the_root() {
        assert_eq!(normalize("src/./a/../b.ts").as_deref(), Some("src/b.ts"));
        assert_eq!(normalize("a/../../b"), None);
        assert_eq!(normalize("./x").as_deref(), Some("x"));
    }

    #[test]
    fn nearest_walks_up() {
        let files: BTreeSet<String> = ["tsconfig.json", "pkg/a/b.ts", "pkg/tsconfig.json"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let repo = Repo::new(&files);
        let names = vec!["tsconfig.json".to_string()];
        assert_eq!(
            repo.nearest("pkg/a", &names).as_deref(),
            Some("pkg/tsconfig.json")
        );
        assert_eq!(
            repo.nearest("other", &names).as_deref(),
            Some("tsconfig.json")
        );
        assert!(repo.is_dir("pkg/a") && repo.is_dir("pkg") && !repo.is_dir("pkg/b"));
    }
}
