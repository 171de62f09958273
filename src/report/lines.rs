//! The source line each finding points at, for renderers that show it (text). The lines come
//! from the text the audit read and checked (kept only when asked for), so nothing is read
//! again: a file the audit refused has no text here either, and a skill served over MCP shows
//! the bytes the session read.

use crate::diagnostic::Finding;

/// The text of each audited file, by display path. Empty unless asked for.
pub type Texts = foldhash::HashMap<String, Vec<u8>>;

/// Fill in `source` on `findings` (sorted by path).
pub(crate) fn attach(findings: &mut [Finding], texts: &Texts) {
    let mut start = 0;
    while start < findings.len() {
        let path = findings[start].path.clone();
        let end = start
            + findings[start..]
                .iter()
                .take_while(|f| f.path == path)
                .count();
        // A file with no text keeps the plain one-line form.
        if let Some(bytes) = texts.get(path.as_str()) {
            let text = String::from_utf8_lossy(bytes);
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
