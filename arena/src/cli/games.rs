//! What every command that plays games shares (`elo`, `match`,
//! `tournament`, `sprt`, `tune`): the flags of a run of games, turning them
//! into a checked [`GamesSpec`], and starting the run (preflight, store,
//! play here or leave to workers, summary).

use anyhow::anyhow;

use clap::Args;
use model::GamesSpec;
use openings::Book;

use super::common::{View, machine, play_run, waits_for_workers};
use super::shared::{CliResult, DbArg, EnginesFileArg, QuietArg, RecordArgs, SlotArgs};
use crate::cli::settings::Settings;
use crate::engine_io::engines::{BenchSignature, DEFAULT_BUILD, EngineSpec, Source};
use crate::engine_io::source::repo_location;
use crate::run::record::Records;

/// The flags of every command that plays games: what is played (the run's
/// [`Settings`], also what a run file holds) and how this machine plays it
/// ([`LocalArgs`], never part of the run).
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    #[command(flatten)]
    pub(super) settings: Settings,
    #[command(flatten)]
    pub(super) local: LocalArgs,
}

/// How this machine plays a run and where it writes: the database, the
/// engines file, records, pinning, quiet, whether to play here at all. The
/// same flags follow a run file (`arena run FILE --db …`).
#[derive(Args, Debug, Clone, Default)]
pub struct LocalArgs {
    #[command(flatten)]
    pub(super) db: DbArg,
    #[command(flatten)]
    pub(super) registry: EnginesFileArg,
    #[command(flatten)]
    pub(super) record: RecordArgs,
    #[command(flatten)]
    pub(super) slots: SlotArgs,
    #[command(flatten)]
    pub(super) quiet: QuietArg,
    /// Only create the run: `arena worker`s play it (on a shared --db postgres://…).
    #[arg(help_heading = "Many machines", long)]
    pub(super) no_local: bool,
}

/// What a command chose where a flag was left out (a large book, a game
/// cap), said with the run's first line once the run exists: a refusal
/// before it stays one line.
#[derive(Debug, Default)]
pub(super) struct Chosen {
    /// Said as they are.
    pub(super) notes: Vec<String>,
    /// The game cap the command chose, said unless the book lowers it (a
    /// deterministic limit: see `cap_replays`, whose note then says both numbers).
    pub(super) cap: Option<String>,
}

impl Chosen {
    /// The note of a large book chosen for `settings`, if it was.
    pub(super) fn large_book(settings: &mut Settings) -> Chosen {
        Chosen { notes: settings.large_book_unless_given().into_iter().collect(), cap: None }
    }
}

/// An engine built from a revision of a git repository, on the command
/// line: `--repo` (with `--dev`/`--base` for two engines, `--rev` for tune),
/// `--build`, `--bench`. Declared once, flattened where they apply.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Engines")]
pub struct SourceArgs {
    /// Build the engines from this git repository (a path or any URL git can clone), each revision resolved to its commit when the run is created.
    #[arg(long, value_name = "PATH|URL")]
    pub(super) repo: Option<String>,
    /// With --repo: the build command, run in a checkout of each commit; {exe} is where the binary must end up.
    #[arg(long, value_name = "COMMAND", requires = "repo", default_value = DEFAULT_BUILD)]
    build: String,
    /// With --repo: the bench signature check: measured from each build when the run is created, or none.
    #[arg(long, value_enum, requires = "repo", default_value_t)]
    bench: BenchCheck,
}

/// `--bench` of an engine built from source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchCheck {
    /// Measured from each build when the run is created.
    #[default]
    Auto,
    /// No bench signature check.
    Off,
}

impl SourceArgs {
    /// The engine at revision `rev` of `--repo`, named after the revision.
    pub(super) fn engine(&self, repo: &str, rev: &str) -> CliResult<EngineSpec> {
        let bench = match self.bench {
            BenchCheck::Auto => Some(BenchSignature::Auto(model::spec::AutoWord::Auto)),
            BenchCheck::Off => None,
        };
        let source = Source {
            repo: repo_location(repo),
            rev: rev.to_string(),
            commit: String::new(),
            build: if self.build.is_empty() { DEFAULT_BUILD.to_string() } else { self.build.clone() },
        };
        Ok(EngineSpec { name: rev.replace('@', "-"), source: Some(source), bench, ..EngineSpec::default() })
    }
}

pub(super) fn open_book(settings: &Settings) -> CliResult<Book> {
    Ok(Book::open(settings.openings())?)
}

/// The engines of `names` (presets, `engines.toml`, programs by path or on PATH),
/// each named once.
pub(super) fn resolve_engines(play: &PlayArgs, names: &[&str]) -> CliResult<Vec<EngineSpec>> {
    let registry = play.local.registry.load()?;
    let mut engines = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(anyhow!(
                "engine '{name}' is named twice; to play a preset against itself, add a second name for it in engines.toml"
            ));
        }
        engines.push(registry.get_or_path(name)?);
    }
    Ok(engines)
}

/// Pairs from which a run started on a terminal is told how to outlive it
/// (an overnight run: a thousand pairs take hours on a clock).
const LONG_RUN_PAIRS: usize = 1000;

/// Plays stopped run `run` on with these flags' database, concurrency
/// and slots, writing `records`, shown as `view` says (a foreign command
/// line's state file).
pub(super) async fn resume_as(play: &PlayArgs, records: &Records, run: i64, view: View<'_>) -> CliResult {
    let local = &play.local;
    records.check(true)?;
    let machine = machine(&local.db.target, local.quiet.quiet, &local.slots, true)?;
    let db = super::common::open_db(&local.db.target).await?;
    let (runtime, spec) = crate::run::life::resume(&db, run, &machine, play.settings.concurrency, false).await?;
    play_run(&runtime, &local.db.target, run, spec, None, records, view).await
}

/// The database these flags name.
pub(super) fn target(play: &PlayArgs) -> &db::Target {
    &play.local.db.target
}

/// Starts a run of games shown as arena shows it, writing the records its flags ask for.
pub(super) async fn start(play: &PlayArgs, spec: GamesSpec, book: &Book, chosen: Chosen) -> CliResult {
    start_as(play, &play.local.record.records(), spec, book, chosen, View::Arena).await
}

/// Checks, stores and plays (or leaves to workers) a run of games, shown as
/// `view` says: the run's life is [`crate::run::life`]'s; this says it.
pub(super) async fn start_as(
    play: &PlayArgs,
    records: &Records,
    spec: GamesSpec,
    book: &Book,
    chosen: Chosen,
    view: View<'_>,
) -> CliResult {
    let local = &play.local;
    records.check(false)?;
    let concurrency = spec.concurrency.unwrap_or(crate::run::concurrency::DEFAULT_CONCURRENCY);
    let machine = machine(&local.db.target, local.quiet.quiet, &local.slots, !local.no_local)?;
    let here = machine.here(crate::run::life::SlotNeeds::of_games(&spec, concurrency))?;
    let pinned = here.affinity.as_ref().map_or(String::new(), |cpus| {
        format!(", slots pinned to CPUs {} (--affinity none leaves them unpinned)", cpus.describe(concurrency))
    });
    let target = &local.db.target;
    let created = crate::run::life::create_games(spec, book, here).await?;
    let run = created.run;
    if let Some(capped) = &created.replays_capped {
        crate::term::note(&capped.note(|book| format!("--openings {book}")));
    }
    if !local.quiet.quiet {
        crate::term::note(&format!("run {run}: {}{pinned}; database {target}", created.described));
        let cap = chosen.cap.as_ref().filter(|_| created.replays_capped.is_none());
        for note in chosen.notes.iter().chain(cap) {
            crate::term::note(note);
        }
        if !local.no_local && crate::term::is_terminal() && created.pairs >= LONG_RUN_PAIRS {
            crate::term::note(&format!(
                "closing this terminal stops the run (arena resume {run} plays on); to let it outlive the terminal, start it under tmux, nohup or systemd-run --user"
            ));
        }
    }
    if local.no_local {
        created.runtime.db.close().await;
        waits_for_workers(run, target, &created.spec)?;
        return Ok(());
    }
    play_run(&created.runtime, target, run, created.spec, None, records, view).await
}
