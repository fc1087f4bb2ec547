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
    assert_eq!(env["truncated"], false);
    assert!(env.get("dropped").is_none() && env.get("cursor").is_none());
    assert_eq!(env["warnings"], json!([]));
    assert_eq!(env["tokenBudget"]["requested"], 2000);
    assert_eq!(env["tokenBudget"]["max"], 10_000);
    assert_eq!(env["tokenBudget"]["used"], out.tokens);
    assert_eq!(out.tokens, estimate_tokens(&out.text));
    // Key order of the contract.
    assert!(out.text.starts_with(r#"{"ok":true,"data":{"#));
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
    let out = render(Ok(payload), &req(200));
    let env = parse(&out);
    assert!(out.tokens <= 200);
    let note = env["dropped"]["note"].as_str().unwrap();
    assert_eq!(env["dropped"]["kind"], "neighbors");
    assert!(note.contains(" Also dropped "), "{note}");
    assert!(note.contains(" of 30 candidates"), "{note}");
    assert!(
        note.ends_with("Pass depth: 1, or raise tokenBudget."),
        "{note}"
    );
    let cursor = Cursor::decode(env["cursor"].as_str().unwrap()).unwrap();
    assert_eq!(cursor.offsets.len(), 2);
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
