//! SA231 and SA232: what a SKILL.md body refers to that is not there. The parser lists every
//! reference the body makes (`parse::markdown::references`, with the words around it); this
//! file decides which are worth reporting and asks [`Files`] about those alone, so the same
//! decision holds for a skill on disk, one an MCP server serves and one open in an editor.

use std::path::Path;

use super::RuleDoc;
use crate::diagnostic::{Pos, Severity, Sink};
use crate::files::{Files, Lookup};
use crate::parse::markdown::{RefKind, Reference};
use crate::rules::Rule;

/// Report the references of the skill in `dir` that point at nothing.
pub(crate) fn check(refs: &[Reference], dir: &Path, files: &dyn Files, sink: &mut Sink) {
    let mut names = Names::default();
    for r in refs {
        match r.kind {
            RefKind::Link => check_link(r, dir, files, &mut names, sink),
            RefKind::Code | RefKind::Bare => check_text_path(r, refs, dir, files, &mut names, sink),
        }
    }
}

fn check_link(r: &Reference, dir: &Path, files: &dyn Files, names: &mut Names, sink: &mut Sink) {
    match files.lookup(&dir.join(&r.target)) {
        Lookup::Outside => super::file::body_link_outside(sink, r.pos, &r.target),
        Lookup::Missing => {
            let hint = case_spelling(dir, &r.target, files, names);
            broken_link(sink, r.pos, &r.target, files.listed_for(), hint.as_deref());
        }
        // Where the file system ignores case, the name found must also be spelled as written.
        Lookup::File | Lookup::Folder if CASE_BLIND => {
            if let Some(hint) = case_spelling(dir, &r.target, files, names) {
                broken_link(sink, r.pos, &r.target, files.listed_for(), Some(&hint));
            }
        }
        Lookup::File | Lookup::Folder | Lookup::Unknown => {}
    }
}

fn check_text_path(
    r: &Reference,
    refs: &[Reference],
    dir: &Path,
    files: &dyn Files,
    names: &mut Names,
    sink: &mut Sink,
) {
    if !reportable(r, dir, files) {
        return;
    }
    // A link on the same line already says it.
    let linked = refs
        .iter()
        .any(|l| l.kind == RefKind::Link && l.pos.line == r.pos.line && l.target == r.target);
    if linked {
        return;
    }
    let hint = match files.lookup(&dir.join(&r.target)) {
        Lookup::Missing => {
            if has_template(dir, &r.target, files) {
                return;
            }
            case_spelling(dir, &r.target, files, names)
        }
        Lookup::File | Lookup::Folder if CASE_BLIND => {
            match case_spelling(dir, &r.target, files, names) {
                Some(hint) => Some(hint),
                None => return,
            }
        }
        _ => return,
    };
    broken_reference(sink, r, files.listed_for(), hint.as_deref());
}

/// File systems that find a name whatever its case (macOS, Windows by default): a path that is
/// found there may still be missing on a host that runs on Linux.
const CASE_BLIND: bool = cfg!(any(target_os = "macos", windows));

/// Would a path the text names be a file of the skill if it were there? Most paths of the text
/// name the user's files (`src/app.ts`): only those into the spec's folders for a skill's own
/// files, or into a folder the skill has, are.
fn reportable(r: &Reference, dir: &Path, files: &dyn Files) -> bool {
    let first = r.target.split('/').next().unwrap_or(&r.target);
    SKILL_FOLDERS.iter().any(|f| f.eq_ignore_ascii_case(first))
        || files.lookup(&dir.join(first)) == Lookup::Folder
}

/// Folders of the spec that hold the skill's own files, checked even when the skill lacks
/// them. Any other first folder (`assets/`, `templates/`, `examples/`, `src/`) counts only
/// when the skill has it: those names are as often the user's project.
const SKILL_FOLDERS: &[&str] = &["references", "scripts"];

/// Does the skill ship a template of `target` (`config.example.json` for `config.json`), so
/// that the file is one the user makes from it?
fn has_template(dir: &Path, target: &str, files: &dyn Files) -> bool {
    let (folder, file) = target.rsplit_once('/').unwrap_or(("", target));
    let Some((stem, ext)) = file.rsplit_once('.') else {
        return false;
    };
    ["example", "sample", "template", "dist"].iter().any(|t| {
        [format!("{stem}.{t}.{ext}"), format!("{file}.{t}")]
            .iter()
            .any(|name| files.lookup(&dir.join(folder).join(name)) != Lookup::Missing)
    })
}

/// The names of the folders listed for one skill's findings, each folder listed once: a
/// skill names several files of the same folder.
#[derive(Default)]
struct Names(Vec<(std::path::PathBuf, Option<Vec<String>>)>);

impl Names {
    fn of(&mut self, dir: &Path, files: &dyn Files) -> Option<&[String]> {
        let i = match self.0.iter().position(|(d, _)| d == dir) {
            Some(i) => i,
            None => {
                self.0.push((dir.to_path_buf(), files.names_in(dir)));
                self.0.len() - 1
            }
        };
        self.0[i].1.as_deref()
    }
}

/// The path `target` has under `dir` when its names match only ignoring case: for a link
/// written `Scripts/run.sh` to `scripts/run.sh`, `scripts/run.sh`. `None` when it is spelled
/// as written, or no such path exists.
fn case_spelling(dir: &Path, target: &str, files: &dyn Files, names: &mut Names) -> Option<String> {
    let mut at = dir.to_path_buf();
    let mut found = Vec::new();
    let mut differs = false;
    for part in target.split('/').filter(|p| !p.is_empty() && *p != ".") {
        if part == ".." {
            at.push(part);
            found.push(part.to_owned());
            continue;
        }
        let here = names.of(&at, files)?;
        // The name as written if it is there, else the first that differs only in case.
        let lower = part.to_lowercase();
        let exact = here
            .iter()
            .find(|n| *n == part)
            .or_else(|| here.iter().find(|n| n.to_lowercase() == lower))?
            .clone();
        differs |= exact != part;
        at.push(&exact);
        found.push(exact);
    }
    differs.then(|| found.join("/"))
}

pub(crate) const BROKEN_LINK: RuleDoc = RuleDoc {
    code: "SA231",
    name: "broken-link",
    severity: Severity::Warning,
    summary: "A relative link or image in the body points at a missing file",
    what: "A relative Markdown link or image in the body points at a file that does not exist, spelled exactly so (resolved from the SKILL.md's folder). A name that exists with another case gets a \"did you mean\". Paths named outside links are SA232.",
    why: "The model follows these links to load references and scripts on demand; a missing file makes it fail mid-task or invent the content.",
    example: "See [the guide](references/guide.md) when references/ has no guide.md.\n\nFix: add the file or correct the path.",
    fix: None,
};

/// `; did you mean `x`?` for a path spelled with another case, or nothing.
fn case_hint(hint: Option<&str>) -> String {
    hint.map(|h| format!("; did you mean `{h}`? (names are case-sensitive on most hosts)"))
        .unwrap_or_default()
}

/// The body links to `target`, which is not there: not beside SKILL.md, or not among the files
/// a server lists for the skill `listed_for` (`hint`: the path it has with another case).
fn broken_link(
    sink: &mut Sink,
    pos: Pos,
    target: &str,
    listed_for: Option<&str>,
    hint: Option<&str>,
) {
    let message = match (listed_for, hint) {
        (Some(uri), _) => format!(
            "`{target}` is not among the files `skills/list` lists for this skill ({}), and hosts treat reading an unlisted file as a verification failure; fix the link or list the file",
            resolve_uri(uri, target)
        ),
        (None, None) => format!(
            "`{target}` does not exist relative to this skill; fix the link or add the file"
        ),
        (None, Some(_)) => format!(
            "`{target}` does not exist relative to this skill{}",
            case_hint(hint)
        ),
    };
    sink.push(Rule::BrokenLink, pos, message);
}

/// `target`, relative to the served skill file `skill_uri`, as a URI.
pub(crate) fn resolve_uri(skill_uri: &str, target: &str) -> String {
    let (scheme, rest) = skill_uri.split_once("://").unwrap_or(("", skill_uri));
    let mut parts: Vec<&str> = rest.split('/').collect();
    parts.pop();
    for seg in target.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.len() > 1 {
                    parts.pop();
                }
            }
            s => parts.push(s),
        }
    }
    format!("{scheme}://{}", parts.join("/"))
}

pub(crate) const BROKEN_REFERENCE: RuleDoc = RuleDoc {
    code: "SA232",
    name: "broken-reference",
    severity: Severity::Warning,
    summary: "A path the body names outside a link points at a missing file",
    what: "The body names a file of the skill outside a Markdown link, as a whole code span (`` `references/guide.md` ``) or as a word (see scripts/run.sh), and that file does not exist, spelled exactly so, relative to the SKILL.md's folder. Only what looks like a relative path into the skill counts: a `/`, a file extension, no blanks, globs, `<`, `{`, `$` or URL scheme, not absolute, starting with `references/` or `scripts/` (the spec's folders for the skill's own files) or with a folder the skill has (`assets/`, `templates/`, ... count only then: they are as often the user's project). Fenced code blocks are skipped: they hold example commands. Placeholders (`references/filename.md`, `phase_prompts/phaseN.md`) and files the skill ships a template of (`config.json` beside `config.example.json`) are not reported. A name that exists with another case gets a \"did you mean\".",
    why: "The model reads such paths as it reads links, and loads or runs the file on demand; a missing one makes it fail mid-task or invent the content. A case mismatch works on macOS and breaks on Linux hosts.",
    example: "Run `scripts/Deploy.sh` when the file is scripts/deploy.sh.\n\nFix: Run `scripts/deploy.sh`.",
    fix: None,
};

/// The body names `r`'s target outside a link, and it is not there (`hint`: the path it has
/// with another case).
fn broken_reference(sink: &mut Sink, r: &Reference, listed_for: Option<&str>, hint: Option<&str>) {
    let target = &r.target;
    let how = if r.kind == RefKind::Code {
        "named in code"
    } else {
        "named in the text"
    };
    let message = match listed_for {
        Some(uri) => format!(
            "`{target}` ({how}) is not among the files `skills/list` lists for this skill ({}); fix the path or list the file",
            resolve_uri(uri, target)
        ),
        None => {
            let fix = if hint.is_some() {
                case_hint(hint)
            } else {
                "; fix the path or add the file".to_owned()
            };
            format!("`{target}` ({how}) does not exist relative to this skill{fix}")
        }
    };
    sink.push(Rule::BrokenReference, r.pos, message);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Boundary;

    /// One skill's findings list each folder once: a name added afterwards is not seen, and
    /// the spellings found are those of the folder as first listed.
    #[test]
    fn case_spellings_share_the_folders_listed() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("References")).expect("mkdir");
        std::fs::write(dir.path().join("References/Guide.md"), "").expect("write");
        let boundary = Boundary::none();
        let tree = crate::files::Tree::new(&boundary);
        let mut names = Names::default();
        let hint = case_spelling(dir.path(), "references/guide.md", &tree, &mut names);
        assert_eq!(hint.as_deref(), Some("References/Guide.md"));
        std::fs::write(dir.path().join("References/Other.md"), "").expect("write");
        assert_eq!(
            case_spelling(dir.path(), "references/other.md", &tree, &mut names),
            None
        );
        let fresh = case_spelling(
            dir.path(),
            "references/other.md",
            &tree,
            &mut Names::default(),
        );
        assert_eq!(fresh.as_deref(), Some("References/Other.md"));
    }

    #[test]
    fn uris_resolve_against_the_skill_folder() {
        let uri = "skill://acme/pdf/SKILL.md";
        assert_eq!(
            resolve_uri(uri, "references/a.md"),
            "skill://acme/pdf/references/a.md"
        );
        assert_eq!(resolve_uri(uri, "./x/../b.md"), "skill://acme/pdf/b.md");
        assert_eq!(resolve_uri(uri, "../../../up.md"), "skill://acme/up.md");
    }
}
