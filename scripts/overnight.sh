#!/usr/bin/env bash
# Usage: scripts/overnight.sh [N]
#
# The overnight job: builds what is missing, measures, and writes a dated report
# results/overnight-YYYY-MM-DD.md (machine, commit, every command with its time and status,
# links to the outputs, the length table). Safe to interrupt and rerun: finished steps are
# skipped and the length study resumes from its file.
#
#   1. tables     optcube pdb build --set SET --dir PDB (valid tables are kept), pdb verify
#   2. pack       optcube pdb pack (zstd copies), skipped when every .zst is newer than its .pdb
#   3. bench      scripts/bench-solve.sh on scripts/bench-positions.txt without its random-state
#                 lines -> results/overnight-DATE/solve-bench.md (skipped if already there)
#   4. study      optcube stats lengths --count N --seed SEED: N random positions solved
#                 optimally, one JSON line each, into results/lengths-seedSEED.jsonl; a rerun
#                 (tonight or another night) goes on where it stopped
#   5. summary    optcube stats summarize -> results/lengths-seedSEED-lengths.csv and .md
#   6. tables CSV scripts/table-csv.sh PDB results/overnight-DATE/tables
#   7. plots      optcube stats plot CSV --out SVG --title TEXT for the length distribution and
#                 each table's depth distribution (skipped with a note if `stats plot` fails)
#
# N: positions in the study (default 10). With sym48e6 on 2 cores a random position takes
# seconds (most need 17 or 18 moves); with the korf tables minutes to hours, so a night
# finishes a few; the next night's run resumes the same study (same seed). Settings, from the environment:
#   OPTCUBE_SET      table set (default: optcube's choice, `optcube pdb choose`: the fastest set
#                    whose tables are in the directory, else the fastest whose build fits in
#                    memory, sym48e6 where about 9 GB are free)
#   OPTCUBE_PDB_DIR  table directory (default pdb)
#   THREADS          threads for builds and searches (default: nproc)
#   SEED             study seed (default 1)
#   MOVES            if set, the study uses random MOVES-move scrambles (smoke runs; the files
#                    are then results/lengths-seedSEED-movesMOVES.*)
#   STUDY_HOURS      if set, stop the study cleanly after that many hours (e.g. 7.5) and go on
#                    with the summary and the report
#   BENCH_FILE       positions for the benchmark (default: the filtered bench-positions.txt)
#   SKIP_BENCH=1     skip the benchmark
# Smoke run (a minute): OPTCUBE_SET=korf6 OPTCUBE_PDB_DIR=/tmp/pdb6 MOVES=9 SKIP_BENCH=1 \
#                       scripts/overnight.sh 20
# Runs `cargo build --release` and uses $CARGO_TARGET_DIR/release/optcube (default target/).
# Everything written on stderr is also kept in results/overnight-DATE/overnight.log.
set -euo pipefail

cd "$(dirname "$0")/.."

if [[ ${1:-} == -h || ${1:-} == --help ]]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 0
fi
[[ $# -le 1 ]] || { echo "overnight.sh: one argument at most (N); see --help" >&2; exit 2; }
count="${1:-10}"
[[ $count =~ ^[1-9][0-9]*$ ]] || { echo "overnight.sh: N must be a positive whole number, not '$count'" >&2; exit 2; }
set_name="${OPTCUBE_SET:-}"
pdb="${OPTCUBE_PDB_DIR:-pdb}"
threads="${THREADS:-$(nproc)}"
seed="${SEED:-1}"
moves="${MOVES:-}"
[[ -z $moves || $moves =~ ^[0-9]+$ ]] || { echo "overnight.sh: MOVES must be a whole number" >&2; exit 2; }
[[ -z ${STUDY_HOURS:-} || ${STUDY_HOURS} =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "overnight.sh: STUDY_HOURS must be a number of hours" >&2; exit 2; }

day="$(date +%F)"
night="results/overnight-$day"
report="results/overnight-$day.md"
mkdir -p "$night"
log="$night/overnight.log"
# tee ignores Ctrl-C so that the last messages of an interrupted run still reach the log.
exec 2> >(trap "" INT; exec tee -a "$log" >&2)
echo "overnight.sh: $(date -Is) start (N=$count, set ${set_name:-chosen by optcube}, tables in $pdb)" >&2

steps=()   # markdown rows: | step | command | status | seconds |
# run STEP CMD...: runs a command, times it and records a row; stops the script on failure.
run() {
    local step="$1"; shift
    echo "overnight.sh: [$step] $*" >&2
    local t0 st=0
    t0=$(date +%s)
    "$@" || st=$?
    steps+=("| $step | \`$*\` | $([[ $st == 0 ]] && echo ok || echo "exit $st") | $(( $(date +%s) - t0 )) |")
    return "$st"
}
skip() {
    echo "overnight.sh: [$1] skipped: $2" >&2
    steps+=("| $1 | | skipped: $2 | |")
}

echo "overnight.sh: cargo build --release" >&2
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/optcube"
# The set optcube itself would use here (said with its reason on stderr).
[[ -n $set_name ]] || set_name="$("$bin" pdb choose --dir "$pdb")"

# 1. Tables: `pdb build` keeps every valid table (header, size and checksum checked).
run tables "$bin" pdb build --set "$set_name" --dir "$pdb" --threads "$threads"
run verify "$bin" pdb verify --dir "$pdb" --threads "$threads"

# 2. zstd copies, unless each is newer than its table. `pdb pack` packs the pattern databases
# (not the two-phase tables the benchmark builds beside them).
stale=()
for t in corners edges7a edges7b edgeperm edges6a edges6b; do
    f="$pdb/$t.pdb"
    [[ -e $f ]] || continue
    [[ "$f.zst" -nt "$f" ]] || stale+=("$(basename "$f")")
done
if [[ ${#stale[@]} -gt 0 ]]; then
    run pack "$bin" pdb pack --dir "$pdb" --threads "$threads"
else
    skip pack "every .pdb.zst in $pdb is newer than its table"
fi

# 3. Solver benchmark (scrambles of known optimal length; the random states take hours).
bench_out="$night/solve-bench.md"
if [[ ${SKIP_BENCH:-0} == 1 ]]; then
    skip bench "SKIP_BENCH=1"
elif [[ -s $bench_out ]]; then
    skip bench "$bench_out already made tonight"
else
    bench_file="${BENCH_FILE:-}"
    if [[ -z $bench_file ]]; then
        bench_file="$night/bench-positions.txt"
        grep -v 'random state' scripts/bench-positions.txt >"$bench_file"
    fi
    # Written under another name and renamed when complete.
    run bench scripts/bench-solve.sh --set "$set_name" --threads "$threads" --pdb-dir "$pdb" \
        --out "$bench_out.tmp" "$bench_file"
    mv "$bench_out.tmp" "$bench_out"
fi

# 4. The length study, resumable through its file.
name="lengths-seed$seed${moves:+-moves$moves}"
study="results/$name.jsonl"
study_cmd=("$bin" stats lengths --count "$count" --seed "$seed" --set "$set_name" \
    --pdb-dir "$pdb" --threads "$threads" --out "$study")
[[ -n $moves ]] && study_cmd+=(--moves "$moves")
if [[ -n ${STUDY_HOURS:-} ]]; then
    secs=$(awk -v h="$STUDY_HOURS" 'BEGIN { printf "%d", h * 3600 }')
    # SIGINT at the limit: the current search stops cleanly, its position is left for next time.
    study_cmd=(timeout --foreground -s INT "$secs" "${study_cmd[@]}")
fi
study_status=0
run study "${study_cmd[@]}" >"$night/study-stdout.txt" || study_status=$?
study_note="all $count positions finished"
case $study_status in
    0) ;;
    124) study_note="stopped after STUDY_HOURS=$STUDY_HOURS h; rerun to go on" ;;
    *) echo "overnight.sh: the study stopped (exit $study_status); rerun to resume" >&2
       exit "$study_status" ;;
esac

# 5.-7. Summary, table distributions and plots (the summary only once a position is finished).
plots=()
plot_note=""
plot() { # CSV SVG TITLE
    local err
    if err=$("$bin" stats plot "$1" --out "$2" --title "$3" 2>&1); then
        plots+=("$2")
        steps+=("| plot | \`optcube stats plot $1 --out $2 --title '$3'\` | ok | |")
    else
        plot_note="no plots: \`optcube stats plot\` failed: $(head -1 <<<"$err")"
        echo "overnight.sh: $plot_note" >&2
        return 1
    fi
}
run table-csv scripts/table-csv.sh "$pdb" "$night/tables" >/dev/null
have_summary=0
if [[ -s $study ]]; then
    run summary "$bin" stats summarize "$study" --out-dir results --name "$name" >/dev/null
    have_summary=1
    cut -d, -f1,2 "results/$name-lengths.csv" >"$night/lengths-count.csv"
    plot "$night/lengths-count.csv" "$night/lengths.svg" \
        "Optimal solution lengths ($name, set $set_name)" || true
else
    skip summary "no position of the study finished yet"
fi
if [[ -z $plot_note ]]; then
    for csv in "$night"/tables/*.csv; do
        [[ -e $csv ]] || continue
        t="$(basename "$csv" .csv)"
        plot "$csv" "$night/tables/$t.svg" "Depth distribution of table $t" || break
    done
fi
[[ -z $plot_note ]] || skip plot "${plot_note#no plots: }"

# The report, written whole and renamed into place.
machine="$(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(awk '/^MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo) RAM"
commit="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
if [[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]]; then commit+=" (with uncommitted changes)"; fi
rel() { echo "${1#results/}"; }
{
    echo "# Overnight run $day"
    echo
    echo "- machine: $machine"
    echo "- commit: $commit; finished $(date -Is)"
    echo "- settings: set \`$set_name\`, tables in \`$pdb\`, $threads threads, study of $count positions, seed $seed${moves:+, $moves-move scrambles (smoke run: not random positions)}"
    echo "- made by: \`scripts/overnight.sh $count\` (log: [$(rel "$log")]($(rel "$log")))"
    echo
    echo "## Steps"
    echo
    echo "| step | command | status | seconds |"
    echo "|---|---|---|---:|"
    printf '%s\n' "${steps[@]}"
    echo
    echo "## Outputs"
    echo
    [[ -s $bench_out ]] && echo "- solver benchmark: [$(rel "$bench_out")]($(rel "$bench_out"))"
    echo "- length study: \`$study\` ($study_note; its table on stdout: [$(rel "$night")/study-stdout.txt]($(rel "$night")/study-stdout.txt))"
    [[ $have_summary == 0 ]] || echo "- length summary: [$name.md]($name.md), distribution [$name-lengths.csv]($name-lengths.csv)"
    echo "- table depth distributions: [$(rel "$night/tables")/summary.md]($(rel "$night/tables")/summary.md)"
    for p in "${plots[@]}"; do echo "- plot: [$(rel "$p")]($(rel "$p"))"; done
    [[ -n $plot_note ]] && echo "- $plot_note"
    echo
    if [[ $have_summary == 1 ]]; then
        echo "## Optimal solution lengths"
        echo
        grep '^- positions:' "results/$name.md" || true
        echo
        grep '^|' "results/$name.md"
    fi
} >"$report.tmp"
mv "$report.tmp" "$report"
echo "overnight.sh: wrote $report" >&2
