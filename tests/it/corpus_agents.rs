//! Agents and links on the real-world corpora in `../shared/corpus` (see its README): every
//! agent file found by an independent walk is reported once, links come from the
//! awesome-copilot plugins, and every legacy chat mode gets its SA508.
//!
//! When the corpus is missing the tests print a skip message, unless `CI` is set: then they fail.

use crate::common::*;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde_json::Value;

/// Every file under `root` (not entering `.git` or `node_modules`), as `/`-separated paths
/// relative to `root`.
fn walk(root: &Path) -> Vec<String> {
    fn go(root: &Path, dir: &Path, out: &mut Vec<String>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|e| e.unwrap())
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let path = e.path();
            let ft = e.file_type().unwrap();
            let name = e.file_name().to_string_lossy().into_owned();
            if ft.is_dir() {
                if name != ".git" && name != "node_modules" {
                    go(root, &path, out);
                }
            } else if ft.is_file() {
                let rel = path.strip_prefix(root).unwrap();
                out.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    let mut out = Vec::new();
    go(root, root, &mut out);
    out
}

/// Run the binary on `.` in `root` with `--profile builtin:vscode -f json`.
fn run(root: &Path) -> (Value, i32) {
    json_run(root, &[".", "--profile", "builtin:vscode"])
}

fn count_rule(r: &Value, rule: &str) -> usize {
    arr(r, "findings")
        .iter()
        .filter(|f| s(f, "rule") == rule)
        .count()
}

/// Checks every corpus run must pass: a normal exit and no internal errors.
fn sane(r: &Value, code: i32) {
    assert!(
        code == 0 || code == 1,
        "exit code {code} (2 means the run could not start)"
    );
    let internal: Vec<&Value> = arr(r, "findings")
        .iter()
        .filter(|f| s(f, "rule") == "SA199")
        .collect();
    assert!(internal.is_empty(), "internal errors: {internal:#?}");
}

/// Is `rel` an agent file by the independent definition: `*.agent.md`, `*.chatmode.md`, or a
/// `.md` (not README.md) directly in `.github/agents/`.
fn is_custom_agent(rel: &str) -> bool {
    let lower = rel.to_ascii_lowercase();
    let file = lower.rsplit('/').next().unwrap_or("");
    if lower.ends_with(".agent.md") || lower.ends_with(".chatmode.md") {
        return true;
    }
    let parent = Path::new(rel)
        .parent()
        .map(|p| p.to_string_lossy().replace('\\', "/"))
        .unwrap_or_default();
    lower.ends_with(".md")
        && file != "readme.md"
        && (parent == ".github/agents" || parent.ends_with("/.github/agents"))
}

/// Why an agent file's frontmatter is really broken, judged without skill-audit's parser:
/// no `---` first line, no closing `---`, YAML a YAML parser rejects, or not a mapping.
/// `None` when it reads as a mapping.
fn really_broken(bytes: &[u8]) -> Option<String> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Some("not UTF-8".into());
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    if first.trim_end() != "---" {
        return Some("no frontmatter".into());
    }
    let mut yaml = String::new();
    let mut closed = false;
    for line in lines {
        if line.trim_end() == "---" {
            closed = true;
            break;
        }
        yaml.push_str(line);
        yaml.push('\n');
    }
    if !closed {
        return Some("unclosed frontmatter".into());
    }
    match serde_saphyr::from_str::<Value>(&yaml) {
        Ok(Value::Object(_)) => None,
        Ok(other) => Some(format!("frontmatter is not a mapping: {other}")),
        Err(e) => Some(format!("YAML error: {e}")),
    }
}

#[test]
fn awesome_copilot_agents_and_links() {
    let Some(root) = corpus(AWESOME_COPILOT) else {
        return;
    };
    let files = walk(&root);
    let (r, code) = run(&root);
    sane(&r, code);

    // Every agent file appears exactly once in `agents[].path`.
    let dot_agent: Vec<&String> = files.iter().filter(|f| f.ends_with(".agent.md")).collect();
    assert_eq!(
        dot_agent.len(),
        226,
        "the corpus README promises 226 *.agent.md"
    );
    let expected: BTreeSet<&str> = files
        .iter()
        .filter(|f| is_custom_agent(f))
        .map(String::as_str)
        .collect();
    assert!(
        expected.contains(".github/agents/agentic-workflows.md"),
        "{expected:?}"
    );
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for a in arr(&r, "agents") {
        *seen.entry(s(a, "path")).or_default() += 1;
    }
    for f in &expected {
        assert_eq!(seen.get(f).copied(), Some(1), "{f} in agents[].path");
    }
    let extra: Vec<&&str> = seen.keys().filter(|p| !expected.contains(*p)).collect();
    assert!(
        extra.is_empty(),
        "agents that are no agent files: {extra:?}"
    );
    assert_eq!(r["summary"]["agents"], expected.len());

    // None is invalid unless its frontmatter is really broken; the broken ones say why.
    for a in arr(&r, "agents") {
        let path = s(a, "path");
        let broken = really_broken(&std::fs::read(root.join(path)).unwrap());
        let valid = a["valid"].as_bool().unwrap();
        match (&broken, valid) {
            (None, false) => panic!("{path} reads as a YAML mapping but is reported invalid"),
            (Some(why), true) => panic!("{path} is reported valid but {why}"),
            (Some(_), false) => {
                let explained = arr(&r, "findings").iter().any(|f| {
                    s(f, "path") == path
                        && s(f, "severity") == "error"
                        && [
                            "SA101", "SA102", "SA103", "SA104", "SA105", "SA106", "SA107",
                        ]
                        .contains(&s(f, "rule"))
                });
                assert!(explained, "{path} is invalid without a frontmatter error");
            }
            (None, true) => {}
        }
    }

    // Links are found, and every one joins a reported agent to a reported skill.
    let links = arr(&r, "links");
    assert!(!links.is_empty(), "no links found");
    let skill_paths: BTreeSet<&str> = arr(&r, "skills").iter().map(|k| s(k, "path")).collect();
    for l in links {
        assert!(seen.contains_key(s(l, "agent")), "{l}");
        assert!(skill_paths.contains(s(l, "skill_path")), "{l}");
    }

    // Every plugin listing both agents and skills contributes exactly the links its lists
    // name, resolved here independently: from the plugin folder first, then the repository
    // root, with `./agents/x.md` standing for `agents/x.agent.md`.
    let mut by_via: BTreeMap<&str, BTreeSet<(&str, &str)>> = BTreeMap::new();
    for l in links {
        by_via
            .entry(s(l, "via"))
            .or_default()
            .insert((s(l, "agent"), s(l, "skill_path")));
    }
    let file_set: BTreeSet<&str> = files.iter().map(String::as_str).collect();
    let mut plugins_with_both = 0;
    for manifest in files
        .iter()
        .filter(|f| f.starts_with("plugins/") && f.ends_with("/plugin.json"))
    {
        let json: Value =
            serde_json::from_str(&std::fs::read_to_string(root.join(manifest)).unwrap()).unwrap();
        let ext = &json["extensions"]["com.github.awesome-copilot"];
        let list = |key: &str| -> Vec<String> {
            let v = if ext[key].is_null() {
                &json[key]
            } else {
                &ext[key]
            };
            match v {
                Value::String(p) => vec![p.clone()],
                Value::Array(a) => a
                    .iter()
                    .filter_map(|x| x.as_str().map(str::to_owned))
                    .collect(),
                _ => Vec::new(),
            }
        };
        let (agents, skills) = (list("agents"), list("skills"));
        if agents.is_empty() || skills.is_empty() {
            continue;
        }
        plugins_with_both += 1;
        let name = json["name"].as_str().expect("plugin name");
        let dir = Path::new(manifest.as_str()).parent().unwrap();
        let candidates = |p: &str| -> Vec<String> {
            let p = p.trim_start_matches("./").trim_end_matches('/');
            let in_plugin = dir.join(p).to_string_lossy().replace('\\', "/");
            vec![in_plugin, p.to_owned()]
        };
        let resolved_agents: BTreeSet<String> = agents
            .iter()
            .filter_map(|p| {
                candidates(p).into_iter().find_map(|c| {
                    if file_set.contains(c.as_str()) && c.ends_with(".agent.md") {
                        return Some(c);
                    }
                    let alt = format!("{}.agent.md", c.strip_suffix(".md")?);
                    file_set.contains(alt.as_str()).then_some(alt)
                })
            })
            .collect();
        let resolved_skills: BTreeSet<String> = skills
            .iter()
            .filter_map(|p| {
                candidates(p).into_iter().find_map(|c| {
                    let file = if c.ends_with("/SKILL.md") {
                        c
                    } else {
                        format!("{c}/SKILL.md")
                    };
                    file_set.contains(file.as_str()).then_some(file)
                })
            })
            .collect();
        let via = format!("plugin:{name}");
        let got = by_via.get(via.as_str()).cloned().unwrap_or_default();
        assert!(!got.is_empty(), "{manifest} contributes no `{via}` links");
        let want: BTreeSet<(&str, &str)> = resolved_agents
            .iter()
            .flat_map(|a| {
                resolved_skills
                    .iter()
                    .map(move |k| (a.as_str(), k.as_str()))
            })
            .collect();
        assert_eq!(got, want, "links of {manifest}");
        let unresolved =
            agents.len() + skills.len() - resolved_agents.len() - resolved_skills.len();
        let sa602 = arr(&r, "findings")
            .iter()
            .filter(|f| s(f, "rule") == "SA602" && s(f, "path") == manifest)
            .count();
        // Lists may repeat an entry; only count misses when there are none.
        if unresolved == 0 {
            assert_eq!(sa602, 0, "{manifest}: SA602 although every path resolves");
        }
    }
    assert!(
        plugins_with_both > 0,
        "no plugin lists both agents and skills"
    );
    assert!(
        by_via.keys().all(|v| v.starts_with("plugin:")),
        "awesome-copilot links only through its plugins: {:?}",
        by_via.keys().collect::<Vec<_>>()
    );

    // With builtin:vscode the legacy flat names show up as SA701 and unknown names as SA702.
    let (sa701, sa702) = (count_rule(&r, "SA701"), count_rule(&r, "SA702"));
    assert!(
        sa701 > 0,
        "the corpus uses legacy names such as runCommands"
    );
    let vscode: Value = serde_json::from_str(include_str!("../../profiles/builtin/vscode.json"))
        .expect("vscode.json");
    let toolsets: BTreeSet<&str> = vscode["toolsets"]
        .as_object()
        .expect("vscode tool sets")
        .keys()
        .map(String::as_str)
        .collect();
    // VS Code's legacy names include full names of tools once in a set (`runCommands/x`).
    let legacy = vscode["renamed"].as_object().expect("vscode legacy names");
    for f in arr(&r, "findings")
        .iter()
        .filter(|f| ["SA701", "SA702"].contains(&s(f, "rule")))
    {
        assert!(seen.contains_key(s(f, "path")), "{f}");
        let m = s(f, "message");
        // MCP and extension tools (`server/tool`, `publisher.ext/tool`) are never judged
        // without servers in the profile; `read/x` and the like are VS Code's own.
        let tool = m.split('`').nth(1).unwrap_or("");
        if let Some((first, _)) = tool.split_once('/')
            && !legacy.contains_key(tool)
        {
            assert!(
                toolsets.contains(first),
                "judged an MCP or extension tool: {m}"
            );
        }
    }
    println!(
        "awesome-copilot with builtin:vscode: {} agents, {} links ({} plugins with agents and skills), {} drifting, SA701 {sa701}, SA702 {sa702}, exit {code}",
        seen.len(),
        links.len(),
        plugins_with_both,
        arr(&r, "drift").len(),
    );
}

#[test]
fn chat_modes_each_get_one_sa508() {
    let Some(root) = corpus(CHATMODES) else {
        return;
    };
    let files = walk(&root);
    let chatmodes: Vec<&String> = files
        .iter()
        .filter(|f| f.ends_with(".chatmode.md"))
        .collect();
    assert!(!chatmodes.is_empty(), "no chat modes in {CHATMODES}");
    let (r, code) = run(&root);
    sane(&r, code);
    let mut sa508: BTreeMap<&str, usize> = BTreeMap::new();
    for f in arr(&r, "findings")
        .iter()
        .filter(|f| s(f, "rule") == "SA508")
    {
        *sa508.entry(s(f, "path")).or_default() += 1;
    }
    for c in &chatmodes {
        assert_eq!(sa508.get(c.as_str()).copied(), Some(1), "SA508 on {c}");
    }
    assert_eq!(
        sa508.values().sum::<usize>(),
        chatmodes.len(),
        "SA508 only on chat modes: {sa508:?}"
    );
    for a in arr(&r, "agents") {
        let is_chatmode = s(a, "path").ends_with(".chatmode.md");
        assert_eq!(
            s(a, "flavor") == "chatmode",
            is_chatmode,
            "{}",
            s(a, "path")
        );
    }
    let listed = arr(&r, "agents")
        .iter()
        .filter(|a| s(a, "flavor") == "chatmode")
        .count();
    assert_eq!(listed, chatmodes.len());
    println!(
        "awesome-copilot-chatmodes-2025-11: {} chat modes, {} agents in all, SA508 {}, exit {code}",
        chatmodes.len(),
        arr(&r, "agents").len(),
        sa508.values().sum::<usize>()
    );
}
