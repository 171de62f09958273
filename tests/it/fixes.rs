//! `--fix`, `--diff` and `--unsafe-fixes`: what they change, what they never touch, and how they
//! report it.

use crate::common::*;

use std::path::Path;

use serde_json::Value;

/// An agent with renamed tool names in a flow list, CRLF line breaks, a comment and a body
/// that names the old tools too (it must stay as it is).
const FLOW_AGENT: &str = "---\r\ndescription: Reviews code. # who\r\ntools: [codebase, 'runCommands', edit/editFiles] # kept\r\n---\r\nUse codebase and runCommands.\r\n";

/// The same in a block list, with a byte order mark and a comment on an item.
const BLOCK_AGENT: &str = "\u{feff}---\nname: blocky\ndescription: Plans.\ntools:\n  - codebase # old\n  - runInTerminal\n  - runCommands\n---\ntools:\n  - codebase\n";

/// A skill whose description holds `: ` unquoted, and a misspelt key.
const BROKEN_SKILL: &str = "---\nname: notes\ndescription: Use when: the user asks # really\nlicence: MIT\n---\nBody: here\n";

fn library() -> tempfile::TempDir {
    tree(&[
        ("agents/flow.agent.md", FLOW_AGENT),
        ("agents/block.agent.md", BLOCK_AGENT),
        ("skills/notes/SKILL.md", BROKEN_SKILL),
        ("skills/clean/SKILL.md", &skill_md("clean", "")),
    ])
}

/// A Claude Code plugin whose agent `a` has the frontmatter lines `agent` and loads skills,
/// each `(name, tool it needs)`; with `more` files beside it.
fn claude_plugin(agent: &str, skills: &[(&str, &str)], more: &[(&str, &str)]) -> tempfile::TempDir {
    let mut files: Vec<(String, String)> = vec![
        (
            "plugins/p/.claude-plugin/plugin.json".into(),
            r#"{"name": "p", "agents": ["./agents/a.md"], "skills": ["./skills/"]}"#.into(),
        ),
        (
            "plugins/p/agents/a.md".into(),
            format!("---\nname: a\ndescription: d\n{agent}\n---\n"),
        ),
    ];
    for (name, tool) in skills {
        files.push((
            format!("plugins/p/skills/{name}/SKILL.md"),
            skill_md(name, &format!("dependencies:\n  tools: [{tool}]\n")),
        ));
    }
    files.extend(more.iter().map(|(p, t)| (p.to_string(), t.to_string())));
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    tree(&files)
}

fn read(dir: &Path, rel: &str) -> String {
    std::fs::read_to_string(dir.join(rel)).unwrap()
}

/// Run the binary in `dir` on `.` with the VS Code profile and `args`.
fn run(dir: &Path, args: &[&str]) -> (String, String, i32) {
    let out = bin(dir)
        .args(["-p", "builtin:vscode", "--fail-on", "never"])
        .args(args)
        .arg(".")
        .output()
        .unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// Every file under `dir` with its bytes, by relative path.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                let rel = p
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, std::fs::read(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn diff_shows_the_safe_fixes_writes_nothing_and_exits_1() {
    let lib = library();
    let before = snapshot(lib.path());
    let (stdout, stderr, code) = run(lib.path(), &["--diff"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(snapshot(lib.path()), before, "--diff writes nothing");
    assert!(
        stderr.contains("Would fix 8 (8 safe, 0 unsafe) in 3 files"),
        "{stderr}"
    );
    insta::assert_snapshot!("diff", stdout.replace('\r', "\\r"));
}

#[test]
fn diff_with_unsafe_fixes_shows_renames_and_names() {
    let lib = tree(&[
        ("skills/pdf/skill.md", &skill_md("pdf-tools", "")),
        (
            "chatmodes/plan.chatmode.md",
            "---\ndescription: Plans.\n---\n",
        ),
    ]);
    let (stdout, stderr, code) = run(lib.path(), &["--diff"]);
    assert_eq!((stdout.as_str(), code), ("", 0), "nothing safe: {stderr}");
    let (stdout, _, code) = run(lib.path(), &["--diff", "--unsafe-fixes"]);
    assert_eq!(code, 1);
    insta::assert_snapshot!("diff_unsafe", stdout);
}

#[test]
fn fix_edits_only_the_ranges_keeps_line_breaks_and_is_idempotent() {
    let lib = library();
    let (stdout, stderr, code) = run(lib.path(), &["--fix"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("Fixed 8 (8 safe, 0 unsafe) in 3 files"),
        "{stdout}"
    );
    assert_eq!(
        read(lib.path(), "agents/flow.agent.md"),
        "---\r\ndescription: Reviews code. # who\r\ntools: [search/codebase, 'execute/getTerminalOutput', 'execute/runInTerminal', 'read/terminalLastCommand', 'read/terminalSelection', edit/editFiles] # kept\r\n---\r\nUse codebase and runCommands.\r\n"
    );
    // No BOM any more; the comment stays on its item; a new name listed once.
    assert_eq!(
        read(lib.path(), "agents/block.agent.md"),
        "---\nname: blocky\ndescription: Plans.\ntools:\n  - search/codebase # old\n  - execute/runInTerminal\n  - execute/getTerminalOutput\n  - read/terminalLastCommand\n  - read/terminalSelection\n---\ntools:\n  - codebase\n"
    );
    assert_eq!(
        read(lib.path(), "skills/notes/SKILL.md"),
        "---\nname: notes\ndescription: 'Use when: the user asks # really'\nlicense: MIT\n---\nBody: here\n"
    );
    let after = snapshot(lib.path());
    let (stdout, stderr, code) = run(lib.path(), &["--fix"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("Fixed 0 (0 safe, 0 unsafe) in 0 files"),
        "{stdout}"
    );
    assert_eq!(
        snapshot(lib.path()),
        after,
        "a second --fix changes nothing"
    );
    let (stdout, _, code) = run(lib.path(), &["--diff"]);
    assert_eq!((stdout.as_str(), code), ("", 0));
}

#[test]
fn the_report_after_fixing_shows_what_is_left_and_the_counts() {
    let lib = library();
    write(lib.path(), "skills/notes2/SKILL.md", skill_md("other", ""));
    let (stdout, _, _) = run(lib.path(), &["--fix", "-f", "json"]);
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        v["summary"]["fixes"],
        serde_json::json!({"applied_safe": 8, "applied_unsafe": 0, "files_changed": 3, "not_applied": 0, "unsafe_available": 1})
    );
    let left: Vec<&str> = arr(&v, "findings")
        .iter()
        .filter(|f| f["fix"].is_object())
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert_eq!(left, ["SA207"], "only the unsafe fix is left");
    let (text, _, _) = run(lib.path(), &[]);
    assert!(
        text.contains("\n1 fix available with `--unsafe-fixes`\n"),
        "{text}"
    );
    assert!(
        !text.contains("[*]"),
        "the unsafe fix is not marked without the flag: {text}"
    );
    let (text, _, _) = run(lib.path(), &["--unsafe-fixes"]);
    assert!(text.contains("[*] `name` is `other`"), "{text}");
    assert!(
        text.contains("[*] 1 fixable with `--fix --unsafe-fixes`"),
        "{text}"
    );
}

#[test]
fn json_and_sarif_carry_the_edits() {
    let lib = library();
    let (stdout, _, _) = run(lib.path(), &["-f", "json"]);
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let f = arr(&v, "findings")
        .iter()
        .find(|f| f["rule"] == "SA109")
        .expect("the BOM finding");
    assert_eq!(
        f["fix"],
        serde_json::json!({
            "applicability": "safe",
            "message": "remove the byte order mark",
            "edits": [{"start": 0, "end": 3, "content": "",
                       "location": {"line": 1, "column": 1},
                       "end_location": {"line": 1, "column": 1}}]
        })
    );
    let (stdout, _, _) = run(lib.path(), &["-f", "sarif"]);
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    let bom = results.iter().find(|r| r["ruleId"] == "SA109").unwrap();
    assert_eq!(
        bom["fixes"][0]["artifactChanges"][0]["replacements"][0],
        serde_json::json!({"deletedRegion": {"byteOffset": 0, "byteLength": 3},
                           "insertedContent": {"text": ""}})
    );
    assert_eq!(
        bom["fixes"][0]["description"]["text"],
        "remove the byte order mark"
    );
}

#[test]
fn fixes_of_one_list_that_touch_the_same_place_all_land_over_passes() {
    // Two skills the agent loads, each missing a tool: both fixes append at the end of the
    // list, so the second waits for the next pass instead of clobbering the first.
    let lib = claude_plugin(
        "tools:\n  - Read\nskills: [one, two]",
        &[("one", "orders/get_order"), ("two", "refunds/get_refund")],
        &[],
    );
    let (stdout, stderr, _) = run(lib.path(), &["--diff", "--unsafe-fixes"]);
    assert!(stdout.contains("   - Read\n+  - "), "{stdout}\n{stderr}");
    let (_, stderr, code) = run(lib.path(), &["--fix", "--unsafe-fixes"]);
    assert_eq!(code, 0, "{stderr}");
    let agent = read(lib.path(), "plugins/p/agents/a.md");
    assert!(
        agent.contains(
            "tools:\n  - Read\n  - mcp__orders__get_order\n  - mcp__refunds__get_refund\nskills"
        ),
        "{agent}"
    );
    let (v, _) = json_run(lib.path(), &["."]);
    assert!(!rules_for(&v, "plugins/p/agents/a.md").contains(&"SA603".to_owned()));
}

#[test]
fn a_repeated_legacy_name_is_one_finding_whose_fix_lands_once() {
    // Each repetition was judged again and reported at the first place, with a "replace"
    // and a "remove" fix for the same entry.
    let lib = tree(&[(
        "agents/twice.agent.md",
        "---\nname: twice\ndescription: d\ntools: [codebase, read, codebase, think, think]\n---\n",
    )]);
    let (v, _) = json_run(lib.path(), &[".", "-p", "builtin:vscode"]);
    let found: Vec<(String, String)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "SA701" || f["rule"] == "SA702")
        .map(|f| {
            let fix = f["fix"]["message"].as_str().unwrap_or_default();
            let rule = f["rule"].as_str().unwrap_or_default();
            (
                format!("{rule} {}:{}", f["line"], f["column"]),
                fix.to_owned(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "SA701 4:9".to_owned(),
                "replace `codebase` with `search/codebase`".to_owned()
            ),
            ("SA702 4:35".to_owned(), String::new()),
        ]
    );
    let (_, stderr, code) = run(lib.path(), &["--fix"]);
    assert_eq!(code, 0, "{stderr}");
    let agent = read(lib.path(), "agents/twice.agent.md");
    assert!(
        agent.contains("tools: [search/codebase, read, think, think]"),
        "{agent}"
    );
}

/// Fixes not applied for one reason name ten files at most, the rest counted on one line.
#[test]
fn many_read_only_files_are_counted_after_ten() {
    let lib = tempfile::TempDir::new().unwrap();
    for i in 0..12 {
        let path = lib.path().join(format!("agents/a{i:02}.agent.md"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, FLOW_AGENT).unwrap();
        let mut perms = std::fs::metadata(&path).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(&path, perms).unwrap();
    }
    let (_, stderr, _) = run(lib.path(), &["--diff"]);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("read-only")).collect();
    assert_eq!(lines.len(), 11, "{stderr}");
    assert!(
        lines[0].contains("agents/a00.agent.md: 2 fixes not applied (SA701)"),
        "{stderr}"
    );
    assert!(
        lines[10].ends_with("and 4 fixes in 2 more files not applied: the file is read-only; make it writable to fix it"),
        "{stderr}"
    );
}

#[test]
fn a_read_only_file_is_named_and_the_others_are_still_fixed() {
    let lib = library();
    let ro = lib.path().join("agents/flow.agent.md");
    let mut perms = std::fs::metadata(&ro).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&ro, perms).unwrap();
    let (stdout, stderr, code) = run(lib.path(), &["--fix"]);
    assert_eq!(code, 1, "a file was not written: {stdout}");
    // The file's fixes on one line, as they share the reason.
    assert!(
        stderr.contains("agents/flow.agent.md: 2 fixes not applied (SA701): the file is read-only; make it writable to fix it\n"),
        "{stderr}"
    );
    assert_eq!(read(lib.path(), "agents/flow.agent.md"), FLOW_AGENT);
    assert!(read(lib.path(), "agents/block.agent.md").contains("search/codebase"));
    // Its fixes are counted as not applied, in the text and in the JSON.
    let (diff, stderr, _) = run(lib.path(), &["--diff"]);
    assert!(!diff.contains("flow.agent.md"), "{diff}");
    assert!(
        stderr.contains("fixes cannot be applied (see above)"),
        "{stderr}"
    );
    let line = stdout
        .lines()
        .find(|l| l.starts_with("Fixed "))
        .unwrap_or_default();
    assert!(line.contains("in 2 files; "), "{stdout}");
    assert!(
        line.contains(" fixes not applied (see the messages above)"),
        "{line}"
    );
    let lib = library();
    std::fs::set_permissions(lib.path().join("agents/flow.agent.md"), {
        let mut p = std::fs::metadata(lib.path().join("agents/flow.agent.md"))
            .unwrap()
            .permissions();
        p.set_readonly(true);
        p
    })
    .unwrap();
    let (json, _, _) = run(lib.path(), &["--fix", "-f", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let fixes = &v["summary"]["fixes"];
    let not_applied = fixes["not_applied"].as_u64().unwrap_or_default();
    assert!(not_applied >= 2, "{fixes}");
    assert!(
        line.contains(&format!("; {not_applied} fixes not applied")),
        "{line}"
    );
}

/// The count of unsafe fixes left after `--fix` leaves out those of files no fix may write,
/// in the text and the JSON alike.
#[test]
fn unsafe_fixes_left_count_only_files_fixes_may_write() {
    let lib = tree(&[
        ("s/a/SKILL.md", &skill_md("b", "")),
        ("s/c/SKILL.md", &skill_md("d", "")),
    ]);
    let ro = lib.path().join("s/c/SKILL.md");
    let mut perms = std::fs::metadata(&ro).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&ro, perms).unwrap();
    let (stdout, _, _) = run(lib.path(), &["--fix"]);
    assert!(
        stdout.contains("; 1 more fix available with `--unsafe-fixes`"),
        "{stdout}"
    );
    let (json, _, _) = run(lib.path(), &["--fix", "-f", "json"]);
    let v: Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["summary"]["fixes"]["unsafe_available"], 1, "{json}");
}

/// The plain audit does not offer the fixes of a read-only file: neither its findings' `[*]`
/// nor the summary's counts, which say what `--fix` would do.
#[test]
fn the_fixes_of_a_read_only_file_are_not_offered() {
    let lib = tree(&[
        ("s/a/SKILL.md", &skill_md("b", "")),
        ("s/c/SKILL.md", &skill_md("d", "")),
    ]);
    let (before, _, _) = run(lib.path(), &["-f", "concise"]);
    assert_eq!(before.matches("SA207 [*]").count(), 0, "{before}");
    let (before, _, _) = run(lib.path(), &["--unsafe-fixes", "-f", "concise"]);
    assert_eq!(before.matches("SA207 [*]").count(), 2, "{before}");
    let (text, _, _) = run(lib.path(), &[]);
    assert!(
        text.contains("2 fixes available with `--unsafe-fixes`"),
        "{text}"
    );
    let ro = lib.path().join("s/c/SKILL.md");
    let mut perms = std::fs::metadata(&ro).unwrap().permissions();
    perms.set_readonly(true);
    std::fs::set_permissions(&ro, perms).unwrap();
    let (after, _, _) = run(lib.path(), &["--unsafe-fixes", "-f", "concise"]);
    assert_eq!(after.matches("SA207 [*]").count(), 1, "{after}");
    assert!(after.contains("s/a/SKILL.md:2:7: SA207 [*]"), "{after}");
    let (text, _, _) = run(lib.path(), &[]);
    assert!(
        text.contains("1 fix available with `--unsafe-fixes`"),
        "{text}"
    );
}

/// `--diff` of a rename with edits is a patch `git apply` makes, rename and all.
#[test]
fn a_diff_with_renames_applies_with_git() {
    let git_works = std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !git_works {
        eprintln!("skipped: git is not available to apply the diff");
        return;
    }
    let lib = tree(&[
        ("s/x/skill.md", &skill_md("y", "")),
        ("a/plan.chatmode.md", "---\ndescription: Plans.\n---\n"),
    ]);
    let (diff, stderr, code) = run(lib.path(), &["--diff", "--unsafe-fixes"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(diff.contains("diff --git a/s/x/skill.md b/s/x/SKILL.md\nrename from s/x/skill.md\nrename to s/x/SKILL.md\n--- a/s/x/skill.md\n+++ b/s/x/SKILL.md\n@@"), "{diff}");
    let copy = tempfile::tempdir().unwrap();
    copy_tree(lib.path(), copy.path());
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .current_dir(copy.path())
            .args(args)
            .output()
            .unwrap()
    };
    assert!(git(&["init", "-q"]).status.success());
    write(copy.path(), "fix.diff", &diff);
    let applied = git(&["apply", "fix.diff"]);
    assert!(
        applied.status.success(),
        "{}\n{diff}",
        String::from_utf8_lossy(&applied.stderr)
    );
    std::fs::remove_file(copy.path().join("fix.diff")).unwrap();
    // The tree the patch makes is the tree `--fix` makes.
    let (_, stderr, code) = run(lib.path(), &["--fix", "--unsafe-fixes"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        snapshot(copy.path())
            .into_iter()
            .filter(|(p, _)| !p.starts_with(".git"))
            .collect::<Vec<_>>(),
        snapshot(lib.path())
    );
}

/// A rename whose target is there already is not offered: the finding says to merge the two,
/// carries no fix (no `[*]`), and `--fix` leaves both files as they were. For a skill file,
/// a `SKILL.md` in any other case is in the way too; its own name in another case is not.
#[test]
fn renames_never_replace_a_file() {
    const NEW: &str = "---\ndescription: New.\n---\n";
    let lib = tree(&[
        ("a/plan.chatmode.md", "---\ndescription: Old.\n---\n"),
        ("a/plan.agent.md", NEW),
        ("b/solo.chatmode.md", "---\ndescription: Solo.\n---\n"),
        ("s/x/skill.md", &skill_md("x", "")),
        ("s/x/SKILL.md", &skill_md("x", "")),
        ("s/y/Skill.md", &skill_md("y", "")),
    ]);
    let (r, _) = json_run(lib.path(), &["--fail-on", "never", "."]);
    let blocked = |rule: &str, path: &str| {
        let f = findings(&r, rule);
        let f = f.iter().find(|f| s(f, "path") == path).expect(path);
        (f["fix"].is_null(), s(f, "message").to_owned())
    };
    let (no_fix, message) = blocked("SA508", "a/plan.chatmode.md");
    assert!(
        no_fix && message.contains("`plan.agent.md` is beside this file"),
        "{message}"
    );
    let (no_fix, message) = blocked("SA108", "s/x/skill.md");
    assert!(no_fix && message.contains("merge the two"), "{message}");
    assert!(!blocked("SA508", "b/solo.chatmode.md").0);
    assert!(!blocked("SA108", "s/y/Skill.md").0);
    let (stdout, stderr, _) = run(lib.path(), &["--fix", "--unsafe-fixes"]);
    assert!(!stderr.contains("exists already"), "{stderr}");
    assert_eq!(read(lib.path(), "a/plan.agent.md"), NEW);
    assert!(lib.path().join("a/plan.chatmode.md").is_file());
    assert!(lib.path().join("s/x/skill.md").is_file());
    assert!(lib.path().join("b/solo.agent.md").is_file(), "{stdout}");
    assert!(lib.path().join("s/y/SKILL.md").is_file(), "{stdout}");
}

/// Two casings of the skill file and no `SKILL.md`: the finding says neither is loaded where
/// case counts and to keep one as `SKILL.md`, not that a `SKILL.md` is beside it, and no
/// rename is offered, as either would meet the other.
#[test]
fn two_wrong_casings_of_the_skill_file_say_neither_is_loaded() {
    let lib = tree(&[
        ("s/z/Skill.md", &skill_md("z", "")),
        ("s/z/skill.md", &skill_md("z", "")),
    ]);
    let (r, _) = json_run(lib.path(), &["--fail-on", "never", "."]);
    let found = findings(&r, "SA108");
    let by_path = |path: &str| {
        let f = found.iter().find(|f| s(f, "path") == path).expect(path);
        (f["fix"].is_null(), s(f, "message").to_owned())
    };
    let (no_fix, message) = by_path("s/z/Skill.md");
    assert!(no_fix, "{message}");
    assert!(
        message.starts_with(
            "`Skill.md` and `skill.md` are two casings of the skill file and neither is `SKILL.md`: "
        ) && message.contains("look for that exact name and load neither")
            && message.ends_with("keep one, rename it to `SKILL.md` and remove the other"),
        "{message}"
    );
    assert!(!message.contains("beside it"), "{message}");
    let (no_fix, message) = by_path("s/z/skill.md");
    assert!(
        no_fix && message.starts_with("`skill.md` and `Skill.md` are two casings"),
        "{message}"
    );
    run(lib.path(), &["--fix", "--unsafe-fixes"]);
    assert!(lib.path().join("s/z/Skill.md").is_file());
    assert!(lib.path().join("s/z/skill.md").is_file());
    assert!(!lib.path().join("s/z/SKILL.md").exists());
}

#[test]
fn a_renamed_file_root_is_audited_again_by_its_new_name() {
    const PLAN: &str = "---\ndescription: Plans.\n---\n";
    let skill = skill_md("r", "");
    // Each file given alone, as the only root: the report follows it to its new name. The
    // chat mode, VS Code's alone, stays VS Code's.
    for (old, new, content, fixed) in [
        (
            "skills/r/skill.md",
            "skills/r/SKILL.md",
            skill.as_str(),
            skill.clone(),
        ),
        (
            "plan.chatmode.md",
            "plan.agent.md",
            PLAN,
            "---\ntarget: vscode\ndescription: Plans.\n---\n".to_owned(),
        ),
    ] {
        let lib = tree(&[(old, content)]);
        let before = snapshot(lib.path());
        let out = bin(lib.path())
            .args(["--diff", "--unsafe-fixes", old])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1));
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(
            stdout.contains(&format!("rename from {old}\nrename to {new}\n")),
            "{stdout}"
        );
        assert_eq!(snapshot(lib.path()), before, "--diff writes nothing");

        let out = bin(lib.path())
            .args(["--fix", "--unsafe-fixes", "-o", "out.json", old])
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(!lib.path().join(old).exists(), "{old} is renamed");
        assert_eq!(read(lib.path(), new), fixed);
        let v: Value = serde_json::from_str(&read(lib.path(), "out.json")).unwrap();
        assert_eq!(strings(&v["roots"]), [new]);
        let paths: Vec<&str> = arr(&v, "skills")
            .iter()
            .chain(arr(&v, "agents"))
            .map(|x| s(x, "path"))
            .collect();
        assert_eq!(paths, [new]);
        assert_eq!(
            v["summary"]["fixes"],
            serde_json::json!({"applied_safe": 0, "applied_unsafe": 1, "files_changed": 1, "not_applied": 0, "unsafe_available": 0})
        );
    }
    // Both beside a folder root, whose skill is renamed too (a folder root stays as given).
    let lib = tree(&[
        ("skills/r/skill.md", &skill),
        ("plan.chatmode.md", PLAN),
        ("folder/skills/q/skill.md", &skill_md("q", "")),
    ]);
    let out = bin(lib.path())
        .args(["--fix", "--unsafe-fixes", "-f", "json"])
        .args(["skills/r/skill.md", "plan.chatmode.md", "folder"])
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        strings(&v["roots"]),
        ["skills/r/SKILL.md", "plan.agent.md", "folder"]
    );
    let paths: Vec<&str> = arr(&v, "skills")
        .iter()
        .chain(arr(&v, "agents"))
        .map(|x| s(x, "path"))
        .collect();
    assert_eq!(
        paths,
        [
            "folder/skills/q/SKILL.md",
            "skills/r/SKILL.md",
            "plan.agent.md"
        ]
    );
    assert_eq!(v["summary"]["fixes"]["files_changed"], 3);
    assert!(lib.path().join("folder/skills/q/SKILL.md").is_file());
}

#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_tree_is_never_written_through() {
    let outside = tree(&[("x.agent.md", FLOW_AGENT)]);
    let lib = tree(&[]);
    std::fs::create_dir_all(lib.path().join("agents")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("x.agent.md"),
        lib.path().join("agents/x.agent.md"),
    )
    .unwrap();
    let (stdout, stderr, code) = run(lib.path(), &["--fix", "--follow-outside"]);
    assert_eq!(read(outside.path(), "x.agent.md"), FLOW_AGENT);
    // Named, counted, and the run fails as for a file that cannot be written.
    assert!(stderr.contains("it is a symbolic link"), "{stderr}");
    assert!(
        stdout.contains("fixes not applied (see the messages above)"),
        "{stdout}"
    );
    assert_eq!(code, 1);
}

#[test]
fn fixes_need_local_files() {
    let lib = library();
    bin(lib.path())
        .args(["--diff", "--mcp-url", "http://127.0.0.1:9/mcp"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("cannot be used with --mcp"));
}

/// The frontmatter's line count (its `---` lines included) of a Markdown file's text.
fn frontmatter_lines(text: &str) -> usize {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split('\n');
    if lines.next().map(|l| l.trim_end()) != Some("---") {
        return 0;
    }
    2 + lines.position(|l| l.trim_end() == "---").unwrap_or(0)
}

#[test]
fn awesome_copilot_every_renamed_tool_fixed_nothing_outside_frontmatter_changed() {
    let Some(corpus_dir) = corpus(AWESOME_COPILOT) else {
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let root = work.path().join("awesome-copilot");
    copy_tree(&corpus_dir, &root);
    let before = snapshot(&root);
    let (v, _) = json_run(&root, &["-p", "builtin:vscode", "."]);
    let renamed = arr(&v, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA701")
        .count();
    assert!(renamed > 400, "{renamed} SA701 findings");
    let (stdout, stderr, _) = run(&root, &["--fix", "-f", "json"]);
    let after: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    let left: Vec<&Value> = arr(&after, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA701")
        .collect();
    assert!(left.is_empty(), "SA701 left: {left:#?}");
    assert!(
        !arr(&after, "findings").iter().any(|f| f["rule"] == "SA199"),
        "no internal error"
    );
    let now = snapshot(&root);
    assert_eq!(
        before.iter().map(|(p, _)| p).collect::<Vec<_>>(),
        now.iter().map(|(p, _)| p).collect::<Vec<_>>(),
        "safe fixes rename nothing"
    );
    let mut changed = 0;
    for ((path, old), (_, new)) in before.iter().zip(&now) {
        if old == new {
            continue;
        }
        changed += 1;
        let (old, new) = (
            String::from_utf8(old.clone()).unwrap(),
            String::from_utf8(new.clone()).unwrap(),
        );
        let mut sink = skill_audit::diagnostic::Sink::new(path);
        assert!(
            skill_audit::parse::document(new.as_bytes(), "file", &mut sink).is_ok(),
            "{path} no longer parses: {:?}",
            sink.findings
        );
        // Every line after the frontmatter is the same, in the same place from the end.
        let (fo, fnew) = (frontmatter_lines(&old), frontmatter_lines(&new));
        let body_old: Vec<&str> = old.split('\n').skip(fo).collect();
        let body_new: Vec<&str> = new.split('\n').skip(fnew).collect();
        assert_eq!(body_old, body_new, "{path}: the body changed");
    }
    let fixes = &after["summary"]["fixes"];
    assert_eq!(fixes["files_changed"].as_u64(), Some(changed));
    assert!(
        fixes["applied_safe"].as_u64().unwrap() >= renamed as u64,
        "{fixes}"
    );
    // Idempotent: nothing left to do.
    let (stdout, _, code) = run(&root, &["--diff"]);
    assert_eq!((stdout.as_str(), code), ("", 0));
}

#[test]
fn a_key_of_another_format_is_not_renamed_as_a_typo() {
    // `agent` is a SKILL.md key (Claude Code's); as an agent key it is unknown and close to
    // `agents`, but renaming it would give the agent sub-agents it never asked for.
    let lib = tree(&[(
        "agents/a.agent.md",
        "---\ndescription: d\nagent: agent\nmodle: GPT-5\ntool: [search]\n---\n",
    )]);
    let (stdout, _, code) = run(lib.path(), &["--diff"]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("-modle: GPT-5\n+model: GPT-5\n"),
        "{stdout}"
    );
    // Renaming a misspelt `tools` is unsafe: the agent that had every tool gets one.
    assert!(stdout.contains("\n tool: [search]\n"), "{stdout}");
    let (stdout, _, _) = run(lib.path(), &["--diff", "--unsafe-fixes"]);
    assert!(stdout.contains("\n+tools: [search]\n"), "{stdout}");
    assert!(
        stdout.contains("\n agent: agent\n"),
        "left as it is: {stdout}"
    );
}

/// `allowed-tools` written with commas is SA224 (info) with a safe fix that keeps the value's
/// quoting; commas inside a permission rule's parentheses are not separators.
#[test]
fn comma_separated_allowed_tools_are_respaced() {
    let t = tree(&[
        (
            "skills/c/SKILL.md",
            &skill_md("c", "allowed-tools: Read, Write, Edit\n"),
        ),
        (
            "skills/q/SKILL.md",
            &skill_md(
                "q",
                "allowed-tools: \"Read,Grep, Bash(git add:*, git commit:*)\"\n",
            ),
        ),
        (
            "skills/p/SKILL.md",
            &skill_md("p", "allowed-tools: Read Bash(git add:*, git commit:*)\n"),
        ),
    ]);
    let (r, _) = json_run(t.path(), &["--fail-on", "never", "."]);
    for path in ["skills/c/SKILL.md", "skills/q/SKILL.md"] {
        let f: Vec<&Value> = arr(&r, "findings")
            .iter()
            .filter(|f| f["path"] == path && f["rule"] == "SA224")
            .collect();
        assert_eq!(f.len(), 1, "{path}: {:?}", rules_for(&r, path));
        assert_eq!(f[0]["severity"], "info");
        assert_eq!(f[0]["line"], 4, "{}", f[0]);
    }
    assert!(!rules_for(&r, "skills/p/SKILL.md").contains(&"SA224".to_owned()));
    let (_, _, code) = run(t.path(), &["--fix"]);
    assert_eq!(code, 0);
    assert!(read(t.path(), "skills/c/SKILL.md").contains("\nallowed-tools: Read Write Edit\n"));
    assert!(
        read(t.path(), "skills/q/SKILL.md")
            .contains("\nallowed-tools: \"Read Grep Bash(git add:*, git commit:*)\"\n"),
        "{}",
        read(t.path(), "skills/q/SKILL.md")
    );
    let (r, _) = json_run(t.path(), &["--fail-on", "never", "."]);
    assert!(arr(&r, "findings").iter().all(|f| f["rule"] != "SA224"));
}

/// SA109 speaks of the frontmatter only when there is one after the byte order mark.
#[test]
fn a_byte_order_mark_before_no_frontmatter_is_described_as_such() {
    let t = tree(&[
        ("skills/a/SKILL.md", "\u{feff}# a\nNo frontmatter here.\n"),
        (
            "skills/b/SKILL.md",
            &format!("\u{feff}{}", skill_md("b", "")),
        ),
    ]);
    let (r, _) = json_run(t.path(), &["--fail-on", "never", "."]);
    let message = |path: &str| {
        arr(&r, "findings")
            .iter()
            .find(|f| f["path"] == path && f["rule"] == "SA109")
            .map(|f| s(f, "message").to_owned())
            .unwrap_or_else(|| panic!("no SA109 on {path}"))
    };
    assert!(!message("skills/a/SKILL.md").contains("frontmatter"));
    assert!(message("skills/b/SKILL.md").contains("frontmatter"));
}

/// A path that is missing as written, where the skill has the file with another case or in
/// another folder: the message says which, and the unsafe fix writes it in the link's target
/// and at the path of the text, touching nothing else on the line.
#[test]
fn unsafe_fixes_write_the_path_a_broken_reference_was_likely_meant_to_be() {
    let body = "See [the guide](references/guide.md) and [shape](<./references/Shape.md>).\n\
        Open `./references/guide.md`, or read references/guide.md.\n\
        The guide is about references/guide.md.x, and [a copy](references/guide.md.bak).\n";
    let skill = skill_with_body("docs", body);
    let lib = tree(&[
        ("skills/docs/SKILL.md", skill.as_str()),
        ("skills/docs/referances/guide.md", "# Guide\n"),
        ("skills/docs/References/shape.md", "# Shape\n"),
        // Two files of one name: no guess.
        ("skills/docs/a/guide.md.bak", ""),
        ("skills/docs/b/guide.md.bak", ""),
    ]);
    let (r, _) = json_run(lib.path(), &["--fail-on", "never", "."]);
    let hints: Vec<String> = arr(&r, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA231" || f["rule"] == "SA232")
        .map(|f| format!("{} {}", s(f, "rule"), s(f, "message")))
        .collect();
    assert!(
        hints
            .iter()
            .any(|m| m.starts_with("SA231 `references/guide.md`")
                && m.ends_with(
                    "did you mean `referances/guide.md`, the skill's only file of that name?"
                )),
        "{hints:#?}"
    );
    assert!(
        hints
            .iter()
            .any(|m| m.contains("did you mean `References/shape.md`? (names are case-sensitive")),
        "{hints:#?}"
    );
    assert!(
        hints
            .iter()
            .any(|m| m.starts_with("SA231 `references/guide.md.bak`")
                && m.ends_with("; fix the link or add the file")),
        "{hints:#?}"
    );
    let (_, stderr, _) = run(lib.path(), &["--fix", "--unsafe-fixes"]);
    let fixed = read(lib.path(), "skills/docs/SKILL.md");
    let want = skill.replace(
        body,
        "See [the guide](referances/guide.md) and [shape](<References/shape.md>).\n\
        Open `./referances/guide.md`, or read referances/guide.md.\n\
        The guide is about references/guide.md.x, and [a copy](references/guide.md.bak).\n",
    );
    assert_eq!(fixed, want, "{stderr}");
}

/// A Claude-format agent is granted a skill's bare tool name only where the run's profiles
/// say which server offers it: Claude Code would drop the bare name as written.
#[test]
fn the_drift_fix_spells_a_bare_name_as_its_server_s_tool_for_claude_code() {
    let lib = claude_plugin(
        "tools: Read\nskills: [one]",
        &[("one", "get_order")],
        &[(
            "prod.json",
            r#"{"name": "prod", "host": "claude-code", "servers": {"orders": {"tools": ["get_order"]}}}"#,
        )],
    );
    let sa603_fix = |args: &[&str]| {
        let (v, _) = json_run(lib.path(), args);
        let f = findings(&v, "SA603");
        assert_eq!(f.len(), 1, "{f:#?}");
        f[0].get("fix").map(|x| s(x, "message").to_owned())
    };
    assert_eq!(sa603_fix(&["--fail-on", "never", "."]), None);
    assert_eq!(
        sa603_fix(&["-p", "prod.json", "--fail-on", "never", "."]).as_deref(),
        Some("add `mcp__orders__get_order` to `tools`")
    );
}
