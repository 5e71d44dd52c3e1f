//! Symmetric positions in the search over syllables: when symmetries `S` of the 48 fix the
//! position (`S P S⁻¹ = P`), the work units that `S` maps onto each other have conjugate
//! subtrees, and only one of each such set is searched (as the half-turn search does,
//! `search::ida`).
//!
//! Why it stays complete. A unit is a path of [`super::SPLIT`] syllables `K`; its image is
//! `S K S⁻¹`, syllable by syllable. A symmetry is used only if it maps every syllable of the
//! search onto a syllable of the search of the same cost ([`UnitSymmetries::of`]): true of
//! every symmetry for all turns in all four metrics (a slice stays a slice, an axial move an
//! axial move), and of some for a subset. Conjugation keeps "two syllables in a row are on
//! different axes", the search's one canonical rule, so if a dropped unit `M = S K S⁻¹` has a
//! solution `M · N`, then `K · S⁻¹ N S` is a canonical solution of `P = S⁻¹ P S` of the same
//! cost inside the kept unit's subtree, which a complete search of it meets (the heuristic
//! is admissible, so no node on that path is cut). Unlike the half-turn search, no ordering
//! of opposite faces has to be relaxed: a syllable holds its whole axis.
//!
//! The unit kept of each set is the one whose path is least among its images, whether or not
//! it survived the top of the tree: if it was cut there, its bound (at most any solution's
//! cost through it, hence through every image) is already in the iteration's least exceeded
//! value, so the next bound is still at most the cost of any solution the dropped units hold.
//!
//! Used only when one solution is wanted (a collecting search lists every canonical
//! solution) and for a target that the symmetries map onto itself (the solved cube,
//! [`super::Target::symmetric`]); goals keep every unit.

use super::Syllable;
use crate::coord::symmetry::symmetries;
use crate::cube::Cube;

/// The symmetries a search may use to drop units: each as the map of syllable indices it
/// induces (none: every unit is searched).
#[derive(Default)]
pub(super) struct UnitSymmetries {
    maps: Vec<Vec<u8>>,
}

impl UnitSymmetries {
    /// The symmetries (other than the identity) that fix `p` and map each of `syllables` onto
    /// one of them of the same cost, with those maps.
    pub(super) fn of(p: &Cube, syllables: &[Syllable]) -> UnitSymmetries {
        let syms = symmetries();
        let maps = (1..48)
            .filter(|&s| syms.conj_cube(p, s) == *p)
            .filter_map(|s| {
                (syllables.iter())
                    .map(|a| {
                        let image = syms.conj_cube(&a.cube, s);
                        (syllables.iter())
                            .position(|b| b.cube == image && b.cost == a.cost)
                            .map(|k| k as u8)
                    })
                    .collect::<Option<Vec<u8>>>()
            })
            .collect();
        UnitSymmetries { maps }
    }

    /// How many symmetries are used (0: every unit is searched).
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.maps.len()
    }

    /// Is the unit at syllable path `path` searched: is it the least of its images?
    pub(super) fn kept(&self, path: &[usize]) -> bool {
        self.maps.iter().all(|map| {
            let image = path.iter().map(|&k| map[k] as usize);
            image.cmp(path.iter().copied()) != std::cmp::Ordering::Less
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cube::{Metric, parse_moves};
    use crate::search::subset::MoveSet;

    /// The superflip is fixed by all 48 symmetries, and every one maps the syllables of all
    /// turns onto themselves in each metric, keeping the axes apart; a subset keeps only the
    /// symmetries that map it onto itself.
    #[test]
    fn the_maps_are_the_stabilizers_that_keep_the_syllables_and_their_costs() {
        let superflip = Cube::from_moves(&parse_moves(crate::cube::SUPERFLIP).unwrap());
        for metric in Metric::ALL {
            let syllables = MoveSet::ALL.syllables(metric);
            let u = UnitSymmetries::of(&superflip, &syllables);
            assert_eq!(u.len(), 47, "{metric}");
            for map in &u.maps {
                let mut seen = map.clone();
                seen.sort();
                seen.dedup();
                assert_eq!(seen.len(), syllables.len(), "{metric}: a permutation");
                for (a, &b) in map.iter().enumerate() {
                    // Two syllables on one axis map to two on one axis.
                    for (c, &d) in map.iter().enumerate() {
                        let same = syllables[a].axis == syllables[c].axis;
                        assert_eq!(
                            same,
                            syllables[b as usize].axis == syllables[d as usize].axis
                        );
                    }
                }
            }
            // Of the 1,350 paths of two syllables on different axes, each set of images
            // keeps one.
            let paths: Vec<[usize; 2]> = (0..syllables.len())
                .flat_map(|a| (0..syllables.len()).map(move |b| [a, b]))
                .filter(|[a, b]| syllables[*a].axis != syllables[*b].axis)
                .collect();
            let kept = paths.iter().filter(|p| u.kept(&p[..])).count();
            assert!(
                kept * 48 >= paths.len() && kept < paths.len() / 20,
                "{metric}: {kept}"
            );
        }
        // <R,U> in HTM: the symmetries that fix the superflip and map {R, U} onto itself.
        let ru = MoveSet::parse("R U").unwrap().syllables(Metric::Htm);
        let u = UnitSymmetries::of(&superflip, &ru);
        assert!(u.len() >= 1 && u.len() < 47, "{}", u.len());
        // A position fixed by no symmetry: none.
        let p = Cube::from_moves(&parse_moves("R U F' L2 D B'").unwrap());
        let all = MoveSet::ALL.syllables(Metric::Stm);
        assert_eq!(UnitSymmetries::of(&p, &all).len(), 0);
    }
}
