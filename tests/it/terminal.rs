//! Text output on terminals and in logs: source lines with a caret, no colour in pipes, and no
//! control characters from scanned files written raw.

use tempfile::TempDir;

use crate::common::bin;

fn run(dir: &std::path::Path, env: &[(&str, &str)]) -> String {
    let mut c = bin(dir);
    c.args(["--fail-on", "never", "."]);
    for (k, v) in env {
        c.env(k, v);
    }
    String::from_utf8(c.output().unwrap().stdout).unwrap()
}

#[test]
fn findings_show_the_source_line_and_a_caret() {
    let t = TempDir::new().unwrap();
    std::fs::create_dir_all(t.path().join("skills/a")).unwrap();
    std::fs::write(
        t.path().join("skills/a/SKILL.md"),
        "---\nname: a\ndescription: d\ndescripton: typo\n---\n",
    )
    .unwrap();
    let out = run(t.path(), &[]);
    assert!(
        out.contains("warning[SA221]: `descripton` is not a field"),
        "{out}"
    );
    assert!(out.contains(" --> skills/a/SKILL.md:4:1\n"), "{out}");
    assert!(out.contains("4 | descripton: typo\n"), "{out}");
    assert!(
        out.contains("  | ^^^^^^^^^^\n"),
        "caret under the key: {out}"
    );
    assert!(!out.contains('\x1b'), "no colour into a pipe");
}

#[test]
fn control_characters_from_files_are_escaped() {
    let t = TempDir::new().unwrap();
    std::fs::create_dir_all(t.path().join("skills/a")).unwrap();
    // An unknown key holding an ANSI colour code and an OSC 8 hyperlink.
    std::fs::write(
        t.path().join("skills/a/SKILL.md"),
        "---\nname: a\ndescription: d\n\"x\x1b[31mred\x1b]8;;http://e\x07y\": 1\n---\n",
    )
    .unwrap();
    for env in [
        &[][..],
        &[("NO_COLOR", "1")][..],
        &[("CLICOLOR_FORCE", "1")][..],
    ] {
        let out = run(t.path(), env);
        assert!(
            !out.contains('\x1b') && !out.contains('\x07'),
            "{env:?}: {out:?}"
        );
        assert!(out.contains("\\u{1b}[31mred"), "shown escaped: {out}");
    }
}
