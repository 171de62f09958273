//! `skill-audit lsp`: a language server over standard input and output.
//!
//! One thread serves every message in order, on a [`Workspace`] audited once at start. Open
//! documents are audited from their text, never from the disk. Changes are coalesced: every
//! message already waiting is taken in before the library is judged again, so typing never
//! queues stale work, and a request is answered on the judgement of every change before it.
//! A panic in one handler is contained: logged, answered with an error, and the server goes on.
//! Only the workspace's documents are read or kept ([`files::Gate`]), through the audit's own
//! boundary; input that is not a message is answered with an error ([`transport`]).

mod context;
mod convert;
mod features;
mod files;
mod transport;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{
    ClientCapabilities, CodeAction, CodeActionKind, CodeActionOptions, CodeActionParams,
    CodeActionProviderCapability, CompletionOptions, CompletionParams, DidChangeTextDocumentParams,
    DidChangeWatchedFilesParams, DidCloseTextDocumentParams, DidOpenTextDocumentParams,
    DidSaveTextDocumentParams, FileChangeType, GotoDefinitionParams, HoverParams,
    HoverProviderCapability, InitializeParams, LogMessageParams, MessageType, OneOf,
    PublishDiagnosticsParams, ResourceOperationKind, SaveOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, notification, request,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use crate::audit::AuditOptions;
use crate::boundary::Refusal;
use crate::diagnostic::{Finding, Fix};
use crate::workspace::Workspace;

/// How the server builds the audit's options for a workspace folder (the command line reads
/// that folder's `skill-audit.toml`).
pub type Loader<'a> = &'a dyn Fn(&Path) -> Result<AuditOptions, String>;

/// The custom request that panics on purpose, to test that a panic is contained; honoured only
/// when [`PANIC_ENV`] is set.
pub const DEBUG_PANIC: &str = "skill-audit/debugPanic";
pub const PANIC_ENV: &str = "SKILL_AUDIT_LSP_DEBUG_PANIC";

/// How the server ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// `exit`, after `shutdown`.
    Exited,
    /// `exit` without `shutdown` first: the protocol asks for exit code 1.
    ExitedUnasked,
    /// The input ended.
    Disconnected,
}

/// Serve over standard input and output until the client says `exit` or the input ends.
pub fn serve(load: Loader<'_>) -> Result<Ended, String> {
    let io_failed = |e: std::io::Error| format!("language server I/O failed: {e}");
    let (conn, io) = transport::stdio().map_err(io_failed)?;
    let served = run(&conn, load);
    drop(conn);
    io.finish().map_err(io_failed)?;
    served
}

/// Serve on `conn` until the client says `exit` (or the connection closes).
pub fn run(conn: &Connection, load: Loader<'_>) -> Result<Ended, String> {
    let send = |msg: Message| {
        // The client is gone when this fails; the next receive says so.
        let _ = conn.sender.send(msg);
    };
    let (id, params) = loop {
        let Ok(msg) = conn.receiver.recv() else {
            return Ok(Ended::Disconnected);
        };
        match msg {
            Message::Request(r) if r.method == request::Initialize::METHOD => {
                break (r.id, r.params);
            }
            Message::Request(r) => send(
                Response::new_err(
                    r.id,
                    ErrorCode::ServerNotInitialized as i32,
                    "the server is not initialized yet".to_owned(),
                )
                .into(),
            ),
            Message::Notification(n) if n.method == notification::Exit::METHOD => {
                return Ok(Ended::ExitedUnasked);
            }
            _ => {}
        }
    };
    let init: InitializeParams = serde_json::from_value(params).unwrap_or_default();
    let root = root_of(&init)
        .or_else(|| std::env::current_dir().ok())
        .ok_or("no workspace folder, and no current directory")?;
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": ServerInfo {
            name: "skill-audit".to_owned(),
            version: Some(env!("CARGO_PKG_VERSION").to_owned()),
        },
    });
    send(Response::new_ok(id, result).into());
    // The library is audited once the client says it is ready; a client that sends something
    // else first has it handled right after.
    let first = match conn.receiver.recv() {
        Ok(Message::Notification(n)) if n.method == notification::Initialized::METHOD => None,
        Ok(msg) => Some(msg),
        Err(_) => return Ok(Ended::Disconnected),
    };
    let mut server = Server {
        conn,
        root,
        load,
        ws: None,
        gate: files::Gate::default(),
        renames: renames_files(&init.capabilities),
        resolves_edits: resolves_edits(&init.capabilities),
        docs: HashMap::new(),
        dirty: BTreeSet::new(),
        force: BTreeSet::new(),
        reload: Reload::None,
        published: HashMap::new(),
        problem: None,
        shutdown: false,
    };
    server.open();
    if let Some(msg) = first
        && server.contained(msg) == Flow::Exit
    {
        return Ok(server.ended());
    }
    loop {
        let Ok(msg) = conn.receiver.recv() else {
            return Ok(Ended::Disconnected);
        };
        if server.contained(msg) == Flow::Exit {
            return Ok(server.ended());
        }
        // Coalesce: take in everything already waiting before judging again.
        while let Ok(msg) = conn.receiver.try_recv() {
            if server.contained(msg) == Flow::Exit {
                return Ok(server.ended());
            }
        }
        server.flush();
    }
}

/// Whether the client resolves a code action's edit when it is chosen.
fn resolves_edits(caps: &ClientCapabilities) -> bool {
    let actions = caps
        .text_document
        .as_ref()
        .and_then(|t| t.code_action.as_ref());
    actions
        .and_then(|a| a.resolve_support.as_ref())
        .is_some_and(|r| r.properties.iter().any(|p| p == "edit"))
}

/// Whether the client applies workspace edits that rename files.
fn renames_files(caps: &ClientCapabilities) -> bool {
    let edit = caps
        .workspace
        .as_ref()
        .and_then(|w| w.workspace_edit.as_ref());
    edit.is_some_and(|e| {
        e.document_changes == Some(true)
            && e.resource_operations
                .as_ref()
                .is_some_and(|ops| ops.contains(&ResourceOperationKind::Rename))
    })
}

/// The first workspace folder, else the root URI, as a local path.
fn root_of(init: &InitializeParams) -> Option<PathBuf> {
    let folder = init.workspace_folders.as_ref().and_then(|f| f.first());
    #[allow(deprecated)]
    let uri = folder.map(|f| &f.uri).or(init.root_uri.as_ref())?;
    convert::path_of(uri)
}

fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                // Whole texts: a frontmatter is small, and no edit can be applied out of order.
                change: Some(TextDocumentSyncKind::FULL),
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["-".into(), " ".into(), "/".into()]),
            ..CompletionOptions::default()
        }),
        definition_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![
                CodeActionKind::QUICKFIX,
                CodeActionKind::new(features::FIX_ALL),
            ]),
            resolve_provider: Some(true),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    }
}

#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Exit,
}

/// What must be loaded again before the next judgement.
#[derive(PartialEq, Eq, PartialOrd, Ord, Clone, Copy)]
enum Reload {
    None,
    /// A profile file changed: load the profiles, judge every file.
    Profiles,
    /// The settings file changed: start over.
    All,
}

struct Server<'a> {
    conn: &'a Connection,
    root: PathBuf,
    load: Loader<'a>,
    /// `None` only when the library could not be audited at all (it is said why).
    ws: Option<Workspace>,
    /// The documents the server reads or keeps: the workspace's.
    gate: files::Gate,
    /// The client applies quick fixes that rename files.
    renames: bool,
    /// The client resolves a code action's edit when it is chosen: "fix all safe", which
    /// judges the document again after each pass, is then worked out only if it is.
    resolves_edits: bool,
    /// Open documents' text, by path: the workspace's only.
    docs: HashMap<PathBuf, String>,
    /// Files changed since the last judgement.
    dirty: BTreeSet<PathBuf>,
    /// Files whose diagnostics are sent at the next judgement even if unchanged (just opened).
    force: BTreeSet<PathBuf>,
    reload: Reload,
    /// The findings last sent, by display path.
    published: HashMap<String, Vec<Finding>>,
    /// A profile that could not be loaded, shown on its file: its path and the diagnostic.
    problem: Option<(PathBuf, lsp_types::Diagnostic)>,
    shutdown: bool,
}

impl Server<'_> {
    /// How `exit` ends the server.
    fn ended(&self) -> Ended {
        if self.shutdown {
            Ended::Exited
        } else {
            say!("skill-audit lsp: `exit` without `shutdown` first");
            Ended::ExitedUnasked
        }
    }

    fn send(&self, msg: impl Into<Message>) {
        // The client is gone when this fails; the receive loop ends next.
        let _ = self.conn.sender.send(msg.into());
    }

    fn notify<N: lsp_types::notification::Notification>(&self, params: N::Params) {
        self.send(Notification::new(N::METHOD.to_owned(), params));
    }

    /// To standard error and to the client's log.
    fn log(&self, typ: MessageType, message: String) {
        say!("skill-audit lsp: {message}");
        self.notify::<notification::LogMessage>(LogMessageParams { typ, message });
    }

    /// Handle one message; a panic is logged and, for a request, answered with an error.
    fn contained(&mut self, msg: Message) -> Flow {
        let id = match &msg {
            Message::Request(r) => Some((r.id.clone(), r.method.clone())),
            _ => None,
        };
        let what = match &msg {
            Message::Request(r) => r.method.clone(),
            Message::Notification(n) => n.method.clone(),
            Message::Response(_) => "a response".to_owned(),
        };
        match catch_unwind(AssertUnwindSafe(|| self.handle(msg))) {
            Ok(flow) => flow,
            Err(panic) => {
                let why = crate::audit::panic_message(panic.as_ref());
                self.log(
                    MessageType::ERROR,
                    format!("internal error in {what}: {why}"),
                );
                if let Some((id, method)) = id {
                    self.send(Response::new_err(
                        id,
                        ErrorCode::InternalError as i32,
                        format!("skill-audit failed on {method}: {why}"),
                    ));
                }
                Flow::Continue
            }
        }
    }

    fn handle(&mut self, msg: Message) -> Flow {
        match msg {
            Message::Request(req) => {
                self.request(req);
                Flow::Continue
            }
            Message::Notification(n) if n.method == notification::Exit::METHOD => Flow::Exit,
            Message::Notification(n) => {
                self.notification(n);
                Flow::Continue
            }
            Message::Response(_) => Flow::Continue,
        }
    }

    fn request(&mut self, req: Request) {
        if self.shutdown {
            return self.send(Response::new_err(
                req.id,
                ErrorCode::InvalidRequest as i32,
                "shutting down".to_owned(),
            ));
        }
        // Answer on the judgement of every change received before this request.
        self.flush();
        let id = req.id.clone();
        match req.method.as_str() {
            request::Initialize::METHOD => self.send(Response::new_err(
                id,
                ErrorCode::InvalidRequest as i32,
                "the server is already initialized: `initialize` is sent once".to_owned(),
            )),
            request::Shutdown::METHOD => {
                self.shutdown = true;
                self.send(Response::new_ok(id, ()));
            }
            request::HoverRequest::METHOD => self.answer(req, |s, p: HoverParams| {
                let at = &p.text_document_position_params;
                let (path, text) = s.doc(&at.text_document.uri)?;
                let broken = s.problem.is_some();
                features::hover(s.ws.as_ref()?, &path, text.as_seen(), at.position, broken)
            }),
            request::Completion::METHOD => self.answer(req, |s, p: CompletionParams| {
                let at = &p.text_document_position;
                let (path, text) = s.doc(&at.text_document.uri)?;
                let ws = s.ws.as_ref()?;
                let items = features::completion(ws, &path, text.as_seen(), at.position);
                Some(lsp_types::CompletionResponse::Array(items))
            }),
            request::GotoDefinition::METHOD => self.answer(req, |s, p: GotoDefinitionParams| {
                let at = &p.text_document_position_params;
                let (path, text) = s.doc(&at.text_document.uri)?;
                let ws = s.ws.as_ref()?;
                let loc = features::definition(ws, &path, text.as_seen(), at.position)?;
                Some(lsp_types::GotoDefinitionResponse::Scalar(loc))
            }),
            request::CodeActionRequest::METHOD => self.answer(req, |s, p: CodeActionParams| {
                let uri = &p.text_document.uri;
                let (path, text) = s.doc(uri)?;
                let only = p.context.only.as_deref();
                // Asked for by kind (on save, or the editor's own fix-all command), it is
                // applied at once; offered among the others, only if chosen.
                let later = s.resolves_edits && only.is_none();
                let fixed = (features::wants_fix_all(only) && !later)
                    .then(|| s.fixed_all(&path, &text.text))
                    .flatten();
                let ws = s.ws.as_ref()?;
                let shown = ws.display_path(&path);
                let findings: Vec<&Finding> = ws
                    .result()
                    .findings
                    .iter()
                    .filter(|f| f.path == shown)
                    .collect();
                // A renamed file's new place, in the workspace like the file itself.
                let rename_to = |to: &str| {
                    let path = crate::paths::normalize(&ws.options().cwd.join(to));
                    s.gate
                        .admits(&path)
                        .then(|| convert::uri_of(&path))
                        .flatten()
                };
                let renames: features::RenameTo<'_> = s.renames.then_some(&rename_to);
                let doc = text.doc();
                Some(features::code_actions(
                    uri,
                    &doc,
                    &findings,
                    p.range,
                    only,
                    renames,
                    match fixed.as_deref() {
                        _ if later => Some(features::FixAll::Later),
                        Some(fixed) => Some(features::FixAll::Text(fixed)),
                        None => None,
                    },
                ))
            }),
            request::CodeActionResolveRequest::METHOD => {
                self.answer(req, |s, mut action: CodeAction| {
                    // An action that is not ours, or whose document is gone, comes back as it is.
                    let uri = (action.data.as_ref())
                        .and_then(|d| d.get("uri"))
                        .and_then(|u| serde_json::from_value::<lsp_types::Uri>(u.clone()).ok());
                    if let Some(uri) = uri
                        && let Some((path, text)) = s.doc(&uri)
                        && let Some(fixed) = s.fixed_all(&path, &text.text)
                    {
                        action.edit = features::fix_all_edit(&uri, &text.doc(), &fixed);
                    }
                    Some(action)
                })
            }
            DEBUG_PANIC if std::env::var_os(PANIC_ENV).is_some() => {
                panic!("{DEBUG_PANIC} was asked for")
            }
            _ => self.send(Response::new_err(
                id,
                ErrorCode::MethodNotFound as i32,
                format!("unknown request {}", req.method),
            )),
        }
    }

    /// Answer `req` with what `work` returns for its parameters (`null` for `None`).
    fn answer<P: serde::de::DeserializeOwned, R: serde::Serialize>(
        &mut self,
        req: Request,
        work: impl FnOnce(&mut Self, P) -> Option<R>,
    ) {
        let response = match serde_json::from_value::<P>(req.params) {
            Ok(p) => Response::new_ok(req.id, work(self, p)),
            Err(e) => Response::new_err(
                req.id,
                ErrorCode::InvalidParams as i32,
                format!("invalid parameters: {e}"),
            ),
        };
        self.send(response);
    }

    /// The text of the document at `path` (now `text`) once every safe fix is made, as `--fix`
    /// makes them: each pass's fixes applied, the document judged again with the library, and
    /// again until nothing changes (a fix may only be found once another has let the file
    /// parse). `None` when nothing changes. The workspace is left judging `text`.
    fn fixed_all(&mut self, path: &Path, text: &str) -> Option<String> {
        let ws = self.ws.as_mut()?;
        let files = files::EditorFiles {
            boundary: ws.boundary().clone(),
            open: &self.docs,
        };
        let shown = ws.display_path(path);
        let mut fixed = text.to_owned();
        // Should a pass panic, the next judgement reads the document again.
        self.dirty.insert(path.to_owned());
        for _ in 0..crate::fix::MAX_PASSES {
            let fixes: Vec<&Finding> = (ws.result().findings.iter())
                .filter(|f| f.path == shown)
                .filter(|f| f.fix.as_deref().is_some_and(Fix::safe_text_edit))
                .collect();
            let next = crate::fix::pass(&fixed, &fixes);
            if next == fixed {
                break;
            }
            fixed = next;
            if !ws.update(path, fixed.as_bytes(), &files) {
                break;
            }
            drop(ws.judge());
        }
        if fixed != text {
            // Back to the document as it is: nothing was published of the passes.
            ws.update(path, text.as_bytes(), &files);
            drop(ws.judge());
        }
        self.dirty.remove(path);
        (fixed != text).then_some(fixed)
    }

    /// The path and current text of the document at `uri`, when it is the workspace's: its
    /// buffer when open, else the file as read from the tree.
    fn doc(&self, uri: &lsp_types::Uri) -> Option<(PathBuf, files::Text)> {
        let path = convert::path_of(uri)?;
        let text = self.text(&path)?;
        Some((path, text))
    }

    /// The text of the workspace's document at `path`: only open documents and files the
    /// audit's boundary lets it read.
    fn text(&self, path: &Path) -> Option<files::Text> {
        if let Some(t) = self.docs.get(path) {
            return Some(files::Text {
                text: t.clone(),
                sent: true,
            });
        }
        let bytes = self.gate.read(path).ok()?;
        Some(files::Text {
            text: String::from_utf8(bytes).ok()?,
            sent: false,
        })
    }

    fn notification(&mut self, n: Notification) {
        let method = n.method.clone();
        let parsed = |n: Notification| n.params;
        match method.as_str() {
            notification::DidOpenTextDocument::METHOD => {
                // A document elsewhere is not the workspace's: its text is not kept.
                if let Ok(p) = serde_json::from_value::<DidOpenTextDocumentParams>(parsed(n))
                    && let Some(path) = convert::path_of(&p.text_document.uri)
                    && self.gate.admits(&path)
                {
                    self.docs.insert(path.clone(), p.text_document.text);
                    self.force.insert(path.clone());
                    self.changed(path);
                }
            }
            notification::DidChangeTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeTextDocumentParams>(parsed(n))
                    && let Some(path) = convert::path_of(&p.text_document.uri)
                    && self.docs.contains_key(&path)
                    && let Some(last) = p.content_changes.into_iter().last()
                {
                    // Whole-text sync: the last change is the document.
                    self.docs.insert(path.clone(), last.text);
                    self.changed(path);
                }
            }
            notification::DidSaveTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidSaveTextDocumentParams>(parsed(n))
                    && let Some(path) = convert::path_of(&p.text_document.uri)
                {
                    self.changed(path);
                }
            }
            notification::DidCloseTextDocument::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidCloseTextDocumentParams>(parsed(n))
                    && let Some(path) = convert::path_of(&p.text_document.uri)
                {
                    // Back to what the disk holds.
                    self.docs.remove(&path);
                    self.changed(path);
                }
            }
            notification::DidChangeWatchedFiles::METHOD => {
                if let Ok(p) = serde_json::from_value::<DidChangeWatchedFilesParams>(parsed(n)) {
                    for change in p.changes {
                        if let Some(path) = convert::path_of(&change.uri) {
                            if change.typ == FileChangeType::DELETED {
                                self.reload = self.reload.max(Reload::All);
                            }
                            self.changed(path);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    /// Note that the file at `path` changed: the settings file, a profile, or a library file.
    fn changed(&mut self, path: PathBuf) {
        let is_settings = path.file_name().is_some_and(|n| n == "skill-audit.toml");
        let is_profile = self
            .ws
            .as_ref()
            .is_some_and(|ws| ws.profile_files().contains(&path));
        if is_settings {
            self.reload = Reload::All;
        } else if is_profile {
            self.reload = self.reload.max(Reload::Profiles);
        } else {
            self.dirty.insert(path);
        }
    }

    /// Audit the workspace from scratch: the settings file, the profiles, every file.
    fn open(&mut self) {
        let opts = match (self.load)(&self.root) {
            Ok(o) => o,
            Err(e) => {
                self.log(MessageType::ERROR, e);
                AuditOptions {
                    roots: vec![self.root.clone()],
                    cwd: self.root.clone(),
                    config_dir: self.root.clone(),
                    ..AuditOptions::default()
                }
            }
        };
        let boundary = crate::boundary::Boundary::new(&opts.roots, opts.follow_outside);
        self.gate = files::Gate::new(&opts.roots, &opts.cwd, boundary);
        let problem = match Workspace::open(opts) {
            Ok((ws, problem)) => {
                self.ws = Some(ws);
                problem
            }
            Err(e) => {
                self.ws = None;
                Some(e)
            }
        };
        if let Some(e) = &problem {
            self.log(MessageType::ERROR, e.to_string());
        }
        self.show_problem(problem.as_ref());
        // Open buffers win over the files just read; every other file was just read.
        self.dirty = self.docs.keys().cloned().collect();
        self.judge();
    }

    /// Bring the judgement up to date with every change noted, and publish what changed.
    fn flush(&mut self) {
        // Twice at most: a file the boundary refuses asks for a whole audit, which leaves no
        // file to read again.
        for _ in 0..2 {
            match std::mem::replace(&mut self.reload, Reload::None) {
                Reload::All => self.open(),
                Reload::Profiles => {
                    self.reload_profiles();
                    self.judge();
                }
                Reload::None if self.dirty.is_empty() => return,
                Reload::None => self.judge(),
            }
            if self.reload == Reload::None {
                return;
            }
        }
    }

    /// Load the profiles again. A broken one leaves none: judging with the profiles from before
    /// the change would pass off a judgement of files no longer there as current. The library
    /// is judged without profiles, as at start, and the error is shown on the file.
    fn reload_profiles(&mut self) {
        let Some(ws) = &mut self.ws else { return };
        let loaded = ws.load_profiles();
        ws.set_profiles(loaded.as_ref().map_or_else(|_| Vec::new(), Clone::clone));
        if let Err(e) = &loaded {
            self.log(MessageType::ERROR, e.to_string());
        }
        self.show_problem(loaded.as_ref().err());
    }

    fn judge(&mut self) {
        let dirty = std::mem::take(&mut self.dirty);
        let Some(mut ws) = self.ws.take() else {
            return;
        };
        // An edited buffer's diagnostics are sent even when its findings are the same: their
        // ranges are worked out from the new text.
        let edited = dirty.iter().filter(|p| self.docs.contains_key(*p)).cloned();
        self.force.extend(edited);
        let files = files::EditorFiles {
            boundary: ws.boundary().clone(),
            open: &self.docs,
        };
        for path in &dirty {
            if let Some(t) = self.docs.get(path) {
                ws.update(path, t.as_bytes(), &files);
                continue;
            }
            // Only the files the audit reads, read as it reads them.
            if ws.candidate(path).is_none() {
                continue;
            }
            match self.gate.read(path) {
                Ok(bytes) => {
                    ws.update(path, &bytes, &files);
                }
                Err(Refusal::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                    ws.remove(path);
                }
                // A link out of the tree, a special file, one too large or unreadable: the
                // audit from scratch reports it as it does at start, without reading it.
                Err(_) => self.reload = Reload::All,
            }
        }
        let old = ws.judge();
        self.ws = Some(ws);
        self.publish();
        // After the diagnostics are out: freeing the old judgement is not the editor's wait.
        drop(old);
    }

    /// Send the diagnostics of every file whose findings changed (and of files just opened);
    /// clear those of files that have none left.
    fn publish(&mut self) {
        let Some(ws) = &self.ws else { return };
        let mut now: BTreeMap<&str, Vec<&Finding>> = BTreeMap::new();
        for f in &ws.result().findings {
            now.entry(f.path.as_str()).or_default().push(f);
        }
        let force: BTreeSet<String> = std::mem::take(&mut self.force)
            .iter()
            .map(|p| ws.display_path(p))
            .collect();
        let mut sent: Vec<(String, Vec<Finding>)> = Vec::new();
        for (shown, findings) in &now {
            let same = self
                .published
                .get(*shown)
                .is_some_and(|old| old.iter().eq(findings.iter().copied()));
            if !same || force.contains(*shown) {
                sent.push((
                    (*shown).to_owned(),
                    findings.iter().map(|f| (*f).clone()).collect(),
                ));
            }
        }
        let cleared: Vec<String> = self
            .published
            .keys()
            .filter(|p| !now.contains_key(p.as_str()))
            .cloned()
            .chain(
                force
                    .iter()
                    .filter(|p| !now.contains_key(p.as_str()))
                    .cloned(),
            )
            .collect();
        for shown in cleared {
            self.published.remove(&shown);
            self.send_diagnostics(&shown, &[]);
        }
        for (shown, findings) in sent {
            self.send_diagnostics(&shown, &findings);
            self.published.insert(shown, findings);
        }
    }

    /// Show why a profile could not be loaded on that profile's file (the audit goes on with
    /// the profiles it had, or with none), and clear what an earlier problem showed.
    fn show_problem(&mut self, e: Option<&crate::audit::AuditError>) {
        let problem = match e {
            Some(crate::audit::AuditError::Profile(p)) => {
                let path = self.root.join(&p.path);
                let text = self.text(&path).unwrap_or(files::Text {
                    text: String::new(),
                    sent: false,
                });
                let at = crate::diagnostic::Pos::new(p.line.max(1) as u32, p.column.max(1) as u32);
                let doc = text.doc();
                let start = doc.position(at);
                let end = doc.line_end(start.line);
                Some((
                    path,
                    lsp_types::Diagnostic {
                        range: lsp_types::Range::new(start, end),
                        severity: Some(lsp_types::DiagnosticSeverity::ERROR),
                        source: Some(convert::SOURCE.to_owned()),
                        message: p.message.clone(),
                        ..lsp_types::Diagnostic::default()
                    },
                ))
            }
            _ => None,
        };
        let old = std::mem::replace(&mut self.problem, problem);
        if let Some((path, _)) = old
            && self.problem.as_ref().is_none_or(|(p, _)| *p != path)
            && let Some(uri) = convert::uri_of(&path)
        {
            self.notify::<notification::PublishDiagnostics>(PublishDiagnosticsParams {
                uri,
                diagnostics: Vec::new(),
                version: None,
            });
        }
        if let Some((path, d)) = &self.problem
            && let Some(uri) = convert::uri_of(path)
        {
            self.notify::<notification::PublishDiagnostics>(PublishDiagnosticsParams {
                uri,
                diagnostics: vec![d.clone()],
                version: None,
            });
        }
    }

    fn send_diagnostics(&self, shown: &str, findings: &[Finding]) {
        let path = self.root.join(shown);
        let Some(uri) = convert::uri_of(&path) else {
            return;
        };
        let text = match findings.is_empty() {
            true => None,
            false => self.text(&path),
        };
        let text = text.unwrap_or(files::Text {
            text: String::new(),
            sent: false,
        });
        let doc = text.doc();
        let diagnostics = findings.iter().map(|f| doc.diagnostic(f)).collect();
        self.notify::<notification::PublishDiagnostics>(PublishDiagnosticsParams {
            uri,
            diagnostics,
            version: None,
        });
    }
}
