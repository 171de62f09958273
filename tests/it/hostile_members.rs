//! Plugins that hold the same skills many times over: marketplace entries that repeat one
//! `source` and `skills` list, and plugin folders nested inside each other. Which plugins hold
//! a skill shows in plugin-scoped policies (a policy's `plugin` selects every skill the plugin
//! holds) and in duplicate names (SA401, judged within the nearest plugin). The shapes are
//! large enough that keeping every (plugin, skill) pair apart would cost hundreds of megabytes.

use crate::common::*;

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;

/// A `skill-audit.toml` with one policy per `(id, plugin)`: every skill of that plugin must
/// name a licence, which none of the skills here does.
fn policies(scoped: &[(&str, &str)]) -> String {
    let mut toml = String::new();
    for (id, plugin) in scoped {
        write!(
            toml,
            "[[policy]]\nid = \"{id}\"\nname = \"license-{plugin}\"\napplies-to = \"skill\"\n\
             plugin = \"{plugin}\"\ncheck = \"required-field\"\nfield = \"license\"\n\n"
        )
        .unwrap();
    }
    toml
}

/// The report of `root`, every finding kept.
fn audit(root: &Path) -> Value {
    json_run(root, &["--fail-on", "never"]).0
}

/// How many findings of `rule` the report has, and on how many files.
fn count(r: &Value, rule: &str) -> (usize, usize) {
    let found = findings(r, rule);
    let files: std::collections::BTreeSet<&str> = found.iter().map(|f| s(f, "path")).collect();
    (found.len(), files.len())
}

#[test]
fn marketplace_entries_repeating_one_list_each_hold_every_skill() {
    const ENTRIES: usize = 3500;
    const SKILLS: usize = 200;
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    for i in 0..SKILLS {
        write(
            root,
            &format!("skills/s{i}/SKILL.md"),
            skill_md(&format!("s{i}"), ""),
        );
    }
    // A second skill named `s0` in the listed folder: both are in every entry's namespace.
    // Not a copy of `s0`'s file: copies are no duplicates.
    write(
        root,
        "skills/dup/SKILL.md",
        skill_with_body("s0", "# s0, again\n"),
    );
    write(root, "sub/skills/a/SKILL.md", skill_md("a", ""));
    write(root, "sub/skills/b/SKILL.md", skill_md("b", ""));
    // One entry per line, each listing the folder and a path that names nothing; the last has
    // the same list from another folder, which resolves it to that folder's skills.
    let mut entries: Vec<String> = (0..ENTRIES)
        .map(|i| {
            format!(r#"{{"name": "e{i}", "source": "./", "skills": ["./skills/", "./missing/"]}}"#)
        })
        .collect();
    entries.push(
        r#"{"name": "sub", "source": "./sub", "skills": ["./skills/", "./missing/"]}"#.to_owned(),
    );
    write(
        root,
        ".claude-plugin/marketplace.json",
        format!(
            "{{\"name\": \"m\", \"owner\": {{\"name\": \"o\"}}, \"plugins\": [\n{}\n]}}\n",
            entries.join(",\n")
        ),
    );
    let last = format!("e{}", ENTRIES - 1);
    write(
        root,
        "skill-audit.toml",
        policies(&[("P001", "e0"), ("P002", &last), ("P003", "sub")]),
    );
    let r = audit(root);
    // The first and the last entry alike hold all the listed skills; `sub` only its own.
    assert_eq!(count(&r, "P001"), (SKILLS + 1, SKILLS + 1));
    assert_eq!(count(&r, "P002"), (SKILLS + 1, SKILLS + 1));
    assert_eq!(count(&r, "P003"), (2, 2));
    assert!(
        findings(&r, "P003")
            .iter()
            .all(|f| s(f, "path").starts_with("sub/skills/")),
        "{:#}",
        r["findings"]
    );
    // Each entry's missing path is reported at that entry's own line.
    let missing = findings(&r, "SA602");
    assert_eq!(missing.len(), ENTRIES + 1, "{missing:#?}");
    let lines: std::collections::BTreeSet<u64> = missing
        .iter()
        .map(|f| f["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, (2..=2 + ENTRIES as u64).collect());
    // The two `s0` collide in the first entry's namespace, and nowhere else.
    let dup = findings(&r, "SA401");
    let paths: Vec<&str> = dup.iter().map(|f| s(f, "path")).collect();
    assert_eq!(
        paths,
        ["skills/dup/SKILL.md", "skills/s0/SKILL.md"],
        "{dup:#?}"
    );
    assert!(
        dup.iter().all(|f| s(f, "message").contains("`e0`")),
        "{dup:#?}"
    );
}

#[test]
fn nested_plugins_each_hold_every_skill_below_them() {
    const DEPTH: usize = 160;
    const SKILLS: usize = 250;
    /// Every how many levels a plugin has a skill of its own.
    const EVERY: usize = 16;
    let t = tempfile::tempdir().unwrap();
    let root = t.path();
    let mut dir = String::new();
    for i in 0..DEPTH {
        // Long folder names: each (plugin, skill) pair copied would hold two long paths.
        dir.push_str("a-plugin-folder/");
        write(
            root,
            &format!("{dir}plugin.json"),
            format!(r#"{{"name": "p{i}"}}"#),
        );
        if i % EVERY == 0 {
            // One name for all: each is alone in its nearest plugin.
            write(
                root,
                &format!("{dir}skills/s/SKILL.md"),
                skill_md("same", ""),
            );
        }
    }
    for j in 0..SKILLS {
        write(
            root,
            &format!("{dir}skills/s{j}/SKILL.md"),
            skill_md(&format!("s{j}"), ""),
        );
    }
    write(
        root,
        &format!("{dir}skills/dup/SKILL.md"),
        skill_with_body("s0", "# s0, again\n"),
    );
    // The same name outside every plugin is another namespace.
    write(root, "skills/s0/SKILL.md", skill_md("s0", ""));
    let quarter = DEPTH / 4;
    let innermost = format!("p{}", DEPTH - 1);
    write(
        root,
        "skill-audit.toml",
        policies(&[
            ("P001", "p0"),
            ("P002", &format!("p{quarter}")),
            ("P003", &innermost),
        ]),
    );
    let r = audit(root);
    // A plugin's root holds the skills of the plugins nested in it, however deep: the
    // level skills from its own down, and all those at the bottom.
    let held = |from: usize| {
        let n = (from..DEPTH).filter(|i| i % EVERY == 0).count() + SKILLS + 1;
        (n, n)
    };
    assert_eq!(count(&r, "P001"), held(0));
    assert_eq!(count(&r, "P002"), held(quarter));
    assert_eq!(count(&r, "P003"), held(DEPTH - 1));
    // The two `s0` at the bottom share the nearest plugin only; the top one is apart, and
    // each `same` is alone in its own plugin.
    let dup = findings(&r, "SA401");
    let paths: Vec<&str> = dup.iter().map(|f| s(f, "path")).collect();
    assert_eq!(
        paths,
        [
            format!("{dir}skills/dup/SKILL.md"),
            format!("{dir}skills/s0/SKILL.md")
        ],
        "{dup:#?}"
    );
    assert!(
        dup.iter()
            .all(|f| s(f, "message").contains(&format!("`{innermost}`"))),
        "{dup:#?}"
    );
}
