//! Reports for bots: several outputs from one scan, `diff`, `--baseline`, `merge`, and the PR
//! comment's size limit and escaping.

use crate::common::*;

use std::path::Path;

use serde_json::Value;
use tempfile::TempDir;

fn skill(root: &Path, name: &str, extra: &str) {
    write(
        root,
        &format!("skills/{name}/SKILL.md"),
        format!("---\nname: {name}\ndescription: Does {name} things.\n{extra}---\n# {name}\n"),
    );
}

const PROFILE: &str = r#"{"name": "prod", "tools": ["get_order"]}"#;

fn json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn several_outputs_from_one_scan_follow_the_extension() {
    let tmp = TempDir::new().unwrap();
    skill(tmp.path(), "a", "");
    let out = bin(tmp.path())
        .args(["-o", "r.json", "-o", "r.md", "-o", "r.txt", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "nothing on stdout when -o is given");
    assert_eq!(json(&tmp.path().join("r.json"))["schema_version"], 4);
    let md = std::fs::read_to_string(tmp.path().join("r.md")).unwrap();
    assert!(md.starts_with("<!-- skill-audit-report -->\n"));
    let txt = std::fs::read_to_string(tmp.path().join("r.txt")).unwrap();
    assert!(txt.contains("1 file scanned, 1 skill (0 invalid)"), "{txt}");
    // --format overrides the extension for every target.
    bin(tmp.path())
        .args(["-f", "json", "-o", "x.md", "."])
        .assert()
        .success();
    assert_eq!(json(&tmp.path().join("x.md"))["schema_version"], 4);
    // An unknown extension without --format is a usage error.
    bin(tmp.path()).args(["-o", "r.xyz", "."]).assert().code(2);
}

/// Base: `a` available, `b` with an unknown key. Head: `a` needs a missing tool, `b` fixed,
/// `c` new with an unknown key; a line shift above b's old finding must not churn it.
fn base_and_head() -> (TempDir, TempDir) {
    let base = TempDir::new().unwrap();
    skill(base.path(), "a", "dependencies:\n  tools: [get_order]\n");
    skill(base.path(), "b", "colour: red\n");
    skill(base.path(), "d", "\nflavour: x\n");
    write(base.path(), "prod.json", PROFILE);
    let head = TempDir::new().unwrap();
    skill(
        head.path(),
        "a",
        "dependencies:\n  tools: [get_order, refund]\n",
    );
    skill(head.path(), "b", "");
    skill(head.path(), "c", "colour: red\n");
    skill(head.path(), "d", "license: MIT\n\n\nflavour: x\n");
    write(head.path(), "prod.json", PROFILE);
    (base, head)
}

fn report(dir: &Path, name: &str) -> std::path::PathBuf {
    bin(dir)
        .args(["--fail-on", "never", "-p", "prod.json", "-o", name, "."])
        .assert()
        .success();
    dir.join(name)
}

#[test]
fn diff_matches_findings_without_lines_and_lists_availability_changes() {
    let (base, head) = base_and_head();
    let old = report(base.path(), "old.json");
    let new = report(head.path(), "new.json");
    let out = bin(head.path())
        .args([
            "diff",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "--format",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let d: Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules_paths = |key: &str| -> Vec<(String, String)> {
        d[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["rule"].as_str().unwrap().to_owned(),
                    f["path"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    };
    let new_f = rules_paths("new_findings");
    assert!(
        new_f.contains(&("SA221".into(), "skills/c/SKILL.md".into())),
        "{new_f:?}"
    );
    assert!(
        new_f.contains(&("SA402".into(), "skills/a/SKILL.md".into())),
        "{new_f:?}"
    );
    assert!(
        !new_f.iter().any(|(_, p)| p == "skills/d/SKILL.md"),
        "moved finding is not new: {new_f:?}"
    );
    let fixed = rules_paths("fixed_findings");
    assert_eq!(
        fixed,
        [("SA221".to_owned(), "skills/b/SKILL.md".to_owned())]
    );
    let changes = d["availability_changes"].as_array().unwrap();
    let a = changes
        .iter()
        .find(|c| c["path"] == "skills/a/SKILL.md")
        .expect("a changed");
    assert_eq!(
        (a["kind"].as_str(), a["profile"].as_str()),
        (Some("skill"), Some("prod"))
    );
    assert_eq!(
        (a["from"].as_str(), a["to"].as_str()),
        (Some("available"), Some("unavailable"))
    );
    // The profile is the same: `a` changed because it now needs `refund`.
    assert_eq!(
        a["causes"],
        serde_json::json!([{"change": "required", "kind": "tool", "name": "refund"}])
    );
    // A new skill is added once, not a status change on each profile.
    assert!(
        changes.iter().all(|c| c["path"] != "skills/c/SKILL.md"),
        "{changes:?}"
    );
    assert_eq!(
        d["added"],
        serde_json::json!([{"kind": "skill", "name": "c", "path": "skills/c/SKILL.md"}])
    );
    assert!(d.get("removed").is_none(), "{d}");

    let md = bin(head.path())
        .args([
            "diff",
            old.to_str().unwrap(),
            new.to_str().unwrap(),
            "--format",
            "markdown",
        ])
        .output()
        .unwrap();
    let md = String::from_utf8(md.stdout).unwrap();
    assert!(md.starts_with("<!-- skill-audit-report -->"));
    assert!(
        md.contains("makes 1 entry unavailable on <code>prod</code>"),
        "{md}"
    );
    let text = bin(head.path())
        .args(["diff", old.to_str().unwrap(), new.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        String::from_utf8(text.stdout)
            .unwrap()
            .contains("fixed: skills/b/SKILL.md")
    );
}

/// One library audited against two versions of `prod`: `refund` and `dispute_v2` are gone
/// from the second.
fn before_and_after_a_profile_change() -> (TempDir, std::path::PathBuf, std::path::PathBuf) {
    let tmp = TempDir::new().unwrap();
    skill(
        tmp.path(),
        "pay",
        "dependencies:\n  tools: [get_order, refund]\n",
    );
    skill(
        tmp.path(),
        "dispute",
        "dependencies:\n  tools:\n    any: [dispute_v1, dispute_v2]\n",
    );
    skill(
        tmp.path(),
        "docs",
        "dependencies:\n  resources: [docs://policy]\n",
    );
    write(
        tmp.path(),
        "agents/refunder.agent.md",
        "---\ndescription: Refunds orders.\ntools: [get_order, refund]\n---\nRefund.\n",
    );
    let audit = |profile: &str, out: &str| {
        write(tmp.path(), "prod.json", profile);
        bin(tmp.path())
            .args(["--fail-on", "never", "-p", "prod.json", "-o", out, "."])
            .assert()
            .success();
        tmp.path().join(out)
    };
    let old = audit(
        r#"{"name": "prod", "tools": ["get_order", "refund", "dispute_v2"]}"#,
        "old.json",
    );
    let new = audit(
        r#"{"name": "prod", "tools": ["get_order"], "resources": ["docs://policy"]}"#,
        "new.json",
    );
    (tmp, old, new)
}

#[test]
fn diff_names_the_tool_that_changed_each_status() {
    let (tmp, old, new) = before_and_after_a_profile_change();
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let (d, code) = json_of(bin(tmp.path()).args(["diff", old, new, "-f", "json"]));
    assert_eq!(code, 0);
    let causes = |path: &str| -> (String, Value) {
        let c = d["availability_changes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["path"] == path)
            .unwrap_or_else(|| panic!("{path} did not change: {d}"));
        (
            format!("{} -> {}", s(c, "from"), s(c, "to")),
            c["causes"].clone(),
        )
    };
    use serde_json::json;
    assert_eq!(
        causes("skills/pay/SKILL.md"),
        (
            "available -> unavailable".into(),
            json!([{"change": "removed", "kind": "tool", "name": "refund"}])
        )
    );
    // An `any` group is one cause: none of its tools is left.
    assert_eq!(
        causes("skills/dispute/SKILL.md"),
        (
            "available -> unavailable".into(),
            json!([{"change": "removed", "kind": "tool", "any": ["dispute_v1", "dispute_v2"]}])
        )
    );
    assert_eq!(
        causes("skills/docs/SKILL.md"),
        (
            "unavailable -> available".into(),
            json!([{"change": "added", "kind": "resource", "name": "docs://policy"}])
        )
    );
    assert_eq!(
        causes("agents/refunder.agent.md"),
        (
            "available -> partial".into(),
            json!([{"change": "removed", "kind": "tool", "name": "refund"}])
        )
    );

    let text = bin(tmp.path()).args(["diff", old, new]).output().unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    for line in [
        "skill skills/pay/SKILL.md on prod: available -> unavailable (tool `refund` removed)",
        "skill skills/dispute/SKILL.md on prod: available -> unavailable (one of tools `dispute_v1`, `dispute_v2` no longer offered)",
        "skill skills/docs/SKILL.md on prod: unavailable -> available (resource `docs://policy` added)",
        "agent agents/refunder.agent.md on prod: available -> partial (tool `refund` removed)",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let md = bin(tmp.path())
        .args(["diff", old, new, "-f", "markdown"])
        .output()
        .unwrap();
    let md = String::from_utf8(md.stdout).unwrap();
    assert!(
        md.contains("| skill | <code>pay</code> | prod | available → unavailable | tool <code>refund</code> removed |"),
        "{md}"
    );
    assert!(
        md.contains("| Kind | Name | Profile | Change | Why |"),
        "{md}"
    );
}

#[test]
fn baseline_gates_only_on_new_findings() {
    let (base, head) = base_and_head();
    let old = report(base.path(), "old.json");
    let old = old.to_str().unwrap();
    // Without a baseline the old warning in d fails --fail-on warning...
    skill(head.path(), "b", "colour: red\n");
    bin(head.path())
        .args(["-p", "prod.json", "--fail-on", "warning", "."])
        .assert()
        .code(1);
    // ...with it, only new ones count: a, c are new, so still 1, and `-q` says how many.
    let gated = bin(head.path())
        .args([
            "-p",
            "prod.json",
            "--fail-on",
            "warning",
            "--baseline",
            old,
            "-q",
            ".",
        ])
        .output()
        .unwrap();
    assert_eq!(gated.status.code(), Some(1));
    let why = String::from_utf8_lossy(&gated.stderr);
    let (new, all) = (
        String::from_utf8_lossy(&gated.stdout)
            .matches("[new]")
            .count(),
        arr(
            &json_run(head.path(), &["-p", "prod.json", "--fail-on", "never", "."]).0,
            "findings",
        )
        .len(),
    );
    assert!(new > 0 && new < all, "{new} of {all}");
    assert!(
        why.contains(&format!(": {new} new finding"))
            && why.contains("at or above --fail-on warning"),
        "{why}"
    );
    // Against itself nothing is new: exit 0, and the comment says so.
    let same = report(head.path(), "same.json");
    let out = bin(head.path())
        .args([
            "-p",
            "prod.json",
            "--fail-on",
            "warning",
            "--baseline",
            same.to_str().unwrap(),
            "-f",
            "markdown",
            ".",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.contains("0 new findings"), "{md}");
    // A baseline that is not a report is a usage error.
    write(head.path(), "bad.json", "{\"not\": \"a report\"}");
    bin(head.path())
        .args(["--baseline", "bad.json", "."])
        .assert()
        .code(2);
}

#[test]
fn merge_keeps_paths_distinct_per_shard() {
    let (one, two) = base_and_head();
    let a = report(one.path(), "repo-a.json");
    let b = report(two.path(), "repo-b.json");
    let out = TempDir::new().unwrap();
    bin(out.path())
        .args([
            "merge",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "-o",
            "all.json",
            "-o",
            "all.md",
        ])
        .assert()
        .success();
    let m = json(&out.path().join("all.json"));
    let paths: Vec<&str> = m["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert!(
        paths.contains(&"repo-a/skills/a/SKILL.md") && paths.contains(&"repo-b/skills/a/SKILL.md"),
        "{paths:?}"
    );
    assert_eq!(m["summary"]["skills"], 7);
    assert_eq!(m["roots"], serde_json::json!(["repo-a", "repo-b"]));
    let findings = m["findings"].as_array().unwrap();
    assert!(
        findings
            .iter()
            .all(|f| f["path"].as_str().unwrap().starts_with("repo-"))
    );
    assert_eq!(m["summary"]["files_scanned"], 7);
    assert!(
        std::fs::read_to_string(out.path().join("all.md"))
            .unwrap()
            .starts_with("<!-- skill-audit-report -->")
    );
    // Two reports of one file name, from two folders: told apart by their folders.
    let (x, y) = (out.path().join("x"), out.path().join("y"));
    std::fs::create_dir_all(&x).unwrap();
    std::fs::create_dir_all(&y).unwrap();
    std::fs::copy(&a, x.join("report.json")).unwrap();
    std::fs::copy(&b, y.join("report.json")).unwrap();
    bin(out.path())
        .args(["merge", "x/report.json", "y/report.json", "-o", "same.json"])
        .assert()
        .success();
    let m = json(&out.path().join("same.json"));
    assert_eq!(m["roots"], serde_json::json!(["report", "y/report"]));
    assert_eq!(m["summary"]["skills"], 7);
    let (one, two) = (json(&a), json(&b));
    let findings = |r: &Value| r["findings"].as_array().unwrap().len();
    assert_eq!(findings(&m), findings(&one) + findings(&two));
}

/// A shard whose report holds a display path in every place one can be: a link and its drift,
/// an agent's `proposal_grants`, a chat mode's rename fix, a Codex sidecar's `file`, and the
/// messages of SA114 (a skill inside another's folder) and SA401 (under an owner's folder).
/// Names end in `n`: skills of one name in two shards are duplicates to a run over both.
fn rich_shard(root: &Path, n: &str) {
    let files = [
        (
            format!("skills/k{n}/SKILL.md"),
            skill_md(&format!("k{n}"), "tools: [kusto/run_query]\n"),
        ),
        (
            format!(".github/agents/a{n}.agent.md"),
            format!(
                "---\nname: a{n}\ndescription: d\ntools: [read]\n---\nUse [k](../../skills/k{n}/SKILL.md).\n"
            ),
        ),
        (
            format!(".github/chatmodes/plan{n}.chatmode.md"),
            "---\ndescription: Plans.\ntools: [read]\n---\nPlan.\n".to_owned(),
        ),
        (
            format!("skills/f{n}/SKILL.md"),
            skill_md(&format!("f{n}"), ""),
        ),
        (
            format!("skills/f{n}/agents/openai.yaml"),
            "dependencies:\n  tools:\n    - type: \"mcp\"\n      value: \"figma\"\n".to_owned(),
        ),
        (
            format!("outer{n}/SKILL.md"),
            skill_md(&format!("outer{n}"), ""),
        ),
        (
            format!("outer{n}/examples/inner/SKILL.md"),
            skill_md(&format!("inner{n}"), ""),
        ),
        (
            format!("skills/owner{n}/x/SKILL.md"),
            skill_md(&format!("dup{n}"), ""),
        ),
        (
            format!("skills/owner{n}/y/SKILL.md"),
            // Not a copy of `x`'s file: copies are no duplicates.
            skill_md(&format!("dup{n}"), "license: MIT\n"),
        ),
    ];
    for (path, text) in files {
        write(root, &path, text);
    }
}

#[test]
fn merge_of_folders_audited_alone_equals_one_run_over_them() {
    let tmp = TempDir::new().unwrap();
    let top = tmp.path();
    rich_shard(&top.join("one"), "1");
    rich_shard(&top.join("two"), "2");
    write(top, "reports/.keep", "");
    let audit = ["--fail-on", "never", "-p", "builtin:vscode"];
    for shard in ["one", "two"] {
        let to = format!("../reports/{shard}.json");
        bin(top.join(shard))
            .args(audit)
            .args(["-o", &to, "."])
            .assert()
            .success();
    }
    let reports = top.join("reports");
    let run = |format: &str| -> String {
        stdout_of(bin(top).args(audit).args(["-f", format, "one", "two"]), 0)
    };
    let merge = |format: &str| -> String {
        stdout_of(
            bin(&reports).args(["merge", "one.json", "two.json", "-f", format]),
            0,
        )
    };
    let single: Value = serde_json::from_str(&run("json")).unwrap();
    let merged: Value = serde_json::from_str(&merge("json")).unwrap();
    // Every place the fixture puts a path is there, so the comparison covers them.
    let message = |rule: &str| {
        let f = findings(&merged, rule);
        f.first()
            .map(|f| s(f, "message").to_owned())
            .unwrap_or_default()
    };
    assert!(
        message("SA114").contains("`one/outer1/SKILL.md`"),
        "{merged:#}"
    );
    assert!(
        message("SA401").contains("`one/skills/owner1/y/SKILL.md` under `one/skills/owner1/`"),
        "{merged:#}"
    );
    let agent = &arr(&merged, "agents")[0];
    assert_eq!(
        agent["proposal_grants"]["from"][0],
        "one/skills/k1/SKILL.md"
    );
    assert_eq!(
        crate::common::skill(&merged, "one/skills/f1/SKILL.md")["requirements"][0]["file"],
        "one/skills/f1/agents/openai.yaml"
    );
    assert!(
        arr(&merged, "findings")
            .iter()
            .any(|f| f["fix"]["rename"] == "one/.github/chatmodes/plan1.agent.md"),
        "{merged:#}"
    );
    assert_eq!(merged, single);
    // Text shows source lines, which a JSON report does not keep: concise has none.
    for format in ["concise", "markdown", "html", "github"] {
        assert_eq!(merge(format), run(format), "{format}");
    }
    // SARIF ends a region where the text's caret ends, measured on the source line, which a
    // JSON report does not keep: a merged log has starts only.
    let unended = |log: String| -> Value {
        let mut log: Value = serde_json::from_str(&log).unwrap();
        for r in log["runs"][0]["results"].as_array_mut().unwrap() {
            let region = &mut r["locations"][0]["physicalLocation"]["region"];
            let region = region.as_object_mut().unwrap();
            region.remove("endLine");
            region.remove("endColumn");
        }
        log
    };
    assert_eq!(unended(merge("sarif")), unended(run("sarif")));
}

/// A report of `.` holding `skills/demo/SKILL.md` as written, and one of the same skill served
/// by an MCP server (`--mcp -- SERVER`): no roots, the skill's URI as its path.
fn served_report(dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    skill(dir, "demo", "colour: red\n");
    let local = report(dir, "local.json");
    let text = std::fs::read_to_string(&local)
        .unwrap()
        .replace("skills/demo/SKILL.md", "skill://demo/SKILL.md");
    let mut served: Value = serde_json::from_str(&text).unwrap();
    served["roots"] = serde_json::json!([]);
    let path = dir.join("served.json");
    std::fs::write(&path, served.to_string()).unwrap();
    (local, path)
}

#[test]
fn merge_leaves_the_paths_of_served_skills_alone() {
    let tmp = TempDir::new().unwrap();
    write(tmp.path(), "prod.json", PROFILE);
    let (_, served) = served_report(tmp.path());
    let other = TempDir::new().unwrap();
    write(other.path(), "prod.json", PROFILE);
    skill(other.path(), "b", "");
    let b = report(other.path(), "b.json");
    bin(tmp.path())
        .args([
            "merge",
            "served.json",
            b.to_str().unwrap(),
            "-o",
            "all.json",
        ])
        .assert()
        .success();
    let m = json(&tmp.path().join("all.json"));
    // The served report has no root to add.
    assert_eq!(m["roots"], serde_json::json!(["b"]));
    let paths: Vec<&str> = (arr(&m, "skills").iter())
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["b/skills/b/SKILL.md", "skill://demo/SKILL.md"]);
    assert!(
        arr(&m, "findings")
            .iter()
            .any(|f| f["path"] == "skill://demo/SKILL.md"),
        "{m:#}"
    );
    // Served skills audited with `.` keep their URIs too; the local paths get the label.
    let mut mixed = json(&served);
    mixed["roots"] = serde_json::json!(["."]);
    std::fs::write(tmp.path().join("mixed.json"), mixed.to_string()).unwrap();
    bin(tmp.path())
        .args(["merge", "mixed.json", b.to_str().unwrap(), "-o", "all.json"])
        .assert()
        .success();
    let m = json(&tmp.path().join("all.json"));
    assert_eq!(m["roots"], serde_json::json!(["mixed", "b"]));
    assert_eq!(m["skills"][1]["path"], "skill://demo/SKILL.md");
}

#[test]
fn merge_refuses_one_profile_name_for_two_environments() {
    let one = TempDir::new().unwrap();
    skill(one.path(), "a", "");
    write(one.path(), "prod.json", PROFILE);
    let a = report(one.path(), "a.json");
    let two = TempDir::new().unwrap();
    skill(two.path(), "b", "");
    write(
        two.path(),
        "prod.json",
        r#"{"name": "prod", "tools": ["get_order", "refund"]}"#,
    );
    let b = report(two.path(), "b.json");
    let out = bin(one.path())
        .args(["merge", a.to_str().unwrap(), b.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(a.to_str().unwrap())
            && err.contains(b.to_str().unwrap())
            && err.contains("profile `prod`")
            && err.contains("1 tools")
            && err.contains("2 tools"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn merge_refuses_reports_that_share_a_path() {
    let (one, _) = base_and_head();
    let a = report(one.path(), "repo-a.json");
    // The same report twice.
    let err = stderr_of(
        bin(one.path()).args(["merge", "repo-a.json", a.to_str().unwrap()]),
        2,
    );
    assert!(
        err.contains("repo-a.json and ")
            && err.contains(a.to_str().unwrap())
            && err.contains("`repo-a/skills/a/SKILL.md`"),
        "{err}"
    );
    // Two runs of one named root.
    for name in ["r1.json", "r2.json"] {
        bin(one.path())
            .args([
                "--fail-on",
                "never",
                "-p",
                "prod.json",
                "-o",
                name,
                "skills",
            ])
            .assert()
            .success();
    }
    let err = stderr_of(bin(one.path()).args(["merge", "r1.json", "r2.json"]), 2);
    assert!(
        err.contains("r1.json and r2.json both hold `skills/a/SKILL.md`"),
        "{err}"
    );
}

#[test]
fn pr_comment_of_5000_skills_fits_githubs_limit() {
    let tmp = TempDir::new().unwrap();
    for i in 0..5000 {
        // Each skill: an unknown key (warning), a host key (info), and a missing tool.
        skill(
            tmp.path(),
            &format!("skill-{i:04}"),
            "argument-hint: x\ncolour: red\ndependencies:\n  tools: [refund_order_with_a_long_name]\n",
        );
    }
    write(tmp.path(), "prod.json", PROFILE);
    let out = bin(tmp.path())
        .args([
            "-p",
            "prod.json",
            "-f",
            "markdown",
            "--fail-on",
            "never",
            ".",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let md = String::from_utf8(out.stdout).unwrap();
    let chars = md.chars().count();
    assert!(chars <= 65_536, "{chars} characters");
    assert!(chars > 30_000, "the budget is used, not wasted: {chars}");
    assert!(md.starts_with("<!-- skill-audit-report -->"));
    assert!(
        md.contains("Left out to fit a comment: "),
        "says what was cut"
    );
    assert!(
        md.contains("5000 infos"),
        "infos go first: {}",
        &md[md.len() - 600..]
    );
    // Balanced <details>: cutting never leaves a block open.
    assert_eq!(
        md.matches("<details>").count(),
        md.matches("</details>").count()
    );
}

/// A library whose rows that need attention overflow a comment. In path order the rows that
/// need attention least come first: skills `a-…` not judged (they run `gh`, which a tool
/// profile does not describe) before skills `z-…` unavailable, agents `a-…` partial and
/// `b-…` undeclared before agents `z-…` unavailable; skills `m-…` need nothing.
fn overflowing_library() -> TempDir {
    let tmp = TempDir::new().unwrap();
    let root = tmp.path();
    let long = "with-a-name-long-enough-to-fill-the-comment";
    for i in 0..250 {
        let name = format!("a-{i:03}-{long}");
        write(
            root,
            &format!("skills/{name}/SKILL.md"),
            format!("---\nname: {name}\ndescription: d\n---\n```sh\ngh pr list\n```\n"),
        );
    }
    for i in 0..30 {
        skill(
            root,
            &format!("z-{i:03}-{long}"),
            "dependencies:\n  tools: [refund_order]\n",
        );
    }
    for i in 0..300 {
        skill(root, &format!("m-{i:03}-{long}"), "");
    }
    let agent = |name: String, tools: &str| {
        write(
            root,
            &format!("agents/{name}.agent.md"),
            format!("---\nname: {name}\ndescription: d\n{tools}---\nbody\n"),
        );
    };
    for i in 0..60 {
        agent(
            format!("a-{i:03}-{long}"),
            "tools: [get_order, refund_order]\n",
        );
    }
    for i in 0..100 {
        agent(format!("b-{i:03}-{long}"), "");
    }
    for i in 0..20 {
        agent(format!("z-{i:03}-{long}"), "tools: [refund_order]\n");
    }
    write(root, "prod.json", PROFILE);
    tmp
}

/// The names of a matrix table's rows (`title` `Skill` or `Agent`), in the order shown.
fn matrix_names<'a>(md: &'a str, title: &str) -> Vec<&'a str> {
    let header = format!("| {title} |");
    md.lines()
        .skip_while(|l| !l.starts_with(&header))
        .skip(2)
        .take_while(|l| l.starts_with("| <code>"))
        .map(|l| &l["| <code>".len()..l.find("</code>").unwrap()])
        .collect()
}

fn markdown_of(dir: &Path, extra: &[&str]) -> String {
    let mut cmd = bin(dir);
    cmd.args(["-p", "prod.json", "-f", "markdown", "--fail-on", "never"])
        .args(extra)
        .arg(".");
    let md = quiet_stdout(&mut cmd, 0);
    let chars = md.chars().count();
    assert!(chars <= 65_536, "{chars} characters");
    assert!(chars > 50_000, "the budget is used, not wasted: {chars}");
    md
}

#[test]
fn pr_comment_keeps_the_rows_that_need_attention_most() {
    let lib = overflowing_library();
    let md = markdown_of(lib.path(), &[]);
    let (skills, agents) = (matrix_names(&md, "Skill"), matrix_names(&md, "Agent"));
    let starting =
        |rows: &[&str], prefix: &str| rows.iter().filter(|n| n.starts_with(prefix)).count();
    // Every unavailable row is kept, then the partial agents, and the budget left is shared
    // by the not-judged skills and the undeclared agents rather than spent on one table.
    assert_eq!(starting(&skills, "z-"), 30, "{skills:#?}");
    assert_eq!(starting(&agents, "z-"), 20, "{agents:#?}");
    assert_eq!(starting(&agents, "a-"), 60, "{agents:#?}");
    let (nj, und) = (starting(&skills, "a-"), starting(&agents, "b-"));
    assert!(0 < nj && nj < 250 && 0 < und && und < 100, "{nj} and {und}");
    // Shown in the report's order, by path.
    for rows in [&skills, &agents] {
        assert!(rows.is_sorted(), "{rows:#?}");
    }
    assert!(md.contains(&format!(
        "_{} more skill rows left out to fit a comment, none of which is ⚠️ invalid or ❌ unavailable (worst cell: {} ❔ not judged)._",
        250 - nj,
        250 - nj
    )), "{md}");
    assert!(md.contains(&format!(
        "_{} more agent rows left out to fit a comment, none of which is ⚠️ invalid or ❌ unavailable (worst cell: {} ➖ undeclared)._",
        100 - und,
        100 - und
    )), "{md}");
    // The folded rows went first; every finding went too, so no findings table is shown,
    // only the note.
    assert!(
        md.contains("_300 skill rows left out to fit a comment._"),
        "{md}"
    );
    assert!(!md.contains("| Severity |"), "{md}");
    assert!(md.contains("Left out to fit a comment: "), "{md}");
    assert_eq!(md, markdown_of(lib.path(), &[]), "deterministic");
}

#[test]
fn pr_comment_of_every_row_cuts_rows_that_need_no_attention_first() {
    let lib = overflowing_library();
    let md = markdown_of(lib.path(), &["--matrix", "all"]);
    let (skills, agents) = (matrix_names(&md, "Skill"), matrix_names(&md, "Agent"));
    assert!(skills.iter().all(|n| !n.starts_with("m-")), "{skills:#?}");
    assert_eq!(
        agents.iter().filter(|n| n.starts_with("z-")).count(),
        20,
        "{agents:#?}"
    );
    assert!(md.contains("; 300 need no attention)._"), "{md}");
}

#[test]
fn pr_comment_neutralises_hostile_text() {
    let tmp = TempDir::new().unwrap();
    let evil = "x | y </details> <script>alert(1)</script> @octocat <!-- hide --> `tick`";
    write(
        tmp.path(),
        "skills/evil/SKILL.md",
        format!(
            "---\nname: evil\ndescription: d\n\"{evil}\": 1\ndependencies:\n  tools: [\"{evil}\"]\n---\n"
        ),
    );
    write(tmp.path(), "prod.json", PROFILE);
    let out = bin(tmp.path())
        .args([
            "-p",
            "prod.json",
            "-f",
            "markdown",
            "--fail-on",
            "never",
            ".",
        ])
        .output()
        .unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(!md.contains("<script>"), "{md}");
    assert!(!md.contains("@octocat"), "mentions are broken up: {md}");
    assert_eq!(
        md.matches("<details>").count(),
        md.matches("</details>").count(),
        "{md}"
    );
    assert_eq!(
        md.matches("<!--").count(),
        1,
        "only the marker is a comment: {md}"
    );
    // Every row of a table has as many cells as its header: `|` inside text cannot split one.
    let mut table: Vec<&str> = Vec::new();
    for line in md.lines().chain(std::iter::once("")) {
        if line.starts_with('|') {
            table.push(line);
            continue;
        }
        if let Some(head) = table.first() {
            let cells = head.matches('|').count();
            assert!(
                table.iter().all(|r| r.matches('|').count() == cells),
                "{table:#?}"
            );
        }
        table.clear();
    }
    assert!(
        md.contains("&lt;script&gt;"),
        "the text is still shown, escaped"
    );
}

#[test]
fn a_baseline_written_from_another_folder_matches_every_finding() {
    // The report written above the library, the run inside it: skills and agents pair by
    // name, and the plugin manifest's findings move with the folder they moved with.
    let t = TempDir::new().unwrap();
    copy_tree(
        &std::path::Path::new(MANIFEST_DIR).join("examples/library"),
        &t.path().join("lib"),
    );
    let base = t.path().join("base.json");
    bin(t.path())
        .args(["lib", "--fail-on", "never", "-o", base.to_str().unwrap()])
        .assert()
        .success();
    let old: Value = serde_json::from_str(&std::fs::read_to_string(&base).unwrap()).unwrap();
    assert!(
        arr(&old, "findings")
            .iter()
            .any(|f| s(f, "path").ends_with("plugin.json")),
        "the library has a manifest finding to move"
    );
    let (r, _) = json_run(
        &t.path().join("lib"),
        &[
            "--baseline",
            base.to_str().unwrap(),
            "--fail-on",
            "never",
            ".",
        ],
    );
    let new: Vec<String> = arr(&r["baseline"], "new_findings")
        .iter()
        .map(|f| format!("{} {}", s(f, "path"), s(f, "message")))
        .collect();
    assert!(new.is_empty(), "{new:#?}");
}

/// The example library audited in the repository root against `profiles`, written to `out`.
fn example_report(out: &Path, profiles: &[&str]) {
    let mut args: Vec<String> = vec!["--fail-on".into(), "never".into()];
    for p in profiles {
        args.extend(["-p".into(), format!("examples/profiles/{p}.json")]);
    }
    args.extend([
        "-o".into(),
        out.display().to_string(),
        "examples/library".into(),
    ]);
    bin(MANIFEST_DIR).args(&args).assert().success();
}

#[test]
fn a_profile_in_one_report_only_is_one_change_not_one_per_entry() {
    let tmp = TempDir::new().unwrap();
    let (both, prod) = (tmp.path().join("ps.json"), tmp.path().join("p.json"));
    example_report(&both, &["prod", "staging"]);
    example_report(&prod, &["prod"]);
    let (both, prod) = (both.to_str().unwrap(), prod.to_str().unwrap());
    // The findings about staging, which the second run cannot have.
    let on_staging = findings_naming(&json(Path::new(both)), "staging");
    assert!(on_staging > 0);

    let (d, code) = json_of(bin(tmp.path()).args(["diff", both, prod, "-f", "json"]));
    assert_eq!(code, 0);
    assert_eq!(d["profiles"], serde_json::json!({"dropped": ["staging"]}));
    assert!(arr(&d, "availability_changes").is_empty(), "{d}");
    assert!(arr(&d, "fixed_findings").is_empty(), "{d}");
    assert!(arr(&d, "new_findings").is_empty(), "{d}");
    assert!(
        d.get("added").is_none() && d.get("removed").is_none(),
        "{d}"
    );
    assert_eq!(
        d["not_compared"],
        serde_json::json!({"rules": 0, "files": 0, "profiles": on_staging})
    );
    let md = quiet_stdout(
        bin(tmp.path()).args(["diff", both, prod, "-f", "markdown"]),
        0,
    );
    assert!(
        md.contains(&format!(
            "✅ This change: 0 new findings, 0 fixed, profile <code>staging</code> dropped, {on_staging} not compared"
        )),
        "{md}"
    );
    assert!(
        md.contains(&format!("Profile <code>staging</code> is only in the old report: its cells are not compared, and its {on_staging} findings are neither fixed nor new.")),
        "{md}"
    );
    assert!(
        !md.contains("absent") && !md.contains("unavailable on"),
        "{md}"
    );
    let text = quiet_stdout(bin(tmp.path()).args(["diff", both, prod]), 0);
    assert!(
        text.ends_with(&format!(
            "0 new findings, 0 fixed, 0 availability changes, {on_staging} not compared\n"
        )),
        "{text}"
    );

    // The other way round: the profile is added; its findings are new, its cells unchanged.
    let (d, _) = json_of(bin(tmp.path()).args(["diff", prod, both, "-f", "json"]));
    assert_eq!(d["profiles"], serde_json::json!({"added": ["staging"]}));
    assert!(arr(&d, "availability_changes").is_empty(), "{d}");
    assert!(d.get("not_compared").is_none(), "{d}");
    let new = arr(&d, "new_findings");
    assert_eq!(new.len(), on_staging, "{d}");
    let md = quiet_stdout(
        bin(tmp.path()).args(["diff", prod, both, "-f", "markdown"]),
        0,
    );
    assert!(md.contains("profile <code>staging</code> added"), "{md}");
    assert!(!md.contains("absent"), "{md}");
}

/// How many findings of report `r` name profile `p`.
fn findings_naming(r: &Value, p: &str) -> usize {
    arr(r, "findings")
        .iter()
        .filter(|f| {
            let m = s(f, "message");
            m.contains(&format!("profile `{p}`"))
        })
        .count()
}

#[test]
fn a_baseline_does_not_count_what_this_run_did_not_look_at_as_fixed() {
    let (base, head) = base_and_head();
    let old = report(base.path(), "old.json");
    let old_report = json(&old);
    let old = old.to_str().unwrap();
    let run = |extra: &[&str]| -> Value {
        let mut args = vec!["-p", "prod.json", "--fail-on", "never", "--baseline", old];
        args.extend_from_slice(extra);
        args.push(".");
        json_run(head.path(), &args).0["baseline"].clone()
    };
    let rules = |list: &Value| -> Vec<String> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|f| s(f, "rule").to_owned())
            .collect()
    };
    let count = |rule: &str| findings(&old_report, rule).len();
    let all = arr(&old_report, "findings").len();

    assert!(count("SA221") == all && all > 1, "{old_report}");
    // Only SA402 is reported: the old report's unknown keys were not looked for, so b's is
    // not fixed; a's missing tool is new.
    let b = run(&["--select", "SA402"]);
    assert!(arr(&b, "fixed_findings").is_empty(), "{b}");
    assert_eq!(
        b["not_compared"],
        serde_json::json!({"rules": all, "files": 0, "profiles": 0})
    );
    assert_eq!(rules(&b["new_findings"]), ["SA402"], "{b}");
    // Ignored: the same, by the other flag.
    let b = run(&["--ignore", "SA221"]);
    assert!(arr(&b, "fixed_findings").is_empty(), "{b}");
    assert_eq!(b["not_compared"]["rules"], all, "{b}");
    // A rule still reported is judged as before: b's unknown key is fixed.
    let b = run(&["--select", "SA221"]);
    assert_eq!(rules(&b["fixed_findings"]), ["SA221"], "{b}");
    assert!(b.get("not_compared").is_none(), "{b}");

    // Excluded: `b` was not audited, so its finding is not fixed, nor is `b` removed.
    let b = run(&["--exclude", "skills/b"]);
    assert!(arr(&b, "fixed_findings").is_empty(), "{b}");
    assert_eq!(b["not_compared"]["files"], 1, "{b}");
    assert!(b.get("removed").is_none(), "{b}");
    let md = quiet_stdout(
        bin(head.path()).args([
            "-p",
            "prod.json",
            "--fail-on",
            "never",
            "--baseline",
            old,
            "--exclude",
            "skills/b",
            "-f",
            "markdown",
            ".",
        ]),
        0,
    );
    assert!(
        md.contains(", 0 fixed, 1 skill added, 1 not compared"),
        "{md}"
    );
    assert!(
        md.contains("1 finding of the old report is on a file the new run did not audit"),
        "{md}"
    );
    // A bare folder name excludes it at any depth, and the settings file's excludes count.
    let b = run(&["--exclude", "b"]);
    assert_eq!(b["not_compared"]["files"], 1, "{b}");
    write(
        head.path(),
        "skill-audit.toml",
        "exclude = [\"skills/b\"]\n",
    );
    let b = run(&[]);
    assert_eq!(b["not_compared"]["files"], 1, "{b}");
    std::fs::remove_file(head.path().join("skill-audit.toml")).unwrap();
    // Outside the paths audited: the same.
    let (r, _) = json_run(
        head.path(),
        &[
            "-p",
            "prod.json",
            "--fail-on",
            "never",
            "--baseline",
            old,
            "skills/a",
            "skills/c",
            "skills/d",
        ],
    );
    let b = &r["baseline"];
    assert!(arr(b, "fixed_findings").is_empty(), "{b}");
    assert_eq!(b["not_compared"]["files"], 1, "{b}");
}

#[test]
fn diff_of_runs_over_other_paths_compares_only_what_both_audited() {
    let (base, head) = base_and_head();
    let old = report(base.path(), "old.json");
    // The new run audits only `a`: `b`'s finding was not looked for, and `b`, `d` are not gone.
    bin(head.path())
        .args([
            "--fail-on",
            "never",
            "-p",
            "prod.json",
            "-o",
            "a.json",
            "skills/a",
        ])
        .assert()
        .success();
    let (d, _) =
        json_of(bin(head.path()).args(["diff", old.to_str().unwrap(), "a.json", "-f", "json"]));
    assert!(arr(&d, "fixed_findings").is_empty(), "{d}");
    assert!(d.get("removed").is_none(), "{d}");
    assert!(d["not_compared"]["files"].as_u64() > Some(0), "{d}");
    // A skill that is gone from the paths both audited is removed, once.
    std::fs::remove_dir_all(head.path().join("skills/b")).unwrap();
    let new = report(head.path(), "new.json");
    let (d, _) = json_of(bin(head.path()).args([
        "diff",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "-f",
        "json",
    ]));
    assert_eq!(
        d["removed"],
        serde_json::json!([{"kind": "skill", "name": "b", "path": "skills/b/SKILL.md"}])
    );
    assert!(
        arr(&d, "availability_changes")
            .iter()
            .all(|c| c["path"] != "skills/b/SKILL.md"),
        "{d}"
    );
    let text = quiet_stdout(
        bin(head.path()).args(["diff", old.to_str().unwrap(), new.to_str().unwrap()]),
        0,
    );
    assert!(
        text.contains("removed: skill b skills/b/SKILL.md\n"),
        "{text}"
    );
    assert!(
        text.contains("added: skill c skills/c/SKILL.md\n"),
        "{text}"
    );
}

#[test]
fn a_fixed_finding_is_not_marked_fixable() {
    let tmp = TempDir::new().unwrap();
    skill(tmp.path(), "a", "licence: MIT\n");
    bin(tmp.path())
        .args(["--fail-on", "never", "-o", "old.json", "."])
        .assert()
        .success();
    let old = json(&tmp.path().join("old.json"));
    assert!(
        arr(&old, "findings")
            .iter()
            .any(|f| f["fix"]["applicability"] == "safe"),
        "the old finding carries a safe fix: {old}"
    );
    skill(tmp.path(), "a", "license: MIT\n");
    bin(tmp.path())
        .args(["--fail-on", "never", "-o", "new.json", "."])
        .assert()
        .success();
    let diff = quiet_stdout(
        bin(tmp.path()).args(["diff", "old.json", "new.json", "-f", "markdown"]),
        0,
    );
    let baseline = quiet_stdout(
        bin(tmp.path()).args([
            "--fail-on",
            "never",
            "--baseline",
            "old.json",
            "-f",
            "markdown",
            ".",
        ]),
        0,
    );
    for md in [diff, baseline] {
        assert!(md.contains("Fixed findings (1)"), "{md}");
        assert!(md.contains("`SA221`"), "{md}");
        assert!(!md.contains("[*]"), "{md}");
    }
}

/// A skill and an agent that need `myext_tool`, a bare name VS Code may take from an
/// extension, audited on `builtin:vscode` (which cannot judge it: `a.json`) and on a VS Code
/// profile that lists its servers (which can, and lacks it: `b.json`).
fn judged_on_one_side_only() -> TempDir {
    let tmp = TempDir::new().unwrap();
    skill(tmp.path(), "ext", "dependencies:\n  tools: [myext_tool]\n");
    write(
        tmp.path(),
        "agents/ext.agent.md",
        "---\ndescription: Uses an extension.\ntools: [myext_tool]\n---\nUse it.\n",
    );
    write(
        tmp.path(),
        "vscode.json",
        r#"{"name": "vscode", "host": "vscode", "servers": {"s": {"tools": ["x"]}}}"#,
    );
    for (profile, out) in [("builtin:vscode", "a.json"), ("vscode.json", "b.json")] {
        bin(tmp.path())
            .args(["--fail-on", "never", "-p", profile, "-o", out, "."])
            .assert()
            .success();
    }
    tmp
}

#[test]
fn a_name_only_one_profile_could_judge_is_judged_not_removed() {
    let tmp = judged_on_one_side_only();
    let diff = |old: &str, new: &str, format: &str| {
        quiet_stdout(bin(tmp.path()).args(["diff", old, new, "-f", format]), 0)
    };
    let text = diff("a.json", "b.json", "text");
    for line in [
        "agent agents/ext.agent.md on vscode: not-judged -> unavailable (tool `myext_tool` now judged and missing)",
        "skill skills/ext/SKILL.md on vscode: not-judged -> unavailable (tool `myext_tool` now judged and missing)",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
    let back = diff("b.json", "a.json", "text");
    assert!(
        back.contains("skill skills/ext/SKILL.md on vscode: unavailable -> not-judged (tool `myext_tool` no longer judged)"),
        "{back}"
    );
    assert!(!back.contains("added"), "{back}");
    let (d, _) = json_of(bin(tmp.path()).args(["diff", "a.json", "b.json", "-f", "json"]));
    for c in arr(&d, "availability_changes") {
        assert_eq!(
            c["causes"],
            serde_json::json!([{"change": "judged", "kind": "tool", "name": "myext_tool"}]),
            "{c}"
        );
    }
    // An entry not known to miss anything is made unavailable as an available one is.
    let md = diff("a.json", "b.json", "markdown");
    assert!(
        md.contains("⚠️ This change: makes 2 entries unavailable on <code>vscode</code>"),
        "{md}"
    );
    let md = diff("b.json", "a.json", "markdown");
    assert!(md.contains("This change: 1 new finding, 2 fixed\n"), "{md}");
}

#[test]
fn the_legend_says_what_makes_an_agent_not_judged() {
    let tmp = judged_on_one_side_only();
    let md = quiet_stdout(
        bin(tmp.path()).args([
            "--fail-on",
            "never",
            "-p",
            "builtin:vscode",
            "-f",
            "markdown",
            ".",
        ]),
        0,
    );
    assert!(md.contains("| <code>ext</code> | ❔ not judged |"), "{md}");
    assert!(
        md.contains("❔ not judged: the profile can judge none of what it needs: kinds it does not describe (executables, variables, packages on a host profile; tools on a machine profile) or tools an extension or an MCP server it does not list may provide · "),
        "{md}"
    );
}

#[test]
fn names_with_backticks_stay_one_code_span() {
    let tmp = TempDir::new().unwrap();
    skill(
        tmp.path(),
        "tick",
        "dependencies:\n  tools: [\"tick`tick\", plain]\n",
    );
    write(
        tmp.path(),
        "p.json",
        r#"{"name": "p<&>`", "tools": ["other"]}"#,
    );
    let run = |format: &str| {
        quiet_stdout(
            bin(tmp.path()).args(["--fail-on", "never", "-p", "p.json", "-f", format, "."]),
            0,
        )
    };
    let text = run("text");
    assert!(
        text.contains("p<&>`: missing tools `` tick`tick ``, `plain`"),
        "{text}"
    );
    let md = run("markdown");
    assert!(
        md.contains("missing tools <code>tick&#96;tick</code>, <code>plain</code> |"),
        "{md}"
    );
    let html = run("html");
    assert!(
        html.contains(
            "<p class=\"reason\">missing tools <code>tick`tick</code>, <code>plain</code></p>"
        ),
        "{html}"
    );
    // A profile's name with a backtick, quoted by a comparison.
    bin(tmp.path())
        .args(["--fail-on", "never", "-p", "p.json", "-o", "new.json", "."])
        .assert()
        .success();
    write(
        tmp.path(),
        "p.json",
        r#"{"name": "p<&>`", "tools": ["tick`tick", "plain"]}"#,
    );
    bin(tmp.path())
        .args(["--fail-on", "never", "-p", "p.json", "-o", "old.json", "."])
        .assert()
        .success();
    let md = quiet_stdout(
        bin(tmp.path()).args(["diff", "old.json", "new.json", "-f", "markdown"]),
        0,
    );
    assert!(
        md.contains("makes 1 entry unavailable on <code>p&lt;&amp;&gt;&#96;</code>, "),
        "{md}"
    );
    assert!(
        md.contains("| tool <code>tick&#96;tick</code> removed; tool <code>plain</code> removed |"),
        "{md}"
    );
    let text = quiet_stdout(bin(tmp.path()).args(["diff", "old.json", "new.json"]), 0);
    assert!(
        text.contains("(tool `` tick`tick `` removed; tool `plain` removed)"),
        "{text}"
    );
}

#[test]
fn folder_names_and_paths_with_backticks_stay_one_code_span_in_findings() {
    let tmp = TempDir::new().unwrap();
    let root = tmp.path();
    // A folder and a `name` with a backtick each (SA206, SA207), and two skills of one name
    // in such folders, which quote each other's paths (SA401).
    write(
        root,
        "skills/a`b/SKILL.md",
        "---\nname: \"c`d\"\ndescription: Does c things.\n---\n# c\n",
    );
    for i in 1..=2 {
        write(
            root,
            &format!("skills/x`{i}/SKILL.md"),
            format!("---\nname: dup\ndescription: Does dup things.\n---\n# dup {i}\n"),
        );
    }
    let run = |format: &str| {
        quiet_stdout(
            bin(root).args(["--fail-on", "never", "--color", "never", "-f", format, "."]),
            0,
        )
    };
    let md = run("markdown");
    for row in [
        "| <code>name</code> contains <code>'&#96;'</code>; only <code>a-z</code>, <code>0-9</code> and <code>-</code> are allowed; use <code>c-d</code> |",
        "| <code>name</code> is <code>c&#96;d</code> but the folder is <code>a&#96;b</code>; the spec requires them to match (its validator rejects the skill, VS Code warns): rename one |",
        "| <code>name</code> is <code>dup</code> but the folder is <code>x&#96;1</code>; the spec requires",
        "| skill name <code>dup</code> is also used by <code>skills/x&#96;2/SKILL.md</code> outside any plugin; hosts load only one of them, rename one |",
        "| skill name <code>dup</code> is also used by <code>skills/x&#96;1/SKILL.md</code> outside any plugin;",
    ] {
        assert!(md.contains(row), "{row}\n{md}");
    }
    let text = run("text");
    for line in [
        "error[SA206]: `name` contains `` '`' ``; only `a-z`, `0-9` and `-` are allowed; use `c-d`",
        "error[SA207]: `name` is `` c`d `` but the folder is `` a`b ``; the spec",
        "warning[SA401]: skill name `dup` is also used by `` skills/x`2/SKILL.md `` outside any plugin;",
    ] {
        assert!(text.contains(line), "{line}\n{text}");
    }
}

/// A library of one skill that needs `n` tools the profile lacks.
fn needing_many_tools(n: usize) -> TempDir {
    let tmp = TempDir::new().unwrap();
    let tools: Vec<String> = (0..n).map(|i| format!("tool_{i:04}")).collect();
    skill(
        tmp.path(),
        "many",
        &format!("dependencies:\n  tools: [{}]\n", tools.join(", ")),
    );
    write(tmp.path(), "prod.json", PROFILE);
    tmp
}

#[test]
fn a_long_list_in_a_cell_is_cut_not_the_row() {
    let tmp = needing_many_tools(2000);
    let run = |format: &str| {
        quiet_stdout(
            bin(tmp.path()).args(["--fail-on", "never", "-p", "prod.json", "-f", format, "."]),
            0,
        )
    };
    let md = run("markdown");
    let row = md
        .lines()
        .find(|l| l.starts_with("| <code>many</code> |"))
        .unwrap_or_else(|| panic!("the row is shown: {md}"));
    assert!(
        row.contains("<code>tool&#95;0009</code> and 1,990 more |"),
        "{row}"
    );
    assert!(!row.contains("tool&#95;0010"), "{row}");
    assert!(!md.contains("left out to fit a comment"), "{md}");
    // The finding says the same, in as few names.
    assert!(
        md.contains("missing tools <code>tool&#95;0000</code>, ")
            && md.contains(" and 1,990 more |"),
        "{md}"
    );
    let html = run("html");
    let reason = html
        .split("<p class=\"reason\">")
        .nth(1)
        .and_then(|r| r.split("</p>").next())
        .expect("a reason");
    assert!(
        reason.ends_with("<code>tool_0009</code> and 1,990 more"),
        "{reason}"
    );
    assert!(reason.len() < 1_000, "{reason}");
    // The findings of the page, and the JSON, keep every name.
    assert!(html.contains("<code>tool_1999</code>"));
    let (r, _) = json_run(tmp.path(), &["--fail-on", "never", "-p", "prod.json", "."]);
    assert_eq!(
        crate::common::skill(&r, "skills/many/SKILL.md")["availability"]["prod"]["missing"]
            .as_array()
            .map(Vec::len),
        Some(2000)
    );
}

#[test]
fn a_row_too_long_for_a_comment_is_not_one_more() {
    // One name longer than a comment: no cut of a list can save the row.
    let tmp = TempDir::new().unwrap();
    let long = "x".repeat(70_000);
    skill(
        tmp.path(),
        "huge",
        &format!("dependencies:\n  tools: [{long}]\n"),
    );
    write(tmp.path(), "prod.json", PROFILE);
    let md = quiet_stdout(
        bin(tmp.path()).args([
            "--fail-on",
            "never",
            "-p",
            "prod.json",
            "-f",
            "markdown",
            ".",
        ]),
        0,
    );
    assert!(
        md.contains("_1 skill row left out to fit a comment (worst cell: 1 ❌ unavailable)._"),
        "{md}"
    );
    assert!(
        md.contains(
            "_Left out to fit a comment: 1 warning. The JSON or HTML report has everything._"
        ),
        "{md}"
    );
}

/// `-` is standard input for a report, as `-o -` is standard output: either side of `diff`,
/// `--baseline`, one input of `merge`. It is read once, so twice is refused.
#[test]
fn a_report_is_read_from_standard_input_for_a_dash() {
    let (base, head) = base_and_head();
    let old = report(base.path(), "old.json");
    let old_text = std::fs::read(&old).unwrap();
    let new = report(head.path(), "new.json");
    let named = quiet_stdout(
        bin(head.path())
            .args(["diff", "-f", "json"])
            .arg(&old)
            .arg("new.json"),
        0,
    );
    for args in [["-", "new.json"], ["new.json", "-"]] {
        let stdin = if args[0] == "-" {
            old_text.clone()
        } else {
            std::fs::read(&new).unwrap()
        };
        let (a, b) = (args[0], args[1]);
        let piped = quiet_stdout(
            bin(head.path())
                .args(["diff", "-f", "json", a, b])
                .write_stdin(stdin),
            0,
        );
        if a == "-" {
            assert_eq!(piped, named);
        } else {
            assert!(piped.contains("\"new_findings\""), "{piped}");
        }
    }
    let err = stderr_of(
        bin(head.path())
            .args(["diff", "-", "-"])
            .write_stdin(old_text.clone()),
        2,
    );
    assert!(err.contains("standard input holds one file"), "{err}");
    // A device on standard input is refused, as a device path is, not read until the cap.
    #[cfg(unix)]
    {
        let zero = std::fs::File::open("/dev/zero").unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_skill-audit"))
            .current_dir(head.path())
            .args(["diff", "-", "new.json"])
            .stdin(zero)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("standard input: cannot read: it is a device"),
            "{err}"
        );
    }
    // Errors name standard input, not `-`.
    let err = stderr_of(
        bin(head.path())
            .args(["diff", "-", "new.json"])
            .write_stdin("{\"schema_version\": 99}"),
        2,
    );
    assert!(err.contains("error: standard input:1:"), "{err}");
    let err = stderr_of(
        bin(head.path())
            .args(["diff", "-", "new.json"])
            .write_stdin(""),
        2,
    );
    assert!(
        err.contains("standard input: cannot read: it is empty"),
        "{err}"
    );
    // --baseline - gates as --baseline FILE does.
    let gated = |baseline: &str, stdin: Vec<u8>| {
        let out = bin(head.path())
            .args(["-p", "prod.json", "-f", "json", "--baseline", baseline, "."])
            .write_stdin(stdin)
            .output()
            .unwrap();
        let mut r: Value = serde_json::from_slice(&out.stdout).unwrap();
        r["tool"] = Value::Null;
        (out.status.code(), r["baseline"].clone())
    };
    assert_eq!(
        gated("-", old_text.clone()),
        gated(old.to_str().unwrap(), Vec::new())
    );
    // merge: one input from standard input, with the prefix `stdin`.
    let merged = quiet_stdout(
        bin(head.path())
            .args(["merge", "-f", "json", "-", "new.json"])
            .write_stdin(old_text.clone()),
        0,
    );
    let merged: Value = serde_json::from_str(&merged).unwrap();
    assert!(
        arr(&merged, "skills")
            .iter()
            .any(|k| k["path"] == "stdin/skills/a/SKILL.md"),
        "{merged}"
    );
    let err = stderr_of(
        bin(head.path())
            .args(["merge", "-", "-"])
            .write_stdin(old_text),
        2,
    );
    assert!(
        err.contains("standard input (`-`) holds one report"),
        "{err}"
    );
}

/// A root given twice (`lib`, `./lib/`) is audited and listed once, in the order first given;
/// the findings are those of the roots given once.
#[test]
fn a_root_given_twice_is_listed_once() {
    let tmp = TempDir::new().unwrap();
    skill(tmp.path(), "a", "colour: red\n");
    skill(&tmp.path().join("other"), "b", "colour: red\n");
    let (once, _) = json_run(tmp.path(), &["--fail-on", "never", "skills", "other"]);
    let (twice, _) = json_run(
        tmp.path(),
        &[
            "--fail-on",
            "never",
            "skills",
            "other",
            "./skills/",
            "skills/a/..",
            "other",
        ],
    );
    assert_eq!(strings(&twice["roots"]), ["skills", "other"]);
    assert_eq!(twice["findings"], once["findings"]);
    assert_eq!(twice["summary"], once["summary"]);
}

/// The PR comment's mark says whether the run fails by `--fail-on`: ❌ then, ⚠️ when it
/// passes with something to look at, with or without a baseline.
#[test]
fn the_pr_comment_is_marked_failed_when_the_run_fails() {
    let (base, head) = base_and_head();
    let old = report(base.path(), "old.json");
    let old = old.to_str().unwrap();
    let verdict = |args: &[&str], code: i32| -> String {
        let md = stdout_of(
            bin(head.path())
                .args(["-p", "prod.json", "-f", "markdown"])
                .args(args)
                .arg("."),
            code,
        );
        md.lines().nth(3).unwrap_or_default().to_owned()
    };
    // New warnings: they fail the run only with --fail-on warning.
    let passes = verdict(&["--baseline", old], 0);
    assert!(passes.starts_with("⚠️ This change:"), "{passes}");
    let fails = verdict(&["--baseline", old, "--fail-on", "warning"], 1);
    assert!(fails.starts_with("❌ This change:"), "{fails}");
    let zero = verdict(
        &["--baseline", old, "--fail-on", "warning", "--exit-zero"],
        0,
    );
    assert!(zero.starts_with("⚠️ This change:"), "{zero}");
    // Without a baseline, the same.
    let passes = verdict(&[], 0);
    assert!(passes.starts_with("⚠️ **"), "{passes}");
    let fails = verdict(&["--fail-on", "warning"], 1);
    assert!(fails.starts_with("❌ **"), "{fails}");
    // A run that fails for finding nothing says so too.
    let empty = TempDir::new().unwrap();
    let out = (bin(empty.path()).args(["-f", "markdown", "--fail-on-empty", "."]))
        .output()
        .unwrap();
    let md = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(md.contains("\n❌ **0 skills**"), "{md}");
    // `diff` fails nothing.
    report(head.path(), "new.json");
    let md = quiet_stdout(
        bin(head.path()).args(["diff", "-f", "markdown", old, "new.json"]),
        0,
    );
    assert!(md.contains("\n⚠️ This change:"), "{md}");
}
