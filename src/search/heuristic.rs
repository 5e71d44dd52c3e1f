//! The search heuristic: the maximum of several pattern-database lookups, evaluated lazily.
//!
//! Tables are consulted in a fixed order (the one with the highest mean value first, so it is
//! most often the one that prunes); evaluation of a node stops as soon as one value shows the
//! node cannot lie on a solution within the current bound. Each table value is an exact distance
//! in an abstraction of the cube, hence a lower bound on the true distance: the maximum is
//! admissible. With `dual`, the inverse position's values count too (the inverse position has the
//! same distance from solved), a free extra lower bound when the search tracks both.
//!
//! **Fallbacks.** A coset table (`sym48*`) is the distance to a subgroup: on positions in or
//! near that subgroup (symmetric positions, patterns, the superflip) it reads about 0 and the
//! search goes blind. When the first table is a coset table, the lookups of every other table
//! in the set are *fallbacks*: the corner table and two 6-edge tables, strong exactly where
//! the coset table is weak (an element of the subgroup may still have its corners or edges far
//! from solved). The search reads a fallback only for a child the coset value did not prune
//! and whose coset value leaves some slack below the budget (at least
//! [`crate::search::SearchOptions::fallback_slack`]), and only while the budget is below the
//! fallback table's largest value (else it cannot prune); on the position and, with
//! [`crate::search::SearchOptions::fallback_dual`], its inverse. Each value read is an
//! exact distance in an abstraction of the cube, so any subset of them, read for any subset of the nodes, still gives a maximum of lower bounds:
//! the heuristic stays admissible whatever the search decides to read. (H48 reads a small
//! edges-only table on a 0 read for the same reason, nissy-core `doc/h48.md`, "Fallback
//! tables".)

use crate::cube::Cube;
use crate::pdb::family::Turned;
use crate::pdb::file::TableError;
use crate::pdb::successors::CornerSuccessors;
use crate::pdb::{NibbleTable, Pattern};
use crate::progress::{Progress, ProgressMode};
use std::path::Path;

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
    /// A fallback of the coset table read first (module docs): read only for the children
    /// the search picks.
    pub fallback: bool,
    /// The table's largest value: a budget at or above it cannot be exceeded by this lookup.
    pub max: u8,
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
    /// Each table's largest value where it is a fallback (every table after a coset table
    /// read first), `None` for the others.
    fallback_max: Vec<Option<u8>>,
    lookups: Vec<Lookup>,
    /// Derived from the corner table on request ([`Heuristic::derive_corner_successors`]).
    corner_successors: Option<CornerSuccessors>,
}

impl Heuristic {
    /// Uses `tables`, ordering them by decreasing mean value (most decisive first); one lookup
    /// per table.
    pub fn new(tables: Vec<(Pattern, NibbleTable)>) -> Heuristic {
        let mut scored: Vec<(f64, (Pattern, NibbleTable))> = tables
            .into_iter()
            .map(|(p, t)| (sampled_mean(&t), (p, t)))
            .collect();
        // A coset table goes first whatever its mean: the others are its fallbacks.
        scored.sort_by(|a, b| {
            let coset = |x: &(f64, (Pattern, NibbleTable))| x.1.0.coset_holds_half_turns();
            coset(b).cmp(&coset(a)).then(b.0.total_cmp(&a.0))
        });
        let tables: Vec<_> = scored.into_iter().map(|(_, t)| t).collect();
        let first_is_coset = tables
            .first()
            .is_some_and(|(p, _)| p.coset_holds_half_turns());
        // The largest value of each fallback table (a scan of a few tens of MB; a table of
        // another format than nibbles is not scanned and gets 15, no limit).
        let fallback_max: Vec<Option<u8>> = (tables.iter().enumerate())
            .map(|(i, (_, t))| {
                (first_is_coset && i > 0).then(|| match t.format() {
                    crate::pdb::Format::Nibbles => t.histogram().len() as u8 - 1,
                    _ => 15,
                })
            })
            .collect();
        for (p, _) in &tables {
            // Build the coordinate tables now, not during the first search.
            p.prepare();
        }
        let mut h = Heuristic {
            tables,
            fallback_max,
            lookups: Vec::new(),
            corner_successors: None,
        };
        h.set_symmetric(false);
        h
    }

    /// Chooses the lookups. A table may be looked up on the position turned by 120° and 240°
    /// about the URF–DBL diagonal too, right after its plain lookup: the phase-1 tables always
    /// (that covers their three slice axes), the partial edge tables (edges7a/b, edges6a/b)
    /// with `on`. Corners and edgeperm are unchanged by such turns, so they get no extra lookup.
    pub fn set_symmetric(&mut self, on: bool) {
        let turns = crate::coord::symmetry::diagonal_turns();
        self.lookups.clear();
        for (table, (pat, _)) in self.tables.iter().enumerate() {
            let fallback = self.fallback_max[table].is_some();
            let max = self.fallback_max[table].unwrap_or(15);
            self.lookups.push(Lookup {
                table,
                conj: None,
                fallback,
                max,
            });
            let turned = match pat.turned() {
                Turned::Always => true,
                Turned::OnRequest => on,
                Turned::Never => false,
            };
            if turned {
                for t in turns {
                    self.lookups.push(Lookup {
                        table,
                        conj: Some(t),
                        fallback,
                        max,
                    });
                }
            }
        }
    }

    /// Derives the corner successor table from the corner table, if there is one and it has
    /// not been derived yet (about 350 MB, 5 s; progress per `mode`), or reads it from `dir`
    /// where an earlier process kept it ([`CornerSuccessors::open_or_derive`]). The search
    /// then reads all children's corner values of a node at once ([`crate::pdb::successors`]).
    pub fn derive_corner_successors(
        &mut self,
        mode: ProgressMode,
        dir: Option<&Path>,
    ) -> Result<(), TableError> {
        // A fallback corner lookup ranks its children's cubes (it reads few of them): the
        // successor table would be memory for nothing.
        let Some((_, corners)) = (self.lookups.iter())
            .find(|l| !l.fallback && self.tables[l.table].0 == Pattern::CORNERS)
            .map(|l| &self.tables[l.table])
        else {
            return Ok(());
        };
        if self.corner_successors.is_none() {
            let n = crate::coord::N_PERM8 as u64;
            let progress = Progress::new(mode, "successors", n, "permutations");
            let (table, origin) = CornerSuccessors::open_or_derive(dir, corners, &progress)?;
            self.corner_successors = Some(table);
            let seconds = progress.elapsed();
            let mb = crate::pdb::successors::BYTES.div_ceil(1_000_000);
            progress.finish(&format!(
                "corner successor table {origin}, {mb} MB, {seconds:.1} s"
            ));
        }
        Ok(())
    }

    /// The corner successor table, once derived.
    pub fn corner_successors(&self) -> Option<&CornerSuccessors> {
        self.corner_successors.as_ref()
    }

    /// Bytes of the tables in memory: every table's payload and the corner successor table
    /// once derived (the "resident table size" of a GB·s comparison; move tables not counted).
    pub fn table_bytes(&self) -> u64 {
        let tables: u64 = self
            .tables
            .iter()
            .map(|(_, t)| t.bytes().len() as u64)
            .sum();
        tables
            + self
                .corner_successors
                .as_ref()
                .map_or(0, |_| crate::pdb::successors::BYTES)
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

    /// Is every table a lower bound of distances in `metric`? Half-turn tables are in both
    /// metrics, quarter-turn tables only in their own (`pdb::set::in_metric`).
    pub fn serves(&self, metric: crate::cube::Metric) -> bool {
        (self.tables.iter())
            .all(|(p, _)| (p.metric().is_htm() && metric.bounded_by_htm()) || p.metric() == metric)
    }

    /// Does any piece table get turned lookups (`--sym`)?
    pub fn is_symmetric(&self) -> bool {
        self.lookups
            .iter()
            .any(|l| l.conj.is_some() && !self.tables[l.table].0.reads_position())
    }

    /// Does any table read the position itself (so the search must track it)?
    pub fn reads_position(&self) -> bool {
        self.tables.iter().any(|(p, _)| p.reads_position())
    }

    /// The entries the full heuristic value of position `p` with inverse `q` reads (with
    /// `dual`, those of `p⁻¹` too), as `(table, index)` pairs: ranked once, then prefetched
    /// ([`Heuristic::prefetch`]) and read ([`Heuristic::value_of`]).
    #[inline]
    pub fn entries<'a>(
        &'a self,
        p: &'a Cube,
        q: &'a Cube,
        dual: bool,
    ) -> impl Iterator<Item = (usize, u64)> + 'a {
        self.lookups.iter().flat_map(move |l| {
            let (pat, _) = self.table(l);
            let (own, other) = pat.input_and_other(p, q);
            let inverse = (dual && !pat.is_self_dual())
                .then(|| (l.table, pat.index_of_input(&l.cube(other))));
            std::iter::once((l.table, pat.index_of_input(&l.cube(own)))).chain(inverse)
        })
    }

    /// The first lookup's entry for position `p` when its table reads the position itself (a
    /// coset table) and not the inverse: what a search can start loading for a child before
    /// it makes the child's inverse, and read first, as the table most likely to prune
    /// (module docs).
    #[inline]
    pub fn first_position_entry(&self, p: &Cube) -> Option<(usize, u64)> {
        let l = self.lookups.first()?;
        let (pat, _) = self.table(l);
        pat.reads_position()
            .then(|| (l.table, pat.index_of_input(&l.cube(p))))
    }

    /// Asks the CPU to start loading `entries`, so that several positions' entries can be on
    /// their way at once.
    #[inline]
    pub fn prefetch(&self, entries: &[(usize, u64)]) {
        for &(t, i) in entries {
            self.tables[t].1.prefetch(i);
        }
    }

    /// The heuristic value read from `entries`: their maximum.
    #[inline]
    pub fn value_of(&self, entries: &[(usize, u64)]) -> u8 {
        self.max_of(entries.iter().copied())
    }

    /// The full heuristic value of position `p` with inverse `q` (with `dual`, of `p⁻¹` too).
    pub fn value(&self, p: &Cube, q: &Cube, dual: bool) -> u8 {
        self.max_of(self.entries(p, q, dual))
    }

    /// The largest value of `entries` (0 for none).
    #[inline]
    fn max_of(&self, entries: impl Iterator<Item = (usize, u64)>) -> u8 {
        (entries.map(|(t, i)| self.tables[t].1.get(i)))
            .max()
            .unwrap_or(0)
    }
}

/// Mean value of 2^16 entries at fixed pseudo-random places: enough to order tables whose means
/// differ by tenths, without reading a multi-gigabyte table at start-up.
fn sampled_mean(t: &NibbleTable) -> f64 {
    const SAMPLES: u32 = 1 << 16;
    let mut rng = crate::cube::Rng::new(1);
    let sum: u64 = (0..SAMPLES)
        .map(|_| t.get(rng.below(t.entries())) as u64)
        .sum();
    sum as f64 / SAMPLES as f64
}
