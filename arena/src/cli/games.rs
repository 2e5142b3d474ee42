//! What every command that plays games shares (`elo`, `match`,
//! `tournament`, `sprt`, `tune`): the flags of a run of games, turning them
//! into a checked [`GamesSpec`], and starting the run (preflight, store,
//! play here or leave to workers, summary).

use anyhow::anyhow;

use clap::Args;
use model::{GamesKind, GamesSpec, MachineRule, Spec, TablebaseRule, TbResults, Variant};
use openings::Book;
use serde::Serialize;

use super::common::{
    View, check_concurrency, check_identities, make_ready, open_db, play_run, runtime, waits_for_workers,
};
use super::{CliResult, ConcurrencyArg, DbArg, EnginesFileArg, QuietArg, RecordArgs, SlotArgs};
use crate::engine_io::engines::{BenchSignature, DEFAULT_BUILD, EngineSpec, Source};
use crate::engine_io::source::repo_location;
use crate::game::adjudication::Adjudication;
use crate::run::plan::{apply_variant, cap_replays, on_a_clock, plan};
use model::TimeControl;
use model::adjudication::{DrawFlag, ResignFlag, RuleFlag};

/// `--maxmoves-score` without the flag: the lead in centipawns that wins at
/// the move limit.
pub(super) const MAXMOVES_SCORE: i64 = 200;

/// Options shared by every command that plays games. Each flag is declared
/// once, here: clap reads it from the command line (and from a run file's
/// `[flags]`, through the same parser), serde writes it back into a run
/// file (`arena show RUN --config`, [`PlayArgs::of`]). Flags that say how
/// this machine plays, not what is played, are not written.
#[derive(Args, Debug, Clone, Serialize)]
#[serde(rename_all = "kebab-case")]
pub struct PlayArgs {
    /// Time control: 40/300, 300+3, 40/300+2, 40/7200:20/3600, st=1, nodes=N, depth=N; add ,timemargin=MS ,nodetime=N ,stall=S [default: 2+0.02; arena scale: none, its budgets are its time controls].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(help_heading = "Clock", long)]
    pub(super) tc: Option<TimeControl>,
    /// Openings: feldmann25, forty, noob_2moves, 8mvs_+90_+99, frc (Chess960), dfrc (double Fischer random), or an EPD/FEN/PGN/SAN file [default: feldmann25; arena sprt, match and tune: noob_2moves, shuffled].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(help_heading = "Openings", long, add = clap_complete::ArgValueCompleter::new(super::complete::books))]
    pub(super) openings: Option<String>,
    /// Shuffle the openings with this seed; without it a book given with --openings plays in file order, and the default book of sprt, match and tune is shuffled with a new seed, kept in the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(help_heading = "Openings", long)]
    pub(super) seed: Option<u64>,
    /// Index of the first opening.
    #[serde(skip_serializing_if = "is_zero")]
    #[arg(hide_short_help = true, help_heading = "Openings", long, default_value_t = 0)]
    pub(super) start: usize,
    /// Cut openings to this many plies.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(hide_short_help = true, help_heading = "Openings", long)]
    pub(super) plies: Option<usize>,
    #[serde(flatten)]
    #[command(flatten)]
    pub(super) concurrency: ConcurrencyArg,
    #[serde(skip)]
    #[command(flatten)]
    pub(super) db: DbArg,
    #[serde(skip)]
    #[command(flatten)]
    pub(super) registry: EnginesFileArg,
    #[serde(skip)]
    #[command(flatten)]
    pub(super) record: RecordArgs,
    #[serde(skip)]
    #[command(flatten)]
    pub(super) slots: SlotArgs,
    /// Draw adjudication: movenumber=N,movecount=N,score=CP (each key optional), or off.
    #[serde(serialize_with = "as_text")]
    #[arg(help_heading = "Adjudication", long, default_value_t, value_name = "RULE")]
    pub(super) draw: DrawFlag,
    /// Resign adjudication: movecount=N,score=CP,twosided=BOOL (each key optional), or off.
    #[serde(serialize_with = "as_text")]
    #[arg(help_heading = "Adjudication", long, default_value_t, value_name = "RULE")]
    pub(super) resign: ResignFlag,
    /// End games at this full move and adjudicate (the FHR paper used 100).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(help_heading = "Adjudication", long, value_name = "N", value_parser = super::at_least::<u32, 1>)]
    pub(super) maxmoves: Option<u32>,
    /// Lead in centipawns that wins at the move limit (both engines agreeing).
    #[arg(hide_short_help = true, help_heading = "Adjudication", long, default_value_t = MAXMOVES_SCORE)]
    pub(super) maxmoves_score: i64,
    /// Syzygy tablebase folders (DIR or DIR:DIR…), or `builtin` for the 3–4 piece tables arena carries: a game ends as soon as its position is in the tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(help_heading = "Adjudication", long, value_name = "DIR[:DIR…]")]
    pub(super) tb: Option<String>,
    /// Probe positions with at most this many pieces (default: the largest in the folders).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(hide_short_help = true, help_heading = "Adjudication", long, value_name = "N")]
    pub(super) tb_pieces: Option<u32>,
    /// Which tablebase results end a game.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(hide_short_help = true, help_heading = "Adjudication", long, value_enum, value_name = "WHICH")]
    pub(super) tb_adjudicate: Option<TbWhich>,
    /// Count a cursed win or blessed loss as decisive (default: a draw, as the 50-move rule makes it).
    #[serde(skip_serializing_if = "is_false")]
    #[arg(hide_short_help = true, help_heading = "Adjudication", long)]
    pub(super) tb_ignore_50: bool,
    /// Do not check that the PV behind each mate score is legal and mates in time.
    #[serde(skip_serializing_if = "is_false")]
    #[arg(hide_short_help = true, help_heading = "Adjudication", long)]
    pub(super) no_check_mate_pvs: bool,
    /// Let every engine that declares Ponder think on the expected reply while its opponent thinks (as cutechess's -pondering); per engine: ponder = true in engines.toml. With pinning, each game slot gets two CPUs.
    #[serde(skip_serializing_if = "is_false")]
    #[arg(hide_short_help = true, help_heading = "Engines", long)]
    pub(super) ponder: bool,
    /// Scale clocks to each machine's speed: the reference nodes per second of the first engine's bench; a machine measured at half of it plays twice the time control (node and depth limits are not scaled).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(hide_short_help = true, help_heading = "Many machines", long, value_name = "NPS")]
    pub(super) scale_nps: Option<u64>,
    /// With --scale-nps: refuse machines slower than this (default: a quarter of the reference).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(hide_short_help = true, help_heading = "Many machines", long, value_name = "NPS", requires = "scale_nps")]
    pub(super) min_nps: Option<u64>,
    /// Set a machine aside (no more pairs of this run) when its faults or its residual are this unlikely: a Bonferroni-corrected p-value; 0 never sets one aside.
    #[serde(skip_serializing_if = "is_default_p")]
    #[arg(hide_short_help = true, help_heading = "Many machines", long, value_name = "P", default_value_t = model::spec::SET_ASIDE_P)]
    pub(super) set_aside_p: f64,
    /// Count the games of machines set aside (by default the result leaves them out).
    #[serde(skip_serializing_if = "is_false")]
    #[arg(hide_short_help = true, help_heading = "Many machines", long)]
    pub(super) count_set_aside: bool,
    #[serde(skip)]
    #[command(flatten)]
    pub(super) quiet: QuietArg,
    /// Only create the run: `arena worker`s play it (on a shared --db postgres://…).
    #[serde(skip)]
    #[arg(help_heading = "Many machines", long)]
    pub(super) no_local: bool,
    /// What the command chose where a flag was left out (a large book, a
    /// game cap), said with the run's first line once the run exists: a
    /// refusal before it stays one line.
    #[serde(skip)]
    #[arg(skip)]
    pub(super) chosen: Vec<String>,
    /// The game cap the command chose, said with the run's first line
    /// unless the book lowers it (a deterministic limit: see `cap_replays`,
    /// whose note then says both numbers).
    #[serde(skip)]
    #[arg(skip)]
    pub(super) chosen_cap: Option<String>,
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

/// `--tb-adjudicate`.
#[derive(Clone, Copy, Debug, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub(super) enum TbWhich {
    /// Wins only.
    Win,
    /// Draws only.
    Draw,
    /// Wins and draws.
    Both,
}

impl PlayArgs {
    /// Without `--openings`.
    const DEFAULT_OPENINGS: &str = "feldmann25";

    /// The opening set: `--openings`, else the papers' 25 openings.
    pub(super) fn openings(&self) -> &str {
        self.openings.as_deref().unwrap_or(Self::DEFAULT_OPENINGS)
    }

    /// The openings of an SPRT, a match or a tuning run without
    /// `--openings`: a large book in a random order (the seed kept in the
    /// run), so that a long test on a clock does not replay 25 openings
    /// hundreds of times; said when the run starts.
    pub(super) fn large_book_unless_given(&mut self) {
        if self.openings.is_some() {
            return;
        }
        const LARGE: &str = "noob_2moves";
        self.openings = Some(LARGE.to_string());
        let seed = *self.seed.get_or_insert_with(|| fastrand::u64(..u64::from(u32::MAX)));
        self.say_at_start(format!("openings {LARGE}, shuffled with seed {seed} (--openings and --seed choose others)"));
    }

    /// Says `note` with the run's first line, once the run exists.
    pub(super) fn say_at_start(&mut self, note: String) {
        self.chosen.push(note);
    }

    /// Says `note`, the game cap chosen, with the run's first line, unless
    /// the book lowers the cap.
    pub(super) fn say_cap_at_start(&mut self, note: String) {
        self.chosen_cap = Some(note);
    }

    /// The flags that play `spec` again (see [`super::stored_command`]).
    pub(super) fn of(spec: &GamesSpec) -> PlayArgs {
        let (adjudication, tb) = (&spec.adjudication, spec.tablebase.as_ref());
        PlayArgs {
            tc: Some(spec.tc.clone()),
            openings: Some(spec.openings.clone()),
            seed: spec.seed,
            start: spec.start,
            plies: spec.max_plies,
            concurrency: ConcurrencyArg { concurrency: Some(spec.concurrency) },
            db: DbArg::default(),
            registry: EnginesFileArg::default(),
            record: RecordArgs::default(),
            slots: SlotArgs::default(),
            draw: RuleFlag(adjudication.draw),
            resign: RuleFlag(adjudication.resign),
            maxmoves: adjudication.max_moves,
            maxmoves_score: adjudication.max_moves_score,
            tb: tb.map(|tb| tb.paths.join(":")),
            tb_pieces: tb.map(|tb| tb.pieces),
            tb_adjudicate: tb.map(|tb| match tb.results {
                TbResults::Win => TbWhich::Win,
                TbResults::Draw => TbWhich::Draw,
                TbResults::Both => TbWhich::Both,
            }),
            tb_ignore_50: tb.is_some_and(|tb| tb.ignore_50),
            no_check_mate_pvs: !spec.check_mate_pvs,
            ponder: !spec.engines.is_empty() && spec.engines.iter().all(|e| e.ponder),
            scale_nps: spec.machines.scale_nps,
            min_nps: spec.machines.min_nps,
            set_aside_p: spec.machines.set_aside_p,
            count_set_aside: spec.machines.count_set_aside,
            quiet: QuietArg::default(),
            no_local: false,
            chosen: Vec::new(),
            chosen_cap: None,
        }
    }
}

/// Leaves a zero out of a run file (the flag's default).
pub(super) fn is_zero(value: &usize) -> bool {
    *value == 0
}

/// Leaves the default `--set-aside-p` out of a run file.
fn is_default_p(p: &f64) -> bool {
    *p == model::spec::SET_ASIDE_P
}

/// The run's machine rule from `--scale-nps`, `--min-nps`, `--set-aside-p`, `--count-set-aside`.
fn machine_rule(play: &PlayArgs) -> CliResult<MachineRule> {
    if !(0.0..1.0).contains(&play.set_aside_p) {
        return Err(anyhow!(
            "--set-aside-p {}: give a p-value from 0 (never) to below 1, e.g. 0.0001",
            play.set_aside_p
        ));
    }
    if play.scale_nps == Some(0) || play.min_nps == Some(0) {
        return Err(anyhow!("--scale-nps and --min-nps are speeds in nodes per second, above 0"));
    }
    Ok(MachineRule {
        set_aside_p: play.set_aside_p,
        count_set_aside: play.count_set_aside,
        scale_nps: play.scale_nps,
        min_nps: play.min_nps,
    })
}

/// Leaves a switch that is off out of a run file.
pub(super) fn is_false(value: &bool) -> bool {
    !*value
}

/// Writes a typed flag into a run file as the text clap reads back.
pub(super) fn as_text<T: std::fmt::Display, S: serde::Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
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
        .map(|p| {
            if p == crate::game::tablebase::BUILTIN {
                return p.to_string();
            }
            std::path::absolute(p).map_or_else(|_| p.to_string(), |a| a.display().to_string())
        })
        .collect();
    let (_, largest) = crate::game::tablebase::scan(&paths)?;
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
    Ok(Book::open(play.openings())?)
}

/// The engines of `names` (presets, `engines.toml`, programs by path or on PATH),
/// each named once.
pub(super) fn resolve_engines(play: &PlayArgs, names: &[&str]) -> CliResult<Vec<EngineSpec>> {
    let registry = play.registry.load()?;
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

/// The time control without `--tc`.
const DEFAULT_TC: &str = "2+0.02";

/// Checks every flag of a run of `engines`; nothing is started yet.
pub(super) fn build_spec(
    play: &PlayArgs,
    kind: GamesKind,
    engines: Vec<EngineSpec>,
    pairings: Vec<(usize, usize)>,
    openings_per_round: usize,
    rounds: usize,
) -> CliResult<GamesSpec> {
    let tc: TimeControl = match &play.tc {
        Some(tc) => tc.clone(),
        None => DEFAULT_TC.parse()?,
    };
    let mut engines = engines;
    for engine in &mut engines {
        engine.ponder |= play.ponder;
    }
    check_concurrency(play.concurrency.or_default())?;
    let tablebase = tablebase_rule(play)?;
    let adjudication = Adjudication {
        draw: play.draw.0,
        resign: play.resign.0,
        max_moves: play.maxmoves,
        max_moves_score: play.maxmoves_score,
    };
    Ok(GamesSpec {
        kind,
        engines,
        pairings,
        tc,
        openings: play.openings().to_string(),
        seed: play.seed,
        start: play.start,
        max_plies: play.plies,
        openings_per_round,
        rounds,
        concurrency: play.concurrency.or_default(),
        adjudication,
        check_mate_pvs: !play.no_check_mate_pvs,
        tablebase,
        variant: Variant::Standard,
        machines: machine_rule(play)?,
    })
}

/// A run's engines and time control as its first line says them: a scaling
/// run's A and B once (not a copy per budget), at every budget.
fn engines_and_limit(spec: &GamesSpec) -> (String, String) {
    let GamesKind::Scale(budgets) = &spec.kind else {
        let names: Vec<&str> = spec.engines.iter().map(|e| e.name.as_str()).collect();
        return (names.join(" vs "), spec.tc.to_string());
    };
    let budgets: Vec<String> = budgets.0.iter().map(ToString::to_string).collect();
    (model::base_names(spec.engines.iter().map(|e| e.name.as_str())).join(" vs "), budgets.join(", "))
}

/// Pairs from which a run started on a terminal is told how to outlive it
/// (an overnight run: a thousand pairs take hours on a clock).
const LONG_RUN_PAIRS: usize = 1000;

/// Plays stopped run `run` on with these flags' database, concurrency,
/// records and slots, shown as `view` says (a foreign command line's state file).
pub(super) async fn resume_as(play: &PlayArgs, run: i64, view: View<'_>) -> CliResult {
    let how = super::resume::How {
        target: &play.db.target,
        concurrency: play.concurrency.concurrency,
        record: &play.record,
        slots: &play.slots,
        quiet: play.quiet.quiet,
        accept_change: false,
    };
    super::resume::resume_run(run, &how, view).await
}

/// The database these flags name.
pub(super) fn target(play: &PlayArgs) -> &db::Target {
    &play.db.target
}

/// Starts a run of games shown as arena shows it.
pub(super) async fn start(play: &PlayArgs, spec: GamesSpec, book: &Book) -> CliResult {
    start_as(play, spec, book, View::Arena).await
}

/// Checks, stores and plays (or leaves to workers) a run of games, shown as `view` says.
pub(super) async fn start_as(play: &PlayArgs, mut spec: GamesSpec, book: &Book, view: View<'_>) -> CliResult {
    let replays_capped = cap_replays(&mut spec, book);
    if let Some(note) = &replays_capped {
        crate::term::note(note);
    }
    let plan = plan(&spec, book);
    apply_variant(&mut spec, &plan);
    let (engines, limit) = engines_and_limit(&spec);
    let described = format!(
        "{}{} {engines} at {limit}, {} games from {} ({} openings{}), concurrency {}",
        spec.kind,
        if spec.variant.is_standard() { "" } else { " (Chess960)" },
        2 * plan.len(),
        spec.openings,
        book.len(),
        spec.seed.map_or(String::new(), |seed| format!(", shuffled with seed {seed}")),
        spec.concurrency,
    );
    let per_slot = if spec.engines.iter().any(|e| e.ponder) { 2 } else { 1 };
    let clocked = on_a_clock(&spec);
    let mut spec = Spec::Games(spec);
    play.record.check(false)?;
    let concurrency = play.concurrency.or_default();
    let affinity = play.slots.resolve(concurrency, per_slot)?;
    if !play.no_local {
        super::common::warn_of_sharing(clocked, concurrency, per_slot);
    }
    let measured = make_ready(&mut spec).await?;
    let target = &play.db.target;
    let db = open_db(target).await?;
    let pinned = affinity.as_ref().map_or(String::new(), |cpus| {
        format!(", slots pinned to CPUs {} (--affinity none leaves them unpinned)", cpus.describe(concurrency))
    });
    let runtime = runtime(&db, target, play.quiet.quiet, affinity, !play.slots.no_io_log)?;
    let run = db.create_run(&spec, &plan, &crate::util::machine_name()).await?;
    check_identities(&db, run, &spec, &measured, false).await?;
    if !play.quiet.quiet {
        crate::term::note(&format!("run {run}: {described}{pinned}; database {target}"));
        let cap = play.chosen_cap.as_ref().filter(|_| replays_capped.is_none());
        for chosen in play.chosen.iter().chain(cap) {
            crate::term::note(chosen);
        }
        if !play.no_local && crate::term::is_terminal() && plan.len() >= LONG_RUN_PAIRS {
            crate::term::note(&format!(
                "closing this terminal stops the run (arena resume {run} plays on); to let it outlive the terminal, start it under tmux, nohup or systemd-run --user"
            ));
        }
    }
    if play.no_local {
        db.close().await;
        waits_for_workers(run, target, &spec)?;
        return Ok(());
    }
    play_run(&runtime, target, run, spec, None, &play.record, view).await
}
