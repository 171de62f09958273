//! Combine JSON reports of sharded runs (for example the jobs of a CI matrix) into one.
//!
//! Paths stay distinct per root: a report whose roots are all `.` (each job audited its own
//! checkout) gets its paths prefixed with a label, by default the report file's stem
//! (`repo-a.json` → `repo-a/skills/x/SKILL.md`); reports audited under named roots already
//! carry those roots in their paths and are left as they are, and so are the paths of skills
//! an MCP server serves (`skill://...`).
//!
//! The shards must be disjoint and judged on the same profiles: a profile name that stands
//! for two environments, or a skill or agent path in two reports, is an error rather than a
//! report whose columns or counts mean nothing.

use foldhash::{HashMap, HashSet};

use super::{FixSummary, ProfileEntry, Report};
use crate::diagnostic::sort_findings;

/// A report to merge.
pub(crate) struct Shard {
    /// The file it was read from, for error messages.
    pub file: String,
    /// The prefix its paths get when it was audited at `.`.
    pub label: String,
    pub report: Report,
}

/// Merge the shards, in order.
pub(crate) fn merge(shards: Vec<Shard>) -> Result<Report, String> {
    let names: Vec<String> = shards.iter().map(|s| s.file.clone()).collect();
    let (mut files, mut ignored) = (0, 0);
    let mut fixes: Option<FixSummary> = None;
    // Each profile once, with the shard it came from; the shard of each skill and agent path.
    let mut profiles: Vec<(ProfileEntry, usize)> = Vec::new();
    let mut path_of: HashMap<String, usize> = HashMap::default();
    let mut out: Option<Report> = None;
    for (i, shard) in shards.into_iter().enumerate() {
        let mut r = shard.report;
        relabel(&shard.label, &mut r);
        for p in std::mem::take(&mut r.profiles) {
            match profiles.iter().find(|(q, _)| q.name == p.name) {
                Some((q, j)) if *q != p => {
                    return Err(format!(
                        "{} and {} both name a profile `{}`, but not the same one ({} against {}); merge reports judged on the same profiles, or give each environment its own name",
                        names[*j],
                        names[i],
                        p.name,
                        describe(q),
                        describe(&p)
                    ));
                }
                Some(_) => {}
                None => profiles.push((p, i)),
            }
        }
        let paths =
            (r.skills.iter().map(|s| &s.skill.path)).chain(r.agents.iter().map(|a| &a.agent.path));
        for path in paths {
            if let Some(j) = path_of.insert(path.clone(), i)
                && j != i
            {
                return Err(format!(
                    "{} and {} both hold `{path}`: merge combines reports of disjoint shards; give each report once, and each shard its own folder",
                    names[j], names[i]
                ));
            }
        }
        files += r.summary.files_scanned;
        ignored += r.summary.ignored_files;
        if let Some(f) = r.summary.fixes {
            let sum = fixes.get_or_insert_default();
            sum.applied_safe += f.applied_safe;
            sum.applied_unsafe += f.applied_unsafe;
            sum.files_changed += f.files_changed;
            sum.not_applied += f.not_applied;
            sum.unsafe_available += f.unsafe_available;
        }
        let Some(o) = out.as_mut() else {
            out = Some(r);
            continue;
        };
        o.roots.extend(r.roots);
        o.skills.extend(r.skills);
        o.agents.extend(r.agents);
        o.links.extend(r.links);
        o.drift.extend(r.drift);
        o.findings.extend(r.findings);
    }
    let mut out = out.ok_or("no reports to merge")?;
    out.profiles = profiles.into_iter().map(|(p, _)| p).collect();
    out.roots.dedup();
    out.skills.sort_by(|a, b| a.skill.path.cmp(&b.skill.path));
    out.agents.sort_by(|a, b| a.agent.path.cmp(&b.agent.path));
    out.links.sort();
    out.drift
        .sort_by(|a, b| (&a.agent, &a.skill_path, &a.via).cmp(&(&b.agent, &b.skill_path, &b.via)));
    sort_findings(&mut out.findings);
    out.baseline = None;
    out.summary.fixes = fixes;
    out.summarize(files, ignored);
    Ok(out)
}

/// A profile as an error message tells it apart from another of its name.
fn describe(p: &ProfileEntry) -> String {
    format!(
        "{}: {} tools, {} resources, {} prompts",
        p.path, p.tools, p.resources, p.prompts
    )
}

/// A served skill's path, a URI: the same whatever folder the audit ran in.
pub(crate) fn served(path: &str) -> bool {
    path.starts_with("skill://")
}

/// Prefix `label/` to every display path of a report audited at `.` alone.
fn relabel(label: &str, r: &mut Report) {
    // A report without roots audited only what an MCP server serves: nothing to prefix.
    if r.roots.is_empty() || r.roots.iter().any(|root| root != ".") {
        return;
    }
    r.roots = vec![label.to_owned()];
    repath(r, |path| Some(format!("{label}/{path}")));
}

/// Give each display path of `r` the one `to` returns for it (`None`: it stays), and each
/// quoted path of its messages too, so that a message still names the file it is about. The
/// paths of served skills are URIs, not folders, and stay; so do the roots, which the caller
/// knows how to rewrite.
pub(crate) fn repath(r: &mut Report, to: impl Fn(&str) -> Option<String>) {
    let quoted = quoted_paths(r);
    let p = |path: &mut String| {
        if served(path) {
            return;
        }
        if let Some(new) = to(path) {
            *path = new;
        }
    };
    for s in &mut r.skills {
        p(&mut s.skill.path);
        (s.skill.requirements.iter_mut())
            .filter_map(|d| d.file.as_mut())
            .for_each(p);
    }
    for a in &mut r.agents {
        p(&mut a.agent.path);
        if let Some(grants) = &mut a.agent.proposal {
            grants.from.iter_mut().for_each(p);
        }
    }
    for l in &mut r.links {
        p(&mut l.agent);
        p(&mut l.skill_path);
    }
    for d in &mut r.drift {
        p(&mut d.agent);
        p(&mut d.skill_path);
    }
    for f in &mut r.findings {
        if served(&f.path) {
            // Its message speaks of the server's names (`skills/list`), not of local paths.
            continue;
        }
        p(&mut f.path);
        f.message = requote(&f.message, &quoted, &to);
        if let Some(fix) = &mut f.fix {
            fix.rename.iter_mut().for_each(p);
            fix.message = requote(&fix.message, &quoted, &to);
        }
    }
}

/// What a message of `r` may quote that is one of its display paths: a skill's, an agent's or
/// a finding's path, or a skills root written `root/` (SA401). Paths without a `/` are left
/// out: a message quotes file names (`SKILL.md`) that a file at the root would match.
pub(crate) fn quoted_paths(r: &Report) -> HashSet<String> {
    let files = (r.skills.iter().map(|s| &s.skill.path))
        .chain(r.agents.iter().map(|a| &a.agent.path))
        .chain(r.findings.iter().map(|f| &f.path))
        .filter(|p| p.contains('/') && !served(p));
    let roots = (r.skills.iter())
        .filter_map(|s| crate::rules::library::skills_root(&s.skill.path))
        .map(|root| format!("{root}/"));
    files.cloned().chain(roots).collect()
}

/// `message` with each quoted name that is one of `paths` replaced by what `to` makes of it
/// (`None`: it stays).
pub(crate) fn requote(
    message: &str,
    paths: &HashSet<String>,
    to: impl Fn(&str) -> Option<String>,
) -> String {
    if !message.contains('`') {
        return message.to_owned();
    }
    let mut out = String::with_capacity(message.len() + 16);
    for piece in super::spans::pieces(message) {
        match piece {
            super::spans::Piece::Code { name, .. } if paths.contains(name) => match to(name) {
                Some(new) => out.push_str(&crate::diagnostic::quote(&new)),
                None => out.push_str(piece.raw()),
            },
            piece => out.push_str(piece.raw()),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(l: &str) -> impl Fn(&str) -> Option<String> + '_ {
        move |path| Some(format!("{l}/{path}"))
    }

    #[test]
    fn only_quoted_known_paths_get_the_label() {
        let paths: HashSet<String> = ["skills/a/SKILL.md", "skills/owner/"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(
            requote(
                "skill `skills/a/SKILL.md` under `skills/owner/`, not skills/a/SKILL.md or `skills/`",
                &paths,
                label("x")
            ),
            "skill `x/skills/a/SKILL.md` under `x/skills/owner/`, not skills/a/SKILL.md or `skills/`"
        );
        // An unpaired backtick quotes nothing.
        assert_eq!(
            requote("a `b` `skills/a/SKILL.md", &paths, label("x")),
            "a `b` `skills/a/SKILL.md"
        );
    }

    #[test]
    fn a_path_with_backticks_is_labelled_and_stays_quoted() {
        let paths: HashSet<String> = ["skills/a`b/SKILL.md".to_owned()].into_iter().collect();
        let message = format!(
            "skill {} at {}",
            crate::diagnostic::quote("skills/a`b/SKILL.md"),
            crate::diagnostic::quote("x")
        );
        assert_eq!(
            requote(&message, &paths, label("l")),
            "skill `` l/skills/a`b/SKILL.md `` at `x`"
        );
    }
}
