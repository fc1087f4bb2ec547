//! Clusters: groups of files that belong together, for `map_overview`.
//!
//! Louvain community detection (modularity, local moving + aggregation) on the *file*
//! graph, each pair of files weighted by the resolved edges between their symbols:
//! `extends`/`implements` 2, `calls`/`imports` 1, `references`/`exports` 0.5; candidates
//! and external modules are left out. Louvain rather than Leiden: on graphs of a few
//! thousand files it finds the same structure, is short to write without a dependency,
//! and the badly connected communities Leiden fixes matter less for an overview than
//! for analysis. Deterministic: nodes are visited in path order, ties go to the lowest
//! community, no randomness. Files with no edges at all are grouped by directory.
//! Each cluster is labelled by the most common directory of its files; clusters are
//! numbered largest first (ties by label), so numbering is stable across runs.

use std::collections::BTreeMap;

use foldhash::{HashMap, HashMapExt};
use std::hash::{Hash, Hasher};

use crate::model::{Ix, Model, parent_dir};
use crate::{Confidence, EdgeKind};

#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Cluster {
    pub id: u32,
    pub label: String,
    /// Files, by path.
    pub files: Vec<Ix>,
}

#[derive(Default)]
pub(crate) struct Clustering {
    pub clusters: Vec<Cluster>,
    /// File index → cluster id.
    pub of_file: HashMap<Ix, u32>,
    /// Fingerprint of the weighted file graph the clustering was computed from.
    pub fingerprint: u64,
}

fn weight(kind: EdgeKind) -> f64 {
    match kind {
        EdgeKind::Extends | EdgeKind::Implements => 2.0,
        EdgeKind::Calls | EdgeKind::Imports => 1.0,
        EdgeKind::References | EdgeKind::Exports => 0.5,
        EdgeKind::Contains => 0.0,
    }
}

/// Files (sorted by path) and the weighted undirected pairs between them.
fn file_graph(model: &Model) -> (Vec<Ix>, Vec<(usize, usize, f64)>) {
    let mut files: Vec<Ix> = model.indexed_file_ixs().collect();
    files.sort_by(|a, b| model.f(*a).path.cmp(&model.f(*b).path));
    let pos: HashMap<Ix, usize> = files.iter().enumerate().map(|(i, &f)| (f, i)).collect();
    let mut pairs: HashMap<(usize, usize), f64> = HashMap::new();
    for &f in &files {
        let a = pos[&f];
        for s in model.file_nodes(f) {
            for e in &model.out[s as usize] {
                if e.conf == Confidence::Candidate {
                    continue;
                }
                let Some(tf) = model.n(e.other).file.get() else {
                    continue;
                };
                let Some(&b) = pos.get(&tf) else {
                    continue;
                };
                if a == b {
                    continue;
                }
                *pairs.entry((a.min(b), a.max(b))).or_insert(0.0) += weight(e.kind);
            }
        }
    }
    let mut pairs: Vec<(usize, usize, f64)> =
        pairs.into_iter().map(|((a, b), w)| (a, b, w)).collect();
    pairs.sort_by_key(|x| (x.0, x.1));
    (files, pairs)
}

fn fingerprint(model: &Model, files: &[Ix], pairs: &[(usize, usize, f64)]) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    for &f in files {
        model.f(f).path.hash(&mut h);
    }
    for &(a, b, w) in pairs {
        (a, b, w.to_bits()).hash(&mut h);
    }
    h.finish()
}

/// Recomputes the clustering unless the file graph is unchanged.
pub(crate) fn cluster(model: &Model, previous: Clustering) -> Clustering {
    let (files, pairs) = file_graph(model);
    let fp = fingerprint(model, &files, &pairs);
    if fp == previous.fingerprint && !previous.clusters.is_empty() {
        return previous;
    }
    let n = files.len();
    let mut adj: Vec<Vec<(usize, f64)>> = vec![Vec::new(); n];
    for &(a, b, w) in &pairs {
        adj[a].push((b, w));
        adj[b].push((a, w));
    }
    let community = louvain(n, adj.clone());
    // Isolated files: one group per directory instead of a singleton each.
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for i in 0..n {
        let key = if adj[i].is_empty() {
            format!("dir:{}", parent_dir(&model.f(files[i]).path))
        } else {
            format!("c:{:08}", community[i])
        };
        groups.entry(key).or_default().push(i);
    }
    let mut clusters: Vec<(String, Vec<Ix>)> = groups
        .into_values()
        .map(|members| {
            let fs: Vec<Ix> = members.iter().map(|&i| files[i]).collect();
            (label(model, &fs), fs)
        })
        .collect();
    clusters.sort_by(|a, b| {
        b.1.len()
            .cmp(&a.1.len())
            .then_with(|| a.0.cmp(&b.0))
            .then_with(|| model.f(a.1[0]).path.cmp(&model.f(b.1[0]).path))
    });
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut out = Clustering {
        fingerprint: fp,
        ..Default::default()
    };
    for (i, (label, fs)) in clusters.into_iter().enumerate() {
        let count = seen.entry(label.clone()).or_insert(0);
        *count += 1;
        let label = if *count > 1 {
            format!("{label} ({count})")
        } else {
            label
        };
        for &f in &fs {
            out.of_file.insert(f, i as u32);
        }
        out.clusters.push(Cluster {
            id: i as u32,
            label,
            files: fs,
        });
    }
    out
}

fn label(model: &Model, files: &[Ix]) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for &f in files {
        *counts.entry(parent_dir(&model.f(f).path)).or_insert(0) += 1;
    }
    let best = counts
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0)))
        .map(|(d, _)| *d)
        .unwrap_or("");
    if best.is_empty() {
        ".".to_string()
    } else {
        best.to_string()
    }
}

/// Louvain on an undirected weighted graph; returns a community number per node.
pub(crate) fn louvain(n: usize, adj: Vec<Vec<(usize, f64)>>) -> Vec<usize> {
    let mut membership: Vec<usize> = (0..n).collect();
    let mut graph = adj;
    let mut self_loops = vec![0.0; n];
    for _level in 0..10 {
        let size = graph.len();
        let k: Vec<f64> = (0..size)
            .map(|i| graph[i].iter().map(|&(_, w)| w).sum::<f64>() + 2.0 * self_loops[i])
            .collect();
        let m2: f64 = k.iter().sum();
        if m2 <= 0.0 {
            break;
        }
        let mut comm: Vec<usize> = (0..size).collect();
        let mut tot = k.clone();
        let mut moved_any = false;
        let mut w_to: HashMap<usize, f64> = HashMap::new();
        let mut order: Vec<usize> = Vec::new();
        for _pass in 0..20 {
            let mut moved = 0;
            for i in 0..size {
                let ci = comm[i];
                tot[ci] -= k[i];
                w_to.clear();
                order.clear();
                for &(j, w) in &graph[i] {
                    if j == i {
                        continue;
                    }
                    let c = comm[j];
                    let e = w_to.entry(c).or_insert_with(|| {
                        order.push(c);
                        0.0
                    });
                    *e += w;
                }
                let gain = |c: usize, w: f64| w - tot[c] * k[i] / m2;
                let mut best = ci;
                let mut best_gain = gain(ci, w_to.get(&ci).copied().unwrap_or(0.0));
                order.sort_unstable();
                for &c in &order {
                    let g = gain(c, w_to[&c]);
                    if g > best_gain + 1e-12 {
                        best = c;
                        best_gain = g;
                    }
                }
                comm[i] = best;
                tot[best] += k[i];
                if best != ci {
                    moved += 1;
                }
            }
            if moved == 0 {
                break;
            }
            moved_any = true;
        }
        if !moved_any {
            break;
        }
        // Renumber communities by first member, then aggregate.
        let mut renum: HashMap<usize, usize> = HashMap::new();
        for &c in &comm {
            let next = renum.len();
            renum.entry(c).or_insert(next);
        }
        let count = renum.len();
        for m in membership.iter_mut() {
            *m = renum[&comm[*m]];
        }
        let mut agg: Vec<HashMap<usize, f64>> = vec![HashMap::new(); count];
        let mut loops = vec![0.0; count];
        for i in 0..size {
            let ci = renum[&comm[i]];
            loops[ci] += self_loops[i];
            for &(j, w) in &graph[i] {
                let cj = renum[&comm[j]];
                if ci == cj {
                    // Each internal edge is seen from both ends.
                    loops[ci] += w / 2.0;
                } else {
                    *agg[ci].entry(cj).or_insert(0.0) += w;
                }
            }
        }
        graph = agg
            .into_iter()
            .map(|m| {
                let mut v: Vec<(usize, f64)> = m.into_iter().collect();
                v.sort_by_key(|x| x.0);
                v
            })
            .collect();
        self_loops = loops;
        if count == size {
            break;
        }
    }
    membership
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_cliques_joined_by_one_edge_split_in_two() {
        // 0-1-2 fully connected, 3-4-5 fully connected, 2-3 bridge.
        let edges = [(0, 1), (0, 2), (1, 2), (3, 4), (3, 5), (4, 5), (2, 3)];
        let mut adj = vec![Vec::new(); 6];
        for &(a, b) in &edges {
            adj[a].push((b, 1.0));
            adj[b].push((a, 1.0));
        }
        let c = louvain(6, adj.clone());
        assert_eq!(c[0], c[1]);
        assert_eq!(c[1], c[2]);
        assert_eq!(c[3], c[4]);
        assert_eq!(c[4], c[5]);
        assert_ne!(c[0], c[3]);
        assert_eq!(louvain(6, adj), c, "deterministic");
    }
}
