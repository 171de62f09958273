//! The default command: audit the given paths and write the reports.

use clap::{ValueEnum, ValueHint};
use std::path::PathBuf;

use super::{Outcome, OutputArgs, write_outputs};
use crate::audit::{self, AuditOptions};
use crate::config::{NameCharset, Settings};
use crate::diagnostic::Severity;
use crate::profile::ProfileSource;
use crate::report::{self, Report};

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

pub fn run(args: AuditArgs) -> Result<Outcome, String> {
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
