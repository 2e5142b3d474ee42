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
use reports::report::{HTML_STYLE, html_escape as escape};

use super::rows::{RunRow, run_row};
use super::{App, CachedReport, ReportKey};
use crate::reporting::{Ask, Detail, ReportError, report_of};
use crate::term::duration;

/// Extra style of the dashboard's own parts.
const STYLE: &str = "body{max-width:90rem}nav{display:flex;gap:1rem;align-items:baseline;border-bottom:1px solid var(--line);\
padding-bottom:.4rem;margin-bottom:.6rem}nav a{font-weight:600}a{color:var(--accent)}\
.muted{color:var(--muted)}form{display:inline-flex;gap:.3rem;margin:.2rem .6rem .2rem 0;flex-wrap:wrap}\
input{font:inherit;padding:.15rem .3rem;max-width:9rem}button{font:inherit;padding:.15rem .6rem}\
.controls{border:1px solid var(--line);padding:.4rem .6rem;margin:.6rem 0}\
.running{color:#1a7f37;font-weight:600}.stopped{color:#9a6700}.finished{color:var(--muted)}";

/// Refreshes `#live` from its `data-src` every `data-every` ms, swapping it
/// in only when it changed; a failed fetch is tried again at the next tick.
const SCRIPT: &str = "(()=>{const live=document.getElementById('live');if(!live)return;let last=null;\
const every=Number(live.dataset.every)||5000;\
async function tick(){try{const r=await fetch(live.dataset.src,{cache:'no-store'});\
if(r.ok){const t=await r.text();if(t!==last){last=t;live.innerHTML=t;}}}catch(e){}setTimeout(tick,every);}\
setTimeout(tick,every);})();";

/// A whole page: navigation, `before` (controls), the live part and the script.
fn page(app: &App, title: &str, live_src: &str, live: &str, before: &str) -> Html<String> {
    Html(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><link rel=\"icon\" href=\"data:,\">\
         <title>{}</title><style>{HTML_STYLE}{STYLE}</style></head>\n<body>\n\
         <nav><a href=\"/\">Runs</a><a href=\"/workers\">Workers</a><span class=\"muted\">arena {}</span></nav>\n\
         {before}<div id=\"live\" data-src=\"{}\" data-every=\"{}\">{live}</div>\n\
         <script>{SCRIPT}</script></body></html>\n",
        escape(title),
        app.db.describe().split(" (").next().map(escape).unwrap_or_default(),
        escape(live_src),
        app.refresh.as_millis()
    ))
}

/// An error page with `status` and one line.
pub(super) fn error_page(status: StatusCode, message: &str) -> Response {
    let body = format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><link rel=\"icon\" href=\"data:,\"><title>{status}</title>\
         <style>{HTML_STYLE}{STYLE}</style></head><body><nav><a href=\"/\">Runs</a><a href=\"/workers\">Workers</a></nav>\
         <h1>{status}</h1><p>{}</p></body></html>\n",
        escape(message)
    );
    (status, Html(body)).into_response()
}

/// A JSON error with `status`.
fn json_error(status: StatusCode, message: &str) -> Response {
    (status, Json(serde_json::json!({ "error": message }))).into_response()
}

/// A path's run id, or the 404 answer.
pub(super) fn run_id(text: &str) -> Option<i64> {
    text.parse::<i64>().ok().filter(|id| *id > 0)
}

fn db_failure(e: &DbError) -> (StatusCode, String) {
    match e {
        DbError::NoSuchRun(run) => (StatusCode::NOT_FOUND, format!("no run {run} in this database")),
        e => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
}

fn report_failure(e: &ReportError) -> (StatusCode, String) {
    match e {
        ReportError::Db(e) => db_failure(e),
        e => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
    }
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
    fn filter(&self) -> Result<db::RunFilter, String> {
        let present = |v: &Option<String>| v.as_deref().map(str::trim).filter(|v| !v.is_empty()).map(str::to_string);
        let status = match present(&self.status) {
            None => None,
            Some(text) => Some(
                model::RunStatus::parse(&text)
                    .ok_or_else(|| format!("status '{text}' is not one of running, stopped, finished"))?,
            ),
        };
        let number = |name: &str, v: &Option<String>| -> Result<Option<i64>, String> {
            present(v)
                .map(|text| {
                    text.parse::<i64>()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or(format!("{name} '{text}' is not a positive number"))
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
    let mut rows = Vec::new();
    for run in app.db.runs_page(filter).await? {
        rows.push(run_row(&app.db, &run).await?);
    }
    Ok(rows)
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

fn runs_table(rows: &[RunRow], filter: &db::RunFilter) -> String {
    if rows.is_empty() {
        let unfiltered = filter.status.is_none() && filter.engine.is_none() && filter.before.is_none();
        let what = if unfiltered { "No runs in this database yet." } else { "No runs match." };
        return format!("<h1>Runs</h1><p class=\"muted\">{what}</p>");
    }
    let mut out = String::from(
        "<h1>Runs</h1><div class=\"scroll\"><table><thead><tr><th>Run</th><th>Kind</th><th>Engines</th>\
         <th>Time control</th><th class=\"r\">Games</th><th class=\"r\">W-D-L</th><th class=\"r\">Elo</th>\
         <th class=\"r\">LLR (bounds)</th><th>Status</th><th class=\"r\">ETA</th><th>Slots</th>\
         <th class=\"r\">Priority</th></tr></thead><tbody>\n",
    );
    for r in rows {
        let status = match &r.verdict {
            Some(verdict) => format!("{} ({verdict})", r.status),
            None => r.status.clone(),
        };
        out += &format!(
            "<tr><td><a href=\"/runs/{id}\">{id}</a></td><td>{}</td><td>{}</td><td>{}</td><td class=\"r\">{}/{}</td>\
             <td class=\"r\">{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td><td class=\"{}\">{}</td>\
             <td class=\"r\">{}</td><td>{}</td><td class=\"r\">{}</td></tr>\n",
            escape(&r.kind),
            escape(&r.engine_names().join(" vs ")),
            escape(&r.time_control),
            r.done,
            r.planned,
            r.wdl.map_or("-".into(), |[w, d, l]| format!("{w}-{d}-{l}")),
            escape(&r.result().unwrap_or_else(|| "-".into())),
            r.llr.map_or("-".into(), |(llr, lo, hi)| format!("{llr:.2} ({lo:.2}, {hi:.2})")),
            escape(&r.status),
            escape(&status),
            r.eta_s.map_or("-".into(), duration),
            r.slots.len(),
            r.priority,
            id = r.id,
        );
    }
    out += "</tbody></table></div>";
    // A full page may have older runs after it.
    if let Some(last) = rows.last().filter(|_| rows.len() as i64 == filter.limit) {
        out += &format!("<p><a href=\"/?{}\">Older runs →</a></p>", escape(&runs_query(filter, Some(last.id))));
    }
    out
}

/// `GET /`.
pub(super) async fn runs_page(State(app): State<Arc<App>>, Query(query): Query<RunsQuery>) -> Response {
    let filter = match query.filter() {
        Ok(filter) => filter,
        Err(e) => return error_page(StatusCode::BAD_REQUEST, &e),
    };
    match rows(&app, &filter).await {
        Ok(rows) => {
            let live = format!("/live/runs?{}", runs_query(&filter, filter.before));
            page(&app, "arena runs", &live, &runs_table(&rows, &filter), &runs_filter_form(&filter)).into_response()
        }
        Err(e) => error_page(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// `GET /live/runs`.
pub(super) async fn runs_live(State(app): State<Arc<App>>, Query(query): Query<RunsQuery>) -> Response {
    let filter = match query.filter() {
        Ok(filter) => filter,
        Err(e) => return error_page(StatusCode::BAD_REQUEST, &e),
    };
    match rows(&app, &filter).await {
        Ok(rows) => Html(runs_table(&rows, &filter)).into_response(),
        Err(e) => error_page(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// `GET /api/runs`: newest first, a page at a time (`?before=ID&limit=N`,
/// default 50, at most 500), filtered by `status` and `engine`.
pub(super) async fn api_runs(State(app): State<Arc<App>>, Query(query): Query<RunsQuery>) -> Response {
    let filter = match query.filter() {
        Ok(filter) => filter,
        Err(e) => return json_error(StatusCode::BAD_REQUEST, &e),
    };
    match rows(&app, &filter).await {
        Ok(rows) => Json(rows).into_response(),
        Err(e) => json_error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
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
async fn run_body(app: &Arc<App>, id: &str) -> Result<(String, String), (StatusCode, String)> {
    let Some(run) = run_id(id) else {
        return Err((StatusCode::NOT_FOUND, format!("no run '{id}': runs are numbered 1, 2, …")));
    };
    cached_report(app, run).await.map(|report| report.html.clone()).map_err(|e| report_failure(&e))
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
pub(super) async fn run_page(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match run_body(&app, &id).await {
        Ok((title, body)) => {
            let run = run_id(&id).unwrap_or_default();
            page(&app, &title, &format!("/live/runs/{run}"), &body, &controls(&app, run)).into_response()
        }
        Err((status, message)) => error_page(status, &message),
    }
}

/// `GET /live/runs/{id}`.
pub(super) async fn run_live(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    match run_body(&app, &id).await {
        Ok((_, body)) => Html(body).into_response(),
        Err((status, message)) => error_page(status, &message),
    }
}

/// `GET /api/runs/{id}`: the report JSON.
pub(super) async fn api_run(State(app): State<Arc<App>>, Path(id): Path<String>) -> Response {
    let Some(run) = run_id(&id) else {
        return json_error(StatusCode::NOT_FOUND, &format!("no run '{id}'"));
    };
    match cached_report(&app, run).await {
        Ok(report) => ([(header::CONTENT_TYPE, "application/json")], report.report.json()).into_response(),
        Err(e) => {
            let (status, message) = report_failure(&e);
            json_error(status, &message)
        }
    }
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
    let mut out = format!(
        "<h1>Workers</h1><p class=\"muted\">{which}: <code>arena worker</code>s and \
         local runs. Seen: its last claim, heartbeat or store.</p><div class=\"scroll\"><table><thead><tr>\
         <th>Worker</th><th class=\"r\">Seen</th><th>Run</th><th>Latest unit</th><th class=\"r\">Units</th>\
         <th class=\"r\">Games/answers</th><th class=\"r\">Per minute</th><th class=\"r\">Faults</th><th>Not serving</th></tr></thead><tbody>\n",
    );
    for w in shown {
        let ago = (now - w.last_seen_ms).max(0) as f64 / 1000.0;
        let minutes = (w.last_seen_ms - w.started_ms).max(1) as f64 / 60_000.0;
        let seen =
            if ago > 120.0 { format!("{} ago (gone?)", duration(ago)) } else { format!("{} ago", duration(ago)) };
        out += &format!(
            "<tr><td>{}</td><td class=\"r\">{seen}</td><td>{}</td><td>{}</td><td class=\"r\">{}</td>\
             <td class=\"r\">{}</td><td class=\"r\">{:.1}</td><td class=\"r\">{}</td><td>{}</td></tr>\n",
            escape(&w.name),
            w.run.map_or("-".into(), |run| format!("<a href=\"/runs/{run}\">{run}</a>")),
            escape(&w.doing),
            w.units,
            w.progress,
            w.progress as f64 / minutes,
            w.faults,
            escape(&w.refused),
        );
    }
    out + "</tbody></table></div>" + &more
}

/// The machines with a standing in a run: set aside (and why), readmitted,
/// their speed and clock factor.
fn machines_table(states: &[(i64, model::MachineState)]) -> String {
    if states.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "<h2>Machines</h2><p class=\"muted\">Per run: a machine set aside gets no pairs of it (readmit it on the \
         run's page); speed and clock factor of runs that scale clocks (<code>--scale-nps</code>).</p>\
         <div class=\"scroll\"><table><thead><tr><th>Run</th><th>Machine</th><th class=\"r\">knps</th>\
         <th class=\"r\">Clock ×</th><th>Standing</th></tr></thead><tbody>\n",
    );
    for (run, s) in states {
        let standing = match (&s.set_aside, s.readmitted) {
            (Some(why), _) => format!("set aside: {}", escape(why)),
            (None, true) => "readmitted".to_string(),
            (None, false) => "playing".to_string(),
        };
        out += &format!(
            "<tr><td><a href=\"/runs/{run}\">{run}</a></td><td>{}</td><td class=\"r\">{}</td><td class=\"r\">{}</td>\
             <td>{standing}</td></tr>\n",
            escape(&s.machine),
            s.nps.map_or("-".into(), |n| (n / 1000).to_string()),
            s.scale.map_or("-".into(), |f| format!("{f:.2}")),
        );
    }
    out + "</tbody></table></div>"
}

/// The workers page's query: `?all=1` lists every process ever seen, not
/// only those of the last day.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub(super) struct WorkersQuery {
    all: Option<String>,
}

impl WorkersQuery {
    /// Whether it asks for every process, or the one line that says what is wrong.
    fn all(&self) -> Result<bool, String> {
        match self.all.as_deref().map(str::trim) {
            None | Some("" | "0") => Ok(false),
            Some("1") => Ok(true),
            Some(other) => Err(format!("all '{other}' is not 1 (every process) or 0 (those of the last day)")),
        }
    }
}

/// The workers page's live part: the processes, then the machines' standings.
async fn workers_body(app: &App, all: bool) -> Result<String, db::DbError> {
    let workers = app.db.workers().await?;
    Ok(workers_table(&workers, all, model::now_ms()) + &machines_table(&app.db.all_machine_states().await?))
}

/// `GET /workers`.
pub(super) async fn workers_page(State(app): State<Arc<App>>, Query(query): Query<WorkersQuery>) -> Response {
    let all = match query.all() {
        Ok(all) => all,
        Err(e) => return error_page(StatusCode::BAD_REQUEST, &e),
    };
    let live = if all { "/live/workers?all=1" } else { "/live/workers" };
    match workers_body(&app, all).await {
        Ok(body) => page(&app, "arena workers", live, &body, "").into_response(),
        Err(e) => error_page(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// `GET /live/workers`.
pub(super) async fn workers_live(State(app): State<Arc<App>>, Query(query): Query<WorkersQuery>) -> Response {
    let all = match query.all() {
        Ok(all) => all,
        Err(e) => return error_page(StatusCode::BAD_REQUEST, &e),
    };
    match workers_body(&app, all).await {
        Ok(body) => Html(body).into_response(),
        Err(e) => error_page(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// `GET /api/workers`.
pub(super) async fn api_workers(State(app): State<Arc<App>>) -> Response {
    match app.db.workers().await {
        Ok(workers) => Json(workers).into_response(),
        Err(e) => json_error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
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
    let mut response = if uri.path().starts_with("/api/") {
        json_error(StatusCode::METHOD_NOT_ALLOWED, &text)
    } else {
        error_page(StatusCode::METHOD_NOT_ALLOWED, &text)
    };
    response.headers_mut().insert(header::ALLOW, header::HeaderValue::from_static(allowed));
    response
}

/// Any other path.
pub(super) async fn not_found(uri: axum::http::Uri) -> Response {
    if uri.path().starts_with("/api/") {
        return json_error(StatusCode::NOT_FOUND, &format!("no such API: {}", uri.path()));
    }
    error_page(StatusCode::NOT_FOUND, &format!("nothing at {}: see the runs at /", uri.path()))
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
        assert_eq!(bad, "all 'yes' is not 1 (every process) or 0 (those of the last day)");
    }
}
