//! The registry of table families ([`Pattern::ALL`]), the piece patterns' families (corners,
//! edges, edge permutation), and [`Pattern`]'s methods: what every other part asks of a table,
//! each answered from its [`Family`] (`pdb::family`).
//!
//! A piece pattern abstracts a position to the places and orientations of a fixed set of pieces. We
//! read those from the *inverse* cube `Q = P⁻¹`, whose slot `piece` holds the position of that
//! piece in `P` and its orientation, so a pattern index is the rank of a contiguous run of `Q`'s
//! slots: the Lehmer rank of the positions (linear time, [`crate::rank`]) times the orientation
//! count, plus the orientation digits. Applying move `m` to `P` turns `Q` into `m⁻¹ · Q`
//! ([`Pattern::neighbour_inverse`]); each slot changes on its own, which is what makes a partial
//! cube (untracked slots left arbitrary) a valid state for table generation.
//!
//! Invariant: `index(unrank(i)) == i` for every `i < entries()`, and the index ignores
//! untracked slots. Changing any index formula must bump [`Pattern::version`] so that old table
//! files are refused as stale.

use crate::cube::{Cube, Metric, Move};
use crate::pdb::batch::{BATCH, Batch, Members};
use crate::pdb::blocks::{CornerLayout, CornerPermLayout, EdgeLayout, EdgePermLayout};
use crate::pdb::family::{Builder, Family, Index, Pattern, Store, Turned};
use crate::pdb::phase1::Phase1Space;
use crate::pdb::sym48::{Sym48Space, with_coset_k};
use crate::rank::{PartialPerm, permutation, rank_digits, rank_flips, unrank_digits};

const PERM8: PartialPerm = permutation(8);
const PERM12: PartialPerm = permutation(12);

/// All 8 corners, positions and twists: 8!·3^7 = 88,179,840 entries.
const CORNERS: Family = Family {
    name: "corners",
    pieces: "URF UFL ULB UBR DFR DLF DBL DRB (positions and twists)",
    entries: PERM8.size() * 2187,
    version: 1,
    index: Index::OfInverse {
        index: corner_index,
        unrank: unrank_corners,
        batch: Some(batch_of_corners),
    },
    self_dual: true,
    turned: Turned::Never,
    store: Store::Nibbles,
    builder: Builder::Layout(|t| t.run(&CornerLayout)),
    metric: Metric::Htm,
};

/// Positions of all 8 corners, twists ignored: 8! = 40,320 entries (20 KB), a small set's
/// fallback for the corners' order within their tetrads, which the coset tables do not see.
const CORNERPERM: Family = Family {
    name: "cornerperm",
    pieces: "URF UFL ULB UBR DFR DLF DBL DRB (positions only)",
    entries: PERM8.size(),
    version: 1,
    index: Index::OfInverse {
        index: corner_perm_index,
        unrank: unrank_corner_perm,
        batch: Some(batch_of_corner_perms),
    },
    self_dual: true,
    turned: Turned::Never,
    store: Store::Nibbles,
    builder: Builder::Layout(|t| t.run(&CornerPermLayout)),
    metric: Metric::Htm,
};

/// Positions of all 12 edges, flips ignored: 12! entries.
const EDGEPERM: Family = Family {
    name: "edgeperm",
    pieces: "UR UF UL UB DR DF DL DB FR FL BL BR (positions only)",
    entries: PERM12.size(),
    version: 1,
    index: Index::OfInverse {
        index: edge_perm_index,
        unrank: unrank_edge_perm,
        batch: Some(batch_of_edge_perms),
    },
    self_dual: true,
    turned: Turned::Never,
    store: Store::Nibbles,
    builder: Builder::Layout(|t| t.run(&EdgePermLayout::new())),
    metric: Metric::Htm,
};

/// `K` edges from piece `START` on, positions and flips: 12!/(12−K)!·2^K entries.
const fn edges<const K: usize, const START: i32>(
    name: &'static str,
    pieces: &'static str,
) -> Family {
    Family {
        name,
        pieces,
        entries: PartialPerm::new(12, K).size() << K,
        version: 1,
        index: Index::OfInverse {
            index: edge_index::<K, START>,
            unrank: unrank_edges::<K, START>,
            batch: Some(batch_of_edges::<K, START>),
        },
        self_dual: false,
        turned: Turned::OnRequest,
        store: Store::Nibbles,
        builder: Builder::Layout(|t| t.run(&EdgeLayout::<K>)),
        metric: Metric::Htm,
    }
}

const EDGES7A: Family = edges::<7, 0>("edges7a", "UR UF UL UB DR DF DL (positions and flips)");
const EDGES7B: Family = edges::<7, 5>("edges7b", "DF DL DB FR FL BL BR (positions and flips)");
const EDGES6A: Family = edges::<6, 0>("edges6a", "UR UF UL UB DR DF (positions and flips)");
const EDGES6B: Family = edges::<6, 6>("edges6b", "DL DB FR FL BL BR (positions and flips)");
const EDGES5A: Family = edges::<5, 0>("edges5a", "UR UF UL UB DR (positions and flips)");
const EDGES5B: Family = edges::<5, 5>("edges5b", "DF DL DB FR FL (positions and flips)");

impl Pattern {
    /// All 8 corners, positions and twists: 8!·3^7 = 88,179,840 entries.
    pub const CORNERS: Pattern = Pattern(&CORNERS);
    /// Edges UR UF UL UB DR DF DL (pieces 0..7), positions and flips: 12!/5!·2^7 entries.
    pub const EDGES7A: Pattern = Pattern(&EDGES7A);
    /// Edges DF DL DB FR FL BL BR (pieces 5..12), positions and flips: 12!/5!·2^7 entries.
    pub const EDGES7B: Pattern = Pattern(&EDGES7B);
    /// Positions of all 12 edges, flips ignored: 12! entries.
    pub const EDGEPERM: Pattern = Pattern(&EDGEPERM);
    /// Edges UR UF UL UB DR DF (pieces 0..6), Korf 1997: 12!/6!·2^6 = 42,577,920 entries.
    pub const EDGES6A: Pattern = Pattern(&EDGES6A);
    /// Edges DL DB FR FL BL BR (pieces 6..12), Korf 1997: 12!/6!·2^6 entries.
    pub const EDGES6B: Pattern = Pattern(&EDGES6B);
    /// Edges UR UF UL UB DR and DF DL DB FR FL: 12!/7!·2^5 = 3,041,280 entries (1.5 MB)
    /// each, the small sets' fallbacks ([`crate::pdb::set`]).
    pub const EDGES5A: Pattern = Pattern(&EDGES5A);
    pub const EDGES5B: Pattern = Pattern(&EDGES5B);
    /// The corners' positions alone: 8! entries (20 KB), a small set's fallback.
    pub const CORNERPERM: Pattern = Pattern(&CORNERPERM);
    /// All 8 corners reduced by the 48 symmetries: the values of [`Pattern::CORNERS`] in
    /// 3,393 · 576 = 1,954,368 entries (0.98 MB), a small set's corner fallback
    /// ([`crate::pdb::corners48`]).
    pub const CORNERS48: Pattern = Pattern(&crate::pdb::corners48::CORNERS48);
    /// Kociemba's phase-1 coordinates (twist, flip, UD-slice places), reduced by the 16 UD
    /// symmetries: 64,430 · 3^7 = 140,908,410 entries ([`crate::pdb::phase1`]).
    pub const PHASE1: Pattern = Pattern(&crate::pdb::phase1::PHASE1);
    /// Phase-1 coordinates with the order of the slice edges: 1,523,864 · 3^7 =
    /// 3,332,690,568 entries (1.67 GB).
    pub const PHASE1_SORTED: Pattern = Pattern(&crate::pdb::phase1::PHASE1_SORTED);
    /// The 48-symmetry coset coordinate (corner tetrads and twists, edge slices), reduced by
    /// all 48 symmetries: 3,393 · 34,650 = 117,567,450 entries ([`crate::pdb::sym48`]).
    pub const SYM48E0: Pattern = Pattern(&crate::pdb::sym48::SYM48E0);
    /// The same with the four E-slice edges oriented too: 3,393 · 34,650 · 2^4 =
    /// 1,881,079,200 entries ([`crate::pdb::sym48ek`]).
    pub const SYM48E4: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E4);
    /// The small end of the ladder: the first one, two, three E pieces' flips
    /// (235,134,900, 470,269,800 and 940,539,600 entries, [`crate::pdb::sym48ek`]).
    pub const SYM48E1: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E1);
    pub const SYM48E2: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E2);
    pub const SYM48E3: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E3);
    /// With the first M piece's flip: 3,762,158,400 entries ([`crate::pdb::sym48ek`]).
    pub const SYM48E5: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E5);
    /// The same with the first two M pieces' flips too: 3,393 · 34,650 · 2^6 =
    /// 7,524,316,800 entries, exact to 11 moves ([`crate::pdb::sym48ek`]).
    pub const SYM48E6: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E6);
    /// With the first three M pieces' flips: 15,048,633,600 entries ([`crate::pdb::sym48ek`]).
    pub const SYM48E7: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E7);
    /// With all four M pieces' flips: 30,097,267,200 entries ([`crate::pdb::sym48ek`]).
    pub const SYM48E8: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E8);
    /// And the first S piece's flip: 60,194,534,400 entries, 15.3 GB ([`crate::pdb::sym48ek`]).
    pub const SYM48E9: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E9);

    /// The quarter-turn twins ([`Family::twin`]) of the Korf set's tables, of the
    /// fallbacks and of the smallest coset table: breadth-first over the 12 quarter turns.
    pub const CORNERS_QTM: Pattern = Pattern(&CORNERS.twin(Metric::Qtm, "corners-qtm"));
    pub const EDGES7A_QTM: Pattern = Pattern(&EDGES7A.twin(Metric::Qtm, "edges7a-qtm"));
    pub const EDGES7B_QTM: Pattern = Pattern(&EDGES7B.twin(Metric::Qtm, "edges7b-qtm"));
    pub const EDGEPERM_QTM: Pattern = Pattern(&EDGEPERM.twin(Metric::Qtm, "edgeperm-qtm"));
    pub const EDGES6A_QTM: Pattern = Pattern(&EDGES6A.twin(Metric::Qtm, "edges6a-qtm"));
    pub const EDGES6B_QTM: Pattern = Pattern(&EDGES6B.twin(Metric::Qtm, "edges6b-qtm"));
    pub const SYM48E0_QTM: Pattern =
        Pattern(&crate::pdb::sym48::SYM48E0.twin(Metric::Qtm, "sym48e0-qtm"));
    /// `sym48e6` in quarter turns: its own builder's quarter-turn instance (the marks of
    /// `H11` coset layers made with the quarter turns, [`crate::pdb::sym48ek`]).
    pub const SYM48E6_QTM: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E6_QTM);
    /// `sym48e7` and `sym48e8` in quarter turns, the same way.
    pub const SYM48E7_QTM: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E7_QTM);
    pub const SYM48E8_QTM: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E8_QTM);
    /// The slice-turn and axial twins of the fallbacks and of `sym48e6` (the default size):
    /// the sets `sym48e6` and `korf6` in those metrics. (`sym48e0`'s layout of symmetry
    /// classes cannot make a move of two faces, [`crate::pdb::layout::InMetric`].)
    pub const CORNERS_STM: Pattern = Pattern(&CORNERS.twin(Metric::Stm, "corners-stm"));
    pub const EDGES6A_STM: Pattern = Pattern(&EDGES6A.twin(Metric::Stm, "edges6a-stm"));
    pub const EDGES6B_STM: Pattern = Pattern(&EDGES6B.twin(Metric::Stm, "edges6b-stm"));
    pub const SYM48E6_STM: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E6_STM);
    pub const CORNERS_ATM: Pattern = Pattern(&CORNERS.twin(Metric::Atm, "corners-atm"));
    pub const EDGES6A_ATM: Pattern = Pattern(&EDGES6A.twin(Metric::Atm, "edges6a-atm"));
    pub const EDGES6B_ATM: Pattern = Pattern(&EDGES6B.twin(Metric::Atm, "edges6b-atm"));
    pub const SYM48E6_ATM: Pattern = Pattern(&crate::pdb::sym48ek::SYM48E6_ATM);
    /// `edges5a` in quarter turns, for the tests only (outside [`Pattern::ALL`], read by no
    /// set): small enough (3,041,280 entries) to be built by IDDFS in seconds.
    #[cfg(test)]
    pub(crate) const EDGES5A_QTM: Pattern = Pattern(&EDGES5A.twin(Metric::Qtm, "edges5a-qtm"));
    /// And in slice-turn and axial moves, for the tests' searches in those metrics.
    #[cfg(test)]
    pub(crate) const EDGES5A_STM: Pattern = Pattern(&EDGES5A.twin(Metric::Stm, "edges5a-stm"));
    #[cfg(test)]
    pub(crate) const EDGES5A_ATM: Pattern = Pattern(&EDGES5A.twin(Metric::Atm, "edges5a-atm"));

    /// The registry: every family the program builds, names and lists, in a fixed order.
    /// Adding a family is a [`Family`] in its own module and a line here.
    pub const ALL: [Pattern; 40] = [
        Pattern::CORNERS,
        Pattern::EDGES7A,
        Pattern::EDGES7B,
        Pattern::EDGEPERM,
        Pattern::EDGES6A,
        Pattern::EDGES6B,
        Pattern::EDGES5A,
        Pattern::EDGES5B,
        Pattern::CORNERPERM,
        Pattern::CORNERS48,
        Pattern::PHASE1,
        Pattern::PHASE1_SORTED,
        Pattern::SYM48E0,
        Pattern::SYM48E1,
        Pattern::SYM48E2,
        Pattern::SYM48E3,
        Pattern::SYM48E4,
        Pattern::SYM48E5,
        Pattern::SYM48E6,
        Pattern::SYM48E7,
        Pattern::SYM48E8,
        Pattern::SYM48E9,
        Pattern::CORNERS_QTM,
        Pattern::EDGES7A_QTM,
        Pattern::EDGES7B_QTM,
        Pattern::EDGEPERM_QTM,
        Pattern::EDGES6A_QTM,
        Pattern::EDGES6B_QTM,
        Pattern::SYM48E0_QTM,
        Pattern::SYM48E6_QTM,
        Pattern::SYM48E7_QTM,
        Pattern::SYM48E8_QTM,
        Pattern::CORNERS_STM,
        Pattern::EDGES6A_STM,
        Pattern::EDGES6B_STM,
        Pattern::SYM48E6_STM,
        Pattern::CORNERS_ATM,
        Pattern::EDGES6A_ATM,
        Pattern::EDGES6B_ATM,
        Pattern::SYM48E6_ATM,
    ];

    /// The metric of the table's distances.
    #[inline]
    pub fn metric(self) -> Metric {
        self.0.metric
    }

    /// The table of this family's index in `metric`: itself, or its twin (`NAME-qtm` for the
    /// quarter-turn one, `NAME` for the half-turn one: [`Metric::table_name`]); `None` when the
    /// registry declares no such twin.
    pub fn in_metric(self, metric: Metric) -> Option<Pattern> {
        if self.metric() == metric {
            return Some(self);
        }
        let base = |p: Pattern| p.metric().base_table_name(p.name());
        Pattern::ALL
            .into_iter()
            .find(|&p| p.metric() == metric && base(p) == base(self))
    }

    /// The family's declaration.
    #[inline(always)]
    pub fn family(self) -> &'static Family {
        self.0
    }

    /// Short name, also the table file's stem.
    pub fn name(self) -> &'static str {
        self.0.name
    }

    /// The registered pattern called `name`.
    pub fn from_name(name: &str) -> Option<Pattern> {
        Pattern::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Version of the index formula; part of the file header.
    pub fn version(self) -> u32 {
        self.0.version
    }

    /// Does the table file hold 2-bit lines ([`crate::pdb::Format::Lines`]) rather than nibbles?
    pub fn stored_in_lines(self) -> bool {
        matches!(self.0.store, Store::Lines { .. })
    }

    /// The payload format a file of this pattern is written in, given the table's exact
    /// histogram (the file's header records it).
    pub fn file_format(self, histogram: &[u64]) -> crate::pdb::Format {
        match self.0.store {
            Store::Nibbles => crate::pdb::Format::Nibbles,
            Store::Lines { base: Some(base) } => crate::pdb::Format::Lines { base },
            Store::Lines { base: None } => crate::pdb::Format::Lines {
                base: crate::pdb::Format::line_base(histogram),
            },
        }
    }

    /// The tracked pieces, for the file header and `pdb info`.
    pub fn pieces(self) -> String {
        self.0.pieces.into()
    }

    /// Number of table entries.
    #[inline(always)]
    pub const fn entries(self) -> u64 {
        self.0.entries
    }

    /// Table index of the position whose inverse is `q`.
    #[inline(always)]
    pub fn index_of_inverse(self, q: &Cube) -> u64 {
        match self.0.index {
            Index::OfInverse { index, .. } => index(q),
            _ => self.index_of_input(&q.inverse()),
        }
    }

    /// Does the search index this pattern by the position itself rather than its inverse?
    /// (The phase-1 and coset coordinates are functions of the position; see
    /// [`crate::pdb::phase1`], [`crate::pdb::sym48`].)
    #[inline(always)]
    pub fn reads_position(self) -> bool {
        !matches!(self.0.index, Index::OfInverse { .. })
    }

    /// Of a position's `position` and `inverse` (cubes, or batches of them), the one this
    /// pattern's table is indexed by ([`Self::reads_position`]), then the other one (what a
    /// dual lookup indexes).
    #[inline(always)]
    pub fn input_and_other<'a, T>(self, position: &'a T, inverse: &'a T) -> (&'a T, &'a T) {
        if self.reads_position() {
            (position, inverse)
        } else {
            (inverse, position)
        }
    }

    /// Does the table give a position and its inverse the same value ([`Family::self_dual`])?
    #[inline(always)]
    pub fn is_self_dual(self) -> bool {
        self.0.self_dual
    }

    /// Is the table's value a function of the coset of a subgroup that holds every half turn
    /// (the `sym48eK` tables)? Then the inverse of `P · m` is `m · P⁻¹`, in the same coset as
    /// `P⁻¹` when `m` is a half turn: a half turn leaves the inverse position's value unchanged.
    #[inline(always)]
    pub fn coset_holds_half_turns(self) -> bool {
        matches!(self.0.index, Index::Coset { .. })
    }

    /// Whether the search looks the table up on diagonally turned positions too.
    pub fn turned(self) -> Turned {
        self.0.turned
    }

    /// Is the table built over the blocks of its own index ([`Builder::Layout`])? Only those
    /// have an IDDFS build too.
    pub fn built_over_own_index(self) -> bool {
        matches!(self.0.builder, Builder::Layout(_))
    }

    /// Does its build write checkpoints and resume from them ([`crate::pdb::checkpoint`])? The
    /// families built by their own builder straight into 2-bit lines with a fixed base: the
    /// coset tables from `sym48e5` up, builds of minutes (`e1` to `e4`, built as nibbles in
    /// at most 4.4 minutes, start over).
    pub fn checkpointed(self) -> bool {
        matches!(self.0.builder, Builder::Own { .. })
            && matches!(self.0.store, Store::Lines { base: Some(_) })
    }

    /// Entries the build's progress counts: the table's own, or those its own builder fills.
    pub fn build_entries(self) -> u64 {
        match self.0.builder {
            Builder::Layout(_) => self.entries(),
            Builder::Own { entries, .. } => entries,
        }
    }

    /// Bytes a build of this table holds at its peak (checked against the free memory first).
    pub fn build_bytes(self) -> u64 {
        match self.0.builder {
            Builder::Layout(_) => crate::pdb::table::bytes_for(self.entries()) as u64,
            Builder::Own { bytes, .. } => bytes,
        }
    }

    /// Builds the coordinate tables the index needs now, not during the first search.
    pub fn prepare(self) {
        match self.0.index {
            Index::OfInverse { .. } => {}
            Index::Phase1 { sorted } => {
                Phase1Space::get(sorted);
            }
            Index::Coset { .. } => {
                Sym48Space::get();
            }
        }
    }

    /// Table index from the cube the pattern reads: the position for patterns that
    /// [read the position](Self::reads_position), the inverse cube for the others.
    #[inline]
    pub fn index_of_input(self, c: &Cube) -> u64 {
        match self.0.index {
            Index::OfInverse { index, .. } => index(c),
            Index::Phase1 { sorted } => Phase1Space::get(sorted).index(c),
            Index::Coset { k } => {
                let s = Sym48Space::get();
                with_coset_k!(k, K => s.index::<K>(c))
            }
        }
    }

    /// Calls `f(k, index)` for the cube `cubes[k]` of every member `k` of the bit set `members`:
    /// an inverse cube, or the position itself for patterns that
    /// [read the position](Self::reads_position). The pattern is dispatched once for all of
    /// them, not once per cube: the search's inner loop.
    #[inline(always)]
    pub fn for_each_index(self, cubes: &Batch, members: u32, mut f: impl FnMut(usize, u64)) {
        match self.0.index {
            Index::OfInverse {
                batch: Some(batch), ..
            } => {
                let mut out = [0u64; BATCH];
                batch(cubes, members, &mut out);
                for k in Members(members) {
                    f(k, out[k]);
                }
            }
            Index::OfInverse { index, .. } => {
                for k in Members(members) {
                    f(k, index(&cubes[k]));
                }
            }
            Index::Phase1 { sorted } => Phase1Space::get(sorted).for_each_index(cubes, members, f),
            Index::Coset { k } => {
                let s = Sym48Space::get();
                with_coset_k!(k, K => s.for_each_index::<K>(cubes, members, f))
            }
        }
    }

    /// Table index of position `p` (computes the inverse first; for tests and one-off lookups).
    pub fn index(self, p: &Cube) -> u64 {
        self.index_of_inverse(&p.inverse())
    }

    /// A (partial) inverse cube with table index `i`; untracked slots are arbitrary.
    pub fn unrank_inverse(self, i: u64) -> Cube {
        debug_assert!(i < self.entries());
        match self.0.index {
            Index::OfInverse { unrank, .. } => unrank(i),
            Index::Phase1 { sorted } => Phase1Space::get(sorted).unrank(i).inverse(),
            Index::Coset { k } => {
                let s = Sym48Space::get();
                with_coset_k!(k, K => s.unrank::<K>(i)).inverse()
            }
        }
    }

    /// Table indices of the states one move of the table's metric away from the state with
    /// index `i` (its moves as cubes, [`Metric::generators`]: not the layout the breadth-first
    /// search moves by).
    #[inline]
    pub fn neighbours(self, i: u64) -> impl Iterator<Item = u64> {
        let q = self.unrank_inverse(i);
        (self.metric().generators().iter())
            .map(move |g| self.index_of_inverse(&g.inverse().compose(&q)))
    }

    /// The inverse cube after applying move `m` to the position: `m⁻¹ · q`.
    #[inline(always)]
    pub fn neighbour_inverse(q: &Cube, m: Move) -> Cube {
        m.inverse_cube().compose(q)
    }
}

fn unrank_corners(i: u64) -> Cube {
    let (mut cp, mut co) = ([0u8; 8], [0u8; 8]);
    PERM8.unrank(i / 2187, &mut cp);
    unrank_digits((i % 2187) as u32, 3, &mut co[..7]);
    co[7] = (3 - co[..7].iter().sum::<u8>() % 3) % 3;
    Cube::from_parts(cp, co, [0; 12], [0; 12])
}

fn unrank_corner_perm(i: u64) -> Cube {
    let mut cp = [0u8; 8];
    PERM8.unrank(i, &mut cp);
    Cube::from_parts(cp, [0; 8], [0; 12], [0; 12])
}

fn batch_of_corner_perms(cubes: &Batch, members: u32, out: &mut [u64; BATCH]) {
    for k in Members(members) {
        out[k] = corner_perm_index(&cubes[k]);
    }
}

#[inline(always)]
fn corner_perm_index(q: &Cube) -> u64 {
    PERM8.rank_nibbles::<0>(q.corner_bytes())
}

fn unrank_edge_perm(i: u64) -> Cube {
    let mut ep = [0u8; 12];
    PERM12.unrank(i, &mut ep);
    Cube::from_parts([0; 8], [0; 8], ep, [0; 12])
}

fn unrank_edges<const K: usize, const START: i32>(i: u64) -> Cube {
    let (mut ep, mut eo) = ([0u8; 12], [0u8; 12]);
    let s = START as usize;
    const { PartialPerm::new(12, K) }.unrank(i >> K, &mut ep[s..s + K]);
    unrank_digits((i & ((1 << K) - 1)) as u32, 2, &mut eo[s..s + K]);
    Cube::from_parts([0; 8], [0; 8], ep, eo)
}

fn batch_of_corners(cubes: &Batch, members: u32, out: &mut [u64; BATCH]) {
    for k in Members(members) {
        out[k] = corner_index(&cubes[k]);
    }
}

fn batch_of_edge_perms(cubes: &Batch, members: u32, out: &mut [u64; BATCH]) {
    for k in Members(members) {
        out[k] = edge_perm_index(&cubes[k]);
    }
}

fn batch_of_edges<const K: usize, const START: i32>(
    cubes: &Batch,
    members: u32,
    out: &mut [u64; BATCH],
) {
    for k in Members(members) {
        out[k] = edge_index::<K, START>(&cubes[k]);
    }
}

#[inline(always)]
fn corner_index(q: &Cube) -> u64 {
    let b = q.corner_bytes();
    let ori: [u8; 7] = std::array::from_fn(|i| b[i] >> 4);
    PERM8.rank_nibbles::<0>(b) * 2187 + rank_digits(&ori, 3) as u64
}

/// Index of `K` edges starting at piece `START`: their positions, then their flips.
#[inline(always)]
fn edge_index<const K: usize, const START: i32>(q: &Cube) -> u64 {
    let b = q.edge_bytes();
    let pp = const { PartialPerm::new(12, K) };
    (pp.rank_nibbles::<START>(b) << K) | rank_flips::<START>(b, K) as u64
}

#[inline(always)]
fn edge_perm_index(q: &Cube) -> u64 {
    PERM12.rank_nibbles::<0>(q.edge_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Face, Rng};

    #[test]
    fn entry_counts() {
        assert_eq!(Pattern::CORNERS.entries(), 88_179_840);
        assert_eq!(Pattern::EDGES7A.entries(), 510_935_040);
        assert_eq!(Pattern::EDGEPERM.entries(), 479_001_600);
        assert_eq!(Pattern::EDGES6A.entries(), 42_577_920);
    }

    #[test]
    fn solved_index_and_names() {
        for p in Pattern::ALL {
            assert_eq!(Pattern::from_name(p.name()), Some(p));
            // A single move changes the index exactly when it moves a tracked piece: every
            // face touches a corner and one of the edges of each pattern, except that U turns
            // no edge of edges7b (DF DL DB FR FL BL BR) or edges6b (DL DB FR FL BL BR). The
            // phase-1 coordinates stay solved under U and D turns, `phase1` also under the
            // other half turns (G1); R2, L2, F2, B2 reorder the slice edges of `phase1sorted`.
            // The coset of `sym48e0` holds every half turn.
            let root = p.index(&Cube::SOLVED);
            assert!(root < p.entries());
            // A quarter-turn twin has its base's index.
            let p = p.in_metric(Metric::Htm).expect("a half-turn base");
            for m in Move::all() {
                let ud = matches!(m.face(), Face::U | Face::D);
                let misses = if [Pattern::EDGES7B, Pattern::EDGES6B, Pattern::EDGES5B].contains(&p)
                {
                    m.face() == Face::U
                } else if p == Pattern::PHASE1 {
                    ud || m.quarter_turns() == 2
                } else if p == Pattern::PHASE1_SORTED {
                    ud
                } else if p.coset_holds_half_turns() {
                    m.quarter_turns() == 2
                } else {
                    false
                };
                assert_eq!(p.index(&Cube::SOLVED.apply(m)) == root, misses, "{p} {m}");
            }
        }
        assert_eq!(Pattern::CORNERS.index(&Cube::SOLVED), 0);
        assert_eq!(Pattern::EDGES7A.index(&Cube::SOLVED), 0);
        assert_ne!(Pattern::EDGES7B.index(&Cube::SOLVED), 0);
    }

    /// The registry's names are unique, and the piece patterns' descriptions (in every file
    /// header: a changed one would make old files stale) name their pieces in order.
    #[test]
    fn registry_names_and_pieces() {
        use crate::cube::{CORNER_NAMES, EDGE_NAMES};
        let mut names: Vec<&str> = Pattern::ALL.iter().map(|p| p.name()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Pattern::ALL.len());
        assert_eq!(
            Pattern::CORNERS.pieces(),
            CORNER_NAMES.join(" ") + " (positions and twists)"
        );
        assert_eq!(
            Pattern::EDGEPERM.pieces(),
            EDGE_NAMES.join(" ") + " (positions only)"
        );
        for (p, start, k) in [
            (Pattern::EDGES7A, 0, 7),
            (Pattern::EDGES7B, 5, 7),
            (Pattern::EDGES6A, 0, 6),
            (Pattern::EDGES6B, 6, 6),
        ] {
            let want = EDGE_NAMES[start..start + k].join(" ") + " (positions and flips)";
            assert_eq!(p.pieces(), want, "{p}");
        }
    }

    #[test]
    fn unrank_then_index_round_trips() {
        let mut rng = Rng::new(11);
        for p in Pattern::ALL {
            for _ in 0..2000 {
                let i = rng.below(p.entries());
                assert_eq!(p.index_of_inverse(&p.unrank_inverse(i)), i, "{p} {i}");
            }
            let last = p.entries() - 1;
            assert_eq!(p.index_of_inverse(&p.unrank_inverse(last)), last);
        }
    }

    /// Moving a partial cube gives the same index as moving the full cube: the abstraction is
    /// a homomorphism, which is what makes the tables admissible heuristics. (The phase-1
    /// patterns and `corners48` unrank to a class representative, a conjugate of the position,
    /// so there the same holds only up to symmetry; `phase1::tests` checks that form, and
    /// `corners48`'s tests that it reads the values of `corners`.)
    #[test]
    fn partial_states_move_like_full_ones() {
        let mut rng = Rng::new(5);
        for _ in 0..500 {
            let c = Cube::random(&mut rng);
            let exact = |p: &Pattern| !p.reads_position() && *p != Pattern::CORNERS48;
            for p in Pattern::ALL.into_iter().filter(exact) {
                let partial = p.unrank_inverse(p.index(&c));
                for m in Move::all() {
                    let full = p.index(&c.apply(m));
                    let part = p.index_of_inverse(&Pattern::neighbour_inverse(&partial, m));
                    assert_eq!(full, part, "{p} {m}");
                }
            }
        }
    }
}
