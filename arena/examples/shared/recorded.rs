//! Recorded games for the storage benchmarks: the 1,834 games of the scaling
//! run's snapshot (`bench/scaling/scaling.db.gz`: real moves, scores and PVs,
//! 118 plies on average), read through `db` as any stored games are.

use std::io::Read as _;
use std::path::Path;

use db::{Db, Target};
use model::GameRecord;

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
