//! This machine, as a profile (`skill-audit capture --machine`): its OS, which of the
//! executables and variables the audited skills ask for it has, and its Python
//! distributions.
//!
//! Only names are recorded, never a variable's value. Executables are found by looking in the
//! `PATH` folders, never by running anything; the one program run is `python3`, by absolute
//! path, isolated (`-I`), never one inside the audited tree.

use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsStr;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::model::{DepKind, Group, Skill};
use crate::profile::machine::package_name;

/// How long `python3` may take to list its distributions.
pub(crate) const PYTHON_TIMEOUT: Duration = Duration::from_secs(5);

/// The most `python3` may print; a listing is a few kilobytes per hundred distributions.
const PYTHON_OUTPUT_LIMIT: u64 = 4 << 20;

/// Prints the installed distributions as one JSON object, name to version; the first found
/// on `sys.path` wins, as it does for imports.
const PYTHON_SCRIPT: &str = "import json, importlib.metadata as m
r = {}
for d in m.distributions():
    n = d.metadata['Name']
    if isinstance(n, str) and n and isinstance(d.version, str):
        r.setdefault(n, d.version)
print(json.dumps(r))
";

/// The executables and variables skills ask for.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Asked {
    pub bins: BTreeSet<String>,
    pub env: BTreeSet<String>,
}

/// The names of a group, `all` and `any` alike: a machine that has one of an `any` group
/// should say so.
fn group_names(g: &Group) -> impl Iterator<Item = &String> {
    g.all.iter().chain(g.any.iter().flatten())
}

/// What `skills` ask for, from every source that declares requirements.
pub(crate) fn asked<'a>(skills: impl IntoIterator<Item = &'a Skill>) -> Asked {
    let mut out = Asked::default();
    for skill in skills {
        for r in skill.requirements.iter().map(|d| &d.requirements) {
            out.bins
                .extend(group_names(r.group(DepKind::Bins)).map(|n| n.trim().to_owned()));
            out.env
                .extend(group_names(r.group(DepKind::Env)).map(|n| n.trim().to_owned()));
        }
    }
    out.bins.retain(|n| is_bin_name(n));
    out.env.retain(|n| is_env_name(n));
    out
}

/// A name that can only mean a file in a `PATH` folder: one path component, nothing that
/// would leave the folder.
fn is_bin_name(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', ':', '\0'])
}

/// A name the environment can hold (the platform refuses `=` and NUL in names).
fn is_env_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(['=', '\0'])
}

/// The OS, as OpenClaw names it (`darwin`, `linux`, `win32`), if it is one of those.
pub(crate) fn this_os() -> Option<&'static str> {
    os_of(std::env::consts::OS)
}

fn os_of(rust_os: &str) -> Option<&'static str> {
    match rust_os {
        "macos" => Some("darwin"),
        "linux" => Some("linux"),
        "windows" => Some("win32"),
        _ => None,
    }
}

/// The file names `name` may have in a `PATH` folder: on Windows, with each `PATHEXT`
/// extension (and as written when it already ends in one).
fn file_names(name: &str, pathext: Option<&str>, windows: bool) -> Vec<String> {
    if !windows {
        return vec![name.to_owned()];
    }
    let exts: Vec<&str> = pathext
        .unwrap_or(".COM;.EXE;.BAT;.CMD")
        .split(';')
        .map(str::trim)
        .filter(|e| e.starts_with('.') && e.len() > 1)
        .collect();
    let lower = name.to_ascii_lowercase();
    let mut out = Vec::new();
    if exts
        .iter()
        .any(|e| lower.ends_with(&e.to_ascii_lowercase()))
    {
        out.push(name.to_owned());
    }
    out.extend(exts.iter().map(|e| format!("{name}{e}")));
    out
}

/// The absolute folders of a `PATH` value. Relative entries (an empty one means the current
/// folder) are skipped: what they hold depends on where skill-audit runs, which is often
/// the tree being audited.
fn path_dirs(path: Option<&OsStr>) -> Vec<PathBuf> {
    path.map(|p| {
        std::env::split_paths(p)
            .filter(|d| d.is_absolute())
            .collect()
    })
    .unwrap_or_default()
}

/// Is `path` a regular file this user could run? Looked at, never run.
fn is_executable(path: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// Where `name` is found on `path`: the first executable file of that name (or a `PATHEXT`
/// variant) in its folders.
fn which(name: &str, dirs: &[PathBuf], pathext: Option<&str>) -> Option<PathBuf> {
    let names = file_names(name, pathext, cfg!(windows));
    dirs.iter()
        .flat_map(|d| names.iter().map(move |n| d.join(n)))
        .find(|p| is_executable(p))
}

/// Which of `names` are executables on `path` (a `PATH` value).
pub(crate) fn bins_on_path(
    names: &BTreeSet<String>,
    path: Option<&OsStr>,
    pathext: Option<&str>,
) -> BTreeSet<String> {
    let dirs = path_dirs(path);
    names
        .iter()
        .filter(|n| is_bin_name(n) && which(n, &dirs, pathext).is_some())
        .cloned()
        .collect()
}

/// Which of `names` are set, by `lookup`. Only names come back: a value is never read out.
pub(crate) fn env_set(names: &BTreeSet<String>, is_set: impl Fn(&str) -> bool) -> BTreeSet<String> {
    names
        .iter()
        .filter(|n| is_env_name(n) && is_set(n))
        .cloned()
        .collect()
}

/// Is the variable `name` set to something? An empty value meets no skill asking for, say,
/// an API key.
pub(crate) fn is_set(name: &str) -> bool {
    is_env_name(name) && std::env::var_os(name).is_some_and(|v| !v.is_empty())
}

/// `python3` on `path`, unless the file it is (symlinks resolved) lies under one of `roots`,
/// the audited tree: nothing in that tree is ever run.
pub(crate) fn find_python(
    path: Option<&OsStr>,
    pathext: Option<&str>,
    roots: &[PathBuf],
) -> Option<PathBuf> {
    let roots: Vec<PathBuf> = roots
        .iter()
        .filter_map(|r| std::fs::canonicalize(r).ok())
        .collect();
    let names = file_names("python3", pathext, cfg!(windows));
    path_dirs(path)
        .iter()
        .flat_map(|d| names.iter().map(move |n| d.join(n)))
        .filter(|p| is_executable(p))
        .find_map(|p| {
            let real = std::fs::canonicalize(&p).ok()?;
            (!roots.iter().any(|r| real.starts_with(r))).then_some(real)
        })
}

/// The distributions `python` lists: normalised name (PEP 503) to version. `Err` says why
/// there are none to record.
pub(crate) fn python_packages(
    python: &Path,
    timeout: Duration,
) -> Result<BTreeMap<String, String>, String> {
    let shown = python.display();
    let mut child = std::process::Command::new(python)
        // Isolated: no `PYTHON*` variables, no user site, and neither the current folder nor
        // a script folder on `sys.path`, so no module of the audited tree is imported.
        .args(["-I", "-c", PYTHON_SCRIPT])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run {shown}: {e}"))?;
    let stdout = child.stdout.take();
    // Read on a thread, at most the limit and one byte: a child that prints more finds its
    // pipe closed and stops.
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(out) = stdout {
            let _ = out.take(PYTHON_OUTPUT_LIMIT + 1).read_to_end(&mut buf);
        }
        buf
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{shown} did not finish within {} s",
                    timeout.as_secs()
                ));
            }
            Err(e) => return Err(format!("cannot wait for {shown}: {e}")),
        }
    };
    let out = reader.join().unwrap_or_default();
    if out.len() as u64 > PYTHON_OUTPUT_LIMIT {
        return Err(format!(
            "{shown} printed more than {} MiB",
            PYTHON_OUTPUT_LIMIT >> 20
        ));
    }
    if !status.success() {
        return Err(format!("{shown} failed ({status})"));
    }
    parse_packages(&out).map_err(|e| format!("{shown} printed no package list: {e}"))
}

/// `{"Name": "version", ...}` as normalised names; a name given twice keeps its first version.
fn parse_packages(out: &[u8]) -> Result<BTreeMap<String, String>, String> {
    let listed: serde_json::Map<String, serde_json::Value> =
        serde_json::from_slice(out).map_err(|e| e.to_string())?;
    let mut packages = BTreeMap::new();
    for (name, version) in listed {
        let (name, Some(version)) = (package_name(&name), version.as_str()) else {
            continue;
        };
        if !name.is_empty() {
            packages.entry(name).or_insert_with(|| version.to_owned());
        }
    }
    Ok(packages)
}

/// A machine profile, in the order its keys are written. Kinds it does not describe are
/// left out, so they are not judged.
#[derive(Debug, Serialize)]
pub(crate) struct Captured<'a> {
    pub name: &'a str,
    pub description: &'a str,
    pub captured_at: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub os: Option<Vec<&'a str>>,
    pub bins: &'a BTreeSet<String>,
    pub env: &'a BTreeSet<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packages: Option<&'a BTreeMap<String, String>>,
}

/// What a capture of this machine found.
#[derive(Debug, Default)]
pub(crate) struct Found {
    pub os: Option<&'static str>,
    pub bins: BTreeSet<String>,
    pub env: BTreeSet<String>,
    pub packages: Option<BTreeMap<String, String>>,
}

/// The profile JSON for `found`, named `name` (default `machine`).
pub(crate) fn profile_json(found: &Found, name: Option<&str>, now: SystemTime) -> String {
    let captured = Captured {
        name: name.filter(|n| !n.trim().is_empty()).unwrap_or("machine"),
        description: "Captured from this machine by `skill-audit capture --machine`: its OS, \
                      the executables and environment variables the audited skills ask for \
                      that it has (names only), and its Python packages.",
        captured_at: crate::mcp::capture::rfc3339(now),
        os: found.os.map(|os| vec![os]),
        bins: &found.bins,
        env: &found.env,
        packages: found.packages.as_ref(),
    };
    let mut text = serde_json::to_string_pretty(&captured).unwrap_or_default();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Declared, Origin, Requirements};

    fn skill(requirements: Vec<Requirements>) -> Skill {
        let mut s = Skill::invalid("s".into(), "s/SKILL.md".into(), "s/SKILL.md".into());
        s.invalid = false;
        s.requirements = requirements
            .into_iter()
            .map(|requirements| Declared {
                source: Origin::Openclaw,
                file: None,
                line: 1,
                column: 1,
                requirements,
                uses: Vec::new(),
                block: "",
            })
            .collect();
        s
    }

    fn group(all: &[&str], any: Option<&[&str]>) -> Group {
        Group {
            all: all.iter().map(|s| (*s).to_owned()).collect(),
            any: any.map(|a| a.iter().map(|s| (*s).to_owned()).collect()),
            ..Group::default()
        }
    }

    /// Requirements with `bins` and `env` groups.
    fn machine(bins: Group, env: Group) -> Requirements {
        let mut r = Requirements::default();
        *r.group_mut(DepKind::Bins) = bins;
        *r.group_mut(DepKind::Env) = env;
        r
    }

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| (*n).to_owned()).collect()
    }

    #[test]
    fn asked_gathers_all_and_any_of_every_source() {
        let a = skill(vec![
            machine(
                group(&["git", "jq"], Some(&["rg", "ag"])),
                group(&["GITHUB_TOKEN"], None),
            ),
            Requirements {
                tools: group(&["not-a-bin"], None),
                ..machine(
                    group(&["git"], None),
                    group(&[], Some(&["OPENAI_API_KEY", "ANTHROPIC_API_KEY"])),
                )
            },
        ]);
        let b = skill(vec![
            machine(
                group(&["../../bin/sh", "/usr/bin/env", "", "uv"], None),
                group(&["A=B", "HOME"], None),
            ),
            machine(group(&["make"], None), Group::default()),
        ]);
        let got = asked([&a, &b]);
        assert_eq!(got.bins, set(&["ag", "git", "jq", "make", "rg", "uv"]));
        assert_eq!(
            got.env,
            set(&[
                "ANTHROPIC_API_KEY",
                "GITHUB_TOKEN",
                "HOME",
                "OPENAI_API_KEY"
            ])
        );
    }

    #[test]
    fn windows_names_take_pathext() {
        assert_eq!(file_names("git", None, false), ["git"]);
        assert_eq!(
            file_names("git", Some(".EXE;.CMD;;bad"), true),
            ["git.EXE", "git.CMD"]
        );
        assert_eq!(
            file_names("git.exe", Some(".EXE"), true),
            ["git.exe", "git.exe.EXE"]
        );
    }

    #[test]
    fn os_names() {
        assert_eq!(os_of("macos"), Some("darwin"));
        assert_eq!(os_of("windows"), Some("win32"));
        assert_eq!(os_of("linux"), Some("linux"));
        assert_eq!(os_of("freebsd"), None);
    }

    #[cfg(unix)]
    #[test]
    fn bins_are_executable_files_in_absolute_path_folders() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        for d in [&a, &b] {
            std::fs::create_dir(d).unwrap();
        }
        let file = |p: PathBuf, mode: u32| {
            std::fs::write(&p, "#!/bin/sh\nexit 1\n").unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(mode)).unwrap();
        };
        file(a.join("tool"), 0o755);
        file(a.join("plain"), 0o644);
        file(b.join("other"), 0o700);
        std::fs::create_dir(b.join("folder")).unwrap();
        let path = std::env::join_paths([&a, &b, &PathBuf::from("relative")]).unwrap();
        let names = set(&["tool", "plain", "other", "folder", "missing", "../a/tool"]);
        assert_eq!(
            bins_on_path(&names, Some(&path), None),
            set(&["other", "tool"])
        );
        // A relative folder is not looked in, even where it holds the file.
        let rel = std::env::join_paths(["."]).unwrap();
        assert!(bins_on_path(&set(&["tool"]), Some(&rel), None).is_empty());
        assert!(bins_on_path(&names, None, None).is_empty());
        // python3 inside an audited root is never chosen.
        file(a.join("python3"), 0o755);
        let path = std::env::join_paths([&a]).unwrap();
        assert_eq!(
            find_python(Some(&path), None, &[]),
            Some(std::fs::canonicalize(a.join("python3")).unwrap())
        );
        assert_eq!(find_python(Some(&path), None, &[dir.path().into()]), None);
    }

    #[test]
    fn env_records_names_only() {
        let names = set(&["HOME", "TOKEN", "UNSET", "A=B"]);
        let got = env_set(&names, |n| n != "UNSET");
        assert_eq!(got, set(&["HOME", "TOKEN"]));
        assert!(!is_set(""));
        assert!(!is_set("A=B"));
    }

    #[test]
    fn package_listings_are_normalised() {
        let got = parse_packages(br#"{"Zope.Interface": "7.0", "requests": "2.32.3", "x": null}"#)
            .unwrap();
        assert_eq!(
            format!("{got:?}"),
            r#"{"requests": "2.32.3", "zope-interface": "7.0"}"#
        );
        assert!(parse_packages(b"Traceback").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_slow_or_failing_python_records_no_packages() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let fake = |name: &str, body: &str| {
            let p = dir.path().join(name);
            std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
            p
        };
        let slow = fake("slow", "sleep 10");
        let started = Instant::now();
        let e = python_packages(&slow, Duration::from_millis(300)).unwrap_err();
        assert!(e.contains("did not finish"), "{e}");
        assert!(started.elapsed() < Duration::from_secs(5));
        let e = python_packages(&fake("fails", "exit 3"), PYTHON_TIMEOUT).unwrap_err();
        assert!(e.contains("failed"), "{e}");
        let ok = fake("ok", r#"echo '{"Foo_Bar": "1.0"}'"#);
        let got = python_packages(&ok, PYTHON_TIMEOUT).unwrap();
        assert_eq!(got.get("foo-bar").map(String::as_str), Some("1.0"));
        let loud = fake("loud", "yes '\"aaaaaaaaaaaaaaaaaaaaaaa\",'");
        let e = python_packages(&loud, PYTHON_TIMEOUT).unwrap_err();
        assert!(e.contains("more than"), "{e}");
    }

    #[test]
    fn a_capture_is_a_loadable_profile_of_names() {
        let found = Found {
            os: Some("linux"),
            bins: set(&["git"]),
            env: set(&["HOME"]),
            packages: Some([("requests".to_owned(), "2.32.3".to_owned())].into()),
        };
        let text = profile_json(&found, Some("laptop"), std::time::UNIX_EPOCH);
        let p = crate::profile::parse(&text, Path::new("m.json"), "m.json").unwrap();
        assert_eq!(p.name, "laptop");
        assert_eq!(p.machine.os, Some(set(&["linux"])));
        assert_eq!(p.machine.bins, Some(set(&["git"])));
        assert_eq!(p.machine.env, Some(set(&["HOME"])));
        assert_eq!(p.machine.config, None, "not described");
        assert!(
            text.contains("\"captured_at\": \"1970-01-01T00:00:00Z\""),
            "{text}"
        );
        // Without packages or a known OS, those keys are left out: not described.
        let bare = profile_json(&Found::default(), None, std::time::UNIX_EPOCH);
        let p = crate::profile::parse(&bare, Path::new("m.json"), "m.json").unwrap();
        assert_eq!(p.name, "machine");
        assert_eq!((p.machine.os, p.machine.packages), (None, None));
        assert_eq!(p.machine.bins, Some(BTreeSet::new()));
    }
}
