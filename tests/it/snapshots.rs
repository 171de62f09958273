//! Snapshots of every output format for the example library audited against the three example
//! profiles, run from the repository root so the paths in the reports are stable.
//!
//! Update with `INSTA_UPDATE=always cargo test --test it snapshots::` (or `cargo insta review`) and
//! read the diff: these files are the reviewed examples of what users see.

use serde_json::Value;

use crate::common::{EXAMPLE, MANIFEST_DIR, VERSION, bin, quiet_stdout};

/// Run the example audit in `format`; the example library has errors, so the exit code is 1.
fn example(format: &str) -> String {
    quiet_stdout(bin(MANIFEST_DIR).args(EXAMPLE).args(["-f", format]), 1)
}

#[test]
fn text_report() {
    let text = example("text");
    insta::assert_snapshot!("text", text);
}

#[test]
fn concise_report() {
    let text = example("concise");
    // One line per finding, each `path:line:col: SAnnn message`, then the summary.
    let findings: Vec<&str> = text.lines().take_while(|l| !l.is_empty()).collect();
    assert!(findings.iter().all(|l| l.contains(": SA")), "{text}");
    insta::assert_snapshot!("concise", text);
}

#[test]
fn json_report() {
    let mut v: Value = serde_json::from_str(&example("json")).expect("valid JSON");
    assert_eq!(v["tool"]["version"], VERSION);
    v["tool"]["version"] = Value::from("[version]");
    insta::assert_json_snapshot!("json", v);
}

#[test]
fn markdown_report() {
    let md = example("markdown");
    let footer = format!("skill-audit {VERSION}</sub>");
    assert!(md.contains(&footer), "the footer names the version: {md}");
    insta::assert_snapshot!(
        "markdown",
        md.replace(&footer, "skill-audit [version]</sub>")
    );
}

#[test]
fn github_annotations() {
    let lines = example("github");
    assert!(lines.lines().all(|l| l.starts_with("::error ")
        || l.starts_with("::warning ")
        || l.starts_with("::notice ")));
    insta::assert_snapshot!("github", lines);
}
