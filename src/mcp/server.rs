//! `skill-audit mcp`: an MCP server that answers, for an agent or a host, which skills of one
//! library it can use with the tools it has, why not the others, and what the audit says.
//!
//! The library is audited once at start into a [`Workspace`]; a request finds it current by
//! comparing, at most once a second, the modification time and size of every file the walk
//! found and of the folders holding them with what they were ([`Library::refresh`]). A
//! changed file is read again through the bounded reader and judged incrementally, as the
//! language server does; a folder whose entries changed (a file added or removed) has the
//! library audited again. A watcher would answer sooner but costs a crate and a thread per
//! folder; a stat of each file once a second costs under a millisecond for the corpora.
//!
//! What it may touch: the files of the library it was started on (paths in requests are
//! refused when they leave it), read through [`crate::boundary`]; it runs nothing, writes
//! nothing, and contacts no other server (`mcp:` profiles are refused at start). Requests
//! are bounded ([`MAX_ARGUMENT_BYTES`]); a request that is not what a tool takes is a
//! JSON-RPC error, and the server keeps serving. The tools are in `server_tools.rs`, the skills
//! served in `server_skills.rs`.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, GetSkillRequestParams, GetSkillResult,
    Implementation, ListSkillsResult, ListToolsResult, PaginatedRequestParams,
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

/// The largest `arguments` object a tool call may carry, as JSON: far above any real
/// request (a session's tool list is a few kilobytes), far below what would strain memory.
pub(crate) const MAX_ARGUMENT_BYTES: usize = 1 << 20;

/// How long an answer may rely on the last look at the files.
const RECHECK: Duration = Duration::from_secs(1);

/// A file's or folder's modification time and size, or `None` when it is gone.
type Stamp = Option<(SystemTime, u64)>;

fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::symlink_metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.len()))
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
        if moved {
            let opts = self.ws.options().clone();
            let (ws, problem) = Workspace::open(opts).map_err(|e| e.to_string())?;
            if let Some(e) = problem {
                return Err(e.to_string());
            }
            self.ws = ws;
        } else {
            let changed: Vec<PathBuf> = self
                .files
                .iter()
                .filter(|(f, s)| stamp(f) != **s)
                .map(|(f, _)| f.clone())
                .collect();
            if changed.is_empty() {
                self.checked = Instant::now();
                return Ok(());
            }
            let boundary = self.ws.boundary().clone();
            let tree = crate::files::Tree::new(&boundary);
            for path in &changed {
                match crate::boundary::read(path, crate::boundary::MAX_FILE_BYTES) {
                    Ok(c) => {
                        self.ws.update(path, &c.bytes, &tree);
                    }
                    Err(_) => self.ws.remove(path),
                }
            }
            drop(self.ws.judge());
        }
        self.report = Report::new(self.ws.result().clone());
        self.listing = None;
        self.restamp();
        Ok(())
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
}

impl Server {
    pub(crate) fn new(lib: Library, serve: ServeSkills) -> Server {
        Server {
            lib: Arc::new(Mutex::new(lib)),
            serve,
        }
    }

    /// The skills served, current; an error when none are.
    fn listing(&self) -> Result<Arc<Listing>, ErrorData> {
        if self.serve == ServeSkills::No {
            return Err(ErrorData::method_not_found::<
                rmcp::model::ListSkillsRequestMethod,
            >());
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

/// Skills per page of `skills/list`.
const PAGE: usize = 500;

/// Lock the library; a tool that panicked leaves it as it was, so a poisoned lock is used.
pub(crate) fn lock(lib: &Mutex<Library>) -> std::sync::MutexGuard<'_, Library> {
    lib.lock()
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

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
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
        let listing = self.listing()?;
        let start = match request.and_then(|r| r.cursor) {
            None => 0,
            Some(c) => c
                .parse::<usize>()
                .map_err(|_| ErrorData::invalid_params("not a cursor of this server", None))?,
        };
        let end = start.saturating_add(PAGE).min(listing.skills.len());
        let page = listing.skills.get(start..end).unwrap_or_default().to_vec();
        let mut result = ListSkillsResult::with_all_items(page);
        result.next_cursor = (end < listing.skills.len()).then(|| end.to_string());
        Ok(result)
    }

    async fn get_skill(
        &self,
        request: GetSkillRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetSkillResult, ErrorData> {
        let listing = self.listing()?;
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
        let listing = self.listing()?;
        let uri = request.uri;
        let Some(path) = listing.file(&uri) else {
            return Err(ErrorData::resource_not_found(
                format!("no resource {uri}"),
                None,
            ));
        };
        let bytes = crate::boundary::read(path, super::MAX_RESOURCE_BYTES as u64)
            .map_err(|e| ErrorData::internal_error(format!("cannot read {uri}: {e}"), None))?
            .bytes;
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
    let served = rt.block_on(async {
        let running = server
            .serve(rmcp::transport::stdio())
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
/// a loopback address, requests must name a loopback host (rmcp's guard against DNS
/// rebinding); bound elsewhere, any host is accepted, as the operator asked.
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
    if !addr.ip().is_loopback() {
        eprintln!(
            "skill-audit mcp: warning: listening on {addr}, not a loopback address: anyone who \
             can reach it can read the library's skills"
        );
        config = config.disable_allowed_hosts();
    }
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        LocalSessionManager::default().into(),
        config,
    );
    let rt = runtime()?;
    let served = rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let bound = listener
            .local_addr()
            .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        eprintln!("skill-audit mcp: listening on http://{bound}/mcp");
        loop {
            // A connection that fails to open is that client's problem, not the server's.
            let Ok((stream, _)) = listener.accept().await else {
                continue;
            };
            let service = service.clone();
            tokio::spawn(async move {
                let io = hyper_util::rt::TokioIo::new(stream);
                let svc = hyper_util::service::TowerToHyperService::new(service);
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, svc)
                    .await;
            });
        }
    });
    rt.shutdown_background();
    served
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
