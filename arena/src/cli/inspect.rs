//! `arena runs`, `arena show RUN`, `arena pgn RUN`: reading the database only.

use anyhow::{Context as _, anyhow};
use std::io::Write as _;
use std::path::PathBuf;

use clap::Args;
use model::{Invalid, RunStatus, Spec};

use super::common::open_existing;
use super::shared::{CliResult, DbArg, PgnFlags, out};
use crate::reporting::{Ask, Detail, report_of};
use crate::run::record::{stream_moves_csv, stream_pgn, write_epd, write_pgn};
use crate::serve::run_rows;

/// `arena runs`: the dashboard's filters, as flags.
#[derive(Args, Debug)]
pub struct RunsArgs {
    /// Only the runs of this status: running, stopped or finished.
    #[arg(long, value_parser = run_status)]
    status: Option<RunStatus>,
    /// Only the runs that play this engine (a scaling run's copies NAME@BUDGET count as NAME).
    #[arg(long, value_name = "NAME")]
    engine: Option<String>,
    /// Only runs older than run ID (the next page: the last ID of the page before).
    #[arg(long, value_name = "ID", value_parser = super::shared::at_least::<i64, 1>)]
    before: Option<i64>,
    /// Only the newest N runs (all by default; the dashboard's ?limit=).
    #[arg(long, value_name = "N", value_parser = super::shared::at_least::<i64, 1>)]
    count: Option<i64>,
    #[command(flatten)]
    db: DbArg,
}

/// `--status`: a run's status, as stored.
fn run_status(text: &str) -> Result<RunStatus, Invalid> {
    RunStatus::parse(text.trim())
        .ok_or_else(|| Invalid::new("status", format!("'{text}' is not one of running, stopped, finished")))
}

/// `arena show`.
#[derive(Args, Debug)]
pub struct RunArgs {
    /// Run id (see `arena runs`).
    run: i64,
    #[command(flatten)]
    db: DbArg,
    /// Print the run as a run file instead (every setting, engines inline): `arena run FILE.toml` plays the same plan again.
    #[arg(long)]
    config: bool,
}

/// `arena pgn`.
#[derive(Args, Debug)]
pub struct PgnArgs {
    /// Run id (see `arena runs`).
    run: i64,
    #[command(flatten)]
    db: DbArg,
    /// Output file (standard output without it).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Also write each game's final position to this EPD file.
    #[arg(long, value_name = "FILE")]
    epdout: Option<PathBuf>,
    #[command(flatten)]
    style: PgnFlags,
}

/// `arena moves`.
#[derive(Args, Debug)]
pub struct MovesArgs {
    /// Run id (see `arena runs`).
    run: i64,
    #[command(flatten)]
    db: DbArg,
    /// Output file (standard output without it).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// `arena log`.
#[derive(Args, Debug)]
pub struct LogArgs {
    /// Run id (see `arena runs`).
    run: i64,
    /// The game as PGN's Round tag names it: PAIR.GAME, e.g. 3.2 (pair 3, colours swapped).
    game: String,
    #[command(flatten)]
    db: DbArg,
}

/// `arena runs`: the dashboard's list of runs (`serve::runs_table`), as text.
pub(super) async fn runs(args: RunsArgs) -> CliResult {
    let db = open_existing(&args.db.target).await?;
    let filter = db::RunFilter {
        before: args.before,
        status: args.status,
        engine: args.engine,
        limit: args.count.unwrap_or(i64::MAX),
    };
    let rows = run_rows(&db, &db.runs_page(&filter).await?).await?;
    out!("{}", crate::serve::runs_table(&rows).text(false));
    Ok(())
}

/// `arena show`: the short view of the run's report.
pub(super) async fn show(args: RunArgs) -> CliResult {
    let db = open_existing(&args.db.target).await?;
    if args.config {
        let info = db.run(args.run).await?;
        let Spec::Games(spec) = Spec::of(&info)? else {
            return Err(anyhow!(
                "run {} is a suite run: run files hold runs of games (repeat it with arena suite)",
                args.run
            ));
        };
        out!("{}", super::runfile::write(&spec)?);
        return Ok(());
    }
    out!("{}", report_of(&db, args.run, Ask::of(Detail::Brief)).await?.brief());
    Ok(())
}

/// `arena log`: the engine I/O log of one game.
pub(super) async fn log(args: LogArgs) -> CliResult {
    let bad = || {
        anyhow!("'{}' is not a game: give PAIR.GAME as in the PGN's Round tag, e.g. 3.2 (game 2 of pair 3)", args.game)
    };
    let (pair, game) = args.game.split_once('.').ok_or_else(bad)?;
    let (pair, game): (i64, i64) = (pair.parse().map_err(|_| bad())?, game.parse().map_err(|_| bad())?);
    if pair < 1 || !(1..=2).contains(&game) {
        return Err(bad());
    }
    let db = open_existing(&args.db.target).await?;
    db.run(args.run).await?;
    let found = db.game_io_log(args.run, pair - 1, game - 1).await?;
    db.close().await;
    let Some(found) = found else {
        return Err(anyhow!("run {} has no game {pair}.{game} stored (see arena pgn {})", args.run, args.run));
    };
    let Some(place) = found else {
        return Err(anyhow!(
            "game {pair}.{game} of run {} was played without an I/O log (--no-io-log, or before arena kept them)",
            args.run
        ));
    };
    let (host, path) = crate::engine_io::iolog::split_place(&place);
    let text = crate::engine_io::iolog::read(path).map_err(|e| {
        anyhow!(
            "the log of game {pair}.{game} was {path} on {host}: {e} (run arena log on that machine; logs of games without a fault are rotated after {} games)",
            crate::engine_io::iolog::IO_LOGS_KEPT
        )
    })?;
    out!("{text}");
    Ok(())
}

/// `arena pgn`.
pub(super) async fn pgn(args: PgnArgs) -> CliResult {
    let db = open_existing(&args.db.target).await?;
    match &args.output {
        Some(path) => {
            let games = write_pgn(&db, args.run, path, &args.style.style(), false).await?;
            crate::term::note(&format!("wrote {games} games to {}", path.display()));
        }
        None => {
            let mut out = std::io::stdout().lock();
            stream_pgn(&db, args.run, &mut out, &args.style.style()).await.map_err(super::shared::record_error)?;
        }
    }
    if let Some(path) = &args.epdout {
        let games = write_epd(&db, args.run, path).await?;
        crate::term::note(&format!("wrote {games} final positions to {}", path.display()));
    }
    Ok(())
}

/// `arena moves`: a row per engine move as CSV, for SQL and data tools (the
/// database keeps moves packed, which SQL cannot read).
pub(super) async fn moves(args: MovesArgs) -> CliResult {
    let db = open_existing(&args.db.target).await?;
    db.run(args.run).await?;
    match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
            let mut out = std::io::BufWriter::new(file);
            let games = stream_moves_csv(&db, args.run, &mut out).await?;
            out.flush().with_context(|| format!("cannot write {}", path.display()))?;
            crate::term::note(&format!("wrote the moves of {games} games to {}", path.display()));
        }
        None => {
            let mut out = std::io::stdout().lock();
            stream_moves_csv(&db, args.run, &mut out).await.map_err(super::shared::record_error)?;
            out.flush().map_err(|e| super::shared::write_error(e, "the CSV output"))?;
        }
    }
    Ok(())
}
