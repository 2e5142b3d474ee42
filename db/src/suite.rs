//! Test-suite answers (`arena suite`): one row per engine, limit and position.

use model::SuiteResult;

use crate::conn::{Cells, Conn};
use crate::{Db, DbError};

impl Db {
    /// Stores answers to test positions, all in one transaction.
    ///
    /// # Errors
    ///
    /// A database failure (then none is stored).
    pub async fn save_suite_results(&self, run: i64, results: &[SuiteResult]) -> Result<(), DbError> {
        let mut tx = self.write().await?;
        self.insert_suite_results(&mut tx, run, results).await?;
        tx.commit().await
    }

    /// Stores answers (replacing earlier answers to the same engine, limit
    /// and position) inside a transaction.
    pub(crate) async fn insert_suite_results(
        &self,
        tx: &mut Conn<'_>,
        run: i64,
        results: &[SuiteResult],
    ) -> Result<(), DbError> {
        let wide = |v: Option<u64>| v.map(|v| i64::try_from(v).unwrap_or(i64::MAX));
        for r in results {
            tx.execute(
                sqlx::query(self.backend.sql(
                    "INSERT INTO suite_results (run_id, engine, limit_index, limit_label, position, position_id, \
                 best_move, solved, nodes, depth, time_ms, score_cp, score_mate, fault) \
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) \
                 ON CONFLICT (run_id, engine, limit_index, position) DO UPDATE SET limit_label = excluded.limit_label, \
                 position_id = excluded.position_id, best_move = excluded.best_move, solved = excluded.solved, \
                 nodes = excluded.nodes, depth = excluded.depth, time_ms = excluded.time_ms, \
                 score_cp = excluded.score_cp, score_mate = excluded.score_mate, fault = excluded.fault",
                ))
                .bind(run)
                .bind(&r.engine)
                .bind(r.limit_index)
                .bind(&r.limit_label)
                .bind(r.position)
                .bind(&r.position_id)
                .bind(&r.best_move)
                .bind(i64::from(r.solved))
                .bind(wide(r.nodes))
                .bind(wide(r.depth))
                .bind(i64::try_from(r.time_ms).unwrap_or(i64::MAX))
                .bind(r.score_cp)
                .bind(r.score_mate)
                .bind(&r.fault),
            )
            .await?;
        }
        Ok(())
    }

    /// The stored answers of a suite run, by engine, limit and position.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn suite_results(&self, run: i64) -> Result<Vec<SuiteResult>, DbError> {
        let rows = self.rows_of_run(
            "SELECT engine, limit_index, limit_label, position, position_id, best_move, solved, nodes, depth, time_ms, \
             score_cp, score_mate, fault FROM suite_results WHERE run_id = ? ORDER BY engine, limit_index, position",
            run,
        )
        .await?;
        let narrow = |v: Option<i64>| v.and_then(|v| u64::try_from(v).ok());
        rows.iter()
            .map(|r| {
                Ok(SuiteResult {
                    engine: r.cell("engine")?,
                    limit_index: r.cell("limit_index")?,
                    limit_label: r.cell("limit_label")?,
                    position: r.cell("position")?,
                    position_id: r.cell("position_id")?,
                    best_move: r.cell("best_move")?,
                    solved: r.cell::<i64>("solved")? != 0,
                    nodes: narrow(r.cell("nodes")?),
                    depth: narrow(r.cell("depth")?),
                    time_ms: narrow(Some(r.cell("time_ms")?)).unwrap_or(0),
                    score_cp: r.cell("score_cp")?,
                    score_mate: r.cell("score_mate")?,
                    fault: r.cell("fault")?,
                })
            })
            .collect()
    }

    /// How many answers a suite run has stored (one count, not the rows).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn suite_answer_count(&self, run: i64) -> Result<i64, DbError> {
        let rows = self.rows_of_run("SELECT COUNT(*) AS answers FROM suite_results WHERE run_id = ?", run).await?;
        rows.first().map_or(Ok(0), |r| r.cell("answers"))
    }
}
