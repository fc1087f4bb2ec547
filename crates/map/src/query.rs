//! The read side: node views, neighbors, paths, overview, search, status.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

use crate::error::{MapError, Result};
use crate::id::{check_path, parse_node_id};
use crate::model::{Ix, Model};
use crate::types::*;
use crate::{Confidence, EdgeKind, NodeKind, State};

/// Neighbors found per expansion before the search stops widening (enough to rank).
const NEIGHBOR_EXPANSION_FACTOR: usize = 4;
/// Nodes a path search may visit.
const PATH_VISIT_LIMIT: usize = 500_000;

pub(crate) fn ordered_score(s: f32) -> Reverse<u32> {
    Reverse((s.clamp(0.0, 1.0) * 1_000_000.0) as u32)
}

impl State {
    pub(crate) fn require_built(&self) -> Result<()> {
        if self.built {
            Ok(())
        } else {
            Err(MapError::NotBuilt)
        }
    }

    pub(crate) fn score(&self, ix: Ix) -> f32 {
        self.derived()
            .score
            .get(ix as usize)
            .copied()
            .unwrap_or(0.0)
    }

    pub(crate) fn lookup(&self, id: &str) -> Result<Ix> {
        if let Some(ix) = self.model.find_id(id) {
            return Ok(ix);
        }
        parse_node_id(id)?;
        Err(MapError::NodeNotFound(id.to_string()))
    }

    pub(crate) fn view(&self, ix: Ix) -> NodeView {
        let m = &self.model;
        let n = m.n(ix);
        let file = n.file.get().map(|f| m.f(f));
        let is_def = n.is_def();
        NodeView {
            id: m.node_id(ix),
            kind: n.kind,
            name: m.names.str(n.name).to_string(),
            file: file.map(|f| f.path.to_string()),
            line: file.map(|_| n.name_line + 1),
            end_line: file.map(|_| n.end_line + 1),
            col: (file.is_some() && is_def).then_some(n.name_col + 1),
            qualified_name: m.qname(n).to_string(),
            signature: m.signature(n).map(str::to_string),
            doc: m.doc(n).map(str::to_string),
            exported: n.exported,
            score: (self.score(ix) as f64 * 1000.0).round() / 1000.0,
            cluster: n
                .file
                .get()
                .and_then(|f| self.derived().clustering.of_file.get(&f).copied()),
            stale: file.is_some_and(|f| f.stale),
            parse_errors: file.is_some_and(|f| f.had_errors),
        }
    }

    pub(crate) fn neighbors(
        &self,
        id: &str,
        direction: Direction,
        kinds: Option<&[EdgeKind]>,
        node_kinds: Option<&[NodeKind]>,
        depth: u32,
        max_nodes: usize,
    ) -> Result<NeighborsResult> {
        if !(1..=3).contains(&depth) {
            return Err(MapError::bad_args("depth", "must be 1, 2 or 3"));
        }
        if !(1..=200).contains(&max_nodes) {
            return Err(MapError::bad_args("maxNodes", "must be between 1 and 200"));
        }
        self.require_built()?;
        let start = self.lookup(id)?;
        let m = &self.model;
        let allowed = |k: EdgeKind| kinds.is_none_or(|ks| ks.contains(&k));
        let wanted = |ix: Ix| node_kinds.is_none_or(|ks| ks.contains(&m.n(ix).kind));
        // With a kind filter the wanted nodes may be few among many: walk further.
        let cap = max_nodes * NEIGHBOR_EXPANSION_FACTOR * if node_kinds.is_some() { 8 } else { 1 };
        let mut seen: HashSet<Ix> = HashSet::from([start]);
        // (depth, score, node, edge, confidence, line, direction, via): views are built
        // only for what survives the cut.
        type Found = (
            u32,
            Reverse<u32>,
            Ix,
            EdgeKind,
            Confidence,
            u32,
            Direction,
            Ix,
        );
        let mut found: Vec<Found> = Vec::new();
        // A definition that uses itself (recursion) is its own neighbor, once per edge kind:
        // the walk below never revisits the start.
        if wanted(start) {
            let mut self_kinds: Vec<EdgeKind> = Vec::new();
            for e in m.out[start as usize].iter().filter(|e| e.other == start) {
                if allowed(e.kind) && !self_kinds.contains(&e.kind) {
                    self_kinds.push(e.kind);
                    let dir = if direction == Direction::Out {
                        Direction::Out
                    } else {
                        Direction::In
                    };
                    let score = ordered_score(self.score(start));
                    found.push((1, score, start, e.kind, e.conf, e.line, dir, start));
                }
            }
        }
        let mut beyond_cap: HashSet<Ix> = HashSet::new();
        // Walked level by level, each level's nodes best score first and ties by node ID:
        // which node reaches a neighbor first (its `via`, its edge) and what the caps keep
        // never depend on node numbers, which differ between builds of the same code (the
        // order files are extracted in, a rebuild that adds files).
        let by_score_then_id = |a: &Ix, b: &Ix| {
            ordered_score(self.score(*a))
                .cmp(&ordered_score(self.score(*b)))
                .then_with(|| m.cmp_ids(*a, *b))
        };
        let mut level: Vec<Ix> = vec![start];
        let mut next_level: Vec<Ix> = Vec::new();
        for d in 0..depth {
            level.sort_by(by_score_then_id);
            for node in level.drain(..) {
                if found.len() >= cap {
                    break;
                }
                let mut step: Vec<(Ix, EdgeKind, Confidence, u32, Direction)> = Vec::new();
                if direction != Direction::In {
                    if allowed(EdgeKind::Contains) {
                        for &c in m.children_of(node) {
                            step.push((
                                c,
                                EdgeKind::Contains,
                                Confidence::Exact,
                                u32::MAX,
                                Direction::Out,
                            ));
                        }
                    }
                    for e in &m.out[node as usize] {
                        step.push((e.other, e.kind, e.conf, e.line, Direction::Out));
                    }
                    // A file exports its own exported definitions, not only what it
                    // re-exports (those are stored edges; these are derived here).
                    if allowed(EdgeKind::Exports) && m.n(node).kind == NodeKind::File {
                        for &c in m.children_of(node) {
                            if m.n(c).exported {
                                // No line of its own: the definition's line says it.
                                step.push((
                                    c,
                                    EdgeKind::Exports,
                                    Confidence::Exact,
                                    u32::MAX,
                                    Direction::Out,
                                ));
                            }
                        }
                    }
                }
                if direction != Direction::Out {
                    if allowed(EdgeKind::Contains)
                        && let Some(p) = m.n(node).parent.get()
                    {
                        step.push((
                            p,
                            EdgeKind::Contains,
                            Confidence::Exact,
                            u32::MAX,
                            Direction::In,
                        ));
                    }
                    for (e, line) in m.incoming(node) {
                        step.push((e.other, e.kind, e.conf, line, Direction::In));
                    }
                    if allowed(EdgeKind::Exports)
                        && m.n(node).exported
                        && let Some(p) = m
                            .n(node)
                            .parent
                            .get()
                            .filter(|&p| m.n(p).kind == NodeKind::File)
                    {
                        step.push((
                            p,
                            EdgeKind::Exports,
                            Confidence::Exact,
                            u32::MAX,
                            Direction::In,
                        ));
                    }
                }
                // Filters before caps: on the last level a node of another kind is neither
                // shown nor walked through, so it must not take a place under `max_nodes`.
                let last_level = d + 1 >= depth;
                step.retain(|s| {
                    allowed(s.1) && !seen.contains(&s.0) && (!last_level || wanted(s.0))
                });
                // Per-node cap: a hub contributes its best `max_nodes` (resolved edges first,
                // then by hub score); the rest only count towards `total`.
                if step.len() > max_nodes {
                    let key = |s: &(Ix, EdgeKind, Confidence, u32, Direction)| {
                        (!wanted(s.0), s.2 == Confidence::Candidate)
                    };
                    step.select_nth_unstable_by(max_nodes, |a, b| {
                        key(a)
                            .cmp(&key(b))
                            .then_with(|| by_score_then_id(&a.0, &b.0))
                    });
                    let mut rest: Vec<Ix> = step[max_nodes..].iter().map(|s| s.0).collect();
                    rest.sort_unstable();
                    rest.dedup();
                    step.truncate(max_nodes);
                    let kept: HashSet<Ix> = step.iter().map(|s| s.0).collect();
                    beyond_cap.extend(rest.into_iter().filter(|r| !kept.contains(r)));
                }
                // Best edge first for each neighbor: resolved before candidates, then a use
                // before structure (a header's prototype that names a type of its own file is a
                // use the answer must show, not hide behind `contains`).
                step.sort_by_key(|s| {
                    (
                        s.2 == Confidence::Candidate,
                        matches!(s.1, EdgeKind::Contains | EdgeKind::Exports),
                        s.2,
                        s.1,
                    )
                });
                for (other, kind, conf, line, dir) in step {
                    if !seen.insert(other) {
                        continue;
                    }
                    let score = ordered_score(self.score(other));
                    found.push((d + 1, score, other, kind, conf, line, dir, node));
                    if conf != Confidence::Candidate {
                        next_level.push(other);
                    }
                }
            }
            std::mem::swap(&mut level, &mut next_level);
        }
        found.sort_by(|a, b| {
            (a.0, a.1)
                .cmp(&(b.0, b.1))
                .then_with(|| m.cmp_ids(a.2, b.2))
        });
        found.retain(|f| wanted(f.2));
        let total = found.len()
            + beyond_cap
                .iter()
                .filter(|n| !seen.contains(n) && wanted(**n))
                .count();
        found.truncate(max_nodes);
        let neighbors = found
            .into_iter()
            .map(
                |(depth, _, other, edge, confidence, line, direction, via)| Neighbor {
                    node: self.view(other),
                    edge,
                    direction,
                    depth,
                    via: m.node_id(via),
                    resolved: confidence != Confidence::Candidate,
                    confidence,
                    // The line is in the file of the edge's source.
                    line: (line != u32::MAX).then(|| line + 1),
                },
            )
            .collect();
        Ok(NeighborsResult {
            node: self.view(start),
            neighbors,
            total,
        })
    }
    pub(crate) fn path(
        &self,
        from: &str,
        to: &str,
        kinds: Option<&[EdgeKind]>,
        max_len: u32,
    ) -> Result<PathResult> {
        if !(1..=10).contains(&max_len) {
            return Err(MapError::bad_args("maxLen", "must be between 1 and 10"));
        }
        self.require_built()?;
        let a = self.lookup(from)?;
        let b = self.lookup(to)?;
        let m = &self.model;
        // By default the edges that say "from reaches to": calls, imports, extends,
        // implements, references, and `contains` downwards (an imported file to its
        // definitions); `exports` restates a definition and is followed only when asked.
        let allowed = |k: EdgeKind| match kinds {
            Some(ks) => ks.contains(&k),
            None => k != EdgeKind::Exports,
        };
        if a == b {
            return Ok(PathResult {
                found: true,
                path: vec![PathStep {
                    node: self.view(a),
                    edge_to_next: None,
                }],
            });
        }
        let mut prev: HashMap<Ix, (Ix, PathEdge)> = HashMap::new();
        let mut depth: HashMap<Ix, u32> = HashMap::from([(a, 0)]);
        let mut queue = VecDeque::from([a]);
        let mut found = false;
        'bfs: while let Some(n) = queue.pop_front() {
            let d = depth[&n];
            if d >= max_len || depth.len() > PATH_VISIT_LIMIT {
                continue;
            }
            let mut next: Vec<(Ix, PathEdge)> = Vec::new();
            for e in &m.out[n as usize] {
                if e.conf != Confidence::Candidate && allowed(e.kind) {
                    let edge = PathEdge {
                        kind: e.kind,
                        direction: Direction::Out,
                        confidence: e.conf,
                    };
                    // A call resolved to one overload may go on from any of its group
                    // (`f`, `f~2`: same name, same container): the map cannot tell which
                    // the call picks, and a chain must not stop at the wrong one.
                    next.push((e.other, edge.clone()));
                    for o in self.overloads(e.other) {
                        next.push((o, edge.clone()));
                    }
                }
            }
            if allowed(EdgeKind::Contains) {
                for &c in m.children_of(n) {
                    next.push((
                        c,
                        PathEdge {
                            kind: EdgeKind::Contains,
                            direction: Direction::Out,
                            confidence: Confidence::Exact,
                        },
                    ));
                }
                // Never up from a member to its container: that "finds" paths through
                // any file (`main → main.rs → search.rs → search_path`).
            }
            for (o, edge) in next {
                if depth.contains_key(&o) {
                    continue;
                }
                depth.insert(o, d + 1);
                prev.insert(o, (n, edge));
                if o == b {
                    found = true;
                    break 'bfs;
                }
                queue.push_back(o);
            }
        }
        if !found {
            return Ok(PathResult {
                found: false,
                path: vec![],
            });
        }
        let mut steps = vec![PathStep {
            node: self.view(b),
            edge_to_next: None,
        }];
        let mut cur = b;
        while let Some((p, edge)) = prev.get(&cur) {
            steps.push(PathStep {
                node: self.view(*p),
                edge_to_next: Some(edge.clone()),
            });
            cur = *p;
        }
        steps.reverse();
        Ok(PathResult {
            found: true,
            path: steps,
        })
    }

    /// The other members of `ix`'s overload group: same qualified name, same container.
    fn overloads(&self, ix: Ix) -> impl Iterator<Item = Ix> + '_ {
        let m = &self.model;
        let n = m.n(ix);
        let siblings = match (n.is_def(), n.parent.get()) {
            (true, Some(p)) => m.children_of(p),
            _ => &[],
        };
        siblings
            .iter()
            .copied()
            .filter(move |&s| s != ix && m.n(s).qname == n.qname)
    }

    pub(crate) fn overview(&self, focus: Option<&str>, hubs: usize) -> Result<Overview> {
        if !(1..=20).contains(&hubs) {
            return Err(MapError::bad_args(
                "hubsPerCluster",
                "must be between 1 and 20",
            ));
        }
        let focus = normalise_focus(focus)?;
        self.require_built()?;
        let m = &self.model;
        let in_focus = |p: &str| match &focus {
            None => true,
            Some(f) => {
                p == f || (p.starts_with(f.as_str()) && p.as_bytes().get(f.len()) == Some(&b'/'))
            }
        };
        let mut clusters = Vec::new();
        for c in &self.derived().clustering.clusters {
            let files: Vec<Ix> = c
                .files
                .iter()
                .copied()
                .filter(|&f| m.file(f).is_some_and(|r| in_focus(&r.path)))
                .collect();
            if files.is_empty() {
                continue;
            }
            let mut defs: Vec<Ix> = files
                .iter()
                .flat_map(|&f| m.f(f).defs.iter().copied())
                .collect();
            defs.sort_by(|&a, &b| {
                ordered_score(self.score(a))
                    .cmp(&ordered_score(self.score(b)))
                    .then_with(|| m.cmp_ids(a, b))
            });
            defs.truncate(hubs);
            clusters.push(ClusterView {
                id: c.id,
                label: c.label.clone(),
                files: files.len(),
                hubs: defs.into_iter().map(|d| self.view(d)).collect(),
            });
        }
        let files: Vec<Ix> = m
            .indexed_file_ixs()
            .filter(|&f| in_focus(&m.f(f).path))
            .collect();
        let mut languages = BTreeMap::new();
        for &f in &files {
            *languages
                .entry(m.lang(m.f(f).lang).to_string())
                .or_insert(0) += 1;
        }
        Ok(Overview {
            built_at: self.meta.built_at,
            files: files.len(),
            symbols: files.iter().map(|&f| m.f(f).defs.len()).sum(),
            stale_files: self.stale_files(|p| in_focus(p)),
            languages,
            clusters,
        })
    }

    pub(crate) fn stale_files(&self, keep: impl Fn(&str) -> bool) -> Vec<String> {
        let mut v: Vec<String> = self
            .model
            .file_ixs()
            .map(|f| self.model.f(f))
            .filter(|f| f.stale && keep(&f.path))
            .map(|f| f.path.to_string())
            .collect();
        v.sort();
        v
    }

    pub(crate) fn search(
        &self,
        root_name: &str,
        query: &str,
        kind: Option<NodeKind>,
        limit: usize,
    ) -> Result<SearchResults> {
        if query.trim().chars().count() < 2 {
            return Err(MapError::bad_args("query", "at least 2 characters"));
        }
        if !(1..=100).contains(&limit) {
            return Err(MapError::bad_args("limit", "must be between 1 and 100"));
        }
        self.require_built()?;
        let m = &self.model;
        let q = query.trim();
        let mut hits: Vec<(f64, Ix, MatchKind)> = self
            .derived()
            .search
            .find(m, q)
            .into_iter()
            .filter(|(ix, _, _)| kind.is_none_or(|k| m.n(*ix).kind == k))
            .map(|(ix, mk, closeness)| {
                let tier = match mk {
                    MatchKind::Exact => 10.0,
                    MatchKind::Prefix => 8.0,
                    MatchKind::Substring => 6.0,
                    MatchKind::QualifiedName => 4.0,
                    MatchKind::Path => 2.0,
                    // A small typo of the whole name beats letters spread through a
                    // longer one (`SesionStore`: the class, not a file `session_store.x`).
                    MatchKind::Fuzzy if closeness >= crate::search::SUBSEQUENCE_CLOSENESS => 1.0,
                    MatchKind::Fuzzy => 0.0,
                };
                let case = if m.names.str(m.n(ix).name) == q {
                    0.05
                } else {
                    0.0
                };
                let rank = tier + 1.5 * self.score(ix) as f64 + 0.4 * closeness + case;
                (rank, ix, mk)
            })
            .collect();
        // The names an agent writes (`requests.get`, `sessions.py#Session`, a node ID):
        // what they name is an exact hit, ranked above every other.
        if q.contains(['.', ':', '#', '/'])
            && let Ok((named, ignored)) = self.named_by(root_name, q)
            && ignored.is_empty()
        {
            let named: Vec<Ix> = named
                .into_iter()
                .filter(|&ix| kind.is_none_or(|k| m.n(ix).kind == k))
                .collect();
            hits.retain(|h| !named.contains(&h.1));
            for (i, ix) in named.into_iter().enumerate() {
                hits.push((12.0 - 0.001 * i as f64, ix, MatchKind::Exact));
            }
        }
        let order = |a: &(f64, Ix, MatchKind), b: &(f64, Ix, MatchKind)| {
            b.0.total_cmp(&a.0).then_with(|| m.cmp_ids(a.1, b.1))
        };
        let total = hits.len();
        if hits.len() > limit {
            hits.select_nth_unstable_by(limit, order);
            hits.truncate(limit);
        }
        hits.sort_by(order);
        Ok(SearchResults {
            results: hits
                .into_iter()
                .map(|(rank, ix, matched)| SearchHit {
                    node: self.view(ix),
                    matched,
                    rank: (rank * 1000.0).round() / 1000.0,
                })
                .collect(),
            total,
        })
    }

    pub(crate) fn status(
        &self,
        root: &std::path::Path,
        db_path: &std::path::Path,
        building: bool,
    ) -> Status {
        let m = &self.model;
        let mut languages = BTreeMap::new();
        let mut skipped = BTreeMap::new();
        let mut files = 0;
        let mut lines = 0u64;
        let mut error_files = Vec::new();
        for f in m.file_ixs() {
            let r = m.f(f);
            if let Some(s) = r.skipped {
                *skipped.entry(s).or_insert(0) += 1;
                continue;
            }
            files += 1;
            lines += r.lines as u64;
            if r.had_errors {
                error_files.push(r.path.to_string());
            }
            *languages.entry(m.lang(r.lang).to_string()).or_insert(0) += 1;
        }
        let mut by_conf = BTreeMap::new();
        for e in m.out.all() {
            *by_conf.entry(e.conf).or_insert(0) += 1;
        }
        Status {
            built: self.built,
            building,
            built_at: self.meta.built_at,
            generation: self.meta.generation,
            root: root.to_path_buf(),
            db_path: db_path.to_path_buf(),
            files,
            lines,
            symbols: m.symbol_count(),
            edges: m.edge_count(),
            edges_by_confidence: by_conf,
            stale_files: self.stale_files(|_| true),
            skipped,
            languages,
            files_with_errors: error_files.len(),
            error_files: {
                error_files.sort();
                error_files
            },
        }
    }

    pub(crate) fn nodes_in_file(&self, file: &str) -> Result<Vec<NodeView>> {
        check_path(file).map_err(|e| MapError::bad_args("file", e))?;
        self.require_built()?;
        let m: &Model = &self.model;
        let Some(&f) = m.file_by_path.get(file) else {
            return Ok(vec![]);
        };
        Ok(m.file_nodes(f).into_iter().map(|n| self.view(n)).collect())
    }
}

fn normalise_focus(focus: Option<&str>) -> Result<Option<String>> {
    let Some(f) = focus else { return Ok(None) };
    let f = f.trim().trim_start_matches("./").trim_end_matches('/');
    if f.is_empty() || f == "." {
        return Ok(None);
    }
    check_path(f).map_err(|e| MapError::bad_args("focus", e))?;
    Ok(Some(f.to_string()))
}
