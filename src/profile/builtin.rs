//! Host profiles shipped with skill-audit (`--profile builtin:NAME`), from the data files in
//! `profiles/builtin/`. They also supply the tool vocabulary used to decide what an agent's
//! `tools` list grants.

use std::path::Path;
use std::sync::OnceLock;

use super::{Profile, ProfileError, parse};

/// Name and JSON of every built-in profile.
pub(crate) const BUILTINS: &[(&str, &str)] = &[
    (
        "claude-code",
        include_str!("../../profiles/builtin/claude-code.json"),
    ),
    (
        "github-copilot",
        include_str!("../../profiles/builtin/github-copilot.json"),
    ),
    ("vscode", include_str!("../../profiles/builtin/vscode.json")),
];

/// Load a built-in profile by name.
pub(crate) fn load(name: &str) -> Result<Profile, ProfileError> {
    let display = format!("builtin:{name}");
    let Some((_, json)) = BUILTINS.iter().find(|(n, _)| *n == name) else {
        return Err(ProfileError {
            path: display,
            line: 0,
            column: 0,
            message: format!("no such built-in profile; known: {}", names().join(", ")),
        });
    };
    parse(json, Path::new(name), &display)
}

/// The built-in VS Code and GitHub Copilot profiles, parsed once.
pub(crate) fn vocabularies() -> &'static [Profile] {
    static CELL: OnceLock<Vec<Profile>> = OnceLock::new();
    CELL.get_or_init(|| {
        ["vscode", "github-copilot"]
            .iter()
            .filter_map(|n| load(n).ok())
            .collect()
    })
}

/// The JSON text of a built-in profile, exactly as shipped; `name` may carry the
/// `builtin:` prefix.
pub(crate) fn text(name: &str) -> Option<&'static str> {
    let name = name.strip_prefix("builtin:").unwrap_or(name);
    BUILTINS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, json)| *json)
}

/// The names of the built-in profiles, as `--profile` takes them (`builtin:NAME`).
pub(crate) fn names() -> Vec<String> {
    BUILTINS
        .iter()
        .map(|(n, _)| format!("builtin:{n}"))
        .collect()
}

/// One built-in profile as `skill-audit profiles` lists it.
pub(crate) struct Summary {
    /// `builtin:NAME`.
    pub name: String,
    pub description: String,
    /// When its lists were last checked against the host's documentation (YYYY-MM-DD).
    pub checked: Option<String>,
}

/// A summary of each built-in profile.
pub(crate) fn describe() -> Vec<Summary> {
    BUILTINS
        .iter()
        .map(|(name, json)| {
            let v = serde_json::from_str::<serde_json::Value>(json).unwrap_or_default();
            let field = |key: &str| v.get(key).and_then(|d| d.as_str()).map(str::to_owned);
            Summary {
                name: format!("builtin:{name}"),
                description: field("description").unwrap_or_default(),
                checked: field("checked"),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DepKind;
    use crate::profile::Verdict;

    #[test]
    fn every_builtin_loads() {
        for (name, _) in BUILTINS {
            let p = load(name).unwrap();
            assert_eq!(p.name, *name);
            assert!(!p.tools.is_empty());
        }
        assert!(load("nope").is_err());
        assert_eq!(vocabularies().len(), 2);
    }

    #[test]
    fn vscode_vocabulary() {
        let p = load("vscode").unwrap();
        assert_eq!(p.verdict("edit/editFiles"), Verdict::Known);
        assert_eq!(p.verdict("edit"), Verdict::Known, "tool set");
        assert_eq!(
            p.verdict("codebase"),
            Verdict::Renamed(vec!["search/codebase".into()])
        );
        assert!(matches!(p.verdict("runCommands"), Verdict::Renamed(v) if v.len() == 4));
        assert_eq!(p.verdict("think"), Verdict::Unknown);
        assert_eq!(
            p.verdict("github/*"),
            Verdict::Known,
            "MCP is not judged without servers"
        );
        assert_eq!(
            p.verdict("ms-python.python/getPythonEnvironmentInfo"),
            Verdict::Known
        );
        assert!(
            p.has(DepKind::Tools, "runCommands"),
            "renamed names still resolve"
        );
        assert!(!p.has(DepKind::Tools, "think"));
    }

    #[test]
    fn github_aliases_are_case_insensitive() {
        let p = load("github-copilot").unwrap();
        for name in [
            "Bash",
            "shell",
            "Read",
            "NotebookEdit",
            "Grep",
            "Task",
            "WebFetch",
            "TodoWrite",
            "github/get_issue",
        ] {
            assert_eq!(p.verdict(name), Verdict::Known, "{name}");
        }
        assert_eq!(p.verdict("codebase"), Verdict::Unknown);
        assert_eq!(
            p.verdict("slack/post"),
            Verdict::Unknown,
            "servers listed, slack is not one"
        );
    }

    #[test]
    fn claude_permission_syntax() {
        let p = load("claude-code").unwrap();
        assert_eq!(p.verdict("Bash(git:*)"), Verdict::Known);
        assert_eq!(p.verdict("Frobnicate"), Verdict::Unknown);
    }

    #[test]
    fn text_takes_the_name_with_or_without_prefix() {
        assert_eq!(text("vscode"), text("builtin:vscode"));
        assert!(text("vscode").unwrap().contains("\"host\": \"vscode\""));
        assert_eq!(text("nope"), None);
        assert_eq!(names().len(), BUILTINS.len());
        assert!(describe().iter().all(|s| s.checked.is_some()));
    }
}
