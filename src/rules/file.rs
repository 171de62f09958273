//! SA1xx: reading a file and splitting off its frontmatter. These findings are emitted by the
//! `parse` stage; a file with any SA1xx error is reported as `invalid`.

use super::RuleDoc;

pub const READ_ERROR: RuleDoc = RuleDoc {
    what: "A file or folder found by the walk could not be read (permissions, a broken or looping symlink, an I/O error).",
    why: "Whatever is in it is invisible to the audit and, most likely, to the hosts that load the library.",
    example: "skills/x/SKILL.md is a symlink to a file that no longer exists.\nFix: restore the target or remove the link.",
};
pub const NOT_UTF8: RuleDoc = RuleDoc {
    what: "The file contains bytes that are not valid UTF-8. The finding points at the first bad byte.",
    why: "Hosts read SKILL.md as UTF-8; invalid bytes make them reject the file or garble its text.",
    example: "A description saved as Latin-1: `description: caf\\xe9`.\nFix: re-save the file as UTF-8.",
};
pub const MISSING_FRONTMATTER: RuleDoc = RuleDoc {
    what: "The first line of the file is not `---`, so the file has no YAML frontmatter.",
    why: "Every host reads `name` and `description` from the frontmatter; without it the skill is skipped or listed without a description.",
    example: "# My skill\nname: my-skill\n\nFix:\n---\nname: my-skill\ndescription: What it does and when to use it.\n---\n# My skill",
};
pub const UNCLOSED_FRONTMATTER: RuleDoc = RuleDoc {
    what: "The frontmatter opens with `---` but no later line is exactly `---`.",
    why: "Hosts cannot tell where the YAML ends; most reject the file, some read the whole body as YAML.",
    example: "---\nname: my-skill\ndescription: Does things.\n# My skill\n\nFix: add a line `---` after the last YAML line.",
};
pub const YAML_SYNTAX: RuleDoc = RuleDoc {
    what: "The text between the `---` lines is not valid YAML.",
    why: "A host that cannot parse the frontmatter drops the skill or loads it with no fields.",
    example: "description: Use when: the user asks\n\nFix: quote values that contain `: ` or ` #`:\ndescription: \"Use when: the user asks\"",
};
pub const NOT_MAPPING: RuleDoc = RuleDoc {
    what: "The frontmatter parsed, but it is not a mapping of keys to values (it is empty, a list or a scalar).",
    why: "Every field of a skill is a key of that mapping; a list or scalar holds none of them.",
    example: "---\n- name: my-skill\n---\n\nFix:\n---\nname: my-skill\ndescription: Does things.\n---",
};
pub const DUPLICATE_KEY: RuleDoc = RuleDoc {
    what: "The same key appears twice in one YAML mapping.",
    why: "Parsers disagree on which value wins (first, last, or an error), so hosts read different skills from the same file.",
    example: "name: pdf\nname: pdf-tools\n\nFix: keep one `name`.",
};
pub const YAML_LIMIT: RuleDoc = RuleDoc {
    what: "The frontmatter hit one of skill-audit's safety limits: too large, too deeply nested, or too many aliases (\"billion laughs\").",
    why: "Frontmatter is a few hundred bytes in practice; one that expands without bound is an attack on whatever loads it.",
    example: "a: &a [x, x, x, x]\nb: &b [*a, *a, *a, *a]\n...\n\nFix: write the frontmatter out plainly, without nested aliases.",
};
pub const SKILL_FILE_CASING: RuleDoc = RuleDoc {
    what: "The skill's file is named `skill.md`, `Skill.md` or another casing instead of exactly `SKILL.md`.",
    why: "Claude Code and Codex look for `SKILL.md` exactly; on case-sensitive file systems other casings are not found at all.",
    example: "skills/pdf/skill.md\n\nFix: rename it to skills/pdf/SKILL.md.",
};
pub const UTF8_BOM: RuleDoc = RuleDoc {
    what: "The file starts with a UTF-8 byte order mark before the first `---`.",
    why: "skills-ref and other validators check that the file starts with `---` and reject it when a BOM comes first.",
    example: "\\uFEFF---\nname: my-skill\n\nFix: save the file as UTF-8 without BOM.",
};
pub const INTERNAL_ERROR: RuleDoc = RuleDoc {
    what: "skill-audit hit an unexpected internal failure while processing this file. The rest of the run went on.",
    why: "The file was not fully audited, so its other findings may be incomplete.",
    example: "Please report the file that triggers it; the run's other files are unaffected.",
};
