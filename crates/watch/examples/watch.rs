//! Watches a directory and prints the signals: `cargo run -p navmap-watch --example watch -- <root> [--poll]`.
//! Prints how long starting took (the initial walk and watches), then every signal, until Ctrl-C.

use std::time::Instant;

use navmap_watch::{Changes, Options, Watcher, sink_fn};

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let root = args.next().unwrap_or_else(|| ".".into());
    let force_polling = args.next().as_deref() == Some("--poll");
    let started = Instant::now();
    let watcher = Watcher::start(
        &root,
        Options {
            force_polling,
            ..Options::default()
        },
        sink_fn(
            |c: &Changes| {
                eprintln!(
                    "changed  {:>6} paths rescan={} {:?}",
                    c.paths.len(),
                    c.rescan,
                    c.paths.iter().take(3).collect::<Vec<_>>()
                )
            },
            |c: Changes| eprintln!("settled  {:>6} paths rescan={}", c.paths.len(), c.rescan),
        ),
    )?;
    let status = watcher.status();
    eprintln!(
        "started in {:?}: {} ({})",
        started.elapsed(),
        status.mode,
        status.detail
    );
    loop {
        std::thread::park();
    }
}
