#!/usr/bin/env bash
# Usage: scripts/table-csv.sh DIR [OUTDIR]
#
# Reads the pattern databases in DIR with `optcube pdb info --dir DIR --json` and writes, into
# OUTDIR (default results/tables):
#   NAME.csv    the depth distribution of table NAME: header `depth,count`, one row per depth
#   summary.md  one row per table: entries, max depth, mean, valid, generator, checksum, and the
#               command that built it; plus the command that produced the files
# Runs `cargo build --release` first and uses $CARGO_TARGET_DIR/release/optcube (default
# target/). Needs python3. Exits 1 if DIR holds no table, 2 if a table is invalid (the files are
# still written, the invalid table marked as such).
# Example: scripts/table-csv.sh pdb results/tables
set -euo pipefail

cd "$(dirname "$0")/.."

if [[ $# -lt 1 || $# -gt 2 || $1 == -h || $1 == --help ]]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
dir="$1"
outdir="${2:-results/tables}"
command -v python3 >/dev/null || { echo "table-csv.sh: python3 is required" >&2; exit 1; }

cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/optcube"

json="$(mktemp)"
trap 'rm -f "$json"' EXIT
status=0
"$bin" pdb info --dir "$dir" --json >"$json" || status=$?
if [[ $status -ne 0 && $status -ne 2 ]]; then
    echo "table-csv.sh: optcube pdb info failed (exit $status)" >&2
    exit 1
fi
if [[ ! -s $json ]]; then
    echo "table-csv.sh: no table files in $dir" >&2
    exit 1
fi
mkdir -p "$outdir"

python3 - "$json" "$dir" "$outdir" "$bin" <<'PY'
import json, os, sys, datetime, subprocess

path, pdb_dir, outdir, binary = sys.argv[1:5]
tables = [json.loads(l) for l in open(path) if l.strip()]
rows = []
for t in tables:
    name = t["name"]
    hist = t.get("histogram") or []
    if hist:
        with open(os.path.join(outdir, f"{name}.csv"), "w") as f:
            f.write("depth,count\n")
            for d, c in enumerate(hist):
                f.write(f"{d},{c}\n")
    gen = t.get("generator") or "bfs"
    mean = t.get("mean")
    rows.append(
        "| {name} | {entries:,} | {maxd} | {mean} | {valid} | {gen} | `{chk}` | `optcube pdb build --set {name} --dir {dir} --method {gen}` |".format(
            name=name,
            entries=t["entries"],
            maxd=len(hist) - 1 if hist else "?",
            mean=f"{mean:.4f}" if mean is not None else "?",
            valid="yes" if t.get("valid") else "NO: " + str(t.get("error")),
            gen=gen,
            chk=t.get("checksum") or "?",
            dir=pdb_dir,
        )
    )
    if hist and sum(hist) != t["entries"]:
        print(f"table-csv.sh: warning: {name}: histogram sums to {sum(hist)}, not {t['entries']}",
              file=sys.stderr)

try:
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
except OSError:
    version = "optcube"
now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
with open(os.path.join(outdir, "summary.md"), "w") as f:
    f.write("# Pattern database tables\n\n")
    f.write(f"Made {now} with `scripts/table-csv.sh {pdb_dir} {outdir}` "
            f"(`{binary} pdb info --dir {pdb_dir} --json`, {version}).\n")
    f.write("Depth distributions: `NAME.csv` (`depth,count`, HTM distance from solved).\n\n")
    f.write("| table | entries | max depth | mean | valid | generator | checksum (xxh3-64) | built with |\n")
    f.write("|---|---:|---:|---:|---|---|---|---|\n")
    f.write("\n".join(rows) + "\n")
for t in tables:
    print(f"{outdir}/{t['name']}.csv")
print(f"{outdir}/summary.md")
PY
exit "$status"
