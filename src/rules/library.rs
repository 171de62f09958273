//! SA4xx: checks across the whole library, run after every file is parsed, and findings for
//! skills that a profile cannot run.

use super::RuleDoc;
use crate::diagnostic::{Finding, Pos, Severity, quote, quoted};
use crate::evaluate::{Availability, Status};
use std::collections::HashMap;

use crate::model::{Agent, Named, Skill, by_name};
use crate::profile::Profile;
use crate::resolve::{Member, Members};
use crate::rules::Rule;

/// Skills that share a name within one namespace: hosts keep one and silently drop the
/// others. Plugins namespace their skills (`/discord:access`), so a skill under a plugin's
/// root collides only with skills of that plugin (and of plugins that list it). Every other
/// skill collides with the others outside plugins: hosts load a project's skill folders, or
/// a server's skills and local ones, together, and the walk cannot tell which they merge.
pub(crate) fn duplicate_names(skills: &[Box<Skill>], members: &Members, out: &mut Vec<Finding>) {
    let valid = skills.iter().filter(|s| !s.invalid).map(|s| &**s);
    let named = by_name(valid);
    let repeated: Vec<&Named> = named.values().filter(|n| !n.more.is_empty()).collect();
    if repeated.is_empty() {
        return;
    }
    for named in repeated {
        let group: Vec<(&Skill, Vec<Space>)> = named
            .all()
            .map(|s| (s, spaces(&s.path, &members.of(&s.path))))
            .collect();
        // Skills with the same namespaces have the same others (less themselves): each set of
        // namespaces is compared with the group once, so a name shared by thousands of skills
        // costs the group's size per set, not per skill.
        let mut sets: HashMap<&[Space], Vec<usize>> = HashMap::new();
        for (s, own) in &group {
            let sharing = sets.entry(own.as_slice()).or_insert_with(|| {
                (0..group.len())
                    .filter(|&o| own.iter().any(|sp| group[o].1.contains(sp)))
                    .collect()
            });
            // `s` is among them (it shares its own namespaces): the others are the rest.
            let mut others = sharing.iter().filter(|&&o| group[o].0.path != s.path);
            let count = sharing.len().saturating_sub(1);
            // The first namespace shared with the first of the others.
            let Some(space) = others
                .clone()
                .next()
                .and_then(|&o| own.iter().find(|sp| group[o].1.contains(sp)))
            else {
                continue;
            };
            // Copies of one file lose nothing whichever a host keeps: the same skill twice in
            // a registry archive, or in two hosts' folders (`.claude/skills/`, `.github/skills/`).
            if others.clone().all(|&o| same_file(group[o].0, s)) {
                continue;
            }
            let named: Vec<&str> = others
                .by_ref()
                .take(OTHERS_NAMED)
                .map(|&o| group[o].0.path.as_str())
                .collect();
            out.push(duplicate_skill_name(s, &named, count, space));
        }
    }
}

/// How many of the other skills of a name a finding names; the rest are counted.
const OTHERS_NAMED: usize = 5;

/// A namespace of skill names.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Space {
    /// A plugin: what tells it apart, and its name.
    Plugin(String, String),
    /// The skills under no plugin's root that one skills root holds: hosts load the folders
    /// of one root together. Every folder named `skills` (`skills/`, `.claude/skills/`,
    /// `.github/skills/`) is one root, as a host loads a project's skill folders together
    /// (`None`); any other folder holding skill folders is a root of its own, such as an
    /// owner's folder in a registry archive (`skills/<owner>/<slug>/SKILL.md`).
    Library(Option<String>),
}

/// The skills root of the skill at `path` (its folder's folder), `None` for the shared one.
/// `merge` finds these in messages, written `root/`.
pub(crate) fn skills_root(path: &str) -> Option<String> {
    let folder = path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let root = folder.rsplit_once('/').map_or("", |(dir, _)| dir);
    let name = root.rsplit('/').next().unwrap_or("");
    (!root.is_empty() && name != "skills").then(|| root.to_owned())
}

/// The namespaces of the skill at `path`, given the plugins that hold it: the nearest plugin
/// whose root holds it and those that list it; its skills root's when no plugin's root holds
/// it.
fn spaces(path: &str, members: &[Member]) -> Vec<Space> {
    let mut out = Vec::new();
    let nearest = members.iter().filter_map(|m| m.under).max();
    for m in members {
        if m.under.is_none() || m.under == nearest {
            let space = Space::Plugin(m.plugin.to_owned(), m.name.to_owned());
            if !out.contains(&space) {
                out.push(space);
            }
        }
    }
    if nearest.is_none() {
        out.push(Space::Library(skills_root(path)));
    }
    out
}

/// One finding per profile a skill cannot run on (SA402) or runs on without some of the
/// tools its `allowed-tools` names (SA403), at the declaration of the first unmet need.
pub(crate) fn skill_findings(
    skill: &Skill,
    profiles: &[&str],
    availability: &[Availability],
    out: &mut Vec<Finding>,
) {
    for (profile, a) in profiles.iter().zip(availability) {
        if !matches!(a.status, Status::Unavailable | Status::Partial) {
            continue;
        }
        // Where the first unmet need is declared (an inferred one: where it is used), when that
        // is in the SKILL.md itself.
        let first = a.unmet.first();
        let declared = first.and_then(|u| skill.requirements.iter().find(|d| d.source == u.source));
        let used = first.zip(declared).and_then(|(u, d)| {
            d.uses
                .iter()
                .find(|x| x.kind == u.kind && u.names.contains(&x.name))
        });
        let pos = match used {
            Some(x) if x.file.is_none() => Pos::new(x.line, x.column),
            Some(_) => skill.name_pos,
            None => declared
                .filter(|d| d.file.is_none() && d.line > 0)
                .map_or(skill.name_pos, |d| Pos::new(d.line, d.column)),
        };
        let only_allowed = a
            .unmet
            .iter()
            .all(|u| u.source == crate::model::Origin::AllowedTools);
        if a.status == Status::Unavailable {
            out.push(unavailable_on(
                &skill.path,
                pos,
                "skill",
                profile,
                a.reason.as_deref(),
            ));
        } else if only_allowed {
            out.push(partial_skill_on(&skill.path, pos, profile, &a.missing));
        } else {
            out.push(partial_use_on(
                &skill.path,
                pos,
                profile,
                a.reason.as_deref(),
            ));
        }
    }
}

/// One finding per profile `agent` cannot run on, at its `tools` list. Where the host knows
/// none of the names that are missing (an agent written in VS Code's names, on GitHub
/// Copilot), SA702 reports each: this finding says what that leaves, and what to do.
pub(crate) fn agent_unavailable(
    agent: &Agent,
    profiles: &[Profile],
    availability: &[Availability],
    out: &mut Vec<Finding>,
) {
    let own = crate::evaluate::OwnServers::of(agent);
    for (profile, a) in profiles.iter().zip(availability) {
        if a.status != Status::Unavailable {
            continue;
        }
        let unknown = !a.missing.is_empty()
            && a.unmet_any.is_empty()
            && (a.missing.iter()).all(|t| super::host::reported_unknown(profile, agent, t, &own));
        let finding = match profile.host_title() {
            Some(host) if unknown => unknown_to_host(agent, profile, host, a.missing.len()),
            _ => unavailable_on(
                &agent.path,
                agent.tools_pos,
                "agent",
                &profile.name,
                a.reason.as_deref(),
            ),
        };
        out.push(finding);
    }
}

/// `agent` names `count` tools, none of which `host`, the host of `profile`, knows.
fn unknown_to_host(agent: &Agent, profile: &Profile, host: &str, count: usize) -> Finding {
    let knows = if count == 1 {
        format!("{host} does not know the one tool it names")
    } else {
        format!("{host} knows none of the {count} tools it names")
    };
    // `target` keeps an `.agent.md` to VS Code or GitHub Copilot; other agents have no such key.
    let other = match profile.host() {
        Some("github-copilot") => Some("vscode"),
        Some("vscode") => Some("github-copilot"),
        _ => None,
    };
    let keep = match other {
        Some(other) if agent.flavor == "custom" && agent.target.is_none() => {
            format!("add `target: {other}` to keep it to the host it was written for, or ")
        }
        _ => String::new(),
    };
    Finding::new(
        Rule::Unavailable,
        &agent.path,
        agent.tools_pos,
        format!(
            "on profile {} the agent runs with no tools: {knows} (SA702 reports each); {keep}name {host}'s own tools",
            quote(&profile.name),
        ),
    )
    .on_profile(&profile.name)
}

/// One finding per profile on which `agent` runs without some of its tools, at the first of
/// them. Names SA702 reports as unknown to the host are its to report.
pub(crate) fn partial(
    agent: &Agent,
    profiles: &[Profile],
    availability: &[Availability],
    out: &mut Vec<Finding>,
) {
    for (profile, a) in profiles.iter().zip(availability) {
        if a.status != Status::Partial {
            continue;
        }
        let own = crate::evaluate::OwnServers::of(agent);
        let gaps: Vec<String> = a
            .missing
            .iter()
            .filter(|t| !super::host::reported_unknown(profile, agent, t, &own))
            .cloned()
            .collect();
        if let Some(first) = gaps.first() {
            out.push(partial_on(
                &agent.path,
                agent.tool_pos(first),
                &profile.name,
                &gaps,
                a.missing.len() - gaps.len(),
            ));
        }
    }
}

pub(crate) const DUPLICATE_SKILL_NAME: RuleDoc = RuleDoc {
    code: "SA401",
    name: "duplicate-skill-name",
    severity: Severity::Warning,
    summary: "Two skills that a host loads together share a name",
    what: "Two or more skills with the same `name` in one namespace: one plugin (a skill under the root of a plugin with a manifest, or listed by a plugin manifest or marketplace entry), or, outside plugins, one skills root: the folders named `skills` (`skills/`, `.claude/skills/`, `.github/skills/`), which a host loads together, or any other folder holding skill folders (an owner's folder in a registry archive, `skills/<owner>/<slug>/`). Skills of different plugins may share a name: hosts prefix them with the plugin's (`/discord:access`); skills of different owners in an archive are never loaded as one tree. Copies of one file are not reported: a host keeps the same skill whichever it loads.",
    why: "Hosts key skills by name: one wins (first or last found, depending on the host) and the others silently disappear.",
    example: "skills/pdf/SKILL.md and .claude/skills/pdf-tools/SKILL.md both say `name: pdf`.\n\nFix: give each a distinct name (and matching folder).",
    fix: None,
};

/// Whether two skills' files hold the same bytes, by their SHA-256 (as `to-prompt` tells
/// copies apart too).
fn same_file(a: &Skill, b: &Skill) -> bool {
    a.fields.file_digest == b.fields.file_digest
}

/// `skill` shares its name with `count` other skills in `space`, the first of them `named`.
fn duplicate_skill_name(skill: &Skill, named: &[&str], count: usize, space: &Space) -> Finding {
    let place = match space {
        Space::Plugin(_, name) if !name.is_empty() => format!("in plugin {}", quote(name)),
        Space::Plugin(..) => "in the same plugin".to_owned(),
        Space::Library(None) => "outside any plugin".to_owned(),
        Space::Library(Some(root)) => {
            format!("under {}, outside any plugin", quote(&format!("{root}/")))
        }
    };
    Finding::new(
        Rule::DuplicateSkillName,
        &skill.path,
        skill.name_pos,
        format!(
            "skill name {} is also used by {}{} {place}; hosts load only one of them, rename one",
            quote(&skill.name),
            // Quoted as paths in messages are, so `merge` can prefix them.
            quoted(named),
            match count.saturating_sub(named.len()) {
                0 => String::new(),
                more => format!(" and {more} more"),
            }
        ),
    )
}

/// The skills OpenClaw bundles: the folders under `skills/` of the `openclaw` npm package,
/// version 2026.9.6 (published 2026-09-24), each named as its folder. The same package's
/// `docs/tools/skills.md` ("Loading order") ranks workspace, project agent, personal agent and
/// managed skills above bundled ones: the highest source of a name wins.
const OPENCLAW_BUNDLED: &[&str] = &[
    "1password",
    "apple-notes",
    "apple-reminders",
    "bear-notes",
    "blogwatcher",
    "blucli",
    "camsnap",
    "clawhub",
    "coding-agent",
    "control-ui",
    "diagram-maker",
    "eightctl",
    "gemini",
    "gh-issues",
    "gifgrep",
    "github",
    "gog",
    "goplaces",
    "healthcheck",
    "himalaya",
    "mcporter",
    "meme-maker",
    "model-usage",
    "nano-pdf",
    "node-connect",
    "node-inspect-debugger",
    "notion",
    "obsidian",
    "openai-whisper",
    "openai-whisper-api",
    "openhue",
    "oracle",
    "ordercli",
    "peekaboo",
    "python-debugpy",
    "sag",
    "sherpa-onnx-tts",
    "skill-creator",
    "songsee",
    "sonoscli",
    "spike",
    "spotify-player",
    "summarize",
    "taskflow",
    "taskflow-inbox-triage",
    "things-mac",
    "tmux",
    "trello",
    "visualize",
    "weather",
    "xurl",
];

/// Skills that OpenClaw would load in place of one of its bundled skills: those that carry
/// OpenClaw's own metadata block, or every skill when a profile of the run is OpenClaw's.
/// A skill meant for other hosts only says nothing about OpenClaw, so it is left alone.
pub(crate) fn shadowed_bundled(
    skills: &[Box<Skill>],
    profiles: &[Profile],
    out: &mut Vec<Finding>,
) {
    let openclaw_run = profiles.iter().any(|p| p.host() == Some("openclaw"));
    for s in skills.iter().filter(|s| !s.invalid) {
        if (openclaw_run || s.fields.openclaw_block)
            && OPENCLAW_BUNDLED.binary_search(&s.name.as_str()).is_ok()
        {
            out.push(Finding::new(
                Rule::ShadowsBundledSkill,
                &s.path,
                s.name_pos,
                format!(
                    "OpenClaw bundles a skill named {}: installed in a workspace's `skills/` or `.agents/skills/`, `~/.agents/skills` or OpenClaw's managed skills, this skill replaces it, as those rank above bundled skills; rename it unless it is meant to replace the bundled one",
                    quote(&s.name)
                ),
            ));
        }
    }
}

pub(crate) const SHADOWS_BUNDLED_SKILL: RuleDoc = RuleDoc {
    code: "SA404",
    name: "shadows-bundled-skill",
    severity: Severity::Info,
    summary: "A skill has the name of a skill OpenClaw bundles, and replaces it there",
    what: "A skill meant for OpenClaw (it has a `metadata.openclaw` block, or one of the run's profiles is OpenClaw's) is named like one of the skills OpenClaw ships with (`weather`, `github`, `1password`, ...; the list of openclaw 2026.9.6). OpenClaw documents the order in which it loads skills: a workspace's `skills/` and `.agents/skills/`, then `~/.agents/skills`, then its managed skills, all above the bundled ones, and the highest source of a name wins.",
    why: "Installed where OpenClaw users put skills, it silently takes the bundled skill's place: users lose the bundled behaviour, and the agent sees only this one under that name. That may be the intent (a tuned copy), but more often it is a name clash.",
    example: "skills/weather/SKILL.md with\nname: weather\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"curl\"]}}}\n\nFix: name: weather-brief (and rename the folder), or keep the name to replace OpenClaw's own `weather` on purpose and suppress this note.",
    fix: None,
};

pub(crate) const UNAVAILABLE: RuleDoc = RuleDoc {
    code: "SA402",
    name: "unavailable",
    severity: Severity::Warning,
    summary: "A skill's or agent's needs are not met by a profile",
    what: "A skill's declared needs (`dependencies`, or its `tools` and `mcp-servers`) are not met by one of the environment profiles given with `--profile`; or none of an agent's tools resolves there (or an MCP server it declares is absent on a host that does not start agents' own servers). The message names what is missing; where the host knows none of an agent's names (an `.agent.md` written in VS Code's names, on GitHub Copilot), SA702 reports each and this finding says that the host runs the agent with no tools, and how to keep it to the host it was written for (`target:`). An agent with only some tools missing is SA403 instead; one whose host does not load it is not judged. Nor is a name the profile cannot know to be missing: a server's tool on a host profile that lists no servers; on VS Code, an extension's tool, or a bare name no host defines, which an extension or a server may provide (when the profile lists no servers); on GitHub Copilot, a tool of a server other than those listed, which the repository's settings may start.",
    why: "A host that does not evaluate dependencies still shows the skill to the model, which then fails mid-task or pretends to have the tool.",
    example: "dependencies:\n  tools: [get_order]\nwith a prod profile that has no get_order.\n\nFix: add the tool to that environment, declare an `any` alternative, or keep the skill out of that environment.",
    fix: None,
};

/// The `what` ("skill", "agent") at `path` cannot run on `profile`, for `reason`.
fn unavailable_on(
    path: &str,
    pos: Pos,
    what: &str,
    profile: &str,
    reason: Option<&str>,
) -> Finding {
    Finding::new(
        Rule::Unavailable,
        path,
        pos,
        format!(
            "{what} unavailable on profile {}: {}",
            quote(profile),
            reason.unwrap_or("requirements not met")
        ),
    )
    .on_profile(profile)
}

pub(crate) const PARTIAL_AGENT: RuleDoc = RuleDoc {
    code: "SA403",
    name: "partial-agent",
    severity: Severity::Warning,
    summary: "Some of an agent's tools (or of what a skill uses) are missing from a profile",
    what: "An agent's `tools` list, or a skill's `allowed-tools`, names tools that one of the environment profiles given with `--profile` does not have, while others it names are there; or some of what a skill's body and scripts use (executables, packages, variables, tools: its inferred needs, see docs/requirements.md) is missing while the rest is there. The host drops the missing tools and runs the agent or skill with the rest. (When none resolves, SA402 reports it as unavailable instead.) Names the profile cannot judge (see SA402) are neither missing nor there: the availability's reason lists them as not judged.",
    why: "The agent still starts, but whatever it does with the dropped tools fails or is skipped; the author or the environment should close the gap.",
    example: "tools: [read, kusto/run_query]\nwith a staging profile that has no Kusto server.\n\nFix: add the server to that environment, or drop the tool from the agent.",
    fix: None,
};

/// The skill at `path` runs on `profile` without the tools `missing` of its `allowed-tools`.
fn partial_skill_on(path: &str, pos: Pos, profile: &str, missing: &[String]) -> Finding {
    Finding::new(
        Rule::PartialAgent,
        path,
        pos,
        format!(
            "skill runs on profile {} without {} of its `allowed-tools`: the host has no such {}",
            quote(profile),
            crate::diagnostic::quoted(missing),
            if missing.len() == 1 { "tool" } else { "tools" }
        ),
    )
    .on_profile(profile)
}

/// The skill at `path` runs on `profile` without some of what its body and scripts use.
fn partial_use_on(path: &str, pos: Pos, profile: &str, reason: Option<&str>) -> Finding {
    Finding::new(
        Rule::PartialAgent,
        path,
        pos,
        format!(
            "skill runs on profile {} without some of what it uses, so those steps fail: {}",
            quote(profile),
            reason.unwrap_or("requirements not met")
        ),
    )
    .on_profile(profile)
}

/// The agent at `path` runs on `profile` without the tools `missing`, and without `unknown`
/// more names the host does not know (SA702 reports each): the message says so, as the gap
/// is theirs together.
fn partial_on(path: &str, pos: Pos, profile: &str, missing: &[String], unknown: usize) -> Finding {
    let also = match unknown {
        0 => String::new(),
        1 => " and 1 name it does not know (SA702)".to_owned(),
        n => format!(" and {n} names it does not know (SA702)"),
    };
    Finding::new(
        Rule::PartialAgent,
        path,
        pos,
        format!(
            "agent runs on profile {} without {}{also}: the host drops {}",
            quote(profile),
            crate::diagnostic::quoted(missing),
            if missing.len() + unknown == 1 {
                "it"
            } else {
                "them"
            }
        ),
    )
    .on_profile(profile)
}

/// The findings of files audited on their own (`alone`: their paths, and whether each is a
/// manifest), without the folder of their library, less those that say another file is not in
/// the library: a handoff's agent (SA504) and a manifest's path (SA602) are judged against
/// files that were not audited, and a manifest's paths, written from its repository's root,
/// lead outside a tree that is the manifest alone (SA110; they are not read either way).
pub(crate) fn judged_alone(findings: &mut Vec<Finding>, alone: &[(&str, bool)]) {
    if alone.is_empty() {
        return;
    }
    findings.retain(|f| {
        let Some(&(_, manifest)) = alone.iter().find(|(p, _)| *p == f.path) else {
            return true;
        };
        match f.rule {
            Rule::AgentUnknownTarget | Rule::ManifestPathMissing => false,
            Rule::OutsideTree => !manifest,
            _ => true,
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(plugin: &str, under: Option<usize>) -> Member<'_> {
        Member {
            plugin,
            name: plugin,
            under,
        }
    }

    #[test]
    fn bundled_names_are_sorted_for_the_binary_search() {
        assert!(OPENCLAW_BUNDLED.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn the_nearest_plugin_root_and_listing_plugins_are_namespaces() {
        assert_eq!(spaces("skills/s/SKILL.md", &[]), [Space::Library(None)]);
        assert_eq!(
            spaces("skills/owner/s/SKILL.md", &[]),
            [Space::Library(Some("skills/owner".into()))]
        );
        assert_eq!(spaces("s/SKILL.md", &[]), [Space::Library(None)]);
        let held = [
            member("/r", Some(2)),
            member("/r/p", Some(4)),
            member("/q", None),
        ];
        assert_eq!(
            spaces("skills/s/SKILL.md", &held),
            [
                Space::Plugin("/r/p".into(), "/r/p".into()),
                Space::Plugin("/q".into(), "/q".into())
            ]
        );
        // Listed from elsewhere only: still one of the library's own skills.
        let listed = [member("/q", None)];
        assert_eq!(
            spaces(".claude/skills/s/SKILL.md", &listed),
            [
                Space::Plugin("/q".into(), "/q".into()),
                Space::Library(None)
            ]
        );
    }
}
