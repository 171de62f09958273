//! What a skill uses, read from its body and its scripts: the executables its shell blocks and
//! scripts run, the packages its scripts import, the environment variables they read and the
//! tools its body names. Pure: the caller hands over the text; nothing here opens a file, runs
//! anything or asks a profile which names a host defines (`evaluate::declare_inferred` does).
//!
//! Every pattern errs towards leaving a use out: a block whose language or role is unclear, a
//! word that could be prose or a placeholder, a variable with a default, are not read as uses.

mod body;
mod installers;
mod mentions;
mod node;
mod powershell;
mod presence;
mod python;
mod reads;
mod shell;
#[cfg(test)]
mod tests;
mod tools;

pub(crate) use body::{of_body, read_body};
pub(crate) use installers::{installer, installers_named};
pub(crate) use mentions::mentioned;

use body::Lang;
use node::{node, package_json};
use powershell::powershell;
use python::{python, requirements_txt};
use shell::{BASE_UTILITIES, is_assignment, shell};

use crate::model::{DepKind, Use};
use crate::span::LineStarts;

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
    line: &UseLine,
    at: usize,
    out: &mut Vec<Use>,
) {
    if let Some((_, bin)) = RUNS.iter().find(|(p, _)| *p == name) {
        out.push(found(DepKind::Bins, (*bin).to_owned(), file, n, line, at));
    }
    out.push(found(DepKind::Packages, name, file, n, line, at));
}

/// Keep of the uses pushed since `from` those `keep` takes; the earlier ones stay as they are.
fn retain_since(out: &mut Vec<Use>, from: usize, mut keep: impl FnMut(&Use) -> bool) {
    let mut i = 0;
    out.retain(|u| {
        i += 1;
        i <= from || keep(u)
    });
}

/// The index of the span of `spans` that holds `at`: spans sorted and apart, each from its
/// first place up to, not including, its end.
fn span_holding<T: Ord + Copy>(spans: &[(T, T)], at: T) -> Option<usize> {
    let k = spans.partition_point(|s| s.0 <= at).checked_sub(1)?;
    (at < spans[k].1).then_some(k)
}

/// A set of names (variables assigned, functions defined): looked up once per word read, so
/// a long text costs no more than its length.
type Names = foldhash::HashSet<String>;

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

/// A line uses are found on: the columns of its bytes ([`crate::span::Columns`]) and the
/// evidence each use on it shows, made once for the line, as one line may hold thousands of
/// uses and white space around them.
struct UseLine<'t> {
    columns: crate::span::Columns<'t>,
    evidence: std::cell::OnceCell<String>,
}

impl<'t> UseLine<'t> {
    fn new(text: &'t str) -> Self {
        UseLine {
            columns: crate::span::Columns::new(text),
            evidence: std::cell::OnceCell::new(),
        }
    }

    fn text(&self) -> &'t str {
        self.columns.text()
    }

    /// Count on `text` from now: kept while it is the same slice, else started anew.
    fn move_to(&mut self, text: &'t str) {
        if !std::ptr::eq(self.text(), text) {
            *self = UseLine::new(text);
        }
    }

    fn column(&self, at: usize) -> u32 {
        self.columns.column(at)
    }

    /// The line without the white space around it, up to 160 characters (then `…`).
    fn evidence(&self) -> &str {
        self.evidence.get_or_init(|| {
            let text = self.text().trim();
            let mut evidence: String = text.chars().take(160).collect();
            if text.chars().nth(160).is_some() {
                evidence.push('…');
            }
            evidence
        })
    }
}

fn found(
    kind: DepKind,
    name: String,
    file: Option<&str>,
    line: u32,
    text: &UseLine,
    at: usize,
) -> Use {
    Use {
        kind,
        name,
        file: file.map(str::to_owned),
        line,
        column: text.column(at),
        evidence: text.evidence().to_owned(),
        phrase: false,
        one_of: false,
    }
}

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
            &UseLine::new(first),
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
            None,
        ),
        (_, "ps1" | "psm1") => powershell(&lines, file, false, &mut out),
        (_, "py") => python(text, &lines, rel, local, &mut out),
        (_, "js" | "mjs" | "cjs" | "ts") => node(text, &lines, rel, &mut out),
        _ => {}
    }
    out
}

/// The functions a skill's shell script defines. A script may call one that another of the
/// skill's scripts defines (and sources): such a name is no executable on `PATH`.
pub(crate) fn shell_functions(rel: &str, text: &str) -> Vec<String> {
    if !(rel.ends_with(".sh") || rel.ends_with(".bash")) {
        return Vec::new();
    }
    (text.lines().filter_map(shell::defined_function))
        .map(str::to_owned)
        .collect()
}

/// Leave out of a skill's `uses` the commands named after a function one of its scripts
/// defines (`functions`, sorted): [`shell_functions`]. The body's blocks count too: one that
/// calls such a function shows code to add to the script.
pub(crate) fn functions_are_not_executables(uses: &mut Vec<Use>, functions: &[String]) {
    if functions.is_empty() {
        return;
    }
    uses.retain(|u| {
        u.kind != DepKind::Bins
            || functions
                .binary_search_by(|f| f.as_str().cmp(&u.name))
                .is_err()
    });
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

/// Line number (1-based), byte column in the line, and the line, of byte `p` of `text`, whose
/// lines start at `starts`.
fn place<'t>(text: &'t str, starts: &LineStarts, p: usize) -> (u32, usize, &'t str) {
    let line = starts.line_of(p);
    let (start, end) = starts.bounds(line).unwrap_or((0, text.len()));
    (line as u32 + 1, p - start, &text[start..end])
}
