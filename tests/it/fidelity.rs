//! Classes of input that made findings wrong or half true (docs/fidelity.md), each with a case
//! that must be reported and one that must not.

use crate::common::*;
use serde_json::Value;

/// The status of the skill or agent at `path` (in `list`: `skills`, `agents`) on `profile`.
fn status<'a>(report: &'a Value, list: &str, path: &str, profile: &str) -> &'a str {
    let entry = arr(report, list)
        .iter()
        .find(|e| e["path"] == path)
        .unwrap_or_else(|| panic!("{path} not in {}", report[list]));
    s(&entry["availability"][profile], "status")
}

fn machine_profile(root: &std::path::Path) {
    write(
        root,
        "laptop.json",
        r#"{"name": "laptop", "os": ["linux"], "bins": ["git"], "env": []}"#,
    );
}

#[test]
fn skill_tools_in_claude_words_are_mapped_by_vscode() {
    let claude = skill_md("claude-tools", "tools: Read, Glob, Grep, Bash\n");
    let unmapped = skill_md("unmapped", "tools: [Read, computer]\n");
    let vscode_words = skill_md("vscode-words", "tools: [search/codebase, nosuchtool]\n");
    let tmp = tree(&[
        ("skills/claude-tools/SKILL.md", claude.as_str()),
        ("skills/unmapped/SKILL.md", unmapped.as_str()),
        ("skills/vscode-words/SKILL.md", vscode_words.as_str()),
    ]);
    let (r, _) = json_run(
        tmp.path(),
        &[
            "-p",
            "builtin:vscode",
            "-p",
            "builtin:claude-code",
            "-p",
            "builtin:github-copilot",
            ".",
        ],
    );
    for p in ["vscode", "claude-code", "github-copilot"] {
        assert_eq!(
            status(&r, "skills", "skills/claude-tools/SKILL.md", p),
            "available",
            "{p}: Claude Code's names are mapped by the other hosts"
        );
        // `computer` is no host's tool: not judged, and reported once, not once per profile.
        // `Read` is judged, so the cell is, and its reason names what was not.
        assert_eq!(
            status(&r, "skills", "skills/unmapped/SKILL.md", p),
            "available",
            "{p}"
        );
        let entry = r["skills"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["path"] == "skills/unmapped/SKILL.md")
            .unwrap();
        let reason = entry["availability"][p]["reason"].as_str().unwrap_or("");
        assert!(
            reason.contains("not judged here: tool `computer`"),
            "{p}: {reason}"
        );
        // A name no host defines leaves the rest judged: `search/codebase` is VS Code's, no
        // server's, and neither Claude Code's nor GitHub Copilot's.
        assert_eq!(
            status(&r, "skills", "skills/vscode-words/SKILL.md", p),
            if p == "vscode" {
                "available"
            } else {
                "unavailable"
            },
            "{p}"
        );
    }
    let undefined: Vec<&Value> = arr(&r, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA326")
        .collect();
    let at: Vec<(&str, i64)> = undefined
        .iter()
        .map(|f| (s(f, "path"), f["line"].as_i64().unwrap()))
        .collect();
    assert_eq!(
        at,
        [
            ("skills/unmapped/SKILL.md", 4),
            ("skills/vscode-words/SKILL.md", 4)
        ],
        "{undefined:?}"
    );
    assert!(s(undefined[0], "message").contains("`computer`"));
    assert!(
        !rules_for(&r, "skills/claude-tools/SKILL.md").contains(&"SA326".to_owned()),
        "Claude Code's tools are a host's tools"
    );
}

#[test]
fn a_machine_profile_does_not_judge_tools() {
    let tools = skill_md("needs-github", "tools: ['github/*', Read]\n");
    let bins = skill_md(
        "needs-jq",
        "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"jq\"]}}}\n",
    );
    let tmp = tree(&[
        ("skills/needs-github/SKILL.md", tools.as_str()),
        ("skills/needs-jq/SKILL.md", bins.as_str()),
        (
            "agents/reviewer.agent.md",
            "---\ndescription: Reviews.\ntools: ['github/*', read]\n---\nReview.\n",
        ),
    ]);
    machine_profile(tmp.path());
    let (r, _) = json_run(
        tmp.path(),
        &["-p", "builtin:vscode", "-p", "laptop.json", "."],
    );
    assert_eq!(
        status(&r, "skills", "skills/needs-github/SKILL.md", "laptop"),
        "not-judged"
    );
    assert_eq!(
        status(&r, "agents", "agents/reviewer.agent.md", "laptop"),
        "not-judged"
    );
    // What the machine profile does describe is still judged.
    assert_eq!(
        status(&r, "skills", "skills/needs-jq/SKILL.md", "laptop"),
        "unavailable"
    );
    let on_laptop: Vec<&Value> = arr(&r, "findings")
        .iter()
        .filter(|f| s(f, "message").contains("`laptop`"))
        .collect();
    assert_eq!(on_laptop.len(), 1, "{on_laptop:?}");
    assert_eq!(s(on_laptop[0], "path"), "skills/needs-jq/SKILL.md");
    // A host combined with the machine by `extends` judges both.
    write(
        tmp.path(),
        "both.json",
        r#"{"name": "both", "extends": ["builtin:vscode", "laptop.json"]}"#,
    );
    let (r, _) = json_run(tmp.path(), &["-p", "both.json", "."]);
    assert_eq!(
        status(&r, "skills", "skills/needs-jq/SKILL.md", "both"),
        "unavailable"
    );
    assert_eq!(
        status(&r, "agents", "agents/reviewer.agent.md", "both"),
        "available"
    );
}

#[test]
fn a_skill_tool_one_profile_has_is_judged_on_every_profile() {
    let uses = skill_md("uses-pdftool", "tools: [pdftool]\n");
    let tmp = tree(&[
        ("skills/uses-pdftool/SKILL.md", uses.as_str()),
        (
            "prod.json",
            r#"{"name": "prod", "host": "vscode", "servers": {"pdf": {"tools": ["pdftool"]}}}"#,
        ),
        ("plain.json", r#"{"name": "plain", "host": "vscode"}"#),
    ]);
    let (r, _) = json_run(tmp.path(), &["-p", "prod.json", "-p", "plain.json", "."]);
    let path = "skills/uses-pdftool/SKILL.md";
    assert_eq!(status(&r, "skills", path, "prod"), "available");
    // A VS Code profile that lists no servers cannot say: an extension or a server may
    // provide the name.
    assert_eq!(status(&r, "skills", path, "plain"), "not-judged");
    assert!(!rules_for(&r, path).contains(&"SA326".to_owned()));
    let gh = tmp.path().join("gh.json");
    std::fs::write(&gh, r#"{"name": "gh", "host": "github-copilot"}"#).unwrap();
    let (r, _) = json_run(tmp.path(), &["-p", "prod.json", "-p", "gh.json", "."]);
    assert_eq!(status(&r, "skills", path, "gh"), "unavailable");
    // Alone, the plain host cannot say what `pdftool` is.
    let (r, _) = json_run(tmp.path(), &["-p", "plain.json", "."]);
    assert_eq!(status(&r, "skills", path, "plain"), "not-judged");
    assert_eq!(rules_for(&r, path), ["SA326"]);
}

#[test]
fn a_skill_md_inside_another_skills_folder_is_a_file_of_that_skill() {
    let outer = skill_md("qdrant-scaling", "").replace(
        "# qdrant-scaling\n",
        "# Scaling\nSee [latency](minimize-latency/SKILL.md).\n",
    );
    let tmp = tree(&[
        ("skills/qdrant-scaling/SKILL.md", outer.as_str()),
        // A name that is not its folder's, no description, a broken link: only the link holds.
        (
            "skills/qdrant-scaling/minimize-latency/SKILL.md",
            "---\nname: qdrant-latency\n---\n# Latency\nSee [the guide](guide.md).\n",
        ),
        // No frontmatter at all: a section of the outer skill, not a skill missing one.
        ("skills/qdrant-scaling/notes/SKILL.md", "# Notes\n"),
        // A section's section is a file of the outermost skill.
        (
            "skills/qdrant-scaling/notes/deeper/SKILL.md",
            "---\nname: deeper\n---\n# Deeper\n",
        ),
        // Below a `skills` folder of its own: a skill.
        (
            "skills/bundle/skills/inner/SKILL.md",
            skill_md("inner", "").as_str(),
        ),
        ("skills/bundle/SKILL.md", skill_md("bundle", "").as_str()),
    ]);
    let (r, _) = json_run(tmp.path(), &["."]);
    let paths: Vec<&str> = arr(&r, "skills")
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "skills/bundle/SKILL.md",
            "skills/bundle/skills/inner/SKILL.md",
            "skills/qdrant-scaling/SKILL.md"
        ]
    );
    assert_eq!(
        rules_for(&r, "skills/qdrant-scaling/minimize-latency/SKILL.md"),
        ["SA114", "SA231"]
    );
    assert_eq!(
        rules_for(&r, "skills/qdrant-scaling/notes/SKILL.md"),
        ["SA114"]
    );
    let f = arr(&r, "findings")
        .iter()
        .find(|f| f["rule"] == "SA114")
        .unwrap();
    assert!(
        s(f, "message").contains("`skills/qdrant-scaling/SKILL.md`"),
        "{f}"
    );
    assert_eq!(f["severity"], "info");
    assert!(rules_for(&r, "skills/qdrant-scaling/SKILL.md").is_empty());
    // Every file is counted.
    assert!(
        arr(&r, "findings")
            .iter()
            .filter(|f| f["rule"] == "SA114")
            .all(|f| s(f, "message").contains("`skills/qdrant-scaling/SKILL.md`")),
        "{}",
        r["findings"]
    );
    assert_eq!(r["summary"]["files_scanned"], 6);
}

/// SA102 names the hosts that load a skill without a frontmatter all the same, as the matrix
/// judges it.
#[test]
fn a_skill_without_a_frontmatter_names_the_hosts_that_still_load_it() {
    let tmp = tree(&[
        ("skills/plain/SKILL.md", "# Plain\nJust text.\n"),
        ("skills/cased/skill.md", "# Cased\nJust text.\n"),
    ]);
    let (r, _) = json_run(
        tmp.path(),
        &["-p", "builtin:vscode", "-p", "builtin:codex", "."],
    );
    let plain = "skills/plain/SKILL.md";
    assert_eq!(status(&r, "skills", plain, "vscode"), "needs-nothing");
    assert_eq!(status(&r, "skills", plain, "codex"), "not-loaded");
    let f = arr(&r, "findings")
        .iter()
        .find(|f| f["rule"] == "SA102" && f["path"] == plain)
        .unwrap();
    assert_eq!(
        s(f, "message"),
        "no YAML frontmatter: the first line of a skill file must be `---`, followed by `name` and `description`; Claude Code and VS Code still load it, with none of its fields; Codex, Copilot CLI, Cursor, Gemini CLI, GitHub Copilot, OpenClaw and OpenCode skip it"
    );
    // Another casing of the name: on Linux no host finds it (SA108 says so).
    let cased = arr(&r, "findings")
        .iter()
        .find(|f| f["rule"] == "SA102" && f["path"] == "skills/cased/skill.md")
        .unwrap();
    assert_eq!(
        s(cased, "message"),
        "no YAML frontmatter: the first line of a skill file must be `---`, followed by `name` and `description`"
    );
}

#[test]
fn a_frontmatter_that_is_not_yaml_is_judged_as_each_host_reads_it() {
    let tmp = tree(&[(
        "skills/colon/SKILL.md",
        "---\nname: colon\ndescription: Use when: the user asks\n---\n# Colon\n",
    )]);
    write(
        tmp.path(),
        "skills/binary/SKILL.md",
        b"---\nname: bin\xff\n---\n",
    );
    let (r, _) = json_run(
        tmp.path(),
        &[
            "-p",
            "builtin:claude-code",
            "-p",
            "builtin:vscode",
            "-p",
            "builtin:github-copilot",
            ".",
        ],
    );
    let colon = "skills/colon/SKILL.md";
    // Loaded with none of its fields, its body runs nothing: it needs nothing there.
    assert_eq!(status(&r, "skills", colon, "claude-code"), "needs-nothing");
    assert_eq!(status(&r, "skills", colon, "vscode"), "needs-nothing");
    // GitHub's cloud agent reads it as the Copilot CLI, whose harness it runs: not loaded.
    assert_eq!(status(&r, "skills", colon, "github-copilot"), "not-loaded");
    let f = arr(&r, "findings")
        .iter()
        .find(|f| f["rule"] == "SA104")
        .unwrap();
    // What to do comes first: the fix is not shown in every format.
    assert!(
        s(f, "message").contains(
            "; quote the value of `description`, whose `: ` starts a mapping; hosts differ: VS Code loads the skill; Claude Code loads it without its fields; Gemini CLI and OpenClaw read its `key: value` lines instead; OpenCode parses it again with colons quoted; strict YAML readers (skills-ref, Codex, Copilot CLI, Cursor, GitHub Copilot) drop it"
        ),
        "{f}"
    );
    // A file that is not text is no skill on any host.
    let binary = "skills/binary/SKILL.md";
    assert_eq!(status(&r, "skills", binary, "claude-code"), "invalid");
}

#[test]
fn a_link_to_a_sibling_skill_kept_under_another_category_resolves() {
    let a = skill_md("a", "").replace(
        "# a\n",
        "# a\nRun [the helper](../b/scripts/x.py), then see [notes](../c/notes.md).\n",
    );
    let tmp = tree(&[
        ("skills/cat1/a/SKILL.md", a.as_str()),
        ("skills/cat2/b/SKILL.md", skill_md("b", "").as_str()),
        ("skills/cat2/b/scripts/x.py", "print('x')\n"),
    ]);
    let (r, _) = json_run(tmp.path(), &["."]);
    let broken = messages(&r, "SA231");
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert!(broken[0].contains("`../c/notes.md`"), "{broken:?}");
}

#[test]
fn example_paths_of_a_skill_writing_skill_are_not_its_files() {
    let body = "# Writing a skill\n\
        Keep it short and move detail into files, for example `references/api.md`.\n\
        For example, write: See [the API reference](references/api.md) for every endpoint.\n\
        Read [the style guide](references/style.md) before you start.\n\
        \n\
        ## Example\n\
        \n\
        > Read [FORMS.md](FORMS.md) before filling a form.\n";
    let skill = skill_md("skill-writer", "").replace("# skill-writer\n", body);
    let tmp = tree(&[("skills/skill-writer/SKILL.md", skill.as_str())]);
    let (r, _) = json_run(tmp.path(), &["."]);
    let found: Vec<(&str, i64)> = arr(&r, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA231" || f["rule"] == "SA232")
        .map(|f| (s(f, "rule"), f["line"].as_i64().unwrap()))
        .collect();
    // Only the instruction to read a file the skill lacks.
    assert_eq!(found, [("SA231", 8)]);
}

#[test]
fn a_skill_key_in_an_agent_is_named_as_such_not_as_a_typo() {
    let tmp = tree(&[(
        "agents/planner.agent.md",
        "---\ndescription: Plans.\nagent: agent\ntoolz: [read]\n---\nPlan.\n",
    )]);
    let (r, _) = json_run(tmp.path(), &["."]);
    let messages = messages(&r, "SA502");
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].contains("`agent` is a key of prompt files (`.prompt.md`) and SKILL.md"),
        "{messages:?}"
    );
    assert!(!messages[0].contains("did you mean"), "{messages:?}");
    assert!(
        messages[1].contains("did you mean `tools`?"),
        "{messages:?}"
    );
}

/// `(line, column)` of each finding of `rule` on `path`.
fn places(report: &Value, rule: &str, path: &str) -> Vec<(i64, i64)> {
    arr(report, "findings")
        .iter()
        .filter(|f| f["rule"] == rule && f["path"] == path)
        .map(|f| (f["line"].as_i64().unwrap(), f["column"].as_i64().unwrap()))
        .collect()
}

#[test]
fn an_unknown_handoff_or_sub_agent_points_at_its_name() {
    let tmp = tree(&[
        (
            "agents/lead.agent.md",
            "---\ndescription: Leads.\ntools: [agent]\nhandoffs:\n  - label: Plan\n    agent: planner\n    prompt: Plan it\n  - label: Build\n    prompt: Build it\n    agent:   builder\nagents:\n  - planner\n  - tester\n---\nLead.\n",
        ),
        (
            "agents/planner.agent.md",
            "---\ndescription: Plans.\n---\nPlan.\n",
        ),
    ]);
    let (r, _) = json_run(tmp.path(), &["-p", "builtin:vscode", "."]);
    // `planner` exists: only `builder` (line 10, after the extra spaces) and `tester` are named.
    assert_eq!(
        places(&r, "SA504", "agents/lead.agent.md"),
        [(10, 14), (13, 5)],
        "{}",
        r["findings"]
    );
    assert!(places(&r, "SA504", "agents/planner.agent.md").is_empty());
}

#[test]
fn a_marketplace_source_inside_the_tree_is_not_remote() {
    let marketplace = r#"{
  "name": "m",
  "plugins": [
    {"name": "root", "source": {"source": "./"}, "skills": ["./skills/k"]},
    {"name": "dot", "source": {"source": "."}},
    {"name": "sub", "source": {"source": "./plugins/c"}, "skills": ["./skills/gone"]},
    {"name": "plain", "source": "./"},
    {"name": "up", "source": {"source": "../other"}},
    {"name": "up-plain", "source": "../other"},
    {"name": "gh", "source": {"source": "github", "repo": "o/r"}}
  ]
}
"#;
    let k = skill_md("k", "");
    let tmp = tree(&[
        (".claude-plugin/marketplace.json", marketplace),
        ("skills/k/SKILL.md", k.as_str()),
        ("plugins/c/README.md", "# c\n"),
    ]);
    let (r, _) = json_run(tmp.path(), &["."]);
    let line = |n: &str| {
        marketplace
            .lines()
            .position(|l| l.contains(&format!("\"{n}\"")))
            .unwrap() as i64
            + 1
    };
    let noted: Vec<(i64, &str)> = arr(&r, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA607")
        .map(|f| (f["line"].as_i64().unwrap(), s(f, "message")))
        .collect();
    assert_eq!(
        noted,
        [
            (
                line("up"),
                "plugin `up` comes from `../other`, above the marketplace's root; it is not audited locally: audit a checkout of that source on its own"
            ),
            (
                line("up-plain"),
                "plugin `up-plain` comes from `../other`, above the marketplace's root; it is not audited locally: audit a checkout of that source on its own"
            ),
            (
                line("gh"),
                "plugin `gh` comes from github `o/r`, outside this tree; it is not audited locally: audit a checkout of that source on its own"
            ),
        ],
        "{}",
        r["findings"]
    );
    // A path in the tree is resolved: its skills are checked like a string source's.
    let missing = messages(&r, "SA602");
    assert_eq!(missing.len(), 1, "{missing:?}");
    assert!(missing[0].contains("`./skills/gone`"), "{missing:?}");
}

#[test]
fn the_drift_fix_grants_the_any_member_the_profiles_have() {
    let skill = skill_md(
        "refund",
        "dependencies:\n  tools:\n    all: [get_order]\n    any: [dispute_chargeback, dispute_chargeback_v2]\n",
    );
    let tmp = tree(&[
        ("skills/refund/SKILL.md", skill.as_str()),
        (
            "agents/refunds.agent.md",
            "---\ndescription: Refunds.\ntools: [get_order]\n---\nFollow [the workflow](../skills/refund/SKILL.md).\n",
        ),
        (
            "v1.json",
            r#"{"name": "v1", "tools": ["get_order", "dispute_chargeback"]}"#,
        ),
        (
            "v2.json",
            r#"{"name": "v2", "tools": ["get_order", "dispute_chargeback_v2"]}"#,
        ),
        (
            "v2b.json",
            r#"{"name": "v2b", "tools": ["get_order", "dispute_chargeback_v2"]}"#,
        ),
    ]);
    let fix = |profiles: &[&str]| -> String {
        let mut args: Vec<&str> = profiles.iter().flat_map(|p| ["-p", p]).collect();
        args.push(".");
        let (r, _) = json_run(tmp.path(), &args);
        let drift: Vec<&Value> = arr(&r, "findings")
            .iter()
            .filter(|f| f["rule"] == "SA603")
            .collect();
        assert_eq!(drift.len(), 1, "{profiles:?}: {}", r["findings"]);
        s(&drift[0]["fix"], "message").to_owned()
    };
    let add = |name: &str| format!("add `{name}` to `tools`");
    assert_eq!(
        fix(&["v1.json", "v2.json", "v2b.json"]),
        add("dispute_chargeback_v2")
    );
    assert_eq!(fix(&["v2.json"]), add("dispute_chargeback_v2"));
    assert_eq!(fix(&["v1.json"]), add("dispute_chargeback"));
    // A tie, or no profile that has either: the first of the group.
    assert_eq!(fix(&["v1.json", "v2.json"]), add("dispute_chargeback"));
    assert_eq!(fix(&["builtin:vscode"]), add("dispute_chargeback"));
}

/// The example library: its chargebacks agent, on two profiles with the v2 API and one with v1.
#[test]
fn the_example_drift_fix_grants_the_v2_api() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let (r, _) = json_run(
        root,
        &[
            "-p",
            "examples/profiles/dev.json",
            "-p",
            "examples/profiles/prod.json",
            "-p",
            "examples/profiles/staging.json",
            "--fail-on",
            "never",
            "examples/library",
        ],
    );
    let fix = arr(&r, "findings")
        .iter()
        .find(|f| {
            f["rule"] == "SA603" && s(f, "path").ends_with("plugins/payments/agents/chargebacks.md")
        })
        .map(|f| s(&f["fix"], "message"))
        .unwrap_or_else(|| panic!("SA603 on chargebacks: {}", r["findings"]));
    // A Claude-format agent: the payments server's tools as Claude Code names them.
    assert_eq!(
        fix,
        "add `mcp__payments__get_check_details`, `mcp__payments__dispute_chargeback_v2` to `tools`"
    );
}

/// An agent on two VS Code profiles and on Claude Code, which does not load `.agent.md` files,
/// served by the language server.
fn reader_served() -> (tempfile::TempDir, std::path::PathBuf, crate::lsp::Client) {
    let agent = "---\ndescription: Reads.\ntools: [codebase, read]\n---\nRead.\n";
    let tmp = tree(&[
        (
            "skill-audit.toml",
            "profiles = [\"builtin:vscode\", \"prod.json\", \"builtin:claude-code\"]\n",
        ),
        ("prod.json", r#"{"name": "prod", "host": "vscode"}"#),
        ("agents/reader.agent.md", agent),
    ]);
    let root = tmp.path().canonicalize().unwrap();
    let path = root.join("agents/reader.agent.md");
    let mut c = crate::lsp::Client::start(&root, &[]);
    c.open(&path, agent);
    (tmp, path, c)
}

#[test]
fn the_language_server_offers_a_fix_repeated_per_profile_once() {
    let (_tmp, path, mut c) = reader_served();
    // `codebase` is renamed on both VS Code profiles: one action, for both diagnostics.
    let r = c.code_actions(&path, 2, 8, 16);
    let renames: Vec<&Value> = r["result"]
        .as_array()
        .unwrap_or_else(|| panic!("a list: {r}"))
        .iter()
        .filter(|a| a["kind"] == "quickfix" && s(a, "title").contains("search/codebase"))
        .collect();
    assert_eq!(renames.len(), 1, "{r}");
    assert_eq!(renames[0]["diagnostics"].as_array().map(Vec::len), Some(2));
    c.stop();
}

#[test]
fn the_language_server_hover_tells_not_loaded_from_missing() {
    let (_tmp, path, mut c) = reader_served();
    // `read`: Claude Code does not load `.agent.md` files, so it is not missing there.
    let text = c.hover_text(&path, 2, 19);
    assert!(
        text.contains("| `claude-code` | not loaded by this host |"),
        "{text}"
    );
    assert!(text.contains("| `vscode` | available"), "{text}");
    assert!(text.contains("| `prod` | available"), "{text}");
    c.stop();
}

/// A name VS Code may take from an extension is not called missing in the editor either;
/// on GitHub Copilot, a bare name no host defines is dropped.
#[test]
fn the_language_server_hover_tells_not_judged_from_missing() {
    let agent = "---\ndescription: Queries.\ntools: [mssql_connect]\n---\nQuery.\n";
    let tmp = tree(&[
        (
            "skill-audit.toml",
            "profiles = [\"builtin:vscode\", \"builtin:github-copilot\"]\n",
        ),
        ("agents/query.agent.md", agent),
    ]);
    let root = tmp.path().canonicalize().unwrap();
    let path = root.join("agents/query.agent.md");
    let mut c = crate::lsp::Client::start(&root, &[]);
    c.open(&path, agent);
    let text = c.hover_text(&path, 2, 10);
    assert!(
        text.contains("| `vscode` | not judged: an extension or an MCP server may provide it |"),
        "{text}"
    );
    assert!(
        text.contains(
            "| `github-copilot` | missing: not a tool of GitHub Copilot or of a server the profile lists |"
        ),
        "{text}"
    );
    c.stop();
}

#[test]
fn a_skill_for_openclaw_named_like_a_bundled_one_is_noted() {
    let gate = "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"curl\"]}}}\n";
    let weather = skill_md("weather", gate);
    // An emoji-only block still says the skill is meant for OpenClaw.
    let tmux = skill_md("tmux", "metadata:\n  clawdbot:\n    emoji: \"x\"\n");
    let renamed = skill_md("weather-brief", gate);
    // Written for other hosts: OpenClaw is not its audience.
    let github = skill_md("github", "");
    let tmp = tree(&[
        ("skills/weather/SKILL.md", weather.as_str()),
        ("skills/tmux/SKILL.md", tmux.as_str()),
        ("skills/weather-brief/SKILL.md", renamed.as_str()),
        ("skills/github/SKILL.md", github.as_str()),
    ]);
    let (r, _) = json_run(tmp.path(), &["."]);
    let noted: Vec<(&str, u64, u64)> = arr(&r, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA404")
        .map(|f| {
            (
                s(f, "path"),
                f["line"].as_u64().unwrap(),
                f["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        noted,
        [
            ("skills/tmux/SKILL.md", 2, 7),
            ("skills/weather/SKILL.md", 2, 7)
        ]
    );
    let m = &messages(&r, "SA404")[1];
    assert!(
        m.contains("OpenClaw bundles a skill named `weather`"),
        "{m}"
    );
    assert!(m.contains("rename it"), "{m}");
    // Audited for OpenClaw, every skill is one OpenClaw may load.
    let (r, _) = json_run(tmp.path(), &["-p", "builtin:openclaw", "."]);
    let noted: Vec<&str> = arr(&r, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA404")
        .map(|f| s(f, "path"))
        .collect();
    assert_eq!(
        noted,
        [
            "skills/github/SKILL.md",
            "skills/tmux/SKILL.md",
            "skills/weather/SKILL.md"
        ]
    );
}
