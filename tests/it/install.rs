//! The download path of the GitHub Action and of the `curl | sh` installer (`dist/install.sh`),
//! against a fake release served over HTTP from a temporary folder: the archive is made by
//! `dist/package.sh`, the script the release workflow builds archives with. A right checksum
//! installs a binary that runs, a wrong one is refused, and a platform without an archive
//! falls back to `cargo install --locked` (a stand-in `cargo` records how it was called).
//! Also: the versions of the npm and Python packages follow Cargo.toml's.
#![cfg(unix)]

use crate::common::*;

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

/// A static file server on a localhost port, serving `root` until the test process ends:
/// 200 with the file's bytes, or 404. It keeps the paths asked for.
struct FakeRelease {
    url: String,
    asked: Arc<Mutex<Vec<String>>>,
}

impl FakeRelease {
    fn serve(root: &Path) -> FakeRelease {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let asked = Arc::new(Mutex::new(Vec::new()));
        let (root, log) = (root.to_path_buf(), Arc::clone(&asked));
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut request = String::new();
                if reader.read_line(&mut request).is_err() {
                    continue;
                }
                // The headers, up to the blank line; nothing here has a body.
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let path = request.split(' ').nth(1).unwrap_or("/").to_owned();
                log.lock().unwrap().push(path.clone());
                let file = root.join(path.trim_start_matches('/'));
                let (status, body) = match std::fs::read(&file) {
                    Ok(b) if file.is_file() => ("200 OK", b),
                    _ => ("404 Not Found", b"not found\n".to_vec()),
                };
                let head = format!(
                    "HTTP/1.1 {status}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(head.as_bytes());
                let _ = stream.write_all(&body);
            }
        });
        FakeRelease { url, asked }
    }

    fn asked(&self) -> Vec<String> {
        self.asked.lock().unwrap().clone()
    }
}

/// The release target `dist/install.sh` picks on this machine, if releases have one.
fn this_target() -> Option<String> {
    let arch = match std::env::consts::ARCH {
        a @ ("x86_64" | "aarch64") => a,
        _ => return None,
    };
    match std::env::consts::OS {
        "linux" => Some(format!("{arch}-unknown-linux-musl")),
        "macos" => Some(format!("{arch}-apple-darwin")),
        _ => None,
    }
}

fn write_exe(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// A stand-in for the binary: it answers `--version` as skill-audit does.
fn stand_in(dir: &Path) -> PathBuf {
    let p = dir.join("skill-audit");
    write_exe(
        &p,
        &format!("#!/bin/sh\necho \"skill-audit {VERSION} (stand-in)\"\n"),
    );
    p
}

/// A fake release folder holding the archive `dist/package.sh` makes for `target`: the
/// folder, and the archive's path.
fn fake_release(target: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let binary = stand_in(tmp.path());
    let out = tmp.path().join("release").join(format!("v{VERSION}"));
    let run = Command::new("bash")
        .arg(Path::new(MANIFEST_DIR).join("dist/package.sh"))
        .args(["--target", target, "--only", "archive", "--binary"])
        .arg(&binary)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(run.status.success(), "package.sh: {}", text(&run.stderr));
    let archive = out.join(format!("skill-audit-v{VERSION}-{target}.tar.gz"));
    assert_eq!(text(&run.stdout).trim(), archive.to_str().unwrap());
    (tmp, archive)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Run `dist/install.sh ARGS` with `path_first` (if any) ahead of PATH.
fn install(args: &[&str], path_first: Option<&Path>) -> Output {
    let mut c = Command::new("sh");
    c.arg(Path::new(MANIFEST_DIR).join("dist/install.sh"))
        .args(args);
    for v in [
        "SKILL_AUDIT_VERSION",
        "SKILL_AUDIT_INSTALL_DIR",
        "SKILL_AUDIT_DOWNLOAD_URL",
    ] {
        c.env_remove(v);
    }
    if let Some(dir) = path_first {
        let path = std::env::var("PATH").unwrap_or_default();
        c.env("PATH", format!("{}:{path}", dir.display()));
    }
    c.output().unwrap()
}

#[test]
fn the_archive_holds_one_folder_and_its_checksum_is_sha256sums() {
    let Some(target) = this_target() else { return };
    let (_tmp, archive) = fake_release(&target);
    let name = format!("skill-audit-v{VERSION}-{target}");
    let list = Command::new("tar")
        .arg("-tzf")
        .arg(&archive)
        .output()
        .unwrap();
    let mut entries: Vec<String> = text(&list.stdout).lines().map(str::to_owned).collect();
    entries.sort();
    let want: Vec<String> = [
        "",
        "LICENSE-APACHE",
        "LICENSE-MIT",
        "README.md",
        "skill-audit",
    ]
    .iter()
    .map(|f| format!("{name}/{f}"))
    .collect();
    assert_eq!(entries, want);

    let sum = std::fs::read_to_string(archive.with_extension("gz.sha256")).unwrap();
    let hex: String = Sha256::digest(std::fs::read(&archive).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(sum, format!("{hex}  {name}.tar.gz\n"));
}

#[test]
fn a_right_checksum_installs_a_binary_that_runs_and_a_second_run_downloads_nothing() {
    let Some(target) = this_target() else { return };
    let (tmp, _) = fake_release(&target);
    let server = FakeRelease::serve(&tmp.path().join("release"));
    let dest = tmp.path().join("bin");
    let args = [
        "--version",
        VERSION,
        "--to",
        dest.to_str().unwrap(),
        "--base-url",
        &server.url,
    ];
    let out = install(&args, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bin = dest.join("skill-audit");
    assert_eq!(text(&out.stdout).trim(), bin.to_str().unwrap());
    let run = Command::new(&bin).arg("--version").output().unwrap();
    assert_eq!(
        text(&run.stdout).trim(),
        format!("skill-audit {VERSION} (stand-in)")
    );
    let name = format!("/v{VERSION}/skill-audit-v{VERSION}-{target}.tar.gz");
    assert_eq!(server.asked(), [name.clone(), format!("{name}.sha256")]);

    // The Action's cache restores the folder: the same version is not fetched again.
    let again = install(&args, None);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(
        text(&again.stderr).contains("already"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(server.asked().len(), 2);
}

#[test]
fn a_wrong_checksum_is_refused_and_nothing_is_installed() {
    let Some(target) = this_target() else { return };
    let (tmp, archive) = fake_release(&target);
    let sum = archive.with_extension("gz.sha256");
    let line = std::fs::read_to_string(&sum).unwrap();
    // The checksum of other bytes: the archive is not the one the release names.
    let other: String = Sha256::digest(b"another archive")
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let (_, file) = line.split_once("  ").unwrap();
    std::fs::write(&sum, format!("{other}  {file}")).unwrap();
    let server = FakeRelease::serve(&tmp.path().join("release"));
    let dest = tmp.path().join("bin");
    let out = install(
        &[
            "--version",
            VERSION,
            "--to",
            dest.to_str().unwrap(),
            "--base-url",
            &server.url,
            // A wrong checksum must never turn into a build from source.
            "--cargo-fallback",
            "crates.io",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("checksum mismatch"), "{err}");
    assert!(err.contains(&other), "{err}");
    assert!(err.contains("not installing"), "{err}");
    assert!(!dest.join("skill-audit").exists());
    assert!(text(&out.stdout).is_empty());

    // An archive without its checksum file is refused too.
    std::fs::remove_file(&sum).unwrap();
    let out = install(
        &[
            "--version",
            VERSION,
            "--to",
            dest.to_str().unwrap(),
            "--base-url",
            &server.url,
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("cannot be checked"));
    assert!(!dest.join("skill-audit").exists());
}

/// A folder with a stand-in `cargo` that writes its arguments to `cargo.args` and installs
/// a stand-in binary into `--root`, and, when `cpu` is given, a `uname` reporting Linux on it.
fn fake_tools(dir: &Path, cpu: Option<&str>) -> PathBuf {
    let tools = dir.join("tools");
    let log = dir.join("cargo.args");
    write_exe(
        &tools.join("cargo"),
        &format!(
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > '{}'\n\
             while [ $# -gt 0 ]; do [ \"$1\" = --root ] && root=$2; shift; done\n\
             mkdir -p \"$root/bin\"\n\
             printf '#!/bin/sh\\necho \"skill-audit {VERSION} (built)\"\\n' > \"$root/bin/skill-audit\"\n\
             chmod +x \"$root/bin/skill-audit\"\n",
            log.display()
        ),
    );
    if let Some(cpu) = cpu {
        write_exe(
            &tools.join("uname"),
            &format!("#!/bin/sh\ncase \"$1\" in -m) echo {cpu} ;; *) echo Linux ;; esac\n"),
        );
    }
    tools
}

#[test]
fn an_unknown_platform_falls_back_to_cargo_install_without_downloading() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("release")).unwrap();
    let server = FakeRelease::serve(&tmp.path().join("release"));
    let tools = fake_tools(tmp.path(), Some("riscv64"));
    let dest = tmp.path().join("bin");
    let base = [
        "--version",
        VERSION,
        "--to",
        dest.to_str().unwrap(),
        "--base-url",
        &server.url,
    ];

    // Without a fallback it stops and says how to build from source.
    let out = install(&base, Some(&tools));
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("no release archive for this platform (Linux riscv64)"),
        "{err}"
    );
    assert!(err.contains("cargo install --locked skill-audit"), "{err}");
    assert!(!tmp.path().join("cargo.args").exists());

    // With one it builds from the folder it is given.
    let mut args = base.to_vec();
    args.extend(["--cargo-fallback", MANIFEST_DIR]);
    let out = install(&args, Some(&tools));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let called = std::fs::read_to_string(tmp.path().join("cargo.args")).unwrap();
    let called: Vec<&str> = called.lines().collect();
    assert_eq!(called[..3], ["install", "--locked", "--root"]);
    assert_eq!(called[4..], ["--path", MANIFEST_DIR]);
    let run = Command::new(dest.join("skill-audit"))
        .arg("--version")
        .output()
        .unwrap();
    assert_eq!(
        text(&run.stdout).trim(),
        format!("skill-audit {VERSION} (built)")
    );
    assert!(server.asked().is_empty(), "{:?}", server.asked());
}

#[test]
fn a_release_without_this_platform_falls_back_to_crates_io() {
    let Some(target) = this_target() else { return };
    // The release has only another platform's archive.
    let other = if target.starts_with("x86_64") {
        target.replacen("x86_64", "aarch64", 1)
    } else {
        target.replacen("aarch64", "x86_64", 1)
    };
    let (tmp, _) = fake_release(&other);
    let server = FakeRelease::serve(&tmp.path().join("release"));
    let tools = fake_tools(tmp.path(), None);
    let dest = tmp.path().join("bin");
    let out = install(
        &[
            "--version",
            VERSION,
            "--to",
            dest.to_str().unwrap(),
            "--base-url",
            &server.url,
            "--cargo-fallback",
            "crates.io",
        ],
        Some(&tools),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("has no archive"));
    let called = std::fs::read_to_string(tmp.path().join("cargo.args")).unwrap();
    let called: Vec<&str> = called.lines().collect();
    assert_eq!(called[..3], ["install", "--locked", "--root"]);
    assert_eq!(called[4..], ["skill-audit", "--version", VERSION]);
    assert_eq!(
        server.asked(),
        [format!(
            "/v{VERSION}/skill-audit-v{VERSION}-{target}.tar.gz"
        )]
    );
}

#[test]
fn npm_and_python_packages_have_cargo_toml_s_version() {
    let root = Path::new(MANIFEST_DIR);
    let npm: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root.join("npm/skill-audit/package.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(npm["version"], VERSION);
    let deps = npm["optionalDependencies"].as_object().unwrap();
    let mut names: Vec<&str> = deps.keys().map(String::as_str).collect();
    names.sort();
    // One per release target (.github/workflows/release.yml), each at this version.
    assert_eq!(
        names,
        [
            "@skill-audit/darwin-arm64",
            "@skill-audit/darwin-x64",
            "@skill-audit/linux-arm64",
            "@skill-audit/linux-x64",
            "@skill-audit/win32-x64",
        ]
    );
    assert!(deps.values().all(|v| v == VERSION), "{deps:?}");

    let py: toml::Value =
        toml::from_str(&std::fs::read_to_string(root.join("pyproject.toml")).unwrap()).unwrap();
    assert_eq!(py["project"]["version"].as_str(), Some(VERSION));
    let pinned = format!("skill-audit-cli=={VERSION}");
    assert_eq!(
        py["project"]["dependencies"].as_array().unwrap(),
        &[toml::Value::String(pinned)]
    );
}

#[test]
fn the_shipped_profile_is_dist_and_release_stays_quick_to_build() {
    let cargo: toml::Value = toml::from_str(
        &std::fs::read_to_string(Path::new(MANIFEST_DIR).join("Cargo.toml")).unwrap(),
    )
    .unwrap();
    let profiles = &cargo["profile"];
    let dist = &profiles["dist"];
    assert_eq!(dist["inherits"].as_str(), Some("release"));
    assert_eq!(dist["lto"].as_str(), Some("thin"));
    assert_eq!(dist["codegen-units"].as_integer(), Some(1));
    // What users compile (`cargo install`, the README's `cargo run --release`) keeps Cargo's
    // many code units.
    let release = profiles["release"].as_table().unwrap();
    assert!(!release.contains_key("codegen-units"), "{release:?}");
    assert_ne!(release.get("lto").and_then(|v| v.as_str()), Some("fat"));
    // Archives and benchmarks are built with it.
    let root = Path::new(MANIFEST_DIR);
    for f in ["dist/package.sh", "bench/compare.sh"] {
        let text = std::fs::read_to_string(root.join(f)).unwrap();
        assert!(
            text.contains("--profile dist"),
            "{f} builds with --profile dist"
        );
    }
}

/// cargo-binstall's templates, filled in as it fills them.
fn binstall_fill(template: &str, target: &str, exe: &str) -> String {
    template
        .replace("{ repo }", "https://github.com/skill-audit/skill-audit")
        .replace("{ version }", VERSION)
        .replace("{ name }", "skill-audit")
        .replace("{ bin }", "skill-audit")
        .replace("{ target }", target)
        .replace("{ binary-ext }", exe)
}

#[test]
fn binstall_metadata_names_the_archives_package_sh_makes() {
    let cargo: toml::Value = toml::from_str(
        &std::fs::read_to_string(Path::new(MANIFEST_DIR).join("Cargo.toml")).unwrap(),
    )
    .unwrap();
    let meta = &cargo["package"]["metadata"]["binstall"];
    let base = format!("https://github.com/skill-audit/skill-audit/releases/download/v{VERSION}");
    let folder = |t: &str| format!("skill-audit-v{VERSION}-{t}");
    let t = "x86_64-unknown-linux-musl";
    assert_eq!(
        binstall_fill(meta["pkg-url"].as_str().unwrap(), t, ""),
        format!("{base}/{}.tar.gz", folder(t))
    );
    assert_eq!(
        binstall_fill(meta["bin-dir"].as_str().unwrap(), t, ""),
        format!("{}/skill-audit", folder(t))
    );
    assert_eq!(meta["pkg-fmt"].as_str(), Some("tgz"));
    let w = "x86_64-pc-windows-msvc";
    let win = &meta["overrides"][w];
    assert_eq!(
        binstall_fill(win["pkg-url"].as_str().unwrap(), w, ".exe"),
        format!("{base}/{}.zip", folder(w))
    );
    assert_eq!(win["pkg-fmt"].as_str(), Some("zip"));
    // The same repository everywhere a release is looked for.
    assert_eq!(
        cargo["package"]["repository"].as_str(),
        Some("https://github.com/skill-audit/skill-audit")
    );
    let install = std::fs::read_to_string(Path::new(MANIFEST_DIR).join("dist/install.sh")).unwrap();
    assert!(install.contains("repo_url=\"https://github.com/skill-audit/skill-audit\""));
}
