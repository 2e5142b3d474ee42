//! End to end through the `arena` binary: a paired-opening run stored in
//! SQLite and exported as PGN, a tournament, kill-and-resume, and the
//! one-line errors for bad input.

use crate::common::{ARENA, FAKE, arena, signal_job, spawn_arena_job, temp_dir};

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use db::{Db, Target};
use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{Chess, Position};

/// An independent reading of PGN (pgn-reader): tags and main-line SAN, each
/// move replayed with shakmaty from the standard start.
#[derive(Default)]
struct ParsedGame {
    tags: HashMap<String, String>,
    san: Vec<String>,
}

struct Collect;

impl Visitor for Collect {
    type Tags = HashMap<String, String>;
    type Movetext = ParsedGame;
    type Output = ParsedGame;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(HashMap::new())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Self::Output> {
        tags.insert(String::from_utf8_lossy(name).into_owned(), value.decode_utf8_lossy().into_owned());
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Continue(ParsedGame { tags, san: Vec::new() })
    }

    fn san(&mut self, game: &mut Self::Movetext, san: SanPlus) -> ControlFlow<Self::Output> {
        game.san.push(san.to_string());
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, game: Self::Movetext) -> Self::Output {
        game
    }
}

fn parse_pgn(path: &Path) -> Vec<ParsedGame> {
    let mut reader = Reader::new(std::fs::File::open(path).unwrap());
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut Collect).unwrap() {
        games.push(game);
    }
    games
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn feldmann25_run_stores_fifty_games_and_pgn_round_trips() {
    let dir = temp_dir("e2e");
    let out =
        arena(&dir, &["elo", "--a", "fhr", "--b", "plain", "--tc", "nodes=1500", "--quiet", "--pgn", "games.pgn"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(!stderr.contains("warning"), "25 openings once each repeat nothing: {stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("fhr vs plain: 50 games") && stdout.contains("verdict: "), "{stdout}");

    let db = Db::open(&Target::Sqlite(dir.join("arena.db"))).await.unwrap();
    let run = db.run(1).await.unwrap();
    assert_eq!((run.games, run.pairs_planned, run.pairs_done, run.status.as_str()), (50, 25, 25, "finished"));
    let games = db.games_page(1, 0, 1000, true).await.unwrap();
    assert_eq!(games.len(), 50);
    let mut per_opening: HashMap<&str, Vec<(&str, &str)>> = HashMap::new();
    for game in &games {
        per_opening.entry(&game.record.opening).or_default().push((&game.record.white, &game.record.black));
    }
    assert_eq!(per_opening.len(), 25);
    for (opening, colours) in &per_opening {
        let mut colours = colours.clone();
        colours.sort();
        assert_eq!(colours, [("fhr", "plain"), ("plain", "fhr")], "{opening}");
    }

    let parsed = parse_pgn(&dir.join("games.pgn"));
    assert_eq!(parsed.len(), 50);
    for (stored, read) in games.iter().zip(&parsed) {
        let record = &stored.record;
        let expected: Vec<String> =
            record.opening_san.iter().cloned().chain(record.moves.iter().map(|m| m.san.clone())).collect();
        assert_eq!(read.san, expected, "game {}", stored.id);
        assert_eq!(read.tags["Result"], record.result.pgn());
        assert_eq!(read.tags["White"], record.white);
        assert_eq!(read.tags["PlyCount"], expected.len().to_string());
        for key in ["Event", "Site", "Date", "Round", "Black", "TimeControl", "Termination"] {
            assert!(read.tags.contains_key(key), "tag {key}");
        }
        let mut position = Chess::default();
        for san in &read.san {
            let mv = san.parse::<SanPlus>().unwrap().san.to_move(&position).unwrap();
            position.play_unchecked(mv);
        }
    }
    // The engine answers a forced move (one legal reply) without searching, so
    // without info; every other move carries depth and nodes.
    let moves: Vec<_> = games.iter().flat_map(|g| &g.record.moves).collect();
    let with_info = moves.iter().filter(|m| m.nodes.is_some() && m.depth.is_some()).count();
    assert!(with_info * 100 >= moves.len() * 97, "{with_info} of {} moves carry info", moves.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournament_of_three_presets_plays_every_pairing() {
    let dir = temp_dir("tournament");
    std::fs::write(dir.join("two.txt"), "e4 e5\nd4 d5\n").unwrap();
    let out = arena(
        &dir,
        &["tournament", "--engines", "plain,nmp2,fhr", "--openings", "two.txt", "--tc", "nodes=800", "--quiet"],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let db = Db::open(&Target::Sqlite(dir.join("arena.db"))).await.unwrap();
    let games = db.games_page(1, 0, 1000, false).await.unwrap();
    assert_eq!(games.len(), 12, "3 pairings x 2 openings x 2 colours");
    let mut per_pair: HashMap<(String, String), u32> = HashMap::new();
    for game in &games {
        let mut key = [game.record.white.clone(), game.record.black.clone()];
        key.sort();
        *per_pair.entry((key[0].clone(), key[1].clone())).or_default() += 1;
    }
    assert_eq!(per_pair.len(), 3);
    assert!(per_pair.values().all(|&n| n == 4), "{per_pair:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    for pairing in ["plain vs nmp2", "plain vs fhr", "nmp2 vs fhr"] {
        assert!(stdout.contains(pairing), "{pairing}: {stdout}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killed_run_resumes_to_exactly_the_planned_games() {
    let dir = temp_dir("resume");
    let args = [
        "match",
        "--a",
        "nmp2",
        "--b",
        "plain",
        "--games",
        "24",
        "--openings",
        "forty",
        "--tc",
        "nodes=3000",
        "--quiet",
    ];
    let mut child =
        Command::new(ARENA).args(args).current_dir(&dir).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
    let db_path = dir.join("arena.db");
    wait_for_games(&db_path, 5, &mut child).await;
    child.kill().unwrap();
    child.wait().unwrap();
    let db = Db::open(&Target::Sqlite(db_path.clone())).await.unwrap();
    let before = db.run(1).await.unwrap();
    assert_eq!(before.status, model::RunStatus::Running, "killed, not finished");
    assert!(before.games < 24, "killed mid-run: {} games", before.games);
    db.close().await;
    // The report of an unfinished run shows the state so far.
    let out = arena(&dir, &["report", "1", "--format", "json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["header"]["status"], "running");
    assert_eq!(report["header"]["games_played"].as_i64(), Some(before.games));
    let finished_pairs = report["pairings"][0]["openings"].as_array().unwrap().len() as i64;
    assert_eq!(finished_pairs, before.pairs_done, "statistics count finished pairs only");

    let out = arena(&dir, &["resume", "1", "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let db = Db::open(&Target::Sqlite(db_path.clone())).await.unwrap();
    let after = db.run(1).await.unwrap();
    assert_eq!((after.games, after.pairs_done, after.status.as_str()), (24, 12, "finished"));
    let games = db.games_page(1, 0, 1000, true).await.unwrap();
    let mut per_pair: HashMap<i64, Vec<i64>> = HashMap::new();
    for game in &games {
        per_pair.entry(game.pair_index).or_default().push(game.game_in_pair);
        assert!(!game.record.moves.is_empty());
    }
    assert_eq!(per_pair.len(), 12);
    assert!(
        per_pair.values().all(|g| {
            let mut g = g.clone();
            g.sort();
            g == [0, 1]
        }),
        "{per_pair:?}"
    );
    assert_eq!(db.pair_outcomes(1).await.unwrap().len(), 12, "nothing counted twice");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_input_gets_one_line_and_starts_nothing() {
    let dir = temp_dir("errors");
    std::fs::write(dir.join("ghost.toml"), "[[engine]]\nname = \"ghost\"\ncommand = \"/no/such/engine\"\n").unwrap();
    std::fs::write(dir.join("bad.epd"), "e4 e5\ne4 Ke2\n").unwrap();
    std::fs::write(dir.join("noexec"), "#!/bin/sh\n").unwrap();
    let away = format!("[[engine]]\nname = \"away\"\ncommand = \"{FAKE}\"\ndir = \"no-such-folder\"\n");
    std::fs::write(dir.join("away.toml"), away).unwrap();
    let instant = format!("[[engine]]\nname = \"instant\"\ncommand = \"{FAKE}\"\nargs = [\"instant\"]\n");
    std::fs::write(dir.join("instant.toml"), instant).unwrap();
    let cases: &[(&[&str], &str)] = &[
        // What is missing is named, clap's lines after its first joined into it.
        (&["elo"], "the following required arguments were not provided: --a <A>, --b <B> (arena elo --help"),
        (&["sprt", "--a", "fhr"], "the following required arguments were not provided: --b <B> (arena sprt --help"),
        (&["eol"], "unrecognized command 'eol'; did you mean 'elo'?"),
        (&["elo", "--a", "./noexec", "--b", "plain"], "Permission denied (os error 13) (is it executable? chmod +x '"),
        (
            &["elo", "--a", "away", "--b", "plain", "--engines-file", "away.toml"],
            "its folder 'no-such-folder' does not exist (dir = in engines.toml)",
        ),
        (&["elo", "--a", "fhx", "--b", "plain"], "unknown engine 'fhx'; known: plain"),
        (&["elo", "--a", "fhr", "--b", "plain", "--tc", "40/"], "bad time control '40/'"),
        (&["elo", "--a", "fhr", "--b", "plain", "--openings", "nothere.epd"], "nothere.epd: cannot read opening file"),
        (&["elo", "--a", "fhr", "--b", "plain", "--openings", "bad.epd"], "bad.epd:2: 'Ke2'"),
        (&["elo", "--a", "ghost", "--b", "plain", "--engines-file", "ghost.toml"], "cannot start '/no/such/engine'"),
        (&["elo", "--a", "fhr", "--b", "fhr"], "named twice"),
        (
            &["elo", "--a", "fhr", "--b", "plain", "--draw", "moves=3"],
            "for '--draw <RULE>': unknown draw setting 'moves'",
        ),
        (&["elo", "--a", "fhr", "--b", "plain", "--db", "/proc/x.db"], "database '/proc/x.db' is not writable"),
        (
            &["elo", "--a", "fhr", "--b", "plain", "--db", "nowhere/x.db"],
            "cannot open database 'nowhere/x.db': its folder",
        ),
        (&["sprt", "--a", "fhr", "--b", "plain", "--elo0", "5", "--elo1", "0"], "elo0 (5) must be below elo1 (0)"),
        (&["show", "3", "--db", "none.db"], "no database at none.db"),
        (&["runs", "--db", "."], "cannot open database '.': it is a folder"),
        (&["runs", "--db", "/dev/null"], "it is a device, pipe or socket, not a file"),
        // Settings that would decide every game instead of the engines.
        (&["elo", "--a", "fhr", "--b", "plain", "--tc", "st=0"], "use st=0.05 or more"),
        (&["elo", "--a", "fhr", "--b", "plain", "--tc", "st=0.0001"], "use st=0.05 or more"),
        (&["elo", "--a", "fhr", "--b", "plain", "--concurrency", "0"], "'--concurrency <N>': must be at least 1"),
        (
            &["suite", "--engines", "fhr", "--suite", "bk", "--depth", "2", "--concurrency", "0"],
            "'--concurrency <N>': must be at least 1",
        ),
        (
            &["elo", "--a", "fhr", "--b", "plain", "--resign", "movecount=0,score=500"],
            "movecount and score must be at least 1",
        ),
        (
            &["elo", "--a", "fhr", "--b", "plain", "--resign", "movecount=3,score=-5"],
            "movecount and score must be at least 1",
        ),
        (
            &["elo", "--a", "fhr", "--b", "plain", "--draw", "movenumber=0,movecount=0,score=0"],
            "movenumber and movecount must be at least 1",
        ),
        (&["elo", "--a", "fhr", "--b", "plain", "--maxmoves", "0"], "'--maxmoves <N>': must be at least 1"),
        // Every option the run will set is checked before the run exists, node-time's too.
        (
            &["elo", "--a", "fhr", "--b", "plain", "--tc", "1+0.01,nodetime=99999999999999"],
            "'NodesTime' = 99999999999999 is outside 0..1000000",
        ),
        (
            &[
                "elo",
                "--a",
                "instant",
                "--b",
                "plain",
                "--tc",
                "1+0.01,nodetime=1000",
                "--engines-file",
                "instant.toml",
            ],
            "nodetime needs an engine option NodesTime",
        ),
    ];
    for (args, needle) in cases {
        let out = arena(&dir, args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: one line: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    // An engine that does not keep a node limit (it searches on, as Debian's
    // Toga II 3.0 does under `go nodes`) is named before the run, not
    // stalled in every game. Its wait may show on the live line first.
    let busy = format!("[[engine]]\nname = \"busy\"\ncommand = \"{FAKE}\"\nargs = [\"busy\", \"60000\"]\n");
    std::fs::write(dir.join("busy.toml"), busy).unwrap();
    let args = ["elo", "--a", "busy", "--b", "plain", "--tc", "nodes=1000,stall=1", "--engines-file", "busy.toml"];
    let out = arena(&dir, &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let last = stderr.trim_end().lines().last().unwrap_or_default();
    assert!(
        last.contains("engine 'busy' does not keep the run's limit: 'go nodes 1000' gave no bestmove after")
            && last.contains("arena check busy"),
        "{stderr}"
    );
    if dir.join("arena.db").exists() {
        let db = Db::open(&Target::Sqlite(dir.join("arena.db"))).await.unwrap();
        assert!(db.runs().await.unwrap().is_empty(), "no run was created");
    }

    // A concurrency the limit on open files cannot hold (here 100).
    let out = Command::new("prlimit")
        .args(["--nofile=100:100", ARENA, "elo", "--a", "fhr", "--b", "plain", "--concurrency", "50"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains("--concurrency 50 needs about") && stderr.contains("only 100"), "{stderr}");

    // Not arena's: a file of random bytes, another program's SQLite file.
    // Refused at once, in one line, and left byte for byte as they were.
    let noise: Vec<u8> = (0..4096u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
    std::fs::write(dir.join("noise.db"), &noise).unwrap();
    let foreign_path = dir.join("foreign.db");
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(&foreign_path).create_if_missing(true);
    let mut foreign = sqlx::ConnectOptions::connect(&options).await.unwrap();
    sqlx::Executor::execute(&mut foreign, "CREATE TABLE notes (x TEXT); INSERT INTO notes VALUES ('mine')")
        .await
        .unwrap();
    sqlx::Connection::close(foreign).await.unwrap();
    let foreign_bytes = std::fs::read(&foreign_path).unwrap();
    for (file, needle) in [("noise.db", "it is not a SQLite file"), ("foreign.db", "another program's tables")] {
        for args in [&["runs", "--db", file][..], &["elo", "--a", "fhr", "--b", "plain", "--db", file]] {
            let out = arena(&dir, args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
            assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: one line: {stderr}");
            assert!(stderr.contains("is not an arena database") && stderr.contains(needle), "{args:?}: {stderr}");
        }
    }
    assert_eq!(std::fs::read(dir.join("noise.db")).unwrap(), noise, "the noise is untouched");
    assert_eq!(std::fs::read(&foreign_path).unwrap(), foreign_bytes, "the other program's file is untouched");
    assert!(!dir.join("foreign.db-wal").exists() && !dir.join("noise.db-wal").exists());

    // A database another process holds the write lock on.
    let db_path = dir.join("locked.db");
    Db::open(&Target::Sqlite(db_path.clone())).await.unwrap().close().await;
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(&db_path);
    let mut holder = sqlx::ConnectOptions::connect(&options).await.unwrap();
    sqlx::Executor::execute(&mut holder, "BEGIN EXCLUSIVE").await.unwrap();
    let out = arena(&dir, &["elo", "--a", "fhr", "--b", "plain", "--db", "locked.db"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("is locked by another process"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Ctrl-C at the terminal goes to the whole foreground process group;
/// systemd, Docker and `timeout` send SIGTERM; a closed terminal SIGHUP.
/// Each stops the run the same way: the engines (in process groups of their
/// own) play on, the pairs in flight finish as games (none is charged to an
/// engine as a crash), the run is marked stopped, and no engine is left
/// running.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_sigterm_and_sighup_stop_the_run_without_charging_the_engines() {
    for signal in ["INT", "TERM", "HUP"] {
        let dir = temp_dir(&format!("signal-{signal}"));
        let args = ["match", "--a", "fhr", "--b", "plain", "--games", "40", "--tc", "nodes=20000", "--quiet"];
        let mut child = spawn_arena_job(&dir, &args);
        let db_path = dir.join("arena.db");
        wait_for_games(&db_path, 1, &mut child).await;
        // What the terminal (or the service manager) does: the signal to every process of the group.
        signal_job(&child, signal);
        assert!(child.wait().unwrap().success(), "SIG{signal}");
        let db = Db::open(&Target::Sqlite(db_path.clone())).await.unwrap();
        let stopped = db.run(1).await.unwrap();
        assert_eq!(stopped.status, model::RunStatus::Stopped, "SIG{signal}");
        let games = db.games_page(1, 0, 1000, false).await.unwrap();
        let faults: Vec<_> =
            games.iter().filter(|g| g.record.termination.is_fault()).map(|g| &g.record.detail).collect();
        assert!(faults.is_empty(), "SIG{signal}: games charged to an engine: {faults:?}");
        assert!(stopped.games < 40 && stopped.games % 2 == 0, "SIG{signal}: pairs in flight finish: {}", stopped.games);
        db.close().await;
        let left: Vec<String> = std::fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter(|p| std::fs::read_link(p.path().join("cwd")).is_ok_and(|cwd| cwd == dir))
            .map(|p| p.file_name().to_string_lossy().into_owned())
            .collect();
        assert!(left.is_empty(), "SIG{signal}: processes still running in the run's folder: {left:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Waits (two minutes at most) until run 1 in `db_path` has `games` games
/// stored, read on a read-only connection (so that the waiting takes no
/// write lock the run could meet); fails at once, with what the run said
/// (`arena.stderr` beside the database, where [`spawn_arena_job`] writes
/// it), if `child` ends first.
///
/// [`spawn_arena_job`]: crate::common::spawn_arena_job
pub(crate) async fn wait_for_games(db_path: &Path, games: i64, child: &mut std::process::Child) {
    let deadline = Instant::now() + Duration::from_secs(120);
    let said = || std::fs::read_to_string(db_path.with_file_name("arena.stderr")).unwrap_or_default();
    let url = format!("sqlite://{}?mode=ro", db_path.display());
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the run ended ({status}) before storing {games} games: {}", said());
        }
        assert!(Instant::now() < deadline, "the run stored {games} games not in time: {}", said());
        if db_path.exists()
            && let Ok(mut connection) = <sqlx::SqliteConnection as sqlx::Connection>::connect(&url).await
        {
            let stored: Result<i64, _> =
                sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE run_id = 1").fetch_one(&mut connection).await;
            let _ = sqlx::Connection::close(connection).await;
            if stored.is_ok_and(|stored| stored >= games) {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `arena sprt` with no openings and no cap plays a large book in a random
/// order and stops at a cap from its bounds, both said when it starts; the
/// seed is kept, so the run is planned the same way again.
#[test]
fn an_sprt_without_a_book_or_a_cap_takes_a_large_shuffled_book_and_a_cap_from_its_bounds() {
    let dir = temp_dir("sprt-defaults");
    let out = arena(&dir, &["sprt", "--a", "fhr", "--b", "nmp2", "--tc", "1+0.01", "--no-local"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    // [0, 5] nElo: sprt-calc expects 41,861 games at worst (at 2.5 nElo).
    assert!(said.contains("at most 83724 games: twice the 41861 sprt-calc expects at worst"), "{said}");
    assert!(said.contains("openings noob_2moves, shuffled with seed "), "{said}");
    let shown = crate::common::stdout(&crate::common::arena_ok(&dir, &["show", "1", "--config"]));
    assert!(shown.contains("openings = \"noob_2moves\"") && shown.contains("seed = "), "{shown}");
    assert!(shown.contains("max-games = 83724"), "{shown}");
    // Under a deterministic limit the book lowers the cap: one number of
    // games on the screen, the book's, and the cap it replaces named once.
    let out = arena(&dir, &["sprt", "--a", "fhr", "--b", "nmp2", "--tc", "nodes=2000", "--no-local", "--db", "n.db"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("up to 14628 games per pairing, not 83724"), "{said}");
    assert!(said.contains("at nodes=2000, 14628 games from noob_2moves") && !said.contains("at most "), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
