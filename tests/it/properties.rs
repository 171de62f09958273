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

/// One frontmatter line break, the tools an agent lists and how the list is written, for the
/// fix property below.
#[derive(Debug, Clone)]
struct AgentText {
    crlf: bool,
    bom: bool,
    tools: Vec<&'static str>,
    /// 0: flow plain, 1: flow single-quoted, 2: flow double-quoted, 3: block, 4: block quoted.
    style: u8,
    comments: bool,
    colon_description: bool,
    typo_key: bool,
}

impl AgentText {
    fn render(&self) -> String {
        let q = match self.style {
            1 | 4 => "'",
            2 => "\"",
            _ => "",
        };
        let comment = |c: &str| {
            if self.comments {
                format!(" # {c}")
            } else {
                String::new()
            }
        };
        let mut lines = vec!["---".to_owned()];
        lines.push(if self.colon_description {
            "description: Use when: the user asks".to_owned()
        } else {
            format!("description: Plans.{}", comment("d"))
        });
        if self.typo_key {
            lines.push("modle: GPT-5".to_owned());
        }
        if self.style >= 3 {
            lines.push(format!("tools:{}", comment("list")));
            for t in &self.tools {
                lines.push(format!("  - {q}{t}{q}{}", comment("t")));
            }
        } else {
            let items: Vec<String> = self.tools.iter().map(|t| format!("{q}{t}{q}")).collect();
            lines.push(format!("tools: [{}]{}", items.join(", "), comment("flow")));
        }
        lines.push("---".to_owned());
        lines.push("Body: codebase, runCommands.".to_owned());
        let brk = if self.crlf { "\r\n" } else { "\n" };
        let mut text = lines.join(brk) + brk;
        if self.bom {
            text.insert(0, '\u{feff}');
        }
        text
    }
}

fn agent_text() -> impl Strategy<Value = AgentText> {
    let tool = prop::sample::select(vec![
        "codebase",
        "runCommands",
        "runInTerminal",
        "terminalLastCommand",
        "search/codebase",
        "edit/editFiles",
        "fetch",
        "web/fetch",
        "changes",
        "github/*",
    ]);
    (
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(tool, 1..6),
        0u8..5,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(
            |(crlf, bom, tools, style, comments, colon_description, typo_key)| AgentText {
                crlf,
                bom,
                tools,
                style,
                comments,
                colon_description,
                typo_key,
            },
        )
}

proptest! {
    // Each case is two or three whole audits: fewer cases than the parser properties.
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Whatever the list's style, line breaks, BOM and comments, applying every fix gives text
    /// the parser accepts, nothing after the frontmatter changes, and re-auditing the result
    /// shows no finding that still has a fix to apply (unless it was reported as dropped).
    #[test]
    fn fixes_leave_text_that_parses_and_findings_that_are_gone(agent in agent_text()) {
        use skill_audit::fix::{self, Mode};
        let dir = tempfile::tempdir().unwrap();
        let text = agent.render();
        std::fs::create_dir_all(dir.path().join("agents")).unwrap();
        std::fs::write(dir.path().join("agents/a.agent.md"), &text).unwrap();
        let opts = skill_audit::AuditOptions {
            roots: vec![dir.path().to_path_buf()],
            cwd: dir.path().to_path_buf(),
            profiles: vec![skill_audit::profile::ProfileSource::Builtin("vscode".into())],
            ..Default::default()
        };
        let done = fix::run(&opts, Mode::Unsafe).unwrap();
        let renamed = ["codebase", "runCommands", "runInTerminal", "terminalLastCommand", "fetch", "changes"];
        if agent.tools.iter().any(|t| renamed.contains(t)) || agent.bom || agent.colon_description {
            prop_assert_eq!(done.changes.len(), 1, "something to fix in {:?}", text);
        }
        for c in &done.changes {
            let mut sink = Sink::new(&c.path);
            prop_assert!(
                skill_audit::parse::document(c.after.as_bytes(), "agent", &mut sink).is_ok(),
                "{:?} does not parse: {:?}", c.after, sink.findings
            );
            let body = |t: &str| t.rsplit("---").next().map(str::to_owned);
            prop_assert_eq!(body(&c.before), body(&c.after));
            prop_assert_eq!(c.after.contains("\r\n"), agent.crlf, "line breaks kept");
        }
        let left: Vec<_> = done
            .result
            .findings
            .iter()
            .filter(|f| f.fix.is_some())
            .filter(|f| !done.dropped.iter().any(|d| d.path == f.path && d.rule == f.rule))
            .map(|f| (f.rule.code(), f.message.clone()))
            .collect();
        prop_assert!(left.is_empty(), "{:?}\nfrom {:?}", left, text);
        prop_assert!(!done.result.findings.iter().any(|f| f.rule.code() == "SA701"));
    }
}
