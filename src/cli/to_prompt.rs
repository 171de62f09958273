//! `to-prompt PATH...`: the `<available_skills>` block a host puts in its system prompt, for
//! one environment (named after the reference validator's `skills-ref to-prompt`).

use clap::ValueHint;
use std::path::PathBuf;

use super::{AuditArgs, LibraryArgs, Outcome};
use crate::audit;
use crate::report::Report;
use crate::report::prompt::{self, PromptFormat, PromptOptions};

#[derive(Debug, clap::Args)]
#[command(mut_arg("profiles", |a| a.help(
    "The environment: a JSON file, `builtin:NAME`, or a live MCP server as \
     `mcp:NAME=COMMAND ARGS...` or `mcp:NAME=URL`. Exactly one, from here or the settings file"
)))]
pub struct ToPromptArgs {
    /// Folders (or files) whose skills to list [default: `.`].
    #[arg(value_name = "PATH", value_hint = ValueHint::AnyPath)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub library: LibraryArgs,
    /// Also list the skills the profile cannot run (unavailable, invalid), each with its status
    /// and reason.
    #[arg(long)]
    pub include_unavailable: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = PromptFormat::Text)]
    pub format: PromptFormat,
    /// Show each location as the audit shows paths (relative to the current folder when under
    /// it, unless an audited folder holds the current folder) instead of absolute.
    #[arg(long)]
    pub relative: bool,
}

pub(crate) fn run(args: ToPromptArgs) -> Result<Outcome, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let from_command_line = !args.library.profiles.is_empty();
    let threads = args.library.threads;
    // The same options an audit of these paths would use, settings file included.
    let audit_args = AuditArgs::quiet(args.paths, args.library);
    let mut opts = super::audit::options(&audit_args, cwd.clone())?.opts;
    match opts.profiles.len() {
        1 => {}
        0 => {
            return Err(
                "to-prompt needs the environment to list the skills of: one profile, \
                        `-p FILE`, `-p builtin:NAME` or `-p mcp:NAME=COMMAND`"
                    .into(),
            );
        }
        n if from_command_line => {
            return Err(format!(
                "to-prompt lists the skills of one environment: give one profile, not {n}"
            ));
        }
        n => {
            return Err(format!(
                "to-prompt lists the skills of one environment, and the settings file names {n} \
                 profiles: choose one with `-p`"
            ));
        }
    }
    // No finding is shown, so no source line is read.
    opts.snippets = false;
    opts.fingerprints = false;
    // As for an audit: one pool of `-j` threads (see `audit::run`).
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build_global();
    let result = audit::run(&opts).map_err(|e| e.to_string())?;
    let report = Report::new(result);
    let profile = report
        .profiles
        .first()
        .map(|p| p.name.as_str())
        .unwrap_or_default();
    let skills = prompt::skills(
        &report,
        &PromptOptions {
            profile,
            include_unavailable: args.include_unavailable,
            absolute_from: (!args.relative).then_some(cwd.as_path()),
        },
    );
    super::emit(None, |w| prompt::render(&skills, args.format, w))?;
    // Printed as the audit lists them; the host would list one of each name.
    for (name, n, copies) in shared_names(&skills) {
        if copies {
            say!(
                "skill-audit: `{name}` names {n} of the skills listed, copies of one file; a host loads only one of them"
            );
        } else {
            say!(
                "skill-audit: `{name}` names {n} of the skills listed; a host loads only one of them (SA401); rename one"
            );
        }
    }
    Ok(Outcome::Clean)
}

/// The names more than one skill of the block has, by name: how many, and whether they are
/// all copies of one file (which SA401 leaves out).
fn shared_names(skills: &[prompt::PromptSkill]) -> Vec<(&str, usize, bool)> {
    let mut by_name = std::collections::BTreeMap::<&str, Vec<&[u8; 32]>>::new();
    for s in skills.iter().filter(|s| s.surfaced) {
        by_name
            .entry(s.name.as_str())
            .or_default()
            .push(&s.file_digest);
    }
    by_name
        .into_iter()
        .filter(|(_, digests)| digests.len() > 1)
        .map(|(name, digests)| {
            (
                name,
                digests.len(),
                digests.windows(2).all(|w| w[0] == w[1]),
            )
        })
        .collect()
}
