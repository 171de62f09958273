//! `--format sarif`: the log validates against the official SARIF 2.1.0 JSON schema (vendored
//! in `tests/data/`, see the NOTICE beside it), its rules and results agree with the registry,
//! locations are relative `/`-separated URIs, and the example library's log is snapshotted.
//!
//! Update the snapshot with `INSTA_UPDATE=always cargo test --test it sarif::` and read the diff.

use crate::common::*;

use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;

use serde_json::Value;
use skill_audit::Rule;
use tempfile::TempDir;

/// The example audit, with `--fail-on never` so that it exits with 0.
fn example_args() -> Vec<&'static str> {
    [&["--fail-on", "never"][..], EXAMPLE].concat()
}

/// Run with `args` in `cwd`, expecting exit code `code`; return standard output.
fn run(cwd: &Path, args: &[&str], code: i32) -> String {
    let out = bin(cwd).args(args).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(code),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The example library audited against the three example profiles, as SARIF text.
fn example_text() -> String {
    let mut args = example_args();
    args.extend(["-f", "sarif"]);
    run(Path::new(MANIFEST_DIR), &args, 0)
}

fn example() -> Value {
    serde_json::from_str(&example_text()).expect("valid JSON")
}

fn validator() -> &'static jsonschema::Validator {
    static V: OnceLock<jsonschema::Validator> = OnceLock::new();
    V.get_or_init(|| {
        let path = Path::new(MANIFEST_DIR).join("tests/data/sarif-schema-2.1.0.json");
        let mut schema: Value =
            serde_json::from_str(&std::fs::read_to_string(path).unwrap()).expect("schema JSON");
        // The one known defect of the 2.1.0 schema: the `language` pattern has a stray `]`,
        // which Rust's regex engines reject. Apply the fix OASIS published in errata 01.
        assert_eq!(
            replace_patterns(&mut schema, BAD_LANGUAGE_PATTERN, FIXED_LANGUAGE_PATTERN),
            2
        );
        assert_eq!(
            schema["title"],
            "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
        );
        jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .expect("the SARIF schema compiles")
    })
}

const BAD_LANGUAGE_PATTERN: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
const FIXED_LANGUAGE_PATTERN: &str = "^[a-zA-Z]{2}(-[a-zA-Z]{2})?$";

/// Replace every `pattern` equal to `from` by `to`; return how many were replaced.
fn replace_patterns(v: &mut Value, from: &str, to: &str) -> usize {
    match v {
        Value::Object(m) => {
            let mut n = 0;
            if m.get("pattern").and_then(Value::as_str) == Some(from) {
                m.insert("pattern".into(), Value::from(to));
                n += 1;
            }
            n + m
                .values_mut()
                .map(|c| replace_patterns(c, from, to))
                .sum::<usize>()
        }
        Value::Array(a) => a.iter_mut().map(|c| replace_patterns(c, from, to)).sum(),
        _ => 0,
    }
}

/// Fail with every schema violation listed.
fn assert_schema_valid(log: &Value) {
    let errors: Vec<String> = validator()
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF schema violations:\n{}",
        errors.join("\n")
    );
}

/// The checks every log must pass, whatever it reports.
fn assert_well_formed(log: &Value) {
    assert_schema_valid(log);
    assert_eq!(
        log["$schema"],
        "https://json.schemastore.org/sarif-2.1.0.json"
    );
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "skill-audit");
    assert_eq!(driver["version"], VERSION);

    // One descriptor per registry rule, in registry order.
    let rules = driver["rules"].as_array().unwrap();
    assert_eq!(rules.len(), Rule::ALL.len());
    for (d, r) in rules.iter().zip(Rule::ALL) {
        assert_eq!(d["id"], r.code());
        assert_eq!(d["name"], r.name());
        assert_eq!(d["shortDescription"]["text"], r.summary());
        assert_eq!(d["fullDescription"]["text"], r.doc().what);
        for key in ["text", "markdown"] {
            let help = d["help"][key].as_str().unwrap();
            for part in [r.doc().what, r.doc().why, r.doc().example] {
                assert!(
                    help.contains(part),
                    "{} help.{key} lacks {part:?}",
                    r.code()
                );
            }
        }
        assert_eq!(
            d["defaultConfiguration"]["level"],
            level(r.default_severity().as_str())
        );
    }

    for res in run["results"].as_array().unwrap() {
        let id = res["ruleId"].as_str().unwrap();
        let index = res["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], id, "ruleIndex points at ruleId");
        assert!(Rule::from_id(id).is_some(), "{id} is a registry rule");
        assert!(matches!(
            res["level"].as_str().unwrap(),
            "error" | "warning" | "note"
        ));
        assert!(!res["message"]["text"].as_str().unwrap().is_empty());
        let locations = res["locations"].as_array().unwrap();
        assert_eq!(locations.len(), 1);
        let phys = &locations[0]["physicalLocation"];
        let uri = phys["artifactLocation"]["uri"].as_str().unwrap();
        assert!(!uri.contains('\\'), "{uri} is /-separated");
        if uri.starts_with("file:") {
            assert!(phys["artifactLocation"].get("uriBaseId").is_none());
        } else {
            assert_eq!(phys["artifactLocation"]["uriBaseId"], "%SRCROOT%");
            assert!(!uri.starts_with('/'), "{uri} is relative");
        }
        let region = &phys["region"];
        let start = region["startColumn"].as_u64().unwrap();
        assert!(region["startLine"].as_u64().unwrap() >= 1);
        assert!(start >= 1);
        // A region with an end spans at least one column of its one line.
        if let Some(end) = region["endColumn"].as_u64() {
            assert_eq!(region["endLine"], region["startLine"], "{res}");
            assert!(end > start, "{res}");
        }
        // Tools apply SARIF fixes without asking: only safe ones are offered.
        if res.get("fixes").is_some() {
            assert!(res["properties"].get("unsafeFix").is_none(), "{res}");
        }
    }
    // Code scanning tracks an alert by rule, file and fingerprint: no two results share them.
    let mut keys = BTreeSet::new();
    for res in run["results"].as_array().unwrap() {
        if let Some(print) = res["partialFingerprints"]["skillAuditLineHash/v2"].as_str() {
            let uri = &res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
            let key = (res["ruleId"].to_string(), uri.to_string(), print.to_owned());
            assert!(keys.insert(key), "fingerprint shared: {res}");
        }
    }
}

/// The SARIF level of a skill-audit severity.
fn level(severity: &str) -> &str {
    match severity {
        "info" => "note",
        s => s,
    }
}

/// The findings of the same run as JSON.
fn json_findings(cwd: &Path, args: &[&str], code: i32) -> Vec<Value> {
    let mut args = args.to_vec();
    args.extend(["-f", "json"]);
    let v: Value = serde_json::from_str(&run(cwd, &args, code)).unwrap();
    v["findings"].as_array().unwrap().clone()
}

/// Undo the percent-encoding of a URI path.
fn decode(uri: &str) -> String {
    let b = uri.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            out.push(u8::from_str_radix(&uri[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

#[test]
fn example_library_is_valid_sarif() {
    let log = example();
    assert_well_formed(&log);
    let results = log["runs"][0]["results"].as_array().unwrap();
    let findings = json_findings(Path::new(MANIFEST_DIR), &example_args(), 0);
    assert!(!findings.is_empty());
    assert_eq!(results.len(), findings.len(), "one result per finding");
    for (r, f) in results.iter().zip(&findings) {
        assert_eq!(r["ruleId"], f["rule"]);
        assert_eq!(r["level"], level(f["severity"].as_str().unwrap()));
        assert_eq!(r["message"]["text"], f["message"]);
        let phys = &r["locations"][0]["physicalLocation"];
        assert_eq!(phys["artifactLocation"]["uri"], f["path"]);
        assert_eq!(phys["region"]["startLine"], f["line"]);
        assert_eq!(phys["region"]["startColumn"], f["column"]);
        assert!(r.get("baselineState").is_none());
        // The line's fingerprint, as the JSON report has it, in hex (carried on over the
        // profile's name for a finding on one profile), then the occurrence.
        let print = r["partialFingerprints"]["skillAuditLineHash/v2"].as_str();
        let hash = print.map(|p| p.split_once(':').unwrap().0.to_owned());
        let want = f["fingerprint"].as_u64().map(|h| {
            let mut h = h as u32;
            if let Some(p) = f["profile"].as_str() {
                for b in std::iter::once(0).chain(p.bytes()) {
                    h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
                }
            }
            format!("{h:08x}")
        });
        assert_eq!(hash, want, "{r}");
    }
    assert!(
        results
            .iter()
            .any(|r| r.get("partialFingerprints").is_some()),
        "most results point at a line"
    );
    // Several results of one rule on one line (one per profile, one per skill an agent
    // loads), each with its own fingerprint: code scanning would merge them.
    let mut prints = BTreeSet::new();
    for r in results {
        let uri = &r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
        if let Some(p) = r["partialFingerprints"]["skillAuditLineHash/v2"].as_str() {
            assert!(
                prints.insert((r["ruleId"].to_string(), uri.to_string(), p)),
                "{r}"
            );
        }
    }
    // Unsafe fixes are described, never offered as `fixes`; safe ones are offered.
    assert!(
        results
            .iter()
            .any(|r| r["properties"]["unsafeFix"].is_string())
    );
    assert!(results.iter().any(|r| r.get("fixes").is_some()));
    // A result whose line was read spans what the text output underlines.
    assert!(
        results
            .iter()
            .all(|r| r.get("partialFingerprints").is_none()
                || r["locations"][0]["physicalLocation"]["region"]["endColumn"].is_u64()),
        "every result on a read line has an end"
    );
    let levels: BTreeSet<&str> = results
        .iter()
        .map(|r| r["level"].as_str().unwrap())
        .collect();
    assert_eq!(levels, BTreeSet::from(["error", "note", "warning"]));
}

#[test]
fn output_is_deterministic() {
    assert_eq!(example_text(), example_text());
}

#[test]
fn schema_rejects_a_broken_log() {
    // The validator is live: a result without a message, or a 0 line, fails the schema.
    let mut log = example();
    let result = &mut log["runs"][0]["results"][0];
    result["locations"][0]["physicalLocation"]["region"]["startLine"] = Value::from(0);
    assert!(!validator().is_valid(&log));
    let mut log = example();
    log["runs"][0]["results"][0]["level"] = Value::from("info");
    assert!(!validator().is_valid(&log));
    let mut log = example();
    log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] =
        Value::from("a b/%zz");
    assert!(
        !validator().is_valid(&log),
        "uri-reference format is checked"
    );
}

#[test]
fn example_snapshot() {
    let mut log = example();
    let driver = &mut log["runs"][0]["tool"]["driver"];
    assert_eq!(driver["version"], VERSION);
    driver["version"] = Value::from("[version]");
    driver["semanticVersion"] = Value::from("[version]");
    insta::assert_json_snapshot!("sarif", log);
}

/// A library whose folder names need percent-encoding.
fn odd_library() -> TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for dir in ["a b#1", "100%:x", "é,ü", "weird?q=1&r"] {
        let p = tmp.path().join("lib/skills").join(dir);
        std::fs::create_dir_all(&p).unwrap();
        // A broken frontmatter: an error finding in every file.
        std::fs::write(p.join("SKILL.md"), "---\nname: [\n---\n").unwrap();
    }
    tmp
}

#[test]
fn odd_paths_are_encoded_uris() {
    let tmp = odd_library();
    let args = ["lib", "-f", "sarif"];
    let log: Value = serde_json::from_str(&run(tmp.path(), &args, 1)).unwrap();
    assert_well_formed(&log);
    let findings = json_findings(tmp.path(), &["lib"], 1);
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), findings.len());
    assert!(results.len() >= 4);
    for (r, f) in results.iter().zip(&findings) {
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert!(
            uri.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-._~/%".contains(&b)),
            "{uri}"
        );
        assert_eq!(decode(uri), f["path"].as_str().unwrap());
    }
}

#[test]
fn paths_outside_the_working_directory_are_file_uris() {
    let tmp = odd_library();
    let elsewhere = tempfile::tempdir().unwrap();
    let lib = tmp.path().join("lib");
    let log: Value = serde_json::from_str(&run(
        elsewhere.path(),
        &[lib.to_str().unwrap(), "-f", "sarif"],
        1,
    ))
    .unwrap();
    assert_well_formed(&log);
    let findings = json_findings(elsewhere.path(), &[lib.to_str().unwrap()], 1);
    assert!(
        findings
            .iter()
            .all(|f| f["path"].as_str().unwrap().starts_with('/') || cfg!(windows))
    );
    for (r, f) in log["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&findings)
    {
        let path = f["path"].as_str().unwrap();
        let loc = &r["locations"][0]["physicalLocation"]["artifactLocation"];
        let uri = loc["uri"].as_str().unwrap();
        if path.starts_with('/') {
            assert_eq!(decode(uri.strip_prefix("file://").unwrap()), path);
            assert!(loc.get("uriBaseId").is_none());
        } else {
            assert!(uri.starts_with("file:///"), "{uri}");
        }
    }
}

#[test]
fn baseline_marks_new_and_unchanged_results() {
    let tmp = odd_library();
    // The baseline knows all skills but one.
    let old = run(
        tmp.path(),
        &["lib", "--exclude", "a b#1", "-f", "json", "-o", "old.json"],
        1,
    );
    assert!(old.is_empty());
    let log: Value = serde_json::from_str(&run(
        tmp.path(),
        &["lib", "--baseline", "old.json", "-f", "sarif"],
        1,
    ))
    .unwrap();
    assert_well_formed(&log);
    let mut new = 0;
    for r in log["runs"][0]["results"].as_array().unwrap() {
        let uri = r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        let expected = if uri.contains("a%20b%231") {
            new += 1;
            "new"
        } else {
            "unchanged"
        };
        assert_eq!(r["baselineState"], expected, "{uri}");
    }
    assert!(new >= 1);
}

#[test]
fn sarif_output_file_by_extension() {
    let tmp = odd_library();
    let out = run(tmp.path(), &["lib", "-o", "report.sarif"], 1);
    assert!(out.is_empty());
    let log: Value =
        serde_json::from_str(&std::fs::read_to_string(tmp.path().join("report.sarif")).unwrap())
            .unwrap();
    assert_well_formed(&log);
}

/// The fingerprints of `rule`'s results in `dir`'s log.
fn prints_of(dir: &Path, rule: &str) -> Vec<String> {
    prints_on(dir, rule, &[])
}

/// [`prints_of`] with more arguments (profiles) for the run.
fn prints_on(dir: &Path, rule: &str, more: &[&str]) -> Vec<String> {
    let mut args = vec!["lib", "--fail-on", "never", "-f", "sarif"];
    args.extend_from_slice(more);
    let log: Value = serde_json::from_str(&run(dir, &args, 0)).unwrap();
    (log["runs"][0]["results"].as_array().unwrap().iter())
        .filter(|r| r["ruleId"] == rule)
        .map(|r| r["partialFingerprints"]["skillAuditLineHash/v2"].to_string())
        .collect()
}

#[test]
fn findings_about_a_file_or_its_uses_keep_their_fingerprint_when_other_lines_change() {
    // SA230 points at line 501 and SA313 at the first use: places, not what they are about.
    let tmp = TempDir::new().unwrap();
    let write = |top: &str, first_block: &str| {
        let mut body = String::from("---\nname: long\ndescription: Does a long thing.\n---\n");
        body.push_str(top);
        body.push_str(first_block);
        body.push_str("```bash\njq . data.json\n```\n");
        for i in 0..600 {
            body.push_str(&format!("Step {i} of the long list.\n"));
        }
        crate::common::write(tmp.path(), "lib/long/SKILL.md", body);
    };
    write("", "");
    let before = (
        prints_of(tmp.path(), "SA230"),
        prints_of(tmp.path(), "SA313"),
    );
    assert_eq!((before.0.len(), before.1.len()), (1, 1), "{before:?}");
    // Lines above line 501, and an earlier use of the same executable.
    write(
        "# Long\n\nRead this first.\n",
        "```bash\njq -r .name data.json\n```\n",
    );
    let after = (
        prints_of(tmp.path(), "SA230"),
        prints_of(tmp.path(), "SA313"),
    );
    assert_eq!(before, after);
}

#[test]
fn findings_about_one_entry_of_a_list_keep_their_fingerprint_when_another_entry_is_fixed() {
    // A fix of one name of a flow `tools` list edits the line every other finding on it
    // points at.
    let tmp = TempDir::new().unwrap();
    let write = |tools: &str| {
        let agent = format!("---\ndescription: Reviews code.\ntools: [{tools}]\n---\nReview it.\n");
        crate::common::write(tmp.path(), "lib/agents/review.agent.md", agent);
    };
    let prints = || {
        let on = ["-p", "builtin:vscode"];
        (
            prints_on(tmp.path(), "SA701", &on),
            prints_on(tmp.path(), "SA702", &on),
        )
    };
    write("runCommands, codebase, thinkHard");
    let before = prints();
    assert_eq!((before.0.len(), before.1.len()), (2, 1), "{before:?}");
    write("runCommands, search/codebase, thinkHard");
    let after = prints();
    assert_eq!(after.0.len(), 1, "{after:?}");
    assert!(before.0.contains(&after.0[0]), "{before:?} {after:?}");
    assert_eq!(before.1, after.1);
}

#[test]
fn findings_on_one_profile_keep_their_fingerprint_when_another_profile_is_dropped() {
    // The skill is unavailable on both profiles, at the same line: numbered in report order,
    // the second profile's result took the first's fingerprint once that was left out.
    let tmp = TempDir::new().unwrap();
    let profile = |name: &str| format!("{{\"name\": \"{name}\", \"tools\": [\"read\"]}}");
    crate::common::write(tmp.path(), "a.json", profile("a"));
    crate::common::write(tmp.path(), "b.json", profile("b"));
    crate::common::write(
        tmp.path(),
        "lib/deploy/SKILL.md",
        "---\nname: deploy\ndescription: Deploys the service.\ndependencies:\n  tools: [kusto/run_query]\n---\nDeploy it.\n",
    );
    let both = prints_on(tmp.path(), "SA402", &["-p", "a.json", "-p", "b.json"]);
    assert_eq!(both.len(), 2, "{both:?}");
    assert_ne!(both[0], both[1]);
    let only_b = prints_on(tmp.path(), "SA402", &["-p", "b.json"]);
    assert_eq!(only_b, both[1..], "{both:?}");
}

#[test]
fn findings_about_one_entry_of_an_openclaw_declaration_keep_their_fingerprint() {
    // OpenClaw's metadata is often one line of JSON: every SA312 and SA314 finding points at
    // it, and declaring one executable edits it.
    let tmp = TempDir::new().unwrap();
    let write = |bins: &str| {
        let skill = format!(
            "---\nname: fetch\ndescription: Fetches things.\nmetadata: {{\"openclaw\": {{\"requires\": {{\"bins\": [{bins}]}}}}}}\n---\nRun `scripts/fetch.sh`.\n"
        );
        crate::common::write(tmp.path(), "lib/fetch/SKILL.md", skill);
        let script =
            "#!/bin/bash\ncurl -s \"$URL\" > out.json\njq . out.json\npython3 -c 'print(1)'\n";
        crate::common::write(tmp.path(), "lib/fetch/scripts/fetch.sh", script);
    };
    write("\"curl\", \"rsync\", \"zip\"");
    let before = (
        prints_of(tmp.path(), "SA312"),
        prints_of(tmp.path(), "SA314"),
    );
    // `URL`, `jq` and `python3` left out; `rsync` and `zip` named nowhere.
    assert_eq!((before.0.len(), before.1.len()), (3, 2), "{before:?}");
    // `jq` declared, `zip` removed: the others are the same alerts.
    write("\"curl\", \"rsync\", \"jq\"");
    let after = (
        prints_of(tmp.path(), "SA312"),
        prints_of(tmp.path(), "SA314"),
    );
    assert_eq!((after.0.len(), after.1.len()), (2, 1), "{after:?}");
    assert!(
        after.0.iter().all(|p| before.0.contains(p)),
        "{before:?} {after:?}"
    );
    assert!(before.1.contains(&after.1[0]), "{before:?} {after:?}");
}
