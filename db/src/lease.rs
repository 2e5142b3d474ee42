//! The work queue: pairs handed out under a lease, renewed by heartbeats,
//! stored game by game, finished together with the pairing's counts and the
//! SPRT decision in one transaction.
//!
//! A hand-out counts up `pairs.claims`; `(pair id, claim)` is the lease. A
//! game is stored only while that claim is the newest, the pair is running
//! and its run is running, checked under a row lock in the storing
//! transaction. So a pair whose lease expired (worker killed, machine gone)
//! is handed out again and replayed whole, and whatever its old holder sends
//! later is discarded, never counted twice.

use std::collections::HashMap;
use std::time::Duration;

use sqlx::any::AnyRow;

use model::Code;
use model::{EngineMoveTotals, GameRecord, GameResult, PairPlan, PairingCounts, Tally, Verdict};

use crate::conn::{Cells, Conn, Statement};
use crate::counts::PAIR_RESULTS;
use crate::dialect::Backend;
use crate::runs::delete_games_of;
use crate::{ClaimedPair, Db, DbError, FamilyVerdict, Judge, PairCommit, TuneStep};

/// A game ready to be stored: its record and its moves packed. Packing
/// takes milliseconds of the worker's CPU (PV words ranked among the legal
/// moves, zstd) and is done here, before any transaction; a game stored
/// again and again (the fleet benchmark) is packed once.
#[derive(Clone, Debug)]
pub struct PackedGame {
    record: GameRecord,
    moves: Vec<u8>,
}

impl PackedGame {
    /// `record` with its moves packed.
    ///
    /// # Errors
    ///
    /// The compressor could not get memory.
    pub fn new(record: GameRecord) -> Result<PackedGame, DbError> {
        let moves = pack(&record)?;
        Ok(PackedGame { record, moves })
    }
}

/// `game`'s moves packed for storing.
fn pack(game: &GameRecord) -> Result<Vec<u8>, DbError> {
    crate::packed::pack(&game.moves, crate::lines::Start::of(game)).map_err(DbError::Compress)
}

/// The two work queues, which share the lease columns (`status`,
/// `lease_until`, `claims`, `worker`) and the `(run_id, status, idx)` index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Queue {
    /// Pairs of games (`pairs`).
    Pairs,
    /// Chunks of a test-suite run (`suite_chunks`).
    SuiteChunks,
}

/// Which items of a queue a claim takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Free {
    /// Never handed out, or given back.
    Pending,
    /// Handed out, with a lease that has run out.
    Expired,
}

impl Queue {
    fn table(self) -> &'static str {
        match self {
            Queue::Pairs => "pairs",
            Queue::SuiteChunks => "suite_chunks",
        }
    }

    /// What a claim returns.
    fn columns(self) -> &'static str {
        match self {
            Queue::Pairs => {
                "id, run_id, claims, idx, engine_a, engine_b, opening_index, opening_name, fen, opening_moves, opening_san"
            }
            Queue::SuiteChunks => "id, run_id, claims, idx, engine, limit_index, first_position, positions",
        }
    }
}

fn millis(lease: Duration) -> i64 {
    i64::try_from(lease.as_millis()).unwrap_or(i64::MAX / 4)
}

impl Db {
    /// Hands out the next pair of a running run (lowest plan index) to
    /// `worker` for `lease`: a pending pair, or a running one whose lease has
    /// expired (then the games its old holder stored are deleted: the pair is
    /// replayed whole). `None` when nothing is free now.
    ///
    /// # Errors
    ///
    /// A database failure (then nothing was handed out).
    pub async fn claim_pair(&self, run: i64, worker: &str, lease: Duration) -> Result<Option<ClaimedPair>, DbError> {
        // A pending pair's claim is one statement, committed alone: one
        // round trip.
        let mut connection = self.alone().await?;
        if let Some(row) = self.claim_next(&mut connection, Queue::Pairs, Free::Pending, run, worker, lease).await? {
            drop(connection);
            let pair = claimed_pair(&row)?;
            // A pair handed out before was given back with its games deleted,
            // but a first game committed while it was being given back (a
            // machine set aside deletes, then updates) would outlive that:
            // deleted now, before this claim's own first game exists.
            if pair.claim > 1 {
                let mut tx = self.write().await?;
                self.delete_games_of_pair(&mut tx, pair.id).await?;
                tx.commit().await?;
            }
            return Ok(Some(pair));
        }
        drop(connection);
        // A pair whose lease ran out is taken over with its old holder's
        // games deleted, in one transaction.
        let mut tx = self.write().await?;
        let row = self.claim_next(&mut tx, Queue::Pairs, Free::Expired, run, worker, lease).await?;
        let claimed = row.as_ref().map(claimed_pair).transpose()?;
        if let Some(pair) = &claimed {
            self.delete_games_of_pair(&mut tx, pair.id).await?;
        }
        tx.commit().await?;
        Ok(claimed)
    }

    /// Extends the lease of a pair by `lease` from now. `false` when the lease
    /// is lost: the pair was handed out again, or it or its run stopped.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn renew_lease(&self, pair: &ClaimedPair, lease: Duration) -> Result<bool, DbError> {
        self.renew(Queue::Pairs, pair.id, pair.claim, lease).await
    }

    /// Gives a pair back unplayed (Ctrl-C, a failing engine): its stored game
    /// is deleted and it is pending again. Nothing happens when the lease is
    /// already lost.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn release_pair(&self, pair: &ClaimedPair) -> Result<(), DbError> {
        self.release(Queue::Pairs, pair.id, pair.claim).await
    }

    /// Stores the first game of a claimed pair with its moves, in one
    /// transaction. `false` (and nothing stored) when the lease is lost.
    ///
    /// # Errors
    ///
    /// A database failure (then nothing of the game is stored).
    pub async fn save_first_game(&self, pair: &ClaimedPair, game: &GameRecord) -> Result<bool, DbError> {
        self.save_first_game_packed(pair, &PackedGame::new(game.clone())?).await
    }

    /// [`Db::save_first_game`] of a game packed before.
    ///
    /// # Errors
    ///
    /// A database failure (then nothing of the game is stored).
    pub async fn save_first_game_packed(&self, pair: &ClaimedPair, game: &PackedGame) -> Result<bool, DbError> {
        let (db, pair, game) = (self.clone(), pair.clone(), game.clone());
        self.detach(async move { db.save_first_game_now(&pair, game).await }).await
    }

    async fn save_first_game_now(&self, pair: &ClaimedPair, game: PackedGame) -> Result<bool, DbError> {
        // The claim is checked by the insert itself. On PostgreSQL a game
        // without PV issues is one statement, committed alone: one round trip.
        if self.backend == Backend::Postgres && game.record.pv_issues.is_empty() {
            let mut connection = self.alone().await?;
            return Ok(self.insert_game(&mut connection, pair, 0, &game.record, game.moves).await?.is_some());
        }
        let mut tx = self.write().await?;
        if self.insert_game(&mut tx, pair, 0, &game.record, game.moves).await?.is_none() {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Stores the second game of a claimed pair and finishes the pair, all in
    /// one transaction that holds the run's row lock: the pairing's counts
    /// are updated, `judge` (the SPRT, for SPRT pairings) reads them, and when
    /// it returns a verdict the run is finished at once — the other pairs are
    /// skipped and the games of pairs in flight deleted, so no new pair is
    /// handed out and late results are discarded. The run is finished too when
    /// this was its last pair (with verdict `inconclusive` for an SPRT). A
    /// tuning pair's `tune` step moves the stored θ in the same transaction.
    /// `None` (and nothing stored) when the lease is lost.
    ///
    /// # Errors
    ///
    /// A database failure (then nothing of the game is stored), or a pair
    /// whose first game is missing.
    pub async fn finish_pair(
        &self,
        pair: &ClaimedPair,
        game: &GameRecord,
        judge: &dyn Judge,
        tune: Option<TuneStep<'_>>,
    ) -> Result<Option<PairCommit>, DbError> {
        // Packed before the transaction: other workers wait for the run's
        // row lock as long as this transaction holds it.
        self.finish_pair_with(pair, game, pack(game)?, judge, tune).await
    }

    /// [`Db::finish_pair`] with a game packed before.
    ///
    /// # Errors
    ///
    /// As [`Db::finish_pair`].
    pub async fn finish_pair_packed(
        &self,
        pair: &ClaimedPair,
        game: &PackedGame,
        judge: &dyn Judge,
        tune: Option<TuneStep<'_>>,
    ) -> Result<Option<PairCommit>, DbError> {
        self.finish_pair_with(pair, &game.record, game.moves.clone(), judge, tune).await
    }

    async fn finish_pair_with(
        &self,
        pair: &ClaimedPair,
        game: &GameRecord,
        packed: Vec<u8>,
        judge: &dyn Judge,
        tune: Option<TuneStep<'_>>,
    ) -> Result<Option<PairCommit>, DbError> {
        let mut tx = self.write().await?;
        if !self.run_is_running(&mut tx, pair.run).await? {
            return Ok(None);
        }
        // The insert checks the claim (locking the pair's row) and returns
        // the first game's result.
        let Some(stored) = self.insert_game(&mut tx, pair, 1, game, packed).await? else { return Ok(None) };
        let overheads = stored.first_overheads.as_deref().is_some_and(|text| !text.is_empty())
            || game.overheads().iter().any(|side| side.moves() > 0);
        let first = stored.first_result.as_deref().and_then(GameResult::from_pgn).ok_or_else(|| {
            DbError::Unexpected(format!(
                "pair {} of run {} is finishing without its first game",
                pair.plan.index, pair.run
            ))
        })?;

        let add = Tally::of_pair(first, game.result);
        let (counts, pairs_left) = match self.backend {
            // The server finishes the pair and derives every count from its
            // games (migration `0015_worker_guards`): a worker's role writes
            // no count table.
            Backend::Postgres => match self.finish_on_server(&mut tx, pair).await? {
                Some(finished) => finished,
                None => return Ok(None),
            },
            Backend::Sqlite => {
                let done = self.pair_done(&mut tx, pair, &add).await?;
                self.count_finished(&mut tx, pair.run, pair.id, overheads).await?;
                done
            }
        };
        let sprt = judge.step(&counts);
        let theta = match tune {
            Some(step) => {
                let score = i64::try_from(add.wins).unwrap_or(0) - i64::try_from(add.losses).unwrap_or(0);
                Some(self.record_iteration(&mut tx, pair.run, pair.id, step, score).await?)
            }
            None => None,
        };

        // `Some(verdict)` when the run ends here (`Some(None)`: no SPRT).
        let (decided, verdict) = match judge.is_family() {
            true => (None, self.judge_family(&mut tx, pair.run, judge, pairs_left).await?),
            false => {
                let decided = sprt.as_ref().and_then(|step| step.verdict);
                let verdict = match decided {
                    Some(verdict) => Some(Some(verdict)),
                    None => (!pairs_left).then(|| sprt.as_ref().map(|_| Verdict::Inconclusive)),
                };
                (decided, verdict)
            }
        };
        if let Some(verdict) = &verdict {
            let sql = "UPDATE runs SET status = 'finished', verdict = ?, finished_ms = {now_ms} WHERE id = ?";
            tx.execute(sqlx::query(self.backend.sql(sql)).bind(verdict.map(Verdict::as_str)).bind(pair.run)).await?;
        }
        // After the run's status: a worker's role skips only the pairs of a
        // run that no longer runs.
        if decided.is_some() {
            self.skip_pairs_left(&mut tx, pair.run).await?;
        }
        tx.commit().await?;
        Ok(Some(PairCommit { counts, sprt, run_finished: verdict.is_some(), theta }))
    }

    /// A family's pair finished: the candidates its judge now decides are
    /// stored in order (`run_verdicts`) and their pairs left are skipped;
    /// `Some(verdict)` when no pair of the run is left (`pairs_left`: before
    /// any skip), the family's verdict.
    async fn judge_family(
        &self,
        tx: &mut Conn<'_>,
        run: i64,
        judge: &dyn Judge,
        pairs_left: bool,
    ) -> Result<Option<Option<Verdict>>, DbError> {
        let rows = tx
            .fetch_all(
                sqlx::query(self.backend.sql(
                    "SELECT engine_a, engine_b, wins, draws, losses, p0, p1, p2, p3, p4 FROM tallies WHERE run_id = ?",
                ))
                .bind(run),
            )
            .await?;
        let counts = rows.iter().map(stored_pairing).collect::<Result<Vec<_>, DbError>>()?;
        let mut decided = family_verdicts_in(tx, self.backend, run).await?;
        let new = judge.decide(&counts, &decided);
        for verdict in &new {
            decided.push(verdict.clone());
            let insert = "INSERT INTO run_verdicts (run_id, engine_a, engine_b, verdict, llr, pairs, step) \
                 VALUES (?, ?, ?, ?, ?, ?, ?)";
            tx.execute(
                sqlx::query(self.backend.sql(insert))
                    .bind(run)
                    .bind(&verdict.engine_a)
                    .bind(&verdict.engine_b)
                    .bind(verdict.verdict.as_str())
                    .bind(verdict.llr)
                    .bind(i64::try_from(verdict.pairs).unwrap_or(i64::MAX))
                    .bind(i64::try_from(decided.len()).unwrap_or(i64::MAX)),
            )
            .await?;
            let skip = "UPDATE pairs SET status = 'skipped' WHERE run_id = ? AND engine_a = ? AND engine_b = ? \
                 AND status IN ('pending', 'running')";
            tx.execute(sqlx::query(self.backend.sql(skip)).bind(run).bind(&verdict.engine_a).bind(&verdict.engine_b))
                .await?;
        }
        let left = match new.is_empty() {
            true => pairs_left,
            false => {
                let skipped = "SELECT id FROM pairs WHERE run_id = ? AND status = 'skipped'";
                for statement in delete_games_of(skipped) {
                    tx.execute(sqlx::query(self.backend.sql(&statement)).bind(run)).await?;
                }
                let open = "SELECT COUNT(*) AS open_pairs FROM (SELECT 1 FROM pairs WHERE run_id = ? \
                     AND status IN ('pending', 'running') LIMIT 1) l";
                tx.fetch_one(sqlx::query(self.backend.sql(open)).bind(run)).await?.cell::<i64>("open_pairs")? > 0
            }
        };
        Ok((!left).then(|| Some(judge.verdict(&decided))))
    }

    /// The candidates of family `run` decided so far, in the order they
    /// were decided (none for any other run).
    ///
    /// # Errors
    ///
    /// A database failure, or a stored verdict that is not H1 or H0.
    pub async fn family_verdicts(&self, run: i64) -> Result<Vec<FamilyVerdict>, DbError> {
        Ok(self.family_verdicts_of(&[run]).await?.remove(&run).unwrap_or_default())
    }

    /// [`Db::family_verdicts`] of each of `runs` that has any.
    ///
    /// # Errors
    ///
    /// As [`Db::family_verdicts`].
    pub async fn family_verdicts_of(&self, runs: &[i64]) -> Result<HashMap<i64, Vec<FamilyVerdict>>, DbError> {
        let rows = self
            .rows_of_runs(
                "SELECT run_id, engine_a, engine_b, verdict, llr, pairs FROM run_verdicts WHERE run_id IN ({runs}) \
                 ORDER BY run_id, step",
                runs,
            )
            .await?;
        let mut verdicts: HashMap<i64, Vec<FamilyVerdict>> = HashMap::new();
        for r in &rows {
            let run: i64 = r.cell("run_id")?;
            verdicts.entry(run).or_default().push(family_verdict(r, run)?);
        }
        Ok(verdicts)
    }

    /// The key this process claims leases with (PostgreSQL), bound where a
    /// statement writes a pair, a suite chunk or a game.
    pub(crate) fn lease_key(&self) -> Option<String> {
        self.lease_key.as_deref().map(str::to_owned)
    }

    /// Finishes `pair` on PostgreSQL by the server's `arena_finish_pair`,
    /// which checks this process's claim and key and derives the pair's
    /// results and every count of its run from the stored games: the
    /// pairing's tally as it now stands and whether another pair of the run
    /// is left; `None` when the claim is lost.
    async fn finish_on_server(
        &self,
        tx: &mut Conn<'_>,
        pair: &ClaimedPair,
    ) -> Result<Option<(PairingCounts, bool)>, DbError> {
        let row = tx
            .fetch_optional(
                sqlx::query(self.backend.sql("SELECT * FROM arena_finish_pair(?, ?, ?)"))
                    .bind(pair.id)
                    .bind(pair.claim)
                    .bind(self.lease_key()),
            )
            .await?;
        let Some(row) = row else { return Ok(None) };
        let counts = PairingCounts {
            engine_a: pair.plan.engine_a.clone(),
            engine_b: pair.plan.engine_b.clone(),
            tally: stored_tally(&row)?,
        };
        Ok(Some((counts, row.cell::<i64>("open_pairs")? > 0)))
    }

    /// Marks `pair` done and adds `add` to its pairing's tally (SQLite;
    /// PostgreSQL: [`Db::finish_on_server`]): the tally as it now stands,
    /// and whether any other pair of the run is left.
    async fn pair_done(
        &self,
        tx: &mut Conn<'_>,
        pair: &ClaimedPair,
        add: &Tally,
    ) -> Result<(PairingCounts, bool), DbError> {
        let wide = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        let done = format!(
            "UPDATE pairs SET status = 'done', {PAIR_RESULTS}, \
             finished_seq = (SELECT COALESCE(MAX(finished_seq), 0) + 1 FROM pairs WHERE run_id = ?) WHERE id = ?"
        );
        tx.execute(sqlx::query(self.backend.sql(&done)).bind(pair.run).bind(pair.id)).await?;
        let tally = "INSERT INTO tallies (run_id, engine_a, engine_b, wins, draws, losses, p0, p1, p2, p3, p4) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, engine_a, engine_b) DO UPDATE SET \
             wins = tallies.wins + excluded.wins, draws = tallies.draws + excluded.draws, \
             losses = tallies.losses + excluded.losses, p0 = tallies.p0 + excluded.p0, p1 = tallies.p1 + excluded.p1, \
             p2 = tallies.p2 + excluded.p2, p3 = tallies.p3 + excluded.p3, p4 = tallies.p4 + excluded.p4 \
             RETURNING wins, draws, losses, p0, p1, p2, p3, p4, \
             (SELECT COUNT(*) FROM (SELECT 1 FROM pairs WHERE run_id = ? AND status IN ('pending', 'running') \
                 LIMIT 1) l) AS open_pairs";
        let mut query = sqlx::query(self.backend.sql(tally))
            .bind(pair.run)
            .bind(&pair.plan.engine_a)
            .bind(&pair.plan.engine_b)
            .bind(wide(add.wins))
            .bind(wide(add.draws))
            .bind(wide(add.losses));
        for n in add.pentanomial {
            query = query.bind(wide(n));
        }
        let row = tx.fetch_one(query.bind(pair.run)).await?;
        let counts = PairingCounts {
            engine_a: pair.plan.engine_a.clone(),
            engine_b: pair.plan.engine_b.clone(),
            tally: stored_tally(&row)?,
        };
        Ok((counts, row.cell::<i64>("open_pairs")? > 0))
    }

    /// The pairs of a decided run not yet done, skipped, and any game of
    /// theirs deleted: skipped first, so that the update waits for a worker
    /// storing a first game at this moment (it holds its pair's row), whose
    /// game the delete then sees; deleted first, that game would outlive
    /// its skipped pair.
    async fn skip_pairs_left(&self, tx: &mut Conn<'_>, run: i64) -> Result<(), DbError> {
        let skip = "UPDATE pairs SET status = 'skipped' WHERE run_id = ? AND status IN ('pending', 'running')";
        tx.execute(sqlx::query(self.backend.sql(skip)).bind(run)).await?;
        let skipped = "SELECT id FROM pairs WHERE run_id = ? AND status = 'skipped'";
        for statement in delete_games_of(skipped) {
            let statement = self.backend.sql(&statement);
            tx.execute(sqlx::query(statement).bind(run)).await?;
        }
        Ok(())
    }

    /// The counts of every pairing of a run that has finished pairs.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn pairing_counts(&self, run: i64) -> Result<Vec<PairingCounts>, DbError> {
        Ok(self.pairing_counts_of(&[run]).await?.remove(&run).unwrap_or_default())
    }

    /// [`Db::pairing_counts`] of each of `runs` that has finished pairs, in
    /// a statement or two for all of them (a list of runs).
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn pairing_counts_of(&self, runs: &[i64]) -> Result<HashMap<i64, Vec<PairingCounts>>, DbError> {
        let rows = self
            .rows_of_runs(
                "SELECT run_id, engine_a, engine_b, wins, draws, losses, p0, p1, p2, p3, p4 FROM tallies \
                 WHERE run_id IN ({runs}) ORDER BY run_id, engine_a, engine_b",
                runs,
            )
            .await?;
        let mut counts: HashMap<i64, Vec<PairingCounts>> = HashMap::new();
        for r in &rows {
            counts.entry(r.cell("run_id")?).or_default().push(stored_pairing(r)?);
        }
        Ok(counts)
    }

    /// Hands out the next `free` item of `queue` for run `run` on
    /// `connection` — pending and expired are two statements, because one
    /// `OR` of both would make the database sort every pending item instead
    /// of reading the first from the `(run_id, status, idx)` index. The run's
    /// state is asked of the run itself, not of each item (`r.id = ?`, not
    /// `r.id = q.run_id`): tested once, not once per pending item, which on
    /// PostgreSQL made the planner scan and sort the whole queue once it had
    /// statistics (23-64 ms a claim at 10,000 pairs). Returns the item's row
    /// (`Queue::columns`).
    pub(crate) async fn claim_next(
        &self,
        connection: &mut Conn<'_>,
        queue: Queue,
        free: Free,
        run: i64,
        worker: &str,
        lease: Duration,
    ) -> Result<Option<AnyRow>, DbError> {
        let (table, columns) = (queue.table(), queue.columns());
        let free = match free {
            Free::Pending => "q.status = 'pending'",
            Free::Expired => "q.status = 'running' AND q.lease_until < {now_ms}",
        };
        connection.fetch_optional(sqlx::query(self.backend.sql(&format!(
            "UPDATE {table} SET status = 'running', claims = claims + 1, worker = ?, lease_until = {{now_ms}} + ?, \
             lease_key = ? WHERE id = (SELECT q.id FROM {table} q WHERE q.run_id = ? AND {free} \
                 AND EXISTS (SELECT 1 FROM runs r WHERE r.id = ? AND r.status = 'running') \
                 AND NOT EXISTS (SELECT 1 FROM run_machines m WHERE m.run_id = ? AND m.machine = ? \
                     AND m.set_aside <> '') \
                 ORDER BY q.idx LIMIT 1 {{skip_locked}}) \
             RETURNING {columns}"
        )))
        .bind(worker)
        .bind(millis(lease))
        .bind(self.lease_key())
        .bind(run)
        .bind(run)
        .bind(run)
        .bind(crate::machines::machine_of(worker))).await
    }

    /// Extends the lease of item `id` of `queue` by `lease` from now; `false`
    /// when it is lost (handed out again, or the item or its run stopped).
    pub(crate) async fn renew(&self, queue: Queue, id: i64, claim: i64, lease: Duration) -> Result<bool, DbError> {
        let db = self.clone();
        self.detach(async move { db.renew_now(queue, id, claim, lease).await }).await
    }

    async fn renew_now(&self, queue: Queue, id: i64, claim: i64, lease: Duration) -> Result<bool, DbError> {
        let table = queue.table();
        let mut tx = self.write().await?;
        let renewed = tx
            .execute(
                sqlx::query(self.backend.sql(&format!(
                    "UPDATE {table} SET lease_until = {{now_ms}} + ?, lease_key = ? WHERE id = ? AND claims = ? \
             AND status = 'running' \
             AND EXISTS (SELECT 1 FROM runs r WHERE r.id = {table}.run_id AND r.status = 'running')"
                )))
                .bind(millis(lease))
                .bind(self.lease_key())
                .bind(id)
                .bind(claim),
            )
            .await?
            .rows_affected();
        tx.commit().await?;
        Ok(renewed == 1)
    }

    /// Gives item `id` of `queue` back (pending again) if `claim` is still
    /// its newest; a pair's stored game is deleted with it.
    pub(crate) async fn release(&self, queue: Queue, id: i64, claim: i64) -> Result<(), DbError> {
        let db = self.clone();
        self.detach(async move { db.release_now(queue, id, claim).await }).await
    }

    async fn release_now(&self, queue: Queue, id: i64, claim: i64) -> Result<(), DbError> {
        let table = queue.table();
        let mut tx = self.write().await?;
        if self.holds_item(&mut tx, queue, id, claim).await? {
            if queue == Queue::Pairs {
                self.delete_games_of_pair(&mut tx, id).await?;
            }
            tx.execute(
                sqlx::query(self.backend.sql(&format!(
                    "UPDATE {table} SET status = 'pending', lease_until = NULL, lease_key = ? WHERE id = ?"
                )))
                .bind(self.lease_key())
                .bind(id),
            )
            .await?;
        }
        tx.commit().await
    }

    /// Deletes the games (with moves and totals) of one pair.
    pub(crate) async fn delete_games_of_pair(&self, tx: &mut Conn<'_>, pair: i64) -> Result<(), DbError> {
        for statement in delete_games_of("?") {
            tx.execute(sqlx::query(self.backend.sql(&statement)).bind(pair)).await?;
        }
        Ok(())
    }

    /// Whether `claim` is the newest of running item `id` of `queue`, locking
    /// its row until the transaction ends.
    pub(crate) async fn holds_item(
        &self,
        tx: &mut Conn<'_>,
        queue: Queue,
        id: i64,
        claim: i64,
    ) -> Result<bool, DbError> {
        let table = queue.table();
        let row = tx
            .fetch_optional(
                sqlx::query(self.backend.sql(&format!(
                    "SELECT id FROM {table} WHERE id = ? AND claims = ? AND status = 'running' {{for_update}}"
                )))
                .bind(id)
                .bind(claim),
            )
            .await?;
        Ok(row.is_some())
    }

    /// Inserts a game of a pair, with its totals, moves and PV issues, if
    /// the pair's claim still holds (the check is part of the insert,
    /// locking the pair's row); `None` when it does not. The game and its
    /// moves are one statement on PostgreSQL (the moves' insert a
    /// data-modifying `WITH` clause): each round trip of a finishing
    /// transaction is a wait for the run's other finishers.
    async fn insert_game(
        &self,
        connection: &mut Conn<'_>,
        pair: &ClaimedPair,
        game_in_pair: i64,
        game: &GameRecord,
        packed: Vec<u8>,
    ) -> Result<Option<StoredGame>, DbError> {
        let insert = "INSERT INTO games (run_id, pair_id, game_in_pair, white, black, result, termination, detail, plies, start_fen, \
             opening, opening_moves, opening_san, started_ms, finished_ms, io_log, machine, lost_ms, tc_scale, \
             white_overheads, black_overheads, white_moves, white_time_ms, white_depth_sum, white_depth_moves, white_nodes_sum, white_nodes_moves, \
             white_nps_sum, white_nps_moves, white_seldepth_sum, white_seldepth_moves, black_moves, black_time_ms, black_depth_sum, black_depth_moves, \
             black_nodes_sum, black_nodes_moves, black_nps_sum, black_nps_moves, black_seldepth_sum, black_seldepth_moves, lease_key) \
             SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, \
             ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? \
             WHERE EXISTS (SELECT 1 FROM pairs WHERE id = ? AND claims = ? AND status = 'running' {for_update})";
        // The first game's result and overheads, for the second game's finish.
        let first = "(SELECT result FROM games WHERE pair_id = ? AND game_in_pair = 0) AS first_result, \
             (SELECT white_overheads || black_overheads FROM games WHERE pair_id = ? AND game_in_pair = 0) AS first_overheads";
        let with_moves = self.backend == Backend::Postgres;
        let text = match with_moves {
            true => format!(
                "WITH g AS ({insert} RETURNING id), m AS (INSERT INTO packed_moves (game_id, data) SELECT id, ? FROM g) \
                 SELECT id, {first} FROM g"
            ),
            false => format!("{insert} RETURNING id, {first}"),
        };
        let mut query = bind_game(sqlx::query(self.backend.sql(&text)), pair, game_in_pair, game);
        query = query.bind(self.lease_key()).bind(pair.id).bind(pair.claim);
        let moves = match with_moves {
            true => {
                query = query.bind(packed);
                None
            }
            false => Some(packed),
        };
        let row = connection.fetch_optional(query.bind(pair.id).bind(pair.id)).await?;
        let Some(row) = row else { return Ok(None) };
        let stored = StoredGame {
            id: row.cell("id")?,
            first_result: row.cell("first_result")?,
            first_overheads: row.cell("first_overheads")?,
        };
        if let Some(packed) = moves {
            // The moves packed, in a table of their own: `games` rows stay small for scans.
            self.insert_packed_moves(connection, stored.id, packed).await?;
        }
        self.insert_pv_issues(connection, pair.run, stored.id, game).await?;
        Ok(Some(stored))
    }

    /// Stores a game's moves packed; returns the packed value's size.
    pub(crate) async fn insert_packed_moves(
        &self,
        connection: &mut Conn<'_>,
        game_id: i64,
        packed: Vec<u8>,
    ) -> Result<usize, DbError> {
        let size = packed.len();
        connection
            .execute(
                sqlx::query(self.backend.sql("INSERT INTO packed_moves (game_id, data) VALUES (?, ?)"))
                    .bind(game_id)
                    .bind(packed),
            )
            .await?;
        Ok(size)
    }

    /// Stores the game's mate scores that their PV does not back (see `0008_pv_issues.sql`).
    async fn insert_pv_issues(
        &self,
        connection: &mut Conn<'_>,
        run: i64,
        game_id: i64,
        game: &GameRecord,
    ) -> Result<(), DbError> {
        for issue in &game.pv_issues {
            let engine = game.mover(issue.ply);
            connection
                .execute(
                    sqlx::query(self.backend.sql(
                        "INSERT INTO pv_issues (run_id, game_id, ply, engine, kind, detail) VALUES (?, ?, ?, ?, ?, ?)",
                    ))
                    .bind(run)
                    .bind(game_id)
                    .bind(i64::try_from(game.opening_moves.len() + issue.ply + 1).unwrap_or(i64::MAX))
                    .bind(engine)
                    .bind(issue.kind.as_str())
                    .bind(&issue.detail),
                )
                .await?;
        }
        Ok(())
    }
}

/// A game just stored, with what its pair's finish needs of the first game.
struct StoredGame {
    id: i64,
    /// The first game's result (PGN), when it is stored.
    first_result: Option<String>,
    /// Both sides' overheads of the first game (encoded), when it is stored.
    first_overheads: Option<String>,
}

/// Each side's totals of a game's moves (White's, then Black's), stored in
/// the game's row for the reports' per-engine averages.
fn side_totals(game: &GameRecord) -> [EngineMoveTotals; 2] {
    let mut totals = [EngineMoveTotals::default(), EngineMoveTotals::default()];
    let wide = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
    for (ply, m) in game.moves.iter().enumerate() {
        let t = &mut totals[usize::from(!game.is_white_move(ply))];
        t.moves += 1;
        t.time_ms = t.time_ms.saturating_add(wide(m.time_ms));
        for (value, sum, count) in [
            (m.depth, &mut t.depth_sum, &mut t.depth_moves),
            (m.seldepth, &mut t.seldepth_sum, &mut t.seldepth_moves),
            (m.nodes, &mut t.nodes_sum, &mut t.nodes_moves),
            (m.nps, &mut t.nps_sum, &mut t.nps_moves),
        ] {
            if let Some(v) = value {
                *sum = sum.saturating_add(wide(v));
                *count += 1;
            }
        }
    }
    totals
}

/// The decided candidates of family `run` in `tx`, in their order.
async fn family_verdicts_in(tx: &mut Conn<'_>, backend: Backend, run: i64) -> Result<Vec<FamilyVerdict>, DbError> {
    let select =
        "SELECT run_id, engine_a, engine_b, verdict, llr, pairs FROM run_verdicts WHERE run_id = ? ORDER BY step";
    let rows = tx.fetch_all(sqlx::query(backend.sql(select)).bind(run)).await?;
    rows.iter().map(|r| family_verdict(r, run)).collect()
}

/// A `run_verdicts` row, read strictly: a verdict other than H1 or H0 is an
/// error naming the candidate, never a guess.
fn family_verdict(r: &AnyRow, run: i64) -> Result<FamilyVerdict, DbError> {
    let engine_a: String = r.cell("engine_a")?;
    let text: String = r.cell("verdict")?;
    let unknown = || DbError::Unknown {
        row: format!("run {run} candidate {engine_a}"),
        source: model::UnknownCode::new("candidate's verdict (H1 or H0)", &text),
    };
    let verdict = match Verdict::read(&text) {
        Ok(verdict @ (Verdict::AcceptH1 | Verdict::AcceptH0)) => verdict,
        _ => return Err(unknown()),
    };
    let pairs: i64 = r.cell("pairs")?;
    Ok(FamilyVerdict {
        engine_b: r.cell("engine_b")?,
        verdict,
        llr: r.cell("llr")?,
        pairs: u64::try_from(pairs).map_err(|_| unknown())?,
        engine_a,
    })
}

/// A `tallies` row: its pairing's engines and tally.
fn stored_pairing(r: &AnyRow) -> Result<PairingCounts, DbError> {
    Ok(PairingCounts { engine_a: r.cell("engine_a")?, engine_b: r.cell("engine_b")?, tally: stored_tally(r)? })
}

/// The tally in the eight columns `wins, draws, losses, p0 … p4` from `first`.
fn stored_tally(r: &AnyRow) -> Result<Tally, DbError> {
    let count = |column: &str| r.cell::<i64>(column).map(|n| u64::try_from(n).unwrap_or(0));
    Ok(Tally {
        wins: count("wins")?,
        draws: count("draws")?,
        losses: count("losses")?,
        pentanomial: [count("p0")?, count("p1")?, count("p2")?, count("p3")?, count("p4")?],
    })
}

impl Db {
    /// Whether run `run` is running, locking its row until the transaction
    /// ends (PostgreSQL; SQLite holds the write lock). The lock is `FOR NO
    /// KEY UPDATE`: it excludes other finishers and every change of the
    /// run's status, but not the games being inserted meanwhile, whose
    /// foreign key takes a key-share lock on the same row (`FOR UPDATE` made
    /// every first game of the run wait for the finisher in progress).
    pub(crate) async fn run_is_running(&self, tx: &mut Conn<'_>, run: i64) -> Result<bool, DbError> {
        let row = tx
            .fetch_optional(
                sqlx::query(
                    self.backend.sql("SELECT id FROM runs WHERE id = ? AND status = 'running' {for_no_key_update}"),
                )
                .bind(run),
            )
            .await?;
        Ok(row.is_some())
    }
}

fn claimed_pair(r: &AnyRow) -> Result<ClaimedPair, DbError> {
    Ok(ClaimedPair {
        id: r.cell("id")?,
        run: r.cell("run_id")?,
        claim: r.cell("claims")?,
        plan: PairPlan {
            index: r.cell("idx")?,
            engine_a: r.cell("engine_a")?,
            engine_b: r.cell("engine_b")?,
            opening_index: r.cell("opening_index")?,
            opening_name: r.cell("opening_name")?,
            fen: r.cell("fen")?,
            opening_moves: r.words("opening_moves")?,
            opening_san: r.words("opening_san")?,
        },
    })
}

/// `query` with the columns of [`Db::insert_game`]'s row of `game` bound, in
/// the order of its column list: the pair's, the game's record, and each
/// side's overheads and move totals.
fn bind_game<'q>(query: Statement<'q>, pair: &ClaimedPair, game_in_pair: i64, game: &'q GameRecord) -> Statement<'q> {
    let mut query = query
        .bind(pair.run)
        .bind(pair.id)
        .bind(game_in_pair)
        .bind(&game.white)
        .bind(&game.black)
        .bind(game.result.pgn())
        .bind(game.termination.as_str())
        .bind(&game.detail)
        .bind(game.moves.len() as i64)
        .bind(&game.start_fen)
        .bind(&game.opening)
        .bind(game.opening_moves.join(" "))
        .bind(game.opening_san.join(" "))
        .bind(game.started_ms)
        .bind(game.finished_ms)
        .bind(game.io_log.as_deref())
        .bind(&game.machine)
        .bind(game.lost_ms.map(|ms| i64::try_from(ms).unwrap_or(i64::MAX)))
        .bind(game.tc_scale);
    for overheads in game.overheads() {
        query = query.bind(overheads.encode());
    }
    for side in side_totals(game) {
        query = query
            .bind(side.moves)
            .bind(side.time_ms)
            .bind(side.depth_sum)
            .bind(side.depth_moves)
            .bind(side.nodes_sum)
            .bind(side.nodes_moves)
            .bind(side.nps_sum)
            .bind(side.nps_moves)
            .bind(side.seldepth_sum)
            .bind(side.seldepth_moves);
    }
    query
}
