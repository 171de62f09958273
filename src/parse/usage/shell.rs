//! Shell blocks and scripts: lines joined where they continue, split into simple commands,
//! with the commands they run, the variables they read and the packages they install.

use super::body::{Lang, alternative_lead};
use super::presence::Checked;
use super::{Names, UseLine, command_name, env_name, found, interpreter_of};
use crate::model::{DepKind, Use};

/// Shell builtins and keywords: never executables.
#[rustfmt::skip]
pub(super) const SHELL_BUILTINS: &[&str] = &[
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
pub(super) const BASE_UTILITIES: &[&str] = &[
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
pub(super) const NOT_COMMANDS: &[&str] = &[
    "a", "an", "and", "as", "at", "by", "class", "const", "def", "else:", "except", "from",
    "import", "pass", "raise", "try", "is", "it", "let", "not", "note", "of", "on", "or", "output",
    "print", "result", "return", "see", "so", "that", "the", "this", "to", "use", "var", "with",
    "you",
];

/// Full-screen programs a person drives at a terminal (`vim config.yaml`, `htop`): an agent
/// edits and watches with its own tools, so a line that runs one is the person's example.
#[rustfmt::skip]
pub(super) const INTERACTIVE: &[&str] = &[
    "btop", "emacs", "htop", "micro", "nano", "nvim", "pico", "vi", "vim",
];

/// Words before the command that run it (`sudo gh ...`): skipped, with their flags.
#[rustfmt::skip]
pub(super) const WRAPPERS: &[&str] = &[
    "sudo", "env", "time", "nohup", "exec", "command", "builtin", "nice", "xargs", "timeout",
    "then", "do", "else", "elif", "if", "while", "until", "!", "{", "(", "stdbuf", "caffeinate",
];

/// Split a logical shell line into its simple commands' texts, each with its byte offset:
/// at unquoted `|`, `&`, `;`, `(`, `)` and backquotes, and inside `$(...)`.
pub(super) fn segments(line: &str) -> Vec<(usize, &str)> {
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
pub(super) fn words(seg: &str) -> Vec<(usize, &str)> {
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

pub(super) fn is_assignment(w: &str) -> Option<&str> {
    let (name, _) = w.split_once('=')?;
    (!name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .then_some(name)
}

/// The command a simple command runs: its index in `words`, past assignments and wrappers.
pub(super) fn command_word(words: &[(usize, &str)]) -> Option<usize> {
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
pub(super) const OS_PACKAGE_MANAGERS: &[&str] = &[
    "apk", "apt", "apt-get", "brew", "choco", "dnf", "pacman", "pkg", "port", "scoop", "snap",
    "winget", "yum", "zypper",
];

/// Service managers, with the actions by which they register a service to start with the
/// machine or remove it (`sudo systemctl enable --now x`, `launchctl load x.plist`): the
/// person's one-time set-up of a service, not what the agent runs, unless installing is the
/// skill's work. Their other uses (`systemctl status x`) still count.
const REGISTERS_SERVICES: &[(&str, &[&str])] = &[
    (
        "systemctl",
        &[
            "enable",
            "disable",
            "reenable",
            "daemon-reload",
            "mask",
            "unmask",
            "link",
            "preset",
        ],
    ),
    (
        "launchctl",
        &[
            "load",
            "unload",
            "bootstrap",
            "bootout",
            "enable",
            "disable",
        ],
    ),
];

/// Is the command `ws[k]` a service manager registering a service ([`REGISTERS_SERVICES`])?
pub(super) fn registers_service(ws: &[(usize, &str)], k: usize) -> bool {
    let action = ws[k + 1..].iter().find(|(_, w)| !w.starts_with('-'));
    REGISTERS_SERVICES
        .iter()
        .any(|(m, actions)| *m == ws[k].1 && action.is_some_and(|a| actions.contains(&a.1)))
}

/// A language's package managers, with the actions by which they install packages: a skill
/// that says to install with them is being set up, and needs what it installs (the
/// interpreter, the package), not the manager. Their other uses (`npm run build`) still count.
pub(super) const LANGUAGE_PACKAGE_MANAGERS: &[(&str, &[&str])] = &[
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
pub(super) fn installs_packages(ws: &[(usize, &str)], k: usize, installing: bool) -> bool {
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
pub(super) fn installed_packages(ws: &[(usize, &str)], k: usize) -> Vec<(usize, String)> {
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
pub(super) struct Logical<'a> {
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
        // The starts are in order: found by halving, as a line of thousands of continued
        // lines holds thousands of uses.
        let k = self.continued.partition_point(|(start, _)| *start <= at);
        k.checked_sub(1)
            .and_then(|k| self.continued.get(k))
            .map_or((self.number, at), |&(start, n)| (n, at - start))
    }
}

/// The lines of a shell block or script joined where they continue (`\` at the end), heredoc
/// bodies left out.
pub(super) fn logical_lines<'a>(lines: &[(u32, &'a str)]) -> Vec<Logical<'a>> {
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
pub(super) struct Quotes {
    single: bool,
    double: bool,
    comment: bool,
    /// A `\` outside single quotes: the next character is taken as it is.
    escaped: bool,
}

impl Quotes {
    pub(super) fn read(&mut self, text: &str) {
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

    pub(super) fn open(&self) -> bool {
        !self.comment && (self.single || self.double)
    }
}

/// The function a line of shell defines: `name() {`, `function name() {`.
pub(super) fn defined_function(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let t = t.strip_prefix("function ").unwrap_or(t);
    let end = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(t.len());
    (end > 0 && t[end..].trim_start().starts_with("()")).then(|| &t[..end])
}

/// The commands and variables of shell text: a body's block (`file` is `None`) or a script.
pub(super) fn shell(
    lines: &[(u32, &str)],
    lang: Lang,
    file: Option<&str>,
    installing: bool,
    assigned: &mut Names,
    out: &mut Vec<Use>,
    mut filled: Option<&mut Vec<Use>>,
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
    // Where the text has made sure a command is there before running it.
    let checked = Checked::of(&logical.iter().map(|l| &*l.text).collect::<Vec<_>>());
    // Names the text defines: functions it calls like commands, variables it assigns.
    let mut functions = Names::default();
    for l in logical.iter().map(|l| &l.text) {
        if let Some(name) = defined_function(l) {
            functions.insert(name.to_owned());
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
    // After a block's `ssh host` with no command, its lines are typed on that host, up to an
    // `exit`: what they run is that machine's. A script goes on here once the session ends.
    let mut remote: Option<&str> = None;
    for (li, line) in logical.iter().enumerate() {
        let raw: &str = &line.text;
        let trimmed = raw.trim();
        if let Some(comment) = trimmed.strip_prefix('#') {
            another_way = alternative_lead(comment);
            continue;
        }
        if trimmed.is_empty() {
            another_way = false;
        }
        // A line that names the host again (`sky down mycluster`) is run from where that host
        // is reached, here.
        if let Some(host) = remote {
            if ends_session(trimmed) {
                remote = None;
                continue;
            }
            if !names_word(raw, host) {
                continue;
            }
            remote = None;
        }
        // An arrow marks a line of notes, not of commands.
        if raw.contains(['→', '←']) || another_way || runs_a_download(raw) {
            continue;
        }
        remote = remote_host(raw).filter(|_| file.is_none());
        let n = line.number;
        let shift = shift(n);
        let written = |m: u32| {
            lines
                .get(m.saturating_sub(first) as usize)
                .filter(|(k, _)| *k == m)
                .map(|(_, t)| *t)
        };
        let first_line = UseLine::new(written(n).unwrap_or(raw));
        // The line after the first that the last use was written on: kept, as one such line
        // may hold thousands of uses.
        let continued = std::cell::RefCell::new(UseLine::new(""));
        // A use at byte `at` of the logical line, placed on the line it was written on.
        let place = |kind: DepKind, name: String, at: usize| match line.place(at) {
            (m, on) if m != n => {
                let mut columns = continued.borrow_mut();
                columns.move_to(written(m).unwrap_or(""));
                found(kind, name, file, m, &columns, on)
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
                } else if checked.covers(w, (li, col)) || checked.os_only((li, col)) {
                    // Run only where present, or on one operating system: the text goes on
                    // without it, or another machine runs something else.
                } else if command_name(w)
                    && !SHELL_BUILTINS.contains(&w)
                    && !BASE_UTILITIES.contains(&w)
                    && !NOT_COMMANDS.contains(&w)
                    && !INTERACTIVE.contains(&w)
                    && (installing || !registers_service(&ws, k))
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
                // In a body's example, a variable named after the option it fills
                // (`--tenantId $TENANT_ID`) may stand for that option's value: the body
                // decides by what its prose says.
                let into = match filled.as_deref_mut() {
                    Some(filled) if fills_its_option(&ws, i, &name) => filled,
                    _ => &mut *out,
                };
                into.push(place(DepKind::Env, name, at + i));
            });
        }
    }
}

/// The host a shell line opens a session on for the lines after it, if it only does that:
/// `ssh` with a destination and no command to run there (`ssh ubuntu@<IP>`, `ssh -i key
/// user@host`). A forward, a proxy or a background connection (`-D 1080`, `-L`, `-R`, `-N`,
/// `-f`) takes no typed lines, nor does one told not to read them (`-n`).
pub(super) fn remote_host(line: &str) -> Option<&str> {
    /// Options whose value is the next word, unless written with it (`-p22`).
    const TAKES_VALUE: &str = "BbcDEeFIiJLlmOopQRSWw";
    /// Options after which the connection reads no commands from the terminal.
    const NO_SESSION: &str = "DLRNfnWOGQV";
    let segs = segments(line);
    let [(_, seg)] = segs.as_slice() else {
        return None;
    };
    let ws = words(seg);
    let k = command_word(&ws).filter(|&k| ws[k].1 == "ssh")?;
    let mut destination = None;
    let mut args = ws[k + 1..].iter().map(|w| w.1);
    while let Some(w) = args.next() {
        match w.strip_prefix('-').filter(|f| !f.is_empty() && *f != "-") {
            Some(flags) => {
                for (i, c) in flags.char_indices() {
                    if NO_SESSION.contains(c) {
                        return None;
                    }
                    if TAKES_VALUE.contains(c) {
                        if i + c.len_utf8() == flags.len() {
                            args.next();
                        }
                        break;
                    }
                }
            }
            // `--` ends the options.
            None if w == "--" => {}
            // A word after the destination is a command run there.
            None if destination.is_some() => return None,
            None => destination = Some(w),
        }
    }
    // The host, without the user (`ubuntu@`).
    destination.map(|d| d.rsplit('@').next().unwrap_or(d))
}

/// Whether `line` holds `word` not as part of a longer name.
fn names_word(line: &str, word: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || matches!(c, '_' | '-' | '.');
    !word.is_empty()
        && line.match_indices(word).any(|(at, _)| {
            !line[..at].ends_with(part) && !line[at + word.len()..].starts_with(part)
        })
}

/// Whether a line typed on another machine ends the session there: `exit`, `logout`.
fn ends_session(line: &str) -> bool {
    matches!(line.split_whitespace().next(), Some("exit" | "logout"))
}

/// Whether the variable `name` read at byte `i` of a simple command is the value of an option
/// of the same name (`--tenantId $TENANT_ID`, `--client-secret=${CLIENT_SECRET}`), letters
/// compared without case, `-` or `_`.
fn fills_its_option(ws: &[(usize, &str)], i: usize, name: &str) -> bool {
    // The words are in order: the one holding byte `i` is found by halving, as one command
    // may read thousands of variables.
    let Some(k) = ws.partition_point(|w| w.0 <= i).checked_sub(1) else {
        return false;
    };
    let (w_at, w) = ws[k];
    let option = match w[..i - w_at].trim_end_matches(['"', '\'', '$', '{']) {
        "" => k.checked_sub(1).map_or("", |j| ws[j].1),
        before => before.strip_suffix('=').unwrap_or(""),
    };
    let Some(option) = option
        .strip_prefix("--")
        .or_else(|| option.strip_prefix('-'))
    else {
        return false;
    };
    // Compared letter by letter, up to the first that differs: what is before an `=` may be
    // as long as the line (`--opt=$A=$A=...`), and is read for each variable on it.
    fn letters(t: &str) -> impl Iterator<Item = u8> + '_ {
        t.bytes()
            .filter(|b| *b != b'-' && *b != b'_')
            .map(|b| b.to_ascii_lowercase())
    }
    !option.is_empty() && letters(option).eq(letters(name))
}

/// Whether what follows a variable's name inside `${...}` makes the expansion do without
/// the variable: a default (`:-`, `-`), one it assigns (`:=`, `=`), or a value only when set
/// (`:+`).
fn gives_default(after: &str) -> bool {
    [":-", ":=", ":+", "-", "="]
        .iter()
        .any(|op| after.starts_with(op))
}

/// What a Python virtual environment puts first on `PATH` once activated: it brings its own
/// `pip`, and `python` whatever the interpreter that made it was called.
pub(super) const VENV_COMMANDS: &[&str] = &["pip", "pip3", "python"];

/// Whether a simple command activates a virtual environment: `source .venv/bin/activate`,
/// `. venv/bin/activate`.
pub(super) fn activates_venv(ws: &[(usize, &str)]) -> bool {
    matches!(ws, [(_, "source" | "."), (_, path), ..] if path.trim_matches(['"', '\'']).ends_with("bin/activate"))
}

/// Whether a line runs a script it downloads (`curl -sL https://aka.ms/InstallAzureCLIDeb |
/// sudo bash`, `sh -c "$(curl -fsSL ...)"`, `bash <(wget -qO- ...)`): an installer, one way
/// among a system's package managers to get what the skill then uses, not a use of `curl` or
/// of the shell.
pub(super) fn runs_a_download(line: &str) -> bool {
    const SHELLS: &[&str] = &["sh", "bash", "zsh"];
    const FETCHERS: &[&str] = &["curl", "wget"];
    if !FETCHERS.iter().any(|f| line.contains(f)) {
        return false;
    }
    fn first_word(part: &str) -> Option<&str> {
        part.split_whitespace()
            .find(|w| *w != "sudo" && !w.starts_with('-'))
    }
    let mut parts = line.split('|').filter(|p| !p.is_empty());
    let fetched = parts
        .next()
        .and_then(first_word)
        .is_some_and(|w| FETCHERS.contains(&w));
    if fetched
        && parts.any(|p| {
            first_word(p).is_some_and(|w| SHELLS.contains(&w.rsplit('/').next().unwrap_or(w)))
        })
    {
        return true;
    }
    ["$(curl ", "$(wget ", "<(curl ", "<(wget "]
        .iter()
        .any(|f| line.contains(f))
        && first_word(line).is_some_and(|w| SHELLS.contains(&w))
}

/// Note `name` as assigned.
pub(super) fn assign(assigned: &mut Names, name: &str) {
    if !assigned.contains(name) {
        assigned.insert(name.to_owned());
    }
}

/// The names a simple command assigns: `X=1`, `export X=1`, `local X`, `for X in`, and every
/// name `read` fills (`read -r -p "..." X Y`).
pub(super) fn assignments(ws: &[(usize, &str)], assigned: &mut Names) {
    let reads = ws
        .iter()
        .any(|w| w.1 == "read" || w.1 == "mapfile" || w.1 == "readarray");
    for (k, (_, w)) in ws.iter().enumerate() {
        // A default given anywhere in the text (`${DOMAIN:-example.com}`) says the text does
        // without the variable: its bare reads elsewhere are optional too.
        for (at, _) in w.match_indices("${") {
            let rest = &w[at + 2..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            if end > 0 && gives_default(&rest[end..]) {
                assign(assigned, &rest[..end]);
            }
        }
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

/// A path to one of the skill's own scripts (`./scripts/run.sh`, `scripts/x.py`,
/// `${CLAUDE_SKILL_DIR}/scripts/x.py`): the interpreter it needs.
pub(super) fn own_script(w: &str) -> Option<&'static str> {
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
pub(super) fn shell_vars(seg: &str, assigned: &Names, mut read: impl FnMut(usize, String)) {
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
                // An element of an array (`${ARGS[0]}`) is the script's own too.
                let defaulted = braced && (gives_default(after) || after.starts_with('['));
                if env_name(&name) && !defaulted && !assigned.contains(&name) {
                    read(i, name);
                }
            }
            _ => {}
        }
        i += 1;
    }
}
