//! What the commands share: opening the database, where engines and logs
//! are, and what is printed and written when a run ends here (the short
//! report, from [`crate::reporting`]; the PGN and EPD, from [`super::export`]).

use anyhow::anyhow;
use std::path::Path;

use db::{Db, Target};
use model::{Spec, SuiteSpec};

use super::export::{Follow, LivePgn, write_epd, write_pgn};
use super::{CliResult, RecordArgs};
use super::{out, outln};
use crate::reporting::{Ask, Detail, report_of};
use crate::run::Runtime;
use crate::run::local::RunEnd;
use openings::epd::TestPosition;
use openings::suites::load_suite;

/// Refuses a `--concurrency` that the machine's limit on open files cannot
/// hold, with one line (clap refuses 0).
pub(super) fn check_concurrency(concurrency: usize) -> CliResult<()> {
    crate::engine_io::open_files::fit_open_files(concurrency)?;
    Ok(())
}

/// Opens (creating if needed) the database (see [`crate::run::life::open`]).
pub(super) async fn open_db(target: &Target) -> CliResult<Db> {
    Ok(crate::run::life::open(target).await?)
}

/// Opens a database that must exist already (commands that read runs).
pub(super) async fn open_existing(target: &Target) -> CliResult<Db> {
    if !target.exists() {
        return Err(anyhow!("no database at {target} (give one with --db PATH or --db postgres://…)"));
    }
    open_db(target).await
}

/// The `arena` binary, which runs the bundled engine.
pub(super) fn arena_exe() -> CliResult<std::path::PathBuf> {
    Ok(crate::run::life::arena_exe()?)
}

/// How this machine plays, from its flags.
pub(super) fn here(
    target: &Target,
    quiet: bool,
    affinity: Option<crate::engine_io::affinity::Affinity>,
    io_logs: bool,
) -> crate::run::life::Here {
    crate::run::life::Here { target: target.clone(), quiet, affinity, io_logs }
}

/// Says how to play a run created with `--no-local`: the worker's command
/// with a `--repo NAME=…` for each repository its engines are built from
/// (this machine's clone; another machine names its own).
pub(super) fn waits_for_workers(run: i64, target: &Target, spec: &Spec) -> CliResult<()> {
    outln!("run {run}");
    let mut repos: Vec<String> = Vec::new();
    for source in spec.engines().iter().filter_map(|e| e.source.as_ref()) {
        let flag = format!(" --repo {}={}", model::spec::repo_name(&source.repo), source.repo);
        if !repos.contains(&flag) {
            repos.push(flag);
        }
    }
    crate::term::note(&format!(
        "run {run} waits for workers (--no-local): arena worker --db {target} --run {run}{}; follow it with: arena show {run} --db {target}",
        repos.concat()
    ));
    Ok(())
}

/// The positions a suite spec runs: its suite, cut to `count`; skipped lines are said.
pub(super) fn suite_positions(spec: &SuiteSpec) -> CliResult<Vec<TestPosition>> {
    let suite = load_suite(&spec.suite)?;
    for problem in suite.skipped.iter().take(5) {
        crate::term::note(&format!("skipped {problem}"));
    }
    if suite.skipped.len() > 5 {
        crate::term::note(&format!("skipped {} more lines of {}", suite.skipped.len() - 5, spec.suite));
    }
    let mut positions = suite.positions;
    positions.truncate(spec.count.unwrap_or(usize::MAX));
    Ok(positions)
}

/// How a run that plays here is shown: arena's progress line and summary,
/// or another tool's lines (`arena fastchess`, `arena cutechess`).
pub(super) enum View<'a> {
    /// The progress line, then the short report.
    Arena,
    /// Lines for each game as it is stored, and at the end.
    Lines(&'a mut dyn GameLines),
}

/// What prints a run's games as they are stored, instead of the summary.
pub(super) trait GameLines {
    /// Games stored since the last call, in id order: whole pairs.
    ///
    /// # Errors
    ///
    /// Standard output failed.
    fn games(&mut self, games: &[model::GameRow]) -> CliResult;

    /// The run ended here, its last games given and its PGN (at `pgn`, if
    /// asked for) written.
    ///
    /// # Errors
    ///
    /// Standard output failed, or the PGN cannot be read back.
    fn end(&mut self, pgn: Option<&Path>) -> CliResult;

    /// Run `run` in `target` is about to play here (a new run, or one resumed).
    ///
    /// # Errors
    ///
    /// What the printer cannot write.
    fn started(&mut self, run: i64, target: &Target) -> CliResult;

    /// The finishing number of the last pair already given (0: none).
    fn followed(&self) -> i64;
}

/// Runs `playing` while giving `lines` the games of each pair as it
/// finishes (each time `events` says one was stored), in finishing order
/// (final on either backend: [`Db::games_finished_after`]).
async fn follow_games<T>(
    db: &Db,
    run: i64,
    lines: &mut dyn GameLines,
    events: Follow,
    playing: impl Future<Output = T>,
) -> CliResult<T> {
    let reader = if db.is_shared() { db.clone() } else { db.reader().await? };
    let mut after = lines.followed();
    let (end, followed) = crate::util::while_playing(playing, events, async || -> CliResult {
        after = give_games(&reader, run, after, &mut *lines).await?;
        Ok(())
    })
    .await;
    followed?;
    give_games(&reader, run, after, lines).await?;
    Ok(end)
}

/// Gives `lines` the games of run `run`'s pairs finished after the
/// `after`-th; the finishing number of the last given.
pub(super) async fn give_games(db: &Db, run: i64, mut after: i64, lines: &mut dyn GameLines) -> CliResult<i64> {
    const PAIRS: i64 = 250;
    loop {
        let (games, last) = db.games_finished_after(run, after, PAIRS).await?;
        after = last;
        if !games.is_empty() {
            lines.games(&games)?;
        }
        if (games.len() as i64) < 2 * PAIRS {
            return Ok(after);
        }
    }
}

/// Plays stored run `run` here (after its engines passed the preflight),
/// then prints its short report (or `view`'s lines), writes the PGN if
/// asked, and says how to continue a stopped run. A suite's `positions`
/// are read from its file unless given.
pub(super) async fn play_run(
    runtime: &Runtime,
    target: &Target,
    run: i64,
    spec: Spec,
    positions: Option<Vec<TestPosition>>,
    record: &RecordArgs,
    view: View<'_>,
) -> CliResult<()> {
    let db = &runtime.db;
    let mut live = None;
    let mut view = view;
    if let View::Lines(lines) = &mut view {
        lines.started(run, target)?;
    }
    // A tool's PGN continued: the games of this run in its file already are not written again.
    let continued;
    let record = match (&record.pgn, record.continued) {
        (Some(path), true) => {
            let mut again = record.clone();
            again.style.written = std::sync::Arc::new(super::export::games_in(path));
            continued = again;
            &continued
        }
        _ => record,
    };
    let positions = match &spec {
        Spec::Suite(suite) => match positions {
            Some(positions) => positions,
            None => suite_positions(suite)?,
        },
        Spec::Games(_) => Vec::new(),
    };
    let events = crate::run::Events::new();
    let (for_pgn, for_lines) = (events.follow(), events.follow());
    let playing = crate::run::life::play_here(runtime, run, &spec, positions, events);
    let pgn = match (&record.pgn, &spec) {
        (Some(path), Spec::Games(_)) => LivePgn::create(db, run, path, &record.style, record.append).await?,
        _ => None,
    };
    let end = match (pgn, &mut view) {
        (Some(pgn), View::Arena) => live.insert(pgn).follow(for_pgn, playing).await,
        (Some(pgn), View::Lines(lines)) => {
            live.insert(pgn).follow(for_pgn, follow_games(db, run, &mut **lines, for_lines, playing)).await?
        }
        (None, View::Lines(lines)) => follow_games(db, run, &mut **lines, for_lines, playing).await?,
        (None, View::Arena) => playing.await,
    };
    let end = end.map_err(|e| match e {
        e if e.resume_helps() => {
            let line = format!("run {run}: {e}: arena resume {run} --db {target}");
            anyhow::Error::new(e).context(line)
        }
        e => anyhow::Error::new(e).context(format!("run {run}")),
    })?;
    let noted = matches!(view, View::Arena);
    if noted {
        out!("{}", report_of(db, run, Ask::of(Detail::Brief)).await?.brief());
    }
    if let Some(path) = &record.pgn {
        let games = match live {
            Some(pgn) => pgn.finish().await?,
            None => write_pgn(db, run, path, &record.style, record.append).await?,
        };
        if noted {
            crate::term::note(&format!("wrote {games} games to {}", path.display()));
        }
    }
    if let Some(path) = &record.epdout {
        let games = write_epd(db, run, path).await?;
        if noted {
            crate::term::note(&format!("wrote {games} final positions to {}", path.display()));
        }
    }
    db.close().await;
    if let View::Lines(lines) = view {
        lines.end(record.pgn.as_deref())?;
    }
    if end == RunEnd::Stopped {
        crate::term::note(&format!("run {run} stopped; continue it with: arena resume {run} --db {target}"));
    }
    Ok(())
}

/// Warns when the run plays on a clock with more game slots than CPUs for them.
pub(super) fn warn_of_sharing(clocked: bool, slots: usize, per_slot: usize) {
    let cpus = crate::engine_io::affinity::cpu_count();
    if let Some(warning) = crate::engine_io::affinity::sharing_warning(slots, per_slot, cpus).filter(|_| clocked) {
        crate::term::warn(&warning);
    }
}
