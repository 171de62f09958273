//! What a skill uses against what it declares (SA312-SA315): its scripts run an executable or
//! read a variable its declaration leaves out, it declares nothing at all while its body and
//! scripts use executables, variables and MCP tools, or it declares one that nothing names.
//! They read what the parse stage recorded; none looks at a file.

use super::{FixDoc, Rule, RuleDoc};
use crate::diagnostic::{Applicability, Edit, Finding, Fix, Pos, Severity, quote};
use crate::model::{Blocked, Declared, DepKind, FrontmatterEnd, MetadataRoom, Origin, Skill, Use};
use crate::span;

pub(crate) const UNDECLARED_USE: RuleDoc = RuleDoc {
    code: "SA312",
    name: "undeclared-use",
    severity: Severity::Warning,
    summary: "A script of the skill runs an executable or reads a variable its declaration leaves out",
    what: "The skill declares the executables and variables it needs in OpenClaw's `metadata.openclaw.requires` or Hermes' `prerequisites`, and one of its own scripts runs an executable or reads an environment variable that declaration does not list. Only the skill's scripts count, not its body's blocks, which often show alternatives and examples; neither do shells (`bash`, `sh`), a script's shebang (the body may run it with another interpreter), a command the script runs with a fallback (`x || true`, `x || echo ...`), nor scripts that install or set up the skill (`install.sh`, `setup.sh`, a `wizard/` folder).",
    why: "OpenClaw and Hermes show a skill only where what it declares is there. A script that needs more fails mid-task on a machine that has everything the skill declared.",
    example: "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"curl\"]}}}\nwhile scripts/fetch.sh runs `jq`\n\nFix: metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"curl\", \"jq\"]}}}",
    fix: None,
};

pub(crate) const USES_NOT_DECLARED: RuleDoc = RuleDoc {
    code: "SA313",
    name: "uses-not-declared",
    severity: Severity::Info,
    summary: "The skill declares nothing, but its body or scripts use executables, variables or MCP tools",
    what: "A skill that declares no requirement in any dialect, or whose OpenClaw or Hermes declaration lists no executable or variable (only packages, say), whose body's blocks and scripts run executables, read environment variables or name MCP tools (what skill-audit infers, see requirements.md). Shells (`bash`, `sh`, `zsh`) are not counted, whether a block runs them or a script's shebang names them: every machine that runs the skill's scripts has one, and libraries do not declare them.",
    why: "Hosts, registries and validators that read declarations see a skill that needs nothing, and show it where it cannot run. skill-audit judges the inferred needs, but only a declaration travels with the skill.",
    example: "```bash\ngh pr list --json number | jq length\n```\nin a skill with no declaration\n\nFix:\nmetadata:\n  openclaw:\n    requires:\n      bins:\n        - gh\n        - jq",
    fix: Some(FixDoc {
        applicability: Applicability::Unsafe,
        what: "Declare what the skill uses, at the end of its frontmatter: executables and variables in OpenClaw's `metadata.openclaw.requires` (`bins`, `env`, and `anyBins` for executables of which one is enough, as where each of the body's ways runs its own), or in Hermes' `prerequisites` (`commands`, `env_vars`, which cannot say one of several: then no fix is offered) where the library declares in Hermes' dialect and never in OpenClaw's; MCP tools in `dependencies.tools` (under `any` those a table lists of which the skill calls some), but only in a library where some skill already declares in `dependencies` (no host reads the proposal yet, and strict validators such as skills-ref reject a skill with that key; elsewhere a skill that names MCP tools gets no fix and the message says so). Only keys the frontmatter does not have yet are written, in block style (`bins:` and a `- gh` line per name), which every host reads and skills-ref accepts (it rejects flow style): `requires` goes into the OpenClaw block that `metadata` holds (`clawdbot:` gains a `requires:` block), else an `openclaw` block goes at the end of `metadata`. Inside a flow mapping, which can hold only flow, it is written as that mapping is (`{\"clawdbot\": {\"emoji\": \"x\"}}` gains `\"requires\"` in its spacing), and so is the mapping that a `metadata:` holding nothing (`metadata:`, `metadata: ~`) becomes, on its line. Where part of what was inferred has no place (a `metadata` that is a string or a list, an OpenClaw block that has a `requires` already, a `dependencies` already there), no fix is offered and the message says where to write it by hand, as a fix of the rest would end the finding with that part undeclared. Packages have no such place and are left out. Unsafe: OpenClaw hides a skill unless every executable in `requires.bins` is on `PATH` and every variable in `requires.env` is set, and the lists are what was inferred, which may name an executable only an example or one operating system's branch runs; review them before applying.",
    }),
};

pub(crate) const DECLARED_NOT_USED: RuleDoc = RuleDoc {
    code: "SA314",
    name: "declared-not-used",
    severity: Severity::Info,
    summary: "The skill declares an executable or variable that neither its text nor its scripts name",
    what: "An executable or environment variable that the skill's declaration (OpenClaw's `metadata.openclaw.requires`, Hermes' `prerequisites`, `dependencies`) lists, and that neither the SKILL.md after its frontmatter nor any script of the skill names as a word. Interpreters and package managers (`node`, `python3`, `npm`, `uv`, ...) are left out: a skill declares them for the scripts or tools it installs, which have no reason to name them. An import of a package known to run an executable (`whisper` and `ffmpeg-python` run `ffmpeg`, `pytesseract` runs `tesseract`, `pdf2image` runs `pdftoppm`) uses that executable; what other libraries run is not seen, so read the finding as a question.",
    why: "Hosts that read the declaration hide the skill wherever a declared need is missing. A need nothing uses hides the skill for no reason, and tells a reader it needs what it does not.",
    example: "metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"curl\", \"sqlite3\"]}}}\nin a skill whose text and scripts never run or mention `sqlite3`\n\nFix: metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"curl\"]}}}",
    fix: None,
};

pub(crate) const SCRIPT_NOT_READ: RuleDoc = RuleDoc {
    code: "SA315",
    name: "script-not-read",
    severity: Severity::Info,
    summary: "A script of the skill was not read for what it uses",
    what: "A script in the skill's folder, of the kinds whose uses are inferred (Python, shell, PowerShell, Node), that is over 1 MiB or not UTF-8 text. What it runs, imports and reads is not inferred, so the skill's cells may miss needs it has. Scripts in folders that are not run (tests, examples, references, templates) are not read at all and are not reported.",
    why: "A cell judged on what the skill uses should say when part of what it uses was not looked at; a large script is usually bundled or generated code, whose needs are its own.",
    example: "scripts/bundle.js is 3 MB of minified code\n\nFix: declare what the skill needs (`dependencies`, or its library's dialect), or keep generated code out of the skill's folder.",
    fix: None,
};

/// The SA315 finding for the script shown as `path`, which is not read because it is `why`.
pub(crate) fn script_not_read(path: &str, why: &str) -> Finding {
    Finding::new(
        Rule::ScriptNotRead,
        path,
        Pos::new(1, 1),
        format!(
            "this script {why}, so what it runs, imports and reads is not inferred; declare what the skill needs if the script needs more than its text shows"
        ),
    )
}

/// Interpreters and package managers: declared for what the skill installs or runs through
/// them, which is what its text names.
const INTERPRETERS: &[&str] = &[
    "bun",
    "cargo",
    "deno",
    "dotnet",
    "go",
    "java",
    "node",
    "nodejs",
    "npm",
    "npx",
    "perl",
    "php",
    "pip",
    "pip3",
    "pnpm",
    "powershell",
    "pwsh",
    "python",
    "python3",
    "ruby",
    "uv",
    "uvx",
    "yarn",
];

/// The SA314 findings of `skill`: each executable or variable a declaration of its SKILL.md
/// lists that its text and scripts never name, at its entry.
pub(crate) fn declared_unused(skill: &Skill, out: &mut Vec<Finding>) {
    if skill.invalid {
        return;
    }
    for u in &skill.fields.unnamed {
        let name = u.name.as_str();
        if u.kind == DepKind::Bins && (SHELLS.contains(&name) || INTERPRETERS.contains(&name)) {
            continue;
        }
        out.push(Finding::new(
            Rule::DeclaredNotUsed,
            &skill.path,
            u.at,
            format!(
                "{} in {} lists {}, which neither the SKILL.md's text nor its scripts name; if nothing the skill runs needs it, remove it: hosts that read the declaration hide the skill wherever it is missing",
                listed_in(u),
                u.source.place_in(u.block),
                quote(name)
            ),
        ).about(name));
    }
}

/// Shells: a machine that runs the skill's scripts has one, and no library declares them.
const SHELLS: &[&str] = &["bash", "sh", "zsh"];

/// The SA312 findings of `skill`: each executable or variable a script uses that its OpenClaw
/// or Hermes declaration leaves out, once, at that declaration.
pub(crate) fn undeclared_uses(skill: &Skill, out: &mut Vec<Finding>) {
    let Some(declared) = skill
        .requirements
        .iter()
        .find(|d| matches!(d.source, Origin::Openclaw | Origin::Hermes) && d.file.is_none())
    else {
        return;
    };
    let Some(inferred) = skill
        .requirements
        .iter()
        .find(|d| d.source == Origin::Inferred)
    else {
        return;
    };
    let pos = declared.at().unwrap_or(skill.name_pos);
    for kind in [DepKind::Bins, DepKind::Env] {
        // `inferred` asks only for what no declaration asked for already.
        for name in &inferred.requirements.group(kind).all {
            if kind == DepKind::Bins && SHELLS.contains(&name.as_str()) {
                continue;
            }
            let used = inferred.uses.iter().find(|u| {
                u.kind == kind
                    && &u.name == name
                    && u.file.as_deref().is_some_and(|f| !crate::parse::usage::installer(f))
                    && !u.evidence.contains("||")
                    // A shebang names an interpreter only for a script run by its path; the
                    // body may run it with another (`python x.py`).
                    && !u.evidence.starts_with("#!")
            });
            if let Some(u) = used {
                out.push(undeclared_use(skill, pos, declared, u));
            }
        }
    }
}

fn undeclared_use(skill: &Skill, pos: Pos, declared: &Declared, u: &Use) -> Finding {
    let verb = if u.kind == DepKind::Bins {
        "runs"
    } else {
        "reads"
    };
    let key = key(u.kind, declared.source);
    Finding::new(
        Rule::UndeclaredUse,
        &skill.path,
        pos,
        format!(
            "{} {verb} {}, which {} does not list; add it to {key}, or a machine without it shows the skill and then fails",
            quote(&u.place()),
            quote(&u.name),
            declared.place(),
        ),
    )
    .about(&u.name)
}

/// The key of the list `u` is an entry of, as its declaration spells it.
fn listed_in(u: &crate::model::Unnamed) -> std::borrow::Cow<'static, str> {
    match (u.list, u.source) {
        (Some("required_environment_variables"), _) => "`required_environment_variables`".into(),
        (Some(list), Origin::Hermes) => format!("`prerequisites.{list}`").into(),
        (Some(list), Origin::Openclaw) => format!("`requires.{list}`").into(),
        _ => key(u.kind, u.source).into(),
    }
}

/// The key of a `source` declaration that lists executables (`kind` bins) or variables.
fn key(kind: DepKind, source: Origin) -> &'static str {
    match (kind, source) {
        (DepKind::Bins, Origin::Hermes) => "`prerequisites.commands`",
        (DepKind::Bins, Origin::Openclaw) => "`requires.bins`",
        (_, Origin::Hermes) => "`prerequisites.env_vars`",
        (_, Origin::Openclaw) => "`requires.env`",
        (DepKind::Bins, _) => "`bins`",
        _ => "`env`",
    }
}

/// Which dialect a library writes executables and variables in: Hermes' only where some skill
/// declares in it and none in OpenClaw's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Openclaw,
    Hermes,
}

impl Dialect {
    pub(crate) fn of_library(skills: &[Box<Skill>]) -> Dialect {
        let uses = |o: Origin| {
            skills
                .iter()
                .any(|s| s.requirements.iter().any(|d| d.source == o))
        };
        if uses(Origin::Hermes) && !uses(Origin::Openclaw) {
            Dialect::Hermes
        } else {
            Dialect::Openclaw
        }
    }
}

/// The SA313 finding of `skill`, when it declares nothing and uses what a declaration can say,
/// with the fix that writes the declaration in `dialect`; `proposal`: the library declares in
/// `dependencies` (see [`super::deps::library_uses_proposal`]), so a fix may add it.
pub(crate) fn uses_not_declared(
    skill: &Skill,
    dialect: Dialect,
    proposal: bool,
) -> Option<Finding> {
    let end = skill.fields.frontmatter_end?;
    if skill.invalid
        || skill
            .requirements
            .iter()
            .any(|d| !matches!(d.source, Origin::Inferred | Origin::AllowedTools))
    {
        return None;
    }
    let inferred = skill
        .requirements
        .iter()
        .find(|d| d.source == Origin::Inferred)?;
    let r = &inferred.requirements;
    let bins: Vec<String> = r
        .group(DepKind::Bins)
        .all
        .iter()
        .filter(|b| !SHELLS.contains(&b.as_str()))
        .cloned()
        .collect();
    // One of several executables, as where each of the body's ways runs its own: OpenClaw's
    // `requires.anyBins` says so; Hermes' `prerequisites` cannot.
    let any_bins: Vec<String> = r
        .group(DepKind::Bins)
        .any
        .iter()
        .flatten()
        .filter(|b| !SHELLS.contains(&b.as_str()))
        .cloned()
        .collect();
    let env = &r.group(DepKind::Env).all;
    // The host's own tools are the host's to have; MCP tools are what a declaration names.
    fn mcp(names: &[String]) -> impl Iterator<Item = &String> {
        names.iter().filter(|t| t.contains('/'))
    }
    let every_tool: Vec<&String> = mcp(&r.tools.all).collect();
    // Tools of which the skill calls some (a table of them): declared under `any`.
    let one_of_tools: Vec<&String> = mcp(r.tools.any.as_deref().unwrap_or_default()).collect();
    let tools: Vec<&String> = every_tool.iter().chain(&one_of_tools).copied().collect();
    let uses: Vec<&str> = bins
        .iter()
        .chain(&any_bins)
        .chain(env)
        .chain(tools.iter().copied())
        .map(String::as_str)
        .collect();
    if uses.is_empty() {
        return None;
    }
    // Each name's first use; the finding points at the first of all, and a name first used
    // in a script is shown with where, as the SKILL.md does not show it.
    let mut firsts: foldhash::HashMap<&str, &crate::model::Use> = foldhash::HashMap::default();
    for u in &inferred.uses {
        firsts
            .entry(u.name.as_str())
            .and_modify(|f| {
                if f.file.is_some() && u.file.is_none() {
                    *f = u;
                }
            })
            .or_insert(u);
    }
    let first_of = |name: &str| firsts.get(name).copied();
    let first = uses
        .iter()
        .filter_map(|n| first_of(n))
        .min_by_key(|u| (u.file.is_some(), u.line, u.column));
    let pos = match first {
        Some(u) if u.file.is_none() => Pos::new(u.line, u.column),
        _ => skill.name_pos,
    };
    let shown = |n: &&str| match first_of(n) {
        Some(u) if u.file.is_some() => format!("{} ({})", quote(n), quote(&u.place())),
        _ => quote(n),
    };
    let mut listed: Vec<String> = uses
        .iter()
        .filter(|n| !any_bins.iter().any(|b| b == *n))
        .map(shown)
        .collect();
    if !any_bins.is_empty() {
        let either: Vec<String> = any_bins.iter().map(|n| shown(&n.as_str())).collect();
        listed.push(format!("one of {}", either.join(", ")));
    }
    let listed = listed.join(", ");
    let machine = match dialect {
        Dialect::Openclaw => "`metadata.openclaw.requires`",
        Dialect::Hermes => "Hermes' `prerequisites`",
    };
    let writes_machine = !bins.is_empty() || !any_bins.is_empty() || !env.is_empty();
    let place = match (writes_machine, tools.is_empty()) {
        (true, true) => machine.to_owned(),
        (false, false) => "`dependencies.tools`".to_owned(),
        _ => format!("{machine} and `dependencies.tools`"),
    };
    let uses = crate::diagnostic::quoted(&uses);
    // A part the fix cannot write: a fix of the rest would end the finding and leave that
    // part undeclared, so there is none, and the message says what to write by hand.
    let blocked_machine = match dialect {
        Dialect::Openclaw if writes_machine && end.has_metadata && end.metadata_room.is_none() => {
            Some(end.metadata_blocked.unwrap_or(Blocked::Layout))
        }
        _ => None,
    };
    let blocked_hermes = dialect == Dialect::Hermes && writes_machine && end.has_prerequisites;
    let unsaid_either = dialect == Dialect::Hermes && !any_bins.is_empty();
    let blocked_tools = !tools.is_empty() && end.has_dependencies;
    let unproposed_tools = !tools.is_empty() && !proposal;
    // What goes where, in a declaration that is there already, by its keys (`bins`, `env`).
    let add_to = |bins_key: &str, env_key: &str| {
        let mut parts = Vec::new();
        if !bins.is_empty() {
            parts.push(format!("the executables to its `{bins_key}`"));
        }
        if !env.is_empty() {
            parts.push(format!("the variables to its `{env_key}`"));
        }
        if !tools.is_empty() {
            parts.push("the MCP tools to `dependencies.tools`".to_owned());
        }
        let parts: Vec<&str> = parts.iter().map(String::as_str).collect();
        crate::words::and_list(&parts)
    };
    let message = match (blocked_machine, blocked_hermes) {
        (Some(Blocked::Requires(block)), _) => format!(
            "the skill's `metadata.{block}.requires` lists no executable or variable, but the skill uses {listed}; hosts and registries that read it see a skill that needs none of them, so add {} (no fix is offered: that `requires` is written by hand)",
            add_to("bins", "env")
        ),
        (Some(Blocked::NotMapping), _) => format!(
            "the skill declares nothing, but it uses {listed}; its `metadata` is not a mapping, so no fix can add a declaration to it: make `metadata` a mapping and declare them in {place}"
        ),
        (Some(Blocked::Layout), _) => format!(
            "the skill declares nothing, but it uses {listed}; no fix can add a line to its `metadata` as it is laid out, so declare them in {place} by hand"
        ),
        (None, true) => format!(
            "the skill's `prerequisites` lists no command or variable, but the skill uses {listed}; hosts that read it see a skill that needs none of them, so add {}",
            add_to("commands", "env_vars")
        ),
        (None, false) if unsaid_either => format!(
            "the skill declares nothing, but it uses {listed}; Hermes' `prerequisites` cannot say that one of several commands is enough, so no fix is offered: declare the others in {place} by hand and say in the text which of those commands it needs"
        ),
        (None, false) if blocked_tools => format!(
            "the skill declares nothing, but it uses {listed}; its `dependencies` names no MCP tool and no fix adds to it, so declare them in {place} by hand"
        ),
        (None, false) if unproposed_tools => format!(
            "the skill declares nothing, but it uses {listed}; hosts and registries that read declarations see a skill that needs nothing, so declare them in {place} by hand: `dependencies` is a proposal no skill of this library uses yet, and strict validators (skills-ref, claude.ai uploads) reject a skill that has it"
        ),
        (None, false) => format!(
            "the skill declares nothing, but it uses {listed}; hosts and registries that read declarations see a skill that needs nothing, so declare them in {place}"
        ),
    };
    // Its line is the first use, which an edit elsewhere can change: the uses are the subject.
    let finding = Finding::new(Rule::UsesNotDeclared, &skill.path, pos, message).about(&uses);
    if blocked_machine.is_some()
        || blocked_hermes
        || unsaid_either
        || blocked_tools
        || unproposed_tools
    {
        return Some(finding);
    }
    let edits = declaration(
        &end,
        dialect,
        (&bins, &any_bins),
        env,
        (&every_tool, &one_of_tools),
    );
    let fix = (!edits.is_empty())
        .then(|| Fix::unsafe_edits(fix_message(dialect, &bins, &any_bins, env), edits));
    Some(finding.with_fix(fix))
}

/// What the SA313 fix does, with what it gates: the lists it writes are what was inferred,
/// which a reader should check before a host hides the skill over a wrong entry.
fn fix_message(dialect: Dialect, bins: &[String], any_bins: &[String], env: &[String]) -> String {
    let (host, bins_key, env_key) = match dialect {
        Dialect::Openclaw => ("OpenClaw", "`requires.bins`", "`requires.env`"),
        Dialect::Hermes => (
            "Hermes",
            "`prerequisites.commands`",
            "`prerequisites.env_vars`",
        ),
    };
    let mut gates = Vec::new();
    if !bins.is_empty() {
        gates.push(format!("every executable in {bins_key} is on `PATH`"));
    }
    if !any_bins.is_empty() {
        gates.push("one executable in `requires.anyBins` is on `PATH`".to_owned());
    }
    if !env.is_empty() {
        gates.push(format!("every variable in {env_key} is set"));
    }
    if gates.is_empty() {
        return "declare the MCP tools this skill uses".to_owned();
    }
    let gates: Vec<&str> = gates.iter().map(String::as_str).collect();
    let gate = crate::words::and_list(&gates);
    format!(
        "declare what this skill uses; {host} hides the skill unless {gate}: check these inferred lists before applying"
    )
}

/// The edits that write `bins`, `env` and `tools` as a declaration in `dialect`, each where
/// the frontmatter has room for it: a new key at its end, OpenClaw's `requires` in the
/// OpenClaw block of `metadata`, or that block in `metadata`. Written in block style, which
/// every host reads and strict validators (skills-ref rejects flow style) accept, except
/// inside a flow mapping, which can hold only flow. What has no room (an OpenClaw block with
/// `requires`, a `dependencies` already there) is left out.
fn declaration(
    end: &FrontmatterEnd,
    dialect: Dialect,
    (bins, any_bins): (&[String], &[String]),
    env: &[String],
    (tools, one_of_tools): (&[&String], &[&String]),
) -> Vec<Edit> {
    let brk = end.line_break();
    // (byte offset, where, text) of each insertion.
    let mut inserts: Vec<(u32, Pos, String)> = Vec::new();
    // A `metadata` that holds nothing has its value replaced.
    let mut replaces: Vec<Edit> = Vec::new();
    let line_start = |line: u32| Pos::new(line, 1);
    if !bins.is_empty() || !any_bins.is_empty() || !env.is_empty() {
        let room = end.metadata_room;
        let (bins_key, env_key) = match dialect {
            Dialect::Openclaw => ("bins", "env"),
            Dialect::Hermes => ("commands", "env_vars"),
        };
        let lists: Vec<(&str, &[String])> =
            [(bins_key, bins), ("anyBins", any_bins), (env_key, env)]
                .into_iter()
                .filter(|(_, names)| !names.is_empty())
                .collect();
        let block = |indent: usize, keys: &[&str]| span::block_lists(indent, keys, &lists, brk);
        // In a flow mapping: written as the mapping is, `{"a": 1}` or `{"a":1}`.
        let compact = matches!(room, Some(MetadataRoom::Flow { compact: true, .. }));
        let (colon, comma) = if compact { (":", ",") } else { (": ", ", ") };
        let flow_requires = || {
            let json = |names: &[String]| {
                let quoted: Vec<String> = names
                    .iter()
                    .map(|n| serde_json::to_string(n).unwrap_or_default())
                    .collect();
                format!("[{}]", quoted.join(comma))
            };
            let parts: Vec<String> = lists
                .iter()
                .map(|(key, names)| format!("\"{key}\"{colon}{}", json(names)))
                .collect();
            format!("\"requires\"{colon}{{{}}}", parts.join(comma))
        };
        match (dialect, room) {
            (Dialect::Openclaw, _) if !end.has_metadata => inserts.push((
                end.offset,
                line_start(end.line),
                block(0, &["metadata", "openclaw", "requires"]),
            )),
            (
                Dialect::Openclaw,
                Some(MetadataRoom::Block {
                    offset,
                    line,
                    indent,
                    inner,
                }),
            ) => {
                let keys: &[&str] = if inner {
                    &["requires"]
                } else {
                    &["openclaw", "requires"]
                };
                inserts.push((offset, line_start(line), block(indent as usize, keys)));
            }
            (
                Dialect::Openclaw,
                Some(MetadataRoom::Flow {
                    offset,
                    at,
                    inner,
                    empty,
                    ..
                }),
            ) => {
                let entry = if inner {
                    flow_requires()
                } else {
                    format!("\"openclaw\"{colon}{{{}}}", flow_requires())
                };
                let sep = if empty { "" } else { comma };
                inserts.push((offset, at, format!("{sep}{entry}")));
            }
            (
                Dialect::Openclaw,
                Some(MetadataRoom::Null {
                    start,
                    end: to,
                    at,
                    end_at,
                }),
            ) => {
                // On the key's own line, before any comment: a flow mapping fits there.
                if let (Ok(start), Ok(to)) = (usize::try_from(start), usize::try_from(to)) {
                    replaces.push(Edit {
                        start,
                        end: to,
                        content: format!(" {{\"openclaw\": {{{}}}}}", flow_requires()),
                        location: at,
                        end_location: end_at,
                    });
                }
            }
            (Dialect::Openclaw, None) => {}
            (Dialect::Hermes, _) if !end.has_prerequisites => inserts.push((
                end.offset,
                line_start(end.line),
                block(0, &["prerequisites"]),
            )),
            (Dialect::Hermes, _) => {}
        }
    }
    let writes_tools = !tools.is_empty() || !one_of_tools.is_empty();
    if writes_tools && !end.has_dependencies {
        let text = super::deps::dependencies_key(tools, one_of_tools, brk);
        // One edit per place: after a `metadata` that ends the frontmatter, both go there.
        match inserts.iter_mut().find(|(o, _, _)| *o == end.offset) {
            Some((_, _, existing)) => existing.push_str(&text),
            None => inserts.push((end.offset, line_start(end.line), text)),
        }
    }
    let mut edits: Vec<Edit> = inserts
        .into_iter()
        .filter_map(|(offset, at, content)| Edit::insert(offset, at, content))
        .chain(replaces)
        .collect();
    edits.sort_by_key(|e| (e.start, e.end));
    edits
}
