//! The exact distance table of the group `<R,U>`: every one of its 73,483,200 positions with
//! its distance in R and U turns (half-turn metric), a byte each, built by the crate's one
//! breadth-first search ([`crate::pdb::bfs`]) in seconds.
//!
//! The coordinate ([`RuSpace`]): R and U move six corners and seven edges and never flip an
//! edge. Of the 720 arrangements of the six corners, `<R,U>` makes 120 (numbered in the order
//! a breadth-first search over the corners meets them); the twists of the first five corners
//! give 3^5 = 243 values (the sixth makes the sum 0 mod 3); the edges' arrangement is ranked by
//! its first five pieces, 7·6·5·4·3 = 2,520 values, because the last two follow from the
//! permutation parity, which equals the corners'. An index is
//! `(arrangement · 243 + twist) · 2520 + edges`: 120 · 243 · 2520 = 73,483,200, the order of the
//! group, and the search reaches every index (checked when the table is built), so the
//! coordinate is a bijection and a position outside the group is one whose coordinate cannot be
//! read ([`RuSpace::index`] says why).
//!
//! As a block layout ([`crate::pdb::layout::Layout`]): a block per corner value (29,160), the edge
//! rank inside it; a turn maps a block to one block and the edge ranks by a table over (rank,
//! parity of the block's arrangement).
//!
//! The table is the file `moveset-ru.pdb` in the table directory, in the one table format
//! ([`crate::pdb::file`]), built on first use. Other move sets that are `<R,U>` up to a symmetry of
//! the cube (any two adjacent faces with all their turns) read it through conjugation
//! (`search::subset`).

use std::path::Path;
use std::sync::OnceLock;

use crate::cube::{Cube, Move, parity};
use crate::pdb::bfs::bfs;
use crate::pdb::cells::ByteCells;
use crate::pdb::file::{self, Packing, TableError, TableKind};
use crate::pdb::layout::Layout;
use crate::progress::{Progress, ProgressMode};
use crate::rank::{PartialPerm, permutation, rank_digits, unrank_digits};

/// The table's name, and its file's (`moveset-ru.pdb`).
pub const TABLE_NAME: &str = "moveset-ru";

/// Positions of `<R,U>`: the table's entries.
pub const ENTRIES: u64 = ARRANGEMENTS as u64 * TWISTS as u64 * EDGE_RANKS as u64;

/// Version of the table's contents; bump it when the coordinate changes.
const TABLE_VERSION: u32 = 1;

const ARRANGEMENTS: usize = 120;
const TWISTS: usize = 243;
const CORNER_VALUES: usize = ARRANGEMENTS * TWISTS;
const EDGE_RANKS: usize = 2520;
/// Marks an arrangement of the six corners that `<R,U>` does not make.
const NONE: u8 = u8::MAX;

/// The turns of `<R,U>` in move-index order: `U U2 U' R R2 R'`.
pub const MOVES: [Move; 6] = [
    Move::from_index(0),
    Move::from_index(1),
    Move::from_index(2),
    Move::from_index(3),
    Move::from_index(4),
    Move::from_index(5),
];

/// The `<R,U>` coordinate and its move tables (module docs).
pub struct RuSpace {
    /// The slots R or U move, ascending.
    corner_slots: [usize; 6],
    edge_slots: [usize; 7],
    /// The number of each arrangement of the six corners (by its rank among the 720), or [`NONE`].
    number: Vec<u8>,
    /// The arrangements by number: `arrangement[a][i]` is the local piece in corner slot `i`.
    arrangement: Vec<[u8; 6]>,
    /// The corner value reached by each turn: `corner_move[k * 6 + j]`.
    corner_move: Vec<u16>,
    /// The edge rank reached by each turn, by (rank, parity): `edge_move[(x * 2 + p) * 6 + j]`.
    edge_move: Vec<u16>,
}

/// The slots that some turn of `moves` moves, ascending: corners, then edges.
fn moved_slots(moves: &[Move]) -> (Vec<usize>, Vec<usize>) {
    let corners = (0..8)
        .filter(|&i| moves.iter().any(|m| m.cube().corner_perm(i) != i as u8))
        .collect();
    let edges = (0..12)
        .filter(|&i| moves.iter().any(|m| m.cube().edge_perm(i) != i as u8))
        .collect();
    (corners, edges)
}

impl RuSpace {
    /// The coordinate, built once (a few milliseconds).
    pub fn get() -> &'static RuSpace {
        static SPACE: OnceLock<RuSpace> = OnceLock::new();
        SPACE.get_or_init(RuSpace::new)
    }

    fn new() -> RuSpace {
        let (c, e) = moved_slots(&MOVES);
        let mut space = RuSpace {
            corner_slots: c.try_into().expect("R and U move six corners"),
            edge_slots: e.try_into().expect("R and U move seven edges"),
            number: vec![NONE; 720],
            arrangement: Vec::with_capacity(ARRANGEMENTS),
            corner_move: vec![0; CORNER_VALUES * 6],
            edge_move: vec![0; EDGE_RANKS * 2 * 6],
        };
        // The arrangements in the order a breadth-first search over the corners meets them.
        let perm6 = permutation(6);
        let mut queue = vec![Cube::SOLVED];
        let mut at = 0;
        while at < queue.len() {
            let c = queue[at];
            at += 1;
            let local = space
                .corner_locals(&c)
                .expect("R and U keep the corners in place");
            let r = perm6.rank(&local) as usize;
            if space.number[r] != NONE {
                continue;
            }
            space.number[r] = space.arrangement.len() as u8;
            space.arrangement.push(local);
            queue.extend(MOVES.iter().map(|&m| c.apply(m)));
        }
        assert_eq!(
            space.arrangement.len(),
            ARRANGEMENTS,
            "<R,U> corner arrangements"
        );
        for k in 0..CORNER_VALUES {
            let c = space.corner_cube(k);
            for (j, &m) in MOVES.iter().enumerate() {
                space.corner_move[k * 6 + j] = space
                    .corner_value(&c.apply(m))
                    .expect("a turn stays in <R,U>")
                    as u16;
            }
        }
        for x in 0..EDGE_RANKS {
            for p in 0..2 {
                let c = space.edge_cube(x, p as u8);
                for (j, &m) in MOVES.iter().enumerate() {
                    let (y, _) = space
                        .edge_value(&c.apply(m))
                        .expect("a turn stays in <R,U>");
                    space.edge_move[(x * 2 + p) * 6 + j] = y as u16;
                }
            }
        }
        space
    }

    /// The local number (0..6) of the corner in each of the six slots, if all six are there.
    fn corner_locals(&self, c: &Cube) -> Option<[u8; 6]> {
        let mut out = [0u8; 6];
        for (i, &s) in self.corner_slots.iter().enumerate() {
            let piece = c.corner_perm(s) as usize;
            out[i] = self.corner_slots.iter().position(|&t| t == piece)? as u8;
        }
        Some(out)
    }

    /// The corner value (arrangement · 243 + twist), if the six corners are in an arrangement
    /// of `<R,U>`.
    fn corner_value(&self, c: &Cube) -> Option<usize> {
        let local = self.corner_locals(c)?;
        let a = self.number[permutation(6).rank(&local) as usize];
        if a == NONE {
            return None;
        }
        let twists: Vec<u8> = self.corner_slots[..5]
            .iter()
            .map(|&s| c.corner_ori(s))
            .collect();
        Some(a as usize * TWISTS + rank_digits(&twists, 3) as usize)
    }

    /// The edges' rank (first five pieces) and permutation parity, if the seven edges are in
    /// their slots, unflipped.
    fn edge_value(&self, c: &Cube) -> Option<(usize, u8)> {
        let mut local = [0u8; 7];
        for (i, &s) in self.edge_slots.iter().enumerate() {
            if c.edge_ori(s) != 0 {
                return None;
            }
            let piece = c.edge_perm(s) as usize;
            local[i] = self.edge_slots.iter().position(|&t| t == piece)? as u8;
        }
        Some((PartialPerm::new(7, 5).rank(&local) as usize, parity(&local)))
    }

    /// A cube with corner value `k` and the edges solved.
    fn corner_cube(&self, k: usize) -> Cube {
        let (a, t) = (k / TWISTS, k % TWISTS);
        let mut twists = [0u8; 6];
        unrank_digits(t as u32, 3, &mut twists[..5]);
        twists[5] = (3 - twists[..5].iter().sum::<u8>() % 3) % 3;
        let (mut cp, mut co) = (Cube::SOLVED.cp(), [0u8; 8]);
        for (i, &s) in self.corner_slots.iter().enumerate() {
            cp[s] = self.corner_slots[self.arrangement[a][i] as usize] as u8;
            co[s] = twists[i];
        }
        Cube::from_parts(cp, co, Cube::SOLVED.ep(), [0; 12])
    }

    /// A cube with the edges of rank `x` and parity `p`, the corners solved (a parity other
    /// than the corners' makes no real cube; the move tables only read its edges).
    fn edge_cube(&self, x: usize, p: u8) -> Cube {
        let mut local = [0u8; 7];
        PartialPerm::new(7, 5).unrank(x as u64, &mut local[..5]);
        let rest: Vec<u8> = (0..7).filter(|e| !local[..5].contains(e)).collect();
        local[5..].copy_from_slice(&rest);
        if parity(&local) != p {
            local.swap(5, 6);
        }
        let mut ep = Cube::SOLVED.ep();
        for (i, &s) in self.edge_slots.iter().enumerate() {
            ep[s] = self.edge_slots[local[i] as usize] as u8;
        }
        Cube::from_parts(Cube::SOLVED.cp(), [0; 8], ep, [0; 12])
    }

    /// The index of `c` in the table, or why `c` is not a position of `<R,U>`.
    pub fn index(&self, c: &Cube) -> Result<u64, String> {
        for s in 0..8 {
            if !self.corner_slots.contains(&s) && c.corner_perm(s) as usize != s
                || !self.corner_slots.contains(&s) && c.corner_ori(s) != 0
            {
                return Err("a corner the two faces never move is not solved".into());
            }
        }
        for s in 0..12 {
            if !self.edge_slots.contains(&s) && (c.edge_perm(s) as usize != s || c.edge_ori(s) != 0)
            {
                return Err("an edge the two faces never move is not solved".into());
            }
        }
        if c.corner_twist_sum() != 0 {
            return Err("the corner twists do not add up to 0 mod 3".into());
        }
        let k = self.corner_value(c).ok_or(
            "the six corners the two faces turn are in an arrangement their turns cannot make \
             (they make 120 of the 720)",
        )?;
        let (x, p) = self
            .edge_value(c)
            .ok_or("an edge is flipped, which turns of two faces never do")?;
        if p != parity(&self.arrangement[k / TWISTS]) {
            return Err("corner and edge permutations differ in parity".into());
        }
        Ok((k * EDGE_RANKS + x) as u64)
    }
}

impl Layout for RuSpace {
    const INNER: u32 = EDGE_RANKS as u32;
    /// The block's corner value.
    type Pos = u32;
    /// The turn (index into [`MOVES`]) and the parity of the block's arrangement.
    type Map = (u8, u8);

    fn blocks(&self) -> u64 {
        CORNER_VALUES as u64
    }

    #[inline(always)]
    fn moves(&self) -> usize {
        6
    }

    #[inline]
    fn positions(&self, b: u64) -> u32 {
        b as u32
    }

    #[inline]
    fn image(&self, k: &u32, j: usize) -> (u64, (u8, u8)) {
        let k = *k as usize;
        let p = parity(&self.arrangement[k / TWISTS]);
        (self.corner_move[k * 6 + j] as u64, (j as u8, p))
    }

    #[inline(always)]
    fn apply(&self, (j, p): (u8, u8), x: u32) -> u32 {
        self.edge_move[(x as usize * 2 + p as usize) * 6 + j as usize] as u32
    }
}

/// The exact `<R,U>` distances (module docs).
pub struct RuTable {
    space: &'static RuSpace,
    dist: Vec<u8>,
    histogram: Vec<u64>,
}

impl RuTable {
    /// What the table file must hold.
    pub fn kind() -> TableKind {
        TableKind {
            name: TABLE_NAME.into(),
            version: TABLE_VERSION,
            pieces: "<R,U>: corner arrangement (120) x twist (243) x edge arrangement (2520), \
                     exact distance"
                .into(),
            entries: ENTRIES,
            packing: Packing::Bits(8),
            rebuild: "optcube solve --moveset \"R U\" --pdb-dir {dir} R".into(),
            metric: crate::cube::Metric::Htm,
        }
    }

    /// Builds the table in memory, on the current rayon pool (seconds), reporting to
    /// `progress` (entries known) if given.
    ///
    /// # Panics
    /// If the search does not reach every index (the coordinate would be wrong).
    pub fn build(progress: Option<&Progress>) -> RuTable {
        let space = RuSpace::get();
        let cells = ByteCells::new(ENTRIES as usize);
        let start = space.index(&Cube::SOLVED).expect("solved is in <R,U>");
        let histogram = bfs(space, &cells, start, TABLE_NAME, progress);
        assert_eq!(
            histogram.iter().sum::<u64>(),
            ENTRIES,
            "<R,U>: the search must reach every index"
        );
        RuTable {
            space,
            dist: cells.into_bytes().into_vec(),
            histogram,
        }
    }

    /// Opens the table in `dir`, building and saving it (atomically) when its file is missing;
    /// a file that cannot be used is an error naming it, never replaced here.
    pub fn open(dir: &Path, mode: ProgressMode) -> Result<RuTable, TableError> {
        let kind = Self::kind();
        let mut tables = file::open_or_build(
            dir,
            std::slice::from_ref(&kind),
            |path, kind| {
                let (dist, info) = file::load_vec_complete(path, kind)?;
                Ok(RuTable {
                    space: RuSpace::get(),
                    dist,
                    histogram: info.histogram,
                })
            },
            |_| {
                let p = Progress::new(mode, TABLE_NAME, ENTRIES, "positions");
                p.println(&format!(
                    "{TABLE_NAME}: building the exact <R,U> table ({ENTRIES} positions, 73 MB) in {}",
                    dir.display()
                ));
                let t = RuTable::build(Some(&p));
                file::save_payload(
                    &file::table_path(dir, TABLE_NAME),
                    &kind,
                    &t.dist,
                    t.histogram.clone(),
                    "<R,U> breadth-first search",
                )?;
                let secs = p.elapsed();
                p.finish(&format!("built and saved in {secs:.1} s"));
                Ok::<_, TableError>(vec![t])
            },
        )?;
        Ok(tables.pop().expect("one table"))
    }

    /// The number of positions at each distance.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.dist.len()
    }

    /// The exact `<R,U>` distance of `c`, or why `c` is not in the group.
    #[inline]
    pub fn distance(&self, c: &Cube) -> Result<u8, String> {
        Ok(self.dist[self.space.index(c)? as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::parse_moves;

    /// The coordinate reads back what it writes, and a turn moves a corner value and an edge
    /// rank the way the cube does.
    #[test]
    fn coordinate_round_trips_and_follows_turns() {
        let space = RuSpace::get();
        let mut rng = crate::cube::Rng::new(7);
        for _ in 0..300 {
            let seq: Vec<Move> = (0..25).map(|_| MOVES[rng.below(6) as usize]).collect();
            let c = Cube::from_moves(&seq);
            let i = space.index(&c).unwrap() as usize;
            let (k, x) = (i / EDGE_RANKS, i % EDGE_RANKS);
            assert_eq!(space.corner_value(&space.corner_cube(k)), Some(k));
            let p = parity(&space.arrangement[k / TWISTS]);
            assert_eq!(space.edge_value(&space.edge_cube(x, p)), Some((x, p)));
            for (j, &m) in MOVES.iter().enumerate() {
                let n = space.index(&c.apply(m)).unwrap() as usize;
                let (b, map) = space.image(&(k as u32), j);
                assert_eq!(
                    n,
                    b as usize * EDGE_RANKS + space.apply(map, x as u32) as usize
                );
            }
        }
    }

    /// Positions outside the group are named: a moved outside piece, a flip, an arrangement of
    /// the six corners that R and U cannot make (a corner 3-cycle of `<R,U>`'s slots by a
    /// commutator with F).
    #[test]
    fn positions_outside_the_group_are_refused() {
        let space = RuSpace::get();
        let at = |s: &str| Cube::from_moves(&parse_moves(s).unwrap());
        assert!(space.index(&at("F")).unwrap_err().contains("never move"));
        // Swaps two U-layer corners and two U edges: the corners' arrangement.
        let why = space
            .index(&at("R U R' U' R' F R2 U' R' U' R U R' F'"))
            .unwrap_err();
        assert!(why.contains("arrangement"), "{why}");
        let flip = space.index(&at("R U R' U R U2 R' F R U R' U' F'"));
        assert!(flip.is_err());
        assert!(space.index(&at("R U2 R' U'")).is_ok());
    }

    /// The table against an independent breadth-first search over cubes to 8 turns: the same
    /// number of positions at each distance, and each position's entry its distance. Also
    /// prints the whole histogram and the build time.
    #[test]
    fn table_agrees_with_a_search_over_cubes() {
        let table = crate::testing::ru_table();
        println!("<R,U>: {:?}", table.histogram());
        let mut seen = std::collections::HashSet::from([Cube::SOLVED]);
        let mut frontier = vec![Cube::SOLVED];
        for d in 0..=8u8 {
            assert_eq!(
                table.histogram()[d as usize],
                frontier.len() as u64,
                "distance {d}"
            );
            for c in &frontier {
                assert_eq!(table.distance(c), Ok(d));
            }
            let mut next = Vec::new();
            for c in &frontier {
                for &m in &MOVES {
                    let n = c.apply(m);
                    if seen.insert(n) {
                        next.push(n);
                    }
                }
            }
            frontier = next;
        }
    }
}
