"""Tests of the optcube Python module against the optcube CLI built from the same source.

Fast: the corner table (about 2 s to build), the two-phase and Thistlethwaite tables, all built
once in a temporary directory. The CLI binary is target/release/optcube (built by the Rust
tests: `cargo test --release`), or $OPTCUBE_BIN.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import optcube

REPO = Path(__file__).resolve().parents[2]
SOLVED = "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
SCRAMBLE = "R U2 F' L D B' R2"


def cli_path() -> str:
    path = os.environ.get("OPTCUBE_BIN") or str(REPO / "target" / "release" / "optcube")
    if not os.path.exists(path):
        pytest.fail(f"{path} not found: build the CLI first (cargo build --release)")
    return path


def cli(*args, check=True):
    """Runs the CLI; returns (exit status, stdout, stderr)."""
    p = subprocess.run([cli_path(), *args], capture_output=True, text=True)
    if check and p.returncode != 0:
        raise AssertionError(f"optcube {' '.join(args)} failed: {p.stderr}")
    return p.returncode, p.stdout, p.stderr


def cli_error(*args) -> str:
    """The CLI's error message (without the 'optcube: error: ' prefix) for bad input."""
    status, _, err = cli(*args, check=False)
    assert status != 0
    line = err.strip().splitlines()[-1]
    prefix = "optcube: error: "
    assert line.startswith(prefix), err
    return line[len(prefix):]


@pytest.fixture(scope="session")
def pdb(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("pdb")


@pytest.fixture(scope="session")
def solver(pdb) -> optcube.Solver:
    return optcube.Solver(pdb_dir=pdb, set="corners", threads=2, successors=False)


def solves(position: str, solution: str) -> bool:
    """Does the solution bring the position (a scramble) to solved? Checked with facelets."""
    return optcube.facelets(f"{position} {solution}") == SOLVED


def test_facelets_equal_the_cli():
    for scramble in ["", "R", "R U2 F'", SCRAMBLE]:
        _, out, _ = cli("facelets", scramble)
        assert optcube.facelets(scramble) == out.strip()
    assert optcube.facelets("") == SOLVED


def test_bad_input_raises_the_cli_message(solver):
    with pytest.raises(ValueError) as e:
        optcube.facelets("R U X")
    assert str(e.value) == cli_error("facelets", "R U X")
    bad = SOLVED[:-1] + "U"
    with pytest.raises(ValueError) as e:
        optcube.validate(bad)
    assert str(e.value) == cli_error("facelets", "--check", bad)
    assert not optcube.is_valid(bad)
    assert optcube.is_valid(SOLVED)
    optcube.validate(SOLVED)
    with pytest.raises(ValueError) as e:
        solver.solve(bad)
    assert str(e.value) == cli_error("solve", "--facelets", bad, "--no-upper-bound")
    with pytest.raises(ValueError):
        solver.solve("R Q")
    with pytest.raises(ValueError, match="unknown table set"):
        optcube.Solver(set="nosuchset")
    with pytest.raises(ValueError, match="threads"):
        optcube.Solver(threads=0)
    with pytest.raises(ValueError, match="100000 threads is more than this machine can use"):
        optcube.Solver(threads=100000)


def python_spelling(cli_message: str) -> str:
    """The CLI's message with each option spelled as a Python keyword (`--max-depth` is
    `max_depth`): the only difference the request layer allows between the two fronts."""
    return re.sub(r"--([a-z][a-z-]*)", lambda m: m.group(1).replace("-", "_"), cli_message)


def test_the_cli_and_python_refuse_the_same_requests_in_the_same_words(solver, pdb):
    # One request layer (optcube::solvers::request) checks both fronts. Each bad request goes
    # to the CLI and to Python; the messages must be the same words. Before it, Python ran a
    # coset to depth 21 that the CLI refuses, and worded a dozen refusals its own way.
    d = str(pdb)
    scramble = "R U F' L2 D B"
    cases = [
        (["solve", scramble, "--known-lower-bound", "25", "--no-upper-bound", "--set", "corners"],
         lambda: solver.solve(scramble, known_lower_bound=25)),
        (["solve", "R", "--solver", "twophase", "--timeout=-1"],
         lambda: optcube.twophase("R", timeout=-1, pdb_dir=pdb)),
        (["solve", "R", "--solver", "twophase", "--metric", "stm"],
         lambda: optcube.twophase("R", metric="stm", pdb_dir=pdb)),
        (["solve", "R", "--any-orientation"],
         lambda: optcube.solve_goal("R", any_orientation=True, pdb_dir=pdb)),
        (["solve", "R", "--mask", "XYZ"],
         lambda: optcube.solve_goal("R", mask="XYZ", pdb_dir=pdb)),
        (["solve", "R", "--goal", "cross", "--metric", "atm"],
         lambda: optcube.solve_goal("R", goal="cross", metric="atm", pdb_dir=pdb)),
        (["solve", "R", "--goal", "oll"],
         lambda: optcube.solve_goal("R", goal="oll", pdb_dir=pdb)),
        (["solve", "F", "--moveset", "R U"],
         lambda: solver.solve_in("F", "R U")),
        (["solve", "R", "--moveset", "R X"],
         lambda: solver.solve_in("R", "R X")),
        (["coset", "--max-depth", "3", "--search-depth", "4"],
         lambda: optcube.coset(max_depth=3, search_depth=4, pdb_dir=pdb)),
        (["coset", "--max-depth", "4", "--search-depth", "2", "--settle"],
         lambda: optcube.coset(max_depth=4, search_depth=2, settle=True, pdb_dir=pdb)),
        (["coset", "--max-depth", "21"],
         lambda: optcube.coset(max_depth=21, pdb_dir=pdb)),
        (["coset", "--index", "2217093120", "--max-depth", "3"],
         lambda: optcube.coset(index=2217093120, max_depth=3, pdb_dir=pdb)),
        (["coset", "--index", "-1", "--max-depth", "3"],
         lambda: optcube.coset(index=-1, max_depth=3, pdb_dir=pdb)),
    ]
    for argv, call in cases:
        said = cli_error(*argv, "--pdb-dir", d)
        with pytest.raises(ValueError) as e:
            call()
        assert str(e.value) == python_spelling(said), argv


def test_random_positions_equal_the_cli():
    positions = optcube.random_positions(5, 2026)
    _, out, _ = cli("scramble", "--random", "5", "--seed", "2026")
    assert positions == out.split()
    assert optcube.random_positions(5, 2026) == positions
    assert optcube.random_positions(5, 2027) != positions
    assert all(optcube.is_valid(p) for p in positions)


def test_optimal_solve_equals_the_cli(solver, pdb):
    r = solver.solve(SCRAMBLE)
    assert r.solver == "optimal" and r.optimal and not r.interrupted
    assert solves(SCRAMBLE, r.solution)
    assert r.length == len(r.moves) == len(r.solution.split())
    assert r.lower_bound == r.length
    assert r.iterations[-1]["bound"] == r.length
    _, out, _ = cli("solve", SCRAMBLE, "--set", "corners", "--pdb-dir", str(pdb),
                    "--threads", "2", "--no-upper-bound", "--no-successors", "--json")
    line = json.loads(out)
    mine = r.to_dict()
    assert mine.keys() == line.keys()
    for key in ["input", "solver", "length", "optimal", "lower_bound", "upper_bound"]:
        assert mine[key] == line[key], key
    # The same position as a facelet string gives the same length.
    assert solver.solve(optcube.facelets(SCRAMBLE)).length == r.length


def test_a_known_lower_bound_starts_there_and_a_false_one_is_caught_as_in_the_cli(solver, pdb):
    plain = solver.solve(SCRAMBLE)
    d, own = plain.length, plain.iterations[0]["bound"]
    for known, refuted in [(d, False), (d + 3, True)]:
        r = solver.solve(SCRAMBLE, known_lower_bound=known)
        assert r.optimal and r.length == d and solves(SCRAMBLE, r.solution)
        assert r.known_lower_bound_refuted is refuted
        bounds = [i["bound"] for i in r.iterations]
        if refuted:
            # The two-phase upper bound (at most d + 2 here) refuted the false bound before
            # any iteration at it: no iteration ran above the distance.
            assert max(bounds, default=d) <= d, bounds
        elif r.witnessed:
            # The two-phase upper bound, found first when a bound is given, has the bound's
            # length: with the bound it is the proof, and no iteration runs.
            assert bounds == [], bounds
        else:
            # One ordering iteration three below (the table's bound if higher), then the
            # bound itself: nothing between.
            assert bounds == ([max(d - 3, own), d] if own < d else [d]), bounds
        _, out, _ = cli("solve", SCRAMBLE, "--set", "corners", "--pdb-dir", str(pdb),
                        "--threads", "2", "--no-upper-bound", "--no-successors", "--json",
                        "--known-lower-bound", str(known))
        line = json.loads(out)
        mine = r.to_dict()
        assert mine.keys() == line.keys()
        assert mine["known_lower_bound"] == known
        for key in ["length", "optimal", "lower_bound", "known_lower_bound"]:
            assert mine[key] == line[key], key
        assert line.get("known_lower_bound_refuted", False) is refuted
    # Without it, the key is absent, as in the CLI.
    assert "known_lower_bound" not in solver.solve(SCRAMBLE).to_dict()


def test_a_known_lower_bound_the_search_cannot_check_raises_value_error(solver, pdb):
    # On 2988f2d known_lower_bound=25 came back as a proof: lower_bound=25, not refuted, for a
    # position 6 moves away. Above the metric's diameter or the depth limit it is refused.
    with pytest.raises(ValueError, match="known_lower_bound 25: .*diameter"):
        solver.solve("R U F' L2 D B", known_lower_bound=25)
    shallow = optcube.Solver(pdb_dir=pdb, set="corners", threads=2, successors=False,
                             max_depth=12)
    with pytest.raises(ValueError, match="known_lower_bound 15: .*depth limit 12"):
        shallow.solve("R U F' L2 D B", known_lower_bound=15)
    # A bound above the two-phase upper bound is refuted at once: the answer is the distance.
    r = solver.solve("R U F' L2 D B", known_lower_bound=15)
    assert r.known_lower_bound_refuted and r.optimal and r.length == 6


def test_solve_many(solver):
    positions = ["R U", "F2 D' L", "B"]
    results = solver.solve_many(iter(positions))
    assert [r.input for r in results] == positions
    assert [r.length for r in results] == [2, 3, 1]
    assert all(solves(p, r.solution) for p, r in zip(positions, results))
    with pytest.raises(ValueError, match=r'item 1 \("bad"\): .*"bad"'):
        solver.solve_many(["R", "bad"])
    with pytest.raises(ValueError, match="item 2: not a string"):
        solver.solve_many(["R", "U", 7])


def test_solve_all_equals_the_cli(solver, pdb):
    position = "F2 B2 R2 L2 U2 D2"
    r = solver.solve_all(position)
    assert r.optimal and r.length == 6 and r.optimal_solutions == len(r.solutions) == 6
    assert r.solutions == sorted(set(r.solutions), key=r.solutions.index)  # no repeats
    assert all(solves(position, s) for s in r.solutions)
    assert r.solution == r.solutions[0]
    _, out, _ = cli("solve", position, "--all", "--set", "corners", "--pdb-dir", str(pdb),
                    "--threads", "1", "--no-upper-bound", "--no-successors", "--json")
    line = json.loads(out)
    assert line["solutions"] == r.solutions and line["optimal_solutions"] == 6
    assert r.to_dict()["solutions"] == r.solutions
    two = solver.solve_all(position, limit=2)
    assert len(two.solutions) == 2 and two.optimal_solutions is None
    assert set(two.solutions) <= set(r.solutions)
    one = solver.solve(position)
    assert one.solutions == [one.solution] and one.optimal_solutions is None
    with pytest.raises(ValueError, match="limit must be at least 1"):
        solver.solve_all(position, limit=0)
    assert r.symmetry_classes is None


def test_solve_all_up_to_symmetry_equals_the_cli(solver, pdb):
    position = "F2 B2 R2 L2 U2 D2"  # the checkerboard: six solutions, one class
    r = solver.solve_all(position, unique="symmetry")
    assert r.optimal_solutions == 6 and r.symmetry_classes == len(r.solutions) == 1
    assert solves(position, r.solutions[0])
    _, out, _ = cli("solve", position, "--all", "--unique", "symmetry", "--set", "corners",
                    "--pdb-dir", str(pdb), "--threads", "1", "--no-upper-bound", "--json")
    line = json.loads(out)
    assert line["solutions"] == r.solutions and line["symmetry_classes"] == 1
    assert r.to_dict()["symmetry_classes"] == 1
    with pytest.raises(ValueError, match="needs every optimal solution"):
        solver.solve_all(position, limit=3, unique="symmetry")
    with pytest.raises(ValueError, match="not 'mirror'|not \"mirror\""):
        solver.solve_all(position, unique="mirror")


def test_twophase_and_thistlethwaite(pdb):
    r = optcube.twophase(SCRAMBLE, pdb_dir=pdb)
    assert r.solver == "twophase" and not r.optimal and r.within_max_length
    assert r.length <= 20 and solves(SCRAMBLE, r.solution)
    assert set(r.to_dict()) == {"input", "solver", "solution", "length", "metric", "optimal", "nodes",
                                "seconds", "within_max_length"}
    q = optcube.twophase(SCRAMBLE, pdb_dir=pdb, metric="qtm")
    assert q.metric == "qtm" and solves(SCRAMBLE, q.solution) and q.within_max_length
    half_turns = sum(m.endswith("2") for m in q.solution.split())
    assert q.length == len(q.solution.split()) + half_turns <= 26
    t = optcube.thistlethwaite(SCRAMBLE, pdb_dir=pdb)
    assert t.solver == "thistlethwaite" and solves(SCRAMBLE, t.solution)
    assert sum(t.phase_lengths) >= t.length
    _, out, _ = cli("solve", SCRAMBLE, "--solver", "thistlethwaite", "--pdb-dir", str(pdb),
                    "--json")
    line = json.loads(out)
    assert t.solution == line["solution"] and t.phase_lengths == line["phase_lengths"]


def test_the_two_phase_witness_keeps_lengths_and_claims(pdb, tmp_path):
    # Solver(upper_bound=True), the default, opens the two-phase solver (its tables are written
    # on first use) and asks it for a solution of each bound's length once an iteration took
    # 0.25 s (`search::witness`); upper_bound=False opens nothing and never asks.
    fresh = tmp_path / "fresh"
    shutil.copytree(pdb, fresh, ignore=shutil.ignore_patterns("twophase-*"))
    optcube.Solver(pdb_dir=fresh, set="corners", threads=1, successors=False, upper_bound=False)
    assert not list(fresh.glob("twophase-*"))
    optcube.Solver(pdb_dir=fresh, set="corners", threads=1, successors=False)
    assert len(list(fresh.glob("twophase-*.pdb"))) == 3
    # A 13-mover with the corner table alone: bound 12 takes about 0.5 s on one thread here, so
    # the witness is asked before bound 13 (5 % of that), and its 13 moves end the proof.
    position = "R U2 F' L D B' R2 U F2 L' D B U'"
    on = optcube.Solver(pdb_dir=pdb, set="corners", threads=1, successors=False).solve(position)
    off = optcube.Solver(pdb_dir=pdb, set="corners", threads=2, successors=False,
                         upper_bound=False).solve(position)
    assert on.length == off.length == 13 and on.optimal and off.optimal
    assert solves(position, on.solution) and on.lower_bound == 13
    assert off.witnessed is False and off.iterations[-1]["bound"] == 13
    assert on.witnessed == on.to_dict()["witnessed"]
    if on.witnessed:
        # The last iteration was not run: the bounds below it were complete.
        assert [i["bound"] for i in on.iterations] == list(range(on.iterations[0]["bound"], 13))
    else:
        assert on.iterations[-1]["bound"] == 13
    assert optcube.twophase(position, pdb_dir=pdb).witnessed is None


def test_damaged_table_raises_naming_the_file(pdb, tmp_path):
    optcube.thistlethwaite("R", pdb_dir=pdb)  # the tables exist
    bad = tmp_path / "bad"
    bad.mkdir()
    for f in pdb.glob("thistlethwaite-*.pdb"):
        shutil.copy(f, bad / f.name)
    victim = bad / "thistlethwaite-2-co-eslice.pdb"
    data = bytearray(victim.read_bytes())
    data[-10] ^= 0xFF
    victim.write_bytes(bytes(data))
    with pytest.raises(optcube.TableError) as e:
        optcube.thistlethwaite("R", pdb_dir=bad)
    assert str(victim) in str(e.value)
    assert isinstance(e.value, OSError)
    # pdb_info: the CLI's records, with the damage reported.
    shutil.copy(pdb / "corners.pdb", bad / "corners.pdb")
    info = optcube.pdb_info(bad)
    # Every table file is reported: the pattern databases first, then the solvers' tables.
    names = [i["name"] for i in info]
    assert names[0] == "corners" and info[0]["valid"]
    assert sorted(names[1:]) == sorted(f.stem for f in pdb.glob("thistlethwaite-*.pdb"))
    by_name = {i["name"]: i for i in info}
    assert not by_name[victim.stem]["valid"] and str(victim) in by_name[victim.stem]["error"]
    assert all(i["valid"] for i in info if i["name"] != victim.stem)
    _, out, _ = cli("pdb", "info", "--dir", str(bad), "--json", check=False)
    assert info == [json.loads(line) for line in out.splitlines()]
    data = bytearray((bad / "corners.pdb").read_bytes())
    data[-1] ^= 0x11
    (bad / "corners.pdb").write_bytes(bytes(data))
    info = optcube.pdb_info(bad)
    assert not info[0]["valid"] and str(bad / "corners.pdb") in info[0]["error"]


def test_read_study(pdb, tmp_path):
    out = tmp_path / "study.jsonl"
    cli("stats", "lengths", "--moves", "6", "--count", "3", "--seed", "1", "--set", "corners",
        "--threads", "1", "--pdb-dir", str(pdb), "--out", str(out))
    records = optcube.read_study(out)
    assert [r["index"] for r in records] == [0, 1, 2]
    assert records == [json.loads(line) for line in out.read_text().splitlines()]
    for r in records:
        assert optcube.is_valid(r["input"]) and r["length"] <= 6
    with pytest.raises(ValueError, match="nosuch"):
        optcube.read_study(tmp_path / "nosuch.jsonl")


def test_search_releases_the_gil(pdb):
    # A Python thread keeps running while the search runs (about 3 s: a random position has
    # no solution of 13 moves or fewer, proved with the corner table): the GIL is released.
    solver = optcube.Solver(pdb_dir=pdb, set="corners", threads=2, successors=False,
                            max_depth=13)
    ticks = []
    done = threading.Event()

    def tick():
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=tick)
    t.start()
    start = time.time()
    r = solver.solve(optcube.random_positions(1, 5)[0])
    elapsed = time.time() - start
    done.set()
    t.join()
    assert r.solution is None and r.length is None and not r.optimal
    assert r.lower_bound == 14 and [i["bound"] for i in r.iterations][-1] == 13
    assert elapsed > 0.5 and len(ticks) > 100 * elapsed, (len(ticks), elapsed)


def test_ctrl_c_stops_the_search(pdb):
    # A random position with the corner table alone takes hours: Ctrl-C must stop it cleanly
    # and raise KeyboardInterrupt.
    script = textwrap.dedent(f"""
        import optcube, sys
        s = optcube.Solver(pdb_dir={str(pdb)!r}, set="corners", threads=2, successors=False)
        print("ready", flush=True)
        try:
            s.solve(optcube.random_positions(1, 5)[0])
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        print("finished", flush=True)
    """)
    # A child whose SIGINT is ignored at start (as under a non-interactive shell's `&`) gets
    # no KeyboardInterrupt handler from Python: give it the default disposition.
    p = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert p.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    try:
        status = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        raise AssertionError("the search did not stop within 30 s of Ctrl-C")
    assert p.stdout.read().strip() == "interrupted"
    assert status == 3


def test_solve_in_a_moveset_equals_the_cli(solver, pdb):
    # (R2 U2)^3: two optimal <R,U> solutions, read from the exact table.
    position = "R2 U2 R2 U2 R2 U2"
    r = solver.solve_in(position, "R U", all=True)
    assert r.optimal and r.length == 6 and r.optimal_solutions == 2
    assert r.solutions == ["U2 R2 U2 R2 U2 R2", "R2 U2 R2 U2 R2 U2"]
    assert r.to_dict()["moveset"] == "U R" and r.to_dict()["set"] == "moveset-ru"
    _, out, _ = cli("solve", position, "--moveset", "R U", "--all", "--pdb-dir", str(pdb), "--json")
    assert json.loads(out)["solutions"] == r.solutions
    # A set without an exact table is searched: only R, U and F turns, never shorter than 18-turn optimal.
    scramble = "R U F R' U' F'"
    s = solver.solve_in(scramble, "R U F")
    assert s.optimal and solves(scramble, s.solution)
    assert all(m[0] in "RUF" for m in s.moves)
    assert s.length >= solver.solve(scramble).length
    with pytest.raises(ValueError, match="cannot solve it"):
        solver.solve_in("R U R' U' R' F R2 U' R' U' R U R' F'", "R U")
    with pytest.raises(ValueError, match='"Q"'):
        solver.solve_in("R U", "R Q")


def test_distances():
    # The library's count, checked against the published numbers (Rokicki et al.).
    published = [1, 18, 243, 3240, 43239, 574908]
    for reduce in ("sym-inv", "sym", "none"):
        rows = optcube.distances(5 if reduce != "none" else 4, reduce=reduce, threads=2)
        assert [r["depth"] for r in rows] == list(range(len(rows)))
        assert [r["positions"] for r in rows] == published[: len(rows)]
        assert all(r["matches"] and r["published"] == r["positions"] for r in rows)
        if reduce == "none":
            assert all(r["classes"] == r["positions"] for r in rows)
        else:
            assert rows[5]["classes"] < rows[5]["positions"] // 40
    with pytest.raises(ValueError, match="20 moves"):
        optcube.distances(21)
    with pytest.raises(ValueError, match="published count"):
        optcube.distances(12)
    with pytest.raises(ValueError, match="reduce"):
        optcube.distances(3, reduce="rotations")
    with pytest.raises(MemoryError, match="MB"):
        optcube.distances(11, reduce="none")


def test_run_study_resumes_and_matches_the_cli(solver, pdb, tmp_path):
    # The library's study run: a shard of a scramble study, resumed from its own file, gives
    # the same lengths as the CLI's run of the same study.
    out = tmp_path / "lib.jsonl"
    first = solver.run_study(4, 5, out, moves=6, shard="0/2")
    assert first == {"finished": 2, "total": 2, "interrupted": False, "missing": []}
    # Asking for more goes on from the file: only the new positions are solved.
    more = solver.run_study(8, 5, out, moves=6, shard="0/2")
    assert more["finished"] == 4 and more["missing"] == []
    records = optcube.read_study(out)
    assert [r["index"] for r in records] == [0, 2, 4, 6]
    ref = tmp_path / "cli.jsonl"
    cli("stats", "lengths", "--moves", "6", "--count", "8", "--seed", "5", "--shard", "0/2",
        "--set", "corners", "--threads", "1", "--pdb-dir", str(pdb), "--out", str(ref))
    expected = {r["index"]: r["length"] for r in optcube.read_study(ref)}
    assert {r["index"]: r["length"] for r in records} == expected
    # Another study's file is refused, naming it.
    with pytest.raises(ValueError, match="another study"):
        solver.run_study(4, 6, out, moves=6, shard="0/2")
    with pytest.raises(ValueError, match="shard"):
        solver.run_study(4, 5, out, shard="3")


def test_a_goal_study_matches_the_cli(solver, pdb, tmp_path):
    # A study of distances to a goal: the same records as `stats lengths --goal`, each
    # solution taking its input to the goal.
    out = tmp_path / "cross.jsonl"
    assert solver.run_study(6, 3, out, goal="cross")["finished"] == 6
    records = optcube.read_study(out)
    assert all(r["goal"] == "cross" for r in records)
    ref = tmp_path / "cli.jsonl"
    cli("stats", "lengths", "--goal", "cross", "--count", "6", "--seed", "3",
        "--threads", "1", "--pdb-dir", str(pdb), "--out", str(ref))
    expected = {r["index"]: r["length"] for r in optcube.read_study(ref)}
    assert {r["index"]: r["length"] for r in records} == expected
    for r in records:
        moves = r["solution"].split()
        assert len(moves) == r["length"]
        again = optcube.solve_goal(r["input"], goal="cross", pdb_dir=pdb)
        assert again.length == r["length"]
    with pytest.raises(ValueError, match="starts from a position that meets f2l"):
        solver.run_study(2, 3, tmp_path / "ll.jsonl", goal="ll")
    with pytest.raises(ValueError, match="needs a goal"):
        solver.run_study(2, 3, tmp_path / "x.jsonl", any_orientation=True)


def test_an_empty_position_is_refused_with_the_cli_message(solver, pdb):
    # "" and blanks were read as the solved cube, "solved" optimally in 0 moves: every call
    # taking a position refuses them with the words of `optcube solve ""`.
    calls = {
        "solve": solver.solve,
        "solve_all": solver.solve_all,
        "solve_in exact": lambda p: solver.solve_in(p, "R U"),
        "solve_in search": lambda p: solver.solve_in(p, "R U F"),
        "twophase": lambda p: optcube.twophase(p, pdb_dir=pdb),
        "thistlethwaite": lambda p: optcube.thistlethwaite(p, pdb_dir=pdb),
    }
    for blank in ["", "   ", "\t \n"]:
        message = cli_error("solve", blank)
        assert message.startswith("the scramble is empty: pass its moves")
        for name, call in calls.items():
            with pytest.raises(ValueError) as e:
                call(blank)
            assert str(e.value) == message, name
        with pytest.raises(ValueError) as e:
            solver.solve_many(["R", blank])
        assert str(e.value) == f'item 1 (""): {message}'
    # A scramble of no moves is not a position to solve: its facelets are the solved cube's,
    # as the CLI's `optcube facelets ""` (test_facelets_equal_the_cli).
    assert optcube.facelets("   ") == SOLVED


def test_integer_arguments_out_of_range_raise_value_error_naming_them(solver, pdb, tmp_path):
    # A Rust u8/usize/u64 argument made PyO3 raise a bare OverflowError (not a ValueError) for
    # an int outside it: each names the argument and its range instead.
    out = tmp_path / "study.jsonl"
    big = 2**64
    cases = [
        (lambda: optcube.Solver(pdb_dir=pdb, set="corners", max_depth=1000),
         "max_depth must be between 0 and 255, not 1000"),
        (lambda: optcube.Solver(pdb_dir=pdb, set="corners", max_depth=-1),
         "max_depth must be between 0 and 255, not -1"),
        (lambda: optcube.Solver(pdb_dir=pdb, set="corners", threads=-2),
         r"threads must be between 1 and \d+, not -2"),
        (lambda: optcube.Solver(pdb_dir=pdb, set="corners", threads=10**40),
         rf"threads must be between 1 and \d+, not {10**40}"),
        (lambda: solver.solve("R", known_lower_bound=-1),
         "known_lower_bound must be between 0 and 255, not -1"),
        (lambda: solver.solve("R", known_lower_bound=256),
         "known_lower_bound must be between 0 and 255, not 256"),
        (lambda: solver.solve_all("R", limit=-1), "limit must be at least 1, not -1"),
        (lambda: solver.solve_all("R", limit=0), "limit must be at least 1, not 0"),
        (lambda: solver.run_study(-1, 5, out), "count must be at least 1, not -1"),
        (lambda: solver.run_study(0, 5, out), "count must be at least 1, not 0"),
        (lambda: solver.run_study(2, -5, out), "seed must be at least 0, not -5"),
        (lambda: solver.run_study(2, big, out),
         f"seed must be between 0 and {big - 1}, not {big}"),
        (lambda: solver.run_study(2, 5, out, moves=-6),
         "moves must be between 0 and 4294967295, not -6"),
        (lambda: optcube.random_positions(-1, 5), "n must be at least 0, not -1"),
        (lambda: optcube.random_positions(1, -5), "seed must be at least 0, not -5"),
        (lambda: optcube.distances(1000), "max_depth must be between 0 and 255, not 1000"),
        (lambda: optcube.distances(-1), "max_depth must be between 0 and 255, not -1"),
        (lambda: optcube.distances(3, threads=-1), r"threads must be between 1 and \d+, not -1"),
        (lambda: optcube.twophase("R", max_length=-1, pdb_dir=pdb),
         "max_length must be at least 0, not -1"),
        (lambda: optcube.twophase("R", threads=-1, pdb_dir=pdb),
         r"threads must be between 1 and \d+, not -1"),
    ]
    for call, message in cases:
        with pytest.raises(ValueError, match=f"^{message}$"):
            call()
    assert not out.exists()
    # What is no integer still raises TypeError naming the argument.
    with pytest.raises(TypeError, match="max_depth"):
        optcube.Solver(pdb_dir=pdb, set="corners", max_depth="20")
    # In range, as before: the largest u8 is a depth, the largest u64 a seed.
    deep = optcube.Solver(pdb_dir=pdb, set="corners", threads=1, max_depth=255, successors=False)
    assert deep.solve("R").length == 1
    assert optcube.random_positions(1, big - 1) == optcube.random_positions(1, big - 1)


# A random position: hours with the corner table alone, so only a timeout or a cancel ends it.
SLOW = optcube.random_positions(1, 5)[0]


def timed(solver, call, within):
    """call()'s value and the seconds it took, run in a thread; fails if it takes longer than
    `within` s (that search is then cancelled, so a broken timeout fails rather than hangs)."""
    out = []
    start = time.time()
    t = threading.Thread(target=lambda: out.append(call()), daemon=True)
    t.start()
    t.join(timeout=within)
    elapsed = time.time() - start
    if t.is_alive():
        solver.cancel()
        t.join(timeout=within)
        raise AssertionError(f"the search did not stop within {within} s")
    assert out, "the call raised (see the thread's traceback)"
    return out[0], elapsed


def test_timeout_returns_the_proved_bound(solver):
    for call in (lambda: solver.solve(SLOW, timeout=0.5),
                 lambda: solver.solve_all(SLOW, timeout=0.5)):
        r, elapsed = timed(solver, call, 5)
        assert elapsed >= 0.5
        assert r.interrupted and not r.optimal and r.solution is None
        assert r.lower_bound >= 10 and r.lower_bound == r.iterations[-1]["bound"]
        assert r.to_dict()["interrupted"] is True
    # solve_many: each position's own timeout; the quick ones are solved.
    rs, _ = timed(solver, lambda: solver.solve_many([SLOW, "R U"], timeout=0.3), 5)
    assert rs[0].interrupted and rs[0].solution is None and rs[0].lower_bound >= 10
    assert rs[1].optimal and not rs[1].interrupted and rs[1].length == 2
    # solve_in's search of a move set: 71 s without a timeout (depths 17 and 18); it stops
    # within milliseconds of the deadline, not at the end of its iteration.
    position = "R U F R2 U F' R U2 F R' U F2 R U' F R U F'"
    r, elapsed = timed(solver, lambda: solver.solve_in(position, "R U F", timeout=0.3), 10)
    assert r.interrupted and not r.optimal and r.lower_bound >= 10
    assert elapsed < 3, elapsed
    # A timeout that does not expire changes nothing.
    assert solver.solve(SCRAMBLE, timeout=60).optimal
    for bad in (0, -1.5, float("nan")):
        with pytest.raises(ValueError, match="timeout must be a positive number of seconds"):
            solver.solve("R", timeout=bad)
        with pytest.raises(ValueError, match="timeout must be a positive number of seconds"):
            solver.solve_many(["R"], timeout=bad)


def test_cancel_stops_the_searches_running_in_other_threads(solver):
    # Each has a timeout of 60 s, only so that a broken cancel() fails rather than hangs.
    results = {}
    calls = {
        "solve": lambda: solver.solve(SLOW, timeout=60),
        "solve_all": lambda: solver.solve_all(SLOW, timeout=60),
        "solve_many": lambda: solver.solve_many([SLOW, "R U"], timeout=60),
    }
    threads = [threading.Thread(target=lambda k=k, f=f: results.__setitem__(k, f()), daemon=True)
               for k, f in calls.items()]
    for t in threads:
        t.start()
    time.sleep(0.5)
    start = time.time()
    solver.cancel()
    for t in threads:
        t.join(timeout=2)
    assert not any(t.is_alive() for t in threads), "a search went on after cancel()"
    assert time.time() - start < 2
    for name in ("solve", "solve_all"):
        r = results[name]
        assert r.interrupted and not r.optimal and r.solution is None, name
        assert r.lower_bound >= 8, name
    # A cancel stops the whole solve_many: the positions not yet searched come back at once.
    assert all(r.interrupted and not r.optimal for r in results["solve_many"])
    # It does not poison later calls (nor does one with nothing running).
    assert solver.solve(SCRAMBLE).optimal
    solver.cancel()
    r, _ = timed(solver, lambda: solver.solve(SLOW, timeout=0.3), 5)
    assert r.interrupted and r.lower_bound >= 10
    assert [r.length for r in solver.solve_many(["R U", "F2"])] == [2, 1]


def test_the_quarter_turn_metric_equals_the_cli(pdb):
    qtm = optcube.Solver(pdb_dir=pdb, set="corners", threads=1, successors=False, metric="qtm")
    assert qtm.metric == "qtm" and 'metric="qtm"' in repr(qtm)
    r = qtm.solve("R U2 F' L D")
    assert r.metric == "qtm" and r.length == 6 and r.optimal
    _, out, _ = cli("solve", "R U2 F' L D", "--metric", "qtm", "--set", "corners",
                    "--pdb-dir", str(pdb), "--json", "--no-successors")
    line = json.loads(out)
    assert (line["metric"], line["length"], line["solution"]) == ("qtm", 6, r.solution)
    assert r.to_dict()["metric"] == "qtm"
    everything = qtm.solve_all("F2 B2")
    assert everything.solutions == ["F2 B2"] and everything.length == 4
    # A move set in the quarter-turn metric is searched (the exact table is half-turn).
    assert qtm.solve_in("R2 U R2", "R U").length == 5
    # The slice-turn metric: its own tables (korf6's twins, built on first use); a slice
    # and its inverse cost one move each, as on the command line.
    stm = optcube.Solver(pdb_dir=pdb, set="korf6", metric="stm", upper_bound=False)
    r = stm.solve("R L' U D'")
    assert (r.metric, r.length, r.optimal) == ("stm", 2, True)
    _, out, _ = cli("solve", "R L' U D'", "--metric", "stm", "--set", "korf6",
                    "--pdb-dir", str(pdb), "--json", "--no-successors")
    assert json.loads(out)["length"] == 2
    # What the slice-turn metric does not search yet: the command line's words, in Python.
    with pytest.raises(ValueError) as refused:
        optcube.twophase("R U", pdb_dir=pdb, metric="stm")
    assert "the two-phase solver counts face turns (htm or qtm), not stm" in str(refused.value)
    code, _, err = cli("solve", "R U", "--metric", "stm", "--solver", "twophase",
                       "--pdb-dir", str(pdb), check=False)
    assert code == 2 and str(refused.value) in err
    with pytest.raises(ValueError) as unknown:
        optcube.Solver(pdb_dir=pdb, set="corners", metric="xtm")
    code, _, err = cli("solve", "R U", "--metric", "xtm", check=False)
    assert code == 2 and str(unknown.value) in err


def test_a_quarter_turn_study_equals_the_cli(pdb, tmp_path):
    # A solver in QTM runs the quarter-turn study of a seed: its own file and lengths, as the
    # CLI's `stats lengths --metric qtm`; its file is another study than the half-turn one.
    qtm = optcube.Solver(pdb_dir=pdb, set="corners", threads=1, successors=False, metric="qtm")
    out = tmp_path / "q.jsonl"
    assert qtm.run_study(3, 5, out, moves=5)["finished"] == 3
    records = optcube.read_study(out)
    assert all(r["metric"] == "qtm" for r in records)
    ref = tmp_path / "cli.jsonl"
    cli("stats", "lengths", "--moves", "5", "--count", "3", "--seed", "5", "--metric", "qtm",
        "--set", "corners", "--threads", "1", "--pdb-dir", str(pdb), "--out", str(ref))
    assert [r["length"] for r in records] == [r["length"] for r in optcube.read_study(ref)]
    htm = optcube.Solver(pdb_dir=pdb, set="corners", threads=1, successors=False)
    with pytest.raises(ValueError, match="another study"):
        htm.run_study(3, 5, out, moves=5)


def test_quarter_turn_distances_are_the_published_counts():
    rows = optcube.distances(6, metric="qtm")
    assert [r["positions"] for r in rows] == [1, 12, 114, 1068, 10011, 93840, 878880]
    assert all(r["matches"] and r["published"] == r["positions"] for r in rows)
    with pytest.raises(ValueError, match="no position is more than 26 quarter turns"):
        optcube.distances(27, metric="qtm")


def test_table_sets_are_the_cli_list():
    _, out, _ = cli("pdb", "sets")
    listed = [(line.split(":")[0], line.split(":")[1].split()) for line in out.splitlines()]
    assert optcube.table_sets() == listed
    assert ("korf6", ["corners", "edges6a", "edges6b"]) in listed


def test_goals_match_the_cli(tmp_path):
    """Goals from Python equal the CLI's: the list, a solve with all its optimal solutions, and
    the cross's published distribution."""
    _, out, _ = cli("goals", "--json")
    assert [json.loads(l)["name"] for l in out.splitlines()] == [g["name"] for g in optcube.goals()]
    d = str(tmp_path)
    r = optcube.solve_goal(SCRAMBLE, goal="cross", all=True, pdb_dir=d)
    _, out, _ = cli("solve", SCRAMBLE, "--goal", "cross", "--all", "--json", "--pdb-dir", d)
    v = json.loads(out)
    assert r.length == v["length"] and r.optimal
    assert r.solutions == v["solutions"]
    assert optcube.goal_distances("cross") == [1, 15, 158, 1394, 9809, 46381, 97254, 34966, 102]
    with pytest.raises(ValueError, match="ambiguous"):
        optcube.solve_goal(SCRAMBLE, mask="xxxxUxxxUxxxxRxxxxxxxxFxxxxxxxxDxxxxxxxxLxxxxxxxxBxxxx")
    with pytest.raises(ValueError, match="solved cube"):
        optcube.solve_goal(SCRAMBLE, goal="pll")
    # eo and eo-ud share a table, not an answer: U keeps F/B orientation and breaks U/D's.
    assert optcube.solve_goal("U", goal="eo", pdb_dir=d).length == 0
    assert optcube.solve_goal("U", goal="eo-ud", pdb_dir=d).length == 1
    # A timeout that leaves time is no limit; one that is not a positive number is refused.
    assert optcube.solve_goal(SCRAMBLE, goal="cross", pdb_dir=d, timeout=60).length == v["length"]
    with pytest.raises(ValueError, match="timeout"):
        optcube.solve_goal(SCRAMBLE, goal="cross", pdb_dir=d, timeout=0)


def test_coset_gives_the_cli_counts_and_refuses_bad_arguments(pdb):
    h = optcube.coset(max_depth=4, pdb_dir=pdb, threads=2)
    assert h["coset"] == 0 and h["elements"] == 19508428800
    assert h["depth_counts"][0] == 1 and sum(h["depth_counts"]) == h["found"]
    assert h["unset"] == h["elements"] - h["found"] and not h["complete"]
    _, out, _ = cli("coset", "--max-depth", "4", "--json", "--pdb-dir", str(pdb))
    assert json.loads(out)["depth_counts"] == h["depth_counts"]
    with pytest.raises(ValueError, match="out of range"):
        optcube.coset(index=2217093120, pdb_dir=pdb)
    with pytest.raises(ValueError, match="not both"):
        optcube.coset("R", index=1, pdb_dir=pdb)
    with pytest.raises(ValueError, match="beyond max_depth"):
        optcube.coset(max_depth=3, search_depth=4, pdb_dir=pdb)
    # Settling, as the CLI's --settle: refused past one prepass depth, or with too many left
    # (checked after the walk), or with a set that does not exist (before it).
    with pytest.raises(ValueError, match="settle needs max_depth at most search_depth"):
        optcube.coset(max_depth=4, search_depth=2, settle=True, pdb_dir=pdb)
    with pytest.raises(ValueError, match="more than settle takes"):
        optcube.coset(max_depth=4, settle=True, pdb_dir=pdb, threads=2)
    with pytest.raises(ValueError, match="nonsense"):
        optcube.coset(max_depth=4, settle=True, set="nonsense", pdb_dir=pdb)


def test_coset_estimate_reads_a_study_as_summarize_does(pdb, tmp_path):
    out = tmp_path / "s.jsonl"
    cli("coset", "--random-cosets", "2", "--seed", "3", "--max-depth", "3",
        "--pdb-dir", str(pdb), "--out", str(out))
    e = optcube.coset_estimate([out])
    assert e["cosets"] == 2 and e["unsampled"] == 2
    assert [r["depth"] for r in e["rows"]] == [0, 1, 2, 3]
    assert e["rows"][0]["published"] == 1 and e["rows"][0]["published_exact"]
    # Each coset's count is its own run's: the estimate is the mean scaled by the cosets.
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    mean = sum(r["depth_counts"][3] for r in lines) / 2
    assert e["rows"][3]["estimate"] == mean * 2217093120
    bad = tmp_path / "bad.jsonl"
    bad.write_text(out.read_text().replace('"coset":', '"coset":1', 1))
    with pytest.raises(ValueError, match="coset"):
        optcube.coset_estimate([bad])
