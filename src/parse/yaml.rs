//! A YAML value tree in which every node knows its place in the file.
//!
//! serde-saphyr parses into `Spanned<Raw>` (so duplicate keys, budgets and positions come from
//! the parser), and that tree is converted into [`Node`]s whose positions are already in file
//! coordinates. Rules read nodes, never the raw text.

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Error as YamlError, Spanned};
use std::fmt;

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
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(s) => Some(s),
            _ => None,
        }
    }
    pub fn is_null(&self) -> bool {
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
    pub fn kind(&self) -> &'static str {
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
    pub fn scalar_text(&self) -> Option<String> {
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
    let options = serde_saphyr::options! {
        strict_booleans: true,
        with_snippet: false,
        budget: serde_saphyr::budget! {
            max_documents: 1,
            max_depth: 64,
            max_nodes: 50_000,
            max_events: 200_000,
            max_aliases: 1_000,
            max_anchors: 1_000,
            max_total_scalar_bytes: 4 << 20,
        },
    };
    match serde_saphyr::from_str_with_options::<Spanned<Raw>>(yaml, options) {
        Ok(tree) => Ok(convert(tree, first_line - 1)),
        Err(err) => Err(failure(&err, first_line - 1)),
    }
}

fn failure(err: &YamlError, line_offset: u32) -> ParseFailure {
    let inner = err.without_snippet();
    let rule = match inner {
        YamlError::DuplicateMappingKey { .. } => Rule::DuplicateKey,
        YamlError::Budget { .. }
        | YamlError::AliasExpansionLimitExceeded { .. }
        | YamlError::AliasReplayLimitExceeded { .. }
        | YamlError::AliasReplayStackDepthExceeded { .. }
        | YamlError::AliasReplayCounterOverflow { .. } => Rule::YamlLimit,
        // Limits hit while replaying an alias surface as plain messages.
        other if other.to_string().contains("budget breached") => Rule::YamlLimit,
        _ => Rule::YamlSyntax,
    };
    let pos = inner
        .location()
        .filter(|l| l.line() > 0)
        .map(|l| {
            Pos::new(
                to_u32(l.line()).saturating_add(line_offset),
                to_u32(l.column()),
            )
        })
        .unwrap_or(Pos::new(line_offset + 1, 1));
    ParseFailure {
        rule,
        pos,
        message: clean_message(&inner.to_string()),
    }
}

/// Drop the parser's own "line N column M:" prefix (the finding has the position) and its
/// advice about parser options, which means nothing to a skill author.
fn clean_message(msg: &str) -> String {
    let mut m = msg.trim();
    m = m.strip_prefix("error:").unwrap_or(m).trim_start();
    if let Some(rest) = m.strip_prefix("line ")
        && let Some(i) = rest.find(": ")
        && rest[..i].split_whitespace().count() == 3
    {
        m = &rest[i + 2..];
    }
    let m = m.split(", set DuplicateKeyPolicy").next().unwrap_or(m);
    // Positions inside the message are relative to the YAML, not the file: drop them.
    let m = m.split(" at line ").next().unwrap_or(m);
    m.lines().next().unwrap_or(m).trim().to_owned()
}

fn to_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

fn convert(raw: Spanned<Raw>, line_offset: u32) -> Node {
    let loc = raw.referenced;
    let pos = if loc.line() == 0 {
        Pos::new(line_offset + 1, 1)
    } else {
        Pos::new(
            to_u32(loc.line()).saturating_add(line_offset),
            to_u32(loc.column()).max(1),
        )
    };
    let value = match raw.value {
        Raw::Null => Value::Null,
        Raw::Bool(b) => Value::Bool(b),
        Raw::Int(i) => Value::Int(i),
        Raw::Float(f) => Value::Float(f),
        Raw::Str(s) => Value::Str(s),
        Raw::Seq(items) => Value::Seq(items.into_iter().map(|n| convert(n, line_offset)).collect()),
        Raw::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| (convert(k, line_offset), convert(v, line_offset)))
                .collect(),
        ),
    };
    Node { value, pos }
}

/// What serde-saphyr fills in; children carry their own spans.
enum Raw {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<Raw>>),
    Map(Vec<(Spanned<Raw>, Spanned<Raw>)>),
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = Raw;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Raw, E> {
        Ok(Raw::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Raw, E> {
        Ok(Raw::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Raw, E> {
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }
    fn visit_i128<E>(self, v: i128) -> Result<Raw, E> {
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }
    fn visit_u128<E>(self, v: u128) -> Result<Raw, E> {
        Ok(i64::try_from(v).map_or(Raw::Float(v as f64), Raw::Int))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Raw, E> {
        Ok(Raw::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<Raw, E> {
        Ok(Raw::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Raw, E> {
        Ok(Raw::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<Raw, E> {
        Ok(Raw::Str(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_unit<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_none<E>(self) -> Result<Raw, E> {
        Ok(Raw::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Raw, D::Error> {
        Raw::deserialize(d)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Raw, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<Raw>>()? {
            items.push(item);
        }
        Ok(Raw::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Raw, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<Raw>>()? {
            let value = map.next_value::<Spanned<Raw>>()?;
            entries.push((key, value));
        }
        Ok(Raw::Map(entries))
    }
}

impl<'de> Deserialize<'de> for Raw {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Raw, D::Error> {
        d.deserialize_any(RawVisitor)
    }
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
    fn syntax_errors_have_position() {
        let e = parse("name: [a\n", 2).unwrap_err();
        assert_eq!(e.rule, Rule::YamlSyntax);
        assert_eq!(e.pos.line, 2);
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

    #[test]
    fn blank_and_comment_only_are_null() {
        assert!(parse("", 2).unwrap().is_null());
        assert!(parse("# just a comment\n\n", 2).unwrap().is_null());
    }
}
