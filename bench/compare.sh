#!/usr/bin/env bash
# Compare skill-audit with the I/O floor of the same files and with peer tools, using hyperfine,
# on the awesome-copilot corpus and on generated libraries; measure peak memory.
#
#   bench/compare.sh [--sizes "5000 20000 100000"] [--corpus DIR] [--work DIR] [--runs N]
#                    [--no-peers] [--peer-timeout SECONDS] [--agnix-install-timeout SECONDS]
#
# Tools compared on every library:
#   floor        examples/walk_floor: skill-audit's own walker plus a parallel read of every
#                file it would audit and every script the walk found (nothing parsed)
#   find-cat     find ... -print0 | xargs -0 cat > /dev/null, a single-threaded floor
#   skill-audit  three profiles (prod, staging, dev), -f json -o /dev/null
#   composed     the same three profiles composed as environments: prod on VS Code extending
#                the generated prod, staging extending that and denying two names, dev on
#                Claude Code extending the generated dev
#   fix          skill-audit --fix with the three profiles on a fresh copy of the library,
#                made before each run by hyperfine's --prepare (the copy is not timed)
#   skills-ref   bench/skills_ref_all.py: skills_ref.validate() on every skill folder, one process
#   skillsaw     skillsaw lint --format json
#   agnix        agnix --max-files 0 --format json (its default stops at 10,000 files)
# A peer that cannot be installed, or fails on a library, is reported as unavailable; one that
# takes longer than --peer-timeout is reported as timed out. Commands that take over 30 seconds are
# timed once instead of through hyperfine. hyperfine runs one command's runs before the next
# command's; the floor and skill-audit are then also timed alternately, round by round
# (bench/side_by_side.py: six rounds per hyperfine run, two from 20,000 skills up), so both
# meet the same moments of a noisy machine, and their medians are compared.
#
# Environment: SKILL_AUDIT, WALK_FLOOR, GEN_LIBRARY (prebuilt binaries; otherwise built here with
# cargo build --profile dist, the shipped build, and copied to WORK/bin, so concurrent rebuilds
# do not disturb a run),
# AGNIX (an agnix binary; otherwise looked up on PATH, then installed with cargo install).
# Results: WORK/results.md (also printed), hyperfine JSON in WORK/json/ (WORK defaults to
# ${TMPDIR:-/tmp}/skill-audit-bench; generated libraries are kept there and reused).

set -uo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sizes="5000 20000 100000"
corpus="$repo/../shared/corpus/awesome-copilot"
work="${TMPDIR:-/tmp}/skill-audit-bench"
runs=5
peers=1
peer_timeout=900
agnix_install_timeout=900
long_run=30

while [ $# -gt 0 ]; do
    case "$1" in
    --sizes) sizes="$2"; shift 2 ;;
    --corpus) corpus="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    --no-peers) peers=0; shift ;;
    --peer-timeout) peer_timeout="$2"; shift 2 ;;
    --agnix-install-timeout) agnix_install_timeout="$2"; shift 2 ;;
    -h | --help) sed -n '2,32p' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
    esac
done

mkdir -p "$work/bin" "$work/json" "$work/logs"
work=$(cd "$work" && pwd)
log() { printf '>> %s\n' "$*" >&2; }

# --- hyperfine --------------------------------------------------------------------------------
if ! command -v hyperfine >/dev/null; then
    log "hyperfine is missing; installing the Debian package"
    if [ "$(id -u)" = 0 ]; then
        (apt-get update -qq && apt-get install -y -qq hyperfine) >"$work/logs/apt.log" 2>&1
    fi
    command -v hyperfine >/dev/null || { echo "hyperfine is required (apt-get install hyperfine)" >&2; exit 2; }
fi
timer=/usr/bin/time
[ -x "$timer" ] || timer=""

# --- our binaries -----------------------------------------------------------------------------
if [ -z "${SKILL_AUDIT:-}" ] || [ -z "${WALK_FLOOR:-}" ] || [ -z "${GEN_LIBRARY:-}" ]; then
    # The shipped profile (Cargo.toml, `dist`): what release archives, npm and PyPI hold.
    log "building skill-audit, walk_floor and gen_library (dist profile)"
    (cd "$repo" && cargo build --profile dist --quiet --bin skill-audit --example walk_floor --example gen_library) ||
        { echo "cargo build failed" >&2; exit 2; }
    cp "$repo/target/dist/skill-audit" "$repo/target/dist/examples/walk_floor" \
        "$repo/target/dist/examples/gen_library" "$work/bin/"
fi
skill_audit=${SKILL_AUDIT:-$work/bin/skill-audit}
walk_floor=${WALK_FLOOR:-$work/bin/walk_floor}
gen_library=${GEN_LIBRARY:-$work/bin/gen_library}

# --- peers ------------------------------------------------------------------------------------
declare -A status # tool -> "ok" or why it is unavailable
status[floor]=ok
status[find-cat]=ok
status[skill-audit]=ok
status[composed]=ok
if [ "$peers" = 1 ]; then
    if python3 -c 'import skills_ref' 2>/dev/null || pip install -q skills-ref >"$work/logs/pip-skills-ref.log" 2>&1; then
        python3 -c 'import skills_ref' 2>/dev/null && status[skills-ref]=ok
    fi
    : "${status[skills-ref]:=unavailable (pip install skills-ref failed)}"
    if command -v skillsaw >/dev/null ||
        pip install -q 'skillsaw==0.22.*' >"$work/logs/pip-skillsaw.log" 2>&1 ||
        pip install -q skillsaw >>"$work/logs/pip-skillsaw.log" 2>&1; then
        command -v skillsaw >/dev/null && status[skillsaw]=ok
    fi
    : "${status[skillsaw]:=unavailable (pip install skillsaw failed)}"
    agnix=${AGNIX:-$(command -v agnix || true)}
    if [ -z "$agnix" ] && [ -x "$work/agnix/bin/agnix" ]; then agnix="$work/agnix/bin/agnix"; fi
    if [ -z "$agnix" ]; then
        log "installing agnix-cli with cargo install (at most ${agnix_install_timeout}s)"
        timeout "$agnix_install_timeout" cargo install --locked agnix-cli --root "$work/agnix" \
            --target-dir "$work/agnix-target" >"$work/logs/agnix-install.log" 2>&1
        rc=$?
        if [ -x "$work/agnix/bin/agnix" ]; then
            agnix="$work/agnix/bin/agnix"
        elif [ "$rc" = 124 ]; then
            status[agnix]="unavailable (cargo install agnix-cli took over ${agnix_install_timeout}s)"
        else
            status[agnix]="unavailable (cargo install agnix-cli failed, see $work/logs/agnix-install.log)"
        fi
    fi
    [ -n "$agnix" ] && status[agnix]=ok
else
    for t in skills-ref skillsaw agnix; do status[$t]="not run (--no-peers)"; done
fi
tools=(floor find-cat skill-audit composed skills-ref skillsaw agnix)

# --- libraries --------------------------------------------------------------------------------
# Profiles do not depend on the library size: take them from an empty generated library.
"$gen_library" --skills 0 "$work/profiles-lib" >/dev/null 2>&1
profiles="$work/profiles-lib/profiles"
composed="$work/composed"
mkdir -p "$composed"
printf '{"name": "prod", "host": "vscode", "extends": ["%s"]}\n' "$profiles/prod.json" >"$composed/prod.json"
printf '{"name": "staging", "extends": ["prod.json"], "deny": ["kusto/*", "get_check_details"]}\n' >"$composed/staging.json"
printf '{"name": "dev", "host": "claude-code", "extends": ["%s"]}\n' "$profiles/dev.json" >"$composed/dev.json"
datasets=()
labels=()
if [ -d "$corpus" ]; then
    datasets+=("$(cd "$corpus" && pwd)")
    labels+=("awesome-copilot")
else
    log "corpus $corpus not found; skipping it"
fi
for n in $sizes; do
    dir="$work/lib-$n"
    if [ ! -f "$dir/.complete" ]; then
        log "generating $n skills into $dir"
        rm -rf "$dir"
        "$gen_library" --skills "$n" "$dir" || { echo "gen_library failed" >&2; exit 2; }
        touch "$dir/.complete"
    fi
    datasets+=("$dir")
    labels+=("gen-$n")
done

command_for() { # tool dir -> shell command
    local d=$1
    case "$2" in
    floor) echo "$walk_floor '$d' > /dev/null" ;;
    find-cat) echo "find '$d' \\( -name SKILL.md -o -name '*.agent.md' -o -name plugin.json \\) -print0 | xargs -0 cat > /dev/null" ;;
    skill-audit) echo "$skill_audit --fail-on never -p '$profiles/prod.json' -p '$profiles/staging.json' -p '$profiles/dev.json' -f json -o /dev/null '$d'" ;;
    composed) echo "$skill_audit --fail-on never -p '$composed/prod.json' -p '$composed/staging.json' -p '$composed/dev.json' -f json -o /dev/null '$d'" ;;
    skills-ref) echo "python3 '$repo/bench/skills_ref_all.py' '$d' > /dev/null" ;;
    skillsaw) echo "skillsaw lint --no-progress --no-baseline --format json '$d' > /dev/null" ;;
    agnix) echo "'$agnix' --max-files 0 --format json '$d' > /dev/null" ;;
    esac
}
# The command swapped in: $1 = dataset dir, $2 = tool.
set_command() { cmd=$(command_for "$1" "$2"); }

results="$work/results.tsv" # label tool mean stddev runs note
: >"$results"
side="$work/side.tsv" # label rounds floor-median audit-median
: >"$side"
now() { date +%s.%N; }

for i in "${!datasets[@]}"; do
    d=${datasets[$i]}
    label=${labels[$i]}
    skills=$(find "$d" -name SKILL.md -not -path '*/.git/*' | wc -l)
    log "$label: $skills skills"
    fast=()
    for t in "${tools[@]}"; do
        [ "${status[$t]}" = ok ] || continue
        set_command "$d" "$t"
        # One probe run: does it work, and how long does it take?
        start=$(now)
        timeout "$peer_timeout" bash -c "$cmd" >"$work/logs/$label-$t.out" 2>&1
        rc=$?
        secs=$(awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.3f", b - a }')
        if [ "$rc" = 124 ]; then
            printf '%s\t%s\t\t\t0\ttimed out (> %ss)\n' "$label" "$t" "$peer_timeout" >>"$results"
        elif [ "$rc" -ge 126 ]; then
            printf '%s\t%s\t\t\t0\tunavailable (exit %s)\n' "$label" "$t" "$rc" >>"$results"
        elif awk -v s="$secs" -v l="$long_run" 'BEGIN { exit !(s > l) }'; then
            printf '%s\t%s\t%s\t\t1\tone run\n' "$label" "$t" "$secs" >>"$results"
        else
            fast+=("$t")
        fi
    done
    if [ ${#fast[@]} -gt 0 ]; then
        r=$runs
        [ "$skills" -ge 20000 ] && [ "$r" -gt 3 ] && r=3
        args=()
        for t in "${fast[@]}"; do
            set_command "$d" "$t"
            args+=(--command-name "$t" "$cmd")
        done
        hyperfine --style basic --ignore-failure --warmup 1 --runs "$r" \
            --export-json "$work/json/$label.json" "${args[@]}" >&2
        python3 - "$work/json/$label.json" "$label" >>"$results" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{sys.argv[2]}\t{r['command']}\t{r['mean']}\t{r['stddev'] or 0}\t{len(r['times'])}\t")
EOF
        # --fix rewrites the library, so it runs on a fresh copy each time.
        if [[ " ${fast[*]} " == *" skill-audit "* ]]; then
            copy="$work/fix-copy"
            prepare="rm -rf '$copy' && cp -r '$d' '$copy' && chmod -R u+w '$copy'"
            fix_cmd="$skill_audit --fail-on never -p '$profiles/prod.json' -p '$profiles/staging.json' -p '$profiles/dev.json' --fix -f json -o /dev/null '$copy'"
            bash -c "$prepare" && bash -c "$fix_cmd" >"$work/logs/$label-fix.out" 2>&1
            log "$label: --fix on a copy: $(grep -c . "$work/logs/$label-fix.out") lines on standard error"
            hyperfine --style basic --ignore-failure --runs "$r" --prepare "$prepare" \
                --export-json "$work/json/$label-fix.json" --command-name fix "$fix_cmd" >&2
            python3 - "$work/json/$label-fix.json" "$label" >>"$results" <<'EOF'
import json, sys
for r in json.load(open(sys.argv[1]))["results"]:
    print(f"{sys.argv[2]}\t{r['command']}\t{r['mean']}\t{r['stddev'] or 0}\t{len(r['times'])}\t")
EOF
            rm -rf "$copy"
        fi
        # The floor and skill-audit again, alternating round by round.
        if [[ " ${fast[*]} " == *" floor "* && " ${fast[*]} " == *" skill-audit "* ]]; then
            rounds=$((r * 6))
            [ "$skills" -ge 20000 ] && rounds=$((r * 2))
            log "$label: floor and skill-audit side by side, $rounds rounds"
            python3 "$repo/bench/side_by_side.py" "$rounds" "$label" -- "$walk_floor" "$d" -- \
                "$skill_audit" --fail-on never -p "$profiles/prod.json" -p "$profiles/staging.json" \
                -p "$profiles/dev.json" -f json -o /dev/null "$d" >>"$side"
        fi
    fi
    printf '%s\t#skills\t%s\t\t\t\n' "$label" "$skills" >>"$results"
done

# --- peak memory ------------------------------------------------------------------------------
memory="$work/memory.tsv" # label tool kib skills
: >"$memory"
if [ -n "$timer" ]; then
    for i in "${!datasets[@]}"; do
        d=${datasets[$i]}
        label=${labels[$i]}
        skills=$(find "$d" -name SKILL.md -not -path '*/.git/*' | wc -l)
        for t in skill-audit floor; do
            set_command "$d" "$t"
            kib=$("$timer" -f %M bash -c "$cmd" 2>&1 >/dev/null | tail -n 1)
            printf '%s\t%s\t%s\t%s\n' "$label" "$t" "$kib" "$skills" >>"$memory"
        done
    done
fi

# --- report -----------------------------------------------------------------------------------
{
    echo "# skill-audit comparison"
    echo
    echo "Date: $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "Machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(free -g | awk '/Mem:/ {print $2}') GiB RAM, $(uname -sr)"
    echo "skill-audit: $("$skill_audit" --version 2>/dev/null)"
    for t in skills-ref skillsaw agnix; do
        case "${status[$t]}" in
        ok)
            case $t in
            skills-ref) v=$(pip show skills-ref 2>/dev/null | awk '/^Version/ {print $2}') ;;
            skillsaw) v=$(skillsaw --version 2>/dev/null) ;;
            agnix) v=$("$agnix" --version 2>/dev/null) ;;
            esac
            echo "$t: ${v:-version unknown}" ;;
        *) echo "$t: ${status[$t]}" ;;
        esac
    done
    echo
    python3 - "$results" "$memory" "$side" <<'EOF'
import sys
from collections import defaultdict

rows = defaultdict(dict)  # label -> tool -> (mean, stddev, runs, note)
skills = {}
labels = []
for line in open(sys.argv[1]):
    label, tool, mean, sd, runs, note = line.rstrip("\n").split("\t")
    if label not in labels:
        labels.append(label)
    if tool == "#skills":
        skills[label] = int(mean)
        continue
    rows[label][tool] = (float(mean) if mean else None, float(sd) if sd else 0.0, runs, note)

tools = ["floor", "find-cat", "skill-audit", "composed", "fix", "skills-ref", "skillsaw", "agnix"]

def ms(v):
    return f"{v * 1000:.1f} ms" if v < 0.01 else f"{v * 1000:.0f} ms"

def fmt(v):
    return "—" if v is None else (ms(v) if v < 10 else f"{v:.1f} s")

print("## Wall time (mean ± stddev; hyperfine, warm cache)\n")
print("| library | skills | " + " | ".join(tools) + " |")
print("|---|---:|" + "---:|" * len(tools))
for label in labels:
    cells = []
    for t in tools:
        r = rows[label].get(t)
        if r is None:
            cells.append("unavailable")
        elif r[0] is None:
            cells.append(r[3])
        else:
            sd = (ms(r[1]) if r[0] < 10 else f"{r[1]:.1f} s") if r[1] else ""
            extra = f" ± {sd}" if sd else ""
            note = f" ({r[3]})" if r[3] else ""
            cells.append(fmt(r[0]) + extra + note)
    print(f"| {label} | {skills.get(label, 0)} | " + " | ".join(cells) + " |")

print("\n## Ratios\n")
print("| library | skill-audit ÷ floor | skill-audit ÷ find-cat | composed ÷ skill-audit | fix ÷ skill-audit | skills-ref ÷ skill-audit | skillsaw ÷ skill-audit | agnix ÷ skill-audit |")
print("|---|---:|---:|---:|---:|---:|---:|---:|")
def ratio(a, b, label):
    ra, rb = rows[label].get(a), rows[label].get(b)
    if not ra or not rb or ra[0] is None or rb[0] is None:
        if ra and ra[0] is None and "timed out" in ra[3] and rb and rb[0]:
            return "> " + f"{float(ra[3].split('> ')[1].rstrip('s)')) / rb[0]:.0f}×"
        return "—"
    return f"{ra[0] / rb[0]:.1f}×"
for label in labels:
    print(f"| {label} | {ratio('skill-audit', 'floor', label)} | {ratio('skill-audit', 'find-cat', label)} | "
          f"{ratio('composed', 'skill-audit', label)} | {ratio('fix', 'skill-audit', label)} | "
          f"{ratio('skills-ref', 'skill-audit', label)} | {ratio('skillsaw', 'skill-audit', label)} | "
          f"{ratio('agnix', 'skill-audit', label)} |")

side = [l.rstrip("\n").split("\t") for l in open(sys.argv[3]) if l.strip()]
side_by = {label: (float(f), float(a)) for label, _, f, a in side}
if side:
    print("\n## Side by side (floor and skill-audit alternating, medians)\n")
    print("| library | rounds | floor | skill-audit | skill-audit ÷ floor |")
    print("|---|---:|---:|---:|---:|")
    for label, rounds, f, a in side:
        print(f"| {label} | {rounds} | {fmt(float(f))} | {fmt(float(a))} | {float(a) / float(f):.2f}× |")

gens = sorted((skills[l], l) for l in labels if l.startswith("gen-"))
if len(gens) >= 2:
    (n0, l0), (n1, l1) = gens[0], gens[-1]
    print(f"\n## Scaling {n0} → {n1} skills ({n1 / n0:.0f}× the skills)\n")
    for t in ["skill-audit", "floor"]:
        a, b = rows[l0].get(t), rows[l1].get(t)
        if a and b and a[0] and b[0]:
            print(f"- {t}: {fmt(a[0])} → {fmt(b[0])} = {b[0] / a[0]:.1f}×; "
                  f"{a[0] / n0 * 1e6:.0f} → {b[0] / n1 * 1e6:.0f} µs per skill")
    # The same from the side-by-side medians, which a few slow or fast hyperfine runs move less.
    if l0 in side_by and l1 in side_by:
        for i, t in [(1, "skill-audit"), (0, "floor")]:
            a, b = side_by[l0][i], side_by[l1][i]
            print(f"- {t}, side-by-side medians: {fmt(a)} → {fmt(b)} = {b / a:.1f}×")

mem = [l.rstrip("\n").split("\t") for l in open(sys.argv[2]) if l.strip()]
if mem:
    print("\n## Peak memory (maximum resident set size, /usr/bin/time -f %M)\n")
    print("| library | skills | skill-audit | floor | skill-audit bytes per skill |")
    print("|---|---:|---:|---:|---:|")
    by = defaultdict(dict)
    for label, tool, kib, n in mem:
        by[label][tool] = (int(kib), int(n))
    for label in labels:
        if label not in by:
            continue
        sa, fl = by[label].get("skill-audit"), by[label].get("floor")
        n = sa[1] if sa else 0
        print(f"| {label} | {n} | {sa[0] / 1024:.0f} MiB | {fl[0] / 1024:.0f} MiB | "
              f"{sa[0] * 1024 / max(n, 1):,.0f} |")
    if len(gens) >= 2 and gens[0][1] in by and gens[-1][1] in by:
        (n0, l0), (n1, l1) = gens[0], gens[-1]
        k0, k1 = by[l0]["skill-audit"][0], by[l1]["skill-audit"][0]
        print(f"\nMarginal: ({k1} − {k0}) KiB / ({n1} − {n0}) skills = "
              f"{(k1 - k0) * 1024 / (n1 - n0):,.0f} bytes per extra skill.")
EOF
} | tee "$work/results.md"
