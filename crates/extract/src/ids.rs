//! Maps and sets keyed by tree-sitter node ids (`Node::id`, an address), with a
//! multiply-and-rotate hasher: the default SipHash guards against collision attacks on
//! untrusted keys, which addresses are not, and costs several times more per lookup (a
//! few lookups per query match add up over a repository).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

pub type IdMap<V> = HashMap<usize, V, BuildHasherDefault<IdHasher>>;
pub type IdSet = HashSet<usize, BuildHasherDefault<IdHasher>>;

/// Hashes one `usize`. The rotation brings the product's well-mixed high bits down to the
/// low bits the table indexes by (addresses are aligned, so their own low bits are zero).
#[derive(Default)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Not used for `usize` keys; kept correct for any other input.
        for b in bytes {
            self.write_u64(u64::from(*b));
        }
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(26);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_ids_spread_over_buckets() {
        let mut seen = std::collections::HashSet::new();
        for i in 0..1024usize {
            let mut h = IdHasher::default();
            h.write_usize(0x7f00_0000_0000 + i * 32);
            seen.insert(h.finish() & 1023);
        }
        // Aligned addresses must not collapse onto a few low-bit buckets.
        assert!(seen.len() > 600, "{} distinct buckets", seen.len());
    }
}
