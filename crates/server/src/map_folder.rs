//! Where the map may be written: the default `<root>/.navmap/` only when it is navmap's
//! own folder in the root.
//!
//! A cloned repository can plant a `.navmap` that is a symlink to a folder outside the
//! root (or a `map.db`, a `-wal` file, a `.gitignore` that is one): writing the map there
//! would write, or delete, outside the root. Such a folder is refused unless the user
//! named the database explicitly (`--db`, `NAVMAP_DB`). The CLI exits 2; `navmap serve`
//! keeps the map in memory and says so with the stable code [`REFUSED`] (`map_status`
//! warnings). The other half of the rule, never deleting a file that is not navmap's
//! map, lives in `navmap_map` (`Db::open`).

use std::path::Path;

/// The stable code that starts the refusal's message.
pub const REFUSED: &str = "MAP_FOLDER_REFUSED";

/// The names navmap writes in its folder (the database, SQLite's side files, the
/// folder's `.gitignore`).
const WRITTEN: &[&str] = &[
    "map.db",
    "map.db-wal",
    "map.db-shm",
    "map.db-journal",
    ".gitignore",
];

/// `Err(message)` when `<root>/.navmap` must not be written: it is a symlink, not a
/// folder, resolves outside the root (`root` canonical), or holds a symlink where navmap
/// writes.
pub fn check(root: &Path) -> Result<(), String> {
    let dir = root.join(".navmap");
    let shown = dir.display();
    let refuse = |why: String| {
        Err(format!(
            "{REFUSED}: {why}; navmap writes only inside the root. Remove it, or name the database explicitly with --db or NAVMAP_DB"
        ))
    };
    let Ok(meta) = std::fs::symlink_metadata(&dir) else {
        return Ok(()); // Created by navmap on first use.
    };
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(&dir)
            .map(|t| t.display().to_string())
            .unwrap_or_else(|_| "?".into());
        return refuse(format!("{shown} is a symlink (to {target})"));
    }
    if !meta.is_dir() {
        return refuse(format!("{shown} is not a folder"));
    }
    match dir.canonicalize() {
        Ok(real) if real.starts_with(root) => {}
        _ => return refuse(format!("{shown} resolves outside the root")),
    }
    for name in WRITTEN {
        let p = dir.join(name);
        if std::fs::symlink_metadata(&p).is_ok_and(|m| m.file_type().is_symlink()) {
            return refuse(format!("{} is a symlink", p.display()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    #[test]
    fn planted_folders_are_refused() {
        let outside = tempfile::tempdir().unwrap();
        let make = || {
            let d = tempfile::tempdir().unwrap();
            let root = d.path().canonicalize().unwrap();
            (d, root)
        };
        let (_a, root) = make();
        assert!(check(&root).is_ok(), "no folder yet");
        std::fs::create_dir(root.join(".navmap")).unwrap();
        assert!(check(&root).is_ok(), "navmap's own folder");

        let (_b, root) = make();
        symlink(outside.path(), root.join(".navmap")).unwrap();
        let err = check(&root).unwrap_err();
        assert!(err.starts_with(REFUSED) && err.contains("symlink"), "{err}");

        let (_c, root) = make();
        std::fs::create_dir(root.join(".navmap")).unwrap();
        symlink(outside.path().join("x"), root.join(".navmap/.gitignore")).unwrap();
        assert!(check(&root).unwrap_err().contains(".gitignore"));

        let (_d, root) = make();
        std::fs::write(root.join(".navmap"), "x").unwrap();
        assert!(check(&root).unwrap_err().contains("not a folder"));
    }
}
