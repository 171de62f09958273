//! Write a synthetic skill library for benchmarks and scale tests.
//!
//! ```sh
//! cargo run --release --example gen_library -- --skills 5000 [--agents 250] [--plugins 100] [--seed 1] DIR
//! ```
//!
//! `DIR` receives:
//! - `skills/<name>/SKILL.md`: frontmatter with `name`, a 100–400 character `description`,
//!   `license`, `metadata`, some host keys (`argument-hint`, `user-invocable`, `allowed-tools`,
//!   `compatibility`) and, for most skills, `dependencies` (tools with `all`/`any`, some
//!   resources and prompts); a few use the agent-style `tools` field instead. Bodies are 20–200
//!   lines of Markdown with a few relative links to `references/`, `scripts/` and `assets/` files,
//!   which are written too. About 1 skill in 200 has a broken link and 1 in 400 unreadable YAML,
//!   so reports have findings of every kind.
//! - `agents/<name>.agent.md`: `tools` lists mixing VS Code names, MCP wildcards and bare tools,
//!   body links to the skills they use, some `skills:` lists and handoffs (default: skills / 20).
//! - `plugins/<name>/plugin.json`: Agent Plugins manifests bundling agents and skills under
//!   `extensions."com.github.awesome-copilot"` (default: skills / 50).
//! - `profiles/{prod,staging,dev}.json`: `prod` is large (thousands of tools across many MCP
//!   servers), `staging` a subset, `dev` small with wildcards.
//!
//! The output depends only on the arguments: the same seed gives the same bytes.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// SplitMix64: tiny, fast, and good enough for test data.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        debug_assert!(lo <= hi);
        let span = (hi - lo + 1) as u64;
        lo + (self.next() % span) as usize
    }

    /// True with probability `percent` / 100.
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn word(&mut self, items: &[&'static str]) -> &'static str {
        items[self.range(0, items.len() - 1)]
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.range(0, items.len() - 1)]
    }

    /// `n` distinct items (fewer if `items` is shorter), in pick order.
    fn sample<T: Clone + PartialEq>(&mut self, items: &[T], n: usize) -> Vec<T> {
        let mut out: Vec<T> = Vec::with_capacity(n);
        let n = n.min(items.len());
        while out.len() < n {
            let x = self.pick(items);
            if !out.contains(x) {
                out.push(x.clone());
            }
        }
        out
    }
}

const VERBS: &[&str] = &[
    "get",
    "list",
    "create",
    "update",
    "delete",
    "search",
    "run",
    "fetch",
    "sync",
    "export",
    "import",
    "validate",
    "summarize",
    "query",
    "deploy",
    "rollback",
    "approve",
    "notify",
];

const NOUNS: &[&str] = &[
    "order",
    "invoice",
    "customer",
    "ticket",
    "issue",
    "build",
    "release",
    "incident",
    "alert",
    "metric",
    "dashboard",
    "repo",
    "branch",
    "commit",
    "pipeline",
    "secret",
    "user",
    "team",
    "document",
    "report",
    "schedule",
    "payment",
    "refund",
    "chargeback",
    "shipment",
    "asset",
    "table",
    "log",
    "trace",
    "experiment",
];

const SERVERS: &[&str] = &[
    "github",
    "gitlab",
    "jira",
    "kusto",
    "teams",
    "slack",
    "confluence",
    "sentry",
    "datadog",
    "pagerduty",
    "postgres",
    "snowflake",
    "azure",
    "aws",
    "gcp",
    "stripe",
    "notion",
    "linear",
    "figma",
    "playwright",
];

/// Current namespaced VS Code tool names and a few legacy flat ones.
const VSCODE_TOOLS: &[&str] = &[
    "edit/editFiles",
    "edit/createFile",
    "execute/runInTerminal",
    "execute/getTerminalOutput",
    "execute/runTests",
    "search/codebase",
    "search/usages",
    "search/fileSearch",
    "read/readFile",
    "read/problems",
    "web/fetch",
    "vscode/extensions",
    "todo",
    "agent",
    "runCommands",
    "codebase",
    "editFiles",
    "fetch",
    "problems",
    "githubRepo",
];

const ADJECTIVES: &[&str] = &[
    "quick", "safe", "daily", "deep", "smart", "batch", "live", "secure", "lean", "bulk", "weekly",
    "guided", "auto", "cloud", "local", "shared",
];

const DOMAINS: &[&str] = &[
    "payments", "billing", "support", "platform", "security", "data", "growth", "infra", "mobile",
    "web", "ml", "finance",
];

const PROMPTS: &[&str] = &[
    "summarize",
    "triage",
    "review-checklist",
    "postmortem",
    "release-notes",
    "explain-diff",
];

const LICENSES: &[&str] = &["MIT", "Apache-2.0", "BSD-3-Clause", "MPL-2.0"];

const MODELS: &[&str] = &[
    "GPT-5",
    "Claude Sonnet 4.5",
    "GPT-5 mini",
    "Claude Opus 4.1",
];

const SENTENCES: &[&str] = &[
    "Use when a teammate asks to {v} a {n} and wants the result checked before it ships",
    "Covers the whole {d} workflow from the first request to the final sign-off",
    "Pulls the latest {n} data and explains what changed since the previous run",
    "Do not use for one-off questions that need no {n} access",
    "Works with the {d} team conventions and their review rules",
    "Produces a short summary plus a table of every {n} it touched",
    "Trigger for prompts like {v} my {n} or find the broken {n}",
    "Handles retries and partial failures without losing track of the {n}",
    "Keeps an audit trail so that every {n} change can be traced back to a request",
    "Prefers read-only calls and asks before it would {v} anything in production",
];

const PARAGRAPHS: &[&str] = &[
    "Start from the request and restate the goal in one sentence before calling any tool.",
    "Collect the {n} records first, then group them by owner and by age so that the oldest surface first.",
    "When a call fails, retry once with a smaller page size, then report the failure instead of guessing.",
    "Never {v} a {n} that belongs to another team without an explicit confirmation from the user.",
    "Keep the output short: a one-line verdict, then the details as a list the reader can skim.",
    "Quote identifiers exactly as the tool returned them so that follow-up calls can reuse them.",
    "If the {d} dashboard disagrees with the raw data, trust the raw data and say so.",
    "Large results are paged; stop after five pages and ask whether to continue.",
];

/// What to generate (benches include this file as a module and call [`generate`]).
pub struct Options {
    pub skills: usize,
    pub agents: usize,
    pub plugins: usize,
    pub seed: u64,
    pub dir: PathBuf,
}

impl Options {
    /// `skills` skills with the default agent and plugin counts and seed 1.
    pub fn new(skills: usize, dir: PathBuf) -> Options {
        Options {
            skills,
            agents: skills / 20,
            plugins: skills / 50,
            seed: 1,
            dir,
        }
    }
}

fn usage() -> String {
    "usage: gen_library --skills N [--agents M] [--plugins P] [--seed S] DIR\n\
     defaults: agents = N/20, plugins = N/50, seed = 1"
        .to_owned()
}

fn parse_args() -> Result<Options, String> {
    let mut skills = None;
    let mut agents = None;
    let mut plugins = None;
    let mut seed = 1u64;
    let mut dir = None;
    let mut args = std::env::args().skip(1);
    let number = |flag: &str, v: Option<String>| -> Result<u64, String> {
        v.ok_or_else(|| format!("{flag} needs a value"))?
            .replace('_', "")
            .parse::<u64>()
            .map_err(|e| format!("{flag}: {e}"))
    };
    while let Some(a) = args.next() {
        match a.as_str() {
            "--skills" => skills = Some(number(&a, args.next())? as usize),
            "--agents" => agents = Some(number(&a, args.next())? as usize),
            "--plugins" => plugins = Some(number(&a, args.next())? as usize),
            "--seed" => seed = number(&a, args.next())?,
            "-h" | "--help" => return Err(usage()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n{}", usage())),
            _ if dir.is_some() => return Err(format!("more than one DIR\n{}", usage())),
            _ => dir = Some(PathBuf::from(a)),
        }
    }
    let skills = skills.ok_or_else(usage)?;
    Ok(Options {
        skills,
        agents: agents.unwrap_or(skills / 20),
        plugins: plugins.unwrap_or(skills / 50),
        seed,
        dir: dir.ok_or_else(usage)?,
    })
}

/// Every tool name the library draws from.
struct Pool {
    bare: Vec<String>,
    /// `server/tool`.
    qualified: Vec<String>,
}

impl Pool {
    fn new() -> Pool {
        let mut bare = Vec::new();
        for v in VERBS {
            for n in NOUNS {
                bare.push(format!("{v}_{n}"));
            }
        }
        let mut qualified = Vec::new();
        for (i, s) in SERVERS.iter().enumerate() {
            // Each server offers a fixed slice of the verb_noun names.
            for (j, t) in bare.iter().enumerate() {
                if (j + i * 7) % 23 == 0 {
                    qualified.push(format!("{s}/{t}"));
                }
            }
        }
        Pool { bare, qualified }
    }

    /// A tool requirement: mostly bare names, some qualified (in several spellings), some
    /// whole servers.
    fn requirement(&self, rng: &mut Rng) -> String {
        match rng.range(0, 99) {
            0..=59 => rng.pick(&self.bare).clone(),
            60..=84 => rng.pick(&self.qualified).clone(),
            85..=89 => {
                let q = rng.pick(&self.qualified);
                let (s, t) = q.split_once('/').unwrap_or((q, q));
                format!("mcp__{s}__{t}")
            }
            _ => format!("{}/*", rng.pick(SERVERS)),
        }
    }
}

/// Fill `{v}`, `{n}` and `{d}` placeholders.
fn fill(template: &str, rng: &mut Rng) -> String {
    template
        .replace("{v}", rng.word(VERBS))
        .replace("{n}", rng.word(NOUNS))
        .replace("{d}", rng.word(DOMAINS))
}

/// A description of 100 to 400 characters, with no character that needs YAML escaping in
/// single quotes.
fn description(rng: &mut Rng) -> String {
    let target = rng.range(100, 400);
    let mut out = String::new();
    loop {
        let s = fill(rng.word(SENTENCES), rng);
        if !out.is_empty() && out.len() + s.len() + 2 > target {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&s);
        out.push('.');
        if out.len() >= target {
            break;
        }
    }
    if out.len() < 100 {
        out.push_str(" Includes worked examples and a checklist for reviewers.");
    }
    out.truncate(400);
    out
}

fn yaml_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|i| yaml_scalar(i)).collect();
    format!("[{}]", quoted.join(", "))
}

/// Quote names that YAML would otherwise misread (`github/*`, `docs://x`).
fn yaml_scalar(s: &str) -> String {
    if s.contains(['*', ':', '#', '[', ']', '{', '}', ',', '(', ')', ' ']) {
        format!("\"{s}\"")
    } else {
        s.to_owned()
    }
}

struct SkillPlan {
    name: String,
    /// Tools the skill needs (for agents that load it).
    tools: Vec<String>,
}

/// One SKILL.md plus the files its body links to.
fn write_skill(dir: &Path, i: usize, pool: &Pool, rng: &mut Rng) -> io::Result<SkillPlan> {
    let domain = rng.pick(DOMAINS);
    let name = format!(
        "{}-{}-{}-{i}",
        rng.pick(ADJECTIVES),
        domain,
        rng.pick(NOUNS)
    );
    let skill_dir = dir.join("skills").join(&name);
    fs::create_dir_all(&skill_dir)?;
    let mut fm = String::with_capacity(1024);
    let broken_yaml = rng.range(0, 399) == 0;
    let _ = writeln!(fm, "---\nname: {name}");
    if broken_yaml {
        // A plain scalar with `: ` inside: a classic YAML error.
        let _ = writeln!(fm, "description: Use this: for {domain} work");
    } else {
        let _ = writeln!(fm, "description: '{}'", description(rng));
    }
    let _ = writeln!(fm, "license: {}", rng.pick(LICENSES));
    let _ = writeln!(
        fm,
        "metadata:\n  owner: {domain}-team\n  version: \"{}.{}\"",
        rng.range(0, 3),
        rng.range(0, 12)
    );
    if rng.chance(20) {
        let _ = writeln!(fm, "  source: https://example.com/{domain}/{name}");
    }
    if rng.chance(15) {
        let _ = writeln!(
            fm,
            "compatibility: Needs network access to the {domain} services."
        );
    }
    if rng.chance(15) {
        let _ = writeln!(fm, "argument-hint: '[{}] [--dry-run]'", rng.pick(NOUNS));
    }
    if rng.chance(10) {
        let _ = writeln!(fm, "user-invocable: {}", rng.chance(70));
    }
    if rng.chance(8) {
        let _ = writeln!(fm, "allowed-tools: Read Grep Bash(git:*)");
    }
    let mut tools: Vec<String> = Vec::new();
    match rng.range(0, 99) {
        // `dependencies`, the proposed field.
        0..=69 => {
            fm.push_str("dependencies:\n");
            let all: Vec<String> = (0..rng.range(1, 4))
                .map(|_| pool.requirement(rng))
                .collect();
            let mut all_dedup: Vec<String> = Vec::new();
            for t in all {
                if !all_dedup.contains(&t) {
                    all_dedup.push(t);
                }
            }
            tools.extend(all_dedup.iter().cloned());
            if rng.chance(40) {
                let n = rng.range(2, 3);
                let any: Vec<String> = rng.sample(&pool.bare, n);
                tools.push(any[0].clone());
                let _ = writeln!(
                    fm,
                    "  tools:\n    all: {}\n    any: {}",
                    yaml_list(&all_dedup),
                    yaml_list(&any)
                );
            } else if rng.chance(50) {
                let _ = writeln!(fm, "  tools: {}", yaml_list(&all_dedup));
            } else {
                fm.push_str("  tools:\n    all:\n");
                for t in &all_dedup {
                    let _ = writeln!(fm, "      - {}", yaml_scalar(t));
                }
            }
            if rng.chance(25) {
                let _ = writeln!(
                    fm,
                    "  resources:\n    all: [\"docs://{domain}/{}-guide.md\"]",
                    rng.pick(NOUNS)
                );
            }
            if rng.chance(15) {
                let n = rng.range(1, 2);
                let p: Vec<String> = rng
                    .sample(PROMPTS, n)
                    .iter()
                    .map(|s| (*s).to_owned())
                    .collect();
                let _ = writeln!(fm, "  prompts: {}", yaml_list(&p));
            }
        }
        // Agent-style capability fields.
        70..=79 => {
            let mut t: Vec<String> = (0..rng.range(1, 3))
                .map(|_| rng.pick(&pool.bare).clone())
                .collect();
            t.dedup();
            tools.extend(t.iter().cloned());
            let _ = writeln!(fm, "tools: {}", yaml_list(&t));
            if rng.chance(50) {
                let s = rng.pick(SERVERS);
                tools.push(format!("{s}/*"));
                let _ = writeln!(fm, "mcp-servers: [{s}]");
            }
        }
        // Nothing declared.
        _ => {}
    }
    fm.push_str("---\n");

    // The body.
    let lines = rng.range(20, 200);
    let mut body = String::with_capacity(lines * 60);
    let title: String = name
        .split('-')
        .filter(|w| w.parse::<usize>().is_err())
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect::<String>())
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join(" ");
    let _ = writeln!(body, "# {title}\n");
    let mut links: Vec<(String, String)> = Vec::new();
    for _ in 0..rng.range(1, 3) {
        let link = match rng.range(0, 2) {
            0 => (
                format!("references/{}-guide.md", rng.pick(NOUNS)),
                "the guide".to_owned(),
            ),
            1 => (
                format!("scripts/{}.sh", rng.pick(VERBS)),
                "the helper script".to_owned(),
            ),
            _ => ("assets/template.json".to_owned(), "the template".to_owned()),
        };
        if !links.iter().any(|(p, _)| *p == link.0) {
            links.push(link);
        }
    }
    let broken_link = rng.range(0, 199) == 0;
    let mut link_iter = links.iter();
    let mut count = 2;
    let mut section = 0;
    while count < lines {
        match rng.range(0, 9) {
            0 | 1 => {
                section += 1;
                let _ = writeln!(
                    body,
                    "## {} {section}\n",
                    ["Steps", "Checks", "Output", "Notes", "Examples"][section % 5]
                );
                count += 2;
            }
            2..=4 => {
                let n = rng.range(2, 6);
                for k in 1..=n {
                    let tool = tools
                        .get(k % tools.len().max(1))
                        .cloned()
                        .unwrap_or_else(|| "the editor".to_owned());
                    let _ = writeln!(body, "{k}. {} with `{tool}`.", fill("{v} the {n}", rng));
                }
                body.push('\n');
                count += n + 1;
            }
            5 => {
                let _ = writeln!(
                    body,
                    "```bash\n{} --{} {}\n```\n",
                    rng.pick(VERBS),
                    rng.pick(NOUNS),
                    rng.range(1, 99)
                );
                count += 4;
            }
            6 if link_iter.len() > 0 => {
                let (path, text) = link_iter.next().unwrap_or(&links[0]);
                let _ = writeln!(body, "See [{text}]({path}) before you start.\n");
                count += 2;
            }
            _ => {
                let _ = writeln!(body, "{}\n", fill(rng.word(PARAGRAPHS), rng));
                count += 2;
            }
        }
    }
    for (path, text) in link_iter {
        let _ = writeln!(body, "- [{text}]({path})");
    }
    if broken_link {
        let _ = writeln!(body, "- [old notes](references/removed-notes.md)");
    }
    fm.push_str(&body);
    fs::write(skill_dir.join("SKILL.md"), fm)?;
    for (path, _) in &links {
        let target = skill_dir.join(path);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent)?;
        }
        let content = if path.ends_with(".sh") {
            "#!/bin/sh\nset -eu\necho \"$@\"\n".to_owned()
        } else if path.ends_with(".json") {
            format!("{{\"skill\": \"{name}\", \"fields\": []}}\n")
        } else {
            format!("# {title} guide\n\n{}\n", fill(rng.word(PARAGRAPHS), rng))
        };
        fs::write(target, content)?;
    }
    Ok(SkillPlan { name, tools })
}

struct AgentPlan {
    file_stem: String,
    /// Indexes of the skills its body links to.
    skills: Vec<usize>,
}

fn write_agent(
    dir: &Path,
    i: usize,
    earlier: &[AgentPlan],
    skills: &[SkillPlan],
    pool: &Pool,
    rng: &mut Rng,
) -> io::Result<AgentPlan> {
    let name = format!("{}-{}-agent-{i}", rng.pick(DOMAINS), rng.pick(NOUNS));
    let used: Vec<usize> = if skills.is_empty() {
        Vec::new()
    } else {
        (0..rng.range(1, 4))
            .map(|_| rng.range(0, skills.len() - 1))
            .collect()
    };
    let n = rng.range(1, 4);
    let mut tools: Vec<String> = rng
        .sample(VSCODE_TOOLS, n)
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    for _ in 0..rng.range(0, 2) {
        tools.push(format!("{}/*", rng.pick(SERVERS)));
    }
    for _ in 0..rng.range(0, 3) {
        tools.push(rng.pick(&pool.bare).clone());
    }
    // Most agents grant what their skills need; some drift.
    for &s in &used {
        for t in &skills[s].tools {
            if rng.chance(97) && !tools.contains(t) {
                tools.push(t.clone());
            }
        }
    }
    let mut text = String::with_capacity(2048);
    let _ = writeln!(text, "---\nname: {name}");
    let _ = writeln!(text, "description: '{}'", description(rng));
    let quoted: Vec<String> = tools.iter().map(|t| format!("'{t}'")).collect();
    let _ = writeln!(text, "tools: [{}]", quoted.join(", "));
    if rng.chance(40) {
        let _ = writeln!(text, "model: {}", rng.pick(MODELS));
    }
    if rng.chance(20) && !used.is_empty() {
        let names: Vec<String> = used.iter().map(|&s| skills[s].name.clone()).collect();
        let _ = writeln!(text, "skills: {}", yaml_list(&names));
    }
    if !earlier.is_empty() && rng.chance(10) {
        let _ = writeln!(
            text,
            "handoffs:\n  - label: Escalate\n    agent: {}\n    prompt: Take over from here.",
            rng.pick(earlier).file_stem
        );
    }
    text.push_str("---\n\n");
    let _ = writeln!(text, "# {name}\n\n{}\n", fill(rng.word(PARAGRAPHS), rng));
    for &s in &used {
        let n = &skills[s].name;
        let _ = writeln!(
            text,
            "- Follow [{n}](../skills/{n}/SKILL.md) when the request is about it."
        );
    }
    for _ in 0..rng.range(5, 30) {
        let _ = writeln!(text, "\n{}", fill(rng.word(PARAGRAPHS), rng));
    }
    fs::write(dir.join("agents").join(format!("{name}.agent.md")), text)?;
    Ok(AgentPlan {
        file_stem: name,
        skills: used,
    })
}

fn write_plugin(
    dir: &Path,
    i: usize,
    skills: &[SkillPlan],
    agents: &[AgentPlan],
    rng: &mut Rng,
) -> io::Result<()> {
    let name = format!("{}-{}-kit-{i}", rng.pick(DOMAINS), rng.pick(NOUNS));
    let plugin_dir = dir.join("plugins").join(&name);
    fs::create_dir_all(&plugin_dir)?;
    // A plugin bundles one to three agents with the skills they use, plus a few others.
    let mut agent_paths: Vec<serde_json::Value> = Vec::new();
    let mut skill_ix: Vec<usize> = Vec::new();
    if !agents.is_empty() {
        for _ in 0..rng.range(1, 3) {
            let a = &agents[rng.range(0, agents.len() - 1)];
            // The awesome-copilot convention: `./agents/x.md` for `agents/x.agent.md`.
            agent_paths.push(format!("./agents/{}.md", a.file_stem).into());
            skill_ix.extend(&a.skills);
        }
    }
    if !skills.is_empty() {
        for _ in 0..rng.range(0, 3) {
            skill_ix.push(rng.range(0, skills.len() - 1));
        }
    }
    skill_ix.sort_unstable();
    skill_ix.dedup();
    let skill_paths: Vec<serde_json::Value> = skill_ix
        .iter()
        .map(|&i| format!("./skills/{}/", skills[i].name).into())
        .collect();
    let manifest = serde_json::json!({
        "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
        "name": name,
        "description": description(rng),
        "version": format!("1.{}.0", rng.range(0, 9)),
        "author": { "name": "Synthetic Library" },
        "license": "MIT",
        "keywords": rng.sample(NOUNS, 3),
        "extensions": {
            "com.github.awesome-copilot": {
                "agents": agent_paths,
                "skills": skill_paths,
            }
        }
    });
    let mut text = serde_json::to_string_pretty(&manifest).map_err(io::Error::other)?;
    text.push('\n');
    fs::write(plugin_dir.join("plugin.json"), text)?;
    fs::write(
        plugin_dir.join("README.md"),
        format!("# {name}\n\nA bundle of agents and skills.\n"),
    )?;
    Ok(())
}

fn write_profiles(dir: &Path, pool: &Pool, rng: &mut Rng) -> io::Result<()> {
    let profiles = dir.join("profiles");
    fs::create_dir_all(&profiles)?;
    let write = |name: &str, v: serde_json::Value| -> io::Result<()> {
        let mut text = serde_json::to_string_pretty(&v).map_err(io::Error::other)?;
        text.push('\n');
        fs::write(profiles.join(format!("{name}.json")), text)
    };
    let resources: Vec<String> = DOMAINS
        .iter()
        .flat_map(|d| {
            NOUNS
                .iter()
                .map(move |n| format!("docs://{d}/{n}-guide.md"))
        })
        .collect();
    let servers_of = |keep: &dyn Fn(usize) -> bool| -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        for (i, s) in SERVERS.iter().enumerate() {
            let tools: Vec<&str> = pool
                .qualified
                .iter()
                .filter_map(|q| q.strip_prefix(&format!("{s}/")))
                .enumerate()
                .filter(|(j, _)| keep(i * 31 + j))
                .map(|(_, t)| t)
                .collect();
            if !tools.is_empty() {
                m.insert((*s).to_owned(), serde_json::json!({ "tools": tools }));
            }
        }
        m
    };
    // prod: every pool tool plus thousands of other services' tools.
    let mut prod_tools: Vec<String> = pool.bare.clone();
    prod_tools.extend(VSCODE_TOOLS.iter().map(|t| (*t).to_owned()));
    for svc in 0..120 {
        for n in NOUNS.iter().take(25) {
            prod_tools.push(format!("svc{svc:03}_{}_{n}", VERBS[svc % VERBS.len()]));
        }
    }
    let mut prod_servers = servers_of(&|_| true);
    for k in 0..40 {
        let tools: Vec<String> = (0..50).map(|t| format!("op_{t:02}")).collect();
        prod_servers.insert(
            format!("internal{k:02}"),
            serde_json::json!({ "tools": tools }),
        );
    }
    write(
        "prod",
        serde_json::json!({
            "name": "prod",
            "description": "Production: every service, thousands of tools.",
            "tools": prod_tools,
            "resources": resources,
            "prompts": PROMPTS,
            "servers": prod_servers,
        }),
    )?;
    // staging: most bare tools, some servers.
    let staging_tools: Vec<&String> = pool.bare.iter().filter(|_| rng.chance(75)).collect();
    write(
        "staging",
        serde_json::json!({
            "name": "staging",
            "description": "Staging: most services, older payment backend.",
            "tools": staging_tools,
            "resources": resources.iter().filter(|_| rng.chance(60)).collect::<Vec<_>>(),
            "prompts": &PROMPTS[..3],
            "servers": servers_of(&|k| k % 3 != 0),
        }),
    )?;
    // dev: a few tools and wildcards.
    let dev_tools: Vec<String> = pool
        .bare
        .iter()
        .filter(|t| t.starts_with("get_") || t.starts_with("list_") || t.starts_with("search_"))
        .cloned()
        .chain([
            "github:*".to_owned(),
            "kusto/*".to_owned(),
            "run_*".to_owned(),
        ])
        .collect();
    write(
        "dev",
        serde_json::json!({
            "name": "dev",
            "description": "A laptop: read-only tools plus GitHub and Kusto.",
            "tools": dev_tools,
            "prompts": ["summarize"],
        }),
    )
}

/// Write the library described by `o`.
pub fn generate(o: &Options) -> io::Result<()> {
    let mut rng = Rng::new(o.seed);
    let pool = Pool::new();
    fs::create_dir_all(o.dir.join("skills"))?;
    fs::create_dir_all(o.dir.join("agents"))?;
    fs::create_dir_all(o.dir.join("plugins"))?;
    let mut skills = Vec::with_capacity(o.skills);
    for i in 0..o.skills {
        skills.push(write_skill(&o.dir, i, &pool, &mut rng)?);
    }
    let mut agents = Vec::with_capacity(o.agents);
    for i in 0..o.agents {
        let a = write_agent(&o.dir, i, &agents, &skills, &pool, &mut rng)?;
        agents.push(a);
    }
    for i in 0..o.plugins {
        write_plugin(&o.dir, i, &skills, &agents, &mut rng)?;
    }
    // Profiles draw from their own generator, so they are the same for every library size.
    write_profiles(&o.dir, &pool, &mut Rng::new(o.seed.wrapping_add(0x9E37)))?;
    fs::write(
        o.dir.join("README.md"),
        format!(
            "# Synthetic skill library\n\nGenerated by `gen_library --skills {} --agents {} --plugins {} --seed {}`.\n",
            o.skills, o.agents, o.plugins, o.seed
        ),
    )
}

fn main() -> ExitCode {
    let opts = match parse_args() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = generate(&opts) {
        eprintln!("gen_library: {}: {e}", opts.dir.display());
        return ExitCode::FAILURE;
    }
    eprintln!(
        "wrote {} skills, {} agents, {} plugins and 3 profiles to {}",
        opts.skills,
        opts.agents,
        opts.plugins,
        opts.dir.display()
    );
    ExitCode::SUCCESS
}
