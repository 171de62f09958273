//! `rules`, `rule ID` and `profiles`: what skill-audit knows.

use super::{Outcome, print};
use crate::rules::Rule;

/// The policy rules of the settings file `config`, or of the one an audit of the current
/// folder would read; a settings file that cannot be used is an error.
fn policies(config: Option<&std::path::Path>) -> Result<Vec<Rule>, String> {
    let cwd =
        std::env::current_dir().map_err(|e| format!("cannot read the current directory: {e}"))?;
    // As an audit of the current folder shows paths.
    let view = crate::paths::PathView::new(&cwd, &[]);
    let path = match config {
        Some(p) => Some(p.to_owned()),
        None => crate::config::file::find(std::path::Path::new("."), &view, false)?,
    };
    let Some(path) = path else {
        return Ok(Vec::new());
    };
    let shown = crate::paths::display_path(&path, &view);
    crate::config::file::load(&path, &shown)
        .map(|c| c.policies)
        .map_err(|e| e.to_string())
}

/// One line per rule: ID, default severity, name, whether it has a fix, summary; the
/// built-in rules, then the settings file's policy rules.
pub(crate) fn rules(config: Option<&std::path::Path>) -> Result<Outcome, String> {
    let policies = policies(config)?;
    let mut s = String::new();
    for r in Rule::ALL.iter().chain(&policies) {
        s.push_str(&format!(
            "{:<5}  {:<7}  {:<28} {:<6} {}\n",
            r.code(),
            r.default_severity(),
            r.name(),
            fix_label(*r),
            r.summary()
        ));
    }
    print(&s)
}

/// `safe`, `unsafe`, or nothing for a rule without a fix.
fn fix_label(r: Rule) -> &'static str {
    match r.doc().fix.map(|f| f.applicability) {
        Some(crate::diagnostic::Applicability::Safe) => "safe",
        Some(crate::diagnostic::Applicability::Unsafe) => "unsafe",
        None => "",
    }
}

/// The built-in host profiles, one a line; with a name, that profile's JSON as shipped.
pub(crate) fn profiles(name: Option<&str>) -> Result<Outcome, String> {
    use crate::profile::builtin;
    if let Some(name) = name {
        return match builtin::text(name) {
            Some(json) => print(json),
            None => Err(format!(
                "unknown built-in profile {}; known: {}",
                crate::diagnostic::quote(name),
                builtin::names().join(", ")
            )),
        };
    }
    let mut s = String::new();
    let width = terminal_width();
    for p in builtin::describe() {
        let checked = p
            .checked
            .map(|d| format!(" (checked {d})"))
            .unwrap_or_default();
        let line = format!("{:<24} {}{checked}", p.name, p.description);
        match width {
            Some(width) => crate::report::text::hanging(&line, 0, 25, width, &mut s),
            None => {
                s.push_str(&line);
                s.push('\n');
            }
        }
    }
    print(&s)
}

/// The width prose wraps to where standard output is a terminal, as the text report's notes
/// do; elsewhere (a pipe, a file) each entry stays on one line, for `grep` and scripts.
fn terminal_width() -> Option<usize> {
    use std::io::IsTerminal as _;
    std::io::stdout()
        .is_terminal()
        .then(|| crate::report::text::wrap_width(true))
}

/// A rule's documentation with its prose wrapped to `width`; its example is left as written.
fn wrapped_doc(doc: &str, width: Option<usize>) -> String {
    let Some(width) = width else {
        return doc.to_owned();
    };
    let mut out = String::new();
    let mut example = false;
    for line in doc.lines() {
        if !line.starts_with(' ') && !line.is_empty() {
            example = line == "Example";
        }
        match line.strip_prefix("  ") {
            Some(prose) if !example && !prose.starts_with(' ') => {
                crate::report::text::hanging(prose, 2, 2, width, &mut out);
            }
            _ => {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// One rule's documentation, a built-in rule's or a policy rule's of the settings file.
pub(crate) fn rule(id: &str, config: Option<&std::path::Path>) -> Result<Outcome, String> {
    let policies = policies(config)?;
    let rule = Rule::from_id_in(id, &policies).ok_or_else(|| {
        format!(
            "unknown rule {}; `skill-audit rules` lists them",
            crate::diagnostic::quote(id)
        )
    })?;
    print(&wrapped_doc(&rule_doc(rule), terminal_width()))
}

/// A rule's documentation as plain text.
pub fn rule_doc(rule: Rule) -> String {
    rule.doc_text()
}

/// Which file `skill-audit schema` describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemaKind {
    /// An environment profile (`--profile FILE`).
    Profile,
    /// The settings file, `skill-audit.toml`.
    Config,
    /// The JSON report (`--format json`).
    Report,
}

/// The JSON Schema of `kind`, as pretty JSON with a final newline: the text of
/// `schemas/KIND.schema.json`.
pub fn schema_text(kind: SchemaKind) -> String {
    let schema = match kind {
        SchemaKind::Profile => crate::profile::schema(),
        SchemaKind::Config => crate::config::schema(),
        SchemaKind::Report => crate::report::schema(),
    };
    let mut text = serde_json::to_string_pretty(&schema).unwrap_or_default();
    text.push('\n');
    text
}

/// `schema KIND`.
pub(crate) fn schema(kind: SchemaKind) -> Result<Outcome, String> {
    print(&schema_text(kind))
}

/// The rule catalogue, `docs/rules.md`: an index, then one section per rule.
pub fn rules_markdown() -> String {
    let mut s = String::from(
        "# Rules\n\n\
         <!-- Generated from the rule registry in src/rules/mod.rs; regenerate with \
         `UPDATE_DOCS=1 cargo test --test it docs::`. -->\n\n\
         Every finding has a stable rule ID. `skill-audit rules` lists the rules and \
         `skill-audit rule ID` prints one of the sections below. The Fix column says which \
         rules' findings carry a fix: `safe` ones `--fix` applies, `unsafe` ones only \
         `--fix --unsafe-fixes` (see [fixes.md](fixes.md)). A library can add rules of its \
         own, with IDs from `P001` to `P999`: see [policy.md](policy.md).\n\n\
         | ID | Name | Default | Fix | Summary |\n| --- | --- | --- | --- | --- |\n",
    );
    for r in Rule::ALL {
        s.push_str(&format!(
            "| [{code}](#{anchor}) | `{name}` | {sev} | {fix} | {summary} |\n",
            fix = fix_label(*r),
            code = r.code(),
            anchor = r.anchor(),
            name = r.name(),
            sev = r.default_severity(),
            summary = r.summary().replace('|', "\\|"),
        ));
    }
    for r in Rule::ALL {
        let d = r.doc();
        // A fence longer than any run of backticks in the example.
        let mut fence = String::from("```");
        while d.example.contains(fence.as_str()) {
            fence.push('`');
        }
        s.push_str(&format!(
            "\n## {} {}\n\nDefault severity: **{}**\n\n{}.\n\n\
             ### What it checks\n\n{}\n\n### Why it matters\n\n{}\n\n\
             ### Example\n\n{fence}text\n{}\n{fence}\n",
            r.code(),
            r.name(),
            r.default_severity(),
            r.summary(),
            d.what,
            d.why,
            d.example.trim_end(),
        ));
        if let Some(f) = r.fix_text() {
            s.push_str(&format!("\n### Fix\n\n{f}\n"));
        }
    }
    s
}
