//! `scripts/check-language-change.sh` (README, grammars/README.md) is what shows that adding
//! a language touches only its directory, its grammar crate in Cargo and one registry line.
//! This runs it in a scratch git repository shaped like this one: a language-only change
//! passes, and a changed core crate, a removed line or a non-grammar Cargo line fails.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A scratch repository holding a copy of the script and a skeleton of the files it
/// judges, with one base commit. Removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Scratch {
    fn new(name: &str) -> Scratch {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let dir = std::env::temp_dir().join(format!(
            "navmap-langchange-{name}-{}-{nanos}",
            std::process::id()
        ));
        let s = Scratch(dir);
        let script =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/check-language-change.sh");
        s.write(
            "scripts/check-language-change.sh",
            &std::fs::read_to_string(script).unwrap(),
        );
        s.write(
            "Cargo.toml",
            "[workspace.dependencies]\ntree-sitter = \"0.25\"\n",
        );
        s.write(
            "grammars/Cargo.toml",
            "[dependencies]\ntree-sitter-go = { workspace = true }\n",
        );
        s.write(
            "grammars/src/lib.rs",
            "pub fn registry() -> Registry {\n    let languages = vec![\n        language_dir!(\"go\"),\n    ];\n    Registry::new(languages)\n}\n",
        );
        s.write("crates/map/src/lib.rs", "pub fn resolve() {}\n");
        s.write(
            "crates/map/tests/fixtures.rs",
            "const CASES: &[&str] = &[\"go\"];\n",
        );
        s.git(&["init", "-q"]);
        s.git(&["add", "-A"]);
        s.git(&["commit", "-qm", "base"]);
        s
    }

    fn write(&self, rel: &str, text: &str) {
        let p = self.0.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    fn append(&self, rel: &str, text: &str) {
        let old = std::fs::read_to_string(self.0.join(rel)).unwrap();
        self.write(rel, &format!("{old}{text}"));
    }

    fn git(&self, args: &[&str]) {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(&self.0)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }

    /// Adds language `zz` the way grammars/README.md says: its directory, its fixture, its
    /// grammar crate in both Cargo files, one registry line and a test table row.
    fn add_language(&self) {
        self.write("grammars/zz/language.toml", "id = \"zz\"\n");
        self.write("grammars/zz/defs.scm", "(function) @definition.function\n");
        self.write("fixtures/zz/shop/store.zz", "store\n");
        self.append("Cargo.toml", "tree-sitter-zz = \"0.1\"\n");
        self.append(
            "grammars/Cargo.toml",
            "tree-sitter-zz = { workspace = true }\n",
        );
        let lib = std::fs::read_to_string(self.0.join("grammars/src/lib.rs")).unwrap();
        self.write(
            "grammars/src/lib.rs",
            &lib.replace(
                "        language_dir!(\"go\"),\n",
                "        language_dir!(\"go\"),\n        language_dir!(\"zz\"),\n",
            ),
        );
        self.append("crates/map/tests/fixtures.rs", "// zz row\n");
    }

    fn check(&self) -> Output {
        Command::new("bash")
            .arg(self.0.join("scripts/check-language-change.sh"))
            .arg("HEAD")
            .current_dir(&self.0)
            .output()
            .expect("bash runs")
    }
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn a_language_only_change_passes() {
    let s = Scratch::new("ok");
    s.add_language();
    let out = s.check();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(String::from_utf8_lossy(&out.stdout).contains("ok: only language additions"));
}

#[test]
fn a_core_crate_change_fails_and_is_named() {
    let s = Scratch::new("core");
    s.add_language();
    s.append("crates/map/src/lib.rs", "pub fn zz_special_case() {}\n");
    let out = s.check();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("crates/map/src/lib.rs changed"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_removed_line_or_a_non_grammar_dependency_fails() {
    let s = Scratch::new("cargo");
    s.add_language();
    s.append("Cargo.toml", "serde = \"1\"\n");
    let out = s.check();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("Cargo.toml: added lines other than a tree-sitter grammar crate"),
        "{}",
        stderr(&out)
    );

    let s = Scratch::new("removed");
    s.add_language();
    s.write(
        "crates/map/tests/fixtures.rs",
        "const CASES: &[&str] = &[];\n",
    );
    let out = s.check();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("lines removed or changed"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn code_beside_the_registry_entries_fails() {
    let s = Scratch::new("registry");
    s.add_language();
    s.append("grammars/src/lib.rs", "pub fn zz_hook() {}\n");
    let out = s.check();
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("added code beside registry entries"),
        "{}",
        stderr(&out)
    );
}
