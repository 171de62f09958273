//! `skill-audit mcp`, the MCP server, against real clients:
//!
//! - the official Python SDK's client (`mcp` from PyPI, `tests/support/mcp_client.py`), which
//!   `.ci/run` installs into `target/mcp-python`; when it is missing the tests install it there,
//!   and skip (saying so) only outside CI when pip cannot;
//! - skill-audit's own `capture`;
//! - raw JSON-RPC lines on the server's standard input, for what no well-behaved client sends
//!   (a line that is not JSON, a cancelled request, a client that leaves mid-request).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::common::{EXAMPLE, MANIFEST_DIR, Reaper, skill_md, write};

/// The version of the Python SDK the tests drive the server with.
const PYTHON_SDK: &str = "mcp==2.3.0";

/// How long a test waits for an answer before calling the server hung: a guard against a
/// test that never ends, not a measure of speed.
const HUNG: Duration = Duration::from_secs(120);

fn root() -> &'static Path {
    Path::new(MANIFEST_DIR)
}

fn exe() -> &'static str {
    env!("CARGO_BIN_EXE_skill-audit")
}

/// The Python of a virtual environment holding the SDK, installing it when missing; `None`
/// (after saying so) only outside CI when it cannot be installed.
fn python() -> Option<PathBuf> {
    static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let venv = root().join("target/mcp-python");
            let python = venv.join("bin/python");
            let has_sdk = |p: &Path| {
                Command::new(p)
                    .args(["-c", "import mcp.client.stdio"])
                    .stderr(Stdio::null())
                    .status()
                    .is_ok_and(|s| s.success())
            };
            if !has_sdk(&python) {
                let made = Command::new("python3")
                    .args(["-m", "venv"])
                    .arg(&venv)
                    .status()
                    .is_ok_and(|s| s.success());
                let installed = made
                    && Command::new(&python)
                        .args(["-m", "pip", "install", "--quiet", PYTHON_SDK])
                        .stdin(Stdio::null())
                        .status()
                        .is_ok_and(|s| s.success());
                if !installed || !has_sdk(&python) {
                    assert!(
                        std::env::var_os("CI").is_none(),
                        "CI must be able to install {PYTHON_SDK} (see .ci/run)"
                    );
                    eprintln!(
                        "SKIPPED: cannot install {PYTHON_SDK} with pip (no network?); the tests with the Python client did not run"
                    );
                    return None;
                }
            }
            Some(python)
        })
        .clone()
}

/// Run `calls` through the Python SDK's client against `skill-audit mcp ARGS` started in
/// `cwd`: the tool names listed and each call's outcome.
fn python_client(cwd: &Path, args: &[&str], calls: &Value) -> Option<Value> {
    let mut server: Vec<std::ffi::OsString> = vec![exe().into(), "mcp".into()];
    server.extend(args.iter().map(Into::into));
    client(cwd, &server, calls)
}

/// Run the Python SDK's client script with `client_args` (the server to start, or `--http
/// URL`), `calls` on its standard input: what it prints, or `None` where the SDK cannot be had
/// outside CI.
fn client(cwd: &Path, client_args: &[std::ffi::OsString], calls: &Value) -> Option<Value> {
    let python = python()?;
    let mut child = Command::new(python)
        .arg(root().join("tests/support/mcp_client.py"))
        .args(client_args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python runs");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(calls.to_string().as_bytes())
        .expect("calls written");
    drop(stdin);
    let out = child.wait_with_output().expect("client ends");
    assert!(
        out.status.success(),
        "the client failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(serde_json::from_slice(&out.stdout).expect("the client prints JSON"))
}

fn call(tool: &str, args: Value) -> Value {
    json!({"tool": tool, "args": args})
}

/// The status of each skill (by path) in `profile`, from the CLI's JSON report of the
/// example library.
fn matrix(profile: &str, extra: &[&str]) -> Vec<(String, String)> {
    let out = Command::new(exe())
        .args(["-f", "json", "--fail-on", "never"])
        .args(extra)
        .args(EXAMPLE)
        .current_dir(root())
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let mut rows: Vec<(String, String)> = r["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .map(|s| {
            let status = s["availability"][profile]["status"].as_str().unwrap_or("");
            (
                s["path"].as_str().unwrap_or("").to_owned(),
                status.to_owned(),
            )
        })
        .collect();
    rows.sort();
    rows
}

/// The status of each skill (by path relative to the repository) in an `available_skills`
/// answer.
fn statuses(answer: &Value) -> Vec<(String, String)> {
    let prefix = format!("{}/", root().display());
    let mut rows: Vec<(String, String)> = answer["structured"]["skills"]
        .as_array()
        .unwrap_or_else(|| panic!("no skills in {answer}"))
        .iter()
        .map(|s| {
            let location = s["location"].as_str().unwrap_or("");
            (
                location
                    .strip_prefix(&prefix)
                    .unwrap_or(location)
                    .to_owned(),
                s["status"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect();
    rows.sort();
    rows
}

#[test]
fn every_tool_answers_good_bad_and_hostile_requests_through_the_python_client() {
    // Over the arguments' bound (1 MiB), under a message's (4 MiB); and over that too.
    let huge = "x".repeat(2 << 20);
    let huger = "x".repeat(10 << 20);
    let calls = json!([
        call("available_skills", json!({})),
        call(
            "check_skill",
            json!({"name": "refund-workflow", "profile": "staging"})
        ),
        call("explain", json!({"name": "refund-workflow"})),
        call("audit", json!({"select": ["SA4"], "limit": 2})),
        call("rule", json!({"id": "SA201"})),
        call(
            "fix_preview",
            json!({"path": "examples/library/skills/broken-skill"})
        ),
        // What the model can fix: tool errors it reads.
        call("check_skill", json!({"name": "no-such-skill"})),
        call("check_skill", json!({"path": "/etc/passwd"})),
        call("explain", json!({"path": "examples/library/../../../etc"})),
        call("fix_preview", json!({"path": "examples/library/skills"})),
        call("audit", json!({"select": ["SA99999"]})),
        call("available_skills", json!({"profile": "nowhere"})),
        // What the client got wrong: JSON-RPC errors, after each of which it is still served.
        call("available_skills", json!({"tools": "Read"})),
        call("rule", json!({"id": 201})),
        call("check_skill", json!({"nmae": "refund-workflow"})),
        call("available_skills", json!({"tools": [huge]})),
        call("no_such_tool", json!({})),
        call("rule", json!({"id": "name-missing"})),
        call(
            "audit",
            json!({"paths": ["examples/library/agents"], "profiles": ["builtin:claude-code"]})
        ),
        call(
            "available_skills",
            json!({"profile": "builtin:claude-code"})
        ),
        call("available_skills", json!({"tools": [huger]})),
        call("rule", json!({"id": "SA402"})),
    ]);
    let before = std::fs::read(root().join("examples/library/skills/broken-skill/SKILL.md"))
        .expect("the example skill");
    let mut args: Vec<&str> = EXAMPLE.to_vec();
    args.retain(|a| *a != "examples/library");
    args.insert(0, "examples/library");
    let Some(out) = python_client(root(), &args, &calls) else {
        return;
    };
    assert_eq!(
        out["tools"],
        json!([
            "available_skills",
            "check_skill",
            "explain",
            "audit",
            "rule",
            "fix_preview"
        ])
    );
    let c = &out["calls"];
    let text = |i: usize| c[i]["text"].as_str().unwrap_or_default().to_owned();
    for i in 0..6 {
        assert_eq!(c[i]["is_error"], false, "call {i}: {}", c[i]);
    }
    // available_skills: the first profile, as to-prompt prints its block.
    assert_eq!(c[0]["structured"]["environment"], "prod");
    let to_prompt = Command::new(exe())
        .args([
            "to-prompt",
            "-p",
            "examples/profiles/prod.json",
            "examples/library",
        ])
        .current_dir(root())
        .output()
        .expect("to-prompt runs");
    assert_eq!(text(0), String::from_utf8_lossy(&to_prompt.stdout));
    // check_skill: what is unmet, where it is declared, and what would satisfy it.
    let check = &c[1]["structured"];
    assert_eq!(check["status"], "unavailable");
    assert_eq!(check["unmet"][0]["names"], json!(["get_check_details"]));
    assert_eq!(
        check["unmet"][0]["declared_at"],
        "examples/library/skills/refund-workflow/SKILL.md:8:1"
    );
    assert_eq!(
        check["unmet"][0]["to_satisfy"],
        "make tool `get_check_details` available"
    );
    // explain: the CLI's text.
    let explained = Command::new(exe())
        .args([
            "explain",
            "examples/library/skills/refund-workflow",
            "--root",
            "examples/library",
        ])
        .args([
            "-p",
            "examples/profiles/prod.json",
            "-p",
            "examples/profiles/staging.json",
        ])
        .args(["-p", "examples/profiles/dev.json"])
        .current_dir(root())
        .output()
        .expect("explain runs");
    assert_eq!(text(2), String::from_utf8_lossy(&explained.stdout));
    // audit: the summary first, then at most `limit` findings of the rules selected.
    let audit = &c[3]["structured"];
    assert!(
        audit["summary"]["findings"].as_u64().unwrap_or(0) > 2,
        "{audit}"
    );
    assert_eq!(audit["summary"]["truncated"], true);
    let findings = audit["findings"].as_array().expect("findings");
    assert_eq!(findings.len(), 2);
    assert!(
        findings
            .iter()
            .all(|f| f["rule"].as_str().unwrap_or("").starts_with("SA4"))
    );
    assert!(text(4).starts_with("SA201 name-missing"), "{}", text(4));
    // fix_preview: the diff `--diff` prints for that file, and the file as it was.
    assert!(
        text(5).contains("+description: 'Use when: the user asks for something'"),
        "{}",
        text(5)
    );
    let after = std::fs::read(root().join("examples/library/skills/broken-skill/SKILL.md"))
        .expect("the example skill");
    assert_eq!(before, after, "fix_preview wrote the file");

    for (i, says) in [
        (6, "no skill named `no-such-skill`"),
        (7, "`/etc/passwd` is outside the library"),
        (8, "is outside the library"),
        (9, "is neither a skill nor an agent"),
        (10, "`SA99999` is no rule"),
        (11, "no profile `nowhere`"),
    ] {
        assert_eq!(c[i]["is_error"], true, "call {i}: {}", c[i]);
        assert!(text(i).contains(says), "call {i}: {}", c[i]);
    }
    for (i, says) in [
        (12, "invalid type: string \"Read\", expected a sequence"),
        (13, "invalid type: integer `201`, expected a string"),
        (14, "unknown field `nmae`"),
        (15, "a call takes at most"),
        (16, "no tool `no_such_tool`"),
    ] {
        assert_eq!(c[i]["code"], -32602, "call {i}: {}", c[i]);
        let message = c[i]["error"].as_str().unwrap_or_default();
        assert!(message.contains(says), "call {i}: {message}");
    }
    assert_eq!(c[17]["structured"]["code"], "SA201");
    // audit: only the folder asked about, judged against the profile asked for.
    let audit = &c[18]["structured"];
    assert_eq!(
        audit["summary"]["profiles"],
        json!(["builtin:claude-code"]),
        "{audit}"
    );
    let findings = audit["findings"].as_array().expect("findings");
    assert!(!findings.is_empty());
    assert!(findings.iter().all(|f| {
        f["path"]
            .as_str()
            .is_some_and(|p| p.starts_with("examples/library/agents/"))
    }));
    assert_eq!(c[19]["structured"]["environment"], "builtin:claude-code");
    // A message over 4 MiB is answered too, with its id, and the client served after it.
    assert_eq!(c[20]["code"], -32600, "{}", c[20]);
    let message = c[20]["error"].as_str().unwrap_or_default();
    assert!(message.contains("longer than 4 MiB"), "{message}");
    assert_eq!(c[21]["structured"]["code"], "SA402", "{}", c[21]);
}

#[test]
fn available_skills_gives_the_statuses_of_the_cli_matrix() {
    let session = tempfile::tempdir().expect("temporary folder");
    let tools = [
        "get_order",
        "get_check_details",
        "dispute_chargeback_v2",
        "search_messages",
    ];
    let servers = ["kusto", "teams"];
    // The same environment as a profile file, for the CLI.
    let file = session.path().join("session.json");
    let profile = json!({
        "name": "session",
        "host": "vscode",
        "tools": tools,
        "servers": {"kusto": {"tools": ["*"]}, "teams": {"tools": ["*"]}},
    });
    std::fs::write(&file, profile.to_string()).expect("profile written");
    let mut calls: Vec<Value> = ["prod", "staging", "dev"]
        .iter()
        .map(|p| {
            call(
                "available_skills",
                json!({"profile": p, "include_unavailable": true}),
            )
        })
        .collect();
    calls.push(call(
        "available_skills",
        json!({"host": "vscode", "tools": tools, "servers": servers, "include_unavailable": true}),
    ));
    let mut args: Vec<&str> = EXAMPLE.to_vec();
    args.retain(|a| *a != "examples/library");
    args.insert(0, "examples/library");
    let Some(out) = python_client(root(), &args, &json!(calls)) else {
        return;
    };
    for (i, p) in ["prod", "staging", "dev"].iter().enumerate() {
        assert_eq!(statuses(&out["calls"][i]), matrix(p, &[]), "profile {p}");
    }
    let file = file.display().to_string();
    let with_session = matrix("session", &["-p", &file]);
    assert!(
        with_session.iter().any(|(_, s)| s == "available")
            && with_session.iter().any(|(_, s)| s == "unavailable"),
        "{with_session:?}"
    );
    assert_eq!(statuses(&out["calls"][3]), with_session);
}

#[test]
fn capture_lists_the_six_tools() {
    let out = Command::new(exe())
        .args([
            "capture",
            "--name",
            "skill-audit",
            "--",
            exe(),
            "mcp",
            "examples/library",
        ])
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("capture runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let p: Value = serde_json::from_slice(&out.stdout).expect("a profile");
    assert_eq!(p["server"]["name"], "skill-audit");
    assert_eq!(
        p["tools"],
        json!([
            "audit",
            "available_skills",
            "check_skill",
            "explain",
            "fix_preview",
            "rule"
        ])
    );
}

// ---------------------------------------------------------------------------------------------
// Raw JSON-RPC.

/// A server started on a library, spoken to line by line.
struct Raw {
    child: Reaper,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Messages read while waiting for another id: tool calls run at once, so their answers
    /// may come in any order.
    held: Vec<Value>,
}

impl Raw {
    fn start(cwd: &Path, args: &[&str]) -> Raw {
        let mut raw = Raw::spawn(cwd, args);
        raw.send(
            &json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"}}}),
        );
        assert!(raw.answer(0)["result"]["serverInfo"]["name"] == "skill-audit");
        raw.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        raw
    }

    /// A server started, its session not yet.
    fn spawn(cwd: &Path, args: &[&str]) -> Raw {
        let mut child = Command::new(exe())
            .arg("mcp")
            .args(args)
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Raw {
            child: Reaper(child),
            stdin,
            lines,
            held: Vec::new(),
        }
    }

    fn line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .expect("the server reads");
    }

    fn send(&mut self, msg: &Value) {
        self.line(&msg.to_string());
    }

    fn call(&mut self, id: u64, tool: &str, args: Value) {
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": args}}));
    }

    /// The next message the server writes, whatever it is (one held first).
    fn next(&mut self) -> Value {
        if !self.held.is_empty() {
            return self.held.remove(0);
        }
        self.read()
    }

    fn read(&mut self) -> Value {
        let line = match self.lines.recv_timeout(HUNG) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => panic!("no message from the server"),
            Err(RecvTimeoutError::Disconnected) => panic!("the server ended"),
        };
        serde_json::from_str(&line).expect("JSON-RPC on stdout")
    }

    /// The next message with `id`, holding the others for later; the ids of those held
    /// (not yet asked for) that came before it.
    fn answer_after(&mut self, id: u64) -> (Value, Vec<Value>) {
        loop {
            if let Some(at) = self.held.iter().position(|m| m["id"] == id) {
                let msg = self.held.remove(at);
                let seen = self.held[..at].iter().map(|m| m["id"].clone()).collect();
                return (msg, seen);
            }
            let msg = self.read();
            self.held.push(msg);
        }
    }

    fn answer(&mut self, id: u64) -> Value {
        self.answer_after(id).0
    }
}

/// A library of `n` skills, each with a fix to make.
fn big_library(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    for i in 0..n {
        let name = format!("s{i:04}");
        // A colon in a plain scalar: the safe fix quotes the description.
        let text = format!(
            "---\nname: {name}\ndescription: Use when: the user asks for {name}\ntools: [Read]\n---\n"
        );
        write(dir.path(), &format!("skills/{name}/SKILL.md"), text);
    }
    dir
}

#[test]
fn what_comes_before_initialize_is_dropped_or_answered_and_the_session_still_starts() {
    let mut raw = Raw::spawn(root(), &["examples/library"]);
    // Notifications and responses are dropped: rmcp would end the session on them.
    raw.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    raw.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 9}}),
    );
    raw.send(&json!({"jsonrpc": "2.0", "method": "notifications/whatever"}));
    raw.send(&json!({"jsonrpc": "2.0", "id": 1, "result": {}}));
    raw.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let a = raw.answer(2);
    let message = a["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("send `initialize` first"), "{a}");
    // An `initialize` that cannot be read is told why, in serde's words.
    raw.send(
        &json!({"jsonrpc": "2.0", "id": 3, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {}}}),
    );
    let a = raw.answer(3);
    assert_eq!(a["error"]["code"], -32602, "{a}");
    let message = a["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("missing field `name`"), "{a}");
    raw.send(&json!({"jsonrpc": "2.0", "id": 4, "method": "ping"}));
    assert!(raw.answer(4)["result"].is_object());
    raw.send(
        &json!({"jsonrpc": "2.0", "id": 5, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}}),
    );
    assert_eq!(raw.answer(5)["result"]["serverInfo"]["name"], "skill-audit");
    raw.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    raw.call(6, "rule", json!({"id": "SA201"}));
    assert_eq!(
        raw.answer(6)["result"]["structuredContent"]["code"],
        "SA201"
    );
}

#[test]
fn a_client_that_does_not_read_its_answers_stops_being_read() {
    let mut child = Command::new(exe())
        .args(["mcp", "examples/library"])
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        panic!("the server's standard streams");
    };
    let _child = Reaper(child);
    let mut answers = BufReader::new(stdout).lines();
    let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}});
    writeln!(stdin, "{init}").expect("the server reads");
    assert!(
        answers
            .next()
            .is_some_and(|l| l.is_ok_and(|l| l.contains("skill-audit")))
    );
    const SENT: u64 = 20_000;
    let (done_tx, done) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for id in 1..=SENT {
            let line = json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
            if writeln!(stdin, "{line}").is_err() {
                return;
            }
        }
        let _ = stdin.flush();
        let _ = done_tx.send(stdin);
    });
    // Nothing is read: the server takes a bounded number of requests, then stops reading,
    // and the writer waits on a full pipe.
    assert!(
        done.recv_timeout(Duration::from_secs(3)).is_err(),
        "the server read every request while none of its answers was read"
    );
    // Once the answers are read, every request is answered.
    let mut ids = std::collections::BTreeSet::new();
    for line in answers.by_ref().take(SENT as usize) {
        let a: Value = serde_json::from_str(&line.expect("a line")).expect("JSON");
        ids.insert(a["id"].as_u64().unwrap_or(0));
    }
    assert_eq!(ids.len() as u64, SENT);
    assert!(done.recv_timeout(HUNG).is_ok());
}

#[test]
fn a_line_that_is_not_json_rpc_leaves_the_server_serving() {
    let mut raw = Raw::start(root(), &["examples/library"]);
    raw.line("{this is not json");
    raw.line("[1, 2, 3]");
    raw.call(1, "rule", json!({"id": "SA201"}));
    let a = raw.answer(1);
    assert_eq!(a["result"]["structuredContent"]["code"], "SA201", "{a}");
}

#[test]
fn bad_params_of_a_method_the_server_answers_are_invalid_params_naming_what_is_wrong() {
    let mut raw = Raw::start(
        root(),
        &[
            "examples/library",
            "--serve-skills",
            "-p",
            "examples/profiles/prod.json",
        ],
    );
    let cases = [
        (
            "tools/call",
            json!({"name": "rule", "arguments": "SA402"}),
            "`arguments` of `tools/call` must be an object, not a string",
        ),
        (
            "tools/call",
            json!({"name": "rule", "arguments": ["SA402"]}),
            "`arguments` of `tools/call` must be an object, not an array",
        ),
        (
            "tools/call",
            json!({"arguments": {"id": "SA402"}}),
            "`tools/call` takes `name`, a string: it is missing",
        ),
        (
            "tools/call",
            json!({"name": 5}),
            "`name` of `tools/call` must be a string, not a number",
        ),
        (
            "tools/call",
            Value::Null,
            "`tools/call` takes params with `name`",
        ),
        (
            "resources/read",
            json!({}),
            "`resources/read` takes `uri`, a string: it is missing",
        ),
        (
            "resources/read",
            json!({"uri": 5}),
            "`uri` of `resources/read` must be a string, not a number",
        ),
        (
            "skills/get",
            json!({}),
            "`skills/get` takes `uri`, a string: it is missing",
        ),
        (
            "skills/list",
            json!({"cursor": 5}),
            "`cursor` of `skills/list` must be a string",
        ),
        (
            "ping",
            json!([1]),
            "the params of `ping` must be an object, not an array",
        ),
        // Found wrong by rmcp, deeper down: its own words, through the handler.
        (
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {}}),
            "missing field `name`",
        ),
    ];
    for (id, (method, params, says)) in (1u64..).zip(cases) {
        raw.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let a = raw.answer(id);
        assert_eq!(a["error"]["code"], -32602, "{method} {params}: {a}");
        let message = a["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{method} {params}: {a}");
    }
    // An unknown method is not found, whatever its params.
    raw.send(&json!({"jsonrpc": "2.0", "id": 100, "method": "no/such", "params": [1]}));
    assert_eq!(raw.answer(100)["error"]["code"], -32601);
    raw.call(101, "rule", json!({"id": "SA402"}));
    assert_eq!(
        raw.answer(101)["result"]["structuredContent"]["code"],
        "SA402"
    );
}

#[test]
fn what_is_not_a_request_is_answered_with_its_id_or_null() {
    let mut raw = Raw::start(root(), &["examples/library"]);
    // Each line is answered before the next is read, so each answer is the next message.
    for (line, code, id, says) in [
        (
            r#"{"id":5,"method":"ping"}"#,
            -32600,
            json!(5),
            "not JSON-RPC 2.0",
        ),
        (
            r#"{"jsonrpc":"1.0","id":"five","method":"ping"}"#,
            -32600,
            json!("five"),
            r#"`jsonrpc` must be "2.0""#,
        ),
        (
            r#"{"jsonrpc":"2.0","id":4,"method":"ping","params":[1]}"#,
            -32602,
            json!(4),
            "must be an object, not an array",
        ),
        (
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
            -32600,
            Value::Null,
            "string or an integer, not an object",
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            -32600,
            Value::Null,
            "string or an integer, not null",
        ),
        (
            r#"{"jsonrpc":"2.0","id":6,"method":7}"#,
            -32600,
            json!(6),
            "`method` must be a string",
        ),
        // A number with a fraction is no id MCP allows: what is wrong, so not given back.
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            -32600,
            Value::Null,
            "string or an integer, not 1.5",
        ),
        (
            r#"{"jsonrpc":"2.0","id":1.5,"method":"pi"#,
            -32700,
            Value::Null,
            "not JSON",
        ),
        // No id, but no request object either: not a notification, so it is answered.
        (
            r#"{"jsonrpc":"2.0","method":5}"#,
            -32600,
            Value::Null,
            "`method` must be a string",
        ),
        (
            r#"[{"jsonrpc":"2.0","id":7,"method":"ping"}]"#,
            -32600,
            Value::Null,
            "batching",
        ),
        (
            r#"{"jsonrpc":"2.0","id":8,"method":"pi"#,
            -32700,
            json!(8),
            "not JSON",
        ),
        ("{this is not json", -32700, Value::Null, "not JSON"),
    ] {
        raw.line(line);
        let a = raw.next();
        assert!(a.get("id").is_some(), "{line}: no id in {a}");
        assert_eq!(a["id"], id, "{line}: {a}");
        assert_eq!(a["error"]["code"], code, "{line}: {a}");
        let message = a["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{line}: {a}");
    }
    // Notifications and responses are never answered, even wrong ones: the next message is
    // the answer to the ping after them.
    raw.line(r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":[1]}"#);
    raw.line(r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"no"}}"#);
    raw.line(r#"{"jsonrpc":"2.0","id":9,"result":{}}"#);
    raw.send(&json!({"jsonrpc": "2.0", "id": 10, "method": "ping"}));
    let a = raw.next();
    assert_eq!((&a["id"], &a["result"]), (&json!(10), &json!({})), "{a}");
}

/// The most memory the process `pid` has held, in bytes.
#[cfg(target_os = "linux")]
fn peak_memory(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("its status");
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .expect("VmHWM");
    kb << 10
}

#[test]
fn an_over_long_line_is_answered_and_skipped_and_the_server_serves_on() {
    let mut raw = Raw::start(root(), &["examples/library"]);
    let long = |id_first: bool, mib: usize| {
        let pad = "y".repeat(mib << 20);
        let params =
            format!(r#""params":{{"name":"rule","arguments":{{"id":"SA402","x":"{pad}"}}}}"#);
        if id_first {
            format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call",{params}}}"#)
        } else {
            format!(r#"{{"jsonrpc":"2.0","method":"tools/call",{params},"id":2}}"#)
        }
    };
    // The id is read from the line's start when it comes before the padding.
    raw.line(&long(true, 5));
    let a = raw.next();
    assert_eq!((&a["id"], &a["error"]["code"]), (&json!(1), &json!(-32600)));
    let message = a["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("longer than 4 MiB"), "{message}");
    // Behind it, it is not looked for: null.
    raw.line(&long(false, 5));
    let a = raw.next();
    assert!(a.get("id").is_some_and(Value::is_null), "{a}");
    assert_eq!(a["error"]["code"], -32600, "{a}");
    // A line far longer is skipped as it arrives, never held.
    #[cfg(target_os = "linux")]
    {
        let pid = raw.child.0.id();
        let before = peak_memory(pid);
        raw.line(&long(true, 64));
        assert_eq!(raw.next()["error"]["code"], -32600);
        let grew = peak_memory(pid).saturating_sub(before);
        assert!(grew < 16 << 20, "a 64 MiB line took {grew} bytes more");
    }
    // Under the limit, the arguments' own bound answers.
    raw.line(&long(true, 2).replace(r#""id":1"#, r#""id":3"#));
    let a = raw.answer(3);
    let message = a["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("a call takes at most"), "{a}");
    raw.call(4, "rule", json!({"id": "SA402"}));
    assert_eq!(
        raw.answer(4)["result"]["structuredContent"]["code"],
        "SA402"
    );
}

#[test]
fn a_cancelled_request_is_not_answered_and_the_server_keeps_serving() {
    let lib = big_library(1000);
    let mut raw = Raw::start(lib.path(), &["."]);
    raw.call(1, "fix_preview", json!({"path": "skills/s0000"}));
    raw.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": 1, "reason": "the user stopped it"}}),
    );
    raw.call(
        2,
        "check_skill",
        json!({"name": "s0001", "tools": ["Read"]}),
    );
    let (a, _) = raw.answer_after(2);
    // Its frontmatter does not parse until the fix quotes the description.
    assert_eq!(a["result"]["structuredContent"]["status"], "invalid", "{a}");
    // The fixes of a thousand skills take far longer than reading the next line: request 1
    // was cancelled while it ran, and is never answered.
    raw.call(3, "rule", json!({"id": "SA201"}));
    let (a, seen) = raw.answer_after(3);
    assert_eq!(a["result"]["structuredContent"]["code"], "SA201", "{a}");
    raw.call(4, "fix_preview", json!({"path": "skills/s0002"}));
    let (a, later) = raw.answer_after(4);
    assert_eq!(a["result"]["structuredContent"]["fixes"], 1, "{a}");
    assert!(
        !seen.iter().chain(&later).any(|id| *id == 1),
        "{seen:?} {later:?}"
    );
}

#[test]
fn a_client_that_leaves_mid_request_leaves_nothing_running() {
    let lib = big_library(400);
    let mut raw = Raw::start(lib.path(), &["."]);
    raw.call(1, "fix_preview", json!({"path": "skills/s0000"}));
    raw.call(
        2,
        "audit",
        json!({"profiles": ["builtin:vscode", "builtin:claude-code"]}),
    );
    drop(raw.stdin.take());
    // The server ends without answering: it waits for no request of a client that left.
    let deadline = std::time::Instant::now() + HUNG;
    let status = loop {
        if let Some(s) = raw.child.0.try_wait().expect("the server's status") {
            break s;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server kept running"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status}");
}

#[test]
fn the_server_never_starts_a_program() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let marker = dir.path().join("ran");
    let out = Command::new(exe())
        .args(["mcp", "-p"])
        .arg(format!("mcp:x=touch {}", marker.display()))
        .arg(dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("contacts no other MCP server"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!marker.exists());
}

/// Replace the file at `path` with a link to `target`, and put its folder's modification
/// time back, so that the folder looks as it did to whoever compares times alone.
#[cfg(unix)]
fn swap_for_link(path: &Path, target: &Path) {
    let folder = path.parent().expect("a folder");
    let modified = std::fs::metadata(folder)
        .and_then(|m| m.modified())
        .expect("its time");
    std::fs::remove_file(path).expect("removed");
    std::os::unix::fs::symlink(target, path).expect("linked");
    std::fs::File::open(folder)
        .and_then(|f| f.set_modified(modified))
        .expect("its time put back");
}

#[cfg(unix)]
#[test]
fn a_link_swapped_in_while_serving_is_refused_as_the_audit_refuses_it() {
    let lib = tempfile::tempdir().expect("temporary folder");
    let outside = tempfile::tempdir().expect("temporary folder");
    write(lib.path(), "skills/pdf/SKILL.md", skill_md("pdf", ""));
    write(
        lib.path(),
        "skills/pdf/references/notes.md",
        "Notes on PDFs.\n",
    );
    let leak = "---\nname: pdf\ndescription: LEAKED secret. Use when asked.\n---\n";
    write(outside.path(), "SKILL.md", leak);
    write(outside.path(), "notes.md", "LEAKED notes\n");
    let mut raw = Raw::start(
        lib.path(),
        &[".", "--serve-skills", "-p", "builtin:claude-code"],
    );
    raw.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "skills/list", "params": {}}));
    let notes = "skill://skills/pdf/references/notes.md";
    assert!(raw.answer(1).to_string().contains(notes));

    // A listed file made a link leading out: reading it is refused.
    swap_for_link(
        &lib.path().join("skills/pdf/references/notes.md"),
        &outside.path().join("notes.md"),
    );
    raw.send(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read",
        "params": {"uri": notes}}),
    );
    let a = raw.answer(2);
    assert!(!a.to_string().contains("LEAKED"), "{a}");
    let message = a["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("leads outside"), "{a}");

    // The skill's own file made one: seen, though its folder's time was put back, and
    // refused as the command line refuses it.
    swap_for_link(
        &lib.path().join("skills/pdf/SKILL.md"),
        &outside.path().join("SKILL.md"),
    );
    std::thread::sleep(Duration::from_millis(1100));
    raw.call(3, "available_skills", json!({"include_unavailable": true}));
    let a = raw.answer(3);
    assert!(!a.to_string().contains("LEAKED"), "{a}");
    raw.call(4, "audit", json!({"select": ["SA110"]}));
    let a = raw.answer(4);
    let refused = |findings: &Value| -> Vec<(String, String)> {
        findings
            .as_array()
            .map(|f| {
                f.iter()
                    .map(|f| (f["rule"].to_string(), f["path"].to_string()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let served = refused(&a["result"]["structuredContent"]["findings"]);
    assert_eq!(
        served,
        [(
            r#""SA110""#.to_owned(),
            r#""skills/pdf/SKILL.md""#.to_owned()
        )],
        "{a}"
    );
    let out = Command::new(exe())
        .args(["-f", "json", "--fail-on", "never", "--select", "SA110", "."])
        .current_dir(lib.path())
        .output()
        .expect("the audit runs");
    let cli: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(served, refused(&cli["findings"]));
    raw.send(&json!({"jsonrpc": "2.0", "id": 5, "method": "skills/list", "params": {}}));
    let a = raw.answer(5);
    assert!(!a.to_string().contains("LEAKED"), "{a}");
}

#[test]
fn a_changed_file_is_seen_by_the_next_request() {
    let lib = tempfile::tempdir().expect("temporary folder");
    let md = |tools: &str| skill_md("pdf", &format!("dependencies:\n  tools: [{tools}]\n"));
    write(lib.path(), "skills/pdf/SKILL.md", md("read_pdf"));
    let mut raw = Raw::start(lib.path(), &["."]);
    let ask = json!({"name": "pdf", "tools": ["read_pdf"]});
    raw.call(1, "check_skill", ask.clone());
    assert_eq!(
        raw.answer(1)["result"]["structuredContent"]["status"],
        "available"
    );
    write(lib.path(), "skills/pdf/SKILL.md", md("read_pdf, ocr"));
    // A new skill in a new folder, too.
    write(lib.path(), "skills/ocr/SKILL.md", skill_md("ocr", ""));
    // The library is looked at again at most once a second.
    std::thread::sleep(Duration::from_millis(1100));
    raw.call(2, "check_skill", ask);
    let a = raw.answer(2);
    assert_eq!(
        a["result"]["structuredContent"]["status"], "unavailable",
        "{a}"
    );
    raw.call(3, "check_skill", json!({"name": "ocr", "tools": []}));
    assert_eq!(
        raw.answer(3)["result"]["structuredContent"]["status"],
        "needs-nothing"
    );
}

// ---------------------------------------------------------------------------------------------
// Skills served (`--serve-skills`), audited by skill-audit's own `--mcp`.

/// The audit of the skills `skill-audit mcp --serve-skills ARGS` serves, run in `cwd`.
fn audit_served(cwd: &Path, args: &[&str]) -> Value {
    let out = Command::new(exe())
        .args([
            "-f",
            "json",
            "--fail-on",
            "never",
            "--mcp",
            "--",
            exe(),
            "mcp",
            "--serve-skills",
        ])
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn served_names(r: &Value) -> Vec<String> {
    let mut names: Vec<String> = r["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .filter(|s| {
            s["path"]
                .as_str()
                .is_some_and(|p| p.starts_with("skill://"))
        })
        .map(|s| s["name"].as_str().unwrap_or("").to_owned())
        .collect();
    names.sort();
    names
}

fn mcp_findings(r: &Value) -> Vec<&Value> {
    r["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"].as_str().is_some_and(|c| c.starts_with("SA8")))
        .collect()
}

#[test]
fn served_skills_are_those_available_and_pass_the_audit_of_served_skills() {
    let r = audit_served(
        root(),
        &["examples/library", "-p", "examples/profiles/prod.json"],
    );
    assert!(mcp_findings(&r).is_empty(), "{:?}", mcp_findings(&r));
    // The skills to-prompt lists for the profile, and no other.
    let out = Command::new(exe())
        .args([
            "to-prompt",
            "-f",
            "json",
            "-p",
            "examples/profiles/prod.json",
            "examples/library",
        ])
        .current_dir(root())
        .output()
        .expect("to-prompt runs");
    let listed: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let mut names: Vec<String> = listed
        .as_array()
        .expect("a list")
        .iter()
        .map(|s| s["name"].as_str().unwrap_or("").to_owned())
        .collect();
    names.sort();
    assert!(!names.is_empty());
    assert_eq!(served_names(&r), names);

    // Marked rather than left out: every skill whose frontmatter reads.
    let r = audit_served(
        root(),
        &[
            "examples/library",
            "--mark-unavailable",
            "-p",
            "examples/profiles/staging.json",
        ],
    );
    assert!(mcp_findings(&r).is_empty(), "{:?}", mcp_findings(&r));
    let local = Command::new(exe())
        .args(["-f", "json", "--fail-on", "never", "examples/library"])
        .current_dir(root())
        .output()
        .expect("the audit runs");
    let local: Value = serde_json::from_slice(&local.stdout).expect("JSON");
    let mut valid: Vec<String> = local["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .filter(|s| s["valid"] == true)
        .map(|s| s["name"].as_str().unwrap_or("").to_owned())
        .collect();
    valid.sort();
    assert_eq!(served_names(&r), valid);
}

#[test]
fn the_corpus_served_back_has_no_finding_of_served_skills() {
    let Some(dir) = crate::common::corpus("awesome-copilot") else {
        return;
    };
    let dir = dir.display().to_string();
    let r = audit_served(
        root(),
        &[&dir, "--mark-unavailable", "-p", "builtin:vscode"],
    );
    assert!(mcp_findings(&r).is_empty(), "{:?}", mcp_findings(&r));
    assert!(served_names(&r).len() > 300, "{}", served_names(&r).len());
}

#[test]
fn served_skills_carry_their_availability_and_nothing_unlisted_is_read() {
    let mut args: Vec<&str> = vec!["examples/library", "--serve-skills", "--mark-unavailable"];
    args.extend(["-p", "examples/profiles/staging.json"]);
    let mut raw = Raw::start(root(), &args);
    raw.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "skills/list", "params": {}}));
    let a = raw.answer(1);
    let skills = a["result"]["skills"].as_array().expect("skills");
    let cli: std::collections::BTreeMap<String, String> = matrix("staging", &[])
        .into_iter()
        .map(|(path, status)| {
            let folder = path.rsplit_once('/').map_or("", |(f, _)| f).to_owned();
            (folder, status)
        })
        .collect();
    for s in skills {
        let uri = s["uri"].as_str().expect("a URI");
        let meta = &s["_meta"]["io.github.skill-audit/availability"];
        assert_eq!(meta["profile"], "staging");
        // skill://skills/NAME/SKILL.md is examples/library/skills/NAME/SKILL.md here.
        let folder = format!(
            "examples/library/{}",
            uri.trim_start_matches("skill://")
                .trim_end_matches("/SKILL.md")
        );
        assert_eq!(meta["status"], cli[&folder], "{uri}");
        assert_eq!(
            meta["available"] == false,
            meta["reason"].is_string(),
            "{s}"
        );
    }
    assert!(
        skills
            .iter()
            .any(|s| s["_meta"]["io.github.skill-audit/availability"]["available"] == false)
    );
    raw.send(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read",
        "params": {"uri": "skill://skills/../../../etc/passwd"}}),
    );
    assert!(
        raw.answer(2)["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("no resource")
    );
    raw.send(&json!({"jsonrpc": "2.0", "id": 3, "method": "skills/get",
        "params": {"uri": "skill://nowhere/SKILL.md"}}));
    assert_eq!(raw.answer(3)["error"]["code"], -32602);

    // Without --serve-skills there are none.
    let mut raw = Raw::start(root(), &["examples/library"]);
    raw.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "skills/list", "params": {}}));
    assert_eq!(raw.answer(1)["error"]["code"], -32601);
    // The error names the method asked, and what would answer it.
    raw.send(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read",
        "params": {"uri": "skill://x/SKILL.md"}}),
    );
    let a = raw.answer(2);
    assert_eq!(a["error"]["code"], -32601, "{a}");
    let message = a["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("`resources/read`") && message.contains("--serve-skills"),
        "{a}"
    );
}

#[test]
fn serving_skills_needs_a_profile() {
    let out = Command::new(exe())
        .args(["mcp", "--serve-skills", "examples/library"])
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("give one with `-p`"));
}

// ---------------------------------------------------------------------------------------------
// Streamable HTTP (`--http ADDR`).

/// A server started with `--http 127.0.0.1:0` on ARGS, and its endpoint.
fn http_server(args: &[&str]) -> (Reaper, String) {
    http_server_on("127.0.0.1:0", args)
}

/// A server started with `--http ADDR` on ARGS, and its endpoint.
fn http_server_on(addr: &str, args: &[&str]) -> (Reaper, String) {
    let mut child = Command::new(exe())
        .args(["mcp", "--http", addr])
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let url = lines
        .by_ref()
        .map_while(Result::ok)
        .find_map(|l| l.split_once("listening on ").map(|(_, url)| url.to_owned()))
        .expect("the server says where it listens");
    // Whatever else it says is read, so it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    (Reaper(child), url)
}

#[test]
fn the_python_client_and_capture_over_http() {
    let (_server, url) = http_server(&["examples/library", "-p", "examples/profiles/prod.json"]);
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{url}"
    );
    let calls = json!([
        call("available_skills", json!({"include_unavailable": true})),
        call("check_skill", json!({"name": "refund-workflow"})),
        call("check_skill", json!({"path": "/etc"})),
        call("rule", json!({"id": []})),
        call("rule", json!({"id": "SA402"})),
    ]);
    let Some(out) = client(root(), &["--http".into(), url.clone().into()], &calls) else {
        return;
    };
    let c = &out["calls"];
    assert_eq!(statuses(&c[0]), matrix("prod", &[]));
    assert_eq!(c[1]["structured"]["status"], "available", "{}", c[1]);
    assert_eq!(c[2]["is_error"], true, "{}", c[2]);
    assert_eq!(c[3]["code"], -32602, "{}", c[3]);
    assert_eq!(c[4]["structured"]["code"], "SA402", "{}", c[4]);

    let out = Command::new(exe())
        .args(["capture", "--url", &url])
        .stdin(Stdio::null())
        .output()
        .expect("capture runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let p: Value = serde_json::from_slice(&out.stdout).expect("a profile");
    assert_eq!(p["tools"].as_array().map(Vec::len), Some(6), "{p}");
}

#[test]
fn skills_served_over_http_pass_the_audit_of_served_skills() {
    let (_server, url) = http_server(&[
        "examples/library",
        "--serve-skills",
        "-p",
        "examples/profiles/prod.json",
    ]);
    let out = Command::new(exe())
        .args(["-f", "json", "--fail-on", "never", "--mcp-url", &url])
        .stdin(Stdio::null())
        .output()
        .expect("the audit runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let r: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert!(mcp_findings(&r).is_empty(), "{:?}", mcp_findings(&r));
    assert_eq!(
        served_names(&r),
        [
            "kusto-query",
            "refund-workflow",
            "teams-search",
            "weather-brief"
        ]
    );
}

/// The server's `host:port`, from its `url`, and an `initialize` request's body, for requests
/// written by hand.
fn raw_initialize(url: &str) -> (String, String) {
    let authority = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    let body = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}})
    .to_string();
    (authority, body)
}

#[test]
fn another_host_or_a_huge_body_is_refused_over_http() {
    let (_server, url) = http_server(&["examples/library"]);
    let (authority, body) = raw_initialize(&url);
    // The status line of a POST of `body` naming `host`. The request is written on a thread
    // of its own while the answer is read: a server that refuses a body before reading all
    // of it answers while the client is still writing.
    let ask = |host: &str, body: &str| {
        let s = std::net::TcpStream::connect(&authority).expect("connects");
        let mut w = s.try_clone().expect("a second handle");
        let request = format!(
            "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            body.len()
        );
        let writer = std::thread::spawn(move || {
            let _ = w.write_all(request.as_bytes());
        });
        let mut line = String::new();
        let _ = BufReader::new(s).read_line(&mut line);
        let _ = writer.join();
        line
    };
    assert!(
        ask(&authority, &body).contains(" 200 "),
        "{}",
        ask(&authority, &body)
    );
    let refused = ask("attacker.example", &body);
    assert!(refused.contains(" 403 "), "{refused}");
    // A body of 10 MB: refused whole, before it is parsed; the next request is served.
    let huge = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "rule", "arguments": {"id": "x".repeat(10 << 20)}}})
    .to_string();
    let refused = ask(&authority, &huge);
    assert!(refused.contains(" 413 "), "{refused}");
    assert!(ask(&authority, &body).contains(" 200 "));
}

#[test]
fn mcp_is_served_at_its_path_only_over_http() {
    let (_server, url) = http_server(&["examples/library"]);
    let (authority, body) = raw_initialize(&url);
    // The status line of an `initialize` posted to `path`.
    let post = |path: &str| {
        let mut s = std::net::TcpStream::connect(&authority).expect("connects");
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
             Connection: close\r\n\r\n{body}",
            body.len()
        );
        s.write_all(request.as_bytes()).expect("written");
        let mut line = String::new();
        let _ = BufReader::new(s).read_line(&mut line);
        line
    };
    for path in ["/any/other/path", "/", "/mcp/", "/mcpx", "/MCP"] {
        let status = post(path);
        assert!(status.contains(" 404 "), "{path}: {status}");
    }
    let status = post("/mcp?x=1");
    assert!(status.contains(" 200 "), "{status}");
    let status = post("/mcp");
    assert!(status.contains(" 200 "), "{status}");
}

#[test]
fn the_tools_of_each_example_profile_give_the_statuses_of_the_cli_matrix() {
    // Each example profile as a session would describe itself: its host, and the names of
    // its servers' tools, resources and prompts, composed by hand from the profile files.
    let prod_tools = [
        "payments/get_order",
        "payments/get_check_details",
        "payments/dispute_chargeback_v2",
        "kusto/list_tables",
        "kusto/run_query",
        "teams/search_messages",
        "teams/get_thread",
    ];
    let staging_tools: Vec<&str> = prod_tools
        .iter()
        .copied()
        .filter(|t| !t.starts_with("kusto/") && *t != "payments/get_check_details")
        .collect();
    let resources = ["docs://payments/refund-policy.md"];
    let prompts = ["summarize"];
    let sessions = [
        ("prod", json!({"host": "vscode", "tools": prod_tools})),
        ("staging", json!({"host": "vscode", "tools": staging_tools})),
        (
            "dev",
            json!({"host": "claude-code", "servers": ["teams", "github"], "tools": [
                "payments/dispute_chargeback", "payments/get_order",
                "figma/get_design_context", "figma/get_screenshot"]}),
        ),
    ];
    let calls: Vec<Value> = sessions
        .iter()
        .map(|(_, env)| {
            let mut args = env.clone();
            args["resources"] = json!(resources);
            args["prompts"] = json!(prompts);
            args["include_unavailable"] = json!(true);
            call("available_skills", args)
        })
        .collect();
    let mut args: Vec<&str> = EXAMPLE.to_vec();
    args.retain(|a| *a != "examples/library");
    args.insert(0, "examples/library");
    let Some(out) = python_client(root(), &args, &json!(calls)) else {
        return;
    };
    for (i, (profile, _)) in sessions.iter().enumerate() {
        let mut cli = matrix(profile, &[]);
        let mut session = statuses(&out["calls"][i]);
        if *profile == "dev" {
            // dev also describes the machine (laptop.json), which a session's lists do not:
            // the one skill that asks for executables and a variable is judged on them there
            // (the variable is missing); here only its terminal tool is, which the host has.
            let machine = "examples/library/skills/weather-brief/SKILL.md";
            let status = |rows: &[(String, String)]| {
                rows.iter()
                    .find(|(p, _)| p == machine)
                    .map(|(_, s)| s.clone())
            };
            assert_eq!(status(&session).as_deref(), Some("available"));
            cli.retain(|(p, _)| p != machine);
            session.retain(|(p, _)| p != machine);
            // Its OS (macOS) too: there a `skill.md` is found, which a session that names no
            // OS cannot count on.
            let lower = "examples/library/skills/legacy/notes-helper/skill.md";
            let of = |rows: &[(String, String)]| {
                rows.iter()
                    .find(|(p, _)| p == lower)
                    .map(|(_, s)| s.clone())
            };
            assert_eq!(of(&session).as_deref(), Some("not-loaded"));
            assert_eq!(of(&cli).as_deref(), Some("needs-nothing"));
            cli.retain(|(p, _)| p != lower);
            session.retain(|(p, _)| p != lower);
        }
        assert_eq!(session, cli, "profile {profile}");
    }
}

#[test]
fn the_rule_and_audit_tools_know_the_librarys_policy_rules() {
    let fixture = root().join("tests/data/policy");
    let calls = json!([
        call("rule", json!({"id": "acme-team"})),
        call("audit", json!({"select": ["P00"]})),
    ]);
    let Some(out) = python_client(&fixture, &["."], &calls) else {
        return;
    };
    let c = &out["calls"];
    assert_eq!(c[0]["is_error"], false, "{}", c[0]);
    assert_eq!(c[0]["structured"]["code"], "P003", "{}", c[0]);
    let rules: Vec<&str> = c[1]["structured"]["findings"]
        .as_array()
        .unwrap_or_else(|| panic!("{}", c[1]))
        .iter()
        .filter_map(|f| f["rule"].as_str())
        .collect();
    assert_eq!(rules.len(), 10, "{}", c[1]);
    assert!(rules.iter().all(|r| r.starts_with('P')), "{rules:?}");
}

/// A server that serves no skill (no `--serve-skills`) is named as the reason nothing was
/// audited, not an empty list of folders.
#[test]
fn a_server_serving_no_skill_is_said_to_serve_none() {
    let out = Command::new(exe())
        .args([
            "--fail-on",
            "never",
            "--mcp",
            "--",
            exe(),
            "mcp",
            "examples/library",
        ])
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no skill found: the MCP server serves none") && !err.contains("``"),
        "{err}"
    );
}

/// `explain` asked for a name two agents share says so and names their paths, as it does for
/// two skills of one name; an agent whose name is its own is explained.
#[test]
fn explain_names_the_agents_that_share_a_name() {
    let tmp = tempfile::tempdir().expect("temporary folder");
    let agent = |name: &str| {
        format!("---\nname: {name}\ndescription: An agent.\ntools: [read]\n---\nBody.\n")
    };
    write(tmp.path(), "agents/x/ag.agent.md", agent("ag"));
    write(tmp.path(), "agents/y/ag.agent.md", agent("ag"));
    write(tmp.path(), "agents/z/solo.agent.md", agent("solo"));
    let mut raw = Raw::start(tmp.path(), &["agents"]);
    raw.call(1, "explain", json!({"name": "ag"}));
    let a = raw.answer(1);
    assert_eq!(a["result"]["isError"], true, "{a}");
    let text = a["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(
        text.contains("2 agents are named `ag`")
            && text.contains("agents/x/ag.agent.md")
            && text.contains("agents/y/ag.agent.md")
            && text.contains("give `path`"),
        "{text}"
    );
    raw.call(2, "explain", json!({"name": "solo"}));
    let a = raw.answer(2);
    assert_eq!(a["result"]["structuredContent"]["kind"], "agent", "{a}");
}

/// A library of two skills that need a host's built-in tools, served with Claude Code's
/// profile.
fn needs_builtins() -> (tempfile::TempDir, Raw) {
    let dir = tempfile::tempdir().expect("temporary folder");
    write(
        dir.path(),
        "skills/needs-bash/SKILL.md",
        "---\nname: needs-bash\ndescription: Runs shell. Use when testing.\ndependencies:\n  tools: [Bash]\n---\nbody\n",
    );
    write(
        dir.path(),
        "skills/needs-edit/SKILL.md",
        "---\nname: needs-edit\ndescription: Edits. Use when testing.\ndependencies:\n  tools: [edit/editFiles]\n---\nbody\n",
    );
    let raw = Raw::start(dir.path(), &[".", "-p", "builtin:claude-code"]);
    (dir, raw)
}

#[test]
fn a_session_that_lists_its_tools_without_a_host_lacks_every_tool_it_leaves_out() {
    let (_dir, mut raw) = needs_builtins();
    let status = |raw: &mut Raw, id: u64, args: Value| {
        raw.call(id, "check_skill", args);
        let a = raw.answer(id);
        a["result"]["structuredContent"]["status"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    };
    let cases = [
        (
            json!({"name": "needs-bash", "tools": ["Read"]}),
            "unavailable",
        ),
        (
            json!({"name": "needs-bash", "tools": ["Bash"]}),
            "available",
        ),
        (
            json!({"name": "needs-edit", "tools": ["runCommands"]}),
            "unavailable",
        ),
        (
            json!({"name": "needs-edit", "tools": ["edit/editFiles"]}),
            "available",
        ),
        // With a host, its profile judges its own tools: `tools` adds to them.
        (
            json!({"name": "needs-bash", "tools": ["Read"], "host": "claude-code"}),
            "available",
        ),
    ];
    for (i, (args, want)) in cases.iter().enumerate() {
        assert_eq!(
            status(&mut raw, i as u64 + 1, args.clone()),
            *want,
            "{args}"
        );
    }
    raw.call(10, "available_skills", json!({"tools": ["Read"]}));
    let a = raw.answer(10);
    assert_eq!(a["result"]["structuredContent"]["skills"], json!([]), "{a}");
}

#[test]
fn available_skills_answers_a_page_at_a_time() {
    let lib = tempfile::tempdir().expect("temporary folder");
    for i in 0..120 {
        let name = format!("s{i:04}");
        write(
            lib.path(),
            &format!("skills/{name}/SKILL.md"),
            skill_md(&name, ""),
        );
    }
    let mut raw = Raw::start(lib.path(), &[".", "-p", "builtin:claude-code"]);
    raw.call(1, "available_skills", json!({}));
    let a = raw.answer(1);
    let s = &a["result"]["structuredContent"];
    assert_eq!(
        (&s["total"], &s["shown"], &s["offset"], &s["next_offset"]),
        (&json!(120), &json!(50), &json!(0), &json!(50)),
        "{s}"
    );
    // The descriptions are in the text only: the list is not sent twice.
    assert!(s["skills"][0].get("description").is_none(), "{s}");
    assert_eq!(s["skills"][0]["name"], "s0000");
    let text = a["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default();
    assert!(text.contains("<description>"), "{text}");
    assert!(
        text.contains("70 skills more") || text.contains("`offset: 50`"),
        "{text}"
    );
    raw.call(2, "available_skills", json!({"offset": 100, "limit": 1000}));
    let s = raw.answer(2)["result"]["structuredContent"].clone();
    assert_eq!(
        (&s["shown"], &s["next_offset"]),
        (&json!(20), &Value::Null),
        "{s}"
    );
    assert_eq!(s["skills"][0]["name"], "s0100");
    raw.call(3, "available_skills", json!({"offset": 121}));
    let a = raw.answer(3);
    assert_eq!(a["result"]["isError"], true, "{a}");
    // A limit of 0 is read as 1, the least: a page of none would give back its own offset as
    // `next_offset`, and a client following it would never reach the end.
    raw.call(4, "available_skills", json!({"offset": 7, "limit": 0}));
    let s = raw.answer(4)["result"]["structuredContent"].clone();
    assert_eq!(
        (&s["shown"], &s["next_offset"]),
        (&json!(1), &json!(8)),
        "{s}"
    );
    assert_eq!(s["skills"][0]["name"], "s0007");
}

#[test]
fn ambiguous_or_empty_arguments_are_refused_or_read_as_the_default() {
    let (_dir, mut raw) = needs_builtins();
    raw.call(
        1,
        "check_skill",
        json!({"name": "needs-bash", "path": "skills/needs-edit"}),
    );
    let a = raw.answer(1);
    assert_eq!(a["result"]["isError"], true, "{a}");
    raw.send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list",
        "params": {"cursor": "zzz"}}));
    let a = raw.answer(2);
    assert_eq!(a["error"]["code"], -32602, "{a}");
    raw.call(3, "audit", json!({"profiles": []}));
    raw.call(4, "audit", json!({}));
    let (empty, all) = (raw.answer(3), raw.answer(4));
    assert_eq!(
        empty["result"]["structuredContent"]["summary"],
        all["result"]["structuredContent"]["summary"]
    );
    assert_eq!(
        all["result"]["structuredContent"]["summary"]["profiles"],
        json!(["claude-code"])
    );
}

#[test]
fn limits_are_bounded_in_the_schemas() {
    let mut raw = Raw::start(root(), &["examples/library"]);
    raw.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}));
    let a = raw.answer(1);
    let tools = a["result"]["tools"].as_array().cloned().unwrap_or_default();
    let bound = |name: &str, which: &str| {
        tools
            .iter()
            .find(|t| t["name"] == name)
            .map(|t| t["inputSchema"]["properties"]["limit"][which].clone())
    };
    assert_eq!(bound("audit", "maximum"), Some(json!(500)));
    assert_eq!(bound("available_skills", "maximum"), Some(json!(200)));
    // A page holds at least one skill; `audit` may be asked for the summary alone.
    assert_eq!(bound("available_skills", "minimum"), Some(json!(1)));
    assert_eq!(bound("audit", "minimum"), Some(json!(0)));
}

/// The `resources` of the served skill at `uri`, as (URI, digest, size).
fn served_files(list: &Value, uri: &str) -> Vec<(String, String, u64)> {
    let skills = list["result"]["skills"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let Some(skill) = skills.iter().find(|s| s["uri"] == uri) else {
        panic!("{uri} is not served: {list}");
    };
    skill["resources"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|r| {
            let text = |k: &str| r[k].as_str().unwrap_or_default().to_owned();
            (text("uri"), text("digest"), r["size"].as_u64().unwrap_or(0))
        })
        .collect()
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    let hash = sha2::Sha256::digest(bytes);
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

#[test]
fn served_files_are_those_the_audit_walks_under_uris_that_round_trip() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let lib = dir.path();
    write(lib, ".gitignore", "private/\n");
    write(lib, "skills/w/SKILL.md", skill_md("w", ""));
    write(lib, "skills/w/notes.md", "notes\n");
    write(lib, "skills/w/private/credentials.txt", "API_KEY=1\n");
    write(lib, "skills/w/secret.txt", "secret\n");
    write(lib, "skills/w/a b#?.md", "odd\n");
    write(lib, "skills/w/é/x.md", "accented\n");
    // Two skills named `onchain`: the one in a folder of that name keeps the plain URI.
    let onchain = "---\nname: onchain\ndescription: The real one. Use when asked.\n---\n";
    write(lib, "skills/arein/onchain/SKILL.md", onchain);
    let other = "---\nname: onchain\ndescription: Another. Use when asked.\n---\n";
    write(lib, "skills/arein/onchain-test/SKILL.md", other);
    let args = [
        ".",
        "-p",
        "builtin:claude-code",
        "--serve-skills",
        "--mark-unavailable",
    ];
    let mut raw = Raw::start(lib, &[&args[..], &["--exclude", "secret.txt"]].concat());
    raw.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "skills/list", "params": {}}));
    let list = raw.answer(1);
    let uris: Vec<String> = served_files(&list, "skill://skills/w/SKILL.md")
        .into_iter()
        .map(|(uri, _, _)| uri)
        .collect();
    assert_eq!(
        uris,
        [
            "skill://skills/w/SKILL.md",
            "skill://skills/w/%C3%A9/x.md",
            "skill://skills/w/a%20b%23%3F.md",
            "skill://skills/w/notes.md",
        ],
        "{list}"
    );
    let descriptions: Vec<(String, String)> = list["result"]["skills"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter(|s| s["frontmatter"]["name"] == "onchain")
        .map(|s| {
            let description = s["frontmatter"]["description"].to_string();
            (s["uri"].to_string(), description)
        })
        .collect();
    assert_eq!(descriptions.len(), 2, "{list}");
    assert_ne!(descriptions[0].0, descriptions[1].0);
    let real = descriptions
        .iter()
        .find(|(uri, _)| uri.contains("skill://skills/arein/onchain/SKILL.md"));
    assert!(
        real.is_some_and(|(_, d)| d.contains("The real one")),
        "{descriptions:?}"
    );
    raw.send(
        &json!({"jsonrpc": "2.0", "id": 2, "method": "resources/read",
        "params": {"uri": "skill://skills/w/a%20b%23%3F.md"}}),
    );
    let a = raw.answer(2);
    assert_eq!(a["result"]["contents"][0]["text"], "odd\n", "{a}");

    // A served file the audit does not read is edited: the listing follows it.
    write(lib, "skills/w/notes.md", "notes, edited\n");
    raw.send(
        &json!({"jsonrpc": "2.0", "id": 3, "method": "resources/read",
        "params": {"uri": "skill://skills/w/notes.md"}}),
    );
    let a = raw.answer(3);
    let text = a["result"]["contents"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    raw.send(&json!({"jsonrpc": "2.0", "id": 4, "method": "skills/list", "params": {}}));
    let list = raw.answer(4);
    let notes = served_files(&list, "skill://skills/w/SKILL.md")
        .into_iter()
        .find(|(uri, _, _)| uri.ends_with("/notes.md"));
    assert_eq!(
        notes.map(|(_, digest, size)| (digest, size)),
        Some((sha256(text.as_bytes()), text.len() as u64)),
        "{list}"
    );
    assert_eq!(text, "notes, edited\n");
    // Only a cursor the server gave is taken; the one-page lists take none.
    for (id, method, cursor) in [
        (5, "skills/list", "99999"),
        (6, "skills/list", "+1"),
        (7, "resources/list", "abc"),
        (8, "resources/templates/list", "abc"),
    ] {
        raw.send(&json!({"jsonrpc": "2.0", "id": id, "method": method,
            "params": {"cursor": cursor}}));
        let a = raw.answer(id);
        assert_eq!(a["error"]["code"], -32602, "{method} {cursor}: {a}");
    }
}

#[test]
fn the_audit_tool_refuses_repeated_or_too_many_profiles() {
    let mut raw = Raw::start(root(), &["examples/library"]);
    raw.call(
        1,
        "audit",
        json!({"profiles": ["builtin:vscode", "builtin:vscode"]}),
    );
    let a = raw.answer(1);
    let text = a.to_string();
    assert!(text.contains("more than once"), "{a}");
    let many: Vec<String> = (0..100).map(|i| format!("builtin:x{i}")).collect();
    raw.call(2, "audit", json!({"profiles": many}));
    let a = raw.answer(2);
    assert!(a.to_string().contains("at most"), "{a}");
}

/// The status line of an `initialize` POSTed to `authority`.
fn http_initialize(authority: &str, body: &str) -> String {
    let mut line = String::new();
    let _ = http_post(authority, authority, "", body).read_line(&mut line);
    line
}

/// `body` POSTed to `authority`, naming `host`, with the `headers` (each line ending in
/// `\r\n`) besides those every request has, and the connection to read the answer from.
fn http_post(
    authority: &str,
    host: &str,
    headers: &str,
    body: &str,
) -> BufReader<std::net::TcpStream> {
    let mut s = std::net::TcpStream::connect(authority).expect("connects");
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\n{headers}Content-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = s.write_all(request.as_bytes());
    BufReader::new(s)
}

/// The `Mcp-Session-Id` of a session opened with the `initialize` of `body`.
fn http_session(authority: &str, body: &str) -> String {
    http_post(authority, authority, "", body)
        .lines()
        .map_while(Result::ok)
        .take_while(|l| !l.is_empty())
        .find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_owned())
        })
        .expect("a session id")
}

#[test]
fn connections_and_sessions_over_http_are_bounded() {
    let (_server, url) = http_server(&["examples/library"]);
    let (authority, body) = raw_initialize(&url);
    // A connection that never finishes its headers is closed.
    let mut idle = std::net::TcpStream::connect(&authority).expect("connects");
    idle.write_all(b"POST /mcp HTTP/1.1\r\nHost: ")
        .expect("writes");
    idle.set_read_timeout(Some(Duration::from_secs(60)))
        .expect("a timeout");
    let mut rest = Vec::new();
    let started = std::time::Instant::now();
    let _ = std::io::Read::read_to_end(&mut idle, &mut rest);
    assert!(started.elapsed() < Duration::from_secs(50), "never closed");
    // Connections past the cap are answered 503 at once; the others are served.
    let open: Vec<std::net::TcpStream> = (0..256)
        .map(|_| std::net::TcpStream::connect(&authority).expect("connects"))
        .collect();
    let line = http_initialize(&authority, &body);
    assert!(line.contains(" 503 "), "{line}");
    drop(open);
    std::thread::sleep(Duration::from_millis(300));
    // Sessions past the cap are refused with 503 and a reason.
    let mut statuses = Vec::new();
    for _ in 0..1001 {
        statuses.push(http_initialize(&authority, &body));
    }
    assert!(
        statuses[..1000].iter().all(|l| l.contains(" 200 ")),
        "{statuses:?}"
    );
    assert!(statuses[1000].contains(" 503 "), "{}", statuses[1000]);
}

#[test]
fn a_listing_reads_a_bounded_number_of_bytes() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let lib = dir.path();
    write(lib, "skills/w/SKILL.md", skill_md("w", ""));
    // Files of 9 MiB each (sparse where the file system allows), 288 MiB in all.
    for i in 0..32 {
        let path = lib.join(format!("skills/w/data/f{i:02}.bin"));
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("a folder");
        let file = std::fs::File::create(&path).expect("a file");
        file.set_len(9 << 20).expect("a length");
    }
    let args = [".", "-p", "builtin:claude-code", "--serve-skills"];
    let mut raw = Raw::start(lib, &args);
    raw.send(&json!({"jsonrpc": "2.0", "id": 1, "method": "skills/list", "params": {}}));
    let list = raw.answer(1);
    let files = served_files(&list, "skill://skills/w/SKILL.md");
    let total: u64 = files.iter().map(|(_, _, size)| size).sum();
    assert!(total <= 256 << 20, "{total} bytes listed");
    assert!(files.len() > 1 && files.len() < 33, "{} files", files.len());
}

#[test]
fn ending_a_session_over_http_is_answered_200() {
    let (_server, url) = http_server(&["examples/library"]);
    let (authority, body) = raw_initialize(&url);
    let session = http_session(&authority, &body);
    let mut s = std::net::TcpStream::connect(&authority).expect("connects");
    let request = format!(
        "DELETE /mcp HTTP/1.1\r\nHost: {authority}\r\nMcp-Session-Id: {session}\r\n\
         Connection: close\r\n\r\n"
    );
    s.write_all(request.as_bytes()).expect("writes");
    let mut line = String::new();
    let _ = BufReader::new(s).read_line(&mut line);
    assert!(line.contains(" 200 "), "{line}");
}

#[test]
fn a_second_initialize_is_refused_and_the_session_goes_on() {
    let mut raw = Raw::start(root(), &["examples/library"]);
    raw.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-03-26", "capabilities": {},
        "clientInfo": {"name": "again", "version": "1"}}}),
    );
    let a = raw.answer(1);
    assert_eq!(a["error"]["code"], -32600, "{a}");
    raw.call(2, "rule", json!({"id": "SA201"}));
    assert_eq!(
        raw.answer(2)["result"]["structuredContent"]["code"],
        "SA201"
    );

    // Over HTTP, within one session.
    let (_server, url) = http_server(&["examples/library"]);
    let (authority, body) = raw_initialize(&url);
    let session = http_session(&authority, &body);
    let headers = format!("Mcp-Session-Id: {session}\r\nMcp-Protocol-Version: 2025-06-18\r\n");
    let mut answer = String::new();
    let _ = std::io::Read::read_to_string(
        &mut http_post(
            &authority,
            &authority,
            &headers,
            &body.replace(r#""id":0"#, r#""id":1"#),
        ),
        &mut answer,
    );
    assert!(
        answer.contains(r#""id":1,"error":{"code":-32600"#),
        "{answer}"
    );
}

#[test]
fn any_loopback_address_the_server_is_bound_to_is_a_host_it_takes() {
    // Not every system routes all of 127.0.0.0/8 to the loopback interface.
    if std::net::TcpListener::bind("127.0.0.2:0").is_err() {
        eprintln!("SKIPPED: 127.0.0.2 cannot be bound here");
        return;
    }
    let (_server, url) = http_server_on("127.0.0.2:0", &["examples/library"]);
    let (authority, body) = raw_initialize(&url);
    let line = http_initialize(&authority, &body);
    assert!(line.contains(" 200 "), "{line}");
    // Another name is still refused: the guard against DNS rebinding holds.
    let mut line = String::new();
    let _ = http_post(&authority, "attacker.example", "", &body).read_line(&mut line);
    assert!(line.contains(" 403 "), "{line}");
}

#[test]
fn a_request_from_a_web_page_elsewhere_is_refused_over_http() {
    let (_server, url) = http_server(&["examples/library"]);
    let (authority, body) = raw_initialize(&url);
    let status = |origin: &str| {
        let mut line = String::new();
        let _ = http_post(
            &authority,
            &authority,
            &format!("Origin: {origin}\r\n"),
            &body,
        )
        .read_line(&mut line);
        line
    };
    for origin in [
        "http://attacker.example",
        "http://attacker.example:8765",
        "https://127.0.0.1.attacker.example",
        "null",
        "file://",
    ] {
        let line = status(origin);
        assert!(line.contains(" 403 "), "{origin}: {line}");
    }
    for origin in [
        "http://localhost:3000",
        "http://LOCALHOST",
        "http://127.0.0.1",
        "http://127.1.2.3:8080",
        "http://[::1]:5173",
        "https://localhost:8443",
    ] {
        let line = status(origin);
        assert!(line.contains(" 200 "), "{origin}: {line}");
    }
    let line = http_initialize(&authority, &body);
    assert!(line.contains(" 200 "), "{line}");
}

#[test]
fn a_body_sent_too_slowly_is_answered_408() {
    let (_server, url) = http_server(&["examples/library"]);
    let (authority, body) = raw_initialize(&url);
    let mut s = std::net::TcpStream::connect(&authority).expect("connects");
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {authority}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n{}",
        body.len(),
        &body[..10]
    );
    s.write_all(request.as_bytes()).expect("writes");
    s.set_read_timeout(Some(Duration::from_secs(60)))
        .expect("a timeout");
    let started = std::time::Instant::now();
    let mut answer = String::new();
    let _ = std::io::Read::read_to_string(&mut s, &mut answer);
    assert!(
        started.elapsed() < Duration::from_secs(50),
        "never answered"
    );
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    let line = http_initialize(&authority, &body);
    assert!(line.contains(" 200 "), "{line}");
}
