//! A YAML value tree in which every node knows its place in the file.
//!
//! The tree is built from the parser's events ([`build`]; for plain frontmatter, events read
//! without the parser, [`plain`]), with scalars typed by the core
//! schema ([`scalar`]) and positions already in file coordinates. Rules read nodes, never the
//! raw text.

mod build;
mod plain;
#[cfg(test)]
mod reference;
mod scalar;

use crate::diagnostic::Pos;
use crate::rules::Rule;

/// A YAML value with its position in the file.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub value: Value,
    pub pos: Pos,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    /// Keys in document order.
    Map(Vec<(Node, Node)>),
}

impl Node {
    pub(crate) fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    pub(crate) fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }
    pub(crate) fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(s) => Some(s),
            _ => None,
        }
    }
    pub(crate) fn is_null(&self) -> bool {
        matches!(self.value, Value::Null)
    }
    /// The value of `key` in a mapping node.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_map()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }
    /// A short name for the node's type, for messages ("a list", "a number").
    pub(crate) fn kind(&self) -> &'static str {
        match self.value {
            Value::Null => "empty",
            Value::Bool(_) => "a boolean",
            Value::Int(_) | Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }
    /// The scalar as text, for places where YAML typed a value the author meant as a string.
    pub(crate) fn scalar_text(&self) -> Option<String> {
        match &self.value {
            Value::Str(s) => Some(s.clone()),
            Value::Bool(b) => Some(b.to_string()),
            Value::Int(i) => Some(i.to_string()),
            Value::Float(f) => Some(f.to_string()),
            _ => None,
        }
    }
}

/// Why the YAML could not be turned into a tree.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseFailure {
    pub rule: Rule,
    pub pos: Pos,
    pub message: String,
}

/// Parse `yaml`, whose first line is line `first_line` of the file.
pub fn parse(yaml: &str, first_line: u32) -> Result<Node, ParseFailure> {
    parse_with(yaml, first_line, build::tree)
}

/// [`parse`], with the tree built by `tree` (the builder, or in tests the reference).
fn parse_with(
    yaml: &str,
    first_line: u32,
    tree: fn(&str, u32) -> Result<Node, ParseFailure>,
) -> Result<Node, ParseFailure> {
    // Comment-only or blank frontmatter is an empty document: report it as null so the
    // caller says "not a mapping" rather than a syntax error.
    if yaml.lines().all(|l| {
        let t = l.trim();
        t.is_empty() || t.starts_with('#')
    }) {
        return Ok(Node {
            value: Value::Null,
            pos: Pos::new(first_line, 1),
        });
    }
    tree(yaml, first_line - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_in_file_coordinates() {
        let n = parse("name: x\ntools:\n  - a\n", 2).unwrap();
        let tools = n.get("tools").unwrap().as_seq().unwrap();
        assert_eq!(tools[0].pos, Pos::new(4, 5));
        assert_eq!(n.get("name").unwrap().pos, Pos::new(2, 7));
    }

    #[test]
    fn yaml_11_booleans_stay_strings_and_numbers_are_typed() {
        let n = parse("a: yes\nb: on\nc: true\nd: 1.10\n", 2).unwrap();
        assert_eq!(n.get("a").unwrap().as_str(), Some("yes"));
        assert_eq!(n.get("b").unwrap().as_str(), Some("on"));
        assert_eq!(n.get("c").unwrap().value, Value::Bool(true));
        assert!(matches!(n.get("d").unwrap().value, Value::Float(_)));
    }

    #[test]
    fn duplicate_keys_are_classified_with_position() {
        let e = parse("name: a\nname: b\n", 2).unwrap_err();
        assert_eq!(e.rule, Rule::DuplicateKey);
        assert_eq!(e.pos.line, 3);
        assert!(e.message.contains("duplicate"), "{}", e.message);
        assert!(!e.message.contains("DuplicateKeyPolicy"));
    }

    #[test]
    fn duplicate_keys_are_found_in_small_and_large_mappings() {
        for n in [3_usize, 15, 16, 17, 40] {
            let distinct: String = (0..n).map(|i| format!("k{i}: {i}\n")).collect();
            assert!(parse(&distinct, 2).is_ok(), "{n} keys");
            for dup in [0, n / 2, n - 1] {
                let y = format!("{distinct}k{dup}: again\n");
                let e = parse(&y, 2).unwrap_err();
                assert_eq!(
                    (e.rule, e.pos.line as usize),
                    (Rule::DuplicateKey, n + 2),
                    "{n} keys, k{dup} again"
                );
            }
        }
        // Keys of another type, or another float, are other keys.
        assert!(parse("1: a\n1.0: b\n'1': c\n0.0: d\n-0.0: e\n", 2).is_ok());
        let many: String = (0..20).map(|i| format!("{i}.5: x\n")).collect();
        assert!(parse(&format!("{many}-0.0: a\n0.0: b\n"), 2).is_ok());
        assert!(parse(&format!("{many}0.5: again\n"), 2).is_err());
    }

    #[test]
    fn syntax_errors_have_position() {
        let e = parse("name: [a\n", 2).unwrap_err();
        assert_eq!(e.rule, Rule::YamlSyntax);
        assert_eq!(e.pos.line, 2);
        // An alias inside the collection it names is a cycle, not a missing anchor.
        for (yaml, says) in [
            ("a: &x x\nb: &x {k: *x}\n", "recursive alias"),
            ("a: *x\n", "unknown anchor"),
        ] {
            let e = parse(yaml, 2).unwrap_err();
            assert!(e.message.contains(says), "{yaml:?}: {}", e.message);
        }
        // A tab or a control character is shown where it is, not where its scalar starts.
        for (yaml, line, column) in [
            ("name: t\n\tdescription: x\n", 3, 1),
            ("name: t\nk\u{1}ey: 1\n", 3, 2),
        ] {
            let e = parse(yaml, 2).unwrap_err();
            assert_eq!(
                (e.pos.line, e.pos.column),
                (line, column),
                "{yaml:?}: {}",
                e.message
            );
        }
    }

    #[test]
    fn alias_bombs_hit_a_limit() {
        let mut y = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            y.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let e = parse(&y, 2).unwrap_err();
        assert_eq!(e.rule, Rule::YamlLimit, "{}", e.message);
    }

    #[test]
    fn deep_nesting_hits_a_limit() {
        let y = format!("a: {}{}\n", "[".repeat(20_000), "]".repeat(20_000));
        let e = parse(&y, 2).unwrap_err();
        assert!(
            matches!(e.rule, Rule::YamlLimit | Rule::YamlSyntax),
            "{e:?}"
        );
    }

    /// The builder and serde-saphyr's deserializer agree: same tree and positions, or the same
    /// rule at the same line (messages are worded differently).
    fn agrees(yaml: &str) {
        match (parse(yaml, 2), parse_with(yaml, 2, reference::tree)) {
            // Entries merged by `<<` keep their own positions here; the reference moves them.
            (Ok(a), Ok(b)) => assert!(
                same_tree(&a, &b, !yaml.contains("<<")),
                "{yaml:?}\nbuilt: {a:?}\nreference: {b:?}"
            ),
            // The reference reads a whole `<<` value or `?` key before looking into it (and
            // names the anchor of a bad merge): with either, which error comes first may differ.
            (Err(_), Err(_)) if yaml.contains("<<") || yaml.contains('?') => {}
            // The reference lets a mapping repeat the null key (`? null` then `: x`); YAML's
            // keys are unique, so the builder refuses it.
            (Err(a), Ok(b)) if a.rule == Rule::DuplicateKey && repeats_null_key(&b) => {}
            // A recursive alias in a merged entry that the mapping sets itself: the reference
            // skips the entry unread, the builder refuses the cycle wherever it is.
            (Err(a), Ok(_)) if yaml.contains("<<") && a.message.contains("recursive") => {}
            // Likewise a key repeated inside such an entry: YAML's keys are unique wherever
            // the mapping is, so the builder refuses it; and a tagged value that is not of its
            // tag (`!!int x`), which a strict reader refuses wherever it is.
            (Err(a), Ok(_)) if yaml.contains("<<") && a.rule == Rule::DuplicateKey => {}
            (Err(a), Ok(_)) if yaml.contains("<<") && a.message.contains("is not a valid") => {}
            (Err(a), Err(b)) => assert_eq!(
                (a.rule, a.pos.line),
                (b.rule, b.pos.line),
                "{yaml:?}\n{a:?}\n{b:?}"
            ),
            (a, b) => panic!("{yaml:?}\nbuilt: {a:?}\nreference: {b:?}"),
        }
    }

    #[test]
    fn a_bad_tagged_value_inside_a_merged_entry_the_mapping_overrides_is_refused() {
        let yaml = "b: 0x1F\n<<: \n  b: !!int x\na:   text\n";
        let refused = parse(yaml, 2).map(|_| ()).map_err(|e| (e.rule, e.pos.line));
        assert_eq!(refused, Err((Rule::YamlSyntax, 4)));
        agrees(yaml);
    }

    #[test]
    fn a_key_repeated_inside_a_merged_entry_the_mapping_overrides_is_refused() {
        let yaml = "<<: \n    a: {a: 1, a: 2}\na: &x ~\n";
        // Line 2 of the frontmatter, line 3 of its file.
        let refused = parse(yaml, 2).map(|_| ()).map_err(|e| (e.rule, e.pos.line));
        assert_eq!(refused, Err((Rule::DuplicateKey, 3)));
        agrees(yaml);
    }

    /// Whether some mapping in the tree has two null keys.
    fn repeats_null_key(node: &Node) -> bool {
        match &node.value {
            Value::Seq(items) => items.iter().any(repeats_null_key),
            Value::Map(entries) => {
                entries
                    .iter()
                    .filter(|(k, _)| k.value == Value::Null)
                    .count()
                    > 1
                    || entries
                        .iter()
                        .any(|(k, v)| repeats_null_key(k) || repeats_null_key(v))
            }
            _ => false,
        }
    }

    /// Equal trees (and positions, if `pos`), NaN equal to NaN.
    fn same_tree(a: &Node, b: &Node, pos: bool) -> bool {
        (!pos || a.pos == b.pos)
            && match (&a.value, &b.value) {
                (Value::Float(x), Value::Float(y)) => x == y || (x.is_nan() && y.is_nan()),
                (Value::Seq(x), Value::Seq(y)) => {
                    x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same_tree(a, b, pos))
                }
                (Value::Map(x), Value::Map(y)) => {
                    x.len() == y.len()
                        && x.iter().zip(y).all(|((ka, va), (kb, vb))| {
                            same_tree(ka, kb, pos) && same_tree(va, vb, pos)
                        })
                }
                (x, y) => x == y,
            }
    }

    #[test]
    fn agrees_with_the_reference_on_tricky_input() {
        for yaml in [
            "name: x\ndescription: >\n  folded\n  text\n",
            // A list in a list of merges (found by the property test below).
            "  a: &x \n  - null\n  <<: [*x]\n  : *x\n",
            "a: &x [1]\nb:\n  <<: [*x, {c: 1}]\n",
            "a: &x [{d: 2}]\nb:\n  <<: [*x, {c: 1}]\n",
            "a: |\n  literal\n\nb: 'single'\nc: \"double\\n\"\n",
            "tools: [a, 'b', \"c\"]\nmeta: {k: v, n: 1}\n",
            "a: ~\nb: null\nc:\nd: NULL\ne: ''\n",
            // (.inf and .nan are left out: the reference refuses non-finite numbers.)
            "a: 1\nb: -2\nc: +3\nd: 0x1f\ne: 0o17\nf: 1.5\nj: 1e3\n",
            // (`007` and `1_000` are left out: the core schema makes them 7 and a string, the
            // reference 7.0 and 1000.)
            "c: 0X1F\nd: -.nan\ne: 1.2.3\nf: yes\ng: True\nh: FALSE\n",
            "a: 99999999999999999999\nb: -9223372036854775808\n",
            "a: !!str 12\nb: !!int '12'\nc: ! 12\nd: !custom 5\ne: !!float 3\n",
            "base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  y: 3\n",
            "a: &a [1, 2]\nb: *a\nc: &s text\nd: *s\n",
            "list:\n- a\n- b:\n    c: d\n- [e, f]\n",
            "? complex\n: value\n",
            "nested:\n  deeper:\n    deepest: [1, {a: b}]\n",
            "name: a\nname: b\n",
            "m: {a: 1, a: 2}\n",
            "name: [a\n",
            "a: b: c\n",
            "a: 'unterminated\n",
            "\tname: x\n",
            "- just\n- a list\n",
            "plain scalar\n",
            "a: x\n---\nb: y\n",
            "a: *missing\n",
            "k: v # comment\n# another\n",
            "a: \"\\u00e9t\\u00e9\"\nb: ünïcödé\n",
            "? null\na: \n: \n",
            "a: &x ~\n<<: [*x, ~, {b: 1}]\n",
            "a: &x x\nb: &x [*x]\n",
            "a: &x x\n<<:\n  a: &x [*x]\n",
        ] {
            agrees(yaml);
        }
    }

    proptest::proptest! {
        #![proptest_config(config(2_000))]
        /// Lines assembled from YAML's tricky pieces, at random indents: valid or not, the
        /// builder agrees with the reference.
        #[test]
        fn agrees_with_the_reference_on_generated_input(lines in proptest::collection::vec(
            (0..3usize,
             proptest::sample::select(vec!["a: ", "b: ", "name: ", "<<: ", "- ", "? ", "- k: ", "a: &x ", "", ": "]),
             proptest::sample::select(vec!["", "x", "'q'", "\"d\\t\"", "[a, b]", "{k: v, n: 1}", "1", "-1",
                 "1.5", "true", "null", "~", "*x", "&x v", "*x", "|", ">-", "  text", "0x1F", "yes",
                 "[*x]", "{a: 1, a: 2}", "# c", "[", "}", "!!str 5", "!!int x", "a: b", "- c"])),
            1..10,
        )) {
            agrees(&assemble(&lines));
        }
    }

    /// `cases` generated inputs per property, or `PROPTEST_CASES` when set: CI runs the
    /// usual count, a deeper search is `PROPTEST_CASES=300000 cargo test --lib`.
    pub(super) fn config(cases: u32) -> proptest::prelude::ProptestConfig {
        let cases = std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(cases);
        proptest::prelude::ProptestConfig::with_cases(cases)
    }

    /// YAML text from generated lines: indentation level, key or marker, value.
    pub(super) fn assemble(lines: &[(usize, &str, &str)]) -> String {
        lines
            .iter()
            .map(|(indent, key, value)| format!("{}{key}{value}\n", "  ".repeat(*indent)))
            .collect()
    }

    /// Every frontmatter of the real libraries parses as the reference parses it.
    #[test]
    fn agrees_with_the_reference_on_the_corpus() {
        let Some(corpus) = crate::corpus::corpus("") else {
            return;
        };
        let mut checked = 0;
        for entry in ignore::WalkBuilder::new(&corpus)
            .standard_filters(false)
            .build()
        {
            let entry = entry.unwrap();
            if !entry.file_type().is_some_and(|t| t.is_file())
                || entry.path().extension().is_none_or(|e| e != "md")
            {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            if let Ok(split) = crate::parse::frontmatter::split(&text) {
                agrees(split.yaml);
                checked += 1;
            }
        }
        assert!(
            checked > 700,
            "only {checked} frontmatters under {}",
            corpus.display()
        );
    }

    #[test]
    fn blank_and_comment_only_are_null() {
        assert!(parse("", 2).unwrap().is_null());
        assert!(parse("# just a comment\n\n", 2).unwrap().is_null());
    }
}
