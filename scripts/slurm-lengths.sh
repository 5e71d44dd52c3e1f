#!/usr/bin/env bash
#SBATCH --job-name=optcube-lengths
#SBATCH --array=0-99
#SBATCH --cpus-per-task=8
#SBATCH --mem=3G
#SBATCH --time=24:00:00
#SBATCH --output=logs/lengths-%A_%a.out
#
# Example Slurm array job: one optimal-length study of COUNT random positions (seed SEED)
# split into as many shards as the array has tasks; task K solves the positions i with
# i mod N == K (`optcube stats lengths --shard K/N`) into its own file
#   results/lengths-seed{SEED}-shard{K}of{N}.jsonl
#
# Before submitting, once: build optcube and the tables into a directory every node can read
# (the tasks only read them; with the default set, sym48e6 and its fallbacks, each task holds
# about 2 GB of tables, so give each task that much memory plus a little):
#   cargo build --release
#   target/release/optcube pdb build --dir /shared/optcube-pdb
#   mkdir -p logs results
# Submit from the repository root, then summarize once the array has ended:
#   jid=$(sbatch --parsable --export=ALL,OPTCUBE_PDB_DIR=/shared/optcube-pdb,COUNT=1000 \
#         scripts/slurm-lengths.sh)
#   sbatch --dependency=afterany:$jid --wrap \
#     "target/release/optcube stats summarize results/lengths-seed1-shard*of100.jsonl"
# The summary tells how many positions are still missing. Resubmitting the same array (same
# COUNT, SEED and number of tasks) resumes every shard from its file: finished positions are
# skipped, and a line cut off by a killed task is redone. A task that reaches its time limit
# is killed by Slurm; it loses only the position it was solving.
#
# Settings (environment, e.g. through sbatch --export): COUNT (default 1000), SEED (default 1),
# OPTCUBE_SET (default: optcube's own choice, the fastest set whose tables are in the directory,
# said on stderr), OPTCUBE_PDB_DIR (required: the shared table directory), OPTCUBE
# (the binary; default target/release/optcube), MOVES (random MOVES-move scrambles instead of
# random positions: a quick try), OUT_DIR (where the shard files go; default results).
# scripts/slurm-study-check.sh runs this array on a one-node cluster on this machine
# (scripts/slurm-localhost.sh) and checks the merged study against a one-machine run. Without Slurm, for a try on one machine:
#   SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=3 COUNT=30 MOVES=10 OPTCUBE_SET=korf6 \
#     OPTCUBE_PDB_DIR=pdb scripts/slurm-lengths.sh
set -euo pipefail

cd "${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}"

# The settings and checks every array task shares (scripts/slurm-tables.sh; Slurm runs a copy
# of this script, so it is found from the submit directory, the repository's root).
lib=scripts/slurm-tables.sh
[[ -r $lib ]] || lib="$(dirname "${BASH_SOURCE[0]}")/slurm-tables.sh"
source "$lib"
need_array_settings slurm-lengths.sh
count="${COUNT:-1000}"
seed="${SEED:-1}"
set_name="${OPTCUBE_SET:-}"
bin="${OPTCUBE:-target/release/optcube}"
threads="${SLURM_CPUS_PER_TASK:-$(nproc)}"

# The tables must be there already.
check_tables slurm-lengths.sh "$bin" "$OPTCUBE_PDB_DIR" "$set_name"

out_dir="${OUT_DIR:-results}"
mkdir -p "$out_dir"
echo "slurm-lengths.sh: task $SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT on $(hostname)," \
    "$threads threads, $(date -Is)" >&2
cmd=("$bin" stats lengths --count "$count" --seed "$seed"
    --pdb-dir "$OPTCUBE_PDB_DIR" --threads "$threads"
    --shard "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT"
    --out "$out_dir/lengths-seed$seed${MOVES:+-moves$MOVES}-shard${SLURM_ARRAY_TASK_ID}of$SLURM_ARRAY_TASK_COUNT.jsonl")
[[ -n $set_name ]] && cmd+=(--set "$set_name")
[[ -n ${MOVES:-} ]] && cmd+=(--moves "$MOVES")
exec "${cmd[@]}"
