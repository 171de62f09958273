//! A SKILL.md body: its fenced blocks by language and role, the sections and lead-ins that
//! offer one way among several or address the person installing, and the uses read from them.

use super::mentions::{mentioned, occurring, word_runs};
use super::powershell::powershell;
use super::shell::{assign, shell};
use super::tools::{References, named_servers, tools_of_text};
use super::{Names, contains_ci, interpreter_of, span_holding, starts_ci};
use crate::model::{DepKind, Use};
use std::borrow::Cow;

/// The fenced blocks of a body that an agent runs, by their info string.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Lang {
    /// `sh`, `bash`, `shell`, `zsh`: every line is a command, unless the block shows prompts.
    Shell,
    /// `console`, `shell-session`, `terminal`: only the lines after a `$ ` prompt.
    Console,
    /// `powershell`, `pwsh`, `ps1`.
    PowerShell,
}

pub(super) fn lang_of(info: &str) -> Option<Lang> {
    let word = info
        .trim()
        .trim_start_matches('{')
        .split(|c: char| c.is_whitespace() || c == ',' || c == '}')
        .next()
        .unwrap_or("")
        .trim_start_matches('.')
        .to_ascii_lowercase();
    match word.as_str() {
        "sh" | "bash" | "shell" | "zsh" => Some(Lang::Shell),
        "console" | "shell-session" | "shellsession" | "terminal" => Some(Lang::Console),
        "powershell" | "pwsh" | "ps1" | "ps" => Some(Lang::PowerShell),
        _ => None,
    }
}

/// The interpreters that run the code of a fenced block's language (`python`, `js`).
fn interpreters_of(info: &str) -> &'static [&'static str] {
    let word = info
        .trim()
        .split(|c: char| c.is_whitespace() || c == ',' || c == '{' || c == '}')
        .find(|w| !w.is_empty())
        .unwrap_or("");
    match word.to_ascii_lowercase().as_str() {
        "python" | "python3" | "py" => &["python", "python3"],
        "javascript" | "js" | "mjs" | "cjs" | "node" => &["node"],
        _ => &[],
    }
}

/// The words that say a block is what the user types in their own terminal, not what the agent
/// runs: looked for in the heading above the block and the lines of text just before it.
pub(super) const USER_SIGNALS: &[&str] = &[
    "in your terminal",
    "in a terminal",
    "open terminal",
    "open a terminal",
    "in terminal",
    "from your terminal",
    "in your shell",
    "your own terminal",
    "run this yourself",
    "you can run",
    "you run",
    "to install this skill",
    "to install the skill",
    "install this skill",
    "install the skill",
    // What the person does with what the skill made (`After generation:` then `cargo build`).
    "after generation",
];

/// Headings whose sections are for the person installing the skill; not what comes after
/// (`After Installation`).
pub(super) fn user_heading(title: &str) -> bool {
    contains_ci(title, "install") && !starts_ci(lead(title), "after ")
}

/// Whether a heading's title names the person's one-time set-up before the skill is used and
/// nothing else: `## Setup`, `### Prerequisites`, `## 1. First-Time Setup (Required)`,
/// `## Setup & Configuration`. What it runs (a token fetched with `curl`, a cloud resource
/// created) is done once by them, not what the agent runs. A set-up of something named
/// (`## Project Setup`, `### Bot Setup`, `### Brand Voice (First Time Setup)`) is often the
/// skill's own work, and a section after it (`After Setup`) is not one.
pub(super) fn setup_heading(title: &str) -> bool {
    /// The words of such a title: the set-up and what may qualify it.
    const WORDS: &[&str] = &[
        "setup",
        "set",
        "up",
        "prerequisite",
        "prerequisites",
        "checklist",
        "initial",
        "one",
        "first",
        "time",
        "run",
        "required",
        "quick",
        "account",
        "and",
        "configuration",
        "install",
        "installation",
    ];
    // Its numbering (`1.`, `Step 2:`) and marks before it, and a note after it in
    // parentheses (`(once per environment)`).
    let t = lead(title).trim_start_matches(|c: char| !c.is_ascii_alphabetic());
    let t = match t.get(..5) {
        Some(step) if step.eq_ignore_ascii_case("step ") => {
            t[5..].trim_start_matches(|c: char| !c.is_ascii_alphabetic())
        }
        _ => t,
    };
    let t = t.split('(').next().unwrap_or(t);
    let mut words = t
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .peekable();
    let mut set_up = false;
    while let Some(w) = words.next() {
        let w = w.to_ascii_lowercase();
        if !WORDS.contains(&w.as_str()) {
            return false;
        }
        set_up |= w == "setup"
            || w.starts_with("prerequisite")
            || w == "set" && words.peek().is_some_and(|n| n.eq_ignore_ascii_case("up"));
    }
    set_up
}

/// Words of the first line of a section that tell the reader they must set something up for
/// what it describes: `For instant alerts, you need to set up Google Cloud Pub/Sub with a
/// webhook.` The section, and those below it, are that set-up's steps.
const SET_UP_LEADS: &[&str] = &[
    "you need to set up",
    "you'll need to set up",
    "you will need to set up",
    "you must set up",
    "you need to configure",
    "you'll need to configure",
    "you will need to configure",
    "you must configure",
];

/// Whether the first line of a section below the skill's title says it is a set-up the
/// reader does ([`SET_UP_LEADS`]); not where it asks whether (`First determine whether you
/// need to set up monitoring`): a skill may set things up as its work.
pub(super) fn setup_lead(line: &str) -> bool {
    // Every section's first line is read: one search for all of them.
    static LEADS: std::sync::LazyLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::LazyLock::new(|| {
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(SET_UP_LEADS)
                .ok()
        });
    let Some(leads) = LEADS.as_ref() else {
        return false;
    };
    leads.find_iter(line).any(|m| {
        let before = line[..m.start()].to_ascii_lowercase();
        !before.contains("whether") && !before.contains("if ")
    })
}

/// Of what the ways of doing one thing use (each use with the line its way starts on), what
/// two ways or more use: whichever way is taken needs it. The rest is not needed by the skill.
pub(super) fn shared_by_ways(mut ways: Vec<(usize, Use)>) -> Vec<Use> {
    ways.sort_by(|a, b| (a.1.kind, &a.1.name, a.0).cmp(&(b.1.kind, &b.1.name, b.0)));
    let mut out = Vec::new();
    for same in ways.chunk_by(|a, b| a.1.kind == b.1.kind && a.1.name == b.1.name) {
        if same.iter().any(|w| w.0 != same[0].0)
            && let Some(first) = same.iter().min_by_key(|w| (w.1.line, w.1.column))
        {
            out.push(first.1.clone());
        }
    }
    out
}

/// The uses of a body whose every use is in one way or another. Where each way needs at most
/// one name of a kind that no other way shares (`cloudflared` under `Option A`, `tailscale`
/// under `Option B`), one of those names is needed: they are marked `one_of`, which makes them
/// an `any` group. Otherwise, and for names two ways share, each is kept as needed.
fn one_of_the_ways(ways: Vec<(usize, Use)>) -> Vec<Use> {
    let mut seen: Vec<(DepKind, &str, usize)> = ways
        .iter()
        .map(|(w, u)| (u.kind, u.name.as_str(), *w))
        .collect();
    seen.sort_unstable();
    seen.dedup();
    // Each name one way alone uses, with that way.
    let mut own: Vec<(DepKind, usize, &str)> = seen
        .chunk_by(|a, b| a.0 == b.0 && a.1 == b.1)
        .filter(|name| name.len() == 1)
        .map(|name| (name[0].0, name[0].2, name[0].1))
        .collect();
    own.sort_unstable();
    let mut either: Vec<DepKind> = Vec::new();
    for kind in own.chunk_by(|a, b| a.0 == b.0) {
        let one_each = kind.chunk_by(|a, b| a.1 == b.1).all(|way| way.len() == 1);
        if one_each && kind.len() > 1 {
            either.push(kind[0].0);
        }
    }
    let own: foldhash::HashSet<(DepKind, String)> = own
        .into_iter()
        .filter(|(k, _, _)| either.contains(k))
        .map(|(k, _, n)| (k, n.to_owned()))
        .collect();
    ways.into_iter()
        .map(|(_, mut u)| {
            u.one_of = own.contains(&(u.kind, u.name.clone()));
            u
        })
        .collect()
}

/// The tools and executables a body offers a way round: `If #tool:runSubagent is unavailable,
/// ...`, `Use the `web` tool or another suitable MCP method`, `If shell or `gh` CLI access is
/// unavailable: ask the user to paste ...`. Such a tool or executable is no need. Found from
/// the phrases, which are rare, each with the name written before it. An executable counts
/// only after an `if` on its line, or before `or another`: "`x` is not installed" is mostly
/// the error a skill prints when it cannot go on.
pub(super) fn ways_round(body: &str) -> WaysRound {
    const PHRASES: &[(&str, bool)] = &[
        (" is unavailable", true),
        (" is not available", true),
        (" isn't available", true),
        (" is not installed", false),
        (" or another", true),
        (" or any other", true),
        (" or a similar", true),
    ];
    static FINDERS: std::sync::LazyLock<Vec<memchr::memmem::Finder<'static>>> =
        std::sync::LazyLock::new(|| {
            PHRASES
                .iter()
                .map(|(p, _)| memchr::memmem::Finder::new(p))
                .collect()
        });
    let mut out = WaysRound::default();
    for (finder, (phrase, of_bins)) in FINDERS.iter().zip(PHRASES) {
        // The line of the last name and whether an `if ` is on it before that name, kept from
        // phrase to phrase: names come in order, so a long line is read once, not once each.
        let mut line = IfOnLine::default();
        for at in finder.find_iter(body.as_bytes()) {
            let mut before = &body[..at];
            while let Some(shorter) = [" tool", " access", " CLI", " command"]
                .iter()
                .find_map(|w| before.strip_suffix(w))
            {
                before = shorter;
            }
            let before = before.trim_end_matches('`');
            let start = before
                .rfind(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '/' | '.')))
                .map_or(0, |i| i + 1);
            if start == before.len() {
                continue;
            }
            let name = &before[start..];
            assign(&mut out.tools, name);
            if *of_bins && (phrase.starts_with(" or ") || line.before(body, start)) {
                assign(&mut out.bins, name);
            }
        }
    }
    out
}

/// Whether an `if ` (in any case) stands on the line of a place before it, for places asked in
/// order: each byte is read once for the line's start and once for its `if `.
#[derive(Default)]
struct IfOnLine {
    /// Where the line of the last place asked starts, and that place.
    start: usize,
    last: usize,
    /// The first `if ` at or after `start`, once looked for: its place, or none left.
    first_if: Option<Option<usize>>,
}

impl IfOnLine {
    fn before(&mut self, text: &str, at: usize) -> bool {
        let bytes = text.as_bytes();
        if at < self.last {
            *self = IfOnLine::default();
        }
        if let Some(newline) = memchr::memrchr(b'\n', &bytes[self.last..at]) {
            self.start = self.last + newline + 1;
            // An `if ` found before the new line's start is not on it.
            if self
                .first_if
                .is_some_and(|f| f.is_some_and(|f| f < self.start))
            {
                self.first_if = None;
            }
        }
        self.last = at;
        let start = self.start;
        let first_if = *self.first_if.get_or_insert_with(|| {
            bytes[start..]
                .windows(3)
                .position(|w| w.eq_ignore_ascii_case(b"if "))
                .map(|i| start + i)
        });
        first_if.is_some_and(|f| f + 3 <= at)
    }
}

/// What [`ways_round`] finds.
#[derive(Default)]
pub(super) struct WaysRound {
    pub(super) tools: Names,
    pub(super) bins: Names,
}

/// Leave out the tools a body names only where it says they are not always called: in a line
/// that calls one "only when" or "only if" something holds (`Use `list_docs` only when you
/// need to browse`), and in tables (`| `projects_get` | Get a project |`) where it names other
/// tools in its text, for a table that lists a server's tools is a reference and the steps
/// name the ones the skill calls. A body that names tools only in tables keeps them.
fn tools_not_always_called(out: &mut Vec<Use>, lines: &[&str], first_line: u32) {
    /// A line's marks, in characters from its start: where its sentences end, and where it
    /// says "only when" or "only if". Read once for a line, which may name thousands of tools.
    struct Marks {
        table: bool,
        ends: Vec<u32>,
        only: Vec<u32>,
    }
    fn marks(line: &str) -> Marks {
        let (mut ends, mut only) = (Vec::new(), Vec::new());
        for (column, (i, c)) in (1u32..).zip(line.char_indices()) {
            if matches!(c, '.' | ';') {
                ends.push(column);
            } else if c == ' '
                && [" only when ", " only if "]
                    .iter()
                    .any(|p| starts_ci(&line[i..], p))
            {
                only.push(column);
            }
        }
        Marks {
            table: line.trim_start().starts_with('|'),
            ends,
            only,
        }
    }
    let mut read: foldhash::HashMap<u32, Marks> = foldhash::HashMap::default();
    let (mut called, mut tabled) = (Names::default(), Names::default());
    for u in out.iter().filter(|u| u.kind == DepKind::Tools) {
        let m = read.entry(u.line).or_insert_with(|| {
            marks(
                lines
                    .get(u.line.saturating_sub(first_line) as usize)
                    .copied()
                    .unwrap_or(""),
            )
        });
        // "Only when" later in the use's own sentence.
        let only = m.only.get(m.only.partition_point(|p| *p < u.column));
        let end = m.ends.get(m.ends.partition_point(|e| *e < u.column));
        let conditional = only.is_some_and(|o| end.is_none_or(|e| o < e));
        if m.table {
            assign(&mut tabled, &u.name);
        } else if !conditional {
            assign(&mut called, &u.name);
        }
    }
    // Where no step calls a tool, the tables are all the body says of them: the skill calls
    // some of what they list, and which depends on the task.
    let one_of = called.is_empty() && tabled.len() > 1;
    let keep = if called.is_empty() { tabled } else { called };
    out.retain(|u| u.kind != DepKind::Tools || keep.contains(&u.name));
    if one_of {
        for u in out.iter_mut().filter(|u| u.kind == DepKind::Tools) {
            u.one_of = true;
        }
    }
}

/// Words that mark a way of doing something as one among others, or as not needed.
pub(super) const ONE_WAY_OF_SEVERAL: &[&str] = &["alternative", "optional", "fallback", "legacy"];

/// A line's text without the Markdown marks before it.
pub(super) fn lead(line: &str) -> &str {
    line.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '#' | '*' | '_' | '>' | '-'))
}

/// The words that label one way among several when followed by its mark (`Option B:`,
/// `Path A:`, `Method 2:`, `Approach 1:`).
const WAY_LABELS: &[&str] = &["option ", "path ", "method ", "approach "];

/// How a method that makes what the methods after it work on starts its title (`Method 1:
/// Create New Site`, then `Method 2: Build Static Site`): those are steps, not ways.
const FIRST_STEPS: &[&str] = &["create", "new ", "set up", "setup", "init"];

/// Whether `t` starts by naming an option by a label (`Option B:`, `Path A:`, `Method 2:`),
/// or names one in parentheses (`(option 2)`).
pub(super) fn option_label(t: &str) -> bool {
    let labelled = |t: &str| {
        WAY_LABELS.iter().any(|word| {
            let label = t.as_bytes().get(word.len()..).unwrap_or_default();
            starts_ci(t, word)
                && label.first().is_some_and(u8::is_ascii_alphanumeric)
                && label.get(1).is_none_or(|b| !b.is_ascii_alphanumeric())
                && !(*word == "method " && first_step(t.get(word.len() + 1..).unwrap_or("")))
        })
    };
    labelled(t) || t.match_indices('(').any(|(at, _)| labelled(&t[at + 1..]))
}

/// Whether what follows a method's label (`: Create New Site`) makes what later ones use.
fn first_step(after_label: &str) -> bool {
    let title = after_label.trim_start_matches(|c: char| !c.is_alphanumeric());
    FIRST_STEPS.iter().any(|w| starts_ci(title, w))
}

/// Whether a heading says its section is one way among others, or optional: `Option B:
/// Tailscale Funnel`, `Reset Detection Monitor (Alternative)`, `Fallback`, `Legacy`,
/// `Optional: ...`, `Integration with other tools`. What such a section alone runs is not
/// something the skill needs.
pub(super) fn alternative_heading(title: &str) -> bool {
    option_label(title)
        || ONE_WAY_OF_SEVERAL.iter().any(|w| contains_ci(title, w))
        || PAIRED_WITH.iter().any(|w| contains_ci(title, w))
}

/// Words of a heading whose section shows the skill's subject used together with other tools
/// (`Integration with other tools`, `Integration Examples › With ripgrep`): each pairing is
/// one the person may choose, not one the skill needs. A section named for an integration the
/// skill is about (`AI Integrations`, `Git integration`) says neither.
const PAIRED_WITH: &[&str] = &[
    "integration with",
    "integrations with",
    "integration example",
];

/// Whether a heading's section says what to do when something goes wrong
/// ([`WHEN_IT_FAILS`]): read as one of the body's other ways.
pub(super) fn troubleshooting_heading(title: &str) -> bool {
    WHEN_IT_FAILS.iter().any(|w| contains_ci(title, w))
}

/// Words of a heading whose section says what to do when something goes wrong: what its tips
/// run (`psql` to check an optional database backend) is for that case, not the skill's work.
const WHEN_IT_FAILS: &[&str] = &[
    "troubleshoot",
    "common issues",
    "common problems",
    "common errors",
    "known issues",
];

/// Whether a line just before a block offers it as one way among others: `**Option B:
/// Tailscale Funnel**`, `Or add it directly:`, `Alternatively, ...`, `Optional: ...`,
/// `Run the monitor (alternative):`.
pub(super) fn alternative_lead(line: &str) -> bool {
    let t = lead(line);
    option_label(t)
        || starts_ci(t, "or ")
        || starts_ci(t, "or,")
        || ONE_WAY_OF_SEVERAL.iter().any(|w| starts_ci(t, w))
        || t.match_indices('(').any(|(at, _)| {
            ONE_WAY_OF_SEVERAL
                .iter()
                .any(|w| starts_ci(&t[at + 1..], w))
        })
}

/// The titles of the headings right under a heading that presents the skill's own tools
/// (`## Tools`, `## Available Tools`), where each is one name: `### duby_tts`. A section
/// of tools the skill needs (`## Required Tools`) is not such a heading.
fn own_tool_headings<'t>(headings: impl Iterator<Item = (usize, &'t str)>) -> Vec<&'t str> {
    let mut out = Vec::new();
    // The level of the open `## Tools` heading.
    let mut tools_level = None;
    for (level, line) in headings {
        let Some(title) = heading_title(line.trim_start()) else {
            continue;
        };
        if tools_level.is_some_and(|l| level <= l) {
            tools_level = None;
        }
        let plain = title.trim().trim_matches('`');
        match tools_level {
            Some(l) if level == l + 1 => {
                if !plain.is_empty()
                    && plain
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
                {
                    out.push(plain);
                }
            }
            Some(_) => {}
            None => {
                if [
                    "tools",
                    "available tools",
                    "provided tools",
                    "tools provided",
                ]
                .iter()
                .any(|w| plain.eq_ignore_ascii_case(w))
                {
                    tools_level = Some(level);
                }
            }
        }
    }
    out
}

/// Whether the text just before a block runs it only in some case: `If not present, install
/// it:`, `**If channel is Telegram:**`. Such a block is one way among others.
pub(super) fn conditional_lead(line: &str) -> bool {
    let t = lead(line).trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '*' | '_'));
    starts_ci(t, "if ") && t.ends_with(':')
}

/// Whether the first line of a section says when to skip it: `> Skip this section if using
/// the CLI backend.`
pub(super) fn skip_note(line: &str) -> bool {
    let t = lead(line);
    starts_ci(t, "skip this section") || starts_ci(t, "only if ")
}

/// Whether a skill's work is installing or setting up things (its title, the first `# `
/// heading, says so: `# Sandbox npm Install`, `# AWS CDK Python Setup`): then its install
/// sections are what the agent runs, not the person's set-up ([`user_heading`]).
pub(super) fn installs_as_its_work(body: &str) -> bool {
    outside_blocks(body)
        .find_map(|(_, t)| t.strip_prefix("# "))
        .is_some_and(|title| {
            ["install", "setup", "set up"]
                .iter()
                .any(|w| contains_ci(title, w))
        })
}

/// What a skill's body says of what the skill uses.
#[derive(Default)]
pub(crate) struct BodyUses {
    /// The commands, variables and tools of its shell blocks, and the tools it names in a
    /// host's syntax.
    pub(crate) uses: Vec<Use>,
    /// The scripts it runs only in a way among others ([`scripts_of_other_ways`]) or in the
    /// person's set-up ([`user_sections`]).
    pub(crate) scripts_of_other_ways: Vec<String>,
}

/// The uses in a skill's body (its first line is line `first_line` of the SKILL.md).
pub(crate) fn of_body(body: &str, first_line: u32, mcp_servers: &[String]) -> Vec<Use> {
    read_body(body, first_line, mcp_servers).uses
}

/// What a skill's body (its first line is line `first_line` of the SKILL.md) says it uses.
pub(crate) fn read_body(body: &str, first_line: u32, mcp_servers: &[String]) -> BodyUses {
    let mut out = Vec::new();
    // Most bodies are prose: no fence, no tool reference, no phrase about a tool in a code
    // span; nothing to read, and these few searches are all they cost.
    let fenced = body.contains("```") || body.contains("~~~");
    if !fenced
        && !body.contains("mcp__")
        && !body.contains("#tool:")
        && !(body.contains('`') && (body.contains("tool") || body.contains("Tool")))
    {
        return BodyUses::default();
    }
    let lines: Vec<&str> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    // Which references the body makes at all, so that a line is searched only for those.
    let refs = References {
        mcp: body.contains("mcp__"),
        tool: body.contains("#tool:"),
    };
    // The open sections: whether each is for the person installing the skill
    // ([`user_heading`]), whether it is their one-time set-up ([`setup_heading`],
    // [`setup_lead`]), and for each that is one way among others or optional, the line that
    // says so ([`alternative_heading`], [`skip_note`]).
    let mut sections: Sections<(bool, bool, Option<usize>)> = Sections(Vec::new());
    // What such ways use, each with the line that starts its way.
    let mut ways: Vec<(usize, Use)> = Vec::new();
    // What the person's one-time set-up uses, each with the line that starts its way if it is
    // one.
    let mut set_up: Vec<(Option<usize>, Use)> = Vec::new();
    // Whether the line read is the first of text in its section, which may say when to skip it.
    let mut section_start = false;
    // Whether a heading offers its section as one way among others: only then are the
    // scripts the body names looked for.
    let mut way_headings = false;
    // Whether a section is for the person installing or setting up the skill: only then are
    // the scripts the body names looked for.
    let mut user_seen = false;
    let installs = fenced && installs_as_its_work(body);
    // A set: a body may name thousands of servers, and each code span is looked up.
    let mut servers: Names = mcp_servers.iter().map(|s| s.to_ascii_lowercase()).collect();
    // Variables any block assigns: the agent runs the blocks in turn.
    let mut assigned = Names::default();
    // Variables named after the option they fill (`--tenantId $TENANT_ID`): placeholders,
    // unless the prose names them.
    let mut filled: Vec<Use> = Vec::new();
    // The lines outside blocks, where a body says which variables it needs.
    let mut prose: Vec<&str> = Vec::new();
    servers.extend(named_servers(body));
    // Each heading and the first command of each shell block (its line and first words), to
    // find the sections that are variants of one step.
    let mut headings: Vec<Heading> = Vec::new();
    let mut commands: Vec<(usize, Option<&str>)> = Vec::new();
    // The interpreters of the code blocks the body shows ([`interpreters_of`]).
    let mut interpreters: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if let Some((fence, info)) = fence_open(trimmed) {
            // The block ends at a closing fence of the same character, at least as long. A
            // Markdown block showing a file with blocks of its own (a README template) is
            // often fenced as they are: there a fence with a language opens an inner block,
            // and the next bare fence closes that one, not the template.
            let template = matches!(info.trim(), "markdown" | "md");
            let mut inner = 0usize;
            let mut end = i + 1;
            while end < lines.len() {
                let t = lines[end].trim_start();
                if closes(t, fence) {
                    if inner == 0 {
                        break;
                    }
                    inner -= 1;
                } else if template
                    && fence_open(t).is_some_and(|(f, info)| f == fence && !info.trim().is_empty())
                {
                    inner += 1;
                }
                end += 1;
            }
            for interpreter in interpreters_of(info) {
                if !interpreters.contains(interpreter) {
                    interpreters.push(interpreter);
                }
            }
            let before = &lines[i.saturating_sub(3)..i];
            if let Some(lang) = lang_of(info)
                && (installs || !sections.0.iter().any(|s| s.1.0))
                && !user_signalled(before)
            {
                // What the person sets up once is kept apart, and its variables too: what
                // they export is what the skill reads.
                let setup = !installs && sections.0.iter().any(|s| s.1.1);
                let block: Vec<(u32, &str)> = (i + 1..end.min(lines.len()))
                    .map(|j| (first_line + j as u32, lines[j]))
                    .collect();
                commands.push((i, first_command(&block)));
                let way = sections.0.iter().find_map(|s| s.1.2).or_else(|| {
                    let lead_in = before.iter().rev().find(|l| !l.trim().is_empty());
                    (before.iter().any(|l| alternative_lead(l))
                        || lead_in.is_some_and(|l| conditional_lead(l)))
                    .then_some(i)
                });
                let (mut their_names, mut their_fills) = (Names::default(), Vec::new());
                let (names, fills) = if setup {
                    (&mut their_names, &mut their_fills)
                } else {
                    (&mut assigned, &mut filled)
                };
                let mut read = |part: &[BlockLine<'_>], into: &mut Vec<Use>| match lang {
                    Lang::PowerShell => powershell(part, None, installs, into),
                    _ => shell(part, lang, None, installs, names, into, Some(&mut *fills)),
                };
                // A comment that offers what follows as another way (`# Or use the JAR:`)
                // starts one, unless the whole block is one already: each part is read as a
                // block of its own, with the line its way starts on.
                let (mine, others) = match way {
                    None => split_at_other_ways(&block),
                    Some(_) => (Cow::Borrowed(&block[..]), Vec::new()),
                };
                let parts = std::iter::once((way, &mine[..])).chain(
                    (others.into_iter())
                        .map(|part| (Some(part[0].0.saturating_sub(first_line) as usize), part)),
                );
                for (way, part) in parts {
                    let (mut found, mut theirs) = (Vec::new(), Vec::new());
                    let into = if setup {
                        &mut theirs
                    } else if way.is_some() {
                        &mut found
                    } else {
                        &mut out
                    };
                    read(part, into);
                    set_up.extend(theirs.into_iter().map(|u| (way, u)));
                    ways.extend(found.into_iter().map(|u| (way.unwrap_or(i), u)));
                }
            }
            i = end + 1;
            continue;
        }
        if let Some(title) = heading_title(trimmed) {
            headings.push((
                i,
                heading_level(trimmed),
                provider_named(title),
                numbered_example(title),
            ));
            let alternative = alternative_heading(title);
            way_headings |= alternative;
            let way = (alternative || troubleshooting_heading(title)).then_some(i);
            let (install, setup) = (user_heading(title), setup_heading(title));
            user_seen |= install || setup;
            sections.enter(trimmed, (install, setup, way));
            section_start = true;
        } else if section_start && !trimmed.is_empty() {
            section_start = false;
            if let Some(s) = sections.0.last_mut() {
                if skip_note(trimmed) {
                    s.1.2 = s.1.2.or(Some(i));
                }
                if s.0 > 1 && setup_lead(trimmed) {
                    s.1.1 = true;
                    user_seen = true;
                }
            }
        }
        if line.contains('`')
            || refs.mcp && line.contains("mcp__")
            || refs.tool && line.contains("#tool:")
        {
            let line_number = first_line + i as u32;
            match sections.0.iter().find_map(|s| s.1.2) {
                Some(way) => {
                    let mut found = Vec::new();
                    tools_of_text(line, line_number, &servers, refs, &mut found);
                    ways.extend(found.into_iter().map(|u| (way, u)));
                }
                None => tools_of_text(line, line_number, &servers, refs, &mut out),
            }
        }
        prose.push(line);
        i += 1;
    }
    // Of the person's set-up, the packages it installs say what the skill's code imports
    // (`pip install Pillow`); its commands are theirs. A body that shows no other use runs its
    // set-up: it is the skill's work, or all the text shows of it.
    let all_set_up = out.is_empty() && ways.is_empty();
    for (way, u) in set_up {
        if all_set_up || u.kind == DepKind::Packages {
            match way {
                Some(way) => ways.push((way, u)),
                None => out.push(u),
            }
        }
    }
    // What sections that are variants of one step use (`### OpenAI`, `### Anthropic`, each
    // running `ax ai-integrations create` with its own key) is what that variant uses.
    // Numbered example workflows (`### Workflow 1: ...`, `### Workflow 2: ...`) are variants
    // too: what one alone uses is that example's.
    let variants = variant_sections(&headings, &commands, lines.len());
    let examples = numbered_examples(&headings, lines.len());
    let mut variant_vars = Names::default();
    let mut of_the_code = Vec::new();
    if !variants.is_empty() || !examples.is_empty() {
        let mut spans: Vec<(usize, usize)> = variants.iter().chain(&examples).copied().collect();
        spans.sort_unstable();
        spans.dedup_by(|inner, outer| inner.1 <= outer.1);
        let at = |u: &Use| u.line.saturating_sub(first_line) as usize;
        let variant_of = |u: &Use| span_holding(&spans, at(u)).map(|k| spans[k].0);
        let (inside, kept): (Vec<Use>, Vec<Use>) =
            out.into_iter().partition(|u| variant_of(u).is_some());
        out = kept;
        // The interpreter of the code the body shows (`python` beside ```python blocks) is
        // needed whichever example workflow runs it.
        let (shown, inside): (Vec<Use>, Vec<Use>) = inside.into_iter().partition(|u| {
            u.kind == DepKind::Bins
                && interpreters.contains(&u.name.as_str())
                && span_holding(&variants, at(u)).is_none()
        });
        of_the_code = shown;
        let inside: Vec<(usize, Use)> = inside
            .into_iter()
            .filter_map(|u| Some((variant_of(&u)?, u)))
            .collect();
        // A variable only one variant reads is that variant's, wherever else the text shows it
        // (`--api-key $OPENAI_API_KEY` again as an example of rotating a key). Not so for an
        // example workflow: the text elsewhere may run the same step for itself.
        let mut reads: Vec<(&str, usize)> = inside
            .iter()
            .filter(|(_, u)| u.kind == DepKind::Env)
            .filter_map(|(_, u)| {
                let k = span_holding(&variants, at(u))?;
                Some((u.name.as_str(), variants[k].0))
            })
            .collect();
        reads.sort_unstable();
        reads.dedup();
        for same in reads.chunk_by(|a, b| a.0 == b.0) {
            if same.len() == 1 {
                assign(&mut variant_vars, same[0].0);
            }
        }
        ways.extend(inside);
    }
    // A skill whose every use is in one way or another still needs one of them: which one
    // cannot be told, so all are kept rather than saying it needs nothing.
    if out.is_empty() {
        out.extend(one_of_the_ways(ways));
    } else {
        out.retain(|u| u.kind != DepKind::Env || !variant_vars.contains(&u.name));
        out.extend(shared_by_ways(ways));
    }
    out.extend(of_the_code);
    tools_not_always_called(&mut out, &lines, first_line);
    // The skill's own tools, each under a heading of its `## Tools` section, are called in
    // shell syntax in its examples (`duby_tts "Hello"`): they are no executables on `PATH`.
    if out.iter().any(|u| u.kind == DepKind::Bins) {
        let own_tools = own_tool_headings(headings.iter().map(|h| (h.1, lines[h.0])));
        out.retain(|u| u.kind != DepKind::Bins || !own_tools.contains(&u.name.as_str()));
    }
    if out
        .iter()
        .any(|u| matches!(u.kind, DepKind::Tools | DepKind::Bins))
    {
        let offered = ways_round(body);
        out.retain(|u| match u.kind {
            DepKind::Tools => !offered.tools.contains(&u.name),
            DepKind::Bins => !offered.bins.contains(&u.name),
            _ => true,
        });
    }
    // A block's `$FILE` or `$PR_NUMBER` is mostly a placeholder for the agent to fill: a
    // variable counts when its name says it configures something (`..._API_KEY`,
    // `DATABASE_URL`) or the text names it outside the blocks.
    let mut asked: Vec<&str> = out
        .iter()
        .filter(|u| {
            u.kind == DepKind::Env
                && !assigned.contains(&u.name)
                && !configures(&u.name)
                && !location(&u.name)
        })
        .map(|u| u.name.as_str())
        .collect();
    asked.sort_unstable();
    asked.dedup();
    let named = named_in_prose(&prose, &asked);
    out.retain(|u| {
        u.kind != DepKind::Env
            || !assigned.contains(&u.name) && (configures(&u.name) || named.contains(&u.name))
    });
    if !filled.is_empty() {
        // Named as a word of its own (`TENANT_ID`, not inside `MSSTORE_TENANT_ID`); a name of
        // one word (`URL`) only where written as a variable (`$URL`, `` `URL` ``).
        let (long, short): (Vec<&str>, Vec<&str>) = filled
            .iter()
            .map(|u| u.name.as_str())
            .partition(|n| n.contains('_'));
        let mut set = named_in_prose(&prose, &short);
        let joined = prose.join("\n");
        set.extend(mentioned(&joined, long).into_iter().map(str::to_owned));
        out.extend(
            filled
                .into_iter()
                .filter(|u| !assigned.contains(&u.name) && set.contains(&u.name)),
        );
    }
    let mut scripts = if way_headings {
        scripts_of_other_ways(body)
    } else {
        Vec::new()
    };
    // A script the body names only in the person's set-up (`ExecStart=... scripts/hook.py` of
    // a service they create) is run by what they set up, not by the agent.
    if user_seen && !installs && !all_set_up {
        scripts.extend(scripts_named_only_in(body, &user_sections(body)));
        scripts.sort();
        scripts.dedup();
    }
    BodyUses {
        uses: out,
        scripts_of_other_ways: scripts,
    }
}

/// A line of a block, with its number in the file.
type BlockLine<'t> = (u32, &'t str);

/// `block` split by its comments that offer what follows as another way (`# Or pipe it from a
/// file`, `# Using the JAR directly`, [`other_way_comment`]): the lines of the block's own way,
/// and each other way, up to the next comment that starts a paragraph. Only a comment at the
/// start of a line, first in the block or after a blank line, counts: one inside a command or
/// a here-document is none.
fn split_at_other_ways<'b, 't>(
    block: &'b [BlockLine<'t>],
) -> (Cow<'b, [BlockLine<'t>]>, Vec<&'b [BlockLine<'t>]>) {
    let paragraph = |k: usize| {
        let line = block[k].1;
        line.starts_with('#')
            && !line.starts_with("#!")
            && (k == 0 || block[k - 1].1.trim().is_empty())
    };
    if !(0..block.len()).any(|k| paragraph(k) && other_way_comment(block[k].1)) {
        return (Cow::Borrowed(block), Vec::new());
    }
    let starts: Vec<usize> = (0..block.len()).filter(|&k| paragraph(k)).collect();
    let mut mine = block[..starts[0]].to_vec();
    let mut others = Vec::new();
    for (n, &from) in starts.iter().enumerate() {
        let part = &block[from..starts.get(n + 1).copied().unwrap_or(block.len())];
        if other_way_comment(part[0].1) {
            others.push(part);
        } else {
            mine.extend_from_slice(part);
        }
    }
    (Cow::Owned(mine), others)
}

/// Whether a comment in a block offers what follows as another way: as a line before a block
/// does ([`alternative_lead`]), or by naming the means (`# Using the JAR directly`, `# Via curl
/// directly`).
fn other_way_comment(line: &str) -> bool {
    let t = lead(line);
    alternative_lead(line)
        || (starts_ci(t, "using ") || starts_ci(t, "via ")) && contains_ci(t, "directly")
}

/// The first three words of a shell block that runs one command (`ax ai-integrations create
/// --name ... \` over several lines); none for a block of several commands.
pub(super) fn first_command<'b>(block: &[(u32, &'b str)]) -> Option<&'b str> {
    let mut commands = block
        .iter()
        .map(|(_, l)| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'));
    let line = commands.next()?;
    let mut continued = line.ends_with('\\');
    for l in commands {
        if !continued {
            return None;
        }
        continued = l.ends_with('\\');
    }
    let line = line.strip_prefix("$ ").unwrap_or(line);
    let mut words = line.split_whitespace();
    let third = words.nth(2)?;
    let end = third.as_ptr() as usize - line.as_ptr() as usize + third.len();
    (!third.starts_with(['\\', '|', '&', ';', '>'])).then(|| &line[..end])
}

/// The sections (from their heading's line to where they end, sorted) that are variants of
/// one step: two sibling sections or more in a row, each of whose text holds one shell block
/// running the same single command (`### OpenAI`, `### Anthropic`, each running `ax
/// ai-integrations create` with its own options). Sections with several blocks, or blocks of
/// several commands, are steps or workflows of their own. `headings` holds each heading's
/// line and level, `commands` each shell block's line and [`first_command`], both in order;
/// `end` is the number of lines.
pub(super) fn variant_sections(
    headings: &[Heading],
    commands: &[(usize, Option<&str>)],
    end: usize,
) -> Vec<(usize, usize)> {
    // Each section's span, the one command its own text (before any heading below it) runs,
    // and its next sibling.
    let sections: Vec<(usize, usize, Option<&str>, Option<usize>)> = headings
        .iter()
        .enumerate()
        .map(|(k, &(line, level, ..))| {
            let next = headings[k + 1..].iter().position(|h| h.1 <= level);
            let until = next.map_or(end, |n| headings[k + 1 + n].0);
            let own_end = headings.get(k + 1).map_or(end, |h| h.0);
            let first = commands.partition_point(|c| c.0 <= line);
            let own = &commands[first..commands.partition_point(|c| c.0 < own_end)];
            let command = match own {
                [(_, command)] => *command,
                _ => None,
            };
            let sibling = next.map(|n| k + 1 + n).filter(|&s| headings[s].1 == level);
            (line, until, command, sibling)
        })
        .collect();
    let mut variant = vec![false; sections.len()];
    for (k, s) in sections.iter().enumerate() {
        if let (Some(command), Some(next)) = (s.2, s.3)
            && sections[next].2 == Some(command)
        {
            variant[k] = true;
            variant[next] = true;
        }
    }
    // Siblings named after two providers or systems of one kind or more (`### macOS`,
    // `### Linux`; `## AWS`, `## Azure`): each is that one's way.
    let mut is_next = vec![false; sections.len()];
    for s in &sections {
        if let Some(next) = s.3 {
            is_next[next] = true;
        }
    }
    for first in (0..sections.len()).filter(|&k| !is_next[k]) {
        let mut chain = vec![first];
        while let Some(next) = sections[chain[chain.len() - 1]].3 {
            chain.push(next);
        }
        let named: Vec<(usize, Provider)> = chain
            .iter()
            .filter_map(|&k| Some((k, headings[k].2?)))
            .collect();
        // Each kind named in the chain, with the first of its names and whether another
        // follows: a chain may be thousands of headings, most naming the same one.
        let mut kinds: Vec<(u8, &str, bool)> = Vec::new();
        for (_, p) in &named {
            match kinds.iter_mut().find(|k| k.0 == p.kind) {
                Some(k) => k.2 |= k.1 != p.name,
                None => kinds.push((p.kind, p.name, false)),
            }
        }
        for &(k, p) in &named {
            if kinds.iter().any(|o| o.0 == p.kind && o.2) {
                variant[k] = true;
            }
        }
    }
    let mut out: Vec<(usize, usize)> = sections
        .iter()
        .zip(variant)
        .filter(|(_, v)| *v)
        .map(|(s, _)| (s.0, s.1))
        .collect();
    // A variant holding variants: the outer one is what its reads belong to.
    out.sort_unstable();
    out.dedup_by(|inner, outer| inner.1 <= outer.1);
    out
}

/// A heading of a body: its line, its level, the provider it is named after
/// ([`provider_named`]) and whether it numbers an example ([`numbered_example`]).
pub(super) type Heading = (usize, usize, Option<Provider>, bool);

/// Whether a heading's title, after its numbering (`2.`, `**`), names a numbered example or
/// workflow: `Workflow 1: Fine-tuning`, `Example 2 - Batch`, `Use Case 3`.
pub(super) fn numbered_example(title: &str) -> bool {
    const WORDS: &[&str] = &["workflow ", "example ", "use case ", "recipe ", "scenario "];
    let t = title.trim_start_matches(|c: char| !c.is_ascii_alphabetic());
    WORDS.iter().any(|w| {
        let rest = t.get(w.len()..).unwrap_or_default().trim_start();
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        starts_ci(t, w)
            && digits > 0
            && rest
                .as_bytes()
                .get(digits)
                .is_none_or(|b| !b.is_ascii_alphanumeric())
    })
}

/// The sections (from their heading's line to where they end, sorted) of numbered examples
/// that have a sibling numbered example under the same heading (`### Workflow 1: ...`,
/// `### Workflow 2: ...`): each is one way to use the skill, not a step every use takes.
/// `end` is the number of lines.
pub(super) fn numbered_examples(headings: &[Heading], end: usize) -> Vec<(usize, usize)> {
    // The open headings (level and index), and each example with the heading it is under.
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut found: Vec<(Option<usize>, usize, usize)> = Vec::new();
    for (k, &(_, level, _, example)) in headings.iter().enumerate() {
        while open.last().is_some_and(|o| o.0 >= level) {
            open.pop();
        }
        if example {
            found.push((open.last().map(|o| o.1), level, k));
        }
        open.push((level, k));
    }
    found.sort_unstable();
    let mut out = Vec::new();
    for group in found.chunk_by(|a, b| (a.0, a.1) == (b.0, b.1)) {
        if group.len() < 2 {
            continue;
        }
        for &(_, level, k) in group {
            let next = headings[k + 1..].iter().find(|h| h.1 <= level);
            out.push((headings[k].0, next.map_or(end, |h| h.0)));
        }
    }
    out.sort_unstable();
    out
}

/// A provider or system a heading is named after: one of several of its kind (clouds,
/// operating systems, model providers) a skill may give a section each.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Provider {
    kind: u8,
    name: &'static str,
}

/// The names a heading may give a provider by, with the provider and its kind.
#[rustfmt::skip]
const PROVIDERS: &[(&str, &str, u8)] = &[
    ("aws", "aws", 0), ("amazon web services", "aws", 0), ("azure", "azure", 0),
    ("gcp", "gcp", 0), ("google cloud", "gcp", 0),
    ("macos", "macos", 1), ("mac os", "macos", 1), ("linux", "linux", 1),
    ("windows", "windows", 1),
    ("openai", "openai", 2), ("anthropic", "anthropic", 2), ("gemini", "gemini", 2),
    ("ollama", "ollama", 2), ("mistral", "mistral", 2), ("bedrock", "bedrock", 2),
    ("vertex ai", "vertex", 2),
];

/// The provider a heading's title names as a word, where it names one.
pub(super) fn provider_named(title: &str) -> Option<Provider> {
    static NAMES: std::sync::LazyLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::LazyLock::new(|| {
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(PROVIDERS.iter().map(|p| p.0))
                .ok()
        });
    let bytes = title.as_bytes();
    NAMES.as_ref()?.find_iter(title).find_map(|m| {
        let word = |i: Option<&u8>| i.is_some_and(u8::is_ascii_alphanumeric);
        let whole =
            !word(m.start().checked_sub(1).and_then(|i| bytes.get(i))) && !word(bytes.get(m.end()));
        let (_, name, kind) = PROVIDERS[m.pattern().as_usize()];
        whole.then_some(Provider { kind, name })
    })
}

/// Which of `names` some line of `prose` names as a variable. A name of one word (`URL`, `PORT`)
/// is also an everyday word in capitals, so only written as a variable (`$URL`, `${URL}`,
/// `` `URL` ``) does it count; a longer one (`TENANT_ID`) counts wherever it is written, even
/// inside a longer name. Names are made of word characters, so every spelling is found from
/// the words of the prose, read once: a body may use thousands of names, and searching the
/// prose for each would not end.
pub(super) fn named_in_prose(prose: &[&str], names: &[&str]) -> Names {
    if names.is_empty() {
        return Names::default();
    }
    // The words right after a `$` (`$X` is in the text when one of them starts with `X`),
    // inside `${...}` and inside a code span, and the words with `_` in them (`A_B` is in the
    // text when one of them holds it).
    let (mut dollar, mut braced, mut ticked, mut underscored) = (
        Vec::new(),
        foldhash::HashSet::default(),
        foldhash::HashSet::default(),
        foldhash::HashSet::default(),
    );
    for line in prose {
        let bytes = line.as_bytes();
        for (start, i) in word_runs(line) {
            let (run, before, next) = (&line[start..i], &bytes[..start], bytes.get(i));
            if before.ends_with(b"${") && next == Some(&b'}') {
                braced.insert(run);
            } else if before.ends_with(b"$") {
                dollar.push(run);
            }
            if before.ends_with(b"`") && next == Some(&b'`') {
                ticked.insert(run);
            }
            if run.contains('_') {
                underscored.insert(run);
            }
        }
    }
    dollar.sort_unstable();
    dollar.dedup();
    // Where a name is not a whole word, it may be part of one: all such words, once each, are
    // searched for all such names at once.
    let inside: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| n.contains('_') && !underscored.contains(n))
        .collect();
    let part_of_word = if inside.is_empty() {
        foldhash::HashSet::default()
    } else {
        let mut words: Vec<&str> = underscored.iter().copied().collect();
        words.sort_unstable();
        occurring(&words.join(" "), &inside)
    };
    names
        .iter()
        .filter(|name| {
            if name.contains('_') {
                return underscored.contains(*name) || part_of_word.contains(*name);
            }
            let from = dollar.partition_point(|w| w < *name);
            dollar.get(from).is_some_and(|w| w.starts_with(*name))
                || braced.contains(*name)
                || ticked.contains(*name)
        })
        .map(|name| (*name).to_owned())
        .collect()
}

/// A variable that names a place (`$SKILL_ROOT`, `$WORK_DIR`): in a block, one for the agent to
/// fill in, even when the text explains it.
pub(super) fn location(name: &str) -> bool {
    ["_ROOT", "_DIR", "_PATH", "_HOME", "_FOLDER", "_FILE"]
        .iter()
        .any(|s| name.ends_with(s))
}

/// A variable name that says it configures access to something.
pub(super) fn configures(name: &str) -> bool {
    const WORDS: &[&str] = &["KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"];
    const SUFFIXES: &[&str] = &[
        "_URL",
        "_HOST",
        "_ENDPOINT",
        "_REGION",
        "_TENANT_ID",
        "_CLIENT_ID",
        "_SUBSCRIPTION_ID",
        "_PROJECT_ID",
        "_ACCOUNT_ID",
        "_ORG",
        "_USER",
        "_USERNAME",
        "_API_BASE",
    ];
    WORDS.iter().any(|w| name.contains(w))
        || SUFFIXES
            .iter()
            .any(|s| name.len() > s.len() && name.ends_with(s))
}

pub(super) fn fence_open(trimmed: &str) -> Option<(&str, &str)> {
    for f in ["```", "~~~"] {
        if trimmed.starts_with(f) {
            let c = f.as_bytes()[0];
            let run = trimmed.bytes().take_while(|b| *b == c).count();
            return Some((&trimmed[..run], &trimmed[run..]));
        }
    }
    None
}

/// The title of an ATX heading line (`## Setup`), already trimmed at the start. As in
/// CommonMark, a heading has six `#` at most: a line of more is text, and the sections open
/// at a line are six at most.
pub(super) fn heading_title(trimmed: &str) -> Option<&str> {
    let title = trimmed.strip_prefix('#')?.trim_start_matches('#');
    (heading_level(trimmed) <= 6 && (title.starts_with(' ') || title.is_empty()))
        .then(|| title.trim())
}

/// The level of an ATX heading line, already trimmed at the start: `## Setup` is 2.
pub(super) fn heading_level(trimmed: &str) -> usize {
    trimmed.bytes().take_while(|b| *b == b'#').count()
}

/// The sections open at a heading, outermost first, each with what `mark` says of its title.
pub(super) struct Sections<T>(Vec<(usize, T)>);

impl<T> Sections<T> {
    /// Enter the section a heading line (`trimmed`) opens, leaving those it ends.
    fn enter(&mut self, trimmed: &str, mark: T) {
        let level = heading_level(trimmed);
        while self.0.last().is_some_and(|s| s.0 >= level) {
            self.0.pop();
        }
        self.0.push((level, mark));
    }
}

/// The lines of a Markdown `text` outside its fenced blocks, each trimmed at the start, with
/// the byte it starts at.
pub(super) fn outside_blocks(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut fence: Option<&str> = None;
    let mut start = 0;
    text.split_inclusive('\n').filter_map(move |line| {
        let at = start;
        start += line.len();
        let trimmed = line.trim_start();
        match fence {
            Some(f) => {
                if closes(trimmed, f) {
                    fence = None;
                }
                None
            }
            None => match fence_open(trimmed) {
                Some((f, _)) => {
                    fence = Some(f);
                    None
                }
                None => Some((at, trimmed)),
            },
        }
    })
}

/// Each heading of a Markdown `text` (its byte), and whether what follows it is in a section
/// whose heading `marks`, or in a section below one. Read once for a text, then looked up by
/// [`in_marked`].
pub(super) fn marked_sections(text: &str, marks: fn(&str) -> bool) -> Vec<(usize, bool)> {
    let mut sections = Sections(Vec::new());
    outside_blocks(text)
        .filter_map(|(at, trimmed)| {
            sections.enter(trimmed, marks(heading_title(trimmed)?));
            Some((at, sections.0.iter().any(|s| s.1)))
        })
        .collect()
}

/// The sections for the person installing or setting up the skill ([`user_heading`],
/// [`setup_heading`], [`setup_lead`]), as [`marked_sections`] reads them; a section whose first
/// line says it is a set-up is marked from that line.
pub(super) fn user_sections(text: &str) -> Vec<(usize, bool)> {
    let mut sections = Sections(Vec::new());
    let mut section_start = false;
    let mut out = Vec::new();
    for (at, trimmed) in outside_blocks(text) {
        if let Some(title) = heading_title(trimmed) {
            sections.enter(trimmed, user_heading(title) || setup_heading(title));
            out.push((at, sections.0.iter().any(|s| s.1)));
            section_start = true;
        } else if section_start && !trimmed.trim().is_empty() {
            section_start = false;
            if let Some(s) = sections.0.last_mut()
                && !s.1
                && s.0 > 1
                && setup_lead(trimmed)
            {
                s.1 = true;
                out.push((at, true));
            }
        }
    }
    out
}

/// Whether byte `at` is in a marked section, by the headings [`marked_sections`] read.
pub(super) fn in_marked(headings: &[(usize, bool)], at: usize) -> bool {
    headings
        .partition_point(|h| h.0 <= at)
        .checked_sub(1)
        .is_some_and(|i| headings[i].1)
}

/// The file names of the scripts `text` names only in sections that offer one way among
/// others ([`alternative_heading`]: `## OpenAI (Legacy)` beside `## Hume AI (Preferred)`),
/// sorted: what such a script uses is a need of that way, not of the skill. Empty where the
/// text names no script outside such sections, for then its ways are all it has.
pub(super) fn scripts_of_other_ways(text: &str) -> Vec<String> {
    scripts_named_only_in(text, &marked_sections(text, alternative_heading))
}

/// The file names of the scripts `text` names only in the sections `ways` marks (as
/// [`marked_sections`] reads them), sorted; empty where it names no script elsewhere.
pub(super) fn scripts_named_only_in<'t>(text: &'t str, ways: &[(usize, bool)]) -> Vec<String> {
    let stop = |c: char| c.is_whitespace() || "`'\"()[]<>:,;=|*".contains(c);
    let scripts = |part: &'t str| {
        part.split(stop).filter_map(|word| {
            let word = word.trim_end_matches('.');
            let name = word.rsplit('/').next().unwrap_or(word);
            (!name.is_empty() && interpreter_of(name).is_some()).then_some(name)
        })
    };
    // The marked sections' byte ranges, and the rest's: the marked are read first, as most
    // name no script and the rest need not be read then.
    let (mut marked, mut rest) = (Vec::new(), Vec::new());
    let mut from = 0;
    for (i, &(at, mark)) in ways.iter().enumerate() {
        let to = ways.get(i + 1).map_or(text.len(), |w| w.0);
        rest.push(from..at);
        if mark { &mut marked } else { &mut rest }.push(at..to);
        from = to;
    }
    rest.push(from..text.len());
    let part = |r: &std::ops::Range<usize>| text.get(r.clone()).unwrap_or_default();
    let inside: Vec<&str> = marked.iter().flat_map(|r| scripts(part(r))).collect();
    if inside.is_empty() {
        return Vec::new();
    }
    let outside: Names = rest
        .iter()
        .flat_map(|r| scripts(part(r)))
        .map(str::to_owned)
        .collect();
    if outside.is_empty() {
        return Vec::new();
    }
    let mut only: Vec<String> = inside
        .into_iter()
        .filter(|n| !outside.contains(*n))
        .map(str::to_owned)
        .collect();
    only.sort();
    only.dedup();
    only
}

pub(super) fn closes(trimmed: &str, fence: &str) -> bool {
    let Some(c) = fence.bytes().next() else {
        return false;
    };
    let run = trimmed.bytes().take_while(|b| *b == c).count();
    run >= fence.len() && trimmed[run..].trim().is_empty()
}

pub(super) fn user_signalled(before: &[&str]) -> bool {
    static SIGNALS: std::sync::LazyLock<Option<aho_corasick::AhoCorasick>> =
        std::sync::LazyLock::new(|| {
            aho_corasick::AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(USER_SIGNALS)
                .ok()
        });
    let Some(signals) = SIGNALS.as_ref() else {
        return false;
    };
    before.iter().any(|l| signals.is_match(l))
}
