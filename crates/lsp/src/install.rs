//! Installing a language's server from a package registry into navmap's data directory
//! (`navmap servers install`), from the manifest's `[lsp.install]` recipe.
//!
//! Where packages go, so that [`crate::locate`] finds them without `PATH` edits:
//! - npm: `npm install --prefix <data>/npm …` (programs in `<data>/npm/node_modules/.bin`);
//! - pip: a virtual environment `<data>/venv` (programs in `<data>/venv/bin`);
//! - go: `go install -modcacherw <module>@<version>` from the Go module proxy with
//!   `GOPATH=<data>/go` and `GOCACHE=<data>/go/cache` (programs in `<data>/go/bin`; the
//!   sources, the module cache and the build cache stay in the data dir too);
//! - cargo: `cargo install --locked --root <data>/cargo <crate>@<version>` (programs in
//!   `<data>/cargo/bin`; built in cargo's own temporary folder, which it removes);
//! - rustup: `rustup component add …` (the toolchain's own bin directory, on `PATH`);
//! - apt: `apt-get install -y …`, only when running as root (system directories, on `PATH`).
//!
//! The first registry of the recipe that is usable on this machine is used, in the order
//! npm, pip, go, cargo, rustup, apt; a recipe may list several so that one of them works.
//! The commands' output goes to stderr: stdout belongs to the caller's summary. A variable
//! a command needs is set through `env` in the command itself, so the printed command is
//! the whole story.
//!
//! ```
//! use navmap_language::InstallRecipe;
//! use navmap_lsp::install::{plan, Machine};
//! let recipe = InstallRecipe { npm: vec!["pyright".into()], ..Default::default() };
//! let machine = Machine { npm: true, ..Machine::default() };
//! let steps = plan(&recipe, "/data".as_ref(), &machine).unwrap();
//! assert_eq!(steps.source, "npm");
//! assert_eq!(steps.commands[0][0], "npm");
//! ```

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use navmap_language::InstallRecipe;

/// Whether the recipe lists any package at all.
pub fn has_packages(r: &InstallRecipe) -> bool {
    !(r.npm.is_empty()
        && r.pip.is_empty()
        && r.apt.is_empty()
        && r.rustup.is_empty()
        && r.go.is_empty()
        && r.cargo.is_empty())
}

/// Which package tools this machine offers.
#[derive(Debug, Clone, Copy, Default)]
pub struct Machine {
    pub npm: bool,
    pub python: bool,
    pub go: bool,
    pub cargo: bool,
    pub rustup: bool,
    /// `apt-get` is there and navmap runs as root.
    pub apt_root: bool,
}

impl Machine {
    /// Probes `PATH` for the package tools and the effective user for apt.
    pub fn detect() -> Machine {
        let on_path = |p: &str| {
            crate::locate::Search::new("/nonexistent", None, std::env::var_os("PATH"))
                .find(p)
                .is_some()
        };
        // SAFETY: geteuid has no preconditions and cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        Machine {
            npm: on_path("npm"),
            python: on_path("python3"),
            go: on_path("go"),
            cargo: on_path("cargo"),
            rustup: on_path("rustup"),
            apt_root: root && on_path("apt-get"),
        }
    }
}

/// The commands that install one recipe, and the registry they use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub source: &'static str,
    pub commands: Vec<Vec<String>>,
}

/// The install commands for `recipe` on `machine`, or `None` when no listed registry is
/// usable here (the caller then shows the manifest's `install_hint`).
pub fn plan(recipe: &InstallRecipe, data: &Path, machine: &Machine) -> Option<Plan> {
    let s = |x: &str| x.to_string();
    let d = |p: &str| data.join(p).to_string_lossy().into_owned();
    if !recipe.npm.is_empty() && machine.npm {
        let mut cmd = vec![
            s("npm"),
            s("install"),
            s("--prefix"),
            d("npm"),
            s("--no-audit"),
            s("--no-fund"),
            s("--loglevel=error"),
        ];
        cmd.extend(recipe.npm.iter().cloned());
        return Some(Plan {
            source: "npm",
            commands: vec![cmd],
        });
    }
    if !recipe.pip.is_empty() && machine.python {
        let pip = d("venv/bin/pip");
        let mut install = vec![pip, s("install"), s("--quiet")];
        install.extend(recipe.pip.iter().cloned());
        let mut commands = Vec::new();
        if !data.join("venv/bin/pip").is_file() {
            commands.push(vec![s("python3"), s("-m"), s("venv"), d("venv")]);
        }
        commands.push(install);
        return Some(Plan {
            source: "pip",
            commands,
        });
    }
    if !recipe.go.is_empty() && machine.go {
        let mut cmd = vec![
            s("env"),
            format!("GOPATH={}", d("go")),
            format!("GOBIN={}", d("go/bin")),
            format!("GOCACHE={}", d("go/cache")),
            s("go"),
            s("install"),
            // The module cache is read-only by default: the data dir could not be removed.
            s("-modcacherw"),
        ];
        cmd.extend(recipe.go.iter().cloned());
        return Some(Plan {
            source: "go",
            commands: vec![cmd],
        });
    }
    if !recipe.cargo.is_empty() && machine.cargo {
        // A CARGO_TARGET_DIR of the caller's would keep the build; without it cargo
        // builds in a temporary folder and removes it.
        let mut cmd = vec![
            s("env"),
            s("-u"),
            s("CARGO_TARGET_DIR"),
            s("cargo"),
            s("install"),
            s("--locked"),
            s("--root"),
            d("cargo"),
        ];
        cmd.extend(recipe.cargo.iter().cloned());
        return Some(Plan {
            source: "cargo",
            commands: vec![cmd],
        });
    }
    if !recipe.rustup.is_empty() && machine.rustup {
        let mut cmd = vec![s("rustup"), s("component"), s("add")];
        cmd.extend(recipe.rustup.iter().cloned());
        return Some(Plan {
            source: "rustup",
            commands: vec![cmd],
        });
    }
    if !recipe.apt.is_empty() && machine.apt_root {
        let mut cmd = vec![s("apt-get"), s("install"), s("-y"), s("-q")];
        cmd.extend(recipe.apt.iter().cloned());
        return Some(Plan {
            source: "apt",
            commands: vec![cmd],
        });
    }
    None
}

/// Runs a plan's commands in turn, their output on stderr. An apt install that fails is
/// retried once after `apt-get update` (a fresh machine's package lists may be stale).
pub fn run(plan: &Plan, data: &Path) -> Result<(), String> {
    std::fs::create_dir_all(data)
        .map_err(|e| format!("cannot create the data dir {}: {e}", data.display()))?;
    for cmd in &plan.commands {
        let status = run_one(cmd);
        if status.is_ok() {
            continue;
        }
        if plan.source == "apt"
            && run_one(&["apt-get".into(), "update".into(), "-q".into()]).is_ok()
        {
            run_one(cmd)?;
            continue;
        }
        status?;
    }
    Ok(())
}

fn run_one(cmd: &[String]) -> Result<(), String> {
    eprintln!("navmap: running {}", cmd.join(" "));
    let (program, args) = cmd.split_first().ok_or("empty command")?;
    let status = Command::new(program)
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .stdin(Stdio::null())
        // The caller's stdout carries its summary only.
        .stdout(std::io::stderr())
        .stderr(Stdio::inherit())
        .status()
        .map_err(|e| format!("`{program}` could not run: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed ({status})", cmd.join(" ")))
    }
}

/// The first line a program prints for `--version` (else for `version`, the subcommand
/// form some servers use), each within `timeout` (then killed). `None` when both fail,
/// print nothing, or do not finish: some servers have neither and wait on stdin, which is
/// closed here.
pub fn version(program: &Path, path: &std::ffi::OsStr, timeout: Duration) -> Option<String> {
    ["--version", "version"]
        .iter()
        .find_map(|arg| version_with(program, arg, path, timeout))
}

fn version_with(
    program: &Path,
    arg: &str,
    path: &std::ffi::OsStr,
    timeout: Duration,
) -> Option<String> {
    let mut child = Command::new(program)
        .arg(arg)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .ok()?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() < timeout => std::thread::sleep(Duration::from_millis(50)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let out = child.wait_with_output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|l| l.chars().take(120).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn machine(npm: bool, python: bool, rustup: bool, apt_root: bool) -> Machine {
        Machine {
            npm,
            python,
            rustup,
            apt_root,
            ..Machine::default()
        }
    }

    #[test]
    fn the_first_usable_registry_is_used() {
        let r = InstallRecipe {
            npm: vec![],
            pip: vec!["a-server".into(), "a-runtime".into()],
            apt: vec!["a-server".into()],
            ..Default::default()
        };
        let data = Path::new("/nonexistent-data");
        let p = plan(&r, data, &machine(true, true, true, true)).unwrap();
        assert_eq!(p.source, "pip");
        assert_eq!(
            p.commands,
            [
                vec!["python3", "-m", "venv", "/nonexistent-data/venv"],
                vec![
                    "/nonexistent-data/venv/bin/pip",
                    "install",
                    "--quiet",
                    "a-server",
                    "a-runtime"
                ]
            ]
        );
        let p = plan(&r, data, &machine(true, false, true, true)).unwrap();
        assert_eq!(p.source, "apt");
        assert!(plan(&r, data, &machine(true, false, true, false)).is_none());
        assert!(!has_packages(&InstallRecipe::default()));
    }

    #[test]
    fn go_and_cargo_build_into_the_data_dir() {
        let r = InstallRecipe {
            go: vec!["example.org/srv@v1.2.3".into()],
            cargo: vec!["srv@1.2.3".into()],
            apt: vec!["srv".into()],
            ..Default::default()
        };
        let data = Path::new("/d");
        let all = Machine {
            go: true,
            cargo: true,
            apt_root: true,
            ..Machine::default()
        };
        let p = plan(&r, data, &all).unwrap();
        assert_eq!(p.source, "go");
        assert_eq!(
            p.commands,
            [vec![
                "env",
                "GOPATH=/d/go",
                "GOBIN=/d/go/bin",
                "GOCACHE=/d/go/cache",
                "go",
                "install",
                "-modcacherw",
                "example.org/srv@v1.2.3"
            ]]
        );
        // Every program the go and cargo installs write is in a searched directory.
        let bins = crate::locate::data_bin_dirs(data);
        assert!(bins.contains(&data.join("go/bin")));
        assert!(bins.contains(&data.join("cargo/bin")));
        let p = plan(&r, data, &Machine { go: false, ..all }).unwrap();
        assert_eq!(p.source, "cargo");
        assert_eq!(
            p.commands,
            [vec![
                "env",
                "-u",
                "CARGO_TARGET_DIR",
                "cargo",
                "install",
                "--locked",
                "--root",
                "/d/cargo",
                "srv@1.2.3"
            ]]
        );
        let p = plan(
            &r,
            data,
            &Machine {
                go: false,
                cargo: false,
                ..all
            },
        )
        .unwrap();
        assert_eq!(p.source, "apt");
    }

    #[test]
    fn version_is_bounded() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("slow");
        std::fs::write(&p, "#!/bin/sh\nsleep 5\n").unwrap();
        let ok = t.path().join("fast");
        std::fs::write(&ok, "#!/bin/sh\necho\necho 'fast 1.2.3'\n").unwrap();
        for f in [&p, &ok] {
            let mut perm = std::fs::metadata(f).unwrap().permissions();
            std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o755);
            std::fs::set_permissions(f, perm).unwrap();
        }
        let path = std::env::var_os("PATH").unwrap_or_default();
        let started = Instant::now();
        assert_eq!(version(&p, &path, Duration::from_millis(300)), None);
        assert!(started.elapsed() < Duration::from_secs(4));
        assert_eq!(
            version(&ok, &path, Duration::from_secs(3)).as_deref(),
            Some("fast 1.2.3")
        );
    }
}
