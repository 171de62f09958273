//! A file's name and its folder's name as text, as the parser and the rules show them.

use std::path::Path;

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
