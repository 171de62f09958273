//! Agents, the links between agents and skills, drift, the agent rules (SA5xx), manifest and
//! link rules (SA6xx) and the built-in host profiles (SA7xx), on small libraries built in
//! temporary folders.

use crate::common::*;

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use skill_audit::profile::ProfileSource;
use skill_audit::{AuditOptions, Report};

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// An agent file with a description and `extra` frontmatter lines, then `body`.
fn agent_md(extra: &str, body: &str) -> String {
    format!("---\ndescription: An agent for tests.\n{extra}---\n{body}")
}

/// Audit `root` through the library API (paths shown relative to `root`) and return the JSON
/// view of the report.
fn audit_with(root: &Path, profiles: Vec<ProfileSource>) -> Value {
    let opts = AuditOptions {
        roots: vec![root.to_path_buf()],
        cwd: root.to_path_buf(),
        profiles,
        ..AuditOptions::default()
    };
    let result = skill_audit::run(&opts).expect("the audit runs");
    serde_json::to_value(Report::new(result)).expect("the report serialises")
}

fn audit(root: &Path) -> Value {
    audit_with(root, Vec::new())
}

/// Findings of `rule` on the file `path`.
fn findings_on<'a>(r: &'a Value, rule: &str, path: &str) -> Vec<&'a Value> {
    findings(r, rule)
        .into_iter()
        .filter(|f| s(f, "path") == path)
        .collect()
}

/// Every rule code found on `path`.
fn rules_on(r: &Value, path: &str) -> BTreeSet<String> {
    arr(r, "findings")
        .iter()
        .filter(|f| s(f, "path") == path)
        .map(|f| s(f, "rule").to_owned())
        .collect()
}

fn link(agent: &str, skill_path: &str, via: &str) -> (String, String, String) {
    (agent.to_owned(), skill_path.to_owned(), via.to_owned())
}

/// The agent entry with display path `path`.
fn agent<'a>(r: &'a Value, path: &str) -> &'a Value {
    arr(r, "agents")
        .iter()
        .find(|a| s(a, "path") == path)
        .unwrap_or_else(|| panic!("no agent {path} in {:#}", r["agents"]))
}

fn agent_paths(r: &Value) -> BTreeSet<String> {
    arr(r, "agents")
        .iter()
        .map(|a| s(a, "path").to_owned())
        .collect()
}

/// The drift entry of the link from `agent` to `skill_path`, if any.
fn drift_of<'a>(r: &'a Value, agent: &str, skill_path: &str) -> Option<&'a Value> {
    arr(r, "drift")
        .iter()
        .find(|d| s(d, "agent") == agent && s(d, "skill_path") == skill_path)
}

// ---------------------------------------------------------------------------------------------
// Link sources
// ---------------------------------------------------------------------------------------------

#[test]
fn agent_plugin_extension_lists_link_with_plugin_via() {
    let lib = tree(&[
        (
            "plugins/ops/plugin.json",
            r#"{
  "name": "ops",
  "extensions": {
    "com.github.awesome-copilot": {
      "agents": ["./agents/analyst.agent.md"],
      "skills": ["./skills/kusto/", "./skills/teams"]
    }
  }
}"#,
        ),
        ("plugins/ops/agents/analyst.agent.md", &agent_md("", "b\n")),
        ("plugins/ops/skills/kusto/SKILL.md", &skill_md("kusto", "")),
        ("plugins/ops/skills/teams/SKILL.md", &skill_md("teams", "")),
        // Not listed by the plugin: no link.
        ("plugins/ops/skills/other/SKILL.md", &skill_md("other", "")),
    ]);
    let r = audit(lib.path());
    let a = "plugins/ops/agents/analyst.agent.md";
    assert_eq!(
        links(&r),
        BTreeSet::from([
            link(a, "plugins/ops/skills/kusto/SKILL.md", "plugin:ops"),
            link(a, "plugins/ops/skills/teams/SKILL.md", "plugin:ops"),
        ])
    );
    // Each link also names the skill.
    for l in arr(&r, "links") {
        assert!(s(l, "skill_path").contains(s(l, "skill")), "{l}");
    }
    assert!(findings(&r, "SA602").is_empty(), "{:#}", r["findings"]);
    assert_eq!(r["summary"]["links"], 2);
}

#[test]
fn agent_plugin_paths_resolve_from_the_plugin_folder_then_the_root() {
    let lib = tree(&[
        (
            "plugins/ops/plugin.json",
            r#"{"name": "ops", "extensions": {"com.github.awesome-copilot": {
  "agents": ["./agents/local.agent.md", "./agents/shared.agent.md"],
  "skills": ["./skills/both/", "./skills/rootonly/"]}}}"#,
        ),
        // In the plugin folder only.
        ("plugins/ops/agents/local.agent.md", &agent_md("", "")),
        // In the scanned root only.
        ("agents/shared.agent.md", &agent_md("", "")),
        // In both: the plugin folder wins.
        ("plugins/ops/skills/both/SKILL.md", &skill_md("both", "")),
        ("skills/both/SKILL.md", &skill_md("both", "")),
        ("skills/rootonly/SKILL.md", &skill_md("rootonly", "")),
    ]);
    let r = audit(lib.path());
    let local = "plugins/ops/agents/local.agent.md";
    let shared = "agents/shared.agent.md";
    let expected: BTreeSet<_> = [local, shared]
        .into_iter()
        .flat_map(|a| {
            [
                link(a, "plugins/ops/skills/both/SKILL.md", "plugin:ops"),
                link(a, "skills/rootonly/SKILL.md", "plugin:ops"),
            ]
        })
        .collect();
    assert_eq!(links(&r), expected);
    assert!(
        !links(&r).iter().any(|l| l.1 == "skills/both/SKILL.md"),
        "the copy in the plugin folder is preferred"
    );
    assert!(findings(&r, "SA602").is_empty(), "{:#}", r["findings"]);
}

#[test]
fn agent_plugin_paths_fall_back_to_the_git_work_tree() {
    // Two roots inside one repository: the plugin's paths are written from the repository's
    // top, which is neither the plugin folder nor the root holding it.
    let repo = tree(&[
        (
            "plugins/ops/plugin.json",
            r#"{"name": "ops", "extensions": {"com.github.awesome-copilot": {
  "agents": ["agents/ops.agent.md"], "skills": ["skills/kusto/", "skills/gone/"]}}}"#,
        ),
        ("plugins/ops/agents/ops.agent.md", &agent_md("", "")),
        ("skills/kusto/SKILL.md", &skill_md("kusto", "")),
    ]);
    std::fs::create_dir(repo.path().join(".git")).expect("mkdir .git");
    let opts = AuditOptions {
        roots: vec![repo.path().join("plugins/ops"), repo.path().join("skills")],
        cwd: repo.path().to_path_buf(),
        ..AuditOptions::default()
    };
    let result = skill_audit::run(&opts).expect("the audit runs");
    let r = serde_json::to_value(Report::new(result)).expect("the report serialises");
    assert_eq!(
        links(&r),
        BTreeSet::from([link(
            "plugins/ops/agents/ops.agent.md",
            "skills/kusto/SKILL.md",
            "plugin:ops"
        )])
    );
    let missing = findings(&r, "SA602");
    assert_eq!(missing.len(), 1, "{missing:#?}");
    assert!(
        s(missing[0], "message").contains("skills/gone/"),
        "{}",
        missing[0]
    );
}

#[test]
fn agent_plugin_short_agent_name_matches_dot_agent_md() {
    // awesome-copilot's plugins name `./agents/x.md` for the file `agents/x.agent.md`.
    let lib = tree(&[
        (
            "plugins/docs/plugin.json",
            r#"{"name": "docs", "extensions": {"com.github.awesome-copilot": {
  "agents": ["./agents/writer.md"], "skills": ["./skills/style/"]}}}"#,
        ),
        ("agents/writer.agent.md", &agent_md("", "")),
        ("skills/style/SKILL.md", &skill_md("style", "")),
    ]);
    let r = audit(lib.path());
    assert_eq!(
        links(&r),
        BTreeSet::from([link(
            "agents/writer.agent.md",
            "skills/style/SKILL.md",
            "plugin:docs"
        )])
    );
    assert!(findings(&r, "SA602").is_empty(), "{:#}", r["findings"]);
}

#[test]
fn agent_plugin_in_dot_github_plugin_and_top_level_lists() {
    // A Copilot plugin.json in `.github/plugin/` has its plugin root two folders up, and the
    // top-level `agents` / `skills` keys are read when there is no extension block.
    let lib = tree(&[
        (
            "pkg/.github/plugin/plugin.json",
            r#"{"name": "pkg", "agents": ["./agents/a.agent.md"], "skills": ["./skills/k"]}"#,
        ),
        ("pkg/agents/a.agent.md", &agent_md("", "")),
        ("pkg/skills/k/SKILL.md", &skill_md("k", "")),
    ]);
    let r = audit(lib.path());
    assert_eq!(
        links(&r),
        BTreeSet::from([link(
            "pkg/agents/a.agent.md",
            "pkg/skills/k/SKILL.md",
            "plugin:pkg"
        )])
    );
}

#[test]
fn claude_plugin_default_folders() {
    let lib = tree(&[
        (
            "payments/.claude-plugin/plugin.json",
            r#"{"name": "payments"}"#,
        ),
        (
            "payments/agents/chargebacks.md",
            "---\nname: chargebacks\ndescription: Handles chargebacks.\ntools: Read, Grep\n---\nbody\n",
        ),
        // Claude agents may nest under `agents/`.
        (
            "payments/agents/review/auditor.md",
            "---\nname: auditor\ndescription: Audits.\n---\nbody\n",
        ),
        // Documentation beside the agents: no frontmatter, not an agent.
        ("payments/agents/NOTES.md", "# Notes about these agents\n"),
        ("payments/skills/refunds/SKILL.md", &skill_md("refunds", "")),
        (
            "payments/skills/disputes/SKILL.md",
            &skill_md("disputes", ""),
        ),
        // Outside the plugin: not linked.
        ("skills/elsewhere/SKILL.md", &skill_md("elsewhere", "")),
    ]);
    let r = audit(lib.path());
    let agents = [
        "payments/agents/chargebacks.md",
        "payments/agents/review/auditor.md",
    ];
    assert_eq!(
        agent_paths(&r),
        agents.iter().map(|a| a.to_string()).collect()
    );
    for a in agents {
        assert_eq!(s(agent(&r, a), "flavor"), "claude");
    }
    let expected: BTreeSet<_> = agents
        .into_iter()
        .flat_map(|a| {
            [
                link(
                    a,
                    "payments/skills/refunds/SKILL.md",
                    "claude-plugin:payments",
                ),
                link(
                    a,
                    "payments/skills/disputes/SKILL.md",
                    "claude-plugin:payments",
                ),
            ]
        })
        .collect();
    assert_eq!(links(&r), expected);
}

#[test]
fn claude_plugin_explicit_paths() {
    let lib = tree(&[
        (
            "tools/.claude-plugin/plugin.json",
            r#"{"name": "tools", "agents": ["./custom/reviewer.agent.md"], "skills": ["./extra/lint"]}"#,
        ),
        ("tools/custom/reviewer.agent.md", &agent_md("", "")),
        ("tools/extra/lint/SKILL.md", &skill_md("lint", "")),
        // Explicit lists replace the default folders.
        ("tools/skills/unlisted/SKILL.md", &skill_md("unlisted", "")),
    ]);
    let r = audit(lib.path());
    assert_eq!(
        links(&r),
        BTreeSet::from([link(
            "tools/custom/reviewer.agent.md",
            "tools/extra/lint/SKILL.md",
            "claude-plugin:tools"
        )])
    );
    assert!(findings(&r, "SA602").is_empty(), "{:#}", r["findings"]);
}

/// Claude Code's plugin reference writes `"agents": "./custom/agents/"` and
/// `"skills": "./custom/skills/"`: folders holding agents and skill folders.
#[test]
fn claude_plugin_folder_paths() {
    let lib = tree(&[
        (
            "p/.claude-plugin/plugin.json",
            r#"{"name": "p", "agents": "./custom/agents/", "skills": "./custom/skills/"}"#,
        ),
        ("p/custom/agents/rev.agent.md", &agent_md("", "")),
        ("p/custom/skills/k/SKILL.md", &skill_md("k", "")),
    ]);
    let r = audit(lib.path());
    assert!(findings(&r, "SA602").is_empty(), "{:#}", r["findings"]);
    assert_eq!(
        links(&r),
        BTreeSet::from([link(
            "p/custom/agents/rev.agent.md",
            "p/custom/skills/k/SKILL.md",
            "claude-plugin:p"
        )])
    );
}

/// Claude Code agents are plain `.md` files; a plugin may name them by file or by folder outside
/// its default `agents/` folder. They are agents (listed, audited, linked), not missing paths.
#[test]
fn claude_plugin_custom_agent_paths_to_plain_markdown() {
    for agents in [r#""./custom/agents/""#, r#"["./custom/agents/rev.md"]"#] {
        let manifest = format!(r#"{{"name": "p", "agents": {agents}, "skills": ["./skills/k"]}}"#);
        let lib = tree(&[
            ("p/.claude-plugin/plugin.json", &manifest),
            (
                "p/custom/agents/rev.md",
                "---\nname: rev\ndescription: Reviews.\n---\nbody\n",
            ),
            ("p/skills/k/SKILL.md", &skill_md("k", "")),
        ]);
        let r = audit(lib.path());
        assert!(
            findings(&r, "SA602").is_empty(),
            "{agents}: {:#}",
            r["findings"]
        );
        assert_eq!(
            agent_paths(&r),
            BTreeSet::from(["p/custom/agents/rev.md".to_owned()]),
            "{agents}"
        );
        assert_eq!(
            links(&r),
            BTreeSet::from([link(
                "p/custom/agents/rev.md",
                "p/skills/k/SKILL.md",
                "claude-plugin:p"
            )]),
            "{agents}"
        );
    }
}

#[test]
fn claude_marketplace_entries_listing_skills() {
    let lib = tree(&[
        (
            ".claude-plugin/marketplace.json",
            r#"{
  "name": "market",
  "plugins": [
    {"name": "documents", "source": "./", "skills": ["./skills/xlsx", "./skills/pdf"]},
    {"name": "reviews", "source": "./plugins/reviews", "agents": ["./agents/critic.agent.md"], "skills": ["./skills/style"]},
    {"name": "elsewhere", "source": "./plugins/elsewhere"}
  ]
}"#,
        ),
        ("agents/clerk.agent.md", &agent_md("", "")),
        ("skills/xlsx/SKILL.md", &skill_md("xlsx", "")),
        ("skills/pdf/SKILL.md", &skill_md("pdf", "")),
        ("plugins/reviews/agents/critic.agent.md", &agent_md("", "")),
        (
            "plugins/reviews/skills/style/SKILL.md",
            &skill_md("style", ""),
        ),
        // An entry without skills says nothing about links, even with a `skills/` folder.
        ("plugins/elsewhere/agents/x.agent.md", &agent_md("", "")),
        ("plugins/elsewhere/skills/y/SKILL.md", &skill_md("y", "")),
    ]);
    let r = audit(lib.path());
    assert_eq!(
        links(&r),
        BTreeSet::from([
            link(
                "agents/clerk.agent.md",
                "skills/xlsx/SKILL.md",
                "marketplace:documents"
            ),
            link(
                "agents/clerk.agent.md",
                "skills/pdf/SKILL.md",
                "marketplace:documents"
            ),
            link(
                "plugins/reviews/agents/critic.agent.md",
                "plugins/reviews/skills/style/SKILL.md",
                "marketplace:reviews"
            ),
        ])
    );
    assert!(findings(&r, "SA602").is_empty(), "{:#}", r["findings"]);
}

#[test]
fn claude_agent_skills_field() {
    let lib = tree(&[
        (
            ".claude/agents/reviewer.md",
            "---\nname: reviewer\ndescription: Reviews.\nskills: [pdf, xlsx]\n---\nbody\n",
        ),
        (".claude/skills/pdf/SKILL.md", &skill_md("pdf", "")),
        ("skills/xlsx/SKILL.md", &skill_md("xlsx", "")),
        ("skills/unused/SKILL.md", &skill_md("unused", "")),
    ]);
    let r = audit(lib.path());
    let a = ".claude/agents/reviewer.md";
    assert_eq!(
        links(&r),
        BTreeSet::from([
            link(a, ".claude/skills/pdf/SKILL.md", "skills-field"),
            link(a, "skills/xlsx/SKILL.md", "skills-field"),
        ])
    );
    assert_eq!(strings(&agent(&r, a)["skills"]), ["pdf", "xlsx"]);
    assert!(findings(&r, "SA605").is_empty());
}

#[test]
fn skills_field_naming_an_unknown_skill_is_sa605() {
    let lib = tree(&[
        (
            ".claude/agents/reviewer.md",
            "---\nname: reviewer\ndescription: Reviews.\nskills: [pdf, kusto]\n---\nbody\n",
        ),
        ("skills/pdf/SKILL.md", &skill_md("pdf", "")),
    ]);
    let r = audit(lib.path());
    let f = findings(&r, "SA605");
    assert_eq!(f.len(), 1, "{:#}", r["findings"]);
    assert_eq!(s(f[0], "path"), ".claude/agents/reviewer.md");
    assert_eq!(s(f[0], "severity"), "warning");
    assert!(s(f[0], "message").contains("`kusto`"), "{}", f[0]);
    // The known one still links.
    assert_eq!(
        links(&r),
        BTreeSet::from([link(
            ".claude/agents/reviewer.md",
            "skills/pdf/SKILL.md",
            "skills-field"
        )])
    );
}

#[test]
fn agent_body_links_to_a_skill_folder_or_its_skill_md() {
    let body = "Use [the PDF skill](../skills/pdf/) and [xlsx](../skills/xlsx/SKILL.md#usage).\n\
                Not [a skill](../docs/guide.md), not [web](https://example.com/skills/pdf/).\n\
                `[code](../skills/code/)` is code.\n";
    let lib = tree(&[
        ("agents/clerk.agent.md", &agent_md("", body)),
        ("skills/pdf/SKILL.md", &skill_md("pdf", "")),
        ("skills/xlsx/SKILL.md", &skill_md("xlsx", "")),
        ("skills/code/SKILL.md", &skill_md("code", "")),
        ("docs/guide.md", "# Guide\n"),
    ]);
    let r = audit(lib.path());
    let a = "agents/clerk.agent.md";
    assert_eq!(
        links(&r),
        BTreeSet::from([
            link(a, "skills/pdf/SKILL.md", "body-link"),
            link(a, "skills/xlsx/SKILL.md", "body-link"),
        ])
    );
}

#[test]
fn manifest_path_resolving_to_nothing_is_sa602() {
    let manifest = r#"{"name": "ops", "extensions": {"com.github.awesome-copilot": {
  "agents": ["./agents/ghost.md"],
  "skills": ["./skills/missing/", "./skills/real/"]}}}"#;
    let lib = tree(&[
        ("plugins/ops/plugin.json", manifest),
        ("skills/real/SKILL.md", &skill_md("real", "")),
    ]);
    let r = audit(lib.path());
    let f = findings_on(&r, "SA602", "plugins/ops/plugin.json");
    assert_eq!(f.len(), 2, "{:#}", r["findings"]);
    let messages: Vec<&str> = f.iter().map(|f| s(f, "message")).collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`./agents/ghost.md`") && m.starts_with("agent path")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("`./skills/missing/`") && m.starts_with("skill path")),
        "{messages:?}"
    );
    assert!(!messages.iter().any(|m| m.contains("./skills/real/")));
    // The finding points at the line where the path is written.
    let missing = f
        .iter()
        .find(|f| s(f, "message").contains("./skills/missing/"))
        .unwrap();
    assert_eq!(missing["line"], 3);
    // Also for Claude plugins and marketplaces.
    let lib = tree(&[
        (
            "p/.claude-plugin/plugin.json",
            r#"{"name": "p", "skills": ["./skills/nope"]}"#,
        ),
        (
            ".claude-plugin/marketplace.json",
            r#"{"name": "m", "plugins": [{"name": "e", "source": "./", "skills": ["./skills/absent"]}]}"#,
        ),
    ]);
    let r = audit(lib.path());
    assert_eq!(
        findings_on(&r, "SA602", "p/.claude-plugin/plugin.json").len(),
        1
    );
    let f = findings_on(&r, "SA602", ".claude-plugin/marketplace.json");
    assert_eq!(f.len(), 1, "{:#}", r["findings"]);
    assert!(s(f[0], "message").contains("./skills/absent"));
}

#[test]
fn invalid_manifest_json_is_sa601() {
    let lib = tree(&[("plugins/x/plugin.json", "{\"name\": \"x\",}")]);
    let r = audit(lib.path());
    assert_eq!(findings_on(&r, "SA601", "plugins/x/plugin.json").len(), 1);
}

// ---------------------------------------------------------------------------------------------
// Grants, observed through drift
// ---------------------------------------------------------------------------------------------

/// One agent/skill pair: the agent's extra frontmatter (its `tools` etc.) and the skill's.
struct Pair<'a> {
    agent: &'a str,
    skill: &'a str,
}

/// Build one library with one agent (`agents/aN.agent.md`, `skills: [sN]`) and one skill
/// (`skills/sN/SKILL.md`) per pair, audit it once, and return the report; every pair is
/// checked to be linked through `skills-field`.
fn pairs_report(pairs: &[Pair]) -> Value {
    let tmp = tempfile::tempdir().unwrap();
    for (i, p) in pairs.iter().enumerate() {
        write(
            tmp.path(),
            &format!("agents/a{i}.agent.md"),
            agent_md(&format!("skills: [s{i}]\n{}", p.agent), "body\n"),
        );
        write(
            tmp.path(),
            &format!("skills/s{i}/SKILL.md"),
            skill_md(&format!("s{i}"), p.skill),
        );
    }
    let r = audit(tmp.path());
    let l = links(&r);
    for i in 0..pairs.len() {
        assert!(
            l.contains(&link(
                &format!("agents/a{i}.agent.md"),
                &format!("skills/s{i}/SKILL.md"),
                "skills-field"
            )),
            "pair {i} is not linked: {l:?}"
        );
        assert!(
            findings_on(&r, "SA104", &format!("agents/a{i}.agent.md")).is_empty(),
            "pair {i}: agent YAML broken"
        );
    }
    r
}

/// The drift of pair `i`, checking that SA603 findings on its agent match the drift entry.
fn pair_drift(r: &Value, i: usize) -> Option<&Value> {
    let a = format!("agents/a{i}.agent.md");
    let d = drift_of(r, &a, &format!("skills/s{i}/SKILL.md"));
    let f = findings_on(r, "SA603", &a);
    assert_eq!(
        f.len(),
        usize::from(d.is_some()),
        "pair {i}: SA603 findings {f:?} vs drift {d:?}"
    );
    d
}

fn missing_tools(d: &Value) -> Vec<String> {
    strings(&d["missing_tools"])
}

/// Check that agent tools `granted` grant every one of `required` (one pair each) and return
/// the pairs that drift.
fn ungranted(cases: &[(&str, &str)]) -> Vec<String> {
    let fronts: Vec<(String, String)> = cases
        .iter()
        .map(|(granted, required)| {
            (
                format!("tools: [\"{granted}\"]\n"),
                format!("tools: [\"{required}\"]\n"),
            )
        })
        .collect();
    let pairs: Vec<Pair> = fronts
        .iter()
        .map(|(a, k)| Pair { agent: a, skill: k })
        .collect();
    let r = pairs_report(&pairs);
    cases
        .iter()
        .enumerate()
        .filter(|(i, _)| pair_drift(&r, *i).is_some())
        .map(|(_, (g, req))| format!("agent `{g}` does not grant `{req}`"))
        .collect()
}

#[test]
fn absent_tools_grants_everything() {
    let r = pairs_report(&[
        Pair {
            agent: "",
            skill: "tools: [github/get_issue, execute, Bash, frobnicate]\nmcp-servers: [kusto]\n",
        },
        Pair {
            agent: "tools: ['*']\n",
            skill: "dependencies:\n  tools:\n    all: [anything]\n    any: [x, y]\n",
        },
    ]);
    assert!(arr(&r, "links").len() == 2);
    assert!(arr(&r, "drift").is_empty(), "{:#}", r["drift"]);
    assert!(findings(&r, "SA603").is_empty());
    assert!(agent(&r, "agents/a0.agent.md")["tools"].is_null());
}

#[test]
fn empty_tools_grants_nothing() {
    let r = pairs_report(&[
        Pair {
            agent: "tools: []\n",
            skill: "tools: [read, github/get_issue]\n",
        },
        // `tools:` with no value is an empty list too.
        Pair {
            agent: "tools:\n",
            skill: "tools: [edit]\n",
        },
    ]);
    let d = pair_drift(&r, 0).expect("tools: [] drifts");
    assert_eq!(missing_tools(d), ["read", "github/get_issue"]);
    assert_eq!(s(d, "via"), "skills-field");
    assert_eq!(s(d, "skill"), "s0");
    assert!(strings(&d["unmet_any"]).is_empty());
    assert!(strings(&d["missing_mcp_servers"]).is_empty());
    let d = pair_drift(&r, 1).expect("`tools:` with no value drifts");
    assert_eq!(missing_tools(d), ["edit"]);
    // The finding is on the agent, names the skill, the link and what is missing.
    let f = findings_on(&r, "SA603", "agents/a0.agent.md");
    let m = s(f[0], "message");
    assert!(
        m.contains("`s0`") && m.contains("skills-field") && m.contains("`github/get_issue`"),
        "{m}"
    );
    assert_eq!(s(f[0], "severity"), "warning");
    // It points at the `tools` line (line 4: ---, description, skills, tools).
    assert_eq!(f[0]["line"], 4);
    assert_eq!(r["summary"]["drifting_links"], 2);
}

#[test]
fn mcp_wildcard_grants_server_tools() {
    let r = pairs_report(&[
        Pair {
            agent: "tools: ['github/*']\n",
            skill: "tools: [github/get_issue, github/list_pulls]\n",
        },
        Pair {
            agent: "tools: ['github/*']\n",
            skill: "tools: [github/get_issue, gitlab/get_issue]\n",
        },
    ]);
    assert!(pair_drift(&r, 0).is_none());
    let d = pair_drift(&r, 1).expect("gitlab is not granted");
    assert_eq!(missing_tools(d), ["gitlab/get_issue"]);
}

#[test]
fn mcp_spellings_are_equivalent() {
    let bad = ungranted(&[
        ("github/get_issue", "mcp__github__get_issue"),
        ("github/get_issue", "github:get_issue"),
        ("mcp__github__get_issue", "github/get_issue"),
        ("github:get_issue", "mcp__github__get_issue"),
        ("github/*", "mcp__github__get_issue"),
        ("github/*", "github:get_issue"),
    ]);
    assert!(bad.is_empty(), "{bad:#?}");
    // And a different tool of the same server is not granted.
    let r = pairs_report(&[Pair {
        agent: "tools: [mcp__github__get_issue]\n",
        skill: "tools: ['github:list_pulls']\n",
    }]);
    assert_eq!(
        missing_tools(pair_drift(&r, 0).unwrap()),
        ["github:list_pulls"]
    );
}

#[test]
fn vscode_tool_sets_grant_their_members() {
    let bad = ungranted(&[
        ("edit", "edit/editFiles"),
        ("edit", "edit/createFile"),
        ("read", "read/readFile"),
        ("read", "read/problems"),
        ("search", "search/codebase"),
        ("execute", "execute/runInTerminal"),
    ]);
    assert!(bad.is_empty(), "{bad:#?}");
    let r = pairs_report(&[Pair {
        agent: "tools: [edit, read]\n",
        skill: "tools: [edit/editFiles, read/readFile, execute/runInTerminal]\n",
    }]);
    assert_eq!(
        missing_tools(pair_drift(&r, 0).unwrap()),
        ["execute/runInTerminal"],
        "a tool set grants only its own members"
    );
}

/// GitHub's tool aliases (custom agents configuration reference), matched case-insensitively.
const ALIASES: &[(&str, &[&str])] = &[
    ("execute", &["shell", "Bash", "powershell"]),
    ("read", &["Read", "NotebookRead"]),
    ("edit", &["Edit", "MultiEdit", "Write", "NotebookEdit"]),
    ("search", &["Grep", "Glob"]),
    ("agent", &["custom-agent", "Task"]),
    ("web", &["WebSearch", "WebFetch"]),
    ("todo", &["TodoWrite"]),
];

/// An alias that differs from its canonical name only by case (`Read` for `read`).
fn same_but_case(canonical: &str, alias: &str) -> bool {
    alias.eq_ignore_ascii_case(canonical)
}

#[test]
fn github_aliases_granted_by_the_canonical_name() {
    let mut cases: Vec<(String, String)> = Vec::new();
    for (canonical, aliases) in ALIASES {
        for alias in aliases.iter().filter(|a| !same_but_case(canonical, a)) {
            for spelled in [
                alias.to_string(),
                alias.to_lowercase(),
                alias.to_uppercase(),
            ] {
                cases.push((canonical.to_string(), spelled));
            }
        }
    }
    let cases: Vec<(&str, &str)> = cases
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let bad = ungranted(&cases);
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn github_aliases_grant_the_canonical_name() {
    let mut cases: Vec<(String, String)> = Vec::new();
    for (canonical, aliases) in ALIASES {
        for alias in *aliases {
            for spelled in [
                alias.to_string(),
                alias.to_lowercase(),
                alias.to_uppercase(),
            ] {
                cases.push((spelled, canonical.to_string()));
            }
        }
    }
    let cases: Vec<(&str, &str)> = cases
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let bad = ungranted(&cases);
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn github_aliases_do_not_cross() {
    let r = pairs_report(&[
        Pair {
            agent: "tools: [execute]\n",
            skill: "tools: [Bash, Read, Grep]\n",
        },
        Pair {
            agent: "tools: [Bash]\n",
            skill: "tools: [execute, edit]\n",
        },
        Pair {
            agent: "tools: [search]\n",
            skill: "tools: [Grep, WebFetch]\n",
        },
    ]);
    assert_eq!(missing_tools(pair_drift(&r, 0).unwrap()), ["Read", "Grep"]);
    assert_eq!(missing_tools(pair_drift(&r, 1).unwrap()), ["edit"]);
    assert_eq!(missing_tools(pair_drift(&r, 2).unwrap()), ["WebFetch"]);
}

/// `Read` and `Edit` are the GitHub aliases of `read` and `edit` (GitHub matches tool names
/// case-insensitively), so an agent granting `read` / `edit` grants a skill's `Read` / `Edit`.
#[test]
fn github_aliases_that_differ_only_by_case() {
    let mut cases: Vec<(String, String)> = Vec::new();
    for (canonical, aliases) in ALIASES {
        for alias in aliases.iter().filter(|a| same_but_case(canonical, a)) {
            cases.push((canonical.to_string(), alias.to_string()));
            cases.push((canonical.to_string(), alias.to_uppercase()));
        }
    }
    assert!(!cases.is_empty());
    let cases: Vec<(&str, &str)> = cases
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let bad = ungranted(&cases);
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn skill_mcp_servers_against_agent_mcp_servers() {
    let r = pairs_report(&[
        // The agent configures the server (mapping form).
        Pair {
            agent: "tools: [read]\nmcp-servers:\n  kusto:\n    type: stdio\n    command: kusto-mcp\n",
            skill: "tools: [read]\nmcp-servers: [kusto]\n",
        },
        // The agent neither configures nor grants it.
        Pair {
            agent: "tools: [read]\n",
            skill: "tools: [read]\nmcp-servers: [kusto, teams]\n",
        },
        // A wildcard on the server's tools is enough.
        Pair {
            agent: "tools: [read, 'kusto/*']\n",
            skill: "mcp-servers: [kusto]\n",
        },
        // Claude Code's `mcpServers`, list form.
        Pair {
            agent: "tools: [read]\nmcpServers: [kusto]\n",
            skill: "mcp-servers: [kusto, teams]\n",
        },
    ]);
    assert!(pair_drift(&r, 0).is_none(), "{:#}", r["drift"]);
    let d = pair_drift(&r, 1).expect("servers missing");
    assert_eq!(strings(&d["missing_mcp_servers"]), ["kusto", "teams"]);
    assert!(missing_tools(d).is_empty());
    let m = s(findings_on(&r, "SA603", "agents/a1.agent.md")[0], "message");
    assert!(m.contains("MCP servers `kusto`, `teams`"), "{m}");
    assert!(pair_drift(&r, 2).is_none(), "{:#}", r["drift"]);
    let d = pair_drift(&r, 3).expect("teams missing");
    assert_eq!(strings(&d["missing_mcp_servers"]), ["teams"]);
}

#[test]
fn unmet_any_group() {
    let r = pairs_report(&[
        Pair {
            agent: "tools: [read]\n",
            skill: "dependencies:\n  tools:\n    all: [read]\n    any: [github/get_issue, gitlab/get_issue]\n",
        },
        Pair {
            agent: "tools: [read, 'gitlab/*']\n",
            skill: "dependencies:\n  tools:\n    all: [read]\n    any: [github/get_issue, gitlab/get_issue]\n",
        },
        Pair {
            agent: "tools: [search]\n",
            skill: "dependencies:\n  tools:\n    all: [read]\n    any: [github/get_issue]\n",
        },
    ]);
    let d = pair_drift(&r, 0).expect("no alternative granted");
    assert!(missing_tools(d).is_empty());
    assert_eq!(
        d["unmet_any"],
        serde_json::json!([["github/get_issue", "gitlab/get_issue"]])
    );
    let m = s(findings_on(&r, "SA603", "agents/a0.agent.md")[0], "message");
    assert!(
        m.contains("one of `github/get_issue`, `gitlab/get_issue`"),
        "{m}"
    );
    assert!(pair_drift(&r, 1).is_none(), "one alternative is enough");
    let d = pair_drift(&r, 2).expect("both kinds");
    assert_eq!(missing_tools(d), ["read"]);
    assert_eq!(d["unmet_any"], serde_json::json!([["github/get_issue"]]));
}

#[test]
fn model_hint_difference_is_info_only() {
    let r = pairs_report(&[
        Pair {
            agent: "model: GPT-5\n",
            skill: "model: Claude Sonnet 4.5\n",
        },
        Pair {
            agent: "model: claude sonnet 4.5\n",
            skill: "model: Claude Sonnet 4.5\n",
        },
        // No model on the agent: nothing to compare.
        Pair {
            agent: "",
            skill: "model: Claude Sonnet 4.5\n",
        },
        // The agent's list holds the hint.
        Pair {
            agent: "model: [GPT-5, Claude Sonnet 4.5]\n",
            skill: "model: [Claude Sonnet 4.5, GPT-5]\n",
        },
    ]);
    assert!(arr(&r, "drift").is_empty(), "{:#}", r["drift"]);
    assert!(findings(&r, "SA603").is_empty());
    let f = findings(&r, "SA604");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(s(f[0], "path"), "agents/a0.agent.md");
    assert_eq!(s(f[0], "severity"), "info");
    let m = s(f[0], "message");
    assert!(
        m.contains("`Claude Sonnet 4.5`") && m.contains("GPT-5") && m.contains("`s0`"),
        "{m}"
    );
}

#[test]
fn links_with_nothing_missing_are_not_drift() {
    let r = pairs_report(&[
        Pair {
            agent: "tools: [read, edit, 'github/*']\n",
            skill: "tools: [read/readFile, edit, github/get_issue]\n",
        },
        Pair {
            agent: "tools: [execute]\n",
            skill: "",
        },
        Pair {
            agent: "tools: [read]\n",
            skill: "tools: [read]\n",
        },
    ]);
    assert_eq!(arr(&r, "links").len(), 3);
    assert!(arr(&r, "drift").is_empty(), "{:#}", r["drift"]);
    assert_eq!(r["summary"]["drifting_links"], 0);
    assert!(findings(&r, "SA603").is_empty());
}

#[test]
fn drift_through_a_plugin_names_the_plugin() {
    let lib = tree(&[
        (
            "plugins/ops/plugin.json",
            r#"{"name": "ops", "extensions": {"com.github.awesome-copilot": {
  "agents": ["./agents/analyst.md"], "skills": ["./skills/kusto/"]}}}"#,
        ),
        (
            "agents/analyst.agent.md",
            &agent_md("tools: [read, search]\n", ""),
        ),
        (
            "skills/kusto/SKILL.md",
            &skill_md(
                "kusto",
                "dependencies:\n  tools: [execute, kusto/run_query]\n",
            ),
        ),
    ]);
    let r = audit(lib.path());
    let d = drift_of(&r, "agents/analyst.agent.md", "skills/kusto/SKILL.md").expect("drift");
    assert_eq!(s(d, "via"), "plugin:ops");
    assert_eq!(missing_tools(d), ["execute", "kusto/run_query"]);
    let f = findings_on(&r, "SA603", "agents/analyst.agent.md");
    assert_eq!(f.len(), 1);
    assert!(s(f[0], "message").contains("via plugin:ops"), "{}", f[0]);
}

#[test]
fn a_skill_loaded_two_ways_drifts_once_naming_both() {
    let lib = tree(&[
        (
            "agents/analyst.agent.md",
            &agent_md(
                "tools: [read]\nmodel: GPT-5\nskills: [kusto]\n",
                "Use [kusto](../skills/kusto/SKILL.md).\n",
            ),
        ),
        (
            "skills/kusto/SKILL.md",
            &skill_md(
                "kusto",
                "model: Claude Sonnet 4.5\ndependencies:\n  tools: [execute]\n",
            ),
        ),
    ]);
    let r = audit(lib.path());
    // The report keeps each link; the findings name the pair once.
    assert_eq!(arr(&r, "drift").len(), 2, "{:#}", r["drift"]);
    for rule in ["SA603", "SA604"] {
        let f = findings_on(&r, rule, "agents/analyst.agent.md");
        assert_eq!(f.len(), 1, "{f:#?}");
        let m = s(f[0], "message");
        assert!(m.contains("(via body-link, skills-field)"), "{m}");
    }
}

// ---------------------------------------------------------------------------------------------
// Agent rules (SA5xx) and what counts as an agent
// ---------------------------------------------------------------------------------------------

#[test]
fn sa501_missing_description() {
    let lib = tree(&[
        ("agents/bare.agent.md", "---\ntools: [read]\n---\nbody\n"),
        (
            "agents/blank.agent.md",
            "---\ndescription: '  '\n---\nbody\n",
        ),
        ("agents/ok.agent.md", &agent_md("", "body\n")),
    ]);
    let r = audit(lib.path());
    assert_eq!(findings_on(&r, "SA501", "agents/bare.agent.md").len(), 1);
    assert_eq!(findings_on(&r, "SA501", "agents/blank.agent.md").len(), 1);
    assert!(findings_on(&r, "SA501", "agents/ok.agent.md").is_empty());
    assert_eq!(findings(&r, "SA501").len(), 2);
    assert_eq!(s(findings(&r, "SA501")[0], "severity"), "warning");

    // Each kind of file names the hosts that read it.
    let lib = tree(&[
        (
            ".github/chatmodes/plan.chatmode.md",
            "---
tools: [read]
---
body
",
        ),
        (
            ".claude/agents/review.md",
            "---
name: review
---
body
",
        ),
    ]);
    let r = audit(lib.path());
    let chatmode = findings_on(&r, "SA501", ".github/chatmodes/plan.chatmode.md");
    assert!(
        s(chatmode[0], "message")
            .starts_with("the chat mode has no `description`; VS Code shows it")
    );
    assert!(!s(chatmode[0], "message").contains("GitHub"));
    let claude = findings_on(&r, "SA501", ".claude/agents/review.md");
    assert!(s(claude[0], "message").contains("Claude Code requires one"));
}

#[test]
fn sa502_unknown_key_with_suggestion() {
    let lib = tree(&[
        (
            "agents/typo.agent.md",
            &agent_md("tool: [read]\nmodle: GPT-5\nfrobnicate: yes\n", ""),
        ),
        (
            // Keys read by VS Code / GitHub and by Claude Code are all known.
            "agents/known.agent.md",
            &agent_md(
                "name: k\nargument-hint: x\ntools: [read]\nagents: ['*']\nmodel: GPT-5\nuser-invocable: true\n\
                 disable-model-invocation: false\ntarget: vscode\nmcp-servers: {}\nhooks: {}\ngithub: {}\n\
                 metadata: {}\ndisallowedTools: [Bash]\npermissionMode: plan\nmaxTurns: 3\nskills: []\n\
                 mcpServers: []\nmemory: user\nbackground: false\neffort: high\nisolation: worktree\n\
                 color: blue\ninitialPrompt: hi\nomitClaudeMd: true\n",
                "",
            ),
        ),
    ]);
    let r = audit(lib.path());
    let f = findings_on(&r, "SA502", "agents/typo.agent.md");
    assert_eq!(f.len(), 3, "{f:#?}");
    let msg = |key: &str| {
        f.iter()
            .map(|f| s(f, "message"))
            .find(|m| m.starts_with(&format!("`{key}`")))
            .unwrap_or_else(|| panic!("no SA502 for {key}: {f:#?}"))
    };
    assert!(
        msg("tool").contains("did you mean `tools`?"),
        "{}",
        msg("tool")
    );
    assert!(
        msg("modle").contains("did you mean `model`?"),
        "{}",
        msg("modle")
    );
    assert!(
        !msg("frobnicate").contains("did you mean"),
        "{}",
        msg("frobnicate")
    );
    // Findings point at the key.
    let tool = f
        .iter()
        .find(|f| s(f, "message").starts_with("`tool`"))
        .unwrap();
    assert_eq!(
        (tool["line"].as_u64(), tool["column"].as_u64()),
        (Some(3), Some(1))
    );
    assert!(
        findings_on(&r, "SA502", "agents/known.agent.md").is_empty(),
        "{:#}",
        r["findings"]
    );
}

#[test]
fn sa503_deprecated_infer_and_mode() {
    let lib = tree(&[(
        "agents/old.agent.md",
        &agent_md("infer: false\nmode: agent\nuser-invokable: true\n", ""),
    )]);
    let r = audit(lib.path());
    let f = findings_on(&r, "SA503", "agents/old.agent.md");
    let messages: Vec<&str> = f.iter().map(|f| s(f, "message")).collect();
    assert_eq!(f.len(), 3, "{messages:?}");
    assert!(messages.iter().any(|m| m.starts_with("`infer`")
        && m.contains("user-invocable")
        && m.contains("disable-model-invocation")));
    assert!(messages.iter().any(|m| m.starts_with("`mode`")));
    assert!(messages.iter().any(|m| m.starts_with("`user-invokable`")));
    // Deprecated keys are not also unknown keys.
    assert!(findings(&r, "SA502").is_empty());
    let a = agent(&r, "agents/old.agent.md");
    assert_eq!(a["infer"], false);
    assert_eq!(a["mode"], "agent");
}

#[test]
fn sa504_handoffs_and_subagents_must_name_agents() {
    let lib = tree(&[
        (
            "agents/planner.agent.md",
            &agent_md(
                "tools: [read, agent]\nagents: [Implementor, ghost-worker, '*']\nhandoffs:\n  - label: Build\n    agent: implementor\n    prompt: go\n  - label: Ask\n    agent: agent\n    prompt: go\n  - label: Review\n    agent: missing-reviewer\n    prompt: go\n",
                "",
            ),
        ),
        // Known by its `name`, which differs from its file name.
        ("agents/impl.agent.md", &agent_md("name: implementor\n", "")),
        (
            "agents/builtins.agent.md",
            &agent_md(
                "tools: [agent]\nagents: [ask, edit, plan, agent, impl]\n",
                "",
            ),
        ),
    ]);
    let r = audit(lib.path());
    let f = findings_on(&r, "SA504", "agents/planner.agent.md");
    let messages: Vec<&str> = f.iter().map(|f| s(f, "message")).collect();
    assert_eq!(f.len(), 2, "{messages:?}");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("handoff `missing-reviewer`"))
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("sub-agent `ghost-worker`"))
    );
    assert!(
        findings_on(&r, "SA504", "agents/builtins.agent.md").is_empty(),
        "built-in agents and file names are fine: {:#}",
        r["findings"]
    );
    assert_eq!(
        strings(&agent(&r, "agents/planner.agent.md")["handoffs"]),
        ["implementor", "agent", "missing-reviewer"]
    );
}

#[test]
fn sa505_subagents_without_the_agent_tool() {
    let lib = tree(&[
        ("agents/w.agent.md", &agent_md("", "")),
        (
            "agents/no-tool.agent.md",
            &agent_md("tools: [read, edit]\nagents: [w]\n", ""),
        ),
        (
            "agents/with-agent.agent.md",
            &agent_md("tools: [read, agent]\nagents: [w]\n", ""),
        ),
        (
            "agents/with-task.agent.md",
            &agent_md("tools: Read, Task\nagents: [w]\n", ""),
        ),
        (
            "agents/with-sub.agent.md",
            &agent_md("tools: [agent/runSubagent]\nagents: [w]\n", ""),
        ),
        // No tools list: every tool, including `agent`.
        ("agents/all-tools.agent.md", &agent_md("agents: [w]\n", "")),
        // No sub-agents listed.
        (
            "agents/empty.agent.md",
            &agent_md("tools: [read]\nagents: []\n", ""),
        ),
    ]);
    let r = audit(lib.path());
    let f = findings(&r, "SA505");
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(s(f[0], "path"), "agents/no-tool.agent.md");
    assert_eq!(f[0]["line"], 4, "points at the `agents` key");
}

#[test]
fn sa506_body_over_30000_characters() {
    let at_limit = "é".repeat(30_000);
    let over = "a".repeat(30_001);
    let lib = tree(&[
        ("agents/limit.agent.md", &agent_md("", &at_limit)),
        ("agents/long.agent.md", &agent_md("", &over)),
    ]);
    let r = audit(lib.path());
    assert!(
        findings_on(&r, "SA506", "agents/limit.agent.md").is_empty(),
        "characters are counted, not bytes"
    );
    let f = findings_on(&r, "SA506", "agents/long.agent.md");
    assert_eq!(f.len(), 1);
    assert!(s(f[0], "message").contains("30,001"), "{}", f[0]);
    // At the first character past the limit: the body's first line, column 30,001.
    assert_eq!(
        (&f[0]["line"], &f[0]["column"]),
        (&4.into(), &30_001.into())
    );

    // GitHub does not read chat modes, and VS Code, which does, has no such cap.
    let lib = tree(&[(".github/chatmodes/long.chatmode.md", &agent_md("", &over))]);
    assert!(findings(&audit(lib.path()), "SA506").is_empty());
}

#[test]
fn sa507_file_name_characters() {
    let lib = tree(&[
        ("agents/My Agent!.agent.md", &agent_md("", "")),
        ("agents/café.agent.md", &agent_md("", "")),
        ("agents/ok_Name-1.2.agent.md", &agent_md("", "")),
    ]);
    let r = audit(lib.path());
    assert_eq!(
        findings_on(&r, "SA507", "agents/My Agent!.agent.md").len(),
        1
    );
    assert_eq!(findings_on(&r, "SA507", "agents/café.agent.md").len(), 1);
    assert!(findings_on(&r, "SA507", "agents/ok_Name-1.2.agent.md").is_empty());
    assert_eq!(findings(&r, "SA507").len(), 2);
}

#[test]
fn sa508_chat_modes() {
    let lib = tree(&[
        (
            ".github/chatmodes/planner.chatmode.md",
            "---\ndescription: Plans.\ntools: [codebase]\n---\nbody\n",
        ),
        (
            "chatmodes/reviewer.chatmode.md",
            "---\ndescription: Reviews.\n---\nbody\n",
        ),
        ("agents/planner.agent.md", &agent_md("", "")),
    ]);
    let r = audit(lib.path());
    let f = findings(&r, "SA508");
    assert_eq!(f.len(), 2, "{f:#?}");
    // A workspace's chat mode moves to where hosts now read agents; a catalogue's keeps its
    // folder.
    assert_eq!(s(f[0], "path"), ".github/chatmodes/planner.chatmode.md");
    assert_eq!(
        s(f[0], "message"),
        "chat modes were renamed to custom agents; rename the file to `planner.agent.md`, add `target: vscode` to keep it to VS Code as the chat mode was, and move it to `.github/agents/`, where VS Code and GitHub Copilot now look for agents"
    );
    assert_eq!(
        s(f[1], "message"),
        "chat modes were renamed to custom agents; rename the file to `reviewer.agent.md` and add `target: vscode` to keep it to VS Code as the chat mode was"
    );
    let a = agent(&r, ".github/chatmodes/planner.chatmode.md");
    assert_eq!(s(a, "flavor"), "chatmode");
    assert_eq!(s(a, "name"), "planner");
    assert_eq!(s(agent(&r, "agents/planner.agent.md"), "flavor"), "custom");
}

/// Chat modes are VS Code's former agents: GitHub's agents are `.agent.md` files only, so
/// GitHub Copilot does not load a `.chatmode.md` and its tools are not judged there.
#[test]
fn chat_modes_load_in_vscode_not_on_github() {
    let lib = tree(&[(
        ".github/chatmodes/planner.chatmode.md",
        "---\ndescription: Plans.\ntitle: Planner\ntools: [codebase, frobnicate]\n---\nbody\n",
    )]);
    let builtin = |n: &str| ProfileSource::Builtin(n.into());
    let r = audit_with(
        lib.path(),
        vec![builtin("vscode"), builtin("github-copilot")],
    );
    let a = agent(&r, ".github/chatmodes/planner.chatmode.md");
    assert_eq!(
        s(&a["availability"]["github-copilot"], "status"),
        "not-loaded"
    );
    assert_ne!(s(&a["availability"]["vscode"], "status"), "not-loaded");
    let unknown = findings_on(&r, "SA702", ".github/chatmodes/planner.chatmode.md");
    assert!(
        unknown
            .iter()
            .all(|f| !s(f, "message").contains("github-copilot")),
        "{unknown:#?}"
    );
    // A key no host reads is said of the one host that reads chat modes.
    let key = findings_on(&r, "SA502", ".github/chatmodes/planner.chatmode.md");
    assert_eq!(
        key.iter().map(|f| s(f, "message")).collect::<Vec<_>>(),
        ["`title` is not read by VS Code in a chat mode, so it is ignored"]
    );
}

#[test]
fn agent_name_defaults_to_the_file_name() {
    let lib = tree(&[
        ("agents/planner.agent.md", &agent_md("", "")),
        (
            "agents/named.agent.md",
            &agent_md("name: Code Reviewer\n", ""),
        ),
        ("agents/blank-name.agent.md", &agent_md("name: ''\n", "")),
        (".github/agents/triage.md", &agent_md("", "")),
        ("modes/Old.Mode.chatmode.md", &agent_md("", "")),
    ]);
    let r = audit(lib.path());
    let name = |p: &str| s(agent(&r, p), "name").to_owned();
    assert_eq!(name("agents/planner.agent.md"), "planner");
    assert_eq!(name("agents/named.agent.md"), "Code Reviewer");
    assert_eq!(name("agents/blank-name.agent.md"), "blank-name");
    assert_eq!(name(".github/agents/triage.md"), "triage");
    assert_eq!(name("modes/Old.Mode.chatmode.md"), "Old.Mode");
}

#[test]
fn markdown_directly_in_github_agents_is_an_agent() {
    let lib = tree(&[
        (".github/agents/triage.md", &agent_md("tools: [read]\n", "")),
        (".github/agents/README.md", "# About these agents\n"),
        // Not directly in `.github/agents/`.
        (".github/agents/notes/extra.md", &agent_md("", "")),
        // Plain Markdown elsewhere is not an agent.
        ("docs/agents/guide.md", &agent_md("", "")),
        ("agents/plain.md", &agent_md("", "")),
    ]);
    let r = audit(lib.path());
    assert_eq!(
        agent_paths(&r),
        BTreeSet::from([".github/agents/triage.md".to_owned()])
    );
    assert_eq!(s(agent(&r, ".github/agents/triage.md"), "flavor"), "custom");
    assert_eq!(r["summary"]["agents"], 1);
}

#[test]
fn claude_agents_need_frontmatter() {
    let lib = tree(&[
        (
            ".claude/agents/reviewer.md",
            "---\nname: reviewer\ndescription: Reviews code.\ntools: Read, Grep, Glob\n---\nbody\n",
        ),
        (
            ".claude/agents/review/security.md",
            "---\ndescription: Security.\n---\nbody\n",
        ),
        (
            ".claude/agents/GUIDE.md",
            "# How to write agents\n\nNo frontmatter here.\n",
        ),
    ]);
    let r = audit(lib.path());
    assert_eq!(
        agent_paths(&r),
        BTreeSet::from([
            ".claude/agents/review/security.md".to_owned(),
            ".claude/agents/reviewer.md".to_owned(),
        ])
    );
    let a = agent(&r, ".claude/agents/reviewer.md");
    assert_eq!(s(a, "flavor"), "claude");
    assert_eq!(strings(&a["tools"]), ["Read", "Grep", "Glob"]);
    assert!(
        rules_on(&r, ".claude/agents/GUIDE.md").is_empty(),
        "documentation beside agents is not reported: {:#}",
        r["findings"]
    );
    assert_eq!(r["summary"]["files_scanned"], 2);
}

#[test]
fn agent_with_broken_yaml_is_invalid_and_listed() {
    let lib = tree(&[
        (
            "agents/broken.agent.md",
            "---\ndescription: [unclosed\ntools: [read\n---\nbody\n",
        ),
        ("agents/unclosed.agent.md", "---\ndescription: d\n"),
        ("agents/nofront.agent.md", "# Just Markdown\n"),
        ("agents/ok.agent.md", &agent_md("tools: [read]\n", "")),
    ]);
    let profile = tempfile::tempdir().unwrap();
    write(
        profile.path(),
        "p.json",
        r#"{"name": "p", "tools": ["read"]}"#,
    );
    let r = audit_with(
        lib.path(),
        vec![ProfileSource::File(profile.path().join("p.json"))],
    );
    assert_eq!(arr(&r, "agents").len(), 4);
    for (path, rule) in [
        ("agents/broken.agent.md", "SA104"),
        ("agents/unclosed.agent.md", "SA103"),
        ("agents/nofront.agent.md", "SA102"),
    ] {
        let a = agent(&r, path);
        assert_eq!(a["valid"], false, "{path}");
        assert_eq!(s(&a["availability"]["p"], "status"), "invalid", "{path}");
        assert_eq!(
            findings_on(&r, rule, path).len(),
            1,
            "{path}: {:#}",
            r["findings"]
        );
        // Nothing else is judged on an unreadable agent.
        assert!(findings_on(&r, "SA501", path).is_empty());
        assert_eq!(
            s(a, "name"),
            path.trim_start_matches("agents/")
                .trim_end_matches(".agent.md")
        );
    }
    assert_eq!(agent(&r, "agents/ok.agent.md")["valid"], true);
    assert_eq!(r["summary"]["agents_by_profile"]["p"]["invalid"], 3);
    assert_eq!(r["summary"]["agents_by_profile"]["p"]["available"], 1);
}

#[test]
fn invalid_agents_are_not_linked() {
    let lib = tree(&[
        (
            "agents/broken.agent.md",
            "---\nskills: [pdf\n---\n[pdf](../skills/pdf/)\n",
        ),
        ("skills/pdf/SKILL.md", &skill_md("pdf", "")),
    ]);
    let r = audit(lib.path());
    assert!(arr(&r, "links").is_empty(), "{:#}", r["links"]);
    assert!(findings(&r, "SA605").is_empty());
}

// ---------------------------------------------------------------------------------------------
// Agents against profiles
// ---------------------------------------------------------------------------------------------

#[test]
fn agent_availability_per_profile() {
    let lib = tree(&[
        (
            "agents/full.agent.md",
            &agent_md("tools: [read, 'github/get_issue']\n", ""),
        ),
        (
            "agents/partial.agent.md",
            &agent_md("tools: [read, deploy, 'github/get_issue']\n", ""),
        ),
        ("agents/none.agent.md", &agent_md("", "")),
        ("agents/empty.agent.md", &agent_md("tools: []\n", "")),
    ]);
    let profiles = tempfile::tempdir().unwrap();
    write(
        profiles.path(),
        "prod.json",
        r#"{"name": "prod", "tools": ["read", "deploy"], "servers": {"github": {"tools": ["get_issue"]}}}"#,
    );
    write(
        profiles.path(),
        "dev.json",
        r#"{"name": "dev", "tools": ["read"]}"#,
    );
    let r = audit_with(
        lib.path(),
        vec![
            ProfileSource::File(profiles.path().join("prod.json")),
            ProfileSource::File(profiles.path().join("dev.json")),
        ],
    );
    let status = |a: &str, p: &str| s(&agent(&r, a)["availability"][p], "status").to_owned();
    assert_eq!(status("agents/full.agent.md", "prod"), "available");
    assert_eq!(status("agents/partial.agent.md", "prod"), "available");
    // `read` resolves, the server's tool does not: the host drops it and runs the agent.
    assert_eq!(status("agents/full.agent.md", "dev"), "partial");
    assert_eq!(
        strings(&agent(&r, "agents/full.agent.md")["availability"]["dev"]["missing"]),
        ["github/get_issue"]
    );
    assert_eq!(
        strings(&agent(&r, "agents/partial.agent.md")["availability"]["dev"]["missing"]),
        ["deploy", "github/get_issue"]
    );
    for a in ["agents/none.agent.md", "agents/empty.agent.md"] {
        for p in ["prod", "dev"] {
            assert_eq!(status(a, p), "undeclared", "{a} on {p}");
        }
    }
    // Available entries carry no `missing`.
    assert!(
        agent(&r, "agents/full.agent.md")["availability"]["prod"]
            .get("missing")
            .is_none()
    );
    assert_eq!(
        r["summary"]["agents_by_profile"],
        serde_json::json!({
            "prod": {"available": 2, "partial": 0, "unavailable": 0, "not-loaded": 0, "needs-nothing": 0, "not-judged": 0, "undeclared": 2, "invalid": 0},
            "dev": {"available": 0, "partial": 2, "unavailable": 0, "not-loaded": 0, "needs-nothing": 0, "not-judged": 0, "undeclared": 2, "invalid": 0}
        })
    );
    // One SA403 per partial agent and profile, at its first missing tool; no SA402.
    assert!(findings(&r, "SA402").is_empty());
    let f = findings(&r, "SA403");
    assert_eq!(f.len(), 2, "{f:#?}");
    assert!(f.iter().all(|f| s(f, "message").contains("profile `dev`")));
    assert!(f.iter().all(|f| f["line"] == 3));
}

// ---------------------------------------------------------------------------------------------
// Built-in host profiles and SA7xx
// ---------------------------------------------------------------------------------------------

#[test]
fn builtin_profiles_load() {
    let lib = tree(&[("agents/a.agent.md", &agent_md("tools: [read]\n", ""))]);
    let (r, code) = json_run(
        lib.path(),
        &[
            ".",
            "--profile",
            "builtin:vscode",
            "--profile",
            "builtin:github-copilot",
            "--profile",
            "builtin:claude-code",
        ],
    );
    assert_eq!(code, 0, "{:#}", r["findings"]);
    let profiles: Vec<(String, String)> = arr(&r, "profiles")
        .iter()
        .map(|p| (s(p, "name").to_owned(), s(p, "path").to_owned()))
        .collect();
    assert_eq!(
        profiles,
        [
            ("vscode".into(), "builtin:vscode".into()),
            ("github-copilot".into(), "builtin:github-copilot".into()),
            ("claude-code".into(), "builtin:claude-code".into()),
        ]
    );
    for p in arr(&r, "profiles") {
        assert!(p["tools"].as_u64().unwrap() > 0, "{p}");
    }
    let a = agent(&r, "agents/a.agent.md");
    assert_eq!(s(&a["availability"]["vscode"], "status"), "available");
    assert_eq!(
        s(&a["availability"]["github-copilot"], "status"),
        "available"
    );
}

#[test]
fn profiles_command_lists_the_builtins() {
    let tmp = tempfile::tempdir().unwrap();
    let out = bin(tmp.path()).arg("profiles").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        names,
        [
            "builtin:claude-code",
            "builtin:codex",
            "builtin:copilot-cli",
            "builtin:cursor",
            "builtin:gemini-cli",
            "builtin:github-copilot",
            "builtin:openclaw",
            "builtin:opencode",
            "builtin:vscode"
        ]
    );
    // Each comes with a description.
    assert!(
        text.lines().all(|l| l.split_whitespace().count() > 1),
        "{text}"
    );
}

#[test]
fn unknown_builtin_profile_exits_2() {
    let lib = tree(&[("agents/a.agent.md", &agent_md("", ""))]);
    let out = bin(lib.path())
        .args([".", "--profile", "builtin:nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("builtin:nope"), "{err}");
    assert!(
        err.contains("builtin:vscode"),
        "lists the known ones: {err}"
    );
    assert!(out.stdout.is_empty());
    // The library API reports it as an error too.
    let e = skill_audit::run(&AuditOptions {
        roots: vec![lib.path().to_path_buf()],
        cwd: lib.path().to_path_buf(),
        profiles: vec![ProfileSource::parse("builtin:nope")],
        ..AuditOptions::default()
    })
    .unwrap_err();
    assert!(e.to_string().contains("no such built-in profile"), "{e}");
}

#[test]
fn vscode_renamed_and_unknown_tools() {
    let lib = tree(&[
        (
            "agents/legacy.agent.md",
            &agent_md(
                "tools: [runCommands, codebase, think, 'github/*', ms-python.python/x, edit/editFiles, edit, mcp__kusto__query, edit/frobnicate]\n",
                "",
            ),
        ),
        (
            "agents/clean.agent.md",
            &agent_md("tools: [read, search/codebase]\n", ""),
        ),
    ]);
    let (r, code) = json_run(lib.path(), &[".", "--profile", "builtin:vscode"]);
    assert_eq!(code, 0, "only warnings: {:#}", r["findings"]);
    let a = "agents/legacy.agent.md";
    let renamed = findings_on(&r, "SA701", a);
    let messages: Vec<&str> = renamed.iter().map(|f| s(f, "message")).collect();
    assert_eq!(renamed.len(), 2, "{messages:?}");
    let run_commands = messages
        .iter()
        .find(|m| m.starts_with("`runCommands`"))
        .expect("runCommands is renamed");
    for new in [
        "execute/getTerminalOutput",
        "execute/runInTerminal",
        "read/terminalLastCommand",
        "read/terminalSelection",
    ] {
        assert!(run_commands.contains(&format!("`{new}`")), "{run_commands}");
    }
    let codebase = messages
        .iter()
        .find(|m| m.starts_with("`codebase`"))
        .expect("codebase is renamed");
    assert!(
        codebase.contains("`search/codebase`") && codebase.contains("vscode"),
        "{codebase}"
    );
    // Unknown: a bare name, and a name under one of VS Code's own tool sets.
    let unknown: Vec<&str> = findings_on(&r, "SA702", a)
        .iter()
        .map(|f| s(f, "message"))
        .collect();
    assert_eq!(unknown.len(), 2, "{unknown:#?}");
    assert!(
        unknown
            .iter()
            .any(|m| m.starts_with("`think`") && m.contains("vscode"))
    );
    assert!(unknown.iter().any(|m| m.starts_with("`edit/frobnicate`")));
    // MCP and extension tools are not judged; neither are current names.
    for f in findings(&r, "SA701")
        .iter()
        .chain(findings(&r, "SA702").iter())
    {
        let m = s(f, "message");
        for t in [
            "github/*",
            "ms-python.python/x",
            "edit/editFiles",
            "mcp__kusto__query",
        ] {
            assert!(!m.contains(&format!("`{t}`")), "{m}");
        }
    }
    assert!(
        rules_on(&r, "agents/clean.agent.md").is_empty(),
        "{:#}",
        r["findings"]
    );
    // Renamed names still count as available; the unknown ones do not.
    let av = &agent(&r, a)["availability"]["vscode"];
    assert_eq!(s(av, "status"), "partial");
    assert_eq!(strings(&av["missing"]), ["think", "edit/frobnicate"]);
}

#[test]
fn host_rules_need_a_host_profile() {
    let lib = tree(&[(
        "agents/legacy.agent.md",
        &agent_md("tools: [runCommands, think]\n", ""),
    )]);
    let r = audit(lib.path());
    assert!(findings(&r, "SA701").is_empty() && findings(&r, "SA702").is_empty());
    let profiles = tempfile::tempdir().unwrap();
    write(
        profiles.path(),
        "p.json",
        r#"{"name": "p", "tools": ["read"]}"#,
    );
    let r = audit_with(
        lib.path(),
        vec![ProfileSource::File(profiles.path().join("p.json"))],
    );
    assert!(findings(&r, "SA701").is_empty() && findings(&r, "SA702").is_empty());
    // Each host profile judges separately.
    let r = audit_with(
        lib.path(),
        vec![
            ProfileSource::Builtin("vscode".into()),
            ProfileSource::Builtin("github-copilot".into()),
        ],
    );
    let unknown: Vec<&str> = findings(&r, "SA702")
        .iter()
        .map(|f| s(f, "message"))
        .collect();
    assert!(
        unknown
            .iter()
            .any(|m| m.contains("`think`") && m.contains("vscode")),
        "{unknown:?}"
    );
    assert!(
        unknown
            .iter()
            .any(|m| m.contains("`runCommands`") && m.contains("github-copilot")),
        "{unknown:?}"
    );
}

/// OpenCode's agent keys (`hidden`, `temperature`, `permission`) are another host's keys
/// (SA509, info), not unknown keys with a typo hint.
#[test]
fn opencode_agent_keys_are_another_hosts_keys() {
    let t = tree(&[(
        "agents/o.agent.md",
        "---\ndescription: Reviews.\nmode: subagent\nhidden: true\ntemperature: 0.1\npermission:\n  edit: deny\n---\nReview.\n",
    )]);
    let (r, _) = json_run(
        t.path(),
        &["--fail-on", "never", "-p", "builtin:vscode", "."],
    );
    let rules = rules_for(&r, "agents/o.agent.md");
    assert_eq!(
        rules.iter().filter(|r| *r == "SA509").count(),
        4,
        "{rules:?}"
    );
    assert!(!rules.contains(&"SA502".to_owned()), "{rules:?}");
}
