//! Macro arguments parsed again as code. A grammar keeps a macro's arguments as a flat
//! token tree (`assert!(parse(x))`: the identifier `parse` and a token tree `(x)`), so the
//! calls in them are invisible to the queries. The nodes a query marks `@reparse` are
//! copied into a *shadow* text of the same length — blanks everywhere else, line breaks
//! kept, so every byte offset, line and column is the original's — wrapped as the
//! manifest's `[reparse]` says (a function body: `prefix`, each copy followed by
//! `separator`, `suffix` at the end); the shadow is parsed and its uses are the file's.

use navmap_language::Reparse;

/// The shadow text for the byte ranges `spans` of `source`, or `None` when there is
/// nothing to copy or no room for the prefix before the first copy. Nested spans are
/// copied once, with their outermost span.
pub struct Shadow {
    pub text: String,
    /// The parts of `text` to parse (the wrapper and the copies), in order: the parser
    /// skips the blanks between them instead of reading them, but for a few between parts
    /// close together ([`NEAR`]), which it reads as whitespace.
    pub ranges: Vec<tree_sitter::Range>,
}

pub fn shadow(source: &str, spans: &mut [(usize, usize)], wrap: &Reparse) -> Option<Shadow> {
    spans.sort_by_key(|&(s, e)| (s, std::cmp::Reverse(e)));
    let mut outer: Vec<(usize, usize)> = Vec::new();
    for &(s, e) in spans.iter() {
        if outer.last().is_none_or(|&(_, last_end)| s >= last_end) {
            outer.push((s, e));
        }
    }
    let first = outer.first()?.0;
    let bytes = source.as_bytes();
    let mut text: Vec<u8> = bytes
        .iter()
        .map(|&b| if b == b'\n' { b'\n' } else { b' ' })
        .collect();
    // The prefix goes into blanks before the first copy, on one line (a line break it
    // overwrote would shift every later line).
    let at = free_run(&text, 0, first, wrap.prefix.len())?;
    text[at..at + wrap.prefix.len()].copy_from_slice(wrap.prefix.as_bytes());
    let mut parts = vec![(at, at + wrap.prefix.len())];
    let sep = wrap.separator.as_bytes();
    for (i, &(s, e)) in outer.iter().enumerate() {
        text[s..e].copy_from_slice(&bytes[s..e]);
        parts.push((s, e));
        // Each copy is closed by a separator in the blanks before the next one; with no
        // room for it there, the copies run together and that part parses as it may.
        let next = outer.get(i + 1).map_or(text.len(), |n| n.0);
        if let Some(at) = free_run(&text, e, next, sep.len()) {
            text[at..at + sep.len()].copy_from_slice(sep);
            parts.push((at, at + sep.len()));
        }
    }
    let end = text.len();
    text.extend_from_slice(wrap.separator.as_bytes());
    text.extend_from_slice(wrap.suffix.as_bytes());
    parts.push((end, text.len()));
    let parts = merged(parts);
    let ranges = with_points(&text, &parts);
    // Whole UTF-8 sequences were copied and everything else is ASCII.
    let text = String::from_utf8(text).ok()?;
    Some(Shadow { text, ranges })
}

/// Byte ranges (sorted, disjoint) as tree-sitter ranges, their points found in one pass.
fn with_points(text: &[u8], parts: &[(usize, usize)]) -> Vec<tree_sitter::Range> {
    let mut row = 0;
    let mut line_start = 0;
    let mut pos = 0;
    let mut point = |at: usize| {
        for (i, &b) in text[pos..at].iter().enumerate() {
            if b == b'\n' {
                row += 1;
                line_start = pos + i + 1;
            }
        }
        pos = at;
        tree_sitter::Point::new(row, at - line_start)
    };
    parts
        .iter()
        .map(|&(s, e)| {
            let start_point = point(s);
            let end_point = point(e);
            tree_sitter::Range {
                start_byte: s,
                end_byte: e,
                start_point,
                end_point,
            }
        })
        .collect()
}

/// The start of the first run of `len` blanks (no line break) in `text[from..to]`.
fn free_run(text: &[u8], from: usize, to: usize, len: usize) -> Option<usize> {
    let mut run = 0;
    for (i, &b) in text.get(from..to)?.iter().enumerate() {
        run = if b == b' ' { run + 1 } else { 0 };
        if run == len {
            return Some(from + i + 1 - len);
        }
    }
    None
}

/// Parts at most this many bytes apart are parsed as one range, blanks between them
/// included (see [`merged`]).
const NEAR: usize = 8;

/// `parts` (sorted, disjoint) with those at most [`NEAR`] bytes apart joined: the blanks
/// between them are whitespace to the parser, read in a few steps, while every included
/// range costs tree-sitter's lexer a step of a linear search on each jump to a later token
/// (`ts_lexer_goto` looks for the position's range from the first range on).
fn merged(parts: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(parts.len());
    for (s, e) in parts {
        match out.last_mut() {
            Some(last) if s - last.1 <= NEAR => last.1 = e,
            _ => out.push((s, e)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_near_each_other_are_one_range_and_far_ones_stay_apart() {
        let parts = vec![(0, 2), (2 + NEAR, 20), (20, 21), (22 + NEAR, 40)];
        assert_eq!(merged(parts), vec![(0, 21), (22 + NEAR, 40)]);
    }

    #[test]
    fn the_shadow_keeps_the_copies_in_place_and_reads_the_near_blanks() {
        let wrap = Reparse {
            prefix: "fn f(){".into(),
            separator: ";".into(),
            suffix: "}".into(),
        };
        let far = " ".repeat(100);
        let source = format!("fn g() {{\n{far}m!(a(1)); n!(b);{far}o!(c);\n}}\n");
        let at = |text: &str| {
            let s = source.find(text).unwrap();
            (s, s + text.len())
        };
        let (a, b, c) = (at("(a(1))"), at("(b)"), at("(c)"));
        let mut spans = vec![c, a, (a.0 + 2, a.0 + 5), b];
        let shadow = shadow(&source, &mut spans, &wrap).unwrap();
        let ranges: Vec<(usize, usize)> = shadow
            .ranges
            .iter()
            .map(|r| (r.start_byte, r.end_byte))
            .collect();
        // The prefix alone; the first two copies, each with its separator, and the blanks
        // of ` n!` between them; the last copy with its separator, the line breaks and the
        // tail past the source's end.
        let end = source.len();
        assert_eq!(ranges, vec![(0, 7), (a.0, b.1 + 1), (c.0, end + 2)]);
        let text = |(s, e): (usize, usize)| &shadow.text[s..e];
        assert_eq!(text(ranges[0]), "fn f(){");
        assert_eq!(text(ranges[1]), "(a(1));   (b);");
        assert_eq!(text(ranges[2]), "(c);\n \n;}");
        // Positions are the source's: the first copy after `m!` on its line, the tail on
        // the last line.
        assert_eq!(
            shadow.ranges[1].start_point,
            tree_sitter::Point::new(1, 102)
        );
        assert_eq!(shadow.ranges[2].end_point, tree_sitter::Point::new(3, 2));
    }
}
