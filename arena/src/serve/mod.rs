//! `arena serve`: a live dashboard over the runs' own database, with run
//! control. Server-rendered HTML (the report's own blocks, drawn by
//! `reports`), a small inline script that refreshes a page's live part
//! without reloading it, and the same data as JSON under `/api/`. Built on
//! axum (tokio's own HTTP framework, already on tokio like the rest of
//! arena).
//!
//! | route | what |
//! |---|---|
//! | `GET /` | the runs: kind, engines, time control, games, W-D-L, Elo ± CI, LLR against its bounds, status, ETA, slots on it, priority |
//! | `GET /runs/{id}` | a run's full report, live; its controls |
//! | `GET /workers` | the processes that play (workers and local runs) seen in the last day (`?all=1`: all): last seen, run, units, games per minute, faults |
//! | `GET /live/…` | the live part of each page (what the script fetches) |
//! | `GET /api/runs`, `/api/runs/{id}`, `/api/workers` | the same as JSON (`/api/runs/{id}` is `arena report --format json`) |
//! | `POST /runs/{id}/stop`, `/resume`, `/priority`, `/readmit` (form field `machine`) | run control, a machine set aside readmitted; needs the token |
//!
//! Writes need the token given with `--token` or `ARENA_TOKEN` (form field
//! `token` or `Authorization: Bearer …`), compared in constant time; without
//! a token the server is read-only. Every write is logged with its time and
//! the client's address.

mod answer;
mod control;
mod pages;
mod rows;

pub use rows::{RunRow, run_rows, runs_table};

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::routing::{get, post};
use db::Db;
use model::RunStatus;

use crate::reporting::RunReport;

/// What the server is started with.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Where to listen.
    pub listen: SocketAddr,
    /// The write token; `None`: read-only.
    pub token: Option<String>,
    /// How often pages refresh their live part.
    pub refresh: Duration,
}

/// A run's report as last built, with its HTML.
pub(crate) struct CachedReport {
    report: RunReport,
    html: (String, String),
}

/// What a run's report was built from: its status, games, finished and
/// planned pairs, and which of its machines are set aside.
type ReportKey = (RunStatus, i64, i64, i64, Vec<(String, bool)>);

/// How many runs' reports the dashboard keeps built.
const REPORTS_KEPT: usize = 32;

/// The reports built last, each with what it was built from, at most
/// [`REPORTS_KEPT`] (the least recently asked for goes first): a dashboard
/// that stays up for months is asked for run after run.
pub(crate) struct Reports<K, V> {
    built: HashMap<i64, (K, V, u64)>,
    asked: u64,
}

impl<K: PartialEq, V: Clone> Reports<K, V> {
    fn new() -> Self {
        Reports { built: HashMap::new(), asked: 0 }
    }

    /// The report of `run` if it was built from `key`.
    fn get(&mut self, run: i64, key: &K) -> Option<V> {
        self.asked += 1;
        let (built_from, report, asked) = self.built.get_mut(&run)?;
        *asked = self.asked;
        (built_from == key).then(|| report.clone())
    }

    /// Keeps `report` of `run`, built from `key`, in place of the least
    /// recently asked for when full.
    fn put(&mut self, run: i64, key: K, report: V) {
        self.asked += 1;
        if !self.built.contains_key(&run)
            && self.built.len() >= REPORTS_KEPT
            && let Some(oldest) = self.built.iter().min_by_key(|(_, (_, _, asked))| *asked).map(|(run, _)| *run)
        {
            self.built.remove(&oldest);
        }
        self.built.insert(run, (key, report, self.asked));
    }
}

/// What every handler shares.
pub(crate) struct App {
    db: Db,
    /// Where full reports are read: on SQLite a connection of its own, so
    /// that building one does not hold up the pages and the controls on `db`.
    reports_db: Db,
    token: Option<String>,
    refresh: Duration,
    /// Per run: what its full report was last built from, and the report.
    reports: std::sync::Mutex<Reports<ReportKey, Arc<CachedReport>>>,
    /// Held while a full report is built: one build at a time, so a burst
    /// of requests after a new game builds it once.
    building: tokio::sync::Mutex<()>,
}

/// The router over `db`, with full reports read through `reports_db`.
fn router(db: Db, reports_db: Db, config: &ServeConfig) -> Router {
    let app = Arc::new(App {
        db,
        reports_db,
        token: config.token.clone(),
        refresh: config.refresh,
        reports: std::sync::Mutex::new(Reports::new()),
        building: tokio::sync::Mutex::new(()),
    });
    Router::new()
        .route("/", get(pages::runs_page))
        .route("/live/runs", get(pages::runs_live))
        .route("/runs/{id}", get(pages::run_page))
        .route("/live/runs/{id}", get(pages::run_live))
        .route("/workers", get(pages::workers_page))
        .route("/live/workers", get(pages::workers_live))
        .route("/api/runs", get(pages::api_runs))
        .route("/api/runs/{id}", get(pages::api_run))
        .route("/api/workers", get(pages::api_workers))
        .route("/runs/{id}/{action}", post(control::control))
        .fallback(pages::not_found)
        .method_not_allowed_fallback(pages::wrong_method)
        .with_state(app)
}

/// Serves until Ctrl-C or SIGTERM.
///
/// # Errors
///
/// [`ServeError`] when the address cannot be bound, or the server fails.
pub async fn run_dashboard(db: Db, config: ServeConfig) -> Result<(), ServeError> {
    let listener =
        tokio::net::TcpListener::bind(config.listen).await.map_err(|e| ServeError::Listen(config.listen, e))?;
    let address = listener.local_addr().map_err(ServeError::Stopped)?;
    if !address.ip().is_loopback() && config.token.is_none() {
        crate::term::warn(&format!(
            "listening on {address} without a token: anyone who can reach it reads every run \
             (writes stay refused); give --token or ARENA_TOKEN"
        ));
    }
    let mode = if config.token.is_some() { "control with the token" } else { "read-only (no --token)" };
    crate::term::note(&format!("serving {} on http://{address}/ ({mode}); Ctrl-C stops", db.describe()));
    let reports_db = db.reader().await.map_err(ServeError::Db)?;
    let app = router(db, reports_db, &config).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()).ok();
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                () = async { match term.as_mut() { Some(t) => { t.recv().await; } None => std::future::pending().await } } => {}
            }
        })
        .await
        .map_err(ServeError::Stopped)
}

/// Why the dashboard could not serve.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address cannot be bound.
    #[error("cannot listen on {0} (choose another with --listen)")]
    Listen(SocketAddr, #[source] std::io::Error),
    /// The server failed while serving.
    #[error("the server stopped")]
    Stopped(#[source] std::io::Error),
    /// The connection for reports could not be opened.
    #[error(transparent)]
    Db(#[from] db::DbError),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dashboard_keeps_the_reports_asked_for_last() {
        let mut reports: Reports<i64, String> = Reports::new();
        for run in 1..=REPORTS_KEPT as i64 {
            reports.put(run, 10, format!("report {run}"));
        }
        // Run 1 is asked for again, so run 2 is the least recently asked for.
        assert_eq!(reports.get(1, &10).as_deref(), Some("report 1"));
        reports.put(100, 10, "report 100".into());
        assert_eq!(reports.built.len(), REPORTS_KEPT);
        assert_eq!(reports.get(2, &10), None, "the oldest went");
        assert_eq!(reports.get(1, &10).as_deref(), Some("report 1"));
        assert_eq!(reports.get(100, &10).as_deref(), Some("report 100"));
        // A report built from other counts is not answered, and building it
        // again replaces it without pushing another out.
        assert_eq!(reports.get(3, &11), None);
        reports.put(3, 11, "report 3, newer".into());
        assert_eq!(reports.built.len(), REPORTS_KEPT);
        assert_eq!(reports.get(3, &11).as_deref(), Some("report 3, newer"));
        assert_eq!(reports.get(4, &10).as_deref(), Some("report 4"));
    }
}
