//! Command-line interface: a thin shell over the library. One module per command family:
//! `audit` (the default command), `reports` (`diff`, `merge`), `catalog` (`rules`, `rule`,
//! `profiles`, `schema`), `explain`, `to_prompt` (the skills one environment surfaces, as a
//! host's prompt lists them), `capture` (a live MCP server as a profile), `shell`
//! (`completions`, `man`), `lsp` (the language server), `mcp_server`
//! (`mcp`, an MCP server over the library). Exit codes: 0 when no
//! finding reaches `--fail-on`, 1 when one does, 2 for usage, configuration or I/O errors.

mod args;
mod audit;
mod capture;
mod catalog;
mod explain;
mod lsp;
mod mcp_server;
mod reports;
mod shell;
mod to_prompt;

use clap::{Parser, Subcommand, ValueHint};
use std::io::{self, Write};
use std::path::PathBuf;

use crate::report::{self, Format, Report};

pub(crate) use args::{FailOn, LibraryArgs, McpArgs, OutputArgs};
pub(crate) use audit::AuditArgs;
pub(crate) use capture::CaptureArgs;
pub use catalog::{SchemaKind, rule_doc, rules_markdown, schema_text};
pub use explain::ExplainArgs;
pub use to_prompt::ToPromptArgs;

#[derive(Debug, Parser)]
#[command(
    name = "skill-audit",
    version,
    about = "Audit agent skill libraries against environment tool profiles",
    args_conflicts_with_subcommands = true,
    after_help = "Documentation: docs/usage.md and the other Markdown pages in docs/ of the \
                  skill-audit source\nrepository (`--help` lists them).",
    after_long_help = concat!(
        "Documentation, as Markdown pages in the skill-audit source repository:\n",
        "  docs/usage.md          options, audited files, commands, exit codes\n",
        "  docs/profiles.md       the `dependencies` field, profiles, tool names, statuses\n",
        "  docs/requirements.md   OpenClaw, Codex, Hermes, package lists: every requirement source\n",
        "  docs/agents.md         agents, links between agents and skills, drift\n",
        "  docs/mcp.md            live profiles, skills MCP servers serve, `skill-audit mcp`\n",
        "  docs/reports.md        formats, pull requests, baselines, merge, CI, SARIF\n",
        "  docs/json-report.md    the JSON report and its stable keys\n",
        "  docs/configuration.md  skill-audit.toml and suppressions\n",
        "  docs/policy.md         policy rules of a library's own, in skill-audit.toml\n",
        "  docs/rules.md          every rule\n",
        "  docs/fidelity.md       inputs that made findings wrong, and what is done now\n",
        "  docs/editors.md        the language server (`skill-audit lsp`) in editors\n",
        "  docs/fixes.md          --fix, --diff, --unsafe-fixes: what each fix does\n",
        "  docs/security.md       what is trusted, and untrusted pull requests\n",
        "  docs/install.md        every way to install: binaries, npm, PyPI, the Action\n",
        "  docs/performance.md    timings, memory, and how to reproduce them\n",
        "  docs/scale.md          thousands of repositories: one job each, merged reports\n",
        "  docs/architecture.md   the pipeline, for contributors\n",
        "Without the repository, `skill-audit rules`, `skill-audit rule ID`,\n",
        "`skill-audit schema KIND` and `skill-audit man` print the rules, the schemas and\n",
        "the manual page."
    )
)]
pub struct Cli {
    /// When to colour the output: `auto` (on a terminal, unless `NO_COLOR` is set or `TERM` is
    /// `dumb`), `always` or `never`.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub audit: AuditArgs,
    #[command(flatten)]
    pub mcp: McpArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every rule: ID, default severity, summary; then the policy rules of the settings
    /// file.
    Rules {
        /// Settings file whose `[[policy]]` rules to list too [default: the skill-audit.toml
        /// an audit of the current folder would read].
        #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
        config: Option<PathBuf>,
    },
    /// Print a rule's documentation: what it checks, why, an example.
    Rule {
        /// Rule ID (`SA201`, or a policy rule's `P001`) or name (`name-missing`).
        id: String,
        /// Settings file whose `[[policy]]` rules to look in [default: the skill-audit.toml
        /// an audit of the current folder would read].
        #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
        config: Option<PathBuf>,
    },
    /// List the built-in host profiles (`--profile builtin:NAME`), or print one's JSON.
    Profiles {
        /// A built-in profile (`vscode` or `builtin:vscode`): print its JSON, to copy and
        /// extend.
        #[arg(value_parser = args::Offered(args::builtin_names), hide_possible_values = true)]
        name: Option<String>,
    },
    /// Write a commented starter skill-audit.toml (never overwrites one).
    Init {
        /// Folder to write it in.
        #[arg(default_value = ".", value_hint = ValueHint::DirPath)]
        dir: PathBuf,
    },
    /// Compare two JSON reports (new and fixed findings, availability changes and their
    /// causes) or two profiles (tools, resources and prompts added and removed, per server).
    Diff {
        /// The earlier report (e.g. of the base branch), or profile (a file or `builtin:NAME`);
        /// `-` reads standard input, for one of the two.
        old: PathBuf,
        /// The later report (e.g. of the pull request), or profile; `-` reads standard input.
        new: PathBuf,
        /// Output format.
        #[arg(short, long, value_enum, default_value_t = reports::DiffFormat::Text)]
        format: reports::DiffFormat,
        /// Write to FILE instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Combine JSON reports of sharded runs into one report, in any format.
    Merge {
        /// JSON reports; those audited at `.` get their file stem as a path prefix. `-` reads
        /// one from standard input (prefix `stdin`).
        #[arg(required = true, num_args = 1..)]
        reports: Vec<PathBuf>,
        #[command(flatten)]
        out: OutputArgs,
    },
    /// Print the JSON Schema of a profile, of `skill-audit.toml` or of the JSON report; without
    /// a kind, list the kinds.
    Schema {
        #[arg(value_enum)]
        kind: Option<SchemaKind>,
    },
    /// Show everything known about one skill or agent: fields, links, availability, findings.
    Explain(ExplainArgs),
    /// Print the `<available_skills>` block for a system prompt: the skills one profile can run.
    ToPrompt(ToPromptArgs),
    /// Write a profile from a live MCP server's tools, resources and prompts, or of this
    /// machine (`--machine`).
    Capture(CaptureArgs),
    /// Print a shell completion script.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::aot::Shell,
    },
    /// Print the manual page (roff).
    Man,
    /// Run the language server on standard input and output, for editors: diagnostics as
    /// you type, hover, completion, go to definition, quick fixes (docs/editors.md).
    Lsp {
        /// Accepted for clients that pass it; standard input and output is the only transport.
        #[arg(long, hide = true)]
        stdio: bool,
    },
    /// Run an MCP server on standard input and output that tells agents which skills of the
    /// library they can use with their tools, and why not the others (docs/mcp.md).
    Mcp(mcp_server::McpServerArgs),
}

/// How a command ended.
pub enum Outcome {
    Clean,
    Failed,
}

/// `schema` without a kind: each kind and what it describes.
fn schema_kinds() -> Result<Outcome, String> {
    use clap::ValueEnum;
    let mut s = String::new();
    for kind in SchemaKind::value_variants() {
        if let Some(v) = kind.to_possible_value() {
            let help = v.get_help().map(ToString::to_string).unwrap_or_default();
            s.push_str(&format!("{:<8} {help}\n", v.get_name()));
        }
    }
    s.push_str("`skill-audit schema KIND` prints one.\n");
    write_stdout(s.as_bytes())?;
    Ok(Outcome::Clean)
}

/// When output is coloured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    #[default]
    Auto,
    Always,
    Never,
}

/// The run's `--color`, set once by [`run`].
static COLOR: std::sync::OnceLock<ColorChoice> = std::sync::OnceLock::new();

/// Run the parsed command line. `Err` is a usage, configuration or I/O error (exit 2).
pub fn run(cli: Cli) -> Result<Outcome, String> {
    let _ = COLOR.set(cli.color);
    match cli.command {
        Some(Command::Rules { config }) => catalog::rules(config.as_deref()),
        Some(Command::Profiles { name }) => catalog::profiles(name.as_deref()),
        Some(Command::Init { dir }) => init(&dir),
        Some(Command::Rule { id, config }) => catalog::rule(&id, config.as_deref()),
        Some(Command::Diff {
            old,
            new,
            format,
            output,
        }) => reports::diff(&old, &new, format, output.as_deref()),
        Some(Command::Merge {
            reports: files,
            out,
        }) => reports::merge(&files, &out),
        Some(Command::Schema { kind: Some(kind) }) => catalog::schema(kind),
        Some(Command::Schema { kind: None }) => schema_kinds(),
        Some(Command::Explain(args)) => explain::run(args),
        Some(Command::ToPrompt(args)) => to_prompt::run(args),
        Some(Command::Capture(args)) => capture::run(args),
        Some(Command::Completions { shell }) => shell::completions(shell),
        Some(Command::Man) => shell::man(),
        Some(Command::Lsp { stdio: _ }) => lsp::run(),
        Some(Command::Mcp(args)) => mcp_server::run(args),
        None => audit::run(cli.audit, cli.mcp),
    }
}

/// Colour on standard output: as `--color` says; by default only on a terminal, and never when
/// `NO_COLOR` is set (no-color.org) or `TERM` is `dumb` (a terminal that shows escapes as text,
/// such as Emacs' shell).
fn color_stdout() -> bool {
    use std::io::IsTerminal;
    match COLOR.get().copied().unwrap_or_default() {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
                && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
        }
    }
}

impl OutputArgs {
    /// Will any output be in `format`?
    pub(crate) fn wants(&self, format: Format) -> bool {
        if self.outputs.is_empty() {
            return self.stdout_format() == format;
        }
        self.outputs
            .iter()
            .any(|p| format_of(self, p) == Some(format))
    }
}

/// Write the starter config, refusing to replace an existing file.
fn init(dir: &std::path::Path) -> Result<Outcome, String> {
    let path = dir.join(crate::config::file::FILE_NAME);
    let mut f = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)
        .map_err(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => {
                format!("{} already exists; not overwriting it", path.display())
            }
            _ => format!("cannot write {}: {e}", path.display()),
        })?;
    f.write_all(crate::config::file::STARTER.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    say!("wrote {}", path.display());
    Ok(Outcome::Clean)
}

/// `--quiet`: like [`write_outputs`], but text and concise output hold only the findings.
pub(crate) fn write_outputs_quiet(report: &Report, out: &OutputArgs) -> Result<(), String> {
    let findings_only = |f: Option<Format>| matches!(f, Some(Format::Text | Format::Concise));
    let (text, other): (Vec<PathBuf>, Vec<PathBuf>) = out
        .outputs
        .iter()
        .cloned()
        .partition(|p| findings_only(format_of(out, p)));
    if out.outputs.is_empty() {
        return match out.stdout_format() {
            f @ (Format::Text | Format::Concise) => {
                emit(None, |w| findings(report, f, w, color_stdout()))
            }
            _ => write_outputs(report, out),
        };
    }
    if !other.is_empty() {
        let other = OutputArgs {
            format: out.format,
            outputs: other,
            stdout_default: out.stdout_default,
        };
        write_outputs(report, &other)?;
    }
    for path in &text {
        let to = destination(path);
        let color = to.is_none() && color_stdout();
        let format = format_of(out, path).unwrap_or(Format::Text);
        emit(to, |w| findings(report, format, w, color))?;
    }
    Ok(())
}

/// Only the findings, in `format` (text or concise).
fn findings(report: &Report, format: Format, w: &mut dyn Write, color: bool) -> io::Result<()> {
    if format == Format::Concise {
        report::concise::render_findings(report, w, color)
    } else {
        report::text::render_findings(report, w, color)
    }
}

/// Where an `-o` argument writes: `None` for `-`, standard output.
fn destination(path: &std::path::Path) -> Option<&std::path::Path> {
    (path.as_os_str() != "-").then_some(path)
}

/// The format for an `-o` argument: `--format`, else the file's extension; for `-`, what
/// standard output gets.
fn format_of(out: &OutputArgs, path: &std::path::Path) -> Option<Format> {
    out.format.or_else(|| match destination(path) {
        None => Some(out.stdout_format()),
        Some(path) => Format::from_path(path),
    })
}

/// Whether any report this run writes marks the findings a fix could fix (`[*]`), which asks
/// of each file with fixes whether a fix may write it.
pub(crate) fn marks_fixes(out: &OutputArgs) -> bool {
    let marks = |f: Option<Format>| {
        matches!(
            f,
            Some(Format::Text | Format::Concise | Format::Markdown | Format::Html)
        )
    };
    if out.outputs.is_empty() {
        return marks(Some(out.stdout_format()));
    }
    out.outputs.iter().any(|p| marks(format_of(out, p)))
}

/// Render `report` to every `-o` target (format from `--format` or the extension), or to
/// standard output. Only the named files are written.
pub(crate) fn write_outputs(report: &Report, out: &OutputArgs) -> Result<(), String> {
    if out.outputs.is_empty() {
        return to_stdout(report, out.stdout_format());
    }
    for path in &out.outputs {
        let Some(path) = destination(path) else {
            to_stdout(report, out.stdout_format())?;
            continue;
        };
        let format = format_of(out, path).ok_or_else(|| unknown_format(path))?;
        emit(Some(path), |w| report::render(report, format, w))?;
    }
    Ok(())
}

/// Every `-o` file's format can be told, and no destination is named twice: checked before
/// any work, so a bad one writes nothing.
pub(crate) fn check_outputs(out: &OutputArgs) -> Result<(), String> {
    let files = out.outputs.iter().filter_map(|p| destination(p));
    if let Some(path) = files.into_iter().find(|p| format_of(out, p).is_none()) {
        return Err(unknown_format(path));
    }
    // A destination given twice would get the report twice: standard output would carry two
    // reports one after the other, a file would be written twice over.
    let mut seen: Vec<(&std::path::Path, Option<PathBuf>)> = Vec::new();
    for path in &out.outputs {
        let key = destination(path).map(same_file_key);
        if let Some((first, _)) = seen.iter().find(|(_, k)| *k == key) {
            return Err(match key {
                None => "`-o -` is given twice; standard output takes one report, so give it once"
                    .to_owned(),
                Some(_) if *first == path.as_path() => format!(
                    "`-o {}` is given twice; give each output file once",
                    path.display()
                ),
                Some(_) => format!(
                    "`-o {}` and `-o {}` name the same file; give each output file once",
                    first.display(),
                    path.display()
                ),
            });
        }
        seen.push((path, key));
    }
    Ok(())
}

/// The file an `-o` path names, however it is spelled (`./a.json`, `dir/../a.json`, through
/// a link): the file itself when it exists, else its folder's real path and its name.
fn same_file_key(path: &std::path::Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(path) {
        return real;
    }
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    match (std::fs::canonicalize(folder), path.file_name()) {
        (Ok(folder), Some(name)) => folder.join(name),
        // A folder that does not exist: writing fails anyway, and says so.
        _ => crate::paths::normalize(path),
    }
}

fn unknown_format(path: &std::path::Path) -> String {
    format!(
        "cannot tell the format of {} from its extension; use .html, .json, .md, .sarif or .txt, or --format",
        path.display()
    )
}

/// The report on standard output; text is coloured when that is a terminal.
fn to_stdout(report: &Report, format: Format) -> Result<(), String> {
    emit(None, |w| match format {
        Format::Text => report::text::render_styled(report, w, color_stdout()),
        Format::Concise => report::concise::render(report, w, color_stdout()),
        _ => report::render(report, format, w),
    })
}

/// Stream what `render` writes to `path` (standard output when `None`) through a buffer, so
/// a large report is never held whole in memory.
pub(crate) fn emit(
    path: Option<&std::path::Path>,
    render: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> Result<(), String> {
    const BUFFER: usize = 1 << 16;
    let Some(path) = path else {
        let mut w = io::BufWriter::with_capacity(BUFFER, io::stdout().lock());
        return match render(&mut w).and_then(|()| w.flush()) {
            Ok(()) => Ok(()),
            // `skill-audit ... | head` is a normal way to stop reading.
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
            Err(e) => Err(format!("cannot write output: {e}")),
        };
    };
    let failed = |e: io::Error| format!("cannot write {}: {e}", path.display());
    let file = std::fs::File::create(path).map_err(failed)?;
    let mut w = io::BufWriter::with_capacity(BUFFER, file);
    render(&mut w).and_then(|()| w.flush()).map_err(failed)
}

pub(crate) fn print(s: &str) -> Result<Outcome, String> {
    write_stdout(s.as_bytes())?;
    Ok(Outcome::Clean)
}

pub(crate) fn write_stdout(bytes: &[u8]) -> Result<(), String> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // `skill-audit ... | head` is a normal way to stop reading.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write output: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::args::FailOn;
    use super::*;
    use crate::diagnostic::Severity;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_valid() {
        Cli::command().debug_assert();
    }

    #[test]
    fn fail_on_thresholds() {
        assert!(!FailOn::Error.fails(Some(Severity::Warning)));
        assert!(FailOn::Warning.fails(Some(Severity::Error)));
        assert!(FailOn::Info.fails(Some(Severity::Info)));
        assert!(!FailOn::Never.fails(Some(Severity::Error)));
        assert!(!FailOn::Info.fails(None));
    }
}
