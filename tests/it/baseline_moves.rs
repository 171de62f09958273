//! `--baseline` and `diff` across moves: an entry that moved is one move, its neighbours are
//! neither added nor removed, and the same tree audited under another spelling of its root
//! (relative, absolute, from inside it) moved nothing.

use std::path::Path;

use serde_json::{Value, json};
use tempfile::TempDir;

use crate::common::*;

/// The example library and profiles in a temporary folder, with a report of the library
/// against `prod` written to `base.json` there.
fn example_with_baseline() -> TempDir {
    let t = TempDir::new().unwrap();
    let examples = Path::new(MANIFEST_DIR).join("examples");
    copy_tree(&examples.join("library"), &t.path().join("library"));
    copy_tree(&examples.join("profiles"), &t.path().join("profiles"));
    save(t.path(), "base.json", "library");
    t
}

/// Audit `root` in `dir` against `prod`, writing the JSON report to `out`.
fn save(dir: &Path, out: &str, root: &str) {
    bin(dir)
        .args([
            "--fail-on",
            "never",
            "-p",
            "profiles/prod.json",
            "-o",
            out,
            root,
        ])
        .assert()
        .success();
}

/// Move `from` to `to` (both under `dir`), creating `to`'s folder.
fn mv(dir: &Path, from: &str, to: &str) {
    let to = dir.join(to);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::rename(dir.join(from), to).unwrap();
}

/// The comparison of a run of `args` in `cwd` with the baseline `base`.
fn against(cwd: &Path, base: &Path, args: &[&str]) -> Value {
    let base = base.to_str().unwrap();
    let mut all = vec!["--fail-on", "never", "--baseline", base];
    all.extend(args);
    let (r, code) = json_run(cwd, &all);
    assert_eq!(code, 0, "{r}");
    r["baseline"].clone()
}

/// The rule and path of each finding of `d[key]`.
fn listed(d: &Value, key: &str) -> Vec<String> {
    d.get(key)
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .map(|f| format!("{} {} {}", s(f, "rule"), s(f, "path"), s(f, "message")))
                .collect()
        })
        .unwrap_or_default()
}

/// `d` says that only `moved` (kind, from, to) moved: nothing added, removed, new or fixed.
fn only_moved(d: &Value, moved: &[(&str, &str, &str)]) {
    let renamed: Vec<(String, String, String)> = d
        .get("renamed")
        .and_then(Value::as_array)
        .map(|l| {
            l.iter()
                .map(|r| (s(r, "kind").into(), s(r, "from").into(), s(r, "to").into()))
                .collect()
        })
        .unwrap_or_default();
    let want: Vec<(String, String, String)> = moved
        .iter()
        .map(|(k, f, t)| ((*k).into(), (*f).into(), (*t).into()))
        .collect();
    assert_eq!(renamed, want, "{d:#}");
    assert!(d.get("added").is_none(), "added: {d:#}");
    assert!(d.get("removed").is_none(), "removed: {d:#}");
    assert!(listed(d, "new_findings").is_empty(), "new: {d:#}");
    assert!(listed(d, "fixed_findings").is_empty(), "fixed: {d:#}");
}

#[test]
fn moving_one_agent_leaves_the_agents_beside_it_alone() {
    let t = example_with_baseline();
    let base = t.path().join("base.json");
    let old = json(&base);
    assert!(
        arr(&old, "findings")
            .iter()
            .any(|f| s(f, "path") == "library/agents/analyst.agent.md"),
        "the agent left behind has findings to churn"
    );
    mv(
        t.path(),
        "library/agents/refunds.agent.md",
        "library/other/refunds.agent.md",
    );
    let moved = [(
        "agent",
        "library/agents/refunds.agent.md",
        "library/other/refunds.agent.md",
    )];
    let d = against(t.path(), &base, &["-p", "profiles/prod.json", "library"]);
    only_moved(&d, &moved);
    // `diff` of the two saved reports says the same.
    save(t.path(), "new.json", "library");
    let (d, code) = json_of(bin(t.path()).args(["diff", "base.json", "new.json", "-f", "json"]));
    assert_eq!(code, 0);
    only_moved(&d, &moved);
    let md = quiet_stdout(
        bin(t.path()).args(["diff", "base.json", "new.json", "-f", "markdown"]),
        0,
    );
    assert!(
        md.contains("✅ This change: 0 new findings, 0 fixed, 1 moved\n"),
        "{md}"
    );
}

#[test]
fn moving_one_skill_leaves_the_other_skills_alone() {
    let t = example_with_baseline();
    let base = t.path().join("base.json");
    mv(
        t.path(),
        "library/skills/weather-brief",
        "library/skills2/weather-brief",
    );
    let d = against(t.path(), &base, &["-p", "profiles/prod.json", "library"]);
    only_moved(
        &d,
        &[(
            "skill",
            "library/skills/weather-brief/SKILL.md",
            "library/skills2/weather-brief/SKILL.md",
        )],
    );
}

/// A library whose skill `outer` holds another skill's folder (SA114, whose message quotes
/// the outer skill's path) and a finding of its own, beside a skill `other`.
fn nested() -> TempDir {
    let outer = format!(
        "{}See [x](references/missing.md).\n",
        skill_md("outer", "colour: red\n")
    );
    let t = tree(&[
        ("lib/skills/outer/SKILL.md", outer.as_str()),
        ("lib/skills/outer/inner/SKILL.md", &skill_md("inner", "")),
        (
            "lib/skills/other/SKILL.md",
            &skill_md("other", "colour: blue\n"),
        ),
    ]);
    bin(t.path())
        .args(["--fail-on", "never", "-o", "base.json", "lib"])
        .assert()
        .success();
    let quoted = messages(&json(&t.path().join("base.json")), "SA114");
    assert!(
        quoted
            .iter()
            .any(|m| m.contains("`lib/skills/outer/SKILL.md`")),
        "the nested skill's finding quotes the outer skill's path: {quoted:?}"
    );
    t
}

#[test]
fn files_in_a_moved_skill_folder_move_with_it_and_so_do_the_paths_messages_quote() {
    let t = nested();
    mv(t.path(), "lib/skills/outer", "lib/more/outer");
    let base = t.path().join("base.json");
    let d = against(t.path(), &base, &["lib"]);
    only_moved(
        &d,
        &[(
            "skill",
            "lib/skills/outer/SKILL.md",
            "lib/more/outer/SKILL.md",
        )],
    );
}

#[test]
fn the_same_tree_under_another_spelling_of_its_root_moved_nothing() {
    let t = nested();
    let base = t.path().join("base.json");
    let lib = t.path().join("lib");
    let elsewhere = TempDir::new().unwrap();
    // The baseline's root was `lib`: now absolute, from another folder, and `.`, from inside.
    for (cwd, root) in [
        (elsewhere.path(), lib.to_str().unwrap()),
        (lib.as_path(), "."),
    ] {
        let d = against(cwd, &base, &[root]);
        only_moved(&d, &[]);
    }
    // Two saved reports, the second written from inside the library.
    bin(&lib)
        .args(["--fail-on", "never", "-o", "../new.json", "."])
        .assert()
        .success();
    let (d, code) = json_of(bin(t.path()).args(["diff", "base.json", "new.json", "-f", "json"]));
    assert_eq!(code, 0);
    only_moved(&d, &[]);
    // And a real change is still told, in the new report's terms.
    std::fs::remove_dir_all(lib.join("skills/other")).unwrap();
    let d = against(elsewhere.path(), &base, &[lib.to_str().unwrap()]);
    let other = format!("{}/skills/other/SKILL.md", lib.display());
    assert_eq!(
        d["removed"],
        json!([{"kind": "skill", "name": "other", "path": other}]),
        "{d:#}"
    );
    assert_eq!(
        listed(&d, "fixed_findings"),
        [format!(
            "SA221 {other} `colour` is not a field of the spec or of any host: hosts ignore it, and strict validators and uploads (skills-ref, claude.ai) reject the skill; remove it, or move it under `metadata`, the spec's place for other fields"
        )],
        "{d:#}"
    );
}

#[test]
fn a_root_above_the_working_folder_shows_every_path_absolute_and_moved_nothing() {
    let t = nested();
    let base = t.path().join("base.json");
    let skills = t.path().join("lib/skills");
    // From inside the library its root is `..`: the root, the files under the working folder,
    // the others and the paths messages quote are all shown absolute, as for an absolute root.
    let (r, code) = json_run(&skills, &["--fail-on", "never", ".."]);
    assert_eq!(code, 0, "{r}");
    let lib = t.path().join("lib").canonicalize().unwrap();
    let lib = lib.to_str().unwrap();
    assert_eq!(r["roots"], json!([lib]));
    let paths: Vec<&str> = arr(&r, "skills")
        .iter()
        .chain(arr(&r, "findings"))
        .map(|v| s(v, "path"))
        .collect();
    assert!(paths.len() > 3, "{r:#}");
    assert!(
        paths.iter().all(|p| p.starts_with(&format!("{lib}/"))),
        "{paths:?}"
    );
    let quoted = messages(&r, "SA114");
    assert!(
        quoted
            .iter()
            .any(|m| m.contains(&format!("`{lib}/skills/outer/SKILL.md`"))),
        "{quoted:?}"
    );
    only_moved(&against(&skills, &base, &[".."]), &[]);
    // The other way round: a baseline written from inside, a run of `lib` from above.
    bin(&skills)
        .args(["--fail-on", "never", "-o", "../../inside.json", ".."])
        .assert()
        .success();
    let inside = t.path().join("inside.json");
    only_moved(&against(t.path(), &inside, &["lib"]), &[]);
}

/// A tree of skills, each at `folder/SKILL.md` with a finding of its own (SA221: an unknown
/// field).
fn skills(folders: &[&str]) -> TempDir {
    let files: Vec<(String, String)> = folders
        .iter()
        .map(|f| {
            let name = f.rsplit('/').next().unwrap();
            (format!("{f}/SKILL.md"), skill_md(name, "colour: red\n"))
        })
        .collect();
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    tree(&files)
}

/// Audit `root` in `dir`, writing the JSON report to `out`: its findings.
fn save_plain(dir: &Path, out: &str, root: &str) -> usize {
    bin(dir)
        .args(["--fail-on", "never", "-o", out, root])
        .assert()
        .success();
    arr(&json(&dir.join(out)), "findings").len()
}

/// `d` compares two unrelated roots: nothing moved, was added, removed or fixed, and the
/// `old` findings of the old report are not compared, being on files the new run did not
/// audit.
fn unrelated(d: &Value, old: usize) {
    for key in ["renamed", "added", "removed"] {
        assert!(d.get(key).is_none(), "{key}: {d:#}");
    }
    assert!(listed(d, "fixed_findings").is_empty(), "fixed: {d:#}");
    assert_eq!(
        d["not_compared"],
        json!({"rules": 0, "files": old, "profiles": 0}),
        "{d:#}"
    );
}

#[test]
fn a_skill_copied_from_an_unrelated_root_does_not_make_it_the_same_root() {
    let t = skills(&["y/afa/suite", "y/afa/nas", "z/amir/task"]);
    let old = save_plain(t.path(), "y.json", "y");
    assert_eq!(old, 2);
    let base = t.path().join("y.json");
    unrelated(&against(t.path(), &base, &["z"]), old);
    // The other root gets a copy of one skill: `y` is still not audited, so its other skill's
    // findings are not fixed, and the copy did not leave `y`.
    copy_tree(&t.path().join("y/afa/nas"), &t.path().join("z/amir/nas"));
    let d = against(t.path(), &base, &["z"]);
    unrelated(&d, old);
    assert_eq!(
        listed(&d, "new_findings")
            .iter()
            .map(|f| f.split(' ').take(2).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>(),
        ["SA221 z/amir/nas/SKILL.md", "SA221 z/amir/task/SKILL.md"],
        "{d:#}"
    );
    // `diff` of the two saved reports says the same, and its Markdown lists no move.
    save_plain(t.path(), "z.json", "z");
    let (d, code) = json_of(bin(t.path()).args(["diff", "y.json", "z.json", "-f", "json"]));
    assert_eq!(code, 0);
    unrelated(&d, old);
    let md = quiet_stdout(
        bin(t.path()).args(["diff", "y.json", "z.json", "-f", "markdown"]),
        0,
    );
    assert!(
        md.contains("This change: 2 new findings, 0 fixed, 2 not compared\n"),
        "{md}"
    );
    assert!(!md.contains("Moved"), "{md}");
}

#[test]
fn libraries_in_other_checkouts_sharing_one_skill_are_not_one_library() {
    // Two libraries audited by absolute path, from different checkouts, with a skill of one
    // name at other depths and a skill at the same relative path.
    let t = skills(&[
        "one/skills/alice/content-creator",
        "one/skills/alice/seo",
        "one/skills/alice/ads",
        "one/skills/shared",
        "two/skills/content-creator",
        "two/skills/shared",
        "two/skills/pdf",
        "two/skills/docx",
    ]);
    let abs = |root: &str| t.path().join(root).to_str().unwrap().to_owned();
    let old = save_plain(t.path(), "one.json", &abs("one"));
    let base = t.path().join("one.json");
    let elsewhere = TempDir::new().unwrap();
    let d = against(elsewhere.path(), &base, &[&abs("two")]);
    unrelated(&d, old);
    assert_eq!(listed(&d, "new_findings").len(), 4, "{d:#}");
}

#[test]
fn a_skill_moved_out_of_a_root_no_longer_audited_leaves_the_others_not_compared() {
    // `b/y/inner` is a file of `y` with a finding (SA114), which moves with it.
    let t = skills(&["a/x", "b/w", "b/v", "b/y", "b/y/inner"]);
    bin(t.path())
        .args(["--fail-on", "never", "-o", "base.json", "a", "b"])
        .assert()
        .success();
    // `y` moves from `b` to `a`, and the run stops auditing `b`: the new run looked in `a`,
    // where `y` was not, so it moved; the rest of `b` was not looked at.
    mv(t.path(), "b/y", "a/y");
    let d = against(t.path(), &t.path().join("base.json"), &["a"]);
    assert_eq!(
        d["renamed"],
        json!([{"kind": "skill", "name": "y", "from": "b/y/SKILL.md", "to": "a/y/SKILL.md"}]),
        "{d:#}"
    );
    assert!(listed(&d, "new_findings").is_empty(), "{d:#}");
    assert!(listed(&d, "fixed_findings").is_empty(), "{d:#}");
    assert_eq!(d["not_compared"]["files"], 2, "{d:#}");
}

#[test]
fn a_library_renamed_with_a_skill_removed_and_one_added_is_the_same_library() {
    let t = skills(&["lib/a", "lib/b", "lib/c"]);
    save_plain(t.path(), "base.json", "lib");
    mv(t.path(), "lib", "library");
    std::fs::remove_dir_all(t.path().join("library/c")).unwrap();
    write(t.path(), "library/d/SKILL.md", skill_md("d", ""));
    let d = against(t.path(), &t.path().join("base.json"), &["library"]);
    assert!(d.get("renamed").is_none(), "{d:#}");
    assert_eq!(
        d["removed"],
        json!([{"kind": "skill", "name": "c", "path": "library/c/SKILL.md"}]),
        "{d:#}"
    );
    assert_eq!(
        d["added"],
        json!([{"kind": "skill", "name": "d", "path": "library/d/SKILL.md"}]),
        "{d:#}"
    );
    assert!(listed(&d, "new_findings").is_empty(), "{d:#}");
    let fixed = listed(&d, "fixed_findings");
    assert!(
        fixed.len() == 1 && fixed[0].starts_with("SA221 library/c/SKILL.md"),
        "{d:#}"
    );
    assert!(d.get("not_compared").is_none(), "{d:#}");
}

/// The JSON report at `path`.
fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn a_list_of_paths_re_sorted_by_a_move_is_the_same_finding() {
    // Three skills of one name: each SA401 quotes the other two paths, sorted.
    let t = TempDir::new().unwrap();
    for folder in ["a", "b", "c"] {
        write(
            t.path(),
            &format!("lib/{folder}/SKILL.md"),
            "---\nname: x-y\ndescription: Does x and y.\n---\nBody.\n",
        );
    }
    bin(t.path())
        .args(["--fail-on", "never", "-o", "base.json", "lib"])
        .assert()
        .success();
    // `lib/a` sorts last as `lib/z`: `b` and `c` quote the others in another order.
    mv(t.path(), "lib/a", "lib/z");
    let d = against(t.path(), &t.path().join("base.json"), &["lib"]);
    let new = listed(&d, "new_findings");
    assert!(
        new.iter().all(|f| f.starts_with("SA207 lib/z/SKILL.md")),
        "{d:#}"
    );
    assert!(
        listed(&d, "fixed_findings")
            .iter()
            .all(|f| !f.starts_with("SA401")),
        "{d:#}"
    );
}

#[test]
fn a_moved_file_s_fixed_findings_are_told_where_it_is_now() {
    let t = example_with_baseline();
    let base = t.path().join("base.json");
    let (from, to) = (
        "library/agents/analyst.agent.md",
        "library/other/analyst.agent.md",
    );
    mv(t.path(), from, to);
    // The agent now grants what its skills need: its drift findings are fixed.
    let text = std::fs::read_to_string(t.path().join(to)).unwrap();
    let granted = text.replace(
        "tools: [read, search, execute/runInTerminal]",
        "tools: [read, search, execute/runInTerminal, runCommand, kusto/*, mcp__teams__search_messages]",
    );
    assert_ne!(granted, text);
    write(t.path(), to, granted);
    let d = against(t.path(), &base, &["-p", "profiles/prod.json", "library"]);
    let fixed = listed(&d, "fixed_findings");
    assert!(
        fixed.iter().any(|f| f.starts_with(&format!("SA603 {to}"))),
        "{d:#}"
    );
    assert!(fixed.iter().all(|f| !f.contains(from)), "{d:#}");
}
