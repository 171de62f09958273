//! The Markdown report as a PR comment: it fits GitHub's limit however many entries moved,
//! text from scanned files can neither hide, reorder nor link, and its headings and notes say
//! what they count.

use std::path::Path;

use tempfile::TempDir;

use crate::common::{bin, quiet_stdout, skill_md, write};

/// GitHub's limit on a comment body, in characters.
const MAX_COMMENT_CHARS: usize = 65_536;

const PROFILE: &str = r#"{"name": "prod", "tools": ["get_order"]}"#;

fn markdown(dir: &Path, args: &[&str]) -> String {
    quiet_stdout(
        bin(dir)
            .args(["--fail-on", "never", "-f", "markdown"])
            .args(args),
        0,
    )
}

fn assert_fits(md: &str) {
    let chars = md.chars().count();
    assert!(chars <= MAX_COMMENT_CHARS, "{chars} characters");
}

#[test]
fn a_comparison_with_hundreds_of_moves_fits_a_comment_and_keeps_its_new_findings() {
    let tmp = TempDir::new().unwrap();
    let root = tmp.path();
    let long = "with-a-name-long-enough-to-fill-the-comment";
    for i in 0..400 {
        let name = format!("s-{i:03}-{long}");
        write(
            root,
            &format!("lib/skills/{name}/SKILL.md"),
            skill_md(&name, ""),
        );
    }
    write(root, "prod.json", PROFILE);
    let out = TempDir::new().unwrap();
    let (old, new) = (out.path().join("old.json"), out.path().join("new.json"));
    let run = |extra: &[&str]| {
        quiet_stdout(
            bin(root)
                .args(["--fail-on", "never", "-p", "prod.json", "lib"])
                .args(extra),
            0,
        )
    };
    run(&["-o", old.to_str().unwrap()]);
    // Every skill moves into a new folder, and three new ones each bring a new finding.
    std::fs::rename(root.join("lib/skills"), root.join("lib/moved")).unwrap();
    for i in 0..3 {
        let name = format!("new-{i}");
        write(
            root,
            &format!("lib/moved/{name}/SKILL.md"),
            skill_md(&name, "dependencies:\n  tools: [refund_order]\n"),
        );
    }
    run(&["-o", new.to_str().unwrap()]);
    let baseline = markdown(
        root,
        &[
            "-p",
            "prod.json",
            "lib",
            "--baseline",
            old.to_str().unwrap(),
        ],
    );
    let diff = quiet_stdout(
        bin(root).args([
            "diff",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "-f",
            "markdown",
        ]),
        0,
    );
    for md in [&baseline, &diff] {
        assert_fits(md);
        // The moves are cut, the new findings are not.
        assert!(md.contains("### Moved\n"), "{md}");
        assert!(
            md.contains(" moved entries left out to fit a comment._"),
            "{md}"
        );
        assert!(
            md.contains("<details><summary>New findings (3)</summary>"),
            "{md}"
        );
        assert!(!md.contains("new findings left out"), "{md}");
        assert!(!md.contains("new finding left out"), "{md}");
        // Each new finding's row, with its location.
        assert_eq!(md.matches("/SKILL.md:4</code>").count(), 3, "{md}");
    }
}

/// A skill whose description and tools hold a right-to-left override, a zero-width space,
/// an isolate and terminal escapes.
fn spoofing_library(root: &Path) {
    write(
        &root.join("lib"),
        "skills/spoof/SKILL.md",
        "---\nname: spoof\ndescription: \"Harmless \\u202egnirts terces\\u200b \\e[31m\\a\"\n\
         dependencies:\n  tools: [\"read_file\\u202e\", \"delete\\u2066_everything\"]\n---\n",
    );
    write(root, "prod.json", PROFILE);
}

#[test]
fn hidden_characters_are_shown_as_escapes() {
    let tmp = TempDir::new().unwrap();
    spoofing_library(tmp.path());
    let md = markdown(tmp.path(), &["-p", "prod.json", "lib"]);
    for c in ['\u{202e}', '\u{2066}', '\u{200b}', '\u{1b}', '\u{7}'] {
        assert!(!md.contains(c), "{c:?} in {md}");
    }
    // As text shows them, in code and out of it.
    assert!(md.contains("read&#95;file&#92;u{202e}"), "{md}");
    assert!(md.contains("delete&#92;u{2066}&#95;everything"), "{md}");
}

#[test]
fn names_from_scanned_files_do_not_autolink() {
    let tmp = TempDir::new().unwrap();
    write(
        &tmp.path().join("lib"),
        "skills/link/SKILL.md",
        "---\nname: link\ndescription: d\n\
         dependencies:\n  tools: [\"https://evil.example/x\", \"www.evil.example\"]\n---\n",
    );
    write(tmp.path(), "prod.json", PROFILE);
    let md = markdown(tmp.path(), &["-p", "prod.json", "lib"]);
    // An entity GitHub renders as the character, but that its autolinker does not match.
    assert!(md.contains("https&#58;//evil.example/x"), "{md}");
    assert!(md.contains("www&#46;evil.example"), "{md}");
    assert!(!md.contains("://evil") && !md.contains("www.evil"), "{md}");
}

#[test]
fn files_hidden_by_ignore_rules_are_counted() {
    let tmp = TempDir::new().unwrap();
    let root = tmp.path();
    write(root, "skills/a/SKILL.md", skill_md("a", ""));
    write(root, "skills/hidden/SKILL.md", skill_md("hidden", ""));
    write(root, ".ignore", "skills/hidden/\n");
    let md = markdown(root, &["."]);
    assert!(
        md.contains("ℹ️ Not audited: 1 file hidden by ignore rules (`--no-ignore` audits them)."),
        "{md}"
    );
    let all = markdown(root, &[".", "--no-ignore"]);
    assert!(!all.contains("Not audited"), "{all}");
}

#[test]
fn headings_say_what_they_count_and_invalid_skills_are_listed() {
    let tmp = TempDir::new().unwrap();
    let root = tmp.path();
    write(root, "skills/fine/SKILL.md", skill_md("fine", ""));
    // Not valid YAML: its cells judge only what could be read, which needs nothing.
    write(
        root,
        "skills/broken/SKILL.md",
        "---\nname: broken\ndescription: Use when: asked\n---\nbody\n",
    );
    write(
        root,
        "skills/missing/SKILL.md",
        skill_md("missing", "dependencies:\n  tools: [refund_order]\n"),
    );
    write(
        root,
        "agents/one.agent.md",
        "---\nname: one\ndescription: d\ntools: [get_order]\n---\nbody\n",
    );
    write(root, "prod.json", PROFILE);
    let md = markdown(root, &["-p", "prod.json", "."]);
    assert!(
        md.contains("### Skills that need attention (2 of 3)"),
        "{md}"
    );
    assert!(!md.contains("not available everywhere"), "{md}");
    assert!(
        md.contains("| <code>broken</code> |")
            && md.contains("⚠️ invalid: its frontmatter could not be read (see its findings)"),
        "{md}"
    );
    assert!(
        md.contains("0 skill cells not loaded, 0 agent cells partial"),
        "{md}"
    );
    // One agent, in the singular.
    assert!(
        md.contains("The one agent is available on every profile that loads it."),
        "{md}"
    );
    // The legend, once under the matrices.
    assert_eq!(md.matches("✅ available: ").count(), 1, "{md}");
}

#[test]
fn the_headline_counts_skills_a_host_does_not_load() {
    let tmp = TempDir::new().unwrap();
    let root = tmp.path();
    // VS Code looks for `SKILL.md`, so on a case-sensitive file system it skips this one.
    write(root, ".github/skills/lower/skill.md", skill_md("lower", ""));
    let md = markdown(root, &["-p", "builtin:vscode", "."]);
    assert!(md.contains("1 skill cell not loaded"), "{md}");
    assert!(
        md.starts_with("<!-- skill-audit-report -->\n## skill-audit report\n\n⚠️"),
        "{md}"
    );
}
