//! Parse and per-file rules: one file's bytes turned into its model and the findings that
//! need only that file, with a panic contained to that file.

use std::panic::{AssertUnwindSafe, catch_unwind};

use super::{FileOutput, Parsed};
use crate::boundary::Boundary;
use crate::config::Settings;
use crate::diagnostic::Sink;
use crate::discover::Candidate;
use crate::files::Files;
use crate::model::Kind;
use crate::model::{Agent, Skill};
use crate::parse;
use crate::rules;

/// Run `work` for `c`, turning a panic into an `internal-error` finding on that file.
pub(super) fn contained(c: &Candidate, work: impl FnOnce() -> FileOutput) -> FileOutput {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(r) => r,
        Err(panic) => {
            let f = rules::file::internal_error(&c.path, &panic_message(panic.as_ref()));
            FileOutput::new(c, placeholder(c), vec![f], Vec::new())
        }
    }
}

/// What a caught panic says, for the finding or the log that reports it.
pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown failure".into())
}

/// An invalid entry for a file that could not be processed, so it still shows in the report.
pub(super) fn placeholder(c: &Candidate) -> Parsed {
    match c.kind {
        Kind::Skill { .. } => Parsed::Skill(Box::new(Skill::invalid(
            crate::paths::folder_name_text(&c.fs_path),
            c.path.clone(),
            c.fs_path.clone(),
        ))),
        Kind::Agent(_) => {
            let file = crate::paths::file_name_text(&c.fs_path);
            let stem = parse::agent::stem(&file).to_owned();
            Parsed::Agent(Box::new(Agent {
                name: stem.clone(),
                stem,
                path: c.path.clone(),
                fs_path: c.fs_path.clone(),
                invalid: true,
                ..Agent::default()
            }))
        }
        Kind::Manifest(_) => Parsed::Manifests(Vec::new()),
    }
}

/// One file from its text rather than from the disk (an editor's unsaved buffer), checked as
/// [`process`] checks a file read from the tree, with `files` answering what its body refers
/// to; a panic becomes an `internal-error` finding.
pub(crate) fn check_text(
    c: &Candidate,
    bytes: &[u8],
    settings: &Settings,
    boundary: &Boundary,
    files: &dyn Files,
) -> FileOutput {
    let mut out = contained(c, || {
        let mut sink = Sink::new(&c.path);
        sink.source = bytes;
        file_name_rules(c, files, &mut sink);
        let parsed = parse_and_check(c, bytes, settings, boundary, files, &mut sink);
        FileOutput::new(c, parsed, sink.findings, sink.suppressions)
    });
    out.path = c.path.clone();
    out
}

/// Parse one file's bytes by its kind and run the rules that need only that file.
pub(super) fn parse_and_check(
    c: &Candidate,
    bytes: &[u8],
    settings: &Settings,
    boundary: &Boundary,
    files: &dyn Files,
    sink: &mut Sink,
) -> Parsed {
    match c.kind {
        Kind::Skill { .. } => {
            let mut parsed = parse::skill::parse(bytes, &c.path, &c.fs_path, sink);
            let products = crate::evaluate::declare_fields(&mut parsed.skill);
            let uses = std::mem::take(&mut parsed.uses);
            crate::evaluate::declare_inferred(&mut parsed.skill, uses);
            parsed.skill.fields.undefined_tools = rules::deps::check_skill_tools(
                parsed.root.as_ref(),
                parsed.skill.tools.as_deref(),
                &products,
                sink,
            );
            let dir = c.fs_path.parent().unwrap_or(std::path::Path::new(""));
            rules::references::check(&parsed.body, bytes, dir, files, sink);
            rules::spec::check(&parsed, settings, sink);
            settings.policies.check_skill(parsed.root.as_ref(), sink);
            parse::hooks::load_skill(&mut parsed.skill, boundary, sink);
            rules::deps::check_skill_hooks(&parsed.skill, boundary, sink);
            if let Some(root) = &parsed.root {
                rules::host::check_skill_model(root, sink);
            }
            Parsed::Skill(Box::new(parsed.skill))
        }
        Kind::Agent(flavor) => {
            match parse::agent::parse(bytes, &c.path, &c.fs_path, flavor, sink) {
                Some(parsed) => {
                    rules::agent::check(&parsed, files, sink);
                    settings
                        .policies
                        .check_agent(&parsed.agent, parsed.root.as_ref(), sink);
                    if let Some(root) = &parsed.root {
                        let a = &parsed.agent;
                        if let Some(hooks) = parse::hooks::of_agent(a, root, boundary, sink) {
                            rules::deps::check_agent_hooks(a, &hooks, boundary, sink);
                        }
                        rules::host::check_agent_model(a, root, sink);
                    }
                    Parsed::Agent(Box::new(parsed.agent))
                }
                None => Parsed::Nothing,
            }
        }
        Kind::Manifest(kind) => {
            let manifests = parse::manifest::parse(bytes, &c.path, &c.fs_path, kind, sink);
            if let Ok(text) = std::str::from_utf8(bytes) {
                settings.policies.check_manifest(text, sink);
            }
            Parsed::Manifests(manifests)
        }
    }
}

/// The rules on a file's name, before it is read; `files` tells what is beside it.
pub(super) fn file_name_rules(c: &Candidate, files: &dyn Files, sink: &mut Sink) {
    if let Kind::Skill { exact: false } = c.kind {
        let name = crate::paths::file_name_text(&c.fs_path);
        rules::file::skill_file_casing(sink, &name, &c.fs_path, files);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discover::Entry;
    use crate::rules::Rule;
    use std::path::PathBuf;

    #[test]
    fn a_panic_in_one_file_becomes_a_finding_and_an_invalid_entry() {
        let c = Candidate {
            fs_path: PathBuf::from("skills/x/SKILL.md"),
            path: "skills/x/SKILL.md".into(),
            kind: Kind::Skill { exact: true },
            entry: Entry::File,
        };
        // Keep the expected panic's message out of the test output.
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let out = contained(&c, || panic!("boom"));
        std::panic::set_hook(hook);
        assert_eq!(out.findings.len(), 1);
        assert_eq!(out.findings[0].rule, Rule::InternalError);
        assert!(out.findings[0].message.contains("boom"));
        assert!(
            matches!(out.parsed, Parsed::Skill(s) if s.invalid && s.path == "skills/x/SKILL.md")
        );
    }
}
