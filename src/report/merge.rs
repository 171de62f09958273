//! Combine JSON reports of sharded runs (for example the jobs of a CI matrix) into one.
//!
//! Paths stay distinct per root: a report whose roots are all `.` (each job audited its own
//! checkout) gets its paths prefixed with a label, by default the report file's stem
//! (`repo-a.json` → `repo-a/skills/x/SKILL.md`); reports audited under named roots already
//! carry those roots in their paths and are left as they are.

use std::collections::BTreeSet;

use super::Report;
use crate::diagnostic::sort_findings;

/// Merge `(label, report)` pairs, in order. `None` for an empty list.
pub(crate) fn merge(reports: Vec<(String, Report)>) -> Option<Report> {
    let mut iter = reports.into_iter();
    let (label, first) = iter.next()?;
    let mut files = first.summary.files_scanned;
    let mut ignored = first.summary.ignored_files;
    let mut out = relabel(label, first);
    for (label, r) in iter {
        let r = relabel(label, r);
        files += r.summary.files_scanned;
        ignored += r.summary.ignored_files;
        let known: BTreeSet<String> = out.profiles.iter().map(|p| p.name.clone()).collect();
        out.profiles
            .extend(r.profiles.into_iter().filter(|p| !known.contains(&p.name)));
        out.roots.extend(r.roots);
        out.skills.extend(r.skills);
        out.agents.extend(r.agents);
        out.links.extend(r.links);
        out.drift.extend(r.drift);
        out.findings.extend(r.findings);
    }
    out.roots.dedup();
    out.skills.sort_by(|a, b| a.skill.path.cmp(&b.skill.path));
    out.agents.sort_by(|a, b| a.agent.path.cmp(&b.agent.path));
    out.links.sort();
    out.drift
        .sort_by(|a, b| (&a.agent, &a.skill_path, &a.via).cmp(&(&b.agent, &b.skill_path, &b.via)));
    sort_findings(&mut out.findings);
    out.baseline = None;
    out.summarize(files, ignored);
    Some(out)
}

fn relabel(label: String, mut r: Report) -> Report {
    if !r.roots.iter().all(|root| root == ".") {
        return r;
    }
    let p = |path: &mut String| *path = format!("{label}/{path}");
    r.roots = vec![label.clone()];
    r.skills.iter_mut().for_each(|s| p(&mut s.skill.path));
    for a in &mut r.agents {
        p(&mut a.agent.path);
    }
    for l in &mut r.links {
        p(&mut l.agent);
        p(&mut l.skill_path);
    }
    for d in &mut r.drift {
        p(&mut d.agent);
        p(&mut d.skill_path);
    }
    r.findings.iter_mut().for_each(|f| p(&mut f.path));
    r
}
