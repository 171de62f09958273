//! Every finding skill-audit can emit belongs to a rule, and everything about a rule is in the
//! file of its family: its [`RuleDoc`] (code, name, default severity, summary, what, why,
//! example), the checks that find it, and the constructors that make its findings and write
//! their messages. Stages outside this module find problems and call those constructors; they
//! build no message text. The families:
//! `file` (SA1xx, reading and frontmatter), `spec` (SA2xx, Agent Skills fields; `references` holds SA231-SA232, what a body refers to),
//! `deps` (SA3xx, `dependencies` and capability fields; `uses` holds SA312-SA315, what a skill uses against what it declares), `library` (SA4xx, whole-library checks
//! and availability), `agent` (SA5xx), `links` (SA6xx, manifests, links and drift), `host`
//! (SA7xx, tool names against a host's vocabulary), `mcp` (SA8xx, skills served over MCP) and
//! `config` (SA9xx, suppression comments).
//!
//! This file ties them together: the [`Rule`] type and its lookup, the registry of every rule
//! in code order, and what several families share.

pub(crate) mod agent;
pub(crate) mod config;
pub(crate) mod deps;
pub(crate) mod file;
pub(crate) mod host;
pub(crate) mod library;
pub(crate) mod links;
pub(crate) mod mcp;
pub mod policy;
pub(crate) mod references;
pub mod spec;
pub(crate) mod uses;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

use crate::diagnostic::{Applicability, Pos, Severity, Sink};

/// Everything the catalogue says about a rule: its stable code, kebab-case name, default
/// severity and one-line summary, then what it checks, why that matters and an example of the
/// problem and its fix. Each family file declares one per rule, beside its checks and messages.
#[derive(Debug, Clone, Copy)]
pub struct RuleDoc {
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    pub summary: &'static str,
    pub what: &'static str,
    pub why: &'static str,
    pub example: &'static str,
    /// The mechanical fix the rule's findings carry, when it has one.
    pub fix: Option<FixDoc>,
}

/// What a rule's fix does, and whether it keeps the file's meaning (`--fix` applies it) or
/// changes it (only `--unsafe-fixes` does).
#[derive(Debug, Clone, Copy)]
pub struct FixDoc {
    pub applicability: Applicability,
    /// In the imperative, as a rule's example would say it: "replace the old name with ...".
    pub what: &'static str,
}

/// The registry: each rule's variant and the family file's [`RuleDoc`] for it, in code order.
macro_rules! declare_rules {
    ($( $variant:ident = $family:ident :: $doc:ident; )*) => {
        /// Every rule skill-audit knows, and the library's own policy rules of a run. The code
        /// (`SA201`, `P001`) is the stable ID.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Rule {
            $($variant,)*
            /// A rule of the settings file's `[[policy]]` ([`policy`]).
            Policy(policy::PolicyRef),
        }

        impl Rule {
            /// All built-in rules, in code order.
            pub const ALL: &'static [Rule] = &[$(Rule::$variant),*];

            pub fn doc(self) -> &'static RuleDoc {
                match self {
                    $(Rule::$variant => &$family::$doc,)*
                    Rule::Policy(p) => p.doc(),
                }
            }

            /// The family module that declares the rule, for the test that codes match files.
            #[cfg(test)]
            fn family(self) -> &'static str {
                match self {
                    $(Rule::$variant => stringify!($family),)*
                    Rule::Policy(_) => "policy",
                }
            }
        }
    };
}

declare_rules! {
    ReadError = file::READ_ERROR;
    NotUtf8 = file::NOT_UTF8;
    MissingFrontmatter = file::MISSING_FRONTMATTER;
    UnclosedFrontmatter = file::UNCLOSED_FRONTMATTER;
    YamlSyntax = file::YAML_SYNTAX;
    FrontmatterNotMapping = file::NOT_MAPPING;
    DuplicateKey = file::DUPLICATE_KEY;
    YamlLimit = file::YAML_LIMIT;
    SkillFileCasing = file::SKILL_FILE_CASING;
    Utf8Bom = file::UTF8_BOM;
    OutsideTree = file::OUTSIDE_TREE;
    SpecialFile = file::SPECIAL_FILE;
    FileTooLarge = file::FILE_TOO_LARGE;
    SameFile = file::SAME_FILE;
    NestedSkill = file::NESTED_SKILL;
    InternalError = file::INTERNAL_ERROR;

    NameMissing = spec::NAME_MISSING;
    NameType = spec::NAME_TYPE;
    NameTooLong = spec::NAME_TOO_LONG;
    NameNotLowercase = spec::NAME_NOT_LOWERCASE;
    NameHyphens = spec::NAME_HYPHENS;
    NameCharset = spec::NAME_CHARSET;
    NameDirectoryMismatch = spec::NAME_DIRECTORY_MISMATCH;
    DescriptionMissing = spec::DESCRIPTION_MISSING;
    DescriptionType = spec::DESCRIPTION_TYPE;
    DescriptionTooLong = spec::DESCRIPTION_TOO_LONG;
    CompatibilityType = spec::COMPATIBILITY_TYPE;
    CompatibilityTooLong = spec::COMPATIBILITY_TOO_LONG;
    MetadataType = spec::METADATA_TYPE;
    AllowedToolsType = spec::ALLOWED_TOOLS_TYPE;
    LicenseType = spec::LICENSE_TYPE;
    HostSpecificKey = spec::HOST_SPECIFIC_KEY;
    UnknownKey = spec::UNKNOWN_KEY;
    HostFieldType = spec::HOST_FIELD_TYPE;
    HostMetadataBlock = spec::HOST_METADATA_BLOCK;
    AllowedToolsCommas = spec::ALLOWED_TOOLS_COMMAS;
    BodyTooLong = spec::BODY_TOO_LONG;
    BrokenLink = references::BROKEN_LINK;
    BrokenReference = references::BROKEN_REFERENCE;

    DependenciesType = deps::DEPENDENCIES_TYPE;
    DependencyEntryType = deps::DEPENDENCY_ENTRY_TYPE;
    DependencyUnknownGroup = deps::DEPENDENCY_UNKNOWN_GROUP;
    DependencyEmptyAny = deps::DEPENDENCY_EMPTY_ANY;
    DependencyUnknownType = deps::DEPENDENCY_UNKNOWN_TYPE;
    CapabilityFieldType = deps::CAPABILITY_FIELD_TYPE;
    PackageList = deps::PACKAGE_LIST;
    NotToolNames = deps::NOT_TOOL_NAMES;
    DialectShape = deps::DIALECT_SHAPE;
    SidecarUnreadable = deps::SIDECAR_UNREADABLE;
    OnlyInDialect = deps::ONLY_IN_DIALECT;
    UndeclaredUse = uses::UNDECLARED_USE;
    UsesNotDeclared = uses::USES_NOT_DECLARED;
    DeclaredNotUsed = uses::DECLARED_NOT_USED;
    ScriptNotRead = uses::SCRIPT_NOT_READ;
    HooksFileMissing = deps::HOOKS_FILE_MISSING;
    HooksInvalid = deps::HOOKS_INVALID;
    UnknownHookEvent = deps::UNKNOWN_HOOK_EVENT;
    HookEventHostSpecific = deps::HOOK_EVENT_HOST_SPECIFIC;
    HookScriptMissing = deps::HOOK_SCRIPT_MISSING;
    ModelListInString = deps::MODEL_LIST_IN_STRING;
    UndefinedSkillTool = deps::UNDEFINED_SKILL_TOOL;

    DuplicateSkillName = library::DUPLICATE_SKILL_NAME;
    Unavailable = library::UNAVAILABLE;
    PartialAgent = library::PARTIAL_AGENT;
    ShadowsBundledSkill = library::SHADOWS_BUNDLED_SKILL;

    AgentDescriptionMissing = agent::AGENT_DESCRIPTION_MISSING;
    AgentUnknownKey = agent::AGENT_UNKNOWN_KEY;
    AgentDeprecatedKey = agent::AGENT_DEPRECATED_KEY;
    AgentUnknownTarget = agent::AGENT_UNKNOWN_TARGET;
    SubagentsWithoutAgentTool = agent::SUBAGENTS_WITHOUT_AGENT_TOOL;
    AgentBodyTooLong = agent::AGENT_BODY_TOO_LONG;
    AgentFileName = agent::AGENT_FILE_NAME;
    ChatModeRenamed = agent::CHAT_MODE_RENAMED;
    AgentHostSpecificKey = agent::AGENT_HOST_SPECIFIC_KEY;

    ManifestInvalid = links::MANIFEST_INVALID;
    ManifestPathMissing = links::MANIFEST_PATH_MISSING;
    Drift = links::DRIFT;
    ModelDrift = links::MODEL_DRIFT;
    UnknownSkillReference = links::UNKNOWN_SKILL_REFERENCE;
    ConfigLinkUnresolved = links::CONFIG_LINK_UNRESOLVED;
    MarketplaceRemoteSource = links::MARKETPLACE_REMOTE_SOURCE;

    RenamedTool = host::RENAMED_TOOL;
    UnknownTool = host::UNKNOWN_TOOL;
    UnknownModel = host::UNKNOWN_MODEL;

    McpDigestMismatch = mcp::MCP_DIGEST_MISMATCH;
    McpFrontmatterMismatch = mcp::MCP_FRONTMATTER_MISMATCH;

    UnusedSuppression = config::UNUSED_SUPPRESSION;
    UnknownSuppression = config::UNKNOWN_SUPPRESSION;
}

impl Rule {
    pub fn code(self) -> &'static str {
        self.doc().code
    }
    pub fn name(self) -> &'static str {
        self.doc().name
    }
    pub fn default_severity(self) -> Severity {
        self.doc().severity
    }
    pub fn summary(self) -> &'static str {
        self.doc().summary
    }
    /// The rule's section anchor in `docs/rules.md` (`sa221-unknown-key`).
    pub fn anchor(self) -> String {
        format!("{}-{}", self.code(), self.name()).to_ascii_lowercase()
    }

    /// Is it one of skill-audit's own rules, documented in docs/rules.md?
    pub fn is_builtin(self) -> bool {
        !matches!(self, Rule::Policy(_))
    }

    /// Look a built-in rule up by code (`SA201`) or name (`name-missing`), case-insensitively.
    pub fn from_id(id: &str) -> Option<Rule> {
        Rule::from_id_in(id, &[])
    }

    /// Look a rule up by code or name among the built-in rules and `policies`, the policy
    /// rules of a run.
    pub fn from_id_in(id: &str, policies: &[Rule]) -> Option<Rule> {
        Rule::ALL
            .iter()
            .chain(policies)
            .copied()
            .find(|r| r.code().eq_ignore_ascii_case(id) || r.name().eq_ignore_ascii_case(id))
    }

    /// What a selector may be, for the error when one names no rule.
    pub(crate) const SELECTOR_FORMS: &str = "use `ALL`, a rule ID such as `SA221` or a policy rule's `P001`, a prefix such as `SA2` or `P`, or a name such as `unknown-key` (`skill-audit rules` lists them)";

    /// What to say of `selector`, which names no rule among the built-in ones and `policies`.
    pub(crate) fn no_rule_hint(selector: &str, policies: &[Rule]) -> &'static str {
        if policy::is_policy_selector(selector) && policies.is_empty() {
            "the library has no policy rules (`[[policy]]` in skill-audit.toml, docs/policy.md)"
        } else {
            Rule::SELECTOR_FORMS
        }
    }

    /// The built-in rules a selector names; see [`Rule::selected_in`].
    pub fn selected(selector: &str) -> Option<Vec<Rule>> {
        Rule::selected_in(selector, &[])
    }

    /// The rules a selector names, as `--select` and `--ignore` take them, among the built-in
    /// rules and `policies`: `ALL`, a code (`SA201`, `P001`), a code's prefix (`SA2`, `SA23`,
    /// `P`, `P0`) or a name (`drift`), case-insensitively. `None` when it names no rule.
    pub fn selected_in(selector: &str, policies: &[Rule]) -> Option<Vec<Rule>> {
        if selector.eq_ignore_ascii_case("ALL") {
            return Some(Rule::ALL.iter().chain(policies).copied().collect());
        }
        if let Some(rule) = Rule::from_id_in(selector, policies) {
            return Some(vec![rule]);
        }
        // `SA` then digits, or `P` then digits (`P` alone names every policy rule).
        let starts = |p: &str| {
            selector
                .get(..p.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(p))
        };
        let (letters, min_len) = if starts("SA") {
            (2, 3)
        } else if starts(policy::PREFIX) {
            (1, 1)
        } else {
            return None;
        };
        let digits = selector.get(letters..).unwrap_or_default();
        if selector.len() < min_len || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rules: Vec<Rule> = Rule::ALL
            .iter()
            .chain(policies)
            .copied()
            .filter(|r| {
                (letters == 2) == r.is_builtin()
                    && r.code()
                        .get(letters..)
                        .is_some_and(|d| d.starts_with(digits))
            })
            .collect();
        (!rules.is_empty()).then_some(rules)
    }
}

/// How a list of names (`tools`, `allowed-tools`, `paths`, ...) is written wrong. The field
/// readers shared by skills and agents find it and hand it to the reporting function of the
/// field's rule (SA216, SA222 or SA306); the three rules word it the same way, here.
#[derive(Clone, Copy, Debug)]
pub(crate) enum NameShape {
    /// An entry of the list is not a non-empty string; `found` is its kind.
    Entry { found: &'static str },
    /// The value is neither a list nor a string; `found` is its kind.
    List { found: &'static str },
    /// A key of a mapping of names (`mcp-servers`) is not a scalar.
    Key,
}

impl NameShape {
    fn message(self, field: &str) -> String {
        match self {
            NameShape::Entry { found } => {
                format!("`{field}` entries must be non-empty strings, found {found}")
            }
            NameShape::List { found } => format!(
                "`{field}` must be a list of names or a comma-separated string, found {found}"
            ),
            NameShape::Key => format!("`{field}` keys must be server names"),
        }
    }
}

/// The reporting function a field reader calls for a wrongly shaped list of names: the sink,
/// the position, the field's name and what is wrong.
pub(crate) type ShapeReport = fn(&mut Sink, Pos, &str, NameShape);

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl<'de> Deserialize<'de> for Rule {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let id = String::deserialize(d)?;
        // A policy rule's ID keeps its place in a saved report (a baseline), whether or not
        // this run declares it: findings are matched by ID.
        Rule::from_id(&id)
            .or_else(|| policy::is_policy_id(&id).then(|| policy::known_only_by_id(&id)))
            .ok_or_else(|| {
                serde::de::Error::custom(format!("unknown rule {}", crate::diagnostic::quote(&id)))
            })
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
            "description": "A rule ID: a built-in rule's (`SA` and three digits; `skill-audit rules` lists them) or a policy rule's of skill-audit.toml (`P` and three digits).",
            "type": "string",
            "pattern": "^(SA|P)[0-9]{3}$"
        })
    }
}

/// Does finding `f` judge an entry on `profile`? The rules that judge per profile (SA402,
/// SA403 in `library.rs`, SA701, SA702 in `host.rs`) say which in `Finding::profile`, and name
/// it in their message as ``profile `prod` ``: a comparison of reports leaves out what only a
/// dropped profile judged.
pub(crate) fn about_profile(f: &crate::diagnostic::Finding, profile: &str) -> bool {
    if let Some(p) = &f.profile {
        return p == profile;
    }
    // Reports written before findings named their profile: the message does.
    match f.rule {
        Rule::Unavailable | Rule::PartialAgent | Rule::RenamedTool | Rule::UnknownTool => f
            .message
            .contains(&format!("profile {}", crate::diagnostic::quote(profile))),
        _ => false,
    }
}

/// A rule's documentation as text, for `skill-audit rule` and the MCP server's `rule` tool.
impl Rule {
    /// What the rule's fix does, as a sentence that opens with its applicability.
    pub fn fix_text(self) -> Option<String> {
        let f = self.doc().fix?;
        let how = match f.applicability {
            crate::diagnostic::Applicability::Safe => "Safe, applied by",
            crate::diagnostic::Applicability::Unsafe => "Unsafe, applied only by",
        };
        Some(format!("{how} `{}`: {}", f.applicability.flags(), f.what))
    }

    /// The whole documentation: summary, what it checks, why, an example and the fix.
    pub fn doc_text(self) -> String {
        let d = self.doc();
        let fix = self
            .fix_text()
            .map_or_else(String::new, |f| format!("\nFix\n  {f}\n"));
        format!(
            "{} {} ({} by default)\n\n{}\n\nWhat it checks\n  {}\n\nWhy it matters\n  {}\n\nExample\n{}\n{fix}",
            self.code(),
            self.name(),
            self.default_severity(),
            self.summary(),
            d.what,
            d.why,
            d.example
                .lines()
                .map(|l| format!("  {l}"))
                .collect::<Vec<_>>()
                .join("\n")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn selectors_name_all_a_code_a_prefix_or_a_name() {
        assert_eq!(
            Rule::selected("all").map(|r| r.len()),
            Some(Rule::ALL.len())
        );
        assert_eq!(Rule::selected("sa201"), Some(vec![Rule::NameMissing]));
        assert_eq!(Rule::selected("drift"), Some(vec![Rule::Drift]));
        let sa23 = Rule::selected("SA23").unwrap();
        assert_eq!(
            sa23,
            [Rule::BodyTooLong, Rule::BrokenLink, Rule::BrokenReference]
        );
        let sa2 = Rule::selected("SA2").unwrap();
        assert!(sa2.iter().all(|r| r.code().starts_with("SA2")));
        assert_eq!(
            sa2.len(),
            Rule::ALL
                .iter()
                .filter(|r| r.code().starts_with("SA2"))
                .count()
        );
        for nothing in [
            "SA",
            "SA0",
            "SA2x",
            "S",
            "",
            "no-such-rule",
            "SA1000",
            "P",
            "P0",
        ] {
            assert_eq!(Rule::selected(nothing), None, "{nothing}");
        }
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
    fn each_rule_is_declared_in_the_file_of_its_family() {
        let families = [
            ("file", '1'),
            ("spec", '2'),
            ("references", '2'),
            ("deps", '3'),
            ("uses", '3'),
            ("library", '4'),
            ("agent", '5'),
            ("links", '6'),
            ("host", '7'),
            ("mcp", '8'),
            ("config", '9'),
        ];
        for r in Rule::ALL {
            let digit = families
                .iter()
                .find(|(f, _)| *f == r.family())
                .map(|(_, d)| *d);
            assert_eq!(
                r.code().chars().nth(2),
                digit,
                "{r} is declared in rules/{}.rs",
                r.family()
            );
        }
        // `Rule`'s order is the variants' order; it must be the codes' order too.
        assert!(Rule::ALL.windows(2).all(|w| w[0].code() < w[1].code()));
    }

    /// Findings are built only in `rules/`: a stage elsewhere that names a rule's variant, or
    /// makes a finding itself, is picking a rule and writing its message, which belong with the
    /// rule in its family file. Test code and comments may name rules.
    #[test]
    fn only_rules_build_findings() {
        let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut offences = Vec::new();
        for file in rust_files(&src) {
            let rel = file.strip_prefix(&src).unwrap_or(&file);
            // `diagnostic` defines `Finding::new` and `Sink::push`.
            if rel.starts_with("rules") || rel == std::path::Path::new("diagnostic.rs") {
                continue;
            }
            if is_test_only(&file) {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&file) else {
                continue;
            };
            // Whitespace is dropped, for `Finding::new (`; a call split over lines
            // (`Finding::new(\n    Rule::…`) is caught on both lines.
            let mut code = String::new();
            for (n, line) in non_test_lines(&text) {
                let line = line.split("//").next().unwrap_or_default();
                code.clear();
                code.extend(line.chars().filter(|c| !c.is_whitespace()));
                if names_a_rule(&code)
                    || code.contains("Finding::new(")
                    || code.contains("sink.push(")
                {
                    offences.push(format!("{}:{n}: {}", rel.display(), line.trim()));
                }
            }
        }
        assert!(
            offences.is_empty(),
            "findings built outside src/rules/; call the rule's constructor in its family file \
             instead:\n{}",
            offences.join("\n")
        );
    }

    /// `Rule::` followed by a variant's name (capitalised, then lower case: not `Rule::ALL`).
    fn names_a_rule(code: &str) -> bool {
        code.match_indices("Rule::").any(|(i, m)| {
            let name = &code.as_bytes()[i + m.len()..];
            name.len() >= 2 && name[0].is_ascii_uppercase() && name[1].is_ascii_lowercase()
        })
    }

    fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        let mut dirs = vec![dir.to_path_buf()];
        while let Some(d) = dirs.pop() {
            for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push(path);
                }
            }
        }
        out.sort();
        out
    }

    /// The lines before the file's `#[cfg(test)] mod … {` (clippy keeps test modules last),
    /// numbered from 1.
    fn non_test_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
        let lines: Vec<&str> = text.lines().collect();
        let end = lines
            .windows(2)
            .position(|w| {
                w[0].trim() == "#[cfg(test)]"
                    && w[1].trim_start().starts_with("mod ")
                    && w[1].trim_end().ends_with('{')
            })
            .unwrap_or(lines.len());
        lines
            .into_iter()
            .take(end)
            .enumerate()
            .map(|(i, l)| (i + 1, l))
    }

    /// A module its parent declares as `#[cfg(test)] mod name;`.
    fn is_test_only(file: &std::path::Path) -> bool {
        let (Some(dir), Some(stem)) = (file.parent(), file.file_stem()) else {
            return false;
        };
        let stem = stem.to_string_lossy();
        let parents = [
            dir.join("mod.rs"),
            dir.with_extension("rs"),
            dir.join("lib.rs"),
        ];
        let declaration = format!("mod {stem};");
        parents.iter().any(|p| {
            std::fs::read_to_string(p).is_ok_and(|t| {
                t.lines()
                    .collect::<Vec<_>>()
                    .windows(2)
                    .any(|w| w[0].trim() == "#[cfg(test)]" && w[1].trim().ends_with(&declaration))
            })
        })
    }

    #[test]
    fn lookup_by_code_or_name() {
        assert_eq!(Rule::from_id("sa201"), Some(Rule::NameMissing));
        assert_eq!(Rule::from_id("name-missing"), Some(Rule::NameMissing));
        assert_eq!(Rule::from_id("SA999"), None);
    }
}
