//! Brute-force distances, independent of the pattern databases: the reference the heuristic and
//! the IDA* are tested against.
//!
//! [`Ball`] holds every position within `r` moves of solved with its exact distance, from the
//! layered breadth-first search of the full cube in [`crate::cube::packed`] (the one such
//! search). A position's exact distance up to `2r` then follows by meeting in the middle: the
//! least `k + d` over positions `Q` reached from it in `k ≤ r` moves that lie in the ball at
//! distance `d`.

use crate::cube::packed::{for_each_layer, unpack};
use crate::cube::{ALLOWED_AFTER, Cube, Move};
use std::collections::HashMap;

/// All positions within `radius` moves of solved, with their exact distances.
pub struct Ball {
    radius: u8,
    dist: HashMap<Cube, u8>,
}

impl Ball {
    /// Builds the ball by breadth-first search (radius 5: 621,649 positions).
    pub fn new(radius: u8) -> Ball {
        let mut dist = HashMap::new();
        for_each_layer(radius, |d, layer| {
            dist.extend(layer.iter().map(|&k| (unpack(k), d)));
        });
        Ball { radius, dist }
    }

    /// Number of positions at each distance 0..=radius.
    pub fn counts(&self) -> Vec<u64> {
        let mut c = vec![0u64; self.radius as usize + 1];
        for &d in self.dist.values() {
            c[d as usize] += 1;
        }
        c
    }

    /// Every position in the ball with its distance.
    pub fn iter(&self) -> impl Iterator<Item = (&Cube, u8)> {
        self.dist.iter().map(|(c, &d)| (c, d))
    }

    /// The exact distance of `cube` if it is at most `2 * radius`, else `None`.
    pub fn distance(&self, cube: &Cube) -> Option<u8> {
        let mut best: Option<u8> = None;
        self.walk(cube, 0, 6, &mut best);
        best
    }

    /// Every canonical sequence of exactly `len` moves that solves `cube` (the rule of
    /// [`ALLOWED_AFTER`]), sorted: plain depth-first enumeration, cut only where the ball's
    /// exact distances show the rest cannot reach solved in the moves left.
    pub fn all_solutions(&self, cube: &Cube, len: u8) -> Vec<Vec<Move>> {
        let mut out = Vec::new();
        self.enumerate(cube, len, 6, &mut Vec::new(), &mut out);
        out.sort_unstable();
        out
    }

    fn enumerate(
        &self,
        c: &Cube,
        left: u8,
        last_face: usize,
        path: &mut Vec<Move>,
        out: &mut Vec<Vec<Move>>,
    ) {
        if left == 0 {
            if c.is_solved() {
                out.push(path.clone());
            }
            return;
        }
        if left <= self.radius && self.dist.get(c).is_none_or(|&d| d > left) {
            return;
        }
        for m in Move::all() {
            if ALLOWED_AFTER[last_face] & (1 << m.index()) != 0 {
                path.push(m);
                self.enumerate(&c.apply(m), left - 1, m.face_index(), path, out);
                path.pop();
            }
        }
    }

    fn walk(&self, c: &Cube, k: u8, last_face: usize, best: &mut Option<u8>) {
        if let Some(&d) = self.dist.get(c) {
            let total = k + d;
            if best.is_none_or(|b| total < b) {
                *best = Some(total);
            }
        }
        if k == self.radius || best.is_some_and(|b| b <= k + 1) {
            return;
        }
        for m in Move::all() {
            if ALLOWED_AFTER[last_face] & (1 << m.index()) != 0 {
                self.walk(&c.apply(m), k + 1, m.face_index(), best);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Published counts of positions at exact distance 0..=4 in HTM.
    #[test]
    fn ball_counts_match_published() {
        assert_eq!(Ball::new(4).counts(), vec![1, 18, 243, 3240, 43239]);
    }

    #[test]
    fn meet_in_the_middle_distance() {
        let ball = Ball::new(3);
        let seq = crate::cube::parse_moves("R U F D L B").unwrap();
        assert_eq!(ball.distance(&Cube::from_moves(&seq)), Some(6));
        assert_eq!(ball.distance(&Cube::from_moves(&seq[..4])), Some(4));
        assert_eq!(ball.distance(&Cube::SOLVED), Some(0));
        let far = Cube::from_moves(&crate::cube::parse_moves(crate::cube::SUPERFLIP).unwrap());
        assert_eq!(ball.distance(&far), None);
    }

    /// The enumeration finds the sequence a position was made from, and only solutions.
    #[test]
    fn all_solutions_are_solutions() {
        let ball = Ball::new(3);
        let seq = crate::cube::parse_moves("R U F' D2").unwrap();
        let c = Cube::from_moves(&seq);
        let all = ball.all_solutions(&c, 4);
        assert!(all.contains(&crate::cube::invert_sequence(&seq)));
        assert!(all.iter().all(|s| c.apply_seq(s).is_solved()));
        // U D commute: both orders solve `U D`, only the canonical one is listed.
        let ud = Cube::from_moves(&crate::cube::parse_moves("U D").unwrap());
        assert_eq!(ball.all_solutions(&ud, 2).len(), 1);
    }
}
