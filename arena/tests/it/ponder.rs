//! Pondering through the binary: `ponder = true` in engines.toml or
//! `--ponder` makes an engine that declares `Ponder` think on the expected
//! reply; its I/O log shows `go ponder`, `ponderhit` on a hit and `stop` on
//! a miss; every move after `ponderhit` is answered within the clock that
//! the `go ponder` gave (the clock runs from `ponderhit`); no game is lost
//! by the protocol; an engine that cannot ponder is warned about once.

use crate::common::{FAKE, arena_ok, stdout, stored_games, temp_dir};

/// The milliseconds, engine, direction and text of a log line.
fn parse(line: &str) -> (u64, &str, &str, &str) {
    let mut parts = line.trim_start().splitn(4, ' ');
    let ms = parts.next().unwrap().parse().unwrap();
    (ms, parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap_or(""))
}

/// A `go` line's time left for `engine`'s side (`white` or not).
fn time_left(go: &str, white: bool) -> u64 {
    let key = if white { "wtime" } else { "btime" };
    let tokens: Vec<&str> = go.split_whitespace().collect();
    let at = tokens.iter().position(|t| *t == key).unwrap();
    tokens[at + 1].parse().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn engines_ponder_within_their_clocks_and_only_where_asked() {
    let dir = temp_dir("ponder");
    let toml = format!(
        "[[engine]]\nname = \"thinker\"\npreset = \"fhr\"\nponder = true\n\
         [[engine]]\nname = \"fake\"\ncommand = \"{FAKE}\"\nargs = [\"instant\"]\n"
    );
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    // A margin for a loaded test machine's scheduler; the clock check below is exact.
    let tc = "1+0.05,timemargin=200";
    let play = ["match", "--a", "thinker", "--b", "plain", "--games", "2", "--tc", tc, "--maxmoves", "30"];
    let out = arena_ok(&dir, &[&play[..], &["--concurrency", "1", "--quiet"]].concat());
    assert!(!String::from_utf8_lossy(&out.stderr).contains("Ponder"), "both declare Ponder");

    let games = stored_games(&dir.join("arena.db")).await;
    let (mut hits, mut misses) = (0, 0);
    for game in &games {
        let record = &game.record;
        assert_ne!(record.termination, model::Termination::TimeForfeit, "{record:?}");
        assert_ne!(record.termination, model::Termination::Stalled, "{record:?}");
        let round = format!("{}.{}", game.pair_index + 1, game.game_in_pair + 1);
        let log = stdout(&arena_ok(&dir, &["log", "1", &round]));
        let lines: Vec<(u64, &str, &str, &str)> = log.lines().map(parse).collect();
        // Only the engine asked to ponder does.
        assert!(lines.iter().any(|(_, e, d, t)| *e == "thinker" && *d == ">" && t.starts_with("go ponder")), "{log}");
        assert!(!lines.iter().any(|(_, e, _, t)| *e == "plain" && t.starts_with("go ponder")), "{log}");
        let thinker_white = record.white == "thinker";
        let mut ponder_go: Option<&str> = None;
        for (k, (ms, engine, direction, text)) in lines.iter().enumerate() {
            if *engine != "thinker" || *direction != ">" {
                continue;
            }
            if text.starts_with("go ponder") {
                ponder_go = Some(text);
            } else if *text == "ponderhit" {
                hits += 1;
                // Answered within the time the go ponder gave, counted from ponderhit.
                let left = time_left(ponder_go.expect("a ponderhit follows a go ponder"), thinker_white);
                let answer =
                    lines[k..].iter().find(|(_, e, d, t)| *e == "thinker" && *d == "<" && t.starts_with("bestmove"));
                let (answered, ..) = answer.expect("an answer to ponderhit");
                assert!(answered - ms <= left, "{} ms for a clock of {left} ms:\n{log}", answered - ms);
            } else if *text == "stop" {
                misses += 1;
                // The stopped search answers before the engine is asked again.
                let next: Vec<&str> = lines[k + 1..]
                    .iter()
                    .filter(|(_, e, _, t)| *e == "thinker" && !t.starts_with("info"))
                    .map(|(_, _, _, t)| *t)
                    .take(3)
                    .collect();
                assert!(next[0].starts_with("bestmove"), "{next:?}");
                assert!(
                    next.iter().any(|t| t.starts_with("go ") && !t.starts_with("go ponder")) || next.len() < 3,
                    "{next:?}"
                );
            }
        }
    }
    assert!(hits > 0 && misses > 0, "{hits} ponder hits, {misses} misses");

    // --ponder for every engine: one that does not declare Ponder is warned about, and plays.
    let fake = "match --a fake --b plain --games 2 --tc 1+0.05,timemargin=200 --maxmoves 20 --ponder --quiet";
    let out = arena_ok(&dir, &fake.split(' ').collect::<Vec<_>>());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("engine 'fake' does not declare the option Ponder").count(), 1, "{err}");
    let log = stdout(&arena_ok(&dir, &["log", "2", "1.1"]));
    assert!(log.contains("plain > go ponder") && !log.contains("fake > go ponder"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}
