//! Python scripts and `requirements.txt`: packages imported and listed (import names mapped to
//! distributions), variables read, processes run.

use super::reads::{Script, calls, optional_read, quoted_after, under_optional};
use super::shell::assign;
use super::{
    Local, Names, UseLine, contains_ci, env_name, found, imported, retain_since, span_holding,
};
use crate::model::{DepKind, Use};

pub(super) fn requirements_txt(lines: &[(u32, &str)], rel: &str, out: &mut Vec<Use>) {
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
                &UseLine::new(line),
                at,
            ));
        }
    }
}

/// Import names whose distribution is called otherwise.
pub(super) const PY_DISTRIBUTIONS: &[(&str, &str)] = &[
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
pub(super) fn python_distribution(module: &str, full: &str) -> Option<String> {
    if module.starts_with('_')
        || crate::parse::stdlib::PYTHON_STDLIB
            .binary_search(&module)
            .is_ok()
    {
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

/// Whether a line of code opens a branch that the script may not take: `if`, `elif`, `else`
/// and `except` blocks, but not the script's entry point (`if __name__ == "__main__":`).
fn branch(t: &str) -> bool {
    let code = t.split(" #").next().unwrap_or(t).trim_end();
    code.ends_with(':')
        && ["if ", "elif ", "else:", "except"]
            .iter()
            .any(|k| t.starts_with(k))
        && !t.contains("__name__")
}

/// A `try:` block of a script and its first handler: what the block's body imports or runs,
/// the script can do without when the handler goes on.
#[derive(Clone, Copy)]
struct Try {
    indent: usize,
    /// The `try:` line, its handler's `except` line, and the first line after the handler.
    from: u32,
    except: u32,
    to: u32,
    /// Whether the handler catches a failed import: `except ImportError:`, a bare `except:`,
    /// `except Exception`.
    catches_import: bool,
    /// Whether the handler stops the script (`exit(`, `raise`): the imports are needed.
    stops: bool,
    /// Whether it says to install what failed (`_die("... requires Pillow. Install with
    /// ...")`): the imports are needed, unless the handler goes on without them.
    asks_to_install: bool,
    /// Whether the handler goes on (`return {}`, `pass`, `continue`): "onnx not installed,
    /// skipping" is a warning, not a stop.
    goes_on: bool,
    /// Whether the handler reports the failure in any way (exits, raises, prints, logs): what
    /// the body runs is needed. Only going on quietly (`return None`, `pass`) is not.
    reports: bool,
}

impl Try {
    /// The lines whose imports the script can do without: the body and the handler, which
    /// may import a fallback (`except ImportError: import json`).
    fn optional_imports(&self) -> Option<(u32, u32)> {
        let needs_imports = self.stops || self.asks_to_install && !self.goes_on;
        (self.catches_import && !needs_imports).then_some((self.from, self.to))
    }

    /// The lines whose processes the script can do without: the body.
    fn quiet_body(&self) -> Option<(u32, u32)> {
        (!self.reports).then_some((self.from, self.except))
    }
}

/// A script's `try` blocks with their first handlers, read line by line. A `try:` inside
/// another is the one that guards what comes after it; one inside a handler is not followed.
#[derive(Default)]
struct Tries {
    /// The `try:` being read: its indent and line.
    open: Option<(usize, u32)>,
    /// Its handler, being read.
    handler: Option<Try>,
    done: Vec<Try>,
}

impl Tries {
    /// Read a line of code (`t`, at `indent`, line `n`).
    fn read(&mut self, t: &str, indent: usize, n: u32) {
        if let Some(h) = &mut self.handler {
            if indent > h.indent {
                h.stops |= ["exit(", "raise"].iter().any(|w| contains_ci(t, w));
                h.asks_to_install |= ["install", "require"].iter().any(|w| contains_ci(t, w));
                h.goes_on |= ["return", "pass", "continue"].iter().any(|w| {
                    t.strip_prefix(w)
                        .is_some_and(|r| r.is_empty() || r.starts_with([' ', '(', '{', '[']))
                });
                h.reports |= ["exit(", "raise", "print(", "log", "error", "Error", "warn"]
                    .iter()
                    .any(|w| t.contains(w));
                return;
            }
            self.done.push(Try { to: n, ..*h });
            self.handler = None;
        }
        if let Some((at, from)) = self.open
            && indent <= at
        {
            self.open = None;
            if indent == at && t.starts_with("except") {
                self.handler = Some(Try {
                    indent: at,
                    from,
                    except: n,
                    to: u32::MAX,
                    catches_import: t.contains("ImportError")
                        || t.contains("ModuleNotFoundError")
                        || t.starts_with("except:")
                        || t.starts_with("except Exception"),
                    stops: false,
                    asks_to_install: false,
                    goes_on: false,
                    reports: false,
                });
                return;
            }
        }
        if t == "try:" {
            self.open = Some((indent, n));
        }
    }

    /// The blocks, in order.
    fn end(mut self) -> Vec<Try> {
        self.done.extend(self.handler.take());
        self.done
    }
}

pub(super) fn python(
    text: &str,
    lines: &[(u32, &str)],
    rel: &str,
    local: &Local,
    out: &mut Vec<Use>,
) {
    let file = Some(rel);
    let start = out.len();
    let mut script = Script::new(text);
    let mut assigned = Names::default();
    // Inside a triple-quoted string (a docstring, a template of other code): no imports.
    let mut in_string: Option<&str> = None;
    // The indents of the branches (`if`, `elif`, `else`, `except`) the line is in.
    let mut branches: Vec<usize> = Vec::new();
    // The stretches of lines after a comment that says the code falls back (`# Fall back to
    // environment variables`), to the end of the comment's block: the way taken when
    // another fails.
    let mut fallbacks: Vec<(u32, u32)> = Vec::new();
    let mut falling_back: Option<(usize, u32)> = None;
    let mut tries = Tries::default();
    for &(n, line) in lines {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let code = !t.is_empty() && !t.starts_with('#') && in_string.is_none();
        if code {
            tries.read(t, indent, n);
            while branches.last().is_some_and(|b| *b >= indent) {
                branches.pop();
            }
            if let Some((at, from)) = falling_back
                && indent < at
            {
                fallbacks.push((from, n));
                falling_back = None;
            }
        } else if falling_back.is_none()
            && in_string.is_none()
            && t.starts_with('#')
            && (contains_ci(t, "fall back") || contains_ci(t, "fallback"))
        {
            falling_back = Some((indent, n));
        }
        let branched = !branches.is_empty();
        if code && branch(t) {
            branches.push(indent);
        }
        let mut quote = in_string;
        for q in ["\"\"\"", "'''"] {
            if quote.is_none_or(|open| open == q) && line.matches(q).count() % 2 == 1 {
                quote = if quote.is_some() { None } else { Some(q) };
            }
        }
        let inside = in_string.is_some() || quote.is_some() && !t.starts_with(['"', '\'']);
        in_string = quote;
        // An import in a branch is made only on that path (`if data_yaml.exists(): import
        // yaml`): one the script can do without.
        if inside
            || branched
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
        let columns = UseLine::new(line);
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
    let tries = tries.end();
    let spans =
        |of: fn(&Try) -> Option<(u32, u32)>| tries.iter().filter_map(of).collect::<Vec<_>>();
    let optional_imports = spans(Try::optional_imports);
    if !optional_imports.is_empty() {
        retain_since(out, start, |u| {
            u.kind != DepKind::Packages || span_holding(&optional_imports, u.line).is_none()
        });
    }
    let guarded = spans(Try::quiet_body);
    if let Some((_, from)) = falling_back {
        fallbacks.push((from, u32::MAX));
    }
    // Reads of the environment.
    let from = out.len();
    let mut optional_vars = Vec::new();
    let mut columns = UseLine::new("");
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
            if !env_name(&name) || subscript_set || assigned.contains(&name) {
                continue;
            }
            let in_fallback = span_holding(&fallbacks, line).is_some();
            if has_default || in_fallback || optional_read(&mut script, p) {
                optional_vars.push((name, line));
            } else {
                columns.move_to(l);
                out.push(found(DepKind::Env, name, file, line, &columns, col));
            }
        }
    }
    under_optional(out, from, &optional_vars);
    let from = out.len();
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
    // A process run in a `try` whose handler goes on without it: the script can do without.
    if !guarded.is_empty() {
        retain_since(out, from, |u| span_holding(&guarded, u.line).is_none());
    }
}
