//! Fitting an answer into its budget and writing the envelope text.
//!
//! The order of cuts is contract §2's: rank and cut the declared lists (largest prefix that
//! fits, by binary search), then remove `snippet` fields, then shorten long strings with a
//! visible `…`, and as a last resort answer with a minimal envelope that says it was cut.
//! Every candidate is measured exactly as it will be written, so `used ≤ effective` holds
//! by construction rather than by estimate.

use std::io;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::budget::{Budget, MAX_TOKEN_BUDGET, MIN_TOKEN_BUDGET, estimate_tokens};
use crate::cursor::Cursor;
use crate::error::ToolError;
use crate::payload::{Payload, Ranker};

/// The per-call facts the envelope needs besides the tool's answer.
#[derive(Debug, Clone, Copy)]
pub struct Request<'a> {
    pub budget: Budget,
    /// The decoded `cursor` argument, if the call passed one.
    pub cursor: Option<&'a Cursor>,
    /// [`crate::args_hash`] of the call's arguments; cursors are bound to it.
    pub args_hash: u64,
}

impl<'a> Request<'a> {
    pub fn new(budget: Budget) -> Self {
        Request {
            budget,
            cursor: None,
            args_hash: 0,
        }
    }
}

/// A finished envelope: the compact JSON text of the one MCP content part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    pub text: String,
    /// `isError` is `!ok`.
    pub ok: bool,
    /// `ceil(chars / 4)` of `text`; equals `tokenBudget.used` on success.
    pub tokens: usize,
}

/// Renders a tool's result (answer or error) within the request's budget.
pub fn render(result: Result<Payload, ToolError>, req: &Request<'_>) -> Rendered {
    match result.and_then(|payload| render_ok(payload, req)) {
        Ok(rendered) => rendered,
        Err(err) => render_error(&err, req.budget),
    }
}

/// Renders `{"ok":false,"error":{…}}`, shortening its strings if it does not fit.
pub fn render_error(err: &ToolError, budget: Budget) -> Rendered {
    let limit = budget.effective();
    let mut extras = err.extras.clone();
    extras.retain(|k, _| !matches!(k.as_str(), "code" | "message" | "hint"));
    let fits = |e: &ErrorOut| {
        estimate_len(&ErrEnvelope {
            ok: false,
            error: e,
        })
        .div_ceil(4)
            <= limit
    };
    let full = ErrorOut {
        code: err.code.as_str(),
        message: err.message.clone(),
        hint: err.hint.clone(),
        extras,
    };
    if fits(&full) {
        return finish_error(&full);
    }
    // Everything but the code (what agents match on) may be shortened.
    let shortened = |cap: usize| {
        let mut e = full.clone();
        shorten_one(&mut e.message, cap);
        shorten_one(&mut e.hint, cap);
        for v in e.extras.values_mut() {
            shorten_strings(v, cap);
        }
        e
    };
    let longest = [full.message.chars().count(), full.hint.chars().count()]
        .into_iter()
        .chain(full.extras.values().map(longest_string))
        .max()
        .unwrap_or(0);
    if let Some(cap) = largest(1, longest.saturating_sub(1), |cap| fits(&shortened(cap))) {
        return finish_error(&shortened(cap));
    }
    finish_error(&ErrorOut {
        code: err.code.as_str(),
        message: format!("The error did not fit tokenBudget={limit}."),
        hint: "Raise tokenBudget.".to_string(),
        extras: Map::new(),
    })
}

fn finish_error(error: &ErrorOut) -> Rendered {
    let text = serde_json::to_string(&ErrEnvelope { ok: false, error }).unwrap_or_default();
    Rendered {
        tokens: estimate_tokens(&text),
        text,
        ok: false,
    }
}

#[derive(Serialize)]
struct ErrEnvelope<'a> {
    ok: bool,
    error: &'a ErrorOut,
}

/// The `error` object, in the contract's key order whatever the map type orders.
#[derive(Clone, Serialize)]
struct ErrorOut {
    code: &'static str,
    message: String,
    hint: String,
    #[serde(flatten)]
    extras: Map<String, Value>,
}

#[derive(Serialize)]
struct OkEnvelope<'a> {
    ok: bool,
    data: &'a Value,
    #[serde(rename = "tokenBudget")]
    token_budget: TokenBudgetOut,
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    dropped: Option<&'a Dropped>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cursor: Option<&'a str>,
    warnings: &'a [String],
}

#[derive(Serialize)]
struct TokenBudgetOut {
    requested: i64,
    used: usize,
    max: i64,
}

/// `dropped` of the envelope.
#[derive(Debug, Clone, Serialize)]
struct Dropped {
    kind: String,
    count: usize,
    total: usize,
    note: String,
}

/// A declared list, taken out of `data`, ranked and advanced past the cursor.
struct List {
    path: String,
    kind: String,
    narrowing: String,
    /// Items from the cursor's offset on.
    items: Vec<Value>,
    offset: usize,
    /// Length of the whole ranked list (before the cursor's offset).
    total: usize,
}

/// One way of cutting: keep at most `keep` items per list, maybe strip snippets, maybe
/// cap every string at `cap` characters.
#[derive(Clone, Copy)]
struct Cut {
    keep: usize,
    strip: bool,
    cap: Option<usize>,
}

struct Candidate {
    data: Value,
    truncated: bool,
    dropped: Option<Dropped>,
    cursor: Option<String>,
    warnings: Vec<String>,
}

struct Fitter {
    skeleton: Value,
    lists: Vec<List>,
    /// All warnings, the clamp warning (if any) last.
    warnings: Vec<String>,
    clamp_warning: Option<String>,
    narrowing: String,
    generation: u64,
    args_hash: u64,
    budget: Budget,
}

fn render_ok(payload: Payload, req: &Request<'_>) -> Result<Rendered, ToolError> {
    if let Some(cursor) = req.cursor {
        cursor.check(payload.generation, req.args_hash)?;
    }
    let Payload {
        mut data,
        lists: specs,
        mut warnings,
        generation,
        narrowing,
    } = payload;
    let budget = req.budget;
    let clamp_warning = budget.clamped().then(|| {
        format!(
            "tokenBudget {} is outside [{MIN_TOKEN_BUDGET}, {MAX_TOKEN_BUDGET}]; using {}.",
            budget.requested(),
            budget.effective()
        )
    });
    warnings.extend(clamp_warning.clone());

    let mut lists: Vec<List> = Vec::new();
    for spec in specs {
        if lists.iter().any(|l| l.path == spec.path) {
            continue;
        }
        // A path that is missing or not an array is a tool bug; the list is simply not
        // truncatable (strings still shorten), rather than a failed answer.
        let Some(Value::Array(slot)) = data.pointer_mut(&spec.path) else {
            continue;
        };
        let mut items = std::mem::take(slot);
        if let Ranker::By(cmp) = &spec.ranker {
            items.sort_by(|a, b| cmp(a, b));
        }
        let total = items.len();
        let offset = req
            .cursor
            .and_then(|c| c.offsets.get(&spec.path).copied())
            .unwrap_or(0)
            .min(total);
        items.drain(..offset);
        lists.push(List {
            path: spec.path,
            kind: spec.kind,
            narrowing: spec.narrowing,
            items,
            offset,
            total,
        });
    }

    let fitter = Fitter {
        skeleton: data,
        lists,
        warnings,
        clamp_warning,
        narrowing,
        generation,
        args_hash: req.args_hash,
        budget,
    };
    Ok(fitter.fit())
}

impl Fitter {
    fn fit(&self) -> Rendered {
        let max_keep = self.lists.iter().map(|l| l.items.len()).max().unwrap_or(0);
        let fits = |cut: Cut| self.fits(&self.candidate(cut));
        let plain = |keep| Cut {
            keep,
            strip: false,
            cap: None,
        };
        let stripped = |keep| Cut {
            keep,
            strip: true,
            cap: None,
        };

        // 0. Everything fits: untouched (apart from ranking and the cursor's offset).
        if fits(plain(max_keep)) {
            return self.finish(&self.candidate(plain(max_keep)));
        }
        // 1. Cut the lists to the largest prefix that fits, keeping at least one item.
        if max_keep > 1
            && let Some(keep) = largest(1, max_keep - 1, |k| fits(plain(k)))
        {
            return self.finish(&self.candidate(plain(keep)));
        }
        // 2. Without snippets, again the largest prefix.
        if self.has_snippets()
            && let Some(keep) = largest(max_keep.min(1), max_keep, |k| fits(stripped(k)))
        {
            return self.finish(&self.candidate(stripped(keep)));
        }
        // 3. Shorten long strings: find the largest cap that lets the top item through (or
        //    no item at all), then grow the lists again under that cap.
        let longest = self.longest_string();
        let mut bases = vec![max_keep.min(1)];
        if max_keep > 0 {
            bases.push(0);
        }
        for base in bases {
            let capped = |keep, cap| Cut {
                keep,
                strip: true,
                cap: Some(cap),
            };
            if let Some(cap) = largest(1, longest.saturating_sub(1), |cap| fits(capped(base, cap)))
            {
                let keep = largest(base, max_keep, |k| fits(capped(k, cap))).unwrap_or(base);
                return self.finish(&self.candidate(capped(keep, cap)));
            }
        }
        // 4. Nothing of the data fits (huge undeclared arrays, huge keys): say so.
        self.finish(&self.minimal())
    }

    fn candidate(&self, cut: Cut) -> Candidate {
        let mut data = self.skeleton.clone();
        let mut kept = Vec::with_capacity(self.lists.len());
        for list in &self.lists {
            let n = cut.keep.min(list.items.len());
            if let Some(Value::Array(slot)) = data.pointer_mut(&list.path) {
                *slot = list.items[..n].to_vec();
            }
            kept.push(n);
        }
        let snippets = if cut.strip {
            strip_snippets(&mut data)
        } else {
            0
        };
        let mut warnings = self.warnings.clone();
        let (mut shortened, mut strings) = (0, 0);
        if let Some(cap) = cut.cap {
            (shortened, strings) = shorten_strings(&mut data, cap);
            for w in &mut warnings {
                strings += 1;
                if shorten_one(w, cap) {
                    shortened += 1;
                }
            }
        }

        // The cuts, largest list cut first; ties keep declaration order (stable sort).
        let mut cuts: Vec<(usize, usize)> = self
            .lists
            .iter()
            .zip(&kept)
            .enumerate()
            .filter(|(_, (l, k))| **k < l.items.len())
            .map(|(i, (l, k))| (i, l.items.len() - k))
            .collect();
        cuts.sort_by_key(|c| std::cmp::Reverse(c.1));

        let limit = self.budget.effective();
        let mut others: Vec<String> = Vec::new();
        let mut main: Option<(Dropped, &str)> = None;
        for (i, count) in &cuts {
            let list = &self.lists[*i];
            if main.is_none() {
                let sentence = format!(
                    "Dropped {count} of {} {} to fit tokenBudget={limit}.",
                    list.total, list.kind
                );
                let narrowing = if list.narrowing.is_empty() {
                    self.narrowing.as_str()
                } else {
                    list.narrowing.as_str()
                };
                main = Some((dropped(&list.kind, *count, list.total, sentence), narrowing));
            } else {
                others.push(format!("dropped {count} of {} {}", list.total, list.kind));
            }
        }
        if snippets > 0 {
            if main.is_none() {
                let sentence =
                    format!("Removed {snippets} snippet fields to fit tokenBudget={limit}.");
                main = Some((
                    dropped("snippets", snippets, snippets, sentence),
                    &self.narrowing,
                ));
            } else {
                others.push(format!("removed {snippets} snippet fields"));
            }
        }
        if shortened > 0 {
            if main.is_none() {
                let sentence = format!(
                    "Shortened {shortened} of {strings} strings (marked …) to fit tokenBudget={limit}."
                );
                main = Some((
                    dropped("text", shortened, strings, sentence),
                    &self.narrowing,
                ));
            } else {
                others.push(format!(
                    "shortened {shortened} of {strings} strings (marked …)"
                ));
            }
        }
        let dropped = main.map(|(mut d, narrowing)| {
            d.note = compose_note(&d.note, &others, narrowing);
            d
        });

        let cursor = (!cuts.is_empty()).then(|| {
            Cursor {
                generation: self.generation,
                args_hash: self.args_hash,
                offsets: self
                    .lists
                    .iter()
                    .zip(&kept)
                    .map(|(l, k)| (l.path.clone(), l.offset + k))
                    .collect(),
            }
            .encode()
        });

        Candidate {
            data,
            truncated: dropped.is_some(),
            dropped,
            cursor,
            warnings,
        }
    }

    /// The envelope of last resort: fixed, short strings only, so it fits the smallest
    /// budget whatever the payload was.
    fn minimal(&self) -> Candidate {
        let limit = self.budget.effective();
        let note = format!(
            "The answer did not fit tokenBudget={limit} even with lists cut and text shortened. Raise tokenBudget."
        );
        let mut candidate = Candidate {
            data: Value::Object(Default::default()),
            truncated: true,
            dropped: Some(dropped("data", 1, 1, note)),
            cursor: None,
            // The clamp warning is short and bounded; tool warnings may not be.
            warnings: self.clamp_warning.iter().cloned().collect(),
        };
        if !self.fits(&candidate) {
            candidate.warnings.clear();
        }
        candidate
    }

    fn envelope<'a>(&self, c: &'a Candidate, used: usize) -> OkEnvelope<'a> {
        OkEnvelope {
            ok: true,
            data: &c.data,
            token_budget: TokenBudgetOut {
                requested: self.budget.requested(),
                used,
                max: MAX_TOKEN_BUDGET,
            },
            truncated: c.truncated,
            dropped: c.dropped.as_ref(),
            cursor: c.cursor.as_deref(),
            warnings: &c.warnings,
        }
    }

    /// Measured with `used` = the effective budget: the real `used` has no more digits,
    /// so the written envelope is never longer than the measured one.
    fn fits(&self, c: &Candidate) -> bool {
        let limit = self.budget.effective();
        estimate_len(&self.envelope(c, limit)).div_ceil(4) <= limit
    }

    /// Writes the envelope with `used` equal to its own size (a fixed point: `used` is
    /// part of what it measures, and growing digits only grow it, so this converges).
    fn finish(&self, c: &Candidate) -> Rendered {
        let mut used = 0;
        let mut text = String::new();
        for _ in 0..8 {
            text = serde_json::to_string(&self.envelope(c, used)).unwrap_or_default();
            let tokens = estimate_tokens(&text);
            if tokens == used {
                break;
            }
            used = tokens;
        }
        Rendered {
            tokens: estimate_tokens(&text),
            text,
            ok: true,
        }
    }

    fn has_snippets(&self) -> bool {
        has_snippet(&self.skeleton) || self.lists.iter().any(|l| l.items.iter().any(has_snippet))
    }

    fn longest_string(&self) -> usize {
        let items = self
            .lists
            .iter()
            .flat_map(|l| l.items.iter())
            .map(longest_string);
        let warnings = self.warnings.iter().map(|w| w.chars().count());
        items
            .chain(warnings)
            .chain([longest_string(&self.skeleton)])
            .max()
            .unwrap_or(0)
    }
}

fn dropped(kind: &str, count: usize, total: usize, sentence: String) -> Dropped {
    Dropped {
        kind: kind.to_string(),
        count,
        total,
        note: sentence,
    }
}

/// `<what was cut>. Also <other cuts>. <narrowing>, or raise tokenBudget.`
fn compose_note(sentence: &str, others: &[String], narrowing: &str) -> String {
    let mut note = sentence.to_string();
    if !others.is_empty() {
        note.push_str(" Also ");
        note.push_str(&others.join("; "));
        note.push('.');
    }
    let narrowing = narrowing.trim().trim_end_matches('.');
    if narrowing.is_empty() {
        note.push_str(" Raise tokenBudget.");
    } else {
        note.push(' ');
        note.push_str(narrowing);
        note.push_str(", or raise tokenBudget.");
    }
    note
}

/// The largest `x` in `lo..=hi` with `pred(x)`, assuming `pred` holds up to some point.
/// Only ever returns a value `pred` accepted.
fn largest(lo: usize, hi: usize, mut pred: impl FnMut(usize) -> bool) -> Option<usize> {
    if lo > hi || !pred(lo) {
        return None;
    }
    let (mut good, mut bad) = (lo, hi + 1);
    while bad - good > 1 {
        let mid = good + (bad - good) / 2;
        if pred(mid) {
            good = mid;
        } else {
            bad = mid;
        }
    }
    Some(good)
}

/// Removes every `snippet` field; returns how many.
fn strip_snippets(value: &mut Value) -> usize {
    match value {
        Value::Object(map) => {
            let before = map.len();
            map.retain(|k, _| k != "snippet");
            let mut n = before - map.len();
            for v in map.values_mut() {
                n += strip_snippets(v);
            }
            n
        }
        Value::Array(items) => items.iter_mut().map(strip_snippets).sum(),
        _ => 0,
    }
}

fn has_snippet(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.contains_key("snippet") || map.values().any(has_snippet),
        Value::Array(items) => items.iter().any(has_snippet),
        _ => false,
    }
}

/// Caps every string value at `cap` characters; returns (shortened, strings seen).
fn shorten_strings(value: &mut Value, cap: usize) -> (usize, usize) {
    match value {
        Value::String(s) => (usize::from(shorten_one(s, cap)), 1),
        Value::Object(map) => map.values_mut().fold((0, 0), |acc, v| {
            let (a, b) = shorten_strings(v, cap);
            (acc.0 + a, acc.1 + b)
        }),
        Value::Array(items) => items.iter_mut().fold((0, 0), |acc, v| {
            let (a, b) = shorten_strings(v, cap);
            (acc.0 + a, acc.1 + b)
        }),
        _ => (0, 0),
    }
}

/// Shortens `s` to `cap` characters, the last being `…`. Returns whether it did.
fn shorten_one(s: &mut String, cap: usize) -> bool {
    let cap = cap.max(1);
    match s.char_indices().nth(cap - 1) {
        Some((cut, _)) if s[cut..].chars().nth(1).is_some() => {
            s.truncate(cut);
            s.push('…');
            true
        }
        _ => false,
    }
}

fn longest_string(value: &Value) -> usize {
    match value {
        Value::String(s) => s.chars().count(),
        Value::Object(map) => map.values().map(longest_string).max().unwrap_or(0),
        Value::Array(items) => items.iter().map(longest_string).max().unwrap_or(0),
        _ => 0,
    }
}

/// Characters of the compact serialisation, counted without building the string.
fn estimate_len<T: Serialize>(value: &T) -> usize {
    struct CharCounter(usize);
    impl io::Write for CharCounter {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            // UTF-8: count every byte that is not a continuation byte.
            self.0 += buf.iter().filter(|b| (**b & 0xC0) != 0x80).count();
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut counter = CharCounter(0);
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => counter.0,
        // Serialising JSON values cannot fail; if it ever did, "does not fit" is safe.
        Err(_) => usize::MAX / 2,
    }
}

#[cfg(test)]
mod tests;
