//! What `explain` shows of one skill or agent of an audited library: its fields, the links it
//! is part of and their drift, its availability per profile, and its findings. The command
//! line (`skill-audit explain`) and the MCP server (`explain` tool) print the same text.

use crate::evaluate::Availability;
use crate::model::Link;
use crate::report::Report;
use crate::report::text::visible;
use std::fmt::Write as _;

/// What PATH turned out to be: an index into the report's skills or agents.
pub(crate) enum Entry {
    Skill(usize),
    Agent(usize),
}

pub(crate) fn explain(report: &Report, entry: &Entry) -> String {
    let mut s = String::new();
    let (kind, name, path, fields, availability) = match *entry {
        Entry::Skill(i) => {
            let e = &report.skills[i];
            let json = serde_json::to_string_pretty(e).unwrap_or_default();
            ("skill", &e.skill.name, &e.skill.path, json, &e.availability)
        }
        Entry::Agent(i) => {
            let e = &report.agents[i];
            let json = serde_json::to_string_pretty(e).unwrap_or_default();
            ("agent", &e.agent.name, &e.agent.path, json, &e.availability)
        }
    };
    let is_skill = matches!(entry, Entry::Skill(_));
    let _ = writeln!(
        s,
        "{kind} {} ({})",
        crate::diagnostic::quote(&visible(name)),
        visible(path)
    );

    s.push_str("\nFields\n");
    for line in fields.lines() {
        let _ = writeln!(s, "  {}", visible(line));
    }

    match *entry {
        Entry::Skill(i) => requirements_text(&mut s, &report.skills[i].skill),
        Entry::Agent(i) => proposal_text(&mut s, &report.agents[i].agent),
    }

    let links: Vec<&Link> = report
        .links
        .iter()
        .filter(|l| {
            if is_skill {
                &l.skill_path == path
            } else {
                &l.agent == path
            }
        })
        .collect();
    s.push_str(if is_skill {
        "\nLinks (agents that load this skill)\n"
    } else {
        "\nLinks (skills this agent loads)\n"
    });
    if links.is_empty() {
        s.push_str("  none\n");
    }
    for l in &links {
        let other = if is_skill {
            l.agent.clone()
        } else {
            format!("{} ({})", l.skill, l.skill_path)
        };
        let _ = writeln!(s, "  {} via {}", visible(&other), visible(&l.via));
        let drift = report
            .drift
            .iter()
            .find(|d| d.agent == l.agent && d.skill_path == l.skill_path && d.via == l.via);
        match drift {
            Some(d) => {
                let _ = writeln!(
                    s,
                    "    drift: missing {}",
                    visible(&crate::diagnostic::lacking(d))
                );
            }
            None => s.push_str("    no drift: the agent grants what the skill needs\n"),
        }
    }

    s.push_str("\nAvailability\n");
    if availability.is_empty() {
        s.push_str("  no profiles given (use --profile)\n");
    }
    let width = availability.keys().map(|p| p.len()).max().unwrap_or(0);
    // In the order the profiles were given, as the matrices show them.
    let in_order = report
        .profiles
        .iter()
        .filter_map(|p| Some((&p.name, availability.get(&p.name)?)));
    for (profile, a) in in_order {
        let _ = writeln!(
            s,
            "  {:<width$}  {}",
            visible(profile),
            visible(&availability_text(a))
        );
    }

    let findings: Vec<_> = report.findings.iter().filter(|f| &f.path == path).collect();
    s.push_str("\nFindings\n");
    if findings.is_empty() {
        s.push_str("  none\n");
    }
    for f in findings {
        let _ = writeln!(s, "  {}", crate::report::text::one_line(f));
    }
    s
}

/// Each source's requirements, with where it is written.
fn requirements_text(s: &mut String, skill: &crate::model::Skill) {
    s.push_str("\nRequirements (every source must hold)\n");
    if skill.requirements.is_empty() {
        s.push_str("  none declared, and its body and scripts use nothing beyond the model\n");
    }
    for d in &skill.requirements {
        let file = d.file.as_deref().unwrap_or(&skill.path);
        let _ = writeln!(
            s,
            "  {} ({}:{}:{}, {})",
            d.source.as_str(),
            visible(file),
            d.line,
            d.column,
            d.place()
        );
        for kind in crate::model::DepKind::ALL {
            let g = d.requirements.group(kind);
            let mut parts = Vec::new();
            if !g.all.is_empty() {
                parts.push(format!("all of {}", crate::diagnostic::quoted(&g.all)));
            }
            if let Some(any) = g.any.as_ref().filter(|a| !a.is_empty()) {
                parts.push(format!("one of {}", crate::diagnostic::quoted(any)));
            }
            if !g.fallback_for.is_empty() {
                parts.push(format!(
                    "hidden while any of {} is available",
                    crate::diagnostic::quoted(&g.fallback_for)
                ));
            }
            if !parts.is_empty() {
                let _ = writeln!(s, "    {}: {}", kind.key(), visible(&parts.join("; ")));
            }
        }
        for u in &d.uses {
            let _ = writeln!(
                s,
                "    {} {} at {}:{}: {}",
                u.kind.noun(),
                crate::diagnostic::quote(&visible(&u.name)),
                visible(&u.place()),
                u.column,
                visible(&u.evidence)
            );
        }
    }
}

/// What the agent's skills would add to its grants under the proposal.
fn proposal_text(s: &mut String, agent: &crate::model::Agent) {
    s.push_str("\nUnder the proposal (skills' tools and mcp-servers join the agent's)\n");
    let Some(g) = &agent.proposal else {
        s.push_str("  its skills add nothing\n");
        return;
    };
    if !g.tools.is_empty() {
        let _ = writeln!(
            s,
            "  tools {}",
            visible(&crate::diagnostic::quoted(&g.tools))
        );
    }
    if !g.mcp_servers.is_empty() {
        let _ = writeln!(
            s,
            "  MCP servers {}",
            visible(&crate::diagnostic::quoted(&g.mcp_servers))
        );
    }
    let _ = writeln!(s, "  granted by {}", visible(&g.from.join(", ")));
}

/// `unavailable: missing tool `x``, or just the status.
fn availability_text(a: &Availability) -> String {
    let basis = a
        .basis
        .map(|b| format!(" (judged on {} needs)", b.as_str()))
        .unwrap_or_default();
    match &a.reason {
        Some(reason) => format!("{}{basis}: {reason}", a.status.as_str()),
        None => format!("{}{basis}", a.status.as_str()),
    }
}
