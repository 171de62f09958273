//! Stage 3: evaluate what each skill needs against each profile.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::model::{DepKind, Requirements, Skill};
use crate::profile::Profile;

/// A skill's or agent's standing in one profile.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Every requirement is met (an agent: every tool it names resolves).
    Available,
    /// An agent some of whose tools do not resolve: the host drops those and runs it with
    /// the rest (`missing` lists them).
    Partial,
    /// Something required is missing (an agent: none of its tools resolves, or an MCP server
    /// it declares is absent).
    Unavailable,
    /// The profile's host does not load this kind of agent.
    NotLoaded,
    /// Nothing declared to check.
    Undeclared,
    /// The frontmatter or the declared requirements could not be read.
    Invalid,
}

impl Status {
    pub(crate) const ALL: [Status; 6] = [
        Status::Available,
        Status::Partial,
        Status::Unavailable,
        Status::NotLoaded,
        Status::Undeclared,
        Status::Invalid,
    ];
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Available => "available",
            Status::Partial => "partial",
            Status::Unavailable => "unavailable",
            Status::NotLoaded => "not-loaded",
            Status::Undeclared => "undeclared",
            Status::Invalid => "invalid",
        }
    }

    /// Whether reports say why an entry has this status (the others are plain, or, for
    /// `not-loaded`, the same for every agent of a kind).
    pub(crate) fn explained(self) -> bool {
        matches!(
            self,
            Status::Partial | Status::Unavailable | Status::Invalid
        )
    }

    /// What the status means, for legends.
    pub(crate) fn meaning(self) -> &'static str {
        match self {
            Status::Available => "every requirement is met",
            Status::Partial => "some of the agent's tools are missing; the host drops them",
            Status::Unavailable => "something required is missing",
            Status::NotLoaded => "the profile's host does not load this agent",
            Status::Undeclared => "nothing declared to check",
            Status::Invalid => "the file or its requirements could not be read",
        }
    }
}

/// The result of evaluating one skill against one profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Availability {
    pub status: Status,
    /// `all` entries not available (tools, then resources, then prompts).
    #[serde(default, skip_serializing_if = "skip_lists")]
    pub missing: Vec<String>,
    /// Each `any` group none of whose entries is available.
    #[serde(default, skip_serializing_if = "skip_lists")]
    pub unmet_any: Vec<Vec<String>>,
    /// One line for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

// Empty lists are left out of the JSON: an unavailable entry has at least one of them.
fn skip_lists<T>(v: &[T]) -> bool {
    v.is_empty()
}

impl Availability {
    pub(crate) fn of(status: Status, reason: Option<String>) -> Self {
        Availability {
            status,
            missing: Vec::new(),
            unmet_any: Vec::new(),
            reason,
        }
    }
}

/// Evaluate a skill's requirements against a profile. Without a host, tool names that a
/// built-in host defines are the host's to provide and are not judged.
pub fn requirements(req: &Requirements, profile: &Profile) -> Availability {
    let mut missing = Vec::new();
    let mut unmet_any = Vec::new();
    let mut parts = Vec::new();
    let has = |kind: DepKind, name: &str| match kind {
        DepKind::Tools => tool(profile, Judged::Skill, name).resolves(),
        _ => profile.has(kind, name),
    };
    for kind in DepKind::ALL {
        let group = req.group(kind);
        let miss: Vec<String> = group
            .all
            .iter()
            .filter(|n| !has(kind, n))
            .cloned()
            .collect();
        if !miss.is_empty() {
            parts.push(format!(
                "missing {} {}",
                plural(kind, miss.len()),
                crate::diagnostic::quoted(&miss)
            ));
        }
        missing.extend(miss);
        if let Some(any) = &group.any
            && !any.is_empty()
            && !any.iter().any(|n| has(kind, n))
        {
            parts.push(format!(
                "no {} of {} is available",
                kind.noun(),
                crate::diagnostic::quoted(any)
            ));
            unmet_any.push(any.clone());
        }
    }
    if parts.is_empty() {
        Availability::of(Status::Available, None)
    } else {
        Availability {
            status: Status::Unavailable,
            missing,
            unmet_any,
            reason: Some(parts.join("; ")),
        }
    }
}

/// Evaluate a skill against a profile, covering invalid and undeclared skills.
pub(crate) fn skill(skill: &Skill, profile: &Profile) -> Availability {
    if skill.invalid {
        return Availability::of(
            Status::Invalid,
            Some("the frontmatter could not be read".into()),
        );
    }
    if skill.requirements_invalid {
        return Availability::of(
            Status::Invalid,
            Some("the declared dependencies could not be read".into()),
        );
    }
    if skill.dependencies.is_empty() {
        return Availability::of(Status::Undeclared, None);
    }
    requirements(&skill.dependencies, profile)
}

fn plural(kind: DepKind, n: usize) -> &'static str {
    if n == 1 { kind.noun() } else { kind.nouns() }
}

/// Drift for every link, with one finding per drifting link (and per model that differs).
pub(crate) fn drift_of_links(
    links: &[crate::model::Link],
    skills: &[Box<Skill>],
    agents: &[crate::model::Agent],
    findings: &mut Vec<crate::diagnostic::Finding>,
) -> Vec<crate::model::Drift> {
    // foldhash: SipHash over 100,000 skill paths was a good part of this step.
    let skill_by_path: foldhash::HashMap<&str, &Skill> =
        skills.iter().map(|s| (s.path.as_str(), &**s)).collect();
    let agent_ix: foldhash::HashMap<&str, &crate::model::Agent> =
        agents.iter().map(|a| (a.path.as_str(), a)).collect();
    // Links come sorted by agent: each agent's links are judged on their own, on all threads,
    // with its grants built once and only when a linked skill needs tools. Results keep the
    // links' order.
    let per_agent: Vec<(Vec<crate::model::Drift>, Vec<crate::diagnostic::Finding>)> = links
        .par_chunk_by(|a, b| a.agent == b.agent)
        .map(|group| {
            let (mut drifting, mut found) = (Vec::new(), Vec::new());
            let Some(agent) = group.first().and_then(|l| agent_ix.get(l.agent.as_str())) else {
                return (drifting, found);
            };
            let grants = std::cell::OnceCell::new();
            for l in group {
                let Some(skill) = skill_by_path.get(l.skill_path.as_str()) else {
                    continue;
                };
                let grants = || grants.get_or_init(|| Grants::of(agent));
                if let Some(d) = drift(l, agent, grants, skill) {
                    found.push(crate::rules::links::drift_finding(&d, agent));
                    drifting.push(d);
                }
                found.extend(crate::rules::links::model_drift(l, agent, skill));
            }
            (drifting, found)
        })
        .collect();
    let mut out = Vec::new();
    for (drift, found) in per_agent {
        out.extend(drift);
        findings.extend(found);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Group;

    fn req(all: &[&str], any: Option<&[&str]>) -> Requirements {
        Requirements {
            tools: Group {
                all: all.iter().map(|s| s.to_string()).collect(),
                any: any.map(|a| a.iter().map(|s| s.to_string()).collect()),
            },
            ..Requirements::default()
        }
    }

    #[test]
    fn available_when_all_and_one_of_any() {
        let p = Profile::from_names(
            "prod",
            "p.json",
            &["get_order", "dispute_chargeback_v2"],
            &[],
            &[],
        )
        .unwrap();
        let a = requirements(
            &req(
                &["get_order"],
                Some(&["dispute_chargeback", "dispute_chargeback_v2"]),
            ),
            &p,
        );
        assert_eq!(a.status, Status::Available);
        assert!(a.missing.is_empty() && a.reason.is_none());
    }

    #[test]
    fn unavailable_lists_missing_and_unmet_any() {
        let p = Profile::from_names("staging", "p.json", &["get_order"], &[], &[]).unwrap();
        let a = requirements(
            &req(&["get_order", "get_check_details"], Some(&["a", "b"])),
            &p,
        );
        assert_eq!(a.status, Status::Unavailable);
        assert_eq!(a.missing, ["get_check_details"]);
        assert_eq!(a.unmet_any, [vec!["a".to_string(), "b".to_string()]]);
        assert_eq!(
            a.reason.as_deref(),
            Some("missing tool `get_check_details`; no tool of `a`, `b` is available")
        );
    }

    #[test]
    fn resources_and_prompts_are_checked_too() {
        let p = Profile::from_names("p", "p.json", &[], &["docs://a"], &["summarise"]).unwrap();
        let mut r = Requirements::default();
        r.resources.all = vec!["docs://a".into(), "docs://b".into()];
        r.prompts.any = Some(vec!["summarize".into(), "summarise".into()]);
        let a = requirements(&r, &p);
        assert_eq!(a.missing, ["docs://b"]);
        assert!(a.unmet_any.is_empty());
    }
}

/// What an agent's `tools` list lets it call, understanding MCP wildcards, the cross-host
/// spellings, VS Code tool sets, legacy names and GitHub's case-insensitive aliases.
#[derive(Debug)]
pub(crate) struct Grants {
    all: bool,
    names: crate::profile::NameSet,
}

impl Grants {
    pub(crate) fn of(agent: &crate::model::Agent) -> Grants {
        let Some(tools) = &agent.tools else {
            return Grants {
                all: true,
                names: crate::profile::NameSet::default(),
            };
        };
        let mut expanded: Vec<String> = Vec::new();
        for t in tools {
            expanded.extend(expand(t));
        }
        let names = crate::profile::NameSet::new(expanded.iter().map(String::as_str), true)
            .unwrap_or_default();
        Grants { all: false, names }
    }

    /// Does the agent grant `required`?
    pub(crate) fn grants(&self, required: &str) -> bool {
        if self.all {
            return true;
        }
        if self.names.contains(required) {
            return true;
        }
        let vocab = crate::profile::builtin::vocabularies();
        // An alias (`Bash`) needs what it stands for (`execute`); a legacy name needs all of
        // its replacements.
        for p in vocab {
            let Some(v) = &p.vocabulary else { continue };
            let bare = required.split('(').next().unwrap_or(required);
            let lower = bare.to_lowercase();
            // GitHub tool names are case-insensitive: `Read` is `read`.
            if !v.aliases.is_empty() && p.tools.contains(&lower) && self.names.contains(&lower) {
                return true;
            }
            if let Some(target) = v.aliases.get(&lower)
                && self.names.contains(target)
            {
                return true;
            }
            if let Some(new) = v.renamed.get(bare)
                && new.iter().all(|n| self.names.contains(n))
            {
                return true;
            }
        }
        false
    }
}

/// One granted name and everything it stands for.
fn expand(name: &str) -> Vec<String> {
    let bare = crate::profile::names::tool_of(name);
    let lower = bare.to_lowercase();
    let vocab = crate::profile::builtin::vocabularies();
    // First the names it is (GitHub aliases and tool names are case-insensitive)...
    let mut out = vec![bare.to_owned()];
    for p in vocab {
        let Some(v) = &p.vocabulary else { continue };
        if let Some(target) = v.aliases.get(&lower) {
            out.push(target.clone());
        } else if !v.aliases.is_empty() && p.tools.contains(&lower) {
            out.push(lower.clone());
        }
    }
    // ...then what those stand for: tool set members and the replacements of legacy names.
    let mut expanded = out.clone();
    for n in &out {
        for p in vocab {
            let Some(v) = &p.vocabulary else { continue };
            if let Some(members) = v.toolsets.get(n) {
                expanded.push(format!("{n}/*"));
                expanded.extend(members.iter().cloned());
            }
            if let Some(new) = v.renamed.get(n) {
                expanded.extend(new.iter().cloned());
            }
        }
    }
    expanded
}

/// Compare what a linked skill needs with what the agent grants. `grants` is called only when
/// the skill needs something, since expanding an agent's grants is the costly part.
pub(crate) fn drift<'g>(
    link: &crate::model::Link,
    agent: &crate::model::Agent,
    grants: impl FnOnce() -> &'g Grants,
    skill: &Skill,
) -> Option<crate::model::Drift> {
    if skill.invalid || skill.requirements_invalid {
        return None;
    }
    let (all, any): (Vec<&String>, Option<&Vec<String>>) = match skill.declared_by {
        crate::model::DeclaredBy::Dependencies => (
            skill.dependencies.tools.all.iter().collect(),
            skill.dependencies.tools.any.as_ref(),
        ),
        _ => (skill.tools.iter().flatten().collect(), None),
    };
    if all.is_empty() && any.is_none_or(Vec::is_empty) && skill.mcp_servers.is_empty() {
        return None;
    }
    let grants = grants();
    let missing_tools: Vec<String> = all
        .into_iter()
        .filter(|t| !grants.grants(t))
        .cloned()
        .collect();
    let unmet_any: Vec<Vec<String>> = any
        .filter(|a| !a.is_empty() && !a.iter().any(|t| grants.grants(t)))
        .cloned()
        .into_iter()
        .collect();
    let missing_mcp_servers: Vec<String> = skill
        .mcp_servers
        .iter()
        .filter(|s| !agent.mcp_servers.contains(s) && !grants.grants(&format!("{s}/*")))
        .cloned()
        .collect();
    if missing_tools.is_empty() && unmet_any.is_empty() && missing_mcp_servers.is_empty() {
        return None;
    }
    Some(crate::model::Drift {
        agent: link.agent.clone(),
        skill: link.skill.clone(),
        skill_path: link.skill_path.clone(),
        via: link.via.clone(),
        missing_tools,
        unmet_any,
        missing_mcp_servers,
    })
}

/// What is being judged: a skill (loaded by every host) or an agent of a flavor.
#[derive(Clone, Copy)]
pub(crate) enum Judged<'a> {
    Skill,
    Agent(&'a crate::model::Agent),
}

/// How one profile sees one tool name a skill needs or an agent names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum ToolVerdict {
    Resolves,
    /// A legacy name the host still maps to these.
    Renamed(Vec<String>),
    /// Not a tool of the profile (on a host: one it does not know, and drops).
    Unknown,
    /// A tool of the agent's own host (`Read`, a Claude Code tool) that this host does not
    /// map to one of its own.
    Unmapped(String),
    /// The profile has it but removes it with `deny`.
    Denied,
    /// A built-in of the host the item is written for, judged by no profile without a host.
    NotJudged,
}

impl ToolVerdict {
    pub(crate) fn resolves(&self) -> bool {
        matches!(
            self,
            ToolVerdict::Resolves | ToolVerdict::Renamed(_) | ToolVerdict::NotJudged
        )
    }
}

/// Hosts that start the MCP servers an agent's own `mcp-servers` configures (GitHub's agents
/// configuration; Claude Code's `mcpServers`). VS Code ignores the key.
const HONOUR_AGENT_SERVERS: [&str; 2] = ["github-copilot", "claude-code"];

/// The host whose tool names an agent of `flavor` is written in, when another host maps them.
fn native_host(flavor: &str) -> Option<&'static str> {
    (flavor == "claude").then_some("claude-code")
}

/// Does the profile's host load `agent`? A profile without a host loads everything.
pub(crate) fn loads(profile: &Profile, agent: &crate::model::Agent) -> bool {
    let Some(v) = &profile.vocabulary else {
        return true;
    };
    let by_format = v.loads.contains(&agent.flavor);
    // `target: vscode` or `target: github-copilot` keeps an agent to that host.
    let by_target = match agent.target.as_deref() {
        Some(t @ ("vscode" | "github-copilot")) => t == v.host,
        _ => true,
    };
    by_format && by_target
}

/// How `profile` judges the tool `name` that `judged` needs or names.
pub(crate) fn tool(profile: &Profile, judged: Judged<'_>, name: &str) -> ToolVerdict {
    let bare = crate::profile::names::tool_of(name);
    if let Judged::Agent(agent) = judged
        && !agent.mcp_servers.is_empty()
        && let Some((server, _)) = crate::profile::names::canonical(bare).split_once('/')
        && agent.mcp_servers.iter().any(|s| s == server)
    {
        // The agent configures this server itself: hosts that honour that start it; a
        // profile without a host cannot say.
        match profile.host() {
            None => return ToolVerdict::NotJudged,
            Some(h) if HONOUR_AGENT_SERVERS.contains(&h) => return ToolVerdict::Resolves,
            Some(_) => {}
        }
    }
    let Some(v) = &profile.vocabulary else {
        // Without a host, what a built-in host of the item defines is that host's to provide.
        let own_host_defines = || match judged {
            Judged::Skill => crate::profile::builtin::any_defines(bare),
            Judged::Agent(a) => crate::profile::builtin::loaders_define(&a.flavor, bare),
        };
        return match profile.verdict(bare) {
            crate::profile::Verdict::Unknown if own_host_defines() => ToolVerdict::NotJudged,
            other => other.into(),
        };
    };
    if let Judged::Agent(agent) = judged {
        // The host's table of another host's tool names (VS Code's of Claude Code's). It is
        // applied to every agent the host loads: `.agent.md` files that use Claude names get
        // the same mapping as Claude-format agents (GitHub's aliases do the same there).
        for (other, map) in &v.maps {
            if let Some(targets) = map.get(bare) {
                return if targets.is_empty() {
                    // The host knows the name and maps it to nothing of its own.
                    ToolVerdict::Unmapped(other.clone())
                } else if targets.iter().any(|t| profile.has(DepKind::Tools, t)) {
                    ToolVerdict::Resolves
                } else {
                    ToolVerdict::Denied
                };
            }
        }
        if let Some(native) = native_host(&agent.flavor)
            && native != v.host
            && v.maps.contains_key(native)
            && crate::profile::builtin::hosts()
                .iter()
                .any(|h| h.name == native && h.defines(bare))
        {
            return ToolVerdict::Unmapped(native.to_owned());
        }
    }
    profile.verdict(name).into()
}

impl From<crate::profile::Verdict> for ToolVerdict {
    fn from(v: crate::profile::Verdict) -> ToolVerdict {
        match v {
            crate::profile::Verdict::Known => ToolVerdict::Resolves,
            crate::profile::Verdict::Renamed(new) => ToolVerdict::Renamed(new),
            crate::profile::Verdict::Unknown => ToolVerdict::Unknown,
            crate::profile::Verdict::Denied => ToolVerdict::Denied,
        }
    }
}

/// Evaluate an agent against a profile: `not-loaded` when the profile's host does not load
/// it; `available` when every tool it names resolves, `partial` when some do, `unavailable`
/// when none does or an MCP server it declares is absent.
pub(crate) fn agent(agent: &crate::model::Agent, profile: &Profile) -> Availability {
    if agent.invalid {
        return Availability::of(
            Status::Invalid,
            Some("the frontmatter could not be read".into()),
        );
    }
    if !loads(profile, agent) {
        let host = profile.host().unwrap_or_default();
        let what = match agent.target.as_deref() {
            Some(t) if t != host && matches!(t, "vscode" | "github-copilot") => {
                format!("the agent targets `{t}` only")
            }
            _ => format!(
                "`{host}` does not load {} agents",
                flavor_noun(&agent.flavor)
            ),
        };
        return Availability::of(Status::NotLoaded, Some(what));
    }
    let absent_servers = absent_servers(agent, profile);
    let tools = agent.tools.as_ref().filter(|t| !t.is_empty());
    if tools.is_none() && absent_servers.is_empty() {
        return Availability::of(Status::Undeclared, None);
    }
    let tools = tools.map(Vec::as_slice).unwrap_or_default();
    let missing: Vec<String> = tools
        .iter()
        .filter(|t| !tool(profile, Judged::Agent(agent), t).resolves())
        .cloned()
        .collect();
    if missing.is_empty() && absent_servers.is_empty() {
        return Availability::of(Status::Available, None);
    }
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!(
            "missing {} {}",
            plural(DepKind::Tools, missing.len()),
            crate::diagnostic::quoted(&missing)
        ));
    }
    if !absent_servers.is_empty() {
        parts.push(format!(
            "no MCP server {}",
            crate::diagnostic::quoted(&absent_servers)
        ));
    }
    let status = if absent_servers.is_empty() && missing.len() < tools.len() {
        Status::Partial
    } else {
        Status::Unavailable
    };
    let mut missing = missing;
    missing.extend(absent_servers.into_iter().map(|s| format!("{s}/*")));
    Availability {
        status,
        missing,
        unmet_any: Vec::new(),
        reason: Some(parts.join("; ")),
    }
}

/// The MCP servers `agent` declares that `profile` lacks, when the profile lists servers and
/// its host does not start the agent's own.
fn absent_servers(agent: &crate::model::Agent, profile: &Profile) -> Vec<String> {
    let lists_servers = profile.vocabulary.as_ref().is_some_and(|v| v.has_servers);
    let honoured = profile
        .host()
        .is_none_or(|h| HONOUR_AGENT_SERVERS.contains(&h));
    if !lists_servers || honoured {
        return Vec::new();
    }
    agent
        .mcp_servers
        .iter()
        .filter(|s| !profile.has(DepKind::Tools, &format!("{s}/*")))
        .cloned()
        .collect()
}

/// How an agent of `flavor` is named in messages.
pub(crate) fn flavor_noun(flavor: &str) -> &'static str {
    match flavor {
        "claude" => "Claude-format",
        "chatmode" => "`.chatmode.md`",
        _ => "`.agent.md`",
    }
}

#[cfg(test)]
mod grant_tests {
    use super::*;
    use crate::model::Agent;

    fn grants(tools: Option<&[&str]>) -> Grants {
        let agent = Agent {
            tools: tools.map(|t| t.iter().map(|s| s.to_string()).collect()),
            ..Agent::default()
        };
        Grants::of(&agent)
    }

    #[test]
    fn absent_tools_grant_everything() {
        assert!(grants(None).grants("anything/at_all"));
        assert!(!grants(Some(&[])).grants("read"));
    }

    #[test]
    fn wildcards_and_spellings() {
        let g = grants(Some(&["github/*", "mcp__kusto__run_query"]));
        assert!(g.grants("github/get_issue"));
        assert!(g.grants("mcp__github__get_issue"));
        assert!(g.grants("kusto/run_query"));
        assert!(g.grants("kusto:run_query"));
        assert!(!g.grants("kusto/list_tables"));
    }

    #[test]
    fn tool_sets_and_legacy_names() {
        let g = grants(Some(&["edit", "read"]));
        assert!(g.grants("edit/editFiles"));
        assert!(g.grants("read/readFile"));
        assert!(g.grants("editFiles"), "legacy name replaced by a member");
        assert!(!g.grants("execute/runInTerminal"));
        let g = grants(Some(&["runCommands"]));
        assert!(
            g.grants("execute/runInTerminal"),
            "legacy set expands to its replacements"
        );
    }

    #[test]
    fn github_aliases() {
        let g = grants(Some(&["execute", "search"]));
        assert!(g.grants("Bash"));
        assert!(g.grants("shell"));
        assert!(g.grants("powershell"));
        assert!(g.grants("Grep") && g.grants("Glob"));
        assert!(!g.grants("WebFetch"));
        let g = grants(Some(&[
            "Bash",
            "Edit",
            "Task",
            "TodoWrite",
            "WebSearch",
            "NotebookRead",
        ]));
        for t in [
            "execute",
            "edit",
            "agent",
            "todo",
            "web",
            "read",
            "edit/editFiles",
        ] {
            assert!(g.grants(t), "{t}");
        }
    }
}
