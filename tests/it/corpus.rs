//! Real libraries (see `../shared/corpus/README.md`): the binary must find every skill file,
//! exactly once, and finish without an internal error or a crash.
//!
//! When a corpus folder is missing the test is skipped with a message, unless `CI` is set, in
//! which case a missing corpus is a failure.

use crate::common::*;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Every file named `SKILL.md` under `dir`, by an independent walk (std::fs only), including
/// hidden folders such as `.github`, but not `.git` or `node_modules`.
fn skill_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap())
        .collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let ty = e.file_type().unwrap();
        let name = e.file_name();
        if ty.is_dir() {
            if name != ".git" && name != "node_modules" {
                skill_files(&e.path(), out);
            }
        } else if ty.is_file() && name == "SKILL.md" {
            out.push(e.path());
        }
    }
}

/// Run the binary on `root` from the repository root; check the exit code, stderr and
/// internal errors; return the report.
fn audit(root: &Path) -> Value {
    let out = bin(MANIFEST_DIR)
        .arg(root)
        .args(["-f", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let code = out.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "exit code {code:?} (0 or 1 expected); stderr:\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("the report is JSON");
    let internal: Vec<&Value> = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == "SA199")
        .collect();
    assert!(internal.is_empty(), "internal errors: {internal:#?}");
    report
}

/// The report's skill paths, resolved to real paths, with how often each appears.
/// Each SKILL.md the report accounts for: as a skill, or (SA114) as a file of the skill whose
/// folder holds it.
fn reported(report: &Value) -> BTreeMap<PathBuf, usize> {
    let cwd = Path::new(MANIFEST_DIR);
    let mut seen = BTreeMap::new();
    let documents = report["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter(|f| f["rule"] == "SA114");
    for s in report["skills"]
        .as_array()
        .expect("skills")
        .iter()
        .chain(documents)
    {
        let shown = s["path"].as_str().expect("path");
        assert!(!shown.contains('\\'), "{shown}");
        let p = cwd.join(shown);
        let real = p
            .canonicalize()
            .unwrap_or_else(|e| panic!("reported path {shown} does not exist: {e}"));
        *seen.entry(real).or_insert(0) += 1;
    }
    seen
}

#[test]
fn awesome_copilot_every_skill_exactly_once() {
    let Some(root) = corpus(AWESOME_COPILOT) else {
        return;
    };
    let mut expected = Vec::new();
    skill_files(&root, &mut expected);
    assert!(
        expected.len() > 100,
        "the independent walk found only {} SKILL.md files",
        expected.len()
    );
    assert!(
        expected
            .iter()
            .any(|p| p.components().any(|c| c.as_os_str() == ".github")),
        "the corpus has skills under .github/"
    );
    let report = audit(&root);
    let seen = reported(&report);
    let duplicated: Vec<_> = seen.iter().filter(|(_, n)| **n > 1).collect();
    assert!(
        duplicated.is_empty(),
        "reported more than once: {duplicated:#?}"
    );
    let missing: Vec<_> = expected.iter().filter(|p| !seen.contains_key(*p)).collect();
    assert!(missing.is_empty(), "not reported: {missing:#?}");
    // Nothing reported that the walk did not find (other casings would be; this corpus has none).
    let extra: Vec<_> = seen.keys().filter(|p| !expected.contains(p)).collect();
    assert!(
        extra.is_empty(),
        "reported but not found by the walk: {extra:#?}"
    );
    // The 15 files of the qdrant skills' sections are files of those skills.
    let documents = arr(&report, "findings")
        .iter()
        .filter(|f| f["rule"] == "SA114")
        .count();
    assert_eq!(documents, 15);
    assert_eq!(
        report["summary"]["skills"].as_u64(),
        Some((expected.len() - documents) as u64)
    );
}

#[test]
fn awesome_copilot_chatmodes_does_not_crash() {
    let Some(root) = corpus(CHATMODES) else {
        return;
    };
    let mut expected = Vec::new();
    skill_files(&root, &mut expected);
    let report = audit(&root);
    let seen = reported(&report);
    assert!(seen.values().all(|n| *n == 1), "{seen:#?}");
    let mut found: Vec<&PathBuf> = seen.keys().collect();
    found.sort();
    let mut want: Vec<&PathBuf> = expected.iter().collect();
    want.sort();
    assert_eq!(found, want);
}

#[test]
fn a_corpus_folder_reads_the_same_by_a_root_that_climbs() {
    // `skill-audit ../corpus/X` from beside the folder, as from a sibling checkout, finds what
    // `skill-audit X` finds: the root's own `..` are not the body's. No link of these
    // libraries leaves its folder.
    for name in [AWESOME_COPILOT, OPENCLAW_A, TEMPLATES, "antigravity-c"] {
        let Some(root) = corpus(name) else { return };
        let (Some(cwd), Some(parent)) = (root.parent(), root.parent().and_then(Path::file_name))
        else {
            panic!("{} has no parent folder", root.display());
        };
        let climbing = Path::new("..").join(parent).join(name);
        let findings = |arg: &Path| {
            let (r, _) = json_of(bin(cwd).arg(arg).args(["--fail-on", "never", "-f", "json"]));
            arr(&r, "findings").clone()
        };
        let plain = findings(Path::new(name));
        let outside = plain.iter().filter(|f| f["rule"] == "SA110").count();
        assert_eq!(outside, 0, "{name}");
        assert!(
            plain
                .iter()
                .any(|f| f["rule"] == "SA232" || f["rule"] == "SA231"),
            "{name} has missing references to be found"
        );
        assert!(
            findings(&climbing) == plain,
            "{name} by {}",
            climbing.display()
        );
    }
}

/// A fresh clone has no corpus, and CI checks that by pointing the one helper at nothing
/// (`SKILL_AUDIT_CORPUS`): that only proves something if no test finds the corpus another way.
#[test]
fn only_the_skip_helper_names_the_corpus_folder() {
    let root = std::path::Path::new(MANIFEST_DIR);
    let helper = root.join("tests/support/corpus.rs");
    let mut stack = vec![root.join("src"), root.join("tests"), root.join("benches")];
    // Built here, so this test's own lines do not spell it.
    let needles = [["shared", "corpus"].join("/"), ["\"..", "shared"].join("/")];
    let mut offenders = Vec::new();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") && path != helper {
                let text = std::fs::read_to_string(&path).unwrap();
                // Code, not comments, that spells the corpus folder out.
                offenders.extend(
                    text.lines()
                        .filter(|l| !l.trim_start().starts_with("//"))
                        .filter(|l| needles.iter().any(|n| l.contains(n.as_str())))
                        .map(|l| format!("{}: {}", path.display(), l.trim())),
                );
            }
        }
    }
    assert!(offenders.is_empty(), "use common::corpus(): {offenders:#?}");
}
