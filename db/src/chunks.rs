//! The work queue of test-suite runs: chunks (one engine, one limit, a range
//! of positions) handed out under a lease, like pairs (see [`crate::lease`]):
//! a hand-out counts up `suite_chunks.claims`, heartbeats renew the lease, an
//! expired chunk goes back to the queue, and a chunk's answers are stored in
//! the transaction that finishes it only while its claim is the newest.
//! Answers are keyed by (run, engine, limit, position), so a replayed chunk
//! can never count an answer twice.

use std::time::Duration;

use sqlx::any::AnyRow;

use model::{SuiteChunkPlan, SuiteResult};

use crate::conn::Cells;
use crate::lease::{Free, Queue};
use crate::{ClaimedChunk, Db, DbError};

/// Rows per multi-row `INSERT` of chunks (6 parameters each).
const CHUNKS_PER_INSERT: usize = 500;

impl Db {
    /// Stores the chunks of a suite run unless it has some already (a run
    /// created before chunks existed gets them on resume). Returns whether
    /// they were stored now.
    ///
    /// # Errors
    ///
    /// A database failure (then none is stored).
    pub async fn plan_suite_chunks(&self, run: i64, chunks: &[SuiteChunkPlan]) -> Result<bool, DbError> {
        let mut tx = self.write().await?;
        let existing = tx
            .fetch_optional(
                sqlx::query(self.backend.sql("SELECT id FROM suite_chunks WHERE run_id = ? LIMIT 1")).bind(run),
            )
            .await?;
        if existing.is_some() {
            return Ok(false);
        }
        for batch in chunks.chunks(CHUNKS_PER_INSERT) {
            let mut text = String::from(
                "INSERT INTO suite_chunks (run_id, idx, engine, limit_index, first_position, positions) VALUES ",
            );
            text.push_str(&vec!["(?, ?, ?, ?, ?, ?)"; batch.len()].join(", "));
            let mut query = sqlx::query(self.backend.sql(&text));
            for chunk in batch {
                query = query
                    .bind(run)
                    .bind(chunk.index)
                    .bind(&chunk.engine)
                    .bind(chunk.limit_index)
                    .bind(chunk.first_position)
                    .bind(chunk.positions);
            }
            tx.execute(query).await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Hands out the next chunk of a running suite run: pending, or running
    /// with an expired lease. `None` when nothing is free now.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn claim_suite_chunk(
        &self,
        run: i64,
        worker: &str,
        lease: Duration,
    ) -> Result<Option<ClaimedChunk>, DbError> {
        // A chunk keeps its answers when its lease runs out: either claim is
        // one statement, committed alone.
        let mut connection = self.alone().await?;
        for free in [Free::Pending, Free::Expired] {
            if let Some(row) = self.claim_next(&mut connection, Queue::SuiteChunks, free, run, worker, lease).await? {
                return claimed_chunk(&row).map(Some);
            }
        }
        Ok(None)
    }

    /// Extends a chunk's lease; `false` when it is lost (handed out again, or
    /// the chunk or its run stopped).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn renew_suite_chunk(&self, chunk: &ClaimedChunk, lease: Duration) -> Result<bool, DbError> {
        self.renew(Queue::SuiteChunks, chunk.id, chunk.claim, lease).await
    }

    /// Gives a chunk back unanswered (a second Ctrl-C, a failing engine); it
    /// is pending again. Nothing happens when the lease is already lost.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn release_suite_chunk(&self, chunk: &ClaimedChunk) -> Result<(), DbError> {
        self.release(Queue::SuiteChunks, chunk.id, chunk.claim).await
    }

    /// Stores the answers of a claimed chunk and, when `complete`, marks it
    /// done (else it goes back to the queue: Ctrl-C, the answers so far are
    /// kept). Finishes the run when no chunk is left. `None` (nothing stored)
    /// when the lease is lost; `Some(true)` when the run finished.
    ///
    /// # Errors
    ///
    /// A database failure (then nothing is stored).
    pub async fn finish_suite_chunk(
        &self,
        chunk: &ClaimedChunk,
        results: &[SuiteResult],
        complete: bool,
    ) -> Result<Option<bool>, DbError> {
        let (db, chunk, results) = (self.clone(), chunk.clone(), results.to_vec());
        self.detach(async move { db.finish_suite_chunk_now(&chunk, &results, complete).await }).await
    }

    async fn finish_suite_chunk_now(
        &self,
        chunk: &ClaimedChunk,
        results: &[SuiteResult],
        complete: bool,
    ) -> Result<Option<bool>, DbError> {
        let sql = |text: &str| self.backend.sql(text);
        let mut tx = self.write().await?;
        // The run's row first, then the chunk's: the order `finish_pair` locks in.
        if !self.run_is_running(&mut tx, chunk.run).await? {
            return Ok(None);
        }
        if !self.holds_item(&mut tx, Queue::SuiteChunks, chunk.id, chunk.claim).await? {
            return Ok(None);
        }
        self.insert_suite_results(&mut tx, chunk.run, results).await?;
        let status = if complete { "done" } else { "pending" };
        tx.execute(
            sqlx::query(sql("UPDATE suite_chunks SET status = ?, lease_until = NULL, lease_key = ? WHERE id = ?"))
                .bind(status)
                .bind(self.lease_key())
                .bind(chunk.id),
        )
        .await?;
        let left = tx
            .fetch_optional(
                sqlx::query(sql("SELECT id FROM suite_chunks WHERE run_id = ? AND status != 'done' LIMIT 1"))
                    .bind(chunk.run),
            )
            .await?;
        if left.is_none() {
            tx.execute(
                sqlx::query(sql("UPDATE runs SET status = 'finished', finished_ms = {now_ms} WHERE id = ?"))
                    .bind(chunk.run),
            )
            .await?;
        }
        tx.commit().await?;
        Ok(Some(left.is_none()))
    }

    /// How many chunks of a suite run are not done (pending or held).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn open_suite_chunks(&self, run: i64) -> Result<i64, DbError> {
        let rows = self
            .rows_of_run("SELECT COUNT(*) AS open_chunks FROM suite_chunks WHERE run_id = ? AND status != 'done'", run)
            .await?;
        rows.first().map_or(Ok(0), |r| r.cell("open_chunks"))
    }

    /// Makes a suite run resumable: running chunks go back to the queue (on
    /// PostgreSQL only those whose lease expired). Returns how many.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn reset_suite_chunks(&self, run: i64) -> Result<u64, DbError> {
        let expired = if self.is_shared() { " AND (lease_until IS NULL OR lease_until < {now_ms})" } else { "" };
        let mut tx = self.write().await?;
        let reset = tx.execute(sqlx::query(self.backend.sql(&format!(
            "UPDATE suite_chunks SET status = 'pending', lease_until = NULL WHERE run_id = ? AND status = 'running'{expired}"
        )))
        .bind(run)).await?
        .rows_affected();
        tx.commit().await?;
        Ok(reset)
    }
}

fn claimed_chunk(r: &AnyRow) -> Result<ClaimedChunk, DbError> {
    Ok(ClaimedChunk {
        id: r.cell("id")?,
        run: r.cell("run_id")?,
        claim: r.cell("claims")?,
        plan: SuiteChunkPlan {
            index: r.cell("idx")?,
            engine: r.cell("engine")?,
            limit_index: r.cell("limit_index")?,
            first_position: r.cell("first_position")?,
            positions: r.cell("positions")?,
        },
    })
}
