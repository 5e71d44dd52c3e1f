//! `optcube serve`: a local web server with one page (`page.html`, compiled into the binary)
//! and a small JSON API over `solve`'s request checks and answers ([`job`]). It binds to
//! 127.0.0.1 unless told otherwise and writes nothing but the tables a first use builds in
//! the table directory.
//!
//! Invariants: one search at a time (a second request is refused with 409 while one runs);
//! a request body over [`BODY_LIMIT`] is refused (413); every solution sent was checked on
//! its position; a live answer whose reader goes away (a closed tab) stops its search, as
//! `POST /api/cancel` does.
//!
//! API: `GET /api/info`; `GET /api/random`; `POST /api/position` (`facelets` or `scramble`,
//! `moves` to apply, `goal` or `mask` to gray): the facelets and their SVG drawing;
//! `POST /api/solve` (a [`job::Request`]): `solve --json`'s object; `POST /api/solve/live`:
//! the same as JSON lines of events, the last `{"event":"result","result":…}` or
//! `{"event":"error",…}`; `POST /api/cancel`.

mod job;

use super::{Failure, TableArgs};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::extract::rejection::BytesRejection;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tokio::sync::mpsc;

/// The largest request body taken, in bytes: a request is a position and a few options.
pub const BODY_LIMIT: usize = 16 * 1024;

#[derive(clap::Args)]
pub struct ServeArgs {
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on: 127.0.0.1 is this machine only; 0.0.0.0 every network (anyone
    /// who reaches it may run searches).
    #[arg(long, default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    #[command(flatten)]
    tables: TableArgs,
}

/// The server's state, shared by every request.
struct ServerState {
    /// `solve`'s table flags for every request: the directory, the set, the threads.
    tables: Vec<String>,
    set: String,
    set_reason: Option<String>,
    dir: std::path::PathBuf,
    engines: Mutex<job::Engines>,
    /// A search is running (its thread clears this when it ends).
    busy: AtomicBool,
    /// The running search's stop flag.
    stop: Mutex<Option<Arc<AtomicBool>>>,
    /// The optimal solver's table memory once loaded (0 before), for `/api/info` while a
    /// search holds the tables.
    loaded_bytes: std::sync::atomic::AtomicU64,
    /// The running search's events: table builds report there too ([`watch_progress`]).
    events: Mutex<Option<mpsc::UnboundedSender<Value>>>,
}

type App = Arc<ServerState>;

pub fn run(args: ServeArgs) -> Result<i32, Failure> {
    // The set is chosen once, when the server starts, and said with its reason.
    let (names, set_reason) = args.tables.choice();
    let set = names.join(",");
    TableArgs::patterns(&names)?;
    let dir = args.tables.place.dir();
    let mut tables = vec![
        "--pdb-dir".into(),
        dir.display().to_string(),
        "--set".into(),
    ];
    tables.push(set.clone());
    if let Some(t) = args.tables.place.threads {
        tables.extend(["--threads".into(), t.to_string()]);
    }
    let app = Arc::new(ServerState {
        tables,
        set,
        set_reason,
        dir,
        engines: Mutex::new(job::Engines::default()),
        busy: AtomicBool::new(false),
        stop: Mutex::new(None),
        events: Mutex::new(None),
        loaded_bytes: std::sync::atomic::AtomicU64::new(0),
    });
    watch_progress(&app);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure(format!("cannot start the server: {e}")))?;
    runtime.block_on(serve(args.host, args.port, app))
}

/// A first use builds tables for minutes: their progress goes to the running search's page as
/// `progress` events (label, share done, seconds, ETA), as well as to the terminal.
fn watch_progress(app: &App) {
    let app = app.clone();
    optcube::progress::set_observer(Some(Arc::new(move |p| {
        if let Some(tx) = app
            .events
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
        {
            let _ = tx.send(json!({
                "event": "progress", "label": p.label, "done": p.done, "total": p.total,
                "share": p.share, "seconds": p.seconds, "eta": p.eta,
            }));
        }
    })));
}

async fn serve(host: std::net::IpAddr, port: u16, app: App) -> Result<i32, Failure> {
    let listener = tokio::net::TcpListener::bind((host, port))
        .await
        .map_err(|e| Failure(format!("cannot listen on {host}:{port}: {e}")))?;
    let addr = listener.local_addr()?;
    println!(
        "optcube serve: http://{addr}/ (tables in {})",
        app.dir.display()
    );
    use std::io::Write;
    let _ = std::io::stdout().flush();
    let router = Router::new()
        .route("/", get(|| page("text/html; charset=utf-8", PAGE)))
        .route("/page.js", get(|| page("text/javascript", SCRIPT)))
        .route("/page.css", get(|| page("text/css", STYLE)))
        .route("/api/info", get(info))
        .route("/api/random", get(random))
        .route("/api/position", post(position))
        .route("/api/solve", post(solve))
        .route("/api/solve/live", post(solve_live))
        .route("/api/cancel", post(cancel))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page or API call") })
        .layer(axum::extract::DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(app);
    axum::serve(listener, router)
        .await
        .map_err(|e| Failure(format!("server: {e}")))?;
    Ok(0)
}

const PAGE: &str = include_str!("page.html");
const SCRIPT: &str = include_str!("page.js");
const STYLE: &str = include_str!("page.css");

async fn page(kind: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// An error answer: `{"error": message}` with `status`.
fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}

/// The request body as JSON, or the error answer: too large (413), not JSON or not of the
/// expected fields (400, naming what is wrong).
fn body<T: serde::de::DeserializeOwned>(b: Result<Bytes, BytesRejection>) -> Result<T, Response> {
    let b = b.map_err(|r| match r.status() {
        StatusCode::PAYLOAD_TOO_LARGE => error(
            StatusCode::PAYLOAD_TOO_LARGE,
            &format!("request body over {BODY_LIMIT} bytes"),
        ),
        s => error(s, &r.body_text()),
    })?;
    serde_json::from_slice(&b)
        .map_err(|e| error(StatusCode::BAD_REQUEST, &format!("bad request JSON: {e}")))
}

/// The table set in use, its memory when loaded, and every set with its memory and the cost
/// of building it (`pdb sets --json`'s objects).
async fn info(State(app): State<App>) -> Response {
    let loaded = Some(app.loaded_bytes.load(Ordering::Relaxed)).filter(|&b| b > 0);
    let sets: Vec<Value> = (optcube::pdb::set::SETS.iter())
        .map(|s| super::pdb::set_json(s, Some(&app.dir)))
        .collect();
    axum::Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "pdb_dir": app.dir.display().to_string(),
        "set": app.set,
        "set_reason": app.set_reason,
        "loaded_bytes": loaded,
        "busy": app.busy.load(Ordering::Relaxed),
        "sets": sets,
        "goals": optcube::cube::NAMED_GOALS.iter().map(optcube::cube::goal_listing).collect::<Vec<_>>(),
    }))
    .into_response()
}

/// A uniformly random position (seeded from the clock).
async fn random() -> Response {
    let seed = (std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH))
        .map_or(1, |d| d.as_nanos() as u64);
    let cube = optcube::cube::Cube::random(&mut optcube::cube::Rng::new(seed));
    axum::Json(json!({ "facelets": cube.to_facelets() })).into_response()
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionRequest {
    facelets: Option<String>,
    scramble: Option<String>,
    /// Moves applied after the position (stepping through a solution).
    moves: Option<String>,
    goal: Option<String>,
    mask: Option<String>,
}

/// A position checked as the command line checks it, with moves applied, and drawn as
/// `optcube show --svg` draws it (gray where the goal or mask leaves stickers free).
async fn position(State(_): State<App>, b: Result<Bytes, BytesRejection>) -> Response {
    let req: PositionRequest = match body(b) {
        Ok(r) => r,
        Err(e) => return e,
    };
    let bad = |m: String| error(StatusCode::BAD_REQUEST, &m);
    let cube = match (&req.facelets, &req.scramble) {
        (Some(f), None) => optcube::cube::Cube::from_facelets(f.trim())
            .map_err(|e| format!("invalid position: {e}")),
        (None, Some(s)) => super::scramble_position(s).map_err(|e| e.0),
        _ => Err("give the position once: facelets or scramble".into()),
    };
    let mut cube = match cube {
        Ok(c) => c,
        Err(m) => return bad(m),
    };
    if let Some(m) = &req.moves {
        match optcube::cube::parse_moves(m) {
            Ok(seq) => cube = cube.apply_seq(&seq),
            Err(e) => return bad(format!("moves: {e}")),
        }
    }
    let free = match super::show::free_stickers(req.goal.as_deref(), req.mask.as_deref()) {
        Ok(f) => f,
        Err(e) => return bad(e.0),
    };
    let facelets = cube.to_facelets();
    axum::Json(json!({
        "facelets": facelets,
        "solved": cube == optcube::cube::Cube::SOLVED,
        "svg": optcube::cube::net::svg(&facelets, &free),
    }))
    .into_response()
}

/// Stops the running search, if any.
async fn cancel(State(app): State<App>) -> Response {
    let stop = app.stop.lock().expect("lock").clone();
    if let Some(s) = &stop {
        s.store(true, Ordering::Relaxed);
    }
    axum::Json(json!({ "cancelled": stop.is_some() })).into_response()
}

/// Clears the server's busy mark when a search's thread ends, however it ends.
struct Busy(App);

impl Drop for Busy {
    fn drop(&mut self) {
        *self.0.stop.lock().unwrap_or_else(|e| e.into_inner()) = None;
        *self.0.events.lock().unwrap_or_else(|e| e.into_inner()) = None;
        self.0.busy.store(false, Ordering::Release);
    }
}

/// Checks a solve request and starts its search on a thread of its own: the receiver of its
/// events and its stop flag, or the error answer (bad request 400, busy 409).
fn start(app: &App, b: Result<Bytes, BytesRejection>) -> Result<Started, Response> {
    let req: job::Request = body(b)?;
    let bad = |e: Failure| error(StatusCode::BAD_REQUEST, &e.0);
    let args = job::arguments(&req, &app.tables).map_err(bad)?;
    let checked = super::solve::check(&args).map_err(bad)?;
    if app.busy.swap(true, Ordering::Acquire) {
        return Err(error(
            StatusCode::CONFLICT,
            "a search is running on this server (one at a time): wait for it to end, or \
             cancel it",
        ));
    }
    let busy = Busy(app.clone());
    let stop = Arc::new(AtomicBool::new(false));
    *app.stop.lock().expect("lock") = Some(stop.clone());
    let (tx, rx) = mpsc::unbounded_channel::<Value>();
    *app.events.lock().expect("lock") = Some(tx.clone());
    let (app2, stop2) = (app.clone(), stop.clone());
    std::thread::spawn(move || {
        let last = {
            let mut guard = app2.engines.lock().unwrap_or_else(|e| e.into_inner());
            let engines: &mut job::Engines = &mut guard;
            let tx = &tx;
            let r = args.tables.place.pooled(|| {
                job::run(&args, checked, engines, &stop2, &mut |v| {
                    let _ = tx.send(v);
                })
            });
            let bytes = engines.optimal_bytes().unwrap_or(0);
            app2.loaded_bytes.store(bytes, Ordering::Relaxed);
            match r {
                Ok(v) => json!({"event": "result", "result": v}),
                Err(e) => json!({"event": "error", "status": 500, "error": e.0}),
            }
        };
        // The server is free before the answer leaves: a client that sends its next request
        // as soon as it reads this one's must not be refused as busy.
        drop(busy);
        let _ = tx.send(last);
    });
    Ok(Started { rx, stop })
}

struct Started {
    rx: mpsc::UnboundedReceiver<Value>,
    stop: Arc<AtomicBool>,
}

/// Stops a search when dropped: a request whose client went away.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `solve --json`'s object for one position, when the search ends.
async fn solve(State(app): State<App>, b: Result<Bytes, BytesRejection>) -> Response {
    let Started { mut rx, stop } = match start(&app, b) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let _stop = StopOnDrop(stop);
    while let Some(v) = rx.recv().await {
        match v["event"].as_str() {
            Some("result") => return axum::Json(v["result"].clone()).into_response(),
            Some("error") => {
                return error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    v["error"].as_str().unwrap_or(""),
                );
            }
            _ => {}
        }
    }
    error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "the search ended without an answer",
    )
}

/// The search's events as JSON lines while it runs, with a `tick` line each second (which is
/// also how a closed connection is noticed: the stream is dropped and the search stopped).
async fn solve_live(State(app): State<App>, b: Result<Bytes, BytesRejection>) -> Response {
    let Started { rx, stop } = match start(&app, b) {
        Ok(s) => s,
        Err(e) => return e,
    };
    let live = Live {
        rx,
        tick: tokio::time::interval(std::time::Duration::from_secs(1)),
        start: Instant::now(),
        _stop: StopOnDrop(stop),
    };
    (
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(live),
    )
        .into_response()
}

/// The live answer's body: the search's lines, and a tick each second between them.
struct Live {
    rx: mpsc::UnboundedReceiver<Value>,
    tick: tokio::time::Interval,
    start: Instant,
    _stop: StopOnDrop,
}

impl futures_core::Stream for Live {
    type Item = Result<Bytes, std::convert::Infallible>;

    fn poll_next(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Self::Item>> {
        use std::task::Poll;
        match self.rx.poll_recv(cx) {
            Poll::Ready(v) => Poll::Ready(v.map(|v| Ok(Bytes::from(format!("{v}\n"))))),
            Poll::Pending => match self.tick.poll_tick(cx) {
                Poll::Ready(_) => {
                    let t = self.start.elapsed().as_secs_f64();
                    let v = json!({"event": "tick", "seconds": (t * 10.0).round() / 10.0});
                    Poll::Ready(Some(Ok(Bytes::from(format!("{v}\n")))))
                }
                Poll::Pending => Poll::Pending,
            },
        }
    }
}
