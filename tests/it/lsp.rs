//! `skill-audit lsp` driven over standard input and output, as an editor drives it: framed
//! JSON-RPC messages in, diagnostics and answers out.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::common::{Reaper, tree};

/// Long enough for a slow, busy machine; a server that answers never fails only after this.
const PATIENCE: Duration = Duration::from_secs(60);

/// A client of one server process.
pub(crate) struct Client {
    child: Reaper,
    stdin: ChildStdin,
    incoming: mpsc::Receiver<Value>,
    next_id: i64,
    /// Server notifications read while waiting for something else.
    seen: Vec<Value>,
}

fn read_message(r: &mut impl BufRead) -> Option<Value> {
    let mut len = None;
    loop {
        let mut line = String::new();
        if r.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length: ") {
            len = v.parse::<usize>().ok();
        }
    }
    let mut body = vec![0; len?];
    r.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

fn reader(out: ChildStdout) -> mpsc::Receiver<Value> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(out);
        while let Some(m) = read_message(&mut r) {
            if tx.send(m).is_err() {
                break;
            }
        }
    });
    rx
}

pub fn uri(path: &Path) -> String {
    url::Url::from_file_path(path).unwrap().to_string()
}

impl Client {
    /// Start the server in `root` and initialize it with `root` as the workspace folder.
    pub(crate) fn start(root: &Path, env: &[(&str, &str)]) -> Client {
        Client::start_with(root, env, json!({}))
    }

    /// [`Client::start`], for a client with these capabilities.
    fn start_with(root: &Path, env: &[(&str, &str)], capabilities: Value) -> Client {
        Client::start_in(root, root, env, capabilities)
    }

    /// [`Client::start_with`], the server running in the folder `cwd`, as an editor may start
    /// it in its own.
    fn start_in(cwd: &Path, root: &Path, env: &[(&str, &str)], capabilities: Value) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_skill-audit"))
            .arg("lsp")
            .current_dir(cwd)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the server starts");
        let stdin = child.stdin.take().unwrap();
        let incoming = reader(child.stdout.take().unwrap());
        let mut c = Client {
            child: Reaper(child),
            stdin,
            incoming,
            next_id: 0,
            seen: Vec::new(),
        };
        let init = c.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": uri(root),
                "capabilities": capabilities,
                "workspaceFolders": [{"uri": uri(root), "name": "w"}],
            }),
        );
        assert_eq!(
            init["result"]["serverInfo"]["name"], "skill-audit",
            "{init}"
        );
        c.notify("initialized", json!({}));
        c
    }

    fn send(&mut self, msg: Value) {
        let body = msg.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    /// Bytes as they are, framed or not.
    fn raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next error response that answers no request (`id` null).
    fn unaddressed_error(&mut self) -> Value {
        let is_it = |m: &Value| m.get("error").is_some() && m["id"].is_null();
        if let Some(i) = self.seen.iter().position(is_it) {
            return self.seen.remove(i);
        }
        loop {
            let m = self.next();
            if is_it(&m) {
                return m;
            }
            self.seen.push(m);
        }
    }

    /// Whether the server is still serving: a request is answered.
    fn serves(&mut self) -> bool {
        let r = self.request("skill-audit/ping", Value::Null);
        r["error"]["code"] == -32601
    }

    /// Close the server's input and wait for it to end.
    fn close_input(self) -> std::process::ExitStatus {
        let Client {
            mut child, stdin, ..
        } = self;
        drop(stdin);
        wait(&mut child.0)
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Send a request and wait for its response; notifications meanwhile are kept.
    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.next();
            if m["id"] == id && m.get("method").is_none() {
                return m;
            }
            self.seen.push(m);
        }
    }

    fn next(&mut self) -> Value {
        self.incoming
            .recv_timeout(PATIENCE)
            .expect("the server answers in time")
    }

    /// The next diagnostics published for `uri` (including ones already received).
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let is_for = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        };
        if let Some(i) = self.seen.iter().position(is_for) {
            let m = self.seen.remove(i);
            return m["params"]["diagnostics"].as_array().unwrap().clone();
        }
        loop {
            let m = self.next();
            if is_for(&m) {
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.seen.push(m);
        }
    }

    /// The first diagnostics for `uri` that are not empty.
    fn some_diagnostics(&mut self, uri: &str) -> Vec<Value> {
        loop {
            let d = self.diagnostics(uri);
            if !d.is_empty() {
                return d;
            }
        }
    }

    /// The last diagnostics received for `uri` (every change was judged before the last
    /// response, so nothing later is on its way).
    fn latest(&mut self, uri: &str) -> Vec<Value> {
        let m = self
            .seen
            .iter()
            .rev()
            .find(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
            .expect("diagnostics were published");
        m["params"]["diagnostics"].as_array().unwrap().clone()
    }

    /// Forget every notification received so far.
    fn drain(&mut self) {
        self.seen.clear();
        while let Ok(m) = self.incoming.try_recv() {
            drop(m);
        }
    }

    pub(crate) fn open(&mut self, path: &Path, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri(path), "languageId": "markdown", "version": 1, "text": text}}),
        );
    }

    fn change(&mut self, path: &Path, version: i64, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri(path), "version": version}, "contentChanges": [{"text": text}]}),
        );
    }

    fn at(&mut self, method: &str, path: &Path, line: u32, character: u32) -> Value {
        self.request(
            method,
            json!({"textDocument": {"uri": uri(path)}, "position": {"line": line, "character": character}}),
        )
    }

    /// The code actions for characters `from..to` of a line, with no diagnostics given.
    pub(crate) fn code_actions(&mut self, path: &Path, line: u32, from: u32, to: u32) -> Value {
        self.request(
            "textDocument/codeAction",
            json!({
                "textDocument": {"uri": uri(path)},
                "range": {"start": {"line": line, "character": from}, "end": {"line": line, "character": to}},
                "context": {"diagnostics": []},
            }),
        )
    }

    /// The Markdown of the hover at a place ("" for none).
    pub(crate) fn hover_text(&mut self, path: &Path, line: u32, character: u32) -> String {
        let h = self.at("textDocument/hover", path, line, character);
        h["result"]["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .to_owned()
    }

    /// `shutdown`, then `exit`: the process must end by itself, successfully.
    pub(crate) fn stop(mut self) {
        let r = self.request("shutdown", Value::Null);
        assert_eq!(r["result"], Value::Null, "{r}");
        self.notify("exit", Value::Null);
        let status = wait(&mut self.child.0);
        assert!(status.success(), "{status}");
    }
}

fn wait(child: &mut std::process::Child) -> std::process::ExitStatus {
    let start = std::time::Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        assert!(start.elapsed() < PATIENCE, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A server started on a new [`library`].
fn started(env: &[(&str, &str)]) -> (Lib, Client) {
    let lib = library();
    let c = Client::start(&lib.root, env);
    (lib, c)
}

const PROFILE: &str = r#"{"name": "ci", "tools": ["read", "gh/search"]}"#;
const PROFILE2: &str = r#"{"name": "dev", "tools": ["read", "pdftool"]}"#;

/// A library in a temporary folder, and the paths of its files.
struct Lib {
    _dir: tempfile::TempDir,
    root: PathBuf,
    skill: PathBuf,
    agent: PathBuf,
    manifest: PathBuf,
}

/// A library: a skill, an agent that loads it, a plugin manifest naming it, two profiles.
fn library() -> Lib {
    let dir = tree(&[
        (
            "skill-audit.toml",
            "profiles = [\"profiles/ci.json\", \"profiles/dev.json\"]\n",
        ),
        ("profiles/ci.json", PROFILE),
        ("profiles/dev.json", PROFILE2),
        (
            "skills/pdf/SKILL.md",
            "---\nname: pdf\ndescription: Reads PDF files. Use when a PDF is given.\ntools: [read, pdftool]\ndependencies:\n  tools: [read, pdftool]\n---\n# pdf\nSee [the agent](../../agents/writer.agent.md).\n",
        ),
        (
            "agents/writer.agent.md",
            "---\nname: writer\ndescription: Writes things.\ntools: ['read']\nskills:\n  - pdf\n---\nWrite.\n",
        ),
        (
            "plugins/docs/plugin.json",
            "{\n  \"name\": \"docs\",\n  \"description\": \"Docs.\",\n  \"version\": \"1.0.0\",\n  \"skills\": [\n    \"../../skills/pdf\"\n  ]\n}\n",
        ),
    ]);
    let root = dir.path().canonicalize().unwrap();
    Lib {
        skill: root.join("skills/pdf/SKILL.md"),
        agent: root.join("agents/writer.agent.md"),
        manifest: root.join("plugins/docs/plugin.json"),
        root,
        _dir: dir,
    }
}

const MISSPELT: &str = "---\nname: pdf\ndescriptin: Reads PDF files. Use when a PDF is given.\ndescription: Reads PDF files. Use when a PDF is given.\ntools: [read, pdftool]\n---\n# pdf\n";

fn codes(diags: &[Value]) -> Vec<String> {
    diags
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[test]
fn a_misspelt_key_is_reported_as_typed_and_cleared_when_fixed() {
    let (lib, mut c) = started(&[]);
    c.open(&lib.skill, MISSPELT);
    let diags = loop {
        let d = c.diagnostics(&uri(&lib.skill));
        if codes(&d).contains(&"SA221".to_owned()) {
            break d;
        }
    };
    let d = diags.iter().find(|d| d["code"] == "SA221").unwrap();
    assert_eq!(
        d["range"],
        json!({"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 10}})
    );
    assert_eq!(d["source"], "skill-audit");
    assert_eq!(d["severity"], 2);
    assert!(
        d["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .ends_with("rules.md#sa221-unknown-key"),
        "{d}"
    );
    // The fix, typed: the buffer, not the disk (which still has no misspelling), is judged.
    c.change(
        &lib.skill,
        2,
        &MISSPELT.replace(
            "descriptin: Reads PDF files. Use when a PDF is given.\n",
            "",
        ),
    );
    let after = c.diagnostics(&uri(&lib.skill));
    assert!(!codes(&after).contains(&"SA221".to_owned()), "{after:?}");
    c.stop();
}

#[test]
fn a_skill_change_re_judges_the_agent_that_loads_it() {
    let (lib, mut c) = started(&[]);
    // The agent grants `read` but the skill wants `pdftool` too: drift, on the agent.
    let before = c.diagnostics(&uri(&lib.agent));
    assert!(!before.is_empty(), "drift is reported at start");
    c.open(&lib.skill, "---\nname: pdf\ndescription: Reads PDF files. Use when a PDF is given.\ntools: [read]\n---\n# pdf\n");
    let after = c.diagnostics(&uri(&lib.agent));
    assert!(
        after.len() < before.len(),
        "the drift went away with the skill's `pdftool`: {before:?} then {after:?}"
    );
    c.stop();
}

#[test]
fn hover_shows_each_profile_and_the_skill_behind_a_name() {
    let (lib, mut c) = started(&[]);
    // `pdftool` in the skill's `tools: [read, pdftool]`, line 3.
    let text = c.hover_text(&lib.skill, 3, 15);
    assert!(text.contains("`pdftool`"), "{text}");
    assert!(text.contains("| `ci` | missing |"), "{text}");
    assert!(text.contains("| `dev` | available"), "{text}");
    // `pdf` in the agent's `skills:` list: the skill's description and availability.
    let text = c.hover_text(&lib.agent, 5, 5);
    assert!(text.contains("Reads PDF files."), "{text}");
    assert!(text.contains("`ci` | unavailable"), "{text}");
    // Nothing to say on a key.
    let h = c.at("textDocument/hover", &lib.skill, 1, 1);
    assert_eq!(h["result"], Value::Null, "{h}");
    c.stop();
}

#[test]
fn the_settings_of_the_workspace_are_read_whatever_folder_the_server_runs_in() {
    let lib = library();
    let elsewhere = tempfile::TempDir::new().unwrap();
    let mut c = Client::start_in(elsewhere.path(), &lib.root, &[], json!({}));
    // The profiles of the workspace's skill-audit.toml judge the skill.
    let text = c.hover_text(&lib.skill, 3, 15);
    assert!(text.contains("| `ci` | missing |"), "{text}");
    assert!(
        !c.diagnostics(&uri(&lib.agent)).is_empty(),
        "drift on the agent"
    );
    c.stop();
}

#[test]
fn definition_leads_from_references_to_the_skill_file() {
    let (lib, mut c) = started(&[]);
    for (from, line, character) in [(&lib.agent, 5, 5), (&lib.manifest, 5, 10)] {
        let d = c.at("textDocument/definition", from, line, character);
        assert_eq!(d["result"]["uri"], uri(&lib.skill), "{d}");
    }
    // A body link, to the agent.
    let d = c.at("textDocument/definition", &lib.skill, 8, 20);
    assert_eq!(d["result"]["uri"], uri(&lib.agent), "{d}");
    c.stop();
}

/// A manifest path that names nothing under the plugin's folder resolves from the audited
/// root, as the audit links it.
#[test]
fn definition_follows_a_manifest_path_from_the_audited_root() {
    let lib = library();
    let manifest = lib.root.join("plugins/rooted/plugin.json");
    std::fs::create_dir_all(manifest.parent().unwrap()).unwrap();
    std::fs::write(
        &manifest,
        "{\n  \"name\": \"rooted\",\n  \"skills\": [\n    \"./skills/pdf/\"\n  ]\n}\n",
    )
    .unwrap();
    let mut c = Client::start(&lib.root, &[]);
    let d = c.at("textDocument/definition", &manifest, 3, 10);
    assert_eq!(d["result"]["uri"], uri(&lib.skill), "{d}");
    c.stop();
}

#[test]
fn completion_offers_keys_and_the_profiles_tool_names() {
    let (lib, mut c) = started(&[]);
    c.open(&lib.skill, "---\nname: pdf\nde\ntools:\n  - \n---\n");
    let labels = |r: &Value| -> Vec<String> {
        r["result"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|i| i["label"].as_str().unwrap_or_default().to_owned())
                    .collect()
            })
            .unwrap_or_default()
    };
    let keys = labels(&c.at("textDocument/completion", &lib.skill, 2, 2));
    for k in [
        "description",
        "dependencies",
        "allowed-tools",
        "argument-hint",
    ] {
        assert!(keys.contains(&k.to_owned()), "{k} in {keys:?}");
    }
    let tools = labels(&c.at("textDocument/completion", &lib.skill, 4, 4));
    assert_eq!(tools, ["gh/search", "pdftool", "read"]);
    // An agent's keys are an agent's.
    c.open(&lib.agent, "---\nname: writer\n\n---\n");
    let keys = labels(&c.at("textDocument/completion", &lib.agent, 2, 0));
    assert!(keys.contains(&"handoffs".to_owned()), "{keys:?}");
    assert!(!keys.contains(&"license".to_owned()), "{keys:?}");
    c.stop();
}

#[test]
fn code_actions_answer_with_actions() {
    let (lib, mut c) = started(&[]);
    c.open(&lib.skill, MISSPELT);
    let r = c.code_actions(&lib.skill, 2, 0, 3);
    // Which findings carry fixes is up to the rules; every action offered must be well formed.
    let actions = r["result"]
        .as_array()
        .unwrap_or_else(|| panic!("a list: {r}"));
    for a in actions {
        assert!(a["title"].is_string(), "{a}");
        let kind = a["kind"].as_str().unwrap_or_default();
        assert!(
            kind == "quickfix" || kind == "source.fixAll.skill-audit",
            "{a}"
        );
        assert!(a["edit"]["changes"][uri(&lib.skill)].is_array(), "{a}");
    }
    c.stop();
}

#[test]
fn a_misspelt_key_gets_its_fix_as_a_quick_fix_and_in_fix_all() {
    let (lib, mut c) = started(&[]);
    // Only the misspelt key: the one it almost matches is absent, so SA221 carries a fix.
    let text =
        "---\nname: pdf\ndescriptin: Reads PDF files. Use when a PDF is given.\n---\n# pdf\n";
    c.open(&lib.skill, text);
    let edits_of = |r: &Value, kind: &str| -> Vec<Value> {
        let actions = r["result"].as_array().cloned().unwrap_or_default();
        let action = actions
            .iter()
            .find(|a| a["kind"] == kind)
            .unwrap_or_else(|| panic!("a {kind} action: {r}"));
        action["edit"]["changes"][uri(&lib.skill)]
            .as_array()
            .cloned()
            .unwrap_or_default()
    };
    let r = c.code_actions(&lib.skill, 2, 0, 3);
    let rename = json!([{
        "range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 10}},
        "newText": "description",
    }]);
    assert_eq!(Value::Array(edits_of(&r, "quickfix")), rename, "{r}");
    let r = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(&lib.skill)},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]},
        }),
    );
    // Fix all sends what changes, which here is what the quick fix changes.
    let all = edits_of(&r, "source.fixAll.skill-audit");
    assert_eq!(
        apply_edits(text, &all),
        apply_edits(text, rename.as_array().unwrap()),
        "{r}"
    );
    c.stop();
}

/// `edits` (of an ASCII text) made to `text`, as an editor makes them.
fn apply_edits(text: &str, edits: &[Value]) -> String {
    let offset = |p: &Value| {
        let line = p["line"].as_u64().unwrap_or_default() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + p["character"].as_u64().unwrap_or_default() as usize
    };
    let mut edits: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            let r = &e["range"];
            let new = e["newText"].as_str().unwrap_or_default();
            (offset(&r["start"]), offset(&r["end"]), new)
        })
        .collect();
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = text.to_owned();
    for (from, to, new) in edits {
        out.replace_range(from..to, new);
    }
    out
}

#[test]
fn fix_all_makes_every_safe_fix_as_the_command_line_fix_does() {
    // Each broken line hides the next from the parser: its fix is found only once the line
    // before it is fixed, and `allowed-tools` is judged only once the file parses.
    let text =
        "---\nname: q5\ndescription: a: b\nlicense: c: d\nallowed-tools: Read, Write\n---\nBody\n";
    let dir = tree(&[("skills/q5/SKILL.md", text)]);
    let root = dir.path().canonicalize().unwrap();
    let skill = root.join("skills/q5/SKILL.md");
    let mut c = Client::start(&root, &[]);
    c.open(&skill, text);
    let r = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(&skill)},
            "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
            "context": {"diagnostics": [], "only": ["source.fixAll"]},
        }),
    );
    let actions = r["result"].as_array().cloned().unwrap_or_default();
    let [all] = actions.as_slice() else {
        panic!("one fix all: {r}")
    };
    let edits = all["edit"]["changes"][uri(&skill)]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let fixed = apply_edits(text, &edits);
    // The diagnostics are still those of the text as it is: nothing was fixed yet.
    let d = c.latest(&uri(&skill));
    assert!(codes(&d).contains(&"SA104".to_owned()), "{d:?}");
    assert!(c.serves());
    c.stop();
    let out = Command::new(env!("CARGO_BIN_EXE_skill-audit"))
        .args(["--fix", "--fail-on", "never", "."])
        .current_dir(&root)
        .output()
        .expect("the command line runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let by_cli = std::fs::read_to_string(&skill).unwrap();
    assert_ne!(by_cli, text, "the command line fixes it");
    assert_eq!(fixed, by_cli);
    assert_eq!(
        fixed,
        "---\nname: q5\ndescription: 'a: b'\nlicense: 'c: d'\nallowed-tools: Read Write\n---\nBody\n"
    );
}

#[test]
fn fix_all_among_the_other_actions_is_worked_out_when_the_client_resolves_it() {
    // Each pass judges the document again: a client that resolves edits has that done only
    // for the action it applies, not on every request for the actions at the cursor.
    let text =
        "---\nname: q5\ndescription: a: b\nlicense: c: d\nallowed-tools: Read, Write\n---\nBody\n";
    let dir = tree(&[("skills/q5/SKILL.md", text)]);
    let root = dir.path().canonicalize().unwrap();
    let skill = root.join("skills/q5/SKILL.md");
    let caps =
        json!({"textDocument": {"codeAction": {"resolveSupport": {"properties": ["edit"]}}}});
    let mut c = Client::start_with(&root, &[], caps);
    c.open(&skill, text);
    let r = c.request(
        "textDocument/codeAction",
        json!({
            "textDocument": {"uri": uri(&skill)},
            "range": {"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}},
            "context": {"diagnostics": []},
        }),
    );
    let actions = r["result"].as_array().cloned().unwrap_or_default();
    let all = actions
        .iter()
        .find(|a| a["kind"] == "source.fixAll.skill-audit")
        .unwrap_or_else(|| panic!("a fix all: {r}"));
    assert!(all.get("edit").is_none(), "{all}");
    let resolved = c.request("codeAction/resolve", all.clone());
    let edits = resolved["result"]["edit"]["changes"][uri(&skill)]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(
        apply_edits(text, &edits),
        "---\nname: q5\ndescription: 'a: b'\nlicense: 'c: d'\nallowed-tools: Read Write\n---\nBody\n"
    );
    // An action the server did not make comes back as it was.
    let other = json!({"title": "x", "data": {"uri": "file:///elsewhere/SKILL.md"}});
    assert_eq!(
        c.request("codeAction/resolve", other.clone())["result"],
        other
    );
    assert!(c.serves());
    c.stop();
}

#[test]
fn a_skill_that_declares_nothing_gets_the_action_that_declares_what_it_uses() {
    let (lib, mut c) = started(&[]);
    let text = "---\nname: pdf\ndescription: Reads PDF files. Use when a PDF is given.\n---\n```bash\npdftotext in.pdf - | jq -R .\n```\n";
    c.open(&lib.skill, text);
    let r = c.code_actions(&lib.skill, 5, 0, 10);
    let d = c.latest(&uri(&lib.skill));
    assert!(codes(&d).contains(&"SA313".to_owned()), "{d:?}");
    let action = r["result"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|a| {
            a["title"]
                .as_str()
                .is_some_and(|t| t.starts_with("declare what this skill uses; OpenClaw hides the skill unless every executable in `requires.bins` is on `PATH`"))
        })
        .unwrap_or_else(|| panic!("the action: {r}"));
    assert_eq!(action["kind"], "quickfix");
    assert_eq!(
        action["edit"]["changes"][uri(&lib.skill)],
        json!([{
            "range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 0}},
            "newText": "metadata:\n  openclaw:\n    requires:\n      bins:\n        - jq\n        - pdftotext\n",
        }]),
        "{action}"
    );
    c.stop();
}

#[test]
fn a_panic_in_a_request_is_answered_and_the_server_goes_on() {
    let (lib, mut c) = started(&[("SKILL_AUDIT_LSP_DEBUG_PANIC", "1")]);
    let r = c.request("skill-audit/debugPanic", Value::Null);
    assert_eq!(r["error"]["code"], -32603, "{r}");
    // Still serving, and still judging.
    c.drain();
    c.open(&lib.skill, MISSPELT);
    let d = c.some_diagnostics(&uri(&lib.skill));
    assert!(codes(&d).contains(&"SA221".to_owned()), "{d:?}");
    c.stop();
}

#[test]
fn half_typed_input_never_stops_the_server() {
    let (lib, mut c) = started(&[]);
    let typed = "---\nname: pdf\ndescription: [unclosed\ntools: {a: \n  - ]]\n\u{1F600}: \"\n";
    c.open(&lib.skill, "");
    for (v, end) in typed
        .char_indices()
        .map(|(i, ch)| i + ch.len_utf8())
        .enumerate()
    {
        c.change(&lib.skill, v as i64 + 2, &typed[..end]);
    }
    for (line, character) in [(0, 0), (2, 20), (3, 9), (5, 1), (40, 40)] {
        for m in [
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/definition",
        ] {
            let r = c.at(m, &lib.skill, line, character);
            assert!(r.get("error").is_none(), "{m} at {line}:{character}: {r}");
        }
    }
    let d = c.latest(&uri(&lib.skill));
    assert!(
        codes(&d).contains(&"SA104".to_owned()) || codes(&d).contains(&"SA103".to_owned()),
        "{d:?}"
    );
    c.stop();
}

#[test]
fn a_broken_profile_is_shown_on_its_file_until_it_is_saved_fixed() {
    let lib = library();
    let profile = lib.root.join("profiles/dev.json");
    std::fs::write(&profile, "{\"name\": \"dev\", \"tools\": [\n").unwrap();
    let mut c = Client::start(&lib.root, &[]);
    let d = c.diagnostics(&uri(&profile));
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["severity"], 1, "{d:?}");
    // The library is still judged, without profiles: the file as saved (whose `pdftool` no
    // profile has, SA326), then as opened.
    c.open(&lib.skill, MISSPELT);
    let skill = loop {
        let d = c.some_diagnostics(&uri(&lib.skill));
        if codes(&d).contains(&"SA221".to_owned()) {
            break d;
        }
        assert_eq!(codes(&d), ["SA326"], "{d:?}");
    };
    assert!(codes(&skill).contains(&"SA326".to_owned()), "{skill:?}");
    // Fixed and saved: the diagnostic goes, and both profiles judge again.
    std::fs::write(&profile, PROFILE2).unwrap();
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&profile)}}),
    );
    assert_eq!(c.diagnostics(&uri(&profile)), Vec::<Value>::new());
    let text = c.hover_text(&lib.skill, 4, 16);
    assert!(text.contains("| `dev` | available"), "{text}");
    c.stop();
}

#[test]
fn policy_rules_are_diagnostics_as_you_type() {
    let dir = tree(&[
        (
            "skill-audit.toml",
            "[[policy]]\nid = \"P001\"\nname = \"skill-license\"\napplies-to = \"skill\"\ncheck = \"required-field\"\nfield = \"license\"\nmessage = \"add a licence\"\n",
        ),
        (
            "skills/pdf/SKILL.md",
            "---\nname: pdf\ndescription: Reads PDF files.\nlicense: MIT\n---\n# pdf\n",
        ),
    ]);
    let root = dir.path().canonicalize().unwrap();
    let skill = root.join("skills/pdf/SKILL.md");
    let mut c = Client::start(&root, &[]);
    let without = "---\nname: pdf\ndescription: Reads PDF files.\n---\n# pdf\n";
    c.open(&skill, without);
    let d = loop {
        let d = c.diagnostics(&uri(&skill));
        if codes(&d).contains(&"P001".to_owned()) {
            break d;
        }
    };
    let p001 = d.iter().find(|d| d["code"] == "P001").unwrap();
    assert_eq!(p001["message"], "add a licence");
    assert_eq!(p001["range"]["start"], json!({"line": 1, "character": 0}));
    // Policy rules have no page in the catalogue, so no link.
    assert!(p001.get("codeDescription").is_none(), "{p001}");
    c.change(
        &skill,
        2,
        &without.replace("---\n# pdf", "license: MIT\n---\n# pdf"),
    );
    let after = c.diagnostics(&uri(&skill));
    assert!(!codes(&after).contains(&"P001".to_owned()), "{after:?}");
    c.stop();
}

#[test]
fn thousands_of_findings_on_one_line_are_placed_without_recounting_the_line() {
    // Each finding was placed by counting from the top of the file, so a generated line of
    // many findings took time in the square of its length, once per publish and per request.
    const N: usize = 20_000;
    let lead = "See é𝄞 ";
    let paths: Vec<String> = (0..N).map(|i| format!("references/b{i}.md")).collect();
    let text = format!(
        "---\nname: many\ndescription: Names many files. Use when asked.\n---\n{lead}{}\n",
        paths.join(" ")
    );
    let dir = tree(&[("skills/many/SKILL.md", &text)]);
    let root = dir.path().canonicalize().unwrap();
    let skill = root.join("skills/many/SKILL.md");
    let mut c = Client::start(&root, &[]);
    c.open(&skill, &text);
    let diags = c.some_diagnostics(&uri(&skill));
    let missing: Vec<&Value> = diags.iter().filter(|d| d["code"] == "SA232").collect();
    assert_eq!(missing.len(), N);
    // Columns in UTF-16 units: `é` is one, `𝄞` two.
    let lead_units = lead.encode_utf16().count();
    let last_start = lead_units + paths[..N - 1].iter().map(|p| p.len() + 1).sum::<usize>();
    let last = missing
        .iter()
        .find(|d| d["range"]["start"]["character"] == last_start)
        .expect("the last path is placed where it is written");
    assert_eq!(
        last["range"],
        json!({"start": {"line": 4, "character": last_start},
               "end": {"line": 4, "character": last_start + paths[N - 1].len()}})
    );
    let actions = c.code_actions(&skill, 4, 0, u32::MAX);
    assert!(actions["result"].is_array(), "{actions}");
    c.stop();
}

#[test]
fn hover_and_completion_answer_at_once_in_a_long_or_unclosed_frontmatter() {
    // The keys above the cursor were read by splitting the text again for each line above.
    const N: usize = 50_000;
    let mut long = String::from("---\nname: long\ndescription: Long. Use when asked.\ntools:\n");
    for i in 0..N {
        long.push_str(&format!("  - tool{i}\n"));
    }
    long.push_str("---\nBody.\n");
    let unclosed = "---\nname: open\ndescription: Half typed.\ntools:\n  - read\n";
    let dir = tree(&[
        ("skills/long/SKILL.md", &long),
        ("skills/open/SKILL.md", unclosed),
    ]);
    let root = dir.path().canonicalize().unwrap();
    let (long_path, open_path) = (
        root.join("skills/long/SKILL.md"),
        root.join("skills/open/SKILL.md"),
    );
    let mut c = Client::start(&root, &[]);
    c.open(&long_path, &long);
    c.open(&open_path, unclosed);
    let last = (N + 3) as u32;
    let hover = c.hover_text(&long_path, last, 6);
    assert!(hover.contains(&format!("tool{}", N - 1)), "{hover}");
    let completion = c.at("textDocument/completion", &long_path, last, 6);
    assert!(completion.get("result").is_some(), "{completion}");
    // A place far below a frontmatter that is not closed yet.
    let far = c.at("textDocument/completion", &open_path, u32::MAX - 1, 0);
    assert!(far.get("result").is_some(), "{far}");
    c.stop();
}

/// A tree whose links lead out of it, and a file outside: `(tree, root, outside file)`.
#[cfg(unix)]
fn library_with_links_out() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tree(&[
        (
            "outside/secret.agent.md",
            "---\nname: secret\ndescription: Leaked.\ntools: ['leakedtool', 'leakedother']\n---\nsecretbody\n",
        ),
        (
            "outside/skills/secret/SKILL.md",
            "---\nname: secret\ndescription: Leaked.\ntools: [leakedtool]\n---\nsecretbody\n",
        ),
        (
            "lib/skill-audit.toml",
            "profiles = [\"profiles/ci.json\"]\n",
        ),
        ("lib/profiles/ci.json", PROFILE),
        (
            "lib/agents/writer.agent.md",
            "---\nname: writer\ndescription: Writes things.\ntools: ['read']\n---\nWrite.\n",
        ),
    ]);
    let real = dir.path().canonicalize().unwrap();
    let (root, outside) = (real.join("lib"), real.join("outside"));
    std::os::unix::fs::symlink(
        outside.join("secret.agent.md"),
        root.join("agents/evil.agent.md"),
    )
    .unwrap();
    std::fs::create_dir_all(root.join("skills/evil")).unwrap();
    std::os::unix::fs::symlink(
        outside.join("skills/secret/SKILL.md"),
        root.join("skills/evil/SKILL.md"),
    )
    .unwrap();
    (dir, root, outside.join("secret.agent.md"))
}

/// Every request the server answers about a document, at a place on its tools line.
fn every_request(c: &mut Client, path: &Path) -> Vec<Value> {
    let mut out: Vec<Value> = [
        "textDocument/hover",
        "textDocument/completion",
        "textDocument/definition",
    ]
    .iter()
    .map(|m| c.at(m, path, 3, 10))
    .collect();
    out.push(c.code_actions(path, 0, 0, 100));
    out
}

#[cfg(unix)]
#[test]
fn nothing_outside_the_workspace_is_read_or_kept() {
    let (_dir, root, outside) = library_with_links_out();
    let mut c = Client::start(&root, &[]);
    let evil = root.join("agents/evil.agent.md");
    let evil_skill = root.join("skills/evil/SKILL.md");
    // The links are reported as the audit reports them, and their diagnostics are placed
    // without the linked file's lines: nothing of it shows, not even a line's length.
    for link in [&evil, &evil_skill] {
        let d = c.some_diagnostics(&uri(link));
        assert_eq!(codes(&d), ["SA110"], "{d:?}");
        assert_eq!(
            d[0]["range"],
            json!({"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}),
            "{d:?}"
        );
    }
    // Requests on the links, on the file outside and on a system file: answered with
    // nothing, and nothing of the files in the answer.
    for path in [
        evil.as_path(),
        evil_skill.as_path(),
        outside.as_path(),
        Path::new("/etc/passwd"),
    ] {
        for r in every_request(&mut c, path) {
            assert_eq!(r["result"], Value::Null, "{}: {r}", path.display());
            assert!(!r.to_string().contains("leaked"), "{r}");
        }
    }
    // A file outside, opened: its text is not kept, judged, nor answered about.
    c.open(&outside, "---\nname: secret\ntools: ['leakedtool']\n---\n");
    c.open(&evil, "---\nname: evil\ntools: ['leakedtool']\n---\n");
    for r in every_request(&mut c, &outside)
        .into_iter()
        .chain(every_request(&mut c, &evil))
    {
        assert_eq!(r["result"], Value::Null, "{r}");
    }
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&evil)}}),
    );
    assert!(c.serves());
    let published = |m: &&Value| m["method"] == "textDocument/publishDiagnostics";
    for m in c.seen.iter().filter(published) {
        assert_ne!(m["params"]["uri"], uri(&outside), "{m}");
        assert!(!m.to_string().contains("leaked"), "{m}");
        if m["params"]["uri"] == uri(&evil) {
            assert_eq!(
                codes(m["params"]["diagnostics"].as_array().unwrap()),
                ["SA110"]
            );
        }
    }
    c.stop();
}

/// `n` bytes framed as one message, whatever they hold.
fn framed(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

#[test]
fn malformed_messages_are_answered_and_the_server_goes_on() {
    let (_lib, mut c) = started(&[]);
    let cases: [(&[u8], i64); 6] = [
        (br#"{"jsonrpc":"2.0","method":"#, -32700),
        (b"[1,2,3]", -32600),
        (br#"[{"jsonrpc":"2.0","id":60,"method":"foo"}]"#, -32600),
        (
            b"{\"jsonrpc\":\"2.0\",\"method\":\"foo\",\"params\":\"\xff\xfe\"}",
            -32700,
        ),
        (br#"{"jsonrpc":"2.0","id":null,"method":"foo"}"#, -32600),
        (br#"{"jsonrpc":"2.0"}"#, -32600),
    ];
    for (body, code) in cases {
        c.raw(&framed(body));
        let e = c.unaddressed_error();
        assert_eq!(
            e["error"]["code"],
            code,
            "{}: {e}",
            String::from_utf8_lossy(body)
        );
        assert!(c.serves(), "{}", String::from_utf8_lossy(body));
    }
    // An id the server can read is answered with, even on a message it cannot take, and on
    // one cut short after it: the request is not left unanswered.
    for (body, id, code) in [
        (&br#"{"jsonrpc":"2.0","id":71,"method":5}"#[..], 71, -32600),
        (
            br#"{"jsonrpc":"2.0","id":72,"method":"textDocument/hover","params":{"#,
            72,
            -32700,
        ),
    ] {
        c.raw(&framed(body));
        let r = loop {
            let m = c.next();
            if m["id"] == id {
                break m;
            }
        };
        assert_eq!(r["error"]["code"], code, "{r}");
    }
    // The framing lost: a parse error, and the next message is found and served.
    for headers in [
        &b"Content-Type: x\r\n\r\n"[..],
        b"Content-Length: abc\r\n\r\n",
    ] {
        let mut bytes = headers.to_vec();
        bytes.extend_from_slice(b"{}");
        c.raw(&bytes);
        let e = c.unaddressed_error();
        assert_eq!(e["error"]["code"], -32700, "{e}");
        assert!(c.serves());
    }
    c.stop();
}

#[test]
fn a_message_over_the_limit_is_answered_and_skipped_without_keeping_it() {
    let (_lib, mut c) = started(&[]);
    // Just over 16 MiB, sent whole: skipped, and the next message served.
    let mut body = vec![b' '; (16 << 20) + 1];
    body[0] = b'{';
    c.raw(&framed(&body));
    drop(body);
    let e = c.unaddressed_error();
    assert_eq!(e["error"]["code"], -32600, "{e}");
    assert!(c.serves());
    // A length no client sends: answered at once, not allocated.
    c.raw(b"Content-Length: 2000000000\r\n\r\n{}");
    let e = c.unaddressed_error();
    assert_eq!(e["error"]["code"], -32600, "{e}");
    #[cfg(target_os = "linux")]
    {
        let status = std::fs::read_to_string(format!("/proc/{}/status", c.child.0.id())).unwrap();
        let kb: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap();
        assert!(kb < 256 << 10, "{kb} kB resident");
    }
    // The input ends inside it: the server ends, cleanly.
    let status = c.close_input();
    assert!(status.success(), "{status}");
    // One the size of no memory: the same.
    let (_lib, mut c) = started(&[]);
    c.raw(b"Content-Length: 99999999999999\r\n\r\n{}");
    let e = c.unaddressed_error();
    assert_eq!(e["error"]["code"], -32600, "{e}");
    let status = c.close_input();
    assert!(status.success(), "{status}");
}

#[test]
fn exit_without_shutdown_exits_with_1() {
    let (_lib, mut c) = started(&[]);
    assert!(c.serves());
    c.notify("exit", Value::Null);
    let status = wait(&mut c.child.0);
    assert_eq!(status.code(), Some(1), "{status}");
}

/// A client that applies workspace edits that rename files.
fn renaming_client() -> Value {
    json!({"workspace": {"workspaceEdit": {
        "documentChanges": true,
        "resourceOperations": ["create", "rename", "delete"],
    }}})
}

#[test]
fn a_fix_that_renames_its_file_is_a_file_rename_or_nothing() {
    let lib = library();
    let lower = lib.root.join("skills/legacy/skill.md");
    write_file(
        &lower,
        "---\nname: legacy\ndescription: Old things. Use when asked.\n---\n# legacy\n",
    );
    let mode = lib.root.join("chatmodes/planner.chatmode.md");
    write_file(
        &mode,
        "---\ndescription: Plans.\ntools: ['read']\n---\nPlan.\n",
    );
    let mut c = Client::start_with(&lib.root, &[], renaming_client());
    for (file, code, new_name) in [(&lower, "SA108", "SKILL.md"), (&mode, "SA508", ".agent.md")] {
        let d = c.some_diagnostics(&uri(file));
        assert!(codes(&d).contains(&code.to_owned()), "{d:?}");
        let r = c.code_actions(file, 0, 0, 3);
        let actions = r["result"].as_array().cloned().unwrap_or_default();
        let rename = actions
            .iter()
            .find(|a| a["diagnostics"][0]["code"] == code)
            .unwrap_or_else(|| panic!("a {code} action: {r}"));
        assert!(rename["edit"].get("changes").is_none(), "{rename}");
        let ops = rename["edit"]["documentChanges"].as_array().unwrap();
        let op = ops.last().unwrap();
        assert_eq!(op["kind"], "rename", "{rename}");
        assert_eq!(op["oldUri"], uri(file), "{rename}");
        let new_uri = op["newUri"].as_str().unwrap();
        assert!(new_uri.ends_with(new_name), "{rename}");
        assert!(new_uri.starts_with(&uri(&lib.root)), "{rename}");
    }
    c.stop();
    // A client that cannot rename files is not offered an edit that does nothing.
    let mut c = Client::start(&lib.root, &[]);
    for (file, code) in [(&lower, "SA108"), (&mode, "SA508")] {
        let d = c.some_diagnostics(&uri(file));
        assert!(codes(&d).contains(&code.to_owned()), "{d:?}");
        let r = c.code_actions(file, 0, 0, 3);
        for a in r["result"].as_array().into_iter().flatten() {
            assert_ne!(a["diagnostics"][0]["code"], code, "{a}");
            for edits in a["edit"]["changes"]
                .as_object()
                .into_iter()
                .flat_map(|c| c.values())
            {
                assert!(!edits.as_array().unwrap().is_empty(), "{a}");
            }
        }
    }
    c.stop();
}

fn write_file(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_byte_order_mark_the_client_has_is_removed_and_counted() {
    let (lib, mut c) = started(&[]);
    let text = "\u{feff}---\nname: pdf\ndescription: Reads PDF files. Use when a PDF is given.\n---\n# pdf\n";
    c.open(&lib.skill, text);
    let d = loop {
        let d = c.some_diagnostics(&uri(&lib.skill));
        if codes(&d).contains(&"SA109".to_owned()) {
            break d;
        }
    };
    // On line 1 the mark is a character of the client's text: the `---` after it is 1..4.
    let bom = d.iter().find(|d| d["code"] == "SA109").unwrap();
    assert_eq!(
        bom["range"],
        json!({"start": {"line": 0, "character": 1}, "end": {"line": 0, "character": 4}})
    );
    let r = c.code_actions(&lib.skill, 0, 0, 1);
    let removal = json!([{
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
        "newText": "",
    }]);
    let actions = r["result"].as_array().cloned().unwrap_or_default();
    let quick = actions
        .iter()
        .find(|a| a["title"] == "remove the byte order mark")
        .unwrap_or_else(|| panic!("the action: {r}"));
    assert_eq!(
        quick["edit"]["changes"][uri(&lib.skill)],
        removal,
        "{quick}"
    );
    let all = actions
        .iter()
        .find(|a| a["kind"] == "source.fixAll.skill-audit")
        .unwrap_or_else(|| panic!("fix all: {r}"));
    assert_eq!(all["edit"]["changes"][uri(&lib.skill)], removal, "{all}");
    c.stop();
}

#[test]
fn hover_takes_a_resource_uri_and_a_server_tool_whole() {
    let dir = tree(&[
        ("skill-audit.toml", "profiles = [\"profiles/srv.json\"]\n"),
        (
            "profiles/srv.json",
            r#"{"name": "srv", "servers": {"payments": {"tools": ["get_order"], "resources": ["docs://payments/refund-policy.md"]}}}"#,
        ),
        (
            "skills/refund/SKILL.md",
            "---\nname: refund\ndescription: Refunds. Use when asked.\ndependencies:\n  tools:\n    all: [payments:get_order]\n  resources:\n    all: [\"docs://payments/refund-policy.md\"]\n    any:\n      - docs://payments/refund-policy.md\n---\n# refund\n",
        ),
    ]);
    let root = dir.path().canonicalize().unwrap();
    let skill = root.join("skills/refund/SKILL.md");
    let mut c = Client::start(&root, &[]);
    // The audit finds both met.
    c.open(&skill, &std::fs::read_to_string(&skill).unwrap());
    let d = c.diagnostics(&uri(&skill));
    assert!(
        !codes(&d).iter().any(|c| c == "SA402" || c == "SA326"),
        "{d:?}"
    );
    // On the scheme, after `//`, in the path: the whole URI, available.
    for (line, character) in [(7, 11), (7, 18), (7, 30), (9, 10), (9, 25)] {
        let text = c.hover_text(&skill, line, character);
        assert!(
            text.starts_with("**`docs://payments/refund-policy.md`** (resource)"),
            "{line}:{character}: {text}"
        );
        assert!(text.contains("| `srv` | available |"), "{text}");
    }
    // Before and after the `:`: the server's tool, available.
    for character in [11, 20] {
        let text = c.hover_text(&skill, 5, character);
        assert!(
            text.starts_with("**`payments:get_order`** (tool)"),
            "{character}: {text}"
        );
        assert!(text.contains("| `srv` | available"), "{text}");
        assert!(!text.contains("missing"), "{text}");
    }
    c.stop();
}

#[test]
fn a_profile_saved_broken_leaves_the_library_judged_without_profiles() {
    let lib = library();
    let profile = lib.root.join("profiles/dev.json");
    let mut c = Client::start(&lib.root, &[]);
    let before = c.hover_text(&lib.skill, 3, 15);
    assert!(before.contains("| `dev` | available"), "{before}");
    std::fs::write(&profile, "{\"name\": \"dev\", \"tools\": [\n").unwrap();
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&profile)}}),
    );
    let d = c.some_diagnostics(&uri(&profile));
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["severity"], 1, "{d:?}");
    // As at start: no profile judges the skill (none has `pdftool`, SA326), and the hover
    // says why instead of showing the profiles from before the change.
    let text = c.hover_text(&lib.skill, 3, 15);
    assert!(text.contains("could not be loaded"), "{text}");
    assert!(!text.contains("| `dev` |"), "{text}");
    assert!(codes(&c.latest(&uri(&lib.skill))).contains(&"SA326".to_owned()));
    // Saved fixed: both profiles judge again.
    std::fs::write(&profile, PROFILE2).unwrap();
    c.notify(
        "textDocument/didSave",
        json!({"textDocument": {"uri": uri(&profile)}}),
    );
    assert_eq!(c.diagnostics(&uri(&profile)), Vec::<Value>::new());
    let text = c.hover_text(&lib.skill, 3, 15);
    assert!(text.contains("| `dev` | available"), "{text}");
    c.stop();
}

/// A library judged on VS Code and Claude Code: a skill with a permission list and body
/// links, and a VS Code agent.
fn two_hosts() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tree(&[
        (
            "skill-audit.toml",
            "profiles = [\"builtin:vscode\", \"builtin:claude-code\"]\n",
        ),
        (
            "skills/pdf/SKILL.md",
            "---\nname: pdf\ndescription: Reads PDF files. Use when a PDF is given.\nallowed-tools: Read, Bash\n---\nSee [a 😀 file](refs/nope.md) and [b](refs/gone.md).\n",
        ),
        (
            ".github/agents/zz.agent.md",
            "---\nname: zz\ndescription: Edits.\ntools: ['edit/ed']\n---\nEdit.\n",
        ),
    ]);
    let root = dir.path().canonicalize().unwrap();
    let skill = root.join("skills/pdf/SKILL.md");
    let agent = root.join(".github/agents/zz.agent.md");
    (dir, skill, agent)
}

#[test]
fn completion_offers_the_names_of_the_hosts_that_read_the_file_and_replaces_the_whole_name() {
    let (dir, skill, agent) = two_hosts();
    let mut c = Client::start(dir.path(), &[]);
    let text = std::fs::read_to_string(&agent).unwrap();
    c.open(&agent, &text);
    // Inside `'edit/ed'`, after `ed`.
    let r = c.at("textDocument/completion", &agent, 3, 15);
    let items = r["result"].as_array().cloned().unwrap_or_default();
    let labels: Vec<&str> = items.iter().filter_map(|i| i["label"].as_str()).collect();
    assert!(labels.contains(&"edit/editFiles"), "{labels:?}");
    // Claude Code does not load a `.agent.md`: its names are not offered there.
    assert!(!labels.contains(&"Bash"), "{labels:?}");
    let edit = &items
        .iter()
        .find(|i| i["label"] == "edit/editFiles")
        .unwrap()["textEdit"];
    assert_eq!(
        edit,
        &json!({"newText": "edit/editFiles", "range": {
            "start": {"line": 3, "character": 9}, "end": {"line": 3, "character": 16}}}),
        "the name inside the quotes, whole"
    );
    // A skill's `allowed-tools` is Claude Code's list: its names only.
    let text = std::fs::read_to_string(&skill).unwrap();
    c.open(&skill, &text);
    let r = c.at("textDocument/completion", &skill, 3, 17);
    let labels: Vec<String> = r["result"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| i["label"].as_str().map(str::to_owned))
        .collect();
    assert!(labels.contains(&"Read".to_owned()), "{labels:?}");
    assert!(!labels.contains(&"edit/editFiles".to_owned()), "{labels:?}");
    c.stop();
}

#[test]
fn hover_on_allowed_tools_agrees_with_the_verdict_of_each_host() {
    let (dir, skill, _) = two_hosts();
    let mut c = Client::start(dir.path(), &[]);
    let text = std::fs::read_to_string(&skill).unwrap();
    c.open(&skill, &text);
    // `Read` in `allowed-tools: Read, Bash`.
    let h = c.hover_text(&skill, 3, 16);
    assert!(
        h.contains("| `vscode` | not read: VS Code does not read `allowed-tools` |"),
        "{h}"
    );
    assert!(h.contains("| `claude-code` | available"), "{h}");
    assert!(!h.contains("listed by the profile"), "{h}");
    c.stop();
}

#[test]
fn a_diagnostic_at_a_link_covers_the_link_only() {
    let (dir, skill, _) = two_hosts();
    let mut c = Client::start(dir.path(), &[]);
    let diags = loop {
        let d = c.diagnostics(&uri(&skill));
        if codes(&d).iter().filter(|c| *c == "SA231").count() == 2 {
            break d;
        }
    };
    let mut ranges: Vec<&Value> = diags
        .iter()
        .filter(|d| d["code"] == "SA231")
        .map(|d| &d["range"])
        .collect();
    ranges.sort_by_key(|r| r["start"]["character"].as_u64());
    // `[a 😀 file](refs/nope.md)` (the emoji is two UTF-16 units) and `[b](refs/gone.md)`,
    // neither running on to the line's end.
    assert_eq!(
        ranges,
        [
            &json!({"start": {"line": 5, "character": 4}, "end": {"line": 5, "character": 29}}),
            &json!({"start": {"line": 5, "character": 34}, "end": {"line": 5, "character": 51}}),
        ]
    );
    c.stop();
}

#[test]
fn a_second_initialize_is_an_invalid_request() {
    let (lib, mut c) = started(&[]);
    let r = c.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&lib.root), "capabilities": {}}),
    );
    assert_eq!(r["error"]["code"], -32600, "{r}");
    // And the server goes on.
    let h = c.at("textDocument/hover", &lib.skill, 1, 1);
    assert!(h.get("error").is_none(), "{h}");
    c.stop();
}
