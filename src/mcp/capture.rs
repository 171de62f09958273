//! `skill-audit capture`: what a session found, written as a native profile.
//!
//! Keys come in a fixed order and every list is sorted and free of duplicates, so two captures
//! of the same server differ only where the server does (and in `captured_at`).

use serde::Serialize;
use std::borrow::Cow;
use std::time::{SystemTime, UNIX_EPOCH};

use super::Listing;
use crate::profile::CapturedServer;
use crate::profile::names::escaped;

/// A captured profile, in the order its keys are written.
#[derive(Debug, Serialize)]
pub(crate) struct Captured<'a> {
    pub name: &'a str,
    pub server: CapturedServer,
    pub protocol_version: &'a str,
    pub captured_at: String,
    /// With `--server NAME`: the lists, as that server's, so `NAME/tool` names meet them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub servers: Option<std::collections::BTreeMap<&'a str, Lists<'a>>>,
    #[serde(flatten)]
    pub lists: Option<Lists<'a>>,
    pub resource_templates: &'a [String],
}

/// What a server offers, each name written so that the profile matches exactly it (a
/// profile's entries may be globs; a server's names are literal).
#[derive(Debug, Serialize)]
pub(crate) struct Lists<'a> {
    pub tools: Vec<Cow<'a, str>>,
    pub resources: Vec<Cow<'a, str>>,
    pub prompts: Vec<Cow<'a, str>>,
}

/// `names` as profile entries that match them literally.
fn literal(names: &[String], tools: bool) -> Vec<Cow<'_, str>> {
    names.iter().map(|n| escaped(n, tools)).collect()
}

/// The profile JSON for `listing`: named `name`, else after the server (`serverInfo.name`);
/// with `nest`, its lists are written as those of the server `nest`.
pub(crate) fn profile_json(
    listing: &Listing,
    name: Option<&str>,
    nest: Option<&str>,
    now: SystemTime,
) -> String {
    let name =
        name.filter(|n| !n.trim().is_empty())
            .unwrap_or(if listing.server_name.trim().is_empty() {
                "mcp"
            } else {
                listing.server_name.as_str()
            });
    let captured = Captured {
        name,
        server: CapturedServer {
            name: Some(listing.server_name.clone()).filter(|n| !n.is_empty()),
            version: Some(listing.server_version.clone()).filter(|v| !v.is_empty()),
        },
        protocol_version: &listing.protocol_version,
        captured_at: rfc3339(now),
        servers: None,
        lists: None,
        resource_templates: &listing.resource_templates,
    };
    let lists = Lists {
        tools: literal(&listing.tools, true),
        resources: literal(&listing.resources, false),
        prompts: literal(&listing.prompts, false),
    };
    let captured = match nest {
        Some(server) => Captured {
            servers: Some([(server, lists)].into()),
            ..captured
        },
        None => Captured {
            lists: Some(lists),
            ..captured
        },
    };
    let mut text = serde_json::to_string_pretty(&captured).unwrap_or_default();
    text.push('\n');
    text
}

/// Why the lists cannot be nested under the server `name` (`--server NAME`), or `None`: the
/// profile is read back as `NAME/tool`, and a skill may name a tool of it `mcp__NAME__tool`
/// or `NAME:tool`, so a name that these would cut short, trim or read as a glob is misread.
pub(crate) fn unfit_server_name(name: &str) -> Option<String> {
    let why = if name.trim() != name {
        "it starts or ends with white space, which a profile trims".to_owned()
    } else if let Some(c) = name.chars().find(|c| "*?[]{}\\".contains(*c)) {
        format!("`{c}` is glob syntax in a profile's names")
    } else if name.contains('/') {
        "`/` ends a server's name in `NAME/tool`".to_owned()
    } else if name.contains(':') {
        "`:` ends a server's name in `NAME:tool`".to_owned()
    } else if name.contains("__") || name.ends_with('_') {
        "`mcp__NAME__tool` ends a server's name at its first `__`".to_owned()
    } else if name.contains('(') {
        "`(` starts a permission's arguments in a tool's name (`Bash(git:*)`)".to_owned()
    } else {
        return None;
    };
    Some(why)
}

/// `2026-09-30T12:34:56Z`: the time in UTC, to the second.
pub(crate) fn rfc3339(t: SystemTime) -> String {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn timestamps_are_rfc3339_utc() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        let t = UNIX_EPOCH + Duration::from_secs(951_782_400 + 3_661);
        assert_eq!(rfc3339(t), "2000-02-29T01:01:01Z");
        let t = UNIX_EPOCH + Duration::from_secs(1_790_000_000);
        assert_eq!(rfc3339(t), "2026-09-21T14:13:20Z");
    }

    #[test]
    fn names_that_are_glob_syntax_load_back_as_those_names() {
        let listing = Listing {
            tools: vec!["*".into(), "get[".into(), "q?".into()],
            resources: vec!["docs://a*[b]".into()],
            prompts: vec!["p*".into()],
            ..Listing::default()
        };
        for nest in [None, Some("srv")] {
            let text = profile_json(&listing, Some("x"), nest, UNIX_EPOCH);
            let p = crate::profile::parse(&text, std::path::Path::new("x.json"), "x.json")
                .unwrap_or_else(|e| panic!("{e}: {text}"));
            assert!(p.tools.contains("*") && p.tools.contains("get[") && p.tools.contains("q?"));
            assert!(
                !p.tools.contains("other") && !p.tools.contains("qz"),
                "{text}"
            );
            assert!(p.resources.contains("docs://a*[b]") && !p.resources.contains("docs://ab"));
            assert!(p.prompts.contains("p*") && !p.prompts.contains("px"));
        }
    }

    #[test]
    fn server_names_are_taken_when_they_read_back_as_written() {
        let listing = Listing {
            tools: vec!["echo".into(), "*".into()],
            ..Listing::default()
        };
        // Whether a capture nested under `name` meets its tools under every spelling, and
        // no other server's.
        let reads_back = |name: &str| {
            let text = profile_json(&listing, Some("x"), Some(name), UNIX_EPOCH);
            let Ok(p) = crate::profile::parse(&text, std::path::Path::new("x.json"), "x.json")
            else {
                return false;
            };
            let meets = |t: String| p.tools.contains(crate::profile::names::tool_of(&t));
            meets(format!("{name}/echo"))
                && meets(format!("mcp__{name}__echo"))
                && meets(format!("{name}:echo"))
                && meets(format!("{name}/*"))
                && !meets("other/echo".into())
                && !meets(format!("{name}/other"))
        };
        for name in [
            "github",
            "microsoft.docs.mcp",
            "my-server",
            "_x",
            "a b",
            "s@1",
        ] {
            assert_eq!(unfit_server_name(name), None, "{name}");
            assert!(reads_back(name), "{name}");
        }
        for name in ["*", "a/b", "x[", "a{b", "a:b", "a__b", "a_", "a(b", " a"] {
            assert!(unfit_server_name(name).is_some(), "{name}");
            assert!(!reads_back(name), "{name}");
        }
        for name in ["q?", "a "] {
            assert!(unfit_server_name(name).is_some(), "{name}");
        }
    }

    #[test]
    fn a_capture_is_a_loadable_profile() {
        let listing = Listing {
            label: "srv".into(),
            server_name: "everything".into(),
            server_version: "2.0.0".into(),
            protocol_version: "2025-06-18".into(),
            tools: vec!["add".into(), "echo".into()],
            resources: vec!["demo://a".into()],
            resource_templates: vec!["demo://t/{id}".into()],
            prompts: vec!["p".into()],
            ..Listing::default()
        };
        let text = profile_json(&listing, Some("prod"), None, UNIX_EPOCH);
        let keys: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("  \""))
            .map(|l| l.trim().split('"').nth(1).unwrap())
            .collect();
        assert_eq!(
            keys,
            [
                "name",
                "server",
                "protocol_version",
                "captured_at",
                "tools",
                "resources",
                "prompts",
                "resource_templates"
            ]
        );
        let p = crate::profile::parse(&text, std::path::Path::new("x.json"), "x.json").unwrap();
        assert_eq!(p.name, "prod");
        assert!(p.tools.contains("echo") && p.resources.contains("demo://a"));
        let unnamed = profile_json(&listing, None, None, UNIX_EPOCH);
        // Nested under a server, the same tools are `everything/echo`.
        let nested = profile_json(&listing, None, Some("everything"), UNIX_EPOCH);
        let n = crate::profile::parse(&nested, std::path::Path::new("x.json"), "x.json").unwrap();
        assert!(n.tools.contains("everything/echo") && n.tools.contains("mcp__everything__add"));
        assert!(!n.tools.contains("other/echo") && n.resources.contains("demo://a"));
        assert!(unnamed.contains("\"name\": \"everything\""), "{unnamed}");
        // Templates are kept apart: a template is not a resource a skill can name.
        assert!(text.contains("\"demo://t/{id}\""), "{text}");
        assert!(!p.resources.contains("demo://t/{id}"));
        // The loader reads the field (a wrong shape there is an error, not ignored).
        let bad = text.replace("\"demo://t/{id}\"", "1");
        let e = crate::profile::parse(&bad, std::path::Path::new("x.json"), "x.json").unwrap_err();
        assert!(e.message.contains("expected a name"), "{}", e.message);
    }
}
