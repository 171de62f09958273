//! `skill-audit capture`: read a live MCP server's tools, resources and prompts and write them
//! as a profile.

use clap::ValueHint;
use std::path::PathBuf;

use super::{Outcome, write_stdout};
use crate::mcp::{self, Server};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill-audit capture --name prod -o prod.json -- npx -y @modelcontextprotocol/server-everything\n  skill-audit capture --url https://mcp.example.com/mcp --header 'Authorization: Bearer $TOKEN' -o alice.json"
)]
pub struct CaptureArgs {
    /// The profile's name (its matrix column) [default: the server's name].
    #[arg(long)]
    pub name: Option<String>,
    /// Write the lists as those of the MCP server NAME (`servers.NAME`), so that `NAME/tool`,
    /// `mcp__NAME__tool` and `NAME:tool` meet them [default: bare tool names].
    #[arg(long, value_name = "NAME")]
    pub server: Option<String>,
    /// Write the profile to FILE instead of standard output.
    #[arg(short, long = "output", value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub output: Option<PathBuf>,
    /// Capture the streamable HTTP server at URL instead of starting a command.
    #[arg(long, value_name = "URL", value_hint = ValueHint::Url)]
    pub url: Option<String>,
    /// HTTP header to send with --url, as `Name: value` (repeatable). `$VAR` and `${VAR}` in
    /// the value are read from the environment, so secrets stay out of history and files.
    #[arg(long = "header", value_name = "'NAME: VALUE'", requires = "url")]
    pub headers: Vec<String>,
    /// Seconds to wait for the server to connect and to answer each request.
    #[arg(long, value_name = "SECS", default_value_t = mcp::DEFAULT_TIMEOUT_SECS)]
    pub timeout: u64,
    /// Pass the server's standard error through, and say what is being done.
    #[arg(short, long)]
    pub verbose: bool,
    /// The server's command and arguments, after `--` (run directly, no shell).
    #[arg(last = true, value_name = "COMMAND", conflicts_with = "url")]
    pub command: Vec<String>,
}

pub(crate) fn run(args: CaptureArgs) -> Result<Outcome, String> {
    let server = match (&args.url, args.command.is_empty()) {
        (Some(url), true) => Server::http(url, &args.headers)?,
        (None, false) => Server::stdio(&args.command)?,
        (None, true) => {
            return Err(
                "name the server: `skill-audit capture -- COMMAND [ARGS...]` or `skill-audit capture --url URL`"
                    .into(),
            );
        }
        (Some(_), false) => {
            return Err("give either --url or a command after `--`, not both".into());
        }
    };
    let settings = mcp::Settings {
        timeout: timeout(args.timeout)?,
        verbose: args.verbose,
    };
    let listing = mcp::session(&server, &settings, false).map_err(|e| e.to_string())?;
    let text = mcp::capture::profile_json(
        &listing,
        args.name.as_deref(),
        args.server.as_deref().filter(|s| !s.trim().is_empty()),
        std::time::SystemTime::now(),
    );
    match &args.output {
        Some(path) => {
            std::fs::write(path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            if args.verbose {
                eprintln!("skill-audit: wrote {}", path.display());
            }
        }
        None => write_stdout(text.as_bytes())?,
    }
    Ok(Outcome::Clean)
}

/// `--timeout SECS` as a duration: at least one second.
pub(super) fn timeout(secs: u64) -> Result<std::time::Duration, String> {
    if secs == 0 {
        return Err("--timeout must be at least 1 second".into());
    }
    Ok(std::time::Duration::from_secs(secs))
}
