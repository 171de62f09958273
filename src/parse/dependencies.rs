//! Read the `dependencies` field into [`Requirements`], reporting every structural problem.
//! Names are never checked against a list: an unknown name only leaves a prerequisite unmet.

use crate::diagnostic::Sink;
use crate::model::{DepKind, Group, Requirements};
use crate::parse::yaml::{Node, Value};
use crate::rules;

/// The result of reading `dependencies`.
pub struct Parsed {
    pub requirements: Requirements,
    /// False when an error means the requirements are incomplete.
    pub valid: bool,
}

pub fn parse(node: &Node, sink: &mut Sink) -> Parsed {
    let mut req = Requirements::default();
    let mut valid = true;
    let entries = match &node.value {
        Value::Map(m) => m.as_slice(),
        // `dependencies: []` declares nothing, as an empty `dependencies:` does.
        Value::Null => &[],
        Value::Seq(s) if s.is_empty() => &[],
        _ => {
            rules::deps::dependencies_type(sink, node);
            return Parsed {
                requirements: req,
                valid: false,
            };
        }
    };
    for (key, value) in entries {
        let kind = match key.as_str() {
            Some("tools") => DepKind::Tools,
            Some("resources") => DepKind::Resources,
            Some("prompts") => DepKind::Prompts,
            _ => {
                rules::deps::dependency_unknown_type(sink, key);
                continue;
            }
        };
        valid &= parse_group(kind, value, req.group_mut(kind), sink);
    }
    Parsed {
        requirements: req,
        valid,
    }
}

/// One type's value: a bare list (meaning `all`) or a mapping of `all` / `any`.
fn parse_group(kind: DepKind, node: &Node, group: &mut Group, sink: &mut Sink) -> bool {
    match &node.value {
        Value::Null => true,
        Value::Seq(_) => entries(node, kind, None, &mut group.all, sink),
        Value::Map(m) => {
            let mut ok = true;
            for (k, v) in m {
                match k.as_str() {
                    Some("all") => ok &= entries(v, kind, Some("all"), &mut group.all, sink),
                    Some("any") => {
                        let mut any = Vec::new();
                        let any_ok = entries(v, kind, Some("any"), &mut any, sink);
                        ok &= any_ok;
                        if any.is_empty() && any_ok {
                            rules::deps::dependency_empty_any(sink, kind, v.pos);
                        }
                        group.any = Some(any);
                    }
                    _ => {
                        ok = false;
                        rules::deps::dependency_unknown_group(sink, kind, k);
                    }
                }
            }
            ok
        }
        _ => {
            rules::deps::dependency_group_type(sink, kind, node);
            false
        }
    }
}

/// The names of a list: the bare list of a type (`group` is `None`), or its `all` or `any`.
fn entries(
    node: &Node,
    kind: DepKind,
    group: Option<&str>,
    out: &mut Vec<String>,
    sink: &mut Sink,
) -> bool {
    let items = match &node.value {
        Value::Seq(items) => items,
        Value::Null => return true,
        _ => {
            rules::deps::dependency_list_type(sink, kind, group, node);
            return false;
        }
    };
    // Exactly the room the list needs: kept for the whole run, grown by pushes it had twice.
    out.reserve_exact(items.len());
    let mut ok = true;
    let mut names = Vec::with_capacity(items.len());
    for item in items {
        match item.as_str().map(str::trim) {
            Some(s) if !s.is_empty() => names.push(s),
            _ => {
                ok = false;
                rules::deps::dependency_entry_type(sink, kind, group, item);
            }
        }
    }
    crate::model::extend_unique(out, names);
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::yaml;
    use crate::rules::Rule;

    fn run(src: &str) -> (Parsed, Vec<(Rule, u32)>) {
        let node = yaml::parse(src, 2).unwrap();
        let deps = node.get("dependencies").unwrap();
        let mut sink = Sink::new("x");
        let p = parse(deps, &mut sink);
        let rules = sink.findings.iter().map(|f| (f.rule, f.line)).collect();
        (p, rules)
    }

    #[test]
    fn bare_list_means_all() {
        let (p, f) = run("dependencies:\n  tools: [a, b]\n");
        assert!(f.is_empty() && p.valid);
        assert_eq!(p.requirements.tools.all, ["a", "b"]);
        assert_eq!(p.requirements.tools.any, None);
    }

    #[test]
    fn all_and_any_for_every_type() {
        let (p, f) = run(
            "dependencies:\n  tools:\n    all: [a]\n    any: [b, c]\n  resources: {all: [\"docs://x\"]}\n  prompts: {any: [s]}\n",
        );
        assert!(f.is_empty());
        assert_eq!(
            p.requirements.tools.any.as_deref(),
            Some(&["b".to_owned(), "c".to_owned()][..])
        );
        assert_eq!(p.requirements.resources.all, ["docs://x"]);
        assert_eq!(
            p.requirements.prompts.any.as_deref().map(<[String]>::len),
            Some(1)
        );
    }

    #[test]
    fn structural_errors() {
        let (p, f) = run(
            "dependencies:\n  tools:\n    all: [a, 3]\n    some: [x]\n    any: []\n  widgets: [w]\n",
        );
        assert!(!p.valid);
        assert!(f.contains(&(Rule::DependencyEntryType, 4)));
        assert!(f.contains(&(Rule::DependencyUnknownGroup, 5)));
        assert!(f.contains(&(Rule::DependencyEmptyAny, 6)));
        assert!(f.contains(&(Rule::DependencyUnknownType, 7)));
    }

    #[test]
    fn wrong_shapes() {
        let (p, f) = run("dependencies: [a]\n");
        assert!(!p.valid);
        assert_eq!(f, [(Rule::DependenciesType, 2)]);
        let (p, f) = run("dependencies:\n  tools: get_order\n");
        assert!(!p.valid);
        assert_eq!(f, [(Rule::DependenciesType, 3)]);
    }

    #[test]
    fn unknown_type_alone_keeps_skill_valid() {
        let (p, f) = run("dependencies:\n  widgets: [w]\n  tools: [a]\n");
        assert!(p.valid);
        assert_eq!(f, [(Rule::DependencyUnknownType, 3)]);
        assert_eq!(p.requirements.tools.all, ["a"]);
    }
}
