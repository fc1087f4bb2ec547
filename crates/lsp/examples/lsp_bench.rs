//! Latency of live navigation, per installed server, on copies of the fixtures: the cold
//! first query (spawn, initialize, readiness, answer), then p50/p95/max of warm
//! `definition` and `references`, and navmap-lsp's own overhead on top of the server's
//! answer time (sync, readiness check, decoding). Prints figures; asserts nothing.
//!
//! ```text
//! NAVMAP_DATA_DIR=$PWD/.tools cargo run --release -p navmap-lsp --example lsp_bench [-- <queries>]
//! ```

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use navmap_lsp::{LspConfig, LspPool, Position};

struct Case {
    fixture: &'static str,
    server: &'static str,
    api: &'static str,
    store: &'static str,
    /// 0-based position of `refresh` in the API file and in the store file.
    call: (u32, u32),
    refresh: (u32, u32),
}

const CASES: &[Case] = &[
    Case {
        fixture: "py",
        server: "pyright-langserver",
        api: "shop/api.py",
        store: "shop/store.py",
        call: (14, 32),
        refresh: (26, 8),
    },
    Case {
        fixture: "ts",
        server: "typescript-language-server",
        api: "src/api.ts",
        store: "src/store.ts",
        call: (8, 39),
        refresh: (24, 2),
    },
    Case {
        fixture: "rs",
        server: "rust-analyzer",
        api: "src/api.rs",
        store: "src/store.rs",
        call: (7, 39),
        refresh: (23, 11),
    },
];

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let t = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &t);
        } else {
            std::fs::copy(e.path(), &t).unwrap();
        }
    }
}

/// Found where the pool looks (data dir, PATH), and runnable: a rustup proxy without its
/// component fails `--version`; servers that have no `--version` pass by being a file
/// outside rustup's proxy folder.
fn installed(program: &str) -> bool {
    let search = navmap_lsp::locate::Search::new(
        ".",
        navmap_lsp::locate::data_dir(),
        std::env::var_os("PATH"),
    );
    let Some(found) = search.find(program) else {
        return false;
    };
    std::process::Command::new(&found.program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
        || program != "rust-analyzer"
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn report(name: &str, totals: &mut [Duration], overheads: &mut [Duration]) {
    totals.sort();
    overheads.sort();
    println!(
        "  {name:<11} total p50 {} p95 {} max {} | navmap overhead p50 {} p95 {} max {}",
        ms(pct(totals, 0.5)),
        ms(pct(totals, 0.95)),
        ms(*totals.last().unwrap()),
        ms(pct(overheads, 0.5)),
        ms(pct(overheads, 0.95)),
        ms(*overheads.last().unwrap()),
    );
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let queries: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100);
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    for case in CASES {
        if !installed(case.server) {
            println!("{}: skipped ({} not installed)", case.fixture, case.server);
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        copy_dir(&repo.join("fixtures").join(case.fixture), dir.path());
        let pool = LspPool::new(
            dir.path(),
            navmap_grammars::registry(),
            LspConfig::from_env(),
        );
        let api = Path::new(case.api);
        let store = Path::new(case.store);
        let call = Position::new(case.call.0, case.call.1);
        let refresh = Position::new(case.refresh.0, case.refresh.1);

        let t0 = Instant::now();
        let first = pool.definition(api, call).await.expect("first definition");
        println!(
            "{} ({}): cold first definition {} ({} location(s), complete {})",
            case.fixture,
            case.server,
            ms(t0.elapsed()),
            first.value.len(),
            first.complete
        );
        let (mut dt, mut dov, mut rt, mut rov) = (vec![], vec![], vec![], vec![]);
        for _ in 0..queries {
            let t = Instant::now();
            let a = pool.definition(api, call).await.expect("definition");
            let total = t.elapsed();
            dt.push(total);
            dov.push(total.saturating_sub(a.server_time));
            let t = Instant::now();
            let a = pool
                .references(store, refresh, false)
                .await
                .expect("references");
            let total = t.elapsed();
            rt.push(total);
            rov.push(total.saturating_sub(a.server_time));
        }
        report("definition", &mut dt, &mut dov);
        report("references", &mut rt, &mut rov);
        pool.shutdown_all().await;
    }
}
