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
    /// An agent (or a skill's `allowed-tools`) some of whose tools do not resolve: the host
    /// drops those and runs it with the rest (`missing` lists them).
    Partial,
    /// Something required is missing (an agent: none of its tools resolves, or an MCP server
    /// it declares is absent).
    Unavailable,
    /// The profile's host does not load this kind of agent, or this skill (by a loading rule
    /// it documents: the file name, a required field, a length).
    NotLoaded,
    /// A skill that declares nothing and whose body and scripts use nothing beyond the model:
    /// available on every host that loads it.
    NeedsNothing,
    /// Every requirement the profile can judge is met, but some are of kinds it does not
    /// describe (executables, variables, packages, ...; tools, on a profile that describes
    /// only a machine).
    NotJudged,
    /// Nothing declared to check.
    Undeclared,
    /// The frontmatter or the declared requirements could not be read.
    Invalid,
}

impl Status {
    pub(crate) const ALL: [Status; 8] = [
        Status::Available,
        Status::Partial,
        Status::Unavailable,
        Status::NotLoaded,
        Status::NeedsNothing,
        Status::NotJudged,
        Status::Undeclared,
        Status::Invalid,
    ];
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Status::Available => "available",
            Status::Partial => "partial",
            Status::Unavailable => "unavailable",
            Status::NotLoaded => "not-loaded",
            Status::NotJudged => "not-judged",
            Status::Undeclared => "undeclared",
            Status::NeedsNothing => "needs-nothing",
            Status::Invalid => "invalid",
        }
    }

    /// Whether reports say why an entry has this status (the others are plain).
    pub(crate) fn explained(self) -> bool {
        matches!(
            self,
            Status::Partial
                | Status::Unavailable
                | Status::NotLoaded
                | Status::NotJudged
                | Status::Invalid
        )
    }

    /// What the status means, for legends.
    pub(crate) fn meaning(self) -> &'static str {
        match self {
            Status::Available => "every requirement the profile judges is met",
            Status::Partial => "some of the tools it names are missing; the host drops them",
            Status::Unavailable => "something required is missing",
            Status::NotLoaded => "the profile's host does not load this agent or skill",
            Status::NotJudged => {
                "the profile can judge none of what it needs: kinds it does not describe (executables, variables, packages on a host profile; tools on a machine profile) or tools an extension or an MCP server it does not list may provide"
            }
            Status::Undeclared => "nothing declared to check",
            Status::NeedsNothing => {
                "declares nothing and uses nothing beyond the model: available wherever it loads"
            }
            Status::Invalid => "the file or its requirements could not be read",
        }
    }
}

/// The result of evaluating one skill against one profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Availability {
    pub status: Status,
    /// `all` entries not available (tools, then resources, then prompts, then what the
    /// machine lacks).
    #[serde(default, skip_serializing_if = "skip_lists")]
    pub missing: Vec<String>,
    /// Each `any` group none of whose entries is available.
    #[serde(default, skip_serializing_if = "skip_lists")]
    pub unmet_any: Vec<Vec<String>>,
    /// What is not met, by the source that declared it.
    #[serde(default, skip_serializing_if = "skip_lists")]
    pub unmet: Vec<Unmet>,
    /// Requirements of kinds the profile does not describe, by source.
    #[serde(default, skip_serializing_if = "skip_lists")]
    pub not_judged: Vec<Unmet>,
    /// One line for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// What the judgement rests on: requirements the skill declares, ones inferred from its
    /// body and scripts, or both (skills only; absent when there was nothing to judge).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<Basis>,
}

/// What a skill's cell is judged on.
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
pub enum Basis {
    Declared,
    Inferred,
    Both,
}

impl Basis {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Basis::Declared => "declared",
            Basis::Inferred => "inferred",
            Basis::Both => "declared and inferred",
        }
    }
}

/// Requirements of one kind and source that a profile does not meet (or does not judge).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Unmet {
    pub source: crate::model::Origin,
    pub kind: DepKind,
    /// `all`: every one of `names` is missing; `any`: none of them is available;
    /// `fallback-for`: the skill stands in for them and they are available, so its host
    /// hides it. In `not_judged`: `all` names each of which is needed, `any` names one of
    /// which is.
    pub group: UnmetGroup,
    pub names: Vec<String>,
}

/// Which part of a group an [`Unmet`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum UnmetGroup {
    All,
    Any,
    FallbackFor,
}

// Empty lists are left out of the JSON: an unavailable entry has at least one of them.
fn skip_lists<T>(v: &[T]) -> bool {
    v.is_empty()
}

impl Availability {
    /// Whether reports say why: a status that needs it, or any other that has a reason (an
    /// available skill some of whose needs were not judged, a skill that needs nothing loaded
    /// from a frontmatter the host reads its own way, one whose only declaration the host
    /// does not read).
    pub(crate) fn explained(&self) -> bool {
        self.status.explained() || self.reason.is_some()
    }

    pub(crate) fn of(status: Status, reason: Option<String>) -> Self {
        Availability {
            status,
            missing: Vec::new(),
            unmet_any: Vec::new(),
            unmet: Vec::new(),
            not_judged: Vec::new(),
            reason,
            basis: None,
        }
    }
}

/// Evaluate requirements declared by `dependencies` against a profile (tests, benches).
pub fn requirements(req: &Requirements, profile: &Profile) -> Availability {
    declarations(
        std::iter::once((crate::model::Origin::Dependencies, req, &[][..])),
        profile,
        std::slice::from_ref(profile),
    )
}

/// Is the tool `name` of a skill's agent-style `tools` one that no built-in host defines and
/// none of `run` (the profiles of the run) has or denies? Such a name (an API tool type such as
/// `computer`) is no tool anyone grants, so it is not judged, and SA326 reports it once.
pub(crate) fn undefined_tool(name: &str, run: &[Profile]) -> bool {
    let bare = crate::profile::names::tool_of(name);
    !crate::profile::names::canonical(bare).contains('/')
        && !crate::profile::builtin::any_defines(bare)
        && !run
            .iter()
            .any(|p| p.tools.contains(bare) || p.deny.denies(DepKind::Tools, bare))
}

/// Is `name`, of a skill's `allowed-tools`, one no host we know defines and `profile` does
/// not list? A permission list names the tools of whichever host reads it: a bare name no
/// built-in host defines (`ask_user` of the Copilot CLI) is no host's we know, so it is not
/// judged; MCP names are.
pub(crate) fn permitted_unknown(profile: &Profile, name: &str) -> bool {
    let bare = crate::profile::names::tool_of(name);
    !crate::profile::names::canonical(bare).contains('/')
        && !crate::profile::builtin::any_defines(bare)
        && !profile.tools.contains(bare)
}

/// How one name of `kind`, declared by `source`, fares in `profile`, one of the profiles of
/// `run`: `None` when the profile does not describe the kind.
fn met(
    profile: &Profile,
    run: &[Profile],
    source: crate::model::Origin,
    kind: DepKind,
    name: &str,
) -> Option<bool> {
    match kind {
        DepKind::Tools | DepKind::Resources | DepKind::Prompts if !profile.describes_mcp() => None,
        DepKind::Tools => {
            let judged = match source {
                crate::model::Origin::AllowedTools => {
                    if permitted_unknown(profile, name) {
                        return None;
                    }
                    // Claude Code's permission syntax names Claude Code's tools.
                    Judged::ClaudeNames
                }
                // Agent-style `tools` name tools in some host's words. Names from
                // `dependencies` keep the proposal's meaning: an unknown one is unmet.
                crate::model::Origin::AgentFields | crate::model::Origin::Inferred
                    if undefined_tool(name, run) =>
                {
                    return None;
                }
                // What a body names and the terminal its commands need are in any host's
                // words, as agent-style `tools` are.
                crate::model::Origin::AgentFields | crate::model::Origin::Inferred => {
                    Judged::SkillTools
                }
                _ => Judged::Skill,
            };
            // A host's built-in, on a profile with no host, is for no one here to judge; nor
            // is a name something the profile does not describe may provide.
            match tool(profile, judged, name) {
                ToolVerdict::NotJudged => None,
                ToolVerdict::Unknown if profile.may_provide(name).is_some() => None,
                verdict => Some(verdict.resolves()),
            }
        }
        DepKind::Resources | DepKind::Prompts
            if !profile.describes_server_items() && !profile.deny.denies(kind, name) =>
        {
            None
        }
        DepKind::Resources | DepKind::Prompts => Some(profile.has(kind, name)),
        // npm packages an inferred need names: no profile lists them.
        DepKind::Packages if name.starts_with("npm:") => None,
        DepKind::Packages => {
            let installed = profile.machine.packages.as_ref()?;
            let Some(req) = crate::parse::packages::parse_one(name) else {
                return Some(false);
            };
            let key = crate::parse::packages::normalise(req.name.as_ref());
            Some(
                installed
                    .get(&key)
                    .is_some_and(|v| crate::parse::packages::satisfied_by(&req, v)),
            )
        }
        _ => profile.machine.names(kind).map(|n| n.contains(name)),
    }
}

/// Evaluate every source's requirements against a profile: all of them must hold. A kind
/// the profile does not describe (a machine kind it has no list for) is not judged.
pub(crate) fn declarations<'r>(
    declared: impl Iterator<
        Item = (
            crate::model::Origin,
            &'r Requirements,
            &'r [crate::model::Use],
        ),
    > + Clone,
    profile: &Profile,
    run: &[Profile],
) -> Availability {
    let mut out = Availability::of(Status::Available, None);
    let mut parts = Parts::default();
    let mut unjudged = Vec::new();
    // Packages are what the code a skill teaches or runs imports. Where they are all a cell
    // cannot judge, the host is asked for nothing: the skill is available there, the packages
    // named as not judged (a profile of the machine judges them).
    let packages_only = declared.clone().all(|(_, r, _)| {
        DepKind::ALL
            .into_iter()
            .all(|k| k == DepKind::Packages || r.group(k).is_empty())
    });
    // Whether the profile judged anything at all: a cell that judged some needs takes a judged
    // status and names the rest as not judged.
    let mut judged_any = false;
    for (source, requirements, uses) in declared.clone() {
        let tag = source.tag();
        // An inferred need says where it was read.
        let from = |names: &[String]| -> String {
            let places: Vec<String> = names
                .iter()
                .filter_map(|n| uses.iter().find(|u| &u.name == n))
                .map(|u| crate::diagnostic::quote(&u.place()))
                .collect();
            if places.is_empty() {
                String::new()
            } else {
                format!(" (inferred from {})", places.join(", "))
            }
        };
        let mut unjudged_here = Vec::new();
        for kind in DepKind::ALL {
            let group = requirements.group(kind);
            if group.is_empty() {
                continue;
            }
            let (mut skipped, mut skipped_any) = (Vec::new(), Vec::new());
            // Unmet only when every entry was judged and none is there. One entry that is
            // there meets the group: the others need no judging, and none of them is listed
            // as not judged.
            let any_unmet = group.any.as_ref().filter(|any| {
                let mut unjudged = Vec::new();
                for n in any.iter() {
                    match met(profile, run, source, kind, n) {
                        Some(true) => {
                            judged_any = true;
                            return false;
                        }
                        Some(false) => {}
                        None => unjudged.push(n.clone()),
                    }
                }
                let none = !any.is_empty() && unjudged.is_empty();
                judged_any |= none;
                skipped_any = unjudged;
                none
            });
            let mut judge = |n: &String| match met(profile, run, source, kind, n) {
                Some(ok) => {
                    judged_any = true;
                    Some(ok)
                }
                None => {
                    skipped.push(n.clone());
                    None
                }
            };
            let miss: Vec<String> = group
                .all
                .iter()
                .filter(|n| judge(n) == Some(false))
                .cloned()
                .collect();
            let standing_in: Vec<String> = group
                .fallback_for
                .iter()
                .filter(|n| judge(n) == Some(true))
                .cloned()
                .collect();
            if !miss.is_empty() {
                parts.push(
                    format!(
                        "missing {} {}{}",
                        plural(kind, miss.len()),
                        crate::diagnostic::quoted(&miss),
                        from(&miss)
                    ),
                    source,
                );
                out.missing.extend(miss.iter().cloned());
                out.unmet.push(Unmet {
                    source,
                    kind,
                    group: UnmetGroup::All,
                    names: miss,
                });
            }
            if let Some(any) = any_unmet {
                parts.push(
                    format!(
                        "no {} of {} is available",
                        kind.noun(),
                        crate::diagnostic::quoted(any)
                    ),
                    source,
                );
                out.unmet_any.push(any.clone());
                out.unmet.push(Unmet {
                    source,
                    kind,
                    group: UnmetGroup::Any,
                    names: any.clone(),
                });
            }
            if !standing_in.is_empty() {
                parts.push(
                    format!(
                        "a fallback for {} {}, which {} available, so its host hides it",
                        plural(kind, standing_in.len()),
                        crate::diagnostic::quoted(&standing_in),
                        if standing_in.len() == 1 { "is" } else { "are" }
                    ),
                    source,
                );
                out.unmet.push(Unmet {
                    source,
                    kind,
                    group: UnmetGroup::FallbackFor,
                    names: standing_in,
                });
            }
            skipped.sort();
            skipped.dedup();
            // Of an `any` group, one is needed: said so, not listed as though each were.
            for (names, group, lead) in [
                (skipped, UnmetGroup::All, ""),
                (skipped_any, UnmetGroup::Any, "one of "),
            ] {
                if names.is_empty() {
                    continue;
                }
                unjudged_here.push(format!(
                    "{lead}{} {}",
                    plural(kind, names.len()),
                    crate::diagnostic::quoted(&names)
                ));
                out.not_judged.push(Unmet {
                    source,
                    kind,
                    group,
                    names,
                });
            }
        }
        if !unjudged_here.is_empty() {
            let tag = match source {
                crate::model::Origin::Inferred => " (inferred)",
                _ => tag,
            };
            unjudged.push(format!("{}{tag}", unjudged_here.join(", ")));
        }
    }
    let mut parts = parts.render();
    if !parts.is_empty() {
        // Tools that `allowed-tools` names, and what the body and scripts use, are what the
        // skill uses, not prerequisites: with some of them there, the host runs it without the
        // others (as it runs an agent).
        let used = |s: crate::model::Origin| {
            matches!(
                s,
                crate::model::Origin::AllowedTools | crate::model::Origin::Inferred
            )
        };
        let unmet = out.unmet.iter().map(|u| u.names.len()).sum::<usize>();
        let degraded = out
            .unmet
            .iter()
            .all(|u| used(u.source) && u.group == UnmetGroup::All)
            && declared
                .clone()
                .filter(|(source, _, _)| used(*source))
                .map(|(_, r, _)| {
                    DepKind::ALL
                        .iter()
                        .map(|k| r.group(*k).all.len())
                        .sum::<usize>()
                })
                .sum::<usize>()
                > unmet;
        out.status = if degraded {
            Status::Partial
        } else {
            Status::Unavailable
        };
    } else if !unjudged.is_empty() && !judged_any && !packages_only {
        out.status = Status::NotJudged;
    }
    if !unjudged.is_empty() {
        let lead = if judged_any || packages_only {
            "not judged here"
        } else {
            "not judged, as the profile does not describe them"
        };
        parts.push(format!("{lead}: {}", unjudged.join("; ")));
    }
    if !parts.is_empty() {
        out.reason = Some(parts.join("; "));
    }
    out
}

/// Evaluate a skill against a profile, one of the profiles of `run`, covering invalid and
/// undeclared skills.
pub(crate) fn skill(skill: &Skill, profile: &Profile, run: &[Profile]) -> Availability {
    // First whether the host loads the skill at all, by its own documented rules: a host
    // that reads a frontmatter leniently (Claude Code) loads a file whose YAML does not parse.
    if let Some(v) = &profile.vocabulary
        && let Some(rules) = &v.skills
    {
        let host = profile.host_title().unwrap_or_default();
        match rules.judge_on(skill, host, profile.machine.os.as_ref()) {
            crate::profile::loading::Loading::Refused(reason) => {
                return Availability::of(Status::NotLoaded, Some(reason));
            }
            crate::profile::loading::Loading::WithoutFields(reason) => {
                return without_fields(skill, profile, run, reason);
            }
            crate::profile::loading::Loading::Loads => {}
        }
    }
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
    if skill.requirements.is_empty() {
        return Availability::of(Status::NeedsNothing, None);
    }
    // `allowed-tools` is Claude Code's pre-approval list: a host that does not read it (VS
    // Code, GitHub Copilot) neither needs nor grants what it names.
    let host = profile.host().filter(|h| *h != "claude-code");
    let read_here = |d: &&crate::model::Declared| {
        host.is_none() || d.source != crate::model::Origin::AllowedTools
    };
    if let Some(host) = host
        && !skill.requirements.iter().any(|d| read_here(&d))
    {
        // Only `allowed-tools`: what the skill uses is written in words this host ignores.
        return Availability::of(
            Status::Undeclared,
            Some(format!(
                "only `allowed-tools` declares what it uses, and {host} does not read it (Claude Code does)"
            )),
        );
    }
    let mut out = declarations(
        skill
            .requirements
            .iter()
            .filter(read_here)
            .map(|d| (d.source, &d.requirements, d.uses.as_slice())),
        profile,
        run,
    );
    let inferred = skill
        .requirements
        .iter()
        .any(|d| d.source == crate::model::Origin::Inferred);
    let declared = skill
        .requirements
        .iter()
        .filter(read_here)
        .any(|d| d.source != crate::model::Origin::Inferred);
    out.basis = match (declared, inferred) {
        (true, true) => Some(Basis::Both),
        (true, false) => Some(Basis::Declared),
        (false, true) => Some(Basis::Inferred),
        (false, false) => None,
    };
    out
}

/// A skill the host loads with none of its frontmatter fields: what its body and scripts use
/// is all it asks of the host.
fn without_fields(
    skill: &Skill,
    profile: &Profile,
    run: &[Profile],
    reason: String,
) -> Availability {
    let inferred = skill
        .requirements
        .iter()
        .filter(|d| d.source == crate::model::Origin::Inferred);
    // A frontmatter that cannot be read may still declare needs under a key of its own: what
    // it declares is then unknown, and "needs nothing" would be a guess.
    let unread = unread_declaration(skill);
    let reason = match unread {
        Some(key) => {
            format!("{reason}; what its `{key}` declares cannot be read, so it is not judged")
        }
        None => reason,
    };
    if inferred.clone().next().is_none() {
        let status = if unread.is_some() {
            Status::Invalid
        } else {
            Status::NeedsNothing
        };
        return Availability::of(status, Some(reason));
    }
    let mut out = declarations(
        inferred.map(|d| (d.source, &d.requirements, d.uses.as_slice())),
        profile,
        run,
    );
    out.basis = Some(Basis::Inferred);
    out.reason = Some(match out.reason.take() {
        Some(why) => format!("{reason}; {why}"),
        None => reason,
    });
    out
}

/// The first key at the left margin of a frontmatter that cannot be read under which a skill
/// declares what it needs, in any dialect skill-audit reads (`dependencies`, agent-style
/// `tools`, OpenClaw's and Hermes' blocks in `metadata`, ...).
fn unread_declaration(skill: &Skill) -> Option<&str> {
    const DECLARING: &[&str] = &[
        "dependencies",
        "tools",
        "mcp-servers",
        "allowed-tools",
        "prerequisites",
        "required_environment_variables",
        "platforms",
    ];
    // `metadata` declares only through a host's block in it: OpenClaw's (under any of its
    // names) or Hermes'.
    let host_block = |value: &str| {
        crate::parse::openclaw::KEYS
            .iter()
            .chain(&["hermes"])
            .any(|b| value.contains(b))
    };
    let keys = skill.fields.line_keys.as_ref()?;
    keys.iter()
        .find(|(key, value)| {
            DECLARING.contains(&key.as_str()) || key == "metadata" && host_block(value)
        })
        .map(|(key, _)| key.as_str())
}

/// The parts of an availability's reason, each with the sources that gave it: two sources
/// that need the same thing make one part naming both, not the same words twice.
#[derive(Default)]
struct Parts(Vec<(String, Vec<crate::model::Origin>)>);

impl Parts {
    fn push(&mut self, part: String, source: crate::model::Origin) {
        match self.0.iter_mut().find(|(p, _)| *p == part) {
            Some((_, sources)) if !sources.contains(&source) => sources.push(source),
            Some(_) => {}
            None => self.0.push((part, vec![source])),
        }
    }

    fn render(self) -> Vec<String> {
        self.0
            .into_iter()
            .map(|(part, sources)| match sources.as_slice() {
                [one] => format!("{part}{}", one.tag()),
                many => {
                    let names: Vec<&str> = many.iter().map(|s| s.as_str()).collect();
                    format!("{part} ({})", names.join(", "))
                }
            })
            .collect()
    }
}

fn plural(kind: DepKind, n: usize) -> &'static str {
    if n == 1 { kind.noun() } else { kind.nouns() }
}

/// How skills' agent-style `tools` and `mcp-servers` are read when an agent loads them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Semantics {
    /// As hosts do today: the agent must list what the skill needs.
    #[default]
    Today,
    /// As the proposal would: a skill's `tools` and `mcp-servers` union with the agent's.
    Proposal,
}

/// Declare what a skill's fields written as tool names need, as parsing read them: every tool
/// its agent-style `tools` names (products, which name the hosts a skill is for, are taken out
/// of the list) and each `mcp-servers` entry's server; and what `allowed-tools` pre-approves
/// (`Bash(git:*)` uses `Bash`, `mcp__server` every tool of that server). Returns the products
/// taken out, in order, for the rule that reports them.
pub fn declare_fields(skill: &mut Skill) -> Vec<String> {
    let mut products = Vec::new();
    if let Some(tools) = &mut skill.tools {
        let is_product = crate::profile::products::products(tools);
        let mut flags = is_product.iter();
        tools.retain(|t| {
            let product = flags.next().copied().unwrap_or(false);
            if product {
                products.push(t.clone());
            }
            !product
        });
    }
    let mut agent_fields = Requirements::default();
    agent_fields.tools.extend_all(skill.tools.iter().flatten());
    agent_fields
        .tools
        .extend_all(skill.mcp_servers.iter().map(|s| format!("{s}/*")));
    let mut allowed = Requirements::default();
    allowed
        .tools
        .extend_all(skill.fields.allowed_tools.iter().map(|t| {
            let bare = crate::profile::names::tool_of(t);
            match bare.strip_prefix("mcp__") {
                Some(server) if !server.is_empty() && !server.contains("__") => {
                    format!("{server}/*")
                }
                _ => bare.to_owned(),
            }
        }));
    let (tools_at, allowed_at) = (skill.fields.tools_at, skill.fields.allowed_tools_at);
    let mut declared = false;
    for (source, at, needs) in [
        (crate::model::Origin::AgentFields, tools_at, agent_fields),
        (crate::model::Origin::AllowedTools, allowed_at, allowed),
    ] {
        if needs.is_empty() {
            continue;
        }
        let pos = at.unwrap_or(crate::diagnostic::Pos::START);
        skill.requirements.push(crate::model::Declared {
            source,
            file: None,
            line: pos.line,
            column: pos.column,
            requirements: needs,
            uses: Vec::new(),
            block: "",
        });
        declared = true;
    }
    if declared {
        skill.requirements.sort_by_key(|d| d.source);
        skill.requirements.shrink_to_fit();
        if skill.declared_by != crate::model::DeclaredBy::Dependencies {
            skill.declared_by = skill.requirements[0].source.into();
        }
    }
    products
}

/// Add what a skill's body or scripts use to its `inferred` requirements: each name once, at
/// its first use. A tool named only by "use the `X` tool" counts where a built-in host defines
/// X; executables, and scripts, also need the host's terminal tool (Claude Code's `Bash`, which
/// the built-in vocabularies map to VS Code's and GitHub's).
pub(crate) fn declare_inferred(skill: &mut Skill, uses: Vec<crate::model::Use>) {
    // Declared executables are run from the terminal. Declared packages are not: they are
    // what the code a skill teaches imports, which the person's project may run instead.
    let runs = skill
        .requirements
        .iter()
        .filter(|d| d.source != crate::model::Origin::Inferred)
        .find_map(|d| {
            let g = d.requirements.group(DepKind::Bins);
            let names: Vec<String> = g
                .all
                .iter()
                .chain(g.any.iter().flatten())
                .cloned()
                .collect();
            (!names.is_empty()).then(|| crate::model::Use {
                kind: DepKind::Tools,
                name: TERMINAL.to_owned(),
                file: d.file.clone(),
                line: d.line,
                column: d.column,
                evidence: format!(
                    "{} declares {} {}",
                    d.place(),
                    DepKind::Bins.nouns(),
                    crate::diagnostic::quoted(&names)
                ),
                phrase: false,
                one_of: false,
            })
        });
    if uses.is_empty() && runs.is_none() {
        return;
    }
    let at = skill
        .requirements
        .iter()
        .position(|d| d.source == crate::model::Origin::Inferred);
    let mut all = at.map_or_else(Vec::new, |i| skill.requirements.remove(i).uses);
    all.extend(
        uses.into_iter()
            .filter(|u| !u.phrase || crate::profile::builtin::any_defines(&u.name)),
    );
    // The SKILL.md first, then the scripts by path; each by place.
    all.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    let mut seen = foldhash::HashSet::default();
    // A package a script imports and its folder's package list names is one need, under the
    // list's spelling: `yt_dlp` imported and `yt-dlp` listed, `typer` and `typer[all]`.
    let listed: foldhash::HashSet<String> = all
        .iter()
        .filter(|u| u.kind == DepKind::Packages && is_package_list(u.file.as_deref()))
        .map(|u| need_key(u.kind, &u.name))
        .collect();
    // Each need once in the body and once in the scripts: a script's use is what SA312 asks a
    // declaration to list, and the body showing the same command must not hide it.
    all.retain(|u| {
        let key = need_key(u.kind, &u.name);
        let unlisted = u.kind == DepKind::Packages
            && !is_package_list(u.file.as_deref())
            && listed.contains(&key);
        !unlisted && seen.insert((u.kind, key, u.file.is_some()))
    });
    let runs = runs.filter(|_| !all.iter().any(|u| u.kind == DepKind::Bins));
    // What runs: a command, or a script (whose imports and variables show it is run). An
    // install line in the body alone is not a run: a library guide's `pip install` sets up
    // the project the person's code runs in.
    let first = all.iter().find(|u| u.kind == DepKind::Bins).or_else(|| {
        all.iter()
            .find(|u| u.file.is_some() && u.kind != DepKind::Tools)
    });
    let derived = first.cloned().map(|mut terminal| {
        terminal.kind = DepKind::Tools;
        terminal.name = TERMINAL.to_owned();
        // Whichever way runs, it runs in the terminal.
        terminal.one_of = false;
        terminal
    });
    if !all
        .iter()
        .any(|u| u.kind == DepKind::Tools && u.name == TERMINAL)
    {
        all.extend(derived.or(runs));
    }
    if all.is_empty() {
        return;
    }
    // What a declaration already asks for is not asked again (the uses still list it).
    // `allowed-tools` does not count: hosts other than Claude Code do not read it.
    let declared: foldhash::HashSet<(DepKind, String)> = skill
        .requirements
        .iter()
        .filter(|d| {
            !matches!(
                d.source,
                crate::model::Origin::Inferred | crate::model::Origin::AllowedTools
            )
        })
        .flat_map(|d| {
            DepKind::ALL.into_iter().flat_map(move |k| {
                let g = d.requirements.group(k);
                g.all
                    .iter()
                    .chain(g.any.iter().flatten())
                    .map(move |n| (k, need_key(k, n)))
            })
        })
        .collect();
    let mut requirements = Requirements::default();
    // Each need once, as its first use spells it.
    let mut asked = foldhash::HashSet::default();
    let mut names: Vec<(DepKind, &str)> = all
        .iter()
        .filter(|u| {
            let key = (u.kind, need_key(u.kind, &u.name));
            !declared.contains(&key) && asked.insert(key)
        })
        .map(|u| (u.kind, u.name.as_str()))
        .collect();
    names.sort();
    // Tools a table lists, of which the skill calls some, or the names of which each of the
    // body's ways uses one: one of them is needed.
    let (mut listed, mut chosen) = (foldhash::HashSet::default(), foldhash::HashSet::default());
    for u in &all {
        let set = if u.one_of { &mut listed } else { &mut chosen };
        set.insert((u.kind, u.name.as_str()));
    }
    let either = |need: &(DepKind, &str)| listed.contains(need) && !chosen.contains(need);
    // A declaration that lists one of them meets the group: the others are asked for no more.
    let met: Vec<DepKind> = all
        .iter()
        .map(|u| (u.kind, u.name.as_str()))
        .filter(|need| either(need) && declared.contains(&(need.0, need_key(need.0, need.1))))
        .map(|(kind, _)| kind)
        .collect();
    let (one_of, every): (Vec<_>, Vec<_>) = names
        .into_iter()
        .filter(|need| !(either(need) && met.contains(&need.0)))
        .partition(either);
    for (kind, name) in every {
        requirements.group_mut(kind).all.push(name.to_owned());
    }
    for same in one_of.chunk_by(|a, b| a.0 == b.0) {
        let names: Vec<String> = same.iter().map(|(_, n)| (*n).to_owned()).collect();
        let group = requirements.group_mut(same[0].0);
        if names.len() == 1 {
            group.all.extend(names);
            group.all.sort();
        } else {
            group.any = Some(names);
        }
    }
    if requirements.is_empty() {
        return;
    }
    let (line, column) = all
        .iter()
        .find(|u| u.file.is_none())
        .map_or((0, 0), |u| (u.line, u.column));
    skill.requirements.push(crate::model::Declared {
        source: crate::model::Origin::Inferred,
        file: None,
        line,
        column,
        requirements,
        uses: all,
        block: "",
    });
    skill.requirements.sort_by_key(|d| d.source);
}

/// What makes two needs one: a package's name without version or extras, spelled as its
/// registry compares names (`PyYAML>=6` and `pyyaml` are one); any other need's name itself.
fn need_key(kind: DepKind, name: &str) -> String {
    match kind {
        DepKind::Packages => {
            let bare: String = name
                .chars()
                .take_while(|c| {
                    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '@' | '/')
                })
                .collect();
            crate::parse::packages::normalise(&bare)
        }
        _ => name.to_owned(),
    }
}

/// Whether a script file is a package list (`requirements.txt`, `package.json`), whose entries
/// name distributions as installed, where a script's imports name modules.
fn is_package_list(file: Option<&str>) -> bool {
    file.and_then(|f| f.rsplit('/').next())
        .is_some_and(|name| matches!(name, "requirements.txt" | "package.json"))
}

/// The tool a host runs commands with, in Claude Code's name.
const TERMINAL: &str = "Bash";

/// Record on each agent what the skills it loads would add to its grants under the proposal.
pub(crate) fn proposal_grants(
    links: &[crate::model::Link],
    skills: &[Box<Skill>],
    agents: &mut [crate::model::Agent],
) {
    let skill_by_path: foldhash::HashMap<&str, &Skill> =
        skills.iter().map(|s| (s.path.as_str(), &**s)).collect();
    let mut agent_ix: foldhash::HashMap<&str, usize> = foldhash::HashMap::default();
    for (i, a) in agents.iter().enumerate() {
        agent_ix.insert(a.path.as_str(), i);
    }
    let mut grants: Vec<(usize, crate::model::ProposalGrants)> = Vec::new();
    for group in links.chunk_by(|a, b| a.agent == b.agent) {
        let Some(&i) = group.first().and_then(|l| agent_ix.get(l.agent.as_str())) else {
            continue;
        };
        let agent = &agents[i];
        let mut g = crate::model::ProposalGrants::default();
        // What the agent has so far, its own and what earlier skills added, as sets: every
        // name of every skill it loads is looked up, and the lists grow with those skills.
        let mut tools: Option<foldhash::HashSet<&str>> = agent
            .tools
            .as_ref()
            .map(|own| own.iter().map(String::as_str).collect());
        let mut servers: foldhash::HashSet<&str> =
            agent.mcp_servers.iter().map(String::as_str).collect();
        let mut from: foldhash::HashSet<&str> = foldhash::HashSet::default();
        for l in group {
            let Some(skill) = skill_by_path.get(l.skill_path.as_str()) else {
                continue;
            };
            if skill.invalid {
                continue;
            }
            let mut added = false;
            if let Some(tools) = &mut tools {
                for t in skill.tools.iter().flatten() {
                    if tools.insert(t) {
                        g.tools.push(t.clone());
                        added = true;
                    }
                }
            }
            for s in &skill.mcp_servers {
                if servers.insert(s) {
                    g.mcp_servers.push(s.clone());
                    added = true;
                }
            }
            if added && from.insert(&skill.path) {
                g.from.push(skill.path.clone());
            }
        }
        if !g.from.is_empty() {
            grants.push((i, g));
        }
    }
    drop(agent_ix);
    for (i, g) in grants {
        agents[i].proposal = Some(g);
    }
}

/// The agent as `semantics` reads it: under the proposal, with the tools and MCP servers
/// that its skills add.
pub(crate) fn effective(
    agent: &crate::model::Agent,
    semantics: Semantics,
) -> std::borrow::Cow<'_, crate::model::Agent> {
    match (&agent.proposal, semantics) {
        (Some(g), Semantics::Proposal) => {
            let mut a = agent.clone();
            if let Some(tools) = &mut a.tools {
                tools.extend(g.tools.iter().cloned());
            }
            a.mcp_servers.extend(g.mcp_servers.iter().cloned());
            std::borrow::Cow::Owned(a)
        }
        _ => std::borrow::Cow::Borrowed(agent),
    }
}

/// The drift of every link: what each agent does not grant of what its linked skills need.
/// Under the proposal, what a skill's own `tools` and `mcp-servers` grant is not drift.
pub(crate) fn drift_of_links(
    links: &[crate::model::Link],
    skills: &[Box<Skill>],
    agents: &[crate::model::Agent],
    semantics: Semantics,
) -> Vec<crate::model::Drift> {
    let skill_by_path: foldhash::HashMap<&str, &Skill> =
        skills.iter().map(|s| (s.path.as_str(), &**s)).collect();
    let agent_ix: foldhash::HashMap<&str, &crate::model::Agent> =
        agents.iter().map(|a| (a.path.as_str(), a)).collect();
    // Links come sorted by agent: each agent's links are judged on their own, on all threads,
    // with its grants built once and only when a linked skill needs tools. Results keep the
    // links' order.
    let per_agent: Vec<Vec<crate::model::Drift>> = links
        .par_chunk_by(|a, b| a.agent == b.agent)
        .map(|group| {
            let Some(agent) = group.first().and_then(|l| agent_ix.get(l.agent.as_str())) else {
                return Vec::new();
            };
            let grants = std::cell::OnceCell::new();
            group
                .iter()
                .filter_map(|l| {
                    let skill = skill_by_path.get(l.skill_path.as_str())?;
                    let grants = || grants.get_or_init(|| Grants::of(agent));
                    drift(l, grants, skill, semantics)
                })
                .collect()
        })
        .collect();
    per_agent.into_iter().flatten().collect()
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
                ..Group::default()
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

    /// One tool of an `any` group that is there meets it, whatever the others are: a name
    /// the profile cannot judge after it is not listed as not judged.
    #[test]
    fn a_met_any_group_lists_nothing_unjudged() {
        let p = Profile::from_names("dev", "p.json", &["Read"], &[], &[]).unwrap();
        // `ask_user` is no built-in host's tool: a permission list's such name is not judged.
        for any in [["Read", "ask_user"], ["ask_user", "Read"]] {
            let r = req(&[], Some(&any));
            let a = declarations(
                std::iter::once((crate::model::Origin::AllowedTools, &r, &[][..])),
                &p,
                std::slice::from_ref(&p),
            );
            assert_eq!(a.status, Status::Available, "{any:?}");
            assert!(
                a.not_judged.is_empty() && a.reason.is_none(),
                "{any:?}: {a:?}"
            );
        }
        let r = req(&[], Some(&["ask_user", "github/create_issue"]));
        let a = declarations(
            std::iter::once((crate::model::Origin::AllowedTools, &r, &[][..])),
            &p,
            std::slice::from_ref(&p),
        );
        assert_eq!(a.status, Status::NotJudged);
        assert_eq!(a.not_judged[0].names, ["ask_user"]);
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
/// spellings, VS Code tool sets, legacy names and GitHub's case-insensitive aliases; and the
/// MCP servers its `mcp-servers` configures.
#[derive(Debug)]
pub(crate) struct Grants {
    all: bool,
    names: crate::profile::NameSet,
    /// A set, as every server of every skill the agent loads is looked up in it.
    servers: foldhash::HashSet<String>,
}

impl Grants {
    pub(crate) fn of(agent: &crate::model::Agent) -> Grants {
        let servers = agent.mcp_servers.iter().cloned().collect();
        let Some(tools) = &agent.tools else {
            return Grants {
                all: true,
                names: crate::profile::NameSet::default(),
                servers,
            };
        };
        let mut expanded: Vec<String> = Vec::new();
        for t in tools {
            expanded.extend(expand(t));
        }
        let names = crate::profile::NameSet::new(expanded.iter().map(String::as_str), true)
            .unwrap_or_default();
        Grants {
            all: false,
            names,
            servers,
        }
    }

    /// Does the agent configure the MCP server `server` itself?
    pub(crate) fn configures(&self, server: &str) -> bool {
        self.servers.contains(server)
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
    grants: impl FnOnce() -> &'g Grants,
    skill: &Skill,
    semantics: Semantics,
) -> Option<crate::model::Drift> {
    if skill.invalid || skill.requirements_invalid {
        return None;
    }
    let proposal = semantics == Semantics::Proposal;
    let (all, any): (Vec<&String>, Option<&Vec<String>>) = match skill.declared_by {
        crate::model::DeclaredBy::Dependencies => (
            skill.dependencies().tools.all.iter().collect(),
            skill.dependencies().tools.any.as_ref(),
        ),
        // Under the proposal the skill grants its own `tools`: nothing is missing.
        _ if proposal => (Vec::new(), None),
        _ => (skill.tools.iter().flatten().collect(), None),
    };
    let servers: &[String] = if proposal { &[] } else { &skill.mcp_servers };
    if all.is_empty() && any.is_none_or(Vec::is_empty) && servers.is_empty() {
        return None;
    }
    let grants = grants();
    // What the skill grants itself, under the proposal: sets, as each tool it needs is
    // looked up in them.
    let (own_tools, own_servers): (foldhash::HashSet<&str>, foldhash::HashSet<&str>) = if proposal {
        (
            skill.tools.iter().flatten().map(String::as_str).collect(),
            skill.mcp_servers.iter().map(String::as_str).collect(),
        )
    } else {
        Default::default()
    };
    let own = |t: &str| {
        proposal
            && (own_tools.contains(t)
                || crate::profile::names::canonical(crate::profile::names::tool_of(t))
                    .split_once('/')
                    .is_some_and(|(server, _)| own_servers.contains(server)))
    };
    let granted = |t: &str| grants.grants(t) || own(t);
    let missing_tools: Vec<String> = all.into_iter().filter(|t| !granted(t)).cloned().collect();
    let unmet_any: Vec<Vec<String>> = any
        .filter(|a| !a.is_empty() && !a.iter().any(|t| granted(t)))
        .cloned()
        .into_iter()
        .collect();
    let missing_mcp_servers: Vec<String> = servers
        .iter()
        .filter(|s| !grants.configures(s) && !grants.grants(&format!("{s}/*")))
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
    /// A skill's `dependencies`: names as the profile has them.
    Skill,
    /// A skill's agent-style `tools`, which may be written in any host's words: a host's
    /// table of another host's names applies, as it does to the agents it loads.
    SkillTools,
    /// A skill's names written in Claude Code's vocabulary (its `allowed-tools`).
    ClaudeNames,
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

/// On a host whose tool names are not documented but whose terminal is, a skill's need for
/// the terminal (written as Claude Code's `Bash`, as inferred needs and `allowed-tools` are)
/// is judged by it; every other name is not judged.
fn terminal_only(profile: &Profile, judged: Judged<'_>, bare: &str) -> ToolVerdict {
    let terminal = profile
        .vocabulary
        .as_ref()
        .and_then(|v| v.terminal.as_ref());
    match (judged, terminal) {
        (Judged::SkillTools | Judged::ClaudeNames, Some(t)) if bare == TERMINAL => {
            if profile.deny.denies(DepKind::Tools, t) {
                ToolVerdict::Denied
            } else {
                ToolVerdict::Resolves
            }
        }
        _ => ToolVerdict::NotJudged,
    }
}

/// The MCP servers an agent configures itself (`mcp-servers`), as a set: a caller that judges
/// every tool of an agent looks each tool's server up in it, built once.
#[derive(Default)]
pub(crate) struct OwnServers<'a>(foldhash::HashSet<&'a str>);

impl<'a> OwnServers<'a> {
    pub(crate) fn of(agent: &'a crate::model::Agent) -> Self {
        OwnServers(agent.mcp_servers.iter().map(String::as_str).collect())
    }
}

/// How `profile` judges the tool `name` that `judged` needs or names.
pub(crate) fn tool(profile: &Profile, judged: Judged<'_>, name: &str) -> ToolVerdict {
    let own = match judged {
        Judged::Agent(agent) => OwnServers::of(agent),
        _ => OwnServers::default(),
    };
    tool_with(profile, judged, name, &own)
}

/// [`tool`], given the servers the agent `judged` configures itself (`own`), for a caller
/// that judges many tools of one agent.
pub(crate) fn tool_with(
    profile: &Profile,
    judged: Judged<'_>,
    name: &str,
    own: &OwnServers<'_>,
) -> ToolVerdict {
    let bare = crate::profile::names::tool_of(name);
    if !profile.describes(crate::profile::Undescribed::Tools) {
        return terminal_only(profile, judged, bare);
    }
    // A host that does not start an agent's own servers judges their tools as any other.
    let honours = profile
        .host()
        .is_none_or(|h| HONOUR_AGENT_SERVERS.contains(&h));
    if let Judged::Agent(agent) = judged
        && honours
        && !agent.mcp_servers.is_empty()
        && let Some((server, _)) = crate::profile::names::canonical(bare).split_once('/')
        && own.0.contains(server)
    {
        // The agent configures this server itself: hosts that honour that start it; a
        // profile without a host cannot say.
        return match profile.host() {
            None => ToolVerdict::NotJudged,
            Some(_) => ToolVerdict::Resolves,
        };
    }
    let Some(v) = &profile.vocabulary else {
        // Without a host, what a built-in host of the item defines is that host's to provide.
        let own_host_defines = || match judged {
            Judged::Skill | Judged::SkillTools | Judged::ClaudeNames => {
                crate::profile::builtin::any_defines(bare)
            }
            Judged::Agent(a) => crate::profile::builtin::loaders_define(&a.flavor, bare),
        };
        return match profile.verdict(bare) {
            crate::profile::Verdict::Unknown if !profile.lists_every_tool && own_host_defines() => {
                ToolVerdict::NotJudged
            }
            other => other.into(),
        };
    };
    let native = match judged {
        Judged::Skill => None,
        Judged::SkillTools => Some(None),
        Judged::ClaudeNames => Some(Some("claude-code")),
        Judged::Agent(agent) => Some(native_host(&agent.flavor)),
    };
    if let Some(native) = native {
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
        if let Some(native) = native
            && native != v.host
            && v.maps.contains_key(native)
            && crate::profile::builtin::hosts()
                .iter()
                .any(|h| h.name == native && h.defines(bare))
        {
            return ToolVerdict::Unmapped(native.to_owned());
        }
    }
    let own = profile.verdict(name);
    // A skill may name a tool in another host's words (`#tool:fetch`, "use the `bash` tool"):
    // where that host's own tables say which of this host's tools does that work, the
    // skill has it when the profile has one of them.
    if matches!(judged, Judged::SkillTools) && matches!(own, crate::profile::Verdict::Unknown) {
        let theirs = crate::profile::builtin::counterparts(&v.host, bare);
        if theirs.iter().any(|t| profile.has(DepKind::Tools, t)) {
            return ToolVerdict::Resolves;
        }
        if theirs
            .iter()
            .any(|t| matches!(profile.verdict(t), crate::profile::Verdict::Denied))
        {
            return ToolVerdict::Denied;
        }
    }
    own.into()
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
    if !profile.describes(crate::profile::Undescribed::Agents) {
        let host = profile.host_title().unwrap_or_default();
        return Availability::of(
            Status::NotJudged,
            Some(format!(
                "the profile does not describe which agent files {host} loads or its tools"
            )),
        );
    }
    if !loads(profile, agent) {
        let host = profile.host().unwrap_or_default();
        let what = match agent.target.as_deref() {
            Some(t) if t != host && matches!(t, "vscode" | "github-copilot") => {
                format!("the agent targets `{t}` only")
            }
            _ => format!(
                "{} does not load {} agents",
                crate::diagnostic::quote(host),
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
    if !profile.describes_mcp() {
        return Availability::of(
            Status::NotJudged,
            Some("not judged, as the profile describes no host, tools or servers".into()),
        );
    }
    let tools = tools.map(Vec::as_slice).unwrap_or_default();
    let own = OwnServers::of(agent);
    let mut missing = Vec::new();
    // Names something the profile does not describe may provide, and what that is.
    let mut unjudged: Vec<(&String, crate::profile::Undescribed)> = Vec::new();
    for t in tools {
        match tool_with(profile, Judged::Agent(agent), t, &own) {
            v if v.resolves() => {}
            ToolVerdict::Unknown => match profile.may_provide(t) {
                Some(what) => unjudged.push((t, what)),
                None => missing.push(t.clone()),
            },
            _ => missing.push(t.clone()),
        }
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
    let mut not_judged = Vec::new();
    if !unjudged.is_empty() {
        let judged_any = unjudged.len() < tools.len() || !absent_servers.is_empty();
        let lead = if judged_any {
            "not judged here: "
        } else {
            "the profile cannot judge "
        };
        parts.push(format!("{lead}{}", unjudged_tools(&unjudged)));
        not_judged.push(Unmet {
            source: crate::model::Origin::AgentFields,
            kind: DepKind::Tools,
            group: UnmetGroup::All,
            names: unjudged.iter().map(|(t, _)| (*t).clone()).collect(),
        });
    }
    let reason = (!parts.is_empty()).then(|| parts.join("; "));
    if missing.is_empty() && absent_servers.is_empty() {
        let status = if unjudged.len() == tools.len() {
            Status::NotJudged
        } else {
            Status::Available
        };
        return Availability {
            not_judged,
            ..Availability::of(status, reason)
        };
    }
    let status = if absent_servers.is_empty() && missing.len() < tools.len() {
        Status::Partial
    } else {
        Status::Unavailable
    };
    missing.extend(absent_servers.into_iter().map(|s| format!("{s}/*")));
    Availability {
        status,
        missing,
        not_judged,
        ..Availability::of(status, reason)
    }
}

/// `tools `a`, `b` (an extension or an MCP server may provide them)`, for each thing the
/// profile does not describe.
fn unjudged_tools(unjudged: &[(&String, crate::profile::Undescribed)]) -> String {
    let mut by_provider: Vec<(crate::profile::Undescribed, Vec<String>)> = Vec::new();
    for (t, what) in unjudged {
        match by_provider.iter_mut().find(|(w, _)| w == what) {
            Some((_, names)) => names.push((*t).clone()),
            None => by_provider.push((*what, vec![(*t).clone()])),
        }
    }
    by_provider
        .iter()
        .map(|(what, names)| {
            format!(
                "{} {} ({} may provide {})",
                plural(DepKind::Tools, names.len()),
                crate::diagnostic::quoted(names),
                what.provider(),
                if names.len() == 1 { "it" } else { "them" }
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
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

/// Lists of thousands of names. What is asked of them for each name is asked of a set, so
/// these run in a moment; asked of the lists, they would take seconds.
#[cfg(test)]
mod long_list_tests {
    use super::*;
    use crate::model::{Agent, Link};

    fn names(prefix: &str, n: usize) -> Vec<String> {
        (0..n).map(|i| format!("{prefix}{i}")).collect()
    }

    /// `got` is `want`; on failure, says where they part rather than printing both.
    fn same(got: &[String], want: &[String]) {
        let at = got.iter().zip(want).position(|(g, w)| g != w);
        assert!(
            at.is_none() && got.len() == want.len(),
            "{} names, {} wanted; first difference at {at:?}: {:?} for {:?}",
            got.len(),
            want.len(),
            at.map(|i| &got[i]),
            at.map(|i| &want[i]),
        );
    }

    fn skill(path: &str, tools: Vec<String>, servers: Vec<String>) -> Box<Skill> {
        let mut s = Skill::invalid(path.to_owned(), path.to_owned(), path.into());
        s.invalid = false;
        s.tools = Some(tools);
        s.mcp_servers = servers;
        Box::new(s)
    }

    fn link(agent: &Agent, skill: &Skill, via: &str) -> Link {
        Link {
            agent: agent.path.clone(),
            skill: skill.name.clone(),
            skill_path: skill.path.clone(),
            via: via.to_owned(),
        }
    }

    fn claude_agent(tools: Option<Vec<String>>, servers: Vec<String>) -> Agent {
        Agent {
            name: "a".into(),
            path: ".claude/agents/a.md".into(),
            flavor: "claude".into(),
            tools,
            mcp_servers: servers,
            ..Agent::default()
        }
    }

    fn custom_agent(tools: &[&str]) -> Agent {
        Agent {
            name: "a".into(),
            path: ".github/agents/a.agent.md".into(),
            flavor: "custom".into(),
            tools: Some(tools.iter().map(|t| (*t).to_owned()).collect()),
            ..Agent::default()
        }
    }

    /// What a host profile cannot see (VS Code's extensions, the servers of a repository's
    /// settings on GitHub Copilot) leaves a name not judged; a host's own name, one it drops
    /// and an extension's tool on a host without extensions stay missing.
    #[test]
    fn names_the_profile_cannot_see_are_not_judged() {
        let vscode = crate::profile::builtin::load("vscode").unwrap();
        let github = crate::profile::builtin::load("github-copilot").unwrap();
        let a = agent(&custom_agent(&["mssql_connect"]), &vscode);
        assert_eq!(a.status, Status::NotJudged);
        assert_eq!(a.not_judged[0].names, ["mssql_connect"]);
        assert!(
            a.reason
                .unwrap()
                .contains("an extension or an MCP server may provide it")
        );
        let a = agent(
            &custom_agent(&["editFiles", "mssql_connect", "think"]),
            &vscode,
        );
        assert_eq!(
            (a.status, a.missing),
            (Status::Partial, vec!["think".into()])
        );
        let a = agent(&custom_agent(&["read", "sfdx-mcp/*"]), &github);
        assert_eq!(a.status, Status::Available);
        assert!(
            a.reason
                .unwrap()
                .contains("not judged here: tool `sfdx-mcp/*`")
        );
        let a = agent(
            &custom_agent(&[
                "sfdx-mcp/*",
                "edit/editFiles",
                "ms-python.python/installPythonPackage",
            ]),
            &github,
        );
        assert_eq!(a.status, Status::Partial);
        assert_eq!(
            a.missing,
            ["edit/editFiles", "ms-python.python/installPythonPackage"]
        );
        // On GitHub a bare name is no server's: it is dropped.
        assert_eq!(
            agent(&custom_agent(&["atlassian"]), &github).status,
            Status::Unavailable
        );
    }

    /// An agent that loads 400 skills of 100 tools and 100 servers each: the proposal adds
    /// each name once, in the skills' order, leaving out the agent's own.
    #[test]
    fn proposal_grants_of_many_skills() {
        let agent = claude_agent(
            Some(vec!["Read".into(), "T0_0".into()]),
            vec!["S0_0".into()],
        );
        let mut skills: Vec<Box<Skill>> = (0..400)
            .map(|j| {
                let mut tools = names(&format!("T{j}_"), 100);
                let mut servers = names(&format!("S{j}_"), 100);
                // Names the agent or an earlier skill has already.
                tools.extend(["Read".into(), "T0_1".into()]);
                servers.push("S0_1".into());
                skill(&format!("skills/s{j}/SKILL.md"), tools, servers)
            })
            .collect();
        // A skill that adds nothing is not one the grants come from.
        skills.push(skill(
            "skills/none/SKILL.md",
            vec!["Read".into(), "T0_0".into()],
            vec!["S0_0".into()],
        ));
        let mut links: Vec<Link> = skills
            .iter()
            .map(|s| link(&agent, s, "skills-field"))
            .collect();
        // The same skill through a second link.
        links.push(link(&agent, &skills[0], "body-link"));
        links.sort();
        let mut agents = vec![agent];
        proposal_grants(&links, &skills, &mut agents);
        let g = agents[0].proposal.as_ref().expect("grants");
        // Links are sorted by skill path: `s0`, `s1`, `s10`, `s100`, ...
        let mut order: Vec<usize> = (0..400).collect();
        order.sort_by_key(|j| format!("skills/s{j}/SKILL.md"));
        let expect = |prefix: &str, own: &str| -> Vec<String> {
            order
                .iter()
                .flat_map(|j| names(&format!("{prefix}{j}_"), 100))
                .filter(|n| n != own)
                .collect()
        };
        same(&g.tools, &expect("T", "T0_0"));
        same(&g.mcp_servers, &expect("S", "S0_0"));
        let from: Vec<String> = order
            .iter()
            .map(|j| format!("skills/s{j}/SKILL.md"))
            .collect();
        same(&g.from, &from);
    }

    /// A skill of 40,000 MCP servers loaded by an agent that configures 40,000 servers, half
    /// of them the skill's: the other half are missing, in the skill's order.
    #[test]
    fn drift_of_many_servers() {
        let skill_servers = names("sk", 40_000);
        let mut agent_servers = names("ag", 20_000);
        agent_servers.extend(skill_servers.iter().step_by(2).cloned());
        let agent = claude_agent(Some(Vec::new()), agent_servers);
        let s = skill("skills/s/SKILL.md", Vec::new(), skill_servers.clone());
        let links = [link(&agent, &s, "skills-field")];
        let drift = drift_of_links(
            &links,
            std::slice::from_ref(&s),
            std::slice::from_ref(&agent),
            Semantics::Today,
        );
        assert_eq!(drift.len(), 1);
        let missing: Vec<String> = skill_servers.into_iter().skip(1).step_by(2).collect();
        same(&drift[0].missing_mcp_servers, &missing);
        assert!(drift[0].missing_tools.is_empty());
    }

    /// Under the proposal, a skill whose `dependencies` need 50,000 tools and whose own
    /// `tools` and `mcp-servers` grant most of them: the rest are missing, in order.
    #[test]
    fn proposal_drift_of_many_tools() {
        let own_tools = names("T", 40_000);
        let own_servers = names("srv", 10_000);
        let mut needed: Vec<String> = own_tools.iter().step_by(2).cloned().collect();
        needed.extend(names("D", 10_000));
        needed.extend((0..20_000).map(|i| format!("srv{i}/tool")));
        let mut s = skill("skills/s/SKILL.md", own_tools, own_servers);
        s.declared_by = crate::model::DeclaredBy::Dependencies;
        let mut requirements = Requirements::default();
        requirements.tools.all = needed;
        s.requirements.push(crate::model::Declared {
            source: crate::model::Origin::Dependencies,
            file: None,
            line: 1,
            column: 1,
            requirements,
            uses: Vec::new(),
            block: "",
        });
        let agent = claude_agent(Some(Vec::new()), Vec::new());
        let links = [link(&agent, &s, "skills-field")];
        let drift = drift_of_links(
            &links,
            std::slice::from_ref(&s),
            std::slice::from_ref(&agent),
            Semantics::Proposal,
        );
        assert_eq!(drift.len(), 1);
        let mut missing = names("D", 10_000);
        missing.extend((10_000..20_000).map(|i| format!("srv{i}/tool")));
        same(&drift[0].missing_tools, &missing);
    }

    /// An agent of 40,000 MCP tools that configures 40,000 servers, half of them theirs: on
    /// a profile without a host, which lists none of them, the other half are missing.
    #[test]
    fn agent_of_many_own_servers() {
        let tools: Vec<String> = (0..40_000).map(|i| format!("srv{i}/tool")).collect();
        let mut servers = names("other", 20_000);
        servers.extend((0..40_000).step_by(2).map(|i| format!("srv{i}")));
        let a = claude_agent(Some(tools.clone()), servers);
        let profile = Profile::from_names("p", "p.json", &["Read"], &[], &[]).unwrap();
        let availability = agent(&a, &profile);
        assert_eq!(availability.status, Status::Partial);
        let missing: Vec<String> = tools.into_iter().skip(1).step_by(2).collect();
        same(&availability.missing, &missing);
    }
}
