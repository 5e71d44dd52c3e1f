//! Goals other than solved, end to end: `solve --goal/--mask/--target/--any-orientation` and
//! `stats distances --goal`. Every distance is checked against something that shares no code
//! with the goal tables: a brute-force enumeration of move sequences, or published counts.

mod common;
use common::*;
use optcube::coord::goal::GoalCheck;
use optcube::cube::{Cube, Goal, Metric, Move, format_moves, parse_moves};

fn cube(s: &str) -> Cube {
    Cube::from_moves(&parse_moves(s).unwrap())
}

/// `check.holds`, but in any orientation by trying all 24 rotations, not the solver's distinct
/// ones.
fn holds_in_any_of_24(check: &GoalCheck, c: &Cube) -> bool {
    if !check.any_orientation {
        return check.holds(c);
    }
    let syms = optcube::coord::symmetry::symmetries();
    (0..48).step_by(2).any(|s| {
        check
            .goal
            .holds(&optcube::coord::goal::conjugate(syms, c, s))
    })
}

/// Every canonical sequence (never a face twice in a row; opposite faces in one order) of
/// exactly `len` moves after which `check` holds on `start`: by enumeration.
fn brute_solutions(start: &Cube, check: &GoalCheck, len: usize, metric: Metric) -> Vec<String> {
    brute_solutions_in(start, check, len, metric, "URFDLB")
}

/// [`brute_solutions`] with the turns of the faces in `faces` only.
fn brute_solutions_in(
    start: &Cube,
    check: &GoalCheck,
    len: usize,
    metric: Metric,
    faces: &str,
) -> Vec<String> {
    brute_solutions_to(start, &|c| holds_in_any_of_24(check, c), len, metric, faces)
}

/// [`brute_solutions_in`] toward the positions where `reached` holds.
fn brute_solutions_to(
    start: &Cube,
    reached: &dyn Fn(&Cube) -> bool,
    len: usize,
    metric: Metric,
    faces: &str,
) -> Vec<String> {
    #[allow(clippy::too_many_arguments)]
    fn walk(
        c: &Cube,
        left: i32,
        last: Option<Move>,
        path: &mut Vec<Move>,
        reached: &dyn Fn(&Cube) -> bool,
        metric: Metric,
        faces: &str,
        out: &mut Vec<Vec<Move>>,
    ) {
        if left == 0 {
            if reached(c) {
                out.push(path.clone());
            }
            return;
        }
        for m in Move::all() {
            let cost = metric.cost(m) as i32;
            let face = m.to_string().chars().next().unwrap();
            if cost > left || !optcube::cube::allowed_after(last, m) || !faces.contains(face) {
                continue;
            }
            path.push(m);
            walk(
                &c.apply(m),
                left - cost,
                Some(m),
                path,
                reached,
                metric,
                faces,
                out,
            );
            path.pop();
        }
    }
    let mut out = Vec::new();
    walk(
        start,
        len as i32,
        None,
        &mut Vec::new(),
        reached,
        metric,
        faces,
        &mut out,
    );
    // The solver's order: sorted by move index.
    out.sort();
    out.iter().map(|s| format_moves(s)).collect()
}

/// The least length at which `brute_solutions` finds any, and those solutions.
fn brute_optimal(start: &Cube, check: &GoalCheck, metric: Metric) -> (usize, Vec<String>) {
    for len in 0..=7 {
        let s = brute_solutions(start, check, len, metric);
        if !s.is_empty() {
            return (len, s);
        }
    }
    panic!("no solution within 7");
}

fn solve_goal(dir: &str, position: &str, extra: &[&str]) -> serde_json::Value {
    let mut args = vec!["solve", position, "--json", "--pdb-dir", dir];
    args.extend_from_slice(extra);
    let (v, err) = optcube_json(&args);
    assert!(v.is_object(), "{err}");
    v
}

/// `--all` lists equal the enumeration of every sequence that reaches the goal at the
/// least length, for several goals, both metrics and colour neutrality.
#[test]
fn all_optimal_goal_solutions_equal_brute_force() {
    let dir = test_dir("goals-all");
    let dir = dir.to_str().unwrap();
    let cases = [
        ("cross", "R U F D2 L B'", false, Metric::Htm),
        ("cross", "R U F D2 L B' R2", true, Metric::Htm),
        ("eo", "F R B' U L D'", false, Metric::Htm),
        ("eo", "F R B' U", false, Metric::Qtm),
        ("eo-ud", "U R F' D L B", false, Metric::Htm),
        ("eo-rl", "R U F' L D", false, Metric::Htm),
        ("2x2x2", "R U F D2 L", false, Metric::Htm),
        ("cross", "L F' D B", false, Metric::Qtm),
    ];
    for (name, scramble, any, metric) in cases {
        let check = GoalCheck {
            goal: Goal::named(name).unwrap(),
            any_orientation: any,
        };
        let start = cube(scramble);
        let (len, want) = brute_optimal(&start, &check, metric);
        let mut extra = vec!["--goal", name, "--all", "--metric", metric.name()];
        if any {
            extra.push("--any-orientation");
        }
        let v = solve_goal(dir, scramble, &extra);
        assert_eq!(v["length"], len, "{name} {scramble}");
        assert_eq!(v["optimal"], true);
        assert_eq!(v["goal"], name);
        let got: Vec<String> = (v["solutions"].as_array().unwrap().iter())
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        assert_eq!(got, want, "{name} {scramble} {metric}");
    }
}

/// Goals about another axis with a move set (the search, not the walk down the exact table,
/// with the goal's conjugate read): the least length equals the enumeration's. The search
/// once read the unconjugated position's table entry there and proved too long a solution.
#[test]
fn axis_goals_in_a_move_set_equal_brute_force() {
    let dir = test_dir("goals-axis-moveset");
    let dir = dir.to_str().unwrap();
    // Random positions (seed 1) that the old search solved in 5, 6, 6 and 7 moves.
    for (name, faces, position) in [
        (
            "eo-rl",
            "RUFLD",
            "LBFUUDBRFUFLFRDRLFLFRBFLRBFBDDUDDBUUBBDULLUFDDRURBLLRR",
        ),
        (
            "eo-rl",
            "RUFLD",
            "LDBRULBBDLFDURDDFRDUFFFRULRRBFUDULBBBBRRLRFLFLFULBDUDU",
        ),
        (
            "eo-ud",
            "RUFLB",
            "BFULURDBRBUFFRUBUUFRDDFLUUDLLLLDFFRLRBRDLRLDBRDUBBBFFD",
        ),
        (
            "eo-ud",
            "RUFLB",
            "LFFUUFRLBLRRDRDULDUUDBFLFDBDBLFDBBURURBULRRLLUDFRBFFBD",
        ),
    ] {
        let check = GoalCheck {
            goal: Goal::named(name).unwrap(),
            any_orientation: false,
        };
        let start = Cube::from_facelets(position).unwrap();
        let len = (0..=6)
            .find(|&l| !brute_solutions_in(&start, &check, l, Metric::Htm, faces).is_empty())
            .expect("within 6");
        let set: String = faces.chars().map(|f| format!("{f} ")).collect();
        let v = solve_goal(dir, position, &["--goal", name, "--moveset", set.trim()]);
        assert_eq!(v["length"], len, "{name} in {faces}: {position}");
    }
}

/// `htr`, Thistlethwaite's G3, against the group itself, found here as the closure of the
/// solved cube under the six half turns (no goal code): its published 663,552 elements. The
/// goal holds on each of them, and exactly on them among positions that meet every label it
/// has (tetrads, slices, orientations) but five in six of which have the wrong corner coset,
/// and among positions of the domino group. Solutions to G3 from positions a few moves away
/// are as short as the enumeration's, and `--all` lists the same sequences.
#[test]
fn htr_is_the_half_turn_group() {
    use std::collections::HashSet;
    let half: Vec<Move> = Move::all().filter(|m| m.quarter_turns() == 2).collect();
    let mut g3 = HashSet::from([Cube::SOLVED]);
    let mut todo = vec![Cube::SOLVED];
    while let Some(c) = todo.pop() {
        for &m in &half {
            let n = c.apply(m);
            if g3.insert(n) {
                todo.push(n);
            }
        }
    }
    assert_eq!(g3.len(), 663_552);
    let htr = Goal::named("htr").unwrap();
    assert!(g3.iter().all(|c| htr.holds(c)));

    let mut rng = optcube::cube::Rng::new(11);
    let mut shuffle = |pieces: &[u8], slots: &mut [u8]| {
        let mut left = pieces.to_vec();
        for &s in pieces {
            let k = rng.below(left.len() as u64) as usize;
            slots[s as usize] = left.swap_remove(k);
        }
    };
    let (mut inside, mut outside) = (0, 0);
    for _ in 0..3000 {
        let (mut cp, mut ep) = ([0u8; 8], [0u8; 12]);
        shuffle(&[0, 2, 5, 7], &mut cp);
        shuffle(&[1, 3, 4, 6], &mut cp);
        shuffle(&[1, 3, 5, 7], &mut ep);
        shuffle(&[0, 2, 4, 6], &mut ep);
        shuffle(&[8, 9, 10, 11], &mut ep);
        let c = Cube::from_parts(cp, [0; 8], ep, [0; 12]);
        let c = if c.validate().is_ok() {
            c
        } else {
            // Mend the permutation parity with a swap of two E-slice edges.
            ep.swap(8, 9);
            Cube::from_parts(cp, [0; 8], ep, [0; 12])
        };
        assert!(c.validate().is_ok());
        assert_eq!(htr.holds(&c), g3.contains(&c), "{:?}", c.cp());
        if g3.contains(&c) {
            inside += 1
        } else {
            outside += 1
        }
    }
    assert!(inside > 300 && outside > 2000, "{inside} {outside}");
    let domino: Vec<Move> = (Move::all())
        .filter(|m| m.quarter_turns() == 2 || "UD".contains(&m.to_string()[..1]))
        .collect();
    let mut c = Cube::SOLVED;
    for _ in 0..3000 {
        c = c.apply(domino[rng.below(domino.len() as u64) as usize]);
        assert_eq!(htr.holds(&c), g3.contains(&c));
    }

    let dir = test_dir("goals-htr");
    let dir = dir.to_str().unwrap();
    let in_g3 = |c: &Cube| g3.contains(c);
    for (k, scramble) in [
        "R U F' L D",
        "F2 U R' B L2 D'",
        "L D' B R U2",
        "U' F R2 D B'",
    ]
    .iter()
    .enumerate()
    {
        // A random element of G3, then the scramble.
        let mut g = Cube::SOLVED;
        for _ in 0..40 {
            g = g.apply(half[rng.below(6) as usize]);
        }
        let start = g.apply_seq(&parse_moves(scramble).unwrap());
        let (len, want) = (0..=6)
            .map(|l| {
                (
                    l,
                    brute_solutions_to(&start, &in_g3, l, Metric::Htm, "URFDLB"),
                )
            })
            .find(|(_, s)| !s.is_empty())
            .expect("within 6");
        let position = start.to_facelets();
        let mut extra = vec!["--goal", "htr"];
        if k == 0 {
            extra.push("--all");
        }
        let v = solve_goal(dir, &position, &extra);
        assert_eq!(v["length"], len, "{scramble}");
        assert_eq!(v["optimal"], true);
        let sol = parse_moves(v["solution"].as_str().unwrap()).unwrap();
        assert!(g3.contains(&start.apply_seq(&sol)), "{scramble}");
        if k == 0 {
            let got: Vec<String> = (v["solutions"].as_array().unwrap().iter())
                .map(|s| s.as_str().unwrap().to_string())
                .collect();
            assert_eq!(got, want, "{scramble}");
        }
    }

    // From domino positions with the domino moves: Thistlethwaite's phase 3, whose exact table
    // is a breadth-first search over cubes by another coordinate, needs as many moves.
    let file = std::path::Path::new(dir).join("domino.txt");
    let mut text = String::new();
    for _ in 0..12 {
        let mut c = Cube::SOLVED;
        for _ in 0..40 {
            c = c.apply(domino[rng.below(domino.len() as u64) as usize]);
        }
        text += &format!("{}\n", c.to_facelets());
    }
    std::fs::write(&file, text).unwrap();
    let file = file.to_str().unwrap();
    let lines = |args: &[&str]| -> Vec<serde_json::Value> {
        let o = optcube(args);
        assert!(o.status.success(), "{}", stderr(&o));
        (stdout(&o).lines())
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let ours = lines(&[
        "solve",
        "--file",
        file,
        "--goal",
        "htr",
        "--moveset",
        "U D R2 L2 F2 B2",
        "--json",
        "--pdb-dir",
        dir,
    ]);
    let thistle = lines(&[
        "solve",
        "--file",
        file,
        "--solver",
        "thistlethwaite",
        "--json",
        "--pdb-dir",
        dir,
    ]);
    assert_eq!(ours.len(), 12);
    for (a, b) in ours.iter().zip(&thistle) {
        assert_eq!(b["phase_lengths"][1], 0);
        assert_eq!(a["length"], b["phase_lengths"][2], "{a} {b}");
    }
}

/// Larger goals (several tables, or one large one) give solutions that reach the goal, no
/// longer than what any shorter goal they contain needs and no shorter than it.
#[test]
fn block_goals_reach_their_goal_and_are_ordered() {
    let dir = test_dir("goals-blocks");
    let dir = dir.to_str().unwrap();
    let scramble = "R U F D2 L B' R2 U F' L2 D R B2";
    let start = cube(scramble);
    let mut last = 0;
    for name in ["2x2x2", "xcross"] {
        let v = solve_goal(dir, scramble, &["--goal", name]);
        let sol = parse_moves(v["solution"].as_str().unwrap()).unwrap();
        assert!(
            Goal::named(name).unwrap().holds(&start.apply_seq(&sol)),
            "{name}"
        );
        let len = v["length"].as_u64().unwrap();
        assert!(len >= last, "{name}");
        last = len;
    }
    // dr: two relaxations (corners with the slice, edges); a random position needs 7 to 12.
    let v = solve_goal(dir, scramble, &["--goal", "dr", "--max-depth", "12"]);
    let sol = parse_moves(v["solution"].as_str().unwrap()).unwrap();
    assert!(Goal::named("dr").unwrap().holds(&start.apply_seq(&sol)));
    assert_eq!(v["optimal"], true);
}

/// `--target`: the solution takes the position to the target; a target equal to the position
/// needs nothing; the two-phase solver refuses it.
#[test]
fn target_positions() {
    let dir = korf6_dir();
    let (p, t) = ("R U F'", "R U F' D2 L");
    let v = solve_goal(
        dir,
        p,
        &["--target", t, "--set", "korf6", "--no-upper-bound"],
    );
    let sol = parse_moves(v["solution"].as_str().unwrap()).unwrap();
    assert_eq!(cube(p).apply_seq(&sol), cube(t));
    assert_eq!(v["length"], 2);
    assert_eq!(v["target"], t);
    let v = solve_goal(
        dir,
        t,
        &["--target", t, "--set", "korf6", "--no-upper-bound"],
    );
    assert_eq!(v["length"], 0);
    let o = optcube(&["solve", p, "--target", t, "--solver", "twophase"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--target"), "{}", stderr(&o));
}

/// Each bad mask and goal is refused with exit 2 and a message naming what is wrong, before
/// any table is touched.
#[test]
fn bad_goals_and_masks_are_refused() {
    let cross = Goal::named("cross").unwrap().mask().unwrap();
    let with = |i: usize, c: u8| {
        let mut m = cross.clone().into_bytes();
        m[i] = c;
        String::from_utf8(m).unwrap()
    };
    let ambiguous = "xxxxUxxxUxxxxRxxxxxxxxFxxxxxxxxDxxxxxxxxLxxxxxxxxBxxxx".to_string();
    let partial = "xxxxUxxxxxxxxRxxxxxFxxFxxxxxxxxDxxxxxxxxLxxxxxxxxBxxxx".to_string();
    let empty = "xxxxUxxxxxxxxRxxxxxxxxFxxxxxxxxDxxxxxxxxLxxxxxxxxBxxxx".to_string();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec!["--mask".into(), "UUU".into()], "3 characters"),
        (vec!["--mask".into(), with(0, b'Q')], "U1"),
        (vec!["--mask".into(), with(0, b'R')], "shows U there"),
        (vec!["--mask".into(), with(4, b'R')], "U5"),
        (vec!["--mask".into(), ambiguous], "ambiguous"),
        (vec!["--mask".into(), partial], "F2"),
        (vec!["--mask".into(), empty], "every sticker free"),
        (vec!["--goal".into(), "crosss".into()], "unknown goal"),
        (vec!["--any-orientation".into()], "needs a goal"),
        (vec!["--goal".into(), "pll".into()], "meets oll"),
        (
            vec![
                "--goal".into(),
                "cross".into(),
                "--mask".into(),
                cross.clone(),
            ],
            "cannot be used",
        ),
    ];
    let dir = test_dir("goals-bad");
    for (args, want) in cases {
        let mut all = vec!["solve", "R U", "--pdb-dir", dir.to_str().unwrap()];
        all.extend(args.iter().map(String::as_str));
        let o = optcube(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(want), "{args:?}: {}", stderr(&o));
    }
    assert!(
        std::fs::read_dir(&dir).map_or(true, |d| d.count() == 0),
        "nothing written"
    );
}

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

/// `show`: letters off a terminal, `.` where the goal leaves a sticker free (the cross marks
/// its four edges' eight stickers and the six centres), a picture of 54 stickers, a bad mask
/// refused.
#[test]
fn show_draws_the_net_with_free_stickers_gray() {
    let o = optcube(&["show", "R U F", "--goal", "cross"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.matches('.').count(), 54 - 8 - 6, "{text}");
    assert_eq!(text.chars().filter(|c| c.is_ascii_uppercase()).count(), 14);
    let svg = test_dir("goals-show").join("net.svg");
    let o = optcube(&["show", "R U", "--svg", svg.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .matches("<rect")
            .count(),
        54
    );
    assert!(!stdout(&o).contains('.'));
    let o = optcube(&["show", "R U", "--mask", "xx"]);
    assert_eq!(o.status.code(), Some(2));
    // htr has no mask: its corner condition is no sticker's.
    let o = optcube(&["show", "R U", "--goal", "htr"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no sticker says"), "{}", stderr(&o));
}

/// The JSON lines of a study file.
fn study_lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `stats lengths --goal`: every record reaches its goal, in the fewest moves (checked by
/// enumeration through 5 moves), and the lengths follow the published cross distribution
/// (random positions fall evenly on the goal's states); colour neutrality is never longer;
/// `stats summarize` sets a study beside the goal's exact distribution; and the refusals.
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
        let shorter =
            (0..len.min(6)).find(|&l| !brute_solutions(&input, &cross, l, Metric::Htm).is_empty());
        assert_eq!(shorter, None, "a shorter cross: {r}");
        counts[len] += 1;
        lengths.push(len);
    }
    // Published: 1, 15, 158, 1,394, 9,809, 46,381, 97,254, 34,966, 102 of 190,080 cross
    // states at 0–8 moves. Chi-square over ≤ 4, 5, 6, ≥ 7 (3 degrees of freedom; 16.27 is the
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
    assert_eq!(any.len(), 40);
    for (r, &fixed) in any.iter().zip(&lengths) {
        let input = Cube::from_facelets(r["input"].as_str().unwrap()).unwrap();
        let sol = parse_moves(r["solution"].as_str().unwrap()).unwrap();
        assert!(neutral.holds(&input.apply_seq(&sol)), "{r}");
        assert!(sol.len() <= fixed, "{r}");
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

/// A goal table that cannot be used — one byte flipped, or truncated — stops `solve --goal`
/// with exit 2 and a message naming the file and what is wrong; the file is left as it was
/// (the loader into huge-page memory checks it as the heap loader did).
#[test]
fn damaged_goal_tables_are_reported_never_rebuilt() {
    let good = test_dir("goals-damaged-good");
    let g = good.to_str().unwrap();
    assert_eq!(
        solve_goal(g, "R U F", &["--goal", "cross"])["optimal"],
        true
    );
    let name = std::fs::read_dir(&good)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .find(|n| n.starts_with("goal-") && n.ends_with(".pdb"))
        .expect("the cross table");
    let table = std::fs::read(good.join(&name)).unwrap();
    let mut flipped = table.clone();
    let last = flipped.len() - 1000;
    flipped[last] ^= 0xff;
    let truncated = table[..table.len() - 100].to_vec();
    for (case, bytes, what) in [
        ("flipped", &flipped, "checksum"),
        ("truncated", &truncated, "size"),
    ] {
        let dir = test_dir(&format!("goals-damaged-{case}"));
        std::fs::write(dir.join(&name), bytes).unwrap();
        let d = dir.to_str().unwrap();
        let o = optcube(&["solve", "R U F", "--goal", "cross", "--pdb-dir", d]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{case}: {e}");
        assert!(e.contains(&name) && e.contains(what), "{case}: {e}");
        assert_eq!(&std::fs::read(dir.join(&name)).unwrap(), bytes, "{case}");
    }
}
