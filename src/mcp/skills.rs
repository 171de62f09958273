//! Skills served over MCP (SEP-2640): which skills a server lists, and auditing each one like
//! a local `SKILL.md`.
//!
//! A served skill's report path is its URI (`skill://acme/billing/refunds/SKILL.md`). The last
//! segment before `SKILL.md` plays the folder's part, so `name` must match it (SA207). Links
//! in the body are checked against the files the server lists for the skill, never against
//! the local file system: a host treats reading an unlisted file as a verification failure
//! (SA231). The digest and size that `skills/list` states for every file of the skill are
//! checked against the bytes `resources/read` returned (SA801; a file that cannot be read is
//! SA100), and the frontmatter that `skills/list` repeats is compared with the file's (SA802).

use serde_json::Value;
use std::path::{Path, PathBuf};

use crate::config::Settings;
use crate::diagnostic::{Sink, Suppression};
use crate::files::{Files, Lookup};
use crate::model::Skill;
use crate::parse;
use crate::rules::{self, mcp::Served};

/// One skill a server serves, and what the server states about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ServedSkill {
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
    /// Every file `skills/list` lists for the skill, its `SKILL.md` included; `None` when it
    /// lists none (a dynamic skill, or one found through `resources/list`).
    pub files: Option<Vec<ListedFile>>,
}

/// One file `skills/list` lists for a skill, and what reading it gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ListedFile {
    pub uri: String,
    /// The digest stated for it.
    pub digest: Option<String>,
    /// The size stated for it.
    pub size: Option<u64>,
    pub read: FileRead,
}

impl ListedFile {
    /// Whether the stated digest can verify anything (else there is no point reading the file).
    pub(crate) fn verifiable(&self) -> bool {
        self.digest
            .as_deref()
            .is_some_and(rmcp::model::is_sha256_digest)
    }
}

/// What `resources/read` gave for a listed file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum FileRead {
    /// Not read: the skill's own `SKILL.md` (whose bytes are [`ServedSkill::content`]), or a
    /// file whose stated digest cannot verify anything.
    NotRead,
    /// The `sha256:` digest and the size of the bytes returned.
    Read { digest: String, size: u64 },
    /// The read failed, or the file is too large: why.
    Failed(String),
    /// Not read because of a limit on the session: which.
    Skipped(String),
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
pub(crate) fn from_entries(entries: Vec<Value>) -> Result<Vec<ServedSkill>, String> {
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
                let mut listed = Vec::with_capacity(files.len());
                for f in files {
                    let Some(furi) = f.get("uri").and_then(Value::as_str) else {
                        return Err(format!(
                            "{}: an entry of `resources` has no string `uri`",
                            skill.uri
                        ));
                    };
                    let digest = match f.get("digest") {
                        None | Some(Value::Null) => None,
                        Some(Value::String(d)) => Some(d.clone()),
                        Some(_) => return Err(format!("{furi}: `digest` is not a string")),
                    };
                    let size = match f.get("size") {
                        None | Some(Value::Null) => None,
                        Some(v) => Some(v.as_u64().ok_or_else(|| {
                            format!("{furi}: `size` is not a whole number of bytes")
                        })?),
                    };
                    if furi == skill.uri {
                        skill.digest.clone_from(&digest);
                        skill.size = size;
                    }
                    listed.push(ListedFile {
                        uri: furi.to_owned(),
                        digest,
                        size,
                        read: FileRead::NotRead,
                    });
                }
                skill.files = Some(listed);
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
pub(crate) fn from_resources(resources: &[String]) -> Vec<ServedSkill> {
    resources
        .iter()
        .filter(|u| is_skill_uri(u))
        .map(|u| ServedSkill::new(u.clone()))
        .collect()
}

/// `skill://<path>/SKILL.md` with a non-empty path.
pub(crate) fn is_skill_uri(uri: &str) -> bool {
    uri.strip_prefix("skill://")
        .and_then(|rest| rest.strip_suffix("/SKILL.md"))
        .is_some_and(|path| !path.is_empty() && !path.ends_with('/'))
}

/// The path a served skill is known by inside the pipeline: the URI itself, whose parent's
/// last segment is the skill's folder name. It names no local file (links are checked
/// against the server's list, and source lines come from the served bytes).
pub(crate) fn pseudo_path(uri: &str) -> PathBuf {
    PathBuf::from(uri.split(['?', '#']).next().unwrap_or(uri))
}

/// Audit one served skill like a local `SKILL.md`: parse it, run the per-file rules, check the
/// stated digest and size, the listed frontmatter and the body's links.
pub(crate) fn audit(
    served: &ServedSkill,
    settings: &Settings,
) -> (Skill, Vec<crate::Finding>, Vec<Suppression>) {
    let path = served.uri.as_str();
    let fs_path = pseudo_path(path);
    let mut sink = Sink::new(path);
    check_files(served, &mut sink);
    let bytes = match &served.content {
        Ok(b) => b,
        Err(why) => {
            rules::file::served_unreadable(&mut sink, why);
            let folder = crate::paths::folder_name_text(&fs_path);
            let skill = Skill::invalid(folder, path.to_owned(), fs_path);
            return (skill, sink.findings, sink.suppressions);
        }
    };
    check_digest(served, bytes, &mut sink);
    let mut parsed = parse::skill::parse(bytes, path, &fs_path, &mut sink);
    // A served skill's other files are not read for what they run, so a declared need that
    // only a script names would look unused (SA314): known only when it has no other file.
    let alone = served
        .files
        .as_ref()
        .is_some_and(|files| files.iter().all(|f| f.uri == served.uri));
    if !alone {
        parsed.skill.fields.unnamed.clear();
    }
    let products = crate::evaluate::declare_fields(&mut parsed.skill);
    parsed.skill.fields.undefined_tools = rules::deps::check_skill_tools(
        parsed.root.as_ref(),
        parsed.skill.tools.as_deref(),
        &products,
        &mut sink,
    );
    // What the body refers to is held to the server's list of the skill's files, not to the
    // local file system (and to nothing when the server lists no files).
    let listed = Listed { served };
    let dir = fs_path.parent().unwrap_or(Path::new(""));
    rules::references::check(&parsed.body, bytes, dir, &listed, &mut sink);
    rules::spec::check(&parsed, settings, &mut sink);
    if !parsed.skill.invalid {
        compare_frontmatter(served, &parsed.skill, &mut sink);
    }
    (parsed.skill, sink.findings, sink.suppressions)
}

/// SA801: the SKILL.md's bytes do not have the digest or size the server states, or the
/// stated digest cannot verify them.
fn check_digest(served: &ServedSkill, bytes: &[u8], sink: &mut Sink) {
    let actual = rmcp::model::sha256_digest(bytes);
    let size = bytes.len();
    match &served.digest {
        // A full listing that states no digest for the SKILL.md leaves nothing to verify.
        None if served.files.is_some() => rules::mcp::skill_digest_missing(sink),
        None => {
            if let Some(stated) = served.size.filter(|s| *s != size as u64) {
                rules::mcp::skill_size_mismatch(sink, size, stated);
            }
        }
        Some(stated) => verify(
            sink,
            Served::SkillMd,
            stated,
            served.size,
            &actual,
            size as u64,
        ),
    }
}

/// Report what is wrong when `stated` (and `stated_size`) should describe the bytes of `file`,
/// whose digest is `actual` and length `size`: a malformed digest, a different digest or a
/// different size.
fn verify(
    sink: &mut Sink,
    file: Served,
    stated: &str,
    stated_size: Option<u64>,
    actual: &str,
    size: u64,
) {
    if !rmcp::model::is_sha256_digest(stated) {
        rules::mcp::digest_malformed(sink, file, stated);
        return;
    }
    let wrong_size = stated_size.filter(|s| *s != size);
    if stated != actual {
        rules::mcp::digest_mismatch(sink, file, stated, actual, wrong_size.map(|s| (size, s)));
    } else if let Some(listed) = wrong_size {
        rules::mcp::size_mismatch(sink, file, size, listed);
    }
}

/// The files other than the SKILL.md: SA801 for a digest that is missing, malformed or wrong
/// (or a wrong size), SA100 for a file that could not be read, and one SA100 for the files a
/// limit left unread. All are reported at the top of the SKILL.md and name the file's URI.
fn check_files(served: &ServedSkill, sink: &mut Sink) {
    let Some(files) = &served.files else { return };
    let mut skipped: Vec<(&str, &str)> = Vec::new();
    for file in files.iter().filter(|f| f.uri != served.uri) {
        let what = Served::File(&file.uri);
        let Some(stated) = &file.digest else {
            rules::mcp::file_digest_missing(sink, &file.uri);
            continue;
        };
        if !file.verifiable() {
            rules::mcp::digest_malformed(sink, what, stated);
            continue;
        }
        match &file.read {
            FileRead::Read { digest, size } => {
                verify(sink, what, stated, file.size, digest, *size);
            }
            FileRead::Failed(why) => rules::file::served_file_unreadable(sink, &file.uri, why),
            FileRead::Skipped(limit) => skipped.push((&file.uri, limit)),
            // Only before a session has read the files.
            FileRead::NotRead => {}
        }
    }
    if let [(first, limit), ..] = skipped.as_slice() {
        rules::file::served_files_skipped(sink, first, limit, skipped.len());
    }
}

/// SA802: `skills/list` repeats a `name` or `description` that differs from the file's.
fn compare_frontmatter(served: &ServedSkill, skill: &Skill, sink: &mut Sink) {
    if let Some(listed) = &served.listed_name
        && listed.trim() != skill.name
    {
        rules::mcp::listed_name_differs(sink, skill.name_pos, listed, &skill.name);
    }
    if let (Some(listed), Some(actual)) = (&served.listed_description, &skill.description)
        && listed.trim() != actual.trim()
    {
        rules::mcp::listed_description_differs(sink, skill.name_pos);
    }
}

/// The URI a relative link in the skill at `skill_uri` points at.
/// The files a server lists for one served skill, as the rules ask about them.
struct Listed<'s> {
    served: &'s ServedSkill,
}

impl Listed<'_> {
    /// The URI `path` (a path below the skill's pseudo path) stands for.
    fn uri(&self, path: &Path) -> Option<String> {
        let dir = pseudo_path(&self.served.uri);
        let rel = path.strip_prefix(dir.parent()?).ok()?;
        Some(rules::references::resolve_uri(
            &self.served.uri,
            &rel.to_string_lossy(),
        ))
    }
}

impl Files for Listed<'_> {
    fn lookup(&self, path: &Path) -> Lookup {
        let (Some(files), Some(target)) = (&self.served.files, self.uri(path)) else {
            return Lookup::Unknown;
        };
        // Targets come percent-decoded; so are the listed URIs before comparing.
        let decoded = |f: &ListedFile| parse::markdown::percent_decode(&f.uri);
        if files
            .iter()
            .any(|f| f.uri == target || decoded(f) == target)
        {
            return Lookup::File;
        }
        let folder = format!("{target}/");
        if files.iter().any(|f| decoded(f).starts_with(&folder)) {
            Lookup::Folder
        } else {
            Lookup::Missing
        }
    }

    fn names_in(&self, _: &Path) -> Option<Vec<String>> {
        None
    }

    fn listed_for(&self) -> Option<&str> {
        Some(&self.served.uri)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;
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
                listed("skill://acme/refunds/SKILL.md", body.as_bytes()),
                listed("skill://acme/refunds/ref/policy.md", b"policy"),
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
        let texts: crate::report::lines::Texts = [(served.uri.clone(), body.as_bytes().to_vec())]
            .into_iter()
            .collect();
        crate::report::lines::attach(&mut findings, &texts, &Default::default());
        assert!(findings[1].source.as_deref().unwrap().contains("[gone]"));

        let good = ServedSkill {
            digest: Some(rmcp::model::sha256_digest(body.as_bytes())),
            files: None,
            ..served.clone()
        };
        let (_, findings, _) = audit(&good, &Settings::default());
        assert!(findings.is_empty(), "{findings:?}");
    }

    /// A file listed with the digest and size of `bytes`, read as `bytes`.
    fn listed(uri: &str, bytes: &[u8]) -> ListedFile {
        ListedFile {
            uri: uri.into(),
            digest: Some(rmcp::model::sha256_digest(bytes)),
            size: Some(bytes.len() as u64),
            read: FileRead::Read {
                digest: rmcp::model::sha256_digest(bytes),
                size: bytes.len() as u64,
            },
        }
    }

    const BODY: &str = "---\nname: kit\ndescription: Many files.\n---\nSee [a](a.md), [my notes](my%20notes.md) and [x](x.md).\n";

    fn kit(files: Vec<ListedFile>) -> ServedSkill {
        let mut all = vec![listed("skill://kit/SKILL.md", BODY.as_bytes())];
        all.extend(files);
        ServedSkill {
            content: Ok(BODY.as_bytes().to_vec()),
            digest: all[0].digest.clone(),
            size: all[0].size,
            files: Some(all),
            ..ServedSkill::new("skill://kit/SKILL.md".into())
        }
    }

    fn findings_of(served: &ServedSkill) -> Vec<(Rule, String)> {
        let (_, findings, _) = audit(served, &Settings::default());
        findings.into_iter().map(|f| (f.rule, f.message)).collect()
    }

    #[test]
    fn every_listed_file_is_verified() {
        let ok = [
            listed("skill://kit/a.md", b"a"),
            listed("skill://kit/my%20notes.md", b"n"),
            listed("skill://kit/x.md", b"x"),
        ];
        assert_eq!(findings_of(&kit(ok.to_vec())), []);

        // A wrong digest, a wrong size with the right digest, a failed read, a file a limit
        // left unread, a missing digest and a malformed one: one finding each, naming the URI.
        let mut wrong = listed("skill://kit/a.md", b"a");
        wrong.read = listed("", b"b").read;
        let mut sized = listed("skill://kit/my%20notes.md", b"n");
        sized.size = Some(7);
        let mut failed = listed("skill://kit/x.md", b"x");
        failed.read = FileRead::Failed("the server answered with error -32002: gone".into());
        let mut skipped = listed("skill://kit/big/1.bin", b"1");
        skipped.read = FileRead::Skipped("skill-audit reads at most 1,000 files per skill".into());
        let mut skipped2 = skipped.clone();
        skipped2.uri = "skill://kit/big/2.bin".into();
        let mut missing = listed("skill://kit/m.md", b"m");
        missing.digest = None;
        let mut bad = listed("skill://kit/b.md", b"b");
        bad.digest = Some("sha256:ABC".into());
        let found = findings_of(&kit(vec![
            wrong, sized, failed, skipped, skipped2, missing, bad,
        ]));
        let rules: Vec<Rule> = found.iter().map(|(r, _)| *r).collect();
        assert_eq!(
            rules,
            [
                Rule::McpDigestMismatch,
                Rule::McpDigestMismatch,
                Rule::ReadError,
                Rule::McpDigestMismatch,
                Rule::McpDigestMismatch,
                Rule::ReadError,
            ],
            "{found:?}"
        );
        let says = |i: usize, parts: &[&str]| {
            for p in parts {
                assert!(found[i].1.contains(p), "{:?} lacks {p}", found[i]);
            }
        };
        says(
            0,
            &["`skill://kit/a.md`", &rmcp::model::sha256_digest(b"b")],
        );
        says(
            1,
            &[
                "`skill://kit/my%20notes.md`",
                "wrong size",
                "1 bytes",
                "says 7",
            ],
        );
        says(2, &["cannot read `skill://kit/x.md`", "-32002: gone"]);
        says(3, &["`skill://kit/m.md`", "without a `sha256:` digest"]);
        says(
            4,
            &["`sha256:ABC`", "`skill://kit/b.md`", "64 lowercase hex"],
        );
        says(
            5,
            &[
                "2 files",
                "1,000 files per skill",
                "`skill://kit/big/1.bin`",
            ],
        );
    }

    #[test]
    fn links_must_name_listed_files() {
        // `x.md` is not listed: reading it would be a verification failure.
        let found = findings_of(&kit(vec![
            listed("skill://kit/a.md", b"a"),
            listed("skill://kit/my%20notes.md", b"n"),
        ]));
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Rule::BrokenLink);
        assert!(found[0].1.contains("skill://kit/x.md"), "{found:?}");
    }

    #[test]
    fn a_listing_without_the_skill_md_cannot_verify_it() {
        let mut served = kit(vec![
            listed("skill://kit/a.md", b"a"),
            listed("skill://kit/my%20notes.md", b"n"),
            listed("skill://kit/x.md", b"x"),
        ]);
        served.files.as_mut().unwrap().remove(0);
        served.digest = None;
        served.size = None;
        let found = findings_of(&served);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, Rule::McpDigestMismatch);
        assert!(found[0].1.contains("no `sha256:` digest for this SKILL.md"));
        // A wrong size with the right digest is a finding for the SKILL.md too.
        let mut served = kit(Vec::new());
        served.files = None;
        served.size = Some(1);
        let found = findings_of(&served);
        assert_eq!(found[0].0, Rule::McpDigestMismatch, "{found:?}");
        assert!(found[0].1.contains("wrong size"), "{found:?}");
    }

    #[test]
    fn listed_digests_of_every_file_are_kept() {
        let skills = from_entries(vec![json!({
            "uri": "skill://a/SKILL.md",
            "resources": [
                {"uri": "skill://a/SKILL.md", "digest": "sha256:00"},
                {"uri": "skill://a/ref.md", "digest": "sha256:11", "size": 1},
                {"uri": "skill://a/raw.md"}
            ]
        })])
        .unwrap();
        let files = skills[0].files.as_ref().unwrap();
        assert_eq!(files[1].digest.as_deref(), Some("sha256:11"));
        assert_eq!(files[1].size, Some(1));
        assert_eq!(files[2].digest, None);
        assert!(files.iter().all(|f| f.read == FileRead::NotRead));
        assert!(!files[1].verifiable(), "sha256:11 is malformed");
        let bad = from_entries(vec![json!({
            "uri": "skill://a/SKILL.md",
            "resources": [{"uri": "skill://a/ref.md", "digest": 5}]
        })]);
        assert!(bad.unwrap_err().contains("skill://a/ref.md"));
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
}
