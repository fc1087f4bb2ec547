//! `path`: specifiers that are file paths relative to the importer (`./store`,
//! `../util/token.js`), tried with the language's extensions, extension substitutions
//! (`.js` → `.ts`) and index files; path configs (`tsconfig.json` `baseUrl`/`paths`);
//! packages of the repository by the name in their package manifest; else external.

use std::collections::HashMap;

use super::jsonc;
use super::repo::{Repo, dirname, join, normalize};
use super::rules::Rules;
use crate::ImportTarget;

/// A path config: its `baseUrl` and `paths`, both resolved to root-relative directories.
struct PathConfig {
    base_url: Option<String>,
    /// Where `paths` targets are relative to: `baseUrl`, else the config's directory.
    paths_base: String,
    paths: Vec<(String, Vec<String>)>,
}

pub struct PathIndex {
    configs: HashMap<String, PathConfig>,
    /// Repository packages by name → their directory.
    packages: Vec<(String, String, Option<String>)>,
}

impl PathIndex {
    pub fn new(rules: &Rules, repo: &Repo, read: &dyn Fn(&str) -> Option<String>) -> PathIndex {
        let mut configs = HashMap::new();
        for file in repo.named(&rules.path_config) {
            if let Some(config) = load_config(file, read, 0) {
                configs.insert(file.clone(), config);
            }
        }
        let mut packages = Vec::new();
        if let Some(manifest) = &rules.package_manifest {
            for file in repo.named(std::slice::from_ref(manifest)) {
                let Some(json) = read(file).and_then(|t| jsonc::parse(&t)) else {
                    continue;
                };
                let Some(name) = json.get("name").and_then(|n| n.as_str()) else {
                    continue;
                };
                let entry = ["source", "types", "module", "main"]
                    .iter()
                    .find_map(|k| json.get(*k).and_then(|v| v.as_str()))
                    .map(str::to_string);
                packages.push((name.to_string(), dirname(file).to_string(), entry));
            }
            // Longest names first so `@a/b-c` wins over `@a/b`.
            packages.sort_by_key(|(n, _, _)| std::cmp::Reverse(n.len()));
        }
        PathIndex { configs, packages }
    }

    pub fn resolve(&self, rules: &Rules, repo: &Repo, from: &str, spec: &str) -> ImportTarget {
        if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".." {
            return match normalize(&join(dirname(from), spec)) {
                Some(p) => try_path(rules, repo, &p),
                None => ImportTarget::Unresolved,
            };
        }
        if spec.starts_with('/') || spec.is_empty() {
            return ImportTarget::Unresolved;
        }
        let config_names = rules.path_config.as_slice();
        let config = repo
            .nearest(dirname(from), config_names)
            .and_then(|c| self.configs.get(&c));
        if let Some(found) = config.and_then(|c| c.map(rules, repo, spec)) {
            return found;
        }
        for (name, dir, entry) in &self.packages {
            let rest = if spec == name {
                ""
            } else if let Some(rest) = spec
                .strip_prefix(name.as_str())
                .and_then(|r| r.strip_prefix('/'))
            {
                rest
            } else {
                continue;
            };
            if rest.is_empty()
                && let Some(entry) = entry
                && let Some(p) = normalize(&join(dir, entry))
                && let found @ ImportTarget::Files(_) = try_path(rules, repo, &p)
            {
                return found;
            }
            let base = if rest.is_empty() {
                dir.clone()
            } else {
                join(dir, rest)
            };
            if let found @ ImportTarget::Files(_) = try_path(rules, repo, &base) {
                return found;
            }
            if let found @ ImportTarget::Files(_) =
                try_path(rules, repo, &join(dir, &join("src", rest)))
            {
                return found;
            }
        }
        ImportTarget::External(rules.external_package(spec))
    }
}

impl PathConfig {
    fn map(&self, rules: &Rules, repo: &Repo, spec: &str) -> Option<ImportTarget> {
        // The pattern with the longest prefix before its `*` wins, as in TypeScript.
        let mut best: Option<(usize, &str, &Vec<String>)> = None;
        for (pattern, targets) in &self.paths {
            let captured = match pattern.split_once('*') {
                Some((pre, post)) => {
                    if spec.len() >= pre.len() + post.len()
                        && spec.starts_with(pre)
                        && spec.ends_with(post)
                    {
                        Some((pre.len(), &spec[pre.len()..spec.len() - post.len()]))
                    } else {
                        None
                    }
                }
                None => (pattern == spec).then_some((usize::MAX, "")),
            };
            if let Some((weight, star)) = captured
                && best.is_none_or(|(w, _, _)| weight > w)
            {
                best = Some((weight, star, targets));
            }
        }
        if let Some((_, star, targets)) = best {
            for target in targets {
                let Some(p) = normalize(&join(&self.paths_base, &target.replace('*', star))) else {
                    continue;
                };
                if let found @ ImportTarget::Files(_) = try_path(rules, repo, &p) {
                    return Some(found);
                }
            }
        }
        let base = self.base_url.as_ref()?;
        let p = normalize(&join(base, spec))?;
        match try_path(rules, repo, &p) {
            found @ ImportTarget::Files(_) => Some(found),
            _ => None,
        }
    }
}

/// Reads a path config, following a relative `extends` a few levels for what it leaves out.
fn load_config(
    file: &str,
    read: &dyn Fn(&str) -> Option<String>,
    depth: usize,
) -> Option<PathConfig> {
    let json = jsonc::parse(&read(file)?)?;
    let dir = dirname(file);
    let options = json.get("compilerOptions");
    let base_url = options
        .and_then(|o| o.get("baseUrl"))
        .and_then(|b| b.as_str())
        .and_then(|b| normalize(&join(dir, b)));
    let paths: Vec<(String, Vec<String>)> = options
        .and_then(|o| o.get("paths"))
        .and_then(|p| p.as_object())
        .map(|obj| {
            obj.iter()
                .map(|(k, v)| {
                    let targets = v
                        .as_array()
                        .map(|a| {
                            a.iter()
                                .filter_map(|t| t.as_str().map(str::to_string))
                                .collect()
                        })
                        .unwrap_or_default();
                    (k.clone(), targets)
                })
                .collect()
        })
        .unwrap_or_default();
    let parent = json
        .get("extends")
        .and_then(|e| e.as_str())
        .filter(|e| e.starts_with('.') && depth < 4)
        .and_then(|e| {
            let p = normalize(&join(dir, e))?;
            let p = if p.ends_with(".json") {
                p
            } else {
                format!("{p}.json")
            };
            load_config(&p, read, depth + 1)
        });
    let has_paths = !paths.is_empty();
    let (base_url, paths, paths_base) = match parent {
        Some(parent) => {
            let base_url = base_url.or(parent.base_url);
            if has_paths {
                let pb = base_url.clone().unwrap_or_else(|| dir.to_string());
                (base_url, paths, pb)
            } else {
                let pb = base_url.clone().unwrap_or(parent.paths_base);
                (base_url, parent.paths, pb)
            }
        }
        None => {
            let pb = base_url.clone().unwrap_or_else(|| dir.to_string());
            (base_url, paths, pb)
        }
    };
    Some(PathConfig {
        base_url,
        paths_base,
        paths,
    })
}

/// A path as written (maybe without extension, maybe a directory) → the file it means.
fn try_path(rules: &Rules, repo: &Repo, path: &str) -> ImportTarget {
    if repo.is_file(path) {
        return ImportTarget::Files(vec![path.to_string()]);
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    if let Some((stem, ext)) = name.rsplit_once('.')
        && let Some(subs) = rules.substitute_extensions.get(ext)
    {
        let stem_path = format!("{}{stem}", &path[..path.len() - name.len()]);
        for sub in subs {
            let candidate = format!("{stem_path}.{sub}");
            if repo.is_file(&candidate) {
                return ImportTarget::Files(vec![candidate]);
            }
        }
    }
    for ext in &rules.try_extensions {
        let candidate = format!("{path}.{ext}");
        if repo.is_file(&candidate) {
            return ImportTarget::Files(vec![candidate]);
        }
    }
    for index in &rules.index_files {
        for ext in &rules.try_extensions {
            let candidate = join(path, &format!("{index}.{ext}"));
            if repo.is_file(&candidate) {
                return ImportTarget::Files(vec![candidate]);
            }
        }
    }
    ImportTarget::Unresolved
}
