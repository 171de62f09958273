#!/usr/bin/env bash
# The numbers behind docs/scale.md: what one machine audits, on one large library and on many
# small repositories whose JSON reports are then merged.
#
#   bench/scale.sh [--sizes "5000 20000 100000"] [--repos 500] [--skills-per-repo 10]
#                  [--runs 3] [--work DIR]
#
# Large libraries: for each size, a library from examples/gen_library.rs audited against its
# three generated profiles with `-f json -o /dev/null`, RUNS times; the median wall time gives
# skills per second, the largest peak resident set (/usr/bin/time -f %M) memory per skill.
# Many repositories: REPOS generated libraries of SKILLS_PER_REPO skills each (seeds 1..REPOS),
# audited one process per repository, first one after another and then as many at once as
# there are cores (xargs -P), each writing REPO.json, the way a batch runner or a CI matrix
# would; then `skill-audit merge` of all the reports into one JSON and one HTML report.
#
# Environment: SKILL_AUDIT and GEN_LIBRARY (prebuilt binaries; otherwise built here with
# `cargo build --profile dist`, the shipped build). Results are printed; libraries are kept in
# WORK (default ${TMPDIR:-/tmp}/skill-audit-scale) and reused.

set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sizes="5000 20000 100000"
repos=500
per_repo=10
runs=3
work="${TMPDIR:-/tmp}/skill-audit-scale"
while [ $# -gt 0 ]; do
    case "$1" in
    --sizes) sizes=$2; shift 2 ;;
    --repos) repos=$2; shift 2 ;;
    --skills-per-repo) per_repo=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
done
mkdir -p "$work/bin"
log() { echo "scale: $*" >&2; }

if [ -z "${SKILL_AUDIT:-}" ] || [ -z "${GEN_LIBRARY:-}" ]; then
    log "building skill-audit and gen_library (dist profile)"
    (cd "$repo" && cargo build --profile dist --quiet --bin skill-audit --example gen_library)
    cp "$repo/target/dist/skill-audit" "$repo/target/dist/examples/gen_library" "$work/bin/"
fi
sa=${SKILL_AUDIT:-$work/bin/skill-audit}
gen=${GEN_LIBRARY:-$work/bin/gen_library}
timer=/usr/bin/time
[ -x "$timer" ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }

library() { # SKILLS SEED DIR
    if [ ! -f "$3/.complete" ]; then
        rm -rf "$3"
        "$gen" --skills "$1" --seed "$2" "$3" >/dev/null
        touch "$3/.complete"
    fi
}
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
now() { date +%s.%N; }

echo "# skill-audit at scale"
echo
echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs, $(free -g | awk '/Mem:/ {print $2}') GiB RAM; $("$sa" --version); load $(cut -d ' ' -f 1-3 /proc/loadavg)"
echo
echo "## One library"
echo
echo "| skills | median wall | skills per second | peak memory | bytes per skill |"
echo "|---:|---:|---:|---:|---:|"
prev_n=""
prev_kib=""
marginal=""
for n in $sizes; do
    dir="$work/lib-$n"
    log "library of $n skills"
    library "$n" 1 "$dir"
    p="$dir/profiles"
    args=(--fail-on never -p "$p/prod.json" -p "$p/staging.json" -p "$p/dev.json" -f json -o /dev/null "$dir")
    "$sa" "${args[@]}" # warm the page cache
    walls=()
    kib=0
    for _ in $(seq "$runs"); do
        read -r wall k < <("$timer" -f '%e %M' "$sa" "${args[@]}" 2>&1 >/dev/null | tail -n 1)
        walls+=("$wall")
        [ "$k" -gt "$kib" ] && kib=$k
    done
    wall=$(printf '%s\n' "${walls[@]}" | median)
    awk -v n="$n" -v w="$wall" -v k="$kib" 'BEGIN {
        printf "| %d | %.2f s | %.0f | %.0f MiB | %.0f |\n", n, w, n / w, k / 1024, k * 1024 / n }'
    if [ -n "$prev_n" ]; then
        marginal="$marginal$(awk -v a="$prev_n" -v b="$n" -v ka="$prev_kib" -v kb="$kib" 'BEGIN {
            printf "%d → %d skills: %.0f bytes per extra skill. ", a, b, (kb - ka) * 1024 / (b - a) }')"
    fi
    prev_n=$n
    prev_kib=$kib
done
echo
echo "Marginal memory: ${marginal:-one size only}"

echo
echo "## $repos repositories of $per_repo skills"
echo
log "generating $repos repositories"
rdir="$work/repos-$repos-$per_repo"
mkdir -p "$rdir"
for i in $(seq "$repos"); do library "$per_repo" "$i" "$rdir/repo-$i"; done
p="$rdir/repo-1/profiles"
audit_one() { # REPO_DIR REPORT
    (cd "$1" && "$sa" --fail-on never -p "$p/prod.json" -p "$p/staging.json" -p "$p/dev.json" -o "$2" .)
}
export -f audit_one
export sa p
for mode in serial parallel; do
    out="$work/reports-$mode"
    rm -rf "$out"
    mkdir -p "$out"
    start=$(now)
    if [ "$mode" = serial ]; then
        for i in $(seq "$repos"); do audit_one "$rdir/repo-$i" "$out/repo-$i.json"; done
    else
        seq "$repos" | xargs -P "$(nproc)" -I{} bash -c 'audit_one "$0" "$1"' "$rdir/repo-{}" "$out/repo-{}.json"
    fi
    secs=$(awk -v a="$start" -v b="$(now)" 'BEGIN { print b - a }')
    awk -v m="$mode" -v s="$secs" -v r="$repos" -v k="$per_repo" -v c="$(nproc)" 'BEGIN {
        printf "- audits, %s%s: %.1f s, %.1f ms per repository, %.0f skills per second\n",
            m, (m == "parallel" ? " (" c " at once)" : ""), s, s * 1000 / r, r * k / s }'
done
reports=("$work/reports-parallel"/*.json)
read -r wall kib < <("$timer" -f '%e %M' "$sa" merge "${reports[@]}" -o "$work/merged.json" \
    -o "$work/merged.html" 2>&1 >/dev/null | tail -n 1)
mb=$(du -cm "${reports[@]}" | tail -n 1 | cut -f 1)
echo "- merge of the ${#reports[@]} reports (${mb} MB of JSON) into JSON and HTML: $wall s, $((kib / 1024)) MiB peak"
