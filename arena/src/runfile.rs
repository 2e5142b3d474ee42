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

use model::{MatchSpec, RunKind, TbResults};

use crate::game::adjudication::{draw_flag, resign_flag};

/// The commands a run file may hold.
const COMMANDS: [&str; 5] = ["elo", "match", "tournament", "sprt", "tune"];

/// The command line `text` (the file `path`) stands for, without the program
/// name; `extra` (flags given after the file, such as `--db`) is appended.
///
/// # Errors
///
/// One line naming the file and what is wrong in it.
pub fn to_args(path: &str, text: &str, extra: &[String]) -> Result<Vec<String>, String> {
    let bad = |problem: String| format!("{path}: {problem}");
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
    let mut engines_file = false;
    for (key, value) in &flags {
        let flag = format!("--{}", key.replace('_', "-"));
        engines_file |= flag == "--engines-file";
        let mut push = |value: &toml::Value| -> Result<(), String> {
            match value {
                toml::Value::Boolean(true) => args.push(flag.clone()),
                toml::Value::Boolean(false) => {}
                toml::Value::String(s) => args.extend([flag.clone(), s.clone()]),
                toml::Value::Integer(n) => args.extend([flag.clone(), n.to_string()]),
                toml::Value::Float(x) => args.extend([flag.clone(), x.to_string()]),
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

/// The run file of a stored run of games: every setting as a flag and every
/// engine inline.
pub fn from_spec(spec: &MatchSpec) -> String {
    let mut file = toml::Table::new();
    let command = match spec.kind {
        RunKind::Elo => "elo",
        RunKind::Match => "match",
        RunKind::Tournament => "tournament",
        RunKind::Sprt => "sprt",
        _ => "tune",
    };
    file.insert("command".into(), command.into());
    let mut engines: Vec<model::EngineSpec> = spec.engines.clone();
    if spec.tune.is_some() {
        // θ+ and θ− are the base engine under two names.
        engines.truncate(1);
        let name = engines[0].name.strip_suffix('+').unwrap_or(&engines[0].name).to_string();
        engines[0].name = name;
    }
    let names: Vec<toml::Value> = engines.iter().map(|e| e.name.clone().into()).collect();
    file.insert("engines".into(), names.into());

    let mut flags = toml::Table::new();
    let mut set = |key: &str, value: toml::Value| {
        flags.insert(key.to_string(), value);
    };
    set("tc", spec.tc.to_string().into());
    set("openings", spec.openings.clone().into());
    if let Some(seed) = spec.seed {
        set("seed", toml_int(seed));
    }
    if spec.start != 0 {
        set("start", toml_int(spec.start as u64));
    }
    if let Some(plies) = spec.max_plies {
        set("plies", toml_int(plies as u64));
    }
    set("concurrency", toml_int(spec.concurrency as u64));
    let games = toml_int(2 * spec.openings_per_round as u64);
    match spec.kind {
        RunKind::Elo => {
            set("rounds", toml_int(spec.rounds as u64));
            set("games", games);
        }
        RunKind::Tournament => {
            set("rounds", toml_int(spec.rounds as u64));
            if let Some(hero) = gauntlet(spec) {
                set("gauntlet", hero.into());
            }
        }
        RunKind::Sprt => set("max-games", games),
        _ => set("games", games),
    }
    let a = &spec.adjudication;
    set("draw", draw_flag(a.draw).into());
    set("resign", resign_flag(a.resign).into());
    if let Some(max) = a.max_moves {
        set("maxmoves", toml_int(u64::from(max)));
    }
    set("maxmoves-score", a.max_moves_score.into());
    if let Some(tb) = &spec.tablebase {
        set("tb", tb.paths.join(":").into());
        set("tb-pieces", toml_int(u64::from(tb.pieces)));
        let which = match tb.results {
            TbResults::Win => "win",
            TbResults::Draw => "draw",
            TbResults::Both => "both",
        };
        set("tb-adjudicate", which.into());
        set("tb-ignore-50", tb.ignore_50.into());
    }
    if !spec.check_mate_pvs {
        set("no-check-mate-pvs", true.into());
    }
    if let Some(test) = &spec.sprt {
        set("elo0", test.elo0.into());
        set("elo1", test.elo1.into());
        set("alpha", test.alpha.into());
        set("beta", test.beta.into());
        let model = match test.model {
            model::Model::Normalized => "normalized",
            model::Model::Logistic => "logistic",
        };
        set("model", model.into());
    }
    if let Some(spsa) = &spec.tune {
        let params: Vec<toml::Value> = spsa
            .params
            .iter()
            .map(|p| format!("{}={}..{},start={},c={},r={}", p.name, p.min, p.max, p.start, p.c_end, p.r_end).into())
            .collect();
        set("param", params.into());
        set("games", toml_int(2 * spsa.iterations));
        set("alpha", spsa.alpha.into());
        set("gamma", spsa.gamma.into());
        set("big-a", spsa.big_a.into());
        set("spsa-seed", toml_int(spsa.seed));
    }
    file.insert("flags".into(), flags.into());

    let tables: Vec<toml::Value> = engines.iter().map(|e| engine_table(e).into()).collect();
    file.insert("engine".into(), tables.into());
    let body = toml::to_string(&file).unwrap_or_default();
    format!("# arena run file: arena run FILE.toml [--db …]\n{body}")
}

/// The engine that plays everyone else when the pairings are a gauntlet.
fn gauntlet(spec: &MatchSpec) -> Option<String> {
    let n = spec.engines.len();
    let round_robin = spec.pairings.len() == n * (n - 1) / 2;
    let &(hero, _) = spec.pairings.first()?;
    (!round_robin && spec.pairings.iter().all(|&(a, _)| a == hero)).then(|| spec.engines[hero].name.clone())
}

fn toml_int(value: u64) -> toml::Value {
    toml::Value::Integer(i64::try_from(value).unwrap_or(i64::MAX))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_the_command_line_it_stands_for() {
        let text = "command = \"sprt\"\nengines = [\"fhr\", \"plain\"]\n[flags]\ntc = \"nodes=3000\"\nmax_games = 200\n\
                    elo1 = 10.0\nquiet = true\nno-io-log = false\nparam = [\"A=1..2\", \"B\"]\n";
        let args = to_args("r.toml", text, &["--db".into(), "x.db".into()]).unwrap();
        let expected = "sprt --a fhr --b plain --elo1 10 --max-games 200 --param A=1..2 --param B --quiet --tc nodes=3000 --db x.db";
        assert_eq!(args.join(" "), expected, "false flags are left out");
        let with_engines = format!("{text}[[engine]]\nname = \"fhr\"\npreset = \"fhr\"\n");
        let args = to_args("r.toml", &with_engines, &[]).unwrap();
        assert!(args.ends_with(&["--engines-file".to_string(), "r.toml".to_string()]), "{args:?}");
        for (bad, needle) in [
            ("engines = [\"a\", \"b\"]", "no command"),
            ("command = \"suite\"", "is not one of"),
            ("command = \"elo\"\nengines = [\"a\"]", "two engines"),
            ("command = \"tune\"\nengines = [\"a\", \"b\"]", "one engine"),
            ("command = \"elo\"\nengines = [\"a\", \"b\"]\nspeed = 3", "unknown key 'speed'"),
            ("command = \"elo\"\nengines = [\"a\", \"b\"]\n[flags]\ntc = { a = 1 }", "give a string"),
            ("command = ", "r.toml: "),
        ] {
            let error = to_args("r.toml", bad, &[]).unwrap_err();
            assert!(error.starts_with("r.toml: ") && error.contains(needle) && !error.contains('\n'), "{bad}: {error}");
        }
    }
}
