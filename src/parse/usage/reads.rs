//! What a script's text says around a read or a call: whether a variable's read is optional,
//! which executables process-spawning calls run.

use super::shell::{BASE_UTILITIES, SHELL_BUILTINS};
use super::{UseLine, command_name, found, place, retain_since};
use crate::model::{DepKind, Use};
use crate::span::LineStarts;

/// The executables that process-spawning calls run: the first string of the call's argument
/// (its first word, for a command line), when it is a literal.
pub(super) fn calls(
    text: &str,
    starts: &LineStarts,
    pats: &[&str],
    file: Option<&str>,
    out: &mut Vec<Use>,
) {
    let mut columns = UseLine::new("");
    for pat in pats {
        for (p, _) in text.match_indices(pat) {
            // `exec(` must not be the tail of `execSync(` or of another name.
            if text[..p].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            // A branch of a conditional (`opener ? spawn(opener) : spawn("cmd", ...)`, `else:
            // subprocess.run(...)`): run on one platform or in one case only.
            let before = text[..p].trim_end_matches([' ', '\t']);
            if before.ends_with(['?', ':']) && !before.ends_with("::") && !before.ends_with("try:")
            {
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
pub(super) struct Script<'t> {
    pub(super) text: &'t str,
    pub(super) starts: LineStarts,
    /// By where each line starts.
    pub(super) lines: foldhash::HashMap<usize, LineFacts>,
    /// Where each `)` and `]` stands, and each `,`: found when first asked.
    pub(super) closers: Option<(Vec<usize>, Vec<usize>)>,
    /// Whether what follows a call's end assigns to it (`os.environ["X"] = ...`), by its end.
    pub(super) assigned_at: foldhash::HashMap<usize, bool>,
}

/// What the checks of a read ask of its line.
pub(super) struct LineFacts {
    /// A fallback in its code (`||`, `??`, ` or `): every read on it is optional.
    pub(super) fallback: bool,
    /// A comment line (`# ...`).
    pub(super) commented: bool,
    /// Where its text starts and ends, without the white space around it.
    pub(super) content: (usize, usize),
    /// Each space, `)`, `,` and `;` (what ends the expression of a read), with where the text
    /// after it resumes past white space.
    pub(super) stops: Vec<(usize, usize)>,
    /// Each `=`, with the name written on its left.
    pub(super) assigns: Vec<(usize, String)>,
    /// Whether the lines after this one test a name, by name.
    pub(super) tested: foldhash::HashMap<String, bool>,
}

impl LineFacts {
    pub(super) fn of(line: &str) -> LineFacts {
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
    pub(super) fn after_stop<'l>(&self, line: &'l str, from: usize) -> &'l str {
        let i = self.stops.partition_point(|(s, _)| *s < from);
        self.stops
            .get(i)
            .map_or("", |(_, resumes)| &line[*resumes..])
    }
}

impl<'t> Script<'t> {
    pub(super) fn new(text: &'t str) -> Self {
        Script {
            text,
            starts: LineStarts::new(text),
            lines: foldhash::HashMap::default(),
            closers: None,
            assigned_at: foldhash::HashMap::default(),
        }
    }

    pub(super) fn place(&self, p: usize) -> (u32, usize, &'t str) {
        place(self.text, &self.starts, p)
    }

    /// Where byte `p` is in its line (a byte column), the line, and its facts.
    pub(super) fn facts(&mut self, p: usize) -> (usize, &'t str, &mut LineFacts) {
        let (_, col, line) = self.place(p);
        let facts = self
            .lines
            .entry(p - col)
            .or_insert_with(|| LineFacts::of(line));
        (col, line, facts)
    }

    /// What follows the end of the expression that starts at byte `p`, past white space.
    pub(super) fn after_stop(&mut self, p: usize) -> &'t str {
        let (col, line, facts) = self.facts(p);
        facts.after_stop(line, col)
    }

    /// For the arguments of a call that start at byte `from`: whether a `,` comes before the
    /// first `)` or `]` after them, and whether `=` (not `==`) follows that end.
    pub(super) fn call_ends(&mut self, from: usize) -> (bool, bool) {
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

/// The most bytes after a read's line that [`optional_read`] looks at for a test of the name it
/// is assigned to, in the twenty lines there: a line that ends past them is not looked at, nor
/// those after it. Each name a line assigns is looked for there, and one line may assign
/// thousands.
pub(super) const TEST_WINDOW: usize = 8192;

/// Whether the read of a variable at byte `p` of the script is optional: a fallback on the same
/// line (`x or os.getenv("A")`, `process.env.A || "b"`, `A ?? B`), or a value the next lines
/// only use when it is set (`key = os.getenv("A")` then `if key:`; `const k = process.env.A`
/// then `if (k)`, or `k || other` on one of the twenty lines after it, within [`TEST_WINDOW`]).
/// A script that stops without it tests it negatively (`if not key:`).
pub(super) fn optional_read(script: &mut Script, p: usize) -> bool {
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
    // The window: cut first, as finding where a long line after the read ends would read the
    // whole of it again for each name.
    let rest = &text[p - col + line.len()..];
    let mut cut = rest.len().min(TEST_WINDOW);
    while !rest.is_char_boundary(cut) {
        cut -= 1;
    }
    let window = &rest[..cut];
    // A line the cut ends, and those after it, are not looked at.
    let whole = |l: &str| {
        cut == rest.len() || l.as_ptr() as usize + l.len() < window.as_ptr() as usize + cut
    };
    let tested = window
        .lines()
        .skip(1)
        .take(20)
        .take_while(|l| whole(l))
        .map(str::trim)
        .find_map(|l| tests_name(l, var))
        .unwrap_or(false);
    facts.tested.insert(var.clone(), tested);
    tested
}

/// Leave out of `out[from..]` the reads of a variable on the two lines after an optional read
/// of it (`optional`, each with its line): the branch a test of it opens (`if
/// (process.env.KEY) {` then `return process.env.KEY;`) runs only when it is set.
pub(super) fn under_optional(out: &mut Vec<Use>, from: usize, optional: &[(String, u32)]) {
    if optional.is_empty() {
        return;
    }
    let optional: foldhash::HashSet<(&str, u32)> =
        optional.iter().map(|(n, l)| (n.as_str(), *l)).collect();
    retain_since(out, from, |u| {
        let below = |d: u32| optional.contains(&(u.name.as_str(), u.line.saturating_sub(d)));
        u.kind != DepKind::Env || !(below(1) || below(2))
    });
}

/// What a line that tests the name `var` says of it, where it does: `Some(true)` where the
/// value is used only when set (`if key:`, `if (key)`, `key ? a : b`, `x if key else y`) or
/// is one way of two (`if not key and not args.vertex:`), `Some(false)` where the script stops
/// without it (`if not key:`, `if (!key)`).
fn tests_name(l: &str, var: &str) -> Option<bool> {
    if !l.contains(var) {
        return None;
    }
    // What follows `prefix` and the name, where the name is whole.
    let after = |prefix: &str| {
        l.strip_prefix(prefix)
            .and_then(|r| r.strip_prefix(var))
            .filter(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
    };
    if let Some(r) = after("if ") {
        return (r == ":" || r.starts_with(" and ")).then_some(true);
    }
    if let Some(r) = after("if (") {
        return (r.starts_with(')') || r.starts_with(" &&")).then_some(true);
    }
    if let Some(r) = after("if not ") {
        return Some(r.starts_with(" and "));
    }
    if let Some(r) = after("if (!") {
        return Some(r.starts_with(" &&"));
    }
    if l.contains(&format!(" if {var} else ")) || l.contains(&format!("{var} ? ")) {
        return Some(true);
    }
    // One of a chain of fallbacks (`args[1] || address || sdk.walletAddress`, `key or
    // config.key`), not a negated test (`!key ||`, `not key or`).
    l.match_indices(var)
        .any(|(i, _)| {
            let before = &l[..i];
            let rest = &l[i + var.len()..];
            !before.ends_with(|c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '!'))
                && !before.ends_with("not ")
                && [" || ", " ?? ", " or "].iter().any(|f| rest.starts_with(f))
        })
        .then_some(true)
}

/// The string literal that starts `s` (after spaces), if any.
pub(super) fn quoted_after(s: &str) -> Option<String> {
    let s = s.trim_start();
    let q = s.chars().next().filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let rest = &s[1..];
    let end = rest.find(q)?;
    let v = &rest[..end];
    (!v.contains("${") && !v.is_empty()).then(|| v.to_owned())
}
