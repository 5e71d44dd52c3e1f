//! Optimal solving in a move subset (`solve --moveset "R U"`): the fewest turns *of the subset*
//! that solve a position, in the half-turn metric (each listed turn counts one).
//!
//! [`MoveSet`] is the subset: a bare face letter stands for its three turns (`R` = `R R2 R'`,
//! as in the group `<R,U>`), a turn with a suffix (`F2`, `B'`) for itself only; `"U D R L F2
//! B2"` is the group of Kociemba's second phase.
//!
//! The search is IDA* over *syllables*: a syllable is what one axis does between turns of other
//! axes, the lower face's rotation then the opposite face's (they commute), each rotation written
//! as its shortest word in the subset's turns of that face (`R R` when `R2` is not in the subset).
//! Two syllables in a row are on different axes. Every shortest sequence of the subset can be
//! regrouped into such syllables at the same cost, so searching them is complete; each costs
//! its number of turns.
//!
//! Admissibility: the heuristic is the full cube's (any table set): a position's distance in
//! the subset is never below its distance with all 18 turns, which the tables bound from below.
//! Within an iteration of bound `B`, a node is cut when its cost so far plus its heuristic value
//! exceeds `B`, and the next bound is the smallest such sum; syllables cost 1 or more, so a
//! solution is found only at the first bound that admits it: optimal.
//!
//! Reachability ([`MoveSet::unreachable`]) is decided where it is cheap and exact, from the
//! subset's own move cubes: a piece slot no turn of the subset moves must hold its own piece,
//! unturned; if no turn flips an edge, no edge may be flipped; if none twists a corner, none may
//! be twisted. (For `<R,U>`: two corners and five edges stay put, and no edge flips.) Otherwise a
//! position outside the subset's group is searched until `max_depth`, which the result says.
//!
//! The search runs on one thread, with [`crate::search::Heuristic::value`] for every node: it is
//! plain rather than fast (the 18-move search's lanes, prefetches and work units are not used).

use super::heuristic::Heuristic;
use super::options::{Iteration, SearchOptions, SearchResult};
use crate::cube::{Cube, Face, Move, format_moves};
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
use std::time::Instant;

/// A subset of the 18 turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveSet {
    /// Bit `m.index()` for each turn `m` of the subset.
    mask: u32,
}

/// One syllable: an axis, the turns it makes and what they do.
#[derive(Clone, Debug)]
struct Syllable {
    axis: usize,
    moves: Vec<Move>,
    cube: Cube,
    inverse: Cube,
}

impl MoveSet {
    /// Reads a subset: whitespace- or comma-separated tokens, each a face letter (its three
    /// turns) or one turn (`R2`, `F'`). The error names the first bad token.
    pub fn parse(text: &str) -> Result<MoveSet, String> {
        let mut mask = 0u32;
        for token in text.split(|c: char| c.is_whitespace() || c == ',') {
            if token.is_empty() {
                continue;
            }
            let mut chars = token.chars();
            let bits = match (chars.next().and_then(Face::from_letter), chars.next()) {
                (Some(f), None) => 0b111 << (3 * f as u32),
                _ => match crate::cube::parse_moves(token).as_deref() {
                    Ok([m]) => 1 << m.index(),
                    _ => {
                        return Err(format!(
                            "bad move-set token {token:?}: write a face (U R F D L B) for its \
                             three turns, or one turn (R2, F')"
                        ));
                    }
                },
            };
            mask |= bits;
        }
        if mask == 0 {
            return Err("the move set is empty: list faces (\"R U\") or turns (\"F2 B2\")".into());
        }
        Ok(MoveSet { mask })
    }

    /// All 18 turns.
    pub const ALL: MoveSet = MoveSet {
        mask: (1 << 18) - 1,
    };

    /// Is `m` in the subset?
    pub fn contains(&self, m: Move) -> bool {
        self.mask >> m.index() & 1 != 0
    }

    /// The subset's turns in index order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        Move::all().filter(|m| self.contains(*m))
    }

    /// Why `cube` cannot be solved with these turns, when a cheap exact test shows it
    /// (module docs); `None` says only that those tests pass.
    pub fn unreachable(&self, cube: &Cube) -> Option<String> {
        let turns: Vec<Cube> = self.moves().map(|m| *m.cube()).collect();
        // Each piece slot as (kind, name, its piece and orientation in a cube).
        type Slot = fn(&Cube, usize) -> (u8, u8);
        let corner: Slot = |c, i| (c.corner_perm(i), c.corner_ori(i));
        let edge: Slot = |c, i| (c.edge_perm(i), c.edge_ori(i));
        let slots = (crate::cube::CORNER_NAMES
            .iter()
            .enumerate()
            .map(|(i, n)| ("corner", n, i, corner)))
        .chain(
            crate::cube::EDGE_NAMES
                .iter()
                .enumerate()
                .map(|(i, n)| ("edge", n, i, edge)),
        );
        for (kind, name, i, read) in slots {
            let solved = (i as u8, 0);
            if turns.iter().all(|t| read(t, i) == solved) && read(cube, i) != solved {
                return Some(format!(
                    "no turn of the move set moves the {name} {kind}, which is not solved"
                ));
            }
        }
        let flips = turns.iter().any(|t| t.eo().iter().any(|&o| o != 0));
        if !flips && cube.eo().iter().any(|&o| o != 0) {
            return Some("no turn of the move set flips an edge, and some edge is flipped".into());
        }
        let twists = turns.iter().any(|t| t.co().iter().any(|&o| o != 0));
        if !twists && cube.co().iter().any(|&o| o != 0) {
            return Some(
                "no turn of the move set twists a corner, and some corner is twisted".into(),
            );
        }
        None
    }

    /// The shortest word of this subset's turns of `face` that turns it by `r` quarter turns
    /// clockwise (`r` in 1..4), if any: breadth-first over the four rotations, turns tried in
    /// index order, so the word is the same every time.
    fn word(&self, face: usize, r: u8) -> Option<Vec<Move>> {
        let turns: Vec<Move> = (0..3)
            .map(|p| Move::from_index(3 * face + p))
            .filter(|m| self.contains(*m))
            .collect();
        let mut words: [Option<Vec<Move>>; 4] = [Some(vec![]), None, None, None];
        let mut frontier = vec![0u8];
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &at in &frontier {
                for &m in &turns {
                    let to = (at + m.index() as u8 % 3 + 1) % 4;
                    if words[to as usize].is_none() {
                        let mut w = words[at as usize].clone().expect("reached");
                        w.push(m);
                        words[to as usize] = Some(w);
                        next.push(to);
                    }
                }
            }
            frontier = next;
        }
        words[r as usize].clone()
    }

    /// Every syllable of the subset (module docs), by axis, then the lower face's rotation,
    /// then the upper's.
    fn syllables(&self) -> Vec<Syllable> {
        let mut out = Vec::new();
        for axis in 0..3 {
            for lo in 0..4u8 {
                for hi in 0..4u8 {
                    if lo == 0 && hi == 0 {
                        continue;
                    }
                    let word = |face, r| {
                        if r == 0 {
                            Some(vec![])
                        } else {
                            self.word(face, r)
                        }
                    };
                    let (Some(a), Some(b)) = (word(axis, lo), word(axis + 3, hi)) else {
                        continue;
                    };
                    let moves: Vec<Move> = a.into_iter().chain(b).collect();
                    let cube = Cube::from_moves(&moves);
                    out.push(Syllable {
                        axis,
                        inverse: cube.inverse(),
                        cube,
                        moves,
                    });
                }
            }
        }
        out
    }
}

impl std::fmt::Display for MoveSet {
    /// Faces with all three turns by their letter, other turns one by one: `R U`, `U D R L F2 B2`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut words = Vec::new();
        for face in Face::ALL {
            let bits = self.mask >> (3 * face as u32) & 0b111;
            if bits == 0b111 {
                words.push(face.letter().to_string());
            } else {
                let turns: Vec<Move> = (0..3)
                    .filter(|p| bits >> p & 1 != 0)
                    .map(|p| Move::from_index(3 * face as usize + p))
                    .collect();
                if !turns.is_empty() {
                    words.push(format_moves(&turns));
                }
            }
        }
        write!(f, "{}", words.join(" "))
    }
}

/// Finds a shortest solution of `cube` with the turns of `set` (module docs); `opts` gives
/// `max_depth` and `dual` (threads are not used). The caller checks [`MoveSet::unreachable`]
/// first; an unreachable position ends at `max_depth` without a solution.
pub fn solve_in(
    h: &Heuristic,
    cube: &Cube,
    set: &MoveSet,
    opts: &SearchOptions,
    stop: &AtomicBool,
) -> SearchResult {
    let start = Instant::now();
    let mut result = SearchResult::begun();
    let mut search = Search {
        h,
        dual: opts.dual,
        syllables: set.syllables(),
        path: Vec::new(),
        nodes: 0,
        min_exceeded: u8::MAX,
        stop,
    };
    if cube.is_solved() {
        result.solved(vec![vec![]]);
        return result;
    }
    let q = cube.inverse();
    let mut bound = h.value(cube, &q, opts.dual).max(1);
    loop {
        result.lower_bound = bound;
        if bound > opts.max_depth {
            break;
        }
        let t = Instant::now();
        search.nodes = 0;
        search.min_exceeded = u8::MAX;
        let found = search.dfs(cube, &q, 0, bound, 3);
        result.nodes += search.nodes;
        result.iterations.push(Iteration {
            bound,
            nodes: search.nodes,
            seconds: t.elapsed().as_secs_f64(),
        });
        if found {
            let s: Vec<Move> = search
                .path
                .iter()
                .flat_map(|&k| search.syllables[k].moves.clone())
                .collect();
            debug_assert_eq!(s.len(), bound as usize);
            result.solved(vec![s]);
            break;
        }
        if stop.load(Relaxed) {
            result.interrupted = true;
            break;
        }
        // Every path is cut somewhere (each syllable costs at least 1), so this is set.
        bound = search.min_exceeded;
    }
    result.seconds = start.elapsed().as_secs_f64();
    result
}

/// One iteration's depth-first search over syllables.
struct Search<'a> {
    h: &'a Heuristic,
    dual: bool,
    syllables: Vec<Syllable>,
    /// The syllables from the root to the current node (indices into `syllables`).
    path: Vec<usize>,
    nodes: u64,
    min_exceeded: u8,
    stop: &'a AtomicBool,
}

impl Search<'_> {
    /// Searches below the node `p` (inverse `q`) reached at cost `g` after a syllable on
    /// `last_axis` (3: none); true when a solution of cost `bound` is on `path`.
    fn dfs(&mut self, p: &Cube, q: &Cube, g: u8, bound: u8, last_axis: usize) -> bool {
        if self.nodes & 0xffff == 0 && self.stop.load(Relaxed) {
            return false;
        }
        for k in 0..self.syllables.len() {
            let s = &self.syllables[k];
            if s.axis == last_axis {
                continue;
            }
            let g2 = g + s.moves.len() as u8;
            if g2 > bound {
                self.min_exceeded = self.min_exceeded.min(g2);
                continue;
            }
            let (p2, q2) = (p.compose(&s.cube), s.inverse.compose(q));
            self.nodes += 1;
            if p2.is_solved() {
                // The earlier iterations were complete, so g2 is this bound (module docs).
                self.path.push(k);
                return true;
            }
            let f = g2 + self.h.value(&p2, &q2, self.dual);
            if f > bound {
                self.min_exceeded = self.min_exceeded.min(f);
                continue;
            }
            let axis = s.axis;
            self.path.push(k);
            if self.dfs(&p2, &q2, g2, bound, axis) {
                return true;
            }
            self.path.pop();
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Rng, parse_moves};
    use std::collections::HashMap;

    /// Exact distances with the subset's turns: breadth-first from solved to `radius` by the
    /// turns' inverses (the positions those turns solve in `d`: the subset need not hold an
    /// inverse), then, for a position, the least `k + d` over the positions `k ≤ radius` subset
    /// turns away that lie at distance `d` (so exact up to `2 * radius`).
    struct SubsetBall {
        set: MoveSet,
        radius: u8,
        dist: HashMap<Cube, u8>,
    }

    impl SubsetBall {
        fn new(set: MoveSet, radius: u8) -> SubsetBall {
            let mut dist = HashMap::from([(Cube::SOLVED, 0)]);
            let mut frontier = vec![Cube::SOLVED];
            for d in 1..=radius {
                let mut next = Vec::new();
                for c in &frontier {
                    for m in set.moves() {
                        let n = c.apply(m.inverse());
                        if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(n) {
                            e.insert(d);
                            next.push(n);
                        }
                    }
                }
                frontier = next;
            }
            SubsetBall { set, radius, dist }
        }

        fn distance(&self, c: &Cube) -> Option<u8> {
            let mut best = None;
            let mut layer = vec![*c];
            for k in 0..=self.radius {
                for x in &layer {
                    if let Some(&d) = self.dist.get(x) {
                        best = Some(best.map_or(k + d, |b: u8| b.min(k + d)));
                    }
                }
                layer = layer
                    .iter()
                    .flat_map(|x| self.set.moves().map(move |m| x.apply(m)))
                    .collect();
                if layer.len() > 2_000_000 {
                    break;
                }
            }
            best
        }
    }

    fn walk(set: &MoveSet, rng: &mut Rng, n: usize) -> Cube {
        let moves: Vec<Move> = set.moves().collect();
        let seq: Vec<Move> = (0..n)
            .map(|_| moves[rng.below(moves.len() as u64) as usize])
            .collect();
        Cube::from_moves(&seq)
    }

    #[test]
    fn move_sets_parse_and_print() {
        let ru = MoveSet::parse("R U").unwrap();
        assert_eq!(ru.moves().count(), 6);
        assert_eq!(MoveSet::parse("R U R' U'").unwrap(), ru);
        assert!(MoveSet::parse("r,U").unwrap_err().contains("\"r\""));
        let g1 = MoveSet::parse("U D R L F2 B2").unwrap();
        assert_eq!(g1.moves().count(), 14);
        assert_eq!(g1.to_string(), "U R F2 D L B2");
        assert_eq!(MoveSet::parse("F2 F'").unwrap().to_string(), "F2 F'");
        assert!(MoveSet::parse(" , ").unwrap_err().contains("empty"));
        assert!(MoveSet::parse("R3").unwrap_err().contains("\"R3\""));
        assert_eq!(MoveSet::parse("U R F D L B").unwrap(), MoveSet::ALL);
    }

    /// A face's rotations by the shortest words of the subset: `R2` is `R R` without `R2`.
    #[test]
    fn syllables_use_the_shortest_words() {
        let quarter = MoveSet::parse("R' U'").unwrap();
        let w = |r| quarter.word(1, r).map(|w| format_moves(&w));
        assert_eq!(w(3).as_deref(), Some("R'"));
        assert_eq!(w(2).as_deref(), Some("R' R'"));
        assert_eq!(w(1).as_deref(), Some("R' R' R'"));
        assert_eq!(
            MoveSet::parse("R U")
                .unwrap()
                .word(1, 2)
                .map(|w| format_moves(&w))
                .as_deref(),
            Some("R2")
        );
        // Axes U/D and R/L each: 3 rotations of the one face.
        assert_eq!(quarter.syllables().len(), 6);
        // All turns: 15 syllables an axis.
        assert_eq!(MoveSet::ALL.syllables().len(), 45);
        for s in MoveSet::ALL.syllables() {
            assert!(s.moves.len() <= 2 && s.cube == Cube::from_moves(&s.moves));
        }
    }

    /// Lengths equal the exact subset distance of breadth-first search, for random positions
    /// of `<R,U>`, `<U,D,R,L,F2,B2>` and `R' U'` (quarter turns one way only) within 8 turns;
    /// every solution uses only the subset's turns and solves its position.
    #[test]
    fn subset_lengths_are_exact() {
        let h = crate::testing::korf6();
        let stop = AtomicBool::new(false);
        let mut rng = Rng::new(41);
        for (text, radius) in [("R U", 5), ("U D R L F2 B2", 4), ("R' U'", 6)] {
            let set = MoveSet::parse(text).unwrap();
            let ball = SubsetBall::new(set, radius);
            let mut longer = 0;
            for k in 0..12 {
                let c = walk(&set, &mut rng, 3 + k % 7);
                let Some(d) = ball.distance(&c) else {
                    continue;
                };
                assert_eq!(set.unreachable(&c), None, "{text}");
                let r = solve_in(h, &c, &set, &SearchOptions::default(), &stop);
                let s = r.solution.expect("a solution");
                assert!(r.optimal && s.iter().all(|m| set.contains(*m)), "{text}");
                assert!(c.apply_seq(&s).is_solved(), "{text}");
                assert_eq!(s.len() as u8, d, "{text}: {}", format_moves(&s));
                let full = crate::search::solve(h, &c, &SearchOptions::default(), &stop);
                longer += usize::from(full.solution.unwrap().len() < s.len());
            }
            if text == "R' U'" {
                assert!(longer > 0, "the one-way subset never needed more turns");
            }
        }
    }

    /// The 100 positions of `benches/positions/ru-100.txt` solved in `<R,U>` with `korf6` have
    /// their exact `<R,U>` distance: breadth-first to 10 turns (about 1.5 M positions), then
    /// walks of up to 10 turns that alternate faces (so exact to 20). Ignored by default (about
    /// a minute); prints each distance.
    #[test]
    #[ignore]
    fn ru_benchmark_lengths_are_exact() {
        let set = MoveSet::parse("R U").unwrap();
        let ball = SubsetBall::new(set, 10);
        let text = std::fs::read_to_string("benches/positions/ru-100.txt").unwrap();
        let stop = AtomicBool::new(false);
        let opts = SearchOptions {
            max_depth: 30,
            ..SearchOptions::default()
        };
        let faces = [[0, 1, 2], [3, 4, 5]].map(|f| f.map(Move::from_index));
        for (i, line) in text.lines().filter(|l| !l.starts_with('#')).enumerate() {
            let c = Cube::from_moves(&parse_moves(line).unwrap());
            // Walks that alternate faces, layer by layer: (position, face of the last turn).
            let mut best = u8::MAX;
            let mut layer = vec![(c, 2usize)];
            for k in 0..=10u8 {
                for (x, _) in &layer {
                    if let Some(&d) = ball.dist.get(x) {
                        best = best.min(k + d);
                    }
                }
                layer = (layer.iter())
                    .flat_map(|&(x, last)| {
                        (0..2)
                            .filter(move |&f| f != last)
                            .flat_map(move |f| faces[f].map(|m| (x.apply(m), f)))
                    })
                    .collect();
            }
            assert!(best <= 20, "position {i}: beyond 20");
            let r = solve_in(crate::testing::korf6(), &c, &set, &opts, &stop);
            assert_eq!(r.solution.unwrap().len() as u8, best, "position {i}");
            println!("ru-100 {i} {best}");
        }
    }

    /// Positions outside a subset's reach are named by the cheap tests.
    #[test]
    fn unreachable_positions_are_named() {
        let ru = MoveSet::parse("R U").unwrap();
        let f = Cube::from_moves(&parse_moves("F").unwrap());
        assert!(ru.unreachable(&f).unwrap().contains("not solved"));
        let g1 = MoveSet::parse("U D R L F2 B2").unwrap();
        let flipped = Cube::from_moves(&parse_moves("F R F'").unwrap());
        let why = g1.unreachable(&flipped).unwrap_or_default();
        assert!(why.contains("flip") || why.contains("twist"), "{why}");
        let half = MoveSet::parse("U2 D2 R2 L2 F2 B2").unwrap();
        let twisted = Cube::from_moves(&parse_moves("R U R' U R U2 R'").unwrap());
        assert!(half.unreachable(&twisted).is_some());
        assert_eq!(
            ru.unreachable(&Cube::from_moves(&parse_moves("R U2 R'").unwrap())),
            None
        );
    }
}
