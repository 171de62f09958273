//! The source line each finding points at, for renderers that show it (text). Files are read
//! again, once per file with findings, from where the audit read them and through the same
//! bounded reader, so a file the audit refused is not read here either; skills served over MCP
//! come from the bytes the session read.

use std::path::PathBuf;

use crate::diagnostic::Finding;
use crate::source::{self, MAX_FILE_BYTES};

/// Where the text of each audited file can be had again. Empty unless asked for.
#[derive(Debug, Clone, Default)]
pub struct Sources {
    /// Display path → the path the audit read it from (its real path, when reached through a
    /// link).
    pub files: foldhash::HashMap<String, PathBuf>,
    /// URI → the bytes of a skill served over MCP.
    pub served: foldhash::HashMap<String, Vec<u8>>,
}

impl Sources {
    pub(crate) fn is_empty(&self) -> bool {
        self.files.is_empty() && self.served.is_empty()
    }
}

/// Fill in `source` on `findings` (sorted by path).
pub(crate) fn attach(findings: &mut [Finding], sources: &Sources) {
    let mut start = 0;
    while start < findings.len() {
        let path = findings[start].path.clone();
        let end = start
            + findings[start..]
                .iter()
                .take_while(|f| f.path == path)
                .count();
        // A file that cannot be read again keeps the plain one-line form.
        let text = match sources.served.get(path.as_str()) {
            Some(bytes) => Some(String::from_utf8_lossy(bytes).into_owned()),
            None => sources
                .files
                .get(path.as_str())
                .and_then(|p| source::read(p, MAX_FILE_BYTES).ok())
                .map(|c| String::from_utf8_lossy(&c.bytes).into_owned()),
        };
        if let Some(text) = text {
            let lines: Vec<&str> = text.lines().collect();
            for f in &mut findings[start..end] {
                let i = usize::try_from(f.line)
                    .unwrap_or(usize::MAX)
                    .saturating_sub(1);
                f.source = lines
                    .get(i)
                    .map(|l| l.trim_start_matches('\u{feff}').to_owned());
            }
        }
        start = end;
    }
}
