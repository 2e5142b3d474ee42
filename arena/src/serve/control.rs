//! Run control: stop, resume, priority, readmitting a machine set aside. Each write needs the server's token
//! (form field `token` or `Authorization: Bearer …`): none given → 401, a
//! wrong one or a read-only server → 403, and nothing changes. Every write,
//! done or refused, is logged with its time and the client's address.
//!
//! Stopping marks the run stopped: the slots playing it lose their leases at
//! the next heartbeat or store and give the pairs in flight back to the
//! queue (replayed whole later), as a second Ctrl-C does; local runs end
//! ("stopped; continue it with arena resume").
//! Resuming marks it running again: `arena worker`s pick it up; a local
//! process that ended does not come back (`arena resume N` plays it here).

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::Form;
use axum::extract::rejection::FormRejection;
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use model::RunStatus;

use super::App;
use super::answer::PageError;
use super::pages::run_id;

/// Whether `given` equals `expected`, in time that depends on the length
/// only, not on where they differ.
fn same(given: &str, expected: &str) -> bool {
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A write as it arrived.
struct Write<'a> {
    app: &'a App,
    from: SocketAddr,
    what: String,
}

impl Write<'_> {
    fn log(&self, outcome: &str) {
        let now = reports::report::utc_timestamp(model::now_ms());
        crate::term::note(&format!("{now} UTC {} {}: {outcome}", self.from, self.what));
    }

    fn refuse(&self, refused: PageError) -> Response {
        self.log(&format!("{} {}", refused.status.as_u16(), refused.message));
        refused.into_response()
    }

    /// The form, or the answer that refuses the write.
    fn authorize(
        &self,
        headers: &HeaderMap,
        form: Result<Form<HashMap<String, String>>, FormRejection>,
        needs_fields: bool,
    ) -> Result<HashMap<String, String>, PageError> {
        // A body that is no form (or none) may still carry the token in the header.
        let (form, bad_form) = match form {
            Ok(Form(form)) => (form, None),
            Err(e) => (HashMap::new(), Some(e.body_text())),
        };
        let Some(expected) = &self.app.token else {
            return Err(PageError::new(StatusCode::FORBIDDEN, "this server is read-only (started without --token)"));
        };
        let bearer = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::to_string);
        let Some(given) = bearer.or_else(|| form.get("token").cloned()).filter(|t| !t.is_empty()) else {
            return Err(PageError::new(
                StatusCode::UNAUTHORIZED,
                "this needs the token (form field token or Authorization: Bearer)",
            ));
        };
        if !same(&given, expected) {
            return Err(PageError::new(StatusCode::FORBIDDEN, "wrong token"));
        }
        // Stop and resume need no fields; priority does.
        if let Some(problem) = bad_form.filter(|_| needs_fields) {
            return Err(PageError::bad_request(format!("bad form: {problem}")));
        }
        Ok(form)
    }

    fn done(&self, run: i64, message: &str) -> Response {
        self.log(&format!("done: {message}"));
        Redirect::to(&format!("/runs/{run}")).into_response()
    }
}

/// What a write asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Stop,
    Resume,
    Priority,
    Readmit,
}

impl Action {
    fn parse(text: &str) -> Option<Action> {
        match text {
            "stop" => Some(Action::Stop),
            "resume" => Some(Action::Resume),
            "priority" => Some(Action::Priority),
            "readmit" => Some(Action::Readmit),
            _ => None,
        }
    }
}

/// `POST /runs/{id}/{stop|resume|priority|readmit}`: the token, the run, then the action.
pub(super) async fn control(
    State(app): State<Arc<App>>,
    ConnectInfo(from): ConnectInfo<SocketAddr>,
    Path((id, action)): Path<(String, String)>,
    headers: HeaderMap,
    form: Result<Form<HashMap<String, String>>, FormRejection>,
) -> Response {
    let write = Write { app: &app, from, what: format!("POST /runs/{id}/{action}") };
    let Some(action) = Action::parse(&action) else {
        return write.refuse(PageError::not_found("no such control: stop, resume, priority or readmit"));
    };
    let needs_fields = matches!(action, Action::Priority | Action::Readmit);
    let form = match write.authorize(&headers, form, needs_fields) {
        Ok(form) => form,
        Err(refused) => return write.refuse(refused),
    };
    let Some(run) = run_id(&id) else {
        return write.refuse(PageError::not_found(format!("no run '{id}'")));
    };
    match act(&app.db, run, action, &form).await {
        Ok(message) => write.done(run, &message),
        Err(refused) => write.refuse(refused),
    }
}

/// Carries out `action` on `run`: the message of what was done, or why not.
async fn act(db: &db::Db, run: i64, action: Action, form: &HashMap<String, String>) -> Result<String, PageError> {
    let status = db.run(run).await?.status;
    match action {
        Action::Stop if status != RunStatus::Running => Err(conflict(format!("run {run} is {status}, not running"))),
        Action::Stop => {
            db.set_status(run, RunStatus::Stopped, None).await?;
            Ok(format!("run {run} stopped"))
        }
        Action::Resume if status != RunStatus::Stopped => Err(conflict(format!("run {run} is {status}, not stopped"))),
        Action::Resume => {
            db.set_status(run, RunStatus::Running, None).await?;
            Ok(format!("run {run} running again (workers take it; arena resume {run} plays it here)"))
        }
        Action::Priority => {
            let text = form.get("priority").map(|p| p.trim().to_string()).unwrap_or_default();
            match text.parse::<i64>() {
                Ok(priority) if priority.abs() <= 1_000_000 => {
                    db.set_priority(run, priority).await?;
                    Ok(format!("run {run} priority {priority}"))
                }
                Ok(_) => Err(PageError::bad_request("priority must be within ±1000000")),
                Err(_) => Err(PageError::bad_request(format!(
                    "priority must be a whole number (higher runs first), got '{text}'"
                ))),
            }
        }
        Action::Readmit => {
            let machine = form.get("machine").map(|m| m.trim().to_string()).unwrap_or_default();
            match db.readmit(run, &machine).await? {
                true => {
                    Ok(format!("machine {machine} readmitted to run {run}: it gets pairs again and its games count"))
                }
                false => Err(conflict(format!("machine '{machine}' is not set aside from run {run}"))),
            }
        }
    }
}

/// A control that does not apply to the run as it is (409).
fn conflict(message: String) -> PageError {
    PageError::new(StatusCode::CONFLICT, message)
}

#[cfg(test)]
mod tests {
    use super::same;

    #[test]
    fn tokens_compare_whole() {
        assert!(same("s3cret", "s3cret"));
        assert!(!same("s3cre", "s3cret"));
        assert!(!same("s3creT", "s3cret"));
        assert!(!same("", "s3cret"));
    }
}
