//! `mcp [PATH...]`: serve a library over MCP, for agents and hosts to ask which of its skills
//! they can use with the tools they have (docs/mcp.md, "The skill-audit MCP server").

use clap::ValueHint;
use std::path::PathBuf;

use super::{AuditArgs, LibraryArgs, Outcome};
use crate::mcp::server::ServeSkills;

#[derive(Debug, clap::Args)]
// The server contacts no other MCP server: its `-p` takes files and built-in profiles only.
#[command(mut_arg("profiles", |a| a.help(
    "Environment profile: a JSON file or `builtin:NAME` (a live `mcp:` server is refused \
     here); repeat for more; a tool call that names no environment is judged against the first"
)))]
pub struct McpServerArgs {
    /// Folders (or files) of the library to serve [default: `.`].
    #[arg(value_name = "PATH", value_hint = ValueHint::AnyPath)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub library: LibraryArgs,
    /// Also serve the library's skills over MCP (SEP-2640 `skills/list`, `skills/get`,
    /// `resources/read`): those available in the first profile.
    #[arg(long)]
    pub serve_skills: bool,
    /// With --serve-skills, serve every skill, each with its availability and reason in its
    /// `_meta`.
    #[arg(long, requires = "serve_skills")]
    pub mark_unavailable: bool,
    /// Serve streamable HTTP at `http://ADDR/mcp` instead of standard input and output: `PORT`
    /// (on 127.0.0.1), `localhost:PORT`, or `IP:PORT` (another address than loopback lets
    /// other machines in).
    #[arg(long, value_name = "ADDR")]
    pub http: Option<String>,
}

pub(crate) fn run(args: McpServerArgs) -> Result<Outcome, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let threads = args.library.threads;
    let http = args.http;
    let serve = match (args.serve_skills, args.mark_unavailable) {
        (false, _) => ServeSkills::No,
        (true, false) => ServeSkills::Available,
        (true, true) => ServeSkills::MarkUnavailable,
    };
    // The same options an audit of these paths would use, settings file included.
    let audit_args = AuditArgs::quiet(args.paths, args.library);
    let mut opts = super::audit::options(&audit_args, cwd)?.opts;
    // No finding is shown with its source line.
    opts.snippets = false;
    opts.fingerprints = false;
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global();
    match http {
        Some(addr) => {
            let addr = crate::mcp::server::http_address(&addr)?;
            crate::mcp::server::serve_http(opts, serve, addr)?;
        }
        None => crate::mcp::server::serve_stdio(opts, serve)?,
    }
    Ok(Outcome::Clean)
}
