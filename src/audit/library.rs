//! The library rules: links, drift, availability per profile and every rule that looks at
//! the library as a whole, over the per-file outputs. Reads no file.

use rayon::prelude::*;

use super::{
    AgentResult, AuditOptions, AuditResult, FileOutput, Parsed, SkillResult, file::contained,
};
use crate::boundary::Boundary;
use crate::diagnostic::{Finding, sort_findings};
use crate::discover::{self, Candidate, Entry};
use crate::evaluate::{self, Availability};
use crate::model::Agent;
use crate::model::Kind;
use crate::profile::Profile;
use crate::resolve;
use crate::rules;

/// The library-level stage over parsed files: links, availability per profile, drift and
/// the library rules. Reads no file, so it can be run again from cached outputs.
pub(crate) fn judge(
    opts: &AuditOptions,
    profiles: Vec<Profile>,
    outputs: Vec<FileOutput>,
    found: &discover::Discovery,
    served: Vec<crate::mcp::skills::ServedSkill>,
    boundary: &Boundary,
) -> AuditResult {
    // The text of each file (kept only when asked for), for renderers that show the source
    // lines of findings.
    let mut texts = crate::report::lines::Texts::default();
    let mut prints = crate::report::lines::Prints::default();
    // Sized up front: growing by doubling would hold up to twice the skills (and findings) at
    // the peak, and copy them each time.
    let mut findings: Vec<Finding> =
        Vec::with_capacity(outputs.iter().map(|o| o.findings.len()).sum());
    let count = |want: fn(&Parsed) -> bool| outputs.iter().filter(|o| want(&o.parsed)).count();
    let mut skills = Vec::with_capacity(count(|p| matches!(p, Parsed::Skill(_))) + served.len());
    let mut agents = Vec::with_capacity(count(|p| matches!(p, Parsed::Agent(_))));
    let mut manifests = Vec::new();
    let mut files_scanned = 0;
    let mut suppressions = Vec::new();
    // Skills served over MCP are audited like local files; their path is their URI.
    let served_outputs: Vec<FileOutput> = served
        .par_iter()
        .map(|s| {
            let c = Candidate {
                fs_path: crate::mcp::skills::pseudo_path(&s.uri),
                path: s.uri.clone(),
                kind: Kind::Skill { exact: true },
                entry: Entry::File,
            };
            let mut out = contained(&c, || {
                let (skill, f, sup) = crate::mcp::skills::audit(s, &opts.settings);
                FileOutput::new(&c, Parsed::Skill(Box::new(skill)), f, sup)
            });
            out.path = c.path;
            out
        })
        .collect();
    // Served skills' bytes, no longer needed by the audit, move to the report's texts.
    if opts.snippets || opts.fingerprints {
        texts.extend(
            served
                .into_iter()
                .filter_map(|s| Some((s.uri, s.content.ok()?))),
        );
    }
    let mut outputs = outputs;
    documents_of_skills(&mut outputs);
    for mut o in outputs.into_iter().chain(served_outputs) {
        if let Some(text) = o.text.take() {
            texts.insert(o.path.clone(), text);
        }
        if let Some(p) = o.prints.take() {
            prints.insert(o.path.clone(), p);
        }
        findings.extend(o.findings);
        suppressions.extend(o.suppressions);
        match o.parsed {
            Parsed::Skill(s) => skills.push(s),
            Parsed::Agent(a) => agents.push(*a),
            Parsed::Manifests(m) => manifests.extend(m),
            Parsed::Document => {}
            Parsed::Nothing => continue,
        }
        files_scanned += 1;
    }
    for e in &found.errors {
        findings.push(rules::file::read_error(&e.path, &e.message));
    }
    for (shown, _) in &found.skill_links {
        findings.push(rules::file::skill_link_outside(shown));
    }
    let proposal = rules::deps::library_uses_proposal(&skills);
    if proposal {
        findings.extend(
            skills
                .iter()
                .filter_map(|s| rules::deps::only_in_dialect(s)),
        );
    }
    let dialect = rules::uses::Dialect::of_library(&skills);
    for s in &skills {
        rules::uses::undeclared_uses(s, &mut findings);
        rules::uses::declared_unused(s, &mut findings);
        findings.extend(rules::uses::uses_not_declared(s, dialect, proposal));
    }
    rules::agent::check_targets(&agents, &mut findings);
    rules::host::check(&agents, &profiles, &mut findings);
    let (mut links, members, agent_members) = resolve::links_and_members(
        &skills,
        &agents,
        &manifests,
        &opts.roots,
        &opts.cwd,
        boundary,
        &mut findings,
    );
    rules::policy::keep_in_plugins(&mut findings, &opts.settings.policies, |path| {
        plugins_of(path, &members, &agent_members, &manifests)
    });
    // After resolving: plugins namespace the skills they hold.
    rules::library::duplicate_names(&skills, &members, &mut findings);
    rules::library::shadowed_bundled(&skills, &profiles, &mut findings);
    links.extend(resolve::configured(
        &skills,
        &agents,
        &opts.links,
        &opts.cwd,
        boundary,
        &mut findings,
    ));
    links.sort();
    links.dedup();
    evaluate::proposal_grants(&links, &skills, &mut agents);
    let semantics = opts.semantics;
    let drift = evaluate::drift_of_links(&links, &skills, &agents, semantics);
    rules::links::drift(&drift, &links, &skills, &agents, &profiles, &mut findings);
    let skills = availability_of(
        skills,
        &profiles,
        |s, p| evaluate::skill(s, p, &profiles),
        |skill, availability| SkillResult {
            skill,
            availability,
        },
    );
    let judge_agent =
        |a: &Agent, p: &Profile| evaluate::agent(&evaluate::effective(a, semantics), p);
    let agents = availability_of(agents, &profiles, judge_agent, |agent, availability| {
        AgentResult {
            agent,
            availability,
        }
    });
    let names: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();
    // Room for them made first: one finding per unmet profile can be as many as the skills,
    // and pushing them one by one would copy the list as it grows.
    let unmet = |availability: &[Availability]| {
        availability
            .iter()
            .filter(|a| {
                matches!(
                    a.status,
                    evaluate::Status::Unavailable | evaluate::Status::Partial
                )
            })
            .count()
    };
    // Skills are reported at their name, agents at their tools list (a partial agent at its
    // first missing tool).
    findings.reserve_exact(
        skills.iter().map(|r| unmet(&r.availability)).sum::<usize>()
            + agents.iter().map(|r| unmet(&r.availability)).sum::<usize>(),
    );
    for r in &skills {
        rules::library::skill_findings(&r.skill, &names, &r.availability, &mut findings);
        rules::deps::undefined_skill_tools(&r.skill, &profiles, &mut findings);
    }
    for r in &agents {
        let a = &r.agent;
        rules::library::agent_unavailable(a, &profiles, &r.availability, &mut findings);
        rules::library::partial(a, &profiles, &r.availability, &mut findings);
    }
    // A file audited on its own, without its library's folder: whether another file is in
    // the library (a handoff's agent, a manifest's path) cannot be told from it.
    let alone: Vec<(&str, bool)> = found
        .candidates
        .iter()
        .filter(|c| opts.roots.contains(&c.fs_path))
        .map(|c| (c.path.as_str(), matches!(c.kind, Kind::Manifest(_))))
        .collect();
    rules::library::judged_alone(&mut findings, &alone);
    rules::config::apply_suppressions(&mut findings, &suppressions, &opts.settings.policies.rules);
    rules::config::apply_severities(&mut findings, &opts.settings.severities);
    sort_findings(&mut findings);
    let view = opts.view();
    AuditResult {
        roots: opts
            .roots
            .iter()
            .map(|r| crate::paths::display_path(r, &view))
            .collect(),
        profiles,
        skills,
        agents,
        links,
        drift,
        findings,
        files_scanned,
        ignored: found.ignored,
        texts,
        prints,
    }
}

/// The names of the plugins that hold the file at `path` (a display path): for a skill,
/// those it is a member of; for an agent, those whose manifest names it.
fn plugins_of<'a>(
    path: &str,
    members: &'a resolve::Members,
    agent_members: &'a [resolve::AgentMember],
    manifests: &'a [crate::model::Manifest],
) -> Vec<&'a str> {
    let skills = members.of(path).into_iter().map(|m| m.name);
    let agents = agent_members
        .iter()
        .filter(|m| m.agent == path)
        .map(|m| m.name.as_str());
    // A plugin's manifest is its own.
    let own = manifests
        .iter()
        .filter(|m| m.path == path)
        .map(|m| m.name.as_str());
    skills.chain(agents).chain(own).collect()
}

/// Turn each `SKILL.md` inside another skill's folder into a file of that skill. Hosts load
/// the folders one below a skills root (VS Code, GitHub Copilot, Claude Code), so they never
/// load such a file as a skill; it keeps only what any file of the outer skill gets (read
/// problems, and what its links and paths name), plus one SA114 saying so. A `skills` folder
/// between the two is a skills root of its own, and the skills below it stay skills.
fn documents_of_skills(outputs: &mut [FileOutput]) {
    let skill_dir = |o: &FileOutput| match &o.parsed {
        Parsed::Skill(_) => o.path.rsplit_once('/').map(|(dir, _)| dir.to_owned()),
        _ => None,
    };
    let dirs: foldhash::HashMap<String, String> = outputs
        .iter()
        .filter_map(|o| Some((skill_dir(o)?, o.path.clone())))
        .collect();
    if dirs.len() < 2 {
        return;
    }
    for o in outputs.iter_mut() {
        let Some(dir) = skill_dir(o) else { continue };
        // The outermost skill holding it: a section's section is the outer skill's file too.
        let mut above = dir.as_str();
        let mut outer = None;
        while let Some((parent, name)) = above.rsplit_once('/') {
            if name == "skills" {
                break;
            }
            if let Some(skill) = dirs.get(parent) {
                outer = Some(skill);
            }
            above = parent;
        }
        let Some(outer) = outer else { continue };
        o.findings
            .retain(|f| rules::file::kept_by_documents(f.rule));
        o.findings.push(rules::file::nested_skill(&o.path, outer));
        o.parsed = Parsed::Document;
    }
}

/// Each of `items` judged against every profile, on all threads, in order.
fn availability_of<T: Send, R: Send>(
    items: Vec<T>,
    profiles: &[Profile],
    judge: impl Fn(&T, &Profile) -> Availability + Sync,
    result: impl Fn(T, Vec<Availability>) -> R + Sync + Send,
) -> Vec<R> {
    items
        .into_par_iter()
        .map(|item| {
            let availability = profiles.iter().map(|p| judge(&item, p)).collect();
            result(item, availability)
        })
        .collect()
}
