//! Fitting an answer into its budget and writing the envelope text.
//!
//! The order of cuts is contract §2's: rank and cut the declared lists (nested lists first,
//! evenly, then their holders; largest prefix that fits, by binary search; one item kept),
//! then remove `snippet` fields, then shorten prose strings (only those under
//! [`SHORTENABLE_KEYS`] or keys the payload declares) with a visible `…`, then cut lists
//! down to zero items; identifiers are never shortened. As a last resort the answer is a
//! minimal envelope that says it was cut.
//! Every candidate is measured exactly as it will be written, so `used ≤ effective` holds
//! by construction rather than by estimate.

use std::io;

use serde::Serialize;
use serde_json::{Map, Number, Value};

use crate::budget::{Budget, MAX_TOKEN_BUDGET, MIN_TOKEN_BUDGET, estimate_tokens};
use crate::cursor::Cursor;
use crate::error::ToolError;
use crate::payload::{Cap, ListSpec, Payload, Ranker, SHORTENABLE_KEYS, Suggestion, busiest_dir};

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
    // An echoed argument (a 1 MB path, a node ID) never comes back whole.
    for v in extras.values_mut() {
        clip_echoes_in(v);
    }
    let full = ErrorOut {
        code: err.code.as_str(),
        message: clip_echoes(&err.message),
        hint: clip_echoes(&err.hint),
        extras,
    };
    if fits(&full) {
        return finish_error(&full);
    }
    // The code (what agents match on) and identifier extras (`field`, node IDs) stay; the
    // message, hint and prose extras shorten; then the extras go as a whole.
    let may = |k: &str| SHORTENABLE_KEYS.contains(&k);
    let shortened = |cap: usize, keep_extras: bool| {
        let mut e = full.clone();
        shorten_one(&mut e.message, cap);
        shorten_one(&mut e.hint, cap);
        if keep_extras {
            for (k, v) in e.extras.iter_mut() {
                shorten_strings(v, cap, &may, may(k));
            }
        } else {
            // `field` (which argument was wrong) stays: it is what an agent fixes.
            e.extras.retain(|k, _| k == "field");
        }
        e
    };
    let longest = [full.message.chars().count(), full.hint.chars().count()]
        .into_iter()
        .chain(
            full.extras
                .iter()
                .map(|(k, v)| longest_string(v, &may, may(k))),
        )
        .max()
        .unwrap_or(0)
        .max(1);
    for keep_extras in [true, false] {
        if let Some(cap) = largest(1, longest, |cap| fits(&shortened(cap, keep_extras))) {
            return finish_error(&shortened(cap, keep_extras));
        }
    }
    finish_error(&ErrorOut {
        code: err.code.as_str(),
        message: format!("The error did not fit tokenBudget={limit}."),
        hint: "Raise tokenBudget.".to_string(),
        extras: Map::new(),
    })
}

/// The longest run of non-blank characters an error message keeps: longer runs are
/// echoed arguments (a path, a node ID, a value), cut to this with `…`.
pub const ECHO_CHARS: usize = 200;

/// `s` with every run of non-blank characters longer than [`ECHO_CHARS`] cut to it.
pub fn clip_echoes(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(4 * ECHO_CHARS));
    let mut run = 0usize;
    let mut clipped = false;
    for c in s.chars() {
        if c.is_whitespace() {
            run = 0;
            clipped = false;
            out.push(c);
            continue;
        }
        run += 1;
        if run < ECHO_CHARS {
            out.push(c);
        } else if !clipped {
            out.push('…');
            clipped = true;
        }
    }
    out
}

fn clip_echoes_in(v: &mut Value) {
    match v {
        Value::String(s) if s.len() > ECHO_CHARS => *s = clip_echoes(s),
        Value::Array(a) => a.iter_mut().for_each(clip_echoes_in),
        Value::Object(o) => o.values_mut().for_each(clip_echoes_in),
        _ => {}
    }
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
    /// Defaults stay off the wire (contract §2, issue 18): `tokenBudget` only when the
    /// answer was cut or the call asked for a budget other than the default (then it says
    /// what applied), `truncated` only when true, `warnings` only when there are some.
    #[serde(rename = "tokenBudget", skip_serializing_if = "Option::is_none")]
    token_budget: Option<TokenBudgetOut>,
    #[serde(skip_serializing_if = "is_false")]
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    dropped: Option<&'a Dropped>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cursor: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    warnings: &'a [String],
}

fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Serialize)]
struct TokenBudgetOut {
    requested: Number,
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

/// Below this effective budget notes take their short form: the fixed overhead of a long
/// note (~140 chars, 35 tokens) would otherwise eat a third of a 100-token answer. Both
/// forms are stable strings naming the narrowing parameter and "raise tokenBudget".
pub(crate) const SHORT_NOTES_BELOW: usize = 250;

/// A declared top-level list, taken out of `data`, ranked and advanced past the cursor.
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

/// A declared nested list (`/clusters/*/hubs`): every instance is ranked in place in the
/// data and cut to the same length.
struct Nested {
    /// The declared path (`/clusters/*/hubs`): the cursor's key for this list.
    path: String,
    segments: Vec<String>,
    /// How many `*` the path has: the stage it is cut in (deepest first).
    depth: usize,
    kind: String,
    narrowing: String,
}

/// One way of cutting: keep at most `keeps[d]` items in each list of nesting depth `d`,
/// maybe strip snippets, cap every shortenable string at `cap` characters.
#[derive(Clone)]
struct Cut {
    keeps: Vec<usize>,
    strip: bool,
    cap: usize,
}

const NO_CAP: usize = usize::MAX;

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
    /// By depth, shallow first (so inner instances are counted only in kept outer items).
    nested: Vec<Nested>,
    /// The longest list at each depth: the keep that cuts nothing.
    maxes: Vec<usize>,
    /// All warnings, the clamp warning (if any) last.
    warnings: Vec<String>,
    clamp_warning: Option<String>,
    narrowing: String,
    shortenable: Vec<String>,
    caps: Vec<Cap>,
    /// Offsets the cursor gave each nested list (every instance skips as many).
    nested_offsets: Vec<usize>,
    generation: u64,
    args_hash: u64,
    budget: Budget,
}

/// The narrowing sentence of a list: its suggestions the call did not set ("Pass a, b or
/// c to narrow"), else its fixed sentence when it has no suggestions at all.
fn narrowing_of(spec: &ListSpec, items: &[&Value], given: &[String]) -> String {
    if spec.suggestions.is_empty() {
        return spec.narrowing.clone();
    }
    let texts: Vec<String> = spec
        .suggestions
        .iter()
        .filter(|s| !given.iter().any(|g| g == s.param()))
        .filter_map(|s| match s {
            Suggestion::Fixed { text, .. } => Some(text.clone()),
            Suggestion::Prefix { param, path_of } => {
                let paths: Vec<String> = items.iter().filter_map(|v| path_of(v)).collect();
                busiest_dir(paths.iter().map(String::as_str)).map(|d| format!("{param}:'{d}'"))
            }
        })
        .collect();
    match texts.as_slice() {
        [] => String::new(),
        [one] => format!("Pass {one} to narrow"),
        [init @ .., last] => format!("Pass {} or {last} to narrow", init.join(", ")),
    }
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
        shortenable,
        caps,
        given,
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

    let suggesting: Vec<String> = specs
        .iter()
        .filter(|s| !s.suggestions.is_empty())
        .map(|s| s.kind.clone())
        .collect();
    let (nested_specs, top_specs): (Vec<_>, Vec<_>) = specs
        .into_iter()
        .partition(|s| s.path.split('/').any(|seg| seg == "*"));

    // Nested instances are ranked in place before their holders are taken out.
    let mut nested: Vec<Nested> = Vec::new();
    for spec in nested_specs {
        if nested.iter().any(|n| n.segments.join("/") == spec.path) {
            continue;
        }
        let segments = pointer_segments(&spec.path);
        if let Ranker::By(cmp) = &spec.ranker {
            for_each_instance(&mut data, &segments, &mut |items| {
                items.sort_by(|a, b| cmp(a, b))
            });
        }
        let mut all: Vec<Value> = Vec::new();
        if !spec.suggestions.is_empty() {
            for_each_instance(&mut data, &segments, &mut |items| {
                all.extend(items.iter().cloned())
            });
        }
        let narrowing = narrowing_of(&spec, &all.iter().collect::<Vec<_>>(), &given);
        nested.push(Nested {
            depth: segments.iter().filter(|s| *s == "*").count(),
            path: spec.path,
            segments,
            kind: spec.kind,
            narrowing,
        });
    }
    nested.sort_by_key(|n| n.depth);

    let mut lists: Vec<List> = Vec::new();
    for spec in top_specs {
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
        let narrowing = narrowing_of(&spec, &items.iter().collect::<Vec<_>>(), &given);
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
            narrowing,
            items,
            offset,
            total,
        });
    }
    // A cursor that pages a nested list skips as many items in each of its instances
    // (they were all cut to the same length).
    let nested_offsets: Vec<usize> = nested
        .iter()
        .map(|n| {
            req.cursor
                .and_then(|c| c.offsets.get(&n.path).copied())
                .unwrap_or(0)
        })
        .collect();
    for (n, skip) in nested.iter().zip(&nested_offsets) {
        if *skip == 0 {
            continue;
        }
        let mut drain = |items: &mut Vec<Value>| {
            items.drain(..(*skip).min(items.len()));
        };
        // Instances inside a top-level list's items (taken out of `data` above) …
        let holder = lists
            .iter_mut()
            .find(|l| n.path.starts_with(&format!("{}/*/", l.path)));
        match holder {
            Some(list) => {
                let rest = &n.segments[pointer_segments(&list.path).len() + 1..];
                for item in &mut list.items {
                    for_each_instance(item, rest, &mut drain);
                }
            }
            // … or anywhere else in `data`.
            None => for_each_instance(&mut data, &n.segments, &mut drain),
        }
    }

    // A cap's note narrows like its list's (parameters the call set left out), when the
    // list declares suggestions.
    let mut caps = caps;
    for cap in &mut caps {
        let same = lists
            .iter()
            .map(|l| (&l.kind, &l.narrowing))
            .chain(nested.iter().map(|n| (&n.kind, &n.narrowing)))
            .find(|(k, _)| **k == cap.kind);
        if let Some((_, narrowing)) = same
            && suggesting.contains(&cap.kind)
        {
            cap.narrowing = narrowing.clone();
        }
    }

    let depth = nested.iter().map(|n| n.depth).max().unwrap_or(0);
    let mut fitter = Fitter {
        skeleton: data,
        lists,
        nested,
        maxes: vec![0; depth + 1],
        warnings,
        clamp_warning,
        narrowing,
        shortenable,
        caps,
        nested_offsets,
        generation,
        args_hash: req.args_hash,
        budget,
    };
    fitter.maxes = fitter.measure_maxes();
    Ok(fitter.fit())
}

impl Fitter {
    fn fit(&self) -> Rendered {
        let fits = |cut: &Cut| self.fits(&self.candidate(cut));
        let cut = |keeps: Vec<usize>, strip: bool, cap: usize| Cut { keeps, strip, cap };
        let span1 = self.span(1);

        // 0. Everything fits: untouched (apart from ranking and the cursor's offset).
        let full = cut(self.maxes.clone(), false, NO_CAP);
        if fits(&full) {
            return self.finish(&self.candidate(&full));
        }
        // 1. Cut the lists (nested ones first, evenly) to the largest prefix that fits,
        //    keeping at least one item per list.
        if span1 > 0
            && let Some(p) = largest(0, span1 - 1, |p| {
                fits(&cut(self.keeps_at(p, 1), false, NO_CAP))
            })
        {
            return self.finish(&self.candidate(&cut(self.keeps_at(p, 1), false, NO_CAP)));
        }
        // 2. Without snippets, again the largest prefix.
        if self.has_snippets()
            && let Some(p) = largest(0, span1, |p| fits(&cut(self.keeps_at(p, 1), true, NO_CAP)))
        {
            return self.finish(&self.candidate(&cut(self.keeps_at(p, 1), true, NO_CAP)));
        }
        // 3. Shorten prose (never identifiers): the largest cap that lets one item per list
        //    through, then grow the lists again under that cap.
        let hi = self.longest_string().max(1);
        let base = self.keeps_at(0, 1);
        if let Some(cap) = largest(1, hi, |c| fits(&cut(base.clone(), true, c))) {
            let p = largest(0, span1, |p| fits(&cut(self.keeps_at(p, 1), true, cap))).unwrap_or(0);
            return self.finish(&self.candidate(&cut(self.keeps_at(p, 1), true, cap)));
        }
        // 4. Items go, down to none (nested first), before any identifier is touched: the
        //    most items that fit with prose at its shortest, then the longest prose.
        if let Some(p) = largest(0, self.span(0), |p| {
            fits(&cut(self.keeps_at(p, 0), true, 1))
        }) {
            let keeps = self.keeps_at(p, 0);
            let cap = largest(1, hi, |c| fits(&cut(keeps.clone(), true, c))).unwrap_or(1);
            return self.finish(&self.candidate(&cut(keeps, true, cap)));
        }
        // 5. Nothing of the data fits (huge undeclared arrays, identifiers, keys): say so.
        self.finish(&self.minimal())
    }

    /// How many single-item steps lie between every list full and every list at `floor`.
    fn span(&self, floor: usize) -> usize {
        self.maxes.iter().map(|m| m.saturating_sub(floor)).sum()
    }

    /// The keeps `p` steps above every list at `floor`: walking down from full, the
    /// deepest lists shrink first, then the ones holding them.
    fn keeps_at(&self, p: usize, floor: usize) -> Vec<usize> {
        let mut remove = self.span(floor).saturating_sub(p);
        let mut keeps = self.maxes.clone();
        for keep in keeps.iter_mut().rev() {
            let step = remove.min(keep.saturating_sub(floor));
            *keep -= step;
            remove -= step;
        }
        keeps
    }

    fn measure_maxes(&self) -> Vec<usize> {
        let mut maxes = vec![0; self.maxes.len()];
        maxes[0] = self.lists.iter().map(|l| l.items.len()).max().unwrap_or(0);
        let mut data = self.skeleton.clone();
        self.place_lists(&mut data, maxes[0]);
        for n in &self.nested {
            for_each_instance(&mut data, &n.segments, &mut |items| {
                maxes[n.depth] = maxes[n.depth].max(items.len());
            });
        }
        maxes
    }

    /// Puts the first `keep` items of every top-level list back; returns how many each got.
    fn place_lists(&self, data: &mut Value, keep: usize) -> Vec<usize> {
        let mut kept = Vec::with_capacity(self.lists.len());
        for list in &self.lists {
            let n = keep.min(list.items.len());
            if let Some(Value::Array(slot)) = data.pointer_mut(&list.path) {
                *slot = list.items[..n].to_vec();
            }
            kept.push(n);
        }
        kept
    }

    fn may_shorten(&self, key: &str) -> bool {
        SHORTENABLE_KEYS.contains(&key) || self.shortenable.iter().any(|k| k == key)
    }

    fn candidate(&self, cut: &Cut) -> Candidate {
        let mut data = self.skeleton.clone();
        let kept = self.place_lists(&mut data, cut.keeps[0]);
        // (kind, narrowing, count, total) of every list cut.
        let mut cuts: Vec<(&str, &str, usize, usize)> = self
            .lists
            .iter()
            .zip(&kept)
            .filter(|(l, k)| **k < l.items.len())
            .map(|(l, k)| (&*l.kind, &*l.narrowing, l.items.len() - k, l.total))
            .collect();
        // Which nested lists were cut (their cursor offset moves on by `keep`).
        let mut nested_cut = vec![false; self.nested.len()];
        for (i, n) in self.nested.iter().enumerate() {
            let keep = cut.keeps[n.depth];
            let (mut shown, mut total) = (0, 0);
            for_each_instance(&mut data, &n.segments, &mut |items| {
                total += items.len();
                items.truncate(keep);
                shown += items.len();
            });
            if shown < total {
                nested_cut[i] = true;
                cuts.push((&n.kind, &n.narrowing, total - shown, total));
            }
        }
        let snippets = if cut.strip {
            strip_snippets(&mut data)
        } else {
            0
        };
        let mut warnings = self.warnings.clone();
        let (mut shortened, mut strings) = (0, 0);
        if cut.cap != NO_CAP {
            let may = |k: &str| self.may_shorten(k);
            (shortened, strings) = shorten_strings(&mut data, cut.cap, &may, false);
            for w in &mut warnings {
                strings += 1;
                if shorten_one(w, cut.cap) {
                    shortened += 1;
                }
            }
        }

        let list_cut = !cuts.is_empty();
        // A cursor when a list was cut and the next page moves on. A cut top-level list
        // pages first (nested lists start again at 0 in the next items); when only nested
        // lists were cut, the next page shows the same top-level items with the next
        // slice of each nested list.
        let top_cut = list_cut
            && kept
                .iter()
                .zip(&self.lists)
                .any(|(k, l)| *k < l.items.len());
        let nested_moves = nested_cut.iter().any(|c| *c) && cut.keeps[1..].iter().any(|k| *k > 0);
        let top_offsets = || {
            self.lists
                .iter()
                .zip(&kept)
                .map(|(l, k)| (l.path.clone(), l.offset + k))
        };
        let cursor = if top_cut && kept.iter().any(|k| *k > 0) {
            Some(top_offsets().collect())
        } else if !top_cut && nested_moves {
            let mut offsets: std::collections::BTreeMap<String, usize> = self
                .lists
                .iter()
                .map(|l| (l.path.clone(), l.offset))
                .collect();
            for (i, n) in self.nested.iter().enumerate() {
                if nested_cut[i] {
                    offsets.insert(n.path.clone(), self.nested_offsets[i] + cut.keeps[n.depth]);
                }
            }
            Some(offsets)
        } else {
            None
        }
        .map(|offsets| {
            Cursor {
                generation: self.generation,
                args_hash: self.args_hash,
                offsets,
            }
            .encode()
        });

        // The longest list first (see `Cut3::weight`); ties keep declaration order.
        cuts.sort_by_key(|c| std::cmp::Reverse(c.3));
        let limit = self.budget.effective();
        let short = limit < SHORT_NOTES_BELOW;
        // Caps the tool applied come first: they cut before the budget did.
        let mut all: Vec<Cut3> = self
            .caps
            .iter()
            .map(|c| {
                let count = c.total - c.shown;
                let (kind, total, param, value) = (&c.kind, c.total, &c.param, c.value);
                Cut3 {
                    kind: kind.clone(),
                    narrowing: &c.narrowing,
                    count,
                    total,
                    long: format!("Dropped {count} of {total} {kind} over {param}={value}."),
                    short: format!("Dropped {count} of {total} {kind} ({param})."),
                    other: format!("dropped {count} of {total} {kind} over {param}={value}"),
                    raise: Some(param.clone()),
                    weight: count,
                }
            })
            .collect();
        let budget_cuts: Vec<Cut3> = cuts
            .iter()
            .map(|(kind, narrowing, count, total)| Cut3 {
                kind: kind.to_string(),
                narrowing: if narrowing.is_empty() {
                    &self.narrowing
                } else {
                    narrowing
                },
                count: *count,
                total: *total,
                long: format!("Dropped {count} of {total} {kind} to fit tokenBudget={limit}."),
                short: format!("Dropped {count} of {total} {kind}."),
                other: format!("dropped {count} of {total} {kind}"),
                raise: None,
                weight: if cursor.is_some() { usize::MAX } else { *total },
            })
            .collect();
        // The largest cut is named first; caps before budget cuts of the same size.
        all.extend(budget_cuts);
        all.sort_by_key(|c| std::cmp::Reverse(c.weight));
        if snippets > 0 {
            all.push(Cut3 {
                kind: "snippets".into(),
                narrowing: &self.narrowing,
                count: snippets,
                total: snippets,
                long: format!("Removed {snippets} snippet fields to fit tokenBudget={limit}."),
                short: format!("Removed {snippets} snippets."),
                other: format!("removed {snippets} snippet fields"),
                raise: None,
                weight: snippets,
            });
        }
        if shortened > 0 {
            all.push(Cut3 {
                kind: "text".into(),
                narrowing: &self.narrowing,
                count: shortened,
                total: strings,
                long: format!(
                    "Shortened {shortened} of {strings} strings (marked …) to fit tokenBudget={limit}."
                ),
                short: format!("Shortened {shortened} strings (…)."),
                other: format!("shortened {shortened} of {strings} strings (marked …)"),
                raise: None,
                weight: shortened,
            });
        }
        let dropped = all.first().map(|main| {
            let (sentence, others): (&str, Vec<&str>) = if short {
                (
                    &main.short,
                    all[1..].iter().map(|c| c.kind.as_str()).collect(),
                )
            } else {
                (
                    &main.long,
                    all[1..].iter().map(|c| c.other.as_str()).collect(),
                )
            };
            let also = if others.is_empty() {
                String::new()
            } else if short {
                format!(" Also cut {}.", others.join(", "))
            } else {
                format!(" Also {}.", others.join("; "))
            };
            dropped(
                &main.kind,
                main.count,
                main.total,
                format!(
                    "{sentence}{also}{}",
                    note_tail(
                        main.narrowing,
                        main.raise.as_deref().unwrap_or("tokenBudget")
                    )
                ),
            )
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
        let note = if limit < SHORT_NOTES_BELOW {
            "Nothing fit, not even identifiers. Raise tokenBudget.".to_string()
        } else {
            format!(
                "The answer did not fit tokenBudget={limit} even with lists cut and text shortened. Raise tokenBudget."
            )
        };
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
            token_budget: (c.truncated || !self.budget.is_default()).then(|| TokenBudgetOut {
                requested: self.budget.requested(),
                used,
                max: MAX_TOKEN_BUDGET,
            }),
            truncated: c.truncated,
            dropped: c.dropped.as_ref(),
            cursor: c.cursor.as_deref(),
            warnings: &c.warnings,
        }
    }

    /// Measured with `used` = the effective budget: the real `used` has no more digits,
    /// so the written envelope is never longer than the measured one. That is the only
    /// headroom: the note and cursor are measured as written.
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

    /// The longest shortenable string (or warning): the cap that shortens nothing.
    fn longest_string(&self) -> usize {
        let may = |k: &str| self.may_shorten(k);
        let items = self
            .lists
            .iter()
            .flat_map(|l| l.items.iter())
            .map(|v| longest_string(v, &may, false));
        let warnings = self.warnings.iter().map(|w| w.chars().count());
        items
            .chain(warnings)
            .chain([longest_string(&self.skeleton, &may, false)])
            .max()
            .unwrap_or(0)
    }
}

/// One cut, with the sentences of both note forms.
struct Cut3<'a> {
    kind: String,
    narrowing: &'a str,
    count: usize,
    total: usize,
    long: String,
    short: String,
    other: String,
    /// The parameter to raise instead of `tokenBudget` (a cap's own parameter).
    raise: Option<String>,
    /// What orders the cuts in the note, largest first: a cap's count; a budget cut's
    /// `total` (which the fitter's search does not change), or first of all when the page
    /// has a cursor (the cursor is the way on, `tokenBudget` the thing to raise). Ordering
    /// by a budget cut's own count made the note's length depend on how many items are
    /// kept: keeping one item could name a cap first, lengthen the note past the budget,
    /// and leave a page after a cursor with nothing shown and no cursor (the rest of the
    /// list lost; `nested_cursors_page_through_tied_hubs_under_a_cap`).
    weight: usize,
}

fn dropped(kind: &str, count: usize, total: usize, sentence: String) -> Dropped {
    Dropped {
        kind: kind.to_string(),
        count,
        total,
        note: sentence,
    }
}

/// ` <narrowing>, or raise <param>.` (or ` Raise <param>.` without one); `param` is
/// `tokenBudget` for budget cuts and the cap's parameter for caps.
fn note_tail(narrowing: &str, param: &str) -> String {
    let narrowing = narrowing.trim().trim_end_matches('.');
    if narrowing.is_empty() {
        format!(" Raise {param}.")
    } else {
        format!(" {narrowing}, or raise {param}.")
    }
}

/// The unescaped segments of a JSON pointer (`/a~1b/*` → `["a/b", "*"]`).
fn pointer_segments(path: &str) -> Vec<String> {
    path.split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// Calls `f` on every array `segments` reaches, `*` standing for every array item.
fn for_each_instance(value: &mut Value, segments: &[String], f: &mut dyn FnMut(&mut Vec<Value>)) {
    let Some((first, rest)) = segments.split_first() else {
        if let Value::Array(items) = value {
            f(items);
        }
        return;
    };
    match value {
        Value::Array(items) if first == "*" => {
            for item in items {
                for_each_instance(item, rest, f);
            }
        }
        Value::Array(items) => {
            if let Some(item) = first.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                for_each_instance(item, rest, f);
            }
        }
        Value::Object(map) => {
            if let Some(v) = map.get_mut(first.as_str()) {
                for_each_instance(v, rest, f);
            }
        }
        _ => {}
    }
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

/// Caps at `cap` characters every string under a key `may` accepts (`inside`: already
/// under one); returns (shortened, shortenable strings seen).
fn shorten_strings(
    value: &mut Value,
    cap: usize,
    may: &dyn Fn(&str) -> bool,
    inside: bool,
) -> (usize, usize) {
    let add = |a: (usize, usize), b: (usize, usize)| (a.0 + b.0, a.1 + b.1);
    match value {
        Value::String(s) if inside => (usize::from(shorten_one(s, cap)), 1),
        Value::Object(map) => map.iter_mut().fold((0, 0), |acc, (k, v)| {
            add(acc, shorten_strings(v, cap, may, inside || may(k)))
        }),
        Value::Array(items) => items.iter_mut().fold((0, 0), |acc, v| {
            add(acc, shorten_strings(v, cap, may, inside))
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

/// The longest string `shorten_strings` would shorten.
fn longest_string(value: &Value, may: &dyn Fn(&str) -> bool, inside: bool) -> usize {
    match value {
        Value::String(s) if inside => s.chars().count(),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| longest_string(v, may, inside || may(k)))
            .max()
            .unwrap_or(0),
        Value::Array(items) => items
            .iter()
            .map(|v| longest_string(v, may, inside))
            .max()
            .unwrap_or(0),
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
