//! `hooks` and `model` on skills and agents: the hooks file a skill names, the events the hosts
//! know, the scripts commands run, and model names against the hosts' lists (SA320-SA325,
//! SA703); and on the corpora, which model names are reported.

use crate::common::*;

use serde_json::Value;

/// The findings of `rules` on `path`: (rule, line, message), in report order.
fn found(r: &Value, path: &str, rules: &[&str]) -> Vec<(String, u64, String)> {
    arr(r, "findings")
        .iter()
        .filter(|f| f["path"] == path && rules.contains(&s(f, "rule")))
        .map(|f| {
            (
                s(f, "rule").to_owned(),
                f["line"].as_u64().unwrap_or_default(),
                s(f, "message").to_owned(),
            )
        })
        .collect()
}

const HOOK_RULES: &[&str] = &["SA320", "SA321", "SA322", "SA323", "SA324"];
const MODEL_RULES: &[&str] = &["SA325", "SA703"];

#[test]
fn a_hooks_file_that_is_missing_or_not_json_is_reported_at_hooks() {
    let t = tree(&[
        (
            "skills/gone/SKILL.md",
            &skill_md("gone", "hooks: ./session-start.json\n"),
        ),
        (
            "skills/bad/SKILL.md",
            &skill_md("bad", "hooks: hooks/hooks.json\n"),
        ),
        (
            "skills/bad/hooks/hooks.json",
            "{\n  \"hooks\": {\n    \"Stop\": [\n  }\n}\n",
        ),
        (
            "skills/shape/SKILL.md",
            &skill_md("shape", "hooks: hooks.json\n"),
        ),
        ("skills/shape/hooks.json", "{\"hooks\": {\"Stop\": \"x\"}}"),
        (
            "skills/out/SKILL.md",
            &skill_md("out", "hooks: ../gone/x.json\n"),
        ),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    let gone = found(&r, "skills/gone/SKILL.md", HOOK_RULES);
    assert_eq!(gone.len(), 1, "{gone:?}");
    assert_eq!((gone[0].0.as_str(), gone[0].1), ("SA320", 4));
    assert!(
        gone[0].2.contains("`./session-start.json`"),
        "{}",
        gone[0].2
    );
    let bad = found(&r, "skills/bad/SKILL.md", HOOK_RULES);
    assert_eq!((bad[0].0.as_str(), bad[0].1), ("SA321", 4), "{bad:?}");
    assert!(
        bad[0].2.contains("hooks/hooks.json:4:3"),
        "file, line and column of the JSON error: {}",
        bad[0].2
    );
    let shape = found(&r, "skills/shape/SKILL.md", HOOK_RULES);
    assert_eq!(shape[0].0, "SA321");
    assert!(
        shape[0]
            .2
            .contains("`hooks.Stop` in `hooks.json` must be a list"),
        "{}",
        shape[0].2
    );
    let out = found(&r, "skills/out/SKILL.md", HOOK_RULES);
    assert_eq!(out[0].0, "SA320");
    assert!(out[0].2.contains("not read"), "{}", out[0].2);
}

#[cfg(unix)]
#[test]
fn a_hooks_file_linked_from_outside_the_tree_is_refused_unread() {
    let outside = tree(&[("hooks.json", "{\"hooks\": {\"Frobnicate\": []}}")]);
    let t = tree(&[("skills/s/SKILL.md", &skill_md("s", "hooks: ./hooks.json\n"))]);
    std::os::unix::fs::symlink(
        outside.path().join("hooks.json"),
        t.path().join("skills/s/hooks.json"),
    )
    .unwrap();
    let (r, _) = json_run(t.path(), &["skills"]);
    let f = found(&r, "skills/s/SKILL.md", HOOK_RULES);
    assert_eq!(f.len(), 1, "refused, so its event is never judged: {f:?}");
    assert_eq!(f[0].0, "SA320");
    assert!(f[0].2.contains("outside the audited tree"), "{}", f[0].2);
}

#[test]
fn events_are_judged_by_the_hosts_that_run_them() {
    let hooks = "hooks:\n  sessionStart:\n    - type: command\n      command: echo hi\n  PostToolUseFailure:\n    - hooks:\n        - type: command\n          command: echo failed\n  PreToolUse:\n    - matcher: Bash\n      hooks: [{type: command, command: echo ok}]\n";
    let t = tree(&[("skills/s/SKILL.md", &skill_md("s", hooks))]);
    let (r, _) = json_run(t.path(), &["."]);
    let f = found(&r, "skills/s/SKILL.md", HOOK_RULES);
    assert_eq!(f.len(), 2, "{f:?}");
    assert_eq!((f[0].0.as_str(), f[0].1), ("SA322", 5));
    assert_eq!(
        f[0].2,
        "`sessionStart` (the GitHub Copilot CLI's name, for its `.github/hooks/*.json` files) is spelt `SessionStart` in the hook events of Claude Code and VS Code; write `SessionStart`: a host that matches event names exactly never runs these hooks"
    );
    assert_eq!((f[1].0.as_str(), f[1].1), ("SA323", 8));
    assert_eq!(
        f[1].2,
        "`PostToolUseFailure` is a hook event of Claude Code only; VS Code has no such event and will not run its hooks"
    );
    let rule = arr(&r, "findings")
        .iter()
        .find(|x| s(x, "rule") == "SA323")
        .unwrap();
    assert_eq!(s(rule, "severity"), "info");
}

#[test]
fn unknown_events_name_the_hosts_lists() {
    let hooks = "hooks:\n  PreToolUsed:\n    - type: command\n      command: echo x\n  OnSave:\n    - type: command\n      command: echo y\n";
    let t = tree(&[("skills/s/SKILL.md", &skill_md("s", hooks))]);
    let (r, _) = json_run(t.path(), &["."]);
    let f = found(&r, "skills/s/SKILL.md", HOOK_RULES);
    assert_eq!(f.len(), 2, "{f:?}");
    assert!(f[0].2.ends_with("did you mean `PreToolUse`?"), "{}", f[0].2);
    assert!(
        f[1].2.starts_with("`OnSave` is not a hook event of Claude Code or VS Code (Claude Code: 33 events, listed by `skill-audit profiles claude-code`; VS Code: SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, PreCompact, SubagentStart, SubagentStop, Stop), so its hooks never run"),
        "{}",
        f[1].2
    );
}

#[test]
fn a_copilot_cli_hooks_file_gets_the_hosts_names() {
    let copilot = r#"{"version": 1, "hooks": {
        "sessionEnd": [{"type": "command", "bash": "./scripts/gone.sh"}],
        "userPromptSubmitted": [{"type": "command", "bash": "./log.sh"}],
        "errorOccurred": [{"type": "command", "bash": "./log.sh"}]}}"#;
    let t = tree(&[
        ("skills/s/SKILL.md", &skill_md("s", "hooks: hooks.json\n")),
        ("skills/s/hooks.json", copilot),
        ("skills/s/scripts/log.sh", ""),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    let f = found(&r, "skills/s/SKILL.md", HOOK_RULES);
    let m: Vec<&str> = f.iter().map(|(_, _, m)| m.as_str()).collect();
    // Sorted by rule, then message: errorOccurred, sessionEnd, userPromptSubmitted, the script.
    assert_eq!(m.len(), 4, "{m:?}");
    assert_eq!(
        m[3],
        "the `sessionEnd` hook (in `hooks.json`) runs `scripts/gone.sh`, which is not in the skill's folder (names are matched exactly); the hook fails each time it fires"
    );
    assert!(
        m[0].starts_with("`errorOccurred` (in `hooks.json`; the GitHub Copilot CLI's name, for its `.github/hooks/*.json` files) is not a hook event")
            && m[0].ends_with("so its hooks never run"),
        "{}",
        m[0]
    );
    assert!(
        m[1].contains("is spelt `SessionEnd` in the hook events of Claude Code;"),
        "only the hosts that have it: {}",
        m[1]
    );
    assert!(
        m[2].ends_with("; Claude Code and VS Code call it `UserPromptSubmit`"),
        "{}",
        m[2]
    );
}

#[test]
fn agents_are_judged_only_by_the_hosts_that_load_them() {
    let t = tree(&[
        (
            // Only VS Code runs `.agent.md` hooks: Claude Code's events are unknown there.
            ".github/agents/a.agent.md",
            "---\ndescription: d\nhooks:\n  SessionEnd:\n    - type: command\n      command: echo bye\n  Stop:\n    - type: command\n      command: echo ok\n---\nbody\n",
        ),
        (
            // Claude Code and VS Code load Claude-format agents.
            ".claude/agents/c.md",
            "---\nname: c\ndescription: d\nhooks:\n  SessionEnd:\n    - hooks: [{type: command, command: echo bye}]\n---\nbody\n",
        ),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    let a = found(&r, ".github/agents/a.agent.md", HOOK_RULES);
    assert_eq!(a.len(), 1, "{a:?}");
    assert_eq!(a[0].0, "SA322");
    assert!(a[0].2.contains("not a hook event of VS Code"), "{}", a[0].2);
    let c = found(&r, ".claude/agents/c.md", HOOK_RULES);
    assert_eq!(c.len(), 1, "{c:?}");
    assert_eq!(c[0].0, "SA323");
    assert!(c[0].2.contains("VS Code has no such event"), "{}", c[0].2);
}

#[test]
fn scripts_commands_run_must_be_there() {
    let hooks = "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ${CLAUDE_SKILL_DIR}/scripts/check.sh\n        - type: command\n          command: bash scripts/Check.sh\n        - type: command\n          command: python3 scripts/gone.py --fast\n        - type: command\n          command: ./tools/lint.sh\n";
    let t = tree(&[
        ("skills/s/SKILL.md", &skill_md("s", hooks)),
        ("skills/s/scripts/check.sh", "#!/bin/sh\n"),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    let f = found(&r, "skills/s/SKILL.md", HOOK_RULES);
    let lines: Vec<(&str, u64)> = f.iter().map(|(r, l, _)| (r.as_str(), *l)).collect();
    // The present script passes; the wrong case and the missing one do not; `tools/` is not
    // a folder of the skill, so it may be the project's.
    assert_eq!(lines, [("SA324", 11), ("SA324", 13)], "{f:?}");
    assert!(
        f[0].2
            .contains("runs `scripts/Check.sh`, which is not in the skill's folder"),
        "{}",
        f[0].2
    );
}

#[test]
fn plugin_scripts_are_looked_for_from_the_plugin_root() {
    let hooks = "hooks:\n  Stop:\n    - hooks:\n        - type: command\n          command: ${CLAUDE_PLUGIN_ROOT}/hooks/stop.sh\n        - type: command\n          command: ${CLAUDE_PLUGIN_ROOT}/hooks/gone.sh\n";
    let t = tree(&[
        ("p/.claude-plugin/plugin.json", "{\"name\": \"p\"}"),
        ("p/hooks/stop.sh", ""),
        ("p/skills/s/SKILL.md", &skill_md("s", hooks)),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    let f = found(&r, "p/skills/s/SKILL.md", HOOK_RULES);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!((f[0].0.as_str(), f[0].1), ("SA324", 10));
    assert!(f[0].2.contains("not in the plugin's folder"), "{}", f[0].2);
}

#[test]
fn model_names_are_checked_against_the_hosts_lists() {
    let t = tree(&[
        (
            "skills/s/SKILL.md",
            &skill_md("s", "model: Claude Sonet 4.5\n"),
        ),
        (
            "skills/ok/SKILL.md",
            &skill_md(
                "ok",
                "model: [sonnet, GPT-5.2 (copilot), claude-sonnet-4-5-20250929]\n",
            ),
        ),
        (
            ".github/agents/a.agent.md",
            "---\ndescription: d\nmodel: GPT-4.1 | 'gpt-5'\n---\nbody\n",
        ),
        (
            // `.agent.md` is not Claude Code's: its aliases are unknown where it loads.
            ".github/agents/b.agent.md",
            "---\ndescription: d\nmodel: opus\n---\nbody\n",
        ),
        (
            ".claude/agents/c.md",
            "---\nname: c\ndescription: d\nmodel: opus\n---\nbody\n",
        ),
        (
            // Where `inherit` is unknown, the field is ignored: the session's model is used,
            // which is what `inherit` asks for.
            ".github/agents/d.agent.md",
            "---\ndescription: d\nmodel: inherit\n---\nbody\n",
        ),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    let s_ = found(&r, "skills/s/SKILL.md", MODEL_RULES);
    assert_eq!((s_[0].0.as_str(), s_[0].1), ("SA703", 4), "{s_:?}");
    assert!(
        s_[0].2.contains("did you mean `Claude Sonnet 4.5`?"),
        "{}",
        s_[0].2
    );
    assert!(
        s_[0].2.contains("claude-code or github-copilot or vscode"),
        "{}",
        s_[0].2
    );
    assert!(found(&r, "skills/ok/SKILL.md", MODEL_RULES).is_empty());
    let a = found(&r, ".github/agents/a.agent.md", MODEL_RULES);
    assert_eq!(a.len(), 1, "{a:?}");
    assert_eq!(a[0].0, "SA325");
    assert!(
        a[0].2.contains(
            "use a list: `model: [GPT-4.1]` (`gpt-5` is no model github-copilot or vscode lists)"
        ),
        "{}",
        a[0].2
    );
    let b = found(&r, ".github/agents/b.agent.md", MODEL_RULES);
    assert_eq!(b[0].0, "SA703");
    assert!(b[0].2.contains("github-copilot or vscode"), "{}", b[0].2);
    assert!(found(&r, ".claude/agents/c.md", MODEL_RULES).is_empty());
    assert!(found(&r, ".github/agents/d.agent.md", MODEL_RULES).is_empty());
}

/// On the corpora, only names no host lists today are reported: retired models, ids the
/// Copilot hosts do not take, several names in one string. Current Copilot names pass.
#[test]
fn corpus_model_findings_name_only_unlisted_models() {
    for folder in [AWESOME_COPILOT, CHATMODES] {
        let Some(root) = corpus(folder) else { return };
        let (r, _) = json_run(&root, &["."]);
        let mut names: Vec<String> = arr(&r, "findings")
            .iter()
            .filter(|f| s(f, "rule") == "SA703")
            .map(|f| {
                let m = s(f, "message");
                m[1..m[1..].find('`').unwrap_or(0) + 1].to_owned()
            })
            .collect();
        names.sort();
        names.dedup();
        for current in [
            "GPT-4.1",
            "Claude Sonnet 4.5",
            "Claude Sonnet 4.6",
            "GPT-5.3-Codex",
        ] {
            assert!(!names.iter().any(|n| n == current), "{folder}: {current}");
        }
        assert!(
            names.iter().any(|n| n.contains("GPT-5")),
            "{folder}: {names:?}"
        );
        let lists = arr(&r, "findings")
            .iter()
            .filter(|f| s(f, "rule") == "SA325")
            .count();
        assert_eq!(lists, 2, "{folder}: laravel and pimcore write `A | B | C`");
        // No hooks in these libraries' frontmatter.
        let hooks = arr(&r, "findings")
            .iter()
            .filter(|f| HOOK_RULES.contains(&s(f, "rule")))
            .count();
        assert_eq!(hooks, 0, "{folder}");
    }
}
