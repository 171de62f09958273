//! PowerShell blocks and scripts: the commands they run and the variables they read.

use super::shell::{NOT_COMMANDS, assign, installs_packages, own_script, segments, words};
use super::{Names, UseLine, command_name, common_var, found};
use crate::model::{DepKind, Use};

/// PowerShell's keywords and the aliases it defines for its own cmdlets.
#[rustfmt::skip]
pub(super) const PS_BUILTINS: &[&str] = &[
    "begin", "break", "catch", "cd", "class", "clear", "cls", "continue", "copy", "cp", "del",
    "dir", "do", "echo", "else", "elseif", "end", "enum", "exit", "filter", "finally", "for",
    "foreach", "function", "gc", "gci", "if", "iex", "in", "irm", "iwr", "ls", "md", "mkdir",
    "move", "mv", "param", "popd", "process", "pushd", "pwd", "ren", "return", "rm", "rmdir",
    "select", "sleep", "sort", "switch", "throw", "trap", "try", "type", "until", "using", "where",
    "while", "write", "cat", "tee", "man", "help", "start", "kill", "ps", "diff",
];

/// The commands and variables of PowerShell text.
pub(super) fn powershell(
    lines: &[(u32, &str)],
    file: Option<&str>,
    installing: bool,
    out: &mut Vec<Use>,
) {
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
        let columns = UseLine::new(line);
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
