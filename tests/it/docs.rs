//! `docs/rules.md`, the rule catalogue, is generated from the rule registry and must not fall
//! behind it. After changing a rule, regenerate it with:
//!
//! ```text
//! UPDATE_DOCS=1 cargo test --test it docs::
//! ```
//!
//! The README links every page in `docs/`, and every relative link of the README and of those
//! pages leads to a file that exists (and to a heading of it, when the link names one).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

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

/// The Markdown pages in `docs/`, by file name, sorted.
fn docs_pages() -> Vec<String> {
    let mut pages: Vec<String> = std::fs::read_dir(Path::new(MANIFEST_DIR).join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".md"))
        .collect();
    pages.sort();
    pages
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
        .replace("\r\n", "\n")
}

/// The targets of the Markdown links and images in `text`, outside code blocks and code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans: `[x](y)` inside backticks is not a link.
        let mut plain = String::new();
        for (i, part) in line.split('`').enumerate() {
            if i % 2 == 0 {
                plain.push_str(part);
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            rest = &rest[at + 2..];
            let end = rest.find(')').expect("an unclosed link");
            targets.push(rest[..end].to_string());
            rest = &rest[end..];
        }
    }
    targets
}

/// The anchors GitHub gives the headings of `text`: lowercase, spaces as `-`, punctuation
/// dropped, a repeated anchor numbered from `-1`.
fn anchors(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        }
        if fenced || !line.starts_with('#') {
            continue;
        }
        let title = line.trim_start_matches('#').trim();
        let slug: String = title
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let repeats = seen.entry(slug.clone()).or_insert(0);
        out.push(if *repeats == 0 {
            slug
        } else {
            format!("{slug}-{repeats}")
        });
        *repeats += 1;
    }
    out
}

#[test]
fn readme_links_every_docs_page() {
    let readme = read(&Path::new(MANIFEST_DIR).join("README.md"));
    let targets = link_targets(&readme);
    let pages = docs_pages();
    assert!(pages.len() >= 11, "{pages:?}");
    for page in pages {
        let link = format!("docs/{page}");
        assert!(targets.contains(&link), "README.md does not link {link}");
    }
}

#[test]
fn relative_links_lead_somewhere() {
    let root = Path::new(MANIFEST_DIR);
    let mut files: Vec<PathBuf> = vec![root.join("README.md")];
    files.extend(docs_pages().iter().map(|p| root.join("docs").join(p)));
    let mut checked = 0;
    for file in &files {
        let text = read(file);
        let name = file.strip_prefix(root).unwrap().display().to_string();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, fragment) = match target.split_once('#') {
                Some((path, fragment)) => (path, Some(fragment)),
                None => (target.as_str(), None),
            };
            let linked = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            assert!(
                linked.exists(),
                "{name}: the link `{target}` leads to nothing"
            );
            if let Some(fragment) = fragment {
                let anchors = anchors(&read(&linked));
                assert!(
                    anchors.iter().any(|a| a == fragment),
                    "{name}: `{target}` names no heading of {path}; it has {anchors:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} links found");
}

#[test]
fn anchors_follow_github() {
    let text = "# Reports and CI\n\n## The `dependencies` field\n\n```sh\n# not a heading\n```\n\n\
                ## Pull requests, baselines and sharded runs\n\n## Tests\n\n## Tests run\n\n## Tests\n";
    assert_eq!(
        anchors(text),
        [
            "reports-and-ci",
            "the-dependencies-field",
            "pull-requests-baselines-and-sharded-runs",
            "tests",
            "tests-run",
            "tests-1"
        ]
    );
    assert_eq!(
        link_targets("See [`a`](a.md#b) and ![x](x.png), not `[c](c.md)`.\n```\n[d](d.md)\n```\n"),
        ["a.md#b", "x.png"]
    );
}

/// The table of built-in host profiles in `docs/profiles.md` gives the counts and dates of the
/// files in `profiles/builtin/`.
#[test]
fn builtin_profiles_table_matches_the_files() {
    let page = read(&Path::new(MANIFEST_DIR).join("docs/profiles.md"));
    let dir = Path::new(MANIFEST_DIR).join("profiles/builtin");
    let mut rows = 0;
    for line in page.lines().filter(|l| l.starts_with("| `builtin:")) {
        let cells: Vec<&str> = line.trim_matches('|').split('|').map(str::trim).collect();
        let name = cells[0].trim_matches('`').trim_start_matches("builtin:");
        let file: serde_json::Value =
            serde_json::from_str(&read(&dir.join(format!("{name}.json")))).unwrap();
        let len = |key: &str| match &file[key] {
            serde_json::Value::Array(a) => a.len(),
            serde_json::Value::Object(o) => o.len(),
            _ => 0,
        };
        let mapped: usize = file["maps"]
            .as_object()
            .map(|m| {
                m.values()
                    .filter_map(|v| v.as_object())
                    .map(|v| v.len())
                    .sum()
            })
            .unwrap_or(0);
        let loads: Vec<&str> = file["loads"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|v| v.as_str())
            .collect();
        let not_judged = |what: &str| {
            file["not-judged"]
                .as_array()
                .is_some_and(|a| a.iter().any(|v| v == what))
        };
        let or_not_judged = |what: &str, cell: String| {
            if not_judged(what) {
                "not judged".to_owned()
            } else {
                cell
            }
        };
        // Where tools are not judged, the terminal the host documents is.
        let tools = match file["terminal"]["tool"].as_str() {
            Some(t) if not_judged("tools") && t == "terminal" => "terminal".to_owned(),
            Some(t) if not_judged("tools") => format!("terminal `{t}`"),
            _ => or_not_judged("tools", len("tools").to_string()),
        };
        let want = [
            or_not_judged("agents", loads.join(", ")),
            tools,
            len("toolsets").to_string(),
            len("renamed").to_string(),
            len("aliases").to_string(),
            mapped.to_string(),
            len("models").to_string(),
            len("hook-events").to_string(),
            file["checked"].as_str().unwrap().to_owned(),
        ];
        assert_eq!(cells[1..], want, "docs/profiles.md row for {name}");
        rows += 1;
    }
    let files = std::fs::read_dir(&dir).unwrap().count();
    assert_eq!(rows, files, "one row per file in profiles/builtin/");
}

/// The JSON page's example is a trimmed copy of the example library's report: what it keeps
/// (the summary whole) is what the report says.
#[test]
fn the_json_page_s_example_summary_is_the_example_library_s() {
    let page = read(&Path::new(MANIFEST_DIR).join("docs/json-report.md"));
    let block = page
        .split("```json\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a JSON block");
    let shown: serde_json::Value = serde_json::from_str(block).expect("the example is JSON");
    let root = Path::new(MANIFEST_DIR);
    let args: Vec<&str> = ["--fail-on", "never"]
        .into_iter()
        .chain(crate::common::EXAMPLE.iter().copied())
        .collect();
    let (report, _) = crate::common::json_run(root, &args);
    assert_eq!(shown["summary"], report["summary"]);
}
