//! Hostile and broken input: nothing crashes, hangs, hides a file or escapes into a report.
//! Small fixtures live in `tests/hostile/lib/`; big ones are generated here.

use crate::common::*;

use std::path::Path;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use serde_json::Value;
use tempfile::TempDir;

/// The binary in `cwd`, stopped after a minute: no input may make it hang.
fn timed_bin(cwd: &Path) -> Command {
    let mut c = bin(cwd);
    c.timeout(Duration::from_secs(60));
    c
}

/// A timed JSON run that does not fail on findings: the report and the exit code.
fn json(dir: &Path, args: &[&str]) -> (Value, i32) {
    json_of(
        timed_bin(dir)
            .args(args)
            .args(["-f", "json", "--fail-on", "never"]),
    )
}

#[test]
fn every_broken_fixture_is_reported_exactly_once_as_invalid() {
    let dir = Path::new(MANIFEST_DIR).join("tests/hostile");
    let (r, code) = json(&dir, &["lib"]);
    assert_eq!(code, 0);
    let paths: Vec<&str> = r["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    let mut unique = paths.clone();
    unique.dedup();
    assert_eq!(paths, unique, "each file once");
    for (name, rule) in [
        ("empty", "SA102"),
        ("dashes", "SA103"),
        ("unclosed", "SA103"),
        ("dupkeys", "SA106"),
        ("binary", "SA101"),
        ("latin1", "SA101"),
        ("tabs", "SA104"),
    ] {
        let path = format!("lib/skills/{name}/SKILL.md");
        assert_eq!(skill(&r, &path)["valid"], false, "{name}");
        assert!(
            rules_for(&r, &path).contains(&rule.to_owned()),
            "{name}: {:?}",
            rules_for(&r, &path)
        );
    }
    // BOM + CRLF is fine (an info about the BOM only).
    assert_eq!(skill(&r, "lib/skills/bom-crlf/SKILL.md")["valid"], true);
    // A folder named SKILL.md is not a skill file and not a crash.
    assert!(
        !paths.iter().any(|p| p.contains("SKILL.md-folder")),
        "{paths:?}"
    );
    assert!(
        !r["findings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f["rule"] == "SA199")
    );
}

#[test]
fn yaml_bombs_and_huge_frontmatter_hit_limits_quickly() {
    let t = TempDir::new().unwrap();
    let mut laughs = String::from("---\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..12 {
        let p = i - 1;
        laughs.push_str(&format!(
            "a{i}: &a{i} [{}]\n",
            vec![format!("*a{p}"); 10].join(", ")
        ));
    }
    laughs.push_str("name: laughs\n---\n");
    write(t.path(), "skills/laughs/SKILL.md", laughs);
    write(
        t.path(),
        "skills/deep/SKILL.md",
        format!(
            "---\nname: deep\nx: {}{}\n---\n",
            "[".repeat(20_000),
            "]".repeat(20_000)
        ),
    );
    let mut keys = String::from("---\nname: keys\n");
    for i in 0..100_000 {
        keys.push_str(&format!("k{i}: v\n"));
    }
    keys.push_str("---\n");
    write(t.path(), "skills/keys/SKILL.md", keys);
    // A long body under the read limit is audited; one over it is not read past the limit.
    let mut body = String::from("---\nname: body\ndescription: d\n---\n");
    let line = "A long body line with a [link](references/x.md) and `code` in it.\n";
    while body.len() < 12 << 20 {
        body.push_str(line);
    }
    write(t.path(), "skills/body/SKILL.md", &body);
    while body.len() < 50 << 20 {
        body.push_str(line);
    }
    write(t.path(), "skills/huge/SKILL.md", body);
    let start = Instant::now();
    let (r, _) = json(t.path(), &["."]);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(30), "took {took:?}");
    for name in ["laughs", "deep", "keys"] {
        let path = format!("skills/{name}/SKILL.md");
        let rules = rules_for(&r, &path);
        assert!(
            rules.iter().any(|x| x == "SA107" || x == "SA104"),
            "{name}: {rules:?}"
        );
        assert_eq!(skill(&r, &path)["valid"], false);
    }
    assert!(rules_for(&r, "skills/laughs/SKILL.md").contains(&"SA107".to_owned()));
    assert!(
        rules_for(&r, "skills/body/SKILL.md").contains(&"SA230".to_owned()),
        "the big body is still audited"
    );
    assert_eq!(rules_for(&r, "skills/huge/SKILL.md"), ["SA112"]);
    assert_eq!(skill(&r, "skills/huge/SKILL.md")["valid"], false);
}

#[test]
fn a_300000_tool_profile_loads_and_matches() {
    let t = TempDir::new().unwrap();
    let tools: Vec<String> = (0..300_000).map(|i| format!("\"tool_{i}\"")).collect();
    write(
        t.path(),
        "big.json",
        format!("{{\"name\": \"big\", \"tools\": [{}]}}", tools.join(",")),
    );
    write(
        t.path(),
        "skills/a/SKILL.md",
        "---\nname: a\ndescription: d\ndependencies:\n  tools: [tool_299999, tool_300000]\n---\n",
    );
    let (r, _) = json(t.path(), &["-p", "big.json", "."]);
    assert_eq!(r["profiles"][0]["tools"], 300_000);
    let a = &r["skills"][0]["availability"]["big"];
    assert_eq!(a["missing"], serde_json::json!(["tool_300000"]));
}

#[test]
fn symlink_loops_and_broken_links_are_findings_not_aborts() {
    let t = TempDir::new().unwrap();
    write(
        t.path(),
        "skills/ok/SKILL.md",
        "---\nname: ok\ndescription: d\n---\n",
    );
    std::fs::create_dir_all(t.path().join("skills/loop")).unwrap();
    std::os::unix::fs::symlink("..", t.path().join("skills/loop/back")).unwrap();
    std::fs::create_dir_all(t.path().join("skills/gone")).unwrap();
    std::os::unix::fs::symlink("target.md", t.path().join("skills/gone/SKILL.md")).unwrap();
    // Broken outside: that it leads out is all the report may say, as for a link that works.
    std::fs::create_dir_all(t.path().join("skills/away")).unwrap();
    std::os::unix::fs::symlink(
        "/nonexistent/target.md",
        t.path().join("skills/away/SKILL.md"),
    )
    .unwrap();
    let (r, code) = json(t.path(), &["."]);
    assert_eq!(code, 0);
    assert_eq!(skill(&r, "skills/ok/SKILL.md")["valid"], true);
    let gone = skill(&r, "skills/gone/SKILL.md");
    assert_eq!(gone["valid"], false);
    assert!(rules_for(&r, "skills/gone/SKILL.md").contains(&"SA100".to_owned()));
    assert_eq!(rules_for(&r, "skills/away/SKILL.md"), ["SA110"]);
}

#[test]
fn output_errors_exit_2_and_findings_never_do() {
    let t = TempDir::new().unwrap();
    write(t.path(), "skills/bad/SKILL.md", "garbage");
    timed_bin(t.path())
        .args(["--fail-on", "info", "."])
        .assert()
        .code(1);
    timed_bin(t.path())
        .args(["-o", "/nonexistent-dir/x/report.json", "."])
        .assert()
        .code(2);
    // A profile that is not JSON names file, line and column.
    write(t.path(), "p.json", "{\n  \"tools\": [\n");
    let out = timed_bin(t.path())
        .args(["-p", "p.json", "."])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("p.json:3:"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn report_paths_stay_relative_and_nothing_but_o_is_written() {
    let t = TempDir::new().unwrap();
    // A skill whose name looks like a path must not make skill-audit write anywhere.
    write(
        t.path(),
        "lib/skills/x/SKILL.md",
        "---\nname: ../../escape.json\ndescription: d\n---\n",
    );
    let before: Vec<_> = walk(t.path());
    let abs = t.path().join("lib");
    let (r, _) = json(t.path(), &[abs.to_str().unwrap()]);
    assert_eq!(
        r["skills"][0]["path"], "lib/skills/x/SKILL.md",
        "relative to the working directory"
    );
    assert_eq!(before, walk(t.path()), "nothing was written");
}

fn walk(p: &Path) -> Vec<std::path::PathBuf> {
    let mut out = vec![];
    for e in std::fs::read_dir(p).unwrap() {
        let e = e.unwrap().path();
        if e.is_dir() {
            out.extend(walk(&e));
        } else {
            out.push(e);
        }
    }
    out.sort();
    out
}

/// A body or script that names thousands of different things (variables, commands, links,
/// paths, packages) is read in one pass: every name is still found, and the run ends.
#[test]
fn thousands_of_distinct_names_are_read_without_a_search_per_name() {
    const N: usize = 20_000;
    let t = TempDir::new().unwrap();
    let each = |f: &dyn Fn(usize) -> String| joined(N, f, "");
    let skill_with = |name: &str, body: String| skill_in(t.path(), name, &body);
    // Half of the variables the block reads are named in the prose, so they count.
    skill_with(
        "vars",
        format!(
            "{}```bash\n{}{}```\n",
            each(&|i| if i % 2 == 0 {
                format!("Set VAR_{i}_X first.\n")
            } else {
                "Prose.\n".into()
            }),
            each(&|i| format!("X{i}=1\n")),
            each(&|i| format!("echo $VAR_{i}_X $X{i}\n")),
        ),
    );
    skill_with(
        "cmds",
        format!(
            "```console\n{}```\n",
            each(&|i| format!("$ cmd{i} --x\noutput\n"))
        ),
    );
    skill_with("links", each(&|i| format!("[x](references/f{i}.md)\n")));
    skill_with(
        "paths",
        each(&|i| format!("- Open `docs{i}/guide.md` first.\n")),
    );
    skill_with("scripts", "Run `scripts/run.sh`.\n".into());
    // An installer named under every heading: the headings are read once for the text.
    skill_with(
        "installers",
        each(&|i| format!("## Step {i}\nRun scripts/setup.sh now.\n")),
    );
    write(
        t.path(),
        "skills/installers/scripts/setup.sh",
        "#!/bin/bash\nfrobnicate\n",
    );
    // One run of installer words with no break in it is one path, read along once.
    skill_with(
        "one-path",
        format!("Run {}.sh\n", each(&|_| "x/setup".into())),
    );
    write(
        t.path(),
        "skills/one-path/scripts/setup.sh",
        "#!/bin/bash\nfrobnicate\n",
    );
    // Each tool with a way round it: the ways round are found once for the text.
    skill_with(
        "fallbacks",
        each(&|i| format!("Run #tool:t{i}. If #tool:t{i} is unavailable, go on.\n")),
    );
    // Commands run only where a test found them, nested as deep as the text allows.
    skill_with(
        "checked",
        format!(
            "```bash\n{}{}{}{}last --x\n```\n",
            each(&|i| format!("if command -v c{i} >/dev/null; then\n")),
            each(&|i| format!("c{i} --x\n")),
            each(&|_| "fi\n".into()),
            each(&|i| format!("command -v q{i} >/dev/null && q{i} --x\n")),
        ),
    );
    write(
        t.path(),
        "skills/scripts/package.json",
        format!(
            "{{\"dependencies\": {{{}\"last\": \"1\"}}}}",
            each(&|i| format!("\"p{i}\": \"1\", "))
        ),
    );
    write(
        t.path(),
        "skills/scripts/scripts/min.js",
        (0..N)
            .map(|i| format!("process.env.E_{i}"))
            .collect::<Vec<_>>()
            .join(";"),
    );
    let (r, _) = json(t.path(), &["."]);
    let kinds = |name: &str, kind: &str| {
        skill(&r, &format!("skills/{name}/SKILL.md"))["requirements"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["source"] == "inferred")
            .map(|d| d[kind]["all"].as_array().map_or(0, Vec::len))
            .sum::<usize>()
    };
    assert_eq!(kinds("vars", "env"), N / 2);
    assert_eq!(kinds("cmds", "bins"), N);
    assert_eq!(kinds("scripts", "packages"), N + 1);
    assert_eq!(kinds("scripts", "env"), N);
    // The script's shebang and its command: it is read.
    assert_eq!(kinds("installers", "bins"), 2);
    assert_eq!(kinds("one-path", "bins"), 2);
    assert_eq!(kinds("fallbacks", "tools"), 0);
    assert_eq!(kinds("checked", "bins"), 1);
    let broken = |name: &str, rule: &str| {
        rules_for(&r, &format!("skills/{name}/SKILL.md"))
            .iter()
            .filter(|x| *x == rule)
            .count()
    };
    assert_eq!(broken("links", "SA231"), N);
    assert_eq!(broken("paths", "SA232"), N);
}

/// Paths of thousands of folders, each under a folder that is not there, and one longer than
/// any file system opens: each is missing, found without a look at, or a copy of, each of its
/// ancestors (which took seconds and a gigabyte).
#[test]
fn paths_of_thousands_of_folders_are_looked_up_once_each() {
    let t = TempDir::new().unwrap();
    let deep = "y/".repeat(2000);
    let body: String = (0..250)
        .map(|i| format!("- Open `a{i}/{deep}f.md` first.\n"))
        .chain(std::iter::once(format!(
            "- Open `{}x.md` first.\n",
            "x/".repeat(20_000)
        )))
        .collect();
    write(
        t.path(),
        "skills/deep/SKILL.md",
        format!("---\nname: deep\ndescription: Does deep things. Use when asked.\n---\n{body}"),
    );
    let (r, _) = json(t.path(), &["."]);
    let found = rules_for(&r, "skills/deep/SKILL.md");
    assert_eq!(found.iter().filter(|x| *x == "SA232").count(), 251);
}

/// Frontmatter lists as long as the YAML limits allow (executables an OpenClaw block requires,
/// an agent's tools) are read and judged with no search per entry.
#[test]
fn long_declared_lists_are_judged_without_a_search_per_entry() {
    const N: usize = 40_000;
    let t = TempDir::new().unwrap();
    let names = (0..N)
        .map(|i| format!("b{i}"))
        .collect::<Vec<_>>()
        .join(", ");
    // A long body and script: whether each entry is named is not a search of them per entry.
    write(
        t.path(),
        "skills/oc/SKILL.md",
        format!(
            "---\nname: oc\ndescription: Does oc things. Use when asked.\nmetadata: {{\"openclaw\": {{\"requires\": {{\"bins\": [{names}]}}}}}}\n---\nRuns b0.\n{}",
            "Prose that names b and bb but no entry.\n".repeat(25_000)
        ),
    );
    write(
        t.path(),
        "skills/oc/scripts/run.sh",
        format!("b1 --x\n{}", "echo b bb\n".repeat(50_000)),
    );
    write(
        t.path(),
        ".github/agents/a.agent.md",
        format!("---\nname: a\ndescription: d\ntools: [{names}]\n---\nbody\n"),
    );
    let (r, _) = json(t.path(), &[".", "-p", "builtin:vscode"]);
    let bins = skill(&r, "skills/oc/SKILL.md")["requirements"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|d| d["bins"]["all"].as_array().map_or(0, Vec::len))
        .sum::<usize>();
    assert_eq!(bins, N);
    // `b0` is named in the body, `b1` in the script.
    assert_eq!(findings(&r, "SA314").len(), N - 2);
    let unknown: Vec<&Value> = findings(&r, "SA702");
    assert_eq!(unknown.len(), N);
    // Each at its own entry: the last name is the last item of the one-line list.
    let last = unknown
        .iter()
        .find(|f| s(f, "message").starts_with(&format!("`b{}`", N - 1)))
        .expect("the last tool is reported");
    assert_eq!(last["line"], 4);
    assert_eq!(
        last["column"].as_u64(),
        Some((9 + names.len() - format!("b{}", N - 1).len()) as u64)
    );
}

/// Lines as long as a file may be, each holding thousands of uses (a minified script, one
/// generated command line), are read along once: every use is found, at its own column.
#[test]
fn thousands_of_uses_on_one_line_are_placed_without_recounting_the_line() {
    const N: usize = 20_000;
    let t = TempDir::new().unwrap();
    let joined = |f: &dyn Fn(usize) -> String, by: &str| (0..N).map(f).collect::<Vec<_>>().join(by);
    write(
        t.path(),
        "skills/long/SKILL.md",
        format!(
            "---\nname: long\ndescription: Does long things. Use when asked.\n---\n```bash\necho {}\n```\n",
            joined(&|i| format!("$TOKEN_{i}"), " ")
        ),
    );
    // Reads with nothing after them that ends an expression, and one assignment far to the
    // left of all of them.
    write(
        t.path(),
        "skills/long/scripts/a.py",
        format!(
            "import os\nx = {}\n",
            joined(&|i| format!("os.getenv(\"PY_{i}\""), " ")
        ),
    );
    write(
        t.path(),
        "skills/long/scripts/b.js",
        format!(
            "const x = {}\n",
            joined(&|i| format!("process.env.JS_{i}"), "+")
        ),
    );
    // Half a million lines continued with `\`: one command line, built once.
    write(
        t.path(),
        "skills/continued/SKILL.md",
        format!(
            "---\nname: continued\ndescription: Does continued things. Use when asked.\n---\n```bash\n{}end\n```\n",
            (0..500_000)
                .map(|i| format!("a{i} \\\n"))
                .collect::<String>()
        ),
    );
    let (r, _) = json(t.path(), &["."]);
    let bins: Vec<&Value> = skill(&r, "skills/continued/SKILL.md")["requirements"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|d| d["bins"]["all"].as_array().into_iter().flatten())
        .collect();
    assert_eq!(bins, ["a0"]);
    let skill = skill(&r, "skills/long/SKILL.md");
    let env: Vec<&Value> = skill["requirements"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["source"] == "inferred")
        .flat_map(|d| d["env"]["all"].as_array().into_iter().flatten())
        .collect();
    assert_eq!(env.len(), 3 * N);
    // The last use of each line, at the column its line gives it.
    let last = |name: String| -> Value {
        skill["requirements"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|d| d["uses"].as_array().into_iter().flatten())
            .find(|u| u["name"] == name.as_str())
            .cloned()
            .unwrap_or_else(|| panic!("{name} is used"))
    };
    let column = |line: String, name: &str| line.find(name).map(|c| c as u64 + 1);
    let n = N - 1;
    let block = format!("echo {}", joined(&|i| format!("$TOKEN_{i}"), " "));
    assert_eq!(
        last(format!("TOKEN_{n}"))["column"].as_u64(),
        column(block, &format!("$TOKEN_{n}"))
    );
    let py = format!("x = {}", joined(&|i| format!("os.getenv(\"PY_{i}\""), " "));
    assert_eq!(
        last(format!("PY_{n}"))["column"].as_u64(),
        column(py, &format!("os.getenv(\"PY_{n}\""))
    );
}

/// One line of a body holding tens of thousands of links or paths: each is reported, and the
/// line is neither copied nor searched again for each of them (it was copied per reference
/// once, which on a 1 MB line ran out of memory).
#[test]
fn thousands_of_references_on_one_line_are_reported_once_each() {
    const N: usize = 40_000;
    let t = TempDir::new().unwrap();
    let line = |f: &dyn Fn(usize) -> String| (0..N).map(f).collect::<Vec<_>>().join(" ");
    for (name, body) in [
        ("images", line(&|i| format!("![x](img/i{i}.png)"))),
        ("paths", line(&|i| format!("references/b{i}.md"))),
    ] {
        write(
            t.path(),
            &format!("skills/{name}/SKILL.md"),
            format!(
                "---\nname: {name}\ndescription: Does {name} things. Use when asked.\n---\nSee {body}\n"
            ),
        );
    }
    let (r, _) = json(t.path(), &["."]);
    let count = |rule: &str, path: &str| {
        findings(&r, rule)
            .iter()
            .filter(|f| f["path"] == path)
            .count()
    };
    assert_eq!(count("SA231", "skills/images/SKILL.md"), N);
    assert_eq!(count("SA232", "skills/paths/SKILL.md"), N);
    // The last of each at its own column.
    let last = findings(&r, "SA232")
        .into_iter()
        .find(|f| s(f, "message").contains(&format!("references/b{}.md", N - 1)))
        .expect("the last path is reported");
    let text = format!("See {}", line(&|i| format!("references/b{i}.md")));
    let column = text
        .find(&format!("references/b{}.md", N - 1))
        .map(|c| c as u64 + 1);
    assert_eq!(last["column"].as_u64(), column);
    // The text report shows each finding with the part of the line around it, at the
    // finding's own place, rather than the whole line each time.
    let out = timed_bin(t.path())
        .args(["skills/paths", "--fail-on", "never"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&out.stdout);
    let place = format!("skills/paths/SKILL.md:5:{}", column.unwrap_or(0));
    assert!(shown.contains(&place), "{place} is shown");
    assert!(shown.len() < N * 1_000, "{} bytes", shown.len());
}

#[test]
fn a_manifest_listing_thousands_of_paths_places_each_in_one_pass() {
    // Each path was found by searching the manifest from its top, and counted along its
    // line from the line's start; a path written with JSON escapes (`\/`, as some writers
    // do) was not found at all and was placed at 1:1.
    const N: usize = 20_000;
    let t = TempDir::new().unwrap();
    let list = |f: &dyn Fn(usize) -> String| (0..N).map(f).collect::<Vec<_>>().join(", ");
    let skills = list(&|i| format!("\"./skills/s{i}\""));
    let agents = list(&|i| format!("\"./agents\\/a{i}.md\""));
    let manifest = format!(
        "{{\"name\": \"p\", \"description\": \"d\", \"version\": \"1.0.0\", \"skills\": [{skills}], \"agents\": [{agents}]}}"
    );
    write(t.path(), "p/.claude-plugin/plugin.json", &manifest);
    let (r, _) = json(t.path(), &["."]);
    let missing = findings(&r, "SA602");
    assert_eq!(missing.len(), 2 * N);
    let column_of = |written: &str| manifest.find(written).map(|c| c as u64 + 1);
    for (name, written) in [
        (
            format!("./skills/s{}", N - 1),
            format!("\"./skills/s{}\"", N - 1),
        ),
        (
            format!("./agents/a{}.md", N - 1),
            format!("\"./agents\\/a{}.md\"", N - 1),
        ),
    ] {
        let f = missing
            .iter()
            .find(|f| s(f, "message").contains(&format!("`{name}`")))
            .unwrap_or_else(|| panic!("{name} is reported"));
        assert_eq!(f["line"], 1, "{f}");
        assert_eq!(f["column"].as_u64(), column_of(&written), "{f}");
    }
}

#[test]
fn an_oversized_ignore_file_above_the_walk_is_reported_not_compiled() {
    // The walker compiles every pattern of an ignore file it reads: hundreds of bytes of
    // memory per byte of wildcards, from a file the tree controls.
    let patterns: String = (0..20_000)
        .map(|i| format!("**/d{i}*/f?{i}[a-z]*.md\n"))
        .collect();
    assert!(patterns.len() > 256 * 1024);
    let skill = |name: &str| {
        format!("---\nname: {name}\ndescription: Does {name}. Use when asked.\n---\nBody.\n")
    };
    let t = tree(&[
        (".gitignore", &format!("skills/hidden/\n{patterns}")),
        ("skills/hidden/SKILL.md", &skill("hidden")),
        ("skills/shown/SKILL.md", &skill("shown")),
    ]);
    // The root's own, and one above the folder audited: not read, so no rule hides anything.
    for root in [".", "skills"] {
        let (r, _) = json(t.path(), &[root]);
        let errors = findings(&r, "SA100");
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert_eq!(errors[0]["path"], ".gitignore");
        assert!(
            s(errors[0], "message").contains("no ignore rule is honoured"),
            "{}",
            errors[0]
        );
        assert_eq!(r["skills"].as_array().map(Vec::len), Some(2), "{root}");
    }
    // A small one is honoured as before.
    write(t.path(), ".gitignore", "skills/hidden/\n");
    let (r, _) = json(t.path(), &["."]);
    assert!(findings(&r, "SA100").is_empty());
    assert_eq!(r["skills"].as_array().map(Vec::len), Some(1));
}

/// A finding far along a long line is shown around its column, under the finding's own place:
/// one `-->` with the line and column of the file, the part of the line shown starting with
/// `…`, the caret under the name, and no second place (` ::: `) for the part.
#[test]
fn a_finding_far_along_a_long_line_is_shown_around_it_at_its_own_place() {
    let t = TempDir::new().unwrap();
    let filler = "word ".repeat(5_000);
    write(
        t.path(),
        "skills/wide/SKILL.md",
        format!(
            "---\nname: wide\ndescription: Does wide things. Use when asked.\n---\n{filler}open `references/gone.md` now\n"
        ),
    );
    let column = filler.len() + 7;
    let run = |color: &str| {
        quiet_stdout(
            timed_bin(t.path()).args(["--fail-on", "never", "--color", color, "."]),
            0,
        )
    };
    let plain = run("never");
    let at = plain
        .find("`references/gone.md`")
        .expect("the missing file is reported");
    let shown: Vec<&str> = plain[at..].lines().take(5).collect();
    assert_eq!(shown[1], format!(" --> skills/wide/SKILL.md:5:{column}"));
    assert_eq!(shown[2].trim(), "|");
    let line = shown[3].strip_prefix("5 | ").expect("the source line");
    assert!(line.starts_with('…'), "{line}");
    let caret = shown[4].find('^').expect("a caret") - "  | ".len();
    assert!(
        line.chars()
            .skip(caret)
            .collect::<String>()
            .starts_with("references/gone.md"),
        "{line}"
    );
    assert!(!plain.contains(":::"));
    // In colour too: the renderer's styles wrap the same lines.
    let styled = run("always");
    assert!(styled.contains(&format!("skills/wide/SKILL.md:5:{column}")));
    assert!(!styled.contains(":::"), "{styled}");
}

/// One shell line of tens of thousands of presence tests, `if`s with no `then`, or variables,
/// and a command line continued over as many lines: each `if` looked for its `then`, each test
/// for what follows it, each variable for its word and each use for its line by reading the
/// rest of the line again. What is found is the same, each use at its own place.
#[test]
fn thousands_of_tests_and_uses_on_one_shell_line_are_read_along_once() {
    const N: usize = 40_000;
    let t = TempDir::new().unwrap();
    let each = |f: &dyn Fn(usize) -> String, by: &str| joined(N, f, by);
    let skill_with = |name: &str, body: String| skill_in(t.path(), name, &body);
    // `if`s that never reach a `then` make sure of nothing: `c` and `s` are needed.
    let ifs = "if command -v c; ".repeat(N);
    skill_with(
        "ifs",
        format!("```bash\n{ifs}c --x\n```\nRun `scripts/run.sh`.\n"),
    );
    write(
        t.path(),
        "skills/ifs/scripts/run.sh",
        format!("#!/bin/bash\n{}s --x\n", "if command -v s; ".repeat(N)),
    );
    // Tests each ended by `;` make sure of nothing; a chain of `&&` covers `d0` up to its `;`.
    skill_with(
        "tests",
        format!(
            "```bash\n{}c --x\n{} && d0 --x; e --x\n```\n",
            "command -v c; ".repeat(N),
            each(&|i| format!("command -v d{i}"), " && ")
        ),
    );
    // A variable that fills its option (`--api-key $API_KEY`) counts only where the prose
    // names it.
    skill_with(
        "vars",
        format!(
            "Set TENANT_ID first.\n```bash\necho {} --tenant-id $TENANT_ID --api-key $API_KEY\n```\nRun `scripts/run.sh`.\n",
            each(&|i| format!("$K{i}_API_KEY"), " ")
        ),
    );
    write(
        t.path(),
        "skills/vars/scripts/run.sh",
        format!(
            "#!/bin/bash\necho \\\n{}x\n{}x\n",
            each(&|i| format!("$V{i} \\\n"), ""),
            each(&|i| format!("c{i} && \\\n"), "")
        ),
    );
    let (r, _) = json(t.path(), &["."]);
    let inferred = |name: &str, kind: &str| -> Vec<String> {
        let mut all: Vec<String> = skill(&r, &format!("skills/{name}/SKILL.md"))["requirements"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["source"] == "inferred")
            .flat_map(|d| d[kind]["all"].as_array().into_iter().flatten())
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect();
        all.sort_unstable();
        all
    };
    let use_of = |name: &str, used: &str| -> Value {
        skill(&r, &format!("skills/{name}/SKILL.md"))["requirements"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|d| d["uses"].as_array().into_iter().flatten())
            .find(|u| u["name"] == used)
            .cloned()
            .unwrap_or_else(|| panic!("{used} is used in {name}"))
    };
    assert_eq!(inferred("ifs", "bins"), ["bash", "c", "s"]);
    assert_eq!(
        use_of("ifs", "c")["column"].as_u64(),
        Some(ifs.len() as u64 + 1)
    );
    assert_eq!(inferred("tests", "bins"), ["c", "e"]);
    let bins = inferred("vars", "bins");
    assert_eq!(bins.len(), N + 2, "bash, each c{{i}} and x");
    let env = inferred("vars", "env");
    assert_eq!(env.len(), 2 * N + 1);
    assert!(env.iter().any(|e| e == "TENANT_ID"));
    assert!(!env.iter().any(|e| e == "API_KEY"));
    // Each continued line's use on the line it was written on.
    let last = |used: String, line: usize| {
        let u = use_of("vars", &used);
        assert_eq!(
            (u["line"].as_u64(), u["column"].as_u64()),
            (Some(line as u64), Some(1)),
            "{u}"
        );
    };
    last(format!("V{}", N - 1), N + 2);
    last(format!("c{}", N - 1), 2 * N + 3);
}

/// A requirement whose marker nests a hundred thousand parentheses (`requests; ((((...`), in
/// a frontmatter `dependencies` list, a `pip install` of a body's block and one of a script:
/// the PEP 508 parser reads them by recursion and overflowed the stack, aborting the run. Such
/// a requirement is now one that does not parse; the package beside it still counts.
#[test]
fn deeply_nested_requirement_markers_are_unparsable_not_a_crash() {
    const DEPTH: usize = 100_000;
    let t = TempDir::new().unwrap();
    // Spaced in a shell line: `((` there opens arithmetic, and the command is not read.
    let nested = |sep: &str| {
        format!(
            "{}python_version > '3'{}",
            format!("({sep}").repeat(DEPTH),
            format!("{sep})").repeat(DEPTH)
        )
    };
    let (marker, spaced) = (nested(""), nested(" "));
    write(
        t.path(),
        "skills/fm/SKILL.md",
        format!(
            "---\nname: fm\ndescription: Does fm things. Use when asked.\ndependencies: [\"requests; {marker}\"]\n---\nBody.\n"
        ),
    );
    write(
        t.path(),
        "skills/body/SKILL.md",
        skill_with_body(
            "body",
            &format!("```bash\npip install \"requests; {spaced}\" flask\n```\n"),
        ),
    );
    write(
        t.path(),
        "skills/script/SKILL.md",
        skill_with_body("script", "Run `scripts/setup.sh`.\n"),
    );
    write(
        t.path(),
        "skills/script/scripts/setup.sh",
        format!("#!/bin/bash\npip install \"requests; {spaced}\" flask\n"),
    );
    let (r, code) = json(t.path(), &["."]);
    assert_eq!(code, 0);
    let packages = |name: &str| -> Vec<String> {
        skill(&r, &format!("skills/{name}/SKILL.md"))["requirements"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["source"] == "inferred")
            .flat_map(|d| d["packages"]["all"].as_array().into_iter().flatten())
            .filter_map(|v| v.as_str().map(str::to_owned))
            .collect()
    };
    assert_eq!(skill(&r, "skills/fm/SKILL.md")["valid"], true);
    assert_eq!(packages("body"), ["flask"]);
    assert_eq!(packages("script"), ["flask"]);
}

/// The reviewer's shapes that read a line again for each use on it, small enough for a debug
/// build: each reads what the same text read before (the counts below), in one pass.
#[test]
fn lines_of_many_uses_are_read_along_once_in_every_reader() {
    const N: usize = 20_000;
    let t = TempDir::new().unwrap();
    let each = |f: &dyn Fn(usize) -> String, by: &str| joined(N, f, by);
    let skill_with = |name: &str, body: String| skill_in(t.path(), name, &body);
    skill_with("repeat", format!("{}\n", "mcp__".repeat(5 * N)));
    skill_with(
        "padded",
        format!(
            "{}{}{}\n",
            " ".repeat(20 * N),
            each(&|i| format!("mcp__s__t{i}"), " "),
            " ".repeat(20 * N)
        ),
    );
    skill_with(
        "options",
        format!(
            "```bash\nfoo --opt={}\n```\n",
            vec!["$ABCD_KEY"; N].join("=")
        ),
    );
    skill_with(
        "providers",
        format!("```bash\ngh x\n```\n{}", "## aws\n".repeat(N)),
    );
    skill_with(
        "reads",
        "Run `scripts/a.py` and `scripts/b.js`.\n".to_owned(),
    );
    write(
        t.path(),
        "skills/reads/scripts/a.py",
        format!(
            "import os\n{}\n{}\n",
            each(&|i| format!("a{i} = os.getenv('V{i}_K')"), "; "),
            each(&|i| format!("a{i}"), " ")
        ),
    );
    write(
        t.path(),
        "skills/reads/scripts/b.js",
        format!(
            "{}\n{}\n",
            each(&|i| format!("const b{i} = process.env.W{i}_K"), "; "),
            each(&|i| format!("b{i}"), " ")
        ),
    );
    let (r, code) = json(t.path(), &["."]);
    assert_eq!(code, 0);
    let inferred = |name: &str, kind: &str| -> usize {
        skill(&r, &format!("skills/{name}/SKILL.md"))["requirements"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["source"] == "inferred")
            .flat_map(|d| d[kind]["all"].as_array().into_iter().flatten())
            .count()
    };
    assert_eq!(inferred("repeat", "tools"), 0);
    assert_eq!(inferred("padded", "tools"), N);
    assert_eq!(inferred("options", "env"), 1);
    assert_eq!(inferred("providers", "bins"), 1);
    assert_eq!(inferred("reads", "env"), 2 * N);
}

/// `f(0)`, `f(1)`, ... `f(n - 1)`, joined by `by`.
fn joined(n: usize, f: impl Fn(usize) -> String, by: &str) -> String {
    (0..n).map(f).collect::<Vec<_>>().join(by)
}

/// `skills/NAME/SKILL.md` under `root`, with `body`.
fn skill_in(root: &Path, name: &str, body: &str) {
    write(
        root,
        &format!("skills/{name}/SKILL.md"),
        skill_with_body(name, body),
    );
}
