//! Every query file of every language compiles against each of its grammars (extraction
//! would silently skip one that doesn't), and each language declares import rules.

#[test]
fn all_queries_compile() {
    let registry = navmap_grammars::registry();
    let mut errors = Vec::new();
    for lang in registry.all() {
        errors.extend(navmap_extract::check_queries(lang));
    }
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn every_language_has_an_import_strategy() {
    let registry = navmap_grammars::registry();
    for lang in registry.all() {
        let strategy = lang
            .manifest
            .imports
            .get("strategy")
            .and_then(|s| s.as_str());
        assert!(
            matches!(
                strategy,
                Some(
                    "dotted"
                        | "path"
                        | "module_tree"
                        | "package_dir"
                        | "declared_package"
                        | "include_path"
                        | "module_dir"
                        | "prefix_map"
                )
            ),
            "{}: [imports] strategy = {strategy:?}",
            lang.id()
        );
    }
}
