//! Building the [`Node`] tree straight from the YAML parser's events.
//!
//! The parser (granit, the one inside serde-saphyr) checks the syntax and gives every event
//! its span; this module assembles nodes, types scalars, expands aliases and merge keys, and
//! enforces what a frontmatter may cost: every limit below is checked as the tree grows, so an
//! alias bomb or a deep nest stops early with `SA107` instead of exhausting memory.

use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle, ScanError, Span, Tag};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hash, Hasher};

use super::{Node, ParseFailure, Value, scalar};
use crate::diagnostic::Pos;
use crate::rules::{self, file::Limit};

/// Collections nested deeper than this are refused.
const MAX_DEPTH: usize = 64;
/// Nodes in the finished tree, counting every copy an alias makes.
const MAX_NODES: usize = 50_000;
/// Parser events read.
const MAX_EVENTS: usize = 200_000;
const MAX_ALIASES: usize = 1_000;
const MAX_ANCHORS: usize = 1_000;
/// Bytes of scalar text in the finished tree, counting every copy an alias makes.
const MAX_SCALAR_BYTES: usize = 4 << 20;

/// Parse `yaml` into a tree whose positions are shifted down by `line_offset` lines.
pub(crate) fn tree(yaml: &str, line_offset: u32) -> Result<Node, ParseFailure> {
    let options = serde_saphyr::granit_parser::options! {
        // One past our own limit, so nesting is reported as a limit rather than a syntax error.
        flow_nesting_limit: MAX_DEPTH + 1,
        block_nesting_limit: MAX_DEPTH + 1,
    };
    let mut builder = Builder {
        line_offset,
        stack: Vec::new(),
        anchors: HashMap::new(),
        root: None,
        documents: 0,
        events: 0,
        aliases: 0,
        nodes: 0,
        scalar_bytes: 0,
    };
    // Plain frontmatter (most of it) has its events read directly; the rest is parsed.
    if let Some(events) = super::plain::events(yaml) {
        for (event, span) in events {
            builder.event(event, span)?;
        }
    } else {
        for event in Parser::new_from_str_with_options(yaml, options) {
            let (event, span) = event.map_err(|e| builder.scan_failure(&e, yaml))?;
            builder.event(event, span)?;
        }
    }
    Ok(builder.root.unwrap_or(Node {
        value: Value::Null,
        pos: Pos::new(line_offset + 1, 1),
    }))
}

/// A collection whose children are still arriving.
enum Open {
    Seq {
        pos: Pos,
        anchor: usize,
        items: Vec<Node>,
    },
    Map {
        pos: Pos,
        anchor: usize,
        entries: Vec<(Node, Node)>,
        /// A key waiting for its value, and whether it is the merge key `<<`.
        key: Option<(Node, bool)>,
        /// Keys seen so far in a large mapping (see [`is_new`]).
        seen: SeenKeys,
        /// Mappings named by `<<` keys, merged when the mapping closes.
        merges: Vec<Node>,
    },
}

/// A scalar key's identity for duplicate detection: its type and its text.
#[derive(PartialEq, Eq, Hash)]
enum ScalarKey {
    Null,
    Bool(bool),
    Int(i64),
    Float(u64),
    Str(String),
}

impl ScalarKey {
    fn of(node: &Node) -> Option<ScalarKey> {
        Some(match &node.value {
            Value::Null => ScalarKey::Null,
            Value::Bool(b) => ScalarKey::Bool(*b),
            Value::Int(i) => ScalarKey::Int(*i),
            Value::Float(f) => ScalarKey::Float(f.to_bits()),
            Value::Str(s) => ScalarKey::Str(s.clone()),
            Value::Seq(_) | Value::Map(_) => return None,
        })
    }
}

struct Builder {
    line_offset: u32,
    stack: Vec<Open>,
    /// Anchored nodes by the parser's anchor id, with their node count and scalar bytes.
    anchors: HashMap<usize, (Node, usize, usize)>,
    root: Option<Node>,
    documents: usize,
    events: usize,
    aliases: usize,
    nodes: usize,
    scalar_bytes: usize,
}

impl Builder {
    fn event(&mut self, event: Event<'_>, span: Span) -> Result<(), ParseFailure> {
        self.events += 1;
        if self.events > MAX_EVENTS {
            return Err(self.limit(span, Limit::Events(MAX_EVENTS)));
        }
        match event {
            Event::DocumentStart(..) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(self.limit(span, Limit::Documents));
                }
            }
            Event::Scalar(text, style, anchor, tag) => {
                let pos = self.pos(span);
                let value = scalar::resolve(&text, style == ScalarStyle::Plain, core_tag(&tag))
                    .map_err(|message| rules::file::yaml_syntax(pos, message))?;
                let merge_key = style == ScalarStyle::Plain && text == "<<" && tag.is_none();
                self.count(1, text.len(), span)?;
                self.add(Node { value, pos }, anchor, merge_key, span)?;
            }
            Event::SequenceStart(_, anchor, _) => self.open(
                Open::Seq {
                    pos: self.pos(span),
                    anchor,
                    items: Vec::new(),
                },
                span,
            )?,
            Event::MappingStart(_, anchor, _) => self.open(
                Open::Map {
                    pos: self.pos(span),
                    anchor,
                    entries: Vec::new(),
                    key: None,
                    seen: SeenKeys::default(),
                    merges: Vec::new(),
                },
                span,
            )?,
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(open) = self.stack.pop() else {
                    return Ok(());
                };
                let (node, anchor) = match open {
                    Open::Seq { pos, anchor, items } => (
                        Node {
                            value: Value::Seq(items),
                            pos,
                        },
                        anchor,
                    ),
                    Open::Map {
                        pos,
                        anchor,
                        mut entries,
                        mut seen,
                        merges,
                        ..
                    } => {
                        merge(&mut entries, &mut seen, merges);
                        (
                            Node {
                                value: Value::Map(entries),
                                pos,
                            },
                            anchor,
                        )
                    }
                };
                self.count(1, 0, span)?;
                self.add(node, anchor, false, span)?;
            }
            Event::Alias(id) => {
                self.aliases += 1;
                if self.aliases > MAX_ALIASES {
                    return Err(self.limit(span, Limit::Aliases(MAX_ALIASES)));
                }
                let Some((node, nodes, bytes)) = self.anchors.get(&id) else {
                    // The parser refuses an alias to no anchor, and a node is kept here as soon
                    // as it is finished; an anchor not kept yet names a collection still open
                    // around this alias: a cycle.
                    return Err(rules::file::recursive_alias(self.pos(span)));
                };
                let (mut node, nodes, bytes) = (node.clone(), *nodes, *bytes);
                self.count(nodes, bytes, span)?;
                // The copy is reported where the alias uses it.
                relocate(&mut node, self.pos(span));
                self.add(node, 0, false, span)?;
            }
            _ => {}
        }
        Ok(())
    }

    fn open(&mut self, open: Open, span: Span) -> Result<(), ParseFailure> {
        if self.stack.len() >= MAX_DEPTH {
            return Err(self.limit(span, Limit::Depth(MAX_DEPTH)));
        }
        self.stack.push(open);
        Ok(())
    }

    /// Charge `nodes` nodes and `bytes` bytes of scalar text against the limits.
    fn count(&mut self, nodes: usize, bytes: usize, span: Span) -> Result<(), ParseFailure> {
        self.nodes = self.nodes.saturating_add(nodes);
        self.scalar_bytes = self.scalar_bytes.saturating_add(bytes);
        if self.nodes > MAX_NODES {
            return Err(self.limit(span, Limit::Nodes(MAX_NODES)));
        }
        if self.scalar_bytes > MAX_SCALAR_BYTES {
            return Err(self.limit(span, Limit::Text(MAX_SCALAR_BYTES)));
        }
        Ok(())
    }

    /// Put a finished node in its place: the open collection, or the root. `merge_key` marks a
    /// plain `<<`, which as a key merges mappings instead of naming a value.
    fn add(
        &mut self,
        node: Node,
        anchor: usize,
        merge_key: bool,
        span: Span,
    ) -> Result<(), ParseFailure> {
        if anchor != 0 {
            if self.anchors.len() >= MAX_ANCHORS && !self.anchors.contains_key(&anchor) {
                return Err(self.limit(span, Limit::Anchors(MAX_ANCHORS)));
            }
            let (nodes, bytes) = size(&node);
            self.anchors.insert(anchor, (node.clone(), nodes, bytes));
        }
        match self.stack.last_mut() {
            None => self.root = Some(node),
            Some(Open::Seq { items, .. }) => items.push(node),
            Some(Open::Map {
                entries,
                key,
                seen,
                merges,
                ..
            }) => {
                let Some((k, is_merge)) = key.take() else {
                    // A duplicate is reported at the key, before its value is read.
                    if !merge_key && !is_new(&node, entries, seen) {
                        return Err(rules::file::duplicate_key(
                            node.pos,
                            node.scalar_text().as_deref(),
                        ));
                    }
                    *key = Some((node, merge_key));
                    return Ok(());
                };
                if is_merge {
                    return match node.value {
                        Value::Map(_) => {
                            merges.push(node);
                            Ok(())
                        }
                        // An empty merge, alone or in a list, adds nothing; a list in a list of
                        // merges is read as its items, as serde-saphyr reads it.
                        Value::Null => Ok(()),
                        Value::Seq(items) if items.iter().all(mergeable) => {
                            flatten_merges(items, merges);
                            Ok(())
                        }
                        _ => Err(rules::file::merge_not_mapping(node.pos)),
                    };
                }
                entries.push((k, node));
            }
        }
        Ok(())
    }

    fn pos(&self, span: Span) -> Pos {
        Pos::new(
            to_u32(span.start.line()).saturating_add(self.line_offset),
            to_u32(span.start.col()).saturating_add(1),
        )
    }

    fn limit(&self, span: Span, limit: Limit) -> ParseFailure {
        rules::file::yaml_limit(self.pos(span), limit)
    }

    fn scan_failure(&self, err: &ScanError, yaml: &str) -> ParseFailure {
        use serde_saphyr::granit_parser::ErrorKind;
        let marker = err.marker();
        let mut pos = Pos::new(
            to_u32(marker.line().max(1)).saturating_add(self.line_offset),
            to_u32(marker.col()).saturating_add(1),
        );
        // The scanner marks where the scalar it was reading starts (or the character before):
        // the character it found is shown where it is.
        let found = match err.kind() {
            ErrorKind::TabInPlainScalar => Some('\t'),
            ErrorKind::UnexpectedCharacter { character } => Some(*character),
            _ => None,
        };
        let at = found.and_then(|wanted| {
            let mut chars = yaml.char_indices().skip(marker.index());
            chars.find(|&(_, c)| c == wanted).map(|(byte, _)| byte)
        });
        if let Some(at) = at.map(|byte| crate::span::pos_of(yaml, byte)) {
            pos = Pos::new(at.line.saturating_add(self.line_offset), at.column);
        }
        let text = err.info().lines().next().unwrap_or_default().to_owned();
        if matches!(
            err.kind(),
            serde_saphyr::granit_parser::ErrorKind::RecursionLimitExceeded
        ) {
            rules::file::yaml_too_deep(pos, text)
        } else {
            rules::file::yaml_syntax(pos, text)
        }
    }
}

/// The core-schema type a tag asks for (`!` alone asks for a string); other tags are ignored.
fn core_tag(tag: &Option<std::borrow::Cow<'_, Tag>>) -> Option<&'static str> {
    let tag = tag.as_deref()?;
    if tag.handle().is_empty() && tag.suffix() == "!" {
        return Some("str");
    }
    ["str", "null", "bool", "int", "float", "map", "seq"]
        .into_iter()
        .find(|s| tag.is_yaml_core_schema_tag(s))
}

/// Add the entries of `<<` mappings that the mapping does not set itself; an earlier merged
/// mapping wins over a later one.
/// Can `node`, an item of a list of merges, be merged: a mapping, nothing, or a list of such.
fn mergeable(node: &Node) -> bool {
    match &node.value {
        Value::Map(_) | Value::Null => true,
        Value::Seq(items) => items.iter().all(mergeable),
        _ => false,
    }
}

/// The mappings of a list of merges, nested lists read as their items, in order.
fn flatten_merges(items: Vec<Node>, merges: &mut Vec<Node>) {
    for item in items {
        match item.value {
            Value::Seq(inner) => flatten_merges(inner, merges),
            _ => merges.push(item),
        }
    }
}

fn merge(entries: &mut Vec<(Node, Node)>, seen: &mut SeenKeys, merges: Vec<Node>) {
    for source in merges {
        let Value::Map(merged) = source.value else {
            continue;
        };
        for (k, v) in merged {
            if is_new(&k, entries, seen) {
                entries.push((k, v));
            }
        }
    }
}

/// Mappings with fewer entries than this find a duplicate key by comparing with each entry,
/// which costs less than hashing (frontmatter mappings are small); larger ones keep their keys
/// hashed, so a hostile mapping stays linear.
const SCAN_LIMIT: usize = 16;

/// The keys of a mapping past [`SCAN_LIMIT`] entries, for finding a duplicate without
/// comparing with every entry.
#[derive(Default)]
struct SeenKeys {
    /// Whether the entries from before the mapping grew past the limit are in.
    filled: bool,
    scalars: HashSet<ScalarKey>,
    /// The entries whose key is a collection, by [`hash_key`] of that key: only keys of equal
    /// hash are compared.
    collections: HashMap<u64, Vec<usize>>,
}

impl SeenKeys {
    /// Remember `key`, the key of entry `index`; whether no key seen before is the same.
    fn insert(&mut self, key: &Node, index: usize, entries: &[(Node, Node)]) -> bool {
        if let Some(k) = ScalarKey::of(key) {
            return self.scalars.insert(k);
        }
        let mut state = self.collections.hasher().build_hasher();
        // A key holding NaN is the same as no key, itself included.
        if !hash_key(key, &mut state) {
            return true;
        }
        let earlier = self.collections.entry(state.finish()).or_default();
        if earlier
            .iter()
            .any(|&i| entries.get(i).is_some_and(|(e, _)| same(e, key)))
        {
            return false;
        }
        earlier.push(index);
        true
    }
}

/// Is `key` not yet among `entries`? Past [`SCAN_LIMIT`] keys are remembered in `seen`, `key`
/// too: the caller makes it the next entry.
fn is_new(key: &Node, entries: &[(Node, Node)], seen: &mut SeenKeys) -> bool {
    if entries.len() < SCAN_LIMIT {
        return !entries.iter().any(|(e, _)| same_key(e, key));
    }
    if !seen.filled {
        seen.filled = true;
        for (i, (e, _)) in entries.iter().enumerate() {
            seen.insert(e, i, entries);
        }
    }
    seen.insert(key, entries.len(), entries)
}

/// Hash `node` into `state` so that nodes [`same`] finds equal hash alike; false when it holds
/// a NaN, which is equal to nothing.
fn hash_key(node: &Node, state: &mut impl Hasher) -> bool {
    match &node.value {
        Value::Null => state.write_u8(0),
        Value::Bool(b) => (1u8, b).hash(state),
        Value::Int(i) => (2u8, i).hash(state),
        Value::Float(f) if f.is_nan() => return false,
        // Compared by value: 0.0 and -0.0 are one key.
        Value::Float(f) => (3u8, if *f == 0.0 { 0 } else { f.to_bits() }).hash(state),
        Value::Str(s) => (4u8, s).hash(state),
        Value::Seq(items) => {
            (5u8, items.len()).hash(state);
            return items.iter().all(|i| hash_key(i, state));
        }
        Value::Map(entries) => {
            (6u8, entries.len()).hash(state);
            return entries
                .iter()
                .all(|(k, v)| hash_key(k, state) && hash_key(v, state));
        }
    }
    true
}

/// The same key: a scalar by its type and text (a float by its bits, as [`ScalarKey`] holds
/// it), a collection by [`same`].
fn same_key(a: &Node, b: &Node) -> bool {
    match (&a.value, &b.value) {
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        _ => same(a, b),
    }
}

/// Equal values, wherever they are written.
fn same(a: &Node, b: &Node) -> bool {
    match (&a.value, &b.value) {
        (Value::Seq(x), Value::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((ka, va), (kb, vb))| same(ka, kb) && same(va, vb))
        }
        (x, y) => x == y,
    }
}

/// Move a whole tree to `pos`.
fn relocate(node: &mut Node, pos: Pos) {
    node.pos = pos;
    match &mut node.value {
        Value::Seq(items) => items.iter_mut().for_each(|i| relocate(i, pos)),
        Value::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
            relocate(k, pos);
            relocate(v, pos);
        }),
        _ => {}
    }
}

/// Nodes and scalar bytes in a tree.
fn size(node: &Node) -> (usize, usize) {
    match &node.value {
        Value::Str(s) => (1, s.len()),
        Value::Seq(items) => items.iter().fold((1, 0), |(n, b), i| {
            let (n2, b2) = size(i);
            (n + n2, b + b2)
        }),
        Value::Map(entries) => entries.iter().fold((1, 0), |(n, b), (k, v)| {
            let (nk, bk) = size(k);
            let (nv, bv) = size(v);
            (n + nk + nv, b + bk + bv)
        }),
        _ => (1, 0),
    }
}

fn to_u32(v: usize) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    /// `keys` after `padding` scalar keys: the entries, or the line of a duplicate counted from
    /// the first of `keys`.
    fn outcome(padding: usize, keys: &[String]) -> Result<usize, u32> {
        let mut yaml: String = (0..padding).map(|i| format!("k{i}: v\n")).collect();
        for key in keys {
            yaml.push_str(&format!("? {key}\n: v\n"));
        }
        match tree(&yaml, 0) {
            Ok(node) => Ok(node.as_map().map_or(0, <[_]>::len) - padding),
            Err(e) => {
                assert_eq!(e.rule, Rule::DuplicateKey, "{}", e.message);
                Err(e.pos.line - u32::try_from(padding).unwrap_or(0))
            }
        }
    }

    /// Collection keys are compared with the earlier ones of equal hash only: thousands of
    /// them stay linear, and what is the same key is as before.
    #[test]
    fn collection_keys_of_a_large_mapping_are_compared_by_hash_first() {
        let keys = |n: usize| -> Vec<String> { (0..n).map(|i| format!("[a{i}, b]")).collect() };
        let (small, large) = (keys(3), keys(12_000));
        assert_eq!(outcome(0, &large), Ok(12_000));
        let again = |mut keys: Vec<String>, i: usize| {
            keys.push(format!("[a{i}, b]"));
            keys
        };
        assert_eq!(outcome(0, &again(small.clone(), 1)), Err(7));
        assert_eq!(outcome(0, &again(large, 6_000)), Err(24_001));
        // Compared by value: NaN is no key's equal, not even its own; 0.0 is -0.0; 1 is not
        // 1.0. The same with few entries and past the limit.
        for (keys, expected) in [
            (vec!["[.nan]", "[.nan]"], Ok(2)),
            (vec!["[0.0]", "[-0.0]"], Err(3)),
            (vec!["{a: 1}", "{a: 1.0}", "{a: '1'}"], Ok(3)),
            (vec!["[1, [2, {x: ~}]]", "[1, [2, {x: null}]]"], Err(3)),
            (vec!["[1, [2]]", "[1, [2], 3]", "[[2], 1]"], Ok(3)),
        ] {
            let keys: Vec<String> = keys.into_iter().map(str::to_owned).collect();
            for padding in [0, SCAN_LIMIT + 4] {
                assert_eq!(
                    outcome(padding, &keys),
                    expected,
                    "{keys:?} after {padding}"
                );
            }
        }
    }
}
