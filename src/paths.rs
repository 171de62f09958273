//! Path helpers every stage uses: how a path is shown in reports, a path with its `.` and
//! `..` taken out by its names alone, a file's name and its folder's name as text.

use std::path::{Component, Path, PathBuf};

/// How a path is shown in reports: relative to `cwd` when under it, `/`-separated, without
/// `./`; otherwise as given.
pub(crate) fn display_path(path: &Path, cwd: &Path) -> String {
    let abs = if path.is_absolute() {
        normalize(path)
    } else {
        normalize(&cwd.join(path))
    };
    let shown = match abs.strip_prefix(normalize(cwd)) {
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
