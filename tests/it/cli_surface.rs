//! The command-line surface around the audit: `schema`, `completions`, `man`, `explain`, the
//! pointers to the documentation in `--help`, and the `--quiet` and `--verbose` flags.

use std::path::Path;

use serde_json::Value;

use crate::common::{MANIFEST_DIR, bin};

fn stdout_of(args: &[&str]) -> String {
    crate::common::stdout_of(bin(MANIFEST_DIR).args(args), 0)
}

/// `explain` over the example library with two profiles.
fn explain(path: &str) -> std::process::Output {
    bin(MANIFEST_DIR)
        .args(["explain", path, "--root", "examples/library"])
        .args(["-p", "examples/profiles/prod.json"])
        .args(["-p", "examples/profiles/staging.json"])
        .output()
        .unwrap()
}

/// `explain path`, which must succeed: its standard output.
fn explained(path: &str) -> String {
    let out = explain(path);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn schema_command_prints_the_committed_schemas() {
    for kind in ["profile", "config", "report"] {
        let printed = stdout_of(&["schema", kind]);
        let file = Path::new(MANIFEST_DIR).join(format!("schemas/{kind}.schema.json"));
        let committed = std::fs::read_to_string(&file)
            .unwrap()
            .replace("\r\n", "\n");
        assert_eq!(printed, committed, "`schema {kind}` differs from {file:?}");
        let schema: Value = serde_json::from_str(&printed).unwrap();
        assert!(
            schema["$schema"]
                .as_str()
                .is_some_and(|s| s.starts_with("https://json-schema.org/")),
            "{kind}: no $schema"
        );
        assert_eq!(schema["type"], "object", "{kind}");
        assert!(
            jsonschema::meta::is_valid(&schema),
            "{kind}: not a valid JSON Schema"
        );
    }
}

#[test]
fn schema_command_rejects_unknown_kinds() {
    bin(MANIFEST_DIR).args(["schema", "nope"]).assert().code(2);
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let script = stdout_of(&["completions", shell]);
        assert!(script.contains("skill-audit"), "{shell}");
        // Subcommands are completed too.
        assert!(script.contains("explain"), "{shell}: no `explain`");
    }
}

#[test]
fn man_page_is_roff() {
    let page = stdout_of(&["man"]);
    assert!(page.starts_with('.'), "not roff: {}", &page[..40]);
    let header = page
        .lines()
        .find(|l| l.starts_with(".TH"))
        .expect("no .TH header");
    assert!(header.contains("skill-audit"), "{header}");
    assert!(page.contains(".SH NAME"));
    assert!(page.contains("explain"));
    // One page: no command is sent to a page of its own.
    assert!(!page.contains("(1)"), "{page}");
    assert!(page.contains("\nskill\\-audit to\\-prompt\n"), "{page}");
    assert!(page.contains("\\fBskill\\-audit help\\fR \\fICOMMAND\\fR"));
}

/// `--help` names every page of `docs/` (paths from the repository root), and only pages that
/// exist; `-h` points at them.
#[test]
fn help_names_every_docs_page() {
    let long = stdout_of(&["--help"]);
    let mut pages: Vec<String> = std::fs::read_dir(Path::new(MANIFEST_DIR).join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".md"))
        .collect();
    pages.sort();
    assert!(pages.len() >= 11, "{pages:?}");
    let named: Vec<&str> = long
        .split_whitespace()
        .filter(|w| w.starts_with("docs/") && w.ends_with(".md"))
        .collect();
    for page in &pages {
        let path = format!("docs/{page}");
        assert!(
            named.contains(&path.as_str()),
            "--help does not name {path}:\n{long}"
        );
    }
    for path in &named {
        assert!(Path::new(MANIFEST_DIR).join(path).is_file(), "{path}");
    }
    let short = stdout_of(&["-h"]);
    assert!(short.contains("docs/usage.md"), "{short}");
    assert!(short.contains("--help"), "{short}");
}

#[test]
fn explain_a_skill() {
    let text = explained("examples/library/skills/refund-workflow/SKILL.md");
    assert!(
        text.starts_with(
            "skill `refund-workflow` (examples/library/skills/refund-workflow/SKILL.md)\n"
        ),
        "{text}"
    );
    // The report entry, as JSON.
    assert!(text.contains("\"name\": \"refund-workflow\""), "{text}");
    assert!(text.contains("\"declared_by\": \"dependencies\""), "{text}");
    // Availability per profile, with what it is judged on and the reason.
    assert!(
        text.contains("\n  prod     available (judged on declared needs)\n"),
        "{text}"
    );
    assert!(
        text.contains(
            "\n  staging  unavailable (judged on declared needs): missing tool `get_check_details`\n"
        ),
        "{text}"
    );
    // The agents that load it, and the drift.
    assert!(
        text.contains("examples/library/plugins/payments/agents/chargebacks.md via skills-field"),
        "{text}"
    );
    assert!(
        text.contains("drift: missing tool `get_check_details`"),
        "{text}"
    );
    // Its findings.
    assert!(
        text.contains("examples/library/skills/refund-workflow/SKILL.md:8:1: warning[SA402] skill unavailable on profile `staging`"),
        "{text}"
    );
}

#[test]
fn explain_a_skill_by_its_folder() {
    let text = explained("examples/library/skills/refund-workflow");
    assert!(text.starts_with("skill `refund-workflow` "), "{text}");
}

#[test]
fn explain_lists_profiles_in_the_order_given() {
    let out = bin(MANIFEST_DIR)
        .args(["explain", "examples/library/skills/refund-workflow"])
        .args(["--root", "examples/library"])
        .args(["-p", "examples/profiles/staging.json"])
        .args(["-p", "examples/profiles/prod.json"])
        .args(["-p", "builtin:claude-code"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let section = text.split("\nAvailability\n").nth(1).unwrap();
    let order: Vec<&str> = section
        .lines()
        .take(3)
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(order, ["staging", "prod", "claude-code"], "{text}");
}

#[test]
fn explain_an_agent() {
    let text = explained("examples/library/agents/analyst.agent.md");
    assert!(
        text.starts_with("agent `analyst` (examples/library/agents/analyst.agent.md)\n"),
        "{text}"
    );
    assert!(text.contains("Links (skills this agent loads)"), "{text}");
    assert!(
        text.contains(
            "  kusto-query (examples/library/skills/kusto-query/SKILL.md) via plugin:ops\n    drift: missing tool `runCommand`; MCP server `kusto`\n"
        ),
        "{text}"
    );
    // VS Code (prod) provides `read`, `search` and the terminal itself.
    assert!(text.contains("\n  prod     available\n"), "{text}");
    assert!(text.contains("warning[SA603]"), "{text}");
}

#[test]
fn explain_rejects_what_is_neither_skill_nor_agent() {
    for path in ["README.md", "examples/profiles/prod.json", "no/such/file"] {
        let out = explain(path);
        assert_eq!(out.status.code(), Some(2), "{path}");
        assert!(out.stdout.is_empty(), "{path}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(path), "{path}: {err}");
    }
}

/// The audit of the example library, as text, with extra flags.
fn audit(extra: &[&str]) -> std::process::Output {
    bin(MANIFEST_DIR)
        .args(["--fail-on", "never", "-p", "examples/profiles/prod.json"])
        .args(extra)
        .arg("examples/library")
        .output()
        .unwrap()
}

#[test]
fn quiet_prints_only_findings() {
    let full = String::from_utf8(audit(&[]).stdout).unwrap();
    assert!(full.contains(" files scanned, "), "{full}");
    let out = audit(&["--quiet"]);
    assert!(out.status.success());
    assert!(out.stderr.is_empty());
    let quiet = String::from_utf8(out.stdout).unwrap();
    assert!(!quiet.contains("files scanned"), "{quiet}");
    assert!(!quiet.contains("SKILL "), "{quiet}");
    assert!(!quiet.contains("DRIFT"), "{quiet}");
    assert!(quiet.contains("[SA104]"), "{quiet}");
    // The findings are the same as in the full output, which starts with them.
    assert!(full.starts_with(&quiet), "{quiet}");
    // Other formats are unchanged.
    let json = |extra: &[&str]| {
        let mut args = vec!["--format", "json"];
        args.extend_from_slice(extra);
        audit(&args).stdout
    };
    assert_eq!(json(&[]), json(&["-q"]));
    // Text files get only the findings too; other files are whole.
    let dir = tempfile::tempdir().unwrap();
    let (txt, js) = (dir.path().join("r.txt"), dir.path().join("r.json"));
    let out = audit(&[
        "-q",
        "-o",
        txt.to_str().unwrap(),
        "-o",
        js.to_str().unwrap(),
    ]);
    assert!(out.status.success() && out.stdout.is_empty());
    assert_eq!(std::fs::read_to_string(&txt).unwrap(), quiet);
    assert_eq!(std::fs::read(&js).unwrap(), json(&[]));
}

#[test]
fn verbose_reports_on_stderr_only() {
    let plain = audit(&[]);
    let out = audit(&["--verbose"]);
    assert_eq!(
        out.stdout, plain.stdout,
        "--verbose changed standard output"
    );
    assert!(plain.stderr.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("auditing examples/library"), "{err}");
    assert!(
        err.contains("profile prod (examples/profiles/prod.json): "),
        "{err}"
    );
    assert!(err.contains(" skills, "), "{err}");
    assert!(err.contains(" agents, "), "{err}");
    assert!(err.contains("done in "), "{err}");
}

#[test]
fn quiet_and_verbose_conflict() {
    bin(MANIFEST_DIR).args(["-q", "-v", "."]).assert().code(2);
}
