#!/usr/bin/env python3
"""optcube beside a peer solver on the same positions, one thread, interleaved position by
position (the order of the two alternates), each solve a process of its own on a one-line file.

    scripts/peer-compare.py --set sym48e3 --pdb-dir D --peer "PEERS/w2c/cube48opt3 solve 1 PEERS/tables/cube48opt3.dat" \\
        --positions ../shared/bench/optimal-17.txt --first 5 --rounds 2 [--optcube target/release/optcube]

The peer command gets the one-line position file as its last argument and must print, per
position, `Solution found!: MOVES` and `# wall MS ms: ...` (cube48opt's harness,
`../shared/bench/peers/cube48opt/`). optcube runs as `solve --set SET --pdb-dir D --threads 1
--json --no-upper-bound`. Each solution is checked: the peer's is applied to the position with
`optcube facelets`, and both lengths must be equal. Printed: per position the median over the
rounds of each solver's own search seconds (table loading excluded) and of its process CPU
seconds (loading included), then the means, the ratio optcube/peer of the mean search seconds,
and peak memory. Nothing else should run meanwhile.
"""

import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

SOLVED = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"


def run(cmd):
    """Runs `cmd`; returns (stdout, cpu seconds, peak MiB)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{cmd[0]} exited {os.waitstatus_to_exitcode(status)}")
    return out, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def optcube_solve(args, path):
    cmd = [args.optcube, "solve", "--file", path, "--set", args.set, "--pdb-dir", args.pdb_dir,
           "--threads", "1", "--json", "--no-upper-bound"]
    out, cpu, mib = run(cmd)
    v = json.loads(out.strip().splitlines()[-1])
    if not v["optimal"]:
        sys.exit(f"optcube: not proven optimal: {v}")
    return v["seconds"], cpu, mib, v["length"], v["nodes"]


def peer_solve(args, path, position):
    out, cpu, mib = run(shlex.split(args.peer) + [path])
    sol = re.findall(r"Solution found!:\s*(.*)", out)
    wall = re.findall(r"# wall ([\d.]+) ms", out)
    nodes = re.findall(r"finished in \d+, (\d+)/", out)
    if not sol or not wall:
        sys.exit(f"peer printed no solution or time:\n{out}")
    moves = sol[-1].split()
    check, _, _ = run([args.optcube, "facelets", position + " " + " ".join(moves)])
    if check.strip() != SOLVED:
        sys.exit(f"peer's solution {' '.join(moves)} does not solve {position}")
    return float(wall[-1]) / 1000, cpu, mib, len(moves), int(nodes[-1]) if nodes else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--optcube", default="target/release/optcube")
    ap.add_argument("--set", required=True)
    ap.add_argument("--pdb-dir", required=True)
    ap.add_argument("--peer", required=True, help="the peer's command, without the position file")
    ap.add_argument("--name", default="peer", help="the peer's name in the table")
    ap.add_argument("--positions", required=True, action="append", help="a file; may repeat")
    ap.add_argument("--first", type=int, default=5, help="positions taken from each file (5)")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    positions = []
    for f in args.positions:
        lines = [l.split("#")[0].strip() for l in open(f)]
        positions += [l for l in lines if l][: args.first]
    results = {}  # position -> solver -> list of (search s, cpu s, MiB, length, nodes)
    tmp = tempfile.mkdtemp()
    for r in range(args.rounds):
        for k, p in enumerate(positions):
            path = os.path.join(tmp, "pos.txt")
            with open(path, "w") as f:
                f.write(p + "\n")
            order = ["optcube", args.name] if (r + k) % 2 == 0 else [args.name, "optcube"]
            for who in order:
                t = time.monotonic()
                got = optcube_solve(args, path) if who == "optcube" else peer_solve(args, path, p)
                results.setdefault(p, {}).setdefault(who, []).append(got)
                print(f"round {r + 1} position {k + 1} {who}: {got[0]:.3f} s search, "
                      f"{got[1]:.2f} s cpu, length {got[3]} ({time.monotonic() - t:.1f} s)",
                      file=sys.stderr)
    print(f"| position | length | optcube `{args.set}` s | {args.name} s | ratio | optcube nodes | {args.name} nodes |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    means = {"optcube": [], args.name: []}
    cpus = {"optcube": [], args.name: []}
    peak = {"optcube": 0.0, args.name: 0.0}
    for k, p in enumerate(positions):
        row = {}
        for who in ["optcube", args.name]:
            runs = results[p][who]
            lengths = {x[3] for x in runs}
            row[who] = (statistics.median(x[0] for x in runs), runs[0][4], lengths)
            means[who].append(row[who][0])
            cpus[who].append(statistics.median(x[1] for x in runs))
            peak[who] = max(peak[who], max(x[2] for x in runs))
        lengths = row["optcube"][2] | row[args.name][2]
        if len(lengths) != 1:
            sys.exit(f"lengths differ on {p}: {lengths}")
        a, b = row["optcube"][0], row[args.name][0]
        print(f"| {k + 1} | {lengths.pop()} | {a:.3f} | {b:.3f} | {a / b:.2f} | "
              f"{row['optcube'][1]:,} | {row[args.name][1] or 0:,} |")
    ma, mb = statistics.mean(means["optcube"]), statistics.mean(means[args.name])
    print(f"\nmean search seconds: optcube {ma:.3f}, {args.name} {mb:.3f}, ratio **{ma / mb:.2f}**; "
          f"mean process CPU seconds (table loading included): optcube "
          f"{statistics.mean(cpus['optcube']):.2f}, {args.name} {statistics.mean(cpus[args.name]):.2f}; "
          f"peak RSS: optcube {peak['optcube']:.0f} MiB, {args.name} {peak[args.name]:.0f} MiB "
          f"({args.rounds} rounds, medians per position).")


if __name__ == "__main__":
    main()
