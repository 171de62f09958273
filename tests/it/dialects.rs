//! Requirements as libraries write them today: OpenClaw's gating, Codex's sidecar, Hermes'
//! fields, package lists, `allowed-tools`, products in `tools`, and machine profiles that
//! judge them (or leave them not judged).

use crate::common::*;

use serde_json::{Value, json};

const OPENCLAW: &str = "metadata: {\"openclaw\": {\"emoji\": \"x\", \"os\": [\"darwin\", \"linux\"], \"requires\": {\"bins\": [\"curl\", \"jq\"], \"anyBins\": [\"rg\", \"grep\"], \"env\": [\"WEATHER_KEY\"], \"config\": [\"browser.enabled\"]}}}\n";

fn status<'a>(r: &'a Value, path: &str, profile: &str) -> &'a Value {
    &skill(r, path)["availability"][profile]
}

#[test]
fn openclaw_requirements_are_judged_by_machine_profiles_only() {
    let t = tree(&[
        ("skills/w/SKILL.md", &skill_md("w", OPENCLAW)),
        (
            "linux.json",
            r#"{"os": "linux", "bins": ["curl", "jq", "grep"], "env": ["WEATHER_KEY"], "config": ["browser.enabled"]}"#,
        ),
        (
            "mac.json",
            r#"{"os": ["macos"], "bins": ["curl"], "env": [], "config": []}"#,
        ),
        ("win.json", r#"{"os": "win32"}"#),
        ("tools.json", r#"{"tools": ["read"]}"#),
    ]);
    let (r, _) = json_run(
        t.path(),
        &[
            "-p",
            "linux.json",
            "-p",
            "mac.json",
            "-p",
            "win.json",
            "-p",
            "tools.json",
            ".",
        ],
    );
    let path = "skills/w/SKILL.md";
    let declared = &skill(&r, path)["requirements"];
    assert_eq!(declared[0]["source"], "openclaw", "{declared:#}");
    assert_eq!(declared[0]["line"], 4);
    assert_eq!(declared[0]["bins"]["all"], json!(["curl", "jq"]));
    assert_eq!(declared[0]["bins"]["any"], json!(["rg", "grep"]));
    assert_eq!(skill(&r, path)["declared_by"], "openclaw");

    assert_eq!(status(&r, path, "linux")["status"], "available");
    let mac = status(&r, path, "mac");
    assert_eq!(mac["status"], "unavailable");
    assert_eq!(
        mac["missing"],
        json!(["jq", "WEATHER_KEY", "browser.enabled"])
    );
    assert_eq!(mac["unmet_any"], json!([["rg", "grep"]]));
    assert!(
        mac["reason"]
            .as_str()
            .unwrap()
            .contains("missing executable `jq` (openclaw)"),
        "{mac}"
    );
    assert_eq!(
        mac["unmet"][0],
        json!({"source": "openclaw", "kind": "bins", "group": "all", "names": ["jq"]})
    );
    // The OS is judged; the rest is not described, so not judged.
    let win = status(&r, path, "win");
    assert_eq!(win["status"], "unavailable", "{win}");
    assert!(
        win["reason"]
            .as_str()
            .unwrap()
            .contains("no OS of `darwin`, `linux`")
    );
    assert!(win["reason"].as_str().unwrap().contains("not judged"));
    // A profile of tools only says nothing about the machine.
    let tools = status(&r, path, "tools");
    assert_eq!(tools["status"], "not-judged", "{tools}");
    assert!(tools.get("missing").is_none());
    let kinds: Vec<(&str, &str)> = arr(tools, "not_judged")
        .iter()
        .map(|u| (u["kind"].as_str().unwrap(), u["group"].as_str().unwrap()))
        .collect();
    // The terminal the executables need is a host's tool: a profile with no host does not
    // judge it either. `anyBins` and the OSes are one of theirs.
    assert_eq!(
        kinds,
        [
            ("bins", "all"),
            ("bins", "any"),
            ("env", "all"),
            ("config", "all"),
            ("os", "any"),
            ("tools", "all")
        ]
    );
    // SA402 points at the block and names the source; a not-judged cell is no finding.
    let f: Vec<&Value> = arr(&r, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA402")
        .collect();
    assert_eq!(f.len(), 2, "{f:#?}");
    assert!(f.iter().all(|f| f["line"] == 4));
}

#[test]
fn openclaw_shapes_its_host_ignores_are_reported() {
    let t = tree(&[(
        "skills/w/SKILL.md",
        &skill_md(
            "w",
            "metadata:\n  clawdbot:\n    os: [macos]\n    requires:\n      bins: [curl]\n      npm: [tiktoken]\n      os: [linux]\n",
        ),
    )]);
    let (r, _) = json_run(t.path(), &["."]);
    let f: Vec<(u64, &str)> = arr(&r, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA309")
        .map(|f| (f["line"].as_u64().unwrap(), f["message"].as_str().unwrap()))
        .collect();
    assert_eq!(f.len(), 3, "{f:#?}");
    assert_eq!(f[0].0, 6);
    assert!(f[0].1.contains("does not know `macos`"), "{f:#?}");
    assert_eq!(f[1].0, 9);
    assert!(
        f[1].1.ends_with("ignores `npm` under `clawdbot.requires`, so it is not enforced; `clawdbot.requires` holds `bins`, `anyBins`, `env`, `config`"),
        "{f:#?}"
    );
    // A key of the block written a level too deep is moved up, not dropped.
    assert_eq!(f[2].0, 10);
    assert!(
        f[2].1.ends_with("ignores `os` under `clawdbot.requires`, so it is not enforced; move it up to `clawdbot.os`, where it is read"),
        "{f:#?}"
    );
    assert_eq!(
        skill(&r, "skills/w/SKILL.md")["requirements"][0]["bins"]["all"],
        json!(["curl"])
    );
}

#[test]
fn codex_sidecar_servers_are_requirements_and_a_broken_sidecar_fails_open() {
    let sidecar = "interface:\n  display_name: F\ndependencies:\n  tools:\n    - type: \"mcp\"\n      value: \"figma\"\n      url: \"https://mcp.figma.com/mcp\"\n";
    let t = tree(&[
        ("skills/f/SKILL.md", &skill_md("f", "")),
        ("skills/f/agents/openai.yaml", sidecar),
        ("skills/g/SKILL.md", &skill_md("g", "")),
        ("skills/g/agents/openai.yaml", "dependencies:\n  tools: [\n"),
        (
            "with.json",
            r#"{"servers": {"figma": {"tools": ["get_screenshot"]}}}"#,
        ),
        (
            "without.json",
            r#"{"servers": {"github": {"tools": ["*"]}}}"#,
        ),
    ]);
    let (r, _) = json_run(t.path(), &["-p", "with.json", "-p", "without.json", "."]);
    let f = skill(&r, "skills/f/SKILL.md");
    assert_eq!(
        f["requirements"],
        json!([{"source": "codex", "file": "skills/f/agents/openai.yaml", "line": 5, "column": 5, "tools": {"all": ["figma/*"]}}])
    );
    assert_eq!(
        status(&r, "skills/f/SKILL.md", "with")["status"],
        "available"
    );
    assert_eq!(
        status(&r, "skills/f/SKILL.md", "without")["missing"],
        json!(["figma/*"])
    );
    // The broken sidecar is a warning on itself; the skill stays valid and, declaring and
    // using nothing else, needs nothing.
    assert_eq!(
        rules_for(&r, "skills/g/agents/openai.yaml"),
        ["SA310"],
        "{:#}",
        r["findings"]
    );
    assert_eq!(
        status(&r, "skills/g/SKILL.md", "with")["status"],
        "needs-nothing"
    );
}

#[cfg(unix)]
#[test]
fn a_codex_sidecar_outside_the_tree_is_not_read() {
    let outside = tempfile::tempdir().unwrap();
    write(
        outside.path(),
        "openai.yaml",
        "dependencies:\n  tools:\n    - type: mcp\n      value: secret-server\n",
    );
    let t = tree(&[("skills/f/SKILL.md", &skill_md("f", ""))]);
    std::fs::create_dir_all(t.path().join("skills/f/agents")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("openai.yaml"),
        t.path().join("skills/f/agents/openai.yaml"),
    )
    .unwrap();
    let (r, _) = json_run(t.path(), &["."]);
    assert_eq!(rules_for(&r, "skills/f/agents/openai.yaml"), ["SA110"]);
    assert!(!r.to_string().contains("secret-server"));
}

#[test]
fn hermes_fields_and_fallbacks() {
    let t = tree(&[
        (
            "skills/h/SKILL.md",
            &skill_md(
                "h",
                "platforms: [linux]\nprerequisites:\n  commands: [curl]\n  env_vars: [SEARCH_KEY]\nmetadata:\n  hermes:\n    requires_tools: [web_extract]\n    fallback_for_tools: [web_search]\n",
            ),
        ),
        (
            "primary.json",
            r#"{"tools": ["web_extract", "web_search"], "os": "linux", "bins": ["curl"], "env": ["SEARCH_KEY"]}"#,
        ),
        (
            "outage.json",
            r#"{"tools": ["web_extract"], "os": "linux", "bins": ["curl"], "env": ["SEARCH_KEY"]}"#,
        ),
    ]);
    let (r, _) = json_run(t.path(), &["-p", "primary.json", "-p", "outage.json", "."]);
    let path = "skills/h/SKILL.md";
    let d = &skill(&r, path)["requirements"][0];
    assert_eq!(d["source"], "hermes");
    assert_eq!(
        d["tools"],
        json!({"all": ["web_extract"], "fallback-for": ["web_search"]})
    );
    assert_eq!(d["bins"]["all"], json!(["curl"]));
    assert_eq!(d["os"]["any"], json!(["linux"]));
    // While what it stands in for is there, Hermes hides the fallback.
    let p = status(&r, path, "primary");
    assert_eq!(p["status"], "unavailable");
    assert!(
        p["reason"]
            .as_str()
            .unwrap()
            .contains("a fallback for tool `web_search`")
    );
    assert_eq!(status(&r, path, "outage")["status"], "available");
    // A `platforms` list of products is another convention, not Hermes'.
    let t = tree(&[(
        "skills/p/SKILL.md",
        &skill_md("p", "platforms: [claude-code, cursor]\n"),
    )]);
    let (r, _) = json_run(t.path(), &["."]);
    assert!(skill(&r, "skills/p/SKILL.md").get("requirements").is_none());
}

#[test]
fn package_lists_warn_and_are_judged_by_version() {
    let t = tree(&[
        (
            "skills/c/SKILL.md",
            &skill_md(
                "c",
                "dependencies: [crewai>=1.2.0, Crewai_Tools, \"torch>=2.0; python_version>'3.8'\"]\n",
            ),
        ),
        (
            "new.json",
            r#"{"packages": {"crewai": "1.10.1", "crewai-tools": "0.1", "torch": "2.4.0"}}"#,
        ),
        (
            "old.json",
            r#"{"packages": {"CrewAI": "1.1.9", "torch": "2.4.0"}}"#,
        ),
        ("none.json", r#"{"tools": []}"#),
    ]);
    let (r, _) = json_run(
        t.path(),
        &["-p", "new.json", "-p", "old.json", "-p", "none.json", "."],
    );
    let path = "skills/c/SKILL.md";
    let sk = skill(&r, path);
    assert_eq!(sk["valid"], true);
    assert_eq!(sk["declared_by"], "packages");
    assert_eq!(
        sk["requirements"][0]["packages"]["all"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    let f: Vec<&Value> = arr(&r, "findings")
        .iter()
        .filter(|f| f["path"] == path && f["rule"] == "SA307")
        .collect();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0]["severity"], "warning");
    assert!(!rules_for(&r, path).contains(&"SA301".to_owned()));
    assert_eq!(status(&r, path, "new")["status"], "available");
    let old = status(&r, path, "old");
    assert_eq!(old["status"], "unavailable");
    assert_eq!(old["missing"], json!(["crewai>=1.2.0", "Crewai_Tools"]));
    // A profile that does not describe the machine's packages asks nothing else of the host:
    // available, with the packages named as not judged. Nothing derives a terminal from them.
    let none = status(&r, path, "none");
    assert_eq!(none["status"], "available");
    assert_eq!(none["not_judged"][0]["kind"], "packages");
    assert!(
        s(none, "reason").starts_with("not judged here: packages"),
        "{none}"
    );
    assert_eq!(sk["requirements"].as_array().unwrap().len(), 1, "{sk}");
}

/// An npm package list is read as packages (SA307, a warning) and judged nowhere, since no
/// profile describes npm packages; an empty list declares nothing. Neither is SA301 and
/// neither makes the skill invalid. A list that is neither kind is still SA301.
#[test]
fn npm_package_lists_and_empty_lists_are_not_shape_errors() {
    let t = tree(&[
        (
            "skills/n/SKILL.md",
            &skill_md(
                "n",
                "dependencies: [\"@motion-canvas/core>=3.0.0\", \"@motion-canvas/2d@^3\", react]\n",
            ),
        ),
        ("skills/e/SKILL.md", &skill_md("e", "dependencies: []\n")),
        (
            "skills/w/SKILL.md",
            &skill_md("w", "dependencies: [\"Not A Package!\"]\n"),
        ),
        (
            "p.json",
            r#"{"tools": [], "packages": {"react": "18.0.0"}}"#,
        ),
    ]);
    let (r, _) = json_run(t.path(), &["-p", "p.json", "."]);
    let npm = "skills/n/SKILL.md";
    assert_eq!(rules_for(&r, npm), ["SA307"]);
    let f = arr(&r, "findings")
        .iter()
        .find(|f| f["path"] == npm)
        .unwrap();
    assert_eq!(f["severity"], "warning");
    assert!(s(f, "message").contains("3 npm packages"), "{f}");
    assert!(f.get("fix").is_none_or(Value::is_null), "{f}");
    assert_eq!(skill(&r, npm)["valid"], true);
    assert_ne!(status(&r, npm, "p")["status"], "invalid");
    let empty = "skills/e/SKILL.md";
    assert!(
        rules_for(&r, empty).is_empty(),
        "{:?}",
        rules_for(&r, empty)
    );
    assert_eq!(skill(&r, empty)["valid"], true);
    assert_ne!(status(&r, empty, "p")["status"], "invalid");
    let wrong = "skills/w/SKILL.md";
    assert!(rules_for(&r, wrong).contains(&"SA301".to_owned()));
}

#[test]
fn products_and_tool_schemas_in_a_skills_tools_are_not_requirements() {
    let t = tree(&[
        (
            "skills/p/SKILL.md",
            &skill_md("p", "tools: [claude, cursor, gemini]\n"),
        ),
        (
            "skills/s/SKILL.md",
            &skill_md(
                "s",
                "tools:\n  - name: search_docs\n    description: Search.\n  - read\n",
            ),
        ),
        ("p.json", r#"{"tools": ["read"]}"#),
    ]);
    let (r, _) = json_run(t.path(), &["-p", "p.json", "."]);
    let p = "skills/p/SKILL.md";
    assert_eq!(rules_for(&r, p), ["SA308"]);
    let msg = arr(&r, "findings").iter().find(|f| f["path"] == p).unwrap()["message"]
        .as_str()
        .unwrap();
    assert!(msg.contains("`claude`, `cursor`, `gemini`"), "{msg}");
    // Products are not requirements: nothing else is declared or used.
    assert_eq!(status(&r, p, "p")["status"], "needs-nothing");
    let s = "skills/s/SKILL.md";
    assert_eq!(rules_for(&r, s), ["SA308"]);
    assert_eq!(skill(&r, s)["valid"], true);
    assert_eq!(
        status(&r, s, "p")["status"],
        "available",
        "`read` is still needed"
    );
}

#[test]
fn allowed_tools_missing_some_is_partial() {
    let t = tree(&[
        (
            "skills/a/SKILL.md",
            &skill_md(
                "a",
                "allowed-tools: Read Bash(git:*) mcp__github__get_issue mcp__kusto\n",
            ),
        ),
        (
            "gh.json",
            r#"{"host": "claude-code", "servers": {"github": {"tools": ["get_issue"]}}}"#,
        ),
        ("none.json", r#"{"tools": []}"#),
    ]);
    let (r, _) = json_run(t.path(), &["-p", "gh.json", "-p", "none.json", "."]);
    let path = "skills/a/SKILL.md";
    assert_eq!(
        skill(&r, path)["requirements"][0]["tools"]["all"],
        json!(["Read", "Bash", "mcp__github__get_issue", "kusto/*"])
    );
    let gh = status(&r, path, "gh");
    assert_eq!(gh["status"], "partial", "{gh}");
    assert_eq!(gh["missing"], json!(["kusto/*"]));
    let f: Vec<&Value> = arr(&r, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA403")
        .collect();
    assert_eq!(f.len(), 2, "{f:#?}");
    assert!(f.iter().all(|f| f["line"] == 4), "at `allowed-tools`");
    // Without a host, Claude Code's own names are its to provide; the MCP names are missing.
    let none = status(&r, path, "none");
    assert_eq!(none["status"], "partial");
    assert_eq!(
        none["missing"],
        json!(["mcp__github__get_issue", "kusto/*"])
    );
}

#[test]
fn semantics_proposal_unions_a_skills_grants_with_the_agent() {
    let t = tree(&[
        (
            "skills/k/SKILL.md",
            &skill_md("k", "tools: [kusto/run_query]\nmcp-servers: [kusto]\n"),
        ),
        (
            ".github/agents/a.agent.md",
            "---\nname: a\ndescription: d\ntools: [read]\n---\nUse [k](../../skills/k/SKILL.md).\n",
        ),
        (
            "p.json",
            r#"{"host": "vscode", "servers": {"kusto": {"tools": ["run_query"]}}}"#,
        ),
    ]);
    let (today, _) = json_run(t.path(), &["-p", "p.json", "."]);
    assert_eq!(arr(&today, "drift").len(), 1, "{:#}", today["drift"]);
    let agent = &arr(&today, "agents")[0];
    assert_eq!(
        agent["proposal_grants"],
        json!({"tools": ["kusto/run_query"], "mcp-servers": ["kusto"], "from": ["skills/k/SKILL.md"]})
    );
    let (proposal, _) = json_run(t.path(), &["--semantics", "proposal", "-p", "p.json", "."]);
    assert!(
        arr(&proposal, "drift").is_empty(),
        "{:#}",
        proposal["drift"]
    );
    assert!(!rules_for(&proposal, ".github/agents/a.agent.md").contains(&"SA603".to_owned()));
    assert_eq!(
        arr(&proposal, "agents")[0]["availability"]["p"]["status"],
        "available"
    );
}

#[test]
fn explain_says_where_each_requirement_comes_from() {
    let t = tree(&[
        (
            "skills/w/SKILL.md",
            &skill_md("w", &format!("allowed-tools: Read\n{OPENCLAW}")),
        ),
        (
            "skills/w/agents/openai.yaml",
            "dependencies:\n  tools:\n    - type: mcp\n      value: figma\n",
        ),
    ]);
    let out = bin(t.path())
        .args(["explain", "skills/w"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Requirements (every source must hold)"),
        "{text}"
    );
    assert!(
        text.contains("  allowed-tools (skills/w/SKILL.md:4:1,"),
        "{text}"
    );
    assert!(text.contains("  openclaw (skills/w/SKILL.md:5:"), "{text}");
    assert!(
        text.contains("  codex (skills/w/agents/openai.yaml:3:"),
        "{text}"
    );
    assert!(
        text.contains("    bins: all of `curl`, `jq`; one of `rg`, `grep`"),
        "{text}"
    );
}

/// The OpenClaw slice: every skill accounted for, the gating read from every spelling, and a
/// machine profile made by `capture --machine` judging it.
#[test]
fn openclaw_corpus_requirements() {
    let Some(root) = corpus(OPENCLAW_A) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let machine = tmp.path().join("machine.json");
    bin(MANIFEST_DIR)
        .args(["capture", "--machine"])
        .arg(&root)
        .arg("-o")
        .arg(&machine)
        .assert()
        .code(0);
    let (r, _) = json_of(
        bin(MANIFEST_DIR)
            .args(["-f", "json", "--fail-on", "never", "-p"])
            .arg(&machine)
            .arg(&root),
    );
    let skills = arr(&r, "skills");
    assert_eq!(
        skills.len() as u64,
        r["summary"]["skills"].as_u64().unwrap()
    );
    let from_openclaw = skills
        .iter()
        .filter(|s| {
            s["requirements"]
                .as_array()
                .is_some_and(|d| d.iter().any(|d| d["source"] == "openclaw"))
        })
        .count();
    assert!(
        from_openclaw >= 50,
        "{from_openclaw} skills gated by OpenClaw"
    );
    // Every one of them is judged by the machine profile (only `config` is never captured).
    let judged = skills
        .iter()
        .filter(|s| {
            matches!(
                s["availability"]["machine"]["status"].as_str(),
                Some("available" | "unavailable")
            )
        })
        .count();
    assert!(judged >= from_openclaw - 2, "{judged} of {from_openclaw}");
    assert!(!arr(&r, "findings").iter().any(|f| f["rule"] == "SA199"));
}

/// The template catalogue: package lists are packages, never an invalid skill.
#[test]
fn package_list_corpus() {
    let Some(root) = corpus(TEMPLATES) else {
        return;
    };
    let (r, _) = json_of(
        bin(MANIFEST_DIR)
            .args(["-f", "json", "--fail-on", "never"])
            .arg(&root),
    );
    let skills = arr(&r, "skills");
    let packages = skills
        .iter()
        .filter(|s| s["declared_by"] == "packages")
        .count();
    assert!(packages >= 80, "{packages} package lists");
    let sa307 = arr(&r, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA307")
        .count();
    assert_eq!(sa307, packages);
    assert!(
        !arr(&r, "findings").iter().any(|f| f["rule"] == "SA301"),
        "no package list is a broken dependencies field"
    );
    let codex = skills
        .iter()
        .filter(|s| {
            s["requirements"]
                .as_array()
                .is_some_and(|d| d.iter().any(|d| d["source"] == "codex"))
        })
        .count();
    assert!(codex >= 3, "{codex} Codex sidecars with MCP servers");
    assert!(!arr(&r, "findings").iter().any(|f| f["rule"] == "SA199"));
}

/// `allowed-tools` is Claude Code's pre-approval list: on VS Code and GitHub Copilot it
/// neither needs nor grants anything, so a skill that declares nothing else is undeclared
/// there (saying why) and judged on Claude Code.
#[test]
fn allowed_tools_count_only_where_claude_code_reads_them() {
    let t = tree(&[
        (
            "skills/a/SKILL.md",
            &skill_md("a", "allowed-tools: Read Grep Bash(git:*) NotATool\n"),
        ),
        (
            "skills/b/SKILL.md",
            &skill_md(
                "b",
                "allowed-tools: Read\ndependencies:\n  tools: [get_order]\n",
            ),
        ),
    ]);
    let (r, _) = json_run(
        t.path(),
        &[
            "--fail-on",
            "never",
            "-p",
            "builtin:vscode",
            "-p",
            "builtin:github-copilot",
            "-p",
            "builtin:claude-code",
            ".",
        ],
    );
    let a = "skills/a/SKILL.md";
    for host in ["vscode", "github-copilot"] {
        let st = status(&r, a, host);
        assert_eq!(st["status"], "undeclared", "{host}: {st}");
        assert!(s(st, "reason").contains("does not read it"), "{st}");
    }
    assert_ne!(status(&r, a, "claude-code")["status"], "undeclared");
    // Other declarations still count there; `Read` is not asked of either host.
    let b = status(&r, "skills/b/SKILL.md", "github-copilot");
    assert_eq!(b["missing"], json!(["get_order"]), "{b}");
    // VS Code also takes an extension's or a server's tool by its bare name, and the
    // built-in profile lists neither.
    let b = status(&r, "skills/b/SKILL.md", "vscode");
    assert_eq!(b["status"], "not-judged", "{b}");
    assert_eq!(b["not_judged"][0]["names"], json!(["get_order"]), "{b}");
}

/// The same need declared by two sources is said once, naming both.
#[test]
fn one_need_from_two_sources_is_said_once() {
    let sidecar = "dependencies:\n  tools:\n    - type: \"mcp\"\n      value: \"figma\"\n";
    let t = tree(&[
        (
            "skills/f/SKILL.md",
            &skill_md("f", "dependencies:\n  tools: [\"figma/*\"]\n"),
        ),
        ("skills/f/agents/openai.yaml", sidecar),
        (
            "without.json",
            r#"{"servers": {"github": {"tools": ["*"]}}}"#,
        ),
    ]);
    let (r, _) = json_run(t.path(), &["-p", "without.json", "."]);
    let st = status(&r, "skills/f/SKILL.md", "without");
    assert_eq!(st["status"], "unavailable", "{st}");
    assert_eq!(
        s(st, "reason"),
        "missing tool `figma/*` (dependencies, codex)",
        "{st}"
    );
}

/// A name with several faults is one finding that suggests a name every host accepts (the
/// folder's, when valid); one fault keeps its own rule, with the same suggestion.
#[test]
fn a_faulty_name_is_one_finding_with_a_valid_suggestion() {
    let t = tree(&[
        (
            "skills/seo-optimizer/SKILL.md",
            "---\nname: Use SEO Optimizer\ndescription: Optimises pages. Use when asked.\n---\nx\n",
        ),
        (
            "skills/My Tools/SKILL.md",
            "---\nname: My_Tools\ndescription: Tools. Use when asked.\n---\nx\n",
        ),
        (
            "skills/pdf_x/SKILL.md",
            "---\nname: pdf_x\ndescription: Pdf. Use when asked.\n---\nx\n",
        ),
    ]);
    let (r, _) = json_run(t.path(), &["--fail-on", "never", "."]);
    let shape = |path: &str| -> Vec<(String, String)> {
        arr(&r, "findings")
            .iter()
            .filter(|f| f["path"] == path && ["SA204", "SA205", "SA206"].contains(&s(f, "rule")))
            .map(|f| (s(f, "rule").to_owned(), s(f, "message").to_owned()))
            .collect()
    };
    let seo = shape("skills/seo-optimizer/SKILL.md");
    assert_eq!(seo.len(), 1, "{seo:?}");
    assert!(seo[0].1.contains("use `seo-optimizer`"), "{seo:?}");
    let mine = shape("skills/My Tools/SKILL.md");
    assert_eq!(mine.len(), 1, "{mine:?}");
    assert!(mine[0].1.contains("use `my-tools`"), "{mine:?}");
    let pdf = shape("skills/pdf_x/SKILL.md");
    assert_eq!(pdf.len(), 1, "{pdf:?}");
    assert_eq!(pdf[0].0, "SA206");
    assert!(pdf[0].1.contains("use `pdf-x`"), "{pdf:?}");
}
