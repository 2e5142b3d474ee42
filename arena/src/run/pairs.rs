//! Pairs of games as units of work: the same opening played twice with
//! colours swapped, by the same two engine processes (kept between pairs).
//! Each finished game is stored in one transaction, the second together with
//! the pairing's counts and the SPRT step, so the run ends in the database —
//! all pairs done, or the SPRT decided — whoever plays its last pair.
//!
//! A tuning run's pair is one SPSA iteration: θ+ (engine A) and θ− (engine
//! B) get the iteration's values from the stored θ as the pair starts, and
//! finishing the pair moves θ in the same transaction (see `model::tune`).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use db::{ClaimedPair, Db, DbError, FamilyVerdict, SprtStep, TuneStep};
use model::{GameRecord, GamesSpec, PairPlan, PairingCounts, Perturbation, RunStatus, Spsa, Tally, Variant};
use openings::Opening;
use reports::stats::Counts;
use reports::stats::answer::Answer;
use reports::stats::family::{Decision, Family};
use reports::stats::machines::{pair_scores, residuals, to_set_aside};
use reports::stats::sprt::llr_of_tally;
use shakmaty::CastlingMode;
use tokio::sync::watch;

use super::disk::on_failure;
use super::error::RunError;
use super::slot::Slot;
use super::stop::Stop;
use super::unit::{Outcome, Played, Stored, Work};
use crate::engine_io::iolog::{IoLog, LogError};
use crate::game;
use crate::game::tablebase::Tablebases;
use crate::util::lock;
use model::TimeControl;

/// A run of games as this process plays it: its spec with engines resolved
/// on this machine, their time controls, and the pairings' counts so far.
#[derive(Debug)]
pub struct PairWork {
    /// Run id.
    pub run: i64,
    /// The spec, engines resolved here.
    pub spec: GamesSpec,
    tcs: Vec<TimeControl>,
    adjudication: model::Adjudication,
    /// Each pairing's engines (A, B), in the spec's order.
    names: Vec<(String, String)>,
    tallies: Mutex<Vec<Tally>>,
    /// The run's Syzygy tables, opened once for every slot.
    tablebase: Option<Tablebases>,
    /// Mate-PV warnings said so far, per engine.
    pv_warned: Mutex<std::collections::HashMap<String, u32>>,
    /// Engines warned of a loss on time.
    forfeit_warned: Mutex<std::collections::HashSet<String>>,
    /// The factor this machine's clocks are multiplied by (`--scale-nps`).
    clock_scale: Option<f64>,
}

/// Mate-PV warnings said per engine before the rest are only counted.
const PV_WARNINGS: u32 = 5;

impl PairWork {
    /// Checks the time controls of a run's engines, multiplied by
    /// `clock_scale` when the run scales clocks to this machine (see
    /// `run::speed`); `counts` are the stored counts of its pairings.
    ///
    /// # Errors
    ///
    /// [`RunError`] for a bad time control, or tablebase folders this
    /// machine does not have.
    pub fn new(
        run: i64,
        spec: GamesSpec,
        counts: &[PairingCounts],
        clock_scale: Option<f64>,
    ) -> Result<PairWork, RunError> {
        let playable = spec.playable()?;
        let tcs = (playable.time_controls.iter())
            .map(|tc| clock_scale.map_or_else(|| (*tc).clone(), |factor| tc.scaled(factor)))
            .collect();
        let adjudication = playable.adjudication;
        let names = spec.pairing_names();
        let tallies = names
            .iter()
            .map(|(a, b)| {
                counts.iter().find(|c| &c.engine_a == a && &c.engine_b == b).map(|c| c.tally).unwrap_or_default()
            })
            .collect();
        let tablebase = match &spec.tablebase {
            Some(rule) => Some(Tablebases::open(rule).map_err(|source| RunError::Tablebase { run, source })?),
            None => None,
        };
        Ok(PairWork {
            run,
            spec,
            tcs,
            adjudication,
            names,
            tallies: Mutex::new(tallies),
            tablebase,
            pv_warned: Mutex::default(),
            forfeit_warned: Mutex::default(),
            clock_scale,
        })
    }

    /// The SPRT step after a pair (SPRT runs only): of the run's first
    /// pairing, or for a family of any candidate's, whose verdict the
    /// family's procedure gives ([`db::Judge::decide`]).
    pub fn judge(&self, counts: &PairingCounts) -> Option<SprtStep> {
        let test = self.spec.kind.sprt()?;
        if self.family().is_some() {
            self.names.iter().position(|(a, b)| *a == counts.engine_a && *b == counts.engine_b)?;
            return Some(SprtStep { llr: llr_of_tally(&test, &counts.tally), verdict: None });
        }
        let &(a, b) = self.spec.pairings.first()?;
        if counts.engine_a != self.spec.engines[a].name || counts.engine_b != self.spec.engines[b].name {
            return None;
        }
        let llr = llr_of_tally(&test, &counts.tally);
        Some(SprtStep { llr, verdict: test.decide(llr) })
    }

    /// The family of an SPRT of several candidates against one base.
    fn family(&self) -> Option<Family> {
        self.spec.family().map(|(test, size)| Family::new(test, size))
    }

    /// One warning line per mate score whose PV does not back it, naming
    /// the engine, run, pair, game and ply, up to [`PV_WARNINGS`] per engine;
    /// then one line saying the rest are only counted (`arena report`).
    fn warn_pv_issues(&self, pair: i64, game: u32, record: &GameRecord) {
        for issue in &record.pv_issues {
            let white = record.is_white_move(issue.ply);
            let engine = record.mover(issue.ply);
            let shown = {
                let mut warned = lock(&self.pv_warned);
                let count = warned.entry(engine.to_string()).or_insert(0);
                *count += 1;
                *count
            };
            if shown <= PV_WARNINGS {
                crate::term::warn(&format!(
                    "{engine}: {} in run {} pair {} game {game} at ply {} ({}): {}",
                    issue.kind.as_str().replace('-', " "),
                    self.run,
                    pair + 1,
                    record.opening_moves.len() + issue.ply + 1,
                    if white { "White" } else { "Black" },
                    issue.detail
                ));
            } else if shown == PV_WARNINGS + 1 {
                crate::term::warn(&format!(
                    "{engine}: more mate scores that its PV does not back; they are counted in arena report {}",
                    self.run
                ));
            }
        }
    }

    /// The first game each engine loses on time, in one line with the way
    /// out: worded without "on time" or "timeout", which fishtest's worker
    /// counts as a time loss on any line (a dialect's game line says it). Under `st=`: engines often answer `go movetime` a few
    /// milliseconds late, and an answer later than the move time plus the
    /// time control's `timemargin` loses (cutechess's rule), so a run
    /// without a margin can lose every game on time. Under a clock the
    /// detail says, where the system does, whether the engine was kept
    /// waiting for a processor (a machine too busy for the clock).
    fn warn_time_forfeit(&self, pair: i64, game: u32, record: &GameRecord) {
        if record.termination != model::Termination::TimeForfeit {
            return;
        }
        let engine = record.mover(record.moves.len());
        let Some(tc) = self.spec.engines.iter().position(|e| e.name == engine).map(|i| &self.tcs[i]) else { return };
        if !lock(&self.forfeit_warned).insert(engine.to_string()) {
            return;
        }
        let (run, pair, detail) = (self.run, pair + 1, &record.detail);
        let line = match tc.limit {
            model::Limit::MoveTime(_) => {
                let fix = match tc.margin_ms {
                    0 => "add ,timemargin=MS to the time control".to_string(),
                    ms => format!("raise its timemargin ({ms} ms)"),
                };
                format!(
                    "{engine} ran out of time under {tc} in run {run} pair {pair} game {game} ({detail}): engines often \
                     answer go movetime a few ms late; {fix} (arena check {engine} measures how late)"
                )
            }
            _ => {
                format!(
                    "{engine} ran out of time under time control {tc} in run {run} pair {pair} game {game}: {detail}"
                )
            }
        };
        crate::term::warn(&line);
    }

    /// The run's state after a pair: the one pairing's record, Elo and LLR,
    /// or how many games of several pairings are scored.
    fn status(&self, counts: &PairingCounts, llr: Option<f64>) -> String {
        let mut tallies = lock(&self.tallies);
        if let Some(index) = self.names.iter().position(|(a, b)| *a == counts.engine_a && *b == counts.engine_b) {
            tallies[index] = counts.tally;
        }
        let mut line = match tallies.as_slice() {
            [tally] => {
                let (a, b) = (&counts.engine_a, &counts.engine_b);
                let mut line = format!("{a} vs {b} +{} ={} -{}", tally.wins, tally.draws, tally.losses);
                if let Some(answer) = Answer::of(&Counts::pairs(tally)) {
                    line += &format!("  Elo {}", answer.elo_text());
                }
                line
            }
            all => {
                let games: u64 = all.iter().map(Tally::games).sum();
                format!("{} pairings, {games} games scored", all.len())
            }
        };
        if let (Some(test), Some(llr)) = (self.spec.kind.sprt(), llr) {
            let bounds = test.bounds();
            line += &format!("  LLR {llr:.2} ({:.2}, {:.2})", bounds.lower, bounds.upper);
        }
        line
    }

    /// The pair's opening, in the run's castling notation.
    fn opening(&self, plan: &PairPlan) -> Opening {
        Opening {
            mode: match self.spec.variant {
                Variant::Standard => CastlingMode::Standard,
                Variant::Chess960 => CastlingMode::Chess960,
            },
            name: plan.opening_name.clone(),
            fen: plan.fen.clone(),
            moves: plan.opening_moves.clone(),
            san: plan.opening_san.clone(),
        }
    }

    /// A tuning run's θ± for the pair (iteration `index + 1` from the stored
    /// θ), with its SPSA; `None` for other runs.
    async fn perturbation(&self, db: &Db, plan: &PairPlan) -> Result<Option<(&Spsa, Perturbation)>, RunError> {
        let Some(spsa) = self.spec.kind.tune() else { return Ok(None) };
        let theta = db.tune_theta(self.run).await?.unwrap_or_else(|| spsa.start());
        let k = u64::try_from(plan.index).unwrap_or(0) + 1;
        Ok(Some((spsa, spsa.perturb(&theta, k))))
    }

    fn engine(&self, name: &str) -> Result<usize, RunError> {
        self.spec.engines.iter().position(|e| e.name == name).ok_or_else(|| RunError::NotInRun {
            unit: "pair",
            part: format!("engine '{name}'"),
            whole: "run",
        })
    }
}

/// The judge of a finished pair, in its transaction: the SPRT's step, and a
/// family's decisions by the sequential Holm procedure
/// (`reports::stats::family`), each candidate's LLR from its pairing's
/// stored counts.
impl db::Judge for PairWork {
    fn step(&self, counts: &PairingCounts) -> Option<SprtStep> {
        self.judge(counts)
    }

    fn is_family(&self) -> bool {
        self.family().is_some()
    }

    fn decide(&self, counts: &[PairingCounts], decided: &[FamilyVerdict]) -> Vec<FamilyVerdict> {
        let (Some(family), Some(test)) = (self.family(), self.spec.kind.sprt()) else { return Vec::new() };
        let tally = |(a, b): &(String, String)| {
            counts.iter().find(|c| c.engine_a == *a && c.engine_b == *b).map(|c| c.tally).unwrap_or_default()
        };
        let tallies: Vec<Tally> = self.names.iter().map(tally).collect();
        let llrs: Vec<f64> = tallies.iter().map(|t| llr_of_tally(&test, t)).collect();
        family
            .step(&llrs, &decisions(&self.names, decided))
            .into_iter()
            .map(|d| FamilyVerdict {
                engine_a: self.names[d.candidate].0.clone(),
                engine_b: self.names[d.candidate].1.clone(),
                verdict: d.verdict,
                llr: llrs[d.candidate],
                pairs: tallies[d.candidate].pentanomial.iter().sum(),
            })
            .collect()
    }

    fn verdict(&self, decided: &[FamilyVerdict]) -> model::Verdict {
        let Some(family) = self.family() else { return model::Verdict::Inconclusive };
        family.verdict(&decisions(&self.names, decided))
    }
}

/// A family's stored decisions as the procedure reads them: each naming
/// its candidate by its place among the pairings (`names`, the spec's
/// order), in the order taken. The judge and every view read them so.
pub fn decisions(names: &[(String, String)], decided: &[FamilyVerdict]) -> Vec<Decision> {
    decided
        .iter()
        .filter_map(|v| {
            let candidate = names.iter().position(|(a, b)| *a == v.engine_a && *b == v.engine_b)?;
            Some(Decision { candidate, verdict: v.verdict })
        })
        .collect()
}

/// Stores a game: its I/O log first (compressed and appended on a
/// blocking thread, its place named in the record), then `store` (the
/// game's database write). A log that cannot be written costs the log,
/// never the game (one warning); a full disk stores the game without it
/// and then stops the run as the database's does (the pair is replayed
/// whole by `arena resume`).
async fn store_game<T, F>(
    log: Option<IoLog>,
    mut record: GameRecord,
    store: impl FnOnce(GameRecord) -> F,
) -> Result<T, RunError>
where
    F: std::future::Future<Output = Result<T, RunError>>,
{
    record.machine = crate::util::machine_name();
    let mut full = None;
    if let Some(log) = log {
        let fault = record.termination.is_fault();
        match tokio::task::spawn_blocking(move || log.store(fault)).await {
            Ok(Ok(place)) => record.io_log = Some(place),
            Ok(Err(e @ LogError::DiskFull(_))) => full = Some(e),
            Ok(Err(e)) => warn_log_lost(&e),
            Err(e) => warn_log_lost(&e),
        }
    }
    let stored = store(record).await;
    match full {
        Some(full) if stored.is_ok() => Err(full.into()),
        _ => stored,
    }
}

fn warn_log_lost(error: &(dyn std::error::Error + 'static)) {
    crate::term::warn(&format!("{}; the game is kept without it", crate::util::one_line(error)));
}

impl PairWork {
    /// Stores a pair's second game and finishes the pair (see
    /// [`Db::finish_pair`]); what it did, for the progress line.
    async fn finish(
        self: Arc<Self>,
        db: Db,
        pair: ClaimedPair,
        record: GameRecord,
        log: Option<IoLog>,
        tuning: Option<model::tune::Perturbation>,
        faulted: bool,
    ) -> Result<Played, RunError> {
        let step = match (self.spec.kind.tune(), &tuning) {
            (Some(spsa), Some(perturbation)) => Some(TuneStep { spsa, perturbation }),
            _ => None,
        };
        let (work, db_ref, pair_ref) = (&*self, &db, &pair);
        let finished =
            store_game(
                log,
                record,
                |record| async move { Ok(db_ref.finish_pair(pair_ref, &record, work, step).await?) },
            )
            .await;
        let Some(commit) = finished.map_err(on_failure)? else {
            return Ok(Played::LeaseLost);
        };
        let pairs_done: u64 = commit.counts.tally.pentanomial.iter().sum();
        if let Err(e) = self.watch_machines(&db, faulted, pairs_done).await {
            crate::term::warn(&format!(
                "run {}: the machines could not be checked ({e}); the pair is stored",
                self.run
            ));
        }
        let mut status = self.status(&commit.counts, commit.sprt.as_ref().map(|step| step.llr));
        if let (Some(spsa), Some(theta)) = (self.spec.kind.tune(), &commit.theta) {
            let values: Vec<String> =
                spsa.params.iter().zip(theta).map(|(p, v)| format!("{}={v:.1}", p.name)).collect();
            status = format!("{}  θ {}", status, values.join(" "));
        }
        Ok(Played::Stored(Stored { added: 2, status, run_finished: commit.run_finished }))
    }
}

/// Machines are checked for residuals every this many finished pairs of a
/// pairing (for faults, after every pair with a fault).
const RESIDUAL_EVERY: u64 = 16;

impl PairWork {
    /// Sets aside the machines the run's rule picks (see
    /// `reports::stats::machines`): after a pair with a fault, its faults;
    /// every [`RESIDUAL_EVERY`] pairs, the residuals too. Nothing with one machine.
    async fn watch_machines(&self, db: &Db, faulted: bool, pairs_done: u64) -> Result<(), DbError> {
        let rule = self.spec.machines;
        let residual_time = pairs_done.is_multiple_of(RESIDUAL_EVERY);
        if rule.set_aside_p <= 0.0 || !(faulted || residual_time) {
            return Ok(());
        }
        let faults = db.machine_faults(self.run).await?;
        if faults.len() < 2 {
            return Ok(());
        }
        let residuals = match residual_time {
            true => residuals(&pair_scores(&db.pair_counts(self.run).await?)),
            false => Vec::new(),
        };
        let states = db.machine_states(self.run).await?;
        for (machine, why) in to_set_aside(&faults, &residuals, rule.set_aside_p) {
            if states.iter().any(|s| s.machine == machine && (s.readmitted || s.set_aside.is_some())) {
                continue;
            }
            if db.set_aside(self.run, &machine, &why, !rule.count_set_aside).await? {
                crate::term::warn(&format!("run {}: machine {machine} set aside: {why}", self.run));
            }
        }
        Ok(())
    }
}

impl Work for PairWork {
    type Unit = ClaimedPair;

    /// A pair of an engine this process does not have (the run was
    /// extended after it was read) is given back: [`RunError::Changed`].
    async fn claim(&self, slot: &Slot) -> Result<Option<ClaimedPair>, RunError> {
        let Some(pair) = slot.db().claim_pair(self.run, slot.name(), slot.lease()).await? else {
            return Ok(None);
        };
        let plan = &pair.plan;
        if let Some(new) = [&plan.engine_a, &plan.engine_b].into_iter().find(|name| self.engine(name).is_err()) {
            let engine = new.clone();
            slot.db().release_pair(&pair).await?;
            return Err(RunError::Changed { run: self.run, engine });
        }
        Ok(Some(pair))
    }

    async fn play(
        self: Arc<Self>,
        slot: &mut Slot,
        pair: &ClaimedPair,
        _stop: &watch::Receiver<Stop>,
    ) -> Result<Outcome, RunError> {
        let plan = &pair.plan;
        let opening = self.opening(plan);
        let (ia, ib) = (self.engine(&plan.engine_a)?, self.engine(&plan.engine_b)?);
        let db = slot.db().clone();
        let engines = [(&self.spec.engines[ia], &self.tcs[ia]), (&self.spec.engines[ib], &self.tcs[ib])];
        let tuning = self.perturbation(&db, plan).await?;
        let [first_log, second_log] = [slot.io_log(self.run), slot.io_log(self.run)];
        let [a, b] = slot.players(self.run, engines)?;
        if let Some((spsa, p)) = &tuning {
            a.vary_options(spsa.options(&p.plus));
            b.vary_options(spsa.options(&p.minus));
        }
        let rules = game::Rules {
            adjudication: self.adjudication,
            tablebase: self.tablebase.as_ref(),
            check_mate_pvs: self.spec.check_mate_pvs,
            log: None,
        };
        let mut record = game::play(a, b, &opening, game::Rules { log: first_log.as_ref(), ..rules })
            .await
            .map_err(|e| on_failure(e.into()))?;
        record.tc_scale = self.clock_scale;
        self.warn_pv_issues(plan.index, 1, &record);
        self.warn_time_forfeit(plan.index, 1, &record);
        let first_faulted = record.termination.is_fault();
        // The first game is stored (and its log written) while the second
        // is played: the slot does not wait for the database between them.
        // Storing fails or the lease is gone: the second game is wasted,
        // and the pair goes back whole as before.
        let (saved, second) = tokio::join!(
            store_game(first_log, record, |record| {
                let db = &db;
                async move { Ok(db.save_first_game(pair, &record).await?) }
            }),
            game::play(b, a, &opening, game::Rules { log: second_log.as_ref(), ..rules })
        );
        if !saved.map_err(on_failure)? {
            return Ok(Outcome::Done(Played::LeaseLost));
        }
        let mut record = second.map_err(|e| on_failure(e.into()))?;
        record.tc_scale = self.clock_scale;
        self.warn_pv_issues(plan.index, 2, &record);
        self.warn_time_forfeit(plan.index, 2, &record);
        let faulted = first_faulted || record.termination.is_fault();
        let tuning = tuning.map(|(_, perturbation)| perturbation);
        let tune = self.spec.kind.tune().is_some();
        let finish = self.finish(db, pair.clone(), record, second_log, tuning, faulted);
        Ok(if tune {
            // SPSA: the next iteration starts from the θ this one moves.
            Outcome::Done(finish.await?)
        } else {
            // The slot claims its next pair, then stores this one while the
            // engines play that pair's first game.
            Outcome::Storing(Box::pin(finish))
        })
    }

    async fn renew(&self, db: &Db, lease: Duration, pair: &ClaimedPair) -> Result<bool, DbError> {
        db.renew_lease(pair, lease).await
    }

    async fn release(&self, db: &Db, pair: &ClaimedPair) -> Result<(), DbError> {
        db.release_pair(pair).await
    }

    async fn more_may_come(&self, db: &Db) -> Result<bool, RunError> {
        let info = db.run(self.run).await?;
        Ok(info.status == RunStatus::Running && info.pairs_done < info.pairs_planned)
    }

    fn describe(&self, pair: &ClaimedPair) -> String {
        format!("run {} pair {}", self.run, pair.plan.index)
    }

    fn run_of(&self, _unit: &Self::Unit) -> i64 {
        self.run
    }
}
