//! Lists by index in compressed sparse rows ([`Rows`]): adjacency lists (one direction of
//! the graph), a name's definitions and users, a node's children.
//!
//! A node's edges are a range of one shared array (`start[i]..start[i + 1]`): 4 bytes a
//! node and 12 an edge, where a `Vec` per node cost 24 bytes a node plus an allocation per
//! non-empty list (issue 19: the server's resident size). Edits go to an overlay of the
//! lists changed since the last [`Adjacency::freeze`] (copied out of the array on first
//! change), folded back into the array once the overlay is large: a one-file rebuild
//! touches a few lists, a cold build all of them (amortized by doubling). Readers index
//! it as they did the `Vec`s: `&adj[ix]` is the node's edges as a slice.

use crate::model::{Edge, FastMap, Ix};

/// One direction of the graph: a node's edges.
pub(crate) type Adjacency = Rows<Edge>;

/// A list per index (a node, a name), in one shared array (issue 19: a `Vec` per index
/// was 24 bytes an index and an allocation a list).
pub(crate) struct Rows<T> {
    /// Index `i`'s frozen items are `edges[start[i]..start[i + 1]]` (indexes past the end
    /// have none).
    start: Vec<u32>,
    edges: Vec<T>,
    /// The lists edited since the last freeze; they replace the frozen ones.
    changed: FastMap<Ix, Vec<T>>,
}

impl<T> Default for Rows<T> {
    fn default() -> Self {
        Rows {
            start: Vec::new(),
            edges: Vec::new(),
            changed: FastMap::default(),
        }
    }
}

/// The overlay is folded in once it holds more lists than this and than the frozen part.
const FREEZE_AT: usize = 4096;

impl<T: Copy> Rows<T> {
    fn frozen(&self, ix: usize) -> &[T] {
        match (self.start.get(ix), self.start.get(ix + 1)) {
            (Some(&a), Some(&b)) => &self.edges[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The node's list, made editable (copied into the overlay on first change).
    fn edit(&mut self, ix: Ix) -> &mut Vec<T> {
        if !self.changed.contains_key(&ix) {
            let copy = self.frozen(ix as usize).to_vec();
            self.changed.insert(ix, copy);
        }
        self.changed.get_mut(&ix).expect("just inserted")
    }

    pub fn push(&mut self, ix: Ix, e: T) {
        self.edit(ix).push(e);
        if self.changed.len() > FREEZE_AT.max(self.start.len()) {
            self.freeze();
        }
    }

    /// Appends many items at once, each after its index's list and in the order given —
    /// what [`Rows::push`] one by one leaves —, written straight into the shared array: a
    /// cold build's edges without a list per node in the overlay and its copy when folded
    /// in (issue 19: ≈ 14 MB of the stdlib build's peak). A few items are pushed as ever.
    /// `items` is called for each walk over them (up to three, each giving the same items
    /// in the same order): no list of them is built (a cold build's pass of ≈ 100k edges
    /// held them once more, 16 bytes each, beside the arrays).
    pub fn push_all<I>(&mut self, items: impl Fn() -> I)
    where
        I: Iterator<Item = (Ix, T)>,
    {
        if items().take(FREEZE_AT).count() < FREEZE_AT {
            for (ix, e) in items() {
                self.push(ix, e);
            }
            return;
        }
        self.freeze();
        let old = self.start.len().saturating_sub(1);
        // Every index's frozen list followed by its new items in the order given: the
        // frozen lists copied to their new places, then each item to its index's cursor.
        let mut cursor = vec![0u32; old];
        let mut fill = None;
        for (ix, e) in items() {
            let i = ix as usize;
            if i >= cursor.len() {
                cursor.resize(i + 1, 0);
            }
            cursor[i] += 1;
            fill.get_or_insert(e);
        }
        let Some(fill) = fill else { return };
        let nodes = cursor.len();
        let mut start = Vec::with_capacity(nodes + 1);
        let mut at = 0u32;
        for (i, c) in cursor.iter_mut().enumerate() {
            start.push(at);
            let frozen = self.frozen(i).len() as u32;
            at += frozen + *c;
            *c = start[i] + frozen;
        }
        start.push(at);
        let mut edges = vec![fill; at as usize];
        for (i, &a) in start.iter().take(old).enumerate() {
            let list = self.frozen(i);
            edges[a as usize..a as usize + list.len()].copy_from_slice(list);
        }
        for (ix, e) in items() {
            let c = &mut cursor[ix as usize];
            edges[*c as usize] = e;
            *c += 1;
        }
        self.start = start;
        self.edges = edges;
    }

    /// Keeps the node's edges that `keep` accepts (no copy when it accepts them all).
    pub fn retain(&mut self, ix: Ix, mut keep: impl FnMut(&T) -> bool) {
        if self[ix as usize].iter().all(&mut keep) {
            return;
        }
        self.edit(ix).retain(keep);
    }

    /// Takes the node's edges out, leaving it none.
    pub fn take(&mut self, ix: Ix) -> Vec<T> {
        if self[ix as usize].is_empty() {
            return Vec::new();
        }
        std::mem::take(self.edit(ix))
    }

    /// Every node's edges (the nodes in no particular order).
    pub fn all(&self) -> impl Iterator<Item = &T> {
        let frozen = (0..self.start.len().saturating_sub(1))
            .filter(|&i| !self.changed.contains_key(&(i as Ix)))
            .flat_map(|i| self.frozen(i));
        frozen.chain(self.changed.values().flatten())
    }

    /// One more than the highest index with a list (frozen or edited; it may be empty).
    pub fn len(&self) -> usize {
        let edited = self.changed.keys().map(|&k| k as usize + 1).max();
        self.start.len().saturating_sub(1).max(edited.unwrap_or(0))
    }

    /// Every index's list, by index.
    pub fn rows(&self) -> impl Iterator<Item = (usize, &[T])> {
        (0..self.len()).map(|i| (i, &self[i]))
    }

    /// Empties the index's list.
    pub fn clear(&mut self, ix: Ix) {
        if !self[ix as usize].is_empty() {
            self.edit(ix).clear();
        }
    }

    /// How many edges, over every node.
    pub fn total(&self) -> usize {
        self.all().count()
    }

    /// Folds the overlay in when it holds more than a sixteenth of the lists (or of
    /// [`FREEZE_AT`]): after a build that edited many.
    pub fn settle(&mut self) {
        if self.changed.len() * 16 > FREEZE_AT.max(self.start.len()) {
            self.freeze();
        }
    }

    /// Folds the overlay into the shared array (exactly sized). The runs of unedited lists
    /// between two edited ones are copied whole, their starts shifted: the work is the
    /// array's copy and the edited lists, not a look-up in the overlay per index (a cold
    /// build folds the model's lists every 64 files, and that look-up per name was ≈ 1 % of
    /// its CPU).
    pub fn freeze(&mut self) {
        if self.changed.is_empty() {
            return;
        }
        let mut keys: Vec<Ix> = self.changed.keys().copied().collect();
        keys.sort_unstable();
        let old = self.start.len().saturating_sub(1);
        let nodes = (*keys.last().expect("not empty") as usize + 1).max(old);
        let count = self.start.last().map_or(0, |&s| s as usize)
            + keys.iter().map(|&k| self.changed[&k].len()).sum::<usize>()
            - keys
                .iter()
                .map(|&k| self.frozen(k as usize).len())
                .sum::<usize>();
        let mut start = Vec::with_capacity(nodes + 1);
        let mut edges = Vec::with_capacity(count);
        let mut next = 0;
        for &k in &keys {
            let k = k as usize;
            self.copy_frozen(next..k, &mut start, &mut edges);
            start.push(edges.len() as u32);
            edges.extend_from_slice(&self.changed[&(k as Ix)]);
            next = k + 1;
        }
        self.copy_frozen(next..nodes, &mut start, &mut edges);
        start.push(edges.len() as u32);
        self.start = start;
        self.edges = edges;
        self.changed = FastMap::default();
    }

    /// Appends the frozen lists of `range` (none past the frozen part) to a new array.
    fn copy_frozen(&self, range: std::ops::Range<usize>, start: &mut Vec<u32>, edges: &mut Vec<T>) {
        let old = self.start.len().saturating_sub(1);
        let frozen_end = range.end.min(old);
        if range.start < frozen_end {
            let from = self.start[range.start];
            let at = edges.len() as u32;
            start.extend(
                self.start[range.start..frozen_end]
                    .iter()
                    .map(|&s| s - from + at),
            );
            edges.extend_from_slice(&self.edges[from as usize..self.start[frozen_end] as usize]);
        }
        let empty = edges.len() as u32;
        start.extend(std::iter::repeat_n(
            empty,
            range.end - range.start.max(frozen_end),
        ));
    }
}

impl<T: Copy> std::ops::Index<usize> for Rows<T> {
    type Output = [T];

    fn index(&self, ix: usize) -> &[T] {
        if !self.changed.is_empty()
            && let Some(list) = self.changed.get(&(ix as Ix))
        {
            return list;
        }
        self.frozen(ix)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Confidence, EdgeKind};

    fn e(other: Ix) -> Edge {
        Edge {
            other,
            kind: EdgeKind::Calls,
            conf: Confidence::Exact,
            line: other,
        }
    }

    #[test]
    fn edits_read_the_same_before_and_after_a_freeze() {
        let mut adj = Adjacency::default();
        adj.push(3, e(1));
        adj.push(3, e(2));
        adj.push(1, e(3));
        let before: Vec<Vec<Edge>> = (0..6).map(|i| adj[i].to_vec()).collect();
        adj.freeze();
        let after: Vec<Vec<Edge>> = (0..6).map(|i| adj[i].to_vec()).collect();
        assert_eq!(before, after);
        assert_eq!(adj[3], [e(1), e(2)]);
        assert_eq!(adj.total(), 3);
        // An edit of a frozen list copies it; the others stay in the array.
        adj.retain(3, |x| x.other != 1);
        adj.push(5, e(9));
        assert_eq!(adj[3], [e(2)]);
        assert_eq!(adj[1], [e(3)]);
        assert_eq!(adj.take(1), vec![e(3)]);
        assert!(adj[1].is_empty());
        assert_eq!(adj.total(), 2);
        adj.freeze();
        assert_eq!(adj[3], [e(2)]);
        assert_eq!(adj[5], [e(9)]);
        assert!(adj[1].is_empty() && adj[100].is_empty());
    }

    #[test]
    fn a_large_overlay_folds_itself_in() {
        let mut adj = Adjacency::default();
        for i in 0..(FREEZE_AT as Ix + 10) {
            adj.push(i, e(i + 1));
        }
        assert!(adj.changed.len() < FREEZE_AT);
        for i in 0..(FREEZE_AT as Ix + 10) {
            assert_eq!(adj[i as usize], [e(i + 1)]);
        }
        // A few edits stay in the overlay after a build; many are folded in.
        adj.push(1, e(7));
        adj.settle();
        assert!(!adj.changed.is_empty());
        for i in 0..512 {
            adj.push(i, e(i + 2));
        }
        adj.settle();
        assert!(adj.changed.is_empty());
        assert_eq!(adj[1], [e(2), e(7), e(3)]);
    }

    #[test]
    fn many_items_at_once_read_as_pushed_one_by_one() {
        // Frozen lists, an overlay, then a batch large enough to go into the array whole.
        let mut one = Adjacency::default();
        for i in 0..300 {
            one.push(i % 97, e(i));
        }
        one.freeze();
        one.push(5, e(1000));
        let mut all = Adjacency::default();
        for i in 0..300 {
            all.push(i % 97, e(i));
        }
        all.freeze();
        all.push(5, e(1000));
        let items: Vec<(Ix, Edge)> = (0..(FREEZE_AT as Ix * 2))
            .map(|i| ((i * 7919) % 5000, e(i)))
            .collect();
        for &(ix, x) in &items {
            one.push(ix, x);
        }
        all.push_all(|| items.iter().copied());
        assert!(all.changed.is_empty());
        assert_eq!(one.len(), all.len());
        for i in 0..one.len() + 3 {
            assert_eq!(one[i], all[i], "list {i}");
        }
        assert_eq!(one.total(), all.total());
        // A few are pushed as ever.
        all.push_all(|| [(3, e(1)), (6000, e(2))].into_iter());
        assert_eq!(all[6000], [e(2)]);
        assert_eq!(all[3].last(), Some(&e(1)));
    }

    #[test]
    fn a_freeze_keeps_every_list_and_sizes_the_array_exactly() {
        // Rounds of edits (pushes, retains, takes, clears, lists past the end) and freezes,
        // against a `Vec` per index.
        let mut adj = Adjacency::default();
        let mut model: Vec<Vec<Edge>> = vec![Vec::new(); 700];
        let mut seed = 12345u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            seed >> 8
        };
        for round in 0..40 {
            let high = 100 + round * 15;
            for _ in 0..200 {
                let ix = next() % high;
                match next() % 8 {
                    0 => {
                        let cut = next() % 50;
                        adj.retain(ix, |x| x.other % 50 != cut);
                        model[ix as usize].retain(|x| x.other % 50 != cut);
                    }
                    1 => assert_eq!(adj.take(ix), std::mem::take(&mut model[ix as usize])),
                    2 => {
                        adj.clear(ix);
                        model[ix as usize].clear();
                    }
                    _ => {
                        let x = e(next() % 1000);
                        adj.push(ix, x);
                        model[ix as usize].push(x);
                    }
                }
            }
            if round % 3 != 2 {
                adj.freeze();
                assert!(adj.changed.is_empty());
                assert_eq!(adj.edges.len(), adj.edges.capacity());
                assert_eq!(*adj.start.last().unwrap() as usize, adj.edges.len());
            }
            for (i, list) in model.iter().enumerate() {
                assert_eq!(&adj[i], list.as_slice(), "round {round}, list {i}");
            }
        }
    }
}
