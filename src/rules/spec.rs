//! SA2xx: the Agent Skills specification's fields, plus what the reference validator misses.
//! Shape errors (a list where a string belongs) are found while parsing, which calls the
//! constructors here; the checks here are about values.

use std::borrow::Cow;

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfkc_quick};

use super::{FixDoc, NameShape, RuleDoc};
use crate::config::{NameCharset, Settings};
use crate::diagnostic::{Applicability, Fix, Pos, Severity, Sink, quote};
use crate::parse::skill::ParsedSkill;
use crate::parse::yaml::{Node, Value};
use crate::rules::Rule;
use crate::span;

pub(crate) const MAX_NAME_CHARS: usize = 64;
pub(crate) const MAX_DESCRIPTION_CHARS: usize = 1024;
pub(crate) const MAX_COMPATIBILITY_CHARS: usize = 500;
pub(crate) const MAX_SKILL_LINES: u32 = 500;

/// Keys the Agent Skills specification defines.
pub(crate) const SPEC_KEYS: &[&str] = &[
    "name",
    "description",
    "license",
    "compatibility",
    "metadata",
    "allowed-tools",
];

/// Keys of the capability proposals skill-audit is built on: known, so never flagged.
pub(crate) const CAPABILITY_KEYS: &[&str] =
    &["dependencies", "tools", "mcp-servers", "hooks", "model"];

/// Host-specific SKILL.md keys and the hosts that read them. Hermes' top-level keys are those
/// its skill loader reads (NousResearch/hermes-agent `tools/skills_tool.py`,
/// `agent/skill_utils.py`): `tags` and `related_skills` after `metadata.hermes`' own.
pub(crate) const HOST_KEYS: &[(&str, &[&str])] = &[
    ("agent", &["Claude Code"]),
    ("argument-hint", &["Claude Code", "VS Code"]),
    ("arguments", &["Claude Code"]),
    ("background", &["Claude Code"]),
    // OpenClaw's slash-command dispatch (docs.openclaw.ai/tools/skills).
    ("command-arg-mode", &["OpenClaw"]),
    ("command-dispatch", &["OpenClaw"]),
    ("command-tool", &["OpenClaw"]),
    ("context", &["Claude Code", "VS Code"]),
    ("deps", &["Hermes"]),
    (
        "disable-model-invocation",
        &["Claude Code", "VS Code", "OpenClaw"],
    ),
    ("disallowed-tools", &["Claude Code"]),
    ("effort", &["Claude Code"]),
    ("environments", &["Hermes"]),
    // Shown as the skill's website in OpenClaw's Skills UI.
    ("homepage", &["OpenClaw"]),
    ("paths", &["Claude Code"]),
    ("platforms", &["Hermes"]),
    ("prerequisites", &["Hermes"]),
    ("related_skills", &["Hermes"]),
    ("required_credential_files", &["Hermes"]),
    ("required_environment_variables", &["Hermes"]),
    ("shell", &["Claude Code"]),
    ("tags", &["Hermes"]),
    ("user-invocable", &["Claude Code", "VS Code", "OpenClaw"]),
    (
        "user-invokable",
        &["VS Code (deprecated spelling of user-invocable)"],
    ),
    // The registry's version of a published skill (ClawHub's skill format).
    ("version", &["OpenClaw (ClawHub registry)"]),
    ("when_to_use", &["Claude Code"]),
];

pub fn check(parsed: &ParsedSkill, settings: &Settings, sink: &mut Sink) {
    if let Some(root) = &parsed.root {
        check_name(parsed, root.get("name"), root.pos, settings, sink);
        check_description(root.get("description"), root.pos, sink);
        if let Some(c) = root
            .get("compatibility")
            .and_then(|n| n.as_str().map(|s| (s, n.pos)))
        {
            let len = c.0.trim().chars().count();
            if len > MAX_COMPATIBILITY_CHARS {
                compatibility_too_long(sink, c.1, len);
            }
        }
        check_keys(root, settings, sink);
    }
    if parsed.line_count > MAX_SKILL_LINES {
        body_too_long(sink, parsed.line_count);
    }
}

fn check_name(
    parsed: &ParsedSkill,
    node: Option<&crate::parse::yaml::Node>,
    map_pos: Pos,
    settings: &Settings,
    sink: &mut Sink,
) {
    let Some(node) = node else {
        name_missing(
            sink,
            map_pos,
            &crate::paths::folder_name_text(&parsed.skill.fs_path),
        );
        return;
    };
    let Some(raw) = node.as_str() else { return };
    let name = nfkc(raw.trim());
    if name.is_empty() {
        return;
    }
    let pos = node.pos;
    let len = name.chars().count();
    if len > MAX_NAME_CHARS {
        name_too_long(sink, pos, len);
    }
    let bad: Vec<char> = name
        .chars()
        .filter(|&c| {
            c != '-'
                && match settings.name_charset {
                    NameCharset::Ascii => {
                        !(c.is_ascii_lowercase() || c.is_ascii_digit() || c.is_ascii_uppercase())
                    }
                    NameCharset::Unicode => !c.is_alphanumeric(),
                }
        })
        .collect();
    let folder = crate::paths::folder_name_text(&parsed.skill.fs_path);
    let folder = nfkc(&folder);
    let upper = name != name.to_lowercase();
    let hyphen_at_end = name.starts_with('-') || name.ends_with('-');
    let double_hyphen = name.contains("--");
    // One name with several faults is one problem: it is reported once, under the first
    // fault's rule, naming them all and a name every host accepts.
    let faults = [!bad.is_empty(), upper, hyphen_at_end || double_hyphen];
    // A name with uppercase or other characters, in a folder with a valid name: the finding's
    // advice, the folder's name, also ends the mismatch, so it carries SA207's fix and SA207
    // is not reported a second time for the same edit.
    let mismatch = !folder.is_empty() && folder != name;
    let covered = mismatch && (upper || !bad.is_empty()) && valid_name(&folder);
    let fix = if covered {
        set_name_fix(sink, pos, raw, &folder)
    } else {
        None
    };
    if faults.iter().filter(|f| **f).count() > 1 {
        name_faults(sink, pos, &name, upper, &bad, &folder, fix);
    } else if upper {
        name_not_lowercase(sink, pos, &name, &folder, fix);
    } else if !bad.is_empty() {
        let hint = suggested_name(&name, &folder);
        name_charset(sink, pos, &bad, settings.name_charset, hint.as_deref(), fix);
    } else {
        if hyphen_at_end {
            name_hyphen_at_end(sink, pos);
        }
        if double_hyphen {
            name_double_hyphen(sink, pos);
        }
    }
    if mismatch && !covered {
        name_mismatch(sink, pos, &name, &folder, raw);
    }
}

/// NFKC form of `text`, borrowed when it is already normal: nearly every name is ASCII, and
/// the normaliser's char-by-char rebuild was the costliest step of the name checks.
fn nfkc(text: &str) -> Cow<'_, str> {
    if text.is_ascii() || is_nfkc_quick(text.chars()) == IsNormalized::Yes {
        Cow::Borrowed(text)
    } else {
        Cow::Owned(text.nfkc().collect())
    }
}

fn check_description(node: Option<&crate::parse::yaml::Node>, map_pos: Pos, sink: &mut Sink) {
    let Some(node) = node else {
        description_missing(sink, map_pos);
        return;
    };
    if let Some(d) = node.as_str() {
        let len = d.trim().chars().count();
        if len > MAX_DESCRIPTION_CHARS {
            description_too_long(sink, node.pos, len);
        }
    }
}

fn check_keys(root: &crate::parse::yaml::Node, settings: &Settings, sink: &mut Sink) {
    let Some(entries) = root.as_map() else { return };
    for (key, value) in entries {
        let k = key.scalar_text().unwrap_or_default();
        if SPEC_KEYS.contains(&k.as_str()) || CAPABILITY_KEYS.contains(&k.as_str()) {
            continue;
        }
        if let Some((_, hosts)) = HOST_KEYS.iter().find(|(h, _)| *h == k) {
            // With `hosts` configured, a key only other hosts read is as good as unknown.
            if hosts.iter().any(|h| settings.host_enabled(h)) {
                host_specific_key(sink, key.pos, &k, hosts);
            } else {
                unconfigured_host_key(sink, key.pos, &k, hosts);
            }
            continue;
        }
        if openclaw_block_key(&k, value) {
            misplaced_openclaw_key(sink, key.pos, &k);
            continue;
        }
        let typo = did_you_mean(&k);
        // Renaming the key onto one that is there would make a duplicate key.
        // An agent's key in a skill (`tools` is not one: it is a capability key) is another
        // format's field, not a misspelling.
        let fixable = typo.is_some_and(|t| root.get(t).is_none())
            && key.as_str().is_some()
            && !super::agent::is_agent_key(&k);
        unknown_key(sink, key.pos, &k, typo, fixable);
    }
}

/// Is `key` a key of SKILL.md: the spec's, a capability field or one a host reads?
pub(crate) fn is_skill_key(key: &str) -> bool {
    SPEC_KEYS.contains(&key)
        || CAPABILITY_KEYS.contains(&key)
        || HOST_KEYS.iter().any(|(k, _)| *k == key)
}

/// The known key closest to `key`, if it is close enough to be a typo.
pub(crate) fn did_you_mean(key: &str) -> Option<&'static str> {
    let known = SPEC_KEYS
        .iter()
        .chain(CAPABILITY_KEYS)
        .chain(HOST_KEYS.iter().map(|(k, _)| k))
        .copied();
    crate::typos::typo_of(key, known, |k| k.to_lowercase().replace('_', "-"))
}

pub(crate) const NAME_MISSING: RuleDoc = RuleDoc {
    code: "SA201",
    name: "name-missing",
    severity: Severity::Error,
    summary: "The skill has no `name`",
    what: "The frontmatter has no `name` key.",
    why: "The spec requires it; VS Code and the Agent Skills validator reject the skill, other hosts fall back to the folder name.",
    example: "---\ndescription: Extract tables from PDFs.\n---\n\nFix: add `name: pdf-tables` (the folder name).",
    fix: None,
};

/// The skill has no `name`; the mapping is at `pos`, the skill's folder is `folder`.
fn name_missing(sink: &mut Sink, pos: Pos, folder: &str) {
    sink.push(
        Rule::NameMissing,
        pos,
        format!("the skill has no `name`; add `name: {folder}` (its folder name)"),
    );
}

pub(crate) const NAME_TYPE: RuleDoc = RuleDoc {
    code: "SA202",
    name: "name-type",
    severity: Severity::Error,
    summary: "`name` is not a non-empty string",
    what: "`name` is empty, blank, or not a string (a list, a number, a mapping).",
    why: "Hosts use `name` as the skill's identifier and slash command; a non-string cannot be one.",
    example: "name: [pdf]\n\nFix: name: pdf",
    fix: None,
};

/// `name` (`value`) is not a non-empty string.
pub(crate) fn name_type(sink: &mut Sink, value: &Node) {
    sink.push(
        Rule::NameType,
        value.pos,
        format!(
            "`name` must be a non-empty string, found {}",
            describe(value)
        ),
    );
}

/// "an empty value", "a list", or "a blank string" for a string that is only spaces.
fn describe(node: &Node) -> &'static str {
    match &node.value {
        Value::Str(_) => "a blank string",
        Value::Null => "an empty value",
        _ => node.kind(),
    }
}

pub(crate) const NAME_TOO_LONG: RuleDoc = RuleDoc {
    code: "SA203",
    name: "name-too-long",
    severity: Severity::Error,
    summary: "`name` is longer than 64 characters",
    what: "`name` is longer than 64 characters (counted after Unicode NFKC normalisation).",
    why: "The spec caps names at 64; Codex, VS Code and the validators reject longer ones.",
    example: "name: a-very-long-name-that-keeps-going-...\n\nFix: shorten it to 64 characters or fewer.",
    fix: None,
};

/// `name` is `len` characters long.
fn name_too_long(sink: &mut Sink, pos: Pos, len: usize) {
    sink.push(
        Rule::NameTooLong,
        pos,
        format!("`name` is {len} characters; the limit is {MAX_NAME_CHARS}"),
    );
}

pub(crate) const NAME_NOT_LOWERCASE: RuleDoc = RuleDoc {
    code: "SA204",
    name: "name-not-lowercase",
    severity: Severity::Error,
    summary: "`name` has uppercase letters",
    what: "`name` contains uppercase letters.",
    why: "The spec allows only lowercase, and validators that follow it (skills-ref, VS Code's editor) report it. The hosts whose loading is known take such a name, but a host that checks it as the spec does may not.",
    example: "name: PdfTools\n\nFix: name: pdf-tools",
    fix: None,
};

/// `name` has uppercase letters and no other fault; `folder` is the skill's folder name.
fn name_not_lowercase(sink: &mut Sink, pos: Pos, name: &str, folder: &str, fix: Option<Fix>) {
    let hint = use_instead(name, folder);
    sink.push_fixed(
        Rule::NameNotLowercase,
        pos,
        format!("`name` must be lowercase{hint}"),
        fix,
    );
}

/// The advice of a name finding: a valid name to use, said to be the folder's when it is
/// (the spec wants them equal).
fn use_instead(name: &str, folder: &str) -> String {
    match suggested_name(name, folder) {
        Some(n) if n == folder => {
            format!("; use {}, the folder's name, as the spec wants", quote(&n))
        }
        Some(n) => format!("; use {}", quote(&n)),
        None => String::new(),
    }
}

/// `name` has more than one fault of shape: uppercase letters (`upper`), characters outside
/// the allowed set (`bad`), hyphens at its ends or doubled. One finding, under the rule of the
/// first fault, naming them all.
fn name_faults(
    sink: &mut Sink,
    pos: Pos,
    name: &str,
    upper: bool,
    bad: &[char],
    folder: &str,
    fix: Option<Fix>,
) {
    let mut faults = Vec::new();
    if upper {
        faults.push("uppercase letters".to_owned());
    }
    if !bad.is_empty() {
        let mut shown: Vec<String> = bad.iter().map(|&c| shown_char(c)).collect();
        shown.sort();
        shown.dedup();
        faults.push(shown.join(", "));
    }
    if name.starts_with('-') || name.ends_with('-') || name.contains("--") {
        faults.push("hyphens at its ends or doubled".to_owned());
    }
    let hint = use_instead(name, folder);
    let rule = if bad.is_empty() {
        Rule::NameNotLowercase
    } else {
        Rule::NameCharset
    };
    sink.push_fixed(
        rule,
        pos,
        format!(
            "`name` has {}; only `a-z`, `0-9` and single inner `-` are allowed{hint}",
            faults.join(" and ")
        ),
        fix,
    );
}

/// A character a name may not hold, as a message shows it: `'_'`. The backtick would open a
/// code span in the rendered message, so it is shown as code, in a fence that holds it.
fn shown_char(c: char) -> String {
    if c == '`' {
        quote("'`'")
    } else {
        format!("{c:?}")
    }
}

/// A name every host accepts for a skill called `name` in the folder `folder`: the folder's
/// name when it is valid, else `name` in lowercase with each run of other characters a single
/// hyphen. `None` when neither gives a valid name.
fn suggested_name(name: &str, folder: &str) -> Option<String> {
    if valid_name(folder) {
        return Some(folder.to_owned());
    }
    let mut out = String::new();
    for c in name.chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    let out: String = out.chars().take(MAX_NAME_CHARS).collect();
    let out = out.trim_end_matches('-').to_owned();
    valid_name(&out).then_some(out)
}

pub(crate) const NAME_HYPHENS: RuleDoc = RuleDoc {
    code: "SA205",
    name: "name-hyphens",
    severity: Severity::Error,
    summary: "`name` starts or ends with `-` or has `--`",
    what: "`name` starts or ends with `-`, or contains `--`.",
    why: "The spec forbids both; validators reject the skill.",
    example: "name: -pdf--tools\n\nFix: name: pdf-tools",
    fix: None,
};

fn name_hyphen_at_end(sink: &mut Sink, pos: Pos) {
    sink.push(
        Rule::NameHyphens,
        pos,
        "`name` cannot start or end with a hyphen",
    );
}

fn name_double_hyphen(sink: &mut Sink, pos: Pos) {
    sink.push(
        Rule::NameHyphens,
        pos,
        "`name` cannot contain consecutive hyphens",
    );
}

pub(crate) const NAME_CHARSET: RuleDoc = RuleDoc {
    code: "SA206",
    name: "name-charset",
    severity: Severity::Error,
    summary: "`name` has characters outside the allowed set",
    what: "`name` uses characters other than `a-z`, `0-9` and `-` (or, with `--name-charset unicode`, other than Unicode letters, digits and `-`).",
    why: "The specification allows only ASCII `[a-z0-9-]` (the reference validator also accepts Unicode letters). Hosts that check the name differ beyond that (the Copilot CLI also takes `_`, `.`, `:` and spaces, not `/`), and VS Code uses the folder's name instead, so only such a name is taken as written everywhere.",
    example: "name: pdf_tools\n\nFix: name: pdf-tools",
    fix: None,
};

/// `name` holds the characters `bad` (in order, repeats included), outside what `charset`
/// allows; `suggested`, a valid name to use instead.
fn name_charset(
    sink: &mut Sink,
    pos: Pos,
    bad: &[char],
    charset: NameCharset,
    suggested: Option<&str>,
    fix: Option<Fix>,
) {
    // Each character once, in the order the name first has it.
    let mut shown: Vec<String> = Vec::new();
    for &c in bad {
        let c = shown_char(c);
        if !shown.contains(&c) {
            shown.push(c);
        }
    }
    let allowed = match charset {
        NameCharset::Ascii if bad.iter().all(|c| c.is_alphanumeric()) => {
            "only `a-z`, `0-9` and `-` are allowed (what VS Code, Claude and OpenAI accept; `--name-charset unicode` accepts Unicode letters)"
        }
        NameCharset::Ascii => "only `a-z`, `0-9` and `-` are allowed",
        NameCharset::Unicode => "only letters, digits and `-` are allowed",
    };
    sink.push_fixed(
        Rule::NameCharset,
        pos,
        format!(
            "`name` contains {}; {allowed}{}",
            shown.join(", "),
            suggested
                .map(|n| format!("; use {}", quote(n)))
                .unwrap_or_default()
        ),
        fix,
    );
}

pub(crate) const NAME_DIRECTORY_MISMATCH: RuleDoc = RuleDoc {
    code: "SA207",
    name: "name-directory-mismatch",
    severity: Severity::Error,
    summary: "`name` differs from the skill's folder name",
    what: "`name` differs from the name of the folder holding SKILL.md (compared after NFKC normalisation). When the name has uppercase letters or other characters than the spec allows (SA204, SA206) and the folder's name is valid, that finding advises the folder's name and carries this fix, and this one is not reported again.",
    why: "The spec requires them to match; the reference validator rejects the skill and VS Code warns.",
    example: "skills/pdf/SKILL.md with `name: pdf-tools`\n\nFix: rename the folder to pdf-tools or set `name: pdf`.",
    fix: Some(FixDoc {
        applicability: Applicability::Unsafe,
        what: "Set `name` to the folder's name, when that is a valid name. Unsafe: the skill is then invoked by another name.",
    }),
};

/// SA207's fix: `name`, written `raw` at `pos`, set to `folder`. Only a folder name that is
/// itself a valid name is offered: any other would trade one finding for another.
fn set_name_fix(sink: &Sink, pos: Pos, raw: &str, folder: &str) -> Option<Fix> {
    let text = sink.text().filter(|_| valid_name(folder))?;
    let (start, end) = span::scalar_at(text, pos, raw)?;
    Some(Fix::unsafe_edits(
        format!("set `name` to {}", quote(folder)),
        vec![span::edit(text, start, end, folder)],
    ))
}

/// `name` (written `raw` at `pos`) is not `folder`, both NFKC-normalised.
fn name_mismatch(sink: &mut Sink, pos: Pos, name: &str, folder: &str, raw: &str) {
    let fix = set_name_fix(sink, pos, raw, folder);
    sink.push_fixed(
        Rule::NameDirectoryMismatch,
        pos,
        format!(
            "`name` is {} but the folder is {}; the spec requires them to match (its validator rejects the skill, VS Code warns): rename one",
            quote(name),
            quote(folder)
        ),
        fix,
    );
}

/// A name every rule of the spec accepts: lowercase ASCII letters, digits and single inner
/// hyphens, at most 64 characters.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME_CHARS
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
        && !name.contains("--")
        && !matches!(name, "true" | "false" | "null")
        && name.parse::<f64>().is_err()
}

pub(crate) const DESCRIPTION_MISSING: RuleDoc = RuleDoc {
    code: "SA210",
    name: "description-missing",
    severity: Severity::Error,
    summary: "The skill has no `description`",
    what: "The frontmatter has no `description` key.",
    why: "Models choose skills by their description; hosts skip skills without one.",
    example: "---\nname: pdf\n---\n\nFix: description: Extract text and tables from PDF files. Use when the user mentions PDFs.",
    fix: None,
};

fn description_missing(sink: &mut Sink, pos: Pos) {
    sink.push(
        Rule::DescriptionMissing,
        pos,
        "the skill has no `description`; add one that says what it does and when to use it",
    );
}

pub(crate) const DESCRIPTION_TYPE: RuleDoc = RuleDoc {
    code: "SA211",
    name: "description-type",
    severity: Severity::Error,
    summary: "`description` is not a non-empty string",
    what: "`description` is empty, blank, or not a string.",
    why: "An empty description gives the model nothing to choose the skill by; hosts skip it.",
    example: "description:\n\nFix: description: What the skill does and when to use it.",
    fix: None,
};

/// `description` (`value`) is not a non-empty string.
pub(crate) fn description_type(sink: &mut Sink, value: &Node) {
    sink.push(
        Rule::DescriptionType,
        value.pos,
        format!(
            "`description` must be a non-empty string saying what the skill does and when to use it, found {}",
            describe(value)
        ),
    );
}

pub(crate) const DESCRIPTION_TOO_LONG: RuleDoc = RuleDoc {
    code: "SA212",
    name: "description-too-long",
    severity: Severity::Error,
    summary: "`description` is longer than 1024 characters",
    what: "`description` is longer than 1024 characters (Unicode characters of the trimmed text).",
    why: "The spec caps it at 1024; validators reject longer ones and hosts truncate the listing.",
    example: "A 1,500-character description.\n\nFix: keep the what and when in the description; move detail into the body.",
    fix: None,
};

fn description_too_long(sink: &mut Sink, pos: Pos, len: usize) {
    sink.push(
        Rule::DescriptionTooLong,
        pos,
        format!("`description` is {len} characters; the limit is {MAX_DESCRIPTION_CHARS}, hosts truncate or reject longer ones"),
    );
}

pub(crate) const COMPATIBILITY_TYPE: RuleDoc = RuleDoc {
    code: "SA213",
    name: "compatibility-type",
    severity: Severity::Error,
    summary: "`compatibility` is not a non-empty string",
    what: "`compatibility` is present but empty or not a string.",
    why: "The spec defines it as 1-500 characters of text; the reference validator accepts an empty value, hosts may not.",
    example: "compatibility:\n\nFix: compatibility: Requires Python 3.11+ and network access  (or remove the key)",
    fix: None,
};

/// `compatibility` (`value`) is not a non-empty string.
pub(crate) fn compatibility_type(sink: &mut Sink, value: &Node) {
    sink.push(
        Rule::CompatibilityType,
        value.pos,
        format!(
            "`compatibility` must be a non-empty string describing environment requirements, found {}",
            describe(value)
        ),
    );
}

pub(crate) const COMPATIBILITY_TOO_LONG: RuleDoc = RuleDoc {
    code: "SA214",
    name: "compatibility-too-long",
    severity: Severity::Error,
    summary: "`compatibility` is longer than 500 characters",
    what: "`compatibility` is longer than 500 characters.",
    why: "The spec caps it at 500; validators reject longer ones.",
    example: "A 600-character compatibility note.\n\nFix: shorten it; put detail in the body.",
    fix: None,
};

fn compatibility_too_long(sink: &mut Sink, pos: Pos, len: usize) {
    sink.push(
        Rule::CompatibilityTooLong,
        pos,
        format!("`compatibility` is {len} characters; the limit is {MAX_COMPATIBILITY_CHARS}"),
    );
}

pub(crate) const METADATA_TYPE: RuleDoc = RuleDoc {
    code: "SA215",
    name: "metadata-type",
    severity: Severity::Warning,
    summary: "`metadata` is not a map of strings to strings",
    what: "`metadata` is not a mapping, or one of its values is not a string (a number, a boolean, a list, a nested map). OpenClaw's and Hermes' own nested blocks are SA223 instead; OpenClaw's `requires` written straight under `metadata` is said to belong in `metadata.openclaw`.",
    why: "The spec defines metadata as string keys to string values, and validators that enforce it reject anything else. `version: 1.10` is the number 1.1 to most parsers, and nested maps are read differently by each host (skills-ref turns one into a single string). OpenClaw, though, documents `metadata.openclaw` as a nested mapping and gates the skill on it: flattening it would break that gating.",
    example: "metadata:\n  version: 1.10\n\nFix:\nmetadata:\n  version: \"1.10\"",
    fix: None,
};

/// `metadata` (`value`) is not a mapping.
pub(crate) fn metadata_type(sink: &mut Sink, value: &Node) {
    sink.push(
        Rule::MetadataType,
        value.pos,
        format!(
            "`metadata` must be a mapping of string keys to string values, found {}",
            value.kind()
        ),
    );
}

/// `metadata.key` is a boolean or a number (`value`), which parsers print differently.
pub(crate) fn metadata_value_not_text(sink: &mut Sink, key: &str, value: &Node) {
    sink.push(
        Rule::MetadataType,
        value.pos,
        format!(
            "{} is {}, not a string; quote it so every parser reads the same text",
            quote(&format!("metadata.{key}")),
            value.kind()
        ),
    );
}

/// `metadata.key` is a list or a mapping (`value`).
pub(crate) fn metadata_value_type(sink: &mut Sink, key: &str, value: &Node) {
    // A host's own nested block must stay nested: advice to flatten it would break the
    // host's gating, so it is a note of its own, not this warning.
    let host = if crate::parse::openclaw::KEYS.contains(&key) {
        Some("OpenClaw")
    } else if key == "hermes" {
        Some("Hermes")
    } else {
        None
    };
    if let Some(host) = host {
        let flow = sink
            .text()
            .and_then(|t| Some(t.as_bytes().get(crate::span::offset(t, value.pos)?)? == &b'{'))
            .unwrap_or(false);
        let risk = if flow {
            "it is written in flow style (`{...}`), which skills-ref (strictyaml) rejects, failing the whole skill: where a strict validator checks your skills, write it as block YAML"
        } else {
            "the Agent Skills spec wants string values here, which a validator may enforce (skills-ref does not)"
        };
        sink.push_about(
            Rule::HostMetadataBlock,
            value.pos,
            format!(
                "`metadata.{key}` is {}, {host}'s own block: {host} reads it (and so does skill-audit), so keep it; {risk}",
                value.kind()
            ),
            key,
        );
        return;
    }
    // OpenClaw's gating written one level too high: turning it into a string would lose it.
    if key == "requires" && openclaw_block_key(key, value) {
        sink.push(
            Rule::MetadataType,
            value.pos,
            "`metadata.requires` is OpenClaw's `requires` without its block: OpenClaw reads it only under `metadata.openclaw`, so it gates nothing here; move it (and `emoji`, `primaryEnv` and the like) under `metadata.openclaw`",
        );
        return;
    }
    sink.push(
        Rule::MetadataType,
        value.pos,
        format!(
            "`metadata.{key}` must be a string, found {}; the Agent Skills spec wants string values, validators that enforce it reject others, and hosts read nested values differently",
            value.kind()
        ),
    );
}

pub(crate) const HOST_METADATA_BLOCK: RuleDoc = RuleDoc {
    code: "SA223",
    name: "host-metadata-block",
    severity: Severity::Info,
    summary: "`metadata` holds a host's own nested block (OpenClaw, Hermes)",
    what: "`metadata.openclaw` (or the older `clawdbot`, `clawdis`, `moltbot`) or `metadata.hermes` is a nested mapping, as OpenClaw and Hermes document it. skill-audit reads the requirements in it (see docs/requirements.md).",
    why: "Those hosts gate the skill on the block, so it must stay nested; the Agent Skills spec defines `metadata` as strings to strings, which a validator may enforce (the reference one, skills-ref, does not). Written in flow style (`{...}`, as OpenClaw's examples are), the block makes skills-ref, which parses with strictyaml, reject the whole file; in block style it passes. Nothing to change unless a strict validator checks your skills.",
    example: "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"uv\"]}}}\n\nKeep it: flattening it would turn OpenClaw's gating off.",
    fix: None,
};

pub(crate) const ALLOWED_TOOLS_TYPE: RuleDoc = RuleDoc {
    code: "SA216",
    name: "allowed-tools-type",
    severity: Severity::Warning,
    summary: "`allowed-tools` is not a space-separated string",
    what: "`allowed-tools` is not a space-separated string (for example a YAML list).",
    why: "The spec defines a string; Claude Code also reads a list but strict validators reject flow-style lists and other hosts may ignore it.",
    example: "allowed-tools: [Read, Bash]\n\nFix: allowed-tools: Read Bash",
    fix: None,
};

/// `allowed-tools` is written as a YAML list of `names`, at `pos`.
pub(crate) fn allowed_tools_list(sink: &mut Sink, pos: Pos, names: &[String]) {
    // A blank inside a permission rule's parentheses (`Bash(git add:*)`) is read as one name.
    let blank_outside = |n: &&String| outside_parentheses(n, char::is_whitespace);
    let message = match names.iter().find(blank_outside) {
        // Such a name cannot be written in the spec's form at all: say so rather than
        // suggest a string that would split it.
        Some(spaced) => format!(
            "the spec defines `allowed-tools` as a space-separated string, which cannot hold {}; Claude Code also reads a list, hosts that read only the string split such a name",
            quote(spaced)
        ),
        None => format!(
            "the spec defines `allowed-tools` as a space-separated string ({}); Claude Code also reads a list, other hosts may not",
            quote(&format!("allowed-tools: {}", names.join(" ")))
        ),
    };
    sink.push(Rule::AllowedToolsType, pos, message);
}

pub(crate) const ALLOWED_TOOLS_COMMAS: RuleDoc = RuleDoc {
    code: "SA224",
    name: "allowed-tools-commas",
    severity: Severity::Info,
    summary: "`allowed-tools` separates its names with commas",
    what: "`allowed-tools` is a string whose names are separated by commas (`Read, Write, Edit`). Commas inside a permission rule's parentheses (`Bash(git add:*, git commit:*)`) do not count.",
    why: "The spec defines a space-separated string. Claude Code accepts commas too, so the skill works there, but a host or validator that follows the spec reads `Read,` as a tool name.",
    example: "allowed-tools: Read, Write, Edit\n\nFix: allowed-tools: Read Write Edit",
    fix: Some(FixDoc {
        applicability: Applicability::Safe,
        what: "Rewrite the string with the same names separated by single spaces, in the value's own quoting. Not offered when the value spans lines.",
    }),
};

/// `allowed-tools` (`value`, the string `raw`) separates the `names` it holds with commas.
pub(crate) fn allowed_tools_commas(sink: &mut Sink, value: &Node, raw: &str, names: &[String]) {
    let spaced = names.join(" ");
    let fix = sink.text().and_then(|text| {
        let (start, end) = span::scalar_at(text, value.pos, raw)?;
        let written = span::scalar(&spaced, span::Context::Block, Some(&text[start..end]));
        Some(Fix::safe(
            "separate the names with spaces",
            vec![span::edit(text, start, end, written)],
        ))
    });
    sink.push_fixed(
        Rule::AllowedToolsCommas,
        value.pos,
        format!(
            "`allowed-tools` separates its names with commas; the spec wants spaces ({}). Claude Code reads either, hosts that follow the spec may not",
            quote(&spaced)
        ),
        fix,
    );
}

/// Does `s`, an `allowed-tools` string, separate names with a comma outside parentheses?
pub(crate) fn has_top_level_comma(s: &str) -> bool {
    outside_parentheses(s, |c| c == ',')
}

/// Does `s` hold a character that `f` picks outside parentheses (those of a permission rule,
/// `Bash(git add:*, git commit:*)`)?
fn outside_parentheses(s: &str, f: impl Fn(char) -> bool) -> bool {
    let mut depth = 0usize;
    s.chars().any(|c| {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            _ => {}
        }
        depth == 0 && f(c)
    })
}

/// `allowed-tools` is neither a string nor a list of names: a [`super::ShapeReport`].
pub(crate) fn allowed_tools_shape(sink: &mut Sink, pos: Pos, field: &str, shape: NameShape) {
    sink.push(Rule::AllowedToolsType, pos, shape.message(field));
}

pub(crate) const LICENSE_TYPE: RuleDoc = RuleDoc {
    code: "SA217",
    name: "license-type",
    severity: Severity::Warning,
    summary: "`license` is not a string",
    what: "`license` is not a string.",
    why: "The spec defines it as a license name or the name of a bundled license file.",
    example: "license: {name: MIT}\n\nFix: license: MIT",
    fix: None,
};

/// `license` (`value`) is not text.
pub(crate) fn license_type(sink: &mut Sink, value: &Node) {
    sink.push(
        Rule::LicenseType,
        value.pos,
        format!(
            "`license` should be a license name or a bundled file name, found {}",
            value.kind()
        ),
    );
}

pub(crate) const HOST_SPECIFIC_KEY: RuleDoc = RuleDoc {
    code: "SA220",
    name: "host-specific-key",
    severity: Severity::Info,
    summary: "A key some hosts support but the Agent Skills spec does not list",
    what: "A top-level key that some hosts read (Claude Code, VS Code, OpenClaw and its ClawHub registry) but the Agent Skills spec does not list, such as `argument-hint`, `user-invocable`, OpenClaw's `homepage` and `command-dispatch`, or ClawHub's `version`.",
    why: "Those hosts act on it; strict validators and uploads (skills-ref, claude.ai) reject unknown keys, and other hosts ignore it. Fine when intended.",
    example: "argument-hint: \"[file]\"\n\nNothing to fix if the library targets those hosts; otherwise move it under `metadata`.",
    fix: None,
};

/// The key `key` is read by `hosts`, at least one of them configured.
fn host_specific_key(sink: &mut Sink, pos: Pos, key: &str, hosts: &[&str]) {
    sink.push(
        Rule::HostSpecificKey,
        pos,
        format!(
            "{} is supported by {}; not in the Agent Skills spec, so strict validators reject it",
            quote(key),
            hosts.join(", ")
        ),
    );
}

pub(crate) const UNKNOWN_KEY: RuleDoc = RuleDoc {
    code: "SA221",
    name: "unknown-key",
    severity: Severity::Warning,
    summary: "A frontmatter key no host knows",
    what: "A top-level key that neither the spec nor any known host reads. The message suggests the nearest known key; without one, it says to remove the key or move it under `metadata`, where the spec keeps other fields. A field of OpenClaw's `metadata.openclaw` block written at the top (`emoji`, `primaryEnv`, `skillKey`, a `requires` with `bins` or `env`) is told to go into that block, the only place OpenClaw reads it.",
    why: "Hosts silently ignore it, which usually means a typo (`descripton`) that leaves the real field missing; strict validators and uploads (skills-ref, claude.ai) reject the skill outright.",
    example: "descripton: Extract tables from PDFs.\n\nFix: description: Extract tables from PDFs.",
    fix: Some(RENAME_KEY_FIX),
};

/// The key `key` is read only by `hosts`, none of which is configured.
fn unconfigured_host_key(sink: &mut Sink, pos: Pos, key: &str, hosts: &[&str]) {
    sink.push(
        Rule::UnknownKey,
        pos,
        format!(
            "{} is only read by {}, which is not among the configured `hosts`; it is ignored",
            quote(key),
            hosts.join(", ")
        ),
    );
}

/// No one reads the key `key`; `typo_of` is the known key it is probably a typo of, which the
/// mapping lacks when `fixable`.
fn unknown_key(sink: &mut Sink, pos: Pos, key: &str, typo_of: Option<&str>, fixable: bool) {
    // Without a near key, what to do: the spec keeps other fields under `metadata`.
    let hint = typo_of.map_or_else(
        || "; remove it, or move it under `metadata`, the spec's place for other fields".to_owned(),
        |s| format!("; did you mean {}?", quote(s)),
    );
    let fix = typo_of
        .filter(|_| fixable)
        .and_then(|to| rename_key(sink.text()?, pos, key, to));
    sink.push_fixed(
        Rule::UnknownKey,
        pos,
        format!(
            "{} is not a field of the spec or of any host: hosts ignore it, and strict validators and uploads (skills-ref, claude.ai) reject the skill{hint}",
            quote(key)
        ),
        fix,
    );
}

/// A key of OpenClaw's `metadata.openclaw` block written at the top level: names only that
/// block uses, and a `requires` that holds its gating lists.
fn openclaw_block_key(key: &str, value: &Node) -> bool {
    match key {
        "emoji" | "primaryEnv" | "skillKey" => true,
        "requires" => value.as_map().is_some_and(|m| {
            m.iter().any(|(k, _)| {
                k.as_str()
                    .is_some_and(|k| crate::parse::openclaw::REQUIRES_FIELDS.contains(&k))
            })
        }),
        _ => false,
    }
}

/// OpenClaw's `key` one level too high: `metadata.requires` would gate nothing either, so the
/// advice names the block.
fn misplaced_openclaw_key(sink: &mut Sink, pos: Pos, key: &str) {
    sink.push(
        Rule::UnknownKey,
        pos,
        format!(
            "{} is a field of OpenClaw's `metadata.openclaw` block, not a top-level one, so no host reads it here; move it to {}",
            quote(key),
            quote(&format!("metadata.openclaw.{key}"))
        ),
    );
}

/// The fix of a misspelt key (SA221, SA502).
pub(crate) const RENAME_KEY_FIX: FixDoc = FixDoc {
    applicability: Applicability::Safe,
    what: "Rename a misspelt key to the known key it almost matches, when the mapping has no such key yet and the key is not one the other format reads (an agent's `agent` is a SKILL.md key); its value and comments stay. Unsafe when the key says what may run or what is needed (`tools`, `mcp-servers`, `allowed-tools`, `disallowed-tools`, `hooks`, `dependencies`): hosts start reading it, so an agent that had every tool gets only those listed.",
};

/// Keys whose value says what may run or what is needed: a host that starts reading one
/// grants, denies or requires something it did not before.
const GRANTING_KEYS: &[&str] = &[
    "allowed-tools",
    "dependencies",
    "disallowed-tools",
    "hooks",
    "mcp-servers",
    "tools",
];

/// The edit that renames the mapping key `key` written at `pos` to `to`.
pub(crate) fn rename_key(text: &str, pos: Pos, key: &str, to: &str) -> Option<Fix> {
    let start = span::offset(text, pos)?;
    let (start, end) = span::scalar_in(text, start, span::Context::Key, key)?;
    let new = span::scalar(to, span::Context::Key, Some(&text[start..end]));
    let (message, edits) = (
        format!("rename {} to {}", quote(key), quote(to)),
        vec![span::edit(text, start, end, new)],
    );
    Some(if GRANTING_KEYS.contains(&to) {
        Fix::unsafe_edits(message, edits)
    } else {
        Fix::safe(message, edits)
    })
}

pub(crate) const HOST_FIELD_TYPE: RuleDoc = RuleDoc {
    code: "SA222",
    name: "host-field-type",
    severity: Severity::Warning,
    summary: "A host-specific field has the wrong type",
    what: "A host-specific field has the wrong type: `user-invocable`, `disable-model-invocation` or `background` not `true`/`false`, or a text field holding a list or mapping.",
    why: "VS Code reads only the literal booleans `true` and `false`; `yes` or `\"false\"` are ignored and the default applies.",
    example: "disable-model-invocation: yes\n\nFix: disable-model-invocation: true",
    fix: None,
};

/// The host text field `key` holds a list or a mapping (`value`).
pub(crate) fn host_text_type(sink: &mut Sink, key: &str, value: &Node) {
    sink.push(
        Rule::HostFieldType,
        value.pos,
        format!("{} must be a string, found {}", quote(key), value.kind()),
    );
}

/// The host boolean field `key` holds something other than `true` or `false` (`value`).
pub(crate) fn host_bool_type(sink: &mut Sink, key: &str, value: &Node) {
    sink.push(
        Rule::HostFieldType,
        value.pos,
        format!(
            "{} must be `true` or `false`, found {}; hosts that only read YAML booleans ignore it",
            quote(key),
            match value.as_str() {
                Some(s) => quote(s),
                None => value.kind().to_owned(),
            }
        ),
    );
}

/// A host field that takes a list of names (`disallowed-tools`, `paths`) is written wrong: a
/// [`super::ShapeReport`].
pub(crate) fn host_field_shape(sink: &mut Sink, pos: Pos, field: &str, shape: NameShape) {
    sink.push(Rule::HostFieldType, pos, shape.message(field));
}

pub(crate) const BODY_TOO_LONG: RuleDoc = RuleDoc {
    code: "SA230",
    name: "body-too-long",
    severity: Severity::Warning,
    summary: "SKILL.md is longer than 500 lines",
    what: "SKILL.md has more than 500 lines.",
    why: "The whole body is loaded into the model's context when the skill activates; the spec recommends under 500 lines and moving detail into referenced files.",
    example: "A 900-line SKILL.md.\n\nFix: keep the workflow in SKILL.md, move reference material to references/*.md and link to it.",
    fix: None,
};

/// SKILL.md has `lines` lines; the finding is on the first line past the limit.
fn body_too_long(sink: &mut Sink, lines: u32) {
    sink.push_about(
        Rule::BodyTooLong,
        Pos::new(MAX_SKILL_LINES + 1, 1),
        format!(
            "SKILL.md has {lines} lines; keep it under {MAX_SKILL_LINES} and move detail into files under references/"
        ),
        "",
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_close_keys_only() {
        assert_eq!(did_you_mean("descripton"), Some("description"));
        assert_eq!(did_you_mean("Name"), Some("name"));
        assert_eq!(did_you_mean("allowed_tools"), Some("allowed-tools"));
        assert_eq!(did_you_mean("category"), None);
    }

    #[test]
    fn each_bad_character_is_named_once_in_first_seen_order() {
        let mut sink = Sink::new("s/SKILL.md");
        let bad: Vec<char> = "<a(b)</c>"
            .chars()
            .filter(|c| !c.is_alphanumeric())
            .collect();
        name_charset(
            &mut sink,
            Pos::new(2, 7),
            &bad,
            NameCharset::Ascii,
            None,
            None,
        );
        assert_eq!(
            sink.findings[0].message,
            "`name` contains '<', '(', ')', '/', '>'; only `a-z`, `0-9` and `-` are allowed"
        );
    }

    #[test]
    fn nfkc_borrows_only_normal_text() {
        for text in ["pdf-tools", "café", "日本語"] {
            assert!(matches!(nfkc(text), Cow::Borrowed(t) if t == text));
        }
        // Combining accent, full-width letters and a ligature are rewritten.
        assert_eq!(nfkc("cafe\u{301}"), "café");
        assert_eq!(nfkc("ｐｄｆ"), "pdf");
        assert_eq!(nfkc("ﬁle"), "file");
    }

    #[test]
    fn openclaw_blocks_are_kept_other_nested_values_flattened() {
        let map = Node {
            value: Value::Map(Vec::new()),
            pos: Pos::new(3, 11),
        };
        let mut sink = Sink::new("s");
        for key in ["openclaw", "clawdbot", "clawdis", "moltbot", "tags"] {
            metadata_value_type(&mut sink, key, &map);
        }
        let messages: Vec<&str> = sink.findings.iter().map(|f| f.message.as_str()).collect();
        for m in &messages[..4] {
            assert!(
                m.contains("OpenClaw's own block") && m.contains("keep it"),
                "{m}"
            );
            assert!(!m.contains("must be a string"), "{m}");
        }
        assert!(messages[4].starts_with("`metadata.tags` must be a string"));
    }

    #[test]
    fn a_host_block_in_flow_style_is_said_to_fail_strict_validators() {
        let said = |text: &str| {
            let root = crate::parse::yaml::parse(text, 1).expect("yaml");
            let metadata = root.get("metadata").expect("metadata");
            let block = metadata.get("openclaw").expect("block");
            let mut sink = Sink::new("s");
            sink.source = text.as_bytes();
            metadata_value_type(&mut sink, "openclaw", block);
            sink.findings.remove(0).message
        };
        let flow = said("metadata: {\"openclaw\": {\"requires\": {\"bins\": [uv]}}}\n");
        assert!(
            flow.contains("flow style (`{...}`), which skills-ref"),
            "{flow}"
        );
        let inner = said("metadata:\n  openclaw: {requires: {bins: [uv]}}\n");
        assert!(inner.contains("flow style"), "{inner}");
        let block = said("metadata:\n  openclaw:\n    requires:\n      bins:\n        - uv\n");
        assert!(block.contains("(skills-ref does not)"), "{block}");
    }

    #[test]
    fn openclaw_requires_without_its_block_is_said_to_belong_in_it() {
        let gating = crate::parse::yaml::parse("requires:\n  bins: [uv]\n", 1).expect("yaml");
        let other = crate::parse::yaml::parse("requires:\n  python: '3.11'\n", 1).expect("yaml");
        let mut sink = Sink::new("s");
        for root in [&gating, &other] {
            let requires = root.get("requires").expect("requires");
            metadata_value_type(&mut sink, "requires", requires);
        }
        let messages: Vec<&str> = sink.findings.iter().map(|f| f.message.as_str()).collect();
        assert!(
            messages[0].contains("move it") && messages[0].contains("`metadata.openclaw`"),
            "{}",
            messages[0]
        );
        assert!(messages[1].starts_with("`metadata.requires` must be a string"));
    }

    #[test]
    fn openclaw_fields_at_the_top_are_said_to_belong_in_its_block() {
        let root = crate::parse::yaml::parse(
            "name: clip\nemoji: x\nrequires:\n  bins: [ffmpeg]\nsetup: y\n",
            1,
        )
        .expect("yaml");
        let mut sink = Sink::new("s");
        check_keys(&root, &Settings::default(), &mut sink);
        let messages: Vec<&str> = sink.findings.iter().map(|f| f.message.as_str()).collect();
        assert_eq!(messages.len(), 3, "{messages:?}");
        assert!(messages[0].ends_with("move it to `metadata.openclaw.emoji`"));
        assert!(messages[1].ends_with("move it to `metadata.openclaw.requires`"));
        assert!(
            messages[2].starts_with("`setup` is not a field"),
            "{}",
            messages[2]
        );
    }
}
