//! SA8xx: skills served over MCP (SEP-2640). `mcp::skills::audit` finds these for each skill a
//! server named with `--mcp` or `--mcp-url` serves, and calls the constructors here.

use std::fmt;

use super::{Rule, RuleDoc};
use crate::diagnostic::{Pos, Severity, Sink, quote};

pub(crate) const MCP_DIGEST_MISMATCH: RuleDoc = RuleDoc {
    code: "SA801",
    name: "mcp-digest-mismatch",
    severity: Severity::Error,
    summary: "A skill served over MCP does not match the digest or size the server states",
    what: "A file of a skill served over MCP (its SKILL.md or any other file `skills/list` lists for it) does not have the `sha256:` digest or the size that `skills/list` states for it, or the listing states no digest for it, or one that is not `sha256:` and 64 lowercase hex digits.",
    why: "SEP-2640 makes hosts verify the digest of every file and treat a mismatch as a verification failure: the content changed between listing and reading, a cache is stale, or something in between altered it. A host will refuse the skill, and a file listed without a valid digest cannot be verified at all.",
    example: "skills/list: {\"uri\": \"skill://refunds/SKILL.md\", \"resources\": [\n  {\"uri\": \"skill://refunds/SKILL.md\", \"digest\": \"sha256:9ff4…\"},\n  {\"uri\": \"skill://refunds/references/policy.md\", \"digest\": \"sha256:51c0…\"}]}\nresources/read of references/policy.md returns bytes whose SHA-256 is 3a7c…\n\nFix: recompute the digests when a file changes, or serve the listed content.",
    fix: None,
};

/// The file an SA801 finding is about: the served SKILL.md, or another file `skills/list`
/// lists for the skill, by URI.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Served<'a> {
    SkillMd,
    File(&'a str),
}

impl fmt::Display for Served<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Served::SkillMd => f.write_str("this SKILL.md"),
            Served::File(uri) => f.write_str(&quote(&clip(uri))),
        }
    }
}

/// A full listing states no digest for the SKILL.md.
pub(crate) fn skill_digest_missing(sink: &mut Sink) {
    sink.push(
        Rule::McpDigestMismatch,
        Pos::START,
        "`skills/list` lists no `sha256:` digest for this SKILL.md, so it cannot be verified",
    );
}

/// The listing states a `size` for the SKILL.md, and no digest, and the bytes read differ.
pub(crate) fn skill_size_mismatch(sink: &mut Sink, size: usize, stated: u64) {
    sink.push(
        Rule::McpDigestMismatch,
        Pos::START,
        format!(
            "the SKILL.md that `resources/read` returned is {size} bytes, where `skills/list` says {stated}"
        ),
    );
}

/// A listed file of the skill, at `uri`, has no digest.
pub(crate) fn file_digest_missing(sink: &mut Sink, uri: &str) {
    sink.push(
        Rule::McpDigestMismatch,
        Pos::START,
        format!(
            "`skills/list` lists {}, a file of this skill, without a `sha256:` digest, so it cannot be verified",
            Served::File(uri)
        ),
    );
}

/// The digest stated for `file` is not `sha256:` and 64 lowercase hex digits.
pub(crate) fn digest_malformed(sink: &mut Sink, file: Served, stated: &str) {
    sink.push(
        Rule::McpDigestMismatch,
        Pos::START,
        format!(
            "`skills/list` states digest {} for {file}, which is not `sha256:` and 64 lowercase hex digits, so it cannot be verified",
            quote(&clip(stated))
        ),
    );
}

/// The bytes read for `file` have digest `actual`, not the `stated` one; `wrong_size` is
/// `(read, listed)` when the sizes differ too.
pub(crate) fn digest_mismatch(
    sink: &mut Sink,
    file: Served,
    stated: &str,
    actual: &str,
    wrong_size: Option<(u64, u64)>,
) {
    let size_note = match wrong_size {
        Some((size, listed)) => format!(" (and {size} bytes, where the listing says {listed})"),
        None => String::new(),
    };
    sink.push(
        Rule::McpDigestMismatch,
        Pos::START,
        format!(
            "`skills/list` states digest {} for {file}, but the bytes `resources/read` returned have {}{size_note}; the content changed or is not what was listed",
            quote(stated),
            quote(actual)
        ),
    );
}

/// The digest of `file` is right but `resources/read` returned `size` bytes, not `listed`.
pub(crate) fn size_mismatch(sink: &mut Sink, file: Served, size: u64, listed: u64) {
    sink.push(
        Rule::McpDigestMismatch,
        Pos::START,
        format!(
            "`skills/list` states the right digest for {file} but the wrong size: `resources/read` returned {size} bytes, where the listing says {listed}"
        ),
    );
}

pub(crate) const MCP_FRONTMATTER_MISMATCH: RuleDoc = RuleDoc {
    code: "SA802",
    name: "mcp-frontmatter-mismatch",
    severity: Severity::Warning,
    summary: "`skills/list` gives a served skill a different name or description from its SKILL.md",
    what: "The `name` or `description` that `skills/list` gives a skill differs from the frontmatter of the SKILL.md the server serves.",
    why: "Hosts compare the listed frontmatter with the file field by field; a host that shows the listing and loads the file would show one skill and run another.",
    example: "skills/list: {\"frontmatter\": {\"name\": \"refunds\"}}\nSKILL.md: name: refund-workflow\n\nFix: generate the listing from the served file.",
    fix: None,
};

/// `skills/list` names the skill `listed`; its SKILL.md, at `pos`, says `actual`.
pub(crate) fn listed_name_differs(sink: &mut Sink, pos: Pos, listed: &str, actual: &str) {
    sink.push(
        Rule::McpFrontmatterMismatch,
        pos,
        format!(
            "`skills/list` names this skill {}, but its SKILL.md says {}",
            quote(&clip(listed)),
            quote(actual)
        ),
    );
}

/// `skills/list` gives the skill another description than its SKILL.md.
pub(crate) fn listed_description_differs(sink: &mut Sink, pos: Pos) {
    sink.push(
        Rule::McpFrontmatterMismatch,
        pos,
        "`skills/list` gives this skill a different `description` from its SKILL.md",
    );
}

/// Text from the server (a URI, a stated digest, a name), cut to a length a message can show.
pub(super) fn clip(s: &str) -> String {
    s.chars().take(120).collect()
}
