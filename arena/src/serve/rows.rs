//! What the runs list shows of each run, read from the database: the same
//! counts, Elo and LLR that `arena show` prints (the `reports` statistics
//! over the stored tallies), the pace of its latest games and the slots
//! holding its units now.

use db::{Db, DbError};
use model::{RunInfo, RunStatus, Spec};
use reports::stats::scaling::{Trend, budget_trend};
use reports::stats::sprt::llr;
use reports::stats::{Counts, summarize};
use serde::Serialize;

use crate::reporting::done_and_planned;

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
    /// Its Elo (pentanomial) and the half-width of the 95 % interval.
    pub elo: Option<(f64, f64)>,
    /// The Elo as every view prints it: `+12.3 ± 4.5`, or the one-sided
    /// bound of a sample that lost nothing or won nothing, `> +507.3 (all won)`.
    pub elo_text: Option<String>,
    /// A scaling run's Elo per doubling of the budget, with its interval
    /// and p-value, as its report's trend line states it.
    pub trend: Option<Trend>,
    /// The SPRT's LLR with its lower and upper bound.
    pub llr: Option<(f64, f64, f64)>,
    /// Seconds to the end at the pace of the latest games (running runs).
    pub eta_s: Option<f64>,
    /// Game slots holding a unit of it now (`host:pid/index`); `seats` in
    /// the JSON API, its name there since the API appeared.
    #[serde(rename = "seats")]
    pub slots: Vec<String>,
    /// Workers take higher priorities first.
    pub priority: i64,
    /// Created, Unix ms.
    pub created_ms: i64,
}

/// A running run's seconds to go from the finishing times of its latest
/// games (newest first); `None` without a recent pace.
fn eta(times: &[i64], left: i64) -> Option<f64> {
    let (newest, oldest) = (*times.first()?, *times.last()?);
    let stale = model::now_ms() - newest > 10 * 60_000;
    if times.len() < 2 || newest <= oldest || stale {
        return None;
    }
    let per_ms = (times.len() - 1) as f64 / (newest - oldest) as f64;
    Some(left.max(0) as f64 / per_ms / 1000.0)
}

/// The row of `run`.
///
/// # Errors
///
/// A database failure.
pub async fn run_row(db: &Db, run: &RunInfo) -> Result<RunRow, DbError> {
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
        slots: db.slots_on(run.id).await?,
        priority: run.priority,
        created_ms: run.created_ms,
    };
    match &spec {
        Some(Spec::Games(games)) if !games.budgets.is_empty() => {
            row.time_control = games.budgets.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ");
            let counts = db.pairing_counts(run.id).await?;
            let points = games.pairing_names().into_iter().zip(&games.budgets).filter_map(|((a, b), tc)| {
                let pairing = counts.iter().find(|c| c.engine_a == a && c.engine_b == b)?;
                let summary = summarize(&Counts::pairs(&pairing.tally))?;
                Some((tc.budget()?, summary.elo, [summary.elo_ci95.0, summary.elo_ci95.1]))
            });
            row.trend = budget_trend(points);
        }
        Some(Spec::Games(games)) => {
            row.time_control = games.tc.to_string();
            let counts = db.pairing_counts(run.id).await?;
            let names = games.pairing_names();
            if let Some((a, b)) = names.first()
                && let Some(first) = counts.iter().find(|c| &c.engine_a == a && &c.engine_b == b)
            {
                let tally = first.tally;
                row.wdl = Some([tally.wins, tally.draws, tally.losses]);
                let counts = Counts::pairs(&tally);
                let summary = summarize(&counts);
                row.elo = summary.as_ref().map(|s| (s.elo, (s.elo_ci95.1 - s.elo_ci95.0) / 2.0));
                row.elo_text = summary.as_ref().map(reports::stats::Summary::elo_text);
                if let Some(test) = games.sprt {
                    let bounds = test.bounds();
                    row.llr = Some((llr(&test, &counts), bounds.lower, bounds.upper));
                }
            }
        }
        Some(Spec::Suite(suite)) => {
            row.time_control = suite.limits.iter().map(model::SuiteLimit::label).collect::<Vec<_>>().join(", ");
        }
        None => {}
    }
    if run.status == RunStatus::Running && !matches!(spec, Some(Spec::Suite(_))) {
        row.eta_s = eta(&db.recent_game_times(run.id).await?, row.planned - row.done);
    }
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::term::duration;

    #[test]
    fn eta_from_the_pace_of_recent_games() {
        let now = model::now_ms();
        // 11 games over 10 s: one per second; 30 left → 30 s.
        let times: Vec<i64> = (0..11).map(|i| now - i * 1000).collect();
        assert!((eta(&times, 30).unwrap() - 30.0).abs() < 1e-9);
        assert_eq!(eta(&times[..1], 30), None);
        let old: Vec<i64> = times.iter().map(|t| t - 3_600_000).collect();
        assert_eq!(eta(&old, 30), None, "a stale pace gives no ETA");
        assert_eq!(duration(42.4), "42s");
        assert_eq!(duration(190.0), "3m10s");
        assert_eq!(duration(3720.0), "1h02m");
    }
}
