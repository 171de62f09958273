//! What a skill uses against what it declares: SA312 (a script uses what the declaration
//! leaves out), SA313 (nothing declared, and the unsafe fix that declares what it uses) and
//! SA314 (declared, but named nowhere); SA315 (a script too large or not text to read).

use crate::common::*;

use serde_json::Value;

/// A skill that declares in the proposed `dependencies`, which lets fixes write that key in
/// the library it is part of.
const PROPOSAL: &str = "---\nname: zz-proposal\ndescription: Does things. Use when asked.\ndependencies:\n  tools: [read]\n---\n# zz-proposal\n";

fn audit(tmp: &std::path::Path) -> Value {
    json_run(tmp, &["--fail-on", "never", "."]).0
}

/// Apply every fix, unsafe ones too, to the library in `tmp`.
fn fix_unsafely(tmp: &std::path::Path) {
    quiet_stdout(
        bin(tmp).args(["--fail-on", "never", "--fix", "--unsafe-fixes", "."]),
        0,
    );
}

/// The requirement entry `source` of the skill `name` in report `r`.
fn requirement<'r>(r: &'r Value, name: &str, source: &str) -> Option<&'r Value> {
    arr(r, "skills").iter().find(|s| s["name"] == name)?["requirements"]
        .as_array()?
        .iter()
        .find(|d| d["source"] == source)
}

#[test]
fn a_script_that_runs_what_the_declaration_leaves_out() {
    let tmp = tree(&[
        (
            "fetch/SKILL.md",
            &skill_md(
                "fetch",
                "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"curl\"]}}}\n",
            ),
        ),
        (
            "fetch/scripts/fetch.sh",
            "#!/bin/bash\ncurl -s \"$URL\" > out.json\njq . out.json\nsecret-tool lookup x 2>/dev/null || echo none\npython3 -c 'print(1)'\necho \"$FETCH_TOKEN\"\n",
        ),
        // An installer's commands are not what the skill runs.
        ("fetch/scripts/install.sh", "apt-get install -y ripgrep\n"),
    ]);
    let r = audit(tmp.path());
    let got = messages(&r, "SA312");
    assert_eq!(
        got,
        [
            "`scripts/fetch.sh:2` reads `URL`, which OpenClaw's `metadata.openclaw` does not list; add it to `requires.env`, or a machine without it shows the skill and then fails",
            "`scripts/fetch.sh:3` runs `jq`, which OpenClaw's `metadata.openclaw` does not list; add it to `requires.bins`, or a machine without it shows the skill and then fails",
            "`scripts/fetch.sh:5` runs `python3`, which OpenClaw's `metadata.openclaw` does not list; add it to `requires.bins`, or a machine without it shows the skill and then fails",
            "`scripts/fetch.sh:6` reads `FETCH_TOKEN`, which OpenClaw's `metadata.openclaw` does not list; add it to `requires.env`, or a machine without it shows the skill and then fails",
        ],
        "{r:#}"
    );
    let f = findings(&r, "SA312")[0];
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(4), Some(24))
    );
    // Nothing declared at all: SA313 speaks, not SA312.
    assert!(messages(&r, "SA313").is_empty());

    // What the body's blocks run are often examples: they do not count here.
    let tmp = tree(&[(
        "fetch/SKILL.md",
        &(skill_md(
            "fetch",
            "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"curl\"]}}}\n",
        ) + "```bash\ncurl x | jq .\n```\n"),
    )]);
    assert!(messages(&audit(tmp.path()), "SA312").is_empty());

    // A script that runs what the body's block shows still needs it declared.
    let tmp = tree(&[
        (
            "fetch/SKILL.md",
            &(skill_md(
                "fetch",
                "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"curl\"]}}}\n",
            ) + "```bash\ncurl x | jq .\n```\n"),
        ),
        ("fetch/scripts/fetch.sh", "#!/bin/bash\ncurl -s x | jq .\n"),
    ]);
    let r = audit(tmp.path());
    assert_eq!(
        messages(&r, "SA312"),
        [
            "`scripts/fetch.sh:2` runs `jq`, which OpenClaw's `metadata.openclaw` does not list; add it to `requires.bins`, or a machine without it shows the skill and then fails"
        ],
        "{r:#}"
    );
    // The body's use and the script's are both evidence of one need.
    let inferred = r["skills"][0]["requirements"]
        .as_array()
        .and_then(|ds| ds.iter().find(|d| d["source"] == "inferred"))
        .expect("an inferred source");
    let jq: Vec<&Value> = inferred["uses"]
        .as_array()
        .expect("uses")
        .iter()
        .filter(|u| u["name"] == "jq")
        .collect();
    assert_eq!(jq.len(), 2, "{inferred:#}");
    // ... and one need.
    assert_eq!(inferred["bins"]["all"], serde_json::json!(["bash", "jq"]));
}

#[test]
fn messages_name_the_older_block_key_the_skill_writes() {
    let tmp = tree(&[
        (
            "fetch/SKILL.md",
            &skill_md(
                "fetch",
                "metadata:\n  clawdbot:\n    requires:\n      bins: [curl, sqlite3]\n",
            ),
        ),
        ("fetch/scripts/fetch.sh", "curl -s x | jq .\n"),
    ]);
    let r = audit(tmp.path());
    assert_eq!(
        messages(&r, "SA312"),
        [
            "`scripts/fetch.sh:1` runs `jq`, which OpenClaw's `metadata.clawdbot` does not list; add it to `requires.bins`, or a machine without it shows the skill and then fails"
        ]
    );
    assert_eq!(
        messages(&r, "SA314"),
        [
            "`requires.bins` in OpenClaw's `metadata.clawdbot` lists `sqlite3`, which neither the SKILL.md's text nor its scripts name; if nothing the skill runs needs it, remove it: hosts that read the declaration hide the skill wherever it is missing"
        ]
    );
}

/// A use found only in a script is named with its place, as the finding points at `name`, or
/// at the body's first use, which shows the others the body makes but not the scripts'.
#[test]
fn an_undeclared_use_in_a_script_says_where() {
    let tmp = tree(&[
        (
            "fetch/SKILL.md",
            &(skill_md("fetch", "") + "Run `scripts/fetch.sh`.\n"),
        ),
        ("fetch/scripts/fetch.sh", "#!/bin/sh\ncurl -s x | jq .\n"),
        (
            "mixed/SKILL.md",
            &(skill_md("mixed", "")
                + "Run `scripts/fetch.sh`, then:\n\n```bash\njq . out.json\n```\n"),
        ),
        (
            "mixed/scripts/fetch.sh",
            "#!/bin/sh\ncurl -s x > out.json\njq -r .id out.json\n",
        ),
    ]);
    let r = audit(tmp.path());
    assert_eq!(
        messages(&r, "SA313"),
        [
            "the skill declares nothing, but it uses `curl` (`scripts/fetch.sh:2`), `jq` (`scripts/fetch.sh:2`); hosts and registries that read declarations see a skill that needs nothing, so declare them in `metadata.openclaw.requires`",
            "the skill declares nothing, but it uses `curl` (`scripts/fetch.sh:2`), `jq`; hosts and registries that read declarations see a skill that needs nothing, so declare them in `metadata.openclaw.requires`",
        ]
    );
    let mixed = findings(&r, "SA313")[1];
    assert_eq!(mixed["line"], 9, "at the body's `jq`: {mixed}");
}

#[test]
fn the_fix_declares_what_the_skill_uses() {
    let body = "```bash\ngh pr list | jq length\necho \"$GITHUB_TOKEN\"\n```\nCall `mcp__github__create_issue`.\n";
    let tmp = tree(&[("demo/SKILL.md", &(skill_md("demo", "") + body))]);
    // No skill of the library declares in the proposed `dependencies`: no fix adds the key,
    // which strict validators reject.
    let r = audit(tmp.path());
    let f = findings(&r, "SA313")[0];
    assert!(f.get("fix").is_none(), "{f}");
    assert_eq!(
        s(f, "message"),
        "the skill declares nothing, but it uses `gh`, `jq`, `GITHUB_TOKEN`, `github/create_issue`; hosts and registries that read declarations see a skill that needs nothing, so declare them in `metadata.openclaw.requires` and `dependencies.tools` by hand: `dependencies` is a proposal no skill of this library uses yet, and strict validators (skills-ref, claude.ai uploads) reject a skill that has it"
    );
    std::fs::create_dir_all(tmp.path().join("zz-proposal")).unwrap();
    std::fs::write(tmp.path().join("zz-proposal/SKILL.md"), PROPOSAL).unwrap();
    let r = audit(tmp.path());
    assert_eq!(
        messages(&r, "SA313"),
        [
            "the skill declares nothing, but it uses `gh`, `jq`, `GITHUB_TOKEN`, `github/create_issue`; hosts and registries that read declarations see a skill that needs nothing, so declare them in `metadata.openclaw.requires` and `dependencies.tools`"
        ]
    );
    // Unsafe: `--fix` alone leaves it.
    quiet_stdout(
        bin(tmp.path()).args(["--fail-on", "never", "--fix", "."]),
        0,
    );
    assert!(
        std::fs::read_to_string(tmp.path().join("demo/SKILL.md"))
            .unwrap()
            .ends_with(body)
    );
    fix_unsafely(tmp.path());
    let text = std::fs::read_to_string(tmp.path().join("demo/SKILL.md")).unwrap();
    assert_eq!(
        text,
        skill_md(
            "demo",
            "metadata:\n  openclaw:\n    requires:\n      bins:\n        - gh\n        - jq\n      env:\n        - GITHUB_TOKEN\ndependencies:\n  tools:\n    - github/create_issue\n"
        ) + body
    );
    // Declared now: nothing is inferred beyond the terminal the commands need.
    let r = audit(tmp.path());
    assert!(messages(&r, "SA313").is_empty());
    let inferred = requirement(&r, "demo", "inferred").unwrap();
    assert_eq!(inferred["tools"]["all"], serde_json::json!(["Bash"]));
    assert!(inferred.get("bins").is_none(), "{inferred}");
}

/// Tools a body lists only in a table, with no step saying which it calls, are needed one of
/// them at a time: inferred under `any`, and declared so by the fix.
#[test]
fn tools_only_a_table_lists_are_one_of_them() {
    let body = "## Tools\n\n| Tool | Purpose |\n|---|---|\n| `mcp__github__issue_read` | Read an issue |\n| `mcp__github__list_issues` | List issues |\n";
    let tmp = tree(&[
        ("issues/SKILL.md", &(skill_md("issues", "") + body)),
        ("zz-proposal/SKILL.md", PROPOSAL),
    ]);
    let r = audit(tmp.path());
    let inferred = requirement(&r, "issues", "inferred").unwrap();
    assert_eq!(
        inferred["tools"],
        serde_json::json!({"any": ["github/issue_read", "github/list_issues"]})
    );
    assert_eq!(inferred["uses"][0]["one_of"], true);
    // A host that cannot see the server does not judge them, and says one of them is needed.
    let (r, _) = json_run(
        tmp.path(),
        &["--fail-on", "never", "-p", "builtin:vscode", "."],
    );
    let skill = arr(&r, "skills")
        .iter()
        .find(|s| s["name"] == "issues")
        .unwrap();
    let cell = &skill["availability"]["vscode"];
    assert_eq!(cell["not_judged"][0]["group"], "any", "{cell}");
    assert_eq!(
        cell["reason"],
        "not judged, as the profile does not describe them: one of tools `github/issue_read`, `github/list_issues` (inferred)"
    );
    fix_unsafely(tmp.path());
    let text = std::fs::read_to_string(tmp.path().join("issues/SKILL.md")).unwrap();
    assert_eq!(
        text,
        skill_md(
            "issues",
            "dependencies:\n  tools:\n    any:\n      - github/issue_read\n      - github/list_issues\n"
        ) + body
    );
    // Declared now as it was inferred: nothing is left to infer or report.
    let r = audit(tmp.path());
    assert!(messages(&r, "SA313").is_empty());
    let declared = requirement(&r, "issues", "dependencies").unwrap();
    assert_eq!(
        declared["tools"]["any"],
        serde_json::json!(["github/issue_read", "github/list_issues"])
    );
    assert!(requirement(&r, "issues", "inferred").is_none(), "{r}");
}

/// A body whose every use is in one of its ways, each running its own executable, needs one
/// of them: SA313 says so, and its fix writes them to OpenClaw's `anyBins`, after which the
/// declaration is what was inferred. Hermes' `prerequisites` cannot say it: no fix there.
#[test]
fn one_of_the_ways_executables_are_declared_as_any() {
    let ways = "**Option A: Cloudflare Tunnel**\n```bash\ncloudflared tunnel run\n```\n\n**Option B: Tailscale Funnel**\n```bash\ntailscale funnel 80\n```\n";
    let tmp = tree(&[("hook/SKILL.md", &(skill_md("hook", "") + ways))]);
    let r = audit(tmp.path());
    let f = findings(&r, "SA313");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        s(f[0], "message").contains("it uses one of `cloudflared`, `tailscale`;"),
        "{}",
        f[0]
    );
    assert!(
        s(&f[0]["fix"], "message").contains("one executable in `requires.anyBins` is on `PATH`"),
        "{}",
        f[0]
    );
    fix_unsafely(tmp.path());
    let text = std::fs::read_to_string(tmp.path().join("hook/SKILL.md")).unwrap();
    assert!(
        text.contains("metadata:\n  openclaw:\n    requires:\n      anyBins:\n        - cloudflared\n        - tailscale\n---\n"),
        "{text}"
    );
    let r = audit(tmp.path());
    assert!(findings(&r, "SA313").is_empty(), "{r}");
    let declared = requirement(&r, "hook", "openclaw").unwrap();
    assert_eq!(
        declared["bins"]["any"],
        serde_json::json!(["cloudflared", "tailscale"])
    );
    // A declaration of one of them meets the group: the other is not asked for.
    let one = tree(&[
        (
            "hook/SKILL.md",
            &(skill_md(
                "hook",
                "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"cloudflared\"]}}}\n",
            ) + ways),
        ),
        ("m.json", r#"{"bins": ["cloudflared"]}"#),
    ]);
    let (r, _) = json_run(one.path(), &["--fail-on", "never", "-p", "m.json", "."]);
    let inferred = requirement(&r, "hook", "inferred").unwrap();
    assert!(inferred["bins"].is_null(), "{inferred}");
    let cell = &arr(&r, "skills")[0]["availability"]["m"];
    assert_eq!(cell["status"], "available", "{cell}");
    let hermes = tree(&[
        (
            "a/SKILL.md",
            &skill_md("a", "prerequisites:\n  commands: [git]\n"),
        ),
        ("hook/SKILL.md", &(skill_md("hook", "") + ways)),
    ]);
    let r = audit(hermes.path());
    let f = findings(&r, "SA313");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(s(f[0], "message").contains("cannot say that one of several commands is enough"));
    assert!(f[0].get("fix").is_none_or(Value::is_null), "{}", f[0]);
}

#[test]
fn the_fix_writes_the_library_s_dialect_and_only_keys_not_there() {
    // A library that declares in Hermes' dialect, and never in OpenClaw's.
    let tmp = tree(&[
        (
            "a/SKILL.md",
            &skill_md("a", "prerequisites:\n  commands: [git]\n"),
        ),
        (
            "b/SKILL.md",
            &(skill_md("b", "") + "```bash\nkubectl get pods\n```\n"),
        ),
        // `metadata` is there already; the library's dialect is Hermes', so it does not matter.
        (
            "c/SKILL.md",
            &(skill_md("c", "metadata:\n  owner: me\n") + "```bash\nkubectl get pods\n```\n"),
        ),
    ]);
    fix_unsafely(tmp.path());
    let b = std::fs::read_to_string(tmp.path().join("b/SKILL.md")).unwrap();
    assert!(
        b.contains("\nprerequisites:\n  commands:\n    - kubectl\n---\n"),
        "{b}"
    );
    let r = audit(tmp.path());
    let sa313 = findings(&r, "SA313");
    assert!(sa313.is_empty(), "{sa313:?}");
}

#[test]
fn openclaw_s_block_goes_at_the_end_of_a_metadata_mapping() {
    let run = "```bash\nkubectl get pods\n```\n";
    let tmp = tree(&[
        // A block mapping followed by another key, and one that ends the frontmatter.
        (
            "a/SKILL.md",
            &(skill_md("a", "metadata:\n  owner: me\n  tags: [x]\nlicense: MIT\n") + run),
        ),
        (
            "b/SKILL.md",
            &(skill_md("b", "metadata:\n    owner: me\n") + "Call `mcp__github__get_me`.\n" + run),
        ),
        ("zz-proposal/SKILL.md", PROPOSAL),
        // Flow mappings: the block goes in, or `requires` into the OpenClaw block there is,
        // in the mapping's spacing.
        (
            "c/SKILL.md",
            &(skill_md("c", "metadata: {\"owner\": \"me\"}\n") + run),
        ),
        (
            "d/SKILL.md",
            &(skill_md("d", "metadata: {\"clawdbot\":{\"emoji\":\"😼\"},\"x\":1}\n") + run),
        ),
        ("e/SKILL.md", &(skill_md("e", "metadata: {}\n") + run)),
        // The OpenClaw block there is gains `requires`, as a block or in a flow mapping.
        (
            "f/SKILL.md",
            &(skill_md(
                "f",
                "metadata:\n  clawdbot:\n    emoji: x\n    tags:\n      - y\n  other: 1\n",
            ) + run),
        ),
        (
            "g/SKILL.md",
            &(skill_md(
                "g",
                "metadata:\n  owner: me\n  clawdbot: {\"emoji\": \"x\"}\n",
            ) + run),
        ),
        // An OpenClaw block with a `requires` of nothing: no room, so the finding has no fix.
        (
            "h/SKILL.md",
            &(skill_md(
                "h",
                "metadata:\n  clawdbot:\n    requires:\n      bins: []\n",
            ) + run),
        ),
    ]);
    let r = audit(tmp.path());
    let fixable: Vec<(&str, bool)> = findings(&r, "SA313")
        .into_iter()
        .map(|f| (s(f, "path"), !f["fix"].is_null()))
        .collect();
    assert_eq!(
        fixable,
        [
            ("a/SKILL.md", true),
            ("b/SKILL.md", true),
            ("c/SKILL.md", true),
            ("d/SKILL.md", true),
            ("e/SKILL.md", true),
            ("f/SKILL.md", true),
            ("g/SKILL.md", true),
            ("h/SKILL.md", false)
        ]
    );
    fix_unsafely(tmp.path());
    let read = |p: &str| std::fs::read_to_string(tmp.path().join(p)).unwrap();
    assert_eq!(
        read("a/SKILL.md"),
        skill_md(
            "a",
            "metadata:\n  owner: me\n  tags: [x]\n  openclaw:\n    requires:\n      bins:\n        - kubectl\nlicense: MIT\n"
        ) + run
    );
    assert_eq!(
        read("b/SKILL.md"),
        skill_md(
            "b",
            "metadata:\n    owner: me\n    openclaw:\n      requires:\n        bins:\n          - kubectl\ndependencies:\n  tools:\n    - github/get_me\n"
        ) + "Call `mcp__github__get_me`.\n"
            + run
    );
    assert_eq!(
        read("c/SKILL.md"),
        skill_md(
            "c",
            "metadata: {\"owner\": \"me\", \"openclaw\": {\"requires\": {\"bins\": [\"kubectl\"]}}}\n"
        ) + run
    );
    assert_eq!(
        read("d/SKILL.md"),
        skill_md(
            "d",
            "metadata: {\"clawdbot\":{\"emoji\":\"😼\",\"requires\":{\"bins\":[\"kubectl\"]}},\"x\":1}\n"
        ) + run
    );
    assert_eq!(
        read("e/SKILL.md"),
        skill_md(
            "e",
            "metadata: {\"openclaw\":{\"requires\":{\"bins\":[\"kubectl\"]}}}\n"
        ) + run
    );
    assert_eq!(
        read("f/SKILL.md"),
        skill_md(
            "f",
            "metadata:\n  clawdbot:\n    emoji: x\n    tags:\n      - y\n    requires:\n      bins:\n        - kubectl\n  other: 1\n"
        ) + run
    );
    assert_eq!(
        read("g/SKILL.md"),
        skill_md(
            "g",
            "metadata:\n  owner: me\n  clawdbot: {\"emoji\": \"x\", \"requires\": {\"bins\": [\"kubectl\"]}}\n"
        ) + run
    );
    let r = audit(tmp.path());
    let left: Vec<&str> = findings(&r, "SA313")
        .into_iter()
        .map(|f| s(f, "path"))
        .collect();
    assert_eq!(left, ["h/SKILL.md"]);
    // What was written is read as the declaration: the skills need `kubectl`.
    for p in [
        "c/SKILL.md",
        "d/SKILL.md",
        "e/SKILL.md",
        "f/SKILL.md",
        "g/SKILL.md",
    ] {
        let declared: Vec<&Value> = arr(skill(&r, p), "requirements")
            .iter()
            .filter(|d| s(d, "source") == "openclaw")
            .collect();
        assert_eq!(declared.len(), 1, "{p}: {declared:?}");
        assert_eq!(strings(&declared[0]["bins"]["all"]), ["kubectl"], "{p}");
    }
}

#[test]
fn a_declared_need_that_nothing_names() {
    let declared = "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"curl\", \"sqlite3\", \"jq\", \"python3\"], \"anyBins\": [\"chromium\", \"chrome\"], \"env\": [\"API_TOKEN\", \"KEY\"]}}}\n";
    let tmp = tree(&[
        (
            "fetch/SKILL.md",
            // The body names `curl` and `chrome`, the script `jq` and `API_TOKEN`; `KEY` is only
            // part of a longer name, and `python3` an interpreter.
            &(skill_md("fetch", declared)
                + "Fetch with `curl`, or open the page in chrome.\nSet MY_KEY first.\n"),
        ),
        (
            "fetch/scripts/run.sh",
            "jq . \"$1\" | grep \"$API_TOKEN\"\n",
        ),
    ]);
    let r = audit(tmp.path());
    assert_eq!(
        messages(&r, "SA314"),
        [
            "`requires.bins` in OpenClaw's `metadata.openclaw` lists `sqlite3`, which neither the SKILL.md's text nor its scripts name; if nothing the skill runs needs it, remove it: hosts that read the declaration hide the skill wherever it is missing",
            "`requires.anyBins` in OpenClaw's `metadata.openclaw` lists `chromium`, which neither the SKILL.md's text nor its scripts name; if nothing the skill runs needs it, remove it: hosts that read the declaration hide the skill wherever it is missing",
            "`requires.env` in OpenClaw's `metadata.openclaw` lists `KEY`, which neither the SKILL.md's text nor its scripts name; if nothing the skill runs needs it, remove it: hosts that read the declaration hide the skill wherever it is missing",
        ],
        "{r:#}"
    );
    let f = findings(&r, "SA314")[0];
    assert_eq!(f["severity"], "info");
    // At the entry itself: `"sqlite3"` in the `bins` list.
    assert_eq!(
        (f["line"].as_u64(), f["column"].as_u64()),
        (Some(4), Some(55))
    );

    // Named in the body, or a skill that declares nothing: no finding.
    let tmp = tree(&[(
        "fetch/SKILL.md",
        &(skill_md(
            "fetch",
            "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"sqlite3\"]}}}\n",
        ) + "```bash\nsqlite3 db.sqlite .tables\n```\n"),
    )]);
    assert!(messages(&audit(tmp.path()), "SA314").is_empty());

    // Run by a package a script imports: `whisper` runs `ffmpeg`; `requests` runs nothing.
    let tmp = tree(&[
        (
            "talk/SKILL.md",
            &skill_md(
                "talk",
                "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"ffmpeg\", \"sox\"]}}}\n",
            ),
        ),
        ("talk/scripts/t.py", "import whisper\nimport requests\n"),
    ]);
    let sa314 = messages(&audit(tmp.path()), "SA314");
    assert_eq!(sa314.len(), 1, "{sa314:?}");
    assert!(sa314[0].contains("`sox`"), "{sa314:?}");
}

/// The executables, variables and MCP tools (`server/tool`) a report's requirements of
/// `skill` name: those `inferred`, or those declared in a dialect a host reads.
fn needs(skill: &Value, inferred: bool) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for r in arr(skill, "requirements") {
        let source = s(r, "source");
        if (source == "inferred") != inferred || source == "allowed-tools" {
            continue;
        }
        for kind in ["bins", "env", "tools"] {
            let group = &r[kind];
            let all = group["all"].as_array().into_iter().flatten();
            let any = group["any"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_array)
                .flatten();
            for name in all.chain(any).filter_map(Value::as_str) {
                let shell = kind == "bins" && ["bash", "sh", "zsh"].contains(&name);
                let terminal = kind == "tools" && !name.contains('/');
                if !shell && !terminal {
                    out.insert(format!("{kind}:{name}"));
                }
            }
        }
    }
    out
}

/// The text after a Markdown file's frontmatter (whatever its line ends).
fn body(text: &str) -> &str {
    let mut at = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        at += line.len();
        if i > 0 && line.trim_end() == "---" {
            return &text[at..];
        }
    }
    text
}

/// On a copy of each corpus folder, `--fix --unsafe-fixes` declares what each skill that
/// declared nothing was inferred to use (shells and the host's terminal left out): after it,
/// only the SA313 findings that had no fix are left, every changed SKILL.md parses, and no
/// body differs by a byte. The fixes that write a missing path as it was likely meant (SA231,
/// SA232) edit bodies on purpose and are left out.
#[test]
fn corpus_the_fix_declares_exactly_what_was_inferred() {
    for folder in [AWESOME_COPILOT, "antigravity-c", TEMPLATES, OPENCLAW_A] {
        let Some(src) = corpus(folder) else {
            return;
        };
        let work = tempfile::tempdir().unwrap();
        let root = work.path().join(folder);
        copy_tree(&src, &root);
        let before = audit(&root);
        let sa313 = findings(&before, "SA313");
        let fixed: Vec<&str> = sa313
            .iter()
            .filter(|f| f.get("fix").is_some())
            .map(|f| s(f, "path"))
            .collect();
        assert!(fixed.len() >= 10, "{folder}: {} SA313 fixes", fixed.len());
        let (after, _) = json_run(
            &root,
            &[
                "--fix",
                "--unsafe-fixes",
                "--ignore",
                "SA231,SA232",
                "--fail-on",
                "never",
                ".",
            ],
        );
        let left = findings(&after, "SA313").len();
        assert_eq!(left, sa313.len() - fixed.len(), "{folder}");
        for path in &fixed {
            // A `skill.md` is renamed `SKILL.md` by a fix of its own.
            let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
            let renamed = format!("{dir}/SKILL.md");
            let now = arr(&after, "skills")
                .iter()
                .find(|s| s["path"] == *path || s["path"] == renamed.as_str())
                .unwrap_or_else(|| panic!("{folder}/{path} is gone"));
            assert_eq!(
                needs(now, false),
                needs(skill(&before, path), true),
                "{folder}/{path}: declared after the fix, against inferred before it"
            );
            let old = std::fs::read_to_string(src.join(path)).unwrap();
            let new = std::fs::read_to_string(root.join(s(now, "path"))).unwrap();
            assert_ne!(old, new, "{folder}/{path} is unchanged");
            assert!(
                body(&old) == body(&new),
                "{folder}/{path}: the body changed"
            );
            let mut sink = skill_audit::diagnostic::Sink::new(path);
            assert!(
                skill_audit::parse::document(new.as_bytes(), "skill", &mut sink).is_ok(),
                "{folder}/{path} no longer parses: {:?}",
                sink.findings
            );
        }
    }
}

#[test]
fn a_shebang_gives_way_to_the_interpreter_the_body_runs_the_script_with() {
    // `#!/usr/bin/env python3`, run as `python scripts/x.py`: the skill needs `python`; as
    // `uv run scripts/x.py`, `uv`. Run by its path, the shebang's interpreter is what it needs.
    let shebang = "#!/usr/bin/env python3\nprint(1)\n";
    let tmp = tree(&[
        (
            "by-name/SKILL.md",
            &(skill_md("by-name", "") + "```bash\npython scripts/x.py\n```\n"),
        ),
        ("by-name/scripts/x.py", shebang),
        (
            "by-path/SKILL.md",
            &(skill_md("by-path", "") + "```bash\n./scripts/x.py\n```\n"),
        ),
        ("by-path/scripts/x.py", shebang),
        (
            "by-uv/SKILL.md",
            &(skill_md("by-uv", "") + "```bash\nuv run scripts/x.py\n```\n"),
        ),
        ("by-uv/scripts/x.py", shebang),
    ]);
    let r = audit(tmp.path());
    let bins = |path: &str| -> Vec<String> {
        skill(&r, path)["requirements"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["source"] == "inferred")
            .flat_map(|d| strings(&d["bins"]["all"]))
            .collect()
    };
    assert_eq!(bins("by-name/SKILL.md"), ["python"]);
    assert!(bins("by-path/SKILL.md").contains(&"python3".to_owned()));
    // `uv run` brings the Python it runs the script with.
    assert_eq!(bins("by-uv/SKILL.md"), ["uv"]);
}

#[test]
fn a_hermes_variable_unnamed_is_shown_at_its_entry_under_its_own_key() {
    let tmp = tree(&[(
        "h/SKILL.md",
        &skill_md(
            "h",
            "platforms: [linux]\nrequired_environment_variables:\n  - name: TOKEN\n    optional: false\n",
        ),
    )]);
    let r = audit(tmp.path());
    let f = findings(&r, "SA314");
    assert_eq!(f.len(), 1, "{r:#}");
    assert_eq!(
        (f[0]["line"].as_u64(), f[0]["column"].as_u64()),
        (Some(6), Some(11))
    );
    let message = f[0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("`required_environment_variables` in "),
        "{message}"
    );
}

/// A script too large to read for uses, or not UTF-8, is said not to be read, at its own
/// path; one in a folder that is never run is not read and not reported.
#[test]
fn scripts_not_read_for_uses_are_reported() {
    let tmp = tree(&[("big/SKILL.md", &skill_md("big", ""))]);
    let big = format!("import os\n{}", "x = 1\n".repeat(200_000));
    write(tmp.path(), "big/scripts/bundle.py", &big);
    write(tmp.path(), "big/scripts/latin.sh", b"echo caf\xe9\njq .\n");
    write(tmp.path(), "big/tests/huge.py", &big);
    write(tmp.path(), "big/scripts/small.sh", "jq .\n");
    let r = audit(tmp.path());
    let places: Vec<(String, String)> = findings(&r, "SA315")
        .iter()
        .map(|f| (s(f, "path").to_owned(), s(f, "message").to_owned()))
        .collect();
    assert_eq!(
        places,
        [
            (
                "big/scripts/bundle.py".to_owned(),
                format!("this script is {} bytes, over the 1 MiB read for uses, so what it runs, imports and reads is not inferred; declare what the skill needs if the script needs more than its text shows", big.len())
            ),
            (
                "big/scripts/latin.sh".to_owned(),
                "this script is not UTF-8 text, so what it runs, imports and reads is not inferred; declare what the skill needs if the script needs more than its text shows".to_owned()
            ),
        ],
        "{r:#}"
    );
    assert_eq!(findings(&r, "SA315")[0]["severity"], "info");
}

/// A `metadata` that holds nothing becomes the mapping that declares; one that is a string
/// cannot hold a declaration, so no fix is offered (a fix of the MCP tools alone would end the
/// finding with the executables undeclared) and the message says what to do.
#[test]
fn an_empty_metadata_is_filled_and_a_string_one_keeps_its_finding() {
    let body = "```bash\ngh pr list | jq length\necho \"$GITHUB_TOKEN\"\n```\nCall `mcp__github__create_issue`.\n";
    let tmp = tree(&[
        ("null/SKILL.md", &(skill_md("null", "metadata:\n") + body)),
        ("zz-proposal/SKILL.md", PROPOSAL),
        (
            "tilde/SKILL.md",
            &(skill_md("tilde", "metadata: ~ # later\n") + body),
        ),
        (
            "text/SKILL.md",
            &(skill_md("text", "metadata: \"not a map\"\n") + body),
        ),
    ]);
    let r = audit(tmp.path());
    let text = findings(&r, "SA313")
        .into_iter()
        .find(|f| s(f, "path") == "text/SKILL.md")
        .cloned()
        .unwrap_or_default();
    assert!(text.get("fix").is_none(), "{text}");
    assert_eq!(
        s(&text, "message"),
        "the skill declares nothing, but it uses `gh`, `jq`, `GITHUB_TOKEN`, `github/create_issue`; its `metadata` is not a mapping, so no fix can add a declaration to it: make `metadata` a mapping and declare them in `metadata.openclaw.requires` and `dependencies.tools`"
    );
    fix_unsafely(tmp.path());
    let read = |p: &str| std::fs::read_to_string(tmp.path().join(p)).unwrap_or_default();
    let declared =
        "{\"openclaw\": {\"requires\": {\"bins\": [\"gh\", \"jq\"], \"env\": [\"GITHUB_TOKEN\"]}}}";
    let deps = "dependencies:\n  tools:\n    - github/create_issue\n";
    assert_eq!(
        read("null/SKILL.md"),
        skill_md("null", &format!("metadata: {declared}\n{deps}")) + body
    );
    assert_eq!(
        read("tilde/SKILL.md"),
        skill_md("tilde", &format!("metadata: {declared} # later\n{deps}")) + body
    );
    assert_eq!(
        read("text/SKILL.md"),
        skill_md("text", "metadata: \"not a map\"\n") + body
    );
    let r = audit(tmp.path());
    let left: Vec<String> = findings(&r, "SA313")
        .iter()
        .map(|f| s(f, "path").to_owned())
        .collect();
    assert_eq!(left, ["text/SKILL.md"]);
}

/// An OpenClaw block whose `requires` lists packages but no executable: the skill declares
/// something, and the fix has nowhere to write, so the message says where to add them.
#[test]
fn a_requires_without_executables_is_named_not_called_nothing() {
    let tmp = tree(&[(
        "opt/SKILL.md",
        &(skill_md(
            "opt",
            "metadata:\n  clawdbot:\n    requires:\n      bins: []\n      npm: [\"tiktoken\"]\n",
        ) + "```bash\njq . x.json\n```\n"),
    )]);
    let r = audit(tmp.path());
    let found = findings(&r, "SA313");
    assert_eq!(found.len(), 1, "{r}");
    assert!(found[0].get("fix").is_none(), "{}", found[0]);
    assert_eq!(
        s(found[0], "message"),
        "the skill's `metadata.clawdbot.requires` lists no executable or variable, but the skill uses `jq`; hosts and registries that read it see a skill that needs none of them, so add the executables to its `bins` (no fix is offered: that `requires` is written by hand)"
    );
}

/// The fix says what the lists it writes gate, so they are read before it is applied.
#[test]
fn the_fix_says_what_the_lists_it_writes_gate() {
    let tmp = tree(&[(
        "demo/SKILL.md",
        &(skill_md("demo", "") + "```bash\njq . x.json\necho \"$GITHUB_TOKEN\"\n```\n"),
    )]);
    let r = audit(tmp.path());
    let found = findings(&r, "SA313");
    assert_eq!(
        found[0]["fix"]["message"],
        "declare what this skill uses; OpenClaw hides the skill unless every executable in `requires.bins` is on `PATH` and every variable in `requires.env` is set: check these inferred lists before applying"
    );
}

/// A flow `metadata` whose `}` is on a line of its own gains the entry after its last one,
/// not at the start of the `}` line.
#[test]
fn a_multi_line_flow_metadata_gains_the_entry_on_its_last_line() {
    let body = "```bash\njq . x.json\n```\n";
    let tmp = tree(&[(
        "m/SKILL.md",
        &(skill_md("m", "metadata: {\n  a: 1,\n  b: two\n}\n") + body),
    )]);
    fix_unsafely(tmp.path());
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("m/SKILL.md")).unwrap_or_default(),
        skill_md(
            "m",
            "metadata: {\n  a: 1,\n  b: two, \"openclaw\": {\"requires\": {\"bins\": [\"jq\"]}}\n}\n"
        ) + body
    );
}
