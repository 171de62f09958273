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

/// The fingerprint of each line of `bytes`, in order. Every line of every audited file is
/// hashed, so ASCII lines, nearly all of them, are hashed straight from their bytes; the
/// others go through [`fingerprint`], which gives ASCII lines the same value.
pub(crate) fn prints(bytes: &[u8]) -> Vec<u32> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let (line, next) = match memchr::memchr(b'\n', rest) {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => (rest, &rest[rest.len()..]),
        };
        out.push(if line.is_ascii() {
            ascii_fingerprint(line)
        } else {
            fingerprint(&String::from_utf8_lossy(line))
        });
        rest = next;
    }
    out
}

/// [`fingerprint`] of an ASCII line, in one pass over its bytes.
fn ascii_fingerprint(line: &[u8]) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    let mut eat = |b: u8| {
        hash ^= u32::from(b);
        hash = hash.wrapping_mul(0x0100_0193);
    };
    let (mut started, mut gap) = (false, false);
    for &b in line {
        // The ASCII characters `char::is_whitespace` takes.
        if matches!(b, b' ' | b'\t' | b'\n' | b'\x0b' | b'\x0c' | b'\r') {
            gap = started;
        } else {
            if gap {
                eat(b' ');
                gap = false;
            }
            eat(b);
            started = true;
        }
    }
    hash
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The short way gives every line the value `fingerprint` gives it, and one per line as
    /// `str::lines` splits them.
    #[test]
    fn prints_are_the_fingerprints_of_the_lines() {
        let text = "\u{feff}---\n  name: a \r\n\tx\x0by\x0c z\n\nno\u{a0}break é\nlast";
        let bytes = text.as_bytes().to_vec();
        let mut with_bad = bytes.clone();
        with_bad.extend_from_slice(b"\n\xff\xfe bad\n\xc3 x\n");
        for b in [&bytes, &with_bad] {
            let want: Vec<u32> = String::from_utf8_lossy(b)
                .lines()
                .map(fingerprint)
                .collect();
            assert_eq!(prints(b), want);
        }
        assert!(prints(b"").is_empty());
    }
}
