#!/usr/bin/env bash
# Usage: scripts/bench-solve.sh [--set SET] [--threads T] [--dual] [--sym] [--max-depth N]
#                               [--pdb-dir DIR] [--out FILE] [FILE]
#
# Solves every position of FILE (default scripts/bench-positions.txt: one scramble or facelet
# string a line, `#` comments skipped; a trailing `# optimal N` is the known optimal length and
# is checked) with
#   optcube solve --file FILE --json --set SET --threads T [--dual] [--sym] [--max-depth N]
# and writes a markdown table (position, expected, length, optimal, nodes, nodes/s, seconds) to
# results/solve-bench-SET-tT.md (…-dual.md with --dual, …-sym.md with --sym), headed by the machine (nproc, CPU
# model, memory), the date, the commit and the exact command.
#
#   --set SET        table set (default korf; env SET)
#   --threads T      search threads (default 2; env THREADS)
#   --dual           dual heuristic (env DUAL=1)
#   --sym            turned lookups of the edge tables (env SYM=1)
#   --max-depth N    give up on a position once no solution of <= N moves exists (default 20;
#                    env MAX_DEPTH); such rows show `> N` as length
#   --pdb-dir DIR    table directory (default: optcube's, i.e. $OPTCUBE_PDB_DIR or pdb/);
#                    missing tables are built first (minutes for korf)
#   --out FILE       write the table there instead of results/solve-bench-SET-tT.md
# Runs `cargo build --release` first and uses $CARGO_TARGET_DIR/release/optcube (default
# target/). Needs python3. Exit status 1 if a solved length disagrees with `# optimal N`.
# Example: scripts/bench-solve.sh --set korf --threads 2
set -euo pipefail

cd "$(dirname "$0")/.."

set_name="${SET:-korf}"
threads="${THREADS:-2}"
dual="${DUAL:-0}"
sym="${SYM:-0}"
max_depth="${MAX_DEPTH:-}"
pdb_dir="${PDB_DIR:-}"
out="${OUT:-}"
file=scripts/bench-positions.txt
while [[ $# -gt 0 ]]; do
    case "$1" in
        --set) set_name="${2:?}"; shift 2 ;;
        --threads) threads="${2:?}"; shift 2 ;;
        --dual) dual=1; shift ;;
        --sym) sym=1; shift ;;
        --max-depth) max_depth="${2:?}"; shift 2 ;;
        --pdb-dir) pdb_dir="${2:?}"; shift 2 ;;
        --out) out="${2:?}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "bench-solve.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) file="$1"; shift ;;
    esac
done
[[ -r $file ]] || { echo "bench-solve.sh: cannot read $file" >&2; exit 2; }
[[ $dual == 0 || $dual == 1 ]] || { echo "bench-solve.sh: DUAL must be 0 or 1" >&2; exit 2; }
[[ $sym == 0 || $sym == 1 ]] || { echo "bench-solve.sh: SYM must be 0 or 1" >&2; exit 2; }
command -v python3 >/dev/null || { echo "bench-solve.sh: python3 is required" >&2; exit 1; }

suffix=""
[[ $dual == 1 ]] && suffix="-dual"
[[ $sym == 1 ]] && suffix="$suffix-sym"
out="${out:-results/solve-bench-${set_name//,/+}-t${threads}${suffix}.md}"
mkdir -p "$(dirname "$out")"

echo "bench-solve.sh: cargo build --release" >&2
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/optcube"

cmd=("$bin" solve --file "$file" --json --set "$set_name" --threads "$threads")
[[ $dual == 1 ]] && cmd+=(--dual)
[[ $sym == 1 ]] && cmd+=(--sym)
[[ -n $max_depth ]] && cmd+=(--max-depth "$max_depth")
[[ -n $pdb_dir ]] && cmd+=(--pdb-dir "$pdb_dir")

json="$(mktemp)"
errlog="$(mktemp)"
trap 'rm -f "$json" "$errlog"' EXIT
echo "bench-solve.sh: ${cmd[*]}" >&2
start=$(date +%s.%N)
# Progress (table loading or building) stays visible on stderr and is kept for the summary.
set +e
"${cmd[@]}" 2>&1 >"$json" | tee "$errlog" >&2
status=${PIPESTATUS[0]}
set -e
wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
# Exit 3: some position had no solution within --max-depth (its line says the bound proved).
if [[ $status -ne 0 && $status -ne 3 ]]; then
    echo "bench-solve.sh: optcube solve exited with $status" >&2
    exit "$status"
fi

machine="$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(awk '/^MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo) RAM"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]]; then commit+=" (with uncommitted changes)"; fi

python3 - "$json" "$file" "$out" "$machine" "$commit" "${cmd[*]}" "$wall" "$errlog" <<'PY'
import json, re, sys, datetime

jpath, fpath, out, machine, commit, command, wall, errlog = sys.argv[1:9]
# Known optimal lengths from the positions file: same parsing as `solve --file`.
expected = {}
for line in open(fpath):
    text, _, comment = line.partition("#")
    text = text.strip()
    if text:
        m = re.search(r"optimal\s+(\d+)", comment)
        expected.setdefault(text, int(m.group(1)) if m else None)
        if "random state" in comment and expected[text] is None:
            expected[text] = "random"

rows, mismatches = [], 0
tot_nodes, tot_secs = 0, 0.0
for line in open(jpath):
    if not line.strip():
        continue
    r = json.loads(line)
    pos = r["input"]
    exp = expected.get(pos)
    length = r.get("length")
    if length is None:
        shown = f"> {r.get('lower_bound', 0) - 1}" if not r.get("interrupted") else "interrupted"
    else:
        shown = str(length)
    ok = ""
    if isinstance(exp, int) and length is not None:
        ok = "" if exp == length else " **MISMATCH**"
        mismatches += exp != length
    nodes, secs = r["nodes"], r["seconds"]
    tot_nodes += nodes
    tot_secs += secs
    rate = nodes / secs if secs > 0 else 0.0
    rows.append(f"| `{pos}` | {exp if exp is not None else ''} | {shown}{ok} | "
                f"{'yes' if r.get('optimal') else 'no'} | {nodes:,} | {rate / 1e6:.2f} M | {secs:.3f} |")

now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
summary = [l.rstrip() for l in open(errlog) if l.strip()]
with open(out, "w") as f:
    f.write(f"# Optimal solver benchmark: {fpath}\n\n")
    f.write(f"- machine: {machine}\n")
    f.write(f"- date: {now}, commit {commit}\n")
    f.write(f"- command: `{command}`\n")
    f.write(f"- positions: {len(rows)}, search time {tot_secs:.1f} s, "
            f"{tot_nodes:,} nodes, {tot_nodes / max(tot_secs, 1e-9) / 1e6:.2f} M nodes/s overall; "
            f"wall time of the whole run {wall} s (includes loading the tables)\n\n")
    f.write("| position | expected | length | optimal | nodes | nodes/s | seconds |\n")
    f.write("|---|---:|---:|---|---:|---:|---:|\n")
    f.write("\n".join(rows) + "\n")
    if summary:
        f.write("\n<details><summary>optcube stderr</summary>\n\n```\n")
        f.write("\n".join(summary[-40:]) + "\n```\n</details>\n")
print(out)
if mismatches:
    print(f"bench-solve.sh: {mismatches} length(s) differ from the file's `# optimal N`", file=sys.stderr)
    sys.exit(1)
PY
