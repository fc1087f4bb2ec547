//! What a build's facts depend on besides the files: the grammars, their queries and
//! manifests, and the extraction code's version. The map stores this fingerprint in `meta`
//! (`extraction`) and rebuilds from scratch when the running navmap's differs: a changed
//! query (a new capture, a use no longer dropped) would otherwise reach only the files
//! that change after the upgrade, and every other file would keep answering with the old
//! rule's facts while the map called itself fresh.

use navmap_language::Registry;

/// A hex digest of everything in `registry` that shapes extraction, and of
/// [`navmap_extract::EXTRACTION_VERSION`]. Deterministic for one navmap build; any change to a
/// query, a manifest or a grammar's node types changes it.
pub(crate) fn extraction_fingerprint(registry: &Registry) -> String {
    let mut h = blake3::Hasher::new();
    let mut field = |bytes: &[u8]| {
        // Length-prefixed, so that no two different sequences of fields hash alike.
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    field(&navmap_extract::EXTRACTION_VERSION.to_le_bytes());
    let mut languages: Vec<_> = registry.all().iter().collect();
    languages.sort_by(|a, b| a.id().cmp(b.id()));
    for lang in languages {
        field(lang.id().as_bytes());
        field(lang.manifest_source.as_bytes());
        for (stem, text) in &lang.queries {
            field(stem.as_bytes());
            field(text.as_bytes());
        }
        for (name, grammar) in &lang.grammars {
            field(name.as_bytes());
            // A grammar upgrade shows in its ABI and its node and field tables.
            field(&(grammar.abi_version() as u64).to_le_bytes());
            field(&(grammar.node_kind_count() as u64).to_le_bytes());
            field(&(grammar.field_count() as u64).to_le_bytes());
        }
    }
    h.finalize().to_hex().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_query_changes_the_fingerprint() {
        let registry = navmap_grammars::registry();
        let before = extraction_fingerprint(&registry);
        assert_eq!(before, extraction_fingerprint(&registry), "deterministic");
        let mut languages: Vec<_> = registry.all().iter().map(|l| (**l).clone()).collect();
        let refs = languages[0].queries.values_mut().next().unwrap();
        refs.push_str("\n; one more comment\n");
        let changed = Registry::new(languages);
        assert_ne!(before, extraction_fingerprint(&changed));
    }
}
