//! `arena runs`, `arena show RUN`, `arena pgn RUN`: reading the database only.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use db::Db;
use db::Target;
use reports::pgn::{Context, write_game};
use reports::stats::ratings::{DEFAULT_VIRTUAL_DRAWS, Encounter, bradley_terry};
use reports::stats::sprt::Verdict;
use reports::summary::Statistics;
use reports::tally::Tally;

use super::{CliError, CliResult, DEFAULT_DB, DbParser};
use crate::clock::TimeControl;
use crate::run::RunSpec;
use crate::suite::SuiteSpec;

/// A database.
#[derive(Args, Debug)]
pub struct DbArgs {
    /// Database: a SQLite file, or postgres://user@host:port/database (password from PGPASSWORD or ~/.pgpass).
    #[arg(long, default_value = DEFAULT_DB, value_parser = DbParser)]
    db: Target,
}

/// A run in a database.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Run id (see `arena runs`).
    run: i64,
    /// Database: a SQLite file, or postgres://user@host:port/database (password from PGPASSWORD or ~/.pgpass).
    #[arg(long, default_value = DEFAULT_DB, value_parser = DbParser)]
    db: Target,
}

/// `arena pgn`.
#[derive(Args, Debug)]
pub struct PgnArgs {
    /// Run id (see `arena runs`).
    run: i64,
    /// Database: a SQLite file, or postgres://user@host:port/database (password from PGPASSWORD or ~/.pgpass).
    #[arg(long, default_value = DEFAULT_DB, value_parser = DbParser)]
    db: Target,
    /// Output file (standard output without it).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

pub(super) async fn open_existing(target: &Target) -> Result<Db, CliError> {
    if !target.exists() {
        return Err(CliError(format!("no database at {target} (give one with --db PATH or --db postgres://…)")));
    }
    Ok(Db::open(target).await?)
}

/// `arena runs`.
pub(super) async fn runs(args: DbArgs) -> CliResult {
    let db = open_existing(&args.db).await?;
    let runs = db.runs().await?;
    println!("{:>4}  {:<10} {:<9} {:>13}  {:<8}  engines", "run", "kind", "status", "games/answers", "verdict");
    for run in runs {
        // Suite runs store answers, not games: the column counts answers there.
        let (engines, done, planned) = if run.kind == "suite" {
            let spec: Option<SuiteSpec> = serde_json::from_str(&run.spec).ok();
            let answers = db.suite_results(run.id).await?.len();
            let planned = spec.as_ref().map_or(0, |s| s.engines.len() * s.limits.len() * s.positions);
            let names = spec.map(|s| s.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>().join(","));
            (names.unwrap_or_default(), answers as i64, planned as i64)
        } else {
            let spec: Option<RunSpec> = serde_json::from_str(&run.spec).ok();
            let names = spec.map(|s| s.engines.iter().map(|e| e.name.clone()).collect::<Vec<_>>().join(","));
            (names.unwrap_or_default(), run.games, 2 * run.pairs_planned)
        };
        println!(
            "{:>4}  {:<10} {:<9} {:>6}/{:<6}  {:<8}  {engines}",
            run.id,
            run.kind,
            run.status,
            done,
            planned,
            run.verdict.unwrap_or_default()
        );
    }
    Ok(())
}

/// `arena show`.
pub(super) async fn show(args: RunArgs) -> CliResult {
    let db = open_existing(&args.db).await?;
    if db.run(args.run).await?.kind == "suite" {
        let report = super::suite::suite_report(&db, args.run, None).await?;
        print!("{}", reports::report::render_text(&report));
        return Ok(());
    }
    print!("{}", summary(&db, args.run).await?);
    let terminations = db.terminations(args.run).await?;
    if !terminations.is_empty() {
        let text: Vec<String> = terminations.iter().map(|(t, n)| format!("{t} {n}")).collect();
        println!("terminations: {}", text.join(", "));
    }
    Ok(())
}

/// The header and statistics of a run, per pairing.
pub(super) async fn summary(db: &Db, run: i64) -> Result<String, CliError> {
    let row = db.run(run).await?;
    let spec: RunSpec = serde_json::from_str(&row.spec)
        .map_err(|e| CliError(format!("run {run} has a spec this version cannot read: {e}")))?;
    let outcomes = db.pair_outcomes(run).await?;
    let verdict = row.verdict.as_deref().map(|v| format!(", {v}")).unwrap_or_default();
    let mut out = format!(
        "run {run} ({}, {}{verdict}): {} games of {} at {} from {}\n",
        row.kind,
        row.status,
        row.games,
        2 * row.pairs_planned,
        spec.tc,
        spec.openings
    );
    for (index, &(a, b)) in spec.pairings.iter().enumerate() {
        let (a, b) = (&spec.engines[a].name, &spec.engines[b].name);
        let tally = Tally::between(&outcomes, a, b);
        let sprt = spec.sprt.filter(|_| index == 0);
        let final_verdict = match row.verdict.as_deref() {
            Some("inconclusive") => Some(Verdict::Inconclusive),
            _ => None,
        };
        let statistics = Statistics::new(
            Some((tally.wins, tally.draws, tally.losses)),
            Some(tally.pentanomial),
            sprt,
            final_verdict,
        );
        out += &statistics.render_text(a, b);
    }
    if spec.engines.len() > 2 {
        out += &ratings_text(&spec, &outcomes);
    }
    Ok(out)
}

/// Bradley–Terry ratings of a tournament's engines, relative to the first.
fn ratings_text(spec: &RunSpec, outcomes: &[db::PairOutcome]) -> String {
    let names: Vec<String> = spec.engines.iter().map(|e| e.name.clone()).collect();
    let mut encounters = Vec::new();
    for (i, a) in names.iter().enumerate() {
        for (j, b) in names.iter().enumerate().skip(i + 1) {
            let tally = Tally::between(outcomes, a, b);
            if tally.games() > 0 {
                encounters.push(Encounter { first: i, second: j, games: tally.games(), points: tally.points() });
            }
        }
    }
    let mut ratings = bradley_terry(&names, &encounters, 0, DEFAULT_VIRTUAL_DRAWS);
    ratings.sort_by(|x, y| y.elo.unwrap_or(f64::MIN).total_cmp(&x.elo.unwrap_or(f64::MIN)));
    let mut out = format!("ratings (Bradley–Terry, relative to {}):\n", names[0]);
    for rating in ratings {
        let elo = rating.elo.map_or("unrated".to_string(), |e| format!("{e:+7.1}"));
        let ci = rating.elo_ci95.map(|[lo, hi]| format!("  [{lo:+.1}, {hi:+.1}]")).unwrap_or_default();
        out += &format!("  {:<16}{elo}{ci}  {} games\n", rating.name, rating.games);
    }
    out
}

/// `arena pgn`.
pub(super) async fn pgn(args: PgnArgs) -> CliResult {
    let db = open_existing(&args.db).await?;
    match &args.output {
        Some(path) => {
            let games = write_pgn(&db, args.run, path).await?;
            eprintln!("wrote {games} games to {}", path.display());
        }
        None => {
            let mut out = std::io::stdout().lock();
            stream_pgn(&db, args.run, &mut out).await?;
        }
    }
    Ok(())
}

/// Writes a run's games to `path`; returns how many.
pub(super) async fn write_pgn(db: &Db, run: i64, path: &Path) -> Result<u64, CliError> {
    let file = std::fs::File::create(path).map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    let mut out = std::io::BufWriter::new(file);
    let games = stream_pgn(db, run, &mut out).await?;
    out.flush().map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    Ok(games)
}

async fn stream_pgn(db: &Db, run: i64, out: &mut impl Write) -> Result<u64, CliError> {
    let row = db.run(run).await?;
    let spec: Option<RunSpec> = serde_json::from_str(&row.spec).ok();
    let tc = spec.as_ref().and_then(|s| s.tc.parse::<TimeControl>().ok()).map_or("-".to_string(), |tc| tc.pgn_tag());
    let event = format!("arena run {run} ({})", row.kind);
    let mut after = 0;
    let mut count = 0;
    let mut text = String::with_capacity(1 << 20);
    loop {
        let page = db.games_page(run, after, 2000, true).await?;
        let Some(last) = page.last() else { break };
        after = last.id;
        text.clear();
        for game in &page {
            let context = Context {
                event: &event,
                site: &row.machine,
                round: format!("{}.{}", game.pair_index + 1, game.game_in_pair + 1),
                time_control: &tc,
            };
            write_game(&mut text, &game.record, &context);
            count += 1;
        }
        out.write_all(text.as_bytes()).map_err(|e| CliError(format!("cannot write PGN: {e}")))?;
    }
    Ok(count)
}
