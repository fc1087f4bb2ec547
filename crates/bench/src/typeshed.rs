//! pyright on a copy of standard-library packages (the `stdlib` corpus: `json`, `email`).
//!
//! pyright resolves an absolute import through its bundled typeshed *stdlib* stubs before
//! the workspace's own code (`Looking for typeshed stdlib path` comes before the Python
//! search paths in its import resolver, and wins): `from email import
//! _header_value_parser` in the copy is the stub, so the copy's definitions have no
//! references from such uses, and pyright's truth is blind to them. Its documented
//! `typeshedPath` setting (pyrightconfig.json) points it at another typeshed: the bench
//! gives it a copy of the bundled one **without the stubs of the corpus's packages** (their
//! files and their lines of `stdlib/VERSIONS`), so that the corpus's own sources are what
//! pyright analyses for them — and the truth is about the code the map read.

use std::path::Path;

/// Copies the typeshed tree `from` to `to` without the stdlib modules `drop` (top-level
/// names: a package directory or a `.pyi`), and without their `VERSIONS` lines.
pub fn copy_without(from: &Path, to: &Path, drop: &[String]) -> Result<(), String> {
    copy_dir(from, to, &|rel: &Path| {
        let mut parts = rel.components().map(|c| c.as_os_str().to_string_lossy());
        let (Some(top), Some(name)) = (parts.next(), parts.next()) else {
            return true;
        };
        let module = name.strip_suffix(".pyi").unwrap_or(&name);
        !(top == "stdlib" && drop.iter().any(|d| d == module))
    })?;
    let versions = to.join("stdlib/VERSIONS");
    let text = std::fs::read_to_string(&versions).map_err(|e| e.to_string())?;
    std::fs::write(&versions, without_versions(&text, drop)).map_err(|e| e.to_string())
}

/// `VERSIONS` text without the lines of the modules `drop` and their submodules
/// (`email: 3.0-`, `email.mime: …`).
pub fn without_versions(text: &str, drop: &[String]) -> String {
    let mut out = String::new();
    for line in text.lines() {
        let module = line.split(':').next().unwrap_or("").trim();
        let top = module.split('.').next().unwrap_or("");
        if line.trim_start().starts_with('#') || !drop.iter().any(|d| d == top) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn copy_dir(from: &Path, to: &Path, keep: &dyn Fn(&Path) -> bool) -> Result<(), String> {
    let mut stack = vec![from.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let rel = dir.strip_prefix(from).map_err(|e| e.to_string())?;
        std::fs::create_dir_all(to.join(rel)).map_err(|e| e.to_string())?;
        for e in std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))? {
            let p = e.map_err(|e| e.to_string())?.path();
            let rel = p.strip_prefix(from).map_err(|e| e.to_string())?;
            if !keep(rel) {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                std::fs::copy(&p, to.join(rel)).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_corpus_packages_leave_the_stubs_and_versions() {
        let drop = vec!["email".to_string(), "json".to_string()];
        let v =
            "# comment\nemail: 3.0-\nemail.mime: 3.0-\njson: 3.0-\njsonschema: 3.0-\nos: 3.0-\n";
        assert_eq!(
            without_versions(v, &drop),
            "# comment\njsonschema: 3.0-\nos: 3.0-\n"
        );

        let tmp = tempfile::tempdir().unwrap();
        let (from, to) = (tmp.path().join("ts"), tmp.path().join("copy"));
        for f in [
            "stdlib/email/message.pyi",
            "stdlib/json/__init__.pyi",
            "stdlib/os/__init__.pyi",
            "stdlib/jsonschema.pyi",
            "stubs/email/x.pyi",
        ] {
            std::fs::create_dir_all(from.join(f).parent().unwrap()).unwrap();
            std::fs::write(from.join(f), "").unwrap();
        }
        std::fs::write(from.join("stdlib/VERSIONS"), v).unwrap();
        copy_without(&from, &to, &drop).unwrap();
        assert!(!to.join("stdlib/email").exists() && !to.join("stdlib/json").exists());
        assert!(to.join("stdlib/os/__init__.pyi").exists());
        assert!(to.join("stdlib/jsonschema.pyi").exists());
        // Only the stdlib stubs go: a third-party stub of the same name stays.
        assert!(to.join("stubs/email/x.pyi").exists());
        let versions = std::fs::read_to_string(to.join("stdlib/VERSIONS")).unwrap();
        assert!(!versions.contains("email") && versions.contains("os: 3.0-"));
    }
}
