//! SA6xx: plugin manifests, the links between agents and skills, and drift between what a skill
//! needs and what the agents that load it grant.

use super::{FixDoc, RuleDoc};
use crate::diagnostic::{Applicability, Finding, Fix, Pos, Severity, Sink, quote, quoted};
use crate::model::{Agent, DepKind, Drift, Link, Skill};
use crate::profile::Profile;
use crate::rules::Rule;
use crate::span;

pub(crate) const MANIFEST_INVALID: RuleDoc = RuleDoc {
    code: "SA601",
    name: "manifest-invalid",
    severity: Severity::Warning,
    summary: "A plugin or marketplace manifest is not valid JSON",
    what: "A `plugin.json` or `marketplace.json` is not valid JSON.",
    why: "Hosts skip the plugin, and none of the agents or skills it bundles are installed.",
    example: "{\"name\": \"ops\",}\n\nFix: remove the trailing comma.",
    fix: None,
};

/// A manifest that is not JSON, with the JSON parser's error.
pub(crate) fn manifest_invalid(sink: &mut Sink, e: &serde_json::Error) {
    sink.push(
        Rule::ManifestInvalid,
        Pos::new(
            u32::try_from(e.line()).unwrap_or(1),
            u32::try_from(e.column()).unwrap_or(1),
        ),
        format!(
            "not valid JSON: {}",
            e.to_string().split(" at line ").next().unwrap_or("")
        ),
    );
}

pub(crate) const MANIFEST_PATH_MISSING: RuleDoc = RuleDoc {
    code: "SA602",
    name: "manifest-path-missing",
    severity: Severity::Warning,
    summary: "A manifest lists an agent or skill path that resolves to nothing",
    what: "A plugin or marketplace manifest lists an agent or skill path that resolves to nothing, from the plugin's folder or from the repository root.",
    why: "The plugin installs without that agent or skill, and nobody is told.",
    example: "\"skills\": [\"./skills/kusto/\"] when the folder is skills/kusto-query/.\n\nFix: correct the path.",
    fix: None,
};

/// The `what` ("agent", "skill") path `path`, at `pos` of the manifest at `manifest`,
/// resolves to nothing.
pub(crate) fn manifest_path_missing(manifest: &str, pos: Pos, what: &str, path: &str) -> Finding {
    Finding::new(
        Rule::ManifestPathMissing,
        manifest,
        pos,
        format!(
            "{what} path {} resolves to no {what} from the plugin folder or the repository root; fix the path",
            quote(path)
        ),
    )
}

pub(crate) const DRIFT: RuleDoc = RuleDoc {
    code: "SA603",
    name: "drift",
    severity: Severity::Warning,
    summary: "An agent loads a skill but does not grant the tools or servers it needs",
    what: "An agent loads a skill (through a plugin, its `skills:` list or a link in its body) but its `tools` or `mcp-servers` do not grant what the skill needs. The message names the skill, what is missing and how the link was found.",
    why: "The skill's instructions tell the model to use a tool the agent cannot call: it fails mid-task or pretends. Renamed tool names left on agents cause exactly this.",
    example: "Skill kusto-query needs `runCommand` and the `kusto` server; agent analyst has `tools: [read, search]`.\n\nFix: add the tools to the agent (e.g. `execute`, `kusto/*`), or stop bundling the skill with it.",
    fix: Some(FixDoc {
        applicability: Applicability::Unsafe,
        what: "Add what is missing to the end of the agent's `tools` list, in the list's style: the tools the skill needs, of each `any` group the member most of the audit's profiles have (the first on a tie or without profiles), and `server/*` for each MCP server (on `.agent.md` files, where VS Code reads that as the server's tools). A Claude-format agent is granted an MCP tool as Claude Code names it, `mcp__server__tool` (a bare name that one server of the run's profiles offers, as that server's tool), and no whole server, which its `tools` cannot name, nor a bare name no host defines and no such server offers. Unsafe: it widens what the agent may do.",
    }),
};

/// SA603 for every agent that drifts from a skill it loads, and SA604 for every agent whose
/// skill suggests a model it does not use: one finding per agent and skill, naming every way
/// the agent loads it (a skill in `skills:` and linked from the body is one problem).
pub(crate) fn drift(
    drift: &[Drift],
    links: &[Link],
    skills: &[Box<Skill>],
    agents: &[Agent],
    profiles: &[Profile],
    findings: &mut Vec<Finding>,
) {
    let agent_at: foldhash::HashMap<&str, &Agent> =
        agents.iter().map(|a| (a.path.as_str(), a)).collect();
    let skill_at: foldhash::HashMap<&str, &Skill> =
        skills.iter().map(|s| (s.path.as_str(), &**s)).collect();
    for (d, via) in each_pair(drift, |d| (&d.agent, &d.skill_path, &d.via)) {
        if let Some(agent) = agent_at.get(d.agent.as_str()) {
            findings.push(drift_finding(d, &via, agent, profiles));
        }
    }
    for (l, via) in each_pair(links, |l| (&l.agent, &l.skill_path, &l.via)) {
        if let (Some(agent), Some(skill)) = (
            agent_at.get(l.agent.as_str()),
            skill_at.get(l.skill_path.as_str()),
        ) {
            findings.extend(model_drift(l, &via, agent, skill));
        }
    }
}

/// The first of `items` for each agent and skill (`key` gives agent, skill path and the way
/// it is loaded), in order, with every way that pair is loaded, each once.
fn each_pair<'a, T>(
    items: &'a [T],
    key: impl Fn(&'a T) -> (&'a String, &'a String, &'a String),
) -> Vec<(&'a T, String)> {
    let mut at: foldhash::HashMap<(&str, &str), usize> = Default::default();
    let mut out: Vec<(&T, Vec<&str>)> = Vec::new();
    for item in items {
        let (agent, skill, via) = key(item);
        match at.get(&(agent.as_str(), skill.as_str())) {
            Some(&i) => {
                if !out[i].1.contains(&via.as_str()) {
                    out[i].1.push(via);
                }
            }
            None => {
                at.insert((agent, skill), out.len());
                out.push((item, vec![via]));
            }
        }
    }
    out.into_iter()
        .map(|(t, via)| (t, via.join(", ")))
        .collect()
}

fn drift_finding(d: &Drift, via: &str, agent: &Agent, profiles: &[Profile]) -> Finding {
    let lacking = d.lacking();
    let them = match lacking.as_slice() {
        [one] if one.names.len() == 1 => "it",
        [one] if one.what == "one of" => "one",
        _ => "them",
    };
    Finding::new(
        Rule::Drift,
        &agent.path,
        agent.tools_pos,
        format!(
            "loads skill {} (via {via}) but does not grant {}; add {them} to the agent's `tools`/`mcp-servers`",
            quote(&d.skill),
            crate::diagnostic::lacking(d)
        ),
    )
    // All of them point at the `tools` list, which the fix of one edits.
    .about(&d.skill)
    .with_fix(grant_fix(d, agent, profiles))
}

/// SA603's fix: what the skill needs, added to the end of the agent's `tools` list.
fn grant_fix(d: &Drift, agent: &Agent, profiles: &[Profile]) -> Option<Fix> {
    let text = agent.head.as_deref()?;
    let listed = agent.tools.as_ref()?;
    let claude = agent.flavor == "claude";
    let mut names: Vec<String> = d.missing_tools.clone();
    names.extend(
        d.unmet_any
            .iter()
            .filter_map(|g| most_available(g, profiles))
            .cloned(),
    );
    if claude {
        // Claude Code matches an MCP tool only as `mcp__server__tool`, and its `tools` has no
        // spelling of a whole server: the message names those for the author to grant.
        names = names
            .iter()
            .filter_map(|n| claude_spelling(n, profiles))
            .collect();
    } else {
        names.extend(d.missing_mcp_servers.iter().map(|s| format!("{s}/*")));
    }
    // The agent's list and the names taken so far, as a set: each name is looked up in it.
    let mut taken: foldhash::HashSet<&str> = listed.iter().map(String::as_str).collect();
    let mut fresh: Vec<&str> = Vec::new();
    for n in &names {
        if taken.insert(n) {
            fresh.push(n);
        }
    }
    if fresh.is_empty() {
        return None;
    }
    let edit = append_to_list(text, agent, &fresh)?;
    Some(Fix::unsafe_edits(
        format!("add {} to `tools`", quoted(&fresh)),
        vec![edit],
    ))
}

/// `name` as a Claude-format agent's `tools` grants it: an MCP tool as `mcp__server__tool`,
/// a bare name the run's profiles give one server as that server's tool; `None` for a whole
/// server (`server/*`), which its `tools` cannot name, and for a bare name that is no built-in
/// host's and no server's of the run (Claude Code would drop it as written).
fn claude_spelling(name: &str, profiles: &[Profile]) -> Option<String> {
    let canonical = crate::profile::names::canonical(name);
    if let Some((_, tool)) = canonical.split_once('/') {
        if tool == "*" {
            return None;
        }
        return Some(
            crate::profile::names::claude_code_spelling(&canonical)
                .unwrap_or_else(|| name.to_owned()),
        );
    }
    let mut servers: Vec<&str> = profiles
        .iter()
        .flat_map(|p| p.tools.names())
        .filter_map(|n| n.split_once('/'))
        .filter(|(server, tool)| {
            *tool == canonical && !crate::profile::names::looks_like_extension(server)
        })
        .map(|(server, _)| server)
        .collect();
    servers.sort_unstable();
    servers.dedup();
    match servers.as_slice() {
        [server] => Some(format!("mcp__{server}__{canonical}")),
        [] if crate::profile::builtin::any_defines(&canonical) => Some(name.to_owned()),
        _ => None,
    }
}

/// The member of an `any` group that the most profiles have, the first on a tie (and with no
/// profiles): granting one no profile has would leave the agent short everywhere.
fn most_available<'g>(group: &'g [String], profiles: &[Profile]) -> Option<&'g String> {
    let having = |t: &str| profiles.iter().filter(|p| p.has(DepKind::Tools, t)).count();
    let mut best: Option<(&String, usize)> = None;
    for t in group {
        let n = having(t);
        if best.is_none_or(|(_, most)| n > most) {
            best = Some((t, n));
        }
    }
    best.map(|(t, _)| t)
}

/// The edit that adds `names` to the end of the agent's `tools`: a flow or block list after
/// its last entry (inside `[]` when empty), a comma-separated string after its last name.
fn append_to_list(text: &str, agent: &Agent, names: &[&str]) -> Option<crate::diagnostic::Edit> {
    let listed = agent.tools.as_ref()?;
    let at = span::offset(text, agent.tools_pos)?;
    if text[at..].starts_with('[') {
        if listed.is_empty() {
            let close = at + 1 + text[at + 1..].find(']')?;
            text[at + 1..close]
                .trim()
                .is_empty()
                .then(|| span::append_items(text, close, close, names))?
        } else {
            let last = listed.last()?;
            let pos = agent.tool_positions.last().copied()?;
            let (s, e) = span::scalar_at(text, pos, last)?;
            span::append_items(text, s, e, names)
        }
    } else if let (Some(last), Some(pos)) = (listed.last(), agent.tool_positions.last())
        && let Some((s, e)) = span::scalar_at(text, *pos, last)
        && span::context_at(text, s) == span::Context::Block
        && *pos != agent.tools_pos
    {
        span::append_items(text, s, e, names)
    } else {
        // `tools: Read, Grep`: one plain string, names split at commas.
        let end = span::token_end(text, at, span::Context::Block)?;
        let token = &text[at..end];
        let same = token
            .split(',')
            .map(str::trim)
            .eq(listed.iter().map(String::as_str));
        let (line_start, _, _) = span::line_at(text, at);
        let after_key = text[line_start..at].trim_end().ends_with(':');
        let plain = after_key && !token.starts_with(['\'', '"']);
        let safe = names.iter().all(|n| !n.contains([',', '#', ':']));
        (same && plain && safe)
            .then(|| span::edit(text, end, end, format!(", {}", names.join(", "))))
    }
}

pub(crate) const MODEL_DRIFT: RuleDoc = RuleDoc {
    code: "SA604",
    name: "model-drift",
    severity: Severity::Info,
    summary: "A skill's model hint differs from the agent's model",
    what: "A skill's advisory `model` differs from the model of an agent that loads it.",
    why: "The hint is advisory; this only tells you the skill was written for a different model than it will run on.",
    example: "Skill says `model: Claude Sonnet 4.5`, the agent says `model: GPT-5`.\n\nFix: nothing required; align them if the skill depends on the model.",
    fix: None,
};

/// Info when a skill's model hint differs from the agent's model.
fn model_drift(link: &Link, via: &str, agent: &Agent, skill: &Skill) -> Option<Finding> {
    let hint = skill.model.first()?;
    if agent.model.is_empty() || agent.model.iter().any(|m| m.eq_ignore_ascii_case(hint)) {
        return None;
    }
    Some(Finding::new(
        Rule::ModelDrift,
        &agent.path,
        agent.model_pos,
        format!(
            "skill {} (via {via}) suggests model {}, the agent uses {}",
            quote(&link.skill),
            quote(hint),
            quoted(&agent.model)
        ),
    ))
}

pub(crate) const UNKNOWN_SKILL_REFERENCE: RuleDoc = RuleDoc {
    code: "SA605",
    name: "unknown-skill-reference",
    severity: Severity::Warning,
    summary: "An agent's `skills:` names a skill not in the library",
    what: "An agent's `skills:` list names a skill that is not in the library.",
    why: "Claude Code preloads the named skills; a missing one is skipped and the agent runs without it.",
    example: "skills: [kusto]\nwhen the skill is named kusto-query.\n\nFix: skills: [kusto-query]",
    fix: None,
};

/// The agent at `agent` lists `name` in `skills:`, at `pos`, and no skill has that name.
pub(crate) fn unknown_skill_reference(agent: &str, pos: Pos, name: &str) -> Finding {
    Finding::new(
        Rule::UnknownSkillReference,
        agent,
        pos,
        format!(
            "`skills:` names {}, which is not a skill in the library",
            quote(name)
        ),
    )
    .about(name)
}

pub(crate) const CONFIG_LINK_UNRESOLVED: RuleDoc = RuleDoc {
    code: "SA606",
    name: "config-link-unresolved",
    severity: Severity::Warning,
    summary: "A `[[links]]` entry names an unknown agent or skill",
    what: "A `[[links]]` entry in skill-audit.toml names an agent file or a skill that is not in the library.",
    why: "The link it was meant to record is not checked for drift.",
    example: "[[links]]\nagent = \"agents/analyst.agent.md\"\nskills = [\"kusto\"]\nwhen the skill is named kusto-query.\n\nFix: skills = [\"kusto-query\"]",
    fix: None,
};

/// A `[[links]]` entry names an agent file that is not an agent of the library.
pub(crate) fn link_agent_unresolved(entry: &crate::config::file::ConfigLink) -> Finding {
    Finding::new(
        Rule::ConfigLinkUnresolved,
        &entry.file,
        entry.agent_at,
        format!(
            "[[links]] agent {} is not an agent in the library",
            quote(&entry.agent.display().to_string())
        ),
    )
}

/// A `[[links]]` entry names, at `pos`, the skill `name`, which is not a skill of the library.
pub(crate) fn link_skill_unresolved(
    entry: &crate::config::file::ConfigLink,
    pos: Pos,
    name: &str,
) -> Finding {
    Finding::new(
        Rule::ConfigLinkUnresolved,
        &entry.file,
        pos,
        format!(
            "[[links]] skill {} is not a skill in the library",
            quote(name)
        ),
    )
}

pub(crate) const MARKETPLACE_REMOTE_SOURCE: RuleDoc = RuleDoc {
    code: "SA607",
    name: "marketplace-remote-source",
    severity: Severity::Info,
    summary: "A marketplace entry's plugin lives elsewhere and is not audited",
    what: "A marketplace entry (`.claude-plugin/marketplace.json`, `.github/plugin/marketplace.json`, `.agents/plugins/marketplace.json`, `.cursor-plugin/marketplace.json`) whose `source` is remote: `{source: github, repo}`, `{source: url, url}`, `{source: git-subdir, url, path}`, `{source: npm, package}`, a URL, or a relative path that leads out of the marketplace's root (`../other`). A relative path inside it (`./`, `plugins/x`, also when written as `{source: \"./\"}`) is resolved and audited, not noted. The finding is on the entry's name.",
    why: "Hosts fetch that plugin from its source when it is installed; none of its files are in the scanned tree, so its skills and agents are not audited here. Audit that repository or package on its own.",
    example: "{\"name\": \"azure\", \"source\": {\"source\": \"github\", \"repo\": \"microsoft/azure-skills\"}}\n\nNothing to fix; audit microsoft/azure-skills separately if it matters.",
    fix: None,
};

/// The marketplace entry `name`, at `pos`, takes its plugin from `from`, which says where and
/// why that is not in the scanned tree (`github `o/r`, outside this tree`).
pub(crate) fn marketplace_remote_source(sink: &mut Sink, pos: Pos, name: &str, from: &str) {
    sink.push(
        Rule::MarketplaceRemoteSource,
        pos,
        format!(
            "plugin {} comes from {from}; it is not audited locally: audit a checkout of that source on its own",
            quote(name)
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agent(text: &str) -> Agent {
        let mut sink = Sink::new("a.agent.md");
        crate::parse::agent::parse(
            text.as_bytes(),
            "a.agent.md",
            std::path::Path::new("agents/a.agent.md"),
            crate::model::AgentFlavor::Custom,
            &mut sink,
        )
        .expect("an agent")
        .agent
    }

    /// A drift of 40,000 missing tools, each named twice, and one the agent lists: the fix
    /// adds each of the others once, in order, after the list's last entry. Every name is
    /// looked up in a set; scans of the lists would make this take seconds.
    #[test]
    fn grant_fix_of_many_tools() {
        let a = agent("---\nname: a\ntools: [read, T1]\n---\nDo.\n");
        let missing: Vec<String> = (0..40_000).map(|i| format!("T{i}")).collect();
        let d = Drift {
            agent: a.path.clone(),
            skill: "s".into(),
            skill_path: "skills/s/SKILL.md".into(),
            via: "skills-field".into(),
            missing_tools: missing.iter().chain(&missing).cloned().collect(),
            // Without profiles, a group's first member is granted: one the list has by then.
            unmet_any: vec![vec!["T5".into(), "X".into()]],
            missing_mcp_servers: vec!["srv".into(), "srv".into()],
        };
        let fix = grant_fix(&d, &a, &[]).expect("a fix");
        let mut fresh: Vec<String> = missing.into_iter().filter(|n| n != "T1").collect();
        fresh.push("srv/*".into());
        assert_eq!(fix.edits.len(), 1);
        assert_eq!(fix.edits[0].content, format!(", {}", fresh.join(", ")));
    }

    #[test]
    fn a_claude_agent_is_granted_mcp_tools_in_claude_code_s_spelling() {
        let mut a = agent("---\nname: a\ntools: Read, Grep\n---\nDo.\n");
        a.flavor = "claude".into();
        let d = Drift {
            agent: a.path.clone(),
            skill: "s".into(),
            skill_path: "skills/s/SKILL.md".into(),
            via: "skills-field".into(),
            missing_tools: vec![
                "kusto/run_query".into(),
                "kusto/*".into(),
                "mcp__teams__search".into(),
                "Bash".into(),
            ],
            unmet_any: Vec::new(),
            missing_mcp_servers: vec!["srv".into()],
        };
        let fix = grant_fix(&d, &a, &[]).expect("a fix");
        assert_eq!(
            fix.edits[0].content,
            ", mcp__kusto__run_query, mcp__teams__search, Bash"
        );
    }
}
