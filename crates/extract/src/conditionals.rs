//! Conditional compilation as a preprocessor would see it with each block's first
//! condition true: the text of every later branch (`#else`, `#elif` …) and the directive
//! lines themselves become blanks, byte for byte, so positions stay where they were.
//!
//! Used only when a file does not parse as written: both branches of `#if X` / `#else`
//! around a method's header give one body two headers, and tree-sitter then nests every
//! later member inside the first (`Reader.ReadNumberValue.Reset` instead of
//! `Reader.Reset`). The directive words are the language's (`[conditionals]` in its
//! manifest).

use navmap_language::Conditionals;

/// What a directive line does.
enum Directive {
    Open,
    Branch,
    Close,
}

fn directive(line: &str, rules: &Conditionals) -> Option<Directive> {
    let rest = line.trim_start().strip_prefix(rules.prefix.as_str())?;
    let word: String = rest
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let is = |words: &[String]| words.contains(&word);
    if is(&rules.open) {
        Some(Directive::Open)
    } else if is(&rules.branch) {
        Some(Directive::Branch)
    } else if is(&rules.close) {
        Some(Directive::Close)
    } else {
        None
    }
}

/// `source` with only the first branch of each conditional block, or `None` when it has no
/// later branch (nothing would change).
pub fn first_branches(source: &str, rules: &Conditionals) -> Option<String> {
    // Per open block: whether its current branch is a later one (blanked).
    let mut blocks: Vec<bool> = Vec::new();
    let mut out = String::with_capacity(source.len());
    let mut changed = false;
    let mut continued = false;
    for line in source.split_inclusive('\n') {
        let kind = if continued {
            None
        } else {
            directive(line, rules)
        };
        let is_directive = continued || kind.is_some();
        match kind {
            Some(Directive::Open) => blocks.push(false),
            Some(Directive::Branch) => {
                if let Some(later) = blocks.last_mut() {
                    *later = true;
                    changed = true;
                }
            }
            Some(Directive::Close) => {
                blocks.pop();
            }
            None => {}
        }
        let blank = is_directive || blocks.iter().any(|&later| later);
        // A directive continued with `\` goes on over the next line.
        continued = is_directive && line.trim_end().ends_with('\\');
        if blank {
            out.extend(line.bytes().map(|b| {
                if b == b'\n' || b == b'\r' {
                    b as char
                } else {
                    ' '
                }
            }));
        } else {
            out.push_str(line);
        }
    }
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Conditionals {
        Conditionals {
            prefix: "#".into(),
            open: vec!["if".into(), "ifdef".into()],
            branch: vec!["else".into(), "elif".into()],
            close: vec!["endif".into()],
        }
    }

    #[test]
    fn later_branches_and_directives_become_blanks_of_the_same_length() {
        let src = "a\n#if X\nb\n#else\nc\n#endif\nd\n";
        let out = first_branches(src, &rules()).unwrap();
        assert_eq!(out, "a\n     \nb\n     \n \n      \nd\n");
        assert_eq!(out.len(), src.len());
    }

    #[test]
    fn nested_blocks_and_continued_directives() {
        let src = "#if A \\\n  && B\nx\n#elif C\n#if D\ny\n#endif\n#endif\nz\n";
        let out = first_branches(src, &rules()).unwrap();
        let kept: Vec<&str> = out
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(kept, ["x", "z"]);
        assert!(first_branches("#if A\nx\n#endif\n", &rules()).is_none());
    }
}
