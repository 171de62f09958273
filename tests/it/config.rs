//! skill-audit.toml (every key and its errors), `init`, and suppression comments.

use crate::common::*;

use serde_json::Value;
use tempfile::TempDir;

fn rules_of(r: &Value) -> Vec<(String, String, u64)> {
    r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_owned(),
                f["severity"].as_str().unwrap().to_owned(),
                f["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// A library with one skill that has an unknown key (SA221, warning) and a host key (SA220).
fn library() -> TempDir {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "skills/a/SKILL.md",
        "---\nname: a\ndescription: Does a.\ncolour: red\nwhen_to_use: later\ndependencies:\n  tools: [get_order]\n---\n",
    );
    write(
        t.path(),
        "profiles/prod.json",
        r#"{"name": "prod", "tools": []}"#,
    );
    write(
        t.path(),
        "agents/x.agent.md",
        "---\ndescription: x\ntools: [read]\n---\n",
    );
    t
}

#[test]
fn config_is_found_in_the_first_root_and_every_key_applies() {
    let t = library();
    write(
        t.path(),
        "skill-audit.toml",
        r#"profiles = ["profiles/prod.json"]
exclude = ["**/drafts/**"]
fail-on = "warning"
name-charset = "unicode"
hosts = ["vscode"]
[rules]
"unknown-key" = "error"
SA402 = "off"
[[links]]
agent = "agents/x.agent.md"
skills = ["a"]
"#,
    );
    write(t.path(), "skills/drafts/b/SKILL.md", "not even frontmatter");
    write(
        t.path(),
        "skills/技能/SKILL.md",
        "---\nname: 技能\ndescription: d\n---\n",
    );
    let (r, code) = json_run(t.path(), &["."]);
    assert_eq!(code, 1);
    assert_eq!(r["profiles"][0]["name"], "prod", "profiles from the config");
    let paths: Vec<&str> = r["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert!(
        !paths.iter().any(|p| p.contains("drafts")),
        "exclude from the config: {paths:?}"
    );
    let f = rules_of(&r);
    assert!(
        !f.iter().any(|(r, ..)| r == "SA206"),
        "unicode names accepted: {f:?}"
    );
    assert!(
        f.contains(&("SA221".into(), "error".into(), 4)),
        "[rules] raises severity: {f:?}"
    );
    assert!(!f.iter().any(|(r, ..)| r == "SA402"), "[rules] off: {f:?}");
    // `when_to_use` is Claude Code only; with hosts = ["vscode"] it is unknown, not info.
    assert!(f.contains(&("SA221".into(), "error".into(), 5)), "{f:?}");
    assert!(!f.iter().any(|(r, ..)| r == "SA220"), "{f:?}");
    let links = r["links"].as_array().unwrap();
    assert_eq!(links[0]["via"], "config");
    assert_eq!(links[0]["agent"], "agents/x.agent.md");
    // fail-on = "warning" from the config; --fail-on on the command line wins.
    bin(t.path())
        .args(["--fail-on", "never", "."])
        .assert()
        .code(0);
    // --profile replaces the config's profiles.
    write(
        t.path(),
        "other.json",
        r#"{"name": "other", "tools": ["get_order"]}"#,
    );
    let (r, _) = json_run(t.path(), &["-p", "other.json", "."]);
    assert_eq!(r["profiles"].as_array().unwrap().len(), 1);
    assert_eq!(r["profiles"][0]["name"], "other");
}

#[test]
fn config_errors_exit_2_naming_file_line_and_what_is_allowed() {
    for (text, line, needle) in [
        ("fail-on = \"sometimes\"\n", 1, "never"),
        ("exclude = []\nprofile = [\"x\"]\n", 2, "profiles"),
        ("[rules]\nSA999 = \"off\"\n", 2, "SA999"),
        ("[rules]\nSA221 = \"loud\"\n", 2, "warning"),
        ("hosts = [\"emacs\"]\n", 1, "vscode"),
        ("name-charset = \"latin\"\n", 1, "unicode"),
        ("[[links]]\nagent = \"a\"\n", 1, "skills"),
    ] {
        let t = library();
        write(t.path(), "skill-audit.toml", text);
        let out = bin(t.path()).arg(".").output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("skill-audit.toml:{line}:")),
            "{text}: {err}"
        );
        assert!(err.contains(needle), "{text}: {err}");
    }
    // --config names another file; a missing one is an error too.
    let t = library();
    write(t.path(), "ci.toml", "fail-on = \"never\"\n");
    bin(t.path())
        .args(["--config", "ci.toml", "."])
        .assert()
        .code(0);
    bin(t.path())
        .args(["--config", "nope.toml", "."])
        .assert()
        .code(2);
}

#[test]
fn init_writes_a_starter_and_refuses_to_overwrite() {
    let t = TempDir::new().unwrap();
    bin(t.path()).arg("init").assert().success();
    let text = std::fs::read_to_string(t.path().join("skill-audit.toml")).unwrap();
    assert!(text.contains("[rules]") && text.contains("# profiles"));
    bin(t.path()).arg(".").assert().success(); // the starter file is valid
    bin(t.path()).arg("init").assert().code(2);
    assert_eq!(
        std::fs::read_to_string(t.path().join("skill-audit.toml")).unwrap(),
        text
    );
}

#[test]
fn suppressions_silence_their_line_and_unused_ones_are_reported() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "skills/a/SKILL.md",
        "---\n# skill-audit: ignore SA108\nname: a\ndescription: Does a.\ncolour: red  # skill-audit: ignore SA221\n# skill-audit: ignore unknown-key, SA220\nflavour: x\nshade: y  # skill-audit: ignore SA230\n# skill-audit: ignore SA2211\n---\n",
    );
    let (r, _) = json_run(t.path(), &["."]);
    let f = rules_of(&r);
    let on = |rule: &str, line: u64| f.iter().any(|(r, _, l)| r == rule && *l == line);
    assert!(!on("SA221", 5), "trailing comment silences its line: {f:?}");
    assert!(
        !on("SA221", 7),
        "standalone comment silences the next line: {f:?}"
    );
    assert!(
        on("SA221", 8),
        "a suppression for another rule does not: {f:?}"
    );
    assert!(on("SA901", 6), "SA220 silenced nothing on line 7: {f:?}");
    assert!(on("SA901", 8), "SA230 silenced nothing: {f:?}");
    assert!(
        on("SA901", 2),
        "SA108: the file is named SKILL.md, nothing to silence: {f:?}"
    );
    assert!(on("SA902", 9), "unknown rule ID: {f:?}");
    // The first-line form covers findings about the whole file (line 1).
    write(
        t.path(),
        "skills/b/skill.md",
        "---\n# skill-audit: ignore SA108\nname: b\ndescription: d\n---\n",
    );
    let (r, _) = json_run(t.path(), &["."]);
    let f: Vec<_> = rules_of(&r);
    assert!(
        !r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["path"] == "skills/b/skill.md"),
        "{f:?}"
    );
    // [rules] can turn the unused-suppression rule itself off.
    write(t.path(), "skill-audit.toml", "[rules]\nSA901 = \"off\"\n");
    let (r, _) = json_run(t.path(), &["."]);
    assert!(!rules_of(&r).iter().any(|(r, ..)| r == "SA901"));
}

#[test]
fn suppressions_reach_library_level_findings() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "skills/a/SKILL.md",
        "---\n# skill-audit: ignore SA402\nname: a\ndescription: Does a.\ndependencies:\n  tools: [get_order]\n---\n",
    );
    write(t.path(), "p.json", r#"{"name": "p", "tools": []}"#);
    let (r, _) = json_run(t.path(), &["-p", "p.json", "."]);
    assert!(rules_of(&r).is_empty(), "{:?}", rules_of(&r));
    assert_eq!(
        r["skills"][0]["availability"]["p"]["status"], "unavailable",
        "the matrix is unchanged"
    );
}
