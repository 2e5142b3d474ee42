//! A run's life, one API for every front end (arena's commands, run files,
//! the fastchess and cutechess command lines): [`open`] the database,
//! [`create_games`] or [`create_suite`] (plan, make the engines ready here,
//! store the run), [`ready_again`] for a stored run played on, then
//! [`play_recorded`] (the work loop in this process, its PGN and EPD
//! written, a printer given each pair's games as [`Events`] say it is
//! stored) or leave it to `arena worker`s. What a front end prints (the
//! first line, the progress, the summary or another tool's lines) is its own.

use std::path::{Path, PathBuf};

use db::{Db, DbError, Target};
use model::{EngineIdentity, GameRow, GamesKind, GamesSpec, Spec, SuiteSpec};
use openings::Book;
use openings::epd::TestPosition;

use super::error::RunError;
use super::identity::{check_identities, make_ready, stored_repo};
use super::local::{RunEnd, play_pairs, play_suite};
use super::plan::{Capped, apply_variant, cap_replays, plan};
use super::record::{LivePgn, RecordError, Records, games_in, write_epd, write_pgn};
use super::shared::Events;
use super::slot::Runtime;
use crate::engine_io::affinity::Affinity;
use crate::engine_io::process::Timeouts;

/// How this machine plays a run: where it is stored, whether progress is
/// drawn, which CPUs the slots are pinned to, whether engine I/O is logged.
#[derive(Debug)]
pub struct Here {
    /// The database.
    pub target: Target,
    /// No progress line (`--quiet`).
    pub quiet: bool,
    /// The CPUs of each slot, if pinned.
    pub affinity: Option<Affinity>,
    /// Engine I/O logs kept.
    pub io_logs: bool,
}

/// How this machine pins its game slots to CPUs (`--affinity`).
#[derive(Clone, Debug, Default)]
pub enum Pinning {
    /// Pinned when there are two slots or more and each can have CPUs of
    /// its own ([`Affinity::auto`]).
    #[default]
    Auto,
    /// Every engine left to the operating system (`--affinity none`).
    Off,
    /// These CPUs, shared among the slots.
    Cpus(Affinity),
}

/// This machine as every front end's flags resolve it: the database, the
/// progress line, the pinning, the I/O logs, and whether it plays the run
/// at all (`--no-local` leaves it to workers).
#[derive(Clone, Debug)]
pub struct Machine {
    /// The database.
    pub target: Target,
    /// No progress line (`--quiet`).
    pub quiet: bool,
    /// How slots are pinned.
    pub pinning: Pinning,
    /// Engine I/O logs kept.
    pub io_logs: bool,
    /// This process plays the run (not `--no-local`).
    pub plays_here: bool,
}

/// What a run's slots need of this machine.
#[derive(Clone, Copy, Debug)]
pub struct SlotNeeds {
    /// Games at once.
    pub concurrency: usize,
    /// CPUs a slot needs: two where its engines ponder.
    pub per_slot: usize,
    /// The games play on a clock, which CPUs shared with other slots would
    /// slow.
    pub clocked: bool,
}

impl SlotNeeds {
    /// What `spec`'s slots need at `concurrency` games at once.
    pub fn of(spec: &Spec, concurrency: usize) -> SlotNeeds {
        match spec {
            Spec::Games(games) => SlotNeeds::of_games(games, concurrency),
            Spec::Suite(_) => SlotNeeds { concurrency, per_slot: 1, clocked: false },
        }
    }

    /// What a run of games' slots need at `concurrency` games at once.
    pub fn of_games(spec: &GamesSpec, concurrency: usize) -> SlotNeeds {
        SlotNeeds {
            concurrency,
            per_slot: crate::run::concurrency::cpus_per_slot(&spec.engines),
            clocked: super::plan::on_a_clock(spec),
        }
    }
}

impl Machine {
    /// The one setup of this machine's slots, for every front end: the
    /// open files the games at once need checked against the limit, the
    /// pinning chosen and checked against the CPUs, and the warning said
    /// when games on a clock would share CPUs. A machine that does not
    /// play the run (`--no-local`) checks and says nothing.
    ///
    /// # Errors
    ///
    /// [`RunError::OpenFiles`] or [`RunError::Setting`] (fewer CPUs than
    /// the slots need), each one line.
    pub fn here(&self, needs: SlotNeeds) -> Result<Here, RunError> {
        let SlotNeeds { concurrency, per_slot, clocked } = needs;
        if self.plays_here {
            crate::engine_io::open_files::fit_open_files(concurrency)?;
        }
        let affinity = match &self.pinning {
            Pinning::Auto => Affinity::auto(concurrency, per_slot),
            Pinning::Off => None,
            Pinning::Cpus(cpus) => {
                cpus.fits(concurrency, per_slot)?;
                Some(cpus.clone())
            }
        };
        if self.plays_here && clocked {
            let cpus = crate::engine_io::affinity::cpu_count();
            if let Some(warning) = crate::engine_io::affinity::sharing_warning(concurrency, per_slot, cpus) {
                crate::term::warn(&warning);
            }
        }
        Ok(Here { target: self.target.clone(), quiet: self.quiet, affinity, io_logs: self.io_logs })
    }
}

/// A run just stored: what it plays and how to play it here.
pub struct Created {
    /// Its id.
    pub run: i64,
    /// What it plays, its engines as made ready here.
    pub spec: Spec,
    /// The database and the engines' environment.
    pub runtime: Runtime,
    /// What it plays, in words: `elo fhr vs plain at 8+0.08, 80 games from
    /// feldmann25 (25 openings), concurrency 2`.
    pub described: String,
    /// Pairs of games planned (0 for a suite).
    pub pairs: usize,
    /// Why fewer games are played than asked (the book cannot give that
    /// many distinct ones), said once in the front end's own words.
    pub replays_capped: Option<Capped>,
}

/// The `arena` binary, which runs the bundled engine.
///
/// # Errors
///
/// [`RunError::Exe`] when the running program cannot be found.
pub fn arena_exe() -> Result<PathBuf, RunError> {
    std::env::current_exe().map_err(RunError::Exe)
}

/// Opens (creating if needed) the database; an older schema is upgraded,
/// said on a terminal's live line while it lasts.
///
/// # Errors
///
/// [`DbError`] when it cannot be opened or upgraded.
pub async fn open(target: &Target) -> Result<Db, DbError> {
    let db = Db::open_noting(target, |upgrade| {
        if !crate::term::is_terminal() {
            return;
        }
        crate::term::set_line(&format!(
            "upgrading the database's schema (migrations {} to {}; a large file takes minutes)…",
            upgrade.from + 1,
            upgrade.to
        ));
    })
    .await;
    crate::term::end_line();
    db
}

/// The engines' environment of a run played here: engines' stderr logs
/// go to `arena-logs/` beside a SQLite file, or in the current folder for
/// a server.
///
/// # Errors
///
/// [`RunError::Exe`] when the running program cannot be found.
pub fn runtime(db: &Db, here: Here) -> Result<Runtime, RunError> {
    let beside = match &here.target {
        Target::Sqlite(path) => path.parent().unwrap_or(Path::new(".")),
        Target::Postgres(_) => Path::new("."),
    };
    Ok(Runtime {
        db: db.clone(),
        arena_exe: arena_exe()?,
        log_dir: Some(beside.join("arena-logs")),
        timeouts: Timeouts::default(),
        progress: !here.quiet,
        affinity: here.affinity,
        io_logs: here.io_logs,
    })
}

/// Makes a run's engines ready here from what the spec stores (source
/// engines built, every engine started once, bench signatures checked; see
/// [`super::identity`]): what plays, to record once the run exists.
///
/// # Errors
///
/// [`RunError`] for an engine that cannot be built, started or checked.
pub async fn ready(spec: &mut Spec) -> Result<Vec<EngineIdentity>, RunError> {
    make_ready(&arena_exe()?, Timeouts::default(), spec, &stored_repo).await
}

/// Plans a run of games from `book` (capped to the distinct games it can
/// give), makes its engines ready, and stores it with what plays here.
///
/// # Errors
///
/// [`RunError`] for an engine that fails, or storage.
pub async fn create_games(mut spec: GamesSpec, book: &Book, here: Here) -> Result<Created, RunError> {
    let replays_capped = cap_replays(&mut spec, book);
    let plan = plan(&spec, book);
    apply_variant(&mut spec, &plan);
    let (engines, limit) = engines_and_limit(&spec);
    let described = format!(
        "{}{} {engines} at {limit}, {} games from {} ({} openings{}){}",
        spec.kind,
        if spec.variant.is_standard() { "" } else { " (Chess960)" },
        2 * plan.len(),
        spec.openings,
        book.len(),
        spec.seed.map_or(String::new(), |seed| format!(", shuffled with seed {seed}")),
        spec.concurrency.map_or(String::new(), |n| format!(", concurrency {n}")),
    );
    let mut spec = Spec::Games(spec);
    let measured = ready(&mut spec).await?;
    let db = open(&here.target).await?;
    let runtime = runtime(&db, here)?;
    let run = db.create_run(&spec, &plan, &crate::util::machine_name()).await?;
    check_identities(&db, run, spec.engines(), &measured, false).await?;
    Ok(Created { run, spec, runtime, described, pairs: plan.len(), replays_capped })
}

/// Stores a suite run of `positions` (its chunks planned) with what plays here.
///
/// # Errors
///
/// [`RunError`] for an engine that fails, or storage.
pub async fn create_suite(spec: SuiteSpec, positions: &[TestPosition], here: Here) -> Result<Created, RunError> {
    let described = format!(
        "suite {} ({} positions) × {} × {}, concurrency {}",
        spec.suite,
        positions.len(),
        spec.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(","),
        spec.limits.iter().map(|l| l.label()).collect::<Vec<_>>().join(", "),
        spec.concurrency,
    );
    let chunks = super::chunks::plan_chunks(&spec, &Default::default());
    let mut spec = Spec::Suite(spec);
    let measured = ready(&mut spec).await?;
    let db = open(&here.target).await?;
    let runtime = runtime(&db, here)?;
    let run = db.create_run(&spec, &[], &crate::util::machine_name()).await?;
    check_identities(&db, run, spec.engines(), &measured, false).await?;
    db.plan_suite_chunks(run, &chunks).await?;
    Ok(Created { run, spec, runtime, described, pairs: 0, replays_capped: None })
}

/// A stored run made ready to play on here: its engines started (and built)
/// again and checked against what played it before, a change refused
/// unless `accept_change`.
///
/// # Errors
///
/// [`RunError`] for an engine that fails or changed, or storage.
pub async fn ready_again(
    db: &Db,
    run: i64,
    spec: &mut Spec,
    here: Here,
    accept_change: bool,
) -> Result<Runtime, RunError> {
    let measured = ready(spec).await?;
    check_identities(db, run, spec.engines(), &measured, accept_change).await?;
    runtime(db, here)
}

/// Stopped run `run` made ready to play on here where it stopped, the
/// one resume of every front end (`arena resume`, a tool's state file, the
/// dashboard's resume leaves it to a worker): refused when it is finished
/// or holds imported games; at `concurrency` games at once where given
/// (checked against this machine's CPUs), else as it started; this
/// machine's slots set up; its engines made ready and checked against
/// what played them before, a change refused unless `accept_change`.
///
/// # Errors
///
/// [`RunError::Finished`], [`RunError::Imported`], a setting this machine
/// cannot play, an engine that fails or changed, storage.
pub async fn resume(
    db: &Db,
    run: i64,
    machine: &Machine,
    concurrency: Option<crate::run::concurrency::Concurrency>,
    accept_change: bool,
) -> Result<(Runtime, Spec), RunError> {
    let info = db.run(run).await?;
    if info.status == model::RunStatus::Finished {
        return Err(RunError::Finished { run });
    }
    if info.kind == model::RunKind::Import {
        return Err(RunError::Imported { run });
    }
    let mut spec = Spec::of(&info)?;
    let stored = spec.concurrency().ok_or(RunError::NoConcurrency { run })?;
    let per_slot = SlotNeeds::of(&spec, stored).per_slot;
    let concurrency = match concurrency {
        Some(given) => given.on_this_machine(per_slot)?,
        None => stored,
    };
    spec.set_concurrency(concurrency);
    let here = machine.here(SlotNeeds::of(&spec, concurrency))?;
    let runtime = ready_again(db, run, &mut spec, here, accept_change).await?;
    Ok((runtime, spec))
}

/// Plays stored run `run` here until it ends or is stopped, raising
/// `events` as each unit is stored. A suite's `positions` are checked
/// against the run's count (a suite file changed since is refused).
///
/// # Errors
///
/// [`RunError`] for storage, an engine that fails, a changed suite.
pub async fn play_here(
    runtime: &Runtime,
    run: i64,
    spec: &Spec,
    positions: Vec<TestPosition>,
    events: Events,
) -> Result<RunEnd, RunError> {
    match spec {
        Spec::Games(spec) => play_pairs(runtime, run, spec, events).await,
        Spec::Suite(spec) if positions.len() != spec.positions => {
            Err(RunError::SuiteChanged { suite: spec.suite.clone(), run, now: positions.len(), then: spec.positions })
        }
        Spec::Suite(spec) => play_suite(runtime, run, spec, positions, events).await,
    }
}

/// A run's engines and time control as its first line says them: a scaling
/// run's A and B once (not a copy per budget), at every budget.
fn engines_and_limit(spec: &GamesSpec) -> (String, String) {
    let GamesKind::Scale(budgets) = &spec.kind else {
        let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
        return (names.join(" vs "), spec.tc.as_ref().map_or("an unknown time control".into(), ToString::to_string));
    };
    let budgets: Vec<String> = budgets.0.iter().map(ToString::to_string).collect();
    (model::base_names(spec.engines.iter().map(|e| e.name.as_str())).join(" vs "), budgets.join(", "))
}

/// What prints a local run's games as their pairs are stored (a tool's
/// `Finished game` lines): the finishing number of the last pair it was
/// given (0: none), and what takes the games of the pairs after it.
pub struct Printer<'a, E> {
    /// The last pair already given.
    pub after: i64,
    /// Takes games of whole pairs, in finishing order.
    pub games: &'a mut dyn FnMut(&[GameRow]) -> Result<(), E>,
}

/// How a local run's play ended, and what its records hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Played {
    /// Finished or stopped.
    pub end: RunEnd,
    /// Games the PGN file holds (`--pgn`), if asked for.
    pub pgn_games: Option<u64>,
    /// Final positions written (`--epdout`), if asked for.
    pub epd_positions: Option<u64>,
}

/// Why a local run's play failed: the run (its storage included), its
/// records, or its printer; each said in one line as the cause says it.
#[derive(Debug, thiserror::Error)]
pub enum PlayError<E> {
    /// The run, or the database it is stored in.
    #[error(transparent)]
    Run(RunError),
    /// A record file.
    #[error(transparent)]
    Record(RecordError),
    /// The printer of its games.
    #[error("printing the games failed: {0}")]
    Printer(E),
}

impl<E> From<RecordError> for PlayError<E> {
    fn from(error: RecordError) -> PlayError<E> {
        PlayError::Record(error)
    }
}

impl<E> From<DbError> for PlayError<E> {
    /// Storage is the run's: a database that fails is not a record's failure.
    fn from(error: DbError) -> PlayError<E> {
        PlayError::Run(RunError::Db(error))
    }
}

/// Plays stored run `run` here ([`play_here`]) with its records: the PGN
/// written while it plays (on SQLite; at the end on PostgreSQL) and the
/// EPD at the end, as `record` asks; `printer` given each pair's games as
/// it is stored ([`Events`], nothing polled).
///
/// # Errors
///
/// [`PlayError`]: the run's, a record's or the printer's first failure.
pub async fn play_recorded<E>(
    runtime: &Runtime,
    run: i64,
    spec: &Spec,
    positions: Vec<TestPosition>,
    record: &Records,
    printer: Option<Printer<'_, E>>,
) -> Result<Played, PlayError<E>> {
    let db = &runtime.db;
    // A tool's PGN continued: the games of this run in its file already are not written again.
    let continued;
    let record = match (&record.pgn, record.continued) {
        (Some(path), true) => {
            let mut again = record.clone();
            again.style = again.style.without(games_in(path));
            continued = again;
            &continued
        }
        _ => record,
    };
    let events = Events::new();
    let (for_pgn, for_printer) = (events.follow(), events.follow());
    let playing = async { play_here(runtime, run, spec, positions, events).await.map_err(PlayError::Run) };
    let live = match (&record.pgn, spec) {
        (Some(path), Spec::Games(_)) => LivePgn::create(db, run, path, &record.style, record.append).await?,
        _ => None,
    };
    let (end, live) = match (live, printer) {
        (Some(mut live), Some(printer)) => {
            let end = live.follow(for_pgn, follow_games(db, run, printer, for_printer, playing)).await;
            (end.and_then(|end| end), Some(live))
        }
        (Some(mut live), None) => (live.follow(for_pgn, playing).await, Some(live)),
        (None, Some(printer)) => (follow_games(db, run, printer, for_printer, playing).await.and_then(|end| end), None),
        (None, None) => (playing.await, None),
    };
    let end = end?;
    let pgn_games = match (&record.pgn, live) {
        (Some(_), Some(live)) => Some(live.finish().await?),
        (Some(path), None) => Some(write_pgn(db, run, path, &record.style, record.append).await?),
        (None, _) => None,
    };
    let epd_positions = match &record.epdout {
        Some(path) => Some(write_epd(db, run, path).await?),
        None => None,
    };
    Ok(Played { end, pgn_games, epd_positions })
}

/// Runs `playing` while giving `printer` the games of each pair as it
/// finishes (each time `events` says one was stored), in finishing order
/// (final on either backend: [`Db::games_finished_after`]).
async fn follow_games<T, E>(
    db: &Db,
    run: i64,
    printer: Printer<'_, E>,
    events: tokio::sync::watch::Receiver<u64>,
    playing: impl Future<Output = T>,
) -> Result<T, PlayError<E>> {
    let reader = if db.is_shared() { db.clone() } else { db.reader().await? };
    let Printer { mut after, games } = printer;
    let (end, followed) = crate::util::while_playing(playing, events, async || -> Result<(), PlayError<E>> {
        after = give_games(&reader, run, after, &mut *games).await?;
        Ok(())
    })
    .await;
    followed?;
    give_games(&reader, run, after, games).await?;
    Ok(end)
}

/// Gives `games` the games of run `run`'s pairs finished after the
/// `after`-th; the finishing number of the last given.
///
/// # Errors
///
/// [`PlayError::Run`] for a database failure, [`PlayError::Printer`] for the printer's.
pub async fn give_games<E>(
    db: &Db,
    run: i64,
    mut after: i64,
    games: &mut dyn FnMut(&[GameRow]) -> Result<(), E>,
) -> Result<i64, PlayError<E>> {
    const PAIRS: i64 = 250;
    loop {
        let (rows, last) = db.games_finished_after(run, after, PAIRS).await?;
        after = last;
        if !rows.is_empty() {
            games(&rows).map_err(PlayError::Printer)?;
        }
        if (rows.len() as i64) < 2 * PAIRS {
            return Ok(after);
        }
    }
}
