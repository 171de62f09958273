//! Walk and read: every file of the tree found, read through the boundary and handed to the
//! per-file stage, then the work that needs the whole walk (Codex sidecars, agent files that
//! manifests list, one output per file).

use rayon::prelude::*;
use std::path::PathBuf;

use super::file::{contained, file_name_rules, parse_and_check, placeholder};
use super::{AuditOptions, FileOutput, Parsed};
use crate::boundary::{Boundary, FileId, MAX_FILE_BYTES, Refusal};
use crate::diagnostic::Sink;
use crate::discover::{self, Candidate, Entry};
use crate::files::Tree;
use crate::model::Skill;
use crate::parse;
use crate::rules;

/// The files found, each read, parsed and checked on its own.
pub(crate) struct PerFile {
    pub(crate) found: discover::Discovery,
    /// Sorted by display path, one per path.
    pub(crate) outputs: Vec<FileOutput>,
}

pub(crate) fn read_files(
    opts: &AuditOptions,
    excludes: &discover::Excludes,
    boundary: &Boundary,
) -> PerFile {
    // Each file is parsed on the pool as soon as the walk finds it, so parsing fills the time
    // the walk spends waiting on the file system.
    let parsed = std::sync::Mutex::new(Vec::new());
    let rules = if opts.no_ignore {
        discover::IgnoreRules::Off
    } else {
        discover::IgnoreRules::Honour
    };
    let found = rayon::in_place_scope(|s| {
        discover::walk_each(
            &opts.roots,
            excludes,
            opts.threads,
            &opts.view(),
            rules,
            &|c| {
                let c = c.clone();
                let parsed = &parsed;
                s.spawn(move |_| {
                    let out = check_file(c, opts, boundary);
                    parsed.lock().unwrap_or_else(|p| p.into_inner()).push(out);
                });
            },
        )
    });
    // In the walk's (sorted, de-duplicated) order, whatever order the parses finished in.
    let mut outputs: Vec<FileOutput> = parsed.into_inner().unwrap_or_else(|p| p.into_inner());
    outputs.par_sort_by(|a, b| a.path.cmp(&b.path));
    outputs.dedup_by(|a, b| a.path == b.path);
    PerFile { found, outputs }
}

/// The file-level work that needs the whole scan: Codex sidecars beside the skills, agent files
/// that manifests list, one output per file. Reads files; [`judge`] reads none.
pub(crate) fn complete(opts: &AuditOptions, scan: &mut PerFile, boundary: &Boundary) {
    let PerFile { found, outputs } = scan;
    // Only the links that leave the tree are reported: one inside leads to files the walk
    // audits where they are.
    found
        .skill_links
        .retain(|(_, link)| matches!(boundary.resolve(link), Err(Refusal::Outside)));
    // Codex's sidecars, for the skills beside one the walk passed.
    if !found.sidecars.is_empty() {
        outputs
            .par_iter_mut()
            .for_each(|o| with_sidecar(o, &found.sidecars, boundary));
    }
    if !found.scripts.is_empty() {
        let skill_dirs = found.skill_dirs();
        outputs
            .par_iter_mut()
            .for_each(|o| with_scripts(o, &found.scripts, &skill_dirs));
    }
    // Claude plugins may name agent files outside an `agents/` folder; the walk cannot know
    // them until the manifests are read, so they are picked up in a second, small pass.
    let extra = {
        let manifests = outputs.iter().filter_map(|o| match &o.parsed {
            Parsed::Manifests(m) => Some(m.as_slice()),
            _ => None,
        });
        discover::manifest_agents(
            manifests.flatten(),
            &found.candidates,
            &opts.view(),
            boundary,
        )
    };
    outputs.par_extend(extra.into_par_iter().map(|c| check_file(c, opts, boundary)));
    once_per_file(outputs);
}

/// Read the Codex sidecar beside `o`'s skill into it, when the walk passed one (`sidecars`,
/// sorted by their bytes).
pub(crate) fn with_sidecar(o: &mut FileOutput, sidecars: &[PathBuf], boundary: &Boundary) {
    // Most libraries have no sidecar at all: no path is made for each skill then.
    if sidecars.is_empty() {
        return;
    }
    let Parsed::Skill(skill) = &mut o.parsed else {
        return;
    };
    let Some(dir) = skill.fs_path.parent() else {
        return;
    };
    let sidecar = dir.join(parse::codex::SIDECAR);
    let found = sidecars.binary_search_by(|s| s.as_os_str().cmp(sidecar.as_os_str()));
    if skill.invalid || found.is_err() {
        return;
    }
    let shown = skill.path.clone();
    codex_sidecar(&shown, &sidecar, boundary, skill, &mut o.findings);
}

/// The largest script whose uses are read: anything larger is generated or bundled code.
const MAX_SCRIPT_BYTES: u64 = 1 << 20;

/// Folders of a skill whose scripts are not what the skill runs: tests, fixtures, examples,
/// demos and benchmarks. Nor is reference code the model reads, nor templates it copies into
/// a project.
#[rustfmt::skip]
const NOT_RUN: &[&str] = &[
    "test", "tests", "__tests__", "spec", "fixtures", "examples", "example", "demo", "demos",
    "benchmark", "benchmarks", "node_modules", "references", "reference", "docs", "templates",
    "assets",
];

/// Read what `o`'s skill uses from the scripts and package lists in its folder (`scripts`: those
/// the walk passed, sorted by their bytes), through the boundary, never leaving the folder.
/// Scripts of a skill nested in a subfolder (one of `skill_dirs`, sorted) are that skill's;
/// tests are nobody's needs.
pub(crate) fn with_scripts(
    o: &mut FileOutput,
    scripts: &[PathBuf],
    skill_dirs: &[&std::path::Path],
) {
    if scripts.is_empty() {
        return;
    }
    let Parsed::Skill(skill) = &mut o.parsed else {
        return;
    };
    let Some(dir) = skill.fs_path.parent() else {
        return;
    };
    let mut prefix = dir.as_os_str().as_encoded_bytes().to_vec();
    prefix.push(b'/');
    let from = scripts.partition_point(|s| s.as_os_str().as_encoded_bytes() < prefix.as_slice());
    let all: Vec<(&PathBuf, String)> = scripts[from..]
        .iter()
        .take_while(|s| s.as_os_str().as_encoded_bytes().starts_with(&prefix))
        .filter_map(|s| Some((s, s.strip_prefix(dir).ok()?.to_str()?.replace('\\', "/"))))
        .collect();
    let mine: Vec<(&PathBuf, String)> = all
        .iter()
        .filter_map(|(s, rel)| {
            let mut parts: Vec<&str> = rel.split('/').collect();
            let name = parts.pop()?;
            // Tests, and tools' configuration (`vitest.config.ts`): not what the skill runs.
            let test_file = name.starts_with("test_")
                || name.starts_with("test.")
                || name.contains("_test.")
                || name.contains(".test.")
                || name.contains(".spec.")
                || name.contains(".config.");
            let skipped = parts
                .iter()
                .any(|p| NOT_RUN.contains(p) || p.starts_with('.'))
                || parse::usage::installer(rel) && !lists(&skill.fields.installers_named, name)
                // Run only by one of the body's other ways.
                || lists(&skill.fields.scripts_of_other_ways, name);
            // A folder of its own skill below this one keeps its scripts.
            let nested = (1..=parts.len()).any(|n| {
                let sub = dir.join(parts[..n].join("/"));
                skill_dirs.binary_search(&sub.as_path()).is_ok()
            });
            (!test_file && !skipped && !nested && parts.len() < 4).then(|| (*s, rel.clone()))
        })
        .collect();
    if mine.is_empty() {
        return;
    }
    // The skill's own modules are all its scripts, read or not (`from references.func import`).
    let names: Vec<String> = all.into_iter().map(|(_, r)| r).collect();
    let local = parse::usage::Local::of(&names);
    for d in skill
        .requirements
        .iter_mut()
        .filter(|d| d.source == crate::model::Origin::Inferred)
    {
        parse::usage::own_commands(&mut d.uses, &names);
    }
    let mut uses = Vec::new();
    let mut functions = Vec::new();
    // The walk passed these as regular files below the skill's folder without following a
    // link, so they are inside the tree, and are read as the skill files the walk found are.
    let shown = |rel: &str| rules::file::renamed(&skill.path, rel);
    for (path, rel) in mine {
        let contents = match crate::boundary::read(path, MAX_SCRIPT_BYTES) {
            Ok(contents) => contents,
            Err(crate::boundary::Refusal::TooLarge(size)) => {
                let why = match size {
                    Some(n) => format!("is {n} bytes, over the 1 MiB read for uses"),
                    None => "is over the 1 MiB read for uses".to_owned(),
                };
                o.findings
                    .push(rules::uses::script_not_read(&shown(&rel), &why));
                continue;
            }
            Err(_) => continue,
        };
        let Ok(text) = std::str::from_utf8(&contents.bytes) else {
            let why = "is not UTF-8 text";
            o.findings
                .push(rules::uses::script_not_read(&shown(&rel), why));
            continue;
        };
        uses.extend(parse::usage::of_script(&rel, text, &local));
        functions.extend(parse::usage::shell_functions(&rel, text));
        let unnamed = &mut skill.fields.unnamed;
        if !unnamed.is_empty() {
            let named = parse::usage::mentioned(text, unnamed.iter().map(|u| u.name.as_str()));
            let named: foldhash::HashSet<String> = named.into_iter().map(str::to_owned).collect();
            unnamed.retain(|u| !named.contains(&u.name));
        }
    }
    let body_runs: Vec<&str> = skill
        .requirements
        .iter()
        .filter(|d| d.source == crate::model::Origin::Inferred)
        .flat_map(|d| &d.uses)
        .filter(|u| u.kind == crate::model::DepKind::Bins && u.file.is_none())
        .map(|u| u.name.as_str())
        .collect();
    parse::usage::shebangs_give_way(&mut uses, &body_runs);
    if !functions.is_empty() {
        // The body's uses join the scripts', so that one reckoning leaves the functions out
        // of both.
        let body = (skill.requirements.iter())
            .position(|d| d.source == crate::model::Origin::Inferred)
            .map(|i| skill.requirements.remove(i).uses);
        uses.extend(body.into_iter().flatten());
        functions.sort_unstable();
        parse::usage::functions_are_not_executables(&mut uses, &functions);
    }
    // An executable a script uses without naming it: one an imported package runs.
    if !skill.fields.unnamed.is_empty() {
        let used: foldhash::HashSet<&str> = uses.iter().map(|u| u.name.as_str()).collect();
        skill
            .fields
            .unnamed
            .retain(|d| !used.contains(d.name.as_str()));
    }
    crate::evaluate::declare_inferred(skill, uses);
}

/// Whether a sorted list of names holds `name`.
fn lists(names: &[String], name: &str) -> bool {
    names.binary_search_by(|n| n.as_str().cmp(name)).is_ok()
}

/// Keep one output per file: a file reached by several paths (a symlink, a hard link, two
/// spellings of a root or of a manifest path) is audited under the path that reached it
/// without a link, else under the first; the others become one SA113 finding
/// ([`rules::file::same_file`]).
fn once_per_file(outputs: &mut [FileOutput]) {
    let mut kept: foldhash::HashMap<&FileId, usize> = foldhash::HashMap::default();
    let mut repeats: Vec<usize> = Vec::new();
    for (i, o) in outputs.iter().enumerate() {
        let Some(id) = &o.id else { continue };
        match kept.entry(id) {
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(i);
            }
            std::collections::hash_map::Entry::Occupied(mut e) => {
                if o.direct && !outputs[*e.get()].direct {
                    repeats.push(e.insert(i));
                } else {
                    repeats.push(i);
                }
            }
        }
    }
    // A later, better path may have replaced a kept one: each repeat names the final keeper.
    let keeper: Vec<(usize, String)> = repeats
        .into_iter()
        .map(|dup| {
            let k = outputs[dup]
                .id
                .as_ref()
                .and_then(|id| kept.get(id))
                .copied();
            (dup, k.map(|k| outputs[k].path.clone()).unwrap_or_default())
        })
        .collect();
    for (dup, kept_path) in keeper {
        let o = &mut outputs[dup];
        o.parsed = Parsed::Nothing;
        o.suppressions.clear();
        o.text = None;
        o.findings = vec![rules::file::same_file(&o.path, &kept_path)];
    }
}

/// Process one file; a panic becomes an `internal-error` finding and the run goes on.
/// `keep_source`: remember where the file was read from, for source lines in the report.
fn check_file(c: Candidate, opts: &AuditOptions, boundary: &Boundary) -> FileOutput {
    let mut out = contained(&c, || read_and_check(&c, opts, boundary));
    out.path = c.path;
    out
}

fn read_and_check(c: &Candidate, opts: &AuditOptions, boundary: &Boundary) -> FileOutput {
    let (settings, keep_source) = (&opts.settings, opts.snippets);
    let keep_prints = opts.fingerprints && !keep_source;
    let mut sink = Sink::new(&c.path);
    let tree = match (c.entry, c.fs_path.parent()) {
        (Entry::File, Some(folder)) => {
            // The deepest root it is under: a shallower one's folders down to it may hold the
            // link a root given inside it is.
            let root = (opts.roots.iter())
                .filter(|r| folder.starts_with(r))
                .max_by_key(|r| r.components().count());
            Tree::walked(boundary, root.map(PathBuf::as_path), folder)
        }
        _ => Tree::new(boundary),
    };
    file_name_rules(c, &tree, &mut sink);
    // A file the walk found under a root is read where it is; anything reached through a link
    // or named by a manifest is read at its real path, once that is known to be inside.
    let read = match c.entry {
        Entry::Special(what) => Err(Refusal::Special(what)),
        Entry::File => crate::boundary::read(&c.fs_path, MAX_FILE_BYTES),
        Entry::Indirect => boundary.read(&c.fs_path, MAX_FILE_BYTES),
    };
    let contents = match read {
        Ok(r) => r,
        Err(why) => {
            sink.findings.push(rules::file::refused(&c.path, &why));
            return FileOutput::new(c, placeholder(c), sink.findings, sink.suppressions);
        }
    };
    // The file is still read, for its identity, when an earlier fix pass changed its text.
    let bytes = match opts.overlay.get(&c.fs_path) {
        Some(fixed) => fixed.clone(),
        None => contents.bytes,
    };
    // Rules that make fixes find their ranges in the text as read.
    sink.source = &bytes;
    let parsed = parse_and_check(c, &bytes, settings, boundary, &tree, &mut sink);
    let Sink {
        findings,
        suppressions,
        ..
    } = sink;
    FileOutput {
        id: contents.id,
        prints: keep_prints.then(|| crate::report::lines::prints(&bytes)),
        text: keep_source.then_some(bytes),
        ..FileOutput::new(c, parsed, findings, suppressions)
    }
}

/// Codex's `agents/openai.yaml` at `path`, beside the skill shown as `shown`: read at its real
/// path once that is known to be inside the tree, like every file.
fn codex_sidecar(
    shown: &str,
    path: &std::path::Path,
    boundary: &Boundary,
    skill: &mut Skill,
    findings: &mut Vec<crate::diagnostic::Finding>,
) {
    let display = rules::file::renamed(shown, parse::codex::SIDECAR);
    // A sidecar is a few lines: a large one is not worth reading whole.
    const LIMIT: u64 = 1 << 20;
    match boundary
        .resolve(path)
        .and_then(|r| crate::boundary::read(&r, LIMIT))
    {
        Err(why) => findings.push(rules::file::refused(&display, &why)),
        Ok(contents) => {
            let mut sink = Sink::new(&display);
            if let Some(d) = parse::codex::parse(&contents.bytes, &display, &mut sink) {
                if skill.declared_by == crate::model::DeclaredBy::Nothing {
                    skill.declared_by = d.source.into();
                }
                skill.requirements.push(d);
                skill.requirements.sort_by_key(|d| d.source);
            }
            findings.extend(sink.findings);
        }
    }
}
