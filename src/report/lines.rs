//! The source line each finding points at, for renderers that show it (text), and its
//! fingerprint, by which `diff` and `--baseline` know a finding whose line moved. The lines
//! come from the text the audit read and checked (kept only when asked for), so nothing is
//! read again: a file the audit refused has no text here either, and a skill served over MCP
//! shows the bytes the session read.

use crate::diagnostic::{Finding, fingerprint};

/// The text of each audited file, by display path. Empty unless asked for.
pub type Texts = foldhash::HashMap<String, Vec<u8>>;

/// The fingerprint of each line of each audited file, by display path: what a report needs
/// of a file's text when it shows no source line, at four bytes a line rather than the text.
/// Empty unless asked for.
pub type Prints = foldhash::HashMap<String, Vec<u32>>;

/// The fingerprint of each line of `bytes`, in order.
pub(crate) fn prints(bytes: &[u8]) -> Vec<u32> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(fingerprint)
        .collect()
}

/// Fill in `source` and `fingerprint` on `findings` (sorted by path), from `texts`, else
/// from `prints`.
pub(crate) fn attach(findings: &mut [Finding], texts: &Texts, prints: &Prints) {
    let mut start = 0;
    while start < findings.len() {
        let path = findings[start].path.clone();
        let end = start
            + findings[start..]
                .iter()
                .take_while(|f| f.path == path)
                .count();
        let index = |f: &Finding| {
            usize::try_from(f.line)
                .unwrap_or(usize::MAX)
                .saturating_sub(1)
        };
        // A file with no text keeps the plain one-line form.
        if let Some(bytes) = texts.get(path.as_str()) {
            let text = String::from_utf8_lossy(bytes);
            let lines: Vec<&str> = text.lines().collect();
            for f in &mut findings[start..end] {
                let line = lines.get(index(f));
                f.source = line.map(|l| l.trim_start_matches('\u{feff}').to_owned());
                f.fingerprint = line.map(|l| fingerprint(l));
            }
        } else if let Some(prints) = prints.get(path.as_str()) {
            for f in &mut findings[start..end] {
                f.fingerprint = prints.get(index(f)).copied();
            }
        }
        start = end;
    }
}
