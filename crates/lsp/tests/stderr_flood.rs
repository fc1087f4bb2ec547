//! A server writing 10 MB to stderr: the pool keeps reading it (the server never blocks on
//! a full pipe), memory stays flat and the tail stays bounded. Alone in its test binary
//! so the resident-size measurement sees no other test's allocations.

mod common;

use std::path::Path;
use std::time::Duration;

use navmap_lsp::{LspConfig, Position};

fn rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ten_megabytes_of_stderr_keep_memory_flat_and_the_tail_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join("a.py"), "fn alpha\nalpha\n").unwrap();
    let mut config = LspConfig {
        env: vec![(
            "FAKE_LSP_STDERR_BYTES".into(),
            (10 * 1024 * 1024).to_string(),
        )],
        stderr_lines: 50,
        stderr_line_chars: 40,
        settle: Duration::from_millis(100),
        ..LspConfig::default()
    };
    config
        .commands
        .insert("py".into(), vec![common::fake_lsp().display().to_string()]);
    let pool = common::pool(root, config);
    // Warm up the allocator and the runtime before measuring.
    let before = rss_kb();
    let defs = pool
        .definition(Path::new("a.py"), Position::new(1, 1))
        .await
        .unwrap();
    assert_eq!(defs.value[0].range.start, Position::new(0, 3));

    // The fake wrote everything before serving; wait until the ring has the last line.
    let tail = || {
        pool.status()
            .into_iter()
            .find(|s| s.language == "py")
            .unwrap()
            .stderr_tail
    };
    for _ in 0..100 {
        if tail()
            .last()
            .is_some_and(|l| l.contains("last stderr line"))
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let tail = tail();
    assert!(
        tail.last().unwrap().contains("last stderr line"),
        "{tail:?}"
    );
    assert!(tail.len() <= 20, "{}", tail.len());
    // 40 characters and the cut marker.
    assert!(tail.iter().all(|l| l.chars().count() <= 41), "{tail:?}");
    let grown = rss_kb().saturating_sub(before);
    eprintln!("resident size grew by {grown} kB while 10 MB of stderr went by");
    assert!(grown < 6 * 1024, "grew by {grown} kB");
    pool.shutdown_all().await;
}
