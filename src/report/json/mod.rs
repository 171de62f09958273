//! The JSON report: the [`Report`] serialised as is, pretty-printed.
//!
//! The bytes are those of `serde_json::to_writer_pretty`, but the long arrays (skills, agents,
//! links, drift, findings) are rendered on all threads: each chunk of entries into its own
//! buffer, the buffers written in order. One batch of entries is rendered at a time, so the
//! report is never held whole in memory as text.
//!
//! The serialiser is serde_json's, with its own formatter for the pretty layout (tests check
//! the bytes against `serde_json::to_writer_pretty`).

use std::io::{self, Write};

use rayon::prelude::*;
use serde::Serialize;
use serde_json::Serializer;
use serde_json::ser::Formatter;

use super::Report;

/// Entries rendered into one buffer, by one task.
const CHUNK: usize = 32;
/// Entries rendered before their buffers are written out.
const BATCH: usize = 1024;
/// Starting size of a chunk's buffer: most chunks fit, so few are copied while growing.
const CHUNK_BYTES: usize = 64 * 1024;

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
        nested(1).line(self.out, std::mem::take(&mut self.first))?;
        write!(self.out, "\"{key}\": ")
    }

    fn field<T: Serialize>(&mut self, key: &str, value: &T) -> io::Result<()> {
        self.key(key)?;
        let mut buffer = Vec::new();
        value
            .serialize(&mut Serializer::with_formatter(&mut buffer, nested(1)))
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
        nested(1).line(self.out, true)?;
        self.out.write_all(b"]")
    }
}

/// Entries of an array that is a field of the top-level object, each after its separator.
fn array_entries<T: Serialize>(entries: &[T], first: bool) -> io::Result<Vec<u8>> {
    let mut buffer = Vec::with_capacity(CHUNK_BYTES);
    for (i, entry) in entries.iter().enumerate() {
        nested(2).line(&mut buffer, first && i == 0)?;
        entry
            .serialize(&mut Serializer::with_formatter(&mut buffer, nested(2)))
            .map_err(io::Error::other)?;
    }
    Ok(buffer)
}

/// The pretty formatter for a value `depth` levels deep.
fn nested(depth: usize) -> Pretty {
    Pretty {
        depth,
        has_value: false,
    }
}

/// A separator and a line break followed by the deepest indentation written in one piece.
const LINE: [u8; 2 + 2 * 32] = {
    let mut line = [b' '; 2 + 2 * 32];
    line[0] = b',';
    line[1] = b'\n';
    line
};

/// serde_json's pretty layout (two spaces a level). serde_json's own pretty formatter writes the
/// indentation a level at a time, a call each; this writes a line break and its indentation
/// (and the comma before it) as one slice.
#[derive(Clone)]
struct Pretty {
    depth: usize,
    has_value: bool,
}

impl Pretty {
    /// A line break at the current depth, after a comma unless `first`.
    fn line<W: ?Sized + Write>(&self, out: &mut W, first: bool) -> io::Result<()> {
        let start = usize::from(first);
        match LINE.get(start..2 + 2 * self.depth) {
            Some(line) => out.write_all(line),
            None => {
                out.write_all(&LINE[start..2])?;
                (0..self.depth).try_for_each(|_| out.write_all(b"  "))
            }
        }
    }

    fn open<W: ?Sized + Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        out.write_all(bracket)
    }

    fn close<W: ?Sized + Write>(&mut self, out: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.line(out, true)?;
        }
        out.write_all(bracket)
    }
}

impl Formatter for Pretty {
    fn begin_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"[")
    }

    fn end_array<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"]")
    }

    fn begin_array_value<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.line(out, first)
    }

    fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.open(out, b"{")
    }

    fn end_object<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        self.close(out, b"}")
    }

    fn begin_object_key<W: ?Sized + Write>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.line(out, first)
    }

    fn begin_object_value<W: ?Sized + Write>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
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

    #[test]
    fn nested_values_are_indented_as_in_the_whole() {
        let value = serde_json::json!([{"a": [1, {"b": []}], "c": {}}]);
        let mut nested_bytes = Vec::new();
        value[0]
            .serialize(&mut Serializer::with_formatter(
                &mut nested_bytes,
                nested(1),
            ))
            .expect("serialise");
        let whole = serde_json::to_string_pretty(&value).expect("serialise");
        let nested_text = String::from_utf8(nested_bytes).expect("utf-8");
        assert_eq!(whole, format!("[\n  {nested_text}\n]"));
    }

    /// Indentation deeper than the prepared line is written a level at a time, alike.
    #[test]
    fn deep_values_are_indented_as_serde_json_does() {
        let mut value = serde_json::json!({"leaf": [1, 2]});
        for depth in 0..40 {
            value = if depth % 2 == 0 {
                serde_json::json!([value, {}])
            } else {
                serde_json::json!({"k": value, "e": []})
            };
        }
        let mut ours = Vec::new();
        value
            .serialize(&mut Serializer::with_formatter(&mut ours, nested(0)))
            .expect("serialise");
        let theirs = serde_json::to_vec_pretty(&value).expect("serialise");
        assert!(ours == theirs, "{}", String::from_utf8_lossy(&ours));
    }

    proptest::proptest! {
        /// Any text, and maps, lists and empty ones nested in each other, come out as
        /// serde_json writes them.
        #[test]
        fn values_are_written_as_serde_json_writes_them(
            text in proptest::collection::vec(proptest::char::any(), 0..40),
            nested in proptest::collection::vec(
                proptest::collection::btree_map(
                    "[a-z\"\\\\\u{0}-\u{1f}\u{7f}\u{e9}\u{2028}]{0,6}",
                    proptest::collection::vec("\\PC{0,8}", 0..3),
                    0..3,
                ),
                0..3,
            ),
        ) {
            let text: String = text.into_iter().collect();
            let ours = |v: &dyn erased::Value, depth| {
                let mut out = Vec::new();
                v.write(&mut out, depth);
                String::from_utf8(out).expect("utf-8")
            };
            proptest::prop_assert_eq!(ours(&text, 0), serde_json::to_string_pretty(&text).expect("json"));
            proptest::prop_assert_eq!(ours(&nested, 0), serde_json::to_string_pretty(&nested).expect("json"));
        }
    }

    /// Writing through [`nested`] without a generic closure per type.
    mod erased {
        pub(crate) trait Value {
            fn write(&self, out: &mut Vec<u8>, depth: usize);
        }

        impl<T: serde::Serialize> Value for T {
            fn write(&self, out: &mut Vec<u8>, depth: usize) {
                self.serialize(&mut super::Serializer::with_formatter(
                    out,
                    super::nested(depth),
                ))
                .expect("serialise");
            }
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
