//! How a move sequence is measured: the half-turn metric (HTM: every face turn costs 1), the
//! quarter-turn metric (QTM: a quarter turn costs 1, a half turn 2), the slice-turn metric
//! (STM: a face turn or a middle-slice turn costs 1) and the axial metric (ATM: any turns of
//! two opposite faces at once cost 1). One value names the metric everywhere a length or a
//! distance is asked for; what differs between metrics is declared once, as data, in
//! [`Declaration`] ([`Metric::declaration`]), and everything else is derived from it.
//!
//! - **Moves and costs.** Every metric's move turns the two faces of one axis by `(i, j)`
//!   quarter turns (the lower face in U R F order, then its opposite; the two commute). A
//!   metric declares which of the fifteen `(i, j) ≠ (0, 0)` cost 1 ([`Declaration::axis_moves`]);
//!   the cost of any `(i, j)` is the fewest of them that make it ([`Metric::axis_cost`]), so a
//!   face turn's cost follows ([`Metric::cost`]): in QTM a half turn is two quarter turns, written
//!   `X2` in output and counted 2.
//! - **Slices.** A middle-slice turn moves the centres. Positions are taken up to a whole-cube
//!   rotation, as the published slice-turn counts are (Rokicki, forum.cubeman.org): `M` is
//!   `R L'` followed by a rotation, so up to rotation it is the axis move `(1, 3)` (and `M2`,
//!   `M'` are `(2, 2)`, `(3, 1)`). Because every metric's moves are closed under the whole-cube
//!   rotations, a rotation met on the way only renames the later moves, and a position's
//!   distance with its centres held fixed is its distance up to rotation.
//! - **Canonical sequences.** A search enumerates each position-reaching sequence once by
//!   grouping the turns of one axis between turns of other axes into a *syllable* (the lower
//!   face's rotation, then the opposite face's: they commute), two syllables in a row never on
//!   one axis. In HTM that is the familiar rule (never one face twice in a row, `U D` and never
//!   `D U`); in QTM a face's half turn is its two quarter turns `X X`, so `X X'` and `X X X`
//!   never occur, and opposite faces keep one order.
//! - **Parity.** Every quarter turn is an odd permutation of the corners, so a position's QTM
//!   distance has the parity of its corner permutation ([`Metric::parity`]). A lower bound in
//!   QTM can then be raised to that parity ([`Metric::raise`]), and an IDA* bound steps by 2.
//!   The other metrics have moves of both parities and fix none.
//!
//! A half-turn distance is never more than the quarter-turn distance (each QTM move is an HTM
//! move, each half turn one HTM move for two QTM), so tables of HTM distances are admissible in
//! QTM too, raised to the parity. STM and ATM distances are at most the HTM distance (a face
//! turn is one move in both), which bounds them by 20; their moves of two faces make HTM tables
//! inadmissible for them ([`Metric::bounded_by_htm`]), so they read tables of their own, built
//! over [`Metric::moves`], and are searched over syllables, each axis's turns priced as one
//! axis move (`search::subset`). The two-phase and Thistlethwaite solvers, goals and length
//! studies count face turns only so far ([`Metric::face_turns_only`]).

use super::{Cube, Move};

const HTM_MOVES: [Move; 18] = {
    let mut out = [Move::from_index(0); 18];
    let mut i = 0;
    while i < 18 {
        out[i] = Move::from_index(i);
        i += 1;
    }
    out
};

/// The quarter turns: each face's `X` and `X'` (indices `3f` and `3f + 2`).
const QTM_MOVES: [Move; 12] = {
    let mut out = [Move::from_index(0); 12];
    let mut f = 0;
    while f < 6 {
        out[2 * f] = Move::from_index(3 * f);
        out[2 * f + 1] = Move::from_index(3 * f + 2);
        f += 1;
    }
    out
};

/// One metric, declared as data: everything the rest of the program asks of a metric is read
/// from here or derived from it.
#[derive(Debug)]
pub struct Declaration {
    /// The name on the command line, in JSON and in tables' headers.
    pub name: &'static str,
    /// What a table's name adds for its twin in this metric (`sym48e6-qtm`); nothing for HTM,
    /// whose tables' names came first.
    pub table_suffix: &'static str,
    /// The unit of a length in text output, for several and for one.
    pub unit: &'static str,
    pub unit_one: &'static str,
    /// The largest distance of any position where it is known, else a proven upper bound.
    pub diameter: u8,
    /// Whether [`Declaration::diameter`] is the exact diameter.
    pub diameter_exact: bool,
    /// The source of the diameter or of the bound, for docs and messages.
    pub diameter_source: &'static str,
    /// The axis moves of unit cost: `(i, j)`, the lower face's quarter turns (U, R, F) then
    /// the opposite face's (D, L, B), each 0..=3.
    pub axis_moves: &'static [(u8, u8)],
    /// Whether every distance has the parity of the corner permutation (each move odd on the
    /// corners or of cost 2).
    pub corner_parity: bool,
    /// How deep the coset tables `sym48e1`–`e9` of this metric are exact
    /// (`crate::pdb::sym48ek`): their build lists the `H11` coset classes to two less, and that
    /// layer must fit in memory. The layers grow by about 13 a move in HTM, 9 in QTM, 16 in
    /// STM and 25 in ATM (measured to depth 6), so HTM lists 9 layers (79 M classes), QTM 10,
    /// STM 8 and ATM 7 (about 40 M each).
    pub coset_exact_depth: u8,
    /// The two-phase solver's part in an optimal proof (`crate::search::witness`):
    /// `Some(seconds)`: it is asked for a witness before an iteration once the previous one
    /// took this long; `None`: never (the search over whole axis moves takes none).
    pub witness_after: Option<f64>,
    /// Whether a proof starts with the two-phase solver's upper bound (printed, and the
    /// witness at hand). Only where that solver comes within a move or two of the optimum.
    pub upper_bound_first: bool,
    /// With a known lower bound, how far below it the iteration that orders the first one's
    /// work units runs (`crate::search::ida`): cheap, and its node counts still order well.
    pub known_bound_gap: u8,
    /// Published numbers of positions at each exact distance 0, 1, …, and where from.
    pub published: &'static [u64],
    pub published_source: &'static str,
    /// The published distribution of optimal lengths of uniformly random positions, as bins
    /// `(first length, last length, fraction)` (`crate::stats::study::compare`), and where
    /// from; empty where no study compares with one.
    pub random_lengths: &'static [(u32, u32, f64)],
    pub random_lengths_source: &'static str,
}

/// The half-turn metric's axis moves: one face's quarter, half or three-quarter turn.
const FACE_TURNS: [(u8, u8); 6] = [(1, 0), (2, 0), (3, 0), (0, 1), (0, 2), (0, 3)];

/// The slice-turn metric's: the face turns, and the middle slice's turns up to rotation (`R L'`,
/// `R2 L2`, `R' L`).
const STM_MOVES: [(u8, u8); 9] = {
    let mut out = [(0, 0); 9];
    let mut k = 0;
    while k < 6 {
        out[k] = FACE_TURNS[k];
        k += 1;
    }
    while k < 9 {
        let i = (k - 5) as u8;
        out[k] = (i, 4 - i);
        k += 1;
    }
    out
};

/// The axial metric's: every turn of one or both faces, `(i, j) ≠ (0, 0)`.
const AXIAL_MOVES: [(u8, u8); 15] = {
    let mut out = [(0, 0); 15];
    let mut k = 1;
    while k < 16 {
        out[k - 1] = ((k / 4) as u8, (k % 4) as u8);
        k += 1;
    }
    out
};

const DECLARATIONS: [Declaration; 4] = [
    Declaration {
        name: "htm",
        table_suffix: "",
        unit: "moves",
        unit_one: "move",
        diameter: 20,
        diameter_exact: true,
        diameter_source: "Rokicki, Kociemba, Davidson, Dethridge 2010, cube20.org",
        axis_moves: &FACE_TURNS,
        corner_parity: false,
        coset_exact_depth: 11,
        // A witness can only succeed at the bound that is the distance: after a short
        // iteration the next is too short for a success to repay the tries before it.
        // Three below a known bound costs about 1/2,000 of its iteration, measured best of
        // two to five below (`results/coset.md`).
        witness_after: Some(0.25),
        upper_bound_first: true,
        known_bound_gap: 3,
        // Rokicki, Kociemba, Davidson, Dethridge, "The diameter of the Rubik's Cube group is
        // twenty", SIAM J. Discrete Math. 27 (2013); table at cube20.org; OEIS A080601.
        published: &[
            1,
            18,
            243,
            3240,
            43239,
            574908,
            7618438,
            100803036,
            1332343288,
            17596479795,
            232248063316,
        ],
        published_source: "Rokicki, Kociemba, Davidson, Dethridge, *The diameter of the Rubik's \
             Cube group is twenty* (2013), cube20.org, OEIS A080601",
        // Rokicki's 3,000,000 random positions solved optimally (cube20.org): lengths 12–14
        // together, then 15 to 19. Lengths 20 and up (superflip-like, about 1 in 10^10) are
        // taken as 0.
        random_lengths: &[
            (0, 14, 0.000171),
            (15, 15, 0.002116),
            (16, 16, 0.026614),
            (17, 17, 0.267214),
            (18, 18, 0.670493),
            (19, 30, 0.033392),
        ],
        random_lengths_source: "Published: Rokicki, 3,000,000 uniformly random positions solved \
             optimally (cube20.org)",
    },
    Declaration {
        name: "qtm",
        table_suffix: "-qtm",
        unit: "quarter turns",
        unit_one: "quarter turn",
        diameter: 26,
        diameter_exact: true,
        diameter_source: "Rokicki, Davidson 2014, cube20.org",
        axis_moves: &[(1, 0), (3, 0), (0, 1), (0, 3)],
        corner_parity: true,
        coset_exact_depth: 12,
        // The two-phase solver stays 2–4 quarter turns above the optimum on random positions
        // (`results/solve-qtm.md`): no upper bound first, and witnesses only after iterations
        // long enough for one success to repay many failures (a 26q antipode's last iteration
        // takes hours, the two-phase solver finds 26q there in seconds). One below a known
        // bound costs about 1/85 of its iteration.
        witness_after: Some(30.0),
        upper_bound_first: false,
        known_bound_gap: 2,
        // OEIS A080602; Rokicki's exact counts through 18q, cube20.org.
        published: &[
            1,
            12,
            114,
            1068,
            10011,
            93840,
            878880,
            8221632,
            76843595,
            717789576,
            6701836858,
            62549615248,
            583570100997,
        ],
        published_source: "OEIS A080602 (Rokicki's exact counts, cube20.org)",
        // Rokicki, "Three Million Positions in Four Metrics", 2018, forum.cubeman.org node
        // 563: of 3,000,000 random positions 5, 34, 323, 2,798 at 14–17q, then 25,377,
        // 206,335, 993,235, 1,289,020, 481,228 and 1,645 at 18–23q (mean 20.663): lengths up
        // to 17 together, then 18 to 22, then 23 and more.
        random_lengths: &[
            (0, 17, 3_160.0 / 3e6),
            (18, 18, 25_377.0 / 3e6),
            (19, 19, 206_335.0 / 3e6),
            (20, 20, 993_235.0 / 3e6),
            (21, 21, 1_289_020.0 / 3e6),
            (22, 22, 481_228.0 / 3e6),
            (23, 30, 1_645.0 / 3e6),
        ],
        random_lengths_source: "Published: Rokicki, 3,000,000 uniformly random positions solved \
             optimally in quarter turns (\"Three Million Positions in Four Metrics\", 2018; mean \
             20.663)",
    },
    Declaration {
        name: "stm",
        table_suffix: "-stm",
        unit: "slice-turn moves",
        unit_one: "slice-turn move",
        diameter: 20,
        diameter_exact: false,
        diameter_source: "at most the half-turn diameter, 20: a face turn is one slice-turn move",
        axis_moves: &STM_MOVES,
        corner_parity: false,
        coset_exact_depth: 10,
        // The search over whole axis moves (`search::subset`) asks for no witness.
        witness_after: None,
        upper_bound_first: false,
        known_bound_gap: 3,
        // Up to whole-cube rotation; Rokicki's counts at forum.cubeman.org, as issue 107 cites.
        published: &[
            1,
            27,
            501,
            9175,
            164900,
            2912447,
            50839041,
            879457304,
            15103187300,
            257676327458,
        ],
        published_source: "Rokicki, forum.cubeman.org (positions up to whole-cube rotation)",
        random_lengths: &[],
        random_lengths_source: "",
    },
    Declaration {
        name: "atm",
        table_suffix: "-atm",
        unit: "axial moves",
        unit_one: "axial move",
        diameter: 20,
        diameter_exact: false,
        diameter_source: "at most the half-turn diameter, 20: a face turn is one axial move",
        axis_moves: &AXIAL_MOVES,
        corner_parity: false,
        coset_exact_depth: 9,
        // The search over whole axis moves (`search::subset`) asks for no witness.
        witness_after: None,
        upper_bound_first: false,
        known_bound_gap: 3,
        published: &[],
        published_source: "",
        random_lengths: &[],
        random_lengths_source: "",
    },
];

/// The cost of every axis move `(i, j)` in each metric: the fewest unit axis moves that make
/// it (a breadth-first search over Z4 × Z4 from the declaration's moves).
const AXIS_COSTS: [[[u8; 4]; 4]; 4] = {
    let mut out = [[[u8::MAX; 4]; 4]; 4];
    let mut m = 0;
    while m < 4 {
        let moves = DECLARATIONS[m].axis_moves;
        let cost = &mut out[m];
        cost[0][0] = 0;
        let mut d = 0;
        while d < 16 {
            let mut i = 0;
            while i < 16 {
                if cost[i / 4][i % 4] == d {
                    let mut k = 0;
                    while k < moves.len() {
                        let (a, b) = (
                            (i / 4 + moves[k].0 as usize) % 4,
                            (i % 4 + moves[k].1 as usize) % 4,
                        );
                        if cost[a][b] == u8::MAX {
                            cost[a][b] = d + 1;
                        }
                        k += 1;
                    }
                }
                i += 1;
            }
            d += 1;
        }
        m += 1;
    }
    out
};

/// One move of an axis: its lower face (U, R, F) turned by `i` quarter turns and its opposite
/// face (D, L, B) by `j`, both 0..=3 and not both 0. Every metric's moves are such moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AxisMove {
    /// 0, 1, 2: the U–D, R–L and F–B axes.
    pub axis: u8,
    pub i: u8,
    pub j: u8,
}

impl AxisMove {
    /// The face turn `m` as an axis move.
    pub fn of(m: Move) -> AxisMove {
        let face = m.face() as u8;
        let q = m.quarter_turns();
        match face < 3 {
            true => AxisMove {
                axis: face,
                i: q,
                j: 0,
            },
            false => AxisMove {
                axis: face - 3,
                i: 0,
                j: q,
            },
        }
    }

    /// Its face turns: the lower face's, then the opposite face's (one or two; they commute).
    pub fn turns(self) -> impl Iterator<Item = Move> {
        let turn = |face: u8, q: u8| {
            (q != 0).then(|| Move::from_index(3 * face as usize + q as usize - 1))
        };
        turn(self.axis, self.i)
            .into_iter()
            .chain(turn(self.axis + 3, self.j))
    }
}

/// A way to count moves. (In JSON and table headers: its [`Metric::name`].)
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Metric {
    /// The half-turn (face-turn) metric: `X`, `X2`, `X'` each cost 1.
    #[default]
    Htm,
    /// The quarter-turn metric: `X` and `X'` cost 1, `X2` costs 2.
    Qtm,
    /// The slice-turn metric: a face turn or a middle-slice turn (`M`, `E`, `S` and their
    /// powers) costs 1; positions up to whole-cube rotation.
    Stm,
    /// The axial metric: any turns of one or both faces of one axis cost 1.
    Atm,
}

impl Metric {
    /// Every metric, for lists and help texts.
    pub const ALL: [Metric; 4] = [Metric::Htm, Metric::Qtm, Metric::Stm, Metric::Atm];

    /// What this metric is: its declaration.
    #[inline(always)]
    pub const fn declaration(self) -> &'static Declaration {
        &DECLARATIONS[self as usize]
    }

    /// Is this the half-turn metric (the default, which table headers leave unsaid)?
    pub fn is_htm(&self) -> bool {
        *self == Metric::Htm
    }

    /// The name of table `base`'s twin in this metric (`sym48e6` → `sym48e6-qtm`).
    pub fn table_name(self, base: &str) -> String {
        format!("{base}{}", self.declaration().table_suffix)
    }

    /// The half-turn table's name of `name`, a table of this metric (`sym48e6-qtm` →
    /// `sym48e6`).
    pub fn base_table_name(self, name: &str) -> &str {
        name.strip_suffix(self.declaration().table_suffix)
            .unwrap_or(name)
    }

    /// The name on the command line and in JSON: `htm`, `qtm`, `stm`, `atm`.
    pub fn name(self) -> &'static str {
        self.declaration().name
    }

    /// The metric of a name ([`Metric::name`], any case).
    pub fn from_name(name: &str) -> Option<Metric> {
        Self::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The metric named `name` (any case), or a message naming the choices.
    pub fn parse(name: &str) -> Result<Metric, String> {
        Self::from_name(name)
            .ok_or_else(|| format!("unknown metric {name:?}: one of {}", Self::names()))
    }

    /// The metrics' names for messages: `htm, qtm, stm, atm`.
    pub fn names() -> String {
        Self::ALL.map(|m| m.name()).join(", ")
    }

    /// The unit a length is counted in, for text output: `moves` or `quarter turns`.
    pub fn unit(self) -> &'static str {
        self.declaration().unit
    }

    /// The unit of a count of `n`, for text output: `1 move`, `2 moves`, `1 quarter turn`.
    pub fn unit_for(self, n: usize) -> &'static str {
        match n {
            1 => self.declaration().unit_one,
            _ => self.unit(),
        }
    }

    /// The largest distance of any position: 20 in HTM (Rokicki, Kociemba, Davidson,
    /// Dethridge 2010), 26 in QTM (Rokicki, Davidson 2014; both at cube20.org); in STM and ATM
    /// (not known) the bound 20 ([`Declaration::diameter_exact`]). A search that may go this
    /// deep finds every position's solution.
    pub fn diameter(self) -> u8 {
        self.declaration().diameter
    }

    /// The metric's moves of unit cost as axis moves: [`Metric::unit_moves`] first (in their
    /// order), then the moves of two faces, axis by axis in the declaration's order. The same
    /// order as [`Metric::generators`].
    pub fn moves(self) -> &'static [AxisMove] {
        static MOVES: std::sync::OnceLock<[Vec<AxisMove>; 4]> = std::sync::OnceLock::new();
        &MOVES.get_or_init(|| Self::ALL.map(|m| m.make_moves()))[self as usize]
    }

    fn make_moves(self) -> Vec<AxisMove> {
        let mut out: Vec<AxisMove> = self.unit_moves().iter().map(|&m| AxisMove::of(m)).collect();
        for axis in 0..3 {
            for &(i, j) in self.declaration().axis_moves {
                if i != 0 && j != 0 {
                    out.push(AxisMove { axis, i, j });
                }
            }
        }
        out
    }

    /// Whether a half-turn distance never exceeds this metric's distance, so that half-turn
    /// tables bound it from below: every move of unit cost is one face turn (HTM, QTM). A
    /// move of two faces (STM's slices, ATM's axial moves) is two face turns, so these
    /// metrics need tables of their own.
    pub fn bounded_by_htm(self) -> bool {
        self.moves().iter().all(|m| m.i == 0 || m.j == 0)
    }

    /// `Err` with the message the front doors give when `what` (a solver, goals, studies) is
    /// asked for in a metric with moves of two faces: only the optimal solver's distance to
    /// solved (and move subsets) search them so far. The CLI and Python say the same words.
    pub fn face_turns_only(self, what: &str) -> Result<(), String> {
        match self.bounded_by_htm() {
            true => Ok(()),
            false => Err(format!(
                "{what} counts face turns (htm or qtm), not {self}: in {self} the optimal solver                  finds distances to solved"
            )),
        }
    }

    /// The cost of turning one axis's lower face by `i` and its opposite face by `j` quarter
    /// turns (both taken mod 4).
    #[inline(always)]
    pub fn axis_cost(self, i: u8, j: u8) -> u8 {
        AXIS_COSTS[self as usize][(i & 3) as usize][(j & 3) as usize]
    }

    /// What the move `m` costs.
    #[inline(always)]
    pub fn cost(self, m: Move) -> u8 {
        self.axis_cost(m.quarter_turns(), 0)
    }

    /// Whether unit move `m2` may follow `m1` in a canonical sequence of unit moves
    /// ([`Metric::unit_moves`]): two turns of one axis only when together they cost what they
    /// cost apart (never `U U` in HTM, where it is `U2`; never `U U'`; `U U` in QTM, its half
    /// turn), and opposite faces in one order (`U D`, never `D U`: they commute). The table
    /// builders' prefixes and marks follow it; in HTM it is [`crate::cube::ALLOWED_AFTER`].
    pub fn may_follow(self, m1: Move, m2: Move) -> bool {
        self.may_follow_move(AxisMove::of(m1), AxisMove::of(m2))
    }

    /// [`Metric::may_follow`] for any of the metric's moves ([`Metric::moves`]): on one axis
    /// only when together they cost what they cost apart, and two single faces' turns in one
    /// order (`U D`, never `D U`). A shortest sequence's last two moves can always be
    /// written so (the table builders' marks rely on it).
    pub fn may_follow_move(self, a: AxisMove, b: AxisMove) -> bool {
        if a.axis != b.axis {
            return true;
        }
        let single = |m: AxisMove| m.i == 0 || m.j == 0;
        if single(a) && single(b) && a.i == 0 && b.j == 0 {
            return false;
        }
        let together = self.axis_cost(a.i + b.i, a.j + b.j);
        together == self.axis_cost(a.i, a.j) + self.axis_cost(b.i, b.j)
    }

    /// The length of a sequence in this metric. Where every unit move is one face's turn (HTM,
    /// QTM) each written turn is priced alone; where a unit move turns two faces (STM, ATM) a
    /// run of one axis's turns is priced as the one axis move it makes (`U D'` is one
    /// slice-turn move, `E` up to rotation).
    pub fn length(self, seq: &[Move]) -> usize {
        if self.bounded_by_htm() {
            return seq.iter().map(|&m| self.cost(m) as usize).sum();
        }
        let mut total = 0;
        let mut run = seq.iter().peekable();
        while let Some(&first) = run.next() {
            let axis = first.face() as usize % 3;
            let mut turns = [0u8; 2];
            turns[first.face() as usize / 3] += first.quarter_turns();
            while let Some(&&m) = run.peek() {
                if m.face() as usize % 3 != axis {
                    break;
                }
                turns[m.face() as usize / 3] += m.quarter_turns();
                run.next();
            }
            total += self.axis_cost(turns[0], turns[1]) as usize;
        }
        total
    }

    /// The face turns that are moves of unit cost, in index order: the 18 face turns in HTM,
    /// STM and ATM, the 12 quarter turns in QTM. The search moves by these.
    #[inline]
    pub fn unit_moves(self) -> &'static [Move] {
        // A half turn is a unit move, or it is two quarter turns (QTM): read from the costs.
        match self.axis_cost(2, 0) {
            1 => &HTM_MOVES,
            _ => &QTM_MOVES,
        }
    }

    /// The generators of the metric's Cayley graph, every move of unit cost as a position: the
    /// [`Metric::unit_moves`] first (in their order), then the moves of two faces (axis by axis,
    /// in the declaration's order). A breadth-first search over them counts distances.
    pub fn generators(self) -> &'static [Cube] {
        static GENERATORS: std::sync::OnceLock<[Vec<Cube>; 4]> = std::sync::OnceLock::new();
        &GENERATORS.get_or_init(|| Self::ALL.map(|m| m.make_generators()))[self as usize]
    }

    fn make_generators(self) -> Vec<Cube> {
        (self.moves().iter())
            .map(|m| m.turns().fold(Cube::SOLVED, |c, t| c.apply(t)))
            .collect()
    }

    /// The parity every distance of `cube` has in this metric (`Some(0)` even, `Some(1)` odd),
    /// or `None` where the metric fixes none (HTM, STM, ATM).
    #[inline]
    pub fn parity(self, cube: &Cube) -> Option<u8> {
        self.declaration()
            .corner_parity
            .then(|| cube.corner_parity())
    }

    /// The step between the lengths a position's solutions can have: 2 where every distance
    /// has a parity ([`Metric::parity`]), else 1.
    pub fn length_step(self) -> u8 {
        if self.declaration().corner_parity {
            2
        } else {
            1
        }
    }

    /// The lower bound `h` of `cube`'s distance raised to the parity the distance must have
    /// ([`Metric::parity`]): still a lower bound, and never smaller.
    #[inline]
    pub fn raise(self, h: u8, cube: &Cube) -> u8 {
        match self.parity(cube) {
            None => h,
            Some(p) => h + ((h ^ p) & 1),
        }
    }

    /// The published numbers of positions at each exact distance (empty where none are).
    pub fn published(self) -> &'static [u64] {
        self.declaration().published
    }

    /// Upper bounds on the positions at each distance 0..=max_depth: the number of canonical
    /// sequences of that cost (syllables on alternating axes, each priced by
    /// [`Metric::axis_cost`]): a position at distance `d` is reached by one of them.
    pub fn sequence_bounds(self, max_depth: usize) -> Vec<u128> {
        // ends[d][a]: canonical sequences of cost d whose last syllable is on axis a.
        let mut ends = vec![[0u128; 3]; max_depth + 1];
        let mut out = vec![0u128; max_depth + 1];
        out[0] = 1;
        for d in 1..=max_depth {
            for a in 0..3 {
                for i in 0..4u8 {
                    for j in 0..4u8 {
                        let c = self.axis_cost(i, j) as usize;
                        if (i, j) == (0, 0) || c > d {
                            continue;
                        }
                        let before = if c == d {
                            1
                        } else {
                            (0..3).filter(|&b| b != a).map(|b| ends[d - c][b]).sum()
                        };
                        ends[d][a] = ends[d][a].saturating_add(before);
                    }
                }
                out[d] = out[d].saturating_add(ends[d][a]);
            }
        }
        out
    }
}

impl std::fmt::Display for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::parse_moves;

    #[test]
    fn costs_lengths_and_names() {
        let seq = parse_moves("R U2 F' D2").unwrap();
        assert_eq!(Metric::Htm.length(&seq), 4);
        assert_eq!(Metric::Qtm.length(&seq), 6);
        assert_eq!(Metric::Htm.unit_moves(), Move::all().collect::<Vec<_>>());
        let quarter: Vec<Move> = Move::all().filter(|m| m.quarter_turns() != 2).collect();
        assert_eq!(Metric::Qtm.unit_moves(), quarter);
        for m in Metric::ALL {
            assert!(m.unit_moves().iter().all(|&x| m.cost(x) == 1));
        }
        for m in Metric::ALL {
            assert_eq!(Metric::from_name(m.name()), Some(m));
        }
        assert_eq!(Metric::from_name(" QTM"), Some(Metric::Qtm));
        assert_eq!(Metric::from_name("stm"), Some(Metric::Stm));
        assert_eq!(Metric::from_name("xtm"), None);
        assert!(
            Metric::Atm
                .face_turns_only("goals")
                .unwrap_err()
                .contains("goals counts face turns (htm or qtm), not atm")
        );
        assert!(Metric::Qtm.face_turns_only("goals").is_ok());
        // "1 quarter turn", never "1 quarter turns" (issue 104).
        assert_eq!(Metric::Qtm.unit_for(1), "quarter turn");
        assert_eq!(Metric::Htm.unit_for(1), "move");
        assert_eq!(Metric::Htm.unit_for(0), "moves");
        assert_eq!(Metric::Qtm.unit_for(2), "quarter turns");
    }

    /// The canonical pairs: HTM's are [`crate::cube::ALLOWED_AFTER`]; QTM's keep a quarter
    /// turn's repeat (its half turn) and drop its inverse and the opposite faces' second order.
    #[test]
    fn canonical_pairs_follow_from_the_costs() {
        for a in Move::all() {
            for b in Move::all() {
                let htm = crate::cube::allowed_after(Some(a), b);
                assert_eq!(Metric::Htm.may_follow(a, b), htm, "{a} {b}");
                let same_axis = a.face() as u8 % 3 == b.face() as u8 % 3;
                let later_face_first = same_axis && a.face() as u8 > b.face() as u8;
                if a.quarter_turns() != 2 && b.quarter_turns() != 2 {
                    let qtm = b != a.inverse() && !later_face_first;
                    assert_eq!(Metric::Qtm.may_follow(a, b), qtm, "{a} {b}");
                }
                let slice = a.face() != b.face()
                    && !later_face_first
                    && same_axis
                    && (a.quarter_turns() + b.quarter_turns()) % 4 == 0;
                let stm = Metric::Htm.may_follow(a, b) && !slice;
                assert_eq!(Metric::Stm.may_follow(a, b), stm, "{a} {b}");
                assert_eq!(Metric::Atm.may_follow(a, b), !same_axis, "{a} {b}");
            }
        }
    }

    /// A quarter turn changes the corner permutation's parity, a half turn does not: the
    /// parity of any sequence's QTM length is the position's corner parity.
    #[test]
    fn qtm_lengths_have_the_corner_parity() {
        let mut rng = crate::cube::Rng::new(5);
        for _ in 0..200 {
            let len = rng.below(25) as usize;
            let seq = crate::cube::random_scramble(&mut rng, len);
            let cube = Cube::from_moves(&seq);
            let len = Metric::Qtm.length(&seq) as u8;
            assert_eq!(Metric::Qtm.parity(&cube), Some(len & 1));
            for h in 0..=len {
                let r = Metric::Qtm.raise(h, &cube);
                assert!(
                    r >= h && r <= len && (r ^ len) & 1 == 0,
                    "{h} -> {r}, {len}"
                );
            }
            assert_eq!(Metric::Htm.raise(3, &cube), 3);
        }
    }
}
