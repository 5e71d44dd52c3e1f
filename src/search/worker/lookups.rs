//! The lookups of one expansion ([`Worker::prepare`], [`Worker::evaluate`]): which table
//! entries a node's children read in each memory round, which lookups are skipped because
//! they cannot prune, and the children each read prunes. The strategy (dual lookups in two
//! rounds, inverse first, half-turn cuts) is in the parent module's docs; each choice leaves
//! the nodes of a complete iteration unchanged.

use super::{CLOCKWISE, HALF_TURNS, Worker, reads_corner_coordinates};
use crate::coord::{MoveTables, N_MOVES};
use crate::pdb::Pattern;
use crate::pdb::batch::{BATCH, Members};
use crate::search::cut::raise_and_cut;
use crate::search::heuristic::Lookup;
use crate::search::node::{Expansion, TRACKED, corner_entry};

impl Worker<'_> {
    /// Computes the indices of the next lookup for the children still alive and prefetches
    /// their entries; returns false when no lookup is left.
    ///
    /// Lookups that cannot prune are skipped. Every table value is a distance in an
    /// abstraction of the cube where a move is one step, so a child's value is at most its
    /// parent's plus one; when that is still within the children's budget, reading it could
    /// not prune any child. (The skipped value is missing from the children's move-ordering
    /// keys; their bounds become the parent's plus one.) In the quarter-turn metric a
    /// half-turn child's value may be raised by one more for its parity ([`Worker::run`]),
    /// and a quarter-turn table's value may grow by two by a half turn (two of its moves).
    #[inline(always)]
    pub(super) fn prepare<const QTM: bool>(&mut self, e: &mut Expansion) -> bool {
        let lookups = self.h.lookups();
        let budget = self.bound - e.g - 1;
        loop {
            while e.lookup < lookups.len() && self.skippable & (1 << e.lookup) != 0 {
                let ub = e.bounds.get(e.lookup);
                let up = if QTM {
                    1 + (self.quarter_tables >> e.lookup & 1) as u8
                } else {
                    1
                };
                if ub == 15 || ub + up + QTM as u8 > budget {
                    break;
                }
                e.skipped |= ((ub + up).min(15) as u32) << (4 * e.lookup);
                e.lookup += 1;
            }
            if e.lookup == lookups.len() {
                return false;
            }
            let l = &lookups[e.lookup];
            if !l.fallback {
                e.reading = e.alive;
                break;
            }
            // A fallback (the `heuristic` module docs): only for the children whose value so
            // far (the coset table's) leaves the slack, and only if it can exceed the budget.
            // Its bound stays unknown for the children (it is never skipped).
            if e.lookup < TRACKED {
                e.skipped |= 15 << (4 * e.lookup);
            }
            e.reading = if budget < l.max {
                slack_set(&e.h, e.alive, budget, self.fallback_slack)
            } else {
                0
            };
            if e.reading != 0 {
                break;
            }
            e.lookup += 1;
        }
        e.pending = true;
        let l = &lookups[e.lookup];
        let (pat, table) = self.h.table(l);
        // In the quarter-turn metric a half-turn child's value is raised to the parity
        // opposite the budget's (`Worker::run`): one equal to the budget exceeds it.
        let over = if QTM { budget } else { budget + 1 };
        if self.half_turn_cuts
            && e.lookup == 0
            && !e.second_half
            && (over..15).contains(&e.inv_node)
        {
            // A half turn leaves the inverse's entry as it is (module docs), and the node's
            // (15: unknown) is already over the children's budget.
            let cut = e.alive & HALF_TURNS;
            e.alive &= !cut;
            if cut != 0 {
                let raised = e.inv_node + (QTM && (e.inv_node ^ budget) & 1 == 0) as u8;
                self.min_exceeded = self.min_exceeded.min(e.g + 1 + raised);
            }
            if e.alive == 0 {
                e.pending = false;
                return false;
            }
            e.reading &= e.alive;
        }
        if reads_corner_coordinates(pat, l) {
            if let Some((successors, _)) = self.successors {
                successors.prefetch(corner_entry(e.node.corners));
                return true;
            }
            let Some(mt) = self.corner_rows else {
                unreachable!("a lookup reads corner coordinates, so the worker has move tables")
            };
            let [c, t] = e.node.corners.map(|x| x as usize * N_MOVES);
            let (crow, trow) = (&mt.corners[c..][..N_MOVES], &mt.twist[t..][..N_MOVES]);
            // Every move's slot, without branches (the loop over the living children ends
            // with a mispredicted branch): dead slots get entry 0, a line that stays cached.
            for k in 0..N_MOVES {
                let i = corner_entry([crow[k], trow[k]]) * (e.alive >> k & 1) as u64;
                e.corner_idx[k] = i;
                table.prefetch(i);
            }
            return true;
        }
        // Self-dual tables read the same entry for the inverse position; fallbacks read the
        // inverse only with `fallback_dual`, both sides in one round.
        let dual = self.dual && !pat.is_self_dual() && (!l.fallback || self.fallback_dual);
        // Which side this round reads: both at once, or one per round of a split lookup (the
        // position's first, or the inverse's with `inverse_first`).
        let split = dual && self.split_dual && !l.fallback;
        let inverse_first = self.inverse_first(pat, l);
        let own_now = !split || e.second_half == inverse_first;
        let dual_now = dual && (!split || e.second_half != inverse_first);
        // A coset table of a subgroup that holds every half turn reads the same entry for the
        // inverse of `P · m` (that is `m · P⁻¹`) as for `P⁻¹` when `m` is a half turn: those
        // children take the node's own inverse index, computed once. And the inverses of
        // `P · m` and `P · m⁻¹` for a quarter turn `m` differ by the half turn `m²` on the
        // left: the second takes the first's index. `rest`: the children whose inverse index
        // is ranked.
        let (half, pairs) = if dual_now && pat.coset_holds_half_turns() && l.conj.is_none() {
            let quarter = e.alive & !HALF_TURNS;
            (e.alive & HALF_TURNS, quarter & CLOCKWISE & quarter >> 2)
        } else {
            (0, 0)
        };
        let rest = if dual_now {
            e.reading & !half & !(pairs << 2)
        } else {
            0
        };
        // The cubes this round ranks: the pattern's own for the living children, the other
        // side's for `rest`.
        let own_set = if own_now { e.reading } else { 0 };
        if pat.reads_position() {
            e.compose(own_set, rest);
        } else {
            e.compose(rest, own_set);
        }
        // The cubes the pattern reads, and those of the inverse (dual) position.
        let (own, other) = pat.input_and_other(&e.cps, &e.cqs);
        if own_now {
            let idx = &mut e.idx;
            pat.for_each_index(l.cubes(own, e.reading, &mut e.turned), e.reading, |k, i| {
                idx[k] = i;
                table.prefetch(i);
            });
        }
        if dual_now {
            let idx_dual = &mut e.idx_dual;
            pat.for_each_index(l.cubes(other, rest, &mut e.turned), rest, |k, i| {
                idx_dual[k] = i;
                table.prefetch(i);
            });
            for k in Members(pairs) {
                e.idx_dual[k + 2] = e.idx_dual[k];
            }
            if half != 0 {
                let i = pat.index_of_input(pat.input_and_other(&e.node.p, &e.node.q).1);
                for k in Members(half) {
                    e.idx_dual[k] = i;
                }
            }
        }
        true
    }

    /// The move tables, when the nodes keep their corner coordinates.
    #[inline(always)]
    pub(super) fn corner_rows(&self) -> Option<&'static MoveTables> {
        self.corner_rows
    }

    /// Does a split lookup `l` of `pat` read the inverse's entries first? Only for a coset
    /// table of a subgroup that holds the half turns, whose inverse entries are fewer lines
    /// (the module docs).
    #[inline(always)]
    fn inverse_first(&self, pat: &Pattern, l: &Lookup) -> bool {
        self.inverse_first && pat.coset_holds_half_turns() && l.conj.is_none()
    }

    /// Reads the entries of lookup `e.lookup` and drops the children it prunes.
    #[inline(always)]
    pub(super) fn evaluate<const QTM: bool>(&mut self, e: &mut Expansion) {
        let l = &self.h.lookups()[e.lookup];
        let (pat, table) = self.h.table(l);
        let budget = self.bound - e.g - 1;
        // The values of untracked lookups go to the scratch row.
        let vals = &mut e.vals[e.lookup.min(TRACKED)];
        if !l.fallback {
            e.read |= (1 << e.lookup) & ((1 << TRACKED) - 1);
        }
        // The inverse's values of the first lookup are kept for the half-turn cuts.
        let mut scratch = [0; BATCH];
        let inv = if e.lookup == 0 {
            &mut e.inv
        } else {
            &mut scratch
        };
        if reads_corner_coordinates(pat, l) {
            // (Self-dual: `prepare` computes no dual indices for it.)
            if let Some((successors, _)) = self.successors {
                // Every move's slot, the dead ones too.
                successors.children(corner_entry(e.node.corners), e.corner_value, vals);
            } else {
                // All slots, as in `prepare` (dead ones read entry 0).
                for k in 0..N_MOVES {
                    vals[k] = table.get(e.corner_idx[k]);
                }
            }
        } else if l.fallback {
            // Children not picked for the fallback read nothing (value 0: no raise).
            for k in Members(e.alive & !e.reading) {
                vals[k] = 0;
            }
            for k in Members(e.reading) {
                vals[k] = table.get(e.idx[k]);
            }
            if self.fallback_dual && self.dual && !pat.is_self_dual() {
                for k in Members(e.reading) {
                    vals[k] = vals[k].max(table.get(e.idx_dual[k]));
                }
            }
        } else if self.dual && !pat.is_self_dual() && self.split_dual {
            // One side's entries in the first round, the other's for the survivors (the
            // inverse's first with `inverse_first`).
            if e.second_half != self.inverse_first(pat, l) {
                for k in Members(e.alive) {
                    inv[k] = table.get(e.idx_dual[k]);
                    vals[k] = if e.second_half {
                        vals[k].max(inv[k])
                    } else {
                        inv[k]
                    };
                }
            } else {
                for k in Members(e.alive) {
                    let v = table.get(e.idx[k]);
                    vals[k] = if e.second_half { vals[k].max(v) } else { v };
                }
            }
            e.second_half = !e.second_half;
        } else if self.dual && !pat.is_self_dual() {
            // Which children's inverse side is the stronger (two instructions a child, kept
            // only when the search may switch sides).
            let mut switch = 0;
            for k in Members(e.alive) {
                let (own, other) = (table.get(e.idx[k]), table.get(e.idx_dual[k]));
                vals[k] = own.max(other);
                inv[k] = other;
                switch |= ((other > own) as u32) << k;
            }
            if self.switch_sides {
                e.switch = switch;
            }
        } else {
            for k in Members(e.alive) {
                vals[k] = table.get(e.idx[k]);
            }
        }
        // Branch-free: whether a child is pruned is close to a coin toss.
        let (pruned, min_h) = raise_and_cut::<QTM>(&mut e.h, vals, budget, e.alive);
        // (Without a branch: `min_h` is 255 when no child was cut, and the sum saturates.)
        self.min_exceeded = self.min_exceeded.min((e.g + 1).saturating_add(min_h));
        e.alive &= !pruned;
        // (A split dual lookup is done after its second round.)
        if !e.second_half {
            e.lookup += 1;
        }
        e.pending = false;
    }
}

/// The children of `alive` whose value so far leaves at least `slack` below `budget`: those
/// a fallback lookup reads.
#[inline(always)]
fn slack_set(h: &[u8; BATCH], alive: u32, budget: u8, slack: u8) -> u32 {
    let Some(limit) = budget.checked_sub(slack) else {
        return 0;
    };
    Members(alive).fold(0, |s, k| s | ((h[k] <= limit) as u32) << k)
}
