//! The rules by which a host loads a SKILL.md at all: the file name it looks for, what it does
//! with a frontmatter that is not YAML, the fields it requires, and the limits on `name` and
//! `description`. Each host profile carries its own, as data (`skills` in its JSON), with the
//! document or source file each rule was read from; a rule a host does not document is absent,
//! and a skill is never refused for it.

use schemars::JsonSchema;
use serde::Deserialize;

use crate::diagnostic::{quote, thousands};
use crate::model::{Skill, Unreadable as Found};
use crate::parse::skill::{line_value, lines_read};

/// How a host loads skills (the `skills` key of a host profile). Every rule is optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SkillLoading {
    /// The file name the host looks for in a skill's folder.
    #[serde(default)]
    pub file: Option<FileRule>,
    /// What the host does with a frontmatter that is missing or is not valid YAML.
    #[serde(default)]
    pub frontmatter: Option<FrontmatterRule>,
    /// Fields without which the host skips the skill.
    #[serde(default)]
    pub required: Option<RequiredRule>,
    /// Limits on `name` beyond which the host skips the skill.
    #[serde(default)]
    pub name: Option<TextRule>,
    /// Limits on `description` beyond which the host skips the skill.
    #[serde(default)]
    pub description: Option<TextRule>,
    /// What the host requires of `metadata`.
    #[serde(default)]
    pub metadata: Option<MetadataRule>,
    /// The frontmatter fields the host reads (others it ignores). Informative: it refuses
    /// no skill.
    #[serde(default)]
    pub reads: Option<ReadsRule>,
}

/// The skill file's name.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileRule {
    /// The name, as the host spells it (`SKILL.md`).
    pub name: String,
    /// Whether another case of it (`skill.md`) is skipped.
    #[serde(rename = "case-sensitive")]
    pub case_sensitive: bool,
    /// Whether the host asks the file system for the name rather than comparing it: another
    /// case is then found only where the file system ignores case (macOS, Windows), not on a
    /// case-sensitive one (Linux). Only with `case-sensitive` false.
    #[serde(rename = "file-system", default)]
    pub file_system: bool,
    /// The largest file the host reads, in bytes: a larger one is skipped.
    #[serde(rename = "max-bytes", default)]
    pub max_bytes: Option<u64>,
    /// Where the rule is documented.
    pub source: String,
}

/// What a host does with a frontmatter it cannot read as YAML.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FrontmatterRule {
    pub unreadable: Unreadable,
    /// Whether the host ends the frontmatter at the first line that is `---` once trimmed,
    /// an indented one too.
    #[serde(rename = "trimmed-close", default)]
    pub trimmed_close: bool,
    /// Whether the host finds no frontmatter after a byte order mark at the start of the file,
    /// and so skips the skill.
    #[serde(rename = "no-bom", default)]
    pub no_bom: bool,
    /// Whether the host finds a frontmatter only where the first line is `---` alone and a
    /// line comes before the closing `---`, and so skips a skill whose first line has blanks
    /// after the dashes, or whose closing `---` comes right after it.
    #[serde(rename = "exact-open", default)]
    pub exact_open: bool,
    /// Whether the host opens a frontmatter when the file starts with `---` and ends it at the
    /// next line that starts with `---` (`----`, `--- x` too), reading the block from the
    /// fifth character on.
    #[serde(rename = "dash-fence", default)]
    pub dash_fence: bool,
    /// Whether the host ends the frontmatter at the first line after the opening `---` that
    /// starts with `---` (`----`, `--- x` too), where skill-audit ends it only at a `---` line,
    /// and reads the block above it as its other rules say.
    #[serde(rename = "dash-close", default)]
    pub dash_close: bool,
    /// With `read-lines`: whether the host also reads the `key: value` lines of a frontmatter
    /// that is YAML when its `name` and `description` are not both strings.
    #[serde(rename = "lines-unless-text", default)]
    pub lines_unless_text: bool,
    /// With `read-lines`: whether the host reads only the `key: value` lines whose key is at
    /// the left margin (not indented).
    #[serde(rename = "margin-lines", default)]
    pub margin_lines: bool,
    /// Whether the host reads YAML with js-yaml 3, which takes a line indented with tabs as
    /// indented only by the spaces before its first tab (a key at the left margin when there
    /// are none), where skill-audit's reader refuses it.
    #[serde(rename = "tab-indents", default)]
    pub tab_indents: bool,
    /// Where the rule is documented.
    pub source: String,
}

/// A host's answer to a frontmatter that is missing or not YAML.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Unreadable {
    /// The skill is not loaded.
    Skip,
    /// The skill loads, named after its folder, with none of its fields.
    LoadWithoutFields,
    /// The host reads `key: value` lines instead; its other rules judge what it finds there.
    ReadLines,
    /// The host parses it again with every top-level value that holds a colon made block text,
    /// and skips the skill when that fails too; its other rules judge what it finds.
    QuoteColons,
    /// Not loaded unless its frontmatter is YAML: a file without one, with one no `---` line
    /// closes, or with one that is not YAML, is skipped. YAML that is not a mapping gives no
    /// fields, for the host's other rules to judge.
    SkipUnlessYaml,
    /// A frontmatter that is not YAML: the skill is not loaded. A file without one, or YAML
    /// that is not a mapping, gives no fields, for the host's other rules to judge.
    SkipUnlessAbsent,
    /// The host reads it with a lenient reader of its own, which never refuses one: the skill
    /// loads, and skill-audit reads none of its fields (the host's other rules still judge a
    /// file without a frontmatter).
    Lenient,
}

/// Fields a host requires.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequiredRule {
    /// `name`, `description`.
    pub fields: Vec<String>,
    /// Whether an empty value counts as missing.
    #[serde(rename = "non-empty")]
    pub non_empty: bool,
    /// Where the rule is documented.
    pub source: String,
}

/// Limits on a text field.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TextRule {
    /// At most this many characters (Unicode scalar values).
    #[serde(default, rename = "max-chars")]
    pub max_chars: Option<usize>,
    /// Whether runs of whitespace count as one space, and the ends not at all, as the host
    /// measures.
    #[serde(default, rename = "collapse-whitespace")]
    pub collapse_whitespace: bool,
    /// Whether the host trims the value's ends before it measures and checks it.
    #[serde(default)]
    pub trim: bool,
    /// Whether a value written empty (or only whitespace) makes the host skip the skill.
    #[serde(default, rename = "non-empty")]
    pub non_empty: bool,
    /// Whether a value written as something other than text (a number, a list, nothing after
    /// the colon) makes the host skip the skill.
    #[serde(default, rename = "text-only")]
    pub text_only: bool,
    /// What the host makes of a value written as something other than text (without it, it
    /// has none).
    #[serde(default)]
    pub scalars: Option<Scalars>,
    /// For `name`: whether a skill without one is named after its folder, and the folder's
    /// name is then held to these limits.
    #[serde(default)]
    pub folder: bool,
    /// The only characters allowed, as ASCII ranges and characters (`a-z0-9-`).
    #[serde(default)]
    pub charset: Option<String>,
    /// The only characters allowed first, written as `charset` is.
    #[serde(default)]
    pub first: Option<String>,
    /// Where the rule is documented.
    pub source: String,
}

/// What a host makes of a `name` or `description` that is not a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Scalars {
    /// A scalar is its text as written (`123`, `~`; nothing after the colon is empty); a list
    /// or a mapping makes the host skip the skill.
    AsWritten,
    /// Nothing after the colon (or `null`) is no value; a number or `true` is its text; a
    /// list or a mapping is its JSON text, never empty.
    Coerced,
}

/// What a host requires of `metadata`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MetadataRule {
    /// Whether a `metadata` written as something other than a mapping makes the host skip
    /// the skill.
    #[serde(default)]
    pub mapping: bool,
    /// Limits on `metadata.short-description` beyond which the host skips the skill.
    #[serde(rename = "short-description", default)]
    pub short_description: Option<TextRule>,
    /// Where the rule is documented.
    pub source: String,
}

/// The fields a host reads.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReadsRule {
    pub fields: Vec<String>,
    /// Where the list is documented.
    pub source: String,
}

/// Whether a host loads a skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Loading {
    Loads,
    /// It loads, with none of its fields (the reason says so).
    WithoutFields(String),
    /// It does not load: the reason names the host and the rule.
    Refused(String),
}

impl SkillLoading {
    /// [`SkillLoading::judge_on`] a machine whose OS is not described.
    #[cfg(test)]
    pub(crate) fn judge(&self, skill: &Skill, host: &str) -> Loading {
        self.judge_on(skill, host, None)
    }

    /// Does the host called `host` (as people write it: "Codex") load `skill`, on a machine
    /// of `os` (OpenClaw's names; `None`: not described)?
    pub(crate) fn judge_on(
        &self,
        skill: &Skill,
        host: &str,
        os: Option<&std::collections::BTreeSet<String>>,
    ) -> Loading {
        if let Some(file) = &self.file {
            let written = skill
                .fs_path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            if file.case_sensitive && !written.is_empty() && written != file.name {
                return Loading::Refused(format!(
                    "{host} looks for a file named exactly {}, not {}",
                    quote(&file.name),
                    quote(written)
                ));
            }
            // Found by asking the file system: only one that ignores case finds another case.
            let case_blind = os.is_some_and(|os| !os.is_empty() && os.iter().all(|o| o != "linux"));
            if file.file_system
                && !file.case_sensitive
                && !case_blind
                && !written.is_empty()
                && written != file.name
            {
                return Loading::Refused(format!(
                    "{host} looks for {}: on a case-sensitive file system (Linux) it does not find {}; on macOS and Windows it does",
                    quote(&file.name),
                    quote(written)
                ));
            }
            if let Some(max) = file.max_bytes.filter(|&m| skill.fields.file_bytes > m) {
                return Loading::Refused(format!(
                    "{host} skips a {} over {max} bytes, and this one has {}",
                    quote(&file.name),
                    skill.fields.file_bytes
                ));
            }
        }
        if let Some(rule) = &self.frontmatter {
            if rule.no_bom && skill.fields.bom {
                return Loading::Refused(format!(
                    "{host} finds no frontmatter after the byte order mark (U+FEFF) that starts the file, so it skips the skill; save the file without it"
                ));
            }
            if rule.exact_open && skill.fields.open_padded {
                return Loading::Refused(format!(
                    "{host} finds no frontmatter, as it opens one only at a first line that is `---` alone and this one has blanks after the dashes, so it skips the skill"
                ));
            }
            if rule.trimmed_close
                && let Some(early) = &skill.fields.trimmed_close
                && let Some(verdict) = self.closed_early(skill, host, rule, early)
            {
                return verdict;
            }
            if rule.dash_fence
                && let Some(fenced) = &skill.fields.dash_fenced
            {
                let line = fenced.line;
                return match self.refusal_of(host, &fenced.coerced) {
                    Some(reason) => Loading::Refused(format!(
                        "{reason}, as it reads the frontmatter from the first line to line {line}, opening and ending one at lines that start with `---`"
                    )),
                    None if skill.invalid => Loading::WithoutFields(format!(
                        "{host} reads the frontmatter from the first line to line {line}, as it opens and ends one at lines that start with `---`; skill-audit reads none of its other fields"
                    )),
                    None => Loading::Loads,
                };
            }
            // A host that needs a line between the dashes ends it at the third line at the
            // earliest.
            if rule.dash_close
                && let Some(fenced) = &skill.fields.dash_fenced
                && fenced.opened
                && (!rule.exact_open || fenced.line > 2)
                && let Some(verdict) = self.closed_at_dashes(skill, host, rule, fenced)
            {
                return verdict;
            }
            if rule.lines_unless_text
                && rule.unreadable == Unreadable::ReadLines
                && !skill.invalid
                && (skill.fields.name_written.is_none()
                    || skill.fields.description_written.is_none())
                && let Some(keys) = &skill.fields.line_keys
            {
                let line = |key: &str| line_value(keys, key, false);
                return match self.refusal(
                    host,
                    line("name"),
                    line("description"),
                    Some("its YAML `name` and `description` are not both strings"),
                ) {
                    Some(reason) => Loading::Refused(reason),
                    None => Loading::Loads,
                };
            }
        }
        if skill.invalid {
            return self.unreadable(skill, host);
        }
        match self.written(skill, host) {
            Some(reason) => Loading::Refused(reason),
            None => Loading::Loads,
        }
    }

    /// The verdict of a host that ends the frontmatter at the indented `---` line `early`
    /// names, when it is not the one skill-audit's own reading gives.
    fn closed_early(
        &self,
        skill: &Skill,
        host: &str,
        rule: &FrontmatterRule,
        early: &crate::model::TrimmedClose,
    ) -> Option<Loading> {
        let line = early.line;
        let Some(read) = &early.read else {
            // What a host other than one that skips it does with it is not modelled.
            return (rule.unreadable == Unreadable::Skip).then(|| {
                Loading::Refused(format!(
                    "{host} ends the frontmatter at the indented `---` on line {line}, and what is above it is not a YAML mapping with fields, so it skips the skill"
                ))
            });
        };
        if let Some(reason) = self.refusal_of(host, read) {
            return Some(Loading::Refused(format!(
                "{reason}, as it ends the frontmatter at the indented `---` on line {line}"
            )));
        }
        skill.invalid.then(|| {
            Loading::WithoutFields(format!(
                "{host} ends the frontmatter at the indented `---` on line {line} and loads it; skill-audit reads none of its other fields"
            ))
        })
    }

    /// The verdict of a host that ends the frontmatter at the line starting with `---` that
    /// `fenced` names, reading what is above it as its other rules say (`None`: a way of
    /// reading that is not modelled).
    fn closed_at_dashes(
        &self,
        skill: &Skill,
        host: &str,
        rule: &FrontmatterRule,
        fenced: &crate::model::DashFenced,
    ) -> Option<Loading> {
        let ends = format!(
            "{host} ends the frontmatter at line {} ({}), the first line after the opening one that starts with `---`",
            fenced.line,
            quote(&fenced.close)
        );
        let lines = || lines_read(&fenced.lines, rule.margin_lines);
        let read = match rule.unreadable {
            Unreadable::ReadLines => match &fenced.yaml {
                Some(w) if w.name.is_some() && w.description.is_some() => Some(w.clone()),
                Some(w) if !rule.lines_unless_text => Some(w.clone()),
                _ => Some(lines()),
            },
            Unreadable::QuoteColons => fenced.yaml.clone().or(fenced.colons_quoted.clone()),
            Unreadable::Skip | Unreadable::SkipUnlessYaml | Unreadable::SkipUnlessAbsent => {
                fenced.yaml.clone()
            }
            Unreadable::LoadWithoutFields | Unreadable::Lenient => return None,
        };
        let Some(read) = read else {
            let retried = if rule.unreadable == Unreadable::QuoteColons {
                ", even with its values that hold a colon made block text"
            } else {
                ""
            };
            return Some(Loading::Refused(format!(
                "{ends}, and what is above it is not valid YAML{retried}, so it skips the skill"
            )));
        };
        Some(match self.refusal_of(host, &read) {
            Some(reason) => {
                let reason = reason
                    .strip_prefix(host)
                    .map_or(reason.clone(), |r| format!("it{r}"));
                Loading::Refused(format!("{ends}, so {reason}"))
            }
            None if skill.invalid => Loading::WithoutFields(format!(
                "{ends}, and reads what is above it; skill-audit reads none of its fields"
            )),
            None => Loading::Loads,
        })
    }

    /// Why the host skips a skill whose frontmatter it read, for the `name` and `description`
    /// written there, if it does.
    fn written(&self, skill: &Skill, host: &str) -> Option<String> {
        let f = &skill.fields;
        let mut read = [f.name_written.as_deref(), f.description_written.as_deref()];
        for (at, (field, rule, not_text, scalar)) in [
            ("name", &self.name, f.name_not_text, &f.scalars.name),
            (
                "description",
                &self.description,
                f.description_not_text,
                &f.scalars.description,
            ),
        ]
        .into_iter()
        .enumerate()
        {
            if !not_text {
                continue;
            }
            let Some(rule) = rule else { continue };
            if rule.text_only {
                return Some(format!("{host} skips a skill whose `{field}` is not text"));
            }
            read[at] = match (rule.scalars, scalar) {
                (Some(Scalars::AsWritten), Some(text)) => Some(text.as_str()),
                (Some(Scalars::AsWritten), None) => {
                    return Some(format!("{host} skips a skill whose `{field}` is not text"));
                }
                (Some(Scalars::Coerced), Some(text)) => Some(text.as_str())
                    .filter(|t| !matches!(*t, "" | "~" | "null" | "Null" | "NULL")),
                // A list or a mapping as JSON, which is never empty; only that is judged.
                (Some(Scalars::Coerced), None) => Some("{…}"),
                (None, _) => None,
            };
        }
        if let Some(rule) = &self.metadata {
            if rule.mapping && f.metadata_not_mapping {
                return Some(format!(
                    "{host} skips a skill whose `metadata` is not a mapping"
                ));
            }
            if let Some(limits) = &rule.short_description
                && let Some(value) = f.metadata.get("short-description")
                && let Some(reason) = limits.refusal(host, "metadata.short-description", value)
            {
                return Some(reason);
            }
        }
        if let Some(rule) = &self.name
            && rule.folder
            && f.name_written.is_none()
            && !f.name_not_text
            && let Some(reason) = rule.refusal(
                host,
                "name",
                &crate::paths::folder_name_text(&skill.fs_path),
            )
        {
            return Some(format!(
                "{reason}, taken from its folder as it has no `name`"
            ));
        }
        self.refusal(host, read[0], read[1], None)
    }

    /// Does the host load `skill`, whose frontmatter gave no fields?
    fn unreadable(&self, skill: &Skill, host: &str) -> Loading {
        if skill
            .fields
            .unreadable
            .is_none_or(|why| why == Found::NotText)
        {
            // Not text, which no host reads, or invalid for its requirements' shape:
            // `invalid` already says so.
            return Loading::Loads;
        }
        if skill.fields.unreadable == Some(Found::NoFrontmatter) {
            return self.no_frontmatter(host);
        }
        let how = self.frontmatter.as_ref().map(|f| f.unreadable);
        // Nothing to read, in YAML or in lines: the fields the host requires are missing.
        if skill.fields.frontmatter_empty
            && matches!(how, Some(Unreadable::ReadLines | Unreadable::QuoteColons))
        {
            if how == Some(Unreadable::ReadLines)
                && self.frontmatter.as_ref().is_some_and(|f| f.exact_open)
                && skill.fields.line_keys.is_none()
            {
                return Loading::Refused(format!(
                    "{host} finds no frontmatter, as it needs a line between the opening `---` and the closing one, so it skips the skill"
                ));
            }
            return match self.refusal(host, None, None, None) {
                Some(reason) => Loading::Refused(format!("{reason}: its frontmatter is empty")),
                None => Loading::WithoutFields(format!(
                    "{host} loads it with an empty frontmatter, with no fields"
                )),
            };
        }
        match how {
            Some(Unreadable::Skip) => Loading::Refused(format!(
                "{host} skips a skill whose frontmatter is missing or not valid YAML"
            )),
            Some(Unreadable::LoadWithoutFields) => Loading::WithoutFields(format!(
                "{host} loads it although its frontmatter cannot be read, with none of its fields"
            )),
            Some(Unreadable::ReadLines) => {
                let Some(keys) = &skill.fields.line_keys else {
                    return Loading::Refused(format!(
                        "{host} skips a skill without a frontmatter between `---` lines"
                    ));
                };
                let margin = self.frontmatter.as_ref().is_some_and(|f| f.margin_lines);
                let line = |key: &str| line_value(keys, key, margin);
                match self.refusal(
                    host,
                    line("name"),
                    line("description"),
                    Some("its frontmatter is not valid YAML"),
                ) {
                    Some(reason) => Loading::Refused(reason),
                    None => Loading::WithoutFields(format!(
                        "{host} reads its `key: value` lines although its frontmatter is not valid YAML; it reads none of its other fields"
                    )),
                }
            }
            Some(Unreadable::QuoteColons) => match skill.fields.unreadable {
                // Where the host's reader ends an unclosed frontmatter is not modelled.
                Some(Found::Unclosed) => Loading::Loads,
                _ if let Some(verdict) = self.tabs(skill, host) => verdict,
                _ => match &skill.fields.colons_quoted {
                    None => Loading::Refused(format!(
                        "{host} skips a skill whose frontmatter is not valid YAML, even with its values that hold a colon made block text"
                    )),
                    Some(f) => {
                        match self.refusal_of(host, f)
                        {
                            Some(reason) => Loading::Refused(reason),
                            None => Loading::WithoutFields(format!(
                                "{host} reads it once its values that hold a colon are made block text, as its frontmatter is not valid YAML"
                            )),
                        }
                    }
                },
            },
            Some(rule @ (Unreadable::SkipUnlessYaml | Unreadable::SkipUnlessAbsent)) => {
                let absent_ok = rule == Unreadable::SkipUnlessAbsent;
                match skill.fields.unreadable {
                    Some(Found::NotMapping) => self.without_fields(
                        host,
                        format!(
                            "{host} loads it with no fields, as its frontmatter is not a mapping"
                        ),
                    ),
                    // Where the host's reader ends an unclosed frontmatter is not modelled.
                    Some(Found::Unclosed) if absent_ok => Loading::Loads,
                    Some(Found::Unclosed) => Loading::Refused(format!(
                        "{host} skips a skill whose frontmatter no `---` line closes"
                    )),
                    _ => self.tabs(skill, host).unwrap_or_else(|| {
                        Loading::Refused(format!(
                            "{host} skips a skill whose frontmatter is not valid YAML"
                        ))
                    }),
                }
            }
            Some(Unreadable::Lenient) => self.without_fields(
                host,
                format!(
                    "{host} loads it, as its own reader takes a frontmatter that is not valid YAML (skill-audit reads none of its fields)"
                ),
            ),
            // Undocumented: the frontmatter is unreadable, and `invalid` says so.
            None => Loading::Loads,
        }
    }

    /// The verdict of a host that reads YAML with js-yaml 3 on a frontmatter that is YAML
    /// that way only, for its tab-indented lines.
    fn tabs(&self, skill: &Skill, host: &str) -> Option<Loading> {
        if !self.frontmatter.as_ref().is_some_and(|f| f.tab_indents) {
            return None;
        }
        let read = skill.fields.tabs_read.as_ref()?;
        Some(match self.refusal_of(host, read) {
            Some(reason) => Loading::Refused(format!(
                "{reason}, as its YAML reader (js-yaml 3) takes a line indented with tabs as indented by the spaces before them"
            )),
            None => Loading::WithoutFields(format!(
                "{host} reads it, as its YAML reader (js-yaml 3) takes a line indented with tabs as indented by the spaces before them; skill-audit reads none of its fields"
            )),
        })
    }

    /// What the host does with a skill file that does not start with a frontmatter; one that
    /// loads it reads no fields of it.
    pub(crate) fn no_frontmatter(&self, host: &str) -> Loading {
        match self.frontmatter.as_ref().map(|f| f.unreadable) {
            Some(Unreadable::Skip) => Loading::Refused(format!(
                "{host} skips a skill whose frontmatter is missing or not valid YAML"
            )),
            Some(Unreadable::LoadWithoutFields) => Loading::WithoutFields(format!(
                "{host} loads it although its frontmatter cannot be read, with none of its fields"
            )),
            Some(Unreadable::ReadLines) => Loading::Refused(format!(
                "{host} skips a skill without a frontmatter between `---` lines"
            )),
            Some(Unreadable::SkipUnlessYaml) => Loading::Refused(format!(
                "{host} skips a skill that does not start with a frontmatter"
            )),
            Some(Unreadable::QuoteColons | Unreadable::SkipUnlessAbsent | Unreadable::Lenient) => {
                self.without_fields(
                    host,
                    format!("{host} loads it without a frontmatter, with no fields"),
                )
            }
            None => Loading::Loads,
        }
    }

    /// A skill the host reads no fields of: refused if a field it requires is missing, else
    /// loaded, as `why` says.
    fn without_fields(&self, host: &str, why: String) -> Loading {
        match self.refusal(host, None, None, None) {
            Some(reason) => Loading::Refused(reason),
            None => Loading::WithoutFields(why),
        }
    }

    /// [`Self::refusal`] of the `name` and `description` a host read its own way.
    fn refusal_of(&self, host: &str, read: &crate::model::Written) -> Option<String> {
        self.refusal(
            host,
            read.name.as_deref(),
            read.description.as_deref(),
            None,
        )
    }

    /// Why the host skips a skill whose `name` and `description` are these (`None`: not
    /// written as text), if it does. `lines`: read from lines, where a value is its rest of
    /// the line and is not limited further than the host limits it, for the reason it says.
    fn refusal(
        &self,
        host: &str,
        name: Option<&str>,
        description: Option<&str>,
        lines: Option<&str>,
    ) -> Option<String> {
        if let Some(req) = &self.required {
            for field in &req.fields {
                let value = match field.as_str() {
                    "name" => name,
                    "description" => description,
                    _ => continue,
                };
                match value {
                    None if let Some(why) = lines => {
                        return Some(format!(
                            "{host} skips a skill without a `{field}:` line, and {why}"
                        ));
                    }
                    None => return Some(format!("{host} skips a skill without a `{field}`")),
                    Some(v) if req.non_empty && v.trim().is_empty() => {
                        return Some(format!("{host} skips a skill whose `{field}` is empty"));
                    }
                    Some(_) => {}
                }
            }
        }
        for (field, rule, value) in [
            ("name", &self.name, name),
            ("description", &self.description, description),
        ] {
            if let (Some(rule), Some(value)) = (rule, value)
                && let Some(reason) = rule.refusal(host, field, value)
            {
                return Some(reason);
            }
        }
        None
    }
}

impl TextRule {
    fn refusal(&self, host: &str, field: &str, value: &str) -> Option<String> {
        let value = if self.trim { value.trim() } else { value };
        if self.non_empty && value.trim().is_empty() {
            return Some(format!("{host} skips a skill whose `{field}` is empty"));
        }
        let measured: std::borrow::Cow<str> = if self.collapse_whitespace {
            value
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .into()
        } else {
            value.into()
        };
        if let Some(max) = self.max_chars {
            let n = measured.chars().count();
            if n > max {
                return Some(format!(
                    "{host} skips a skill whose {field} is over {} characters ({})",
                    thousands(max),
                    thousands(n)
                ));
            }
        }
        if let Some(charset) = &self.charset
            && !value.is_empty()
            && let Some(bad) = value.chars().find(|c| !allowed(charset, *c))
        {
            return Some(format!(
                "{host} skips a skill whose {field} {} has {}, a character outside {}",
                quote(value),
                quote(&bad.to_string()),
                quote(charset)
            ));
        }
        if let Some(first) = &self.first
            && let Some(c) = value.chars().next()
            && !allowed(first, c)
        {
            return Some(format!(
                "{host} skips a skill whose {field} {} starts with {}, a character outside {}",
                quote(value),
                quote(&c.to_string()),
                quote(first)
            ));
        }
        None
    }
}

/// Is `c` one of `charset`'s ranges (`a-z`) or characters? A `-` at either end is itself.
fn allowed(charset: &str, c: char) -> bool {
    let set: Vec<char> = charset.chars().collect();
    let mut i = 0;
    while i < set.len() {
        if i + 2 < set.len() && set[i + 1] == '-' {
            if (set[i]..=set[i + 2]).contains(&c) {
                return true;
            }
            i += 3;
        } else {
            if set[i] == c {
                return true;
            }
            i += 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(file: &str, name: Option<&str>, description: Option<&str>) -> Skill {
        let mut s = Skill::invalid(
            "demo".into(),
            format!("demo/{file}"),
            std::path::PathBuf::from(format!("demo/{file}")),
        );
        s.invalid = false;
        s.fields.name_written = name.map(str::to_owned);
        s.fields.description_written = description.map(str::to_owned);
        s
    }

    fn codex() -> SkillLoading {
        let src = || "loader.rs".to_owned();
        SkillLoading {
            file: Some(FileRule {
                name: "SKILL.md".into(),
                case_sensitive: true,
                file_system: false,
                max_bytes: None,
                source: src(),
            }),
            frontmatter: Some(FrontmatterRule {
                unreadable: Unreadable::Skip,
                trimmed_close: false,
                no_bom: false,
                exact_open: false,
                dash_fence: false,
                dash_close: false,
                lines_unless_text: false,
                tab_indents: false,
                margin_lines: false,
                source: src(),
            }),
            required: Some(RequiredRule {
                fields: vec!["name".into(), "description".into()],
                non_empty: true,
                source: src(),
            }),
            name: Some(TextRule {
                max_chars: Some(64),
                collapse_whitespace: true,
                source: src(),
                ..TextRule::default()
            }),
            description: Some(TextRule {
                max_chars: Some(1024),
                collapse_whitespace: true,
                source: src(),
                ..TextRule::default()
            }),
            metadata: None,
            reads: None,
        }
    }

    #[test]
    fn each_rule_refuses_with_the_host_and_the_rule() {
        let rules = codex();
        let ok = skill("SKILL.md", Some("demo"), Some("Does things."));
        assert_eq!(rules.judge(&ok, "Codex"), Loading::Loads);
        let lower = skill("skill.md", Some("demo"), Some("Does things."));
        assert_eq!(
            rules.judge(&lower, "Codex"),
            Loading::Refused(
                "Codex looks for a file named exactly `SKILL.md`, not `skill.md`".into()
            )
        );
        let long = "x".repeat(1025);
        assert_eq!(
            rules.judge(&skill("SKILL.md", Some("demo"), Some(&long)), "Codex"),
            Loading::Refused(
                "Codex skips a skill whose description is over 1,024 characters (1,025)".into()
            )
        );
        // Measured as Codex measures: whitespace runs are one space.
        let spaced = format!("{}   {}", "x".repeat(600), "y".repeat(423));
        assert_eq!(
            rules.judge(&skill("SKILL.md", Some("demo"), Some(&spaced)), "Codex"),
            Loading::Loads
        );
        assert_eq!(
            rules.judge(&skill("SKILL.md", None, Some("d")), "Codex"),
            Loading::Refused("Codex skips a skill without a `name`".into())
        );
        assert_eq!(
            rules.judge(&skill("SKILL.md", Some(" "), Some("d")), "Codex"),
            Loading::Refused("Codex skips a skill whose `name` is empty".into())
        );
    }

    #[test]
    fn a_name_found_through_the_file_system_depends_on_the_os() {
        let mut rules = codex();
        if let Some(file) = rules.file.as_mut() {
            file.case_sensitive = false;
            file.file_system = true;
        }
        let lower = skill("skill.md", Some("demo"), Some("Does things."));
        let os = |names: &[&str]| names.iter().map(|n| (*n).to_owned()).collect();
        let refused = |l: Loading| matches!(l, Loading::Refused(r) if r.contains("on a case-sensitive file system (Linux) it does not find `skill.md`"));
        assert!(refused(rules.judge(&lower, "H")));
        assert!(refused(rules.judge_on(
            &lower,
            "H",
            Some(&os(&["darwin", "linux"]))
        )));
        assert!(refused(rules.judge_on(&lower, "H", Some(&os(&[])))));
        let blind = os(&["darwin", "win32"]);
        assert_eq!(rules.judge_on(&lower, "H", Some(&blind)), Loading::Loads);
        // Without `file-system`, `case-sensitive: false` takes any case anywhere.
        if let Some(file) = rules.file.as_mut() {
            file.file_system = false;
        }
        assert_eq!(rules.judge(&lower, "H"), Loading::Loads);
    }

    #[test]
    fn frontmatter_reading_rules_of_bom_and_indented_dashes() {
        let mut rules = codex();
        let mut s = skill("SKILL.md", Some("demo"), Some("Does things."));
        s.fields.bom = true;
        assert_eq!(rules.judge(&s, "H"), Loading::Loads);
        s.fields.trimmed_close = Some(crate::model::TrimmedClose {
            line: 3,
            read: Some(crate::model::Written {
                name: Some("demo".into()),
                description: None,
            }),
        });
        assert_eq!(rules.judge(&s, "H"), Loading::Loads, "not the host's rule");
        if let Some(fm) = rules.frontmatter.as_mut() {
            fm.trimmed_close = true;
        }
        assert_eq!(
            rules.judge(&s, "H"),
            Loading::Refused(
                "H skips a skill without a `description`, as it ends the frontmatter at the indented `---` on line 3".into()
            )
        );
        if let Some(fm) = rules.frontmatter.as_mut() {
            fm.no_bom = true;
        }
        assert!(
            matches!(rules.judge(&s, "H"), Loading::Refused(r) if r.contains("byte order mark"))
        );
    }

    #[test]
    fn a_frontmatter_ended_at_a_line_that_starts_with_dashes() {
        let mut rules = codex();
        let mut s = skill("SKILL.md", Some("demo"), Some("Does things."));
        let name_only = crate::model::Written {
            name: Some("demo".into()),
            description: None,
        };
        s.fields.dash_fenced = Some(Box::new(crate::model::DashFenced {
            line: 3,
            close: "--- x".into(),
            opened: true,
            yaml: None,
            lines: vec![
                ("name".into(), "demo".into()),
                ("description".into(), "d".into()),
            ],
            colons_quoted: Some(name_only.clone()),
            ..Default::default()
        }));
        assert_eq!(rules.judge(&s, "H"), Loading::Loads, "not the host's rule");
        let ends = "H ends the frontmatter at line 3 (`--- x`), the first line after the opening one that starts with `---`";
        let mut judged = |how: Unreadable| {
            if let Some(fm) = rules.frontmatter.as_mut() {
                fm.dash_close = true;
                fm.unreadable = how;
            }
            rules.judge(&s, "H")
        };
        assert_eq!(
            judged(Unreadable::Skip),
            Loading::Refused(format!(
                "{ends}, and what is above it is not valid YAML, so it skips the skill"
            ))
        );
        assert_eq!(
            judged(Unreadable::QuoteColons),
            Loading::Refused(format!(
                "{ends}, so it skips a skill without a `description`"
            ))
        );
        assert_eq!(judged(Unreadable::ReadLines), Loading::Loads);
        assert_eq!(judged(Unreadable::Lenient), Loading::Loads, "not modelled");
    }

    #[test]
    fn unreadable_frontmatter_by_host() {
        let mut s = skill("SKILL.md", None, None);
        s.invalid = true;
        s.fields.unreadable = Some(Found::NotYaml);
        assert!(matches!(codex().judge(&s, "Codex"), Loading::Refused(_)));
        let mut lines = codex();
        lines.frontmatter = Some(FrontmatterRule {
            unreadable: Unreadable::ReadLines,
            trimmed_close: false,
            no_bom: false,
            exact_open: false,
            dash_fence: false,
            dash_close: false,
            lines_unless_text: false,
            tab_indents: false,
            margin_lines: false,
            source: String::new(),
        });
        lines.required.as_mut().unwrap().non_empty = false;
        assert!(
            matches!(lines.judge(&s, "Gemini CLI"), Loading::Refused(r) if r.contains("between `---` lines"))
        );
        s.fields.line_keys = Some(vec![("description".into(), "d".into())]);
        assert!(
            matches!(lines.judge(&s, "Gemini CLI"), Loading::Refused(r) if r.contains("`name:` line"))
        );
        s.fields.line_keys = Some(vec![
            ("name".into(), "demo".into()),
            ("description".into(), "Use when: a colon".into()),
        ]);
        assert!(matches!(
            lines.judge(&s, "Gemini CLI"),
            Loading::WithoutFields(_)
        ));
        // A file that is not text is `invalid` on every host.
        s.fields.unreadable = Some(Found::NotText);
        assert_eq!(lines.judge(&s, "Gemini CLI"), Loading::Loads);
        // No documented rule: `invalid`, as before.
        let mut none = codex();
        none.frontmatter = None;
        s.fields.unreadable = Some(Found::NotYaml);
        assert_eq!(none.judge(&s, "Codex"), Loading::Loads);
    }

    #[test]
    fn hosts_that_skip_only_some_unreadable_frontmatters() {
        let rules = |unreadable| SkillLoading {
            frontmatter: Some(FrontmatterRule {
                unreadable,
                trimmed_close: false,
                no_bom: false,
                exact_open: false,
                dash_fence: false,
                dash_close: false,
                lines_unless_text: false,
                tab_indents: false,
                margin_lines: false,
                source: String::new(),
            }),
            required: Some(RequiredRule {
                fields: vec!["description".into()],
                non_empty: true,
                source: String::new(),
            }),
            ..SkillLoading::default()
        };
        let yaml_only = rules(Unreadable::SkipUnlessYaml);
        let absent_ok = rules(Unreadable::SkipUnlessAbsent);
        let unread = |why| {
            let mut s = skill("SKILL.md", None, None);
            s.invalid = true;
            s.fields.unreadable = Some(why);
            s
        };
        let refused = |l: Loading, what: &str| matches!(l, Loading::Refused(r) if r.contains(what));
        let not_yaml = unread(Found::NotYaml);
        assert!(refused(yaml_only.judge(&not_yaml, "H"), "not valid YAML"));
        assert!(refused(absent_ok.judge(&not_yaml, "H"), "not valid YAML"));
        // No frontmatter: one host skips it, the other reads no fields, and its required
        // `description` is then missing.
        let absent = unread(Found::NoFrontmatter);
        assert!(refused(
            yaml_only.judge(&absent, "H"),
            "does not start with"
        ));
        assert!(refused(
            absent_ok.judge(&absent, "H"),
            "without a `description`"
        ));
        let mut free = absent_ok.clone();
        free.required = None;
        assert!(matches!(
            free.judge(&absent, "H"),
            Loading::WithoutFields(_)
        ));
        // YAML that is not a mapping has no fields on both.
        let list = unread(Found::NotMapping);
        let mut yaml_free = yaml_only.clone();
        yaml_free.required = None;
        assert!(matches!(
            yaml_free.judge(&list, "H"),
            Loading::WithoutFields(_)
        ));
        assert!(refused(
            absent_ok.judge(&list, "H"),
            "without a `description`"
        ));
        // Unclosed: one host says so; where the other's reader ends it is not known.
        let unclosed = unread(Found::Unclosed);
        assert!(refused(
            yaml_only.judge(&unclosed, "H"),
            "no `---` line closes"
        ));
        assert_eq!(absent_ok.judge(&unclosed, "H"), Loading::Loads);
    }

    #[test]
    fn a_lenient_reader_loads_every_frontmatter() {
        let rules = SkillLoading {
            frontmatter: Some(FrontmatterRule {
                unreadable: Unreadable::Lenient,
                trimmed_close: false,
                no_bom: false,
                exact_open: false,
                dash_fence: false,
                dash_close: false,
                lines_unless_text: false,
                tab_indents: false,
                margin_lines: false,
                source: String::new(),
            }),
            ..SkillLoading::default()
        };
        for why in [Found::NotYaml, Found::Unclosed, Found::NotMapping] {
            let mut s = skill("SKILL.md", None, None);
            s.invalid = true;
            s.fields.unreadable = Some(why);
            assert!(
                matches!(rules.judge(&s, "H"), Loading::WithoutFields(r) if r.contains("its own reader")),
                "{why:?}"
            );
        }
        let mut s = skill("SKILL.md", None, None);
        s.invalid = true;
        s.fields.unreadable = Some(Found::NoFrontmatter);
        assert_eq!(
            rules.judge(&s, "H"),
            Loading::WithoutFields("H loads it without a frontmatter, with no fields".into())
        );
    }

    #[test]
    fn text_rules_trim_require_text_and_judge_the_first_character() {
        let rule = TextRule {
            max_chars: Some(5),
            trim: true,
            non_empty: true,
            charset: Some("A-Za-z0-9_.: -".into()),
            first: Some("A-Za-z0-9".into()),
            ..TextRule::default()
        };
        let why = |v: &str| rule.refusal("H", "name", v);
        assert_eq!(why("  a b  "), None);
        assert_eq!(why("a:b.c"), None);
        assert_eq!(
            why("   ").as_deref(),
            Some("H skips a skill whose `name` is empty")
        );
        assert_eq!(
            why(" abcdef ").as_deref(),
            Some("H skips a skill whose name is over 5 characters (6)")
        );
        assert_eq!(
            why("-ab").as_deref(),
            Some(
                "H skips a skill whose name `-ab` starts with `-`, a character outside `A-Za-z0-9`"
            )
        );
        assert!(why("a/b").is_some_and(|r| r.contains("has `/`")));
        // Without `trim`, the ends count.
        let raw = TextRule {
            max_chars: Some(5),
            ..TextRule::default()
        };
        assert!(raw.refusal("H", "description", " abcd ").is_some());
    }

    #[test]
    fn values_that_are_not_text_and_names_taken_from_the_folder() {
        let rules = SkillLoading {
            name: Some(TextRule {
                text_only: true,
                folder: true,
                charset: Some("a-z".into()),
                ..TextRule::default()
            }),
            ..SkillLoading::default()
        };
        // `skill()` puts the file in a folder named `demo`.
        let mut s = skill("SKILL.md", None, Some("d"));
        assert_eq!(rules.judge(&s, "H"), Loading::Loads);
        s.fs_path = std::path::PathBuf::from("Demo/SKILL.md");
        assert_eq!(
            rules.judge(&s, "H"),
            Loading::Refused(
                "H skips a skill whose name `Demo` has `D`, a character outside `a-z`, taken from its folder as it has no `name`".into()
            )
        );
        s.fields.name_not_text = true;
        assert_eq!(
            rules.judge(&s, "H"),
            Loading::Refused("H skips a skill whose `name` is not text".into())
        );
        // A rule that takes any value leaves it to the host's other rules.
        let mut lax = rules.clone();
        lax.name = None;
        assert_eq!(lax.judge(&s, "H"), Loading::Loads);
    }

    #[test]
    fn scalars_as_written_or_coerced() {
        let mut rules = codex();
        if let Some(name) = rules.name.as_mut() {
            name.scalars = Some(Scalars::AsWritten);
        }
        let mut s = skill("SKILL.md", None, Some("d"));
        s.fields.name_not_text = true;
        s.fields.scalars.name = Some("123".into());
        assert_eq!(rules.judge(&s, "Codex"), Loading::Loads);
        s.fields.scalars.name = Some(String::new());
        assert_eq!(
            rules.judge(&s, "Codex"),
            Loading::Refused("Codex skips a skill whose `name` is empty".into())
        );
        s.fields.scalars.name = None;
        assert_eq!(
            rules.judge(&s, "Codex"),
            Loading::Refused("Codex skips a skill whose `name` is not text".into())
        );
        // Coerced: a null is no value, a list or a mapping is some.
        if let Some(name) = rules.name.as_mut() {
            name.scalars = Some(Scalars::Coerced);
        }
        assert_eq!(rules.judge(&s, "H"), Loading::Loads);
        s.fields.scalars.name = Some("~".into());
        assert_eq!(
            rules.judge(&s, "H"),
            Loading::Refused("H skips a skill without a `name`".into())
        );
    }

    #[test]
    fn charsets() {
        assert!(allowed("a-z0-9-", 'q'));
        assert!(allowed("a-z0-9-", '-'));
        assert!(allowed("a-z0-9-", '7'));
        assert!(!allowed("a-z0-9-", '_'));
        assert!(!allowed("a-z0-9-", 'Q'));
        let rule = TextRule {
            charset: Some("a-z0-9-".into()),
            ..TextRule::default()
        };
        assert!(rule.refusal("VS Code", "name", "pdf-tools").is_none());
        assert_eq!(
            rule.refusal("VS Code", "name", "PDF_tools").as_deref(),
            Some(
                "VS Code skips a skill whose name `PDF_tools` has `P`, a character outside `a-z0-9-`"
            )
        );
    }
}
