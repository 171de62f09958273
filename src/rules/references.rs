//! SA231 and SA232: what a SKILL.md body refers to that is not there. The parser reads what
//! the body refers to without a Markdown parse (`parse::markdown::scan`: the paths written
//! outside links, with the words around them, and the targets its links may have); this file
//! decides which references are worth reporting and asks [`Files`] about those alone, so the
//! same decision holds for a skill on disk, one an MCP server serves and one open in an
//! editor. It parses the links (`parse::markdown::links`) only when a target may be missing:
//! most bodies' links all resolve.

use std::path::{Path, PathBuf};

use super::{FixDoc, RuleDoc};
use crate::diagnostic::{Applicability, Fix, Pos, Severity, Sink, quote};
use crate::files::{Files, Lookup};
use crate::parse::markdown::{self, Body, RefKind, Reference};
use crate::rules::Rule;

/// Report what the body of the skill in `dir` refers to that points at nothing; `text` is the
/// file the body is part of.
pub(crate) fn check(body: &Body, text: &[u8], dir: &Path, files: &dyn Files, sink: &mut Sink) {
    let mut seen = Seen::new(files);
    let fine = |l: Lookup| matches!(l, Lookup::File | Lookup::Folder | Lookup::Unknown);
    let may_break = CASE_BLIND
        || body.uncertain
        || body
            .link_targets
            .iter()
            .any(|t| !fine(seen.lookup(&dir.join(t))));
    let body_text = text
        .get(body.start..)
        .filter(|_| may_break)
        .and_then(|t| std::str::from_utf8(t).ok());
    let links = body_text.map_or_else(Vec::new, |b| markdown::links(b, body.first_line));
    for r in &links {
        check_link(r, dir, &mut seen, sink);
    }
    // What a path of the text is checked against, gathered once: a body may name thousands.
    let context = Context {
        text_paths: &body.text_paths,
        users: std::cell::OnceCell::new(),
        linked: links
            .iter()
            .map(|l| (l.pos.line, l.target.as_str()))
            .collect(),
    };
    for r in &body.text_paths {
        check_text_path(r, &context, dir, &mut seen, sink);
    }
}

/// What the rest of a body says about the paths of its text.
struct Context<'b> {
    text_paths: &'b [Reference],
    /// First folders the text makes the user's ([`users_folders`]), gathered when first
    /// asked: most paths are settled before the question comes up.
    users: std::cell::OnceCell<foldhash::HashSet<&'b str>>,
    /// Each link's line and target (when the links were parsed).
    linked: foldhash::HashSet<(u32, &'b str)>,
}

impl Context<'_> {
    fn users(&self) -> &foldhash::HashSet<&str> {
        self.users.get_or_init(|| users_folders(self.text_paths))
    }
}

/// [`Files`], with each answer kept for the rest of the skill: a body names the same file,
/// and files in the same folder, more than once.
struct Seen<'f> {
    files: &'f dyn Files,
    looked_up: foldhash::HashMap<PathBuf, Lookup>,
    names: Names,
    /// By line number, where the line's first phrase that gives an example ends
    /// ([`example_ends`]): a line may hold thousands of references.
    examples: foldhash::HashMap<u32, Option<usize>>,
}

impl<'f> Seen<'f> {
    fn new(files: &'f dyn Files) -> Self {
        Seen {
            files,
            looked_up: foldhash::HashMap::default(),
            names: Names::default(),
            examples: foldhash::HashMap::default(),
        }
    }

    fn lookup(&mut self, path: &Path) -> Lookup {
        if let Some(l) = self.looked_up.get(path) {
            return *l;
        }
        let l = self.files.lookup(path);
        self.looked_up.insert(path.to_owned(), l);
        l
    }
}

fn check_link(r: &Reference, dir: &Path, seen: &mut Seen<'_>, sink: &mut Sink) {
    let files = seen.files;
    match seen.lookup(&dir.join(&r.target)) {
        Lookup::Outside => super::file::body_link_outside(sink, r.pos, &r.target),
        Lookup::Missing if an_example(r, seen) || in_sibling_skill(dir, &r.target, seen) => {}
        Lookup::Missing => {
            let hint = meant(dir, &r.target, seen);
            broken_link(sink, r, files.listed_for(), hint.as_ref());
        }
        // Where the file system ignores case, the name found must also be spelled as written.
        Lookup::File | Lookup::Folder if CASE_BLIND => {
            if let Some(hint) = case_spelling(dir, &r.target, seen) {
                let hint = Hint::Case(hint);
                broken_link(sink, r, files.listed_for(), Some(&hint));
            }
        }
        Lookup::File | Lookup::Folder | Lookup::Unknown => {}
    }
}

/// A path of the text, `r`; the links of `context` are the body's when they were parsed (when
/// every link target resolves they were not, and none of them names a missing file).
fn check_text_path(
    r: &Reference,
    context: &Context<'_>,
    dir: &Path,
    seen: &mut Seen<'_>,
    sink: &mut Sink,
) {
    if !reportable(r, context, dir, seen) {
        return;
    }
    // A link on the same line already says it.
    if context.linked.contains(&(r.pos.line, r.target.as_str())) {
        return;
    }
    let hint = match seen.lookup(&dir.join(&r.target)) {
        Lookup::Missing => {
            if has_template(dir, &r.target, seen) || in_sibling_skill(dir, &r.target, seen) {
                return;
            }
            meant(dir, &r.target, seen)
        }
        Lookup::File | Lookup::Folder if CASE_BLIND => match case_spelling(dir, &r.target, seen) {
            Some(hint) => Some(Hint::Case(hint)),
            None => return,
        },
        _ => return,
    };
    broken_reference(sink, r, seen.files.listed_for(), hint.as_ref());
}

/// File systems that find a name whatever its case (macOS, Windows by default): a path that is
/// found there may still be missing on a host that runs on Linux.
const CASE_BLIND: bool = cfg!(any(target_os = "macos", windows));

/// Would a path the text names be a file of the skill if it were there? Most paths of the text
/// name the user's files (`src/app.ts`, the `conductor/` folder a skill manages). A path into
/// the spec's folders for a skill's own files, or into a folder the skill has, is one of the
/// skill's. Into any other folder, the words around it decide: the model is told to open,
/// read, load, see or run it (or it is listed under a heading such as "Resources"), it is not
/// given as an example, and nothing in the body makes that folder the user's (writing or
/// creating files in it, asking whether they exist, a project folder such as `src/`).
fn reportable(r: &Reference, context: &Context<'_>, dir: &Path, seen: &mut Seen<'_>) -> bool {
    // An example of a path (what a skill-writing skill shows the reader to write) names no
    // file of this skill, whatever its folder.
    if an_example(r, seen) {
        return false;
    }
    let first = first_folder(&r.target);
    SKILL_FOLDERS.iter().any(|f| f.eq_ignore_ascii_case(first))
        || seen.lookup(&dir.join(first)) == Lookup::Folder
        || (told_to_use(r) && !users_folder(first, context.users()))
}

fn first_folder(target: &str) -> &str {
    target.split('/').next().unwrap_or(target)
}

/// Folders of the spec that hold the skill's own files, checked even when the skill lacks
/// them.
const SKILL_FOLDERS: &[&str] = &["references", "scripts"];

/// Words that tell the model to take a file up: "open `resources/playbook.md`".
const USE_WORDS: &[&str] = &[
    "open", "opens", "read", "reads", "load", "loads", "see", "consult", "refer", "review",
    "follow", "use", "using", "run", "execute", "source", "check",
];

/// Words that write a file, making its folder the user's: "create `conductor/tracks.md`".
const WRITE_WORDS: &[&str] = &[
    "create",
    "creates",
    "created",
    "write",
    "writes",
    "written",
    "generate",
    "generates",
    "generated",
    "produce",
    "produces",
    "save",
    "saves",
    "saved",
    "update",
    "updates",
    "add",
    "adds",
    "register",
    "initialize",
    "init",
    "output",
    "outputs",
    "edit",
    "modify",
    "append",
    "store",
    "stores",
    "emit",
    "emits",
    "make",
    "build",
    "builds",
    "results",
];

/// First folders that are a project's own, whatever the words around them say.
const PROJECT_FOLDERS: &[&str] = &[
    "src",
    "lib",
    "app",
    "apps",
    "test",
    "tests",
    "spec",
    "packages",
    "components",
    "pages",
    "public",
    "build",
    "dist",
    "bin",
    "cmd",
    "internal",
    "pkg",
    "config",
    "infra",
    "deploy",
    "docs",
    "api",
    "server",
    "client",
    "web",
    "frontend",
    "backend",
    "data",
    "results",
    "output",
    "outputs",
    "node_modules",
    "vendor",
];

/// Section titles that list a skill's own files.
const RESOURCE_SECTIONS: &[&str] = &[
    "resource",
    "reference",
    "bundled",
    "supporting",
    "further reading",
];

/// The lowercase words of `text`, punctuation and Markdown marks dropped.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric() && c != '-' && c != '.')
        .map(|w| w.trim_matches(['.', '-']).to_lowercase())
        .filter(|w| !w.is_empty())
        .collect()
}

/// The last few words before `r` in its clause: from the last comma, colon, semicolon,
/// parenthesis or code span before it on its line ("See `a.md` and `b.md`": none for `b.md`).
/// Read backwards from `r`, no further than those words: a line may hold thousands of
/// references.
fn leading_words(r: &Reference) -> Vec<String> {
    const KEEP: usize = 6;
    let before = r.before().trim_end_matches('`');
    let mut w = Vec::new();
    let mut end = before.len();
    let mut clause_start = true;
    for (i, c) in before.char_indices().rev() {
        if c.is_alphanumeric() || c == '-' || c == '.' {
            continue;
        }
        w.extend(words(&before[i + c.len_utf8()..end]));
        end = i;
        if w.len() >= KEEP || matches!(c, '`' | ',' | ';' | ':' | '(') {
            clause_start = false;
            break;
        }
    }
    if clause_start {
        w.extend(words(&before[..end]));
    }
    w.truncate(KEEP);
    w.reverse();
    w
}

/// Is the model told to take `r` up: a word of [`USE_WORDS`] just before it, or `r` is an item
/// of a list or table under a heading that lists the skill's files?
fn told_to_use(r: &Reference) -> bool {
    if leading_words(r)
        .iter()
        .any(|w| USE_WORDS.contains(&w.as_str()))
    {
        return true;
    }
    let item = r.line.trim_start().starts_with(['-', '*', '+', '|'])
        || r.line
            .trim_start()
            .starts_with(|c: char| c.is_ascii_digit());
    let listed = r.section.as_deref().is_some_and(|s| {
        let s = s.to_lowercase();
        RESOURCE_SECTIONS.iter().any(|t| s.contains(t))
    });
    item && listed
}

/// Is `r` given as an example ("e.g. `references/api.md`", "such as ...", "for example")?
fn an_example(r: &Reference, seen: &mut Seen<'_>) -> bool {
    // A section that shows examples or a template of a skill (`## Example`, `## Template`),
    // or the lines of a document's template, whatever their heading.
    if r.in_template {
        return true;
    }
    if r.section.as_deref().is_some_and(|s| {
        let s = s.to_lowercase();
        s.contains("example") || s.contains("template")
    }) {
        return true;
    }
    let ends = *seen
        .examples
        .entry(r.pos.line)
        .or_insert_with(|| example_ends(&r.line));
    ends.is_some_and(|end| end <= r.at && r.line.is_char_boundary(r.at))
}

/// Phrases that give what follows as an example, lowercase.
const EXAMPLE_PHRASES: &[&str] = &[
    "e.g",
    "for example",
    "example:",
    "such as",
    "for instance",
    "like `",
];

/// Where on `line` (in bytes) the first of [`EXAMPLE_PHRASES`] to be complete ends, in any
/// case: a reference after that point has one before it.
fn example_ends(line: &str) -> Option<usize> {
    let lowered = line.to_lowercase();
    let end = EXAMPLE_PHRASES
        .iter()
        .filter_map(|p| lowered.find(p).map(|at| at + p.len()))
        .min()?;
    if lowered.len() == line.len() && line.is_ascii() {
        return Some(end);
    }
    // Lowering may change a character's length: the end is that of the character whose
    // lowered form holds the phrase's last byte.
    let mut lowered_len = 0;
    line.char_indices()
        .find(|(_, c)| {
            lowered_len += c.to_lowercase().map(char::len_utf8).sum::<usize>();
            lowered_len >= end
        })
        .map(|(i, c)| i + c.len_utf8())
}

/// Does the body treat the folder `first` as the user's: a project folder, or one of `users`?
fn users_folder(first: &str, users: &foldhash::HashSet<&str>) -> bool {
    PROJECT_FOLDERS
        .iter()
        .any(|f| f.eq_ignore_ascii_case(first))
        || users.contains(first)
}

/// The first folders of `refs` the body writes files into or asks whether files in them exist.
fn users_folders(refs: &[Reference]) -> foldhash::HashSet<&str> {
    let mut users = foldhash::HashSet::default();
    // By line number: does the line ask whether files exist? Asked once per line.
    let mut asks: foldhash::HashMap<u32, bool> = foldhash::HashMap::default();
    for o in refs {
        let first = first_folder(&o.target);
        if users.contains(first) {
            continue;
        }
        let asks = *asks.entry(o.pos.line).or_insert_with(|| {
            let line = o.line.to_lowercase();
            line.contains("exist") || line.contains("missing")
        });
        if leading_words(o)
            .iter()
            .any(|w| WRITE_WORDS.contains(&w.as_str()))
            || asks
        {
            users.insert(first);
        }
    }
    users
}

/// Is `target`, written `../other/rest`, a file of the skill folder `other` that the library
/// keeps under another category folder (`skills/cat2/other/rest` for a skill in
/// `skills/cat1/`)? Hosts install skills side by side, one folder below one root, where such a
/// link resolves.
fn in_sibling_skill(dir: &Path, target: &str, seen: &mut Seen<'_>) -> bool {
    let Some(rest) = target.strip_prefix("../") else {
        return false;
    };
    let Some((other, inside)) = rest.split_once('/') else {
        return false;
    };
    if other.is_empty() || other == ".." || other == "." || inside.is_empty() {
        return false;
    }
    let Some(categories) = dir.parent().and_then(Path::parent) else {
        return false;
    };
    let Some(names) = seen
        .names
        .of(categories, seen.files)
        .map(<[String]>::to_vec)
    else {
        return false;
    };
    names.iter().any(|category| {
        let candidate = categories.join(category).join(other).join(inside);
        matches!(seen.lookup(&candidate), Lookup::File | Lookup::Folder)
    })
}

/// Does the skill ship a template of `target` (`config.example.json` for `config.json`), so
/// that the file is one the user makes from it?
fn has_template(dir: &Path, target: &str, seen: &mut Seen<'_>) -> bool {
    let (folder, file) = target.rsplit_once('/').unwrap_or(("", target));
    let Some((stem, ext)) = file.rsplit_once('.') else {
        return false;
    };
    ["example", "sample", "template", "dist"].iter().any(|t| {
        [format!("{stem}.{t}.{ext}"), format!("{file}.{t}")]
            .iter()
            .any(|name| seen.lookup(&dir.join(folder).join(name)) != Lookup::Missing)
    })
}

/// The names of the folders listed for one skill's findings, each folder listed once: a
/// skill names several files of the same folder.
#[derive(Default)]
struct Names(foldhash::HashMap<PathBuf, Option<Vec<String>>>);

impl Names {
    fn of(&mut self, dir: &Path, files: &dyn Files) -> Option<&[String]> {
        if !self.0.contains_key(dir) {
            self.0.insert(dir.to_path_buf(), files.names_in(dir));
        }
        self.0.get(dir).and_then(Option::as_deref)
    }
}

/// What a path that is not there was likely meant to be.
enum Hint {
    /// The path with the case it has (`scripts/run.sh` for `Scripts/run.sh`).
    Case(String),
    /// The skill's one file of that name, in another folder (`referances/guide.md` for
    /// `references/guide.md`, `examples.md` for `references/examples.md`).
    Elsewhere(String),
}

/// The [`Hint`] for `target`, missing under `dir`: its spelling in another case, else the
/// skill's one file of its name elsewhere.
fn meant(dir: &Path, target: &str, seen: &mut Seen<'_>) -> Option<Hint> {
    case_spelling(dir, target, seen)
        .map(Hint::Case)
        .or_else(|| elsewhere(dir, target, seen).map(Hint::Elsewhere))
}

/// How deep below the skill's folder [`elsewhere`] looks for a file, and how many folders
/// it lists at most: a skill's files sit a folder or two down, and a vendored tree is no
/// place to guess in.
const ELSEWHERE_DEPTH: usize = 2;
const ELSEWHERE_FOLDERS: usize = 64;

/// The one file named as `target` ends, in the skill's folder `dir` or a folder up to
/// [`ELSEWHERE_DEPTH`] below it, other than `target` itself; `None` for a path out of the
/// folder (`../other/...` names another skill's file), or where there are several.
fn elsewhere(dir: &Path, target: &str, seen: &mut Seen<'_>) -> Option<String> {
    let parts: Vec<&str> = target
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    if parts.contains(&"..") {
        return None;
    }
    let (name, _) = parts.split_last()?;
    let wanted = parts.join("/");
    let mut found: Vec<String> = Vec::new();
    let mut level: Vec<String> = vec![String::new()];
    let mut listed = 0;
    for depth in 0..=ELSEWHERE_DEPTH {
        let mut below = Vec::new();
        for rel in &level {
            listed += 1;
            if listed > ELSEWHERE_FOLDERS {
                return None;
            }
            let Some(here) = seen
                .names
                .of(&dir.join(rel), seen.files)
                .map(<[String]>::to_vec)
            else {
                continue;
            };
            for n in here.iter().filter(|n| !n.starts_with('.')) {
                let path = if rel.is_empty() {
                    n.clone()
                } else {
                    format!("{rel}/{n}")
                };
                match seen.lookup(&dir.join(&path)) {
                    Lookup::File if n == name && path != wanted => found.push(path),
                    Lookup::Folder if depth < ELSEWHERE_DEPTH => below.push(path),
                    _ => {}
                }
            }
        }
        level = below;
    }
    match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The path `target` has under `dir` when its names match only ignoring case: for a link
/// written `Scripts/run.sh` to `scripts/run.sh`, `scripts/run.sh`. `None` when it is spelled
/// as written, or no such path exists.
fn case_spelling(dir: &Path, target: &str, seen: &mut Seen<'_>) -> Option<String> {
    let mut at = dir.to_path_buf();
    let mut found = Vec::new();
    let mut differs = false;
    for part in target.split('/').filter(|p| !p.is_empty() && *p != ".") {
        if part == ".." {
            at.push(part);
            found.push(part.to_owned());
            continue;
        }
        let here = seen.names.of(&at, seen.files)?;
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
    what: "A relative Markdown link or image in the body points at a file that does not exist, spelled exactly so (resolved from the SKILL.md's folder). A name that exists with another case gets a \"did you mean\", and so does the skill's only file of that name in another folder (its own or one up to two below). Not reported: a link given as an example (after \"for example\", \"e.g.\", \"such as\", or in a section titled Example or Template, as skills that teach writing skills show them, or among the lines of a document template the skill fills in, with bracketed placeholders such as `[Description]` on three of the twelve lines up to the link), and `../other/...` where the library keeps the skill folder `other` under another category folder (hosts install skills side by side, where it resolves). Paths named outside links are SA232.",
    why: "The model follows these links to load references and scripts on demand; a missing file makes it fail mid-task or invent the content.",
    example: "See [the guide](references/guide.md) when references/ has no guide.md.\n\nFix: add the file or correct the path.",
    fix: Some(FixDoc {
        applicability: Applicability::Unsafe,
        what: "Where the message has a \"did you mean\", write that path in place of the one written. Unsafe: it guesses which file was meant.",
    }),
};

/// `; did you mean `x`?`, with why `x`, for a missing path.
fn hint_text(hint: &Hint) -> String {
    match hint {
        Hint::Case(h) => format!(
            "; did you mean {}? (names are case-sensitive on most hosts)",
            quote(h)
        ),
        Hint::Elsewhere(h) => format!(
            "; did you mean {}, the skill's only file of that name?",
            quote(h)
        ),
    }
}

/// The body links to `r`'s target, which is not there: not beside SKILL.md, or not among the
/// files a server lists for the skill `listed_for` (`hint`: what it was likely meant to be).
fn broken_link(sink: &mut Sink, r: &Reference, listed_for: Option<&str>, hint: Option<&Hint>) {
    let target = &r.target;
    let message = match (listed_for, hint) {
        (Some(uri), _) => format!(
            "{} is not among the files `skills/list` lists for this skill ({}), and hosts treat reading an unlisted file as a verification failure; fix the link or list the file",
            quote(target),
            resolve_uri(uri, target)
        ),
        (None, None) => format!(
            "{} does not exist relative to this skill; fix the link or add the file",
            quote(target)
        ),
        (None, Some(hint)) => format!(
            "{} does not exist relative to this skill{}",
            quote(target),
            hint_text(hint)
        ),
    };
    let fix = hint
        .filter(|_| listed_for.is_none())
        .and_then(|h| rewrite(sink, r, h));
    sink.push_fixed(Rule::BrokenLink, r.pos, message, fix);
}

/// The fix of SA231 and SA232 that writes `hint` in place of `r`'s target, where its line
/// spells the target as read: a link's destination (`](target`, `](<./target`), a path of the
/// text at its place. Unsafe: it guesses which file was meant.
fn rewrite(sink: &Sink, r: &Reference, hint: &Hint) -> Option<Fix> {
    let (Hint::Case(to) | Hint::Elsewhere(to)) = hint;
    let rest = r.line.get(r.at..)?;
    let mut start = match r.kind {
        RefKind::Link => {
            let dest = rest.find("](")? + 2;
            dest + usize::from(rest[dest..].starts_with('<'))
        }
        RefKind::Code | RefKind::Bare => 0,
    };
    // A path of the text is read without its `./`; a link's target is read as written.
    if rest[start..].starts_with("./") && !r.target.starts_with("./") {
        start += 2;
    }
    let written = rest.get(start..)?;
    let after = written.strip_prefix(r.target.as_str())?.chars().next();
    // The path ends there: it is not the start of a longer name.
    if after.is_some_and(|c| c.is_alphanumeric() || "/_-".contains(c)) {
        return None;
    }
    let text = sink.text()?;
    let line = crate::span::offset(text, Pos::new(r.pos.line, 1))?;
    let at = line + r.at + start;
    if text.get(at..at + r.target.len()) != Some(r.target.as_str()) {
        return None;
    }
    let edit = crate::span::edit(text, at, at + r.target.len(), to.as_str());
    Some(Fix::unsafe_edits(
        format!("write {}", quote(to)),
        vec![edit],
    ))
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
    what: "The body names a file of the skill outside a Markdown link, as a whole code span (`` `references/guide.md` ``) or as a word (see scripts/run.sh), and that file does not exist, spelled exactly so, relative to the SKILL.md's folder. Only what looks like a relative path counts: a `/`, a file extension, no blanks, globs, `<`, `{`, `$` or URL scheme, not absolute. A path into `references/` or `scripts/` (the spec's folders for the skill's own files) or into a folder the skill has is the skill's. A path into any other folder is the skill's only when the words around it say so: the model is told to open, read, load, see, use or run it, or it is listed under a heading such as \"Resources\" or \"Reference files\"; and not when the body treats its folder as the user's project (it creates or writes files there, asks whether they exist, or the folder is one such as `src/`, `docs/`, `config/`). Whatever its folder, a path given as an example (\"e.g.\", \"for example\", \"such as\", or in a section titled Example or Template, as skills that teach writing skills show them, or among the bracketed placeholders of a document template) is not reported, nor `../other/...` where the library keeps the skill folder `other` under another category folder. Fenced code blocks are skipped: they hold example commands. Placeholders (`references/filename.md`, `phase_prompts/phaseN.md`) and files the skill ships a template of (`config.json` beside `config.example.json`) are not reported. A name that exists with another case gets a \"did you mean\", and so does the skill's only file of that name in another folder (its own or one up to two below).",
    why: "The model reads such paths as it reads links, and loads or runs the file on demand; a missing one makes it fail mid-task or invent the content. A case mismatch works on macOS and breaks on Linux hosts.",
    example: "If detailed examples are required, open `resources/playbook.md`.\nwhen the skill has no resources/playbook.md.\n\nFix: add the file, or correct the path.",
    fix: Some(FixDoc {
        applicability: Applicability::Unsafe,
        what: "Where the message has a \"did you mean\", write that path in place of the one written. Unsafe: it guesses which file was meant.",
    }),
};

/// The body names `r`'s target outside a link, and it is not there (`hint`: what it was
/// likely meant to be).
fn broken_reference(sink: &mut Sink, r: &Reference, listed_for: Option<&str>, hint: Option<&Hint>) {
    let target = &r.target;
    let how = if r.kind == RefKind::Code {
        "named in code"
    } else {
        "named in the text"
    };
    let message = match listed_for {
        Some(uri) => format!(
            "{} ({how}) is not among the files `skills/list` lists for this skill ({}); fix the path or list the file",
            quote(target),
            resolve_uri(uri, target)
        ),
        None => {
            let fix = hint.map_or_else(|| "; fix the path or add the file".to_owned(), hint_text);
            format!(
                "{} ({how}) does not exist relative to this skill{fix}",
                quote(target)
            )
        }
    };
    let fix = hint
        .filter(|_| listed_for.is_none())
        .and_then(|h| rewrite(sink, r, h));
    sink.push_fixed(Rule::BrokenReference, r.pos, message, fix);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::boundary::Boundary;

    /// Lines built from the pieces the two questions turn on, every reference place asked.
    fn generated_lines(mut each: impl FnMut(&str, usize)) {
        let pieces = [
            "e.g", "E.G", "such as", "for ", "example:", "\u{212a}", "like `", "`", ",", " ",
            "open", "Read", "é", "-", ".", "x", "(", ";",
        ];
        let mut pick = crate::generated::picker(9);
        for _ in 0..3000 {
            let line: String = (0..pick(14)).map(|_| pieces[pick(pieces.len())]).collect();
            for at in (0..=line.len()).filter(|&at| line.is_char_boundary(at)) {
                each(&line, at);
            }
        }
    }

    fn reference(line: &str, at: usize) -> Reference {
        Reference {
            target: "references/a.md".into(),
            pos: Pos::new(1, 1),
            kind: RefKind::Code,
            line: line.into(),
            at,
            section: None,
            in_template: false,
        }
    }

    /// The last words of the clause, read backwards, are those of the whole clause read
    /// forwards.
    #[test]
    fn leading_words_read_backwards_agree_with_the_whole_clause() {
        generated_lines(|line, at| {
            let before = line[..at].trim_end_matches('`');
            let clause = before
                .rfind(['`', ',', ';', ':', '('])
                .map_or(before, |i| &before[i + 1..]);
            let mut whole = words(clause);
            whole.drain(..whole.len().saturating_sub(6));
            assert_eq!(
                leading_words(&reference(line, at)),
                whole,
                "{line:?} at {at}"
            );
        });
    }

    /// Where a line's first example phrase ends decides, for every place on it, what a search
    /// of the lowercased text before that place decides.
    #[test]
    fn example_phrases_found_once_per_line_agree_with_a_search_before_each_place() {
        generated_lines(|line, at| {
            let before = line[..at].to_lowercase();
            let searched = EXAMPLE_PHRASES.iter().any(|m| before.contains(m));
            let ends = example_ends(line);
            assert_eq!(
                ends.is_some_and(|end| end <= at),
                searched,
                "{line:?} at {at}"
            );
        });
    }

    /// One skill's findings list each folder once: a name added afterwards is not seen, and
    /// the spellings found are those of the folder as first listed.
    #[test]
    fn case_spellings_share_the_folders_listed() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(dir.path().join("References")).expect("mkdir");
        std::fs::write(dir.path().join("References/Guide.md"), "").expect("write");
        let boundary = Boundary::none();
        let tree = crate::files::Tree::new(&boundary);
        let mut one = Seen::new(&tree);
        let hint = case_spelling(dir.path(), "references/guide.md", &mut one);
        assert_eq!(hint.as_deref(), Some("References/Guide.md"));
        std::fs::write(dir.path().join("References/Other.md"), "").expect("write");
        assert_eq!(
            case_spelling(dir.path(), "references/other.md", &mut one),
            None
        );
        let fresh = case_spelling(dir.path(), "references/other.md", &mut Seen::new(&tree));
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
