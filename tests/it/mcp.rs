//! MCP: `skill-audit capture`, `--profile mcp:...` and `--mcp`/`--mcp-url`, against real servers.
//!
//! - The reference server `@modelcontextprotocol/server-everything` from npm, over stdio and
//!   over streamable HTTP. `.ci/run` installs it into `target/mcp-everything`; when it is
//!   missing the tests install it there, and skip (saying so) only outside CI when npm cannot.
//! - `examples/mcp_test_server.rs`, built with rmcp's server side: skills over MCP, a tool list
//!   per user, pagination, the digests of every file of a skill, and hostile modes that must end in exit code 2
//!   within the timeout.
//! - Servers started through `sh -c`: nothing they start outlives the session (Unix).

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use crate::common::{MANIFEST_DIR, Reaper, free_port, skill, strings, write};

/// The version of server-everything whose tools these tests name.
const EVERYTHING: &str = "@modelcontextprotocol/server-everything@2026.8.31";

fn root() -> &'static Path {
    Path::new(MANIFEST_DIR)
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_skill-audit"))
}

/// Run `cmd` with no standard input, returning its output and how long it took.
fn run(cmd: &mut Command) -> (Output, Duration) {
    let started = Instant::now();
    let out = cmd.stdin(Stdio::null()).output().expect("the binary runs");
    (out, started.elapsed())
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout_json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}): {}\nstderr: {}",
            String::from_utf8_lossy(&out.stdout),
            stderr(out)
        )
    })
}

/// The test server, built once (a no-op when `cargo test` already built the examples).
fn test_server() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let status = Command::new(env!("CARGO"))
            .args(["build", "--quiet", "--example", "mcp_test_server"])
            .current_dir(root())
            .status()
            .expect("cargo runs");
        assert!(
            status.success(),
            "building examples/mcp_test_server.rs failed"
        );
        let dir = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| root().join("target"));
        let exe = dir
            .join("debug/examples/mcp_test_server")
            .with_extension(std::env::consts::EXE_EXTENSION);
        assert!(exe.is_file(), "{} is missing", exe.display());
        exe
    })
}

fn server_str() -> String {
    test_server().display().to_string()
}

/// The test server as `mcp:` profiles name it: relative to [`server_dir`], so that the
/// whitespace-split command works wherever the repository is.
const SERVER_IN_DIR: &str = "./mcp_test_server";

fn server_dir() -> &'static Path {
    test_server().parent().unwrap()
}

/// A free localhost port (bound, then released).
/// Wait until something accepts connections on `port`.
fn wait_for_port(port: u16, what: &str) {
    let until = Instant::now() + Duration::from_secs(30);
    while Instant::now() < until {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() {
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("{what} did not listen on port {port} within 30s");
}

// ---------------------------------------------------------------------------------------------
// The reference server from npm.

/// `dist/index.js` of server-everything, installing it when missing; `None` (after saying so)
/// only outside CI when it cannot be installed.
fn everything() -> Option<PathBuf> {
    static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();
    FOUND
        .get_or_init(|| {
            let prefix = root().join("target/mcp-everything");
            let entry =
                prefix.join("node_modules/@modelcontextprotocol/server-everything/dist/index.js");
            if !entry.is_file() {
                let status = Command::new("npm")
                    .args(["install", "--no-audit", "--no-fund", "--prefix"])
                    .arg(&prefix)
                    .arg(EVERYTHING)
                    .stdin(Stdio::null())
                    .status();
                if !matches!(status, Ok(s) if s.success()) || !entry.is_file() {
                    assert!(
                        std::env::var_os("CI").is_none(),
                        "CI must be able to install {EVERYTHING} (see .ci/run)"
                    );
                    eprintln!(
                        "SKIPPED: cannot install {EVERYTHING} with npm (no network?); the tests against it did not run"
                    );
                    return None;
                }
            }
            Some(entry)
        })
        .clone()
}

/// Tools server-everything registers for every client, whatever its capabilities
/// (`registerTools` in `dist/tools/index.js`; `docs/features.md` documents each).
const EVERYTHING_TOOLS: &[&str] = &[
    "echo",
    "get-annotated-message",
    "get-env",
    "get-resource-links",
    "get-resource-reference",
    "get-structured-content",
    "get-sum",
    "get-tiny-image",
    "gzip-file-as-resource",
    "toggle-simulated-logging",
    "toggle-subscriber-updates",
    "trigger-long-running-operation",
];

fn check_everything_capture(p: &Value, name: &str) {
    assert_eq!(p["name"], name);
    assert_eq!(p["server"]["name"], "mcp-servers/everything", "{p}");
    assert!(p["protocol_version"].as_str().unwrap().starts_with("20"));
    let at = p["captured_at"].as_str().unwrap();
    assert!(
        at.len() == 20 && at.ends_with('Z') && at.as_bytes()[10] == b'T',
        "{at}"
    );
    let tools = strings(&p["tools"]);
    for t in EVERYTHING_TOOLS {
        assert!(
            tools.contains(&(*t).to_owned()),
            "`{t}` missing from {tools:?}"
        );
    }
    // Tools that need client capabilities skill-audit does not declare (roots, sampling,
    // elicitation) are not offered to it.
    for t in [
        "get-roots-list",
        "trigger-sampling-request",
        "trigger-elicitation-request",
    ] {
        assert!(!tools.contains(&t.to_owned()), "{t} in {tools:?}");
    }
    let mut sorted = tools.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(tools, sorted, "tools are sorted and unique");
    let prompts = strings(&p["prompts"]);
    assert!(prompts.contains(&"simple-prompt".to_owned()), "{prompts:?}");
    assert!(prompts.contains(&"args-prompt".to_owned()), "{prompts:?}");
    let resources = strings(&p["resources"]);
    assert!(
        resources.contains(&"demo://resource/static/document/features.md".to_owned()),
        "{resources:?}"
    );
    // `resources/templates/list` (docs/features.md: "Dynamic Text", "Dynamic Blob").
    let templates = strings(&p["resource_templates"]);
    for t in [
        "demo://resource/dynamic/blob/{resourceId}",
        "demo://resource/dynamic/text/{resourceId}",
    ] {
        assert!(
            templates.contains(&t.to_owned()),
            "{t} not in {templates:?}"
        );
    }
}

#[test]
fn everything_documents_the_tools_these_tests_expect() {
    let Some(entry) = everything() else { return };
    let features = entry.parent().unwrap().join("docs/features.md");
    let doc = std::fs::read_to_string(&features).unwrap();
    for t in EVERYTHING_TOOLS {
        assert!(
            doc.contains(&format!("- `{t}`")),
            "{t} is not in {}",
            features.display()
        );
    }
}

#[test]
fn capture_everything_over_stdio() {
    let Some(entry) = everything() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("everything.json");
    let (out, _) = run(bin()
        .args(["capture", "--name", "everything", "-o"])
        .arg(&file)
        .arg("--")
        .arg("node")
        .arg(&entry)
        .arg("stdio"));
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(out.stdout.is_empty(), "with -o nothing goes to stdout");
    let p: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    check_everything_capture(&p, "everything");

    // The capture is a profile: a skill needing `echo` runs on it, one needing `nope` does not.
    let lib = tmp.path().join("lib");
    for (name, tool) in [("echoer", "echo"), ("nope-user", "nope")] {
        write(
            &lib,
            &format!("{name}/SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: Uses {tool}.\ndependencies:\n  tools: [{tool}]\n---\n"
            ),
        );
    }
    let (out, _) = run(bin()
        .args(["-f", "json", "--fail-on", "never", "-p"])
        .arg(&file)
        .arg(&lib));
    assert!(out.status.success(), "{}", stderr(&out));
    let r = stdout_json(&out);
    let status = |skill: &str| {
        r["skills"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == skill)
            .map(|s| s["availability"]["everything"]["status"].clone())
            .unwrap()
    };
    assert_eq!(status("echoer"), "available");
    assert_eq!(status("nope-user"), "unavailable");
}

#[test]
fn capture_everything_over_streamable_http() {
    let Some(entry) = everything() else { return };
    let port = free_port();
    let _server = Reaper(
        Command::new("node")
            .arg(&entry)
            .arg("streamableHttp")
            .env("PORT", port.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("node runs"),
    );
    wait_for_port(port, "server-everything");
    let url = format!("http://127.0.0.1:{port}/mcp");
    let (out, _) = run(bin()
        .args([
            "capture",
            "--url",
            &url,
            "--header",
            "Authorization: Bearer ${MCP_TEST_TOKEN}",
        ])
        .env("MCP_TEST_TOKEN", "not-a-secret"));
    assert!(out.status.success(), "{}", stderr(&out));
    let http = stdout_json(&out);
    check_everything_capture(&http, "mcp-servers/everything");

    // The same lists as over stdio.
    let (out, _) = run(bin()
        .args(["capture", "--"])
        .arg("node")
        .arg(&entry)
        .arg("stdio"));
    let stdio = stdout_json(&out);
    for key in ["tools", "resources", "resource_templates", "prompts"] {
        assert_eq!(http[key], stdio[key], "{key}");
    }

    // A header naming an unset variable is an error before anything is sent.
    let (out, _) = run(bin()
        .args([
            "capture",
            "--url",
            &url,
            "--header",
            "Authorization: Bearer $MCP_TEST_UNSET_VAR",
        ])
        .env_remove("MCP_TEST_UNSET_VAR"));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`MCP_TEST_UNSET_VAR`"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn live_everything_profile_without_a_file() {
    let Some(entry) = everything() else { return };
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "summer/SKILL.md",
        "---\nname: summer\ndescription: Adds numbers.\ndependencies:\n  tools: [get-sum]\n  prompts: [simple-prompt]\n---\n",
    );
    // `mcp:` commands are split on whitespace: name the entry relative to the package.
    let package = entry.parent().unwrap().parent().unwrap();
    let spec = "mcp:everything=node dist/index.js stdio";
    let (out, _) = run(bin()
        .args(["-f", "json", "-p", spec])
        .arg(tmp.path())
        .current_dir(package));
    assert!(out.status.success(), "{}", stderr(&out));
    let r = stdout_json(&out);
    assert_eq!(r["profiles"][0]["name"], "everything");
    assert_eq!(
        r["skills"][0]["availability"]["everything"]["status"], "available",
        "{r}"
    );
}

// ---------------------------------------------------------------------------------------------
// The test server: skills over MCP, per-user tools, pagination, digests.

/// `skill-audit -f json --fail-on never ARGS --mcp -- <test server>` run as `user`.
fn audit_served(user: &str, envs: &[(&str, &str)], args: &[&str]) -> Value {
    let mut cmd = bin();
    cmd.args(["-f", "json", "--fail-on", "never"])
        .args(args)
        .args(["--mcp", "--"])
        .arg(test_server())
        .env("MCP_TEST_USER", user)
        .current_dir(std::env::temp_dir());
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let (out, _) = run(&mut cmd);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout_json(&out)
}

fn rules_at(r: &Value, path: &str) -> Vec<String> {
    let mut v: Vec<String> = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["path"] == path)
        .map(|f| f["rule"].as_str().unwrap().to_owned())
        .collect();
    v.sort();
    v
}

const REFUNDS: &str = "skill://payments/refunds/SKILL.md";
const LOOKUP: &str = "skill://payments/lookup/SKILL.md";
const TAMPERED: &str = "skill://ops/tampered/SKILL.md";
const MISNAMED: &str = "skill://ops/misnamed/SKILL.md";
const BUNDLE: &str = "skill://ops/bundle/SKILL.md";
const COLUMN: &str = "mcp:skill-test-server";

#[test]
fn the_same_skill_is_available_to_one_user_and_not_to_another() {
    let alice = audit_served("alice", &[], &[]);
    let bob = audit_served("bob", &[], &[]);
    // Only the served skills: with --mcp and no PATH, nothing local is audited.
    assert_eq!(
        alice["skills"].as_array().unwrap().len(),
        5,
        "{}",
        alice["skills"]
    );
    assert_eq!(alice["roots"], serde_json::json!([]));
    assert_eq!(alice["profiles"][0]["name"], COLUMN);
    // Every page was read: 8 tools for alice over 4 pages of 2, 7 for bob.
    assert_eq!(alice["profiles"][0]["tools"], 8);
    assert_eq!(bob["profiles"][0]["tools"], 7);
    assert_eq!(alice["profiles"][0]["resources"], 11);
    let status = |r: &Value, uri: &str| skill(r, uri)["availability"][COLUMN]["status"].clone();
    assert_eq!(status(&alice, REFUNDS), "available");
    assert_eq!(status(&bob, REFUNDS), "unavailable");
    assert_eq!(status(&alice, LOOKUP), "available");
    assert_eq!(status(&bob, LOOKUP), "available");
    assert_eq!(rules_at(&bob, REFUNDS), ["SA402"]);
    // The body's link points at a file the server lists: no broken link.
    assert_eq!(rules_at(&alice, REFUNDS), Vec::<String>::new());
    assert_eq!(skill(&alice, REFUNDS)["name"], "refunds");
}

#[test]
fn digests_and_names_of_served_skills_are_checked() {
    let r = audit_served("alice", &[], &[]);
    assert_eq!(rules_at(&r, TAMPERED), ["SA801"]);
    let f = r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["rule"] == "SA801")
        .unwrap();
    assert_eq!(f["severity"], "error");
    assert!(f["message"].as_str().unwrap().contains("sha256:"), "{f}");
    // `name: other-name` at skill://ops/misnamed/: the last segment decides.
    assert_eq!(rules_at(&r, MISNAMED), ["SA207", "SA802"]);
    assert_eq!(r["summary"]["by_rule"]["SA801"], 2, "{}", r["summary"]);
}

/// The findings at `path` whose rule is `rule`: their messages.
fn messages(r: &Value, path: &str, rule: &str) -> Vec<String> {
    r["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["path"] == path && f["rule"] == rule)
        .map(|f| f["message"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn every_file_a_served_skill_lists_is_verified() {
    let r = audit_served("alice", &[], &[]);
    // guide.md (text) and logo.png (a base64 blob) match their digests; changes.md does not;
    // gone.md cannot be read; the body links to notes/unlisted.md, which is not listed.
    assert_eq!(rules_at(&r, BUNDLE), ["SA100", "SA231", "SA801"]);
    let mismatch = messages(&r, BUNDLE, "SA801");
    assert!(
        mismatch[0].contains("`skill://ops/bundle/references/changes.md`")
            && mismatch[0].contains("sha256:"),
        "{mismatch:?}"
    );
    let unread = messages(&r, BUNDLE, "SA100");
    assert!(
        unread[0].contains("cannot read `skill://ops/bundle/references/gone.md`")
            && unread[0].contains("no resource"),
        "{unread:?}"
    );
    let link = messages(&r, BUNDLE, "SA231");
    assert!(
        link[0].contains("skill://ops/bundle/notes/unlisted.md"),
        "{link:?}"
    );
    // The skill itself is still audited: its SKILL.md matches and it parsed.
    assert_eq!(skill(&r, BUNDLE)["name"], "bundle");
    // Files of one skill never show up on another.
    assert_eq!(rules_at(&r, REFUNDS), Vec::<String>::new());
}

#[test]
fn files_past_the_limit_per_skill_are_one_finding() {
    let r = audit_served("alice", &[("MCP_TEST_MANY", "1001")], &[]);
    let many = "skill://ops/many/SKILL.md";
    assert_eq!(rules_at(&r, many), ["SA100"], "{}", r["findings"]);
    let m = &messages(&r, many, "SA100")[0];
    assert!(
        m.contains("`skill://ops/many/f1001.md`") && m.contains("at most 1,000 files per skill"),
        "{m}"
    );
}

#[test]
fn listings_as_the_spec_shows_them_with_bad_digests() {
    let r = audit_served("alice", &[("MCP_TEST_MODE", "rawskills")], &[]);
    let raw = "skill://raw/SKILL.md";
    assert_eq!(rules_at(&r, raw), ["SA801", "SA801"], "{}", r["findings"]);
    let m = messages(&r, raw, "SA801");
    assert!(
        m.iter()
            .any(|m| m.contains("`skill://raw/upper.md`") && m.contains("64 lowercase hex")),
        "{m:?}"
    );
    assert!(
        m.iter().any(
            |m| m.contains("`skill://raw/none.md`") && m.contains("without a `sha256:` digest")
        ),
        "{m:?}"
    );
}

#[test]
fn pages_of_one_item_give_the_same_result() {
    let two = audit_served("alice", &[], &[]);
    let one = audit_served("alice", &[("MCP_TEST_PAGE", "1")], &[]);
    assert_eq!(one["skills"], two["skills"]);
    assert_eq!(one["findings"], two["findings"]);
    assert_eq!(one["profiles"], two["profiles"]);
}

#[test]
fn without_the_extension_skills_come_from_resources_list() {
    let r = audit_served("bob", &[("MCP_TEST_SKILLS", "resources")], &[]);
    let paths: Vec<&str> = r["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths.len(), 5, "{paths:?}");
    assert_eq!(
        skill(&r, REFUNDS)["availability"][COLUMN]["status"],
        "unavailable"
    );
    // No listing states digests or names, so nothing to compare.
    assert_eq!(rules_at(&r, TAMPERED), Vec::<String>::new());
    assert_eq!(rules_at(&r, MISNAMED), ["SA207"]);
}

#[test]
fn served_skills_sit_beside_local_ones_and_text_shows_their_lines() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "local/SKILL.md",
        "---\nname: local\ndescription: A local skill.\ndependencies:\n  tools: [refund_card]\n---\n",
    );
    let (out, _) = run(bin()
        .args(["--fail-on", "never"])
        .arg(tmp.path())
        .args([
            "-p",
            &format!("mcp:alice=env MCP_TEST_USER=alice {SERVER_IN_DIR}"),
        ])
        .args(["--mcp", "--"])
        .arg(test_server())
        .current_dir(server_dir())
        .env("MCP_TEST_USER", "bob")
        .env("NO_COLOR", "1"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", stderr(&out));
    // Source lines of served skills come from the served bytes.
    assert!(
        text.contains(&format!("--> {MISNAMED}:2:7")) && text.contains("2 | name: other-name"),
        "{text}"
    );
    // Columns: the live profile `alice` (a separate session), then bob's own session.
    let header = text.lines().find(|l| l.starts_with("SKILL ")).unwrap();
    assert!(
        header.contains("alice") && header.contains(COLUMN),
        "{header}"
    );
    let row = |name: &str| {
        text.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row {name} in {text}"))
            .split_whitespace()
            .skip(1)
            .collect::<Vec<_>>()
    };
    assert_eq!(row("refunds"), ["available", "unavailable"]);
    assert_eq!(row("local"), ["available", "unavailable"]);
    assert!(text.contains("6 files scanned"), "{text}");
}

#[test]
fn users_over_http_are_told_apart_by_their_token() {
    let mut child = Command::new(test_server())
        .args(["--http", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let _server = Reaper(child);
    let addr = first
        .trim()
        .strip_prefix("listening on ")
        .unwrap()
        .to_owned();
    let url = format!("http://{addr}/mcp");
    let audit = |token: &str| {
        let (out, _) = run(bin()
            .args(["-f", "json", "--fail-on", "never", "--mcp-url", &url])
            .args(["--header", "Authorization: Bearer $MCP_TEST_TOKEN"])
            .env("MCP_TEST_TOKEN", token)
            .current_dir(std::env::temp_dir()));
        assert!(out.status.success(), "{}", stderr(&out));
        stdout_json(&out)
    };
    let (alice, bob) = (audit("alice"), audit("bob"));
    let status = |r: &Value| skill(r, REFUNDS)["availability"][COLUMN]["status"].clone();
    assert_eq!(status(&alice), "available");
    assert_eq!(status(&bob), "unavailable");
    assert_eq!(rules_at(&alice, TAMPERED), ["SA801"]);
    // The header value never shows up in the report.
    assert!(!alice.to_string().contains("Bearer"));

    // A capture over HTTP, as alice.
    let (out, _) = run(bin()
        .args(["capture", "--name", "alice", "--url", &url])
        .args(["--header", "Authorization: Bearer ${T}"])
        .env("T", "alice"));
    assert!(out.status.success(), "{}", stderr(&out));
    let p = stdout_json(&out);
    assert!(strings(&p["tools"]).contains(&"refund_card".to_owned()));
}

#[test]
fn captures_are_sorted_paged_and_stable() {
    let capture = |page: &str| {
        let (out, _) = run(bin()
            .args(["capture", "--name", "prod", "--"])
            .arg(test_server())
            .env("MCP_TEST_USER", "alice")
            .env("MCP_TEST_PAGE", page));
        assert!(out.status.success(), "{}", stderr(&out));
        let mut v = stdout_json(&out);
        v.as_object_mut().unwrap().remove("captured_at");
        v
    };
    let a = capture("2");
    assert_eq!(a, capture("3"), "captures diff only in captured_at");
    assert_eq!(
        strings(&a["tools"]),
        [
            "get_order",
            "refund_card",
            "search_docs",
            "tool_01",
            "tool_02",
            "tool_03",
            "tool_04",
            "tool_05"
        ]
    );
    assert_eq!(
        a["server"],
        serde_json::json!({"name": "skill-test-server", "version": "1.0.0"})
    );
    assert_eq!(
        a["prompts"],
        serde_json::json!([]),
        "no prompts capability: an empty list"
    );
    // Templates: every page, sorted, beside the resources (not among them).
    assert_eq!(
        strings(&a["resource_templates"]),
        [
            "docs://archive/{year}/{name}",
            "docs://handbook/{chapter}.md",
            "orders://{id}"
        ]
    );
    assert!(!strings(&a["resources"]).contains(&"orders://{id}".to_owned()));
    // With --name the capture loads as a profile (the loader accepts the templates).
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("prod.json");
    std::fs::write(&file, a.to_string()).unwrap();
    let (out, _) = run(bin()
        .args(["-f", "json", "--fail-on", "never", "-p"])
        .arg(&file)
        .arg(tmp.path()));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout_json(&out)["profiles"][0]["name"], "prod");
}

#[test]
fn a_server_without_a_templates_list_still_captures() {
    let (out, _) = run(bin()
        .args(["capture", "--"])
        .arg(test_server())
        .env("MCP_TEST_MODE", "notemplates"));
    assert!(out.status.success(), "{}", stderr(&out));
    let p = stdout_json(&out);
    assert_eq!(strings(&p["resources"]), ["docs://only.md"]);
    assert_eq!(p["resource_templates"], serde_json::json!([]));
}

#[test]
fn two_live_profiles_show_what_each_user_can_use() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "refund/SKILL.md",
        "---\nname: refund\ndescription: Refunds.\ndependencies:\n  tools:\n    all: [get_order]\n    any: [refund_card, refund_wallet]\n---\n",
    );
    let s = SERVER_IN_DIR;
    let (out, _) = run(bin()
        .args(["-f", "json", "--fail-on", "never"])
        .args(["-p", &format!("mcp:alice=env MCP_TEST_USER=alice {s}")])
        .args(["-p", &format!("mcp:bob=env   MCP_TEST_USER=bob   {s}")])
        .arg(tmp.path())
        .current_dir(server_dir()));
    assert!(out.status.success(), "{}", stderr(&out));
    let r = stdout_json(&out);
    let a = &r["skills"][0]["availability"];
    assert_eq!(a["alice"]["status"], "available");
    assert_eq!(a["bob"]["status"], "unavailable");
    assert_eq!(
        r["profiles"][1]["path"],
        format!("mcp:env MCP_TEST_USER=bob {s}")
    );
}

// ---------------------------------------------------------------------------------------------
// Safety and hostile servers.

/// Run `capture` against the test server in `mode` with `--timeout secs`: exit code 2, a
/// message naming the server and `request` and containing `says`, within the timeout.
fn hostile(mode: &str, secs: u64, request: &str, says: &str) {
    let (out, took) = run(bin()
        .args(["capture", "--timeout", &secs.to_string(), "--"])
        .arg(test_server())
        .env("MCP_TEST_MODE", mode));
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(2), "{mode}: {err}");
    assert!(out.stdout.is_empty(), "{mode}");
    assert!(
        err.contains(&format!("MCP server `{}`: {request}: ", server_str())),
        "{mode}: {err}"
    );
    assert!(err.contains(says), "{mode}: {err}");
    assert!(
        took < Duration::from_secs(secs + 10),
        "{mode} took {took:?} with --timeout {secs}"
    );
}

#[test]
fn a_server_that_sleeps_times_out() {
    hostile("sleep", 2, "tools/list", "no answer within 2s");
}

#[test]
fn a_server_that_exits_at_once_is_an_error() {
    hostile("exit", 30, "initialize", "the server exited with status 3");
}

#[test]
fn a_server_that_crashes_mid_session_is_an_error() {
    hostile(
        "crash",
        30,
        "tools/list",
        "the server exited with status 70",
    );
}

#[test]
fn garbage_on_stdout_is_an_error_at_once() {
    hostile(
        "garbage",
        30,
        "initialize",
        "not JSON-RPC on standard output: `Starting the best MCP server v1.0 ...`",
    );
}

#[test]
fn json_that_is_not_json_rpc_is_an_error_at_once() {
    hostile(
        "notrpc",
        30,
        "tools/list",
        "JSON that is not a JSON-RPC 2.0 message on standard output: `{\"hello\": \"world\"}`",
    );
}

#[test]
fn wrong_types_are_errors() {
    hostile(
        "wrongtypes",
        30,
        "tools/list",
        "`tools` is a string, not a list",
    );
    hostile(
        "badnames",
        30,
        "tools/list",
        "item 1 of `tools`: `name` is a number",
    );
}

#[test]
fn lists_are_bounded() {
    hostile(
        "huge",
        60,
        "tools/list",
        "more than 100,000 tools; skill-audit reads at most that many",
    );
    hostile("endless", 30, "tools/list", "past 1,000 pages");
}

#[test]
fn a_missing_program_is_an_error() {
    let (out, _) = run(bin().args(["--mcp", "--", "/nonexistent/mcp-server", "--flag"]));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("MCP server `/nonexistent/mcp-server --flag`: start: cannot run `/nonexistent/mcp-server`: no such program"),
        "{err}"
    );
}

#[test]
fn the_server_stderr_shows_only_with_verbose() {
    let capture = |verbose: bool| {
        let mut cmd = bin();
        cmd.arg("capture");
        if verbose {
            cmd.arg("--verbose");
        }
        let (out, _) = run(cmd.arg("--").arg(test_server()).env("MCP_TEST_STDERR", "1"));
        assert!(out.status.success(), "{}", stderr(&out));
        stderr(&out)
    };
    assert!(!capture(false).contains("a line on standard error"));
    assert!(capture(true).contains("mcp-test-server: a line on standard error"));
}

#[test]
fn settings_files_cannot_start_servers() {
    let tmp = tempfile::tempdir().unwrap();
    let marker = tmp.path().join("ran");
    std::fs::write(
        tmp.path().join("skill-audit.toml"),
        format!("profiles = [\"mcp:evil=touch {}\"]\n", marker.display()),
    )
    .unwrap();
    let (out, _) = run(bin().arg(tmp.path()));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("only on the command line"),
        "{}",
        stderr(&out)
    );
    assert!(
        !marker.exists(),
        "a server named in the scanned tree was started"
    );
}

#[test]
fn usage_errors() {
    // `--mcp` needs a command; a command needs `--mcp`.
    let (out, _) = run(bin().arg("--mcp"));
    assert_eq!(out.status.code(), Some(2));
    let (out, _) = run(bin().args([".", "--", "node"]));
    assert_eq!(out.status.code(), Some(2));
    let (out, _) = run(bin().args(["-p", "mcp:nocommand", "."]));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("mcp:NAME=COMMAND"),
        "{}",
        stderr(&out)
    );
    let (out, _) = run(bin().args(["capture"]));
    assert_eq!(out.status.code(), Some(2));
    let (out, _) = run(bin().args(["capture", "--url", "ftp://x"]));
    assert_eq!(out.status.code(), Some(2));
    let (out, _) = run(bin().args([
        "capture",
        "--url",
        "http://127.0.0.1:9/mcp",
        "--header",
        "nocolon",
    ]));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("Name: value"), "{}", stderr(&out));
    let (out, _) = run(bin().args(["capture", "--timeout", "0", "--", "x"]));
    assert_eq!(out.status.code(), Some(2));
}

// ---------------------------------------------------------------------------------------------
// Servers started through a wrapper: nothing they start outlives the session.

/// Whether process `pid` has ended; a zombie that its new parent has not reaped yet has.
#[cfg(unix)]
fn ended(pid: u32) -> bool {
    if cfg!(target_os = "linux") {
        return match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => true,
            // `pid (comm) STATE ...`: the state follows the last `)`.
            Ok(stat) => stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().next())
                .is_none_or(|state| state == "Z" || state == "X"),
        };
    }
    !Command::new("kill")
        .args(["-0", &pid.to_string()])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `capture --timeout 2` of the test server (in `mode`) started as `sh -c` does it: the shell
/// starts a long `sleep` in the background, then a second shell that becomes the server, so
/// both are grandchildren of skill-audit. Returns the output and the pids of both.
#[cfg(unix)]
fn capture_through_a_wrapper(mode: Option<&str>) -> (Output, [u32; 2]) {
    let tmp = tempfile::tempdir().unwrap();
    let script =
        r#"sleep 300 & echo $! > "$PIDS/sleep"; sh -c 'echo $$ > "$PIDS/server"; exec "$SERVER"'"#;
    let mut cmd = bin();
    cmd.args(["capture", "--timeout", "2", "--", "sh", "-c", script])
        .env("PIDS", tmp.path())
        .env("SERVER", test_server());
    if let Some(mode) = mode {
        cmd.env("MCP_TEST_MODE", mode);
    }
    let (out, _) = run(&mut cmd);
    let pid = |name: &str| -> u32 {
        let text = std::fs::read_to_string(tmp.path().join(name))
            .unwrap_or_else(|e| panic!("no {name} pid ({e}): {}", stderr(&out)));
        text.trim().parse().unwrap()
    };
    let pids = [pid("sleep"), pid("server")];
    (out, pids)
}

/// Assert that every pid ends within a few seconds; stop the survivors either way.
#[cfg(unix)]
fn assert_all_ended(pids: &[u32]) {
    let until = Instant::now() + Duration::from_secs(3);
    while Instant::now() < until && !pids.iter().all(|p| ended(*p)) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let left: Vec<u32> = pids.iter().copied().filter(|p| !ended(*p)).collect();
    for p in &left {
        let _ = Command::new("kill").args(["-9", &p.to_string()]).status();
    }
    assert!(left.is_empty(), "still running after the session: {left:?}");
}

#[cfg(unix)]
#[test]
fn a_wrapped_server_leaves_nothing_running_when_the_session_ends() {
    let (out, pids) = capture_through_a_wrapper(None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(strings(&stdout_json(&out)["tools"]).contains(&"get_order".to_owned()));
    assert_all_ended(&pids);
}

#[cfg(unix)]
#[test]
fn a_wrapped_server_that_times_out_leaves_nothing_running() {
    let (out, pids) = capture_through_a_wrapper(Some("sleep"));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("no answer within 2s"),
        "{}",
        stderr(&out)
    );
    assert_all_ended(&pids);
}

// ---------------------------------------------------------------------------------------------
// Raw servers in Python, for what the test server does not do: tool names that are glob
// syntax, text with control characters, answers of any size.

/// A stdio (or, given a port, streamable HTTP) MCP server speaking raw JSON-RPC. `TOOLS`
/// (JSON) is its tool list; `SNAME` its name; `DESC` the size of a tool's description;
/// `RES` the size of a served skill's second file; `FAIL` an error message for `tools/list`;
/// over HTTP, `STATUS` answers every request with that status and `FAIL` as its body.
const RAW_PY: &str = r#"
import json, os, sys
E = os.environ
def answer(msg):
    mid, m = msg.get("id"), msg.get("method")
    if m == "initialize":
        caps = {"tools": {}, "resources": {}}
        return {"protocolVersion": "2025-06-18", "capabilities": caps,
                "serverInfo": {"name": E.get("SNAME", "raw"), "version": "1"}}
    if m == "tools/list":
        if "FAIL" in E:
            return {"error": {"code": -32000, "message": E["FAIL"]}}
        tools = [{"name": n, "inputSchema": {"type": "object"}} for n in json.loads(E.get("TOOLS", "[]"))]
        if "DESC" in E:
            tools.append({"name": "big", "description": "x" * int(E["DESC"]), "inputSchema": {"type": "object"}})
        return {"tools": tools}
    if m == "resources/list":
        uris = ["skill://demo/SKILL.md", "skill://demo/big.md"] if "RES" in E else []
        return {"resources": [{"uri": u, "name": u} for u in uris]}
    if m == "resources/read":
        uri = msg["params"]["uri"]
        text = "---\nname: demo\ndescription: Use when demoing.\n---\nSee [big](big.md).\n"
        if uri.endswith("big.md"):
            text = '"' * int(E["RES"])
        return {"contents": [{"uri": uri, "text": text}]}
    return {"error": {"code": -32601, "message": "method not found"}}
def reply(msg):
    a = answer(msg)
    out = {"jsonrpc": "2.0", "id": msg["id"]}
    out.update(a if "error" in a else {"result": a})
    return json.dumps(out).encode()
if len(sys.argv) > 1:
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    class H(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        def log_message(self, *a): pass
        def send(self, status, body, ctype="application/json"):
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        def do_GET(self): self.send(405, b"")
        def do_DELETE(self): self.send(200, b"")
        def do_POST(self):
            msg = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))))
            if "STATUS" in E:
                return self.send(int(E["STATUS"]), E["FAIL"].encode(), "text/plain")
            if "id" not in msg:
                return self.send(202, b"")
            self.send(200, reply(msg))
    ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
for line in sys.stdin:
    msg = json.loads(line)
    if "id" in msg:
        sys.stdout.buffer.write(reply(msg) + b"\n")
        sys.stdout.flush()
"#;

/// [`RAW_PY`] written into `dir`, as the command that starts it.
fn raw_py(dir: &Path) -> Vec<String> {
    let script = dir.join("raw.py");
    std::fs::write(&script, RAW_PY).unwrap();
    vec!["python3".into(), script.display().to_string()]
}

/// `capture` of the Python server with `env`, and how long it took.
fn capture_raw(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> (Output, Duration) {
    let mut cmd = bin();
    cmd.arg("capture").args(args).arg("--").args(raw_py(dir));
    for (k, v) in env {
        cmd.env(k, v);
    }
    run(&mut cmd)
}

/// A library with a skill that needs `get_order` and one that needs `get[order]`.
fn order_skills(dir: &Path) -> PathBuf {
    let lib = dir.join("lib");
    for (name, tool) in [("plain", "get_order"), ("bracket", "'get[order]'")] {
        write(
            &lib,
            &format!("{name}/SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: Use when ordering.\ndependencies:\n  tools: [{tool}]\n---\n"
            ),
        );
    }
    lib
}

/// The status of each skill (by name) on profile `profile`.
fn statuses_on(r: &Value, profile: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = r["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let status = &s["availability"][profile]["status"];
            (
                s["name"].as_str().unwrap().to_owned(),
                status.as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect();
    out.sort();
    out
}

/// A server's tool names are names, not globs: `*` is one tool, `get[` no error. Captured,
/// they are written so that the file, loaded back, matches exactly them.
#[test]
fn tool_names_a_server_lists_are_matched_literally() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = order_skills(tmp.path());
    let cmd = raw_py(tmp.path()).join(" ");
    let audit = |profile: &str, tools: &str| {
        let (out, _) = run(bin()
            .args(["-f", "json", "--fail-on", "never", "-p", profile])
            .arg(&lib)
            .env("TOOLS", tools));
        assert!(out.status.success(), "{tools}: {}", stderr(&out));
        stdout_json(&out)
    };
    let unavailable = |name: &str| (name.to_owned(), "unavailable".to_owned());
    let live = format!("mcp:live={cmd}");
    let r = audit(&live, r#"["*", "get[", "get_*"]"#);
    assert_eq!(
        statuses_on(&r, "live"),
        [unavailable("bracket"), unavailable("plain")]
    );
    let r = audit(&live, r#"["get[order]"]"#);
    assert_eq!(
        statuses_on(&r, "live"),
        [("bracket".into(), "available".into()), unavailable("plain")]
    );
    // Captured and loaded back: the same names, literally.
    for tools in [r#"["*", "get[", "a{b}", "x\\*?"]"#, r#"["get[order]"]"#] {
        let (out, _) = capture_raw(tmp.path(), &["--name", "saved"], &[("TOOLS", tools)]);
        assert!(out.status.success(), "{}", stderr(&out));
        let file = tmp.path().join("saved.json");
        std::fs::write(&file, &out.stdout).unwrap();
        let r = audit(file.to_str().unwrap(), "[]");
        let bracket = if tools.contains("get[order]") {
            "available"
        } else {
            "unavailable"
        };
        assert_eq!(
            statuses_on(&r, "saved"),
            [("bracket".into(), bracket.into()), unavailable("plain")],
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}

/// A profile file's entry that is not a valid glob is an error at its line and column.
#[test]
fn a_bad_pattern_in_a_profile_file_names_its_place() {
    let tmp = tempfile::tempdir().unwrap();
    let lib = order_skills(tmp.path());
    write(
        tmp.path(),
        "w.json",
        "{\"name\": \"w\",\n  \"tools\": [\"ok\", \"get[order\"]}\n",
    );
    let (out, _) = run(bin().arg("-p").arg(tmp.path().join("w.json")).arg(&lib));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("w.json:2:19: `get[order` is not a valid pattern"),
        "{}",
        stderr(&out)
    );
}

/// Lines up to the filter's limit are read, whatever rmcp's own default; a longer one ends
/// the session at once with an error naming the request and the limit.
#[test]
fn long_answers_over_stdio_are_read_and_too_long_ones_are_an_error_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, _) = capture_raw(tmp.path(), &["--timeout", "20"], &[("DESC", "17000000")]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(strings(&stdout_json(&out)["tools"]), ["big"]);
    // A served file of 9 MiB, whose answer JSON escaping makes twice as long.
    let mut cmd = bin();
    cmd.args([
        "-f",
        "json",
        "--fail-on",
        "never",
        "--timeout",
        "20",
        "--mcp",
        "--",
    ])
    .args(raw_py(tmp.path()))
    .env("RES", (9 << 20).to_string());
    let (out, _) = run(&mut cmd);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout_json(&out)["skills"][0]["name"], "demo");
    let (out, took) = capture_raw(tmp.path(), &["--timeout", "60"], &[("DESC", "43000000")]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(": tools/list: the server printed a message over 40 MiB"),
        "{}",
        stderr(&out)
    );
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

/// Text from a server reaches the terminal with its control characters escaped.
#[test]
fn server_text_cannot_drive_the_terminal() {
    let tmp = tempfile::tempdir().unwrap();
    let (out, _) = capture_raw(tmp.path(), &[], &[("FAIL", "boom \u{1b}[2Jgone")]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("boom \\u{1b}[2Jgone") && !err.contains('\u{1b}'),
        "{err}"
    );
    let (out, _) = capture_raw(tmp.path(), &["-v"], &[("SNAME", "evil\u{1b}[31mX")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("evil\\u{1b}[31mX") && !err.contains('\u{1b}'),
        "{err}"
    );
}

/// Over HTTP: an error body is escaped, and an answer over the size limit is said to be one.
#[test]
fn http_error_bodies_are_escaped_and_huge_answers_named() {
    let tmp = tempfile::tempdir().unwrap();
    let serve = |env: &[(&str, &str)]| {
        let port = free_port();
        let mut cmd = Command::new("python3");
        cmd.args(&raw_py(tmp.path())[1..]).arg(port.to_string());
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = Reaper(cmd.stdin(Stdio::null()).spawn().expect("python3 runs"));
        wait_for_port(port, "the Python server");
        (child, format!("http://127.0.0.1:{port}/mcp"))
    };
    let (_server, url) = serve(&[("STATUS", "401"), ("FAIL", "no \u{1b}[31mRED")]);
    let (out, _) = run(bin().args(["capture", "--url", &url]));
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("no \\u{1b}[31mRED") && !err.contains('\u{1b}'),
        "{err}"
    );
    let (_server, url) = serve(&[("DESC", "43000000")]);
    let (out, _) = run(bin().args(["capture", "--timeout", "60", "--url", &url]));
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("tools/list: the answer is over 40 MiB"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn an_empty_capture_name_is_a_usage_error() {
    for (flag, says) in [
        ("--name", "--name is empty"),
        ("--server", "--server is empty"),
    ] {
        let (out, _) = run(bin().args(["capture", flag, " ", "--"]).arg(test_server()));
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn a_server_name_a_profile_cannot_hold_is_a_usage_error() {
    for (name, says) in [
        ("*", "`*` is glob syntax"),
        ("a/b", "`/` ends a server's name"),
        ("a:b", "`:` ends a server's name"),
        ("a__b", "its first `__`"),
    ] {
        // skill-audit's own server: a capture it would write whole, but for the name.
        let server = env!("CARGO_BIN_EXE_skill-audit");
        let (out, _) = run(bin()
            .args([
                "capture",
                "--server",
                name,
                "--",
                server,
                "mcp",
                "examples/library",
            ])
            .current_dir(root()));
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = stderr(&out);
        assert!(
            err.contains("is not a server name a profile can hold") && err.contains(says),
            "{err}"
        );
        assert!(out.stdout.is_empty());
    }
}
