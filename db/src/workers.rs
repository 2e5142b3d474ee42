//! The processes that play work, as the work loop records them (for the
//! dashboard's workers page), and what the runs list needs to know of a
//! run's pace.

use std::collections::HashMap;

use model::{WorkerBeat, WorkerInfo};

use crate::conn::Cells;
use crate::{Db, DbError};

/// Games whose times give a run's pace.
const PACE_GAMES: i64 = 100;

/// One of a run's latest games as its pace reads it: who played it and
/// when it started and finished (Unix ms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PacedGame {
    /// White's engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// Started, Unix ms.
    pub started_ms: i64,
    /// Finished, Unix ms.
    pub finished_ms: i64,
}

impl Db {
    /// Records that process `name` is alive and what it did since it last
    /// said so (counts are added).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn worker_beat(&self, name: &str, beat: &WorkerBeat) -> Result<(), DbError> {
        let (db, name, beat) = (self.clone(), name.to_string(), beat.clone());
        self.detach(async move { db.worker_beat_now(&name, &beat).await }).await
    }

    async fn worker_beat_now(&self, name: &str, beat: &WorkerBeat) -> Result<(), DbError> {
        let mut tx = self.write().await?;
        tx.execute(
            sqlx::query(self.backend.sql(
                "INSERT INTO workers (name, started_ms, last_seen_ms, run_id, doing, units, progress, faults, refused) \
             VALUES (?, {now_ms}, {now_ms}, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET \
             refused = CASE WHEN excluded.refused = '' THEN workers.refused ELSE excluded.refused END, \
             last_seen_ms = excluded.last_seen_ms, run_id = COALESCE(excluded.run_id, workers.run_id), \
             doing = excluded.doing, units = workers.units + excluded.units, \
             progress = workers.progress + excluded.progress, faults = workers.faults + excluded.faults",
            ))
            .bind(name)
            .bind(beat.run)
            .bind(&beat.doing)
            .bind(beat.units)
            .bind(beat.progress)
            .bind(beat.faults)
            .bind(beat.refused.clone().unwrap_or_default()),
        )
        .await?;
        tx.commit().await
    }

    /// Every process recorded, most recently seen first.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn workers(&self) -> Result<Vec<WorkerInfo>, DbError> {
        let rows = self
            .fetch_all(sqlx::query(self.backend.sql(
                "SELECT name, started_ms, last_seen_ms, run_id, doing, units, progress, faults, refused FROM workers \
             ORDER BY last_seen_ms DESC, name",
            )))
            .await?;
        rows.iter()
            .map(|r| {
                Ok(WorkerInfo {
                    name: r.cell("name")?,
                    started_ms: r.cell("started_ms")?,
                    last_seen_ms: r.cell("last_seen_ms")?,
                    run: r.cell("run_id")?,
                    doing: r.cell("doing")?,
                    units: r.cell("units")?,
                    progress: r.cell("progress")?,
                    faults: r.cell("faults")?,
                    refused: r.cell("refused")?,
                })
            })
            .collect()
    }

    /// A run's latest games (at most 100), newest first: its pace.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn recent_games(&self, run: i64) -> Result<Vec<PacedGame>, DbError> {
        let rows = self
            .fetch_all(
                sqlx::query(self.backend.sql(
                    "SELECT white, black, started_ms, finished_ms FROM games WHERE run_id = ? ORDER BY id DESC LIMIT ?",
                ))
                .bind(run)
                .bind(PACE_GAMES),
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(PacedGame {
                    white: r.cell("white")?,
                    black: r.cell("black")?,
                    started_ms: r.cell("started_ms")?,
                    finished_ms: r.cell("finished_ms")?,
                })
            })
            .collect()
    }

    /// The game slots holding a live lease on a unit of each of `runs`
    /// (`host:pid/index`), sorted, in a statement or two for all of them;
    /// a run without one is absent.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn slots_of(&self, runs: &[i64]) -> Result<HashMap<i64, Vec<String>>, DbError> {
        let rows = self
            .rows_of_runs(
                "SELECT run_id, worker FROM pairs \
                 WHERE run_id IN ({runs}) AND status = 'running' AND lease_until > {now_ms} \
                 UNION SELECT run_id, worker FROM suite_chunks \
                 WHERE run_id IN ({runs}) AND status = 'running' AND lease_until > {now_ms}",
                runs,
            )
            .await?;
        let mut slots: HashMap<i64, Vec<String>> = HashMap::new();
        for r in &rows {
            if let Some(worker) = r.cell::<Option<String>>("worker")? {
                slots.entry(r.cell("run_id")?).or_default().push(worker);
            }
        }
        slots.values_mut().for_each(|each| each.sort());
        Ok(slots)
    }
}
