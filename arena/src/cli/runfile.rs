//! A run as one file: `arena run FILE.toml` and `arena show RUN --config`.
//!
//! ```toml
//! command = "sprt"                  # elo, match, tournament, sprt or tune
//! engines = ["fhr", "plain"]        # A and B; a tournament's list; tune's one engine
//!
//! [flags]                           # any flag of the command, without its dashes
//! tc = "nodes=3000"
//! openings = "noob_2moves"
//! max-games = 20000
//! elo0 = 0.0
//! elo1 = 5.0
//! tb = "/srv/syzygy"
//!
//! [[engine]]                        # engines inline, as in engines.toml
//! name = "fhr"
//! preset = "fhr"
//! ```
//!
//! The file is read into the same typed settings as the command's flags
//! ([`crate::cli::settings::Settings`] and the command's own, such as
//! `SprtFlags`): each value is checked by the function its flag uses, so
//! a file and a command line are refused with the same words, and a
//! refusal names the file and the key. Engines defined inline take
//! precedence over `engines.toml`. Flags after the file say how this
//! machine plays (`--db`, `--pgn`, `--quiet` …); `--set KEY=VALUE` changes
//! one of the file's `[flags]`. `arena show RUN --config` writes a stored
//! run back as such a file, every engine inline, from the same types, so
//! running it again plans the same games.

use anyhow::Context;
use std::path::PathBuf;

use clap::Args;
use model::{GamesKind, GamesSpec};
use serde::{Deserialize, Serialize, de::DeserializeOwned};

use super::flags::{EloArgs, Gauntlet, MatchArgs, MatchGames, PairArgs, PassArgs, ScaleArgs, ScaleFlags};
use super::flags::{SprtArgs, SprtCap, TournamentArgs};
use super::flags::{TuneArgs, TuneFlags};
use super::games::{LocalArgs, PlayArgs};
use super::shared::CliResult;
use super::shared::SprtParams;
use crate::cli::settings::Settings;

/// The commands a run file may hold.
const COMMANDS: [&str; 6] = ["elo", "match", "tournament", "sprt", "tune", "scale"];

/// A run file that cannot be read: the file and the one line that says
/// what is wrong in it.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {problem}")]
pub struct BadRunFile {
    /// The file as given.
    pub path: String,
    /// What is wrong, and what to write instead.
    pub problem: String,
}

/// A command's `[flags]`: what the command plays besides the settings
/// (`K` and `L`), the run's settings, and the keys that none of them knows
/// (refused). The parts are flat: serde hands a key that a part nested in
/// a part takes to the unknown keys as well.
#[derive(Serialize, Deserialize)]
struct Flags<K, L = Nothing> {
    #[serde(flatten)]
    kind: K,
    #[serde(flatten)]
    more: L,
    #[serde(flatten)]
    settings: Settings,
    #[serde(flatten, skip_serializing)]
    unknown: toml::Table,
}

/// No second part.
#[derive(Default, Serialize, Deserialize)]
struct Nothing {}

/// The file's parts before they are typed.
struct Parts {
    command: String,
    engines: Vec<String>,
    flags: toml::Table,
    inline_engines: bool,
}

/// The command `text` (the file `path`) stands for, its `[flags]` changed
/// by `set` (`KEY=VALUE` each), played with this machine's `local` flags.
///
/// # Errors
///
/// One line naming the file and what is wrong in it.
pub(super) fn read(path: &str, text: &str, set: &[String], mut local: LocalArgs) -> Result<FileCommand, BadRunFile> {
    let bad = |problem: String| BadRunFile { path: path.to_string(), problem };
    let mut parts = parts(text).map_err(bad)?;
    for assignment in set {
        let Some((key, value)) = assignment.split_once('=') else {
            return Err(bad(format!("--set {assignment}: give KEY=VALUE, e.g. --set max-games=400")));
        };
        parts.flags.insert(key.trim().replace('_', "-"), toml_value(value.trim()));
    }
    if parts.inline_engines && local.registry.engines_file.is_none() {
        local.registry.engines_file = Some(path.into());
    }
    let command = parts.command.as_str();
    let typed = |e: String| bad(e);
    let names = parts.engines;
    let pair = || -> Result<PairArgs, BadRunFile> {
        match names.as_slice() {
            [a, b] => Ok(PairArgs::named(a, b)),
            _ => Err(bad(match command {
                "sprt" => {
                    "an sprt run has two engines, engines = [\"A\", \"B\"], or a family's candidates and then its base"
                        .to_string()
                }
                _ => format!("a {command} run has two engines: engines = [\"A\", \"B\"]"),
            })),
        }
    };
    let play = |settings: Settings| PlayArgs { settings, local: local.clone() };
    Ok(match command {
        "elo" => {
            let flags: Flags<PassArgs> = typed_flags(command, parts.flags).map_err(typed)?;
            FileCommand::Elo(EloArgs { engines: pair()?, passes: flags.kind, play: play(flags.settings) })
        }
        "match" => {
            let flags: Flags<MatchGames> = typed_flags(command, parts.flags).map_err(typed)?;
            FileCommand::Match(MatchArgs { engines: pair()?, games: flags.kind, play: play(flags.settings) })
        }
        "sprt" => {
            let flags: Flags<SprtParams, SprtCap> = typed_flags(command, parts.flags).map_err(typed)?;
            let play = play(flags.settings);
            // Three or more engines: a family, the candidates then the base.
            let engines = match names.as_slice() {
                [devs @ .., base] if devs.len() > 1 => PairArgs::family(devs, base),
                _ => pair()?,
            };
            FileCommand::Sprt(SprtArgs { engines, sprt: flags.kind, cap: flags.more, play })
        }
        "scale" => {
            let flags: Flags<ScaleFlags> = typed_flags(command, parts.flags).map_err(typed)?;
            FileCommand::Scale(ScaleArgs { engines: pair()?, flags: flags.kind, play: play(flags.settings) })
        }
        "tournament" => {
            if names.len() < 2 {
                return Err(bad("a tournament needs engines = [at least two names]".into()));
            }
            let flags: Flags<Gauntlet, PassArgs> = typed_flags(command, parts.flags).map_err(typed)?;
            let (gauntlet, passes, play) = (flags.kind, flags.more, play(flags.settings));
            FileCommand::Tournament(TournamentArgs { engines: names, gauntlet, passes, play })
        }
        _ => {
            let [engine] = names.as_slice() else {
                return Err(bad("a tune run has one engine: engines = [\"NAME\"]".into()));
            };
            let flags: Flags<TuneFlags> = typed_flags(command, parts.flags).map_err(typed)?;
            FileCommand::Tune(TuneArgs {
                engine: Some(engine.clone()),
                source: super::games::SourceArgs::default(),
                rev: None,
                flags: flags.kind,
                plan: false,
                play: play(flags.settings),
            })
        }
    })
}

/// The file's command, engines and `[flags]`, each of the right shape.
fn parts(text: &str) -> Result<Parts, String> {
    let file: toml::Table = text.parse().map_err(|e: toml::de::Error| e.message().to_string())?;
    let command = match file.get("command") {
        Some(toml::Value::String(c)) if COMMANDS.contains(&c.as_str()) => c.clone(),
        Some(other) => return Err(format!("command = {other} is not one of {}", COMMANDS.join(", "))),
        None => return Err(format!("no command = \"…\" ({})", COMMANDS.join(", "))),
    };
    for key in file.keys() {
        if !["command", "engines", "flags", "engine"].contains(&key.as_str()) {
            return Err(format!("unknown key '{key}' (command, engines, [flags], [[engine]])"));
        }
    }
    let engines: Vec<String> = match file.get("engines") {
        Some(toml::Value::Array(names)) => names
            .iter()
            .map(|n| n.as_str().map(str::to_string).ok_or_else(|| "engines holds names in quotes".to_string()))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("engines = [\"A\", \"B\", …] is a list of names".into()),
        None => Vec::new(),
    };
    let flags = match file.get("flags") {
        Some(toml::Value::Table(flags)) => {
            // `max_games` as `max-games`: the flag's name either way.
            flags.iter().map(|(k, v)| (k.replace('_', "-"), v.clone())).collect()
        }
        Some(_) => return Err("flags must be a table: [flags]".into()),
        None => toml::Table::new(),
    };
    Ok(Parts { command, engines, flags, inline_engines: file.contains_key("engine") })
}

/// `--set`'s VALUE as TOML reads it (a number, true, a list), else as text
/// (`--set tc=10+0.1`).
fn toml_value(text: &str) -> toml::Value {
    format!("v = {text}")
        .parse::<toml::Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(text.to_string()))
}

/// `flags` typed as `command`'s: a key neither the command nor the settings
/// know is refused by name (one that says how this machine plays, with
/// where it goes instead), and a value refused by its flag's own check is
/// blamed on its key.
fn typed_flags<K: DeserializeOwned, L: DeserializeOwned>(
    command: &str,
    flags: toml::Table,
) -> Result<Flags<K, L>, String> {
    let read = |table: &toml::Table| Flags::<K, L>::deserialize(toml::Value::Table(table.clone()));
    let typed = match read(&flags) {
        Ok(typed) => typed,
        Err(error) => {
            // The first key that is refused alone (beside what an empty
            // table lacks, a required key such as scale's budgets): the one at fault.
            let lacking = read(&toml::Table::new()).err().map(|e| e.message().to_string());
            let culprit = flags.iter().find_map(|(key, value)| {
                let alone: toml::Table = [(key.clone(), value.clone())].into_iter().collect();
                let said = read(&alone).err()?.message().to_string();
                (Some(&said) != lacking.as_ref()).then(|| (key.clone(), said))
            });
            return Err(match culprit {
                Some((key, said)) => format!("[flags] {key}: {}", said.trim()),
                None => format!("[flags]: {}", error.message().trim()),
            });
        }
    };
    if let Some(key) = typed.unknown.keys().next() {
        let local = LocalArgs::augment_args(clap::Command::new("arena run"));
        let of_this_machine = local.get_arguments().any(|a| a.get_long() == Some(key.as_str()));
        return Err(if of_this_machine {
            format!(
                "[flags] {key} says how this machine plays, not what the run plays: give it after the file (arena run FILE --{key} …)"
            )
        } else {
            format!("[flags] {key} is not a flag of arena {command} (arena {command} --help lists them)")
        });
    }
    Ok(typed)
}

/// The `[flags]` of `kind`, `more` and `settings`, as a run file holds them.
fn table<K: Serialize, L: Serialize>(kind: K, more: L, settings: Settings) -> Result<toml::Table, toml::ser::Error> {
    toml::Table::try_from(Flags { kind, more, settings, unknown: toml::Table::new() })
}

/// The command and `[flags]` that play a stored run of games again,
/// written by serde from the same types a run file is read into.
///
/// # Errors
///
/// A setting TOML cannot hold (none today), or an imported run, which has no flags.
pub(crate) fn stored_flags(spec: &GamesSpec) -> Result<(&'static str, toml::Table), toml::ser::Error> {
    if spec.is_imported() {
        return Err(serde::ser::Error::custom("an imported run was not played here: it has no flags to play it again"));
    }
    let settings = Settings::of(spec).map_err(<toml::ser::Error as serde::ser::Error>::custom)?;
    Ok(match &spec.kind {
        GamesKind::Elo => ("elo", table(PassArgs::of(spec), Nothing {}, settings)?),
        GamesKind::Match => ("match", table(MatchGames::of(spec), Nothing {}, settings)?),
        GamesKind::Tournament => ("tournament", table(Gauntlet::of(spec), PassArgs::of(spec), settings)?),
        GamesKind::Sprt(test) => ("sprt", table(SprtParams::of(test), SprtCap::of(spec), settings)?),
        // The budgets are the time controls; the spec's own is the first of them.
        GamesKind::Scale(budgets) => {
            ("scale", table(ScaleFlags::of(spec, budgets), Nothing {}, Settings { tc: None, ..settings })?)
        }
        GamesKind::Tune(spsa) => ("tune", table(TuneFlags::of(spsa), Nothing {}, settings)?),
        GamesKind::Import(_) => unreachable!("refused above"),
    })
}

/// The run file of a stored run of games: every setting (written by serde
/// from the types a run file is read into, [`stored_flags`]) and every engine inline.
///
/// # Errors
///
/// A setting TOML cannot hold.
pub fn write(spec: &GamesSpec) -> Result<String, toml::ser::Error> {
    let (command, flags) = stored_flags(spec)?;
    let mut file = toml::Table::new();
    file.insert("command".into(), command.into());
    let mut engines: Vec<model::EngineSpec> = spec.engines.clone();
    if let GamesKind::Tune(_) = spec.kind {
        // θ+ and θ− are the base engine under two names.
        engines.truncate(1);
        let name = engines[0].name.strip_suffix('+').unwrap_or(&engines[0].name).to_string();
        engines[0].name = name;
    }
    if let GamesKind::Scale(_) = spec.kind {
        // A and B, copied once per budget as `A@BUDGET` under that budget.
        engines.truncate(2);
        for engine in &mut engines {
            engine.name = model::base_name(&engine.name).to_string();
            engine.tc = None;
        }
    }
    let names: Vec<toml::Value> = engines.iter().map(|e| e.name.clone().into()).collect();
    file.insert("engines".into(), names.into());
    file.insert("flags".into(), flags.into());
    let tables: Vec<toml::Value> = engines.iter().map(|e| engine_table(e).into()).collect();
    file.insert("engine".into(), tables.into());
    Ok(format!("# arena run file: arena run FILE.toml [--db …]\n{}", toml::to_string(&file)?))
}

fn engine_table(engine: &model::EngineSpec) -> toml::Table {
    let mut table = toml::Table::new();
    table.insert("name".into(), engine.name.clone().into());
    match &engine.preset {
        Some(preset) => {
            table.insert("preset".into(), preset.clone().into());
        }
        None => {
            table.insert("command".into(), engine.command.clone().into());
            if !engine.args.is_empty() {
                let args: Vec<toml::Value> = engine.args.iter().map(|a| a.clone().into()).collect();
                table.insert("args".into(), args.into());
            }
        }
    }
    if let Some(dir) = &engine.dir {
        table.insert("dir".into(), dir.display().to_string().into());
    }
    if let Some(tc) = &engine.tc {
        table.insert("tc".into(), tc.to_string().into());
    }
    if !engine.options.is_empty() {
        let options: toml::Table = engine.options.iter().map(|(k, v)| (k.clone(), v.clone().into())).collect();
        table.insert("options".into(), options.into());
    }
    table
}

/// `arena run`.
#[derive(Args, Debug)]
#[command(after_help = "The file says what is played; the flags after it say how this machine plays it. \
To change what the file plays, edit it or give --set KEY=VALUE (e.g. --set max-games=400 --set tc=10+0.1).")]
pub struct RunFileArgs {
    /// The run file (TOML): command, engines, [flags], [[engine]].
    file: PathBuf,
    /// Change one of the file's [flags] for this run: KEY=VALUE, e.g. max-games=400 (repeat for more).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    #[command(flatten)]
    local: LocalArgs,
}

/// The command a run file stands for: one of the commands that play games,
/// with its flags, which `arena run` then runs as if typed.
#[derive(Debug)]
pub enum FileCommand {
    /// `arena elo`.
    Elo(EloArgs),
    /// `arena match`.
    Match(MatchArgs),
    /// `arena tournament`.
    Tournament(TournamentArgs),
    /// `arena sprt`.
    Sprt(SprtArgs),
    /// `arena scale`.
    Scale(ScaleArgs),
    /// `arena tune`.
    Tune(TuneArgs),
}

/// `arena run`: the command the file stands for, with the flags after it.
///
/// # Errors
///
/// The file cannot be read, or does not stand for a command ([`BadRunFile`]).
pub(super) fn command(args: RunFileArgs) -> CliResult<FileCommand> {
    let shown = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file).with_context(|| format!("{shown}: cannot read the run file"))?;
    Ok(read(&shown, &text, &args.set, args.local)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(text: &str, set: &[&str]) -> Result<FileCommand, String> {
        let set: Vec<String> = set.iter().map(ToString::to_string).collect();
        read("r.toml", text, &set, LocalArgs::default()).map_err(|e| e.to_string())
    }

    #[test]
    fn a_file_is_the_typed_command_it_stands_for() {
        let text = "command = \"sprt\"\nengines = [\"fhr\", \"plain\"]\n[flags]\ntc = \"nodes=3000\"\nmax_games = 200\n\
                    elo1 = 10\nconcurrency = 3\n";
        let FileCommand::Sprt(sprt) = command(text, &[]).unwrap() else { panic!("an sprt") };
        assert_eq!(toml::Table::try_from(&sprt.cap).unwrap()["max-games"].as_integer(), Some(200));
        let test = toml::Table::try_from(&sprt.sprt).unwrap();
        assert_eq!(test["elo1"].as_float(), Some(10.0), "an integer where a number is asked");
        assert_eq!(sprt.play.settings.concurrency, Some(crate::run::concurrency::Concurrency::Games(3)));
        assert_eq!(sprt.play.settings.tc.as_ref().map(ToString::to_string).as_deref(), Some("nodes=3000"));
        // --set changes the file's flags, typed as the file's.
        let Ok(FileCommand::Sprt(sprt)) = command(text, &["max-games=50", "tc=10+0.1", "seed=7"]) else { panic!() };
        assert_eq!(toml::Table::try_from(&sprt.cap).unwrap()["max-games"].as_integer(), Some(50));
        assert_eq!(sprt.play.settings.tc.as_ref().map(ToString::to_string).as_deref(), Some("10+0.1"));
        assert_eq!(sprt.play.settings.seed, Some(7));
        // Inline engines are the run's engines file, unless one is given.
        let with_engines = format!("{text}[[engine]]\nname = \"fhr\"\npreset = \"fhr\"\n");
        let Ok(FileCommand::Sprt(sprt)) = command(&with_engines, &[]) else { panic!() };
        assert_eq!(sprt.play.local.registry.engines_file.as_deref(), Some(std::path::Path::new("r.toml")));
    }

    #[test]
    fn a_bad_file_is_one_line_naming_the_key() {
        let elo = "command = \"elo\"\nengines = [\"a\", \"b\"]\n";
        for (bad, needle) in [
            ("engines = [\"a\", \"b\"]".to_string(), "no command"),
            ("command = \"suite\"".to_string(), "is not one of"),
            ("command = \"elo\"\nengines = [\"a\"]".to_string(), "two engines"),
            ("command = \"tune\"\nengines = [\"a\", \"b\"]".to_string(), "one engine"),
            ("command = \"elo\"\nengines = [\"a\", \"b\"]\nspeed = 3".to_string(), "unknown key 'speed'"),
            (format!("{elo}[flags]\nspeed = 3"), "[flags] speed is not a flag of arena elo"),
            (format!("{elo}[flags]\nquiet = true"), "[flags] quiet says how this machine plays"),
            (format!("{elo}[flags]\ngames = -5"), "[flags] games: '-5' is not a whole number"),
            (format!("{elo}[flags]\ngames = 3"), "[flags] games: games come in pairs"),
            (format!("{elo}[flags]\nrounds = 0"), "[flags] rounds: must be at least 1"),
            (format!("{elo}[flags]\ntc = \"fast\""), "[flags] tc: "),
            (format!("{elo}[flags]\ndraw = \"never\""), "[flags] draw: "),
            (format!("{elo}[flags]\ntc = {{ a = 1 }}"), "[flags] tc: "),
            ("command = \"scale\"\nengines = [\"a\", \"b\"]\n".to_string(), "budgets"),
            ("command = ".to_string(), "r.toml: "),
        ] {
            let error = command(&bad, &[]).err().unwrap_or_else(|| panic!("{bad}: accepted"));
            assert!(error.starts_with("r.toml: ") && error.contains(needle) && !error.contains('\n'), "{bad}: {error}");
        }
        let error = command(elo, &["games"]).err().unwrap();
        assert!(error.contains("--set games: give KEY=VALUE"), "{error}");
        let error = command(elo, &["speed=3"]).err().unwrap();
        assert!(error.contains("[flags] speed is not a flag of arena elo"), "{error}");
    }

    #[test]
    fn each_commands_flags_left_out_are_the_defaults_clap_gives() {
        use clap::FromArgMatches;
        fn parsed<T: clap::Args + FromArgMatches>(flags: &[&str]) -> T {
            let command = T::augment_args(clap::Command::new("t").no_binary_name(true));
            T::from_arg_matches(&command.try_get_matches_from(flags).unwrap()).unwrap()
        }
        fn same<T: clap::Args + FromArgMatches + Serialize + DeserializeOwned>(required: &[&str], file: &str) {
            let from_flags = toml::Table::try_from(parsed::<T>(required)).unwrap();
            let from_file = toml::Table::try_from(toml::from_str::<T>(file).unwrap()).unwrap();
            assert_eq!(from_flags, from_file, "{}", std::any::type_name::<T>());
        }
        same::<PassArgs>(&[], "");
        same::<MatchGames>(&[], "");
        same::<Gauntlet>(&[], "");
        same::<SprtCap>(&[], "");
        same::<SprtParams>(&[], "");
        same::<ScaleFlags>(&["--budgets=nodes=100,nodes=400"], "budgets = \"nodes=100,nodes=400\"");
        same::<TuneFlags>(&["--param=Skill"], "param = \"Skill\"");
        same::<Settings>(&[], "");
    }
}
