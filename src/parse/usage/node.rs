//! Node scripts and `package.json`: packages imported and listed, variables read, processes
//! spawned.

use super::reads::{Script, calls, optional_read, quoted_after, under_optional};
use super::{UseLine, env_name, found, imported, place};
use crate::model::{DepKind, Use};
use crate::span::LineStarts;

pub(super) fn package_json(text: &str, rel: &str, out: &mut Vec<Use>) {
    let Ok(json) = serde_json::from_str::<serde_json::Value>(text) else {
        return;
    };
    let Some(deps) = json.get("dependencies").and_then(|d| d.as_object()) else {
        return;
    };
    // Each name's first place in the text, all found in one pass.
    let needles: Vec<String> = deps.keys().map(|name| format!("\"{name}\"")).collect();
    let mut first: Vec<Option<usize>> = vec![None; needles.len()];
    match aho_corasick::AhoCorasick::new(&needles) {
        Ok(search) => {
            for m in search.find_overlapping_iter(text) {
                first[m.pattern().as_usize()].get_or_insert(m.start());
            }
        }
        Err(_) => {
            for (at, needle) in first.iter_mut().zip(&needles) {
                *at = text.find(needle.as_str());
            }
        }
    }
    let starts = LineStarts::new(text);
    // Placed in the order they stand in the text, so that a file of one long line is counted
    // along once; listed in the order of `dependencies`.
    let names: Vec<&String> = deps.keys().collect();
    let mut by_place: Vec<usize> = (0..names.len()).collect();
    by_place.sort_by_key(|&i| first[i]);
    let mut uses: Vec<Option<Use>> = (0..names.len()).map(|_| None).collect();
    let mut columns = UseLine::new("");
    for i in by_place {
        let (line, at, l) = first[i].map_or((1, 0, ""), |p| place(text, &starts, p));
        columns.move_to(l.strip_suffix('\r').unwrap_or(l));
        let name = format!("npm:{}", names[i]);
        uses[i] = Some(found(
            DepKind::Packages,
            name,
            Some(rel),
            line,
            &columns,
            at,
        ));
    }
    out.extend(uses.into_iter().flatten());
}

pub(super) fn node(text: &str, lines: &[(u32, &str)], rel: &str, out: &mut Vec<Use>) {
    let file = Some(rel);
    let mut script = Script::new(text);
    let from = out.len();
    let mut optional_vars = Vec::new();
    for &(n, line) in lines {
        let t = line.trim_start();
        if t.starts_with("//") || t.starts_with('*') || t.starts_with("/*") {
            continue;
        }
        // `import type { X } from 'y'` is erased when compiled: it needs nothing at run time.
        if t.starts_with("import type ") || t.starts_with("export type ") {
            continue;
        }
        let mut specs: Vec<(usize, String)> = Vec::new();
        for pat in ["require(", "from ", "import("] {
            for (p, _) in line.match_indices(pat) {
                if pat == "from "
                    && !(t.starts_with("import ") || t.starts_with("export ") || t.starts_with('}'))
                {
                    continue;
                }
                if pat == "require("
                    && line[..p].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '.')
                {
                    continue;
                }
                if let Some(s) = quoted_after(&line[p + pat.len()..]) {
                    specs.push((p + pat.len(), s));
                }
            }
        }
        if t.starts_with("import ")
            && !t.contains(" from ")
            && let Some(s) = quoted_after(&t[7..])
        {
            specs.push((line.len() - t.len() + 7, s));
        }
        let columns = UseLine::new(line);
        for (at, spec) in specs {
            if let Some(pkg) = node_package(&spec) {
                imported(format!("npm:{pkg}"), file, n, &columns, at, out);
            }
        }
        for (p, _) in line.match_indices("process.env") {
            let after = &line[p + 11..];
            let name = if let Some(rest) = after.strip_prefix('.') {
                rest.chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect::<String>()
            } else if let Some(rest) = after.strip_prefix('[') {
                quoted_after(rest).unwrap_or_default()
            } else {
                continue;
            };
            let at = line.as_ptr() as usize - text.as_ptr() as usize + p;
            let rest = script.after_stop(at + 11);
            let set = rest.starts_with('=') && !rest.starts_with("==");
            if !env_name(&name) || set {
                continue;
            }
            if optional_read(&mut script, at) {
                optional_vars.push((name, n));
            } else {
                out.push(found(DepKind::Env, name, file, n, &columns, p));
            }
        }
    }
    under_optional(out, from, &optional_vars);
    if text.contains("child_process") {
        calls(
            text,
            &script.starts,
            &[
                "execSync(",
                "exec(",
                "spawnSync(",
                "spawn(",
                "execFileSync(",
                "execFile(",
            ],
            file,
            out,
        );
    }
}

/// The package a Node import specifier names: `@scope/pkg/sub` → `@scope/pkg`; none for
/// relative paths, `node:` and Node's own modules.
pub(super) fn node_package(spec: &str) -> Option<String> {
    if spec.starts_with('.')
        || spec.starts_with('/')
        || spec.starts_with("node:")
        || spec.contains(':')
    {
        return None;
    }
    let mut parts = spec.split('/');
    let first = parts.next()?;
    let name = if first.starts_with('@') {
        format!("{first}/{}", parts.next()?)
    } else {
        first.to_owned()
    };
    let valid = name.chars().all(|c| {
        c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '_' | '.' | '@' | '/')
    });
    (valid && !NODE_BUILTINS.contains(&name.as_str())).then_some(name)
}

#[rustfmt::skip]
pub(super) const NODE_BUILTINS: &[&str] = &[
    "assert", "async_hooks", "buffer", "child_process", "cluster", "console", "constants", "crypto",
    "dgram", "diagnostics_channel", "dns", "domain", "events", "fs", "http", "http2", "https",
    "inspector", "module", "net", "os", "path", "perf_hooks", "process", "punycode", "querystring",
    "readline", "repl", "stream", "string_decoder", "sys", "timers", "tls", "trace_events", "tty",
    "url", "util", "v8", "vm", "wasi", "worker_threads", "zlib",
];
