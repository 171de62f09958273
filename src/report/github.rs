//! GitHub Actions workflow commands: one `::error file=PATH,line=N,col=M,title=RULE::message`
//! line per finding (`::warning` and `::notice` for the other severities), which the runner
//! turns into annotations on the changed files of a pull request.
//!
//! Paths and messages come from scanned files, so they are escaped the way GitHub's toolkit
//! (`@actions/core`) does: in the message `%`, CR and LF become `%25`, `%0D` and `%0A`; in
//! property values `:` and `,` become `%3A` and `%2C` as well. Other control characters
//! (ANSI/OSC escapes, BEL, ...) and bidirectional overrides are shown as `\u{..}` so they
//! cannot drive the log viewer. A finding is therefore always exactly one line, and nothing in
//! it can end the command early or start a second one.
//!
//! With `--baseline`, only the new findings are annotated, as only they decide the exit code.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::Report;
use crate::diagnostic::{Finding, Severity};

pub(crate) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let mut s = String::new();
    for f in report.gating_findings() {
        s.push_str(&command(f));
        s.push('\n');
    }
    out.write_all(s.as_bytes())
}

/// The workflow command of a severity.
pub(crate) fn command_name(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "notice",
    }
}

/// One finding as a workflow command, without the line end. A finding with a fix suggests
/// it on a line of its own, with the flags that apply it.
pub fn command(f: &Finding) -> String {
    let mut message = f.message.clone();
    if let Some(fix) = &f.fix {
        let flags = fix.applicability.flags();
        let _ = write!(
            message,
            "\nSuggested fix (`skill-audit {flags}`): {}",
            fix.message
        );
    }
    format!(
        "::{} file={},line={},col={},title={}::{}",
        command_name(f.severity),
        escape_property(&f.path),
        f.line.max(1),
        f.column.max(1),
        escape_property(f.rule.code()),
        escape_data(&message)
    )
}

/// Escape a command's message (toolkit `escapeData`), plus other control characters.
pub fn escape_data(text: &str) -> String {
    escape(text, false)
}

/// Escape a property value (toolkit `escapeProperty`), plus other control characters.
pub fn escape_property(text: &str) -> String {
    escape(text, true)
}

fn escape(text: &str, property: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => out.push_str("%25"),
            '\r' => out.push_str("%0D"),
            '\n' => out.push_str("%0A"),
            ':' if property => out.push_str("%3A"),
            ',' if property => out.push_str("%2C"),
            c if is_unsafe(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Characters that could start a new line or drive a terminal or log viewer.
fn is_unsafe(c: char) -> bool {
    (c.is_control() && c != '\t')
        || matches!(
            c,
            '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toolkit_escapes() {
        assert_eq!(escape_data("a%b\r\nc:d,e"), "a%25b%0D%0Ac:d,e");
        assert_eq!(escape_property("a%b\r\nc:d,e"), "a%25b%0D%0Ac%3Ad%2Ce");
        assert_eq!(escape_data("x\x1b[31my\u{7}"), "x\\u{1b}[31my\\u{7}");
        assert_eq!(escape_data("tab\there"), "tab\there");
    }
}
