//! Markdown for people and PR comments: a verdict, the compatibility matrix with reasons, and
//! the findings. Text from scanned files goes through [`cell`] or [`inline`], which neutralise
//! table breaks, HTML, code fences and @mentions.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::Report;
use crate::evaluate::Status;

/// First line of every Markdown report, so a bot can find and update its own comment.
pub const MARKER: &str = "<!-- skill-audit-report -->";

pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let mut s = String::new();
    let sum = &report.summary;
    let _ = writeln!(s, "{MARKER}");
    let _ = writeln!(s, "## skill-audit report\n");
    let _ = writeln!(s, "{}\n", verdict(report));
    if !report.profiles.is_empty() {
        let skills = report
            .skills
            .iter()
            .map(|k| (k.name.as_str(), &k.availability));
        matrix("Skill", skills, report, &mut s);
        let agents = report
            .agents
            .iter()
            .map(|a| (a.agent.name.as_str(), &a.availability));
        matrix("Agent", agents, report, &mut s);
    }
    if !report.drift.is_empty() {
        let _ = writeln!(s, "### Drift\n");
        let _ = writeln!(
            s,
            "| Agent | Skill | Missing | Via |\n| --- | --- | --- | --- |"
        );
        for d in &report.drift {
            let mut missing: Vec<String> = d.missing_tools.iter().map(|t| code(t)).collect();
            missing.extend(d.unmet_any.iter().map(|g| {
                format!(
                    "one of {}",
                    g.iter().map(|t| code(t)).collect::<Vec<_>>().join(", ")
                )
            }));
            missing.extend(
                d.missing_mcp_servers
                    .iter()
                    .map(|m| format!("MCP server {}", code(m))),
            );
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} |",
                code(&d.agent),
                code(&d.skill),
                missing.join(", "),
                code(&d.via)
            );
        }
        s.push('\n');
    }
    if !report.findings.is_empty() {
        let _ = writeln!(s, "### Findings\n");
        let _ = writeln!(
            s,
            "| Severity | Rule | Location | Message |\n| --- | --- | --- | --- |"
        );
        for f in &report.findings {
            let _ = writeln!(
                s,
                "| {} | `{}` | {} | {} |",
                f.severity,
                f.rule.code(),
                code(&format!("{}:{}", f.path, f.line)),
                message(&f.message)
            );
        }
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "<sub>{} files scanned · {} skills · skill-audit {}</sub>",
        sum.files_scanned, sum.skills, report.tool.version
    );
    out.write_all(s.as_bytes())
}

/// A status matrix (skills or agents × profiles) with the reasons for unavailable cells.
fn matrix<'a>(
    title: &str,
    rows: impl Iterator<
        Item = (
            &'a str,
            &'a std::collections::BTreeMap<String, crate::evaluate::Availability>,
        ),
    > + Clone,
    report: &Report,
    s: &mut String,
) {
    if rows.clone().next().is_none() {
        return;
    }
    let names: Vec<&str> = report.profile_names().collect();
    let _ = writeln!(s, "### {title} compatibility\n");
    let _ = write!(s, "| {title} |");
    for n in &names {
        let _ = write!(s, " {} |", cell(n));
    }
    let _ = write!(s, "\n| --- |");
    for _ in &names {
        s.push_str(" --- |");
    }
    s.push('\n');
    let mut reasons = Vec::new();
    for (name, availability) in rows {
        let _ = write!(s, "| {} |", code(name));
        for n in &names {
            let a = availability.get(*n);
            let _ = write!(s, " {} |", a.map_or("–", |a| mark(a.status)));
            if let Some(a) = a.filter(|a| a.status == Status::Unavailable) {
                reasons.push(format!(
                    "- {} on **{}**: {}",
                    code(name),
                    inline(n),
                    message(a.reason.as_deref().unwrap_or("requirements not met"))
                ));
            }
        }
        s.push('\n');
    }
    if !reasons.is_empty() {
        let _ = writeln!(s, "\n**Why unavailable**\n");
        for r in reasons {
            let _ = writeln!(s, "{r}");
        }
    }
    s.push('\n');
}

/// One line that says how the run went.
pub fn verdict(report: &Report) -> String {
    let sum = &report.summary;
    let unavailable: usize = sum
        .by_profile
        .values()
        .map(|m| m.get(&Status::Unavailable).copied().unwrap_or(0))
        .sum();
    let icon = if sum.errors > 0 {
        "❌"
    } else if sum.warnings > 0 || unavailable > 0 {
        "⚠️"
    } else {
        "✅"
    };
    let mut v = format!(
        "{icon} **{} skills**, {} invalid · {} errors, {} warnings, {} infos",
        sum.skills, sum.invalid_skills, sum.errors, sum.warnings, sum.infos
    );
    if !report.profiles.is_empty() {
        let _ = write!(
            v,
            " · {} unavailable skill/profile pairs across {} profiles",
            unavailable,
            report.profiles.len()
        );
    }
    v
}

fn mark(status: Status) -> &'static str {
    match status {
        Status::Available => "✅ available",
        Status::Unavailable => "❌ unavailable",
        Status::Undeclared => "➖ undeclared",
        Status::Invalid => "⚠️ invalid",
    }
}

/// A message of ours, whose `backticked` parts are names from scanned files: those become
/// code spans (verbatim, inert), the rest is escaped text. Safe inside a table cell.
pub fn message(text: &str) -> String {
    text.split('`')
        .enumerate()
        .map(|(i, part)| if i % 2 == 1 { code(part) } else { inline(part) })
        .collect()
}

/// Text safe inside a table cell: no row or column breaks, no HTML, no pings.
pub fn cell(text: &str) -> String {
    // `inline` already escapes `|` and folds newlines, which is all a cell adds.
    inline(text)
}

/// Text safe in a Markdown line: HTML and Markdown control characters escaped, mentions and
/// references broken with a zero-width joiner so nobody is notified.
pub fn inline(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '@' => out.push_str("@\u{2060}"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '#' | '~' | '|' => {
                out.push('\\');
                out.push(c);
            }
            '\n' | '\r' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// A code span holding `text` verbatim, safe in a table cell.
pub fn code(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('|', "\\|");
    // A fence longer than any backtick run inside cannot be closed early.
    let longest = clean.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if clean.starts_with('`') || clean.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{clean}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_hostile_text() {
        assert_eq!(cell("a|b"), "a\\|b");
        assert_eq!(
            inline("<script>x</script>"),
            "&lt;script&gt;x&lt;/script&gt;"
        );
        assert_eq!(inline("@octocat"), "@\u{2060}octocat");
        assert_eq!(inline("</details>"), "&lt;/details&gt;");
        assert_eq!(inline("line\nbreak"), "line break");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("x|y"), "`x\\|y`");
        assert_eq!(message("missing `a|b` <x>"), "missing `a\\|b` &lt;x&gt;");
    }
}
