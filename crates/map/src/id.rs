//! Node IDs (contract §1): `<lang>:<relpath>[#<qualifiedName>[~<n>]]` and `<lang>:ext:<package>`.
//!
//! IDs never hold a line number, so they survive edits that move code. The map looks IDs up
//! by their exact string; this parser only decides whether a string *is* an ID (to answer
//! `BAD_NODE_ID` rather than `NODE_NOT_FOUND`) and takes one apart for callers.

use crate::error::MapError;

/// A node ID taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeIdParts {
    /// `<lang>:<relpath>`: a file node.
    File { lang: String, path: String },
    /// `<lang>:<relpath>#<qualifiedName>[~<n>]`; `dup` is 1 without a `~n` suffix.
    Symbol {
        lang: String,
        path: String,
        qualified_name: String,
        dup: u32,
    },
    /// `<lang>:ext:<package>`: an external module.
    External { lang: String, package: String },
}

/// Parses a node ID; `BadNodeId` says what is wrong with it.
pub fn parse_node_id(id: &str) -> Result<NodeIdParts, MapError> {
    let bad = |reason: &str| MapError::BadNodeId {
        id: id.to_string(),
        reason: reason.to_string(),
    };
    if id.trim() != id || id.is_empty() {
        return Err(bad("empty or padded with whitespace"));
    }
    let (lang, rest) = id
        .split_once(':')
        .ok_or_else(|| bad("expected `<lang>:<path>[#<qualifiedName>]`, found no `:`"))?;
    if lang.is_empty()
        || !lang
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-')
    {
        return Err(bad(
            "the language id must be lowercase letters and digits, e.g. `py`",
        ));
    }
    if let Some(package) = rest.strip_prefix("ext:") {
        if package.is_empty() {
            return Err(bad("an external module ID needs a package after `ext:`"));
        }
        return Ok(NodeIdParts::External {
            lang: lang.to_string(),
            package: package.to_string(),
        });
    }
    let (path, symbol) = match rest.split_once('#') {
        Some((p, s)) => (p, Some(s)),
        None => (rest, None),
    };
    check_path(path).map_err(|r| bad(&r))?;
    let Some(symbol) = symbol else {
        return Ok(NodeIdParts::File {
            lang: lang.to_string(),
            path: path.to_string(),
        });
    };
    let (qualified_name, dup) = match symbol.rsplit_once('~') {
        Some((q, n)) => {
            let n: u32 = n
                .parse()
                .map_err(|_| bad("`~<n>` must be a number of 2 or more"))?;
            if n < 2 {
                return Err(bad("`~<n>` must be a number of 2 or more"));
            }
            (q, n)
        }
        None => (symbol, 1),
    };
    if qualified_name.is_empty() {
        return Err(bad("empty qualified name after `#`"));
    }
    if qualified_name.split('.').any(str::is_empty) {
        return Err(bad("empty segment in the qualified name"));
    }
    Ok(NodeIdParts::Symbol {
        lang: lang.to_string(),
        path: path.to_string(),
        qualified_name: qualified_name.to_string(),
        dup,
    })
}

/// A root-relative, `/`-separated path that stays inside the root.
pub(crate) fn check_path(path: &str) -> Result<(), String> {
    if path.is_empty() {
        return Err("empty path".into());
    }
    if path.starts_with('/') || path.contains('\\') || path.as_bytes().get(1) == Some(&b':') {
        return Err("the path must be relative to the root, with `/` separators".into());
    }
    if path
        .split('/')
        .any(|seg| seg.is_empty() || seg == "." || seg == "..")
    {
        return Err("the path must not contain empty, `.` or `..` segments".into());
    }
    Ok(())
}

/// Formats the ID of a symbol; `dup` 1 gets no suffix.
pub(crate) fn symbol_id(lang: &str, path: &str, qualified_name: &str, dup: u32) -> String {
    if dup <= 1 {
        format!("{lang}:{path}#{qualified_name}")
    } else {
        format!("{lang}:{path}#{qualified_name}~{dup}")
    }
}

#[cfg(test)]
pub(crate) fn file_id(lang: &str, path: &str) -> String {
    format!("{lang}:{path}")
}

#[cfg(test)]
pub(crate) fn external_id(lang: &str, package: &str) -> String {
    format!("{lang}:ext:{package}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_three_shapes() {
        assert_eq!(
            parse_node_id("x:src/a.x").unwrap(),
            NodeIdParts::File {
                lang: "x".into(),
                path: "src/a.x".into()
            }
        );
        assert_eq!(
            parse_node_id("x:src/a.x#Store.get~2").unwrap(),
            NodeIdParts::Symbol {
                lang: "x".into(),
                path: "src/a.x".into(),
                qualified_name: "Store.get".into(),
                dup: 2
            }
        );
        assert_eq!(
            parse_node_id("x:ext:encoding/json").unwrap(),
            NodeIdParts::External {
                lang: "x".into(),
                package: "encoding/json".into()
            }
        );
    }

    #[test]
    fn rejects_malformed_ids() {
        for bad in [
            "",
            " x:a",
            "noColon",
            "X:a.x",
            "x:",
            "x:/abs/a.x",
            "x:../a.x",
            "x:a/../../b.x",
            "x:a.x#",
            "x:a.x#Store.",
            "x:a.x#get~1",
            "x:a.x#get~two",
            "x:ext:",
            "x:a\\b.x",
        ] {
            assert!(
                matches!(parse_node_id(bad), Err(MapError::BadNodeId { .. })),
                "{bad:?} should be rejected"
            );
        }
    }

    #[test]
    fn formats_round_trip() {
        let id = symbol_id("x", "a/b.x", "T.m", 3);
        assert_eq!(id, "x:a/b.x#T.m~3");
        assert!(parse_node_id(&id).is_ok());
        assert_eq!(symbol_id("x", "a.x", "f", 1), "x:a.x#f");
        assert_eq!(external_id("x", "os"), "x:ext:os");
    }
}
