//! Path helpers every stage uses: how a path is shown in reports, a path with its `.` and
//! `..` taken out by its names alone, a file's name and its folder's name as text.

use std::path::{Component, Path, PathBuf};

/// How the paths of one run are shown: relative to the working folder when under it, else
/// absolute. When an audited root lies above the working folder (`..`, say), every path of the
/// run is shown absolute, as under a root outside it: else the root and the files beside the
/// working folder would be absolute and those under it relative, and a comparison with a report
/// of the same library written elsewhere would take the latter for moved.
#[derive(Debug, Clone)]
pub(crate) struct PathView {
    /// The working folder, with `.` and `..` taken out.
    cwd: PathBuf,
    /// Every path is shown absolute.
    absolute: bool,
}

impl PathView {
    /// The view of a run in `cwd` (which relative roots are taken from) over `roots`.
    pub(crate) fn new(cwd: &Path, roots: &[PathBuf]) -> PathView {
        let cwd = normalize(cwd);
        let absolute = roots.iter().any(|r| {
            let root = normalize(&cwd.join(r));
            root != cwd && cwd.starts_with(&root)
        });
        PathView { cwd, absolute }
    }

    /// The working folder, with `.` and `..` taken out: relative paths are taken from it.
    pub(crate) fn cwd(&self) -> &Path {
        &self.cwd
    }
}

/// How a path is shown in reports: as `view` says, `/`-separated, without `./`.
pub(crate) fn display_path(path: &Path, view: &PathView) -> String {
    let abs = if path.is_absolute() {
        normalize(path)
    } else {
        normalize(&view.cwd.join(path))
    };
    let shown = match abs.strip_prefix(&view.cwd) {
        _ if view.absolute => abs,
        Ok(rel) if rel.as_os_str().is_empty() => PathBuf::from("."),
        Ok(rel) => rel.to_path_buf(),
        Err(_) => abs,
    };
    let s = shown.to_string_lossy().replace('\\', "/");
    s.strip_prefix("./").map(str::to_owned).unwrap_or(s)
}

/// Lexically remove `.` and `..` components (no file system access, so symlinks stay links).
/// A `..` that has no name before it to remove stays, except right under the root.
pub(crate) fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                let last_is_name =
                    matches!(out.components().next_back(), Some(Component::Normal(_)));
                if last_is_name {
                    out.pop();
                } else if !out.has_root() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `paths` without repeats, in the order given: a path is a repeat of an earlier one when both
/// lead to the same place (`lib`, `./lib`, `lib/`, a link to `lib`), from `cwd` for a relative
/// one; one that does not resolve is compared with `.` and `..` taken out by name. The first
/// spelling is kept. Links are followed, as `..` after a link leaves where the link leads.
pub(crate) fn distinct(paths: &[PathBuf], cwd: &Path) -> Vec<PathBuf> {
    let mut seen = std::collections::HashSet::new();
    paths
        .iter()
        .filter(|p| {
            let at = cwd.join(p);
            seen.insert(std::fs::canonicalize(&at).unwrap_or_else(|_| normalize(&at)))
        })
        .cloned()
        .collect()
}

/// `text` with every byte percent-encoded but RFC 3986's unreserved characters and those of
/// `keep` (`/` for a path whose separators stay): a valid URI part whatever a name holds.
pub(crate) fn percent_encode(text: &str, keep: &[u8]) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') || keep.contains(&b)
        {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The file name of `path` as text (lossy), or empty when the path has none.
pub(crate) fn file_name_text(path: &Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// The name of the folder holding `path`, as text (lossy), or empty when there is none.
pub(crate) fn folder_name_text(path: &Path) -> String {
    path.parent()
        .and_then(Path::file_name)
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_absolute_when_a_root_holds_the_working_folder() {
        let cwd = Path::new("/srv/library/skills");
        let shown = |roots: &[&str], path: &str| {
            let roots: Vec<PathBuf> = roots.iter().map(PathBuf::from).collect();
            display_path(Path::new(path), &PathView::new(cwd, &roots))
        };
        // A root above: the root, the files under the working folder and the others alike.
        assert_eq!(shown(&[".."], ".."), "/srv/library");
        assert_eq!(
            shown(&[".."], "a/SKILL.md"),
            "/srv/library/skills/a/SKILL.md"
        );
        assert_eq!(shown(&[".."], "../agents/w.md"), "/srv/library/agents/w.md");
        assert_eq!(
            shown(&["/srv"], "a/SKILL.md"),
            "/srv/library/skills/a/SKILL.md"
        );
        // One such root among others is enough.
        assert_eq!(
            shown(&["a", "/srv/library/x/.."], "a"),
            "/srv/library/skills/a"
        );
        // No root, the working folder itself, a folder in it or one beside it: as before.
        for roots in [
            &[][..],
            &["."],
            &["../../library/skills/"],
            &["a"],
            &["../other"],
            &["/elsewhere"],
        ] {
            assert_eq!(shown(roots, "."), ".");
            assert_eq!(shown(roots, "a/./SKILL.md"), "a/SKILL.md");
            assert_eq!(shown(roots, "../agents/w.md"), "/srv/library/agents/w.md");
        }
    }

    #[test]
    fn repeated_paths_are_dropped_and_the_first_spelling_kept() {
        let cwd = Path::new("/srv");
        let given: Vec<PathBuf> = [
            "lib",
            "lib/skills",
            "./lib/",
            "/srv/lib",
            "other/../lib",
            "x",
        ]
        .iter()
        .map(PathBuf::from)
        .collect();
        assert_eq!(
            distinct(&given, cwd),
            [PathBuf::from("lib"), "lib/skills".into(), "x".into()]
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_link_is_followed_before_the_dots_after_it() {
        let tmp = tempfile::TempDir::new().unwrap();
        let cwd = tmp.path();
        std::fs::create_dir_all(cwd.join("lib/skills")).unwrap();
        std::fs::create_dir_all(cwd.join("other")).unwrap();
        std::os::unix::fs::symlink("../lib", cwd.join("other/l")).unwrap();
        std::os::unix::fs::symlink("lib", cwd.join("liblink")).unwrap();
        let given: Vec<PathBuf> = ["other", "other/l/..", "lib", "liblink", "other/l"]
            .iter()
            .map(PathBuf::from)
            .collect();
        // `other/l/..` is the folder holding `lib`, not `other`; `liblink` and `other/l` are
        // `lib`.
        assert_eq!(
            distinct(&given, cwd),
            [PathBuf::from("other"), "other/l/..".into(), "lib".into()]
        );
    }
}
