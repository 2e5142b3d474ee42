//! What the arena's integration tests share: the binaries under test, a
//! fresh folder per test, and running the `arena` command in it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The `arena` binary under test.
pub const ARENA: &str = env!("CARGO_BIN_EXE_arena");
/// The scripted engine.
pub const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

/// An empty folder of its own for test `name`: the process id keeps runs of
/// the test binary apart, a counter keeps its tests apart even where two
/// name theirs alike.
pub fn temp_dir(name: &str) -> PathBuf {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("arena-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `arena ARGS` in `dir`.
pub fn arena(dir: &Path, args: &[&str]) -> Output {
    Command::new(ARENA).args(args).current_dir(dir).output().unwrap()
}

/// Runs `arena ARGS` in `dir` and requires it to succeed.
pub fn arena_ok(dir: &Path, args: &[&str]) -> Output {
    let out = arena(dir, args);
    assert!(out.status.success(), "arena {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Starts `arena ARGS` in `dir` in a process group of its own (as a shell
/// starts a foreground job), its output discarded but for its stderr, kept
/// in `dir/arena.stderr`.
pub fn spawn_arena_job<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> std::process::Child {
    use std::os::unix::process::CommandExt;
    Command::new(ARENA)
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::fs::File::create(dir.join("arena.stderr")).unwrap())
        .process_group(0)
        .spawn()
        .unwrap()
}

/// Sends `SIG<signal>` to every process of `job`'s group, as a terminal
/// (Ctrl-C) or a service manager does.
pub fn signal_job(job: &std::process::Child, signal: &str) {
    let group = format!("-{}", job.id());
    assert!(Command::new("kill").args([&format!("-{signal}"), "--", &group]).status().unwrap().success());
}

/// HTML text as a reader sees it: the entities the pages use, decoded.
pub fn unescape(html: &str) -> String {
    html.replace("&gt;", ">").replace("&lt;", "<").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&")
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Checks a tuning run's stored iterations against its games: one per
/// finished pair, iteration k on pair k − 1, each score the pair's wins −
/// losses of θ+, and each θ exactly the SPSA step from the one before
/// (from the start for the first). Returns the final θ.
pub async fn assert_tune_chain(db: &db::Db, run: i64) -> Vec<f64> {
    let info = db.run(run).await.unwrap();
    let Ok(model::Spec::Games(spec)) = model::Spec::of(&info) else { panic!("run {run} is not a run of games") };
    let model::GamesKind::Tune(spsa) = spec.kind else { panic!("run {run} is not a tuning run") };
    let iterations = db.tune_iterations(run).await.unwrap();
    let outcomes = db.pair_outcomes(run).await.unwrap();
    assert_eq!(iterations.len() as i64, info.pairs_done, "one iteration per finished pair");
    let mut theta = spsa.start();
    for iteration in &iterations {
        let p = &iteration.perturbation;
        let pair = outcomes.iter().find(|o| o.index + 1 == p.k as i64).expect("the iteration's pair is finished");
        let tally = model::Tally::of_pair(pair.results[0], pair.results[1]);
        assert_eq!(iteration.score, tally.wins as i64 - tally.losses as i64, "iteration {}", p.k);
        assert_eq!(p.flips, spsa.flips(p.k), "iteration {}: the signs are the seed's", p.k);
        let expected = spsa.step(&theta, p, iteration.score);
        assert_eq!(iteration.theta, expected, "iteration {}: θ is the SPSA step from the θ before", p.k);
        theta = expected;
    }
    let mut ks: Vec<u64> = iterations.iter().map(|i| i.perturbation.k).collect();
    ks.sort_unstable();
    ks.dedup();
    assert_eq!(ks.len(), iterations.len(), "no iteration counted twice");
    theta
}

/// Checks a report's JSON against `docs/report.schema.json`.
pub fn validate_against_schema(report: &serde_json::Value) {
    let schema_path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/report.schema.json");
    let schema: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema is valid JSON Schema");
    let errors: Vec<String> = validator.iter_errors(report).map(|e| format!("{}: {e}", e.instance_path())).collect();
    assert!(errors.is_empty(), "report JSON does not match its schema:\n{}", errors.join("\n"));
}

/// Runs `arena ARGS` in `dir` and requires it to be refused as a user error:
/// exit status 2, one line that contains `needle`, and no file `db` created.
pub fn assert_refused(dir: &Path, args: &[&str], needle: &str, db: &str) {
    let out = arena(dir, args);
    let message = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {message}");
    assert_eq!(message.trim().lines().count(), 1, "{args:?}: one line: {message}");
    assert!(message.contains(needle), "{args:?}: '{needle}' in {message}");
    assert!(!dir.join(db).exists(), "{args:?}: nothing stored");
}

/// The stored games of run 1 in the SQLite file `db`, with their moves.
pub async fn stored_games(db: &Path) -> Vec<model::GameRow> {
    let db = db::Db::open(&db::Target::Sqlite(db.to_path_buf())).await.unwrap();
    let games = db.games_page(1, 0, 10_000, true).await.unwrap();
    db.close().await;
    games
}

/// Whether python3 can import `module` (`chess`, python-chess, the
/// independent reader; `sqlite3` for the scaling snapshot's script): outside
/// CI a missing one skips the check with a line; under CI (`CI` set) it is a
/// failure, since `.ci/run` installs it.
pub fn have_python(module: &str) -> bool {
    let have =
        Command::new("python3").args(["-c", &format!("import {module}")]).output().is_ok_and(|o| o.status.success());
    if !have {
        let install = if module == "chess" { "pip install chess" } else { "apt-get install python3" };
        assert!(std::env::var_os("CI").is_none(), "CI needs python3 with {module}: {install} (.ci/run does this)");
        eprintln!("skipping the {module} check: python3 cannot import {module} ({install})");
    }
    have
}

/// Starts `arena serve ARGS` on a free port in `dir`; the child and its address.
pub fn start_serve(dir: &Path, args: &[&str]) -> (Child, SocketAddr) {
    let mut child = Command::new(ARENA)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let line = lines.next().expect("serve says where it listens").unwrap();
    let address = line.split("http://").nth(1).and_then(|rest| rest.split('/').next()).expect(&line);
    // Keep reading its log so it never blocks on a full pipe, into
    // `serve.log` in `dir` for the tests that read it.
    let mut log = std::fs::File::create(dir.join("serve.log")).unwrap();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            let _ = writeln!(log, "{line}");
        }
    });
    (child, address.parse().unwrap())
}

/// One HTTP/1.1 request; the status and body.
pub fn http(address: SocketAddr, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    let mut request = format!("{method} {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n");
    for (name, value) in headers {
        request += &format!("{name}: {value}\r\n");
    }
    request += &format!("Content-Length: {}\r\n\r\n{body}", body.len());
    stream.write_all(request.as_bytes()).unwrap();
    // Read the head, then the body by its length (Chromium keeps the connection open).
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = stream.read(&mut chunk).unwrap();
        bytes.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&bytes);
        if let Some((head, body)) = text.split_once("\r\n\r\n") {
            let length = head.lines().find_map(|l| {
                let (name, value) = l.split_once(':')?;
                name.eq_ignore_ascii_case("content-length").then(|| value.trim().parse::<usize>().ok())?
            });
            if n == 0 || length.is_some_and(|length| body.len() >= length) {
                let status = head.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
                return (status, body.to_string());
            }
        }
        assert!(n > 0, "the connection closed before the head ended");
    }
}
