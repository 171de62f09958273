//! `Path::parent`, `Path::file_name` and `Path::join`, cheaper for the paths the walk builds.
//!
//! Every file's folder and name are asked for several times (by the parser, the rules, the
//! linker), and each body path a skill names is joined to its folder. std answers the first
//! two by parsing components from the end (about 200 instructions a call), and `join` copies
//! the folder into a buffer of its own size, then grows it for the name. Here a path whose last
//! two components are plain names is answered from its last `/`, and a join is sized once; any
//! other path goes to std, so the answers are always std's.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// A plain name: not empty, `.` or `..`.
fn plain(name: &[u8]) -> bool {
    !name.is_empty() && name != b"." && name != b".."
}

/// Where the last component of `b` starts, when `b` ends in a plain name after a single `/`
/// (`a/b`, not `a//b`, `a/`, `a/.` or `/b`).
#[cfg(unix)]
fn last_name_at(b: &[u8]) -> Option<usize> {
    let slash = memchr::memrchr(b'/', b)?;
    let name = &b[slash + 1..];
    let before = &b[..slash];
    let dir_name = memchr::memrchr(b'/', before).map_or(before, |i| &before[i + 1..]);
    (plain(name) && plain(dir_name)).then_some(slash + 1)
}

/// `path.parent()`.
pub(crate) fn parent(path: &Path) -> Option<&Path> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let b = path.as_os_str().as_bytes();
        if let Some(at) = last_name_at(b) {
            return Some(Path::new(OsStr::from_bytes(&b[..at - 1])));
        }
    }
    path.parent()
}

/// `path.file_name()`.
pub(crate) fn file_name(path: &Path) -> Option<&OsStr> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let b = path.as_os_str().as_bytes();
        if let Some(at) = last_name_at(b) {
            return Some(OsStr::from_bytes(&b[at..]));
        }
    }
    path.file_name()
}

/// The name of the folder holding `path`, `path.parent().and_then(Path::file_name)`.
pub(crate) fn folder_name(path: &Path) -> Option<&OsStr> {
    parent(path).and_then(file_name)
}

/// [`file_name`] as text (lossy), or empty when the path has none.
pub(crate) fn file_name_text(path: &Path) -> String {
    file_name(path).map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// [`folder_name`] as text (lossy), or empty when the path has none.
pub(crate) fn folder_name_text(path: &Path) -> String {
    folder_name(path).map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// `dir.join(rel)`, in a buffer allocated once.
pub(crate) fn join(dir: &Path, rel: impl AsRef<Path>) -> PathBuf {
    let rel = rel.as_ref();
    let mut out = PathBuf::with_capacity(dir.as_os_str().len() + 1 + rel.as_os_str().len());
    out.push(dir);
    out.push(rel);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Paths of `a`, `b`, `.` and `/`: every way components can be empty, `.`, `..`, repeated
    /// or trailing.
    fn any_path() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![Just('a'), Just('b'), Just('.'), Just('/')],
            0..10,
        )
        .prop_map(|cs| cs.into_iter().collect())
    }

    proptest! {
        #[test]
        fn answers_are_std_answers(p in any_path(), rel in any_path()) {
            // Compared as bytes: `Path` equality would let `a/` pass for `a`.
            let p = Path::new(&p);
            prop_assert_eq!(parent(p).map(Path::as_os_str), p.parent().map(Path::as_os_str));
            prop_assert_eq!(file_name(p), p.file_name());
            prop_assert_eq!(folder_name(p), p.parent().and_then(Path::file_name));
            prop_assert_eq!(join(p, &rel).into_os_string(), p.join(&rel).into_os_string());
        }
    }

    #[test]
    fn walk_paths_take_the_short_way() {
        let p = Path::new("lib/skills/pdf/SKILL.md");
        assert_eq!(parent(p), Some(Path::new("lib/skills/pdf")));
        assert_eq!(file_name(p), Some(OsStr::new("SKILL.md")));
        assert_eq!(folder_name(p), Some(OsStr::new("pdf")));
        assert_eq!(file_name_text(p), "SKILL.md");
        assert_eq!(folder_name_text(p), "pdf");
        assert_eq!(folder_name_text(Path::new("SKILL.md")), "");
        assert_eq!(parent(Path::new("/SKILL.md")), Some(Path::new("/")));
        assert_eq!(parent(Path::new("SKILL.md")), Some(Path::new("")));
        assert_eq!(parent(Path::new("a/./b")), Some(Path::new("a")));
        let joined = join(Path::new("lib/pdf"), "references/guide.md");
        assert_eq!(joined, Path::new("lib/pdf/references/guide.md"));
        assert_eq!(joined.capacity(), "lib/pdf/references/guide.md".len());
    }
}
