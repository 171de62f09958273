//! Settings that change what rules accept and how findings are reported. Filled from the
//! command line and `skill-audit.toml` ([`file`]); rules read them, never the raw flags.

pub(crate) mod file;

use serde::{Deserialize, Serialize};
use std::collections::HashMap;

use crate::diagnostic::Severity;
use crate::rules::Rule;

pub use file::{ConfigError, ConfigFile, schema};

/// Which characters a skill `name` may use.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    clap::ValueEnum,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum NameCharset {
    /// `a-z`, `0-9` and `-`: what VS Code, Claude and OpenAI enforce.
    #[default]
    Ascii,
    /// Any lowercase Unicode letter or digit and `-`: what skills-ref accepts.
    Unicode,
}

/// A host whose host-specific frontmatter keys can count as known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Host {
    ClaudeCode,
    Vscode,
    Openclaw,
    Hermes,
}

impl Host {
    /// The name hosts are shown with in messages (and in `rules::spec::HOST_KEYS`).
    pub(crate) fn label(self) -> &'static str {
        match self {
            Host::ClaudeCode => "Claude Code",
            Host::Vscode => "VS Code",
            Host::Openclaw => "OpenClaw",
            Host::Hermes => "Hermes",
        }
    }
}

/// Rule settings for one run.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub name_charset: NameCharset,
    /// Hosts whose keys count as known; `None` means every host skill-audit knows.
    pub hosts: Option<Vec<Host>>,
    /// Per-rule severity: `None` turns the rule off.
    pub severities: HashMap<Rule, Option<Severity>>,
    /// The settings file's own rules (`[[policy]]`).
    pub policies: crate::rules::policy::Policies,
}

/// Which rules a run reports, as ruff selects them: `select` (all rules when unset), plus
/// `extend_select`, minus `ignore`. The command line's `--select` replaces the file's `select`;
/// `--extend-select` and `--ignore` add to the file's.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selection {
    pub select: Option<Vec<Rule>>,
    pub extend_select: Vec<Rule>,
    pub ignore: Vec<Rule>,
}

impl Selection {
    /// The command line's selection (`self`) over the settings file's (`file`).
    pub(crate) fn over(self, file: &Selection) -> Selection {
        let mut extend_select = file.extend_select.clone();
        extend_select.extend(self.extend_select);
        let mut ignore = file.ignore.clone();
        ignore.extend(self.ignore);
        Selection {
            select: self.select.or_else(|| file.select.clone()),
            extend_select,
            ignore,
        }
    }

    /// Is `rule` reported?
    pub(crate) fn reports(&self, rule: Rule) -> bool {
        let selected = self.select.as_ref().is_none_or(|s| s.contains(&rule))
            || self.extend_select.contains(&rule);
        selected && !self.ignore.contains(&rule)
    }
}

/// The rules a selector of `select`, `extend-select` or `ignore` names (or of their flags;
/// `ignore` for `ignore` and `--ignore`), among the built-in rules and `policies`, the run's
/// policy rules; `None` when it names none. To ignore a policy ID or prefix (`P`, `P0`,
/// `P001`) that names no policy rule of the run is to ignore nothing, which is what was asked:
/// one command line then serves libraries with and without `[[policy]]`. Selecting one is
/// still an error, as the findings asked for could never come.
pub(crate) fn selected(selector: &str, ignore: bool, policies: &[Rule]) -> Option<Vec<Rule>> {
    Rule::selected_in(selector, policies)
        .or_else(|| (ignore && crate::rules::policy::is_policy_selector(selector)).then(Vec::new))
}

impl Settings {
    /// Is a key read by `label` (a host label from `HOST_KEYS`) known in this run?
    pub(crate) fn host_enabled(&self, label: &str) -> bool {
        match &self.hosts {
            None => true,
            Some(hosts) => hosts.iter().any(|h| label.starts_with(h.label())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ignoring_policy_rules_a_run_lacks_ignores_nothing() {
        for sel in ["P", "p", "P0", "P001", "P99"] {
            assert_eq!(selected(sel, true, &[]), Some(Vec::new()), "{sel}");
            assert_eq!(selected(sel, false, &[]), None, "{sel}");
        }
        // Not a policy ID or prefix: a mistake, ignored or not.
        for sel in ["P0001", "Px", "SA999", "no-such-rule"] {
            assert_eq!(selected(sel, true, &[]), None, "{sel}");
        }
        assert_eq!(selected("SA402", true, &[]), Some(vec![Rule::Unavailable]));
    }
}
