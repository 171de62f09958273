//! Generated files stay in sync with the code, and the bundled example profiles stay loadable.
//!
//! `schemas/profile.schema.json` is generated from `skill_audit::profile::schema()`. When the
//! profile format changes, regenerate it with:
//!
//! ```text
//! UPDATE_SCHEMAS=1 cargo test --test schemas
//! ```

use std::path::{Path, PathBuf};

fn repo_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
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
        .unwrap_or_else(|e| panic!("cannot read {rel}: {e}; generate it with `UPDATE_SCHEMAS=1 cargo test --test schemas`"))
        // A checkout with CRLF line endings holds the same schema.
        .replace("\r\n", "\n");
    assert!(
        committed == generated,
        "{rel} is out of date with the code; regenerate it with \
         `UPDATE_SCHEMAS=1 cargo test --test schemas` and commit the result"
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
