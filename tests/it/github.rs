//! `--format github` (workflow commands) and the CI files that ship with the repository:
//! `action.yml`, `examples/ci/*.yml` and `.pre-commit-hooks.yaml`.
//!
//! The renderer must turn every finding into exactly one workflow command, whatever the path
//! and message hold: each test parses the output the way the Actions runner does and checks
//! that it gets back the original path and message, and never a second command.

use crate::common::*;

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;
use skill_audit::diagnostic::Pos;
use skill_audit::report::github::{command, escape_data, escape_property};
use skill_audit::{Finding, Rule, Severity};

/// A workflow command as the runner reads it.
#[derive(Debug, PartialEq)]
struct Parsed {
    name: String,
    properties: BTreeMap<String, String>,
    message: String,
}

/// The runner's unescaping (the reverse of the toolkit's escaping).
fn unescape(s: &str) -> String {
    s.replace("%0D", "\r")
        .replace("%0A", "\n")
        .replace("%3A", ":")
        .replace("%2C", ",")
        .replace("%25", "%")
}

/// Parse one line as the Actions runner does: `::name k=v,k=v::message`, the properties
/// ending at the first `::` after the leading one.
fn parse(line: &str) -> Option<Parsed> {
    let rest = line.strip_prefix("::")?;
    let end = rest.find("::")?;
    let (info, message) = (&rest[..end], &rest[end + 2..]);
    let (name, props) = info.split_once(' ').unwrap_or((info, ""));
    let mut properties = BTreeMap::new();
    for p in props.split(',').filter(|p| !p.is_empty()) {
        let (k, v) = p.split_once('=')?;
        properties.insert(k.to_owned(), unescape(v));
    }
    Some(Parsed {
        name: name.to_owned(),
        properties,
        message: unescape(message),
    })
}

/// The lines the runner would see, split the way it splits them (LF, CR or CRLF).
fn runner_lines(out: &str) -> Vec<&str> {
    out.split(['\n', '\r']).filter(|l| !l.is_empty()).collect()
}

/// `out` is exactly one command per finding, each giving back the finding's facts.
fn assert_commands(out: &str, findings: &[Finding]) {
    assert!(out.is_empty() || out.ends_with('\n'));
    let lines = runner_lines(out);
    assert_eq!(lines.len(), findings.len(), "one line per finding:\n{out}");
    assert_eq!(out.lines().count(), findings.len());
    for (line, f) in lines.iter().zip(findings) {
        assert!(
            !line.chars().any(|c| c.is_control() && c != '\t'),
            "no control characters: {line:?}"
        );
        let p = parse(line).unwrap_or_else(|| panic!("not a workflow command: {line:?}"));
        let name = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "notice",
        };
        assert_eq!(p.name, name);
        let keys: Vec<&str> = p.properties.keys().map(String::as_str).collect();
        assert_eq!(keys, ["col", "file", "line", "title"], "{line}");
        assert_eq!(p.properties["file"], visible(&f.path));
        assert_eq!(p.properties["line"], f.line.to_string());
        assert_eq!(p.properties["col"], f.column.to_string());
        assert_eq!(p.properties["title"], f.rule.code());
        match &f.fix {
            None => assert_eq!(p.message, visible(&f.message)),
            Some(fix) => assert_eq!(
                p.message,
                visible(&format!(
                    "{}\nSuggested fix (`skill-audit {}`): {}",
                    f.message,
                    match fix.applicability {
                        skill_audit::diagnostic::Applicability::Safe => "--fix",
                        skill_audit::diagnostic::Applicability::Unsafe => "--fix --unsafe-fixes",
                    },
                    fix.message
                ))
            ),
        }
    }
}

/// What the runner shows for `text`: CR and LF survive (as escapes), other control
/// characters are written out as `\u{..}`.
fn visible(text: &str) -> String {
    text.chars()
        .map(|c| {
            if (c.is_control() && !matches!(c, '\t' | '\r' | '\n'))
                || matches!(c, '\u{2028}' | '\u{2029}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
            {
                format!("\\u{{{:x}}}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

const HOSTILE: &[&str] = &[
    "plain",
    "line\nbreak",
    "line\r\n::error file=evil.md,line=1::injected",
    "carriage\rreturn::warning::x",
    "100% sure %0A already-escaped %25",
    "comma, colon: and ::double colons:: ::",
    "::error::starts like a command",
    "a,line=99,title=SPOOF::fake message",
    "ansi \x1b[31mred\x1b[0m and OSC \x1b]8;;https://e.test\x07link\x1b]8;;\x07",
    "nel\u{85}ls\u{2028}ps\u{2029}rtl\u{202e}end",
    "tab\tkept",
    "",
];

fn finding(rule: Rule, severity: Severity, path: &str, message: &str) -> Finding {
    let mut f = Finding::new(rule, path, Pos::new(7, 3), message);
    f.severity = severity;
    f
}

#[test]
fn hostile_paths_and_messages_stay_one_command() {
    let sevs = [Severity::Error, Severity::Warning, Severity::Info];
    let mut all = Vec::new();
    for (i, path) in HOSTILE.iter().enumerate() {
        for (j, message) in HOSTILE.iter().enumerate() {
            let f = finding(Rule::UnknownKey, sevs[(i + j) % 3], path, message);
            let line = command(&f);
            assert_commands(&format!("{line}\n"), std::slice::from_ref(&f));
            all.push(f);
        }
    }
    // Concatenated, they are still one command each.
    let out: String = all.iter().map(|f| command(f) + "\n").collect();
    assert_commands(&out, &all);
}

#[test]
fn escapes_match_the_toolkit() {
    assert_eq!(escape_data("50%\r\n"), "50%25%0D%0A");
    assert_eq!(escape_data("a:b,c"), "a:b,c");
    assert_eq!(escape_property("50%\r\n"), "50%25%0D%0A");
    assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    assert_eq!(escape_property("::"), "%3A%3A");
    assert_eq!(
        command(&finding(
            Rule::YamlSyntax,
            Severity::Error,
            "skills/a,b:c/SKILL.md",
            "bad: 1%\nnext"
        )),
        "::error file=skills/a%2Cb%3Ac/SKILL.md,line=7,col=3,title=SA104::bad: 1%25%0Anext"
    );
    assert_eq!(
        command(&finding(Rule::UnknownKey, Severity::Warning, "x.md", "m")),
        "::warning file=x.md,line=7,col=3,title=SA221::m"
    );
    assert_eq!(
        command(&finding(Rule::Utf8Bom, Severity::Info, "x.md", "m")),
        "::notice file=x.md,line=7,col=3,title=SA109::m"
    );
}

/// Run `args` in `cwd` with `-f github`, returning standard output and the exit code.
fn github_run(cwd: &Path, args: &[&str]) -> (String, i32) {
    let out = bin(cwd).args(args).args(["-f", "github"]).output().unwrap();
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap(),
    )
}

fn json_findings(cwd: &Path, args: &[&str]) -> Vec<Finding> {
    let out = bin(cwd).args(args).args(["-f", "json"]).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    serde_json::from_value(v["findings"].clone()).unwrap()
}

#[test]
fn example_library_annotations() {
    let root = Path::new(MANIFEST_DIR);
    let (out, code) = github_run(root, EXAMPLE);
    assert_eq!(code, 1, "the exit code follows --fail-on as for any format");
    let findings = json_findings(root, EXAMPLE);
    assert!(!findings.is_empty());
    assert_commands(&out, &findings);
    assert!(out.contains(
        "::error file=examples/library/skills/broken-skill/SKILL.md,line=3,col=22,title=SA104::"
    ));
}

#[test]
fn hostile_files_on_disk_stay_one_command() {
    let tmp = tempfile::tempdir().unwrap();
    // A folder name with a comma, colons, `%` and `::`; on Unix also a newline.
    let mut dirs = vec!["a,b:c%d::error::x".to_owned()];
    if cfg!(unix) {
        dirs.push("nl\n::error file=evil::pwned".to_owned());
    }
    for d in &dirs {
        let p = tmp.path().join("lib/skills").join(d);
        std::fs::create_dir_all(&p).unwrap();
        // Unknown keys whose names carry a line break, ANSI escapes and command syntax end up
        // in the messages.
        std::fs::write(
            p.join("SKILL.md"),
            "---\nname: x\ndescription: Does x. Use when asked.\n\
             \"evil\\n::error file=a.md,line=1::injected\": 1\n\
             \"red\\e[31m%0A,::\": 2\n\
             \"cr\\r::warning::y\": 3\n---\n# x\n",
        )
        .unwrap();
    }
    let (out, _) = github_run(tmp.path(), &["--fail-on", "never", "lib"]);
    let findings = json_findings(tmp.path(), &["lib"]);
    assert!(
        findings.iter().any(|f| f.message.contains('\n')),
        "a message carries a line break: {findings:#?}"
    );
    assert!(findings.iter().any(|f| f.message.contains('\x1b')));
    assert!(findings.len() >= 6);
    assert_commands(&out, &findings);
    let injected = runner_lines(&out)
        .iter()
        .filter_map(|l| parse(l))
        .filter(|p| {
            p.properties
                .get("file")
                .is_some_and(|f| f == "a.md" || f == "evil")
        })
        .count();
    assert_eq!(injected, 0);
}

#[test]
fn baseline_annotates_only_new_findings() {
    let tmp = tempfile::tempdir().unwrap();
    for d in ["old", "new"] {
        let p = tmp.path().join("lib").join(d);
        std::fs::create_dir_all(&p).unwrap();
        std::fs::write(p.join("SKILL.md"), "---\nname: [\n---\n").unwrap();
    }
    let st = bin(tmp.path())
        .args(["lib", "--exclude", "new", "-o", "old.json"])
        .output()
        .unwrap();
    assert_eq!(st.status.code(), Some(1));
    let (out, code) = github_run(tmp.path(), &["lib", "--baseline", "old.json"]);
    assert_eq!(code, 1);
    let lines = runner_lines(&out);
    assert!(!lines.is_empty());
    assert!(
        lines.iter().all(|l| l.contains("file=lib/new/SKILL.md")),
        "{out}"
    );
}

// ---- CI files ------------------------------------------------------------------------------

fn yaml(rel: &str) -> Value {
    let text = std::fs::read_to_string(Path::new(MANIFEST_DIR).join(rel))
        .unwrap_or_else(|e| panic!("{rel}: {e}"));
    serde_saphyr::from_str::<Value>(&text).unwrap_or_else(|e| panic!("{rel} is not YAML: {e}"))
}

fn ci_examples() -> BTreeMap<String, Value> {
    let dir = Path::new(MANIFEST_DIR).join("examples/ci");
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".yml") || name.ends_with(".yaml") {
            out.insert(name.clone(), yaml(&format!("examples/ci/{name}")));
        }
    }
    out
}

/// Every `run:` script and `uses:` of a workflow's jobs.
fn steps(workflow: &Value) -> Vec<&Value> {
    workflow["jobs"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|j| j["steps"].as_array().unwrap())
        .collect()
}

#[test]
fn action_yml_is_a_composite_action() {
    let a = yaml("action.yml");
    assert!(a["name"].is_string() && a["description"].is_string());
    assert_eq!(a["runs"]["using"], "composite");
    let inputs = a["inputs"].as_object().unwrap();
    for key in [
        "version", "paths", "profiles", "fail-on", "format", "outputs", "baseline",
    ] {
        assert!(inputs.contains_key(key), "input {key}");
    }
    let outputs = a["outputs"].as_object().unwrap();
    for key in ["exit-code", "reports", "markdown"] {
        assert!(outputs.contains_key(key), "output {key}");
        assert!(outputs[key]["value"].as_str().unwrap().contains("steps."));
    }
    let steps = a["runs"]["steps"].as_array().unwrap();
    let scripts: String = steps
        .iter()
        .filter_map(|s| s["run"].as_str())
        .collect::<Vec<_>>()
        .join("\n");
    // It downloads with the installer (tests/it/install.rs), keeps what it got in the tool
    // cache, and builds from its own checkout only as the installer's fallback.
    assert!(scripts.contains(r#"sh "$ACTION_PATH/dist/install.sh""#));
    assert!(scripts.contains("--cargo-fallback"));
    assert!(
        !scripts.contains("cargo install"),
        "only install.sh runs cargo"
    );
    let cache = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("actions/cache@"))
        })
        .expect("an actions/cache step");
    assert!(
        cache["with"]["key"]
            .as_str()
            .unwrap()
            .contains("runner.arch")
    );
    assert!(scripts.contains("GITHUB_STEP_SUMMARY"));
    assert!(scripts.contains("GITHUB_OUTPUT"));
    for s in steps.iter().filter(|s| s.get("run").is_some()) {
        assert_eq!(s["shell"], "bash", "composite run steps name their shell");
        // Inputs reach scripts through the environment, never spliced into the script.
        let run = s["run"].as_str().unwrap();
        assert!(!run.contains("${{ inputs."), "{run}");
    }
}

#[test]
fn ci_examples_parse_and_keep_their_permissions() {
    let all = ci_examples();
    for name in [
        "nightly.yml",
        "pr-audit.yml",
        "pr-comment.yml",
        "code-scanning.yml",
    ] {
        assert!(all.contains_key(name), "examples/ci/{name}");
    }
    for (name, w) in &all {
        assert!(w["name"].is_string(), "{name}");
        assert!(w["on"].is_object(), "{name}: `on` is a mapping");
        assert!(w["permissions"].is_object(), "{name}: explicit permissions");
        assert!(!steps(w).is_empty(), "{name}");
    }

    // The untrusted half: pull_request, read-only, no secrets.
    let audit = &all["pr-audit.yml"];
    assert!(audit["on"].get("pull_request").is_some());
    assert!(audit["on"].get("pull_request_target").is_none());
    for (k, v) in audit["permissions"].as_object().unwrap() {
        assert_eq!(v, "read", "pr-audit.yml: {k} is read-only");
    }
    let text =
        std::fs::read_to_string(Path::new(MANIFEST_DIR).join("examples/ci/pr-audit.yml")).unwrap();
    assert!(!text.contains("secrets."), "pr-audit.yml uses no secrets");
    assert!(text.contains("skill-audit diff"));
    assert!(text.contains("actions/upload-artifact"));

    // The trusted half: workflow_run, may write comments, never checks out or runs PR code.
    let comment = &all["pr-comment.yml"];
    assert!(comment["on"].get("workflow_run").is_some());
    assert_eq!(comment["permissions"]["pull-requests"], "write");
    let text = std::fs::read_to_string(Path::new(MANIFEST_DIR).join("examples/ci/pr-comment.yml"))
        .unwrap();
    assert!(text.contains("<!-- skill-audit-report -->"));
    for s in steps(comment) {
        let uses = s["uses"].as_str().unwrap_or("");
        assert!(
            !uses.starts_with("actions/checkout"),
            "pr-comment.yml checks out nothing"
        );
        let run = s["run"].as_str().unwrap_or("");
        assert!(
            !run.contains("skill-audit"),
            "pr-comment.yml runs no PR code"
        );
    }

    let scanning = &all["code-scanning.yml"];
    assert_eq!(scanning["permissions"]["security-events"], "write");
    assert!(steps(scanning).iter().any(|s| {
        s["uses"]
            .as_str()
            .unwrap_or("")
            .starts_with("github/codeql-action/upload-sarif")
    }));

    let nightly = &all["nightly.yml"];
    assert!(nightly["on"].get("schedule").is_some());
    for (k, v) in nightly["permissions"].as_object().unwrap() {
        assert_eq!(v, "read", "nightly.yml: {k} is read-only");
    }
    let text =
        std::fs::read_to_string(Path::new(MANIFEST_DIR).join("examples/ci/nightly.yml")).unwrap();
    assert!(text.contains("-o report.html -o report.json"));
    assert!(text.contains("skill-audit capture"));
    assert!(text.contains("gh run download"));
    assert!(text.contains("skill-audit diff previous/profile.json profile.json -f markdown"));
    assert!(text.contains("skill-audit diff previous/report.json report.json -f markdown"));
    // The secret reaches only the step that captures, and never a command line.
    for s in steps(nightly) {
        let env = s["env"].as_object();
        let secret = env.is_some_and(|e| {
            e.values()
                .any(|v| v.as_str().unwrap_or("").contains("secrets."))
        });
        let run = s["run"].as_str().unwrap_or("");
        assert!(
            !run.contains("${{"),
            "nightly.yml: inputs reach scripts through env: {run}"
        );
        assert_eq!(
            secret,
            run.contains("skill-audit capture"),
            "nightly.yml: {run}"
        );
    }
}

/// The `skill-audit` commands of a `run:` script, as argument lists: lines joined at `\`,
/// cut at `|`, `&&`, `||`, `;`, `(`, `)` and redirections, words split as the shell splits
/// them, `$VAR` taken from `env` (split when unquoted) or left as a placeholder.
fn skill_audit_commands(script: &str, env: &BTreeMap<String, String>) -> Vec<Vec<String>> {
    let script = script.replace("\\\n", " ");
    let mut commands = Vec::new();
    for line in script.lines() {
        let mut words: Vec<String> = Vec::new();
        let mut word: Option<String> = None;
        let mut chars = line.chars().peekable();
        let mut quote: Option<char> = None;
        let mut redirect = false;
        let flush = |word: &mut Option<String>, words: &mut Vec<String>, redirect: &mut bool| {
            if let Some(w) = word.take() {
                // A redirection's target is not an argument.
                if !std::mem::take(redirect) {
                    words.push(w);
                }
            }
        };
        let end = |words: &mut Vec<String>, commands: &mut Vec<Vec<String>>| {
            if words.first().is_some_and(|w| w == "skill-audit") {
                commands.push(std::mem::take(words));
            }
            words.clear();
        };
        while let Some(c) = chars.next() {
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some('\''), c) => word.get_or_insert_default().push(c),
                (_, '$')
                    if chars
                        .peek()
                        .is_some_and(|c| c.is_ascii_alphabetic() || *c == '_' || *c == '{') =>
                {
                    let braced = chars.next_if_eq(&'{').is_some();
                    let mut name = String::new();
                    while let Some(c) = chars.next_if(|c| c.is_ascii_alphanumeric() || *c == '_') {
                        name.push(c);
                    }
                    if braced {
                        chars.next_if_eq(&'}');
                    }
                    let value = env
                        .get(&name)
                        .cloned()
                        .unwrap_or_else(|| format!("[{name}]"));
                    if quote.is_some() {
                        word.get_or_insert_default().push_str(&value);
                    } else {
                        let mut parts = value.split_whitespace().peekable();
                        while let Some(p) = parts.next() {
                            word.get_or_insert_default().push_str(p);
                            if parts.peek().is_some() {
                                flush(&mut word, &mut words, &mut redirect);
                            }
                        }
                    }
                }
                (Some(_), c) => word.get_or_insert_default().push(c),
                (None, '\'' | '"') => {
                    quote = Some(c);
                    word.get_or_insert_default();
                }
                (None, '#') if word.is_none() => break,
                (None, ' ' | '\t') => flush(&mut word, &mut words, &mut redirect),
                (None, '>' | '<') => {
                    // `2>`, `>>`, `>&2`: the number before and the target after are not words.
                    if word
                        .as_deref()
                        .is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()))
                    {
                        word = None;
                    }
                    flush(&mut word, &mut words, &mut redirect);
                    chars.next_if(|c| *c == '>' || *c == '&');
                    redirect = true;
                }
                (None, '|' | '&' | ';' | '(' | ')' | '{' | '}') => {
                    chars.next_if(|n| *n == c);
                    flush(&mut word, &mut words, &mut redirect);
                    end(&mut words, &mut commands);
                }
                (None, c) => word.get_or_insert_default().push(c),
            }
        }
        flush(&mut word, &mut words, &mut redirect);
        end(&mut words, &mut commands);
    }
    commands
}

#[test]
fn the_command_splitter_splits_as_the_shell_does() {
    let env = BTreeMap::from([("P".to_owned(), "-p a -p b".to_owned())]);
    let got = skill_audit_commands(
        "(cd x && skill-audit $P . -o \"$OUT\" 2>&1) | tee log\n  skill-audit diff a \\\n b >> \"$GITHUB_STEP_SUMMARY\"\n# skill-audit no\necho skill-audit x\nskill-audit capture --header 'A: $T' # note",
        &env,
    );
    assert_eq!(
        got,
        [
            vec!["skill-audit", "-p", "a", "-p", "b", ".", "-o", "[OUT]"],
            vec!["skill-audit", "diff", "a", "b"],
            vec!["skill-audit", "capture", "--header", "A: $T"],
        ]
    );
}

/// Every `skill-audit` command in the example workflows parses: each subcommand, flag and
/// value they use exists.
#[test]
fn ci_examples_use_only_flags_that_exist() {
    use clap::Parser;
    let mut seen = 0;
    for (name, w) in ci_examples() {
        let mut env: BTreeMap<String, String> = BTreeMap::new();
        let strings = |v: &Value| -> Vec<(String, String)> {
            v.as_object()
                .into_iter()
                .flatten()
                .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_owned()))
                .collect()
        };
        env.extend(strings(&w["env"]));
        for job in w["jobs"].as_object().unwrap().values() {
            let mut job_env = env.clone();
            job_env.extend(strings(&job["env"]));
            for step in job["steps"].as_array().unwrap() {
                let Some(run) = step["run"].as_str() else {
                    continue;
                };
                let mut step_env = job_env.clone();
                step_env.extend(strings(&step["env"]));
                for argv in skill_audit_commands(run, &step_env) {
                    seen += 1;
                    if let Err(e) = skill_audit::cli::Cli::try_parse_from(&argv) {
                        panic!("{name}: `{}` does not parse:\n{e}", argv.join(" "));
                    }
                }
            }
        }
    }
    assert!(seen >= 8, "found {seen} commands");
}

#[test]
fn pre_commit_hook() {
    let hooks = yaml(".pre-commit-hooks.yaml");
    let hooks = hooks.as_array().unwrap();
    let h = hooks.iter().find(|h| h["id"] == "skill-audit").unwrap();
    // The binary's wheel from PyPI (pyproject.toml pins it), not a build with cargo.
    assert_eq!(h["language"], "python");
    assert_eq!(h["entry"], "skill-audit");
    assert_eq!(h["pass_filenames"], false);
    // The pattern names the files skill-audit reads.
    let files = h["files"].as_str().unwrap();
    for part in ["SKILL", "agent", "plugin"] {
        assert!(files.contains(part), "{files}");
    }
}

#[test]
fn release_workflow_builds_every_target_the_installer_knows() {
    let w = yaml(".github/workflows/release.yml");
    assert!(w["on"]["push"]["tags"].is_array());
    assert_eq!(w["permissions"]["contents"], "read");
    let build = &w["jobs"]["build"];
    let mut targets: Vec<&str> = build["strategy"]["matrix"]["include"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["target"].as_str().unwrap())
        .collect();
    targets.sort();
    assert_eq!(
        targets,
        [
            "aarch64-apple-darwin",
            "aarch64-unknown-linux-musl",
            "x86_64-apple-darwin",
            "x86_64-pc-windows-msvc",
            "x86_64-unknown-linux-musl",
        ]
    );
    // The installer downloads exactly these.
    let install = std::fs::read_to_string(Path::new(MANIFEST_DIR).join("dist/install.sh")).unwrap();
    for t in &targets {
        assert!(install.contains(t), "dist/install.sh knows {t}");
    }
    // Every build packages with the script CI runs, and attests what it made.
    let steps = build["steps"].as_array().unwrap();
    assert!(steps.iter().any(|s| {
        s["run"]
            .as_str()
            .is_some_and(|r| r.contains("dist/package.sh --target"))
    }));
    assert!(steps.iter().any(|s| {
        s["uses"]
            .as_str()
            .is_some_and(|u| u.starts_with("actions/attest-build-provenance@"))
    }));
    assert_eq!(build["permissions"]["id-token"], "write");
    assert_eq!(build["permissions"]["attestations"], "write");
}
