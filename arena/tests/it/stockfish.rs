//! Games against a real third-party engine: Debian's `stockfish`
//! (installed by `.ci/run`), limited by nodes and by `UCI_Elo`.

use crate::common::ARENA;

use std::path::Path;

use arena::engine_io::engines::EngineSpec;
use arena::engine_io::player::Player;
use arena::engine_io::process::Timeouts;
use arena::game::adjudication::Adjudication;
use model::TimeControl;

fn stockfish_path() -> String {
    ["/usr/games/stockfish", "/usr/bin/stockfish"]
        .into_iter()
        .find(|p| Path::new(p).exists())
        .expect("stockfish is not installed: apt-get install stockfish (.ci/run does this)")
        .to_string()
}

fn player(spec: EngineSpec, tc: &str) -> Player {
    let launch = spec.launch(Path::new(ARENA));
    Player::new(spec, tc.parse::<TimeControl>().unwrap(), launch, None, Timeouts::default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bundled_engine_plays_stockfish_in_both_colours() {
    let stockfish = EngineSpec {
        name: "stockfish".into(),
        command: stockfish_path(),
        options: vec![
            ("Threads".into(), "1".into()),
            ("Hash".into(), "16".into()),
            ("UCI_LimitStrength".into(), "true".into()),
            ("UCI_Elo".into(), "1400".into()),
        ],
        ..EngineSpec::default()
    };
    let mut sf = player(stockfish, "nodes=3000");
    let mut ours = player(EngineSpec::bundled("fhr"), "nodes=3000");
    let rules = Adjudication { max_moves: Some(60), max_moves_score: 300, ..Adjudication::default() };
    for opening in &openings::builtin("forty").unwrap().iter().take(2).collect::<Vec<_>>() {
        for ours_white in [true, false] {
            let record = if ours_white {
                arena::game::play(&mut ours, &mut sf, opening, rules.into()).await.unwrap()
            } else {
                arena::game::play(&mut sf, &mut ours, opening, rules.into()).await.unwrap()
            };
            assert!(!record.termination.is_fault(), "{:?}: {}", record.termination, record.detail);
            // Both engines moved (a weakened Stockfish picks moves at random,
            // so a game can end early; a mate needs at least two moves each).
            assert!(record.moves.len() >= 4, "{} moves", record.moves.len());
            let sf_moves = record.moves.iter().skip(usize::from(ours_white)).step_by(2);
            assert!(sf_moves.clone().all(|m| m.depth.is_some() && m.nodes.is_some()), "stockfish's info was read");
            assert!(sf_moves.clone().all(|m| m.score_cp.is_some() || m.score_mate.is_some()));
        }
    }
    assert_eq!((sf.restarts(), ours.restarts()), (0, 0));
    sf.shutdown().await;
    ours.shutdown().await;
}

#[tokio::test]
async fn an_option_stockfish_does_not_declare_is_refused_before_play() {
    let spec = EngineSpec {
        name: "stockfish".into(),
        command: stockfish_path(),
        options: vec![("NullMoveR".into(), "3".into())],
        ..EngineSpec::default()
    };
    let launch = spec.launch(Path::new(ARENA));
    let error = arena::engine_io::process::EngineProcess::start(&spec, &launch, &[], None, Timeouts::default(), None)
        .await
        .err()
        .unwrap();
    let text = error.to_string();
    assert!(text.contains("has no option 'NullMoveR'") && text.contains("UCI_Elo"), "{text}");
}
