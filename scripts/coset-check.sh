#!/usr/bin/env bash
# Checks the positions a coset run sampled (`optcube coset --sample N --sample-out FILE`) with the
# optimal solver, which shares no code with the coset solver: a position found at an exact depth
# must have that optimal length; one found at a bounded depth d (beyond --search-depth S) a length
# in S+1..d; one not found by the run's last depth D a length above D.
#
# Usage: scripts/coset-check.sh SAMPLES.jsonl S D [optcube solve options, e.g. --set sym48e8 --pdb-dir DIR]
# Prints one line per position and a summary; exits 1 on any disagreement. BIN picks the binary.
set -euo pipefail
samples=$1 search=$2 last=$3
shift 3
bin=${BIN:-target/release/optcube}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 -c 'import json, sys
for line in open(sys.argv[1]):
    print(json.loads(line)["facelets"])' "$samples" >"$dir/positions"
"$bin" solve --file "$dir/positions" --json "$@" >"$dir/solved"
python3 - "$samples" "$dir/solved" "$search" "$last" <<'PY'
import json, sys
samples = [json.loads(l) for l in open(sys.argv[1])]
solved = [json.loads(l) for l in open(sys.argv[2])]
search, last = int(sys.argv[3]), int(sys.argv[4])
assert len(samples) == len(solved), "one answer per position"
bad = 0
for s, r in zip(samples, solved):
    n, d = r["length"], s["depth"]
    if not r["optimal"]:
        ok, why = False, "not proven optimal"
    elif d is None:
        ok, why = n > last, f"not found by depth {last}"
    elif s["exact"]:
        ok, why = n == d, f"exact depth {d}"
    else:
        ok, why = search < n <= d, f"bounded: {search} < length <= {d}"
    bad += not ok
    print(f"{'ok ' if ok else 'BAD'} length {n:2d}  {why}  {s['facelets']}")
print(f"{len(samples) - bad} of {len(samples)} agree")
sys.exit(1 if bad else 0)
PY
