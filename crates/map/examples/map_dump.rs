//! Prints what the map knows about a directory: every file's symbols and their outgoing
//! edges with confidences. A debugging aid for grammar and resolution work.
//!
//! `cargo run -p navmap-map --example map_dump -- <root> [<db path>]` (the database goes
//! to a temporary directory unless given, so the root is only read). With
//! `NAVMAP_DUMP_MENTIONS=1` each definition's mention check (linked and unlinked sites)
//! follows its edges, and docs and exports are printed: two dumps of the same tree then
//! compare everything extraction and resolution produce (used to check that a
//! performance change leaves the map as it was).

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
    let mentions = std::env::var_os("NAVMAP_DUMP_MENTIONS").is_some();
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
            if mentions {
                println!("    doc {:?} exported {}", n.doc, n.exported);
            }
            let out = map
                .neighbors(&n.id, Direction::Out, None, 1, 200)
                .expect("neighbors");
            let mut lines: Vec<String> = Vec::new();
            for e in out.neighbors {
                if e.edge == navmap_map::EdgeKind::Contains {
                    continue;
                }
                lines.push(format!(
                    "    --{}/{}--> {} (line {:?})",
                    e.edge.as_str(),
                    e.confidence.as_str(),
                    e.node.id,
                    e.line
                ));
            }
            // Neighbours come in rank order, which ties may settle either way.
            lines.sort();
            for l in lines {
                println!("{l}");
            }
            if mentions && n.kind != navmap_map::NodeKind::File {
                let m = map.mention_check(&n.id).expect("mention check");
                let mut linked: Vec<String> =
                    m.linked_sites.iter().map(|s| format!("{s:?}")).collect();
                linked.sort();
                println!(
                    "    mentions linked {} {linked:?} excluded {} unlinked {:?}",
                    m.linked, m.excluded, m.unlinked
                );
            }
        }
    }
}
