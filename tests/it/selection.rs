//! The command line ruff users know: `--select`, `--extend-select`, `--ignore` and their
//! settings-file keys, `--exit-zero`, `--statistics`, `--output-format` (with `concise`),
//! `--color`, `-q`'s reason for exit 1, and the hint when there is nothing to audit.

use crate::common::*;

/// A library with an error (SA201, no name), a warning (SA221, an unknown key) and a fixable
/// info (SA224, `allowed-tools` with commas).
fn library() -> tempfile::TempDir {
    let unknown = skill_md("unknown", "colour: blue\n");
    let commas = skill_md("commas", "allowed-tools: Read, Grep\n");
    tree(&[
        ("skills/unknown/SKILL.md", unknown.as_str()),
        ("skills/commas/SKILL.md", commas.as_str()),
        (
            "skills/nameless/SKILL.md",
            "---\ndescription: Does things. Use when asked.\n---\n# x\n",
        ),
    ])
}

/// The rule IDs of the report's findings, sorted and without repeats.
fn rules(report: &serde_json::Value) -> Vec<String> {
    let mut out: Vec<String> = arr(report, "findings")
        .iter()
        .map(|f| s(f, "rule").to_owned())
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn select_ignore_and_extend_select_take_ids_prefixes_and_names() {
    let tmp = library();
    let (all, code) = json_run(tmp.path(), &["."]);
    assert_eq!(rules(&all), ["SA201", "SA221", "SA224"]);
    assert_eq!(code, 1);
    let (r, code) = json_run(tmp.path(), &["--select", "SA22", "."]);
    assert_eq!(rules(&r), ["SA221", "SA224"]);
    assert_eq!(
        code, 0,
        "the error is not selected, so it does not fail the run"
    );
    let (r, _) = json_run(
        tmp.path(),
        &["--select", "SA2", "--ignore", "unknown-key", "."],
    );
    assert_eq!(rules(&r), ["SA201", "SA224"]);
    let (r, _) = json_run(
        tmp.path(),
        &["--select", "SA224", "--extend-select", "name-missing", "."],
    );
    assert_eq!(rules(&r), ["SA201", "SA224"]);
    // Comma-separated, as ruff takes them.
    let (r, _) = json_run(tmp.path(), &["--ignore", "SA201,SA224", "."]);
    assert_eq!(rules(&r), ["SA221"]);
    let err = stderr_of(bin(tmp.path()).args(["--select", "SA2x", "."]), 2);
    assert!(err.contains("--select SA2x: names no rule"), "{err}");
}

#[test]
fn the_settings_file_selects_and_the_command_line_wins() {
    let tmp = library();
    write(
        tmp.path(),
        "skill-audit.toml",
        "select = [\"SA2\"]\nignore = [\"SA224\"]\n",
    );
    let (r, _) = json_run(tmp.path(), &["."]);
    assert_eq!(rules(&r), ["SA201", "SA221"]);
    // `--select` replaces the file's `select`; the file's `ignore` still holds.
    let (r, _) = json_run(tmp.path(), &["--select", "SA22", "."]);
    assert_eq!(rules(&r), ["SA221"]);
    write(
        tmp.path(),
        "skill-audit.toml",
        "select = [\"SA224\"]\nextend-select = [\"SA201\"]\n",
    );
    let (r, _) = json_run(tmp.path(), &["--extend-select", "SA221", "."]);
    assert_eq!(rules(&r), ["SA201", "SA221", "SA224"]);
    // A selector that names nothing is an error at its line and column.
    write(
        tmp.path(),
        "skill-audit.toml",
        "ignore = [\n  \"SA9x\",\n]\n",
    );
    let err = stderr_of(bin(tmp.path()).arg("."), 2);
    assert!(err.contains("skill-audit.toml:2:3:"), "{err}");
    assert!(err.contains("`SA9x` in `ignore` names no rule"), "{err}");
}

#[test]
fn output_format_from_the_settings_file_is_for_standard_output_only() {
    let tmp = library();
    write(
        tmp.path(),
        "skill-audit.toml",
        "output-format = \"concise\"\n",
    );
    let out = quiet_stdout(bin(tmp.path()).arg("."), 1);
    assert!(
        out.starts_with("skills/commas/SKILL.md:4:16: SA224 [*] "),
        "{out}"
    );
    // A file named with -o still takes its extension's format.
    let report = tmp.path().join("r.json");
    quiet_stdout(bin(tmp.path()).args(["-o", "r.json", "."]), 1);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    assert_eq!(rules(&v), ["SA201", "SA221", "SA224"]);
    write(tmp.path(), "skill-audit.toml", "output-format = \"yaml\"\n");
    let err = stderr_of(bin(tmp.path()).arg("."), 2);
    assert!(
        err.contains("skill-audit.toml:1:17: unknown `output-format` `yaml`"),
        "{err}"
    );
}

#[test]
fn concise_is_one_line_per_finding_then_the_summary_and_full_is_text() {
    let tmp = library();
    let out = quiet_stdout(bin(tmp.path()).args(["--output-format", "concise", "."]), 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..3],
        [
            "skills/commas/SKILL.md:4:16: SA224 [*] `allowed-tools` separates its names with commas; the spec wants spaces (`Read Grep`). Claude Code reads either, hosts that follow the spec may not",
            "skills/nameless/SKILL.md:2:1: SA201 the skill has no `name`; add `name: nameless` (its folder name)",
            "skills/unknown/SKILL.md:4:1: SA221 `colour` is not a field of the spec or of any host: hosts ignore it, and strict validators and uploads (skills-ref, claude.ai) reject the skill; remove it, or move it under `metadata`, the spec's place for other fields",
        ][..],
        "{out}"
    );
    assert_eq!(lines[3], "");
    assert!(lines[4].starts_with("3 files scanned, 3 skills"), "{out}");
    let full = quiet_stdout(bin(tmp.path()).args(["--output-format", "full", "."]), 1);
    let text = quiet_stdout(bin(tmp.path()).args(["-f", "text", "."]), 1);
    assert_eq!(full, text);
    // -q: the lines alone, and why the run exits 1 on standard error.
    let out = bin(tmp.path())
        .args(["-q", "--output-format", "concise", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 3, "{stdout}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err,
        "skill-audit: exit 1: 1 error at or above --fail-on error\n"
    );
}

#[test]
fn statistics_count_each_rule_and_mark_the_fixable() {
    let tmp = library();
    write(
        tmp.path(),
        "skills/more/SKILL.md",
        skill_md("more", "colour: red\nshade: dark\n"),
    );
    let out = quiet_stdout(bin(tmp.path()).args(["--statistics", "."]), 1);
    assert_eq!(
        out,
        "3\tSA221\t    unknown-key\n1\tSA201\t    name-missing\n1\tSA224\t[*] allowed-tools-commas\n"
    );
    let out = quiet_stdout(
        bin(tmp.path()).args(["--statistics", "--exit-zero", "-f", "json", "."]),
        0,
    );
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v[0]["code"], "SA221");
    assert_eq!(v[0]["count"], 3);
    assert_eq!(v[2]["fixable"], true);
    let out = bin(tmp.path())
        .args(["--statistics", "-f", "sarif", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // They replace the report on standard output; the files `-o` names are still written.
    let out = quiet_stdout(
        bin(tmp.path()).args(["--statistics", "--exit-zero", "-o", "r.json", "."]),
        0,
    );
    assert!(out.starts_with("3\tSA221"), "{out}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("r.json")).unwrap()).unwrap();
    assert_eq!(report["findings"].as_array().map(Vec::len), Some(5));
}

#[test]
fn exit_zero_keeps_findings_but_not_usage_errors() {
    let tmp = library();
    let out = quiet_stdout(bin(tmp.path()).args(["--exit-zero", "."]), 0);
    assert!(out.contains("error[SA201]"), "{out}");
    let out = bin(tmp.path())
        .args(["--exit-zero", "-p", "nope.json", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn color_always_and_never_override_the_terminal_test() {
    let tmp = library();
    let always = quiet_stdout(bin(tmp.path()).args(["--color", "always", "."]), 1);
    assert!(always.contains('\x1b'), "{always}");
    let never = quiet_stdout(
        bin(tmp.path())
            .env_remove("NO_COLOR")
            .args(["--color", "never", "."]),
        1,
    );
    assert!(!never.contains('\x1b'));
    // Also after a subcommand, where it is accepted too.
    let rules = quiet_stdout(bin(tmp.path()).args(["rules", "--color", "never"]), 0);
    assert!(rules.contains("SA201"));
}

#[test]
fn nothing_to_audit_is_said_and_fails_only_when_asked() {
    let tmp = tree(&[
        ("notes/readme.md", "# nothing here\n"),
        (".gitignore", "hidden/\n"),
    ]);
    write(tmp.path(), "hidden/SKILL.md", skill_md("hidden", ""));
    std::fs::create_dir(tmp.path().join(".git")).unwrap();
    let out = bin(tmp.path()).arg(".").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("skill-audit: no skill, agent or plugin manifest found under `.`"),
        "{err}"
    );
    assert!(err.contains("1 file hidden by ignore rules"), "{err}");
    assert_eq!(err.lines().count(), 1, "one line: {err}");
    let out = bin(tmp.path())
        .args(["--fail-on-empty", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    // A library with a skill says nothing of the kind.
    let lib = library();
    let out = bin(lib.path()).arg(".").output().unwrap();
    assert!(!String::from_utf8_lossy(&out.stderr).contains("no skill"));
}

#[test]
fn completions_offer_rule_ids_and_builtin_profiles_and_schema_lists_its_kinds() {
    let tmp = tempfile::tempdir().unwrap();
    let bash = quiet_stdout(bin(tmp.path()).args(["completions", "bash"]), 0);
    for word in ["SA201", "name-missing", "SA404", "ALL"] {
        assert!(bash.contains(word), "{word} is offered");
    }
    // `profiles NAME` takes only built-in names, which every shell offers.
    assert!(
        bash.contains("--help claude-code codex copilot-cli"),
        "the names after `profiles`"
    );
    // `--profile` takes a file or `builtin:NAME`: zsh offers both, on every subcommand.
    let zsh = quiet_stdout(bin(tmp.path()).args(["completions", "zsh"]), 0);
    assert!(
        zsh.contains(
            "_alternative 'files:profile file:_files' 'builtins:built-in profile:(builtin\\:claude-code "
        ),
        "{zsh}"
    );
    let profile_specs: Vec<&str> = zsh
        .lines()
        .filter(|l| l.contains("'*-p+[") || l.contains("'*--profile=["))
        .collect();
    assert_eq!(profile_specs.len(), 8, "audit, explain, to-prompt, mcp");
    for l in &profile_specs {
        assert!(l.ends_with(":FILE:_skill-audit__profile' \\"), "{l}");
    }
    // A quote in an option's value name would end zsh's spec early and break every option.
    let one_line_specs = zsh
        .lines()
        .filter(|l| l.starts_with('\'') && l.ends_with("' \\") && l.contains("]:"));
    for l in one_line_specs {
        let value = l.rsplit_once("]:").unwrap().1;
        assert_eq!(value.matches('\'').count(), 1, "{l}");
    }
    // fish: a second completion of `--profile` adds the names to the files.
    let fish = quiet_stdout(bin(tmp.path()).args(["completions", "fish"]), 0);
    let lines: Vec<&str> = fish
        .lines()
        .filter(|l| l.contains(" -l profile "))
        .collect();
    assert_eq!(lines.len(), 8, "{lines:#?}");
    for pair in lines.chunks(2) {
        assert!(pair[0].ends_with(" -r -F"), "{}", pair[0]);
        assert!(
            pair[1].contains(" -r -a \"builtin:claude-code"),
            "{}",
            pair[1]
        );
        assert!(pair[1].contains("builtin:vscode"), "{}", pair[1]);
    }
    let kinds = quiet_stdout(bin(tmp.path()).arg("schema"), 0);
    let names: Vec<&str> = kinds
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names, ["profile", "config", "report", "`skill-audit"]);
}

/// Run an audit with `-f json` in `dir`, writing the report to `name` there.
fn save(dir: &std::path::Path, name: &str, extra: &[&str]) {
    let out = bin(dir)
        .args([
            "--fail-on",
            "never",
            "-p",
            "builtin:vscode",
            "-f",
            "json",
            "-o",
            name,
        ])
        .args(extra)
        .arg("lib")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn files_that_fixes_move_are_moved_in_a_diff_not_gone_and_new() {
    let notes = skill_md("notes", "colour: blue\n");
    let tmp = tree(&[
        ("lib/skills/notes/skill.md", notes.as_str()),
        (
            "lib/.github/chatmodes/plan.chatmode.md",
            "---\ndescription: Plans work.\ntools: [codebase]\n---\nPlan.\n",
        ),
    ]);
    save(tmp.path(), "old.json", &[]);
    let out = bin(tmp.path())
        .args(["--fail-on", "never", "--fix", "--unsafe-fixes", "-q", "lib"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(tmp.path().join("lib/skills/notes/SKILL.md").is_file());
    save(tmp.path(), "new.json", &[]);
    let (d, _) = json_of(bin(tmp.path()).args(["diff", "old.json", "new.json", "-f", "json"]));
    let moved: Vec<(String, String)> = arr(&d, "renamed")
        .iter()
        .map(|r| (s(r, "from").to_owned(), s(r, "to").to_owned()))
        .collect();
    assert!(
        moved.contains(&(
            "lib/skills/notes/skill.md".into(),
            "lib/skills/notes/SKILL.md".into()
        )),
        "{d}"
    );
    assert_eq!(moved.len(), 2, "the skill and the agent: {d}");
    for c in arr(&d, "availability_changes") {
        assert!(c["from"] != "absent" && c["to"] != "absent", "{c}");
    }
    // SA221 on the skill is the same finding at its new path: neither new nor fixed.
    for list in ["new_findings", "fixed_findings"] {
        assert!(
            arr(&d, list).iter().all(|f| f["rule"] != "SA221"),
            "{list}: {d}"
        );
    }
    let text = quiet_stdout(bin(tmp.path()).args(["diff", "old.json", "new.json"]), 0);
    assert!(
        text.contains("moved: skill notes lib/skills/notes/skill.md -> lib/skills/notes/SKILL.md"),
        "{text}"
    );
    assert!(!text.contains("absent"), "{text}");
}

#[test]
fn text_and_concise_mark_what_a_baseline_lacks() {
    let tmp = tree(&[(
        "lib/skills/a/SKILL.md",
        skill_md("a", "colour: blue\n").as_str(),
    )]);
    save(tmp.path(), "old.json", &[]);
    write(
        tmp.path(),
        "lib/skills/a/SKILL.md",
        skill_md("a", "colour: blue\nshade: x\n"),
    );
    let text = quiet_stdout(
        bin(tmp.path()).args(["--baseline", "old.json", "--fail-on", "never", "-q", "lib"]),
        0,
    );
    assert!(text.contains("warning[SA221]: [new] `shade`"), "{text}");
    assert!(text.contains("warning[SA221]: `colour`"), "{text}");
    // `-q` keeps of the summary only the line that answers a run with a baseline.
    assert!(
        text.ends_with("\n\nbaseline: 1 new finding, 0 fixed, 0 availability changes\n"),
        "{text}"
    );
    assert!(!text.contains("files scanned"), "{text}");
    let concise = quiet_stdout(
        bin(tmp.path()).args([
            "--baseline",
            "old.json",
            "--fail-on",
            "never",
            "-q",
            "-f",
            "concise",
            "lib",
        ]),
        0,
    );
    assert_eq!(concise.matches("[new]").count(), 1, "{concise}");
    let lines: Vec<&str> = concise.lines().collect();
    assert_eq!(
        lines[lines.len() - 2..],
        [
            "",
            "baseline: 1 new finding, 0 fixed, 0 availability changes"
        ],
        "{concise}"
    );
    // Without a baseline, only the findings.
    let plain = quiet_stdout(
        bin(tmp.path()).args(["--fail-on", "never", "-q", "-f", "concise", "lib"]),
        0,
    );
    assert!(!plain.contains("baseline"), "{plain}");
    assert_eq!(plain.lines().count(), 2, "{plain}");
}

/// Two skills of one name are two rows that say which is which.
#[test]
fn rows_of_one_name_are_told_apart_by_their_paths() {
    let one = skill_md("dup", "dependencies:\n  tools: [nope]\n");
    let tmp = tree(&[
        ("a/dup/SKILL.md", one.as_str()),
        ("b/dup/SKILL.md", one.as_str()),
        (
            "c/solo/SKILL.md",
            &skill_md("solo", "dependencies:\n  tools: [nope]\n"),
        ),
        ("p.json", r#"{"name": "p", "tools": []}"#),
    ]);
    let out = |format: &str| {
        quiet_stdout(
            bin(tmp.path()).args(["--fail-on", "never", "-p", "p.json", "-f", format, "."]),
            0,
        )
    };
    let markdown = out("markdown");
    assert!(markdown.contains("dup (a/dup/SKILL.md)"), "{markdown}");
    assert!(markdown.contains("dup (b/dup/SKILL.md)"), "{markdown}");
    assert!(!markdown.contains("solo ("), "{markdown}");
    // Text keeps its name column narrow: the path is a note under the row.
    let text = out("text");
    assert!(text.contains("\ndup "), "{text}");
    assert!(text.contains("\n    path: a/dup/SKILL.md\n"), "{text}");
    assert!(text.contains("\n    path: b/dup/SKILL.md\n"), "{text}");
    assert!(!text.contains("path: c/solo"), "{text}");
}

/// An agent no profile loads is counted as such, not as available where it loads.
#[test]
fn the_agent_fold_tells_agents_no_profile_loads_from_available_ones() {
    let text = quiet_stdout(
        bin(env!("CARGO_MANIFEST_DIR")).args([
            "--fail-on",
            "never",
            "--color",
            "never",
            "-p",
            "examples/profiles/dev.json",
            "examples/library",
        ]),
        0,
    );
    // Every agent folds, so the matrix is its count lines alone.
    assert!(
        text.contains("+ 1 agent available on every profile that loads them\n"),
        "{text}"
    );
    assert!(
        text.contains("+ 3 agents loaded by none of the profiles\n"),
        "{text}"
    );
}

#[test]
fn the_matrix_lists_what_needs_attention_and_counts_the_rest() {
    let prose = skill_md("prose", "");
    let tooled = skill_md("tooled", "dependencies:\n  tools: [get_order]\n");
    let missing = skill_md("missing", "dependencies:\n  tools: [nope]\n");
    let tmp = tree(&[
        ("skills/prose/SKILL.md", prose.as_str()),
        ("skills/tooled/SKILL.md", tooled.as_str()),
        ("skills/missing/SKILL.md", missing.as_str()),
        ("p.json", r#"{"name": "p", "tools": ["get_order"]}"#),
    ]);
    let text = quiet_stdout(
        bin(tmp.path()).args(["--fail-on", "never", "-p", "p.json", "."]),
        0,
    );
    let matrix = text.split("\nSKILL").nth(1).expect("a skill matrix");
    assert!(matrix.contains("\nmissing"), "{text}");
    assert!(
        !matrix.contains("\nprose") && !matrix.contains("\ntooled"),
        "{text}"
    );
    assert!(
        matrix
            .contains("+ 1 skill that needs nothing beyond the model: available on every profile"),
        "{text}"
    );
    assert!(
        matrix.contains("+ 1 skill available on every profile"),
        "{text}"
    );
    let all = quiet_stdout(
        bin(tmp.path()).args(["--fail-on", "never", "-p", "p.json", "--matrix", "all", "."]),
        0,
    );
    let matrix = all.split("\nSKILL").nth(1).unwrap();
    for row in ["\nmissing", "\nprose", "\ntooled"] {
        assert!(matrix.contains(row), "{row}: {all}");
    }
    assert!(!matrix.contains("--matrix all"), "{all}");
}

#[test]
fn a_ruff_users_habits_work_as_in_ruff() {
    // SA201, SA221 and SA224 as in `library`, a 600-line body (SA230), and a skill file in
    // the wrong case (SA108, outside SA2).
    let tmp = library();
    let long = format!("{}{}", skill_md("long", ""), "line\n".repeat(600));
    write(tmp.path(), "skills/long/SKILL.md", long);
    write(tmp.path(), "skills/lower/skill.md", skill_md("lower", ""));
    let (all, _) = json_run(tmp.path(), &["."]);
    assert_eq!(
        rules(&all),
        ["SA108", "SA201", "SA221", "SA224", "SA230"],
        "each rule the command below leaves out is found without it"
    );
    let habit = [
        "--select",
        "SA2",
        "--ignore",
        "SA230",
        "--statistics",
        "--exit-zero",
        "--output-format",
        "concise",
        ".",
    ];
    // One line per selected rule, most frequent first (ties by ID), and exit 0 although
    // SA201 is an error.
    let out = quiet_stdout(bin(tmp.path()).args(habit), 0);
    assert_eq!(
        out,
        "1\tSA201\t    name-missing\n1\tSA221\t    unknown-key\n1\tSA224\t[*] allowed-tools-commas\n"
    );
    // Without --statistics: the selected findings, one line each, then the summary.
    let without: Vec<&str> = habit
        .iter()
        .copied()
        .filter(|a| *a != "--statistics")
        .collect();
    let out = quiet_stdout(bin(tmp.path()).args(&without), 0);
    let codes: Vec<&str> = out
        .lines()
        .take_while(|l| !l.is_empty())
        .map(|l| l.split(": ").nth(1).unwrap_or(l).split(' ').next().unwrap())
        .collect();
    assert_eq!(codes, ["SA224", "SA201", "SA221"], "{out}");
    // Without --exit-zero, the error fails the run.
    let strict: Vec<&str> = habit
        .iter()
        .copied()
        .filter(|a| *a != "--exit-zero")
        .collect();
    quiet_stdout(bin(tmp.path()).args(&strict), 1);
}

#[test]
fn output_format_takes_ruffs_names_and_color_auto_does_not_colour_a_pipe() {
    let tmp = library();
    for name in ["json", "sarif", "github", "full", "concise"] {
        let long = quiet_stdout(bin(tmp.path()).args(["--output-format", name, "."]), 1);
        let short = quiet_stdout(bin(tmp.path()).args(["-f", name, "."]), 1);
        assert_eq!(long, short, "{name}");
    }
    let auto = quiet_stdout(
        bin(tmp.path())
            .env_remove("NO_COLOR")
            .args(["--color", "auto", "."]),
        1,
    );
    assert!(!auto.contains('\x1b'), "{auto}");
}

/// The `new_findings` and `fixed_findings` of `skill-audit diff OLD NEW -f json` in `dir`, as
/// `(rule, line, message)`.
fn changes(dir: &std::path::Path, old: &str, new: &str) -> [Vec<(String, u64, String)>; 2] {
    let (d, _) = json_of(bin(dir).args(["diff", old, new, "-f", "json"]));
    let list = |key: &str| -> Vec<(String, u64, String)> {
        arr(&d, key)
            .iter()
            .map(|f| {
                (
                    s(f, "rule").to_owned(),
                    f["line"].as_u64().unwrap(),
                    s(f, "message").to_owned(),
                )
            })
            .collect()
    };
    [list("new_findings"), list("fixed_findings")]
}

/// `report` (a JSON report in `dir`) as a report written before findings had fingerprints.
fn without_fingerprints(dir: &std::path::Path, report: &str, to: &str) {
    let text = std::fs::read_to_string(dir.join(report)).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let findings = v["findings"].as_array_mut().unwrap();
    assert!(!findings.is_empty());
    for f in findings {
        let f = f.as_object_mut().unwrap();
        assert!(f.remove("fingerprint").is_some(), "every finding has one");
    }
    write(dir, to, serde_json::to_string(&v).unwrap());
}

#[test]
fn a_finding_whose_line_moved_is_neither_new_nor_fixed() {
    let page = |above: &str| {
        format!(
            "{}\n{above}See [the guide](guide.md).\n",
            skill_md("a", "colour: blue\n")
        )
    };
    let tmp = tree(&[("lib/skills/a/SKILL.md", page("").as_str())]);
    save(tmp.path(), "old.json", &[]);
    without_fingerprints(tmp.path(), "old.json", "older.json");
    // Lines added above both findings: one a field, one the same broken link again.
    write(
        tmp.path(),
        "lib/skills/a/SKILL.md",
        page("Intro.\n\nAlso [the guide](guide.md).\n\n")
            .replace("colour: blue\n", "license: MIT\ncolour: blue\n"),
    );
    save(tmp.path(), "new.json", &[]);
    let link = "`guide.md` does not exist relative to this skill; fix the link or add the file";
    let [new, fixed] = changes(tmp.path(), "old.json", "new.json");
    // The link written above is new, not the one that moved from line 8 to line 13.
    assert_eq!(new, [("SA231".to_owned(), 11, link.to_owned())]);
    assert!(fixed.is_empty(), "{fixed:?}");
    let text = quiet_stdout(
        bin(tmp.path()).args([
            "--baseline",
            "old.json",
            "--fail-on",
            "never",
            "-q",
            "-f",
            "concise",
            "-p",
            "builtin:vscode",
            "lib",
        ]),
        0,
    );
    let marked: Vec<&str> = text.lines().filter(|l| l.contains("[new]")).collect();
    assert_eq!(marked.len(), 1, "{text}");
    assert!(marked[0].starts_with("lib/skills/a/SKILL.md:11:"), "{text}");
    // A baseline written before fingerprints still matches by message: nothing is fixed, and
    // one of the two alike links is new.
    let [new, fixed] = changes(tmp.path(), "older.json", "new.json");
    assert_eq!(new.len(), 1, "{new:?}");
    assert_eq!((new[0].0.as_str(), new[0].2.as_str()), ("SA231", link));
    assert!(fixed.is_empty(), "{fixed:?}");
}

#[test]
fn a_fixture_library_fixed_with_renames_diffs_without_anything_gone_and_new() {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(
        &std::path::Path::new(MANIFEST_DIR).join("examples/library"),
        &tmp.path().join("lib"),
    );
    save(tmp.path(), "old.json", &[]);
    let out = bin(tmp.path())
        .args(["--fail-on", "never", "--fix", "--unsafe-fixes", "-q", "lib"])
        .output()
        .unwrap();
    assert!(out.status.success());
    save(tmp.path(), "new.json", &[]);
    let (d, _) = json_of(bin(tmp.path()).args(["diff", "old.json", "new.json", "-f", "json"]));
    let moved: Vec<(String, String)> = arr(&d, "renamed")
        .iter()
        .map(|r| (s(r, "from").to_owned(), s(r, "to").to_owned()))
        .collect();
    assert_eq!(
        moved,
        [
            (
                "lib/chatmodes/planner.chatmode.md".to_owned(),
                "lib/chatmodes/planner.agent.md".to_owned()
            ),
            (
                "lib/skills/legacy/notes-helper/skill.md".to_owned(),
                "lib/skills/legacy/notes-helper/SKILL.md".to_owned()
            ),
        ],
        "{d}"
    );
    for c in arr(&d, "availability_changes") {
        assert!(c["from"] != "absent" && c["to"] != "absent", "{c}");
    }
    // No finding is both fixed and new, and none is on a path that is gone.
    let key = |f: &serde_json::Value| (s(f, "rule").to_owned(), s(f, "message").to_owned());
    let fixed: Vec<_> = arr(&d, "fixed_findings").iter().map(key).collect();
    for f in arr(&d, "new_findings") {
        assert!(!fixed.contains(&key(f)), "{f}");
        assert!(!s(f, "path").ends_with("chatmode.md"), "{f}");
        assert!(!s(f, "path").ends_with("/skill.md"), "{f}");
    }
    let text = quiet_stdout(bin(tmp.path()).args(["diff", "old.json", "new.json"]), 0);
    assert!(!text.contains("absent"), "{text}");
    assert_eq!(text.matches("\nmoved: ").count(), 2, "{text}");
}

#[test]
fn markdown_folds_the_rows_that_need_no_attention_unless_matrix_all() {
    let prose = skill_md("prose", "");
    let tooled = skill_md("tooled", "dependencies:\n  tools: [get_order]\n");
    let missing = skill_md("missing", "dependencies:\n  tools: [nope]\n");
    let tmp = tree(&[
        ("skills/prose/SKILL.md", prose.as_str()),
        ("skills/tooled/SKILL.md", tooled.as_str()),
        ("skills/missing/SKILL.md", missing.as_str()),
        ("p.json", r#"{"name": "p", "tools": ["get_order"]}"#),
    ]);
    let args = ["--fail-on", "never", "-p", "p.json", "-f", "markdown", "."];
    let md = quiet_stdout(bin(tmp.path()).args(args), 0);
    let (shown, folded) = md
        .split_once("<details><summary>2 skills that need no attention: 1 ✅ available, 1 ☑️ needs nothing</summary>")
        .unwrap_or_else(|| panic!("{md}"));
    assert!(
        shown.contains("### Skills that need attention (1 of 3)"),
        "{md}"
    );
    assert!(shown.contains("<code>missing</code>"), "{md}");
    assert!(!shown.contains("<code>prose</code>"), "{md}");
    let folded = folded.split("</details>").next().unwrap();
    for row in ["| <code>prose</code> |", "| <code>tooled</code> |"] {
        assert!(folded.contains(row), "{row}: {md}");
    }
    let all = quiet_stdout(bin(tmp.path()).args(args).args(["--matrix", "all"]), 0);
    assert!(all.contains("### Skills (3)"), "{all}");
    assert!(!all.contains("need no attention"), "{all}");
    for row in ["missing", "prose", "tooled"] {
        assert!(
            all.contains(&format!("| <code>{row}</code> |")),
            "{row}: {all}"
        );
    }
}

#[test]
fn awesome_copilot_lines_written_above_every_finding_change_nothing_in_a_diff() {
    let Some(corpus_dir) = corpus(AWESOME_COPILOT) else {
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let lib = work.path().join("lib");
    copy_tree(&corpus_dir, &lib);
    // `save` audits against builtin:vscode; a second host has other names for tools.
    let with = ["-p", "builtin:github-copilot"];
    save(work.path(), "old.json", &with);
    // Two comment lines at the top of every skill's and agent's frontmatter: every finding
    // in those files moves two lines down.
    let mut moved = 0;
    let mut stack = vec![lib.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                stack.push(path);
            } else if name == "SKILL.md" || name.ends_with(".agent.md") {
                let text = std::fs::read(&path).unwrap();
                if let Some(rest) = text.strip_prefix(b"---\n") {
                    let mut new = b"---\n# a comment\n# and another\n".to_vec();
                    new.extend_from_slice(rest);
                    std::fs::write(&path, new).unwrap();
                    moved += 1;
                }
            }
        }
    }
    assert!(moved > 600, "{moved} files");
    save(work.path(), "new.json", &with);
    let [new, fixed] = changes(work.path(), "old.json", "new.json");
    assert!(new.is_empty(), "{new:#?}");
    assert!(fixed.is_empty(), "{fixed:#?}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("new.json")).unwrap())
            .unwrap();
    assert!(
        arr(&report, "findings").len() > 2000,
        "the findings compared"
    );
}

#[test]
fn ignoring_policy_rules_a_library_lacks_ignores_nothing_but_selecting_them_is_an_error() {
    let tmp = library();
    let (all, _) = json_run(tmp.path(), &["."]);
    // No `[[policy]]`: `--ignore P` (or an ID or prefix of one) takes nothing away.
    for sel in ["P", "P0", "P001", "p,SA224"] {
        let (r, code) = json_run(tmp.path(), &["--ignore", sel, "."]);
        assert_eq!(code, 1, "{sel}");
        let expected: &[&str] = if sel.contains("SA224") {
            &["SA201", "SA221"]
        } else {
            &["SA201", "SA221", "SA224"]
        };
        assert_eq!(rules(&r), expected, "{sel}");
    }
    assert_eq!(rules(&all), ["SA201", "SA221", "SA224"]);
    // Asking for their findings could never be met: exit 2.
    for flag in ["--select", "--extend-select"] {
        let out = bin(tmp.path()).args([flag, "P", "."]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            format!(
                "skill-audit: error: {flag} P: names no rule; the library has no policy rules (`[[policy]]` in skill-audit.toml, docs/policy.md)\n"
            )
        );
    }
    // Neither a policy ID nor a prefix of one: a mistake, ignored or not.
    let err = stderr_of(bin(tmp.path()).args(["--ignore", "SA999", "."]), 2);
    assert!(
        err.starts_with("skill-audit: error: --ignore SA999: names no rule; use `ALL`"),
        "{err}"
    );
    // The settings file's `ignore` takes them as `--ignore` does, and its `select` as
    // `--select`.
    write(tmp.path(), "skill-audit.toml", "ignore = [\"P\"]\n");
    let (r, code) = json_run(tmp.path(), &["."]);
    assert_eq!((rules(&r), code), (rules(&all), 1));
    write(tmp.path(), "skill-audit.toml", "extend-select = [\"P\"]\n");
    let out = bin(tmp.path()).arg(".").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "skill-audit: error: skill-audit.toml:1:18: `P` in `extend-select` names no rule; the library has no policy rules (`[[policy]]` in skill-audit.toml, docs/policy.md)\n"
    );
    // With policy rules, an ID of none of them is ignored as well.
    write(
        tmp.path(),
        "skill-audit.toml",
        "[[policy]]\nid = \"P001\"\nname = \"skill-license\"\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"license\"\n",
    );
    let (r, _) = json_run(tmp.path(), &["--ignore", "P002", "."]);
    assert!(rules(&r).contains(&"P001".to_owned()), "{:?}", rules(&r));
    let (r, _) = json_run(tmp.path(), &["--ignore", "P", "."]);
    assert_eq!(rules(&r), rules(&all));
}

/// Bash completes the words after a subcommand: its options, a built-in name after `profiles`.
#[test]
fn bash_completes_after_a_subcommand() {
    let tmp = tempfile::tempdir().unwrap();
    let script = quiet_stdout(bin(tmp.path()).args(["completions", "bash"]), 0);
    std::fs::write(tmp.path().join("c.bash"), script).unwrap();
    let complete = |words: &[&str]| {
        let cur = words.last().copied().unwrap_or_default();
        let prev = words[words.len() - 2];
        let shell = format!(
            "source c.bash; COMP_WORDS=({}); COMP_CWORD={}; _skill__audit skill-audit '{cur}' '{prev}'; echo \"${{COMPREPLY[*]}}\"",
            words.join(" "),
            words.len() - 1
        );
        let out = std::process::Command::new("bash")
            .args(["-c", &shell])
            .current_dir(tmp.path())
            .output()
            .expect("bash runs");
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    assert_eq!(complete(&["skill-audit", "rule", "--con"]), "--config");
    assert_eq!(
        complete(&["skill-audit", "profiles", "clau"]),
        "claude-code"
    );
    assert!(
        complete(&["skill-audit", "to-prompt", "--incl"]).contains("--include-unavailable"),
        "a subcommand's option"
    );
}
