//! The one way tests find the real-world corpus (`../shared/corpus`, beside the checkout),
//! shared by the library's unit tests and the integration tests. A new user's clone has no
//! corpus: there its tests print a `SKIPPED` line and pass; in CI (`CI` set) a missing corpus
//! fails them. `SKILL_AUDIT_CORPUS` names another corpus folder (CI points it at nothing to
//! run the suite as a fresh clone sees it).

use std::path::{Path, PathBuf};

/// The corpus folder, whether or not it exists.
pub fn corpus_root() -> PathBuf {
    std::env::var_os("SKILL_AUDIT_CORPUS").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus"),
        PathBuf::from,
    )
}

/// The corpus folder `name` (`""` for the whole corpus), or `None` after printing why the
/// test is skipped. Panics when it is missing in CI.
pub fn corpus(name: &str) -> Option<PathBuf> {
    let p = corpus_root().join(name);
    if p.is_dir() {
        return Some(p.canonicalize().expect("corpus path resolves"));
    }
    if std::env::var_os("CI").is_some() {
        panic!(
            "corpus folder {} is missing (CI is set, so this is a failure)",
            p.display()
        );
    }
    // Written to the stream itself: the test harness captures `eprintln!` of passing tests,
    // and a skip nobody sees is a test that silently stopped running.
    use std::io::Write as _;
    let _ = writeln!(
        std::io::stderr(),
        "SKIPPED: corpus folder {} is missing; set it up to run this test",
        p.display()
    );
    None
}
