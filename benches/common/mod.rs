//! Shared setup for the benches: a generated library in a temporary folder, the audit options
//! for it, and its parsed models. Everything here runs outside the timed code.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use skill_audit::AuditOptions;
use skill_audit::diagnostic::Sink;
use skill_audit::discover;
use skill_audit::evaluate;
use skill_audit::model::Kind;
use skill_audit::model::{Agent, Manifest, Skill};
use skill_audit::parse;
use skill_audit::profile::ProfileSource;

#[allow(clippy::all, dead_code)]
#[path = "../../examples/gen_library.rs"]
mod gen_library;

/// A generated library; the folder is removed when this is dropped.
pub struct Library {
    _dir: tempfile::TempDir,
    pub root: PathBuf,
}

/// Generate `skills` skills (with the default agent and plugin counts) into a new temporary
/// folder.
pub fn library(skills: usize) -> Library {
    let dir = tempfile::tempdir().expect("temporary folder");
    let root = dir
        .path()
        .canonicalize()
        .expect("canonical temporary folder");
    gen_library::generate(&gen_library::Options::new(skills, root.clone()))
        .expect("generate the library");
    Library { _dir: dir, root }
}

/// Options that audit `lib` against its three profiles, as `skill-audit -p prod -p staging
/// -p dev DIR` would.
pub fn options(lib: &Library) -> AuditOptions {
    AuditOptions {
        roots: vec![lib.root.clone()],
        profiles: ["prod", "staging", "dev"]
            .iter()
            .map(|p| ProfileSource::File(lib.root.join("profiles").join(format!("{p}.json"))))
            .collect(),
        cwd: lib.root.clone(),
        ..AuditOptions::default()
    }
}

/// The parsed models of a library, as `audit::run` has them before linking.
pub struct Models {
    /// Boxed, as the audit keeps them (the link index takes them so).
    #[allow(clippy::vec_box)]
    pub skills: Vec<Box<Skill>>,
    pub agents: Vec<Agent>,
    pub manifests: Vec<Manifest>,
    pub roots: Vec<PathBuf>,
    pub cwd: PathBuf,
}

/// Walk and parse `root` the way `audit::run` does.
pub fn models(root: &Path) -> Models {
    let roots = vec![root.to_owned()];
    let none = globset::GlobSet::empty();
    let found = discover::walk(&roots, &none, 0, root);
    let mut m = Models {
        skills: Vec::new(),
        agents: Vec::new(),
        manifests: Vec::new(),
        roots,
        cwd: root.to_owned(),
    };
    for c in &found.candidates {
        let bytes = std::fs::read(&c.fs_path).expect("read a candidate");
        let mut sink = Sink::new(&c.path);
        match c.kind {
            Kind::Skill { .. } => {
                let mut parsed = parse::skill::parse(&bytes, &c.path, &c.fs_path, &mut sink);
                evaluate::declare_fields(&mut parsed.skill);
                m.skills.push(Box::new(parsed.skill));
            }
            Kind::Agent(flavor) => {
                if let Some(a) = parse::agent::parse(&bytes, &c.path, &c.fs_path, flavor, &mut sink)
                {
                    m.agents.push(a.agent);
                }
            }
            Kind::Manifest(kind) => m.manifests.extend(parse::manifest::parse(
                &bytes, &c.path, &c.fs_path, kind, &mut sink,
            )),
        }
    }
    m
}
