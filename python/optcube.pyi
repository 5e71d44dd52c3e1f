"""optcube: provably optimal Rubik's cube solving (half-turn, quarter-turn, slice-turn and axial metrics) with pattern databases.

The same engine as the `optcube` command line: results carry the fields of
`optcube solve --json`, every solution is checked on its position, bad input raises
ValueError with the CLI's message (an empty or blank position too: it is never read as the
solved cube), an integer argument out of range raises ValueError naming the argument and its
range (`max_depth must be between 0 and 255, not 1000`), and a damaged table raises TableError
naming the file.
"""

from os import PathLike
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union, final

__version__: str
__all__ = [
    "__version__",
    "TableError", "Result", "Solver", "twophase", "thistlethwaite", "facelets", "is_valid",
    "validate", "random_positions", "default_pdb_dir", "pdb_info", "read_study", "distances",
    "table_sets", "goals", "solve_goal", "goal_distances", "coset", "coset_estimate",
]

_Path = Union[str, PathLike]

class TableError(OSError):
    """A table file is missing, damaged or stale (the message names the file)."""

@final
class Result:
    """One solver's answer for one position: the fields of `optcube solve --json`."""

    @property
    def input(self) -> str: ...
    @property
    def solver(self) -> str:
        """"optimal", "twophase" or "thistlethwaite"."""
    @property
    def solution(self) -> Optional[str]:
        """The solution in the CLI's notation ("R U2 F'"), or None."""
    @property
    def moves(self) -> Optional[List[str]]: ...
    @property
    def length(self) -> Optional[int]:
        """The solution's length in the result's metric (a half turn counts 2 in "qtm")."""
    @property
    def metric(self) -> str:
        """The metric of length and the bounds: "htm", "qtm", "stm" or "atm"."""
    @property
    def optimal(self) -> bool:
        """True only when a complete search proved that no shorter solution exists."""
    @property
    def nodes(self) -> int: ...
    @property
    def seconds(self) -> float: ...
    @property
    def lower_bound(self) -> Optional[int]:
        """Optimal solver: no solution is shorter than this."""
    @property
    def solutions(self) -> Optional[List[str]]:
        """Optimal solver: the optimal solutions found (sorted; see Solver.solve_all), or
        the one solution as a list of one."""
    @property
    def optimal_solutions(self) -> Optional[int]:
        """Optimal solver: the number of optimal solutions once solve_all found them all."""
    @property
    def symmetry_classes(self) -> Optional[int]:
        """Optimal solver: with solve_all(..., unique="symmetry"), the number of classes of
        optimal solutions under the position's symmetries (solutions holds the least of each)."""
    @property
    def interrupted(self) -> bool:
        """Optimal solver: the search was stopped before its end (a timeout, Solver.cancel());
        optimal is then False and lower_bound is the bound the search proved."""
    @property
    def known_lower_bound_refuted(self) -> Optional[bool]:
        """Optimal solver: the known_lower_bound given to Solver.solve was false (the answer
        is still optimal: the search began again from the tables' bound)."""
    @property
    def witnessed(self) -> Optional[bool]:
        """Optimal solver: a two-phase solution of the proved lower bound's length ended the
        proof, so its last iteration was not run (Solver(upper_bound=True), the default); the
        same length and the same claim either way."""
    @property
    def iterations(self) -> Optional[List[Dict[str, Any]]]:
        """Optimal solver: one dict per IDA* iteration (bound, nodes, seconds)."""
    @property
    def within_max_length(self) -> Optional[bool]:
        """Two-phase solver: a solution of at most max_length moves was found."""
    @property
    def phase_lengths(self) -> Optional[List[int]]:
        """Thistlethwaite solver: each phase's length before moves were merged."""
    def to_dict(self) -> Dict[str, Any]:
        """Exactly the keys and values of the CLI's JSON line."""

@final
class Solver:
    """The optimal solver (IDA* with pattern databases), its tables loaded once.

    Missing tables are built first (progress on stderr) and saved in pdb_dir
    (default: $OPTCUBE_PDB_DIR or pdb/). set: a name of table_sets() (`optcube pdb sets`), or
    table names separated by commas; by default the fastest set whose tables are in pdb_dir,
    else the fastest that a first use may build whose build fits in the memory
    available (built now), as the CLI's solve. A damaged table file raises TableError (it is
    never rebuilt behind your back: delete it, or run optcube pdb build). max_depth is 0..255
    (ValueError otherwise; None: God's number of the metric, 20 or 26), threads 1 to four a
    core (or 64). metric="qtm" counts quarter turns (a half turn 2), searched with the set's
    quarter-turn tables (NAME-qtm, built on first use) and its half-turn ones where it has
    none; lengths, bounds and max_depth are then in quarter turns, and solutions still write
    a half turn as X2. metric="stm" (slice turns, up to whole-cube rotation) and "atm" (axial
    moves) read the set's NAME-stm and NAME-atm tables only (korf6 and sym48e6 have them;
    ValueError for a set without) and count R L' as one move; goals, studies and
    solve_in's exact tables count face turns only (ValueError).

    upper_bound=True (the default, as the CLI's solve): before each IDA* iteration (in quarter
    turns, only after an iteration of 30 s or more) the two-phase solver (its tables in pdb_dir,
    about 64 MB, built on first use; in quarter turns checked when the Solver is made and
    loaded at the first try) is given a share of the previous iteration's time to find
    a solution of the bound's length;
    a checked one ends the proof without the last iteration (Result.witnessed). Lengths and
    claims are the same; upper_bound=False searches every iteration, as --no-upper-bound.

    Searches stop early three ways: Ctrl-C raises KeyboardInterrupt; timeout= (seconds, > 0)
    and cancel() (from another thread) return the Result with interrupted=True, optimal=False
    and the lower_bound the search proved, as the CLI's Ctrl-C does.
    """

    def __new__(
        cls,
        pdb_dir: Optional[_Path] = None,
        set: Optional[str] = None,
        threads: Optional[int] = None,
        dual: bool = False,
        sym: bool = False,
        max_depth: Optional[int] = None,
        successors: bool = True,
        metric: str = "htm",
        upper_bound: bool = True,
    ) -> "Solver": ...
    def solve(
        self,
        position: str,
        timeout: Optional[float] = None,
        known_lower_bound: Optional[int] = None,
    ) -> Result:
        """Solve a scramble or a 54-character facelet string optimally (an empty or blank one
        raises ValueError).

        timeout (seconds, > 0) stops the search and returns its Result, interrupted, with the
        bound it proved. Ctrl-C stops the search cleanly and raises KeyboardInterrupt.
        known_lower_bound=N (0-255), as the CLI's --known-lower-bound N: a bound known by other
        means (the positions of `optcube coset --unset`), where the search starts. A false one
        is caught when an ordering iteration below it solves the position, or at once when the
        two-phase upper bound is shorter: the search begins again and
        Result.known_lower_bound_refuted is True. One above max_depth or the metric's diameter
        raises ValueError: the search could not check it."""
    def solve_all(
        self,
        position: str,
        limit: Optional[int] = None,
        unique: Optional[str] = None,
        timeout: Optional[float] = None,
    ) -> Result:
        """Solve optimally and collect the optimal solutions: all of them, or the first
        `limit` in the search's order (the same on any number of threads). Canonical
        sequences (`U D`, never `D U`), sorted, each checked on the position.
        unique="symmetry" keeps the least solution of each class under the position's own
        symmetries (symmetry_classes gives their number; needs limit=None). timeout as for
        solve (the Result then holds no solutions)."""
    def solve_in(
        self, position: str, moveset: str, all: bool = False, timeout: Optional[float] = None
    ) -> Result:
        """Solve with the turns of moveset only ("R U", "U D R L F2 B2"), optimally among the
        sequences they make (as the CLI's solve --moveset). Two adjacent faces read the exact
        <R,U> table (built in pdb_dir on first use); other sets are searched with this
        solver's tables.  all=True collects every optimal solution. A position
        the set cannot reach raises ValueError. timeout (or cancel()) stops that search (it
        notices at the end of its current iteration); a lookup in the exact table is not
        stopped (it takes milliseconds)."""
    def run_study(
        self,
        count: int,
        seed: int,
        out: _Path,
        shard: Optional[str] = None,
        moves: Optional[int] = None,
        count_solutions: bool = False,
        goal: Optional[str] = None,
        any_orientation: bool = False,
    ) -> Dict[str, Any]:
        """Run or resume the optimal-length study of seed's first count positions into the
        JSON-lines file out (as `optcube stats lengths`): finished positions are skipped, each
        new one appended; Ctrl-C or cancel() stops cleanly (interrupted in the dict).
        shard="K/N", moves=L (scramble studies). Lengths are in the solver's metric.
        goal="cross": distances to that named goal (any_orientation: in any orientation).
        Returns finished, total, interrupted, missing; the records are read_study(out)."""
    def solve_many(
        self, positions: Iterable[str], timeout: Optional[float] = None
    ) -> List[Result]:
        """Solve each position in order; bad input raises before any search. timeout is each
        position's own; a cancel() stops the whole call (the positions not yet searched come
        back interrupted at once)."""
    def cancel(self) -> None:
        """Stop every search of this Solver running now (callable from any thread): each call
        returns its Result with interrupted=True. Searches begun after are not affected."""
    @property
    def pdb_dir(self) -> str: ...
    @property
    def set(self) -> str: ...
    @property
    def threads(self) -> int: ...
    @property
    def dual(self) -> bool: ...
    @property
    def metric(self) -> str:
        """The metric lengths are counted in: "htm", "qtm", "stm" or "atm"."""
    def tables(self) -> List[Tuple[str, int]]:
        """The tables in lookup order: (name, entries)."""

def twophase(
    position: str,
    max_length: Optional[int] = None,
    timeout: float = 10.0,
    pdb_dir: Optional[_Path] = None,
    threads: Optional[int] = None,
    metric: str = "htm",
) -> Result:
    """Kociemba's two-phase solver: the first solution of at most max_length in the metric
    ("htm" or "qtm"; default its diameter, 20 or 26), or the shortest found within timeout
    seconds (> 0; float("inf"): no limit)."""

def thistlethwaite(position: str, pdb_dir: Optional[_Path] = None) -> Result:
    """Thistlethwaite's four-phase solver."""

def facelets(scramble: str) -> str:
    """The 54-character facelet string of a scramble ("" is the solved cube's, as the CLI's)."""

def is_valid(facelets: str) -> bool:
    """Is this facelet string a valid, reachable position?"""

def validate(facelets: str) -> None:
    """Raise ValueError with the CLI's reason if the facelet string is not a valid position."""

def random_positions(n: int, seed: int) -> List[str]:
    """n uniformly random positions (facelet strings), as `optcube scramble --random N --seed S`."""

def default_pdb_dir() -> str:
    """$OPTCUBE_PDB_DIR or pdb/."""

def pdb_info(pdb_dir: Optional[_Path] = None) -> List[Dict[str, Any]]:
    """One dict per table file, as `optcube pdb info --json`."""

def read_study(path: _Path) -> List[Dict[str, Any]]:
    """The finished records of a length study's JSON-lines file."""

def table_sets() -> List[Tuple[str, List[str]]]:
    """The table sets by name, each with its tables in lookup order (as `optcube pdb sets`)."""

def distances(
    max_depth: int,
    reduce: str = "sym-inv",
    threads: Optional[int] = None,
    metric: str = "htm",
) -> List[Dict[str, Any]]:
    """Positions at each exact distance from solved, as `optcube stats distances`: one dict a
    depth (depth, positions, classes, published, matches), in metric "htm", "qtm", "stm"
    (slice turns, up to whole-cube rotation) or "atm" (axial). Solver takes all four;
    twophase and goals take "htm" or "qtm".
    MemoryError before any work when the search does not fit."""

def goals() -> List[Dict[str, Any]]:
    """The named goals of solve_goal, one dict each (name, key, mask, about, requires), as
    `optcube goals --json`."""

def solve_goal(
    position: str,
    goal: Optional[str] = None,
    mask: Optional[str] = None,
    any_orientation: bool = False,
    metric: str = "htm",
    moveset: Optional[str] = None,
    all: bool = False,
    pdb_dir: Optional[_Path] = None,
    timeout: Optional[float] = None,
) -> Result:
    """The fewest moves after which position meets a goal (goal="cross", or a facelet mask
    with x for free stickers), as `optcube solve --goal/--mask`; any_orientation accepts it in
    any of the 24 orientations; all=True lists every optimal solution. Tables are built in
    pdb_dir on first use. ValueError for a bad goal or mask, and for ll/pll (the solved cube:
    use Solver). timeout (seconds) stops the search: the Result is then interrupted, with the
    bound it proved."""

def coset(
    position: Optional[str] = None,
    index: Optional[int] = None,
    max_depth: Optional[int] = None,
    search_depth: Optional[int] = None,
    settle: bool = False,
    set: Optional[str] = None,
    pdb_dir: Optional[_Path] = None,
    threads: Optional[int] = None,
) -> Dict[str, Any]:
    """Every position of a coset of <U, D, R2, L2, F2, B2> counted by distance, as `optcube
    coset --json` (keys coset, representative, elements, depth_counts, bounded_counts, found,
    complete, unset, closed, seconds, peak_bitmap_bytes, interrupted, settled, timeline,
    threads, and settle_seconds when it settled). With neither depth given, every distance, as the CLI's
    default run: the walk ends at the first depth that leaves at most 10,000 positions and
    the optimal solver settles those (table set `set`, chosen as the CLI chooses when None;
    on H about 44 minutes on 2 cores and 7.3 GB). settle=True settles after a run with
    depths (max_depth at most search_depth + 1, at most 10,000,000 positions left), else
    ValueError. Ctrl-C stops the run at the next part of its phase-1 walk, the next depth or
    the settling search's next iteration, and raises KeyboardInterrupt."""

def coset_estimate(files: List[_Path]) -> Dict[str, Any]:
    """The whole cube's distance distribution estimated from a coset study's files (`optcube
    coset --random-cosets`), as `optcube stats summarize` makes it: keys cosets, tail_samples,
    unsampled and rows (depth, estimate, low, high, upper_bound, cosets_seen, exact, published,
    published_exact). ValueError for a damaged file or files of two studies."""

def goal_distances(goal: str, metric: str = "htm") -> List[int]:
    """A goal's states by their exact distance to it (counts at 0, 1, ...), as `optcube stats
    distances --goal`."""
