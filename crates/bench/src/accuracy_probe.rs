//! The accuracy bench's referee where `nav_references` lists nothing: ask the server's
//! go-to-definition at the map's use sites.
//!
//! An empty reference list is no proof that the map's neighbors are wrong: a server can be
//! blind to a target (clangd asked at a struct's tag lists none of the uses, which go
//! through the typedef of the same name; a call inside a macro argument the active macro
//! drops). Navmap's own `complete: false` used to be the referee — a target whose list was
//! empty and marked incomplete was set aside whole, and with it the `name`/`candidate`
//! neighbors it might have got wrong. The narrower rule asks the server about each listed
//! neighbor instead, at the sites where the map links it to the target:
//!
//! - a site whose definition lands on the target is a true use (the server is shown
//!   blind in its reference list): the neighbor is judged right;
//! - no site lands on the target and one lands elsewhere (another definition, a
//!   library): the map's error, judged wrong;
//! - no site leads anywhere (no definition, a failed call, the map answering in the
//!   server's place, no use site to ask at): not judged, with the reason.

use std::collections::{BTreeMap, HashMap};

use navmap_map::{Direction, Map, NodeView};
use serde_json::{Value, json};

use super::{Answer, Enclosers, Site, SourceLines, pages, row_line};
use crate::tokens::Server;

/// Use sites asked about per neighbor at most (a hit ends the asking).
const MAX_PROBES: usize = 5;

/// Where go-to-definition at one use site led.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Landing {
    /// On the target.
    Target,
    /// Somewhere else: another definition (`file:line`) or a library.
    Elsewhere(String),
    /// Nowhere: the reason.
    Nothing(String),
}

/// One listed neighbor's verdict from the landings of its sites.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The site at this index is a true use of the target.
    True(usize),
    /// No site led to the target and one led elsewhere (where, for `--show`).
    Wrong(String),
    /// No site led anywhere: not judged, and why.
    Blind(String),
}

/// The verdict of a neighbor whose sites led to `landings` (in the order asked).
pub fn verdict(landings: &[Landing]) -> Verdict {
    if let Some(i) = landings.iter().position(|l| *l == Landing::Target) {
        return Verdict::True(i);
    }
    if let Some(Landing::Elsewhere(w)) =
        landings.iter().find(|l| matches!(l, Landing::Elsewhere(_)))
    {
        return Verdict::Wrong(w.clone());
    }
    match landings.first() {
        Some(Landing::Nothing(why)) => Verdict::Blind(why.clone()),
        _ => Verdict::Blind("no use site to ask at".into()),
    }
}

/// The places a `nav_definition` answer (`data`) leads to: `Ok((file, line))` inside the
/// root, `Err(lib)` for a library (a group `{external, lib}`).
pub fn definition_places(data: &Value) -> Vec<Result<Site, String>> {
    let mut out = vec![];
    for g in data["locations"].as_array().into_iter().flatten() {
        if g["external"] == true {
            out.push(Err(g["lib"].as_str().unwrap_or("a library").to_string()));
            continue;
        }
        let Some(f) = g["file"].as_str() else {
            continue;
        };
        for r in g["at"].as_array().into_iter().flatten() {
            if let Some(line) = r.as_str().and_then(row_line) {
                out.push(Ok((f.to_string(), line)));
            }
        }
    }
    out
}

/// The 1-based UTF-16 column of the first whole-word `name` in `text`.
pub fn word_col(text: &str, name: &str) -> Option<u32> {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let (i, _) = text.match_indices(name).find(|(i, _)| {
        text[..*i].chars().next_back().is_none_or(|c| !word(c))
            && text[i + name.len()..]
                .chars()
                .next()
                .is_none_or(|c| !word(c))
    })?;
    Some(text[..i].encode_utf16().count() as u32 + 1)
}

/// What the probes of one target found.
#[derive(Debug, Default)]
pub struct Probed {
    /// True use sites found, each with the neighbor it shows right.
    pub truth: Vec<(Site, String)>,
    /// Neighbors shown wrong, with where their sites led.
    pub wrong: Vec<(String, String)>,
    /// Neighbors not judged, with the reason; and their use sites (or 1 when none).
    pub blind: Vec<(String, String, usize)>,
}

impl Probed {
    /// Not-judged neighbors by reason.
    pub fn reasons(&self) -> BTreeMap<String, usize> {
        let mut out = BTreeMap::new();
        for (_, why, _) in &self.blind {
            *out.entry(why.clone()).or_default() += 1;
        }
        out
    }
}

/// Where the target is, to tell a landing on it from one elsewhere.
struct TargetPlace<'t> {
    target: &'t NodeView,
}

impl TargetPlace<'_> {
    /// On the target: its file, and its name line, or a line whose innermost definition is
    /// the target (or a variant of it, `f~2`), or the name line of a definition of the
    /// target's name in its file (a C typedef of a struct's tag).
    fn holds(&self, enclosers: &mut Enclosers, site: &Site) -> bool {
        let t = self.target;
        if t.file.as_deref() != Some(site.0.as_str()) {
            return false;
        }
        if t.line == Some(site.1) {
            return true;
        }
        let base = |id: &str| id.split('~').next().unwrap_or(id).to_string();
        base(&enclosers.of(&site.0, site.1)) == base(&t.id)
            || enclosers.declares_name_at(&site.0, site.1, &t.name)
    }
}

/// The listed neighbors' use sites that the map links to the target (imports aside), by
/// neighbor: the map's mentions, else the lines of its edges with the name's column.
fn use_sites(
    map: &Map,
    target: &NodeView,
    answer: &Answer,
    linked: &[navmap_map::MentionSite],
    enclosers: &mut Enclosers,
    lines: &mut SourceLines,
) -> HashMap<String, Vec<(Site, u32)>> {
    let mut out: HashMap<String, Vec<(Site, u32)>> = HashMap::new();
    for m in linked.iter().filter(|m| m.kind != "import") {
        let enc = m
            .enclosing
            .clone()
            .unwrap_or_else(|| enclosers.file_id(&m.file));
        if answer.neighbors.contains_key(&enc) {
            out.entry(enc)
                .or_default()
                .push(((m.file.clone(), m.line), m.col));
        }
    }
    let edges = map
        .neighbors(&target.id, Direction::In, None, 1, 200)
        .map(|r| r.neighbors)
        .unwrap_or_default();
    for n in edges {
        let (Some(file), Some(line)) = (n.node.file.clone(), n.line) else {
            continue;
        };
        if !answer.neighbors.contains_key(&n.node.id) || out.contains_key(&n.node.id) {
            continue;
        }
        let col = lines
            .line(&file, line)
            .and_then(|t| word_col(t, &target.name));
        if let Some(col) = col {
            out.entry(n.node.id.clone())
                .or_default()
                .push(((file, line), col));
        }
    }
    for v in out.values_mut() {
        v.sort();
        v.dedup();
    }
    out
}

/// Where go-to-definition at one site leads.
fn land(
    server: &mut Server,
    enclosers: &mut Enclosers,
    place: &TargetPlace,
    (site, col): &(Site, u32),
) -> Landing {
    let args = json!({"file": site.0, "line": site.1, "col": col});
    let data = match pages(server, "nav_definition", &args) {
        Ok(p) => p.into_iter().next().unwrap_or(Value::Null),
        Err(e) => {
            let code = e
                .split("\"code\":\"")
                .nth(1)
                .and_then(|s| s.split('"').next());
            return Landing::Nothing(format!("nav_definition failed ({})", code.unwrap_or("?")));
        }
    };
    if data["source"]
        .as_str()
        .is_some_and(|s| s.starts_with("fallback"))
    {
        return Landing::Nothing("the map answered in the server's place".into());
    }
    let places = definition_places(&data);
    if places.is_empty() {
        return Landing::Nothing("no definition at the site".into());
    }
    let mut elsewhere = None;
    for p in places {
        match p {
            Ok(s) if place.holds(enclosers, &s) => return Landing::Target,
            Ok(s) => elsewhere = elsewhere.or(Some(format!("{}:{}", s.0, s.1))),
            Err(lib) => elsewhere = elsewhere.or(Some(lib)),
        }
    }
    Landing::Elsewhere(elsewhere.unwrap_or_default())
}

/// Asks go-to-definition at the use sites of every neighbor `answer` lists for a target
/// whose reference list was empty, and judges each neighbor (module doc).
pub fn probe(
    server: &mut Server,
    map: &Map,
    target: &NodeView,
    answer: &Answer,
    linked: &[navmap_map::MentionSite],
    enclosers: &mut Enclosers,
    lines: &mut SourceLines,
) -> Probed {
    let sites = use_sites(map, target, answer, linked, enclosers, lines);
    let place = TargetPlace { target };
    let mut out = Probed::default();
    for id in answer.neighbors.keys() {
        let own = sites.get(id).cloned().unwrap_or_default();
        let mut landings = vec![];
        for s in own.iter().take(MAX_PROBES) {
            let l = land(server, enclosers, &place, s);
            let hit = l == Landing::Target;
            landings.push(l);
            if hit {
                break;
            }
        }
        match verdict(&landings) {
            Verdict::True(i) => out.truth.push((own[i].0.clone(), id.clone())),
            Verdict::Wrong(w) => out.wrong.push((id.clone(), w)),
            Verdict::Blind(why) => out.blind.push((id.clone(), why, own.len().max(1))),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_neighbor_is_right_when_one_site_leads_to_the_target() {
        let nothing = Landing::Nothing("no definition at the site".into());
        let other = Landing::Elsewhere("b.c:3".into());
        assert_eq!(
            verdict(&[nothing.clone(), other.clone(), Landing::Target]),
            Verdict::True(2)
        );
        // Elsewhere and nowhere: the server shows the map wrong.
        assert_eq!(
            verdict(&[nothing.clone(), other.clone()]),
            Verdict::Wrong("b.c:3".into())
        );
        // Nowhere only: not judged, with the reason.
        assert_eq!(
            verdict(std::slice::from_ref(&nothing)),
            Verdict::Blind("no definition at the site".into())
        );
        assert_eq!(verdict(&[]), Verdict::Blind("no use site to ask at".into()));
    }

    #[test]
    fn definitions_in_the_root_and_in_libraries() {
        let data = json!({"locations": [
            {"file": "include/api.h", "at": ["120:3 } TSInput;"]},
            {"external": true, "lib": "stdio.h", "at": [{"line": 1, "col": 1}]}
        ]});
        assert_eq!(
            definition_places(&data),
            vec![
                Ok(("include/api.h".to_string(), 120)),
                Err("stdio.h".to_string())
            ]
        );
        assert!(definition_places(&json!({"locations": []})).is_empty());
    }

    #[test]
    fn the_column_of_a_whole_word_in_utf16() {
        assert_eq!(word_col("  TSInput input;", "TSInput"), Some(3));
        assert_eq!(word_col("\"🚀\" f(g)", "f"), Some(6));
        assert_eq!(word_col("fx(f)", "f"), Some(4));
        assert_eq!(word_col("ff()", "f"), None);
    }
}
