//! `navmap rebuild --root <copy of fixtures/<id>>` indexes every fixture from the command
//! line: exit 0, a one-line summary, and a status that counts only that language's files,
//! none with syntax errors.

mod common;

use std::process::Command;

use common::{NAVMAP, fixture, repo};
use serde_json::Value;

#[test]
fn every_fixture_rebuilds_from_the_command_line() {
    let mut dirs: Vec<String> = std::fs::read_dir(repo().join("fixtures"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    dirs.sort();
    for id in ["c", "cpp", "swift"] {
        assert!(dirs.iter().any(|d| d == id), "fixtures/{id} missing");
    }
    for id in &dirs {
        let dir = fixture(id);
        let root = dir.path().to_str().unwrap();
        let o = Command::new(NAVMAP)
            .args(["rebuild", "--root", root])
            .env_remove("NAVMAP_DB")
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{id}: {o:?}");
        let out = String::from_utf8(o.stdout).unwrap();
        assert_eq!(out.lines().count(), 1, "{id}: {out}");
        let o = Command::new(NAVMAP)
            .args(["status", "--root", root, "--json"])
            .env_remove("NAVMAP_DB")
            .output()
            .unwrap();
        let env: Value = serde_json::from_slice(&o.stdout).unwrap();
        let status = &env["data"];
        assert_eq!(status["built"], true, "{id}: {status}");
        assert_eq!(status["filesWithErrors"], 0, "{id}: {status}");
        let by_language = status["filesByLanguage"].as_object().unwrap();
        assert_eq!(
            by_language.keys().collect::<Vec<_>>(),
            [id],
            "{id}: {status}"
        );
        assert!(by_language[id].as_u64().unwrap() > 0, "{id}: {status}");
        assert!(status["symbols"].as_u64().unwrap() > 0, "{id}: {status}");
    }
}
