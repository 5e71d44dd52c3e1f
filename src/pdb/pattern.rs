//! Pattern definitions: which pieces a table tracks, and how a position maps to a table index.
//!
//! A pattern abstracts a position to the places and orientations of a fixed set of pieces. We
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

use super::batch::{Batch, Members};
use super::phase1::{self, Phase1Space};
use super::sym48::{self, Sym48Space};
use super::{sym48e4, sym48ek};
use crate::cube::{Cube, Move};
use crate::rank::{PartialPerm, permutation, rank_digits, rank_flips, unrank_digits};

/// One of the pattern databases optcube can build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Pattern {
    /// All 8 corners, positions and twists: 8!·3^7 = 88,179,840 entries.
    Corners,
    /// Edges UR UF UL UB DR DF DL (pieces 0..7), positions and flips: 12!/5!·2^7 entries.
    Edges7A,
    /// Edges DF DL DB FR FL BL BR (pieces 5..12), positions and flips: 12!/5!·2^7 entries.
    Edges7B,
    /// Positions of all 12 edges, flips ignored: 12! entries.
    EdgePerm,
    /// Edges UR UF UL UB DR DF (pieces 0..6), Korf 1997: 12!/6!·2^6 = 42,577,920 entries.
    Edges6A,
    /// Edges DL DB FR FL BL BR (pieces 6..12), Korf 1997: 12!/6!·2^6 entries.
    Edges6B,
    /// Kociemba's phase-1 coordinates (twist, flip, UD-slice places), reduced by the 16 UD
    /// symmetries: 64,430 · 3^7 = 140,908,410 entries ([`super::phase1`]).
    Phase1,
    /// Phase-1 coordinates with the order of the slice edges: 1,523,864 · 3^7 =
    /// 3,332,690,568 entries (1.67 GB).
    Phase1Sorted,
    /// The 48-symmetry coset coordinate (corner tetrads and twists, edge slices), reduced by
    /// all 48 symmetries: 3,393 · 34,650 = 117,567,450 entries ([`super::sym48`]).
    Sym48E0,
    /// The same with the four E-slice edges oriented too: 3,393 · 34,650 · 2^4 =
    /// 1,881,079,200 entries ([`super::sym48e4`]).
    Sym48E4,
    /// The same with the first two M pieces' flips too: 3,393 · 34,650 · 2^6 =
    /// 7,524,316,800 entries, exact to 11 moves ([`super::sym48ek`]).
    Sym48E6,
    /// With the first three M pieces' flips: 15,048,633,600 entries ([`super::sym48ek`]).
    Sym48E7,
    /// With all four M pieces' flips: 30,097,267,200 entries ([`super::sym48ek`]).
    Sym48E8,
}

const PERM8: PartialPerm = permutation(8);
const PERM12: PartialPerm = permutation(12);
const PICK7: PartialPerm = PartialPerm::new(12, 7);
const PICK6: PartialPerm = PartialPerm::new(12, 6);

impl Pattern {
    /// Every pattern, in a fixed order.
    pub const ALL: [Pattern; 13] = [
        Pattern::Corners,
        Pattern::Edges7A,
        Pattern::Edges7B,
        Pattern::EdgePerm,
        Pattern::Edges6A,
        Pattern::Edges6B,
        Pattern::Phase1,
        Pattern::Phase1Sorted,
        Pattern::Sym48E0,
        Pattern::Sym48E4,
        Pattern::Sym48E6,
        Pattern::Sym48E7,
        Pattern::Sym48E8,
    ];

    /// Short name, also the table file's stem.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Corners => "corners",
            Pattern::Edges7A => "edges7a",
            Pattern::Edges7B => "edges7b",
            Pattern::EdgePerm => "edgeperm",
            Pattern::Edges6A => "edges6a",
            Pattern::Edges6B => "edges6b",
            Pattern::Phase1 => "phase1",
            Pattern::Phase1Sorted => "phase1sorted",
            Pattern::Sym48E0 => "sym48e0",
            Pattern::Sym48E4 => "sym48e4",
            Pattern::Sym48E6 => "sym48e6",
            Pattern::Sym48E7 => "sym48e7",
            Pattern::Sym48E8 => "sym48e8",
        }
    }

    /// The pattern called `name`.
    pub fn from_name(name: &str) -> Option<Pattern> {
        Pattern::ALL.into_iter().find(|p| p.name() == name)
    }

    /// Version of the index formula; part of the file header.
    pub fn version(self) -> u32 {
        1
    }

    /// Does the table file hold 2-bit lines ([`super::Format::Lines`]) rather than nibbles?
    /// The coset table: the search reads it for every child and its inverse, and half the
    /// memory is worth the few entries read below their value.
    pub fn stored_in_lines(self) -> bool {
        self.coset_holds_half_turns()
    }

    /// The payload format a file of this pattern is written in, given the table's exact
    /// histogram (the file's header records it).
    pub fn file_format(self, histogram: &[u64]) -> super::Format {
        if self.coset_flips().is_some() {
            // Its values stop at the cap, which must read exactly: the three values below it.
            super::Format::Lines {
                base: sym48ek::CAP - 3,
            }
        } else if self.stored_in_lines() {
            super::Format::Lines {
                base: super::Format::line_base(histogram),
            }
        } else {
            super::Format::Nibbles
        }
    }

    /// The tracked pieces, for the file header and `pdb info`.
    pub fn pieces(self) -> String {
        use crate::cube::{CORNER_NAMES, EDGE_NAMES};
        match self {
            Pattern::Corners => CORNER_NAMES.join(" ") + " (positions and twists)",
            Pattern::EdgePerm => EDGE_NAMES.join(" ") + " (positions only)",
            Pattern::Phase1 => {
                "corner twists, edge flips, places of FR FL BL BR (16 symmetries)".into()
            }
            Pattern::Phase1Sorted => {
                "corner twists, edge flips, places and order of FR FL BL BR (16 symmetries)".into()
            }
            Pattern::Sym48E0 => {
                "corner tetrads and twists, the slice of every edge (48 symmetries)".into()
            }
            Pattern::Sym48E4 => {
                "corner tetrads and twists, the slice of every edge, FR FL BL BR flips (48 symmetries)"
                    .into()
            }
            Pattern::Sym48E6 | Pattern::Sym48E7 | Pattern::Sym48E8 => format!(
                "corner tetrads and twists, the slice of every edge, FR FL BL BR flips, flips of the \
                 first {} M pieces (48 symmetries; exact to 11 moves, 12 for more)",
                ["two", "three", "four"][self.coset_flips().unwrap_or(6) as usize - 6]
            ),
            _ => {
                let (start, k) = self.edge_run();
                EDGE_NAMES[start..start + k].join(" ") + " (positions and flips)"
            }
        }
    }

    /// First edge piece and number of edges for the partial edge patterns.
    const fn edge_run(self) -> (usize, usize) {
        match self {
            Pattern::Edges7A => (0, 7),
            Pattern::Edges7B => (5, 7),
            Pattern::Edges6A => (0, 6),
            Pattern::Edges6B => (6, 6),
            Pattern::EdgePerm => (0, 12),
            Pattern::Corners
            | Pattern::Phase1
            | Pattern::Phase1Sorted
            | Pattern::Sym48E0
            | Pattern::Sym48E4
            | Pattern::Sym48E6
            | Pattern::Sym48E7
            | Pattern::Sym48E8 => (0, 0),
        }
    }

    /// Number of table entries.
    pub const fn entries(self) -> u64 {
        match self {
            Pattern::Corners => PERM8.size() * 2187,
            Pattern::Edges7A | Pattern::Edges7B => PICK7.size() << 7,
            Pattern::EdgePerm => PERM12.size(),
            Pattern::Edges6A | Pattern::Edges6B => PICK6.size() << 6,
            Pattern::Phase1 => phase1::CLASSES_PLAIN * 2187,
            Pattern::Phase1Sorted => phase1::CLASSES_SORTED * 2187,
            Pattern::Sym48E0 => sym48::ENTRIES,
            Pattern::Sym48E4 => sym48e4::ENTRIES,
            Pattern::Sym48E6 => sym48ek::entries(6),
            Pattern::Sym48E7 => sym48ek::entries(7),
            Pattern::Sym48E8 => sym48ek::entries(8),
        }
    }

    /// Table index of the position whose inverse is `q`.
    #[inline(always)]
    pub fn index_of_inverse(self, q: &Cube) -> u64 {
        match self {
            Pattern::Corners => corner_index(q),
            Pattern::Edges7A => edge_index::<7, 0>(q),
            Pattern::Edges7B => edge_index::<7, 5>(q),
            Pattern::EdgePerm => edge_perm_index(q),
            Pattern::Edges6A => edge_index::<6, 0>(q),
            Pattern::Edges6B => edge_index::<6, 6>(q),
            Pattern::Phase1
            | Pattern::Phase1Sorted
            | Pattern::Sym48E0
            | Pattern::Sym48E4
            | Pattern::Sym48E6
            | Pattern::Sym48E7
            | Pattern::Sym48E8 => self.index_of_position(&q.inverse()),
        }
    }

    /// Does the search index this pattern by the position itself rather than its inverse?
    /// (The phase-1 and coset coordinates are functions of the position; see
    /// [`super::phase1`], [`super::sym48`].)
    #[inline(always)]
    pub fn reads_position(self) -> bool {
        matches!(
            self,
            Pattern::Phase1
                | Pattern::Phase1Sorted
                | Pattern::Sym48E0
                | Pattern::Sym48E4
                | Pattern::Sym48E6
                | Pattern::Sym48E7
                | Pattern::Sym48E8
        )
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

    /// Does the table give a position and its inverse the same value? True for the patterns
    /// that track every piece of a kind (all corners; all edge positions): there the abstract
    /// state is a group element, the inverse position's state is its inverse, and a group
    /// element and its inverse are equally far from the identity. A dual lookup of such a table
    /// adds nothing, and the search skips it.
    #[inline(always)]
    pub fn is_self_dual(self) -> bool {
        matches!(self, Pattern::Corners | Pattern::EdgePerm)
    }

    /// Is the table's value a function of the coset of a subgroup that holds every half turn
    /// (`sym48e0`, `sym48e4`; `sym48e6`, a function of the full-flip coset)? Then the inverse
    /// of `P · m` is `m · P⁻¹`, in the same coset as `P⁻¹` when `m` is a half turn: a half turn
    /// leaves the inverse position's value unchanged.
    #[inline(always)]
    pub fn coset_holds_half_turns(self) -> bool {
        matches!(
            self,
            Pattern::Sym48E0
                | Pattern::Sym48E4
                | Pattern::Sym48E6
                | Pattern::Sym48E7
                | Pattern::Sym48E8
        )
    }

    /// `K` of the coset tables `sym48eK` that one builder makes ([`super::sym48ek`]).
    #[inline(always)]
    pub const fn coset_flips(self) -> Option<u8> {
        match self {
            Pattern::Sym48E6 => Some(6),
            Pattern::Sym48E7 => Some(7),
            Pattern::Sym48E8 => Some(8),
            _ => None,
        }
    }

    /// Is the table built by a breadth-first search over the blocks of its own index
    /// ([`super::blocks::with_layout`])? Not `sym48e4`: its search runs over 16-symmetry
    /// classes ([`sym48e4::UdLayout`]) and the table is read off that one, so it has no
    /// layout of its own index and no IDDFS build.
    pub fn built_over_own_index(self) -> bool {
        self != Pattern::Sym48E4 && self.coset_flips().is_none()
    }

    /// Entries the build's breadth-first search fills (its progress counts them): the table's
    /// own, or for `sym48e4` those of the 16-symmetry table it is read off.
    pub fn build_entries(self) -> u64 {
        match self {
            Pattern::Sym48E4 => sym48e4::UD_ENTRIES,
            _ => self.entries(),
        }
    }

    /// Bytes a build of this table holds at its peak (checked against the free memory first).
    pub fn build_bytes(self) -> u64 {
        match self {
            Pattern::Sym48E4 => sym48e4::BUILD_BYTES,
            Pattern::Sym48E6 => sym48ek::build_bytes(6),
            Pattern::Sym48E7 => sym48ek::build_bytes(7),
            Pattern::Sym48E8 => sym48ek::build_bytes(8),
            _ => super::table::bytes_for(self.entries()) as u64,
        }
    }

    /// Table index of position `p`, for patterns that [read the position](Self::reads_position).
    #[inline(always)]
    fn index_of_position(self, p: &Cube) -> u64 {
        match self {
            Pattern::Sym48E0 => Sym48Space::get().index::<0>(p),
            Pattern::Sym48E4 => Sym48Space::get().index::<4>(p),
            Pattern::Sym48E6 => Sym48Space::get().index::<6>(p),
            Pattern::Sym48E7 => Sym48Space::get().index::<7>(p),
            Pattern::Sym48E8 => Sym48Space::get().index::<8>(p),
            Pattern::Phase1 | Pattern::Phase1Sorted => {
                Phase1Space::get(self == Pattern::Phase1Sorted).index(p)
            }
            _ => unreachable!("{self} reads the inverse cube, not the position"),
        }
    }

    /// Table index from the cube the pattern reads: the position for patterns that
    /// [read the position](Self::reads_position), the inverse cube for the others.
    #[inline]
    pub fn index_of_input(self, c: &Cube) -> u64 {
        if self.reads_position() {
            self.index_of_position(c)
        } else {
            self.index_of_inverse(c)
        }
    }

    /// Calls `f(k, index)` for the cube `cubes[k]` of every member `k` of the bit set `members`:
    /// an inverse cube, or the position itself for patterns that
    /// [read the position](Self::reads_position). The pattern is dispatched once for all of
    /// them, not once per cube: the search's inner loop.
    #[inline(always)]
    pub fn for_each_index(self, cubes: &Batch, members: u32, mut f: impl FnMut(usize, u64)) {
        let mut each = |index: fn(&Cube) -> u64| {
            for k in Members(members) {
                f(k, index(&cubes[k]));
            }
        };
        match self {
            Pattern::Corners => each(corner_index),
            Pattern::Edges7A => each(edge_index::<7, 0>),
            Pattern::Edges7B => each(edge_index::<7, 5>),
            Pattern::EdgePerm => each(edge_perm_index),
            Pattern::Edges6A => each(edge_index::<6, 0>),
            Pattern::Edges6B => each(edge_index::<6, 6>),
            Pattern::Phase1 | Pattern::Phase1Sorted => {
                Phase1Space::get(self == Pattern::Phase1Sorted).for_each_index(cubes, members, f)
            }
            Pattern::Sym48E0 => Sym48Space::get().for_each_index::<0>(cubes, members, f),
            Pattern::Sym48E4 => Sym48Space::get().for_each_index::<4>(cubes, members, f),
            Pattern::Sym48E6 => Sym48Space::get().for_each_index::<6>(cubes, members, f),
            Pattern::Sym48E7 => Sym48Space::get().for_each_index::<7>(cubes, members, f),
            Pattern::Sym48E8 => Sym48Space::get().for_each_index::<8>(cubes, members, f),
        }
    }

    /// Table index of position `p` (computes the inverse first; for tests and one-off lookups).
    pub fn index(self, p: &Cube) -> u64 {
        self.index_of_inverse(&p.inverse())
    }

    /// A (partial) inverse cube with table index `i`; untracked slots are arbitrary.
    pub fn unrank_inverse(self, i: u64) -> Cube {
        debug_assert!(i < self.entries());
        let mut cp = [0u8; 8];
        let mut co = [0u8; 8];
        let mut ep = [0u8; 12];
        let mut eo = [0u8; 12];
        match self {
            Pattern::Corners => {
                PERM8.unrank(i / 2187, &mut cp);
                unrank_digits((i % 2187) as u32, 3, &mut co[..7]);
                co[7] = (3 - co[..7].iter().sum::<u8>() % 3) % 3;
            }
            Pattern::EdgePerm => PERM12.unrank(i, &mut ep),
            Pattern::Phase1 | Pattern::Phase1Sorted => {
                return Phase1Space::get(self == Pattern::Phase1Sorted)
                    .unrank(i)
                    .inverse();
            }
            Pattern::Sym48E0 => return Sym48Space::get().unrank::<0>(i).inverse(),
            Pattern::Sym48E4 => return Sym48Space::get().unrank::<4>(i).inverse(),
            Pattern::Sym48E6 => return Sym48Space::get().unrank::<6>(i).inverse(),
            Pattern::Sym48E7 => return Sym48Space::get().unrank::<7>(i).inverse(),
            Pattern::Sym48E8 => return Sym48Space::get().unrank::<8>(i).inverse(),
            _ => {
                let (start, k) = self.edge_run();
                let pp = if k == 7 { PICK7 } else { PICK6 };
                pp.unrank(i >> k, &mut ep[start..start + k]);
                unrank_digits((i & ((1 << k) - 1)) as u32, 2, &mut eo[start..start + k]);
            }
        }
        Cube::from_parts(cp, co, ep, eo)
    }

    /// Table indices of the 18 states one move away from the state with index `i`.
    #[inline]
    pub fn neighbours(self, i: u64) -> impl Iterator<Item = u64> {
        let q = self.unrank_inverse(i);
        Move::all().map(move |m| self.index_of_inverse(&Pattern::neighbour_inverse(&q, m)))
    }

    /// The inverse cube after applying move `m` to the position: `m⁻¹ · q`.
    #[inline(always)]
    pub fn neighbour_inverse(q: &Cube, m: Move) -> Cube {
        m.inverse_cube().compose(q)
    }
}

impl std::fmt::Display for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
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
    let pp = if K == 7 { &PICK7 } else { &PICK6 };
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
        assert_eq!(Pattern::Corners.entries(), 88_179_840);
        assert_eq!(Pattern::Edges7A.entries(), 510_935_040);
        assert_eq!(Pattern::EdgePerm.entries(), 479_001_600);
        assert_eq!(Pattern::Edges6A.entries(), 42_577_920);
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
            for m in Move::all() {
                let ud = matches!(m.face(), Face::U | Face::D);
                let misses = match p {
                    Pattern::Edges7B | Pattern::Edges6B => m.face() == Face::U,
                    Pattern::Phase1 => ud || m.quarter_turns() == 2,
                    Pattern::Phase1Sorted => ud,
                    Pattern::Sym48E0
                    | Pattern::Sym48E4
                    | Pattern::Sym48E6
                    | Pattern::Sym48E7
                    | Pattern::Sym48E8 => m.quarter_turns() == 2,
                    _ => false,
                };
                assert_eq!(p.index(&Cube::SOLVED.apply(m)) == root, misses, "{p} {m}");
            }
        }
        assert_eq!(Pattern::Corners.index(&Cube::SOLVED), 0);
        assert_eq!(Pattern::Edges7A.index(&Cube::SOLVED), 0);
        assert_ne!(Pattern::Edges7B.index(&Cube::SOLVED), 0);
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
    /// patterns unrank to a class representative, a conjugate of the position, so there the
    /// same holds only up to symmetry; `phase1::tests` checks that form.)
    #[test]
    fn partial_states_move_like_full_ones() {
        let mut rng = Rng::new(5);
        for _ in 0..500 {
            let c = Cube::random(&mut rng);
            for p in Pattern::ALL.into_iter().filter(|p| !p.reads_position()) {
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
