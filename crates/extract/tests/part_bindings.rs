//! Names bound to parts of values (`bindings.scm`'s `@binding.of`, `@binding.position`,
//! `@binding.field`, `@binding.region`): pattern and loop bindings come out typed by the
//! part they hold, with the region they hold in.

mod common;

use navmap_extract::facts::FileFacts;

fn facts(lang: &str, path: &str, source: &str) -> FileFacts {
    let registry = navmap_grammars::registry();
    let l = registry.by_id(lang).unwrap();
    navmap_extract::extract_path(l, path, source)
}

/// `name: type [qualifier] lines`, one per binding.
fn bindings(f: &FileFacts) -> Vec<String> {
    f.bindings
        .iter()
        .map(|b| {
            let q = b.type_qualifier.as_deref().unwrap_or("");
            let until = b.until.map(|u| format!("..{}", u + 1)).unwrap_or_default();
            format!("{}: {} [{q}] {}{until}", b.name, b.type_name, b.line + 1)
        })
        .collect()
}

#[test]
fn rs_pattern_and_loop_bindings_name_the_part_they_hold() {
    let src = common::read_fixture("rs", "src/util/rules.rs");
    let f = facts("rs", "src/util/rules.rs", &src);
    let got = bindings(&f);
    for want in [
        "s: Suffix[0/1] [] 39..39",
        "rule: Prefix[rule] [] 40..40",
        "strat: [] [self.strats] 72..76",
        "s: [] [self.fallback] 77..79",
        "strat: [] [self.strats] 85..89",
    ] {
        assert!(got.iter().any(|g| g == want), "{want} not in {got:#?}");
    }
}
