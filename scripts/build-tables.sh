#!/usr/bin/env bash
# Usage: scripts/build-tables.sh [--method bfs|iddfs] [--keep] [SET [DIR [THREADS]]]
#
# Builds every table of SET from scratch, one table at a time and once per thread count, each
# run measured with `/usr/bin/time -v`, then prints a markdown table on stdout:
#   | table | method | threads | wall s | user+sys CPU s | peak RSS MB |
#
#   SET      korf (default), korf6, or table names separated by commas
#            (corners, edges7a, edges7b, edgeperm, edges6a, edges6b)
#   DIR      where to write the tables (default: a new temporary directory, removed at the end
#            unless --keep is given; a DIR you name is kept). Existing tables there are rebuilt
#            (--force).
#   THREADS  space-separated thread counts, default "2 1" (quote it: "4 2 1")
#   --method generator, bfs (default) or iddfs
#   --keep   keep the temporary directory
#
# Runs `cargo build --release` first and uses $CARGO_TARGET_DIR/release/optcube (default
# target/). Build progress goes to stderr; the markdown table goes to stdout, so
#   scripts/build-tables.sh korf /data/pdb "2 1" > results/build-korf.md
# keeps only the table. Memory: the biggest korf table (edges7a/b) needs ~256 MB resident
# plus the generator's working set; the full korf set needs ~800 MB of disk.
# Example (short): scripts/build-tables.sh corners /tmp/pdb-try "2 1"
set -euo pipefail

cd "$(dirname "$0")/.."

method=bfs
keep=0
pos=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --method) method="${2:?--method needs bfs or iddfs}"; shift 2 ;;
        --method=*) method="${1#--method=}"; shift ;;
        --keep) keep=1; shift ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        -*) echo "build-tables.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) pos+=("$1"); shift ;;
    esac
done
set_name="${pos[0]:-korf}"
dir="${pos[1]:-}"
threads_list="${pos[2]:-2 1}"
case "$method" in bfs|iddfs) ;; *) echo "build-tables.sh: --method must be bfs or iddfs" >&2; exit 2 ;; esac

TIME=/usr/bin/time
if [[ ! -x $TIME ]] || ! $TIME -v true >/dev/null 2>&1; then
    echo "build-tables.sh: GNU time ($TIME with -v) is required but missing;" \
        "install it with: apt-get install -y time" >&2
    exit 1
fi

echo "build-tables.sh: cargo build --release" >&2
cargo build --release --quiet
bin="${CARGO_TARGET_DIR:-target}/release/optcube"

# The tables of a set, one at a time, as the binary resolves them (`optcube pdb sets`).
listed="$("$bin" pdb sets --tables "$set_name")" || exit 2
mapfile -t tables <<<"$listed"

tmp_made=0
if [[ -z $dir ]]; then
    dir="$(mktemp -d "${TMPDIR:-/tmp}/optcube-pdb.XXXXXX")"
    tmp_made=1
fi
mkdir -p "$dir"
logs="$(mktemp -d "${TMPDIR:-/tmp}/build-tables-logs.XXXXXX")"
cleanup() {
    rm -rf "$logs"
    if [[ $tmp_made == 1 && $keep == 0 ]]; then rm -rf "$dir"; fi
}
trap cleanup EXIT

# Seconds from GNU time's "h:mm:ss" or "m:ss.ss" wall clock.
to_seconds() {
    awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; printf "%.2f", s }' <<<"$1"
}

rows=()
for t in "${tables[@]}"; do
    for n in $threads_list; do
        tv="$logs/$t-$n.time"
        echo "build-tables.sh: $t, $n thread(s), $method -> $dir" >&2
        if ! $TIME -v -o "$tv" "$bin" pdb build --set "$t" --dir "$dir" --threads "$n" \
            --method "$method" --force; then
            echo "build-tables.sh: building $t with $n thread(s) failed" >&2
            cat "$tv" >&2 || true
            exit 1
        fi
        wall=$(to_seconds "$(sed -n 's/.*Elapsed (wall clock) time.*: //p' "$tv")")
        user=$(sed -n 's/.*User time (seconds): //p' "$tv")
        sys=$(sed -n 's/.*System time (seconds): //p' "$tv")
        rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tv")
        cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
        mb=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
        rows+=("| $t | $method | $n | $wall | $cpu | $mb |")
    done
done

echo
echo "Tables built in \`$dir\` with \`$bin pdb build --set NAME --dir DIR --threads N --method $method --force\`" \
    "($(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(date -u +%Y-%m-%dT%H:%MZ)):"
echo
echo "| table | method | threads | wall s | user+sys CPU s | peak RSS MB |"
echo "|---|---|---:|---:|---:|---:|"
printf '%s\n' "${rows[@]}"
if [[ $tmp_made == 1 && $keep == 0 ]]; then
    echo "build-tables.sh: removed temporary directory $dir (use --keep to keep it)" >&2
fi
