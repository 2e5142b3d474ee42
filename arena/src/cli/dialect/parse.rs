//! The command lines of fastchess and cutechess-cli, read into [`Foreign`]:
//! an option is a word of `-` and a letter (`-engine`, `-each`, `--version`);
//! the words after it, up to the next option, are its values, most of them
//! `key=value` (`-each tc=8+0.08 option.Hash=16`). Every option and key of
//! theirs is either read here or refused in one line that names it and
//! what arena offers instead; nothing is dropped unsaid.

use crate::cli::settings::TbWhich;
use anyhow::{anyhow, bail};

use super::Dialect;
use crate::cli::shared::CliResult;

/// One option and its values.
pub(super) struct Group {
    /// Without its dashes: `engine`, `each`, `version`.
    pub(super) flag: String,
    pub(super) values: Vec<String>,
}

/// The words of a command line as options with their values.
pub(super) fn groups(args: &[String]) -> CliResult<Vec<Group>> {
    let mut groups: Vec<Group> = Vec::new();
    for word in args {
        let flag =
            word.strip_prefix('-').filter(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '-'));
        match (flag, groups.last_mut()) {
            (Some(flag), _) => {
                groups.push(Group { flag: flag.trim_start_matches('-').to_string(), values: Vec::new() })
            }
            (None, Some(group)) => group.values.push(word.clone()),
            (None, None) => {
                bail!("'{word}' comes before any option: options start with '-', e.g. -engine cmd=./dev name=dev")
            }
        }
    }
    Ok(groups)
}

/// What one engine is given (`-engine`), or every engine (`-each`).
#[derive(Clone, Debug, Default)]
pub(super) struct EngineConf {
    pub(super) name: Option<String>,
    pub(super) cmd: Option<String>,
    pub(super) dir: Option<String>,
    pub(super) args: Vec<String>,
    pub(super) tc: Option<String>,
    pub(super) st: Option<String>,
    pub(super) nodes: Option<String>,
    pub(super) depth: Option<String>,
    pub(super) timemargin: Option<String>,
    pub(super) options: Vec<(String, String)>,
    pub(super) book: Option<String>,
    pub(super) bookdepth: Option<String>,
    pub(super) ponder: bool,
}

impl EngineConf {
    /// Reads one value of `-engine` or `-each` (`flag`).
    fn set(&mut self, flag: &str, value: &str) -> CliResult {
        if value == "ponder" {
            self.ponder = true;
            return Ok(());
        }
        let (key, text) = value
            .split_once('=')
            .ok_or_else(|| anyhow!("-{flag} {value}: give key=value, e.g. cmd=./engine, tc=8+0.08, option.Hash=16"))?;
        let text = text.to_string();
        if let Some(option) = key.strip_prefix("option.") {
            self.options.retain(|(name, _)| name != option);
            self.options.push((option.to_string(), text));
            return Ok(());
        }
        let Some(&(_, which)) = ENGINE_KEYS.iter().find(|(name, _)| *name == key) else {
            let known: Vec<&str> = ENGINE_KEYS.iter().map(|(name, _)| *name).collect();
            bail!("-{flag} {key}=: not an engine key arena knows ({} option.NAME)", known.join(" "))
        };
        let slot = match which {
            Key::Name => &mut self.name,
            Key::Cmd => &mut self.cmd,
            Key::Dir => &mut self.dir,
            Key::Tc => &mut self.tc,
            Key::St => &mut self.st,
            Key::Nodes => &mut self.nodes,
            Key::Depth => &mut self.depth,
            Key::Timemargin => &mut self.timemargin,
            Key::Book => &mut self.book,
            Key::Bookdepth => &mut self.bookdepth,
            Key::Arg => {
                self.args.push(text);
                return Ok(());
            }
            Key::Args => {
                self.args.extend(text.split_whitespace().map(str::to_string));
                return Ok(());
            }
            Key::Proto if text == "uci" => return Ok(()),
            Key::Proto => bail!("-{flag} proto={text}: arena speaks UCI only"),
            Key::Restart if text == "off" || text == "auto" => return Ok(()),
            Key::Restart => {
                bail!("-{flag} restart={text}: arena keeps each engine process for its slot's games; leave restart out")
            }
            Key::Ponder => {
                self.ponder = match text.as_str() {
                    "true" => true,
                    "false" => false,
                    _ => bail!("-{flag} ponder={text}: give ponder, ponder=true or ponder=false"),
                };
                return Ok(());
            }
        };
        *slot = Some(text);
        Ok(())
    }

    /// This engine's keys, with `-each`'s where it has none of its own.
    pub(super) fn with_each(&self, each: &EngineConf) -> EngineConf {
        let pick = |own: &Option<String>, all: &Option<String>| own.clone().or_else(|| all.clone());
        let limit_given = self.tc.is_some() || self.st.is_some() || self.nodes.is_some() || self.depth.is_some();
        let limit = |own: &Option<String>, all: &Option<String>| if limit_given { own.clone() } else { all.clone() };
        let mut options = each.options.clone();
        for (name, value) in &self.options {
            options.retain(|(n, _)| n != name);
            options.push((name.clone(), value.clone()));
        }
        EngineConf {
            name: pick(&self.name, &each.name),
            cmd: pick(&self.cmd, &each.cmd),
            dir: pick(&self.dir, &each.dir),
            args: if self.args.is_empty() { each.args.clone() } else { self.args.clone() },
            tc: limit(&self.tc, &each.tc),
            st: limit(&self.st, &each.st),
            nodes: limit(&self.nodes, &each.nodes),
            depth: limit(&self.depth, &each.depth),
            timemargin: pick(&self.timemargin, &each.timemargin),
            options,
            book: pick(&self.book, &each.book),
            bookdepth: pick(&self.bookdepth, &each.bookdepth),
            ponder: self.ponder || each.ponder,
        }
    }
}

/// Every key of `-engine` and `-each` arena reads, besides `option.NAME`
/// and a bare `ponder`: one row each (aliases their own rows), typed.
/// [`EngineConf::set`] matches on [`Key`] exhaustively, and a unit test
/// plays each row and fails when a key changes nothing.
pub(super) const ENGINE_KEYS: &[(&str, Key)] = &[
    ("cmd", Key::Cmd),
    ("name", Key::Name),
    ("dir", Key::Dir),
    ("arg", Key::Arg),
    ("args", Key::Args),
    ("proto", Key::Proto),
    ("tc", Key::Tc),
    ("st", Key::St),
    ("nodes", Key::Nodes),
    ("depth", Key::Depth),
    ("plies", Key::Depth),
    ("timemargin", Key::Timemargin),
    ("restart", Key::Restart),
    ("book", Key::Book),
    ("bookdepth", Key::Bookdepth),
    ("ponder", Key::Ponder),
];

/// A key of [`ENGINE_KEYS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Key {
    Name,
    Cmd,
    Dir,
    Arg,
    Args,
    /// `uci` only; anything else is refused.
    Proto,
    Tc,
    St,
    Nodes,
    Depth,
    Timemargin,
    /// `off` or `auto`: arena keeps each process for its slot's games.
    Restart,
    Book,
    Bookdepth,
    Ponder,
}

/// `-openings`.
#[derive(Clone, Debug, Default)]
pub(super) struct Openings {
    pub(super) file: Option<String>,
    pub(super) format: Option<String>,
    pub(super) random: bool,
    pub(super) plies: Option<usize>,
    /// 1-based, as theirs.
    pub(super) start: Option<usize>,
}

/// `-sprt`.
#[derive(Clone, Debug, Default)]
pub(super) struct SprtKeys {
    pub(super) elo0: Option<f64>,
    pub(super) elo1: Option<f64>,
    pub(super) alpha: Option<f64>,
    pub(super) beta: Option<f64>,
    pub(super) model: Option<String>,
}

/// `-pgnout`.
#[derive(Clone, Debug)]
pub(super) struct PgnOut {
    pub(super) file: String,
    /// `min`: moves only.
    pub(super) min: bool,
    /// The fields asked for one by one (`nodes=true seldepth=true …`).
    pub(super) fields: reports::pgn::Fields,
    /// `match_line=REGEX`, each.
    pub(super) match_lines: Vec<String>,
    /// `append=` (default true): add to the file, not replace it.
    pub(super) append: bool,
}

/// `-config file= discard= outname= stats=` (fastchess): the state file
/// read to continue a run, and the one written for that.
#[derive(Clone, Debug)]
pub(super) struct Config {
    /// `file=`: continue the run this state file names.
    pub(super) file: Option<String>,
    /// `discard=true`: play the command line given instead of `file`'s.
    pub(super) discard: bool,
    /// `outname=`: the state file written (fastchess's `config.json`).
    pub(super) outname: String,
    /// `stats=false`: count only the games played from now on.
    pub(super) stats: bool,
}

/// How the results are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Style {
    /// fastchess's blocks (`Results of …`, `Games: …`, `Ptnml(0-2): …`).
    Fastchess,
    /// cutechess-cli's lines (`Score of …`, `Elo difference: …`, `SPRT: llr …`).
    Cutechess,
}

/// A command line of fastchess or cutechess-cli, read.
#[derive(Clone, Debug)]
pub(super) struct Foreign {
    pub(super) engines: Vec<EngineConf>,
    pub(super) each: EngineConf,
    pub(super) openings: Openings,
    pub(super) rounds: u64,
    pub(super) games: u64,
    pub(super) repeat: bool,
    pub(super) sprt: Option<SprtKeys>,
    pub(super) concurrency: Option<usize>,
    /// `-use-affinity` with its CPUs (empty: all).
    pub(super) affinity: Option<String>,
    pub(super) draw: Option<String>,
    pub(super) resign: Option<String>,
    pub(super) maxmoves: Option<u32>,
    pub(super) tb: Option<String>,
    pub(super) tb_pieces: Option<u32>,
    pub(super) tb_adjudicate: Option<TbWhich>,
    pub(super) tb_ignore_50: bool,
    pub(super) srand: Option<u64>,
    pub(super) gauntlet: bool,
    pub(super) fischer_random: bool,
    pub(super) pgnout: Option<PgnOut>,
    pub(super) epdout: Option<String>,
    pub(super) event: Option<String>,
    pub(super) site: Option<String>,
    /// Results every N games (pairs with pentanomial reporting); 0: only at the end.
    pub(super) rating_interval: u64,
    pub(super) score_interval: u64,
    pub(super) penta: bool,
    pub(super) style: Style,
    pub(super) crc32: bool,
    pub(super) db: Option<String>,
    pub(super) config: Config,
    /// `-autosaveinterval`: 0 writes no state file (fastchess's default 20; cutechess-cli writes none).
    pub(super) autosave: u64,
    pub(super) version: bool,
    /// `--compliance ENGINE [ARGS]`: the engine checked, not played.
    pub(super) compliance: Option<Vec<String>>,
    pub(super) help: bool,
}

impl Foreign {
    /// The tool's own defaults.
    fn new(dialect: Dialect) -> Foreign {
        let fastchess = dialect == Dialect::Fastchess;
        Foreign {
            engines: Vec::new(),
            each: EngineConf::default(),
            openings: Openings::default(),
            rounds: 1,
            games: 1,
            repeat: false,
            sprt: None,
            concurrency: None,
            affinity: None,
            draw: None,
            resign: None,
            maxmoves: None,
            tb: None,
            tb_pieces: None,
            tb_adjudicate: None,
            tb_ignore_50: false,
            srand: None,
            gauntlet: false,
            fischer_random: false,
            pgnout: None,
            epdout: None,
            event: None,
            site: None,
            rating_interval: if fastchess { 10 } else { 0 },
            score_interval: 1,
            penta: fastchess,
            style: if fastchess { Style::Fastchess } else { Style::Cutechess },
            crc32: false,
            db: None,
            config: Config { file: None, discard: false, outname: "config.json".into(), stats: true },
            autosave: if fastchess { 20 } else { 0 },
            version: false,
            compliance: None,
            help: false,
        }
    }
}

/// Reads a command line of `dialect`.
///
/// # Errors
///
/// The first option or value arena cannot honour, in one line.
pub(super) fn read(dialect: Dialect, args: &[String]) -> CliResult<Foreign> {
    let mut foreign = Foreign::new(dialect);
    // fastchess reads every word after `--compliance` as the engine's.
    if let Some(at) = args.iter().position(|w| w == "--compliance" || w == "-compliance") {
        let engine = &args[at + 1..];
        if engine.is_empty() {
            bail!("--compliance needs an engine: --compliance ./engine [ARGS]");
        }
        foreign.compliance = Some(engine.to_vec());
        return Ok(foreign);
    }
    for group in groups(args)? {
        read_group(&mut foreign, &group)?;
    }
    Ok(foreign)
}

/// The one value of an option that takes one.
fn single(group: &Group) -> CliResult<&str> {
    match group.values.as_slice() {
        [value] => Ok(value),
        [] => bail!("-{} needs a value", group.flag),
        [_, extra, ..] => bail!("-{} takes one value; '{extra}' is one too many", group.flag),
    }
}

/// A number of an option or key.
fn number<T: std::str::FromStr>(what: &str, text: &str) -> CliResult<T> {
    text.trim().parse().map_err(|_| anyhow!("{what} {text}: not a number of the kind it takes"))
}

/// No value, as a switch.
fn switch(group: &Group) -> CliResult<bool> {
    match group.values.first() {
        None => Ok(true),
        Some(extra) => bail!("-{} takes no value; '{extra}' is one too many", group.flag),
    }
}

/// `key=value` values of a group.
fn pairs(group: &Group) -> CliResult<Vec<(&str, &str)>> {
    group
        .values
        .iter()
        .map(|value| value.split_once('=').ok_or_else(|| anyhow!("-{} {value}: give key=value", group.flag)))
        .collect()
}

/// Every option arena reads of either tool: one row each (aliases their
/// own rows), typed. [`read_group`] matches on [`Opt`] exhaustively, so
/// an option added here does not compile until it is read, and a unit test
/// plays each row against a command line without it and fails when the
/// option changes nothing (parsed but never read).
pub(super) const OPTIONS: &[(&str, Opt, &str)] = &[
    ("engine", Opt::Engine, "KEY=VALUE…"),
    ("each", Opt::Each, "KEY=VALUE…"),
    ("openings", Opt::Openings, "file= format=epd|pgn order=sequential|random plies= start= policy=round"),
    ("sprt", Opt::Sprt, "elo0= elo1= alpha= beta= model=normalized|logistic|bayesian"),
    (
        "pgnout",
        Opt::Pgnout,
        "FILE [min] | file= min= nodes= seldepth= nps= timeleft= pv= notation=san append= match_line=",
    ),
    ("epdout", Opt::Epdout, "FILE"),
    ("draw", Opt::Draw, "movenumber= movecount= score="),
    ("resign", Opt::Resign, "movecount= score= twosided="),
    ("rounds", Opt::Rounds, "N"),
    ("games", Opt::Games, "N"),
    ("repeat", Opt::Repeat, ""),
    ("concurrency", Opt::Concurrency, "N"),
    ("use-affinity", Opt::UseAffinity, "[CPUS]"),
    ("maxmoves", Opt::Maxmoves, "N"),
    ("tb", Opt::Tb, "FOLDERS"),
    ("tbpieces", Opt::TbPieces, "N"),
    ("tbadjudicate", Opt::TbAdjudicate, "WIN_LOSS|DRAW|BOTH"),
    ("tbignore50", Opt::TbIgnore50, ""),
    ("srand", Opt::Srand, "N"),
    ("tournament", Opt::Tournament, "round-robin|gauntlet"),
    ("variant", Opt::Variant, "standard|fischerandom"),
    ("event", Opt::Event, "TEXT"),
    ("site", Opt::Site, "TEXT"),
    ("ratinginterval", Opt::RatingInterval, "N"),
    ("scoreinterval", Opt::ScoreInterval, "N"),
    ("autosaveinterval", Opt::AutosaveInterval, "N"),
    ("config", Opt::Config, "file= outname= discard= stats="),
    ("report", Opt::Report, "penta="),
    ("output", Opt::Output, "format=fastchess|cutechess"),
    ("crc32", Opt::Crc32, "pgn=true"),
    ("db", Opt::Db, "FILE|postgres://…"),
    ("version", Opt::Version, ""),
    ("v", Opt::Version, ""),
    ("help", Opt::Help, ""),
    ("h", Opt::Help, ""),
    ("recover", Opt::Always, ""),
    ("check-mate-pvs", Opt::Always, ""),
    ("testEnv", Opt::Always, ""),
];

/// An option of [`OPTIONS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Opt {
    Engine,
    Each,
    Openings,
    Sprt,
    Pgnout,
    Epdout,
    Draw,
    Resign,
    Rounds,
    Games,
    Repeat,
    Concurrency,
    UseAffinity,
    Maxmoves,
    Tb,
    TbPieces,
    TbAdjudicate,
    TbIgnore50,
    Srand,
    Tournament,
    Variant,
    Event,
    Site,
    RatingInterval,
    ScoreInterval,
    AutosaveInterval,
    Config,
    Report,
    Output,
    Crc32,
    Db,
    Version,
    Help,
    /// What arena always does, a switch: engines that crash lose their game
    /// and are started again (`-recover`); mate PVs are checked
    /// (`-check-mate-pvs`); nothing differs under test (`-testEnv`).
    Always,
}

/// Reads one option.
fn read_group(foreign: &mut Foreign, group: &Group) -> CliResult {
    let flag = group.flag.as_str();
    let Some(&(_, option, _)) = OPTIONS.iter().find(|(name, _, _)| *name == flag) else {
        return refuse(flag);
    };
    match option {
        Opt::Engine => {
            let mut engine = EngineConf::default();
            for value in &group.values {
                engine.set(flag, value)?;
            }
            foreign.engines.push(engine);
        }
        Opt::Each => {
            for value in &group.values {
                foreign.each.set(flag, value)?;
            }
        }
        Opt::Openings => read_openings(foreign, group)?,
        Opt::Sprt => read_sprt(foreign, group)?,
        Opt::Pgnout => foreign.pgnout = Some(read_pgnout(group)?),
        Opt::Epdout => {
            let value = single(group)?;
            foreign.epdout = Some(value.strip_prefix("file=").unwrap_or(value).to_string());
        }
        Opt::Draw | Opt::Resign => read_rule(foreign, group)?,
        Opt::Rounds => foreign.rounds = number("-rounds", single(group)?)?,
        Opt::Games => foreign.games = number("-games", single(group)?)?,
        Opt::Repeat => match group.values.as_slice() {
            [] => foreign.repeat = true,
            [n] if n == "2" => foreign.repeat = true,
            [n, ..] => {
                bail!("-repeat {n}: arena plays each opening twice, colours swapped: give -repeat (or -repeat 2)")
            }
        },
        Opt::Concurrency => foreign.concurrency = Some(number("-concurrency", single(group)?)?),
        Opt::UseAffinity => foreign.affinity = Some(group.values.join(",")),
        Opt::Maxmoves => foreign.maxmoves = Some(number("-maxmoves", single(group)?)?),
        Opt::Tb => foreign.tb = Some(single(group)?.to_string()),
        Opt::TbPieces => foreign.tb_pieces = Some(number("-tbpieces", single(group)?)?),
        Opt::TbAdjudicate => {
            foreign.tb_adjudicate = Some(match single(group)?.to_ascii_uppercase().as_str() {
                "WIN_LOSS" => TbWhich::Win,
                "DRAW" => TbWhich::Draw,
                "BOTH" => TbWhich::Both,
                other => bail!("-tbadjudicate {other}: give WIN_LOSS, DRAW or BOTH"),
            });
        }
        Opt::TbIgnore50 => foreign.tb_ignore_50 = switch(group)?,
        Opt::Srand => foreign.srand = Some(number("-srand", single(group)?)?),
        Opt::Tournament => {
            foreign.gauntlet = match single(group)? {
                "gauntlet" => true,
                "round-robin" | "roundrobin" => false,
                other => bail!("-tournament {other}: arena plays round-robin or gauntlet"),
            };
        }
        Opt::Variant => {
            foreign.fischer_random = match single(group)? {
                "standard" => false,
                "fischerandom" => true,
                other => bail!("-variant {other}: arena plays standard or fischerandom"),
            };
        }
        Opt::Event => foreign.event = Some(group.values.join(" ")),
        Opt::Site => foreign.site = Some(group.values.join(" ")),
        Opt::RatingInterval => foreign.rating_interval = number("-ratinginterval", single(group)?)?,
        Opt::ScoreInterval => foreign.score_interval = number("-scoreinterval", single(group)?)?,
        // arena stores every finished pair as it ends, so the state file
        // (which names the run; the database holds the rest) is current
        // after every game whatever N is; 0 writes none.
        Opt::AutosaveInterval => foreign.autosave = number("-autosaveinterval", single(group)?)?,
        Opt::Config => read_config(foreign, group)?,
        Opt::Report => read_report(foreign, group)?,
        Opt::Output => read_output(foreign, group)?,
        Opt::Crc32 => foreign.crc32 = read_crc32(group)?,
        Opt::Db => foreign.db = Some(single(group)?.to_string()),
        Opt::Version => foreign.version = true,
        Opt::Help => foreign.help = true,
        Opt::Always => {
            switch(group)?;
        }
    }
    Ok(())
}

/// The options arena cannot honour, each with what it offers instead.
fn refuse(flag: &str) -> CliResult {
    let instead = match flag {
        "noswap" | "reverse" => "arena plays each opening twice with colours swapped; leave it out",
        "wait" => "arena starts the next game at once; leave it out",
        "seeds" | "bergerschedule" => "arena plays round-robin or gauntlet tournaments; leave it out",
        "log" => "arena keeps every game's engine I/O itself: arena log RUN GAME",
        "debug" | "show-latency" | "quick" | "strict" | "force-concurrency" => "not offered by arena; leave it out",
        "startup-ms" | "ucinewgame-ms" | "ping-ms" => "arena waits for engines by its own timeouts; leave it out",
        "resultformat" | "outcomeinterval" | "livepgnout" | "pgnin" | "bookmode" => {
            "not offered by arena; leave it out"
        }
        _ => return Err(anyhow!("-{flag} is not an option arena knows (arena fastchess -help lists those it reads)")),
    };
    Err(anyhow!("-{flag}: {instead}"))
}

/// `-config file=F discard=B outname=F stats=B`.
fn read_config(foreign: &mut Foreign, group: &Group) -> CliResult {
    let truth = |key: &str, value: &str| match value {
        "true" => Ok(true),
        "false" => Ok(false),
        other => Err(anyhow!("-config {key}={other}: give true or false")),
    };
    for (key, value) in pairs(group)? {
        match key {
            "file" => foreign.config.file = Some(value.to_string()),
            "discard" => foreign.config.discard = truth(key, value)?,
            "outname" => foreign.config.outname = value.to_string(),
            "stats" => foreign.config.stats = truth(key, value)?,
            other => bail!("-config {other}=: not a key arena knows (file discard outname stats)"),
        }
    }
    Ok(())
}

fn read_openings(foreign: &mut Foreign, group: &Group) -> CliResult {
    let openings = &mut foreign.openings;
    for (key, value) in pairs(group)? {
        match key {
            "file" => openings.file = Some(value.to_string()),
            "format" => openings.format = Some(value.to_string()),
            "order" => {
                openings.random = match value {
                    "random" => true,
                    "sequential" => false,
                    _ => bail!("-openings order={value}: give random or sequential"),
                };
            }
            "plies" => openings.plies = Some(number("-openings plies=", value)?),
            "start" => openings.start = Some(number("-openings start=", value)?),
            "policy" if value == "round" || value == "default" => {}
            "policy" => {
                bail!("-openings policy={value}: arena gives each pair of games its own opening (policy=round)")
            }
            _ => bail!("-openings {key}=: not a key arena knows (file format order plies start policy)"),
        }
    }
    Ok(())
}

fn read_sprt(foreign: &mut Foreign, group: &Group) -> CliResult {
    let mut sprt = SprtKeys::default();
    for (key, value) in pairs(group)? {
        let what = format!("-sprt {key}=");
        match key {
            "elo0" => sprt.elo0 = Some(number(&what, value)?),
            "elo1" => sprt.elo1 = Some(number(&what, value)?),
            "alpha" => sprt.alpha = Some(number(&what, value)?),
            "beta" => sprt.beta = Some(number(&what, value)?),
            "model" => sprt.model = Some(value.to_string()),
            _ => bail!("-sprt {key}=: not a key arena knows (elo0 elo1 alpha beta model)"),
        }
    }
    foreign.sprt = Some(sprt);
    Ok(())
}

/// `-pgnout FILE [min] [fi]` (cutechess) or `-pgnout file=FILE key=value…` (fastchess).
fn read_pgnout(group: &Group) -> CliResult<PgnOut> {
    let mut file = None;
    let mut min = false;
    let mut fields = reports::pgn::Fields::default();
    let mut match_lines = Vec::new();
    // fastchess appends unless append=false; cutechess-cli always appends.
    let mut append = true;
    for value in &group.values {
        match value.split_once('=') {
            None if value == "min" => min = true,
            None if value == "fi" => {}
            None if file.is_none() => file = Some(value.clone()),
            None => bail!("-pgnout {value}: give the file once (FILE, or file=FILE)"),
            Some(("file", path)) => file = Some(path.to_string()),
            Some((key @ ("min" | "nodes" | "seldepth" | "nps" | "timeleft" | "pv"), on)) => {
                let on = match on {
                    "true" => true,
                    "false" => false,
                    other => bail!("-pgnout {key}={other}: give {key}=true or {key}=false"),
                };
                match key {
                    "min" => min = on,
                    "nodes" => fields.nodes = on,
                    "seldepth" => fields.seldepth = on,
                    "nps" => fields.nps = on,
                    "timeleft" => fields.timeleft = on,
                    _ => fields.pv = on,
                }
            }
            Some(("notation", "san")) => {}
            Some(("notation", other)) => bail!("-pgnout notation={other}: arena writes SAN; give notation=san"),
            Some(("append", on @ ("true" | "false"))) => append = on == "true",
            Some(("append", other)) => bail!("-pgnout append={other}: give append=true or append=false"),
            Some(("match_line", pattern)) => {
                if regex::Regex::new(pattern).is_err() {
                    bail!(
                        "-pgnout match_line={pattern}: not a regular expression arena reads (Rust's regex syntax: no look-around or back-references)"
                    );
                }
                match_lines.push(pattern.to_string());
            }
            Some((key, _)) => {
                bail!(
                    "-pgnout {key}=: not a key arena knows (file min nodes seldepth nps timeleft pv notation append match_line)"
                )
            }
        }
    }
    let file = file.ok_or_else(|| anyhow!("-pgnout needs a file: -pgnout file=games.pgn"))?;
    Ok(PgnOut { file, min, fields, match_lines, append })
}

/// `-draw movenumber=N movecount=N score=CP`, `-resign movecount=N score=CP [twosided=B]`,
/// as arena's `--draw` and `--resign` read them. The tools' resign rule is
/// one-sided unless told.
fn read_rule(foreign: &mut Foreign, group: &Group) -> CliResult {
    let keys = pairs(group)?;
    let mut text: Vec<String> = keys.iter().map(|(k, v)| format!("{k}={v}")).collect();
    if group.flag == "resign" {
        if !keys.iter().any(|(k, _)| *k == "twosided") {
            text.push("twosided=false".to_string());
        }
        foreign.resign = Some(text.join(","));
    } else {
        foreign.draw = Some(text.join(","));
    }
    Ok(())
}

fn read_report(foreign: &mut Foreign, group: &Group) -> CliResult {
    for (key, value) in pairs(group)? {
        match (key, value) {
            ("penta", "true") => foreign.penta = true,
            ("penta", "false") => foreign.penta = false,
            _ => bail!("-report {key}={value}: give penta=true or penta=false"),
        }
    }
    Ok(())
}

fn read_output(foreign: &mut Foreign, group: &Group) -> CliResult {
    for (key, value) in pairs(group)? {
        foreign.style = match (key, value) {
            ("format", "fastchess") => Style::Fastchess,
            ("format", "cutechess") => Style::Cutechess,
            _ => bail!("-output {key}={value}: give format=fastchess or format=cutechess"),
        };
    }
    Ok(())
}

fn read_crc32(group: &Group) -> CliResult<bool> {
    let mut on = false;
    for (key, value) in pairs(group)? {
        match (key, value) {
            ("pgn", "true") => on = true,
            ("pgn", "false") => on = false,
            _ => bail!("-crc32 {key}={value}: give pgn=true"),
        }
    }
    Ok(on)
}
