//! SA8xx: skills served over MCP (SEP-2640). These are reported by `mcp::skills::audit` for
//! each skill a server named with `--mcp` or `--mcp-url` serves.

use super::RuleDoc;
use crate::diagnostic::Severity;

pub const MCP_DIGEST_MISMATCH: RuleDoc = RuleDoc {
    code: "SA801",
    name: "mcp-digest-mismatch",
    severity: Severity::Error,
    summary: "A skill served over MCP does not match the digest or size the server states",
    what: "A file of a skill served over MCP (its SKILL.md or any other file `skills/list` lists for it) does not have the `sha256:` digest or the size that `skills/list` states for it, or the listing states no digest for it, or one that is not `sha256:` and 64 lowercase hex digits.",
    why: "SEP-2640 makes hosts verify the digest of every file and treat a mismatch as a verification failure: the content changed between listing and reading, a cache is stale, or something in between altered it. A host will refuse the skill, and a file listed without a valid digest cannot be verified at all.",
    example: "skills/list: {\"uri\": \"skill://refunds/SKILL.md\", \"resources\": [\n  {\"uri\": \"skill://refunds/SKILL.md\", \"digest\": \"sha256:9ff4…\"},\n  {\"uri\": \"skill://refunds/references/policy.md\", \"digest\": \"sha256:51c0…\"}]}\nresources/read of references/policy.md returns bytes whose SHA-256 is 3a7c…\n\nFix: recompute the digests when a file changes, or serve the listed content.",
};
pub const MCP_FRONTMATTER_MISMATCH: RuleDoc = RuleDoc {
    code: "SA802",
    name: "mcp-frontmatter-mismatch",
    severity: Severity::Warning,
    summary: "`skills/list` gives a served skill a different name or description from its SKILL.md",
    what: "The `name` or `description` that `skills/list` gives a skill differs from the frontmatter of the SKILL.md the server serves.",
    why: "Hosts compare the listed frontmatter with the file field by field; a host that shows the listing and loads the file would show one skill and run another.",
    example: "skills/list: {\"frontmatter\": {\"name\": \"refunds\"}}\nSKILL.md: name: refund-workflow\n\nFix: generate the listing from the served file.",
};

/// A URI or stated digest from the server, cut to a length a message can show.
pub(super) fn clip(s: &str) -> String {
    s.chars().take(120).collect()
}
