//! What a skill uses, read from its body and its scripts: the executables its shell blocks and
//! scripts run, the packages its scripts import, the environment variables they read and the
//! tools its body names. Pure: the caller hands over the text; nothing here opens a file, runs
//! anything or asks a profile which names a host defines (`evaluate::declare_inferred` does).
//!
//! Every pattern errs towards leaving a use out: a block whose language or role is unclear, a
//! word that could be prose or a placeholder, a variable with a default, are not read as uses.

use crate::model::{DepKind, Use};
use crate::span::{Columns, LineStarts};

/// A set of names (variables assigned, functions defined): looked up once per word read, so
/// a long text costs no more than its length.
type Names = foldhash::HashSet<String>;

/// The fenced blocks of a body that an agent runs, by their info string.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Lang {
    /// `sh`, `bash`, `shell`, `zsh`: every line is a command, unless the block shows prompts.
    Shell,
    /// `console`, `shell-session`, `terminal`: only the lines after a `$ ` prompt.
    Console,
    /// `powershell`, `pwsh`, `ps1`.
    PowerShell,
}

fn lang_of(info: &str) -> Option<Lang> {
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

/// The words that say a block is what the user types in their own terminal, not what the agent
/// runs: looked for in the heading above the block and the lines of text just before it.
const USER_SIGNALS: &[&str] = &[
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
];

/// Headings whose sections are for the person installing the skill; not what comes after
/// (`After Installation`).
fn user_heading(title: &str) -> bool {
    contains_ci(title, "install") && !starts_ci(lead(title), "after ")
}

/// Of what the ways of doing one thing use (each use with the line its way starts on), what
/// two ways or more use: whichever way is taken needs it. The rest is not needed by the skill.
fn shared_by_ways(mut ways: Vec<(usize, Use)>) -> Vec<Use> {
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

/// The tools a body offers a way round: `If #tool:runSubagent is unavailable, ...`, `Use the
/// `web` tool or another suitable MCP method`. Such a tool is no need. Found from the phrases,
/// which are rare, each with the name written before it.
fn ways_round(body: &str) -> Names {
    const PHRASES: &[&str] = &[
        " is unavailable",
        " is not available",
        " isn't available",
        " is not installed",
        " or another",
        " or any other",
        " or a similar",
    ];
    let mut out = Names::default();
    for phrase in PHRASES {
        for (at, _) in body.match_indices(phrase) {
            let before = body[..at].strip_suffix(" tool").unwrap_or(&body[..at]);
            let before = before.trim_end_matches('`');
            let start = before
                .rfind(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '-' | '/' | '.')))
                .map_or(0, |i| i + 1);
            if start < before.len() {
                assign(&mut out, &before[start..]);
            }
        }
    }
    out
}

/// Words that mark a way of doing something as one among others, or as not needed.
const ONE_WAY_OF_SEVERAL: &[&str] = &["alternative", "optional", "fallback", "legacy"];

/// A line's text without the Markdown marks before it.
fn lead(line: &str) -> &str {
    line.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '#' | '*' | '_' | '>' | '-'))
}

/// Whether `t` holds `word` (lower case), in any case.
fn contains_ci(t: &str, word: &str) -> bool {
    t.as_bytes()
        .windows(word.len())
        .any(|w| w.eq_ignore_ascii_case(word.as_bytes()))
}

fn starts_ci(t: &str, word: &str) -> bool {
    t.as_bytes()
        .get(..word.len())
        .is_some_and(|b| b.eq_ignore_ascii_case(word.as_bytes()))
}

/// Whether `t` starts by naming an option by a label (`Option B:`), or names one in
/// parentheses (`(option 2)`).
fn option_label(t: &str) -> bool {
    let labelled = |t: &str| {
        let label = t.as_bytes().get("option ".len()..).unwrap_or_default();
        starts_ci(t, "option ")
            && label.first().is_some_and(u8::is_ascii_alphanumeric)
            && label.get(1).is_none_or(|b| !b.is_ascii_alphanumeric())
    };
    labelled(t) || t.match_indices('(').any(|(at, _)| labelled(&t[at + 1..]))
}

/// Whether a heading says its section is one way among others, or optional: `Option B:
/// Tailscale Funnel`, `Reset Detection Monitor (Alternative)`, `Fallback`, `Legacy`,
/// `Optional: ...`. What such a section runs is not something the skill needs.
fn alternative_heading(title: &str) -> bool {
    option_label(title) || ONE_WAY_OF_SEVERAL.iter().any(|w| contains_ci(title, w))
}

/// Whether a line just before a block offers it as one way among others: `**Option B:
/// Tailscale Funnel**`, `Or add it directly:`, `Alternatively, ...`, `Optional: ...`,
/// `Run the monitor (alternative):`.
fn alternative_lead(line: &str) -> bool {
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

/// Whether the first line of a section says when to skip it: `> Skip this section if using
/// the CLI backend.`
fn skip_note(line: &str) -> bool {
    let t = lead(line);
    starts_ci(t, "skip this section") || starts_ci(t, "only if ")
}

/// Whether a skill's work is installing or setting up things (its title, the first `# `
/// heading, says so: `# Sandbox npm Install`, `# AWS CDK Python Setup`): then its install
/// sections are what the agent runs, not the person's set-up ([`user_heading`]).
fn installs_as_its_work(body: &str) -> bool {
    outside_blocks(body)
        .find_map(|(_, t)| t.strip_prefix("# "))
        .is_some_and(|title| {
            ["install", "setup", "set up"]
                .iter()
                .any(|w| contains_ci(title, w))
        })
}

/// The uses in a skill's body (its first line is line `first_line` of the SKILL.md): the
/// commands, variables and tools of its shell blocks, and the tools it names in a host's syntax.
pub(crate) fn of_body(body: &str, first_line: u32, mcp_servers: &[String]) -> Vec<Use> {
    let mut out = Vec::new();
    // Most bodies are prose: no fence, no tool reference, no phrase about a tool in a code
    // span; nothing to read, and these few searches are all they cost.
    let fenced = body.contains("```") || body.contains("~~~");
    if !fenced
        && !body.contains("mcp__")
        && !body.contains("#tool:")
        && !(body.contains('`') && (body.contains("tool") || body.contains("Tool")))
    {
        return out;
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
    // ([`user_heading`]), and for each that is one way among others or optional, the line
    // that says so ([`alternative_heading`], [`skip_note`]).
    let mut sections: Sections<(bool, Option<usize>)> = Sections(Vec::new());
    // What such ways use, each with the line that starts its way.
    let mut ways: Vec<(usize, Use)> = Vec::new();
    // Whether the line read is the first of text in its section, which may say when to skip it.
    let mut section_start = false;
    let installs = fenced && installs_as_its_work(body);
    // A set: a body may name thousands of servers, and each code span is looked up.
    let mut servers: Names = mcp_servers.iter().map(|s| s.to_ascii_lowercase()).collect();
    // Variables any block assigns: the agent runs the blocks in turn.
    let mut assigned = Names::default();
    // The lines outside blocks, where a body says which variables it needs.
    let mut prose: Vec<&str> = Vec::new();
    servers.extend(named_servers(body));
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        if let Some((fence, info)) = fence_open(trimmed) {
            // The block ends at a closing fence of the same character, at least as long.
            let mut end = i + 1;
            while end < lines.len() && !closes(lines[end].trim_start(), fence) {
                end += 1;
            }
            let before = &lines[i.saturating_sub(3)..i];
            if let Some(lang) = lang_of(info)
                && (installs || !sections.0.iter().any(|s| s.1.0))
                && !user_signalled(before)
            {
                let block: Vec<(u32, &str)> = (i + 1..end.min(lines.len()))
                    .map(|j| (first_line + j as u32, lines[j]))
                    .collect();
                let way = sections
                    .0
                    .iter()
                    .find_map(|s| s.1.1)
                    .or_else(|| before.iter().any(|l| alternative_lead(l)).then_some(i));
                let mut found = Vec::new();
                let into = if way.is_some() { &mut found } else { &mut out };
                match lang {
                    Lang::PowerShell => powershell(&block, None, installs, into),
                    _ => shell(&block, lang, None, installs, &mut assigned, into),
                }
                ways.extend(found.into_iter().map(|u| (way.unwrap_or(i), u)));
            }
            i = end + 1;
            continue;
        }
        if let Some(title) = heading_title(trimmed) {
            let way = alternative_heading(title).then_some(i);
            sections.enter(trimmed, (user_heading(title), way));
            section_start = true;
        } else if section_start && !trimmed.is_empty() {
            section_start = false;
            if let Some(s) = sections.0.last_mut()
                && skip_note(trimmed)
            {
                s.1.1 = s.1.1.or(Some(i));
            }
        }
        if line.contains('`')
            || refs.mcp && line.contains("mcp__")
            || refs.tool && line.contains("#tool:")
        {
            let line_number = first_line + i as u32;
            match sections.0.iter().find_map(|s| s.1.1) {
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
    // A skill whose every use is in one way or another still needs one of them: which one
    // cannot be told, so all are kept rather than saying it needs nothing.
    if out.is_empty() {
        out.extend(ways.into_iter().map(|w| w.1));
    } else {
        out.extend(shared_by_ways(ways));
    }
    if out.iter().any(|u| u.kind == DepKind::Tools) {
        let offered = ways_round(body);
        if !offered.is_empty() {
            out.retain(|u| u.kind != DepKind::Tools || !offered.contains(&u.name));
        }
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
    out
}

/// A byte of a word: an ASCII letter or digit, or `_`.
fn word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Where each run of word bytes ([`word_byte`]) in `text` starts and ends. They are ASCII, so
/// both ends are character boundaries.
fn word_runs(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() && !word_byte(bytes[at]) {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && word_byte(bytes[at]) {
            at += 1;
        }
        (start < at).then_some((start, at))
    })
}

/// Which of `names` some line of `prose` names as a variable. A name of one word (`URL`, `PORT`)
/// is also an everyday word in capitals, so only written as a variable (`$URL`, `${URL}`,
/// `` `URL` ``) does it count; a longer one (`TENANT_ID`) counts wherever it is written, even
/// inside a longer name. Names are made of word characters, so every spelling is found from
/// the words of the prose, read once: a body may use thousands of names, and searching the
/// prose for each would not end.
fn named_in_prose(prose: &[&str], names: &[&str]) -> Names {
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
    // Where a name is not a whole word, it may be part of one: all such words, once each.
    let mut all_underscored: Option<String> = None;
    let mut part_of_word = |name: &str| {
        let text = all_underscored.get_or_insert_with(|| {
            let mut words: Vec<&str> = underscored.iter().copied().collect();
            words.sort_unstable();
            words.join(" ")
        });
        memchr::memmem::find(text.as_bytes(), name.as_bytes()).is_some()
    };
    names
        .iter()
        .filter(|name| {
            if name.contains('_') {
                return underscored.contains(*name) || part_of_word(name);
            }
            let from = dollar.partition_point(|w| w < *name);
            dollar.get(from).is_some_and(|w| w.starts_with(*name))
                || braced.contains(*name)
                || ticked.contains(*name)
        })
        .map(|name| (*name).to_owned())
        .collect()
}

/// Does `text` name `name` as a word: not inside a longer name (`jq` in `jquery`, `KEY` in
/// `API_KEY`)? A `-` before it joins it to a word (`--jq`), after it does not (`jq-1.7`).
pub(crate) fn mentions(text: &str, name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    text.match_indices(name)
        .any(|(at, _)| stands_alone(text.as_bytes(), at, at + name.len()))
}

/// Is `bytes[start..end]` a word of its own: no word byte or `-` just before it, no word byte
/// just after?
fn stands_alone(bytes: &[u8], start: usize, end: usize) -> bool {
    let before = start.checked_sub(1).map(|i| bytes[i]);
    let after = bytes.get(end).copied();
    !before.is_some_and(|b| word_byte(b) || b == b'-') && !after.is_some_and(word_byte)
}

/// Which of `names` `text` names as a word, as [`mentions`] decides, in one pass over the text
/// rather than one per name: a declaration may list tens of thousands of names.
pub(crate) fn mentioned<'n>(
    text: &str,
    names: impl IntoIterator<Item = &'n str>,
) -> foldhash::HashSet<&'n str> {
    let (plain, other): (Vec<&str>, Vec<&str>) = names
        .into_iter()
        .filter(|n| !n.is_empty())
        .partition(|n| n.bytes().all(word_byte));
    let mut found = foldhash::HashSet::default();
    if !plain.is_empty() {
        // A name of word characters is named exactly where it is a whole word of the text
        // with no `-` before it.
        let bytes = text.as_bytes();
        let words: foldhash::HashSet<&str> = word_runs(text)
            .filter(|&(at, _)| at == 0 || bytes[at - 1] != b'-')
            .map(|(at, end)| &text[at..end])
            .collect();
        found.extend(plain.into_iter().filter(|n| words.contains(n)));
    }
    if !other.is_empty() {
        match aho_corasick::AhoCorasick::new(&other) {
            Ok(searcher) => {
                for m in searcher.find_overlapping_iter(text) {
                    if stands_alone(text.as_bytes(), m.start(), m.end()) {
                        found.insert(other[m.pattern().as_usize()]);
                    }
                }
            }
            // Only past the searcher's size limits: one search per name, as before.
            Err(_) => found.extend(other.into_iter().filter(|n| mentions(text, n))),
        }
    }
    found
}

/// A variable that names a place (`$SKILL_ROOT`, `$WORK_DIR`): in a block, one for the agent to
/// fill in, even when the text explains it.
fn location(name: &str) -> bool {
    ["_ROOT", "_DIR", "_PATH", "_HOME", "_FOLDER", "_FILE"]
        .iter()
        .any(|s| name.ends_with(s))
}

/// A variable name that says it configures access to something.
fn configures(name: &str) -> bool {
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

fn fence_open(trimmed: &str) -> Option<(&str, &str)> {
    for f in ["```", "~~~"] {
        if trimmed.starts_with(f) {
            let c = f.as_bytes()[0];
            let run = trimmed.bytes().take_while(|b| *b == c).count();
            return Some((&trimmed[..run], &trimmed[run..]));
        }
    }
    None
}

/// The title of an ATX heading line (`## Setup`), already trimmed at the start.
fn heading_title(trimmed: &str) -> Option<&str> {
    let title = trimmed.strip_prefix('#')?.trim_start_matches('#');
    (title.starts_with(' ') || title.is_empty()).then(|| title.trim())
}

/// The level of an ATX heading line, already trimmed at the start: `## Setup` is 2.
fn heading_level(trimmed: &str) -> usize {
    trimmed.bytes().take_while(|b| *b == b'#').count()
}

/// The sections open at a heading, outermost first, each with what `mark` says of its title.
struct Sections<T>(Vec<(usize, T)>);

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
fn outside_blocks(text: &str) -> impl Iterator<Item = (usize, &str)> {
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
/// for the person installing the skill or in a section below one ([`user_heading`]). Read
/// once for a text, then looked up by [`in_user_section`].
fn user_sections(text: &str) -> Vec<(usize, bool)> {
    let mut sections = Sections(Vec::new());
    outside_blocks(text)
        .filter_map(|(at, trimmed)| {
            sections.enter(trimmed, user_heading(heading_title(trimmed)?));
            Some((at, sections.0.iter().any(|s| s.1)))
        })
        .collect()
}

/// Whether byte `at` is in a section for the person installing the skill, by the headings
/// [`user_sections`] read.
fn in_user_section(headings: &[(usize, bool)], at: usize) -> bool {
    headings
        .partition_point(|h| h.0 <= at)
        .checked_sub(1)
        .is_some_and(|i| headings[i].1)
}

fn closes(trimmed: &str, fence: &str) -> bool {
    let Some(c) = fence.bytes().next() else {
        return false;
    };
    let run = trimmed.bytes().take_while(|b| *b == c).count();
    run >= fence.len() && trimmed[run..].trim().is_empty()
}

fn user_signalled(before: &[&str]) -> bool {
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

/// Servers the text names as MCP servers: `mcp__github__...`, "the GitHub MCP server",
/// "MCP server `github`".
fn named_servers(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.find("mcp__") {
        let name: String = rest[at + 5..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if let Some((server, _)) = name.split_once("__") {
            out.push(server.to_ascii_lowercase());
        }
        rest = &rest[at + 5..];
    }
    let any = |l: &str| l.contains("MCP") || l.contains("mcp") || l.contains("Mcp");
    if !any(body) {
        out.sort();
        out.dedup();
        return out;
    }
    for line in body.lines() {
        if !any(line) {
            continue;
        }
        let lower = line.to_ascii_lowercase();
        let mut from = 0;
        while let Some(at) = lower[from..].find("mcp server") {
            let at = from + at;
            // The word before "MCP server", or the code span after it.
            let before = lower[..at].trim_end().trim_end_matches('`');
            let word: String = before
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if !word.is_empty() && !matches!(word.as_str(), "the" | "an" | "a" | "your" | "any") {
                out.push(word);
            }
            let after = lower[at + 10..].trim_start_matches(['s', ':', ' ']);
            if let Some(code) = after.strip_prefix('`')
                && let Some(end) = code.find('`')
            {
                out.push(code[..end].to_owned());
            }
            from = at + 10;
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Whether a body has `mcp__` and `#tool:` references anywhere.
#[derive(Clone, Copy)]
struct References {
    mcp: bool,
    tool: bool,
}

/// The tools a line of text names: `mcp__server__tool`, `#tool:name`, `` `server/tool` `` for a
/// server the text names, and "use the `X` tool" (a phrase: judged only where a host defines X).
fn tools_of_text(line: &str, line_no: u32, servers: &Names, refs: References, out: &mut Vec<Use>) {
    // Code spans matter only with a server to look for or a phrase about a tool: most lines
    // with code spans cost no more than these searches.
    let spans = line.contains('`')
        && (!servers.is_empty() || line.contains("tool") || line.contains("Tool"));
    let mcp = refs.mcp && line.contains("mcp__");
    let tool = refs.tool && line.contains("#tool:");
    if !spans && !mcp && !tool {
        return;
    }
    // "**NEVER use:** `mcp__perplexity__...`", "do not call ...": a tool the skill avoids.
    let lower = line.to_ascii_lowercase();
    if [
        "never use",
        "never call",
        "do not use",
        "don't use",
        "do not call",
        "avoid ",
    ]
    .iter()
    .any(|n| lower.contains(n))
    {
        return;
    }
    let tool_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    let columns = Columns::new(line);
    let mut from = 0;
    while mcp && let Some(at) = line[from..].find("mcp__") {
        let at = from + at;
        let name: String = line[at + 5..]
            .chars()
            .take_while(|c| tool_char(*c))
            .collect();
        if let Some((server, tool)) = name.split_once("__")
            && !server.is_empty()
            && !tool.is_empty()
            && !tool.contains("__")
            && (at == 0 || !line[..at].ends_with(tool_char))
        {
            out.push(found(
                DepKind::Tools,
                format!("{server}/{tool}"),
                None,
                line_no,
                &columns,
                at,
            ));
        }
        from = at + 5;
    }
    from = 0;
    while tool && let Some(at) = line[from..].find("#tool:") {
        let at = from + at;
        let name: String = line[at + 6..]
            .chars()
            .take_while(|c| tool_char(*c) || *c == '/' || *c == '.')
            .collect();
        let name = name.trim_end_matches(['.', '/']);
        if !name.is_empty() {
            out.push(found(
                DepKind::Tools,
                name.to_owned(),
                None,
                line_no,
                &columns,
                at,
            ));
        }
        from = at + 6;
    }
    // Code spans: `server/tool` and "use the `X` tool".
    if !spans {
        return;
    }
    // Asked once for the line, however many spans it has.
    let speaks_of_tools =
        std::cell::LazyCell::new(|| lower.contains("tool") || lower.contains("mcp"));
    let mut spans = line.split('`');
    let mut offset = 0;
    let mut inside = false;
    let mut prev_end = 0;
    while let Some(part) = spans.next() {
        let start = offset;
        offset += part.len() + 1;
        if !inside {
            prev_end = start + part.len();
            inside = true;
            continue;
        }
        inside = false;
        let after = lower.get(offset..).unwrap_or("").trim_start();
        // `penpot/penpot-mcp` MCP server names a server; `xquik/x-tweet-scraper` in a table
        // of Apify actors is no tool: a hyphenated name counts where the line speaks of tools.
        let names_server = after.starts_with("mcp server") || after.starts_with("server");
        let tool_like = |t: &str| !t.contains('-') || *speaks_of_tools;
        if let Some((server, tool)) = part.split_once('/')
            && servers.contains(&server.to_ascii_lowercase())
            && !tool.is_empty()
            && tool.chars().all(|c| tool_char(c) || c == '*')
            && !names_server
            && tool_like(tool)
        {
            out.push(found(
                DepKind::Tools,
                format!("{}/{tool}", server.to_ascii_lowercase()),
                None,
                line_no,
                &columns,
                start,
            ));
            continue;
        }
        let before = lower[..prev_end.min(lower.len())].trim_end();
        if !part.is_empty()
            && part.chars().all(tool_char)
            && (before.ends_with("use the") || before.ends_with("call the"))
            && (after.starts_with("tool") && !after.starts_with("toolkit"))
        {
            let mut u = found(
                DepKind::Tools,
                part.to_owned(),
                None,
                line_no,
                &columns,
                start,
            );
            u.phrase = true;
            out.push(u);
        }
        let _ = spans.size_hint();
    }
}

fn found(
    kind: DepKind,
    name: String,
    file: Option<&str>,
    line: u32,
    text: &Columns,
    at: usize,
) -> Use {
    let column = text.column(at);
    let text = text.text();
    let mut evidence: String = text.trim().chars().take(160).collect();
    if text.trim().chars().nth(160).is_some() {
        evidence.push('…');
    }
    Use {
        kind,
        name,
        file: file.map(str::to_owned),
        line,
        column,
        evidence,
        phrase: false,
    }
}

/// Shell builtins and keywords: never executables.
#[rustfmt::skip]
const SHELL_BUILTINS: &[&str] = &[
    ".", ":", "[", "[[", "]]", "alias", "bg", "bind", "break", "builtin", "caller", "case", "cd",
    "command", "compgen", "complete", "continue", "declare", "dirs", "disown", "do", "done", "echo",
    "elif", "else", "enable", "esac", "eval", "exec", "exit", "export", "false", "fc", "fg", "fi",
    "for", "function", "getopts", "hash", "help", "history", "if", "in", "jobs", "kill", "let",
    "local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read", "readarray", "readonly",
    "return", "select", "set", "setopt", "shift", "shopt", "source", "suspend", "test", "then",
    "time", "times", "trap", "true", "type", "typeset", "ulimit", "umask", "unalias", "unset",
    "unsetopt", "until", "wait", "while",
];

/// POSIX's base utilities, which every Unix machine has: a skill that runs them asks nothing of
/// the machine worth declaring.
#[rustfmt::skip]
const BASE_UTILITIES: &[&str] = &[
    "awk", "basename", "cat", "chmod", "chown", "clear", "cmp", "comm", "cp", "cut", "date", "dd",
    "df", "diff", "dirname", "du", "env", "expr", "file", "find", "grep", "egrep", "fgrep", "head",
    "hostname", "id", "install", "join", "less", "ln", "ls", "mkdir", "mktemp", "more", "mv", "nl",
    "nohup", "od", "paste", "ps", "rm", "rmdir", "sed", "seq", "sh", "sleep", "sort", "split",
    "stat", "tail", "tee", "touch", "tr", "tty", "uname", "uniq", "wc", "which", "whoami", "xargs",
    "yes",
];

/// Words that start lines of prose or of another language pasted into a shell block; no
/// executable is called so.
#[rustfmt::skip]
const NOT_COMMANDS: &[&str] = &[
    "a", "an", "and", "as", "at", "by", "class", "const", "def", "else:", "except", "from",
    "import", "pass", "raise", "try", "is", "it", "let", "not", "note", "of", "on", "or", "output",
    "print", "result", "return", "see", "so", "that", "the", "this", "to", "use", "var", "with",
    "you",
];

/// Words before the command that run it (`sudo gh ...`): skipped, with their flags.
#[rustfmt::skip]
const WRAPPERS: &[&str] = &[
    "sudo", "env", "time", "nohup", "exec", "command", "builtin", "nice", "xargs", "timeout",
    "then", "do", "else", "elif", "if", "while", "until", "!", "{", "(", "stdbuf", "caffeinate",
];

/// Variables every shell or OS sets, or a host or a job's launcher sets for the skill.
#[rustfmt::skip]
const COMMON_VARS: &[&str] = &[
    "APPDATA", "ARGUMENTS", "BASH_SOURCE", "BASH_VERSION", "CI", "CLAUDE_PLUGIN_ROOT",
    "CLAUDE_PROJECT_DIR", "CLAUDE_SKILL_DIR", "COLUMNS", "COMPUTERNAME", "EDITOR", "EUID",
    "GITHUB_ENV", "GITHUB_OUTPUT", "GITHUB_PATH", "GITHUB_STEP_SUMMARY", "GITHUB_WORKSPACE", "HOME",
    "HOMEDRIVE", "HOMEPATH", "HOSTNAME", "HOSTTYPE", "IFS", "LANG", "LANGUAGE", "LINENO", "LINES",
    "LOCALAPPDATA", "LOGNAME", "MACHTYPE", "OLDPWD", "OPTARG", "OPTIND", "OS", "OSTYPE", "PAGER",
    "PATH", "PATHEXT", "PIPESTATUS", "PPID", "PROGRAMFILES", "PS1", "PS2", "PS4", "PSHOME", "PWD",
    "RANDOM", "REPLY", "SECONDS", "SHELL", "SHLVL", "SYSTEMROOT", "TEMP", "TERM", "TMP", "TMPDIR",
    "UID", "USER", "USERNAME", "USERPROFILE", "VISUAL", "WINDIR",
    // Set by a distributed launcher (torchrun, SLURM) on the nodes it starts.
    "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT", "NODE_RANK", "RANK", "WORLD_SIZE",
];

fn common_var(name: &str) -> bool {
    COMMON_VARS.contains(&name)
        || [
            "LC_",
            "XDG_",
            "BASH_",
            "RUNNER_",
            "SKYPILOT_",
            "SLURM_",
            "OMPI_",
            "PMI_",
        ]
        .iter()
        .any(|p| name.starts_with(p))
}

/// An environment variable's name as scripts write the ones they read from outside: upper case.
fn env_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_uppercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        && name.chars().any(|c| c.is_ascii_uppercase())
        && name.len() > 1
        && !common_var(name)
}

/// The interpreter a script of the skill's own needs, by its extension.
fn interpreter_of(path: &str) -> Option<&'static str> {
    let ext = path.rsplit_once('.')?.1;
    match ext {
        "py" => Some("python3"),
        "js" | "mjs" | "cjs" => Some("node"),
        "sh" | "bash" => Some("bash"),
        "ps1" => Some("pwsh"),
        _ => None,
    }
}

/// A command the body runs by the name of one of the skill's own scripts (`spotify play` beside
/// `spotify.sh`, `twclaw read` beside `bin/twclaw.js`) is that script, put on `PATH` by the
/// skill's set-up: what it needs is the script's interpreter. `scripts`: the skill's scripts,
/// by their paths from its folder.
pub(crate) fn own_commands(uses: &mut [Use], scripts: &[String]) {
    // Each script's name without its extension, to its interpreter; the first script of a
    // name answers, as the walk sorted them.
    let mut by_stem: foldhash::HashMap<&str, &'static str> = foldhash::HashMap::default();
    for s in scripts {
        let name = s.rsplit('/').next().unwrap_or(s);
        if let (Some((stem, _)), Some(interpreter)) = (name.rsplit_once('.'), interpreter_of(name))
        {
            by_stem.entry(stem).or_insert(interpreter);
        }
    }
    for u in uses
        .iter_mut()
        .filter(|u| u.kind == DepKind::Bins && u.file.is_none())
    {
        if let Some(interpreter) = by_stem.get(u.name.as_str()) {
            u.name = (*interpreter).to_owned();
        }
    }
}

/// A word that names a command on `PATH`.
fn command_name(w: &str) -> bool {
    let first = w.chars().next();
    first.is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && w.len() <= 40
        && w.chars().any(|c| c.is_ascii_lowercase())
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '+'))
        && !w.ends_with('.')
        && !w.chars().any(|c| c.is_ascii_uppercase())
        && !has_data_extension(w)
}

fn has_data_extension(w: &str) -> bool {
    w.rsplit_once('.').is_some_and(|(_, ext)| {
        matches!(
            ext,
            "md" | "json"
                | "txt"
                | "yaml"
                | "yml"
                | "py"
                | "sh"
                | "js"
                | "ts"
                | "csv"
                | "html"
                | "xml"
                | "toml"
                | "log"
                | "com"
                | "io"
                | "org"
                | "png"
                | "jpg"
                | "jpeg"
                | "gif"
                | "svg"
                | "pdf"
                | "zip"
        )
    })
}

/// Split a logical shell line into its simple commands' texts, each with its byte offset:
/// at unquoted `|`, `&`, `;`, `(`, `)` and backquotes, and inside `$(...)`.
fn segments(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let (mut single, mut double) = (false, false);
    let mut start = 0;
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\\' if !single => i += 1,
            b'\'' if !double => single = !single,
            b'"' if !single => double = !double,
            b'#' if !single && !double && (i == 0 || bytes[i - 1] == b' ') => {
                // A comment runs to the end of the line.
                break;
            }
            b'(' if !single && bytes.get(i + 1) == Some(&b'(') => {
                // Arithmetic, `((n++))` or `$((a / b))`: no command inside.
                let close = line[i..].find("))").map_or(bytes.len(), |c| i + c + 2);
                if i == 0 || bytes[i - 1] != b'$' {
                    out.push((start, &line[start..i]));
                    start = close;
                }
                i = close;
                continue;
            }
            b')' if !single && !double && depth == 0 => {
                // A `case` pattern (`start|stop)`): the words before it are no command.
                out.clear();
                start = i + 1;
            }
            b'(' if !single && !double => {
                depth += 1;
                // A subshell or a substitution; `word(` or `text (aside)` is not one.
                let before = line[..i].trim_end().as_bytes().last().copied();
                if matches!(
                    before,
                    None | Some(b'$' | b'<' | b'>' | b'|' | b'&' | b';' | b'(' | b'=')
                ) {
                    out.push((start, &line[start..i]));
                    start = i + 1;
                }
            }
            b')' if !single && !double => {
                depth = depth.saturating_sub(1);
                out.push((start, &line[start..i]));
                start = i + 1;
            }
            // `a|b` with no space is a usage line's alternatives (`--style solid|dashed`).
            b'|' if !single
                && !double
                && !line[..i].ends_with([' ', '|'])
                && !line[i + 1..].starts_with([' ', '|', '&']) => {}
            b'|' | b'&' | b';' | b'`' if !single && !double => {
                out.push((start, &line[start..i]));
                start = i + 1;
            }
            b'(' if double && i > 0 && bytes[i - 1] == b'$' => {
                // A command substitution inside double quotes.
                out.push((start, &line[start..i]));
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let end = i.min(line.len());
    if start < end {
        out.push((start, &line[start..end]));
    }
    out
}

/// The words of a simple command, split at whitespace outside quotes, each with its byte
/// offset in the segment; a word keeps its quotes.
fn words(seg: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut at = None;
    let (mut single, mut double) = (false, false);
    for (i, c) in seg.char_indices() {
        match c {
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            c if c.is_whitespace() && !single && !double => {
                if let Some(a) = at.take() {
                    out.push((a, &seg[a..i]));
                }
                continue;
            }
            _ => {}
        }
        at.get_or_insert(i);
    }
    if let Some(a) = at {
        out.push((a, &seg[a..]));
    }
    out
}

fn is_assignment(w: &str) -> Option<&str> {
    let (name, _) = w.split_once('=')?;
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some(name)
}

/// The command a simple command runs: its index in `words`, past assignments and wrappers.
fn command_word(words: &[(usize, &str)]) -> Option<usize> {
    let mut i = 0;
    while i < words.len() {
        let w = words[i].1;
        if is_assignment(w).is_some() {
            i += 1;
            continue;
        }
        // `command -v x` asks whether x is there; it does not need it.
        if w == "command" && words.get(i + 1).is_some_and(|o| o.1 == "-v" || o.1 == "-V") {
            return None;
        }
        if WRAPPERS.contains(&w) {
            i += 1;
            // The wrapper's options, and the values some of them take.
            while i < words.len() {
                let o = words[i].1;
                if o.starts_with('-') {
                    i += 1;
                    if matches!(o, "-u" | "-g" | "-n" | "-I" | "-s" | "-k") && i < words.len() {
                        i += 1;
                    }
                } else if (w == "timeout" && o.chars().next().is_some_and(|c| c.is_ascii_digit()))
                    || (w == "env" && is_assignment(o).is_some())
                {
                    i += 1;
                } else {
                    break;
                }
            }
            continue;
        }
        return Some(i);
    }
    None
}

/// An operating system's package managers: what a skill says to install with them is one way
/// to get what it needs, given per system (`brew` on macOS, `apt` on Debian, `winget` on
/// Windows), so the manager itself is no need of the skill.
#[rustfmt::skip]
const OS_PACKAGE_MANAGERS: &[&str] = &[
    "apk", "apt", "apt-get", "brew", "choco", "dnf", "pacman", "pkg", "port", "scoop", "snap",
    "winget", "yum", "zypper",
];

/// A language's package managers, with the actions by which they install packages: a skill
/// that says to install with them is being set up, and needs what it installs (the
/// interpreter, the package), not the manager. Their other uses (`npm run build`) still count.
const LANGUAGE_PACKAGE_MANAGERS: &[(&str, &[&str])] = &[
    ("bun", &["add", "install", "i"]),
    ("cargo", &["install"]),
    ("composer", &["install", "require"]),
    ("conda", &["install"]),
    ("gem", &["install"]),
    ("go", &["install", "get"]),
    ("mamba", &["install"]),
    ("npm", &["install", "i", "ci"]),
    ("pip", &["install"]),
    ("pip3", &["install"]),
    ("pipx", &["install"]),
    ("pnpm", &["add", "install", "i"]),
    ("poetry", &["add", "install"]),
    ("uv", &["add", "pip", "sync", "tool"]),
    ("yarn", &["add", "global", "install"]),
];

/// Is the command `ws[k]` a package manager installing or refreshing packages (`brew install
/// gh`, `sudo apt-get update`, `pacman -S jq`, `pip install requests`, `npm install -g x`)?
/// Its other uses (`brew --prefix`, `npm test`) still count, and a language's managers count
/// where `installing` is the skill's work ([`installs_as_its_work`]).
fn installs_packages(ws: &[(usize, &str)], k: usize, installing: bool) -> bool {
    let manager = ws[k].1.strip_suffix(".exe").unwrap_or(ws[k].1);
    let rest = &ws[k + 1..];
    let action = rest.iter().find(|(_, w)| !w.starts_with('-')).map(|w| w.1);
    if let Some((_, actions)) = LANGUAGE_PACKAGE_MANAGERS.iter().find(|m| m.0 == manager) {
        return !installing && action.is_some_and(|a| actions.contains(&a));
    }
    if !OS_PACKAGE_MANAGERS.contains(&manager) {
        return false;
    }
    if manager == "pacman" {
        return rest.iter().any(|(_, w)| w.starts_with("-S"));
    }
    action.is_some_and(|a| {
        matches!(
            a,
            "install" | "reinstall" | "add" | "update" | "upgrade" | "tap"
        )
    })
}

/// The packages a Python or npm package manager's install line names (`pip install Pillow
/// -q`, `npm install gsap@3`, `uv pip install -r x.txt` names none), each with the byte of its
/// word, named as the skill's other package needs are (`npm:gsap`).
fn installed_packages(ws: &[(usize, &str)], k: usize) -> Vec<(usize, String)> {
    let npm = matches!(ws[k].1, "npm" | "yarn" | "pnpm" | "bun");
    let python = matches!(ws[k].1, "pip" | "pip3" | "uv" | "poetry");
    // The words after the action (`install`, `add`; `uv pip install`: after both).
    let mut args = ws[k + 1..].iter().skip_while(|(_, w)| w.starts_with('-'));
    let action = args.next().map(|a| a.1);
    // `uv tool install ruff` installs a command, `uv sync` a project's locked packages.
    if !npm && !python || matches!(action, Some("tool" | "sync")) {
        return Vec::new();
    }
    // Options whose value is the next word: a file, a folder or an index, not a package.
    const TAKES_VALUE: &[&str] = &[
        "-r",
        "-e",
        "-c",
        "-t",
        "-i",
        "--requirement",
        "--editable",
        "--constraint",
        "--target",
        "--prefix",
        "--index-url",
        "--extra-index-url",
        "--python",
        "--group",
    ];
    let mut out = Vec::new();
    let mut skip = false;
    let mut args = args.peekable();
    if matches!(action, Some("pip" | "global")) {
        args.next_if(|(_, w)| matches!(*w, "install" | "add"));
    }
    for &(at, w) in args {
        let w = w.trim_matches(['"', '\'']);
        if std::mem::take(&mut skip) || w.is_empty() {
            continue;
        }
        if w.starts_with('-') {
            skip = TAKES_VALUE.contains(&w);
            continue;
        }
        if w.starts_with('.') || w.contains(['$', ':', '\\']) || w.ends_with(".txt") {
            continue;
        }
        if npm {
            // `@scope/pkg@1.2` and `gsap@3` without their versions.
            let (scope, rest) = w.strip_prefix('@').map_or(("", w), |r| ("@", r));
            let name = rest.split('@').next().unwrap_or(rest);
            let parts = name.split('/').count();
            if !name.is_empty() && (parts == 1 || scope == "@" && parts == 2) {
                out.push((at, format!("npm:{scope}{name}")));
            }
        } else if !w.contains('/') && crate::parse::packages::parse_one(w).is_some() {
            out.push((at, w.to_owned()));
        }
    }
    out
}

/// A shell line as it runs: the lines it was written on joined.
struct Logical<'a> {
    /// The number of its first line.
    number: u32,
    text: std::borrow::Cow<'a, str>,
    /// Where each line after the first starts in `text`, and its number.
    continued: Vec<(usize, u32)>,
}

impl Logical<'_> {
    /// The line byte `at` of the text was written on, and the byte there, counted from the
    /// start of that line's text.
    fn place(&self, at: usize) -> (u32, usize) {
        self.continued
            .iter()
            .rev()
            .find(|(start, _)| *start <= at)
            .map_or((self.number, at), |&(start, n)| (n, at - start))
    }
}

/// The lines of a shell block or script joined where they continue (`\` at the end), heredoc
/// bodies left out.
fn logical_lines<'a>(lines: &[(u32, &'a str)]) -> Vec<Logical<'a>> {
    let mut out: Vec<Logical<'a>> = Vec::new();
    let mut heredoc: Option<String> = None;
    let mut cont = false;
    let mut joined = 0;
    // The quotes of the logical line being built, read as its pieces are joined.
    let mut quotes = Quotes::default();
    for &(n, line) in lines {
        if let Some(end) = &heredoc {
            if line.trim() == end {
                heredoc = None;
            }
            continue;
        }
        if let Some(at) = line.find("<<") {
            let tag = line[at + 2..]
                .trim_start_matches(['-', '~'])
                .trim_start()
                .trim_start_matches(['\'', '"']);
            let tag: String = tag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !tag.is_empty() {
                heredoc = Some(tag);
            }
        }
        let (text, more) = match line.trim_end().strip_suffix('\\') {
            Some(t) => (t, true),
            None => (line, false),
        };
        if cont && let Some(last) = out.last_mut() {
            // Appended in place: thousands of continued lines make one long line.
            let joined = last.text.to_mut();
            joined.push(' ');
            last.continued.push((joined.len(), n));
            joined.push_str(text);
            quotes.read(" ");
        } else {
            out.push(Logical {
                number: n,
                text: std::borrow::Cow::Borrowed(text),
                continued: Vec::new(),
            });
            quotes = Quotes::default();
        }
        quotes.read(text);
        // A quote left open goes on over the next lines (`python3 -c "...`), for a while: a
        // stray apostrophe must not swallow the rest of the text.
        joined = if cont { joined + 1 } else { 0 };
        cont = more || (joined < 500 && quotes.open());
    }
    out
}

/// Whether a shell line leaves a quote open, read a piece at a time as continued lines are
/// joined; a `#` outside quotes starts a comment, which leaves none open.
#[derive(Default)]
struct Quotes {
    single: bool,
    double: bool,
    comment: bool,
    /// A `\` outside single quotes: the next character is taken as it is.
    escaped: bool,
}

impl Quotes {
    fn read(&mut self, text: &str) {
        for c in text.chars() {
            if self.comment {
                return;
            }
            if self.escaped {
                self.escaped = false;
                continue;
            }
            match c {
                '\\' if !self.single => self.escaped = true,
                '\'' if !self.double => self.single = !self.single,
                '"' if !self.single => self.double = !self.double,
                '#' if !self.single && !self.double => self.comment = true,
                _ => {}
            }
        }
    }

    fn open(&self) -> bool {
        !self.comment && (self.single || self.double)
    }
}

/// The commands and variables of shell text: a body's block (`file` is `None`) or a script.
fn shell(
    lines: &[(u32, &str)],
    lang: Lang,
    file: Option<&str>,
    installing: bool,
    assigned: &mut Names,
    out: &mut Vec<Use>,
) {
    // A block that shows prompts is a session: only what follows a prompt is typed.
    fn prompted(l: &str) -> Option<&str> {
        let t = l.trim_start();
        t.strip_prefix("$ ").or_else(|| t.strip_prefix("% "))
    }
    let session = lang == Lang::Console || lines.iter().any(|(_, l)| prompted(l).is_some());
    let typed: Vec<(u32, &str, usize)> = lines
        .iter()
        .filter_map(|&(n, l)| {
            if session {
                let rest = prompted(l)?;
                Some((n, rest, l.len() - rest.len()))
            } else {
                Some((n, l, 0))
            }
        })
        .collect();
    let plain: Vec<(u32, &str)> = typed.iter().map(|(n, l, _)| (*n, *l)).collect();
    // Lines are numbered in a row: a line's place in `lines` is its number less the first's,
    // and a typed line is found by halving.
    let first = lines.first().map_or(0, |l| l.0);
    let shift = |n: u32| {
        if session {
            typed
                .binary_search_by_key(&n, |t| t.0)
                .map_or(0, |i| typed[i].2)
        } else {
            0
        }
    };
    let logical = logical_lines(&plain);
    // Names the text defines: functions it calls like commands, variables it assigns.
    let mut functions = Names::default();
    for l in logical.iter().map(|l| &l.text) {
        let t = l.trim_start();
        let t = t.strip_prefix("function ").unwrap_or(t);
        let name: String = t
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
            .collect();
        if !name.is_empty() && t[name.len()..].trim_start().starts_with("()") {
            functions.insert(name);
        }
        for (_, seg) in segments(l) {
            assignments(&words(seg), assigned);
        }
    }
    // After a Python virtual environment is activated, its own `pip` and `python` run.
    let mut venv = false;
    // After a comment that offers what follows as another way (`# Or install with uv`), up
    // to a blank line or the next comment: the block's first way is the one it needs.
    let mut another_way = false;
    for line in &logical {
        let raw: &str = &line.text;
        let trimmed = raw.trim();
        if let Some(comment) = trimmed.strip_prefix('#') {
            another_way = alternative_lead(comment);
            continue;
        }
        if trimmed.is_empty() {
            another_way = false;
        }
        // An arrow marks a line of notes, not of commands.
        if raw.contains(['→', '←']) || another_way {
            continue;
        }
        let n = line.number;
        let shift = shift(n);
        let written = |m: u32| {
            lines
                .get(m.saturating_sub(first) as usize)
                .filter(|(k, _)| *k == m)
                .map(|(_, t)| *t)
        };
        let first_line = Columns::new(written(n).unwrap_or(raw));
        // A use at byte `at` of the logical line, placed on the line it was written on.
        let place = |kind: DepKind, name: String, at: usize| match line.place(at) {
            (m, on) if m != n => {
                let text = written(m).unwrap_or("");
                found(kind, name, file, m, &Columns::new(text), on)
            }
            _ => found(kind, name, file, n, &first_line, shift + at),
        };
        for (at, seg) in segments(raw) {
            let ws = words(seg);
            if let Some(k) = command_word(&ws) {
                let (wat, w) = (&ws[k].0, ws[k].1);
                let col = at + wat;
                venv |= activates_venv(&ws[k..]);
                if venv && VENV_COMMANDS.contains(&w) {
                    // The environment's own, not the machine's.
                } else if functions.contains(w) {
                    // A function given a bare name may fill it (`prompt_input "..." NAME`).
                    for (_, a) in &ws[k + 1..] {
                        if env_name(a) {
                            assign(assigned, a);
                        }
                    }
                } else if let Some(interp) = own_script(w) {
                    out.push(place(DepKind::Bins, interp.to_owned(), col));
                } else if command_name(w)
                    && !SHELL_BUILTINS.contains(&w)
                    && !BASE_UTILITIES.contains(&w)
                    && !NOT_COMMANDS.contains(&w)
                    && !ws
                        .get(k + 1)
                        .is_some_and(|n| n.1.starts_with('=') || n.1 == "+=")
                {
                    if installs_packages(&ws, k, installing) {
                        for (wat, name) in installed_packages(&ws, k) {
                            out.push(place(DepKind::Packages, name, at + wat));
                        }
                    } else {
                        out.push(place(DepKind::Bins, w.to_owned(), col));
                    }
                }
            }
            shell_vars(seg, assigned, |i, name| {
                out.push(place(DepKind::Env, name, at + i));
            });
        }
    }
}

/// What a Python virtual environment puts first on `PATH` once activated: it brings its own
/// `pip`, and `python` whatever the interpreter that made it was called.
const VENV_COMMANDS: &[&str] = &["pip", "pip3", "python"];

/// Whether a simple command activates a virtual environment: `source .venv/bin/activate`,
/// `. venv/bin/activate`.
fn activates_venv(ws: &[(usize, &str)]) -> bool {
    matches!(ws, [(_, "source" | "."), (_, path), ..] if path.trim_matches(['"', '\'']).ends_with("bin/activate"))
}

/// Note `name` as assigned.
fn assign(assigned: &mut Names, name: &str) {
    if !assigned.contains(name) {
        assigned.insert(name.to_owned());
    }
}

/// The names a simple command assigns: `X=1`, `export X=1`, `local X`, `for X in`, and every
/// name `read` fills (`read -r -p "..." X Y`).
fn assignments(ws: &[(usize, &str)], assigned: &mut Names) {
    let reads = ws
        .iter()
        .any(|w| w.1 == "read" || w.1 == "mapfile" || w.1 == "readarray");
    for (k, (_, w)) in ws.iter().enumerate() {
        if let Some(name) = is_assignment(w) {
            assign(assigned, name);
        } else if (reads && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
            || (k > 0
                && matches!(
                    ws[k - 1].1,
                    "for" | "local" | "declare" | "export" | "readonly" | "typeset" | "select"
                ))
        {
            assign(assigned, w);
        }
    }
}

/// Words that start the name of a script, or of a folder of scripts, that installs or sets up
/// a skill ([`installer`]).
const INSTALLER_WORDS: &[&str] = &["install", "setup", "uninstall", "bootstrap", "wizard"];

/// Scripts that install or set up the skill rather than do its work, by their name or a
/// folder's (`install.sh`, `setup.py`, `wizard/`): what they run is how the skill is put on a
/// machine, not what it needs there, unless the SKILL.md names them.
pub(crate) fn installer(rel: &str) -> bool {
    rel.split('/')
        .any(|part| INSTALLER_WORDS.iter().any(|p| part.starts_with(p)))
}

/// The file names of the installer scripts `text` names ([`installer`]: `setup.sh` in "run the
/// setup.sh included in resources", `install.sh` in `bash wizard/install.sh`), once, sorted;
/// not where a section for the person installing the skill names them ([`user_heading`]).
/// Only the words of an installer's name are searched for: other scripts are read whether the
/// text names them or not.
pub(crate) fn installers_named(text: &str) -> Vec<String> {
    static WORDS: std::sync::LazyLock<Vec<memchr::memmem::Finder<'static>>> =
        std::sync::LazyLock::new(|| {
            INSTALLER_WORDS
                .iter()
                .map(memchr::memmem::Finder::new)
                .collect()
        });
    let bytes = text.as_bytes();
    // The path the word is in: up to white space, a quote, a bracket or punctuation.
    let stop = |b: &u8| b.is_ascii_whitespace() || b"`'\"()[]<>:,;=|".contains(b);
    let mut words: Vec<(usize, usize)> = WORDS
        .iter()
        .flat_map(|w| {
            w.find_iter(bytes)
                .map(move |at| (at, at + w.needle().len()))
        })
        .collect();
    words.sort_unstable();
    // A path holding several of the words (`setup/setup.sh`, or one long run of them) is
    // read once, at the first, so a text is read along once.
    let mut read_to = 0;
    let named: Vec<(usize, &str)> = words
        .into_iter()
        .filter_map(|(at, after)| {
            if at < read_to {
                return None;
            }
            let start = bytes[..at].iter().rposition(stop).map_or(0, |i| i + 1);
            let end = after
                + bytes[after..]
                    .iter()
                    .position(stop)
                    .unwrap_or(bytes.len() - after);
            read_to = end;
            let path = text.get(start..end)?.trim_end_matches('.');
            let name = path.rsplit('/').next().unwrap_or(path);
            (installer(path) && interpreter_of(name).is_some()).then_some((at, name))
        })
        .collect();
    if named.is_empty() {
        return Vec::new();
    }
    // The text's sections are read once, and only for a text that names an installer.
    let headings = if installs_as_its_work(text) {
        Vec::new()
    } else {
        user_sections(text)
    };
    let mut out: Vec<String> = named
        .into_iter()
        .filter(|(at, _)| !in_user_section(&headings, *at))
        .map(|(_, name)| name.to_owned())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// A path to one of the skill's own scripts (`./scripts/run.sh`, `scripts/x.py`,
/// `${CLAUDE_SKILL_DIR}/scripts/x.py`): the interpreter it needs.
fn own_script(w: &str) -> Option<&'static str> {
    let rel = w
        .strip_prefix("${CLAUDE_SKILL_DIR}/")
        .or_else(|| w.strip_prefix("$CLAUDE_SKILL_DIR/"))
        .or_else(|| w.strip_prefix("./"))
        .unwrap_or(w);
    if rel.starts_with('/') || rel.contains("..") || !rel.contains('/') && w == rel {
        return None;
    }
    // A script run by its path needs the interpreter of its shebang; by its extension here.
    interpreter_of(rel).filter(|_| rel.chars().all(|c| !c.is_whitespace() && c != '$'))
}

/// The variables a shell segment reads: `$X`, `${X}`; not inside single quotes, not with a
/// default (`${X:-...}`), not one the text assigned before; each given to `read` with the byte
/// of `seg` where its `$` is.
fn shell_vars(seg: &str, assigned: &Names, mut read: impl FnMut(usize, String)) {
    let bytes = seg.as_bytes();
    let mut single = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\'' => single = !single,
            b'\\' => i += 1,
            b'$' if !single => {
                let braced = bytes.get(i + 1) == Some(&b'{');
                let from = i + 1 + usize::from(braced);
                let name: String = seg[from.min(seg.len())..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                let after = seg.get(from + name.len()..).unwrap_or("");
                let defaulted = braced
                    && (after.starts_with(":-")
                        || after.starts_with('[')
                        || after.starts_with(":=")
                        || after.starts_with('-')
                        || after.starts_with(":+")
                        || after.starts_with('='));
                if env_name(&name) && !defaulted && !assigned.contains(&name) {
                    read(i, name);
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// PowerShell's keywords and the aliases it defines for its own cmdlets.
#[rustfmt::skip]
const PS_BUILTINS: &[&str] = &[
    "begin", "break", "catch", "cd", "class", "clear", "cls", "continue", "copy", "cp", "del",
    "dir", "do", "echo", "else", "elseif", "end", "enum", "exit", "filter", "finally", "for",
    "foreach", "function", "gc", "gci", "if", "iex", "in", "irm", "iwr", "ls", "md", "mkdir",
    "move", "mv", "param", "popd", "process", "pushd", "pwd", "ren", "return", "rm", "rmdir",
    "select", "sleep", "sort", "switch", "throw", "trap", "try", "type", "until", "using", "where",
    "while", "write", "cat", "tee", "man", "help", "start", "kill", "ps", "diff",
];

/// The commands and variables of PowerShell text.
fn powershell(lines: &[(u32, &str)], file: Option<&str>, installing: bool, out: &mut Vec<Use>) {
    let mut assigned = Names::default();
    // Inside a `<# ... #>` comment or an `@" ... "@` here-string: no statements.
    let mut until: Option<&str> = None;
    for &(n, line) in lines {
        let t = line.trim();
        if let Some(end) = until {
            if t.contains(end) {
                until = None;
            }
            continue;
        }
        if t.starts_with("<#") && !t.contains("#>") {
            until = Some("#>");
            continue;
        }
        if t.ends_with("@\"") || t.ends_with("@'") {
            until = Some(if t.ends_with("@\"") { "\"@" } else { "'@" });
        }
        // Attributes (`[Parameter(...)]`), comments, and the rest of a statement.
        if t.starts_with(['[', '#', '|', '}', '{', ')', '.', '-', '@', '"', '\'']) {
            continue;
        }
        let columns = Columns::new(line);
        let (shift, text) = match line.trim_start().strip_prefix("PS ") {
            Some(rest) => match rest.find("> ") {
                Some(p) => (line.len() - rest.len() + p + 2, &rest[p + 2..]),
                None => (0, line),
            },
            None => (0, line),
        };
        for (at, seg) in segments(text) {
            let ws = words(seg);
            let mut k = 0;
            // `& "x"`, `& x`: the call operator runs what follows.
            if ws.first().is_some_and(|w| w.1 == "&") {
                k = 1;
            }
            if ws
                .first()
                .is_some_and(|w| w.1.eq_ignore_ascii_case("Start-Process"))
            {
                k = 1;
                if ws.get(1).is_some_and(|w| w.1.starts_with('-')) {
                    k = 2;
                }
            }
            // `Name = value`: a hashtable entry or an assignment.
            if ws.get(k + 1).is_some_and(|n| n.1.starts_with('=')) {
                continue;
            }
            if let Some((wat, w)) = ws.get(k) {
                let w = w.trim_matches(['"', '\'']);
                let exe = w.strip_suffix(".exe").unwrap_or(w);
                // Cmdlets (`Get-Item`) and functions are PowerShell's own, not executables.
                let cmdlet =
                    w.contains('-') && w.chars().next().is_some_and(|c| c.is_ascii_uppercase());
                if let Some(interp) = own_script(w) {
                    out.push(found(
                        DepKind::Bins,
                        interp.to_owned(),
                        file,
                        n,
                        &columns,
                        shift + at + wat,
                    ));
                } else if !cmdlet
                    && !w.starts_with('$')
                    && command_name(exe)
                    && !PS_BUILTINS.contains(&exe)
                    && !NOT_COMMANDS.contains(&exe)
                    && !installs_packages(&ws, k, installing)
                    && !w.contains(['\\', '/'])
                {
                    out.push(found(
                        DepKind::Bins,
                        exe.to_owned(),
                        file,
                        n,
                        &columns,
                        shift + at + wat,
                    ));
                }
            }
        }
        // `$env:X` reads a variable; `$env:X = ...` sets it.
        let lower = text.to_ascii_lowercase();
        let mut from = 0;
        while let Some(p) = lower[from..].find("$env:") {
            let p = from + p;
            let name: String = text[p + 5..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            let rest = text[p + 5 + name.len()..].trim_start();
            let upper = name.to_ascii_uppercase();
            if rest.starts_with('=') && !rest.starts_with("==") {
                assign(&mut assigned, &upper);
            } else if !name.is_empty()
                && !common_var(&upper)
                && !assigned.contains(&upper)
                && !name.starts_with(|c: char| c.is_ascii_digit())
            {
                out.push(found(DepKind::Env, upper, file, n, &columns, shift + p));
            }
            from = p + 5;
        }
    }
}

/// What the skill's own files are called, for telling its own modules from packages.
#[derive(Default, Debug)]
pub(crate) struct Local {
    /// Python module names: the scripts' stems and the folders holding them.
    pub python: Vec<String>,
}

impl Local {
    pub(crate) fn of(paths: &[String]) -> Local {
        let mut python = Vec::new();
        for p in paths {
            let mut parts: Vec<&str> = p.split('/').collect();
            if let Some(stem) = parts.pop().and_then(|last| last.strip_suffix(".py")) {
                python.push(stem.to_owned());
            }
            python.extend(parts.iter().map(|s| (*s).to_owned()));
        }
        python.sort();
        python.dedup();
        Local { python }
    }
}

/// The uses in one of the skill's scripts, at `rel` (its path from the skill's folder).
pub(crate) fn of_script(rel: &str, text: &str, local: &Local) -> Vec<Use> {
    let mut out = Vec::new();
    let lines: Vec<(u32, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i as u32 + 1, l))
        .collect();
    let file = Some(rel);
    if let Some((_, first)) = lines.first()
        && let Some(bang) = first.strip_prefix("#!")
        && let Some(interp) = shebang(bang)
        && !BASE_UTILITIES.contains(&interp.as_str())
    {
        let at = first.find(interp.as_str()).unwrap_or(0);
        out.push(found(
            DepKind::Bins,
            interp,
            file,
            1,
            &Columns::new(first),
            at,
        ));
    }
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    match (name, ext) {
        ("requirements.txt", _) => requirements_txt(&lines, rel, &mut out),
        ("package.json", _) => package_json(text, rel, &mut out),
        (_, "sh" | "bash") => shell(
            &lines,
            Lang::Shell,
            file,
            false,
            &mut Names::default(),
            &mut out,
        ),
        (_, "ps1" | "psm1") => powershell(&lines, file, false, &mut out),
        (_, "py") => python(text, &lines, rel, local, &mut out),
        (_, "js" | "mjs" | "cjs" | "ts") => node(text, &lines, rel, &mut out),
        _ => {}
    }
    out
}

/// Leave out of a skill's script `uses` the interpreter a shebang names when `body_runs` (what
/// the body runs) holds another of its family: a shebang names the interpreter only for a
/// script run by its path, and a body that runs the scripts with another (`python x.py` beside
/// `#!/usr/bin/env python3`) says which one the skill needs.
pub(crate) fn shebangs_give_way(uses: &mut Vec<Use>, body_runs: &[&str]) {
    uses.retain(|u| {
        let shebang = u.kind == DepKind::Bins && u.evidence.starts_with("#!");
        !shebang
            || body_runs.contains(&u.name.as_str())
            || !body_runs
                .iter()
                .any(|b| interpreter_family(b) == interpreter_family(&u.name))
    });
}

/// Which interpreter `name` is, whatever its version: `python3.11` and `python` are both
/// Python, and so is `uv`, whose `uv run x.py` brings the Python it runs a script with;
/// anything else is itself.
fn interpreter_family(name: &str) -> &str {
    let versioned = |stem: &str| {
        name.strip_prefix(stem)
            .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
    };
    if versioned("python") || name == "uv" {
        "python"
    } else if name == "nodejs" {
        "node"
    } else {
        name
    }
}

/// The interpreter a shebang names: `/usr/bin/env python3` → `python3`.
fn shebang(bang: &str) -> Option<String> {
    let mut words = bang.split_whitespace();
    let first = words.next()?;
    let prog = first.rsplit('/').next()?;
    let prog = if prog == "env" {
        words.find(|w| !w.starts_with('-') && is_assignment(w).is_none())?
    } else {
        prog
    };
    command_name(prog).then(|| prog.to_owned())
}

fn requirements_txt(lines: &[(u32, &str)], rel: &str, out: &mut Vec<Use>) {
    for &(n, line) in lines {
        let t = line.split('#').next().unwrap_or("").trim();
        if t.is_empty() || t.starts_with('-') || t.contains("://") {
            continue;
        }
        let name: String = t
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
            .collect();
        if !name.is_empty() {
            // The whole requirement, so its version specifier is judged too.
            let req = t.split(';').next().unwrap_or(t).trim().to_owned();
            let at = line.find(&name).unwrap_or(0);
            out.push(found(
                DepKind::Packages,
                req,
                Some(rel),
                n,
                &Columns::new(line),
                at,
            ));
        }
    }
}

fn package_json(text: &str, rel: &str, out: &mut Vec<Use>) {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    let Some(deps) = json.get("dependencies").and_then(|d| d.as_object()) else {
        return;
    };
    // Each name's first place in the text, all found in one pass.
    let needles: Vec<String> = deps.keys().map(|name| format!("\"{name}\"")).collect();
    let mut first: Vec<Option<usize>> = vec![None; needles.len()];
    match aho_corasick::AhoCorasick::new(&needles) {
        Ok(search) => {
            for m in search.find_overlapping_iter(text) {
                first[m.pattern().as_usize()].get_or_insert(m.start());
            }
        }
        Err(_) => {
            for (at, needle) in first.iter_mut().zip(&needles) {
                *at = text.find(needle.as_str());
            }
        }
    }
    let starts = LineStarts::new(text);
    // Placed in the order they stand in the text, so that a file of one long line is counted
    // along once; listed in the order of `dependencies`.
    let names: Vec<&String> = deps.keys().collect();
    let mut by_place: Vec<usize> = (0..names.len()).collect();
    by_place.sort_by_key(|&i| first[i]);
    let mut uses: Vec<Option<Use>> = (0..names.len()).map(|_| None).collect();
    let mut columns = Columns::new("");
    for i in by_place {
        let (line, at, l) = first[i].map_or((1, 0, ""), |p| place(text, &starts, p));
        columns.move_to(l.strip_suffix('\r').unwrap_or(l));
        let name = format!("npm:{}", names[i]);
        uses[i] = Some(found(
            DepKind::Packages,
            name,
            Some(rel),
            line,
            &columns,
            at,
        ));
    }
    out.extend(uses.into_iter().flatten());
}

/// Packages that do their work by running an executable, which must then be on the machine:
/// importing one uses that executable too.
const RUNS: &[(&str, &str)] = &[
    ("ffmpeg-python", "ffmpeg"),
    ("npm:fluent-ffmpeg", "ffmpeg"),
    ("openai-whisper", "ffmpeg"),
    ("pdf2image", "pdftoppm"),
    ("pytesseract", "tesseract"),
];

/// The uses of an import of the package `name`, at the import.
fn imported(
    name: String,
    file: Option<&str>,
    n: u32,
    line: &Columns,
    at: usize,
    out: &mut Vec<Use>,
) {
    if let Some((_, bin)) = RUNS.iter().find(|(p, _)| *p == name) {
        out.push(found(DepKind::Bins, (*bin).to_owned(), file, n, line, at));
    }
    out.push(found(DepKind::Packages, name, file, n, line, at));
}

/// Import names whose distribution is called otherwise.
const PY_DISTRIBUTIONS: &[(&str, &str)] = &[
    ("Crypto", "pycryptodome"),
    ("OpenSSL", "pyOpenSSL"),
    ("PIL", "Pillow"),
    ("attr", "attrs"),
    ("bs4", "beautifulsoup4"),
    ("cv2", "opencv-python"),
    ("dateutil", "python-dateutil"),
    ("docx", "python-docx"),
    ("dotenv", "python-dotenv"),
    ("faiss", "faiss-cpu"),
    ("ffmpeg", "ffmpeg-python"),
    ("fitz", "PyMuPDF"),
    ("gi", "PyGObject"),
    ("git", "GitPython"),
    ("github", "PyGithub"),
    ("googleapiclient", "google-api-python-client"),
    ("jose", "python-jose"),
    ("jwt", "PyJWT"),
    ("magic", "python-magic"),
    ("mpl_toolkits", "matplotlib"),
    ("multipart", "python-multipart"),
    ("pkg_resources", "setuptools"),
    ("pptx", "python-pptx"),
    ("serial", "pyserial"),
    ("skimage", "scikit-image"),
    ("sklearn", "scikit-learn"),
    ("telegram", "python-telegram-bot"),
    ("usb", "pyusb"),
    ("whisper", "openai-whisper"),
    ("win32api", "pywin32"),
    ("win32com", "pywin32"),
    ("yaml", "PyYAML"),
    ("zmq", "pyzmq"),
];

/// The distribution an import name (its first part) comes from, or `None` for the standard
/// library.
pub(crate) fn python_distribution(module: &str, full: &str) -> Option<String> {
    if module.starts_with('_') || super::stdlib::PYTHON_STDLIB.binary_search(&module).is_ok() {
        return None;
    }
    if module == "tests" {
        // A project's own test package, even where the skill does not ship it: no
        // distribution is imported by that name.
        return None;
    }
    if module == "google" {
        // A namespace: the second part names the distribution.
        let mut parts = full.split('.').skip(1);
        return match (parts.next(), parts.next()) {
            (Some("genai"), _) => Some("google-genai".into()),
            (Some("generativeai"), _) => Some("google-generativeai".into()),
            (Some("auth" | "oauth2"), _) => Some("google-auth".into()),
            (Some("protobuf"), _) => Some("protobuf".into()),
            (Some("cloud"), Some(service)) => Some(format!("google-cloud-{service}")),
            _ => None,
        };
    }
    if module == "mysql" && full.starts_with("mysql.connector") {
        return Some("mysql-connector-python".into());
    }
    Some(
        PY_DISTRIBUTIONS
            .iter()
            .find(|(m, _)| *m == module)
            .map_or(module, |(_, d)| d)
            .to_owned(),
    )
}

/// Where a script is in a `try:` that imports packages it can do without: `try: import
/// defusedxml` with `except ImportError:` falling back to the standard library. A handler
/// that stops the script (`sys.exit`, `raise`) or says to install them makes them needs.
enum OptionalImports {
    None,
    /// In a `try:` at this indent; its imports are the uses from `start` on.
    Try {
        indent: usize,
        start: usize,
    },
    /// In its `except ImportError:` handler; whether it stops the script.
    Handler {
        indent: usize,
        start: usize,
        stops: bool,
    },
}

impl OptionalImports {
    /// Read a line of code (`t`, at `indent`), before its imports are.
    fn read(&mut self, t: &str, indent: usize, out: &mut Vec<Use>) {
        match *self {
            OptionalImports::Try { indent: at, start } if indent <= at => {
                let catches = t.starts_with("except")
                    && (t.contains("ImportError")
                        || t.contains("ModuleNotFoundError")
                        || t.starts_with("except:")
                        || t.starts_with("except Exception"));
                *self = if indent == at && catches {
                    OptionalImports::Handler {
                        indent: at,
                        start,
                        stops: false,
                    }
                } else {
                    OptionalImports::None
                };
            }
            OptionalImports::Handler {
                indent: at,
                ref mut stops,
                ..
            } if indent > at => {
                // Stopping, or saying to install it (`_die("... requires Pillow. Install
                // with ...")`): the script cannot do this without it.
                *stops |= ["exit(", "raise", "install", "require"]
                    .iter()
                    .any(|w| contains_ci(t, w));
            }
            OptionalImports::Handler { .. } => self.end(out),
            _ => {}
        }
        if matches!(self, OptionalImports::None) && t == "try:" {
            *self = OptionalImports::Try {
                indent,
                start: out.len(),
            };
        }
    }

    /// The handler is over: if the script goes on without them, its imports are no needs.
    fn end(&mut self, out: &mut Vec<Use>) {
        if let OptionalImports::Handler {
            start,
            stops: false,
            ..
        } = *self
        {
            let mut i = 0;
            out.retain(|u| {
                i += 1;
                i <= start || u.kind != DepKind::Packages
            });
        }
        *self = OptionalImports::None;
    }
}

fn python(text: &str, lines: &[(u32, &str)], rel: &str, local: &Local, out: &mut Vec<Use>) {
    let file = Some(rel);
    let mut script = Script::new(text);
    let mut assigned = Names::default();
    // Inside a triple-quoted string (a docstring, a template of other code): no imports.
    let mut in_string: Option<&str> = None;
    let mut optional = OptionalImports::None;
    for &(n, line) in lines {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        if !t.is_empty() && !t.starts_with('#') && in_string.is_none() {
            optional.read(t, indent, out);
        }
        let mut quote = in_string;
        for q in ["\"\"\"", "'''"] {
            if quote.is_none_or(|open| open == q) && line.matches(q).count() % 2 == 1 {
                quote = if quote.is_some() { None } else { Some(q) };
            }
        }
        let inside = in_string.is_some() || quote.is_some() && !t.starts_with(['"', '\'']);
        in_string = quote;
        if inside
            || t.contains(['"', '\'', ';']) && (t.starts_with("import ") || t.starts_with("from "))
        {
            continue;
        }
        // Each module with where it is written in `t`.
        let lead = |s: &str| s.len() - s.trim_start().len();
        let modules: Vec<(usize, String)> = if let Some(rest) = t.strip_prefix("import ") {
            let mut at = "import ".len();
            let code = rest.split('#').next().unwrap_or("");
            code.split(',')
                .map(|m| {
                    let module = (at + lead(m), m.split_whitespace().next().unwrap_or(""));
                    at += m.len() + 1;
                    (module.0, module.1.to_owned())
                })
                .collect()
        } else if let Some(rest) = t.strip_prefix("from ") {
            let at = "from ".len();
            match rest.split_once(" import ") {
                // `from google import genai` imports `google.genai`.
                Some(("google", names)) => names
                    .split(',')
                    .filter_map(|n| n.split_whitespace().next())
                    .map(|n| (at, format!("google.{}", n.trim_matches(['(', ')']))))
                    .collect(),
                Some((m, _)) => vec![(at + lead(m), m.trim().to_owned())],
                None => Vec::new(),
            }
        } else {
            Vec::new()
        };
        let columns = Columns::new(line);
        for (at, m) in &modules {
            let top = m.split('.').next().unwrap_or("");
            if top.is_empty() || m.starts_with('.') || top == "__future__" {
                continue;
            }
            if !top.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            if local
                .python
                .binary_search_by(|l| l.as_str().cmp(top))
                .is_ok()
            {
                continue;
            }
            if let Some(dist) = python_distribution(top, m) {
                imported(dist, file, n, &columns, indent + at, out);
            }
        }
        // `os.environ["X"] = ...` sets it; reads are below.
        if let Some(p) = t.find("os.environ[")
            && t[p..].contains("] =")
            && !t[p..].contains("] ==")
            && let Some(name) = quoted_after(&t[p + 11..])
        {
            assign(&mut assigned, &name);
        }
    }
    optional.end(out);
    // Reads of the environment.
    let mut columns = Columns::new("");
    for pat in [
        "os.environ[",
        "environ[",
        "os.environ.get(",
        "os.getenv(",
        "getenv(",
    ] {
        for (p, _) in text.match_indices(pat) {
            if pat.len() < 11 && text[..p].ends_with("os.") {
                continue; // Counted under the `os.` pattern.
            }
            let Some(name) = quoted_after(&text[p + pat.len()..]) else {
                continue;
            };
            // A default makes the variable optional: `os.getenv("X", "y")`.
            let (has_default, subscript_set) = script.call_ends(p + pat.len());
            let has_default = pat.ends_with('(') && has_default;
            let subscript_set = pat.ends_with('[') && subscript_set;
            let (line, col, l) = script.place(p);
            let (_, _, facts) = script.facts(p);
            if facts.commented {
                continue;
            }
            if env_name(&name)
                && !has_default
                && !subscript_set
                && !assigned.contains(&name)
                && !optional_read(&mut script, p)
            {
                columns.move_to(l);
                out.push(found(DepKind::Env, name, file, line, &columns, col));
            }
        }
    }
    calls(
        text,
        &script.starts,
        &[
            "subprocess.run(",
            "subprocess.call(",
            "subprocess.check_call(",
            "subprocess.check_output(",
            "subprocess.Popen(",
            "os.system(",
            "os.popen(",
        ],
        file,
        out,
    );
}

fn node(text: &str, lines: &[(u32, &str)], rel: &str, out: &mut Vec<Use>) {
    let file = Some(rel);
    let mut script = Script::new(text);
    for &(n, line) in lines {
        let t = line.trim_start();
        if t.starts_with("//") || t.starts_with('*') || t.starts_with("/*") {
            continue;
        }
        // `import type { X } from 'y'` is erased when compiled: it needs nothing at run time.
        if t.starts_with("import type ") || t.starts_with("export type ") {
            continue;
        }
        let mut specs: Vec<(usize, String)> = Vec::new();
        for pat in ["require(", "from ", "import("] {
            for (p, _) in line.match_indices(pat) {
                if pat == "from "
                    && !(t.starts_with("import ") || t.starts_with("export ") || t.starts_with('}'))
                {
                    continue;
                }
                if pat == "require("
                    && line[..p].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '.')
                {
                    continue;
                }
                if let Some(s) = quoted_after(&line[p + pat.len()..]) {
                    specs.push((p + pat.len(), s));
                }
            }
        }
        if t.starts_with("import ")
            && !t.contains(" from ")
            && let Some(s) = quoted_after(&t[7..])
        {
            specs.push((line.len() - t.len() + 7, s));
        }
        let columns = Columns::new(line);
        for (at, spec) in specs {
            if let Some(pkg) = node_package(&spec) {
                imported(format!("npm:{pkg}"), file, n, &columns, at, out);
            }
        }
        for (p, _) in line.match_indices("process.env") {
            let after = &line[p + 11..];
            let name = if let Some(rest) = after.strip_prefix('.') {
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<String>()
            } else if let Some(rest) = after.strip_prefix('[') {
                quoted_after(rest).unwrap_or_default()
            } else {
                continue;
            };
            let at = line.as_ptr() as usize - text.as_ptr() as usize + p;
            let rest = script.after_stop(at + 11);
            let set = rest.starts_with('=') && !rest.starts_with("==");
            if env_name(&name) && !set && !optional_read(&mut script, at) {
                out.push(found(DepKind::Env, name, file, n, &columns, p));
            }
        }
    }
    if text.contains("child_process") {
        calls(
            text,
            &script.starts,
            &[
                "execSync(",
                "exec(",
                "spawnSync(",
                "spawn(",
                "execFileSync(",
                "execFile(",
            ],
            file,
            out,
        );
    }
}

/// The package a Node import specifier names: `@scope/pkg/sub` → `@scope/pkg`; none for
/// relative paths, `node:` and Node's own modules.
fn node_package(spec: &str) -> Option<String> {
    if spec.starts_with('.')
        || spec.starts_with('/')
        || spec.starts_with("node:")
        || spec.contains(':')
    {
        return None;
    }
    let mut parts = spec.split('/');
    let first = parts.next()?;
    let name = if first.starts_with('@') {
        format!("{first}/{}", parts.next()?)
    } else {
        first.to_owned()
    };
    let valid = name.chars().all(|c| {
        c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.' | '@' | '/')
    });
    (valid && !NODE_BUILTINS.contains(&name.as_str())).then_some(name)
}

#[rustfmt::skip]
const NODE_BUILTINS: &[&str] = &[
    "assert", "async_hooks", "buffer", "child_process", "cluster", "console", "constants", "crypto",
    "dgram", "diagnostics_channel", "dns", "domain", "events", "fs", "http", "http2", "https",
    "inspector", "module", "net", "os", "path", "perf_hooks", "process", "punycode", "querystring",
    "readline", "repl", "stream", "string_decoder", "sys", "timers", "tls", "trace_events", "tty",
    "url", "util", "v8", "vm", "wasi", "worker_threads", "zlib",
];

/// The executables that process-spawning calls run: the first string of the call's argument
/// (its first word, for a command line), when it is a literal.
fn calls(text: &str, starts: &LineStarts, pats: &[&str], file: Option<&str>, out: &mut Vec<Use>) {
    let mut columns = Columns::new("");
    for pat in pats {
        for (p, _) in text.match_indices(pat) {
            // `exec(` must not be the tail of `execSync(` or of another name.
            if text[..p].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            let after = text[p + pat.len()..].trim_start();
            let after = after.strip_prefix('[').map_or(after, str::trim_start);
            let Some(s) = quoted_after(after) else {
                continue;
            };
            if !after.starts_with(['"', '\'', '`']) {
                continue;
            }
            let first = s.split_whitespace().next().unwrap_or("");
            let first = first.rsplit('/').next().unwrap_or(first);
            if command_name(first)
                && !SHELL_BUILTINS.contains(&first)
                && !BASE_UTILITIES.contains(&first)
            {
                let (line, col, l) = place(text, starts, p);
                columns.move_to(l);
                out.push(found(
                    DepKind::Bins,
                    first.to_owned(),
                    file,
                    line,
                    &columns,
                    col,
                ));
            }
        }
    }
}

/// A script's text, where its lines start, and what the reads on a line ask of it, found once
/// per line and per call: one long line (a minified script) may hold thousands of reads.
struct Script<'t> {
    text: &'t str,
    starts: LineStarts,
    /// By where each line starts.
    lines: foldhash::HashMap<usize, LineFacts>,
    /// Where each `)` and `]` stands, and each `,`: found when first asked.
    closers: Option<(Vec<usize>, Vec<usize>)>,
    /// Whether what follows a call's end assigns to it (`os.environ["X"] = ...`), by its end.
    assigned_at: foldhash::HashMap<usize, bool>,
}

/// What the checks of a read ask of its line.
struct LineFacts {
    /// A fallback in its code (`||`, `??`, ` or `): every read on it is optional.
    fallback: bool,
    /// A comment line (`# ...`).
    commented: bool,
    /// Where its text starts and ends, without the white space around it.
    content: (usize, usize),
    /// Each space, `)`, `,` and `;` (what ends the expression of a read), with where the text
    /// after it resumes past white space.
    stops: Vec<(usize, usize)>,
    /// Each `=`, with the name written on its left.
    assigns: Vec<(usize, String)>,
    /// Whether the lines after this one test a name, by name.
    tested: foldhash::HashMap<String, bool>,
}

impl LineFacts {
    fn of(line: &str) -> LineFacts {
        let code = line.split(" //").next().unwrap_or(line);
        let commented = line.trim_start().starts_with('#');
        let code = if commented { "" } else { code };
        let mut stops = Vec::new();
        let mut resumes = line.len();
        for (i, c) in line.char_indices().rev() {
            if !c.is_whitespace() {
                resumes = i;
            }
            if matches!(c, ' ' | ')' | ',' | ';') {
                stops.push((i, resumes));
            }
        }
        stops.reverse();
        let assigns = line
            .match_indices('=')
            .map(|(e, _)| {
                let lhs = line[..e].trim_end();
                let name = lhs.len()
                    - lhs
                        .bytes()
                        .rev()
                        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                        .count();
                (e, lhs[name..].to_owned())
            })
            .collect();
        LineFacts {
            fallback: code.contains("||") || code.contains("??") || code.contains(" or "),
            commented,
            content: (line.len() - line.trim_start().len(), line.trim_end().len()),
            stops,
            assigns,
            tested: foldhash::HashMap::default(),
        }
    }

    /// What follows the end of the expression that starts at byte `from` of `line`, past
    /// white space: empty where nothing ends it.
    fn after_stop<'l>(&self, line: &'l str, from: usize) -> &'l str {
        let i = self.stops.partition_point(|(s, _)| *s < from);
        self.stops
            .get(i)
            .map_or("", |(_, resumes)| &line[*resumes..])
    }
}

impl<'t> Script<'t> {
    fn new(text: &'t str) -> Self {
        Script {
            text,
            starts: LineStarts::new(text),
            lines: foldhash::HashMap::default(),
            closers: None,
            assigned_at: foldhash::HashMap::default(),
        }
    }

    fn place(&self, p: usize) -> (u32, usize, &'t str) {
        place(self.text, &self.starts, p)
    }

    /// Where byte `p` is in its line (a byte column), the line, and its facts.
    fn facts(&mut self, p: usize) -> (usize, &'t str, &mut LineFacts) {
        let (_, col, line) = self.place(p);
        let facts = self
            .lines
            .entry(p - col)
            .or_insert_with(|| LineFacts::of(line));
        (col, line, facts)
    }

    /// What follows the end of the expression that starts at byte `p`, past white space.
    fn after_stop(&mut self, p: usize) -> &'t str {
        let (col, line, facts) = self.facts(p);
        facts.after_stop(line, col)
    }

    /// For the arguments of a call that start at byte `from`: whether a `,` comes before the
    /// first `)` or `]` after them, and whether `=` (not `==`) follows that end.
    fn call_ends(&mut self, from: usize) -> (bool, bool) {
        let text = self.text;
        let (closers, commas) = self.closers.get_or_insert_with(|| {
            let bytes = text.as_bytes();
            (
                memchr::memchr2_iter(b')', b']', bytes).collect(),
                memchr::memchr_iter(b',', bytes).collect(),
            )
        });
        let close = closers
            .get(closers.partition_point(|c| *c < from))
            .copied()
            .unwrap_or(text.len());
        let comma = commas.get(commas.partition_point(|c| *c < from));
        let assigned = *self.assigned_at.entry(close).or_insert_with(|| {
            let rest = text[close..].trim_start_matches(']').trim_start();
            rest.starts_with('=') && !rest.starts_with("==")
        });
        (comma.is_some_and(|c| *c < close), assigned)
    }
}

/// Whether the read of a variable at byte `p` of the script is optional: a fallback on the same
/// line (`x or os.getenv("A")`, `process.env.A || "b"`, `A ?? B`), or a value the next lines
/// only use when it is set (`key = os.getenv("A")` then `if key:`; `const k = process.env.A`
/// then `if (k)`). A script that stops without it tests it negatively (`if not key:`).
fn optional_read(script: &mut Script, p: usize) -> bool {
    let text = script.text;
    let (col, line, facts) = script.facts(p);
    if facts.fallback {
        return true;
    }
    // One of a list of candidates (`process.env.EDGE_PATH,` among other paths), or a test of
    // whether it is set (`process.env.X ? "set" : "not set"`).
    let at = col.min(line.len());
    let (from, to) = facts.content;
    let after = facts.after_stop(line, at);
    if at <= from && from < to && line[..to].ends_with(',')
        || after.starts_with('?') && !after.starts_with("?.")
    {
        return true;
    }
    // A switch: compared with a value (`process.env.TESTNET === '1'`), unset is merely off.
    if ["==", "!="].iter().any(|op| after.starts_with(op)) {
        return true;
    }
    // Read where a condition tests it (`if os.getenv("X"):`, `if (process.env.X)`, `a and
    // os.environ.get("X")`): used when set. `if (!process.env.X)` stops without it.
    let before = line[..at].trim_end();
    if ["if (", "if(", "if", "elif", "and", "&&", "while"]
        .iter()
        .any(|c| before.ends_with(c) && !before.ends_with("not"))
    {
        return true;
    }
    // The name the read is assigned to, on its left.
    let Some(i) = facts
        .assigns
        .partition_point(|(e, _)| *e < at)
        .checked_sub(1)
    else {
        return false;
    };
    let var = &facts.assigns[i].1;
    if var.is_empty() {
        return false;
    }
    if let Some(tested) = facts.tested.get(var) {
        return *tested;
    }
    let end = p - col + line.len();
    let tested = text[end..].lines().skip(1).take(3).map(str::trim).any(|l| {
        l == format!("if {var}:")
                || l.starts_with(&format!("if ({var})"))
                || l.starts_with(&format!("if ({var} &&"))
                || l.starts_with(&format!("if {var} and "))
                // `return [single] if single else []`, `k ? a : b`: used when set.
                || l.contains(&format!(" if {var} else "))
                || l.contains(&format!("{var} ? "))
    });
    facts.tested.insert(var.clone(), tested);
    tested
}

/// The string literal that starts `s` (after spaces), if any.
fn quoted_after(s: &str) -> Option<String> {
    let s = s.trim_start();
    let q = s.chars().next().filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let rest = &s[1..];
    let end = rest.find(q)?;
    let v = &rest[..end];
    (!v.contains("${") && !v.is_empty()).then(|| v.to_owned())
}

/// Line number (1-based), byte column in the line, and the line, of byte `p` of `text`, whose
/// lines start at `starts`.
fn place<'t>(text: &'t str, starts: &LineStarts, p: usize) -> (u32, usize, &'t str) {
    let line = starts.line_of(p);
    let (start, end) = starts.bounds(line).unwrap_or((0, text.len()));
    (line as u32 + 1, p - start, &text[start..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`named_in_prose`] answers, a line and a name at a time.
    fn names_variable(line: &str, name: &str) -> bool {
        if name.contains('_') {
            return line.contains(name);
        }
        [
            format!("${name}"),
            format!("${{{name}}}"),
            format!("`{name}`"),
        ]
        .iter()
        .any(|written| line.contains(written.as_str()))
    }

    #[test]
    fn prose_names_variables_as_each_line_is_searched_for_each() {
        let prose = [
            "Set `URL` and $PORT, then ${HOST}.",
            "The tenant is MY_TENANT_ID_2; the URL is plain prose.",
            "TOKEN alone is a word",
        ];
        let names = [
            "URL",
            "PORT",
            "HOST",
            "TENANT_ID",
            "TOKEN",
            "ID_2",
            "OTHER_NAME",
        ];
        let named = named_in_prose(&prose, &names);
        for name in names {
            let one_by_one = prose.iter().any(|l| names_variable(l, name));
            assert_eq!(named.contains(name), one_by_one, "{name}");
        }
        assert_eq!(named.len(), 5, "{named:?}");
        assert!(named_in_prose(&prose, &[]).is_empty());
    }

    #[test]
    fn prose_names_variables_as_searched_in_generated_text() {
        // Lines and names built from the pieces the spellings are made of, every name asked
        // of every set of lines.
        let pieces = [
            "$", "{", "}", "`", "_", "A", "B", "1", "a", " ", "${", "AB_",
        ];
        let mut seed: u64 = 7;
        let mut next = |n: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as usize % n
        };
        let names = [
            "A", "B", "AB", "A1", "A_B", "AB_A", "_A", "B_", "A_", "AB_AB",
        ];
        for _ in 0..2_000 {
            let lines: Vec<String> = (0..1 + next(3))
                .map(|_| (0..next(9)).map(|_| pieces[next(pieces.len())]).collect())
                .collect();
            let prose: Vec<&str> = lines.iter().map(String::as_str).collect();
            let named = named_in_prose(&prose, &names);
            for name in names {
                let one_by_one = prose.iter().any(|l| names_variable(l, name));
                assert_eq!(named.contains(name), one_by_one, "{name} in {prose:?}");
            }
        }
    }

    #[test]
    fn mentioned_names_agree_with_mentions() {
        // Texts and names built from the pieces that decide a mention: word characters, `-`,
        // `.`, spaces and a non-ASCII letter, so every boundary case meets every other.
        let pieces = [
            "jq", "q", "-", "_", ".", " ", "é", "1", "jq-1.7", "--", "KEY",
        ];
        let mut pick = crate::generated::picker(7);
        let mut names: Vec<String> = Vec::new();
        for _ in 0..400 {
            let len = 1 + pick(3);
            names.push((0..len).map(|_| pieces[pick(pieces.len())]).collect());
        }
        for _ in 0..500 {
            let len = pick(12);
            let text: String = (0..len).map(|_| pieces[pick(pieces.len())]).collect();
            let found = mentioned(&text, names.iter().map(String::as_str));
            for name in &names {
                assert_eq!(
                    found.contains(name.as_str()),
                    mentions(&text, name),
                    "{name:?} in {text:?}"
                );
            }
        }
    }

    /// Whether `line` leaves a quote open, read whole.
    fn open_quote(line: &str) -> bool {
        let (mut single, mut double) = (false, false);
        let mut chars = line.chars();
        while let Some(c) = chars.next() {
            match c {
                '\\' if !single => {
                    chars.next();
                }
                '\'' if !double => single = !single,
                '"' if !single => double = !double,
                '#' if !single && !double => return false,
                _ => {}
            }
        }
        single || double
    }

    #[test]
    fn quotes_read_in_pieces_agree_with_the_whole_line() {
        let pieces = ["'", "\"", "\\", "#", "a", " ", "é"];
        let mut pick = crate::generated::picker(5);
        for _ in 0..5000 {
            let parts: Vec<String> = (0..1 + pick(4))
                .map(|_| (0..pick(6)).map(|_| pieces[pick(pieces.len())]).collect())
                .collect();
            let mut quotes = Quotes::default();
            for (i, part) in parts.iter().enumerate() {
                if i > 0 {
                    quotes.read(" ");
                }
                quotes.read(part);
            }
            assert_eq!(quotes.open(), open_quote(&parts.join(" ")), "{parts:?}");
        }
    }

    #[test]
    fn an_import_is_placed_at_its_module() {
        // Not where its name first stands inside another word (`rt` in `import`, `fr` in
        // `from`).
        let u = of_script(
            "a.py",
            "import os, rt\nfrom fr import a\n",
            &Local::default(),
        );
        let at: Vec<(&str, u32, u32)> = u
            .iter()
            .map(|u| (u.name.as_str(), u.line, u.column))
            .collect();
        assert_eq!(at, [("rt", 1, 12), ("fr", 2, 6)]);
    }

    #[test]
    fn mentions_a_word_not_part_of_one() {
        assert!(mentions("run `jq .` then", "jq"));
        assert!(mentions("echo $API_KEY", "API_KEY"));
        assert!(mentions("jq-1.7 is fine", "jq"));
        assert!(!mentions("uses jquery", "jq"));
        assert!(!mentions("set MY_API_KEY", "API_KEY"));
        assert!(!mentions("pass --jq here", "jq"));
        assert!(!mentions("anything", ""));
    }

    fn names(uses: &[Use], kind: DepKind) -> Vec<String> {
        uses.iter()
            .filter(|u| u.kind == kind)
            .map(|u| u.name.clone())
            .collect()
    }

    /// Each use where it is written, and the text of that line as its evidence.
    #[test]
    fn a_continued_line_places_each_use_on_its_own_line() {
        let body = "```bash\ncurl -s \\\n  -H \"Authorization: $API_TOKEN\" \\\n  \"$BASE_URL/x\" | jq .\n```\n";
        let u = of_body(body, 10, &[]);
        let at: Vec<(&str, u32, u32, &str)> = u
            .iter()
            .map(|u| (u.name.as_str(), u.line, u.column, u.evidence.as_str()))
            .collect();
        assert_eq!(
            at,
            [
                ("curl", 11, 1, "curl -s \\"),
                ("API_TOKEN", 12, 22, "-H \"Authorization: $API_TOKEN\" \\"),
                ("BASE_URL", 13, 4, "\"$BASE_URL/x\" | jq ."),
                ("jq", 13, 19, "\"$BASE_URL/x\" | jq ."),
            ]
        );
    }

    #[test]
    fn commands_of_a_shell_block() {
        let body = "Run:\n\n```bash\nsudo gh pr list | jq '.[]' && cd x\nFOO=1 terraform plan\nexport A=1\necho $A $GITHUB_TOKEN ${B:-x}\nfor f in *; do az login; done\n./scripts/run.py --x\n```\n";
        let u = of_body(body, 1, &[]);
        assert_eq!(
            names(&u, DepKind::Bins),
            ["gh", "jq", "terraform", "az", "python3"]
        );
        assert_eq!(names(&u, DepKind::Env), ["GITHUB_TOKEN"]);
        let gh = &u[0];
        assert_eq!((gh.line, gh.column), (4, 6));
    }

    #[test]
    fn sessions_user_blocks_and_other_languages() {
        let body = "```console\n$ docker ps\nCONTAINER ID\nkubectl stuff\n```\n\n## Installation\n\n```bash\nclawhub install x\n```\n\n## Use\nIn your terminal:\n```sh\nbrew install y\n```\n```python\nimport os\n```\n";
        let u = of_body(body, 1, &[]);
        assert_eq!(names(&u, DepKind::Bins), ["docker"]);
    }

    /// What one of several ways runs is no need, unless another way runs it too.
    #[test]
    fn ways_among_others_and_optional_steps() {
        let body = "## Expose\n\n**Option A: Cloudflare Tunnel** (Recommended)\n```bash\ncloudflared tunnel run\ngit pull\n```\n\n**Option B: Tailscale Funnel**\n```bash\ntailscale funnel 80\ngit pull\n```\n\n## Run\n```bash\ngh pr list\n```\nOr add it directly:\n```bash\nclawdbot cron add\n```\n### Monitor (Alternative)\n```bash\nwatch -n 5 ls\n```\n## Quick Reference (MCP)\n\n> Skip this section if using the CLI backend.\n\n| Search | `mcp__atlassian__search` |\n## Installation & Setup\n### Option 1: pip\n```bash\npip install x\n```\n## After Installation\n```bash\nsystemctl status x\n```\n";
        let u = of_body(body, 1, &[]);
        assert_eq!(names(&u, DepKind::Bins), ["gh", "systemctl", "git"]);
        assert!(names(&u, DepKind::Tools).is_empty());
        // Nothing but ways: one of them is needed, so they are all kept.
        let only = "**Option A:**\n```bash\ncloudflared run\n```\n**Option B:**\n```bash\ntailscale up\n```\n";
        let u = of_body(only, 1, &[]);
        assert_eq!(names(&u, DepKind::Bins), ["cloudflared", "tailscale"]);
    }

    #[test]
    fn a_language_package_manager_installing_needs_what_it_installs() {
        let body = "```bash\npip install Pillow -q\nnpm ci\nnpm install -D @azure/swa-cli@1 gsap@3\npip install -r requirements.txt -e .\nuv pip install --index-url https://x.org/simple httpx\nuv tool install ruff\nnpm install\nnpm run build\n```\n";
        let u = of_body(body, 1, &[]);
        assert_eq!(
            names(&u, DepKind::Packages),
            ["Pillow", "npm:@azure/swa-cli", "npm:gsap", "httpx"]
        );
        assert_eq!(names(&u, DepKind::Bins), ["npm"]);
        assert_eq!((u[1].line, u[1].column), (4, 16));
        // A skill whose work is installing needs the manager it installs with.
        let u = of_body(&format!("# Markstream Install\n{body}"), 1, &[]);
        assert!(names(&u, DepKind::Bins).starts_with(&["pip".to_owned()]));
    }

    #[test]
    fn an_import_the_script_can_do_without_is_no_need() {
        let text = "import requests\ntry:\n    import defusedxml.ElementTree as ET\nexcept ImportError:\n    import xml.etree.ElementTree as ET\ntry:\n    import yaml\nexcept ImportError:\n    print('pip install pyyaml')\n    sys.exit(1)\ntry:\n    import numpy\nexcept ValueError:\n    pass\ntry:\n    import openai\nexcept ImportError:\n    _die('openai is not installed')\n";
        let u = of_script("scripts/a.py", text, &Local::default());
        assert_eq!(
            names(&u, DepKind::Packages),
            ["requests", "PyYAML", "numpy", "openai"]
        );
    }

    #[test]
    fn a_comment_offering_another_way_in_a_block() {
        let body = "```bash\n# Install with pip\npip3 freeze\n# Or with uv (faster)\nuv add x\nuv lock\n\nmake build\n# Optional: watch\nentr -r make\n```\n";
        let u = of_body(body, 1, &[]);
        assert_eq!(names(&u, DepKind::Bins), ["pip3", "make"]);
    }

    #[test]
    fn a_tool_the_body_offers_a_way_round_is_no_need() {
        let body = "Run #tool:runSubagent now. If #tool:runSubagent is unavailable, do it yourself.\nUse the `web` tool or another suitable MCP method. Use the `fetch` tool.\n";
        let u = of_body(body, 1, &[]);
        assert_eq!(names(&u, DepKind::Tools), ["fetch"]);
    }

    #[test]
    fn a_skill_whose_work_is_installing_runs_its_install_sections() {
        let body = "```bash\n# Not the title\n```\n# Sandbox npm Install\n\n## Step-by-Step Installation\n\n```bash\nbash scripts/install.sh\nnpm test\n```\n";
        let u = of_body(body, 1, &[]);
        assert_eq!(names(&u, DepKind::Bins), ["bash", "npm"]);
        assert_eq!(installers_named(body), ["install.sh"]);
        let other = body.replace("# Sandbox npm Install", "# Sandbox");
        assert!(of_body(&other, 1, &[]).is_empty());
        assert!(installers_named(&other).is_empty());
    }

    #[test]
    fn an_install_step_needs_what_it_installs_not_the_package_manager() {
        // One tool, installed a way per system: no machine has all three managers.
        let body = "## Setup\n\n```bash\nbrew install azure-cli  # macOS\nsudo apt-get -y update && sudo apt install python3\nwinget install Microsoft.AzureCLI\npacman -Syu jq\nbrew --prefix\napt-get source hello\naz login\n```\n```powershell\nwinget.exe install Git.Git\nchoco list\n```\n";
        let u = of_body(body, 1, &[]);
        assert_eq!(names(&u, DepKind::Bins), ["brew", "apt-get", "az", "choco"]);
    }

    #[test]
    fn a_virtual_environment_brings_its_own_pip_and_python() {
        let body = "```bash\npip freeze\npython3 -m venv .venv && source .venv/bin/activate\npip list\npython run.py\n```\n```bash\n. \"$HOME/env/bin/activate\"\npip3 list\n```\n```bash\npython x.py\n```\n";
        let u = of_body(body, 1, &[]);
        assert_eq!(names(&u, DepKind::Bins), ["pip", "python3", "python"]);
        let script = "#!/bin/bash\nsource venv/bin/activate\npip check\n";
        let u = of_script("scripts/run.sh", script, &Local::default());
        assert_eq!(names(&u, DepKind::Bins), ["bash"]);
    }

    #[test]
    fn installer_scripts_a_text_names() {
        let text = "Run the setup.sh included in resources, then `bash scripts/install.sh --x`.\nSee [it](./wizard/go.py); notes.md, setup.md and run.sh are none. `uninstall.ps1`\n";
        assert_eq!(
            installers_named(text),
            ["go.py", "install.sh", "setup.sh", "uninstall.ps1"]
        );
        // What a section for the person installing the skill names is theirs to run; a
        // comment in a block is no heading.
        let text = "## Quick Install\n\n```bash\nsudo bash wizard/wizard.sh\n```\n## Use\n```bash\n# Install first\nbash scripts/setup.sh\n```\n";
        assert_eq!(installers_named(text), ["setup.sh"]);
        assert!(installer("scripts/setup.sh") && installer("wizard/run.py"));
        assert!(!installer("scripts/run_setup.sh"));
    }

    #[test]
    fn tools_in_a_hosts_syntax() {
        let body = "Call `mcp__github__create_issue`, then #tool:runInTerminal.\nThe GitHub MCP server offers `github/list_issues`; see `docs/guide`.\nUse the `fetch` tool.\n";
        let u = of_body(body, 1, &[]);
        assert_eq!(
            names(&u, DepKind::Tools),
            [
                "github/create_issue",
                "runInTerminal",
                "github/list_issues",
                "fetch"
            ]
        );
        assert!(u.last().is_some_and(|u| u.phrase));
    }

    #[test]
    fn python_scripts() {
        let text = "#!/usr/bin/env python3\nimport os, sys\nimport yaml\nfrom PIL import Image\nfrom .x import y\nimport helpers\nfrom tests.test_a import run\nk = os.environ[\"API_KEY\"]\nd = os.getenv(\"OPT\", \"x\")\nsubprocess.run([\"gh\", \"api\"])\n";
        let local = Local::of(&["scripts/helpers.py".into()]);
        let u = of_script("scripts/a.py", text, &local);
        assert_eq!(names(&u, DepKind::Bins), ["python3", "gh"]);
        assert_eq!(names(&u, DepKind::Packages), ["PyYAML", "Pillow"]);
        assert_eq!(names(&u, DepKind::Env), ["API_KEY"]);
    }

    /// A package that runs an executable uses it, at the import; one that does not, nothing.
    #[test]
    fn packages_that_run_an_executable() {
        let py = "import whisper\nimport ffmpeg\nfrom pdf2image import convert_from_path\nimport requests\n";
        let u = of_script("t.py", py, &Local::default());
        assert_eq!(names(&u, DepKind::Bins), ["ffmpeg", "ffmpeg", "pdftoppm"]);
        assert_eq!(
            names(&u, DepKind::Packages),
            ["openai-whisper", "ffmpeg-python", "pdf2image", "requests"]
        );
        assert_eq!((u[0].line, u[0].column), (1, 8));
        let js = "const ffmpeg = require('fluent-ffmpeg');\nconst sharp = require('sharp');\n";
        let u = of_script("t.js", js, &Local::default());
        assert_eq!(names(&u, DepKind::Bins), ["ffmpeg"]);
    }

    #[test]
    fn node_scripts() {
        let text = "const cp = require('child_process');\nimport fs from 'node:fs';\nimport { x } from '@scope/pkg/sub';\nconst y = require('./local');\nconst t = process.env.TOKEN;\nconst u = process.env.OPT || 'a';\nconst test = process.env.TESTNET === '1';\nimport type { Api } from 'openclaw';\ncp.execSync('git status');\n";
        let u = of_script("a.js", text, &Local::default());
        assert_eq!(names(&u, DepKind::Packages), ["npm:@scope/pkg"]);
        assert_eq!(names(&u, DepKind::Env), ["TOKEN"]);
        assert_eq!(names(&u, DepKind::Bins), ["git"]);
    }

    /// Text from the tree is anything: odd bytes, unclosed quotes and parentheses, multi-byte
    /// characters next to every delimiter read nothing wrong and panic nowhere.
    #[test]
    fn odd_text_reads_without_panicking() {
        let odd = [
            "$((",
            "((x",
            ")",
            "$(",
            "\\",
            "'",
            "\"",
            "<<",
            "<<EOF",
            "${",
            "${X",
            "$env:",
            "é$é",
            "`",
            "mcp__",
            "mcp__a__",
            "#tool:",
            "→",
            "x|é",
            "é)é",
            "os.environ[",
            "process.env[",
            "subprocess.run([",
            "require(",
            "#!",
            "#!/usr/bin/env",
            "PS C:\\> ",
            "$ ",
            "ü`ü`ü",
        ];
        for a in odd {
            for b in odd {
                let text = format!("{a}{b}\n{b} {a}\n");
                let body = format!("```bash\n{text}```\n```powershell\n{text}```\n{text}");
                let _ = of_body(&body, 1, &[]);
                for f in [
                    "a.sh",
                    "a.ps1",
                    "a.py",
                    "a.js",
                    "requirements.txt",
                    "package.json",
                ] {
                    let _ = of_script(f, &text, &Local::default());
                }
            }
        }
    }

    #[test]
    fn package_json_dependencies_are_placed_at_their_first_mention() {
        for eol in ["\n", "\r\n"] {
            let text = [
                "{",
                "  \"name\": \"x\",",
                "  \"dependencies\": {",
                "    \"chalk\": \"^5\", \"ora\": \"1\",",
                "    \"x\": \"2\"",
                "  }",
                "}",
            ]
            .join(eol);
            let u = of_script("package.json", &text, &Local::default());
            let at: Vec<(&str, u32, u32, &str)> = u
                .iter()
                .map(|u| (u.name.as_str(), u.line, u.column, u.evidence.as_str()))
                .collect();
            assert_eq!(
                at,
                [
                    ("npm:chalk", 4, 5, "\"chalk\": \"^5\", \"ora\": \"1\","),
                    ("npm:ora", 4, 20, "\"chalk\": \"^5\", \"ora\": \"1\","),
                    // `"x"` is first written as the package's name.
                    ("npm:x", 2, 11, "\"name\": \"x\","),
                ],
                "{eol:?}"
            );
        }
    }

    #[test]
    fn powershell_scripts() {
        let text = "$env:FOO = 'x'\nGet-ChildItem $env:FOO\naz account show --subscription $env:AZURE_SUBSCRIPTION_ID\n& dotnet build\nWrite-Host hi\n";
        let u = of_script("a.ps1", text, &Local::default());
        assert_eq!(names(&u, DepKind::Bins), ["az", "dotnet"]);
        assert_eq!(names(&u, DepKind::Env), ["AZURE_SUBSCRIPTION_ID"]);
    }
}
