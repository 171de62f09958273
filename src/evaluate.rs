//! Stage 3: evaluate what each skill needs against each profile.

use serde::{Deserialize, Serialize};

use crate::model::{DepKind, Requirements, Skill};
use crate::profile::Profile;

/// A skill's standing in one profile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Every requirement is met.
    Available,
    /// Something required is missing.
    Unavailable,
    /// The skill declares nothing to check.
    Undeclared,
    /// The skill's frontmatter or dependencies could not be read.
    Invalid,
}

impl Status {
    pub const ALL: [Status; 4] = [
        Status::Available,
        Status::Unavailable,
        Status::Undeclared,
        Status::Invalid,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Available => "available",
            Status::Unavailable => "unavailable",
            Status::Undeclared => "undeclared",
            Status::Invalid => "invalid",
        }
    }
}

/// The result of evaluating one skill against one profile.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Availability {
    pub status: Status,
    /// `all` entries not available (tools, then resources, then prompts).
    #[serde(default, skip_serializing_if = "skip_lists")]
    pub missing: Vec<String>,
    /// Each `any` group none of whose entries is available.
    #[serde(default, skip_serializing_if = "skip_lists")]
    pub unmet_any: Vec<Vec<String>>,
    /// One line for people.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

// `missing` and `unmet_any` are always present on unavailable entries (bots can rely on them)
// and omitted elsewhere; serde cannot see the status here, so emptiness decides and
// `Availability::unavailable` guarantees a non-empty list.
fn skip_lists<T>(v: &[T]) -> bool {
    v.is_empty()
}

impl Availability {
    pub fn of(status: Status, reason: Option<String>) -> Self {
        Availability {
            status,
            missing: Vec::new(),
            unmet_any: Vec::new(),
            reason,
        }
    }
}

/// Evaluate requirements against a profile.
pub fn requirements(req: &Requirements, profile: &Profile) -> Availability {
    let mut missing = Vec::new();
    let mut unmet_any = Vec::new();
    let mut parts = Vec::new();
    for kind in DepKind::ALL {
        let group = req.group(kind);
        let names = profile.names(kind);
        let miss: Vec<String> = group
            .all
            .iter()
            .filter(|n| !names.contains(n))
            .cloned()
            .collect();
        if !miss.is_empty() {
            parts.push(format!(
                "missing {} {}",
                plural(kind, miss.len()),
                quote_list(&miss)
            ));
        }
        missing.extend(miss);
        if let Some(any) = &group.any
            && !any.is_empty()
            && !any.iter().any(|n| names.contains(n))
        {
            parts.push(format!(
                "no {} of {} is available",
                kind.noun(),
                quote_list(any)
            ));
            unmet_any.push(any.clone());
        }
    }
    if parts.is_empty() {
        Availability::of(Status::Available, None)
    } else {
        Availability {
            status: Status::Unavailable,
            missing,
            unmet_any,
            reason: Some(parts.join("; ")),
        }
    }
}

/// Evaluate a skill against a profile, covering invalid and undeclared skills.
pub fn skill(skill: &Skill, profile: &Profile) -> Availability {
    if skill.invalid {
        return Availability::of(
            Status::Invalid,
            Some("the frontmatter could not be read".into()),
        );
    }
    if skill.requirements_invalid {
        return Availability::of(
            Status::Invalid,
            Some("the declared dependencies could not be read".into()),
        );
    }
    if skill.dependencies.is_empty() {
        return Availability::of(Status::Undeclared, None);
    }
    requirements(&skill.dependencies, profile)
}

fn plural(kind: DepKind, n: usize) -> &'static str {
    match (kind, n) {
        (DepKind::Tools, 1) => "tool",
        (DepKind::Tools, _) => "tools",
        (DepKind::Resources, 1) => "resource",
        (DepKind::Resources, _) => "resources",
        (DepKind::Prompts, 1) => "prompt",
        (DepKind::Prompts, _) => "prompts",
    }
}

fn quote_list(names: &[String]) -> String {
    names
        .iter()
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Group;

    fn req(all: &[&str], any: Option<&[&str]>) -> Requirements {
        Requirements {
            tools: Group {
                all: all.iter().map(|s| s.to_string()).collect(),
                any: any.map(|a| a.iter().map(|s| s.to_string()).collect()),
            },
            ..Requirements::default()
        }
    }

    #[test]
    fn available_when_all_and_one_of_any() {
        let p = Profile::from_names(
            "prod",
            "p.json",
            &["get_order", "dispute_chargeback_v2"],
            &[],
            &[],
        )
        .unwrap();
        let a = requirements(
            &req(
                &["get_order"],
                Some(&["dispute_chargeback", "dispute_chargeback_v2"]),
            ),
            &p,
        );
        assert_eq!(a.status, Status::Available);
        assert!(a.missing.is_empty() && a.reason.is_none());
    }

    #[test]
    fn unavailable_lists_missing_and_unmet_any() {
        let p = Profile::from_names("staging", "p.json", &["get_order"], &[], &[]).unwrap();
        let a = requirements(
            &req(&["get_order", "get_check_details"], Some(&["a", "b"])),
            &p,
        );
        assert_eq!(a.status, Status::Unavailable);
        assert_eq!(a.missing, ["get_check_details"]);
        assert_eq!(a.unmet_any, [vec!["a".to_string(), "b".to_string()]]);
        assert_eq!(
            a.reason.as_deref(),
            Some("missing tool `get_check_details`; no tool of `a`, `b` is available")
        );
    }

    #[test]
    fn resources_and_prompts_are_checked_too() {
        let p = Profile::from_names("p", "p.json", &[], &["docs://a"], &["summarise"]).unwrap();
        let mut r = Requirements::default();
        r.resources.all = vec!["docs://a".into(), "docs://b".into()];
        r.prompts.any = Some(vec!["summarize".into(), "summarise".into()]);
        let a = requirements(&r, &p);
        assert_eq!(a.missing, ["docs://b"]);
        assert!(a.unmet_any.is_empty());
    }
}
