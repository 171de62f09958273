//! `skill-audit.toml`: the project's settings. Unknown keys, unknown rule IDs and bad values
//! are errors that name the file, the line and what is allowed.

use schemars::JsonSchema;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use toml::Spanned;

use super::{Host, NameCharset};
use crate::rules::Rule;

/// The file looked for in the first root.
pub(crate) const FILE_NAME: &str = "skill-audit.toml";

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
}

/// Read and validate a config file.
pub(crate) fn load(path: &Path, display: &str) -> Result<Config, ConfigError> {
    let text = crate::source::read_text(path).map_err(|e| ConfigError {
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
    Ok(Config { file, dir, rules })
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

# Hosts whose host-specific frontmatter keys count as known: "vscode", "claude-code".
# hosts = ["vscode", "claude-code"]

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
