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
}

#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// Folders (or files) to audit.
    #[arg(value_name = "PATH", default_value = ".", value_hint = ValueHint::AnyPath)]
    pub paths: Vec<PathBuf>,
    /// Environment profile: a JSON file or `builtin:NAME`; repeat for more matrix columns, in order.
    #[arg(short, long = "profile", value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub profiles: Vec<String>,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Write the report to FILE instead of standard output.
    #[arg(short, long, value_name = "FILE", value_hint = ValueHint::FilePath)]
    pub output: Option<PathBuf>,
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
                    "{}  {:<7}  {:<26} {}\n",
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
        None => audit_command(cli.audit),
    }
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
    let result = audit::run(&opts).map_err(|e| e.to_string())?;
    let report = Report::new(&result);
    let mut buf = Vec::new();
    report::render(&report, args.format, &mut buf).map_err(|e| e.to_string())?;
    match &args.output {
        Some(path) => std::fs::write(path, &buf)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
        None => write_stdout(&buf)?,
    }
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
