//! What the runs list shows of each run, read from the database: the same
//! counts, Elo and LLR that `arena show` prints (the `reports` statistics
//! over the stored tallies), the pace of its latest games and the slots
//! holding its units now.

use db::{Db, DbError};
use model::{GamesKind, GamesSpec, PairingCounts, RunInfo, RunStatus, Spec};
use reports::report::{Align, Table};
use reports::stats::Counts;
use reports::stats::answer::Answer;
use reports::stats::scaling::{Trend, budget_trend, slope_text};
use reports::summary::Statistics;
use serde::Serialize;

use crate::reporting::done_and_planned;
use crate::term::duration;

/// One run in the list (`GET /api/runs`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunRow {
    /// Run id.
    pub id: i64,
    /// `elo`, `match`, `tournament`, `sprt`, `suite` or `tune`.
    pub kind: String,
    /// `running`, `stopped` or `finished`.
    pub status: String,
    /// SPRT verdict, if any.
    pub verdict: Option<String>,
    /// Engine names.
    pub engines: Vec<String>,
    /// Time control (a suite: its limits).
    pub time_control: String,
    /// Games stored (a suite: answers).
    pub done: i64,
    /// Games planned (a suite: answers).
    pub planned: i64,
    /// The first pairing's wins, draws and losses of A (none for a scaling
    /// run: its `trend` is the run's number).
    pub wdl: Option<[u64; 3]>,
    /// Its Elo and the half-width of the 95 % interval, from the run's one
    /// model (pairs when played as pairs, else games); `None` without a
    /// two-sided interval (too few to decide, all won or all lost).
    pub elo: Option<(f64, f64)>,
    /// The Elo as every view prints it: `+12.3 ± 4.5`, `> +439.4 (all
    /// won)`, or `+77.7 (too few pairs for an interval)`; for a tournament
    /// its leader: `3 pairings, leader fhr 7.5/12`.
    pub elo_text: Option<String>,
    /// A scaling run's Elo per doubling of the budget, with its interval
    /// and p-value, as its report's trend line states it.
    pub trend: Option<Trend>,
    /// The SPRT's LLR with its lower and upper bound.
    pub llr: Option<(f64, f64, f64)>,
    /// Seconds to the end at the pace of the latest games (running runs).
    pub eta_s: Option<f64>,
    /// Game slots holding a unit of it now (`host:pid/index`).
    pub slots: Vec<String>,
    /// The same slots under the name the JSON API first gave them, kept
    /// for the clients that read it.
    pub seats: Vec<String>,
    /// Workers take higher priorities first.
    pub priority: i64,
    /// Created, Unix ms.
    pub created_ms: i64,
}

impl RunRow {
    /// The run's number as every list of runs shows it: a scaling run's
    /// slope with its interval, else the first pairing's Elo.
    pub fn result(&self) -> Option<String> {
        self.trend.as_ref().map(slope_text).or_else(|| self.elo_text.clone())
    }

    /// The engines, a scaling run's A and B once (not a copy per budget).
    pub fn engine_names(&self) -> Vec<&str> {
        let names = self.engines.iter().map(String::as_str);
        if self.kind == "scale" { model::base_names(names) } else { names.collect() }
    }
}

/// The runs list as one table, drawn as text by `arena runs` and as HTML
/// by the dashboard: the run, its progress and verdict, its engines and
/// time control, the slots playing it and its priority, then the first
/// pairing's W-D-L and Elo (a scaling run's slope), the LLR and the ETA.
/// Suite runs store answers, not games: the games column counts answers there.
pub fn runs_table(rows: &[RunRow]) -> Table {
    let columns = [
        ("run", Align::Right),
        ("kind", Align::Left),
        ("status", Align::Left),
        ("games/answers", Align::Right),
        ("verdict", Align::Left),
        ("engines", Align::Left),
        ("time control", Align::Left),
        ("slots", Align::Right),
        ("priority", Align::Right),
        ("W-D-L", Align::Right),
        ("Elo (scale: per doubling)", Align::Right),
        ("LLR (bounds)", Align::Right),
        ("ETA", Align::Right),
    ];
    let cells = |row: &RunRow| {
        vec![
            row.id.to_string(),
            row.kind.clone(),
            row.status.clone(),
            format!("{}/{}", row.done, row.planned),
            row.verdict.clone().unwrap_or_default(),
            row.engine_names().join(","),
            row.time_control.clone(),
            if row.slots.is_empty() { String::new() } else { row.slots.len().to_string() },
            row.priority.to_string(),
            row.wdl.map_or(String::new(), |[w, d, l]| format!("{w}-{d}-{l}")),
            row.result().unwrap_or_default(),
            row.llr.map_or(String::new(), |(llr, low, high)| format!("{llr:.2} ({low:.2}, {high:.2})")),
            row.eta_s.map_or(String::new(), duration),
        ]
    };
    Table::new(&columns, rows.iter().map(cells).collect())
}

/// The games still to play of one pairing, and its budget (a scaling run's
/// nodes, depth or milliseconds: `TimeControl::budget`) if it has one.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Left {
    games: i64,
    budget: Option<f64>,
}

/// A run with no game in flight for longer than this was not being played
/// (its workers were stopped), not waiting for a slot: the pace leaves that
/// time out, and a run whose newest game is older than this has no ETA.
const IDLE_MS: i64 = 10 * 60_000;

/// A running run's seconds to go: each pairing's games left at what its
/// latest games took, over the game time the run gets per second of wall
/// time while it is played (its pace, which counts the slots playing it).
/// A pairing without a recent game costs what a power law fitted to the
/// measured budgets gives at its budget (a scaling run's larger budgets,
/// still ahead, cost more), else the mean game. `recent` is newest first,
/// each game with its pairing; `total` is the games left of the whole run.
/// `None` without a recent pace.
fn eta(recent: &[(Option<usize>, i64, i64)], pairings: &[Left], total: i64) -> Option<f64> {
    let (newest, oldest) = (recent.first()?.2, recent.last()?.2);
    let stale = model::now_ms() - newest > IDLE_MS;
    let played_ms = newest - oldest - idle_ms(recent);
    if recent.len() < 2 || played_ms <= 0 || stale {
        return None;
    }
    let took = |&(_, started, finished): &(Option<usize>, i64, i64)| (finished - started).max(1) as f64;
    let game_ms_per_ms = recent[..recent.len() - 1].iter().map(took).sum::<f64>() / played_ms as f64;
    let mean = recent.iter().map(took).sum::<f64>() / recent.len() as f64;
    let measured: Vec<Option<f64>> = (0..pairings.len())
        .map(|p| {
            let times: Vec<f64> = recent.iter().filter(|g| g.0 == Some(p)).map(took).collect();
            (!times.is_empty()).then(|| times.iter().sum::<f64>() / times.len() as f64)
        })
        .collect();
    let law = power_law(pairings.iter().zip(&measured).filter_map(|(left, ms)| Some((left.budget?, (*ms)?))));
    let cost = |p: usize| {
        measured[p]
            .or_else(|| Some(law?.0 * pairings[p].budget?.powf(law?.1)))
            .filter(|c| c.is_finite())
            .unwrap_or(mean)
    };
    let weights: i64 = pairings.iter().map(|l| l.games.max(0)).sum();
    let per_game = if weights > 0 {
        pairings.iter().enumerate().map(|(p, l)| l.games.max(0) as f64 * cost(p)).sum::<f64>() / weights as f64
    } else {
        mean
    };
    Some(total.max(0) as f64 * per_game / game_ms_per_ms / 1000.0)
}

/// The wall time between `games` (`(pairing, started, finished)`) with none
/// of them in flight, in stretches longer than [`IDLE_MS`]: a worker
/// stopped overnight and started again leaves such a stretch among a run's
/// latest games.
fn idle_ms(games: &[(Option<usize>, i64, i64)]) -> i64 {
    let mut spans: Vec<(i64, i64)> = games.iter().map(|&(_, started, finished)| (started, finished)).collect();
    spans.sort_unstable();
    let Some(&(_, first_end)) = spans.first() else { return 0 };
    let mut idle = 0;
    let mut busy_until = first_end;
    for &(started, finished) in &spans[1..] {
        if started - busy_until > IDLE_MS {
            idle += started - busy_until;
        }
        busy_until = busy_until.max(finished);
    }
    idle
}

/// `(c, k)` of `cost = c · budget^k` fitted (least squares on the logs) to
/// measured `(budget, cost)` points; one budget alone gives `k = 1`, a cost
/// in proportion to the budget. `None` without a positive point.
fn power_law(points: impl Iterator<Item = (f64, f64)>) -> Option<(f64, f64)> {
    let logs: Vec<(f64, f64)> = points.filter(|&(b, c)| b > 0.0 && c > 0.0).map(|(b, c)| (b.ln(), c.ln())).collect();
    let n = logs.len() as f64;
    let (mx, my) = (logs.iter().map(|p| p.0).sum::<f64>() / n, logs.iter().map(|p| p.1).sum::<f64>() / n);
    let sxx: f64 = logs.iter().map(|p| (p.0 - mx).powi(2)).sum();
    let sxy: f64 = logs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let k = if sxx > 1e-12 { sxy / sxx } else { 1.0 };
    (!logs.is_empty()).then(|| ((my - k * mx).exp(), k))
}

/// The rows of `runs`, in their order. Their slots and counts are read
/// for all of them at once: two statements a page, not two a run.
///
/// # Errors
///
/// A database failure.
pub async fn run_rows(db: &Db, runs: &[RunInfo]) -> Result<Vec<RunRow>, DbError> {
    let ids: Vec<i64> = runs.iter().map(|run| run.id).collect();
    let (mut slots, mut counts) = (db.slots_of(&ids).await?, db.pairing_counts_of(&ids).await?);
    let mut verdicts = db.family_verdicts_of(&ids).await?;
    let mut rows = Vec::with_capacity(runs.len());
    for run in runs {
        let (run_slots, run_counts) =
            (slots.remove(&run.id).unwrap_or_default(), counts.remove(&run.id).unwrap_or_default());
        let decided = verdicts.remove(&run.id).unwrap_or_default();
        rows.push(run_row(db, run, run_slots, run_counts, &decided).await?);
    }
    Ok(rows)
}

/// The row of `run`, given its live slots and its pairings' counts.
async fn run_row(
    db: &Db,
    run: &RunInfo,
    slots: Vec<String>,
    counts: Vec<PairingCounts>,
    decided: &[db::FamilyVerdict],
) -> Result<RunRow, DbError> {
    let spec = Spec::of(run).ok();
    let (done, planned) = done_and_planned(db, run, spec.as_ref()).await?;
    let mut row = RunRow {
        id: run.id,
        kind: run.kind.as_str().to_string(),
        status: run.status.as_str().to_string(),
        verdict: run.verdict.map(|v| v.as_str().to_string()),
        engines: spec.as_ref().map(|s| s.engines().iter().map(|e| e.name.clone()).collect()).unwrap_or_default(),
        time_control: String::new(),
        done,
        planned,
        wdl: None,
        elo: None,
        elo_text: None,
        trend: None,
        llr: None,
        eta_s: None,
        seats: slots.clone(),
        slots,
        priority: run.priority,
        created_ms: run.created_ms,
    };
    match &spec {
        Some(Spec::Games(games)) => {
            // Read once: the Elo or trend and the ETA all use them.
            let counts = crate::reporting::counted_once(db, run.id, games, counts).await?;
            if let GamesKind::Scale(budgets) = &games.kind {
                row.time_control = budgets.0.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
                row.trend = trend(&counts, games, budgets);
            } else {
                row.time_control = games.tc.as_ref().map_or_else(|| "unknown".into(), ToString::to_string);
                match crate::reporting::family_inputs(games, run, decided) {
                    Some(family) => row.elo_text = Some(family_text(&counts, games, &family)),
                    None => result(&counts, games, run, &mut row),
                }
            }
            if run.status == RunStatus::Running {
                row.eta_s = games_eta(db, run, games, &counts, row.planned - row.done).await?;
            }
        }
        Some(Spec::Suite(suite)) => {
            row.time_control = suite.limits.iter().map(model::SuiteLimit::label).collect::<Vec<_>>().join(", ");
        }
        None => {}
    }
    Ok(row)
}

/// A scaling run's trend: Elo per doubling of the budget over the budgets
/// played, as its report computes it.
fn trend(counts: &[PairingCounts], games: &GamesSpec, budgets: &model::Budgets) -> Option<Trend> {
    let points = games.pairing_names().into_iter().zip(&budgets.0).filter_map(|((a, b), tc)| {
        let pairing = counts.iter().find(|c| c.engine_a == a && c.engine_b == b)?;
        let (elo, interval) = Answer::of(&Counts::pairs(&pairing.tally))?.point()?;
        Some((tc.budget()?, elo, interval))
    });
    budget_trend(points)
}

/// A match's W-D-L, Elo and, for an SPRT, LLR into `row`, with the
/// verdict of a run that ended without an SPRT's (from the same model as
/// its report's); a tournament's number of pairings and its leader.
fn result(counts: &[PairingCounts], games: &GamesSpec, run: &RunInfo, row: &mut RunRow) {
    let names = games.pairing_names();
    if names.len() > 1 {
        row.elo_text = Some(leader(counts, names.len()));
        return;
    }
    let Some((a, b)) = names.first() else { return };
    let Some(first) = counts.iter().find(|c| &c.engine_a == a && &c.engine_b == b) else { return };
    let tally = first.tally;
    row.wdl = Some([tally.wins, tally.draws, tally.losses]);
    let paired = games.kind.imported().iter().all(|f| f.unpaired == 0);
    let wdl = (tally.wins, tally.draws, tally.losses);
    // The SPRT's figures as the report computes them (a run that ran out of
    // pairs first keeps its stored `inconclusive`): its LLR and the verdict
    // the counts give, and once it stopped, the estimate corrected for the
    // stop as the headline.
    let test = games.kind.sprt();
    let inconclusive = run.verdict.filter(|v| *v == model::Verdict::Inconclusive);
    let statistics = Statistics::new(Some(wdl), paired.then_some(tally.pentanomial), test, inconclusive);
    if let Some(estimate) = &statistics.estimate {
        row.elo = estimate.point().map(|(elo, [low, high])| (elo, (high - low) / 2.0));
        row.elo_text = Some(estimate.elo_text.clone());
    }
    if let Some(sprt) = &statistics.sprt {
        row.llr = Some((sprt.llr, sprt.lower, sprt.upper));
        row.verdict = sprt.verdict.map(|v| v.as_str().to_string());
        if let Some(q) = &statistics.sequential {
            let [low, high] = q.elo_ci95;
            row.elo = Some((q.elo, (high - low) / 2.0));
            row.elo_text = Some(format!(
                "{} {} (SPRT-corrected)",
                reports::stats::signed(q.elo),
                reports::stats::interval(low, high)
            ));
        }
    } else if run.status == RunStatus::Finished
        && matches!(games.kind, GamesKind::Elo | GamesKind::Match | GamesKind::Import(_))
    {
        row.verdict = short_verdict(&statistics, a, b);
    }
}

/// A family's candidates in a few words, each read as its report reads it
/// (under the test the family gave it): `nmp2 H0, fhr H1 +12.3 [+1.0,
/// +24.9] (SPRT-corrected), vnm running`.
fn family_text(counts: &[PairingCounts], games: &GamesSpec, family: &reports::report::FamilyInputs) -> String {
    let words: Vec<String> = games
        .pairing_names()
        .iter()
        .zip(family.tests())
        .map(|((a, b), (test, last))| {
            let tally =
                counts.iter().find(|c| &c.engine_a == a && &c.engine_b == b).map(|c| c.tally).unwrap_or_default();
            let wdl = (tally.wins, tally.draws, tally.losses);
            let statistics = Statistics::new(
                Some(wdl),
                Some(tally.pentanomial),
                Some(test),
                last.filter(|v| *v == model::Verdict::Inconclusive),
            );
            let state = statistics.sprt.as_ref().and_then(|s| s.verdict).map_or("running", model::Verdict::as_str);
            match &statistics.sequential {
                Some(q) => format!(
                    "{a} {state} {} {} (SPRT-corrected)",
                    reports::stats::signed(q.elo),
                    reports::stats::interval(q.elo_ci95[0], q.elo_ci95[1])
                ),
                None => format!("{a} {state}"),
            }
        })
        .collect();
    format!("{} candidates: {}", words.len(), words.join(", "))
}

/// The verdict of a finished run's statistics in a few words:
/// `fhr stronger`, `not significant`, `too few pairs`.
fn short_verdict(statistics: &Statistics, a: &str, b: &str) -> Option<String> {
    let estimate = statistics.estimate.as_ref()?;
    Some(match (estimate.elo_ci95.is_some(), estimate.significant(), statistics.score > 0.5) {
        (false, _, _) => format!("too few {}", estimate.model.noun()),
        (true, true, true) => format!("{a} stronger"),
        (true, true, false) => format!("{b} stronger"),
        (true, false, _) => "not significant".to_string(),
    })
}

/// A tournament's pairings and the engine with the most points so far.
fn leader(counts: &[PairingCounts], pairings: usize) -> String {
    let mut points: Vec<(String, f64, u64)> = Vec::new();
    let mut add = |name: &str, scored: f64, games: u64| match points.iter_mut().find(|p| p.0 == name) {
        Some(entry) => {
            entry.1 += scored;
            entry.2 += games;
        }
        None => points.push((name.to_string(), scored, games)),
    };
    for c in counts {
        let t = &c.tally;
        let (a_points, games) = (t.wins as f64 + t.draws as f64 / 2.0, t.games());
        add(&c.engine_a, a_points, games);
        add(&c.engine_b, games as f64 - a_points, games);
    }
    let best = points.iter().max_by(|x, y| (x.1 / x.2.max(1) as f64).total_cmp(&(y.1 / y.2.max(1) as f64)));
    match best {
        Some((name, scored, games)) if *games > 0 => format!("{pairings} pairings, leader {name} {scored}/{games}"),
        _ => format!("{pairings} pairings"),
    }
}

/// [`eta`] of a run of games: its latest games matched to their pairings
/// (either colour), and each pairing's games left (the planned games shared
/// evenly, less those it has scored).
async fn games_eta(
    db: &Db,
    run: &RunInfo,
    games: &GamesSpec,
    counts: &[PairingCounts],
    total: i64,
) -> Result<Option<f64>, DbError> {
    let names = games.pairing_names();
    let recent: Vec<(Option<usize>, i64, i64)> = db
        .recent_games(run.id)
        .await?
        .into_iter()
        .map(|g| {
            let pairing =
                names.iter().position(|(a, b)| (a, b) == (&g.white, &g.black) || (a, b) == (&g.black, &g.white));
            (pairing, g.started_ms, g.finished_ms)
        })
        .collect();
    let each = 2 * run.pairs_planned / names.len().max(1) as i64;
    let left: Vec<Left> = names
        .iter()
        .enumerate()
        .map(|(p, (a, b))| {
            let scored = counts.iter().find(|c| (&c.engine_a, &c.engine_b) == (a, b)).map_or(0, |c| {
                let t = c.tally;
                (t.wins + t.draws + t.losses) as i64
            });
            Left { games: each - scored, budget: games.kind.budgets().get(p).and_then(model::TimeControl::budget) }
        })
        .collect();
    Ok(eta(&recent, &left, total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::duration;

    #[test]
    fn eta_from_the_pace_of_recent_games() {
        let now = model::now_ms();
        // 11 games of 1 s, one after another: 30 left → 30 s.
        let times: Vec<(Option<usize>, i64, i64)> =
            (0..11).map(|i| (Some(0), now - i * 1000 - 1000, now - i * 1000)).collect();
        let one = [Left { games: 30, budget: None }];
        assert!((eta(&times, &one, 30).unwrap() - 30.0).abs() < 1e-9);
        // Two slots playing 2 s games: the same pace of one game a second.
        let two: Vec<_> = times.iter().map(|&(p, _, f)| (p, f - 2000, f)).collect();
        assert!((eta(&two, &one, 30).unwrap() - 30.0).abs() < 1e-9);
        assert_eq!(eta(&times[..1], &one, 30), None);
        let old: Vec<_> = times.iter().map(|&(p, s, f)| (p, s - 3_600_000, f - 3_600_000)).collect();
        assert_eq!(eta(&old, &one, 30), None, "a stale pace gives no ETA");
        // The older half of the games moved `ms` back: a pause between them.
        let pause = |ms: i64| -> Vec<_> {
            times.iter().map(|&(p, s, f)| if f <= now - 5000 { (p, s - ms, f - ms) } else { (p, s, f) }).collect()
        };
        // The worker stopped for an hour halfway: the hour is not counted
        // as pace, so the same 30 s.
        let paused = pause(3_600_000);
        assert_eq!(idle_ms(&paused), 3_600_000);
        assert!((eta(&paused, &one, 30).unwrap() - 30.0).abs() < 1e-9);
        // Five minutes without a game of the run (its slots playing other
        // runs' games) is part of its pace: 10 s of games in 310 s.
        let waited = pause(300_000);
        assert_eq!(idle_ms(&waited), 0);
        assert!((eta(&waited, &one, 30).unwrap() - 930.0).abs() < 1e-9);
        assert_eq!(duration(42.4), "42s");
        assert_eq!(duration(190.0), "3m10s");
        assert_eq!(duration(3720.0), "1h02m");
    }

    /// A scaling run whose larger budgets are still ahead: their games cost
    /// what the measured budgets' power law gives, not the mean game.
    #[test]
    fn a_budget_without_games_costs_what_the_measured_ones_grow_by() {
        let now = model::now_ms();
        // One slot alternating budgets 1000 (1 s games) and 4000 (2 s games:
        // cost ∝ budget^0.5); the 16000 budget has not started.
        let mut recent = Vec::new();
        let mut end = now;
        for i in 0..20 {
            let (p, ms) = if i % 2 == 0 { (0, 1000) } else { (1, 2000) };
            recent.push((Some(p), end - ms, end));
            end -= ms;
        }
        let left = |games: [i64; 3]| {
            [1000.0, 4000.0, 16000.0]
                .iter()
                .zip(games)
                .map(|(&b, g)| Left { games: g, budget: Some(b) })
                .collect::<Vec<_>>()
        };
        // 10 games at 16000 nodes: 4 s each on one slot.
        assert!((eta(&recent, &left([0, 0, 10]), 10).unwrap() - 40.0).abs() < 1e-6);
        // 2 + 2 + 2 games: 2 s + 4 s + 8 s.
        assert!((eta(&recent, &left([2, 2, 2]), 6).unwrap() - 14.0).abs() < 1e-6);
        // A run without budgets: the pairing without games costs the mean (1.5 s).
        let plain = [Left { games: 0, budget: None }, Left { games: 0, budget: None }, Left { games: 4, budget: None }];
        assert!((eta(&recent, &plain, 4).unwrap() - 6.0).abs() < 1e-6);
        let (c, k) = power_law([(1000.0, 3.0)].into_iter()).unwrap();
        assert!((c - 0.003).abs() < 1e-12 && k == 1.0, "one budget: cost in proportion to it");
    }
}
