//! Tests of studies: records, files, collections, shards and reports.

use super::*;
use crate::cube::{Cube, Rng};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn study() -> Study {
    Study {
        seed: 3,
        moves: Some(5),
        metric: crate::cube::Metric::Htm,
        goal: None,
    }
}

/// A correct record of position `i` of `study()`, solved by inverting its scramble (a
/// 5-move canonical scramble is not always optimal, but `check` does not solve).
fn record(i: u64) -> Record {
    let p = study().positions().nth(i as usize).unwrap();
    let sol = crate::cube::invert_sequence(p.scramble.as_ref().unwrap());
    Record::new(
        &study(),
        "korf6",
        10,
        &p,
        &sol,
        100 + i,
        0.001 * i as f64,
        1,
        false,
    )
}

fn line(i: u64) -> String {
    serde_json::to_string(&record(i)).unwrap() + "\n"
}

fn path() -> &'static Path {
    Path::new("study.jsonl")
}

#[test]
fn record_round_trips_and_checks() {
    let r = record(4);
    let back: Record = serde_json::from_str(line(4).trim()).unwrap();
    assert_eq!(r, back);
    assert_eq!(r.check(), Ok(()));
    assert!(r.scramble.is_some() && r.moves == Some(5));
    let mut bad = r.clone();
    bad.solution = "U".into();
    assert!(bad.check().unwrap_err().contains("does not solve"));
    let mut bad = r.clone();
    bad.length += 1;
    assert!(bad.check().unwrap_err().contains("length"));
    let mut bad = r.clone();
    bad.optimal = false;
    assert!(bad.check().is_err());
    let mut bad = r;
    bad.index = 10;
    assert!(bad.check().unwrap_err().contains("count"));
}

/// A witnessed proof says so in its line; the lines of proofs that ran their last iteration
/// (and the files written before witnesses) have no such field.
#[test]
fn witnessed_records_say_so() {
    let mut r = record(3);
    assert!(!line(3).contains("witnessed"));
    r.witnessed = true;
    let text = serde_json::to_string(&r).unwrap();
    assert!(text.contains("\"witnessed\":true"), "{text}");
    let back: Record = serde_json::from_str(&text).unwrap();
    assert_eq!(back, r);
    assert_eq!(back.check(), Ok(()));
}

/// A quarter-turn record counts its solution's half turns twice, says its metric (a half-turn
/// one does not, as before), and belongs to another study than the same seed's in half turns.
#[test]
fn quarter_turn_records_are_their_own_study() {
    use crate::cube::Metric;
    let q = Study {
        metric: Metric::Qtm,
        ..study()
    };
    assert_eq!(q.name(), "lengths-seed3-moves5-qtm");
    assert_eq!(study().name(), "lengths-seed3-moves5");
    let g = Study {
        goal: Some(super::StudyGoal {
            name: "cross".into(),
            any_orientation: true,
        }),
        ..q.clone()
    };
    assert_eq!(g.name(), "lengths-seed3-moves5-goal-cross-any-qtm");
    assert_ne!(g, q, "a goal study is another study");
    let p = q.positions().nth(2).unwrap();
    let sol = crate::cube::invert_sequence(p.scramble.as_ref().unwrap());
    let r = Record::new(&q, "korf6", 10, &p, &sol, 1, 0.1, 1, false);
    assert_eq!(r.length, Metric::Qtm.length(&sol));
    assert_eq!(r.check(), Ok(()));
    let text = serde_json::to_string(&r).unwrap();
    assert!(text.contains(r#""metric":"qtm""#), "{text}");
    assert!(!line(2).contains("metric"), "{}", line(2));
    assert_eq!(serde_json::from_str::<Record>(&text).unwrap(), r);
    let mut bad = r.clone();
    bad.length += 2;
    assert!(bad.check().unwrap_err().contains("quarter turns"));
    let mut half = Collection::of(study());
    let e = half.add_record(path(), 1, &r, None).unwrap_err();
    assert!(matches!(e, StudyError::Foreign { .. }), "{e}");
}

#[test]
fn complete_lines_parse() {
    let text = line(0) + &line(1) + "\n" + &line(2);
    let p: Parsed = parse_lines(text.as_bytes(), path()).unwrap();
    let idx: Vec<(usize, u64)> = p.records.iter().map(|(l, r)| (*l, r.index)).collect();
    assert_eq!(idx, vec![(1, 0), (2, 1), (4, 2)]);
    assert_eq!(p.good_len, text.len() as u64);
    assert_eq!(p.good_lines, 4);
    assert_eq!(p.partial_line, None);
    let empty: Parsed = parse_lines(b"", path()).unwrap();
    assert!(empty.records.is_empty() && empty.good_len == 0);
}

#[test]
fn half_written_last_line_is_cut() {
    let good = line(0) + &line(1);
    // No newline: even a complete JSON object might have lost its newline only, but the
    // line is redone rather than trusted.
    for tail in [
        "{\"index\":".to_string(),
        line(2).trim_end().to_string(),
        "{\"index\": 2, garbage\n".to_string(),
        line(2)[..40].to_string() + "\n",
    ] {
        let text = good.clone() + &tail;
        let p: Parsed = parse_lines(text.as_bytes(), path()).unwrap();
        assert_eq!(p.records.len(), 2, "{tail}");
        assert_eq!(p.good_len, good.len() as u64, "{tail}");
        assert_eq!(p.partial_line, Some(3), "{tail}");
    }
    // Invalid UTF-8 at the end is half-written too.
    let mut bytes = good.clone().into_bytes();
    bytes.extend_from_slice(&[b'{', 0xff]);
    assert_eq!(
        parse_lines::<Record>(&bytes, path()).unwrap().good_len,
        good.len() as u64
    );
}

#[test]
fn bad_middle_line_is_an_error_naming_the_line() {
    let text = line(0) + "{\"index\": 1}\n" + &line(2);
    let e = parse_lines::<Record>(text.as_bytes(), path()).unwrap_err();
    assert!(matches!(e, StudyError::Corrupt { line: 2, .. }), "{e}");
    assert!(e.to_string().starts_with("study.jsonl:2: "), "{e}");
}

#[test]
fn appender_cuts_the_partial_line_and_appends() {
    let dir = std::env::temp_dir().join(format!("optcube-study-unit-{}", std::process::id()));
    let file = dir.join("s.jsonl");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(&file, line(0) + "{\"index\":").unwrap();
    let p: Parsed = read_file(&file).unwrap();
    let mut a = Appender::open(&file, p.good_len).unwrap();
    // A second writer is refused while the first holds the file.
    assert!(Appender::open(&file, p.good_len).is_err());
    a.append(&record(1)).unwrap();
    drop(a);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), line(0) + &line(1));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn duplicates_and_foreign_records_are_refused() {
    let a: Parsed = parse_lines((line(0) + &line(1)).as_bytes(), path()).unwrap();
    let b = parse_lines((line(2) + &line(1)).as_bytes(), Path::new("b.jsonl")).unwrap();
    let mut c = Collection::default();
    c.add(path(), &a, None).unwrap();
    let e = c.add(Path::new("b.jsonl"), &b, None).unwrap_err();
    assert!(
        matches!(&e, StudyError::Duplicate { line: 2, index: 1, first, .. }
            if first == "study.jsonl:2"),
        "{e}"
    );
    // Another seed or scramble length is another study.
    for change in [|r: &mut Record| r.seed = 4, |r: &mut Record| r.moves = None] {
        let mut r = record(3);
        change(&mut r);
        let text = serde_json::to_string(&r).unwrap() + "\n";
        let f: Parsed = parse_lines(text.as_bytes(), Path::new("f.jsonl")).unwrap();
        let e = Collection::of(study())
            .add(Path::new("f.jsonl"), &f, None)
            .unwrap_err();
        assert!(matches!(e, StudyError::Foreign { line: 1, .. }), "{e}");
        assert!(e.to_string().contains("another study"), "{e}");
    }
    // A record outside the writer's shard is refused.
    let e = Collection::of(study())
        .add(path(), &a, Some(Shard { k: 0, n: 2 }))
        .unwrap_err();
    assert!(
        matches!(
            e,
            StudyError::OtherShard {
                line: 2,
                index: 1,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn inputs_must_be_the_study_positions() {
    let mut c = Collection::of(study());
    let text = line(0) + &line(2);
    c.add(path(), &parse_lines(text.as_bytes(), path()).unwrap(), None)
        .unwrap();
    assert_eq!(c.verify_inputs(), Ok(()));
    assert_eq!(c.missing(4, None), vec![1, 3]);
    assert_eq!(c.missing(4, Some(Shard { k: 1, n: 2 })), vec![1, 3]);
    assert_eq!(c.missing(4, Some(Shard { k: 0, n: 2 })), Vec::<u64>::new());
    // Position 1's record relabelled as position 5: valid by itself, wrong for the study.
    let mut r = record(1);
    r.index = 5;
    let text = serde_json::to_string(&r).unwrap() + "\n";
    c.add(path(), &parse_lines(text.as_bytes(), path()).unwrap(), None)
        .unwrap();
    assert!(c.verify_inputs().unwrap_err().contains("position 5"));
}

#[test]
fn shard_parsing() {
    assert_eq!("0/1".parse::<Shard>(), Ok(Shard { k: 0, n: 1 }));
    assert_eq!("2/3".parse::<Shard>(), Ok(Shard { k: 2, n: 3 }));
    for (bad, why) in [
        ("3/2", "below N"),
        ("2/2", "below N"),
        ("x/2", "\"x\" is not a whole number"),
        ("1/y", "\"y\" is not a whole number"),
        ("-1/2", "not a whole number"),
        ("1/0", "at least 1"),
        ("12", "not K/N"),
        ("", "not K/N"),
    ] {
        let e = bad.parse::<Shard>().unwrap_err();
        assert!(e.contains(why), "{bad}: {e}");
    }
    let s = Shard { k: 1, n: 3 };
    let mine: Vec<u64> = (0..10).filter(|&i| s.contains(i)).collect();
    assert_eq!(mine, vec![1, 4, 7]);
}

#[test]
fn positions_do_not_depend_on_where_one_starts() {
    let all: Vec<Position> = study().positions().take(6).collect();
    let again: Vec<Position> = study().positions().take(6).collect();
    for (a, b) in all.iter().zip(&again) {
        assert_eq!((a.index, a.cube), (b.index, b.cube));
        assert_eq!(a.scramble.as_ref().unwrap().len(), 5);
    }
    assert_ne!(all[0].cube, all[1].cube);
    let random = Study {
        moves: None,
        ..study()
    };
    let mut rng = Rng::new(3);
    for p in random.positions().take(3) {
        assert_eq!(p.cube, Cube::random(&mut rng));
    }
    assert_eq!(
        random.default_out(Some(Shard { k: 2, n: 8 })),
        PathBuf::from("results/lengths-seed3-shard2of8.jsonl")
    );
    assert_eq!(
        study().default_out(None),
        PathBuf::from("results/lengths-seed3-moves5.jsonl")
    );
}

#[test]
fn csv_and_table_show_the_distribution() {
    let mut c = Collection::of(study());
    let text: String = (0..4).map(line).collect();
    c.add(path(), &parse_lines(text.as_bytes(), path()).unwrap(), None)
        .unwrap();
    let s = c.summary();
    let csv = lengths_csv(&s);
    let mut expect = BTreeMap::<usize, u64>::new();
    for r in c.records() {
        *expect.entry(r.length).or_default() += 1;
    }
    let mut want = String::from("length,count,fraction\n");
    for (l, n) in expect {
        want += &format!("{l},{n},{:.6}\n", n as f64 / 4.0);
    }
    assert_eq!(csv, want);
    let table = lengths_table(&s);
    assert!(
        table
            .lines()
            .last()
            .unwrap()
            .starts_with("| all | 4 | 1.0000 |")
    );
    // 3 header/rule lines... 2 of them, plus one row per length, plus "all".
    assert_eq!(table.lines().count(), 2 + s.lengths().len() + 1);
}

/// A study may go on with another table set: such records join the collection, and the cost
/// is reported per (set, threads, dual).
#[test]
fn a_study_may_change_its_table_set_and_costs_are_per_set() {
    let mut c = Collection::of(study());
    let text: String = (0..3).map(line).collect();
    c.add(path(), &parse_lines(text.as_bytes(), path()).unwrap(), None)
        .unwrap();
    let mut r = record(3);
    (r.set, r.threads, r.seconds) = ("huge,sym48".into(), 2, 2.0);
    let mut s = record(4);
    (s.set, s.threads, s.seconds) = ("huge,sym48".into(), 2, 4.0);
    let text = [&r, &s]
        .map(|r| serde_json::to_string(r).unwrap() + "\n")
        .concat();
    let other = Path::new("other.jsonl");
    c.add(other, &parse_lines(text.as_bytes(), other).unwrap(), None)
        .unwrap();
    assert_eq!(c.len(), 5);
    let costs = c.cost_by_setup();
    assert_eq!(costs.len(), 2, "{costs:?}");
    let korf6 = costs.iter().find(|c| c.set == "korf6").unwrap();
    assert_eq!((korf6.positions, korf6.threads), (3, 1));
    assert_eq!(korf6.nodes, 100 + 101 + 102);
    let fast = costs.iter().find(|c| c.set == "huge,sym48").unwrap();
    assert_eq!((fast.positions, fast.threads, fast.seconds), (2, 2, 6.0));
    assert_eq!(fast.per_hour(), 1200.0);
    let table = cost_table(&costs);
    assert!(
        table.contains("| `huge,sym48` | 2 | false | 2 | 6.0 | 3.0 | 1200.0 |"),
        "{table}"
    );
    assert_eq!(table.lines().count(), 4);
}

/// Two runs of one study, set side by side: only the common positions count, a length that
/// differs is named, and the time ratios are there over here.
#[test]
fn agreement_compares_the_common_positions() {
    let collect = |records: &[Record]| {
        let text: String = records
            .iter()
            .map(|r| serde_json::to_string(r).unwrap() + "\n")
            .collect();
        let mut c = Collection::of(study());
        c.add(path(), &parse_lines(text.as_bytes(), path()).unwrap(), None)
            .unwrap();
        c
    };
    let here = collect(&[record(1), record(2), record(3)]);
    let mut slower: Vec<Record> = [2, 3, 4].map(record).to_vec();
    for r in &mut slower {
        r.seconds *= 4.0;
        r.nodes *= 2;
    }
    let there = collect(&slower);
    let a = here.agreement(&there);
    assert_eq!(a.common, 2);
    assert!(a.differing.is_empty());
    assert_eq!(a.nodes, (102 + 103, 2 * (102 + 103)));
    assert!((a.seconds.1 - 4.0 * a.seconds.0).abs() < 1e-12);
    let q = a.time_ratio_quantiles().unwrap();
    assert!((q.median - 4.0).abs() < 1e-12 && (q.geometric_mean - 4.0).abs() < 1e-12);
    let md = a.markdown("this run", "that run");
    assert!(md.contains("agree on all 2."), "{md}");
    assert!(
        md.contains("in all 4.00; per position: median 4.00"),
        "{md}"
    );

    // A longer solution of position 3 (still a solution, but not optimal) is a difference.
    let mut long = record(3);
    long.solution += " U U'";
    long.length += 2;
    let there = collect(&[record(2), long.clone()]);
    let a = here.agreement(&there);
    assert_eq!(a.differing, vec![(3, long.length - 2, long.length)]);
    let md = a.markdown("this run", "that run");
    assert!(md.contains("**Lengths differ on 1**"), "{md}");
    assert_eq!(
        Collection::of(study())
            .agreement(&here)
            .time_ratio_quantiles(),
        None
    );
}

/// The solution-count distribution: per length and in all, nearest-rank quantiles and the
/// mean; the CSV's doubling ranges hold each length's fractions; a record with a count keeps
/// it through JSON, and one without has none.
#[test]
fn solution_counts_are_summarized() {
    use super::{solution_counts_csv, solution_counts_table};
    let counts: BTreeMap<usize, Vec<u64>> =
        [(16, vec![1, 1, 2, 3, 4, 8]), (17, vec![1, 5, 9, 20])].into();
    let table = solution_counts_table(&counts);
    assert!(
        table.contains("| 16 | 6 | 3.17 | 1 | 1 | 2 | 4 | 8 | 8 |"),
        "{table}"
    );
    assert!(
        table.contains("| 17 | 4 | 8.75 | 1 | 1 | 5 | 9 | 20 | 20 |"),
        "{table}"
    );
    assert!(
        table.contains("| all | 10 | 5.40 | 1 | 1 | 3 | 8 | 9 | 20 |"),
        "{table}"
    );
    let csv = solution_counts_csv(&counts);
    assert_eq!(
        csv,
        "optimal solutions,length 16,length 17\n\
         1,0.3333,0.2500\n2,0.1667,0.0000\n3-4,0.3333,0.0000\n5-8,0.1667,0.2500\n\
         9-16,0.0000,0.2500\n17-32,0.0000,0.2500\n"
    );
    let mut r = record(3);
    assert!(!line(3).contains("optimal_solutions"));
    r.optimal_solutions = Some(4);
    let back: Record = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
    assert_eq!(back.optimal_solutions, Some(4));
    assert_eq!(r.check(), Ok(()));
    r.optimal_solutions = Some(0);
    assert!(r.check().is_err());
}
