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
        .find(|(f, _)| f.is_file())
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
    pub exclude: Vec<String>,
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
    pub agent: String,
    pub skills: Vec<String>,
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
        let (line, column) = line_col(text, offset);
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
    let mut rules = Vec::new();
    for (id, level) in &file.rules {
        let rule = Rule::from_id(id.get_ref()).ok_or_else(|| {
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
            out.extend(Rule::selected(sel.get_ref()).ok_or_else(|| {
                err(
                    sel.span().start,
                    format!(
                        "`{}` in `{key}` names no rule; {}",
                        sel.get_ref(),
                        Rule::SELECTOR_FORMS
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
    Ok(Config {
        file,
        dir,
        rules,
        selection,
        output_format,
    })
}

fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset.min(text.len())).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
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

# Hosts whose host-specific frontmatter keys count as known: "vscode", "claude-code", "openclaw".
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
        assert_eq!(c.file.links[0].skills, ["k"]);
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
}
