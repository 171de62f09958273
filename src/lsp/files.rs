//! The files a skill open in the editor refers to: the documents the editor holds (which may
//! not be saved yet) over the audited tree on disk.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::boundary::Boundary;
use crate::files::{Files, Lookup, Tree};

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
