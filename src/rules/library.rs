//! SA4xx: checks across the whole library, run after every file is parsed, and findings for
//! skills that a profile cannot run.

use super::RuleDoc;
use crate::diagnostic::{Finding, Pos, Severity};
use crate::evaluate::{Availability, Status};
use crate::model::{Agent, Skill, by_name};
use crate::profile::Profile;
use crate::rules::Rule;

/// Skills that share a name: hosts keep one and silently drop the others.
pub(crate) fn duplicate_names(skills: &[Box<Skill>], out: &mut Vec<Finding>) {
    let valid = skills.iter().filter(|s| !s.invalid).map(|s| &**s);
    for named in by_name(valid).values() {
        if named.more.is_empty() {
            continue;
        }
        let group: Vec<&Skill> = named.all().collect();
        for s in &group {
            let others: Vec<&str> = group
                .iter()
                .filter(|o| o.path != s.path)
                .map(|o| o.path.as_str())
                .collect();
            out.push(duplicate_skill_name(s, &others));
        }
    }
}

/// One finding per skill or agent and profile it cannot run on.
pub(crate) fn unavailable(
    path: &str,
    pos: Pos,
    what: &str,
    profiles: &[&str],
    availability: &[Availability],
    out: &mut Vec<Finding>,
) {
    for (profile, a) in profiles.iter().zip(availability) {
        if a.status == Status::Unavailable {
            out.push(unavailable_on(
                path,
                pos,
                what,
                profile,
                a.reason.as_deref(),
            ));
        }
    }
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
        // Where the first unmet need is declared, when that is in the SKILL.md itself.
        let pos = a
            .unmet
            .first()
            .and_then(|u| skill.requirements.iter().find(|d| d.source == u.source))
            .filter(|d| d.file.is_none() && d.line > 0)
            .map_or(skill.name_pos, |d| Pos::new(d.line, d.column));
        if a.status == Status::Unavailable {
            out.push(unavailable_on(
                &skill.path,
                pos,
                "skill",
                profile,
                a.reason.as_deref(),
            ));
        } else {
            out.push(partial_skill_on(&skill.path, pos, profile, &a.missing));
        }
    }
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
        let gaps: Vec<String> = a
            .missing
            .iter()
            .filter(|t| !super::host::reported_unknown(profile, agent, t))
            .cloned()
            .collect();
        if let Some(first) = gaps.first() {
            out.push(partial_on(
                &agent.path,
                agent.tool_pos(first),
                &profile.name,
                &gaps,
            ));
        }
    }
}

pub(crate) const DUPLICATE_SKILL_NAME: RuleDoc = RuleDoc {
    code: "SA401",
    name: "duplicate-skill-name",
    severity: Severity::Warning,
    summary: "Two skills in the library share a name",
    what: "Two or more skills in the scanned library have the same `name`.",
    why: "Hosts key skills by name: one wins (first or last found, depending on the host) and the others silently disappear.",
    example: "skills/pdf/SKILL.md and tools/pdf/SKILL.md both say `name: pdf`.\n\nFix: give each a distinct name (and matching folder).",
};

/// The skill `skill` shares its name with the skills at `others`.
fn duplicate_skill_name(skill: &Skill, others: &[&str]) -> Finding {
    Finding::new(
        Rule::DuplicateSkillName,
        &skill.path,
        skill.name_pos,
        format!(
            "skill name `{}` is also used by {}; hosts load only one of them, rename one",
            skill.name,
            others.join(", ")
        ),
    )
}

pub(crate) const UNAVAILABLE: RuleDoc = RuleDoc {
    code: "SA402",
    name: "unavailable",
    severity: Severity::Warning,
    summary: "A skill's or agent's needs are not met by a profile",
    what: "A skill's declared needs (`dependencies`, or its `tools` and `mcp-servers`) are not met by one of the environment profiles given with `--profile`; or none of an agent's tools resolves there (or an MCP server it declares is absent on a host that does not start agents' own servers). The message names what is missing. An agent with only some tools missing is SA403 instead; one whose host does not load it is not judged.",
    why: "A host that does not evaluate dependencies still shows the skill to the model, which then fails mid-task or pretends to have the tool.",
    example: "dependencies:\n  tools: [get_order]\nwith a prod profile that has no get_order.\n\nFix: add the tool to that environment, declare an `any` alternative, or keep the skill out of that environment.",
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
            "{what} unavailable on profile `{profile}`: {}",
            reason.unwrap_or("requirements not met")
        ),
    )
}

pub(crate) const PARTIAL_AGENT: RuleDoc = RuleDoc {
    code: "SA403",
    name: "partial-agent",
    severity: Severity::Warning,
    summary: "Some of an agent's tools (or of a skill's `allowed-tools`) are missing from a profile",
    what: "An agent's `tools` list, or a skill's `allowed-tools`, names tools that one of the environment profiles given with `--profile` does not have, while others it names are there. The host drops the missing ones and runs the agent or skill with the rest. (When none resolves, SA402 reports it as unavailable instead.)",
    why: "The agent still starts, but whatever it does with the dropped tools fails or is skipped; the author or the environment should close the gap.",
    example: "tools: [read, kusto/run_query]\nwith a staging profile that has no Kusto server.\n\nFix: add the server to that environment, or drop the tool from the agent.",
};

/// The skill at `path` runs on `profile` without the tools `missing` of its `allowed-tools`.
fn partial_skill_on(path: &str, pos: Pos, profile: &str, missing: &[String]) -> Finding {
    Finding::new(
        Rule::PartialAgent,
        path,
        pos,
        format!(
            "skill runs on profile `{profile}` without {} of its `allowed-tools`: the host has no such {}",
            crate::diagnostic::quoted(missing),
            if missing.len() == 1 { "tool" } else { "tools" }
        ),
    )
}

/// The agent at `path` runs on `profile` without the tools `missing`.
fn partial_on(path: &str, pos: Pos, profile: &str, missing: &[String]) -> Finding {
    Finding::new(
        Rule::PartialAgent,
        path,
        pos,
        format!(
            "agent runs on profile `{profile}` without {}: the host drops {}",
            crate::diagnostic::quoted(missing),
            if missing.len() == 1 { "it" } else { "them" }
        ),
    )
}
