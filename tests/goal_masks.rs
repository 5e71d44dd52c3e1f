//! A goal's printed mask means that goal (issue 104, trap 6): the mask `optcube goals --json`
//! and `show --goal` give for a named goal, passed back to `--mask`, is the same goal, read
//! three ways (the named goal, the goal the mask parses to, and the mask read literally off the
//! stickers) on random cubes, on positions of either goal and on positions one move off them.
//! Also two small ones of the same issue: goal names are read in any case, as `--metric` is,
//! and `solve --file` names `FILE:LINE` for each line that fails a goal's precondition.

mod common;
use common::*;
use optcube::cube::{
    Cube, Goal, MOVE_CUBES, NAMED_GOALS, Rng, SOLVED_FACELETS, goal_listing, parity,
};

/// Facelets of each corner slot (its U/D sticker first) and each edge slot (its reference
/// sticker first: U/D, or F/B in the E slice), written out here from Kociemba's tables rather
/// than taken from the crate, so that the literal reading shares no table with the parser.
const CORNERS: [&[usize]; 8] = [
    &[8, 9, 20],
    &[6, 18, 38],
    &[0, 36, 47],
    &[2, 45, 11],
    &[29, 26, 15],
    &[27, 44, 24],
    &[33, 53, 42],
    &[35, 17, 51],
];
const EDGES: [&[usize]; 12] = [
    &[5, 10],
    &[7, 19],
    &[3, 37],
    &[1, 46],
    &[32, 16],
    &[28, 25],
    &[30, 43],
    &[34, 52],
    &[23, 12],
    &[21, 41],
    &[50, 39],
    &[48, 14],
];

/// Does `cube` meet `mask` read as the docs say, sticker by sticker: a face letter must show
/// that colour; a digit on a slot's reference sticker asks for the reference sticker of one of
/// the pieces whose home's reference sticker carries the same digit.
fn literal(mask: &str, cube: &Cube) -> bool {
    let m = mask.as_bytes();
    let f = cube.to_facelets().into_bytes();
    let solved = SOLVED_FACELETS.as_bytes();
    let piece_at = |slots: &[&[usize]], s: usize| -> usize {
        let mut colours: Vec<u8> = slots[s].iter().map(|&i| f[i]).collect();
        colours.sort();
        (0..slots.len())
            .find(|&h| {
                let mut c: Vec<u8> = slots[h].iter().map(|&i| solved[i]).collect();
                c.sort();
                c == colours
            })
            .expect("a real piece")
    };
    (0..54).all(|i| match m[i] {
        b'x' | b'X' | b'.' | b'-' => true,
        b'1'..=b'9' => [&CORNERS[..], &EDGES[..]].iter().any(|slots| {
            (0..slots.len()).any(|s| {
                slots[s][0] == i && {
                    let h = piece_at(slots, s);
                    m[slots[h][0]] == m[i] && f[i] == solved[slots[h][0]]
                }
            })
        }),
        c => f[i] == c,
    })
}

fn shuffle(rng: &mut Rng, v: &mut [u8]) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i as u64 + 1) as usize);
    }
}

/// A random position that meets `goal` (not `htr`'s corner condition): each class's pieces
/// shuffled over its slots, free orientations random, then the twist and flip sums and the
/// parities made right with a piece whose orientation is free and a swap within a class.
fn sample(goal: &Goal, rng: &mut Rng) -> Cube {
    fn arrange<const N: usize>(
        rng: &mut Rng,
        class: &[u8; N],
        oriented: &[bool; N],
        orientations: u8,
    ) -> ([u8; N], [u8; N]) {
        let mut perm = [0u8; N];
        for c in 0..=N as u8 {
            let slots: Vec<u8> = (0..N as u8).filter(|&p| class[p as usize] == c).collect();
            let mut pieces = slots.clone();
            shuffle(rng, &mut pieces);
            for (&s, &p) in slots.iter().zip(&pieces) {
                perm[s as usize] = p;
            }
        }
        let mut ori = [0u8; N];
        for s in 0..N {
            if !oriented[perm[s] as usize] {
                ori[s] = rng.below(orientations as u64) as u8;
            }
        }
        let sum = ori.iter().map(|&o| o as u32).sum::<u32>() % orientations as u32;
        if sum != 0 {
            let s = (0..N)
                .find(|&s| !oriented[perm[s] as usize])
                .expect("a sum off 0 has a free orientation");
            ori[s] = ((ori[s] as u32 + orientations as u32 - sum) % orientations as u32) as u8;
        }
        (perm, ori)
    }
    let (mut cp, co) = arrange(rng, goal.corner_classes(), goal.corners_oriented(), 3);
    let (mut ep, eo) = arrange(rng, goal.edge_classes(), goal.edges_oriented(), 2);
    if parity(&cp) != parity(&ep) {
        // Swap two slots of one class (their orientations stay with the slots: both 0 when
        // the class is oriented, so the swap keeps the goal and the sums).
        let pair = |class: &[u8]| {
            (0..class.len()).find_map(|a| {
                (a + 1..class.len())
                    .find(|&b| class[b] == class[a])
                    .map(|b| (a, b))
            })
        };
        if let Some((a, b)) = pair(goal.edge_classes()) {
            ep.swap(a, b);
        } else {
            let (a, b) = pair(goal.corner_classes()).expect("unequal parities need a class");
            cp.swap(a, b);
        }
    }
    let c = Cube::from_parts(cp, co, ep, eo);
    assert!(c.validate().is_ok(), "{}: {c:?}", goal.name());
    assert!(goal.holds(&c), "{}", goal.name());
    c
}

/// Every named goal that prints a mask: the mask parses to a goal with the same pieces key
/// (so the same tables), and the named goal, the parsed goal and the literal reading of the
/// mask agree on 3,000 random cubes and on 300 positions of each goal, each also one move off.
#[test]
fn every_printed_mask_defines_its_goal() {
    let mut rng = Rng::new(104);
    let mut checked = Vec::new();
    for n in NAMED_GOALS {
        let named = Goal::named(n.name).unwrap();
        let Some(mask) = named.mask() else {
            continue;
        };
        let back = Goal::from_mask(&mask).unwrap_or_else(|e| panic!("{}: {mask}: {e}", n.name));
        let mut cubes: Vec<Cube> = (0..3000).map(|_| Cube::random(&mut rng)).collect();
        for g in [&named, &back] {
            for _ in 0..300 {
                let c = sample(g, &mut rng);
                cubes.push(c);
                cubes.push(c.compose(&MOVE_CUBES[rng.below(18) as usize]));
            }
        }
        for c in &cubes {
            let want = named.holds(c);
            assert_eq!(back.holds(c), want, "{}: {mask} parsed: {c:?}", n.name);
            assert_eq!(literal(&mask, c), want, "{}: {mask} read: {c:?}", n.name);
        }
        assert_eq!(back.key(), named.key(), "{}: {mask}", n.name);
        checked.push(n.name);
    }
    // Every goal but those about another axis and htr (no sticker says its corner coset).
    for name in ["cross", "f2l", "eo", "dr", "oll", "pll"] {
        assert!(
            checked.contains(&name),
            "{name} prints no mask: {checked:?}"
        );
    }
    for name in ["eo-ud", "eo-rl", "htr"] {
        assert!(!checked.contains(&name), "{name}");
    }
}

/// `optcube goals --json`: each mask printed parses back to its goal's key; `null` only for
/// the goals about another axis and `htr`. `show --goal eo` draws eo's mask: the twelve edges'
/// reference stickers, the centres, nothing else.
#[test]
fn goals_json_prints_masks_that_mean_their_goals() {
    let o = optcube(&["goals", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> = (stdout(&o).lines())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), NAMED_GOALS.len());
    for (v, n) in lines.iter().zip(NAMED_GOALS) {
        assert_eq!(v, &goal_listing(n));
        let name = v["name"].as_str().unwrap();
        match v["mask"].as_str() {
            Some(mask) => assert_eq!(
                Goal::from_mask(mask).unwrap().key(),
                v["key"].as_str().unwrap(),
                "{name}: {mask}"
            ),
            None => assert!(["eo-ud", "eo-rl", "htr"].contains(&name), "{name}"),
        }
    }
    let o = optcube(&["show", "--goal", "eo"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert_eq!(text.matches('.').count(), 54 - 12 - 6, "{text}");
}

/// `solve --mask` with eo's printed mask is eo, and says so on stderr: the same length and
/// solutions, read from the one table eo uses (4,096 entries), not a larger one of another
/// goal.
#[test]
fn eos_mask_solves_as_eo() {
    let dir = test_dir("goal-masks-eo");
    let d = dir.to_str().unwrap();
    let eo = Goal::named("eo").unwrap();
    let mask = eo.mask().unwrap();
    let scramble = "F R B' U L D' F";
    let by_name = common::goals::solve_goal(d, scramble, &["--goal", "eo", "--all"]);
    let tables = || {
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        names
    };
    let before = tables();
    let (by_mask, err) = optcube_json(&[
        "solve",
        scramble,
        "--json",
        "--pdb-dir",
        d,
        "--mask",
        &mask,
        "--all",
    ]);
    assert!(err.contains("the goal eo"), "{err}");
    assert_eq!(by_mask["length"], by_name["length"]);
    assert_eq!(by_mask["solutions"], by_name["solutions"]);
    assert_eq!(tables(), before, "the mask built no other table");
    assert!(
        before.iter().any(|n| n.contains(&eo.key())),
        "{before:?} has eo's table"
    );
}

/// Goal names are read in any case, as `--metric QTM` is: by the CLI's `--goal` (solve and
/// show) and by the library's one lookup, which Python's `goal=` uses too.
#[test]
fn goal_names_ignore_case() {
    assert_eq!(Goal::named("CROSS").unwrap(), Goal::named("cross").unwrap());
    assert_eq!(Goal::named(" Eo-UD ").unwrap().name(), "eo-ud");
    assert!(Goal::named("crosss").is_err());
    let dir = test_dir("goal-masks-case");
    let v = common::goals::solve_goal(
        dir.to_str().unwrap(),
        "R U F",
        &["--goal", "CROSS", "--metric", "QTM"],
    );
    assert_eq!(v["goal"], "cross");
    let o = optcube(&["show", "R U", "--goal", "Cross"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// `solve --file F --goal pll`: every line that fails the precondition (pll starts from a
/// position with the last layer oriented) is named as `F:LINE`, all of them, with exit 2,
/// before any table is loaded or built.
#[test]
fn file_lines_failing_a_precondition_are_named() {
    let dir = test_dir("goal-masks-file");
    let file = dir.join("positions.txt");
    // Line 2: the T permutation (meets oll); 3: a comment; 4 and 6: not oll; 5: blank.
    std::fs::write(
        &file,
        "# positions\nR U R' U' R' F R2 U' R' U' R U R' F'\n# next\nR U R' U R U2 R'\n\nF\n",
    )
    .unwrap();
    let tables = dir.join("tables");
    std::fs::create_dir_all(&tables).unwrap();
    let f = file.to_str().unwrap();
    let o = optcube(&[
        "solve",
        "--file",
        f,
        "--goal",
        "pll",
        "--pdb-dir",
        tables.to_str().unwrap(),
    ]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains(&format!("{f}:4")), "{e}");
    assert!(e.contains(&format!("{f}:6")), "{e}");
    assert!(!e.contains(&format!("{f}:2")), "{e}");
    assert!(e.contains("meets oll"), "{e}");
    assert_eq!(std::fs::read_dir(&tables).unwrap().count(), 0, "no table");
}
