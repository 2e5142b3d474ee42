//! Recorded games for the storage benchmarks: run 1's games in the scaling
//! runs' base snapshot (`bench/scaling/scaling.db.gz`: real moves, scores and
//! PVs; 1,834 games of 118 plies on average when BENCHMARKS.md's storage
//! figures were measured, the run's finished 10,000 since 2026-12-02), read
//! through `db` as any stored games are.

use std::io::Read as _;
use std::path::Path;

use db::{Db, Target};
use model::{GameRecord, PairPlan, RunKind, Spec};

/// The snapshot's games, read from a copy unpacked in `dir`.
pub async fn games(dir: &Path) -> Vec<GameRecord> {
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/../bench/scaling/scaling.db.gz");
    let mut bytes = Vec::new();
    flate2::read::GzDecoder::new(std::fs::File::open(source).expect("the snapshot"))
        .read_to_end(&mut bytes)
        .expect("gunzip");
    let path = dir.join("recorded.db");
    let _ = std::fs::remove_file(&path);
    std::fs::write(&path, bytes).expect("write");
    let db = Db::open(&Target::Sqlite(path.clone())).await.expect("open the snapshot");
    let mut games = Vec::new();
    let mut after = 0;
    loop {
        let page = db.games_page(1, after, 1000, true).await.expect("games");
        let Some(last) = page.last() else { break };
        after = last.id;
        games.extend(page.into_iter().map(|g| g.record));
    }
    db.close().await;
    let _ = std::fs::remove_file(&path);
    games
}

/// Game `k` (cyclically) with White and Black renamed, for a run whose
/// engines are `a` and `b` (A has White in a pair's first game).
pub fn named(games: &[GameRecord], k: usize, white: &str, black: &str) -> GameRecord {
    GameRecord { white: white.into(), black: black.into(), ..games[k % games.len()].clone() }
}

/// The run the benchmarks fill: a match of `a` against `b`.
pub fn spec() -> Spec {
    let spec = serde_json::json!({
        "kind": "match", "engines": [{"name": "a", "preset": "plain"}, {"name": "b", "preset": "fhr"}],
        "pairings": [[0, 1]], "tc": "10+0.1", "openings": "feldmann25", "seed": null, "start": 0, "max_plies": null,
        "openings_per_round": 1, "rounds": 1, "concurrency": 1,
        "adjudication": {"draw": null, "resign": null, "max_moves": null, "max_moves_score": 200}, "sprt": null
    });
    Spec::parse(0, RunKind::Match, &spec.to_string()).expect("spec")
}

/// `pairs` pairs from the start position.
pub fn plan(pairs: usize) -> Vec<PairPlan> {
    (0..pairs)
        .map(|i| PairPlan {
            index: i as i64,
            engine_a: "a".into(),
            engine_b: "b".into(),
            opening_index: 0,
            opening_name: "bench".into(),
            fen: openings::START_FEN.into(),
            opening_moves: vec!["e2e4".into(), "e7e5".into()],
            opening_san: vec!["e4".into(), "e5".into()],
        })
        .collect()
}
