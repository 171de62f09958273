//! The concise text report (`--output-format concise`): one line per finding, as
//! `path:line:col: SA123 [*] message`, then the summary; and the per-rule counts of
//! `--statistics`.

use std::fmt::Write as _;
use std::io::{self, Write};

use super::Report;
use super::text::{fixable, visible};
use crate::diagnostic::Severity;
use crate::rules::Rule;

/// One line per finding, then the summary; the rule code in its severity's colour when
/// `color` is set.
pub(crate) fn render(report: &Report, out: &mut dyn Write, color: bool) -> io::Result<()> {
    let mut s = lines(report, color);
    if !report.findings.is_empty() {
        s.push('\n');
    }
    super::text::summary(report, &mut s);
    out.write_all(s.as_bytes())
}

/// Only the lines of the findings: what `--quiet` prints; with `--baseline`, after a blank
/// line as the summary is, its `baseline:` line too.
pub(crate) fn render_findings(report: &Report, out: &mut dyn Write, color: bool) -> io::Result<()> {
    let mut s = lines(report, color);
    if report.baseline.is_some() && !report.findings.is_empty() {
        s.push('\n');
    }
    super::text::quiet_baseline(report, &mut s);
    out.write_all(s.as_bytes())
}

fn lines(report: &Report, color: bool) -> String {
    let mut s = String::new();
    for (f, mark) in report.findings.iter().zip(super::text::marks(report)) {
        let (on, off) = match (color, f.severity) {
            (false, _) => ("", ""),
            (true, Severity::Error) => ("\x1b[1;31m", "\x1b[0m"),
            (true, Severity::Warning) => ("\x1b[1;33m", "\x1b[0m"),
            (true, Severity::Info) => ("\x1b[1;36m", "\x1b[0m"),
        };
        let _ = writeln!(
            s,
            "{}:{}:{}: {on}{}{off} {mark}{}",
            visible(&f.path),
            f.line,
            f.column,
            f.rule.code(),
            visible(&f.message)
        );
    }
    s
}

/// One rule's count, as `--statistics` gives it.
#[derive(Debug, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Statistic {
    pub code: &'static str,
    pub name: &'static str,
    pub count: usize,
    /// Some of its findings carry a fix this run would apply.
    pub fixable: bool,
}

/// The findings counted per rule, most first (then by code).
pub(crate) fn statistics(report: &Report) -> Vec<Statistic> {
    let mut by_rule: std::collections::BTreeMap<Rule, (usize, bool)> = Default::default();
    for f in &report.findings {
        let e = by_rule.entry(f.rule).or_default();
        e.0 += 1;
        e.1 |= fixable(report, f);
    }
    let mut out: Vec<Statistic> = by_rule
        .into_iter()
        .map(|(rule, (count, fixable))| Statistic {
            code: rule.code(),
            name: rule.name(),
            count,
            fixable,
        })
        .collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then(a.code.cmp(b.code)));
    out
}

/// `--statistics` as text: `count<TAB>code<TAB>[*] name` per rule, the counts aligned.
pub(crate) fn render_statistics(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let stats = statistics(report);
    let width = stats.first().map_or(1, |s| s.count.to_string().len());
    let mut s = String::new();
    for st in &stats {
        let mark = if st.fixable { "[*] " } else { "    " };
        let _ = writeln!(s, "{:>width$}\t{}\t{mark}{}", st.count, st.code, st.name);
    }
    out.write_all(s.as_bytes())
}

/// `--statistics` as JSON: a list of `{code, name, count, fixable}`.
pub(crate) fn render_statistics_json(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let mut text = serde_json::to_string_pretty(&statistics(report)).map_err(io::Error::other)?;
    text.push('\n');
    out.write_all(text.as_bytes())
}
