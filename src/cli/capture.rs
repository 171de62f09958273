//! `skill-audit capture`: read a live MCP server's tools, resources and prompts and write them
//! as a profile; with `--machine`, write this machine as one.

use clap::ValueHint;
use std::path::PathBuf;

use super::{AuditArgs, LibraryArgs, Outcome, write_stdout};
use crate::mcp::{self, Server};

#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill-audit capture --name prod -o prod.json -- npx -y @modelcontextprotocol/server-everything\n  skill-audit capture --url https://mcp.example.com/mcp --header 'Authorization: Bearer $TOKEN' -o alice.json\n  skill-audit capture --machine skills/ --name laptop -o laptop.json"
)]
pub struct CaptureArgs {
    /// The profile's name (its matrix column) [default: the server's name, or `machine`].
    #[arg(long)]
    pub name: Option<String>,
    /// Capture this machine instead of an MCP server: its OS, which of the executables and
    /// environment variables the skills under PATH ask for it has (names only, never values),
    /// and its Python packages (from `python3`) [PATH default: `.`].
    #[arg(
        long,
        value_name = "PATH",
        num_args = 0..,
        value_hint = ValueHint::AnyPath,
        conflicts_with_all = ["server", "url", "headers", "command"]
    )]
    pub machine: Option<Vec<PathBuf>>,
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
    #[arg(long = "header", value_name = "HEADER", requires = "url")]
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
    // A blank name would be replaced by the server's without a word.
    if args.name.as_ref().is_some_and(|n| n.trim().is_empty()) {
        return Err("--name is empty; give the profile a name, or leave --name out".into());
    }
    // A blank server would write the lists as no server's without a word.
    if args.server.as_ref().is_some_and(|n| n.trim().is_empty()) {
        return Err(
            "--server is empty; give the server's name, or leave --server out to capture the \
             lists as the profile's own"
                .into(),
        );
    }
    if let Some(name) = &args.server
        && let Some(why) = mcp::capture::unfit_server_name(name)
    {
        return Err(format!(
            "--server {} is not a server name a profile can hold: {why}",
            crate::diagnostic::quote(name)
        ));
    }
    if let Some(paths) = &args.machine {
        let text = machine(paths.clone(), args.name.as_deref(), args.verbose)?;
        return write(&args, &text);
    }
    let server = match (&args.url, args.command.is_empty()) {
        (Some(url), true) => Server::http(url, &args.headers)?,
        (None, false) => Server::stdio(&args.command)?,
        (None, true) => {
            return Err(
                "name the server: `skill-audit capture -- COMMAND [ARGS...]` or `skill-audit capture --url URL` (or capture this machine: `skill-audit capture --machine`)"
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
        args.server.as_deref(),
        std::time::SystemTime::now(),
    );
    write(&args, &text)
}

/// Write a captured profile to `-o FILE`, or to standard output.
fn write(args: &CaptureArgs, text: &str) -> Result<Outcome, String> {
    match &args.output {
        Some(path) => {
            std::fs::write(path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            if args.verbose {
                say!("skill-audit: wrote {}", path.display());
            }
        }
        None => write_stdout(text.as_bytes())?,
    }
    Ok(Outcome::Clean)
}

/// `--machine PATHS`: audit the skills under `paths` for the executables and variables they
/// ask for, and write which of them this machine has.
fn machine(paths: Vec<PathBuf>, name: Option<&str>, verbose: bool) -> Result<String, String> {
    use crate::machine::{self, Found};
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    // The audit's discovery and parse, settings file included; no environment is judged, so
    // the settings file's profiles are not loaded.
    let audit_args = AuditArgs::quiet(paths, LibraryArgs::default());
    let mut opts = super::audit::options(&audit_args, cwd)?.opts;
    opts.profiles.clear();
    opts.snippets = false;
    opts.fingerprints = false;
    let result = crate::audit::run(&opts).map_err(|e| e.to_string())?;
    let asked = machine::asked(result.skills.iter().map(|s| s.skill.as_ref()));
    let path = std::env::var_os("PATH");
    let pathext = std::env::var("PATHEXT").ok();
    let os = machine::this_os();
    if os.is_none() {
        say!(
            "skill-audit: note: `os` not recorded: `{}` is none of darwin, linux, win32",
            std::env::consts::OS
        );
    }
    let packages = match machine::find_python(path.as_deref(), pathext.as_deref(), &opts.roots) {
        None => Err("no python3 on PATH".to_owned()),
        Some(python) => machine::python_packages(&python, machine::PYTHON_TIMEOUT),
    };
    let packages = packages
        .inspect_err(|why| {
            say!("skill-audit: note: `packages` not recorded (not described): {why}")
        })
        .ok();
    let found = Found {
        os,
        bins: machine::bins_on_path(&asked.bins, path.as_deref(), pathext.as_deref()),
        env: machine::env_set(&asked.env, machine::is_set),
        packages,
    };
    if verbose {
        use crate::words::Count;
        say!(
            "skill-audit: {}: {} asked for ({} found), {} ({} set)",
            Count(result.skills.len(), "skill"),
            Count(asked.bins.len(), "executable"),
            found.bins.len(),
            Count(asked.env.len(), "variable"),
            found.env.len()
        );
    }
    Ok(machine::profile_json(
        &found,
        name,
        std::time::SystemTime::now(),
    ))
}

/// `--timeout SECS` as a duration: at least one second.
pub(super) fn timeout(secs: u64) -> Result<std::time::Duration, String> {
    if secs == 0 {
        return Err("--timeout must be at least 1 second".into());
    }
    Ok(std::time::Duration::from_secs(secs))
}
