//! JSON with comments and trailing commas (tsconfig.json, jsconfig.json) → `serde_json::Value`.

/// Parses JSONC leniently; `None` when it still isn't JSON.
pub fn parse(text: &str) -> Option<serde_json::Value> {
    serde_json::from_str(&strip(text)).ok()
}

/// Removes `//` and `/* */` comments outside strings, and commas right before `}` or `]`.
fn strip(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut in_string = false;
    let mut start = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match (b, bytes.get(i + 1)) {
            (b'"', _) => {
                in_string = true;
                i += 1;
            }
            (b'/', Some(b'/')) => {
                out.push_str(&text[start..i]);
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                start = i;
            }
            (b'/', Some(b'*')) => {
                out.push_str(&text[start..i]);
                i += 2;
                while i + 1 < bytes.len() && !(bytes[i] == b'*' && bytes[i + 1] == b'/') {
                    i += 1;
                }
                i = (i + 2).min(bytes.len());
                start = i;
            }
            _ => i += 1,
        }
    }
    out.push_str(text.get(start..).unwrap_or(""));
    remove_trailing_commas(&out)
}

fn remove_trailing_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let mut escaped = false;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        if c == '"' {
            in_string = true;
        }
        if c == ',' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}') | Some(']')) {
                continue;
            }
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn comments_and_trailing_commas() {
        let v = super::parse(
            r#"{
              // a comment
              "compilerOptions": { /* inline */ "baseUrl": ".", "paths": { "@a/*": ["src/a/*",], }, },
              "x": "http://not-a-comment",
            }"#,
        )
        .unwrap();
        assert_eq!(v["compilerOptions"]["baseUrl"], ".");
        assert_eq!(v["compilerOptions"]["paths"]["@a/*"][0], "src/a/*");
        assert_eq!(v["x"], "http://not-a-comment");
    }
}
