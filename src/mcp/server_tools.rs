//! The tools of `skill-audit mcp`: each one's input (read strictly: an unknown key or a wrong
//! type is a JSON-RPC "invalid params" error), and its answer as structured content with a
//! short text for the model. What a caller cannot fix by changing the shape of its request
//! (an unknown skill, a path outside the library) is a tool error the model reads.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rayon::prelude::*;
use rmcp::ErrorData;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject, Tool, ToolAnnotations};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::server::{Library, lock};
use crate::evaluate::{Availability, Status, UnmetGroup};
use crate::profile::{Profile, ProfileSource};
use crate::report::explain::{Entry, explain};
use crate::report::prompt;
use crate::rules::Rule;
use crate::words::Count;

/// Most findings one `audit` answer holds, unless `limit` says fewer.
const MAX_FINDINGS: usize = 500;
/// Findings an `audit` answer holds when `limit` is not given.
const DEFAULT_FINDINGS: usize = 100;
/// Most skills one `available_skills` answer holds, unless `limit` says fewer.
const MAX_SKILLS: usize = 200;
/// Skills an `available_skills` answer holds when `limit` is not given: hosts cap what a
/// tool may answer, and a library's descriptions run long.
const DEFAULT_SKILLS: usize = 50;
/// The name of the environment built from a caller's `tools`, `servers` and `host`.
const SESSION: &str = "session";

/// The environment a question is asked in (the fields of `available_skills` and
/// `check_skill` that name it).
#[derive(Debug, Default)]
struct Environment {
    tools: Option<Vec<String>>,
    servers: Option<Vec<String>>,
    resources: Option<Vec<String>>,
    prompts: Option<Vec<String>>,
    host: Option<String>,
    profile: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AvailableArgs {
    /// The names of the tools this session can call, as the host names them (`Read`,
    /// `runCommands`, `github/create_issue`, `mcp__github__create_issue`).
    #[serde(default)]
    tools: Option<Vec<String>>,
    /// The MCP servers this session is connected to: any tool of theirs (`NAME/*`).
    #[serde(default)]
    servers: Option<Vec<String>>,
    /// The MCP resources this session can read, by URI.
    #[serde(default)]
    resources: Option<Vec<String>>,
    /// The MCP prompts this session can get, by name.
    #[serde(default)]
    prompts: Option<Vec<String>>,
    /// The host the session runs on, a built-in host (`vscode`, `claude-code`, ...): its
    /// built-in tools, tool sets, aliases and rules for loading skills apply, and `tools`
    /// adds to its tools.
    #[serde(default)]
    host: Option<String>,
    /// A profile the server was started with (by name), or `builtin:NAME`. With `tools`,
    /// `servers` or `host`, those are added to it. Without any of these, the server's
    /// first profile.
    #[serde(default)]
    profile: Option<String>,
    /// Also list the skills this session cannot use, each with its status and reason.
    #[serde(default)]
    include_unavailable: bool,
    /// Most skills to return (default 50, from 1 to 200); `next_offset` says where the rest
    /// begin.
    #[serde(default)]
    #[schemars(range(min = 1, max = 200))]
    limit: Option<usize>,
    /// How many skills of the list (sorted by name) to skip: the `next_offset` of the
    /// previous answer.
    #[serde(default)]
    offset: Option<usize>,
}

/// A skill by its `name`, or by `path` (its SKILL.md or folder, relative to the server's
/// folder or absolute, inside the library).
#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Which {
    /// The skill's (or agent's) name.
    #[serde(default)]
    name: Option<String>,
    /// Its file (or a skill's folder), inside the library.
    #[serde(default)]
    path: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CheckArgs {
    /// The skill's name.
    #[serde(default)]
    name: Option<String>,
    /// Its SKILL.md or folder, inside the library.
    #[serde(default)]
    path: Option<String>,
    /// The names of the tools this session can call, as the host names them (`Read`,
    /// `runCommands`, `github/create_issue`, `mcp__github__create_issue`).
    #[serde(default)]
    tools: Option<Vec<String>>,
    /// The MCP servers this session is connected to: any tool of theirs (`NAME/*`).
    #[serde(default)]
    servers: Option<Vec<String>>,
    /// The MCP resources this session can read, by URI.
    #[serde(default)]
    resources: Option<Vec<String>>,
    /// The MCP prompts this session can get, by name.
    #[serde(default)]
    prompts: Option<Vec<String>>,
    /// The host the session runs on, a built-in host (`vscode`, `claude-code`, ...): its
    /// built-in tools, tool sets, aliases and rules for loading skills apply, and `tools`
    /// adds to its tools.
    #[serde(default)]
    host: Option<String>,
    /// A profile the server was started with (by name), or `builtin:NAME`. With `tools`,
    /// `servers` or `host`, those are added to it. Without any of these, the server's
    /// first profile.
    #[serde(default)]
    profile: Option<String>,
}

macro_rules! environment_of {
    ($args:expr) => {
        Environment {
            tools: $args.tools,
            servers: $args.servers,
            resources: $args.resources,
            prompts: $args.prompts,
            host: $args.host,
            profile: $args.profile,
        }
    };
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AuditArgs {
    /// Only findings in these files or folders (inside the library).
    #[serde(default)]
    paths: Option<Vec<String>>,
    /// Judge against these profiles (names the server was started with, or `builtin:NAME`;
    /// at most 16, each named once) instead of the server's.
    #[serde(default)]
    profiles: Option<Vec<String>>,
    /// Only these rules: codes (`SA201`), prefixes (`SA2`), names, or `ALL`.
    #[serde(default)]
    select: Option<Vec<String>>,
    /// Most findings to return (default 100, at most 500); the summary counts them all.
    #[serde(default)]
    #[schemars(range(max = 500))]
    limit: Option<usize>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RuleArgs {
    /// The rule's code (`SA201`) or name (`name-missing`).
    id: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct FixArgs {
    /// A skill's SKILL.md (or folder) or an agent file, inside the library.
    path: String,
}

fn schema<T: JsonSchema>() -> Arc<JsonObject> {
    let value = serde_json::to_value(schemars::schema_for!(T)).unwrap_or_default();
    Arc::new(value.as_object().cloned().unwrap_or_default())
}

fn tool<T: JsonSchema>(name: &'static str, description: &'static str) -> Tool {
    let mut annotations = ToolAnnotations::new();
    annotations.read_only_hint = Some(true);
    annotations.destructive_hint = Some(false);
    annotations.open_world_hint = Some(false);
    Tool::new(name, description, schema::<T>()).with_annotations(annotations)
}

/// The tools, in the order `tools/list` gives them.
pub(crate) fn list() -> Vec<Tool> {
    vec![
        tool::<AvailableArgs>(
            "available_skills",
            "The skills of the library this session can use, judged against the tools and MCP \
             servers it has (or a named profile), a page at a time (`limit`, `offset`). Text: \
             the <available_skills> block for a system prompt, with the descriptions; \
             structured: each skill's status and location, and `next_offset` while more \
             remain.",
        ),
        tool::<CheckArgs>(
            "check_skill",
            "One skill's availability in this session: its status, what is unmet, which \
             declaration asks for it, and what would satisfy it.",
        ),
        tool::<Which>(
            "explain",
            "Everything known about one skill or agent: fields, requirements, links to agents \
             and their drift, availability per profile, findings.",
        ),
        tool::<AuditArgs>(
            "audit",
            "The library's findings, as the JSON report has them, a summary first; filtered by \
             path and rule, bounded in number.",
        ),
        tool::<RuleArgs>(
            "rule",
            "A rule's documentation: what it checks, why, an example, and its fix.",
        ),
        tool::<FixArgs>(
            "fix_preview",
            "The unified diff the safe fixes would make to one file (what `--diff` prints). \
             Nothing is written.",
        ),
    ]
}

/// Run the tool `name` on `args`. `ct` is cancelled when the client cancels the request.
pub(crate) fn call(
    lib: &Mutex<Library>,
    name: &str,
    args: JsonObject,
    cancelled: &dyn Fn() -> bool,
) -> Result<CallToolResult, ErrorData> {
    let answer = match name {
        "available_skills" => available(&*fresh(lib)?, read(args)?),
        "check_skill" => check(&*fresh(lib)?, read(args)?),
        "explain" => explain_tool(&*fresh(lib)?, read(args)?),
        "audit" => audit(&*fresh(lib)?, read(args)?),
        "rule" => {
            let policies = fresh(lib)?.ws.options().settings.policies.rules.clone();
            rule(read(args)?, &policies)
        }
        "fix_preview" => {
            let args: FixArgs = read(args)?;
            // The fixes are worked out by a whole audit of their own: not under the lock.
            let (opts, target) = {
                let lib = fresh(lib)?;
                match target_of(&lib, &args.path) {
                    Ok(t) => (lib.ws.options().clone(), t),
                    Err(e) => return Ok(failed(e)),
                }
            };
            if cancelled() {
                return Err(ErrorData::internal_error("cancelled", None));
            }
            fix_preview(&opts, &target)
        }
        _ => {
            return Err(ErrorData::invalid_params(
                format!("no tool `{name}`; `tools/list` lists them"),
                None,
            ));
        }
    };
    Ok(match answer {
        Ok((structured, text)) => {
            let mut r = CallToolResult::structured(structured);
            r.content = vec![ContentBlock::text(text)];
            r
        }
        Err(e) => failed(e),
    })
}

/// A tool error the model reads (the request was well formed).
fn failed(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

type Answer = Result<(Value, String), String>;

/// Most profiles one `audit` call judges against: each is a judgement of the whole library.
const MAX_PROFILES: usize = 16;

fn fresh(lib: &Mutex<Library>) -> Result<std::sync::MutexGuard<'_, Library>, ErrorData> {
    let mut guard = lock(lib);
    guard
        .refresh()
        .map_err(|e| ErrorData::internal_error(format!("cannot read the library: {e}"), None))?;
    Ok(guard)
}

fn read<T: serde::de::DeserializeOwned>(args: JsonObject) -> Result<T, ErrorData> {
    serde_json::from_value(Value::Object(args))
        .map_err(|e| ErrorData::invalid_params(format!("invalid arguments: {e}"), None))
}

/// The environment asked about: one of the server's profiles, by index, or one built for
/// the request.
enum Env {
    Started(usize),
    Built(Box<Profile>),
}

impl Library {
    fn environment(&self, asked: &Environment) -> Result<Env, String> {
        let extra = asked.tools.is_some()
            || asked.servers.is_some()
            || asked.resources.is_some()
            || asked.prompts.is_some()
            || asked.host.is_some();
        // Checked here, since the profile's own error lists the hosts as `--profile` takes
        // them (`builtin:vscode`), and `host` takes them bare.
        if let Some(h) = &asked.host {
            let hosts: Vec<&str> = crate::profile::builtin::host_names().collect();
            if !hosts.contains(&h.as_str()) {
                return Err(format!(
                    "no built-in host {}: `host` takes one of {}",
                    crate::diagnostic::quote(h),
                    crate::diagnostic::quoted(&hosts)
                ));
            }
        }
        let started = |name: &str| self.profiles().iter().position(|p| p.name == name);
        let base = match asked.profile.as_deref() {
            Some(name) => match (started(name), name.strip_prefix("builtin:")) {
                (Some(i), _) if !extra => return Ok(Env::Started(i)),
                (Some(i), _) => Some(match &self.sources[i] {
                    ProfileSource::File(f) => crate::paths::normalize(&self.cwd.join(f))
                        .display()
                        .to_string(),
                    ProfileSource::Builtin(b) => format!("builtin:{b}"),
                    ProfileSource::Mcp { .. } => return Err("an `mcp:` profile".into()),
                }),
                (None, Some(_)) => Some(name.to_owned()),
                (None, None) => {
                    let names: Vec<&str> =
                        self.profiles().iter().map(|p| p.name.as_str()).collect();
                    return Err(format!(
                        "no profile `{name}`: this server has {}; or give `builtin:NAME`",
                        if names.is_empty() {
                            "none".to_owned()
                        } else {
                            crate::diagnostic::quoted(&names)
                        }
                    ));
                }
            },
            None if extra => None,
            None if self.profiles().is_empty() => {
                return Err(
                    "no environment to judge against: give `tools` (and `servers`, \
                     `resources`, `prompts`), or a `profile` (`builtin:NAME`); the server was \
                     started without one"
                        .into(),
                );
            }
            None => return Ok(Env::Started(0)),
        };
        let mut file = serde_json::Map::new();
        file.insert("name".into(), json!(SESSION));
        if let Some(b) = base {
            file.insert("extends".into(), json!([b]));
        }
        if let Some(h) = &asked.host {
            file.insert("host".into(), json!(h));
        }
        // A tool of an MCP server (`github/create_issue`, `mcp__github__create_issue`) is
        // listed under its server, as a profile file lists it: a profile that lists servers
        // judges every `server/tool` name, where one without leaves them to the host.
        let host_sets = asked
            .host
            .as_deref()
            .and_then(|h| crate::profile::builtin::load(h).ok())
            .and_then(|p| p.vocabulary)
            .map(|v| v.toolsets)
            .unwrap_or_default();
        let mut own = Vec::new();
        let mut servers: serde_json::Map<String, Value> = serde_json::Map::new();
        for t in asked.tools.iter().flatten() {
            let canonical = crate::profile::names::canonical(crate::profile::names::tool_of(t));
            match canonical.split_once('/') {
                Some((server, tool)) if !host_sets.contains_key(server) => {
                    let entry = servers
                        .entry(server.to_owned())
                        .or_insert_with(|| json!({"tools": []}));
                    if let Some(list) = entry["tools"].as_array_mut() {
                        list.push(json!(tool));
                    }
                }
                _ => own.push(t.clone()),
            }
        }
        for s in asked.servers.iter().flatten() {
            servers.insert(s.clone(), json!({"tools": ["*"]}));
        }
        file.insert("tools".into(), json!(own));
        for (key, names) in [("resources", &asked.resources), ("prompts", &asked.prompts)] {
            if let Some(names) = names {
                file.insert(key.into(), json!(names));
            }
        }
        if !servers.is_empty() {
            file.insert("servers".into(), Value::Object(servers));
        }
        let text = Value::Object(file).to_string();
        let path = self.cwd.join("session.json");
        crate::profile::parse(&text, &path, SESSION)
            .map(|mut p| {
                // A built-in alone keeps its own name (`builtin:vscode`).
                if let (false, Some(name)) = (extra, &asked.profile) {
                    p.name.clone_from(name);
                }
                // A session that lists its tools and runs on no host named here has told us
                // all it can call: a host's built-in name it leaves out is one it lacks.
                if asked.tools.is_some() && p.vocabulary.is_none() {
                    p.lists_every_tool = true;
                }
                Env::Built(Box::new(p))
            })
            .map_err(|e| {
                // The message names a place in the JSON built here, which the caller never
                // saw: only what is wrong.
                let m = e.message;
                format!("the environment asked for is not valid: {m}")
            })
    }

    /// Each skill's availability in `env`, in the order of the workspace's skills.
    fn judged(&self, env: &Env) -> Vec<Availability> {
        let skills = &self.ws.result().skills;
        match env {
            Env::Started(i) => skills
                .iter()
                .map(|s| s.availability.get(*i).cloned().unwrap_or_else(unjudged))
                .collect(),
            Env::Built(p) => {
                // The run is the caller's environment beside the server's profiles, as in a
                // matrix of them all.
                let mut run = Vec::with_capacity(1 + self.profiles().len());
                run.push(p.as_ref().clone());
                run.extend(self.profiles().iter().cloned());
                skills
                    .par_iter()
                    .map(|s| crate::evaluate::skill(&s.skill, &run[0], &run))
                    .collect()
            }
        }
    }

    fn env_name<'a>(&'a self, env: &'a Env) -> &'a str {
        match env {
            Env::Started(i) => self.profiles().get(*i).map_or("", |p| p.name.as_str()),
            Env::Built(p) => p.name.as_str(),
        }
    }

    /// The path a request names, absolute: refused when it leaves the library, lexically or
    /// through a link.
    fn inside(&self, asked: &str) -> Result<PathBuf, String> {
        if asked.is_empty() || asked.len() > 4096 || asked.contains('\0') {
            return Err("`path` must be a path of the library".into());
        }
        let abs = crate::paths::normalize(&self.cwd.join(asked));
        let shown = |p: &Path| p.display().to_string();
        if !self.roots.iter().any(|r| abs.starts_with(r)) {
            let roots: Vec<String> = self.roots.iter().map(|r| shown(r)).collect();
            return Err(format!(
                "`{asked}` is outside the library this server audits ({}): refused",
                roots.join(", ")
            ));
        }
        if self.ws.boundary().leads_outside(&abs) {
            return Err(format!(
                "`{asked}` leads outside the library this server audits (through a link): refused"
            ));
        }
        Ok(abs)
    }

    /// The skill a request names, by index into the workspace's skills.
    fn skill(&self, name: Option<&str>, path: Option<&str>) -> Result<usize, String> {
        let skills = &self.ws.result().skills;
        match (name, path) {
            (Some(_), Some(_)) => Err("give the skill's `name` or its `path`, not both".into()),
            (None, Some(p)) => {
                let abs = self.inside(p)?;
                skills
                    .iter()
                    .position(|s| {
                        let f = crate::paths::normalize(&self.cwd.join(&s.skill.fs_path));
                        f == abs || f.parent() == Some(abs.as_path())
                    })
                    .ok_or_else(|| format!("no skill of the library is at `{p}`"))
            }
            (Some(n), None) => {
                let found: Vec<usize> = (0..skills.len())
                    .filter(|&i| skills[i].skill.name == n)
                    .collect();
                match found.as_slice() {
                    [one] => Ok(*one),
                    [] => Err(format!(
                        "no skill named `{n}` in the library; `available_skills` with \
                         `include_unavailable` lists them all"
                    )),
                    many => {
                        let paths: Vec<&str> = many
                            .iter()
                            .map(|&i| skills[i].skill.path.as_str())
                            .collect();
                        Err(format!(
                            "{} skills are named `{n}` ({}): give `path`",
                            many.len(),
                            paths.join(", ")
                        ))
                    }
                }
            }
            (None, None) => Err("give the skill's `name` or `path`".into()),
        }
    }
}

fn unjudged() -> Availability {
    Availability::of(Status::NotJudged, None)
}

fn available(lib: &Library, args: AvailableArgs) -> Answer {
    let include_unavailable = args.include_unavailable;
    // Out of range is read as the nearest bound, as a limit over the maximum always was: a
    // page of none would hand back the offset it was asked at, and a client that follows
    // `next_offset` would ask for it for ever.
    let limit = args.limit.unwrap_or(DEFAULT_SKILLS).clamp(1, MAX_SKILLS);
    let offset = args.offset.unwrap_or(0);
    let env = lib.environment(&environment_of!(args))?;
    let judged = lib.judged(&env);
    let skills = &lib.ws.result().skills;
    let pairs = skills.iter().map(|s| s.skill.as_ref()).zip(judged.iter());
    let list = prompt::list(pairs, include_unavailable, Some(&lib.cwd));
    let surfaced = list.iter().filter(|s| s.surfaced).count();
    let total = list.len();
    if offset > total {
        return Err(format!(
            "`offset` {offset} is past the end of the list, which holds {}",
            Count(total, "skill")
        ));
    }
    let page = &list[offset..total.min(offset.saturating_add(limit))];
    let next = offset + page.len();
    let next_offset = (next < total).then_some(next);
    // The descriptions are in the text, which the model reads; the structured entries carry
    // the rest, so the answer does not hold the same list twice.
    let entries: Vec<Value> = page
        .iter()
        .map(|s| {
            let mut e = json!({
                "name": s.name,
                "location": s.location,
                "status": s.status,
                "surfaced": s.surfaced,
            });
            if let Some(r) = &s.reason {
                e["reason"] = json!(r);
            }
            e
        })
        .collect();
    let structured = json!({
        "environment": lib.env_name(&env),
        "available": surfaced,
        "total": total,
        "offset": offset,
        "shown": page.len(),
        "next_offset": next_offset,
        "skills": entries,
    });
    let mut text = prompt::text(page);
    if let Some(n) = next_offset {
        text.push_str(&format!(
            "{} more: call `available_skills` again with `offset: {n}` for the next ones.\n",
            Count(total - n, "skill")
        ));
    }
    Ok((structured, text))
}

fn check(lib: &Library, args: CheckArgs) -> Answer {
    let i = lib.skill(args.name.as_deref(), args.path.as_deref())?;
    let env = lib.environment(&environment_of!(args))?;
    let skill = lib.ws.result().skills[i].skill.as_ref();
    let a = match &env {
        Env::Started(p) => lib.ws.result().skills[i]
            .availability
            .get(*p)
            .cloned()
            .unwrap_or_else(unjudged),
        Env::Built(p) => {
            let mut run = vec![p.as_ref().clone()];
            run.extend(lib.profiles().iter().cloned());
            crate::evaluate::skill(skill, &run[0], &run)
        }
    };
    let entry = prompt::list(std::iter::once((skill, &a)), true, Some(&lib.cwd));
    let surfaced = entry.first().is_some_and(|e| e.surfaced);
    let listed_reason = entry.first().and_then(|e| e.reason.clone());
    let unmet: Vec<Value> = a
        .unmet
        .iter()
        .map(|u| {
            let place = skill
                .requirements
                .iter()
                .find(|d| d.source == u.source)
                .map(|d| {
                    let file = d.file.as_deref().unwrap_or(&skill.path);
                    format!("{file}:{}:{}", d.line, d.column)
                });
            json!({
                "source": u.source,
                "kind": u.kind,
                "group": u.group,
                "names": u.names,
                "declared_at": place,
                "to_satisfy": to_satisfy(u),
            })
        })
        .collect();
    let env_name = lib.env_name(&env);
    let mut text = format!(
        "`{}` ({}) is {} in `{env_name}`",
        skill.name,
        skill.path,
        a.status.as_str()
    );
    match &listed_reason {
        Some(r) => text.push_str(&format!(": {r}.\n")),
        None => text.push_str(": a host lists it for the model.\n"),
    }
    for u in &unmet {
        if let (Some(how), Some(at)) = (u["to_satisfy"].as_str(), u["declared_at"].as_str()) {
            text.push_str(&format!("- {how} (declared at {at})\n"));
        }
    }
    let structured = json!({
        "name": skill.name,
        "path": skill.path,
        "environment": env_name,
        "status": a.status,
        "surfaced": surfaced,
        "reason": listed_reason,
        "unmet": unmet,
        "not_judged": a.not_judged,
    });
    Ok((structured, text))
}

/// What would meet one unmet group.
fn to_satisfy(u: &crate::evaluate::Unmet) -> String {
    let names = crate::diagnostic::quoted(&u.names);
    let kind = if u.names.len() == 1 {
        u.kind.noun()
    } else {
        u.kind.nouns()
    };
    match u.group {
        UnmetGroup::All => format!("make {kind} {names} available"),
        UnmetGroup::Any => format!("make one {} of {names} available", u.kind.noun()),
        UnmetGroup::FallbackFor => format!(
            "nothing to add: it stands in for {kind} {names}, which the environment has, so \
             its host hides it in favour of them"
        ),
    }
}

fn explain_tool(lib: &Library, args: Which) -> Answer {
    let report = &lib.report;
    // The report's skills and agents are the workspace's, in the same order.
    let entry = match (args.name.as_deref(), args.path.as_deref()) {
        (Some(n), None) if !report.skills.iter().any(|s| s.skill.name == n) => {
            let agents: Vec<usize> = (0..report.agents.len())
                .filter(|&i| report.agents[i].agent.name == n)
                .collect();
            match agents.as_slice() {
                [] => None,
                [one] => Some(Entry::Agent(*one)),
                many => {
                    let paths: Vec<&str> = many
                        .iter()
                        .map(|&i| report.agents[i].agent.path.as_str())
                        .collect();
                    return Err(format!(
                        "{} agents are named `{n}` ({}): give `path`",
                        many.len(),
                        paths.join(", ")
                    ));
                }
            }
        }
        (None, Some(p)) => {
            let abs = lib.inside(p)?;
            report
                .agents
                .iter()
                .position(|a| crate::paths::normalize(&lib.cwd.join(&a.agent.fs_path)) == abs)
                .map(Entry::Agent)
        }
        _ => None,
    };
    let entry = match entry {
        Some(e) => e,
        None => Entry::Skill(lib.skill(args.name.as_deref(), args.path.as_deref())?),
    };
    let text = explain(report, &entry);
    let (kind, value, path) = match entry {
        Entry::Skill(i) => {
            let e = &report.skills[i];
            ("skill", serde_json::to_value(e), e.skill.path.as_str())
        }
        Entry::Agent(i) => {
            let e = &report.agents[i];
            ("agent", serde_json::to_value(e), e.agent.path.as_str())
        }
    };
    let findings: Vec<&crate::diagnostic::Finding> =
        report.findings.iter().filter(|f| f.path == path).collect();
    let structured = json!({
        "kind": kind,
        "entry": value.map_err(|e| e.to_string())?,
        "links": report.links.iter().filter(|l| l.skill_path == path || l.agent == path).collect::<Vec<_>>(),
        "drift": report.drift.iter().filter(|d| d.skill_path == path || d.agent == path).collect::<Vec<_>>(),
        "findings": findings,
    });
    Ok((structured, text))
}

fn audit(lib: &Library, args: AuditArgs) -> Answer {
    let rules: Option<Vec<Rule>> = match &args.select {
        None => None,
        Some(selectors) => {
            let mut all = Vec::new();
            for s in selectors {
                let policies = &lib.ws.options().settings.policies.rules;
                all.extend(Rule::selected_in(s, policies).ok_or_else(|| {
                    format!("`{s}` is no rule, prefix or `ALL`; the `rule` tool documents each")
                })?);
            }
            Some(all)
        }
    };
    let within: Option<Vec<String>> = match &args.paths {
        None => None,
        Some(paths) => Some(
            paths
                .iter()
                .map(|p| lib.inside(p).map(|abs| lib.ws.display_path(&abs)))
                .collect::<Result<_, _>>()?,
        ),
    };
    let judged;
    let report = match &args.profiles {
        // An empty list names no other profile: the server's own stand.
        None => &lib.report,
        Some(names) if names.is_empty() => &lib.report,
        Some(names) => {
            if names.len() > MAX_PROFILES {
                return Err(format!(
                    "`profiles` names {} profiles; an audit takes at most {MAX_PROFILES}",
                    names.len()
                ));
            }
            let mut profiles: Vec<crate::profile::Profile> = Vec::new();
            for n in names {
                let asked = Environment {
                    profile: Some(n.clone()),
                    ..Environment::default()
                };
                let profile = match lib.environment(&asked)? {
                    Env::Started(i) => lib.profiles()[i].clone(),
                    Env::Built(p) => *p,
                };
                // As on the command line: two profiles of one name are a usage error.
                if profiles.iter().any(|p| p.name == profile.name) {
                    return Err(format!(
                        "`profiles` names the profile `{}` more than once",
                        profile.name
                    ));
                }
                profiles.push(profile);
            }
            judged = crate::report::Report::new(lib.ws.judge_against(profiles));
            &judged
        }
    };
    let under = |path: &str, dir: &str| {
        path == dir || dir == "." || path.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
    };
    let picked: Vec<&crate::diagnostic::Finding> = report
        .findings
        .iter()
        .filter(|f| rules.as_ref().is_none_or(|r| r.contains(&f.rule)))
        .filter(|f| {
            within
                .as_ref()
                .is_none_or(|w| w.iter().any(|d| under(&f.path, d)))
        })
        .collect();
    let limit = args.limit.unwrap_or(DEFAULT_FINDINGS).min(MAX_FINDINGS);
    let count = |sev| picked.iter().filter(|f| f.severity == sev).count();
    let (errors, warnings, infos) = (
        count(crate::Severity::Error),
        count(crate::Severity::Warning),
        count(crate::Severity::Info),
    );
    let mut by_rule: std::collections::BTreeMap<&str, usize> = Default::default();
    for f in &picked {
        *by_rule.entry(f.rule.code()).or_default() += 1;
    }
    let shown = &picked[..picked.len().min(limit)];
    let summary = json!({
        "findings": picked.len(),
        "errors": errors,
        "warnings": warnings,
        "infos": infos,
        "by_rule": by_rule,
        "files_scanned": report.summary.files_scanned,
        "skills": report.skills.len(),
        "agents": report.agents.len(),
        "profiles": report.profiles.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        "shown": shown.len(),
        "truncated": shown.len() < picked.len(),
    });
    let mut text = format!(
        "{} ({}, {}, {}) in {} and {}",
        Count(picked.len(), "finding"),
        Count(errors, "error"),
        Count(warnings, "warning"),
        Count(infos, "info"),
        Count(report.skills.len(), "skill"),
        Count(report.agents.len(), "agent"),
    );
    if shown.len() < picked.len() {
        text.push_str(&format!("; the first {} follow", shown.len()));
    }
    text.push('\n');
    for f in shown {
        text.push_str(&crate::report::text::one_line(f));
        text.push('\n');
    }
    Ok((json!({"summary": summary, "findings": shown}), text))
}

fn rule(args: RuleArgs, policies: &[Rule]) -> Answer {
    let r = Rule::from_id_in(&args.id, policies).ok_or_else(|| {
        format!(
            "no rule `{}`; rules are named by code (`SA201`) or name",
            args.id
        )
    })?;
    let d = r.doc();
    let structured = json!({
        "code": r.code(),
        "name": r.name(),
        "severity": r.default_severity(),
        "summary": r.summary(),
        "what": d.what,
        "why": d.why,
        "example": d.example,
        "fix": r.fix_text(),
    });
    Ok((structured, r.doc_text()))
}

/// The file `path` names that fixes may change: a skill's SKILL.md (also through its
/// folder) or an agent file.
fn target_of(lib: &Library, path: &str) -> Result<PathBuf, String> {
    let abs = lib.inside(path)?;
    let result = lib.ws.result();
    let norm = |p: &Path| crate::paths::normalize(&lib.cwd.join(p));
    let skill = result
        .skills
        .iter()
        .map(|s| norm(&s.skill.fs_path))
        .find(|f| *f == abs || f.parent() == Some(abs.as_path()));
    let agent = || {
        result
            .agents
            .iter()
            .map(|a| norm(&a.agent.fs_path))
            .find(|f| *f == abs)
    };
    skill
        .or_else(agent)
        .ok_or_else(|| format!("`{path}` is neither a skill nor an agent of the library"))
}

fn fix_preview(opts: &crate::audit::AuditOptions, target: &Path) -> Answer {
    let outcome = crate::fix::run(opts, crate::fix::Mode::Safe).map_err(|e| e.to_string())?;
    let changes: Vec<crate::fix::Change> = outcome
        .changes
        .into_iter()
        .filter(|c| crate::paths::normalize(&opts.cwd.join(&c.fs_path)) == target)
        .collect();
    let diff = crate::fix::diff(&changes);
    let shown = crate::paths::display_path(target, &opts.view());
    let fixes: usize = changes.iter().map(|c| c.safe).sum();
    let text = if diff.is_empty() {
        format!("No safe fix applies to {shown}.\n")
    } else {
        diff.clone()
    };
    Ok((json!({"path": shown, "fixes": fixes, "diff": diff}), text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::DepKind;

    fn library(files: &[(&str, &str)]) -> (tempfile::TempDir, Library) {
        let dir = tempfile::tempdir().expect("temporary folder");
        let root = dir.path().canonicalize().expect("real path");
        for (rel, text) in files {
            let p = root.join(rel);
            std::fs::create_dir_all(p.parent().expect("a folder")).expect("folder");
            std::fs::write(p, text).expect("write");
        }
        let opts = crate::audit::AuditOptions {
            roots: vec![root.clone()],
            cwd: root.clone(),
            config_dir: root,
            ..Default::default()
        };
        (dir, Library::open(opts).expect("opens"))
    }

    const PDF: &str = "---\nname: pdf\ndescription: Reads PDFs. Use when given one.\ndependencies:\n  tools: [github/get_file, read_pdf]\n---\n";

    #[test]
    fn paths_that_leave_the_library_are_refused() {
        let (dir, lib) = library(&[("skills/pdf/SKILL.md", PDF)]);
        assert!(lib.inside("skills/pdf").is_ok());
        for outside in ["/etc/passwd", "../elsewhere", "skills/../../x", ""] {
            let e = lib.inside(outside).expect_err(outside);
            assert!(e.contains("refused") || e.contains("must be a path"), "{e}");
        }
        #[cfg(unix)]
        {
            let link = dir.path().join("skills/out");
            std::os::unix::fs::symlink("/etc", &link).expect("a link");
            let e = lib.inside("skills/out/passwd").expect_err("through a link");
            assert!(e.contains("through a link"), "{e}");
        }
    }

    #[test]
    fn a_servers_tools_are_listed_under_it_so_its_other_tools_are_judged() {
        let (_dir, lib) = library(&[("skills/pdf/SKILL.md", PDF)]);
        let asked = Environment {
            host: Some("vscode".into()),
            tools: Some(vec!["mcp__github__get_file".into(), "read_pdf".into()]),
            ..Environment::default()
        };
        let Ok(Env::Built(p)) = lib.environment(&asked) else {
            panic!("an environment");
        };
        assert!(p.has(DepKind::Tools, "github/get_file"));
        assert!(!p.has(DepKind::Tools, "github/delete_repo"));
        let (answer, text) = available(
            &lib,
            AvailableArgs {
                tools: asked.tools,
                servers: None,
                resources: None,
                prompts: None,
                host: asked.host,
                profile: None,
                include_unavailable: false,
                limit: None,
                offset: None,
            },
        )
        .expect("an answer");
        assert_eq!(answer["available"], 1, "{answer}");
        assert!(text.contains("<name>\npdf\n</name>"), "{text}");
    }

    #[test]
    fn an_unknown_host_is_told_the_names_host_takes() {
        let (_dir, lib) = library(&[("skills/pdf/SKILL.md", PDF)]);
        for host in ["nope", "builtin:vscode"] {
            let asked = Environment {
                host: Some(host.into()),
                ..Environment::default()
            };
            let Err(e) = lib.environment(&asked) else {
                panic!("{host} is not a host");
            };
            let listed = e.split_once("`host` takes one of ").map(|(_, l)| l);
            assert!(
                listed.is_some_and(|l| l.contains("`vscode`") && !l.contains("builtin:")),
                "{e}"
            );
        }
        let asked = Environment {
            host: Some("vscode".into()),
            ..Environment::default()
        };
        assert!(lib.environment(&asked).is_ok());
    }

    #[test]
    fn what_would_satisfy_each_group() {
        let unmet = |group, names: &[&str]| crate::evaluate::Unmet {
            source: crate::model::Origin::Dependencies,
            kind: DepKind::Tools,
            group,
            names: names.iter().map(|n| (*n).to_owned()).collect(),
        };
        assert_eq!(
            to_satisfy(&unmet(UnmetGroup::All, &["a", "b"])),
            "make tools `a`, `b` available"
        );
        assert_eq!(
            to_satisfy(&unmet(UnmetGroup::Any, &["a", "b"])),
            "make one tool of `a`, `b` available"
        );
        assert!(to_satisfy(&unmet(UnmetGroup::FallbackFor, &["a"])).starts_with("nothing to add"));
    }
}
