//! What every command that plays games shares (`elo`, `match`,
//! `tournament`, `sprt`, `tune`): the flags of a run of games, turning them
//! into a checked [`MatchSpec`], and starting the run (preflight, store,
//! play here or leave to workers, summary).

use anyhow::anyhow;
use std::path::PathBuf;

use clap::Args;
use model::{MatchSpec, RunKind, Spec, TablebaseRule, TbResults, Test, Variant};
use openings::Book;

use super::common::{check_concurrency, open_db, play_run, preflight, runtime, waits_for_workers};
use super::{CliResult, DbArg, RecordArgs, SlotArgs};
use crate::engine_io::engines::{EngineSpec, Registry};
use crate::game::adjudication::{Adjudication, parse_draw, parse_resign};
use crate::run::plan::{apply_variant, plan, repetition_warning};
use model::TimeControl;

/// Options shared by every command that plays games.
#[derive(Args, Debug, Clone)]
pub struct PlayArgs {
    /// Time control: 40/300, 300+3, 40/300+2, 40/7200:20/3600, st=1, nodes=N, depth=N, inf; add ,timemargin=MS ,nodetime=N ,stall=S.
    #[arg(long, default_value = "2+0.02")]
    pub(super) tc: String,
    /// Openings: feldmann25, forty, noob_2moves, 8mvs_+90_+99, frc (Chess960), dfrc (double Fischer random), or an EPD/FEN/PGN/SAN file.
    #[arg(long, default_value = "feldmann25")]
    pub(super) openings: String,
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
    pub(super) concurrency: usize,
    #[command(flatten)]
    db: DbArg,
    /// engines.toml with more engines (default: ./engines.toml if present).
    #[arg(long)]
    pub(super) engines_file: Option<PathBuf>,
    #[command(flatten)]
    record: RecordArgs,
    #[command(flatten)]
    slots: SlotArgs,
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
    /// Syzygy tablebase folders (DIR or DIR:DIR…): a game ends as soon as its position is in the tables.
    #[arg(long, value_name = "DIR[:DIR…]")]
    tb: Option<String>,
    /// Probe positions with at most this many pieces (default: the largest in the folders).
    #[arg(long, value_name = "N")]
    tb_pieces: Option<u32>,
    /// Which tablebase results end a game.
    #[arg(long, value_enum, value_name = "WHICH")]
    tb_adjudicate: Option<TbWhich>,
    /// Count a cursed win or blessed loss as decisive (default: a draw, as the 50-move rule makes it).
    #[arg(long)]
    tb_ignore_50: bool,
    /// Do not check that the PV behind each mate score is legal and mates in time.
    #[arg(long)]
    no_check_mate_pvs: bool,
    /// No progress line.
    #[arg(long)]
    pub(super) quiet: bool,
    /// Only create the run: `arena worker`s play it (on a shared --db postgres://…).
    #[arg(long)]
    no_local: bool,
}

/// `--tb-adjudicate`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(super) enum TbWhich {
    /// Wins only.
    Win,
    /// Draws only.
    Draw,
    /// Wins and draws.
    Both,
}

/// The tablebase rule of `--tb…`, its folders checked (absolute paths, so
/// `arena resume` works from any folder).
fn tablebase_rule(play: &PlayArgs) -> CliResult<Option<TablebaseRule>> {
    let Some(tb) = &play.tb else {
        if play.tb_pieces.is_some() || play.tb_adjudicate.is_some() || play.tb_ignore_50 {
            return Err(anyhow!("--tb-pieces, --tb-adjudicate and --tb-ignore-50 need --tb DIR"));
        }
        return Ok(None);
    };
    let paths: Vec<String> = tb
        .split(':')
        .filter(|p| !p.is_empty())
        .map(|p| std::path::absolute(p).map_or_else(|_| p.to_string(), |a| a.display().to_string()))
        .collect();
    let (_, largest) = crate::game::tablebase::scan(&paths).map_err(anyhow::Error::msg)?;
    let pieces = match play.tb_pieces {
        Some(n) if n < 3 => return Err(anyhow!("--tb-pieces {n}: tables start at 3 pieces")),
        Some(n) => n.min(largest),
        None => largest,
    };
    let results = match play.tb_adjudicate.unwrap_or(TbWhich::Both) {
        TbWhich::Win => TbResults::Win,
        TbWhich::Draw => TbResults::Draw,
        TbWhich::Both => TbResults::Both,
    };
    Ok(Some(TablebaseRule { paths, pieces, results, ignore_50: play.tb_ignore_50 }))
}

pub(super) fn open_book(play: &PlayArgs) -> CliResult<Book> {
    Ok(Book::open(&play.openings)?)
}

/// The engines of `names` (presets, `engines.toml`), each named once.
pub(super) fn resolve_engines(play: &PlayArgs, names: &[&str]) -> CliResult<Vec<EngineSpec>> {
    let registry = Registry::load(play.engines_file.as_deref())?;
    let mut engines = Vec::with_capacity(names.len());
    for (i, name) in names.iter().enumerate() {
        if names[..i].contains(name) {
            return Err(anyhow!(
                "engine '{name}' is named twice; to play a preset against itself, add a second name for it in engines.toml"
            ));
        }
        engines.push(registry.get(name)?);
    }
    Ok(engines)
}

/// Checks every flag of a run of `engines`; nothing is started yet.
pub(super) fn build_spec(
    play: &PlayArgs,
    kind: RunKind,
    engines: Vec<EngineSpec>,
    pairings: Vec<(usize, usize)>,
    openings_per_round: usize,
    rounds: usize,
    sprt: Option<Test>,
) -> CliResult<MatchSpec> {
    let tc: TimeControl = play.tc.parse()?;
    if rounds == 0 {
        return Err(anyhow!("--rounds must be at least 1"));
    }
    check_concurrency(play.concurrency, "games played at once")?;
    if play.maxmoves == Some(0) {
        return Err(anyhow!("--maxmoves must be at least 1 (the full move at which games end)"));
    }
    let tablebase = tablebase_rule(play)?;
    let adjudication = Adjudication {
        draw: parse_draw(&play.draw).map_err(|e| anyhow!("bad --draw: {e}"))?,
        resign: parse_resign(&play.resign).map_err(|e| anyhow!("bad --resign: {e}"))?,
        max_moves: play.maxmoves,
        max_moves_score: play.maxmoves_score,
    };
    Ok(MatchSpec {
        kind,
        engines,
        pairings,
        tc,
        openings: play.openings.clone(),
        seed: play.seed,
        start: play.start,
        max_plies: play.plies,
        openings_per_round,
        rounds,
        concurrency: play.concurrency,
        adjudication,
        sprt,
        tune: None,
        check_mate_pvs: !play.no_check_mate_pvs,
        tablebase,
        variant: Variant::Standard,
    })
}

pub(super) async fn start(play: &PlayArgs, mut spec: MatchSpec, book: &Book) -> CliResult {
    if let Some(warning) = repetition_warning(&spec, book) {
        crate::term::note(&warning);
    }
    let plan = plan(&spec, book);
    apply_variant(&mut spec, &plan);
    let described = format!(
        "{}{} {} at {}, {} games from {} ({} openings), concurrency {}",
        spec.kind,
        if spec.variant.is_standard() { "" } else { " (Chess960)" },
        spec.engines.iter().map(|e| e.name.as_str()).collect::<Vec<_>>().join(" vs "),
        spec.tc,
        2 * plan.len(),
        spec.openings,
        book.len(),
        spec.concurrency,
    );
    let spec = Spec::Games(spec);
    play.record.check()?;
    let affinity = play.slots.resolve(play.concurrency)?;
    preflight(&spec).await?;
    let target = &play.db.target;
    let db = open_db(target).await?;
    let pinned = affinity.as_ref().map_or(String::new(), |cpus| {
        format!(", slots on CPUs {} (--affinity none: unpinned)", cpus.describe(play.concurrency))
    });
    let runtime = runtime(&db, target, play.quiet, affinity, !play.slots.no_io_log)?;
    let run = db.create_run(&spec, &plan).await?;
    if !play.quiet {
        crate::term::note(&format!("run {run}: {described}{pinned}; database {target}"));
    }
    if play.no_local {
        db.close().await;
        waits_for_workers(run, target)?;
        return Ok(());
    }
    play_run(&runtime, target, run, spec, None, &play.record).await
}
