//! Compare two JSON reports: new and fixed findings, and availability changes. Findings match
//! by rule, path and message, never by line, so an edit above a finding does not churn it.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

use super::{Report, SCHEMA_VERSION};
use crate::diagnostic::Finding;
use crate::evaluate::Status;
use crate::words::Count;

/// What changed between two reports.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Diff {
    pub new_findings: Vec<Finding>,
    pub fixed_findings: Vec<Finding>,
    pub availability_changes: Vec<AvailabilityChange>,
}

/// A skill or agent whose status in a profile changed. `from`/`to` is a status, or `absent`
/// when the entry (or the profile) is only in one of the reports.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct AvailabilityChange {
    pub kind: String,
    pub path: String,
    pub name: String,
    pub profile: String,
    pub from: String,
    pub to: String,
}

impl Diff {
    /// Entries that stopped being available.
    pub(crate) fn newly_unavailable(&self) -> impl Iterator<Item = &AvailabilityChange> {
        self.availability_changes
            .iter()
            .filter(|c| c.from == Status::Available.as_str() && c.to != Status::Available.as_str())
    }
}

type Key<'a> = (&'static str, &'a str, &'a str);

fn key(f: &Finding) -> Key<'_> {
    (f.rule.code(), f.path.as_str(), f.message.as_str())
}

/// Findings of `a` that `b` lacks, counting duplicates (two equal findings fixed one at a time).
fn minus(a: &[Finding], b: &[Finding]) -> Vec<Finding> {
    let mut left: HashMap<Key<'_>, usize> = HashMap::new();
    for f in b {
        *left.entry(key(f)).or_default() += 1;
    }
    let mut out = Vec::new();
    for f in a {
        match left.get_mut(&key(f)) {
            Some(n) if *n > 0 => *n -= 1,
            _ => out.push(f.clone()),
        }
    }
    out
}

/// Everything that changed from `old` to `new`.
pub(crate) fn diff(old: &Report, new: &Report) -> Diff {
    let mut changes = Vec::new();
    let statuses = |r: &Report| -> BTreeMap<(String, String, String), (String, String)> {
        let mut m = BTreeMap::new();
        for s in &r.skills {
            for (p, a) in &s.availability {
                m.insert(
                    ("skill".into(), s.skill.path.clone(), p.clone()),
                    (s.skill.name.clone(), a.status.as_str().to_owned()),
                );
            }
        }
        for a in &r.agents {
            for (p, av) in &a.availability {
                m.insert(
                    ("agent".into(), a.agent.path.clone(), p.clone()),
                    (a.agent.name.clone(), av.status.as_str().to_owned()),
                );
            }
        }
        m
    };
    let (before, after) = (statuses(old), statuses(new));
    for (k, (name, to)) in &after {
        let from = before.get(k).map_or("absent", |(_, s)| s.as_str());
        if from != to {
            changes.push(change(k, name, from, to));
        }
    }
    for (k, (name, from)) in &before {
        if !after.contains_key(k) {
            changes.push(change(k, name, from, "absent"));
        }
    }
    changes.sort();
    Diff {
        new_findings: minus(&new.findings, &old.findings),
        fixed_findings: minus(&old.findings, &new.findings),
        availability_changes: changes,
    }
}

fn change(k: &(String, String, String), name: &str, from: &str, to: &str) -> AvailabilityChange {
    AvailabilityChange {
        kind: k.0.clone(),
        path: k.1.clone(),
        name: name.to_owned(),
        profile: k.2.clone(),
        from: from.to_owned(),
        to: to.to_owned(),
    }
}

/// Read a JSON report written by `--format json`.
pub(crate) fn load(path: &std::path::Path) -> Result<Report, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("{}: cannot read report: {e}", path.display()))?;
    let report: Report = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}:{}:{}: not a skill-audit JSON report: {e}",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    if !(1..=SCHEMA_VERSION).contains(&report.schema_version) {
        return Err(format!(
            "{}: report schema_version {} is not supported (expected 1 to {SCHEMA_VERSION})",
            path.display(),
            report.schema_version
        ));
    }
    Ok(report)
}

/// The one-line verdict on a change: what it breaks, what it fixes.
pub(crate) fn verdict(d: &Diff) -> String {
    let unavailable: Vec<&AvailabilityChange> = d.newly_unavailable().collect();
    let mut per_profile: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &unavailable {
        *per_profile.entry(c.profile.as_str()).or_default() += 1;
    }
    let mut parts = Vec::new();
    for (p, n) in &per_profile {
        parts.push(format!(
            "makes {n} {} unavailable on `{p}`",
            if *n == 1 { "entry" } else { "entries" }
        ));
    }
    parts.push(Count(d.new_findings.len(), "new finding").to_string());
    parts.push(format!("{} fixed", d.fixed_findings.len()));
    let icon = if unavailable.is_empty() && d.new_findings.is_empty() {
        "✅"
    } else {
        "⚠️"
    };
    format!("{icon} This change {}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    fn f(rule: Rule, path: &str, line: u32, msg: &str) -> Finding {
        Finding::new(rule, path, crate::diagnostic::Pos::new(line, 1), msg)
    }

    #[test]
    fn findings_match_without_lines_and_count_duplicates() {
        let old = [
            f(Rule::UnknownKey, "a", 3, "x"),
            f(Rule::UnknownKey, "a", 9, "x"),
            f(Rule::BrokenLink, "b", 1, "y"),
        ];
        let new = [
            f(Rule::UnknownKey, "a", 5, "x"),
            f(Rule::NameMissing, "c", 1, "z"),
        ];
        let fixed = minus(&old, &new);
        assert_eq!(
            fixed.len(),
            2,
            "one duplicate and the broken link are fixed"
        );
        assert_eq!(minus(&new, &old), [new[1].clone()]);
    }
}
