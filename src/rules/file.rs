//! SA1xx: reading a file and splitting off its frontmatter. Detected while reading and
//! parsing; a file with any SA1xx error is reported as `invalid`.

use super::{FixDoc, Rule, RuleDoc};
use crate::diagnostic::{Applicability, Finding, Fix, Pos, Severity, Sink, quote};
use crate::parse::yaml::{Node, ParseFailure};
use crate::span;
use std::path::Path;

pub(crate) const READ_ERROR: RuleDoc = RuleDoc {
    code: "SA100",
    name: "read-error",
    severity: Severity::Error,
    summary: "A file or folder could not be read",
    what: "A file or folder found by the walk could not be read (permissions, a broken or looping symlink, an I/O error), or an ignore file of an audited folder or of a folder above it (`.gitignore`, `.ignore`, git's exclude file) is over 256 KiB and was not read: then no ignore rule is honoured in that run.",
    why: "Whatever is in it is invisible to the audit and, most likely, to the hosts that load the library.",
    example: "skills/x/SKILL.md is a symlink to `../y/SKILL.md`, a file of the tree that no longer exists (a link out of the tree is SA110).\nFix: restore the target or remove the link.",
    fix: None,
};

/// A file or folder the walk could not read.
pub(crate) fn read_error(path: &str, why: &str) -> Finding {
    Finding::new(
        Rule::ReadError,
        path,
        Pos::START,
        format!("cannot read: {why}"),
    )
}

/// A served skill whose SKILL.md `resources/read` did not return.
pub(crate) fn served_unreadable(sink: &mut Sink, why: &str) {
    sink.push(
        Rule::ReadError,
        Pos::START,
        format!("cannot read the skill over MCP (`resources/read`): {why}"),
    );
}

/// A file `skills/list` lists for a served skill that could not be read, so its digest is not
/// verified.
pub(crate) fn served_file_unreadable(sink: &mut Sink, uri: &str, why: &str) {
    sink.push(
        Rule::ReadError,
        Pos::START,
        format!(
            "cannot read {}, a file `skills/list` lists for this skill (`resources/read`): {why}; its digest is not verified",
            quote(&super::mcp::clip(uri))
        ),
    );
}

/// The `count` listed files of a served skill that `limit` left unread, the first at `first`:
/// one finding for them all.
pub(crate) fn served_files_skipped(sink: &mut Sink, first: &str, limit: &str, count: usize) {
    let message = if count == 1 {
        format!(
            "{}, a file `skills/list` lists for this skill, was not read ({limit}), so its digest is not verified",
            quote(&super::mcp::clip(first))
        )
    } else {
        format!(
            "{count} files `skills/list` lists for this skill were not read ({limit}), so their digests are not verified; the first is {}",
            quote(&super::mcp::clip(first))
        )
    };
    sink.push(Rule::ReadError, Pos::START, message);
}

pub(crate) const NOT_UTF8: RuleDoc = RuleDoc {
    code: "SA101",
    name: "not-utf8",
    severity: Severity::Error,
    summary: "The file is not valid UTF-8",
    what: "The file contains bytes that are not valid UTF-8. The finding points at the first bad byte.",
    why: "Hosts read SKILL.md as UTF-8; invalid bytes make them reject the file or garble its text.",
    example: "A description saved as Latin-1: `description: caf\\xe9`.\nFix: re-save the file as UTF-8.",
    fix: None,
};

/// `byte`, at `pos`, is where the file stops being UTF-8.
pub(crate) fn not_utf8(sink: &mut Sink, pos: Pos, byte: u8) {
    sink.push(
        Rule::NotUtf8,
        pos,
        format!("byte 0x{byte:02x} is not valid UTF-8; save the file as UTF-8"),
    );
}

pub(crate) const MISSING_FRONTMATTER: RuleDoc = RuleDoc {
    code: "SA102",
    name: "missing-frontmatter",
    severity: Severity::Error,
    summary: "The file does not start with a `---` frontmatter line",
    what: "The first line of the file is not `---`, so the file has no YAML frontmatter.",
    why: "Every host reads `name` and `description` from the frontmatter; without it the skill is skipped or listed without a description.",
    example: "# My skill\nname: my-skill\n\nFix:\n---\nname: my-skill\ndescription: What it does and when to use it.\n---\n# My skill",
    fix: None,
};

/// A file of kind `what` ("skill", "agent") without a first `---` line.
pub(crate) fn missing_frontmatter(sink: &mut Sink, what: &str) {
    let mut message = format!(
        "no YAML frontmatter: the first line of a {what} file must be `---`, followed by `name` and `description`"
    );
    // Some hosts load it all the same: the matrix says so per profile, this for the reader.
    // Another casing of the name is SA108's: on Linux no host finds it.
    let exact = sink.path.rsplit('/').next() == Some("SKILL.md");
    if what == "skill" && exact {
        let (loads, skips) = crate::profile::builtin::no_frontmatter_hosts();
        if !loads.is_empty() {
            let verb = if loads.len() == 1 { "loads" } else { "load" };
            message.push_str(&format!(
                "; {} still {verb} it, with none of its fields",
                crate::words::and_list(loads)
            ));
            if !skips.is_empty() {
                message.push_str(&format!("; {} skip it", crate::words::and_list(skips)));
            }
        }
    }
    sink.push(Rule::MissingFrontmatter, Pos::START, message);
}

pub(crate) const UNCLOSED_FRONTMATTER: RuleDoc = RuleDoc {
    code: "SA103",
    name: "unclosed-frontmatter",
    severity: Severity::Error,
    summary: "The frontmatter has no closing `---` line",
    what: "The frontmatter opens with `---` but no later line is exactly `---`. Where a later line is `---` but for its indentation (often the line that should close a frontmatter whose body was indented into a `description: |` block), the finding points at it.",
    why: "Hosts cannot tell where the YAML ends; most reject the file, some read the whole body as YAML.",
    example: "---\nname: my-skill\ndescription: Does things.\n# My skill\n\nFix: add a line `---` after the last YAML line.",
    fix: None,
};

/// The frontmatter is never closed; `end` is where the file ends, `indented` the line and
/// column of a `---` that would close it but for its indentation.
pub(crate) fn unclosed_frontmatter(sink: &mut Sink, end: Pos, indented: Option<(u32, u32)>) {
    match indented {
        Some((line, column)) => sink.push(
            Rule::UnclosedFrontmatter,
            Pos::new(line, column),
            "the frontmatter opened on line 1 is never closed: this `---` is indented, so YAML reads it as part of a value; remove the spaces before it",
        ),
        None => sink.push(
            Rule::UnclosedFrontmatter,
            end,
            "the frontmatter opened on line 1 is never closed; add a line `---` after it",
        ),
    }
}

pub(crate) const YAML_SYNTAX: RuleDoc = RuleDoc {
    code: "SA104",
    name: "yaml-syntax",
    severity: Severity::Error,
    summary: "The frontmatter is not valid YAML",
    what: "The text between the `---` lines is not valid YAML.",
    why: "Hosts read such a frontmatter differently: Claude Code loads the skill named after its folder with none of its fields, VS Code reads it with a lenient reader of its own, Gemini CLI and OpenClaw read its `key: value` lines, OpenCode parses it again with its colon values quoted, and strict YAML readers (skills-ref, Codex, the Copilot CLI and cloud agent, Cursor) drop the skill. The matrix says what each host of the run does.",
    example: "description: Use when: the user asks\n\nFix: quote values that contain `: ` or ` #`:\ndescription: \"Use when: the user asks\"",
    fix: Some(FixDoc {
        applicability: Applicability::Safe,
        what: "When the parser stops at a one-line `key: value` whose plain value holds `: `, put the value (to the end of the line, ` #` included) in single quotes, doubling any `'`, so it reads as the text written. Other syntax errors have no fix.",
    }),
};

/// Invalid YAML, in the words of the YAML parser (`text`).
pub(crate) fn yaml_syntax(pos: Pos, text: String) -> ParseFailure {
    ParseFailure {
        rule: Rule::YamlSyntax,
        pos,
        message: text,
    }
}

/// An alias inside the collection its anchor names.
pub(crate) fn recursive_alias(pos: Pos) -> ParseFailure {
    yaml_syntax(
        pos,
        "recursive alias: it names the collection that contains it; write the value out instead"
            .to_owned(),
    )
}

/// A `<<` merge key whose value is not a mapping or a list of them.
pub(crate) fn merge_not_mapping(pos: Pos) -> ParseFailure {
    yaml_syntax(pos, "`<<` merges only mappings".to_owned())
}

/// The frontmatter could not be turned into a tree (SA104, SA106, SA107).
pub(crate) fn yaml_error(sink: &mut Sink, failure: ParseFailure, what: &str) {
    let quoted = match (failure.rule, sink.text()) {
        (Rule::YamlSyntax, Some(text)) => quote_value(text, failure.pos),
        _ => None,
    };
    let mut message = failure.message;
    if failure.rule == Rule::YamlSyntax {
        // What to do, before what hosts do: the fix is not shown in every format.
        match &quoted {
            Some((key, _)) => message.push_str(&format!(
                "; quote the value of {}, whose `: ` starts a mapping",
                quote(key)
            )),
            None if message.contains("found a tab") => {
                message.push_str("; indent with spaces: YAML takes no tab there");
            }
            None => message.push_str("; correct the YAML here"),
        }
    }
    if what == "skill" {
        // Hosts differ here: the matrix says so per profile, and the message for the reader.
        message.push_str(&hosts_on_unreadable());
    }
    sink.push_fixed(failure.rule, failure.pos, message, quoted.map(|q| q.1));
}

/// What the built-in hosts do with a skill whose frontmatter is not YAML, for SA104's message.
fn hosts_on_unreadable() -> String {
    use crate::profile::loading::Unreadable as U;
    let hosts = crate::profile::builtin::unreadable_frontmatter_hosts();
    let titles = |which: &dyn Fn(U) -> bool| -> Vec<&str> {
        (hosts.iter())
            .filter(|(_, how)| which(*how))
            .map(|(t, _)| *t)
            .collect()
    };
    // What one host does, what several do.
    let ways = [
        (U::Lenient, "loads the skill", "load the skill"),
        (
            U::LoadWithoutFields,
            "loads it without its fields",
            "load it without its fields",
        ),
        (
            U::ReadLines,
            "reads its `key: value` lines instead",
            "read its `key: value` lines instead",
        ),
        (
            U::QuoteColons,
            "parses it again with colons quoted",
            "parse it again with colons quoted",
        ),
    ];
    let mut said: Vec<String> = (ways.iter())
        .filter_map(|&(how, one, many)| {
            let who = titles(&|h| h == how);
            let does = if who.len() == 1 { one } else { many };
            (!who.is_empty()).then(|| format!("{} {does}", crate::words::and_list(&who)))
        })
        .collect();
    let mut strict = vec!["skills-ref"];
    strict.extend(titles(&|h| {
        matches!(h, U::Skip | U::SkipUnlessYaml | U::SkipUnlessAbsent)
    }));
    said.push(format!(
        "strict YAML readers ({}) drop it",
        strict.join(", ")
    ));
    format!("; hosts differ: {}", said.join("; "))
}

/// SA104's fix: line `at.line` is `key: value` with a plain value on that one line holding
/// `: ` (what the parser stopped at); the value single-quoted reads as the text written. With
/// the key, for the message.
fn quote_value(text: &str, at: Pos) -> Option<(String, Fix)> {
    let start = span::offset(text, Pos::new(at.line, 1))?;
    let (start, end, _) = span::line_at(text, start);
    let line = &text[start..end];
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    let colon = rest.find(": ")?;
    let key = &rest[..colon];
    let plain_key = |c: char| c.is_alphanumeric() || "-_.".contains(c);
    if key.is_empty() || !key.chars().all(plain_key) {
        return None;
    }
    let after = &rest[colon + 1..];
    let value = after.trim_start_matches([' ', '\t']).trim_end();
    let value_start =
        start + indent + colon + 1 + (after.len() - after.trim_start_matches([' ', '\t']).len());
    // A value that opens with an indicator is not a plain scalar; one without `: ` is not
    // what the parser stopped at.
    if value.is_empty()
        || value.starts_with(|c| "'\"[]{}|>&*!%@`#-?:,".contains(c))
        || !value.contains(": ")
    {
        return None;
    }
    // The parser must have stopped on this line, inside the value.
    let column = usize::try_from(at.column).unwrap_or(0);
    if column <= line[..indent + colon + 1].chars().count() {
        return None;
    }
    // A plain scalar may go on over more indented lines: then it is not a one-line value.
    let next = text[end..].trim_start_matches(['\r', '\n']);
    let next_line = next.split('\n').next().unwrap_or_default();
    let next_indent = next_line.len() - next_line.trim_start_matches(' ').len();
    if !next_line.trim().is_empty()
        && next_indent > indent
        && !next_line.trim_start().starts_with('#')
    {
        return None;
    }
    let quoted = span::single_quoted(value);
    let fix = Fix::safe(
        format!("quote the value of {}", quote(key)),
        vec![span::edit(
            text,
            value_start,
            value_start + value.len(),
            quoted,
        )],
    );
    Some((key.to_owned(), fix))
}

pub(crate) const NOT_MAPPING: RuleDoc = RuleDoc {
    code: "SA105",
    name: "frontmatter-not-mapping",
    severity: Severity::Error,
    summary: "The frontmatter is not a YAML mapping",
    what: "The frontmatter parsed, but it is not a mapping of keys to values (it is empty, a list or a scalar).",
    why: "Every field of a skill is a key of that mapping; a list or scalar holds none of them.",
    example: "---\n- name: my-skill\n---\n\nFix:\n---\nname: my-skill\ndescription: Does things.\n---",
    fix: None,
};

/// The frontmatter's `root` is not a mapping.
pub(crate) fn not_mapping(sink: &mut Sink, root: &Node) {
    sink.push(
        Rule::FrontmatterNotMapping,
        root.pos,
        format!(
            "the frontmatter must be a mapping of keys to values, found {}",
            root.kind()
        ),
    );
}

pub(crate) const DUPLICATE_KEY: RuleDoc = RuleDoc {
    code: "SA106",
    name: "duplicate-key",
    severity: Severity::Error,
    summary: "A key appears twice in one YAML mapping",
    what: "The same key appears twice in one YAML mapping.",
    why: "Parsers disagree on which value wins (first, last, or an error), so hosts read different skills from the same file.",
    example: "name: pdf\nname: pdf-tools\n\nFix: keep one `name`.",
    fix: None,
};

/// A key seen before in its mapping, by its text when it is a scalar.
pub(crate) fn duplicate_key(pos: Pos, key: Option<&str>) -> ParseFailure {
    ParseFailure {
        rule: Rule::DuplicateKey,
        pos,
        message: match key {
            Some(name) => format!("duplicate mapping key {}", quote(name)),
            None => "duplicate mapping key".to_owned(),
        },
    }
}

pub(crate) const YAML_LIMIT: RuleDoc = RuleDoc {
    code: "SA107",
    name: "yaml-limit",
    severity: Severity::Error,
    summary: "The frontmatter exceeds a safety limit (size, depth, aliases)",
    what: "The frontmatter hit one of skill-audit's safety limits: too large, too deeply nested, or too many aliases (\"billion laughs\").",
    why: "Frontmatter is a few hundred bytes in practice; one that expands without bound is an attack on whatever loads it.",
    example: "a: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\n...\n\nFix: write the frontmatter out plainly, without nested aliases.",
    fix: None,
};

/// Which limit the frontmatter went past, with the limit.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Limit {
    Events(usize),
    Documents,
    Aliases(usize),
    Anchors(usize),
    Depth(usize),
    Nodes(usize),
    /// Bytes of scalar text.
    Text(usize),
}

/// The frontmatter went past `limit`; the builder stops there.
pub(crate) fn yaml_limit(pos: Pos, limit: Limit) -> ParseFailure {
    let what = match limit {
        Limit::Events(max) => format!("more than {max} YAML events"),
        Limit::Documents => "more than one YAML document".to_owned(),
        Limit::Aliases(max) => format!("more than {max} aliases"),
        Limit::Anchors(max) => format!("more than {max} anchors"),
        Limit::Depth(max) => format!("nesting deeper than {max} levels"),
        Limit::Nodes(max) => format!("more than {max} YAML nodes"),
        Limit::Text(max) => format!("more than {} MiB of text", max >> 20),
    };
    ParseFailure {
        rule: Rule::YamlLimit,
        pos,
        message: format!("the frontmatter has {what}"),
    }
}

/// The YAML parser's own nesting limit, in its words (`text`).
pub(crate) fn yaml_too_deep(pos: Pos, text: String) -> ParseFailure {
    ParseFailure {
        rule: Rule::YamlLimit,
        pos,
        message: text,
    }
}

pub(crate) const SKILL_FILE_CASING: RuleDoc = RuleDoc {
    code: "SA108",
    name: "skill-file-casing",
    severity: Severity::Warning,
    summary: "The skill file is not named exactly `SKILL.md`",
    what: "The skill's file is named `skill.md`, `Skill.md` or another casing instead of exactly `SKILL.md`.",
    why: "Codex, GitHub Copilot and its CLI, Cursor and OpenClaw look for `SKILL.md` exactly (their built-in profiles' loading rules), so they skip the skill; VS Code, Claude Code, Gemini CLI and OpenCode ask the file system for `SKILL.md`, so they find another casing only where the file system ignores case (macOS, Windows), not on Linux.",
    example: "skills/pdf/skill.md\n\nFix: rename it to skills/pdf/SKILL.md.",
    fix: Some(FixDoc {
        applicability: Applicability::Unsafe,
        what: "Rename the file to `SKILL.md`; not offered when a file of that name, in any case, is beside it. Unsafe: links and manifests that name the old spelling no longer find it.",
    }),
};

/// A skill file named `name` in another casing than `SKILL.md`, at `fs_path`.
pub(crate) fn skill_file_casing(
    sink: &mut Sink,
    name: &str,
    fs_path: &Path,
    files: &dyn crate::files::Files,
) {
    let hosts = crate::words::and_list(crate::profile::builtin::exact_file_name_hosts());
    let fs = crate::words::and_list(crate::profile::builtin::file_system_name_hosts());
    let beside = same_name_beside(files, fs_path, "SKILL.md");
    let (message, fix) = if beside.iter().any(|n| n == "SKILL.md") {
        (
            format!(
                "{name} should be named `SKILL.md`, but a file of that name is beside it: {hosts} load that one; merge the two and remove {name}",
                name = quote(name)
            ),
            None,
        )
    } else if !beside.is_empty() {
        // No file has the exact name: which of them a host would take is no question, as
        // none is taken where case counts.
        let mut all = vec![quote(name)];
        all.extend(beside.iter().map(|n| quote(n)));
        let all: Vec<&str> = all.iter().map(String::as_str).collect();
        let (count, none, rest) = match all.len() {
            2 => ("two", "neither", "the other"),
            _ => ("several", "none", "the others"),
        };
        (
            format!(
                "{} are {count} casings of the skill file and {none} is `SKILL.md`: {hosts} look for that exact name and load {none}, and {fs} find {none} where the file system tells case apart (Linux); keep one, rename it to `SKILL.md` and remove {rest}",
                crate::words::and_list(&all)
            ),
            None,
        )
    } else {
        (
            format!(
                "{} should be named `SKILL.md`: {hosts} look for that exact name, and {fs} find it only where the file system ignores case (macOS, Windows)",
                quote(name)
            ),
            Some(Fix::rename(
                format!("rename {} to `SKILL.md`", quote(name)),
                renamed(sink.path, "SKILL.md"),
            )),
        )
    };
    sink.push_fixed(Rule::SkillFileCasing, Pos::START, message, fix);
}

/// The other files beside the file at `fs_path` that are named `to` in some case, sorted:
/// renaming it to `to` would meet them, as a checkout on a file system that ignores case could
/// not hold both. Its own name in another case is no obstacle. A folder that cannot be listed
/// holds none here: the rename itself is checked again when it is made. The folder is listed:
/// for a skill file in another case, of which a folder holds few.
fn same_name_beside(files: &dyn crate::files::Files, fs_path: &Path, to: &str) -> Vec<String> {
    let (Some(dir), Some(own)) = (fs_path.parent(), fs_path.file_name()) else {
        return Vec::new();
    };
    let own = own.to_string_lossy();
    let mut found: Vec<String> = (files.names_in(dir).unwrap_or_default().into_iter())
        .filter(|n| *n != own && n.eq_ignore_ascii_case(to))
        .collect();
    found.sort();
    found
}

pub(crate) const UTF8_BOM: RuleDoc = RuleDoc {
    code: "SA109",
    name: "utf8-bom",
    severity: Severity::Info,
    summary: "The file starts with a UTF-8 byte order mark",
    what: "The file starts with a UTF-8 byte order mark before the first `---`.",
    why: "skills-ref and other validators check that the file starts with `---` and reject it when a BOM comes first.",
    example: "\\uFEFF---\nname: my-skill\n\nFix: save the file as UTF-8 without BOM.",
    fix: Some(FixDoc {
        applicability: Applicability::Safe,
        what: "Remove the byte order mark; nothing else changes.",
    }),
};

/// The file starts with a byte order mark (its text is read without it);
/// `before_frontmatter`: a `---` follows it.
pub(crate) fn utf8_bom(sink: &mut Sink, before_frontmatter: bool) {
    let fix = sink
        .text()
        .filter(|t| t.starts_with(crate::parse::frontmatter::BOM))
        .map(|t| {
            let bom = crate::parse::frontmatter::BOM.len();
            Fix::safe(
                "remove the byte order mark",
                vec![span::edit(t, 0, bom, "")],
            )
        });
    sink.push_fixed(
        Rule::Utf8Bom,
        Pos::START,
        if before_frontmatter {
            "the file starts with a UTF-8 byte order mark; some validators then miss the frontmatter: save it without one"
        } else {
            "the file starts with a UTF-8 byte order mark, which some tools read as part of its first line: save it without one"
        },
        fix,
    );
}

/// The display path `path` with its file name replaced by `name`.
pub(crate) fn renamed(path: &str, name: &str) -> String {
    match path.rsplit_once('/') {
        Some((dir, _)) => format!("{dir}/{name}"),
        None => name.to_owned(),
    }
}

pub(crate) const OUTSIDE_TREE: RuleDoc = RuleDoc {
    code: "SA110",
    name: "outside-tree",
    severity: Severity::Error,
    summary: "A link or a manifest path leads outside the audited tree",
    what: "A symlink in the tree (a skill file, or a link to a folder in a `skills` folder, such as a linked skill folder), a path in a plugin manifest, a `[[links]]` entry or a link in a SKILL.md body (`../../..`, or through a folder of the tree that is a link) leads to a file whose real path is outside the audited roots and the git work tree holding them. skill-audit does not open it, nor look up whether it exists; the file that pointed there is still reported.",
    why: "An audited tree may come from a stranger (a pull request from a fork). Following its links out of the tree would put other files of the machine, such as `/proc/self/environ` with its tokens, into reports and CI logs. A host that follows the link loads a file the library does not ship.",
    example: "skills/pdf/SKILL.md -> /srv/notes/pdf.md\n\nFix: copy the file into the library, or audit a tree that holds both; pass `--follow-outside` only for trees you trust.",
    fix: None,
};

/// A path in a manifest or `[[links]]` (`what`, at `pos` of `file`) whose target's real path
/// leaves the audited tree.
fn listed_outside(
    file: &str,
    pos: Pos,
    what: impl std::fmt::Display,
    listed: impl std::fmt::Display,
) -> Finding {
    Finding::new(Rule::OutsideTree, file, pos, outside_message(what, listed))
}

fn outside_message(what: impl std::fmt::Display, listed: impl std::fmt::Display) -> String {
    format!(
        "{what} {} leads outside the audited tree, so it is not read; list a path inside the library, or pass --follow-outside for a tree you trust",
        quote(&listed.to_string())
    )
}

/// The `what` ("agent", "skill") path `listed` of the manifest at `manifest` leaves the tree.
pub(crate) fn manifest_path_outside(manifest: &str, pos: Pos, what: &str, listed: &str) -> Finding {
    listed_outside(manifest, pos, format_args!("{what} path"), listed)
}

/// A link to a folder in a `skills` folder, at `path`, whose real path leaves the audited
/// tree: a linked skill folder, which the walk does not follow.
pub(crate) fn skill_link_outside(path: &str) -> Finding {
    Finding::new(
        Rule::OutsideTree,
        path,
        Pos::START,
        "this link in a `skills` folder leads outside the audited tree, so nothing behind it is audited, while hosts that look for `skills/*/SKILL.md` follow it to whatever is there; copy the skill into the library, or audit a tree that holds it",
    )
}

/// A link of the body, to `target` at `pos`, leads out of the audited tree.
pub(crate) fn body_link_outside(sink: &mut Sink, pos: Pos, target: &str) {
    sink.push(Rule::OutsideTree, pos, outside_message("link", target));
}

/// A `[[links]]` entry names an agent file that leaves the tree.
pub(crate) fn link_agent_outside(entry: &crate::config::file::ConfigLink) -> Finding {
    listed_outside(
        &entry.file,
        entry.agent_at,
        "[[links]] agent",
        entry.agent.display(),
    )
}

pub(crate) const SPECIAL_FILE: RuleDoc = RuleDoc {
    code: "SA111",
    name: "special-file",
    severity: Severity::Error,
    summary: "A skill, agent or manifest name is taken by a FIFO, socket or device",
    what: "A file with a skill, agent or manifest name is a FIFO, a socket or a device (or a symlink to one), not a regular file. skill-audit never opens it.",
    why: "Opening a FIFO waits for a writer and reading a device may never end; no host can load such a file as a skill either.",
    example: "skills/x/SKILL.md is a named pipe (mkfifo).\nFix: replace it with a regular file.",
    fix: None,
};
pub(crate) const FILE_TOO_LARGE: RuleDoc = RuleDoc {
    code: "SA112",
    name: "file-too-large",
    severity: Severity::Error,
    summary: "The file is larger than skill-audit reads (16 MiB)",
    what: "The file holds more than 16 MiB. skill-audit reads no more of a file than that, whatever size the file system states, and reports the file as invalid.",
    why: "Real skills, agents and manifests are a few KiB; a file of gigabytes (or one that never ends) is a mistake or an attack on whatever loads it, and would exhaust memory.",
    example: "skills/data/SKILL.md is 3 GiB.\nFix: keep data files beside SKILL.md (`references/`, `assets/`) and link to them.",
    fix: None,
};

/// The finding for a file skill-audit would not or could not read (SA100, SA110-SA112).
pub(crate) fn refused(path: &str, why: &crate::boundary::Refusal) -> Finding {
    use crate::boundary::{MAX_FILE_BYTES, Refusal};
    let limit = MAX_FILE_BYTES >> 20;
    let (rule, message) = match why {
        Refusal::Outside => (
            Rule::OutsideTree,
            "its real path leaves the audited tree (it is a symlink, or lies behind one), so it is not read; audit a tree that holds its target, or pass --follow-outside for a tree you trust".to_owned(),
        ),
        Refusal::Special(what) => (
            Rule::SpecialFile,
            format!("it is {what}, not a regular file, so it is not opened; replace it with a regular file"),
        ),
        Refusal::TooLarge(Some(len)) => (
            Rule::FileTooLarge,
            format!("it is {len} bytes; skill-audit reads at most {limit} MiB of a file, so it is not audited"),
        ),
        Refusal::TooLarge(None) => (
            Rule::FileTooLarge,
            format!("it holds more than {limit} MiB, the most skill-audit reads of a file, so it is not audited"),
        ),
        Refusal::Io(e) => (Rule::ReadError, format!("cannot read: {e}")),
    };
    Finding::new(rule, path, Pos::START, message)
}

pub(crate) const SAME_FILE: RuleDoc = RuleDoc {
    code: "SA113",
    name: "same-file",
    severity: Severity::Info,
    summary: "The file is another path to a file audited under its first path",
    what: "The file is one already audited under another path: a symlink to it, a hard link, or the same file reached through two spellings of a root or a manifest path. It is audited once, under the first path.",
    why: "Auditing one file twice would double its findings and make it look like two skills; hosts that load both folders do see it twice, which may be what the library wants.",
    example: ".claude/skills/pdf/SKILL.md -> ../../../skills/pdf/SKILL.md\n\nNothing to fix if both places are meant; the findings are under skills/pdf/SKILL.md.",
    fix: None,
};

/// A file reached again by another path (SA113).
pub(crate) fn same_file(path: &str, audited_as: &str) -> Finding {
    Finding::new(
        Rule::SameFile,
        path,
        Pos::START,
        format!(
            "the same file as {} (a link or another path to it); it is audited once, under that path",
            quote(audited_as)
        ),
    )
}

pub(crate) const NESTED_SKILL: RuleDoc = RuleDoc {
    code: "SA114",
    name: "nested-skill",
    severity: Severity::Info,
    summary: "A SKILL.md inside another skill's folder is a file of that skill",
    what: "A `SKILL.md` whose folder is inside another skill's folder, with no `skills` folder between them. VS Code, GitHub Copilot and Claude Code load the folders one below a skills root, and OpenClaw looks no deeper than a folder that holds a `SKILL.md`, so they never load it as a skill: it is a file of the outer skill, which the model reads when the outer skill's body sends it there. It is audited as such a file (its links and the paths it names are checked) and has no row in the matrix, no name or frontmatter findings. Codex, which scans its skill roots up to six folders deep, does load it as a skill of its own.",
    why: "An author who meant it as a skill finds it missing from VS Code, GitHub Copilot, Claude Code and OpenClaw; one who meant it as a section of the outer skill gets it listed as a separate skill by Codex.",
    example: "skills/qdrant-scaling/SKILL.md and skills/qdrant-scaling/minimize-latency/SKILL.md.\n\nFix: if it is a skill, move its folder next to the outer skill's; if it is a section, link it from the outer skill's body (and, for Codex, name it other than SKILL.md).",
    fix: None,
};

/// The `SKILL.md` at `path` is a file of the skill at `outer` (SA114).
pub(crate) fn nested_skill(path: &str, outer: &str) -> Finding {
    Finding::new(
        Rule::NestedSkill,
        path,
        Pos::START,
        format!(
            "inside the folder of the skill {}: VS Code, GitHub Copilot and Claude Code load skills one folder below a skills root and OpenClaw looks no deeper than a folder with a SKILL.md, so they read this only as a file of that skill (Codex, which looks up to six folders deep, loads it as a skill too); it is audited as that skill's file. To make it a skill of its own, move its folder beside the outer skill's",
            quote(outer)
        ),
    )
}

/// Whether a finding on a `SKILL.md` still holds once the file is known to be another skill's
/// file (SA114): what concerns reading it, and what its links and paths name.
pub(crate) fn kept_by_documents(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::ReadError
            | Rule::NotUtf8
            | Rule::OutsideTree
            | Rule::SpecialFile
            | Rule::FileTooLarge
            | Rule::SameFile
            | Rule::InternalError
            | Rule::BrokenLink
            | Rule::BrokenReference
    )
}

pub(crate) const INTERNAL_ERROR: RuleDoc = RuleDoc {
    code: "SA199",
    name: "internal-error",
    severity: Severity::Error,
    summary: "skill-audit failed on this file; please report it",
    what: "skill-audit hit an unexpected internal failure while processing this file. The rest of the run went on.",
    why: "The file was not fully audited, so its other findings may be incomplete.",
    example: "Please report the file that triggers it; the run's other files are unaffected.",
    fix: None,
};

/// `what` went wrong inside skill-audit while it processed the file at `path`.
pub(crate) fn internal_error(path: &str, what: &str) -> Finding {
    Finding::new(
        Rule::InternalError,
        path,
        Pos::START,
        format!("internal error: {what}"),
    )
}
