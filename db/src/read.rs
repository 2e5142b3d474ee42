//! What reports and inspection read: finished pairs, game summaries,
//! terminations, per-engine move totals, and games with their moves in pages.

use sqlx::Row;
use sqlx::any::AnyRow;

use model::{
    EngineMoveTotals, GameRecord, GameResult, GameRow, GameSummary, MoveRecord, PairOutcome, PvIssueCount, PvIssueKind,
    Termination,
};

use crate::{Db, DbError};

impl Db {
    /// Results of the finished pairs of a run, in finishing order.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn pair_outcomes(&self, run: i64) -> Result<Vec<PairOutcome>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT p.idx, p.engine_a, p.engine_b, p.opening_name, p.finished_seq, p.llr, \
             MAX(CASE WHEN g.game_in_pair = 0 THEN g.result END), MAX(CASE WHEN g.game_in_pair = 1 THEN g.result END) \
             FROM pairs p JOIN games g ON g.pair_id = p.id \
             WHERE p.run_id = ? AND p.status = 'done' GROUP BY p.id ORDER BY p.finished_seq",
                run,
            )
            .await?;
        Ok(rows
            .iter()
            .filter_map(|r| {
                let first = GameResult::from_pgn(&r.get::<Option<String>, _>(6)?)?;
                let second = GameResult::from_pgn(&r.get::<Option<String>, _>(7)?)?;
                Some(PairOutcome {
                    index: r.get(0),
                    engine_a: r.get(1),
                    engine_b: r.get(2),
                    opening_name: r.get(3),
                    finished_seq: r.get(4),
                    llr: r.get(5),
                    results: [first, second],
                })
            })
            .collect())
    }

    /// How many games of a run ended each way: (termination, count).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn terminations(&self, run: i64) -> Result<Vec<(String, i64)>, DbError> {
        let rows = self.rows_of_run(
            "SELECT termination, COUNT(*) FROM games WHERE run_id = ? GROUP BY termination ORDER BY COUNT(*) DESC, termination",
            run,
        )
        .await?;
        Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
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
        Ok(rows
            .iter()
            .filter_map(|r| {
                Some(PvIssueCount {
                    engine: r.get(0),
                    kind: PvIssueKind::parse(&r.get::<String, _>(1))?,
                    count: u64::try_from(r.get::<i64, _>(2)).unwrap_or(0),
                    pair_index: r.get(3),
                    game_in_pair: r.get(4),
                    ply: r.get(5),
                    detail: r.get(6),
                })
            })
            .collect())
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
        let row = sqlx::query(self.backend.sql(
            "SELECT g.io_log FROM games g JOIN pairs p ON p.id = g.pair_id \
             WHERE g.run_id = ? AND p.idx = ? AND g.game_in_pair = ?",
        ))
        .bind(run)
        .bind(pair_index)
        .bind(game_in_pair)
        .fetch_optional(&self.pool)
        .await
        .map_err(|e| self.error(e))?;
        Ok(row.map(|r| r.get(0)))
    }

    /// Every stored game of a run in brief, in the order stored.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn game_summaries(&self, run: i64) -> Result<Vec<GameSummary>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT p.idx, g.game_in_pair, g.white, g.black, g.result, g.termination, g.plies \
             FROM games g JOIN pairs p ON p.id = g.pair_id WHERE g.run_id = ? ORDER BY g.id",
                run,
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| GameSummary {
                pair_index: r.get(0),
                game_in_pair: r.get(1),
                white: r.get(2),
                black: r.get(3),
                result: GameResult::from_pgn(&r.get::<String, _>(4)).unwrap_or(GameResult::Draw),
                termination: Termination::parse(&r.get::<String, _>(5)).unwrap_or(Termination::Disconnect),
                plies: r.get(6),
            })
            .collect())
    }

    /// Per engine of a run: moves, time used and the sums of reported depth, nodes and nps.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn move_totals(&self, run: i64) -> Result<Vec<EngineMoveTotals>, DbError> {
        let rows = self.rows_of_run(
            "SELECT CASE t.side WHEN 0 THEN g.white ELSE g.black END AS engine, CAST(SUM(t.moves) AS BIGINT), CAST(SUM(t.time_ms) AS BIGINT), \
             CAST(SUM(t.depth_sum) AS BIGINT), CAST(SUM(t.depth_moves) AS BIGINT), CAST(SUM(t.nodes_sum) AS BIGINT), \
             CAST(SUM(t.nodes_moves) AS BIGINT), CAST(SUM(t.nps_sum) AS BIGINT), CAST(SUM(t.nps_moves) AS BIGINT) \
             FROM move_totals t JOIN games g ON g.id = t.game_id WHERE g.run_id = ? GROUP BY engine ORDER BY engine",
            run,
        )
        .await?;
        Ok(rows
            .iter()
            .map(|r| EngineMoveTotals {
                engine: r.get(0),
                moves: r.get(1),
                time_ms: r.get(2),
                depth_sum: r.get(3),
                depth_moves: r.get(4),
                nodes_sum: r.get(5),
                nodes_moves: r.get(6),
                nps_sum: r.get(7),
                nps_moves: r.get(8),
            })
            .collect())
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
        let rows = sqlx::query(self.backend.sql(
            "SELECT g.id, p.idx, g.game_in_pair, g.white, g.black, g.result, g.termination, g.detail, g.start_fen, \
             g.opening, g.opening_moves, g.opening_san, g.started_ms, g.finished_ms, g.io_log \
             FROM games g JOIN pairs p ON p.id = g.pair_id WHERE g.run_id = ? AND g.id > ? ORDER BY g.id LIMIT ?",
        ))
        .bind(run)
        .bind(after)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(|e| self.error(e))?;
        let mut games: Vec<GameRow> = rows.iter().map(game_row).collect();
        if with_moves && let (Some(first), Some(last)) = (games.first(), games.last()) {
            // One row per game with its moves packed by the server (fields split by
            // U+001F, moves by U+001E): far fewer rows through the driver.
            let rows = sqlx::query(self.backend.sql(
                "SELECT game_id, string_agg(uci || {chr}(31) || san || {chr}(31) || CAST(time_ms AS TEXT) || {chr}(31) || \
                 CAST(clock_ms AS TEXT) || {chr}(31) || COALESCE(CAST(score_cp AS TEXT), '') || {chr}(31) || \
                 COALESCE(CAST(score_mate AS TEXT), '') || {chr}(31) || COALESCE(CAST(depth AS TEXT), '') || {chr}(31) || \
                 COALESCE(CAST(seldepth AS TEXT), '') || {chr}(31) || COALESCE(CAST(nodes AS TEXT), '') || {chr}(31) || \
                 COALESCE(CAST(nps AS TEXT), '') || {chr}(31) || pv, {chr}(30) ORDER BY ply) \
                 FROM moves WHERE game_id BETWEEN ? AND ? GROUP BY game_id ORDER BY game_id",
            ))
            .bind(first.id)
            .bind(last.id)
            .fetch_all(&self.pool)
            .await
            .map_err(|e| self.error(e))?;
            let mut cursor = 0;
            for row in &rows {
                let game_id: i64 = row.get(0);
                while cursor < games.len() && games[cursor].id < game_id {
                    cursor += 1;
                }
                if let Some(game) = games.get_mut(cursor).filter(|g| g.id == game_id) {
                    let packed: String = row.get(1);
                    game.record.moves = packed.split('\u{1e}').map(unpack_move).collect();
                }
            }
        }
        Ok(games)
    }
}

fn game_row(r: &AnyRow) -> GameRow {
    let words = |i: usize| r.get::<String, _>(i).split_whitespace().map(str::to_string).collect::<Vec<_>>();
    GameRow {
        id: r.get(0),
        pair_index: r.get(1),
        game_in_pair: r.get(2),
        record: GameRecord {
            white: r.get(3),
            black: r.get(4),
            result: GameResult::from_pgn(&r.get::<String, _>(5)).unwrap_or(GameResult::Draw),
            termination: Termination::parse(&r.get::<String, _>(6)).unwrap_or(Termination::Disconnect),
            detail: r.get(7),
            start_fen: r.get(8),
            opening: r.get(9),
            opening_moves: words(10),
            opening_san: words(11),
            moves: Vec::new(),
            started_ms: r.get(12),
            finished_ms: r.get(13),
            pv_issues: Vec::new(),
            io_log: r.get(14),
        },
    }
}

fn unpack_move(packed: &str) -> MoveRecord {
    let mut fields = packed.splitn(11, '\u{1f}');
    let mut next = || fields.next().unwrap_or_default();
    let (uci, san, time, clock) = (next().to_string(), next().to_string(), next(), next());
    let (cp, mate, depth, seldepth, nodes, nps) = (next(), next(), next(), next(), next(), next());
    MoveRecord {
        uci,
        san,
        time_ms: time.parse().unwrap_or(0),
        clock_ms: clock.parse().unwrap_or(0),
        score_cp: cp.parse().ok(),
        score_mate: mate.parse().ok(),
        depth: depth.parse().ok(),
        seldepth: seldepth.parse().ok(),
        nodes: nodes.parse().ok(),
        nps: nps.parse().ok(),
        pv: next().to_string(),
    }
}
