#!/usr/bin/env python3
"""Paired whole-process timing: the way results/ compares a change with the previous main.

    scripts/paired-time.py [-n RUNS] [--warmup N] [--timeout S] [--vs 'OLD COMMAND'] -- NEW COMMAND...

Runs NEW (A) and, with --vs, OLD (B) in turn, A B A B ..., after warm-up runs that are not
counted, and prints the minimum, median and maximum of each one's wall, user and system seconds
and peak memory, and with --vs the ratios A/B of user, cpu (user + system) and wall seconds taken
pair by pair (pairing keeps the ratio
meaningful when the machine's speed drifts, as it does on shared hosts). The figures come from
the operating system's accounting of each finished child (`os.wait4`), like `/usr/bin/time -v`.
`--vs` takes one string split as a shell splits words; neither command gets a shell. Wall seconds
are read to about 10 ms (the child is polled, so that the time bound can stop it).

Exit status: 0, or 2 when a command cannot be started, or 3 when the time bound cut the runs short
(the finished ones are printed). Quote medians and ratios: one slow or lucky run must not move the figure.
"""

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time


def run(cmd, deadline):
    """One run of `cmd`, its output thrown away: (wall, user, sys, cpu, peak MiB)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            proc.kill()
            os.wait4(proc.pid, 0)
            raise TimeoutError
        time.sleep(0.01)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        print(f"note: {cmd[0]} exited {os.waitstatus_to_exitcode(status)}", file=sys.stderr)
    user, system = usage.ru_utime, usage.ru_stime
    return wall, user, system, user + system, usage.ru_maxrss / 1024


def row(name, values):
    lo, mid, hi = min(values), statistics.median(values), max(values)
    print(f"{name:<14}{lo:>12.4f}{mid:>12.4f}{hi:>12.4f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=5, help="counted runs of each command (5)")
    ap.add_argument("--warmup", type=int, default=1, help="runs not counted, first (1)")
    ap.add_argument("--timeout", type=float, default=100, help="bound on the whole call, s (100)")
    ap.add_argument("--vs", help="the second command (B), one string")
    ap.add_argument("command", nargs="+", help="the command (A), after --")
    args = ap.parse_args()
    if args.n < 1 or args.warmup < 0:
        ap.error("-n must be at least 1 and --warmup at least 0")
    cmds = {"A": args.command}
    if args.vs:
        cmds["B"] = shlex.split(args.vs)
    deadline = time.monotonic() + args.timeout
    figures = {k: [] for k in cmds}
    cut = False
    try:
        for i in range(args.warmup + args.n):
            for k, cmd in cmds.items():
                f = run(cmd, deadline)
                if i >= args.warmup:
                    figures[k].append(f)
    except TimeoutError:
        cut = True
        print("note: the time bound ended the call; the finished runs follow", file=sys.stderr)
    except FileNotFoundError as e:
        print(f"error: cannot start the command: {e}", file=sys.stderr)
        sys.exit(2)
    pairs = min(len(v) for v in figures.values())
    print(f"{'':<14}{'min':>12}{'median':>12}{'max':>12}   runs: {pairs} each; whole process")
    names = ("wall s", "user s", "sys s", "cpu s", "peak MiB")
    for k, runs in figures.items():
        if runs:
            for j, name in enumerate(names):
                row(f"{k} {name}", [r[j] for r in runs])
    if "B" in figures:
        for j, name in ((1, "user"), (3, "cpu"), (0, "wall")):
            ratios = [a[j] / b[j] for a, b in zip(figures["A"], figures["B"]) if b[j] > 0]
            if ratios:
                row(f"A/B {name}", ratios)
    # Exit 3 when the bound cut the call short, so a script can tell.
    sys.exit(3 if cut else 0)

if __name__ == "__main__":
    main()
