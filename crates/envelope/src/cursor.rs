//! Opaque paging cursors.
//!
//! A cursor is base64url (no padding) of a small JSON object: a format version, the
//! generation the answer was computed at (map generation or cached-result id), a hash of
//! the call's other arguments, and the offset reached in each ranked list. Agents treat it
//! as opaque; we decode it strictly so a mangled cursor is `BAD_ARGS` and an outdated one
//! is `CURSOR_STALE`, never a wrong page.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::error::{ErrorCode, ToolError};

const VERSION: u64 = 1;

/// Argument names the envelope handles itself; they never enter [`args_hash`].
pub const RESERVED_ARGS: [&str; 2] = ["tokenBudget", "cursor"];

/// Where the next slice starts, and what it is valid for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    pub generation: u64,
    pub args_hash: u64,
    /// Offset into each ranked list, keyed by the list's path (`/results`).
    pub offsets: BTreeMap<String, usize>,
}

impl Cursor {
    pub fn encode(&self) -> String {
        let offsets: Map<String, Value> = self
            .offsets
            .iter()
            .map(|(k, v)| (k.clone(), Value::from(*v as u64)))
            .collect();
        let inner = json!({
            "v": VERSION,
            "g": self.generation,
            "a": format!("{:016x}", self.args_hash),
            "o": offsets,
        });
        base64url_encode(inner.to_string().as_bytes())
    }

    /// Parses a cursor; anything malformed is `BAD_ARGS` naming the `cursor` field.
    pub fn decode(text: &str) -> Result<Cursor, ToolError> {
        Cursor::try_decode(text).ok_or_else(|| {
            ToolError::bad_args(
                "cursor: not a cursor navmap issued (it does not decode)",
                "Pass the `cursor` string exactly as a previous answer returned it, or omit it.",
            )
            .with_extra("field", "cursor")
            .with_extra("expected", "string from a previous answer's `cursor`")
        })
    }

    fn try_decode(text: &str) -> Option<Cursor> {
        let bytes = base64url_decode(text)?;
        let value: Value = serde_json::from_slice(&bytes).ok()?;
        let obj = value.as_object()?;
        if obj.get("v")?.as_u64()? != VERSION {
            return None;
        }
        let generation = obj.get("g")?.as_u64()?;
        let args_hash = u64::from_str_radix(obj.get("a")?.as_str()?, 16).ok()?;
        let mut offsets = BTreeMap::new();
        for (k, v) in obj.get("o")?.as_object()? {
            offsets.insert(k.clone(), usize::try_from(v.as_u64()?).ok()?);
        }
        Some(Cursor {
            generation,
            args_hash,
            offsets,
        })
    }

    /// `CURSOR_STALE` unless this cursor belongs to the same generation and arguments.
    pub fn check(&self, generation: u64, args_hash: u64) -> Result<(), ToolError> {
        if self.args_hash != args_hash {
            return Err(ToolError::new(
                ErrorCode::CursorStale,
                "cursor was issued for a call with different arguments",
                "Repeat the call without `cursor`, or pass the same arguments the cursor came from.",
            ));
        }
        if self.generation != generation {
            return Err(ToolError::new(
                ErrorCode::CursorStale,
                format!(
                    "cursor belongs to generation {}, the answer is now at generation {}",
                    self.generation, generation
                ),
                "Repeat the call without `cursor` to get the current first slice.",
            ));
        }
        Ok(())
    }
}

/// A stable hash of a call's arguments, leaving out `tokenBudget` and `cursor` (paging
/// with a different budget is fine). Key order does not matter. FNV-1a over a canonical
/// serialisation: stable across processes and Rust versions, unlike `DefaultHasher`.
pub fn args_hash(args: &Map<String, Value>) -> u64 {
    let mut canon = String::new();
    let mut keys: Vec<&String> = args
        .keys()
        .filter(|k| !RESERVED_ARGS.contains(&k.as_str()))
        .collect();
    keys.sort();
    canon.push('{');
    for k in keys {
        canon.push_str(&Value::from(k.as_str()).to_string());
        canon.push(':');
        canonical(&args[k.as_str()], &mut canon);
        canon.push(',');
    }
    canon.push('}');
    fnv1a(canon.as_bytes())
}

fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for k in keys {
                out.push_str(&Value::from(k.as_str()).to_string());
                out.push(':');
                canonical(&map[k.as_str()], out);
                out.push(',');
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for item in items {
                canonical(item, out);
                out.push(',');
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn base64url_decode(text: &str) -> Option<Vec<u8>> {
    let sextet = |c: u8| ALPHABET.iter().position(|a| *a == c).map(|p| p as u32);
    let bytes = text.as_bytes();
    if bytes.len() % 4 == 1 || bytes.len() > 4096 {
        return None;
    }
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let mut n = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            n |= sextet(*c)? << (18 - 6 * i);
        }
        let full = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&full[..chunk.len() - 1]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Cursor {
        Cursor {
            generation: 7,
            args_hash: 0xdead_beef_0000_0001,
            offsets: [("/results".to_string(), 20)].into_iter().collect(),
        }
    }

    #[test]
    fn round_trips() {
        let c = sample();
        let text = c.encode();
        assert!(
            text.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert_eq!(Cursor::decode(&text).unwrap(), c);
    }

    #[test]
    fn base64_round_trips_every_length() {
        for len in 0..20 {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 37 + 11) as u8).collect();
            assert_eq!(base64url_decode(&base64url_encode(&bytes)).unwrap(), bytes);
        }
    }

    #[test]
    fn malformed_is_bad_args() {
        for bad in ["", "!!!!", "abc", "eyJ2IjoxfQ", "x"] {
            let err = Cursor::decode(bad).unwrap_err();
            assert_eq!(err.code, ErrorCode::BadArgs, "{bad}");
            assert_eq!(err.extras["field"], "cursor");
        }
    }

    #[test]
    fn stale_generation_or_args() {
        let c = sample();
        assert!(c.check(7, c.args_hash).is_ok());
        assert_eq!(
            c.check(8, c.args_hash).unwrap_err().code,
            ErrorCode::CursorStale
        );
        assert_eq!(c.check(7, 1).unwrap_err().code, ErrorCode::CursorStale);
    }

    #[test]
    fn args_hash_ignores_order_budget_and_cursor() {
        let a: Map<String, Value> =
            serde_json::from_str(r#"{"query":"x","limit":5,"tokenBudget":100}"#).unwrap();
        let b: Map<String, Value> =
            serde_json::from_str(r#"{"limit":5,"cursor":"abc","query":"x"}"#).unwrap();
        let c: Map<String, Value> = serde_json::from_str(r#"{"limit":6,"query":"x"}"#).unwrap();
        assert_eq!(args_hash(&a), args_hash(&b));
        assert_ne!(args_hash(&a), args_hash(&c));
    }
}
