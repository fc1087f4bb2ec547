//! Prints what the map knows about a directory: every file's symbols and their outgoing
//! edges with confidences. A debugging aid for grammar and resolution work.
//!
//! `cargo run -p navmap-map --example map_dump -- <root> [<db path>]` (the database goes
//! to a temporary directory unless given, so the root is only read).

use std::sync::Arc;

use navmap_map::{Direction, Map, MapConfig, RebuildOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let root = args.next().expect("usage: map_dump <root> [<db path>]");
    let tmp = tempfile::tempdir().expect("temp dir");
    let db = args
        .next()
        .map(Into::into)
        .unwrap_or_else(|| tmp.path().join("map.db"));
    let mut config = MapConfig::new(&root);
    config.db_path = Some(db);
    let (map, warnings) = Map::open(config, Arc::new(navmap_grammars::registry())).expect("open");
    for w in warnings {
        eprintln!("warning: {w}");
    }
    let s = map
        .rebuild(RebuildOptions::default(), &|_| {})
        .expect("rebuild");
    eprintln!("{s:?}");
    let overview = map.overview(None, 20).expect("overview");
    for c in &overview.clusters {
        println!("cluster {} {:?} ({} files)", c.id, c.label, c.files);
    }
    for f in map.files().expect("files") {
        for n in map.nodes_in_file(&f).expect("nodes") {
            println!(
                "{} [{}] line {:?} score {:.3}{}",
                n.id,
                n.kind.as_str(),
                n.line,
                n.score,
                n.signature
                    .map(|s| format!("  sig: {s}"))
                    .unwrap_or_default()
            );
            let out = map
                .neighbors(&n.id, Direction::Out, None, 1, 200)
                .expect("neighbors");
            for e in out.neighbors {
                if e.edge == navmap_map::EdgeKind::Contains {
                    continue;
                }
                println!(
                    "    --{}/{}--> {} (line {:?})",
                    e.edge.as_str(),
                    e.confidence.as_str(),
                    e.node.id,
                    e.line
                );
            }
        }
    }
}
