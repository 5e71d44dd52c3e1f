#!/usr/bin/env bash
# Usage: scripts/bench-random.sh [--set SET] [--n17 N] [--n18 N] [--n19 N] [--n20 N] [--threads T]
#                                [--pdb-dir DIR] [--out FILE]
#
# Benchmarks the optimal solver on the public benchmark positions by optimal length
# (benches/positions/optimal-L.txt: one scramble a line, every position exactly L moves optimal).
# For each length L with N > 0 it takes the first N positions of optimal-L.txt and runs, in one
# process per length,
#   /usr/bin/time -f '%M %e' optcube solve --file TMP --json --set SET --threads T --no-upper-bound [--pdb-dir DIR]
# checks that every position comes out exactly L moves long and proven optimal, and writes a
# markdown report to results/solve-bench-SET-tT.md (commas in SET become +): machine (nproc,
# CPU model, memory), date, commit, the exact commands, per length the mean/median/max seconds,
# nodes, nodes/s, peak resident memory (GB = KB x 1024 / 1e9) and GB·s per position (peak RSS GB
# x seconds per position, mean and median; and the same by the tables' bytes in memory, which
# `solve` reports on stderr), then every position. The summary table is also
# printed to stdout. Peak RSS is that of the whole process (tables, move tables, binary), so it
# is an upper bound of the tables' size.
#
#   --set SET        table set (default sym48; env SET)
#   --n17 N          positions of length 17 (default 25, i.e. all; env N17)
#   --n18 N          positions of length 18 (default 10; env N18)
#   --n19 N          positions of length 19 (default 0; env N19)
#   --n20 N          positions of length 20 (default 0; env N20)
#   --threads T      search threads (default 1; env THREADS)
#   --pdb-dir DIR    table directory (default: optcube's, i.e. $OPTCUBE_PDB_DIR or pdb/; env
#                    PDB_DIR); missing tables are built first, which then counts in the wall time
#                    and may raise the peak RSS, but not in the per-position seconds
#   --out FILE       write the report there instead of results/solve-bench-SET-tT.md (env OUT)
# Environment only: BENCH_DIR  directory of optimal-L.txt (default benches/positions);
#                   BIN        optcube binary to use; skips the build.
# Without BIN, runs `cargo build --release` first and uses $CARGO_TARGET_DIR/release/optcube
# (default target/). Relative paths given by the caller are taken from the caller's directory.
# Needs python3 and GNU time (/usr/bin/time). Exit status 1 if a position's length is not L or
# not proven optimal (the report is still written). Takes hours with the defaults.
# Example: scripts/bench-random.sh --set sym48 --n17 25 --n18 10
set -euo pipefail

me=bench-random.sh
# Paths given by the caller are relative to the caller's directory; defaults to the repo root.
abs() { if [[ $1 == /* ]]; then printf '%s\n' "$1"; else printf '%s\n' "$PWD/$1"; fi; }

set_name="${SET:-sym48}"
n17="${N17:-25}"
n18="${N18:-10}"
n19="${N19:-0}"
n20="${N20:-0}"
threads="${THREADS:-1}"
pdb_dir="${PDB_DIR:-}"
out="${OUT:-}"
bench_dir="${BENCH_DIR:-}"
bin="${BIN:-}"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --set) set_name="${2:?}"; shift 2 ;;
        --n17) n17="${2:?}"; shift 2 ;;
        --n18) n18="${2:?}"; shift 2 ;;
        --n19) n19="${2:?}"; shift 2 ;;
        --n20) n20="${2:?}"; shift 2 ;;
        --threads) threads="${2:?}"; shift 2 ;;
        --pdb-dir) pdb_dir="${2:?}"; shift 2 ;;
        --out) out="${2:?}"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) echo "$me: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done
for v in "$n17" "$n18" "$n19" "$n20"; do
    [[ $v =~ ^[0-9]+$ ]] || { echo "$me: position counts must be non-negative integers, got '$v'" >&2; exit 2; }
done
[[ $threads =~ ^[1-9][0-9]*$ ]] || { echo "$me: --threads must be a positive integer" >&2; exit 2; }
[[ -n $pdb_dir ]] && pdb_dir="$(abs "$pdb_dir")"
[[ -n $out ]] && out="$(abs "$out")"
[[ -n $bench_dir ]] && bench_dir="$(abs "$bench_dir")"
[[ -n $bin ]] && bin="$(abs "$bin")"
command -v python3 >/dev/null || { echo "$me: python3 is required" >&2; exit 1; }
[[ -x /usr/bin/time ]] || { echo "$me: GNU time (/usr/bin/time) is required" >&2; exit 1; }

cd "$(dirname "$0")/.."
bench_dir="${bench_dir:-benches/positions}"
out="${out:-results/solve-bench-${set_name//,/+}-t${threads}.md}"

# Lengths to run and their position files, checked before the (long) runs start.
lengths=()
declare -A count=([17]=$n17 [18]=$n18 [19]=$n19 [20]=$n20)
for L in 17 18 19 20; do
    n=${count[$L]}
    [[ $n -gt 0 ]] || continue
    f="$bench_dir/optimal-$L.txt"
    [[ -r $f ]] || { echo "$me: cannot read $f" >&2; exit 2; }
    have=$(awk '!/^[[:space:]]*(#|$)/ { c++ } END { print c + 0 }' "$f")
    [[ $have -ge $n ]] || { echo "$me: $f has only $have positions, asked for $n" >&2; exit 2; }
    lengths+=("$L")
done
[[ ${#lengths[@]} -gt 0 ]] || { echo "$me: nothing to do (all of --n17/--n18/--n19/--n20 are 0)" >&2; exit 2; }
mkdir -p "$(dirname "$out")"

if [[ -z $bin ]]; then
    echo "$me: cargo build --release" >&2
    cargo build --release --quiet
    bin="${CARGO_TARGET_DIR:-target}/release/optcube"
fi
[[ -x $bin ]] || { echo "$me: no executable $bin" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
manifest="$work/manifest.tsv"
: >"$manifest"
for L in "${lengths[@]}"; do
    n=${count[$L]}
    f="$bench_dir/optimal-$L.txt"
    pos="$work/optimal-$L-first$n.txt"
    json="$work/$L.jsonl"
    timef="$work/$L.time"
    # The first N positions (blank and `#` lines skipped, as `solve --file` does).
    awk -v n="$n" '!/^[[:space:]]*(#|$)/ && c < n { print; c++ }' "$f" >"$pos"
    cmd=("$bin" solve --file "$pos" --json --set "$set_name" --threads "$threads" --no-upper-bound)
    [[ -n $pdb_dir ]] && cmd+=(--pdb-dir "$pdb_dir")
    echo "$me: length $L, $n positions: ${cmd[*]}" >&2
    # JSON lines to a file; progress (stderr) stays on the terminal and is kept for the
    # `tables:` line (the tables' bytes in memory); time's line to its own file.
    errf="$work/$L.err"
    set +e
    /usr/bin/time -f '%M %e' -o "$timef" "${cmd[@]}" 2>&1 >"$json" | tee "$errf" >&2
    status=${PIPESTATUS[0]}
    set -e
    if [[ $status -ne 0 ]]; then
        echo "$me: optcube solve exited with $status on length $L" >&2
        exit "$status"
    fi
    shown="TMP = first $n positions of $f: /usr/bin/time -f '%M %e' ${cmd[*]/#"$pos"/TMP}"
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$L" "$n" "$pos" "$json" "$timef" "$shown" "$errf" >>"$manifest"
done

machine="$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(awk '/^MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo) RAM"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]]; then commit+=" (with uncommitted changes)"; fi

python3 - "$manifest" "$out" "$machine" "$commit" "$set_name" "$threads" "$me" <<'PY'
import datetime, json, statistics, sys

manifest, out, machine, commit, set_name, threads, me = sys.argv[1:8]
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")

header = ("| length | positions | mean s | median s | max s | mean nodes | nodes/s | peak RSS GB "
          "| GB·s per position (mean) | GB·s (median) | table GB | GB·s by table (mean) "
          "| GB·s by table (median) |")
align = "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
summary, details, commands, walls, problems = [], [], [], [], []
tables_seen = set()

for line in open(manifest):
    L, n, pos_path, json_path, time_path, shown, err_path = line.rstrip("\n").split("\t")
    L, n = int(L), int(n)
    commands.append(shown)
    positions = [l.strip() for l in open(pos_path) if l.strip()]
    results = [json.loads(l) for l in open(json_path) if l.strip()]
    # GNU time may put "Command exited with ..." first; the format's line is the last one.
    kb, wall = [l for l in open(time_path).read().splitlines() if l.strip()][-1].split()
    gb = int(kb) * 1024 / 1e9
    walls.append((L, float(wall)))
    # `solve` says on stderr which tables it holds and their bytes in memory.
    table_lines = [l for l in open(err_path, errors="replace") if l.startswith("tables: ")]
    table_gb = int(table_lines[-1].split(", ")[-1].split()[0]) / 1e9 if table_lines else None
    if table_lines:
        tables_seen.add(table_lines[-1].strip())
    else:
        problems.append(f"length {L}: no `tables:` line from solve, GB·s by table not known")

    if len(results) != len(positions):
        problems.append(f"length {L}: {len(results)} results for {len(positions)} positions")
    for i, r in enumerate(results):
        if i < len(positions) and r.get("input", "").strip() != positions[i]:
            problems.append(f"length {L}: result {i + 1} is for `{r.get('input')}`, expected `{positions[i]}`")
        length, optimal = r.get("length"), r.get("optimal")
        mark = ""
        if length != L or optimal is not True:
            problems.append(f"length {L}: `{r.get('input')}` gave length {length}, optimal {json.dumps(optimal)}")
            mark = f" **expected {L}{', not optimal' if optimal is not True else ''}**"
        details.append(f"| {length if length is not None else '-'}{mark} | `{r.get('input')}` | "
                       f"{r['seconds']:.3f} | {r['nodes']:,} | `{r.get('solution') or ''}` |")

    secs = [r["seconds"] for r in results]
    nodes = [r["nodes"] for r in results]
    if not secs:
        summary.append(f"| {L} | 0 | | | | | | {gb:.2f} | | | | | |")
        continue
    mean_s, med_s = statistics.mean(secs), statistics.median(secs)
    rate = sum(nodes) / sum(secs) if sum(secs) > 0 else 0.0
    summary.append(f"| {L} | {len(secs)} | {mean_s:.3f} | {med_s:.3f} | {max(secs):.3f} | "
                   f"{statistics.mean(nodes):,.0f} | {rate / 1e6:.2f} M | {gb:.2f} | "
                   f"{gb * mean_s:.3f} | {gb * med_s:.3f} | "
                   + (f"{table_gb:.4f} | {table_gb * mean_s:.3f} | {table_gb * med_s:.3f} |"
                      if table_gb is not None else "? | | |"))

table = "\n".join([header, align] + summary)
with open(out, "w") as f:
    f.write(f"# Optimal solver benchmark by optimal length: set {set_name}, {threads} thread(s)\n\n")
    f.write(f"- machine: {machine}\n")
    f.write(f"- date: {now}, commit {commit}\n")
    f.write("- commands (one process per length):\n")
    for c in commands:
        f.write(f"  - `{c}`\n")
    f.write("- wall time per run (includes loading or building the tables): "
            + ", ".join(f"length {L}: {w:.1f} s" for L, w in walls) + "\n")
    f.write("- seconds and nodes are per position, from `--json`; GB = peak RSS KB × 1024 / 1e9 of "
            "the run's process (GNU time `%M`), GB·s = GB × seconds per position\n")
    f.write("- note: the peak RSS includes the process's other memory (move tables, tables derived at "
            "start, the binary), so it is an upper bound of the table size\n")
    f.write("- table GB = the bytes in memory of the tables the search reads (payloads, and the "
            "corner successor table when derived), as `solve` reports them on stderr; the measure of "
            "the peers' figures (nissy-core benchmarks; vcube and H48 also measured here): " + "; ".join(f"`{t}`" for t in sorted(tables_seen)) + "\n\n")
    f.write(table + "\n\n")
    f.write("## Positions\n\n")
    f.write("| length | scramble | seconds | nodes | solution |\n")
    f.write("|---:|---|---:|---:|---|\n")
    f.write("\n".join(details) + "\n")
    if problems:
        f.write("\n## Check failures\n\n" + "\n".join(f"- {p}" for p in problems) + "\n")

print(table)
print(f"\nreport: {out}")
if problems:
    for p in problems:
        print(f"{me}: {p}", file=sys.stderr)
    print(f"{me}: {len(problems)} check failure(s)", file=sys.stderr)
    sys.exit(1)
PY
