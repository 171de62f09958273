//! What the server answers: hover, completion, go to definition and code actions, from the
//! workspace's last judgement and the document's text.

use lsp_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CompletionItem, CompletionItemKind,
    DocumentChangeOperation, DocumentChanges, Hover, HoverContents, Location, MarkupContent,
    MarkupKind, OneOf, OptionalVersionedTextDocumentIdentifier, Position, Range, RenameFile,
    ResourceOp, TextDocumentEdit, TextEdit, Uri, WorkspaceEdit,
};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use super::context::{Cursor, cursor};
use super::convert::{self, uri_of};
use crate::diagnostic::{Applicability, Finding, quote};
use crate::evaluate::{self, Availability, Judged, ToolVerdict};
use crate::model::DepKind;
use crate::model::{AgentFlavor, Kind};
use crate::profile::{Profile, names};
use crate::workspace::Workspace;

/// The code action kind of "fix all safe" for a file.
pub(crate) const FIX_ALL: &str = "source.fixAll.skill-audit";

/// What the names under the cursor are, by the keys around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Names {
    Of(DepKind),
    Servers,
    Skills,
}

fn names_at(c: &Cursor, kind: Kind) -> Option<Names> {
    let has = |k: &str| c.keys.iter().any(|x| x == k);
    let last = c.keys.last().map(String::as_str)?;
    if has("dependencies") {
        return match () {
            _ if has("resources") => Some(Names::Of(DepKind::Resources)),
            _ if has("prompts") => Some(Names::Of(DepKind::Prompts)),
            _ if has("tools") => Some(Names::Of(DepKind::Tools)),
            _ if has("mcp-servers") => Some(Names::Servers),
            _ => None,
        };
    }
    match last {
        "tools" | "allowed-tools" | "disallowed-tools" | "disallowedTools" => {
            Some(Names::Of(DepKind::Tools))
        }
        "mcp-servers" | "mcpServers" => Some(Names::Servers),
        "skills" if matches!(kind, Kind::Agent(_)) => Some(Names::Skills),
        _ => None,
    }
}

fn markdown(value: String) -> Hover {
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value,
        }),
        range: None,
    }
}

/// The hover at `pos` of the document at `path` whose text is `text`. `broken`: the profiles
/// could not be loaded (the library is judged without them).
pub(crate) fn hover(
    ws: &Workspace,
    path: &Path,
    text: &str,
    pos: Position,
    broken: bool,
) -> Option<Hover> {
    let kind = ws.candidate(path)?.kind;
    let c = cursor(text, pos.line, pos.character);
    if let Kind::Manifest(_) = kind {
        let skill = manifest_target(ws, path, c.word.as_deref()?)?;
        return skill_hover(ws, &skill);
    }
    if !c.in_frontmatter {
        return None;
    }
    // The name as the audit reads it: `docs://x` and `server:tool` are one name each.
    let word = c.name.as_deref()?;
    match names_at(&c, kind)? {
        Names::Of(k) => {
            // Judged as the audit judges the file's names: an agent's in its own host's terms,
            // a permission list in Claude Code's.
            let shown = ws.display_path(path);
            let agent = ws.result().agents.iter().find(|a| a.agent.path == shown);
            // On a profile whose host does not load the agent, its tools are neither there
            // nor missing.
            let loaded = |i: usize| {
                agent
                    .and_then(|a| a.availability.get(i))
                    .is_none_or(|a| a.status != evaluate::Status::NotLoaded)
            };
            let judged = match agent {
                Some(a) => Judged::Agent(&a.agent),
                None if c.keys.last().is_some_and(|k| k == "allowed-tools") => Judged::ClaudeNames,
                None if c.keys.len() == 1 && c.keys[0] == "tools" => Judged::SkillTools,
                None => Judged::Skill,
            };
            let profiles = Profiles {
                all: ws.profiles(),
                broken,
            };
            Some(markdown(name_hover(profiles, judged, k, word, loaded)))
        }
        Names::Servers => Some(markdown(server_hover(ws.profiles(), word))),
        Names::Skills => skill_hover(ws, &linked_skill(ws, path, word)?),
    }
}

/// Whether `profile` has the tool `name` as the audit judges it for `judged`, and from where.
fn tool_status(p: &Profile, judged: Judged<'_>, name: &str) -> String {
    let bare = names::tool_of(name);
    // A skill's `allowed-tools` is Claude Code's permission list: another host neither needs
    // nor grants what it names, as the audit's verdict says.
    if let (Judged::ClaudeNames, Some(host)) = (judged, p.host())
        && host != CLAUDE_CODE
    {
        let title = p.host_title().unwrap_or(host);
        return format!("not read: {title} does not read `allowed-tools`");
    }
    // A permitted name that no host we know defines is no one's to judge, as for the audit.
    if matches!(judged, Judged::ClaudeNames) && evaluate::permitted_unknown(p, name) {
        return "not judged: no built-in host defines it".to_owned();
    }
    match evaluate::tool(p, judged, name) {
        ToolVerdict::Resolves if p.defines(name) => match p.host() {
            Some(h) => format!("available: built into {h}"),
            None => "available".to_owned(),
        },
        ToolVerdict::Resolves => {
            let mapped = p
                .vocabulary
                .as_ref()
                .and_then(|v| v.maps.values().find_map(|m| m.get(bare)));
            match (mapped, names::canonical(bare).split_once('/')) {
                (Some(targets), _) if !targets.is_empty() => format!(
                    "available: {} takes it as {}",
                    p.host_title().unwrap_or_default(),
                    crate::diagnostic::quoted(targets)
                ),
                (_, Some((server, _))) => format!("available: from the {} server", quote(server)),
                _ => "available: listed by the profile".to_owned(),
            }
        }
        ToolVerdict::Renamed(new) => format!(
            "renamed: the host still maps it, but the name is now {}",
            crate::diagnostic::quoted(&new)
        ),
        ToolVerdict::Unknown => match (p.may_provide(name), &p.vocabulary) {
            (Some(what), _) => format!("not judged: {} may provide it", what.provider()),
            (None, Some(v)) if v.is_dropped(bare) => {
                "missing: the host drops it from a tools list".to_owned()
            }
            (None, Some(_)) => format!(
                "missing: not a tool of {} or of a server the profile lists",
                p.host_title().unwrap_or_default()
            ),
            (None, None) => "missing".to_owned(),
        },
        ToolVerdict::Unmapped(other) => {
            format!("missing: a {other} tool this host does not map to its own")
        }
        ToolVerdict::Denied => "missing: denied by the profile".to_owned(),
        ToolVerdict::NotJudged => match p.host_title() {
            Some(h) => format!("not judged: the profile does not describe {h}'s tools"),
            None => {
                "not judged: a built-in of the host it is written for, and the profile has no host"
                    .to_owned()
            }
        },
    }
}

/// The profiles a name is judged against.
struct Profiles<'p> {
    all: &'p [Profile],
    /// They could not be loaded: there are none until the broken file is fixed.
    broken: bool,
}

/// A tool, resource or prompt name's status in each profile; `loaded(i)` is false when the
/// `i`th profile's host does not load the file.
fn name_hover(
    profiles: Profiles<'_>,
    judged: Judged<'_>,
    kind: DepKind,
    name: &str,
    loaded: impl Fn(usize) -> bool,
) -> String {
    let what = match kind {
        DepKind::Resources => "resource",
        DepKind::Prompts => "prompt",
        _ => "tool",
    };
    let mut s = format!("**{}** ({what})\n\n", quote(name));
    if profiles.broken {
        s.push_str(
            "The profiles could not be loaded (the error is shown on the profile's file): nothing is judged against them until it is saved fixed.\n",
        );
        return s;
    }
    if profiles.all.is_empty() {
        s.push_str("No profile is configured: add `profiles` to skill-audit.toml.\n");
        return s;
    }
    s.push_str("| profile | status |\n| --- | --- |\n");
    for (i, p) in profiles.all.iter().enumerate() {
        let status = match kind {
            _ if !loaded(i) => "not loaded by this host".to_owned(),
            DepKind::Tools => tool_status(p, judged, name),
            k if p.has(k, name) => "available".to_owned(),
            _ => "missing".to_owned(),
        };
        s.push_str(&row(&p.name, &status));
    }
    s
}

/// A row of a hover's profile table: `|` escaped and lines joined, which a table cell needs
/// even in a code span.
fn row(profile: &str, status: &str) -> String {
    let cell = |text: &str| text.replace('|', "\\|").replace(['\r', '\n'], " ");
    format!("| {} | {} |\n", cell(&quote(profile)), cell(status))
}

fn server_hover(profiles: &[Profile], server: &str) -> String {
    let mut s = format!(
        "**{}** (MCP server)\n\n| profile | status |\n| --- | --- |\n",
        quote(server)
    );
    for p in profiles {
        let status = if p.tools.contains(&format!("{server}/*")) {
            "available"
        } else {
            "missing"
        };
        s.push_str(&row(&p.name, status));
    }
    s
}

/// The skill an agent names in `skills:`: the one the audit linked it to, else the only
/// skill of that name.
fn linked_skill(ws: &Workspace, agent: &Path, name: &str) -> Option<PathBuf> {
    let r = ws.result();
    let shown = ws.display_path(agent);
    let linked = r
        .links
        .iter()
        .find(|l| l.agent == shown && l.skill == name)
        .map(|l| l.skill_path.as_str());
    let skill = match linked {
        Some(p) => r.skills.iter().find(|s| s.skill.path == p),
        None => r.skills.iter().find(|s| s.skill.name == name),
    }?;
    Some(skill.skill.fs_path.clone())
}

/// The skill file a manifest's entry `entry` names: relative to the manifest's base, else, as
/// the audit resolves it, to the audited root holding the manifest.
fn manifest_target(ws: &Workspace, manifest: &Path, entry: &str) -> Option<PathBuf> {
    let shown = ws.display_path(manifest);
    let m = ws.manifests().find(|m| m.path == shown)?;
    let entry = entry.trim_start_matches("./");
    let roots = ws
        .options()
        .roots
        .iter()
        .filter(|r| manifest.starts_with(r));
    std::iter::once(m.base.as_path())
        .chain(roots.map(PathBuf::as_path))
        .find_map(|dir| existing_file(ws, &crate::paths::normalize(&dir.join(entry))))
}

/// `target` if it is a file under the workspace, or the skill file in it if it is a folder.
/// Looked at only by real paths the audit's boundary admits: whether a file a link leads to
/// outside exists is not told.
fn existing_file(ws: &Workspace, target: &Path) -> Option<PathBuf> {
    let inside = |p: &Path| ws.options().roots.iter().any(|r| p.starts_with(r));
    if !inside(target) {
        return None;
    }
    let real = ws.boundary().resolve(target).ok()?;
    let (file, real) = if real.is_dir() {
        let file = target.join("SKILL.md");
        let real = ws.boundary().resolve(&file).ok()?;
        (file, real)
    } else {
        (target.to_owned(), real)
    };
    real.is_file().then_some(file)
}

fn availability_rows(profiles: &[Profile], availability: &[Availability]) -> String {
    let mut s = String::from("| profile | status |\n| --- | --- |\n");
    for (p, a) in profiles.iter().zip(availability) {
        let status = a.status.as_str();
        match &a.reason {
            Some(r) => s.push_str(&row(&p.name, &format!("{status}: {r}"))),
            None => s.push_str(&row(&p.name, status)),
        }
    }
    s
}

fn skill_hover(ws: &Workspace, file: &Path) -> Option<Hover> {
    let r = ws.result();
    let s = r.skills.iter().find(|s| s.skill.fs_path == file)?;
    let mut out = format!("**{}** (skill, {})\n\n", s.skill.name, quote(&s.skill.path));
    if let Some(d) = &s.skill.description {
        out.push_str(d.trim());
        out.push_str("\n\n");
    }
    out.push_str(&availability_rows(&r.profiles, &s.availability));
    Some(markdown(out))
}

/// Where the reference under the cursor leads: a skill named in an agent's `skills:`, an
/// entry of a manifest, or a relative link in a body.
pub(crate) fn definition(
    ws: &Workspace,
    path: &Path,
    text: &str,
    pos: Position,
) -> Option<Location> {
    let kind = ws.candidate(path)?.kind;
    let c = cursor(text, pos.line, pos.character);
    let word = c.word.as_deref()?;
    let target = match kind {
        Kind::Manifest(_) => manifest_target(ws, path, word),
        _ if c.in_frontmatter => match names_at(&c, kind) {
            Some(Names::Skills) => linked_skill(ws, path, c.name.as_deref()?),
            _ => None,
        },
        _ => {
            // A body link: relative to the file, without its `#fragment`.
            let rel = word
                .split('#')
                .next()
                .filter(|r| !r.is_empty() && !r.contains("://"))?;
            let dir = path.parent()?;
            existing_file(ws, &crate::paths::normalize(&dir.join(rel)))
        }
    }?;
    Some(Location::new(
        uri_of(&target)?,
        Range::new(Position::new(0, 0), Position::new(0, 0)),
    ))
}

/// Frontmatter keys for a file of `kind`, or tool, resource or skill names, at the cursor.
pub(crate) fn completion(
    ws: &Workspace,
    path: &Path,
    text: &str,
    pos: Position,
) -> Vec<CompletionItem> {
    let Some(kind) = ws.candidate(path).map(|c| c.kind) else {
        return Vec::new();
    };
    let c = cursor(text, pos.line, pos.character);
    if !c.in_frontmatter {
        return Vec::new();
    }
    if c.at_key {
        return keys(kind)
            .into_iter()
            .map(|(key, detail)| CompletionItem {
                label: key.to_owned(),
                kind: Some(CompletionItemKind::FIELD),
                detail: Some(detail),
                insert_text: Some(format!("{key}: ")),
                ..CompletionItem::default()
            })
            .collect();
    }
    let names: BTreeMap<String, Vec<&str>> = match names_at(&c, kind) {
        Some(Names::Of(k)) => {
            let readers = readers(ws, path, kind, &c);
            vocabulary(ws.profiles().iter().filter(|p| readers(p)), k)
        }
        Some(Names::Skills) => ws
            .result()
            .skills
            .iter()
            .map(|s| (s.skill.name.clone(), vec![]))
            .collect(),
        _ => return Vec::new(),
    };
    // The whole name being typed is replaced, not the client's idea of a word, which stops
    // at the `/` and `-` that tool names hold.
    let (from, to) = c.name_columns.unwrap_or((pos.character, pos.character));
    let range = Range::new(Position::new(pos.line, from), Position::new(pos.line, to));
    names
        .into_iter()
        .map(|(name, profiles)| CompletionItem {
            detail: (!profiles.is_empty()).then(|| format!("in {}", profiles.join(", "))),
            text_edit: Some(lsp_types::CompletionTextEdit::Edit(TextEdit::new(
                range,
                name.clone(),
            ))),
            filter_text: Some(name.clone()),
            label: name,
            kind: Some(CompletionItemKind::VALUE),
            ..CompletionItem::default()
        })
        .collect()
}

/// Which profiles read the names at the cursor, as the audit judges them: an agent's tools
/// only on hosts that load the agent, `allowed-tools` only where Claude Code's permission
/// list is read; a skill's other names on every profile.
fn readers<'w>(
    ws: &'w Workspace,
    path: &Path,
    kind: Kind,
    c: &Cursor,
) -> Box<dyn Fn(&Profile) -> bool + 'w> {
    match kind {
        Kind::Agent(flavor) => {
            let shown = ws.display_path(path);
            let agent = ws.result().agents.iter().find(|a| a.agent.path == shown);
            match agent {
                Some(a) => Box::new(move |p| evaluate::loads(p, &a.agent)),
                None => {
                    let flavor = flavor.as_str();
                    Box::new(move |p| {
                        p.vocabulary
                            .as_ref()
                            .is_none_or(|v| v.loads.iter().any(|l| l == flavor))
                    })
                }
            }
        }
        _ if c.keys.last().is_some_and(|k| k == "allowed-tools") => {
            Box::new(|p| p.host().is_none_or(|h| h == CLAUDE_CODE))
        }
        _ => Box::new(|_| true),
    }
}

/// The host that reads a skill's `allowed-tools`.
const CLAUDE_CODE: &str = "claude-code";

/// The keys a file of `kind` may hold, with who reads each.
fn keys(kind: Kind) -> Vec<(&'static str, String)> {
    use crate::rules::{agent, spec};
    match kind {
        Kind::Skill { .. } => spec::SPEC_KEYS
            .iter()
            .map(|k| (*k, "Agent Skills specification".to_owned()))
            .chain(
                spec::CAPABILITY_KEYS
                    .iter()
                    .map(|k| (*k, "capability proposal (skill-audit)".to_owned())),
            )
            .chain(
                spec::HOST_KEYS
                    .iter()
                    .map(|(k, hosts)| (*k, hosts.join(", "))),
            )
            .collect(),
        Kind::Agent(AgentFlavor::Claude) => agent::CLAUDE_KEYS
            .iter()
            .map(|k| (*k, "Claude Code agent".to_owned()))
            .collect(),
        Kind::Agent(_) => agent::COPILOT_KEYS
            .iter()
            .map(|k| (*k, "VS Code / GitHub Copilot agent".to_owned()))
            .collect(),
        Kind::Manifest(_) => Vec::new(),
    }
}

/// Every name of `kind` the profiles define (tool sets too), with the profiles that have it.
fn vocabulary<'p>(
    profiles: impl Iterator<Item = &'p Profile>,
    kind: DepKind,
) -> BTreeMap<String, Vec<&'p str>> {
    let mut out: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for p in profiles {
        let Some(set) = p.names(kind) else { continue };
        let sets = p
            .vocabulary
            .as_ref()
            .filter(|_| kind == DepKind::Tools)
            .map(|v| v.toolsets.keys().map(String::as_str));
        for n in set
            .names()
            .filter(|n| !names::is_pattern(n))
            .chain(sets.into_iter().flatten())
        {
            let e = out.entry(n.to_owned()).or_default();
            if e.last() != Some(&p.name.as_str()) {
                e.push(p.name.as_str());
            }
        }
    }
    out
}

/// Whether "fix all safe" is among the kinds `only` asks for: what it does is worked out only
/// then.
pub(crate) fn wants_fix_all(only: Option<&[CodeActionKind]>) -> bool {
    wanted(&CodeActionKind::new(FIX_ALL), only)
}

/// Whether an action of `kind` is among the kinds `only` asks for (a kind covers the kinds
/// below it: `source` covers `source.fixAll.skill-audit`).
fn wanted(kind: &CodeActionKind, only: Option<&[CodeActionKind]>) -> bool {
    only.is_none_or(|only| {
        only.iter().any(|o| {
            kind.as_str() == o.as_str()
                || kind
                    .as_str()
                    .strip_prefix(o.as_str())
                    .is_some_and(|rest| rest.starts_with('.'))
        })
    })
}

/// A quick fix as the editor applies it: its title, each edit's range and new text, and the
/// display path it renames its file to.
type QuickFix<'f> = (&'f str, Vec<(Range, String)>, Option<&'f str>);

/// The URI of a display path a fix renames its file to, when the client can rename files
/// (else fixes that rename are not offered).
pub(crate) type RenameTo<'a> = Option<&'a dyn Fn(&str) -> Option<Uri>>;

/// An edit that changes nothing: a byte order mark's removal, when the client's text does not
/// have one (it took the mark for the file's encoding).
fn no_op(e: &TextEdit) -> bool {
    e.range.start == e.range.end && e.new_text.is_empty()
}

/// A workspace edit of `uri`: its text edits, then the file renamed to `renamed`.
fn workspace_edit(uri: &Uri, edits: Vec<TextEdit>, renamed: Option<Uri>) -> WorkspaceEdit {
    let Some(new_uri) = renamed else {
        return WorkspaceEdit {
            changes: Some(HashMap::from([(uri.clone(), edits)])),
            ..WorkspaceEdit::default()
        };
    };
    let mut ops = Vec::new();
    if !edits.is_empty() {
        ops.push(DocumentChangeOperation::Edit(TextDocumentEdit {
            text_document: OptionalVersionedTextDocumentIdentifier {
                uri: uri.clone(),
                version: None,
            },
            edits: edits.into_iter().map(OneOf::Left).collect(),
        }));
    }
    ops.push(DocumentChangeOperation::Op(ResourceOp::Rename(
        RenameFile {
            old_uri: uri.clone(),
            new_uri,
            options: None,
            annotation_id: None,
        },
    )));
    WorkspaceEdit {
        document_changes: Some(DocumentChanges::Operations(ops)),
        ..WorkspaceEdit::default()
    }
}

/// What "fix all safe" is offered with.
pub(crate) enum FixAll<'a> {
    /// The text every safe fix leaves, pass after pass: the action carries the edits.
    Text(&'a str),
    /// Worked out when the client resolves the action, which it may never do: offered when
    /// the file has a safe fix.
    Later,
}

/// Quick fixes for the findings of `findings` (one file's, against its text in `doc`) that
/// touch `range`, and "fix all safe" for the whole file, when `fix_all` says how; only kinds
/// in `only`, when given.
pub(crate) fn code_actions(
    uri: &Uri,
    doc: &convert::Doc<'_>,
    findings: &[&Finding],
    range: Range,
    only: Option<&[CodeActionKind]>,
    rename_to: RenameTo<'_>,
    fix_all: Option<FixAll<'_>>,
) -> Vec<CodeActionOrCommand> {
    let mut quick_fixes: Vec<CodeAction> = Vec::new();
    // Where each quick fix is among those offered, by its title and edits.
    let mut offered: HashMap<QuickFix<'_>, usize> = HashMap::new();
    let quick = wanted(&CodeActionKind::QUICKFIX, only);
    for f in findings.iter().filter(|_| quick) {
        let Some(fix) = &f.fix else { continue };
        let d = doc.diagnostic(f);
        let touches = d.range.start.line <= range.end.line && d.range.end.line >= range.start.line;
        if !touches {
            continue;
        }
        let edits: Vec<TextEdit> = fix
            .edits
            .iter()
            .map(|e| doc.text_edit(e))
            .filter(|t| !no_op(t))
            .collect();
        let renamed = match &fix.rename {
            None => None,
            Some(to) => match rename_to.and_then(|new_uri| new_uri(to)) {
                Some(new_uri) => Some(new_uri),
                // An empty edit in its place would look like a fix that does nothing.
                None => continue,
            },
        };
        if edits.is_empty() && renamed.is_none() {
            continue;
        }
        // A finding repeated per profile carries the same fix each time: offer it once, for
        // all of its diagnostics.
        let key = (
            fix.message.as_str(),
            edits
                .iter()
                .map(|t| (t.range, t.new_text.clone()))
                .collect(),
            fix.rename.as_deref(),
        );
        if let Some(&i) = offered.get(&key) {
            quick_fixes[i]
                .diagnostics
                .get_or_insert_with(Vec::new)
                .push(d);
            continue;
        }
        offered.insert(key, quick_fixes.len());
        quick_fixes.push(CodeAction {
            title: fix.message.clone(),
            kind: Some(CodeActionKind::QUICKFIX),
            diagnostics: Some(vec![d]),
            edit: Some(workspace_edit(uri, edits, renamed)),
            is_preferred: Some(fix.applicability == Applicability::Safe),
            ..CodeAction::default()
        });
    }
    let mut out: Vec<CodeActionOrCommand> = quick_fixes
        .into_iter()
        .map(CodeActionOrCommand::CodeAction)
        .collect();
    if !wants_fix_all(only) {
        return out;
    }
    let action = |edit, data| {
        CodeActionOrCommand::CodeAction(CodeAction {
            title: "Fix all safe skill-audit findings".to_owned(),
            kind: Some(CodeActionKind::new(FIX_ALL)),
            edit,
            data,
            ..CodeAction::default()
        })
    };
    match fix_all {
        Some(FixAll::Text(fixed)) => {
            if let Some(edit) = fix_all_edit(uri, doc, fixed) {
                out.push(action(Some(edit), None));
            }
        }
        Some(FixAll::Later) => {
            let safe = findings
                .iter()
                .filter_map(|f| f.fix.as_deref())
                .filter(|x| x.safe_text_edit())
                .flat_map(|x| &x.edits)
                .any(|e| !no_op(&doc.text_edit(e)));
            if safe {
                out.push(action(None, Some(serde_json::json!({ "uri": uri }))));
            }
        }
        None => {}
    }
    out
}

/// "Fix all safe" as the edit that turns the document's text into `fixed`. A later pass's
/// fixes were made for the text the passes before it left, so they cannot be sent as they
/// are: the difference is. `None` when nothing changes.
pub(crate) fn fix_all_edit(
    uri: &Uri,
    doc: &convert::Doc<'_>,
    fixed: &str,
) -> Option<WorkspaceEdit> {
    let taken: Vec<TextEdit> = edits_between(doc.text(), fixed)
        .iter()
        .map(|e| doc.text_edit(e))
        .filter(|t| !no_op(t))
        .collect();
    (!taken.is_empty()).then(|| workspace_edit(uri, taken, None))
}

/// The edits that turn `before` into `after`: one per run of changed lines, cut down to the
/// bytes that differ, so the editor keeps its marks and cursor on what did not change.
fn edits_between(before: &str, after: &str) -> Vec<crate::diagnostic::Edit> {
    let diff = similar::TextDiff::from_lines(before, after);
    // The byte each line starts at, and the end.
    let starts = |lines: &[&str]| {
        let mut at = 0;
        let mut out = vec![0];
        for l in lines {
            at += l.len();
            out.push(at);
        }
        out
    };
    let (old, new) = (starts(diff.old_slices()), starts(diff.new_slices()));
    // Runs of changed lines, in line numbers of each side.
    let mut runs: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> = Vec::new();
    let mut open: Option<(std::ops::Range<usize>, std::ops::Range<usize>)> = None;
    for op in diff.ops() {
        let (tag, o, n) = op.as_tag_tuple();
        if tag == similar::DiffTag::Equal {
            runs.extend(open.take());
            continue;
        }
        open = Some(match open.take() {
            Some((a, b)) => (a.start..o.end, b.start..n.end),
            None => (o, n),
        });
    }
    runs.extend(open);
    runs.into_iter()
        .map(|(o, n)| {
            let (from, to) = (old[o.start]..old[o.end], new[n.start]..new[n.end]);
            let (was, now) = (&before[from.clone()], &after[to]);
            let (head, tail) = common_ends(was, now);
            crate::span::edit(
                before,
                from.start + head,
                from.end - tail,
                &now[head..now.len() - tail],
            )
        })
        .collect()
}

/// How many bytes `a` and `b` share at their start and, after that, at their end, cut to
/// whole characters.
fn common_ends(a: &str, b: &str) -> (usize, usize) {
    let mut head = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    while !(a.is_char_boundary(head) && b.is_char_boundary(head)) {
        head -= 1;
    }
    let room = a.len().min(b.len()) - head;
    let mut tail = (a.bytes().rev().zip(b.bytes().rev()))
        .take(room)
        .take_while(|(x, y)| x == y)
        .count();
    while !(a.is_char_boundary(a.len() - tail) && b.is_char_boundary(b.len() - tail)) {
        tail -= 1;
    }
    (head, tail)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{Edit, Fix, Pos};
    use crate::rules::Rule;
    use std::str::FromStr;

    /// Names in hover text are code spans that survive backticks, as in messages.
    #[test]
    fn hover_quotes_names_with_backticks_as_one_code_span() {
        let profiles = [
            Profile::from_names("prod", "prod.json", &["srv/*"], &[], &[]).expect("profile"),
            Profile::from_names("a`b", "ab.json", &[], &[], &[]).expect("profile"),
        ];
        let hover = server_hover(&profiles, "s`v");
        assert!(hover.starts_with("**`` s`v ``** (MCP server)"), "{hover}");
        assert!(hover.contains("| `prod` | missing |"), "{hover}");
        assert!(hover.contains("| `` a`b `` | missing |"), "{hover}");
        assert!(server_hover(&profiles, "srv").contains("| `prod` | available |"));
        // A `|` would end the cell, even in a code span.
        let piped = [Profile::from_names("a|b", "p.json", &[], &[], &[]).expect("profile")];
        let hover = server_hover(&piped, "srv");
        assert!(hover.contains("| `a\\|b` | missing |"), "{hover}");
    }

    fn fixed(line: u32, col: u32, start: usize, end: usize, new: &str, safe: bool) -> Finding {
        let mut f = Finding::new(Rule::UnknownKey, "a/SKILL.md", Pos::new(line, col), "m");
        f.fix = Some(Box::new(Fix {
            applicability: if safe {
                Applicability::Safe
            } else {
                Applicability::Unsafe
            },
            message: format!("write `{new}`"),
            edits: vec![Edit {
                start,
                end,
                content: new.to_owned(),
                location: Pos::new(line, col),
                end_location: Pos::new(line, col + (end - start) as u32),
            }],
            rename: None,
        }));
        f
    }

    #[test]
    fn fixes_become_quick_fixes_and_one_fix_all() {
        let text = "---\ndescriptin: é\nnmae: x\n---\n";
        let uri = Uri::from_str("file:///w/a/SKILL.md").expect("uri");
        let a = fixed(2, 1, 4, 14, "description", true);
        let b = fixed(3, 1, 19, 23, "name", true);
        let c = fixed(3, 1, 19, 23, "nam", false);
        let all = [&a, &b, &c];
        let whole = Range::new(Position::new(0, 0), Position::new(9, 0));
        let doc = convert::Doc::new(text);
        // What the safe fixes leave, pass after pass (worked out by the server).
        let fixed_text = "---\ndescription: é\nname: x\n---\n";
        let actions = code_actions(
            &uri,
            &doc,
            &all,
            whole,
            None,
            None,
            Some(FixAll::Text(fixed_text)),
        );
        let actions: Vec<&CodeAction> = actions
            .iter()
            .map(|a| match a {
                CodeActionOrCommand::CodeAction(a) => a,
                CodeActionOrCommand::Command(_) => panic!("a command"),
            })
            .collect();
        assert_eq!(actions.len(), 4);
        assert_eq!(actions[0].kind, Some(CodeActionKind::QUICKFIX));
        assert_eq!(actions[0].title, "write `description`");
        let edits = |a: &CodeAction| {
            a.edit
                .as_ref()
                .and_then(|e| e.changes.as_ref())
                .and_then(|c| c.get(&uri))
                .cloned()
                .unwrap_or_default()
        };
        assert_eq!(
            edits(actions[0]),
            [TextEdit::new(
                Range::new(Position::new(1, 0), Position::new(1, 10)),
                "description".into()
            )]
        );
        assert_eq!(actions[2].is_preferred, Some(false));
        // Fix all: the edits that make the fixed text, whatever passes it took.
        assert_eq!(actions[3].kind, Some(CodeActionKind::new(FIX_ALL)));
        assert_eq!(applied(text, &edits(actions[3])), fixed_text);
        // Nothing to fix: no fix all.
        let none = code_actions(&uri, &doc, &all, whole, None, None, None);
        assert_eq!(none.len(), 3);
        // Left to be resolved: offered without its edit, which the server works out then.
        let later = actions_of(code_actions(
            &uri,
            &doc,
            &all,
            whole,
            None,
            None,
            Some(FixAll::Later),
        ));
        assert_eq!(later.len(), 4);
        assert_eq!(
            (later[3].edit.as_ref(), later[3].data.is_some()),
            (None, true)
        );
        // A range on line 3 only gets line 3's quick fixes.
        let line3 = Range::new(Position::new(2, 0), Position::new(2, 1));
        assert_eq!(
            code_actions(
                &uri,
                &doc,
                &[&a, &b],
                line3,
                None,
                None,
                Some(FixAll::Text(fixed_text))
            )
            .len(),
            2
        );
        // On save, a client asks for `source.fixAll` only.
        let only = [CodeActionKind::SOURCE_FIX_ALL];
        let on_save = code_actions(
            &uri,
            &doc,
            &all,
            whole,
            Some(&only),
            None,
            Some(FixAll::Text(fixed_text)),
        );
        assert_eq!(on_save.len(), 1);
        let only = [CodeActionKind::new("source.fix")];
        assert!(
            code_actions(
                &uri,
                &doc,
                &all,
                whole,
                Some(&only),
                None,
                Some(FixAll::Text(fixed_text))
            )
            .is_empty()
        );
        // A finding made once per profile is one quick fix for all of its diagnostics.
        let a2 = fixed(2, 1, 4, 14, "description", true);
        let twice = code_actions(&uri, &doc, &[&a, &b, &a2], whole, None, None, None);
        let quick: Vec<usize> = twice
            .iter()
            .filter_map(|a| match a {
                CodeActionOrCommand::CodeAction(a) if a.kind == Some(CodeActionKind::QUICKFIX) => {
                    Some(a.diagnostics.as_ref().map_or(0, Vec::len))
                }
                _ => None,
            })
            .collect();
        assert_eq!(quick, [2, 1]);
    }

    /// `edits` made to `text`, as an editor makes them.
    fn applied(text: &str, edits: &[TextEdit]) -> String {
        let offset = |p: Position| {
            let start: usize = (text.split_inclusive('\n'))
                .take(p.line as usize)
                .map(str::len)
                .sum();
            let line = text[start..].split('\n').next().unwrap_or_default();
            start + convert::byte_of_utf16(line, p.character)
        };
        let mut edits = edits.to_vec();
        edits.sort_by_key(|e| std::cmp::Reverse((e.range.start.line, e.range.start.character)));
        let mut out = text.to_owned();
        for e in edits {
            out.replace_range(offset(e.range.start)..offset(e.range.end), &e.new_text);
        }
        out
    }

    #[test]
    fn fix_all_sends_only_what_changed_as_edits_of_the_text_the_client_has() {
        let cases = [
            (
                "a\nb: c: d\ne\nf: g: h\n",
                "a\nb: 'c: d'\ne\nf: 'g: h'\n",
                2,
            ),
            ("x: é\n", "x: ê\n", 1),
            ("x: é\n", "x: éé\n", 1),
            ("a\nb\n", "a\n", 1),
            ("a\n", "a\nb\nc\n", 1),
            ("a\r\nb: c: d\r\n", "a\r\nb: 'c: d'\r\n", 1),
            ("same\n", "same\n", 0),
        ];
        for (before, after, n) in cases {
            let edits = edits_between(before, after);
            assert_eq!(edits.len(), n, "{before:?} -> {after:?}: {edits:?}");
            let fix = Fix::safe("m", edits);
            assert_eq!(
                crate::fix::apply_to_text(before, &[fix]).as_deref(),
                Ok(after),
                "{before:?}"
            );
            let doc = convert::Doc::sent(before);
            let text_edits: Vec<TextEdit> = edits_between(before, after)
                .iter()
                .map(|e| doc.text_edit(e))
                .collect();
            assert_eq!(applied(before, &text_edits), after, "{before:?}");
        }
        // Only the value is replaced, not its line.
        let e = edits_between("k: a: b\n", "k: 'a: b'\n");
        assert_eq!(
            (e[0].start, e[0].end, e[0].content.as_str()),
            (3, 7, "'a: b'")
        );
    }

    fn actions_of(all: Vec<CodeActionOrCommand>) -> Vec<CodeAction> {
        all.into_iter()
            .map(|a| match a {
                CodeActionOrCommand::CodeAction(a) => a,
                CodeActionOrCommand::Command(_) => panic!("a command"),
            })
            .collect()
    }

    #[test]
    fn a_rename_is_offered_as_a_file_rename_to_a_client_that_can_make_one() {
        let uri = Uri::from_str("file:///w/a/skill.md").expect("uri");
        let mut f = Finding::new(Rule::SkillFileCasing, "a/skill.md", Pos::START, "m");
        f.fix = Some(Box::new(Fix::rename("rename it", "a/SKILL.md".to_owned())));
        let doc = convert::Doc::new("---\nname: a\n---\n");
        let whole = Range::new(Position::new(0, 0), Position::new(9, 0));
        // A client that cannot rename files gets no action, rather than one that does nothing.
        assert!(code_actions(&uri, &doc, &[&f], whole, None, None, None).is_empty());
        let to = |shown: &str| Uri::from_str(&format!("file:///w/{shown}")).ok();
        let actions = actions_of(code_actions(
            &uri,
            &doc,
            &[&f],
            whole,
            None,
            Some(&to),
            None,
        ));
        assert_eq!(actions.len(), 1, "{actions:?}");
        let edit = actions[0].edit.clone().expect("an edit");
        assert_eq!(edit.changes, None);
        assert_eq!(
            edit.document_changes,
            Some(DocumentChanges::Operations(vec![
                DocumentChangeOperation::Op(ResourceOp::Rename(RenameFile {
                    old_uri: uri.clone(),
                    new_uri: Uri::from_str("file:///w/a/SKILL.md").expect("uri"),
                    options: None,
                    annotation_id: None,
                }))
            ]))
        );
    }

    #[test]
    fn a_byte_order_mark_is_removed_from_the_text_the_client_has() {
        let text = "\u{feff}---\nname: a\n---\n";
        let uri = Uri::from_str("file:///w/a/SKILL.md").expect("uri");
        let mut f = Finding::new(Rule::Utf8Bom, "a/SKILL.md", Pos::START, "m");
        f.fix = Some(Box::new(Fix::safe(
            "remove the byte order mark",
            vec![crate::span::edit(text, 0, 3, "")],
        )));
        let whole = Range::new(Position::new(0, 0), Position::new(9, 0));
        // The client sent the mark: deleting it is deleting its one UTF-16 unit.
        let sent = convert::Doc::sent(text);
        let fixed = || Some(FixAll::Text("---\nname: a\n---\n"));
        let actions = actions_of(code_actions(&uri, &sent, &[&f], whole, None, None, fixed()));
        let removal = [TextEdit::new(
            Range::new(Position::new(0, 0), Position::new(0, 1)),
            String::new(),
        )];
        assert_eq!(actions.len(), 2, "{actions:?}");
        for a in &actions {
            let edits = a.edit.as_ref().and_then(|e| e.changes.as_ref());
            assert_eq!(
                edits.and_then(|c| c.get(&uri)).map(Vec::as_slice),
                Some(&removal[..])
            );
        }
        // Read from the disk, the client's text has no mark: nothing to offer.
        let read = convert::Doc::new(text);
        assert!(code_actions(&uri, &read, &[&f], whole, None, None, fixed()).is_empty());
    }

    #[test]
    fn names_are_told_by_the_keys_around_them() {
        let k = |keys: &[&str]| Cursor {
            in_frontmatter: true,
            keys: keys.iter().map(|s| s.to_string()).collect(),
            ..Cursor::default()
        };
        let skill = Kind::Skill { exact: true };
        let agent = Kind::Agent(AgentFlavor::Custom);
        assert_eq!(
            names_at(&k(&["dependencies", "tools", "all"]), skill),
            Some(Names::Of(DepKind::Tools))
        );
        assert_eq!(
            names_at(&k(&["dependencies", "resources"]), skill),
            Some(Names::Of(DepKind::Resources))
        );
        assert_eq!(
            names_at(&k(&["tools"]), agent),
            Some(Names::Of(DepKind::Tools))
        );
        assert_eq!(names_at(&k(&["mcp-servers"]), agent), Some(Names::Servers));
        assert_eq!(names_at(&k(&["skills"]), agent), Some(Names::Skills));
        assert_eq!(names_at(&k(&["skills"]), skill), None);
        assert_eq!(names_at(&k(&["metadata"]), skill), None);
    }
}
