#!/usr/bin/env bash
# Usage: scripts/bench-structured.sh [--coset N] [--half-turns N] [--patterns FILE] [--seed S]
#                                    [--threads T] [--timeout S] [--set SET] [--vs SET]
#                                    [--pdb-dir DIR] [--out FILE]
#
# The structured benchmark: positions in or near the coset subgroup of the 48-symmetry tables,
# where a coset table alone reads about 0, solved with the default set and with `korf` side by
# side. Three groups:
#   (a) N random elements of the coset subgroup (`optcube scramble --subgroup coset --seed S`),
#   (b) N random elements of <U2,D2,F2,B2,L2,R2> (`optcube scramble --subgroup half-turns`),
#   (c) every line of FILE (default benches/positions/patterns.txt: the superflip, checkerboards,
#       cube in a cube, slice swaps, symmetric positions).
# Each position is solved in its own process, once per set:
#   timeout S optcube solve POSITION --json --set SET --threads T --no-upper-bound --pdb-dir DIR
# (SET empty: no --set, i.e. the default choice). A run stopped by the time limit counts as
# "> S s". The report (markdown, default results/solve-bench-structured.md) gives per position
# both sets' seconds (search only, as `solve` reports them), nodes and lengths, the ratio, and
# whether the position meets the target: default time at most 1.5x korf's, or under 0.5 s.
# Lengths must agree where both finished (else exit 1, the report still written).
#
#   --coset N        random coset-subgroup elements (default 25; env COSET)
#   --half-turns N   random half-turn-group elements (default 25; env HALF)
#   --patterns FILE  pattern file (default benches/positions/patterns.txt; env PATTERNS;
#                    "none" for no patterns)
#   --seed S         seed of the random elements (default 38; env SEED)
#   --threads T      search threads (default 2; env THREADS)
#   --timeout S      seconds per solve before it is stopped (default 600; env TIMEOUT)
#   --set SET        the set under test (default: none given, i.e. the default choice; env SET)
#   --vs SET         the reference set (default korf; env VS)
#   --pdb-dir DIR    table directory (default optcube's; env PDB_DIR). Build the tables first
#                    (`optcube pdb build --set sym48e6 --dir DIR` and `--set korf`): a table
#                    built inside a timed solve counts against its limit.
#   --out FILE       report path (env OUT)
# Environment only: BIN, the optcube binary (default: cargo build --release, target/release).
set -euo pipefail

me=bench-structured.sh
invocation="scripts/$me $*"
abs() { if [[ $1 == /* ]]; then printf '%s\n' "$1"; else printf '%s\n' "$PWD/$1"; fi; }

coset="${COSET:-25}"
half="${HALF:-25}"
patterns="${PATTERNS:-}"
seed="${SEED:-38}"
threads="${THREADS:-2}"
timeout_s="${TIMEOUT:-600}"
set_name="${SET:-}"
vs="${VS:-korf}"
pdb_dir="${PDB_DIR:-}"
out="${OUT:-}"
bin="${BIN:-}"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --coset) coset="${2:?}"; shift 2 ;;
        --half-turns) half="${2:?}"; shift 2 ;;
        --patterns) patterns="${2:?}"; shift 2 ;;
        --seed) seed="${2:?}"; shift 2 ;;
        --threads) threads="${2:?}"; shift 2 ;;
        --timeout) timeout_s="${2:?}"; shift 2 ;;
        --set) set_name="${2:?}"; shift 2 ;;
        --vs) vs="${2:?}"; shift 2 ;;
        --pdb-dir) pdb_dir="${2:?}"; shift 2 ;;
        --out) out="${2:?}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "$me: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
for v in "$coset" "$half" "$seed"; do
    [[ $v =~ ^[0-9]+$ ]] || { echo "$me: counts and seed must be non-negative integers, got '$v'" >&2; exit 2; }
done
[[ $threads =~ ^[1-9][0-9]*$ ]] || { echo "$me: --threads must be a positive integer" >&2; exit 2; }
[[ $timeout_s =~ ^[1-9][0-9]*$ ]] || { echo "$me: --timeout must be a positive integer" >&2; exit 2; }
[[ -n $pdb_dir ]] && pdb_dir="$(abs "$pdb_dir")"
[[ -n $out ]] && out="$(abs "$out")"
[[ -n $bin ]] && bin="$(abs "$bin")"
[[ -n $patterns && $patterns != none ]] && patterns="$(abs "$patterns")"
command -v python3 >/dev/null || { echo "$me: python3 is required" >&2; exit 1; }

cd "$(dirname "$0")/.."
patterns="${patterns:-benches/positions/patterns.txt}"
out="${out:-results/solve-bench-structured.md}"
if [[ $patterns != none && ! -r $patterns ]]; then
    echo "$me: cannot read $patterns" >&2; exit 2
fi
if [[ -z $bin ]]; then
    echo "$me: cargo build --release" >&2
    cargo build --release --quiet
    bin="${CARGO_TARGET_DIR:-target}/release/optcube"
fi
[[ -x $bin ]] || { echo "$me: no executable $bin" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Group, position (facelets or a scramble), label: one tab-separated line each.
positions="$work/positions.tsv"
: >"$positions"
if [[ $coset -gt 0 ]]; then
    "$bin" scramble --random "$coset" --seed "$seed" --subgroup coset | awk '{ printf "coset\t%s\tcoset %d\n", $0, NR }' >>"$positions"
fi
if [[ $half -gt 0 ]]; then
    "$bin" scramble --random "$half" --seed "$seed" --subgroup half-turns | awk '{ printf "half-turns\t%s\thalf-turns %d\n", $0, NR }' >>"$positions"
fi
if [[ $patterns != none ]]; then
    # A `# name` line names the pattern lines after it.
    awk '/^[[:space:]]*#/ { sub(/^[[:space:]]*#[[:space:]]*/, ""); name = $0; next }
         /^[[:space:]]*$/ { next }
         { printf "pattern\t%s\t%s\n", $0, name }' "$patterns" >>"$positions"
fi

results="$work/results.tsv"
: >"$results"
run() { # run LABEL_SET POSITION: one JSON line (or nothing) on stdout
    local set="$1" pos="$2" cmd
    cmd=("$bin" solve --json --threads "$threads" --no-upper-bound)
    [[ -n $set ]] && cmd+=(--set "$set")
    [[ -n $pdb_dir ]] && cmd+=(--pdb-dir "$pdb_dir")
    if [[ ${#pos} -eq 54 && $pos != *" "* ]]; then cmd+=(--facelets "$pos"); else cmd+=("$pos"); fi
    timeout --signal=INT "$timeout_s" "${cmd[@]}" 2>"$work/last.err" || true
}
total=$(wc -l <"$positions")
i=0
while IFS=$'\t' read -r group pos label; do
    i=$((i + 1))
    for s in "$set_name" "$vs"; do
        echo "$me: [$i/$total] $label, set ${s:-(default)}" >&2
        json="$(run "$s" "$pos" | tail -1)"
        [[ -n $json ]] || json='{}'
        chosen="$(sed -n 's/^set: \([^ ]*\).*/\1/p' "$work/last.err" | tail -1)"
        printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$group" "$label" "$pos" "${s:-default}" "${chosen:-$s}" "$json" >>"$results"
    done
done <"$positions"

machine="$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(awk '/^MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo) RAM"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]]; then commit+=" (with uncommitted changes)"; fi
shown="timeout --signal=INT $timeout_s optcube solve POSITION --json --threads $threads --no-upper-bound [--set SET]${pdb_dir:+ --pdb-dir DIR}"

python3 - "$results" "$out" "$machine" "$commit" "${set_name:-default}" "$vs" "$timeout_s" "$shown" "$seed" "$me" "$invocation" <<'PY'
import datetime, json, statistics, sys

results, out, machine, commit, set_name, vs, limit, shown, seed, me, invocation = sys.argv[1:12]
limit = float(limit)
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
rows = {}
order = []
for line in open(results):
    group, label, pos, s, chosen, js = line.rstrip("\n").split("\t")
    d = json.loads(js) if js.strip() else {}
    key = (group, label, pos)
    if key not in rows:
        rows[key] = {}
        order.append(key)
    rows[key]["set" if s == set_name else "vs"] = (chosen, d)

def done(d):
    return d.get("optimal") is True and d.get("length") is not None

def secs(d):
    return f"{d['seconds']:.2f}" if done(d) else f"> {limit:.0f}"

problems, lines, met, counted = [], [], 0, 0
groups = {}
chosen_sets = set()
for key in order:
    group, label, pos = key
    (chosen, a), (_, b) = rows[key]["set"], rows[key]["vs"]
    chosen_sets.add(chosen)
    ok = ""
    if done(a) and done(b) and a["length"] != b["length"]:
        problems.append(f"{label}: lengths differ ({a['length']} against {b['length']})")
    if done(a) and (a["seconds"] < 0.5 or (done(b) and a["seconds"] <= 1.5 * b["seconds"])
                    or (not done(b))):
        ok, met = "yes", met + 1
    elif done(a) and done(b):
        ok = "**no**"
    else:
        ok = "**no** (unfinished)"
    counted += 1
    ratio = (f"{a['seconds'] / b['seconds']:.2f}" if done(a) and done(b) and b["seconds"] > 0
             else "")
    length = a["length"] if done(a) else (b["length"] if done(b) else "?")
    shown_pos = pos if len(pos) < 60 else pos[:57] + "…"
    lines.append(f"| {label} | `{shown_pos}` | {length} | {secs(a)} | {a.get('nodes', 0):,} | "
                 f"{secs(b)} | {b.get('nodes', 0):,} | {ratio} | {ok} |")
    g = groups.setdefault(group, {"n": 0, "a": [], "b": [], "met": 0})
    g["n"] += 1
    g["met"] += ok == "yes"
    if done(a):
        g["a"].append(a["seconds"])
    if done(b):
        g["b"].append(b["seconds"])

with open(out, "w") as f:
    f.write(f"# Structured positions: {set_name} beside {vs}\n\n")
    f.write(f"- made by `{invocation}`\n")
    f.write(f"- machine: {machine}\n- date: {now}, commit {commit}\n")
    f.write(f"- each position and set in its own process: `{shown}`; seconds are the search's "
            f"own (tables loaded first); `> {limit:.0f}` = stopped by the limit, not finished\n")
    f.write(f"- groups: `coset` = `optcube scramble --subgroup coset --seed {seed}`, `half-turns` = "
            f"`--subgroup half-turns --seed {seed}`, `pattern` = benches/positions/patterns.txt\n")
    f.write(f"- set chosen under test: {', '.join(sorted(chosen_sets))}\n")
    f.write(f"- target met (time at most 1.5x {vs}'s, or under 0.5 s, or {vs} unfinished): "
            f"{met} of {counted}\n\n")
    f.write(f"| group | positions | finished ({set_name}) | finished ({vs}) | target met | "
            f"median s ({set_name}) | median s ({vs}, finished) |\n|---|---:|---:|---:|---:|---:|---:|\n")
    for group, g in groups.items():
        med = lambda v: f"{statistics.median(v):.2f}" if v else ""
        f.write(f"| {group} | {g['n']} | {len(g['a'])} | {len(g['b'])} | {g['met']} | "
                f"{med(g['a'])} | {med(g['b'])} |\n")
    f.write(f"\n| position | input | length | s ({set_name}) | nodes | s ({vs}) | nodes | ratio | "
            f"target |\n|---|---|---:|---:|---:|---:|---:|---:|---|\n")
    f.write("\n".join(lines) + "\n")
    if problems:
        f.write("\n## Problems\n\n" + "\n".join(f"- {p}" for p in problems) + "\n")
print(f"{me}: {met} of {counted} positions meet the target; report in {out}", file=sys.stderr)
for p in problems:
    print(f"{me}: {p}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
