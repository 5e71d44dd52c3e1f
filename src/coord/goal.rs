//! A goal as solutions are checked against it: a [`Goal`] held in one whole-cube orientation,
//! or in any of the 24 (`--any-orientation`, colour neutrality). A position meets the goal
//! held in orientation `S` when `S⁻¹ P S` meets it ([`conjugate`]).

use super::symmetry::{Symmetries, symmetries};
use crate::cube::{Axis, Cube, Face, Goal, Move};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// A goal as a solution is checked against it: the goal, and whether any whole-cube
/// orientation of it counts.
#[derive(Clone, Debug, PartialEq)]
pub struct GoalCheck {
    pub goal: Goal,
    pub any_orientation: bool,
}

impl GoalCheck {
    /// The rotations (indices of [`crate::coord::symmetry::Symmetries`]) that hold the goal as
    /// asked, grouped by the set of positions each accepts ([`frame_groups`]): every group in
    /// any orientation; else the one group of the rotation that holds the goal's axis as F/B
    /// ([`axis_frame`]; the identity for F/B), that rotation first. A position meets the goal
    /// when its conjugate by the first rotation of some group does; and since every rotation
    /// of a group accepts the same positions, each one's tables bound the distance to them.
    pub fn frame_groups(&self) -> Vec<Vec<usize>> {
        let groups = frame_groups(&self.goal);
        if self.any_orientation {
            return groups;
        }
        let frame = axis_frame(self.goal.axis());
        let mut group = groups
            .into_iter()
            .find(|g| g.contains(&frame))
            .expect("every rotation is in a group");
        group.retain(|&s| s != frame);
        group.insert(0, frame);
        vec![group]
    }

    /// The first rotation of each of [`GoalCheck::frame_groups`]: the conjugates tried.
    pub fn frames(&self) -> Vec<usize> {
        self.frame_groups().iter().map(|g| g[0]).collect()
    }

    /// Does `cube` meet the goal (in some orientation, when any counts)?
    pub fn holds(&self, cube: &Cube) -> bool {
        let syms = symmetries();
        self.frames()
            .into_iter()
            .any(|s| self.goal.holds(&conjugate(syms, cube, s)))
    }

    /// Checks that the position meets the precondition of the goal (`ll` needs `f2l`), in the
    /// same orientation terms; the error says what is missing.
    pub fn precondition(&self, cube: &Cube) -> Result<(), String> {
        match self.goal.requires() {
            Some(pre) => {
                let check = GoalCheck {
                    goal: pre.clone(),
                    any_orientation: self.any_orientation,
                };
                if check.holds(cube) {
                    Ok(())
                } else {
                    Err(format!(
                        "goal {} starts from a position that meets {}, and this one does not",
                        self.goal.name(),
                        pre.name()
                    ))
                }
            }
            None => Ok(()),
        }
    }
}

/// The 24 rotations (even symmetry indices) grouped by how they hold `goal`: in order, each
/// group the rotations whose goal is the same set of positions, its first rotation first.
/// Rotations `s` and `t` hold it the same way when the positions `P` with `S⁻¹ P S` meeting the
/// goal are the positions with `T⁻¹ P T` meeting it. Each set is the goal's group of
/// positions ([`Goal::generators`]) carried by a conjugation, so the two are equally large,
/// and equal when every generator carried into `s`'s set meets the goal in `t`. (The cross:
/// 6 groups, one a face; a 2x2x2 block: 8, the turn about its corner's diagonal keeps it;
/// `eo`: 3, one an axis.) Computed once per goal.
pub fn frame_groups(goal: &Goal) -> Vec<Vec<usize>> {
    static KNOWN: OnceLock<Mutex<HashMap<Goal, Vec<Vec<usize>>>>> = OnceLock::new();
    let known = KNOWN.get_or_init(Default::default);
    if let Some(f) = known.lock().expect("not poisoned").get(goal) {
        return f.clone();
    }
    let syms = symmetries();
    let generators = goal.generators();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for s in (0..48).step_by(2) {
        // `s`'s set: the generators carried back through `S⁻¹ · S`.
        let carried: Vec<Cube> = (generators.iter())
            .map(|g| conjugate(syms, g, syms.inv[s] as usize))
            .collect();
        let same = |t: usize| carried.iter().all(|c| goal.holds(&conjugate(syms, c, t)));
        match groups.iter_mut().find(|g| same(g[0])) {
            Some(g) => g.push(s),
            None => groups.push(vec![s]),
        }
    }
    known
        .lock()
        .expect("not poisoned")
        .insert(goal.clone(), groups.clone());
    groups
}

/// The rotation `s` for which `S_s⁻¹ P S_s` has its edges oriented in Kociemba's sense (about
/// F/B) exactly when `P`'s are oriented about `axis`: the one whose conjugate of a quarter
/// turn flips edges for that axis's faces and for no other (found once among the 24, by that
/// property, rather than written down as an index).
pub fn axis_frame(axis: Axis) -> usize {
    static FRAMES: OnceLock<[usize; 3]> = OnceLock::new();
    let frames = FRAMES.get_or_init(|| {
        let syms = symmetries();
        let flips = |f: Face, s: usize| {
            let c = conjugate(syms, Move::new(f, 1).cube(), s);
            (0..12).any(|i| c.edge_ori(i) != 0)
        };
        let find = |face: Face| {
            (0..48)
                .step_by(2)
                .find(|&s| {
                    [Face::U, Face::R, Face::F]
                        .iter()
                        .all(|&f| flips(f, s) == (f == face))
                })
                .expect("a rotation takes every axis onto F/B")
        };
        [0, find(Face::U), find(Face::R)]
    });
    frames[axis as usize]
}

/// `S_s⁻¹ c S_s` (the identity needs no work).
#[inline]
pub fn conjugate(syms: &Symmetries, c: &Cube, s: usize) -> Cube {
    if s == 0 {
        *c
    } else {
        syms.conj_cube(c, syms.inv[s] as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Move, Rng};

    /// `eo-ud` holds on every position the moves that keep U/D edge orientation make (R, L, F,
    /// B and the U/D half turns), and fails after one more U quarter turn; `eo-rl` the same
    /// with U, D, F, B, R2, L2 and an R. (A check by the groups, not by the frames: the
    /// moves are applied to the raw cube.)
    #[test]
    fn eo_about_each_axis_is_kept_by_its_group() {
        let mut rng = Rng::new(77);
        let turns = |quarter: [Face; 4], half: [Face; 2]| -> Vec<Move> {
            let q = quarter.map(|f| Move::new(f, 1));
            q.into_iter().chain(half.map(|f| Move::new(f, 2))).collect()
        };
        use Face::{B, D, F, L, R, U};
        for (name, group, breaker) in [
            ("eo-ud", turns([R, L, F, B], [U, D]), Move::new(U, 1)),
            ("eo-rl", turns([U, D, F, B], [R, L]), Move::new(R, 1)),
        ] {
            let check = GoalCheck {
                goal: Goal::named(name).unwrap(),
                any_orientation: false,
            };
            let eo = GoalCheck {
                goal: Goal::named("eo").unwrap(),
                any_orientation: false,
            };
            let mut fb_oriented = 0;
            for _ in 0..200 {
                let seq: Vec<Move> = (0..20).map(|_| group[rng.below(6) as usize]).collect();
                let c = Cube::SOLVED.apply_seq(&seq);
                assert!(check.holds(&c), "{name} after {seq:?}");
                assert!(
                    !check.holds(&c.apply(breaker)),
                    "{name} after {seq:?} {breaker}"
                );
                fb_oriented += eo.holds(&c) as u32;
            }
            // The axes differ: most of these positions are not oriented about F/B.
            assert!(
                fb_oriented < 50,
                "{name}: {fb_oriented} of 200 also F/B-oriented"
            );
        }
    }

    /// In any orientation, the distinct rotations are as many as the goal's shape allows
    /// (counted by hand from its symmetry), and they accept exactly what all 24 accept: every
    /// position that meets the goal in some rotation (products of the goal's generators carried
    /// by it), and random positions.
    #[test]
    fn distinct_frames_accept_what_all_24_accept() {
        let syms = symmetries();
        let mut rng = Rng::new(5);
        for (name, count) in [
            ("cross", 6),
            ("xcross", 24),
            ("2x2x2", 8),
            ("2x2x3", 12),
            ("f2l", 6),
            ("f2l-1", 24),
            ("eo", 3),
            ("eo-ud", 3),
            ("dr", 3),
            ("htr", 1),
            ("corners", 1),
            ("edges", 1),
        ] {
            let goal = Goal::named(name).unwrap();
            let check = GoalCheck {
                goal: goal.clone(),
                any_orientation: true,
            };
            let frames = check.frames();
            assert_eq!(frames.len(), count, "{name}: {frames:?}");
            let fixed = GoalCheck {
                any_orientation: false,
                ..check.clone()
            };
            assert_eq!(fixed.frame_groups()[0].len(), 24 / count, "{name}");
            let all24 = |c: &Cube| {
                (0..48)
                    .step_by(2)
                    .any(|s| goal.holds(&conjugate(syms, c, s)))
            };
            let generators = goal.generators();
            for _ in 0..200 {
                let mut q = Cube::SOLVED;
                for _ in 0..30 {
                    q = q.compose(&generators[rng.below(generators.len() as u64) as usize]);
                }
                let r = 2 * rng.below(24) as usize;
                let p = conjugate(syms, &q, syms.inv[r] as usize);
                assert!(goal.holds(&conjugate(syms, &p, r)), "{name}: carried");
                assert!(check.holds(&p), "{name}: met in rotation {r}");
                let c = Cube::random(&mut rng);
                assert_eq!(check.holds(&c), all24(&c), "{name}");
            }
        }
    }
}
