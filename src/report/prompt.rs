//! `to-prompt`: the `<available_skills>` block a host puts in its system prompt, listing the
//! skills one environment (profile) can run. The block has the layout of the Agent Skills
//! reference validator's `skills-ref to-prompt`: one `<skill>` per skill with `<name>`,
//! `<description>` and `<location>` (the `SKILL.md` path), every tag and every value on a line
//! of its own, values XML-escaped as Python's `html.escape` does.
//!
//! A skill is surfaced when the audit finds it `available` or `undeclared` in the profile, it
//! does not set `disable-model-invocation: true` (such a skill is the user's to invoke, and
//! hosts keep it out of the model's list) and it has a description (the model chooses by it;
//! skills-ref refuses a skill without one). On request the others are listed too, each with an
//! `<unavailable reason="..."/>` child after the elements skills-ref defines, so a host that
//! reads only those still reads the block.

use serde::Serialize;
use std::io::{self, Write};
use std::path::Path;

use super::Report;
use crate::evaluate::{Availability, Status};
use crate::model::Skill;

/// The two renderings of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum PromptFormat {
    /// The `<available_skills>` block.
    Text,
    /// The same list as a JSON array.
    Json,
}

/// Which skills to list, and how to show where they are.
#[derive(Clone, Copy, Debug)]
pub struct PromptOptions<'a> {
    /// The profile whose availability decides (a name in the report's `profiles`).
    pub profile: &'a str,
    /// Also list the skills the profile does not surface, with their status and reason.
    pub include_unavailable: bool,
    /// `Some(cwd)`: each location is absolute, the skill's path joined to `cwd` and
    /// normalised without following symlinks. `None`: the path as the audit shows it.
    pub absolute_from: Option<&'a Path>,
}

/// One skill of the list: the shape of each element of the JSON array.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PromptSkill {
    pub name: String,
    /// Empty when the skill has none.
    pub description: String,
    /// The skill's `SKILL.md`.
    pub location: String,
    /// The skill's availability in the profile, as the audit reports it.
    pub status: Status,
    /// Whether a host would list it: the `<available_skills>` block holds these only.
    pub surfaced: bool,
    /// Why it is not surfaced: present exactly when `surfaced` is false.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The SHA-256 of its file: skills of one name with the same are copies of one file.
    #[serde(skip)]
    pub file_digest: [u8; 32],
}

/// Whether a host would put a skill of this status in its prompt: `available`, and
/// `undeclared`, `not-judged` and `needs-nothing` (nothing the profile describes is missing). Any other
/// status, including ones added later, is not surfaced.
pub fn surfaced(status: Status) -> bool {
    matches!(
        status,
        Status::Available | Status::Undeclared | Status::NotJudged | Status::NeedsNothing
    )
}

/// Why a host would leave this skill out of its prompt, or `None` when it would list it.
fn left_out(skill: &Skill, a: &Availability) -> Option<String> {
    if !surfaced(a.status) {
        return Some(
            a.reason
                .clone()
                .unwrap_or_else(|| a.status.as_str().to_owned()),
        );
    }
    if skill.fields.invocation.disable_model_invocation == Some(true) {
        return Some("`disable-model-invocation` is true: only a user can invoke it".to_owned());
    }
    if skill.invalid {
        // The host may read it with a reader of its own, but no description is known here.
        return Some(format!(
            "{}, so its description is unknown",
            crate::report::UNREADABLE
        ));
    }
    let described = skill
        .description
        .as_deref()
        .is_some_and(|d| !d.trim().is_empty());
    (!described).then(|| "no `description`: nothing tells the model when to use it".to_owned())
}

/// The skills to list, sorted by name, then path.
pub fn skills(report: &Report, opts: &PromptOptions<'_>) -> Vec<PromptSkill> {
    let judged = report.skills.iter().filter_map(|e| {
        let a = e.availability.get(opts.profile)?;
        Some((e.skill.as_ref(), a))
    });
    list(judged, opts.include_unavailable, opts.absolute_from)
}

/// The list of `skills`, each with its availability in one environment, however that was
/// judged (the report's profiles, or one built for a caller): sorted by name, then path.
pub fn list<'a>(
    skills: impl Iterator<Item = (&'a Skill, &'a Availability)>,
    include_unavailable: bool,
    absolute_from: Option<&Path>,
) -> Vec<PromptSkill> {
    let mut picked: Vec<(&Skill, &Availability, Option<String>)> = skills
        .filter_map(|(skill, a)| {
            let reason = left_out(skill, a);
            (include_unavailable || reason.is_none()).then_some((skill, a, reason))
        })
        .collect();
    picked.sort_by(|(a, ..), (b, ..)| (&a.name, &a.path).cmp(&(&b.name, &b.path)));
    picked
        .into_iter()
        .map(|(skill, a, reason)| PromptSkill {
            name: skill.name.clone(),
            description: skill.description.clone().unwrap_or_default(),
            location: location(skill, absolute_from),
            status: a.status,
            surfaced: reason.is_none(),
            reason,
            file_digest: skill.fields.file_digest,
        })
        .collect()
}

fn location(skill: &Skill, absolute_from: Option<&Path>) -> String {
    match absolute_from {
        Some(cwd) if !skill.fs_path.as_os_str().is_empty() => {
            crate::paths::normalize(&cwd.join(&skill.fs_path))
                .to_string_lossy()
                .into_owned()
        }
        _ => skill.path.clone(),
    }
}

/// Write `skills` as `format`.
pub fn render(skills: &[PromptSkill], format: PromptFormat, out: &mut dyn Write) -> io::Result<()> {
    match format {
        PromptFormat::Text => out.write_all(text(skills).as_bytes()),
        PromptFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, skills).map_err(io::Error::other)?;
            writeln!(out)
        }
    }
}

/// The `<available_skills>` block, ending in a newline.
pub fn text(skills: &[PromptSkill]) -> String {
    let mut s = String::from("<available_skills>\n");
    for skill in skills {
        s.push_str("<skill>\n");
        for (tag, value) in [
            ("name", &skill.name),
            ("description", &skill.description),
            ("location", &skill.location),
        ] {
            s.push('<');
            s.push_str(tag);
            s.push_str(">\n");
            escape(value, false, &mut s);
            s.push_str("\n</");
            s.push_str(tag);
            s.push_str(">\n");
        }
        if !skill.surfaced {
            s.push_str("<unavailable reason=\"");
            let reason = skill.reason.as_deref().unwrap_or(skill.status.as_str());
            escape(reason, true, &mut s);
            s.push_str("\"/>\n");
        }
        s.push_str("</skill>\n");
    }
    s.push_str("</available_skills>\n");
    s
}

/// Append `text` XML-escaped: `&`, `<`, `>`, `"` and `'` as `html.escape` writes them; a
/// carriage return, DEL, C1 controls and bidirectional controls as character references, so
/// they neither drive a terminal nor hide text; and the characters XML 1.0 cannot carry at
/// all (other C0 controls, U+FFFE, U+FFFF) as U+FFFD. In an attribute (`attribute`), tabs and
/// line feeds are references too, so a parser does not turn them into spaces.
fn escape(text: &str, attribute: bool, out: &mut String) {
    use std::fmt::Write as _;
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            '\t' | '\n' if !attribute => out.push(c),
            '\t' | '\n' | '\r' | '\u{7f}'..='\u{9f}' | '\u{200e}' | '\u{200f}' => {
                let _ = write!(out, "&#x{:X};", c as u32);
            }
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {
                let _ = write!(out, "&#x{:X};", c as u32);
            }
            '\0'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(text: &str, attribute: bool) -> String {
        let mut s = String::new();
        escape(text, attribute, &mut s);
        s
    }

    #[test]
    fn escapes_as_html_escape_does() {
        assert_eq!(
            escaped(r#"Use <foo> & "bar" 'baz'"#, false),
            "Use &lt;foo&gt; &amp; &quot;bar&quot; &#x27;baz&#x27;"
        );
        assert_eq!(escaped("plain, é ✓", false), "plain, é ✓");
    }

    #[test]
    fn controls_never_reach_the_terminal_and_the_block_stays_xml() {
        assert_eq!(escaped("a\nb\tc", false), "a\nb\tc");
        assert_eq!(escaped("a\nb\tc", true), "a&#xA;b&#x9;c");
        assert_eq!(
            escaped("\r\u{1b}[2J\u{7f}\u{9b}", false),
            "&#xD;\u{fffd}[2J&#x7F;&#x9B;"
        );
        assert_eq!(
            escaped("\u{202e}txt.exe\u{2066}\u{200f}", false),
            "&#x202E;txt.exe&#x2066;&#x200F;"
        );
        assert_eq!(
            escaped("\0\u{fffe}\u{ffff}", false),
            "\u{fffd}\u{fffd}\u{fffd}"
        );
    }

    #[test]
    fn only_available_undeclared_and_not_judged_are_surfaced() {
        for status in Status::ALL {
            assert_eq!(
                surfaced(status),
                matches!(
                    status,
                    Status::Available
                        | Status::Undeclared
                        | Status::NotJudged
                        | Status::NeedsNothing
                ),
                "{status:?}"
            );
        }
    }

    fn skill(name: &str, status: Status, reason: Option<&str>) -> PromptSkill {
        PromptSkill {
            name: name.into(),
            description: format!("Does {name} things."),
            location: format!("/lib/{name}/SKILL.md"),
            status,
            surfaced: reason.is_none(),
            reason: reason.map(Into::into),
            file_digest: [0; 32],
        }
    }

    #[test]
    fn the_block_has_the_reference_layout() {
        assert_eq!(text(&[]), "<available_skills>\n</available_skills>\n");
        let block = text(&[
            skill("a", Status::Available, None),
            skill("b", Status::Unavailable, Some("missing tool `x`")),
        ]);
        assert_eq!(
            block,
            "<available_skills>\n<skill>\n<name>\na\n</name>\n<description>\nDoes a things.\n\
             </description>\n<location>\n/lib/a/SKILL.md\n</location>\n</skill>\n<skill>\n\
             <name>\nb\n</name>\n<description>\nDoes b things.\n</description>\n<location>\n\
             /lib/b/SKILL.md\n</location>\n\
             <unavailable reason=\"missing tool `x`\"/>\n</skill>\n\
             </available_skills>\n"
        );
    }
}
