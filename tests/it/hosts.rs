//! Hosts' loading rules: each rule a built-in host profile documents keeps a skill from one
//! host (`not-loaded`, with the host and the rule in the reason) and not from another; hosts
//! whose tools or agent files are not documented judge neither; `skill-audit profiles` lists
//! every host with its date.

use crate::common::*;

use serde_json::Value;

const HOSTS: [&str; 9] = [
    "builtin:vscode",
    "builtin:claude-code",
    "builtin:github-copilot",
    "builtin:codex",
    "builtin:copilot-cli",
    "builtin:cursor",
    "builtin:gemini-cli",
    "builtin:opencode",
    "builtin:openclaw",
];

/// Audit a tree of `files` against every built-in host.
fn audit(files: &[(&str, &str)]) -> Value {
    let tmp = tree(files);
    let mut args = vec!["--fail-on", "never"];
    for h in HOSTS {
        args.extend(["-p", h]);
    }
    args.push(".");
    json_run(tmp.path(), &args).0
}

/// The status and reason of the only skill (or agent) on `profile`.
fn cell(report: &Value, key: &str, profile: &str) -> (String, String) {
    let items = arr(report, key);
    assert_eq!(items.len(), 1, "{report:#}");
    let a = &items[0]["availability"][profile];
    (
        s(a, "status").to_owned(),
        a["reason"].as_str().unwrap_or_default().to_owned(),
    )
}

/// Why `profile` does not load the one skill of `report` (its cell must be `not-loaded`).
fn refusal(report: &Value, profile: &str) -> String {
    let (status, reason) = cell(report, "skills", profile);
    assert_eq!(status, "not-loaded", "{reason}");
    reason
}

fn status(report: &Value, profile: &str) -> String {
    cell(report, "skills", profile).0
}

#[test]
fn file_name_case() {
    let r = audit(&[("demo/skill.md", &skill_md("demo", ""))]);
    assert_eq!(
        cell(&r, "skills", "codex"),
        (
            "not-loaded".into(),
            "Codex looks for a file named exactly `SKILL.md`, not `skill.md`".into()
        )
    );
    assert_eq!(status(&r, "github-copilot"), "not-loaded");
    assert_eq!(status(&r, "copilot-cli"), "not-loaded");
    assert_eq!(status(&r, "cursor"), "not-loaded");
    assert_eq!(
        cell(&r, "skills", "openclaw").1,
        "OpenClaw looks for a file named exactly `SKILL.md`, not `skill.md`"
    );
    // VS Code, Claude Code, Gemini CLI and OpenCode ask the file system for `SKILL.md`: a
    // case-sensitive one (Linux) does not find `skill.md`.
    for (host, title) in [
        ("vscode", "VS Code"),
        ("claude-code", "Claude Code"),
        ("gemini-cli", "Gemini CLI"),
        ("opencode", "OpenCode"),
    ] {
        assert_eq!(
            cell(&r, "skills", host),
            (
                "not-loaded".into(),
                format!(
                    "{title} looks for `SKILL.md`: on a case-sensitive file system (Linux) it does not find `skill.md`; on macOS and Windows it does"
                )
            )
        );
    }
    let r = audit(&[("demo/SKILL.md", &skill_md("demo", ""))]);
    assert_eq!(status(&r, "codex"), "needs-nothing");
    // OpenClaw reads no file over 256,000 bytes.
    let big = format!("{}{}", skill_md("demo", ""), "x".repeat(256_000));
    let r = audit(&[("demo/SKILL.md", &big)]);
    assert_eq!(
        cell(&r, "skills", "openclaw").1,
        format!(
            "OpenClaw skips a `SKILL.md` over 256000 bytes, and this one has {}",
            big.len()
        )
    );
    assert_eq!(status(&r, "claude-code"), "needs-nothing");
    let r = audit(&[("demo/SKILL.md", &big[..256_000])]);
    assert_eq!(status(&r, "openclaw"), "needs-nothing");
}

#[test]
fn another_case_loads_where_the_file_system_ignores_case() {
    let profile =
        |os: &str| format!(r#"{{"name": "mac", "extends": ["builtin:claude-code"], "os": {os}}}"#);
    let on = |os: &str| {
        let mac = profile(os);
        let tmp = tree(&[("demo/skill.md", &skill_md("demo", "")), ("mac.json", &mac)]);
        let args = ["--fail-on", "never", "-p", "mac.json", "demo"];
        status(&json_run(tmp.path(), &args).0, "mac")
    };
    assert_eq!(on(r#"["macos", "windows"]"#), "needs-nothing");
    assert_eq!(on(r#"["macos", "linux"]"#), "not-loaded");
    assert_eq!(on(r#"[]"#), "not-loaded");
}

#[test]
fn codex_ends_a_frontmatter_at_an_indented_dashes_line() {
    // The body indented into `description`: no line closes it at the left margin.
    let text = "---\nname: demo\ndescription: |\n  Does demo things.\n  ---\n\n  # Demo\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "codex"),
        (
            "needs-nothing".into(),
            "Codex ends the frontmatter at the indented `---` on line 5 and loads it; skill-audit reads none of its other fields".into()
        )
    );
    assert_eq!(status(&r, "copilot-cli"), "not-loaded");
    assert_eq!(status(&r, "gemini-cli"), "not-loaded");
    // Closed at the margin below, but Codex ends it above `description`.
    let text = "---\nname: demo\n  ---\ndescription: Does demo things.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "codex"),
        (
            "not-loaded".into(),
            "Codex skips a skill without a `description`, as it ends the frontmatter at the indented `---` on line 3".into()
        )
    );
    assert_eq!(status(&r, "copilot-cli"), "needs-nothing");
    // Nothing above it: no frontmatter for Codex.
    let text = "---\n  ---\nname: demo\ndescription: Does demo things.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "codex").1,
        "Codex ends the frontmatter at the indented `---` on line 2, and what is above it is not a YAML mapping with fields, so it skips the skill"
    );
    assert_eq!(status(&r, "claude-code"), "needs-nothing");
}

#[test]
fn a_byte_order_mark_hides_the_frontmatter_from_some_hosts() {
    let text = format!("\u{feff}{}", skill_md("demo", ""));
    let r = audit(&[("demo/SKILL.md", &text)]);
    for (host, title) in [
        ("codex", "Codex"),
        ("gemini-cli", "Gemini CLI"),
        ("openclaw", "OpenClaw"),
    ] {
        assert_eq!(
            cell(&r, "skills", host),
            (
                "not-loaded".into(),
                format!(
                    "{title} finds no frontmatter after the byte order mark (U+FEFF) that starts the file, so it skips the skill; save the file without it"
                )
            )
        );
    }
    for host in ["claude-code", "cursor", "opencode", "vscode"] {
        assert_eq!(status(&r, host), "needs-nothing", "{host}");
    }
    // A mark before text that opens no frontmatter is not why a host skips it.
    let r = audit(&[("demo/SKILL.md", "\u{feff}# Demo\n")]);
    assert!(!cell(&r, "skills", "codex").1.contains("byte order mark"));
}

#[test]
fn an_empty_frontmatter_is_said_to_be_empty() {
    let r = audit(&[("demo/SKILL.md", "---\n---\nBody.\n")]);
    // Gemini CLI's pattern needs a line between the two.
    assert_eq!(
        cell(&r, "skills", "gemini-cli"),
        (
            "not-loaded".into(),
            "Gemini CLI finds no frontmatter, as it needs a line between the opening `---` and the closing one, so it skips the skill".into()
        )
    );
    for (host, title, field) in [
        ("opencode", "OpenCode", "name"),
        ("openclaw", "OpenClaw", "description"),
    ] {
        assert_eq!(
            cell(&r, "skills", host),
            (
                "not-loaded".into(),
                format!("{title} skips a skill without a `{field}`: its frontmatter is empty")
            )
        );
    }
    let r = audit(&[("demo/SKILL.md", "---\n\n---\nBody.\n")]);
    for (host, title, field) in [
        ("gemini-cli", "Gemini CLI", "name"),
        ("opencode", "OpenCode", "name"),
        ("openclaw", "OpenClaw", "description"),
    ] {
        assert_eq!(
            cell(&r, "skills", host),
            (
                "not-loaded".into(),
                format!("{title} skips a skill without a `{field}`: its frontmatter is empty")
            )
        );
    }
    assert_eq!(status(&r, "claude-code"), "needs-nothing");
}

#[test]
fn codex_reads_metadata_into_a_struct() {
    let r = audit(&[(
        "demo/SKILL.md",
        &skill_md("demo", "metadata: \"just a string\"\n"),
    )]);
    assert_eq!(
        cell(&r, "skills", "codex"),
        (
            "not-loaded".into(),
            "Codex skips a skill whose `metadata` is not a mapping".into()
        )
    );
    assert_eq!(status(&r, "claude-code"), "needs-nothing");
    let long = format!("metadata:\n  short-description: {}\n", "y".repeat(1025));
    let r = audit(&[("demo/SKILL.md", &skill_md("demo", &long))]);
    assert_eq!(
        cell(&r, "skills", "codex").1,
        "Codex skips a skill whose metadata.short-description is over 1,024 characters (1,025)"
    );
    assert_eq!(status(&r, "cursor"), "needs-nothing");
    let fits = format!("metadata:\n  short-description: {}\n", "y".repeat(1024));
    let r = audit(&[("demo/SKILL.md", &skill_md("demo", &fits))]);
    assert_eq!(status(&r, "codex"), "needs-nothing");
}

#[test]
fn unreadable_frontmatter_by_host() {
    // Invalid YAML (a second `: ` in a plain value), with `name:` and `description:` lines.
    let text = "---\nname: demo\ndescription: Use when: the user asks\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "codex"),
        (
            "not-loaded".into(),
            "Codex skips a skill whose frontmatter is missing or not valid YAML".into()
        )
    );
    // Loaded with none of its fields, a body that runs nothing needs nothing.
    let (st, why) = cell(&r, "skills", "claude-code");
    assert_eq!(st, "needs-nothing");
    assert!(why.starts_with("Claude Code loads it"), "{why}");
    for (host, title) in [("gemini-cli", "Gemini CLI"), ("openclaw", "OpenClaw")] {
        let (st, why) = cell(&r, "skills", host);
        assert_eq!(st, "needs-nothing");
        assert!(
            why.starts_with(&format!("{title} reads its `key: value` lines")),
            "{why}"
        );
    }
    // OpenCode reads it again with the value made block text.
    let (st, why) = cell(&r, "skills", "opencode");
    assert_eq!(st, "needs-nothing");
    assert!(
        why.starts_with("OpenCode reads it once its values that hold a colon are made block text"),
        "{why}"
    );
    // The Copilot CLI and Cursor skip it, and GitHub's cloud agent, which runs the CLI's
    // harness.
    for (host, title) in [
        ("copilot-cli", "Copilot CLI"),
        ("cursor", "Cursor"),
        ("github-copilot", "GitHub Copilot"),
    ] {
        assert_eq!(
            cell(&r, "skills", host),
            (
                "not-loaded".into(),
                format!("{title} skips a skill whose frontmatter is not valid YAML")
            )
        );
    }
    // VS Code's own reader takes it.
    let (st, why) = cell(&r, "skills", "vscode");
    assert_eq!(st, "needs-nothing");
    assert!(
        why.starts_with("VS Code loads it, as its own reader takes"),
        "{why}"
    );

    // Not YAML even so (an unclosed flow list): OpenCode skips it, Claude Code loads it.
    let text = "---\nname: demo\ndescription: [Use when asked\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "opencode"),
        (
            "not-loaded".into(),
            "OpenCode skips a skill whose frontmatter is not valid YAML, even with its values that hold a colon made block text".into()
        )
    );
    assert_eq!(status(&r, "claude-code"), "needs-nothing");

    // Made block text, the value is read: OpenCode's required `description` is there, and a
    // `name` written only as part of another key's value is not.
    let text = "---\ndescription: Use when: name: demo\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "opencode"),
        (
            "not-loaded".into(),
            "OpenCode skips a skill without a `name`".into()
        )
    );

    // No frontmatter at all: no fields for OpenCode and Cursor, which require one, none for
    // the Copilot CLI, still loaded by Claude Code.
    let r = audit(&[("demo/SKILL.md", "# Demo\n\nBody.\n")]);
    assert_eq!(
        cell(&r, "skills", "opencode"),
        (
            "not-loaded".into(),
            "OpenCode skips a skill without a `name`".into()
        )
    );
    assert_eq!(
        cell(&r, "skills", "cursor").1,
        "Cursor skips a skill without a `description`"
    );
    assert_eq!(
        cell(&r, "skills", "copilot-cli").1,
        "Copilot CLI skips a skill that does not start with a frontmatter"
    );
    assert_eq!(status(&r, "claude-code"), "needs-nothing");

    // YAML that is not a mapping: no fields for the Copilot CLI, which loads it; Codex skips it.
    let r = audit(&[("demo/SKILL.md", "---\n- a\n- b\n---\nBody.\n")]);
    let (st, why) = cell(&r, "skills", "copilot-cli");
    assert_eq!(st, "needs-nothing");
    assert!(
        why.starts_with("Copilot CLI loads it with no fields"),
        "{why}"
    );
    assert_eq!(status(&r, "codex"), "not-loaded");

    // Gemini CLI needs the lines it falls back to; Claude Code needs none.
    let text = "---\ndescription: Use when: the user asks\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "gemini-cli"),
        (
            "not-loaded".into(),
            "Gemini CLI skips a skill without a `name:` line, and its frontmatter is not valid YAML"
                .into()
        )
    );
    assert_eq!(status(&r, "claude-code"), "needs-nothing");

    // Without a closed frontmatter Gemini CLI finds no lines at all.
    let r = audit(&[("demo/SKILL.md", "---\nname: demo\ndescription: d\nBody.\n")]);
    let (st, why) = cell(&r, "skills", "gemini-cli");
    assert_eq!(st, "not-loaded");
    assert!(why.contains("between `---` lines"), "{why}");
    // Where OpenCode's and Cursor's reader would end it is not known: `invalid` there. The
    // Copilot CLI skips it.
    assert_eq!(status(&r, "opencode"), "invalid");
    assert_eq!(status(&r, "cursor"), "invalid");
    assert_eq!(
        cell(&r, "skills", "copilot-cli").1,
        "Copilot CLI skips a skill whose frontmatter no `---` line closes"
    );
}

#[test]
fn required_fields() {
    let no_name = "---\ndescription: Does things. Use when asked.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", no_name)]);
    assert_eq!(
        cell(&r, "skills", "codex"),
        (
            "not-loaded".into(),
            "Codex skips a skill without a `name`".into()
        )
    );
    assert_eq!(status(&r, "opencode"), "not-loaded");
    assert_eq!(status(&r, "gemini-cli"), "not-loaded");
    // Claude Code and the Copilot CLI name it after its folder.
    assert_eq!(status(&r, "claude-code"), "needs-nothing");
    assert_eq!(status(&r, "copilot-cli"), "needs-nothing");
    assert_eq!(status(&r, "cursor"), "needs-nothing");

    // Without a description: Cursor skips it, Claude Code and the Copilot CLI take the body's.
    let no_description = "---\nname: demo\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", no_description)]);
    assert_eq!(
        cell(&r, "skills", "cursor"),
        (
            "not-loaded".into(),
            "Cursor skips a skill without a `description`".into()
        )
    );
    assert_eq!(status(&r, "copilot-cli"), "needs-nothing");
    assert_eq!(status(&r, "claude-code"), "needs-nothing");
    assert_eq!(
        cell(&r, "skills", "openclaw").1,
        "OpenClaw skips a skill without a `description`"
    );
    // OpenClaw names a skill without a `name` after its folder.
    let r = audit(&[("demo/SKILL.md", no_name)]);
    assert_eq!(status(&r, "openclaw"), "needs-nothing");

    // Written, but not as text: the Copilot CLI skips it, Claude Code takes the body's.
    let r = audit(&[(
        "demo/SKILL.md",
        "---\nname: demo\ndescription:\n---\nBody.\n",
    )]);
    assert_eq!(
        cell(&r, "skills", "copilot-cli"),
        (
            "not-loaded".into(),
            "Copilot CLI skips a skill whose `description` is not text".into()
        )
    );
    assert_eq!(status(&r, "claude-code"), "needs-nothing");
    let r = audit(&[(
        "demo/SKILL.md",
        "---\nname: 12\ndescription: d\n---\nBody.\n",
    )]);
    assert_eq!(
        cell(&r, "skills", "copilot-cli").1,
        "Copilot CLI skips a skill whose `name` is not text"
    );
    // Written empty: the Copilot CLI skips it, Claude Code names it after its folder.
    let r = audit(&[(
        "demo/SKILL.md",
        "---\nname: \"  \"\ndescription: d\n---\nBody.\n",
    )]);
    assert_eq!(
        cell(&r, "skills", "copilot-cli").1,
        "Copilot CLI skips a skill whose `name` is empty"
    );
    assert_eq!(status(&r, "claude-code"), "needs-nothing");

    // An empty description: Codex skips it, OpenCode's loader takes any string.
    let empty = "---\nname: demo\ndescription: \"\"\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", empty)]);
    assert_eq!(
        cell(&r, "skills", "codex").1,
        "Codex skips a skill whose `description` is empty"
    );
    assert_eq!(status(&r, "opencode"), "needs-nothing");
}

#[test]
fn name_and_description_limits() {
    let long = "a".repeat(65);
    let r = audit(&[(
        &format!("{long}/SKILL.md") as &str,
        &skill_md(&long, "") as &str,
    )]);
    assert_eq!(
        cell(&r, "skills", "codex").1,
        "Codex skips a skill whose name is over 64 characters (65)"
    );
    assert_eq!(status(&r, "gemini-cli"), "needs-nothing");

    let text = format!(
        "---\nname: demo\ndescription: {}\n---\nBody.\n",
        "x".repeat(1025)
    );
    let r = audit(&[("demo/SKILL.md", &text)]);
    assert_eq!(
        cell(&r, "skills", "codex"),
        (
            "not-loaded".into(),
            "Codex skips a skill whose description is over 1,024 characters (1,025)".into()
        )
    );
    assert_eq!(status(&r, "gemini-cli"), "needs-nothing");
    assert_eq!(status(&r, "claude-code"), "needs-nothing");

    // Codex measures after collapsing whitespace: 1,030 characters written, 1,024 read. The
    // Copilot CLI counts them as written.
    let text = format!(
        "---\nname: demo\ndescription: \"{}       {}\"\n---\nBody.\n",
        "x".repeat(500),
        "y".repeat(523)
    );
    let r = audit(&[("demo/SKILL.md", &text)]);
    assert_eq!(status(&r, "codex"), "needs-nothing");
    assert_eq!(
        cell(&r, "skills", "copilot-cli").1,
        "Copilot CLI skips a skill whose description is over 1,024 characters (1,030)"
    );

    // The Copilot CLI trims a name's ends and counts the rest as written; Codex collapses
    // inner runs too.
    let text = format!(
        "---\nname: \"  {}{}b  \"\ndescription: d\n---\nBody.\n",
        "a",
        " ".repeat(63)
    );
    let r = audit(&[("demo/SKILL.md", &text)]);
    assert_eq!(
        cell(&r, "skills", "copilot-cli").1,
        "Copilot CLI skips a skill whose name is over 64 characters (65)"
    );
    assert_eq!(status(&r, "codex"), "needs-nothing");
}

#[test]
fn name_charset() {
    let r = audit(&[("My_Skill/SKILL.md", &skill_md("My_Skill", ""))]);
    // VS Code names a skill after its folder: the documented `a-z0-9-` rule only marks the
    // name in the editor (SA206 says it here).
    assert_eq!(status(&r, "vscode"), "needs-nothing");
    assert!(
        arr(&r, "findings").iter().any(|f| f["rule"] == "SA206"),
        "{r:#}"
    );
    assert_eq!(status(&r, "codex"), "needs-nothing");
    assert_eq!(status(&r, "claude-code"), "needs-nothing");
    // The Copilot CLI takes capitals and underscores, not a slash, and not a hyphen first.
    assert_eq!(status(&r, "copilot-cli"), "needs-nothing");
    let r = audit(&[("demo/SKILL.md", &skill_md("demo/tools", ""))]);
    assert_eq!(
        cell(&r, "skills", "copilot-cli").1,
        "Copilot CLI skips a skill whose name `demo/tools` has `/`, a character outside `A-Za-z0-9_.: -`"
    );
    assert_eq!(status(&r, "claude-code"), "needs-nothing");
    let r = audit(&[("demo/SKILL.md", &skill_md("-demo", ""))]);
    assert_eq!(
        cell(&r, "skills", "copilot-cli").1,
        "Copilot CLI skips a skill whose name `-demo` starts with `-`, a character outside `A-Za-z0-9`"
    );
    assert_eq!(status(&r, "vscode"), "needs-nothing");
    // Without a `name`, the Copilot CLI holds its folder's name to the same rules.
    let no_name = "---\ndescription: Does things. Use when asked.\n---\nBody.\n";
    let r = audit(&[("demo!/SKILL.md", no_name)]);
    assert_eq!(
        cell(&r, "skills", "copilot-cli").1,
        "Copilot CLI skips a skill whose name `demo!` has `!`, a character outside `A-Za-z0-9_.: -`, taken from its folder as it has no `name`"
    );
    assert_eq!(status(&r, "claude-code"), "needs-nothing");
    let r = audit(&[("Demo Skill/SKILL.md", no_name)]);
    assert_eq!(status(&r, "copilot-cli"), "needs-nothing");
}

#[test]
fn undocumented_tools_and_agents_are_not_judged() {
    let r = audit(&[(
        "demo/SKILL.md",
        &skill_md("demo", "dependencies:\n  tools: [get_order]\n"),
    )]);
    assert_eq!(status(&r, "github-copilot"), "unavailable");
    // VS Code takes an extension's or a server's tool by its bare name: it may have it.
    assert_eq!(status(&r, "vscode"), "not-judged");
    for host in [
        "codex",
        "copilot-cli",
        "cursor",
        "gemini-cli",
        "opencode",
        "openclaw",
    ] {
        assert_eq!(status(&r, host), "not-judged", "{host}");
    }
    let r = audit(&[(
        ".github/agents/helper.agent.md",
        "---\ndescription: Helps.\ntools: [read]\n---\nBody.\n",
    )]);
    assert_eq!(cell(&r, "agents", "github-copilot").0, "available");
    let (st, why) = cell(&r, "agents", "codex");
    assert_eq!(st, "not-judged");
    assert!(why.contains("Codex"), "{why}");
}

#[test]
fn the_terminal_is_judged_where_the_host_documents_it() {
    const NEW_HOSTS: [&str; 6] = [
        "codex",
        "copilot-cli",
        "cursor",
        "gemini-cli",
        "opencode",
        "openclaw",
    ];
    // Commands the body runs need the host's terminal; the executable itself is the
    // machine's, which no host profile describes.
    let runs = skill_md("demo", "") + "\n```bash\njq . data.json\n```\n";
    let r = audit(&[("demo/SKILL.md", &runs)]);
    for host in NEW_HOSTS {
        let (st, why) = cell(&r, "skills", host);
        assert_eq!(st, "available", "{host}");
        assert_eq!(why, "not judged here: executable `jq` (inferred)", "{host}");
    }
    // Another tool a skill declares is still not judged there.
    let r = audit(&[(
        "demo/SKILL.md",
        &(skill_md("demo", "dependencies:\n  tools: [get_order]\n") + "\n```bash\njq .\n```\n"),
    )]);
    let (st, why) = cell(&r, "skills", "gemini-cli");
    assert_eq!(st, "available");
    assert!(why.contains("tool `get_order`"), "{why}");

    // A profile that denies the host's terminal: the commands cannot run.
    let tmp = tree(&[
        ("demo/SKILL.md", &runs),
        (
            "no-shell.json",
            r#"{"name": "no-shell", "extends": ["builtin:gemini-cli"], "deny": ["run_shell_command"]}"#,
        ),
    ]);
    let (r, _) = json_run(
        tmp.path(),
        &["--fail-on", "never", "-p", "no-shell.json", "demo"],
    );
    let (st, why) = cell(&r, "skills", "no-shell");
    assert_eq!(st, "partial");
    assert!(why.contains("`Bash`"), "{why}");

    // A skill whose frontmatter only OpenClaw's line reader reads is still judged on what
    // its body runs.
    let broken = "---\nname: demo\ndescription: Use when: the user asks\n---\n```bash\njq .\n```\n";
    let r = audit(&[("demo/SKILL.md", broken)]);
    let (st, why) = cell(&r, "skills", "openclaw");
    assert_eq!(st, "available");
    assert!(
        why.starts_with("OpenClaw reads its `key: value` lines"),
        "{why}"
    );
    assert_eq!(status(&r, "claude-code"), "available");
    assert_eq!(status(&r, "vscode"), "available");
    assert_eq!(status(&r, "github-copilot"), "not-loaded");
}

#[test]
fn profiles_lists_every_host_with_its_date() {
    let tmp = tree(&[]);
    let out = quiet_stdout(bin(tmp.path()).arg("profiles"), 0);
    for h in HOSTS {
        let line = out
            .lines()
            .find(|l| l.split_whitespace().next() == Some(h))
            .unwrap_or_else(|| panic!("{h} not listed:\n{out}"));
        assert!(line.contains("(checked 2026-"), "{line}");
    }
    let one = quiet_stdout(bin(tmp.path()).args(["profiles", "codex"]), 0);
    let v: Value = serde_json::from_str(&one).unwrap();
    assert_eq!(v["skills"]["description"]["max-chars"], 1024);
    assert!(s(&v, "source").contains("loader.rs"));
}

#[test]
fn codex_reads_a_scalar_name_as_its_text() {
    // serde_yaml 0.9 fills Codex's `name: String` with any scalar's text.
    let text = "---\nname: 123\ndescription: Does things.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(status(&r, "codex"), "needs-nothing");
    assert_eq!(
        refusal(&r, "copilot-cli"),
        "Copilot CLI skips a skill whose `name` is not text"
    );
    // Nothing after the colon is empty text; a mapping is no string at all.
    let text = "---\nname: demo\ndescription:\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        refusal(&r, "codex"),
        "Codex skips a skill whose `description` is empty"
    );
    let text = "---\nname: demo\ndescription:\n  when: asked\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        refusal(&r, "codex"),
        "Codex skips a skill whose `description` is not text"
    );
    assert_eq!(status(&r, "claude-code"), "needs-nothing");
    let text = "---\nname: ~\ndescription: Does things.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(status(&r, "codex"), "needs-nothing");
}

#[test]
fn gemini_reads_lines_when_the_yaml_fields_are_not_strings() {
    // js-yaml gives a number, then `name:` and `description:` lines are read.
    let text = "---\nname: 123\ndescription: Does things.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(status(&r, "gemini-cli"), "needs-nothing");
    assert_eq!(
        refusal(&r, "opencode"),
        "OpenCode skips a skill without a `name`"
    );
    // An empty `description:` line, or one a mapping follows, is still a line.
    for text in [
        "---\nname: demo\ndescription:\n---\nBody.\n",
        "---\nname: demo\ndescription:\n  when: asked\n---\nBody.\n",
    ] {
        let r = audit(&[("demo/SKILL.md", text)]);
        assert_eq!(status(&r, "gemini-cli"), "needs-nothing", "{text}");
        assert_eq!(
            refusal(&r, "cursor"),
            "Cursor skips a skill without a `description`"
        );
    }
    // No line for it either.
    let text = "---\nname: demo\nmetadata:\n  description: [a]\nsummary: x\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(status(&r, "gemini-cli"), "needs-nothing");
    let text = "---\nname: [demo]\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        refusal(&r, "gemini-cli"),
        "Gemini CLI skips a skill without a `description:` line, and its YAML `name` and `description` are not both strings"
    );
}

#[test]
fn gemini_opens_a_frontmatter_only_at_bare_dashes() {
    let text = "--- \nname: demo\ndescription: Does things.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        refusal(&r, "gemini-cli"),
        "Gemini CLI finds no frontmatter, as it opens one only at a first line that is `---` alone and this one has blanks after the dashes, so it skips the skill"
    );
    assert_eq!(status(&r, "codex"), "needs-nothing");
    assert_eq!(status(&r, "openclaw"), "needs-nothing");
}

#[test]
fn openclaw_opens_and_ends_a_frontmatter_at_any_dashes() {
    let text = "----\nname: demo\ndescription: Does things.\n----\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "openclaw"),
        (
            "needs-nothing".into(),
            "OpenClaw reads the frontmatter from the first line to line 4, as it opens and ends one at lines that start with `---`; skill-audit reads none of its other fields".into()
        )
    );
    assert_eq!(
        cell(&r, "skills", "gemini-cli").1,
        "Gemini CLI skips a skill without a frontmatter between `---` lines"
    );
    // Ended at `----` above the `description`.
    let text = "---\nname: demo\n----\ndescription: Does things.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "openclaw").1,
        "OpenClaw skips a skill without a `description`, as it reads the frontmatter from the first line to line 3, opening and ending one at lines that start with `---`"
    );
    assert_eq!(status(&r, "claude-code"), "needs-nothing");
}

#[test]
fn openclaw_takes_a_description_of_any_value_but_null() {
    // A mapping becomes its JSON, which is text that is not empty.
    let text = "---\nname: demo\ndescription:\n  when: asked\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(status(&r, "openclaw"), "needs-nothing");
    assert_eq!(status(&r, "cursor"), "not-loaded");
    let text = "---\nname: demo\ndescription: 42\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(status(&r, "openclaw"), "needs-nothing");
    let text = "---\nname: demo\ndescription: ~\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        refusal(&r, "openclaw"),
        "OpenClaw skips a skill without a `description`"
    );
    // Its lines when YAML fails: only keys at the left margin.
    let text = "---\nname: demo\n\tdescription: Does things.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "openclaw").1,
        "OpenClaw skips a skill without a `description:` line, and its frontmatter is not valid YAML"
    );
    assert_eq!(status(&r, "gemini-cli"), "needs-nothing");
}

#[test]
fn js_yaml_3_reads_a_tab_indented_key_at_the_margin() {
    // gray-matter 4.0.3's js-yaml 3 measures indentation in spaces only.
    let text = "---\nname: demo\n\tdescription: Does things.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    for (host, title) in [("cursor", "Cursor"), ("opencode", "OpenCode")] {
        assert_eq!(
            cell(&r, "skills", host),
            (
                "needs-nothing".into(),
                format!(
                    "{title} reads it, as its YAML reader (js-yaml 3) takes a line indented with tabs as indented by the spaces before them; skill-audit reads none of its fields"
                )
            )
        );
    }
    assert_eq!(
        cell(&r, "skills", "codex").1,
        "Codex skips a skill whose frontmatter is missing or not valid YAML"
    );
    // Under `metadata`, the tab-indented key is still one of the top level there; a first
    // key indented with a tab is one js-yaml 3 refuses.
    let text = "---\nname: demo\nmetadata:\n\tdescription: Does things.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(status(&r, "cursor"), "needs-nothing");
    let text = "---\n\tname: demo\ndescription: Does things.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "cursor").1,
        "Cursor skips a skill whose frontmatter is not valid YAML"
    );
}

/// A host that loads a skill whose frontmatter is not YAML reads none of its declaration, and
/// neither can skill-audit: where a key that declares needs is there, the cell is `invalid`
/// (what it needs is unknown), not `needs-nothing`; a `metadata` without a host's block, or
/// only `name` and `description`, declares nothing.
#[test]
fn an_unreadable_declaration_is_not_needs_nothing() {
    let declares = [
        "dependencies:\n  tools: [get_order]\n",
        "metadata:\n  openclaw:\n    requires:\n      bins: [gh]\n",
        "metadata:\n  clawdis:\n    requires:\n      bins: [gh]\n",
    ];
    for extra in declares {
        let text = format!("---\nname: demo\ndescription: Use when: paying\n{extra}---\nBody.\n");
        let r = audit(&[("demo/SKILL.md", &text)]);
        let (vscode, reason) = cell(&r, "skills", "vscode");
        assert_eq!(vscode, "invalid", "{extra}: {reason}");
        let key = extra.split(':').next().unwrap();
        assert!(
            reason.ends_with(&format!(
                "what its `{key}` declares cannot be read, so it is not judged"
            )),
            "{reason}"
        );
        assert_eq!(status(&r, "claude-code"), "invalid");
    }
    for extra in ["", "metadata:\n  author: me\n"] {
        let text = format!("---\nname: demo\ndescription: Use when: paying\n{extra}---\nBody.\n");
        let r = audit(&[("demo/SKILL.md", &text)]);
        assert_eq!(status(&r, "vscode"), "needs-nothing", "{extra}");
    }
}

/// A host profile that lists no MCP servers describes none of their resources or prompts: a
/// skill that needs one is not judged there, as a server's tool is not.
#[test]
fn a_servers_resources_and_prompts_are_not_judged_on_a_host_profile() {
    let declared =
        "dependencies:\n  resources: [\"docs://policy.md\"]\n  prompts:\n    any: [summarize]\n";
    let r = audit(&[("demo/SKILL.md", &skill_md("demo", declared))]);
    for host in HOSTS.iter().map(|h| h.trim_start_matches("builtin:")) {
        let (status, reason) = cell(&r, "skills", host);
        assert_eq!(status, "not-judged", "{host}: {reason}");
        assert!(reason.contains("resource `docs://policy.md`"), "{reason}");
    }
}

#[test]
fn gemini_ends_a_frontmatter_at_any_line_that_starts_with_dashes() {
    // Its pattern ends the frontmatter at the first `\n---`: what is below is not read.
    let text = "---\nname: demo\n--- x\ndescription: Does things.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        refusal(&r, "gemini-cli"),
        "Gemini CLI ends the frontmatter at line 3 (`--- x`), the first line after the opening one that starts with `---`, so it skips a skill without a `description`"
    );
    // No `---` line closes it for skill-audit; a `----` does for Gemini, which reads its lines.
    let text = "---\nname: demo\ndescription: Does things.\nbad: [\n----\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "gemini-cli"),
        (
            "needs-nothing".into(),
            "Gemini CLI ends the frontmatter at line 5 (`----`), the first line after the opening one that starts with `---`, and reads what is above it; skill-audit reads none of its fields".into()
        )
    );
}

#[test]
fn gray_matter_ends_a_frontmatter_at_any_line_that_starts_with_dashes() {
    // gray-matter 4 ends it at `indexOf("\n---")`: Cursor finds the `description` above the
    // `----`, OpenCode no `name`.
    let text = "---\ndescription: Does things.\n----\nname: demo\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "cursor"),
        (
            "needs-nothing".into(),
            "Cursor ends the frontmatter at line 3 (`----`), the first line after the opening one that starts with `---`, and reads what is above it; skill-audit reads none of its fields".into()
        )
    );
    assert_eq!(
        refusal(&r, "opencode"),
        "OpenCode ends the frontmatter at line 3 (`----`), the first line after the opening one that starts with `---`, so it skips a skill without a `name`"
    );
    // Both fields above a `--- extra`: both load.
    let text = "---\nname: demo\ndescription: Does things.\n--- extra\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(status(&r, "cursor"), "needs-nothing");
    assert_eq!(status(&r, "opencode"), "needs-nothing");
    // What is above it is not YAML.
    let text = "---\nname: demo\ndescription: Does things.\nbad: [\n----\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        refusal(&r, "cursor"),
        "Cursor ends the frontmatter at line 5 (`----`), the first line after the opening one that starts with `---`, and what is above it is not valid YAML, so it skips the skill"
    );
    assert_eq!(status(&r, "opencode"), "not-loaded");
}

#[test]
fn openclaw_joins_the_indented_lines_below_an_empty_key() {
    // Not YAML (`name: demo: x`): its line reader gives `description:` the lines below it.
    let text = "---\nname: demo: x\ndescription:\n  Does things\n  well.\n---\nBody.\n";
    let r = audit(&[("demo/SKILL.md", text)]);
    assert_eq!(
        cell(&r, "skills", "openclaw"),
        (
            "needs-nothing".into(),
            "OpenClaw reads its `key: value` lines although its frontmatter is not valid YAML; it reads none of its other fields".into()
        )
    );
    // Only when the line right below is indented; quotes around a value are taken off.
    for description in ["description:\n\n  Does things.", "description: \"\""] {
        let text = format!("---\nname: demo: x\n{description}\n---\nBody.\n");
        let r = audit(&[("demo/SKILL.md", &text)]);
        assert_eq!(
            refusal(&r, "openclaw"),
            "OpenClaw skips a skill whose `description` is empty"
        );
    }
}

/// An agent written in VS Code's tool names, on GitHub Copilot: each name is SA702's, and
/// SA402 says what that leaves (no tools) and how to keep the agent to VS Code.
#[test]
fn an_agent_whose_every_tool_the_host_does_not_know_is_told_what_that_leaves() {
    let agent = |target: &str| {
        format!(
            "---\ndescription: Runs things.\n{target}tools: ['execute/runInTerminal', 'read/terminalLastCommand']\n---\nRun it.\n"
        )
    };
    let t = tree(&[
        ("agents/run.agent.md", &agent("")),
        ("agents/kept.agent.md", &agent("target: vscode\n")),
    ]);
    let (r, _) = json_run(t.path(), &["-p", "builtin:github-copilot", "."]);
    let on = |rule: &str, path: &str| -> Vec<String> {
        (r["findings"].as_array().unwrap().iter())
            .filter(|f| f["rule"] == rule && f["path"] == path)
            .map(|f| f["message"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(
        on("SA402", "agents/run.agent.md"),
        [
            "on profile `github-copilot` the agent runs with no tools: GitHub Copilot knows none of the 2 tools it names (SA702 reports each); add `target: vscode` to keep it to the host it was written for, or name GitHub Copilot's own tools"
        ]
    );
    assert_eq!(on("SA702", "agents/run.agent.md").len(), 2);
    // Kept to VS Code, GitHub Copilot does not load it: nothing to say there.
    assert!(on("SA402", "agents/kept.agent.md").is_empty());
    assert!(on("SA702", "agents/kept.agent.md").is_empty());
}

/// Claude Code matches MCP tools only as `mcp__server__tool`: VS Code's `server/tool` in a
/// Claude-format agent grants nothing there (VS Code, which loads such agents too, reads it).
#[test]
fn an_mcp_tool_in_vs_code_s_spelling_in_a_claude_agent_is_dropped_by_claude_code() {
    let t = tree(&[(
        ".claude/agents/an.md",
        "---\nname: an\ndescription: Analyses.\ntools: [Read, github/list_issues, mcp__kusto__run_query, github/*]\n---\nDo.\n",
    )]);
    let (r, _) = json_run(
        t.path(),
        &["-p", "builtin:claude-code", "-p", "builtin:vscode", "."],
    );
    let sa702: Vec<(&str, u64)> = (r["findings"].as_array().unwrap().iter())
        .filter(|f| f["rule"] == "SA702")
        .map(|f| {
            (
                f["message"].as_str().unwrap(),
                f["column"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        sa702,
        [(
            "`github/list_issues` is how VS Code and GitHub Copilot spell an MCP tool; Claude Code matches MCP tools only as `mcp__github__list_issues`, so this name grants nothing on profile `claude-code` and is silently dropped",
            15
        )]
    );
}
