//! Requirements inferred from what a skill's body and scripts use: each pattern with a case it
//! reads and one it must not, the cells judged on them, and the share of judged cells on the
//! corpus.

use crate::common::*;

use serde_json::Value;

/// The names the skill's `inferred` source lists under `kind`.
fn inferred(r: &Value, path: &str, kind: &str) -> Vec<String> {
    skill(r, path)["requirements"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["source"] == "inferred")
        .flat_map(|d| strings_or_none(&d[kind]["all"]))
        .collect()
}

fn strings_or_none(v: &Value) -> Vec<String> {
    if v.is_null() { Vec::new() } else { strings(v) }
}

/// The use of `name` the inferred source records: its file, line and column.
fn place(r: &Value, path: &str, name: &str) -> (Option<String>, u64, u64) {
    let u = skill(r, path)["requirements"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["source"] == "inferred")
        .flat_map(|d| d["uses"].as_array().unwrap().iter())
        .find(|u| u["name"] == name)
        .unwrap_or_else(|| panic!("no use of {name}"));
    (
        u["file"].as_str().map(str::to_owned),
        u["line"].as_u64().unwrap(),
        u["column"].as_u64().unwrap(),
    )
}

fn status<'a>(r: &'a Value, path: &str, profile: &str) -> &'a Value {
    &skill(r, path)["availability"][profile]
}

#[test]
fn executables_of_shell_blocks_and_their_places() {
    let body = "# Run\n\n```bash\nsudo gh pr list --json number | jq '.[0]'\ncd repo && FOO=1 terraform plan\necho \"$HOME\"\nmy_fn() { :; }\nmy_fn\nfor f in *.txt; do az storage blob upload -f \"$f\"; done\n./scripts/run.py --x\n<command> --help\n```\n";
    let t = tree(&[("skills/s/SKILL.md", &skill_with_body("s", body))]);
    let (r, _) = json_run(t.path(), &["."]);
    let p = "skills/s/SKILL.md";
    // After `sudo`, after a pipe, after an assignment, inside a loop; a skill's own script
    // needs its interpreter. Builtins, functions, base utilities and placeholders are none.
    assert_eq!(
        inferred(&r, p, "bins"),
        ["az", "gh", "jq", "python3", "terraform"]
    );
    assert_eq!(place(&r, p, "gh"), (None, 8, 6));
    assert_eq!(place(&r, p, "jq"), (None, 8, 33));
    // Running commands needs the host's terminal.
    assert_eq!(inferred(&r, p, "tools"), ["Bash"]);
}

#[test]
fn sessions_user_blocks_and_other_languages_are_told_apart() {
    let body = "# Use\n\n```console\n$ docker ps\nCONTAINER ID   IMAGE\nkubectl-output here\n```\n\n## Installation\n\n```bash\nclawhub install weather\n```\n\n## Setup\n\nIn your terminal, run:\n\n```sh\nbrew install jq\n```\n\n```python\nimport subprocess\n```\n\n```text\nnpm start\n```\n";
    let t = tree(&[("skills/s/SKILL.md", &skill_with_body("s", body))]);
    let (r, _) = json_run(t.path(), &["."]);
    // Only the prompted line of the session; not the output, not what the user types in an
    // installation section or "in your terminal", not other languages.
    assert_eq!(inferred(&r, "skills/s/SKILL.md", "bins"), ["docker"]);
}

#[test]
fn powershell_blocks_run_executables_not_cmdlets() {
    let body = "```powershell\n$env:MODE = 'x'\nGet-ChildItem $env:MODE\naz account show --subscription $env:AZURE_SUBSCRIPTION_ID\n& dotnet build\nStart-Process -FilePath winget\nWrite-Host done\n```\n";
    let t = tree(&[("skills/s/SKILL.md", &skill_with_body("s", body))]);
    let (r, _) = json_run(t.path(), &["."]);
    let p = "skills/s/SKILL.md";
    assert_eq!(inferred(&r, p, "bins"), ["az", "dotnet", "winget"]);
    // Set in the block before it is read: not needed from outside.
    assert_eq!(inferred(&r, p, "env"), ["AZURE_SUBSCRIPTION_ID"]);
}

#[test]
fn variables_of_blocks_and_scripts() {
    // `URL` in prose is a word, not the variable; `` `REGION` `` names one.
    let body = "Set `REPORT_NAME` first, and `REGION`. Open the URL it prints.\n\n```bash\nexport LOCAL=1\ncurl -H \"Authorization: Bearer $GITHUB_TOKEN\" \"$API_URL\"\necho \"$LOCAL ${PAGE:-1} $FILE $REPORT_NAME $PATH\"\necho '$QUOTED_KEY'\nopen \"$URL\" --region \"$REGION\"\n```\n";
    let py = "import os\nkey = os.environ[\"OPENAI_API_KEY\"]\nopt = os.getenv(\"VERBOSE\", \"0\")\nos.environ[\"SET_HERE\"] = \"1\"\nx = os.environ.get(\"SET_HERE\")\n# os.getenv(\"IN_A_COMMENT\")\n";
    let js = "const t = process.env.SLACK_TOKEN;\nconst m = process.env.MODE || 'dev';\n// process.env.IN_A_COMMENT\n";
    let t = tree(&[
        ("skills/s/SKILL.md", &skill_with_body("s", body)),
        ("skills/s/scripts/a.py", py),
        ("skills/s/scripts/b.js", js),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    let p = "skills/s/SKILL.md";
    // A block's `$FILE` is a placeholder; `REPORT_NAME` is one the text names; variables with
    // a default, set by the shell or the block, or in single quotes are not needs.
    assert_eq!(
        inferred(&r, p, "env"),
        [
            "API_URL",
            "GITHUB_TOKEN",
            "OPENAI_API_KEY",
            "REGION",
            "REPORT_NAME",
            "SLACK_TOKEN"
        ]
    );
    assert_eq!(
        place(&r, p, "OPENAI_API_KEY"),
        (Some("scripts/a.py".into()), 2, 7)
    );
}

#[test]
fn packages_of_python_and_node_scripts_and_lists() {
    let py = "#!/usr/bin/env python3\nimport os, sys, json\nimport yaml\nfrom PIL import Image\nfrom sklearn.model_selection import train_test_split\nfrom google import genai\nfrom . import sibling\nimport helpers\nimport yt_dlp, typer\nfrom references.func import load\n\"\"\"\nimport not_a_module\n\"\"\"\nsubprocess.run([\"gh\", \"api\", \"user\"])\n";
    let js = "import fs from 'node:fs';\nimport path from 'path';\nimport { z } from '@scope/pkg/sub';\nconst local = require('./local');\nimport chalk from 'chalk';\nconst { execSync } = require('child_process');\nexecSync('docker build .');\n";
    let t = tree(&[
        ("skills/s/SKILL.md", &skill_with_body("s", "# s\n")),
        ("skills/s/scripts/main.py", py),
        ("skills/s/scripts/helpers.py", "X = 1\n"),
        // Not read (a folder of references), but the skill's own module all the same.
        ("skills/s/references/func.py", "import pandas\n"),
        ("skills/s/scripts/tool.mjs", js),
        (
            "skills/s/requirements.txt",
            "requests>=2.31  # http\n-r other.txt\nyt-dlp\ntyper[all]\n",
        ),
        (
            "skills/s/package.json",
            r#"{"dependencies": {"chalk": "^5"}, "devDependencies": {"vitest": "^1"}}"#,
        ),
        ("skills/s/tests/test_main.py", "import pytest\n"),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    let p = "skills/s/SKILL.md";
    // Import names map to distributions; the standard library, the skill's own modules,
    // relative imports, text inside strings and tests are not packages.
    assert_eq!(
        inferred(&r, p, "packages"),
        [
            "Pillow",
            "PyYAML",
            "google-genai",
            "npm:@scope/pkg",
            "npm:chalk",
            "requests>=2.31",
            "scikit-learn",
            "typer[all]",
            "yt-dlp"
        ]
    );
    // The shebang's interpreter and the commands the scripts spawn.
    assert_eq!(inferred(&r, p, "bins"), ["docker", "gh", "python3"]);
    assert_eq!(
        place(&r, p, "PyYAML"),
        (Some("scripts/main.py".into()), 3, 8)
    );
    // An imported package the folder's list names is one need, under the list's spelling.
    assert_eq!(
        place(&r, p, "yt-dlp"),
        (Some("requirements.txt".into()), 3, 1)
    );
    assert_eq!(
        place(&r, p, "npm:chalk"),
        (Some("package.json".into()), 1, 19)
    );
}

#[test]
fn a_command_named_as_the_skills_own_script_needs_its_interpreter() {
    let body = "```bash\nspotify play x\ntwclaw read 1\n```\n";
    let t = tree(&[
        ("skills/s/SKILL.md", &skill_with_body("s", body)),
        ("skills/s/spotify.sh", "#!/bin/bash\nosascript -e 'x'\n"),
        (
            "skills/s/bin/twclaw.js",
            "#!/usr/bin/env node\nconsole.log(1)\n",
        ),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    let p = "skills/s/SKILL.md";
    assert_eq!(inferred(&r, p, "bins"), ["bash", "node", "osascript"]);
    assert_eq!(place(&r, p, "node"), (None, 7, 1));
}

/// A command named after a function one of the skill's shell scripts defines is that
/// function, in the scripts that source it and in the body's blocks that show code to add.
#[test]
fn functions_another_script_defines_are_not_executables() {
    let body = "```bash\nlog_success done\njq . f\n```\n";
    let t = tree(&[
        ("skills/s/SKILL.md", &skill_with_body("s", body)),
        (
            "skills/s/scripts/lib.sh",
            "log_success() { echo \"ok $*\"; }\n",
        ),
        (
            "skills/s/scripts/run.sh",
            "source ./lib.sh\nlog_success start\ncurl -s x\n",
        ),
        ("skills/t/SKILL.md", &skill_with_body("t", body)),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    assert_eq!(inferred(&r, "skills/s/SKILL.md", "bins"), ["curl", "jq"]);
    assert_eq!(
        inferred(&r, "skills/t/SKILL.md", "bins"),
        ["jq", "log_success"],
        "no script of its own defines it"
    );
}

#[test]
fn tools_named_in_a_hosts_syntax() {
    let body = "Call `mcp__github__create_issue`, then #tool:runInTerminal.\nThe Jira MCP server offers `jira/search_issues`; see `docs/guide` and `src/main`.\nUse the `fetch` tool. Use the `frobnicate` tool.\n";
    let t = tree(&[("skills/s/SKILL.md", &skill_with_body("s", body))]);
    let (r, _) = json_run(t.path(), &["."]);
    // `server/tool` only for a server the text names; a tool a phrase names only where a
    // built-in host defines it.
    assert_eq!(
        inferred(&r, "skills/s/SKILL.md", "tools"),
        [
            "fetch",
            "github/create_issue",
            "jira/search_issues",
            "runInTerminal"
        ]
    );
}

/// A tool a skill names in another host's words is judged by that host's own tables of this
/// host's tools: VS Code's `fetch` is Claude Code's `WebFetch` and GitHub Copilot's `web`,
/// GitHub Copilot's `bash` alias Claude Code's `Bash`; a name no host defines is not judged.
#[test]
fn a_tool_named_in_another_hosts_words_is_judged_by_its_counterpart() {
    let body = |words: &str| format!("# s\n\n{words}\n");
    let t = tree(&[
        (
            "skills/fetch/SKILL.md",
            &skill_with_body("fetch", &body("Then #tool:fetch the page.")),
        ),
        (
            "skills/edit/SKILL.md",
            &skill_with_body("edit", &body("Use the `editFiles` tool to write it.")),
        ),
        (
            "skills/bash/SKILL.md",
            &skill_with_body("bash", &body("Use the `bash` tool to run it.")),
        ),
        (
            "skills/other/SKILL.md",
            &skill_with_body("other", &body("Then #tool:frobnicate the page.")),
        ),
        (
            "no-web.json",
            r#"{"name": "no-web", "extends": ["builtin:claude-code"], "deny": ["WebFetch", "WebSearch"]}"#,
        ),
    ]);
    let (r, _) = json_run(
        t.path(),
        &[
            "-p",
            "builtin:claude-code",
            "-p",
            "builtin:github-copilot",
            "-p",
            "no-web.json",
            ".",
        ],
    );
    // GitHub Copilot through Claude Code's names: VS Code's table puts `Edit` on its
    // `editFiles`, GitHub's alias puts it on `edit`.
    for host in ["claude-code", "github-copilot"] {
        for skill in ["fetch", "edit", "bash"] {
            let cell = status(&r, &format!("skills/{skill}/SKILL.md"), host);
            assert_eq!(cell["status"], "available", "{skill} on {host}: {cell}");
        }
    }
    let other = status(&r, "skills/other/SKILL.md", "claude-code");
    assert_eq!(other["status"], "not-judged", "{other}");
    // Where the environment denies the counterparts, the step has no tool.
    let denied = status(&r, "skills/fetch/SKILL.md", "no-web");
    assert_eq!(denied["status"], "unavailable", "{denied}");
}

/// A script that installs or sets up the skill, or tests it, is not what the skill needs,
/// unless the SKILL.md names it (it may tell the agent to run it).
#[test]
fn setup_and_test_scripts_are_read_only_when_the_skill_names_them() {
    let t = tree(&[
        (
            "skills/quiet/SKILL.md",
            &skill_with_body("quiet", "```bash\nnode scripts/render.js\n```\n"),
        ),
        ("skills/quiet/scripts/render.js", "console.log(1)\n"),
        (
            "skills/quiet/scripts/setup.sh",
            "#!/bin/bash\nnpm install\ncurl -sLO https://x/y\n",
        ),
        ("skills/quiet/test.sh", "#!/bin/bash\nclawdbot status\n"),
        // A maintainer's demo and benchmark scripts are not what the skill runs.
        (
            "skills/quiet/demo/record.sh",
            "#!/bin/bash\nffmpeg -i x y\n",
        ),
        ("skills/quiet/benchmarks/run.sh", "#!/bin/bash\ngunzip x\n"),
        (
            "skills/named/SKILL.md",
            &skill_with_body("named", "First run the setup.sh in scripts.\n"),
        ),
        (
            "skills/named/scripts/setup.sh",
            "#!/bin/bash\nnpm install\nnpm run build\n",
        ),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    assert_eq!(inferred(&r, "skills/quiet/SKILL.md", "bins"), ["node"]);
    assert_eq!(
        inferred(&r, "skills/named/SKILL.md", "bins"),
        ["bash", "npm"]
    );
}

/// What the person sets up once (a section titled for it, one whose first line tells the
/// reader to set something up, a service registered to start with the machine, the script that
/// service runs) is no need of the skill; a skill whose work is that set-up needs all of it.
#[test]
fn the_person_s_one_time_set_up_is_no_need_unless_it_is_the_skill_s_work() {
    let body = |title: &str| {
        format!(
            "# {title}\n\n## Setup\n\n```bash\ncurl -X POST https://oauth2.example.com/token -d code=CODE\n```\n\n## Usage\n\n```bash\npython3 scripts/nest.py list\n```\n\n## Real-Time Events\n\nFor doorbell alerts, you need to set up a webhook once.\n\n### 2. Create Pub/Sub Topic\n\n```bash\ngcloud pubsub topics create nest-events\n```\n\n### 5. Create systemd Services\n\n```ini\n[Service]\nExecStart=/usr/bin/python3 scripts/hook.py\n```\n\n```bash\nsudo systemctl enable --now nest-webhook\n```\n"
        )
    };
    let hook = "import subprocess\nsubprocess.run([\"ffmpeg\", \"-i\", \"rtsp://x\", \"a.jpg\"])\n";
    let t = tree(&[
        (
            "skills/nest/SKILL.md",
            &skill_with_body("nest", &body("Nest")),
        ),
        ("skills/nest/scripts/nest.py", "import json\n"),
        ("skills/nest/scripts/hook.py", hook),
        (
            "skills/hook/SKILL.md",
            &skill_with_body("hook", &body("Nest Webhook Setup")),
        ),
        ("skills/hook/scripts/nest.py", "import json\n"),
        ("skills/hook/scripts/hook.py", hook),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    assert_eq!(inferred(&r, "skills/nest/SKILL.md", "bins"), ["python3"]);
    assert_eq!(
        inferred(&r, "skills/hook/SKILL.md", "bins"),
        ["curl", "ffmpeg", "gcloud", "python3", "systemctl"]
    );
}

/// The terminal is needed by what the skill runs: a command or a script. Packages alone, from
/// an install line or a package list, are what the code it teaches imports; the host is asked
/// for nothing, and the cell names them as not judged.
#[test]
fn packages_alone_need_no_terminal() {
    let guide = "# Guide\n\n## Prerequisites\n\n```bash\npip install Pillow\n```\n\n```python\nfrom PIL import Image\n```\n";
    let runs = "# Runs\n\n```bash\npip install Pillow\npython3 scripts/go.py\n```\n";
    let t = tree(&[
        ("skills/guide/SKILL.md", &skill_with_body("guide", guide)),
        ("skills/runs/SKILL.md", &skill_with_body("runs", runs)),
        ("skills/runs/scripts/go.py", "import json\n"),
        (
            "skills/listed/SKILL.md",
            &skill_md("listed", "dependencies: [pandas>=2]\n"),
        ),
    ]);
    let (r, _) = json_run(t.path(), &["-p", "builtin:vscode", "."]);
    let guide = "skills/guide/SKILL.md";
    assert_eq!(inferred(&r, guide, "packages"), ["Pillow"]);
    assert!(inferred(&r, guide, "tools").is_empty());
    assert_eq!(inferred(&r, "skills/runs/SKILL.md", "tools"), ["Bash"]);
    let listed = "skills/listed/SKILL.md";
    assert!(inferred(&r, listed, "tools").is_empty());
    for p in [guide, listed] {
        let cell = status(&r, p, "vscode");
        assert_eq!(cell["status"], "available", "{cell}");
        assert_eq!(cell["not_judged"][0]["kind"], "packages", "{cell}");
    }
}

#[test]
fn scripts_outside_the_skills_folder_or_below_another_skill_md_are_not_read() {
    let t = tree(&[
        ("skills/s/SKILL.md", &skill_with_body("s", "# s\n")),
        (
            "skills/s/inner/SKILL.md",
            &skill_with_body("inner", "# inner\n"),
        ),
        ("skills/s/inner/run.sh", "#!/bin/bash\nterraform apply\n"),
        ("skills/s/scripts/go.sh", "#!/bin/bash\nhelm install x\n"),
        ("skills/run.sh", "#!/bin/bash\nkubectl apply\n"),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    assert_eq!(inferred(&r, "skills/s/SKILL.md", "bins"), ["bash", "helm"]);
}

/// A skill that declares and uses nothing needs nothing; inferred needs are judged like
/// declared ones, never make a skill invalid, and give at most a warning that says where
/// each need was read.
#[test]
fn cells_judged_on_inferred_needs() {
    let t = tree(&[
        (
            "skills/plain/SKILL.md",
            &skill_with_body("plain", "Be nice.\n"),
        ),
        (
            "skills/cli/SKILL.md",
            &skill_with_body("cli", "```bash\ngh issue list\njq .\n```\n"),
        ),
        ("laptop.json", r#"{"name": "laptop", "bins": ["gh"]}"#),
    ]);
    let (r, code) = json_run(
        t.path(),
        &[
            "-p",
            "builtin:vscode",
            "-p",
            "builtin:claude-code",
            "-p",
            "laptop.json",
            ".",
        ],
    );
    assert_eq!(code, 0, "warnings only: {:#}", r["findings"]);
    for p in ["vscode", "claude-code", "laptop"] {
        assert_eq!(
            status(&r, "skills/plain/SKILL.md", p)["status"],
            "needs-nothing"
        );
        assert!(
            status(&r, "skills/plain/SKILL.md", p)
                .get("basis")
                .is_none()
        );
    }
    // A host judges the terminal and names what it does not judge.
    let vscode = status(&r, "skills/cli/SKILL.md", "vscode");
    assert_eq!(vscode["status"], "available", "{vscode}");
    assert_eq!(vscode["basis"], "inferred");
    assert!(
        s(vscode, "reason").contains("not judged here: executables `gh`, `jq` (inferred)"),
        "{vscode}"
    );
    // The machine has `gh`, not `jq`: the skill runs without that step.
    let laptop = status(&r, "skills/cli/SKILL.md", "laptop");
    assert_eq!(laptop["status"], "partial", "{laptop}");
    assert!(
        s(laptop, "reason").contains("missing executable `jq` (inferred from `SKILL.md:7`)"),
        "{laptop}"
    );
    // Besides SA313 (it declares nothing of what it runs), the one finding is the laptop's.
    let f: Vec<&Value> = arr(&r, "findings")
        .iter()
        .filter(|f| f["path"] == "skills/cli/SKILL.md" && f["rule"] != "SA313")
        .collect();
    assert_eq!(f.len(), 1, "{f:#?}");
    assert_eq!(f[0]["rule"], "SA403");
    assert_eq!(f[0]["severity"], "warning");
    assert_eq!(
        (f[0]["line"].as_u64(), f[0]["column"].as_u64()),
        (Some(7), Some(1))
    );
}

#[test]
fn text_markdown_and_explain_say_what_a_cell_is_judged_on() {
    let t = tree(&[
        (
            "skills/cli/SKILL.md",
            &skill_with_body("cli", "```bash\ngh issue list\n```\n"),
        ),
        ("laptop.json", r#"{"name": "laptop", "bins": []}"#),
    ]);
    // Available everywhere, the row is folded unless every row is asked for.
    let text = quiet_stdout(bin(t.path()).args(["-p", "builtin:vscode", "."]), 0);
    assert!(
        text.contains("+ 1 skill available on every profile"),
        "{text}"
    );
    let text = quiet_stdout(
        bin(t.path()).args(["-p", "builtin:vscode", "--matrix", "all", "."]),
        0,
    );
    assert!(
        text.contains("every profile: judged on inferred needs"),
        "{text}"
    );
    // The PR comment lists only rows not available everywhere.
    let md = quiet_stdout(
        bin(t.path()).args([
            "-p",
            "builtin:vscode",
            "-p",
            "laptop.json",
            "-f",
            "markdown",
            ".",
        ]),
        0,
    );
    assert!(
        md.contains("every profile: judged on inferred needs"),
        "{md}"
    );
    // The executable is missing there; the terminal, which a machine profile does not judge,
    // may be: the rest of the skill runs.
    assert!(md.contains("🟠 partial"), "{md}");
    let out = bin(t.path())
        .args(["explain", "-p", "builtin:vscode", "skills/cli"])
        .output()
        .unwrap();
    let explained = String::from_utf8_lossy(&out.stdout);
    assert!(
        explained.contains("available (judged on inferred needs)"),
        "{explained}"
    );
    assert!(
        explained.contains("executable `gh` at SKILL.md:6:1: gh issue list"),
        "{explained}"
    );
}

/// On every corpus folder, the share of skills whose every host cell is judged
/// (available, partial, unavailable, not-loaded, needs-nothing).
#[test]
fn corpus_host_cells_are_judged() {
    // Before inference, about 5% of skills had every host cell judged. OpenClaw's folder has
    // 22 skills whose frontmatter does not parse: `invalid`, which no inference changes.
    for (folder, least) in [
        ("awesome-copilot", 95.0),
        ("antigravity-c", 95.0),
        ("claude-code-templates-slice", 95.0),
        ("openclaw-a", 84.0),
    ] {
        let Some(root) = corpus(folder) else {
            return;
        };
        let (r, _) = json_of(bin(MANIFEST_DIR).arg(&root).args([
            "-p",
            "builtin:vscode",
            "-p",
            "builtin:claude-code",
            "-p",
            "builtin:github-copilot",
            "-f",
            "json",
        ]));
        let skills = arr(&r, "skills");
        let judged = skills
            .iter()
            .filter(|s| {
                s["availability"].as_object().unwrap().values().all(|a| {
                    [
                        "available",
                        "partial",
                        "unavailable",
                        "not-loaded",
                        "needs-nothing",
                    ]
                    .contains(&s_of(a))
                })
            })
            .count();
        let share = 100.0 * judged as f64 / skills.len() as f64;
        assert!(share >= least, "{folder}: {share:.1}% judged");
    }
}

fn s_of(a: &Value) -> &str {
    a["status"].as_str().unwrap_or("")
}

/// The patterns the corpus sample showed wrong, each with a case still read.
#[test]
fn optional_reads_launcher_variables_and_reference_code_are_no_needs() {
    let py = "import os\nkey = os.getenv(\"OPT_KEY\")\nif key:\n    pass\ntok = os.getenv(\"REQ_TOKEN\")\nif not tok:\n    raise SystemExit(1)\nfal = os.environ.get(\"FAL_KEY\") or load_config()\nsingle = os.getenv(\"ONE_ID\")\nids = [single] if single else []\nrank = os.environ[\"MASTER_ADDR\"]\n";
    let js = "const days = parseInt(process.env.DAYS_BACK, 10) || 30;\nif (process.env.OPT_OPENAI) {\n  use();\n}\nif (!process.env.MUST_HAVE) {\n  process.exit(1);\n}\nconst mode = process.env.WRITE_KEY ? 'write' : 'read';\nconst paths = [\n  process.env.EDGE_PATH,\n];\nconst id = process.env.APP_ID;\n";
    let body = "1. Open Terminal and execute:\n   ```bash\n   curl -fsSL https://example.com/x | bash\n   ```\n\nThe `penpot/penpot-mcp` MCP server, the Penpot MCP server.\n**NEVER use:** `mcp__penpot__delete_all`\n\n| Actor | ID |\n| --- | --- |\n| Tweets | `penpot/x-tweet-scraper` |\n| Tool | `penpot/export_shape` |\n";
    let t = tree(&[
        ("skills/s/SKILL.md", &skill_with_body("s", body)),
        ("skills/s/scripts/a.py", py),
        ("skills/s/scripts/b.js", js),
        ("skills/s/references/example.py", "import openpyxl\n"),
        (
            "skills/s/vitest.config.ts",
            "import { defineConfig } from 'vitest/config';\n",
        ),
    ]);
    let (r, _) = json_run(t.path(), &["."]);
    let p = "skills/s/SKILL.md";
    assert_eq!(inferred(&r, p, "env"), ["APP_ID", "MUST_HAVE", "REQ_TOKEN"]);
    assert!(inferred(&r, p, "packages").is_empty());
    // What the user pastes into their own terminal is not the agent's.
    assert!(inferred(&r, p, "bins").is_empty());
    // A server's name and a table of actors are no tools; a tool of the server is.
    assert_eq!(inferred(&r, p, "tools"), ["Bash", "penpot/export_shape"]);
}

/// What a declaration already asks for is not asked again by inference: one message per need.
#[test]
fn a_declared_need_is_not_inferred_again() {
    let skill = "---\nname: d\ndescription: Does d things. Use when asked.\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"docker\"]}}}\n---\n```bash\ndocker ps\ndocker-compose up\n```\n";
    let t = tree(&[
        ("skills/d/SKILL.md", skill),
        ("laptop.json", r#"{"name": "laptop", "bins": []}"#),
    ]);
    let (r, _) = json_run(t.path(), &["-p", "laptop.json", "."]);
    let p = "skills/d/SKILL.md";
    assert_eq!(inferred(&r, p, "bins"), ["docker-compose"]);
    let reason = s(status(&r, p, "laptop"), "reason");
    assert_eq!(reason.matches("`docker`").count(), 1, "{reason}");
}
