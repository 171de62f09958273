//! Skills served over MCP (SEP-2640): which skills a server lists, and auditing each one like
//! a local `SKILL.md`.
//!
//! A served skill's report path is its URI (`skill://acme/billing/refunds/SKILL.md`). The last
//! segment before `SKILL.md` plays the folder's part, so `name` must match it (SA207). Links
//! in the body are checked against the files the server lists for the skill, never against
//! the local file system. The digest and size that `skills/list` states for the `SKILL.md` are
//! checked against the bytes `resources/read` returned (SA801), and the frontmatter that
//! `skills/list` repeats is compared with the file's (SA802).

use serde_json::Value;
use std::path::PathBuf;

use crate::config::Settings;
use crate::diagnostic::{Pos, Sink, Suppression};
use crate::model::Skill;
use crate::parse;
use crate::rules::{self, Rule};

/// One skill a server serves, and what the server states about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedSkill {
    /// The URI of its `SKILL.md`.
    pub uri: String,
    /// The bytes `resources/read` returned, or why there are none.
    pub content: Result<Vec<u8>, String>,
    /// `frontmatter.name` in `skills/list`.
    pub listed_name: Option<String>,
    /// `frontmatter.description` in `skills/list`.
    pub listed_description: Option<String>,
    /// The digest `skills/list` states for the `SKILL.md` itself.
    pub digest: Option<String>,
    /// The size `skills/list` states for the `SKILL.md` itself.
    pub size: Option<u64>,
    /// Every file `skills/list` lists for the skill; `None` when it lists none (a dynamic
    /// skill, or one found through `resources/list`).
    pub files: Option<Vec<String>>,
}

impl ServedSkill {
    fn new(uri: String) -> ServedSkill {
        ServedSkill {
            uri,
            content: Err("not read".into()),
            listed_name: None,
            listed_description: None,
            digest: None,
            size: None,
            files: None,
        }
    }
}

/// Read `skills/list` entries. A wrong shape is an error: the server is not speaking SEP-2640.
pub fn from_entries(entries: Vec<Value>) -> Result<Vec<ServedSkill>, String> {
    let mut out = Vec::with_capacity(entries.len());
    for (i, entry) in entries.into_iter().enumerate() {
        let n = i + 1;
        let Value::Object(mut e) = entry else {
            return Err(format!("skill {n} is not an object"));
        };
        let uri = match e.remove("uri") {
            Some(Value::String(u)) if !u.is_empty() => u,
            Some(_) => return Err(format!("skill {n}: `uri` is not a non-empty string")),
            None => return Err(format!("skill {n} has no `uri`")),
        };
        let mut skill = ServedSkill::new(uri);
        match e.remove("frontmatter") {
            Some(Value::Object(fm)) => {
                skill.listed_name = fm.get("name").and_then(Value::as_str).map(str::to_owned);
                skill.listed_description = fm
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
            }
            None | Some(Value::Null) => {}
            Some(_) => return Err(format!("{}: `frontmatter` is not an object", skill.uri)),
        }
        match e.remove("resources") {
            Some(Value::Array(files)) => {
                let mut uris = Vec::with_capacity(files.len());
                for f in files {
                    let Some(furi) = f.get("uri").and_then(Value::as_str) else {
                        return Err(format!(
                            "{}: an entry of `resources` has no string `uri`",
                            skill.uri
                        ));
                    };
                    if furi == skill.uri {
                        skill.digest = match f.get("digest") {
                            None | Some(Value::Null) => None,
                            Some(Value::String(d)) => Some(d.clone()),
                            Some(_) => {
                                return Err(format!("{furi}: `digest` is not a string"));
                            }
                        };
                        skill.size = match f.get("size") {
                            None | Some(Value::Null) => None,
                            Some(v) => Some(v.as_u64().ok_or_else(|| {
                                format!("{furi}: `size` is not a whole number of bytes")
                            })?),
                        };
                    }
                    uris.push(furi.to_owned());
                }
                skill.files = Some(uris);
            }
            // `"dynamic"`: generated content, no stable digests.
            None | Some(Value::Null) | Some(Value::String(_)) => {}
            Some(_) => {
                return Err(format!(
                    "{}: `resources` is neither a list nor \"dynamic\"",
                    skill.uri
                ));
            }
        }
        out.push(skill);
    }
    out.sort_by(|a, b| a.uri.cmp(&b.uri));
    out.dedup_by(|a, b| a.uri == b.uri);
    Ok(out)
}

/// Skills found through `resources/list`: URIs of the form `skill://…/SKILL.md`.
pub fn from_resources(resources: &[String]) -> Vec<ServedSkill> {
    resources
        .iter()
        .filter(|u| is_skill_uri(u))
        .map(|u| ServedSkill::new(u.clone()))
        .collect()
}

/// `skill://<path>/SKILL.md` with a non-empty path.
pub fn is_skill_uri(uri: &str) -> bool {
    uri.strip_prefix("skill://")
        .and_then(|rest| rest.strip_suffix("/SKILL.md"))
        .is_some_and(|path| !path.is_empty() && !path.ends_with('/'))
}

/// The path a served skill is known by inside the pipeline: the URI itself, whose parent's
/// last segment is the skill's folder name. It names no local file (links are checked
/// against the server's list, and source lines come from the served bytes).
pub fn pseudo_path(uri: &str) -> PathBuf {
    PathBuf::from(uri.split(['?', '#']).next().unwrap_or(uri))
}

/// Audit one served skill like a local `SKILL.md`: parse it, run the per-file rules, check the
/// stated digest and size, the listed frontmatter and the body's links.
pub fn audit(
    served: &ServedSkill,
    settings: &Settings,
) -> (Skill, Vec<crate::Finding>, Vec<Suppression>) {
    let path = served.uri.as_str();
    let fs_path = pseudo_path(path);
    let mut sink = Sink::new(path);
    let bytes = match &served.content {
        Ok(b) => b,
        Err(why) => {
            sink.push(
                Rule::ReadError,
                Pos::START,
                format!("cannot read the skill over MCP (`resources/read`): {why}"),
            );
            let folder = fs_path
                .parent()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let skill = Skill::invalid(folder, path.to_owned(), fs_path);
            return (skill, sink.findings, sink.suppressions);
        }
    };
    check_digest(served, bytes, &mut sink);
    let mut parsed = parse::skill::parse(bytes, path, &fs_path, &mut sink);
    // Links point into the server's file list, not into the local file system.
    let links = std::mem::take(&mut parsed.links);
    rules::spec::check(&parsed, settings, &mut sink);
    if let Some(files) = &served.files {
        for link in links {
            let target = resolve(path, &link.target);
            if !files.contains(&target) {
                sink.push(
                    Rule::BrokenLink,
                    link.pos,
                    format!(
                        "`{}` is not among the files the server lists for this skill ({target}); fix the link or serve the file",
                        link.target
                    ),
                );
            }
        }
    }
    if !parsed.skill.invalid {
        compare_frontmatter(served, &parsed.skill, &mut sink);
    }
    (parsed.skill, sink.findings, sink.suppressions)
}

/// Source lines for the text output: for findings on served skills they come from the served
/// bytes, as the path names no file.
pub fn attach_sources(findings: &mut [crate::Finding], served: &[ServedSkill]) {
    for s in served {
        let Ok(bytes) = &s.content else { continue };
        let mut lines: Option<Vec<String>> = None;
        for f in findings
            .iter_mut()
            .filter(|f| f.path == s.uri && f.source.is_none())
        {
            let lines = lines.get_or_insert_with(|| {
                String::from_utf8_lossy(bytes)
                    .lines()
                    .map(|l| l.trim_start_matches('\u{feff}').to_owned())
                    .collect()
            });
            let i = usize::try_from(f.line)
                .unwrap_or(usize::MAX)
                .saturating_sub(1);
            f.source = lines.get(i).cloned();
        }
    }
}

/// SA801: the bytes do not have the digest or size the server states (one finding: a wrong
/// size means a wrong digest too).
fn check_digest(served: &ServedSkill, bytes: &[u8], sink: &mut Sink) {
    let size_note = match served.size {
        Some(size) if size != bytes.len() as u64 => format!(
            " (and {} bytes, where the listing says {size})",
            bytes.len()
        ),
        _ => String::new(),
    };
    let message = match &served.digest {
        Some(stated) if !rmcp::model::is_sha256_digest(stated) => format!(
            "`skills/list` states digest `{}`, which is not `sha256:` and 64 lowercase hex digits, so the content cannot be verified",
            clip(stated)
        ),
        Some(stated) => {
            let actual = rmcp::model::sha256_digest(bytes);
            if actual == *stated {
                return;
            }
            format!(
                "`skills/list` states digest `{stated}`, but the SKILL.md that `resources/read` returned has `{actual}`{size_note}; the content changed or is not what was listed"
            )
        }
        None if !size_note.is_empty() => format!(
            "the SKILL.md that `resources/read` returned is not what `skills/list` describes{size_note}"
        ),
        None => return,
    };
    sink.push(Rule::McpDigestMismatch, Pos::START, message);
}

/// SA802: `skills/list` repeats a `name` or `description` that differs from the file's.
fn compare_frontmatter(served: &ServedSkill, skill: &Skill, sink: &mut Sink) {
    if let Some(listed) = &served.listed_name
        && listed.trim() != skill.name
    {
        sink.push(
            Rule::McpFrontmatterMismatch,
            skill.name_pos,
            format!(
                "`skills/list` names this skill `{}`, but its SKILL.md says `{}`",
                clip(listed),
                skill.name
            ),
        );
    }
    if let (Some(listed), Some(actual)) = (&served.listed_description, &skill.description)
        && listed.trim() != actual.trim()
    {
        sink.push(
            Rule::McpFrontmatterMismatch,
            skill.name_pos,
            "`skills/list` gives this skill a different `description` from its SKILL.md",
        );
    }
}

/// The URI a relative link in the skill at `skill_uri` points at.
fn resolve(skill_uri: &str, target: &str) -> String {
    let (scheme, rest) = skill_uri.split_once("://").unwrap_or(("", skill_uri));
    let mut parts: Vec<&str> = rest.split('/').collect();
    parts.pop();
    for seg in target.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                if parts.len() > 1 {
                    parts.pop();
                }
            }
            s => parts.push(s),
        }
    }
    format!("{scheme}://{}", parts.join("/"))
}

fn clip(s: &str) -> String {
    s.chars().take(120).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn skill_uris() {
        assert!(is_skill_uri("skill://acme/refunds/SKILL.md"));
        assert!(is_skill_uri("skill://refunds/SKILL.md"));
        assert!(!is_skill_uri("skill:///SKILL.md"));
        assert!(!is_skill_uri("skill://refunds/README.md"));
        assert!(!is_skill_uri("file:///refunds/SKILL.md"));
        let p = pseudo_path("skill://acme/refunds/SKILL.md");
        assert_eq!(p.parent().and_then(|p| p.file_name()).unwrap(), "refunds");
    }

    #[test]
    fn entries_are_read_and_checked() {
        let skills = from_entries(vec![json!({
            "uri": "skill://a/SKILL.md",
            "frontmatter": {"name": "a", "description": "d"},
            "resources": [
                {"uri": "skill://a/SKILL.md", "digest": "sha256:00", "size": 3},
                {"uri": "skill://a/ref.md", "digest": "sha256:11", "size": 1}
            ]
        })])
        .unwrap();
        assert_eq!(skills[0].digest.as_deref(), Some("sha256:00"));
        assert_eq!(skills[0].size, Some(3));
        assert_eq!(skills[0].files.as_ref().unwrap().len(), 2);
        assert!(from_entries(vec![json!({"uri": 5})]).is_err());
        assert!(from_entries(vec![json!("x")]).is_err());
        assert!(from_entries(vec![json!({"uri": "u", "resources": 3})]).is_err());
        let dynamic = from_entries(vec![json!({"uri": "u", "resources": "dynamic"})]).unwrap();
        assert_eq!(dynamic[0].files, None);
    }

    #[test]
    fn digest_and_links_are_checked() {
        let body = "---\nname: refunds\ndescription: Refund things.\n---\nSee [the policy](ref/policy.md) and [gone](missing.md).\n";
        let served = ServedSkill {
            uri: "skill://acme/refunds/SKILL.md".into(),
            content: Ok(body.as_bytes().to_vec()),
            listed_name: Some("refunds".into()),
            listed_description: Some("Refund things.".into()),
            digest: Some(rmcp::model::sha256_digest(b"something else")),
            size: Some(body.len() as u64),
            files: Some(vec![
                "skill://acme/refunds/SKILL.md".into(),
                "skill://acme/refunds/ref/policy.md".into(),
            ]),
        };
        let (skill, findings, _) = audit(&served, &Settings::default());
        assert_eq!(skill.name, "refunds");
        let rules: Vec<Rule> = findings.iter().map(|f| f.rule).collect();
        assert_eq!(
            rules,
            vec![Rule::McpDigestMismatch, Rule::BrokenLink],
            "{findings:?}"
        );
        assert!(findings[1].message.contains("missing.md"));
        assert_eq!(findings[1].line, 5);
        let mut findings = findings;
        attach_sources(&mut findings, std::slice::from_ref(&served));
        assert!(findings[1].source.as_deref().unwrap().contains("[gone]"));

        let good = ServedSkill {
            digest: Some(rmcp::model::sha256_digest(body.as_bytes())),
            files: None,
            ..served.clone()
        };
        let (_, findings, _) = audit(&good, &Settings::default());
        assert!(findings.is_empty(), "{findings:?}");
    }

    #[test]
    fn name_must_match_the_last_segment_and_the_listing() {
        let body = "---\nname: other\ndescription: Refund things.\n---\n";
        let served = ServedSkill {
            listed_name: Some("refunds".into()),
            content: Ok(body.as_bytes().to_vec()),
            ..ServedSkill::new("skill://acme/refunds/SKILL.md".into())
        };
        let (_, findings, _) = audit(&served, &Settings::default());
        let rules: Vec<Rule> = findings.iter().map(|f| f.rule).collect();
        assert!(rules.contains(&Rule::NameDirectoryMismatch), "{findings:?}");
        assert!(
            rules.contains(&Rule::McpFrontmatterMismatch),
            "{findings:?}"
        );
    }

    #[test]
    fn unreadable_skills_are_invalid_with_a_finding() {
        let served = ServedSkill {
            content: Err("the server answered with error -32002: not found".into()),
            ..ServedSkill::new("skill://x/SKILL.md".into())
        };
        let (skill, findings, _) = audit(&served, &Settings::default());
        assert!(skill.invalid);
        assert_eq!(findings[0].rule, Rule::ReadError);
    }

    #[test]
    fn links_resolve_against_the_skill_folder() {
        assert_eq!(
            resolve("skill://a/b/SKILL.md", "ref/x.md"),
            "skill://a/b/ref/x.md"
        );
        assert_eq!(
            resolve("skill://a/b/SKILL.md", "./x.md"),
            "skill://a/b/x.md"
        );
        assert_eq!(
            resolve("skill://a/b/SKILL.md", "../c/x.md"),
            "skill://a/c/x.md"
        );
    }
}
