//! MCP servers named on the command line: capture what one offers as a profile
//! (`skill-audit capture`), use one as a live profile (`--profile mcp:NAME=COMMAND ARGS...`),
//! and audit the skills one serves (`--mcp`, `--mcp-url`, SEP-2640 skills over MCP).
//!
//! Only servers named on the command line are started or contacted; nothing in a scanned tree
//! is ever run. A session is bounded in time (a timeout on connecting and on every request) and
//! in size (items per list, pages per list, bytes per resource, files per served skill, bytes
//! per session), and everything that goes wrong with a server (it cannot start, exits, hangs,
//! prints garbage, answers with the wrong shape) is an [`Error`] naming the server and the
//! request, which the command line turns into exit code 2. The requests use the official Rust
//! SDK, `rmcp`; the answers are read as JSON here, so that a wrong shape gets a message saying
//! which field is wrong.

pub mod capture;
mod headers;
pub mod skills;
mod stdio;

use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::model::{
    ClientCapabilities, ClientConfig, ClientRequest, CustomRequest, Implementation, ServerResult,
};
use rmcp::service::{RoleClient, RunningService, ServiceError, ServiceExt};

use crate::words::Count;

pub use headers::{expand as expand_header, split as split_header};

/// JSON-RPC's "method not found".
const METHOD_NOT_FOUND: i32 = -32601;

/// Seconds to wait for a connection and for each answer, unless `--timeout` says otherwise.
pub const DEFAULT_TIMEOUT_SECS: u64 = 30;
/// Most tools (or resources, prompts, skills) read from one list.
pub const MAX_ITEMS: usize = 100_000;
/// Most pages read from one list.
pub const MAX_PAGES: usize = 1_000;
/// Largest resource (a served skill's file) read.
pub const MAX_RESOURCE_BYTES: usize = 10 << 20;
/// Most files read for one served skill besides its SKILL.md.
pub const MAX_FILES_PER_SKILL: usize = 1_000;
/// Most bytes of resources read in one session (checked before each read, so one resource
/// may take it past).
pub const MAX_SESSION_BYTES: u64 = 256 << 20;

/// The extension a server advertises when it serves skills (SEP-2640).
pub const SKILLS_EXTENSION: &str = "io.modelcontextprotocol/skills";

/// A server named on the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Server {
    /// A command started with its arguments (no shell), speaking MCP on stdin/stdout.
    Stdio { command: String, args: Vec<String> },
    /// A streamable HTTP endpoint, with `Name: value` headers whose values may name
    /// environment variables (expanded when connecting).
    Http {
        url: String,
        headers: Vec<(String, String)>,
    },
}

impl Server {
    /// A stdio server from its command line (the command and its arguments).
    pub fn stdio(argv: &[String]) -> Result<Server, String> {
        let Some((command, args)) = argv.split_first() else {
            return Err("no server command given; put it after `--`".into());
        };
        if command.trim().is_empty() {
            return Err("the server command is empty".into());
        }
        Ok(Server::Stdio {
            command: command.clone(),
            args: args.to_vec(),
        })
    }

    /// An HTTP server from its URL and `--header` values (`Name: value`).
    pub fn http(url: &str, headers: &[String]) -> Result<Server, String> {
        let lower = url.to_ascii_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://")) {
            return Err(format!("`{url}` is not an http:// or https:// URL"));
        }
        let headers = headers
            .iter()
            .map(|h| split_header(h))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Server::Http {
            url: url.to_owned(),
            headers,
        })
    }

    /// How the server is named in messages and reports: its command line, or its URL without
    /// query or credentials (which may hold secrets); never header values.
    pub fn label(&self) -> String {
        match self {
            Server::Stdio { command, args } => {
                let mut parts = vec![command.as_str()];
                parts.extend(args.iter().map(String::as_str));
                parts.join(" ")
            }
            Server::Http { url, .. } => {
                let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
                let rest = rest.split(['?', '#']).next().unwrap_or(rest);
                let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
                let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
                format!("{scheme}://{host}{path}")
            }
        }
    }
}

/// How to talk to servers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Limit on connecting and on each request.
    pub timeout: Duration,
    /// Pass the server's standard error through (otherwise it is discarded).
    pub verbose: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            timeout: Duration::from_secs(DEFAULT_TIMEOUT_SECS),
            verbose: false,
        }
    }
}

/// Something went wrong with a server: exit code 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("MCP server `{server}`: {request}: {message}")]
pub struct Error {
    /// The server's command line or URL.
    pub server: String,
    /// What was being done: `start`, `initialize`, `tools/list`, ...
    pub request: String,
    pub message: String,
}

/// What one session with a server found.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// The server's command line or URL.
    pub label: String,
    /// `serverInfo.name` (empty when the server did not say).
    pub server_name: String,
    /// `serverInfo.version`.
    pub server_version: String,
    /// The protocol version the session uses.
    pub protocol_version: String,
    /// Tool names, sorted and without duplicates.
    pub tools: Vec<String>,
    /// Resource URIs, sorted and without duplicates.
    pub resources: Vec<String>,
    /// Resource URI templates (`resources/templates/list`), sorted and without duplicates.
    pub resource_templates: Vec<String>,
    /// Prompt names, sorted and without duplicates.
    pub prompts: Vec<String>,
    /// The skills the server serves (only when asked for), in URI order.
    pub skills: Vec<skills::ServedSkill>,
    /// Whether the skills came from `skills/list` (else from `resources/list`).
    pub skills_extension: bool,
}

impl Listing {
    /// The name for this server's matrix column: `mcp:<server-name>`.
    pub fn column_name(&self) -> String {
        let name = if self.server_name.trim().is_empty() {
            self.label.as_str()
        } else {
            self.server_name.as_str()
        };
        format!("mcp:{name}")
    }

    /// This session's tools, resources and prompts as a profile named `name`.
    pub fn profile(&self, name: &str) -> Result<crate::profile::Profile, String> {
        fn refs(v: &[String]) -> Vec<&str> {
            v.iter().map(String::as_str).collect()
        }
        crate::profile::Profile::from_names(
            name,
            &format!("mcp:{}", self.label),
            &refs(&self.tools),
            &refs(&self.resources),
            &refs(&self.prompts),
        )
    }
}

/// `--profile mcp:NAME=COMMAND ARGS...` (or `mcp:NAME=URL`, sent `headers`): the profile
/// named NAME that a live session with the server offers.
pub fn live_profile(
    name: &str,
    argv: &[String],
    headers: &[String],
    settings: &Settings,
) -> Result<crate::profile::Profile, crate::audit::AuditError> {
    use crate::audit::AuditError;
    if name.is_empty() || argv.is_empty() {
        return Err(AuditError::Usage(format!(
            "`--profile mcp:{name}` needs a name and a server: `mcp:NAME=COMMAND ARGS...` or `mcp:NAME=URL`"
        )));
    }
    let lower = argv[0].to_ascii_lowercase();
    let server =
        if argv.len() == 1 && (lower.starts_with("http://") || lower.starts_with("https://")) {
            Server::http(&argv[0], headers)
        } else {
            Server::stdio(argv)
        }
        .map_err(AuditError::Usage)?;
    let listing = session(&server, settings, false)?;
    listing.profile(name).map_err(AuditError::Usage)
}

/// Open a session with `server`, list its tools, resources and prompts (and its skills, with
/// their content, when `want_skills`), and close it.
pub fn session(server: &Server, settings: &Settings, want_skills: bool) -> Result<Listing, Error> {
    let label = server.label();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Error {
            server: label.clone(),
            request: "start".into(),
            message: format!("cannot start the async runtime: {e}"),
        })?;
    let result = rt.block_on(run(server, &label, settings, want_skills));
    // Blocking work (a DNS lookup) must not keep the process alive past the run.
    rt.shutdown_timeout(Duration::from_secs(1));
    result
}

/// The live connection and what is needed to explain a failure.
struct Conn {
    label: String,
    timeout: Duration,
    client: Option<RunningService<RoleClient, ClientConfig>>,
    child: Option<tokio::process::Child>,
    /// The stdio server's process group (Unix), stopped as a whole when the session ends.
    group: Option<u32>,
    fault: Arc<Mutex<Option<String>>>,
}

impl Conn {
    fn error(&self, request: &str, message: impl Into<String>) -> Error {
        Error {
            server: self.label.clone(),
            request: request.to_owned(),
            message: message.into(),
        }
    }

    /// Why the connection ended, when the server's side explains it: garbage on standard
    /// output, or the process exiting.
    fn why_closed(&mut self) -> Option<String> {
        if let Some(f) = self.fault.lock().ok().and_then(|f| f.clone()) {
            return Some(f);
        }
        let child = self.child.as_mut()?;
        match child.try_wait() {
            Ok(Some(status)) => Some(match status.code() {
                Some(code) => format!("the server exited with status {code}"),
                None => format!("the server was stopped ({status})"),
            }),
            _ => None,
        }
    }

    /// Turn a failed request into an error message.
    async fn describe(&mut self, e: ServiceError) -> String {
        match e {
            ServiceError::McpError(data) => answered(data.code.0, &data.message),
            ServiceError::TransportClosed | ServiceError::TransportSend(_) => {
                // The process may need a moment to be seen as exited.
                for _ in 0..20 {
                    if let Some(why) = self.why_closed() {
                        return why;
                    }
                    if self.child.is_none() {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(25)).await;
                }
                match e {
                    ServiceError::TransportSend(t) => {
                        format!("the request could not be sent: {}", tidy(&t))
                    }
                    _ => "the connection closed before the answer came".into(),
                }
            }
            other => clip(&other.to_string()),
        }
    }

    /// Send `method` with `params`: the result as JSON, or the server's error answer (its code
    /// and message). Anything else that goes wrong ends the session.
    async fn call(&mut self, method: &str, params: Value) -> Result<Result<Value, Answer>, Error> {
        let Some(client) = self.client.as_ref() else {
            return Err(self.error(method, "not connected"));
        };
        let req = ClientRequest::CustomRequest(CustomRequest::new(method, Some(params)));
        let answer = tokio::time::timeout(self.timeout, client.send_request(req)).await;
        match answer {
            Err(_) => {
                let why = self.why_closed();
                Err(self.error(
                    method,
                    why.unwrap_or_else(|| format!("no answer within {}", secs(self.timeout))),
                ))
            }
            Ok(Err(ServiceError::McpError(data))) => Ok(Err(Answer {
                code: data.code.0,
                message: data.message.to_string(),
            })),
            Ok(Err(e)) => {
                let m = self.describe(e).await;
                Err(self.error(method, m))
            }
            Ok(Ok(result)) => Ok(Ok(result_json(&result))),
        }
    }

    /// Every page of a list (`tools/list`, ...): the items under `key`.
    async fn list(&mut self, method: &str, key: &str) -> Result<Vec<Value>, Error> {
        match self.list_if_offered(method, key).await? {
            Some(items) => Ok(items),
            None => Err(self.error(
                method,
                answered(METHOD_NOT_FOUND, "the server does not offer it"),
            )),
        }
    }

    /// Every page of a list, or `None` when the server answers the first page with "method not
    /// found": for lists a server may leave out although it has the capability.
    async fn list_if_offered(
        &mut self,
        method: &str,
        key: &str,
    ) -> Result<Option<Vec<Value>>, Error> {
        let mut items = Vec::new();
        let mut cursor: Option<String> = None;
        let mut seen = std::collections::HashSet::new();
        for page in 1..=MAX_PAGES {
            let params = match &cursor {
                Some(c) => json!({ "cursor": c }),
                None => json!({}),
            };
            let mut result = match self.call(method, params).await? {
                Ok(result) => result,
                Err(a) if page == 1 && a.code == METHOD_NOT_FOUND => return Ok(None),
                Err(a) => return Err(self.error(method, answered(a.code, &a.message))),
            };
            let Some(obj) = result.as_object_mut() else {
                return Err(self.error(
                    method,
                    format!(
                        "page {page}: the result is {}, not an object",
                        kind(&result)
                    ),
                ));
            };
            match obj.remove(key) {
                Some(Value::Array(list)) => {
                    if items.len() + list.len() > MAX_ITEMS {
                        return Err(self.error(
                            method,
                            format!("the server lists more than {} {key}; skill-audit reads at most that many", thousands(MAX_ITEMS)),
                        ));
                    }
                    items.extend(list);
                }
                Some(other) => {
                    return Err(self.error(
                        method,
                        format!("page {page}: `{key}` is {}, not a list", kind(&other)),
                    ));
                }
                None => {
                    return Err(
                        self.error(method, format!("page {page}: the result has no `{key}`"))
                    );
                }
            }
            cursor = match obj.remove("nextCursor") {
                None | Some(Value::Null) => return Ok(Some(items)),
                Some(Value::String(c)) => {
                    if !seen.insert(c.clone()) {
                        return Err(self.error(
                            method,
                            format!("page {page}: the server sent cursor `{}` a second time; the list never ends", clip(&c)),
                        ));
                    }
                    Some(c)
                }
                Some(other) => {
                    return Err(self.error(
                        method,
                        format!(
                            "page {page}: `nextCursor` is {}, not a string",
                            kind(&other)
                        ),
                    ));
                }
            };
        }
        Err(self.error(
            method,
            format!(
                "the list goes on past {} pages; skill-audit reads at most that many",
                thousands(MAX_PAGES)
            ),
        ))
    }

    /// Names (or URIs) of the items of a list: each item must be an object with a string `field`.
    async fn names(&mut self, method: &str, key: &str, field: &str) -> Result<Vec<String>, Error> {
        let items = self.list(method, key).await?;
        self.names_of(method, key, field, &items)
    }

    /// The string `field` of each item, sorted and without duplicates.
    fn names_of(
        &self,
        method: &str,
        key: &str,
        field: &str,
        items: &[Value],
    ) -> Result<Vec<String>, Error> {
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            match item.get(field) {
                Some(Value::String(s)) if !s.is_empty() => out.push(s.clone()),
                Some(other) => {
                    return Err(self.error(
                        method,
                        format!(
                            "item {} of `{key}`: `{field}` is {}, not a non-empty string",
                            i + 1,
                            kind(other)
                        ),
                    ));
                }
                None => {
                    return Err(self.error(
                        method,
                        format!("item {} of `{key}` has no `{field}`", i + 1),
                    ));
                }
            }
        }
        out.sort();
        out.dedup();
        Ok(out)
    }

    async fn close(&mut self) {
        if let Some(client) = self.client.take() {
            let _ = tokio::time::timeout(Duration::from_secs(2), client.cancel()).await;
        }
        if let Some(mut child) = self.child.take() {
            // Closing stdin asks a stdio server to exit; give it a moment, then stop it.
            let exited = tokio::time::timeout(Duration::from_millis(500), child.wait())
                .await
                .is_ok();
            if exited {
                // A wrapper (`npx`, `sh -c`) may exit and leave what it started running.
                if let Some(group) = self.group {
                    stdio::stop_group(group, Duration::from_millis(500)).await;
                }
            } else {
                if let Some(group) = self.group {
                    stdio::stop_group(group, Duration::ZERO).await;
                }
                let _ = child.start_kill();
                let _ = tokio::time::timeout(Duration::from_secs(1), child.wait()).await;
            }
        }
    }
}

async fn run(
    server: &Server,
    label: &str,
    settings: &Settings,
    want_skills: bool,
) -> Result<Listing, Error> {
    let mut conn = Conn {
        label: label.to_owned(),
        timeout: settings.timeout,
        client: None,
        child: None,
        group: None,
        fault: Arc::new(Mutex::new(None)),
    };
    let result = talk(&mut conn, server, settings, want_skills).await;
    conn.close().await;
    result
}

async fn talk(
    conn: &mut Conn,
    server: &Server,
    settings: &Settings,
    want_skills: bool,
) -> Result<Listing, Error> {
    connect(conn, server, settings).await?;
    let Some(info) = conn.client.as_ref().and_then(|c| c.peer_info()) else {
        return Err(conn.error("initialize", "the server sent no initialize result"));
    };
    let caps = &info.capabilities;
    let (has_tools, has_resources, has_prompts) = (
        caps.tools.is_some(),
        caps.resources.is_some(),
        caps.prompts.is_some(),
    );
    let has_skills = caps.supports_skills();
    let (server_name, server_version) = info
        .server_info
        .as_ref()
        .map(|i| (i.name.clone(), i.version.clone()))
        .unwrap_or_default();
    let mut listing = Listing {
        label: conn.label.clone(),
        server_name,
        server_version,
        protocol_version: info.protocol_version.to_string(),
        ..Listing::default()
    };
    if settings.verbose {
        eprintln!(
            "skill-audit: MCP server `{}`: {} {} (protocol {}); lists: {}",
            conn.label,
            listing.server_name,
            listing.server_version,
            listing.protocol_version,
            [
                (has_tools, "tools"),
                (has_resources, "resources"),
                (has_prompts, "prompts"),
                (has_skills, "skills"),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| *n)
            .collect::<Vec<_>>()
            .join(", ")
        );
    }
    if has_tools {
        listing.tools = conn.names("tools/list", "tools", "name").await?;
    }
    if has_resources {
        listing.resources = conn.names("resources/list", "resources", "uri").await?;
        let (method, key) = ("resources/templates/list", "resourceTemplates");
        match conn.list_if_offered(method, key).await? {
            Some(items) => {
                listing.resource_templates = conn.names_of(method, key, "uriTemplate", &items)?;
            }
            None if settings.verbose => eprintln!(
                "skill-audit: MCP server `{}`: {method}: not offered (method not found)",
                conn.label
            ),
            None => {}
        }
    }
    if has_prompts {
        listing.prompts = conn.names("prompts/list", "prompts", "name").await?;
    }
    if want_skills {
        listing.skills_extension = has_skills;
        listing.skills = if has_skills {
            let entries = conn.list("skills/list", "skills").await?;
            skills::from_entries(entries).map_err(|m| conn.error("skills/list", m))?
        } else {
            skills::from_resources(&listing.resources)
        };
        read_skills(conn, &mut listing.skills).await?;
    }
    if settings.verbose {
        eprintln!(
            "skill-audit: MCP server `{}`: {}, {}, {}, {}{}",
            conn.label,
            Count(listing.tools.len(), "tool"),
            Count(listing.resources.len(), "resource"),
            Count(listing.resource_templates.len(), "resource template"),
            Count(listing.prompts.len(), "prompt"),
            if want_skills {
                let files = listing
                    .skills
                    .iter()
                    .flat_map(|s| s.files.iter().flatten())
                    .filter(|f| matches!(f.read, skills::FileRead::Read { .. }))
                    .count();
                format!(
                    ", {}, {files} of their other files read",
                    Count(listing.skills.len(), "skill")
                )
            } else {
                String::new()
            }
        );
    }
    Ok(listing)
}

/// Start or reach the server and run `initialize`, all within the timeout.
async fn connect(conn: &mut Conn, server: &Server, settings: &Settings) -> Result<(), Error> {
    let info = ClientConfig::new(
        ClientCapabilities::default(),
        Implementation::new("skill-audit", env!("CARGO_PKG_VERSION")),
    );
    let started = match server {
        Server::Stdio { command, args } => {
            let s = stdio::start(command, args, settings.verbose).map_err(|e| {
                conn.error(
                    "start",
                    match e.kind() {
                        std::io::ErrorKind::NotFound => {
                            format!("cannot run `{command}`: no such program")
                        }
                        _ => format!("cannot run `{command}`: {e}"),
                    },
                )
            })?;
            conn.child = Some(s.child);
            conn.group = s.group;
            conn.fault = s.fault;
            tokio::time::timeout(settings.timeout, info.serve((s.read, s.write))).await
        }
        Server::Http { url, headers } => {
            use rmcp::transport::StreamableHttpClientTransport;
            use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
            let headers = http_headers(headers).map_err(|m| conn.error("connect", m))?;
            let config = StreamableHttpClientTransportConfig::with_uri(url.clone())
                .custom_headers(headers)
                .max_json_response_size(stdio::MAX_LINE_BYTES)
                .max_sse_event_size(stdio::MAX_LINE_BYTES);
            let transport = StreamableHttpClientTransport::from_config(config);
            tokio::time::timeout(settings.timeout, info.serve(transport)).await
        }
    };
    match started {
        Err(_) => {
            let why = conn.why_closed();
            Err(conn.error(
                "initialize",
                why.unwrap_or_else(|| format!("no answer within {}", secs(settings.timeout))),
            ))
        }
        Ok(Err(e)) => {
            let mut why = None;
            for _ in 0..20 {
                why = conn.why_closed();
                if why.is_some() || conn.child.is_none() {
                    break;
                }
                tokio::time::sleep(Duration::from_millis(25)).await;
            }
            Err(conn.error("initialize", why.unwrap_or_else(|| tidy(&e))))
        }
        Ok(Ok(client)) => {
            conn.client = Some(client);
            Ok(())
        }
    }
}

/// The `--header` values, expanded, as HTTP headers (marked sensitive, so they are never
/// printed by the HTTP stack).
fn http_headers(
    headers: &[(String, String)],
) -> Result<std::collections::HashMap<http::HeaderName, http::HeaderValue>, String> {
    let mut map = std::collections::HashMap::new();
    for (name, value) in headers::resolve(headers)? {
        let n = http::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| format!("`{name}` is not a valid HTTP header name"))?;
        let mut v = http::HeaderValue::from_str(&value).map_err(|_| {
            format!("the value of header `{name}` has characters HTTP does not allow")
        })?;
        v.set_sensitive(true);
        map.insert(n, v);
    }
    Ok(map)
}

/// Read every skill's SKILL.md, then every other file its listing names whose digest can be
/// verified, within [`MAX_FILES_PER_SKILL`] and [`MAX_SESSION_BYTES`]. A file listed by two
/// skills (a nested skill's files are also its parent's) is read once.
async fn read_skills(conn: &mut Conn, skills: &mut [skills::ServedSkill]) -> Result<(), Error> {
    use skills::FileRead;
    let mut budget = MAX_SESSION_BYTES;
    let over_budget = || {
        format!(
            "skill-audit reads at most {} MiB of resources per session",
            MAX_SESSION_BYTES >> 20
        )
    };
    let mut done: std::collections::HashMap<String, FileRead> = std::collections::HashMap::new();
    for skill in skills.iter_mut() {
        if budget == 0 {
            skill.content = Err(over_budget());
            continue;
        }
        skill.content = read_resource(conn, &skill.uri).await?;
        if let Ok(bytes) = &skill.content {
            budget = budget.saturating_sub(bytes.len() as u64);
            done.insert(skill.uri.clone(), file_read(bytes));
        }
    }
    for skill in skills.iter_mut() {
        let Some(files) = skill.files.as_mut() else {
            continue;
        };
        let mut reads = 0;
        for file in files
            .iter_mut()
            .filter(|f| f.uri != skill.uri && f.verifiable())
        {
            if let Some(known) = done.get(&file.uri) {
                file.read = known.clone();
                continue;
            }
            if reads == MAX_FILES_PER_SKILL {
                file.read = FileRead::Skipped(format!(
                    "skill-audit reads at most {} files per skill",
                    thousands(MAX_FILES_PER_SKILL)
                ));
                continue;
            }
            if budget == 0 {
                file.read = FileRead::Skipped(over_budget());
                continue;
            }
            // A file listed as too large is not fetched only to be refused.
            if let Some(size) = file.size.filter(|s| *s > MAX_RESOURCE_BYTES as u64) {
                let size = usize::try_from(size).unwrap_or(usize::MAX);
                file.read = FileRead::Failed(format!("the listing says {}", too_big(size)));
                continue;
            }
            reads += 1;
            file.read = match read_resource(conn, &file.uri).await? {
                Ok(bytes) => {
                    budget = budget.saturating_sub(bytes.len() as u64);
                    file_read(&bytes)
                }
                Err(why) => FileRead::Failed(why),
            };
            done.insert(file.uri.clone(), file.read.clone());
        }
    }
    Ok(())
}

fn file_read(bytes: &[u8]) -> skills::FileRead {
    skills::FileRead::Read {
        digest: rmcp::model::sha256_digest(bytes),
        size: bytes.len() as u64,
    }
}

/// Read one resource: its bytes, or why the server would not give them. A failed connection is
/// an error; an error answer for this resource only is the resource's problem.
async fn read_resource(conn: &mut Conn, uri: &str) -> Result<Result<Vec<u8>, String>, Error> {
    let method = "resources/read";
    let result = match conn.call(method, json!({ "uri": uri })).await? {
        Ok(r) => r,
        Err(a) => return Ok(Err(answered(a.code, &a.message))),
    };
    let Some(contents) = result.get("contents").and_then(Value::as_array) else {
        return Err(conn.error(method, format!("{uri}: the result has no `contents` list")));
    };
    let entry = contents
        .iter()
        .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
        .or_else(|| contents.first());
    let Some(entry) = entry else {
        return Ok(Err("the server returned no contents for it".into()));
    };
    if let Some(text) = entry.get("text").and_then(Value::as_str) {
        if text.len() > MAX_RESOURCE_BYTES {
            return Ok(Err(too_big(text.len())));
        }
        return Ok(Ok(text.as_bytes().to_vec()));
    }
    if let Some(blob) = entry.get("blob").and_then(Value::as_str) {
        use base64::Engine as _;
        if blob.len() / 4 * 3 > MAX_RESOURCE_BYTES + 3 {
            return Ok(Err(too_big(blob.len() / 4 * 3)));
        }
        return Ok(base64::engine::general_purpose::STANDARD
            .decode(blob.trim())
            .map_err(|e| format!("its `blob` is not valid base64: {e}")));
    }
    Err(conn.error(
        method,
        format!("{uri}: the content has neither `text` nor `blob`"),
    ))
}

fn too_big(len: usize) -> String {
    format!(
        "it is {} bytes; skill-audit reads at most {} MiB per resource",
        thousands(len),
        MAX_RESOURCE_BYTES >> 20
    )
}

/// An error answer from the server.
struct Answer {
    code: i32,
    message: String,
}

/// How an error answer reads in a message.
fn answered(code: i32, message: &str) -> String {
    format!("the server answered with error {code}: {}", clip(message))
}

/// A result as JSON, whatever type `rmcp` read it into.
fn result_json(result: &ServerResult) -> Value {
    serde_json::to_value(result).unwrap_or(Value::Null)
}

/// "a string", "a number", ... for messages about wrong shapes.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

fn secs(d: Duration) -> String {
    format!("{}s", d.as_secs_f64())
}

/// `100000` as `100,000`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// An error and its causes as one line, without the transport's type names.
fn tidy(e: &dyn std::error::Error) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next: Option<&dyn std::error::Error> = Some(e);
    while let Some(err) = next {
        let text = err.to_string();
        // `Transport [rmcp::transport::...<...>] error: X, when send initialize request`
        let text = match text.find("] error: ") {
            Some(i) => text[i + 9..].to_owned(),
            None => text,
        };
        let text = text
            .rsplit_once(", when ")
            .map_or(text.as_str(), |(a, _)| a)
            .to_owned();
        if !parts.iter().any(|p| p.contains(&text)) {
            parts.push(text);
        }
        next = err.source();
    }
    clip(&parts.join(": "))
}

/// At most 300 characters of a message that came from a server.
fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(300).collect();
    if s.chars().count() > 300 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_hide_what_may_be_secret() {
        let s = Server::http("https://user:pw@mcp.example.com/mcp?token=x#f", &[]).unwrap();
        assert_eq!(s.label(), "https://mcp.example.com/mcp");
        let s = Server::http("http://127.0.0.1:8080", &["A: $B".into()]).unwrap();
        assert_eq!(s.label(), "http://127.0.0.1:8080");
        let s = Server::stdio(&["node".into(), "x.js".into()]).unwrap();
        assert_eq!(s.label(), "node x.js");
        assert!(Server::stdio(&[]).is_err());
        assert!(Server::http("ftp://x", &[]).is_err());
    }

    #[test]
    fn numbers_with_separators() {
        assert_eq!(thousands(100_000), "100,000");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(999), "999");
    }
}
