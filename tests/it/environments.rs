//! Environments: composed profiles (`host`, `extends`, `servers.NAME.from`, `deny`) and their
//! errors, agents judged only by hosts that load them, and the agent statuses.

use crate::common::*;

use serde_json::Value;
use std::path::Path;

/// A skill needing `tools` (a YAML flow list) under `dependencies`.
fn needs(name: &str, tools: &str) -> (String, String) {
    (
        format!("skills/{name}/SKILL.md"),
        skill_md(name, &format!("dependencies:\n  tools: {tools}\n")),
    )
}

/// An agent file at `rel` with `extra` frontmatter lines.
fn agent(extra: &str) -> String {
    format!("---\ndescription: An agent for tests.\n{extra}---\nBody.\n")
}

/// Audit `root` with profiles `-p` (paths relative to `root`), as JSON.
fn run(root: &Path, profiles: &[&str]) -> (Value, i32) {
    let mut args = vec!["--fail-on", "never"];
    for p in profiles {
        args.extend(["-p", p]);
    }
    args.push(".");
    json_run(root, &args)
}

/// The availability of the skill or agent named `name` on `profile`.
fn cell<'a>(report: &'a Value, name: &str, profile: &str) -> &'a Value {
    ["skills", "agents"]
        .into_iter()
        .flat_map(|key| arr(report, key))
        .find(|e| e["name"] == name)
        .map(|e| &e["availability"][profile])
        .unwrap_or_else(|| panic!("no skill or agent `{name}` in the report"))
}

/// The status of the skill or agent named `name` on `profile`.
fn status(report: &Value, name: &str, profile: &str) -> String {
    s(cell(report, name, profile), "status").to_owned()
}

/// The `missing` list of `name` on `profile`.
fn missing(report: &Value, name: &str, profile: &str) -> Vec<String> {
    strings(&cell(report, name, profile)["missing"])
}

/// Run and expect a usage error; return standard error.
fn usage_error(root: &Path, profile: &str) -> String {
    let out = bin(root)
        .args(["-f", "json", "-p", profile, "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn servers_from_a_raw_tools_list_meet_every_spelling() {
    let (a, ta) = needs("slash", "[kusto/run_query]");
    let (b, tb) = needs("claude", "[mcp__kusto__run_query]");
    let (c, tc) = needs("colon", "['kusto:run_query']");
    let (d, td) = needs("bare", "[run_query]");
    let (e, te) = needs("other", "[kusto/drop_table]");
    let (f, tf) = needs("inline", "[kusto/list_tables]");
    let dir = tree(&[
        (&a, &ta),
        (&b, &tb),
        (&c, &tc),
        (&d, &td),
        (&e, &te),
        (&f, &tf),
        (
            "env/captures/kusto.json",
            r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "run_query", "inputSchema": {}}]}}"#,
        ),
        (
            "env/captures/bare.json",
            r#"{"tools": [{"name": "run_query"}], "nextCursor": null}"#,
        ),
        (
            "env/prod.json",
            r#"{"servers": {"kusto": {"from": "captures/kusto.json", "tools": ["list_tables"]}}}"#,
        ),
        (
            "env/bare.json",
            r#"{"servers": {"kusto": {"from": "captures/bare.json"}}}"#,
        ),
    ]);
    let (v, code) = run(dir.path(), &["env/prod.json", "env/bare.json"]);
    assert_eq!(code, 0);
    for skill in ["slash", "claude", "colon", "bare"] {
        assert_eq!(status(&v, skill, "prod"), "available", "{skill}");
        assert_eq!(status(&v, skill, "bare"), "available", "{skill}");
    }
    assert_eq!(status(&v, "other", "prod"), "unavailable");
    assert_eq!(status(&v, "inline", "prod"), "available", "from + inline");
    assert_eq!(status(&v, "inline", "bare"), "unavailable");
}

#[test]
fn extends_unions_and_deny_removes() {
    let (a, ta) = needs("refund", "[payments/get_order, get_check_details]");
    let (b, tb) = needs("dispute", "[dispute_open]");
    let (c, tc) = needs("issues", "[github/get_issue]");
    let (d, td) = needs("teams", "[teams/search]");
    let dir = tree(&[
        (&a, &ta),
        (&b, &tb),
        (&c, &tc),
        (&d, &td),
        (
            "env/base.json",
            r#"{"servers": {"payments": {"tools": ["get_order", "get_check_details", "dispute_open"]},
                            "github": {"tools": ["*"]}}}"#,
        ),
        (
            "env/more.json",
            r#"{"servers": {"teams": {"tools": ["search"]}}}"#,
        ),
        (
            "env/prod.json",
            r#"{"name": "prod", "extends": ["base.json", "more.json"]}"#,
        ),
        (
            "env/staging.json",
            r#"{"name": "staging", "extends": ["prod.json"],
                "deny": ["payments/get_check_details", "github/*", "dispute_*"]}"#,
        ),
        (
            "env/later.json",
            r#"{"name": "later", "extends": ["staging.json"], "servers": {"payments": {"tools": ["get_check_details"]}}}"#,
        ),
    ]);
    let (v, _) = run(
        dir.path(),
        &["env/prod.json", "env/staging.json", "env/later.json"],
    );
    for skill in ["refund", "dispute", "issues", "teams"] {
        assert_eq!(status(&v, skill, "prod"), "available", "{skill}");
    }
    assert_eq!(missing(&v, "refund", "staging"), ["get_check_details"]);
    assert_eq!(
        status(&v, "dispute", "staging"),
        "unavailable",
        "bare glob, any server"
    );
    assert_eq!(
        status(&v, "issues", "staging"),
        "unavailable",
        "denied inside a server glob"
    );
    assert_eq!(status(&v, "teams", "staging"), "available");
    // A deny holds in every profile that extends the one that says it.
    assert_eq!(status(&v, "refund", "later"), "unavailable");
}

#[test]
fn host_key_brings_the_host_vocabulary() {
    let dir = tree(&[
        (
            ".github/agents/coder.agent.md",
            &agent("tools: [edit, codebase, 'kusto/*']\n"),
        ),
        (
            "env/prod.json",
            r#"{"name": "prod", "host": "vscode", "servers": {"kusto": {"tools": ["run_query"]}}}"#,
        ),
        (
            "env/mcp.json",
            r#"{"name": "mcp", "servers": {"kusto": {"tools": ["run_query"]}}}"#,
        ),
    ]);
    let (v, _) = run(dir.path(), &["env/prod.json", "env/mcp.json"]);
    assert_eq!(status(&v, "coder", "prod"), "available");
    // The host's rename is reported on the composed profile.
    let renamed = messages(&v, "SA701");
    assert_eq!(renamed.len(), 1, "{renamed:?}");
    assert!(
        renamed[0].contains("renamed on profile `prod`"),
        "{renamed:?}"
    );
    // Without a host, `edit` and `codebase` are the agent's host's to provide: not judged.
    assert_eq!(status(&v, "coder", "mcp"), "available");
}

#[test]
fn composition_errors_name_the_file_and_the_entry() {
    let dir = tree(&[
        ("skills/a/SKILL.md", &skill_md("a", "")),
        (
            "env/missing.json",
            "{\n  \"extends\": [\n    \"nowhere.json\"\n  ]\n}",
        ),
        ("env/cycle-a.json", r#"{"extends": ["cycle-b.json"]}"#),
        ("env/cycle-b.json", r#"{"extends": ["cycle-a.json"]}"#),
        ("env/builtin.json", r#"{"extends": ["builtin:nope"]}"#),
        ("env/host.json", r#"{"host": "notepad"}"#),
        (
            "env/from.json",
            r#"{"servers": {"kusto": {"from": "gone.json"}}}"#,
        ),
        ("env/broken.json", r#"{"extends": ["bad.json"]}"#),
        ("env/bad.json", "{\"tools\": [1]}"),
        ("env/glob.json", r#"{"deny": ["a["]}"#),
    ]);
    let root = dir.path();
    let e = usage_error(root, "env/missing.json");
    assert!(
        e.contains("env/missing.json:3:5") && e.contains("`extends` entry `nowhere.json`"),
        "{e}"
    );
    let e = usage_error(root, "env/cycle-a.json");
    assert!(
        e.contains("cycle") && e.contains("cycle-a.json → cycle-b.json → cycle-a.json"),
        "{e}"
    );
    let e = usage_error(root, "env/builtin.json");
    assert!(
        e.contains("builtin:nope") && e.contains("builtin:vscode"),
        "{e}"
    );
    let e = usage_error(root, "env/host.json");
    assert!(
        e.contains("`notepad` is not a built-in host")
            && e.contains("env/host.json:1:")
            && e.contains("known: claude-code, ")
            && !e.contains("builtin:"),
        "`host` takes a bare name: {e}"
    );
    let e = usage_error(root, "env/from.json");
    assert!(
        e.contains("`servers.kusto.from` `gone.json`") && e.contains("cannot read"),
        "{e}"
    );
    let e = usage_error(root, "env/broken.json");
    assert!(
        e.contains("`extends` entry `bad.json`") && e.contains("bad.json:1:"),
        "{e}"
    );
    let e = usage_error(root, "env/glob.json");
    assert!(e.contains("not a valid glob"), "{e}");
}

#[test]
fn agents_are_judged_only_by_hosts_that_load_them() {
    let dir = tree(&[
        (
            ".github/agents/coder.agent.md",
            &agent("tools: [think, edit]\n"),
        ),
        (
            ".github/agents/web.agent.md",
            &agent("tools: [edit]\ntarget: github-copilot\n"),
        ),
        (
            ".claude/agents/helper.md",
            &agent("name: helper\ntools: Read, Frobnicate\n"),
        ),
    ]);
    let (v, _) = run(
        dir.path(),
        &[
            "builtin:vscode",
            "builtin:claude-code",
            "builtin:github-copilot",
        ],
    );
    assert_eq!(status(&v, "coder", "claude-code"), "not-loaded");
    assert_eq!(status(&v, "coder", "vscode"), "partial");
    assert_eq!(status(&v, "helper", "github-copilot"), "not-loaded");
    assert_eq!(status(&v, "helper", "claude-code"), "partial");
    assert_eq!(status(&v, "web", "vscode"), "not-loaded", "target");
    assert_eq!(status(&v, "web", "github-copilot"), "available");
    for rule in ["SA402", "SA403", "SA701", "SA702"] {
        for m in messages(&v, rule) {
            assert!(
                !(m.contains("claude-code") && m.contains("think")),
                "{rule}: {m}"
            );
        }
    }
    let unknown = messages(&v, "SA702");
    assert!(
        unknown
            .iter()
            .any(|m| m.contains("`Frobnicate`") && m.contains("claude-code")),
        "{unknown:?}"
    );
    assert!(
        !unknown
            .iter()
            .any(|m| m.contains("`think`") && m.contains("claude-code")),
        "{unknown:?}"
    );
}

#[test]
fn agent_statuses_partial_unavailable_and_absent_servers() {
    let dir = tree(&[
        (
            ".github/agents/half.agent.md",
            &agent("tools: [kusto/run_query, kusto/drop]\n"),
        ),
        (
            ".github/agents/none.agent.md",
            &agent("tools: [slack/post]\n"),
        ),
        (
            ".github/agents/server.agent.md",
            &agent(
                "tools: [read]\nmcp-servers:\n  slack:\n    type: stdio\n    command: slack-mcp\n",
            ),
        ),
        (".github/agents/open.agent.md", &agent("")),
        (
            "env/prod.json",
            r#"{"name": "prod", "host": "vscode", "servers": {"kusto": {"tools": ["run_query"]}}}"#,
        ),
        (
            "env/gh.json",
            r#"{"name": "gh", "host": "github-copilot", "servers": {"kusto": {"tools": ["run_query"]}}}"#,
        ),
    ]);
    let (v, _) = run(dir.path(), &["env/prod.json", "env/gh.json"]);
    assert_eq!(status(&v, "half", "prod"), "partial");
    assert_eq!(missing(&v, "half", "prod"), ["kusto/drop"]);
    assert_eq!(status(&v, "none", "prod"), "unavailable");
    // VS Code does not start an agent's own servers; GitHub Copilot does.
    assert_eq!(status(&v, "server", "prod"), "unavailable");
    assert_eq!(status(&v, "server", "gh"), "available");
    assert_eq!(status(&v, "open", "prod"), "undeclared");
    let partial = messages(&v, "SA403");
    assert_eq!(partial.len(), 2, "{partial:?}");
    assert!(
        partial
            .iter()
            .all(|m| m.contains("without `kusto/drop`: the host drops it")),
        "{partial:?}"
    );
    let unavailable = messages(&v, "SA402");
    assert!(
        unavailable
            .iter()
            .any(|m| m.contains("no MCP server `slack`")),
        "{unavailable:?}"
    );
    // The partial finding points at the missing item, not at the start of the list.
    let f = arr(&v, "findings")
        .iter()
        .find(|f| f["rule"] == "SA403" && f["path"].as_str().unwrap().contains("half"))
        .unwrap();
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(3), Some(26))
    );
}

#[test]
fn a_profile_without_a_host_speaks_for_the_mcp_side_only() {
    let (a, ta) = needs("reader", "[Read, kusto/run_query]");
    let (b, tb) = needs("thinker", "[frobnicate]");
    let dir = tree(&[
        (&a, &ta),
        (&b, &tb),
        (
            ".github/agents/coder.agent.md",
            &agent("tools: [read, search/codebase, kusto/run_query, kusto/drop]\n"),
        ),
        (
            "env/kusto.json",
            r#"{"name": "kusto", "servers": {"kusto": {"tools": ["run_query"]}}}"#,
        ),
    ]);
    let (v, _) = run(dir.path(), &["env/kusto.json"]);
    assert_eq!(status(&v, "reader", "kusto"), "available");
    assert_eq!(
        status(&v, "thinker", "kusto"),
        "unavailable",
        "no host defines it"
    );
    assert_eq!(status(&v, "coder", "kusto"), "partial");
    assert_eq!(missing(&v, "coder", "kusto"), ["kusto/drop"]);
    assert!(messages(&v, "SA702").is_empty());
}

#[test]
fn a_nested_capture_is_a_server_import() {
    let (a, ta) = needs("q", "[kusto/run_query]");
    let dir = tree(&[
        (&a, &ta),
        (
            "env/kusto.json",
            r#"{"name": "kusto", "server": {"name": "k"}, "servers": {"kusto": {"tools": ["run_query"]}}}"#,
        ),
        (
            "env/prod.json",
            r#"{"name": "prod", "host": "vscode", "servers": {"kusto": {"from": "kusto.json"}}}"#,
        ),
    ]);
    let (v, _) = run(dir.path(), &["env/prod.json"]);
    assert_eq!(status(&v, "q", "prod"), "available");
}

#[test]
fn vscode_maps_claude_tool_names_of_claude_agents() {
    let dir = tree(&[
        (
            ".claude/agents/mapped.md",
            &agent("name: mapped\ntools: Read, Grep, Glob, Bash, Edit, WebFetch\n"),
        ),
        (
            ".claude/agents/skiller.md",
            &agent("name: skiller\ntools: Read, Skill\n"),
        ),
        (".github/agents/plain.agent.md", &agent("tools: [Read]\n")),
    ]);
    let (v, _) = run(dir.path(), &["builtin:vscode", "builtin:claude-code"]);
    assert_eq!(status(&v, "mapped", "vscode"), "available");
    assert_eq!(status(&v, "mapped", "claude-code"), "available");
    // `Skill` is a Claude Code tool VS Code maps to nothing of its own.
    assert_eq!(status(&v, "skiller", "vscode"), "partial");
    assert_eq!(missing(&v, "skiller", "vscode"), ["Skill"]);
    let unknown = messages(&v, "SA702");
    assert!(
        unknown.iter().any(|m| m
            == "`Skill` is a claude-code tool that profile `vscode` does not map to one of its own; it will be silently dropped"),
        "{unknown:?}"
    );
    // An `.agent.md` naming Claude tools is mapped the same way.
    assert_eq!(status(&v, "plain", "vscode"), "available");
}

#[test]
fn a_partial_agent_counts_the_names_its_host_does_not_know() {
    let dir = tree(&[(
        ".github/agents/planner.agent.md",
        &agent("tools: [edit, think, codebase, usages, ms-python.python/installPythonPackage]\n"),
    )]);
    let (v, _) = run(dir.path(), &["builtin:github-copilot"]);
    // `codebase` and `usages` are VS Code's legacy names and `think` one it retired: SA702
    // reports each, and SA403, naming the environment's gap (an extension's tool), says the
    // agent also runs without them.
    assert_eq!(
        messages(&v, "SA702").len(),
        3,
        "{:?}",
        messages(&v, "SA702")
    );
    assert_eq!(
        messages(&v, "SA403"),
        [
            "agent runs on profile `github-copilot` without `ms-python.python/installPythonPackage` and 3 names it does not know (SA702): the host drops them"
        ]
    );
}

#[test]
fn a_profile_is_named_as_every_name_is_quoted() {
    let dir = tree(&[
        (
            ".github/agents/a.agent.md",
            &agent("tools: [codebase, think]\n"),
        ),
        ("env/p.json", r#"{"name": "a`b|c", "host": "vscode"}"#),
    ]);
    let (v, _) = run(dir.path(), &["env/p.json"]);
    // A backtick in the name would end a one-backtick span early: the fence is longer.
    for rule in ["SA701", "SA702"] {
        let m = messages(&v, rule);
        assert!(
            m.iter().all(|m| m.contains("on profile `` a`b|c ``")),
            "{m:?}"
        );
    }
}

#[test]
fn one_cause_gives_one_finding() {
    let dir = tree(&[
        (
            ".github/agents/coder.agent.md",
            &agent("tools: [edit, think, slack/post]\n"),
        ),
        (
            ".github/agents/odd.agent.md",
            &agent("tools: [edit, frobnicate]\n"),
        ),
    ]);
    let (v, _) = run(dir.path(), &["builtin:vscode", "builtin:github-copilot"]);
    // On VS Code `think` is a retired name of the host: SA702 says so, and the
    // agent is partial without a second finding for the same name.
    assert_eq!(status(&v, "coder", "vscode"), "partial");
    assert_eq!(missing(&v, "coder", "vscode"), ["think"]);
    let unknown = messages(&v, "SA702");
    assert!(
        unknown.iter().any(|m| m
            == "`think` is a retired or hidden tool on profile `vscode`, not one a tools list can name; it will be silently dropped"),
        "{unknown:?}"
    );
    // builtin:vscode lists no servers, so for a name VS Code never had the message leaves
    // room for one, or for an extension: VS Code takes their tools by bare name too. The
    // cell does not call it missing.
    assert!(
        unknown.iter().any(|m| m
            == "`frobnicate` is not a tool profile `vscode` has built in; unless an extension or an MCP server of the environment provides it, it will be silently dropped"),
        "{unknown:?}"
    );
    assert_eq!(status(&v, "odd", "vscode"), "available");
    let partial = messages(&v, "SA403");
    assert!(
        !partial.iter().any(|m| m.contains("`vscode`")),
        "{partial:?}"
    );
    // GitHub Copilot takes a server's tool only as `server/tool`, so a bare name it does not
    // know (VS Code's retired `think`, `frobnicate`) is SA702's alone, with no second
    // finding; a server it does not list may be one the repository's settings start: not
    // judged.
    assert_eq!(missing(&v, "coder", "github-copilot"), ["think"]);
    for name in ["think", "frobnicate"] {
        let want = format!(
            "`{name}` is not a tool profile `github-copilot` knows; it will be silently dropped"
        );
        assert!(unknown.contains(&want), "{unknown:?}");
    }
    assert!(
        !partial.iter().any(|m| m.contains("github-copilot")),
        "{partial:?}"
    );
}

/// A FIFO named by `extends` is refused at once, never opened for reading (which would hang).
#[cfg(unix)]
#[test]
fn a_fifo_named_by_extends_is_refused() {
    let dir = tree(&[
        ("skills/a/SKILL.md", &skill_md("a", "")),
        ("env/p.json", r#"{"extends": ["pipe.json"]}"#),
    ]);
    let fifo = dir.path().join("env/pipe.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let e = usage_error(dir.path(), "env/p.json");
    assert!(
        e.contains("`extends` entry `pipe.json`") && e.contains("not a regular file"),
        "{e}"
    );
}

/// Machine keys load through `extends` and `deny`; a bad OS or a variable's value is a usage
/// error at the entry.
#[test]
fn machine_profiles_load_and_bad_entries_are_placed() {
    let dir = tree(&[
        ("skills/a/SKILL.md", &skill_md("a", "")),
        (
            "env/base.json",
            r#"{"os": "linux", "bins": ["git"], "env": ["HOME"], "packages": {"Requests": "2.32.3"}}"#,
        ),
        (
            "env/machine.json",
            r#"{"name": "laptop", "extends": ["base.json"], "os": ["macos", "darwin"],
                "config": ["browser.enabled"], "deny": {"bins": ["git"], "tools": ["x"]}}"#,
        ),
        (
            "env/bad-os.json",
            "{\n  \"os\": [\"linux\",\n         \"solaris\"]\n}",
        ),
        ("env/value.json", "{\"env\": [\"HOME\", \"TOKEN=hunter2\"]}"),
        ("env/deny.json", "{\"deny\": {\"widgets\": []}}"),
    ]);
    let (v, code) = run(dir.path(), &["env/machine.json"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(status(&v, "a", "laptop"), "needs-nothing");
    let e = usage_error(dir.path(), "env/bad-os.json");
    assert!(
        e.contains("env/bad-os.json:3:10: `os` entry `solaris` is not an OS"),
        "{e}"
    );
    let e = usage_error(dir.path(), "env/value.json");
    assert!(
        e.contains("env/value.json:1:18: `env` entry `TOKEN=…`") && e.contains("names only"),
        "{e}"
    );
    assert!(!e.contains("hunter2"), "{e}");
    let e = usage_error(dir.path(), "env/deny.json");
    assert!(
        e.contains("env/deny.json:1:") && e.contains("unknown field `widgets`"),
        "{e}"
    );
}
