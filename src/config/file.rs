//! `skill-audit.toml`: the project's settings. Unknown keys, unknown rule IDs and bad values
//! are errors that name the file, the line and what is allowed.

use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

use super::{Host, NameCharset};
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
/// The path returned is relative to `cwd` when under it, otherwise absolute.
pub(crate) fn find(
    root: &Path,
    cwd: &Path,
    follow_outside: bool,
) -> Result<Option<PathBuf>, String> {
    let cwd = crate::paths::normalize(cwd);
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
        None if start.starts_with(&cwd) => start
            .ancestors()
            .take_while(|d| d.starts_with(&cwd))
            .collect(),
        None => vec![start.as_path()],
    };
    // The farthest folder searched bounds where the file found may lead.
    let top = searched.last().copied().unwrap_or(&start);
    let Some((found, top)) = searched
        .iter()
        .map(|d| (d.join(FILE_NAME), top))
        // The current folder, unless it was searched already.
        .chain((!searched.contains(&cwd.as_path())).then(|| (cwd.join(FILE_NAME), cwd.as_path())))
        // Whatever it is: a FIFO or a folder of that name is an error, not a file to pass by.
        .find(|(f, _)| std::fs::symlink_metadata(f).is_ok())
    else {
        return Ok(None);
    };
    let shown = crate::paths::display_path(&found, &cwd);
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
    Ok(Some(match found.strip_prefix(&cwd) {
        Ok(rel) => rel.to_owned(),
        Err(_) => found,
    }))
}

/// The settings file, as written.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
#[schemars(title = "skill-audit.toml")]
pub struct ConfigFile {
    /// Profiles (JSON files relative to this file, or `builtin:NAME`); `--profile` replaces them.
    #[serde(default)]
    pub profiles: Vec<String>,
    /// Globs of paths to skip (with a `/`, relative to this file), added to `--exclude`.
    #[serde(default)]
    #[schemars(with = "Vec<String>")]
    pub exclude: Vec<Spanned<String>>,
    /// Exit 1 when a finding of this severity or worse is found; `--fail-on` wins.
    pub fail_on: Option<Level>,
    /// Characters allowed in skill names; `--name-charset` wins.
    pub name_charset: Option<NameCharset>,
    /// Hosts whose host-specific keys count as known (default: all).
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
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, RuleLevel>")]
    pub rules: BTreeMap<Spanned<String>, RuleLevel>,
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
    pub severity: Option<PolicySeverity>,
    /// One line for `skill-audit rules` [default: made from the check].
    pub summary: Option<String>,
    /// What each finding says, instead of the generated message: say what to do.
    pub message: Option<String>,
    /// What the rule checks: skills (`SKILL.md`) or agents.
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

/// A config file that cannot be used: exit 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}:{line}:{column}: {message}")]
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

/// Read and validate a config file.
pub(crate) fn load(path: &Path, display: &str) -> Result<Config, ConfigError> {
    let text = crate::boundary::read_text(path).map_err(|e| ConfigError {
        path: display.to_owned(),
        line: 1,
        column: 1,
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
    for (id, level) in &file.rules {
        let rule = Rule::from_id_in(id.get_ref(), &policies).ok_or_else(|| {
            err(
                id.span().start,
                format!(
                    "unknown rule `{}` in [rules]; use a rule ID such as `SA221` or a name such as `unknown-key` (`skill-audit rules` lists them)",
                    id.get_ref()
                ),
            )
        })?;
        rules.push((rule, *level));
    }
    let rules_of = |key: &str, selectors: &[Spanned<String>]| {
        let mut out = Vec::new();
        for sel in selectors {
            out.extend(Rule::selected_in(sel.get_ref(), &policies).ok_or_else(|| {
                err(
                    sel.span().start,
                    format!(
                        "`{}` in `{key}` names no rule; {}",
                        sel.get_ref(),
                        Rule::no_rule_hint(sel.get_ref(), &policies)
                    ),
                )
            })?);
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
                            "unknown `output-format` `{}`; use {}",
                            f.get_ref(),
                            crate::report::Format::NAMES
                        ),
                    )
                },
            )?,
        ),
        None => None,
    };
    let at = |offset: usize| crate::span::pos_of(text, offset);
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
                    "policy `id` `{id}` is the built-in rule {builtin} ({}); policy rules use `P` and three digits, such as `P001`",
                    builtin.name()
                ),
            ));
        }
        if !crate::rules::policy::is_policy_id(id) {
            return Err(err(
                at_id,
                format!("policy `id` `{id}`: use `P` and three digits, from `P001` to `P999`"),
            ));
        }
        if let Some(twin) = out.iter().find(|r| r.code().eq_ignore_ascii_case(id)) {
            return Err(err(
                at_id,
                format!(
                    "policy `id` `{id}` is declared twice ({twin} is above); give each rule its own ID"
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
                    "policy `name` `{name}`: use lowercase letters, digits and `-`, such as `skill-license`"
                ),
            ));
        }
        if let Some(taken) = Rule::from_id_in(name, &out) {
            return Err(err(
                at_name,
                format!("policy `name` `{name}` is already the name of {taken}; choose another"),
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
                            format!("policy {id}: `{}` is not a glob: {}", p.get_ref(), x.kind()),
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
