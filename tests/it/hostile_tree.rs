//! A tree written by an attacker: links out of it, special files, huge files, manifest paths
//! that leave it, one file by two paths, files hidden by ignore rules. Nothing from outside
//! the tree may reach any report, every run ends in seconds with bounded memory, and every
//! file found is accounted for.
#![cfg(unix)]

use crate::common::*;

use std::os::unix::fs::symlink;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use tempfile::TempDir;

/// Text that must never appear in a report: it is only outside the audited tree.
const CANARY: &str = "CANARY-7f3a9c-OUTSIDE";

/// Every output format, as `-f` names it.
const FORMATS: &[&str] = &["text", "json", "markdown", "html", "sarif", "github"];

/// Memory no run here may exceed (a run that reads `/dev/zero` whole grows without bound).
const MAX_RSS_KIB: u64 = 512 << 10;

/// What one run did: its output, exit code, peak resident memory and time.
struct Run {
    stdout: String,
    stderr: String,
    code: Option<i32>,
    peak_kib: u64,
    took: Duration,
}

/// Run the binary in `cwd`, watching its peak memory (`VmHWM`), killing it after 30 s.
fn run(cwd: &Path, args: &[&str]) -> Run {
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_skill-audit"))
        .current_dir(cwd)
        .args(args)
        .env("SKILL_AUDIT_TEST_SECRET", CANARY)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    // Output is read on threads so a full pipe never stalls the child.
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).unwrap();
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut err, &mut s).unwrap();
        s
    });
    let mut peak_kib = 0;
    let code = loop {
        if let Ok(s) = std::fs::read_to_string(&status)
            && let Some(kib) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        {
            peak_kib = peak_kib.max(kib);
        }
        if let Some(st) = child.try_wait().unwrap() {
            break st.code();
        }
        if start.elapsed() > Duration::from_secs(30) || peak_kib > 4 * MAX_RSS_KIB {
            child.kill().unwrap();
            child.wait().unwrap();
            panic!(
                "{args:?} ran {:?} and reached {peak_kib} KiB",
                start.elapsed()
            );
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Run {
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        code,
        peak_kib,
        took: start.elapsed(),
    }
}

/// Run in every format: none shows a byte from outside, each ends quickly and small. The
/// JSON report is returned.
fn audit_every_format(cwd: &Path, args: &[&str]) -> Value {
    let mut report = Value::Null;
    for format in FORMATS {
        let mut all = args.to_vec();
        all.extend(["--fail-on", "never", "-f", format]);
        let r = run(cwd, &all);
        assert_eq!(r.code, Some(0), "{format}: {}", r.stderr);
        for (what, text) in [("stdout", &r.stdout), ("stderr", &r.stderr)] {
            assert!(
                !text.contains(CANARY),
                "{format} {what} shows text from outside the tree:\n{text}"
            );
        }
        assert!(r.took < Duration::from_secs(10), "{format}: {:?}", r.took);
        assert!(r.peak_kib < MAX_RSS_KIB, "{format}: {} KiB", r.peak_kib);
        if *format == "json" {
            report = serde_json::from_str(&r.stdout).unwrap();
        }
    }
    report
}

fn paths(report: &Value, key: &str) -> Vec<String> {
    report[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["path"].as_str().unwrap().to_owned())
        .collect()
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

/// `work/lib` is audited; `work/outside` holds what it must not read.
fn hostile_tree() -> TempDir {
    let t = TempDir::new().unwrap();
    let root = t.path().join("work");
    let skill = |name: &str| skill_md(name, "");
    write(&root, "lib/skills/ok/SKILL.md", skill("ok"));
    write(
        &root,
        "outside/SKILL.md",
        format!("---\nname: out\ndescription: {CANARY}\n---\n# {CANARY}\n"),
    );
    write(
        &root,
        "outside/agent.md",
        format!("---\nname: a\ndescription: {CANARY}\n---\n{CANARY}\n"),
    );
    let lib = root.join("lib");
    let dir = |name: &str| {
        let d = lib.join("skills").join(name);
        std::fs::create_dir_all(&d).unwrap();
        d.join("SKILL.md")
    };
    symlink("../../../outside/SKILL.md", dir("out-file")).unwrap();
    symlink("/proc/self/environ", dir("environ")).unwrap();
    symlink("/dev/zero", dir("zero")).unwrap();
    mkfifo(&dir("fifo"));
    // A fifo reached through a link, and a folder reached through a link.
    symlink("../fifo/SKILL.md", dir("fifo-link")).unwrap();
    let sparse = std::fs::File::create(dir("sparse")).unwrap();
    sparse.set_len(3 << 30).unwrap();
    // A link inside the tree to a skill inside it: the same file by another path.
    symlink("../ok/SKILL.md", dir("ok-again")).unwrap();
    // A folder of links outside: never listed, never followed.
    symlink(root.join("outside"), lib.join("skills/elsewhere")).unwrap();
    // A Claude plugin listing agents outside the tree, relatively and absolutely, and an
    // agent folder holding a link out.
    let abs_agent = root.join("outside/agent.md");
    write(
        &lib,
        "plugins/p/.claude-plugin/plugin.json",
        format!(
            r#"{{"name": "p", "agents": ["../../../outside/agent.md", "{}", "./agents/"]}}"#,
            abs_agent.display()
        ),
    );
    write(&lib, "plugins/p/agents/inside.md", skill("inside"));
    symlink(&abs_agent, lib.join("plugins/p/agents/out.md")).unwrap();
    t
}

#[test]
fn nothing_outside_the_tree_is_read_and_every_file_is_accounted_for() {
    let t = hostile_tree();
    let work = t.path().join("work");
    let r = audit_every_format(&work, &["lib"]);
    let skills = paths(&r, "skills");
    for (name, rule) in [
        ("out-file", "SA110"),
        ("environ", "SA110"),
        ("zero", "SA110"),
        ("fifo", "SA111"),
        ("fifo-link", "SA111"),
        ("sparse", "SA112"),
    ] {
        let path = format!("lib/skills/{name}/SKILL.md");
        assert!(
            skills.contains(&path),
            "{path} is in the report: {skills:?}"
        );
        assert_eq!(skill(&r, &path)["valid"], false, "{name}");
        assert_eq!(rules_for(&r, &path), [rule], "{name}");
    }
    assert_eq!(skill(&r, "lib/skills/ok/SKILL.md")["valid"], true);
    assert!(
        !skills.iter().any(|p| p.contains("elsewhere")),
        "{skills:?}"
    );
    // The same file once, under the path that reached it without a link.
    assert!(!skills.contains(&"lib/skills/ok-again/SKILL.md".to_owned()));
    assert_eq!(rules_for(&r, "lib/skills/ok-again/SKILL.md"), ["SA113"]);
    // Manifest paths out of the tree are findings on the manifest, not audited files.
    let manifest = "lib/plugins/p/.claude-plugin/plugin.json";
    assert_eq!(rules_for(&r, manifest), ["SA110", "SA110"]);
    let agents = paths(&r, "agents");
    assert!(agents.contains(&"lib/plugins/p/agents/inside.md".to_owned()));
    assert!(!agents.iter().any(|p| p.contains("outside")), "{agents:?}");
    assert_eq!(rules_for(&r, "lib/plugins/p/agents/out.md"), ["SA110"]);
    // Every file found is counted once: 7 skill files (and one repeat), 1 manifest, 2 agents.
    assert_eq!(r["summary"]["files_scanned"], 7 + 1 + 2);
}

#[test]
fn body_links_out_of_the_tree_are_not_looked_up() {
    // A file outside whose name is the canary: a lookup of the link's case-folded spelling
    // would offer it as "did you mean". Links that climb out are reported as leaving the
    // tree; one that climbs and comes back in is judged as any other.
    let t = TempDir::new().unwrap();
    let root = t.path().join("work");
    write(&root, &format!("outside/{CANARY}.md"), "");
    let out = CANARY.to_lowercase();
    write(
        &root,
        "lib/skills/s/SKILL.md",
        format!(
            "{}
[a](../../../outside/{out}.md) [b](../../../outside/gone.md) [c](../s/Missing.md)
[d](../../../nowhere/x.md) [e](broken/x.md)
",
            skill_md("s", "").trim_end()
        ),
    );
    // Whether a folder outside exists must not show either, through a climb or a broken link.
    symlink(root.join("nowhere/y"), root.join("lib/skills/s/broken")).unwrap();
    let r = audit_every_format(&root, &["lib"]);
    let findings = crate::common::arr(&r, "findings");
    let on_skill: Vec<(&str, &str)> = findings
        .iter()
        .filter(|f| f["path"] == "lib/skills/s/SKILL.md")
        .map(|f| (f["rule"].as_str().unwrap(), f["message"].as_str().unwrap()))
        .collect();
    let rules: Vec<&str> = on_skill.iter().map(|(rule, _)| *rule).collect();
    assert_eq!(
        rules,
        ["SA110", "SA110", "SA231", "SA110", "SA110"],
        "{on_skill:?}"
    );
    assert!(on_skill[2].1.contains("../s/Missing.md"), "{on_skill:?}");
}

#[test]
fn what_is_outside_behind_a_link_of_the_tree_is_not_looked_up() {
    // A folder and a file of the skill that are links out: whether the files they lead to
    // exist must not show in the report, so the present and the missing one read alike.
    let t = TempDir::new().unwrap();
    let root = t.path().join("work");
    write(&root, "outside/there.md", CANARY);
    write(
        &root,
        "lib/skills/s/SKILL.md",
        format!(
            "{}
[a](hop/there.md) [b](hop/gone.md) [c](there.md)
Read `hop/there.md` and `hop/gone.md`.
",
            skill_md("s", "").trim_end()
        ),
    );
    symlink(root.join("outside"), root.join("lib/skills/s/hop")).unwrap();
    symlink(
        root.join("outside/there.md"),
        root.join("lib/skills/s/there.md"),
    )
    .unwrap();
    let r = audit_every_format(&root, &["lib"]);
    let on_skill: Vec<(&str, &str)> = crate::common::arr(&r, "findings")
        .iter()
        .filter(|f| f["path"] == "lib/skills/s/SKILL.md")
        .map(|f| (f["rule"].as_str().unwrap(), f["message"].as_str().unwrap()))
        .collect();
    let rules: Vec<&str> = on_skill.iter().map(|(rule, _)| *rule).collect();
    assert_eq!(rules, ["SA110", "SA110", "SA110"], "{on_skill:?}");
}

#[test]
fn a_root_spelled_with_dot_dot_is_judged_as_any_other() {
    // `skill-audit ../lib` from a sibling folder, and a root that climbs in its middle: the
    // root's own `..` are not the body's, so its links and paths are looked up as usual.
    let t = TempDir::new().unwrap();
    let root = t.path().join("work");
    std::fs::create_dir_all(root.join("here")).unwrap();
    write(&root, "lib/skills/s/references/a.md", "");
    write(&root, "lib/skills/s/scripts/run.sh", "echo hi\n");
    write(&root, "outside/secret.md", CANARY);
    write(
        &root,
        "lib/skills/s/SKILL.md",
        format!(
            "{}
[a](references/a.md) [b](references/gone.md) [c](../../../outside/secret.md)
Run `scripts/run.sh`, then read `references/also-gone.md`.
",
            skill_md("s", "").trim_end()
        ),
    );
    let judged = |cwd: &Path, lib: &str| -> Vec<(String, String)> {
        let r = audit_every_format(cwd, &[lib]);
        // Shown relative to the current folder when under it, else whole.
        crate::common::arr(&r, "findings")
            .iter()
            .filter(|f| {
                f["path"]
                    .as_str()
                    .unwrap()
                    .ends_with("lib/skills/s/SKILL.md")
            })
            .map(|f| {
                let rule = f["rule"].as_str().unwrap();
                (rule.to_owned(), f["message"].as_str().unwrap().to_owned())
            })
            .collect()
    };
    let plain = judged(&root, "lib");
    let rules: Vec<&str> = plain.iter().map(|(rule, _)| rule.as_str()).collect();
    assert_eq!(rules, ["SA110", "SA231", "SA232"], "{plain:?}");
    assert_eq!(judged(&root.join("here"), "../lib"), plain);
    assert_eq!(judged(&root, "here/../lib"), plain);
}

#[test]
fn the_canary_is_there_to_be_found_when_the_boundary_is_lifted() {
    // Proves the checks above can fail: with --follow-outside the link to a skill outside
    // is read, and its text reaches the report.
    let t = hostile_tree();
    let work = t.path().join("work");
    let r = run(
        &work,
        &[
            "lib",
            "--follow-outside",
            "-f",
            "json",
            "--fail-on",
            "never",
        ],
    );
    assert!(r.stdout.contains(CANARY), "{}", r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        rules_for(&v, "lib/skills/zero/SKILL.md"),
        ["SA111"],
        "a device"
    );
    assert!(r.peak_kib < MAX_RSS_KIB, "{} KiB", r.peak_kib);
}

#[test]
fn one_file_by_two_spellings_of_the_root_is_one_entry() {
    let t = TempDir::new().unwrap();
    write(t.path(), "lib/skills/a/SKILL.md", skill_md("a", ""));
    symlink("lib", t.path().join("lib-link")).unwrap();
    let abs = t.path().join("lib");
    let r = audit_every_format(
        t.path(),
        &["lib", "lib-link", abs.to_str().unwrap(), "./lib/"],
    );
    // Roots that lead to one folder are one root, under its first spelling.
    assert_eq!(r["roots"], serde_json::json!(["lib"]));
    assert_eq!(paths(&r, "skills"), ["lib/skills/a/SKILL.md"]);
    assert!(rules_for(&r, "lib-link/skills/a/SKILL.md").is_empty());
    assert_eq!(r["summary"]["files_scanned"], 1);
}

#[test]
fn files_hidden_by_ignore_rules_are_counted_and_audited_on_request() {
    let t = TempDir::new().unwrap();
    // A library whose .gitignore, meant for generated folders, also matches a real skill.
    write(t.path(), ".gitignore", "cloudflare-*/\nscratch.agent.md\n");
    write(t.path(), "skills/ok/SKILL.md", skill_md("ok", ""));
    write(
        t.path(),
        "skills/cloudflare-workers/SKILL.md",
        skill_md("cloudflare-workers", ""),
    );
    write(
        t.path(),
        "agents/scratch.agent.md",
        "---\ndescription: d\n---\n",
    );
    // Rules in a nested folder apply below it only.
    write(t.path(), "skills/deep/.ignore", "SKILL.md\n");
    write(t.path(), "skills/deep/SKILL.md", skill_md("deep", ""));
    // The repository tracks the skill its .gitignore matches, as real libraries do.
    let git = |args: &[&str]| {
        let st = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@e.test"])
            .args(args)
            .current_dir(t.path())
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(st.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    git(&["add", "-f", "skills/cloudflare-workers/SKILL.md"]);
    git(&["commit", "-q", "-m", "track an ignored skill"]);
    let r = audit_every_format(t.path(), &["."]);
    assert_eq!(paths(&r, "skills"), ["skills/ok/SKILL.md"]);
    assert_eq!(r["summary"]["ignored_files"], 3);
    let text = run(t.path(), &["."]).stdout;
    assert!(
        text.contains("not audited: 3 files hidden by ignore rules (--no-ignore audits them)"),
        "{text}"
    );
    let verbose = run(t.path(), &[".", "-v"]).stderr;
    assert!(
        verbose.contains("3 files hidden by ignore rules"),
        "{verbose}"
    );
    let all = audit_every_format(t.path(), &[".", "--no-ignore"]);
    assert_eq!(all["summary"]["ignored_files"], 0);
    assert_eq!(paths(&all, "skills").len(), 3);
    assert_eq!(paths(&all, "agents"), ["agents/scratch.agent.md"]);
    // A nested folder's rules: the walk of the root alone counts them too.
    let deep = audit_every_format(t.path(), &["skills"]);
    assert_eq!(deep["summary"]["ignored_files"], 2);
}

/// Ignore files that the walker would read outside the tree, block on or read without end:
/// each folder holding one is walked reading no ignore rule, with an error naming the file.
#[test]
fn ignore_files_that_are_links_fifos_or_huge_are_not_read() {
    let t = TempDir::new().unwrap();
    let root = t.path().join("work");
    // Outside: a file whose line, read as a rule, would hide the skill named after it.
    write(&root, "outside/rules", format!("hidden/\n# {CANARY}\n"));
    let lib = root.join("lib");
    let cases = ["fifo", "zero", "out", "sparse", "gitfile"];
    for name in cases {
        write(
            &lib,
            &format!("{name}/hidden/SKILL.md"),
            skill_md("hidden", ""),
        );
        write(
            &lib,
            &format!("{name}/shown/SKILL.md"),
            skill_md("shown", ""),
        );
    }
    mkfifo(&lib.join("fifo/.gitignore"));
    symlink("/dev/zero", lib.join("zero/.ignore")).unwrap();
    symlink("../../outside/rules", lib.join("out/.gitignore")).unwrap();
    let sparse = std::fs::File::create(lib.join("sparse/.gitignore")).unwrap();
    sparse.set_len(1 << 30).unwrap();
    // A `.git` file naming a repository whose exclude file is a fifo.
    std::fs::create_dir_all(lib.join("repo/info")).unwrap();
    mkfifo(&lib.join("repo/info/exclude"));
    write(&lib, "repo/commondir", ".\n");
    write(
        &lib,
        "gitfile/.git",
        format!("gitdir: {}\n", lib.join("repo").display()),
    );
    let r = audit_every_format(&root, &["lib"]);
    for name in cases {
        let skills = paths(&r, "skills");
        assert!(
            skills.contains(&format!("lib/{name}/hidden/SKILL.md")),
            "{name}: {skills:?}"
        );
        let file = if name == "gitfile" { ".git" } else { "" };
        let errors: Vec<&Value> = r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| {
                f["rule"] == "SA100"
                    && f["path"]
                        .as_str()
                        .unwrap()
                        .starts_with(&format!("lib/{name}/{file}"))
            })
            .collect();
        assert_eq!(errors.len(), 1, "{name}: {errors:?}");
        assert!(
            errors[0]["message"]
                .as_str()
                .unwrap()
                .contains(&format!("no ignore rule is honoured in `lib/{name}`")),
            "{}",
            errors[0]
        );
        // A `.git` file is said to name a repository, not called an ignore file.
        let noun = if name == "gitfile" {
            "this file names a repository"
        } else {
            "this ignore file is"
        };
        assert!(
            errors[0]["message"].as_str().unwrap().contains(noun),
            "{}",
            errors[0]
        );
    }
    assert_eq!(r["summary"]["ignored_files"], 0);
}

/// Repeats that multiply what a report holds: one name on thousands of skills, a plugin that
/// lists its folders hundreds of times, an agent that lists one name thousands of times.
/// Each finding names a few of the other skills and counts the rest; each link is made once.
#[test]
fn repeated_names_and_entries_do_not_multiply_the_report() {
    const SAME: usize = 1_000;
    let t = TempDir::new().unwrap();
    let root = t.path();
    for i in 0..SAME {
        write(
            root,
            &format!("lib/skills/s{i}/SKILL.md"),
            // Each its own file: copies of one file are no duplicates.
            skill_with_body("same", &format!("# s{i}\n")),
        );
    }
    for i in 0..50 {
        write(
            root,
            &format!("lib/plug/skills/p{i}/SKILL.md"),
            skill_md(&format!("p{i}"), ""),
        );
    }
    write(
        root,
        "lib/plug/agents/a.md",
        "---\nname: a\ndescription: d\n---\nBody\n",
    );
    let listed = |p: &'static str| vec![p; 300];
    write(
        root,
        "lib/plug/.claude-plugin/plugin.json",
        serde_json::json!({"name": "p", "skills": listed("./skills/"), "agents": listed("./agents/")})
            .to_string(),
    );
    let names = vec!["same"; 20_000].join(", ");
    write(
        root,
        "lib/.github/agents/b.agent.md",
        format!("---\nname: b\ndescription: d\nskills: [{names}]\n---\nBody\n"),
    );
    let r = run(root, &["lib", "--fail-on", "never", "-f", "json"]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.peak_kib < MAX_RSS_KIB, "{} KiB", r.peak_kib);
    let report: Value = serde_json::from_str(&r.stdout).unwrap();
    let dup: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["rule"] == "SA401")
        .map(|f| f["message"].as_str().unwrap())
        .collect();
    assert_eq!(dup.len(), SAME);
    assert!(
        dup.iter()
            .all(|m| m.contains(&format!(" and {} more ", SAME - 1 - 5))),
        "{}",
        dup[0]
    );
    // 50 plugin skills for its agent, and the skills of the name for the other.
    let links = report["links"].as_array().unwrap();
    assert_eq!(links.len(), 50 + SAME);
}
