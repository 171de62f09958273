//! How a rule asks about files: the one question it may put to the world outside the file it
//! checks. A skill's body names paths; whether they are there depends on where the skill lives:
//! in the audited tree ([`Tree`], through `boundary.rs`), on an MCP server (the
//! files `skills/list` lists, in `mcp::skills`), or in an editor, whose open documents may not
//! be saved yet (in `lsp`).

use std::cell::RefCell;
use std::path::{Component, Path, PathBuf};

use crate::boundary::{Boundary, Refusal};

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

/// The audited tree on disk. A path is looked at only in a folder whose real path, its links
/// and `..` resolved by the file system, is inside the boundary, and a link is followed only
/// to a file inside: a link in the tree to elsewhere is [`Lookup::Outside`], so what is or is
/// not there does not reach a report.
pub struct Tree<'b> {
    boundary: &'b Boundary,
    /// A folder the walk found inside the boundary without following a link (the checked
    /// file's), whose own folders are then known by one look each.
    walked: Option<PathBuf>,
    /// The root the walk found it under, as spelled: every folder between the two is a real
    /// folder, so `..` from one of them is its parent by name.
    floor: Option<PathBuf>,
    /// Each folder asked about, as spelled: a path to it known to stay inside, or the answer
    /// for whatever is in it. A skill names many files in a few folders.
    folders: RefCell<foldhash::HashMap<PathBuf, Result<PathBuf, Lookup>>>,
}

impl<'b> Tree<'b> {
    pub fn new(boundary: &'b Boundary) -> Self {
        Tree {
            boundary,
            walked: None,
            floor: None,
            folders: RefCell::default(),
        }
    }

    /// The tree, for a file in `folder`, which the walk found inside the boundary under
    /// `root` (as spelled, when known) without following a link.
    pub(crate) fn walked(boundary: &'b Boundary, root: Option<&Path>, folder: &Path) -> Self {
        Tree {
            walked: Some(folder.to_owned()),
            floor: root.map(Path::to_owned),
            ..Tree::new(boundary)
        }
    }

    /// What is already known of the folder `dir`: the walked folder, or one asked about.
    fn known(&self, dir: &Path) -> Option<Result<PathBuf, Lookup>> {
        if self.walked.as_deref() == Some(dir) {
            return Some(Ok(dir.to_owned()));
        }
        self.folders.borrow().get(dir).cloned()
    }

    /// A path to the folder `dir` known to stay inside the boundary, when it is there.
    fn folder(&self, dir: &Path) -> Result<PathBuf, Lookup> {
        // No file system opens a path this long (`PATH_MAX` is 4,096 bytes on Linux, less
        // elsewhere): one the text gives is missing, and each of its thousands of ancestors is
        // neither hashed nor copied.
        if dir.as_os_str().len() > LONGEST_PATH {
            return Err(Lookup::Missing);
        }
        if let Some(known) = self.known(dir) {
            return known;
        }
        // Below the walked folder by names alone, after climbing from it by `..` while the
        // walk came down through real folders: a look at each name on the way, in a loop, as
        // a path the text gives may have thousands of names. The first name that is not
        // there answers for the rest, and for any later path below it.
        let from_walked = self.walked.as_deref().and_then(|walked| {
            let rest = dir.strip_prefix(walked).ok()?;
            let ups = (rest.components())
                .take_while(|c| *c == Component::ParentDir)
                .count();
            let names = rest.components().skip(ups);
            if ups > self.depth_below_floor(walked) || !names.clone().all(is_name) {
                return None;
            }
            Some((walked, ups, names))
        });
        let Some((walked, ups, names)) = from_walked else {
            let found = self.resolved(dir);
            self.folders
                .borrow_mut()
                .insert(dir.to_owned(), found.clone());
            return found;
        };
        let mut at = walked.to_owned();
        at.extend(std::iter::repeat_n("..", ups));
        let mut found = walked
            .ancestors()
            .nth(ups)
            .map(Path::to_owned)
            .ok_or(Lookup::Missing);
        for name in names.map(Component::as_os_str) {
            at.push(name);
            found = match self.known(&at) {
                Some(known) => known,
                None => {
                    let looked = found.and_then(|up| self.entry(&up.join(name)));
                    self.folders.borrow_mut().insert(at.clone(), looked.clone());
                    looked
                }
            };
            if found.is_err() {
                break;
            }
        }
        found
    }

    /// How many folders the walk came down through, from its root to `walked`: each is a real
    /// folder, so `..` from it is its parent by name. Above the root, its own spelling may
    /// climb or pass through links.
    fn depth_below_floor(&self, walked: &Path) -> usize {
        (self.floor.as_deref())
            .and_then(|floor| walked.strip_prefix(floor).ok())
            .map_or(0, |below| below.components().count())
    }

    /// What the name `at` is, in a folder known to stay inside: itself when it is a folder,
    /// where it leads when it is a link to one inside.
    fn entry(&self, at: &Path) -> Result<PathBuf, Lookup> {
        match std::fs::symlink_metadata(at) {
            Ok(m) if m.file_type().is_symlink() => self.resolved(at),
            Ok(m) if m.is_dir() => Ok(at.to_owned()),
            _ => Err(Lookup::Missing),
        }
    }

    /// The real path of the folder `dir`, its links and `..` resolved by the file system,
    /// when it is there and inside.
    fn resolved(&self, dir: &Path) -> Result<PathBuf, Lookup> {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        match self.boundary.resolve(dir) {
            Ok(real) if real.is_dir() => Ok(real),
            Err(Refusal::Outside) => Err(Lookup::Outside),
            Ok(_) | Err(_) => Err(Lookup::Missing),
        }
    }
}

fn is_name(c: Component<'_>) -> bool {
    matches!(c, Component::Normal(_))
}

/// The longest path a file system opens, in bytes (Linux's `PATH_MAX`).
const LONGEST_PATH: usize = 4096;

impl Files for Tree<'_> {
    fn lookup(&self, path: &Path) -> Lookup {
        // A path ending in `..` names a folder.
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
            return self.folder(path).map_or_else(|l| l, |_| Lookup::Folder);
        };
        let at = match self.folder(dir) {
            Ok(real) => real.join(name),
            Err(l) => return l,
        };
        match std::fs::symlink_metadata(&at) {
            Err(_) => Lookup::Missing,
            Ok(m) if m.file_type().is_symlink() => match self.boundary.resolve(&at) {
                Ok(real) if real.is_dir() => Lookup::Folder,
                Ok(_) => Lookup::File,
                Err(Refusal::Outside) => Lookup::Outside,
                // A broken link.
                Err(_) => Lookup::Missing,
            },
            Ok(m) if m.is_dir() => Lookup::Folder,
            Ok(_) => Lookup::File,
        }
    }

    fn names_in(&self, dir: &Path) -> Option<Vec<String>> {
        let entries = std::fs::read_dir(self.folder(dir).ok()?).ok()?;
        Some(
            entries
                .filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect(),
        )
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
        // A path no file system opens is missing, found without a look at its ancestors.
        let long = s.join("x/".repeat(3000)).join("a.md");
        assert_eq!(tree.lookup(&long), Lookup::Missing);
        assert!(tree.folders.borrow().len() < 10);
        // Nor are the folders below one that is missing kept, one by one.
        let deep = s.join("y/".repeat(1000)).join("a.md");
        assert_eq!(tree.lookup(&deep), Lookup::Missing);
        assert_eq!(tree.lookup(&s.join("y/y/b.md")), Lookup::Missing);
        assert!(tree.folders.borrow().len() < 10);
        assert_eq!(tree.lookup(&s.join("../../secret.md")), Lookup::Outside);
        assert_eq!(
            tree.names_in(&s.join("references")),
            Some(vec!["a.md".to_owned()])
        );
        assert_eq!(tree.names_in(&s.join("../..")), None);
    }

    #[cfg(unix)]
    #[test]
    fn links_and_climbs_are_resolved_before_a_look_and_a_root_may_climb_in_its_spelling() {
        let dir = tempfile::tempdir().expect("temp dir");
        let at = |rel: &str| dir.path().join(rel);
        std::fs::create_dir_all(at("lib/s/references/deeper")).expect("dirs");
        std::fs::create_dir_all(at("far/deep")).expect("dirs");
        for file in [
            "lib/s/references/a.md",
            "lib/s/secret.md",
            "far/deep/there.md",
        ] {
            std::fs::write(at(file), "x").expect("write");
        }
        // Links in the skill to elsewhere (a folder, a file), a broken one, one inside. A
        // climb out of `hop` goes to `far`, not back to `s`.
        for (to, link) in [
            ("far/deep", "hop"),
            ("far/deep/there.md", "there.md"),
            ("far/deep/gone.md", "broken.md"),
            ("lib/s/references", "refs"),
        ] {
            std::os::unix::fs::symlink(at(to), at("lib/s").join(link)).expect("link");
        }
        let root = at("far/../lib");
        let boundary = Boundary::new(std::slice::from_ref(&root), false);
        let s = root.join("s");
        // Asked with nothing known, and for a skill whose folder the walk found.
        for tree in [
            Tree::new(&boundary),
            Tree::walked(&boundary, None, &s),
            Tree::walked(&boundary, Some(&root), &s),
        ] {
            let look = |rel: &str| tree.lookup(&s.join(rel));
            assert_eq!(look("references/a.md"), Lookup::File);
            assert_eq!(look("references/deeper"), Lookup::Folder);
            assert_eq!(look("references/deeper/b.md"), Lookup::Missing);
            assert_eq!(look("references/../secret.md"), Lookup::File);
            assert_eq!(look("../../lib/s/secret.md"), Lookup::File);
            assert_eq!(look("../s/secret.md"), Lookup::File);
            assert_eq!(look("../s/gone.md"), Lookup::Missing);
            assert_eq!(look("../s/hop/there.md"), Lookup::Outside);
            assert_eq!(look("../../far/deep/there.md"), Lookup::Outside);
            assert_eq!(look("hop/../secret.md"), Lookup::Outside);
            // The system climbs out of no folder that is not there.
            assert_eq!(look("gone/../secret.md"), Lookup::Missing);
            assert_eq!(look("gone/b.md"), Lookup::Missing);
            assert_eq!(look("hop/there.md"), Lookup::Outside);
            assert_eq!(look("hop/gone.md"), Lookup::Outside);
            assert_eq!(look("there.md"), Lookup::Outside);
            // Broken, but to a place outside: whether it is there must not show.
            assert_eq!(look("broken.md"), Lookup::Outside);
            assert_eq!(look("refs"), Lookup::Folder);
            assert_eq!(look("refs/a.md"), Lookup::File);
            assert_eq!(look("hop/.."), Lookup::Outside);
            assert_eq!(look("references/.."), Lookup::Folder);
            assert_eq!(tree.names_in(&s.join("hop")), None);
            assert_eq!(tree.names_in(&s.join("refs")).map(|n| n.len()), Some(2));
        }
    }
}
