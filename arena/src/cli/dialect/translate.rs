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
use crate::cli::settings::{MAXMOVES_SCORE, Settings};
use crate::cli::shared::{CliResult, DbArg, EnginesFileArg, QuietArg, RecordArgs, SlotArgs};
use crate::engine_io::engines::{EngineSpec, Registry};
use crate::run::record::{PgnStyle, Records};

/// The run a foreign command line asks for, ready to start.
pub(super) struct Run {
    pub(super) play: PlayArgs,
    /// Where its games are written, in the tool's conventions.
    pub(super) records: Records,
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
pub(super) fn play_args(dialect: Dialect, foreign: &Foreign) -> CliResult<(PlayArgs, Records)> {
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
    let epdout = foreign.epdout.as_ref().map(Into::into);
    let (event, site) = (foreign.event.clone(), foreign.site.clone());
    let records = match &foreign.pgnout {
        Some(pgn) => {
            use reports::pgn::{Fields, Level};
            let level = match (pgn.min, pgn.fields) {
                (true, _) => Level::Min,
                (false, fields) if fields == Fields::default() => Level::Normal,
                (false, fields) => Level::Fields(fields),
            };
            let patterns = pgn
                .match_lines
                .iter()
                .map(|pattern| {
                    crate::cli::shared::read_pattern(pattern).map_err(|e| anyhow!("-pgnout match_line={pattern}: {e}"))
                })
                .collect::<CliResult<_>>()?;
            let style = PgnStyle::new(level, event, site, patterns).in_conventions(conventions);
            let records = Records::new(Some(pgn.file.clone().into()), epdout, style);
            // fastchess appends unless append=false, cutechess-cli always.
            if pgn.append { records.appended() } else { records }
        }
        None => Records::new(
            None,
            epdout,
            PgnStyle::new(Default::default(), event, site, Vec::new()).in_conventions(conventions),
        ),
    };
    let local = LocalArgs {
        db: DbArg { target },
        registry: EnginesFileArg::default(),
        // Records are the tool's, in its conventions: `records`.
        record: RecordArgs::default(),
        // Pinned only when asked: the tools leave engines to the operating system.
        slots: SlotArgs {
            affinity: Some(foreign.affinity.clone().unwrap_or_else(|| "none".to_string())),
            no_io_log: false,
        },
        quiet: QuietArg { quiet: true },
        no_local: false,
    };
    let openings = openings_file(foreign, &confs)?;
    let polyglot = openings.as_deref().is_some_and(|f| f.to_ascii_lowercase().ends_with(".bin"));
    let settings = Settings {
        // Each engine's own limit is its spec's (see `translate`).
        tc: None,
        openings,
        // Without -srand the tools seed from the clock; the seed is kept in
        // the run. A Polyglot book's walks take -srand in either order.
        seed: match (foreign.openings.random, foreign.srand) {
            (true, srand) => Some(srand.unwrap_or_else(|| fastrand::u64(..))),
            (false, Some(srand)) if polyglot => Some(srand),
            (false, _) => None,
        },
        start: foreign.openings.start.map_or(0, |start| start.saturating_sub(1)),
        plies: foreign.openings.plies.or(book_depth.map(|moves| 2 * moves)),
        // One game at a time unless told, as both tools play (fastchess's
        // `concurrency = 1`, cutechess-cli's default).
        concurrency: Some(crate::run::concurrency::Concurrency::Games(foreign.concurrency.unwrap_or(1))),
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
    Ok((PlayArgs { settings, local }, records))
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
    for (i, own) in foreign.engines.iter().enumerate() {
        let (mine, all) = (limit_keys(own), limit_keys(&foreign.each));
        if let (Some(mine), Some(all)) = (mine, all)
            && mine != all
        {
            bail!(
                "engine {} gives {mine}= and -each {all}=: arena plays one limit per engine, not both; give one of them",
                own.name.as_deref().unwrap_or(&(i + 1).to_string())
            );
        }
    }
    let confs: Vec<EngineConf> = foreign.engines.iter().map(|e| e.with_each(&foreign.each)).collect();
    let (play, records) = play_args(dialect, foreign)?;
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
    match (dialect, foreign.repeat, games) {
        (_, true, _) | (Dialect::Fastchess, false, 2) => {}
        // cutechess-cli gives each game of a round its own opening.
        (Dialect::Cutechess, false, _) => bail!(
            "cutechess-cli without -repeat gives each game its own opening; arena plays each opening twice with colours swapped: add -repeat"
        ),
        // fastchess plays one game per opening: arena plays the same number of games, in pairs.
        (Dialect::Fastchess, false, 1) => crate::term::note(&format!(
            "-rounds {} without -repeat: arena plays each opening twice with colours swapped, so these games come from half as many openings",
            foreign.rounds
        )),
        (Dialect::Fastchess, false, _) => {
            bail!("-games {games}: arena plays each opening twice with colours swapped: give -games 2 or -repeat")
        }
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
    let headline = Some(limits[0].clone());
    let games = crate::cli::settings::Games { kind, engines, pairings, openings_per_round: pairs, rounds: 1, headline };
    let spec = play.settings.spec(games)?;
    Ok(Run { play, records, spec, book })
}

/// The kind of limit `conf` gives (tc, st, nodes or depth), if one.
fn limit_keys(conf: &EngineConf) -> Option<&'static str> {
    // `tc=inf` is no clock: `tc=inf nodes=N` is a node limit.
    let clock = conf.tc.as_deref().filter(|tc| *tc != "inf" && *tc != "infinite");
    [("tc", clock), ("st", conf.st.as_deref()), ("nodes", conf.nodes.as_deref()), ("depth", conf.depth.as_deref())]
        .into_iter()
        .find_map(|(key, value)| value.is_some().then_some(key))
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
        // `-variant fischerandom` without a book: the 960 start positions.
        (None, None) => return Ok(foreign.fischer_random.then(|| "frc".to_string())),
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
    // A preset is arena's own engine: it has no program to give arguments
    // or a folder to. A program or an engines.toml entry keeps its own
    // unless the command line gives others.
    if let Some(preset) = &spec.preset {
        if !conf.args.is_empty() || dir.is_some() {
            bail!(
                "cmd={cmd} is arena's preset '{preset}': it takes no args= or dir= (give a program's path to run one)"
            );
        }
    } else {
        if !conf.args.is_empty() {
            spec.args.clone_from(&conf.args);
        }
        if dir.is_some() {
            spec.dir = dir;
        }
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

#[cfg(test)]
mod tests {
    use super::super::lines::Settings as LinesSettings;
    use super::super::parse::{ENGINE_KEYS, Key, OPTIONS, Opt, read};
    use super::super::state::Saving;
    use super::*;

    /// Everything a command line makes arena do: the run (settings, this
    /// machine's flags, the spec), how lines are printed, the state file.
    fn meaning(dialect: Dialect, words: &[&str]) -> String {
        let words: Vec<String> = words.iter().map(ToString::to_string).collect();
        let foreign = read(dialect, &words).unwrap_or_else(|e| panic!("{words:?}: {e}"));
        let run = translate(dialect, &foreign).unwrap_or_else(|e| panic!("{words:?}: {e}"));
        let lines = LinesSettings::of(&foreign, None);
        let saving = Saving::of(dialect, &foreign, &words).map(|s| s.path().to_path_buf());
        format!(
            "{:?} {:?} {:?} {:?} {} {} {} {} {} {saving:?} version {} help {}",
            run.play,
            run.records,
            run.spec,
            lines.style,
            lines.penta,
            lines.rating_interval,
            lines.score_interval,
            lines.crc32,
            foreign.config.stats,
            foreign.version,
            foreign.help
        )
    }

    /// What each option is played with, against the same command line
    /// without it (or with another value): the words without, and with.
    fn example(option: Opt) -> (&'static [&'static str], &'static [&'static str]) {
        match option {
            Opt::Engine => (&[], &["-engine", "cmd=vnm", "name=c"]),
            Opt::Each => (&[], &["-each", "option.Hash=16"]),
            Opt::Openings => (&[], &["-openings", "file=noob_2moves"]),
            Opt::Sprt => (&[], &["-sprt", "elo0=0", "elo1=5"]),
            Opt::Pgnout => (&[], &["-pgnout", "file=games.pgn"]),
            Opt::Epdout => (&[], &["-epdout", "file=end.epd"]),
            Opt::Draw => (&[], &["-draw", "movenumber=30", "movecount=8", "score=10"]),
            Opt::Resign => (&[], &["-resign", "movecount=3", "score=600"]),
            Opt::Rounds => (&[], &["-rounds", "6"]),
            Opt::Games => (&["-rounds", "4"], &["-rounds", "4", "-games", "2"]),
            Opt::Repeat => (&["-rounds", "4"], &["-rounds", "4", "-repeat"]),
            Opt::Concurrency => (&[], &["-concurrency", "3"]),
            Opt::UseAffinity => (&[], &["-use-affinity", "0"]),
            Opt::Maxmoves => (&[], &["-maxmoves", "60"]),
            Opt::Tb => (&[], &["-tb", "builtin"]),
            Opt::TbPieces => (&["-tb", "builtin"], &["-tb", "builtin", "-tbpieces", "3"]),
            Opt::TbAdjudicate => (&["-tb", "builtin"], &["-tb", "builtin", "-tbadjudicate", "DRAW"]),
            Opt::TbIgnore50 => (&["-tb", "builtin"], &["-tb", "builtin", "-tbignore50"]),
            Opt::Srand => (
                &["-openings", "file=noob_2moves", "order=random", "-srand", "1"],
                &["-openings", "file=noob_2moves", "order=random", "-srand", "2"],
            ),
            Opt::Tournament => {
                (&["-engine", "cmd=vnm", "name=c"], &["-engine", "cmd=vnm", "name=c", "-tournament", "gauntlet"])
            }
            Opt::Variant => (&[], &["-variant", "fischerandom"]),
            Opt::Event => (&[], &["-event", "Nightly"]),
            Opt::Site => (&[], &["-site", "lab"]),
            Opt::RatingInterval => (&[], &["-ratinginterval", "3"]),
            Opt::ScoreInterval => (&[], &["-scoreinterval", "3"]),
            Opt::AutosaveInterval => (&[], &["-autosaveinterval", "0"]),
            Opt::Config => (&[], &["-config", "outname=state.json", "stats=false"]),
            Opt::Report => (&[], &["-report", "penta=false"]),
            Opt::Output => (&[], &["-output", "format=cutechess"]),
            Opt::Crc32 => (&[], &["-crc32", "pgn=true"]),
            Opt::Db => (&[], &["-db", "other.db"]),
            Opt::Version => (&[], &["-version"]),
            Opt::Help => (&[], &["-help"]),
            Opt::Always => (&[], &[]),
        }
    }

    const BASE: [&str; 8] = ["-engine", "cmd=fhr", "name=a", "-engine", "cmd=plain", "name=b", "-each", "tc=1+0.01"];

    #[test]
    fn every_option_read_changes_what_arena_does_and_the_always_options_are_what_it_does_anyway() {
        for &(name, option, _) in OPTIONS {
            let (without, with) = example(option);
            let words = |extra: &[&'static str]| -> Vec<&'static str> {
                let mut words = BASE.to_vec();
                words.extend(["-rounds", "2", "-repeat"].iter().filter(|_| !extra.contains(&"-rounds")));
                words.extend(extra);
                words
            };
            let (before, after) = (meaning(Dialect::Fastchess, &words(without)), words(with));
            if option == Opt::Always {
                let mut switched = words(without);
                let flag = format!("-{name}");
                switched.push(Box::leak(flag.into_boxed_str()));
                assert_eq!(meaning(Dialect::Fastchess, &switched), before, "-{name} is what arena does anyway");
                continue;
            }
            assert_ne!(meaning(Dialect::Fastchess, &after), before, "-{name} is parsed but changes nothing: {after:?}");
        }
    }

    /// What each engine key is played with, after the two engines and
    /// `-rounds 2 -repeat`: the words without it (or with another value),
    /// and with it. `None`: what arena does anyway, asserted to change nothing.
    fn key_example(key: Key) -> Option<(&'static [&'static str], &'static [&'static str])> {
        const SH: [&str; 5] = ["-each", "tc=1+0.01", "-engine", "cmd=/bin/sh", "name=c"];
        Some(match key {
            Key::Name => (
                &["-each", "tc=1+0.01", "-engine", "cmd=vnm", "name=c"],
                &["-each", "tc=1+0.01", "-engine", "cmd=vnm", "name=d"],
            ),
            Key::Cmd => (
                &["-each", "tc=1+0.01", "-engine", "cmd=vnm", "name=c"],
                &["-each", "tc=1+0.01", "-engine", "cmd=nmp2", "name=c"],
            ),
            Key::Dir => (&SH, &["-each", "tc=1+0.01", "-engine", "cmd=/bin/sh", "name=c", "dir=/tmp"]),
            Key::Arg => (&SH, &["-each", "tc=1+0.01", "-engine", "cmd=/bin/sh", "name=c", "arg=-e"]),
            Key::Args => (&SH, &["-each", "tc=1+0.01", "-engine", "cmd=/bin/sh", "name=c", "args=-e -x"]),
            Key::Tc => (&["-each", "tc=1+0.01"], &["-each", "tc=2+0.02"]),
            Key::St => (&["-each", "tc=1+0.01"], &["-each", "st=0.1"]),
            Key::Nodes => (&["-each", "tc=1+0.01"], &["-each", "tc=inf", "nodes=500"]),
            Key::Depth => (&["-each", "tc=1+0.01"], &["-each", "depth=4"]),
            Key::Timemargin => (&["-each", "tc=1+0.01"], &["-each", "tc=1+0.01", "timemargin=50"]),
            Key::Book => (&["-each", "tc=1+0.01"], &["-each", "tc=1+0.01", "book=noob_2moves"]),
            Key::Bookdepth => (
                &["-each", "tc=1+0.01", "book=noob_2moves"],
                &["-each", "tc=1+0.01", "book=noob_2moves", "bookdepth=2"],
            ),
            Key::Ponder => (&["-each", "tc=1+0.01", "ponder=false"], &["-each", "tc=1+0.01", "ponder=true"]),
            Key::Proto | Key::Restart => return None,
        })
    }

    #[test]
    fn every_engine_key_read_changes_the_run_and_the_others_are_what_arena_does_anyway() {
        let words = |extra: &[&'static str]| {
            let mut words = BASE[..6].to_vec();
            words.extend(["-rounds", "2", "-repeat"]);
            words.extend(extra);
            words
        };
        for &(name, key) in ENGINE_KEYS {
            let Some((without, with)) = key_example(key) else {
                let plain = words(&["-each", "tc=1+0.01"]);
                let value = if key == Key::Proto { "uci" } else { "off" };
                let given = format!("{name}={value}");
                let mut keyed = plain.clone();
                keyed.push(Box::leak(given.into_boxed_str()));
                assert_eq!(meaning(Dialect::Fastchess, &keyed), meaning(Dialect::Fastchess, &plain), "{name}");
                continue;
            };
            // A row's example uses its own key (aliases: the row's name).
            let with: Vec<String> = with
                .iter()
                .map(|w| w.strip_prefix("depth=").map_or_else(|| (*w).to_string(), |v| format!("{name}={v}")))
                .collect();
            let with: Vec<&'static str> = with.into_iter().map(|w| &*Box::leak(w.into_boxed_str())).collect();
            assert!(with.iter().any(|w| w.starts_with(&format!("{name}="))), "{name}: {with:?}");
            let (before, after) =
                (meaning(Dialect::Fastchess, &words(without)), meaning(Dialect::Fastchess, &words(&with)));
            assert_ne!(before, after, "-engine {name}= is parsed but changes nothing");
        }
    }

    #[test]
    fn a_bare_ponder_an_option_and_every_pgn_key_read_change_the_run() {
        for (without, with) in [
            (&["-each", "tc=1+0.01"][..], &["-each", "tc=1+0.01", "ponder"][..]),
            (&["-each", "tc=1+0.01"], &["-each", "tc=1+0.01", "option.Threads=1"]),
            (
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn"],
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn", "min=true"],
            ),
            (
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn"],
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn", "nodes=true"],
            ),
            (
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn"],
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn", "seldepth=true"],
            ),
            (
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn"],
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn", "nps=true"],
            ),
            (
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn"],
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn", "timeleft=true"],
            ),
            (
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn"],
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn", "pv=true"],
            ),
            (
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn"],
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn", "append=false"],
            ),
            (
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn"],
                &["-each", "tc=1+0.01", "-pgnout", "file=g.pgn", "match_line=^info"],
            ),
        ] {
            let words = |extra: &[&'static str]| {
                let mut words = BASE[..6].to_vec();
                words.extend(["-rounds", "2", "-repeat"]);
                words.extend(extra);
                words
            };
            let (before, after) =
                (meaning(Dialect::Fastchess, &words(without)), meaning(Dialect::Fastchess, &words(with)));
            assert_ne!(before, after, "{with:?} is parsed but changes nothing");
        }
    }

    #[test]
    fn what_the_tools_play_and_arena_cannot_is_refused_in_one_line() {
        for (dialect, words, needle) in [
            (
                Dialect::Cutechess,
                &["-games", "2", "-rounds", "2"][..],
                "without -repeat gives each game its own opening",
            ),
            (Dialect::Fastchess, &["-engine", "cmd=vnm", "name=c", "nodes=100"][..], "gives nodes= and -each tc="),
            (
                Dialect::Fastchess,
                &["-engine", "cmd=vnm", "name=c", "arg=-x"][..],
                "is arena's preset 'vnm': it takes no args=",
            ),
        ] {
            let mut all: Vec<String> = BASE.iter().map(ToString::to_string).collect();
            all.extend(["-rounds", "2"].map(String::from));
            if dialect == Dialect::Fastchess {
                all.push("-repeat".into());
            }
            all.extend(words.iter().map(ToString::to_string));
            let foreign = read(dialect, &all).unwrap();
            let error = translate(dialect, &foreign).err().map(|e| e.to_string()).unwrap_or_default();
            assert!(error.contains(needle) && !error.contains('\n'), "{words:?}: {error}");
        }
    }
}
