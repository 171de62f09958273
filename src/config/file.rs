//! `skill-audit.toml`: the project's settings. Unknown keys, unknown rule IDs and bad values
//! are errors that name the file, the line and what is allowed.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::{self, DeserializeOwned, Deserializer, IntoDeserializer, Visitor};
use std::collections::BTreeMap;
use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use toml::Spanned;

use super::{Host, NameCharset};
use crate::diagnostic::quote;
use crate::profile::ProfileSource;
use crate::rules::Rule;

/// The settings file's name, looked for by [`find`].
pub(crate) const FILE_NAME: &str = "skill-audit.toml";

/// The settings file for an audit whose first root is `root`, when no `--config` names one:
/// the nearest `skill-audit.toml` in `root` (for a file, its folder) or a folder above it, up
/// to the repository root (the nearest folder holding `.git`, a folder or a file); else the one
/// in `cwd`. Outside any repository the search goes up to `cwd` when `root` is inside it, and
/// covers only `root` when it is not, so a file in an unrelated parent folder (the home folder,
/// say) is never taken.
///
/// The folders above are found by name, from `root` as given made absolute from `cwd` (which
/// the OS reports without symlinks): a root that is a symlink, or lies under one, takes the
/// settings of where its link is, not of where the link leads. The file found must itself stay
/// there: one whose real path leaves the folders searched and the audited root (a symlink to
/// `/proc/self/environ`, say) is an error unless `follow_outside`, as for any file of the tree.
/// `cwd` is `view`'s. The path returned is absolute; errors show it as the run shows paths.
pub(crate) fn find(
    root: &Path,
    view: &crate::paths::PathView,
    follow_outside: bool,
) -> Result<Option<PathBuf>, String> {
    let cwd = view.cwd();
    let start = if root.is_dir() {
        root
    } else {
        root.parent().unwrap_or(Path::new("."))
    };
    let start = crate::paths::normalize(&cwd.join(start));
    let searched: Vec<&Path> = match start
        .ancestors()
        .position(|d| std::fs::symlink_metadata(d.join(".git")).is_ok())
    {
        Some(repo) => start.ancestors().take(repo + 1).collect(),
        None if start.starts_with(cwd) => start
            .ancestors()
            .take_while(|d| d.starts_with(cwd))
            .collect(),
        None => vec![start.as_path()],
    };
    // The farthest folder searched bounds where the file found may lead.
    let top = searched.last().copied().unwrap_or(&start);
    let Some((found, top)) = searched
        .iter()
        .map(|d| (d.join(FILE_NAME), top))
        // The current folder, unless it was searched already.
        .chain((!searched.contains(&cwd)).then(|| (cwd.join(FILE_NAME), cwd)))
        // Whatever it is: a FIFO or a folder of that name is an error, not a file to pass by.
        .find(|(f, _)| std::fs::symlink_metadata(f).is_ok())
    else {
        return Ok(None);
    };
    let shown = crate::paths::display_path(&found, view);
    let boundary = crate::boundary::Boundary::new(&[start.clone(), top.to_owned()], follow_outside);
    if boundary.leads_outside(&found) {
        return Err(format!(
            "{shown}: its real path leads outside the folders searched for it; name it with --config to read it"
        ));
    }
    if !found.is_file() {
        return Err(format!(
            "{shown}: not a regular file, so no settings are read; remove it, or name a settings file with --config"
        ));
    }
    // Absolute: the editor's server reads it for a workspace folder that is not the folder
    // it runs in.
    Ok(Some(found))
}

/// The settings file, as written.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(title = "skill-audit.toml")]
pub struct ConfigFile {
    /// Profiles (JSON files relative to this file, or `builtin:NAME`); `--profile` replaces them.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub profiles: Vec<Spanned<String>>,
    /// Globs of paths to skip (with a `/`, relative to this file), added to `--exclude`.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub exclude: Vec<Spanned<String>>,
    /// Exit 1 when a finding of this severity or worse is found; `--fail-on` wins.
    // `deserialize_with` needs `default` to allow the key's absence; `skip_serializing_if`
    // keeps the schema's `"default": null` out, as before.
    #[serde(default, deserialize_with = "optional")]
    #[schemars(with = "Option<Level>", skip_serializing_if = "Option::is_none")]
    pub fail_on: Option<Level>,
    /// Characters allowed in skill names; `--name-charset` wins.
    #[serde(default, deserialize_with = "optional")]
    #[schemars(with = "Option<NameCharset>", skip_serializing_if = "Option::is_none")]
    pub name_charset: Option<NameCharset>,
    /// Hosts whose host-specific keys count as known (default: all).
    #[serde(default, deserialize_with = "optional_list")]
    #[schemars(with = "Option<Vec<Host>>", skip_serializing_if = "Option::is_none")]
    pub hosts: Option<Vec<Host>>,
    /// The rules to report: IDs (`SA221`), prefixes (`SA2`), names (`drift`) or `ALL`
    /// [default: every rule]; `--select` replaces it.
    #[schemars(with = "Option<Vec<String>>")]
    pub select: Option<Vec<Spanned<String>>>,
    /// Rules to report besides those of `select`; `--extend-select` adds to it.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub extend_select: Vec<Spanned<String>>,
    /// Rules not to report, written as in `select`; `--ignore` adds to it.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub ignore: Vec<Spanned<String>>,
    /// The format of the report on standard output: `full` (the default on a terminal),
    /// `concise`, `json`, `sarif`, `github`, `markdown` or `html`; `--output-format` wins.
    #[schemars(with = "Option<String>")]
    pub output_format: Option<Spanned<String>>,
    /// Severity per rule ID or name: `off`, `info`, `warning` or `error`.
    #[serde(default, deserialize_with = "rules")]
    #[schemars(with = "BTreeMap<String, RuleLevel>")]
    pub rules: Vec<(Spanned<String>, RuleLevel)>,
    /// Links between agents and skills that no manifest records.
    #[serde(default)]
    pub links: Vec<LinkEntry>,
    /// The library's own rules (`[[policy]]`): each an ID `P001`-`P999`, a name, a severity,
    /// what it applies to and one check (docs/policy.md).
    #[serde(default)]
    pub policy: Vec<PolicyEntry>,
}

/// `[[policy]]`: one rule of the library's own.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct PolicyEntry {
    /// `P` and three digits (`P001`), unique in the file: built-in rules use `SA`.
    #[schemars(with = "String")]
    pub id: Spanned<String>,
    /// A kebab-case name (`skill-license`), unique and no built-in rule's.
    #[schemars(with = "String")]
    pub name: Spanned<String>,
    /// The findings' severity [default: warning].
    #[serde(default, deserialize_with = "optional")]
    #[schemars(
        with = "Option<PolicySeverity>",
        skip_serializing_if = "Option::is_none"
    )]
    pub severity: Option<PolicySeverity>,
    /// One line for `skill-audit rules` [default: made from the check].
    pub summary: Option<String>,
    /// What each finding says, instead of the generated message: say what to do.
    pub message: Option<String>,
    /// What the rule checks: skills (`SKILL.md`) or agents.
    #[serde(deserialize_with = "spanned")]
    #[schemars(with = "crate::rules::policy::Target")]
    pub applies_to: Spanned<crate::rules::policy::Target>,
    /// Globs of the files it applies to, relative to this file (`skills/acme-*/**`)
    /// [default: every file of its kind].
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub paths: Vec<Spanned<String>>,
    /// Only the skills or agents of the plugin of this name (its manifest's `name`): under
    /// the plugin's folder, or listed by its manifest.
    pub plugin: Option<String>,
    /// The check: `required-field`, `forbidden-field`, `field-pattern` and `max-length` take
    /// `field`; `field-pattern` takes `pattern`, `max-length` takes `max-length`;
    /// `forbidden-tools` and `required-tools` take `tools`; `allowed-servers` takes
    /// `servers`. The last three apply to agents.
    #[serde(deserialize_with = "spanned")]
    #[schemars(with = "PolicyCheck")]
    pub check: Spanned<PolicyCheck>,
    /// The frontmatter field, a dotted path for nested ones (`metadata.owner`).
    #[schemars(with = "Option<String>")]
    pub field: Option<Spanned<String>>,
    /// A regular expression the field's value must match (Rust `regex` syntax; anchor it
    /// with `^` and `$` to match the whole value).
    #[schemars(with = "Option<String>")]
    pub pattern: Option<Spanned<String>>,
    /// The most characters the field's value may have.
    #[schemars(with = "Option<usize>")]
    pub max_length: Option<Spanned<usize>>,
    /// Tool names, compared without case (`Bash` also matches `Bash(git:*)`).
    #[schemars(with = "Option<Vec<String>>")]
    pub tools: Option<Spanned<Vec<String>>>,
    /// MCP server names.
    #[schemars(with = "Option<Vec<String>>")]
    pub servers: Option<Spanned<Vec<String>>>,
}

/// The check a `[[policy]]` rule makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PolicyCheck {
    RequiredField,
    ForbiddenField,
    FieldPattern,
    MaxLength,
    ForbiddenTools,
    RequiredTools,
    AllowedServers,
}

/// A policy rule's severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum PolicySeverity {
    Info,
    Warning,
    Error,
}

/// A `--fail-on` threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Error,
    Warning,
    Info,
    Never,
}

/// A rule's severity, or `off`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum RuleLevel {
    Off,
    Info,
    Warning,
    Error,
}

/// A value that is one of a few names, such as `fail-on`'s. A string is matched by serde, as
/// derived; any other value is an error that lists the names ([`Choice`]), where toml alone
/// would say "wanted string or table".
trait Names: DeserializeOwned {
    /// What the value is, for errors: the key that takes it.
    const WHAT: &'static str;
    /// The names as the file writes them, in serde's order (a test keeps them in step).
    const NAMES: &'static [&'static str];
}

impl Names for Level {
    const WHAT: &'static str = "`fail-on`";
    const NAMES: &'static [&'static str] = &["error", "warning", "info", "never"];
}

impl Names for RuleLevel {
    // Not shown: [`rules`] reads each severity with a `what` that names its key.
    const WHAT: &'static str = "a severity in [rules]";
    const NAMES: &'static [&'static str] = &["off", "info", "warning", "error"];
}

impl Names for PolicySeverity {
    const WHAT: &'static str = "policy `severity`";
    const NAMES: &'static [&'static str] = &["info", "warning", "error"];
}

impl Names for PolicyCheck {
    const WHAT: &'static str = "policy `check`";
    const NAMES: &'static [&'static str] = crate::rules::policy::Check::NAMES;
}

impl Names for NameCharset {
    const WHAT: &'static str = "`name-charset`";
    const NAMES: &'static [&'static str] = &["ascii", "unicode"];
}

impl Names for Host {
    const WHAT: &'static str = "an entry of `hosts`";
    const NAMES: &'static [&'static str] = &["claude-code", "vscode", "openclaw", "hermes"];
}

impl Names for crate::rules::policy::Target {
    const WHAT: &'static str = "policy `applies-to`";
    const NAMES: &'static [&'static str] = &["skill", "agent", "manifest"];
}

/// `"a", "b", "c"`: names as a TOML file writes them.
fn quoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|n| format!("\"{n}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Reads a `T` (a [`Names`] type) written as `what`, such as "`fail-on`". Errors are raised
/// inside the deserializer's own call, so toml places them at the value, an array's entry
/// included.
struct Choice<'a, T> {
    what: &'a str,
    names: PhantomData<T>,
}

impl<'a, T: Names> Choice<'a, T> {
    fn new(what: &'a str) -> Self {
        Choice {
            what,
            names: PhantomData,
        }
    }

    fn found<E: de::Error>(&self, found: impl fmt::Display) -> E {
        E::custom(format!(
            "{} must be one of {}, found {found}",
            self.what,
            quoted(T::NAMES)
        ))
    }
}

impl<'de, T: Names> de::DeserializeSeed<'de> for Choice<'_, T> {
    type Value = T;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<T, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, T: Names> Visitor<'de> for Choice<'_, T> {
    type Value = T;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "one of {}", quoted(T::NAMES))
    }

    // serde's own words for a string that is none of the names, which name them too.
    fn visit_str<E: de::Error>(self, v: &str) -> Result<T, E> {
        T::deserialize(v.into_deserializer())
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<T, E> {
        Err(self.found(format_args!("the boolean {v}")))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<T, E> {
        Err(self.found(format_args!("the integer {v}")))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<T, E> {
        Err(self.found(format_args!("the integer {v}")))
    }

    fn visit_i128<E: de::Error>(self, v: i128) -> Result<T, E> {
        Err(self.found(format_args!("the integer {v}")))
    }

    fn visit_u128<E: de::Error>(self, v: u128) -> Result<T, E> {
        Err(self.found(format_args!("the integer {v}")))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<T, E> {
        Err(self.found(format_args!("the float {v}")))
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<T, A::Error> {
        Err(self.found("an array"))
    }

    // toml hands a date-time over as a map too; `toml::Value` tells it from a table.
    fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
        match toml::Value::deserialize(de::value::MapAccessDeserializer::new(map))? {
            toml::Value::Datetime(d) => Err(self.found(format_args!("the date-time {d}"))),
            _ => Err(self.found("a table")),
        }
    }
}

/// A [`Names`] type read by [`Choice`], for the `T` of a `Spanned<T>`.
struct Chosen<T>(T);

impl<'de, T: Names> Deserialize<'de> for Chosen<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Choice::new(T::WHAT)).map(Chosen)
    }
}

/// An optional key that takes one of [`Names::NAMES`].
fn optional<'de, D: Deserializer<'de>, T: Names>(d: D) -> Result<Option<T>, D::Error> {
    d.deserialize_any(Choice::new(T::WHAT)).map(Some)
}

/// A key that takes one of [`Names::NAMES`], with its place.
fn spanned<'de, D: Deserializer<'de>, T: Names>(d: D) -> Result<Spanned<T>, D::Error> {
    let chosen = Spanned::<Chosen<T>>::deserialize(d)?;
    Ok(Spanned::new(chosen.span(), chosen.into_inner().0))
}

/// An optional key that takes a list, each entry one of [`Names::NAMES`].
fn optional_list<'de, D: Deserializer<'de>, T: Names>(d: D) -> Result<Option<Vec<T>>, D::Error> {
    struct List<T>(PhantomData<T>);
    impl<'de, T: Names> Visitor<'de> for List<T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(f, "a list, each entry one of {}", quoted(T::NAMES))
        }

        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut out = Vec::new();
            while let Some(entry) = seq.next_element_seed(Choice::new(T::WHAT))? {
                out.push(entry);
            }
            Ok(out)
        }
    }
    d.deserialize_seq(List(PhantomData)).map(Some)
}

/// `[rules]`, in the file's order: each severity is read knowing its key, so an error names
/// the rule it is for.
fn rules<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(Spanned<String>, RuleLevel)>, D::Error> {
    struct Table;
    impl<'de> Visitor<'de> for Table {
        type Value = Vec<(Spanned<String>, RuleLevel)>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            write!(
                f,
                "a table of rule IDs or names, each set to one of {}",
                quoted(RuleLevel::NAMES)
            )
        }

        fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(key) = map.next_key::<Spanned<String>>()? {
                let what = format!("{} in [rules]", quote(key.get_ref()));
                let level = map.next_value_seed(Choice::<RuleLevel>::new(&what))?;
                out.push((key, level));
            }
            out.sort_by_key(|(key, _)| key.span().start);
            Ok(out)
        }
    }
    d.deserialize_map(Table)
}

/// `[[links]]`: an agent (path relative to this file) and the skills (by name) it loads.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkEntry {
    #[schemars(with = "String")]
    pub agent: Spanned<String>,
    #[schemars(with = "Vec<String>")]
    pub skills: Vec<Spanned<String>>,
}

/// A `[[links]]` entry as the audit takes it: the agent file (resolved from the settings
/// file's folder) and the skill names, each with where the settings file writes it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ConfigLink {
    /// The settings file, as reports show it.
    pub file: String,
    pub agent: PathBuf,
    pub agent_at: crate::diagnostic::Pos,
    pub skills: Vec<(String, crate::diagnostic::Pos)>,
}

/// A config file that cannot be used: exit 2. `line` 0: the file as a whole (it cannot be
/// read), shown without a place in it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", crate::diagnostic::location(path, *line, *column))]
pub struct ConfigError {
    pub path: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// A loaded config: the file plus where it is, so relative paths resolve from it.
#[derive(Debug, Default)]
pub(crate) struct Config {
    pub file: ConfigFile,
    pub dir: PathBuf,
    /// The file, as errors show it.
    pub display: String,
    /// `profiles`, each with where the file writes it.
    pub profiles: Vec<(String, crate::diagnostic::Pos)>,
    /// Rule overrides, validated.
    pub rules: Vec<(Rule, RuleLevel)>,
    /// `select`, `extend-select` and `ignore`, validated.
    pub selection: super::Selection,
    /// `output-format`, validated.
    pub output_format: Option<crate::report::Format>,
    /// `[[policy]]`, validated: a [`Rule::Policy`] each, in the file's order.
    pub policies: Vec<Rule>,
    /// `[[links]]`, with their places.
    pub links: Vec<ConfigLink>,
}

impl Config {
    /// `profiles`, as an audit loads them: files from this file's folder. An entry the audit
    /// could not load is an error at its place in this file, where it is fixed: a built-in
    /// name that is none, a file that cannot be opened, or an MCP server (only the command
    /// line starts servers). A file that opens but holds no profile is reported by loading it,
    /// at the place in that file.
    pub(crate) fn profile_sources(&self) -> Result<Vec<ProfileSource>, ConfigError> {
        self.profiles
            .iter()
            .map(|(entry, at)| {
                let err = |message: String| ConfigError {
                    path: self.display.clone(),
                    line: at.line as usize,
                    column: at.column as usize,
                    message: format!("profile {}: {message}", quote(entry)),
                };
                match ProfileSource::parse(entry) {
                    ProfileSource::File(f) => {
                        let path = self.dir.join(&f);
                        // Opened only once known to be a file: opening a FIFO would block.
                        let opened = std::fs::metadata(&path).and_then(|m| {
                            if m.is_file() {
                                std::fs::File::open(&path).map(drop)
                            } else {
                                Err(std::io::Error::other("not a regular file"))
                            }
                        });
                        // As the run shows this file's folder, which `dir` (absolute) is not.
                        let written = Path::new(&self.display).parent().map(|d| d.join(&f));
                        let shown = match written {
                            Some(w) if w.as_os_str() != entry.as_str() => {
                                format!(" ({})", w.display())
                            }
                            _ => String::new(),
                        };
                        match opened {
                            Ok(()) => Ok(ProfileSource::File(path)),
                            Err(e) => Err(err(format!("cannot read profile{shown}: {e}"))),
                        }
                    }
                    ProfileSource::Builtin(name) => {
                        if crate::profile::builtin::host_names().any(|n| n == name)
                        {
                            Ok(ProfileSource::Builtin(name))
                        } else {
                            Err(err(format!(
                                "no such built-in profile; known: {}",
                                crate::profile::builtin::names().join(", ")
                            )))
                        }
                    }
                    ProfileSource::Mcp { .. } => Err(err(
                        "MCP servers can be named only on the command line (`--profile mcp:...`), never in a settings file"
                            .to_owned(),
                    )),
                }
            })
            .collect()
    }
}

/// Read and validate a config file.
pub(crate) fn load(path: &Path, display: &str) -> Result<Config, ConfigError> {
    let text = crate::boundary::read_text(path).map_err(|e| ConfigError {
        path: display.to_owned(),
        line: 0,
        column: 0,
        message: format!("cannot read: {e}"),
    })?;
    let dir = path.parent().map(Path::to_owned).unwrap_or_default();
    parse(&text, display, dir)
}

/// Parse config text.
pub(crate) fn parse(text: &str, display: &str, dir: PathBuf) -> Result<Config, ConfigError> {
    let err = |offset: usize, message: String| {
        let at = crate::span::pos_of(text, offset);
        let (line, column) = (at.line as usize, at.column as usize);
        ConfigError {
            path: display.to_owned(),
            line,
            column,
            message,
        }
    };
    let file: ConfigFile = toml::from_str(text).map_err(|e| {
        let offset = e.span().map_or(0, |s| s.start);
        err(offset, e.message().trim().replace('\n', " "))
    })?;
    for pattern in &file.exclude {
        crate::discover::check_exclude(pattern.get_ref())
            .map_err(|message| err(pattern.span().start, message))?;
    }
    let policies = policies(&file.policy, display, text, &err)?;
    let mut rules = Vec::new();
    // Each rule set so far, with the key that set it.
    let mut set: Vec<(Rule, &Spanned<String>)> = Vec::new();
    for (id, level) in &file.rules {
        let rule = Rule::from_id_in(id.get_ref(), &policies).ok_or_else(|| {
            err(
                id.span().start,
                format!(
                    "unknown rule {} in [rules]; use a rule ID such as `SA221` or a name such as `unknown-key` (`skill-audit rules` lists them)",
                    quote(id.get_ref())
                ),
            )
        })?;
        // Its ID and its name (or two casings) are one key to the audit: one of them would
        // win unseen, as a TOML key written twice would, which TOML refuses.
        if let Some((_, first)) = set.iter().find(|(r, _)| *r == rule) {
            let line = |k: &Spanned<String>| crate::span::pos_of(text, k.span().start).line;
            return Err(err(
                id.span().start,
                format!(
                    "[rules] sets {rule} ({}) twice: as {} on line {} and as {} on line {}; keep one",
                    rule.name(),
                    quote(first.get_ref()),
                    line(first),
                    quote(id.get_ref()),
                    line(id),
                ),
            ));
        }
        set.push((rule, id));
        rules.push((rule, *level));
    }
    let rules_of = |key: &str, selectors: &[Spanned<String>]| {
        let mut out = Vec::new();
        let ignore = key == "ignore";
        for sel in selectors {
            out.extend(
                super::selected(sel.get_ref(), ignore, &policies).ok_or_else(|| {
                    err(
                        sel.span().start,
                        format!(
                            "{} in `{key}` names no rule; {}",
                            quote(sel.get_ref()),
                            Rule::no_rule_hint(sel.get_ref(), &policies)
                        ),
                    )
                })?,
            );
        }
        Ok::<_, ConfigError>(out)
    };
    let selection = super::Selection {
        select: file
            .select
            .as_deref()
            .map(|s| rules_of("select", s))
            .transpose()?,
        extend_select: rules_of("extend-select", &file.extend_select)?,
        ignore: rules_of("ignore", &file.ignore)?,
    };
    let output_format = match &file.output_format {
        Some(f) => Some(
            <crate::report::Format as clap::ValueEnum>::from_str(f.get_ref(), true).map_err(
                |_| {
                    err(
                        f.span().start,
                        format!(
                            "unknown `output-format` {}; use {}",
                            quote(f.get_ref()),
                            crate::report::Format::NAMES
                        ),
                    )
                },
            )?,
        ),
        None => None,
    };
    let at = |offset: usize| crate::span::pos_of(text, offset);
    let profiles = file
        .profiles
        .iter()
        .map(|p| (p.get_ref().clone(), at(p.span().start)))
        .collect();
    let links = file
        .links
        .iter()
        .map(|l| ConfigLink {
            file: display.to_owned(),
            agent: dir.join(l.agent.get_ref()),
            agent_at: at(l.agent.span().start),
            skills: l
                .skills
                .iter()
                .map(|n| (n.get_ref().clone(), at(n.span().start)))
                .collect(),
        })
        .collect();
    Ok(Config {
        file,
        dir,
        display: display.to_owned(),
        profiles,
        rules,
        selection,
        output_format,
        policies,
        links,
    })
}

/// The `[[policy]]` rules, checked: IDs and names well formed, unique and clear of the
/// built-in rules', each check given what it takes and nothing else.
fn policies(
    entries: &[PolicyEntry],
    display: &str,
    text: &str,
    err: &dyn Fn(usize, String) -> ConfigError,
) -> Result<Vec<Rule>, ConfigError> {
    use crate::rules::policy::{Check, Globs, Pattern, PolicySpec, Target};
    let mut out: Vec<Rule> = Vec::new();
    for e in entries {
        let id = e.id.get_ref();
        let at_id = e.id.span().start;
        if let Some(builtin) = Rule::from_id(id) {
            return Err(err(
                at_id,
                format!(
                    "policy `id` {} is the built-in rule {builtin} ({}); policy rules use `P` and three digits, such as `P001`",
                    quote(id),
                    builtin.name()
                ),
            ));
        }
        if !crate::rules::policy::is_policy_id(id) {
            return Err(err(
                at_id,
                format!(
                    "policy `id` {}: use `P` and three digits, from `P001` to `P999`",
                    quote(id)
                ),
            ));
        }
        if let Some(twin) = out.iter().find(|r| r.code().eq_ignore_ascii_case(id)) {
            return Err(err(
                at_id,
                format!(
                    "policy `id` {} is declared twice ({twin} is above); give each rule its own ID",
                    quote(id)
                ),
            ));
        }
        let name = e.name.get_ref();
        let at_name = e.name.span().start;
        let kebab = !name.is_empty()
            && name
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        if !kebab || crate::rules::policy::is_policy_id(name) {
            return Err(err(
                at_name,
                format!(
                    "policy `name` {}: use lowercase letters, digits and `-`, such as `skill-license`",
                    quote(name)
                ),
            ));
        }
        if let Some(taken) = Rule::from_id_in(name, &out) {
            return Err(err(
                at_name,
                format!(
                    "policy `name` {} is already the name of {taken}; choose another",
                    quote(name)
                ),
            ));
        }
        let target = *e.applies_to.get_ref();
        let at_check = e.check.span().start;
        let kind = *e.check.get_ref();
        let field = || {
            e.field
                .as_ref()
                .map(|f| f.get_ref().clone())
                .ok_or_else(|| {
                    err(
                        at_check,
                        format!(
                            "policy {id}: this check needs `field`, the frontmatter field it checks"
                        ),
                    )
                })
        };
        let list = |l: &Option<Spanned<Vec<String>>>, key: &str| {
            l.as_ref().map(|l| l.get_ref().clone()).ok_or_else(|| {
                err(
                    at_check,
                    format!("policy {id}: this check needs `{key}`, a list of names"),
                )
            })
        };
        let check = match kind {
            PolicyCheck::RequiredField => Check::RequiredField { field: field()? },
            PolicyCheck::ForbiddenField => Check::ForbiddenField { field: field()? },
            PolicyCheck::FieldPattern => {
                let p = e.pattern.as_ref().ok_or_else(|| {
                    err(
                        at_check,
                        format!(
                            "policy {id}: `field-pattern` needs `pattern`, a regular expression"
                        ),
                    )
                })?;
                let re = regex::Regex::new(p.get_ref()).map_err(|x| {
                    let why = x
                        .to_string()
                        .lines()
                        .last()
                        .unwrap_or_default()
                        .trim()
                        .trim_start_matches("error: ")
                        .to_owned();
                    err(
                        p.span().start,
                        format!("policy {id}: `pattern` is not a regular expression: {why}"),
                    )
                })?;
                Check::FieldPattern {
                    field: field()?,
                    pattern: Pattern(re),
                }
            }
            PolicyCheck::MaxLength => {
                let m = e.max_length.as_ref().ok_or_else(|| {
                    err(
                        at_check,
                        format!(
                            "policy {id}: `max-length` needs `max-length`, a number of characters"
                        ),
                    )
                })?;
                Check::MaxLength {
                    field: field()?,
                    max: *m.get_ref(),
                }
            }
            PolicyCheck::ForbiddenTools => Check::ForbiddenTools {
                tools: list(&e.tools, "tools")?,
            },
            PolicyCheck::RequiredTools => Check::RequiredTools {
                tools: list(&e.tools, "tools")?,
            },
            PolicyCheck::AllowedServers => Check::AllowedServers {
                servers: list(&e.servers, "servers")?,
            },
        };
        // A key the check does not read is a mistake, not a no-op.
        let unused = [
            (
                "field",
                e.field.as_ref().map(|f| f.span().start),
                kind != PolicyCheck::ForbiddenTools
                    && kind != PolicyCheck::RequiredTools
                    && kind != PolicyCheck::AllowedServers,
            ),
            (
                "pattern",
                e.pattern.as_ref().map(|f| f.span().start),
                kind == PolicyCheck::FieldPattern,
            ),
            (
                "max-length",
                e.max_length.as_ref().map(|f| f.span().start),
                kind == PolicyCheck::MaxLength,
            ),
            (
                "tools",
                e.tools.as_ref().map(|f| f.span().start),
                matches!(
                    kind,
                    PolicyCheck::ForbiddenTools | PolicyCheck::RequiredTools
                ),
            ),
            (
                "servers",
                e.servers.as_ref().map(|f| f.span().start),
                kind == PolicyCheck::AllowedServers,
            ),
        ];
        if let Some((key, Some(at), _)) = unused.iter().find(|(_, at, used)| at.is_some() && !used)
        {
            return Err(err(
                *at,
                format!(
                    "policy {id}: `{key}` is not read by the check `{}`; remove it",
                    check.name()
                ),
            ));
        }
        if check.agents_only() && target != Target::Agent {
            return Err(err(
                e.applies_to.span().start,
                format!(
                    "policy {id}: `{}` checks agents' grants; use `applies-to = \"agent\"`",
                    check.name()
                ),
            ));
        }
        let paths = if e.paths.is_empty() {
            None
        } else {
            let mut set = globset::GlobSetBuilder::new();
            for p in &e.paths {
                let glob = globset::GlobBuilder::new(p.get_ref())
                    .literal_separator(true)
                    .build()
                    .map_err(|x| {
                        err(
                            p.span().start,
                            format!(
                                "policy {id}: {} is not a glob: {}",
                                quote(p.get_ref()),
                                x.kind()
                            ),
                        )
                    })?;
                set.add(glob);
            }
            let set = set
                .build()
                .map_err(|x| err(at_check, format!("policy {id}: `paths`: {x}")))?;
            Some(Globs {
                written: e.paths.iter().map(|p| p.get_ref().clone()).collect(),
                set,
            })
        };
        let line = crate::span::pos_of(text, at_id).line as usize;
        let spec = PolicySpec {
            code: id.to_ascii_uppercase(),
            name: name.clone(),
            severity: match e.severity {
                Some(PolicySeverity::Error) => crate::diagnostic::Severity::Error,
                Some(PolicySeverity::Info) => crate::diagnostic::Severity::Info,
                Some(PolicySeverity::Warning) | None => crate::diagnostic::Severity::Warning,
            },
            summary: e.summary.clone(),
            target,
            paths,
            plugin: e.plugin.clone(),
            check,
            message: e.message.clone(),
            declared_at: format!("{display}:{line}"),
        };
        out.push(spec.into_rule());
    }
    Ok(out)
}

/// The JSON Schema of `skill-audit.toml`.
pub fn schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(ConfigFile)).unwrap_or_default()
}

/// A commented starter file for `skill-audit init`.
pub(crate) const STARTER: &str = r#"# skill-audit.toml: settings for auditing this skill library.
# Command-line flags win over these. `skill-audit schema config` prints the full schema.

# Environment profiles, one matrix column each: JSON files (relative to this file) or built-ins.
# profiles = ["profiles/prod.json", "builtin:vscode"]

# Paths to skip (globs, like .gitignore; with a `/`, relative to this file).
# exclude = ["**/drafts/**"]

# Exit 1 when a finding of this severity or worse is found: error, warning, info or never.
# fail-on = "error"

# Characters allowed in skill names: "ascii" (a-z, 0-9, -) or "unicode" (any letter).
# name-charset = "ascii"

# Hosts whose host-specific frontmatter keys count as known: "vscode", "claude-code", "openclaw",
# "hermes".
# hosts = ["vscode", "claude-code"]

# Which rules to report: IDs, prefixes such as "SA2", names, or "ALL" (the default).
# select = ["ALL"]
# extend-select = []
# ignore = ["SA230"]

# The report's format on standard output: "full", "concise", "json", "sarif", "github", ...
# output-format = "full"

# Severity per rule (ID or name): "off", "info", "warning" or "error".
[rules]
# "SA220" = "off"            # host-specific keys are fine in this library
# "body-too-long" = "info"

# Links between agents and skills that no plugin manifest records.
# [[links]]
# agent = "agents/analyst.agent.md"
# skills = ["kusto-query"]

# Rules of this library's own: an ID from P001 to P999, what it applies to, one check.
# [[policy]]
# id = "P001"
# name = "skill-license"
# applies-to = "skill"
# check = "required-field"
# field = "license"
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<Config, ConfigError> {
        parse(text, "skill-audit.toml", PathBuf::new())
    }

    /// A name holding a backtick is quoted in a longer fence, so it stays one code span;
    /// other names are quoted as they always were.
    #[test]
    fn names_with_backticks_stay_one_code_span_in_errors() {
        for (text, says) in [
            (
                "[rules]\n\"a`b\" = \"off\"\n",
                "unknown rule `` a`b `` in [rules]",
            ),
            (
                "[rules]\nnope = \"off\"\n",
                "unknown rule `nope` in [rules]",
            ),
            ("select = [\"x`\"]\n", "`` x` `` in `select` names no rule"),
            (
                "output-format = \"m`d\"\n",
                "unknown `output-format` `` m`d ``;",
            ),
            (
                "[[policy]]\nid = \"P`1\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"x\"\n",
                "policy `id` `` P`1 ``: use `P`",
            ),
            (
                "[[policy]]\nid = \"P001\"\nname = \"a`b\"\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"x\"\n",
                "policy `name` `` a`b ``: use lowercase",
            ),
        ] {
            let e = p(text).unwrap_err().to_string();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn every_key() {
        let c = p(r#"profiles = ["p.json", "builtin:vscode"]
exclude = ["**/drafts/**"]
fail-on = "warning"
name-charset = "unicode"
hosts = ["vscode"]
[rules]
SA221 = "off"
"body-too-long" = "info"
[[links]]
agent = "agents/a.agent.md"
skills = ["k"]
"#)
        .unwrap();
        assert_eq!(c.file.profiles.len(), 2);
        assert_eq!(c.file.fail_on, Some(Level::Warning));
        assert_eq!(c.file.name_charset, Some(NameCharset::Unicode));
        assert_eq!(c.file.hosts, Some(vec![Host::Vscode]));
        assert_eq!(
            c.rules,
            [
                (Rule::UnknownKey, RuleLevel::Off),
                (Rule::BodyTooLong, RuleLevel::Info)
            ]
        );
        assert_eq!(c.links[0].skills[0].0, "k");
    }

    #[test]
    fn errors_name_line_and_what_is_allowed() {
        let e = p("exclude = []\nfail-on = \"sometimes\"\n").unwrap_err();
        assert_eq!((e.line, e.path.as_str()), (2, "skill-audit.toml"));
        assert!(
            e.message.contains("error") && e.message.contains("never"),
            "{}",
            e.message
        );
        let e = p("profile = []\n").unwrap_err();
        assert_eq!(e.line, 1);
        assert!(e.message.contains("profiles"), "{}", e.message);
        let e = p("[rules]\nSA999 = \"off\"\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert!(e.message.contains("SA999"));
        let e = p("[rules]\nSA221 = \"loud\"\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("off"), "{}", e.message);
        assert!(p(STARTER).is_ok(), "the starter file parses");
    }

    /// `T::NAMES` are the names serde matches, in its order: its own error for a string that
    /// is none of them lists them.
    fn names_in_step<T: Names + std::fmt::Debug>() {
        let e =
            T::deserialize(de::value::StrDeserializer::<de::value::Error>::new("?")).unwrap_err();
        let listed: Vec<String> = T::NAMES.iter().map(|n| format!("`{n}`")).collect();
        // serde's wording for two names.
        let expected = match listed.as_slice() {
            [a, b] => format!("{a} or {b}"),
            _ => format!("one of {}", listed.join(", ")),
        };
        assert_eq!(
            e.to_string(),
            format!("unknown variant `?`, expected {expected}")
        );
    }

    #[test]
    fn the_names_listed_are_serdes() {
        names_in_step::<Level>();
        names_in_step::<RuleLevel>();
        names_in_step::<PolicySeverity>();
        names_in_step::<PolicyCheck>();
        names_in_step::<NameCharset>();
        names_in_step::<Host>();
        names_in_step::<crate::rules::policy::Target>();
    }

    #[test]
    fn a_value_of_another_type_is_told_what_is_allowed() {
        let cases: [(&str, (usize, usize), &str); 10] = [
            (
                "fail-on = 3",
                (1, 11),
                "`fail-on` must be one of \"error\", \"warning\", \"info\", \"never\", found the integer 3",
            ),
            (
                "fail-on = true",
                (1, 11),
                "`fail-on` must be one of \"error\", \"warning\", \"info\", \"never\", found the boolean true",
            ),
            (
                "name-charset = 1.5",
                (1, 16),
                "`name-charset` must be one of \"ascii\", \"unicode\", found the float 1.5",
            ),
            (
                "fail-on = 1979-05-27",
                (1, 11),
                "`fail-on` must be one of \"error\", \"warning\", \"info\", \"never\", found the date-time 1979-05-27",
            ),
            (
                "fail-on = { a = 1 }",
                (1, 11),
                "`fail-on` must be one of \"error\", \"warning\", \"info\", \"never\", found a table",
            ),
            (
                "[rules]\nSA220 = 1",
                (2, 9),
                "`SA220` in [rules] must be one of \"off\", \"info\", \"warning\", \"error\", found the integer 1",
            ),
            (
                "hosts = [\"vscode\", [\"hermes\"]]",
                (1, 20),
                "an entry of `hosts` must be one of \"claude-code\", \"vscode\", \"openclaw\", \"hermes\", found an array",
            ),
            (
                "[[policy]]\nid = \"P001\"\nname = \"a\"\napplies-to = 1\ncheck = \"required-field\"\nfield = \"x\"",
                (4, 14),
                "policy `applies-to` must be one of \"skill\", \"agent\", \"manifest\", found the integer 1",
            ),
            (
                "[[policy]]\nid = \"P001\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = 07:32:00\nfield = \"x\"",
                (5, 9),
                "policy `check` must be one of \"required-field\", \"forbidden-field\", \"field-pattern\", \"max-length\", \"forbidden-tools\", \"required-tools\", \"allowed-servers\", found the date-time 07:32:00",
            ),
            (
                "[[policy]]\nid = \"P001\"\nname = \"a\"\nseverity = false\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"x\"",
                (4, 12),
                "policy `severity` must be one of \"info\", \"warning\", \"error\", found the boolean false",
            ),
        ];
        for (text, at, says) in cases {
            let e = p(&format!("{text}\n")).unwrap_err();
            assert_eq!(
                ((e.line, e.column), e.message.as_str()),
                (at, says),
                "{text}"
            );
        }
        // A string that is no name keeps serde's words, which list the names too.
        let e = p("[[policy]]\nid = \"P001\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = \"sometimes\"\n")
            .unwrap_err();
        assert_eq!((e.line, e.column), (5, 9));
        assert!(
            e.message
                .starts_with("unknown variant `sometimes`, expected one of `required-field`"),
            "{e}"
        );
    }

    #[test]
    fn a_rule_set_twice_in_rules_is_an_error_naming_both_keys() {
        for (text, says) in [
            (
                "[rules]\nSA220 = \"error\"\nhost-specific-key = \"off\"\n",
                "[rules] sets SA220 (host-specific-key) twice: as `SA220` on line 2 and as `host-specific-key` on line 3; keep one",
            ),
            (
                "[rules]\nhost-specific-key = \"off\"\nSA220 = \"error\"\n",
                "[rules] sets SA220 (host-specific-key) twice: as `host-specific-key` on line 2 and as `SA220` on line 3; keep one",
            ),
            (
                "[rules]\nsa220 = \"off\"\n\"SA220\" = \"off\"\n",
                "[rules] sets SA220 (host-specific-key) twice: as `sa220` on line 2 and as `SA220` on line 3; keep one",
            ),
        ] {
            let e = p(text).unwrap_err();
            assert_eq!(((e.line, e.column), e.message.as_str()), ((3, 1), says));
        }
        // A policy rule's ID and name too.
        let e = p(&format!(
            "[rules]\nP001 = \"info\"\nskill-license = \"info\"\n{POLICY}"
        ))
        .unwrap_err();
        assert_eq!(
            e.message,
            "[rules] sets P001 (skill-license) twice: as `P001` on line 2 and as `skill-license` on line 3; keep one"
        );
        // Rules are kept in the file's order.
        let c = p("[rules]\nSA402 = \"off\"\nbody-too-long = \"info\"\n").unwrap();
        assert_eq!(
            c.rules,
            [
                (Rule::Unavailable, RuleLevel::Off),
                (Rule::BodyTooLong, RuleLevel::Info)
            ]
        );
    }

    #[test]
    fn a_profile_the_audit_could_not_load_is_an_error_at_its_entry() {
        let e = p("profiles = [\n  \"builtin:vscode\",\n  \"builtin:nosuch\",\n]\n")
            .unwrap()
            .profile_sources()
            .unwrap_err();
        assert_eq!(
            (e.path.as_str(), e.line, e.column),
            ("skill-audit.toml", 3, 3)
        );
        assert!(
            e.message.starts_with(
                "profile `builtin:nosuch`: no such built-in profile; known: builtin:claude-code,"
            ),
            "{e}"
        );
        let dir = tempfile::TempDir::new().unwrap();
        std::fs::write(dir.path().join("p.json"), "{}").unwrap();
        let c = parse(
            "profiles = [\"p.json\", \"builtin:vscode\", \"missing.json\"]\n",
            "lib/skill-audit.toml",
            dir.path().to_owned(),
        )
        .unwrap();
        let e = c.profile_sources().unwrap_err();
        assert_eq!((e.line, e.column), (1, 41));
        // The path as the run shows the settings file's folder.
        assert!(
            e.message
                .starts_with("profile `missing.json`: cannot read profile (lib/missing.json): "),
            "{e}"
        );
        let e = p("profiles = [\"mcp:x=server\"]\n")
            .unwrap()
            .profile_sources()
            .unwrap_err();
        assert_eq!((e.line, e.column), (1, 13));
        assert!(e.message.contains("only on the command line"), "{e}");
    }

    const POLICY: &str = "[[policy]]\nid = \"P001\"\nname = \"skill-license\"\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"license\"\n";

    #[test]
    fn policy_rules_are_rules_of_the_run() {
        let c = p(&format!(
            "select = [\"P\"]\nignore = [\"skill-license\"]\n[rules]\nP001 = \"info\"\n{POLICY}"
        ))
        .unwrap();
        assert_eq!(c.policies.len(), 1);
        let rule = c.policies[0];
        assert_eq!((rule.code(), rule.name()), ("P001", "skill-license"));
        assert_eq!(
            rule.default_severity(),
            crate::diagnostic::Severity::Warning
        );
        assert_eq!(c.rules, [(rule, RuleLevel::Info)]);
        assert_eq!(c.selection.select, Some(vec![rule]));
        assert_eq!(c.selection.ignore, [rule]);
        assert!(
            rule.doc().why.contains("skill-audit.toml:6"),
            "{}",
            rule.doc().why
        );
    }

    #[test]
    fn broken_policy_rules_name_their_line() {
        // Each case: the text after `[[policy]]`, where the error is and what it says.
        let cases: [(&str, (usize, usize), &str); 11] = [
            (
                "id = \"P001\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = \"sometimes\"",
                (5, 9),
                "required-field",
            ),
            (
                "id = \"SA221\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"x\"",
                (2, 6),
                "built-in rule SA221",
            ),
            (
                "id = \"X1\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"x\"",
                (2, 6),
                "three digits",
            ),
            (
                "id = \"P001\"\nname = \"unknown-key\"\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"x\"",
                (3, 8),
                "SA221",
            ),
            (
                "id = \"P001\"\nname = \"Skill License\"\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"x\"",
                (3, 8),
                "lowercase",
            ),
            (
                "id = \"P001\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = \"field-pattern\"\nfield = \"x\"\npattern = \"(unclosed\"",
                (7, 11),
                "not a regular expression",
            ),
            (
                "id = \"P001\"\nname = \"a\"\napplies-to = \"agent\"\ncheck = \"forbidden-tools\"\ntools = [\"Bash\"]\nfield = \"x\"",
                (7, 9),
                "`field` is not read",
            ),
            (
                "id = \"P001\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = \"forbidden-tools\"\ntools = [\"Bash\"]",
                (4, 14),
                "agent",
            ),
            (
                "id = \"P001\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = \"max-length\"\nfield = \"x\"",
                (5, 9),
                "needs `max-length`",
            ),
            (
                "id = \"P001\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"x\"\npaths = [\"a/{b\"]",
                (7, 10),
                "not a glob",
            ),
            (
                "id = \"P001\"\nname = \"a\"\napplies-to = \"skills\"\ncheck = \"required-field\"\nfield = \"x\"",
                (4, 14),
                "agent",
            ),
        ];
        for (body, at, says) in cases {
            let e = p(&format!("[[policy]]\n{body}\n")).unwrap_err();
            assert_eq!((e.line, e.column), at, "{body}: {e}");
            assert!(e.message.contains(says), "{body}: {e}");
        }
        let twice = format!("{POLICY}{}", POLICY.replace("skill-license", "other"));
        let e = p(&twice).unwrap_err();
        assert_eq!((e.line, e.column), (8, 6), "{e}");
        assert!(e.message.contains("declared twice"), "{e}");
        let e = p(&format!("{POLICY}{}", POLICY.replace("P001", "P002"))).unwrap_err();
        assert_eq!(e.line, 9, "{e}");
        assert!(e.message.contains("already the name of P001"), "{e}");
    }
}
