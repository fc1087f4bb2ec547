//! `file://` URIs ⇄ absolute paths. lsp-types 0.97's `Uri` (fluent-uri) has no
//! `from_file_path`, so the encoding is done here: every byte outside the RFC 3986
//! unreserved set and `/` is percent-encoded, which is what VS Code sends and what every
//! server accepts.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::Uri;

/// The URI of an absolute path. `None` for a relative path.
pub fn from_path(path: &Path) -> Option<Uri> {
    if !path.is_absolute() {
        return None;
    }
    let mut out = String::from("file://");
    for &b in path.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&out).ok()
}

/// The path of a `file:` URI; `None` for another scheme or a remote host.
pub fn to_path(uri: &Uri) -> Option<PathBuf> {
    to_path_str(uri.as_str())
}

/// As [`to_path`], from the URI's text.
pub fn to_path_str(uri: &str) -> Option<PathBuf> {
    let rest = uri
        .strip_prefix("file://")
        .or_else(|| uri.strip_prefix("FILE://"))?;
    // `file:///p` (empty host) or `file://localhost/p`.
    let path = if rest.starts_with('/') {
        rest
    } else {
        rest.strip_prefix("localhost")?
    };
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let bytes = percent_decode(path.as_bytes())?;
    Some(PathBuf::from(OsStr::from_bytes(&bytes)))
}

fn percent_decode(input: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(input.len());
    let mut i = 0;
    while i < input.len() {
        if input[i] == b'%' {
            let hex = input.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(input[i]);
            i += 1;
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_odd_paths() {
        for p in [
            "/tmp/a b/c#d.py",
            "/srv/café/🚀.ts",
            "/x/[id]/page%20.tsx",
            "/a/b:c",
        ] {
            let uri = from_path(Path::new(p)).unwrap();
            assert!(!uri.as_str().contains(' '));
            assert_eq!(to_path(&uri).unwrap(), PathBuf::from(p), "{}", uri.as_str());
        }
    }

    #[test]
    fn decodes_what_servers_send() {
        assert_eq!(
            to_path_str("file:///home/u/caf%C3%A9/x.py").unwrap(),
            PathBuf::from("/home/u/café/x.py")
        );
        // Some servers leave ':' and '@' unencoded, or write a localhost host.
        assert_eq!(
            to_path_str("file://localhost/a/b:c@d").unwrap(),
            PathBuf::from("/a/b:c@d")
        );
        assert!(to_path_str("untitled:Untitled-1").is_none());
        assert!(to_path_str("file://server/share/x").is_none());
        assert!(from_path(Path::new("rel/x.py")).is_none());
    }
}
