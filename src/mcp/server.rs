//! `skill-audit mcp`: an MCP server that answers, for an agent or a host, which skills of one
//! library it can use with the tools it has, why not the others, and what the audit says.
//!
//! The library is audited once at start into a [`Workspace`]; a request finds it current by
//! comparing, at most once a second, how every file the walk found and the folders holding
//! them look (modification time, size, and on Unix inode and change time, which no `utime`
//! sets back) with what they were ([`Library::refresh`]). A changed file that is still the
//! regular file the walk found is read again inside the boundary and judged incrementally, as
//! the language server does; anything else (a folder whose entries changed, a file replaced
//! by a link) has the library audited again, as the command line would audit it. A watcher
//! would answer sooner but costs a crate and a thread per folder; a stat of each file once a
//! second costs under a millisecond for the corpora.
//!
//! What it may touch: the files of the library it was started on (paths in requests are
//! refused when they leave it), read through [`crate::boundary`] at their real path once that
//! is known to be inside ([`Boundary::read`](crate::boundary::Boundary::read)); it runs nothing, writes nothing, and contacts no
//! other server (`mcp:` profiles are refused at start). Requests are bounded (a line of
//! [`super::stdio::MAX_REQUEST_BYTES`] on stdio, tool arguments of [`MAX_ARGUMENT_BYTES`]); a
//! request that is not what the server takes is a JSON-RPC error with its id ([`screen`], and
//! the stdio transport, [`super::stdio::Serving`]), and the server keeps serving. The tools are
//! in `server_tools.rs`, the skills served in `server_skills.rs`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, CustomRequest, CustomResult,
    ErrorCode, GetSkillRequestParams, GetSkillResult, Implementation, InitializeRequestParams,
    InitializeResult, ListSkillsResult, ListToolsResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, ResourceContents,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};

use crate::audit::{AuditError, AuditOptions};
use crate::profile::{Profile, ProfileSource};
use crate::report::Report;
use crate::workspace::Workspace;

use super::server_skills::Listing;
use super::server_tools as tools;
use super::stdio::{Kind, Params};

/// The largest `arguments` object a tool call may carry, as JSON: far above any real
/// request (a session's tool list is a few kilobytes), far below what would strain memory.
pub(crate) const MAX_ARGUMENT_BYTES: usize = 1 << 20;

/// How long an answer may rely on the last look at the files.
const RECHECK: Duration = Duration::from_secs(1);

/// How a file or folder looks, itself and not through a link, or `None` when it is gone:
/// what any change to it changes, and what tells it from another put in its place.
pub(crate) type Stamp = Option<Look>;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Look {
    modified: Option<SystemTime>,
    pub(crate) len: u64,
    link: bool,
    /// Device, inode, and the inode's change time. A file put in another's place (a link
    /// swapped in) has another inode; the change time, unlike the modification time, cannot
    /// be set back (`utime` sets it to now), so no change hides behind a restored time.
    #[cfg(unix)]
    inode: (u64, u64, i64, i64),
}

pub(crate) fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::symlink_metadata(path).ok()?;
    Some(Look {
        modified: meta.modified().ok(),
        len: meta.len(),
        link: meta.file_type().is_symlink(),
        #[cfg(unix)]
        inode: {
            use std::os::unix::fs::MetadataExt;
            (meta.dev(), meta.ino(), meta.ctime(), meta.ctime_nsec())
        },
    })
}

/// What the changed files of the library asked of a refresh.
enum Changes {
    None,
    /// Parsed again in place.
    Updated,
    /// Something the walk must see again: the library is audited whole.
    Whole,
}

/// The audited library, kept current, and what the tools answer from.
pub(crate) struct Library {
    pub(crate) ws: Workspace,
    /// The workspace's latest judgement as a report (explain, the audit tool).
    pub(crate) report: Report,
    /// Where each profile of the run came from, in the order of `ws.profiles()`.
    pub(crate) sources: Vec<ProfileSource>,
    /// The folder relative paths in requests and reports are taken from.
    pub(crate) cwd: PathBuf,
    /// The roots, absolute and normalised.
    pub(crate) roots: Vec<PathBuf>,
    files: HashMap<PathBuf, Stamp>,
    folders: HashMap<PathBuf, Stamp>,
    checked: Instant,
    /// The skills served (`--serve-skills`), listed once per state of the files.
    listing: Option<Arc<Listing>>,
}

impl Library {
    /// Audit the library `opts` names. A profile that cannot be loaded is an error here: the
    /// server would otherwise answer without it.
    pub(crate) fn open(opts: AuditOptions) -> Result<Library, AuditError> {
        let sources = opts.profiles.clone();
        if sources
            .iter()
            .any(|s| matches!(s, ProfileSource::Mcp { .. }))
        {
            return Err(AuditError::Usage(
                "`skill-audit mcp` contacts no other MCP server: give profiles as files or `builtin:NAME`"
                    .into(),
            ));
        }
        let cwd = opts.cwd.clone();
        let roots = opts
            .roots
            .iter()
            .map(|r| crate::paths::normalize(&cwd.join(r)))
            .collect();
        let (ws, problem) = Workspace::open(opts)?;
        if let Some(e) = problem {
            return Err(e);
        }
        let report = Report::new(ws.result().clone());
        let mut lib = Library {
            ws,
            report,
            sources,
            cwd,
            roots,
            files: HashMap::new(),
            folders: HashMap::new(),
            checked: Instant::now(),
            listing: None,
        };
        lib.restamp();
        Ok(lib)
    }

    /// Remember how every audited file and the folders above it (up to a root) look now.
    fn restamp(&mut self) {
        self.files.clear();
        self.folders.clear();
        let files: Vec<PathBuf> = self
            .ws
            .files()
            .map(|p| crate::paths::normalize(&self.cwd.join(p)))
            .collect();
        for f in files {
            let mut dir = f.parent();
            while let Some(d) = dir {
                if self.folders.contains_key(d) || !self.roots.iter().any(|r| d.starts_with(r)) {
                    break;
                }
                self.folders.insert(d.to_owned(), stamp(d));
                dir = d.parent();
            }
            let s = stamp(&f);
            self.files.insert(f, s);
        }
        for r in &self.roots {
            self.folders.insert(r.clone(), stamp(r));
        }
        self.checked = Instant::now();
    }

    /// Bring the audit up to date with the files, when it was last checked more than
    /// [`RECHECK`] ago. An error (a root deleted) leaves the last judgement in place.
    pub(crate) fn refresh(&mut self) -> Result<(), String> {
        if self.checked.elapsed() < RECHECK {
            return Ok(());
        }
        let moved = self.folders.iter().any(|(d, s)| stamp(d) != *s);
        let changes = if moved {
            Changes::Whole
        } else {
            self.update_changed()
        };
        match changes {
            Changes::None => {
                // A served file the audit does not read may have changed: its digest with it.
                if self.listing.as_ref().is_some_and(|l| l.stale()) {
                    self.listing = None;
                }
                self.checked = Instant::now();
                return Ok(());
            }
            Changes::Updated => {}
            Changes::Whole => {
                let opts = self.ws.options().clone();
                let (ws, problem) = Workspace::open(opts).map_err(|e| e.to_string())?;
                if let Some(e) = problem {
                    return Err(e.to_string());
                }
                self.ws = ws;
            }
        }
        self.report = Report::new(self.ws.result().clone());
        self.listing = None;
        self.restamp();
        Ok(())
    }

    /// Parse again the files whose stamps changed, when each is still the regular file the
    /// walk found and reads inside the boundary. Anything else (a file gone, a link or a FIFO
    /// in its place, a folder above it swapped for a link leading out) is left to a whole
    /// audit, which refuses what leads outside (SA110) exactly as the command line does.
    fn update_changed(&mut self) -> Changes {
        let changed: Vec<PathBuf> = self
            .files
            .iter()
            .filter(|(f, s)| stamp(f) != **s)
            .map(|(f, _)| f.clone())
            .collect();
        if changed.is_empty() {
            return Changes::None;
        }
        let boundary = self.ws.boundary().clone();
        let mut texts = Vec::with_capacity(changed.len());
        for path in changed {
            let regular = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
            let walked_as_file = self
                .ws
                .candidate(&path)
                .is_some_and(|c| c.entry == crate::discover::Entry::File);
            if !regular || !walked_as_file {
                return Changes::Whole;
            }
            match boundary.read(&path, crate::boundary::MAX_FILE_BYTES) {
                Ok(c) => texts.push((path, c.bytes)),
                Err(_) => return Changes::Whole,
            }
        }
        let tree = crate::files::Tree::new(&boundary);
        for (path, text) in &texts {
            self.ws.update(path, text, &tree);
        }
        drop(self.ws.judge());
        Changes::Updated
    }

    /// The skills served, with `mark_unavailable` as the server was started.
    pub(crate) fn listing(&mut self, mark_unavailable: bool) -> Arc<Listing> {
        if let Some(l) = &self.listing {
            return l.clone();
        }
        let l = Arc::new(super::server_skills::listing(self, mark_unavailable));
        self.listing = Some(l.clone());
        l
    }

    /// Forget the skills served, to list them again.
    pub(crate) fn forget_listing(&mut self) {
        self.listing = None;
    }

    /// The profiles the server was started with.
    pub(crate) fn profiles(&self) -> &[Profile] {
        self.ws.profiles()
    }
}

/// Whether and how the library's skills are served (`--serve-skills`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServeSkills {
    No,
    /// Only the skills available in the first profile.
    Available,
    /// Every skill, with its availability in its `_meta`.
    MarkUnavailable,
}

/// The server: one library shared by every session.
#[derive(Clone)]
pub struct Server {
    lib: Arc<Mutex<Library>>,
    serve: ServeSkills,
    /// Set once the session has answered `initialize`: a second one is refused, so the
    /// session keeps what its first agreed.
    initialized: Arc<AtomicBool>,
}

impl Server {
    pub(crate) fn new(lib: Library, serve: ServeSkills) -> Server {
        Server {
            lib: Arc::new(Mutex::new(lib)),
            serve,
            initialized: Arc::default(),
        }
    }

    /// The server of a new session: the same library, a handshake of its own.
    fn session(&self) -> Server {
        Server {
            lib: Arc::clone(&self.lib),
            serve: self.serve,
            initialized: Arc::default(),
        }
    }

    /// The skills served, current; an error naming `method`, the one asked, when none are.
    fn listing(&self, method: &str) -> Result<Arc<Listing>, ErrorData> {
        if self.serve == ServeSkills::No {
            return Err(ErrorData::new(
                rmcp::model::ErrorCode::METHOD_NOT_FOUND,
                format!("`{method}` is answered only by a server started with --serve-skills"),
                None,
            ));
        }
        let lib = self.lib.clone();
        let mark = self.serve == ServeSkills::MarkUnavailable;
        let mut lib = lock(&lib);
        lib.refresh().map_err(|e| {
            ErrorData::internal_error(format!("cannot read the library: {e}"), None)
        })?;
        Ok(lib.listing(mark))
    }
}

impl Server {
    /// The bytes of the listed `uri`: `Err` with them when they are not what the listing
    /// states.
    fn read_listed(&self, uri: &str) -> Result<Result<Vec<u8>, Vec<u8>>, ErrorData> {
        let listing = self.listing("resources/read")?;
        let Some(read) = listing.read(uri) else {
            return Err(ErrorData::resource_not_found(
                format!("no resource {uri}"),
                None,
            ));
        };
        let bytes = read
            .map_err(|e| ErrorData::internal_error(format!("cannot read {uri}: {e}"), None))?
            .bytes;
        Ok(if listing.matches(uri, &bytes) {
            Ok(bytes)
        } else {
            Err(bytes)
        })
    }
}

/// The start of the page a cursor this server gave stands for: a page boundary inside a
/// list of `len`, written as this server writes it.
fn given_cursor(cursor: &str, len: usize) -> Option<usize> {
    let start = cursor.parse::<usize>().ok()?;
    (start.to_string() == cursor && start > 0 && start % PAGE == 0 && start < len).then_some(start)
}

/// An error for a cursor sent to a list this server answers in one page.
fn one_page(method: &str, request: Option<PaginatedRequestParams>) -> Result<(), ErrorData> {
    match request.and_then(|r| r.cursor) {
        None => Ok(()),
        Some(_) => Err(ErrorData::invalid_params(
            format!(
                "not a cursor of this server: `{method}` answers in one page; ask without `cursor`"
            ),
            None,
        )),
    }
}

/// Skills per page of `skills/list`.
const PAGE: usize = 500;

/// Lock the library or another of the server's shared states; a task that panicked leaves
/// them as they were, so a poisoned lock is used.
pub(crate) fn lock<T>(shared: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    shared
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        let caps = ServerCapabilities::builder().enable_tools();
        let caps = match self.serve {
            ServeSkills::No => caps.build(),
            _ => caps.enable_resources().enable_skills().build(),
        };
        let mut info = ServerConfig::new(caps);
        info.server_info = Implementation::new("skill-audit", env!("CARGO_PKG_VERSION"));
        info.instructions = Some(
            "Ask `available_skills` with the names of the tools (and MCP servers) this session \
             has, to learn which skills of the library it can use; `check_skill` says why one \
             cannot be used and what would satisfy it."
                .into(),
        );
        info
    }

    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, ErrorData> {
        if self.initialized.swap(true, Ordering::SeqCst) {
            return Err(ErrorData::invalid_request(
                "the session is already initialized: `initialize` is sent once, to start it",
                None,
            ));
        }
        context.peer.set_peer_info(request.clone());
        self.negotiate_initialize(&request)
    }

    async fn list_tools(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        // The tools fit one page, so no cursor is one this server gave.
        if request.and_then(|r| r.cursor).is_some() {
            return Err(ErrorData::invalid_params(
                "not a cursor of this server: `tools/list` answers in one page; ask without \
                 `cursor`",
                None,
            ));
        }
        Ok(ListToolsResult::with_all_items(tools::list()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        let args = request.arguments.unwrap_or_default();
        let size = serde_json::to_vec(&args).map_or(usize::MAX, |v| v.len());
        if size > MAX_ARGUMENT_BYTES {
            return Err(ErrorData::invalid_params(
                format!(
                    "the arguments are {size} bytes; a call takes at most {MAX_ARGUMENT_BYTES}"
                ),
                None,
            ));
        }
        let lib = self.lib.clone();
        let ct = context.ct.clone();
        // The audit is CPU work: off the runtime's thread, so other requests and the
        // cancellation of this one are still read meanwhile.
        let work = tokio::task::spawn_blocking(move || {
            tools::call(&lib, &name, args, &|| ct.is_cancelled())
        });
        let result: Result<CallToolResult, ErrorData> = tokio::select! {
            () = context.ct.cancelled() => Err(ErrorData::internal_error("cancelled", None)),
            joined = work => joined.unwrap_or_else(|e| {
                Err(ErrorData::internal_error(format!("the tool failed: {e}"), None))
            }),
        };
        result.map(CallToolResponse::from)
    }

    async fn list_skills(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListSkillsResult, ErrorData> {
        let listing = self.listing("skills/list")?;
        let start = match request.and_then(|r| r.cursor) {
            None => 0,
            Some(c) => given_cursor(&c, listing.skills.len())
                .ok_or_else(|| ErrorData::invalid_params("not a cursor of this server", None))?,
        };
        let end = start.saturating_add(PAGE).min(listing.skills.len());
        let page = listing.skills.get(start..end).unwrap_or_default().to_vec();
        let mut result = ListSkillsResult::with_all_items(page);
        result.next_cursor = (end < listing.skills.len()).then(|| end.to_string());
        Ok(result)
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListResourcesResult, ErrorData> {
        self.listing("resources/list")?;
        one_page("resources/list", request)?;
        Ok(rmcp::model::ListResourcesResult::default())
    }

    async fn list_resource_templates(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::ListResourceTemplatesResult, ErrorData> {
        self.listing("resources/templates/list")?;
        one_page("resources/templates/list", request)?;
        Ok(rmcp::model::ListResourceTemplatesResult::default())
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        let listing = self.listing("skills/get")?;
        listing
            .skills
            .iter()
            .find(|s| s.uri == request.uri)
            .map(|s| GetSkillResult::new(s.clone()))
            .ok_or_else(|| {
                ErrorData::invalid_params(format!("no skill is served at {}", request.uri), None)
            })
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let mut bytes = self.read_listed(&uri)?;
        if let Err(changed) = bytes {
            // The file changed since it was listed: list again, so the digest the client
            // finds there is that of the bytes it gets.
            lock(&self.lib).forget_listing();
            drop(changed);
            bytes = self.read_listed(&uri)?;
        }
        let bytes = bytes.unwrap_or_else(|b| b);
        let contents = match String::from_utf8(bytes) {
            Ok(text) => {
                let mime = if uri.ends_with(".md") {
                    "text/markdown"
                } else {
                    "text/plain"
                };
                ResourceContents::text(text, uri).with_mime_type(mime)
            }
            Err(e) => {
                use base64::Engine as _;
                let blob = base64::engine::general_purpose::STANDARD.encode(e.as_bytes());
                ResourceContents::blob(blob, uri).with_mime_type("application/octet-stream")
            }
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    /// What rmcp could not read as a method of its own: a method this server answers, with
    /// params it does not take, is invalid params naming what is wrong (rmcp would call it an
    /// unknown method); any other is not found.
    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        let skills = self.serve != ServeSkills::No;
        let params = Params::of(request.params.as_ref());
        if let Some(e) = screen(&request.method, &params, skills) {
            return Err(e);
        }
        if served(&request.method, skills).is_none() {
            return Err(ErrorData::new(
                ErrorCode::METHOD_NOT_FOUND,
                request.method,
                None,
            ));
        }
        Err(ErrorData::invalid_params(
            typed_problem(&request.method, request.params),
            None,
        ))
    }
}

/// A member of a method's params that is checked before rmcp reads the request: its name,
/// the kind it must be, and whether it must be there (`null` counts as left out).
struct Member(&'static str, Kind, bool);

const CURSOR: Member = Member("cursor", Kind::String, false);
const META: Member = Member("_meta", Kind::Object, false);

/// The methods this server answers (the second field: only with `--serve-skills`), with
/// the members of their params whose kind is checked.
const METHODS: &[(&str, bool, &[Member])] = &[
    (
        "initialize",
        false,
        &[
            Member("protocolVersion", Kind::String, true),
            Member("capabilities", Kind::Object, true),
            Member("clientInfo", Kind::Object, true),
        ],
    ),
    ("ping", false, &[]),
    ("tools/list", false, &[CURSOR]),
    (
        "tools/call",
        false,
        &[
            Member("name", Kind::String, true),
            Member("arguments", Kind::Object, false),
        ],
    ),
    ("skills/list", true, &[CURSOR]),
    ("skills/get", true, &[Member("uri", Kind::String, true)]),
    ("resources/list", true, &[CURSOR]),
    ("resources/templates/list", true, &[CURSOR]),
    ("resources/read", true, &[Member("uri", Kind::String, true)]),
];

/// The checked members of `method`'s params, when this server answers it.
fn served(method: &str, skills: bool) -> Option<&'static [Member]> {
    METHODS
        .iter()
        .find(|(m, only_with_skills, _)| *m == method && (skills || !only_with_skills))
        .map(|(_, _, members)| *members)
}

/// Whether a member of params named `name` is one some check looks at.
pub(crate) fn takes_member(name: &str) -> bool {
    name == META.0
        || METHODS
            .iter()
            .any(|(_, _, members)| members.iter().any(|m| m.0 == name))
}

/// The error for a request that is plainly wrong before rmcp reads it: to a method this
/// server answers, params it does not take (invalid params, naming what is wrong); to any
/// other, params that are not an object (method not found). `None` lets rmcp read it.
pub(crate) fn screen(method: &str, params: &Params, skills: bool) -> Option<ErrorData> {
    let Some(members) = served(method, skills) else {
        return matches!(params, Params::Other(k) if *k != Kind::Null)
            .then(|| ErrorData::new(ErrorCode::METHOD_NOT_FOUND, method.to_owned(), None));
    };
    let problem = match params {
        Params::Absent | Params::Other(Kind::Null) => members.iter().find(|m| m.2).map(|m| {
            format!(
                "`{method}` takes params with `{}`, {}: there are none",
                m.0, m.1
            )
        }),
        Params::Other(kind) => Some(format!(
            "the params of `{method}` must be an object, not {kind}"
        )),
        Params::Object(_) => members
            .iter()
            .chain([&META])
            .find_map(|m| match params.member(m.0) {
                None | Some(Kind::Null) if m.2 => Some(format!(
                    "`{method}` takes `{}`, {}: it is missing",
                    m.0, m.1
                )),
                Some(k) if k != m.1 && k != Kind::Null => {
                    Some(format!("`{}` of `{method}` must be {}, not {k}", m.0, m.1))
                }
                _ => None,
            }),
    };
    problem.map(|p| ErrorData::invalid_params(p, None))
}

/// Why rmcp could not read `params` as those of `method`, in serde's words.
pub(crate) fn typed_problem(method: &str, params: Option<serde_json::Value>) -> String {
    fn why<T: serde::de::DeserializeOwned>(v: serde_json::Value) -> Option<String> {
        serde_json::from_value::<T>(v).err().map(|e| e.to_string())
    }
    let v = params.unwrap_or_default();
    let why = match method {
        "initialize" => why::<InitializeRequestParams>(v),
        "tools/call" => why::<CallToolRequestParams>(v),
        "skills/get" => why::<GetSkillRequestParams>(v),
        "resources/read" => why::<ReadResourceRequestParams>(v),
        "ping" => None,
        _ => why::<PaginatedRequestParams>(v),
    };
    match why {
        Some(why) => format!("the params of `{method}` are not what it takes: {why}"),
        None => format!("the params of `{method}` are not what it takes"),
    }
}

/// The server of `opts`'s library, audited.
fn start(opts: AuditOptions, serve: ServeSkills) -> Result<Server, String> {
    if serve != ServeSkills::No && opts.profiles.is_empty() {
        return Err(
            "--serve-skills serves the skills available in a profile: give one with `-p`".into(),
        );
    }
    let lib = Library::open(opts).map_err(|e| e.to_string())?;
    Ok(Server::new(lib, serve))
}

fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))
}

/// Serve `opts`'s library on standard input and output until the client closes them.
pub fn serve_stdio(opts: AuditOptions, serve: ServeSkills) -> Result<(), String> {
    let server = start(opts, serve)?;
    let rt = runtime()?;
    let skills = serve != ServeSkills::No;
    let served = rt.block_on(async {
        let (stdin, stdout) = rmcp::transport::stdio();
        let transport = super::stdio::Serving::new(
            stdin,
            stdout,
            Box::new(move |method, params| screen(method, params, skills)),
        );
        let running = server
            .serve(transport)
            .await
            .map_err(|e| format!("cannot start the MCP session: {e}"))?;
        running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| format!("the MCP session failed: {e}"))
    });
    // A request still running when the client left is not waited for: the process ends.
    rt.shutdown_background();
    served
}

/// Where `--http ADDR` listens: `PORT` and `localhost:PORT` are the loopback address.
pub fn http_address(addr: &str) -> Result<std::net::SocketAddr, String> {
    let loopback = std::net::Ipv4Addr::LOCALHOST;
    if let Ok(port) = addr.parse::<u16>() {
        return Ok((loopback, port).into());
    }
    if let Some(port) = addr.strip_prefix("localhost:") {
        let port = port
            .parse::<u16>()
            .map_err(|_| format!("`{addr}` is not an address: give PORT or HOST:PORT"))?;
        return Ok((loopback, port).into());
    }
    addr.parse()
        .map_err(|_| format!("`{addr}` is not an address: give PORT, or an IP address and port"))
}

/// Serve `opts`'s library over streamable HTTP at `http://ADDR/mcp` until stopped. Bound to
/// a loopback address, requests must name a loopback host or that address (rmcp's guard
/// against DNS rebinding); bound elsewhere, any host is accepted, as the operator asked.
/// Wherever it is bound, a browser's request must come from a page on this machine.
pub fn serve_http(
    opts: AuditOptions,
    serve: ServeSkills,
    addr: std::net::SocketAddr,
) -> Result<(), String> {
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    let server = start(opts, serve)?;
    let mut config = StreamableHttpServerConfig::default();
    if addr.ip().is_loopback() {
        // A client names the address it connects to: rmcp's loopback names leave out the
        // others (`127.0.0.2`).
        config.allowed_hosts.push(addr.ip().to_string());
    } else {
        say!(
            "skill-audit mcp: warning: listening on {addr}, not a loopback address: anyone who \
             can reach it can read the library's skills"
        );
        config = config.disable_allowed_hosts();
    }
    let mut sessions = LocalSessionManager::default();
    sessions.session_config.keep_alive = Some(SESSION_IDLE);
    let sessions = Arc::new(sessions);
    let service =
        StreamableHttpService::new(move || Ok(server.session()), Arc::clone(&sessions), config);
    let rt = runtime()?;
    let served = rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let bound = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        say!("skill-audit mcp: listening on http://{bound}/mcp");
        let open = Arc::new(tokio::sync::Semaphore::new(max_connections()));
        loop {
            // A connection that fails to open is that client's problem, not the server's; out
            // of file descriptors, retrying at once would only spin.
            let Ok((stream, _)) = listener.accept().await else {
                tokio::time::sleep(ACCEPT_PAUSE).await;
                continue;
            };
            let Ok(slot) = Arc::clone(&open).try_acquire_owned() else {
                tokio::spawn(refuse(stream));
                continue;
            };
            let service = service.clone();
            let sessions = Arc::clone(&sessions);
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let svc = hyper::service::service_fn(move |request| {
                    let service = service.clone();
                    let sessions = Arc::clone(&sessions);
                    async move {
                        Ok::<_, std::convert::Infallible>(routed(service, sessions, request).await)
                    }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(HEADER_READ)
                    .serve_connection(io, svc)
                    .await;
                drop(slot);
            });
        }
    });
    rt.shutdown_background();
    served
}

/// Where the server answers MCP over HTTP, the one path it announces.
const MCP_PATH: &str = "/mcp";

/// Connections open at once, at most: past it a new one is answered 503 and closed.
const MAX_CONNECTIONS: usize = 256;
/// Sessions alive at once, at most: past it a new session is refused with 503.
const MAX_SESSIONS: usize = 1_000;
/// How long a session lives without a request.
const SESSION_IDLE: Duration = Duration::from_secs(60);
/// How long a client may take to send a request's headers.
const HEADER_READ: Duration = Duration::from_secs(10);
/// How long a client may take to send a request's body, once its headers are in.
const BODY_READ: Duration = Duration::from_secs(10);
/// The pause after a connection could not be accepted.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// [`MAX_CONNECTIONS`], or fewer when the process may open fewer files: a connection refused
/// with 503 is better than one left waiting while the server cannot accept it.
fn max_connections() -> usize {
    #[cfg(unix)]
    {
        use rustix::process::{Resource, getrlimit};
        if let Some(files) = getrlimit(Resource::Nofile).current {
            let spare = usize::try_from(files / 2).unwrap_or(MAX_CONNECTIONS);
            return MAX_CONNECTIONS.min(spare.max(1));
        }
    }
    MAX_CONNECTIONS
}

/// Answer a connection over the cap with 503, and close it.
async fn refuse(mut stream: tokio::net::TcpStream) {
    use tokio::io::AsyncWriteExt;
    let text = "too many connections open at once; try again later\n";
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\nretry-after: 1\r\n\r\n{text}",
        text.len()
    );
    let _ = tokio::time::timeout(HEADER_READ, stream.write_all(response.as_bytes())).await;
}

/// A plain-text answer with `status`.
fn plain<B>(status: http::StatusCode, text: String) -> http::Response<Routed<B>> {
    let mut response = http::Response::new(Routed::Text(Some(text.into())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        http::header::CONTENT_TYPE,
        http::HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// `request` answered by `service` when it is for [`MCP_PATH`], else 404: a client that
/// mistypes the URL is told so, rather than getting a session at an address no one gave it.
async fn routed(
    service: rmcp::transport::streamable_http_server::StreamableHttpService<
        Server,
        rmcp::transport::streamable_http_server::session::local::LocalSessionManager,
    >,
    sessions: Arc<rmcp::transport::streamable_http_server::session::local::LocalSessionManager>,
    request: http::Request<hyper::body::Incoming>,
) -> http::Response<
    Routed<
        impl hyper::body::Body<Data = hyper::body::Bytes, Error = std::convert::Infallible>
        + Unpin
        + Send,
    >,
> {
    // A browser names the page that sends a request: one not on this machine is a web page
    // reaching the server through DNS rebinding (the MCP spec asks servers to check it).
    if let Some(origin) = request.headers().get(http::header::ORIGIN)
        && !loopback_origin(origin)
    {
        let text = "forbidden: the request comes from a web page that is not on this machine (its `Origin`)\n";
        return plain(http::StatusCode::FORBIDDEN, text.into());
    }
    if request.uri().path() != MCP_PATH {
        let text = format!("not found: the MCP endpoint is {MCP_PATH}\n");
        return plain(http::StatusCode::NOT_FOUND, text);
    }
    let opens_session =
        request.method() == http::Method::POST && !request.headers().contains_key("mcp-session-id");
    if opens_session && sessions.sessions.read().await.len() >= MAX_SESSIONS {
        let text = format!(
            "too many sessions: this server keeps at most {MAX_SESSIONS}; end one (DELETE) or try again later\n"
        );
        return plain(http::StatusCode::SERVICE_UNAVAILABLE, text);
    }
    let ends_session = request.method() == http::Method::DELETE;
    let expired = Arc::new(AtomicBool::new(false));
    let request = request.map(|body| Timed {
        body,
        deadline: Box::pin(tokio::time::sleep(BODY_READ)),
        expired: Arc::clone(&expired),
    });
    let mut response = service.handle(request).await.map(Routed::Served);
    if expired.load(Ordering::SeqCst) {
        let text = format!(
            "the request's body did not arrive within {} seconds\n",
            BODY_READ.as_secs()
        );
        let mut response = plain(http::StatusCode::REQUEST_TIMEOUT, text);
        response.headers_mut().insert(
            http::header::CONNECTION,
            http::HeaderValue::from_static("close"),
        );
        return response;
    }
    // A session ended is answered 200, as clients expect (rmcp says 202, which the Python
    // SDK takes for a failure).
    if ends_session && response.status() == http::StatusCode::ACCEPTED {
        *response.status_mut() = http::StatusCode::OK;
    }
    response
}

/// Whether `origin` is that of a page served from this machine: `http://` or `https://`
/// with `localhost`, a `127.x.x.x` address or `[::1]`, any port.
fn loopback_origin(origin: &http::HeaderValue) -> bool {
    let Some(uri) = origin
        .to_str()
        .ok()
        .and_then(|o| o.parse::<http::Uri>().ok())
    else {
        return false;
    };
    let web = uri
        .scheme_str()
        .is_some_and(|s| s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https"));
    let Some(host) = uri.authority().map(http::uri::Authority::host) else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    web && (host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback()))
}

/// A request's body, failing once [`BODY_READ`] has passed: hyper bounds the time to read
/// headers only, so a client sending a body slowly would hold its connection for ever.
struct Timed {
    body: hyper::body::Incoming,
    deadline: std::pin::Pin<Box<tokio::time::Sleep>>,
    /// Set when the deadline passed before the body's end, to answer 408.
    expired: Arc<AtomicBool>,
}

impl hyper::body::Body for Timed {
    type Data = hyper::body::Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        let this = self.get_mut();
        if this.deadline.as_mut().poll(cx).is_ready() {
            this.expired.store(true, Ordering::SeqCst);
            let late = std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "the request's body did not arrive in time",
            );
            return std::task::Poll::Ready(Some(Err(late)));
        }
        std::pin::Pin::new(&mut this.body)
            .poll_frame(cx)
            .map_err(std::io::Error::other)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

/// A response body: the MCP service's, or a text of the server's own (403, 404, 408, 503).
enum Routed<B> {
    Served(B),
    Text(Option<hyper::body::Bytes>),
}

impl<B> hyper::body::Body for Routed<B>
where
    B: hyper::body::Body<Data = hyper::body::Bytes> + Unpin,
{
    type Data = hyper::body::Bytes;
    type Error = B::Error;

    fn poll_frame(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        match self.get_mut() {
            Routed::Served(body) => std::pin::Pin::new(body).poll_frame(cx),
            Routed::Text(text) => {
                std::task::Poll::Ready(text.take().map(|t| Ok(hyper::body::Frame::data(t))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        match self {
            Routed::Served(body) => body.is_end_stream(),
            Routed::Text(text) => text.is_none(),
        }
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        match self {
            Routed::Served(body) => body.size_hint(),
            Routed::Text(text) => {
                hyper::body::SizeHint::with_exact(text.as_ref().map_or(0, |t| t.len() as u64))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_cursors_the_server_gives_are_taken() {
        assert_eq!(given_cursor("500", 1200), Some(500));
        assert_eq!(given_cursor("1000", 1200), Some(1000));
        for bad in ["0", "00", "+500", "0500", "99999", "1500", "250", "abc", ""] {
            assert_eq!(given_cursor(bad, 1200), None, "{bad}");
        }
    }

    #[test]
    fn http_addresses_default_to_loopback() {
        assert_eq!(
            http_address("8123").map(|a| a.to_string()),
            Ok("127.0.0.1:8123".into())
        );
        assert_eq!(
            http_address("localhost:8123").map(|a| a.to_string()),
            Ok("127.0.0.1:8123".into())
        );
        assert_eq!(
            http_address("[::1]:80").map(|a| a.ip().is_loopback()),
            Ok(true)
        );
        assert_eq!(
            http_address("0.0.0.0:80").map(|a| a.ip().is_loopback()),
            Ok(false)
        );
        assert!(http_address("example.com:80").is_err());
        assert!(http_address("localhost:http").is_err());
    }

    #[test]
    fn only_pages_on_this_machine_are_loopback_origins() {
        let loopback = |o: &str| loopback_origin(&http::HeaderValue::from_str(o).expect("a value"));
        for o in [
            "http://localhost",
            "http://localhost:3000",
            "HTTP://LocalHost:3000",
            "http://127.0.0.1",
            "http://127.9.8.7:80",
            "http://[::1]:5173",
            "https://localhost:8443",
        ] {
            assert!(loopback(o), "{o}");
        }
        for o in [
            "null",
            "",
            "http://example.com",
            "http://localhost.example.com",
            "http://127.0.0.1.nip.io",
            "http://128.0.0.1",
            "http://[::2]",
            "http://0.0.0.0",
            "file://",
            "ftp://localhost",
            "localhost:3000",
        ] {
            assert!(!loopback(o), "{o}");
        }
    }

    #[test]
    fn params_a_method_does_not_take_are_invalid_params_naming_the_member() {
        let check = |method: &str, params: serde_json::Value, skills: bool| {
            let params = match params {
                serde_json::Value::Null => Params::Absent,
                p => Params::of(Some(&p)),
            };
            screen(method, &params, skills).map(|e| (e.code.0, e.message.into_owned()))
        };
        let invalid = |method: &str, params: serde_json::Value, says: &str| {
            let got = check(method, params.clone(), true);
            assert!(
                got.as_ref()
                    .is_some_and(|(code, m)| *code == -32602 && m.contains(says)),
                "{method} {params}: {got:?}"
            );
        };
        use serde_json::json;
        invalid(
            "tools/call",
            json!({"name": "rule", "arguments": "SA402"}),
            "`arguments`",
        );
        invalid(
            "tools/call",
            json!({"name": "rule", "arguments": ["x"]}),
            "not an array",
        );
        invalid("tools/call", json!({"arguments": {}}), "`name`");
        invalid(
            "tools/call",
            json!({"name": 5}),
            "`name` of `tools/call` must be a string",
        );
        invalid("tools/call", serde_json::Value::Null, "`name`");
        invalid("tools/call", json!({"name": "rule", "_meta": 1}), "`_meta`");
        invalid("resources/read", json!({"uri": 5}), "`uri`");
        invalid("skills/get", json!({"uri": null}), "`uri`");
        invalid("ping", json!("x"), "must be an object, not a string");
        // What is right, or only optional members left null, goes to rmcp.
        for (method, params) in [
            ("tools/call", json!({"name": "rule", "arguments": null})),
            (
                "tools/call",
                json!({"name": "rule", "arguments": {"id": 1}, "extra": [1]}),
            ),
            ("tools/list", json!({"cursor": null})),
            ("ping", serde_json::Value::Null),
            ("no/such", json!({"a": 1})),
        ] {
            assert_eq!(
                check(method, params.clone(), true),
                None,
                "{method} {params}"
            );
        }
        // The skills' methods are unknown without --serve-skills; so is any other.
        assert_eq!(check("skills/get", json!({}), false), None);
        assert_eq!(
            check("skills/get", json!([1]), false).map(|e| e.0),
            Some(-32601)
        );
        assert_eq!(
            check("no/such", json!([1]), true).map(|e| e.0),
            Some(-32601)
        );
        // What rmcp finds wrong deeper down, in serde's words.
        let why = typed_problem(
            "initialize",
            Some(json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {}})),
        );
        assert!(why.contains("missing field `name`"), "{why}");
    }
}
