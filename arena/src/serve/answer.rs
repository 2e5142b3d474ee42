//! What every answer of the dashboard shares: the HTML document around a
//! page (head and navigation, written once), and the answers to a request
//! that gets no page, which render themselves: [`PageError`] as an HTML
//! page, [`ApiError`] as the JSON API's `{"error": …}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use db::DbError;
use reports::report::{HTML_STYLE, html_escape as escape};

use crate::reporting::ReportError;

/// Extra style of the dashboard's own parts.
const STYLE: &str = "body{max-width:90rem}nav{display:flex;gap:1rem;align-items:baseline;border-bottom:1px solid var(--line);\
padding-bottom:.4rem;margin-bottom:.6rem}nav a{font-weight:600}a{color:var(--accent)}\
.muted{color:var(--muted)}form{display:inline-flex;gap:.3rem;margin:.2rem .6rem .2rem 0;flex-wrap:wrap}\
input{font:inherit;padding:.15rem .3rem;max-width:9rem}button{font:inherit;padding:.15rem .6rem}\
.controls{border:1px solid var(--line);padding:.4rem .6rem;margin:.6rem 0}";

/// A whole HTML document titled `title`: the head, the navigation (with
/// `note`, already HTML, after its links) and `body` (HTML).
pub(super) fn document(title: &str, note: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><link rel=\"icon\" href=\"data:,\">\
         <title>{}</title><style>{HTML_STYLE}{STYLE}</style></head>\n<body>\n\
         <nav><a href=\"/\">Runs</a><a href=\"/workers\">Workers</a>{note}</nav>\n{body}</body></html>\n",
        escape(title)
    ))
}

/// A request that gets no page: its status and the one line that says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PageError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What is wrong, and what to ask instead.
    pub message: String,
}

impl PageError {
    /// `status` with `message`.
    pub(super) fn new(status: StatusCode, message: impl Into<String>) -> PageError {
        PageError { status, message: message.into() }
    }

    /// A request that cannot be read (400).
    pub(super) fn bad_request(message: impl Into<String>) -> PageError {
        PageError::new(StatusCode::BAD_REQUEST, message)
    }

    /// Nothing there (404).
    pub(super) fn not_found(message: impl Into<String>) -> PageError {
        PageError::new(StatusCode::NOT_FOUND, message)
    }

    /// A failure of the server's own (500): `cause` (a database error with
    /// its own cause, which may name tables, files or the server) goes to
    /// the log, the answer says only that it failed and where to look.
    pub(super) fn internal(cause: &(dyn std::error::Error + 'static)) -> PageError {
        let line = crate::util::one_line(cause);
        eprintln!("arena serve: error answering a request: {line}");
        PageError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the dashboard could not answer this request: its log says why",
        )
    }
}

impl From<DbError> for PageError {
    fn from(e: DbError) -> PageError {
        match e {
            DbError::NoSuchRun(run) => PageError::not_found(format!("no run {run} in this database")),
            // What the database holds, named by its row: the viewer may read
            // it, and the page refuses rather than show a guess.
            e @ DbError::Unknown { .. } => {
                let line = crate::util::one_line(&e);
                eprintln!("arena serve: error answering a request: {line}");
                PageError::new(StatusCode::INTERNAL_SERVER_ERROR, line)
            }
            e => PageError::internal(&e),
        }
    }
}

impl From<ReportError> for PageError {
    fn from(e: ReportError) -> PageError {
        match e {
            ReportError::Db(e) => e.into(),
            ReportError::Anchor(why) => PageError::bad_request(why),
            // Which version stored the run, and what to run instead: no internals.
            e @ ReportError::Spec(_) => PageError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
        }
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        let body = format!("<h1>{}</h1><p>{}</p>\n", self.status, escape(&self.message));
        (self.status, document(&self.status.to_string(), "", &body)).into_response()
    }
}

/// A [`PageError`] answered as the JSON API answers: `{"error": …}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct ApiError(pub PageError);

impl<E: Into<PageError>> From<E> for ApiError {
    fn from(e: E) -> ApiError {
        ApiError(e.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0.status, Json(serde_json::json!({ "error": self.0.message }))).into_response()
    }
}
