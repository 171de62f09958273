//! Host profiles shipped with skill-audit (`--profile builtin:NAME`), from the data files in
//! `profiles/builtin/`. They also supply the tool vocabulary used to decide what an agent's
//! `tools` list grants.

use std::path::Path;
use std::sync::OnceLock;

use super::{Defined, Profile, ProfileError};

/// Name and JSON of every built-in profile.
pub(crate) const BUILTINS: &[(&str, &str)] = &[
    (
        "claude-code",
        include_str!("../../profiles/builtin/claude-code.json"),
    ),
    ("codex", include_str!("../../profiles/builtin/codex.json")),
    (
        "copilot-cli",
        include_str!("../../profiles/builtin/copilot-cli.json"),
    ),
    ("cursor", include_str!("../../profiles/builtin/cursor.json")),
    (
        "gemini-cli",
        include_str!("../../profiles/builtin/gemini-cli.json"),
    ),
    (
        "github-copilot",
        include_str!("../../profiles/builtin/github-copilot.json"),
    ),
    (
        "openclaw",
        include_str!("../../profiles/builtin/openclaw.json"),
    ),
    (
        "opencode",
        include_str!("../../profiles/builtin/opencode.json"),
    ),
    ("vscode", include_str!("../../profiles/builtin/vscode.json")),
];

/// Load a built-in profile by name.
pub(crate) fn load(name: &str) -> Result<Profile, ProfileError> {
    let display = format!("builtin:{name}");
    let Some((_, json)) = BUILTINS.iter().find(|(n, _)| *n == name) else {
        return Err(ProfileError {
            path: display,
            line: 0,
            column: 0,
            message: format!("no such built-in profile; known: {}", names().join(", ")),
        });
    };
    let role = super::compose::Role::Definition;
    super::compose::Composer::default().text(json, Path::new(name), &display, role)
}

/// Every built-in host profile, parsed once, in `BUILTINS` order.
pub(crate) fn hosts() -> &'static [Profile] {
    static CELL: OnceLock<Vec<Profile>> = OnceLock::new();
    CELL.get_or_init(|| BUILTINS.iter().filter_map(|(n, _)| load(n).ok()).collect())
}

/// The titles of the built-in hosts that skip a skill file not named exactly as they spell it
/// (`skill.md` for `SKILL.md`), in `BUILTINS` order.
pub(crate) fn exact_file_name_hosts() -> &'static [&'static str] {
    static CELL: OnceLock<Vec<&'static str>> = OnceLock::new();
    CELL.get_or_init(|| hosts_whose_file_rule(|f| f.case_sensitive))
}

/// The titles of the built-in hosts that ask the file system for their skill file's name, so
/// that another case of it is found only where the file system ignores case, in `BUILTINS`
/// order.
pub(crate) fn file_system_name_hosts() -> &'static [&'static str] {
    static CELL: OnceLock<Vec<&'static str>> = OnceLock::new();
    CELL.get_or_init(|| hosts_whose_file_rule(|f| f.file_system && !f.case_sensitive))
}

/// The titles of the built-in hosts whose rule for the skill file's name `holds`.
fn hosts_whose_file_rule(holds: fn(&super::loading::FileRule) -> bool) -> Vec<&'static str> {
    (hosts().iter())
        .filter(|p| {
            let v = p.vocabulary.as_ref();
            let file = v
                .and_then(|v| v.skills.as_ref())
                .and_then(|s| s.file.as_ref());
            file.is_some_and(holds)
        })
        .map(|p| {
            let title = p.vocabulary.as_ref().and_then(|v| v.title.as_deref());
            title.unwrap_or(p.name.as_str())
        })
        .collect()
}

/// The title of each built-in host that says how it reads a frontmatter that is not YAML, with
/// how, in `BUILTINS` order.
pub(crate) fn unreadable_frontmatter_hosts() -> &'static [(&'static str, super::loading::Unreadable)]
{
    static CELL: OnceLock<Vec<(&'static str, super::loading::Unreadable)>> = OnceLock::new();
    CELL.get_or_init(|| {
        (hosts().iter())
            .filter_map(|p| {
                let v = p.vocabulary.as_ref()?;
                let how = v.skills.as_ref()?.frontmatter.as_ref()?.unreadable;
                Some((v.title.as_deref().unwrap_or(p.name.as_str()), how))
            })
            .collect()
    })
}

/// The titles of the built-in hosts that load a skill file with no frontmatter, and of those
/// that skip it, in `BUILTINS` order.
pub(crate) fn no_frontmatter_hosts() -> &'static (Vec<&'static str>, Vec<&'static str>) {
    static CELL: OnceLock<(Vec<&'static str>, Vec<&'static str>)> = OnceLock::new();
    CELL.get_or_init(|| {
        let verdicts: Vec<(&str, bool)> = (hosts().iter())
            .filter_map(|p| {
                let v = p.vocabulary.as_ref()?;
                let title = v.title.as_deref().unwrap_or(p.name.as_str());
                let verdict = v.skills.as_ref()?.no_frontmatter(title);
                Some((
                    title,
                    !matches!(verdict, super::loading::Loading::Refused(_)),
                ))
            })
            .collect();
        let titles = |loads: bool| {
            (verdicts.iter())
                .filter(|v| v.1 == loads)
                .map(|v| v.0)
                .collect()
        };
        (titles(true), titles(false))
    })
}

/// The built-in hosts that load agents of `flavor` (`custom`, `chatmode`, `claude`).
pub(crate) fn loading(flavor: &str) -> impl Iterator<Item = &'static Profile> {
    hosts().iter().filter(move |p| {
        p.vocabulary
            .as_ref()
            .is_some_and(|v| v.loads.iter().any(|l| l == flavor))
    })
}

/// Does any built-in host define `name` itself ([`Profile::defines`])?
pub(crate) fn any_defines(name: &str) -> bool {
    static CELL: OnceLock<Defined> = OnceLock::new();
    CELL.get_or_init(|| Defined::union(hosts().iter()))
        .contains(name)
}

/// Does a built-in host that loads agents of `flavor` define `name` itself?
pub(crate) fn loaders_define(flavor: &str, name: &str) -> bool {
    static CELL: OnceLock<Vec<(String, Defined)>> = OnceLock::new();
    let by_flavor = CELL.get_or_init(|| {
        let mut flavors: Vec<&String> = hosts()
            .iter()
            .filter_map(|h| h.vocabulary.as_ref())
            .flat_map(|v| &v.loads)
            .collect();
        flavors.sort();
        flavors.dedup();
        flavors
            .into_iter()
            .map(|f| (f.clone(), Defined::union(loading(f))))
            .collect()
    });
    by_flavor
        .iter()
        .find(|(f, _)| f == flavor)
        .is_some_and(|(_, d)| d.contains(name))
}

/// The tools of `host` that another built-in host's own tables say do the work of its tool
/// `name`: VS Code's table of Claude Code's names puts `WebFetch` on its `web` set, so on
/// Claude Code `WebFetch` stands for VS Code's `fetch`; GitHub Copilot's aliases put `bash`
/// and Claude Code's `Bash` on one tool. Empty when no table relates them.
pub(crate) fn counterparts(host: &str, name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let own = hosts()
        .iter()
        .find(|h| h.vocabulary.as_ref().is_some_and(|v| v.host == host));
    for other in hosts() {
        let Some(v) = &other.vocabulary else { continue };
        if v.host == host {
            continue;
        }
        let mine = members(other, v, name);
        let own_v = own.and_then(|o| o.vocabulary.as_ref());
        // The other host's table of this host's names, and its tables of a third host's names
        // where this host's aliases take those: VS Code maps Claude Code's `Edit` onto the set
        // that holds its `editFiles`, and GitHub Copilot's alias puts `Edit` on its `edit`.
        for (third, map) in &v.maps {
            for (theirs, targets) in map {
                let covers = targets
                    .iter()
                    .flat_map(|t| members(other, v, t))
                    .any(|t| mine.contains(&t));
                if !covers {
                    continue;
                }
                if third == host {
                    out.push(theirs.clone());
                } else if let Some(t) = own_v.and_then(|o| alias_target(o, theirs)) {
                    out.push(t.to_owned());
                }
            }
        }
        // Its aliases, which may name this host's tools beside the other words for them.
        if let Some(target) = alias_target(v, name)
            && let Some(own) = own
        {
            for t in own.tools.names() {
                if alias_target(v, t).is_some_and(|a| a == target) {
                    out.push(t.to_owned());
                }
            }
            // And this host's own tables of a third host's names: where the aliases put
            // `name` on one tool with a name of that table, it stands for what the table
            // maps that name to (`bash` with Claude Code's `Bash`, which VS Code maps to
            // `execute`).
            for map in own.vocabulary.iter().flat_map(|o| o.maps.values()) {
                for (theirs, targets) in map {
                    if alias_target(v, theirs).is_some_and(|a| a == target) {
                        out.extend(targets.iter().cloned());
                    }
                }
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The tools `name` stands for on the host of `v`: a legacy name's new names, a tool set's
/// members, a tool by its full name or by the bare name of a tool in a set.
fn members(p: &Profile, v: &crate::profile::Vocabulary, name: &str) -> Vec<String> {
    let expand = |n: &str| -> Vec<String> {
        if let Some(set) = v.toolsets.get(n) {
            set.clone()
        } else if p.tools.contains(n) && n.contains('/') {
            vec![n.to_owned()]
        } else {
            v.toolsets
                .values()
                .flatten()
                .filter(|t| t.rsplit_once('/').is_some_and(|(_, bare)| bare == n))
                .cloned()
                .collect()
        }
    };
    match v.renamed.get(name) {
        Some(new) => new.iter().flat_map(|n| expand(n)).collect(),
        None => expand(name),
    }
}

/// The tool an alias of `v` (matched without regard to case) stands for, or `name` itself
/// when it is one an alias stands for.
fn alias_target<'v>(v: &'v crate::profile::Vocabulary, name: &str) -> Option<&'v str> {
    let lower = name.to_lowercase();
    v.aliases.get(&lower).map(String::as_str).or_else(|| {
        v.aliases
            .values()
            .find(|t| t.to_lowercase() == lower)
            .map(String::as_str)
    })
}

/// The built-in VS Code and GitHub Copilot profiles, whose vocabularies say what an agent's
/// `tools` list grants.
pub(crate) fn vocabularies() -> &'static [Profile] {
    static CELL: OnceLock<Vec<Profile>> = OnceLock::new();
    CELL.get_or_init(|| {
        hosts()
            .iter()
            .filter(|p| matches!(p.name.as_str(), "vscode" | "github-copilot"))
            .cloned()
            .collect()
    })
}

/// The JSON text of a built-in profile, exactly as shipped; `name` may carry the
/// `builtin:` prefix.
pub(crate) fn text(name: &str) -> Option<&'static str> {
    let name = name.strip_prefix("builtin:").unwrap_or(name);
    BUILTINS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, json)| *json)
}

/// The names of the built-in hosts, bare, as a profile's `host` takes them (`vscode`).
pub(crate) fn host_names() -> impl Iterator<Item = &'static str> {
    BUILTINS.iter().map(|(n, _)| *n)
}

/// The names of the built-in profiles, as `--profile` takes them (`builtin:NAME`).
pub(crate) fn names() -> Vec<String> {
    host_names().map(|n| format!("builtin:{n}")).collect()
}

/// One built-in profile as `skill-audit profiles` lists it.
pub(crate) struct Summary {
    /// `builtin:NAME`.
    pub name: String,
    pub description: String,
    /// When its lists were last checked against the host's documentation (YYYY-MM-DD).
    pub checked: Option<String>,
}

/// The latest date the built-in model lists were checked against their hosts' docs.
pub(crate) fn checked() -> String {
    // Only these fields: the files are large, and the rest need not be built.
    #[derive(serde::Deserialize)]
    struct Checked {
        checked: Option<String>,
        #[serde(rename = "models-checked")]
        models_checked: Option<String>,
        #[serde(default)]
        models: Vec<serde::de::IgnoredAny>,
    }
    BUILTINS
        .iter()
        .filter_map(|(_, json)| {
            let c = serde_json::from_str::<Checked>(json).ok()?;
            if c.models.is_empty() {
                None
            } else {
                c.models_checked.or(c.checked)
            }
        })
        .max()
        .unwrap_or_default()
}

/// A summary of each built-in profile.
pub(crate) fn describe() -> Vec<Summary> {
    BUILTINS
        .iter()
        .map(|(name, json)| {
            let v = serde_json::from_str::<serde_json::Value>(json).unwrap_or_default();
            let field = |key: &str| v.get(key).and_then(|d| d.as_str()).map(str::to_owned);
            Summary {
                name: format!("builtin:{name}"),
                description: field("description").unwrap_or_default(),
                checked: field("checked"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DepKind;
    use crate::profile::Verdict;

    #[test]
    fn every_builtin_loads() {
        for (name, _) in BUILTINS {
            let p = load(name).unwrap();
            assert_eq!(p.name, *name);
            // A host whose tools are documented lists them; the others say they are not judged.
            assert_ne!(
                p.tools.is_empty(),
                p.describes(crate::profile::Undescribed::Tools),
                "{name}"
            );
        }
        assert!(load("nope").is_err());
        assert_eq!(vocabularies().len(), 2);
    }

    #[test]
    fn vscode_vocabulary() {
        let p = load("vscode").unwrap();
        assert_eq!(p.verdict("edit/editFiles"), Verdict::Known);
        assert_eq!(p.verdict("edit"), Verdict::Known, "tool set");
        assert_eq!(
            p.verdict("codebase"),
            Verdict::Renamed(vec!["search/codebase".into()])
        );
        assert!(matches!(p.verdict("runCommands"), Verdict::Renamed(v) if v.len() == 4));
        assert_eq!(p.verdict("think"), Verdict::Unknown);
        // MCP and extension tools are not the host's; without servers listed, the profile
        // cannot judge them.
        for name in ["github/*", "ms-python.python/getPythonEnvironmentInfo"] {
            assert_eq!(p.verdict(name), Verdict::Unknown, "{name}");
            assert!(p.may_provide(name).is_some(), "{name}");
        }
        assert_eq!(
            p.may_provide("browser/frobnicate"),
            None,
            "a tool set of its own"
        );
        assert!(
            p.has(DepKind::Tools, "runCommands"),
            "renamed names still resolve"
        );
        assert!(!p.has(DepKind::Tools, "think"));
    }

    /// GitHub's cloud agent runs the Copilot CLI's harness, and its profile reads a SKILL.md
    /// by the rules read from the CLI's runtime: the two must not drift apart.
    #[test]
    fn the_cloud_agent_loads_skills_as_the_copilot_cli() {
        let rules = |name: &str| {
            let mut s = vocabulary(name).skills.unwrap();
            s.frontmatter.as_mut().unwrap().source.clear();
            for t in [&mut s.name, &mut s.description] {
                t.as_mut().unwrap().source.clear();
            }
            s.file.as_mut().unwrap().source.clear();
            s
        };
        assert_eq!(rules("github-copilot"), rules("copilot-cli"));
    }

    #[test]
    fn another_hosts_tables_give_the_counterparts_of_its_names() {
        // VS Code's table of Claude Code's names, read backwards.
        assert_eq!(
            counterparts("claude-code", "fetch"),
            ["WebFetch", "WebSearch"]
        );
        assert_eq!(
            counterparts("claude-code", "web"),
            ["WebFetch", "WebSearch"]
        );
        assert!(counterparts("claude-code", "editFiles").contains(&"Edit".to_owned()));
        assert_eq!(counterparts("claude-code", "runSubagent"), ["Task"]);
        // GitHub Copilot's aliases put `bash` and Claude Code's terminals on one tool.
        assert_eq!(counterparts("claude-code", "bash"), ["Bash", "PowerShell"]);
        // ... and, through VS Code's table of Claude Code's `Bash`, on VS Code's terminal.
        assert_eq!(counterparts("vscode", "bash"), ["execute"]);
        assert_eq!(counterparts("vscode", "task"), ["agent"]);
        // No table relates these.
        // Through Claude Code's names: VS Code's table of them, GitHub Copilot's aliases.
        assert_eq!(counterparts("github-copilot", "editFiles"), ["edit"]);
        assert_eq!(counterparts("github-copilot", "fetch"), ["web"]);
        assert!(counterparts("claude-code", "frobnicate").is_empty());
        assert!(counterparts("vscode", "Frobnicate").is_empty());
    }

    #[test]
    fn github_aliases_are_case_insensitive() {
        let p = load("github-copilot").unwrap();
        for name in [
            "Bash",
            "shell",
            "Read",
            "NotebookEdit",
            "Grep",
            "Task",
            "WebFetch",
            "TodoWrite",
            "github/get_issue",
        ] {
            assert_eq!(p.verdict(name), Verdict::Known, "{name}");
        }
        assert_eq!(p.verdict("codebase"), Verdict::Unknown);
        assert_eq!(
            p.verdict("slack/post"),
            Verdict::Unknown,
            "servers listed, slack is not one"
        );
    }

    #[test]
    fn claude_permission_syntax() {
        let p = load("claude-code").unwrap();
        assert_eq!(p.verdict("Bash(git:*)"), Verdict::Known);
        assert_eq!(p.verdict("Frobnicate"), Verdict::Unknown);
    }

    /// The vocabulary of a built-in profile (every one has one).
    fn vocabulary(name: &str) -> crate::profile::Vocabulary {
        load(name).unwrap().vocabulary.expect("a host profile")
    }

    #[test]
    fn every_builtin_is_sourced_dated_and_names_models() {
        for (name, json) in BUILTINS {
            let v: serde_json::Value = serde_json::from_str(json).unwrap();
            let source = v["source"].as_str().unwrap_or_default();
            assert!(source.contains("https://"), "{name}: source {source:?}");
            let checked = v["checked"].as_str().unwrap_or_default();
            for (key, date) in [("checked", checked), ("models-checked", checked)]
                .into_iter()
                .chain(v["models-checked"].as_str().map(|d| ("models-checked", d)))
            {
                let parts: Vec<&str> = date.split('-').collect();
                assert!(
                    parts.len() == 3
                        && [4, 2, 2] == [parts[0].len(), parts[1].len(), parts[2].len()]
                        && parts.iter().all(|p| p.bytes().all(|b| b.is_ascii_digit())),
                    "{name}: {key} {date:?} is not YYYY-MM-DD"
                );
                assert!(date <= checked, "{name}: {key} {date} is after `checked`");
            }
            let voc = vocabulary(name);
            assert!(voc.title.is_some(), "{name}: no title");
            let rules = v["skills"].as_object().expect("loading rules, if none");
            for (rule, body) in rules {
                let source = body["source"].as_str().unwrap_or_default();
                assert!(!source.is_empty(), "{name}: rule {rule} has no source");
            }
            // Hosts whose agents are judged say which formats they load; only they name models.
            let judges_agents = !voc
                .not_judged
                .contains(&crate::profile::Undescribed::Agents);
            assert_eq!(!voc.loads.is_empty(), judges_agents, "{name}: loads");
            assert_eq!(!voc.models.is_empty(), judges_agents, "{name}: models");
            let mut models = voc.models.clone();
            models.sort();
            models.dedup();
            assert_eq!(
                models.len(),
                voc.models.len(),
                "{name}: a model listed twice"
            );
        }
    }

    #[test]
    fn claude_code_current_tools() {
        let p = load("claude-code").unwrap();
        for name in [
            "Agent",
            "AskUserQuestion",
            "EnterPlanMode",
            "ExitPlanMode",
            "EnterWorktree",
            "LSP",
            "Monitor",
            "NotebookEdit",
            "PowerShell(git push*)",
            "SendMessage",
            "Skill(deploy)",
            "TaskCreate",
            "TaskGet",
            "TaskList",
            "TaskUpdate",
            "TaskOutput",
            "TaskStop",
            "TodoWrite",
            "ToolSearch",
        ] {
            assert_eq!(p.verdict(name), Verdict::Known, "{name}");
        }
        // Older names still listed by the official plugins' agents.
        for name in [
            "Task(worker)",
            "KillShell",
            "BashOutput",
            "LS",
            "NotebookRead",
            "MultiEdit",
        ] {
            assert_eq!(p.verdict(name), Verdict::Known, "{name}");
        }
        // Claude Code matches tool names case-sensitively.
        assert_eq!(p.verdict("sendmessage"), Verdict::Unknown);
        let models = vocabulary("claude-code").models;
        for m in [
            "sonnet",
            "opus",
            "haiku",
            "inherit",
            "opusplan",
            "claude-opus-4-6",
        ] {
            assert!(models.iter().any(|x| x == m), "{m}");
        }
    }

    #[test]
    fn vscode_current_tools() {
        let p = load("vscode").unwrap();
        for name in [
            "read/viewImage",
            "execute/awaitTerminal",
            "execute/killTerminal",
            "execute/sendToTerminal",
            "edit/rename",
            "edit/createJupyterNotebook",
            "web/githubTextSearch",
            "browser",
            "browser/openBrowserPage",
            "browser/screenshotPage",
            "browser/runPlaywrightCode",
            "vscode/askQuestions",
        ] {
            assert_eq!(p.verdict(name), Verdict::Known, "{name}");
        }
        // Legacy names VS Code still maps to their replacements.
        assert_eq!(
            p.verdict("new/runVscodeCommand"),
            Verdict::Renamed(vec!["vscode/runCommand".into()])
        );
        assert!(matches!(p.verdict("new"), Verdict::Renamed(v) if v.len() == 4));
        assert!(matches!(p.verdict("runNotebooks"), Verdict::Renamed(v) if v.len() == 3));
        assert_eq!(
            p.verdict("createFile"),
            Verdict::Renamed(vec!["edit/createFile".into()])
        );
        // Not referenceable in a tools list (the extension hides it from prompts).
        assert_eq!(p.verdict("findTestFiles"), Verdict::Unknown);
        assert_eq!(p.verdict("browser/frobnicate"), Verdict::Unknown);
    }

    #[test]
    fn vscode_maps_claude_tool_names() {
        let voc = vocabulary("vscode");
        let claude = &voc.maps["claude-code"];
        assert_eq!(claude["Bash"], ["execute"]);
        assert_eq!(claude["Read"], ["read/readFile", "read/getNotebookSummary"]);
        assert_eq!(claude["AskUserQuestion"], ["vscode/askQuestions"]);
        assert!(claude["Skill"].is_empty(), "known, mapped to nothing");
        // Every name it maps to is one VS Code knows.
        let p = load("vscode").unwrap();
        for to in claude.values().flatten() {
            assert_eq!(p.verdict(to), Verdict::Known, "{to}");
        }
        // The Claude names it maps are Claude Code's own.
        let cc = load("claude-code").unwrap();
        for from in claude.keys() {
            assert_eq!(cc.verdict(from), Verdict::Known, "{from}");
        }
        for m in [
            "Claude Sonnet 4.5",
            "Claude Sonnet 4.5 (copilot)",
            "GPT-5.2",
        ] {
            assert!(voc.models.iter().any(|x| x == m), "{m}");
        }
    }

    #[test]
    fn github_copilot_models() {
        let voc = vocabulary("github-copilot");
        for m in ["Claude Opus 4.5", "GPT-5.2", "Claude Haiku 4.5"] {
            assert!(voc.models.iter().any(|x| x == m), "{m}");
        }
        assert!(voc.maps.is_empty(), "it loads no Claude-format agents");
    }

    #[test]
    fn hook_events_of_each_host() {
        let vscode = vocabulary("vscode").hook_events;
        assert_eq!(vscode.len(), 8);
        let claude = vocabulary("claude-code").hook_events;
        for e in &vscode {
            assert!(
                claude.contains(e),
                "{e}: VS Code's events are Claude Code's too"
            );
        }
        for e in [
            "SessionEnd",
            "PostToolUseFailure",
            "PermissionRequest",
            "PreModelSwitch",
        ] {
            assert!(claude.iter().any(|x| x == e), "{e}");
        }
        assert!(
            vocabulary("github-copilot").hook_events.is_empty(),
            "GitHub runs no hooks from frontmatter"
        );
    }

    #[test]
    fn undocumented_tools_are_not_judged() {
        use crate::evaluate::{Judged, ToolVerdict, tool};
        let codex = load("codex").unwrap();
        for judged in [Judged::Skill, Judged::SkillTools, Judged::ClaudeNames] {
            for name in ["Read", "shell", "github/get_issue"] {
                assert!(
                    matches!(tool(&codex, judged, name), ToolVerdict::NotJudged),
                    "{name}"
                );
            }
        }
        // A host whose tools are documented still judges them.
        let vscode = load("vscode").unwrap();
        assert!(matches!(
            tool(&vscode, Judged::Skill, "frobnicate"),
            ToolVerdict::Unknown
        ));
    }

    #[test]
    fn text_takes_the_name_with_or_without_prefix() {
        assert_eq!(text("vscode"), text("builtin:vscode"));
        assert!(text("vscode").unwrap().contains("\"host\": \"vscode\""));
        assert_eq!(text("nope"), None);
        assert_eq!(names().len(), BUILTINS.len());
        assert!(describe().iter().all(|s| s.checked.is_some()));
    }
}
