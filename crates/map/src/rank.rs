//! Hub scores: how central a node is, in [0, 1].
//!
//! PageRank (damping 0.85) over resolved edges — every kind but `contains`, and no
//! candidates — mixed 70/30 with the node's normalised degree (resolved edges in and
//! out), both on a log scale so that a handful of giant hubs does not flatten everything
//! else to zero. PageRank alone under-rates leaf-heavy utilities; degree alone rewards
//! noisy callers. Computed per generation, warm-started from the previous generation's
//! vector, so a one-file change converges in a few iterations.
//!
//! Hand-rolled rather than `petgraph::algo::page_rank`, which is O(V·E) per iteration
//! (it scans every node's in-edges through a dense lookup) — too slow at 100k nodes.

use crate::Confidence;
use crate::model::Model;

const DAMPING: f64 = 0.85;
const MAX_ITERATIONS: usize = 50;
/// L1 change per iteration below which PageRank is considered converged.
const TOLERANCE: f64 = 1e-7;

/// PageRank vector and hub score, both indexed by node index (0 for dead slots).
pub(crate) struct Ranking {
    pub pagerank: Vec<f64>,
    pub score: Vec<f32>,
}

pub(crate) fn rank(model: &Model, previous: &[f64]) -> Ranking {
    let len = model.nodes.len();
    let live: Vec<u32> = model.node_ixs().collect();
    let n = live.len();
    let mut pagerank = vec![0.0; len];
    let mut score = vec![0.0f32; len];
    if n == 0 {
        return Ranking { pagerank, score };
    }
    // Dense CSR of resolved out-edges.
    let mut dense = vec![u32::MAX; len];
    for (i, &ix) in live.iter().enumerate() {
        dense[ix as usize] = i as u32;
    }
    let mut offsets = Vec::with_capacity(n + 1);
    let mut targets = Vec::new();
    let mut degree = vec![0u32; n];
    offsets.push(0u32);
    for (i, &ix) in live.iter().enumerate() {
        for e in &model.out[ix as usize] {
            if e.conf == Confidence::Candidate || e.other == ix {
                continue;
            }
            let t = dense[e.other as usize];
            if t == u32::MAX {
                continue;
            }
            targets.push(t);
            degree[i] += 1;
            degree[t as usize] += 1;
        }
        offsets.push(targets.len() as u32);
    }
    let uniform = 1.0 / n as f64;
    let mut pr: Vec<f64> = live
        .iter()
        .map(|&ix| previous.get(ix as usize).copied().unwrap_or(0.0))
        .collect();
    let sum: f64 = pr.iter().sum();
    if sum <= 0.0 {
        pr.fill(uniform);
    } else {
        // New nodes start at the uniform value; then renormalise.
        for v in pr.iter_mut() {
            if *v <= 0.0 {
                *v = uniform;
            }
        }
        let sum: f64 = pr.iter().sum();
        pr.iter_mut().for_each(|v| *v /= sum);
    }
    let mut next = vec![0.0; n];
    for _ in 0..MAX_ITERATIONS {
        let mut dangling = 0.0;
        next.fill(0.0);
        for i in 0..n {
            let (a, b) = (offsets[i] as usize, offsets[i + 1] as usize);
            if a == b {
                dangling += pr[i];
                continue;
            }
            let share = pr[i] / (b - a) as f64;
            for &t in &targets[a..b] {
                next[t as usize] += share;
            }
        }
        let base = (1.0 - DAMPING) * uniform + DAMPING * dangling * uniform;
        let mut delta = 0.0;
        for i in 0..n {
            let v = base + DAMPING * next[i];
            delta += (v - pr[i]).abs();
            next[i] = v;
        }
        std::mem::swap(&mut pr, &mut next);
        if delta < TOLERANCE {
            break;
        }
    }
    // Relative to the floor every node gets (the teleport share), so that a node nobody
    // points at scores 0.
    let min_pr = pr.iter().cloned().fold(f64::INFINITY, f64::min);
    let max_pr = pr.iter().cloned().fold(0.0, f64::max) - min_pr;
    let max_deg = degree.iter().copied().max().unwrap_or(0) as f64;
    let pr_den = (1.0 + n as f64 * max_pr).ln();
    let deg_den = (1.0 + max_deg).ln();
    for (i, &ix) in live.iter().enumerate() {
        pagerank[ix as usize] = pr[i];
        let p = if pr_den > 0.0 {
            (1.0 + n as f64 * (pr[i] - min_pr)).ln() / pr_den
        } else {
            0.0
        };
        let d = if deg_den > 0.0 {
            (1.0 + degree[i] as f64).ln() / deg_den
        } else {
            0.0
        };
        score[ix as usize] = (0.7 * p + 0.3 * d).clamp(0.0, 1.0) as f32;
    }
    Ranking { pagerank, score }
}
