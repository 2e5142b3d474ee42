//! What reports and inspection read: finished pairs, game summaries,
//! terminations, per-engine move totals, and games with their moves in pages.

use sqlx::any::AnyRow;

use model::{
    Code, EngineMoveTotals, GameCount, GameRecord, GameResult, GameRow, PairCount, PairOutcome, ProgressCount,
    PvIssueCount, PvIssueKind, Termination,
};

use crate::conn::Cells;
use crate::{Db, DbError};

impl Db {
    /// Results of the finished pairs of a run, in finishing order.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn pair_outcomes(&self, run: i64) -> Result<Vec<PairOutcome>, DbError> {
        self.outcomes("WHERE run_id = ? AND status = 'done' ORDER BY finished_seq", run).await
    }

    /// Results of the first `limit` finished pairs of a run in plan order
    /// (a large run's openings table).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn first_pair_outcomes(&self, run: i64, limit: usize) -> Result<Vec<PairOutcome>, DbError> {
        self.outcomes(&format!("WHERE run_id = ? AND status = 'done' ORDER BY idx LIMIT {limit}"), run).await
    }

    async fn outcomes(&self, which: &str, run: i64) -> Result<Vec<PairOutcome>, DbError> {
        let rows = self
            .rows_of_run(
                &format!(
                    "SELECT idx, engine_a, engine_b, opening_name, finished_seq, result0, result1, machine \
                     FROM pairs {which}"
                ),
                run,
            )
            .await?;
        let mut outcomes = Vec::with_capacity(rows.len());
        for r in &rows {
            let Some(results) = pair_results(r, run)? else { continue };
            outcomes.push(PairOutcome {
                index: r.cell("idx")?,
                engine_a: r.cell("engine_a")?,
                engine_b: r.cell("engine_b")?,
                opening_name: r.cell("opening_name")?,
                finished_seq: r.cell("finished_seq")?,
                results,
                machine: r.cell::<Option<String>>("machine")?.unwrap_or_default(),
            });
        }
        Ok(outcomes)
    }

    /// The finished pairs of a run that replay an opening an earlier pair
    /// of the same pairing played (same position and moves), in plan
    /// order: under a deterministic limit, the same games again.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn replayed_pairs(&self, run: i64) -> Result<Vec<PairOutcome>, DbError> {
        self.each_row_of_run(
            "SELECT idx, engine_a, engine_b, opening_name, finished_seq, result0, result1, machine FROM \
             (SELECT idx, engine_a, engine_b, opening_name, finished_seq, result0, result1, machine, \
              ROW_NUMBER() OVER (PARTITION BY engine_a, engine_b, fen, opening_moves ORDER BY idx) AS nth \
              FROM pairs WHERE run_id = ? AND status = 'done') played WHERE nth > 1 ORDER BY idx",
            run,
            |r| {
                let Some(results) = pair_results(r, run)? else { return Ok(None) };
                Ok(Some(PairOutcome {
                    index: r.cell("idx")?,
                    engine_a: r.cell("engine_a")?,
                    engine_b: r.cell("engine_b")?,
                    opening_name: r.cell("opening_name")?,
                    finished_seq: r.cell::<Option<i64>>("finished_seq")?.unwrap_or(0),
                    results,
                    machine: r.cell::<Option<String>>("machine")?.unwrap_or_default(),
                }))
            },
        )
        .await
    }

    /// The finished pairs of a run counted alike by block of finishing
    /// order, in block order.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn progress_counts(&self, run: i64) -> Result<Vec<ProgressCount>, DbError> {
        self.each_row_of_run(
            // By block only: the key's order needs no sort.
            "SELECT block, engine_a, engine_b, machine, result0, result1, pairs, last_seq \
             FROM run_progress WHERE run_id = ? ORDER BY block",
            run,
            |r| {
                let Some(results) = pair_results(r, run)? else { return Ok(None) };
                Ok(Some(ProgressCount {
                    block: r.cell("block")?,
                    count: PairCount {
                        engine_a: r.cell("engine_a")?,
                        engine_b: r.cell("engine_b")?,
                        machine: r.cell("machine")?,
                        results,
                        pairs: u64::try_from(r.cell::<i64>("pairs")?).unwrap_or(0),
                    },
                    last_seq: r.cell("last_seq")?,
                }))
            },
        )
        .await
    }

    /// The finished pairs of a run counted alike (pairing, machine, results).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn pair_counts(&self, run: i64) -> Result<Vec<PairCount>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT engine_a, engine_b, machine, result0, result1, pairs FROM run_pairs WHERE run_id = ?",
                run,
            )
            .await?;
        let mut counts = Vec::with_capacity(rows.len());
        for r in &rows {
            let Some(results) = pair_results(r, run)? else { continue };
            counts.push(PairCount {
                engine_a: r.cell("engine_a")?,
                engine_b: r.cell("engine_b")?,
                machine: r.cell::<Option<String>>("machine")?.unwrap_or_default(),
                results,
                pairs: u64::try_from(r.cell::<i64>("pairs")?).unwrap_or(0),
            });
        }
        Ok(counts)
    }

    /// How many games of a run ended each way, most first: (termination,
    /// count), leaving out the games of the machines in `left_out`.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn terminations(&self, run: i64, left_out: &[String]) -> Result<Vec<(Termination, i64)>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT machine, termination, CAST(SUM(games) AS BIGINT) AS games FROM run_games WHERE run_id = ? \
                 GROUP BY machine, termination",
                run,
            )
            .await?;
        let mut counts: Vec<(Termination, i64)> = Vec::new();
        for row in &rows {
            if left_out.contains(&row.cell::<String>("machine")?) {
                continue;
            }
            let termination = coded(row, "termination", || format!("run {run}, the counted games"))?;
            let n: i64 = row.cell("games")?;
            match counts.iter_mut().find(|(t, _)| *t == termination) {
                Some((_, count)) => *count += n,
                None => counts.push((termination, n)),
            }
        }
        counts.sort_by(|x, y| y.1.cmp(&x.1).then_with(|| x.0.as_str().cmp(y.0.as_str())));
        Ok(counts)
    }

    /// Per engine and kind, how many of its mate scores their PV did not
    /// back, with the first such move.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn pv_issue_counts(&self, run: i64) -> Result<Vec<PvIssueCount>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT i.engine, i.kind, c.n, p.idx, g.game_in_pair, i.ply, i.detail \
                 FROM (SELECT MIN(id) AS first, COUNT(*) AS n FROM pv_issues WHERE run_id = ? GROUP BY engine, kind) c \
                 JOIN pv_issues i ON i.id = c.first JOIN games g ON g.id = i.game_id JOIN pairs p ON p.id = g.pair_id \
                 ORDER BY i.engine, i.kind",
                run,
            )
            .await?;
        let mut counts = Vec::with_capacity(rows.len());
        for r in &rows {
            let kind = coded::<PvIssueKind>(r, "kind", || format!("run {run}, PV issues of {}", engine_of(r)))?;
            counts.push(PvIssueCount {
                engine: r.cell("engine")?,
                kind,
                count: u64::try_from(r.cell::<i64>("n")?).unwrap_or(0),
                pair_index: r.cell("idx")?,
                game_in_pair: r.cell("game_in_pair")?,
                ply: r.cell("ply")?,
                detail: r.cell("detail")?,
            });
        }
        Ok(counts)
    }

    /// Game `game_in_pair` (0 or 1) of pair `pair_index` of a run: `None`
    /// when it is not stored, else where its engine I/O log is (`host:path`), if kept.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn game_io_log(
        &self,
        run: i64,
        pair_index: i64,
        game_in_pair: i64,
    ) -> Result<Option<Option<String>>, DbError> {
        let row = self
            .fetch_optional(
                sqlx::query(self.backend.sql(
                    "SELECT g.io_log FROM games g JOIN pairs p ON p.id = g.pair_id \
             WHERE g.run_id = ? AND p.idx = ? AND g.game_in_pair = ?",
                ))
                .bind(run)
                .bind(pair_index)
                .bind(game_in_pair),
            )
            .await?;
        row.map(|r| r.cell("io_log")).transpose()
    }

    /// The games of a run's finished pairs, counted by machine, colours,
    /// result, termination and length.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn game_counts(&self, run: i64) -> Result<Vec<GameCount>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT machine, white, black, result, termination, plies, games FROM run_games WHERE run_id = ?",
                run,
            )
            .await?;
        rows.iter()
            .map(|r| {
                let row = || {
                    let cell = |c: &str| r.cell::<String>(c).unwrap_or_default();
                    format!("run {run}, the counted games of {} vs {}", cell("white"), cell("black"))
                };
                Ok(GameCount {
                    machine: r.cell("machine")?,
                    white: r.cell("white")?,
                    black: r.cell("black")?,
                    result: coded(r, "result", row)?,
                    termination: coded(r, "termination", row)?,
                    plies: r.cell("plies")?,
                    games: u64::try_from(r.cell::<i64>("games")?).unwrap_or(0),
                })
            })
            .collect()
    }

    /// Per engine of a run: moves, time used and the sums of reported depth, nodes and nps.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn move_totals(&self, run: i64) -> Result<Vec<EngineMoveTotals>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT engine, moves, time_ms, depth_sum, depth_moves, nodes_sum, nodes_moves, nps_sum, nps_moves, \
                 seldepth_sum, seldepth_moves FROM run_engine_totals WHERE run_id = ? ORDER BY engine",
                run,
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(EngineMoveTotals {
                    engine: r.cell("engine")?,
                    moves: r.cell("moves")?,
                    time_ms: r.cell("time_ms")?,
                    depth_sum: r.cell("depth_sum")?,
                    depth_moves: r.cell("depth_moves")?,
                    nodes_sum: r.cell("nodes_sum")?,
                    nodes_moves: r.cell("nodes_moves")?,
                    nps_sum: r.cell("nps_sum")?,
                    nps_moves: r.cell("nps_moves")?,
                    seldepth_sum: r.cell("seldepth_sum")?,
                    seldepth_moves: r.cell("seldepth_moves")?,
                })
            })
            .collect()
    }

    /// The id up to which a run's games are final, for writing them while
    /// the run plays: every game of the run with this id or lower belongs to
    /// a finished pair, so it stays, and no game stored later gets a lower
    /// id. It holds on SQLite, whose writers take turns and whose new rows
    /// get the next id as they commit; on PostgreSQL ids are handed out
    /// before commit, so this is `None` there.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn final_games_until(&self, run: i64) -> Result<Option<i64>, DbError> {
        if self.is_shared() {
            return Ok(None);
        }
        let until: i64 = self
            .fetch_one(
                sqlx::query(self.backend.sql(
                    // Only pairs in flight hold games that may go (a pair given back
                    // loses its game as it turns pending): a probe of few rows.
                    "SELECT COALESCE((SELECT MIN(g.id) - 1 FROM pairs p JOIN games g ON g.pair_id = p.id \
             WHERE p.run_id = ? AND p.status = 'running'), (SELECT MAX(id) FROM games WHERE run_id = ?), 0) AS until",
                ))
                .bind(run)
                .bind(run),
            )
            .await?
            .cell("until")?;
        Ok(Some(until))
    }

    /// The games of run `run`'s pairs that finished after the `after`-th
    /// (in finishing order), at most `pairs` of them, pair by pair in that
    /// order; with the finishing number of the last. A pair's finishing
    /// number is given in the transaction that finishes it, under the run's
    /// lock, so the numbers are committed in order on either backend: what
    /// this returns is final, and nothing finished later comes before it.
    ///
    /// # Errors
    ///
    /// A database failure, or moves that cannot be read.
    pub async fn games_finished_after(&self, run: i64, after: i64, pairs: i64) -> Result<(Vec<GameRow>, i64), DbError> {
        // The last finishing number first, then the games up to it: every
        // number up to one seen is committed, so the games are all there,
        // and a pair that finishes between the two reads waits for the next
        // call instead of being passed over.
        let last: Option<i64> = self.fetch_one(sqlx::query(self.backend.sql(
            "SELECT MAX(finished_seq) AS last FROM (SELECT finished_seq FROM pairs WHERE run_id = ? AND status = 'done' \
             AND finished_seq > ? ORDER BY finished_seq LIMIT ?) next",
        ))
        .bind(run)
        .bind(after)
        .bind(pairs)).await?.cell("last")?;
        let Some(last) = last else { return Ok((Vec::new(), after)) };
        let sql = self.games_sql(
            false,
            "AND p.status = 'done' AND p.finished_seq > ? AND p.finished_seq <= ? ORDER BY p.finished_seq, g.game_in_pair",
        );
        let rows =
            self.fetch_all(sqlx::query(self.backend.sql(&sql)).bind(run).bind(0_i64).bind(after).bind(last)).await?;
        let games = rows.iter().map(|row| Ok(stored_game(row, run, false)?.0)).collect::<Result<_, DbError>>()?;
        Ok((games, last))
    }

    /// Up to `limit` games of a run with id greater than `after`, in id
    /// order, with their moves when `with_moves` (page through with the last id).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn games_page(
        &self,
        run: i64,
        after: i64,
        limit: i64,
        with_moves: bool,
    ) -> Result<Vec<GameRow>, DbError> {
        let page = self.stored_page(run, after, limit, with_moves).await?;
        let mut games = Vec::with_capacity(page.len());
        for (mut game, stored) in page {
            stored.read_into(&mut game.record).map_err(|source| DbError::Moves { run, game: game.id, source })?;
            games.push(game);
        }
        Ok(games)
    }

    async fn stored_page(
        &self,
        run: i64,
        after: i64,
        limit: i64,
        with_moves: bool,
    ) -> Result<Vec<(GameRow, StoredMoves)>, DbError> {
        let sql = self.games_sql(with_moves, "ORDER BY g.id LIMIT ?");
        let rows = self.fetch_all(sqlx::query(self.backend.sql(&sql)).bind(run).bind(after).bind(limit)).await?;
        rows.iter().map(|row| stored_game(row, run, with_moves)).collect()
    }

    /// Every game of a run with id greater than `after` (and at most
    /// `until`, when given), in id order, each with its moves as stored,
    /// sent to `pages` in pages of `size` games. One query streams them, so
    /// that the database reads on (up to the channel's capacity) while the
    /// receiver formats. Ends early, without error, when the receiver is
    /// dropped.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn send_stored_pages(
        &self,
        run: i64,
        after: i64,
        until: Option<i64>,
        size: usize,
        pages: tokio::sync::mpsc::Sender<Vec<(GameRow, StoredMoves)>>,
    ) -> Result<(), DbError> {
        use futures_util::TryStreamExt as _;
        let sql = self.games_sql(true, "AND g.id <= ? ORDER BY g.id");
        let mut rows = std::pin::pin!(
            self.fetch(sqlx::query(self.backend.sql(&sql)).bind(run).bind(after).bind(until.unwrap_or(i64::MAX)))
        );
        let mut page = Vec::with_capacity(size);
        while let Some(row) = rows.try_next().await? {
            page.push(stored_game(&row, run, true)?);
            if page.len() == size && pages.send(std::mem::replace(&mut page, Vec::with_capacity(size))).await.is_err() {
                return Ok(());
            }
        }
        if !page.is_empty() {
            let _ = pages.send(page).await;
        }
        Ok(())
    }

    /// The query of a run's games with id greater than a bound (bound
    /// first the run, then the id), their moves as stored when
    /// `with_moves`; `rest` goes after the condition.
    fn games_sql(&self, with_moves: bool, rest: &str) -> String {
        // SQLite joins the moves a game at a time. PostgreSQL, given the same
        // joins, merged each page with the moves table read from its start (a
        // page of the millionth game read a million rows): there they are
        // looked up per game.
        let (moves, join) = match (with_moves, self.backend) {
            (false, _) => ("", ""),
            (true, crate::dialect::Backend::Sqlite) => (
                ", pm.data, m.moves_json",
                "LEFT JOIN packed_moves pm ON pm.game_id = g.id LEFT JOIN game_moves m ON m.game_id = g.id",
            ),
            (true, crate::dialect::Backend::Postgres) => (
                ", (SELECT pm.data FROM packed_moves pm WHERE pm.game_id = g.id) AS data, \
                 (SELECT m.moves_json FROM game_moves m WHERE m.game_id = g.id) AS moves_json",
                "",
            ),
        };
        format!(
            "SELECT g.id, p.idx, g.game_in_pair, g.white, g.black, g.result, g.termination, g.detail, g.start_fen, \
             g.opening, g.opening_moves, g.opening_san, g.started_ms, g.finished_ms, g.io_log, g.machine, g.lost_ms, g.tc_scale{moves} \
             FROM games g JOIN pairs p ON p.id = g.pair_id {join} WHERE g.run_id = ? AND g.id > ? {rest}",
        )
    }
}

/// A row of [`Db::games_sql`]: the game, and its moves as stored when the
/// query read them.
fn stored_game(row: &AnyRow, run: i64, with_moves: bool) -> Result<(GameRow, StoredMoves), DbError> {
    let stored = if with_moves {
        StoredMoves { packed: row.cell("data")?, json: row.cell("moves_json")? }
    } else {
        StoredMoves { packed: None, json: None }
    };
    Ok((game_row(row, run)?, stored))
}

/// A pair's two game results, from columns `result0` and `result1` (`None`
/// until both games are played), of a row that has `run_id` and `idx`.
pub(crate) fn pair_results(r: &AnyRow, run: i64) -> Result<Option<[GameResult; 2]>, DbError> {
    let result = |column: &str, game: i64| -> Result<Option<GameResult>, DbError> {
        let Some(text) = r.cell::<Option<String>>(column)? else { return Ok(None) };
        GameResult::read(&text).map(Some).map_err(|source| DbError::Unknown { row: game_named(r, run, game), source })
    };
    Ok(result("result0", 1)?.zip(result("result1", 2)?).map(|(first, second)| [first, second]))
}

/// Column `column` of row `r` read as a stored code, or an error naming the
/// row (`row` says which, in the views' words).
pub(crate) fn coded<T: Code>(r: &AnyRow, column: &str, row: impl FnOnce() -> String) -> Result<T, DbError> {
    T::read(&r.cell::<String>(column)?).map_err(|source| DbError::Unknown { row: row(), source })
}

/// A game's name in the views' words: `run 3, pair 8 game 2` (the PGN's
/// Round 8.2) from a row with `idx`; a count table's row
/// (no `idx`) by its pairing: `run 3, the counted pairs of a vs b`.
fn game_named(r: &AnyRow, run: i64, game_in_pair: i64) -> String {
    match r.cell::<i64>("idx") {
        Ok(idx) => format!("run {run}, pair {} game {game_in_pair}", idx + 1),
        Err(_) => {
            let cell = |c: &str| r.cell::<String>(c).unwrap_or_default();
            format!("run {run}, the counted pairs of {} vs {}", cell("engine_a"), cell("engine_b"))
        }
    }
}

fn engine_of(r: &AnyRow) -> String {
    r.cell::<String>("engine").unwrap_or_default()
}

/// Which fields of each move [`StoredMoves::read_fields_into`] reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveFields {
    /// Every field.
    All,
    /// SAN, time, score and depth: what a PGN without PVs writes. The UCI
    /// text and PV are left empty, the other fields empty or read (moves
    /// packed before format 3 store them together). Building the UCI text
    /// and PVs was 40 % of `arena pgn`'s CPU at a million games.
    Pgn,
}

/// Why a game's stored moves cannot be read.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct UnreadableMoves(Unreadable);

#[derive(Debug, thiserror::Error)]
enum Unreadable {
    #[error(transparent)]
    Packed(crate::pack_error::PackError),
    #[error("stored JSON moves: {0}")]
    Json(serde_json::Error),
}

impl From<crate::pack_error::PackError> for UnreadableMoves {
    fn from(e: crate::pack_error::PackError) -> UnreadableMoves {
        UnreadableMoves(Unreadable::Packed(e))
    }
}

impl From<serde_json::Error> for UnreadableMoves {
    fn from(e: serde_json::Error) -> UnreadableMoves {
        UnreadableMoves(Unreadable::Json(e))
    }
}

/// A game's moves as stored: packed, or the JSON of a game stored before
/// moves were packed, or none (a run whose moves were pruned).
pub struct StoredMoves {
    packed: Option<Vec<u8>>,
    json: Option<String>,
}

impl StoredMoves {
    /// The moves into `game.moves`, reusing its strings; an error names
    /// what is wrong with the stored value.
    ///
    /// # Errors
    ///
    /// Stored moves that cannot be read.
    pub fn read_into(&self, game: &mut GameRecord) -> Result<(), UnreadableMoves> {
        self.read_fields_into(game, MoveFields::All)
    }

    /// The moves' `fields` into `game.moves`, reusing its strings (packed
    /// moves and PVs are indices in the positions reached from `game`'s
    /// start).
    ///
    /// # Errors
    ///
    /// Stored moves that cannot be read.
    pub fn read_fields_into(&self, game: &mut GameRecord, fields: MoveFields) -> Result<(), UnreadableMoves> {
        let mut moves = std::mem::take(&mut game.moves);
        let read = match (&self.packed, &self.json) {
            (Some(packed), _) => {
                let fields = match fields {
                    MoveFields::All => crate::packed::Fields::All,
                    MoveFields::Pgn => crate::packed::Fields::Pgn,
                };
                crate::packed::unpack_into(packed, &mut moves, fields, crate::lines::Start::of(game))
                    .map_err(UnreadableMoves::from)
            }
            (None, Some(json)) => {
                crate::moves::decode(json).map(|decoded| moves = decoded).map_err(UnreadableMoves::from)
            }
            (None, None) => {
                moves.clear();
                Ok(())
            }
        };
        game.moves = moves;
        read
    }
}

fn game_row(r: &AnyRow, run: i64) -> Result<GameRow, DbError> {
    let row = || game_named(r, run, r.cell::<i64>("game_in_pair").unwrap_or(0) + 1);
    Ok(GameRow {
        id: r.cell("id")?,
        pair_index: r.cell("idx")?,
        game_in_pair: r.cell("game_in_pair")?,
        record: GameRecord {
            white: r.cell("white")?,
            black: r.cell("black")?,
            result: coded(r, "result", row)?,
            termination: coded(r, "termination", row)?,
            detail: r.cell("detail")?,
            start_fen: r.cell("start_fen")?,
            opening: r.cell("opening")?,
            opening_moves: r.words("opening_moves")?,
            opening_san: r.words("opening_san")?,
            moves: Vec::new(),
            started_ms: r.cell("started_ms")?,
            finished_ms: r.cell("finished_ms")?,
            pv_issues: Vec::new(),
            io_log: r.cell("io_log")?,
            machine: r.cell("machine")?,
            lost_ms: r.cell::<Option<i64>>("lost_ms")?.and_then(|ms| u64::try_from(ms).ok()),
            tc_scale: r.cell("tc_scale")?,
        },
    })
}
