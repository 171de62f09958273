//! `docs/rules.md`, the rule catalogue, is generated from the rule registry and must not fall
//! behind it. After changing a rule, regenerate it with:
//!
//! ```text
//! UPDATE_DOCS=1 cargo test --test it docs::
//! ```

use std::path::Path;

use crate::common::MANIFEST_DIR;

#[test]
fn rules_catalogue_is_up_to_date() {
    let rel = "docs/rules.md";
    let path = Path::new(MANIFEST_DIR).join(rel);
    let generated = skill_audit::cli::rules_markdown();
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &generated).unwrap_or_else(|e| panic!("cannot write {rel}: {e}"));
        return;
    }
    let committed = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| {
            panic!(
                "cannot read {rel}: {e}; generate it with `UPDATE_DOCS=1 cargo test --test it docs::`"
            )
        })
        .replace("\r\n", "\n");
    assert!(
        committed == generated,
        "{rel} is out of date with the rule registry; regenerate it with \
         `UPDATE_DOCS=1 cargo test --test it docs::` and commit the result"
    );
}

#[test]
fn rules_catalogue_has_a_section_per_rule() {
    let doc = skill_audit::cli::rules_markdown();
    for rule in skill_audit::Rule::ALL {
        let heading = format!("\n## {} {}\n", rule.code(), rule.name());
        let at = doc
            .find(&heading)
            .unwrap_or_else(|| panic!("no section `{}`", heading.trim()));
        let section = &doc[at + heading.len()..];
        let section = &section[..section.find("\n## ").unwrap_or(section.len())];
        assert!(
            section.contains(&format!(
                "Default severity: **{}**",
                rule.default_severity()
            )),
            "{}",
            rule.code()
        );
        for part in [
            "### What it checks",
            "### Why it matters",
            "### Example\n\n```",
        ] {
            assert!(section.contains(part), "{} has no `{part}`", rule.code());
        }
        assert!(section.contains(rule.doc().what), "{}", rule.code());
    }
}
