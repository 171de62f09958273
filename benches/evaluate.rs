//! Dependency evaluation against a large profile: 300,000 tools (bare names, `server/tool`
//! names over 3,000 servers and a few server globs), built once with `Profile::from_names`;
//! and loading large profiles from their JSON.
//!
//! `cargo bench --bench evaluate`

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::LazyLock;

use divan::{Bencher, black_box};
use skill_audit::evaluate;
use skill_audit::model::{Group, Requirements};
use skill_audit::profile::{self, Profile};

fn main() {
    LazyLock::force(&PROFILE);
    divan::main();
}

const TOOLS: usize = 300_000;

/// 100,000 bare tools, 199,980 `srvN/op_M` tools and 20 server globs.
fn tool_names() -> Vec<String> {
    let mut names = Vec::with_capacity(TOOLS);
    for i in 0..100_000 {
        names.push(format!("tool_{i}"));
    }
    for i in 0..(TOOLS - 100_000 - 20) {
        names.push(format!("srv{}/op_{}", i % 3_000, i / 3_000));
    }
    for i in 0..20 {
        names.push(format!("ext{i}/*"));
    }
    names
}

fn build(names: &[String]) -> Profile {
    let tools: Vec<&str> = names.iter().map(String::as_str).collect();
    let resources = ["docs://payments/refund-policy.md", "file:///srv/docs/*"];
    Profile::from_names(
        "large",
        "large.json",
        &tools,
        &resources,
        &["summarize", "triage"],
    )
    .expect("valid profile")
}

static PROFILE: LazyLock<Profile> = LazyLock::new(|| build(&tool_names()));

fn group(all: &[&str], any: Option<&[&str]>) -> Group {
    Group {
        all: all.iter().map(|s| (*s).to_owned()).collect(),
        any: any.map(|a| a.iter().map(|s| (*s).to_owned()).collect()),
        ..Group::default()
    }
}

/// A typical skill whose every requirement is met: bare, qualified, Claude-spelled and
/// server-wide tools, an `any` group, a resource and a prompt.
fn met() -> Requirements {
    Requirements {
        tools: group(
            &[
                "tool_123",
                "srv42/op_7",
                "mcp__srv7__op_3",
                "srv99/*",
                "op_12",
            ],
            Some(&["missing_tool", "tool_99999"]),
        ),
        resources: group(&["docs://payments/refund-policy.md"], None),
        prompts: group(&["summarize"], None),
        ..Requirements::default()
    }
}

/// The same shape with missing entries and an unmet `any` group (builds the reason text).
fn unmet() -> Requirements {
    Requirements {
        tools: group(
            &[
                "tool_123",
                "no_such_tool",
                "srv42/op_9999",
                "nosrv/*",
                "ext3/anything",
            ],
            Some(&["missing_a", "missing_b"]),
        ),
        resources: group(&["docs://payments/missing.md"], None),
        prompts: group(&["postmortem"], None),
        ..Requirements::default()
    }
}

#[divan::bench]
fn requirements_met(bencher: Bencher) {
    let req = met();
    assert_eq!(
        evaluate::requirements(&req, &PROFILE).status,
        evaluate::Status::Available
    );
    bencher.bench(|| evaluate::requirements(black_box(&req), &PROFILE));
}

#[divan::bench]
fn requirements_unmet(bencher: Bencher) {
    let req = unmet();
    assert_eq!(
        evaluate::requirements(&req, &PROFILE).status,
        evaluate::Status::Unavailable
    );
    bencher.bench(|| evaluate::requirements(black_box(&req), &PROFILE));
}

/// One lookup of each kind, to see which dominates.
#[divan::bench(args = ["tool_123", "op_12", "srv42/op_7", "mcp__srv7__op_3", "srv99/*", "nosrv/*", "no_such_tool"])]
fn has_tool(name: &str) -> bool {
    PROFILE.has(skill_audit::model::DepKind::Tools, black_box(name))
}

/// Building the 300,000-tool profile (what loading a large profile file costs after JSON).
#[divan::bench(sample_count = 5, sample_size = 1)]
fn build_profile(bencher: Bencher) {
    let names = tool_names();
    bencher.bench(|| build(black_box(&names)));
}

/// The 300,000 tools as a native profile file: bare names in `tools`, the rest under `servers`.
fn native_json() -> String {
    let names = tool_names();
    let mut bare = Vec::new();
    let mut servers: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for name in &names {
        match name.split_once('/') {
            Some((server, tool)) => servers.entry(server).or_default().push(tool),
            None => bare.push(name.as_str()),
        }
    }
    let servers: serde_json::Map<String, serde_json::Value> = servers
        .into_iter()
        .map(|(server, tools)| (server.to_owned(), serde_json::json!({ "tools": tools })))
        .collect();
    serde_json::json!({ "name": "large", "tools": bare, "servers": servers }).to_string()
}

/// A saved `tools/list` response of 10,000 tools, each with a description and an input schema.
fn tools_list_json() -> String {
    let tools: Vec<serde_json::Value> = (0..10_000)
        .map(|i| {
            serde_json::json!({
                "name": format!("tool_{i}"),
                "description": "Look up one record by id and return its fields, with links to related records.",
                "inputSchema": {
                    "type": "object",
                    "properties": {
                        "id": { "type": "string", "description": "The record's id." },
                        "fields": { "type": "array", "items": { "type": "string" } },
                        "limit": { "type": "integer", "minimum": 1, "maximum": 100 }
                    },
                    "required": ["id"]
                },
                "annotations": { "readOnlyHint": true }
            })
        })
        .collect();
    serde_json::json!({ "jsonrpc": "2.0", "id": 1, "result": { "tools": tools } }).to_string()
}

/// Loading a profile file from its text: the 300,000 tools above as a native profile, and a
/// `tools/list` capture whose input schemas are skipped.
#[divan::bench(args = ["native", "tools_list"], sample_count = 10, sample_size = 1)]
fn parse_profile(bencher: Bencher, form: &str) {
    let text = match form {
        "native" => native_json(),
        _ => tools_list_json(),
    };
    let path = Path::new("large.json");
    bencher.bench(|| profile::parse(black_box(&text), path, "large.json").expect("valid profile"));
}
