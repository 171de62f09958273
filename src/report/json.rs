//! The JSON report: the [`Report`] serialised as is, pretty-printed.
//!
//! The bytes are those of `serde_json::to_writer_pretty`, but the long arrays (skills, agents,
//! links, drift, findings) are rendered on all threads: each chunk of entries into its own
//! buffer by serde_json's pretty printer, indented for its depth, the buffers written in
//! order. One batch of entries is rendered at a time, so the report is never held whole in
//! memory as text.

use std::io::{self, Write};

use rayon::prelude::*;
use serde::Serialize;

use super::Report;

/// Entries rendered into one buffer, by one task.
const CHUNK: usize = 32;
/// Entries rendered before their buffers are written out.
const BATCH: usize = 1024;

/// A comparison of two reports (`skill-audit diff -f json`).
pub(crate) fn render_diff(d: &super::diff::Diff, out: &mut dyn Write) -> io::Result<()> {
    pretty(d, out)
}

/// A comparison of two profiles (`skill-audit diff -f json` on profiles).
pub(crate) fn render_profile_diff(
    d: &super::diff::ProfileDiff,
    out: &mut dyn Write,
) -> io::Result<()> {
    pretty(d, out)
}

/// `value` pretty-printed, then a line break.
pub(crate) fn pretty(value: &impl Serialize, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, value).map_err(io::Error::other)?;
    writeln!(out)
}

pub(crate) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    // Taken apart so that a new field cannot be forgotten here; written in declaration order,
    // as the derived `Serialize` writes them.
    let Report {
        schema_version,
        tool,
        roots,
        profiles,
        skills,
        agents,
        links,
        drift,
        findings,
        summary,
        baseline,
        show_unsafe_fixes: _,
    } = report;
    let mut report = Object { out, first: true };
    report.out.write_all(b"{")?;
    report.field("schema_version", schema_version)?;
    report.field("tool", tool)?;
    report.field("roots", roots)?;
    report.field("profiles", profiles)?;
    report.array("skills", skills)?;
    report.array("agents", agents)?;
    report.array("links", links)?;
    report.array("drift", drift)?;
    report.array("findings", findings)?;
    report.field("summary", summary)?;
    if let Some(baseline) = baseline {
        report.field("baseline", baseline)?;
    }
    report.out.write_all(b"\n}\n")
}

/// The top-level object, laid out as serde_json's pretty printer lays it out.
struct Object<'w> {
    out: &'w mut dyn Write,
    first: bool,
}

impl Object<'_> {
    fn key(&mut self, key: &str) -> io::Result<()> {
        let first = std::mem::take(&mut self.first);
        self.out.write_all(if first { b"\n  " } else { b",\n  " })?;
        serde_json::to_writer(&mut *self.out, key).map_err(io::Error::other)?;
        self.out.write_all(b": ")
    }

    fn field<T: Serialize>(&mut self, key: &str, value: &T) -> io::Result<()> {
        self.key(key)?;
        write_indented(&mut *self.out, value, b"  ")
    }

    /// An array whose entries are rendered in parallel, a chunk per buffer.
    fn array<T: Serialize + Sync>(&mut self, key: &str, entries: &[T]) -> io::Result<()> {
        self.key(key)?;
        if entries.is_empty() {
            return self.out.write_all(b"[]");
        }
        self.out.write_all(b"[")?;
        for (b, batch) in entries.chunks(BATCH).enumerate() {
            let rendered: Vec<io::Result<Vec<u8>>> = batch
                .par_chunks(CHUNK)
                .enumerate()
                .map(|(c, chunk)| {
                    let mut buffer = Vec::new();
                    for (i, entry) in chunk.iter().enumerate() {
                        let first = b == 0 && c == 0 && i == 0;
                        buffer.extend_from_slice(if first { b"\n    " } else { b",\n    " });
                        write_indented(&mut buffer, entry, b"    ")?;
                    }
                    Ok(buffer)
                })
                .collect();
            for buffer in rendered {
                self.out.write_all(&buffer?)?;
            }
        }
        self.out.write_all(b"\n  ]")
    }
}

/// `value` as serde_json's pretty printer writes it, its every line after the first indented
/// by `indent` (the depth it has in the whole report).
fn write_indented<T: Serialize + ?Sized>(
    out: &mut dyn Write,
    value: &T,
    indent: &[u8],
) -> io::Result<()> {
    let mut indented = Indented { out, indent };
    serde_json::to_writer_pretty(&mut indented, value).map_err(io::Error::other)
}

/// A writer that puts `indent` after every line break it passes on.
struct Indented<'w, 'i> {
    out: &'w mut dyn Write,
    indent: &'i [u8],
}

impl Write for Indented<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        let mut rest = buf;
        while let Some(n) = memchr::memchr(b'\n', rest) {
            self.out.write_all(&rest[..=n])?;
            self.out.write_all(self.indent)?;
            rest = &rest[n + 1..];
        }
        self.out.write_all(rest)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example library's report, with and without a baseline, as serde_json writes it.
    #[test]
    fn renders_what_serde_json_writes() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let profile = |name: &str| {
            crate::profile::ProfileSource::File(root.join(format!("examples/profiles/{name}.json")))
        };
        let opts = crate::AuditOptions {
            roots: vec![root.join("examples/library")],
            profiles: vec![profile("prod"), profile("staging"), profile("dev")],
            cwd: root.to_owned(),
            ..crate::AuditOptions::default()
        };
        let mut report = Report::new(crate::run(&opts).expect("audit"));
        assert!(!report.skills.is_empty() && !report.links.is_empty() && !report.drift.is_empty());
        let mut old = report.clone();
        old.findings.truncate(1);
        let baseline = crate::report::diff::diff(&old, &report);
        for baseline in [None, Some(baseline)] {
            report.baseline = baseline;
            let mut ours = Vec::new();
            render(&report, &mut ours).expect("render");
            let mut theirs = serde_json::to_vec_pretty(&report).expect("serialise");
            theirs.push(b'\n');
            assert_eq!(
                String::from_utf8_lossy(&ours),
                String::from_utf8_lossy(&theirs)
            );
        }
    }

    /// Entries split across chunks and batches join up, empty arrays and strings with line
    /// breaks (escaped, so never indented) included.
    #[test]
    fn entries_split_across_chunks_and_batches_join_up() {
        #[derive(Serialize)]
        struct Two {
            n: Vec<Vec<String>>,
            empty: Vec<usize>,
        }
        let two = Two {
            n: (0..BATCH * 2 + CHUNK + 3)
                .map(|i| vec![format!("{i}\nline")])
                .collect(),
            empty: Vec::new(),
        };
        let mut out = Vec::new();
        let mut object = Object {
            out: &mut out,
            first: true,
        };
        object.array("n", &two.n).expect("render");
        object.array("empty", &two.empty).expect("render");
        let expected = serde_json::to_string_pretty(&two).expect("serialise");
        assert_eq!(format!("{{{}\n}}", String::from_utf8_lossy(&out)), expected);
    }
}
