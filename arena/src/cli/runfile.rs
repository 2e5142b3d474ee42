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
//! The file is turned into the command line it stands for and parsed by the
//! same flags, so a file and a command line mean exactly the same run and
//! fail with the same messages; engines defined inline take precedence over
//! `engines.toml`. `arena show RUN --config` writes a stored run back as
//! such a file, every engine inline, so running it again plans the same games.

use anyhow::{Context, anyhow};
use std::path::PathBuf;

use clap::{Args, Parser};
use model::{GamesKind, GamesSpec};

use super::{Cli, CliResult, Command, run};

/// The commands a run file may hold.
const COMMANDS: [&str; 6] = ["elo", "match", "tournament", "sprt", "tune", "scale"];

/// A run file that cannot be read as a command line: the file and the one
/// line that says what is wrong in it.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {problem}")]
pub struct BadRunFile {
    /// The file as given.
    pub path: String,
    /// What is wrong, and what to write instead.
    pub problem: String,
}

/// The command line `text` (the file `path`) stands for, without the program
/// name; `extra` (flags given after the file, such as `--db`) is appended,
/// and a flag of the file that `extra` gives too is left out: the command
/// line's value wins (`arena run r.toml --games 400`).
///
/// # Errors
///
/// One line naming the file and what is wrong in it.
pub fn to_args(path: &str, text: &str, extra: &[String]) -> Result<Vec<String>, BadRunFile> {
    let bad = |problem: String| BadRunFile { path: path.to_string(), problem };
    let file: toml::Table = text.parse().map_err(|e: toml::de::Error| bad(e.message().to_string()))?;
    let command = match file.get("command") {
        Some(toml::Value::String(c)) if COMMANDS.contains(&c.as_str()) => c.clone(),
        Some(other) => return Err(bad(format!("command = {other} is not one of {}", COMMANDS.join(", ")))),
        None => return Err(bad(format!("no command = \"…\" ({})", COMMANDS.join(", ")))),
    };
    for key in file.keys() {
        if !["command", "engines", "flags", "engine"].contains(&key.as_str()) {
            return Err(bad(format!("unknown key '{key}' (command, engines, [flags], [[engine]])")));
        }
    }
    let engines: Vec<String> = match file.get("engines") {
        Some(toml::Value::Array(names)) => names
            .iter()
            .map(|n| n.as_str().map(str::to_string).ok_or_else(|| bad("engines holds names in quotes".into())))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(bad("engines = [\"A\", \"B\", …] is a list of names".into())),
        None => Vec::new(),
    };
    let mut args = vec![command.clone()];
    match (command.as_str(), engines.as_slice()) {
        ("tune", [engine]) => args.extend(["--engine".into(), engine.clone()]),
        ("tune", _) => return Err(bad("a tune run has one engine: engines = [\"NAME\"]".into())),
        ("tournament", names) if names.len() >= 2 => args.extend(["--engines".into(), names.join(",")]),
        ("tournament", _) => return Err(bad("a tournament needs engines = [at least two names]".into())),
        (_, [a, b]) => args.extend(["--a".into(), a.clone(), "--b".into(), b.clone()]),
        (_, _) => return Err(bad(format!("a {command} run has two engines: engines = [\"A\", \"B\"]"))),
    }
    let flags = match file.get("flags") {
        Some(toml::Value::Table(flags)) => flags.clone(),
        Some(_) => return Err(bad("flags must be a table: [flags]".into())),
        None => toml::Table::new(),
    };
    let given = |flag: &str| extra.iter().any(|e| e == flag || e.starts_with(&format!("{flag}=")));
    let mut engines_file = given("--engines-file");
    for (key, value) in &flags {
        let flag = format!("--{}", key.replace('_', "-"));
        if given(&flag) {
            continue;
        }
        engines_file |= flag == "--engines-file";
        // `--flag=value`, one word: a value that starts with a dash (`games
        // = -5`) is then the flag's value, which clap refuses by name,
        // rather than an unknown flag of its own.
        let mut push = |value: &toml::Value| -> Result<(), BadRunFile> {
            match value {
                toml::Value::Boolean(true) => args.push(flag.clone()),
                toml::Value::Boolean(false) => {}
                toml::Value::String(s) => args.push(format!("{flag}={s}")),
                toml::Value::Integer(n) => args.push(format!("{flag}={n}")),
                toml::Value::Float(x) => args.push(format!("{flag}={x}")),
                _ => return Err(bad(format!("[flags] {key}: give a string, number or true/false"))),
            }
            Ok(())
        };
        match value {
            toml::Value::Array(values) => values.iter().try_for_each(&mut push)?,
            value => push(value)?,
        }
    }
    if file.contains_key("engine") && !engines_file {
        args.extend(["--engines-file".into(), path.to_string()]);
    }
    args.extend(extra.iter().cloned());
    Ok(args)
}

/// The run file of a stored run of games: every setting as a flag (written
/// by serde from the flags' own declarations, [`super::stored_flags`]) and
/// every engine inline.
///
/// # Errors
///
/// A setting TOML cannot hold.
pub fn write(spec: &GamesSpec) -> Result<String, toml::ser::Error> {
    let (command, flags) = super::stored_flags(spec)?;
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
pub struct RunFileArgs {
    /// The run file (TOML): command, engines, [flags], [[engine]].
    file: PathBuf,
    /// Flags added to the file's, such as --db or --quiet.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    rest: Vec<String>,
}

/// `arena run`.
pub(super) async fn run_file(args: RunFileArgs) -> CliResult {
    let shown = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file).with_context(|| format!("{shown}: cannot read the run file"))?;
    let line = to_args(&shown, &text, &args.rest)?;
    let command = line.first().cloned().unwrap_or_default();
    let cli = Cli::try_parse_from(std::iter::once("arena".to_string()).chain(line)).map_err(|e| {
        let said = e.to_string();
        let first = said.lines().next().unwrap_or_default().trim_start_matches("error: ").to_string();
        // A flag given after the file is the command line's, not the file's.
        let given = match e.get(clap::error::ContextKind::InvalidArg) {
            Some(clap::error::ContextValue::String(arg)) => {
                let flag = arg.split(['=', ' ']).next().unwrap_or_default();
                args.rest.iter().any(|word| word.split('=').next() == Some(flag))
            }
            _ => false,
        };
        if given {
            anyhow!("after {shown} on the command line: {first} (arena {command} --help lists its flags)")
        } else {
            anyhow!("{shown}: {first} (each key of [flags] is a flag of the command, without its dashes)")
        }
    })?;
    if matches!(cli.command, Command::Run(_)) {
        return Err(anyhow!("{shown}: a run file cannot start another run file"));
    }
    run(cli).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_the_command_line_it_stands_for() {
        let text = "command = \"sprt\"\nengines = [\"fhr\", \"plain\"]\n[flags]\ntc = \"nodes=3000\"\nmax_games = 200\n\
                    elo1 = 10.0\nquiet = true\nno-io-log = false\nparam = [\"A=1..2\", \"B\"]\n";
        let args = to_args("r.toml", text, &["--db".into(), "x.db".into()]).unwrap();
        let expected = "sprt --a fhr --b plain --elo1=10 --max-games=200 --param=A=1..2 --param=B --quiet --tc=nodes=3000 --db x.db";
        assert_eq!(args.join(" "), expected, "false flags are left out");
        let with_engines = format!("{text}[[engine]]\nname = \"fhr\"\npreset = \"fhr\"\n");
        let args = to_args("r.toml", &with_engines, &[]).unwrap();
        assert!(args.ends_with(&["--engines-file".to_string(), "r.toml".to_string()]), "{args:?}");
        // Flags after the file win over the file's, a repeated one whole.
        let extra: Vec<String> =
            ["--max-games", "50", "--param=C", "--quiet", "--engines-file", "e.toml"].map(Into::into).into();
        let args = to_args("r.toml", &with_engines, &extra).unwrap();
        let expected =
            "sprt --a fhr --b plain --elo1=10 --tc=nodes=3000 --max-games 50 --param=C --quiet --engines-file e.toml";
        assert_eq!(args.join(" "), expected);
        for (bad, needle) in [
            ("engines = [\"a\", \"b\"]", "no command"),
            ("command = \"suite\"", "is not one of"),
            ("command = \"elo\"\nengines = [\"a\"]", "two engines"),
            ("command = \"tune\"\nengines = [\"a\", \"b\"]", "one engine"),
            ("command = \"elo\"\nengines = [\"a\", \"b\"]\nspeed = 3", "unknown key 'speed'"),
            ("command = \"elo\"\nengines = [\"a\", \"b\"]\n[flags]\ntc = { a = 1 }", "give a string"),
            ("command = ", "r.toml: "),
        ] {
            let error = to_args("r.toml", bad, &[]).unwrap_err().to_string();
            assert!(error.starts_with("r.toml: ") && error.contains(needle) && !error.contains('\n'), "{bad}: {error}");
        }
    }
}
