//! The `arena` command line: one module per group of subcommands, each
//! using only [`common`] (the shared helpers) and the library, never
//! another command's module.

mod check;
mod common;
mod complete;
pub mod dialect;
pub mod docs;
mod engines;
mod games;
mod import;
mod inspect;
mod play;
mod report;
mod resume;
mod runfile;
mod serve;
mod stats;
mod storage;
mod suite;
mod tune;
mod worker;

pub(crate) use crate::run::record::read_pattern;
pub use crate::run::record::{PgnLevel, PgnStyle, RecordArgs, RecordError};
use anyhow::anyhow;
use clap::{Args, Parser, Subcommand};
use model::{Model, Test};

/// A command's failure: the typed error of the layer that failed, with the
/// context the command adds, its causes kept; printed once, by `main`, as
/// one line ([`one_line`]).
pub type CliError = anyhow::Error;

/// Result of a subcommand.
pub type CliResult<T = ()> = anyhow::Result<T>;

/// Standard output was closed by its reader (`arena show 1 | head -1`): the
/// command ends quietly with status 0, as `cat` does.
#[derive(Debug, thiserror::Error)]
#[error("standard output was closed")]
pub struct ClosedPipe;

/// A failure as the one line `arena` prints: the error, then each cause
/// that its text does not already say.
pub fn one_line(error: &CliError) -> String {
    crate::util::one_line(error.as_ref())
}

/// Writes to standard output like `print!`, but a reader that went away
/// (`arena show 1 | head -1`) ends the command quietly with status 0, as it
/// ends `cat`, instead of a panic; any other write error is one line.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::write_out(format_args!($($arg)*))?
    };
}
pub(crate) use out;

/// [`out!`] with a newline, like `println!`.
macro_rules! outln {
    () => {
        $crate::cli::write_out(format_args!("\n"))?
    };
    ($($arg:tt)*) => {
        $crate::cli::write_out(format_args!("{}\n", format_args!($($arg)*)))?
    };
}
pub(crate) use outln;

/// What [`out!`] calls.
///
/// # Errors
///
/// [`CliError`] when standard output fails for another reason than a closed pipe.
pub fn write_out(text: std::fmt::Arguments<'_>) -> CliResult {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout.write_fmt(text).and_then(|()| stdout.flush()).map_err(|e| write_error(e, "standard output"))
}

/// A record's error as the command ends with it: [`ClosedPipe`] when the
/// reader of standard output went away (`arena pgn 1 | head`), which ends
/// the command quietly.
pub(crate) fn record_error(error: RecordError) -> CliError {
    match error {
        RecordError::Write { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe => ClosedPipe.into(),
        error => error.into(),
    }
}

/// The error of a failed write to `what`: [`ClosedPipe`] when the reader
/// went away, which ends the command quietly.
pub(crate) fn write_error(error: std::io::Error, what: &str) -> CliError {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        return ClosedPipe.into();
    }
    anyhow::Error::new(error).context(format!("cannot write to {what}"))
}

/// Self-play testing of chess search features.
#[derive(Parser, Debug)]
#[command(name = "arena", version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("ARENA_COMMIT"), ")"), about, long_about = None)]
pub struct Cli {
    /// The subcommand.
    #[command(subcommand)]
    pub command: Command,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Paired-opening match A vs B with Elo, confidence interval and verdict.
    Elo(play::EloArgs),
    /// A match with any number of games.
    Match(play::MatchArgs),
    /// Round robin (or gauntlet) between several engines.
    Tournament(play::TournamentArgs),
    /// A against B at several search budgets (nodes, depth or time controls): Elo against budget, and whether the gain changes with it.
    Scale(play::ScaleArgs),
    /// Sequential probability ratio test: play pairs until H0 or H1 is accepted.
    Sprt(play::SprtArgs),
    /// SPSA tuning of an engine's UCI options by self-play (θ+ against θ−, a pair per iteration).
    Tune(tune::TuneArgs),
    /// Test-suite experiment: tree size and solved positions per engine and depth/node budget.
    Suite(suite::SuiteArgs),
    /// Play pairs of the runs in a shared database (PostgreSQL, for many machines).
    Worker(worker::WorkerArgs),
    /// Start the run a file describes (see `arena show RUN --config`): FILE.toml, then any flags such as --db.
    Run(runfile::RunFileArgs),
    /// Continue a stopped or crashed run where it stopped.
    Resume(resume::ResumeArgs),
    /// Add larger budgets to a scaling run, on the openings it plays, spread among its pairs still to play.
    Extend(play::ExtendArgs),
    /// A live dashboard of the database's runs and workers, with run control (stop, resume, priority).
    Serve(serve::ServeArgs),
    /// List the runs in the database, newest first, as the dashboard does: games, verdict, Elo (a scaling run: its slope), LLR, ETA.
    Runs(inspect::RunsArgs),
    /// Results of one run.
    Show(inspect::RunArgs),
    /// The full report of a run: text, markdown, HTML with plots, or JSON.
    Report(report::ReportArgs),
    /// Export a run's games as PGN.
    Pgn(inspect::PgnArgs),
    /// A run's moves as CSV, a row per engine move (what SQL cannot read in the packed moves).
    Moves(inspect::MovesArgs),
    /// Pack moves that older versions stored (as JSON, or packed in an older format) anew, then shrink the file.
    Compact(storage::CompactArgs),
    /// Make finished runs shed their moves and I/O logs; games, tallies and reports stay.
    Prune(storage::PruneArgs),
    /// Make a PostgreSQL login role a worker's: it reads runs, claims pairs and stores the games of the pairs it holds, nothing else.
    Roles(storage::RolesArgs),
    /// Print one game's engine I/O log: every line to and from its engines, with milliseconds.
    Log(inspect::LogArgs),
    /// List the engines known by name, with their UCI options.
    Engines(engines::EnginesArgs),
    /// Check engines' UCI behaviour step by step (pass / warn / fail); non-zero status on a fail.
    Check(check::CheckArgs),
    /// Play with fastchess's command line and output: arena fastchess -engine cmd=./dev name=dev -engine cmd=./base name=base -each tc=8+0.08 -rounds 100 -repeat (-help lists what it reads).
    #[command(disable_help_flag = true)]
    Fastchess(dialect::DialectArgs),
    /// Play with cutechess-cli's command line and output (as arena fastchess; -help lists what it reads).
    #[command(disable_help_flag = true)]
    Cutechess(dialect::DialectArgs),
    /// Store games played elsewhere (PGN of cutechess-cli, fastchess, rating lists) as a run: show, report, dashboard and stats then read them.
    Import(import::ImportArgs),
    /// Statistics for W/D/L or pentanomial counts you already have.
    Stats(stats::StatsArgs),
    /// Plan an SPRT: pass probability and expected games against the true Elo (nElo for the normalized model).
    SprtCalc(stats::SprtCalcArgs),
    /// Print the completion script of a shell: arena completions bash > /etc/bash_completion.d/arena.
    Completions(docs::CompletionsArgs),
    /// Write the man pages (arena.1 and one per command) into a folder.
    Man(docs::ManArgs),
    /// Speak UCI as the bundled engine (used by the arena itself).
    #[command(name = model::spec::BUNDLED_SUBCOMMAND, hide = true)]
    EngineUci {
        /// Pruning preset, or presets joined by '+' (nmp2+multicut).
        #[arg(long, default_value = "plain", value_parser = pruning_preset)]
        pruning: String,
        /// `bench`: search the bench positions and print `N nodes N nps`, as engines' `bench` commands do.
        #[arg(value_parser = ["bench"])]
        bench: Option<String>,
    },
}

/// Default database file.
pub const DEFAULT_DB: &str = "arena.db";

/// `engine-uci --pruning`: a preset or `+`-joined presets the engine knows,
/// checked when clap parses it (the engine is given the name).
fn pruning_preset(name: &str) -> Result<String, engine::search::pruning::UnknownPreset> {
    engine::search::PruningConfig::preset(name).map(|_| name.to_string())
}

/// `--engines-file`, shared by every command that names engines.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Engines")]
pub struct EnginesFileArg {
    /// engines.toml with more engines (default: ./engines.toml if present).
    #[arg(long)]
    pub(crate) engines_file: Option<std::path::PathBuf>,
}

impl EnginesFileArg {
    /// The engines the file names, with the bundled presets.
    ///
    /// # Errors
    ///
    /// The file cannot be read or is not a list of engines.
    pub(crate) fn load(&self) -> CliResult<crate::engine_io::engines::Registry> {
        Ok(crate::engine_io::engines::Registry::load(self.engines_file.as_deref())?)
    }
}

/// `--quiet`, shared by every command that shows progress.
#[derive(Args, Debug, Clone, Copy, Default)]
#[command(next_help_heading = "Output")]
pub struct QuietArg {
    /// No progress line (errors and warnings still print).
    #[arg(long)]
    pub(crate) quiet: bool,
}

/// `--concurrency`, for the commands that play on this machine without
/// [`crate::run::settings::Settings`] (its help and type are the settings').
#[derive(Args, Debug, Clone, Copy, Default, serde::Serialize)]
#[command(next_help_heading = "This machine")]
pub struct ConcurrencyArg {
    /// Games at once on this machine (its help: [`crate::run::settings::CONCURRENCY_HELP`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(long, value_name = "N", help = crate::run::settings::CONCURRENCY_HELP, long_help = crate::run::settings::CONCURRENCY_HELP, allow_hyphen_values = true)]
    pub(crate) concurrency: Option<crate::run::settings::Concurrency>,
}

impl ConcurrencyArg {
    /// The games at once on this machine, one CPU each: the value given,
    /// else two.
    ///
    /// # Errors
    ///
    /// A `-N` that leaves no CPU.
    pub(crate) fn or_default(self) -> Result<usize, model::Invalid> {
        self.concurrency.map_or(Ok(crate::run::settings::DEFAULT_CONCURRENCY), |c| c.on_this_machine(1))
    }
}

/// `--db`, shared by every command that opens the database.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Storage")]
pub struct DbArg {
    /// Database: a SQLite file, or postgres://user@host:port/database (password from PGPASSWORD or ~/.pgpass).
    #[arg(long = "db", default_value = DEFAULT_DB, value_parser = DbParser)]
    pub target: db::Target,
}

impl Default for DbArg {
    /// [`DEFAULT_DB`], as the flag's default.
    fn default() -> DbArg {
        DbArg { target: db::Target::Sqlite(DEFAULT_DB.into()) }
    }
}

/// How this machine plays games: core pinning and engine I/O logs, shared
/// by every command that plays games here.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "This machine")]
pub struct SlotArgs {
    /// Pin each game slot (its engines and the thread that plays them) to CPUs of its own: every CPU this process may use, or a list such as 0-3,6 or 0-63,128-191 (--cpus is the same flag); `none` leaves every engine to the operating system. Without the flag, slots are pinned when --concurrency is 2 or more and each slot can have a CPU of its own.
    #[arg(hide_short_help = true, long, visible_alias = "cpus", num_args = 0..=1, default_missing_value = "", value_name = "CPUS|none")]
    pub(crate) affinity: Option<String>,
    /// Keep no engine I/O logs (by default every game's lines to and from its engines go to arena-logs/, see arena log).
    #[arg(hide_short_help = true, long)]
    pub(crate) no_io_log: bool,
}

impl SlotArgs {
    /// The CPUs to share among `slots` slots, checked; `None` when nothing
    /// is pinned (`--affinity none`, or by default one slot or more slots
    /// than CPUs: see [`crate::engine_io::affinity::Affinity::auto`]). A
    /// slot whose engines ponder needs two CPUs (`per_slot`).
    ///
    /// # Errors
    ///
    /// [`CliError`] for a bad list or fewer CPUs than slots need.
    pub(crate) fn resolve(
        &self,
        slots: usize,
        per_slot: usize,
    ) -> CliResult<Option<crate::engine_io::affinity::Affinity>> {
        match self.affinity.as_deref().map(str::trim) {
            None => Ok(crate::engine_io::affinity::Affinity::auto(slots, per_slot)),
            Some("none") => Ok(None),
            Some(text) => {
                let affinity = crate::engine_io::affinity::Affinity::parse(text)?;
                affinity.fits(slots, per_slot)?;
                Ok(Some(affinity))
            }
        }
    }
}

/// SPRT parameters shared by `stats`, `sprt-calc` and `sprt`.
#[derive(Args, Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(default)]
#[command(next_help_heading = "SPRT")]
pub struct SprtParams {
    /// Elo under H0 [default: 0; arena stats: a test only when --elo1 is given].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(long, allow_hyphen_values = true)]
    elo0: Option<f64>,
    /// Elo under H1 [default: 5; arena stats: a test only when given].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(long, allow_hyphen_values = true)]
    elo1: Option<f64>,
    /// False-positive rate.
    #[arg(long, default_value_t = SprtParams::RATE)]
    alpha: f64,
    /// False-negative rate.
    #[arg(long, default_value_t = SprtParams::RATE)]
    beta: f64,
    /// normalized, logistic or bayesian (BayesElo, the draw Elo from the games).
    #[serde(with = "crate::run::settings::as_text")]
    #[arg(long, default_value_t)]
    model: Model,
}

impl Default for SprtParams {
    /// The flags left out.
    fn default() -> SprtParams {
        SprtParams { elo0: None, elo1: None, alpha: Self::RATE, beta: Self::RATE, model: Model::default() }
    }
}

impl SprtParams {
    /// `--alpha` and `--beta` left out.
    const RATE: f64 = 0.05;

    /// The flags of a stored test.
    fn of(test: &Test) -> SprtParams {
        SprtParams {
            elo0: Some(test.elo0()),
            elo1: Some(test.elo1()),
            alpha: test.alpha(),
            beta: test.beta(),
            model: test.model(),
        }
    }

    /// The test with elo0 = 0 and elo1 = 5 where not given.
    ///
    /// # Errors
    ///
    /// [`CliError`] for a bad model or bounds.
    pub(super) fn test_or_default(&self) -> CliResult<Test> {
        let given =
            SprtParams { elo0: Some(self.elo0.unwrap_or(0.0)), elo1: Some(self.elo1.unwrap_or(5.0)), ..self.clone() };
        given.test().map(|test| test.expect("both bounds are set"))
    }

    pub(super) fn test(&self) -> CliResult<Option<Test>> {
        let model = self.model;
        match (self.elo0, self.elo1) {
            (None, None) => Ok(None),
            (Some(elo0), Some(elo1)) => {
                let test = Test::new(elo0, elo1, self.alpha, self.beta, model).map_err(|e| anyhow!("bad SPRT: {e}"))?;
                Ok(Some(test))
            }
            _ => Err(anyhow!("give both --elo0 and --elo1")),
        }
    }
}

pub(crate) use crate::run::settings::{at_least, whole_pairs};

/// An engine's name as clap reads it: any text (a preset, an `engines.toml`
/// name, a program), with the bundled presets offered to shell completion
/// (`arena elo --a <TAB>`) and not listed in the help.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EngineName;

impl clap::builder::TypedValueParser for EngineName {
    type Value = String;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(command, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(engine::search::pruning::PRESETS.iter().map(|p| clap::builder::PossibleValue::new(*p))))
    }
}

/// Parses `--db` without echoing the value in its error: a URL may carry a
/// password, and clap's own message would repeat it.
#[derive(Clone, Copy, Debug)]
struct DbParser;

impl clap::builder::TypedValueParser for DbParser {
    type Value = db::Target;

    fn parse_ref(
        &self,
        command: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<db::Target, clap::Error> {
        let invalid =
            |message: String| clap::Error::raw(clap::error::ErrorKind::InvalidValue, message).with_cmd(command);
        let text = value.to_str().ok_or_else(|| invalid("--db is not valid UTF-8\n".into()))?;
        text.parse().map_err(|e: db::BadTarget| invalid(format!("{e}\n")))
    }
}

/// Runs a parsed command.
///
/// # Errors
///
/// [`CliError`] with a one-line message.
pub async fn run(cli: Cli) -> CliResult {
    match cli.command {
        Command::Elo(args) => play::elo(args).await,
        Command::Match(args) => play::match_(args).await,
        Command::Tournament(args) => play::tournament(args).await,
        Command::Scale(args) => play::scale(args).await,
        Command::Sprt(args) => play::sprt(args).await,
        Command::Tune(args) => tune::tune(args).await,
        Command::Suite(args) => suite::suite(args).await,
        Command::Worker(args) => worker::worker(args).await,
        Command::Resume(args) => resume::resume(args).await,
        Command::Extend(args) => play::extend(args).await,
        Command::Run(args) => Box::pin(runfile::run_file(args)).await,
        Command::Serve(args) => serve::dashboard(args).await,
        Command::Runs(args) => inspect::runs(args).await,
        Command::Show(args) => inspect::show(args).await,
        Command::Report(args) => report::report(args).await,
        Command::Pgn(args) => inspect::pgn(args).await,
        Command::Log(args) => inspect::log(args).await,
        Command::Moves(args) => inspect::moves(args).await,
        Command::Compact(args) => storage::compact(args).await,
        Command::Roles(args) => storage::roles(args).await,
        Command::Prune(args) => storage::prune(args).await,
        Command::Engines(args) => engines::list(args).await,
        Command::Check(args) => check::run(args).await,
        Command::Fastchess(args) => dialect::run(dialect::Dialect::Fastchess, args).await,
        Command::Cutechess(args) => dialect::run(dialect::Dialect::Cutechess, args).await,
        Command::Import(args) => import::import(args).await,
        Command::Stats(args) => stats::stats(args),
        Command::SprtCalc(args) => stats::sprt_calc(args),
        Command::Completions(args) => docs::completions(&args),
        Command::Man(args) => docs::man(&args),
        Command::EngineUci { .. } => Err(anyhow!("{} runs outside the async runtime", model::spec::BUNDLED_SUBCOMMAND)),
    }
}
