//! The arguments several commands share: how a library is audited, how MCP servers are
//! talked to, where reports go, and when a run fails.

use clap::{ValueEnum, ValueHint};
use std::path::PathBuf;

use crate::config::NameCharset;
use crate::diagnostic::Severity;
use crate::report::Format;

/// How a library is audited: the environments, the settings and what the walk takes. Shared
/// by the audit, `explain` (the library around one file) and `to-prompt`.
#[derive(Debug, Default, clap::Args)]
pub struct LibraryArgs {
    /// Environment profile: a JSON file, `builtin:NAME`, or a live MCP server as
    /// `mcp:NAME=COMMAND ARGS...` (split on whitespace, no shell) or `mcp:NAME=URL`; repeat for
    /// more matrix columns, in order.
    #[arg(short, long = "profile", value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub profiles: Vec<String>,
    /// Settings file [default: the nearest skill-audit.toml in the first PATH or a folder above
    /// it up to the repository root, else in the current folder].
    #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub config: Option<PathBuf>,
    /// Skip paths matching GLOB (repeatable); a pattern without `/` matches at any depth.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Also audit files that `.gitignore`, `.ignore` and git's exclude files hide (without it,
    /// they are counted in the summary).
    #[arg(long)]
    pub no_ignore: bool,
    /// Read files whose real path leaves the audited tree (symlinks, manifest paths). Unsafe for
    /// trees you do not trust: their links could put any file of this machine in the report.
    #[arg(long)]
    pub follow_outside: bool,
    /// Characters allowed in skill names [default: ascii].
    #[arg(long, value_enum)]
    pub name_charset: Option<NameCharset>,
    /// Worker threads (0 = one per core); at most four per core are started, as more would
    /// only wait for each other.
    #[arg(short = 'j', long, default_value_t = 0, value_parser = thread_count)]
    pub threads: usize,
    /// How agents that load skills are judged: `today` (the agent must list what its skills
    /// need, as hosts do) or `proposal` (a skill's `tools` and `mcp-servers` union with the
    /// agent's, as the proposal for SKILL.md capability fields would have it).
    #[arg(long, value_enum, default_value_t = crate::evaluate::Semantics::Today)]
    pub semantics: crate::evaluate::Semantics,
}

/// Auditing the skills an MCP server serves, and talking to MCP servers.
#[derive(Debug, Default, clap::Args)]
pub struct McpArgs {
    /// Audit the skills served by the MCP server started by the command after `--`, and add
    /// the server's tools as a profile column (`mcp:<server-name>`).
    #[arg(long, requires = "server_command", conflicts_with = "mcp_url")]
    pub mcp: bool,
    /// Audit the skills served by the streamable HTTP MCP server at URL, as --mcp does.
    #[arg(long, value_name = "URL", value_hint = ValueHint::Url)]
    pub mcp_url: Option<String>,
    /// HTTP header for --mcp-url and `mcp:NAME=URL` profiles, as `Name: value` (repeatable);
    /// `$VAR` and `${VAR}` in the value are read from the environment.
    #[arg(long = "header", value_name = "HEADER")]
    pub headers: Vec<String>,
    /// Seconds to wait for an MCP server to connect and to answer each request.
    #[arg(long, value_name = "SECS", default_value_t = crate::mcp::DEFAULT_TIMEOUT_SECS)]
    pub timeout: u64,
    /// The MCP server's command and arguments for --mcp, after `--` (run directly, no shell).
    #[arg(last = true, value_name = "SERVER", requires = "mcp")]
    pub server_command: Vec<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

impl FailOn {
    pub(crate) fn fails(self, worst: Option<Severity>) -> bool {
        let Some(worst) = worst else { return false };
        match self {
            FailOn::Never => false,
            FailOn::Info => true,
            FailOn::Warning => worst >= Severity::Warning,
            FailOn::Error => worst >= Severity::Error,
        }
    }
}

/// Where reports go and in which formats.
#[derive(Debug, Clone, clap::Args)]
pub struct OutputArgs {
    /// Output format (`full` is `text`); with `-o`, the default follows each file's extension
    /// [default: `output-format` in skill-audit.toml, else text].
    #[arg(short, long, visible_alias = "output-format", value_enum)]
    pub format: Option<Format>,
    /// Write the report to FILE instead of standard output (`-` is standard output); repeat
    /// to write several formats from one scan (`.html`, `.json`, `.md`, `.sarif`, `.txt`).
    #[arg(short, long = "output", value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub outputs: Vec<PathBuf>,
    /// The settings file's `output-format`, for standard output when `--format` is not given.
    #[arg(skip)]
    pub stdout_default: Option<Format>,
}

impl OutputArgs {
    /// The format of what goes to standard output.
    pub(crate) fn stdout_format(&self) -> Format {
        self.format.or(self.stdout_default).unwrap_or(Format::Text)
    }
}

/// Any text, taken as it is and checked by the command once it can say what is wrong (a rule
/// selector once the settings file is read, a built-in profile's name by `profiles`); `.0`
/// gives the values shell completion offers.
#[derive(Clone, Copy)]
pub(crate) struct Offered(pub fn() -> Vec<clap::builder::PossibleValue>);

impl clap::builder::TypedValueParser for Offered {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(
        &self,
    ) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new((self.0)().into_iter()))
    }
}

/// What `--select`, `--ignore` and `--extend-select` offer: `ALL`, and each rule's ID and name.
pub(crate) fn rule_selectors() -> Vec<clap::builder::PossibleValue> {
    let rules = crate::rules::Rule::ALL.iter().flat_map(|r| {
        [
            clap::builder::PossibleValue::new(r.code()).help(r.summary()),
            clap::builder::PossibleValue::new(r.name()).help(r.summary()),
        ]
    });
    std::iter::once(clap::builder::PossibleValue::new("ALL"))
        .chain(rules)
        .collect()
}

/// What `skill-audit profiles` offers: the built-in profiles' names.
pub(crate) fn builtin_names() -> Vec<clap::builder::PossibleValue> {
    crate::profile::builtin::BUILTINS
        .iter()
        .map(|(name, _)| clap::builder::PossibleValue::new(*name))
        .collect()
}

/// `-j`: a number of threads, of which at most four per core are started. Hundreds of threads
/// spend the run waking each other: `-j 1000` took seconds on a library of fifteen files.
fn thread_count(value: &str) -> Result<usize, String> {
    let n: usize = value.parse().map_err(|e| format!("{e}"))?;
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    Ok(n.min(cores * 4))
}
