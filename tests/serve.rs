//! `optcube serve` without a browser: the page and its files, the JSON API's answers against
//! the command line's and a brute-force ball's, and the bad requests (invalid positions,
//! unknown goals and fields, a huge body, a second search, a closed connection, a cancel),
//! after each of which the server still serves. The `korf6` tables are built once by the CLI.

mod common;

use common::http::{Server, events, json, open, request};
use common::{ball, korf6_dir, optcube, stderr};
use optcube::cube::{Cube, parse_moves};
use serde_json::Value;

fn server() -> Server {
    Server::start(&["--pdb-dir", korf6_dir(), "--set", "korf6", "--threads", "2"])
}

/// The position a facelet string names, after `moves`.
fn after(facelets: &str, moves: &str) -> Cube {
    Cube::from_facelets(facelets)
        .unwrap()
        .apply_seq(&parse_moves(moves).unwrap())
}

/// A position korf6 takes minutes on (a random one, seeded).
fn hard_position() -> String {
    let o = optcube(&["scramble", "--random", "1", "--seed", "7"]);
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

#[test]
fn the_page_and_the_api_answer_as_the_command_line_does() {
    let s = server();
    let (status, page) = request(&s.addr, "GET", "/", "");
    assert_eq!(status, 200);
    assert!(page.contains("<title>optcube"), "{page}");
    for f in ["/page.js", "/page.css"] {
        assert_eq!(request(&s.addr, "GET", f, "").0, 200, "{f}");
    }
    let (status, info) = json(&s.addr, "GET", "/api/info", "");
    assert_eq!(status, 200);
    assert_eq!(info["set"], "korf6");
    assert!(
        info["goals"]
            .as_array()
            .unwrap()
            .iter()
            .any(|g| g["name"] == "cross")
    );

    // Positions at distance 5 by brute force: the answer is a checked solution of that length.
    let mut checked = 0;
    for (cube, d) in ball()
        .iter()
        .filter(|(_, d)| *d == 5)
        .step_by(50_000)
        .take(3)
    {
        let body = format!(r#"{{"facelets":"{}"}}"#, cube.to_facelets());
        let (status, v) = json(&s.addr, "POST", "/api/solve", &body);
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["length"], d, "{v}");
        assert_eq!(v["optimal"], true);
        let sol = v["solution"].as_str().unwrap();
        assert_eq!(after(&cube.to_facelets(), sol), Cube::SOLVED, "{v}");
        let steps = v["steps"].as_array().unwrap();
        assert_eq!(steps.len(), usize::from(d) + 1);
        assert_eq!(steps[0], cube.to_facelets().as_str());
        checked += 1;
    }
    assert_eq!(checked, 3);
    // The tables stay loaded, and the server says how much memory they hold.
    let (_, info) = json(&s.addr, "GET", "/api/info", "");
    assert!(
        info["loaded_bytes"].as_u64().unwrap() > 80_000_000,
        "{info}"
    );

    // An invalid position: the command line's message, word for word.
    let twisted = "UUUUUUUURFRRRRRRRRFFUFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
    let (status, v) = json(
        &s.addr,
        "POST",
        "/api/solve",
        &format!(r#"{{"facelets":"{twisted}"}}"#),
    );
    assert_eq!(status, 400);
    let cli = stderr(&optcube(&["solve", "--facelets", twisted]));
    let cli = cli.trim().trim_start_matches("optcube: error: ");
    assert_eq!(v["error"], cli);
    let (status, p) = json(
        &s.addr,
        "POST",
        "/api/position",
        &format!(r#"{{"facelets":"{twisted}"}}"#),
    );
    assert_eq!((status, &p["error"]), (400, &v["error"]));

    // A goal: the cross, checked on the goal by the server and here.
    let (status, v) = json(
        &s.addr,
        "POST",
        "/api/solve",
        r#"{"scramble":"R U F' D","goal":"cross"}"#,
    );
    assert_eq!(status, 200, "{v}");
    let end = after(
        v["steps"][0].as_str().unwrap(),
        v["solution"].as_str().unwrap(),
    );
    assert!(
        optcube::cube::Goal::named("cross").unwrap().holds(&end),
        "{v}"
    );

    // Bad requests, each named; the server serves on.
    for (body, says) in [
        (r#"{"scramble":"R U","goal":"crosss"}"#, "crosss"),
        (r#"{"scramble":"R Q"}"#, "Q"),
        (r#"{"scramble":"R","colour":"red"}"#, "colour"),
        (r#"{"scramble":"R","facelets":"x"}"#, "not both"),
        (r#"{"metric":"htm"}"#, "no position"),
        ("not json", "JSON"),
        (r#"{"scramble":"R","metric":"furlongs"}"#, "furlongs"),
    ] {
        let (status, v) = json(&s.addr, "POST", "/api/solve", body);
        assert_eq!(status, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(says), "{body}: {v}");
    }
    let huge = format!(r#"{{"scramble":"{}"}}"#, "R ".repeat(20_000));
    let (status, v) = json(&s.addr, "POST", "/api/solve", &huge);
    assert_eq!(status, 413, "{v}");
    let (status, v) = json(&s.addr, "GET", "/api/nothing", "");
    assert_eq!(status, 404, "{v}");
    let (status, v) = json(
        &s.addr,
        "POST",
        "/api/position",
        r#"{"scramble":"R","moves":"R'"}"#,
    );
    assert_eq!((status, &v["solved"]), (200, &Value::Bool(true)));
    let (status, _) = json(&s.addr, "POST", "/api/solve", r#"{"scramble":"R U"}"#);
    assert_eq!(status, 200);
}

#[test]
fn one_search_at_a_time_and_a_closed_tab_or_a_cancel_stops_it() {
    let mut s = server();
    let body = format!(r#"{{"facelets":"{}"}}"#, hard_position());
    let busy = |s: &Server| json(&s.addr, "POST", "/api/solve", r#"{"scramble":"R"}"#);

    // A live search, left once its iterations run: a second one is refused meanwhile.
    let live = open(&s.addr, "POST", "/api/solve/live", &body);
    let mut seen = Vec::new();
    events(live.try_clone().unwrap(), |e| {
        seen.push(e["event"].as_str().unwrap().to_string());
        e["event"] != "started"
    });
    assert!(seen.contains(&"position".to_string()), "{seen:?}");
    let (status, v) = busy(&s);
    assert_eq!(status, 409, "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("one at a time"),
        "{v}"
    );
    // The tab is closed: the search stops within seconds (the next tick finds the
    // connection gone) and the server takes the next search.
    drop(live);
    let ok = (0..60).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(500));
        busy(&s).0 == 200
    });
    assert!(ok, "the search went on after its connection closed");

    // A cancel: the live answer ends with what was proved.
    let live = open(&s.addr, "POST", "/api/solve/live", &body);
    let mut result = Value::Null;
    let mut cancelled = false;
    events(live, |e| {
        if e["event"] == "started" && !cancelled {
            let (status, v) = json(&s.addr, "POST", "/api/cancel", "{}");
            assert_eq!((status, &v["cancelled"]), (200, &Value::Bool(true)));
            cancelled = true;
        }
        if e["event"] == "result" {
            result = e["result"].clone();
        }
        true
    });
    assert_eq!(result["interrupted"], true, "{result}");
    assert!(result["solution"].is_null(), "{result}");
    assert!(result["lower_bound"].as_u64().unwrap() >= 1);
    assert_eq!(busy(&s).0, 200);
    assert!(s.alive());
}

/// A first use builds its tables: their progress reaches the live answer before the result.
#[test]
fn a_first_use_shows_its_table_builds() {
    let dir = common::test_dir("serve-first-use");
    let s = Server::start(&["--pdb-dir", dir.to_str().unwrap(), "--set", "edges6a"]);
    let live = open(&s.addr, "POST", "/api/solve/live", r#"{"scramble":"R U"}"#);
    let (mut progress, mut result) = (Vec::new(), Value::Null);
    events(live, |e| {
        match e["event"].as_str() {
            Some("progress") => progress.push(e.clone()),
            Some("result") => result = e["result"].clone(),
            _ => {}
        }
        true
    });
    assert_eq!(result["length"], 2, "{result}");
    assert!(!progress.is_empty(), "no progress event");
    let labels: Vec<&str> = progress
        .iter()
        .map(|p| p["label"].as_str().unwrap())
        .collect();
    assert!(labels.iter().any(|l| l.contains("edges6a")), "{labels:?}");
    assert!(progress.iter().any(|p| p["share"] == 1.0), "{progress:?}");
}
