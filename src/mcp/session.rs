//! One session: what a server lists (tools, resources, templates, prompts, skills), in the
//! order the protocol asks for them.

use std::sync::{Arc, Mutex};

use super::conn::{Conn, connect};
use super::resources::read_skills;
use super::{Error, Listing, Server, Settings, skills};
use crate::report::text::visible;
use crate::words::Count;

pub(super) async fn run(
    server: &Server,
    label: &str,
    settings: &Settings,
    want_skills: bool,
) -> Result<Listing, Error> {
    let mut conn = Conn {
        label: label.to_owned(),
        timeout: settings.timeout,
        client: None,
        child: None,
        group: None,
        fault: Arc::new(Mutex::new(None)),
    };
    let result = talk(&mut conn, server, settings, want_skills).await;
    conn.close().await;
    result
}

async fn talk(
    conn: &mut Conn,
    server: &Server,
    settings: &Settings,
    want_skills: bool,
) -> Result<Listing, Error> {
    connect(conn, server, settings).await?;
    let Some(info) = conn.client.as_ref().and_then(|c| c.peer_info()) else {
        return Err(conn.error("initialize", "the server sent no initialize result"));
    };
    let caps = &info.capabilities;
    let (has_tools, has_resources, has_prompts) = (
        caps.tools.is_some(),
        caps.resources.is_some(),
        caps.prompts.is_some(),
    );
    let has_skills = caps.supports_skills();
    let (server_name, server_version) = info
        .server_info
        .as_ref()
        .map(|i| (i.name.clone(), i.version.clone()))
        .unwrap_or_default();
    let mut listing = Listing {
        label: conn.label.clone(),
        server_name,
        server_version,
        protocol_version: info.protocol_version.to_string(),
        ..Listing::default()
    };
    if settings.verbose {
        say!(
            "skill-audit: MCP server `{}`: {} {} (protocol {}); lists: {}",
            visible(&conn.label),
            visible(&listing.server_name),
            visible(&listing.server_version),
            visible(&listing.protocol_version),
            [
                (has_tools, "tools"),
                (has_resources, "resources"),
                (has_prompts, "prompts"),
                (has_skills, "skills"),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, n)| *n)
            .collect::<Vec<_>>()
            .join(", ")
        );
    }
    if has_tools {
        listing.tools = conn.names("tools/list", "tools", "name").await?;
    }
    if has_resources {
        listing.resources = conn.names("resources/list", "resources", "uri").await?;
        let (method, key) = ("resources/templates/list", "resourceTemplates");
        match conn.list_if_offered(method, key).await? {
            Some(items) => {
                listing.resource_templates = conn.names_of(method, key, "uriTemplate", &items)?;
            }
            None if settings.verbose => say!(
                "skill-audit: MCP server `{}`: {method}: not offered (method not found)",
                visible(&conn.label)
            ),
            None => {}
        }
    }
    if has_prompts {
        listing.prompts = conn.names("prompts/list", "prompts", "name").await?;
    }
    if want_skills {
        listing.skills_extension = has_skills;
        listing.skills = if has_skills {
            let entries = conn.list("skills/list", "skills").await?;
            skills::from_entries(entries).map_err(|m| conn.error("skills/list", m))?
        } else {
            skills::from_resources(&listing.resources)
        };
        read_skills(conn, &mut listing.skills).await?;
    }
    if settings.verbose {
        say!(
            "skill-audit: MCP server `{}`: {}, {}, {}, {}{}",
            visible(&conn.label),
            Count(listing.tools.len(), "tool"),
            Count(listing.resources.len(), "resource"),
            Count(listing.resource_templates.len(), "resource template"),
            Count(listing.prompts.len(), "prompt"),
            if want_skills {
                let files = listing
                    .skills
                    .iter()
                    .flat_map(|s| s.files.iter().flatten())
                    .filter(|f| matches!(f.read, skills::FileRead::Read { .. }))
                    .count();
                format!(
                    ", {}, {files} of their other files read",
                    Count(listing.skills.len(), "skill")
                )
            } else {
                String::new()
            }
        );
    }
    Ok(listing)
}
