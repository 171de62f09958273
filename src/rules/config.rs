//! SA9xx: how a library configures skill-audit: suppression comments and `skill-audit.toml`.

use std::collections::{HashMap, HashSet};

use super::RuleDoc;
use crate::diagnostic::{Finding, Severity, Suppression, quote};
use crate::rules::Rule;

/// Drop findings silenced by a suppression comment on their line, and report suppressions
/// that silence nothing or name no rule; `policies` are the run's own rules, which a comment
/// may name too.
pub(crate) fn apply_suppressions(
    findings: &mut Vec<Finding>,
    suppressions: &[Suppression],
    policies: &[Rule],
) {
    if suppressions.is_empty() {
        return;
    }
    // (path, line) -> suppressions covering it, so the cost is one lookup per finding.
    let mut by_line: HashMap<(&str, u32), Vec<usize>> = HashMap::new();
    for (i, s) in suppressions.iter().enumerate() {
        for l in &s.lines {
            by_line.entry((s.path.as_str(), *l)).or_default().push(i);
        }
    }
    let rules: Vec<Vec<Option<Rule>>> = suppressions
        .iter()
        .map(|s| {
            s.ids
                .iter()
                .map(|id| Rule::from_id_in(id, policies))
                .collect()
        })
        .collect();
    let mut used: HashSet<(usize, usize)> = HashSet::new();
    findings.retain(|f| {
        let Some(candidates) = by_line.get(&(f.path.as_str(), f.line)) else {
            return true;
        };
        for &si in candidates {
            if let Some(ri) = rules[si].iter().position(|r| *r == Some(f.rule)) {
                used.insert((si, ri));
                return false;
            }
        }
        true
    });
    for (si, s) in suppressions.iter().enumerate() {
        if s.ids.is_empty() {
            findings.push(suppression_names_nothing(s));
        }
        for (ri, id) in s.ids.iter().enumerate() {
            if rules[si][ri].is_none() {
                findings.push(not_a_rule(s, id));
            } else if !used.contains(&(si, ri)) {
                findings.push(unused_suppression(s, id));
            }
        }
    }
}

/// Apply `[rules]` from skill-audit.toml: a new severity, or `off`.
pub(crate) fn apply_severities(
    findings: &mut Vec<Finding>,
    severities: &HashMap<Rule, Option<Severity>>,
) {
    if severities.is_empty() {
        return;
    }
    findings.retain_mut(|f| match severities.get(&f.rule) {
        None => true,
        Some(None) => false,
        Some(Some(sev)) => {
            f.severity = *sev;
            true
        }
    });
}

pub(crate) const UNUSED_SUPPRESSION: RuleDoc = RuleDoc {
    code: "SA901",
    name: "unused-suppression",
    severity: Severity::Info,
    summary: "A suppression comment that silences nothing",
    what: "A `# skill-audit: ignore RULE` comment that silences no finding on its line (or, when it stands alone, the next line).",
    why: "Suppressions that no longer match anything hide the next real problem on that line; removing them keeps them from rotting.",
    example: "name: pdf  # skill-audit: ignore SA207\nafter the folder was renamed to pdf.\n\nFix: remove the comment.",
    fix: None,
};

/// The suppression `s` of `id` silences no finding.
fn unused_suppression(s: &Suppression, id: &str) -> Finding {
    Finding::new(
        Rule::UnusedSuppression,
        &s.path,
        s.pos,
        format!(
            "suppression of {} silences nothing here; remove it",
            quote(id)
        ),
    )
}

pub(crate) const UNKNOWN_SUPPRESSION: RuleDoc = RuleDoc {
    code: "SA902",
    name: "unknown-suppression",
    severity: Severity::Warning,
    summary: "A suppression comment that names no known rule",
    what: "A `# skill-audit: ignore` comment that names no rule, or an ID that is not a rule.",
    why: "It silences nothing, usually because of a typo in the ID.",
    example: "# skill-audit: ignore SA2211\n\nFix: # skill-audit: ignore SA221",
    fix: None,
};

/// The suppression `s` lists no ID.
fn suppression_names_nothing(s: &Suppression) -> Finding {
    Finding::new(
        Rule::UnknownSuppression,
        &s.path,
        s.pos,
        "`skill-audit: ignore` names no rule; write `# skill-audit: ignore SA221`",
    )
}

/// The suppression `s` lists `id`, which is no rule's code or name.
fn not_a_rule(s: &Suppression, id: &str) -> Finding {
    Finding::new(
        Rule::UnknownSuppression,
        &s.path,
        s.pos,
        format!(
            "{} is not a rule; `skill-audit rules` lists them",
            quote(id)
        ),
    )
}
