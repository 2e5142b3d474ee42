//! `arena report RUN`: the full report of a run (finished or still playing)
//! as text, markdown, HTML or JSON.

use std::path::PathBuf;

use db::Target;

use clap::{Args, ValueEnum};
use reports::report::{EngineHeader, Header, Inputs, Report, render_html, render_markdown, render_text, utc_timestamp};
use reports::stats::sprt::Verdict;

use super::inspect::open_existing;
use super::{CliError, CliResult, DEFAULT_DB, DbParser};
use crate::engines::EngineSpec;
use crate::run::RunSpec;

/// Report formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Plain text for a terminal.
    Text,
    /// GitHub-flavoured markdown.
    Markdown,
    /// One self-contained HTML page with plots.
    Html,
    /// JSON (documented schema, version field).
    Json,
}

/// `arena report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Run id (see `arena runs`).
    run: i64,
    /// Database: a SQLite file, or postgres://user@host:port/database (password from PGPASSWORD or ~/.pgpass).
    #[arg(long, default_value = DEFAULT_DB, value_parser = DbParser)]
    db: Target,
    /// Format (default: from the output file's extension .md/.html/.json, else text).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Output file (standard output without it).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Engine rated 0 in a tournament's ratings, or the 100 % reference of a suite run (default: the first engine).
    #[arg(long)]
    anchor: Option<String>,
}

/// An engine as reports show it.
pub(super) fn engine_header(engine: &EngineSpec) -> EngineHeader {
    EngineHeader {
        name: engine.name.clone(),
        kind: engine.describe(),
        options: engine.options.clone(),
        time_control: engine.tc.clone(),
    }
}

fn format_of(args: &ReportArgs) -> Format {
    args.format.unwrap_or_else(|| match args.output.as_ref().and_then(|p| p.extension()).and_then(|e| e.to_str()) {
        Some("md" | "markdown") => Format::Markdown,
        Some("html" | "htm") => Format::Html,
        Some("json") => Format::Json,
        _ => Format::Text,
    })
}

/// `arena report`.
pub(super) async fn report(args: ReportArgs) -> CliResult {
    let db = open_existing(&args.db).await?;
    let row = db.run(args.run).await?;
    let format = format_of(&args);
    if row.kind == "suite" {
        let report = super::suite::suite_report(&db, args.run, args.anchor.clone()).await?;
        let rendered = match format {
            Format::Text => render_text(&report),
            Format::Markdown => render_markdown(&report),
            Format::Html => render_html(&report),
            Format::Json => report.to_json() + "\n",
        };
        return emit(&args, format, &rendered);
    }
    let spec: RunSpec = serde_json::from_str(&row.spec)
        .map_err(|e| CliError(format!("run {} has a spec this version cannot read: {e}", args.run)))?;
    let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
    if let Some(anchor) = &args.anchor
        && !names.contains(&anchor.as_str())
    {
        return Err(CliError(format!(
            "no engine '{anchor}' in run {} (choose --anchor from: {})",
            args.run,
            names.join(", ")
        )));
    }
    let pairs = db.pair_outcomes(args.run).await?;
    let games = db.game_summaries(args.run).await?;
    let move_totals = db.move_totals(args.run).await?;
    let header = Header {
        run: row.id,
        kind: row.kind.clone(),
        status: row.status.clone(),
        engines: spec.engines.iter().map(engine_header).collect(),
        time_control: spec.tc.clone(),
        openings: spec.openings.clone(),
        games_planned: u64::try_from(2 * row.pairs_planned).unwrap_or(0),
        games_played: u64::try_from(row.games).unwrap_or(0),
        created: utc_timestamp(row.created_ms),
        finished: row.finished_ms.map(utc_timestamp),
        machine: row.machine.clone(),
    };
    let verdict = match row.verdict.as_deref() {
        Some("inconclusive") => Some(Verdict::Inconclusive),
        Some("H1") => Some(Verdict::AcceptH1),
        Some("H0") => Some(Verdict::AcceptH0),
        _ => None,
    };
    let report = Report::build(Inputs {
        header,
        pairings: spec
            .pairings
            .iter()
            .map(|&(a, b)| {
                let name = |i: usize| names.get(i).map_or_else(|| format!("engine {i}"), |n| n.to_string());
                (name(a), name(b))
            })
            .collect(),
        sprt: spec.sprt.map(|test| (test, verdict)),
        pairs: &pairs,
        games: &games,
        move_totals: &move_totals,
        anchor: args.anchor.clone(),
    });
    let rendered = match format {
        Format::Text => render_text(&report),
        Format::Markdown => render_markdown(&report),
        Format::Html => render_html(&report),
        Format::Json => report.to_json() + "\n",
    };
    emit(&args, format, &rendered)
}

/// Writes a rendered report to the output file or standard output.
fn emit(args: &ReportArgs, format: Format, rendered: &str) -> CliResult {
    match &args.output {
        Some(path) => {
            std::fs::write(path, rendered)
                .map_err(|e| CliError(format!("cannot write {}: {e} (choose another --output)", path.display())))?;
            let name = match format {
                Format::Text => "text",
                Format::Markdown => "markdown",
                Format::Html => "HTML",
                Format::Json => "JSON",
            };
            eprintln!("wrote the {name} report of run {} to {}", args.run, path.display());
        }
        None => print!("{rendered}"),
    }
    Ok(())
}
