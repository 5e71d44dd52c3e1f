//! The page of `optcube serve` in a real browser: Debian's `chromium`, headless, driven by
//! `chromedriver` over the WebDriver protocol. A person's path: paint the superflip sticker by
//! sticker, solve it with the two-phase solver; apply a scramble and solve it optimally with
//! the iterations shown; step to the end of the solution; paint a twisted corner and read the
//! message. Every solution is read off the page and checked here.
//!
//! Without chromium and chromedriver the test says it is skipped, unless
//! `OPTCUBE_BROWSER_TEST=require` (CI sets it where it installed them): then it fails.

mod common;

use common::http::{Server, json, request};
use common::{ball, korf6_dir};
use optcube::cube::{Cube, parse_moves};
use serde_json::{Value, json as j};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A chromedriver process and one headless chromium session, ended when dropped.
struct Browser {
    driver: Child,
    addr: String,
    session: String,
}

const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

impl Browser {
    fn start() -> Option<Browser> {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .ok()?
            .local_addr()
            .ok()?
            .port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let mut b = Browser {
            driver,
            addr: format!("127.0.0.1:{port}"),
            session: String::new(),
        };
        let up = Instant::now();
        while std::net::TcpStream::connect(&b.addr).is_err() {
            assert!(up.elapsed().as_secs() < 30, "chromedriver did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
        let caps = j!({"capabilities": {"alwaysMatch": {"goog:chromeOptions": {
            "binary": "/usr/bin/chromium",
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
        }}}});
        let v = b.call("POST", "/session", caps);
        b.session = v["sessionId"].as_str().expect("a session").to_string();
        Some(b)
    }

    fn call(&self, method: &str, path: &str, body: Value) -> Value {
        let body = if method == "GET" {
            String::new()
        } else {
            body.to_string()
        };
        let (status, v) = json(&self.addr, method, path, &body);
        assert_eq!(status, 200, "{method} {path}: {v}");
        v["value"].clone()
    }

    fn s(&self, rest: &str) -> String {
        format!("/session/{}{rest}", self.session)
    }

    fn go(&self, url: &str) {
        self.call("POST", &self.s("/url"), j!({ "url": url }));
    }

    fn find(&self, css: &str) -> String {
        let v = self.call(
            "POST",
            &self.s("/element"),
            j!({"using": "css selector", "value": css}),
        );
        v[ELEMENT]
            .as_str()
            .unwrap_or_else(|| panic!("{css}: {v}"))
            .to_string()
    }

    fn click(&self, css: &str) {
        let e = self.find(css);
        self.call("POST", &self.s(&format!("/element/{e}/click")), j!({}));
    }

    fn type_in(&self, css: &str, text: &str) {
        let e = self.find(css);
        self.call("POST", &self.s(&format!("/element/{e}/clear")), j!({}));
        self.call(
            "POST",
            &self.s(&format!("/element/{e}/value")),
            j!({ "text": text }),
        );
    }

    /// Runs `script` (a function body) in the page.
    fn run(&self, script: &str) -> Value {
        self.call(
            "POST",
            &self.s("/execute/sync"),
            j!({"script": script, "args": []}),
        )
    }

    /// Waits (at most `secs`) for `script` to return something other than null, false or "".
    fn wait(&self, script: &str, secs: u64) -> Value {
        let start = Instant::now();
        loop {
            let v = self.run(script);
            if !(v.is_null() || v == false || v == "") {
                return v;
            }
            assert!(
                start.elapsed().as_secs() < secs,
                "waited {secs} s for: {script}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn text(&self, id: &str) -> String {
        let v = self.run(&format!(
            "return document.getElementById('{id}').textContent"
        ));
        v.as_str().unwrap_or_default().to_string()
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        if !self.session.is_empty() {
            let _ = request(&self.addr, "DELETE", &self.s(""), "");
        }
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Paints `facelets` on the page's net, sticker by sticker, from the solved cube.
fn paint(b: &Browser, facelets: &str) {
    b.click("#reset");
    let solved = Cube::SOLVED.to_facelets();
    for (k, (want, was)) in facelets.bytes().zip(solved.bytes()).enumerate() {
        if want != was {
            b.click(&format!(".swatch[data-c='{}']", want as char));
            b.click(&format!("#net .sticker[data-i='{k}']"));
        }
    }
}

/// Waits for the page's solution and returns it with the result line.
fn solution(b: &Browser) -> (String, String) {
    let sol = b.wait(
        "const s = document.getElementById('solution'); return s && s.textContent",
        300,
    );
    (sol.as_str().unwrap().to_string(), b.text("result"))
}

#[test]
fn a_person_paints_solves_and_steps_through_a_cube_in_chromium() {
    let required = std::env::var("OPTCUBE_BROWSER_TEST").is_ok_and(|v| v == "require");
    let Some(b) = Browser::start() else {
        assert!(
            !required,
            "OPTCUBE_BROWSER_TEST=require, but chromedriver cannot start"
        );
        eprintln!("skipped: chromium and chromedriver are not installed");
        return;
    };
    let s = Server::start(&["--pdb-dir", korf6_dir(), "--set", "korf6", "--threads", "2"]);
    b.go(&format!("http://{}/", s.addr));
    b.wait("return document.getElementById('status').textContent", 30);

    // The superflip, painted by clicks, then solved by the two-phase solver.
    let superflip = Cube::from_moves(
        &parse_moves("U R2 F B R B2 R U2 L B2 R U' D' R2 F R' L B2 U2 F2").unwrap(),
    );
    paint(&b, &superflip.to_facelets());
    b.wait(
        "return document.getElementById('status').textContent === 'valid position'",
        30,
    );
    let shown = b.run("return document.getElementById('facelets').value");
    assert_eq!(shown, superflip.to_facelets().as_str());
    b.click("#solver option[value='twophase']");
    b.click("#solve");
    let (sol, line) = solution(&b);
    let moves = parse_moves(&sol).unwrap();
    assert_eq!(superflip.apply_seq(&moves), Cube::SOLVED, "{line}");
    assert!(line.contains("two-phase"), "{line}");

    // A scramble, solved optimally: the iterations appear, the length is the brute-force one.
    let scramble = "R U F' L2 D";
    let cube = Cube::from_moves(&parse_moves(scramble).unwrap());
    b.type_in("#scramble", scramble);
    b.click("#set-scramble");
    b.wait(
        &format!(
            "return document.getElementById('facelets').value === '{}'",
            cube.to_facelets()
        ),
        30,
    );
    b.click("#solver option[value='optimal']");
    b.click("#solve");
    let (sol, line) = solution(&b);
    let moves = parse_moves(&sol).unwrap();
    assert_eq!(cube.apply_seq(&moves), Cube::SOLVED, "{line}");
    assert_eq!(Some(moves.len() as u8), ball().distance(&cube), "{line}");
    assert!(line.contains("optimal"), "{line}");
    let rows = b.run("return document.querySelectorAll('#iterations tbody tr').length");
    assert!(rows.as_u64().unwrap() >= 1, "no iteration shown");

    // Stepping to the end draws the solved cube, as the API draws it.
    let body = format!(r#"{{"facelets":"{}"}}"#, Cube::SOLVED.to_facelets());
    let (_, solved) = json(&s.addr, "POST", "/api/position", &body);
    b.click("#last");
    let want = serde_json::to_string(&solved["svg"]).unwrap();
    b.wait(
        &format!("return document.getElementById('drawing').innerHTML === {want}"),
        30,
    );

    // A twisted corner, painted: the library's message, and no solve.
    let twisted = "UUUUUUUURFRRRRRRRRFFUFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB";
    paint(&b, twisted);
    let (_, v) = json(
        &s.addr,
        "POST",
        "/api/position",
        &format!(r#"{{"facelets":"{twisted}"}}"#),
    );
    let message = v["error"].as_str().unwrap().to_string();
    assert!(message.contains("twisted"), "{message}");
    b.wait(
        &format!("return document.getElementById('status').textContent === {message:?}"),
        30,
    );
    assert_eq!(
        b.run("return document.getElementById('solve').disabled"),
        true
    );
}
