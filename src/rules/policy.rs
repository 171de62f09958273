//! P001-P999: the library's own rules, declared in `skill-audit.toml` under `[[policy]]`.
//!
//! A policy rule is a [`Rule`] like any built-in one ([`Rule::Policy`]), so suppressions,
//! baselines, severities, `--select` and every renderer treat its findings alike. What differs
//! is where its [`RuleDoc`] comes from: the settings file, read once per run. The definitions
//! are interned for the life of the process, which keeps `Rule` a small `Copy` value and lets
//! `Rule::doc` stay `&'static`; a definition read again (an editor's server reloading the same
//! file) is found, not stored twice.
//!
//! Each rule applies one check of a closed set ([`Check`]) to the parsed frontmatter of the
//! skills or agents its selector picks. Nothing is run and no file is read.

use std::hash::{Hash, Hasher};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::{Rule, RuleDoc};
use crate::diagnostic::{Pos, Severity, Sink, quote};
use crate::parse::yaml::{Node, Value};
use crate::profile::{Vocabulary, builtin, names};

/// The prefix of every policy rule ID: `P` and three digits, a range no built-in rule uses.
pub const PREFIX: &str = "P";

/// Is `id` shaped as a policy rule ID (`P001`), in any case?
pub fn is_policy_id(id: &str) -> bool {
    let (Some(letter), Some(digits)) = (id.get(..1), id.get(1..)) else {
        return false;
    };
    letter.eq_ignore_ascii_case(PREFIX)
        && digits.len() == 3
        && digits.bytes().all(|b| b.is_ascii_digit())
        && digits != "000"
}

/// Is `selector` shaped as a selector of policy rules (`P`, `P0`, `P00`, `P001`), in any case?
pub fn is_policy_selector(selector: &str) -> bool {
    let digits = (selector.get(..PREFIX.len()))
        .filter(|p| p.eq_ignore_ascii_case(PREFIX))
        .and_then(|_| selector.get(PREFIX.len()..));
    digits.is_some_and(|d| d.len() <= 3 && d.bytes().all(|b| b.is_ascii_digit()))
}

/// What a policy rule applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// Skills (`SKILL.md`).
    Skill,
    /// Custom agents (`.agent.md`, `.chatmode.md`, Claude Code agents).
    Agent,
    /// Plugin and marketplace manifests (`plugin.json`, `marketplace.json`), by their JSON
    /// fields.
    Manifest,
}

impl Target {
    pub(crate) fn label(self) -> &'static str {
        match self {
            Target::Skill => "skill",
            Target::Agent => "agent",
            Target::Manifest => "manifest",
        }
    }
}

/// A regular expression, compared by its text.
#[derive(Clone, Debug)]
pub struct Pattern(pub regex::Regex);

impl PartialEq for Pattern {
    fn eq(&self, other: &Self) -> bool {
        self.0.as_str() == other.0.as_str()
    }
}

/// Path globs, relative to the settings file's folder, compared by their text.
#[derive(Clone, Debug)]
pub struct Globs {
    pub written: Vec<String>,
    pub set: globset::GlobSet,
}

impl PartialEq for Globs {
    fn eq(&self, other: &Self) -> bool {
        self.written == other.written
    }
}

/// The closed set of checks a policy rule may make.
#[derive(Clone, Debug, PartialEq)]
pub enum Check {
    /// The frontmatter must have this field (a dotted path reaches into mappings).
    RequiredField { field: String },
    /// The frontmatter must not have this field.
    ForbiddenField { field: String },
    /// The field's value (each entry, for a list) must match the pattern.
    FieldPattern { field: String, pattern: Pattern },
    /// The field's value (each entry, for a list) may have at most this many characters.
    MaxLength { field: String, max: usize },
    /// An agent may not be granted any of these tools.
    ForbiddenTools { tools: Vec<String> },
    /// An agent that lists its tools must list each of these.
    RequiredTools { tools: Vec<String> },
    /// An agent may be granted MCP servers of this list only.
    AllowedServers { servers: Vec<String> },
}

impl Check {
    /// The check's name, as `check = "..."` writes it.
    pub fn name(&self) -> &'static str {
        match self {
            Check::RequiredField { .. } => "required-field",
            Check::ForbiddenField { .. } => "forbidden-field",
            Check::FieldPattern { .. } => "field-pattern",
            Check::MaxLength { .. } => "max-length",
            Check::ForbiddenTools { .. } => "forbidden-tools",
            Check::RequiredTools { .. } => "required-tools",
            Check::AllowedServers { .. } => "allowed-servers",
        }
    }

    /// Every check's name, for the error that names an unknown one.
    pub const NAMES: &'static [&'static str] = &[
        "required-field",
        "forbidden-field",
        "field-pattern",
        "max-length",
        "forbidden-tools",
        "required-tools",
        "allowed-servers",
    ];

    /// Checks of agents' grants apply to agents only.
    pub fn agents_only(&self) -> bool {
        matches!(
            self,
            Check::ForbiddenTools { .. }
                | Check::RequiredTools { .. }
                | Check::AllowedServers { .. }
        )
    }

    /// The rule's one-line summary when the settings file gives none.
    fn summary(&self, target: Target) -> String {
        let t = target.label();
        match self {
            Check::RequiredField { field } => format!("Every {t} has {}", quote(field)),
            Check::ForbiddenField { field } => format!("No {t} has {}", quote(field)),
            Check::FieldPattern { field, pattern } => {
                format!(
                    "A {t}'s {} matches {}",
                    quote(field),
                    quote(pattern.0.as_str())
                )
            }
            Check::MaxLength { field, max } => {
                format!("A {t}'s {} has at most {max} characters", quote(field))
            }
            Check::ForbiddenTools { tools } => {
                format!("No agent is granted {}", crate::diagnostic::quoted(tools))
            }
            Check::RequiredTools { tools } => {
                format!(
                    "An agent that lists its tools lists {}",
                    crate::diagnostic::quoted(tools)
                )
            }
            Check::AllowedServers { servers } => format!(
                "Agents are granted only the MCP servers {}",
                crate::diagnostic::quoted(servers)
            ),
        }
    }
}

/// A policy rule as the settings file declares it.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicySpec {
    pub code: String,
    pub name: String,
    pub severity: Severity,
    /// The settings file's `summary`, if any.
    pub summary: Option<String>,
    pub target: Target,
    /// `None`: every file of the target's kind.
    pub paths: Option<Globs>,
    /// Only the skills or agents of the plugin of this name.
    pub plugin: Option<String>,
    pub check: Check,
    /// What the finding says, instead of the generated message.
    pub message: Option<String>,
    /// Where it is declared (`skill-audit.toml:12`), for `skill-audit rule`.
    pub declared_at: String,
}

/// A policy rule as a run knows it: its declaration and the documentation made from it.
/// `spec` is `None` for a rule known only by its ID, from a saved report.
#[derive(Debug)]
pub struct PolicyRule {
    spec: Option<PolicySpec>,
    doc: RuleDoc,
}

/// A handle on an interned policy rule: compared, ordered and hashed by its ID, as a rule is.
#[derive(Clone, Copy, Debug)]
pub struct PolicyRef(&'static PolicyRule);

impl PartialEq for PolicyRef {
    fn eq(&self, other: &Self) -> bool {
        self.0.doc.code == other.0.doc.code
    }
}
impl Eq for PolicyRef {}
impl PartialOrd for PolicyRef {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for PolicyRef {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.doc.code.cmp(other.0.doc.code)
    }
}
impl Hash for PolicyRef {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.doc.code.hash(state);
    }
}

impl PolicyRef {
    pub fn doc(self) -> &'static RuleDoc {
        &self.0.doc
    }
    pub fn spec(self) -> Option<&'static PolicySpec> {
        self.0.spec.as_ref()
    }
}

static INTERNED: Mutex<Vec<&'static PolicyRule>> = Mutex::new(Vec::new());

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn intern(spec: Option<PolicySpec>, code: &str, make: impl FnOnce() -> RuleDoc) -> PolicyRef {
    let mut all = INTERNED.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(found) = all
        .iter()
        .find(|p| p.spec == spec && p.doc.code.eq_ignore_ascii_case(code))
    {
        return PolicyRef(found);
    }
    let rule: &'static PolicyRule = Box::leak(Box::new(PolicyRule { spec, doc: make() }));
    all.push(rule);
    PolicyRef(rule)
}

impl PolicySpec {
    /// The rule this declaration makes.
    pub fn into_rule(self) -> Rule {
        let code = self.code.clone();
        let doc = |s: &PolicySpec| RuleDoc {
            code: leak(s.code.clone()),
            name: leak(s.name.clone()),
            severity: s.severity,
            summary: leak(
                s.summary
                    .clone()
                    .unwrap_or_else(|| s.check.summary(s.target)),
            ),
            what: leak(s.what()),
            why: leak(format!(
                "It is this library's own policy, declared in {}.",
                s.declared_at
            )),
            example: leak(s.example()),
            fix: None,
        };
        let made = doc(&self);
        Rule::Policy(intern(Some(self), &code, || made))
    }

    /// What the rule checks, for its documentation.
    fn what(&self) -> String {
        let which = match &self.paths {
            Some(g) => format!(
                "{}s whose path matches {}",
                self.target.label(),
                crate::diagnostic::quoted(&g.written)
            ),
            None => format!("every {}", self.target.label()),
        };
        let which = match &self.plugin {
            Some(p) => format!("{which} of the plugin {}", quote(p)),
            None => which,
        };
        let check = match &self.check {
            Check::RequiredField { field } => {
                format!("The frontmatter must have the field {}", quote(field))
            }
            Check::ForbiddenField { field } => {
                format!("The frontmatter must not have the field {}", quote(field))
            }
            Check::FieldPattern { field, pattern } => format!(
                "{}, when present, must match the regular expression {} (each entry, for a list)",
                quote(field),
                quote(pattern.0.as_str())
            ),
            Check::MaxLength { field, max } => format!(
                "{}, when present, may have at most {max} characters (each entry, for a list)",
                quote(field)
            ),
            Check::ForbiddenTools { tools } => format!(
                "`tools` may not grant {}, nor a name a built-in host that loads the agent takes for one of them (such as GitHub Copilot's `execute` for `Bash`); an agent without `tools` is granted every tool, these too",
                crate::diagnostic::quoted(tools)
            ),
            Check::RequiredTools { tools } => format!(
                "`tools`, when the agent lists its tools, must include {}",
                crate::diagnostic::quoted(tools)
            ),
            Check::AllowedServers { servers } => format!(
                "The agent may be granted only the MCP servers {}, in `mcp-servers` or by tools of theirs in `tools` (`SERVER/TOOL`, `SERVER/*`, `SERVER:TOOL`, `mcp__SERVER__TOOL`)",
                crate::diagnostic::quoted(servers)
            ),
        };
        format!("The library's policy, for {which}: {check}.")
    }

    fn example(&self) -> String {
        format!(
            "[[policy]]\nid = \"{}\"\nname = \"{}\"\napplies-to = \"{}\"\ncheck = \"{}\"",
            self.code,
            self.name,
            self.target.label(),
            self.check.name()
        )
    }

    /// Does the rule apply to the file at `path` (its display path) of kind `target`? `dir` is
    /// the settings file's folder as a display path, which the globs are relative to.
    fn applies(&self, target: Target, path: &str, dir: &str) -> bool {
        if self.target != target {
            return false;
        }
        let Some(globs) = &self.paths else {
            return true;
        };
        let rel = if dir.is_empty() || dir == "." {
            path
        } else {
            path.strip_prefix(dir)
                .and_then(|p| p.strip_prefix('/'))
                .unwrap_or(path)
        };
        globs.set.is_match(rel)
    }
}

/// The rule of an ID in the policy range that this run does not declare (read from a saved
/// report): it keeps the ID, so findings still match by rule.
pub(crate) fn known_only_by_id(id: &str) -> Rule {
    let code = id.to_ascii_uppercase();
    let c = code.clone();
    Rule::Policy(intern(None, &code, || RuleDoc {
        code: leak(c.clone()),
        name: leak(c.to_ascii_lowercase()),
        severity: Severity::Warning,
        summary: "A policy rule of a library's skill-audit.toml",
        what: "A rule the library's skill-audit.toml declared when the report was written.",
        why: "It is that library's own policy.",
        example: "[[policy]] in skill-audit.toml",
        fix: None,
    }))
}

/// The policy rules of one run and the folder their globs are relative to.
#[derive(Clone, Debug, Default)]
pub struct Policies {
    pub rules: Vec<Rule>,
    /// The settings file's folder, as a display path ("" for the current folder).
    pub dir: String,
}

impl Policies {
    fn applying(&self, target: Target, path: &str) -> impl Iterator<Item = (Rule, &PolicySpec)> {
        self.rules.iter().filter_map(move |&r| match r {
            Rule::Policy(p) => p
                .spec()
                .filter(|s| s.applies(target, path, &self.dir))
                .map(|s| (r, s)),
            _ => None,
        })
    }

    /// Run the policy rules that apply to a skill on its frontmatter.
    pub(crate) fn check_skill(&self, root: Option<&Node>, sink: &mut Sink) {
        if self.rules.is_empty() {
            return;
        }
        let Some(root) = root else { return };
        let path = sink.path;
        for (rule, spec) in self.applying(Target::Skill, path) {
            check_fields(rule, spec, root, sink);
        }
    }

    /// Run the policy rules that apply to a plugin or marketplace manifest on its fields. JSON
    /// is YAML, so the manifest is read as the frontmatters are, with each field's place;
    /// only when some rule applies to it.
    pub(crate) fn check_manifest(&self, text: &str, sink: &mut Sink) {
        if self.rules.is_empty() {
            return;
        }
        let path = sink.path;
        let mut rules = self.applying(Target::Manifest, path).peekable();
        if rules.peek().is_none() {
            return;
        }
        // A manifest that is not JSON is reported by its own rule.
        let Ok(root) = crate::parse::yaml::parse(text, 1) else {
            return;
        };
        for (rule, spec) in rules {
            check_fields(rule, spec, &root, sink);
        }
    }

    /// Run the policy rules that apply to an agent on its frontmatter and grants.
    pub(crate) fn check_agent(
        &self,
        agent: &crate::model::Agent,
        root: Option<&Node>,
        sink: &mut Sink,
    ) {
        if self.rules.is_empty() {
            return;
        }
        let Some(root) = root else { return };
        let path = sink.path;
        for (rule, spec) in self.applying(Target::Agent, path) {
            check_fields(rule, spec, root, sink);
            check_grants(rule, spec, agent, root, sink);
        }
    }
}

/// Drop the findings of policy rules limited to a plugin on files that plugin does not hold,
/// once the manifests are read: `plugins_of` gives the names of the plugins holding a file
/// (by its display path).
pub(crate) fn keep_in_plugins<'a>(
    findings: &mut Vec<crate::diagnostic::Finding>,
    policies: &Policies,
    plugins_of: impl Fn(&str) -> Vec<&'a str>,
) {
    let scoped = |r: Rule| match r {
        Rule::Policy(p) => p.spec().and_then(|s| s.plugin.as_deref()),
        _ => None,
    };
    if !policies.rules.iter().any(|r| scoped(*r).is_some()) {
        return;
    }
    findings.retain(|f| match scoped(f.rule) {
        Some(plugin) => plugins_of(&f.path).contains(&plugin),
        None => true,
    });
}

/// The node at a dotted path (`metadata.owner`), and the key node that names it.
fn field<'n>(root: &'n Node, path: &str) -> Option<(&'n Node, &'n Node)> {
    let mut at = root;
    let mut found = None;
    for part in path.split('.') {
        let (k, v) = at
            .as_map()?
            .iter()
            .find(|(k, _)| k.as_str() == Some(part))?;
        found = Some((k, v));
        at = v;
    }
    found
}

/// A value that states nothing: null, blank text, an empty list or mapping.
fn is_empty(v: &Node) -> bool {
    match &v.value {
        Value::Null => true,
        Value::Str(s) => s.trim().is_empty(),
        Value::Seq(items) => items.is_empty(),
        Value::Map(entries) => entries.is_empty(),
        _ => false,
    }
}

/// The scalar entries of a value: itself, or each entry of a list.
fn entries(value: &Node) -> Vec<(String, Pos)> {
    match &value.value {
        Value::Seq(items) => items
            .iter()
            .filter_map(|n| Some((n.scalar_text()?, n.pos)))
            .collect(),
        _ => value
            .scalar_text()
            .map(|t| vec![(t, value.pos)])
            .unwrap_or_default(),
    }
}

fn check_fields(rule: Rule, spec: &PolicySpec, root: &Node, sink: &mut Sink) {
    match &spec.check {
        Check::RequiredField { field: name } => {
            let present = field(root, name).is_some_and(|(_, v)| !is_empty(v));
            if !present {
                push(sink, rule, spec, root.pos, || {
                    let place = if sink.path.ends_with(".json") {
                        "the manifest"
                    } else {
                        "the frontmatter"
                    };
                    format!(
                        "{} is required by this library's policy; add it to {place}",
                        quote(name)
                    )
                });
            }
        }
        Check::ForbiddenField { field: name } => {
            if let Some((key, _)) = field(root, name) {
                push(sink, rule, spec, key.pos, || {
                    format!(
                        "{} is not allowed by this library's policy; remove it",
                        quote(name)
                    )
                });
            }
        }
        Check::FieldPattern {
            field: name,
            pattern,
        } => {
            let Some((_, value)) = field(root, name) else {
                return;
            };
            for (text, pos) in entries(value) {
                if !pattern.0.is_match(&text) {
                    push(sink, rule, spec, pos, || {
                        format!(
                            "{} is {}, which does not match {} as this library's policy requires; change it to match",
                            quote(name),
                            quote(&text),
                            quote(pattern.0.as_str())
                        )
                    });
                }
            }
        }
        Check::MaxLength { field: name, max } => {
            let Some((_, value)) = field(root, name) else {
                return;
            };
            for (text, pos) in entries(value) {
                let chars = text.chars().count();
                if chars > *max {
                    push(sink, rule, spec, pos, || {
                        format!(
                            "{} has {chars} characters, more than the {max} this library's policy allows; shorten it",
                            quote(name)
                        )
                    });
                }
            }
        }
        _ => {}
    }
}

/// Where `name` is written in the one-line comma-separated string at `pos`; `pos` itself
/// when it is not found there.
fn in_string(sink: &Sink, pos: Pos, name: &str) -> Pos {
    let Some(text) = sink.text() else { return pos };
    let Some(start) = crate::span::offset(text, pos) else {
        return pos;
    };
    let rest = &text[start..];
    let line = &rest[..rest.find('\n').unwrap_or(rest.len())];
    let mut at = 0;
    for part in line.split(',') {
        let lead = part.len() - part.trim_start().len();
        if part.trim().trim_matches(['\'', '"']) == name {
            let quote = usize::from(part.trim_start().starts_with(['\'', '"']));
            return crate::span::pos_of(text, start + at + lead + quote);
        }
        at += part.len() + 1;
    }
    pos
}

/// Does a `tools` value hold `*`, which grants every tool?
fn grants_all(tools: &Node) -> bool {
    match tools.as_str() {
        Some(s) => s.split(',').any(|t| t.trim() == "*"),
        None => entries(tools).iter().any(|(t, _)| t.trim() == "*"),
    }
}

/// The tool's name without a permission pattern: `Bash` of `Bash(git:*)`.
fn tool_name(t: &str) -> &str {
    t.split('(').next().unwrap_or(t).trim()
}

/// The MCP server whose tool, or every tool, a `tools` entry grants, in each spelling a host
/// reads: `jira/search` and `jira/*` (VS Code, GitHub Copilot), `mcp__jira__search` (Claude
/// Code), `jira:search`. `None` for a tool of a built-in host's own namespace (VS Code's
/// `edit/editFiles`, `web/fetch`, the legacy `runCommands/runInTerminal`) and for an
/// extension's (`publisher.extension/tool`): neither is a server.
fn server_of_tool(t: &str) -> Option<String> {
    let canonical = names::canonical(names::tool_of(t));
    let (server, _) = canonical.split_once('/')?;
    let not_a_server = server.is_empty()
        || names::looks_like_extension(server)
        || host_namespaces().iter().any(|n| n == server);
    (!not_a_server).then(|| server.to_owned())
}

/// The first parts of the built-in hosts' own `set/tool` names: their tool sets (VS Code's
/// `read`, `edit`, `execute`, `web`, ...) and those of their legacy names (`runCommands`).
/// Compared exactly, as the built-in VS Code profile matches its tool names.
fn host_namespaces() -> &'static [String] {
    static CELL: OnceLock<Vec<String>> = OnceLock::new();
    CELL.get_or_init(|| {
        let mut out: Vec<String> = Vec::new();
        for v in builtin::hosts()
            .iter()
            .filter_map(|h| h.vocabulary.as_ref())
        {
            out.extend(v.toolsets.keys().cloned());
            out.extend(
                (v.renamed.keys())
                    .filter_map(|k| k.split_once('/'))
                    .map(|(set, _)| set.to_owned()),
            );
        }
        out.sort();
        out.dedup();
        out
    })
}

/// How a host reads a tool name that is not one of its own.
enum How<'v> {
    /// One of its aliases (GitHub Copilot's `bash` for `execute`).
    Alias,
    /// A legacy name, read as the names that replaced it (VS Code's `codebase`).
    Legacy,
    /// Another host's name, by its table of that host's names (VS Code's of Claude Code's
    /// `Bash`): that host's title and the name as the table writes it.
    Mapped(&'v str, &'v str),
}

/// The host's own names that the host of `v` reads `name` as, and how; `None` when it reads
/// it as it is. Names are matched without case, as the policy compares tool names.
fn reading<'v>(v: &'v Vocabulary, name: &str) -> Option<(&'v [String], How<'v>)> {
    let lower = name.to_lowercase();
    if let Some((_, target)) = v.aliases.iter().find(|(alias, _)| **alias == lower) {
        return Some((std::slice::from_ref(target), How::Alias));
    }
    if let Some((_, new)) = v
        .renamed
        .iter()
        .find(|(old, _)| old.eq_ignore_ascii_case(name))
    {
        return Some((new, How::Legacy));
    }
    for (third, map) in &v.maps {
        if let Some((theirs, targets)) = map.iter().find(|(t, _)| t.eq_ignore_ascii_case(name)) {
            let third = (builtin::hosts().iter())
                .find(|h| h.host() == Some(third.as_str()))
                .and_then(|h| h.host_title())
                .unwrap_or(third);
            return Some((targets, How::Mapped(third, theirs)));
        }
    }
    None
}

/// Why the host `title` reads `name` as `own`.
fn clause(title: &str, name: &str, own: &[String], how: &How<'_>) -> String {
    let own: Vec<String> = own.iter().map(|t| quote(t)).collect();
    let own: Vec<&str> = own.iter().map(String::as_str).collect();
    let own = crate::words::and_list(&own);
    match how {
        How::Alias => format!("{} is {title}'s alias of {own}", quote(name)),
        How::Legacy => format!("{} is {title}'s old name of {own}", quote(name)),
        How::Mapped(third, theirs) => {
            format!("{title} maps {third}'s {} to {own}", quote(theirs))
        }
    }
}

/// Why the tool `granted` grants what the forbidden tool `forbidden` names (bare names, not
/// equal without case) on a built-in host that loads agents of `flavor`: the host reads the
/// two, by its aliases, legacy names or table of another host's names, as names with one in
/// common (GitHub Copilot reads `shell` and `Bash` as `execute`; VS Code reads Claude Code's
/// `Bash` as `execute`). Names are compared as the tables write them, not by the tools of
/// a set they name: that `Bash` is VS Code's whole `execute` set does not make it
/// `execute/runTests`. `None` when no such host relates them.
fn same_tool(flavor: &str, granted: &str, forbidden: &str) -> Option<String> {
    let own = |name: &str| [name.to_owned()];
    for host in builtin::loading(flavor) {
        let Some(v) = &host.vocabulary else { continue };
        let title = host.host_title().unwrap_or(&v.host);
        let (g, f) = (reading(v, granted), reading(v, forbidden));
        let (g_own, f_own) = (own(granted), own(forbidden));
        let g_names = g.as_ref().map_or(&g_own[..], |(n, _)| n);
        let f_names = f.as_ref().map_or(&f_own[..], |(n, _)| n);
        let common = g_names
            .iter()
            .any(|a| f_names.iter().any(|b| a.eq_ignore_ascii_case(b)));
        if !common {
            continue;
        }
        return Some(match (&g, &f) {
            (Some((a, How::Alias)), Some((_, How::Alias))) => format!(
                "{} and {} are {title}'s aliases of {}",
                quote(granted),
                quote(forbidden),
                crate::diagnostic::quoted(a)
            ),
            _ => [
                g.map(|(n, how)| clause(title, granted, n, &how)),
                f.map(|(n, how)| clause(title, forbidden, n, &how)),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", and "),
        });
    }
    None
}

fn check_grants(
    rule: Rule,
    spec: &PolicySpec,
    agent: &crate::model::Agent,
    root: &Node,
    sink: &mut Sink,
) {
    let tools_key = root.get("tools");
    // A comma-separated string gives each name the string's place: find the name in it.
    let one_string = tools_key.is_some_and(|n| n.as_str().is_some());
    let listed: Vec<(&str, Pos)> = match &agent.tools {
        Some(tools) => tools
            .iter()
            .zip(agent.tool_positions.iter().copied())
            .map(|(t, p)| {
                (
                    t.as_str(),
                    if one_string { in_string(sink, p, t) } else { p },
                )
            })
            .collect(),
        None => Vec::new(),
    };
    match &spec.check {
        Check::ForbiddenTools { tools } => {
            // A tool, or a tool of a tool set or MCP server the policy names (`edit` forbids
            // VS Code's `edit/editFiles`, `jira` every `jira/...` tool), in any spelling of an
            // MCP tool (`mcp__jira__search`, `jira:search`).
            let named = |t: &str, f: &str| {
                let name = names::canonical(names::tool_of(t));
                // As written: a forbidden `Bash(rm:*)` does not forbid every `Bash`.
                let f = names::canonical(f);
                // `jira/*` names the server as `jira` does.
                let set = f.strip_suffix("/*").unwrap_or(&f);
                name.eq_ignore_ascii_case(&f)
                    || name
                        .get(..set.len())
                        .is_some_and(|p| p.eq_ignore_ascii_case(set))
                        && name[set.len()..].starts_with('/')
            };
            if agent.tools.is_none() {
                // No list, or `*`, grants every tool, the forbidden ones too. A list written in
                // a shape no host reads is reported by its own rule.
                let why = match tools_key {
                    None => "has no `tools` list, so it",
                    Some(n) if grants_all(n) => "lists `*` in `tools`, so it",
                    Some(_) => return,
                };
                let pos = tools_key.map_or(root.pos, |n| n.pos);
                push(sink, rule, spec, pos, || {
                    format!(
                        "the agent {why} is granted every tool, {} too, which this library's policy forbids; list the tools it needs in `tools`",
                        crate::diagnostic::quoted(tools)
                    )
                });
                return;
            }
            for (t, pos) in &listed {
                if tools.iter().any(|f| named(t, f)) {
                    push(sink, rule, spec, *pos, || {
                        format!(
                            "the agent is granted {}, which this library's policy forbids; remove it from `tools`",
                            quote(t)
                        )
                    });
                    continue;
                }
                // Another name a host that loads the agent takes for a forbidden tool.
                let bare = names::tool_of(t);
                let same = tools.iter().find_map(|f| {
                    let why = same_tool(&agent.flavor, bare, names::trim(f))?;
                    Some((f, why))
                });
                if let Some((f, why)) = same {
                    push(sink, rule, spec, *pos, || {
                        format!(
                            "the agent is granted {}, which this library's policy forbids as {} ({why}); remove it from `tools`",
                            quote(t),
                            quote(f)
                        )
                    });
                }
            }
        }
        Check::RequiredTools { tools } => {
            // Without a list the agent has every tool: nothing is missing.
            if agent.tools.is_none() {
                return;
            }
            let missing: Vec<&String> = tools
                .iter()
                .filter(|r| {
                    !listed
                        .iter()
                        .any(|(t, _)| r.eq_ignore_ascii_case(tool_name(t)))
                })
                .collect();
            if !missing.is_empty() {
                let pos = tools_key.map_or(root.pos, |n| n.pos);
                push(sink, rule, spec, pos, || {
                    format!(
                        "the agent's `tools` lacks {}, which this library's policy requires; add {}",
                        crate::diagnostic::quoted(&missing),
                        if missing.len() == 1 { "it" } else { "them" }
                    )
                });
            }
        }
        Check::AllowedServers { servers } => {
            let allowed = |s: &str| servers.iter().any(|a| a == s);
            let mut granted: Vec<(String, Pos)> = Vec::new();
            for key in ["mcp-servers", "mcpServers"] {
                let Some(node) = root.get(key) else { continue };
                match &node.value {
                    Value::Map(m) => granted.extend(
                        m.iter()
                            .filter_map(|(k, _)| Some((k.scalar_text()?, k.pos))),
                    ),
                    _ => granted.extend(entries(node)),
                }
            }
            granted.extend(
                listed
                    .iter()
                    .filter_map(|(t, p)| Some((server_of_tool(t)?, *p))),
            );
            for (server, pos) in granted.iter().filter(|(s, _)| !allowed(s)) {
                push(sink, rule, spec, *pos, || {
                    format!(
                        "the agent is granted the MCP server {}, which is not among those this library's policy allows ({}); remove it or ask for it to be allowed",
                        quote(server),
                        crate::diagnostic::quoted(servers)
                    )
                });
            }
        }
        _ => {}
    }
}

/// A finding of `rule`: the settings file's message when it gives one, else `generated`.
fn push(
    sink: &mut Sink,
    rule: Rule,
    spec: &PolicySpec,
    pos: Pos,
    generated: impl FnOnce() -> String,
) {
    let message = match &spec.message {
        Some(m) => m.clone(),
        None => generated(),
    };
    sink.push(rule, pos, message);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::AgentFlavor;

    #[test]
    fn policy_selectors_are_p_and_up_to_three_digits() {
        for yes in ["P", "p", "P0", "P01", "P001", "p999"] {
            assert!(is_policy_selector(yes), "{yes}");
        }
        for no in ["", "P0001", "PX", "P01a", "SA2", "policy"] {
            assert!(!is_policy_selector(no), "{no}");
        }
    }

    /// The policy rules of a settings file's text.
    fn policies(toml: &str) -> Policies {
        let c = crate::config::file::parse(toml, "skill-audit.toml", Default::default())
            .unwrap_or_else(|e| panic!("{e}"));
        Policies {
            rules: c.policies,
            dir: String::new(),
        }
    }

    /// (code, line, column, message) of the policy findings on a skill at `path`.
    fn on_skill(p: &Policies, path: &str, frontmatter: &str) -> Vec<(String, u32, u32, String)> {
        let root = crate::parse::yaml::parse(frontmatter, 2).unwrap();
        let mut sink = Sink::new(path);
        p.check_skill(Some(&root), &mut sink);
        sink.findings
            .into_iter()
            .map(|f| (f.rule.code().to_owned(), f.line, f.column, f.message))
            .collect()
    }

    fn on_agent(p: &Policies, path: &str, text: &str) -> Vec<(String, u32, u32, String)> {
        on_agent_of(AgentFlavor::Custom, p, path, text)
    }

    fn on_agent_of(
        flavor: AgentFlavor,
        p: &Policies,
        path: &str,
        text: &str,
    ) -> Vec<(String, u32, u32, String)> {
        let mut sink = Sink::new(path);
        sink.source = text.as_bytes();
        let parsed = crate::parse::agent::parse(
            text.as_bytes(),
            path,
            std::path::Path::new(path),
            flavor,
            &mut Sink::new(path),
        )
        .unwrap();
        p.check_agent(&parsed.agent, parsed.root.as_ref(), &mut sink);
        sink.findings
            .into_iter()
            .map(|f| (f.rule.code().to_owned(), f.line, f.column, f.message))
            .collect()
    }

    const FIELDS: &str = r#"
[[policy]]
id = "P001"
name = "skill-license"
applies-to = "skill"
check = "required-field"
field = "license"
message = "add a licence"

[[policy]]
id = "P002"
name = "no-model"
applies-to = "skill"
check = "forbidden-field"
field = "model"

[[policy]]
id = "P003"
name = "team"
applies-to = "skill"
paths = ["skills/acme-*/**"]
check = "field-pattern"
field = "metadata.team"
pattern = "^(platform|data)$"

[[policy]]
id = "P004"
name = "short"
applies-to = "skill"
check = "max-length"
field = "description"
max-length = 10
"#;

    #[test]
    fn field_checks_point_at_the_field_or_the_frontmatter() {
        let p = policies(FIELDS);
        let found = on_skill(
            &p,
            "skills/acme-x/SKILL.md",
            "name: acme-x\ndescription: Does x, at length.\nmodel: opus\nmetadata:\n  team: sales\n",
        );
        let codes: Vec<(&str, u32, u32)> = found
            .iter()
            .map(|(c, l, col, _)| (c.as_str(), *l, *col))
            .collect();
        assert_eq!(
            codes,
            [
                ("P001", 2, 1),
                ("P002", 4, 1),
                ("P003", 6, 9),
                ("P004", 3, 14)
            ]
        );
        assert_eq!(found[0].3, "add a licence", "the settings file's message");
        assert!(found[2].3.contains("`sales`"), "{}", found[2].3);
        assert!(found[3].3.contains("18 characters"), "{}", found[3].3);
    }

    #[test]
    fn paths_select_files_relative_to_the_settings_folder() {
        let mut p = policies(FIELDS);
        let clean = "name: x\ndescription: Short.\nlicense: MIT\nmetadata:\n  team: sales\n";
        assert!(on_skill(&p, "skills/other/SKILL.md", clean).is_empty());
        assert_eq!(on_skill(&p, "skills/acme-x/SKILL.md", clean).len(), 1);
        p.dir = "lib".into();
        assert_eq!(on_skill(&p, "lib/skills/acme-x/SKILL.md", clean).len(), 1);
        assert!(on_skill(&p, "library/skills/acme-x/SKILL.md", clean).is_empty());
        // An empty value is no value; a list is checked entry by entry.
        for license in ["license:", "license: ''", "license: []"] {
            let found = on_skill(
                &p,
                "skills/b/SKILL.md",
                &format!("name: x\ndescription: S.\n{license}\n"),
            );
            assert_eq!(found.len(), 1, "{license}");
        }
        let listed = "name: x\ndescription: [Short., Far too long.]\nlicense:\n";
        let found = on_skill(&p, "skills/b/SKILL.md", listed);
        let codes: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(codes, ["P001", "P004"]);
    }

    const GRANTS: &str = r#"
[[policy]]
id = "P010"
name = "no-bash"
applies-to = "agent"
check = "forbidden-tools"
tools = ["bash"]

[[policy]]
id = "P011"
name = "reads"
applies-to = "agent"
check = "required-tools"
tools = ["Read", "Grep"]

[[policy]]
id = "P012"
name = "servers"
applies-to = "agent"
check = "allowed-servers"
servers = ["github"]
"#;

    #[test]
    fn grant_checks_point_at_the_tool_or_server() {
        let p = policies(GRANTS);
        let text = "---\ndescription: d\ntools: Read, Bash(git:*), mcp__jira__find\nmcp-servers: [github, kusto]\n---\n";
        let found = on_agent(&p, "a.agent.md", text);
        let codes: Vec<(&str, u32, u32)> = found
            .iter()
            .map(|(c, l, col, _)| (c.as_str(), *l, *col))
            .collect();
        assert_eq!(
            codes,
            [
                ("P010", 3, 14),
                ("P011", 3, 8),
                ("P012", 4, 23),
                ("P012", 3, 27),
            ]
        );
        assert!(found[1].3.contains("`Grep`"), "{}", found[1].3);
        assert!(found[2].3.contains("`kusto`"), "{}", found[2].3);
        assert!(found[3].3.contains("`jira`"), "{}", found[3].3);
    }

    /// The names, as written, of the tools of an agent of `flavor` that the policy `toml`
    /// reports, with each message.
    fn reported(flavor: AgentFlavor, toml: &str, tools: &str) -> Vec<(String, String)> {
        let p = policies(toml);
        let text = format!("---\ndescription: d\ntools: [{tools}]\n---\n");
        let line = text.lines().nth(2).unwrap();
        on_agent_of(flavor, &p, "a.agent.md", &text)
            .into_iter()
            .map(|(_, l, col, message)| {
                assert_eq!(l, 3, "{message}");
                let written = line[col as usize - 1..].split([',', ']']).next().unwrap();
                (written.trim().trim_matches('\'').to_owned(), message)
            })
            .collect()
    }

    fn forbidding(tools: &str) -> String {
        format!(
            "[[policy]]\nid = \"P001\"\nname = \"no\"\napplies-to = \"agent\"\ncheck = \"forbidden-tools\"\ntools = [{tools}]\n"
        )
    }

    fn names(found: &[(String, String)]) -> Vec<&str> {
        found.iter().map(|(n, _)| n.as_str()).collect()
    }

    #[test]
    fn allowed_servers_read_every_spelling_of_a_servers_tools() {
        let toml = "[[policy]]\nid = \"P001\"\nname = \"servers\"\napplies-to = \"agent\"\ncheck = \"allowed-servers\"\nservers = [\"github\"]\n";
        let tools = "'jira/*', 'jira/search', 'jira:search', mcp__jira__find, 'github/*', github/get_issue, 'github:get_issue', mcp__github__x, microsoft.docs.mcp/search, edit/editFiles, search/codebase, web/fetch, execute, read, runCommands/runInTerminal, ms-python.python/run, 'Bash(git:*)'";
        let found = reported(AgentFlavor::Custom, toml, tools);
        assert_eq!(
            names(&found),
            [
                "jira/*",
                "jira/search",
                "jira:search",
                "mcp__jira__find",
                "microsoft.docs.mcp/search"
            ]
        );
        assert!(
            found[1].1.contains("the MCP server `jira`"),
            "{}",
            found[1].1
        );
        assert!(
            found[4].1.contains("`microsoft.docs.mcp`"),
            "{}",
            found[4].1
        );
    }

    #[test]
    fn a_forbidden_tool_is_forbidden_in_the_names_a_host_takes_for_it() {
        // GitHub Copilot, which loads `.agent.md` files, takes these for its `execute`.
        let found = reported(
            AgentFlavor::Custom,
            &forbidding("\"Bash\""),
            "execute, shell, PowerShell, 'Bash(git:*)', read, execute/runInTerminal, runInTerminal, WebFetch",
        );
        assert_eq!(
            names(&found),
            ["execute", "shell", "PowerShell", "Bash(git:*)"]
        );
        assert_eq!(
            found[0].1,
            "the agent is granted `execute`, which this library's policy forbids as `Bash` (`Bash` is GitHub Copilot's alias of `execute`); remove it from `tools`"
        );
        assert!(
            found[1]
                .1
                .contains("(`shell` and `Bash` are GitHub Copilot's aliases of `execute`)"),
            "{}",
            found[1].1
        );
        // And the other way round.
        let found = reported(
            AgentFlavor::Custom,
            &forbidding("\"execute\""),
            "bash, Grep, execute/runTests",
        );
        assert_eq!(names(&found), ["bash", "execute/runTests"]);
        // That VS Code maps `Bash` to its whole `execute` set does not make each tool of the
        // set `Bash`.
        let found = reported(
            AgentFlavor::Claude,
            &forbidding("\"Bash\""),
            "execute/runTests, execute/runInTerminal, runInTerminal",
        );
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn only_hosts_that_load_the_agent_relate_its_names() {
        // A Claude-format agent: GitHub Copilot does not load it, VS Code does, and maps
        // Claude Code's `Bash` to its `execute`.
        let found = reported(
            AgentFlavor::Claude,
            &forbidding("\"Bash\""),
            "execute, shell, PowerShell",
        );
        assert_eq!(names(&found), ["execute", "shell"]);
        assert!(
            found[0]
                .1
                .contains("(VS Code maps Claude Code's `Bash` to `execute`)"),
            "{}",
            found[0].1
        );
        assert!(
            found[1]
                .1
                .contains("`shell` is VS Code's old name of `execute`, and VS Code maps"),
            "{}",
            found[1].1
        );
        let found = reported(
            AgentFlavor::Claude,
            &forbidding("\"execute\""),
            "Bash, Read",
        );
        assert_eq!(names(&found), ["Bash"]);
        // Two names VS Code maps to one tool grant the same there.
        let found = reported(
            AgentFlavor::Claude,
            &forbidding("\"WebFetch\""),
            "WebSearch, web, Read",
        );
        assert_eq!(names(&found), ["WebSearch", "web"]);
        assert!(
            found[0].1.contains("(VS Code maps Claude Code's `WebSearch` to `web`, and VS Code maps Claude Code's `WebFetch` to `web`)"),
            "{}",
            found[0].1
        );
        // Claude Code's `MultiEdit` is not `Write`, and VS Code's table has no `MultiEdit`.
        let found = reported(AgentFlavor::Claude, &forbidding("\"Write\""), "MultiEdit");
        assert!(found.is_empty(), "{found:?}");
        // Where GitHub Copilot loads the agent, its aliases put both on `edit`.
        let found = reported(AgentFlavor::Custom, &forbidding("\"Write\""), "MultiEdit");
        assert_eq!(names(&found), ["MultiEdit"]);
    }

    #[test]
    fn legacy_names_and_server_spellings_are_the_tools_they_name() {
        let found = reported(
            AgentFlavor::Custom,
            &forbidding("\"editFiles\", \"jira/*\""),
            "edit/editFiles, edit/createFile, mcp__jira__find, 'jira:search', jiraish/x",
        );
        assert_eq!(
            names(&found),
            ["edit/editFiles", "mcp__jira__find", "jira:search"]
        );
        assert!(
            found[0]
                .1
                .contains("(`editFiles` is VS Code's old name of `edit/editFiles`)"),
            "{}",
            found[0].1
        );
        // A forbidden permission pattern is that pattern, not every use of its tool.
        let found = reported(
            AgentFlavor::Custom,
            &forbidding("\"Bash(rm:*)\""),
            "'Bash(git:*)', execute",
        );
        assert!(found.is_empty(), "{found:?}");
    }

    #[test]
    fn an_agent_without_tools_is_granted_every_tool() {
        let p = policies(GRANTS);
        let found = on_agent(&p, "a.agent.md", "---\ndescription: d\n---\n");
        // Forbidden tools are granted; required ones are not missing.
        let codes: Vec<&str> = found.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(codes, ["P010"]);
        assert!(found[0].3.contains("has no `tools` list"), "{}", found[0].3);
        let found = on_agent(&p, "a.agent.md", "---\ndescription: d\ntools: ['*']\n---\n");
        assert_eq!(found.len(), 1);
        assert!(found[0].3.contains("lists `*`"), "{}", found[0].3);
        assert_eq!((found[0].1, found[0].2), (3, 8));
    }

    #[test]
    fn ids_compare_by_code_and_saved_reports_keep_them() {
        let p = policies(FIELDS);
        let saved = known_only_by_id("p001");
        assert_eq!(saved, p.rules[0]);
        assert_eq!(saved.code(), "P001");
        assert!(!saved.is_builtin());
        assert!(is_policy_id("P999") && is_policy_id("p010"));
        for not in ["P000", "P01", "P0001", "SA201", "Pabc", "é01"] {
            assert!(!is_policy_id(not), "{not}");
        }
        // Reading the same file again finds the same definitions.
        let again = policies(FIELDS);
        assert!(std::ptr::eq(p.rules[0].doc(), again.rules[0].doc()));
    }
}
