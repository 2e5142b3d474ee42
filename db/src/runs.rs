//! Runs: creating one with its engines and planned pairs, listing, status,
//! and making a crashed run resumable.

use sqlx::any::AnyRow;

use model::Code;
use model::{PairPlan, RunInfo, RunKind, RunStatus, Spec, Verdict, now_ms};

use crate::conn::{Cells, Conn, Statement};
use crate::{Db, DbError};

/// Rows per multi-row `INSERT` of pairs (9 parameters each).
const PAIRS_PER_INSERT: usize = 500;

/// The statements that delete the games (with their moves and PV issues;
/// their totals are in their rows) of the pairs chosen by `pairs`, a
/// subquery whose parameters are bound by the caller.
pub(crate) fn delete_games_of(pairs: &str) -> [String; 4] {
    [
        format!("DELETE FROM packed_moves WHERE game_id IN (SELECT id FROM games WHERE pair_id IN ({pairs}))"),
        format!("DELETE FROM game_moves WHERE game_id IN (SELECT id FROM games WHERE pair_id IN ({pairs}))"),
        format!("DELETE FROM pv_issues WHERE game_id IN (SELECT id FROM games WHERE pair_id IN ({pairs}))"),
        format!("DELETE FROM games WHERE pair_id IN ({pairs})"),
    ]
}

/// A run that workers may serve ([`Db::open_runs`]).
#[derive(Clone, Debug)]
pub struct OpenRun {
    /// The run's id.
    pub id: i64,
    /// What kind of run it is.
    pub kind: RunKind,
    /// Its stored spec (JSON).
    pub spec: String,
    /// Its priority: workers serve higher first, equal ones in turn.
    pub priority: i64,
}

impl Db {
    /// Stores a new run with its spec, engines and planned pairs (none for a
    /// suite), created by machine `machine`; returns its id.
    ///
    /// # Errors
    ///
    /// [`DbError`] on any database failure (nothing is stored then).
    pub async fn create_run(&self, spec: &Spec, pairs: &[PairPlan], machine: &str) -> Result<i64, DbError> {
        let sql = |text: &str| self.backend.sql(text);
        let engines = engine_rows(spec);
        let mut tx = self.write().await?;
        let run: i64 = tx.fetch_one(sqlx::query(sql(
            "INSERT INTO runs (kind, spec, status, created_ms, machine, pairs_total) VALUES (?, ?, 'running', ?, ?, ?) \
             RETURNING id",
        ))
        .bind(spec.kind().as_str())
        .bind(spec.to_json())
        .bind(now_ms())
        .bind(machine)
        .bind(i64::try_from(pairs.len()).unwrap_or(i64::MAX))).await?
        .cell("id")?;
        self.insert_engines(&mut tx, run, &engines).await?;
        self.insert_pairs(&mut tx, run, pairs).await?;
        tx.commit().await?;
        Ok(run)
    }

    /// Adds pairings to run `run`: its spec becomes `spec` (which has the
    /// engines of the new pairings) and `pairs` are planned among its own
    /// still to play, spread evenly (see [`Db::spread_pending`]).
    /// `old_spec` is the spec this change was made from: if the run's spec
    /// is no longer that (another change came first), nothing is stored. A
    /// finished run becomes stopped, to be resumed; a running one goes on,
    /// and its workers see the new spec at their next look at the runs.
    ///
    /// # Errors
    ///
    /// [`DbError::Unexpected`] when the run changed meanwhile; a database failure
    /// (then nothing is stored).
    pub async fn extend_run(&self, run: i64, old_spec: &str, spec: &Spec, pairs: &[PairPlan]) -> Result<(), DbError> {
        let engines = engine_rows(spec);
        let mut tx = self.write().await?;
        let changed = tx
            .execute(
                sqlx::query(self.backend.sql(
                    "UPDATE runs SET spec = ?, pairs_total = pairs_total + ?, \
             status = CASE WHEN status = 'finished' THEN 'stopped' ELSE status END, \
             finished_ms = CASE WHEN status = 'finished' THEN NULL ELSE finished_ms END \
             WHERE id = ? AND spec = ?",
                ))
                .bind(spec.to_json())
                .bind(i64::try_from(pairs.len()).unwrap_or(i64::MAX))
                .bind(run)
                .bind(old_spec),
            )
            .await?
            .rows_affected();
        if changed == 0 {
            return Err(DbError::Unexpected(format!("run {run} was changed by another process meanwhile; try again")));
        }
        self.insert_engines(&mut tx, run, &engines).await?;
        self.insert_pairs(&mut tx, run, pairs).await?;
        self.spread_pending_in(&mut tx, run).await?;
        tx.commit().await
    }

    /// Orders the pairs of run `run` still to play so that each pairing's
    /// are spread evenly over the queue, each in its own order: the
    /// pairings then all finish together, and a curve across them fills in
    /// evenly however far the run gets. A budget added to a scaling run
    /// would otherwise wait for every pair before it. Returns how many
    /// pairs are still to play.
    ///
    /// # Errors
    ///
    /// A database failure (then nothing changed).
    pub async fn spread_pending(&self, run: i64) -> Result<usize, DbError> {
        let mut tx = self.write().await?;
        let pending = self.spread_pending_in(&mut tx, run).await?;
        tx.commit().await?;
        Ok(pending)
    }

    async fn spread_pending_in(&self, tx: &mut Conn<'_>, run: i64) -> Result<usize, DbError> {
        let rows = tx
            .fetch_all(
                sqlx::query(self.backend.sql(
                    "SELECT id, engine_a, engine_b FROM pairs WHERE run_id = ? AND status = 'pending' ORDER BY idx",
                ))
                .bind(run),
            )
            .await?;
        let pairings: Vec<(String, String)> =
            rows.iter().map(|r| Ok((r.cell("engine_a")?, r.cell("engine_b")?))).collect::<Result<_, DbError>>()?;
        let order = spread_evenly(&pairings);
        let last: i64 = tx.fetch_one(self.last_pair_index_of(run)).await?.cell("last")?;
        // New places after every pair's, so that no two pairs share one on the way.
        for (place, &at) in order.iter().enumerate() {
            let id: i64 = rows[at].cell("id")?;
            tx.execute(
                sqlx::query(self.backend.sql("UPDATE pairs SET idx = ? WHERE id = ?"))
                    .bind(last + 1 + place as i64)
                    .bind(id),
            )
            .await?;
        }
        Ok(rows.len())
    }

    /// The openings of run `run`'s pairing `engine_a`-`engine_b`, as its
    /// pairs have them, in their order (`opening_index`).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn pairing_openings(&self, run: i64, engine_a: &str, engine_b: &str) -> Result<Vec<PairPlan>, DbError> {
        let rows = self
            .fetch_all(
                sqlx::query(self.backend.sql(
                    "SELECT idx, opening_index, opening_name, fen, opening_moves, opening_san FROM pairs \
             WHERE run_id = ? AND engine_a = ? AND engine_b = ? ORDER BY opening_index, idx",
                ))
                .bind(run)
                .bind(engine_a)
                .bind(engine_b),
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(PairPlan {
                    index: r.cell("idx")?,
                    engine_a: engine_a.to_string(),
                    engine_b: engine_b.to_string(),
                    opening_index: r.cell("opening_index")?,
                    opening_name: r.cell("opening_name")?,
                    fen: r.cell("fen")?,
                    opening_moves: r.words("opening_moves")?,
                    opening_san: r.words("opening_san")?,
                })
            })
            .collect()
    }

    /// The highest plan position of run `run`'s pairs (-1 with none).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn last_pair_index(&self, run: i64) -> Result<i64, DbError> {
        self.fetch_one(self.last_pair_index_of(run)).await?.cell("last")
    }

    /// The statement of [`Db::last_pair_index`], for the pool or a transaction.
    fn last_pair_index_of(&self, run: i64) -> Statement<'_> {
        sqlx::query(
            self.backend.sql("SELECT CAST(COALESCE(MAX(idx), -1) AS BIGINT) AS last FROM pairs WHERE run_id = ?"),
        )
        .bind(run)
    }

    /// Records `engines` (name, spec JSON) and ties them to run `run`.
    async fn insert_engines(&self, tx: &mut Conn<'_>, run: i64, engines: &[(String, String)]) -> Result<(), DbError> {
        let sql = |text: &str| self.backend.sql(text);
        for (name, spec) in engines {
            tx.execute(
                sqlx::query(sql("INSERT INTO engines (name, spec) VALUES (?, ?) ON CONFLICT (name, spec) DO NOTHING"))
                    .bind(name)
                    .bind(spec),
            )
            .await?;
            tx.execute(
                sqlx::query(sql("INSERT INTO run_engines (run_id, engine_id) SELECT ?, id FROM engines \
                 WHERE name = ? AND spec = ? ON CONFLICT DO NOTHING"))
                .bind(run)
                .bind(name)
                .bind(spec),
            )
            .await?;
        }
        Ok(())
    }

    /// Stores planned pairs of run `run`.
    async fn insert_pairs(&self, tx: &mut Conn<'_>, run: i64, pairs: &[PairPlan]) -> Result<(), DbError> {
        let sql = |text: &str| self.backend.sql(text);
        for chunk in pairs.chunks(PAIRS_PER_INSERT) {
            let mut text = String::from(
                "INSERT INTO pairs (run_id, idx, engine_a, engine_b, opening_index, opening_name, fen, opening_moves, opening_san) VALUES ",
            );
            text.push_str(&vec!["(?, ?, ?, ?, ?, ?, ?, ?, ?)"; chunk.len()].join(", "));
            let mut query = sqlx::query(sql(&text));
            for pair in chunk {
                query = query
                    .bind(run)
                    .bind(pair.index)
                    .bind(&pair.engine_a)
                    .bind(&pair.engine_b)
                    .bind(pair.opening_index)
                    .bind(&pair.opening_name)
                    .bind(&pair.fen)
                    .bind(pair.opening_moves.join(" "))
                    .bind(pair.opening_san.join(" "));
            }
            tx.execute(query).await?;
        }
        Ok(())
    }

    /// One run with its counts.
    ///
    /// # Errors
    ///
    /// [`DbError::NoSuchRun`] or a database failure.
    pub async fn run(&self, id: i64) -> Result<RunInfo, DbError> {
        let row = self
            .fetch_optional(sqlx::query(self.backend.sql(&format!("{RUN_SELECT} WHERE r.id = ?"))).bind(id))
            .await?;
        row.map_or(Err(DbError::NoSuchRun(id)), |r| run_info(&r))
    }

    /// All runs, newest first.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn runs(&self) -> Result<Vec<RunInfo>, DbError> {
        let rows = self.fetch_all(sqlx::query(self.backend.sql(&format!("{RUN_SELECT} ORDER BY r.id DESC")))).await?;
        rows.iter().map(run_info).collect()
    }

    /// One page of runs, newest first: those below `filter.before` (the
    /// last id of the page before), of `filter.status` and with an engine
    /// named `filter.engine` (or one of its copies per budget, `NAME@…`)
    /// when given; at most `filter.limit`.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn runs_page(&self, filter: &RunFilter) -> Result<Vec<RunInfo>, DbError> {
        let mut conditions = Vec::new();
        if filter.before.is_some() {
            conditions.push("r.id < ?");
        }
        if filter.status.is_some() {
            conditions.push("r.status = ?");
        }
        if filter.engine.is_some() {
            conditions.push(
                "EXISTS (SELECT 1 FROM run_engines re JOIN engines e ON e.id = re.engine_id \
                 WHERE re.run_id = r.id AND (e.name = ? OR substr(e.name, 1, length(?) + 1) = ? || '@'))",
            );
        }
        let clause = if conditions.is_empty() { String::new() } else { format!(" WHERE {}", conditions.join(" AND ")) };
        let sql = self.backend.sql(&format!("{RUN_SELECT}{clause} ORDER BY r.id DESC LIMIT ?"));
        let mut query = sqlx::query(sql);
        if let Some(before) = filter.before {
            query = query.bind(before);
        }
        if let Some(status) = filter.status {
            query = query.bind(status.as_str());
        }
        if let Some(engine) = &filter.engine {
            query = query.bind(engine.clone()).bind(engine.clone()).bind(engine.clone());
        }
        let rows = self.fetch_all(query.bind(filter.limit)).await?;
        rows.iter().map(run_info).collect()
    }

    /// The runs that workers may serve (status `running`), highest priority
    /// first, then oldest first.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn open_runs(&self) -> Result<Vec<OpenRun>, DbError> {
        let rows = self
            .fetch_all(sqlx::query(
                self.backend.sql(
                    "SELECT id, kind, spec, priority FROM runs WHERE status = 'running' ORDER BY priority DESC, id",
                ),
            ))
            .await?;
        rows.iter()
            .map(|r| {
                let id = r.cell("id")?;
                let kind = stored_kind(id, &r.cell::<String>("kind")?)?;
                Ok(OpenRun { id, kind, spec: r.cell("spec")?, priority: r.cell("priority")? })
            })
            .collect()
    }

    /// Sets a run's status (and verdict), stamping the finish time when finished.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn set_status(&self, run: i64, status: RunStatus, verdict: Option<Verdict>) -> Result<(), DbError> {
        let mut tx = self.write().await?;
        let finished = (status == RunStatus::Finished).then(now_ms);
        tx.execute(
            sqlx::query(
                self.backend
                    .sql("UPDATE runs SET status = ?, verdict = COALESCE(?, verdict), finished_ms = ? WHERE id = ?"),
            )
            .bind(status.as_str())
            .bind(verdict.map(Verdict::as_str))
            .bind(finished)
            .bind(run),
        )
        .await?;
        tx.commit().await
    }

    /// Sets a run's priority: workers take units of higher-priority runs first.
    ///
    /// # Errors
    ///
    /// [`DbError::NoSuchRun`] or a database failure.
    pub async fn set_priority(&self, run: i64, priority: i64) -> Result<(), DbError> {
        let mut tx = self.write().await?;
        let changed = tx
            .execute(
                sqlx::query(self.backend.sql("UPDATE runs SET priority = ? WHERE id = ?")).bind(priority).bind(run),
            )
            .await?
            .rows_affected();
        tx.commit().await?;
        if changed == 0 {
            return Err(DbError::NoSuchRun(run));
        }
        Ok(())
    }

    /// The holders (`machine:pid/slot`) of run `run`'s pairs in flight,
    /// each once.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn pair_holders(&self, run: i64) -> Result<Vec<String>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT DISTINCT worker FROM pairs WHERE run_id = ? AND status = 'running' AND worker IS NOT NULL",
                run,
            )
            .await?;
        rows.iter().map(|r| r.cell("worker")).collect()
    }

    /// Makes a run resumable after a crash: the pairs in flight whose lease
    /// has expired, or whose holder is in `gone` (processes known to have
    /// ended, [`Db::pair_holders`]), are pending again, their games
    /// deleted. The pairs of live holders, a worker sharing the database,
    /// stay theirs. The pairs are chosen once, so that a lease running out
    /// meanwhile cannot reset a pair whose games were kept. Returns how
    /// many pairs were reset.
    ///
    /// # Errors
    ///
    /// A database failure (then nothing changed).
    pub async fn reset_unfinished(&self, run: i64, gone: &[String]) -> Result<u64, DbError> {
        let mut tx = self.write().await?;
        let held = tx.fetch_all(sqlx::query(self.backend.sql(
            "SELECT id, worker, lease_until, {now_ms} AS now FROM pairs WHERE run_id = ? AND status = 'running' {for_update}",
        ))
        .bind(run)).await?;
        let mut reset = 0;
        for row in &held {
            let holder: Option<String> = row.cell("worker")?;
            let (lease, now): (Option<i64>, i64) = (row.cell("lease_until")?, row.cell("now")?);
            let expired = lease.is_none_or(|until| until < now);
            if !expired && !holder.is_some_and(|h| gone.contains(&h)) {
                continue;
            }
            let id: i64 = row.cell("id")?;
            self.delete_games_of_pair(&mut tx, id).await?;
            tx.execute(
                sqlx::query(self.backend.sql("UPDATE pairs SET status = 'pending', lease_until = NULL WHERE id = ?"))
                    .bind(id),
            )
            .await?;
            reset += 1;
        }
        tx.commit().await?;
        Ok(reset)
    }
}

/// Which runs [`Db::runs_page`] lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunFilter {
    /// Only runs with a lower id (the last id of the page before).
    pub before: Option<i64>,
    /// Only runs of this status.
    pub status: Option<RunStatus>,
    /// Only runs with this engine.
    pub engine: Option<String>,
    /// At most this many.
    pub limit: i64,
}

/// A run's row with its planned pairs (less those an SPRT's end skipped),
/// its finished pairs (from the kept counts) and its games: two for each
/// finished pair and those of the pairs in flight (a pair given back or
/// skipped loses its games, and so will one whose lease ran out, its worker
/// gone: it is replayed whole, so its game is not counted; a lease is live
/// exactly when `claim_pair` would not take it as expired). A few index
/// probes whatever the run's size.
const RUN_SELECT: &str = "SELECT r.id, r.kind, r.spec, r.status, r.verdict, r.created_ms, r.finished_ms, r.machine, \
     r.pairs_total - (SELECT COUNT(*) FROM pairs p WHERE p.run_id = r.id AND p.status = 'skipped') AS pairs_planned, \
     (SELECT CAST(COALESCE(SUM(c.pairs), 0) AS BIGINT) FROM run_pairs c WHERE c.run_id = r.id) AS pairs_done, \
     (SELECT CAST(2 * COALESCE(SUM(c.pairs), 0) AS BIGINT) FROM run_pairs c WHERE c.run_id = r.id) \
     + (SELECT COUNT(*) FROM games g JOIN pairs p ON g.pair_id = p.id WHERE p.run_id = r.id AND p.status = 'running' \
       AND (p.lease_until IS NULL OR p.lease_until >= {now_ms})) AS games, \
     r.priority FROM runs r";

fn run_info(r: &AnyRow) -> Result<RunInfo, DbError> {
    let id: i64 = r.cell("id")?;
    let status: String = r.cell("status")?;
    let verdict: Option<String> = r.cell("verdict")?;
    let unknown = |source: model::UnknownCode| DbError::Unknown { row: format!("run {id}"), source };
    Ok(RunInfo {
        id,
        kind: stored_kind(id, &r.cell::<String>("kind")?)?,
        spec: r.cell("spec")?,
        status: RunStatus::read(&status).map_err(unknown)?,
        verdict: verdict.as_deref().map(Verdict::read).transpose().map_err(unknown)?,
        created_ms: r.cell("created_ms")?,
        finished_ms: r.cell("finished_ms")?,
        machine: r.cell("machine")?,
        pairs_planned: r.cell("pairs_planned")?,
        pairs_done: r.cell("pairs_done")?,
        games: r.cell("games")?,
        priority: r.cell("priority")?,
    })
}

/// A spec's engines as stored: name and spec JSON.
fn engine_rows(spec: &Spec) -> Vec<(String, String)> {
    spec.engines().iter().map(|e| (e.name.clone(), serde_json::to_string(e).unwrap_or_default())).collect()
}

fn stored_kind(run: i64, text: &str) -> Result<RunKind, DbError> {
    RunKind::read(text).map_err(|source| DbError::Unknown { row: format!("run {run}"), source })
}

/// The order in which to play items of the `groups` given (each item's
/// group, in the items' current order), as indices into it: each group's
/// items in their own order, the groups spread evenly, the k-th of a group
/// of n placed at (k + ½) / n of the way, ties in the order the groups
/// first appear. Groups of equal size come round-robin.
fn spread_evenly<G: PartialEq>(groups: &[G]) -> Vec<usize> {
    let mut firsts: Vec<&G> = Vec::new();
    let mut members: Vec<Vec<usize>> = Vec::new();
    for (i, group) in groups.iter().enumerate() {
        match firsts.iter().position(|g| *g == group) {
            Some(at) => members[at].push(i),
            None => {
                firsts.push(group);
                members.push(vec![i]);
            }
        }
    }
    let mut placed: Vec<(f64, usize, usize)> = members
        .iter()
        .enumerate()
        .flat_map(|(g, items)| {
            let n = items.len() as f64;
            items.iter().enumerate().map(move |(k, &item)| ((k as f64 + 0.5) / n, g, item))
        })
        .collect();
    placed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    placed.into_iter().map(|(_, _, item)| item).collect()
}

#[cfg(test)]
mod spread_tests {
    use super::spread_evenly;

    #[test]
    fn each_group_keeps_its_order_and_all_finish_together() {
        // Four budgets of 3 pairs each, interleaved, then a fifth of 6 added after them.
        let mut groups: Vec<u8> = (0..12).map(|i| i % 4).collect();
        groups.extend([4; 6]);
        let order = spread_evenly(&groups);
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, (0..18).collect::<Vec<_>>(), "a permutation");
        for g in 0..5 {
            let mine: Vec<usize> = order.iter().copied().filter(|&i| groups[i] == g).collect();
            assert!(mine.windows(2).all(|w| w[0] < w[1]), "group {g} in its own order: {mine:?}");
        }
        // The added group is spread: two of its six in each third of the queue.
        for third in order.chunks(6) {
            assert_eq!(third.iter().filter(|&&i| groups[i] == 4).count(), 2, "{order:?}");
        }
        // Groups of equal size come round-robin, in the order they first appear.
        assert_eq!(spread_evenly(&["a", "b", "a", "b", "c", "c"]), [0, 1, 4, 2, 3, 5]);
        assert!(spread_evenly::<u8>(&[]).is_empty());
    }
}
