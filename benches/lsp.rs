//! The language server's latencies on the real-world corpus (`../shared/corpus/awesome-copilot`,
//! about 1,300 files), against the three built-in host profiles: from a message sent to the
//! answer received, through the server's own loop (in-process channels instead of standard
//! input and output, which add only framing).
//!
//! - `open_to_diagnostics`: `didOpen` of a skill → its `publishDiagnostics`;
//! - `change_to_diagnostics`: `didChange` of that skill (a key misspelt, then fixed, in turn)
//!   → its `publishDiagnostics`; every file is judged again each time;
//! - `hover`: a tool name in an agent's `tools:` → the hover;
//! - `workspace_judge`: the library-level stage alone, as a change runs it (`Workspace::judge`,
//!   no server), to tell the stage's cost from the server's;
//! - `workspace_open`: for comparison, the whole audit at start (walk, read, parse, judge).
//!
//! `cargo bench --bench lsp` (skipped with a `SKIPPED` line when the corpus is missing).

use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

use divan::Bencher;
use lsp_server::{Connection, Message, Notification, Request, RequestId};
use serde_json::{Value, json};
use skill_audit::AuditOptions;
use skill_audit::profile::ProfileSource;

#[allow(dead_code)]
#[path = "../tests/support/corpus.rs"]
mod corpus;

// The binary's allocator, so the timings are the server's.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    // The helper prints why when the corpus is missing.
    if CORPUS.is_none() {
        return;
    }
    divan::main();
}

static CORPUS: LazyLock<Option<PathBuf>> = LazyLock::new(|| corpus::corpus("awesome-copilot"));

/// The client's end of a server running on the corpus, initialized and past its first audit.
struct Session {
    client: Connection,
    skill: PathBuf,
    skill_text: String,
    agent: PathBuf,
    /// A tool name's line and character in the agent.
    tool_at: (u32, u32),
}

static NEXT_ID: AtomicI32 = AtomicI32::new(1);

fn uri(p: &Path) -> String {
    url::Url::from_file_path(p)
        .expect("absolute path")
        .to_string()
}

impl Session {
    fn send(&self, m: impl Into<Message>) {
        self.client.sender.send(m.into()).expect("server running");
    }

    fn request(&self, method: &str, params: Value) -> Value {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        self.send(Request::new(RequestId::from(id), method.to_owned(), params));
        loop {
            match self.recv() {
                Message::Response(r) if r.id == RequestId::from(id) => {
                    return r.response_result.unwrap_or(Value::Null);
                }
                _ => {}
            }
        }
    }

    fn notify(&self, method: &str, params: Value) {
        self.send(Notification::new(method.to_owned(), params));
    }

    fn recv(&self) -> Message {
        self.client
            .receiver
            .recv_timeout(Duration::from_secs(600))
            .expect("the server answers")
    }

    /// Wait for the diagnostics of `uri`.
    fn diagnostics_of(&self, uri: &str) -> usize {
        loop {
            if let Message::Notification(n) = self.recv()
                && n.method == "textDocument/publishDiagnostics"
                && n.params["uri"] == uri
            {
                return n.params["diagnostics"].as_array().map_or(0, Vec::len);
            }
        }
    }

    /// Everything sent so far has been handled (a request's answer comes after it).
    fn settle(&self) {
        // An unknown method: answered with an error, after everything before it.
        self.request("bench/settle", Value::Null);
    }
}

static SESSION: LazyLock<Session> = LazyLock::new(|| {
    let root = CORPUS.clone().expect("corpus present");
    let (server, client) = Connection::memory();
    std::thread::spawn(move || {
        let load = |r: &Path| -> Result<AuditOptions, String> { Ok(options(r)) };
        skill_audit::lsp::run(&server, &load).expect("the server runs");
    });
    let agent = root.join("agents/accessibility.agent.md");
    let agent_text = std::fs::read_to_string(&agent).expect("the agent");
    let (line, l) = agent_text
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("tools:"))
        .expect("a tools line");
    let character = l.find("codebase").expect("a tool name") as u32 + 2;
    let skill = std::fs::read_dir(root.join("skills"))
        .expect("skills")
        .filter_map(|e| Some(e.ok()?.path().join("SKILL.md")))
        .filter(|p| p.is_file())
        .min()
        .expect("a skill");
    let skill_text = std::fs::read_to_string(&skill).expect("the skill");
    let s = Session {
        client,
        skill,
        skill_text,
        agent,
        tool_at: (line as u32, character),
    };
    s.request(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": {}}),
    );
    s.notify("initialized", json!({}));
    s.settle();
    s
});

/// The corpus against the three built-in host profiles.
fn options(root: &Path) -> AuditOptions {
    AuditOptions {
        roots: vec![root.to_owned()],
        cwd: root.to_owned(),
        config_dir: root.to_owned(),
        profiles: ["vscode", "github-copilot", "claude-code"]
            .iter()
            .map(|p| ProfileSource::Builtin((*p).to_owned()))
            .collect(),
        ..AuditOptions::default()
    }
}

/// The skill's text with its `description` key misspelt, or as it is.
fn variant(s: &Session, misspelt: bool) -> String {
    if misspelt {
        s.skill_text.replacen("description:", "descriptin:", 1)
    } else {
        s.skill_text.clone()
    }
}

#[divan::bench(sample_count = 30)]
fn open_to_diagnostics(bencher: Bencher) {
    let s = &*SESSION;
    let u = uri(&s.skill);
    bencher
        .with_inputs(|| {
            // Closed again outside the timed part, so each open is a first open.
            s.notify("textDocument/didClose", json!({"textDocument": {"uri": u}}));
            s.settle();
        })
        .bench_local_values(|()| {
            s.notify(
                "textDocument/didOpen",
                json!({"textDocument": {"uri": u, "languageId": "markdown", "version": 1, "text": variant(s, true)}}),
            );
            s.diagnostics_of(&u)
        });
}

#[divan::bench(sample_count = 30)]
fn change_to_diagnostics(bencher: Bencher) {
    let s = &*SESSION;
    let u = uri(&s.skill);
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": u, "languageId": "markdown", "version": 1, "text": s.skill_text}}),
    );
    s.settle();
    let version = AtomicI32::new(2);
    bencher
        .with_inputs(|| {
            let v = version.fetch_add(1, Ordering::Relaxed);
            (v, variant(s, v % 2 == 0))
        })
        .bench_local_values(|(v, text)| {
            s.notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": u, "version": v}, "contentChanges": [{"text": text}]}),
            );
            s.diagnostics_of(&u)
        });
    s.notify("textDocument/didClose", json!({"textDocument": {"uri": u}}));
    s.settle();
}

#[divan::bench(sample_count = 100)]
fn hover(bencher: Bencher) {
    let s = &*SESSION;
    let u = uri(&s.agent);
    let (line, character) = s.tool_at;
    bencher.bench_local(|| {
        let h = s.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": u}, "position": {"line": line, "character": character}}),
        );
        assert!(h.is_object(), "a hover");
    });
}

#[divan::bench(sample_count = 30)]
fn workspace_judge(bencher: Bencher) {
    let root = CORPUS.clone().expect("corpus present");
    let (mut ws, problem) = skill_audit::workspace::Workspace::open(options(&root)).expect("opens");
    assert!(problem.is_none(), "the built-in profiles load");
    bencher.bench_local(|| ws.judge());
}

/// For comparison: the whole audit a change avoids (walk, read, parse, judge).
#[divan::bench(sample_count = 20)]
fn workspace_open(bencher: Bencher) {
    let root = CORPUS.clone().expect("corpus present");
    bencher.bench_local(|| skill_audit::workspace::Workspace::open(options(&root)).expect("opens"));
}
