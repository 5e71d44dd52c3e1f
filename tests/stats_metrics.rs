//! End-to-end test of a study in two metrics: `stats lengths --metric qtm` on the positions of a
//! half-turn study, each quarter-turn length checked against a meet-in-the-middle search over
//! whole positions (no table, no IDA*), and `stats summarize --other-metric` setting the two
//! side by side, with its refusals.

mod common;

use common::{korf6_dir, optcube_in, stderr, test_dir};
use optcube::cube::{Cube, Move};
use std::collections::HashMap;
use std::path::Path;

/// Every position within `r` quarter turns of `from`, with its distance (plain BFS).
fn quarter_ball(from: Cube, r: u8) -> HashMap<Cube, u8> {
    let turns: Vec<Move> = Move::all().filter(|m| m.quarter_turns() != 2).collect();
    let mut dist = HashMap::from([(from, 0u8)]);
    let mut layer = vec![from];
    for d in 1..=r {
        let mut next = Vec::new();
        for c in &layer {
            for &m in &turns {
                let n = c.apply(m);
                dist.entry(n).or_insert_with(|| {
                    next.push(n);
                    d
                });
            }
        }
        layer = next;
    }
    dist
}

/// The quarter-turn distance of `cube` if at most 8: the least sum of distances over the
/// positions both 4-balls (around solved and around `cube`) hold.
fn qtm_distance(solved: &HashMap<Cube, u8>, cube: &Cube) -> Option<u8> {
    quarter_ball(*cube, 4)
        .iter()
        .filter_map(|(c, d)| solved.get(c).map(|e| d + e))
        .min()
}

fn lengths(dir: &Path, metric: &str, out: &str) {
    let o = optcube_in(
        dir,
        &[
            "stats",
            "lengths",
            "--moves",
            "4",
            "--count",
            "10",
            "--seed",
            "7",
            "--set",
            "korf6",
            "--pdb-dir",
            korf6_dir(),
            "--threads",
            "1",
            "--metric",
            metric,
            "--out",
            out,
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
}

fn records(path: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn one_seed_in_two_metrics() {
    let dir = test_dir("two-metrics");
    lengths(&dir, "htm", "h.jsonl");
    lengths(&dir, "qtm", "q.jsonl");
    let (h, q) = (records(&dir.join("h.jsonl")), records(&dir.join("q.jsonl")));
    assert_eq!((h.len(), q.len()), (10, 10));
    let solved = quarter_ball(Cube::SOLVED, 4);
    for (a, b) in h.iter().zip(&q) {
        assert_eq!(a["input"], b["input"], "the same positions");
        assert!(a.get("metric").is_none(), "half-turn lines unchanged: {a}");
        assert_eq!(b["metric"], "qtm");
        let cube = Cube::from_facelets(b["input"].as_str().unwrap()).unwrap();
        let want = qtm_distance(&solved, &cube).expect("4 face turns are at most 8q");
        assert_eq!(b["length"].as_u64(), Some(want as u64), "{b}");
    }

    // The grid: every position once, and the report, CSV and chart written.
    let o = optcube_in(
        &dir,
        &[
            "stats",
            "summarize",
            "--out-dir",
            "o",
            "--name",
            "s",
            "q.jsonl",
            "--other-metric",
            "h.jsonl",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let md = std::fs::read_to_string(dir.join("o/s.md")).unwrap();
    assert!(md.contains("## Both metrics"), "{md}");
    assert!(md.contains("The 10 positions solved in both"), "{md}");
    let csv = std::fs::read_to_string(dir.join("o/s-metrics.csv")).unwrap();
    assert!(csv.starts_with("quarter turns,htm "), "{csv}");
    let total: f64 = (csv.lines().skip(1))
        .flat_map(|l| l.split(',').skip(1).map(|x| x.parse::<f64>().unwrap()))
        .sum();
    assert!((total - 1.0).abs() < 1e-3, "{csv}");
    assert!(
        std::fs::read_to_string(dir.join("o/s-metrics.svg"))
            .unwrap()
            .contains("<svg")
    );

    // The same metric twice is no grid; a quarter-turn length below the face-turn one is a
    // wrong study, named. Nothing is written.
    let refused = |other: &str| {
        let args = [
            "stats",
            "summarize",
            "--out-dir",
            "p",
            "q.jsonl",
            "--other-metric",
        ];
        let o = optcube_in(&dir, &[&args[..], &[other]].concat());
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        stderr(&o)
    };
    assert!(refused("q.jsonl").contains("not one set of positions in two metrics"));
    let mut longer = h.clone();
    let i = (0..10)
        .find(|&i| h[i]["length"] == q[i]["length"])
        .expect("a position as long in both");
    let sol = format!("{} U U'", h[i]["solution"].as_str().unwrap());
    longer[i]["solution"] = sol.into();
    longer[i]["length"] = (h[i]["length"].as_u64().unwrap() + 2).into();
    let body: String = longer.iter().map(|v| format!("{v}\n")).collect();
    std::fs::write(dir.join("longer.jsonl"), body).unwrap();
    let e = refused("longer.jsonl");
    assert!(
        e.contains(&format!("position {i}:")) && e.contains("one study is wrong"),
        "{e}"
    );
    assert!(!dir.join("p").exists(), "nothing written on refusal");
}
