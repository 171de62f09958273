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

/// The text report of the example library on a terminal `cols` wide, through `script`, which
/// gives the run a pseudo-terminal; `None` where `script` is not installed.
fn on_a_terminal(cols: u16, columns_env: Option<&str>) -> Option<String> {
    let bin = env!("CARGO_BIN_EXE_skill-audit");
    let env = match columns_env {
        Some(c) => format!("COLUMNS={c}"),
        None => "-u COLUMNS".to_owned(),
    };
    let inner = format!(
        "stty cols {cols}; env {env} NO_COLOR=1 '{bin}' --fail-on never -p examples/profiles/prod.json -p examples/profiles/staging.json examples/library"
    );
    let out = std::process::Command::new("script")
        .args(["-q", "-e", "-c", &inner, "/dev/null"])
        .current_dir(crate::common::MANIFEST_DIR)
        .output()
        .ok()?;
    Some(String::from_utf8_lossy(&out.stdout).replace('\r', ""))
}

#[test]
fn notes_wrap_to_the_width_the_terminal_reports() {
    let Some(out) = on_a_terminal(60, None) else {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    };
    // A note of the example's matrix, wrapped at 60 columns, not 80.
    assert!(
        out.contains("    prod, staging: VS Code looks for `SKILL.md`: on a\n      case-sensitive file system"),
        "{out}"
    );
    // `COLUMNS` still wins, and a width under 40 is read as 40.
    let out = on_a_terminal(60, Some("20")).unwrap();
    assert!(
        out.contains("    prod, staging: VS Code looks for\n      `SKILL.md`: on a case-sensitive"),
        "{out}"
    );
}

/// On a terminal, a rule's documentation and the list of built-in profiles wrap to its width;
/// in a pipe each paragraph and profile stays on one line.
#[test]
fn rule_docs_and_profiles_wrap_on_a_terminal() {
    let bin = env!("CARGO_BIN_EXE_skill-audit");
    let run = |args: &str| {
        let inner = format!("stty cols 70; env -u COLUMNS NO_COLOR=1 '{bin}' {args}");
        let out = std::process::Command::new("script")
            .args(["-q", "-e", "-c", &inner, "/dev/null"])
            .output()
            .ok()?;
        Some(String::from_utf8_lossy(&out.stdout).replace('\r', ""))
    };
    let Some(doc) = run("rule SA402") else {
        eprintln!("skipped: `script` (util-linux) is not installed");
        return;
    };
    let (prose, example) = doc.split_once("\nExample\n").unwrap();
    assert!(prose.lines().all(|l| l.chars().count() <= 70), "{doc}");
    assert!(
        prose.contains("What it checks\n  A skill's declared needs"),
        "{doc}"
    );
    assert!(
        example.contains("  dependencies:\n    tools: [get_order]"),
        "{doc}"
    );
    let list = run("profiles").unwrap();
    assert!(list.lines().all(|l| l.chars().count() <= 70), "{list}");
    assert!(
        list.lines().any(|l| l.starts_with(&" ".repeat(25))),
        "{list}"
    );
}
