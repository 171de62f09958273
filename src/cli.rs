//! Command-line interface: argument types and the commands they run. Exit codes: 0 when no
//! finding reaches `--fail-on`, 1 when one does, 2 for usage, configuration or I/O errors.

use clap::{Parser, Subcommand, ValueEnum, ValueHint};
use std::io::{self, Write};
use std::path::PathBuf;

use crate::audit::{self, AuditOptions};
use crate::config::{NameCharset, Settings};
use crate::diagnostic::Severity;
use crate::profile::ProfileSource;
use crate::report::{self, Format, Report};
use crate::rules::Rule;

#[derive(Debug, Parser)]
#[command(
    name = "skill-audit",
    version,
    about = "Audit agent skill libraries against environment tool profiles",
    args_conflicts_with_subcommands = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub audit: AuditArgs,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every rule: ID, default severity, summary.
    Rules,
    /// Print a rule's documentation: what it checks, why, an example.
    Rule {
        /// Rule ID (`SA201`) or name (`name-missing`).
        id: String,
    },
    /// List the built-in host profiles (`--profile builtin:NAME`).
    Profiles,
    /// Compare two JSON reports: new and fixed findings, availability changes.
    Diff {
        /// The earlier report (e.g. of the base branch).
        old: PathBuf,
        /// The later report (e.g. of the pull request).
        new: PathBuf,
        /// Output format.
        #[arg(short, long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
        /// Write to FILE instead of standard output.
        #[arg(short, long, value_name = "FILE")]
        output: Option<PathBuf>,
    },
    /// Combine JSON reports of sharded runs into one report, in any format.
    Merge {
        /// JSON reports; those audited at `.` get their file stem as a path prefix.
        #[arg(required = true, num_args = 1..)]
        reports: Vec<PathBuf>,
        #[command(flatten)]
        out: OutputArgs,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DiffFormat {
    Text,
    Json,
    Markdown,
}

/// Where reports go and in which formats.
#[derive(Debug, clap::Args)]
pub struct OutputArgs {
    /// Output format; with `-o`, the default follows each file's extension.
    #[arg(short, long, value_enum)]
    pub format: Option<Format>,
    /// Write the report to FILE instead of standard output; repeat to write several formats
    /// from one scan (`.html`, `.json`, `.md`, `.sarif`, `.txt`).
    #[arg(short, long = "output", value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub outputs: Vec<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// Folders (or files) to audit.
    #[arg(value_name = "PATH", default_value = ".", value_hint = ValueHint::AnyPath)]
    pub paths: Vec<PathBuf>,
    /// Environment profile: a JSON file or `builtin:NAME`; repeat for more matrix columns, in order.
    #[arg(short, long = "profile", value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub profiles: Vec<String>,
    #[command(flatten)]
    pub out: OutputArgs,
    /// Compare with an earlier JSON report: Markdown and the exit code consider only what is new.
    #[arg(long, value_name = "OLD.json", value_hint = ValueHint::FilePath)]
    pub baseline: Option<PathBuf>,
    /// Exit 1 when a finding of this severity or worse is found.
    #[arg(long, value_enum, default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Skip paths matching GLOB (repeatable); a pattern without `/` matches at any depth.
    #[arg(long, value_name = "GLOB")]
    pub exclude: Vec<String>,
    /// Characters allowed in skill names.
    #[arg(long, value_enum, default_value_t = NameCharset::Ascii)]
    pub name_charset: NameCharset,
    /// Worker threads (0 = one per core).
    #[arg(short = 'j', long, default_value_t = 0)]
    pub threads: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Error,
    Warning,
    Info,
    Never,
}

impl FailOn {
    fn fails(self, worst: Option<Severity>) -> bool {
        let Some(worst) = worst else { return false };
        match self {
            FailOn::Never => false,
            FailOn::Info => true,
            FailOn::Warning => worst >= Severity::Warning,
            FailOn::Error => worst >= Severity::Error,
        }
    }
}

/// How a command ended.
pub enum Outcome {
    Clean,
    Failed,
}

/// Run the parsed command line. `Err` is a usage, configuration or I/O error (exit 2).
pub fn run(cli: Cli) -> Result<Outcome, String> {
    match cli.command {
        Some(Command::Rules) => {
            let mut s = String::new();
            for r in Rule::ALL {
                s.push_str(&format!(
                    "{}  {:<7}  {:<28} {}\n",
                    r.code(),
                    r.default_severity(),
                    r.name(),
                    r.summary()
                ));
            }
            print(&s)
        }
        Some(Command::Profiles) => {
            let mut s = String::new();
            for (name, desc) in crate::profile::builtin::describe() {
                s.push_str(&format!("{name:<24} {desc}\n"));
            }
            print(&s)
        }
        Some(Command::Rule { id }) => {
            let rule = Rule::from_id(&id)
                .ok_or_else(|| format!("unknown rule `{id}`; `skill-audit rules` lists them"))?;
            print(&rule_doc(rule))
        }
        Some(Command::Diff {
            old,
            new,
            format,
            output,
        }) => diff_command(&old, &new, format, output.as_deref()),
        Some(Command::Merge { reports, out }) => merge_command(&reports, &out),
        None => audit_command(cli.audit),
    }
}

/// Render `report` to every `-o` target (format from `--format` or the extension), or to
/// standard output. Only the named files are written.
fn write_outputs(report: &Report, out: &OutputArgs) -> Result<(), String> {
    if out.outputs.is_empty() {
        let mut buf = Vec::new();
        report::render(report, out.format.unwrap_or(Format::Text), &mut buf)
            .map_err(|e| e.to_string())?;
        return write_stdout(&buf);
    }
    for path in &out.outputs {
        let format = out.format.or_else(|| Format::from_path(path)).ok_or_else(|| {
            format!(
                "cannot tell the format of {} from its extension; use .html, .json, .md, .sarif or .txt, or --format",
                path.display()
            )
        })?;
        let mut buf = Vec::new();
        report::render(report, format, &mut buf).map_err(|e| e.to_string())?;
        std::fs::write(path, &buf).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(())
}

fn diff_command(
    old: &std::path::Path,
    new: &std::path::Path,
    format: DiffFormat,
    output: Option<&std::path::Path>,
) -> Result<Outcome, String> {
    let (old, new) = (report::diff::load(old)?, report::diff::load(new)?);
    let d = report::diff::diff(&old, &new);
    let mut buf = Vec::new();
    match format {
        DiffFormat::Text => report::diff::render_text(&d, &mut buf),
        DiffFormat::Json => report::diff::render_json(&d, &mut buf),
        DiffFormat::Markdown => report::diff::render_markdown(&d, &mut buf),
    }
    .map_err(|e| e.to_string())?;
    match output {
        Some(p) => {
            std::fs::write(p, &buf).map_err(|e| format!("cannot write {}: {e}", p.display()))?
        }
        None => write_stdout(&buf)?,
    }
    Ok(Outcome::Clean)
}

fn merge_command(paths: &[PathBuf], out: &OutputArgs) -> Result<Outcome, String> {
    let mut reports = Vec::with_capacity(paths.len());
    for p in paths {
        let label = p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        reports.push((label, report::diff::load(p)?));
    }
    let merged = report::merge::merge(reports).ok_or("no reports to merge")?;
    write_outputs(&merged, out)?;
    Ok(Outcome::Clean)
}

/// A rule's documentation as plain text.
pub fn rule_doc(rule: Rule) -> String {
    let d = rule.doc();
    format!(
        "{} {} ({} by default)\n\n{}\n\nWhat it checks\n  {}\n\nWhy it matters\n  {}\n\nExample\n{}\n",
        rule.code(),
        rule.name(),
        rule.default_severity(),
        rule.summary(),
        d.what,
        d.why,
        d.example
            .lines()
            .map(|l| format!("  {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    )
}

fn print(s: &str) -> Result<Outcome, String> {
    write_stdout(s.as_bytes())?;
    Ok(Outcome::Clean)
}

fn write_stdout(bytes: &[u8]) -> Result<(), String> {
    let mut out = io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        // `skill-audit ... | head` is a normal way to stop reading.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("cannot write output: {e}")),
    }
}

fn audit_command(args: AuditArgs) -> Result<Outcome, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let opts = AuditOptions {
        roots: args.paths,
        profiles: args
            .profiles
            .iter()
            .map(|p| ProfileSource::parse(p))
            .collect(),
        excludes: args.exclude,
        settings: Settings {
            name_charset: args.name_charset,
        },
        threads: args.threads,
        cwd,
    };
    // Read the baseline first: a bad one is a usage error before any work is done.
    let baseline = args
        .baseline
        .as_deref()
        .map(report::diff::load)
        .transpose()?;
    let result = audit::run(&opts).map_err(|e| e.to_string())?;
    let mut report = Report::new(&result);
    if let Some(old) = &baseline {
        report.baseline = Some(report::diff::diff(old, &report));
    }
    write_outputs(&report, &args.out)?;
    Ok(if args.fail_on.fails(report.worst()) {
        Outcome::Failed
    } else {
        Outcome::Clean
    })
}

#[cfg(test)]
mod tests {
    use super::*;
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
