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
        assert_eq!(
            status(&r, "skills", "skills/unmapped/SKILL.md", p),
            "not-judged",
            "{p}"
        );
        // A name no host defines leaves the rest judged: `search/codebase` is VS Code's (and,
        // on a host that lists no servers, could be a server's), not GitHub Copilot's.
        assert_eq!(
            status(&r, "skills", "skills/vscode-words/SKILL.md", p),
            if p == "github-copilot" {
                "unavailable"
            } else {
                "not-judged"
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
    assert_eq!(status(&r, "skills", path, "plain"), "unavailable");
    assert!(!rules_for(&r, path).contains(&"SA326".to_owned()));
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

#[test]
fn a_frontmatter_claude_code_reads_leniently_is_invalid_only_elsewhere() {
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
        &["-p", "builtin:claude-code", "-p", "builtin:vscode", "."],
    );
    let colon = "skills/colon/SKILL.md";
    assert_eq!(status(&r, "skills", colon, "claude-code"), "undeclared");
    assert_eq!(status(&r, "skills", colon, "vscode"), "invalid");
    let f = arr(&r, "findings")
        .iter()
        .find(|f| f["rule"] == "SA104")
        .unwrap();
    assert!(
        s(f, "message").contains("Claude Code still loads the skill"),
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
    let broken: Vec<&str> = arr(&r, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA231")
        .map(|f| s(f, "message"))
        .collect();
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
    let messages: Vec<&str> = arr(&r, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA502")
        .map(|f| s(f, "message"))
        .collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].contains("`agent` is a SKILL.md key"),
        "{messages:?}"
    );
    assert!(!messages[0].contains("did you mean"), "{messages:?}");
    assert!(
        messages[1].contains("did you mean `tools`?"),
        "{messages:?}"
    );
}
