//! Engine I/O logs through the binary: every line to and from both engines
//! of a game, timestamped, one gzip member per game in a file of the run
//! that the stored record names, printed by `arena log RUN PAIR.GAME` —
//! including the end of an engine that crashed; `--no-io-log` keeps none;
//! bad input is one line.

use std::path::Path;

use crate::common::{FAKE, arena_ok, assert_refused, stdout, stored_games, temp_dir};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_line_of_a_game_is_one_command_away() {
    let dir = temp_dir("io-log");
    let toml = format!("[[engine]]\nname = \"crasher\"\ncommand = \"{FAKE}\"\nargs = [\"crash-mid-game\", \"6\"]\n");
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    // feldmann25 in file order: the crasher reaches its sixth `go` in both
    // games (a shuffled book can hand it an opening where it is mated first).
    two_games(&dir, "crasher", "l.db", &["--openings", "feldmann25"]);

    for game in &stored_games(&dir.join("l.db")).await {
        let record = &game.record;
        let place = record.io_log.as_deref().expect("the record names its log");
        let round = format!("{}.{}", game.pair_index + 1, game.game_in_pair + 1);
        // Every game of the run that ended by a fault is in this process's file of faults.
        assert!(place.contains("/run-1/io-") && place.contains("-faults.log.gz@"), "{place}");
        let log = stdout(&arena_ok(&dir, &["log", "1", &round, "--db", "l.db"]));
        let lines: Vec<&str> = log.lines().collect();
        // Both engines, both ways, in time order.
        for needle in ["crasher > go", "plain > go", "plain < bestmove", "crasher > ucinewgame", "plain < readyok"] {
            assert!(log.contains(needle), "{needle} in game {round}:\n{log}");
        }
        let times: Vec<u64> = lines.iter().map(|l| l.split_whitespace().next().unwrap().parse().unwrap()).collect();
        assert!(times.windows(2).all(|w| w[0] <= w[1]), "milliseconds in order");
        // One `go` per engine move, plus the one the crasher never answered.
        let goes = lines.iter().filter(|l| l.contains(" > go ")).count();
        assert_eq!(record.termination, model::Termination::Disconnect, "{:?}", record.termination);
        assert_eq!(goes, record.moves.len() + 1, "{log}");
        assert!(lines.last().unwrap().ends_with("crasher < (the engine closed its output)"), "{log}");
    }

    // Fault-free games: both in one file, one after the other, each printed whole.
    two_games(&dir, "fhr", "f.db", &[]);
    let games = stored_games(&dir.join("f.db")).await;
    let places: Vec<&str> = games.iter().map(|g| g.record.io_log.as_deref().expect("named")).collect();
    let files: Vec<&str> = places.iter().map(|p| p.rsplit_once('@').unwrap().0).collect();
    assert!(files[0] == files[1] && files[0].ends_with("-1.log.gz"), "{places:?}");
    for (game, round) in games.iter().zip(["1.1", "1.2"]) {
        let log = stdout(&arena_ok(&dir, &["log", "1", round, "--db", "f.db"]));
        let goes = log.lines().filter(|l| l.contains(" > go ")).count();
        assert_eq!(goes, game.record.moves.len(), "one go per move in game {round}:\n{log}");
    }

    // Without logs: nothing written, and the command says so.
    two_games(&dir, "fhr", "n.db", &["--no-io-log"]);
    assert_refused(&dir, &["log", "1", "1.1", "--db", "n.db"], "played without an I/O log", "none");
    for (game, needle) in
        [("0.1", "is not a game"), ("1.3", "is not a game"), ("x", "is not a game"), ("7.1", "no game 7.1")]
    {
        assert_refused(&dir, &["log", "1", game, "--db", "l.db"], needle, "none");
    }
}

/// `arena match`: `a` against plain, two games at 500 nodes into `db`, and `extra`.
fn two_games(dir: &Path, a: &str, db: &str, extra: &[&str]) {
    let mut args = vec!["match", "--a", a, "--b", "plain", "--games", "2", "--tc", "nodes=500", "--db", db, "--quiet"];
    args.extend_from_slice(extra);
    arena_ok(dir, &args);
}

/// An engine that prints a million `info` lines before each move (a debug
/// build left verbose) plays with the I/O log on: arena's peak resident
/// memory stays bounded (measured by the kernel, through python's
/// `getrusage` of its children, arena the largest of them), the games'
/// results are stored, the log keeps every move and says what it left out,
/// and one warning names the engine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flooding_engine_plays_with_the_io_log_on_in_bounded_memory() {
    let dir = temp_dir("io-log-flood");
    let toml = format!("[[engine]]\nname = \"flood\"\ncommand = \"{FAKE}\"\nargs = [\"flood\", \"1000000\"]\n");
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    let measure = "import resource, subprocess, sys\n\
                   done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n\
                   sys.stderr.write(done.stderr)\n\
                   print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)";
    let args = ["match", "--a", "flood", "--b", "plain", "--games", "2", "--tc", "nodes=200", "--maxmoves", "3"];
    let out = std::process::Command::new("python3")
        .args(["-c", measure, crate::common::ARENA])
        .args(args)
        .args(["--concurrency", "1", "--db", "f.db", "--quiet"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let (status, peak_kb) = said.trim().split_once(' ').expect(&said);
    assert_eq!(status, "0", "{stderr}");
    let peak_mb = peak_kb.parse::<u64>().unwrap() / 1024;
    assert!(peak_mb < 200, "arena peaked at {peak_mb} MB");
    let warnings: Vec<&str> =
        stderr.lines().filter(|l| l.contains("writes more than a game's I/O log keeps")).collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].starts_with("warning: flood "), "{stderr}");
    let games = stored_games(&dir.join("f.db")).await;
    assert_eq!(games.len(), 2);
    let log = stdout(&arena_ok(&dir, &["log", "1", "1.1", "--db", "f.db"]));
    let moves = &games.iter().find(|g| g.pair_index == 0 && g.game_in_pair == 0).unwrap().record.moves;
    assert_eq!(log.lines().filter(|l| l.contains(" < bestmove ")).count(), moves.len(), "every move kept");
    assert!(log.contains("lines of flood left out, its part of the game's log past 4 MB]"), "the gap is said");
    let _ = std::fs::remove_dir_all(&dir);
}
