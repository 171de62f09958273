//! Reading the files of served skills (`resources/read`) within the per-skill and
//! per-session bounds.

use serde_json::{Value, json};

use super::conn::{Conn, answered, thousands};
use super::{Error, MAX_FILES_PER_SKILL, MAX_RESOURCE_BYTES, MAX_SESSION_BYTES, skills};

/// Read every skill's SKILL.md, then every other file its listing names whose digest can be
/// verified, within [`MAX_FILES_PER_SKILL`] and [`MAX_SESSION_BYTES`]. A file listed by two
/// skills (a nested skill's files are also its parent's) is read once.
pub(super) async fn read_skills(
    conn: &mut Conn,
    skills: &mut [skills::ServedSkill],
) -> Result<(), Error> {
    use skills::FileRead;
    let mut budget = MAX_SESSION_BYTES;
    let over_budget = || {
        format!(
            "skill-audit reads at most {} MiB of resources per session",
            MAX_SESSION_BYTES >> 20
        )
    };
    let mut done: std::collections::HashMap<String, FileRead> = std::collections::HashMap::new();
    for skill in skills.iter_mut() {
        if budget == 0 {
            skill.content = Err(over_budget());
            continue;
        }
        skill.content = read_resource(conn, &skill.uri).await?;
        if let Ok(bytes) = &skill.content {
            budget = budget.saturating_sub(bytes.len() as u64);
            done.insert(skill.uri.clone(), file_read(bytes));
        }
    }
    for skill in skills.iter_mut() {
        let Some(files) = skill.files.as_mut() else {
            continue;
        };
        let mut reads = 0;
        for file in files
            .iter_mut()
            .filter(|f| f.uri != skill.uri && f.verifiable())
        {
            if let Some(known) = done.get(&file.uri) {
                file.read = known.clone();
                continue;
            }
            if reads == MAX_FILES_PER_SKILL {
                file.read = FileRead::Skipped(format!(
                    "skill-audit reads at most {} files per skill",
                    thousands(MAX_FILES_PER_SKILL)
                ));
                continue;
            }
            if budget == 0 {
                file.read = FileRead::Skipped(over_budget());
                continue;
            }
            // A file listed as too large is not fetched only to be refused.
            if let Some(size) = file.size.filter(|s| *s > MAX_RESOURCE_BYTES as u64) {
                let size = usize::try_from(size).unwrap_or(usize::MAX);
                file.read = FileRead::Failed(format!("the listing says {}", too_big(size)));
                continue;
            }
            reads += 1;
            file.read = match read_resource(conn, &file.uri).await? {
                Ok(bytes) => {
                    budget = budget.saturating_sub(bytes.len() as u64);
                    file_read(&bytes)
                }
                Err(why) => FileRead::Failed(why),
            };
            done.insert(file.uri.clone(), file.read.clone());
        }
    }
    Ok(())
}

fn file_read(bytes: &[u8]) -> skills::FileRead {
    skills::FileRead::Read {
        digest: rmcp::model::sha256_digest(bytes),
        size: bytes.len() as u64,
    }
}

/// Read one resource: its bytes, or why the server would not give them. A failed connection is
/// an error; an error answer for this resource only is the resource's problem.
async fn read_resource(conn: &mut Conn, uri: &str) -> Result<Result<Vec<u8>, String>, Error> {
    let method = "resources/read";
    let result = match conn.call(method, json!({ "uri": uri })).await? {
        Ok(r) => r,
        Err(a) => return Ok(Err(answered(a.code, &a.message))),
    };
    let Some(contents) = result.get("contents").and_then(Value::as_array) else {
        return Err(conn.error(method, format!("{uri}: the result has no `contents` list")));
    };
    let entry = contents
        .iter()
        .find(|c| c.get("uri").and_then(Value::as_str) == Some(uri))
        .or_else(|| contents.first());
    let Some(entry) = entry else {
        return Ok(Err("the server returned no contents for it".into()));
    };
    if let Some(text) = entry.get("text").and_then(Value::as_str) {
        if text.len() > MAX_RESOURCE_BYTES {
            return Ok(Err(too_big(text.len())));
        }
        return Ok(Ok(text.as_bytes().to_vec()));
    }
    if let Some(blob) = entry.get("blob").and_then(Value::as_str) {
        use base64::Engine as _;
        if blob.len() / 4 * 3 > MAX_RESOURCE_BYTES + 3 {
            return Ok(Err(too_big(blob.len() / 4 * 3)));
        }
        return Ok(base64::engine::general_purpose::STANDARD
            .decode(blob.trim())
            .map_err(|e| format!("its `blob` is not valid base64: {e}")));
    }
    Err(conn.error(
        method,
        format!("{uri}: the content has neither `text` nor `blob`"),
    ))
}

fn too_big(len: usize) -> String {
    format!(
        "it is {} bytes; skill-audit reads at most {} MiB per resource",
        thousands(len),
        MAX_RESOURCE_BYTES >> 20
    )
}
