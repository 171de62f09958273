//! The JSON file format of a profile (see `schemas/profile.schema.json`):
//! - native: `{"name", "tools", "resources", "prompts", "servers": {"github": {"tools": [...]}}}`,
//!   where a server's tools are available as `server/tool`;
//! - a saved MCP `tools/list` result `{"tools": [{"name": ...}]}`, bare or inside a JSON-RPC
//!   envelope `{"jsonrpc": "2.0", "id": 1, "result": {...}}`.
//!
//! Entries are names or objects with `name` (tools, prompts) or `uri` (resources). They are
//! read by hand-written visitors straight into names: a large capture's input schemas are
//! skipped, never buffered.

use schemars::JsonSchema;
use serde::de::IgnoredAny;
use serde::{Deserialize, de};
use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use super::Profile;
use crate::model::DepKind;

/// A profile that cannot be used: the run stops with exit code 2.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {message}", crate::diagnostic::location(path, *line, *column))]
pub struct ProfileError {
    pub path: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

/// The JSON shape of a profile file.
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[schemars(title = "skill-audit environment profile")]
#[serde(deny_unknown_fields)]
pub struct ProfileFile {
    /// The JSON Schema the file follows, for editors; not read.
    #[serde(rename = "$schema")]
    pub json_schema: Option<String>,
    /// A saved `tools/list` result's paging cursor and metadata, and a JSON-RPC envelope's
    /// id: not read, but not a misspelt key either.
    #[serde(rename = "nextCursor")]
    #[schemars(skip)]
    pub next_cursor: Option<IgnoredAny>,
    #[serde(rename = "_meta")]
    #[schemars(skip)]
    pub meta: Option<IgnoredAny>,
    #[schemars(skip)]
    pub id: Option<IgnoredAny>,
    /// The profile's name (a matrix column); defaults to the file stem.
    pub name: Option<String>,
    /// Free-text description of the environment.
    pub description: Option<String>,
    /// Tools available without a server prefix. Names may be globs (`*`).
    #[serde(default)]
    #[schemars(with = "Vec<Entry>")]
    pub tools: Keys<false>,
    /// Resource URIs available.
    #[serde(default)]
    #[schemars(with = "Vec<Entry>")]
    pub resources: Keys<true>,
    /// Prompt names available.
    #[serde(default)]
    #[schemars(with = "Vec<Entry>")]
    pub prompts: Keys<false>,
    /// MCP servers by name; their tools are available as `server/tool`.
    #[serde(default)]
    pub servers: BTreeMap<String, ServerEntry>,
    /// Profiles this one is built on (`builtin:NAME` or a path relative to this file); the
    /// environment has everything each of them has.
    #[serde(default)]
    pub extends: Vec<String>,
    /// Names or globs removed after composition, here and in every profile that extends this
    /// one. A list: `server/tool`, `server/*`, or a tool name (`dispute_*`) on any server;
    /// resource URIs and prompt names as written. An object names the kind of each entry:
    /// `{"tools": [...], "bins": [...], "env": [...], ...}`.
    #[serde(default)]
    pub deny: Deny,
    /// Machines: the operating systems the environment runs on, a list or one name:
    /// `darwin`, `linux`, `win32` (`macos` and `windows` are read as `darwin` and `win32`).
    /// Absent here and in every profile this one extends: OS requirements are not judged.
    #[serde(default)]
    #[schemars(schema_with = "os_schema")]
    pub os: Option<Names>,
    /// Machines: executables on `PATH`, by name. Absent: executables are not judged.
    #[schemars(with = "Option<Vec<String>>")]
    pub bins: Option<Vec<String>>,
    /// Machines: names of the environment variables that are set. Names only: a profile never
    /// holds a value, and `NAME=value` is an error. Absent: variables are not judged.
    #[schemars(with = "Option<Vec<String>>")]
    pub env: Option<Vec<String>>,
    /// Machines: OpenClaw configuration keys that are truthy, as dotted paths
    /// (`browser.enabled`). Absent: configuration is not judged.
    #[schemars(with = "Option<Vec<String>>")]
    pub config: Option<Vec<String>>,
    /// Machines: installed Python distributions, name to version (`{"requests": "2.32.3"}`).
    /// Names are compared as PEP 503 normalises them (`Foo_Bar` is `foo-bar`). Absent:
    /// packages are not judged.
    #[schemars(with = "Option<BTreeMap<String, String>>")]
    pub packages: Option<BTreeMap<String, String>>,
    /// JSON-RPC envelope of a saved `tools/list` response.
    pub result: Option<Box<ProfileFile>>,
    /// JSON-RPC version marker of an envelope.
    pub jsonrpc: Option<String>,
    /// A JSON-RPC error response cannot be used as a profile.
    pub error: Option<serde_json::Value>,
    /// The host the environment runs on (a built-in profile's name: `vscode`,
    /// `github-copilot`, `claude-code`, ...): its tools, tool sets, aliases, renamed names and
    /// models become part of the profile. A built-in profile names its own host here.
    pub host: Option<String>,
    /// Tool set name to member tools. In a host profile, the host's tool sets; the tool sets
    /// a profile file declares itself are also the machine's (Hermes' `requires_toolsets`).
    #[schemars(with = "Option<BTreeMap<String, Vec<String>>>")]
    pub toolsets: Option<BTreeMap<String, Vec<String>>>,
    /// Host profiles: legacy tool name to the names replacing it.
    #[serde(default)]
    pub renamed: BTreeMap<String, Vec<String>>,
    /// Host profiles: names the host knows but drops from a tools list (a tool hidden from
    /// prompts, one it reports as unknown): missing, never taken for an extension's tool.
    #[serde(default)]
    pub drops: Vec<String>,
    /// Host profiles: case-insensitive alias to tool name.
    #[serde(default)]
    pub aliases: BTreeMap<String, String>,
    /// Host profiles: whether an agent names an MCP server's tool only as `server/tool` (or
    /// `server/*`), so that a bare name is the host's own or one it does not know, never a
    /// server's (GitHub Copilot).
    #[serde(default, rename = "qualified-server-tools")]
    pub qualified_server_tools: bool,
    /// Host profiles: the agent formats the host loads (`custom` for `.agent.md` and
    /// `.github/agents/*.md`, `chatmode`, `claude` for Claude-format agents).
    #[serde(default)]
    pub loads: Vec<String>,
    /// Host profiles: tool names of another host's agent format mapped to this host's tools,
    /// by that host (`{"claude-code": {"Read": ["read/readFile"]}}`).
    #[serde(default)]
    pub maps: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    /// Host profiles: the model names the host accepts in `model:`.
    #[serde(default)]
    pub models: Vec<String>,
    /// Host profiles: the hook event names the host runs from `hooks` in skill and agent
    /// frontmatter, spelt as it matches them (exactly). A host without them runs no hooks from
    /// there and does not judge them.
    #[serde(default, rename = "hook-events")]
    pub hook_events: Vec<String>,
    /// Host profiles: the host's name as people write it ("Codex"), for messages.
    pub title: Option<String>,
    /// Host profiles: the rules by which the host loads a SKILL.md at all, each with where it
    /// is documented. A rule that is absent is not judged.
    pub skills: Option<super::loading::SkillLoading>,
    /// Host profiles: what the profile does not describe, and so does not judge: `tools` (the
    /// host's own tool names are not documented: a skill's tool needs and an agent's tools are
    /// `not-judged` there), `agents` (which agent files the host loads is not documented).
    #[serde(default, rename = "not-judged")]
    pub not_judged: Vec<super::Undescribed>,
    /// Host profiles whose other tool names are not judged: the host's documented tool that
    /// runs shell commands. A skill's need for a terminal (Claude Code's `Bash`, and what the
    /// commands it runs need) is judged by it.
    pub terminal: Option<Terminal>,
    /// Host profiles: the documentation the lists were taken from.
    pub source: Option<String>,
    /// Host profiles: when the lists were last checked against that documentation (YYYY-MM-DD).
    pub checked: Option<String>,
    /// Host profiles: when the model list was last checked, where that is earlier than
    /// `checked` (a later reading checked other lists).
    #[serde(rename = "models-checked")]
    pub models_checked: Option<String>,
    /// Captured profiles (`skill-audit capture`): the MCP server the lists were read from.
    pub server: Option<CapturedServer>,
    /// Captured profiles: the MCP protocol version of the session.
    pub protocol_version: Option<String>,
    /// Captured profiles: when the lists were read (RFC 3339, UTC).
    pub captured_at: Option<String>,
    /// Captured profiles: the URI templates of `resources/templates/list` (RFC 6570), kept
    /// for reference; resource dependencies are matched against `resources` only.
    #[serde(default)]
    pub resource_templates: Vec<Entry>,
}

/// A host's tool that runs shell commands, and where that is documented.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Terminal {
    /// The tool's name in the host (`run_shell_command`).
    pub tool: String,
    /// Where it is documented.
    pub source: String,
}

/// The names of a key that takes a list of names or one name (`os`).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Names(pub Vec<String>);

impl<'de> Deserialize<'de> for Names {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Names, D::Error> {
        struct NamesVisitor;
        impl<'de> de::Visitor<'de> for NamesVisitor {
            type Value = Names;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a name or a list of names")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Names, E> {
                Ok(Names(vec![v.to_owned()]))
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Names, A::Error> {
                let mut names = Vec::new();
                while let Some(n) = seq.next_element::<String>()? {
                    names.push(n);
                }
                Ok(Names(names))
            }
        }
        deserializer.deserialize_any(NamesVisitor)
    }
}

/// `os`: one of the names OpenClaw uses, or a list of them (the aliases are accepted too).
fn os_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let name = schemars::json_schema!({
        "type": "string",
        "enum": super::machine::OS_NAMES,
    });
    schemars::json_schema!({
        "anyOf": [name, {"type": "array", "items": name}],
    })
}

/// `deny`: a list of tool names, resource URIs and prompt names, or an object naming the
/// kind of each entry.
// `Deserialize` is written by hand so that a wrong shape says what `deny` takes (serde's
// `untagged` would only say that no variant matched).
#[derive(Debug, Clone, JsonSchema)]
#[schemars(untagged)]
pub enum Deny {
    /// Tools (`server/tool`, `server/*`, or a tool name on any server), resource URIs and
    /// prompt names, in one list.
    List(Vec<String>),
    Kinds(DenyKinds),
}

impl Default for Deny {
    fn default() -> Deny {
        Deny::List(Vec::new())
    }
}

/// `deny` by kind: each list holds names or globs of that kind only.
#[derive(Debug, Default, Clone, Deserialize, JsonSchema)]
#[serde(default, deny_unknown_fields)]
pub struct DenyKinds {
    /// `server/tool`, `server/*`, or a tool name (`dispute_*`) on any server.
    pub tools: Vec<String>,
    /// Resource URIs, as written.
    pub resources: Vec<String>,
    /// Prompt names, as written.
    pub prompts: Vec<String>,
    /// Executables.
    pub bins: Vec<String>,
    /// Environment variable names.
    pub env: Vec<String>,
    /// Operating systems (`darwin`, `linux`, `win32`).
    pub os: Vec<String>,
    /// OpenClaw configuration keys.
    pub config: Vec<String>,
    /// Python distribution names (PEP 503 normalised before matching).
    pub packages: Vec<String>,
    /// Tool sets the profile files declare.
    pub toolsets: Vec<String>,
}

impl<'de> Deserialize<'de> for Deny {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Deny, D::Error> {
        struct DenyVisitor;
        impl<'de> de::Visitor<'de> for DenyVisitor {
            type Value = Deny;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of names, or an object of lists by kind (`tools`, `bins`, ...)")
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Deny, A::Error> {
                let mut names = Vec::new();
                while let Some(n) = seq.next_element::<String>()? {
                    names.push(n);
                }
                Ok(Deny::List(names))
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<Deny, A::Error> {
                DenyKinds::deserialize(de::value::MapAccessDeserializer::new(map)).map(Deny::Kinds)
            }
        }
        deserializer.deserialize_any(DenyVisitor)
    }
}

/// The MCP server a captured profile was read from, as its `serverInfo` named it.
#[derive(Debug, Default, Clone, Deserialize, serde::Serialize, JsonSchema)]
pub struct CapturedServer {
    /// `serverInfo.name`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `serverInfo.version`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
}

/// One tool, resource or prompt: a name, or an object as MCP lists it.
// `Deserialize` is written by hand below; the `schemars` attributes give the schema the shape
// serde's `untagged` would (doc comments here would become schema descriptions).
#[derive(Debug, Clone, JsonSchema)]
#[schemars(untagged)]
pub enum Entry {
    Name(String),
    Object {
        /// Tool or prompt name.
        name: Option<String>,
        /// Resource URI.
        uri: Option<String>,
        /// Resource template URI.
        #[schemars(rename = "uriTemplate")]
        uri_template: Option<String>,
    },
}

impl Entry {
    /// The name this entry gives a tool, resource or prompt, if any.
    fn into_key(self, kind: DepKind) -> Option<String> {
        match self {
            Entry::Name(n) => Some(n),
            Entry::Object {
                name,
                uri,
                uri_template,
            } => match kind {
                DepKind::Resources => uri.or(uri_template).or(name),
                _ => name,
            },
        }
    }
}

/// The error for an entry of any other shape, or with a key that is not a string or null, or
/// repeated.
const ENTRY_EXPECTED: &str = "expected a name or an object with `name` or `uri`";

/// Written by hand because `#[serde(untagged)]` would first copy every entry, `inputSchema` and
/// all, into serde's buffer; this reads `name`, `uri` and `uriTemplate` and skips the rest.
impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Entry, D::Error> {
        deserializer.deserialize_any(EntryVisitor)
    }
}

struct EntryVisitor;

/// Any entry error: one message, placed by the parser where the entry went wrong.
fn wrong_entry<E: de::Error>() -> Result<Entry, E> {
    Err(E::custom(ENTRY_EXPECTED))
}

impl<'de> de::Visitor<'de> for EntryVisitor {
    type Value = Entry;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a name or an object with `name` or `uri`")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Entry, E> {
        Ok(Entry::Name(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Entry, E> {
        Ok(Entry::Name(v))
    }

    fn visit_map<A: de::MapAccess<'de>>(self, mut map: A) -> Result<Entry, A::Error> {
        // The outer `Option` marks a key as seen, so a repeated key is an error even after `null`.
        let (mut name, mut uri, mut uri_template) = (None, None, None);
        while let Some(key) = map.next_key::<EntryKey>()? {
            let slot: &mut Option<Option<String>> = match key {
                EntryKey::Name => &mut name,
                EntryKey::Uri => &mut uri,
                EntryKey::UriTemplate => &mut uri_template,
                EntryKey::Other => {
                    map.next_value::<de::IgnoredAny>()?;
                    continue;
                }
            };
            if slot.is_some() {
                return wrong_entry();
            }
            // A value is a string or null; reading it as an entry gives any other type the same
            // error as a wrong entry.
            *slot = Some(match map.next_value::<Option<Entry>>()? {
                None => None,
                Some(Entry::Name(s)) => Some(s),
                Some(Entry::Object { .. }) => return wrong_entry(),
            });
        }
        Ok(Entry::Object {
            name: name.flatten(),
            uri: uri.flatten(),
            uri_template: uri_template.flatten(),
        })
    }

    // JSON's other types: the same message for each.
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Entry, E> {
        wrong_entry()
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Entry, E> {
        wrong_entry()
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Entry, E> {
        wrong_entry()
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Entry, E> {
        wrong_entry()
    }

    fn visit_unit<E: de::Error>(self) -> Result<Entry, E> {
        wrong_entry()
    }

    fn visit_seq<A: de::SeqAccess<'de>>(self, _: A) -> Result<Entry, A::Error> {
        wrong_entry()
    }
}

/// A key of an entry object, read without allocating.
enum EntryKey {
    Name,
    Uri,
    UriTemplate,
    Other,
}

impl<'de> Deserialize<'de> for EntryKey {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<EntryKey, D::Error> {
        struct KeyVisitor;
        impl de::Visitor<'_> for KeyVisitor {
            type Value = EntryKey;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<EntryKey, E> {
                Ok(match v {
                    "name" => EntryKey::Name,
                    "uri" => EntryKey::Uri,
                    "uriTemplate" => EntryKey::UriTemplate,
                    _ => EntryKey::Other,
                })
            }
        }
        deserializer.deserialize_identifier(KeyVisitor)
    }
}

/// One MCP server's offering inside a native profile.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ServerEntry {
    /// A saved or captured profile, or a raw `tools/list` result (with or without its JSON-RPC
    /// envelope), relative to this file: its tools become this server's tools.
    pub from: Option<String>,
    #[serde(default)]
    #[schemars(with = "Vec<Entry>")]
    pub tools: Keys<false>,
    #[serde(default)]
    #[schemars(with = "Vec<Entry>")]
    pub resources: Keys<true>,
    #[serde(default)]
    #[schemars(with = "Vec<Entry>")]
    pub prompts: Keys<false>,
}

/// The names a list of entries gives (resource URIs when `RESOURCES`), each taken as its entry
/// is read: a production `tools/list` holds thousands of entries, and a list of them, built
/// only to be taken apart, was most of a profile's memory.
#[derive(Debug, Default)]
pub struct Keys<const RESOURCES: bool>(pub Vec<String>);

impl<'de, const RESOURCES: bool> Deserialize<'de> for Keys<RESOURCES> {
    fn deserialize<D: de::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeysVisitor<const RESOURCES: bool>;
        impl<'de, const RESOURCES: bool> de::Visitor<'de> for KeysVisitor<RESOURCES> {
            type Value = Keys<RESOURCES>;

            // What serde says of any list, so a list's errors read as they always have.
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a sequence")
            }

            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let kind = if RESOURCES {
                    DepKind::Resources
                } else {
                    DepKind::Tools
                };
                let mut keys = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(entry) = seq.next_element::<Entry>()? {
                    keys.extend(entry.into_key(kind));
                }
                Ok(Keys(keys))
            }
        }
        deserializer.deserialize_seq(KeysVisitor::<RESOURCES>)
    }
}

/// Load one profile file and compose it with the files it names. `display` is how its path
/// is shown in reports.
pub fn load(path: &Path, display: &str) -> Result<Profile, ProfileError> {
    super::compose::Composer::default().load(path, display)
}

/// Parse and compose profile JSON text read from `path`.
pub fn parse(text: &str, path: &Path, display: &str) -> Result<Profile, ProfileError> {
    let role = super::compose::Role::Profile;
    super::compose::Composer::default().text(text, path, display, role)
}

/// Read profile JSON into its file shape: a JSON-RPC envelope is opened, an error response
/// refused.
pub(super) fn read(text: &str, display: &str) -> Result<ProfileFile, ProfileError> {
    let err = |line, column, message: String| ProfileError {
        path: display.to_owned(),
        line,
        column,
        message,
    };
    // A profile is one JSON object; serde would name our struct for anything else.
    let first = text.trim_start().chars().next();
    if first.is_some_and(|c| c != '{') {
        let at = crate::span::pos_of(text, text.len() - text.trim_start().len());
        return Err(err(
            at.line as usize,
            at.column as usize,
            "not a valid profile: a profile is a JSON object (`{\"tools\": [...]}`)".into(),
        ));
    }
    let mut file: ProfileFile = serde_json::from_str(text).map_err(|e| {
        let msg = e.to_string();
        let msg = msg.split(" at line ").next().unwrap_or(&msg);
        let msg = unknown_key(msg, text).unwrap_or_else(|| format!("not a valid profile: {msg}"));
        // serde counts the column of an error at the end of a line as 0.
        err(e.line(), e.column().max(1), msg)
    })?;
    if file.error.is_some() {
        return Err(err(
            1,
            1,
            "this is a JSON-RPC error response, not a tools/list result".into(),
        ));
    }
    if let Some(inner) = file.result.take() {
        let outer_name = file.name.take();
        file = *inner;
        file.name = file.name.or(outer_name);
    }
    Ok(file)
}

/// serde's "unknown field `x`, expected one of `a`, `b`" in a profile's words: a misspelt key
/// is named with the key it is likely to be, and another tool's JSON (a SARIF log, the
/// audit's own report, a `package.json`) is told apart from a profile.
fn unknown_key(msg: &str, text: &str) -> Option<String> {
    let rest = msg.strip_prefix("unknown field `")?;
    let (key, expected) = rest.split_once('`')?;
    let keys: Vec<&str> = expected
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|k| !k.starts_with(['$', '_']) && !matches!(*k, "nextCursor" | "id"))
        .collect();
    // A key of a part of a profile (`deny`) keeps serde's words, which list that part's keys.
    if !keys.contains(&"extends") {
        return None;
    }
    let has = |k: &str| text.contains(&format!("\"{k}\""));
    if has("runs") && matches!(key, "version" | "runs") {
        return Some("this is a SARIF log, not a profile; `diff` and `--baseline` read the JSON report (`-f json`)".into());
    }
    if has("schema_version") && has("findings") {
        return Some("this is a skill-audit JSON report, not a profile".into());
    }
    Some(
        match crate::typos::typo_of(key, keys.iter().copied(), str::to_lowercase) {
            Some(k) => format!(
                "unknown key {} in a profile; did you mean `{k}`?",
                crate::diagnostic::quote(key)
            ),
            None => format!(
                "unknown key {}: not a key of a profile (such as `tools`, `servers` or `extends`; docs/profiles.md lists them all)",
                crate::diagnostic::quote(key)
            ),
        },
    )
}

/// The JSON Schema of a profile file.
pub fn schema() -> serde_json::Value {
    serde_json::to_value(schemars::schema_for!(ProfileFile)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> Result<Profile, ProfileError> {
        parse(text, Path::new("profiles/prod.json"), "profiles/prod.json")
    }

    #[test]
    fn native_form_with_servers() {
        let prof = p(r#"{"name": "prod", "tools": ["get_order"], "resources": [{"uri": "docs://a"}],
            "prompts": ["summarize"], "servers": {"github": {"tools": ["get_issue", {"name": "list"}]}}}"#)
        .unwrap();
        assert_eq!(prof.name, "prod");
        assert!(prof.tools.contains("get_order"));
        assert!(prof.tools.contains("github/get_issue"));
        assert!(prof.tools.contains("mcp__github__list"));
        assert!(prof.resources.contains("docs://a"));
        assert!(prof.prompts.contains("summarize"));
        assert_eq!(prof.tools.len(), 3);
    }

    #[test]
    fn tools_list_result_and_envelope() {
        let bare =
            p(r#"{"tools": [{"name": "a", "inputSchema": {}}], "nextCursor": null}"#).unwrap();
        assert_eq!(bare.name, "prod", "file stem");
        assert!(bare.tools.contains("a"));
        let env = p(r#"{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "b", "description": "x"}]}}"#).unwrap();
        assert!(env.tools.contains("b"));
    }

    #[test]
    fn errors_have_positions() {
        let e = p("{\n  \"tools\": [1]\n}").unwrap_err();
        assert_eq!((e.line, e.path.as_str()), (2, "profiles/prod.json"));
        assert!(e.message.contains("expected a name"), "{}", e.message);
        let e = p("{\n  \"tools\": [\"a\",\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = p(r#"{"jsonrpc": "2.0", "id": 1, "error": {"code": -1}}"#).unwrap_err();
        assert!(e.message.contains("error response"));
    }

    #[test]
    fn a_file_of_other_keys_is_not_an_empty_profile() {
        let e = p("{\n  \"tols\": [\"a\"]\n}").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(
            e.message
                .contains("`tols` in a profile; did you mean `tools`?"),
            "{}",
            e.message
        );
        let e = p(r#"{"name": "x", "version": "1.0.0", "dependencies": {}}"#).unwrap_err();
        assert!(
            e.message
                .contains("unknown key `version`: not a key of a profile"),
            "{}",
            e.message
        );
        let sarif = r#"{"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": []}"#;
        assert!(
            p(sarif)
                .unwrap_err()
                .message
                .contains("this is a SARIF log")
        );
        let report = r#"{"schema_version": 9, "tool": {}, "findings": []}"#;
        assert!(
            p(report)
                .unwrap_err()
                .message
                .contains("a skill-audit JSON report")
        );
        // What editors and saved `tools/list` results carry beside the keys read.
        let kept = r#"{"$schema": "s", "jsonrpc": "2.0", "id": 3, "result": {"tools": [{"name": "a"}], "nextCursor": "c", "_meta": {}}}"#;
        assert!(p(kept).is_ok());
    }

    fn entries(json: &str) -> Result<Vec<Entry>, serde_json::Error> {
        serde_json::from_str(json)
    }

    /// Check the key each entry gives a dependency of `kind`.
    fn assert_keys(entries: &[Entry], kind: DepKind, want: &[Option<&str>]) {
        let got: Vec<Option<String>> = entries.iter().map(|e| e.clone().into_key(kind)).collect();
        assert_eq!(got.iter().map(Option::as_deref).collect::<Vec<_>>(), want);
    }

    #[test]
    fn entries_are_names_or_objects() {
        let got = entries(
            r#"["a", {"name": "b"}, {"uri": "docs://c", "name": null}, {"uriTemplate": "t/{id}"}, {}]"#,
        )
        .unwrap();
        let resources = [Some("a"), Some("b"), Some("docs://c"), Some("t/{id}"), None];
        assert_keys(&got, DepKind::Resources, &resources);
        // A tool is named by `name` only.
        let tools = [Some("a"), Some("b"), None, None, None];
        assert_keys(&got, DepKind::Tools, &tools);
    }

    #[test]
    fn entry_objects_skip_other_keys() {
        let got = entries(
            r#"[{"title": "T", "inputSchema": {"type": "object", "properties": {"name": {"type": "string"},
                "uri": [1, {"deep": [null, true]}]}}, "name": "get_issue",
                "annotations": {"readOnlyHint": true}, "uri_template": 7, "Name": 1}]"#,
        )
        .unwrap();
        assert_keys(&got, DepKind::Tools, &[Some("get_issue")]);
        assert_keys(&got, DepKind::Resources, &[Some("get_issue")]);
    }

    #[test]
    fn wrong_entries_have_one_message_and_a_position() {
        for (text, line) in [
            ("[\n  1]", 2),
            ("[true]", 1),
            ("[null]", 1),
            ("[\"a\", -2.5]", 1),
            ("[[\"a\", null, null]]", 1),
            ("[\"a\",\n {\"name\": 3}]", 2),
            ("[{\"uri\": [\"x\"]}]", 1),
            ("[{\"uriTemplate\": {\"a\": 1}}]", 1),
            ("[{\"name\": \"a\",\n  \"name\": \"b\"}]", 2),
            ("[{\"name\": null, \"name\": \"b\"}]", 1),
        ] {
            let e = entries(text).unwrap_err();
            assert_eq!(
                e.to_string().split(" at line ").next(),
                Some(ENTRY_EXPECTED),
                "{text}"
            );
            assert_eq!(e.line(), line, "{text}");
        }
        // Broken JSON inside an entry is reported as such.
        let e = entries("[{\"name\": \"a\",}]").unwrap_err();
        assert!(e.to_string().starts_with("trailing comma"), "{e}");
    }

    #[test]
    fn captured_keys_are_accepted() {
        let prof = p(r#"{"name": "prod", "server": {"name": "s", "version": "1"},
            "protocol_version": "2025-06-18", "captured_at": "2026-01-01T00:00:00Z", "tools": ["a"]}"#)
        .unwrap();
        assert!(prof.tools.contains("a"));
    }
}
