//! The search heuristic: the maximum of several pattern-database lookups, evaluated lazily.
//!
//! Tables are consulted in a fixed order (the one with the highest mean value first, so it is
//! most often the one that prunes); evaluation of a node stops as soon as one value shows the
//! node cannot lie on a solution within the current bound. Each table value is an exact distance
//! in an abstraction of the cube, hence a lower bound on the true distance: the maximum is
//! admissible. With `dual`, the inverse position's values count too (the inverse position has the
//! same distance from solved), a free extra lower bound when the search tracks both.

use crate::cube::Cube;
use crate::pdb::{NibbleTable, Pattern};

/// A set of loaded tables used as one heuristic.
pub struct Heuristic {
    tables: Vec<(Pattern, NibbleTable)>,
}

impl Heuristic {
    /// Uses `tables`, ordering them by decreasing mean value (most decisive first).
    pub fn new(tables: Vec<(Pattern, NibbleTable)>) -> Heuristic {
        let mut scored: Vec<(f64, (Pattern, NibbleTable))> = tables
            .into_iter()
            .map(|(p, t)| (crate::pdb::histogram_mean(&t.histogram()), (p, t)))
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        Heuristic {
            tables: scored.into_iter().map(|(_, t)| t).collect(),
        }
    }

    /// The patterns in lookup order.
    pub fn patterns(&self) -> Vec<Pattern> {
        self.tables.iter().map(|(p, _)| *p).collect()
    }

    /// The tables in lookup order.
    pub fn tables(&self) -> &[(Pattern, NibbleTable)] {
        &self.tables
    }

    /// The full heuristic value of position `p` with inverse `q` (with `dual`, of `p⁻¹` too).
    pub fn value(&self, p: &Cube, q: &Cube, dual: bool) -> u8 {
        let mut h = 0;
        for (pat, t) in &self.tables {
            h = h.max(t.get(pat.index_of_inverse(q)));
            if dual {
                h = h.max(t.get(pat.index_of_inverse(p)));
            }
        }
        h
    }

    /// Starts loading every table's entries for a node (before [`Self::bounded`]), so the
    /// cache misses of all children of a node overlap instead of following one another.
    #[inline(always)]
    pub fn prefetch(&self, p: &Cube, q: &Cube, dual: bool) {
        for (pat, t) in &self.tables {
            t.prefetch(pat.index_of_inverse(q));
            if dual {
                t.prefetch(pat.index_of_inverse(p));
            }
        }
    }

    /// The heuristic value if it is at most `budget`, else some value above `budget` (lookups
    /// stop at the first table that exceeds it).
    #[inline(always)]
    pub fn bounded(&self, p: &Cube, q: &Cube, dual: bool, budget: u8) -> u8 {
        let mut h = 0;
        for (pat, t) in &self.tables {
            h = h.max(t.get(pat.index_of_inverse(q)));
            if h > budget {
                return h;
            }
            if dual {
                h = h.max(t.get(pat.index_of_inverse(p)));
                if h > budget {
                    return h;
                }
            }
        }
        h
    }
}
