//! `skill-audit capture --machine`: this machine as a profile, names only.

use crate::common::*;

use serde_json::Value;
use std::path::Path;

/// A value no output may ever contain: the variable holding it is set for every run here.
const SECRET: &str = "s3cr3t-value-that-must-never-be-written";

/// A skill that asks, in OpenClaw's metadata, for `sh`, `HOME` and the secret's variable.
fn openclaw_skill() -> String {
    skill_md(
        "machine-needs",
        "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"sh\", \"no-such-bin-here\"], \
         \"env\": [\"HOME\", \"SKILL_AUDIT_TEST_SECRET\", \"SKILL_AUDIT_TEST_UNSET\"]}}}\n",
    )
}

/// Run `capture --machine` with `args` in `root`: exit code, standard output and error.
fn capture(root: &Path, args: &[&str], path: Option<&str>) -> (i32, String, String) {
    let mut cmd = bin(root);
    cmd.args(["capture", "--machine"])
        .args(args)
        .env("SKILL_AUDIT_TEST_SECRET", SECRET)
        .env_remove("SKILL_AUDIT_TEST_UNSET");
    if let Some(path) = path {
        cmd.env("PATH", path);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object()
        .map(|o| o.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

#[test]
fn capture_machine_writes_a_profile_that_loads() {
    let dir = tree(&[("skills/machine-needs/SKILL.md", &openclaw_skill())]);
    let (code, out, err) = capture(dir.path(), &[".", "--name", "laptop"], None);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["name"], "laptop");
    assert!(
        s(&v, "description").contains("skill-audit capture --machine"),
        "{v}"
    );
    assert!(s(&v, "captured_at").ends_with('Z'), "{v}");
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "win32",
        other => other,
    };
    assert_eq!(strings(&v["os"]), [os]);
    assert!(v["bins"].is_array() && v["env"].is_array(), "{v}");
    assert!(v.get("config").is_none(), "config is not described");
    // Packages need python3; without one they are left out, and a note says so.
    if v.get("packages").is_none() {
        assert!(err.contains("`packages` not recorded"), "{err}");
    }
    // Only names: the value of a set variable never appears.
    assert!(!out.contains(SECRET) && !err.contains(SECRET));
    // The capture is a profile, also written with -o.
    let (code, _, err) = capture(dir.path(), &["-o", "laptop.json"], None);
    assert_eq!(code, 0, "{err}");
    let written = std::fs::read_to_string(dir.path().join("laptop.json")).unwrap();
    assert!(!written.contains(SECRET));
    let (report, code) = json_run(dir.path(), &["-p", "laptop.json", "."]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(
        arr(&report, "profiles")[0]["name"],
        "machine",
        "the default name"
    );
}

/// Nothing on `PATH` is run to find executables, and a `python3` inside the audited tree is
/// never run: the packages are then not recorded, and a note says why.
#[cfg(unix)]
#[test]
fn capture_machine_never_runs_the_audited_tree() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tree(&[("skills/machine-needs/SKILL.md", &openclaw_skill())]);
    let bin_dir = dir.path().join("bin");
    std::fs::create_dir(&bin_dir).unwrap();
    let marker = dir.path().join("ran");
    for name in ["python3", "sh"] {
        let p = bin_dir.join(name);
        let script = format!("#!/bin/sh\ntouch '{}'\necho '{{}}'\n", marker.display());
        std::fs::write(&p, script).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let path = bin_dir.to_str().unwrap();
    let (code, out, err) = capture(dir.path(), &[], Some(path));
    assert_eq!(code, 0, "{err}");
    assert!(!marker.exists(), "something in the audited tree was run");
    let v: Value = serde_json::from_str(&out).unwrap();
    // (serde_json sorts keys.)
    assert_eq!(
        keys(&v),
        ["bins", "captured_at", "description", "env", "name", "os"]
    );
    assert!(
        err.contains("`packages` not recorded") && err.contains("no python3"),
        "{err}"
    );
    // An empty PATH: nothing found, nothing run.
    let (code, out, _) = capture(dir.path(), &["."], Some(""));
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["bins"], serde_json::json!([]));
}

#[test]
fn capture_machine_takes_no_server() {
    let dir = tree(&[]);
    for args in [
        &["--url", "http://127.0.0.1:9/mcp"][..],
        &["--server", "s"],
        &["--", "some-server"],
    ] {
        let (code, _, err) = capture(dir.path(), args, None);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains("cannot be used with"), "{err}");
    }
    let (code, _, err) = capture(dir.path(), &["no/such/folder"], None);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/folder"), "{err}");
}

/// What an OpenClaw skill asks for is recorded when this machine has it. Needs the reader of
/// `metadata.openclaw` to fill the skills' requirements.
#[test]
fn capture_machine_records_what_openclaw_skills_ask_for() {
    let dir = tree(&[("skills/machine-needs/SKILL.md", &openclaw_skill())]);
    let (code, out, err) = capture(dir.path(), &["."], None);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let bins = strings(&v["bins"]);
    let env = strings(&v["env"]);
    assert!(bins.contains(&"sh".to_owned()), "{v}");
    assert!(!bins.contains(&"no-such-bin-here".to_owned()), "{v}");
    assert_eq!(env, ["HOME", "SKILL_AUDIT_TEST_SECRET"], "{v}");
    assert!(!out.contains(SECRET));
}
