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
    let c = changes
        .iter()
        .find(|c| c["path"] == "skills/c/SKILL.md")
        .expect("c is new");
    assert_eq!(c["from"], "absent");
    assert!(
        c.get("causes").is_none(),
        "nothing to compare a new entry with"
    );

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
