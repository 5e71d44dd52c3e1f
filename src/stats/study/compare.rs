//! A length study of uniformly random positions set against the published distribution of
//! optimal lengths in its metric (Rokicki's 3,000,000 random positions, cube20.org; in
//! quarter turns his 3,000,000 of 2018, solved in four metrics): per length the observed
//! fraction with its Wilson 95 % interval next to the published fraction, and a chi-square
//! goodness-of-fit test over lengths merged until every expected count is at least 5.
//!
//! The chi-square p-value is the upper regularized incomplete gamma function `Q(df/2, x/2)`,
//! computed by its series below `a + 1` and by its continued fraction above (the two standard
//! expansions; checked against the textbook critical values in the tests).

use crate::cube::Metric;
use crate::stats::BatchSummary;

/// The published fractions of optimal lengths of random positions in half turns (the
/// metric's declaration, [`crate::cube::metric::Declaration::random_lengths`]).
pub const PUBLISHED_LENGTHS: &[(u32, u32, f64)] = Metric::Htm.declaration().random_lengths;

/// The published bins of `metric`: `(first length, last length, fraction)`. Studies solve
/// optimally only in the metrics whose declarations give a distribution (`Metric::searched`).
pub fn published_lengths(metric: Metric) -> &'static [(u32, u32, f64)] {
    let bins = metric.declaration().random_lengths;
    assert!(!bins.is_empty(), "no published lengths in {metric}");
    bins
}

/// The Wilson score interval of `k` successes in `n` trials at `z` standard deviations.
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p) = (n as f64, k as f64 / n as f64);
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, 9 terms).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        let pi = std::f64::consts::PI;
        return (pi / (pi * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let sum = C[1..]
        .iter()
        .enumerate()
        .fold(C[0], |s, (i, c)| s + c / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// `Q(a, x) = Γ(a, x) / Γ(a)`, the upper regularized incomplete gamma function.
pub fn gamma_q(a: f64, x: f64) -> f64 {
    if x <= 0.0 {
        return 1.0;
    }
    let front = (-x + a * x.ln() - ln_gamma(a)).exp();
    if x < a + 1.0 {
        // P(a, x) by its series: e^-x x^a / Γ(a) · Σ x^n / (a (a+1) … (a+n)).
        let (mut term, mut sum, mut ap) = (1.0 / a, 1.0 / a, a);
        for _ in 0..1000 {
            ap += 1.0;
            term *= x / ap;
            sum += term;
            if term.abs() < sum.abs() * 1e-15 {
                break;
            }
        }
        1.0 - front * sum
    } else {
        // Q(a, x) by its continued fraction (modified Lentz).
        let tiny = 1e-300;
        let mut b = x + 1.0 - a;
        let mut c = 1.0 / tiny;
        let mut d = 1.0 / b;
        let mut h = d;
        for i in 1..1000 {
            let an = -(i as f64) * (i as f64 - a);
            b += 2.0;
            d = an * d + b;
            if d.abs() < tiny {
                d = tiny;
            }
            c = b + an / c;
            if c.abs() < tiny {
                c = tiny;
            }
            d = 1.0 / d;
            let delta = d * c;
            h *= delta;
            if (delta - 1.0).abs() < 1e-15 {
                break;
            }
        }
        front * h
    }
}

/// A chi-square goodness-of-fit test: the statistic, its degrees of freedom and p-value, and
/// the bins used (first and last length of each, observed, expected).
#[derive(Clone, Debug)]
pub struct ChiSquare {
    pub statistic: f64,
    pub df: u32,
    pub p: f64,
    pub bins: Vec<(u32, u32, u64, f64)>,
}

/// Tests `observed` (count per bin of `published`, e.g. [`PUBLISHED_LENGTHS`]) against the
/// published fractions, merging neighbouring bins (smallest first) until every expected count
/// is at least 5. `None` when fewer than two bins remain.
pub fn chi_square(observed: &[u64], published: &[(u32, u32, f64)]) -> Option<ChiSquare> {
    let n: u64 = observed.iter().sum();
    let mut bins: Vec<(u32, u32, u64, f64)> = published
        .iter()
        .zip(observed)
        .map(|(&(lo, hi, f), &o)| (lo, hi, o, f * n as f64))
        .collect();
    while bins.len() > 1 {
        let (i, _) = bins
            .iter()
            .enumerate()
            .min_by(|a, b| a.1.3.total_cmp(&b.1.3))
            .expect("bins");
        if bins[i].3 >= 5.0 {
            break;
        }
        // Merge with the smaller neighbour.
        let j = if i == 0 {
            1
        } else if i == bins.len() - 1 || bins[i - 1].3 <= bins[i + 1].3 {
            i - 1
        } else {
            i + 1
        };
        let (a, b) = (i.min(j), i.max(j));
        let merged = (
            bins[a].0,
            bins[b].1,
            bins[a].2 + bins[b].2,
            bins[a].3 + bins[b].3,
        );
        bins[a] = merged;
        bins.remove(b);
    }
    if bins.len() < 2 {
        return None;
    }
    let statistic = bins
        .iter()
        .map(|&(_, _, o, e)| (o as f64 - e).powi(2) / e)
        .sum();
    let df = bins.len() as u32 - 1;
    Some(ChiSquare {
        statistic,
        df,
        p: gamma_q(df as f64 / 2.0, statistic / 2.0),
        bins,
    })
}

/// The counts of a study's lengths in the bins of `published`.
pub fn binned(summary: &BatchSummary, published: &[(u32, u32, f64)]) -> Vec<u64> {
    let mut out = vec![0u64; published.len()];
    for (len, &n) in summary.lengths() {
        if let Some(l) = len {
            let i = published
                .iter()
                .position(|&(lo, hi, _)| (lo..=hi).contains(&(*l as u32)))
                .expect("the bins cover every length");
            out[i] += n;
        }
    }
    out
}

/// A distribution a study is set against: bins `(first length, last length, fraction)` that
/// cover every length, and where they come from.
#[derive(Clone, Debug)]
pub struct Reference {
    pub bins: Vec<(u32, u32, f64)>,
    pub source: String,
    /// The section's title: what the distribution is.
    pub title: &'static str,
    /// The table's word for the reference's fractions.
    pub column: &'static str,
}

impl Reference {
    /// The published distribution of optimal lengths of random positions in `metric`.
    pub fn published(metric: Metric) -> Reference {
        let source = metric.declaration().random_lengths_source;
        Reference {
            bins: published_lengths(metric).to_vec(),
            source: source.into(),
            title: "Against the published distribution",
            column: "published",
        }
    }

    /// A goal's exact distribution: `histogram[d]` states at distance `d` (a breadth-first
    /// count of all its states). A uniformly random position's distance to the goal is that of
    /// a uniformly random state, since every state is the image of as many positions; so a
    /// study's lengths follow these fractions. One bin per distance, the last open-ended.
    pub fn exact(histogram: &[u64], source: String) -> Reference {
        let total: u64 = histogram.iter().sum();
        let last = histogram.len().saturating_sub(1) as u32;
        let bins = (histogram.iter().enumerate())
            .map(|(d, &n)| {
                let d = d as u32;
                let hi = if d == last { 30 } else { d };
                (d, hi, n as f64 / total.max(1) as f64)
            })
            .collect();
        Reference {
            bins,
            source,
            title: "Against the goal's exact distribution",
            column: "exact",
        }
    }
}

/// The comparison as markdown: the per-length table with Wilson intervals, then the test.
/// `summary` holds lengths in the reference's metric.
pub fn comparison_md(summary: &BatchSummary, reference: &Reference) -> String {
    let published = &reference.bins[..];
    let observed = binned(summary, published);
    let n: u64 = observed.iter().sum();
    let label = |lo: u32, hi: u32| match (lo, hi) {
        (l, h) if l == h => l.to_string(),
        (0, h) => format!("≤ {h}"),
        (l, 30) => format!("≥ {l}"),
        (l, h) => format!("{l}–{h}"),
    };
    let source = &reference.source;
    let mut s = format!(
        "## {}\n\n\
         {source}. Observed fractions with their Wilson 95 % intervals.\n\n\
         | length | count | observed | 95 % interval | {col} | {col} inside |\n\
         |---|---:|---:|---|---:|---|\n",
        reference.title,
        col = reference.column
    );
    for (&(lo, hi, f), &o) in published.iter().zip(&observed) {
        let (a, b) = wilson(o, n, 1.96);
        s += &format!(
            "| {} | {o} | {:.4} | {:.4}–{:.4} | {f:.6} | {} |\n",
            label(lo, hi),
            o as f64 / n.max(1) as f64,
            a,
            b,
            if (a..=b).contains(&f) { "yes" } else { "no" }
        );
    }
    match chi_square(&observed, published) {
        Some(c) => {
            let bins: Vec<String> = c
                .bins
                .iter()
                .map(|&(lo, hi, o, e)| format!("{} {o}/{e:.1}", label(lo, hi)))
                .collect();
            s += &format!(
                "\nChi-square goodness of fit over lengths merged until every expected count is \
                 at least 5 (observed/expected: {}): χ² = {:.3}, {} degrees of freedom, \
                 p = {:.3}{}.\n",
                bins.join(", "),
                c.statistic,
                c.df,
                c.p,
                if c.p < 0.05 {
                    " — the study differs from the published distribution at the 5 % level"
                } else {
                    " — no evidence of a difference at the 5 % level"
                }
            );
        }
        None => {
            s += "\nToo few positions for a chi-square test (fewer than two bins of 5 expected).\n"
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_fractions_sum_to_one() {
        for metric in [Metric::Htm, Metric::Qtm] {
            let sum: f64 = published_lengths(metric).iter().map(|b| b.2).sum();
            assert!((sum - 1.0).abs() < 1e-6, "{metric}: {sum}");
        }
        // The quarter-turn mean from the bins' counts is the published 20.663.
        let counts = [
            25_377.0,
            206_335.0,
            993_235.0,
            1_289_020.0,
            481_228.0,
            1_645.0,
        ];
        let low = 5.0 * 14.0 + 34.0 * 15.0 + 323.0 * 16.0 + 2_798.0 * 17.0;
        let mean = (low
            + (18..=23)
                .zip(counts)
                .map(|(l, n)| l as f64 * n)
                .sum::<f64>())
            / 3e6;
        assert!((mean - 20.663).abs() < 5e-4, "{mean}");
    }

    /// The textbook 5 % critical values give p = 0.05, and Q(1, x) = e^-x exactly.
    #[test]
    fn chi_square_p_values_match_the_tables() {
        for (df, x) in [
            (1.0, 3.841_459),
            (2.0, 5.991_465),
            (3.0, 7.814_728),
            (5.0, 11.070_5),
        ] {
            let p = gamma_q(df / 2.0, x / 2.0);
            assert!((p - 0.05).abs() < 1e-4, "df {df}: {p}");
        }
        for x in [0.1, 1.0, 4.0, 30.0] {
            assert!((gamma_q(1.0, x) - (-x).exp()).abs() < 1e-12);
        }
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12);
    }

    #[test]
    fn wilson_interval_brackets_the_fraction() {
        let (a, b) = wilson(50, 100, 1.96);
        assert!(
            (a - 0.4038).abs() < 1e-3 && (b - 0.5962).abs() < 1e-3,
            "{a} {b}"
        );
        let (a, b) = wilson(0, 20, 1.96);
        assert_eq!(a, 0.0);
        assert!((b - 0.1611).abs() < 1e-3, "{b}");
    }

    /// A sample in the published proportions fits (p near 1); one of 18-movers only does not;
    /// small bins are merged so that every expected count is at least 5.
    #[test]
    fn chi_square_tells_a_fitting_sample_from_a_skewed_one() {
        let fit = [0u64, 2, 27, 267, 670, 34];
        let c = chi_square(&fit, PUBLISHED_LENGTHS).unwrap();
        assert!(c.p > 0.9, "{c:?}");
        assert!(c.bins.iter().all(|b| b.3 >= 5.0));
        assert_eq!(c.bins.len(), 4, "{c:?}");
        let skewed = [0u64, 0, 0, 100, 900, 0];
        assert!(chi_square(&skewed, PUBLISHED_LENGTHS).unwrap().p < 1e-6);
        assert!(chi_square(&[0, 0, 0, 1, 2, 0], PUBLISHED_LENGTHS).is_none());
    }
}
