//! Compare two JSON reports: new and fixed findings, availability changes with what caused
//! each, and skills and agents added or removed. Findings match by rule, file and the
//! fingerprint of their line, never by line number, so an edit above a finding does not churn
//! it. What only one run judged (a profile, a rule, a path) is not compared: told once, not as
//! a change of everything it covers. Also compare two profiles: the
//! tools, resources and prompts one offers and the other does not, per server, and what
//! changed in the machines they describe.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap, HashSet};

use super::{Report, SCHEMA_VERSION};
use crate::audit::AuditOptions;
use crate::diagnostic::Finding;
use crate::evaluate::{Availability, Status};
use crate::model::{DepKind, Requirements};
use crate::profile::{Machine, NameSet, Profile, Vocabulary};
use crate::rules::Rule;
use crate::words::Count;

/// What changed between two reports.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Diff {
    pub new_findings: Vec<Finding>,
    pub fixed_findings: Vec<Finding>,
    pub availability_changes: Vec<AvailabilityChange>,
    /// Skills and agents that moved: the same kind and name at another path. Their findings
    /// and availability are compared across the move, so they are neither gone nor new.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub renamed: Vec<Renamed>,
    /// Skills and agents only in the new report, on paths the old one audited too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<EntryRef>,
    /// Skills and agents only in the old report, on paths the new one audited too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<EntryRef>,
    /// Profiles only one of the reports was judged on. Their cells are not compared: a
    /// profile added or dropped is one change, not one per entry.
    #[serde(default, skip_serializing_if = "ProfileNames::is_empty")]
    pub profiles: ProfileNames,
    /// Findings of the old report that the new run could not have found again, so they are
    /// neither fixed nor new.
    #[serde(default, skip_serializing_if = "NotCompared::is_empty")]
    pub not_compared: NotCompared,
}

/// A skill or agent only one of the reports has.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct EntryRef {
    pub kind: String,
    pub name: String,
    pub path: String,
}

/// Profile names one report has and the other does not, in their report's order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProfileNames {
    /// Only in the new report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<String>,
    /// Only in the old report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<String>,
}

impl ProfileNames {
    fn is_empty(&self) -> bool {
        self.added.is_empty() && self.dropped.is_empty()
    }
}

/// How many findings of the old report were left out of the comparison, by why. Each is
/// counted once, under the first reason that applies.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct NotCompared {
    /// Of rules the new run does not report (`--select`, `--ignore`, a rule turned off, a
    /// policy rule no longer declared). Only `--baseline` knows the run's rules: a saved
    /// report does not record them.
    #[serde(default)]
    pub rules: usize,
    /// On files the new run did not audit: outside its paths, or (with `--baseline`) excluded.
    #[serde(default)]
    pub files: usize,
    /// About a profile only the old report has.
    #[serde(default)]
    pub profiles: usize,
}

impl NotCompared {
    pub(crate) fn total(&self) -> usize {
        self.rules + self.files + self.profiles
    }

    fn is_empty(&self) -> bool {
        self.total() == 0
    }
}

/// A skill or agent found at another path than in the earlier report.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Renamed {
    pub kind: String,
    pub name: String,
    pub from: String,
    pub to: String,
}

/// A skill or agent whose status in a profile changed: one both reports have, on a profile
/// both have. `from`/`to` is a status.
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
    /// What made the status change, read from the `missing` and `unmet_any` lists of both
    /// reports: the names that became missing, then those that became available.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub causes: Vec<Cause>,
    /// The new status's `reason`, when no cause can be named (the status changed without a
    /// name becoming missing or available).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// One name (or `any` group) that is missing on one side of a comparison and not the other.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Cause {
    pub change: CauseChange,
    pub kind: CauseKind,
    /// The name as the entry requires it (`server/*` for a server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// An `any` group instead of one name: one of these is enough.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub any: Vec<String>,
}

/// How a requirement's fate changed between the two reports.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum CauseChange {
    /// Required in both reports; the new profile no longer offers it.
    Removed,
    /// Required in both reports; the new profile offers it.
    Added,
    /// Required only in the new report, and not offered.
    Required,
    /// Required only in the old report, where it was missing.
    Unrequired,
    /// Newly missing, for a reason the reports do not tell.
    Missing,
    /// Newly available, for a reason the reports do not tell.
    Met,
    /// Not judged in the old report (its profile could not say), judged and missing in the
    /// new one.
    Judged,
    /// Missing in the old report, not judged in the new one (its profile cannot say).
    Unjudged,
}

/// What kind of name a cause is about.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum CauseKind {
    Tool,
    Resource,
    Prompt,
    /// A whole MCP server (a `server/*` requirement, or an `mcp-servers` entry).
    Server,
    /// A Hermes tool set.
    Toolset,
    /// An executable on `PATH`.
    Bin,
    /// An environment variable.
    Env,
    /// An OpenClaw config key.
    Config,
    /// An operating system.
    Os,
    /// A Python package.
    Package,
}

impl CauseKind {
    fn noun(self) -> &'static str {
        match self {
            CauseKind::Tool => "tool",
            CauseKind::Resource => "resource",
            CauseKind::Prompt => "prompt",
            CauseKind::Server => "server",
            CauseKind::Toolset => "tool set",
            CauseKind::Bin => "executable",
            CauseKind::Env => "environment variable",
            CauseKind::Config => "config key",
            CauseKind::Os => "OS",
            CauseKind::Package => "package",
        }
    }

    fn of(kind: DepKind) -> CauseKind {
        match kind {
            DepKind::Tools => CauseKind::Tool,
            DepKind::Resources => CauseKind::Resource,
            DepKind::Prompts => CauseKind::Prompt,
            DepKind::Toolsets => CauseKind::Toolset,
            DepKind::Bins => CauseKind::Bin,
            DepKind::Env => CauseKind::Env,
            DepKind::Config => CauseKind::Config,
            DepKind::Os => CauseKind::Os,
            DepKind::Packages => CauseKind::Package,
        }
    }
}

impl Cause {
    /// The cause for people, each name passed through `name` (which quotes or escapes it):
    /// "tool `get_check_details` removed", "now requires one of tools `a`, `b`".
    pub(crate) fn describe(&self, name: impl Fn(&str) -> String) -> String {
        let noun = self.kind.noun();
        // A server requirement is `server/*`; people know it by the server's name.
        let shown = |n: &str| -> String {
            match self.kind {
                CauseKind::Server => name(n.strip_suffix("/*").unwrap_or(n)),
                _ => name(n),
            }
        };
        let what = match &self.name {
            Some(n) => format!("{noun} {}", shown(n)),
            None => {
                let names: Vec<String> = self.any.iter().map(|n| shown(n)).collect();
                format!("one of {noun}s {}", names.join(", "))
            }
        };
        match (self.change, self.name.is_some()) {
            (CauseChange::Removed, true) => format!("{what} removed"),
            (CauseChange::Removed, false) => format!("{what} no longer offered"),
            (CauseChange::Added, _) => format!("{what} added"),
            (CauseChange::Required, _) => format!("now requires {what}"),
            (CauseChange::Unrequired, _) => format!("no longer requires {what}"),
            (CauseChange::Missing, true) => format!("{what} missing"),
            (CauseChange::Missing, false) => format!("{what} unavailable"),
            (CauseChange::Met, _) => format!("{what} available"),
            (CauseChange::Judged, true) => format!("{what} now judged and missing"),
            (CauseChange::Judged, false) => format!("{what} now judged and unavailable"),
            (CauseChange::Unjudged, _) => format!("{what} no longer judged"),
        }
    }
}

impl AvailabilityChange {
    /// The causes (else the reason) for people, `name` quoting or escaping each name; empty
    /// when there is neither.
    pub(crate) fn explanation(&self, name: impl Fn(&str) -> String + Copy) -> Option<String> {
        if self.causes.is_empty() {
            return self.reason.clone();
        }
        let parts: Vec<String> = self.causes.iter().map(|c| c.describe(name)).collect();
        Some(parts.join("; "))
    }
}

impl Diff {
    /// Entries the change made unavailable: from a status where nothing judged is missing to
    /// one where something is, or the host does not load them. A not-judged entry was not
    /// known to miss anything, so it counts as an available one does.
    pub(crate) fn newly_unavailable(&self) -> impl Iterator<Item = &AvailabilityChange> {
        let fine = |status: &str| {
            [
                Status::Available,
                Status::NeedsNothing,
                Status::NotJudged,
                Status::Undeclared,
            ]
            .iter()
            .any(|s| s.as_str() == status)
        };
        self.availability_changes
            .iter()
            .filter(move |c| fine(&c.from) && !fine(&c.to))
    }
}

/// How closely two findings of one rule on one file must agree to be the same finding, from
/// the closest: each pass pairs what the ones before left.
#[derive(Clone, Copy)]
enum Likeness {
    /// The same line text and message: nothing changed, or lines above it moved.
    Same,
    /// The same message on an edited line (say a fix of another finding on it), or a report
    /// without fingerprints on either side.
    Message,
    /// The same line text, the message apart from its numbers: a line it names or a count
    /// it gives changed (`inferred from `SKILL.md:235``, now `:237`).
    Numbers,
    /// The message apart from the numbers of its prose, not of the names it quotes: a count
    /// changed on a line that moved (`SKILL.md has 569 lines`, now 571).
    ProseNumbers,
    /// The same line text and the same names quoted, in any order, in other words: a file
    /// `--fix` turned from a chat mode into an agent is judged in an agent's words, and a
    /// list of paths re-sorts when one of them moved.
    Names,
}

/// The names `message` quotes, sorted, each set apart by a byte no name holds.
fn quoted_names(message: &str) -> String {
    let mut names: Vec<&str> = (super::spans::pieces(message).into_iter())
        .filter_map(|p| match p {
            super::spans::Piece::Code { name, .. } => Some(name),
            super::spans::Piece::Text(_) => None,
        })
        .collect();
    names.sort_unstable();
    names.join("\0")
}

/// `message` with each number (digits, and commas between digits) as `#`; inside the names it
/// quotes too, unless `names_too` is false.
fn without_numbers(message: &str, names_too: bool) -> String {
    let mut out = String::with_capacity(message.len());
    for piece in super::spans::pieces(message) {
        match piece {
            super::spans::Piece::Code { raw, .. } if !names_too => out.push_str(raw),
            piece => numbers_out(piece.raw(), &mut out),
        }
    }
    out
}

/// `text` onto `out` with each number as `#`.
fn numbers_out(text: &str, out: &mut String) {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_ascii_digit() {
            out.push(c);
            continue;
        }
        out.push('#');
        while let Some(&next) = chars.peek() {
            let mut ahead = chars.clone();
            ahead.next();
            let grouped = next == ',' && ahead.peek().is_some_and(char::is_ascii_digit);
            if !(next.is_ascii_digit() || grouped) {
                break;
            }
            chars.next();
        }
    }
}

/// Which findings of `a` (the newer report's) and of `b` (the older's) have a partner on the
/// other side: the same rule on the same file, as alike as [`Likeness`] allows, the closest
/// pairs first. Of several alike, those nearest in lines pair up, in report order
/// ([`nearest`]). A finding whose message names something else
/// on an unchanged line is not paired: it is another problem there (another tool of one
/// `tools` list, another profile). Findings of a report whose files moved are given to it
/// where their files are now (see [`Moved`]).
fn pair<'a>(a: &'a [Finding], b: &'a [Finding]) -> (Vec<bool>, Vec<bool>) {
    type Key<'a> = (&'static str, &'a str, Option<u32>, Cow<'a, str>);
    // The lines of alike findings of one side, and their places in it.
    type Side = (Vec<u32>, Vec<usize>);
    let (mut a_paired, mut b_paired) = (vec![false; a.len()], vec![false; b.len()]);
    let shifts = Shifts::of(a, b);
    for likeness in [
        Likeness::Same,
        Likeness::Message,
        Likeness::Numbers,
        Likeness::ProseNumbers,
        Likeness::Names,
    ] {
        let key = |f: &'a Finding| -> Option<Key<'a>> {
            let (print, message) = match likeness {
                Likeness::Same => (Some(f.fingerprint?), Cow::Borrowed(f.message.as_str())),
                Likeness::Message => (None, Cow::Borrowed(f.message.as_str())),
                Likeness::Numbers => (
                    Some(f.fingerprint?),
                    Cow::Owned(without_numbers(&f.message, true)),
                ),
                Likeness::ProseNumbers => (None, Cow::Owned(without_numbers(&f.message, false))),
                Likeness::Names => (
                    Some(f.fingerprint?),
                    // A message that quotes nothing says nothing this pass could match.
                    Cow::Owned(Some(quoted_names(&f.message)).filter(|n| !n.is_empty())?),
                ),
            };
            Some((f.rule.code(), f.path.as_str(), print, message))
        };
        // Each key's unpaired findings of `a` and of `b`: their lines and places, in report
        // order.
        let mut alike: HashMap<Key<'a>, [Side; 2]> = HashMap::new();
        for (j, f) in b.iter().enumerate().filter(|(j, _)| !b_paired[*j]) {
            if let Some(k) = key(f) {
                let (lines, at) = &mut alike.entry(k).or_default()[1];
                lines.push(f.line);
                at.push(j);
            }
        }
        if alike.is_empty() {
            continue;
        }
        for (i, f) in a.iter().enumerate().filter(|(i, _)| !a_paired[*i]) {
            if let Some(group) = key(f).and_then(|k| alike.get_mut(&k)) {
                let (lines, at) = &mut group[0];
                lines.push(shifts.line_in_b(&f.path, f.line));
                at.push(i);
            }
        }
        for [(a_lines, a_at), (b_lines, b_at)] in alike.values() {
            for (x, y) in nearest(a_lines, b_lines) {
                a_paired[a_at[x]] = true;
                b_paired[b_at[y]] = true;
            }
        }
    }
    (a_paired, b_paired)
}

/// How far the lines of each file of `a` moved in `b`, told by the findings that are alone of
/// their kind on both sides (the same rule, line text and message): lines added above two
/// copies of a line must not make the copy above them look like the old first one.
struct Shifts<'a>(HashMap<&'a str, Vec<(u32, u32)>>);

impl<'a> Shifts<'a> {
    fn of(a: &'a [Finding], b: &'a [Finding]) -> Self {
        type Same<'a> = (&'static str, &'a str, u32, &'a str);
        let same = |f: &'a Finding| -> Option<Same<'a>> {
            Some((f.rule.code(), &f.path, f.fingerprint?, &f.message))
        };
        // Each kind's count and line on each side.
        let mut seen: HashMap<Same<'a>, [(u32, u32); 2]> = HashMap::new();
        for (side, findings) in [a, b].into_iter().enumerate() {
            for f in findings {
                if let Some(k) = same(f) {
                    let at = &mut seen.entry(k).or_default()[side];
                    *at = (at.0 + 1, f.line);
                }
            }
        }
        let mut anchors: HashMap<&'a str, Vec<(u32, u32)>> = HashMap::new();
        for ((_, path, _, _), sides) in seen {
            if let [(1, x), (1, y)] = sides {
                anchors.entry(path).or_default().push((x, y));
            }
        }
        for lines in anchors.values_mut() {
            lines.sort_unstable();
            // A line cut and pasted far away is no measure of the lines around it: a finding
            // counts where the one above or below it moved as far.
            let shift = |(x, y): (u32, u32)| i64::from(y) - i64::from(x);
            let kept: Vec<(u32, u32)> = (0..lines.len())
                .filter(|&i| {
                    let by = shift(lines[i]);
                    (i > 0 && shift(lines[i - 1]) == by)
                        || lines.get(i + 1).is_some_and(|&next| shift(next) == by)
                })
                .map(|i| lines[i])
                .collect();
            *lines = kept;
        }
        Shifts(anchors)
    }

    /// Where `line` of `path` in `a` is likely to be in `b`: moved as far as the nearest
    /// finding above it that is alone of its kind moved (below it, when none is above).
    fn line_in_b(&self, path: &str, line: u32) -> u32 {
        let Some(anchors) = self.0.get(path).filter(|a| !a.is_empty()) else {
            return line;
        };
        let (x, y) = anchors[anchors
            .partition_point(|(x, _)| *x <= line)
            .saturating_sub(1)];
        let moved = i64::from(line) + i64::from(y) - i64::from(x);
        u32::try_from(moved.max(0)).unwrap_or(u32::MAX)
    }
}

/// Pairs of positions in `new` and `old` (the lines of alike findings of the newer report
/// and of the older, in report order) that keep both orders, pair as many as the shorter
/// has, and are the closest in lines: a copy of a line added above two others is the new
/// one, not the last. Of two as near, a line pushed down (by one added above it) is taken
/// over one pulled up; groups too large to weigh pair the first of each side.
fn nearest(new: &[u32], old: &[u32]) -> Vec<(usize, usize)> {
    // How far apart two lines are: twice the lines between, and one more when the new one is
    // above the old one.
    let apart = |n: u32, o: u32| 2 * u64::from(n.abs_diff(o)) + u64::from(n < o);
    // The shorter side is paired whole, each with one of the longer.
    let swapped = new.len() > old.len();
    let (a, b) = if swapped { (old, new) } else { (new, old) };
    let (n, m) = (a.len(), b.len());
    if n == 0 || n == m || n.saturating_mul(m) > 1 << 20 {
        return (0..n).map(|i| (i, i)).collect();
    }
    // cost[i][j]: the least distance of pairing each of the first `i` of `a` with one of the
    // first `j` of `b`, in order.
    let width = m + 1;
    let mut cost = vec![u64::MAX; (n + 1) * width];
    cost[..width].fill(0);
    for i in 1..=n {
        for j in i..=m {
            let skip = cost[i * width + j - 1];
            let (x, y) = (a[i - 1], b[j - 1]);
            let d = if swapped { apart(y, x) } else { apart(x, y) };
            let take = cost[(i - 1) * width + j - 1].saturating_add(d);
            cost[i * width + j] = skip.min(take);
        }
    }
    let mut pairs = Vec::with_capacity(n);
    let (mut i, mut j) = (n, m);
    while i > 0 {
        // Leaving the later of `b` unpaired on a tie pairs the earlier ones.
        if j > i && cost[i * width + j] == cost[i * width + j - 1] {
            j -= 1;
        } else {
            pairs.push(if swapped {
                (j - 1, i - 1)
            } else {
                (i - 1, j - 1)
            });
            i -= 1;
            j -= 1;
        }
    }
    pairs
}

/// The findings not paired.
fn unpaired(findings: &[Finding], paired: &[bool]) -> Vec<Finding> {
    findings
        .iter()
        .zip(paired)
        .filter(|(_, p)| !**p)
        .map(|(f, _)| f.clone())
        .collect()
}

/// For each finding of `report`, whether `diff` (a comparison with a baseline) counts it as
/// new: the new findings are the report's own, so they are told by where they are.
pub(crate) fn new_marks(report: &Report, diff: &Diff) -> Vec<bool> {
    type At<'a> = (&'static str, &'a str, u32, u32, &'a str);
    fn at(f: &Finding) -> At<'_> {
        (f.rule.code(), &f.path, f.line, f.column, &f.message)
    }
    let mut new: HashMap<At<'_>, usize> = HashMap::new();
    for f in &diff.new_findings {
        *new.entry(at(f)).or_default() += 1;
    }
    report
        .findings
        .iter()
        .map(|f| match new.get_mut(&at(f)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        })
        .collect()
}

/// One skill or agent of a report, for telling moves apart: its kind, name, path and what the
/// report says of it apart from its path and availability.
struct Entry<'a> {
    kind: &'static str,
    name: &'a str,
    path: &'a str,
    content: serde_json::Value,
}

fn entries(r: &Report) -> Vec<Entry<'_>> {
    let content = |v: serde_json::Result<serde_json::Value>| {
        let mut v = v.unwrap_or_default();
        if let Some(m) = v.as_object_mut() {
            m.remove("path");
            m.remove("availability");
        }
        v
    };
    let skills = r.skills.iter().map(|s| Entry {
        kind: "skill",
        name: &s.skill.name,
        path: &s.skill.path,
        content: content(serde_json::to_value(&s.skill)),
    });
    let agents = r.agents.iter().map(|a| Entry {
        kind: "agent",
        name: &a.agent.name,
        path: &a.agent.path,
        content: content(serde_json::to_value(&a.agent)),
    });
    skills.chain(agents).collect()
}

/// The entries of `new` that are entries of `old` moved: a path only in one report each, the
/// same kind and name. Hosts know a skill by its name, so a name that only one entry on each
/// side has left is a move whatever else changed; where several share it, only those whose
/// report entries are the same apart from their path are paired.
fn renames(old: &Report, new: &Report) -> Vec<Renamed> {
    let (before, after) = (entries(old), entries(new));
    let paths = |list: &[Entry<'_>]| -> std::collections::HashSet<(&str, String)> {
        list.iter().map(|e| (e.kind, e.path.to_owned())).collect()
    };
    let (old_paths, new_paths) = (paths(&before), paths(&after));
    let mut gone: BTreeMap<(&str, &str), Vec<&Entry<'_>>> = BTreeMap::new();
    for e in &before {
        if !new_paths.contains(&(e.kind, e.path.to_owned())) {
            gone.entry((e.kind, e.name)).or_default().push(e);
        }
    }
    let mut came: BTreeMap<(&str, &str), Vec<&Entry<'_>>> = BTreeMap::new();
    for e in &after {
        if !old_paths.contains(&(e.kind, e.path.to_owned())) {
            came.entry((e.kind, e.name)).or_default().push(e);
        }
    }
    let mut out = Vec::new();
    for (key, olds) in &gone {
        let Some(news) = came.get(key) else { continue };
        let pairs: Vec<(&Entry<'_>, &Entry<'_>)> = if olds.len() == 1 && news.len() == 1 {
            vec![(olds[0], news[0])]
        } else {
            let mut taken = vec![false; news.len()];
            let mut pairs = Vec::new();
            for o in olds {
                if let Some(i) =
                    (0..news.len()).find(|&i| !taken[i] && news[i].content == o.content)
                {
                    taken[i] = true;
                    pairs.push((*o, news[i]));
                }
            }
            pairs
        };
        out.extend(pairs.into_iter().map(|(o, n)| Renamed {
            kind: key.0.to_owned(),
            name: key.1.to_owned(),
            from: o.path.to_owned(),
            to: n.path.to_owned(),
        }));
    }
    out.sort();
    out
}

/// What an entry needed, as its report entry says: a skill's evaluated `dependencies` and
/// what each source declares (reports before version 3 have only the first), an agent's
/// `tools`.
#[derive(Clone, Copy)]
enum Needs<'a> {
    Skill(&'a Requirements, &'a [crate::model::Declared]),
    Agent(Option<&'a [String]>),
}

impl Needs<'_> {
    /// Every requirement set of a skill.
    fn sets(&self) -> impl Iterator<Item = &Requirements> {
        let (deps, declared) = match self {
            Needs::Skill(r, d) => (Some(*r), *d),
            Needs::Agent(_) => (None, &[][..]),
        };
        deps.into_iter()
            .chain(declared.iter().map(|d| &d.requirements))
    }

    /// Does the entry require `name` (as an `all` entry or inside an `any` group)?
    fn name(&self, name: &str) -> bool {
        match self {
            Needs::Skill(..) => self.sets().any(|r| {
                crate::model::DepKind::ALL.iter().any(|k| {
                    let g = r.group(*k);
                    g.all.iter().any(|n| n == name) || g.any.iter().flatten().any(|n| n == name)
                })
            }),
            Needs::Agent(tools) => tools.is_some_and(|t| t.iter().any(|n| n == name)),
        }
    }

    /// Does the entry have exactly this `any` group?
    fn group(&self, group: &[String]) -> bool {
        self.sets().any(|r| {
            crate::model::DepKind::ALL
                .iter()
                .any(|k| r.group(*k).any.as_deref() == Some(group))
        })
    }

    /// The kind of a required name: the kind it is listed as (other than a tool), a server
    /// for `server/*`, else a tool.
    fn kind(&self, name: &str) -> CauseKind {
        for r in self.sets() {
            for kind in &crate::model::DepKind::ALL[1..] {
                let g = r.group(*kind);
                if g.all
                    .iter()
                    .chain(g.any.iter().flatten())
                    .any(|n| n == name)
                {
                    return CauseKind::of(*kind);
                }
            }
        }
        if name.ends_with("/*") {
            CauseKind::Server
        } else {
            CauseKind::Tool
        }
    }
}

/// One entry on one profile in one report.
struct Seen<'a> {
    name: &'a str,
    availability: &'a Availability,
    needs: Needs<'a>,
}

type EntryKey<'a> = (&'static str, &'a str, &'a str);

/// Every entry of `r` on every profile, by kind, path and profile.
fn seen(r: &Report) -> BTreeMap<EntryKey<'_>, Seen<'_>> {
    let mut m = BTreeMap::new();
    for s in &r.skills {
        for (p, a) in &s.availability {
            let seen = Seen {
                name: &s.skill.name,
                availability: a,
                needs: Needs::Skill(s.skill.dependencies(), &s.skill.requirements),
            };
            m.insert(("skill", s.skill.path.as_str(), p.as_str()), seen);
        }
    }
    for a in &r.agents {
        for (p, av) in &a.availability {
            let seen = Seen {
                name: &a.agent.name,
                availability: av,
                needs: Needs::Agent(a.agent.tools.as_deref()),
            };
            m.insert(("agent", a.agent.path.as_str(), p.as_str()), seen);
        }
    }
    m
}

/// Why an entry's status went from `old` to `new`: the names (and `any` groups) missing on one
/// side and not the other. Statuses are not looked at, so any status with these lists works.
/// A name the other side's profile could not judge (its `not_judged` list) was neither there
/// nor missing: judging it is the change.
fn causes(old: &Seen<'_>, new: &Seen<'_>) -> Vec<Cause> {
    let (was, now) = (old.availability, new.availability);
    let unjudged = |a: &'_ Availability| -> HashSet<String> {
        a.not_judged
            .iter()
            .flat_map(|u| u.names.iter().cloned())
            .collect()
    };
    let (was_unjudged, now_unjudged) = (unjudged(was), unjudged(now));
    let any_of = |g: &[String], set: &HashSet<String>| g.iter().any(|n| set.contains(n));
    // `Tool` is what a name is when neither report says otherwise; it sorts first.
    let kind = |n: &str| new.needs.kind(n).max(old.needs.kind(n));
    let single = |change, n: &String| Cause {
        change,
        kind: kind(n),
        name: Some(n.clone()),
        any: Vec::new(),
    };
    let group = |change, g: &Vec<String>| Cause {
        change,
        kind: g.first().map_or(CauseKind::Tool, |n| kind(n)),
        name: None,
        any: g.clone(),
    };
    let mut out = Vec::new();
    // Newly missing: the profile dropped it, or the entry newly needs it.
    for n in now.missing.iter().filter(|n| !was.missing.contains(n)) {
        let change = match (old.needs.name(n), new.needs.name(n)) {
            _ if was_unjudged.contains(n) => CauseChange::Judged,
            (true, true) => CauseChange::Removed,
            (false, true) => CauseChange::Required,
            _ => CauseChange::Missing,
        };
        out.push(single(change, n));
    }
    for g in now.unmet_any.iter().filter(|g| !was.unmet_any.contains(g)) {
        let change = match (old.needs.group(g), new.needs.group(g)) {
            _ if any_of(g, &was_unjudged) => CauseChange::Judged,
            (true, true) => CauseChange::Removed,
            (false, true) => CauseChange::Required,
            _ => CauseChange::Missing,
        };
        out.push(group(change, g));
    }
    // Newly available: the profile offers it now, or the entry stopped needing it.
    for n in was.missing.iter().filter(|n| !now.missing.contains(n)) {
        let change = match (old.needs.name(n), new.needs.name(n)) {
            _ if now_unjudged.contains(n) => CauseChange::Unjudged,
            (_, true) => CauseChange::Added,
            (true, false) => CauseChange::Unrequired,
            _ => CauseChange::Met,
        };
        out.push(single(change, n));
    }
    for g in was.unmet_any.iter().filter(|g| !now.unmet_any.contains(g)) {
        let change = match (old.needs.group(g), new.needs.group(g)) {
            _ if any_of(g, &now_unjudged) => CauseChange::Unjudged,
            (_, true) => CauseChange::Added,
            (true, false) => CauseChange::Unrequired,
            _ => CauseChange::Met,
        };
        out.push(group(change, g));
    }
    out
}

/// Everything that changed from `old` to `new`, two saved reports: what the new one's roots
/// leave out is not compared.
pub(crate) fn diff(old: &Report, new: &Report) -> Diff {
    compare(old, new, None)
}

/// What changed since `old`, the `--baseline` of the run of `opts` whose report is `new`: the
/// rules it does not report and the files it does not audit are not compared either.
pub(crate) fn baseline(old: &Report, new: &Report, opts: &AuditOptions) -> Diff {
    compare(old, new, Some(opts))
}

/// The part of display path `path` under display path `root` (`""` for the root itself).
/// Paths under the working folder are shown relative to it, and the others absolute, so `.`
/// holds every relative path.
fn under<'p>(path: &'p str, root: &str) -> Option<&'p str> {
    if root == "." {
        return (!std::path::Path::new(path).is_absolute()).then_some(path);
    }
    if path == root {
        return Some("");
    }
    let rest = path.strip_prefix(root)?;
    if root.ends_with('/') {
        return Some(rest);
    }
    rest.strip_prefix('/')
}

/// What the run of a report looked at, as far as can be told: files under its roots, and,
/// for this run (`--baseline`), the rules it reports and the paths it excluded. A saved report
/// records neither of those.
struct Scope<'a> {
    roots: &'a [String],
    /// Paths the report has an entry or a finding on: audited whatever the roots say (the
    /// skills an MCP server serves are under none).
    known: HashSet<&'a str>,
    run: Option<Run<'a>>,
}

/// This run's options, and what they turn off.
struct Run<'a> {
    opts: &'a AuditOptions,
    /// Each of its roots as its report shows it, in the order of `opts.roots`.
    shown_roots: Vec<String>,
    excludes: crate::discover::Excludes,
    /// Codes of the rules the run does not report.
    off: HashSet<&'static str>,
    /// Codes of the policy rules the run declares; another policy rule is not reported.
    policies: HashSet<&'static str>,
}

impl<'a> Scope<'a> {
    fn of(r: &'a Report, opts: Option<&'a AuditOptions>) -> Scope<'a> {
        let known = r
            .skills
            .iter()
            .map(|s| s.skill.path.as_str())
            .chain(r.agents.iter().map(|a| a.agent.path.as_str()))
            .chain(r.findings.iter().map(|f| f.path.as_str()))
            .collect();
        let run = opts.map(|opts| Run {
            opts,
            shown_roots: {
                let view = opts.view();
                (opts.roots.iter())
                    .map(|root| crate::paths::display_path(root, &view))
                    .collect()
            },
            // The run compiled the same patterns already, so this cannot fail; were it to,
            // nothing counts as excluded and findings there count as fixed, as before.
            excludes: crate::discover::Excludes::new(
                &opts.excludes,
                &opts.config_excludes,
                &opts.config_dir,
                &opts.roots,
                &opts.cwd,
            )
            .unwrap_or_default(),
            off: opts
                .settings
                .severities
                .iter()
                .filter(|(_, s)| s.is_none())
                .map(|(r, _)| r.code())
                .collect(),
            policies: opts
                .settings
                .policies
                .rules
                .iter()
                .map(|r| r.code())
                .collect(),
        });
        Scope {
            roots: &r.roots,
            known,
            run,
        }
    }

    /// Could the run have a finding of `rule`? A saved report does not say which rules its
    /// run reported, so there every rule could.
    fn reports(&self, rule: Rule) -> bool {
        let Some(run) = &self.run else { return true };
        // Policy rules are compared by code: one read from a report is another value than
        // the run's own of the same ID.
        let declared = rule.is_builtin() || run.policies.contains(rule.code());
        declared && !run.off.contains(rule.code())
    }

    /// Did the run audit the file at display path `path`?
    fn audits(&self, path: &str) -> bool {
        if self.known.contains(path) {
            return true;
        }
        let Some(run) = &self.run else {
            return self.roots.iter().any(|r| under(path, r).is_some());
        };
        let opts = run.opts;
        opts.roots
            .iter()
            .zip(&run.shown_roots)
            .any(|(root, shown)| {
                let Some(rest) = under(path, shown) else {
                    return false;
                };
                // The walk does not enter a folder an exclude matches, so each folder on the way
                // down is matched as the walk sees it: the root as given, then the names below.
                let mut walked = root.clone();
                !std::path::Path::new(rest).components().any(|c| {
                    walked.push(c);
                    run.excludes.skips(&walked, &opts.roots)
                })
            })
    }
}

/// Each skill and agent of `r`: kind, name and path.
fn listed(r: &Report) -> impl Iterator<Item = (&'static str, &str, &str)> {
    let skills = r
        .skills
        .iter()
        .map(|s| ("skill", s.skill.name.as_str(), s.skill.path.as_str()));
    let agents = r
        .agents
        .iter()
        .map(|a| ("agent", a.agent.name.as_str(), a.agent.path.as_str()));
    skills.chain(agents)
}

fn entry_ref((kind, name, path): (&str, &str, &str)) -> EntryRef {
    EntryRef {
        kind: kind.to_owned(),
        name: name.to_owned(),
        path: path.to_owned(),
    }
}

/// `rest`, a path under display path `root` (as [`under`] gives it), as a path again.
fn join(root: &str, rest: &str) -> String {
    if rest.is_empty() {
        root.to_owned()
    } else if root == "." {
        rest.to_owned()
    } else if root.ends_with('/') {
        format!("{root}{rest}")
    } else {
        format!("{root}/{rest}")
    }
}

/// The paths under display path `from` taken to be under `to` instead.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Shift {
    from: String,
    to: String,
}

impl Shift {
    fn apply(&self, path: &str) -> Option<String> {
        if super::merge::served(path) {
            return None;
        }
        under(path, &self.from).map(|rest| join(&self.to, rest))
    }
}

/// The display paths a report has an entry or a finding on, but those of served skills:
/// URIs, the same wherever a run was started.
fn known(r: &Report) -> HashSet<&str> {
    r.skills
        .iter()
        .map(|s| s.skill.path.as_str())
        .chain(r.agents.iter().map(|a| a.agent.path.as_str()))
        .chain(r.findings.iter().map(|f| f.path.as_str()))
        .filter(|p| !super::merge::served(p))
        .collect()
}

/// The paths of a report, as evidence of where its files are.
struct Paths<'a> {
    /// Those of its skills and agents: a report lists each one, findings or not.
    entries: HashSet<&'a str>,
    /// Those of [`known`].
    known: HashSet<&'a str>,
}

impl<'a> Paths<'a> {
    fn of(r: &'a Report) -> Paths<'a> {
        let known = known(r);
        let entries = listed(r)
            .map(|(_, _, p)| p)
            .filter(|p| known.contains(p))
            .collect();
        Paths { entries, known }
    }
}

/// Of `candidates`, the shifts the reports bear out, judged on the skills and agents under
/// their `from` and `to` (on all their paths when the old report has no entry under `from`):
/// an entry stays in a report while its findings come and go. A shift is borne out when it
/// takes more of the old paths onto paths of the new report than stay where they were, and
/// those it takes are most of the smaller side: most of the old ones (entries were added
/// there) or most of the new ones (entries were removed). Unrelated libraries share a skill
/// or two, copied: a shift says the files of `from` it does not find were removed, so their
/// findings were fixed, and a name or two in common does not. One move does not make its
/// folder's other files move with it: they are still there, or, where `seen` says the new
/// run did not look, may be. Each `from` once, the best borne out first; sorted.
fn borne_out(
    candidates: Vec<Shift>,
    old: &Paths<'_>,
    new: &Paths<'_>,
    seen: impl Fn(&str) -> bool,
) -> Vec<Shift> {
    let mut scored: Vec<(usize, Shift)> = candidates
        .into_iter()
        .filter(|s| s.from != s.to)
        .filter_map(|s| {
            let entries = old.entries.iter().any(|p| under(p, &s.from).is_some());
            let (old, new) = if entries {
                (&old.entries, &new.entries)
            } else {
                (&old.known, &new.known)
            };
            let (mut moved, mut stayed, mut before) = (0, 0, 0);
            for p in old {
                let Some(to) = s.apply(p) else { continue };
                before += 1;
                moved += usize::from(new.contains(to.as_str()));
                stayed += usize::from(new.contains(p) || !seen(p));
            }
            let after = new.iter().filter(|p| under(p, &s.to).is_some()).count();
            (moved > stayed && moved * 2 > before.min(after)).then_some((moved, s))
        })
        .collect();
    scored.sort_by(|(a, x), (b, y)| b.cmp(a).then_with(|| x.cmp(y)));
    let mut out: Vec<Shift> = Vec::new();
    for (_, s) in scored {
        if !out.iter().any(|o| o.from == s.from) {
            out.push(s);
        }
    }
    out.sort();
    out
}

/// The shift of `shifts` for `path`: the one of the longest `from` holding it.
fn shift_of<'s>(shifts: &'s [Shift], path: &str) -> Option<&'s Shift> {
    shifts
        .iter()
        .filter(|s| under(path, &s.from).is_some())
        .max_by_key(|s| if s.from == "." { 0 } else { s.from.len() })
}

/// `old` in the terms of `new`: each root of `old` that is one of `new` under another
/// display path is given the new one, with the paths under it and those its messages quote.
/// That is the same library audited from another working folder (`lib` then
/// `/home/me/lib`, or `.` from inside it): a report records its roots as shown from where
/// its run started, not that folder, so a pair of roots is taken for one when most of the
/// skills and agents under the old one are at the same place under the new one (see
/// [`borne_out`]).
fn rebase<'a>(old: &'a Report, new: &Report) -> Cow<'a, Report> {
    let fresh: Vec<&String> = new
        .roots
        .iter()
        .filter(|r| !old.roots.contains(r))
        .collect();
    let candidates: Vec<Shift> = (old.roots.iter())
        .filter(|r| !new.roots.contains(r))
        .flat_map(|from| {
            fresh.iter().map(move |to| Shift {
                from: from.clone(),
                to: (*to).clone(),
            })
        })
        .collect();
    if candidates.is_empty() {
        return Cow::Borrowed(old);
    }
    let shifts = borne_out(candidates, &Paths::of(old), &Paths::of(new), |_| true);
    if shifts.is_empty() {
        return Cow::Borrowed(old);
    }
    let mut r = old.clone();
    let to = |path: &str| shift_of(&shifts, path).and_then(|s| s.apply(path));
    super::merge::repath(&mut r, to);
    for root in &mut r.roots {
        if let Some(s) = shifts.iter().find(|s| s.from == *root) {
            root.clone_from(&s.to);
        }
    }
    Cow::Owned(r)
}

/// Where the files of the old report are in the new one, once entries moved: a moved entry
/// where it went, and other files (a skill's references, a plugin's manifest) with the
/// folder their entries moved with, when the reports bear that out. Each entry moves on its
/// own: a file the new report has at its old path is still there.
struct Moved<'a> {
    entries: HashMap<&'a str, &'a str>,
    new_known: HashSet<&'a str>,
    folders: Vec<Shift>,
}

impl<'a> Moved<'a> {
    fn of(
        renamed: &'a [Renamed],
        old: &'a Report,
        new: &'a Report,
        scope: &Scope<'_>,
    ) -> Moved<'a> {
        let new_paths = Paths::of(new);
        // The folders each entry moved with: a skill's own folder, and its path less the
        // names it ends with in both places (a plugin's folder that moved, say).
        let mut candidates: Vec<Shift> = Vec::new();
        for r in renamed {
            let (from, to): (Vec<&str>, Vec<&str>) =
                (r.from.split('/').collect(), r.to.split('/').collect());
            let folder = |parts: &[&str], less: usize| match parts
                [..parts.len().saturating_sub(less)]
                .join("/")
            {
                f if f.is_empty() => ".".to_owned(),
                f => f,
            };
            if r.kind == "skill" {
                candidates.push(Shift {
                    from: folder(&from, 1),
                    to: folder(&to, 1),
                });
            }
            let same = (from.iter().rev().zip(to.iter().rev()))
                .take_while(|(a, b)| a == b)
                .count();
            // A file renamed in its folder moves no other file.
            if same > 0 {
                candidates.push(Shift {
                    from: folder(&from, same),
                    to: folder(&to, same),
                });
            }
        }
        let folders = if candidates.is_empty() {
            Vec::new()
        } else {
            // An entry that moved is not still where it was, seen or not.
            let from: HashSet<&str> = renamed.iter().map(|r| r.from.as_str()).collect();
            borne_out(candidates, &Paths::of(old), &new_paths, |p| {
                scope.audits(p) || from.contains(p)
            })
        };
        Moved {
            entries: renamed
                .iter()
                .map(|r| (r.from.as_str(), r.to.as_str()))
                .collect(),
            new_known: new_paths.known,
            folders,
        }
    }

    /// Where the moved entry at old path `path` is now.
    fn entry<'p>(&self, path: &'p str) -> &'p str
    where
        'a: 'p,
    {
        self.entries.get(path).copied().unwrap_or(path)
    }

    /// Where the file at old path `path` is now, when it moved.
    fn file(&self, path: &str) -> Option<String> {
        if let Some(to) = self.entries.get(path) {
            return Some((*to).to_owned());
        }
        if self.new_known.contains(path) {
            return None;
        }
        shift_of(&self.folders, path).and_then(|s| s.apply(path))
    }

    /// The findings of `old` as they would read where their files are now: their paths, and
    /// the paths their messages quote.
    fn findings(&self, old: &'a Report) -> Cow<'a, [Finding]> {
        if self.entries.is_empty() {
            return Cow::Borrowed(&old.findings);
        }
        let quoted = super::merge::quoted_paths(old);
        let to = |path: &str| self.file(path);
        (old.findings.iter())
            .map(|f| Finding {
                path: to(&f.path).unwrap_or_else(|| f.path.clone()),
                message: super::merge::requote(&f.message, &quoted, to),
                ..f.clone()
            })
            .collect()
    }
}

/// Everything that changed from `old` to `new`; `run`, the options of the run that wrote
/// `new`, when it is this one.
fn compare(old: &Report, new: &Report, run: Option<&AuditOptions>) -> Diff {
    // Paths are compared in the new report's terms: first its roots, then each move.
    let rebased = rebase(old, new);
    let old: &Report = &rebased;
    let (old_scope, new_scope) = (Scope::of(old, None), Scope::of(new, run));
    // A move needs one run to have looked at both places: an entry the new run could not see
    // has not gone, and one the old run could not see has not come. Between folders neither
    // run saw in the other's, one name in common is a copy as likely as a move.
    let renamed: Vec<Renamed> = renames(old, new)
        .into_iter()
        .filter(|r| new_scope.audits(&r.from) || old_scope.audits(&r.to))
        .collect();
    let moved = Moved::of(&renamed, old, new, &new_scope);
    let now_at = |path| moved.entry(path);

    // The old report's entries under the paths they have now. Only a cell both reports have
    // is compared: an entry or a profile in one report only is told once, below.
    let before: BTreeMap<EntryKey<'_>, Seen<'_>> = seen(old)
        .into_iter()
        .map(|((kind, path, profile), s)| ((kind, now_at(path), profile), s))
        .collect();
    let after = seen(new);
    let mut changes = Vec::new();
    for (k, now) in &after {
        let Some(was) = before.get(k) else { continue };
        let (from, to) = (
            was.availability.status.as_str(),
            now.availability.status.as_str(),
        );
        if from == to {
            continue;
        }
        let causes = causes(was, now);
        let reason = if causes.is_empty() {
            now.availability.reason.clone()
        } else {
            None
        };
        changes.push(change(k, now.name, from, to, causes, reason));
    }
    changes.sort();

    // An entry that one run could not have seen (outside its paths, excluded) is neither
    // added nor removed.
    let new_paths: HashSet<(&str, &str)> = listed(new).map(|(k, _, p)| (k, p)).collect();
    let old_paths: HashSet<(&str, &str)> = listed(old).map(|(k, _, p)| (k, now_at(p))).collect();
    let mut removed: Vec<EntryRef> = listed(old)
        .filter(|(k, _, p)| !new_paths.contains(&(*k, now_at(p))) && new_scope.audits(now_at(p)))
        .map(entry_ref)
        .collect();
    let mut added: Vec<EntryRef> = listed(new)
        .filter(|(k, _, p)| !old_paths.contains(&(*k, *p)) && old_scope.audits(p))
        .map(entry_ref)
        .collect();
    removed.sort();
    added.sort();

    let names = |r: &Report| -> Vec<String> { r.profiles.iter().map(|p| p.name.clone()).collect() };
    let (old_names, new_names) = (names(old), names(new));
    let profiles = ProfileNames {
        added: new_names
            .iter()
            .filter(|n| !old_names.contains(n))
            .cloned()
            .collect(),
        dropped: old_names
            .iter()
            .filter(|n| !new_names.contains(n))
            .cloned()
            .collect(),
    };

    let old_now = moved.findings(old);
    let (kept, still) = pair(&new.findings, &old_now);
    // A finding of the new report the old one could not have had (a profile, a rule or a
    // file its run did not judge) is new all the same: nothing vouches for it, and it gates.
    let new_findings = unpaired(&new.findings, &kept);
    // One the new run could not have found again is not fixed: it was not looked for.
    let mut not_compared = NotCompared::default();
    let mut fixed_findings = Vec::new();
    let unpaired_old = (old.findings.iter().zip(old_now.iter())).zip(&still);
    for ((f, now), _) in unpaired_old.filter(|(_, p)| !**p) {
        if !new_scope.reports(f.rule) {
            not_compared.rules += 1;
        } else if !new_scope.audits(&now.path) {
            not_compared.files += 1;
        } else if profiles
            .dropped
            .iter()
            .any(|p| crate::rules::about_profile(f, p))
        {
            not_compared.profiles += 1;
        } else {
            // Where its file is now, as the new findings are: a moved file's fixed findings
            // are told at the path the move gave it.
            fixed_findings.push(now.clone());
        }
    }
    Diff {
        new_findings,
        fixed_findings,
        availability_changes: changes,
        renamed,
        added,
        removed,
        profiles,
        not_compared,
    }
}

fn change(
    k: &EntryKey<'_>,
    name: &str,
    from: &str,
    to: &str,
    causes: Vec<Cause>,
    reason: Option<String>,
) -> AvailabilityChange {
    AvailabilityChange {
        kind: k.0.to_owned(),
        path: k.1.to_owned(),
        name: name.to_owned(),
        profile: k.2.to_owned(),
        from: from.to_owned(),
        to: to.to_owned(),
        causes,
        reason,
    }
}

/// Read a JSON report written by `--format json`; `-` is standard input.
pub(crate) fn load(path: &std::path::Path) -> Result<Report, String> {
    parse(&read_report(path)?, path)
}

/// Whether a report path is `-`, standard input, as `-o -` is standard output.
pub(crate) fn is_stdin(path: &std::path::Path) -> bool {
    path.as_os_str() == "-"
}

/// A report path as messages name it: `standard input` for `-`.
pub(crate) fn shown(path: &std::path::Path) -> std::borrow::Cow<'_, str> {
    if is_stdin(path) {
        "standard input".into()
    } else {
        path.display().to_string().into()
    }
}

/// The text of the report file at `path`, read as the audit reads a file of the tree, or of
/// standard input for `-`.
pub(crate) fn read_report(path: &std::path::Path) -> Result<String, String> {
    use crate::boundary::Refusal;
    // A device or a FIFO (`/dev/zero`) is refused, not read until memory runs out; a report
    // of 100,000 skills is a few hundred MB. Standard input may be a pipe, which states no
    // size: it is read up to the same cap.
    const MAX_REPORT_BYTES: u64 = 2 << 30;
    let cannot = |why: String| format!("{}: cannot read: {why}", shown(path));
    let read = if is_stdin(path) {
        crate::boundary::read_stdin(MAX_REPORT_BYTES)
    } else {
        crate::boundary::read(path, MAX_REPORT_BYTES).map(|c| c.bytes)
    };
    let bytes = match read {
        Ok(bytes) => bytes,
        Err(Refusal::TooLarge(_)) => return Err(cannot("it is larger than 2 GiB".into())),
        Err(Refusal::Special(what)) if is_stdin(path) => {
            return Err(cannot(format!(
                "it is {what}; pipe a report into it, or name the file"
            )));
        }
        Err(e) => return Err(cannot(e.to_string())),
    };
    if bytes.is_empty() && is_stdin(path) {
        return Err(cannot(
            "it is empty; pipe a report into it, or name the file".into(),
        ));
    }
    String::from_utf8(bytes)
        .map_err(|e| cannot(format!("not UTF-8 (byte {})", e.utf8_error().valid_up_to())))
}

/// A JSON report's text, read from `path`.
pub(crate) fn parse(text: &str, path: &std::path::Path) -> Result<Report, String> {
    parse_report(text).map_err(|e| e.message(path))
}

/// Why a text is no report this version reads.
pub(crate) enum NotAReport {
    /// Not JSON, or JSON of another shape.
    Json(serde_json::Error),
    /// A report of a schema version this one does not read.
    Version(u32),
}

impl NotAReport {
    /// What is wrong with the report file at `path`.
    pub(crate) fn message(&self, path: &std::path::Path) -> String {
        match self {
            NotAReport::Json(e) => format!(
                "{}:{}:{}: not a skill-audit JSON report: {e}",
                shown(path),
                e.line(),
                e.column()
            ),
            NotAReport::Version(v) => format!(
                "{}: report schema_version {v} is not supported (expected 1 to {SCHEMA_VERSION})",
                shown(path)
            ),
        }
    }
}

/// The report in `text` (a byte order mark allowed).
pub(crate) fn parse_report(text: &str) -> Result<Report, NotAReport> {
    let text = text
        .strip_prefix(crate::parse::frontmatter::BOM)
        .unwrap_or(text);
    let report: Report = serde_json::from_str(text).map_err(NotAReport::Json)?;
    if !(1..=SCHEMA_VERSION).contains(&report.schema_version) {
        return Err(NotAReport::Version(report.schema_version));
    }
    Ok(report)
}

/// The one-line verdict on a change: what it breaks, what it fixes. `fails`: the run it is
/// part of exits 1 by `--fail-on`, which the mark says first.
pub(crate) fn verdict(d: &Diff, fails: bool) -> String {
    let unavailable: Vec<&AvailabilityChange> = d.newly_unavailable().collect();
    let mut per_profile: BTreeMap<&str, usize> = BTreeMap::new();
    for c in &unavailable {
        *per_profile.entry(c.profile.as_str()).or_default() += 1;
    }
    let mut parts = Vec::new();
    for (p, n) in &per_profile {
        parts.push(format!(
            "makes {n} {} unavailable on {}",
            if *n == 1 { "entry" } else { "entries" },
            crate::diagnostic::quote(p)
        ));
    }
    parts.push(Count(d.new_findings.len(), "new finding").to_string());
    parts.push(format!("{} fixed", d.fixed_findings.len()));
    if !d.renamed.is_empty() {
        parts.push(format!("{} moved", d.renamed.len()));
    }
    for (list, verb) in [(&d.added, "added"), (&d.removed, "removed")] {
        if !list.is_empty() {
            parts.push(format!("{} {verb}", entry_counts(list)));
        }
    }
    for (names, verb) in [
        (&d.profiles.added, "added"),
        (&d.profiles.dropped, "dropped"),
    ] {
        if !names.is_empty() {
            let noun = if names.len() == 1 {
                "profile"
            } else {
                "profiles"
            };
            parts.push(format!(
                "{noun} {} {verb}",
                crate::diagnostic::quoted(names)
            ));
        }
    }
    if d.not_compared.total() > 0 {
        parts.push(format!("{} not compared", d.not_compared.total()));
    }
    let icon = if fails {
        "❌"
    } else if unavailable.is_empty() && d.new_findings.is_empty() {
        "✅"
    } else {
        "⚠️"
    };
    format!("{icon} This change: {}", parts.join(", "))
}

/// Skills and agents counted by kind: "1 skill", "2 skills and 1 agent".
fn entry_counts(list: &[EntryRef]) -> String {
    let parts: Vec<String> = ["skill", "agent"]
        .into_iter()
        .filter_map(|kind| {
            let n = list.iter().filter(|e| e.kind == kind).count();
            (n > 0).then(|| Count(n, kind).to_string())
        })
        .collect();
    parts.join(" and ")
}

/// What the comparison left out, and why, one sentence each, names in backticks: profiles
/// only one report has, and findings of the old report the new run could not have found.
pub(crate) fn notices(d: &Diff) -> Vec<String> {
    let mut out = Vec::new();
    let nc = &d.not_compared;
    // "Profile `a` is only in the old report: its cells …", for each side that has some.
    let only_in = |names: &[String], which: &str, findings: &dyn Fn(&str) -> String| {
        let (noun, be, its) = if names.len() == 1 {
            ("Profile", "is", "its")
        } else {
            ("Profiles", "are", "their")
        };
        (!names.is_empty()).then(|| {
            format!(
                "{noun} {} {be} only in the {which} report: {its} cells are not compared, and {}.",
                crate::diagnostic::quoted(names),
                findings(its)
            )
        })
    };
    out.extend(only_in(&d.profiles.dropped, "old", &|its| {
        let be = if nc.profiles == 1 { "is" } else { "are" };
        format!(
            "{its} {} {be} neither fixed nor new",
            Count(nc.profiles, "finding")
        )
    }));
    out.extend(only_in(&d.profiles.added, "new", &|its| {
        format!("{its} findings count as new")
    }));
    let of_old = |n: usize| {
        let be = if n == 1 { "is" } else { "are" };
        format!("{} of the old report {be}", Count(n, "finding"))
    };
    if nc.rules > 0 {
        out.push(format!(
            "{} of rules the new run does not report, so neither fixed nor new.",
            of_old(nc.rules)
        ));
    }
    if nc.files > 0 {
        let files = if nc.files == 1 { "a file" } else { "files" };
        out.push(format!(
            "{} on {files} the new run did not audit (outside its paths, or excluded), so neither fixed nor new.",
            of_old(nc.files)
        ));
    }
    out
}

/// What changed between two profiles: the names one offers and the other does not, per server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProfileDiff {
    pub old: ProfileSide,
    pub new: ProfileSide,
    /// Names added and removed, over every server and MCP kind (tools, resources, prompts).
    pub added: usize,
    pub removed: usize,
    /// Only servers with a change: first the names without a server (bare tools, and every
    /// resource and prompt, as profiles list those without their server), then a host
    /// profile's own names, then each MCP server by name.
    pub servers: Vec<ServerChanges>,
    /// What changed in the machine keys (`os`, `bins`, ...). Counted apart from `added` and
    /// `removed`, which keep meaning MCP names.
    pub machine: MachineChanges,
}

/// The machine keys that changed, with counts over them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct MachineChanges {
    /// Names added and removed over every machine kind.
    pub added: usize,
    pub removed: usize,
    /// Packages in both profiles whose version changed.
    pub changed: usize,
    /// Only kinds with a change, in report order: `toolsets`, `bins`, `env`, `config`, `os`,
    /// `packages`.
    pub kinds: Vec<MachineKindChanges>,
}

/// What changed in one machine kind. A side that does not describe the kind counts as one
/// listing nothing, so the names of the side that does are all added (or removed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MachineKindChanges {
    /// The profile key.
    pub kind: DepKind,
    pub described: Described,
    pub added: Vec<String>,
    pub removed: Vec<String>,
    /// Packages in both profiles with another version, by name; empty for other kinds.
    pub changed: Vec<VersionChange>,
}

/// Whether each profile describes a machine kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Described {
    pub old: bool,
    pub new: bool,
}

/// A package both profiles list, at two versions.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VersionChange {
    pub name: String,
    pub old: String,
    pub new: String,
}

impl MachineKindChanges {
    /// A change of description, for people (`key` quoting the key): "`bins` is no longer
    /// described: executables are not judged".
    pub(crate) fn description_change(&self, key: impl Fn(&str) -> String) -> Option<String> {
        let (key, nouns) = (key(self.kind.key()), self.kind.nouns());
        match (self.described.old, self.described.new) {
            (true, false) => Some(format!(
                "{key} is no longer described: {nouns} are not judged"
            )),
            (false, true) => Some(format!("{key} is now described: {nouns} are judged")),
            _ => None,
        }
    }
}

impl MachineChanges {
    /// Nothing changed in any machine kind.
    pub(crate) fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }
}

/// One of the two profiles compared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProfileSide {
    pub name: String,
    pub path: String,
    /// The host of a host profile (one with a tool vocabulary).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

/// The changes under one server (or none, or a host).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ServerChanges {
    /// The MCP server of `server/tool` names; `null` for the others.
    pub server: Option<String>,
    /// The host whose own names these are, for host profiles.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    pub tools: NameChanges,
    pub resources: NameChanges,
    pub prompts: NameChanges,
}

/// Names (and patterns) one profile lists and the other does not, sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct NameChanges {
    pub added: Vec<String>,
    pub removed: Vec<String>,
}

impl ServerChanges {
    /// The three kinds with their singular nouns, in report order.
    pub(crate) fn kinds(&self) -> [(&'static str, &NameChanges); 3] {
        [
            ("tool", &self.tools),
            ("resource", &self.resources),
            ("prompt", &self.prompts),
        ]
    }

    /// What the group is called: `no server`, `host vscode`, `server kusto`.
    pub(crate) fn label(&self) -> String {
        match (&self.server, &self.host) {
            (Some(s), _) => format!("server {s}"),
            (None, Some(h)) => format!("host {h}"),
            (None, None) => "no server".to_owned(),
        }
    }
}

/// Where a name is grouped. The derived order is the report order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Group {
    TopLevel,
    Host(String),
    Server(String),
}

/// The group of a tool of a profile with vocabulary `vocab`: its server for `server/tool`,
/// except a host's own names (bare, a tool set's `set/tool`, or any name of a host profile
/// that lists no servers), which go with the host.
fn tool_group(tool: &str, vocab: Option<&Vocabulary>) -> Group {
    let server = tool
        .split_once('/')
        .map(|(s, _)| s)
        .filter(|s| !s.is_empty() && !s.contains(['*', '?', '[']));
    match (server, vocab) {
        (Some(s), Some(v)) if v.has_servers && !v.toolsets.contains_key(s) => {
            Group::Server(s.to_owned())
        }
        (Some(s), None) => Group::Server(s.to_owned()),
        (_, Some(v)) => Group::Host(v.host.clone()),
        (None, None) => Group::TopLevel,
    }
}

/// The group of a name of the `tools` list (`tools`) or of another list.
fn group(name: &str, tools: bool, vocab: Option<&Vocabulary>) -> Group {
    if tools {
        return tool_group(name, vocab);
    }
    vocab.map_or(Group::TopLevel, |v| Group::Host(v.host.clone()))
}

/// The names of `a` not in `b`, sorted.
fn only_in<'a>(a: &'a NameSet, b: &NameSet) -> Vec<&'a str> {
    let b: foldhash::HashSet<&str> = b.names().collect();
    let mut names: Vec<&str> = a.names().filter(|n| !b.contains(n)).collect();
    names.sort_unstable();
    names
}

/// What `new` offers that `old` does not, and the reverse. Names are compared as the profiles
/// store them: tools in their canonical `server/tool` spelling, globs as written.
pub(crate) fn profiles(old: &Profile, new: &Profile) -> ProfileDiff {
    let side = |p: &Profile| ProfileSide {
        name: p.name.clone(),
        path: p.path.clone(),
        host: p.vocabulary.as_ref().map(|v| v.host.clone()),
    };
    let (ov, nv) = (old.vocabulary.as_ref(), new.vocabulary.as_ref());
    let mut groups: BTreeMap<Group, ServerChanges> = BTreeMap::new();
    let lists = [
        (&old.tools, &new.tools),
        (&old.resources, &new.resources),
        (&old.prompts, &new.prompts),
    ];
    let (mut added, mut removed) = (0, 0);
    for (i, (o, n)) in lists.into_iter().enumerate() {
        let gone = only_in(o, n);
        let new_names = only_in(n, o);
        removed += gone.len();
        added += new_names.len();
        for (list, is_added, vocab) in [(gone, false, ov), (new_names, true, nv)] {
            for name in list {
                let g = group(name, i == 0, vocab);
                let entry = groups.entry(g.clone()).or_insert_with(|| {
                    let (server, host) = match g {
                        Group::TopLevel => (None, None),
                        Group::Host(h) => (None, Some(h)),
                        Group::Server(s) => (Some(s), None),
                    };
                    ServerChanges {
                        server,
                        host,
                        tools: NameChanges::default(),
                        resources: NameChanges::default(),
                        prompts: NameChanges::default(),
                    }
                });
                let changes = match i {
                    0 => &mut entry.tools,
                    1 => &mut entry.resources,
                    _ => &mut entry.prompts,
                };
                let to = if is_added {
                    &mut changes.added
                } else {
                    &mut changes.removed
                };
                to.push(name.to_owned());
            }
        }
    }
    // A group exists only once a name was put in it.
    ProfileDiff {
        old: side(old),
        new: side(new),
        added,
        removed,
        servers: groups.into_values().collect(),
        machine: machine(&old.machine, &new.machine),
    }
}

/// The names of machine `kind` that `m` describes (versions aside), sorted; `None` when it
/// does not describe the kind.
fn machine_names(m: &Machine, kind: DepKind) -> Option<Vec<&str>> {
    match kind {
        DepKind::Packages => m
            .packages
            .as_ref()
            .map(|p| p.keys().map(String::as_str).collect()),
        _ => m
            .names(kind)
            .map(|n| n.iter().map(String::as_str).collect()),
    }
}

/// What changed from machine `old` to `new`, kind by kind in report order.
fn machine(old: &Machine, new: &Machine) -> MachineChanges {
    let mut out = MachineChanges::default();
    for kind in DepKind::ALL.into_iter().filter(|k| k.is_machine()) {
        let (o, n) = (machine_names(old, kind), machine_names(new, kind));
        let described = Described {
            old: o.is_some(),
            new: n.is_some(),
        };
        let (o, n) = (o.unwrap_or_default(), n.unwrap_or_default());
        // Both lists come sorted from their sets, and so stay sorted when filtered.
        let only = |a: &[&str], b: &[&str]| -> Vec<String> {
            a.iter()
                .filter(|x| b.binary_search(x).is_err())
                .map(|x| (*x).to_owned())
                .collect()
        };
        let changed = match (&old.packages, &new.packages) {
            (Some(o), Some(n)) if kind == DepKind::Packages => o
                .iter()
                .filter_map(|(name, was)| {
                    let now = n.get(name)?;
                    (now != was).then(|| VersionChange {
                        name: name.clone(),
                        old: was.clone(),
                        new: now.clone(),
                    })
                })
                .collect(),
            _ => Vec::new(),
        };
        let k = MachineKindChanges {
            kind,
            described,
            added: only(&n, &o),
            removed: only(&o, &n),
            changed,
        };
        if k.added.is_empty()
            && k.removed.is_empty()
            && k.changed.is_empty()
            && described.old == described.new
        {
            continue;
        }
        out.added += k.added.len();
        out.removed += k.removed.len();
        out.changed += k.changed.len();
        out.kinds.push(k);
    }
    out
}

/// `n` of a kind's noun: "1 executable", "2 OSes".
fn count(n: usize, kind: DepKind) -> String {
    let noun = if n == 1 { kind.noun() } else { kind.nouns() };
    format!("{n} {noun}")
}

/// Counts per kind for a verdict, MCP kinds then machine kinds: "2 tools, 1 executable".
fn per_kind(
    d: &ProfileDiff,
    pick: impl Fn(&NameChanges) -> usize,
    machine: impl Fn(&MachineKindChanges) -> usize,
) -> String {
    let mut parts = Vec::new();
    for (i, noun) in ["tool", "resource", "prompt"].into_iter().enumerate() {
        let n: usize = d.servers.iter().map(|g| pick(g.kinds()[i].1)).sum();
        if n > 0 {
            parts.push(Count(n, noun).to_string());
        }
    }
    for k in &d.machine.kinds {
        let n = machine(k);
        if n > 0 {
            parts.push(count(n, k.kind));
        }
    }
    parts.join(", ")
}

/// The one-line verdict on a profile change: what it takes away, what it adds, what it
/// changes. Anything but additions to what both sides describe is a warning: a removal or
/// another version can make a skill unavailable, and so can a kind newly described, while a
/// kind no longer described stops being judged.
pub(crate) fn profile_verdict(d: &ProfileDiff) -> String {
    let m = &d.machine;
    if d.added == 0 && d.removed == 0 && m.is_empty() {
        return "✅ No change: both profiles offer the same tools, resources and prompts".into();
    }
    let mut parts = Vec::new();
    if d.removed + m.removed > 0 {
        let what = per_kind(d, |c| c.removed.len(), |k| k.removed.len());
        parts.push(format!("removes {what}"));
    }
    if d.added + m.added > 0 {
        let what = per_kind(d, |c| c.added.len(), |k| k.added.len());
        parts.push(format!("adds {what}"));
    }
    if m.changed > 0 {
        parts.push(format!(
            "changes the version of {}",
            count(m.changed, DepKind::Packages)
        ));
    }
    let (mut stops, mut starts) = (Vec::new(), Vec::new());
    for k in &m.kinds {
        match (k.described.old, k.described.new) {
            (true, false) => stops.push(format!("`{}`", k.kind.key())),
            (false, true) => starts.push(format!("`{}`", k.kind.key())),
            _ => {}
        }
    }
    if !stops.is_empty() {
        parts.push(format!("no longer describes {}", stops.join(", ")));
    }
    if !starts.is_empty() {
        parts.push(format!("now describes {}", starts.join(", ")));
    }
    let warn = d.removed + m.removed + m.changed > 0 || !stops.is_empty() || !starts.is_empty();
    let icon = if warn { "⚠️" } else { "✅" };
    format!("{icon} The new profile {}", parts.join("; "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    fn f(rule: Rule, path: &str, line: u32, msg: &str) -> Finding {
        Finding::new(rule, path, crate::diagnostic::Pos::new(line, 1), msg)
    }

    /// A finding on a line with this text.
    fn found(rule: Rule, path: &str, line: u32, text: &str, msg: &str) -> Finding {
        Finding {
            fingerprint: Some(crate::diagnostic::fingerprint(text)),
            ..f(rule, path, line, msg)
        }
    }

    /// The findings of `a` that `b` lacks.
    fn minus(a: &[Finding], b: &[Finding]) -> Vec<Finding> {
        unpaired(a, &pair(a, b).0)
    }

    #[test]
    fn a_finding_whose_line_moved_is_the_same_finding() {
        let old = [found(Rule::UnknownKey, "a", 3, "colour: red", "x")];
        let new = [found(Rule::UnknownKey, "a", 7, "  colour:   red", "x")];
        assert!(minus(&new, &old).is_empty() && minus(&old, &new).is_empty());
    }

    #[test]
    fn of_findings_alike_the_new_one_is_on_the_new_line() {
        // A second `x` was written above the first: the one at line 2 is new, not line 10.
        let old = [found(Rule::UnknownKey, "a", 8, "colour: red", "x")];
        let new = [
            found(Rule::UnknownKey, "a", 2, "colour: blue", "x"),
            found(Rule::UnknownKey, "a", 10, "colour: red", "x"),
        ];
        assert_eq!(minus(&new, &old), [new[0].clone()]);
        assert!(minus(&old, &new).is_empty());
    }

    #[test]
    fn of_copies_of_one_line_the_added_one_is_new_and_the_edited_one_fixed() {
        let at = |line| {
            let text = "See references/missing.md for more.";
            found(Rule::BrokenReference, "a", line, text, "missing")
        };
        // Lines 9 and 15; a third copy written at line 7 pushes them to 10 and 16.
        let old = [at(9), at(15)];
        let new = [at(7), at(10), at(16)];
        assert_eq!(minus(&new, &old), [new[0].clone()]);
        assert!(minus(&old, &new).is_empty());
        // Line 9 edited away: the finding left is the one at line 15.
        assert_eq!(minus(&old, &[at(15)]), [old[0].clone()]);
    }

    #[test]
    fn copies_of_a_line_pair_where_the_lines_around_them_moved() {
        let at = |line, text: &str, msg: &str| found(Rule::BrokenReference, "a", line, text, msg);
        let copy = |line| at(line, "See missing.md.", "missing");
        // Four lines written at line 7, one a copy: `a.md` and `b.md` tell that the old
        // copies at 9 and 15 are now at 13 and 19.
        let old = [at(7, "a.md", "a"), copy(9), at(13, "b.md", "b"), copy(15)];
        let new = [
            copy(7),
            at(11, "a.md", "a"),
            copy(13),
            at(17, "b.md", "b"),
            copy(19),
        ];
        assert_eq!(minus(&new, &old), [new[0].clone()]);
        assert!(minus(&old, &new).is_empty());
    }

    #[test]
    fn a_line_moved_far_does_not_move_the_copies_and_a_copy_is_pushed_down() {
        let at = |line, text: &str, msg: &str| found(Rule::BrokenReference, "a", line, text, msg);
        let copy = |line| at(line, "See missing.md.", "missing");
        // `u.md` cut from line 6 and pasted at the end, the copy at line 11 deleted: the copy
        // left is the one of line 16, not of line 11 moved as far as `u.md`.
        let old = [at(6, "u.md", "u"), copy(11), copy(16)];
        let new = [copy(14), at(28, "u.md", "u")];
        assert_eq!(minus(&old, &new), [old[1].clone()]);
        // A copy written at line 17 pushes the one of line 18 to 19: 17 is the new one.
        let old = [copy(9), copy(13), copy(18)];
        let new = [copy(9), copy(13), copy(17), copy(19)];
        assert_eq!(minus(&new, &old), [new[2].clone()]);
    }

    #[test]
    fn nearest_keeps_order_and_pairs_the_first_on_a_tie() {
        assert_eq!(nearest(&[10, 16], &[7, 10, 16]), [(1, 2), (0, 1)]);
        assert_eq!(nearest(&[7, 10, 16], &[10, 16]), [(2, 1), (1, 0)]);
        assert_eq!(nearest(&[10], &[5, 15]), [(0, 0)]);
        assert_eq!(nearest(&[1, 2], &[8, 9]), [(0, 0), (1, 1)]);
        assert!(nearest(&[], &[3]).is_empty());
    }

    #[test]
    fn an_edited_line_keeps_its_findings_and_another_problem_there_is_new() {
        // A fix renamed one tool of the list; the other tool's finding stays.
        let old = [
            found(
                Rule::UnknownTool,
                "a",
                4,
                "tools: [old, zzz]",
                "`old` is renamed",
            ),
            found(
                Rule::UnknownTool,
                "a",
                4,
                "tools: [old, zzz]",
                "`zzz` is unknown",
            ),
        ];
        let new = [found(
            Rule::UnknownTool,
            "a",
            4,
            "tools: [new, zzz]",
            "`zzz` is unknown",
        )];
        assert!(minus(&new, &old).is_empty());
        assert_eq!(minus(&old, &new), [old[0].clone()]);
        // The same line, the same rule, another name: another problem.
        let other = [found(
            Rule::UnknownTool,
            "a",
            4,
            "tools: [old, zzz]",
            "`zzz` is renamed",
        )];
        assert_eq!(minus(&other, &old[..1]), other);
        // The same names in other words (a chat mode judged as an agent), or in another order
        // (a list of paths re-sorted by a move): the same problem.
        let reworded = [found(
            Rule::UnknownTool,
            "a",
            4,
            "tools: [old, zzz]",
            "`old` is not a tool this agent's hosts know",
        )];
        assert!(minus(&reworded, &old[..1]).is_empty());
        let also = |m: &str| found(Rule::DuplicateSkillName, "b", 2, "name: x", m);
        let (before, after) = (also("also in `a`, `c`"), also("also in `c`, `a`"));
        assert!(minus(&[after], &[before]).is_empty());
    }

    #[test]
    fn numbers_in_a_message_are_masked_in_names_only_when_asked() {
        let m = "`SKILL.md` has 1,025 lines (from `SKILL.md:235`), `gpt-4` 2";
        assert_eq!(
            without_numbers(m, true),
            "`SKILL.md` has # lines (from `SKILL.md:#`), `gpt-#` #"
        );
        assert_eq!(
            without_numbers(m, false),
            "`SKILL.md` has # lines (from `SKILL.md:235`), `gpt-4` #"
        );
        assert_eq!(without_numbers("a, 1, 2", false), "a, #, #");
    }

    #[test]
    fn a_number_that_changed_with_the_lines_is_the_same_finding() {
        // The line moved, and the message names it.
        let old = [found(
            Rule::UnknownKey,
            "a",
            235,
            "fetch it",
            "missing `fetch` (inferred from `SKILL.md:235`)",
        )];
        let new = [found(
            Rule::UnknownKey,
            "a",
            237,
            "fetch it",
            "missing `fetch` (inferred from `SKILL.md:237`)",
        )];
        assert!(minus(&new, &old).is_empty() && minus(&old, &new).is_empty());
        // A count in the prose changed, and the line it points at is another one.
        let old = [found(Rule::BodyTooLong, "a", 501, "x", "has 569 lines")];
        let new = [found(Rule::BodyTooLong, "a", 501, "y", "has 571 lines")];
        assert!(minus(&new, &old).is_empty() && minus(&old, &new).is_empty());
        // A number in a name on an edited line is another name.
        let old = [found(
            Rule::UnknownKey,
            "a",
            5,
            "model: gpt-4",
            "`gpt-4` is unknown",
        )];
        let new = [found(
            Rule::UnknownKey,
            "a",
            5,
            "model: gpt-5",
            "`gpt-5` is unknown",
        )];
        assert_eq!(minus(&new, &old), new);
    }

    #[test]
    fn findings_without_fingerprints_match_by_message_and_count_duplicates() {
        // A report written before fingerprints, against one with them.
        let old = [
            f(Rule::UnknownKey, "a", 3, "x"),
            f(Rule::UnknownKey, "a", 9, "x"),
            f(Rule::BrokenLink, "b", 1, "y"),
        ];
        let new = [
            found(Rule::UnknownKey, "a", 5, "colour: red", "x"),
            found(Rule::NameMissing, "c", 1, "---", "z"),
        ];
        assert_eq!(
            minus(&old, &new).len(),
            2,
            "one duplicate and the broken link are fixed"
        );
        assert_eq!(minus(&new, &old), [new[1].clone()]);
    }

    #[test]
    fn a_path_is_under_a_root_by_whole_names() {
        assert_eq!(
            under("lib/skills/a/SKILL.md", "lib"),
            Some("skills/a/SKILL.md")
        );
        assert_eq!(under("lib", "lib"), Some(""));
        assert_eq!(under("library/a/SKILL.md", "lib"), None);
        assert_eq!(under("skills/a/SKILL.md", "."), Some("skills/a/SKILL.md"));
        #[cfg(unix)]
        assert_eq!(under("/elsewhere/a/SKILL.md", "."), None);
    }

    #[test]
    fn a_finding_is_about_the_profile_it_is_judged_on() {
        let sa402 = f(
            Rule::Unavailable,
            "a",
            1,
            "skill unavailable on profile `staging`: missing tool `prod`",
        );
        assert!(
            crate::rules::about_profile(&sa402, "staging")
                && !crate::rules::about_profile(&sa402, "prod")
        );
        let sa701 = f(
            Rule::RenamedTool,
            "a",
            1,
            "`codebase` has been renamed on profile `staging`; use `search/codebase`",
        );
        assert!(
            crate::rules::about_profile(&sa701, "staging")
                && !crate::rules::about_profile(&sa701, "codebase")
        );
        // Another rule is about no profile, whatever it names.
        let other = f(Rule::UnknownKey, "a", 1, "`staging` is unknown on staging");
        assert!(!crate::rules::about_profile(&other, "staging"));
    }

    #[test]
    fn a_folder_moves_only_when_its_files_moved_with_it() {
        let shift = |from: &str, to: &str| Shift {
            from: from.into(),
            to: to.into(),
        };
        let set = |paths: &'static [&'static str]| paths_of(paths, &[]);
        // One agent of two moved: the other is still where it was, so the folder stayed.
        let old = set(&["lib/agents/a.agent.md", "lib/agents/b.agent.md"]);
        let new = set(&["lib/agents/a.agent.md", "lib/other/b.agent.md"]);
        let candidates = vec![shift("lib/agents", "lib/other")];
        assert!(borne_out(candidates, &old, &new, |_| true).is_empty());
        // A skill's folder moved with its references.
        let old = paths_of(
            &["lib/skills/w/SKILL.md", "lib/x"],
            &["lib/skills/w/refs/a.md"],
        );
        let new = paths_of(&["lib/w2/SKILL.md", "lib/x"], &["lib/w2/refs/a.md"]);
        let w = shift("lib/skills/w", "lib/w2");
        assert_eq!(
            borne_out(vec![w.clone()], &old, &new, |_| true),
            std::slice::from_ref(&w)
        );
        assert_eq!(
            w.apply("lib/skills/w/refs/a.md").as_deref(),
            Some("lib/w2/refs/a.md")
        );
        assert_eq!(w.apply("lib/skills/wx/SKILL.md"), None);
        // A root shown relative, then absolute, then as the working folder.
        let old = set(&["lib/skills/a/SKILL.md"]);
        let abs = set(&["/home/me/lib/skills/a/SKILL.md"]);
        let here = set(&["skills/a/SKILL.md"]);
        assert_eq!(
            borne_out(vec![shift("lib", "/home/me/lib")], &old, &abs, |_| true).len(),
            1
        );
        assert_eq!(
            borne_out(vec![shift("lib", ".")], &old, &here, |_| true).len(),
            1
        );
        assert_eq!(
            shift("lib", ".").apply("lib/skills/a/SKILL.md").as_deref(),
            Some("skills/a/SKILL.md")
        );
        // The same paths from the same folder: no shift, whatever the roots say.
        assert!(borne_out(vec![shift(".", "lib")], &old, &old, |_| true).is_empty());
    }

    /// Paths with `entries` the paths of skills and agents, and `others` those of other
    /// files with findings.
    fn paths_of(entries: &[&'static str], others: &[&'static str]) -> Paths<'static> {
        Paths {
            entries: entries.iter().copied().collect(),
            known: entries.iter().chain(others).copied().collect(),
        }
    }

    #[test]
    fn a_root_is_another_only_when_most_of_its_entries_are_there() {
        let y_to_z = || {
            vec![Shift {
                from: "y".into(),
                to: "z".into(),
            }]
        };
        let all = |_: &str| true;
        let two = paths_of(&["y/a/SKILL.md", "y/b/SKILL.md"], &["y/b/refs/1.md"]);
        // One skill of two on each side at the same place: a copy, not the same library.
        let one_shared = paths_of(&["z/a/SKILL.md", "z/c/SKILL.md"], &[]);
        assert!(borne_out(y_to_z(), &two, &one_shared, all).is_empty());
        // One of two, and nothing else: the other was removed.
        let one = paths_of(&["z/a/SKILL.md"], &[]);
        assert_eq!(borne_out(y_to_z(), &two, &one, all), y_to_z());
        // Two of three on each side: the third removed and another added.
        let three = paths_of(&["y/a/SKILL.md", "y/b/SKILL.md", "y/c/SKILL.md"], &[]);
        let two_shared = paths_of(&["z/a/SKILL.md", "z/b/SKILL.md", "z/d/SKILL.md"], &[]);
        assert_eq!(borne_out(y_to_z(), &three, &two_shared, all), y_to_z());
        // Every entry there, its references' findings fixed: files with findings come and go.
        let fixed = paths_of(&["z/a/SKILL.md", "z/b/SKILL.md"], &[]);
        assert_eq!(borne_out(y_to_z(), &two, &fixed, all), y_to_z());
        // An entry the new run did not look for may still be where it was.
        let unseen = |p: &str| !p.starts_with("y/");
        assert!(borne_out(y_to_z(), &two, &one, unseen).is_empty());
        // With no entry under a root, its other files are the evidence.
        let files = paths_of(&[], &["y/.mcp.json", "y/hooks.json"]);
        let one_file = paths_of(&[], &["z/.mcp.json", "z/other.json"]);
        let both = paths_of(&[], &["z/.mcp.json", "z/hooks.json"]);
        assert!(borne_out(y_to_z(), &files, &one_file, all).is_empty());
        assert_eq!(borne_out(y_to_z(), &files, &both, all), y_to_z());
    }

    fn strings(names: &[&str]) -> Vec<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    /// An availability with these lists; the status is an opaque word to the causes.
    fn av(missing: &[&str], unmet_any: &[&[&str]]) -> Availability {
        Availability {
            status: if missing.is_empty() && unmet_any.is_empty() {
                Status::Available
            } else {
                Status::Unavailable
            },
            missing: strings(missing),
            unmet_any: unmet_any.iter().map(|g| strings(g)).collect(),
            ..Availability::of(Status::Available, None)
        }
    }

    fn needs(tools: &[&str], any: Option<&[&str]>, resources: &[&str]) -> Requirements {
        let mut r = Requirements::default();
        r.tools.all = strings(tools);
        r.tools.any = any.map(strings);
        r.resources.all = strings(resources);
        r
    }

    fn said(causes: &[Cause]) -> Vec<String> {
        causes
            .iter()
            .map(|c| c.describe(|n| format!("`{n}`")))
            .collect()
    }

    #[test]
    fn a_name_the_profile_dropped_is_removed_and_one_it_gained_added() {
        let req = needs(&["get_order", "refund", "kusto/*"], None, &["docs://p"]);
        let (before, after) = (av(&["refund"], &[]), av(&["kusto/*", "docs://p"], &[]));
        let old = Seen {
            name: "a",
            availability: &before,
            needs: Needs::Skill(&req, &[]),
        };
        let new = Seen {
            availability: &after,
            ..old
        };
        let c = causes(&old, &new);
        assert_eq!(
            said(&c),
            [
                "server `kusto` removed",
                "resource `docs://p` removed",
                "tool `refund` added"
            ]
        );
        assert_eq!(c[0].name.as_deref(), Some("kusto/*"), "kept as required");
    }

    #[test]
    fn a_changed_requirement_is_told_from_a_changed_profile() {
        let (was, now) = (needs(&["a", "b"], None, &[]), needs(&["a", "c"], None, &[]));
        let (before, after) = (av(&["b"], &[]), av(&["c"], &[]));
        let old = Seen {
            name: "s",
            availability: &before,
            needs: Needs::Skill(&was, &[]),
        };
        let new = Seen {
            name: "s",
            availability: &after,
            needs: Needs::Skill(&now, &[]),
        };
        assert_eq!(
            said(&causes(&old, &new)),
            ["now requires tool `c`", "no longer requires tool `b`"]
        );
    }

    #[test]
    fn any_groups_are_causes_as_a_whole() {
        let req = needs(&[], Some(&["x", "y"]), &[]);
        let (met, unmet) = (av(&[], &[]), av(&[], &[&["x", "y"]]));
        let seen = |availability| Seen {
            name: "s",
            availability,
            needs: Needs::Skill(&req, &[]),
        };
        let lost = causes(&seen(&met), &seen(&unmet));
        assert_eq!(said(&lost), ["one of tools `x`, `y` no longer offered"]);
        assert_eq!(
            (lost[0].change, lost[0].name.as_ref()),
            (CauseChange::Removed, None)
        );
        assert_eq!(
            said(&causes(&seen(&unmet), &seen(&met))),
            ["one of tools `x`, `y` added"]
        );
        // A group that only the new report requires.
        let none = needs(&[], None, &[]);
        let old = Seen {
            name: "s",
            availability: &met,
            needs: Needs::Skill(&none, &[]),
        };
        assert_eq!(
            said(&causes(&old, &seen(&unmet))),
            ["now requires one of tools `x`, `y`"]
        );
    }

    #[test]
    fn agents_are_judged_by_their_tools_and_unknown_needs_say_so() {
        let tools = strings(&["Read", "refund"]);
        let (before, after) = (av(&[], &[]), av(&["refund"], &[]));
        let old = Seen {
            name: "ag",
            availability: &before,
            needs: Needs::Agent(Some(&tools)),
        };
        let new = Seen {
            availability: &after,
            ..old
        };
        assert_eq!(said(&causes(&old, &new)), ["tool `refund` removed"]);
        // A name neither entry lists: the reports do not say why it changed.
        let none = Seen {
            needs: Needs::Agent(None),
            ..new
        };
        let gone = Seen {
            needs: Needs::Agent(None),
            ..old
        };
        assert_eq!(said(&causes(&gone, &none)), ["tool `refund` missing"]);
        assert_eq!(said(&causes(&none, &gone)), ["tool `refund` available"]);
    }

    /// `a` with these names not judged, and not-judged when nothing else is said of it.
    fn unjudged(a: Availability, names: &[&str]) -> Availability {
        let status = match a.status {
            Status::Available => Status::NotJudged,
            other => other,
        };
        Availability {
            status,
            not_judged: vec![crate::evaluate::Unmet {
                source: crate::model::Origin::Dependencies,
                kind: DepKind::Tools,
                group: crate::evaluate::UnmetGroup::All,
                names: strings(names),
            }],
            ..a
        }
    }

    #[test]
    fn a_name_no_profile_offered_is_judged_not_removed() {
        let req = needs(&["ext_tool", "gone"], Some(&["x", "y"]), &[]);
        let before = unjudged(av(&[], &[]), &["ext_tool", "x"]);
        let after = av(&["ext_tool", "gone"], &[&["x", "y"]]);
        let seen = |availability| Seen {
            name: "s",
            availability,
            needs: Needs::Skill(&req, &[]),
        };
        let judged = causes(&seen(&before), &seen(&after));
        assert_eq!(
            said(&judged),
            [
                "tool `ext_tool` now judged and missing",
                "tool `gone` removed",
                "one of tools `x`, `y` now judged and unavailable"
            ]
        );
        assert_eq!(judged[0].change, CauseChange::Judged);
        // And back: what the new profile cannot judge is no longer judged, not added.
        let back = causes(&seen(&after), &seen(&before));
        assert_eq!(
            said(&back),
            [
                "tool `ext_tool` no longer judged",
                "tool `gone` added",
                "one of tools `x`, `y` no longer judged"
            ]
        );
        assert_eq!(back[0].change, CauseChange::Unjudged);
    }

    #[test]
    fn a_not_judged_entry_made_unavailable_counts_as_an_available_one() {
        let change = |from: Status, to: Status| AvailabilityChange {
            kind: "skill".into(),
            path: "p".into(),
            name: "n".into(),
            profile: "prod".into(),
            from: from.as_str().into(),
            to: to.as_str().into(),
            causes: Vec::new(),
            reason: None,
        };
        let d = Diff {
            availability_changes: vec![
                change(Status::NotJudged, Status::Unavailable),
                change(Status::Available, Status::Unavailable),
                change(Status::Available, Status::NotJudged),
                change(Status::Unavailable, Status::NotJudged),
                change(Status::Invalid, Status::Unavailable),
            ],
            ..Diff::default()
        };
        let made: Vec<&str> = d.newly_unavailable().map(|c| c.from.as_str()).collect();
        assert_eq!(made, ["not-judged", "available"]);
        assert!(
            verdict(&d, false).starts_with("⚠️ This change: makes 2 entries unavailable on `prod`"),
            "{}",
            verdict(&d, false)
        );
        // A run that fails by `--fail-on` says so first.
        assert!(verdict(&d, true).starts_with("❌ This change: makes 2 entries"));
        let none = Diff::default();
        assert!(verdict(&none, false).starts_with("✅ This change: 0 new findings"));
    }

    #[test]
    fn a_status_change_without_a_list_change_keeps_the_reason() {
        let change = AvailabilityChange {
            kind: "skill".into(),
            path: "p".into(),
            name: "n".into(),
            profile: "prod".into(),
            from: "available".into(),
            to: "invalid".into(),
            causes: Vec::new(),
            reason: Some("the frontmatter could not be read".into()),
        };
        assert_eq!(
            change.explanation(|n| n.to_owned()).as_deref(),
            Some("the frontmatter could not be read")
        );
    }

    fn plain(tools: &[&str], resources: &[&str], prompts: &[&str]) -> Profile {
        Profile::from_names("p", "p.json", tools, resources, prompts).unwrap()
    }

    #[test]
    fn profile_changes_are_grouped_by_server_and_sorted() {
        let old = plain(
            &[
                "mcp__kusto__run_query",
                "kusto/list_tables",
                "get_order",
                "b",
            ],
            &["docs://a"],
            &["summarize"],
        );
        let new = plain(
            &["kusto:run_query", "github/*", "get_order", "a", "*"],
            &["docs://a", "docs://b"],
            &[],
        );
        let d = profiles(&old, &new);
        assert_eq!((d.added, d.removed), (4, 3));
        let labels: Vec<String> = d.servers.iter().map(ServerChanges::label).collect();
        assert_eq!(labels, ["no server", "server github", "server kusto"]);
        let top = &d.servers[0];
        assert_eq!(top.tools.added, ["*", "a"]);
        assert_eq!(top.tools.removed, ["b"]);
        assert_eq!(top.resources.added, ["docs://b"]);
        assert_eq!(top.prompts.removed, ["summarize"]);
        assert_eq!(d.servers[1].tools.added, ["github/*"]);
        // Spellings of one tool are one name: only `list_tables` changed on kusto.
        assert_eq!(
            d.servers[2].tools,
            NameChanges {
                added: vec![],
                removed: vec!["kusto/list_tables".into()],
            }
        );
        assert_eq!(
            profile_verdict(&d),
            "⚠️ The new profile removes 2 tools, 1 prompt; adds 3 tools, 1 resource"
        );
    }

    #[test]
    fn identical_profiles_have_no_change() {
        let p = plain(&["a", "s/t"], &["r"], &["q"]);
        let d = profiles(&p, &p.clone());
        assert!(d.servers.is_empty() && d.added == 0 && d.removed == 0);
        assert!(profile_verdict(&d).starts_with("✅ No change"));
    }

    #[test]
    fn a_host_keeps_its_own_names_and_servers_apart() {
        let host = |tools: &[&str], has_servers: bool| {
            let mut p = plain(tools, &[], &[]);
            p.vocabulary = Some(Vocabulary {
                host: "vscode".into(),
                toolsets: [("read".to_owned(), vec!["read/readFile".to_owned()])].into(),
                has_servers,
                ..Vocabulary::default()
            });
            p
        };
        let d = profiles(
            &host(&["read/readFile", "todos"], false),
            &host(&["read/problems", "github/get_issue"], true),
        );
        let labels: Vec<String> = d.servers.iter().map(ServerChanges::label).collect();
        assert_eq!(labels, ["host vscode", "server github"]);
        assert_eq!(d.servers[0].tools.added, ["read/problems"]);
        assert_eq!(d.servers[0].tools.removed, ["read/readFile", "todos"]);
        // Without servers, every name of a host profile is the host's.
        let d = profiles(&host(&[], false), &host(&["edit/createFile"], false));
        assert_eq!(d.servers[0].host.as_deref(), Some("vscode"));
    }

    fn set(names: &[&str]) -> Option<std::collections::BTreeSet<String>> {
        Some(names.iter().map(|n| (*n).to_owned()).collect())
    }

    fn versions(pairs: &[(&str, &str)]) -> Option<BTreeMap<String, String>> {
        Some(
            pairs
                .iter()
                .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
                .collect(),
        )
    }

    fn on(machine: Machine) -> Profile {
        let mut p = plain(&["a"], &[], &[]);
        p.machine = machine;
        p
    }

    #[test]
    fn machine_names_and_versions_are_compared_kind_by_kind() {
        let old = on(Machine {
            os: set(&["darwin"]),
            bins: set(&["git", "jq"]),
            env: set(&["TOKEN"]),
            packages: versions(&[("torch", "2.3.0"), ("pypdf", "5.1.0"), ("requests", "2")]),
            ..Machine::default()
        });
        let new = on(Machine {
            os: set(&["darwin"]),
            bins: set(&["git", "uv", "awk"]),
            env: set(&["TOKEN"]),
            packages: versions(&[("torch", "2.4.0"), ("numpy", "2.1.0"), ("requests", "2")]),
            ..Machine::default()
        });
        let d = profiles(&old, &new);
        assert!(d.servers.is_empty(), "the MCP lists are the same");
        assert_eq!((d.added, d.removed), (0, 0), "machine names count apart");
        let m = &d.machine;
        assert_eq!((m.added, m.removed, m.changed), (3, 2, 1));
        let kinds: Vec<DepKind> = m.kinds.iter().map(|k| k.kind).collect();
        assert_eq!(
            kinds,
            [DepKind::Bins, DepKind::Packages],
            "unchanged kinds are left out"
        );
        assert_eq!(m.kinds[0].added, ["awk", "uv"]);
        assert_eq!(m.kinds[0].removed, ["jq"]);
        let packages = &m.kinds[1];
        assert_eq!(packages.added, ["numpy"]);
        assert_eq!(
            packages.removed,
            ["pypdf"],
            "and `requests` kept its version"
        );
        assert_eq!(
            packages.changed,
            [VersionChange {
                name: "torch".into(),
                old: "2.3.0".into(),
                new: "2.4.0".into()
            }]
        );
        assert_eq!(
            packages.described,
            Described {
                old: true,
                new: true
            }
        );
        assert_eq!(
            profile_verdict(&d),
            "⚠️ The new profile removes 1 executable, 1 package; adds 2 executables, 1 package; \
             changes the version of 1 package"
        );
    }

    #[test]
    fn a_kind_described_on_one_side_only_says_so() {
        let described = on(Machine {
            bins: set(&["git"]),
            toolsets: set(&[]),
            ..Machine::default()
        });
        let bare = on(Machine::default());
        let d = profiles(&described, &bare);
        let m = &d.machine;
        // An empty list is a description too: it describes a machine with none.
        let kinds: Vec<DepKind> = m.kinds.iter().map(|k| k.kind).collect();
        assert_eq!(kinds, [DepKind::Toolsets, DepKind::Bins]);
        assert!(m.kinds[0].added.is_empty() && m.kinds[0].removed.is_empty());
        assert_eq!(m.kinds[1].removed, ["git"], "what the old side listed");
        let said: Vec<Option<String>> = m
            .kinds
            .iter()
            .map(|k| k.description_change(|key| format!("`{key}`")))
            .collect();
        assert_eq!(
            said,
            [
                Some("`toolsets` is no longer described: tool sets are not judged".into()),
                Some("`bins` is no longer described: executables are not judged".into()),
            ]
        );
        assert_eq!(
            profile_verdict(&d),
            "⚠️ The new profile removes 1 executable; no longer describes `toolsets`, `bins`"
        );
        let back = profiles(&bare, &described);
        assert_eq!(
            back.machine.kinds[1]
                .description_change(|key| key.to_owned())
                .as_deref(),
            Some("bins is now described: executables are judged")
        );
        assert_eq!(back.machine.kinds[1].added, ["git"]);
        assert!(
            profile_verdict(&back).starts_with("⚠️"),
            "newly judged names can be missing"
        );
        // Only additions to what both describe is good news.
        let more = on(Machine {
            bins: set(&["git", "jq"]),
            toolsets: set(&[]),
            ..Machine::default()
        });
        assert_eq!(
            profile_verdict(&profiles(&described, &more)),
            "✅ The new profile adds 1 executable"
        );
        assert!(profiles(&more, &more.clone()).machine.is_empty());
    }
}
