use serde_json::{Value, json};

use super::*;
use crate::{ErrorCode, ListSpec};

fn parse(r: &Rendered) -> Value {
    serde_json::from_str(&r.text).expect("envelope is JSON")
}

fn req(budget: i64) -> Request<'static> {
    Request::new(Budget::new(budget))
}

fn refs(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            json!({"file": format!("src/mod_{}.py", i % 7), "line": i + 1, "col": 5,
                   "snippet": format!("    value_{i} = compute(value_{i}, other)")})
        })
        .collect()
}

fn by_file_then_line(a: &Value, b: &Value) -> std::cmp::Ordering {
    (a["file"].as_str(), a["line"].as_u64()).cmp(&(b["file"].as_str(), b["line"].as_u64()))
}

fn refs_payload(n: usize) -> Payload {
    Payload::new(json!({"target": "py:src/a.py#f", "locations": refs(n), "total": n}))
        .list(
            ListSpec::new("/locations", "references")
                .ranked_by(by_file_then_line)
                .narrowing("Pass fileFilter:'src/' to scope"),
        )
        .generation(3)
}

#[test]
fn a_payload_that_fits_is_untouched() {
    let data = json!({"built": false, "files": 0, "languages": ["py", "ts"], "lsp": {}});
    let out = render(Ok(Payload::new(data.clone())), &req(2000));
    let env = parse(&out);
    assert!(out.ok);
    assert_eq!(env["data"], data);
    // Defaults are left off the wire (contract §2).
    assert!(env.get("truncated").is_none(), "{env}");
    assert!(env.get("dropped").is_none() && env.get("cursor").is_none());
    assert!(env.get("warnings").is_none(), "{env}");
    // The default budget of an uncut answer says nothing the agent does not know.
    assert!(env.get("tokenBudget").is_none(), "{env}");
    assert_eq!(out.text, format!(r#"{{"ok":true,"data":{data}}}"#));
    assert_eq!(out.tokens, estimate_tokens(&out.text));
    // A budget other than the default is reported: what was asked, used and the max.
    let out = render(Ok(Payload::new(data.clone())), &req(1500));
    let env = parse(&out);
    assert_eq!(env["tokenBudget"]["requested"], 1500);
    assert_eq!(env["tokenBudget"]["max"], 10_000);
    assert_eq!(env["tokenBudget"]["used"], out.tokens);
    assert_eq!(out.tokens, estimate_tokens(&out.text));
    // Key order of the contract.
    assert!(out.text.starts_with(r#"{"ok":true,"data":{"#));
    assert!(out.text.ends_with(&format!(
        r#"}},"tokenBudget":{{"requested":1500,"used":{},"max":10000}}}}"#,
        out.tokens
    )));
}

#[test]
fn a_cut_answer_at_the_default_budget_reports_the_budget() {
    let out = render(Ok(refs_payload(3000)), &req(2000));
    let env = parse(&out);
    assert_eq!(env["truncated"], true, "{env}");
    assert_eq!(env["tokenBudget"]["requested"], 2000);
    assert_eq!(env["tokenBudget"]["used"], out.tokens);
}

#[test]
fn a_long_list_is_ranked_cut_and_noted() {
    let out = render(Ok(refs_payload(300)), &req(800));
    let env = parse(&out);
    assert!(out.tokens <= 800, "{}", out.tokens);
    assert_eq!(env["truncated"], true);
    let kept = env["data"]["locations"].as_array().unwrap();
    let d = &env["dropped"];
    assert_eq!(d["kind"], "references");
    assert_eq!(d["total"], 300);
    assert_eq!(d["count"].as_u64().unwrap() as usize + kept.len(), 300);
    assert_eq!(
        d["note"],
        format!(
            "Dropped {} of 300 references to fit tokenBudget=800. Pass fileFilter:'src/' to scope, or raise tokenBudget.",
            300 - kept.len()
        )
    );
    // Snippets survive: lists are cut before snippets go.
    assert!(kept[0].get("snippet").is_some());
    // Ranked: grouped by file then line.
    let mut sorted = kept.clone();
    sorted.sort_by(by_file_then_line);
    assert_eq!(&sorted, kept);
    assert_eq!(kept[0]["file"], "src/mod_0.py");
    // The largest prefix: one more item would not fit.
    assert!(env["cursor"].is_string());
}

#[test]
fn cursors_page_through_the_whole_ranking() {
    let payload = refs_payload(250);
    let mut expected = refs(250);
    expected.sort_by(by_file_then_line);
    let mut seen: Vec<Value> = Vec::new();
    let mut cursor: Option<Cursor> = None;
    for _ in 0..100 {
        let request = Request {
            budget: Budget::new(600),
            cursor: cursor.as_ref(),
            args_hash: 42,
        };
        let env = parse(&render(Ok(payload.clone()), &request));
        seen.extend(env["data"]["locations"].as_array().unwrap().iter().cloned());
        match env.get("cursor") {
            Some(c) => cursor = Some(Cursor::decode(c.as_str().unwrap()).unwrap()),
            None => break,
        }
    }
    assert_eq!(seen, expected);
}

#[test]
fn a_cursor_from_another_generation_or_call_is_stale() {
    let first = parse(&render(
        Ok(refs_payload(300)),
        &Request {
            budget: Budget::new(500),
            cursor: None,
            args_hash: 42,
        },
    ));
    let cursor = Cursor::decode(first["cursor"].as_str().unwrap()).unwrap();
    for (generation, hash) in [(4, 42), (3, 43)] {
        let out = render(
            Ok(refs_payload(300).generation(generation)),
            &Request {
                budget: Budget::new(500),
                cursor: Some(&cursor),
                args_hash: hash,
            },
        );
        let env = parse(&out);
        assert!(!out.ok);
        assert_eq!(env["error"]["code"], "CURSOR_STALE");
    }
}

#[test]
fn snippets_go_before_the_last_item() {
    let big = "x".repeat(3000);
    let payload = Payload::new(json!({"locations": [{"file": "a.py", "line": 1, "snippet": big}]}))
        .list(ListSpec::new("/locations", "references"));
    let out = render(Ok(payload), &req(300));
    let env = parse(&out);
    assert!(out.tokens <= 300);
    assert_eq!(
        env["data"]["locations"],
        json!([{"file": "a.py", "line": 1}])
    );
    assert_eq!(env["dropped"]["kind"], "snippets");
    assert_eq!(
        env["dropped"]["note"],
        "Removed 1 snippet fields to fit tokenBudget=300. Raise tokenBudget."
    );
    assert!(env.get("cursor").is_none());
}

#[test]
fn a_payload_without_lists_shortens_strings() {
    let doc = "é".repeat(1_000_000);
    let payload = Payload::new(json!({"contents": doc, "language": "python"}))
        .narrowing("Pass a position on a smaller symbol");
    let out = render(Ok(payload), &req(100));
    let env = parse(&out);
    assert!(out.tokens <= 100);
    let contents = env["data"]["contents"].as_str().unwrap();
    assert!(contents.ends_with('…') && contents.starts_with('é'));
    assert_eq!(env["data"]["language"], "python");
    assert_eq!(env["dropped"]["kind"], "text");
    assert_eq!(env["dropped"]["count"], 1);
    assert!(
        env["dropped"]["note"]
            .as_str()
            .unwrap()
            .ends_with("Pass a position on a smaller symbol, or raise tokenBudget.")
    );
}

#[test]
fn nothing_fits_gives_a_minimal_envelope() {
    let numbers: Vec<u32> = (0..20_000).collect();
    let out = render(Ok(Payload::new(json!({"raw": numbers}))), &req(100));
    let env = parse(&out);
    assert!(out.tokens <= 100);
    assert_eq!(env["data"], json!({}));
    assert_eq!(env["truncated"], true);
    assert_eq!(env["dropped"]["kind"], "data");
}

#[test]
fn the_minimal_envelope_fits_the_smallest_budget_whatever_was_asked() {
    let numbers: Vec<u32> = (0..20_000).collect();
    for asked in [i64::MIN, -1, 0, 99] {
        let out = render(
            Ok(Payload::new(json!({"raw": numbers})).warn("w".repeat(5000))),
            &req(asked),
        );
        let env = parse(&out);
        assert!(out.tokens <= 100, "{asked}: {}", out.tokens);
        assert_eq!(env["tokenBudget"]["requested"], asked);
        assert_eq!(
            env["warnings"][0],
            format!("tokenBudget {asked} is outside [100, 10000]; using 100.")
        );
    }
}

#[test]
fn several_lists_name_the_largest_cut_and_mention_the_others() {
    let a: Vec<Value> = (0..100).map(|i| json!({"id": format!("a{i}")})).collect();
    let b: Vec<Value> = (0..30).map(|i| json!({"id": format!("b{i}")})).collect();
    let payload = Payload::new(json!({"neighbors": a, "candidates": b}))
        .list(ListSpec::new("/candidates", "candidates"))
        .list(ListSpec::new("/neighbors", "neighbors").narrowing("Pass depth: 1"));
    // Long form.
    let out = render(Ok(payload.clone()), &req(250));
    let env = parse(&out);
    assert!(out.tokens <= 250);
    let note = env["dropped"]["note"].as_str().unwrap();
    assert_eq!(env["dropped"]["kind"], "neighbors");
    assert!(note.contains(" Also dropped "), "{note}");
    assert!(note.contains(" of 30 candidates"), "{note}");
    assert!(note.contains("to fit tokenBudget=250."), "{note}");
    assert!(
        note.ends_with("Pass depth: 1, or raise tokenBudget."),
        "{note}"
    );
    let cursor = Cursor::decode(env["cursor"].as_str().unwrap()).unwrap();
    assert_eq!(cursor.offsets.len(), 2);
    // Short form below SHORT_NOTES_BELOW: still names the others and the narrowing.
    let out = render(Ok(payload), &req(150));
    let env = parse(&out);
    assert!(out.tokens <= 150);
    let kept = env["data"]["neighbors"].as_array().unwrap().len();
    assert_eq!(
        env["dropped"]["note"],
        format!(
            "Dropped {} of 100 neighbors. Also cut candidates. Pass depth: 1, or raise tokenBudget.",
            100 - kept
        )
    );
}

/// A `map_search`-like item: identifiers an agent passes back, and prose.
fn node(i: usize) -> Value {
    json!({
        "id": format!("py:shop/store/session_store.py#SessionStore.method_number_{i}"),
        "kind": "function",
        "name": format!("method_number_{i}"),
        "qualifiedName": format!("SessionStore.method_number_{i}"),
        "file": "shop/store/session_store.py",
        "line": i + 1,
        "signature": format!("def method_number_{i}(self, session: Session, *, refresh: bool = False) -> None"),
        "doc": "Loads the session from the backing store and refreshes its expiry.",
        "score": 1.0,
    })
}

/// Every string of `v` that is not under a shortenable key, with its path.
fn identifiers(v: &Value, path: &str, inside: bool, out: &mut Vec<(String, String)>) {
    match v {
        Value::String(s) if !inside => out.push((path.to_string(), s.clone())),
        Value::Object(m) => {
            for (k, x) in m {
                let under = inside || crate::SHORTENABLE_KEYS.contains(&k.as_str());
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

fn assert_identifiers_intact(original: &Value, rendered: &Value) {
    let (mut before, mut after) = (Vec::new(), Vec::new());
    identifiers(original, "", false, &mut before);
    identifiers(rendered, "", false, &mut after);
    for id in &after {
        assert!(before.contains(id), "identifier changed: {id:?}");
    }
}

#[test]
fn identifiers_are_never_shortened() {
    let results: Vec<Value> = (0..12).map(node).collect();
    let data = json!({"query": "re", "results": results, "total": 12,
                      "builtAt": "2026-01-01T00:00:00Z"});
    for budget in [100, 120, 150, 200, 300, 500, 800] {
        let payload = Payload::new(data.clone()).list(
            ListSpec::new("/results", "results").narrowing("Pass kind or a longer query to narrow"),
        );
        let out = render(Ok(payload), &req(budget));
        let env = parse(&out);
        assert!(out.tokens <= budget as usize);
        assert_identifiers_intact(&data, &env["data"]);
        assert_eq!(env["data"]["builtAt"], "2026-01-01T00:00:00Z", "{budget}");
        for item in env["data"]["results"].as_array().unwrap() {
            assert!(!item["id"].as_str().unwrap().contains('…'));
        }
    }
}

#[test]
fn a_106_token_answer_at_budget_100_keeps_its_identifiers() {
    // The shape of the audit's map_search hit: short identifiers, long prose.
    let data = json!({
        "id": "py:shop/store.py#SessionStore.load",
        "kind": "method",
        "name": "load",
        "qualifiedName": "SessionStore.load",
        "file": "shop/store.py",
        "line": 42,
        "signature": "def load(self, session_id: str, *, refresh: bool = False) -> Session",
        // Long enough to make the envelope (defaults, tokenBudget included, left off the
        // wire) 101–110 tokens.
        "doc": "Loads the session from the backing store and refreshes its expiry when the caller passes refresh=True. It never reads outside the root and never writes a file.",
    });
    let full = render(Ok(Payload::new(data.clone())), &req(2000));
    assert!((101..=110).contains(&full.tokens), "{}", full.tokens);
    let out = render(
        Ok(Payload::new(data.clone()).narrowing("Pass a nodeId")),
        &req(100),
    );
    let env = parse(&out);
    assert!(out.tokens <= 100);
    for key in ["id", "kind", "name", "qualifiedName", "file"] {
        assert_eq!(env["data"][key], data[key], "{key}");
    }
    assert_eq!(env["dropped"]["kind"], "text");
    assert!(env["data"]["doc"].as_str().unwrap().ends_with('…'));
    assert_eq!(
        env["dropped"]["note"],
        format!(
            "Shortened {} strings (…). Pass a nodeId, or raise tokenBudget.",
            env["dropped"]["count"]
        )
    );
}

#[test]
fn items_go_to_zero_before_identifiers_are_touched() {
    let long_id = format!("py:{}.py#f", "deep/".repeat(100));
    let data = json!({"target": "py:a.py#g", "results": [{"id": long_id, "doc": "d".repeat(500)}]});
    let payload = Payload::new(data.clone()).list(ListSpec::new("/results", "results"));
    let out = render(Ok(payload), &req(100));
    let env = parse(&out);
    assert!(out.tokens <= 100);
    assert_eq!(env["data"], json!({"target": "py:a.py#g", "results": []}));
    assert_eq!(env["dropped"]["kind"], "results");
    assert_eq!(env["dropped"]["count"], 1);
    // Nothing was kept, so a cursor would only repeat this page.
    assert!(env.get("cursor").is_none());
}

#[test]
fn undeclared_long_strings_are_not_shortened_but_declared_ones_are() {
    let data = json!({"id": "py:a.py#f", "rendered": "r".repeat(2000)});
    let env = parse(&render(Ok(Payload::new(data.clone())), &req(100)));
    assert_eq!(env["data"], json!({}));
    assert_eq!(env["dropped"]["kind"], "data");
    let payload = Payload::new(data).shortenable("rendered");
    let env = parse(&render(Ok(payload), &req(100)));
    assert_eq!(env["data"]["id"], "py:a.py#f");
    assert!(env["data"]["rendered"].as_str().unwrap().ends_with('…'));
}

fn overview(clusters: usize, hubs: usize) -> Value {
    let clusters: Vec<Value> = (0..clusters)
        .map(|c| {
            let hubs: Vec<Value> = (0..hubs)
                .map(|h| json!({"id": format!("py:pkg{c}/mod.py#hub_{h}"), "score": h}))
                .collect();
            json!({"id": c, "label": format!("pkg{c}/"), "files": 3, "hubs": hubs})
        })
        .collect();
    json!({"builtAt": "2026-01-01T00:00:00Z", "files": 30, "clusters": clusters})
}

fn overview_payload(data: &Value) -> Payload {
    Payload::new(data.clone())
        .list(ListSpec::new("/clusters", "clusters").narrowing("Pass focus:'<dir>' to scope"))
        .list(
            ListSpec::new("/clusters/*/hubs", "hubs")
                .ranked_by(|a, b| b["score"].as_i64().cmp(&a["score"].as_i64()))
                .narrowing("Pass a smaller hubsPerCluster"),
        )
        .generation(2)
}

#[test]
fn nested_lists_are_trimmed_evenly_before_their_holders() {
    let data = overview(6, 5);
    let full = render(Ok(overview_payload(&data)), &req(10_000));
    let full_env = parse(&full);
    // Ranked in place even when nothing is cut.
    assert_eq!(full_env["data"]["clusters"][0]["hubs"][0]["score"], 4);
    let mut saw_hubs_only = false;
    let mut saw_clusters_cut = false;
    for budget in (100..full.tokens as i64).step_by(7) {
        let out = render(Ok(overview_payload(&data)), &req(budget));
        let env = parse(&out);
        assert!(out.tokens <= budget as usize);
        assert_identifiers_intact(&data, &env["data"]);
        let clusters = env["data"]["clusters"].as_array().unwrap();
        let counts: Vec<usize> = clusters
            .iter()
            .map(|c| c["hubs"].as_array().unwrap().len())
            .collect();
        // Evenly: every cluster shown keeps the same number of hubs, the best ones.
        assert!(
            counts.windows(2).all(|w| w[0] == w[1]),
            "{budget}: {counts:?}"
        );
        for c in clusters {
            if let Some(h) = c["hubs"].get(0) {
                assert_eq!(h["score"], 4);
            }
        }
        let hubs_shown: usize = counts.iter().sum();
        if clusters.len() == 6 && hubs_shown < 30 {
            saw_hubs_only = true;
            assert_eq!(env["dropped"]["kind"], "hubs");
            assert_eq!(env["dropped"]["count"], 30 - hubs_shown);
            assert_eq!(env["dropped"]["total"], 30);
            // Only nested items were cut: the cursor pages every cluster's next hubs.
            let cursor = Cursor::decode(env["cursor"].as_str().unwrap()).unwrap();
            let each = counts[0];
            let next = render(
                Ok(overview_payload(&data)),
                &Request {
                    budget: Budget::new(10_000),
                    cursor: Some(&cursor),
                    args_hash: 0,
                },
            );
            let next = parse(&next);
            let clusters = next["data"]["clusters"].as_array().unwrap();
            assert_eq!(clusters.len(), 6, "{next}");
            for c in clusters {
                let hubs = c["hubs"].as_array().unwrap();
                assert_eq!(hubs.len(), 5 - each, "{next}");
                if let Some(h) = hubs.first() {
                    assert_eq!(h["score"], 4 - each as i64);
                }
            }
        }
        if clusters.len() < 6 && !clusters.is_empty() {
            saw_clusters_cut = true;
            // Clusters go only once hubs are down to one each.
            assert!(counts.iter().all(|n| *n <= 1), "{budget}: {counts:?}");
            assert!(env["cursor"].is_string());
            let note = env["dropped"]["note"].as_str().unwrap();
            assert!(note.contains("hubs") && note.contains("clusters"), "{note}");
        }
    }
    assert!(saw_hubs_only && saw_clusters_cut);
}

#[test]
fn requested_echoes_the_number_asked() {
    let v: Value = serde_json::from_str("18446744073709551615").unwrap();
    let out = render(
        Ok(Payload::new(json!({}))),
        &Request::new(Budget::from_arg(Some(&v))),
    );
    assert!(
        out.text.contains(r#""requested":18446744073709551615,"#),
        "{}",
        out.text
    );
    let env = parse(&out);
    assert_eq!(
        env["warnings"][0],
        "tokenBudget 18446744073709551615 is outside [100, 10000]; using 10000."
    );
}

#[test]
fn error_identifiers_stay_and_prose_shortens() {
    let err = ToolError::new(ErrorCode::LspFailed, "crashed", "see stderr")
        .with_extra("field", "nodeId")
        .with_extra("stderrTail", "s".repeat(5000));
    let out = render_error(&err, Budget::new(100));
    let env = parse(&out);
    assert!(out.tokens <= 100);
    assert_eq!(env["error"]["field"], "nodeId");
    assert!(env["error"]["stderrTail"].as_str().unwrap().ends_with('…'));
}

#[test]
fn clamped_budgets_warn_and_echo() {
    let out = render(Ok(Payload::new(json!({}))), &req(50_000));
    let env = parse(&out);
    assert_eq!(env["tokenBudget"]["requested"], 50_000);
    assert_eq!(
        env["warnings"],
        json!(["tokenBudget 50000 is outside [100, 10000]; using 10000."])
    );
}

#[test]
fn errors_keep_their_code_and_fit() {
    let err = ToolError::new(ErrorCode::LspFailed, "m".repeat(100_000), "see stderr")
        .with_extra("stderrTail", "s".repeat(50_000));
    let out = render(Err(err), &req(100));
    let env = parse(&out);
    assert!(!out.ok && out.tokens <= 100);
    assert_eq!(env["ok"], false);
    assert_eq!(env["error"]["code"], "LSP_FAILED");
    assert!(env["error"]["message"].as_str().unwrap().ends_with('…'));

    let small = render_error(
        &ToolError::bad_args("tokenBudget: expected an integer", "e.g. 800"),
        Budget::new(2000),
    );
    assert_eq!(
        small.text,
        r#"{"ok":false,"error":{"code":"BAD_ARGS","message":"tokenBudget: expected an integer","hint":"e.g. 800"}}"#
    );
}

#[test]
fn an_error_with_countless_extras_still_fits() {
    let mut err = ToolError::new(ErrorCode::SymbolNotFound, "no symbol", "nearby:");
    for i in 0..5000 {
        err = err.with_extra(format!("k{i}"), i);
    }
    let out = render_error(&err, Budget::new(100));
    let env = parse(&out);
    assert!(out.tokens <= 100);
    assert_eq!(env["error"]["code"], "SYMBOL_NOT_FOUND");
}

#[test]
fn rendering_is_deterministic() {
    let a = render(Ok(refs_payload(400)), &req(700));
    let b = render(Ok(refs_payload(400)), &req(700));
    assert_eq!(a, b);
}

#[test]
fn shorten_one_counts_characters() {
    let mut s = "héllo wörld".to_string();
    assert!(shorten_one(&mut s, 5));
    assert_eq!(s, "héll…");
    let mut t = "abc".to_string();
    assert!(!shorten_one(&mut t, 3));
    assert!(shorten_one(&mut t, 2));
    assert_eq!(t, "a…");
}

#[test]
fn largest_finds_the_boundary() {
    assert_eq!(largest(1, 100, |x| x <= 37), Some(37));
    assert_eq!(largest(1, 100, |_| true), Some(100));
    assert_eq!(largest(1, 100, |_| false), None);
    assert_eq!(largest(5, 4, |_| true), None);
}

#[test]
fn notes_name_only_parameters_the_call_did_not_set() {
    let spec = || {
        ListSpec::new("/refs", "references")
            .narrowing_param("edgeKinds", "edgeKinds:['calls']")
            .narrowing_prefix("fileFilter", |v| v["file"].as_str().map(String::from))
    };
    let data = json!({"refs": refs(200)});
    let note = |given: &[&str]| {
        let payload = Payload::new(data.clone())
            .list(spec())
            .given(given.iter().copied());
        let env = parse(&render(Ok(payload), &req(400)));
        env["dropped"]["note"].as_str().unwrap().to_string()
    };
    let all = note(&[]);
    // The busiest directory of the list itself, never a made-up one.
    assert!(
        all.contains("Pass edgeKinds:['calls'] or fileFilter:'src/' to narrow"),
        "{all}"
    );
    let no_kinds = note(&["edgeKinds"]);
    assert!(
        !no_kinds.contains("edgeKinds") && no_kinds.contains("fileFilter:'src/'"),
        "{no_kinds}"
    );
    let none = note(&["edgeKinds", "fileFilter"]);
    assert!(!none.contains("Pass "), "{none}");
    assert!(none.ends_with("Raise tokenBudget."), "{none}");
    // Items at the root: no directory to suggest.
    let flat: Vec<Value> = (0..200)
        .map(|i| json!({"file": format!("m{i}.py"), "line": i}))
        .collect();
    let env = parse(&render(
        Ok(Payload::new(json!({"refs": flat})).list(spec())),
        &req(300),
    ));
    let note = env["dropped"]["note"].as_str().unwrap();
    assert!(!note.contains("fileFilter"), "{note}");
}

#[test]
fn caps_are_reported_like_cuts() {
    let items: Vec<Value> = (0..50).map(|i| json!({"id": format!("n{i}")})).collect();
    let payload = || {
        Payload::new(json!({"neighbors": items.clone()}))
            .list(ListSpec::new("/neighbors", "neighbors"))
            .capped(
                "neighbors",
                50,
                120,
                "maxNodes",
                50,
                "Pass edgeKinds to narrow",
            )
    };
    let env = parse(&render(Ok(payload()), &req(10_000)));
    assert_eq!(env["truncated"], true);
    assert_eq!(env["dropped"]["kind"], "neighbors");
    assert_eq!(env["dropped"]["count"], 70);
    assert_eq!(env["dropped"]["total"], 120);
    let note = env["dropped"]["note"].as_str().unwrap();
    assert!(
        note.contains("maxNodes=50") && note.ends_with("or raise maxNodes."),
        "{note}"
    );
    assert!(env.get("cursor").is_none(), "a cap has no next page");
    // A cap that cut nothing is no cut.
    let whole =
        Payload::new(json!({"neighbors": []})).capped("neighbors", 3, 3, "maxNodes", 50, "");
    let env = parse(&render(Ok(whole), &req(10_000)));
    assert!(env.get("truncated").is_none(), "{env}");
    // With a budget cut as well: both are named.
    let env = parse(&render(Ok(payload()), &req(150)));
    assert_eq!(env["truncated"], true);
    let note = env["dropped"]["note"].as_str().unwrap();
    assert!(note.contains("neighbors"), "{note}");
}

#[test]
fn cap_notes_use_their_lists_suggestions_and_always_ones_stay() {
    let items: Vec<Value> = (0..50).map(|i| json!({"id": format!("n{i}")})).collect();
    let payload = |given: &[&str]| {
        Payload::new(json!({"neighbors": items.clone()}))
            .list(
                ListSpec::new("/neighbors", "neighbors")
                    .narrowing_param("edgeKinds", "edgeKinds")
                    .narrowing_param("direction", "direction")
                    .narrowing_always("depth:1"),
            )
            .capped(
                "neighbors",
                50,
                120,
                "maxNodes",
                50,
                "Pass edgeKinds or direction",
            )
            .given(given.iter().copied())
    };
    let env = parse(&render(Ok(payload(&["edgeKinds", "depth"])), &req(10_000)));
    let note = env["dropped"]["note"].as_str().unwrap();
    assert!(
        note.contains("Pass direction or depth:1 to narrow") && !note.contains("edgeKinds"),
        "{note}"
    );
}

/// `complete` is the tool's statement about its source list (whole before any cut); the
/// envelope never rewrites it: a budget cut is `truncated`, not incompleteness.
#[test]
fn a_cut_leaves_complete_alone() {
    let payload = Payload::new(json!({"complete": true, "locations": refs(300)}))
        .list(ListSpec::new("/locations", "references"));
    let env = parse(&render(Ok(payload), &req(300)));
    assert_eq!(env["truncated"], true);
    assert_eq!(env["data"]["complete"], true);
}

/// Issue 15: a BAD_ARGS about a 1 MB argument echoes at most a few hundred characters of
/// it, and trimmed to the smallest budget it keeps its `field`.
#[test]
fn a_huge_echoed_argument_is_clipped_and_keeps_its_field() {
    let huge = "a".repeat(1_000_000);
    let err = ToolError::bad_args(
        format!("file: {:?} is absolute", format!("/{huge}")),
        "Pass file relative to the root with / separators, e.g. \"src/app.py\".",
    )
    .with_extra("field", "file")
    .with_extra("value", huge.clone())
    .with_extra("expected", "path relative to the root, inside it");
    let out = render_error(&err, Budget::new(2000));
    assert!(out.text.len() < 1500, "{} chars", out.text.len());
    let v = parse(&out);
    assert_eq!(v["error"]["field"], "file");
    assert!(
        v["error"]["message"]
            .as_str()
            .unwrap()
            .ends_with("is absolute")
    );
    for budget in [100, 150, 300] {
        let v = parse(&render_error(&err, Budget::new(budget)));
        assert_eq!(v["error"]["code"], "BAD_ARGS", "{v}");
        assert_eq!(v["error"]["field"], "file", "budget {budget}: {v}");
    }
    // A huge field name (an unknown argument) is clipped too.
    let odd = ToolError::bad_args("unknown field", "x").with_extra("field", huge);
    assert!(render_error(&odd, Budget::new(2000)).text.len() < 600);
}
