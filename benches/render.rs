//! Every renderer on the report of a generated 2,000-skill library (100 agents, 40 plugins,
//! three profiles). The audit runs once, before timing; only `report::render` is timed.
//!
//! `cargo bench --bench render`

mod common;

use std::sync::LazyLock;

use divan::{Bencher, black_box};
use skill_audit::{Format, Report};

fn main() {
    LazyLock::force(&REPORT);
    divan::main();
}

static REPORT: LazyLock<Report> = LazyLock::new(|| {
    let lib = common::library(2_000);
    let result = skill_audit::run(&common::options(&lib)).expect("audit");
    Report::new(result)
});

fn format(name: &str) -> Format {
    match name {
        "text" => Format::Text,
        "json" => Format::Json,
        "markdown" => Format::Markdown,
        "html" => Format::Html,
        "sarif" => Format::Sarif,
        "github" => Format::Github,
        other => panic!("unknown format {other}"),
    }
}

#[divan::bench(args = ["text", "json", "markdown", "html", "sarif", "github"], sample_count = 20)]
fn render(bencher: Bencher, name: &str) {
    let format = format(name);
    let mut out: Vec<u8> = Vec::with_capacity(64 << 20);
    bencher.bench_local(|| {
        out.clear();
        skill_audit::report::render(black_box(&REPORT), format, &mut out).expect("render");
        black_box(out.len())
    });
}
