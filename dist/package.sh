#!/usr/bin/env bash
# Build what a release ships for one target: the archive and its .sha256, the npm package for
# that platform and the Python wheel, all holding the same binary. The release workflow
# (.github/workflows/release.yml) calls it once per target; CI calls it for the host.
#
#   dist/package.sh --target TRIPLE [--binary PATH] [--out DIR] [--only archive|npm|wheel]
#   dist/package.sh --npm-main [--out DIR]     the platform-independent `skill-audit` npm package
#   dist/package.sh --host                     print the host's target triple
#
# Without --binary it builds skill-audit with `cargo build --locked --profile dist --target
# TRIPLE`. The archive is skill-audit-vVERSION-TRIPLE.tar.gz (.zip for Windows), holding one
# folder of the same name with the binary, the README and the licences; TRIPLE.sha256 beside
# it is one `sha256sum` line. VERSION is the one in Cargo.toml. Output goes to DIR (default
# target/dist-out). Needs bash, tar, zip (Windows only: or 7z), sha256sum or shasum; node and
# npm for the npm packages, python3 for the wheel.

set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
target=""
binary=""
out="$repo/target/dist-out"
only=""
mode=target

die() {
    echo "package.sh: $*" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
    --target) target=${2:?}; shift 2 ;;
    --binary) binary=${2:?}; shift 2 ;;
    --out) out=${2:?}; shift 2 ;;
    --only) only=${2:?}; shift 2 ;;
    --npm-main) mode=npm-main; shift ;;
    --host) mode=host; shift ;;
    -h | --help) sed -n '2,15p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument: $1" ;;
    esac
done

host_triple() { rustc -vV | sed -n 's/^host: //p'; }
if [ "$mode" = host ]; then
    host_triple
    exit 0
fi

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$repo/Cargo.toml" | head -n 1)
[ -n "$version" ] || die "no version in Cargo.toml"
mkdir -p "$out"
out=$(cd "$out" && pwd)

sha256_line() { # FILE -> "HASH  FILE" for the file's base name, as sha256sum writes it
    local dir base
    dir=$(dirname "$1")
    base=$(basename "$1")
    if command -v sha256sum >/dev/null; then
        (cd "$dir" && sha256sum "$base")
    else
        (cd "$dir" && shasum -a 256 "$base")
    fi
}

if [ "$mode" = npm-main ]; then
    command -v npm >/dev/null || die "npm is needed for the npm package"
    stage="$out/npm-main"
    rm -rf "$stage"
    mkdir -p "$stage"
    cp -R "$repo/npm/skill-audit/." "$stage/"
    cp "$repo/LICENSE-MIT" "$repo/LICENSE-APACHE" "$stage/"
    (cd "$stage" && npm pack --silent --pack-destination "$out" >/dev/null)
    rm -rf "$stage"
    echo "$out/skill-audit-$version.tgz"
    exit 0
fi

[ -n "$target" ] || die "--target TRIPLE is needed (the host is $(host_triple))"

# The npm platform (os, cpu) and wheel platform tags of each target. The host's glibc triple is
# here so CI can package what it built; its wheel tag (linux_x86_64) is not one PyPI accepts.
case "$target" in
x86_64-unknown-linux-musl) npm_os=linux npm_cpu=x64 wheel_tags=manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64 ;;
aarch64-unknown-linux-musl) npm_os=linux npm_cpu=arm64 wheel_tags=manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64 ;;
x86_64-apple-darwin) npm_os=darwin npm_cpu=x64 wheel_tags=macosx_10_12_x86_64 ;;
aarch64-apple-darwin) npm_os=darwin npm_cpu=arm64 wheel_tags=macosx_11_0_arm64 ;;
x86_64-pc-windows-msvc) npm_os=win32 npm_cpu=x64 wheel_tags=win_amd64 ;;
x86_64-unknown-linux-gnu) npm_os=linux npm_cpu=x64 wheel_tags=linux_x86_64 ;;
aarch64-unknown-linux-gnu) npm_os=linux npm_cpu=arm64 wheel_tags=linux_aarch64 ;;
*) die "no packaging rules for target $target" ;;
esac
exe=""
case "$target" in *windows*) exe=.exe ;; esac

if [ -z "$binary" ]; then
    (cd "$repo" && cargo build --locked --profile dist --target "$target" --bin skill-audit) >&2
    binary="$repo/target/$target/dist/skill-audit$exe"
fi
[ -f "$binary" ] || die "no binary at $binary"

want() { [ -z "$only" ] || [ "$only" = "$1" ]; }

if want archive; then
    name="skill-audit-v$version-$target"
    stage="$out/stage-$target"
    rm -rf "$stage"
    mkdir -p "$stage/$name"
    cp "$binary" "$stage/$name/skill-audit$exe"
    chmod 755 "$stage/$name/skill-audit$exe"
    cp "$repo/README.md" "$repo/LICENSE-MIT" "$repo/LICENSE-APACHE" "$stage/$name/"
    if [ -n "$exe" ]; then
        archive="$out/$name.zip"
        rm -f "$archive"
        if command -v zip >/dev/null; then
            (cd "$stage" && zip -qr "$archive" "$name")
        else
            (cd "$stage" && 7z a -tzip -bso0 "$archive" "$name")
        fi
    else
        archive="$out/$name.tar.gz"
        (cd "$stage" && tar -czf "$archive" "$name")
    fi
    rm -rf "$stage"
    sha256_line "$archive" >"$archive.sha256"
    echo "$archive"
fi

if want npm; then
    command -v npm >/dev/null || die "npm is needed for the npm package"
    pkg="$npm_os-$npm_cpu"
    stage="$out/npm-$pkg"
    rm -rf "$stage"
    mkdir -p "$stage/bin"
    cp "$binary" "$stage/bin/skill-audit$exe"
    chmod 755 "$stage/bin/skill-audit$exe"
    cp "$repo/LICENSE-MIT" "$repo/LICENSE-APACHE" "$stage/"
    node "$repo/npm/platform-package.js" "$repo/npm/skill-audit/package.json" "$npm_os" "$npm_cpu" \
        "skill-audit$exe" >"$stage/package.json"
    printf '# @skill-audit/%s\n\nThe skill-audit %s binary for %s; install `skill-audit`, which depends on it.\n' \
        "$pkg" "$version" "$target" >"$stage/README.md"
    (cd "$stage" && npm pack --silent --pack-destination "$out" >/dev/null)
    rm -rf "$stage"
    echo "$out/skill-audit-$pkg-$version.tgz"
fi

if want wheel; then
    python=python3
    command -v python3 >/dev/null || python=python # Windows runners
    "$python" "$repo/python/build_wheel.py" --binary "$binary" --version "$version" \
        --tags "$wheel_tags" --exe "skill-audit$exe" --out "$out"
fi
