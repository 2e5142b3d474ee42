//! What a run of games plays, whatever front end said it: [`Settings`],
//! one typed layer. The native flags fill it (clap reads each field's own
//! declaration here), a run file's `[flags]` and `arena show RUN --config`
//! read and write it with serde, and the fastchess and cutechess-cli
//! dialects build it field by field from their typed options. No front end
//! writes a command line to be parsed again, and [`Settings::spec`] is the
//! one place a run's [`GamesSpec`] is built from it.
//!
//! A flag's check is written once and used by both readers: clap's value
//! parsers and serde's `deserialize_with` call the same function
//! ([`at_least`], [`whole_pairs`]), so a run file is refused with the same
//! words as the command line. Each field's default is one constant, and a
//! test holds clap's defaults equal to [`Settings::default`]. It is the
//! command layer's: the run layer gets only the spec it builds.

use clap::Args;
use serde::{Deserialize, Serialize};

use model::adjudication::{DrawFlag, ResignFlag, RuleFlag};
use model::{GamesKind, GamesSpec, Invalid, MachineRule, TablebaseRule, TbResults, TimeControl, Variant};

use crate::engine_io::engines::EngineSpec;
use crate::engine_io::open_files::OpenFilesError;
use crate::game::adjudication::Adjudication;
use crate::game::tablebase::TablebaseError;
use crate::run::concurrency::{Concurrency, DEFAULT_CONCURRENCY, cpus_per_slot};

/// `--maxmoves-score` without the flag: the lead in centipawns that wins at
/// the move limit.
pub const MAXMOVES_SCORE: i64 = 200;

/// The time control without `--tc`.
pub const DEFAULT_TC: &str = "2+0.02";

/// Without `--openings`: the papers' 25 openings.
pub const DEFAULT_OPENINGS: &str = "feldmann25";

/// `--concurrency`'s help, for every command that plays on this machine.
pub const CONCURRENCY_HELP: &str = "Games (a suite: positions) played at once on this machine, each game with two engine processes, one thinking at a time: a number, auto (one per CPU this process may use, one per two CPUs when the engines ponder) or -N (those CPUs less N, as fastchess) [default: 2; arena resume: as when the run started].";

/// What a run of games plays besides its settings: its kind, engines and
/// pairings, how many openings of each pairing a pass plays and how many
/// passes, each named (two counts side by side are easily swapped).
#[derive(Debug)]
pub struct Games {
    /// The kind of run, with its test or parameters.
    pub kind: GamesKind,
    /// The engines, in order.
    pub engines: Vec<EngineSpec>,
    /// Who plays whom, by index into `engines`.
    pub pairings: Vec<(usize, usize)>,
    /// Openings of each pairing per pass (two games each).
    pub openings_per_round: usize,
    /// Passes over the pairings.
    pub rounds: usize,
    /// The run's headline limit where each engine keeps its own (a scaling
    /// run's first budget, a tool's per-engine limits); `None`: `--tc`.
    pub headline: Option<TimeControl>,
}

/// What is played in a run of games, every front end's settings in one
/// type. Flags that say how this machine plays (the database, records,
/// pinning, quiet) are not here: they are not part of the run.
#[derive(Args, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", default)]
pub struct Settings {
    /// Time control: 40/300, 300+3, 40/300+2, 40/7200:20/3600, st=1, nodes=N, depth=N; add ,timemargin=MS ,nodetime=N ,stall=S [default: 2+0.02; arena scale: none, its budgets are its time controls].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(help_heading = "Clock", long)]
    pub tc: Option<TimeControl>,
    /// Openings: feldmann25, forty, noob_2moves, 8mvs_+90_+99, frc (Chess960), dfrc (double Fischer random), or an EPD/FEN/PGN/SAN file [default: feldmann25; arena sprt, match and tune: noob_2moves, shuffled].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(help_heading = "Openings", long, add = clap_complete::ArgValueCompleter::new(books))]
    pub openings: Option<String>,
    /// Shuffle the openings with this seed; without it a book given with --openings plays in file order, and the default book of sprt, match and tune is shuffled with a new seed, kept in the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(help_heading = "Openings", long)]
    pub seed: Option<u64>,
    /// Index of the first opening.
    #[serde(skip_serializing_if = "is_zero")]
    #[arg(hide_short_help = true, help_heading = "Openings", long, default_value_t = 0)]
    pub start: usize,
    /// Cut openings to this many plies.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(hide_short_help = true, help_heading = "Openings", long)]
    pub plies: Option<usize>,
    /// Games at once on this machine (its help: [`CONCURRENCY_HELP`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(help_heading = "This machine", long, value_name = "N", help = CONCURRENCY_HELP, long_help = CONCURRENCY_HELP, allow_hyphen_values = true)]
    pub concurrency: Option<Concurrency>,
    /// Draw adjudication: movenumber=N,movecount=N,score=CP (each key optional), or off.
    #[serde(with = "as_text")]
    #[arg(help_heading = "Adjudication", long, default_value_t, value_name = "RULE")]
    pub draw: DrawFlag,
    /// Resign adjudication: movecount=N,score=CP,twosided=BOOL (each key optional), or off.
    #[serde(with = "as_text")]
    #[arg(help_heading = "Adjudication", long, default_value_t, value_name = "RULE")]
    pub resign: ResignFlag,
    /// End games at this full move and adjudicate (the FHR paper used 100).
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "checked::at_least_1")]
    #[arg(help_heading = "Adjudication", long, value_name = "N", value_parser = at_least::<u32, 1>)]
    pub maxmoves: Option<u32>,
    /// Lead in centipawns that wins at the move limit (both engines agreeing).
    #[arg(hide_short_help = true, help_heading = "Adjudication", long, default_value_t = MAXMOVES_SCORE)]
    pub maxmoves_score: i64,
    /// Syzygy tablebase folders (DIR or DIR:DIR…), or `builtin` for the 3–4 piece tables arena carries: a game ends as soon as its position is in the tables.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(help_heading = "Adjudication", long, value_name = "DIR[:DIR…]")]
    pub tb: Option<String>,
    /// Probe positions with at most this many pieces (default: the largest in the folders).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(hide_short_help = true, help_heading = "Adjudication", long, value_name = "N")]
    pub tb_pieces: Option<u32>,
    /// Which tablebase results end a game.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(hide_short_help = true, help_heading = "Adjudication", long, value_enum, value_name = "WHICH")]
    pub tb_adjudicate: Option<TbWhich>,
    /// Count a cursed win or blessed loss as decisive (default: a draw, as the 50-move rule makes it).
    #[serde(skip_serializing_if = "is_false")]
    #[arg(hide_short_help = true, help_heading = "Adjudication", long)]
    pub tb_ignore_50: bool,
    /// Do not check that the PV behind each mate score is legal and mates in time.
    #[serde(skip_serializing_if = "is_false")]
    #[arg(hide_short_help = true, help_heading = "Adjudication", long)]
    pub no_check_mate_pvs: bool,
    /// Let every engine that declares Ponder think on the expected reply while its opponent thinks (as cutechess's -pondering); per engine: ponder = true in engines.toml. With pinning, each game slot gets two CPUs.
    #[serde(skip_serializing_if = "is_false")]
    #[arg(hide_short_help = true, help_heading = "Engines", long)]
    pub ponder: bool,
    /// Scale clocks to each machine's speed: the reference nodes per second of the first engine's bench; a machine measured at half of it plays twice the time control (node and depth limits are not scaled).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(hide_short_help = true, help_heading = "Many machines", long, value_name = "NPS")]
    pub scale_nps: Option<u64>,
    /// With --scale-nps: refuse machines slower than this (default: a quarter of the reference).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(hide_short_help = true, help_heading = "Many machines", long, value_name = "NPS", requires = "scale_nps")]
    pub min_nps: Option<u64>,
    /// Set a machine aside (no more pairs of this run) when its faults or its residual are this unlikely: a Bonferroni-corrected p-value; 0 never sets one aside.
    #[serde(skip_serializing_if = "is_default_p")]
    #[arg(hide_short_help = true, help_heading = "Many machines", long, value_name = "P", default_value_t = model::spec::SET_ASIDE_P)]
    pub set_aside_p: f64,
    /// Count the games of machines set aside (by default the result leaves them out).
    #[serde(skip_serializing_if = "is_false")]
    #[arg(hide_short_help = true, help_heading = "Many machines", long)]
    pub count_set_aside: bool,
}

impl Default for Settings {
    /// Every flag left out: the defaults clap gives (a test holds them equal).
    fn default() -> Settings {
        Settings {
            tc: None,
            openings: None,
            seed: None,
            start: 0,
            plies: None,
            concurrency: None,
            draw: DrawFlag::default(),
            resign: ResignFlag::default(),
            maxmoves: None,
            maxmoves_score: MAXMOVES_SCORE,
            tb: None,
            tb_pieces: None,
            tb_adjudicate: None,
            tb_ignore_50: false,
            no_check_mate_pvs: false,
            ponder: false,
            scale_nps: None,
            min_nps: None,
            set_aside_p: model::spec::SET_ASIDE_P,
            count_set_aside: false,
        }
    }
}

/// `--tb-adjudicate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TbWhich {
    /// Wins only.
    Win,
    /// Draws only.
    Draw,
    /// Wins and draws.
    Both,
}

impl From<TbWhich> for TbResults {
    fn from(which: TbWhich) -> TbResults {
        match which {
            TbWhich::Win => TbResults::Win,
            TbWhich::Draw => TbResults::Draw,
            TbWhich::Both => TbResults::Both,
        }
    }
}

impl From<TbResults> for TbWhich {
    fn from(results: TbResults) -> TbWhich {
        match results {
            TbResults::Win => TbWhich::Win,
            TbResults::Draw => TbWhich::Draw,
            TbResults::Both => TbWhich::Both,
        }
    }
}

/// Why settings cannot make a run: a setting that cannot be used, tables
/// that cannot be read, or more games at once than the machine may open files for.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    /// A setting, or a combination of settings, that cannot be used.
    #[error(transparent)]
    Invalid(#[from] Invalid),
    /// The tablebase folders cannot be read.
    #[error(transparent)]
    Tablebase(#[from] TablebaseError),
    /// The concurrency needs more open files than this machine allows.
    #[error(transparent)]
    OpenFiles(#[from] OpenFilesError),
    /// A time control that cannot be read.
    #[error(transparent)]
    TimeControl(#[from] model::BadTimeControl),
}

impl Games {
    /// Two engines, A against B, `openings_per_round` openings a pass for
    /// `rounds` passes, under `--tc`.
    pub fn two(kind: GamesKind, engines: Vec<EngineSpec>, openings_per_round: usize, rounds: usize) -> Games {
        Games { kind, engines, pairings: vec![(0, 1)], openings_per_round, rounds, headline: None }
    }
}

impl Settings {
    /// The opening set: `openings`, else the papers' 25 openings.
    pub fn openings(&self) -> &str {
        self.openings.as_deref().unwrap_or(DEFAULT_OPENINGS)
    }

    /// Games at once on this machine: `concurrency`, else
    /// [`DEFAULT_CONCURRENCY`], with `per_slot` CPUs a game.
    ///
    /// # Errors
    ///
    /// [`Invalid`] for a `-N` that leaves no CPU.
    pub fn concurrency(&self, per_slot: usize) -> Result<usize, Invalid> {
        self.concurrency.map_or(Ok(DEFAULT_CONCURRENCY), |c| c.on_this_machine(per_slot))
    }

    /// The openings of an SPRT, a match or a tuning run without
    /// `openings`: a large book in a random order (the seed kept in the
    /// run), so that a long test on a clock does not replay 25 openings
    /// hundreds of times; the note that says so when the run starts.
    pub fn large_book_unless_given(&mut self) -> Option<String> {
        if self.openings.is_some() {
            return None;
        }
        const LARGE: &str = "noob_2moves";
        self.openings = Some(LARGE.to_string());
        let seed = *self.seed.get_or_insert_with(|| fastrand::u64(..u64::from(u32::MAX)));
        Some(format!("openings {LARGE}, shuffled with seed {seed} (--openings and --seed choose others)"))
    }

    /// The settings that play `spec` again (`arena show RUN --config`):
    /// every field said, so that a new one does not compile until it is.
    ///
    /// # Errors
    ///
    /// [`model::NotPlayable`] for imported games, whose settings are unknown.
    pub fn of(spec: &GamesSpec) -> Result<Settings, model::NotPlayable> {
        let playable = spec.playable()?;
        let (adjudication, tb) = (&playable.adjudication, spec.tablebase.as_ref());
        Ok(Settings {
            tc: spec.tc.clone(),
            openings: Some(spec.openings.clone()),
            seed: spec.seed,
            start: spec.start,
            plies: spec.max_plies,
            concurrency: Some(Concurrency::Games(playable.concurrency)),
            draw: RuleFlag(adjudication.draw),
            resign: RuleFlag(adjudication.resign),
            maxmoves: adjudication.max_moves,
            maxmoves_score: adjudication.max_moves_score,
            tb: tb.map(|tb| tb.paths.join(":")),
            tb_pieces: tb.map(|tb| tb.pieces),
            tb_adjudicate: tb.map(|tb| tb.results.into()),
            tb_ignore_50: tb.is_some_and(|tb| tb.ignore_50),
            no_check_mate_pvs: !spec.check_mate_pvs,
            ponder: !spec.engines.is_empty() && spec.engines.iter().all(|e| e.ponder),
            scale_nps: spec.machines.scale_nps,
            min_nps: spec.machines.min_nps,
            set_aside_p: spec.machines.set_aside_p,
            count_set_aside: spec.machines.count_set_aside,
        })
    }

    /// The run `games` these settings describe, every setting checked;
    /// nothing is started yet. The spec is whole when built: no front end
    /// changes it afterwards.
    ///
    /// # Errors
    ///
    /// [`SettingsError`]: the first setting that cannot be used, in one line.
    pub fn spec(&self, games: Games) -> Result<GamesSpec, SettingsError> {
        let Games { kind, engines, pairings, openings_per_round, rounds, headline } = games;
        let tc: TimeControl = match (headline, &self.tc) {
            (Some(tc), _) => tc,
            (None, Some(tc)) => tc.clone(),
            (None, None) => DEFAULT_TC.parse()?,
        };
        let mut engines = engines;
        for engine in &mut engines {
            engine.ponder |= self.ponder;
        }
        let concurrency = self.concurrency(cpus_per_slot(&engines))?;
        crate::engine_io::open_files::fit_open_files(concurrency)?;
        let adjudication = Adjudication {
            draw: self.draw.0,
            resign: self.resign.0,
            max_moves: self.maxmoves,
            max_moves_score: self.maxmoves_score,
        };
        Ok(GamesSpec {
            kind,
            engines,
            pairings,
            tc: Some(tc),
            openings: self.openings().to_string(),
            seed: self.seed,
            start: self.start,
            max_plies: self.plies,
            openings_per_round,
            rounds,
            concurrency: Some(concurrency),
            adjudication: Some(adjudication),
            check_mate_pvs: !self.no_check_mate_pvs,
            tablebase: self.tablebase_rule()?,
            variant: Variant::Standard,
            machines: self.machine_rule()?,
        })
    }

    /// The run's machine rule.
    fn machine_rule(&self) -> Result<MachineRule, Invalid> {
        if !(0.0..1.0).contains(&self.set_aside_p) {
            return Err(Invalid::new(
                "set-aside-p",
                format!("--set-aside-p {}: give a p-value from 0 (never) to below 1, e.g. 0.0001", self.set_aside_p),
            ));
        }
        if self.scale_nps == Some(0) || self.min_nps == Some(0) {
            return Err(Invalid::new("scale-nps", "--scale-nps and --min-nps are speeds in nodes per second, above 0"));
        }
        if self.min_nps.is_some() && self.scale_nps.is_none() {
            return Err(Invalid::new("min-nps", "--min-nps needs --scale-nps NPS, the reference speed"));
        }
        Ok(MachineRule {
            set_aside_p: self.set_aside_p,
            count_set_aside: self.count_set_aside,
            scale_nps: self.scale_nps,
            min_nps: self.min_nps,
        })
    }

    /// The tablebase rule, its folders checked (absolute paths, so that
    /// `arena resume` works from any folder).
    fn tablebase_rule(&self) -> Result<Option<TablebaseRule>, SettingsError> {
        let Some(tb) = &self.tb else {
            if self.tb_pieces.is_some() || self.tb_adjudicate.is_some() || self.tb_ignore_50 {
                return Err(Invalid::new("tb", "--tb-pieces, --tb-adjudicate and --tb-ignore-50 need --tb DIR").into());
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
        let pieces = match self.tb_pieces {
            Some(n) if n < 3 => {
                return Err(Invalid::new("tb-pieces", format!("--tb-pieces {n}: tables start at 3 pieces")).into());
            }
            Some(n) => n.min(largest),
            None => largest,
        };
        let results = self.tb_adjudicate.unwrap_or(TbWhich::Both).into();
        Ok(Some(TablebaseRule { paths, pieces, results, ignore_50: self.tb_ignore_50 }))
    }
}

/// A number of at least `MIN`, as clap reads a count and a run file's
/// value is checked (`--games 0` is refused in one line: "must be at least 1").
///
/// # Errors
///
/// [`Invalid`] for text that is not a whole number of at least `MIN`.
pub fn at_least<T, const MIN: u16>(text: &str) -> Result<T, Invalid>
where
    T: std::str::FromStr + PartialOrd + From<u16>,
{
    let n: T = text.trim().parse().map_err(|_| Invalid::new("count", format!("'{text}' is not a whole number")))?;
    if n < T::from(MIN) {
        return Err(Invalid::new("count", format!("must be at least {MIN}")));
    }
    Ok(n)
}

/// A number of games, as `--games` and `--max-games` are read: whole
/// pairs, since each opening is played twice with colours swapped (`--games
/// 3` is refused, naming 2 and 4, rather than played as 4).
///
/// # Errors
///
/// [`Invalid`] for fewer than 2 or an odd number.
pub fn whole_pairs(text: &str) -> Result<usize, Invalid> {
    let games: usize = at_least::<usize, 2>(text)?;
    if !games.is_multiple_of(2) {
        return Err(Invalid::new(
            "games",
            format!("games come in pairs (each opening twice, colours swapped): give {} or {}", games - 1, games + 1),
        ));
    }
    Ok(games)
}

/// A run file's values checked by the same functions as the flags: the
/// number as TOML holds it, read as the flag's text.
pub mod checked {
    use serde::Deserializer;

    /// A whole number, as text, from a TOML integer or string.
    pub(super) fn text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
        crate::run::concurrency::whole_number_text(deserializer)
    }

    /// An optional count of at least 1 ([`super::at_least`]).
    ///
    /// # Errors
    ///
    /// The flag's own message.
    pub fn at_least_1<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
    where
        D: Deserializer<'de>,
        T: std::str::FromStr + PartialOrd + From<u16>,
    {
        crate::cli::settings::at_least::<T, 1>(&text(deserializer)?).map(Some).map_err(serde::de::Error::custom)
    }

    /// A count of at least 1 ([`super::at_least`]).
    ///
    /// # Errors
    ///
    /// The flag's own message.
    pub fn count<'de, D: Deserializer<'de>>(deserializer: D) -> Result<usize, D::Error> {
        crate::cli::settings::at_least::<usize, 1>(&text(deserializer)?).map_err(serde::de::Error::custom)
    }

    /// Games in whole pairs ([`super::whole_pairs`]).
    ///
    /// # Errors
    ///
    /// The flag's own message.
    pub fn games<'de, D: Deserializer<'de>>(deserializer: D) -> Result<usize, D::Error> {
        crate::cli::settings::whole_pairs(&text(deserializer)?).map_err(serde::de::Error::custom)
    }

    /// Optional games in whole pairs ([`super::whole_pairs`]).
    ///
    /// # Errors
    ///
    /// The flag's own message.
    pub fn some_games<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<usize>, D::Error> {
        games(deserializer).map(Some)
    }
}

/// A typed value written as the text its flag reads, and read back through
/// its `FromStr` (a rule, a model, budgets).
pub mod as_text {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `value` as its text.
    ///
    /// # Errors
    ///
    /// The serializer's.
    pub fn serialize<T: std::fmt::Display, S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(value)
    }

    /// Reads the text as the flag does.
    ///
    /// # Errors
    ///
    /// The flag's own message.
    pub fn deserialize<'de, D, T>(deserializer: D) -> Result<T, D::Error>
    where
        D: Deserializer<'de>,
        T: std::str::FromStr,
        T::Err: std::fmt::Display,
    {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Leaves a zero out of a run file (the flag's default).
fn is_zero(value: &usize) -> bool {
    *value == 0
}

/// Leaves a switch that is off out of a run file.
fn is_false(value: &bool) -> bool {
    !*value
}

/// Leaves the default `--set-aside-p` out of a run file.
fn is_default_p(p: &f64) -> bool {
    *p == model::spec::SET_ASIDE_P
}

/// Shell completion of `--openings`: the built-in sets, then files.
fn books(current: &std::ffi::OsStr) -> Vec<clap_complete::engine::CompletionCandidate> {
    use clap_complete::engine::{CompletionCandidate, PathCompleter, ValueCompleter};
    let typed = current.to_string_lossy();
    let mut found: Vec<CompletionCandidate> = openings::BUILTIN
        .iter()
        .filter(|b| b.starts_with(&*typed))
        .map(|b| CompletionCandidate::new(*b).help(Some("built-in book".into())))
        .collect();
    found.extend(PathCompleter::file().complete(current));
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::FromArgMatches;

    /// `flags` as clap reads them into [`Settings`].
    pub(crate) fn parsed(flags: &[&str]) -> Settings {
        let command = Settings::augment_args(clap::Command::new("t").no_binary_name(true));
        Settings::from_arg_matches(&command.try_get_matches_from(flags).unwrap()).unwrap()
    }

    #[test]
    fn no_flags_and_an_empty_file_are_the_default_settings() {
        assert_eq!(parsed(&[]), Settings::default());
        let empty: Settings = toml::from_str("").unwrap();
        assert_eq!(empty, Settings::default());
    }

    #[test]
    fn a_file_and_the_flags_give_the_same_settings_and_the_file_is_written_back_as_read() {
        let flags = parsed(&[
            "--tc=40/60+1",
            "--openings=frc",
            "--seed=4",
            "--start=3",
            "--plies=6",
            "--concurrency=3",
            "--draw=off",
            "--resign=movecount=5,score=700",
            "--maxmoves=90",
            "--maxmoves-score=300",
            "--tb=builtin",
            "--tb-pieces=3",
            "--tb-adjudicate=win",
            "--tb-ignore-50",
            "--no-check-mate-pvs",
            "--ponder",
            "--scale-nps=1000",
            "--min-nps=100",
            "--set-aside-p=0.001",
            "--count-set-aside",
        ]);
        let text = toml::to_string(&flags).unwrap();
        let read: Settings = toml::from_str(&text).unwrap();
        assert_eq!(read, flags, "{text}");
        for key in ["tc = ", "tb-ignore-50 = true", "tb-adjudicate = \"win\"", "draw = \"off\"", "count-set-aside"] {
            assert!(text.contains(key), "{key} in {text}");
        }
    }

    #[test]
    fn concurrency_is_a_number_auto_or_the_cpus_less_n() {
        let on = |text: &str, cpus, per_slot| text.parse::<Concurrency>().and_then(|c| c.on(cpus, per_slot));
        assert_eq!(on("3", 2, 1).unwrap(), 3);
        assert_eq!(on("auto", 2, 1).unwrap(), 2);
        assert_eq!(on("auto", 256, 2).unwrap(), 128);
        assert_eq!(on("AUTO", 1, 2).unwrap(), 1);
        assert_eq!(on("-1", 2, 1).unwrap(), 1);
        assert_eq!(on("-8", 256, 1).unwrap(), 248);
        let error = on("-2", 2, 1).unwrap_err().to_string();
        assert!(error.contains("may use 2 CPU(s), so -2 leaves none; give -N with N below 2"), "{error}");
        for bad in ["0", "-0", "x", "-", "2.5", "--1"] {
            assert!(bad.parse::<Concurrency>().is_err(), "{bad}");
        }
        // A run file: a number, a negative number or text; written back as it was given.
        for (text, concurrency) in [
            ("concurrency = 3", Concurrency::Games(3)),
            ("concurrency = -1", Concurrency::AllBut(1)),
            ("concurrency = \"auto\"", Concurrency::Auto),
        ] {
            let settings: Settings = toml::from_str(text).unwrap();
            assert_eq!(settings.concurrency, Some(concurrency), "{text}");
            assert!(toml::to_string(&settings).unwrap().contains(text), "{text}");
        }
    }

    #[test]
    fn a_files_values_are_checked_by_the_flags_own_checks() {
        for (text, needle) in [
            ("concurrency = 0", "must be at least 1"),
            ("maxmoves = -1", "'-1' is not a whole number"),
            ("draw = \"sometimes\"", "sometimes"),
            ("tb-adjudicate = \"all\"", "all"),
        ] {
            let error = toml::from_str::<Settings>(text).unwrap_err().to_string();
            assert!(error.contains(needle), "{text}: {error}");
        }
        let clap_says = at_least::<usize, 1>("0").unwrap_err().to_string();
        assert_eq!(clap_says, "must be at least 1");
        assert!(whole_pairs("3").unwrap_err().to_string().contains("give 2 or 4"));
    }
}
