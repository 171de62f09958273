//! The JSON report: the [`Report`] serialised as is, pretty-printed.
//!
//! The bytes are those of `serde_json::to_writer_pretty`, but the long arrays (skills, agents,
//! links, drift, findings) are rendered on all threads: each chunk of entries into its own
//! buffer, the buffers written in order. One batch of entries is rendered at a time, so the
//! report is never held whole in memory as text.
//!
//! The serialiser is our own, [`pretty`]: serde_json's bytes, written faster (tests check them
//! against `serde_json::to_writer_pretty`).

pub(crate) mod pretty;

use std::io::{self, Write};

use rayon::prelude::*;
use serde::Serialize;

use super::Report;
use pretty::{Serializer, line};

/// Entries rendered into one buffer, by one task.
const CHUNK: usize = 32;
/// Entries rendered before their buffers are written out.
const BATCH: usize = 1024;

/// A comparison of two reports (`skill-audit diff -f json`).
pub(crate) fn render_diff(d: &super::diff::Diff, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, d).map_err(io::Error::other)?;
    writeln!(out)
}

/// A comparison of two profiles (`skill-audit diff -f json` on profiles).
pub(crate) fn render_profile_diff(
    d: &super::diff::ProfileDiff,
    out: &mut dyn Write,
) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, d).map_err(io::Error::other)?;
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
        unwritable: _,
        matrix_all: _,
        fails: _,
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
        write!(self.out, "\"{key}\": ")
    }

    fn field<T: Serialize>(&mut self, key: &str, value: &T) -> io::Result<()> {
        self.key(key)?;
        let mut buffer = Vec::new();
        value
            .serialize(&mut Serializer::new(&mut buffer, 1))
            .map_err(io::Error::other)?;
        self.out.write_all(&buffer)
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
                .map(|(c, chunk)| array_entries(chunk, b == 0 && c == 0))
                .collect();
            for buffer in rendered {
                self.out.write_all(&buffer?)?;
            }
        }
        self.out.write_all(b"\n  ]")
    }
}

/// Entries of an array that is a field of the top-level object, each after its separator.
fn array_entries<T: Serialize>(entries: &[T], first: bool) -> io::Result<Vec<u8>> {
    let mut buffer = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        line(&mut buffer, 2, first && i == 0);
        entry
            .serialize(&mut Serializer::new(&mut buffer, 2))
            .map_err(io::Error::other)?;
    }
    Ok(buffer)
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

    #[test]
    fn entries_split_across_chunks_and_batches_join_up() {
        #[derive(Serialize)]
        struct Two {
            n: Vec<usize>,
            empty: Vec<usize>,
        }
        let two = Two {
            n: (0..BATCH * 2 + CHUNK + 3).collect(),
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
