//! Link resolution (`resolve::links`) on the parsed models of generated libraries, and a whole
//! `skill_audit::run` (walk, read, parse, rules, links, drift, evaluation against three
//! profiles) on a generated 2,000-skill library.
//!
//! `cargo bench --bench resolve`

mod common;

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use divan::{Bencher, black_box};
use skill_audit::resolve;

fn main() {
    divan::main();
}

/// Generated libraries and their models, by skill count, kept across benches.
static LIBRARIES: LazyLock<Mutex<HashMap<usize, &'static (common::Library, common::Models)>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

fn library(skills: usize) -> &'static (common::Library, common::Models) {
    let mut map = LIBRARIES.lock().expect("library cache");
    map.entry(skills).or_insert_with(|| {
        let lib = common::library(skills);
        let models = common::models(&lib.root);
        Box::leak(Box::new((lib, models)))
    })
}

/// Links for 2,000 / 10,000 skills (100 / 500 agents, 40 / 200 plugins).
#[divan::bench(args = [2_000, 10_000], sample_count = 20)]
fn links(bencher: Bencher, skills: usize) {
    let (_, m) = library(skills);
    bencher.bench(|| {
        let mut findings = Vec::new();
        let links = resolve::links(
            &m.skills,
            &m.agents,
            &m.manifests,
            &m.roots,
            &m.cwd,
            &skill_audit::boundary::Boundary::none(),
            &mut findings,
        );
        black_box((links.len(), findings.len()))
    });
}

/// A whole audit of the 2,000-skill library with its three profiles.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn run_2000(bencher: Bencher) {
    let (lib, _) = library(2_000);
    let opts = common::options(lib);
    bencher.bench(|| skill_audit::run(black_box(&opts)).expect("audit"));
}
