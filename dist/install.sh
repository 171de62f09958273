#!/bin/sh
# Install skill-audit from a release archive after checking the archive's SHA-256.
#
#   curl -fsSL https://github.com/skill-audit/skill-audit/releases/latest/download/skill-audit-installer.sh | sh
#   sh dist/install.sh [--version VERSION] [--to DIR] [--target TRIPLE] [--base-url URL]
#                      [--cargo-fallback SOURCE]
#
# It picks the archive for this machine (uname), downloads it and its .sha256 from
# BASE/vVERSION/, refuses it when the checksum differs, and puts `skill-audit` into DIR
# (default ~/.local/bin). When DIR already holds skill-audit VERSION, nothing is downloaded.
# When no archive matches (an unknown OS or CPU, or a release without this platform) it stops,
# unless --cargo-fallback is given: then it builds with `cargo install --locked`, from the
# folder SOURCE or, with `--cargo-fallback crates.io`, from crates.io. A checksum that differs
# never falls back. The GitHub Action (action.yml) installs with this script.
#
# Environment: SKILL_AUDIT_VERSION, SKILL_AUDIT_INSTALL_DIR and SKILL_AUDIT_DOWNLOAD_URL stand
# for --version, --to and --base-url. VERSION defaults to the release this copy came from, or
# to the latest release. Exit codes: 0 installed, 1 refused (checksum), 2 anything else.

set -eu

repo_url="https://github.com/skill-audit/skill-audit"
# Set by the release workflow in the copy attached to a release.
default_version=""

version="${SKILL_AUDIT_VERSION:-$default_version}"
dir="${SKILL_AUDIT_INSTALL_DIR:-${HOME:-.}/.local/bin}"
base="${SKILL_AUDIT_DOWNLOAD_URL:-$repo_url/releases/download}"
target=""
fallback=""

say() { echo "skill-audit install: $*" >&2; }
die() {
    say "error: $*"
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
    --version) version="${2:?--version needs a value}"; shift 2 ;;
    --to) dir="${2:?--to needs a value}"; shift 2 ;;
    --target) target="${2:?--target needs a value}"; shift 2 ;;
    --base-url) base="${2:?--base-url needs a value}"; shift 2 ;;
    --cargo-fallback) fallback="${2:?--cargo-fallback needs a value}"; shift 2 ;;
    -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1" ;;
    esac
done
version="${version#v}"

# --- what to fetch ----------------------------------------------------------------------------
detect_target() {
    os=$(uname -s)
    cpu=$(uname -m)
    case "$os" in
    Linux) os=unknown-linux-musl ;; # static binaries: any libc will do
    Darwin) os=apple-darwin ;;
    MINGW* | MSYS* | CYGWIN* | Windows_NT) os=pc-windows-msvc ;;
    *) return 0 ;;
    esac
    case "$cpu" in
    x86_64 | amd64 | AMD64) cpu=x86_64 ;;
    aarch64 | arm64 | ARM64) cpu=aarch64 ;;
    *) return 0 ;;
    esac
    echo "$cpu-$os"
}
[ -n "$target" ] || target=$(detect_target)

# The targets releases are built for (.github/workflows/release.yml).
case "$target" in
x86_64-unknown-linux-musl | aarch64-unknown-linux-musl | x86_64-apple-darwin | aarch64-apple-darwin) ext=tar.gz exe="" ;;
x86_64-pc-windows-msvc) ext=zip exe=.exe ;;
*) ext="" exe="" ;;
esac
case "$(uname -s)" in MINGW* | MSYS* | CYGWIN* | Windows_NT) exe=.exe ;; esac

have() { command -v "$1" >/dev/null 2>&1; }

# FILE -> its SHA-256 in hex
sha256_of() {
    if have sha256sum; then
        sha256sum "$1" | cut -d ' ' -f 1
    elif have shasum; then
        shasum -a 256 "$1" | cut -d ' ' -f 1
    elif have openssl; then
        openssl dgst -sha256 -r "$1" | cut -d ' ' -f 1
    else
        die "no sha256sum, shasum or openssl to check the download with"
    fi
}

# URL FILE -> the HTTP status (000 when nothing answered); the body goes to FILE
fetch() {
    if have curl; then
        curl --proto '=https,http,file' -sSL --retry 3 -o "$2" -w '%{http_code}' "$1" || true
    elif have wget; then
        if wget -q -O "$2" "$1"; then echo 200; elif [ -s "$2" ]; then echo 000; else echo 404; fi
    else
        die "neither curl nor wget is installed"
    fi
}

latest_version() {
    have curl || die "finding the latest release needs curl; give --version"
    url=$(curl -sSLI -o /dev/null -w '%{url_effective}' "$repo_url/releases/latest") ||
        die "could not reach $repo_url/releases/latest; give --version"
    v="${url##*/tag/v}"
    [ "$v" != "$url" ] || die "no release found at $repo_url/releases/latest; give --version"
    echo "$v"
}

installed_version() { # BINARY -> its version, or nothing
    [ -x "$1" ] || return 0
    "$1" --version 2>/dev/null | sed -n 's/^skill-audit \([^ ]*\).*/\1/p' | head -n 1
}

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
bin="$dir/skill-audit$exe"
tmp=$(mktemp -d 2>/dev/null || mktemp -d -t skill-audit)
trap 'rm -rf "$tmp"' EXIT INT TERM

# --- the fallback: build from source ----------------------------------------------------------
build_from_source() { # REASON
    if [ -z "$fallback" ]; then
        die "$1. Build it from source instead: cargo install --locked skill-audit"
    fi
    have cargo || die "$1, and cargo is not on PATH to build it from source"
    say "$1; building it with cargo install --locked (this takes a few minutes)"
    if [ "$fallback" = crates.io ]; then
        set -- skill-audit
        [ -z "$version" ] || set -- "$@" --version "$version"
    else
        set -- --path "$fallback"
    fi
    cargo install --locked --root "$tmp/cargo" "$@" >&2 || die "cargo install failed"
    cp "$tmp/cargo/bin/skill-audit$exe" "$bin"
    say "installed $("$bin" --version) at $bin (built from source)"
    echo "$bin"
    exit 0
}

if [ -z "$ext" ]; then
    build_from_source "no release archive for this platform ($(uname -s) $(uname -m)${target:+, $target})"
fi
[ -n "$version" ] || version=$(latest_version)

if [ "$(installed_version "$bin")" = "$version" ]; then
    say "skill-audit $version is already at $bin"
    echo "$bin"
    exit 0
fi

# --- download, check, unpack ------------------------------------------------------------------
name="skill-audit-v$version-$target"
url="${base%/}/v$version/$name.$ext"
say "downloading $url"
status=$(fetch "$url" "$tmp/$name.$ext")
case "$status" in
200) ;;
404) build_from_source "release v$version has no archive $name.$ext" ;;
*) die "downloading $url failed (HTTP status $status)" ;;
esac
status=$(fetch "$url.sha256" "$tmp/$name.$ext.sha256")
[ "$status" = 200 ] || die "downloading $url.sha256 failed (HTTP status $status); not installing an archive that cannot be checked"

expected=$(cut -d ' ' -f 1 <"$tmp/$name.$ext.sha256" | tr 'A-F' 'a-f')
actual=$(sha256_of "$tmp/$name.$ext")
if [ "$expected" != "$actual" ]; then
    say "error: checksum mismatch for $name.$ext: $name.$ext.sha256 says $expected, the download is $actual; not installing it"
    exit 1
fi

mkdir -p "$tmp/unpack"
if [ "$ext" = zip ]; then
    if have unzip; then
        unzip -q "$tmp/$name.$ext" -d "$tmp/unpack"
    elif have 7z; then
        7z x -bso0 "-o$tmp/unpack" "$tmp/$name.$ext"
    else
        powershell -NoProfile -Command "Expand-Archive -LiteralPath '$tmp/$name.$ext' -DestinationPath '$tmp/unpack'"
    fi
else
    tar -xzf "$tmp/$name.$ext" -C "$tmp/unpack"
fi
[ -f "$tmp/unpack/$name/skill-audit$exe" ] || die "$name.$ext does not hold $name/skill-audit$exe"
# Replace the file rather than write into it: a running copy of the old one keeps its inode.
cp "$tmp/unpack/$name/skill-audit$exe" "$bin.new"
chmod 755 "$bin.new"
mv -f "$bin.new" "$bin"
say "installed $("$bin" --version) at $bin"
case ":${PATH:-}:" in *":$dir:"*) ;; *) say "add $dir to PATH to run it as skill-audit" ;; esac
echo "$bin"
