//! A package list written where the proposal puts its mapping:
//! `dependencies: [crewai>=1.2.0, crewai-tools]` (PEP 508, Python) or
//! `dependencies: ["@motion-canvas/core>=3.0.0", react]` (npm). Catalogues use this shape for
//! the packages a skill's scripts import; hosts load the skill regardless, so it is read as
//! what it is, never as a broken `dependencies` field.

use std::str::FromStr;

use crate::diagnostic::Sink;
use crate::model::{Declared, Origin, Requirements};
use crate::parse::yaml::Node;
use crate::rules;

/// One parsed requirement.
pub(crate) type Requirement = pep508_rs::Requirement<pep508_rs::VerbatimUrl>;

/// The most `(` a requirement may hold to be parsed. `pep508_rs` reads a marker's parentheses
/// by recursion, with no limit of its own: thousands nested (`requests; ((((...`) overflow the
/// stack. A real requirement has a handful (`; (python_version < "3.8" and ...) or (...)`).
const MAX_PARENTHESES: usize = 32;

/// Parse one PEP 508 requirement string. One with more `(` than [`MAX_PARENTHESES`] is not
/// parsed: it is read as any other requirement that does not parse.
pub(crate) fn parse_one(s: &str) -> Option<Requirement> {
    if memchr::memchr_iter(b'(', s.as_bytes())
        .nth(MAX_PARENTHESES)
        .is_some()
    {
        return None;
    }
    Requirement::from_str(s.trim()).ok()
}

/// The ecosystem a package list belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ecosystem {
    Python,
    Npm,
}

/// What a `dependencies` list of package names declares.
#[derive(Debug)]
pub(crate) enum PackageList {
    /// Python distributions, checked against a profile's `packages`.
    Python(Box<Declared>),
    /// npm packages: read and reported, but no profile describes them, so nothing is judged.
    Npm,
}

/// If `node` (the value of `dependencies`, whose key is `key`) is a non-empty list of
/// PEP 508 strings or of npm package specs, what it declares. `None` when it is anything else,
/// for the proposal's reader to report. `has_metadata`: the frontmatter has a `metadata` key
/// (the fix then does not make one).
pub(crate) fn read(
    key: &Node,
    node: &Node,
    has_metadata: bool,
    sink: &mut Sink,
) -> Option<PackageList> {
    let items = node.as_seq()?;
    if items.is_empty() {
        return None;
    }
    let names: Vec<&str> = items
        .iter()
        .map(|i| i.as_str().map(str::trim))
        .collect::<Option<_>>()?;
    if names.iter().all(|n| parse_one(n).is_some()) {
        rules::deps::package_list(sink, key, node, &names, Ecosystem::Python, has_metadata);
        return Some(PackageList::Python(Box::new(declared(&names, node))));
    }
    if names.iter().all(|n| npm_spec(n)) {
        rules::deps::package_list(sink, key, node, &names, Ecosystem::Npm, has_metadata);
        return Some(PackageList::Npm);
    }
    None
}

/// Is `s` an npm package, optionally with a version: `react`, `@scope/name@^1.2`,
/// `@motion-canvas/core>=3.0.0` (the comparison some catalogues write)?
fn npm_spec(s: &str) -> bool {
    let name_byte = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || b"-._~".contains(&b);
    let (scope, rest) = match s.strip_prefix('@') {
        Some(scoped) => match scoped.split_once('/') {
            Some((scope, rest)) => (Some(scope), rest),
            None => return false,
        },
        None => (None, s),
    };
    let end = rest
        .bytes()
        .position(|b| !name_byte(b))
        .unwrap_or(rest.len());
    let (name, version) = rest.split_at(end);
    let version_ok = version.is_empty()
        || (["@", ">=", "<=", ">", "<", "=", "^", "~"]
            .iter()
            .any(|op| version.starts_with(op))
            && version.len() > 1
            && !version.contains(char::is_whitespace));
    let part_ok = |p: &str| {
        !p.is_empty() && !p.starts_with(['.', '_']) && p.bytes().all(name_byte) && p.len() <= 214
    };
    scope.is_none_or(part_ok) && part_ok(name) && version_ok
}

/// The requirements `names`, declared at `node`.
fn declared(names: &[&str], node: &Node) -> Declared {
    let mut req = Requirements::default();
    req.group_mut(crate::model::DepKind::Packages)
        .extend_all(names);
    Declared {
        source: Origin::Packages,
        file: None,
        line: node.pos.line,
        column: node.pos.column,
        requirements: req,
        uses: Vec::new(),
        block: "",
    }
}

/// The metadata key under which SA307's fix puts a package list, as one string of
/// requirements separated by spaces.
pub(crate) const METADATA_KEY: &str = "python-packages";

/// `metadata.python-packages` (`node`), read as the package list it holds when every word of
/// it is a PEP 508 requirement: where SA307's fix moves `dependencies: [pkg, ...]`, so the
/// packages are still checked.
pub(crate) fn read_metadata(node: &Node) -> Option<Declared> {
    let text = node.as_str()?;
    let names: Vec<&str> = text.split_whitespace().collect();
    if names.is_empty() || names.iter().any(|n| parse_one(n).is_none()) {
        return None;
    }
    Some(declared(&names, node))
}

/// PEP 503's normal form of a distribution name: lower case, runs of `-`, `_`, `.` as `-`.
pub(crate) fn normalise(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut sep = false;
    for c in name.trim().chars() {
        if matches!(c, '-' | '_' | '.') {
            sep = true;
            continue;
        }
        if sep && !out.is_empty() {
            out.push('-');
        }
        sep = false;
        out.extend(c.to_lowercase());
    }
    out
}

/// Does an installed `version` of the distribution meet `req`'s version specifiers? A
/// requirement by URL asks only for the distribution; an unreadable version meets nothing.
pub(crate) fn satisfied_by(req: &Requirement, version: &str) -> bool {
    let Some(pep508_rs::VersionOrUrl::VersionSpecifier(specs)) = &req.version_or_url else {
        return true;
    };
    pep440_rs::Version::from_str(version.trim()).is_ok_and(|v| specs.contains(&v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DepKind;
    use crate::parse::yaml;
    use crate::rules::Rule;

    fn run(src: &str) -> (Option<PackageList>, Vec<Rule>) {
        let root = yaml::parse(src, 2).unwrap();
        let mut sink = Sink::new("x");
        let key = &root.as_map().unwrap()[0].0;
        let d = read(key, root.get("dependencies").unwrap(), false, &mut sink);
        (d, sink.findings.iter().map(|f| f.rule).collect())
    }

    #[test]
    fn a_package_list_is_read_and_flagged() {
        let (d, f) = run(
            "dependencies: [crewai>=1.2.0, crewai-tools, \"torch>=2.0; python_version>'3.8'\"]\n",
        );
        let Some(PackageList::Python(d)) = d else {
            panic!("read as Python packages: {d:?}")
        };
        assert_eq!(d.source, Origin::Packages);
        assert_eq!(d.requirements.group(DepKind::Packages).all.len(), 3);
        assert_eq!(f, [Rule::PackageList]);
    }

    #[test]
    fn other_shapes_are_left_to_the_dependencies_reader() {
        assert!(run("dependencies: {tools: [a]}\n").0.is_none());
        assert!(run("dependencies: [a, {b: 1}]\n").0.is_none());
        assert!(run("dependencies: [\"not a package!\"]\n").0.is_none());
        assert!(run("dependencies: []\n").0.is_none());
        // Neither PEP 508 nor npm throughout: a list of tools written the wrong way.
        assert!(run("dependencies: [\"@Bad Scope/x\"]\n").0.is_none());
        assert!(
            run("dependencies: [crewai, \"@motion-canvas/core>=3.0.0\", \"x y\"]\n")
                .0
                .is_none()
        );
    }

    #[test]
    fn an_npm_list_is_read_as_npm_packages_and_flagged() {
        let (d, f) = run(
            "dependencies: [\"@motion-canvas/core>=3.0.0\", \"@motion-canvas/2d@^3\", react]\n",
        );
        assert!(matches!(d, Some(PackageList::Npm)), "{d:?}");
        assert_eq!(f, [Rule::PackageList]);
        for ok in [
            "react",
            "@scope/name",
            "left-pad@1.3.0",
            "vite^5",
            "@a/b~1.2",
        ] {
            assert!(npm_spec(ok), "{ok}");
        }
        for bad in ["", "@scope", "@/x", "React", ".hidden", "name@", "name >=1"] {
            assert!(!npm_spec(bad), "{bad}");
        }
    }

    #[test]
    fn versions_and_names() {
        assert_eq!(normalise("Crew_AI.tools"), "crew-ai-tools");
        assert_eq!(normalise("torch"), "torch");
        let r = parse_one("crewai>=1.2.0,<2").unwrap();
        assert!(satisfied_by(&r, "1.10.0"));
        assert!(!satisfied_by(&r, "1.1"));
        assert!(!satisfied_by(&r, "2.0.0"));
        assert!(!satisfied_by(&r, "not-a-version"));
        assert!(satisfied_by(&parse_one("vllm").unwrap(), "0.1"));
    }

    /// Nested parentheses in a marker: `pep508_rs` reads them by recursion, and a hundred
    /// thousand levels overflowed the stack. Past the limit the requirement is not parsed;
    /// up to it, it still is.
    #[test]
    fn deeply_nested_markers_are_not_parsed() {
        let nested = |depth: usize, sep: &str| {
            format!(
                "requests; {}python_version > '3'{}",
                format!("({sep}").repeat(depth),
                format!("{sep})").repeat(depth)
            )
        };
        for sep in ["", " "] {
            assert!(parse_one(&nested(100_000, sep)).is_none());
            assert!(parse_one(&nested(MAX_PARENTHESES + 1, sep)).is_none());
            let r = parse_one(&nested(MAX_PARENTHESES, sep)).expect("parsed");
            assert_eq!(r.name.as_ref(), "requests");
        }
        // Unbalanced, or hidden from a count that skipped quoted text: still not handed over.
        assert!(parse_one(&format!("requests @ https://x/' ; {}", "(".repeat(100_000))).is_none());
        // The lists that reach it: a frontmatter `dependencies` list is then no package list.
        let deep = nested(100_000, "");
        assert!(run(&format!("dependencies: [\"{deep}\"]\n")).0.is_none());
        assert!(
            read_metadata(
                &yaml::parse(&format!("k: \"{deep}\"\n"), 2)
                    .unwrap()
                    .as_map()
                    .unwrap()[0]
                    .1
            )
            .is_none()
        );
    }
}
