//! SA7xx: tool names judged against a host's vocabulary (built-in host profiles).

use super::{FixDoc, RuleDoc};
use crate::diagnostic::{Applicability, Finding, Fix, Severity, quote, quoted};
use crate::evaluate::{self, Judged, ToolVerdict};
use crate::model::Agent;
use crate::profile::Profile;
use crate::rules::Rule;
use crate::span;

/// Renamed and unknown tool names of each agent, for every profile in the run that runs on
/// a host which loads the agent.
pub(crate) fn check(agents: &[Agent], profiles: &[Profile], out: &mut Vec<Finding>) {
    for p in profiles.iter().filter(|p| p.vocabulary.is_some()) {
        for a in agents.iter().filter(|a| evaluate::loads(p, a)) {
            // The names this profile's fixes add to the agent's list, so two old names with
            // one new name between them add it once.
            let mut added = Vec::new();
            // Where each tool is written, gathered for the first finding: most lists have none.
            let places = std::cell::OnceCell::new();
            let places = || places.get_or_init(|| a.tool_places());
            let at = |t: &str| places().get(t).copied().unwrap_or(a.tools_pos);
            // A name the list repeats is judged once, at its first place: one finding per
            // name, and one fix (a second "remove" fix for the same place would undo the
            // first, and each would read the whole list again).
            let mut seen = foldhash::HashSet::default();
            let own = evaluate::OwnServers::of(a);
            let claude = p.host() == Some("claude-code") && a.flavor == "claude";
            for t in a.tools.iter().flatten().filter(|t| seen.insert(t.as_str())) {
                if claude && let Some(f) = mcp_spelled_elsewhere(a, t, at(t), p) {
                    out.push(f);
                    continue;
                }
                match evaluate::tool_with(p, Judged::Agent(a), t, &own) {
                    ToolVerdict::Renamed(new) => {
                        let listed = Listed {
                            places: places(),
                            added: &mut added,
                        };
                        out.push(renamed_tool(a, t, at(t), &p.name, &new, listed));
                    }
                    ToolVerdict::Unknown if !vocabulary_question(p, t) => {}
                    ToolVerdict::Unknown => out.push(unknown_tool(a, t, at(t), p, None)),
                    ToolVerdict::Unmapped(native) => {
                        out.push(unknown_tool(a, t, at(t), p, Some(&native)));
                    }
                    // Denied names are the environment's choice, not the agent's mistake:
                    // the availability rules report them.
                    ToolVerdict::Resolves | ToolVerdict::Denied | ToolVerdict::NotJudged => {}
                }
            }
        }
    }
}

/// `tool`, in a Claude-format agent's `tools` on Claude Code (`p`), when it is an MCP tool
/// spelt as VS Code and GitHub Copilot spell it (`server/tool`): Claude Code matches MCP tools
/// only as `mcp__server__tool`, so the name grants nothing there.
fn mcp_spelled_elsewhere(
    agent: &Agent,
    tool: &str,
    at: crate::diagnostic::Pos,
    p: &Profile,
) -> Option<Finding> {
    let name = crate::profile::names::tool_of(tool);
    let (server, rest) = name.split_once('/')?;
    if server.is_empty()
        || rest.is_empty()
        || name.starts_with("mcp__")
        || name.contains(['*', '?', '['])
    {
        return None;
    }
    let claude = crate::profile::names::claude_code_spelling(name)?;
    let message = format!(
        "{} is how VS Code and GitHub Copilot spell an MCP tool; Claude Code matches MCP tools only as {}, so this name grants nothing on profile {} and is silently dropped",
        quote(tool),
        quote(&claude),
        quote(&p.name)
    );
    Some(
        Finding::new(Rule::UnknownTool, &agent.path, at, message)
            .about(tool)
            .on_profile(&p.name),
    )
}

/// Is an unknown `tool` on host profile `p` a question of the host's vocabulary (SA702), not
/// of what the environment's servers offer (SA402/SA403)? When the profile lists servers, a
/// name that could be one of their tools (not a built-in host's name) is an environment gap.
fn vocabulary_question(p: &Profile, tool: &str) -> bool {
    let Some(v) = &p.vocabulary else {
        return false;
    };
    let bare = crate::profile::names::tool_of(tool);
    let canonical = crate::profile::names::canonical(bare);
    if !v.has_servers {
        // A server's or an extension's tool, on a profile that lists no servers, is one it
        // cannot judge; the host's own names and bare names are its vocabulary's.
        let qualified = canonical.contains('/');
        return !(qualified && p.may_provide(tool).is_some());
    }
    // A host's own name (this host's tool sets, or any built-in host's tools and legacy
    // names) cannot come from a server; nor can a bare name where servers' tools are always
    // written `server/tool`.
    v.in_tool_set(&canonical)
        || crate::profile::builtin::any_defines(bare)
        || v.qualified_server_tools && !canonical.contains('/')
}

/// Does SA702 report `tool` of `agent` on `p`? The partial-agent finding leaves such names to
/// it, so one cause gives one finding. `own`: the servers the agent configures.
pub(crate) fn reported_unknown(
    p: &Profile,
    agent: &Agent,
    tool: &str,
    own: &evaluate::OwnServers<'_>,
) -> bool {
    p.vocabulary.is_some()
        && match evaluate::tool_with(p, Judged::Agent(agent), tool, own) {
            ToolVerdict::Unknown => vocabulary_question(p, tool),
            ToolVerdict::Unmapped(_) => true,
            _ => false,
        }
}

pub(crate) const RENAMED_TOOL: RuleDoc = RuleDoc {
    code: "SA701",
    name: "renamed-tool",
    severity: Severity::Warning,
    summary: "An agent uses a tool name the host has renamed",
    what: "An agent's `tools` list uses a legacy tool name that the host (a built-in profile such as `builtin:vscode`) has renamed. The message names the replacement.",
    why: "Hosts map some old names for now, but skills and agents that mix old and new names drift apart, and the old names are being dropped.",
    example: "tools: [runCommands, codebase]\n\nFix: tools: [execute/getTerminalOutput, execute/runInTerminal, read/terminalLastCommand, read/terminalSelection, search/codebase]",
    fix: Some(FixDoc {
        applicability: Applicability::Safe,
        what: "Replace the old name in place with its new name or names, written like the list's other entries (flow or block, quoted or not); a new name the list has already is not added again, and an old name whose new names are all there is removed.",
    }),
};

/// The names an agent's `tools` list holds: its own, where each is written, and those the
/// fixes made so far add.
struct Listed<'a> {
    places: &'a foldhash::HashMap<&'a str, Pos>,
    added: &'a mut Vec<String>,
}

/// `tool`, written at `at` in the `tools` of `agent`, is named `new` on the host `profile`.
fn renamed_tool(
    agent: &Agent,
    tool: &str,
    at: Pos,
    profile: &str,
    new: &[String],
    listed: Listed<'_>,
) -> Finding {
    Finding::new(
        Rule::RenamedTool,
        &agent.path,
        at,
        format!(
            "{} has been renamed on profile {}; use {}",
            quote(tool),
            quote(profile),
            quoted(new)
        ),
    )
    .about(tool)
    .on_profile(profile)
    .with_fix(rename_fix(agent, tool, at, new, listed))
}

/// The edit that puts `new` where `tool` is written (at `at`) in the agent's `tools` list.
fn rename_fix(
    agent: &Agent,
    tool: &str,
    at: Pos,
    new: &[String],
    listed: Listed<'_>,
) -> Option<Fix> {
    let text = agent.head.as_deref()?;
    let (start, end) = span::scalar_at(text, at, tool)?;
    let Listed { places, added } = listed;
    let fresh: Vec<&String> = new
        .iter()
        .filter(|n| !places.contains_key(n.as_str()) && !added.contains(n))
        .collect();
    let (edit, message) = if fresh.is_empty() {
        let edit = span::remove_item(text, start, end)?;
        // What the file has, and what only the fix of another old name in the list adds.
        let (there, coming): (Vec<&String>, Vec<&String>) =
            new.iter().partition(|n| places.contains_key(n.as_str()));
        let why = match (there.is_empty(), coming.is_empty()) {
            (false, true) => format!("the list has {} already", quoted(&there)),
            (true, false) => format!(
                "the rename of another old name in the list adds {}",
                quoted(&coming)
            ),
            _ => format!(
                "the list has {} already, and the rename of another old name in it adds {}",
                quoted(&there),
                quoted(&coming)
            ),
        };
        (edit, format!("remove {}: {why}", quote(tool)))
    } else {
        let names: Vec<&str> = fresh.iter().map(|n| n.as_str()).collect();
        let edit = span::replace_item(text, start, end, &names)?;
        (
            edit,
            format!("replace {} with {}", quote(tool), quoted(&names)),
        )
    };
    added.extend(fresh.into_iter().cloned());
    Some(Fix::safe(message, vec![edit]))
}

pub(crate) const UNKNOWN_TOOL: RuleDoc = RuleDoc {
    code: "SA702",
    name: "unknown-tool",
    severity: Severity::Warning,
    summary: "An agent uses a tool name the host does not know",
    what: "An agent's `tools` list names a tool the host does not know, on a profile whose host loads the agent (`.agent.md` on VS Code and GitHub Copilot, Claude-format agents on Claude Code and VS Code). On VS Code, a Claude Code tool name it does not map is reported too. MCP and extension tools (`server/tool`, `publisher.ext/tool`) are left to the profile's servers: when the profile lists servers, a name one of them could offer is reported as missing from the environment (SA402, SA403), not as unknown to the host. VS Code also takes an extension's or a server's tool by its bare name (`pgsql_connect`), so there the message says an extension may provide it; GitHub Copilot takes a server's tool only as `server/tool`, so there a bare name that is not its own is reported, and the name of one of its servers (`github`) gets the advice to write `github/*`. On Claude Code, a Claude-format agent's MCP tool in VS Code's spelling (`github/list_issues`) is reported too: Claude Code matches MCP tools only as `mcp__github__list_issues`.",
    why: "Hosts drop unknown tool names without a word, so the agent silently loses the capability.",
    example: "tools: [think]\non builtin:vscode.\n\nFix: remove it or use the current name.",
    fix: None,
};

/// `tool`, written at `at` in the `tools` of `agent`, is no tool of the host profile `p`;
/// `native` names the agent's own host when the tool is one of its tools that `profile`'s
/// host does not map.
fn unknown_tool(agent: &Agent, tool: &str, at: Pos, p: &Profile, native: Option<&str>) -> Finding {
    let profile = format!("profile {}", quote(&p.name));
    let lists_servers = p.vocabulary.as_ref().is_some_and(|v| v.has_servers);
    let drops = p
        .vocabulary
        .as_ref()
        .is_some_and(|v| v.is_dropped(crate::profile::names::tool_of(tool)));
    let subject = tool;
    let tool = quote(tool);
    let message = match native {
        Some(native) => format!(
            "{tool} is a {native} tool that {profile} does not map to one of its own; it will be silently dropped"
        ),
        None if drops => format!(
            "{tool} is a retired or hidden tool on {profile}, not one a tools list can name; it will be silently dropped"
        ),
        // The name of a server the host has: its tools are granted as `server/*`.
        None if lists_servers
            && p.tools
                .names()
                .any(|n| n.strip_suffix("/*") == Some(subject)) =>
        {
            format!(
                "{tool} is not a tool {profile} knows; it will be silently dropped. To grant the {tool} server's tools, write {}",
                quote(&format!("{subject}/*"))
            )
        }
        None if lists_servers => {
            format!("{tool} is not a tool {profile} knows; it will be silently dropped")
        }
        // VS Code also takes an extension's tool by its bare name (`getToolAliases`).
        None if !p.describes(crate::profile::Undescribed::Extensions) => format!(
            "{tool} is not a tool {profile} has built in; unless an extension or an MCP server of the environment provides it, it will be silently dropped"
        ),
        // The profile does not say which MCP servers the environment has; a server (or a
        // server's tool) of that name would be the only way the host keeps it.
        None => format!(
            "{tool} is not a tool {profile} has built in; unless an MCP server of the environment provides it, it will be silently dropped"
        ),
    };
    Finding::new(Rule::UnknownTool, &agent.path, at, message)
        .about(subject)
        .on_profile(&p.name)
}

// ---------------------------------------------------------------------------------------------
// `model` judged against the model names of the built-in hosts (SA703).

use crate::diagnostic::{Pos, Sink};
use crate::parse::yaml::{Node, Value};
use crate::profile::builtin;

/// The names of a skill's `model`, judged by every built-in host: a skill may be used on any.
pub(crate) fn check_skill_model(root: &Node, sink: &mut Sink) {
    if let Some(value) = root.get("model") {
        let hosts: Vec<&'static Profile> = builtin::hosts().iter().collect();
        check_model(value, &hosts, sink);
    }
}

/// The names of an agent's `model`, judged by the built-in hosts that load it.
pub(crate) fn check_agent_model(agent: &Agent, root: &Node, sink: &mut Sink) {
    if let Some(value) = root.get("model") {
        let hosts: Vec<&'static Profile> = builtin::hosts()
            .iter()
            .filter(|p| evaluate::loads(p, agent))
            .collect();
        check_model(value, &hosts, sink);
    }
}

/// A built-in host's models, folded (see [`fold_model`]) once for the whole run: every
/// agent with a `model` asks.
struct Folded {
    host: &'static str,
    set: foldhash::HashSet<String>,
    /// Each folded name with the model it stands for, for "did you mean".
    models: Vec<(String, &'static str)>,
}

fn folded_models(host: &Profile) -> Option<&'static Folded> {
    static FOLDED: std::sync::OnceLock<Vec<Folded>> = std::sync::OnceLock::new();
    FOLDED
        .get_or_init(|| {
            builtin::hosts()
                .iter()
                .map(|h| {
                    let models = h.vocabulary.as_ref().map(|v| v.models.as_slice());
                    let models: Vec<(String, &'static str)> = models
                        .unwrap_or_default()
                        .iter()
                        .map(|m| (fold_model(m), m.as_str()))
                        .collect();
                    Folded {
                        host: h.name.as_str(),
                        set: models.iter().map(|(f, _)| f.clone()).collect(),
                        models,
                    }
                })
                .collect()
        })
        .iter()
        .find(|f| f.host == host.name)
}

fn check_model(value: &Node, hosts: &[&'static Profile], sink: &mut Sink) {
    let names: Vec<(&str, Pos)> = match &value.value {
        Value::Str(s) => vec![(s.as_str(), value.pos)],
        Value::Seq(items) => items
            .iter()
            .filter_map(|i| Some((i.as_str()?, i.pos)))
            .collect(),
        _ => return,
    };
    // Hosts without a model list do not judge models, and messages do not name them.
    let hosts: Vec<&'static Profile> = hosts
        .iter()
        .filter(|h| folded_models(h).is_some_and(|f| !f.models.is_empty()))
        .copied()
        .collect();
    let folded_hosts: Vec<&'static Folded> =
        hosts.iter().filter_map(|h| folded_models(h)).collect();
    if folded_hosts.is_empty() {
        return;
    }
    // The candidates for "did you mean", gathered only for a name no host knows: most
    // libraries name models the hosts list.
    let models = std::cell::OnceCell::new();
    let models = || -> &Vec<(&'static str, &'static str)> {
        models.get_or_init(|| {
            folded_hosts
                .iter()
                .flat_map(|f| f.models.iter().map(|(folded, m)| (folded.as_str(), *m)))
                .collect()
        })
    };
    for (name, pos) in names {
        let name = name.trim();
        if name.is_empty() {
            continue;
        }
        if let Some(parts) = super::deps::names_in_model_string(name) {
            // The list suggested holds each name as the hosts spell it; one no host lists
            // would only trade this finding for SA703, so it is named apart.
            let mut known = Vec::new();
            let mut unknown = Vec::new();
            for p in parts {
                let folded = fold_model(&p);
                match models().iter().find(|(f, _)| *f == folded) {
                    Some((_, m)) => known.push((*m).to_owned()),
                    None if folded == "inherit" => known.push(p),
                    None => unknown.push(p),
                }
            }
            let hosts: Vec<&str> = hosts.iter().map(|p| p.name.as_str()).collect();
            super::deps::model_list_in_string(sink, pos, name, &known, &unknown, &hosts);
            continue;
        }
        let folded = fold_model(name);
        // `inherit` asks for the model the session already runs on: a host without the word
        // ignores the field and does just that.
        if folded == "inherit" || folded_hosts.iter().any(|f| f.set.contains(&folded)) {
            continue;
        }
        let typo = model_typo(&folded, models());
        unknown_model(sink, pos, name, &hosts, typo);
    }
}

/// The model of `models` (each folded, and as named) that the name folded as `folded` is a
/// near spelling of, keeping its version (a suggestion that changes the version names another
/// model). Libraries repeat the same names, so each name's answer is kept for the run.
fn model_typo(folded: &str, models: &[(&'static str, &'static str)]) -> Option<&'static str> {
    type Memo = std::collections::HashMap<(String, usize), Option<&'static str>>;
    static MEMO: std::sync::Mutex<Option<Memo>> = std::sync::Mutex::new(None);
    // The candidate list differs by the hosts judging: its length tells them apart.
    let key = (folded.to_owned(), models.len());
    if let Some(hit) = MEMO
        .lock()
        .ok()
        .and_then(|m| m.as_ref().and_then(|m| m.get(&key).copied()))
    {
        return hit;
    }
    let digits = |s: &str| s.chars().filter(char::is_ascii_digit).collect::<String>();
    // The folded name's digits: a snapshot date or a `[1m]` suffix names no other version.
    let typo = crate::typos::closest(folded, models.iter().copied())
        .filter(|t| digits(t) == digits(folded));
    if let Ok(mut m) = MEMO.lock() {
        m.get_or_insert_with(Memo::new).insert(key, typo);
    }
    typo
}

/// A model name as hosts compare it, leniently: case, spacing, VS Code's ` (copilot)` vendor
/// suffix, and Claude Code's `[1m]` context suffix and `-YYYYMMDD` snapshot date do not count.
pub(crate) fn fold_model(name: &str) -> String {
    let mut s = name.trim().to_lowercase();
    loop {
        let before = s.len();
        for suffix in [" (copilot)", "(copilot)", "[1m]"] {
            if let Some(rest) = s.strip_suffix(suffix) {
                s = rest.trim_end().to_owned();
            }
        }
        if let Some((stem, date)) = s.rsplit_once('-')
            && date.len() == 8
            && date.bytes().all(|b| b.is_ascii_digit())
            && stem.starts_with("claude")
        {
            s = stem.to_owned();
        }
        if s.len() == before {
            break;
        }
    }
    s.split_whitespace().collect::<Vec<_>>().join("-")
}

pub(crate) const UNKNOWN_MODEL: RuleDoc = RuleDoc {
    code: "SA703",
    name: "unknown-model",
    severity: Severity::Warning,
    summary: "`model` names a model no host lists",
    what: "A name in `model` is not a model of any built-in host that would use it: for a skill, any host (VS Code, GitHub Copilot, Claude Code); for an agent, the hosts that load it. Names are compared leniently (case, spacing, a ` (copilot)` suffix, Claude Code's `[1m]` suffix and snapshot dates). The hosts' model lists are dated (`skill-audit profiles`); a model retired since is reported too. `inherit` is not reported: a host that does not know it uses the session's model, which is what it asks for.",
    why: "A host that does not have the model ignores it (VS Code: \"will be ignored\") and runs on another one, so the choice written down is not the one used.",
    example: "model: Claude Sonet 4.5\n\nFix: model: Claude Sonnet 4.5",
    fix: None,
};

/// `name`, in `model` at `pos`, is no model of `hosts`; `typo` is a near spelling of one.
fn unknown_model(sink: &mut Sink, pos: Pos, name: &str, hosts: &[&Profile], typo: Option<&str>) {
    let names: Vec<&str> = hosts.iter().map(|p| p.name.as_str()).collect();
    // The built-in lists' date, read from their files once per run.
    static CHECKED: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    let checked = CHECKED.get_or_init(builtin::checked);
    let hint = typo
        .map(|t| format!("did you mean {}?", quote(t)))
        .unwrap_or_else(|| "it may be retired or misspelt".to_owned());
    // VS Code also offers models a user adds with their own key; no list can hold those.
    let own = if names.contains(&"vscode") {
        " (on vscode, unless it is a model you added yourself)"
    } else {
        ""
    };
    sink.push_about(
        Rule::UnknownModel,
        pos,
        format!(
            "{} is not a model {} lists (lists checked {checked}), so it will not be used{own}; {hint}",
            quote(name),
            names.join(" or ")
        ),
        name,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn model_names_fold_as_hosts_compare_them() {
        assert_eq!(
            fold_model("Claude Sonnet 4.5 (copilot)"),
            "claude-sonnet-4.5"
        );
        assert_eq!(fold_model("  GPT-4.1 "), "gpt-4.1");
        assert_eq!(
            fold_model("claude-sonnet-4-5-20250929"),
            "claude-sonnet-4-5"
        );
        assert_eq!(fold_model("claude-opus-4-6[1m]"), "claude-opus-4-6");
        assert_eq!(fold_model("sonnet[1m]"), "sonnet");
        assert_eq!(
            fold_model("gpt-4-20250101"),
            "gpt-4-20250101",
            "dates only on Claude ids"
        );
    }

    fn findings(src: &str) -> Vec<(Rule, u32, String)> {
        let root = crate::parse::yaml::parse(src, 2).expect("yaml");
        let mut sink = Sink::new("SKILL.md");
        check_skill_model(&root, &mut sink);
        sink.findings
            .into_iter()
            .map(|f| (f.rule, f.line, f.message))
            .collect()
    }

    #[test]
    fn skill_models_are_judged_by_every_host() {
        for ok in [
            "model: sonnet",
            "model: claude-sonnet-4-5-20250929",
            "model: GPT-5.2 (copilot)",
            "model: gpt-5.2",
            "model: [Claude Opus 4.5, opus]",
            "model: inherit",
        ] {
            assert!(findings(ok).is_empty(), "{ok}: {:?}", findings(ok));
        }
        let f = findings("model: Claude Sonet 4.5");
        assert_eq!(f[0].0, Rule::UnknownModel);
        assert!(
            f[0].2.contains("did you mean `Claude Sonnet 4.5`?"),
            "{}",
            f[0].2
        );
        // A snapshot date is no version: the misspelt name still gets its suggestion.
        let f = findings("model: claude-sonet-4-5-20250929");
        assert!(
            f[0].2.contains("did you mean `claude-sonnet-4-5"),
            "{}",
            f[0].2
        );
        // Another version is another model, not a typo.
        let f = findings("model: Claude Sonnet 4.1");
        assert!(f[0].2.contains("retired or misspelt"), "{}", f[0].2);
        let f = findings("model:\n  - GPT-5.2\n  - Frobnicator 9\n");
        assert_eq!((f.len(), f[0].1), (1, 4), "points at the item");
    }

    #[test]
    fn several_names_in_one_string_ask_for_a_list() {
        let f = findings("model: GPT-4.1 | 'gpt-5' | 'Claude Sonnet 4.5'");
        assert_eq!(f.len(), 1, "one finding, not also an unknown model");
        assert_eq!(f[0].0, Rule::ModelListInString);
        // A name no host lists is named apart, not suggested; the others as hosts spell them.
        assert!(
            f[0].2
                .contains("use a list: `model: [GPT-4.1, Claude Sonnet 4.5]` (`gpt-5` is no model"),
            "{}",
            f[0].2
        );
        let f = findings("model: gpt-4.1 | claude sonnet 4.5");
        assert!(
            f[0].2
                .ends_with("use a list: `model: [GPT-4.1, Claude Sonnet 4.5]`"),
            "{}",
            f[0].2
        );
        assert_eq!(
            findings("model: GPT-5.2, Claude Opus 4.5")[0].0,
            Rule::ModelListInString
        );
    }
}
