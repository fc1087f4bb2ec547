//! The documents a server has open, kept in step with the disk.
//!
//! Before a position query the file is synced: opened (`didOpen`) the first time, re-sent
//! in full (`didChange`) when its content changed. "Changed" is decided like git's racy
//! check: an unchanged size and mtime are trusted only when the mtime is comfortably older
//! than the last read; otherwise the file is read and its hash compared. The table is an
//! LRU: beyond the cap the least recently used document is closed (`didClose`), which keeps
//! servers that analyse every open file (pyright) from slowing down.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// An mtime closer than this to the last read may hide a same-size edit.
const RACY: Duration = Duration::from_secs(2);

#[derive(Debug, Clone)]
struct Doc {
    version: i32,
    size: u64,
    mtime: Option<SystemTime>,
    read_at: SystemTime,
    hash: u64,
    language_id: String,
    last_use: u64,
}

/// What the caller must send to the server to bring it in step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyncAction {
    None,
    Open {
        language_id: String,
        version: i32,
        text: String,
    },
    Change {
        version: i32,
        text: String,
    },
}

#[derive(Debug, Default)]
pub struct DocTable {
    docs: HashMap<PathBuf, Doc>,
    clock: u64,
}

impl DocTable {
    /// Syncs `path` (absolute). Returns what to send, and the documents evicted to stay
    /// within `cap` (to close first).
    pub fn sync(
        &mut self,
        path: &Path,
        language_id: &str,
        cap: usize,
    ) -> std::io::Result<(SyncAction, Vec<PathBuf>)> {
        self.clock += 1;
        let clock = self.clock;
        let meta = std::fs::metadata(path)?;
        let size = meta.len();
        let mtime = meta.modified().ok();
        if let Some(doc) = self.docs.get_mut(path) {
            doc.last_use = clock;
            let trusted = doc.size == size
                && doc.mtime == mtime
                && mtime
                    .is_some_and(|m| doc.read_at.duration_since(m).is_ok_and(|age| age >= RACY));
            if trusted {
                return Ok((SyncAction::None, Vec::new()));
            }
            let text = read_text(path)?;
            let hash = hash_of(&text);
            doc.size = size;
            doc.mtime = mtime;
            doc.read_at = SystemTime::now();
            if hash == doc.hash {
                return Ok((SyncAction::None, Vec::new()));
            }
            doc.hash = hash;
            doc.version += 1;
            return Ok((
                SyncAction::Change {
                    version: doc.version,
                    text,
                },
                Vec::new(),
            ));
        }
        let text = read_text(path)?;
        let mut evicted = Vec::new();
        while self.docs.len() >= cap.max(1) {
            let Some(oldest) = self
                .docs
                .iter()
                .min_by_key(|(_, d)| d.last_use)
                .map(|(p, _)| p.clone())
            else {
                break;
            };
            self.docs.remove(&oldest);
            evicted.push(oldest);
        }
        self.docs.insert(
            path.to_path_buf(),
            Doc {
                version: 1,
                size,
                mtime,
                read_at: SystemTime::now(),
                hash: hash_of(&text),
                language_id: language_id.to_string(),
                last_use: clock,
            },
        );
        Ok((
            SyncAction::Open {
                language_id: language_id.to_string(),
                version: 1,
                text,
            },
            evicted,
        ))
    }

    /// Forgets a document (deleted file); the caller sends `didClose`.
    pub fn remove(&mut self, path: &Path) -> bool {
        self.docs.remove(path).is_some()
    }

    /// The open documents.
    pub fn paths(&self) -> Vec<PathBuf> {
        self.docs.keys().cloned().collect()
    }

    pub fn is_open(&self, path: &Path) -> bool {
        self.docs.contains_key(path)
    }

    pub fn len(&self) -> usize {
        self.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The open documents with their language ids, most recently used last: what a
    /// restarted server is given again.
    pub fn take_for_replay(&mut self) -> Vec<(PathBuf, String)> {
        let mut docs: Vec<_> = self.docs.drain().collect();
        docs.sort_by_key(|(_, d)| d.last_use);
        docs.into_iter().map(|(p, d)| (p, d.language_id)).collect()
    }
}

/// Reads a document as text; invalid UTF-8 is replaced rather than refused (a server
/// would see the same replacement characters in an editor).
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    Ok(match String::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
}

fn hash_of(text: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_then_changes_only_on_edit_and_evicts_lru() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.py");
        let b = dir.path().join("b.py");
        let c = dir.path().join("c.py");
        for p in [&a, &b, &c] {
            std::fs::write(p, "x = 1\n").unwrap();
        }
        let mut t = DocTable::default();
        let (act, ev) = t.sync(&a, "python", 2).unwrap();
        assert!(matches!(act, SyncAction::Open { version: 1, .. }));
        assert!(ev.is_empty());
        // Same content: nothing to send (the racy window forces a read, the hash agrees).
        assert_eq!(t.sync(&a, "python", 2).unwrap().0, SyncAction::None);
        std::fs::write(&a, "x = 2\n").unwrap();
        assert_eq!(
            t.sync(&a, "python", 2).unwrap().0,
            SyncAction::Change {
                version: 2,
                text: "x = 2\n".into()
            }
        );
        t.sync(&b, "python", 2).unwrap();
        t.sync(&a, "python", 2).unwrap();
        // c evicts b, the least recently used.
        let (_, ev) = t.sync(&c, "python", 2).unwrap();
        assert_eq!(ev, vec![b.clone()]);
        assert!(t.is_open(&a) && t.is_open(&c) && !t.is_open(&b));
        let replay = t.take_for_replay();
        assert_eq!(replay.len(), 2);
        assert_eq!(replay[1].0, c);
        assert!(t.is_empty());
    }
}
