//! The reference the tree builder is checked against: serde-saphyr's own deserializer into
//! `Spanned` values, which costs about twice as much as building from events but shares no
//! code with [`super::build`].

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Error as YamlError, Spanned};
use std::fmt;

use super::{Node, ParseFailure, Value};
use crate::diagnostic::Pos;
use crate::rules::Rule;

/// The tree of `yaml`, positions shifted down by `line_offset` lines (as [`super::build::tree`]).
pub(crate) fn tree(yaml: &str, line_offset: u32) -> Result<Node, ParseFailure> {
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
        Ok(tree) => Ok(convert(tree, line_offset)),
        Err(err) => Err(failure(&err, line_offset)),
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
