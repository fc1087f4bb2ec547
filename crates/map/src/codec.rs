//! A compact binary encoding for the per-file blobs (references, imports, edges).
//!
//! One blob per file instead of one row per reference keeps a cold build at thousands of
//! row writes instead of hundreds of thousands; a file's facts are always read and
//! written whole anyway. Varints; strings as length + UTF-8.

#[derive(Default)]
pub(crate) struct Writer {
    pub buf: Vec<u8>,
}

impl Writer {
    pub fn u64(&mut self, mut v: u64) {
        loop {
            let byte = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                self.buf.push(byte);
                return;
            }
            self.buf.push(byte | 0x80);
        }
    }

    pub fn u32(&mut self, v: u32) {
        self.u64(v as u64);
    }

    pub fn u8(&mut self, v: u8) {
        self.buf.push(v);
    }

    pub fn str(&mut self, s: &str) {
        self.u64(s.len() as u64);
        self.buf.extend_from_slice(s.as_bytes());
    }

    pub fn opt_str(&mut self, s: Option<&str>) {
        match s {
            Some(s) => {
                self.u8(1);
                self.str(s);
            }
            None => self.u8(0),
        }
    }
}

/// Decoding fails on truncated or malformed input (a corrupt database): the caller
/// recreates the map.
pub(crate) struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

#[derive(Debug)]
pub(crate) struct DecodeError;

type R<T> = Result<T, DecodeError>;

impl<'a> Reader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        Reader { buf, pos: 0 }
    }

    pub fn done(&self) -> bool {
        self.pos >= self.buf.len()
    }

    pub fn u64(&mut self) -> R<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = *self.buf.get(self.pos).ok_or(DecodeError)?;
            self.pos += 1;
            v |= ((b & 0x7f) as u64) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(DecodeError)
    }

    pub fn u32(&mut self) -> R<u32> {
        u32::try_from(self.u64()?).map_err(|_| DecodeError)
    }

    pub fn u8(&mut self) -> R<u8> {
        let b = *self.buf.get(self.pos).ok_or(DecodeError)?;
        self.pos += 1;
        Ok(b)
    }

    pub fn str(&mut self) -> R<&'a str> {
        std::str::from_utf8(self.bytes()?).map_err(|_| DecodeError)
    }

    /// A string's bytes, not checked to be UTF-8 (a reader that compares most strings and
    /// keeps few checks the few it keeps).
    pub fn bytes(&mut self) -> R<&'a [u8]> {
        let len = self.u64()? as usize;
        let end = self.pos.checked_add(len).ok_or(DecodeError)?;
        let bytes = self.buf.get(self.pos..end).ok_or(DecodeError)?;
        self.pos = end;
        Ok(bytes)
    }

    /// [`Reader::opt_str`]'s bytes, not checked to be UTF-8.
    pub fn opt_bytes(&mut self) -> R<Option<&'a [u8]>> {
        match self.u8()? {
            0 => Ok(None),
            1 => self.bytes().map(Some),
            _ => Err(DecodeError),
        }
    }

    /// How many bytes are not read yet (a bound on any count still to come).
    pub fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }

    /// Everything not read yet (consumed).
    pub fn rest(&mut self) -> &'a [u8] {
        let rest = self.buf.get(self.pos..).unwrap_or(&[]);
        self.pos = self.buf.len();
        rest
    }

    pub fn opt_str(&mut self) -> R<Option<&'a str>> {
        match self.u8()? {
            0 => Ok(None),
            1 => self.str().map(Some),
            _ => Err(DecodeError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_truncation() {
        let mut w = Writer::default();
        w.u64(0);
        w.u64(300);
        w.u32(u32::MAX);
        w.str("café");
        w.opt_str(None);
        w.opt_str(Some("x"));
        let mut r = Reader::new(&w.buf);
        assert_eq!(r.u64().unwrap(), 0);
        assert_eq!(r.u64().unwrap(), 300);
        assert_eq!(r.u32().unwrap(), u32::MAX);
        assert_eq!(r.str().unwrap(), "café");
        assert_eq!(r.opt_str().unwrap(), None);
        assert_eq!(r.opt_str().unwrap(), Some("x"));
        assert!(r.done());
        let cut = &w.buf[..w.buf.len() - 1];
        let mut r = Reader::new(cut);
        r.u64().unwrap();
        r.u64().unwrap();
        r.u32().unwrap();
        r.str().unwrap();
        r.opt_str().unwrap();
        assert!(r.opt_str().is_err());
        // Strings read as bytes: the same, unchecked, and truncation still an error.
        let mut r = Reader::new(&w.buf);
        let _ = (r.u64().unwrap(), r.u64().unwrap(), r.u32().unwrap());
        assert_eq!(r.bytes().unwrap(), "café".as_bytes());
        assert_eq!(r.opt_bytes().unwrap(), None);
        assert_eq!(r.opt_bytes().unwrap(), Some(&b"x"[..]));
        let mut r = Reader::new(cut);
        let _ = (r.u64().unwrap(), r.u64().unwrap(), r.u32().unwrap());
        let _ = (r.bytes().unwrap(), r.opt_bytes().unwrap());
        assert!(r.opt_bytes().is_err());
    }
}
