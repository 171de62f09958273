//! `rules`, `rule ID` and `profiles`: what skill-audit knows.

use super::{Outcome, print};
use crate::rules::Rule;

/// One line per rule: ID, default severity, name, summary.
pub fn rules() -> Result<Outcome, String> {
    let mut s = String::new();
    for r in Rule::ALL {
        s.push_str(&format!(
            "{}  {:<7}  {:<28} {}\n",
            r.code(),
            r.default_severity(),
            r.name(),
            r.summary()
        ));
    }
    print(&s)
}

/// The built-in host profiles.
pub fn profiles() -> Result<Outcome, String> {
    let mut s = String::new();
    for (name, desc) in crate::profile::builtin::describe() {
        s.push_str(&format!("{name:<24} {desc}\n"));
    }
    print(&s)
}

/// One rule's documentation.
pub fn rule(id: &str) -> Result<Outcome, String> {
    let rule = Rule::from_id(id)
        .ok_or_else(|| format!("unknown rule `{id}`; `skill-audit rules` lists them"))?;
    print(&rule_doc(rule))
}

/// A rule's documentation as plain text.
pub fn rule_doc(rule: Rule) -> String {
    let d = rule.doc();
    format!(
        "{} {} ({} by default)\n\n{}\n\nWhat it checks\n  {}\n\nWhy it matters\n  {}\n\nExample\n{}\n",
        rule.code(),
        rule.name(),
        rule.default_severity(),
        rule.summary(),
        d.what,
        d.why,
        d.example
            .lines()
            .map(|l| format!("  {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    )
}
