//! `arena elo`, `match`, `tournament` and `sprt`: build a run spec from
//! flags, check everything that can be checked before the first game, store
//! the run, play it, print the summary.

use std::path::PathBuf;

use clap::Args;
use model::{MatchSpec, RunKind, Spec, Test};
use openings::Book;

use super::common::{check_concurrency, open_db, play_run, preflight, runtime, waits_for_workers};
use super::{CliError, CliResult, DbArg, SprtParams};
use crate::clock::TimeControl;
use crate::engines::Registry;
use crate::game::adjudication::{Adjudication, parse_draw, parse_resign};
use crate::plan::{plan, repetition_warning};

/// Options shared by every command that plays games.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// Time control: 40/300, 300+3, 40/300+2, 40/7200:20/3600, st=1, nodes=N, depth=N, inf; add ,timemargin=MS ,nodetime=N ,stall=S.
    #[arg(long, default_value = "2+0.02")]
    tc: String,
    /// Openings: feldmann25, forty, noob_2moves, 8mvs_+90_+99, or an EPD/FEN/PGN/SAN file.
    #[arg(long, default_value = "feldmann25")]
    openings: String,
    /// Shuffle the openings with this seed (file order without it).
    #[arg(long)]
    seed: Option<u64>,
    /// Index of the first opening.
    #[arg(long, default_value_t = 0)]
    start: usize,
    /// Cut openings to this many plies.
    #[arg(long)]
    plies: Option<usize>,
    /// Games played at once (each uses two engine processes, one thinking at a time).
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    #[command(flatten)]
    db: DbArg,
    /// engines.toml with more engines (default: ./engines.toml if present).
    #[arg(long)]
    engines_file: Option<PathBuf>,
    /// Also write the games as PGN to this file.
    #[arg(long)]
    pgn: Option<PathBuf>,
    /// Draw adjudication: movenumber=N,movecount=N,score=CP, or off.
    #[arg(long, default_value = "movenumber=40,movecount=8,score=10")]
    draw: String,
    /// Resign adjudication: movecount=N,score=CP[,twosided=true], or off.
    #[arg(long, default_value = "movecount=3,score=1000,twosided=true")]
    resign: String,
    /// End games at this full move and adjudicate (the FHR paper used 100).
    #[arg(long)]
    maxmoves: Option<u32>,
    /// Lead in centipawns that wins at the move limit (both engines agreeing).
    #[arg(long, default_value_t = 200)]
    maxmoves_score: i64,
    /// No progress line.
    #[arg(long)]
    quiet: bool,
    /// Only create the run: `arena worker`s play it (on a shared --db postgres://…).
    #[arg(long)]
    no_local: bool,
}

/// `arena elo`.
#[derive(Args, Debug)]
pub struct EloArgs {
    /// Engine A (the one being tested).
    #[arg(long)]
    a: String,
    /// Engine B (the reference).
    #[arg(long)]
    b: String,
    /// Passes through the opening set (each opening twice per pass, colours swapped).
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    #[command(flatten)]
    play: PlayArgs,
}

/// `arena match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Engine A.
    #[arg(long)]
    a: String,
    /// Engine B.
    #[arg(long)]
    b: String,
    /// Games to play (rounded up to whole pairs; openings wrap around the book).
    #[arg(long, default_value_t = 100)]
    games: usize,
    #[command(flatten)]
    play: PlayArgs,
}

/// `arena tournament`.
#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// Comma-separated engine names.
    #[arg(long, value_delimiter = ',', required = true)]
    engines: Vec<String>,
    /// Gauntlet: this engine plays all others, who do not play each other.
    #[arg(long)]
    gauntlet: Option<String>,
    /// Passes through the opening set.
    #[arg(long, default_value_t = 1)]
    rounds: usize,
    #[command(flatten)]
    play: PlayArgs,
}

/// `arena sprt`.
#[derive(Args, Debug)]
pub struct SprtArgs {
    /// Engine A (the change).
    #[arg(long)]
    a: String,
    /// Engine B (the base).
    #[arg(long)]
    b: String,
    #[command(flatten)]
    sprt: SprtParams,
    /// Stop undecided after this many games ("inconclusive").
    #[arg(long, default_value_t = 20_000)]
    max_games: usize,
    #[command(flatten)]
    play: PlayArgs,
}

/// `arena elo`.
pub(super) async fn elo(args: EloArgs) -> CliResult {
    let book = open_book(&args.play)?;
    let per_round = book.openings.len();
    let spec = build_spec(&args.play, RunKind::Elo, &[&args.a, &args.b], vec![(0, 1)], per_round, args.rounds, None)?;
    start(&args.play, spec, &book).await
}

/// `arena match`.
pub(super) async fn match_(args: MatchArgs) -> CliResult {
    if args.games == 0 {
        return Err(CliError("--games must be at least 1".into()));
    }
    let book = open_book(&args.play)?;
    let pairs = args.games.div_ceil(2);
    let spec = build_spec(&args.play, RunKind::Match, &[&args.a, &args.b], vec![(0, 1)], pairs, 1, None)?;
    start(&args.play, spec, &book).await
}

/// `arena tournament`.
pub(super) async fn tournament(args: TournamentArgs) -> CliResult {
    if args.engines.len() < 2 {
        return Err(CliError("--engines needs at least two names, comma-separated".into()));
    }
    let names: Vec<&str> = args.engines.iter().map(String::as_str).collect();
    let pairings: Vec<(usize, usize)> = match &args.gauntlet {
        Some(hero) => {
            let h = names
                .iter()
                .position(|n| n == hero)
                .ok_or_else(|| CliError(format!("--gauntlet '{hero}' is not among --engines {}", names.join(","))))?;
            (0..names.len()).filter(|&i| i != h).map(|i| (h, i)).collect()
        }
        None => (0..names.len()).flat_map(|i| (i + 1..names.len()).map(move |j| (i, j))).collect(),
    };
    let book = open_book(&args.play)?;
    let per_round = book.openings.len();
    let spec = build_spec(&args.play, RunKind::Tournament, &names, pairings, per_round, args.rounds, None)?;
    start(&args.play, spec, &book).await
}

/// `arena sprt`.
pub(super) async fn sprt(args: SprtArgs) -> CliResult {
    let test = args.sprt.test_or_default()?;
    if args.max_games < 2 {
        return Err(CliError("--max-games must be at least 2".into()));
    }
    let book = open_book(&args.play)?;
    let pairs = args.max_games.div_ceil(2);
    let spec = build_spec(&args.play, RunKind::Sprt, &[&args.a, &args.b], vec![(0, 1)], pairs, 1, Some(test))?;
    start(&args.play, spec, &book).await
}

fn open_book(play: &PlayArgs) -> Result<Book, CliError> {
    Ok(Book::open(&play.openings)?)
}

/// Resolves names and checks every flag; nothing is started yet.
fn build_spec(
    play: &PlayArgs,
    kind: RunKind,
    names: &[&str],
    pairings: Vec<(usize, usize)>,
    openings_per_round: usize,
    rounds: usize,
    sprt: Option<Test>,
) -> Result<MatchSpec, CliError> {
    let registry = Registry::load(play.engines_file.as_deref())?;
    let mut engines = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(CliError(format!(
                "engine '{name}' is named twice; to play a preset against itself, add a second name for it in engines.toml"
            )));
        }
        engines.push(registry.get(name)?);
    }
    play.tc.parse::<TimeControl>()?;
    if rounds == 0 {
        return Err(CliError("--rounds must be at least 1".into()));
    }
    check_concurrency(play.concurrency, "games played at once")?;
    if play.maxmoves == Some(0) {
        return Err(CliError("--maxmoves must be at least 1 (the full move at which games end)".into()));
    }
    let adjudication = Adjudication {
        draw: parse_draw(&play.draw).map_err(|e| CliError(format!("bad --draw: {e}")))?,
        resign: parse_resign(&play.resign).map_err(|e| CliError(format!("bad --resign: {e}")))?,
        max_moves: play.maxmoves,
        max_moves_score: play.maxmoves_score,
    };
    Ok(MatchSpec {
        kind,
        engines,
        pairings,
        tc: play.tc.clone(),
        openings: play.openings.clone(),
        seed: play.seed,
        start: play.start,
        max_plies: play.plies,
        openings_per_round,
        rounds,
        concurrency: play.concurrency,
        adjudication,
        sprt,
    })
}

async fn start(play: &PlayArgs, spec: MatchSpec, book: &Book) -> CliResult {
    if let Some(warning) = repetition_warning(&spec, book) {
        eprintln!("{warning}");
    }
    let plan = plan(&spec, book);
    let described = format!(
        "{} {} at {}, {} games from {} ({} openings), concurrency {}",
        spec.kind,
        spec.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(" vs "),
        spec.tc,
        2 * plan.len(),
        spec.openings,
        book.openings.len(),
        spec.concurrency,
    );
    let spec = Spec::Games(spec);
    preflight(&spec).await?;
    let target = &play.db.target;
    let db = open_db(target).await?;
    let runtime = runtime(&db, target, play.quiet)?;
    let run = db.create_run(&spec, &plan).await?;
    if !play.quiet {
        eprintln!("run {run}: {described}; database {target}");
    }
    if play.no_local {
        db.close().await;
        waits_for_workers(run, target)?;
        return Ok(());
    }
    play_run(&runtime, target, run, spec, None, play.pgn.as_deref()).await
}
