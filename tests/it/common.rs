//! Helpers shared by the integration tests: the binary and the example audit's arguments,
//! child processes and ports, fixture trees, JSON runs and the report's parts, corpora.

use std::path::Path;
use std::process::Child;

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

pub const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The arguments of the example audit: the example library against the three example
/// profiles. Run it in the repository root, `bin(MANIFEST_DIR)`, so report paths are stable.
pub const EXAMPLE: &[&str] = &[
    "-p",
    "examples/profiles/prod.json",
    "-p",
    "examples/profiles/staging.json",
    "-p",
    "examples/profiles/dev.json",
    "examples/library",
];

/// The `skill-audit` binary, run in `cwd`.
pub fn bin(cwd: impl AsRef<Path>) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_skill-audit"));
    c.current_dir(cwd);
    c
}

/// Run `cmd`, which must exit with `code` and print nothing on standard error: its standard
/// output.
pub fn quiet_stdout(cmd: &mut Command, code: i32) -> String {
    let out = cmd.assert().code(code).get_output().clone();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Run `cmd`, which must exit with `code` (else its standard error is shown): its standard
/// output.
pub fn stdout_of(cmd: &mut Command, code: i32) -> String {
    let out = cmd.output().expect("the binary runs");
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Run `cmd`, which must exit with `code`: its standard error.
pub fn stderr_of(cmd: &mut Command, code: i32) -> String {
    let out = cmd.output().expect("the binary runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{err}");
    err
}

/// A localhost port that nothing listens on (at the time of asking).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free localhost port")
        .port()
}

/// A child process killed when the test ends, however it ends.
pub struct Reaper(pub Child);

impl Drop for Reaper {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Write `content` to `root/rel`, creating folders.
pub fn write(root: &Path, rel: &str, content: impl AsRef<[u8]>) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, content).unwrap();
}

/// A temporary folder holding `files` (path, content).
pub fn tree(files: &[(&str, &str)]) -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for (rel, content) in files {
        write(tmp.path(), rel, content);
    }
    tmp
}

/// A valid SKILL.md named `name` (put it in a folder of the same name), with `extra`
/// frontmatter lines (each ending in `\n`).
pub fn skill_md(name: &str, extra: &str) -> String {
    format!(
        "---\nname: {name}\ndescription: Does {name} things. Use when asked.\n{extra}---\n# {name}\n"
    )
}

/// A SKILL.md named `name` with `body` right under its frontmatter.
pub fn skill_with_body(name: &str, body: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name} things. Use when asked.\n---\n{body}")
}

/// Run the binary with `-f json` in `cwd`: the report and the exit code.
pub fn json_run(cwd: &Path, args: &[&str]) -> (Value, i32) {
    json_of(bin(cwd).args(args).args(["-f", "json"]))
}

/// Run `cmd`, which prints a JSON report: the report and the exit code.
pub fn json_of(cmd: &mut Command) -> (Value, i32) {
    let out = cmd.output().unwrap();
    let code = out.status.code().expect("exited normally");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}); exit {code}; stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (v, code)
}

/// `r[key]`, which must be an array.
pub fn arr<'a>(r: &'a Value, key: &str) -> &'a Vec<Value> {
    r[key]
        .as_array()
        .unwrap_or_else(|| panic!("`{key}` is an array"))
}

/// `v[key]`, which must be a string.
pub fn s<'a>(v: &'a Value, key: &str) -> &'a str {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("`{key}` is a string in {v}"))
}

/// `v`, which must be an array of strings.
pub fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("{v} is an array"))
        .iter()
        .map(|x| x.as_str().unwrap().to_owned())
        .collect()
}

/// The rule IDs of the report's findings on `path`, in report order.
pub fn rules_for(report: &Value, path: &str) -> Vec<String> {
    arr(report, "findings")
        .iter()
        .filter(|f| f["path"] == path)
        .map(|f| f["rule"].as_str().unwrap().to_owned())
        .collect()
}

/// The report's findings of `rule` (`SA603`), any file, in report order.
pub fn findings<'a>(report: &'a Value, rule: &str) -> Vec<&'a Value> {
    arr(report, "findings")
        .iter()
        .filter(|f| f["rule"] == rule)
        .collect()
}

/// The messages of the report's `rule` findings, in report order.
pub fn messages(report: &Value, rule: &str) -> Vec<String> {
    findings(report, rule)
        .into_iter()
        .map(|f| s(f, "message").to_owned())
        .collect()
}

/// The report's entry for the skill at `path` (a display path or, for served skills, a URI).
pub fn skill<'a>(report: &'a Value, path: &str) -> &'a Value {
    report["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == path)
        .unwrap_or_else(|| panic!("{path} not in {}", report["skills"]))
}

/// `(agent, skill_path, via)` of every link of the report.
pub fn links(r: &Value) -> std::collections::BTreeSet<(String, String, String)> {
    arr(r, "links")
        .iter()
        .map(|l| {
            (
                s(l, "agent").to_owned(),
                s(l, "skill_path").to_owned(),
                s(l, "via").to_owned(),
            )
        })
        .collect()
}

/// Corpus folders, for [`corpus`].
pub const AWESOME_COPILOT: &str = "awesome-copilot";
pub const CHATMODES: &str = "awesome-copilot-chatmodes-2025-11";
pub const OPENCLAW_A: &str = "openclaw-a";
pub const TEMPLATES: &str = "claude-code-templates-slice";

// The one skip helper for corpus tests, shared with the library's unit tests.
#[path = "../support/corpus.rs"]
mod support;
pub use support::corpus;

/// A copy of `src` at `dst` (regular files and folders only), writable as a checkout is.
pub fn copy_tree(src: &Path, dst: &Path) {
    std::fs::create_dir_all(dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        let to = dst.join(e.file_name());
        let ty = e.file_type().unwrap();
        if ty.is_dir() {
            copy_tree(&e.path(), &to);
        } else if ty.is_file() {
            std::fs::write(&to, std::fs::read(e.path()).unwrap()).unwrap();
        }
    }
}
