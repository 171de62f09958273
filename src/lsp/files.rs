//! The files the server reads: which documents it takes at all ([`Gate`]), their text
//! ([`Text`]), and the files a skill open in the editor refers to: the documents the editor
//! holds (which may not be saved yet) over the audited tree on disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::boundary::{Boundary, Refusal};
use crate::files::{Files, Lookup, Tree};
use crate::paths::normalize;

/// The documents the server reads, keeps or answers about: those under an audited root whose
/// real path stays inside the audit's boundary, as the audit reads files. A document elsewhere
/// (`/etc/passwd`, a link in the tree to a file outside it) is never opened: a request about it
/// is answered with nothing, and its text, when the client sends it, is not kept.
#[derive(Debug, Clone, Default)]
pub(crate) struct Gate {
    /// The roots, absolute and without `.` or `..`, as paths from the client are.
    roots: Vec<PathBuf>,
    boundary: Boundary,
}

impl Gate {
    pub(crate) fn new(roots: &[PathBuf], cwd: &Path, boundary: Boundary) -> Gate {
        Gate {
            roots: roots.iter().map(|r| normalize(&cwd.join(r))).collect(),
            boundary,
        }
    }

    /// Whether the document at `path` is the workspace's. Paths under no root are refused by
    /// their names alone, with no look at the file system.
    pub(crate) fn admits(&self, path: &Path) -> bool {
        let path = normalize(path);
        self.roots.iter().any(|r| path.starts_with(r)) && !self.boundary.leads_outside(&path)
    }

    /// The file at `path`, read at its real path through the audit's bounded reader when it is
    /// the workspace's.
    pub(crate) fn read(&self, path: &Path) -> Result<Vec<u8>, Refusal> {
        let path = normalize(path);
        if !self.roots.iter().any(|r| path.starts_with(r)) {
            return Err(Refusal::Outside);
        }
        (self.boundary.read(&path, crate::boundary::MAX_FILE_BYTES)).map(|c| c.bytes)
    }
}

/// A document's text, and where it came from.
pub(crate) struct Text {
    pub(crate) text: String,
    /// The client sent it (an open document): a byte order mark in it is a character the
    /// client counts. Otherwise it was read from the disk, and an editor takes the mark for
    /// the file's encoding.
    pub(crate) sent: bool,
}

impl Text {
    /// Positions in the text as the client counts them.
    pub(crate) fn doc(&self) -> super::convert::Doc<'_> {
        if self.sent {
            super::convert::Doc::sent(&self.text)
        } else {
            super::convert::Doc::new(&self.text)
        }
    }

    /// The text as the client has it: a file read from the disk without its byte order mark.
    pub(crate) fn as_seen(&self) -> &str {
        let bom = crate::parse::frontmatter::BOM;
        match self.sent {
            true => &self.text,
            false => self.text.strip_prefix(bom).unwrap_or(&self.text),
        }
    }
}

pub(crate) struct EditorFiles<'d> {
    pub(crate) boundary: Boundary,
    /// Open documents' text, by path.
    pub(crate) open: &'d HashMap<PathBuf, String>,
}

impl Files for EditorFiles<'_> {
    fn lookup(&self, path: &Path) -> Lookup {
        match Tree::new(&self.boundary).lookup(path) {
            Lookup::Missing if self.open.contains_key(&crate::paths::normalize(path)) => {
                Lookup::File
            }
            found => found,
        }
    }

    fn names_in(&self, dir: &Path) -> Option<Vec<String>> {
        let dir = crate::paths::normalize(dir);
        let mut names = Tree::new(&self.boundary).names_in(&dir).unwrap_or_default();
        for open in self.open.keys() {
            if open.parent() == Some(dir.as_path())
                && let Some(name) = open.file_name()
            {
                names.push(name.to_string_lossy().into_owned());
            }
        }
        names.sort();
        names.dedup();
        (!names.is_empty()).then_some(names)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn the_gate_admits_files_under_a_root_whose_real_path_stays_inside() {
        let dir = tempfile::tempdir().expect("temp dir");
        let real = std::fs::canonicalize(dir.path()).expect("canonical");
        let root = real.join("lib");
        std::fs::create_dir_all(root.join("agents")).expect("dirs");
        std::fs::create_dir_all(real.join("outside")).expect("dirs");
        std::fs::write(real.join("outside/secret.agent.md"), "secret").expect("write");
        std::fs::write(root.join("agents/a.agent.md"), "mine").expect("write");
        std::os::unix::fs::symlink(
            real.join("outside/secret.agent.md"),
            root.join("agents/evil.agent.md"),
        )
        .expect("symlink");
        let roots = [root.clone()];
        let gate = Gate::new(&roots, &real, Boundary::new(&roots, false));
        assert!(gate.admits(&root.join("agents/a.agent.md")));
        assert_eq!(
            gate.read(&root.join("agents/a.agent.md")).expect("read"),
            b"mine"
        );
        // Not saved yet: still the workspace's.
        assert!(gate.admits(&root.join("agents/new.agent.md")));
        for outside in [
            root.join("agents/evil.agent.md"),
            real.join("outside/secret.agent.md"),
            root.join("../outside/secret.agent.md"),
            PathBuf::from("/etc/passwd"),
        ] {
            assert!(!gate.admits(&outside), "{}", outside.display());
            assert!(
                matches!(gate.read(&outside), Err(Refusal::Outside)),
                "{}",
                outside.display()
            );
        }
    }

    #[test]
    fn an_open_document_counts_before_it_is_saved() {
        let dir = tempfile::tempdir().expect("temp dir");
        let skill = dir.path().join("s");
        std::fs::create_dir_all(skill.join("references")).expect("dirs");
        let mut open = HashMap::new();
        open.insert(skill.join("references/new.md"), String::new());
        let files = EditorFiles {
            boundary: Boundary::none(),
            open: &open,
        };
        assert_eq!(
            files.lookup(&skill.join("./references/new.md")),
            Lookup::File
        );
        assert_eq!(
            files.lookup(&skill.join("references/other.md")),
            Lookup::Missing
        );
        assert_eq!(
            files.names_in(&skill.join("references")),
            Some(vec!["new.md".to_owned()])
        );
    }
}
