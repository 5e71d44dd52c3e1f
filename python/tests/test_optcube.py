"""Tests of the optcube Python module against the optcube CLI built from the same source.

Fast: the corner table (about 2 s to build), the two-phase and Thistlethwaite tables, all built
once in a temporary directory. The CLI binary is target/release/optcube (built by the Rust
tests: `cargo test --release`), or $OPTCUBE_BIN.
"""

import json
import os
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
    with pytest.raises(ValueError, match="needs every solution"):
        solver.solve_all(position, limit=3, unique="symmetry")
    with pytest.raises(ValueError, match="not 'mirror'|not \"mirror\""):
        solver.solve_all(position, unique="mirror")


def test_twophase_and_thistlethwaite(pdb):
    r = optcube.twophase(SCRAMBLE, pdb_dir=pdb)
    assert r.solver == "twophase" and not r.optimal and r.within_max_length
    assert r.length <= 20 and solves(SCRAMBLE, r.solution)
    assert set(r.to_dict()) == {"input", "solver", "solution", "length", "optimal", "nodes",
                                "seconds", "within_max_length"}
    t = optcube.thistlethwaite(SCRAMBLE, pdb_dir=pdb)
    assert t.solver == "thistlethwaite" and solves(SCRAMBLE, t.solution)
    assert sum(t.phase_lengths) >= t.length
    _, out, _ = cli("solve", SCRAMBLE, "--solver", "thistlethwaite", "--pdb-dir", str(pdb),
                    "--json")
    line = json.loads(out)
    assert t.solution == line["solution"] and t.phase_lengths == line["phase_lengths"]


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
