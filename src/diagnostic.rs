//! One finding model shared by every rule and every renderer.

use rayon::slice::ParallelSliceMut;
use serde::{Deserialize, Serialize};
use std::fmt;

use crate::rules::Rule;

/// How serious a finding is. Ordered so that `Error > Warning > Info`.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad` so width specifiers (`{:<7}`) line columns up.
        f.pad(self.as_str())
    }
}

/// A 1-based line and column (columns count Unicode scalar values).
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
}

impl Pos {
    pub const fn new(line: u32, column: u32) -> Self {
        Pos { line, column }
    }
    /// Where a file-level finding points when there is no better place.
    pub(crate) const START: Pos = Pos { line: 1, column: 1 };
}

/// A rule violation at a place in a file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Finding {
    pub rule: Rule,
    pub severity: Severity,
    /// Display path: `/`-separated, relative to the working directory when under it.
    pub path: String,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// The text of the line the finding points at, for renderers that show it (text).
    #[serde(skip)]
    #[schemars(skip)]
    pub source: Option<String>,
    /// Characters of the line before `source` that it leaves out: of a very long line only
    /// the part around the finding is kept, marked `…` where cut.
    #[serde(skip)]
    #[schemars(skip)]
    pub source_skipped: u32,
    /// A hash of the text of the line the finding points at (FNV-1a, 32 bits, of its words
    /// joined by single spaces), or of what it is about when its line is only a place the
    /// rule works out ([`Finding::about`]): `diff` and `--baseline` know a finding by it
    /// after lines above it moved. Absent in reports written before it existed, and for
    /// lines not read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fingerprint: Option<u32>,
    /// The profile the finding holds on, for findings that hold on one profile and not on
    /// another (a skill unavailable on `staging`, a tool renamed on `prod`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// How to fix it, when the rule knows a mechanical fix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fix: Option<Box<Fix>>,
}

/// Whether applying a fix keeps what the file means.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Meaning is preserved (a renamed tool name, a quoted scalar): `--fix` applies it.
    Safe,
    /// Meaning changes (permissions widen, a file is renamed): only `--unsafe-fixes` applies it.
    Unsafe,
}

impl Applicability {
    /// The flags that apply a fix of this applicability.
    pub fn flags(self) -> &'static str {
        match self {
            Applicability::Safe => "--fix",
            Applicability::Unsafe => "--fix --unsafe-fixes",
        }
    }
}

/// One replacement of a byte range of the finding's file. Fixes are text edits on the file
/// as read, never a re-serialised document, so every byte outside the range is kept.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Edit {
    /// Byte offsets into the file as read (a byte order mark counts), `start <= end`.
    pub start: usize,
    pub end: usize,
    /// The text that replaces the range (empty: a deletion; an empty range: an insertion).
    pub content: String,
    /// `start` and `end` as 1-based line and column, for readers that do not count bytes.
    pub location: Pos,
    pub end_location: Pos,
}

impl Edit {
    /// Insert `content` at the start of `line`, which is at byte `offset` of the file.
    pub(crate) fn insert_at_line(offset: u32, line: u32, content: String) -> Option<Edit> {
        Edit::insert(offset, Pos::new(line, 1), content)
    }

    /// Insert `content` at byte `offset` of the file, which is at `at`.
    pub(crate) fn insert(offset: u32, at: Pos, content: String) -> Option<Edit> {
        let at_byte = usize::try_from(offset).ok()?;
        Some(Edit {
            start: at_byte,
            end: at_byte,
            content,
            location: at,
            end_location: at,
        })
    }
}

/// A mechanical fix for one finding: edits of the finding's file and, optionally, a new name
/// for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Fix {
    pub applicability: Applicability,
    /// What the fix does, in the imperative: "replace `codebase` with `search/codebase`".
    pub message: String,
    /// Non-overlapping edits, in file order.
    pub edits: Vec<Edit>,
    /// Rename the file to this display path once its edits are made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rename: Option<String>,
}

impl Fix {
    /// A safe fix of the file's text alone, no rename: what the editor's "fix all safe"
    /// applies.
    pub(crate) fn safe_text_edit(&self) -> bool {
        self.applicability == Applicability::Safe && self.rename.is_none()
    }

    /// A fix of text edits that keeps the file's meaning.
    pub fn safe(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            applicability: Applicability::Safe,
            message: message.into(),
            edits,
            rename: None,
        }
    }

    /// A fix of text edits that changes what the file means.
    pub fn unsafe_edits(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            applicability: Applicability::Unsafe,
            ..Fix::safe(message, edits)
        }
    }

    /// Renaming the file to the display path `to` (unsafe: whatever names the old path loses it).
    pub fn rename(message: impl Into<String>, to: String) -> Fix {
        Fix {
            rename: Some(to),
            ..Fix::unsafe_edits(message, Vec::new())
        }
    }
}

impl Finding {
    /// The finding with `fix`, when there is one.
    pub(crate) fn with_fix(mut self, fix: Option<Fix>) -> Self {
        self.fix = fix.map(Box::new);
        self
    }

    /// The finding, fingerprinted by `subject` instead of the text of its line: for a
    /// finding whose line is a place the rule works out (the 501st line of a long file, the
    /// first of several uses) or holds more than it is about (one name of a `tools` list),
    /// so that edits elsewhere in the file, or of the line's other entries, do not make it
    /// another finding for `--baseline` or code scanning.
    pub(crate) fn about(mut self, subject: &str) -> Self {
        self.fingerprint = Some(fingerprint(subject));
        self
    }

    /// The finding, as one that holds on the profile named `profile`.
    pub(crate) fn on_profile(mut self, profile: &str) -> Self {
        self.profile = Some(profile.to_owned());
        self
    }

    /// A finding at the rule's default severity.
    pub fn new(rule: Rule, path: &str, pos: Pos, message: impl Into<String>) -> Self {
        Finding {
            rule,
            severity: rule.default_severity(),
            path: path.to_owned(),
            line: pos.line.max(1),
            column: pos.column.max(1),
            message: message.into(),
            source: None,
            source_skipped: 0,
            fingerprint: None,
            profile: None,
            fix: None,
        }
    }

    /// Report order: path, then line, then rule, then column and message so ties are stable.
    pub(crate) fn sort_key(&self) -> (&str, u32, &'static str, u32, &str) {
        (
            &self.path,
            self.line,
            self.rule.code(),
            self.column,
            &self.message,
        )
    }
}

/// The fingerprint of a line: FNV-1a (32 bits) of its words joined by single spaces, so
/// indentation, trailing spaces, a carriage return or a byte order mark do not change it. The
/// same on every platform and in every version, as reports compared may come from either.
pub(crate) fn fingerprint(line: &str) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    let mut eat = |b: u8| {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    };
    let words = line
        .trim_start_matches('\u{feff}')
        .split_whitespace()
        .enumerate();
    for (i, word) in words {
        if i > 0 {
            eat(b' ');
        }
        word.bytes().for_each(&mut eat);
    }
    hash
}

/// Names as a message shows them: `` `a`, `b` ``. Renderers turn the backticked parts into code.
pub(crate) fn quoted<S: AsRef<str>>(names: &[S]) -> String {
    let mut out = String::with_capacity(names.iter().map(|n| n.as_ref().len() + 4).sum());
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        push_quoted(&mut out, n.as_ref());
    }
    out
}

/// What a drifting link lacks, names quoted as messages quote them: "tools `a`, `b`; one of
/// `c`, `d`; MCP server `kusto`". Groups are set apart by `;`, as a name may hold `,`.
pub(crate) fn lacking(d: &crate::model::Drift) -> String {
    let parts: Vec<String> = (d.lacking().iter())
        .map(|l| format!("{} {}", l.what, quoted(l.names)))
        .collect();
    parts.join("; ")
}

/// One name as a message shows it: `` `a` ``, or, for a name with backticks, as CommonMark
/// writes such a code span (`` `` a`b `` ``), which the renderers read back.
pub(crate) fn quote(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 2);
    push_quoted(&mut out, name);
    out
}

/// `name` in a fence longer than any run of backticks in it, so none of them closes it. The
/// fence is padded with a space where CommonMark would take one off: a backtick at either end
/// would join the fence, and a name that starts and ends with a space loses one of each.
fn push_quoted(out: &mut String, name: &str) {
    // Almost every name: one backtick each side.
    if !name.is_empty() && !name.starts_with(' ') && !name.contains('`') {
        out.push('`');
        out.push_str(name);
        out.push('`');
        return;
    }
    if name.is_empty() {
        // Two backticks would be one run, which opens nothing, or closes another name's span.
        out.push_str("` `");
        return;
    }
    let longest = name.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = longest + 1;
    let spaced =
        name.starts_with(' ') && name.ends_with(' ') && !name.trim_start_matches(' ').is_empty();
    let pad = if fence > 1 || spaced { " " } else { "" };
    for _ in 0..fence {
        out.push('`');
    }
    out.push_str(pad);
    out.push_str(name);
    out.push_str(pad);
    for _ in 0..fence {
        out.push('`');
    }
}

/// Sort findings into report order and drop exact duplicates.
pub(crate) fn sort_findings(findings: &mut Vec<Finding>) {
    // On all threads: a large library has as many findings as skills, sorted after the
    // parallel work is done. In place (a merge sort's buffer would hold them all twice);
    // findings that sort alike are compared on their severity too, and any still alike are
    // equal, so the order is the same on every run.
    findings.par_sort_unstable_by(|a, b| {
        a.sort_key()
            .cmp(&b.sort_key())
            .then_with(|| a.severity.cmp(&b.severity))
    });
    findings.dedup();
}

/// A `# skill-audit: ignore RULE[, RULE]` comment in a file's frontmatter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppression {
    pub path: String,
    /// Where the comment is.
    pub pos: Pos,
    /// The lines whose findings it silences: its own line when it trails a value, the next
    /// line when it stands alone (and, on the first frontmatter line, also line 1, where
    /// findings about the whole file sit).
    pub lines: Vec<u32>,
    /// The IDs as written.
    pub ids: Vec<String>,
}

/// The marker a suppression comment starts with.
pub(crate) const SUPPRESSION_MARKER: &str = "skill-audit: ignore";

/// Collects findings for one file; every stage of the per-file pipeline writes into it.
#[derive(Debug)]
pub struct Sink<'a> {
    pub path: &'a str,
    pub findings: Vec<Finding>,
    pub suppressions: Vec<Suppression>,
    /// The file's bytes as read (empty when unknown), for rules that compute fixes.
    pub source: &'a [u8],
}

impl<'a> Sink<'a> {
    pub fn new(path: &'a str) -> Self {
        Sink {
            path,
            findings: Vec::new(),
            suppressions: Vec::new(),
            source: &[],
        }
    }

    /// The file's text as read (byte order mark included), when it is UTF-8.
    pub(crate) fn text(&self) -> Option<&'a str> {
        std::str::from_utf8(self.source)
            .ok()
            .filter(|t| !t.is_empty())
    }
    pub(crate) fn push(&mut self, rule: Rule, pos: Pos, message: impl Into<String>) {
        self.findings
            .push(Finding::new(rule, self.path, pos, message));
    }

    /// [`Sink::push`] of a finding about `subject` rather than its line ([`Finding::about`]):
    /// the empty text for the whole file, a name for one entry of a list.
    pub(crate) fn push_about(
        &mut self,
        rule: Rule,
        pos: Pos,
        message: impl Into<String>,
        subject: &str,
    ) {
        self.findings
            .push(Finding::new(rule, self.path, pos, message).about(subject));
    }

    /// [`Sink::push`], with the finding's fix when the rule could make one.
    pub(crate) fn push_fixed(
        &mut self,
        rule: Rule,
        pos: Pos,
        message: impl Into<String>,
        fix: Option<Fix>,
    ) {
        self.findings
            .push(Finding::new(rule, self.path, pos, message).with_fix(fix));
    }
}

/// `100000` as `100,000`, as messages write numbers.
pub(crate) fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `path:line:column`, or just the path when there is no position (line 0: a file that could
/// not be read, as a whole).
pub(crate) fn location(path: &str, line: usize, column: usize) -> String {
    if line == 0 {
        path.to_owned()
    } else {
        format!("{path}:{line}:{column}")
    }
}

#[cfg(test)]
mod tests {
    use super::{fingerprint, lacking};

    #[test]
    fn drift_names_are_quoted_counted_and_groups_set_apart() {
        let mut d = crate::model::Drift {
            agent: "a.agent.md".into(),
            skill: "s".into(),
            skill_path: "s/SKILL.md".into(),
            via: "skills-field".into(),
            missing_tools: vec!["x,y".into()],
            unmet_any: vec![vec!["a".into(), "b".into()]],
            missing_mcp_servers: vec!["kusto".into()],
        };
        assert_eq!(
            lacking(&d),
            "tool `x,y`; one of `a`, `b`; MCP server `kusto`"
        );
        d.missing_tools.push("z".into());
        d.unmet_any.clear();
        d.missing_mcp_servers.push("k2".into());
        assert_eq!(lacking(&d), "tools `x,y`, `z`; MCP servers `kusto`, `k2`");
    }

    #[test]
    fn a_fingerprint_ignores_how_a_line_is_spaced_and_nothing_else() {
        let plain = fingerprint("tools: [a, b]");
        assert_eq!(fingerprint("  tools:\t[a,  b] \r"), plain);
        assert_eq!(fingerprint("\u{feff}tools: [a, b]"), plain);
        assert_ne!(fingerprint("tools: [a, c]"), plain);
        assert_ne!(fingerprint("tools:[a, b]"), plain, "words are not joined");
        // FNV-1a of "a b": the value reports hold, the same on every platform.
        assert_eq!(fingerprint(" a   b"), 0x10a3_f9f2);
        assert_eq!(fingerprint(""), 0x811c_9dc5);
    }
}
