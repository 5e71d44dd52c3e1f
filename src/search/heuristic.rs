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

/// One table lookup of the heuristic: a table, read either for the position itself or for the
/// position conjugated by a whole-cube rotation `S` (`S P S⁻¹`, the same position seen from
/// another axis, exactly as far from solved). A rotation moves a partial edge set's pieces onto
/// other edges, so a conjugated lookup of such a table is a different, equally admissible
/// lower bound.
#[derive(Clone, Copy)]
pub struct Lookup {
    /// Index into [`Heuristic::tables`].
    pub table: usize,
    /// `(S, S⁻¹)` for a conjugated lookup.
    pub conj: Option<(Cube, Cube)>,
}

impl Lookup {
    /// The inverse cube to index for this lookup, given the inverse cube `q` of the position:
    /// `(S P S⁻¹)⁻¹ = S Q S⁻¹`.
    #[inline(always)]
    pub fn cube(&self, q: &Cube) -> Cube {
        match &self.conj {
            None => *q,
            Some((s, s_inv)) => s.compose(q).compose(s_inv),
        }
    }
}

/// A set of loaded tables used as one heuristic.
pub struct Heuristic {
    tables: Vec<(Pattern, NibbleTable)>,
    lookups: Vec<Lookup>,
}

impl Heuristic {
    /// Uses `tables`, ordering them by decreasing mean value (most decisive first); one lookup
    /// per table.
    pub fn new(tables: Vec<(Pattern, NibbleTable)>) -> Heuristic {
        let mut scored: Vec<(f64, (Pattern, NibbleTable))> = tables
            .into_iter()
            .map(|(p, t)| (crate::pdb::histogram_mean(&t.histogram()), (p, t)))
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        let tables: Vec<_> = scored.into_iter().map(|(_, t)| t).collect();
        let lookups = (0..tables.len())
            .map(|table| Lookup { table, conj: None })
            .collect();
        Heuristic { tables, lookups }
    }

    /// With `on`, every partial edge table (edges7a/b, edges6a/b) is also looked up on the
    /// position turned by 120° and 240° about the URF–DBL diagonal, right after its plain
    /// lookup; corners and edgeperm are unchanged by such turns, so they get no extra lookup.
    pub fn set_symmetric(&mut self, on: bool) {
        let turns = crate::solvers::twophase::diagonal_turns();
        self.lookups.clear();
        for (table, (pat, _)) in self.tables.iter().enumerate() {
            self.lookups.push(Lookup { table, conj: None });
            let partial = matches!(
                pat,
                Pattern::Edges7A | Pattern::Edges7B | Pattern::Edges6A | Pattern::Edges6B
            );
            if on && partial {
                for t in turns {
                    self.lookups.push(Lookup {
                        table,
                        conj: Some(t),
                    });
                }
            }
        }
    }

    /// The tables in lookup order.
    pub fn tables(&self) -> &[(Pattern, NibbleTable)] {
        &self.tables
    }

    /// The lookups, in the order the search makes them.
    pub fn lookups(&self) -> &[Lookup] {
        &self.lookups
    }

    /// The pattern and table of lookup `l`.
    #[inline(always)]
    pub fn table(&self, l: &Lookup) -> &(Pattern, NibbleTable) {
        &self.tables[l.table]
    }

    /// Does any lookup use a turned position?
    pub fn is_symmetric(&self) -> bool {
        self.lookups.iter().any(|l| l.conj.is_some())
    }

    /// The full heuristic value of position `p` with inverse `q` (with `dual`, of `p⁻¹` too).
    pub fn value(&self, p: &Cube, q: &Cube, dual: bool) -> u8 {
        let mut h = 0;
        for l in &self.lookups {
            let (pat, t) = self.table(l);
            h = h.max(t.get(pat.index_of_inverse(&l.cube(q))));
            if dual {
                h = h.max(t.get(pat.index_of_inverse(&l.cube(p))));
            }
        }
        h
    }
}
