//! `hooks` on a skill or agent: a path to a hooks file, or handlers written inline. Both of the
//! hosts' shapes are read: Claude Code's `{Event: [{matcher?, hooks: [handler]}]}` (a file wraps
//! it in `{"hooks": ...}`) and VS Code's `{Event: [handler]}`, where a handler is
//! `{type: command, command, windows?, linux?, osx?, cwd?, env?, timeout?}`. A named file is read
//! through the bounded reader, only when it lies inside the skill's folder; its content is never
//! run.

use std::path::{Component, Path, PathBuf};

use crate::boundary::{Boundary, MAX_FILE_BYTES, Refusal};
use crate::diagnostic::{Pos, Sink};
use crate::model::{HookCommand, HookEvent, Hooks};
use crate::parse::yaml::{Node, Value};
use crate::rules;

/// Keys of a handler that hold a command line: VS Code's default and per-platform ones, and
/// the Copilot CLI's `bash` / `powershell`.
const COMMAND_KEYS: &[&str] = &["command", "windows", "linux", "osx", "bash", "powershell"];

/// Read `hooks` (`value`): a path (events are filled in by [`load`]) or an inline mapping.
/// `None` when it is empty or has the wrong type (reported).
pub(crate) fn read(value: &Node, sink: &mut Sink) -> Option<Hooks> {
    match &value.value {
        Value::Null => None,
        Value::Str(s) => Some(Hooks {
            file: Some(s.trim().to_owned()),
            events: Vec::new(),
            pos: value.pos,
        }),
        Value::Map(_) => Some(Hooks {
            file: None,
            events: events(value, None, sink),
            pos: value.pos,
        }),
        _ => {
            rules::deps::hooks_type(sink, value);
            None
        }
    }
}

/// Read the hooks file a skill's `hooks` names, from the skill's folder.
pub(crate) fn load_skill(skill: &mut crate::model::Skill, boundary: &Boundary, sink: &mut Sink) {
    if let Some(hooks) = skill.fields.hooks.as_mut() {
        let dir = skill.fs_path.parent().unwrap_or(Path::new(""));
        load(hooks, dir, "skill", boundary, sink);
    }
}

/// An agent's `hooks` (`root` is its frontmatter), a named file read from the agent's folder.
pub(crate) fn of_agent(
    agent: &crate::model::Agent,
    root: &Node,
    boundary: &Boundary,
    sink: &mut Sink,
) -> Option<Hooks> {
    let mut hooks = read(root.get("hooks")?, sink)?;
    let dir = agent.fs_path.parent().unwrap_or(Path::new(""));
    load(&mut hooks, dir, "agent", boundary, sink);
    Some(hooks)
}

/// Read the file `hooks.file` names, relative to `dir` (the folder of the `owner`, a skill or
/// an agent), into its events. A file that is missing, outside `dir` or the audited tree,
/// unreadable, not JSON or of the wrong shape is reported and gives no events.
pub(crate) fn load(
    hooks: &mut Hooks,
    dir: &Path,
    owner: &str,
    boundary: &Boundary,
    sink: &mut Sink,
) {
    let Some(file) = hooks.file.clone() else {
        return;
    };
    let pos = hooks.pos;
    let Some(rel) = inside(&file) else {
        rules::deps::hooks_file_refused(sink, pos, owner, &file, "it leads outside that folder");
        return;
    };
    let path = dir.join(rel);
    if std::fs::symlink_metadata(&path).is_err() {
        rules::deps::hooks_file_missing(sink, pos, owner, &file);
        return;
    }
    // A link may lead anywhere: the real path must stay inside the folder and the tree.
    let real = match boundary.resolve(&path) {
        Ok(real) => real,
        Err(Refusal::Io(_)) => {
            rules::deps::hooks_file_missing(sink, pos, owner, &file);
            return;
        }
        Err(why) => {
            rules::deps::hooks_file_refused(sink, pos, owner, &file, &why.to_string());
            return;
        }
    };
    let within = std::fs::canonicalize(dir).is_ok_and(|d| real.starts_with(d));
    if !within {
        rules::deps::hooks_file_refused(sink, pos, owner, &file, "it leads outside that folder");
        return;
    }
    let bytes = match crate::boundary::read(&real, MAX_FILE_BYTES) {
        Ok(c) => c.bytes,
        Err(why) => {
            rules::deps::hooks_file_refused(sink, pos, owner, &file, &why.to_string());
            return;
        }
    };
    match serde_json::from_slice::<serde_json::Value>(&bytes) {
        Ok(json) => hooks.events = events(&node_of(json, pos), Some(&file), sink),
        Err(e) => {
            // serde_json appends the place to its message; the place is given apart.
            let full = e.to_string();
            let suffix = format!(" at line {} column {}", e.line(), e.column());
            let message = full.strip_suffix(&suffix).unwrap_or(&full);
            rules::deps::hooks_file_not_json(sink, pos, &file, e.line(), e.column(), message);
        }
    }
}

/// `file` as a path relative to the skill's folder, if it stays inside it: `./` and
/// `${CLAUDE_SKILL_DIR}/` prefixes are dropped; an absolute path or a `..` is refused.
fn inside(file: &str) -> Option<PathBuf> {
    let rel = ["${CLAUDE_SKILL_DIR}/", "$CLAUDE_SKILL_DIR/"]
        .iter()
        .find_map(|p| file.strip_prefix(p))
        .unwrap_or(file);
    relative(rel)
}

/// A JSON value as a YAML node, every node at `pos`: a file's content is judged by the same
/// reader as inline hooks, and its findings point at the `hooks` that names the file.
fn node_of(json: serde_json::Value, pos: Pos) -> Node {
    use serde_json::Value as J;
    let value = match json {
        J::Null => Value::Null,
        J::Bool(b) => Value::Bool(b),
        J::Number(n) => match n.as_i64() {
            Some(i) => Value::Int(i),
            None => Value::Float(n.as_f64().unwrap_or_default()),
        },
        J::String(s) => Value::Str(s),
        J::Array(items) => Value::Seq(items.into_iter().map(|v| node_of(v, pos)).collect()),
        J::Object(map) => Value::Map(
            map.into_iter()
                .map(|(k, v)| {
                    let key = Node {
                        value: Value::Str(k),
                        pos,
                    };
                    (key, node_of(v, pos))
                })
                .collect(),
        ),
    };
    Node { value, pos }
}

/// The events of a hooks mapping (`root`), from `file` when it came from one.
fn events(root: &Node, file: Option<&str>, sink: &mut Sink) -> Vec<HookEvent> {
    let Some(entries) = root.as_map() else {
        rules::deps::hooks_shape(sink, root.pos, file, "hooks", "a mapping", root.kind());
        return Vec::new();
    };
    // A file (and Claude Code's settings) wrap the events in `hooks`, beside `description`
    // or the Copilot CLI's `version`.
    if let Some(inner) = root.get("hooks") {
        return match inner.as_map() {
            Some(_) => events(inner, file, sink),
            None => {
                let found = inner.kind();
                rules::deps::hooks_shape(sink, inner.pos, file, "hooks.hooks", "a mapping", found);
                Vec::new()
            }
        };
    }
    let mut out = Vec::with_capacity(entries.len());
    for (key, value) in entries {
        let Some(name) = key.scalar_text() else {
            continue;
        };
        let mut event = HookEvent {
            name,
            commands: Vec::new(),
            pos: key.pos,
        };
        let at = format!("hooks.{}", event.name);
        match value.as_seq() {
            Some(items) => {
                for (i, item) in items.iter().enumerate() {
                    entry(item, &format!("{at}[{i}]"), file, &mut event, sink);
                }
            }
            None => {
                let found = value.kind();
                rules::deps::hooks_shape(sink, value.pos, file, &at, "a list", found);
            }
        }
        out.push(event);
    }
    out
}

/// One entry of an event's list: a matcher group (`{matcher?, hooks: [...]}`) or a handler.
fn entry(item: &Node, at: &str, file: Option<&str>, event: &mut HookEvent, sink: &mut Sink) {
    if item.as_map().is_none() {
        let found = item.kind();
        rules::deps::hooks_shape(
            sink,
            item.pos,
            file,
            at,
            "a handler or matcher group",
            found,
        );
        return;
    }
    let Some(group) = item.get("hooks") else {
        return handler(item, at, file, event, sink);
    };
    if let Some(m) = item.get("matcher")
        && m.as_str().is_none()
        && !m.is_null()
    {
        let at = format!("{at}.matcher");
        rules::deps::hooks_shape(sink, m.pos, file, &at, "a string", m.kind());
    }
    match group.as_seq() {
        Some(handlers) => {
            for (i, h) in handlers.iter().enumerate() {
                let at = format!("{at}.hooks[{i}]");
                if h.as_map().is_some() {
                    handler(h, &at, file, event, sink);
                } else {
                    rules::deps::hooks_shape(sink, h.pos, file, &at, "a handler", h.kind());
                }
            }
        }
        None => {
            let at = format!("{at}.hooks");
            rules::deps::hooks_shape(sink, group.pos, file, &at, "a list", group.kind());
        }
    }
}

/// A handler mapping: its command lines, when it runs commands.
fn handler(h: &Node, at: &str, file: Option<&str>, event: &mut HookEvent, sink: &mut Sink) {
    let kind = h.get("type");
    if let Some(t) = kind
        && t.as_str().is_none()
    {
        let at = format!("{at}.type");
        rules::deps::hooks_shape(sink, t.pos, file, &at, "a string", t.kind());
        return;
    }
    // `http`, `prompt`, `agent` and `mcp_tool` handlers run no command line.
    if kind.and_then(Node::as_str).is_some_and(|t| t != "command") {
        return;
    }
    let cwd = h.get("cwd").and_then(Node::as_str).map(str::to_owned);
    for key in COMMAND_KEYS {
        let Some(c) = h.get(key) else { continue };
        match c.as_str() {
            Some(command) => event.commands.push(HookCommand {
                command: command.to_owned(),
                cwd: cwd.clone(),
                pos: c.pos,
            }),
            None => {
                let at = format!("{at}.{key}");
                rules::deps::hooks_shape(sink, c.pos, file, &at, "a string", c.kind());
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The scripts hook commands run: found in the command line, looked for (never read or run).

/// Where the scripts of hook commands are looked for.
pub(crate) struct Bases<'a> {
    /// `${CLAUDE_SKILL_DIR}`.
    pub skill: Option<&'a Path>,
    /// Relative paths (`scripts/x.sh`), when the file's folder is what they name.
    pub relative: Option<&'a Path>,
    /// `${CLAUDE_PLUGIN_ROOT}`.
    pub plugin: Option<PathBuf>,
}

/// The plugin folder holding `dir`: the nearest folder inside the audited tree with a plugin
/// manifest (`.claude-plugin/plugin.json`, `plugin.json`, `.plugin/plugin.json`).
pub(crate) fn plugin_root(dir: &Path, boundary: &Boundary) -> Option<PathBuf> {
    let real = std::fs::canonicalize(dir).ok()?;
    let manifests = [
        ".claude-plugin/plugin.json",
        "plugin.json",
        ".plugin/plugin.json",
    ];
    real.ancestors()
        .take_while(|a| boundary.admits(a))
        .find(|a| {
            manifests
                .iter()
                .any(|m| std::fs::symlink_metadata(a.join(m)).is_ok_and(|m| m.is_file()))
        })
        .map(Path::to_owned)
}

/// The script a command runs, if it names one in a folder skill-audit can look in: the path
/// relative to that folder, the folder, and how messages name it.
pub(crate) fn script_of(
    c: &HookCommand,
    bases: &Bases,
) -> Option<(PathBuf, (PathBuf, &'static str))> {
    let token = script_token(&c.command)?;
    let vars: [(&[&str], Option<&Path>, &'static str); 2] = [
        (
            &["${CLAUDE_SKILL_DIR}/", "$CLAUDE_SKILL_DIR/"],
            bases.skill,
            "the skill's folder",
        ),
        (
            &[
                "${CLAUDE_PLUGIN_ROOT}/",
                "$CLAUDE_PLUGIN_ROOT/",
                "${PLUGIN_ROOT}/",
                "$PLUGIN_ROOT/",
            ],
            bases.plugin.as_deref(),
            "the plugin's folder",
        ),
    ];
    for (prefixes, base, label) in vars {
        if let Some(rest) = prefixes.iter().find_map(|p| token.strip_prefix(p)) {
            let rel = relative(rest)?;
            return Some((rel, (base?.to_owned(), label)));
        }
    }
    // Another variable (`$CLAUDE_PROJECT_DIR`, `$HOME`) names a folder not known here; a
    // `cwd` moves where a relative path starts.
    if token.contains('$') || c.cwd.is_some() {
        return None;
    }
    let base = bases.relative?;
    let rel = relative(&token)?;
    // Hosts run hook commands from the project, so a relative path may name a project file;
    // it is judged only when its first folder is one of the skill's own (`scripts/`).
    let mut parts = rel.components();
    let first = parts.next()?;
    parts.next()?;
    if exists_exact(base, Path::new(first.as_os_str())) != Some(true) {
        return None;
    }
    Some((rel, (base.to_owned(), "the skill's folder")))
}

/// The program a command line runs, or the script its interpreter runs (`bash x.sh`,
/// `python3 -u x.py`, `uv run x.py`): a token with a `/` or a file extension.
fn script_token(command: &str) -> Option<String> {
    const INTERPRETERS: &[&str] = &[
        "bash",
        "sh",
        "zsh",
        "dash",
        "python",
        "python3",
        "node",
        "deno",
        "bun",
        "ruby",
        "perl",
        "pwsh",
        "powershell",
        "uv",
        "tsx",
        "ts-node",
        "npx",
    ];
    let mut words = words(command).into_iter();
    let mut word = words.find(|w| !is_assignment(w))?;
    // `/usr/bin/env python3`, `uv run`, `bun run`: the script comes after them and flags.
    while word == "env"
        || word.ends_with("/env")
        || INTERPRETERS
            .iter()
            .any(|i| word == *i || word.ends_with(&format!("/{i}")))
    {
        word = words.find(|w| !w.starts_with('-') && w != "run")?;
    }
    let looks_like_file = word.contains('/')
        || Path::new(&word)
            .extension()
            .is_some_and(|e| e.len() <= 4 && !e.is_empty());
    (looks_like_file && !word.contains('\\')).then_some(word)
}

/// `FOO=bar` before the program.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// The words of the first simple command of a command line, quotes removed (no escapes or
/// expansions: only where a script path is, is wanted).
fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => quote = Some(c),
            (None, ';' | '|' | '&' | '>' | '<') => break,
            (None, c) if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// `path` as plain relative components (`./` dropped), or `None` when it is absolute or
/// climbs with `..`.
fn relative(path: &str) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for c in Path::new(path).components() {
        match c {
            Component::Normal(n) => out.push(n),
            Component::CurDir => {}
            _ => return None,
        }
    }
    (!out.as_os_str().is_empty()).then_some(out)
}

/// Does `rel` exist under `base`, spelt exactly so (also on file systems that ignore case)?
/// Folders are listed, never a file read; `None` when it cannot be told without following a
/// link out of the folder.
pub(crate) fn exists_exact(base: &Path, rel: &Path) -> Option<bool> {
    let mut dir = base.to_owned();
    let parts: Vec<_> = rel.components().collect();
    for (i, part) in parts.iter().enumerate() {
        let Component::Normal(name) = part else {
            return None;
        };
        let entries = std::fs::read_dir(&dir).ok()?;
        let Some(entry) = entries.flatten().find(|e| e.file_name() == *name) else {
            return Some(false);
        };
        if i + 1 < parts.len() {
            let t = entry.file_type().ok()?;
            if t.is_symlink() {
                return None;
            }
            if !t.is_dir() {
                return Some(false);
            }
        }
        dir.push(name);
    }
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    fn yaml(src: &str) -> Node {
        crate::parse::yaml::parse(src, 1)
            .expect("yaml")
            .get("hooks")
            .expect("hooks")
            .clone()
    }

    fn names(h: &Hooks) -> Vec<&str> {
        h.events.iter().map(|e| e.name.as_str()).collect()
    }

    #[test]
    fn both_inline_shapes() {
        let mut sink = Sink::new("SKILL.md");
        let claude = yaml(
            "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: ./scripts/check.sh\n  Stop:\n    - hooks: [{type: prompt, prompt: p}]\n",
        );
        let h = read(&claude, &mut sink).expect("hooks");
        assert_eq!(names(&h), ["PreToolUse", "Stop"]);
        assert_eq!(h.events[0].commands[0].command, "./scripts/check.sh");
        assert_eq!(h.events[0].commands[0].pos, Pos::new(6, 20));
        assert!(h.events[1].commands.is_empty(), "a prompt runs no command");
        let vscode = yaml(
            "hooks:\n  SessionStart:\n    - type: command\n      command: echo hi\n      windows: scripts\\\\hi.cmd\n      cwd: tools\n",
        );
        let h = read(&vscode, &mut sink).expect("hooks");
        assert_eq!(names(&h), ["SessionStart"]);
        assert_eq!(h.events[0].commands.len(), 2);
        assert_eq!(h.events[0].commands[0].cwd.as_deref(), Some("tools"));
        assert!(sink.findings.is_empty(), "{:?}", sink.findings);
    }

    #[test]
    fn wrong_shapes_are_reported_where_they_are() {
        let mut sink = Sink::new("SKILL.md");
        let h =
            yaml("hooks:\n  Stop: echo\n  PreToolUse:\n    - 3\n    - hooks: {type: command}\n");
        let h = read(&h, &mut sink).expect("hooks");
        assert_eq!(names(&h), ["Stop", "PreToolUse"], "events are kept");
        let found: Vec<(Rule, u32)> = sink.findings.iter().map(|f| (f.rule, f.line)).collect();
        assert_eq!(
            found,
            [
                (Rule::HooksInvalid, 2),
                (Rule::HooksInvalid, 4),
                (Rule::HooksInvalid, 5)
            ]
        );
        assert!(
            sink.findings[0]
                .message
                .contains("`hooks.Stop` must be a list")
        );
        let mut sink = Sink::new("SKILL.md");
        assert!(read(&yaml("hooks: [a]\n"), &mut sink).is_none());
        assert_eq!(sink.findings[0].rule, Rule::CapabilityFieldType);
    }

    #[test]
    fn paths_stay_inside_the_folder() {
        assert_eq!(inside("./hooks.json"), Some(PathBuf::from("hooks.json")));
        assert_eq!(
            inside("${CLAUDE_SKILL_DIR}/hooks/h.json"),
            Some(PathBuf::from("hooks/h.json"))
        );
        assert_eq!(inside("../h.json"), None);
        assert_eq!(inside("a/../../h.json"), None);
        assert_eq!(inside("/etc/h.json"), None);
        assert_eq!(inside("."), None);
    }

    #[test]
    fn files_are_read_checked_and_placed() {
        let dir = tempfile::tempdir().expect("temp dir");
        let skill = dir.path().join("s");
        std::fs::create_dir_all(skill.join("hooks")).expect("mkdir");
        std::fs::write(
            skill.join("hooks/hooks.json"),
            r#"{"description": "d", "hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "x"}]}]}}"#,
        )
        .expect("write");
        std::fs::write(skill.join("bad.json"), "{\n  \"SessionStart\": [,]\n}").expect("write");
        std::fs::write(dir.path().join("outside.json"), "{}").expect("write");
        let boundary = Boundary::new(&[dir.path().to_owned()], false);
        let run = |file: &str| {
            let mut sink = Sink::new("s/SKILL.md");
            let mut h = Hooks {
                file: Some(file.into()),
                events: Vec::new(),
                pos: Pos::new(3, 8),
            };
            load(&mut h, &skill, "skill", &boundary, &mut sink);
            (h, sink.findings)
        };
        let (h, f) = run("hooks/hooks.json");
        assert!(f.is_empty(), "{f:?}");
        assert_eq!(names(&h), ["SessionStart"]);
        let (_, f) = run("missing.json");
        assert_eq!(f[0].rule, Rule::HooksFileMissing);
        assert!(f[0].message.contains("`missing.json`"), "{}", f[0].message);
        let (_, f) = run("../outside.json");
        assert_eq!(f[0].rule, Rule::HooksFileMissing);
        assert!(f[0].message.contains("not read"), "{}", f[0].message);
        let (_, f) = run("bad.json");
        assert_eq!(f[0].rule, Rule::HooksInvalid);
        assert_eq!((f[0].line, f[0].column), (3, 8), "at `hooks`");
        assert!(f[0].message.contains("bad.json:2:20"), "{}", f[0].message);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.path().join("outside.json"), skill.join("link.json"))
                .expect("symlink");
            let (_, f) = run("link.json");
            assert_eq!(f[0].rule, Rule::HooksFileMissing);
            assert!(f[0].message.contains("outside"), "{}", f[0].message);
        }
    }

    #[test]
    fn the_script_of_a_command_line() {
        let s = |c: &str| script_token(c);
        assert_eq!(
            s("./scripts/x.sh --fast").as_deref(),
            Some("./scripts/x.sh")
        );
        assert_eq!(s("bash scripts/x.sh").as_deref(), Some("scripts/x.sh"));
        assert_eq!(
            s("python3 -u scripts/x.py arg").as_deref(),
            Some("scripts/x.py")
        );
        assert_eq!(s("uv run scripts/x.py").as_deref(), Some("scripts/x.py"));
        assert_eq!(
            s("/usr/bin/env node hooks/x.js").as_deref(),
            Some("hooks/x.js")
        );
        assert_eq!(
            s("FOO=1 \"${CLAUDE_SKILL_DIR}/scripts/x.sh\"").as_deref(),
            Some("${CLAUDE_SKILL_DIR}/scripts/x.sh")
        );
        assert_eq!(s("check.sh").as_deref(), Some("check.sh"));
        assert_eq!(
            s("jq .tool_input | grep rm"),
            None,
            "a program, not a script"
        );
        assert_eq!(s("echo hi"), None);
        assert_eq!(s("npx prettier --write"), None);
        assert_eq!(s("scripts\\hi.cmd"), None, "Windows paths are not judged");
        assert_eq!(s(""), None);
    }

    #[test]
    fn scripts_are_looked_for_from_the_right_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let plugin = dir.path().join("plugin");
        let skill = plugin.join("skills/s");
        std::fs::create_dir_all(skill.join("scripts")).expect("mkdir");
        std::fs::create_dir_all(plugin.join(".claude-plugin")).expect("mkdir");
        std::fs::create_dir_all(plugin.join("hooks")).expect("mkdir");
        std::fs::write(plugin.join(".claude-plugin/plugin.json"), "{}").expect("write");
        std::fs::write(skill.join("scripts/check.sh"), "").expect("write");
        std::fs::write(plugin.join("hooks/run.sh"), "").expect("write");
        let boundary = Boundary::new(&[dir.path().to_owned()], false);
        let root = plugin_root(&skill, &boundary).expect("a plugin");
        assert!(root.ends_with("plugin"));
        let bases = Bases {
            skill: Some(&skill),
            relative: Some(&skill),
            plugin: Some(root),
        };
        let found = |command: &str, cwd: Option<&str>| {
            let c = HookCommand {
                command: command.into(),
                cwd: cwd.map(str::to_owned),
                pos: Pos::START,
            };
            script_of(&c, &bases).map(|(rel, (base, label))| (exists_exact(&base, &rel), label))
        };
        assert_eq!(
            found("${CLAUDE_SKILL_DIR}/scripts/check.sh", None),
            Some((Some(true), "the skill's folder"))
        );
        assert_eq!(
            found("bash ${CLAUDE_SKILL_DIR}/scripts/Check.sh", None),
            Some((Some(false), "the skill's folder")),
            "exact case"
        );
        assert_eq!(
            found("$CLAUDE_PLUGIN_ROOT/hooks/run.sh", None),
            Some((Some(true), "the plugin's folder"))
        );
        assert_eq!(
            found("${CLAUDE_PLUGIN_ROOT}/hooks/gone.sh", None),
            Some((Some(false), "the plugin's folder"))
        );
        assert_eq!(
            found("./scripts/gone.sh", None),
            Some((Some(false), "the skill's folder"))
        );
        assert_eq!(
            found("python3 scripts/check.sh", None),
            Some((Some(true), "the skill's folder"))
        );
        assert_eq!(
            found("tools/lint.sh", None),
            None,
            "not a folder of the skill: the project's"
        );
        assert_eq!(found("./check.sh", None), None, "may be the project's");
        assert_eq!(
            found("scripts/gone.sh", Some("sub")),
            None,
            "`cwd` moves the base"
        );
        assert_eq!(found("$CLAUDE_PROJECT_DIR/.claude/x.sh", None), None);
        assert_eq!(found("${CLAUDE_SKILL_DIR}/../x.sh", None), None);
        // No plugin around it: `${CLAUDE_PLUGIN_ROOT}` is not judged.
        let lone = Bases {
            skill: Some(&skill),
            relative: None,
            plugin: None,
        };
        let c = HookCommand {
            command: "${CLAUDE_PLUGIN_ROOT}/x.sh".into(),
            cwd: None,
            pos: Pos::START,
        };
        assert!(script_of(&c, &lone).is_none());
        let outside = tempfile::tempdir().expect("temp dir");
        assert!(
            plugin_root(outside.path(), &boundary).is_none(),
            "outside the tree"
        );
    }
}
