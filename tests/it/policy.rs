//! Policy rules of a library's own (`[[policy]]` in skill-audit.toml): the seven checks on the
//! fixture in `tests/data/policy`, in every output format, with a suppression, a baseline,
//! `--select`/`--ignore`/`[rules]`, `rules` and `rule ID`, and settings files that are broken.
//!
//! Update the snapshots with `INSTA_UPDATE=always cargo test --test it policy::` and read the
//! diff.

use std::path::Path;

use serde_json::Value;
use tempfile::TempDir;

use crate::common::*;

const FIXTURE: &str = "tests/data/policy";

/// The fixture audited from the repository root in `format` (its errors exit 1).
fn fixture(format: &str) -> String {
    quiet_stdout(bin(MANIFEST_DIR).args([FIXTURE, "-f", format]), 1)
}

/// (rule, line, column) of each finding of a JSON report, with the path.
fn found(report: &Value) -> Vec<(String, String, u64, u64)> {
    arr(report, "findings")
        .iter()
        .map(|f| {
            (
                s(f, "rule").to_owned(),
                s(f, "path")
                    .trim_start_matches("tests/data/policy/")
                    .to_owned(),
                f["line"].as_u64().unwrap(),
                f["column"].as_u64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn the_checks_find_what_the_fixture_breaks_and_nothing_else() {
    let (report, code) = json_run(Path::new(MANIFEST_DIR), &[FIXTURE]);
    assert_eq!(code, 1, "P001 and P005 are errors");
    let expected = [
        ("P005", ".claude/agents/builder.md", 4, 14),
        ("P007", ".claude/agents/builder.md", 4, 20),
        ("P005", "agents/helper.agent.md", 2, 1),
        ("P006", "agents/reviewer.agent.md", 3, 8),
        ("P008", "plugins/acme/.claude-plugin/plugin.json", 1, 1),
        ("P009", "plugins/acme/.claude-plugin/plugin.json", 3, 14),
        ("P003", "skills/acme-forms/SKILL.md", 6, 9),
        ("P001", "skills/notes/SKILL.md", 2, 1),
        ("P004", "skills/notes/SKILL.md", 3, 14),
        ("P002", "skills/notes/SKILL.md", 4, 1),
    ];
    let expected: Vec<(String, String, u64, u64)> = expected
        .iter()
        .map(|(r, p, l, c)| (r.to_string(), p.to_string(), *l, *c))
        .collect();
    assert_eq!(found(&report), expected);
    // The settings file's message replaces the generated one; the others say what to do.
    let p001 = messages(&report, "P001");
    assert_eq!(
        p001,
        [
            "every skill states its licence: add `license` (such as `license: MIT`) to the frontmatter"
        ]
    );
    assert!(messages(&report, "P002")[0].ends_with("remove it"));
    // Severities are each rule's own.
    let severity = |rule: &str| {
        arr(&report, "findings")
            .iter()
            .find(|f| s(f, "rule") == rule)
            .map(|f| s(f, "severity").to_owned())
    };
    assert_eq!(severity("P001").as_deref(), Some("error"));
    assert_eq!(severity("P003").as_deref(), Some("warning"));
    assert_eq!(severity("P004").as_deref(), Some("info"));
}

#[test]
fn text_report() {
    insta::assert_snapshot!("text", fixture("text"));
}

#[test]
fn concise_report() {
    insta::assert_snapshot!("concise", fixture("concise"));
}

#[test]
fn json_report() {
    let mut v: Value = serde_json::from_str(&fixture("json")).expect("valid JSON");
    v["tool"]["version"] = Value::from("[version]");
    insta::assert_json_snapshot!("json", v);
}

#[test]
fn markdown_report() {
    let md = fixture("markdown");
    insta::assert_snapshot!(
        "markdown",
        md.replace(
            &format!("skill-audit {VERSION}</sub>"),
            "skill-audit [version]</sub>"
        )
    );
}

#[test]
fn github_annotations() {
    insta::assert_snapshot!("github", fixture("github"));
}

#[test]
fn sarif_log() {
    let mut v: Value = serde_json::from_str(&fixture("sarif")).expect("valid JSON");
    let run = &mut v["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap().clone();
    // Every result's index names its rule, policy rules after the built-in ones.
    for r in run["results"].as_array().unwrap() {
        let i = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[i]["id"], r["ruleId"]);
    }
    let policy: Vec<Value> = rules
        .into_iter()
        .filter(|r| s(r, "id").starts_with('P'))
        .collect();
    assert_eq!(policy.len(), 9, "the nine rules with findings");
    run["tool"]["driver"]["rules"] = Value::from(policy);
    run["tool"]["driver"]["version"] = Value::from("[version]");
    run["tool"]["driver"]["semanticVersion"] = Value::from("[version]");
    insta::assert_json_snapshot!("sarif", v);
}

#[test]
fn html_report() {
    let html = fixture("html");
    // The page is the example's; what policy rules add is their findings and their docs.
    let lines: Vec<&str> = html
        .lines()
        .filter(|l| l.contains("P00") || l.contains("this library&#x27;s policy"))
        .map(str::trim)
        .collect();
    assert!(
        html.contains(
            "It is this library&#x27;s own policy, declared in tests&#x2f;data&#x2f;policy&#x2f;skill-audit.toml:20."
        ),
        "the rules section documents P003"
    );
    insta::assert_snapshot!("html", lines.join("\n"));
}

/// The fixture copied to a temporary folder, for tests that change it.
fn copy() -> TempDir {
    let t = TempDir::new().unwrap();
    let from = Path::new(MANIFEST_DIR).join(FIXTURE);
    let mut dirs = vec![from.clone()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else {
                let rel = p.strip_prefix(&from).unwrap();
                write(t.path(), rel.to_str().unwrap(), std::fs::read(&p).unwrap());
            }
        }
    }
    t
}

#[test]
fn suppressions_name_policy_rules() {
    let t = copy();
    // The fixture's legacy skill lacks `license`, and says so.
    let (r, _) = json_run(t.path(), &[]);
    assert!(rules_for(&r, "skills/legacy/SKILL.md").is_empty());
    // Without the comment, P001 is found there; a comment naming an undeclared ID is SA902.
    write(
        t.path(),
        "skills/legacy/SKILL.md",
        "---\nname: legacy\ndescription: The old release checklist.  # skill-audit: ignore P099\n---\n",
    );
    let (r, _) = json_run(t.path(), &[]);
    assert_eq!(rules_for(&r, "skills/legacy/SKILL.md"), ["P001", "SA902"]);
    // A comment on the field silences that finding alone, by ID or by name.
    write(
        t.path(),
        "skills/notes/SKILL.md",
        "---\nname: notes\ndescription: Notes.\nmodel: opus  # skill-audit: ignore no-skill-model\nlicense: MIT\n---\n",
    );
    let (r, _) = json_run(t.path(), &[]);
    assert!(rules_for(&r, "skills/notes/SKILL.md").is_empty());
}

#[test]
fn a_baseline_marks_only_new_policy_findings() {
    let t = copy();
    bin(t.path()).args(["-o", "base.json"]).assert().code(1);
    let old: Value =
        serde_json::from_str(&std::fs::read_to_string(t.path().join("base.json")).unwrap())
            .unwrap();
    assert_eq!(arr(&old, "findings").len(), 10);
    write(
        t.path(),
        "skills/extra/SKILL.md",
        "---\nname: extra\ndescription: Extra.\n---\n",
    );
    let out = bin(t.path())
        .args([
            "--baseline",
            "base.json",
            "-f",
            "concise",
            "--fail-on",
            "error",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let new: Vec<&str> = text.lines().filter(|l| l.contains("[new]")).collect();
    assert_eq!(
        new,
        [
            "skills/extra/SKILL.md:2:1: P001 [new] every skill states its licence: add `license` (such as `license: MIT`) to the frontmatter"
        ],
        "{text}"
    );
    // The old errors are in the baseline: only the new one fails the run.
    assert_eq!(out.status.code(), Some(1));
    let md = quiet_stdout(
        bin(t.path()).args([
            "--baseline",
            "base.json",
            "-f",
            "markdown",
            "--fail-on",
            "never",
        ]),
        0,
    );
    assert!(md.contains("New findings (1)"), "{md}");
    assert!(
        md.contains("| error | `P001` | <code>skills/extra/SKILL.md:2</code>"),
        "{md}"
    );
    // Fixed, the baseline's findings go, and nothing is new.
    write(
        t.path(),
        "skills/extra/SKILL.md",
        "---\nname: extra\ndescription: Extra.\nlicense: MIT\n---\n",
    );
    let md = quiet_stdout(
        bin(t.path()).args([
            "--baseline",
            "base.json",
            "-f",
            "markdown",
            "--fail-on",
            "error",
        ]),
        0,
    );
    assert!(md.contains("0 new findings"), "{md}");
}

#[test]
fn select_ignore_and_severities_take_policy_ids_and_names() {
    let rules = |args: &[&str]| {
        let (r, _) = json_run(Path::new(MANIFEST_DIR), &[&[FIXTURE], args].concat());
        let mut ids: Vec<String> = found(&r).into_iter().map(|f| f.0).collect();
        ids.dedup();
        ids
    };
    assert_eq!(rules(&["--select", "P005"]), ["P005"]);
    assert_eq!(rules(&["--select", "no-bash,acme-team"]), ["P005", "P003"]);
    assert_eq!(
        rules(&["--select", "P", "--ignore", "P00"]),
        Vec::<String>::new()
    );
    let all = rules(&["--ignore", "P005,P007,approved-servers,agents-read"]);
    assert_eq!(all, ["P008", "P009", "P003", "P001", "P004", "P002"]);
    // `[rules]` changes a policy rule's severity, or turns it off.
    let t = copy();
    let toml = std::fs::read_to_string(t.path().join("skill-audit.toml")).unwrap();
    write(
        t.path(),
        "skill-audit.toml",
        format!("[rules]\nP001 = \"info\"\nno-bash = \"off\"\n\n{toml}"),
    );
    let (r, code) = json_run(t.path(), &[]);
    assert_eq!(code, 0, "no error is left");
    let p001: Vec<&str> = arr(&r, "findings")
        .iter()
        .filter(|f| s(f, "rule") == "P001")
        .map(|f| s(f, "severity"))
        .collect();
    assert_eq!(p001, ["info"]);
    assert!(messages(&r, "P005").is_empty());
}

#[test]
fn rules_and_rule_list_and_document_policy_rules() {
    let dir = Path::new(MANIFEST_DIR).join(FIXTURE);
    let list = quiet_stdout(bin(&dir).arg("rules"), 0);
    let policy: Vec<&str> = list.lines().filter(|l| l.starts_with('P')).collect();
    assert_eq!(policy.len(), 9, "{list}");
    assert_eq!(
        policy[0],
        "P001   error    skill-license                       Every skill has `license`"
    );
    assert!(
        list.lines().next().unwrap().starts_with("SA100"),
        "built-in rules first"
    );
    let doc = quiet_stdout(bin(&dir).args(["rule", "acme-team"]), 0);
    assert!(
        doc.starts_with("P003 acme-team (warning by default)"),
        "{doc}"
    );
    assert!(
        doc.contains("skills whose path matches `skills/acme-*/**`"),
        "{doc}"
    );
    assert!(doc.contains("declared in skill-audit.toml:20"), "{doc}");
    // Elsewhere, `--config` names the file; without it a policy ID is unknown.
    let config = dir.join("skill-audit.toml");
    let t = TempDir::new().unwrap();
    let doc = quiet_stdout(
        bin(t.path()).args(["rule", "P005", "--config", config.to_str().unwrap()]),
        0,
    );
    assert!(doc.starts_with("P005 no-bash (error by default)"), "{doc}");
    bin(t.path()).args(["rule", "P005"]).assert().code(2);
}

#[test]
fn a_broken_policy_rule_is_a_settings_error_naming_its_line() {
    let cases = [
        (
            "[[policy]]\nid = \"P001\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = \"sometimes\"\n",
            "skill-audit.toml:5:9: unknown variant `sometimes`",
        ),
        (
            "[[policy]]\nid = \"P001\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = \"field-pattern\"\nfield = \"name\"\npattern = \"[a-\"\n",
            "skill-audit.toml:7:11: policy P001: `pattern` is not a regular expression",
        ),
        (
            "[[policy]]\nid = \"SA221\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"x\"\n",
            "skill-audit.toml:2:6: policy `id` `SA221` is the built-in rule SA221 (unknown-key)",
        ),
        (
            "[[policy]]\nid = \"P001\"\nname = \"drift\"\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"x\"\n",
            "skill-audit.toml:3:8: policy `name` `drift` is already the name of SA603",
        ),
    ];
    for (toml, says) in cases {
        let t = tree(&[
            ("skills/a/SKILL.md", &skill_md("a", "")),
            ("skill-audit.toml", toml),
        ]);
        let err = stderr_of(&mut bin(t.path()), 2);
        assert!(err.contains(says), "{says}\n{err}");
    }
}

#[test]
fn forbidden_tools_cover_a_tool_set_and_a_server() {
    let toml = "[[policy]]\nid = \"P001\"\nname = \"no-edit\"\napplies-to = \"agent\"\ncheck = \"forbidden-tools\"\ntools = [\"edit\", \"jira\"]\n";
    let t = tree(&[
        ("skill-audit.toml", toml),
        (
            "agents/x.agent.md",
            "---\ndescription: x\ntools: ['read', 'edit/editFiles', 'jira/search', 'editor']\n---\n",
        ),
    ]);
    let (r, _) = json_run(t.path(), &["--select", "P"]);
    let found: Vec<(u64, u64, String)> = arr(&r, "findings")
        .iter()
        .map(|f| {
            (
                f["line"].as_u64().unwrap(),
                f["column"].as_u64().unwrap(),
                s(f, "message").to_owned(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                3,
                17,
                "the agent is granted `edit/editFiles`, which this library's policy forbids; remove it from `tools`".to_owned()
            ),
            (
                3,
                35,
                "the agent is granted `jira/search`, which this library's policy forbids; remove it from `tools`".to_owned()
            ),
        ]
    );
}

/// The settings of docs/policy.md on a `.agent.md` that names servers and the terminal as
/// VS Code and GitHub Copilot write them: each is found, and VS Code's own tool sets are not
/// taken for servers.
#[test]
fn vs_code_and_github_spellings_do_not_slip_past_the_grant_checks() {
    let toml = "[[policy]]\nid = \"P005\"\nname = \"no-bash\"\napplies-to = \"agent\"\ncheck = \"forbidden-tools\"\ntools = [\"Bash\"]\n\n[[policy]]\nid = \"P007\"\nname = \"approved-servers\"\napplies-to = \"agent\"\ncheck = \"allowed-servers\"\nservers = [\"github\"]\n";
    let t = tree(&[
        ("skill-audit.toml", toml),
        (
            "agents/x.agent.md",
            "---\ndescription: x\ntools:\n  - jira/*\n  - jira/search\n  - jira:search\n  - github/*\n  - edit/editFiles\n  - search/codebase\n  - web/fetch\n  - execute\n  - shell\n  - read\n---\n",
        ),
    ]);
    let (r, _) = json_run(t.path(), &["--select", "P"]);
    let found: Vec<(String, u64)> = arr(&r, "findings")
        .iter()
        .map(|f| (s(f, "rule").to_owned(), f["line"].as_u64().unwrap()))
        .collect();
    let expected = [
        ("P007", 4),
        ("P007", 5),
        ("P007", 6),
        ("P005", 11),
        ("P005", 12),
    ];
    let expected: Vec<(String, u64)> = expected
        .iter()
        .map(|(rule, line)| (rule.to_string(), *line))
        .collect();
    assert_eq!(found, expected);
    assert_eq!(
        messages(&r, "P005")[0],
        "the agent is granted `execute`, which this library's policy forbids as `Bash` (`Bash` is GitHub Copilot's alias of `execute`); remove it from `tools`"
    );
    assert!(
        messages(&r, "P007")
            .iter()
            .all(|m| m.contains("the MCP server `jira`")),
        "{r}"
    );
}

#[test]
fn manifests_by_their_fields() {
    let toml = "[[policy]]\nid = \"P001\"\nname = \"acme-license\"\napplies-to = \"manifest\"\nplugin = \"acme\"\ncheck = \"required-field\"\nfield = \"license\"\n\n[[policy]]\nid = \"P002\"\nname = \"author\"\napplies-to = \"manifest\"\ncheck = \"max-length\"\nfield = \"author.name\"\nmax-length = 5\n";
    let t = tree(&[
        ("skill-audit.toml", toml),
        (
            "plugins/acme/.claude-plugin/plugin.json",
            "{\"name\": \"acme\",\n \"author\": {\"name\": \"Acme Tools\"}}\n",
        ),
        (
            "plugins/other/.claude-plugin/plugin.json",
            "{\"name\": \"other\", \"license\": \"MIT\"}\n",
        ),
    ]);
    let (r, _) = json_run(t.path(), &["--select", "P"]);
    let found: Vec<(String, String, u64, u64)> = arr(&r, "findings")
        .iter()
        .map(|f| {
            (
                s(f, "rule").to_owned(),
                s(f, "message").to_owned(),
                f["line"].as_u64().unwrap(),
                f["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            (
                "P001".to_owned(),
                "`license` is required by this library's policy; add it to the manifest".to_owned(),
                1,
                1
            ),
            (
                "P002".to_owned(),
                "`author.name` has 10 characters, more than the 5 this library's policy allows; shorten it".to_owned(),
                2,
                21
            ),
        ]
    );
    // A check of agents' grants does not apply to manifests.
    let t = tree(&[(
        "skill-audit.toml",
        "[[policy]]\nid = \"P001\"\nname = \"x\"\napplies-to = \"manifest\"\ncheck = \"forbidden-tools\"\ntools = [\"Bash\"]\n",
    )]);
    let out = bin(t.path()).arg(".").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("checks agents' grants"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn plugin_selects_the_files_a_plugin_holds() {
    let toml = "[[policy]]\nid = \"P001\"\nname = \"acme-license\"\napplies-to = \"skill\"\nplugin = \"acme\"\ncheck = \"required-field\"\nfield = \"license\"\n\n[[policy]]\nid = \"P002\"\nname = \"acme-no-bash\"\napplies-to = \"agent\"\nplugin = \"acme\"\ncheck = \"forbidden-tools\"\ntools = [\"Bash\"]\n";
    let t = tree(&[
        ("skill-audit.toml", toml),
        (
            "plugins/acme/.claude-plugin/plugin.json",
            r#"{"name": "acme"}"#,
        ),
        ("plugins/acme/skills/a/SKILL.md", &skill_md("a", "")),
        (
            "plugins/acme/agents/x.agent.md",
            "---\ndescription: x\n---\n",
        ),
        (
            "plugins/other/.claude-plugin/plugin.json",
            r#"{"name": "other"}"#,
        ),
        ("plugins/other/skills/b/SKILL.md", &skill_md("b", "")),
        ("skills/c/SKILL.md", &skill_md("c", "")),
        ("agents/y.agent.md", "---\ndescription: y\n---\n"),
    ]);
    let (r, _) = json_run(t.path(), &["--select", "P"]);
    let found: Vec<(String, String)> = arr(&r, "findings")
        .iter()
        .map(|f| (s(f, "rule").to_owned(), s(f, "path").to_owned()))
        .collect();
    assert_eq!(
        found,
        [
            (
                "P002".to_owned(),
                "plugins/acme/agents/x.agent.md".to_owned()
            ),
            (
                "P001".to_owned(),
                "plugins/acme/skills/a/SKILL.md".to_owned()
            ),
        ]
    );
    let doc = quiet_stdout(bin(t.path()).args(["rule", "P001"]), 0);
    assert!(doc.contains("every skill of the plugin `acme`"), "{doc}");
}
