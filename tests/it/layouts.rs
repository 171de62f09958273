//! Layouts and conventions of real libraries: plugin manifests in each format's own folder,
//! marketplace entries with remote sources, skills namespaced by plugins, OpenCode's and
//! OpenClaw's keys, and paths a body names outside Markdown links. Each test runs the binary
//! on a small library in a temporary folder.

use crate::common::*;

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;

/// Audit `root` with the binary, in `root`: the JSON report.
fn audit(root: &Path) -> Value {
    json_run(root, &["--fail-on", "never", "."]).0
}

/// `(rule, path, line, message)` of every finding of `rule`.
fn findings(r: &Value, rule: &str) -> Vec<(String, u64, String)> {
    arr(r, "findings")
        .iter()
        .filter(|f| s(f, "rule") == rule)
        .map(|f| {
            (
                s(f, "path").to_owned(),
                f["line"].as_u64().unwrap_or(0),
                s(f, "message").to_owned(),
            )
        })
        .collect()
}

#[test]
fn folder_manifests_resolve_from_the_plugin_root() {
    let mut files = Vec::new();
    let formats = [
        ("claude", ".claude-plugin"),
        ("codex", ".codex-plugin"),
        ("cursor", ".cursor-plugin"),
        ("open", ".plugin"),
    ];
    let manifests: Vec<(String, String)> = formats
        .iter()
        .map(|(name, folder)| {
            (
                format!("{name}/{folder}/plugin.json"),
                format!(
                    r#"{{"name": "{name}", "agents": ["./agents/a.agent.md"], "skills": "./skills/"}}"#
                ),
            )
        })
        .collect();
    let agents: Vec<(String, String)> = formats
        .iter()
        .map(|(name, _)| {
            (
                format!("{name}/agents/a.agent.md"),
                "---\ndescription: An agent.\n---\nbody\n".to_owned(),
            )
        })
        .collect();
    let skills: Vec<(String, String)> = formats
        .iter()
        .map(|(name, _)| {
            (
                format!("{name}/skills/{name}-x/SKILL.md"),
                skill_md(&format!("{name}-x"), ""),
            )
        })
        .collect();
    for (p, c) in manifests.iter().chain(&agents).chain(&skills) {
        files.push((p.as_str(), c.as_str()));
    }
    let lib = tree(&files);
    let r = audit(lib.path());
    assert_eq!(findings(&r, "SA602"), [], "{:#}", r["findings"]);
    let expected: BTreeSet<_> = [
        ("claude", "claude-plugin"),
        ("codex", "codex-plugin"),
        ("cursor", "cursor-plugin"),
        ("open", "open-plugin"),
    ]
    .iter()
    .map(|(name, label)| {
        (
            format!("{name}/agents/a.agent.md"),
            format!("{name}/skills/{name}-x/SKILL.md"),
            format!("{label}:{name}"),
        )
    })
    .collect();
    assert_eq!(links(&r), expected);
}

#[test]
fn remote_marketplace_entries_are_noted_not_resolved() {
    let marketplace = r#"{
  "name": "m",
  "plugins": [
    {"name": "here", "source": "./plugins/here", "skills": ["./skills/k"]},
    {"name": "gh", "source": {"source": "github", "repo": "o/gh", "ref": "v1"}, "skills": ["./skills/gone"]},
    {"name": "sub", "source": {"source": "git-subdir", "url": "https://x.test/r.git", "path": "p"}},
    {"name": "pkg", "source": {"source": "npm", "package": "@o/pkg"}},
    {"name": "web", "source": "https://x.test/plugin.git"},
    {"name": "codex", "source": {"source": "local", "path": "./plugins/codex"}, "skills": ["./skills/c"]}
  ]
}
"#;
    let lib = tree(&[
        (".github/plugin/marketplace.json", marketplace),
        ("plugins/here/skills/k/SKILL.md", &skill_md("k", "")),
        ("plugins/codex/skills/c/SKILL.md", &skill_md("c", "")),
    ]);
    let r = audit(lib.path());
    assert_eq!(findings(&r, "SA602"), [], "{:#}", r["findings"]);
    let path = ".github/plugin/marketplace.json";
    let noted: Vec<(u64, String)> = findings(&r, "SA607")
        .into_iter()
        .map(|(p, line, m)| {
            assert_eq!(p, path);
            (line, m)
        })
        .collect();
    let line = |n: &str| marketplace.lines().position(|l| l.contains(n)).unwrap() as u64 + 1;
    assert_eq!(
        noted,
        [
            (
                line("\"gh\""),
                "plugin `gh` comes from github `o/gh` at `v1`, outside this tree; it is not audited locally: audit a checkout of that source on its own".to_owned()
            ),
            (
                line("\"sub\""),
                "plugin `sub` comes from git-subdir `https://x.test/r.git`, folder `p`, outside this tree; it is not audited locally: audit a checkout of that source on its own".to_owned()
            ),
            (
                line("\"pkg\""),
                "plugin `pkg` comes from npm `@o/pkg`, outside this tree; it is not audited locally: audit a checkout of that source on its own".to_owned()
            ),
            (
                line("\"web\""),
                "plugin `web` comes from url `https://x.test/plugin.git`, outside this tree; it is not audited locally: audit a checkout of that source on its own".to_owned()
            ),
        ]
    );
    // The same entries in a Claude marketplace, one level below the root.
    let lib = tree(&[
        (".claude-plugin/marketplace.json", marketplace),
        ("plugins/here/skills/k/SKILL.md", &skill_md("k", "")),
        ("plugins/codex/skills/c/SKILL.md", &skill_md("c", "")),
    ]);
    let r = audit(lib.path());
    assert_eq!(findings(&r, "SA602"), []);
    assert_eq!(findings(&r, "SA607").len(), 4);
}

#[test]
fn plugins_namespace_their_skills() {
    // Each file its own text: copies of one file are not duplicates (SA401).
    let named = |name: &str, title: &str| {
        format!("---\nname: {name}\ndescription: Does things. Use when asked.\n---\n# {title}\n")
    };
    let lib = tree(&[
        // Two plugins, each with its `access`: `/discord:access` and `/slack:access`.
        (
            "discord/.claude-plugin/plugin.json",
            r#"{"name": "discord"}"#,
        ),
        ("discord/skills/access/SKILL.md", &named("access", "1")),
        ("slack/.codex-plugin/plugin.json", r#"{"name": "slack"}"#),
        ("slack/skills/access/SKILL.md", &named("access", "2")),
        // Within one plugin, a true duplicate.
        ("slack/skills/access-v2/SKILL.md", &named("access", "3")),
        // Skills two plugins list from a folder outside them are still loaded together from
        // that folder.
        (
            "plugins/a/plugin.json",
            r#"{"name": "a", "skills": ["./skills/one"]}"#,
        ),
        (
            "plugins/b/plugin.json",
            r#"{"name": "b", "skills": ["./skills/two"]}"#,
        ),
        ("skills/one/SKILL.md", &named("shared", "4")),
        ("skills/two/SKILL.md", &named("shared", "5")),
        // Outside plugins, skills are loaded together.
        (".github/skills/pdf/SKILL.md", &named("pdf", "6")),
        (".claude/skills/pdf/SKILL.md", &named("pdf", "7")),
    ]);
    let r = audit(lib.path());
    let got: BTreeSet<(String, String)> = findings(&r, "SA401")
        .into_iter()
        .map(|(p, _, m)| (p, m))
        .collect();
    let expected: BTreeSet<(String, String)> = [
        (
            "slack/skills/access/SKILL.md",
            "skill name `access` is also used by `slack/skills/access-v2/SKILL.md` in plugin `slack`; hosts load only one of them, rename one",
        ),
        (
            "slack/skills/access-v2/SKILL.md",
            "skill name `access` is also used by `slack/skills/access/SKILL.md` in plugin `slack`; hosts load only one of them, rename one",
        ),
        (
            "skills/one/SKILL.md",
            "skill name `shared` is also used by `skills/two/SKILL.md` outside any plugin; hosts load only one of them, rename one",
        ),
        (
            "skills/two/SKILL.md",
            "skill name `shared` is also used by `skills/one/SKILL.md` outside any plugin; hosts load only one of them, rename one",
        ),
        (
            ".github/skills/pdf/SKILL.md",
            "skill name `pdf` is also used by `.claude/skills/pdf/SKILL.md` outside any plugin; hosts load only one of them, rename one",
        ),
        (
            ".claude/skills/pdf/SKILL.md",
            "skill name `pdf` is also used by `.github/skills/pdf/SKILL.md` outside any plugin; hosts load only one of them, rename one",
        ),
    ]
    .iter()
    .map(|(p, m)| ((*p).to_owned(), (*m).to_owned()))
    .collect();
    assert_eq!(got, expected);
}

#[test]
fn opencode_mode_is_named_as_such() {
    let agent = |mode: &str| format!("---\ndescription: An agent.\nmode: {mode}\n---\nbody\n");
    let lib = tree(&[
        ("agents/worker.agent.md", &agent("subagent")),
        ("agents/old.agent.md", &agent("agent")),
    ]);
    let r = audit(lib.path());
    assert_eq!(
        findings(&r, "SA509"),
        [(
            "agents/worker.agent.md".to_owned(),
            3,
            "`mode: subagent` is OpenCode's key (`primary`, `subagent` or `all`); GitHub Copilot and VS Code ignore it: remove it unless the file also serves OpenCode".to_owned()
        )]
    );
    let retired = findings(&r, "SA503");
    assert_eq!(retired.len(), 1);
    assert_eq!(retired[0].0, "agents/old.agent.md");
    let severity = arr(&r, "findings")
        .iter()
        .find(|f| s(f, "rule") == "SA509")
        .map(|f| s(f, "severity").to_owned());
    assert_eq!(severity.as_deref(), Some("info"));
}

#[test]
fn openclaw_conventions_are_recognised() {
    let skill = "---\nname: weather\ndescription: Gets the weather. Use when asked.\nhomepage: https://x.test\nversion: 1.0.0\nuser-invocable: true\ncommand-dispatch: tool\ncommand-tool: exec\ncommand-arg-mode: raw\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"curl\"]}}, \"tags\": [a, b]}\n---\n# Weather\n";
    let lib = tree(&[("weather/SKILL.md", skill)]);
    let r = audit(lib.path());
    assert_eq!(findings(&r, "SA221"), [], "{:#}", r["findings"]);
    let host: Vec<String> = findings(&r, "SA220").into_iter().map(|f| f.2).collect();
    for key in [
        "homepage",
        "command-dispatch",
        "command-tool",
        "command-arg-mode",
    ] {
        assert!(
            host.contains(&format!("`{key}` is supported by OpenClaw; not in the Agent Skills spec, so strict validators reject it")),
            "{key}: {host:?}"
        );
    }
    assert!(
        host.iter()
            .any(|m| m.starts_with("`version` is supported by OpenClaw (ClawHub registry)"))
    );
    assert!(
        host.iter()
            .any(|m| m
                .starts_with("`user-invocable` is supported by Claude Code, VS Code, OpenClaw"))
    );
    let metadata: Vec<String> = findings(&r, "SA215").into_iter().map(|f| f.2).collect();
    assert_eq!(metadata.len(), 1, "{metadata:?}");
    assert!(metadata[0].starts_with("`metadata.tags` must be a string, found a list"));
    // OpenClaw's own block is a note (info) to keep it, not the warning.
    let block: Vec<String> = findings(&r, "SA223").into_iter().map(|f| f.2).collect();
    assert_eq!(block.len(), 1, "{block:?}");
    assert!(block[0].starts_with(
        "`metadata.openclaw` is a mapping, OpenClaw's own block: OpenClaw reads it (and so does skill-audit), so keep it"
    ));
    // With hosts configured without OpenClaw, its keys are ignored like any unknown key.
    write(lib.path(), "skill-audit.toml", "hosts = [\"vscode\"]\n");
    let r = audit(lib.path());
    let unknown: Vec<String> = findings(&r, "SA221").into_iter().map(|f| f.2).collect();
    assert!(unknown.contains(&"`homepage` is only read by OpenClaw, which is not among the configured `hosts`; it is ignored".to_owned()), "{unknown:?}");
    write(lib.path(), "skill-audit.toml", "hosts = [\"openclaw\"]\n");
    let r = audit(lib.path());
    assert_eq!(findings(&r, "SA221"), [], "{:#}", r["findings"]);
}

#[test]
fn hermes_keys_are_a_hosts_not_unknown() {
    // The top-level keys Hermes' skill loader reads; `author` is nobody's.
    let keys = [
        "tags: [a, b]",
        "related_skills: [x]",
        "platforms: [linux]",
        "environments: [docker]",
        "prerequisites: {commands: [curl]}",
        "required_environment_variables: [TOKEN]",
        "required_credential_files: [creds.json]",
        "deps: [ffmpeg]",
        "author: me",
    ];
    let skill = skill_md("h", &(keys.join("\n") + "\n")) + "Uses curl with $TOKEN and ffmpeg.\n";
    let lib = tree(&[("h/SKILL.md", &skill)]);
    let r = audit(lib.path());
    let unknown: Vec<String> = findings(&r, "SA221").into_iter().map(|f| f.2).collect();
    assert_eq!(
        unknown,
        [
            "`author` is not a field of the spec or of any host: hosts ignore it, and strict validators and uploads (skills-ref, claude.ai) reject the skill; remove it, or move it under `metadata`, the spec's place for other fields"
        ],
        "{:#}",
        r["findings"]
    );
    let host: Vec<String> = findings(&r, "SA220").into_iter().map(|f| f.2).collect();
    assert_eq!(host.len(), 8, "{host:?}");
    assert!(
        host.iter().all(|m| m.contains("is supported by Hermes")),
        "{host:?}"
    );
    // With hosts configured without Hermes, they are ignored like any unknown key.
    write(lib.path(), "skill-audit.toml", "hosts = [\"vscode\"]\n");
    assert_eq!(findings(&audit(lib.path()), "SA221").len(), 9);
    write(lib.path(), "skill-audit.toml", "hosts = [\"hermes\"]\n");
    assert_eq!(findings(&audit(lib.path()), "SA221").len(), 1);
}

/// Files the walk does not list (hidden by ignore rules) and paths it would spell otherwise
/// (`./`, `..`) are looked up on disk: what exists is never reported as missing.
#[test]
fn ignored_and_respelled_paths_are_looked_up() {
    let body = "# Guide\n\nRead `references/private.md` and [it](references/private.md).\nThen `references/./guide.md`, [this](scripts/../references/guide.md) and `references/gone.md`.\n";
    let skill = format!("---\nname: k\ndescription: Does k things. Use when asked.\n---\n{body}");
    let lib = tree(&[
        ("k/SKILL.md", &skill),
        ("k/.gitignore", "private.md\n"),
        ("k/references/private.md", "# p\n"),
        ("k/references/guide.md", "# g\n"),
        ("k/scripts/run.sh", ""),
    ]);
    let r = audit(lib.path());
    let messages = |rule| -> Vec<String> { findings(&r, rule).into_iter().map(|f| f.2).collect() };
    assert_eq!(messages("SA231"), Vec::<String>::new());
    assert_eq!(
        messages("SA232"),
        [
            "`references/gone.md` (named in code) does not exist relative to this skill; fix the path or add the file"
        ]
    );
}

#[test]
fn paths_named_outside_links_are_checked() {
    let body = "# Guide\n\nRead `references/guide.md`, then run scripts/Run.sh.\nSee `references/missing.md` and `assets/logo.png` and `src/main.rs`.\nCopy `references/config.example.json` to `references/config.json`.\nUse `references/filename.md` for each topic.\n\n```sh\npython scripts/example.py\n```\n\nA [link](References/guide.md).\n";
    let skill = format!("---\nname: k\ndescription: Does k things. Use when asked.\n---\n{body}");
    let lib = tree(&[
        ("k/SKILL.md", &skill),
        ("k/references/guide.md", "# g\n"),
        ("k/references/config.example.json", "{}\n"),
        ("k/scripts/run.sh", ""),
    ]);
    let r = audit(lib.path());
    let refs: Vec<(u64, String)> = findings(&r, "SA232")
        .into_iter()
        .map(|(_, line, m)| (line, m))
        .collect();
    assert_eq!(
        refs,
        [
            (
                7,
                "`scripts/Run.sh` (named in the text) does not exist relative to this skill; did you mean `scripts/run.sh`? (names are case-sensitive on most hosts)".to_owned()
            ),
            (
                8,
                "`references/missing.md` (named in code) does not exist relative to this skill; fix the path or add the file".to_owned()
            ),
        ]
    );
    assert_eq!(
        findings(&r, "SA231"),
        [(
            "k/SKILL.md".to_owned(),
            16,
            "`References/guide.md` does not exist relative to this skill; did you mean `references/guide.md`? (names are case-sensitive on most hosts)".to_owned()
        )]
    );
}

/// A path into a folder the skill lacks is the skill's file when the model is told to take it
/// up or it is listed as one of the skill's resources; not when it is an example or the body
/// makes the folder the user's.
#[test]
fn text_paths_into_missing_folders_are_judged_by_their_words() {
    let body = "# Guide\n\n\
- If detailed examples are required, open `resources/implementation-playbook.md`.\n\
- Read `conductor/product.md` for product context.\n\
- Create `conductor/tracks.md` when there is none.\n\
- Save as `data/my_dataset.json`.\n\
- Write helpers, e.g. `helpers/api.md`.\n\
- See `references/guide.md` and `assets/logo.png` together.\n\
- Edit `src/app.ts` to wire it in.\n\
\n## Reference Files\n\n\
- `templates/report.xlsx` - the report template\n\
- **assets/harness.py**: the evaluation harness\n";
    let skill = format!("---\nname: k\ndescription: Does k things. Use when asked.\n---\n{body}");
    let lib = tree(&[("k/SKILL.md", &skill), ("k/references/guide.md", "# g\n")]);
    let r = audit(lib.path());
    let targets: Vec<(u64, String)> = findings(&r, "SA232")
        .into_iter()
        .map(|(_, line, m)| (line, m.split('`').nth(1).unwrap_or("").to_owned()))
        .collect();
    assert_eq!(
        targets,
        [
            (7, "resources/implementation-playbook.md".to_owned()),
            (17, "templates/report.xlsx".to_owned()),
            (18, "assets/harness.py".to_owned()),
        ],
        "{:#}",
        r["findings"]
    );
}

/// A linked skill folder whose real path leaves the audited tree is reported where the link
/// is: the walk does not follow it, hosts do. A link that stays inside, one outside a
/// `skills` folder and one to a file are not.
#[test]
fn a_linked_skill_folder_leading_out_of_the_tree_is_reported() {
    use std::os::unix::fs::symlink;
    let t = tree(&[
        ("outside/pdf/SKILL.md", &skill_md("pdf", "")),
        ("lib/skills/own/SKILL.md", &skill_md("own", "")),
        ("lib/docs/readme.md", "# docs\n"),
    ]);
    let root = t.path();
    symlink("../../outside/pdf", root.join("lib/skills/pdf")).unwrap();
    symlink("own", root.join("lib/skills/again")).unwrap();
    symlink("../../outside/pdf", root.join("lib/docs/pdf")).unwrap();
    symlink(
        "../../outside/pdf/SKILL.md",
        root.join("lib/skills/notes.md"),
    )
    .unwrap();
    let (r, _) = json_run(root, &["--fail-on", "never", "lib"]);
    let found = crate::common::findings(&r, "SA110");
    let paths: Vec<&str> = found.iter().map(|f| s(f, "path")).collect();
    assert_eq!(paths, ["lib/skills/pdf"]);
    assert!(messages(&r, "SA110")[0].contains("hosts that look for `skills/*/SKILL.md` follow it"));
}
