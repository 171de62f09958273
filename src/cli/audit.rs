//! The default command: audit the given paths and write the reports.

use clap::ValueHint;
use std::path::PathBuf;

use super::{
    FailOn, LibraryArgs, McpArgs, Outcome, OutputArgs, write_outputs, write_outputs_quiet,
};
use crate::audit::{self, AuditOptions};
use crate::config::{Settings, file};
use crate::diagnostic::Severity;
use crate::profile::ProfileSource;
use crate::report::{self, Report};
use crate::words::Count;

#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// Folders (or files) to audit [default: `.`, or none with --mcp or --mcp-url].
    #[arg(value_name = "PATH", value_hint = ValueHint::AnyPath)]
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub library: LibraryArgs,
    #[command(flatten)]
    pub out: OutputArgs,
    /// Compare with an earlier JSON report (`-` reads it from standard input): Markdown and the
    /// exit code consider only what is new.
    #[arg(long, value_name = "OLD.json", value_hint = ValueHint::FilePath)]
    pub baseline: Option<PathBuf>,
    /// Exit 1 when a finding of this severity or worse is found [default: error].
    #[arg(long, value_enum)]
    pub fail_on: Option<FailOn>,
    /// Print only the findings: no progress, and no matrices or summary line in text output
    /// (with --baseline, its `baseline:` line is kept).
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,
    /// Say what is being done on standard error: settings file, roots, profiles, files found,
    /// time taken.
    #[arg(short, long)]
    pub verbose: bool,
    /// Apply the safe fixes findings carry and write the files; the report then shows what is
    /// left.
    #[arg(long)]
    pub fix: bool,
    /// With --fix or --diff, apply unsafe fixes too (they change meaning: tools granted, names
    /// set, files renamed); alone, mark them as available in the report.
    #[arg(long)]
    pub unsafe_fixes: bool,
    /// Print a unified diff of what --fix would change and write nothing; exit 1 when there is
    /// something to fix, 0 otherwise.
    #[arg(long)]
    pub diff: bool,
    /// Report only these rules: IDs (`SA221`, a policy rule's `P001`), prefixes (`SA2`, `P`),
    /// names (`drift`) or `ALL`,
    /// comma-separated or repeated [default: `select` in skill-audit.toml, else every rule].
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = super::args::Offered(super::args::rule_selectors), hide_possible_values = true)]
    pub select: Option<Vec<String>>,
    /// Also report these rules, on top of `--select` or the settings file's `select`.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = super::args::Offered(super::args::rule_selectors), hide_possible_values = true)]
    pub extend_select: Vec<String>,
    /// Do not report these rules (IDs, prefixes, names), on top of the settings file's
    /// `ignore`.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = super::args::Offered(super::args::rule_selectors), hide_possible_values = true)]
    pub ignore: Vec<String>,
    /// Exit 0 even when findings reach `--fail-on` (usage, settings and I/O errors still
    /// exit 2).
    #[arg(long)]
    pub exit_zero: bool,
    /// Print the number of findings of each rule (count, ID, `[*]` when fixable, name) instead
    /// of the report on standard output; as JSON with `-f json`.
    #[arg(long)]
    pub statistics: bool,
    /// Exit 1 when the paths hold no skill, agent or plugin manifest.
    #[arg(long)]
    pub fail_on_empty: bool,
    /// Which rows the text and Markdown matrices list: `attention` (those not available
    /// everywhere; the others are counted, and folded in Markdown) or `all`.
    #[arg(long, value_enum, default_value_t = MatrixRows::Attention)]
    pub matrix: MatrixRows,
}

/// The rows `--matrix` lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MatrixRows {
    /// Rows with a cell that is not available or needs-nothing; the rest are counted.
    #[default]
    Attention,
    /// Every row.
    All,
}

impl AuditArgs {
    /// The arguments of a quiet audit of `paths` with `library`: what `explain` and
    /// `to-prompt` audit, settings file included, before they render their own output.
    pub(super) fn quiet(paths: Vec<PathBuf>, library: LibraryArgs) -> AuditArgs {
        AuditArgs {
            paths,
            library,
            out: OutputArgs {
                format: None,
                outputs: Vec::new(),
                stdout_default: None,
            },
            baseline: None,
            fail_on: None,
            quiet: true,
            verbose: false,
            fix: false,
            unsafe_fixes: false,
            diff: false,
            select: None,
            extend_select: Vec::new(),
            ignore: Vec::new(),
            exit_zero: false,
            statistics: false,
            fail_on_empty: false,
            matrix: MatrixRows::Attention,
        }
    }
}

/// What an audit is asked to do: the options, the `--fail-on` threshold and the settings file
/// used, as shown (none when there is none).
pub(super) struct Plan {
    pub opts: AuditOptions,
    pub fail_on: FailOn,
    pub settings_file: Option<String>,
    /// The settings file's `output-format`: the format on standard output unless `-f` says.
    pub output_format: Option<crate::report::Format>,
}

/// The rules `selectors` name, for the flag `flag`; a selector that names none is a usage
/// error (but see [`crate::config::selected`] for `--ignore`).
fn selected(
    flag: &str,
    selectors: &[String],
    policies: &[crate::rules::Rule],
) -> Result<Vec<crate::rules::Rule>, String> {
    let mut out = Vec::new();
    for sel in selectors {
        out.extend(
            crate::config::selected(sel.trim(), flag == "--ignore", policies).ok_or_else(|| {
                format!(
                    "{flag} {sel}: names no rule; {}",
                    crate::rules::Rule::no_rule_hint(sel.trim(), policies)
                )
            })?,
        );
    }
    Ok(out)
}

/// Combine the command line with skill-audit.toml (flags win) into audit options and the
/// `--fail-on` threshold. The file is `--config`, or the one [`file::find`] finds from the
/// first root.
pub(super) fn options(args: &AuditArgs, cwd: PathBuf) -> Result<Plan, String> {
    let lib = &args.library;
    let roots = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        // A root given twice is audited once, and the report lists it once.
        crate::paths::distinct(&args.paths, &cwd)
    };
    // The settings file's path, and its folder's in policy rules, are shown as the run's.
    let view = crate::paths::PathView::new(&cwd, &roots);
    let config_path = match &lib.config {
        Some(p) => Some(p.clone()),
        None => match roots.first() {
            Some(root) => file::find(root, &view, lib.follow_outside)?,
            None => None,
        },
    };
    let settings_file = config_path
        .as_deref()
        .map(|p| crate::paths::display_path(p, &view));
    let config = match (&config_path, &settings_file) {
        (Some(p), Some(shown)) => file::load(p, shown).map_err(|e| e.to_string())?,
        _ => file::Config::default(),
    };
    let profiles: Vec<ProfileSource> = if lib.profiles.is_empty() {
        // Profile files in the config are relative to the config file; only servers named
        // on the command line are ever started or contacted.
        config.profile_sources().map_err(|e| e.to_string())?
    } else {
        lib.profiles
            .iter()
            .map(|p| ProfileSource::parse(p))
            .collect()
    };
    let mut severities: std::collections::HashMap<_, _> = config
        .rules
        .iter()
        .map(|(rule, level)| {
            let sev = match level {
                file::RuleLevel::Off => None,
                file::RuleLevel::Info => Some(Severity::Info),
                file::RuleLevel::Warning => Some(Severity::Warning),
                file::RuleLevel::Error => Some(Severity::Error),
            };
            (*rule, sev)
        })
        .collect();
    let selection = crate::config::Selection {
        select: args
            .select
            .as_deref()
            .map(|s| selected("--select", s, &config.policies))
            .transpose()?,
        extend_select: selected("--extend-select", &args.extend_select, &config.policies)?,
        ignore: selected("--ignore", &args.ignore, &config.policies)?,
    }
    .over(&config.selection);
    for &rule in crate::rules::Rule::ALL.iter().chain(&config.policies) {
        if !selection.reports(rule) {
            severities.insert(rule, None);
        }
    }
    let fail_on = args.fail_on.unwrap_or(match config.file.fail_on {
        Some(file::Level::Warning) => FailOn::Warning,
        Some(file::Level::Info) => FailOn::Info,
        Some(file::Level::Never) => FailOn::Never,
        Some(file::Level::Error) | None => FailOn::Error,
    });
    let links = config.links.clone();
    // The formats asked for, the settings file's `output-format` included.
    let out = OutputArgs {
        format: args.out.format,
        outputs: args.out.outputs.clone(),
        stdout_default: config.output_format,
    };
    let opts = AuditOptions {
        roots,
        profiles,
        excludes: lib.exclude.clone(),
        // Relative to the file's folder, as its profiles and links are.
        config_excludes: config
            .file
            .exclude
            .iter()
            .map(|e| e.get_ref().clone())
            .collect(),
        config_dir: config.dir.clone(),
        settings: Settings {
            name_charset: lib
                .name_charset
                .or(config.file.name_charset)
                .unwrap_or_default(),
            hosts: config.file.hosts.clone(),
            severities,
            policies: crate::rules::policy::Policies {
                dir: crate::paths::display_path(&config.dir, &view),
                rules: config.policies.clone(),
            },
        },
        threads: lib.threads,
        cwd,
        links,
        // The text format shows source lines; SARIF ends its regions where the text's caret
        // ends, which it measures on them. The others never read them.
        snippets: out.wants(crate::report::Format::Text) || out.wants(crate::report::Format::Sarif),
        // Reports that may be a baseline later, and a run compared with one, know findings
        // by their lines' fingerprints.
        fingerprints: out.wants(crate::report::Format::Json)
            || out.wants(crate::report::Format::Sarif)
            || args.baseline.is_some(),
        no_ignore: lib.no_ignore,
        follow_outside: lib.follow_outside,
        semantics: lib.semantics,
        ..AuditOptions::default()
    };
    Ok(Plan {
        opts,
        fail_on,
        settings_file,
        output_format: config.output_format,
    })
}

pub(crate) fn run(args: AuditArgs, mcp: McpArgs) -> Result<Outcome, String> {
    // `skill-audit -p x.json explain PATH`: an option before a command makes clap take the
    // command for a folder to audit.
    let missing = args
        .paths
        .iter()
        .filter(|p| std::fs::symlink_metadata(p).is_err());
    if let Some(command) = missing.filter_map(|p| p.to_str()).find(|word| {
        <super::Cli as clap::CommandFactory>::command()
            .get_subcommands()
            .any(|c| c.get_name() == *word)
    }) {
        return Err(format!(
            "`{command}` is a command, and a command comes first: `skill-audit {command} ...`, with its options after it"
        ));
    }
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    let Plan {
        mut opts,
        fail_on,
        settings_file,
        output_format,
    } = options(&args, cwd)?;
    let mut args = args;
    args.out.stdout_default = output_format;
    let fail_on = if args.exit_zero {
        FailOn::Never
    } else {
        fail_on
    };
    with_mcp(&mut opts, &args, mcp)?;
    if args.verbose {
        match &settings_file {
            Some(f) => say!("skill-audit: settings from {f}"),
            None => say!("skill-audit: no settings file (skill-audit.toml) found"),
        }
    }
    // One pool of `-j` threads for the audit and the renderers. It can only fail if a pool
    // was already set up, in which case the audit makes its own of the right size.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(args.library.threads)
        .build_global();
    // `--diff` prints a diff, not a report: a format or file asked for would be silently
    // ignored (nothing written to `-o x.html`), so such a command line is refused.
    if args.diff && args.fix {
        return Err(
            "--diff shows what --fix would write, and writes nothing; give one of them".into(),
        );
    }
    if args.diff && (args.out.format.is_some() || !args.out.outputs.is_empty()) {
        return Err(
            "--diff prints the fixes as a unified diff on standard output; it cannot be used with --format or --output (run without --diff for a report)"
                .into(),
        );
    }
    // An `-o` file of no known format, and then a bad baseline, are usage errors before any
    // work is done.
    super::check_outputs(&args.out)?;
    let baseline = args.baseline.as_deref().map(load_baseline).transpose()?;
    if args.diff {
        return diff(&opts, &args);
    }
    let mut fixed = if args.fix {
        Some(fix(&mut opts, &args)?)
    } else {
        None
    };
    // The fix run's last audit was of the text now on disk, unless a write or a rename failed
    // or a file was renamed: then the tree is audited again (from the renamed roots).
    let result = match fixed.as_mut().and_then(|f| f.result.take()) {
        Some(result) => *result,
        None => audited(&opts, &args)?,
    };
    let unwritable = if super::marks_fixes(&args.out) {
        crate::fix::unwritable(&result, &opts.roots)
    } else {
        Default::default()
    };
    let mut report = Report::new(result);
    report.unwritable = unwritable;
    report.show_unsafe_fixes = args.unsafe_fixes;
    report.matrix_all = args.matrix == MatrixRows::All;
    let mut write_failed = false;
    if let Some(f) = fixed {
        report.summary.fixes = Some(f.summary);
        write_failed = f.failed;
    }
    if let Some(old) = &baseline {
        report.baseline = Some(report::diff::baseline(old, &report, &opts));
    }
    let failed = fail_on.fails(report.worst());
    let empty = report.summary.files_scanned == 0;
    // Decided before the report is written: the Markdown verdict says whether the run fails,
    // for whatever reason it does.
    report.fails = Some(write_failed || failed || (empty && args.fail_on_empty));
    if empty && !args.quiet {
        say!("skill-audit: {}", nothing_found(&report, &opts));
    }
    if args.statistics {
        statistics(&report, &args.out)?;
    } else if args.quiet {
        write_outputs_quiet(&report, &args.out)?;
    } else {
        write_outputs(&report, &args.out)?;
    }
    if args.quiet && failed {
        say!("skill-audit: exit 1: {}", why_failed(&report, fail_on));
    }
    let outcome = if write_failed || failed || (empty && args.fail_on_empty) {
        Outcome::Failed
    } else {
        Outcome::Clean
    };
    // The process ends next: returning the report's many small allocations one by one
    // would only delay the exit.
    std::mem::forget(report);
    Ok(outcome)
}

/// `--baseline FILE`: the JSON report it names. A file that is not one (not JSON, or another
/// JSON file) is refused with what to pass instead, rather than with the JSON parser's terms.
fn load_baseline(path: &std::path::Path) -> Result<Report, String> {
    let text = report::diff::read_report(path)?;
    report::diff::parse_report(&text).map_err(|e| match e {
        report::diff::NotAReport::Json(e) => not_a_report(path, &e),
        other => other.message(path),
    })
}

/// Why `--baseline FILE` is not a skill-audit JSON report, at the line and column the parser
/// stopped, and what to pass instead.
fn not_a_report(path: &std::path::Path, e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let why = match e.classify() {
        Category::Syntax => "it is not JSON there".to_owned(),
        Category::Eof => "it ends there, before the JSON does".to_owned(),
        Category::Io => format!("it cannot be read there: {e}"),
        // The report's own key first: a JSON file without it is some other kind of file.
        Category::Data if e.to_string().starts_with("missing field `schema_version`") => {
            "it is JSON, but has no `schema_version`, which every report has".to_owned()
        }
        Category::Data => "it is JSON, but a report holds something else there".to_owned(),
    };
    format!(
        "{}:{}:{}: not a skill-audit JSON report, which --baseline takes: {why}; pass a report that `skill-audit --format json` wrote (e.g. `skill-audit . -f json -o baseline.json` on the base branch)",
        report::diff::shown(path),
        e.line(),
        e.column(),
    )
}

/// Which fixes `--fix` and `--diff` apply.
fn fix_mode(opts: &AuditOptions, args: &AuditArgs) -> Result<crate::fix::Mode, String> {
    if opts.mcp_skills.is_some() {
        return Err(
            "--fix and --diff change local files; they cannot be used with --mcp or --mcp-url"
                .into(),
        );
    }
    Ok(match args.unsafe_fixes {
        true => crate::fix::Mode::Unsafe,
        false => crate::fix::Mode::Safe,
    })
}

/// Say on standard error which fixes could not be applied, and why: one line for a fix, one
/// for the fixes of a file that share a reason (a read-only file), and at most
/// [`DROPPED_FILES`] files for each reason, the rest counted.
fn report_dropped(dropped: &[crate::fix::Dropped]) {
    let visible = crate::report::text::visible;
    // A file's display path and its fixes not applied.
    type OfFile<'d> = (&'d str, Vec<&'d crate::fix::Dropped>);
    // Per reason, the files in order, each with its fixes.
    let mut by_reason: Vec<(String, Vec<OfFile<'_>>)> = Vec::new();
    for d in dropped {
        let reason = d.reason.to_string();
        let at = match by_reason.iter().position(|(r, _)| *r == reason) {
            Some(at) => at,
            None => {
                by_reason.push((reason, Vec::new()));
                by_reason.len() - 1
            }
        };
        let files = &mut by_reason[at].1;
        match files.iter_mut().find(|(path, _)| *path == d.path) {
            Some((_, fixes)) => fixes.push(d),
            None => files.push((&d.path, vec![d])),
        }
    }
    for (reason, files) in &by_reason {
        for (path, fixes) in files.iter().take(DROPPED_FILES) {
            match fixes.as_slice() {
                [d] => say!(
                    "skill-audit: {}:{}: {} not applied ({}): {reason}",
                    visible(path),
                    d.line,
                    d.rule.code(),
                    visible(&d.message),
                ),
                many => {
                    let mut rules: Vec<&str> = many.iter().map(|d| d.rule.code()).collect();
                    rules.sort_unstable();
                    rules.dedup();
                    say!(
                        "skill-audit: {}: {} fixes not applied ({}): {reason}",
                        visible(path),
                        many.len(),
                        rules.join(", ")
                    );
                }
            }
        }
        if files.len() > DROPPED_FILES {
            let rest = &files[DROPPED_FILES..];
            let fixes: usize = rest.iter().map(|(_, f)| f.len()).sum();
            let fixes = if fixes == 1 {
                "1 fix".to_owned()
            } else {
                format!("{fixes} fixes")
            };
            say!(
                "skill-audit: and {fixes} in {} more files not applied: {reason}",
                rest.len()
            );
        }
    }
}

/// How many files [`report_dropped`] names for one reason.
const DROPPED_FILES: usize = 10;

/// `--diff`: the fixes as a unified diff on standard output, nothing written; a summary on
/// standard error. Exit 1 when something would change.
fn diff(opts: &AuditOptions, args: &AuditArgs) -> Result<Outcome, String> {
    let mode = fix_mode(opts, args)?;
    let done = crate::fix::run(opts, mode).map_err(|e| e.to_string())?;
    let text = crate::fix::diff(&done.changes);
    // As a report's: a reader that stops early (`| head`) is no error.
    super::write_stdout(text.as_bytes())?;
    if !args.quiet {
        report_dropped(&done.dropped);
        let n = done.safe + done.unsafe_;
        let left = match done.dropped.len() {
            0 => String::new(),
            1 => "; 1 fix cannot be applied (see above)".to_owned(),
            n => format!("; {n} fixes cannot be applied (see above)"),
        };
        say!(
            "Would fix {n} ({} safe, {} unsafe) in {}{left}",
            done.safe,
            done.unsafe_,
            Count(done.changes.len(), "file")
        );
    }
    Ok(if done.changes.is_empty() {
        Outcome::Clean
    } else {
        Outcome::Failed
    })
}

/// What `--fix` did.
struct Fixed {
    summary: crate::report::FixSummary,
    /// A file could not be written.
    failed: bool,
    /// The audit of the tree as it is now, when the fix run's last audit is that: every
    /// change written, nothing renamed.
    result: Option<Box<audit::AuditResult>>,
}

/// `--fix`: apply and write the fixes. Each file that cannot be written is named on standard
/// error; the others are still written. A root that is a file a fix renamed is replaced in
/// `opts` by its new name, for the audit that follows.
fn fix(opts: &mut AuditOptions, args: &AuditArgs) -> Result<Fixed, String> {
    let mode = fix_mode(opts, args)?;
    let done = crate::fix::run(opts, mode).map_err(|e| e.to_string())?;
    report_dropped(&done.dropped);
    let failed = crate::fix::write(&done.changes, &opts.roots);
    opts.roots = crate::fix::renamed_roots(&opts.roots, &done.changes);
    for (_, e) in &failed {
        say!("skill-audit: {}", crate::report::text::visible(e));
    }
    let mut summary = crate::report::FixSummary {
        not_applied: done.dropped.len(),
        unsafe_available: done.unsafe_left,
        ..Default::default()
    };
    for c in &done.changes {
        if failed.iter().any(|(p, _)| *p == c.path) {
            summary.not_applied += c.safe + c.unsafe_;
            continue;
        }
        summary.applied_safe += c.safe;
        summary.applied_unsafe += c.unsafe_;
        summary.files_changed += 1;
    }
    // A file fixes may not write (read-only, a link) fails the run as a failed write does.
    let refused = done
        .dropped
        .iter()
        .any(|d| matches!(d.reason, crate::fix::Skip::File(_)));
    Ok(Fixed {
        summary,
        failed: !failed.is_empty() || refused,
        result: (failed.is_empty() && done.changes.iter().all(|c| c.rename.is_none()))
            .then(|| Box::new(done.result)),
    })
}

/// Add the MCP flags: the server whose skills to audit (then PATH defaults to nothing), the
/// headers and the timeout.
fn with_mcp(opts: &mut AuditOptions, args: &AuditArgs, mcp: McpArgs) -> Result<(), String> {
    opts.mcp = crate::mcp::Settings {
        timeout: super::capture::timeout(mcp.timeout)?,
        verbose: args.verbose,
    };
    opts.mcp_skills = match (&mcp.mcp_url, mcp.mcp) {
        (Some(url), _) => Some(crate::mcp::Server::http(url, &mcp.headers)?),
        (None, true) => Some(crate::mcp::Server::stdio(&mcp.server_command)?),
        (None, false) => None,
    };
    // Check the headers now: a typo is a usage error before any server is started.
    for h in &mcp.headers {
        crate::mcp::split_header(h)?;
    }
    opts.mcp_headers = mcp.headers;
    if opts.mcp_skills.is_some() && args.paths.is_empty() {
        opts.roots.clear();
    }
    Ok(())
}

/// Run the audit with a spinner on a terminal's standard error (never in a pipe or file, never
/// with `--quiet`) and, with `--verbose`, an account of the run on standard error.
fn audited(opts: &AuditOptions, args: &AuditArgs) -> Result<audit::AuditResult, String> {
    use std::io::IsTerminal;
    let started = std::time::Instant::now();
    if args.verbose {
        let roots: Vec<String> = opts
            .roots
            .iter()
            .map(|r| crate::paths::display_path(r, &opts.view()))
            .collect();
        say!("skill-audit: auditing {}", roots.join(", "));
    }
    let spinner = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar =
            indicatif::ProgressBar::with_draw_target(None, indicatif::ProgressDrawTarget::stderr());
        bar.set_style(indicatif::ProgressStyle::default_spinner());
        bar.set_message("auditing");
        bar.enable_steady_tick(std::time::Duration::from_millis(100));
        bar
    });
    let result = audit::run(opts);
    if let Some(bar) = spinner {
        bar.finish_and_clear();
    }
    let result = result.map_err(|e| e.to_string())?;
    if args.verbose {
        for p in &result.profiles {
            say!(
                "skill-audit: profile {} ({}): {}, {}, {}",
                p.name,
                p.path,
                Count(p.tools.len(), "tool"),
                Count(p.resources.len(), "resource"),
                Count(p.prompts.len(), "prompt")
            );
        }
        let (skills, agents) = (result.skills.len(), result.agents.len());
        say!(
            "skill-audit: {}: {}, {}, {}",
            Count(result.files_scanned, "file"),
            Count(skills, "skill"),
            Count(agents, "agent"),
            Count(
                result.files_scanned.saturating_sub(skills + agents),
                "manifest"
            )
        );
        if result.ignored > 0 {
            say!(
                "skill-audit: {} hidden by ignore rules (--no-ignore audits them)",
                Count(result.ignored, "file")
            );
        }
        say!(
            "skill-audit: {} ({} drifting), {}",
            Count(result.links.len(), "link"),
            result.drift.len(),
            Count(result.findings.len(), "finding")
        );
        say!("skill-audit: done in {:.1?}", started.elapsed());
    }
    Ok(result)
}

/// The one-line hint for an audit that found nothing to audit: what is looked for, and what
/// ignore rules hid.
fn nothing_found(report: &Report, opts: &AuditOptions) -> String {
    if report.roots.is_empty() {
        // Only an MCP server was audited (`--mcp`, `--mcp-url`).
        return "no skill found: the MCP server serves none, neither in `skills/list` nor as \
                `skill://…/SKILL.md` resources (docs/mcp.md)"
            .to_owned();
    }
    let roots = report.roots.join("`, `");
    let mut hint = format!(
        "no skill, agent or plugin manifest found under `{roots}`: skills are files named SKILL.md (any case), agents `*.agent.md`, `*.chatmode.md`, `.md` files in `.github/agents/` and Claude Code agents, manifests `plugin.json` and `marketplace.json` (docs/usage.md, Which files are audited)"
    );
    if report.summary.ignored_files > 0 {
        hint.push_str(&format!(
            "; {} hidden by ignore rules (--no-ignore audits them)",
            Count(report.summary.ignored_files, "file")
        ));
    }
    let excludes: Vec<&str> = (opts.excludes.iter())
        .chain(&opts.config_excludes)
        .map(String::as_str)
        .collect();
    if !excludes.is_empty() {
        hint.push_str(&format!(
            "; the exclude patterns `{}` may have hidden what is there",
            excludes.join("`, `")
        ));
    }
    hint
}

/// Why a run exits 1: the findings at or above `--fail-on` (with a baseline, the new ones).
fn why_failed(report: &Report, fail_on: FailOn) -> String {
    let (least, level) = match fail_on {
        FailOn::Error => (Severity::Error, "error"),
        FailOn::Warning => (Severity::Warning, "warning"),
        FailOn::Info | FailOn::Never => (Severity::Info, "info"),
    };
    let gating = report.gating_findings().iter();
    let n = gating.filter(|f| f.severity >= least).count();
    let (finding, new_finding) = match least {
        Severity::Error => ("error", "new error"),
        _ => ("finding", "new finding"),
    };
    let noun = if report.baseline.is_some() {
        new_finding
    } else {
        finding
    };
    format!("{} at or above --fail-on {level}", Count(n, noun))
}

/// `--statistics`: the count of each rule's findings on standard output, as text or JSON.
fn statistics(report: &Report, out: &super::OutputArgs) -> Result<(), String> {
    use crate::report::{Format, concise};
    let render = match out.stdout_format() {
        Format::Json => concise::render_statistics_json,
        Format::Text | Format::Concise => concise::render_statistics,
        other => {
            return Err(format!(
                "--statistics prints text or JSON, not {}",
                format!("{other:?}").to_lowercase()
            ));
        }
    };
    super::emit(None, |w| render(report, w))?;
    // They replace the report on standard output only: the files `-o` names are written.
    let files: Vec<std::path::PathBuf> = out
        .outputs
        .iter()
        .filter(|p| p.as_os_str() != "-")
        .cloned()
        .collect();
    if files.is_empty() {
        return Ok(());
    }
    super::write_outputs(
        report,
        &super::OutputArgs {
            outputs: files,
            ..out.clone()
        },
    )
}
