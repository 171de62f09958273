//! Small readers for field shapes shared by skills and agents: a list of names written as a YAML
//! list or as a comma/space separated string, and so on. They hand a wrong shape to the field's
//! rule (a [`ShapeReport`]) and return what could be read.

use crate::diagnostic::{Pos, Sink};
use crate::parse::yaml::{Node, Value};
use crate::rules::{NameShape, ShapeReport};

/// Split a tool list written as one string: `Read, Grep` or `Bash(git:*) Read`.
/// Commas and whitespace inside parentheses belong to the entry (`Agent(a, b)`).
pub(crate) fn split_names(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' => {
                depth += 1;
                cur.push(c);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                cur.push(c);
            }
            ',' if depth == 0 => flush(&mut cur, &mut out),
            c if c.is_whitespace() && depth == 0 => flush(&mut cur, &mut out),
            c => cur.push(c),
        }
    }
    flush(&mut cur, &mut out);
    out
}

fn flush(cur: &mut String, out: &mut Vec<String>) {
    let t = cur.trim();
    if !t.is_empty() {
        out.push(t.to_owned());
    }
    cur.clear();
}

/// A list of names: a YAML list of strings, or one string split by [`split_names`].
/// Non-string entries are reported with `report` and skipped; `None` when the shape is wrong.
pub(crate) fn name_list(
    node: &Node,
    field: &str,
    report: ShapeReport,
    sink: &mut Sink,
) -> Option<Vec<String>> {
    located_name_list(node, field, report, sink)
        .map(|names| names.into_iter().map(|(n, _)| n).collect())
}

/// [`name_list`] with where each name is: a list item's own position; for a string, the
/// string's (one string holds them all).
pub(crate) fn located_name_list(
    node: &Node,
    field: &str,
    report: ShapeReport,
    sink: &mut Sink,
) -> Option<Vec<(String, Pos)>> {
    match &node.value {
        Value::Null => Some(Vec::new()),
        Value::Str(s) => Some(split_names(s).into_iter().map(|n| (n, node.pos)).collect()),
        Value::Seq(items) => {
            let mut out = Vec::with_capacity(items.len());
            let mut ok = true;
            for item in items {
                match item.as_str().map(str::trim) {
                    Some(s) if !s.is_empty() => out.push((s.to_owned(), item.pos)),
                    _ => {
                        ok = false;
                        let found = item.kind();
                        report(sink, item.pos, field, NameShape::Entry { found });
                    }
                }
            }
            ok.then_some(out)
        }
        _ => {
            let found = node.kind();
            report(sink, node.pos, field, NameShape::List { found });
            None
        }
    }
}

/// Names of a field that may be a mapping (its keys) or a list of names, like `mcp-servers`.
pub(crate) fn key_or_name_list(
    node: &Node,
    field: &str,
    report: ShapeReport,
    sink: &mut Sink,
) -> Option<Vec<String>> {
    match &node.value {
        Value::Map(entries) => {
            let mut out = Vec::with_capacity(entries.len());
            for (k, _) in entries {
                match k.scalar_text() {
                    Some(s) => out.push(s),
                    None => {
                        report(sink, k.pos, field, NameShape::Key);
                        return None;
                    }
                }
            }
            Some(out)
        }
        _ => name_list(node, field, report, sink),
    }
}

/// A string field, with booleans and numbers accepted as their text (YAML typed them, the
/// author meant text). `None` for other shapes.
pub(crate) fn text(node: &Node) -> Option<String> {
    node.scalar_text()
}

/// A boolean field: only `true`/`false` (what VS Code's parser accepts).
pub(crate) fn boolean(node: &Node) -> Option<bool> {
    match node.value {
        Value::Bool(b) => Some(b),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_commas_spaces_and_keeps_parentheses() {
        assert_eq!(split_names("Read, Grep,Glob"), ["Read", "Grep", "Glob"]);
        assert_eq!(split_names("Bash(git:*) Read"), ["Bash(git:*)", "Read"]);
        assert_eq!(split_names("Agent(a, b), Read"), ["Agent(a, b)", "Read"]);
        assert!(split_names("  ,, ").is_empty());
    }
}
