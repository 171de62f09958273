//! The rule registry: every finding skill-audit can emit has an entry here with a stable ID,
//! a kebab-case name, a default severity, a one-line summary and a doc (what, why, example).
//!
//! The checks themselves live beside their docs in one file per family:
//! `file` (SA1xx, reading and frontmatter), `spec` (SA2xx, Agent Skills fields),
//! `deps` (SA3xx, `dependencies` and capability fields), `library` (SA4xx, whole-library checks
//! and availability), `agent` (SA5xx), `links` (SA6xx, manifests, links and drift), `host`
//! (SA7xx, tool names against a host's vocabulary) and `mcp` (SA8xx, skills served over MCP).

pub mod agent;
pub mod config;
pub mod deps;
pub mod file;
pub mod host;
pub mod library;
pub mod links;
pub mod mcp;
pub mod spec;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

use crate::diagnostic::Severity;

/// What a rule checks, why it matters and an example of the problem and its fix.
#[derive(Debug, Clone, Copy)]
pub struct RuleDoc {
    pub what: &'static str,
    pub why: &'static str,
    pub example: &'static str,
}

macro_rules! declare_rules {
    ($( $variant:ident = $code:literal, $name:literal, $sev:ident, $summary:literal, $doc:path; )*) => {
        /// Every rule skill-audit knows. The code (`SA201`) is the stable ID.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule { $($variant),* }

        impl Rule {
            /// All rules, in code order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            pub fn code(self) -> &'static str {
                match self { $(Rule::$variant => $code),* }
            }
            pub fn name(self) -> &'static str {
                match self { $(Rule::$variant => $name),* }
            }
            pub fn default_severity(self) -> Severity {
                match self { $(Rule::$variant => Severity::$sev),* }
            }
            pub fn summary(self) -> &'static str {
                match self { $(Rule::$variant => $summary),* }
            }
            pub fn doc(self) -> &'static RuleDoc {
                match self { $(Rule::$variant => &$doc),* }
            }
        }
    };
}

declare_rules! {
    ReadError = "SA100", "read-error", Error, "A file or folder could not be read", file::READ_ERROR;
    NotUtf8 = "SA101", "not-utf8", Error, "The file is not valid UTF-8", file::NOT_UTF8;
    MissingFrontmatter = "SA102", "missing-frontmatter", Error, "The file does not start with a `---` frontmatter line", file::MISSING_FRONTMATTER;
    UnclosedFrontmatter = "SA103", "unclosed-frontmatter", Error, "The frontmatter has no closing `---` line", file::UNCLOSED_FRONTMATTER;
    YamlSyntax = "SA104", "yaml-syntax", Error, "The frontmatter is not valid YAML", file::YAML_SYNTAX;
    FrontmatterNotMapping = "SA105", "frontmatter-not-mapping", Error, "The frontmatter is not a YAML mapping", file::NOT_MAPPING;
    DuplicateKey = "SA106", "duplicate-key", Error, "A key appears twice in one YAML mapping", file::DUPLICATE_KEY;
    YamlLimit = "SA107", "yaml-limit", Error, "The frontmatter exceeds a safety limit (size, depth, aliases)", file::YAML_LIMIT;
    SkillFileCasing = "SA108", "skill-file-casing", Warning, "The skill file is not named exactly `SKILL.md`", file::SKILL_FILE_CASING;
    Utf8Bom = "SA109", "utf8-bom", Info, "The file starts with a UTF-8 byte order mark", file::UTF8_BOM;
    OutsideTree = "SA110", "outside-tree", Error, "A link or a manifest path leads outside the audited tree", file::OUTSIDE_TREE;
    SpecialFile = "SA111", "special-file", Error, "A skill, agent or manifest name is taken by a FIFO, socket or device", file::SPECIAL_FILE;
    FileTooLarge = "SA112", "file-too-large", Error, "The file is larger than skill-audit reads (16 MiB)", file::FILE_TOO_LARGE;
    SameFile = "SA113", "same-file", Info, "The file is another path to a file audited under its first path", file::SAME_FILE;
    InternalError = "SA199", "internal-error", Error, "skill-audit failed on this file; please report it", file::INTERNAL_ERROR;

    NameMissing = "SA201", "name-missing", Error, "The skill has no `name`", spec::NAME_MISSING;
    NameType = "SA202", "name-type", Error, "`name` is not a non-empty string", spec::NAME_TYPE;
    NameTooLong = "SA203", "name-too-long", Error, "`name` is longer than 64 characters", spec::NAME_TOO_LONG;
    NameNotLowercase = "SA204", "name-not-lowercase", Error, "`name` has uppercase letters", spec::NAME_NOT_LOWERCASE;
    NameHyphens = "SA205", "name-hyphens", Error, "`name` starts or ends with `-` or has `--`", spec::NAME_HYPHENS;
    NameCharset = "SA206", "name-charset", Error, "`name` has characters outside the allowed set", spec::NAME_CHARSET;
    NameDirectoryMismatch = "SA207", "name-directory-mismatch", Error, "`name` differs from the skill's folder name", spec::NAME_DIRECTORY_MISMATCH;
    DescriptionMissing = "SA210", "description-missing", Error, "The skill has no `description`", spec::DESCRIPTION_MISSING;
    DescriptionType = "SA211", "description-type", Error, "`description` is not a non-empty string", spec::DESCRIPTION_TYPE;
    DescriptionTooLong = "SA212", "description-too-long", Error, "`description` is longer than 1024 characters", spec::DESCRIPTION_TOO_LONG;
    CompatibilityType = "SA213", "compatibility-type", Error, "`compatibility` is not a non-empty string", spec::COMPATIBILITY_TYPE;
    CompatibilityTooLong = "SA214", "compatibility-too-long", Error, "`compatibility` is longer than 500 characters", spec::COMPATIBILITY_TOO_LONG;
    MetadataType = "SA215", "metadata-type", Warning, "`metadata` is not a map of strings to strings", spec::METADATA_TYPE;
    AllowedToolsType = "SA216", "allowed-tools-type", Warning, "`allowed-tools` is not a space-separated string", spec::ALLOWED_TOOLS_TYPE;
    LicenseType = "SA217", "license-type", Warning, "`license` is not a string", spec::LICENSE_TYPE;
    HostSpecificKey = "SA220", "host-specific-key", Info, "A key some hosts support but the Agent Skills spec does not list", spec::HOST_SPECIFIC_KEY;
    UnknownKey = "SA221", "unknown-key", Warning, "A frontmatter key no host knows", spec::UNKNOWN_KEY;
    HostFieldType = "SA222", "host-field-type", Warning, "A host-specific field has the wrong type", spec::HOST_FIELD_TYPE;
    BodyTooLong = "SA230", "body-too-long", Warning, "SKILL.md is longer than 500 lines", spec::BODY_TOO_LONG;
    BrokenLink = "SA231", "broken-link", Warning, "A relative link or image in the body points at a missing file", spec::BROKEN_LINK;

    DependenciesType = "SA301", "dependencies-type", Error, "`dependencies` or one of its types has the wrong shape", deps::DEPENDENCIES_TYPE;
    DependencyEntryType = "SA302", "dependency-entry-type", Error, "A dependency entry is not a string", deps::DEPENDENCY_ENTRY_TYPE;
    DependencyUnknownGroup = "SA303", "dependency-unknown-group", Error, "A key under a dependency type is not `all` or `any`", deps::DEPENDENCY_UNKNOWN_GROUP;
    DependencyEmptyAny = "SA304", "dependency-empty-any", Warning, "An `any` group is empty", deps::DEPENDENCY_EMPTY_ANY;
    DependencyUnknownType = "SA305", "dependency-unknown-type", Warning, "A dependency type other than tools, resources or prompts", deps::DEPENDENCY_UNKNOWN_TYPE;
    CapabilityFieldType = "SA306", "capability-field-type", Error, "`tools`, `mcp-servers`, `hooks` or `model` has the wrong shape", deps::CAPABILITY_FIELD_TYPE;

    DuplicateSkillName = "SA401", "duplicate-skill-name", Warning, "Two skills in the library share a name", library::DUPLICATE_SKILL_NAME;
    Unavailable = "SA402", "unavailable", Warning, "A skill's or agent's needs are not met by a profile", library::UNAVAILABLE;

    AgentDescriptionMissing = "SA501", "agent-description-missing", Warning, "An agent has no `description`", agent::AGENT_DESCRIPTION_MISSING;
    AgentUnknownKey = "SA502", "agent-unknown-key", Warning, "An agent frontmatter key no host reads", agent::AGENT_UNKNOWN_KEY;
    AgentDeprecatedKey = "SA503", "agent-deprecated-key", Warning, "An agent uses a retired key (`infer`, `mode`)", agent::AGENT_DEPRECATED_KEY;
    AgentUnknownTarget = "SA504", "agent-unknown-target", Warning, "A handoff or sub-agent names an agent not in the library", agent::AGENT_UNKNOWN_TARGET;
    SubagentsWithoutAgentTool = "SA505", "subagents-without-agent-tool", Warning, "`agents:` is set but `tools` lacks `agent`", agent::SUBAGENTS_WITHOUT_AGENT_TOOL;
    AgentBodyTooLong = "SA506", "agent-body-too-long", Warning, "An agent's prompt is over 30,000 characters", agent::AGENT_BODY_TOO_LONG;
    AgentFileName = "SA507", "agent-file-name", Warning, "An agent file name has characters outside `[A-Za-z0-9._-]`", agent::AGENT_FILE_NAME;
    ChatModeRenamed = "SA508", "chat-mode-renamed", Warning, "A legacy `.chatmode.md` file: chat modes are now agents", agent::CHAT_MODE_RENAMED;
    AgentHostSpecificKey = "SA509", "agent-host-specific-key", Info, "An agent key only some hosts read", agent::AGENT_HOST_SPECIFIC_KEY;

    ManifestInvalid = "SA601", "manifest-invalid", Warning, "A plugin or marketplace manifest is not valid JSON", links::MANIFEST_INVALID;
    ManifestPathMissing = "SA602", "manifest-path-missing", Warning, "A manifest lists an agent or skill path that resolves to nothing", links::MANIFEST_PATH_MISSING;
    Drift = "SA603", "drift", Warning, "An agent loads a skill but does not grant the tools or servers it needs", links::DRIFT;
    ModelDrift = "SA604", "model-drift", Info, "A skill's model hint differs from the agent's model", links::MODEL_DRIFT;
    UnknownSkillReference = "SA605", "unknown-skill-reference", Warning, "An agent's `skills:` names a skill not in the library", links::UNKNOWN_SKILL_REFERENCE;

    ConfigLinkUnresolved = "SA606", "config-link-unresolved", Warning, "A `[[links]]` entry names an unknown agent or skill", config::CONFIG_LINK_UNRESOLVED;

    RenamedTool = "SA701", "renamed-tool", Warning, "An agent uses a tool name the host has renamed", host::RENAMED_TOOL;
    UnknownTool = "SA702", "unknown-tool", Warning, "An agent uses a tool name the host does not know", host::UNKNOWN_TOOL;

    McpDigestMismatch = "SA801", "mcp-digest-mismatch", Error, "A skill served over MCP does not match the digest or size the server states", mcp::MCP_DIGEST_MISMATCH;
    McpFrontmatterMismatch = "SA802", "mcp-frontmatter-mismatch", Warning, "`skills/list` gives a served skill a different name or description from its SKILL.md", mcp::MCP_FRONTMATTER_MISMATCH;

    UnusedSuppression = "SA901", "unused-suppression", Info, "A suppression comment that silences nothing", config::UNUSED_SUPPRESSION;
    UnknownSuppression = "SA902", "unknown-suppression", Warning, "A suppression comment that names no known rule", config::UNKNOWN_SUPPRESSION;
}

impl Rule {
    /// Look a rule up by code (`SA201`) or name (`name-missing`), case-insensitively.
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::ALL
            .iter()
            .copied()
            .find(|r| r.code().eq_ignore_ascii_case(id) || r.name().eq_ignore_ascii_case(id))
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        Rule::from_id(&id).ok_or_else(|| serde::de::Error::custom(format!("unknown rule `{id}`")))
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// In JSON a rule is its code: `SA` and three digits.
impl schemars::JsonSchema for Rule {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Rule".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A rule ID; `skill-audit rules` lists them.",
            "type": "string",
            "pattern": "^SA[0-9]{3}$"
        })
    }
}

/// The candidate closest to `key` when both are folded by `fold`, if it is close enough to be
/// a typo: at most two edits, and at most a third of the candidate's length (one for short
/// ones). Ties go to the candidate first in alphabetical order.
pub(crate) fn typo_of(
    key: &str,
    candidates: impl IntoIterator<Item = &'static str>,
    fold: impl Fn(&str) -> String,
) -> Option<&'static str> {
    let key = fold(key);
    let key_chars = key.chars().count();
    candidates
        .into_iter()
        .filter_map(|k| {
            let k_folded = fold(k);
            let k_chars = k_folded.chars().count();
            let limit = 2.min(k_chars / 3).max(1);
            // Each edit changes the length by at most one: most candidates are ruled out here,
            // without computing the distance.
            if key_chars.abs_diff(k_chars) > limit {
                return None;
            }
            let d = strsim::damerau_levenshtein(&key, &k_folded);
            (d <= limit).then_some((d, k))
        })
        .min()
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn typos_are_matched_within_a_few_edits() {
        let known = ["name", "description", "allowed-tools", "maxTurns"];
        let lower = |s: &str| s.to_lowercase();
        assert_eq!(typo_of("descripton", known, lower), Some("description"));
        assert_eq!(typo_of("NAME", known, lower), Some("name"));
        assert_eq!(typo_of("maxturn", known, lower), Some("maxTurns"));
        assert_eq!(typo_of("nam", known, lower), Some("name"));
        assert_eq!(
            typo_of("na", known, lower),
            None,
            "two edits on a short key"
        );
        assert_eq!(
            typo_of("allowed_tol", known, lower),
            None,
            "three edits away"
        );
        assert_eq!(typo_of("nämë", known, lower), None);
        assert_eq!(
            typo_of("namé", known, lower),
            Some("name"),
            "one edit, two bytes"
        );
    }

    #[test]
    fn codes_and_names_are_unique_and_well_formed() {
        let mut codes = HashSet::new();
        let mut names = HashSet::new();
        for r in Rule::ALL {
            assert!(codes.insert(r.code()), "duplicate code {}", r.code());
            assert!(names.insert(r.name()), "duplicate name {}", r.name());
            assert!(
                r.code().starts_with("SA") && r.code().len() == 5,
                "{}",
                r.code()
            );
            assert!(
                r.name()
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit())
            );
            let doc = r.doc();
            assert!(
                !doc.what.is_empty() && !doc.why.is_empty() && !doc.example.is_empty(),
                "{r}"
            );
        }
    }

    #[test]
    fn lookup_by_code_or_name() {
        assert_eq!(Rule::from_id("sa201"), Some(Rule::NameMissing));
        assert_eq!(Rule::from_id("name-missing"), Some(Rule::NameMissing));
        assert_eq!(Rule::from_id("SA999"), None);
    }
}
