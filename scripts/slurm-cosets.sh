#!/usr/bin/env bash
#SBATCH --job-name=optcube-cosets
#SBATCH --array=0-9
#SBATCH --cpus-per-task=2
#SBATCH --mem=8G
#SBATCH --time=24:00:00
#SBATCH --output=logs/cosets-%A_%a.out
#
# Example Slurm array job: a study of COUNT random cosets of H = <U,D,R2,L2,F2,B2> (seed SEED)
# split into as many shards as the array has tasks; task K runs the cosets i with i mod N == K
# (`optcube coset --random-cosets COUNT --shard K/N`) into its own file
#   results/cosets-seed{SEED}-s{SEARCH}-d{MAX}-k{SAMPLES}-shard{K}of{N}.jsonl
# (SEARCH as the binary chose it when not given: 15 for MAX 20).
#
# Each coset holds one bitmap of 2.4 GB and the phase-1 masks (a peak of about 3.5 GB), and
# with SAMPLES > 0 the optimal solver's tables (about 2 GB with sym48e6): give each task that
# much memory. Before submitting, once, into a directory every node can read:
#   cargo build --release
#   target/release/optcube pdb build --set sym48e6 --dir /shared/optcube-pdb
#   target/release/optcube coset --max-depth 0 --pdb-dir /shared/optcube-pdb  # two-phase tables
#   mkdir -p logs results
# Submit from the repository root, then summarize once the array has ended:
#   jid=$(sbatch --parsable --export=ALL,OPTCUBE_PDB_DIR=/shared/optcube-pdb,COUNT=10 \
#         scripts/slurm-cosets.sh)
#   sbatch --dependency=afterany:$jid --wrap \
#     "target/release/optcube stats summarize results/cosets-seed1-s15-d20-k40-shard*of10.jsonl"
# Resubmitting the same array (same settings and number of tasks) resumes every shard from
# its file: finished cosets are skipped, a line cut off by a killed task is redone.
#
# Settings (environment, e.g. through sbatch --export): COUNT (default 10), SEED (default 1),
# SEARCH (last depth searched; default the binary's choice), MAX (last depth, default 20),
# SAMPLES (positions drawn from each coset, those beyond SEARCH solved optimally; default 40),
# OPTCUBE_SET (the samples' table set; default optcube's choice), OPTCUBE_PDB_DIR (required),
# OPTCUBE (the binary; default target/release/optcube), OUT_DIR (default results).
# scripts/slurm-study-check.sh --cosets runs this array on a one-node cluster on this machine.
set -euo pipefail

cd "${SLURM_SUBMIT_DIR:-$(dirname "$0")/..}"

# The settings and checks every array task shares (scripts/slurm-tables.sh; Slurm runs a copy
# of this script, so it is found from the submit directory, the repository's root).
lib=scripts/slurm-tables.sh
[[ -r $lib ]] || lib="$(dirname "${BASH_SOURCE[0]}")/slurm-tables.sh"
source "$lib"
need_array_settings slurm-cosets.sh
count="${COUNT:-10}" seed="${SEED:-1}" search="${SEARCH:-}" max="${MAX:-20}"
samples="${SAMPLES:-40}"
set_name="${OPTCUBE_SET:-}"
bin="${OPTCUBE:-target/release/optcube}"
threads="${SLURM_CPUS_PER_TASK:-$(nproc)}"

# The samples' tables must be there already; without samples no optimal solver is opened.
[[ $samples -gt 0 ]] && check_tables slurm-cosets.sh "$bin" "$OPTCUBE_PDB_DIR" "$set_name"

out_dir="${OUT_DIR:-results}"
mkdir -p "$out_dir"
task="$SLURM_ARRAY_TASK_ID" tasks="$SLURM_ARRAY_TASK_COUNT"
echo "slurm-cosets.sh: task $task of $tasks on $(hostname), $threads threads, $(date -Is)" >&2
# --out names the directory: the file takes the study's name with the depths the binary chose.
cmd=("$bin" coset --random-cosets "$count" --seed "$seed" --max-depth "$max" --sample "$samples"
    --pdb-dir "$OPTCUBE_PDB_DIR" --threads "$threads" --shard "$task/$tasks" --out "$out_dir")
[[ -n $search ]] && cmd+=(--search-depth "$search")
[[ -n $set_name ]] && cmd+=(--set "$set_name")
exec "${cmd[@]}"
