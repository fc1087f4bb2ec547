//! Property tests of contract §2: for random nested payloads (with and without lists,
//! unicode, deep nesting, 1 MB strings) and every budget, `used ≤ effective budget`, a
//! truncated answer always says what it dropped with a non-empty note, rendering is
//! deterministic, cursors page through a ranking exactly once, strings outside the
//! shortenable keys (identifiers) come back unchanged or not at all, and nested lists are
//! trimmed evenly before the lists holding them.

use navmap_envelope::{
    Budget, Cursor, ListSpec, Payload, Rendered, Request, SHORTENABLE_KEYS, estimate_tokens, render,
};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn config(cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        // Failures print their minimal input; nothing is written into the source tree.
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        // Exactly representable, so the parsed envelope compares equal.
        (-1_000_000i32..1_000_000).prop_map(|n| Value::from(f64::from(n) / 8.0)),
        ".{0,40}".prop_map(Value::from),
        "\\PC{0,200}".prop_map(Value::from),
        "[\\x00-\\x1f\"\\\\]{0,20}".prop_map(Value::from),
    ]
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("snippet".to_string()),
        Just("doc".to_string()),
        Just("id".to_string()),
        Just("file".to_string()),
        "[a-z]{1,8}",
        "\\PC{1,6}",
    ]
}

fn nested() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(5, 96, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((key(), inner), 0..6)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// A tool-like answer: maybe a `results` and a `neighbors` list, plus random fields, or
/// a bare value with no list at all.
fn payload() -> impl Strategy<Value = (Value, bool, bool, bool)> {
    prop_oneof![
        1 => nested().prop_map(|v| (v, false, false, false)),
        3 => (
            prop::option::of(prop::collection::vec(nested(), 0..120)),
            prop::option::of(prop::collection::vec(nested(), 0..40)),
            prop::collection::vec((key(), nested()), 0..4),
            any::<bool>(),
        )
            .prop_map(|(results, neighbors, extra, sort)| {
                let mut obj: Map<String, Value> = extra.into_iter().collect();
                let (r, n) = (results.is_some(), neighbors.is_some());
                if let Some(items) = results {
                    obj.insert("results".into(), Value::Array(items));
                }
                if let Some(items) = neighbors {
                    obj.insert("neighbors".into(), Value::Array(items));
                }
                (Value::Object(obj), r, n, sort)
            }),
    ]
}

fn budget() -> impl Strategy<Value = i64> {
    prop_oneof![4 => 100i64..=600, 4 => 100i64..=10_000, 1 => any::<i64>(), 1 => -200i64..400]
}

fn build(data: &Value, results: bool, neighbors: bool, sort: bool, warnings: &[String]) -> Payload {
    let mut p = Payload::new(data.clone()).generation(9);
    if results {
        let mut spec = ListSpec::new("/results", "results").narrowing("Pass kind to narrow");
        if sort {
            // A total order over arbitrary values: their compact text.
            spec = spec.ranked_by(|a, b| a.to_string().cmp(&b.to_string()));
        }
        p = p.list(spec);
    }
    if neighbors {
        p = p.list(ListSpec::new("/neighbors", "neighbors").narrowing("Pass depth: 1"));
    }
    for w in warnings {
        p = p.warn(w.clone());
    }
    p
}

/// Every string not under a shortenable key, keyed by its path (`*` for array items).
fn identifiers(v: &Value, path: &str, inside: bool, out: &mut Vec<(String, String)>) {
    match v {
        Value::String(s) if !inside => out.push((path.to_string(), s.clone())),
        Value::Object(m) => {
            for (k, x) in m {
                let under = inside || SHORTENABLE_KEYS.contains(&k.as_str());
                identifiers(x, &format!("{path}/{k}"), under, out);
            }
        }
        Value::Array(items) => {
            for x in items {
                identifiers(x, &format!("{path}/*"), inside, out);
            }
        }
        _ => {}
    }
}

/// Identifiers are passed back by agents: never altered, only dropped with their item.
fn identifiers_intact(original: &Value, rendered: &Value) -> Result<(), TestCaseError> {
    let (mut before, mut after) = (Vec::new(), Vec::new());
    identifiers(original, "", false, &mut before);
    identifiers(rendered, "", false, &mut after);
    let before: std::collections::HashSet<_> = before.into_iter().collect();
    for id in after {
        prop_assert!(before.contains(&id), "identifier altered: {:?}", id);
    }
    Ok(())
}

/// The invariants every rendered success must satisfy.
fn check(out: &Rendered, asked: i64) -> Result<Value, TestCaseError> {
    let budget = Budget::new(asked);
    let env: Value = serde_json::from_str(&out.text)
        .map_err(|e| TestCaseError::fail(format!("not JSON: {e}")))?;
    prop_assert!(out.ok);
    prop_assert_eq!(out.tokens, estimate_tokens(&out.text));
    prop_assert!(
        out.tokens <= budget.effective(),
        "used {} > effective {}",
        out.tokens,
        budget.effective()
    );
    // Left off the wire only for the default budget of an answer that was not cut.
    if env.get("tokenBudget").is_none() {
        prop_assert!(
            budget.is_default() && env.get("truncated").is_none(),
            "{}",
            out.text
        );
    } else {
        prop_assert_eq!(&env["tokenBudget"]["used"], &json!(out.tokens));
        prop_assert_eq!(&env["tokenBudget"]["requested"], &json!(asked));
        prop_assert_eq!(&env["tokenBudget"]["max"], &json!(10_000));
    }
    if env["truncated"] == true {
        let d = &env["dropped"];
        prop_assert!(d.is_object(), "truncated without dropped");
        let note = d["note"].as_str().unwrap_or("");
        prop_assert!(!note.is_empty());
        // "…, or raise tokenBudget." (a cap names its own parameter: "raise maxNodes.").
        let raised = note.rsplit_once("aise ").map(|(_, p)| p).unwrap_or("");
        prop_assert!(
            raised.ends_with('.')
                && raised[..raised.len() - 1]
                    .chars()
                    .all(|c| c.is_ascii_alphabetic()),
            "{}",
            note
        );
        prop_assert!(d["kind"].as_str().is_some_and(|k| !k.is_empty()));
        prop_assert!(d["count"].as_u64().unwrap() >= 1);
        prop_assert!(d["count"].as_u64() <= d["total"].as_u64());
    } else {
        prop_assert!(env.get("truncated").is_none(), "a default left on the wire");
        prop_assert!(env.get("dropped").is_none());
        prop_assert!(env.get("cursor").is_none());
    }
    if let Some(c) = env.get("cursor") {
        let cursor = Cursor::decode(c.as_str().unwrap_or_default());
        prop_assert!(cursor.is_ok());
    }
    Ok(env)
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn used_never_exceeds_the_budget(
        (data, results, neighbors, sort) in payload(),
        asked in budget(),
        warnings in prop::collection::vec("\\PC{0,80}", 0..3),
    ) {
        let request = Request { budget: Budget::new(asked), cursor: None, args_hash: 7 };
        let out = render(Ok(build(&data, results, neighbors, sort, &warnings)), &request);
        let env = check(&out, asked)?;
        identifiers_intact(&data, &env["data"])?;
        // Determinism.
        let again = render(Ok(build(&data, results, neighbors, sort, &warnings)), &request);
        prop_assert_eq!(&out, &again);
        // Untouched when it fits (lists come back ranked, nothing else changes).
        if env.get("truncated").is_none() {
            let mut expected = data.clone();
            if results && sort
                && let Some(Value::Array(items)) = expected.pointer_mut("/results")
            {
                items.sort_by_key(|v| v.to_string());
            }
            prop_assert_eq!(&env["data"], &expected);
        }
    }
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn megabyte_strings_fit(
        ch in any::<char>(),
        len in 900_000usize..1_100_000,
        in_list in any::<bool>(),
        asked in budget(),
    ) {
        let big = ch.to_string().repeat(len);
        let data = if in_list {
            json!({"results": [{"doc": big, "snippet": "x"}, {"id": 1}], "n": 2})
        } else {
            json!({"contents": big})
        };
        let request = Request { budget: Budget::new(asked), cursor: None, args_hash: 0 };
        let out = render(Ok(build(&data, in_list, false, false, &[])), &request);
        let env = check(&out, asked)?;
        prop_assert_eq!(&env["truncated"], &json!(true));
    }

    #[test]
    fn deep_nesting_fits(depth in 20usize..100, leaf in "\\PC{0,3000}", asked in budget()) {
        let mut value = Value::from(leaf);
        for i in 0..depth {
            value = if i % 2 == 0 { json!([value, i]) } else { json!({"k": value, "snippet": "s"}) };
        }
        let request = Request { budget: Budget::new(asked), cursor: None, args_hash: 0 };
        let out = render(Ok(Payload::new(value)), &request);
        check(&out, asked)?;
    }
}

proptest! {
    #![proptest_config(config(400))]

    /// `/clusters/*/hubs`: hubs are cut evenly (the same count in every cluster shown,
    /// best first) before clusters go, and `dropped` counts them honestly.
    #[test]
    fn nested_lists_cut_evenly_first(
        clusters in prop::collection::vec(
            ("\\PC{0,30}", prop::collection::vec(("[a-z/._#]{1,40}", 0i64..100), 0..9)),
            0..25,
        ),
        asked in budget(),
    ) {
        let data = json!({"builtAt": "2026-01-01T00:00:00Z", "clusters": clusters.iter().enumerate()
            .map(|(i, (label, hubs))| json!({"id": i, "label": label,
                "hubs": hubs.iter().map(|(id, score)| json!({"id": id, "score": score})).collect::<Vec<_>>()}))
            .collect::<Vec<_>>()});
        let payload = Payload::new(data.clone())
            .list(ListSpec::new("/clusters", "clusters").narrowing("Pass focus"))
            .list(ListSpec::new("/clusters/*/hubs", "hubs")
                .ranked_by(|a, b| b["score"].as_i64().cmp(&a["score"].as_i64()))
                .narrowing("Pass a smaller hubsPerCluster"))
            .generation(1);
        let out = render(Ok(payload), &Request::new(Budget::new(asked)));
        let env = check(&out, asked)?;
        identifiers_intact(&data, &env["data"])?;
        prop_assert_eq!(&env["data"]["builtAt"], &data["builtAt"]);
        let Some(shown) = env["data"]["clusters"].as_array() else {
            prop_assert_eq!(&env["dropped"]["kind"], &json!("data"));
            return Ok(());
        };
        prop_assert!(shown.len() <= clusters.len());
        // The kept clusters are the first ones; each keeps min(its hubs, k) hubs, best first.
        let k = shown.iter().zip(&clusters)
            .filter(|(c, orig)| c["hubs"].as_array().map_or(0, Vec::len) < orig.1.len())
            .map(|(c, _)| c["hubs"].as_array().map_or(0, Vec::len))
            .max();
        let mut hubs_shown = 0;
        for (c, (_, orig)) in shown.iter().zip(&clusters) {
            let hubs = c["hubs"].as_array().cloned().unwrap_or_default();
            hubs_shown += hubs.len();
            if let Some(k) = k {
                prop_assert_eq!(hubs.len(), orig.len().min(k));
            }
            let mut best: Vec<i64> = orig.iter().map(|h| h.1).collect();
            best.sort_by(|a, b| b.cmp(a));
            let got: Vec<i64> = hubs.iter().map(|h| h["score"].as_i64().unwrap()).collect();
            prop_assert_eq!(&got[..], &best[..got.len()]);
        }
        if shown.len() < clusters.len() {
            // Clusters go only once hubs are down to one each (or none).
            prop_assert!(k.is_none_or(|k| k <= 1), "k={:?}", k);
        } else if env["truncated"] == true && env["dropped"]["kind"] == "hubs" {
            let total: usize = clusters.iter().map(|c| c.1.len()).sum();
            prop_assert_eq!(&env["dropped"]["total"], &json!(total));
            prop_assert_eq!(&env["dropped"]["count"], &json!(total - hubs_shown));
        }
    }
}

proptest! {
    #![proptest_config(config(200))]

    /// Following cursors yields every item of the ranking exactly once, in order.
    #[test]
    fn cursors_page_exactly_once(
        items in prop::collection::vec("[a-z0-9 ]{0,30}", 0..300),
        asked in 200i64..3000,
    ) {
        let items: Vec<Value> = items.into_iter().enumerate()
            .map(|(i, s)| json!({"id": i, "name": s})).collect();
        let payload = Payload::new(json!({"results": items, "total": items.len()}))
            .list(ListSpec::new("/results", "results")
                .ranked_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str())))
            .generation(5);
        let mut expected = items.clone();
        expected.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
        let mut seen = Vec::new();
        let mut cursor: Option<Cursor> = None;
        for _ in 0..=items.len() {
            let request = Request { budget: Budget::new(asked), cursor: cursor.as_ref(), args_hash: 1 };
            let out = render(Ok(payload.clone()), &request);
            let env = check(&out, asked)?;
            let page = env["data"]["results"].as_array().cloned().unwrap_or_default();
            prop_assert!(!page.is_empty() || items.is_empty());
            seen.extend(page);
            match env.get("cursor") {
                Some(c) => cursor = Some(Cursor::decode(c.as_str().unwrap()).unwrap()),
                None => break,
            }
        }
        prop_assert_eq!(seen, expected);
    }
}

proptest! {
    #![proptest_config(config(150))]

    /// Nested lists with cursors, caps and suggested parameters: every page fits, says
    /// what it cut with a note, renders deterministically, never suggests a parameter the
    /// call set; following cursors while only hubs are cut shows each cluster's hubs
    /// exactly once, in ranked order.
    #[test]
    fn nested_cursors_caps_and_notes(
        clusters in prop::collection::vec(prop::collection::vec(0i64..1000, 0..12), 1..6),
        asked in 100i64..2500,
        capped in any::<bool>(),
        given_focus in any::<bool>(),
    ) {
        check_nested_cursors(&clusters, asked, capped, given_focus)?;
    }

}

/// The body of `nested_cursors_caps_and_notes`, also run on the cases it once failed.
fn check_nested_cursors(
    clusters: &[Vec<i64>],
    asked: i64,
    capped: bool,
    given_focus: bool,
) -> Result<(), TestCaseError> {
    let data = json!({"clusters": clusters.iter().enumerate()
        .map(|(i, hubs)| json!({"id": i, "hubs": hubs.iter().enumerate()
            .map(|(j, s)| json!({"id": format!("py:d{}/f.py#h{j}", i % 2), "score": s}))
            .collect::<Vec<_>>()}))
        .collect::<Vec<_>>()});
    let mut payload = Payload::new(data)
        .list(ListSpec::new("/clusters", "clusters").narrowing_param("focus", "focus:'<dir>'"))
        .list(
            ListSpec::new("/clusters/*/hubs", "hubs")
                .ranked_by(|a, b| b["score"].as_i64().cmp(&a["score"].as_i64()))
                .narrowing_param("focus", "focus:'<dir>'")
                .narrowing_prefix("fileFilter", |v| {
                    v["id"]
                        .as_str()
                        .and_then(|id| id.split_once(':'))
                        .map(|(_, p)| p.split('#').next().unwrap_or("").to_string())
                }),
        )
        .generation(3);
    if capped {
        payload = payload.capped("hubs", 3, 9, "hubsPerCluster", 3, "");
    }
    if given_focus {
        payload = payload.given(["focus"]);
    }
    let mut cursor: Option<Cursor> = None;
    let mut seen: Vec<Vec<i64>> = vec![Vec::new(); clusters.len()];
    let mut nested_only = true;
    for _ in 0..40 {
        let request = Request {
            budget: Budget::new(asked),
            cursor: cursor.as_ref(),
            args_hash: 9,
        };
        let out = render(Ok(payload.clone()), &request);
        prop_assert_eq!(
            &out,
            &render(Ok(payload.clone()), &request),
            "deterministic"
        );
        let env = check(&out, asked)?;
        if env["truncated"] == true {
            let note = env["dropped"]["note"].as_str().unwrap_or("");
            prop_assert!(!note.is_empty());
            if given_focus {
                prop_assert!(!note.contains("focus"), "{}", note);
            }
        }
        let Some(shown) = env["data"]["clusters"].as_array() else {
            break;
        };
        if shown.len() < clusters.len() {
            nested_only = false;
        }
        for c in shown {
            let i = c["id"].as_u64().unwrap() as usize;
            seen[i].extend(
                c["hubs"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| h["score"].as_i64().unwrap()),
            );
        }
        match env.get("cursor") {
            Some(c) if nested_only => cursor = Some(Cursor::decode(c.as_str().unwrap()).unwrap()),
            _ => break,
        }
    }
    if nested_only && cursor.is_some() {
        for (got, orig) in seen.iter().zip(clusters) {
            let mut want = orig.clone();
            want.sort_by(|a, b| b.cmp(a));
            prop_assert_eq!(got, &want);
        }
    }
    Ok(())
}

/// Eight hubs of one score under a cap of three: the cursor must page through all eight,
/// not show the first tied hub again (found by the property test in CI, 25 Nov 2026).
#[test]
fn nested_cursors_page_through_tied_hubs_under_a_cap() {
    check_nested_cursors(&[vec![0; 8]], 105, true, true).unwrap();
}
