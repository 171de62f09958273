//! Stage 5: the report. [`Report`] is the stable JSON contract; every renderer reads it and
//! nothing else, so all formats show the same facts.

pub(crate) mod concise;
pub(crate) mod diff;
pub(crate) mod explain;
pub mod github;
pub(crate) mod html;
pub(crate) mod json;
pub(crate) mod lines;
pub(crate) mod markdown;
pub(crate) mod merge;
pub mod prompt;
pub(crate) mod sarif;
pub(crate) mod spans;
pub(crate) mod text;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::audit::AuditResult;
use crate::diagnostic::{Finding, Severity};
use crate::evaluate::{Availability, Status};
use crate::model::{Agent, DeclaredBy, Drift, Link, Requirements, Skill, SkillFields};
use crate::rules::Rule;
use crate::vecmap::VecMap;

/// 2: agents gained the `partial` and `not-loaded` statuses. 3: skills gained
/// `requirements` (each source's declarations), availabilities `unmet` and `not_judged`, and
/// the `not-judged` status. Version 1 and 2 reports still load (for `diff` and `merge`):
/// their fields and statuses are a subset.
pub(crate) const SCHEMA_VERSION: u32 = 4;

/// An entry's availability, keyed by profile name.
pub(crate) type ByProfile = VecMap<String, Availability>;

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Each finding with its source line, then the matrices and the summary (`full`, as ruff
    /// names it).
    #[value(alias = "full")]
    Text,
    /// One line per finding, then the summary.
    Concise,
    Json,
    Markdown,
    Html,
    Sarif,
    /// GitHub Actions workflow commands (`::error file=...::message`).
    Github,
}

impl Format {
    /// The names a settings file may give, for its error message.
    pub(crate) const NAMES: &str =
        "`full` (or `text`), `concise`, `json`, `markdown`, `html`, `sarif` or `github`";

    /// The format a file name asks for: `.html`, `.json`, `.md`, `.sarif`, `.txt`.
    pub(crate) fn from_path(path: &std::path::Path) -> Option<Format> {
        let name = path.file_name()?.to_str()?.to_ascii_lowercase();
        let ext = name.rsplit('.').next()?;
        Some(match ext {
            "html" | "htm" => Format::Html,
            "json" => Format::Json,
            "md" | "markdown" => Format::Markdown,
            "sarif" => Format::Sarif,
            "txt" | "text" | "log" => Format::Text,
            _ => return None,
        })
    }
}

/// The JSON Schema of the JSON report (`schemas/report.schema.json`).
pub fn schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(Report)).unwrap_or_default()
}

/// Render `report` as `format`.
pub fn render(report: &Report, format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Text => text::render(report, out),
        Format::Concise => concise::render(report, out, false),
        Format::Json => json::render(report, out),
        Format::Markdown => markdown::render(report, out),
        Format::Html => html::render(report, out),
        Format::Sarif => sarif::render(report, out),
        Format::Github => github::render(report, out),
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(title = "skill-audit JSON report")]
pub struct Report {
    pub schema_version: u32,
    pub tool: Tool,
    pub roots: Vec<String>,
    pub profiles: Vec<ProfileEntry>,
    pub skills: Vec<SkillEntry>,
    pub agents: Vec<AgentEntry>,
    pub links: Vec<Link>,
    pub drift: Vec<Drift>,
    pub findings: Vec<Finding>,
    pub summary: Summary,
    /// Present when the run was compared with `--baseline`: what is new since then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub baseline: Option<diff::Diff>,
    /// `--unsafe-fixes`: the text format marks unsafe fixes as available too.
    #[serde(skip)]
    #[schemars(skip)]
    pub show_unsafe_fixes: bool,
    /// The display paths of files whose fixes no fix may write (read-only, say): their
    /// findings are not marked fixable, nor counted as such.
    #[serde(skip)]
    #[schemars(skip)]
    pub unwritable: std::collections::BTreeSet<String>,
    /// `--matrix all`: the text and Markdown matrices list every row, not only those that
    /// need attention.
    #[serde(skip)]
    #[schemars(skip)]
    pub matrix_all: bool,
    /// Whether the run exits 1 by `--fail-on`, for an audit that knows its threshold; `None`
    /// (a merged report) is judged as the default threshold, errors, would judge it.
    #[serde(skip)]
    #[schemars(skip)]
    pub fails: Option<bool>,
}

/// The reasons a matrix row's explained cells give, each once, with the profiles of `names`
/// that give it, in their order: a reason six hosts share is said once, not six times.
pub(crate) fn shared_reasons<'a>(
    availability: &'a ByProfile,
    names: &[&'a str],
) -> Vec<(Vec<&'a str>, Option<&'a str>)> {
    let mut out: Vec<(Vec<&str>, Option<&str>)> = Vec::new();
    for n in names {
        let Some(a) = availability.get(*n).filter(|a| a.explained()) else {
            continue;
        };
        let reason = a.reason.as_deref();
        match out.iter_mut().find(|(_, r)| *r == reason) {
            Some((profiles, _)) => profiles.push(n),
            None => out.push((vec![n], reason)),
        }
    }
    out
}

/// What a matrix row's cells are judged on, for a row that rests on inferred needs:
/// `every profile: judged on inferred needs` when its cells agree, else each profile's basis, the profile
/// written by `name`. `None` when every cell rests on declared needs alone, what a cell was
/// always judged on.
pub(crate) fn basis_note(
    availability: &ByProfile,
    names: &[&str],
    name: impl Fn(&str) -> String,
) -> Option<String> {
    let bases: Vec<(&str, crate::evaluate::Basis)> = names
        .iter()
        .filter_map(|n| Some((*n, availability.get(*n)?.basis?)))
        .collect();
    if bases
        .iter()
        .all(|(_, b)| *b == crate::evaluate::Basis::Declared)
    {
        return None;
    }
    let mut kinds: Vec<&str> = bases.iter().map(|(_, b)| b.as_str()).collect();
    kinds.dedup();
    if let [one] = kinds.as_slice() {
        // Said of the row, as the lines above it are of one profile each.
        return Some(format!("every profile: judged on {one} needs"));
    }
    let each: Vec<String> = bases
        .iter()
        .map(|(n, b)| format!("{}: {}", name(n), b.as_str()))
        .collect();
    Some(format!("judged on {}", each.join(", ")))
}

/// What a matrix cell with no status means: its row comes from a merged report that was not
/// run on that profile.
pub(crate) const NO_JUDGEMENT: &str =
    "no judgement: the report this row comes from was not run on this profile";

/// Whether one of `rows` lacks a cell of one of the profiles `names` (a merged report's).
pub(crate) fn has_unjudged_cells<'a>(
    mut rows: impl Iterator<Item = Row<'a>>,
    names: &[&str],
) -> bool {
    rows.any(|(_, a)| names.iter().any(|n| a.get(*n).is_none()))
}

/// A matrix row: its label and its cells.
pub(crate) type Row<'a> = (Cow<'a, str>, &'a ByProfile);

/// Rows labelled by name, and by name and path where another row has the same name (two
/// skills or agents of one name would otherwise read as one listed twice).
fn labelled<'a>(
    rows: impl Iterator<Item = (&'a str, &'a str, &'a ByProfile)> + Clone,
) -> impl Iterator<Item = Row<'a>> + Clone {
    let mut seen = foldhash::HashSet::default();
    let twice: foldhash::HashSet<&str> = (rows.clone())
        .filter(|(name, _, _)| !seen.insert(*name))
        .map(|(name, _, _)| name)
        .collect();
    rows.map(move |(name, path, a)| {
        let label = if twice.contains(name) {
            Cow::Owned(format!("{name} ({path})"))
        } else {
            Cow::Borrowed(name)
        };
        (label, a)
    })
}

/// The rows a matrix folds, counted by what they are everywhere: needing nothing, not loaded
/// (an agent no profile loads), else available; in the legend's order, zero counts left out.
pub(crate) fn fold_counts<'a>(
    rows: impl Iterator<Item = &'a ByProfile>,
    names: &[&str],
) -> Vec<(Status, usize)> {
    let mut counts = [0usize; 3];
    let kinds = [Status::Available, Status::NotLoaded, Status::NeedsNothing];
    for availability in rows {
        let all = |status: Status| {
            names
                .iter()
                .all(|n| availability.get(*n).is_some_and(|a| a.status == status))
        };
        let i = match (all(Status::NeedsNothing), all(Status::NotLoaded)) {
            (true, _) => 2,
            (_, true) => 1,
            _ => 0,
        };
        counts[i] += 1;
    }
    let mut out: Vec<(Status, usize)> = kinds
        .into_iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .collect();
    out.sort_by_key(|(status, _)| Status::ALL.iter().position(|s| s == status));
    out
}

/// Does a matrix row need attention: a cell on one of `names` that is neither available nor
/// needs-nothing? A host that does not load a kind of agent is no problem of the agent's, so
/// for an agent (`agent`) not-loaded is fine too; a skill a host skips is not.
pub(crate) fn needs_attention(availability: &ByProfile, names: &[&str], agent: bool) -> bool {
    (names.iter()).any(|n| cell_needs_attention(availability.get(*n).map(|a| a.status), agent))
}

/// Does a matrix row show before the rows that fold away: an entry whose frontmatter could not
/// be read always (its cells judge only what could be read of it, so "available" there would
/// hide that it is broken), any other when it [`needs_attention`]. Every format folds by this.
pub(crate) fn shown_unfolded(
    availability: &ByProfile,
    names: &[&str],
    agent: bool,
    valid: bool,
) -> bool {
    !valid || needs_attention(availability, names, agent)
}

/// What a row of an entry whose frontmatter could not be read says first.
pub(crate) const UNREADABLE: &str = "its frontmatter could not be read (see its findings)";

/// Does one cell of a row need attention, by [`needs_attention`]'s rule? `None` is a row with
/// no cell on that profile (a merged report's), which does.
pub(crate) fn cell_needs_attention(status: Option<Status>, agent: bool) -> bool {
    match status {
        Some(Status::Available | Status::NeedsNothing) => false,
        Some(Status::NotLoaded) => !agent,
        _ => true,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct AgentEntry {
    /// False when the frontmatter could not be read.
    pub valid: bool,
    #[serde(flatten)]
    pub agent: Agent,
    /// Keyed by profile name.
    pub availability: ByProfile,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ProfileEntry {
    pub name: String,
    pub path: String,
    /// Number of tool names and patterns.
    pub tools: usize,
    pub resources: usize,
    pub prompts: usize,
}

/// A skill in the report. It holds the audited [`Skill`] itself, moved in by pointer: a copy
/// of every skill into a new record would hold the library twice at the peak.
/// Serialised as [`SkillRecord`].
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(from = "SkillRecord")]
pub struct SkillEntry {
    pub skill: Box<Skill>,
    /// Keyed by profile name.
    pub availability: ByProfile,
}

impl SkillEntry {
    /// False when the frontmatter could not be read.
    pub(crate) fn valid(&self) -> bool {
        !self.skill.invalid
    }
}

// A skill as the JSON report shows it (a plain comment: the committed schema has no text here).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
#[schemars(rename = "SkillEntry")]
pub(crate) struct SkillRecord {
    pub name: String,
    pub path: String,
    /// False when the frontmatter could not be read.
    pub valid: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub dependencies: Requirements,
    pub declared_by: DeclaredBy,
    /// What each source declares (the proposal's field, OpenClaw, Codex, ...), with where.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub requirements: Vec<crate::model::Declared>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tools: Option<Vec<String>>,
    #[serde(rename = "mcp-servers", default, skip_serializing_if = "Vec::is_empty")]
    pub mcp_servers: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub model: Vec<String>,
    /// Every other field that was read.
    pub fields: Box<SkillFields>,
    /// Keyed by profile name.
    pub availability: ByProfile,
}

impl From<SkillRecord> for SkillEntry {
    fn from(r: SkillRecord) -> Self {
        let mut skill = Skill::invalid(r.name, r.path, std::path::PathBuf::new());
        skill.invalid = !r.valid;
        skill.description = r.description;
        skill.declared_by = r.declared_by;
        skill.requirements = r.requirements;
        // Reports before version 3 have only the evaluated `dependencies`.
        if skill.requirements.is_empty() && !r.dependencies.is_empty() {
            let source = match r.declared_by {
                DeclaredBy::ToolsField => crate::model::Origin::AgentFields,
                _ => crate::model::Origin::Dependencies,
            };
            skill.requirements.push(crate::model::Declared {
                source,
                file: None,
                line: 0,
                column: 0,
                requirements: r.dependencies,
                uses: Vec::new(),
                block: "",
            });
        }
        skill.tools = r.tools;
        skill.mcp_servers = r.mcp_servers;
        skill.model = r.model;
        skill.fields = r.fields;
        SkillEntry {
            skill: Box::new(skill),
            availability: r.availability,
        }
    }
}

/// Written field by field in [`SkillRecord`]'s order, so no record is built to serialise.
impl Serialize for SkillEntry {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let s = &self.skill;
        let mut m = serializer.serialize_struct("SkillEntry", 12)?;
        m.serialize_field("name", &s.name)?;
        m.serialize_field("path", &s.path)?;
        m.serialize_field("valid", &!s.invalid)?;
        match &s.description {
            Some(d) => m.serialize_field("description", d)?,
            None => m.skip_field("description")?,
        }
        m.serialize_field("dependencies", s.dependencies())?;
        m.serialize_field("declared_by", &s.declared_by)?;
        if s.requirements.is_empty() {
            m.skip_field("requirements")?;
        } else {
            m.serialize_field("requirements", &s.requirements)?;
        }
        match &s.tools {
            Some(t) => m.serialize_field("tools", t)?,
            None => m.skip_field("tools")?,
        }
        if s.mcp_servers.is_empty() {
            m.skip_field("mcp-servers")?;
        } else {
            m.serialize_field("mcp-servers", &s.mcp_servers)?;
        }
        if s.model.is_empty() {
            m.skip_field("model")?;
        } else {
            m.serialize_field("model", &s.model)?;
        }
        m.serialize_field("fields", &s.fields)?;
        m.serialize_field("availability", &self.availability)?;
        m.end()
    }
}

impl schemars::JsonSchema for SkillEntry {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        SkillRecord::schema_name()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        SkillRecord::json_schema(generator)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Summary {
    pub files_scanned: usize,
    /// Skill, agent and manifest files that ignore rules (`.gitignore`, `.ignore`, git's
    /// exclude files) kept out of the audit; `--no-ignore` audits them.
    #[serde(default)]
    pub ignored_files: usize,
    pub skills: usize,
    pub invalid_skills: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    pub agents: usize,
    pub links: usize,
    pub drifting_links: usize,
    /// Per profile, how many skills have each status.
    pub by_profile: BTreeMap<String, BTreeMap<Status, usize>>,
    /// Per profile, how many agents have each status.
    pub agents_by_profile: BTreeMap<String, BTreeMap<Status, usize>>,
    /// Findings per rule ID.
    pub by_rule: BTreeMap<String, usize>,
    /// Present after `--fix`: the fixes it applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixes: Option<FixSummary>,
}

/// What `--fix` applied (and wrote), by applicability. The findings left that carry a fix
/// have it in their `fix`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct FixSummary {
    pub applied_safe: usize,
    pub applied_unsafe: usize,
    /// Files written or renamed.
    pub files_changed: usize,
    /// Fixes `--fix` took but could not apply or write (a read-only file, a symbolic link, a
    /// fix that would break the file), each named on standard error with the reason.
    #[serde(default)]
    pub not_applied: usize,
    /// Unsafe fixes left that `--unsafe-fixes` would apply (0 when it was given): those of
    /// files fixes may write.
    #[serde(default)]
    pub unsafe_available: usize,
}

/// Availabilities in profile order, keyed by profile name.
fn keyed(profiles: &[&str], availability: Vec<Availability>) -> ByProfile {
    profiles
        .iter()
        .map(|p| (*p).to_owned())
        .zip(availability)
        .collect()
}

/// Per profile, how many entries have each status (every status present, zero or not, for
/// the profiles given; a profile only some entries name, after a merge, gets the statuses seen).
fn status_counts<'a>(
    profiles: &[&str],
    entries: impl Iterator<Item = &'a ByProfile>,
) -> BTreeMap<String, BTreeMap<Status, usize>> {
    // Counted in a hash map of arrays (by a status's place in `Status::ALL`): two ordered-map
    // lookups by name per entry and profile cost several times more.
    let mut counts: foldhash::HashMap<&str, [usize; Status::ALL.len()]> = profiles
        .iter()
        .map(|p| (*p, [0; Status::ALL.len()]))
        .collect();
    for availability in entries {
        for (p, a) in availability {
            let status = Status::ALL
                .iter()
                .position(|s| *s == a.status)
                .unwrap_or_default();
            counts.entry(p.as_str()).or_default()[status] += 1;
        }
    }
    counts
        .into_iter()
        .map(|(p, n)| {
            let all = profiles.contains(&p);
            let by_status = Status::ALL
                .iter()
                .zip(n)
                .filter(|&(_, n)| all || n > 0)
                .map(|(s, n)| (*s, n))
                .collect();
            (p.to_owned(), by_status)
        })
        .collect()
}

impl Report {
    /// The report of an audit. Takes the result by value: every string moves into the report
    /// rather than being copied, so a large library is held in memory once.
    pub fn new(audit: AuditResult) -> Report {
        let AuditResult {
            roots,
            profiles,
            skills,
            agents,
            links,
            drift,
            mut findings,
            files_scanned,
            ignored,
            texts,
            prints,
        } = audit;
        // The source lines text reports show, and the lines' fingerprints, now that findings
        // are final.
        if !texts.is_empty() || !prints.is_empty() {
            lines::attach(&mut findings, &texts, &prints);
        }
        let profile_entries: Vec<ProfileEntry> = profiles
            .iter()
            .map(|p| ProfileEntry {
                name: p.name.clone(),
                path: p.path.clone(),
                tools: p.tools.len(),
                resources: p.resources.len(),
                prompts: p.prompts.len(),
            })
            .collect();
        let profile_names: Vec<&str> = profile_entries.iter().map(|p| p.name.as_str()).collect();
        // Freeing the profiles' many tool names takes about as long as keying every entry's
        // availability by profile name: do both at once, the entries on all threads.
        let ((), (skills, agents)) = rayon::join(
            move || drop(profiles),
            || {
                let skills: Vec<SkillEntry> = skills
                    .into_par_iter()
                    .map(|r| SkillEntry {
                        skill: r.skill,
                        availability: keyed(&profile_names, r.availability),
                    })
                    .collect();
                let agents: Vec<AgentEntry> = agents
                    .into_par_iter()
                    .map(|r| AgentEntry {
                        valid: !r.agent.invalid,
                        agent: r.agent,
                        availability: keyed(&profile_names, r.availability),
                    })
                    .collect();
                (skills, agents)
            },
        );
        let mut report = Report {
            schema_version: SCHEMA_VERSION,
            tool: Tool {
                name: "skill-audit".into(),
                version: env!("CARGO_PKG_VERSION").into(),
            },
            roots,
            profiles: profile_entries,
            summary: Summary::default(),
            skills,
            agents,
            links,
            drift,
            findings,
            baseline: None,
            show_unsafe_fixes: false,
            unwritable: Default::default(),
            matrix_all: false,
            fails: None,
        };
        report.summarize(files_scanned, ignored);
        report
    }

    /// Recompute `summary` from the report's entries (after building or merging).
    pub(crate) fn summarize(&mut self, files_scanned: usize, ignored_files: usize) {
        let profile_names: Vec<&str> = self.profiles.iter().map(|p| p.name.as_str()).collect();
        let count = |sev| self.findings.iter().filter(|f| f.severity == sev).count();
        let mut by_rule: foldhash::HashMap<Rule, usize> = foldhash::HashMap::default();
        for f in &self.findings {
            *by_rule.entry(f.rule).or_default() += 1;
        }
        self.summary = Summary {
            files_scanned,
            ignored_files,
            skills: self.skills.len(),
            invalid_skills: self.skills.iter().filter(|s| !s.valid()).count(),
            agents: self.agents.len(),
            links: self.links.len(),
            drifting_links: self.drift.len(),
            errors: count(Severity::Error),
            warnings: count(Severity::Warning),
            infos: count(Severity::Info),
            by_profile: status_counts(&profile_names, self.skills.iter().map(|s| &s.availability)),
            agents_by_profile: status_counts(
                &profile_names,
                self.agents.iter().map(|a| &a.availability),
            ),
            // One code per rule, so the counts move over as they are.
            by_rule: by_rule
                .into_iter()
                .map(|(rule, n)| (rule.code().to_owned(), n))
                .collect(),
            fixes: self.summary.fixes,
        };
    }

    /// Findings that decide the exit code: only new ones when a baseline is set.
    pub(crate) fn gating_findings(&self) -> &[Finding] {
        match &self.baseline {
            Some(b) => &b.new_findings,
            None => &self.findings,
        }
    }

    /// The most severe finding that gates the run, if any.
    pub(crate) fn worst(&self) -> Option<Severity> {
        self.gating_findings().iter().map(|f| f.severity).max()
    }

    /// Whether the run fails by `--fail-on`: as the run set it, else by errors, the default.
    pub(crate) fn run_fails(&self) -> bool {
        self.fails
            .unwrap_or_else(|| self.worst() >= Some(Severity::Error))
    }

    /// Each skill's label and availability, in report order: the rows of a skill matrix.
    pub(crate) fn skill_rows(&self) -> impl Iterator<Item = Row<'_>> + Clone {
        labelled((self.skills.iter()).map(|k| {
            (
                k.skill.name.as_str(),
                k.skill.path.as_str(),
                &k.availability,
            )
        }))
    }

    /// Each agent's label and availability, in report order: the rows of an agent matrix.
    pub(crate) fn agent_rows(&self) -> impl Iterator<Item = Row<'_>> + Clone {
        labelled((self.agents.iter()).map(|a| {
            (
                a.agent.name.as_str(),
                a.agent.path.as_str(),
                &a.availability,
            )
        }))
    }

    /// Profile names in column order.
    pub(crate) fn profile_names(&self) -> impl Iterator<Item = &str> {
        self.profiles.iter().map(|p| p.name.as_str())
    }
}

/// Whether `c`, from a scanned file, is shown as an escape (`\u{202e}`) rather than as itself,
/// in every format: a control character other than a line break or a tab (those are
/// whitespace), a bidi control (marks, embeddings, overrides, isolates), or an invisible
/// format character (the zero-width space, the word joiner and its kin, the byte order mark,
/// line and paragraph separators). Raw, they let a scanned file reorder, hide or split what a
/// reader sees of a name or a message. The zero-width joiner and non-joiner stay: emoji
/// sequences and several scripts need them, and they reorder nothing.
pub(crate) fn is_hidden(c: char) -> bool {
    (c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        || matches!(
            c,
            '\u{ad}'
                | '\u{61c}'
                | '\u{180e}'
                | '\u{200b}'
                | '\u{200e}'..='\u{200f}'
                | '\u{2028}'..='\u{202e}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{2069}'
                | '\u{feff}'
        )
}

/// `text` with each [hidden](is_hidden) character written as `\u{…}`; borrowed when there is
/// none.
pub(crate) fn unhidden(text: &str) -> std::borrow::Cow<'_, str> {
    escaped(text, is_hidden)
}

/// `text` with each character `shown` picks written as `\u{…}`; borrowed when there is none.
pub(crate) fn escaped(text: &str, shown: fn(char) -> bool) -> std::borrow::Cow<'_, str> {
    use std::fmt::Write as _;
    if !text.chars().any(shown) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if shown(c) {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_counts_show_every_status_of_the_report_profiles() {
        let entry = |statuses: &[(&str, Status)]| -> ByProfile {
            statuses
                .iter()
                .map(|(p, status)| {
                    let availability = Availability::of(*status, None);
                    ((*p).to_owned(), availability)
                })
                .collect()
        };
        let entries = [
            entry(&[("prod", Status::Available), ("dev", Status::Invalid)]),
            entry(&[("prod", Status::Available), ("merged", Status::Undeclared)]),
        ];
        let counts = status_counts(&["prod", "dev"], entries.iter());
        let row =
            |p: &str| -> Vec<(Status, usize)> { counts[p].iter().map(|(s, n)| (*s, *n)).collect() };
        use Status::*;
        assert_eq!(
            row("prod"),
            [
                (Available, 2),
                (Partial, 0),
                (Unavailable, 0),
                (NotLoaded, 0),
                (NeedsNothing, 0),
                (NotJudged, 0),
                (Undeclared, 0),
                (Invalid, 0)
            ]
        );
        assert_eq!(
            row("dev"),
            [
                (Available, 0),
                (Partial, 0),
                (Unavailable, 0),
                (NotLoaded, 0),
                (NeedsNothing, 0),
                (NotJudged, 0),
                (Undeclared, 0),
                (Invalid, 1)
            ]
        );
        // A profile the report does not list (one side of a merge) shows what was seen.
        assert_eq!(row("merged"), [(Undeclared, 1)]);
        assert_eq!(counts.len(), 3);
    }
}
