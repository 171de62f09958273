//! skill-audit.toml (every key and its errors), `init`, and suppression comments.

use crate::common::*;

use serde_json::Value;
use tempfile::TempDir;

fn rules_of(r: &Value) -> Vec<(String, String, u64)> {
    r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_owned(),
                f["severity"].as_str().unwrap().to_owned(),
                f["line"].as_u64().unwrap(),
            )
        })
        .collect()
}

/// A library with one skill that has an unknown key (SA221, warning) and a host key (SA220).
fn library() -> TempDir {
    let t = TempDir::new().unwrap();
    library_in(t.path());
    t
}

/// [`library`]'s files, written in `root`.
fn library_in(root: &std::path::Path) {
    write(
        root,
        "skills/a/SKILL.md",
        "---\nname: a\ndescription: Does a.\ncolour: red\nwhen_to_use: later\ndependencies:\n  tools: [get_order]\n---\n",
    );
    write(
        root,
        "profiles/prod.json",
        r#"{"name": "prod", "tools": []}"#,
    );
    write(
        root,
        "agents/x.agent.md",
        "---\ndescription: x\ntools: [read]\n---\n",
    );
}

#[test]
fn config_is_found_in_the_first_root_and_every_key_applies() {
    let t = library();
    write(
        t.path(),
        "skill-audit.toml",
        r#"profiles = ["profiles/prod.json"]
exclude = ["**/drafts/**"]
fail-on = "warning"
name-charset = "unicode"
hosts = ["vscode"]
[rules]
"unknown-key" = "error"
SA402 = "off"
[[links]]
agent = "agents/x.agent.md"
skills = ["a"]
"#,
    );
    write(t.path(), "skills/drafts/b/SKILL.md", "not even frontmatter");
    write(
        t.path(),
        "skills/技能/SKILL.md",
        "---\nname: 技能\ndescription: d\n---\n",
    );
    let (r, code) = json_run(t.path(), &["."]);
    assert_eq!(code, 1);
    assert_eq!(r["profiles"][0]["name"], "prod", "profiles from the config");
    let paths: Vec<&str> = r["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert!(
        !paths.iter().any(|p| p.contains("drafts")),
        "exclude from the config: {paths:?}"
    );
    let f = rules_of(&r);
    assert!(
        !f.iter().any(|(r, ..)| r == "SA206"),
        "unicode names accepted: {f:?}"
    );
    assert!(
        f.contains(&("SA221".into(), "error".into(), 4)),
        "[rules] raises severity: {f:?}"
    );
    assert!(!f.iter().any(|(r, ..)| r == "SA402"), "[rules] off: {f:?}");
    // `when_to_use` is Claude Code only; with hosts = ["vscode"] it is unknown, not info.
    assert!(f.contains(&("SA221".into(), "error".into(), 5)), "{f:?}");
    assert!(!f.iter().any(|(r, ..)| r == "SA220"), "{f:?}");
    let links = r["links"].as_array().unwrap();
    assert_eq!(links[0]["via"], "config");
    assert_eq!(links[0]["agent"], "agents/x.agent.md");
    // fail-on = "warning" from the config; --fail-on on the command line wins.
    bin(t.path())
        .args(["--fail-on", "never", "."])
        .assert()
        .code(0);
    // --profile replaces the config's profiles.
    write(
        t.path(),
        "other.json",
        r#"{"name": "other", "tools": ["get_order"]}"#,
    );
    let (r, _) = json_run(t.path(), &["-p", "other.json", "."]);
    assert_eq!(r["profiles"].as_array().unwrap().len(), 1);
    assert_eq!(r["profiles"][0]["name"], "other");
}

#[test]
fn config_errors_exit_2_naming_file_line_and_what_is_allowed() {
    for (text, line, needle) in [
        ("fail-on = \"sometimes\"\n", 1, "never"),
        ("exclude = []\nprofile = [\"x\"]\n", 2, "profiles"),
        ("[rules]\nSA999 = \"off\"\n", 2, "SA999"),
        ("[rules]\nSA221 = \"loud\"\n", 2, "warning"),
        ("hosts = [\"emacs\"]\n", 1, "vscode"),
        ("name-charset = \"latin\"\n", 1, "unicode"),
        ("[[links]]\nagent = \"a\"\n", 1, "skills"),
        (
            "# x\nexclude = [\"ok/**\", \"[\"]\n",
            2,
            "invalid exclude pattern `[`",
        ),
    ] {
        let t = library();
        write(t.path(), "skill-audit.toml", text);
        let out = bin(t.path()).arg(".").output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{text}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("skill-audit.toml:{line}:")),
            "{text}: {err}"
        );
        assert!(err.contains(needle), "{text}: {err}");
    }
    // --config names another file; a missing one is an error too.
    let t = library();
    write(t.path(), "ci.toml", "fail-on = \"never\"\n");
    bin(t.path())
        .args(["--config", "ci.toml", "."])
        .assert()
        .code(0);
    bin(t.path())
        .args(["--config", "nope.toml", "."])
        .assert()
        .code(2);
}

/// Run an audit of [`library`] with `settings` as its skill-audit.toml, which must fail with
/// exit 2: the error line, without the `skill-audit: error: ` prefix.
fn settings_error(settings: &str, args: &[&str]) -> String {
    let t = library();
    write(t.path(), "skill-audit.toml", settings);
    let out = bin(t.path()).args(args).arg(".").output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{settings}");
    let err = String::from_utf8_lossy(&out.stderr);
    err.strip_prefix("skill-audit: error: ")
        .and_then(|e| e.strip_suffix('\n'))
        .unwrap_or_else(|| panic!("{settings}: {err}"))
        .to_owned()
}

#[test]
fn a_value_of_the_wrong_type_is_told_what_is_allowed() {
    for (settings, says) in [
        (
            "fail-on = 3\n",
            "skill-audit.toml:1:11: `fail-on` must be one of \"error\", \"warning\", \"info\", \"never\", found the integer 3",
        ),
        (
            "fail-on = true\n",
            "skill-audit.toml:1:11: `fail-on` must be one of \"error\", \"warning\", \"info\", \"never\", found the boolean true",
        ),
        (
            "name-charset = 1\n",
            "skill-audit.toml:1:16: `name-charset` must be one of \"ascii\", \"unicode\", found the integer 1",
        ),
        (
            "[rules]\nSA220 = 1\n",
            "skill-audit.toml:2:9: `SA220` in [rules] must be one of \"off\", \"info\", \"warning\", \"error\", found the integer 1",
        ),
        (
            "hosts = [\n  \"vscode\",\n  2,\n]\n",
            "skill-audit.toml:3:3: an entry of `hosts` must be one of \"claude-code\", \"vscode\", \"openclaw\", \"hermes\", found the integer 2",
        ),
        (
            "[[policy]]\nid = \"P001\"\nname = \"a\"\napplies-to = \"skill\"\ncheck = []\nfield = \"x\"\n",
            "skill-audit.toml:5:9: policy `check` must be one of \"required-field\", \"forbidden-field\", \"field-pattern\", \"max-length\", \"forbidden-tools\", \"required-tools\", \"allowed-servers\", found an array",
        ),
        // A string that is none of the names keeps serde's words.
        (
            "fail-on = \"sometimes\"\n",
            "skill-audit.toml:1:11: unknown variant `sometimes`, expected one of `error`, `warning`, `info`, `never`",
        ),
    ] {
        assert_eq!(settings_error(settings, &[]), says);
    }
}

#[test]
fn a_profile_entry_that_cannot_be_loaded_is_an_error_at_its_line() {
    assert_eq!(
        settings_error("profiles = [\"builtin:nosuch\"]\n", &[]),
        "skill-audit.toml:1:13: profile `builtin:nosuch`: no such built-in profile; known: builtin:claude-code, builtin:codex, builtin:copilot-cli, builtin:cursor, builtin:gemini-cli, builtin:github-copilot, builtin:openclaw, builtin:opencode, builtin:vscode"
    );
    assert_eq!(
        settings_error(
            "profiles = [\n  \"profiles/prod.json\",\n  \"nope/missing.json\",\n]\n",
            &[]
        ),
        "skill-audit.toml:3:3: profile `nope/missing.json`: cannot read profile: No such file or directory (os error 2)"
    );
    assert_eq!(
        settings_error("profiles = [\"skills\"]\n", &[]),
        "skill-audit.toml:1:13: profile `skills`: cannot read profile: not a regular file"
    );
    assert_eq!(
        settings_error("profiles = [\"mcp:x=server\"]\n", &[]),
        "skill-audit.toml:1:13: profile `mcp:x=server`: MCP servers can be named only on the command line (`--profile mcp:...`), never in a settings file"
    );
    // A settings file elsewhere: the path read is shown too.
    let t = library();
    write(
        t.path(),
        "ci/skill-audit.toml",
        "profiles = [\"missing.json\"]\n",
    );
    let out = bin(t.path())
        .args(["--config", "ci/skill-audit.toml", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "skill-audit: error: ci/skill-audit.toml:1:13: profile `missing.json`: cannot read profile (ci/missing.json): No such file or directory (os error 2)\n"
    );
    // `--profile` replaces the file's profiles, which are then not looked at.
    let t = library();
    write(
        t.path(),
        "skill-audit.toml",
        "profiles = [\"builtin:nosuch\"]\n",
    );
    bin(t.path())
        .args(["-p", "profiles/prod.json", "--fail-on", "never", "."])
        .assert()
        .code(0);
    // A file that opens but is no profile is reported in its own terms, at its own line.
    let t = library();
    write(t.path(), "profiles/bad.json", "{\n  \"name\": 3\n}\n");
    write(
        t.path(),
        "skill-audit.toml",
        "profiles = [\"profiles/bad.json\"]\n",
    );
    let err = stderr_of(bin(t.path()).arg("."), 2);
    assert!(
        err.starts_with("skill-audit: error: profiles/bad.json:2:"),
        "{err}"
    );
}

#[test]
fn a_rule_set_twice_in_rules_by_id_and_name_is_an_error() {
    for (settings, says) in [
        (
            "[rules]\nSA220 = \"error\"\nhost-specific-key = \"off\"\n",
            "skill-audit.toml:3:1: [rules] sets SA220 (host-specific-key) twice: as `SA220` on line 2 and as `host-specific-key` on line 3; keep one",
        ),
        (
            "[rules]\nhost-specific-key = \"off\"\nSA220 = \"error\"\n",
            "skill-audit.toml:3:1: [rules] sets SA220 (host-specific-key) twice: as `host-specific-key` on line 2 and as `SA220` on line 3; keep one",
        ),
        // The same severity twice too: one of the keys is redundant.
        (
            "[rules]\nSA220 = \"off\"\n# why\nhost-specific-key = \"off\"\n",
            "skill-audit.toml:4:1: [rules] sets SA220 (host-specific-key) twice: as `SA220` on line 2 and as `host-specific-key` on line 4; keep one",
        ),
    ] {
        assert_eq!(settings_error(settings, &[]), says);
    }
}

/// Settings that make the unknown key `colour` an error (it is a warning by default).
const RAISE: &str = "[rules]\n\"unknown-key\" = \"error\"\n";
/// Settings that turn the unknown-key rule off.
const OFF: &str = "[rules]\nSA221 = \"off\"\n";

/// The severity of the unknown key `colour` of [`library`]'s skill (SA221, line 4), if reported.
fn colour(r: &Value) -> Option<String> {
    rules_of(r)
        .into_iter()
        .find(|(rule, _, line)| rule == "SA221" && *line == 4)
        .map(|(_, severity, _)| severity)
}

/// The severity of `colour` when `args` are audited from `cwd`.
fn colour_in(cwd: &std::path::Path, args: &[&str]) -> Option<String> {
    let (r, _) = json_run(cwd, args);
    colour(&r)
}

/// A repository (a `.git` folder) with [`library`] in `lib/`.
fn repository() -> TempDir {
    let t = TempDir::new().unwrap();
    std::fs::create_dir(t.path().join(".git")).unwrap();
    library_in(&t.path().join("lib"));
    t
}

/// `path` as an argument.
fn arg(path: &std::path::Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn the_nearest_config_in_the_audited_folder_or_above_it_up_to_the_repository_root_applies() {
    let t = repository();
    // Run elsewhere, so only the search from PATH can find the file.
    let away = TempDir::new().unwrap();
    let (lib, skills) = (t.path().join("lib"), t.path().join("lib/skills"));
    let skill = t.path().join("lib/skills/a/SKILL.md");
    assert_eq!(
        colour_in(away.path(), &[arg(&lib)]).as_deref(),
        Some("warning")
    );
    write(t.path(), "skill-audit.toml", RAISE);
    for (path, above) in [
        (&lib, "one"),
        (&skills, "two"),
        (&skill, "three, from a file"),
    ] {
        assert_eq!(
            colour_in(away.path(), &[arg(path)]).as_deref(),
            Some("error"),
            "the repository root's file, {above} level(s) above"
        );
    }
    // The nearest file wins: one in the folder audited, or between it and the repository root.
    write(&lib, "skill-audit.toml", OFF);
    assert_eq!(colour_in(away.path(), &[arg(&lib)]), None, "in the root");
    assert_eq!(colour_in(away.path(), &[arg(&skills)]), None, "one above");
    write(&skills, "skill-audit.toml", RAISE);
    assert_eq!(
        colour_in(away.path(), &[arg(&skills)]).as_deref(),
        Some("error"),
        "in the root, before the one above"
    );
    // Only the first PATH is searched from.
    assert_eq!(
        colour_in(away.path(), &[arg(&lib), arg(&skills)]),
        None,
        "lib's file, for both roots"
    );
}

#[test]
fn a_config_above_the_repository_root_or_outside_any_repository_is_not_used() {
    let t = TempDir::new().unwrap();
    let away = TempDir::new().unwrap();
    write(t.path(), "skill-audit.toml", RAISE);
    // A `.git` file (a submodule or a linked work tree) marks a repository root too.
    write(t.path(), "repo/.git", "gitdir: ../elsewhere\n");
    let repo = t.path().join("repo");
    library_in(&repo.join("lib"));
    let lib = repo.join("lib");
    assert_eq!(
        colour_in(away.path(), &[arg(&lib)]).as_deref(),
        Some("warning"),
        "the parent folder of the repository is not searched"
    );
    write(&repo, "skill-audit.toml", RAISE);
    assert_eq!(
        colour_in(away.path(), &[arg(&lib)]).as_deref(),
        Some("error"),
        "the repository root is"
    );
    // Outside any repository, a folder above PATH is searched only up to the current folder.
    let u = TempDir::new().unwrap();
    library_in(&u.path().join("lib"));
    write(u.path(), "skill-audit.toml", RAISE);
    let lib = u.path().join("lib");
    assert_eq!(
        colour_in(away.path(), &[arg(&lib)]).as_deref(),
        Some("warning"),
        "no repository, and PATH is not in the current folder"
    );
    assert_eq!(
        colour_in(u.path(), &["lib/skills"]).as_deref(),
        Some("error"),
        "from the current folder, which holds PATH"
    );
}

#[test]
fn without_a_config_up_to_the_repository_root_the_current_folders_is_used() {
    let t = repository();
    let here = TempDir::new().unwrap();
    write(here.path(), "skill-audit.toml", RAISE);
    let lib = t.path().join("lib");
    assert_eq!(
        colour_in(here.path(), &[arg(&lib)]).as_deref(),
        Some("error")
    );
    // One found from PATH wins over the current folder's.
    write(t.path(), "skill-audit.toml", OFF);
    assert_eq!(colour_in(here.path(), &[arg(&lib)]), None);
}

#[test]
fn an_explicit_config_wins_over_the_one_found() {
    let t = repository();
    let here = TempDir::new().unwrap();
    write(t.path(), "skill-audit.toml", OFF);
    write(t.path(), "lib/skill-audit.toml", OFF);
    write(here.path(), "skill-audit.toml", OFF);
    write(here.path(), "ci.toml", RAISE);
    let lib = t.path().join("lib");
    assert_eq!(
        colour_in(here.path(), &["--config", "ci.toml", arg(&lib)]).as_deref(),
        Some("error")
    );
}

/// The example of issue #19: `skill-audit skills` run in a library's root uses the
/// `skill-audit.toml` beside `skills/`, and its relative paths are relative to it.
#[test]
fn skills_run_from_the_library_root_uses_the_config_beside_it() {
    let t = tree(&[
        ("skills/a/SKILL.md", &skill_md("a", "colour: red\n")),
        ("skills/drafts/b/SKILL.md", "not even frontmatter"),
        ("skills/x.agent.md", "---\ndescription: x\n---\n"),
        ("profiles/prod.json", r#"{"name": "prod", "tools": []}"#),
        (
            "skill-audit.toml",
            "profiles = [\"profiles/prod.json\"]\nexclude = [\"skills/drafts\"]\n[rules]\n\"unknown-key\" = \"error\"\n[[links]]\nagent = \"skills/x.agent.md\"\nskills = [\"a\"]\n",
        ),
    ]);
    let (r, code) = json_run(t.path(), &["skills"]);
    assert_eq!(code, 1, "the unknown key is an error: {r}");
    assert_eq!(
        rules_for(&r, "skills/a/SKILL.md"),
        ["SA221"],
        "[rules] applies"
    );
    assert_eq!(
        r["profiles"][0]["name"], "prod",
        "profiles from the file's folder"
    );
    let skills: Vec<&str> = arr(&r, "skills").iter().map(|x| s(x, "path")).collect();
    assert_eq!(
        skills,
        ["skills/a/SKILL.md"],
        "exclude from the file's folder"
    );
    assert_eq!(
        r["links"][0]["via"], "config",
        "links from the file's folder"
    );
    assert_eq!(r["links"][0]["agent"], "skills/x.agent.md");
    // -v says which file was used; without one, that there is none.
    let out = bin(t.path()).args(["-v", "skills"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("skill-audit: settings from skill-audit.toml\n"),
        "{err}"
    );
    std::fs::remove_file(t.path().join("skill-audit.toml")).unwrap();
    let out = bin(t.path()).args(["-v", "skills"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("skill-audit: no settings file"), "{err}");
}

#[test]
fn explain_finds_the_config_as_the_audit_does() {
    let t = repository();
    let away = TempDir::new().unwrap();
    write(t.path(), "skill-audit.toml", RAISE);
    let lib = t.path().join("lib");
    let skill = t.path().join("lib/skills/a");
    let out = bin(away.path())
        .args(["explain", arg(&skill), "--root", arg(&lib)])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains(": error[SA221]"), "{text}");
    // --config wins there too.
    write(away.path(), "off.toml", OFF);
    let out = bin(away.path())
        .args([
            "explain",
            arg(&skill),
            "--root",
            arg(&lib),
            "--config",
            "off.toml",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("SA221"), "{text}");
}

/// Without `--root`, a path outside the current folder is explained within its repository,
/// whose settings apply; outside any repository, within the folder around its skill. The
/// current folder, which does not hold it, is not audited.
#[test]
fn explain_without_a_root_audits_the_library_around_the_path() {
    let t = repository();
    let away = TempDir::new().unwrap();
    write(t.path(), "skill-audit.toml", RAISE);
    for path in ["lib/skills/a", "lib/skills/a/SKILL.md"] {
        let out = bin(away.path())
            .args(["explain", arg(&t.path().join(path))])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{path}: {out:?}");
        assert!(text.starts_with("skill `a` ("), "{path}: {text}");
        assert!(text.contains(": error[SA221]"), "{path}: {text}");
    }
    let bare = TempDir::new().unwrap();
    library_in(bare.path());
    let out = bin(away.path())
        .args(["explain", arg(&bare.path().join("agents/x.agent.md"))])
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("agent "));
    // A file that is neither says so and names the option.
    write(bare.path(), "notes.md", "# notes\n");
    let out = bin(away.path())
        .args(["explain", arg(&bare.path().join("notes.md"))])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("`--root`"),
        "{out:?}"
    );
}

/// The folders above a root are found by name: a symlinked root takes the settings of the
/// repository its link is in, not those beside its target.
#[cfg(unix)]
#[test]
fn a_symlinked_root_takes_the_settings_of_where_its_link_is() {
    let t = TempDir::new().unwrap();
    let away = TempDir::new().unwrap();
    library_in(&t.path().join("shared/lib"));
    write(t.path(), "shared/skill-audit.toml", OFF);
    std::fs::create_dir_all(t.path().join("repo/.git")).unwrap();
    write(t.path(), "repo/skill-audit.toml", RAISE);
    std::os::unix::fs::symlink(t.path().join("shared/lib"), t.path().join("repo/lib")).unwrap();
    let lib = t.path().join("repo/lib");
    assert_eq!(
        colour_in(away.path(), &[arg(&lib)]).as_deref(),
        Some("error")
    );
}

/// A settings file found in the tree is read only if its real path stays in the folders
/// searched: a symlink out of them is an error, unless named with --config or --follow-outside.
#[cfg(unix)]
#[test]
fn a_found_config_that_leads_outside_the_tree_is_refused() {
    let t = repository();
    let outside = TempDir::new().unwrap();
    write(outside.path(), "secret.toml", RAISE);
    std::os::unix::fs::symlink(
        outside.path().join("secret.toml"),
        t.path().join("skill-audit.toml"),
    )
    .unwrap();
    let err = stderr_of(bin(t.path()).arg("lib"), 2);
    assert!(
        err.contains("skill-audit.toml: its real path leads outside") && err.contains("--config"),
        "{err}"
    );
    assert_eq!(
        colour_in(t.path(), &["--follow-outside", "lib"]).as_deref(),
        Some("error")
    );
    assert_eq!(
        colour_in(t.path(), &["--config", "skill-audit.toml", "lib"]).as_deref(),
        Some("error")
    );
    // A link that stays in the repository is fine.
    write(t.path(), "config/sa.toml", RAISE);
    std::fs::remove_file(t.path().join("skill-audit.toml")).unwrap();
    std::os::unix::fs::symlink("config/sa.toml", t.path().join("skill-audit.toml")).unwrap();
    assert_eq!(colour_in(t.path(), &["lib"]).as_deref(), Some("error"));
}

/// A settings file that is a FIFO would block the read for ever, and one that is a folder
/// would be passed by for a parent's: either is an error naming it.
#[cfg(unix)]
#[test]
fn a_found_config_that_is_no_regular_file_is_an_error() {
    let t = repository();
    let made = std::process::Command::new("mkfifo")
        .arg(t.path().join("skill-audit.toml"))
        .status()
        .unwrap();
    assert!(made.success());
    let err = stderr_of(
        bin(t.path())
            .arg("lib")
            .timeout(std::time::Duration::from_secs(30)),
        2,
    );
    assert!(
        err.contains("skill-audit.toml: not a regular file"),
        "{err}"
    );
}

#[test]
fn init_writes_a_starter_and_refuses_to_overwrite() {
    let t = TempDir::new().unwrap();
    bin(t.path()).arg("init").assert().success();
    let text = std::fs::read_to_string(t.path().join("skill-audit.toml")).unwrap();
    assert!(text.contains("[rules]") && text.contains("# profiles"));
    bin(t.path()).arg(".").assert().success(); // the starter file is valid
    bin(t.path()).arg("init").assert().code(2);
    assert_eq!(
        std::fs::read_to_string(t.path().join("skill-audit.toml")).unwrap(),
        text
    );
}

#[test]
fn suppressions_silence_their_line_and_unused_ones_are_reported() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "skills/a/SKILL.md",
        "---\n# skill-audit: ignore SA108\nname: a\ndescription: Does a.\ncolour: red  # skill-audit: ignore SA221\n# skill-audit: ignore unknown-key, SA220\nflavour: x\nshade: y  # skill-audit: ignore SA230\n# skill-audit: ignore SA2211\n---\n",
    );
    let (r, _) = json_run(t.path(), &["."]);
    let f = rules_of(&r);
    let on = |rule: &str, line: u64| f.iter().any(|(r, _, l)| r == rule && *l == line);
    assert!(!on("SA221", 5), "trailing comment silences its line: {f:?}");
    assert!(
        !on("SA221", 7),
        "standalone comment silences the next line: {f:?}"
    );
    assert!(
        on("SA221", 8),
        "a suppression for another rule does not: {f:?}"
    );
    assert!(on("SA901", 6), "SA220 silenced nothing on line 7: {f:?}");
    assert!(on("SA901", 8), "SA230 silenced nothing: {f:?}");
    assert!(
        on("SA901", 2),
        "SA108: the file is named SKILL.md, nothing to silence: {f:?}"
    );
    assert!(on("SA902", 9), "unknown rule ID: {f:?}");
    // The first-line form covers findings about the whole file (line 1).
    write(
        t.path(),
        "skills/b/skill.md",
        "---\n# skill-audit: ignore SA108\nname: b\ndescription: d\n---\n",
    );
    let (r, _) = json_run(t.path(), &["."]);
    let f: Vec<_> = rules_of(&r);
    assert!(
        !r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|x| x["path"] == "skills/b/skill.md"),
        "{f:?}"
    );
    // [rules] can turn the unused-suppression rule itself off.
    write(t.path(), "skill-audit.toml", "[rules]\nSA901 = \"off\"\n");
    let (r, _) = json_run(t.path(), &["."]);
    assert!(!rules_of(&r).iter().any(|(r, ..)| r == "SA901"));
}

#[test]
fn suppressions_reach_library_level_findings() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "skills/a/SKILL.md",
        "---\nname: a\ndescription: Does a.\n# skill-audit: ignore SA402\ndependencies:\n  tools: [get_order]\n---\n",
    );
    write(t.path(), "p.json", r#"{"name": "p", "tools": []}"#);
    let (r, _) = json_run(t.path(), &["-p", "p.json", "."]);
    assert!(rules_of(&r).is_empty(), "{:?}", rules_of(&r));
    assert_eq!(
        r["skills"][0]["availability"]["p"]["status"], "unavailable",
        "the matrix is unchanged"
    );
}

#[test]
fn a_links_entry_that_names_nothing_is_shown_at_its_name_in_the_settings_file() {
    let t = TempDir::new().unwrap();
    write(t.path(), "lib/skills/a/SKILL.md", skill_md("a", ""));
    write(
        t.path(),
        "lib/skill-audit.toml",
        "# links\n\n[[links]]\nagent = \"agents/nope.agent.md\"\nskills = [\"a\"]\n\n[[links]]\nagent = \"agents/x.agent.md\"\nskills = [\"a\", \"nope\"]\n",
    );
    write(
        t.path(),
        "lib/agents/x.agent.md",
        "---\ndescription: d\n---\n",
    );
    // Run from above the library: the settings file is shown as every other path is.
    let (r, _) = json_run(t.path(), &["lib", "--fail-on", "never"]);
    let places: Vec<(String, u64, u64)> = findings(&r, "SA606")
        .iter()
        .map(|f| {
            let at = |k: &str| f[k].as_u64().unwrap();
            (
                f["path"].as_str().unwrap().to_owned(),
                at("line"),
                at("column"),
            )
        })
        .collect();
    assert_eq!(
        places,
        [
            ("lib/skill-audit.toml".to_owned(), 4, 9),
            ("lib/skill-audit.toml".to_owned(), 9, 16),
        ],
        "{:#}",
        r["findings"]
    );
}
