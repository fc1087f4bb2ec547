//! A file's references and mentions, packed (issue 19: at 28 bytes each they were the
//! largest part of `serve`'s heap after the node table). Each is a few variable-length
//! integers in one byte string per file: its enclosing node, kind, name and qualifier
//! symbols, and its line as a difference from the previous one's. They are read in
//! order (resolving a file, checking the mentions of a name, the calls in a definition),
//! never by position, so nothing is lost by not indexing them.

use crate::model::{Ix, Mention, MentionKind, Ref, Sym};
use crate::{EdgeKind, EdgeKind as K};

/// The references of a file, in extraction order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Refs(Packed);

/// The mentions of a file, in extraction order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Mentions(Packed);

#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Packed {
    bytes: Box<[u8]>,
    len: u32,
}

/// Set in a ref's kind byte when it is a call of a local.
const LOCAL: u8 = 0x80;
/// A ref's kind byte holds its edge kind in the low three bits and its number of
/// arguments in the next four: 0 unknown, `n + 1` for `n` up to [`ARGS_INLINE`] − 1,
/// [`ARGS_INLINE`] + 1 when the number follows as a varint (no byte more for most calls),
/// shifted left by one: its low bit says that the arguments' kinds follow (a symbol).
const ARGS_SHIFT: u8 = 3;
const ARGS_MASK: u8 = 0x0f << ARGS_SHIFT;
const ARGS_INLINE: u8 = 14;

fn put(w: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        w.push(v as u8 | 0x80);
        v >>= 7;
    }
    w.push(v as u8);
}

fn get(r: &mut &[u8]) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    loop {
        let b = r[0];
        *r = &r[1..];
        v |= ((b & 0x7f) as u64) << shift;
        if b < 0x80 {
            return v;
        }
        shift += 7;
    }
}

/// A line as a difference from the previous one (zigzag: they go back too).
fn put_line(w: &mut Vec<u8>, prev: &mut u32, line: u32) {
    let d = line as i64 - *prev as i64;
    put(w, ((d << 1) ^ (d >> 63)) as u64);
    *prev = line;
}

fn get_line(r: &mut &[u8], prev: &mut u32) -> u32 {
    let z = get(r);
    let d = (z >> 1) as i64 ^ -((z & 1) as i64);
    *prev = (*prev as i64 + d) as u32;
    *prev
}

fn opt(s: Option<Sym>) -> u64 {
    s.map_or(0, |s| s as u64 + 1)
}

fn unopt(v: u64) -> Option<Sym> {
    v.checked_sub(1).map(|s| s as Sym)
}

/// The fields a reference and a mention share after their kind byte: name, qualifier,
/// line (a difference from the previous one), column.
fn put_tail(
    w: &mut Vec<u8>,
    prev: &mut u32,
    name: Sym,
    qualifier: Option<Sym>,
    line: u32,
    col: u32,
) {
    put(w, name as u64);
    put(w, opt(qualifier));
    put_line(w, prev, line);
    put(w, col as u64);
}

fn get_tail(r: &mut &[u8], prev: &mut u32) -> (Sym, Option<Sym>, u32, u32) {
    let name = get(r) as Sym;
    let qualifier = unopt(get(r));
    let line = get_line(r, prev);
    (name, qualifier, line, get(r) as u32)
}

fn edge_code(k: EdgeKind) -> u8 {
    K::ALL.iter().position(|&x| x == k).unwrap_or(0) as u8
}

fn mention_code(k: MentionKind) -> u8 {
    match k {
        MentionKind::Import => 0,
        MentionKind::Value => 1,
        MentionKind::Text => 2,
    }
}

const MENTION_KINDS: [MentionKind; 3] =
    [MentionKind::Import, MentionKind::Value, MentionKind::Text];

impl Refs {
    pub fn len(&self) -> usize {
        self.0.len as usize
    }

    pub fn iter(&self) -> impl Iterator<Item = Ref> + '_ {
        let mut r: &[u8] = &self.0.bytes;
        let mut line = 0;
        (0..self.0.len).map(move |_| {
            let from = get(&mut r) as Ix;
            let code = r[0];
            r = &r[1..];
            let mut kinds = None;
            let args = match (code & ARGS_MASK) >> ARGS_SHIFT {
                0 => None,
                n if n <= ARGS_INLINE => Some(u16::from(n - 1)),
                _ => {
                    let v = get(&mut r);
                    if v & 1 == 1 {
                        kinds = Some(get(&mut r) as Sym);
                    }
                    Some((v >> 1) as u16)
                }
            };
            let (name, qualifier, line, col) = get_tail(&mut r, &mut line);
            Ref {
                from,
                kind: K::ALL[(code & !(LOCAL | ARGS_MASK)) as usize],
                local: code & LOCAL != 0,
                args,
                kinds,
                name,
                qualifier,
                line,
                col,
            }
        })
    }
}

impl FromIterator<Ref> for Refs {
    fn from_iter<I: IntoIterator<Item = Ref>>(refs: I) -> Refs {
        let (mut w, mut len, mut line) = (Vec::new(), 0, 0);
        for x in refs {
            put(&mut w, x.from as u64);
            // Kinds are kept only with a known number of arguments.
            let kinds = x.kinds.filter(|_| x.args.is_some());
            let args = match x.args {
                None => 0,
                Some(n) if n < u16::from(ARGS_INLINE) && kinds.is_none() => n as u8 + 1,
                Some(_) => ARGS_INLINE + 1,
            };
            w.push(edge_code(x.kind) | if x.local { LOCAL } else { 0 } | args << ARGS_SHIFT);
            if let Some(n) = x.args.filter(|_| args == ARGS_INLINE + 1) {
                put(&mut w, u64::from(n) << 1 | u64::from(kinds.is_some()));
            }
            if let Some(k) = kinds {
                put(&mut w, u64::from(k));
            }
            put_tail(&mut w, &mut line, x.name, x.qualifier, x.line, x.col);
            len += 1;
        }
        Refs(Packed {
            bytes: w.into_boxed_slice(),
            len,
        })
    }
}

impl Mentions {
    pub fn len(&self) -> usize {
        self.0.len as usize
    }

    pub fn iter(&self) -> impl Iterator<Item = Mention> + '_ {
        let mut r: &[u8] = &self.0.bytes;
        let mut line = 0;
        (0..self.0.len).map(move |_| {
            let from = get(&mut r) as Ix;
            let kind = MENTION_KINDS[r[0] as usize];
            r = &r[1..];
            let (name, qualifier, line, col) = get_tail(&mut r, &mut line);
            Mention {
                from,
                kind,
                name,
                qualifier,
                line,
                col,
            }
        })
    }
}

impl FromIterator<Mention> for Mentions {
    fn from_iter<I: IntoIterator<Item = Mention>>(mentions: I) -> Mentions {
        let (mut w, mut len, mut line) = (Vec::new(), 0, 0);
        for x in mentions {
            put(&mut w, x.from as u64);
            w.push(mention_code(x.kind));
            put_tail(&mut w, &mut line, x.name, x.qualifier, x.line, x.col);
            len += 1;
        }
        Mentions(Packed {
            bytes: w.into_boxed_slice(),
            len,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_and_mentions_read_back_as_written() {
        let refs: Vec<Ref> = (0..300u32)
            .map(|i| Ref {
                from: i * 977,
                kind: K::ALL[i as usize % K::ALL.len()],
                name: i * 7919,
                qualifier: (i % 3 != 0).then_some(u32::MAX - 1 - i),
                line: if i % 5 == 0 {
                    u32::MAX - i
                } else {
                    (i * 31) % 97
                },
                col: i * 3,
                local: i % 4 == 0,
                args: match i % 3 {
                    0 => None,
                    1 => Some((i % 20) as u16),
                    _ => Some(u16::MAX - i as u16),
                },
                kinds: (i % 3 != 0 && i % 7 < 3).then_some(i * 13),
            })
            .collect();
        let packed: Refs = refs.iter().cloned().collect();
        assert_eq!(packed.len(), refs.len());
        assert_eq!(packed.iter().collect::<Vec<_>>(), refs);
        let mentions: Vec<Mention> = (0..300u32)
            .map(|i| Mention {
                from: i,
                kind: MENTION_KINDS[i as usize % 3],
                name: u32::MAX - 1 - i,
                qualifier: (i % 2 == 0).then_some(i),
                line: (i * 7919) % 1000,
                col: u32::MAX - i,
            })
            .collect();
        let packed: Mentions = mentions.iter().cloned().collect();
        assert_eq!(packed.iter().collect::<Vec<_>>(), mentions);
        assert!(Refs::default().iter().next().is_none() && Refs::default().len() == 0);
    }
}
