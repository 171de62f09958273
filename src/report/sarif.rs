//! SARIF 2.1.0 output for code-scanning tools (GitHub code scanning, Azure DevOps, IDE viewers).
//!
//! The log is written from a small hand-written model of the parts of SARIF that skill-audit
//! fills in, serialised with serde. One run; its driver lists every rule of the registry, in
//! code order, so `ruleIndex` is stable across runs; results follow the report's finding order.
//! With `--baseline`, each result carries `baselineState` (`new` or `unchanged`).

use serde::Serialize;
use std::io::{self, Write};

use super::Report;
use crate::diagnostic::{Applicability, Finding, Severity};
use crate::rules::Rule;

/// Where the `$schema` key points.
pub(crate) const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";
/// The SARIF version written.
pub(crate) const SARIF_VERSION: &str = "2.1.0";
/// The base every relative `artifactLocation.uri` is resolved against: the directory
/// skill-audit ran in (the repository root in CI).
pub(crate) const SRCROOT: &str = "%SRCROOT%";

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<Run<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Run<'a> {
    tool: Tool<'a>,
    original_uri_base_ids: OriginalUriBaseIds,
    /// Columns count Unicode scalar values, as `Finding::column` does.
    column_kind: &'static str,
    results: Vec<SarifResult<'a>>,
}

#[derive(Serialize)]
struct OriginalUriBaseIds {
    #[serde(rename = "%SRCROOT%")]
    srcroot: BaseLocation,
}

#[derive(Serialize)]
struct BaseLocation {
    description: Message,
}

#[derive(Serialize)]
struct Tool<'a> {
    driver: Driver<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver<'a> {
    name: &'a str,
    version: &'a str,
    semantic_version: &'a str,
    rules: Vec<ReportingDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ReportingDescriptor {
    id: &'static str,
    name: &'static str,
    short_description: Message,
    full_description: Message,
    help: MultiformatMessage,
    default_configuration: ReportingConfiguration,
}

#[derive(Serialize)]
struct ReportingConfiguration {
    level: &'static str,
}

#[derive(Serialize)]
struct Message {
    text: String,
}

#[derive(Serialize)]
struct MultiformatMessage {
    text: String,
    markdown: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Message,
    locations: [Location<'a>; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    baseline_state: Option<&'static str>,
    /// The fingerprint of the finding's line and its place among the results of the same rule
    /// on lines of that fingerprint in its file (SARIF 3.27.17), by which a viewer that compares
    /// runs, as `diff` and `--baseline` do, knows a result whose line moved.
    #[serde(skip_serializing_if = "Option::is_none")]
    partial_fingerprints: Option<PartialFingerprints>,
    /// The finding's safe fix, as one change of its file (SARIF 3.55); renames have no SARIF
    /// form.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    fixes: Vec<SarifFix<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<ResultProperties>,
}

#[derive(Serialize)]
struct PartialFingerprints {
    /// The line's fingerprint (with the profile's name, for a finding that holds on one
    /// profile), as eight hex digits, then `:` and the result's occurrence (from 1) among
    /// those of its rule and file with that hash, as GitHub's own `primaryLocationLineHash`
    /// is made. Several results of one rule on one line (five renamed
    /// tools of one `tools:` list) would otherwise share it, and code scanning, which tracks an
    /// alert by rule, file and fingerprint, would merge them. v1 was the bare hash.
    #[serde(rename = "skillAuditLineHash/v2")]
    line_hash: String,
}

/// What a result says beyond SARIF's own keys.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultProperties {
    /// The description of an unsafe fix, one that changes what the file means, which is left
    /// out of `fixes`: viewers and bots apply SARIF fixes without asking, and should only be
    /// offered what `skill-audit --fix` applies without `--unsafe-fixes`.
    unsafe_fix: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFix<'a> {
    description: Message,
    artifact_changes: [ArtifactChange<'a>; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactChange<'a> {
    artifact_location: ArtifactLocation<'a>,
    replacements: Vec<Replacement>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Replacement {
    /// By bytes of the file as read: SARIF columns count UTF-16 units, the report's count
    /// characters, and bytes are what the edit is made of.
    deleted_region: ByteRegion,
    inserted_content: Message,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ByteRegion {
    byte_offset: usize,
    byte_length: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location<'a> {
    physical_location: PhysicalLocation<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation<'a> {
    artifact_location: ArtifactLocation<'a>,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation<'a> {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'a str>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u32,
    start_column: u32,
    /// The end of the span the text report underlines, on the same line; absent when the
    /// finding's line was not read.
    #[serde(skip_serializing_if = "Option::is_none")]
    end_line: Option<u32>,
    /// Just past the span, as SARIF's regions end (3.30.7), in code points.
    #[serde(skip_serializing_if = "Option::is_none")]
    end_column: Option<u32>,
}

/// The SARIF `level` of a severity.
pub(crate) fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

pub(crate) fn render(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    out.write_all(&super::json::pretty::to_vec(&log(report)).map_err(io::Error::other)?)?;
    writeln!(out)
}

fn log(report: &Report) -> Log<'_> {
    let states = baseline_states(report);
    let table = rule_table(report);
    // The n-th result of a rule on a line of a fingerprint in a file, in report order (file,
    // line, column): stable across runs and while lines are added above, as the hash is.
    let mut seen: std::collections::HashMap<(&str, &str, u32), u32> =
        std::collections::HashMap::new();
    let results = report
        .findings
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let hash = line_hash(f);
            let occurrence = hash.map(|h| {
                let n = seen.entry((f.rule.code(), f.path.as_str(), h)).or_default();
                *n += 1;
                (h, *n)
            });
            result(f, &table, states.as_ref().map(|s| s[i]), occurrence)
        })
        .collect();
    Log {
        schema: SCHEMA_URI,
        version: SARIF_VERSION,
        runs: vec![Run {
            tool: Tool {
                driver: Driver {
                    name: &report.tool.name,
                    version: &report.tool.version,
                    semantic_version: &report.tool.version,
                    rules: table.iter().map(|r| descriptor(*r)).collect(),
                },
            },
            original_uri_base_ids: OriginalUriBaseIds {
                srcroot: BaseLocation {
                    description: Message {
                        text: "The directory skill-audit ran in; relative paths start there."
                            .into(),
                    },
                },
            },
            column_kind: "unicodeCodePoints",
            results,
        }],
    }
}

fn descriptor(rule: Rule) -> ReportingDescriptor {
    let doc = rule.doc();
    let fence = fence_for(doc.example);
    ReportingDescriptor {
        id: rule.code(),
        name: rule.name(),
        short_description: Message {
            text: rule.summary().to_owned(),
        },
        full_description: Message {
            text: doc.what.to_owned(),
        },
        help: MultiformatMessage {
            text: format!(
                "{}\n\nWhy it matters: {}\n\nExample:\n{}",
                doc.what, doc.why, doc.example
            ),
            markdown: format!(
                "**{} {}**: {}\n\n## What it checks\n\n{}\n\n## Why it matters\n\n{}\n\n## Example\n\n{fence}text\n{}\n{fence}\n",
                rule.code(),
                rule.name(),
                rule.summary(),
                doc.what,
                doc.why,
                doc.example
            ),
        },
        default_configuration: ReportingConfiguration {
            level: level(rule.default_severity()),
        },
    }
}

/// A code fence longer than any run of backticks in `text`.
fn fence_for(text: &str) -> String {
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    "`".repeat(longest.max(2) + 1)
}

/// The hash a result's partial fingerprint opens with: the finding's fingerprint, and for a
/// finding that holds on one profile, that profile's name too. The same line holds the finding
/// once per profile (a skill unavailable on `prod` and on `staging`), and numbering them in
/// report order would hand one profile's number to another's when a profile is dropped.
fn line_hash(f: &Finding) -> Option<u32> {
    let h = f.fingerprint?;
    Some(match &f.profile {
        // FNV-1a, as the fingerprint is, carried on over a separator and the name.
        Some(p) => std::iter::once(0)
            .chain(p.bytes())
            .fold(h, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193)),
        None => h,
    })
}

/// `occurrence`: the result's [`line_hash`] and its number (from 1) among the results of its
/// rule and file with that hash.
fn result(
    f: &Finding,
    table: &[Rule],
    baseline_state: Option<&'static str>,
    occurrence: Option<(u32, u32)>,
) -> SarifResult<'static> {
    let (uri, uri_base_id) = artifact_uri(&f.path);
    let unsafe_fix = f
        .fix
        .as_deref()
        .filter(|x| x.applicability != Applicability::Safe);
    let fixes = f
        .fix
        .as_deref()
        .filter(|x| !x.edits.is_empty() && x.applicability == Applicability::Safe)
        .map(|x| SarifFix {
            description: Message {
                text: x.message.clone(),
            },
            artifact_changes: [ArtifactChange {
                artifact_location: ArtifactLocation {
                    uri: uri.clone(),
                    uri_base_id,
                },
                replacements: x
                    .edits
                    .iter()
                    .map(|e| Replacement {
                        deleted_region: ByteRegion {
                            byte_offset: e.start,
                            byte_length: e.end.saturating_sub(e.start),
                        },
                        inserted_content: Message {
                            text: e.content.clone(),
                        },
                    })
                    .collect(),
            }],
        })
        .into_iter()
        .collect();
    let end_column = super::text::caret_end(f);
    SarifResult {
        fixes,
        properties: unsafe_fix.map(|x| ResultProperties {
            unsafe_fix: x.message.clone(),
        }),
        rule_id: f.rule.code(),
        rule_index: table.iter().position(|r| *r == f.rule).unwrap_or(0),
        level: level(f.severity),
        message: Message {
            text: f.message.clone(),
        },
        locations: [Location {
            physical_location: PhysicalLocation {
                artifact_location: ArtifactLocation { uri, uri_base_id },
                region: Region {
                    start_line: f.line.max(1),
                    start_column: f.column.max(1),
                    end_line: end_column.map(|_| f.line.max(1)),
                    end_column,
                },
            },
        }],
        baseline_state,
        partial_fingerprints: occurrence.map(|(h, n)| PartialFingerprints {
            line_hash: format!("{h:08x}:{n}"),
        }),
    }
}

/// `tool.driver.rules`: every built-in rule in code order, then the policy rules of the
/// library's settings file that have findings, in code order. A result's `ruleIndex` is its
/// rule's place here.
fn rule_table(report: &Report) -> Vec<Rule> {
    let mut policies: Vec<Rule> = report
        .findings
        .iter()
        .map(|f| f.rule)
        .filter(|r| !r.is_builtin())
        .collect();
    policies.sort();
    policies.dedup();
    Rule::ALL.iter().copied().chain(policies).collect()
}

/// With a baseline, `new` for the findings the baseline lacks and `unchanged` for the rest,
/// matched the way `diff` matches them (rule, path, message; duplicates counted).
fn baseline_states(report: &Report) -> Option<Vec<&'static str>> {
    let diff = report.baseline.as_ref()?;
    Some(
        super::diff::new_marks(report, diff)
            .into_iter()
            .map(|new| if new { "new" } else { "unchanged" })
            .collect(),
    )
}

/// The `artifactLocation` of a display path: a relative URI reference against `%SRCROOT%` for
/// a relative path, a `file:` URI for an absolute one. Characters outside the unreserved set
/// are percent-encoded, so the result is a valid URI whatever the file name holds.
pub(crate) fn artifact_uri(path: &str) -> (String, Option<&'static str>) {
    let bytes = path.as_bytes();
    let drive = bytes.len() >= 2
        && bytes[0].is_ascii_alphabetic()
        && bytes[1] == b':'
        && (bytes.len() == 2 || bytes[2] == b'/');
    if drive {
        // `C:/x/SKILL.md` -> `file:///C:/x/SKILL.md`
        return (
            format!("file:///{}:{}", &path[..1], encode(&path[2..])),
            None,
        );
    }
    if let Some(rest) = path.strip_prefix("//") {
        // A UNC path `//server/share/x` -> `file://server/share/x`
        return (format!("file://{}", encode(rest)), None);
    }
    if path.starts_with('/') {
        return (format!("file://{}", encode(path)), None);
    }
    (encode(path), Some(SRCROOT))
}

/// Percent-encode every byte but the unreserved characters and `/`.
fn encode(path: &str) -> String {
    crate::paths::percent_encode(path, b"/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        assert_eq!(
            artifact_uri("skills/a b/SKILL.md"),
            ("skills/a%20b/SKILL.md".into(), Some(SRCROOT))
        );
        assert_eq!(
            artifact_uri("a:b/#x?%/é.md"),
            ("a%3Ab/%23x%3F%25/%C3%A9.md".into(), Some(SRCROOT))
        );
        assert_eq!(artifact_uri("../x.md"), ("../x.md".into(), Some(SRCROOT)));
        assert_eq!(artifact_uri("/tmp/x.md"), ("file:///tmp/x.md".into(), None));
        assert_eq!(
            artifact_uri("C:/lib/x.md"),
            ("file:///C:/lib/x.md".into(), None)
        );
        assert_eq!(
            artifact_uri("//host/share/x.md"),
            ("file://host/share/x.md".into(), None)
        );
    }

    #[test]
    fn fences_outgrow_backticks() {
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("a ```` b"), "`````");
    }

    #[test]
    fn levels() {
        assert_eq!(level(Severity::Error), "error");
        assert_eq!(level(Severity::Warning), "warning");
        assert_eq!(level(Severity::Info), "note");
    }
}
