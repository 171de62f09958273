//! Generated files stay in sync with the code, and the bundled example profiles stay loadable.
//!
//! `schemas/profile.schema.json`, `schemas/config.schema.json` and `schemas/report.schema.json`
//! are generated from `skill_audit::profile::schema()`, `skill_audit::config::schema()` and
//! `skill_audit::report::schema()`. When one of those formats changes, regenerate them with:
//!
//! ```text
//! UPDATE_SCHEMAS=1 cargo test --test it schemas::
//! ```

use std::path::{Path, PathBuf};

use crate::common::{EXAMPLE, MANIFEST_DIR, bin, stdout_of};

fn repo_file(rel: &str) -> PathBuf {
    Path::new(MANIFEST_DIR).join(rel)
}

/// Compare `generated` with the committed file at `rel`, or rewrite the file when
/// `UPDATE_SCHEMAS` is set.
fn check_generated(rel: &str, generated: &str) {
    let path = repo_file(rel);
    if std::env::var_os("UPDATE_SCHEMAS").is_some() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(&path, generated).unwrap_or_else(|e| panic!("cannot write {rel}: {e}"));
        return;
    }
    let committed = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {rel}: {e}; generate it with `UPDATE_SCHEMAS=1 cargo test --test it schemas::`"))
        // A checkout with CRLF line endings holds the same schema.
        .replace("\r\n", "\n");
    assert!(
        committed == generated,
        "{rel} is out of date with the code; regenerate it with \
         `UPDATE_SCHEMAS=1 cargo test --test it schemas::` and commit the result"
    );
}

#[test]
fn profile_schema_is_up_to_date() {
    let schema = skill_audit::profile::schema();
    let mut text = serde_json::to_string_pretty(&schema).unwrap();
    text.push('\n');
    check_generated("schemas/profile.schema.json", &text);
}

#[test]
fn config_schema_is_up_to_date() {
    let schema = skill_audit::config::schema();
    let mut text = serde_json::to_string_pretty(&schema).unwrap();
    text.push('\n');
    check_generated("schemas/config.schema.json", &text);
}

#[test]
fn report_schema_is_up_to_date() {
    let schema = skill_audit::report::schema();
    let mut text = serde_json::to_string_pretty(&schema).unwrap();
    text.push('\n');
    check_generated("schemas/report.schema.json", &text);
}

/// The JSON report of the example library, with every kind of entry, validates against the
/// committed report schema.
#[test]
fn example_report_matches_report_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo_file("schemas/report.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the report schema is valid");
    let out = stdout_of(
        bin(MANIFEST_DIR)
            .args(["--format", "json", "--fail-on", "never"])
            .args(EXAMPLE),
        0,
    );
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    for key in ["skills", "agents", "links", "drift", "findings"] {
        assert!(
            !report[key].as_array().unwrap().is_empty(),
            "the example report has no {key}, so it checks little"
        );
    }
    let errors: Vec<String> = validator
        .iter_errors(&report)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "the report does not match its schema:\n{}",
        errors.join("\n")
    );
    // A report that breaks the contract is rejected, so the check above means something.
    let mut broken = report.clone();
    broken["findings"][0]["rule"] = serde_json::json!("not-a-rule");
    assert!(!validator.is_valid(&broken));
}

/// Every profile shipped (the examples, the built-in hosts) and one `capture --machine` writes
/// validates against the committed profile schema, which an editor checks them with.
#[test]
fn shipped_profiles_match_the_profile_schema() {
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(repo_file("schemas/profile.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the profile schema is valid");
    let mut files: Vec<std::path::PathBuf> = ["examples/profiles", "profiles/builtin"]
        .iter()
        .flat_map(|d| std::fs::read_dir(repo_file(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    assert!(files.len() > 10, "{files:?}");
    let machine = bin(MANIFEST_DIR)
        .args(["capture", "--machine"])
        .output()
        .unwrap();
    assert!(
        machine.status.success(),
        "{}",
        String::from_utf8_lossy(&machine.stderr)
    );
    let mut profiles: Vec<(String, serde_json::Value)> = files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            (
                f.display().to_string(),
                serde_json::from_str(&text).unwrap(),
            )
        })
        .collect();
    profiles.push((
        "capture --machine".to_owned(),
        serde_json::from_slice(&machine.stdout).unwrap(),
    ));
    for (what, profile) in &profiles {
        let errors: Vec<String> = validator
            .iter_errors(profile)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{what}:\n{}", errors.join("\n"));
    }
    // A profile that breaks the contract is rejected, so the check above means something.
    assert!(!validator.is_valid(&serde_json::json!({"tools": "not a list"})));
}

#[test]
fn example_profiles_load() {
    // (file, expected profile name): staging.json has no `name`, so it is named by its stem.
    for (file, name) in [
        ("examples/profiles/prod.json", "prod"),
        ("examples/profiles/staging.json", "staging"),
        ("examples/profiles/dev.json", "dev"),
    ] {
        let profile = skill_audit::profile::load(&repo_file(file), file)
            .unwrap_or_else(|e| panic!("{file} does not load: {e}"));
        assert_eq!(profile.name, name, "{file}");
        assert_eq!(profile.path, file);
        assert!(!profile.tools.is_empty(), "{file} offers no tools");
    }
}
