//! Text output for terminals and logs: each finding with its source line and a caret under the
//! spot (rendered by annotate-snippets, in colour on a terminal), then the matrices, the drift
//! and a summary. Text from scanned files is passed through [`visible`] so escape sequences
//! are never emitted.

use std::fmt::Write as _;
use std::io::{self, Write};

use annotate_snippets::{AnnotationKind, Level, Renderer, Snippet};

use super::Report;
use crate::diagnostic::Severity;
use crate::evaluate::Status;
use crate::words::Count;

/// Plain text, no colour.
pub fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    render_styled(report, out, false)
}

/// Only the findings, without matrices, drift or summary: what `--quiet` prints.
pub fn render_findings(report: &Report, out: &mut dyn Write, color: bool) -> io::Result<()> {
    out.write_all(findings(report, color).as_bytes())
}

/// Every finding, with its source line and caret.
fn findings(report: &Report, color: bool) -> String {
    let mut s = String::new();
    let renderer = if color {
        Renderer::styled()
    } else {
        Renderer::plain()
    };
    for f in &report.findings {
        finding(f, &renderer, &mut s);
    }
    s
}

/// Text, with ANSI colour when `color` is set.
pub fn render_styled(report: &Report, out: &mut dyn Write, color: bool) -> io::Result<()> {
    let mut s = findings(report, color);
    if !report.profiles.is_empty() {
        matrix("SKILL", report.skill_rows(), report, &mut s);
        matrix("AGENT", report.agent_rows(), report, &mut s);
    }
    if !report.drift.is_empty() {
        let _ = writeln!(s, "DRIFT (agent loads a skill it does not grant)");
        for d in &report.drift {
            let mut missing: Vec<String> = d.missing_tools.clone();
            missing.extend(
                d.unmet_any
                    .iter()
                    .map(|g| format!("one of {}", g.join("|"))),
            );
            missing.extend(d.missing_mcp_servers.iter().map(|m| format!("mcp:{m}")));
            let _ = writeln!(
                s,
                "  {} -> {}: missing {} (via {})",
                visible(&d.agent),
                visible(&d.skill),
                visible(&missing.join(", ")),
                visible(&d.via)
            );
        }
        s.push('\n');
    }
    let sum = &report.summary;
    let _ = writeln!(
        s,
        "{} scanned, {} ({} invalid), {}: {}, {}, {}",
        Count(sum.files_scanned, "file"),
        Count(sum.skills, "skill"),
        sum.invalid_skills,
        Count(report.profiles.len(), "profile"),
        Count(sum.errors, "error"),
        Count(sum.warnings, "warning"),
        Count(sum.infos, "info")
    );
    out.write_all(s.as_bytes())
}

/// One finding: with its source line when the audit attached it, else one line.
fn finding(f: &crate::diagnostic::Finding, renderer: &Renderer, s: &mut String) {
    let level = match f.severity {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
        Severity::Info => Level::INFO,
    };
    let message = visible(&f.message);
    let path = visible(&f.path);
    let Some(source) = &f.source else {
        let _ = writeln!(s, "{}\n", one_line(f));
        return;
    };
    let line = visible(source);
    // The caret covers the token at the column: up to the next space or delimiter.
    let start = line
        .char_indices()
        .nth(f.column.saturating_sub(1) as usize)
        .map_or(line.len(), |(i, _)| i);
    let len = line[start..]
        .find([' ', ',', ']', '}', ':', '#', '\''])
        .unwrap_or(line.len() - start)
        .max(1);
    let end = (start + len).min(line.len());
    let report = &[level
        .primary_title(message.as_ref())
        .id(f.rule.code())
        .element(
            Snippet::source(line.as_ref())
                .line_start(usize::try_from(f.line).unwrap_or(1))
                .path(path.as_ref())
                .annotation(AnnotationKind::Primary.span(start..end)),
        )];
    let _ = writeln!(s, "{}\n", renderer.render(report));
}

fn matrix<'a>(
    title: &str,
    rows: impl Iterator<Item = (&'a str, &'a super::ByProfile)> + Clone,
    report: &Report,
    s: &mut String,
) {
    if rows.clone().next().is_none() {
        return;
    }
    let names: Vec<&str> = report.profile_names().collect();
    let width = rows
        .clone()
        .map(|(n, _)| visible(n).chars().count())
        .max()
        .unwrap_or(5)
        .max(5);
    let col = names
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(0)
        .max("unavailable".len());
    let _ = write!(s, "{title:width$}");
    for n in &names {
        let _ = write!(s, "  {:col$}", visible(n));
    }
    s.truncate(s.trim_end().len());
    s.push('\n');
    for (name, availability) in rows {
        let _ = write!(s, "{:width$}", visible(name));
        for n in &names {
            let st = availability.get(*n).map_or("-", |a| a.status.as_str());
            let _ = write!(s, "  {st:col$}");
        }
        s.truncate(s.trim_end().len());
        s.push('\n');
        for n in &names {
            if let Some(a) = availability.get(*n)
                && matches!(a.status, Status::Unavailable | Status::Invalid)
                && let Some(r) = &a.reason
            {
                let _ = writeln!(s, "{:width$}    {}: {}", "", visible(n), visible(r));
            }
        }
    }
    s.push('\n');
}

/// `path:line:col: severity[RULE] message`, escaped: the compact form of a finding.
pub fn one_line(f: &crate::diagnostic::Finding) -> String {
    format!(
        "{}:{}:{}: {}[{}] {}",
        visible(&f.path),
        f.line,
        f.column,
        f.severity,
        f.rule.code(),
        visible(&f.message)
    )
}

/// Replace control characters (ANSI/OSC escapes, CR, BEL, ...) with visible escapes so text
/// from scanned files cannot drive the terminal.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_terminal_controls() {
        assert_eq!(visible("ok"), "ok");
        assert_eq!(visible("a\x1b[31mred"), "a\\u{1b}[31mred");
        assert_eq!(
            visible("x\x1b]8;;http://e\x07y"),
            "x\\u{1b}]8;;http://e\\u{7}y"
        );
        assert_eq!(visible("line\nnext\r"), "line\\u{a}next\\u{d}");
        assert_eq!(visible("rtl\u{202e}x"), "rtl\\u{202e}x");
    }
}
