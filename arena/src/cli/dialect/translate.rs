//! A foreign command line ([`Foreign`]) as arena's own: the run-wide
//! settings become [`Settings`] and this machine's [`LocalArgs`], built
//! field by field from the typed options (each refusal names the tool's
//! option as the user wrote it), and the engines become [`EngineSpec`]s;
//! the run is then built by the same [`Settings::spec`] as every command's.

use std::path::Path;

use anyhow::{anyhow, bail};
use model::adjudication::{DrawFlag, ResignFlag};
use model::{GamesKind, GamesSpec, Test, TimeControl};

use super::Dialect;
use super::parse::{EngineConf, Foreign};
use crate::cli::games::{LocalArgs, PlayArgs, open_book};
use crate::cli::{CliResult, DbArg, EnginesFileArg, PgnLevel, PgnStyle, QuietArg, RecordArgs, SlotArgs};
use crate::engine_io::engines::{EngineSpec, Registry};
use crate::run::settings::{MAXMOVES_SCORE, Settings};

/// The run a foreign command line asks for, ready to start.
pub(super) struct Run {
    pub(super) play: PlayArgs,
    pub(super) spec: GamesSpec,
    pub(super) book: openings::Book,
}

/// The run-wide settings of `foreign` and how this machine plays them:
/// every field said here (no defaults filled in behind it), so that a
/// setting added to [`Settings`] or [`LocalArgs`] does not compile until
/// this front end says what it does with it.
///
/// # Errors
///
/// A setting arena refuses, in one line naming the tool's option.
pub(super) fn play_args(dialect: Dialect, foreign: &Foreign) -> CliResult<PlayArgs> {
    let confs: Vec<EngineConf> = foreign.engines.iter().map(|e| e.with_each(&foreign.each)).collect();
    let book_depth = match confs.first().and_then(|c| c.bookdepth.as_deref()) {
        Some(depth) => Some(number::<usize>("bookdepth=", depth)?),
        None => None,
    };
    if foreign.concurrency == Some(0) {
        bail!("-concurrency 0: give 1 or more games at once");
    }
    if foreign.maxmoves == Some(0) {
        bail!("-maxmoves 0: give a move number of 1 or more");
    }
    let draw: DrawFlag = match &foreign.draw {
        Some(rule) => rule.parse().map_err(|e| anyhow!("-draw: {e}"))?,
        None => "off".parse()?,
    };
    let resign: ResignFlag = match &foreign.resign {
        Some(rule) => rule.parse().map_err(|e| anyhow!("-resign: {e}"))?,
        None => "off".parse()?,
    };
    let target = match &foreign.db {
        Some(text) => text.parse().map_err(|e: db::BadTarget| anyhow!("--db: {e}"))?,
        None => DbArg::default().target,
    };
    let conventions = match dialect {
        Dialect::Fastchess => reports::pgn::Conventions::Fastchess,
        Dialect::Cutechess => reports::pgn::Conventions::Cutechess,
    };
    let record = match &foreign.pgnout {
        Some(pgn) => RecordArgs {
            pgn: Some(pgn.file.clone().into()),
            epdout: foreign.epdout.as_ref().map(Into::into),
            style: PgnStyle {
                pgn_level: match pgn.level {
                    "min" => PgnLevel::Min,
                    "full" => PgnLevel::Full,
                    _ => PgnLevel::Normal,
                },
                event: foreign.event.clone(),
                site: foreign.site.clone(),
                pgn_match_line: pgn
                    .match_lines
                    .iter()
                    .map(|pattern| {
                        crate::cli::read_pattern(pattern).map_err(|e| anyhow!("-pgnout match_line={pattern}: {e}"))
                    })
                    .collect::<CliResult<_>>()?,
                conventions,
                written: std::sync::Arc::default(),
            },
            // fastchess appends unless append=false, cutechess-cli always.
            append: pgn.append,
            continued: false,
        },
        None => RecordArgs {
            pgn: None,
            epdout: foreign.epdout.as_ref().map(Into::into),
            style: PgnStyle {
                event: foreign.event.clone(),
                site: foreign.site.clone(),
                conventions,
                ..PgnStyle::default()
            },
            append: false,
            continued: false,
        },
    };
    let local = LocalArgs {
        db: DbArg { target },
        registry: EnginesFileArg::default(),
        record,
        // Pinned only when asked: the tools leave engines to the operating system.
        slots: SlotArgs {
            affinity: Some(foreign.affinity.clone().unwrap_or_else(|| "none".to_string())),
            no_io_log: false,
        },
        quiet: QuietArg { quiet: true },
        no_local: false,
    };
    let settings = Settings {
        // Each engine's own limit is its spec's (see `translate`).
        tc: None,
        openings: openings_file(foreign, &confs)?,
        // Without -srand the tools seed from the clock; the seed is kept in the run.
        seed: foreign.openings.random.then(|| foreign.srand.unwrap_or_else(|| fastrand::u64(..))),
        start: foreign.openings.start.map_or(0, |start| start.saturating_sub(1)),
        plies: foreign.openings.plies.or(book_depth.map(|moves| 2 * moves)),
        concurrency: foreign.concurrency,
        draw,
        resign,
        maxmoves: foreign.maxmoves,
        // The tools call a game at the move limit a draw, whatever the scores.
        maxmoves_score: if foreign.maxmoves.is_some() { i64::MAX } else { MAXMOVES_SCORE },
        tb: foreign.tb.clone(),
        tb_pieces: foreign.tb_pieces,
        tb_adjudicate: foreign.tb_adjudicate,
        tb_ignore_50: foreign.tb_ignore_50,
        no_check_mate_pvs: false,
        ponder: !confs.is_empty() && confs.iter().all(|c| c.ponder),
        scale_nps: None,
        min_nps: None,
        set_aside_p: model::spec::SET_ASIDE_P,
        count_set_aside: false,
    };
    Ok(PlayArgs { settings, local })
}

/// Translates `foreign` into a checked run spec.
///
/// # Errors
///
/// The first setting arena cannot honour, in one line.
pub(super) fn translate(dialect: Dialect, foreign: &Foreign) -> CliResult<Run> {
    if foreign.engines.len() < 2 {
        bail!("give at least two engines: -engine cmd=./dev name=dev -engine cmd=./base name=base");
    }
    let confs: Vec<EngineConf> = foreign.engines.iter().map(|e| e.with_each(&foreign.each)).collect();
    let play = play_args(dialect, foreign)?;
    let registry = play.local.registry.load()?;
    let limits: Vec<TimeControl> = confs.iter().map(limit).collect::<CliResult<_>>()?;
    let mut engines: Vec<EngineSpec> =
        confs.iter().enumerate().map(|(i, conf)| engine(conf, i, &registry)).collect::<CliResult<_>>()?;
    for (i, engine) in engines.iter().enumerate() {
        if engines[..i].iter().any(|e| e.name == engine.name) {
            bail!("two engines are named '{}': give each its own name=", engine.name);
        }
    }
    if limits.iter().any(|l| *l != limits[0]) {
        for (engine, limit) in engines.iter_mut().zip(&limits) {
            engine.tc = Some(limit.clone());
        }
    }
    let games = if dialect == Dialect::Fastchess && foreign.repeat && foreign.games == 1 { 2 } else { foreign.games };
    if games != 2 && !foreign.repeat {
        bail!("arena plays each opening twice with colours swapped: add -repeat (or -games 2)");
    }
    let total = foreign.rounds * games;
    if total == 0 || !total.is_multiple_of(2) {
        bail!(
            "-rounds {} -games {games} is {total} games a pairing; arena plays them in pairs: make it even",
            foreign.rounds
        );
    }
    let pairs = usize::try_from(total / 2).map_err(|_| anyhow!("-rounds {}: too many", foreign.rounds))?;
    let test = sprt(dialect, foreign)?;
    let (kind, pairings) = match engines.len() {
        2 => (test.map_or(GamesKind::Match, GamesKind::Sprt), vec![(0, 1)]),
        n if test.is_some() => bail!("-sprt plays two engines; {n} are given"),
        n if foreign.gauntlet => (GamesKind::Tournament, (1..n).map(|i| (0, i)).collect()),
        n => (GamesKind::Tournament, (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect()),
    };
    let book = open_book(&play.settings)?;
    let mut spec = play.settings.spec(kind, engines, pairings, pairs, 1)?;
    spec.tc = limits[0].clone();
    Ok(Run { play, spec, book })
}

/// The opening file: `-openings file=`, else a Polyglot `book=` that every
/// engine shares; `None`: arena's default set (the tools would play every
/// game from the start position).
fn openings_file(foreign: &Foreign, confs: &[EngineConf]) -> CliResult<Option<String>> {
    let Some(first) = confs.first() else { return Ok(foreign.openings.file.clone()) };
    let book = first.book.clone();
    if confs.iter().any(|c| c.book != book || c.bookdepth != first.bookdepth) {
        bail!("arena plays one opening book for all engines: give book= and bookdepth= with -each");
    }
    let file = match (foreign.openings.file.clone(), book) {
        (Some(_), Some(_)) => bail!("give -openings file= or -each book=, not both"),
        (Some(file), None) | (None, Some(file)) => file,
        (None, None) => return Ok(None),
    };
    if let Some(format) = &foreign.openings.format {
        let extension = Path::new(&file).extension().and_then(|e| e.to_str()).unwrap_or_default().to_ascii_lowercase();
        let fits = match format.as_str() {
            "epd" => extension != "pgn" && extension != "bin",
            "pgn" => extension == "pgn",
            other => bail!("-openings format={other}: give epd or pgn"),
        };
        if !fits {
            bail!(
                "-openings format={format} but {file} is named as another format: rename it to its format's extension"
            );
        }
    }
    Ok(Some(file))
}

fn number<T: std::str::FromStr>(what: &str, text: &str) -> CliResult<T> {
    text.trim().parse().map_err(|_| anyhow!("{what}{text}: not a whole number"))
}

/// An engine's limit: `tc=` (cutechess's `moves/min:sec+inc` read as
/// arena's seconds), `st=`, `nodes=` or `depth=`/`plies=`, with `timemargin=`.
fn limit(conf: &EngineConf) -> CliResult<TimeControl> {
    let tc = conf.tc.as_deref().filter(|tc| *tc != "inf" && *tc != "infinite");
    let base = match (tc, &conf.st, &conf.nodes, &conf.depth) {
        (Some(tc), None, None, None) => clock(tc)?,
        (None, Some(st), None, None) => format!("st={st}"),
        (None, None, Some(nodes), None) => format!("nodes={nodes}"),
        (None, None, None, Some(depth)) => format!("depth={depth}"),
        (None, None, None, None) => bail!(
            "no time control for {}: give -each tc=8+0.08 (or st=, nodes=, depth=)",
            conf.name.as_deref().or(conf.cmd.as_deref()).unwrap_or("an engine")
        ),
        _ => bail!(
            "arena plays one limit per engine: give tc=, st=, nodes= or depth=, not several (tc=inf nodes=N is nodes=N)"
        ),
    };
    let text = match &conf.timemargin {
        Some(margin) => format!("{base},timemargin={margin}"),
        None => base,
    };
    text.parse::<TimeControl>().map_err(|e| anyhow!("tc: {e}"))
}

/// A clock as the tools write it (`40/1:30+0.5`: minutes:seconds) in
/// arena's seconds (`40/90+0.5`).
fn clock(tc: &str) -> CliResult<String> {
    let (moves, rest) = match tc.split_once('/') {
        Some((moves, rest)) => (format!("{moves}/"), rest),
        None => (String::new(), tc),
    };
    let (time, increment) = match rest.split_once('+') {
        Some((time, inc)) => (time, format!("+{inc}")),
        None => (rest, String::new()),
    };
    let seconds = match time.split_once(':') {
        Some((minutes, seconds)) => {
            let minutes: f64 = number("tc=", minutes)?;
            let seconds: f64 = number("tc=", seconds)?;
            format!("{}", minutes * 60.0 + seconds)
        }
        None => time.to_string(),
    };
    Ok(format!("{moves}{seconds}{increment}"))
}

/// An engine: `cmd=` (relative to `dir=`) as arena finds programs (or a
/// preset, or an engines.toml name), with its name, arguments and options.
fn engine(conf: &EngineConf, index: usize, registry: &Registry) -> CliResult<EngineSpec> {
    let cmd = conf.cmd.as_deref().ok_or_else(|| anyhow!("engine {} has no cmd=: give cmd=PROGRAM", index + 1))?;
    let dir = conf.dir.as_deref().map(|d| std::path::absolute(d).unwrap_or_else(|_| d.into()));
    let program = match &dir {
        Some(dir) if !Path::new(cmd).is_absolute() && (cmd.contains('/') || dir.join(cmd).is_file()) => {
            dir.join(cmd).display().to_string()
        }
        _ => cmd.to_string(),
    };
    let mut spec = registry.get_or_path(&program)?;
    spec.name = match &conf.name {
        Some(name) => name.clone(),
        None => Path::new(cmd).file_name().and_then(|n| n.to_str()).unwrap_or(cmd).to_string(),
    };
    if spec.name.is_empty() || spec.name.contains(char::is_whitespace) {
        bail!("engine name '{}': give a name= without spaces (their parsers split lines on spaces)", spec.name);
    }
    if spec.preset.is_none() {
        spec.args.clone_from(&conf.args);
        spec.dir = dir;
    }
    for (name, value) in &conf.options {
        spec.options.retain(|(n, _)| n != name);
        spec.options.push((name.clone(), value.clone()));
    }
    spec.ponder |= conf.ponder;
    Ok(spec)
}

/// The program `cmd` run with `args`, as `--compliance` names it.
///
/// # Errors
///
/// A program that cannot be found, in one line.
pub(super) fn checked_engine(cmd: &str, args: &[String]) -> CliResult<EngineSpec> {
    let conf = EngineConf { cmd: Some(cmd.to_string()), args: args.to_vec(), ..EngineConf::default() };
    engine(&conf, 0, &Registry::default())
}

/// `-sprt` as arena's test: the tool's defaults where a key is not given
/// (fastchess: normalized Elo; cutechess-cli: logistic), checked.
fn sprt(dialect: Dialect, foreign: &Foreign) -> CliResult<Option<Test>> {
    let Some(keys) = &foreign.sprt else { return Ok(None) };
    let (Some(elo0), Some(elo1)) = (keys.elo0, keys.elo1) else {
        bail!("-sprt needs elo0= and elo1=, e.g. -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05");
    };
    let model = match (&keys.model, dialect) {
        (Some(model), _) => model.parse().map_err(|e: model::Invalid| anyhow!("-sprt model={model}: {e}"))?,
        (None, Dialect::Fastchess) => model::Model::Normalized,
        (None, Dialect::Cutechess) => model::Model::Logistic,
    };
    let test = Test::new(elo0, elo1, keys.alpha.unwrap_or(0.05), keys.beta.unwrap_or(0.05), model)
        .map_err(|e| anyhow!("-sprt: {e}"))?;
    Ok(Some(test))
}
