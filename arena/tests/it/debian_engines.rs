//! Debian's engines (Ethereal, Toga II, Glaurung; installed by `.ci/run`)
//! in a tournament with the bundled engine: every view agrees, the ratings
//! put the strongest above the bundled engine, and every fault is charged to
//! the engine that the game's I/O log shows was thinking when it happened.

use std::path::Path;

use crate::common::{arena_ok, start_serve, stdout, stored_games, temp_dir};
use crate::views::assert_views_agree;
use model::{GameResult, Termination};

const ENGINES: [(&str, &str); 3] =
    [("ethereal", "/usr/games/ethereal-chess"), ("toga", "/usr/games/toga2"), ("glaurung", "/usr/games/glaurung")];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_of_debian_engines_and_the_bundled_one_is_reported_and_charged_right() {
    if ENGINES.iter().any(|(_, path)| !Path::new(path).exists()) {
        assert!(std::env::var_os("CI").is_none(), "CI must install ethereal-chess, toga2 and glaurung (see .ci/run)");
        eprintln!("skipping: apt-get install ethereal-chess toga2 glaurung");
        return;
    }
    let dir = temp_dir("debian-engines");
    let toml: String = ENGINES
        .iter()
        .map(|(name, path)| format!("[[engine]]\nname = \"{name}\"\ncommand = \"{path}\"\noptions = {{ Hash = 16 }}\n"))
        .collect();
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    let summary = stdout(&arena_ok(
        &dir,
        &["tournament", "--engines", "ethereal,toga,glaurung,fhr", "--games", "2", "--tc", "2+0.05", "--quiet"],
    ));

    let (mut server, address) = start_serve(&dir, &[]);
    assert_views_agree(&dir, address, 1, &summary);
    let _ = server.kill();
    let _ = server.wait();

    let json: serde_json::Value =
        serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--format", "json"]))).unwrap();
    let rating = |name: &str| {
        let ratings = json["tournament"]["ratings"].as_array().unwrap();
        ratings.iter().find(|r| r["name"] == name).and_then(|r| r["elo"].as_f64()).unwrap()
    };
    assert!(rating("ethereal") > rating("fhr"), "{}", json["tournament"]);
    assert_eq!(json["header"]["games_played"], 12, "six pairings, two games each");

    // A fault is the mover's: the engine that was last sent `go` lost (or, on
    // time against a bare king, drew).
    for game in stored_games(&dir.join("arena.db")).await {
        let record = &game.record;
        if !matches!(
            record.termination,
            Termination::TimeForfeit | Termination::IllegalMove | Termination::Disconnect | Termination::Stalled
        ) {
            continue;
        }
        let round = format!("{}.{}", game.pair_index + 1, game.game_in_pair + 1);
        let log = stdout(&arena_ok(&dir, &["log", "1", &round]));
        let culprit = log
            .lines()
            .rev()
            .find_map(|l| match l.split_whitespace().collect::<Vec<_>>()[..] {
                [_, engine, ">", "go", ..] => Some(engine.to_string()),
                _ => None,
            })
            .expect("a faulted game has a go");
        let lost = match record.result {
            GameResult::WhiteWins => &record.black,
            GameResult::BlackWins => &record.white,
            _ => &culprit,
        };
        assert_eq!(lost, &culprit, "game {round} ({:?}, {}):\n{log}", record.termination, record.detail);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
