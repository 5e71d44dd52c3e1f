//! Statistics over goals other than solved, end to end: `stats distances --goal` against
//! published counts, and `stats lengths --goal` studies checked by a breadth-first search over
//! the cross's states (which shares no code with the goals or their tables).

mod common;
use common::*;
use optcube::coord::goal::{GoalCheck, conjugate};
use optcube::cube::{Cube, Goal, Metric, Move, parse_moves};
use std::collections::HashMap;
use std::collections::hash_map::Entry;

/// `stats distances --goal`: the published cross and edge-orientation distributions, and a
/// 2x2x2 distribution equal to a search over cubes (`pdb::goal`'s unit test) summed to the
/// block's 253,440 states.
#[test]
fn goal_distances_match_published_counts() {
    let dir = test_dir("goals-dist");
    for (name, want) in [
        (
            "cross",
            vec![1u64, 15, 158, 1394, 9809, 46381, 97254, 34966, 102],
        ),
        ("eo", vec![1, 2, 25, 202, 620, 900, 285, 13]),
    ] {
        let out = dir.join(format!("{name}.csv"));
        let o = optcube(&[
            "stats",
            "distances",
            "--goal",
            name,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        let csv = std::fs::read_to_string(&out).unwrap();
        let got: Vec<u64> = (csv.lines().skip(1))
            .map(|l| l.split(',').nth(1).unwrap().parse().unwrap())
            .collect();
        assert_eq!(got, want, "{name}");
    }
    let o = optcube(&["stats", "distances", "--goal", "f2l", "--out", "/dev/null"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The JSON lines of a study file.
fn study_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Where the four D edges are and how each is turned: the state of the cross on D, read off
/// the cube's pieces.
fn cross_state(c: &Cube) -> [u8; 4] {
    let mut s = [0u8; 4];
    for slot in 0..12 {
        let p = c.edge_perm(slot) as usize;
        if (4..8).contains(&p) {
            s[p - 4] = (slot as u8) << 1 | c.edge_ori(slot);
        }
    }
    s
}

/// The fewest moves that bring the four D edges home, for each of their 190,080 states: a
/// breadth-first search over whole cubes (one for each state) with the 18 moves. It shares no
/// code with the goals or their tables.
fn cross_distances() -> HashMap<[u8; 4], u8> {
    let mut dist = HashMap::from([(cross_state(&Cube::SOLVED), 0)]);
    let mut layer = vec![Cube::SOLVED];
    for d in 1.. {
        let mut next = Vec::new();
        for c in &layer {
            for m in Move::all() {
                let n = c.apply(m);
                if let Entry::Vacant(e) = dist.entry(cross_state(&n)) {
                    e.insert(d);
                    next.push(n);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        layer = next;
    }
    dist
}

/// `stats lengths --goal`: every record reaches its goal, in the fewest moves (each cross
/// length, on D and colour neutral, equals a breadth-first search's over the cross's states,
/// whose counts are the published ones), and the lengths follow the published cross
/// distribution (random positions fall evenly on the goal's states); colour neutrality is
/// never longer; `stats summarize` sets a study beside the goal's exact distribution; and the
/// refusals.
#[test]
fn goal_length_studies() {
    let dir = test_dir("goal-study");
    let d = dir.to_str().unwrap().to_string();
    let run = |extra: &[&str]| {
        let mut a = vec!["stats", "lengths", "--seed", "5", "--pdb-dir", &d];
        a.extend_from_slice(&["--threads", "1"]);
        a.extend_from_slice(extra);
        optcube_in(&dir, &a)
    };
    let out = run(&["--count", "300", "--goal", "cross", "--out", "cross.jsonl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let cross = GoalCheck {
        goal: Goal::named("cross").unwrap(),
        any_orientation: false,
    };
    let bfs = cross_distances();
    let mut by_depth = [0u64; 9];
    for &d in bfs.values() {
        by_depth[d as usize] += 1;
    }
    // Published: the cross states at 0–8 moves.
    let published_states = [1, 15, 158, 1_394, 9_809, 46_381, 97_254, 34_966, 102];
    assert_eq!(by_depth, published_states);
    let records = study_lines(&dir.join("cross.jsonl"));
    assert_eq!(records.len(), 300);
    let mut counts = [0u64; 9];
    let mut lengths = Vec::new();
    for r in &records {
        assert_eq!(r["goal"], "cross");
        let input = Cube::from_facelets(r["input"].as_str().unwrap()).unwrap();
        let sol = parse_moves(r["solution"].as_str().unwrap()).unwrap();
        let len = r["length"].as_u64().unwrap() as usize;
        assert_eq!(sol.len(), len);
        assert!(cross.holds(&input.apply_seq(&sol)), "{r}");
        assert_eq!(len, bfs[&cross_state(&input)] as usize, "{r}");
        counts[len] += 1;
        lengths.push(len);
    }
    // Chi-square over ≤ 4, 5, 6, ≥ 7 (3 degrees of freedom; 16.27 is the
    // 0.1 % critical value).
    let published = [11_377.0, 46_381.0, 97_254.0, 35_068.0];
    let observed = [
        counts[..5].iter().sum::<u64>(),
        counts[5],
        counts[6],
        counts[7..].iter().sum(),
    ];
    let chi: f64 = (published.iter().zip(observed))
        .map(|(p, o)| {
            let e = p / 190_080.0 * 300.0;
            (o as f64 - e).powi(2) / e
        })
        .sum();
    assert!(chi < 16.27, "χ² {chi}: {observed:?}");

    let s = optcube_in(
        &dir,
        &["stats", "summarize", "cross.jsonl", "--out-dir", "o"],
    );
    assert!(s.status.success(), "{}", stderr(&s));
    let md = std::fs::read_to_string(dir.join("o/lengths-seed5-goal-cross.md")).unwrap();
    assert!(md.contains("Against the goal's exact distribution"), "{md}");
    assert!(md.contains("1, 15, 158, 1394, 9809, 46381, 97254, 34966, 102"));

    // Colour neutrality: never longer than the cross on D, and shorter somewhere.
    let out = run(&["--count", "40", "--goal", "cross", "--any-orientation"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let any_path = dir.join("results/lengths-seed5-goal-cross-any.jsonl");
    let neutral = GoalCheck {
        any_orientation: true,
        ..cross.clone()
    };
    let any = study_lines(&any_path);
    let syms = optcube::coord::symmetry::symmetries();
    assert_eq!(any.len(), 40);
    for (r, &fixed) in any.iter().zip(&lengths) {
        let input = Cube::from_facelets(r["input"].as_str().unwrap()).unwrap();
        let sol = parse_moves(r["solution"].as_str().unwrap()).unwrap();
        assert!(neutral.holds(&input.apply_seq(&sol)), "{r}");
        assert!(sol.len() <= fixed, "{r}");
        let rotations = (0..48).step_by(2).map(|s| conjugate(syms, &input, s));
        let least = rotations.map(|c| bfs[&cross_state(&c)]).min().unwrap();
        assert_eq!(sol.len(), least as usize, "{r}");
        assert_eq!(r["any_orientation"], true);
    }
    assert!((any.iter().zip(&lengths)).any(|(r, &f)| (r["length"].as_u64().unwrap() as usize) < f));
    let s = optcube_in(
        &dir,
        &[
            "stats",
            "summarize",
            any_path.to_str().unwrap(),
            "--out-dir",
            "o",
        ],
    );
    assert!(s.status.success(), "{}", stderr(&s));
    let md = std::fs::read_to_string(dir.join("o/lengths-seed5-goal-cross-any.md")).unwrap();
    assert!(md.contains("No reference distribution"), "{md}");

    // In quarter turns too.
    let out = run(&[
        "--count", "30", "--goal", "eo", "--metric", "qtm", "--out", "eo.jsonl",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let eo = GoalCheck {
        goal: Goal::named("eo").unwrap(),
        any_orientation: false,
    };
    for r in study_lines(&dir.join("eo.jsonl")) {
        let input = Cube::from_facelets(r["input"].as_str().unwrap()).unwrap();
        let sol = parse_moves(r["solution"].as_str().unwrap()).unwrap();
        assert!(eo.holds(&input.apply_seq(&sol)), "{r}");
        assert_eq!(
            Metric::Qtm.length(&sol),
            r["length"].as_u64().unwrap() as usize
        );
        assert_eq!(r["metric"], "qtm");
    }

    // Refused, exit 2: goals with a precondition, unknown goals, --dual, --set, two studies merged,
    // and a record whose solution does not reach the goal.
    for (extra, says) in [
        (
            &["--goal", "ll"][..],
            "starts from a position that meets f2l",
        ),
        (&["--goal", "crosss"], "unknown goal"),
        (&["--goal", "cross", "--dual"], "--dual"),
        (
            &["--goal", "cross", "--set", "korf6"],
            "a goal study reads the goal's own",
        ),
    ] {
        let out = run(&[&["--count", "3", "--out", "x.jsonl"][..], extra].concat());
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
    }
    let s = optcube_in(&dir, &["stats", "summarize", "cross.jsonl", "eo.jsonl"]);
    assert_eq!(s.status.code(), Some(2), "{}", stderr(&s));
    let text = std::fs::read_to_string(dir.join("cross.jsonl")).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    let wrong = format!("\"solution\":\"{}\"", first["solution"].as_str().unwrap());
    let bad = text.replacen(&wrong, "\"solution\":\"U U\"", 1);
    std::fs::write(dir.join("bad.jsonl"), bad).unwrap();
    let out = run(&["--count", "300", "--goal", "cross", "--out", "bad.jsonl"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("does not take the input to goal cross"),
        "{}",
        stderr(&out)
    );
}
