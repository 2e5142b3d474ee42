//! The machines that play a run: what their games say about them (games,
//! faults, move overheads, the latency of each move that lost), and their
//! standing (`run_machines`: set aside, readmitted). A machine is named by
//! `arena worker --name`, else by its host name (the caller's to say: this
//! crate is given names, it keeps no name of its own); every worker's name
//! in the database starts with it and a colon.

use std::collections::BTreeMap;

use model::{GameResult, Latencies, LostMove, MachineRecord, MachineState, PairingCounts, Tally, Termination};

use crate::conn::{Cells, Conn};
use crate::dialect::Backend;
use crate::runs::delete_games_of;
use crate::{Db, DbError};

/// The machine of a worker or slot name (`machine:pid/slot`).
pub(crate) fn machine_of(worker: &str) -> &str {
    worker.rsplit_once(':').map_or(worker, |(machine, _)| machine)
}

impl Db {
    /// What the games of run `run` say about each machine that played them,
    /// by machine name (games stored before machines were named have none).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn machine_records(&self, run: i64) -> Result<Vec<MachineRecord>, DbError> {
        let mut records: BTreeMap<String, MachineRecord> = BTreeMap::new();
        let counts = self
            .rows_of_run(
                "SELECT machine, CAST(SUM(games) AS BIGINT) AS games FROM run_games WHERE run_id = ? AND machine <> '' \
                 GROUP BY machine",
                run,
            )
            .await?;
        for row in &counts {
            let machine: String = row.cell("machine")?;
            let games = u64::try_from(row.cell::<i64>("games")?).unwrap_or(0);
            records.insert(machine.clone(), MachineRecord { machine, games, ..MachineRecord::default() });
        }
        // The same text as the migrations' partial index `games_by_fault`,
        // so that SQLite reads only the faults.
        let faults = self
            .rows_of_run(
                &format!(
                    "SELECT g.machine, g.termination, g.result, g.white, g.black, g.lost_ms, p.idx, g.game_in_pair, \
                     g.detail FROM games g JOIN pairs p ON p.id = g.pair_id WHERE g.run_id = ? AND g.machine <> '' \
                     AND g.termination IN {} AND p.status = 'done' ORDER BY g.id",
                    Termination::faults_sql()
                ),
                run,
            )
            .await?;
        for row in &faults {
            let Some(record) = records.get_mut(&row.cell::<String>("machine")?) else { continue };
            let named = || {
                let idx = row.cell::<i64>("idx").unwrap_or(-1) + 1;
                format!("run {run}, pair {idx} game {}", row.cell::<i64>("game_in_pair").unwrap_or(0) + 1)
            };
            let termination: Termination = crate::read::coded(row, "termination", named)?;
            let result: GameResult = crate::read::coded(row, "result", named)?;
            let engine: String = if result == GameResult::BlackWins { row.cell("white")? } else { row.cell("black")? };
            if termination == Termination::TimeForfeit {
                record.time_losses += 1;
            } else {
                record.other_faults += 1;
            }
            if matches!(termination, Termination::TimeForfeit | Termination::Stalled) {
                record.lost.push(LostMove {
                    pair_index: row.cell("idx")?,
                    game_in_pair: row.cell("game_in_pair")?,
                    engine,
                    termination,
                    latency_ms: row.cell::<Option<i64>>("lost_ms")?.and_then(|ms| u64::try_from(ms).ok()),
                    detail: row.cell("detail")?,
                });
            }
        }
        let overheads = self
            .rows_of_run(
                "SELECT machine, engine, bucket, moves FROM run_overheads WHERE run_id = ? AND machine <> '' \
                 ORDER BY machine, engine",
                run,
            )
            .await?;
        let mut by_engine: BTreeMap<(String, String), Latencies> = BTreeMap::new();
        for row in &overheads {
            let bucket = u32::try_from(row.cell::<i64>("bucket")?).unwrap_or(u32::MAX);
            let moves = u64::try_from(row.cell::<i64>("moves")?).unwrap_or(0);
            by_engine.entry((row.cell("machine")?, row.cell("engine")?)).or_default().add_bucket(bucket, moves);
        }
        for ((machine, engine), latencies) in by_engine {
            if let Some(record) = records.get_mut(&machine)
                && latencies.moves() > 0
            {
                record.overheads.push((engine, latencies));
            }
        }
        Ok(records.into_values().collect())
    }

    /// The standing of every machine of run `run` that has one.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn machine_states(&self, run: i64) -> Result<Vec<MachineState>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT machine, set_aside, set_aside_ms, readmitted, nps, scale FROM run_machines WHERE run_id = ? \
                 ORDER BY machine",
                run,
            )
            .await?;
        rows.iter().map(state).collect()
    }

    /// Every machine with a standing in any run (set aside, readmitted, or
    /// a measured speed), by run and machine: for the workers page.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn all_machine_states(&self) -> Result<Vec<(i64, MachineState)>, DbError> {
        let rows = self
            .fetch_all(sqlx::query(self.backend.sql(
                "SELECT run_id, machine, set_aside, set_aside_ms, readmitted, nps, scale FROM run_machines \
             ORDER BY run_id DESC, machine",
            )))
            .await?;
        rows.iter().map(|r| Ok((r.cell("run_id")?, state(r)?))).collect()
    }

    /// The runs `machine` is set aside from, and why.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn set_aside_runs(&self, machine: &str) -> Result<Vec<(i64, String)>, DbError> {
        let rows = self
            .fetch_all(
                sqlx::query(
                    self.backend
                        .sql("SELECT run_id, set_aside FROM run_machines WHERE machine = ? AND set_aside <> ''"),
                )
                .bind(machine),
            )
            .await?;
        rows.iter().map(|r| Ok((r.cell("run_id")?, r.cell("set_aside")?))).collect()
    }

    /// Sets `machine` aside from run `run` for `why`: it gets no more of the
    /// run's pairs, and the pairs it holds now go back to the queue (their
    /// games deleted, whatever it sends for them later discarded). Nothing
    /// when it was readmitted or is already set aside. With `leave_out`, its
    /// finished pairs are taken out of the pairings' counts (`tallies`, which
    /// the SPRT reads), and kept to be put back if it is readmitted. `true`
    /// when it was set aside now.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn set_aside(&self, run: i64, machine: &str, why: &str, leave_out: bool) -> Result<bool, DbError> {
        let sql = |text: &str| self.backend.sql(text);
        let mut tx = self.write().await?;
        let changed = tx
            .fetch_optional(
                sqlx::query(sql(
                    "INSERT INTO run_machines (run_id, machine, set_aside, set_aside_ms) VALUES (?, ?, ?, {now_ms}) \
             ON CONFLICT (run_id, machine) DO UPDATE SET set_aside = excluded.set_aside, \
             set_aside_ms = excluded.set_aside_ms \
             WHERE run_machines.readmitted = 0 AND run_machines.set_aside = '' RETURNING run_id",
                ))
                .bind(run)
                .bind(machine)
                .bind(why),
            )
            .await?
            .is_some();
        if changed {
            let held = "SELECT id FROM pairs WHERE run_id = ? AND status = 'running' \
                        AND substr(worker, 1, length(?) + 1) = ? || ':'";
            for statement in delete_games_of(held) {
                tx.execute(sqlx::query(sql(&statement)).bind(run).bind(machine).bind(machine)).await?;
            }
            tx.execute(
                sqlx::query(sql(
                    "UPDATE pairs SET status = 'pending', lease_until = NULL WHERE run_id = ? AND status = 'running' \
                 AND substr(worker, 1, length(?) + 1) = ? || ':'",
                ))
                .bind(run)
                .bind(machine)
                .bind(machine),
            )
            .await?;
            if leave_out && self.backend == Backend::Postgres {
                // The server takes the machine's pairs out of the tallies
                // (migration `0015_worker_guards`): a worker's role writes
                // no count table.
                tx.execute(sqlx::query(sql("SELECT 1 AS done FROM arena_leave_out(?, ?)")).bind(run).bind(machine))
                    .await?;
            } else if leave_out {
                let counts = self.counts_of_machine(&mut tx, run, machine).await?;
                self.add_to_tallies(&mut tx, run, &counts, -1).await?;
                tx.execute(
                    sqlx::query(sql("UPDATE run_machines SET left_out = ? WHERE run_id = ? AND machine = ?"))
                        .bind(encode_counts(&counts))
                        .bind(run)
                        .bind(machine),
                )
                .await?;
            }
        }
        tx.commit().await?;
        Ok(changed)
    }

    /// The counts of `machine`'s finished pairs of run `run`, per pairing.
    async fn counts_of_machine(
        &self,
        tx: &mut Conn<'_>,
        run: i64,
        machine: &str,
    ) -> Result<Vec<PairingCounts>, DbError> {
        let rows = tx.fetch_all(sqlx::query(self.backend.sql(
            "SELECT engine_a, engine_b, result0, result1 FROM pairs WHERE run_id = ? AND status = 'done' AND machine = ?",
        ))
        .bind(run)
        .bind(machine)).await?;
        let mut counts: Vec<PairingCounts> = Vec::new();
        for row in &rows {
            let Some([first, second]) = crate::read::pair_results(row, run)? else { continue };
            let (a, b): (String, String) = (row.cell("engine_a")?, row.cell("engine_b")?);
            let index = match counts.iter().position(|c| c.engine_a == a && c.engine_b == b) {
                Some(i) => i,
                None => {
                    counts.push(PairingCounts { engine_a: a, engine_b: b, tally: Tally::default() });
                    counts.len() - 1
                }
            };
            counts[index].tally.add_pair(first, second);
        }
        Ok(counts)
    }

    /// Adds `counts` (`sign` 1) to the pairings' tallies, or takes them out (−1).
    async fn add_to_tallies(
        &self,
        tx: &mut Conn<'_>,
        run: i64,
        counts: &[PairingCounts],
        sign: i64,
    ) -> Result<(), DbError> {
        for c in counts {
            let t = &c.tally;
            let n = |v: u64| sign * i64::try_from(v).unwrap_or(0);
            tx.execute(
                sqlx::query(self.backend.sql(
                    "UPDATE tallies SET wins = wins + ?, draws = draws + ?, losses = losses + ?, p0 = p0 + ?, \
                 p1 = p1 + ?, p2 = p2 + ?, p3 = p3 + ?, p4 = p4 + ? WHERE run_id = ? AND engine_a = ? AND engine_b = ?",
                ))
                .bind(n(t.wins))
                .bind(n(t.draws))
                .bind(n(t.losses))
                .bind(n(t.pentanomial[0]))
                .bind(n(t.pentanomial[1]))
                .bind(n(t.pentanomial[2]))
                .bind(n(t.pentanomial[3]))
                .bind(n(t.pentanomial[4]))
                .bind(run)
                .bind(&c.engine_a)
                .bind(&c.engine_b),
            )
            .await?;
        }
        Ok(())
    }

    /// Records `machine`'s measured speed for run `run` and the factor its
    /// clocks are multiplied by (`--scale-nps`).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn record_speed(&self, run: i64, machine: &str, nps: u64, scale: f64) -> Result<(), DbError> {
        let mut tx = self.write().await?;
        tx.execute(
            sqlx::query(self.backend.sql(
                "INSERT INTO run_machines (run_id, machine, nps, scale) VALUES (?, ?, ?, ?) \
             ON CONFLICT (run_id, machine) DO UPDATE SET nps = excluded.nps, scale = excluded.scale",
            ))
            .bind(run)
            .bind(machine)
            .bind(i64::try_from(nps).unwrap_or(i64::MAX))
            .bind(scale),
        )
        .await?;
        tx.commit().await
    }

    /// Per machine of run `run`: games stored and games lost by a fault
    /// (time, illegal move, crash, stall). One grouped scan of the run's games.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn machine_faults(&self, run: i64) -> Result<Vec<(String, u64, u64)>, DbError> {
        let rows = self
            .rows_of_run(
                &format!(
                    "SELECT machine, COUNT(*) AS games, SUM(CASE WHEN termination IN {} THEN 1 ELSE 0 END) AS faults \
                     FROM games WHERE run_id = ? AND machine <> '' GROUP BY machine ORDER BY machine",
                    Termination::faults_sql()
                ),
                run,
            )
            .await?;
        let count = |v: i64| u64::try_from(v).unwrap_or(0);
        rows.iter()
            .map(|r| {
                Ok((r.cell("machine")?, count(r.cell("games")?), count(r.cell::<Option<i64>>("faults")?.unwrap_or(0))))
            })
            .collect()
    }

    /// Readmits `machine` to run `run`: it gets pairs again, its games count,
    /// and it is not set aside again in this run. `false` when it was not
    /// set aside.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn readmit(&self, run: i64, machine: &str) -> Result<bool, DbError> {
        let mut tx = self.write().await?;
        let left_out = tx.fetch_optional(sqlx::query(self.backend.sql(
            "SELECT left_out FROM run_machines WHERE run_id = ? AND machine = ? AND set_aside <> '' {for_update}",
        ))
        .bind(run)
        .bind(machine)).await?;
        let Some(left_out) = left_out else { return Ok(false) };
        let counts = decode_counts(&left_out.cell::<String>("left_out")?);
        self.add_to_tallies(&mut tx, run, &counts, 1).await?;
        tx.execute(sqlx::query(self.backend.sql(
            "UPDATE run_machines SET set_aside = '', readmitted = 1, left_out = '' WHERE run_id = ? AND machine = ?",
        ))
        .bind(run)
        .bind(machine)).await?;
        tx.commit().await?;
        Ok(true)
    }
}

/// A machine's standing from a row of `run_machines` whose columns from
/// `first` are machine, set_aside, set_aside_ms, readmitted, nps, scale.
fn state(r: &sqlx::any::AnyRow) -> Result<MachineState, DbError> {
    Ok(MachineState {
        machine: r.cell("machine")?,
        set_aside: Some(r.cell::<String>("set_aside")?).filter(|why| !why.is_empty()),
        set_aside_ms: r.cell("set_aside_ms")?,
        readmitted: r.cell::<i64>("readmitted")? != 0,
        nps: r.cell("nps")?,
        scale: r.cell("scale")?,
    })
}

/// One pairing's counts as kept in `run_machines.left_out`.
type StoredCounts = (String, String, [u64; 8]);

fn encode_counts(counts: &[PairingCounts]) -> String {
    let rows: Vec<StoredCounts> = counts
        .iter()
        .map(|c| {
            let (t, p) = (&c.tally, &c.tally.pentanomial);
            (c.engine_a.clone(), c.engine_b.clone(), [t.wins, t.draws, t.losses, p[0], p[1], p[2], p[3], p[4]])
        })
        .collect();
    serde_json::to_string(&rows).unwrap_or_default()
}

fn decode_counts(text: &str) -> Vec<PairingCounts> {
    let rows: Vec<StoredCounts> = serde_json::from_str(text).unwrap_or_default();
    rows.into_iter()
        .map(|(engine_a, engine_b, [wins, draws, losses, p0, p1, p2, p3, p4])| PairingCounts {
            engine_a,
            engine_b,
            tally: Tally { wins, draws, losses, pentanomial: [p0, p1, p2, p3, p4] },
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The migrations cannot call the model, so their copies of the fault
    /// endings (a partial index's condition) are held to it here: a new
    /// fault ending fails this test until a migration says it too.
    #[test]
    fn the_migrations_fault_sets_are_the_models() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations");
        for backend in ["sqlite", "postgres"] {
            let mut found = 0;
            for entry in std::fs::read_dir(format!("{root}/{backend}")).unwrap() {
                let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
                for (at, _) in text.match_indices("termination IN (") {
                    let set = &text[at + "termination IN ".len()..];
                    let set = &set[..=set.find(')').unwrap()];
                    assert_eq!(set, Termination::faults_sql(), "{backend}");
                    found += 1;
                }
            }
            assert!(found > 0, "{backend}: the fault index is in a migration");
        }
        assert_eq!(Termination::faults_sql(), "('time-forfeit', 'illegal-move', 'disconnect', 'stalled')");
    }

    #[test]
    fn a_worker_name_starts_with_its_machine() {
        assert_eq!(machine_of("box-1:4242/0"), "box-1");
        assert_eq!(machine_of("a:b:17"), "a:b");
        assert_eq!(machine_of("plain"), "plain");
    }
}
