//! The machine side of a profile file: `os`, `bins`, `env`, `config`, `packages` and the
//! tool sets a file declares, checked and normalised as they are read, and unioned through
//! `extends` like the tool lists.

use std::collections::{BTreeMap, BTreeSet};

use super::Machine;
use super::compose::Deny;
use crate::diagnostic::quote;
use crate::model::DepKind;

/// The OS names a profile may give: OpenClaw's three, then the aliases read as them.
pub(super) const OS_NAMES: [&str; 5] = ["darwin", "linux", "win32", "macos", "windows"];

/// The OpenClaw name (`darwin`, `linux`, `win32`) for an OS name or alias.
pub(crate) fn os_name(name: &str) -> Option<&'static str> {
    match name.trim() {
        "darwin" | "macos" => Some("darwin"),
        "linux" => Some("linux"),
        "win32" | "windows" => Some("win32"),
        _ => None,
    }
}

/// A Python distribution name as PEP 503 compares it: lower case, each run of `-`, `_`
/// and `.` one `-`.
pub(crate) fn package_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut in_run = false;
    for c in name.trim().chars() {
        if matches!(c, '-' | '_' | '.') {
            if !in_run {
                out.push('-');
            }
            in_run = true;
        } else {
            out.extend(c.to_lowercase());
            in_run = false;
        }
    }
    out
}

/// Why an entry of a machine `kind` cannot be used, if it cannot: blank names, values in
/// `env`, OS names skill-audit does not know. `glob` entries (in `deny`) are only checked
/// for blanks and values.
pub(super) fn problem(kind: DepKind, key: &str, entry: &str, glob: bool) -> Option<String> {
    let name = entry.trim();
    if name.is_empty() {
        return Some(format!("`{key}` entry is empty; give a name"));
    }
    match kind {
        // The message never repeats what follows `=`: it may be a secret.
        DepKind::Env if name.contains('=') => {
            let bare = name.split('=').next().unwrap_or_default().trim();
            Some(format!(
                "`{key}` entry {} looks like it carries a value; profiles hold names only, \
                 never values: write {}",
                quote(&format!("{bare}=…")),
                quote(bare)
            ))
        }
        DepKind::Os if !glob && os_name(name).is_none() => Some(format!(
            "`{key}` entry {} is not an OS skill-audit knows; use `darwin`, `linux` or \
             `win32` (`macos` and `windows` are read as `darwin` and `win32`)",
            quote(name)
        )),
        _ => None,
    }
}

/// An entry of a machine `kind` as it is compared: trimmed, OS names and package names
/// normalised.
pub(super) fn normalise(kind: DepKind, entry: &str) -> String {
    let name = entry.trim();
    match kind {
        DepKind::Os => os_name(name).map_or_else(|| name.to_owned(), str::to_owned),
        DepKind::Packages => package_name(name),
        _ => name.to_owned(),
    }
}

/// What a profile and the profiles it is built from say about the machine, before `deny`.
/// `None` is a kind no part describes; `extends` unions the rest.
#[derive(Debug, Default, Clone)]
pub(super) struct MachineParts {
    pub os: Option<Vec<String>>,
    pub bins: Option<Vec<String>>,
    pub env: Option<Vec<String>>,
    pub config: Option<Vec<String>>,
    pub toolsets: Option<Vec<String>>,
    /// In composition order, so that a later part's version of a package wins.
    pub packages: Option<Vec<(String, String)>>,
}

fn union<T>(mine: &mut Option<Vec<T>>, other: Option<Vec<T>>) {
    match (mine.as_mut(), other) {
        (_, None) => {}
        (None, Some(v)) => *mine = Some(v),
        (Some(m), Some(v)) => m.extend(v),
    }
}

impl MachineParts {
    pub(super) fn absorb(&mut self, other: MachineParts) {
        union(&mut self.os, other.os);
        union(&mut self.bins, other.bins);
        union(&mut self.env, other.env);
        union(&mut self.config, other.config);
        union(&mut self.toolsets, other.toolsets);
        union(&mut self.packages, other.packages);
    }

    /// The names of a machine kind, to fill.
    pub(super) fn names_mut(&mut self, kind: DepKind) -> Option<&mut Option<Vec<String>>> {
        match kind {
            DepKind::Os => Some(&mut self.os),
            DepKind::Bins => Some(&mut self.bins),
            DepKind::Env => Some(&mut self.env),
            DepKind::Config => Some(&mut self.config),
            DepKind::Toolsets => Some(&mut self.toolsets),
            _ => None,
        }
    }

    /// The machine the profile describes: sorted sets, what `deny` matches removed.
    pub(super) fn into_machine(self, deny: &Deny) -> Machine {
        let set = |kind: DepKind, names: Option<Vec<String>>| {
            names.map(|n| {
                n.into_iter()
                    .filter(|n| !deny.denies(kind, n))
                    .collect::<BTreeSet<String>>()
            })
        };
        let packages = self.packages.map(|pkgs| {
            let mut map = BTreeMap::new();
            for (name, version) in pkgs {
                if !deny.denies(DepKind::Packages, &name) {
                    map.insert(name, version);
                }
            }
            map
        });
        Machine {
            os: set(DepKind::Os, self.os),
            bins: set(DepKind::Bins, self.bins),
            env: set(DepKind::Env, self.env),
            config: set(DepKind::Config, self.config),
            packages,
            toolsets: set(DepKind::Toolsets, self.toolsets),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names_follow_pep_503() {
        assert_eq!(package_name("Foo_Bar"), "foo-bar");
        assert_eq!(package_name("zope.interface"), "zope-interface");
        assert_eq!(package_name("A-_.b__c"), "a-b-c");
        assert_eq!(package_name(" requests "), "requests");
    }

    #[test]
    fn os_names_and_aliases() {
        assert_eq!(os_name("macos"), Some("darwin"));
        assert_eq!(os_name("windows"), Some("win32"));
        assert_eq!(os_name("Linux"), None, "as OpenClaw writes them");
        assert_eq!(os_name("linux"), Some("linux"));
        assert_eq!(os_name("freebsd"), None);
        assert_eq!(normalise(DepKind::Os, " macos"), "darwin");
    }

    #[test]
    fn problems_name_the_entry_but_never_a_value() {
        let p = problem(DepKind::Env, "env", "API_KEY=sk-secret", false).unwrap();
        assert!(p.contains("`API_KEY=…`") && p.contains("names"), "{p}");
        assert!(!p.contains("sk-secret"), "{p}");
        assert!(problem(DepKind::Env, "env", "API_KEY", false).is_none());
        assert!(problem(DepKind::Bins, "bins", " ", false).is_some());
        let p = problem(DepKind::Os, "os", "freebsd", false).unwrap();
        assert!(p.contains("`freebsd`") && p.contains("darwin"), "{p}");
        assert!(problem(DepKind::Os, "deny.os", "win*", true).is_none());
    }

    #[test]
    fn extends_unions_and_later_versions_win() {
        let mut base = MachineParts {
            bins: Some(vec!["git".into()]),
            packages: Some(vec![("requests".into(), "2.0".into())]),
            ..MachineParts::default()
        };
        base.absorb(MachineParts {
            bins: Some(vec!["jq".into()]),
            env: Some(Vec::new()),
            packages: Some(vec![("requests".into(), "2.32.3".into())]),
            ..MachineParts::default()
        });
        let m = base.into_machine(&Deny::default());
        assert_eq!(m.bins, Some(["git".into(), "jq".into()].into()));
        assert_eq!(
            m.env,
            Some(BTreeSet::new()),
            "present but empty is described"
        );
        assert_eq!(m.os, None, "absent everywhere is not described");
        assert_eq!(
            m.packages,
            Some([("requests".into(), "2.32.3".into())].into())
        );
    }
}
