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
//!
//! By job: `conn` (starting or reaching a server, requests and their bounds, reading its
//! answers), `session` (what one session lists), `resources` (reading served skills' files),
//! `skills` (auditing served skills), `capture` (writing a listing as a profile), `stdio` and
//! `headers` (the transports' details).

pub(crate) mod capture;
mod conn;
mod headers;
mod resources;
pub mod server;
mod server_skills;
mod server_tools;
mod session;
pub(crate) mod skills;
mod stdio;

use std::time::Duration;

use crate::report::text::visible;
pub(crate) use headers::split as split_header;
use session::run;
/// The id of a message cut short, to answer it with: the language server reads it as this one.
pub(crate) use stdio::id_in as jsonrpc_id_in;

/// JSON-RPC's "method not found".
const METHOD_NOT_FOUND: i32 = -32601;

/// Seconds to wait for a connection and for each answer, unless `--timeout` says otherwise.
pub(crate) const DEFAULT_TIMEOUT_SECS: u64 = 30;
/// Most tools (or resources, prompts, skills) read from one list.
pub(crate) const MAX_ITEMS: usize = 100_000;
/// Most pages read from one list.
pub(crate) const MAX_PAGES: usize = 1_000;
/// Largest resource (a served skill's file) read.
pub(crate) const MAX_RESOURCE_BYTES: usize = 10 << 20;
/// Most files read for one served skill besides its SKILL.md.
pub(crate) const MAX_FILES_PER_SKILL: usize = 1_000;
/// Most bytes of resources read in one session (checked before each read, so one resource
/// may take it past).
pub(crate) const MAX_SESSION_BYTES: u64 = 256 << 20;

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
    pub(crate) fn stdio(argv: &[String]) -> Result<Server, String> {
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
    pub(crate) fn http(url: &str, headers: &[String]) -> Result<Server, String> {
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
    pub(crate) fn label(&self) -> String {
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

/// Something went wrong with a server: exit code 2. The message holds text from the server
/// (its error answers, HTTP bodies, names): control characters are shown escaped, so that it
/// cannot drive the terminal.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("MCP server `{}`: {request}: {}", visible(.server), visible(.message))]
pub struct Error {
    /// The server's command line or URL.
    pub server: String,
    /// What was being done: `start`, `initialize`, `tools/list`, ...
    pub request: String,
    pub message: String,
}

/// Why `--profile mcp:...` gave no profile: the profile was named wrongly, or the server failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum LiveError {
    #[error("{0}")]
    Usage(String),
    #[error(transparent)]
    Server(#[from] Error),
}

/// What one session with a server found.
#[derive(Debug, Clone, Default)]
pub(crate) struct Listing {
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
    pub(crate) fn column_name(&self) -> String {
        let name = if self.server_name.trim().is_empty() {
            self.label.as_str()
        } else {
            self.server_name.as_str()
        };
        format!("mcp:{name}")
    }

    /// This session's tools, resources and prompts as a profile named `name`: the names
    /// are matched literally, never as globs.
    /// Always `Ok`: no literal name can fail to compile.
    pub(crate) fn profile(&self, name: &str) -> Result<crate::profile::Profile, String> {
        fn refs(v: &[String]) -> Vec<&str> {
            v.iter().map(String::as_str).collect()
        }
        Ok(crate::profile::Profile::from_literal_names(
            name,
            &format!("mcp:{}", self.label),
            &refs(&self.tools),
            &refs(&self.resources),
            &refs(&self.prompts),
        ))
    }
}

/// `--profile mcp:NAME=COMMAND ARGS...` (or `mcp:NAME=URL`, sent `headers`): the profile
/// named NAME that a live session with the server offers.
pub(crate) fn live_profile(
    name: &str,
    argv: &[String],
    headers: &[String],
    settings: &Settings,
) -> Result<crate::profile::Profile, LiveError> {
    if name.is_empty() || argv.is_empty() {
        return Err(LiveError::Usage(format!(
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
        .map_err(LiveError::Usage)?;
    let listing = session(&server, settings, false)?;
    listing.profile(name).map_err(LiveError::Usage)
}

/// Open a session with `server`, list its tools, resources and prompts (and its skills, with
/// their content, when `want_skills`), and close it.
pub(crate) fn session(
    server: &Server,
    settings: &Settings,
    want_skills: bool,
) -> Result<Listing, Error> {
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
}
