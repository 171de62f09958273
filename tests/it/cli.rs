//! The `skill-audit` binary: exit codes, formats, output files, profiles, discovery, the `rules`
//! and `rule` commands, and the JSON report contract.

use crate::common::*;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use predicates::prelude::*;
use serde_json::Value;
use skill_audit::Rule;
use tempfile::TempDir;

fn skill_paths(report: &Value) -> BTreeSet<String> {
    report["skills"]
        .as_array()
        .expect("skills is an array")
        .iter()
        .map(|s| s["path"].as_str().expect("path is a string").to_owned())
        .collect()
}

fn finding_codes(report: &Value) -> Vec<(String, String)> {
    report["findings"]
        .as_array()
        .expect("findings is an array")
        .iter()
        .map(|f| {
            (
                f["path"].as_str().unwrap().to_owned(),
                f["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

// ---- exit codes ---------------------------------------------------------------------------------

#[test]
fn exit_codes_follow_fail_on() {
    let clean = tree(&[("skills/ok/SKILL.md", &skill_md("ok", ""))]);
    let info = tree(&[(
        "skills/ok/SKILL.md",
        &skill_md("ok", "argument-hint: \"[x]\"\n"),
    )]);
    let warning = tree(&[("skills/ok/SKILL.md", &skill_md("ok", "descripton: typo\n"))]);
    let error = tree(&[("skills/ok/SKILL.md", "---\ndescription: no name\n---\n")]);

    // Check the fixtures are what they claim: the worst severity of each.
    let worst = |dir: &Path| -> Option<String> {
        let (v, _) = json_run(dir, &["."]);
        let sev: Vec<String> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["severity"].as_str().unwrap().to_owned())
            .collect();
        ["error", "warning", "info"]
            .into_iter()
            .find(|s| sev.iter().any(|x| x == s))
            .map(str::to_owned)
    };
    assert_eq!(worst(clean.path()), None);
    assert_eq!(worst(info.path()).as_deref(), Some("info"));
    assert_eq!(worst(warning.path()).as_deref(), Some("warning"));
    assert_eq!(worst(error.path()).as_deref(), Some("error"));

    // (fixture, default, error, warning, info, never)
    let table: [(&TempDir, i32, i32, i32, i32, i32); 4] = [
        (&clean, 0, 0, 0, 0, 0),
        (&info, 0, 0, 0, 1, 0),
        (&warning, 0, 0, 1, 1, 0),
        (&error, 1, 1, 1, 1, 0),
    ];
    for (dir, default, on_error, on_warning, on_info, never) in table {
        bin(dir.path()).arg(".").assert().code(default);
        for (level, code) in [
            ("error", on_error),
            ("warning", on_warning),
            ("info", on_info),
            ("never", never),
        ] {
            bin(dir.path())
                .args([".", "--fail-on", level])
                .assert()
                .code(code);
        }
    }
}

/// The binary as `std::process::Command`, whose standard streams can be any file or pipe
/// (assert_cmd's pipes them all).
fn raw_bin() -> std::process::Command {
    let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_skill-audit"));
    c.current_dir(MANIFEST_DIR);
    c
}

/// A standard error that takes no write (`/dev/full`) is no reason to exit otherwise than the
/// documented 0, 1 or 2. Linux only: other systems have no `/dev/full`, and the messages are
/// written by the same code there.
#[cfg(target_os = "linux")]
#[test]
fn a_standard_error_that_cannot_be_written_keeps_the_exit_codes() {
    // A misspelt key: one safe fix.
    let lib = tree(&[(
        "skills/ok/SKILL.md",
        "---\nname: ok\ndescripton: Does ok things. Use when asked.\n---\n# ok\n",
    )]);
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full opens")
    };
    let code = |cwd: &Path, args: &[&str]| {
        raw_bin()
            .current_dir(cwd)
            .args(args)
            .stdout(std::process::Stdio::null())
            .stderr(full())
            .status()
            .expect("the binary runs")
            .code()
    };
    let example = Path::new(MANIFEST_DIR);
    // `-v` writes its account on standard error; the findings still decide.
    assert_eq!(code(example, &["examples/library", "-v"]), Some(1));
    assert_eq!(
        code(example, &["examples/library", "-v", "--fail-on", "never"]),
        Some(0)
    );
    // The error message itself cannot be written.
    assert_eq!(code(example, &["no-such-folder"]), Some(2));
    // `--diff` and `--fix` write their summaries there.
    assert_eq!(code(lib.path(), &[".", "--diff"]), Some(1));
    assert_eq!(
        code(lib.path(), &[".", "--fix", "--fail-on", "never"]),
        Some(0)
    );
    // The language server logs `exit` without `shutdown` there before it exits 1.
    let frame = |body: &str| format!("Content-Length: {}\r\n\r\n{body}", body.len());
    let session = [
        r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}"#,
        r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#,
        r#"{"jsonrpc":"2.0","method":"exit"}"#,
    ]
    .map(frame)
    .concat();
    let mut lsp = raw_bin()
        .current_dir(lib.path())
        .arg("lsp")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(full())
        .spawn()
        .expect("the binary runs");
    {
        use std::io::Write;
        let mut stdin = lsp.stdin.take().expect("a pipe");
        stdin
            .write_all(session.as_bytes())
            .expect("the server reads");
    }
    assert_eq!(lsp.wait().expect("the server ends").code(), Some(1));
}

/// Standard output closed by its reader (`| head -c1`) ends the run as a full report would,
/// in every format: the HTML report's template engine reports the write as its own error.
#[cfg(unix)]
#[test]
fn a_closed_standard_output_is_a_reader_that_stopped_in_every_format() {
    for format in ["html", "json", "sarif", "markdown", "text", "concise"] {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        // Closed before anything is written: every write fails as a closed pipe.
        drop(reader);
        let out = raw_bin()
            .args(EXAMPLE)
            .args(["-f", format])
            .stdout(writer)
            .stderr(std::process::Stdio::piped())
            .output()
            .expect("the binary runs");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{format}: {err}");
        assert!(err.is_empty(), "{format}: {err}");
    }
}

#[test]
fn usage_errors_exit_2() {
    let lib = tree(&[("skills/ok/SKILL.md", &skill_md("ok", ""))]);
    bin(lib.path())
        .args([".", "--fail-on", "sometimes"])
        .assert()
        .code(2);
    bin(lib.path())
        .args([".", "--format", "yaml"])
        .assert()
        .code(2);
    bin(lib.path())
        .args(["no-such-folder"])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("no-such-folder"));
    // One good root and one missing one: still a usage error, nothing audited.
    bin(lib.path())
        .args(["skills", "missing-too"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("missing-too"));
    bin(lib.path())
        .args([".", "--exclude", "a["])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("a["));
    // `--diff` prints a diff, never a report: a format or an output file is refused, and
    // nothing is written.
    for extra in [&["-o", "x.html"][..], &["-f", "json"]] {
        bin(lib.path())
            .args([".", "--diff"])
            .args(extra)
            .assert()
            .code(2)
            .stdout(predicate::str::is_empty())
            .stderr(predicate::str::contains("--diff"));
    }
    assert!(!lib.path().join("x.html").exists());
}

// ---- formats and output --------------------------------------------------------------------------

#[test]
fn formats() {
    let lib = tree(&[("skills/ok/SKILL.md", "---\ndescription: no name\n---\n")]);
    bin(lib.path())
        .args([".", "--format", "text"])
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("error[SA201]")
                .and(predicate::str::contains(" --> skills/ok/SKILL.md:2:1\n")),
        );
    // Text is the default.
    bin(lib.path())
        .arg(".")
        .assert()
        .stdout(predicate::str::contains("error[SA201]"));
    let out = bin(lib.path())
        .args([".", "-f", "json"])
        .assert()
        .code(1)
        .get_output()
        .stdout
        .clone();
    let v: Value = serde_json::from_slice(&out).expect("JSON output parses");
    assert_eq!(v["findings"][0]["rule"], "SA201");
    bin(lib.path())
        .args([".", "--format", "markdown"])
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("<!-- skill-audit-report -->"))
        .stdout(predicate::str::contains("SA201"))
        .stdout(predicate::str::contains("skills/ok/SKILL.md:2"));
}

#[test]
fn output_file_gets_the_report_and_stdout_stays_empty() {
    let lib = tree(&[("skills/ok/SKILL.md", "---\ndescription: no name\n---\n")]);
    for (format, check) in [
        ("json", "\"SA201\""),
        ("text", "error[SA201]"),
        ("markdown", "<!-- skill-audit-report -->"),
    ] {
        let file = format!("report.{format}");
        bin(lib.path())
            .args([".", "-f", format, "-o", &file])
            .assert()
            .code(1)
            .stdout(predicate::str::is_empty());
        let written = std::fs::read_to_string(lib.path().join(&file)).unwrap();
        assert!(written.contains(check), "{format}: {written}");
        if format == "json" {
            serde_json::from_str::<Value>(&written).expect("the file holds JSON");
        }
        // Same bytes as standard output would have carried.
        let stdout = bin(lib.path())
            .args([".", "-f", format])
            .output()
            .unwrap()
            .stdout;
        assert_eq!(String::from_utf8(stdout).unwrap(), written, "{format}");
    }
    // An output path that cannot be written is an I/O error.
    bin(lib.path())
        .args([".", "-o", "no/such/dir/report.txt"])
        .assert()
        .code(2);
}

#[test]
fn dash_output_is_standard_output() {
    let lib = tree(&[("skills/ok/SKILL.md", "---\ndescription: no name\n---\n")]);
    let alone = bin(lib.path()).arg(".").output().unwrap().stdout;
    // `-` beside a file: text (no --format, no extension) on standard output, the file as asked.
    let out = bin(lib.path())
        .args([".", "-o", "-", "-o", "report.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, alone);
    let written = std::fs::read_to_string(lib.path().join("report.json")).unwrap();
    serde_json::from_str::<Value>(&written).expect("the file holds JSON");
    // With --format, `-` carries that format; `--quiet` keeps only the findings.
    let json = bin(lib.path())
        .args([".", "-f", "json", "-o", "-"])
        .output()
        .unwrap()
        .stdout;
    assert_eq!(String::from_utf8(json).unwrap(), written);
    let quiet = |extra: &[&str]| {
        bin(lib.path())
            .args([".", "-q"])
            .args(extra)
            .output()
            .unwrap()
    };
    let (dash, plain) = (quiet(&["-o", "-"]), quiet(&[]));
    assert_eq!((dash.status.code(), &dash.stdout), (Some(1), &plain.stdout));
    assert!(!String::from_utf8_lossy(&dash.stdout).contains("files scanned"));
    assert!(!lib.path().join("-").exists(), "no file named `-`");
}

#[test]
fn a_destination_given_twice_is_refused_before_anything_is_written() {
    let lib = tree(&[("skills/ok/SKILL.md", &skill_md("ok", ""))]);
    std::fs::create_dir(lib.path().join("sub")).unwrap();
    // Standard output would carry two reports, one after the other.
    let err = stderr_of(
        bin(lib.path()).args([".", "-f", "json", "-o", "-", "-o", "-"]),
        2,
    );
    assert!(err.contains("`-o -` is given twice"), "{err}");
    // One file, however spelled, would be written twice over.
    for second in ["same.json", "./same.json", "sub/../same.json"] {
        let out = bin(lib.path())
            .args([".", "-o", "same.json", "-o", second])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{second}: {err}");
        assert!(err.contains(&format!("`-o {second}`")), "{err}");
        assert!(out.stdout.is_empty());
        assert!(!lib.path().join("same.json").exists(), "{second}");
    }
    // Distinct destinations are each written.
    bin(lib.path())
        .args([".", "-o", "a.json", "-o", "sub/a.json", "-o", "-"])
        .assert()
        .code(0);
    assert!(lib.path().join("a.json").exists() && lib.path().join("sub/a.json").exists());
    // `merge` takes the same `-o`.
    let err = stderr_of(
        bin(lib.path()).args(["merge", "a.json", "-o", "m.md", "-o", "./m.md"]),
        2,
    );
    assert!(err.contains("name the same file"), "{err}");
    assert!(!lib.path().join("m.md").exists());
}

// ---- profiles ------------------------------------------------------------------------------------

#[test]
fn profile_that_does_not_parse_names_file_line_column() {
    let lib = tree(&[
        ("skills/ok/SKILL.md", &skill_md("ok", "")),
        ("profiles/bad.json", "{\n  \"tools\": [1]\n}\n"),
        ("profiles/truncated.json", "{\n  \"tools\": [\"a\",\n"),
        ("profiles/list.json", "[\"a\", \"b\"]"),
    ]);
    bin(lib.path())
        .args([".", "-p", "profiles/bad.json"])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::is_match(r"profiles/bad\.json:2:\d+: ").unwrap());
    bin(lib.path())
        .args([".", "-p", "profiles/truncated.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::is_match(r"profiles/truncated\.json:3:\d+: ").unwrap());
    bin(lib.path())
        .args([".", "-p", "profiles/list.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::is_match(r"profiles/list\.json:1:\d+: ").unwrap());
}

/// The built-in profiles' files, as shipped.
const BUILTIN_FILES: &[(&str, &str)] = &[
    (
        "claude-code",
        include_str!("../../profiles/builtin/claude-code.json"),
    ),
    ("codex", include_str!("../../profiles/builtin/codex.json")),
    (
        "copilot-cli",
        include_str!("../../profiles/builtin/copilot-cli.json"),
    ),
    ("cursor", include_str!("../../profiles/builtin/cursor.json")),
    (
        "gemini-cli",
        include_str!("../../profiles/builtin/gemini-cli.json"),
    ),
    (
        "github-copilot",
        include_str!("../../profiles/builtin/github-copilot.json"),
    ),
    (
        "openclaw",
        include_str!("../../profiles/builtin/openclaw.json"),
    ),
    (
        "opencode",
        include_str!("../../profiles/builtin/opencode.json"),
    ),
    ("vscode", include_str!("../../profiles/builtin/vscode.json")),
];

#[test]
fn profiles_name_prints_the_builtin_file() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, file) in BUILTIN_FILES {
        for arg in [name.to_string(), format!("builtin:{name}")] {
            let out = bin(tmp.path()).args(["profiles", &arg]).output().unwrap();
            assert_eq!(out.status.code(), Some(0), "{arg}");
            assert!(out.stderr.is_empty(), "{arg}");
            let text = String::from_utf8(out.stdout).unwrap();
            assert_eq!(text, *file, "{arg}: the file's text, exactly");
            let json: Value = serde_json::from_str(&text).expect("valid JSON");
            assert_eq!(json["name"], *name);
            assert!(json["checked"].is_string() && json["source"].is_string());
        }
    }
}

#[test]
fn printed_builtin_profile_loads_as_a_profile_file() {
    // Copy it, extend it, and use it with `--profile FILE`.
    let lib = tree(&[(
        ".github/agents/a.agent.md",
        "---\ndescription: d\ntools: [read/readFile, my-tool]\n---\nbody\n",
    )]);
    let out = bin(lib.path())
        .args(["profiles", "vscode"])
        .output()
        .unwrap();
    let mut profile: Value = serde_json::from_slice(&out.stdout).unwrap();
    profile["name"] = "mine".into();
    profile["tools"]
        .as_array_mut()
        .unwrap()
        .push("my-tool".into());
    write(lib.path(), "mine.json", profile.to_string());
    let (r, code) = json_run(lib.path(), &[".", "--profile", "mine.json"]);
    assert_eq!(code, 0, "{:#}", r["findings"]);
    let p = &arr(&r, "profiles")[0];
    assert_eq!(s(p, "name"), "mine");
}

#[test]
fn profiles_unknown_name_is_a_usage_error() {
    let tmp = tempfile::tempdir().unwrap();
    for arg in ["nope", "builtin:nope", "builtin:"] {
        let out = bin(tmp.path()).args(["profiles", arg]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{arg}");
        assert!(out.stdout.is_empty(), "{arg}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(arg), "{err}");
        for (name, _) in BUILTIN_FILES {
            assert!(
                err.contains(&format!("builtin:{name}")),
                "lists the known ones: {err}"
            );
        }
    }
}

#[test]
fn profiles_list_shows_when_each_was_checked() {
    let tmp = tempfile::tempdir().unwrap();
    let out = bin(tmp.path()).arg("profiles").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), BUILTIN_FILES.len(), "{text}");
    for (line, (name, file)) in text.lines().zip(BUILTIN_FILES) {
        let json: Value = serde_json::from_str(file).unwrap();
        assert!(line.starts_with(&format!("builtin:{name} ")), "{line}");
        let checked = json["checked"].as_str().unwrap();
        assert!(line.ends_with(&format!("(checked {checked})")), "{line}");
    }
}

#[test]
fn missing_profile_exits_2() {
    let lib = tree(&[("skills/ok/SKILL.md", &skill_md("ok", ""))]);
    bin(lib.path())
        .args([".", "-p", "profiles/nope.json"])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("profiles/nope.json"));
}

#[test]
fn two_profiles_with_one_name_exit_2() {
    let lib = tree(&[
        ("skills/ok/SKILL.md", &skill_md("ok", "")),
        ("a.json", r#"{"name": "prod", "tools": ["x"]}"#),
        ("b.json", r#"{"name": "prod", "tools": ["y"]}"#),
        ("one/env.json", r#"{"tools": ["x"]}"#),
        ("two/env.json", r#"{"tools": ["y"]}"#),
    ]);
    bin(lib.path())
        .args([".", "-p", "a.json", "-p", "b.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("prod"));
    // Names default to the file stem, so these clash too.
    bin(lib.path())
        .args([".", "-p", "one/env.json", "-p", "two/env.json"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("env"));
    // The same profiles with distinct names are fine.
    bin(lib.path())
        .args([".", "-p", "a.json", "-p", "one/env.json"])
        .assert()
        .code(0);
}

#[test]
fn every_profile_form_and_name_source() {
    let lib = tree(&[
        (
            "skills/needs-a/SKILL.md",
            &skill_md("needs-a", "dependencies:\n  tools: [a]\n"),
        ),
        (
            "native.json",
            r#"{"name": "production", "tools": ["a"], "servers": {"gh": {"tools": ["x", "y"]}}}"#,
        ),
        (
            "bare.json",
            r#"{"tools": [{"name": "a", "inputSchema": {}}], "nextCursor": null}"#,
        ),
        (
            "envelope.json",
            r#"{"jsonrpc": "2.0", "id": 7, "result": {"tools": [{"name": "b"}]}}"#,
        ),
        ("globs.json", r#"{"tools": ["*"]}"#),
        ("blank-name.json", r#"{"name": "  ", "tools": []}"#),
    ]);
    let (v, code) = json_run(
        lib.path(),
        &[
            ".",
            "-p",
            "native.json",
            "-p",
            "bare.json",
            "-p",
            "envelope.json",
            "-p",
            "globs.json",
            "-p",
            "blank-name.json",
        ],
    );
    assert_eq!(code, 0, "{v:#}");
    let profiles: Vec<(&str, &str, u64)> = v["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap(),
                p["path"].as_str().unwrap(),
                p["tools"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        profiles,
        [
            ("production", "native.json", 3),
            ("bare", "bare.json", 1),
            ("envelope", "envelope.json", 1),
            ("globs", "globs.json", 1),
            ("blank-name", "blank-name.json", 0),
        ]
    );
    let avail = &v["skills"][0]["availability"];
    let status = |p: &str| avail[p]["status"].as_str().unwrap().to_owned();
    assert_eq!(status("production"), "available");
    assert_eq!(status("bare"), "available");
    assert_eq!(status("envelope"), "unavailable");
    assert_eq!(avail["envelope"]["missing"], serde_json::json!(["a"]));
    assert_eq!(status("globs"), "available");
    assert_eq!(status("blank-name"), "unavailable");
}

#[test]
fn tool_name_spellings_match_each_other() {
    let spellings = [
        "github/get_issue",
        "mcp__github__get_issue",
        "github:get_issue",
    ];
    let mut files: Vec<(String, String)> = Vec::new();
    for (i, s) in spellings.iter().enumerate() {
        let name = format!("skill-{i}");
        files.push((
            format!("skills/{name}/SKILL.md"),
            skill_md(&name, &format!("dependencies:\n  tools:\n    - \"{s}\"\n")),
        ));
        files.push((format!("p{i}.json"), format!(r#"{{"tools": ["{s}"]}}"#)));
    }
    // A bare requirement is met by the server's tool; another server's tool is not the same.
    files.push((
        "skills/bare/SKILL.md".into(),
        skill_md("bare", "dependencies:\n  tools: [get_issue]\n"),
    ));
    files.push((
        "other.json".into(),
        r#"{"tools": ["gitlab/get_issue"]}"#.into(),
    ));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let lib = tree(&refs);
    let (v, _) = json_run(
        lib.path(),
        &[
            "skills",
            "-p",
            "p0.json",
            "-p",
            "p1.json",
            "-p",
            "p2.json",
            "-p",
            "other.json",
        ],
    );
    let mut seen = 0;
    for s in v["skills"].as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        for p in ["p0", "p1", "p2"] {
            assert_eq!(
                s["availability"][p]["status"], "available",
                "{name} on {p}: {:#}",
                s["availability"][p]
            );
            seen += 1;
        }
        let expected_other = if name == "bare" {
            "available"
        } else {
            "unavailable"
        };
        assert_eq!(
            s["availability"]["other"]["status"], expected_other,
            "{name} on other"
        );
    }
    assert_eq!(seen, 12);
}

#[test]
fn example_library_shows_every_profile_form_and_status() {
    let (v, code) = json_run(Path::new(MANIFEST_DIR), EXAMPLE);
    assert_eq!(code, 1, "the example library has errors");
    let profiles: Vec<(&str, &str)> = v["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["path"].as_str().unwrap()))
        .collect();
    // prod runs on VS Code with three servers (payments from a raw tools/list); staging
    // extends prod and denies; dev runs on Claude Code with a captured server.
    assert_eq!(
        profiles,
        [
            ("prod", "examples/profiles/prod.json"),
            ("staging", "examples/profiles/staging.json"),
            ("dev", "examples/profiles/dev.json"),
        ]
    );
    // prod: VS Code's tools + 3 payments + 2 kusto + 2 teams; staging: those less the kusto
    // tools and one payments tool; dev: Claude Code's tools + 2 payments + 2 server globs.
    let tools: Vec<u64> = v["profiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["tools"].as_u64().unwrap())
        .collect();
    let (prod, staging) = (tools[0], tools[1]);
    assert_eq!(prod - staging, 3, "{tools:?}");

    let by_name: BTreeMap<&str, &Value> = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s))
        .collect();
    let status = |skill: &str, profile: &str| -> String {
        by_name[skill]["availability"][profile]["status"]
            .as_str()
            .unwrap_or_else(|| panic!("{skill} has no status on {profile}"))
            .to_owned()
    };
    let expected = [
        ("triage-helper", ["unavailable", "unavailable", "available"]),
        // Its YAML does not parse: VS Code (prod, staging) loads it anyway with its own
        // reader, Claude Code (dev) with no fields, and its body runs nothing.
        (
            "broken-skill",
            ["needs-nothing", "needs-nothing", "needs-nothing"],
        ),
        ("figma-handoff", ["unavailable", "unavailable", "available"]),
        ("kusto-query", ["available", "unavailable", "unavailable"]),
        // Named `skill.md`: VS Code (prod, staging) asks the file system for `SKILL.md`, which
        // on Linux does not find it; dev's machine is macOS (laptop.json), where it does, and
        // it declares nothing and its body runs and names nothing.
        (
            "notes-helper",
            ["not-loaded", "not-loaded", "needs-nothing"],
        ),
        (
            "refund-workflow",
            ["available", "unavailable", "unavailable"],
        ),
        // Only `allowed-tools` says what it uses: VS Code (prod and staging) does not read
        // it, Claude Code (dev) does.
        ("release-notes", ["undeclared", "undeclared", "available"]),
        ("teams-search", ["available", "available", "available"]),
        // Its executables need the terminal, which VS Code (prod, staging) has; the
        // executables and the variable themselves are not judged there.
        ("weather-brief", ["available", "available", "unavailable"]),
    ];
    assert_eq!(by_name.len(), expected.len());
    let mut statuses = BTreeSet::new();
    for (skill, row) in expected {
        for (profile, want) in ["prod", "staging", "dev"].into_iter().zip(row) {
            assert_eq!(status(skill, profile), want, "{skill} on {profile}");
            statuses.insert(want);
        }
    }
    assert_eq!(
        statuses.len(),
        5,
        "every skill status these hosts give is shown"
    );

    let notes = &by_name["release-notes"]["availability"]["prod"];
    assert!(
        notes["reason"]
            .as_str()
            .is_some_and(|r| r.contains("does not read it")),
        "{notes}"
    );

    // Unavailable entries say what is missing: the denied tool, a server glob.
    let refund = &by_name["refund-workflow"]["availability"]["staging"];
    assert_eq!(refund["missing"], serde_json::json!(["get_check_details"]));
    assert!(
        refund["reason"]
            .as_str()
            .unwrap()
            .contains("get_check_details")
    );
    let kusto_dev = &by_name["kusto-query"]["availability"]["dev"];
    assert_eq!(
        kusto_dev["missing"],
        serde_json::json!(["runCommand", "kusto/*"])
    );
    let triage = &by_name["triage-helper"]["availability"]["prod"];
    assert_eq!(triage["missing"], serde_json::json!(["github/*"]));

    // Agents: each status where the environment really puts it.
    let agents: BTreeMap<&str, &Value> = v["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| (a["name"].as_str().unwrap(), a))
        .collect();
    let agent_status = |agent: &str, profile: &str| -> String {
        agents[agent]["availability"][profile]["status"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let expected = [
        ("analyst", ["available", "available", "not-loaded"]),
        ("refunds", ["partial", "partial", "not-loaded"]),
        ("planner", ["partial", "partial", "not-loaded"]),
        ("chargebacks", ["available", "available", "available"]),
    ];
    for (agent, row) in expected {
        for (profile, want) in ["prod", "staging", "dev"].into_iter().zip(row) {
            assert_eq!(agent_status(agent, profile), want, "{agent} on {profile}");
        }
    }
    assert_eq!(
        agents["refunds"]["availability"]["staging"]["missing"],
        serde_json::json!(["get_check_details", "dispute_chargeback"])
    );

    // Available, undeclared and invalid entries carry no missing list.
    for (skill, profile) in [
        ("refund-workflow", "prod"),
        ("release-notes", "prod"),
        ("broken-skill", "dev"),
    ] {
        assert!(
            by_name[skill]["availability"][profile]
                .get("missing")
                .is_none(),
            "{skill} on {profile}"
        );
    }
    assert!(
        by_name["broken-skill"]["availability"]["prod"]["reason"]
            .as_str()
            .is_some()
    );

    // One SA402 per unavailable (skill, profile) pair, naming the profile.
    let skill_files = skill_paths(&v);
    let unavailable: Vec<&Value> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "SA402" && skill_files.contains(f["path"].as_str().unwrap()))
        .collect();
    assert_eq!(unavailable.len(), 9, "{unavailable:#?}");
    assert!(unavailable.iter().any(|f| {
        f["path"] == "examples/library/skills/kusto-query/SKILL.md"
            && f["message"].as_str().unwrap().contains("`dev`")
    }));

    // Summary counts per profile.
    let sum = &v["summary"];
    assert_eq!(sum["skills"], 9);
    assert!(sum["files_scanned"].as_u64().unwrap() >= 9);
    let by_profile = &sum["by_profile"];
    assert_eq!(by_profile["staging"]["unavailable"], 4);
    assert_eq!(by_profile["prod"]["available"], 4);
    assert_eq!(by_profile["prod"]["not-judged"], 0);
    assert_eq!(by_profile["prod"]["needs-nothing"], 1);
    assert_eq!(by_profile["prod"]["not-loaded"], 1);
}

// ---- discovery ------------------------------------------------------------------------------------

#[test]
fn exclude_skips_matching_folders() {
    let lib = tree(&[
        ("skills/keep/SKILL.md", &skill_md("keep", "")),
        ("skills/drafts/wip/SKILL.md", "no frontmatter"),
        ("other/drafts/old/SKILL.md", "no frontmatter"),
        ("skills/scratch-pad/SKILL.md", &skill_md("scratch-pad", "")),
    ]);
    let (v, code) = json_run(lib.path(), &["."]);
    assert_eq!(skill_paths(&v).len(), 4);
    assert_eq!(code, 1);
    // A bare name matches that folder at any depth.
    let (v, code) = json_run(lib.path(), &[".", "--exclude", "drafts"]);
    assert_eq!(
        skill_paths(&v),
        BTreeSet::from([
            "skills/keep/SKILL.md".to_owned(),
            "skills/scratch-pad/SKILL.md".to_owned()
        ])
    );
    assert_eq!(code, 0);
    // A pattern with `/` is matched against the path under the root.
    let (v, _) = json_run(lib.path(), &[".", "--exclude", "skills/drafts"]);
    assert_eq!(skill_paths(&v).len(), 3);
    assert!(!skill_paths(&v).contains("skills/drafts/wip/SKILL.md"));
    // Globs, repeated.
    let (v, _) = json_run(
        lib.path(),
        &[".", "--exclude", "scratch-*", "--exclude", "**/old"],
    );
    assert_eq!(
        skill_paths(&v),
        BTreeSet::from([
            "skills/drafts/wip/SKILL.md".to_owned(),
            "skills/keep/SKILL.md".to_owned()
        ])
    );
}

#[test]
fn hidden_folders_are_entered_but_not_git_or_node_modules() {
    let lib = tree(&[
        (".github/skills/gh/SKILL.md", &skill_md("gh", "")),
        (".claude/skills/cl/SKILL.md", &skill_md("cl", "")),
        (".agents/skills/ag/SKILL.md", &skill_md("ag", "")),
        (".git/skills/in-git/SKILL.md", &skill_md("in-git", "")),
        ("node_modules/pkg/skills/nm/SKILL.md", &skill_md("nm", "")),
        (
            "packages/app/node_modules/dep/skills/nm2/SKILL.md",
            &skill_md("nm2", ""),
        ),
        ("sub/.git/x/SKILL.md", &skill_md("x", "")),
    ]);
    let (v, code) = json_run(lib.path(), &["."]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        skill_paths(&v),
        BTreeSet::from([
            ".agents/skills/ag/SKILL.md".to_owned(),
            ".claude/skills/cl/SKILL.md".to_owned(),
            ".github/skills/gh/SKILL.md".to_owned(),
        ])
    );
    // A hidden folder given as the root is audited too.
    let (v, _) = json_run(lib.path(), &[".github"]);
    assert_eq!(
        skill_paths(&v),
        BTreeSet::from([".github/skills/gh/SKILL.md".to_owned()])
    );
}

#[test]
fn gitignored_folders_are_skipped_without_a_git_repository() {
    let lib = tree(&[
        (".gitignore", "ignored/\n*.draft\n"),
        ("skills/kept/SKILL.md", &skill_md("kept", "")),
        ("ignored/skills/gone/SKILL.md", &skill_md("gone", "")),
        ("skills/wip.draft/SKILL.md", &skill_md("wip.draft", "")),
        ("skills/nested/.gitignore", "private/\n"),
        ("skills/nested/private/p/SKILL.md", &skill_md("p", "")),
        ("skills/nested/public/q/SKILL.md", &skill_md("q", "")),
    ]);
    assert!(!lib.path().join(".git").exists());
    let (v, _) = json_run(lib.path(), &["."]);
    assert_eq!(
        skill_paths(&v),
        BTreeSet::from([
            "skills/kept/SKILL.md".to_owned(),
            "skills/nested/public/q/SKILL.md".to_owned(),
        ])
    );
}

#[test]
fn several_roots() {
    let lib = tree(&[
        ("one/skills/a/SKILL.md", &skill_md("a", "")),
        ("two/b/SKILL.md", &skill_md("b", "")),
        ("three/c/SKILL.md", &skill_md("c", "")),
    ]);
    let (v, code) = json_run(lib.path(), &["one", "two"]);
    assert_eq!(code, 0);
    assert_eq!(v["roots"], serde_json::json!(["one", "two"]));
    assert_eq!(
        skill_paths(&v),
        BTreeSet::from([
            "one/skills/a/SKILL.md".to_owned(),
            "two/b/SKILL.md".to_owned()
        ])
    );
    // Overlapping roots list each skill once.
    let (v, _) = json_run(lib.path(), &["one", "one/skills"]);
    assert_eq!(v["skills"].as_array().unwrap().len(), 1);
}

#[test]
fn nested_skills_at_depth_four_and_more() {
    let lib = tree(&[
        ("a/b/c/d/deep/SKILL.md", &skill_md("deep", "")),
        ("a/b/c/d/e/f/g/h/deeper/SKILL.md", &skill_md("deeper", "")),
        // A SKILL.md inside another skill's folder is a file of that skill (SA114).
        ("outer/SKILL.md", &skill_md("outer", "")),
        ("outer/examples/inner/SKILL.md", &skill_md("inner", "")),
    ]);
    let (v, code) = json_run(lib.path(), &["."]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(
        skill_paths(&v),
        BTreeSet::from([
            "a/b/c/d/deep/SKILL.md".to_owned(),
            "a/b/c/d/e/f/g/h/deeper/SKILL.md".to_owned(),
            "outer/SKILL.md".to_owned(),
        ])
    );
    assert_eq!(rules_for(&v, "outer/examples/inner/SKILL.md"), ["SA114"]);
}

#[test]
fn other_casings_are_audited_with_a_warning() {
    let lib = tree(&[
        ("lower/skill.md", &skill_md("lower", "")),
        ("mixed/Skill.md", &skill_md("mixed", "")),
        ("upper/SKILL.md", &skill_md("upper", "")),
        ("not-a-skill/README.md", "# readme"),
        ("also-not/SKILLS.md", "# no"),
    ]);
    let (v, code) = json_run(lib.path(), &["."]);
    assert_eq!(code, 0, "a casing is a warning, not an error");
    assert_eq!(
        skill_paths(&v),
        BTreeSet::from([
            "lower/skill.md".to_owned(),
            "mixed/Skill.md".to_owned(),
            "upper/SKILL.md".to_owned(),
        ])
    );
    let sa108: BTreeSet<String> = finding_codes(&v)
        .into_iter()
        .filter(|(_, r)| r == "SA108")
        .map(|(p, _)| p)
        .collect();
    assert_eq!(
        sa108,
        BTreeSet::from(["lower/skill.md".to_owned(), "mixed/Skill.md".to_owned()])
    );
    bin(lib.path())
        .args([".", "--fail-on", "warning"])
        .assert()
        .code(1);
}

#[test]
fn a_folder_named_skill_md_does_not_crash() {
    let lib = tree(&[
        ("weird/SKILL.md/README.md", "# not a skill"),
        ("ok/SKILL.md", &skill_md("ok", "")),
    ]);
    std::fs::create_dir_all(lib.path().join("empty/skill.md")).unwrap();
    let (v, code) = json_run(lib.path(), &["."]);
    assert_eq!(code, 0, "{v:#}");
    assert_eq!(skill_paths(&v), BTreeSet::from(["ok/SKILL.md".to_owned()]));
    assert!(
        !finding_codes(&v)
            .iter()
            .any(|(_, r)| r == "SA199" || r == "SA100"),
        "{v:#}"
    );
}

#[test]
fn paths_are_slash_separated_and_relative_to_the_working_directory() {
    let lib = tree(&[("lib/skills/a/SKILL.md", "---\ndescription: x\n---\n")]);
    let abs_root = lib.path().join("lib");
    let abs_root = abs_root.to_str().unwrap();
    for root in ["lib", "./lib", "lib/", abs_root] {
        let (v, _) = json_run(lib.path(), &[root]);
        assert_eq!(
            skill_paths(&v),
            BTreeSet::from(["lib/skills/a/SKILL.md".to_owned()]),
            "root {root}"
        );
        assert_eq!(
            v["findings"][0]["path"], "lib/skills/a/SKILL.md",
            "root {root}"
        );
        assert_eq!(v["roots"][0], "lib", "root {root}");
    }
    // From inside the library, the same file is `skills/a/SKILL.md`.
    let (v, _) = json_run(&lib.path().join("lib"), &["."]);
    assert_eq!(
        skill_paths(&v),
        BTreeSet::from(["skills/a/SKILL.md".to_owned()])
    );
    // Profile paths follow the same rule.
    write(lib.path(), "profiles/p.json", r#"{"tools": []}"#);
    let (v, _) = json_run(lib.path(), &["lib", "-p", "./profiles/p.json"]);
    assert_eq!(v["profiles"][0]["path"], "profiles/p.json");
    // Nothing in any path uses a backslash.
    assert!(!v.to_string().contains("\\\\"));
}

#[test]
fn an_exclude_pattern_that_would_exclude_everything_is_refused() {
    let lib = tree(&[("skills/ok/SKILL.md", "---\ndescription: no name\n---\n")]);
    for pattern in ["", ".", "./", "/", "./."] {
        let err = stderr_of(bin(lib.path()).args([".", "--exclude", pattern]), 2);
        assert!(
            err.contains("--exclude pattern") && err.contains("would exclude everything"),
            "{pattern:?}: {err}"
        );
    }
    // A folder written as .gitignore writes one is no such pattern.
    let (v, code) = json_run(lib.path(), &[".", "--exclude", "./skills/"]);
    assert_eq!((skill_paths(&v).len(), code), (0, 0));
    // In the settings file, the message names the file and the place.
    for pattern in ["", "./"] {
        write(
            lib.path(),
            "skill-audit.toml",
            format!("exclude = [\"{pattern}\"]\n"),
        );
        let err = stderr_of(bin(lib.path()).arg("."), 2);
        assert!(
            err.contains("skill-audit.toml:1:12: ") && err.contains("would exclude everything"),
            "{pattern:?}: {err}"
        );
    }
}

// ---- rules and rule ---------------------------------------------------------------------------------

#[test]
fn rules_lists_every_rule_code_first_on_its_line() {
    let out = bin(Path::new(MANIFEST_DIR))
        .arg("rules")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    let firsts: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    let listed: BTreeSet<&str> = firsts.iter().copied().collect();
    let all: BTreeSet<&str> = Rule::ALL.iter().map(|r| r.code()).collect();
    assert_eq!(listed, all);
    assert_eq!(firsts.len(), Rule::ALL.len(), "one line per rule");
    for r in Rule::ALL {
        let line = text.lines().find(|l| l.starts_with(r.code())).unwrap();
        assert!(line.contains(r.name()), "{line}");
        assert!(line.contains(r.default_severity().as_str()), "{line}");
    }
}

#[test]
fn rule_prints_the_doc_by_code_or_name() {
    let doc = |id: &str| -> String {
        let out = bin(Path::new(MANIFEST_DIR))
            .args(["rule", id])
            .assert()
            .code(0)
            .get_output()
            .stdout
            .clone();
        String::from_utf8(out).unwrap()
    };
    let by_code = doc("SA201");
    let r = Rule::from_id("SA201").unwrap();
    assert!(by_code.contains("SA201") && by_code.contains("name-missing"));
    assert!(by_code.contains(r.doc().what), "{by_code}");
    assert!(by_code.contains(r.doc().why), "{by_code}");
    assert_eq!(doc("name-missing"), by_code);
    assert_eq!(doc("sa201"), by_code);
    // Every rule has a doc.
    for r in Rule::ALL {
        let d = doc(r.code());
        assert!(d.contains(r.doc().what), "{}", r.code());
    }
    bin(Path::new(MANIFEST_DIR))
        .args(["rule", "SA999"])
        .assert()
        .code(2)
        .stdout(predicate::str::is_empty())
        .stderr(predicate::str::contains("SA999"));
    bin(Path::new(MANIFEST_DIR))
        .args(["rule", "no-such-rule"])
        .assert()
        .code(2)
        .stderr(
            "skill-audit: error: unknown rule `no-such-rule`; `skill-audit rules` lists them\n",
        );
    // A name with a backtick stays one code span.
    bin(Path::new(MANIFEST_DIR))
        .args(["rule", "SA`2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown rule `` SA`2 ``;"));
    bin(Path::new(MANIFEST_DIR))
        .args(["profiles", "v`s"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "unknown built-in profile `` v`s ``;",
        ));
}

// ---- the JSON report contract -------------------------------------------------------------------

fn assert_keys(v: &Value, keys: &[&str], what: &str) {
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("{what} is not an object: {v}"));
    for k in keys {
        assert!(obj.contains_key(*k), "{what} lacks `{k}`: {v:#}");
    }
}

#[test]
fn json_report_contract() {
    let (v, _) = json_run(Path::new(MANIFEST_DIR), EXAMPLE);
    assert_keys(
        &v,
        &[
            "schema_version",
            "tool",
            "roots",
            "profiles",
            "skills",
            "findings",
            "summary",
        ],
        "report",
    );
    assert!(v["schema_version"].as_u64().is_some_and(|n| n >= 1));
    assert_eq!(v["tool"]["name"], "skill-audit");
    assert_eq!(v["tool"]["version"], VERSION);
    assert_eq!(v["roots"], serde_json::json!(["examples/library"]));
    for p in v["profiles"].as_array().unwrap() {
        assert_keys(p, &["name", "path", "tools"], "profile");
        assert!(p["name"].is_string() && p["path"].is_string() && p["tools"].is_u64());
    }
    let skills = v["skills"].as_array().unwrap();
    assert!(!skills.is_empty());
    for s in skills {
        assert_keys(
            s,
            &["name", "path", "dependencies", "availability"],
            "skill",
        );
        assert!(s["name"].is_string() && s["path"].is_string());
        assert!(s["dependencies"].is_object(), "{s:#}");
        let avail = s["availability"].as_object().unwrap();
        assert_eq!(avail.len(), 3, "one entry per profile");
        for a in avail.values() {
            assert!(
                [
                    "available",
                    "unavailable",
                    "not-judged",
                    "needs-nothing",
                    "undeclared",
                    "invalid",
                    "not-loaded"
                ]
                .contains(&a["status"].as_str().unwrap()),
                "{a}"
            );
        }
    }
    let findings = v["findings"].as_array().unwrap();
    assert!(!findings.is_empty());
    for f in findings {
        assert_keys(
            f,
            &["rule", "severity", "path", "line", "column", "message"],
            "finding",
        );
        let rule = f["rule"].as_str().unwrap();
        assert!(Rule::from_id(rule).is_some(), "unknown rule {rule}");
        assert!(["error", "warning", "info"].contains(&f["severity"].as_str().unwrap()));
        assert!(f["line"].as_u64().unwrap() >= 1 && f["column"].as_u64().unwrap() >= 1);
        assert!(!f["message"].as_str().unwrap().is_empty());
    }
    let sum = &v["summary"];
    assert_keys(
        sum,
        &["files_scanned", "skills", "errors", "warnings", "infos"],
        "summary",
    );
    let count = |sev: &str| findings.iter().filter(|f| f["severity"] == sev).count() as u64;
    assert_eq!(sum["errors"].as_u64(), Some(count("error")));
    assert_eq!(sum["warnings"].as_u64(), Some(count("warning")));
    assert_eq!(sum["infos"].as_u64(), Some(count("info")));
    assert_eq!(sum["skills"].as_u64(), Some(skills.len() as u64));
    assert!(sum["files_scanned"].as_u64().unwrap() >= skills.len() as u64);
    // The skills of this library have 2 errors, 12 warnings and 5 infos between them.
    let skill_files = skill_paths(&v);
    let on_skills = |sev: &str| {
        findings
            .iter()
            .filter(|f| f["severity"] == sev && skill_files.contains(f["path"].as_str().unwrap()))
            .count()
    };
    assert_eq!(
        (on_skills("error"), on_skills("warning"), on_skills("info")),
        (2, 12, 5),
        "{:#}",
        v["findings"]
    );
}

#[test]
fn findings_are_sorted_by_path_line_rule() {
    let lib = tree(&[
        (
            "b/b/SKILL.md",
            "---\nname: b\ndescripton: x\nzeta: 1\nalpha: 2\n---\n[x](missing.md)\n",
        ),
        ("a/a/SKILL.md", "---\ndescription: x\nfoo: 1\n---\n"),
        ("c/SKILL.md", "no frontmatter"),
        ("a/z/SKILL.md", "---\nname: a\ndescription: d\n---\n"),
    ]);
    for args in [&["."][..], EXAMPLE] {
        let dir = if args.len() == 1 {
            lib.path()
        } else {
            Path::new(MANIFEST_DIR)
        };
        let (v, _) = json_run(dir, args);
        let keys: Vec<(String, u64, String)> = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                (
                    f["path"].as_str().unwrap().to_owned(),
                    f["line"].as_u64().unwrap(),
                    f["rule"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        assert!(keys.len() >= 6, "{keys:?}");
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
    }
    // The text format lists them in the same order.
    let text = bin(lib.path()).arg(".").output().unwrap().stdout;
    let text = String::from_utf8(text).unwrap();
    let paths: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix(" --> "))
        .map(|l| l.split(':').next().unwrap())
        .collect();
    let mut sorted = paths.clone();
    sorted.sort();
    assert_eq!(paths, sorted);
    assert!(paths.len() >= 6);
}

#[test]
fn skills_without_profiles_have_empty_availability() {
    let lib = tree(&[(
        "s/SKILL.md",
        &skill_md("s", "dependencies:\n  tools: [a]\n"),
    )]);
    let (v, code) = json_run(lib.path(), &["."]);
    assert_eq!(code, 0);
    assert_eq!(v["profiles"], serde_json::json!([]));
    assert_eq!(v["skills"][0]["availability"], serde_json::json!({}));
    assert_eq!(
        v["skills"][0]["dependencies"]["tools"]["all"],
        serde_json::json!(["a"])
    );
}

/// The binary resolves relative roots against its working directory, not the test's.
#[test]
fn working_directory_matters() {
    let lib = tree(&[("x/SKILL.md", &skill_md("x", ""))]);
    let elsewhere = tempfile::tempdir().unwrap();
    bin(elsewhere.path()).arg("x").assert().code(2);
    let (v, _) = json_run(lib.path(), &["x"]);
    assert_eq!(skill_paths(&v), BTreeSet::from(["x/SKILL.md".to_owned()]));
}

#[test]
fn name_charset_flag() {
    let lib = tree(&[("技能/SKILL.md", &skill_md("技能", ""))]);
    let (v, code) = json_run(lib.path(), &["."]);
    assert_eq!(code, 1);
    assert!(finding_codes(&v).iter().any(|(_, r)| r == "SA206"), "{v:#}");
    let (v, code) = json_run(lib.path(), &[".", "--name-charset", "unicode"]);
    assert_eq!(code, 0, "{v:#}");
    assert!(!finding_codes(&v).iter().any(|(_, r)| r == "SA206"));
}

#[test]
fn a_thread_count_past_the_cores_gives_the_same_report() {
    // More threads than cores only wait: at most four per core are started, and the report
    // does not depend on how many there are.
    let json = |j: &str| {
        stdout_of(
            bin(MANIFEST_DIR)
                .args(["-j", j, "-f", "json", "--fail-on", "never"])
                .args(EXAMPLE),
            0,
        )
    };
    let one = json("1");
    assert_eq!(json("100000"), one);
    assert_eq!(json("0"), one);
}

#[test]
fn usage_errors_come_before_any_output_is_written() {
    // An `-o` file whose format cannot be told fails the run before the others are written.
    let out = tempfile::TempDir::new().unwrap();
    let (json, odd) = (out.path().join("r.json"), out.path().join("r.xyz"));
    let run = bin(MANIFEST_DIR)
        .args(EXAMPLE)
        .arg("-o")
        .arg(&json)
        .arg("-o")
        .arg(&odd)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("r.xyz"));
    assert!(!json.exists() && !odd.exists());
    // `--select P` in a library without policy rules says so.
    let run = bin(MANIFEST_DIR)
        .args(EXAMPLE)
        .args(["--select", "P"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("the library has no policy rules"), "{err}");
}

#[test]
fn a_byte_order_mark_before_a_profile_or_a_report_is_read_past() {
    // Editors on Windows write one at the start of JSON files.
    let dir = tempfile::TempDir::new().unwrap();
    let profile = dir.path().join("bom.json");
    std::fs::write(
        &profile,
        "\u{feff}{\"name\": \"bom\", \"tools\": [\"read\"]}\n",
    )
    .unwrap();
    let (r, _) = json_of(
        bin(MANIFEST_DIR)
            .arg("examples/library")
            .arg("-p")
            .arg(&profile)
            .args(["-f", "json", "--fail-on", "never"]),
    );
    assert_eq!(r["profiles"][0]["name"], "bom");
    let report = dir.path().join("report.json");
    let plain = bin(MANIFEST_DIR)
        .args(["examples/library", "-f", "json", "--fail-on", "never"])
        .output()
        .unwrap();
    let mut text = "\u{feff}".as_bytes().to_vec();
    text.extend(&plain.stdout);
    std::fs::write(&report, text).unwrap();
    let (r, _) = json_of(
        bin(MANIFEST_DIR)
            .arg("examples/library")
            .arg("--baseline")
            .arg(&report)
            .args(["-f", "json", "--fail-on", "never"]),
    );
    assert_eq!(
        arr(&r["baseline"], "new_findings").len(),
        0,
        "{:#}",
        r["baseline"]
    );
}

#[test]
fn a_baseline_that_is_no_report_is_told_so_with_what_to_pass() {
    let dir = tempfile::TempDir::new().unwrap();
    for (name, text, at, why) in [
        (
            "other.json",
            "{\"runs\": []}",
            "other.json:1:12: ",
            "has no `schema_version`",
        ),
        ("notes.txt", "hello", "notes.txt:1:1: ", "it is not JSON"),
        (
            "cut.json",
            "{\"schema_version\": 1,\n",
            "cut.json:2:0: ",
            "it ends there",
        ),
        (
            "odd.json",
            "{\"schema_version\": \"x\"}",
            "odd.json:1:22: ",
            "a report holds",
        ),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap();
        let err = stderr_of(
            bin(dir.path())
                .arg(Path::new(MANIFEST_DIR).join("examples/library"))
                .args(["--baseline", name, "--fail-on", "never"]),
            2,
        );
        assert!(
            err.contains(&format!("{at}not a skill-audit JSON report")),
            "{name}: {err}"
        );
        assert!(err.contains(why), "{name}: {err}");
        assert!(err.contains("-f json -o baseline.json"), "{name}: {err}");
        // Not the parser's own terms.
        for internal in ["missing field", "expected", "at line", "invalid type"] {
            assert!(!err.contains(internal), "{name}: {err}");
        }
    }
}

#[test]
fn a_profile_that_is_no_json_object_is_told_so_at_its_place() {
    let dir = tempfile::TempDir::new().unwrap();
    let profile = dir.path().join("p.json");
    for (text, at, says) in [
        ("[]", ":1:1:", "a profile is a JSON object"),
        ("\n  \"x\"", ":2:3:", "a profile is a JSON object"),
        ("", ":1:1:", "EOF while parsing"),
        ("{\"tools\": 3}", ":1:11:", "expected a sequence"),
    ] {
        std::fs::write(&profile, text).unwrap();
        let out = bin(MANIFEST_DIR)
            .arg("examples/library")
            .arg("-p")
            .arg(&profile)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{text:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("p.json{at} not a valid profile")),
            "{text:?}: {err}"
        );
        assert!(
            err.contains(says) && !err.contains("ProfileFile"),
            "{text:?}: {err}"
        );
    }
}

#[test]
fn a_file_audited_on_its_own_is_not_told_its_library_lacks_what_it_names() {
    // The agent's handoff and the manifest's paths name files that are there, beside it.
    for (file, rule) in [
        ("examples/library/agents/refunds.agent.md", "SA504"),
        ("examples/library/plugins/ops/plugin.json", "SA602"),
    ] {
        let (r, _) = json_run(Path::new(MANIFEST_DIR), &[file, "--fail-on", "never"]);
        assert!(findings(&r, rule).is_empty(), "{file}: {:#}", r["findings"]);
    }
    // In its library's folder, the one path that names nothing is still reported.
    let (r, _) = json_run(
        Path::new(MANIFEST_DIR),
        &["examples/library", "--fail-on", "never"],
    );
    assert_eq!(findings(&r, "SA602").len(), 1, "{:#}", r["findings"]);
    // Outside any repository the manifest alone is the whole tree: the paths it lists from
    // its library's root lead out of it, which says nothing of the library either.
    let tmp = tempfile::tempdir().unwrap();
    crate::common::copy_tree(
        &Path::new(MANIFEST_DIR).join("examples/library"),
        tmp.path(),
    );
    let (r, code) = json_run(tmp.path(), &["plugins/ops/plugin.json"]);
    assert_eq!(code, 0, "{:#}", r["findings"]);
    assert_eq!(r["findings"], serde_json::json!([]));
    // Audited with its library, a path out of the tree is still an error.
    std::fs::write(
        tmp.path().join("plugins/ops/plugin.json"),
        r#"{"name": "ops", "skills": ["../../../outside/"]}"#,
    )
    .unwrap();
    let (r, _) = json_run(tmp.path(), &[".", "--fail-on", "never"]);
    assert_eq!(findings(&r, "SA110").len(), 1, "{:#}", r["findings"]);
}

/// Mistakes of the command line get a message that says what to do: a built-in host given as
/// a bare name, one profile given twice, `--fix` beside `--diff`.
#[test]
fn common_mistakes_are_named() {
    let lib = tree(&[
        ("skills/ok/SKILL.md", &skill_md("ok", "")),
        ("p.json", r#"{"name": "p", "tools": []}"#),
    ]);
    let err = stderr_of(bin(lib.path()).args(["-p", "vscode", "."]), 2);
    assert!(err.contains("did you mean `builtin:vscode`?"), "{err}");
    // A file of that name is read as given.
    std::fs::write(lib.path().join("vscode"), r#"{"tools": []}"#).unwrap();
    stdout_of(bin(lib.path()).args(["-p", "vscode", "."]), 0);
    for twice in [["p.json", "./p.json"], ["builtin:codex", "builtin:codex"]] {
        let err = stderr_of(
            bin(lib.path()).args(["-p", twice[0], "-p", twice[1], "."]),
            2,
        );
        assert!(err.contains("is given twice"), "{err}");
    }
    let err = stderr_of(bin(lib.path()).args(["--fix", "--diff", "."]), 2);
    assert!(err.contains("--diff shows what --fix would write"), "{err}");
    // An option before a command makes the command a folder to audit.
    let err = stderr_of(
        bin(lib.path()).args(["-p", "p.json", "explain", "skills/ok"]),
        2,
    );
    assert!(
        err.contains("`explain` is a command, and a command comes first"),
        "{err}"
    );
    // An exclude that hides everything is named when nothing is found.
    let out = bin(lib.path())
        .args(["--exclude", "**", "."])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the exclude patterns `**` may have hidden what is there"),
        "{err}"
    );
    // A settings file that cannot be read has no line to point at.
    let err = stderr_of(bin(lib.path()).args(["--config", "missing.toml", "."]), 2);
    assert!(err.contains("missing.toml: cannot read: "), "{err}");
}

/// A finding with no line to show (a file left unread) takes the layout of the others: its
/// title, then its place, not a line of the concise format among them.
#[cfg(unix)]
#[test]
fn a_finding_without_a_source_line_is_laid_out_as_the_others() {
    let outside = tree(&[("SKILL.md", &skill_md("x", ""))]);
    let lib = tree(&[("skills/a/SKILL.md", &skill_md("a", ""))]);
    std::fs::create_dir_all(lib.path().join("skills/b")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("SKILL.md"),
        lib.path().join("skills/b/SKILL.md"),
    )
    .unwrap();
    let out = stdout_of(
        bin(lib.path()).args(["--fail-on", "never", "--color", "never", "."]),
        0,
    );
    assert!(
        out.contains("error[SA110]: its real path leaves the audited tree"),
        "{out}"
    );
    assert!(out.contains("\n--> skills/b/SKILL.md:1:1\n"), "{out}");
    assert!(
        !out.contains("skills/b/SKILL.md:1:1: error[SA110]"),
        "{out}"
    );
}
