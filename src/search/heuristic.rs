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
use crate::pdb::batch::{BATCH, Batch, Members};
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

    /// The cubes this lookup indexes for the members `members` of a batch: `cubes` itself,
    /// or each turned ([`Lookup::cube`]) into `buf`.
    #[inline(always)]
    pub fn cubes<'a>(&self, cubes: &'a Batch, members: u32, buf: &'a mut Batch) -> &'a Batch {
        if self.conj.is_none() {
            return cubes;
        }
        for k in Members(members) {
            buf[k] = self.cube(&cubes[k]);
        }
        buf
    }
}

/// In [`Heuristic::first_inverse_values`], a member whose inverse's entry is the node's own.
pub const HALVES_OF_NODE: u8 = u8::MAX;

/// The entries [`Heuristic::rest_values`] loads, kept between its two passes: for each
/// (lookup, side) read, the members' indices, the table and the members.
/// It grows to the heuristic's lookups on first use.
#[derive(Default)]
pub struct Reads {
    idx: Vec<[u64; BATCH]>,
    of: Vec<(usize, u32)>,
    /// A conjugated lookup's cubes ([`Lookup::cubes`]).
    turned: Batch,
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

    /// The first lookup's values (unraised) of the positions `ps[k]` of the batch's `members`,
    /// when its table reads the position ([`Heuristic::first_position_entry`]; else nothing is
    /// written): the indices ranked for the whole batch, every load started, then each read.
    /// A search reads these first, as the table most likely to prune.
    #[inline]
    pub fn first_values(&self, ps: &Batch, members: u32, reads: &mut Reads, out: &mut [u8; BATCH]) {
        let Some(l) = self.lookups.first() else {
            return;
        };
        let (pat, table) = self.table(l);
        if !pat.reads_position() {
            return;
        }
        let mut idx = [0u64; BATCH];
        pat.for_each_index(l.cubes(ps, members, &mut reads.turned), members, |k, i| {
            idx[k] = i;
            table.prefetch(i);
        });
        for k in Members(members) {
            out[k] = table.get(idx[k]);
        }
    }

    /// Does the first lookup read a coset table of a subgroup that holds every half turn,
    /// unturned? Then inverses that differ by half turns on the left read one entry
    /// ([`Heuristic::first_inverse_values`]).
    pub fn first_is_half_turn_coset(&self) -> bool {
        (self.lookups.first())
            .is_some_and(|l| l.conj.is_none() && self.table(l).0.coset_holds_half_turns())
    }

    /// The first lookup's values (unraised) of the inverses `qs[k]` of the batch's `members`,
    /// when [`Heuristic::first_is_half_turn_coset`]: `m · Q` is in the coset of `Q` for a half
    /// turn `m`, so a member whose `halves[k]` names another slot reads that slot's entry,
    /// and one whose `halves[k]` is [`HALVES_OF_NODE`] reads the entry of `q` (the node's
    /// inverse). Only the distinct entries are ranked and loaded, all before any is read.
    #[inline]
    pub fn first_inverse_values(
        &self,
        (q, qs): (&Cube, &Batch),
        members: u32,
        halves: &[u8; BATCH],
        out: &mut [u8; BATCH],
    ) {
        let l = &self.lookups[0];
        let (pat, table) = self.table(l);
        let own = pat.index_of_input(q);
        table.prefetch(own);
        let mut ranked = 0u32;
        for k in Members(members) {
            ranked |= ((halves[k] as usize == k) as u32) << k;
        }
        let mut idx = [0u64; BATCH];
        pat.for_each_index(qs, ranked, |k, i| {
            idx[k] = i;
            table.prefetch(i);
        });
        for k in Members(members) {
            let i = match halves[k] {
                HALVES_OF_NODE => own,
                j => idx[j as usize],
            };
            out[k] = table.get(i);
        }
    }

    /// Completes [`Heuristic::value`] for the members of a batch (positions `ps`, inverses
    /// `qs`): `out[k]` is raised to the largest value of every entry not read yet (all of them
    /// but the first lookup's sides `first_read`, position and inverse). A lookup whose table's
    /// largest value is at most `limits[k]` is not read for member `k`: it could not raise
    /// `out[k]` above the limit, so a caller that asks only whether the value exceeds its limit
    /// gets the same answer. All the entries' loads are started before any is read; `reads`
    /// holds their indices (scratch, kept by the caller so that nothing is cleared per node).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn rest_values(
        &self,
        (ps, qs): (&Batch, &Batch),
        members: u32,
        dual: bool,
        first_read: [bool; 2],
        limits: &[u8; BATCH],
        reads: &mut Reads,
        out: &mut [u8; BATCH],
    ) {
        if reads.of.len() < 2 * self.lookups.len() {
            reads.idx.resize(2 * self.lookups.len(), [0; BATCH]);
            reads.of.resize(2 * self.lookups.len(), (0, 0));
        }
        let mut n = 0;
        for (j, l) in self.lookups.iter().enumerate() {
            let (pat, table) = self.table(l);
            let mut readers = 0u32;
            for k in Members(members) {
                readers |= ((l.max > limits[k]) as u32) << k;
            }
            let (own, other) = pat.input_and_other(ps, qs);
            let read = |side: usize| j == 0 && first_read[side ^ !pat.reads_position() as usize];
            let sides = [
                (own, !read(0)),
                (other, dual && !pat.is_self_dual() && !read(1)),
            ];
            for (cubes, wanted) in sides {
                if !wanted || readers == 0 {
                    continue;
                }
                let idx = &mut reads.idx[n];
                pat.for_each_index(
                    l.cubes(cubes, readers, &mut reads.turned),
                    readers,
                    |k, i| {
                        idx[k] = i;
                        table.prefetch(i);
                    },
                );
                reads.of[n] = (l.table, readers);
                n += 1;
            }
        }
        for (idx, &(t, set)) in reads.idx.iter().zip(&reads.of[..n]) {
            let table = &self.tables[t].1;
            for k in Members(set) {
                out[k] = out[k].max(table.get(idx[k]));
            }
        }
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
