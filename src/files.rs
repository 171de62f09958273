//! How a rule asks about files: the one question it may put to the world outside the file it
//! checks. A skill's body names paths; whether they are there depends on where the skill lives:
//! in the audited tree ([`Tree`], through `boundary.rs`), on an MCP server (the
//! files `skills/list` lists, in `mcp::skills`), or in an editor, whose open documents may not
//! be saved yet (in `lsp`).

use std::path::{Component, Path, PathBuf};

use crate::boundary::Boundary;

/// What is at a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    File,
    Folder,
    Missing,
    /// The path leads out of the audited tree: it is not looked at, so nothing about what the
    /// machine has there reaches a report.
    Outside,
    /// Nothing is known (a server that lists no files).
    Unknown,
}

/// The files a skill may refer to.
pub trait Files {
    /// What is at `path`, exactly as spelled.
    fn lookup(&self, path: &Path) -> Lookup;

    /// The names in the folder `dir`, or `None` when it cannot be listed.
    fn names_in(&self, dir: &Path) -> Option<Vec<String>>;

    /// The URI of the skill whose files a server lists, when these are such files: messages
    /// then speak of the server's list rather than of the disk.
    fn listed_for(&self) -> Option<&str> {
        None
    }
}

/// The audited tree on disk. A path is looked at only once it is known to stay inside the
/// boundary; a path that climbs out with `..` is [`Lookup::Outside`] without a look.
pub struct Tree<'b> {
    boundary: &'b Boundary,
}

impl<'b> Tree<'b> {
    pub fn new(boundary: &'b Boundary) -> Self {
        Tree { boundary }
    }
}

impl Files for Tree<'_> {
    fn lookup(&self, path: &Path) -> Lookup {
        if leaves(path, self.boundary) {
            return Lookup::Outside;
        }
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_dir() => Lookup::Folder,
            Ok(_) => Lookup::File,
            Err(_) => Lookup::Missing,
        }
    }

    fn names_in(&self, dir: &Path) -> Option<Vec<String>> {
        if leaves(dir, self.boundary) {
            return None;
        }
        let entries = std::fs::read_dir(dir).ok()?;
        Some(
            entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect(),
        )
    }
}

/// Does `path`, which climbs with `..`, end outside the boundary? The part before its first
/// `..` is resolved on disk (it is a folder the walk found), the rest by its names alone.
fn leaves(path: &Path, boundary: &Boundary) -> bool {
    let Some(up) = path.components().position(|c| c == Component::ParentDir) else {
        return false;
    };
    let head: PathBuf = path.components().take(up).collect();
    let tail: PathBuf = path.components().skip(up).collect();
    match boundary.resolve(&head) {
        Ok(real) => !boundary.admits(&crate::paths::normalize(&real.join(tail))),
        Err(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tree_answers_inside_and_refuses_to_look_outside() {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = dir.path().join("lib");
        std::fs::create_dir_all(root.join("s/references")).expect("dirs");
        std::fs::write(root.join("s/references/a.md"), "x").expect("write");
        std::fs::write(dir.path().join("secret.md"), "x").expect("write");
        let boundary = Boundary::new(std::slice::from_ref(&root), false);
        let tree = Tree::new(&boundary);
        let s = root.join("s");
        assert_eq!(tree.lookup(&s.join("references/a.md")), Lookup::File);
        assert_eq!(tree.lookup(&s.join("references")), Lookup::Folder);
        assert_eq!(tree.lookup(&s.join("references/b.md")), Lookup::Missing);
        assert_eq!(tree.lookup(&s.join("../s/references/a.md")), Lookup::File);
        assert_eq!(tree.lookup(&s.join("../../secret.md")), Lookup::Outside);
        assert_eq!(
            tree.names_in(&s.join("references")),
            Some(vec!["a.md".to_owned()])
        );
        assert_eq!(tree.names_in(&s.join("../..")), None);
    }
}
