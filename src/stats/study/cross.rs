//! One set of positions measured in two metrics ([`CrossTable`]): the same seed's study in
//! half turns and in quarter turns, position by position, as the grid Rokicki published for
//! 1,000,000 random positions in both metrics (forum.cubeman.org node 176).
//!
//! The two studies share no search: each length comes from its own metric's tables and
//! IDA*. So the grid is also a check of each against the other, by three facts that hold for
//! every position `P` (and are refused, naming the position, when they do not):
//! - `htm(P) ≤ qtm(P)`: a quarter turn is a face turn;
//! - `qtm(P) ≤ 2 · htm(P)`: a half turn is two quarter turns;
//! - `qtm(P)` has the parity of `P`'s corner permutation: every quarter turn is a 4-cycle of
//!   corners, an odd permutation.

use super::Collection;
use crate::cube::{Cube, Metric};
use std::collections::{BTreeMap, BTreeSet};

/// Positions counted by their length in two metrics.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CrossTable {
    /// `(length in half turns, length in quarter turns)` → positions.
    pub counts: BTreeMap<(usize, usize), u64>,
    /// Positions in both studies.
    pub common: u64,
}

impl CrossTable {
    /// Sets `a` and `b`, studies of the same seed in the two metrics (either order), side by
    /// side on the positions both hold. Errs naming the first position where the studies
    /// are not of the same positions in two metrics, or where the lengths break a fact of the
    /// module's list.
    pub fn of(a: &Collection, b: &Collection) -> Result<CrossTable, String> {
        let (Some(sa), Some(sb)) = (a.study(), b.study()) else {
            return Ok(CrossTable::default());
        };
        if (sa.seed, sa.moves) != (sb.seed, sb.moves) || sa.metric == sb.metric {
            return Err(format!(
                "not one set of positions in two metrics: {sa} against {sb}"
            ));
        }
        let (htm, qtm) = if sa.metric == Metric::Htm {
            (a, b)
        } else {
            (b, a)
        };
        let mut t = CrossTable::default();
        for h in htm.records() {
            let Some(q) = qtm.record(h.index) else {
                continue;
            };
            if h.input != q.input {
                return Err(format!(
                    "position {}: the inputs differ ({} and {})",
                    h.index, h.input, q.input
                ));
            }
            let cube =
                Cube::from_facelets(&h.input).map_err(|e| format!("position {}: {e}", h.index))?;
            let parity = Metric::Qtm.parity(&cube).expect("QTM has a parity") as usize;
            let (x, y) = (h.length, q.length);
            if x > y || y > 2 * x || y % 2 != parity {
                return Err(format!(
                    "position {}: {x} face turns and {y} quarter turns break \
                     htm ≤ qtm ≤ 2·htm or the corner parity ({parity}); one study is wrong",
                    h.index
                ));
            }
            *t.counts.entry((x, y)).or_default() += 1;
            t.common += 1;
        }
        Ok(t)
    }

    /// The face-turn and the quarter-turn lengths found, each ascending: the grid's axes.
    fn axes(&self) -> (BTreeSet<usize>, BTreeSet<usize>) {
        let htm = self.counts.keys().map(|k| k.0).collect();
        let qtm = self.counts.keys().map(|k| k.1).collect();
        (htm, qtm)
    }

    /// The grid as markdown: quarter-turn lengths down, face-turn lengths across, with the
    /// sums, the means, and the positions of equal length in both.
    pub fn markdown(&self) -> String {
        let (htm, qtm) = self.axes();
        let mut s = format!(
            "## Both metrics\n\nThe {} positions solved in both, by length in quarter turns \
             (rows) and in face turns (columns). Every position has `htm ≤ qtm ≤ 2·htm` and a \
             quarter-turn length of its corner permutation's parity (checked).\n\n| |",
            self.common
        );
        for h in &htm {
            s += &format!(" {h}h |");
        }
        s += " sum |\n|---|";
        s += &"---:|".repeat(htm.len() + 1);
        s += "\n";
        for q in &qtm {
            s += &format!("| {q}q |");
            let mut row = 0;
            for h in &htm {
                let n = self.counts.get(&(*h, *q)).copied().unwrap_or(0);
                row += n;
                s += &if n == 0 {
                    " – |".to_string()
                } else {
                    format!(" {n} |")
                };
            }
            s += &format!(" {row} |\n");
        }
        s += "| sum |";
        for h in &htm {
            let col: u64 = qtm.iter().filter_map(|q| self.counts.get(&(*h, *q))).sum();
            s += &format!(" {col} |");
        }
        s += &format!(" {} |\n\n", self.common);
        let n = self.common.max(1) as f64;
        let mean = |f: fn(&(usize, usize)) -> usize| {
            self.counts
                .iter()
                .map(|(k, &c)| f(k) as f64 * c as f64)
                .sum::<f64>()
                / n
        };
        let equal: u64 = (self.counts.iter())
            .filter(|(k, _)| k.0 == k.1)
            .map(|(_, &c)| c)
            .sum();
        s += &format!(
            "Means: {:.3} face turns, {:.3} quarter turns (Rokicki's 3,000,000 of 2018: 17.706 \
             and 20.663). Equal in both metrics: {equal} of {} (Rokicki's 1,000,000: 2,899, \
             one in 345).\n",
            mean(|k| k.0),
            mean(|k| k.1),
            self.common
        );
        s
    }

    /// The grid as CSV for `stats plot`: one row per quarter-turn length, one column per
    /// face-turn length (`htm L`), each cell the fraction of all positions.
    pub fn csv(&self) -> String {
        let (htm, qtm) = self.axes();
        let mut s = String::from("quarter turns");
        for h in &htm {
            s += &format!(",htm {h}");
        }
        s += "\n";
        for q in &qtm {
            s += &q.to_string();
            for h in &htm {
                let n = self.counts.get(&(*h, *q)).copied().unwrap_or(0);
                s += &format!(",{:.4}", n as f64 / self.common.max(1) as f64);
            }
            s += "\n";
        }
        s
    }
}
