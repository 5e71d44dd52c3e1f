//! A running `optcube serve` for the tests, and a plain HTTP/1.1 client (one request a
//! connection) for it and for chromedriver: no HTTP crate on the test side, so that what is
//! sent is exactly what the test says.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// `optcube serve --port 0` with the given table arguments, killed when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
}

impl Server {
    pub fn start(table_args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_optcube"))
            .args(["serve", "--port", "0"])
            .args(table_args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start optcube serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        // "optcube serve: http://127.0.0.1:PORT/ (tables in DIR)"
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// `optcube serve` is still running.
    pub fn alive(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends one request and returns the status and the whole body (chunked bodies joined). The
/// body is read by its length where the answer gives one: chromedriver keeps the connection
/// open whatever the request asks.
pub fn request(addr: &str, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut r = BufReader::new(open(addr, method, path, body));
    let mut head = String::new();
    let mut line = String::new();
    while r.read_line(&mut line).unwrap() > 0 && line != "\r\n" {
        head.push_str(&line);
        line.clear();
    }
    let status = head
        .split(' ')
        .nth(1)
        .expect("an HTTP answer")
        .parse()
        .unwrap();
    let lower = head.to_ascii_lowercase();
    let length = (lower.lines())
        .find_map(|l| l.strip_prefix("content-length:"))
        .map(|n| n.trim().parse::<usize>().unwrap());
    let mut raw = Vec::new();
    match length {
        Some(n) => {
            raw.resize(n, 0);
            r.read_exact(&mut raw).unwrap();
        }
        None => {
            r.read_to_end(&mut raw).unwrap();
        }
    }
    let rest = String::from_utf8_lossy(&raw).to_string();
    let body = if lower.contains("transfer-encoding: chunked") {
        unchunk(&rest)
    } else {
        rest
    };
    (status, body)
}

/// `request` with a JSON answer.
pub fn json(addr: &str, method: &str, path: &str, body: &str) -> (u16, serde_json::Value) {
    let (status, text) = request(addr, method, path, body);
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text:?}"));
    (status, v)
}

/// Opens a connection and sends one request; the answer is left to read.
pub fn open(addr: &str, method: &str, path: &str, body: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(300))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    s
}

fn unchunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, tail)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&tail[..n]);
        rest = &tail[n + 2..];
    }
    out
}

/// Reads a live answer (`POST /api/solve/live`) line by line, handing each JSON event to `f`
/// until it returns false or the answer ends.
pub fn events(s: TcpStream, mut f: impl FnMut(&serde_json::Value) -> bool) {
    let mut r = BufReader::new(s);
    let mut line = String::new();
    // The head, up to the blank line.
    while r.read_line(&mut line).unwrap() > 0 && line != "\r\n" {
        line.clear();
    }
    loop {
        line.clear();
        if r.read_line(&mut line).unwrap() == 0 {
            return;
        }
        let t = line.trim();
        // Chunk sizes are hex digits alone on a line; events are JSON objects.
        if !t.starts_with('{') {
            continue;
        }
        let v: serde_json::Value = serde_json::from_str(t).unwrap();
        if !f(&v) {
            return;
        }
    }
}
