#!/usr/bin/env bash
# Runs a length study as a Slurm array job on a one-node cluster started on this machine
# (scripts/slurm-localhost.sh), merges the shards with `optcube stats summarize`, and checks
# the merged study against the same study run on one machine without Slurm: every position
# there, every optimal length equal (summarize --against refuses any difference).
#
#   scripts/slurm-study-check.sh [--count N] [--seed S] [--tasks K] [--cpus C] [--moves L]
#                                [--set SET] [--pdb-dir DIR] [--work DIR]
#   scripts/slurm-study-check.sh --cosets [--count N] [--max-depth D] [--samples K] [...]
#
# With --cosets the study is one of N random cosets (scripts/slurm-cosets.sh, `optcube coset
# --random-cosets`), by default 4 cosets to depth 5 without samples (little memory, seconds;
# the two-phase tables are built in the table directory on first use), and the check is that
# every coset's counts equal the one-machine run's.
#
# Defaults: 40 positions of seed 1 in 2 tasks of 1 CPU each, random positions, the default
# table set (optcube's choice for the table directory, $OPTCUBE_PDB_DIR or pdb/, which must hold
# its tables already: `optcube pdb build`), work files in a new temporary directory (kept,
# and named at the end). OPTCUBE names the binary (default target/release/optcube).
# Exit status: 0 when the check passes, 3 when Slurm or MUNGE is not installed (said on
# stderr), anything else on a failure.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)

count=40 seed=1 tasks=2 cpus=1 moves="" set_name="" work="" cosets="" max_depth=5 samples=0
pdb_dir="${OPTCUBE_PDB_DIR:-$repo/pdb}"
while [[ $# -gt 0 ]]; do
    case "$1" in
    --cosets) cosets=1; count=4; shift; continue ;;
    --max-depth) max_depth=$2 ;;
    --samples) samples=$2 ;;
    --count) count=$2 ;;
    --seed) seed=$2 ;;
    --tasks) tasks=$2 ;;
    --cpus) cpus=$2 ;;
    --moves) moves=$2 ;;
    --set) set_name=$2 ;;
    --pdb-dir) pdb_dir=$2 ;;
    --work) work=$2 ;;
    *) echo "slurm-study-check: unknown argument $1" >&2; exit 2 ;;
    esac
    shift 2
done
bin=$(realpath -m "${OPTCUBE:-$repo/target/release/optcube}")
[[ -x $bin ]] || { echo "slurm-study-check: no optcube binary at $bin (cargo build --release)" >&2; exit 2; }
pdb_dir=$(realpath -m "$pdb_dir")
work=$(realpath -m "${work:-$(mktemp -d -t optcube-slurm-XXXXXX)}")
mkdir -p "$work"

cluster="$work/cluster"
set +e
conf_line=$("$repo/scripts/slurm-localhost.sh" start "$cluster")
status=$?
set -e
[[ $status -eq 0 ]] || exit "$status"
trap '"$repo/scripts/slurm-localhost.sh" stop "$cluster" 2>/dev/null || true' EXIT
eval "$conf_line"

if [[ -n $cosets ]]; then
    echo "slurm-study-check: $count cosets (seed $seed, to depth $max_depth, $samples samples" \
        "each) in $tasks array tasks of $cpus CPU(s), tables in $pdb_dir" >&2
    start=$(date +%s%N)
    if ! sbatch --wait --parsable --array="0-$((tasks - 1))" --cpus-per-task="$cpus" \
        --time=UNLIMITED --output="$work/task-%A_%a.log" --chdir="$repo" \
        --export="ALL,OPTCUBE=$bin,OPTCUBE_PDB_DIR=$pdb_dir,COUNT=$count,SEED=$seed,SEARCH=$max_depth,MAX=$max_depth,SAMPLES=$samples,OPTCUBE_SET=$set_name,OUT_DIR=$work/shards" \
        "$repo/scripts/slurm-cosets.sh" >"$work/job-id"; then
        echo "slurm-study-check: the array job failed; task logs:" >&2
        tail -n 5 "$work"/task-*.log >&2 || true
        exit 1
    fi
    cluster_ms=$((($(date +%s%N) - start) / 1000000))
    one=("$bin" coset --random-cosets "$count" --seed "$seed" --max-depth "$max_depth"
        --sample "$samples" --pdb-dir "$pdb_dir" --out "$work/one-machine.jsonl")
    [[ -n $set_name ]] && one+=(--set "$set_name")
    "${one[@]}" >/dev/null 2>"$work/one-machine.log"
    shards=("$work"/shards/*.jsonl)
    [[ ${#shards[@]} -eq $tasks ]] ||
        { echo "slurm-study-check: ${#shards[@]} shard files, expected $tasks" >&2; exit 1; }
    python3 - "$count" "$work/one-machine.jsonl" "${shards[@]}" <<'PY'
import json, sys
count, one, shards = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
key = lambda r: (r["coset"], r["depth_counts"], r["bounded_counts"], r["unset"],
                 [(s["facelets"], s["length"]) for s in r["samples"]])
here = {json.loads(l)["index"]: json.loads(l) for f in shards for l in open(f) if l.strip()}
there = {json.loads(l)["index"]: json.loads(l) for l in open(one) if l.strip()}
assert sorted(here) == list(range(count)), f"the shards hold cosets {sorted(here)}"
bad = [i for i in range(count) if key(here[i]) != key(there[i])]
assert not bad, f"cosets {bad} differ from the one-machine run"
PY
    "$bin" stats summarize "${shards[@]}" --out-dir "$work" --name cluster >"$work/summary.txt"
    printf 'slurm-study-check: passed: %s cosets, %s shards merged; every coset equals the one-machine run\n' \
        "$count" "$tasks"
    printf 'slurm-study-check: wall time %s ms on the cluster; report %s\n' "$cluster_ms" "$work/cluster.md"
    exit 0
fi

echo "slurm-study-check: $count positions (seed $seed${moves:+, $moves-move scrambles}) in $tasks" \
    "array tasks of $cpus CPU(s), set ${set_name:-default}, tables in $pdb_dir" >&2
start=$(date +%s%N)
# --wait: sbatch returns when the whole array has ended, nonzero if a task failed.
if ! sbatch --wait --parsable --array="0-$((tasks - 1))" --cpus-per-task="$cpus" \
    --time=UNLIMITED --output="$work/task-%A_%a.log" --chdir="$repo" \
    --export="ALL,OPTCUBE=$bin,OPTCUBE_PDB_DIR=$pdb_dir,COUNT=$count,SEED=$seed,MOVES=$moves,OPTCUBE_SET=$set_name,OUT_DIR=$work/shards" \
    "$repo/scripts/slurm-lengths.sh" >"$work/job-id"; then
    echo "slurm-study-check: the array job failed; task logs:" >&2
    tail -n 5 "$work"/task-*.log >&2 || true
    exit 1
fi
cluster_ms=$((($(date +%s%N) - start) / 1000000))

echo "slurm-study-check: the same study on one machine ($(nproc) threads)" >&2
start=$(date +%s%N)
one=("$bin" stats lengths --count "$count" --seed "$seed" --pdb-dir "$pdb_dir"
    --out "$work/one-machine.jsonl")
[[ -n $moves ]] && one+=(--moves "$moves")
[[ -n $set_name ]] && one+=(--set "$set_name")
"${one[@]}" >/dev/null 2>"$work/one-machine.log"
one_ms=$((($(date +%s%N) - start) / 1000000))

shards=("$work"/shards/*.jsonl)
[[ ${#shards[@]} -eq $tasks ]] ||
    { echo "slurm-study-check: ${#shards[@]} shard files, expected $tasks" >&2; exit 1; }
lines=$(cat "${shards[@]}" | wc -l)
[[ $lines -eq $count ]] ||
    { echo "slurm-study-check: the shards hold $lines positions, expected $count" >&2; exit 1; }
"$bin" stats summarize "${shards[@]}" --out-dir "$work" --name cluster \
    --against "$work/one-machine.jsonl" >"$work/summary.txt"
printf 'slurm-study-check: passed: %s positions, %s shards merged; the optimal lengths equal the one-machine run on every position\n' \
    "$count" "$tasks"
printf 'slurm-study-check: wall time %s ms on the cluster (%s tasks x %s CPU), %s ms on one machine; report %s\n' \
    "$cluster_ms" "$tasks" "$cpus" "$one_ms" "$work/cluster.md"
