#!/usr/bin/env bash
# Usage: scripts/plots.sh [RESULTS_DIR]
#
# Draws an SVG bar chart beside every CSV distribution in RESULTS_DIR (default results/) with
# `optcube stats plot`:
#   tables/NAME.csv      depth distribution of each pattern database (log y axis)
#   distances.csv        positions at each distance from solved (log y axis)
#   heuristic-*.csv      heuristic value distributions over random positions
#   *-lengths.csv        optimal solution lengths of random positions
# Each FILE.csv gives FILE.svg. Runs `cargo build --release` first and uses
# $CARGO_TARGET_DIR/release/optcube (default target/). Files that are absent are skipped.
set -euo pipefail

cd "$(dirname "$0")/.."

if [[ $# -gt 1 || ${1:-} == -h || ${1:-} == --help ]]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
dir="${1:-results}"

cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/optcube"

plot() { # plot CSV TITLE [--log]
    local csv="$1" title="$2"
    shift 2
    "$bin" stats plot "$csv" --out "${csv%.csv}.svg" --title "$title" "$@"
}

shopt -s nullglob
for f in "$dir"/tables/*.csv; do
    plot "$f" "Table $(basename "$f" .csv): entries per distance (HTM)" --log
done
if [[ -f $dir/distances.csv ]]; then
    plot "$dir/distances.csv" "Positions at each distance from solved (HTM)" --log
fi
for f in "$dir"/heuristic-*.csv; do
    name="$(basename "$f" .csv)"
    plot "$f" "Heuristic values over random positions (${name#heuristic-})"
done
for f in "$dir"/*-lengths.csv; do
    plot "$f" "Optimal solution lengths: $(basename "$f" .csv)"
done
