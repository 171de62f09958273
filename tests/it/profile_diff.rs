//! `skill-audit diff` on two profiles: the tools, resources and prompts added and removed, per
//! server, in every diff format; built-in and file profiles, saved `tools/list` results, and
//! what happens when a report meets a profile.
//!
//! The snapshots compare the example profiles `prod` and `dev`, run from the repository root
//! so the paths are stable. Update with `INSTA_UPDATE=always cargo test --test it profile_diff::`
//! and read the diff.

use crate::common::*;

use std::path::Path;

use serde_json::{Value, json};

/// `skill-audit diff OLD NEW [ARGS]` in `cwd`: standard output, checked to exit 0 with nothing
/// on standard error.
fn diff(cwd: &Path, old: &str, new: &str, args: &[&str]) -> String {
    let out = bin(cwd)
        .args(["diff", old, new])
        .args(args)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "{stderr}");
    String::from_utf8(out.stdout).unwrap()
}

fn diff_json(cwd: &Path, old: &str, new: &str) -> Value {
    serde_json::from_str(&diff(cwd, old, new, &["-f", "json"])).expect("JSON")
}

/// The group of `d` for `server` (`None`: names without a server).
fn group<'a>(d: &'a Value, server: Option<&str>) -> &'a Value {
    let want = server.map_or(Value::Null, Value::from);
    arr(d, "servers")
        .iter()
        .find(|g| g["server"] == want)
        .unwrap_or_else(|| panic!("no group {server:?} in {d}"))
}

const PROD: &str = "examples/profiles/prod.json";
const STAGING: &str = "examples/profiles/staging.json";

#[test]
fn text_diff_of_the_example_profiles() {
    insta::assert_snapshot!("text", diff(Path::new(MANIFEST_DIR), PROD, STAGING, &[]));
}

#[test]
fn json_diff_of_the_example_profiles() {
    let d = diff_json(Path::new(MANIFEST_DIR), PROD, STAGING);
    assert_eq!(
        d["old"],
        json!({"name": "prod", "path": PROD, "host": "vscode"})
    );
    assert_eq!(
        group(&d, Some("kusto"))["tools"]["removed"],
        json!(["kusto/list_tables", "kusto/run_query"])
    );
    insta::assert_json_snapshot!("json", d);
}

#[test]
fn markdown_diff_of_the_example_profiles() {
    let md = diff(Path::new(MANIFEST_DIR), PROD, STAGING, &["-f", "markdown"]);
    assert!(
        !md.contains("<!-- skill-audit-report -->"),
        "not the report comment a bot replaces"
    );
    insta::assert_snapshot!("markdown", md);
}

#[test]
fn a_builtin_profile_against_a_file() {
    let builtin: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(MANIFEST_DIR).join("profiles/builtin/claude-code.json"))
            .unwrap(),
    )
    .unwrap();
    // The same host, one tool fewer and one more: a profile naming its host has the host's
    // tools, so the copy takes one away with `deny`.
    let mut edited = builtin.clone();
    edited["tools"]
        .as_array_mut()
        .unwrap()
        .push("Frobnicate".into());
    edited["deny"] = json!(["WebFetch"]);
    let tmp = tree(&[("claude-code.json", &edited.to_string())]);
    let d = diff_json(tmp.path(), "builtin:claude-code", "claude-code.json");
    assert_eq!(d["old"]["path"], "builtin:claude-code");
    assert_eq!(d["old"]["host"], "claude-code");
    assert_eq!(arr(&d, "servers").len(), 1, "{d}");
    let host = group(&d, None);
    assert_eq!(host["host"], "claude-code", "a host's names are the host's");
    assert_eq!(
        host["tools"],
        json!({"added": ["Frobnicate"], "removed": ["WebFetch"]})
    );
    assert_eq!(
        (d["added"].as_u64(), d["removed"].as_u64()),
        (Some(1), Some(1))
    );
    let text = diff(tmp.path(), "claude-code.json", "builtin:claude-code", &[]);
    assert!(
        text.contains("host claude-code:\n  removed tool Frobnicate\n  added tool WebFetch\n"),
        "{text}"
    );
    // A built-in that does not exist is an error naming the known ones.
    bin(tmp.path())
        .args(["diff", "builtin:nope", "claude-code.json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("builtin:claude-code"));
}

#[test]
fn a_saved_tools_list_equals_the_native_profile_it_lists() {
    let tmp = tree(&[
        (
            "raw.json",
            r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [
                {"name": "mcp__github__get_issue", "inputSchema": {"type": "object"}},
                {"name": "get_order", "description": "x"}
            ], "nextCursor": null}}"#,
        ),
        (
            "native.json",
            r#"{"name": "raw", "tools": ["get_order"], "servers": {"github": {"tools": ["get_issue"]}}}"#,
        ),
        (
            "bare.json",
            r#"{"tools": [{"name": "github:get_issue"}, {"name": "refund"}]}"#,
        ),
    ]);
    let text = diff(tmp.path(), "raw.json", "native.json", &[]);
    assert!(
        text.contains("no change"),
        "spellings of one tool are one name: {text}"
    );
    let d = diff_json(tmp.path(), "native.json", "bare.json");
    assert_eq!(d["new"]["name"], "bare", "named after the file");
    assert_eq!(
        group(&d, None)["tools"],
        json!({"added": ["refund"], "removed": ["get_order"]})
    );
    assert!(
        !arr(&d, "servers").iter().any(|g| g["server"] == "github"),
        "github/get_issue is in both: {d}"
    );
}

#[test]
fn resources_and_prompts_added_and_removed() {
    let tmp = tree(&[
        (
            "old.json",
            r#"{"name": "prod", "resources": ["docs://a", {"uri": "docs://b"}], "prompts": ["summarize"],
                "servers": {"kb": {"resources": ["kb://x"], "prompts": [{"name": "triage"}]}}}"#,
        ),
        (
            "new.json",
            r#"{"name": "prod", "resources": [{"uri": "docs://b"}, "docs://c"], "prompts": ["summarize", "review"],
                "servers": {"kb": {"resources": ["kb://x"]}}}"#,
        ),
    ]);
    let d = diff_json(tmp.path(), "old.json", "new.json");
    let top = group(&d, None);
    assert_eq!(
        top["resources"],
        json!({"added": ["docs://c"], "removed": ["docs://a"]})
    );
    // A server's prompts and resources are listed without it, so they count as top level.
    assert_eq!(
        top["prompts"],
        json!({"added": ["review"], "removed": ["triage"]})
    );
    assert_eq!(top["tools"], json!({"added": [], "removed": []}));
    assert_eq!(
        (d["added"].as_u64(), d["removed"].as_u64()),
        (Some(2), Some(2))
    );
    let md = diff(tmp.path(), "old.json", "new.json", &["-f", "markdown"]);
    assert!(
        md.contains("removes 1 resource, 1 prompt; adds 1 resource, 1 prompt"),
        "{md}"
    );
    assert!(
        md.contains("| no server | prompt | <code>triage</code> |"),
        "{md}"
    );
}

#[test]
fn identical_profiles_say_there_is_no_change() {
    let root = Path::new(MANIFEST_DIR);
    let text = diff(root, PROD, PROD, &[]);
    assert_eq!(
        text,
        format!(
            "profile prod ({PROD}) -> prod ({PROD})\nno change: both profiles offer the same tools, resources and prompts\n"
        )
    );
    let d = diff_json(root, "builtin:vscode", "builtin:vscode");
    assert_eq!(d["servers"], json!([]));
    assert_eq!(
        (d["added"].as_u64(), d["removed"].as_u64()),
        (Some(0), Some(0))
    );
    let md = diff(root, PROD, PROD, &["-f", "markdown"]);
    assert!(md.contains("✅ No change"), "{md}");
    assert!(!md.contains("###"), "no empty sections: {md}");
}

#[test]
fn a_report_and_a_profile_are_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "prod.json",
        r#"{"name": "prod", "tools": ["a"]}"#,
    );
    write(
        tmp.path(),
        "skills/s/SKILL.md",
        skill_md("s", "dependencies:\n  tools: [a]\n"),
    );
    bin(tmp.path())
        .args(["-p", "prod.json", "-o", "report.json", "skills"])
        .assert()
        .success();
    for (old, new) in [
        ("report.json", "prod.json"),
        ("prod.json", "report.json"),
        ("builtin:vscode", "report.json"),
    ] {
        let out = bin(tmp.path()).args(["diff", old, new]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{old} {new}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("cannot compare a"), "{err}");
        assert!(out.stdout.is_empty());
    }
    // A live server is not read by diff: it says how to save one first.
    bin(tmp.path())
        .args(["diff", "mcp:x=server", "prod.json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("skill-audit capture"));
    // A profile that cannot be read says where.
    write(tmp.path(), "broken.json", "{\n  \"tools\": [1]\n}");
    bin(tmp.path())
        .args(["diff", "prod.json", "broken.json"])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("broken.json:2:"));
}

/// Two machine profiles: an executable and a package dropped, `bins` no longer described,
/// `env` newly described, an OS and a package added, one package at another version.
const OLD_MACHINE: &str = r#"{"name": "laptop", "tools": ["get_order"], "os": "darwin",
    "bins": ["git", "jq"], "config": ["browser.enabled"],
    "packages": {"requests": "2.32.3", "torch": "2.3.0", "pypdf": "5.1.0"}}"#;
const NEW_MACHINE: &str = r#"{"name": "laptop", "tools": ["get_order"], "os": ["darwin", "linux"],
    "env": ["GITHUB_TOKEN"], "config": ["browser.enabled"],
    "packages": {"Requests": "2.32.3", "torch": "2.4.0", "numpy": "2.1.0"}}"#;

#[test]
fn machine_keys_added_removed_and_versions_changed() {
    let tmp = tree(&[("old.json", OLD_MACHINE), ("new.json", NEW_MACHINE)]);
    let d = diff_json(tmp.path(), "old.json", "new.json");
    assert_eq!(d["servers"], json!([]), "the same tools");
    assert_eq!(
        (d["added"].as_u64(), d["removed"].as_u64()),
        (Some(0), Some(0)),
        "machine names are counted apart"
    );
    assert_eq!(
        d["machine"],
        json!({
            "added": 3, "removed": 3, "changed": 1,
            "kinds": [
                {"kind": "bins", "described": {"old": true, "new": false},
                 "added": [], "removed": ["git", "jq"], "changed": []},
                {"kind": "env", "described": {"old": false, "new": true},
                 "added": ["GITHUB_TOKEN"], "removed": [], "changed": []},
                {"kind": "os", "described": {"old": true, "new": true},
                 "added": ["linux"], "removed": [], "changed": []},
                // `Requests` is `requests`, at the same version: no change.
                {"kind": "packages", "described": {"old": true, "new": true},
                 "added": ["numpy"], "removed": ["pypdf"],
                 "changed": [{"name": "torch", "old": "2.3.0", "new": "2.4.0"}]}
            ]
        })
    );
    assert_eq!(
        diff(tmp.path(), "old.json", "new.json", &[]),
        "profile laptop (old.json) -> laptop (new.json)
machine:
  `bins` is no longer described: executables are not judged
  removed executable git
  removed executable jq
  `env` is now described: environment variables are judged
  added environment variable GITHUB_TOKEN
  added OS linux
  removed package pypdf
  added package numpy
  changed package torch 2.3.0 -> 2.4.0
0 added, 0 removed; machine: 3 added, 3 removed, 1 version changed
"
    );
    let md = diff(tmp.path(), "old.json", "new.json", &["-f", "markdown"]);
    insta::assert_snapshot!("machine_markdown", md);
    // The other way round, the description changes turn around.
    let back = diff(tmp.path(), "new.json", "old.json", &[]);
    assert!(
        back.contains(
            "  `bins` is now described: executables are judged\n  added executable git\n"
        ),
        "{back}"
    );
    assert!(
        back.contains("  changed package torch 2.4.0 -> 2.3.0\n"),
        "{back}"
    );
}

#[test]
fn identical_machines_are_no_change() {
    let tmp = tree(&[("a.json", OLD_MACHINE), ("b.json", OLD_MACHINE)]);
    let text = diff(tmp.path(), "a.json", "b.json", &[]);
    assert!(
        text.ends_with("\nno change: both profiles offer the same tools, resources and prompts\n"),
        "{text}"
    );
    let d = diff_json(tmp.path(), "a.json", "b.json");
    assert_eq!(
        d["machine"],
        json!({"added": 0, "removed": 0, "changed": 0, "kinds": []})
    );
    // A machine change alone is a change.
    let tmp = tree(&[
        ("a.json", r#"{"tools": ["x"], "bins": []}"#),
        ("b.json", r#"{"tools": ["x"]}"#),
    ]);
    let text = diff(tmp.path(), "a.json", "b.json", &[]);
    assert!(
        text.ends_with(
            "machine:\n  `bins` is no longer described: executables are not judged\n0 added, 0 removed; machine: 0 added, 0 removed, 0 versions changed\n"
        ),
        "{text}"
    );
    let md = diff(tmp.path(), "a.json", "b.json", &["-f", "markdown"]);
    assert!(
        md.contains("⚠️ The new profile no longer describes <code>bins</code>"),
        "{md}"
    );
}

#[test]
fn sarif_logs_and_other_json_are_not_read_as_empty_profiles() {
    let sarif = r#"{"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": []}"#;
    let tmp = tree(&[
        ("old.sarif", sarif),
        ("new.sarif", sarif),
        ("typo.json", "{\"tols\": [\"a\"]}"),
    ]);
    let err = stderr_of(bin(tmp.path()).args(["diff", "old.sarif", "new.sarif"]), 2);
    assert!(
        err.contains("old.sarif:1:") && err.contains("this is a SARIF log, not a profile"),
        "{err}"
    );
    let err = stderr_of(bin(tmp.path()).args(["-p", "typo.json", "."]), 2);
    assert!(
        err.contains("typo.json:1:") && err.contains("did you mean `tools`?"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn a_device_or_a_fifo_is_refused_not_read() {
    let tmp = tree(&[("a.json", "{}")]);
    let fifo = tmp.path().join("pipe.json");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let err = stderr_of(bin(tmp.path()).args(["diff", "pipe.json", "a.json"]), 2);
    assert!(
        err.contains("pipe.json: cannot read: it is a FIFO"),
        "{err}"
    );
    let err = stderr_of(bin(tmp.path()).args(["--baseline", "/dev/zero", "."]), 2);
    assert!(
        err.contains("/dev/zero: cannot read: it is a device"),
        "{err}"
    );
}
