//! The dashboard's pages and their JSON: every page is a shell (navigation,
//! controls) around a live part that the inline script fetches again every
//! few seconds from `/live/…` and swaps in, so plots and tables move as
//! games arrive without a reload.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use db::DbError;
use reports::report::{Align, Table, html_escape as escape};

use super::answer::{ApiError, PageError, document};
use super::rows::{RunRow, run_rows, runs_table};
use super::{App, CachedReport, ReportKey};
use crate::reporting::{Ask, Detail, ReportError, report_of};
use crate::term::duration;

/// Refreshes `#live` from its `data-src` every `data-every` ms, swapping it
/// in only when it changed; a failed fetch is tried again at the next tick.
const SCRIPT: &str = "(()=>{const live=document.getElementById('live');if(!live)return;let last=null;\
const every=Number(live.dataset.every)||5000;\
async function tick(){try{const r=await fetch(live.dataset.src,{cache:'no-store'});\
if(r.ok){const t=await r.text();if(t!==last){last=t;live.innerHTML=t;}}}catch(e){}setTimeout(tick,every);}\
setTimeout(tick,every);})();";

/// A whole page: navigation, `before` (controls), the live part and the script.
fn page(app: &App, title: &str, live_src: &str, live: &str, before: &str) -> Html<String> {
    let database = app.db.describe().split(" (").next().map(escape).unwrap_or_default();
    document(
        title,
        &format!("<span class=\"muted\">arena {database}</span>"),
        &format!(
            "{before}<div id=\"live\" data-src=\"{}\" data-every=\"{}\">{live}</div>\n<script>{SCRIPT}</script>",
            escape(live_src),
            app.refresh.as_millis()
        ),
    )
}

/// A path's run id, or the 404 answer.
pub(super) fn run_id(text: &str) -> Option<i64> {
    text.parse::<i64>().ok().filter(|id| *id > 0)
}

/// Runs on a page of the runs list when the request does not say.
const RUNS_PER_PAGE: i64 = 50;

/// A process not seen for longer than this is listed on `/workers?all=1`
/// only: a fleet's database keeps every process that ever played.
const WORKER_SHOWN_MS: i64 = 24 * 3_600_000;

/// The most runs one request may ask for.
const MOST_RUNS_PER_PAGE: i64 = 500;

/// The runs list's query: `?status=running&engine=fhr&before=120&limit=50`.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub(super) struct RunsQuery {
    status: Option<String>,
    engine: Option<String>,
    before: Option<String>,
    limit: Option<String>,
}

impl RunsQuery {
    /// The filter it asks for, or the one line that says what is wrong.
    fn filter(&self) -> Result<db::RunFilter, PageError> {
        let present = |v: &Option<String>| v.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_string);
        let status = match present(&self.status) {
            None => None,
            Some(text) => Some(model::RunStatus::parse(&text).ok_or_else(|| {
                PageError::bad_request(format!("status '{text}' is not one of running, stopped, finished"))
            })?),
        };
        let number = |name: &str, v: &Option<String>| -> Result<Option<i64>, PageError> {
            present(v)
                .map(|text| {
                    text.parse::<i64>()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| PageError::bad_request(format!("{name} '{text}' is not a positive number")))
                })
                .transpose()
        };
        Ok(db::RunFilter {
            before: number("before", &self.before)?,
            status,
            engine: present(&self.engine),
            limit: number("limit", &self.limit)?.unwrap_or(RUNS_PER_PAGE).min(MOST_RUNS_PER_PAGE),
        })
    }
}

/// The query string of `filter`, for links and the live part.
fn runs_query(filter: &db::RunFilter, before: Option<i64>) -> String {
    let mut query = url::form_urlencoded::Serializer::new(String::new());
    if let Some(status) = filter.status {
        query.append_pair("status", status.as_str());
    }
    if let Some(engine) = &filter.engine {
        query.append_pair("engine", engine);
    }
    if let Some(before) = before {
        query.append_pair("before", &before.to_string());
    }
    if filter.limit != RUNS_PER_PAGE {
        query.append_pair("limit", &filter.limit.to_string());
    }
    query.finish()
}

async fn rows(app: &App, filter: &db::RunFilter) -> Result<Vec<RunRow>, DbError> {
    run_rows(&app.db, &app.db.runs_page(filter).await?).await
}

/// The filter form above the runs list.
fn runs_filter_form(filter: &db::RunFilter) -> String {
    let mut options = String::from("<option value=\"\">any status</option>");
    for status in ["running", "stopped", "finished"] {
        let selected = if filter.status.map(|s| s.as_str()) == Some(status) { " selected" } else { "" };
        options += &format!("<option{selected}>{status}</option>");
    }
    format!(
        "<form method=\"get\" action=\"/\"><select name=\"status\">{options}</select>\
         <input name=\"engine\" placeholder=\"engine\" value=\"{}\"><button>Filter</button></form>",
        escape(filter.engine.as_deref().unwrap_or(""))
    )
}

fn runs_list(rows: &[RunRow], filter: &db::RunFilter) -> String {
    if rows.is_empty() {
        let unfiltered = filter.status.is_none() && filter.engine.is_none() && filter.before.is_none();
        let what = if unfiltered { "No runs in this database yet." } else { "No runs match." };
        return format!("<h1>Runs</h1><p class=\"muted\">{what}</p>");
    }
    let mut out = format!("<h1>Runs</h1>{}", runs_table(rows).html_linking(Some((0, "/runs/"))));
    // A full page may have older runs after it.
    if let Some(last) = rows.last().filter(|_| rows.len() as i64 == filter.limit) {
        out += &format!("<p><a href=\"/?{}\">Older runs →</a></p>", escape(&runs_query(filter, Some(last.id))));
    }
    out
}

/// `GET /`.
pub(super) async fn runs_page(
    State(app): State<Arc<App>>,
    Query(query): Query<RunsQuery>,
) -> Result<Html<String>, PageError> {
    let filter = query.filter()?;
    let rows = rows(&app, &filter).await?;
    let live = format!("/live/runs?{}", runs_query(&filter, filter.before));
    Ok(page(&app, "arena runs", &live, &runs_list(&rows, &filter), &runs_filter_form(&filter)))
}

/// `GET /live/runs`.
pub(super) async fn runs_live(
    State(app): State<Arc<App>>,
    Query(query): Query<RunsQuery>,
) -> Result<Html<String>, PageError> {
    let filter = query.filter()?;
    Ok(Html(runs_list(&rows(&app, &filter).await?, &filter)))
}

/// `GET /api/runs`: newest first, a page at a time (`?before=ID&limit=N`,
/// default 50, at most 500), filtered by `status` and `engine`.
pub(super) async fn api_runs(
    State(app): State<Arc<App>>,
    Query(query): Query<RunsQuery>,
) -> Result<Json<Vec<RunRow>>, ApiError> {
    let filter = query.filter()?;
    Ok(Json(rows(&app, &filter).await?))
}

/// The full report of `run`, built again only when the run changed (its
/// status, stored games or finished pairs, or a machine's standing) since
/// the last build; one build at a time. Suite runs, whose answers these
/// counts do not show, are built every time.
async fn cached_report(app: &App, run: i64) -> Result<Arc<CachedReport>, ReportError> {
    let key = report_key(app, run).await?;
    let fresh = |key: &Option<ReportKey>| key.as_ref().and_then(|key| cached(app, run, key));
    if let Some(report) = fresh(&key) {
        return Ok(report);
    }
    let _one_at_a_time = app.building.lock().await;
    // Another request may have built it meanwhile, for the run as it is now.
    let key = report_key(app, run).await?;
    if let Some(report) = fresh(&key) {
        return Ok(report);
    }
    let report = report_of(&app.reports_db, run, Ask::of(Detail::Full)).await?;
    let built = Arc::new(CachedReport { html: report.html_body(), report });
    if let Some(key) = key {
        crate::util::lock(&app.reports).put(run, key, built.clone());
    }
    Ok(built)
}

/// What a run's report is built from (`None` for a suite run, which is not cached).
async fn report_key(app: &App, run: i64) -> Result<Option<ReportKey>, ReportError> {
    let info = app.db.run(run).await?;
    if !info.kind.plays_games() {
        return Ok(None);
    }
    // A machine set aside or readmitted changes the report without a game,
    // and so do budgets added to a scaling run (more pairs planned).
    let standing: Vec<(String, bool)> =
        app.db.machine_states(run).await?.into_iter().map(|s| (s.machine, s.set_aside.is_some())).collect();
    Ok(Some((info.status, info.games, info.pairs_done, info.pairs_planned, standing)))
}

/// The report of `run` in the cache, if built from `key`.
fn cached(app: &App, run: i64, key: &ReportKey) -> Option<Arc<CachedReport>> {
    crate::util::lock(&app.reports).get(run, key)
}

/// The run's report blocks: its full report, from the cache while the run
/// has not changed (a run of a million games takes about 0.2 s to build,
/// its counts being kept as pairs finish).
async fn run_body(app: &Arc<App>, id: &str) -> Result<(String, String), PageError> {
    let Some(run) = run_id(id) else {
        return Err(PageError::not_found(format!("no run '{id}': runs are numbered 1, 2, …")));
    };
    Ok(cached_report(app, run).await?.html.clone())
}

fn controls(app: &App, run: i64) -> String {
    if app.token.is_none() {
        return "<p class=\"muted\">Read-only: start <code>arena serve</code> with <code>--token</code> to stop, \
                resume and prioritise runs and readmit machines here.</p>"
            .to_string();
    }
    let token =
        "<input type=\"password\" name=\"token\" placeholder=\"token\" autocomplete=\"current-password\" required>";
    format!(
        "<div class=\"controls\"><form method=\"post\" action=\"/runs/{run}/stop\">{token}<button>Stop</button></form>\
         <form method=\"post\" action=\"/runs/{run}/resume\">{token}<button>Resume</button></form>\
         <form method=\"post\" action=\"/runs/{run}/priority\">{token}\
         <input type=\"number\" name=\"priority\" placeholder=\"priority\" required><button>Set priority</button></form>\
         <form method=\"post\" action=\"/runs/{run}/readmit\">{token}\
         <input type=\"text\" name=\"machine\" placeholder=\"machine set aside\" required><button>Readmit</button></form></div>"
    )
}

/// `GET /runs/{id}`.
pub(super) async fn run_page(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Html<String>, PageError> {
    let (title, body) = run_body(&app, &id).await?;
    let run = run_id(&id).unwrap_or_default();
    Ok(page(&app, &title, &format!("/live/runs/{run}"), &body, &controls(&app, run)))
}

/// `GET /live/runs/{id}`.
pub(super) async fn run_live(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Html<String>, PageError> {
    Ok(Html(run_body(&app, &id).await?.1))
}

/// `GET /api/runs/{id}`: the report JSON.
pub(super) async fn api_run(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    let Some(run) = run_id(&id) else {
        return Err(PageError::not_found(format!("no run '{id}'")).into());
    };
    let report = cached_report(&app, run).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], report.report.json()).into_response())
}

/// The processes that played, most recently seen first: those seen in the
/// last day, or with `all` every one, and a link to the others.
fn workers_table(workers: &[model::WorkerInfo], all: bool, now: i64) -> String {
    if workers.is_empty() {
        return "<h1>Workers</h1><p class=\"muted\">No process has played work in this database yet.</p>".into();
    }
    let recent = |w: &&model::WorkerInfo| now - w.last_seen_ms <= WORKER_SHOWN_MS;
    let older = workers.iter().filter(|w| !recent(w)).count();
    let shown: Vec<&model::WorkerInfo> = workers.iter().filter(|w| all || recent(w)).collect();
    let more = match (older, all) {
        (0, _) => String::new(),
        (_, true) => "<p class=\"muted\"><a href=\"/workers\">Only those seen in the last day</a></p>".into(),
        (n, false) => format!(
            "<p class=\"muted\">{n} more, last seen more than a day ago: <a href=\"/workers?all=1\">list them \
             all</a></p>"
        ),
    };
    if shown.is_empty() {
        return format!("<h1>Workers</h1><p class=\"muted\">No process has played work in the last day.</p>{more}");
    }
    let which = if all { "Every arena process that played units" } else { "The arena processes seen in the last day" };
    let columns = [
        ("Worker", Align::Left),
        ("Seen", Align::Right),
        ("Run", Align::Left),
        ("Latest unit", Align::Left),
        ("Units", Align::Right),
        ("Games/answers", Align::Right),
        ("Per minute", Align::Right),
        ("Faults", Align::Right),
        ("Not serving", Align::Left),
    ];
    let row = |w: &&model::WorkerInfo| {
        let ago = (now - w.last_seen_ms).max(0) as f64 / 1000.0;
        let minutes = (w.last_seen_ms - w.started_ms).max(1) as f64 / 60_000.0;
        let seen =
            if ago > 120.0 { format!("{} ago (gone?)", duration(ago)) } else { format!("{} ago", duration(ago)) };
        vec![
            w.name.clone(),
            seen,
            w.run.map_or(String::new(), |run| run.to_string()),
            w.doing.clone(),
            w.units.to_string(),
            w.progress.to_string(),
            format!("{:.1}", w.progress as f64 / minutes),
            w.faults.to_string(),
            w.refused.clone(),
        ]
    };
    let table = Table::new(&columns, shown.iter().map(row).collect());
    format!(
        "<h1>Workers</h1><p class=\"muted\">{which}: <code>arena worker</code>s and local runs. Seen: its last \
         claim, heartbeat or store.</p>{}{more}",
        table.html_linking(Some((2, "/runs/")))
    )
}

/// The machines with a standing in a run: set aside (and why), readmitted,
/// their speed and clock factor.
fn machines_table(states: &[(i64, model::MachineState)]) -> String {
    if states.is_empty() {
        return String::new();
    }
    let columns = [
        ("Run", Align::Left),
        ("Machine", Align::Left),
        ("knps", Align::Right),
        ("Clock ×", Align::Right),
        ("Standing", Align::Left),
    ];
    let row = |(run, s): &(i64, model::MachineState)| {
        let standing = match (&s.set_aside, s.readmitted) {
            (Some(why), _) => format!("set aside: {why}"),
            (None, true) => "readmitted".to_string(),
            (None, false) => "counted".to_string(),
        };
        vec![
            run.to_string(),
            s.machine.clone(),
            s.nps.map_or("-".into(), |n| (n / 1000).to_string()),
            s.scale.map_or("-".into(), |f| format!("{f:.2}")),
            standing,
        ]
    };
    let table = Table::new(&columns, states.iter().map(row).collect());
    format!(
        "<h2>Machines</h2><p class=\"muted\">Per run: a machine set aside gets no pairs of it (readmit it on the \
         run's page); speed and clock factor of runs that scale clocks (<code>--scale-nps</code>).</p>{}",
        table.html_linking(Some((0, "/runs/")))
    )
}

/// The workers page's query: `?all=1` lists every process ever seen, not
/// only those of the last day.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub(super) struct WorkersQuery {
    all: Option<String>,
}

impl WorkersQuery {
    /// Whether it asks for every process, or the one line that says what is wrong.
    fn all(&self) -> Result<bool, PageError> {
        match self.all.as_deref().map(str::trim) {
            None | Some("" | "0") => Ok(false),
            Some("1") => Ok(true),
            Some(other) => Err(PageError::bad_request(format!(
                "all '{other}' is not 1 (every process) or 0 (those of the last day)"
            ))),
        }
    }
}

/// The workers page's live part: the processes, then the machines' standings.
async fn workers_body(app: &App, all: bool) -> Result<String, db::DbError> {
    let workers = app.db.workers().await?;
    Ok(workers_table(&workers, all, model::now_ms()) + &machines_table(&app.db.all_machine_states().await?))
}

/// `GET /workers`.
pub(super) async fn workers_page(
    State(app): State<Arc<App>>,
    Query(query): Query<WorkersQuery>,
) -> Result<Html<String>, PageError> {
    let all = query.all()?;
    let live = if all { "/live/workers?all=1" } else { "/live/workers" };
    Ok(page(&app, "arena workers", live, &workers_body(&app, all).await?, ""))
}

/// `GET /live/workers`.
pub(super) async fn workers_live(
    State(app): State<Arc<App>>,
    Query(query): Query<WorkersQuery>,
) -> Result<Html<String>, PageError> {
    Ok(Html(workers_body(&app, query.all()?).await?))
}

/// `GET /api/workers`.
pub(super) async fn api_workers(State(app): State<Arc<App>>) -> Result<Json<Vec<model::WorkerInfo>>, ApiError> {
    Ok(Json(app.db.workers().await?))
}

/// A path that is there, asked with another method: the controls
/// (`/runs/N/ACTION`) take POST (the run page's buttons, with the token),
/// the pages and the API GET.
pub(super) async fn wrong_method(method: axum::http::Method, uri: axum::http::Uri) -> Response {
    let control = matches!(uri.path().trim_matches('/').split('/').collect::<Vec<_>>()[..], ["runs", _, _]);
    let allowed = if control { "POST" } else { "GET" };
    let text = if control {
        format!(
            "{method} {}: the addresses under a run are its controls (stop, resume, priority, readmit), \
             which take POST with the token; the run's page is its number alone",
            uri.path()
        )
    } else {
        format!("{method} {}: this address takes GET only", uri.path())
    };
    let refused = PageError::new(StatusCode::METHOD_NOT_ALLOWED, text);
    let mut response =
        if uri.path().starts_with("/api/") { ApiError(refused).into_response() } else { refused.into_response() };
    response.headers_mut().insert(header::ALLOW, header::HeaderValue::from_static(allowed));
    response
}

/// Any other path.
pub(super) async fn not_found(uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return ApiError(PageError::not_found(format!("no such API: {}", uri.path()))).into_response();
    }
    PageError::not_found(format!("nothing at {}: see the runs at /", uri.path())).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fleet's database keeps every process that ever played: the page
    /// lists those of the last day and links to the rest.
    #[test]
    fn the_workers_page_lists_the_last_day_and_links_to_the_rest() {
        let now = 10 * WORKER_SHOWN_MS;
        let worker = |name: &str, hours_ago: i64| model::WorkerInfo {
            name: name.into(),
            started_ms: now - hours_ago * 3_600_000 - 60_000,
            last_seen_ms: now - hours_ago * 3_600_000,
            run: None,
            doing: String::new(),
            units: 1,
            progress: 2,
            faults: 0,
            refused: String::new(),
        };
        let workers = [worker("vm:1", 0), worker("vm:2", 23), worker("vm:3", 25), worker("vm:4", 200)];
        let day = workers_table(&workers, false, now);
        assert!(day.contains("vm:1") && day.contains("vm:2"), "{day}");
        assert!(!day.contains("vm:3") && !day.contains("vm:4"), "{day}");
        assert!(day.contains("2 more, last seen more than a day ago") && day.contains("/workers?all=1"), "{day}");
        let all = workers_table(&workers, true, now);
        assert!(["vm:1", "vm:2", "vm:3", "vm:4"].iter().all(|w| all.contains(w)), "{all}");
        assert!(!all.contains("more, last seen") && all.contains("Only those seen in the last day"), "{all}");
        let gone = workers_table(&workers[2..], false, now);
        assert!(gone.contains("No process has played work in the last day") && gone.contains("2 more"), "{gone}");
        let recent = workers_table(&workers[..2], false, now);
        assert!(!recent.contains("more, last seen") && !recent.contains("Only those"), "{recent}");
        assert_eq!(WorkersQuery { all: Some("1".into()) }.all(), Ok(true));
        assert_eq!(WorkersQuery { all: None }.all(), Ok(false));
        let bad = WorkersQuery { all: Some("yes".into()) }.all().unwrap_err();
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);
        assert_eq!(bad.message, "all 'yes' is not 1 (every process) or 0 (those of the last day)");
    }
}
