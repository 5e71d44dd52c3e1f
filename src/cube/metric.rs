//! How a move sequence is measured: the half-turn metric (HTM: every face turn costs 1) or the
//! quarter-turn metric (QTM: a quarter turn costs 1, a half turn 2). One value names the metric
//! everywhere a length or a distance is asked for; what differs between metrics is here.
//!
//! - **Moves and costs.** Both metrics move the cube with the same 18 face turns; the metric
//!   prices them ([`Metric::cost`]). In QTM a half turn is two quarter turns of one face, written
//!   `X2` in output and counted 2 ([`Metric::length`]).
//! - **Canonical sequences.** A search enumerates each position-reaching sequence once by
//!   grouping the turns of one axis between turns of other axes into a *syllable* (the lower
//!   face's rotation, then the opposite face's: they commute), two syllables in a row never on
//!   one axis. In HTM that is the familiar rule (never one face twice in a row, `U D` and never
//!   `D U`); in QTM a face's half turn is its two quarter turns `X X`, so `X X'` and `X X X`
//!   never occur, and opposite faces keep one order.
//! - **Parity.** Every quarter turn is an odd permutation of the corners, so a position's QTM
//!   distance has the parity of its corner permutation ([`Metric::parity`]). A lower bound in
//!   QTM can then be raised to that parity ([`Metric::raise`]), and an IDA* bound steps by 2.
//!
//! A half-turn distance is never more than the quarter-turn distance (each QTM move is an HTM
//! move, each half turn one HTM move for two QTM), so tables of HTM distances are admissible in
//! QTM too, raised to the parity.

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
}

impl Metric {
    /// Every metric, for lists and help texts.
    pub const ALL: [Metric; 2] = [Metric::Htm, Metric::Qtm];

    /// Is this the half-turn metric (the default, which table headers leave unsaid)?
    pub fn is_htm(&self) -> bool {
        *self == Metric::Htm
    }

    /// The name on the command line and in JSON: `htm`, `qtm`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Htm => "htm",
            Metric::Qtm => "qtm",
        }
    }

    /// The metric of a name ([`Metric::name`], any case).
    pub fn from_name(name: &str) -> Option<Metric> {
        Self::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The metrics' names for messages: `htm, qtm`.
    pub fn names() -> String {
        Self::ALL.map(|m| m.name()).join(", ")
    }

    /// The unit a length is counted in, for text output: `moves` or `quarter turns`.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::Htm => "moves",
            Metric::Qtm => "quarter turns",
        }
    }

    /// The unit of a count of `n`, for text output: `1 move`, `2 moves`, `1 quarter turn`.
    pub fn unit_for(self, n: usize) -> &'static str {
        match (self, n) {
            (Metric::Htm, 1) => "move",
            (Metric::Qtm, 1) => "quarter turn",
            _ => self.unit(),
        }
    }

    /// The largest distance of any position: 20 in HTM (Rokicki, Kociemba, Davidson,
    /// Dethridge 2010), 26 in QTM (Rokicki, Davidson 2014; both at cube20.org). A search that
    /// may go this deep finds every position's solution.
    pub fn diameter(self) -> u8 {
        match self {
            Metric::Htm => 20,
            Metric::Qtm => 26,
        }
    }

    /// What the move `m` costs.
    #[inline(always)]
    pub fn cost(self, m: Move) -> u8 {
        match self {
            Metric::Htm => 1,
            Metric::Qtm => 1 + (m.quarter_turns() == 2) as u8,
        }
    }

    /// The length of a sequence in this metric.
    pub fn length(self, seq: &[Move]) -> usize {
        seq.iter().map(|&m| self.cost(m) as usize).sum()
    }

    /// The generators of the metric's Cayley graph, the moves of unit cost, in index order:
    /// the 18 face turns in HTM, the 12 quarter turns in QTM. A breadth-first search over them
    /// counts distances.
    #[inline]
    pub fn unit_moves(self) -> &'static [Move] {
        match self {
            Metric::Htm => &HTM_MOVES,
            Metric::Qtm => &QTM_MOVES,
        }
    }

    /// The parity every distance of `cube` has in this metric (`Some(0)` even, `Some(1)` odd),
    /// or `None` where the metric fixes none (HTM).
    #[inline]
    pub fn parity(self, cube: &Cube) -> Option<u8> {
        match self {
            Metric::Htm => None,
            Metric::Qtm => Some(cube.corner_parity()),
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
        assert_eq!(Metric::from_name("stm"), None);
        // "1 quarter turn", never "1 quarter turns" (issue 104).
        assert_eq!(Metric::Qtm.unit_for(1), "quarter turn");
        assert_eq!(Metric::Htm.unit_for(1), "move");
        assert_eq!(Metric::Htm.unit_for(0), "moves");
        assert_eq!(Metric::Qtm.unit_for(2), "quarter turns");
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
