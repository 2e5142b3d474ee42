//! What the commands share: opening the database, where engines and logs
//! are, the PGN export, and what is printed when a run ends here (the
//! short report, from [`crate::reporting`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use db::{Db, DbError, Target};
use model::{Spec, SuiteSpec, Variant};
use reports::pgn::{Context, Level, write_game};

use super::{CliError, PgnLevel, PgnStyle, RecordArgs};
use super::{out, outln};
use crate::clock::TimeControl;
use crate::process::Timeouts;
use crate::reporting::{Detail, report_of};
use crate::suite::epd::TestPosition;
use crate::suite::load_suite;
use crate::work::local::RunEnd;
use crate::work::{RunError, Runtime};

/// Refuses a `--concurrency` (`what` it counts) of 0, or one the machine's
/// limit on open files cannot hold, with one line.
pub(super) fn check_concurrency(concurrency: usize, what: &str) -> Result<(), CliError> {
    if concurrency == 0 {
        return Err(CliError(format!("--concurrency must be at least 1 ({what})")));
    }
    crate::limits::fit_open_files(concurrency).map_err(CliError)?;
    Ok(())
}

/// Opens (creating if needed) the database.
pub(super) async fn open_db(target: &Target) -> Result<Db, CliError> {
    Ok(Db::open(target).await?)
}

/// Opens a database that must exist already (commands that read runs).
pub(super) async fn open_existing(target: &Target) -> Result<Db, CliError> {
    if !target.exists() {
        return Err(CliError(format!("no database at {target} (give one with --db PATH or --db postgres://…)")));
    }
    Ok(Db::open(target).await?)
}

/// The `arena` binary, which runs the bundled engine.
pub(super) fn arena_exe() -> Result<PathBuf, CliError> {
    std::env::current_exe().map_err(|e| CliError(format!("cannot find the arena binary to start bundled engines: {e}")))
}

/// Engines' stderr logs go to `arena-logs/` beside a SQLite file, or in the
/// current folder for a server.
pub(super) fn runtime(
    db: &Db,
    target: &Target,
    quiet: bool,
    affinity: Option<crate::affinity::Affinity>,
    io_logs: bool,
) -> Result<Runtime, CliError> {
    let beside = match target {
        Target::Sqlite(path) => path.parent().unwrap_or(Path::new(".")),
        Target::Postgres(_) => Path::new("."),
    };
    Ok(Runtime {
        db: db.clone(),
        arena_exe: arena_exe()?,
        log_dir: Some(beside.join("arena-logs")),
        timeouts: Timeouts::default(),
        progress: !quiet,
        affinity,
        io_logs,
    })
}

/// Starts and quits every engine of a run once (see [`crate::work::preflight`]).
pub(super) async fn preflight(spec: &Spec) -> Result<(), CliError> {
    Ok(crate::work::preflight(&arena_exe()?, Timeouts::default(), spec).await?)
}

/// Says how to play a run created with `--no-local`.
pub(super) fn waits_for_workers(run: i64, target: &Target) -> Result<(), CliError> {
    outln!("run {run}");
    eprintln!(
        "run {run} waits for workers (--no-local): arena worker --db {target} --run {run}; follow it with: arena show {run} --db {target}"
    );
    Ok(())
}

/// The positions a suite spec runs: its suite, cut to `count`; skipped lines are said.
pub(super) fn suite_positions(spec: &SuiteSpec) -> Result<Vec<TestPosition>, CliError> {
    let suite = load_suite(&spec.suite).map_err(CliError)?;
    for problem in suite.skipped.iter().take(5) {
        eprintln!("skipped {problem}");
    }
    if suite.skipped.len() > 5 {
        eprintln!("skipped {} more lines of {}", suite.skipped.len() - 5, spec.suite);
    }
    let mut positions = suite.positions;
    positions.truncate(spec.count.unwrap_or(usize::MAX));
    Ok(positions)
}

/// Writes a run's games as PGN to `out` in `style`; returns how many.
pub(super) async fn stream_pgn(db: &Db, run: i64, out: &mut impl Write, style: &PgnStyle) -> Result<u64, CliError> {
    let info = db.run(run).await?;
    let (tc, variant) = match Spec::of(&info) {
        Ok(Spec::Games(spec)) => (spec.tc.parse::<TimeControl>().ok().map(|tc| tc.pgn_tag()), spec.variant),
        _ => (None, Variant::Standard),
    };
    let tc = tc.unwrap_or_else(|| "-".to_string());
    let event = style.event.clone().unwrap_or_else(|| format!("arena run {run} ({})", info.kind));
    let site = style.site.as_deref().unwrap_or(&info.machine);
    let level = match style.pgn_level {
        PgnLevel::Min => Level::Min,
        PgnLevel::Normal => Level::Normal,
        PgnLevel::Full => Level::Full,
    };
    let mut count = 0;
    let mut text = String::with_capacity(1 << 20);
    for_each_page(db, run, |page| {
        text.clear();
        for game in page {
            let context = Context {
                event: &event,
                site,
                round: format!("{}.{}", game.pair_index + 1, game.game_in_pair + 1),
                time_control: &tc,
                variant,
                level,
            };
            write_game(&mut text, &game.record, &context);
            count += 1;
        }
        out.write_all(text.as_bytes()).map_err(|e| super::write_error(&e, "the PGN output"))
    })
    .await?;
    Ok(count)
}

/// Calls `write` with a run's games with their moves, a page at a time, in
/// id order. The next page is read and decoded by another task while
/// `write` formats this one, so an export keeps two cores busy.
async fn for_each_page(
    db: &Db,
    run: i64,
    mut write: impl FnMut(&[model::GameRow]) -> Result<(), CliError>,
) -> Result<(), CliError> {
    const PAGE: i64 = 1000;
    let fetch = |after: i64| {
        let db = db.clone();
        tokio::spawn(async move { db.games_page(run, after, PAGE, true).await })
    };
    let mut next = fetch(0);
    loop {
        let page = next.await.map_err(|e| CliError(format!("reading the games failed: {e}")))??;
        let Some(last) = page.last() else { return Ok(()) };
        next = fetch(last.id);
        write(&page)?;
    }
}

/// Writes a run's games to `path`; returns how many.
pub(super) async fn write_pgn(db: &Db, run: i64, path: &Path, style: &PgnStyle) -> Result<u64, CliError> {
    let file = std::fs::File::create(path).map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    let mut out = std::io::BufWriter::new(file);
    let games = stream_pgn(db, run, &mut out, style).await?;
    out.flush().map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))?;
    Ok(games)
}

/// Writes each game's final position to `path` as EPD (the position, its
/// move counters, the game as `id` and its players and result as `c0`);
/// returns how many.
pub(super) async fn write_epd(db: &Db, run: i64, path: &Path) -> Result<u64, CliError> {
    let cannot = |e: std::io::Error| CliError(format!("cannot write {}: {e}", path.display()));
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).map_err(cannot)?);
    let mut count = 0;
    for_each_page(db, run, |page| {
        let mut text = String::new();
        for game in page {
            let record = &game.record;
            let fen = openings::fen_of(&crate::game::final_position(record));
            let fields: Vec<&str> = fen.split_whitespace().collect();
            let quote = |s: &str| s.replace(['"', ';'], "'");
            text += &format!(
                "{} hmvc {}; fmvn {}; id \"arena run {run} pair {} game {}\"; c0 \"{} - {} {} ({})\";\n",
                fields[..4].join(" "),
                fields.get(4).unwrap_or(&"0"),
                fields.get(5).unwrap_or(&"1"),
                game.pair_index + 1,
                game.game_in_pair + 1,
                quote(&record.white),
                quote(&record.black),
                record.result.pgn(),
                record.termination.as_str()
            );
            count += 1;
        }
        out.write_all(text.as_bytes()).map_err(cannot)
    })
    .await?;
    out.flush().map_err(cannot)?;
    Ok(count)
}

/// Plays stored run `run` here (after its engines passed the preflight),
/// then prints its short report, writes the PGN if asked, and says how to
/// continue a stopped run. A suite's `positions` are read from its file
/// unless given.
pub(super) async fn play_run(
    runtime: &Runtime,
    target: &Target,
    run: i64,
    spec: Spec,
    positions: Option<Vec<TestPosition>>,
    record: &RecordArgs,
) -> Result<(), CliError> {
    let end = match spec {
        Spec::Games(spec) => crate::work::local::play_pairs(runtime, run, &spec).await,
        Spec::Suite(spec) => {
            let positions = match positions {
                Some(positions) => positions,
                None => suite_positions(&spec)?,
            };
            if positions.len() != spec.positions {
                return Err(CliError(format!(
                    "suite {} has {} positions now but run {run} started with {}; restore the file it started with to resume",
                    spec.suite,
                    positions.len(),
                    spec.positions
                )));
            }
            crate::work::local::play_suite(runtime, run, &spec, positions).await
        }
    };
    let db = &runtime.db;
    let end = end.map_err(|e| match e {
        RunError::Db(DbError::DiskFull { .. }) => CliError(format!("run {run}: {e}: arena resume {run} --db {target}")),
        e => CliError(format!("run {run}: {e}")),
    })?;
    out!("{}", report_of(db, run, None, Detail::Brief).await?.brief());
    if let Some(path) = &record.pgn {
        let games = write_pgn(db, run, path, &record.style).await?;
        eprintln!("wrote {games} games to {}", path.display());
    }
    if let Some(path) = &record.epdout {
        let games = write_epd(db, run, path).await?;
        eprintln!("wrote {games} final positions to {}", path.display());
    }
    db.close().await;
    if end == RunEnd::Stopped {
        eprintln!("run {run} stopped; continue it with: arena resume {run} --db {target}");
    }
    Ok(())
}
