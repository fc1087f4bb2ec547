//! One import list of thousands of names (a generated declaration file re-exports ≈ 5,000;
//! 2,000 here, far past the match limit) is extracted whole: every name with its module,
//! every re-exported name, and no name of a local `export { … }` taken for an import. The
//! query walk keeps at most `MATCH_LIMIT` states in progress and marks a walk that passed it
//! `had_errors`; a pattern that held a state per name until the list's `from` came
//! (quadratic) passes it, which this test sees without timing anything.

mod common;
use common::*;

const N: usize = 2_000;

fn names(prefix: &str) -> Vec<String> {
    (0..N).map(|i| format!("{prefix}{i}")).collect()
}

fn check(lang: &str, file: &str) {
    let imported = names("imported_");
    let reexported = names("reexported_");
    let local = names("local_");
    let src = format!(
        "import {{ {} }} from \"./m\";\nexport {{ {} }} from \"./n\";\nconst {};\nexport {{ {} }};\n",
        imported.join(", "),
        reexported
            .iter()
            .map(|n| format!("{n} as x_{n}"))
            .collect::<Vec<_>>()
            .join(", "),
        local
            .iter()
            .map(|n| format!("{n} = 1"))
            .collect::<Vec<_>>()
            .join(", "),
        local.join(", "),
    );
    let f = extract_source(lang, file, &src);
    assert!(
        !f.had_errors,
        "{lang}: the file parses and the walk is whole"
    );
    assert_eq!(
        f.imports.len(),
        2,
        "{lang}: {:?}",
        imports(&f).iter().map(|l| l.len()).collect::<Vec<_>>()
    );
    let (m, n) = (&f.imports[0], &f.imports[1]);
    assert_eq!((m.module.as_str(), m.reexport), ("./m", false));
    assert_eq!((n.module.as_str(), n.reexport), ("./n", true));
    let got: Vec<&str> = m.names.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(got, imported, "{lang}: every imported name, in order");
    let got: Vec<(&str, &str)> = n
        .names
        .iter()
        .map(|x| (x.name.as_str(), x.alias.as_deref().unwrap_or("")))
        .collect();
    let want: Vec<String> = reexported.iter().map(|n| format!("x_{n}")).collect();
    let want: Vec<(&str, &str)> = reexported
        .iter()
        .map(String::as_str)
        .zip(want.iter().map(String::as_str))
        .collect();
    assert_eq!(got, want, "{lang}: every re-exported name with its alias");
    let import_mentions = f
        .mentions
        .iter()
        .filter(|m| m.name.starts_with("imported_") || m.name.starts_with("reexported_"))
        .count();
    assert_eq!(
        import_mentions,
        2 * N,
        "{lang}: each imported name is mentioned once"
    );
}

#[test]
fn typescript_list_of_2000_names() {
    check("ts", "index.d.ts");
}

#[test]
fn javascript_list_of_2000_names() {
    check("js", "index.js");
}
