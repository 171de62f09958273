//! How a rule asks about files: the one question it may put to the world outside the file it
//! checks. A skill's body names paths; whether they are there depends on where the skill lives:
//! in the audited tree ([`Tree`], through `boundary.rs`), on an MCP server (the
//! files `skills/list` lists, in `mcp::skills`), or in an editor, whose open documents may not
//! be saved yet (in `lsp`).

use std::ffi::{OsStr, OsString};
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

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
/// boundary; a path that climbs out with `..` is [`Lookup::Outside`] without a look. A path the
/// walk has passed ([`Walked`]) is known without a look.
pub struct Tree<'b> {
    boundary: &'b Boundary,
    walked: Option<&'b Walked>,
}

impl<'b> Tree<'b> {
    pub fn new(boundary: &'b Boundary) -> Self {
        Tree {
            boundary,
            walked: None,
        }
    }

    /// The tree, with what the walk has passed so far.
    pub(crate) fn walked(boundary: &'b Boundary, walked: &'b Walked) -> Self {
        Tree {
            boundary,
            walked: Some(walked),
        }
    }
}

impl Files for Tree<'_> {
    fn lookup(&self, path: &Path) -> Lookup {
        if leaves(path, self.boundary) {
            return Lookup::Outside;
        }
        if let Some(found) = self.walked.and_then(|w| w.get(path)) {
            return found;
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

/// The paths the walk has passed, each as it spelled it, and whether it is a folder: a body's
/// links and paths are most often files of the skill, which the walk lists too, so most
/// lookups need no look at the disk. A path found here exists; one not found (not walked yet,
/// hidden by ignore rules, spelled with `..`, or missing) is looked up on disk. Paths
/// are kept whole, never as hashes standing for them, so a missing file is never taken for
/// another that is there.
#[derive(Default)]
pub(crate) struct Walked {
    /// Split by the path's hash, so walker threads recording and pool threads asking seldom
    /// wait for each other.
    /// Keyed by the path's bytes rather than by `Path`, whose hash and equality walk its
    /// components: a path spelled another way is simply not found and is looked up on disk.
    shards: [Mutex<foldhash::HashMap<OsString, bool>>; 16],
}

impl Walked {
    fn shard(&self, path: &OsStr) -> std::sync::MutexGuard<'_, foldhash::HashMap<OsString, bool>> {
        use std::hash::BuildHasher;
        let h = foldhash::fast::FixedState::with_seed(0).hash_one(path);
        let i = usize::try_from(h >> 60).unwrap_or(0);
        self.shards[i].lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The walk passed `path`, a folder or not.
    pub(crate) fn record(&self, path: &Path, folder: bool) {
        let path = path.as_os_str();
        self.shard(path).insert(path.to_owned(), folder);
    }

    fn get(&self, path: &Path) -> Option<Lookup> {
        let path = path.as_os_str();
        let folder = *self.shard(path).get(path)?;
        Some(if folder { Lookup::Folder } else { Lookup::File })
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

    /// What the walk passed is answered from its record, exactly as spelled; anything else is
    /// looked up on disk, so a file the record lacks is still found and a missing one reported.
    #[test]
    fn the_walk_record_answers_for_what_it_holds_and_the_disk_for_the_rest() {
        let dir = tempfile::tempdir().expect("temp dir");
        let s = dir.path().join("s");
        std::fs::create_dir_all(s.join("references")).expect("dirs");
        std::fs::write(s.join("references/on-disk.md"), "x").expect("write");
        let walked = Walked::default();
        walked.record(&s.join("references"), true);
        walked.record(&s.join("references/walked.md"), false);
        let boundary = Boundary::none();
        let tree = Tree::walked(&boundary, &walked);
        assert_eq!(tree.lookup(&s.join("references")), Lookup::Folder);
        assert_eq!(tree.lookup(&s.join("references/walked.md")), Lookup::File);
        assert_eq!(tree.lookup(&s.join("references/on-disk.md")), Lookup::File);
        assert_eq!(tree.lookup(&s.join("references/gone.md")), Lookup::Missing);
        // The record matches a path's bytes; spelled another way, it is looked up on disk.
        assert_eq!(
            tree.lookup(&s.join("references/./walked.md")),
            Lookup::Missing
        );
        assert_eq!(
            tree.lookup(&s.join("references/./on-disk.md")),
            Lookup::File
        );
    }
}
