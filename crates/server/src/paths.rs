//! Tool arguments that name files: relative to the root, and never outside it.

use std::path::{Component, Path};

use navmap_envelope::ToolError;

/// See [`crate::ServerContext::resolve_file`]. `root` must be canonical.
pub fn resolve_under_root(root: &Path, field: &str, file: &str) -> Result<String, ToolError> {
    let refuse = |why: &str| {
        ToolError::bad_args(
            format!("{field}: {why}"),
            format!("Pass {field} relative to the root with / separators, e.g. \"src/app.py\"."),
        )
        .with_extra("field", field)
        .with_extra("expected", "path relative to the root, inside it")
    };
    if file.is_empty() {
        return Err(refuse("is empty"));
    }
    if file.contains('\0') {
        return Err(refuse("contains a NUL byte"));
    }
    if Path::new(file).is_absolute() || Path::new(file).has_root() {
        return Err(refuse(&format!("{file:?} is absolute")));
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in file.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    return Err(refuse(&format!("{file:?} climbs out of the root")));
                }
            }
            other => parts.push(other),
        }
    }
    if parts.is_empty() {
        return Err(refuse(&format!("{file:?} names the root, not a file")));
    }
    let relative = parts.join("/");

    // Symlinks: the confinement rule (navmap_lsp::confine), the one check every path
    // that reaches an answer or a language server goes through.
    if !navmap_lsp::confine::resolves_inside(root, &root.join(&relative)) {
        return Err(refuse(&format!(
            "{file:?} resolves (through a symlink) outside the root"
        )));
    }
    // `Component` check: a part like "C:" cannot sneak a prefix in on any platform.
    if Path::new(&relative)
        .components()
        .any(|c| !matches!(c, Component::Normal(_)))
    {
        return Err(refuse(&format!("{file:?} is not a plain relative path")));
    }
    Ok(relative)
}

#[cfg(test)]
mod tests {
    use super::*;
    use navmap_envelope::ErrorCode;

    fn root() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(root.join("src/pkg")).unwrap();
        std::fs::write(root.join("src/pkg/a.py"), "x = 1\n").unwrap();
        (dir, root)
    }

    #[test]
    fn relative_paths_are_normalised() {
        let (_d, root) = root();
        let ok = |f| resolve_under_root(&root, "file", f).unwrap();
        assert_eq!(ok("src/pkg/a.py"), "src/pkg/a.py");
        assert_eq!(ok("./src//pkg/../pkg/a.py"), "src/pkg/a.py");
        assert_eq!(ok("src/new/missing.py"), "src/new/missing.py");
    }

    #[test]
    fn escapes_are_bad_args_naming_the_field() {
        let (_d, root) = root();
        for bad in [
            "/etc/passwd",
            "../x.py",
            "src/../../x.py",
            "",
            ".",
            "src/..",
        ] {
            let err = resolve_under_root(&root, "file", bad).unwrap_err();
            assert_eq!(err.code, ErrorCode::BadArgs, "{bad}");
            assert_eq!(err.extras["field"], "file");
            assert!(err.message.starts_with("file: "), "{}", err.message);
        }
    }

    #[test]
    fn symlinks_out_of_the_root_are_refused() {
        let (_d, root) = root();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.py"), "s = 1\n").unwrap();
        std::os::unix::fs::symlink(outside.path(), root.join("link")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret.py"), root.join("f.py")).unwrap();
        std::os::unix::fs::symlink(root.join("src"), root.join("inside")).unwrap();
        for bad in ["link/secret.py", "f.py", "link/missing.py"] {
            let err = resolve_under_root(&root, "file", bad).unwrap_err();
            assert!(err.message.contains("symlink"), "{bad}: {}", err.message);
        }
        assert_eq!(
            resolve_under_root(&root, "file", "inside/pkg/a.py").unwrap(),
            "inside/pkg/a.py"
        );
    }
}
