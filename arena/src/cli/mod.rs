//! The `arena` command line, and only its dispatch: a module per group of
//! subcommands, each using only the shared modules ([`shared`],
//! [`common`], [`games`], [`flags`], [`runfile`], [`complete`]) and the
//! library, never another command's module (ARCHITECTURE.md, "Layers").

mod check;
mod common;
mod complete;
pub mod dialect;
pub mod docs;
mod engines;
mod flags;
mod games;
mod import;
mod inspect;
mod play;
mod report;
mod resume;
mod runfile;
mod serve;
pub mod settings;
mod stats;
mod storage;
mod suite;
mod tune;
mod worker;

mod shared;

use clap::{Parser, Subcommand};
pub use shared::{ClosedPipe, one_line};

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
    Elo(flags::EloArgs),
    /// A match with any number of games.
    Match(flags::MatchArgs),
    /// Round robin (or gauntlet) between several engines.
    Tournament(flags::TournamentArgs),
    /// A against B at several search budgets (nodes, depth or time controls): Elo against budget, and whether the gain changes with it.
    Scale(flags::ScaleArgs),
    /// Sequential probability ratio test: play pairs until H0 or H1 is accepted.
    Sprt(flags::SprtArgs),
    /// SPSA tuning of an engine's UCI options by self-play (θ+ against θ−, a pair per iteration).
    Tune(flags::TuneArgs),
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
        #[arg(long, default_value = "plain", value_parser = shared::pruning_preset)]
        pruning: String,
        /// `bench`: search the bench positions and print `N nodes N nps`, as engines' `bench` commands do.
        #[arg(value_parser = ["bench"])]
        bench: Option<String>,
    },
}

/// Runs a parsed command on a multi-threaded runtime of its own, as the
/// binary does; `Err` when the runtime cannot start. The runtime is made
/// and polled here, in the library: an async body is compiled in the crate
/// that polls it, so polled from `main.rs` every command's code was compiled
/// after the library, in the binary (a fifth of a fresh build, alone at its
/// end).
///
/// # Errors
///
/// The operating system's, when the runtime's threads cannot start.
pub fn run_blocking(cli: Cli) -> std::io::Result<shared::CliResult> {
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    Ok(runtime.block_on(run(cli)))
}

/// Runs a parsed command.
///
/// # Errors
///
/// [`CliError`] with a one-line message.
pub async fn run(cli: Cli) -> shared::CliResult {
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
        Command::Run(args) => Box::pin(run(Cli { command: runfile::command(args)?.into() })).await,
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
        Command::EngineUci { .. } => {
            Err(anyhow::anyhow!("{} runs outside the async runtime", model::spec::BUNDLED_SUBCOMMAND))
        }
    }
}

impl From<runfile::FileCommand> for Command {
    /// The command a run file stands for, run as if typed.
    fn from(command: runfile::FileCommand) -> Command {
        use runfile::FileCommand as File;
        match command {
            File::Elo(args) => Command::Elo(args),
            File::Match(args) => Command::Match(args),
            File::Tournament(args) => Command::Tournament(args),
            File::Sprt(args) => Command::Sprt(args),
            File::Scale(args) => Command::Scale(args),
            File::Tune(args) => Command::Tune(args),
        }
    }
}
