//! `skill-audit to-prompt`: the `<available_skills>` block of one profile, as text and JSON.
//!
//! The example library's blocks are snapshots (`INSTA_UPDATE=always cargo test --test it
//! to_prompt::` to update them; read the diff).

use serde_json::Value;
use std::path::Path;

use crate::common::{MANIFEST_DIR, bin, quiet_stdout, skill_md, tree, write};

/// A library with one skill of each kind, and a profile offering the tool `get_order`.
fn library() -> tempfile::TempDir {
    tree(&[
        (
            "skills/ready/SKILL.md",
            &skill_md("ready", "dependencies:\n  tools: [get_order]\n"),
        ),
        ("skills/plain/SKILL.md", &skill_md("plain", "")),
        (
            "skills/blocked/SKILL.md",
            &skill_md("blocked", "dependencies:\n  tools: [get_order, refund]\n"),
        ),
        ("skills/broken/SKILL.md", "---\nname: [broken\n---\n"),
        (
            "skills/user-only/SKILL.md",
            &skill_md("user-only", "disable-model-invocation: true\n"),
        ),
        (
            "skills/silent/SKILL.md",
            "---\nname: silent\n---\n# silent\n",
        ),
        ("env.json", r#"{"name": "env", "tools": ["get_order"]}"#),
    ])
}

/// `to-prompt` in `cwd` with `args`, which must succeed with nothing on standard error.
fn prompt(cwd: &Path, args: &[&str]) -> String {
    quiet_stdout(bin(cwd).arg("to-prompt").args(args), 0)
}

/// The block's entry for one skill, as skills-ref lays it out.
fn entry(name: &str, description: &str, location: &str) -> String {
    format!(
        "<skill>\n<name>\n{name}\n</name>\n<description>\n{description}\n</description>\n\
         <location>\n{location}\n</location>\n</skill>\n"
    )
}

fn described(name: &str) -> String {
    format!("Does {name} things. Use when asked.")
}

#[test]
fn lists_only_what_the_profile_surfaces() {
    let lib = library();
    let text = prompt(lib.path(), &["-p", "env.json", "--relative", "."]);
    let expected = format!(
        "<available_skills>\n{}{}</available_skills>\n",
        entry("plain", &described("plain"), "skills/plain/SKILL.md"),
        entry("ready", &described("ready"), "skills/ready/SKILL.md"),
    );
    assert_eq!(text, expected);
}

#[test]
fn include_unavailable_marks_each_with_its_reason() {
    let lib = library();
    let text = prompt(
        lib.path(),
        &["-p", "env.json", "--relative", "--include-unavailable"],
    );
    let marked = |name: &str, description: &str, reason: &str| {
        entry(name, description, &format!("skills/{name}/SKILL.md")).replace(
            "</location>\n</skill>",
            &format!("</location>\n<unavailable reason=\"{reason}\"/>\n</skill>"),
        )
    };
    let expected = [
        "<available_skills>\n".to_owned(),
        marked("blocked", &described("blocked"), "missing tool `refund`"),
        marked("broken", "", "the frontmatter could not be read"),
        entry("plain", &described("plain"), "skills/plain/SKILL.md"),
        entry("ready", &described("ready"), "skills/ready/SKILL.md"),
        marked(
            "silent",
            "",
            "no `description`: nothing tells the model when to use it",
        ),
        marked(
            "user-only",
            &described("user-only"),
            "`disable-model-invocation` is true: only a user can invoke it",
        ),
        "</available_skills>\n".to_owned(),
    ]
    .concat();
    assert_eq!(text, expected);
}

#[test]
fn json_gives_the_same_list() {
    let lib = library();
    let list: Value = serde_json::from_str(&prompt(
        lib.path(),
        &["-p", "env.json", "--relative", "-f", "json"],
    ))
    .unwrap();
    assert_eq!(
        list,
        serde_json::json!([
            {
                "name": "plain",
                "description": described("plain"),
                "location": "skills/plain/SKILL.md",
                "status": "needs-nothing",
                "surfaced": true
            },
            {
                "name": "ready",
                "description": described("ready"),
                "location": "skills/ready/SKILL.md",
                "status": "available",
                "surfaced": true
            }
        ])
    );
    let all: Value = serde_json::from_str(&prompt(
        lib.path(),
        &[
            "-p",
            "env.json",
            "--include-unavailable",
            "--format",
            "json",
        ],
    ))
    .unwrap();
    let all = all.as_array().unwrap();
    let names: Vec<&str> = all.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        ["blocked", "broken", "plain", "ready", "silent", "user-only"]
    );
    for s in all {
        let keys: Vec<&str> = s.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        let surfaced = s["surfaced"].as_bool().unwrap();
        assert_eq!(surfaced, s.get("reason").is_none(), "{s}");
        let mut expected = vec!["description", "location", "name", "status", "surfaced"];
        if !surfaced {
            expected.insert(3, "reason");
        }
        assert_eq!(keys, expected, "{s}");
    }
    assert_eq!(all[0]["status"], "unavailable");
    assert_eq!(all[0]["reason"], "missing tool `refund`");
    assert_eq!(all[1]["status"], "invalid");
    assert_eq!(all[4]["status"], "needs-nothing");
    assert_eq!(all[5]["status"], "needs-nothing");
}

#[test]
fn an_invalid_skill_is_never_surfaced() {
    let lib = tree(&[
        (
            "broken/SKILL.md",
            "---\nname: broken\ndescription: [oops\n---\n",
        ),
        ("env.json", r#"{"tools": []}"#),
    ]);
    assert_eq!(
        prompt(lib.path(), &["-p", "env.json"]),
        "<available_skills>\n</available_skills>\n"
    );
    let all: Value = serde_json::from_str(&prompt(
        lib.path(),
        &["-p", "env.json", "--include-unavailable", "-f", "json"],
    ))
    .unwrap();
    assert_eq!(all[0]["name"], "broken");
    assert_eq!(all[0]["status"], "invalid");
    assert_eq!(all[0]["surfaced"], false);
    assert_eq!(all[0]["reason"], "the frontmatter could not be read");
}

#[test]
fn values_are_xml_escaped() {
    let lib = tree(&[
        (
            "odd/SKILL.md",
            "---\nname: odd\ndescription: 'Use <foo> & \"bar\" > it''s done. Use when asked.'\n---\n",
        ),
        (
            "needs/SKILL.md",
            &skill_md("needs", "dependencies:\n  tools: ['a<b>&\"c\"']\n"),
        ),
        ("env.json", r#"{"tools": []}"#),
    ]);
    let text = prompt(lib.path(), &["-p", "env.json", "--relative"]);
    assert!(
        text.contains(
            "<description>\nUse &lt;foo&gt; &amp; &quot;bar&quot; &gt; it&#x27;s done. Use when asked.\n</description>"
        ),
        "{text}"
    );
    let text = prompt(
        lib.path(),
        &["-p", "env.json", "--relative", "--include-unavailable"],
    );
    assert!(
        text.contains("<unavailable reason=\"missing tool `a&lt;b&gt;&amp;&quot;c&quot;`\"/>"),
        "{text}"
    );
    // Only the block's own markup is left unescaped.
    let markup = text
        .lines()
        .filter(|l| l.contains('<') || l.contains('>'))
        .all(|l| l.starts_with('<') && l.ends_with('>') && !l[1..l.len() - 1].contains(['<', '>']));
    assert!(markup, "{text}");
    // JSON carries the text as it is.
    let list: Value =
        serde_json::from_str(&prompt(lib.path(), &["-p", "env.json", "-f", "json"])).unwrap();
    assert_eq!(
        list[0]["description"],
        "Use <foo> & \"bar\" > it's done. Use when asked."
    );
}

#[test]
fn terminal_controls_in_a_description_are_not_printed() {
    let lib = tree(&[
        (
            "odd/SKILL.md",
            "---\nname: odd\ndescription: \"Clears \\e[2J the \\u202E screen. Use when asked.\"\n---\n",
        ),
        ("env.json", r#"{"tools": []}"#),
    ]);
    let text = prompt(lib.path(), &["-p", "env.json"]);
    assert!(
        !text.contains('\u{1b}') && !text.contains('\u{202e}'),
        "{text:?}"
    );
    assert!(
        text.contains("Clears \u{fffd}[2J the &#x202E; screen."),
        "{text:?}"
    );
}

// Unix only: Windows' canonical paths (`\\?\C:\...`) are not spelled as its working folder is.
#[cfg(unix)]
#[test]
fn locations_are_absolute_by_default() {
    let lib = library();
    let root = std::fs::canonicalize(lib.path()).unwrap();
    let list: Value = serde_json::from_str(&prompt(
        lib.path(),
        &["-p", "env.json", "-f", "json", "./skills/../skills"],
    ))
    .unwrap();
    let location = root.join("skills/plain/SKILL.md");
    assert_eq!(list[0]["location"], location.to_str().unwrap());
    // A root given by an absolute path gives the same locations, and so does another cwd.
    let abs = root.to_str().unwrap();
    let other = tempfile::tempdir().unwrap();
    let env = root.join("env.json");
    let from_elsewhere: Value = serde_json::from_str(&prompt(
        other.path(),
        &["-p", env.to_str().unwrap(), "-f", "json", abs],
    ))
    .unwrap();
    assert_eq!(from_elsewhere, list);
}

#[test]
fn the_library_flags_apply() {
    let lib = library();
    let text = prompt(
        lib.path(),
        &["-p", "env.json", "--relative", "--exclude", "plain"],
    );
    assert!(!text.contains("plain") && text.contains("ready"), "{text}");
    // The settings file's one profile is used when `-p` is not given.
    write(
        lib.path(),
        "skill-audit.toml",
        "profiles = [\"env.json\"]\nexclude = [\"ready\"]\n",
    );
    let text = prompt(lib.path(), &["--relative"]);
    assert!(text.contains("plain") && !text.contains("ready"), "{text}");
    // Ignored files stay out unless `--no-ignore`.
    write(lib.path(), ".gitignore", "skills/plain/\n");
    write(lib.path(), "skill-audit.toml", "");
    assert!(!prompt(lib.path(), &["-p", "env.json"]).contains("plain"));
    assert!(prompt(lib.path(), &["-p", "env.json", "--no-ignore"]).contains("plain"));
}

#[test]
fn a_builtin_profile() {
    let lib = library();
    let text = prompt(lib.path(), &["-p", "builtin:claude-code", "--relative"]);
    assert!(text.contains("<name>\nplain\n</name>"), "{text}");
}

#[test]
fn exactly_one_profile() {
    let lib = library();
    let fails = |args: &[&str], says: &str| {
        let out = bin(lib.path())
            .arg("to-prompt")
            .args(args)
            .assert()
            .code(2)
            .get_output()
            .clone();
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    };
    fails(&[], "needs the environment");
    fails(&["-p", "env.json", "-p", "builtin:vscode"], "not 2");
    fails(&["-p", "nope.json"], "nope.json");
    fails(&["-p", "builtin:nope"], "nope");
    fails(&["-p", "env.json", "missing-folder"], "missing-folder");
    fails(&["-p", "env.json", "-f", "html"], "html");
    write(
        lib.path(),
        "skill-audit.toml",
        "profiles = [\"env.json\", \"builtin:vscode\"]\n",
    );
    fails(&[], "the settings file names 2 profiles");
}

/// The example library against one of its profiles, from the repository root.
fn example(profile: &str, args: &[&str]) -> String {
    let profile = format!("examples/profiles/{profile}.json");
    let mut all = vec!["-p", &profile, "--relative"];
    all.extend_from_slice(args);
    all.push("examples/library");
    prompt(Path::new(MANIFEST_DIR), &all)
}

#[test]
fn example_library_text() {
    insta::assert_snapshot!("to_prompt_text", example("prod", &[]));
}

#[test]
fn example_library_text_with_the_unavailable() {
    insta::assert_snapshot!(
        "to_prompt_text_all",
        example("staging", &["--include-unavailable"])
    );
}

#[test]
fn example_library_json_with_the_unavailable() {
    // The bytes, so the snapshot shows the keys in the order they are written.
    let json = example("staging", &["--include-unavailable", "-f", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 9);
    insta::assert_snapshot!("to_prompt_json_all", json);
}

#[test]
fn completions_and_the_manual_know_the_command() {
    let out = |args: &[&str]| {
        let o = bin(MANIFEST_DIR)
            .args(args)
            .assert()
            .code(0)
            .get_output()
            .clone();
        String::from_utf8(o.stdout).unwrap()
    };
    assert!(out(&["completions", "bash"]).contains("to-prompt"));
    assert!(out(&["completions", "zsh"]).contains("--include-unavailable"));
    assert!(out(&["man"]).contains("to\\-prompt"));
}

/// Two listed skills of one name are both printed, as the audit lists them, and a note says a
/// host loads only one of them: rename one, unless they are copies of one file.
#[test]
fn skills_that_share_a_name_are_noted() {
    let tmp = crate::common::tree(&[
        ("skills/a/SKILL.md", &crate::common::skill_md("pdf", "")),
        (
            ".claude/skills/b/SKILL.md",
            &crate::common::skill_md("pdf", "license: MIT\n"),
        ),
        ("skills/c/SKILL.md", &crate::common::skill_md("c", "")),
        ("skills/d/SKILL.md", &crate::common::skill_md("doc", "")),
        (
            ".claude/skills/d/SKILL.md",
            &crate::common::skill_md("doc", ""),
        ),
    ]);
    let out = crate::common::bin(tmp.path())
        .args(["to-prompt", "-p", "builtin:claude-code", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.matches("<name>\npdf\n</name>").count(), 2, "{text}");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "skill-audit: `doc` names 2 of the skills listed, copies of one file; a host loads only one of them\n\
         skill-audit: `pdf` names 2 of the skills listed; a host loads only one of them (SA401); rename one\n"
    );
}
