//! A query compiles once per process and key, even when many threads ask for it at the
//! same moment (a cold build's workers used to compile the same query side by side).
//! Its own test binary: the compilation counter is process-wide.

use std::sync::{Arc, Barrier};

#[test]
fn threads_that_extract_the_same_language_at_once_compile_its_queries_once() {
    let registry = navmap_grammars::registry();
    let before = navmap_extract::query_compilations();
    let threads = 8;
    let barrier = Arc::new(Barrier::new(threads));
    let handles: Vec<_> = (0..threads)
        .map(|i| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let registry = navmap_grammars::registry();
                let rs = registry.by_id("rs").unwrap();
                barrier.wait();
                navmap_extract::extract(rs, "rs", &format!("fn f{i}() {{ g(); }}\n"))
            })
        })
        .collect();
    for h in handles {
        let facts = h.join().unwrap();
        assert_eq!(facts.defs.len(), 1, "each thread extracted its file");
    }
    assert_eq!(navmap_extract::query_compilations() - before, 1);
    // A second language adds one more; asking again adds none.
    let py = registry.by_id("py").unwrap();
    navmap_extract::extract(py, "py", "def f():\n    pass\n");
    navmap_extract::extract(py, "py", "def g():\n    pass\n");
    assert_eq!(navmap_extract::query_compilations() - before, 2);
}
