//! Property tests: the frontmatter splitter and the dependency parser never panic and agree with
//! simple reference implementations; tool-name matching is the same in every spelling.

use proptest::prelude::*;
use skill_audit::diagnostic::Sink;
use skill_audit::parse::frontmatter::{SplitError, split};
use skill_audit::parse::{dependencies, yaml};
use skill_audit::profile::NameSet;

/// The obvious splitter: line 1 is `---`, the YAML runs to the next `---` line.
fn reference(text: &str) -> Result<(String, String), ()> {
    let lines: Vec<&str> = text.split('\n').collect();
    let is_delim = |l: &str| l.trim_end_matches(['\r', ' ', '\t']) == "---";
    if !is_delim(lines[0]) {
        return Err(());
    }
    let close = lines.iter().skip(1).position(|l| is_delim(l)).ok_or(())? + 1;
    let yaml: String = lines[1..close].iter().map(|l| format!("{l}\n")).collect();
    let body = lines[close + 1..].join("\n");
    Ok((yaml, body))
}

fn markdownish() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("---".to_owned()),
            Just("----".to_owned()),
            Just("--- ".to_owned()),
            Just("---\r".to_owned()),
            Just("".to_owned()),
            "[a-z: -]{0,12}",
            "\\PC{0,8}",
        ],
        0..8,
    )
    .prop_map(|lines| lines.join("\n"))
}

proptest! {
    #[test]
    fn splitter_agrees_with_the_reference(text in markdownish()) {
        match (split(&text), reference(&text)) {
            (Ok(s), Ok((yaml, body))) => {
                // The splitter keeps the YAML's own line endings; compare without them.
                prop_assert_eq!(s.yaml.trim_end_matches('\n'), yaml.trim_end_matches('\n'));
                prop_assert_eq!(s.body, body);
            }
            (Err(SplitError::Missing | SplitError::Unclosed { .. }), Err(())) => {}
            (got, want) => prop_assert!(false, "splitter {:?} vs reference {:?}", got, want),
        }
    }

    #[test]
    fn splitter_never_panics_on_any_text(text in "\\PC{0,200}") {
        let _ = split(&text);
    }

    #[test]
    fn dependency_parser_never_panics_and_keeps_every_string_entry(
        all in prop::collection::vec("[a-z_]{1,8}", 0..5),
        any in prop::collection::vec("[a-z_]{1,8}", 0..5),
        junk in prop_oneof![Just(""), Just("    some: [x]\n"), Just("    all: 3\n"), Just("  widgets: [w]\n")],
    ) {
        let src = format!(
            "dependencies:\n  tools:\n    all: [{}]\n    any: [{}]\n{junk}",
            all.join(", "),
            any.join(", ")
        );
        let Ok(node) = yaml::parse(&src, 2) else { return Ok(()) };
        let Some(deps) = node.get("dependencies") else { return Ok(()) };
        let mut sink = Sink::new("x");
        let parsed = dependencies::parse(deps, &mut sink);
        if junk.is_empty() || junk.contains("widgets") {
            let mut w: Vec<String> = Vec::new();
            for a in &all { if !w.contains(a) { w.push(a.clone()); } }
            prop_assert_eq!(&parsed.requirements.tools.all, &w);
            prop_assert!(parsed.valid);
        } else {
            prop_assert!(!sink.findings.is_empty());
        }
    }

    #[test]
    fn parsers_never_panic_on_any_yaml(text in "\\PC{0,300}") {
        if let Ok(node) = yaml::parse(&text, 2)
            && let Some(d) = node.get("dependencies")
        {
            let mut sink = Sink::new("x");
            let _ = dependencies::parse(d, &mut sink);
        }
    }

    #[test]
    fn matching_is_the_same_in_every_spelling(
        server in "[a-z][a-z0-9-]{0,8}",
        tool in "[a-z][a-z0-9_]{0,10}",
        other in "[a-z][a-z0-9_]{0,10}",
    ) {
        let spellings = [
            format!("{server}/{tool}"),
            format!("mcp__{server}__{tool}"),
            format!("{server}:{tool}"),
        ];
        for offered in &spellings {
            let set = NameSet::new([offered.as_str()], true).unwrap();
            for required in &spellings {
                prop_assert!(set.contains(required), "{} should offer {}", offered, required);
            }
            prop_assert!(set.contains(&tool), "a bare name matches any server's tool");
            prop_assert!(set.contains(&format!("{server}/*")), "the server is present");
            let unrelated = format!("{server}/{other}");
            if other != tool {
                prop_assert!(!set.contains(&unrelated), "{} must not offer {}", offered, unrelated);
            }
        }
    }
}
