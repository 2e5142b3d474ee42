//! `arena serve` against a match that is playing: the run page in a real
//! headless Chromium (driven over the DevTools protocol) shows more games and
//! a moved plot seconds later without a reload, logs nothing to the console
//! and fits a 400-px-wide screen; run control over HTTP refuses writes
//! without or with a wrong token and changes nothing, stops the run (its
//! process ends as after Ctrl-C) and resumes it; bad ids and forms get
//! 404 and 400 pages.

use crate::common::{ARENA, arena, arena_ok, http, start_serve, temp_dir};

use std::io::{BufRead, BufReader};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

const CHROMIUM: &str = "/usr/bin/chromium";

fn form(address: SocketAddr, path: &str, body: &str) -> (u16, String) {
    http(address, "POST", path, &[("Content-Type", "application/x-www-form-urlencoded")], body)
}

fn run_status(address: SocketAddr) -> String {
    let (_, body) = http(address, "GET", "/api/runs", &[], "");
    let runs: Value = serde_json::from_str(&body).unwrap();
    runs[0]["status"].as_str().unwrap().to_string()
}

/// Starts a match that plays for a while (two slots at 2,000 nodes) and
/// waits (polling, at most 60 s) until it has stored `until` games.
fn start_match(dir: &Path, db: &str, games: &str, until: i64) -> Child {
    let mut child = Command::new(ARENA)
        .args(["match", "--a", "fhr", "--b", "plain", "--games", games, "--tc", "nodes=2000", "--db", db])
        .args(["--openings", "noob_2moves", "--seed", "5", "--quiet"])
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        if stored_games(dir, db) >= until {
            return child;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    panic!("the match did not store {until} games within 60 s");
}

fn stored_games(dir: &Path, db: &str) -> i64 {
    if !db.starts_with("postgres://") && !dir.join(db).exists() {
        return 0;
    }
    let out = arena(dir, &["runs", "--db", db]);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.lines()
        .filter_map(|l| l.split_whitespace().find(|w| w.contains('/')))
        .filter_map(|w| w.split('/').next()?.parse().ok())
        .next()
        .unwrap_or(0)
}

/// A page of headless Chromium driven over the DevTools protocol.
struct Browser {
    child: Child,
    socket: tungstenite::WebSocket<TcpStream>,
    next_id: u64,
    console: Vec<String>,
}

impl Browser {
    fn open(profile: &Path) -> Browser {
        let mut child = Command::new(CHROMIUM)
            .args(["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"])
            .args(["--disable-component-update", "--disable-sync", "--remote-debugging-port=0"])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let ws = loop {
            let line = lines.next().expect("chromium says where DevTools listens").unwrap();
            if let Some(url) = line.strip_prefix("DevTools listening on ") {
                break url.to_string();
            }
        };
        std::thread::spawn(move || for _ in lines {});
        let port = ws.split(':').nth(2).and_then(|p| p.split('/').next()).unwrap();
        let address: SocketAddr = format!("127.0.0.1:{port}").parse().unwrap();
        let (_, targets) = http(address, "GET", "/json/list", &[], "");
        let targets: Value = serde_json::from_str(&targets).unwrap();
        let page = targets.as_array().unwrap().iter().find(|t| t["type"] == "page").expect("a page target");
        let url = page["webSocketDebuggerUrl"].as_str().unwrap();
        let stream = TcpStream::connect(address).unwrap();
        let (socket, _) = tungstenite::client(url, stream).unwrap();
        let mut browser = Browser { child, socket, next_id: 0, console: Vec::new() };
        for method in ["Page.enable", "Runtime.enable", "Log.enable"] {
            browser.call(method, json!({}));
        }
        browser
    }

    /// Sends a command and waits for its answer, collecting console events meanwhile.
    fn call(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let message = json!({ "id": id, "method": method, "params": params }).to_string();
        self.socket.send(tungstenite::Message::text(message)).unwrap();
        loop {
            let text = match self.socket.read().unwrap() {
                tungstenite::Message::Text(text) => text.to_string(),
                _ => continue,
            };
            let value: Value = serde_json::from_str(&text).unwrap();
            if value["id"] == id {
                assert!(value.get("error").is_none(), "{method}: {value}");
                return value["result"].clone();
            }
            self.event(&value);
        }
    }

    fn event(&mut self, event: &Value) {
        let params = &event["params"];
        match event["method"].as_str() {
            Some("Runtime.consoleAPICalled") => {
                self.console.push(format!("console.{}: {}", params["type"], params["args"]))
            }
            Some("Runtime.exceptionThrown") => self.console.push(format!("exception: {}", params["exceptionDetails"])),
            Some("Log.entryAdded") => {
                self.console.push(format!("log {}: {}", params["entry"]["level"], params["entry"]["text"]))
            }
            _ => {}
        }
    }

    fn eval(&mut self, expression: &str) -> Value {
        let result = self.call("Runtime.evaluate", json!({ "expression": expression, "returnByValue": true }));
        result["result"]["value"].clone()
    }

    fn screenshot(&mut self, path: &Path) {
        let shot = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        let png = base64::engine::general_purpose::STANDARD.decode(shot["data"].as_str().unwrap()).unwrap();
        std::fs::write(path, png).unwrap();
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The games count in the live report ("N games" of its statistics) and the
/// Elo plot's line.
const READ_PAGE: &str = "(() => { const pre = document.querySelector('#live pre'); \
    const m = pre ? pre.textContent.match(/(\\d+) games/) : null; \
    const line = document.querySelector('#live svg polyline'); \
    return { games: m ? Number(m[1]) : -1, line: line ? line.getAttribute('points') : '', \
             marker: window.__loaded === 42, overflow: document.documentElement.scrollWidth - window.innerWidth }; })()";

#[test]
fn the_run_page_moves_as_games_arrive_in_a_real_browser() {
    if !Path::new(CHROMIUM).exists() {
        assert!(std::env::var_os("CI").is_none(), "CI must install chromium (see .ci/run)");
        eprintln!("skipping the browser test: {CHROMIUM} not installed (apt-get install chromium)");
        return;
    }
    let dir = temp_dir("serve-browser");
    // 20 pairs: the fewest for which the Elo plot has an interval to draw.
    let mut playing = start_match(&dir, "arena.db", "2000", 40);
    let (mut server, address) = start_serve(&dir, &["--refresh", "1"]);
    let mut browser = Browser::open(&dir.join("chromium-profile"));
    browser.call(
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 400, "height": 1200, "deviceScaleFactor": 1, "mobile": true }),
    );
    browser.call("Page.navigate", json!({ "url": format!("http://{address}/runs/1") }));
    // Poll (no sleep-based guess) until the page has loaded and drawn its statistics.
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut first = browser.eval(READ_PAGE);
    while first["games"].as_i64().unwrap_or(-1) < 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        first = browser.eval(READ_PAGE);
    }
    browser.eval("window.__loaded = 42");
    browser.screenshot(&dir.join("run-1.png"));
    // Until the live part shows more games (the match keeps playing).
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut later = browser.eval(READ_PAGE);
    while later["games"].as_i64() <= first["games"].as_i64().map(|g| g + 3) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(200));
        later = browser.eval(READ_PAGE);
    }
    browser.screenshot(&dir.join("run-2.png"));
    let _ = playing.kill();
    let _ = playing.wait();
    let _ = server.kill();
    let _ = server.wait();

    assert!(first["games"].as_i64().unwrap() >= 40, "{first}");
    assert!(
        later["games"].as_i64() > first["games"].as_i64().map(|g| g + 3),
        "no new games shown: {first} then {later}"
    );
    assert_eq!(later["marker"], true, "the page was reloaded instead of refreshed in place");
    assert_ne!(first["line"], later["line"], "the Elo plot did not move");
    assert!(later["overflow"].as_i64().unwrap() <= 0, "wider than a 400-px screen: {later}");
    for shot in ["run-1.png", "run-2.png"] {
        assert!(std::fs::metadata(dir.join(shot)).unwrap().len() > 10_000, "{shot} is empty");
    }
    assert!(browser.console.is_empty(), "console messages: {:?}", browser.console);
}

/// The databases to test against: a SQLite file, and a scratch PostgreSQL
/// database when a server is there (CI must have one).
fn databases(test: &str) -> Vec<String> {
    let mut databases = vec!["arena.db".to_string()];
    let server = std::env::var("ARENA_TEST_POSTGRES").unwrap_or_else(|_| db::TEST_POSTGRES_DEFAULT.to_string());
    let runtime = tokio::runtime::Runtime::new().unwrap();
    match runtime.block_on(db::scratch_postgres(&server.parse().unwrap(), &format!("arena_serve_{test}"))) {
        Ok(db::Target::Postgres(url)) => databases.push(url),
        Ok(db::Target::Sqlite(_)) => unreachable!("a PostgreSQL scratch database"),
        Err(e) if std::env::var_os("CI").is_some() => panic!("CI needs a PostgreSQL server: {e}"),
        Err(e) => eprintln!("skipping PostgreSQL for {test}: {e}"),
    }
    databases
}

#[test]
fn run_control_needs_the_token_and_stops_and_resumes_the_run() {
    for db in databases("control") {
        control_on(&db);
    }
}

fn control_on(db: &str) {
    let dir = temp_dir(if db.starts_with("postgres") { "serve-control-pg" } else { "serve-control" });
    let mut playing = start_match(&dir, db, "120", 4);

    // Read-only without a token: writes are refused and change nothing.
    let (mut readonly, address) = start_serve(&dir, &["--db", db]);
    let (status, page) = form(address, "/runs/1/stop", "token=anything");
    assert_eq!(status, 403, "{page}");
    assert!(page.contains("read-only"), "{page}");
    assert_eq!(run_status(address), "running");
    let _ = readonly.kill();
    let _ = readonly.wait();

    let (mut server, address) = start_serve(&dir, &["--db", db, "--token", "s3cret-token"]);
    for (body, expected) in [("", 401), ("token=", 401), ("token=wrong", 403), ("token=s3cret-tokeN", 403)] {
        let (status, page) = form(address, "/runs/1/stop", body);
        assert_eq!(status, expected, "{body}: {page}");
        assert_eq!(run_status(address), "running", "a refused write changed the run");
    }
    let (status, _) = http(address, "POST", "/runs/1/stop", &[("Authorization", "Bearer wrong")], "");
    assert_eq!(status, 403);
    // Bad input: 404 and 400 pages with a message.
    assert_eq!(http(address, "GET", "/runs/999", &[], "").0, 404);
    assert_eq!(http(address, "GET", "/runs/abc", &[], "").0, 404);
    assert_eq!(http(address, "GET", "/api/runs/999", &[], "").0, 404);
    assert_eq!(http(address, "GET", "/nowhere", &[], "").0, 404);
    assert_eq!(form(address, "/runs/abc/stop", "token=s3cret-token").0, 404);
    // The other method on an address that is there: 405 and one line.
    let (status, page) = http(address, "GET", "/runs/1/stop", &[], "");
    assert!(
        status == 405 && page.contains("GET /runs/1/stop: the addresses under a run are its controls"),
        "{status} {page}"
    );
    let (status, page) = http(address, "PUT", "/runs/1/stop", &[], "");
    assert!(status == 405 && page.contains("PUT /runs/1/stop: the addresses under a run are its controls"), "{page}");
    let (status, page) = http(address, "POST", "/api/runs", &[], "");
    assert!(
        status == 405 && page.contains(r#""error":"POST /api/runs: this address takes GET only""#),
        "{status} {page}"
    );
    let (status, page) = form(address, "/runs/1/priority", "token=s3cret-token&priority=high");
    assert_eq!(status, 400);
    assert!(page.contains("priority must be a whole number"), "{page}");

    // Priority and stop with the token.
    assert_eq!(form(address, "/runs/1/priority", "token=s3cret-token&priority=7").0, 303);
    let (_, runs) = http(address, "GET", "/api/runs", &[], "");
    assert_eq!(serde_json::from_str::<Value>(&runs).unwrap()[0]["priority"], 7);
    let (status, _) = http(address, "POST", "/runs/1/stop", &[("Authorization", "Bearer s3cret-token")], "");
    assert_eq!(status, 303);
    // The playing process drops its pairs in flight and ends, as after Ctrl-C.
    let deadline = Instant::now() + Duration::from_secs(60);
    while playing.try_wait().unwrap().is_none() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = playing.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success() && stderr.contains("run 1 stopped; continue it with: arena resume 1"), "{stderr}");
    assert_eq!(run_status(address), "stopped");
    assert_eq!(form(address, "/runs/1/stop", "token=s3cret-token").0, 409, "stopping a stopped run");

    // Resume: running again; `arena resume` (or a worker) plays it to the end.
    assert_eq!(form(address, "/runs/1/resume", "token=s3cret-token").0, 303);
    assert_eq!(run_status(address), "running");
    arena_ok(&dir, &["resume", "1", "--quiet", "--db", db]);
    let (_, runs) = http(address, "GET", "/api/runs", &[], "");
    let run = &serde_json::from_str::<Value>(&runs).unwrap()[0];
    assert_eq!((run["status"].as_str(), run["done"].as_i64()), (Some("finished"), Some(120)), "{run}");
    // The workers page knows the processes that played it.
    let (_, workers) = http(address, "GET", "/api/workers", &[], "");
    let workers: Value = serde_json::from_str(&workers).unwrap();
    let stored: i64 = workers.as_array().unwrap().iter().map(|w| w["progress"].as_i64().unwrap()).sum();
    assert!(workers.as_array().unwrap().len() >= 2, "{workers}");
    assert!(stored >= 120, "the processes stored at least the run's games: {workers}");
    let (status, page) = http(address, "GET", "/workers", &[], "");
    assert!(status == 200 && page.contains("Per minute"), "{page}");
    let _ = server.kill();
    let _ = server.wait();
}

/// The dashboard's report of a running scaling run has a budget added by
/// `arena extend` at once, though no game was played since: the planned
/// pairs are part of what its cached report was built from.
#[test]
fn a_budget_added_to_a_running_scaling_run_shows_at_once() {
    let dir = temp_dir("serve-extend");
    let scale = ["scale", "--a", "vnm", "--b", "nmp2", "--budgets", "nodes=200,nodes=400", "--games", "2"];
    arena_ok(&dir, &[&scale[..], &["--no-local", "--quiet"]].concat());
    let (mut server, address) = start_serve(&dir, &[]);
    let points = || {
        let (status, body) = http(address, "GET", "/api/runs/1", &[], "");
        assert_eq!(status, 200, "{body}");
        let report: serde_json::Value = serde_json::from_str(&body).unwrap();
        let amounts: Vec<f64> =
            report["scale"]["points"].as_array().unwrap().iter().map(|p| p["amount"].as_f64().unwrap()).collect();
        (report["header"]["status"].as_str().unwrap().to_string(), amounts)
    };
    assert_eq!(points(), ("running".to_string(), vec![200.0, 400.0]));
    arena_ok(&dir, &["extend", "1", "--budgets", "nodes=800"]);
    assert_eq!(points(), ("running".to_string(), vec![200.0, 400.0, 800.0]));
    server.kill().unwrap();
    server.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database failure under the dashboard (a table gone behind its back) is
/// answered with a generic 500, as a page and as the API's JSON, and its
/// cause (the table's name, the database's words) goes to the log alone.
#[test]
fn a_database_error_is_a_generic_500_and_its_cause_goes_to_the_log() {
    let dir = temp_dir("serve-500");
    arena_ok(&dir, &["match", "--a", "fhr", "--b", "plain", "--games", "2", "--tc", "nodes=500", "--quiet"]);
    let (mut serve, address) = start_serve(&dir, &["--db", "arena.db"]);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        sqlx::any::install_default_drivers();
        let url = format!("sqlite://{}", dir.join("arena.db").display());
        let pool = db::pool_options::<sqlx::Any>().max_connections(1).connect(&url).await.unwrap();
        sqlx::query("DROP TABLE run_games").execute(&pool).await.unwrap();
        pool.close().await;
    });
    for path in ["/runs/1", "/api/runs/1"] {
        let (status, body) = http(address, "GET", path, &[], "");
        assert_eq!(status, 500, "{path}: {body}");
        assert!(body.contains("could not answer this request: its log says why"), "{path}: {body}");
        assert!(!body.contains("run_games") && !body.contains("no such table") && !body.contains("arena.db"), "{body}");
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    let log = loop {
        let log = std::fs::read_to_string(dir.join("serve.log")).unwrap_or_default();
        if log.contains("no such table: run_games") || Instant::now() > deadline {
            break log;
        }
        std::thread::yield_now();
    };
    assert!(
        log.contains("arena serve: error answering a request: ") && log.contains("no such table: run_games"),
        "{log}"
    );
    serve.kill().unwrap();
    serve.wait().unwrap();
}
