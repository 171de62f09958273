//! Host profiles shipped with skill-audit (`--profile builtin:NAME`), from the data files in
//! `profiles/builtin/`. They also supply the tool vocabulary used to decide what an agent's
//! `tools` list grants.

use std::path::Path;
use std::sync::OnceLock;

use super::{Profile, ProfileError};

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
        let known: Vec<String> = BUILTINS
            .iter()
            .map(|(n, _)| format!("builtin:{n}"))
            .collect();
        return Err(ProfileError {
            path: display,
            line: 0,
            column: 0,
            message: format!("no such built-in profile; known: {}", known.join(", ")),
        });
    };
    let role = super::compose::Role::Definition;
    super::compose::Composer::default().text(json, Path::new(name), &display, role)
}

/// Every built-in host profile, parsed once, in `BUILTINS` order.
pub(crate) fn hosts() -> &'static [Profile] {
    static CELL: OnceLock<Vec<Profile>> = OnceLock::new();
    CELL.get_or_init(|| BUILTINS.iter().filter_map(|(n, _)| load(n).ok()).collect())
}

/// The built-in hosts that load agents of `flavor` (`custom`, `chatmode`, `claude`).
pub(crate) fn loading(flavor: &str) -> impl Iterator<Item = &'static Profile> {
    hosts().iter().filter(move |p| {
        p.vocabulary
            .as_ref()
            .is_some_and(|v| v.loads.iter().any(|l| l == flavor))
    })
}

/// The built-in VS Code and GitHub Copilot profiles, whose vocabularies say what an agent's
/// `tools` list grants.
pub(crate) fn vocabularies() -> &'static [Profile] {
    static CELL: OnceLock<Vec<Profile>> = OnceLock::new();
    CELL.get_or_init(|| {
        hosts()
            .iter()
            .filter(|p| matches!(p.name.as_str(), "vscode" | "github-copilot"))
            .cloned()
            .collect()
    })
}

/// A one-line description of each built-in profile.
pub(crate) fn describe() -> Vec<(String, String)> {
    BUILTINS
        .iter()
        .map(|(name, json)| {
            let desc = serde_json::from_str::<serde_json::Value>(json)
                .ok()
                .and_then(|v| {
                    v.get("description")
                        .and_then(|d| d.as_str())
                        .map(str::to_owned)
                })
                .unwrap_or_default();
            (format!("builtin:{name}"), desc)
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
}
