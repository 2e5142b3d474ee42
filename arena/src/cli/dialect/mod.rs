//! `arena fastchess ARGS…` and `arena cutechess ARGS…` (also the binary
//! run under the name `fastchess` or `cutechess-cli`): the command lines of
//! those tools ([`parse`]) translated into the run spec arena's own flags
//! build ([`translate`]), played by the same work loop and stored like any
//! run (`arena show`, `report`, `resume`, the dashboard), and printed as
//! that tool prints ([`lines`]), so that scripts, fishtest's worker and
//! OpenBench's client read arena unchanged.

mod lines;
mod parse;
mod state;
mod translate;

use clap::Args;

use super::common::View;
use crate::cli::shared::{CliResult, outln};

/// Which tool's command line and output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// fastchess.
    Fastchess,
    /// cutechess-cli.
    Cutechess,
}

impl Dialect {
    /// The dialect a program name asks for (`fastchess`, `cutechess-cli`,
    /// with or without a path or `.exe`), if any.
    pub fn of_program(argv0: &str) -> Option<Dialect> {
        let name = std::path::Path::new(argv0).file_stem()?.to_str()?;
        match name {
            "fastchess" | "fastchess-ob" => Some(Dialect::Fastchess),
            "cutechess-cli" | "cutechess" => Some(Dialect::Cutechess),
            _ => None,
        }
    }

    /// Its arena subcommand: `fastchess` or `cutechess`.
    pub fn subcommand(self) -> &'static str {
        match self {
            Dialect::Fastchess => "fastchess",
            Dialect::Cutechess => "cutechess",
        }
    }

    /// The tool and release whose command line and output arena implements,
    /// as that tool's `--version` begins: fastchess v1.8.2-alpha prints
    /// `fastchess alpha 1.8.2 …` (app/src/main.cpp), cutechess-cli 1.5.1
    /// `cutechess-cli 1.5.1` (projects/cli/src/main.cpp). A client that reads
    /// the first number of it (OpenBench's `get_version`) reads that
    /// release; the words after it say that arena plays it.
    fn version(self) -> &'static str {
        match self {
            Dialect::Fastchess => "fastchess alpha 1.8.2",
            Dialect::Cutechess => "cutechess-cli 1.5.1",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Dialect::Fastchess => "fastchess",
            Dialect::Cutechess => "cutechess-cli",
        }
    }
}

/// The words of `arena fastchess` and `arena cutechess`, as the tool reads them.
#[derive(Args, Debug)]
pub struct DialectArgs {
    /// The tool's own options: -engine cmd=./dev name=dev -engine cmd=./base name=base -each tc=8+0.08 -rounds 100 -repeat …
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, value_name = "OPTIONS")]
    pub words: Vec<String>,
}

/// Reads a foreign command line without playing it: the first option or
/// value arena would refuse (the guide's examples are checked by it).
///
/// # Errors
///
/// What `arena fastchess` or `arena cutechess` would refuse, in one line.
pub fn read_only(dialect: Dialect, words: &[String]) -> CliResult {
    parse::read(dialect, words).map(drop)
}

/// Plays the run a foreign command line asks for, printing that tool's lines.
///
/// # Errors
///
/// A setting arena cannot honour, or what any run can fail by, in one line.
pub async fn run(dialect: Dialect, args: DialectArgs) -> CliResult {
    let foreign = parse::read(dialect, &args.words)?;
    if foreign.version {
        outln!("{} compatible (arena {}, {})", dialect.version(), env!("CARGO_PKG_VERSION"), env!("ARENA_COMMIT"));
        return Ok(());
    }
    if let Some(words) = &foreign.compliance {
        return compliance(words).await;
    }
    if foreign.help {
        outln!("{}", help(dialect));
        return Ok(());
    }
    if let Some(file) = foreign.config.file.as_deref().filter(|_| !foreign.config.discard) {
        return state::resume(dialect, file, &foreign, &args.words).await;
    }
    let mut run = translate::translate(dialect, &foreign)?;
    drop_undeclared_options(&mut run.spec).await?;
    // Capped before the games are counted, so that `Started game N of M` says what is played.
    if let Some(capped) = crate::run::plan::cap_replays(&mut run.spec, &run.book) {
        crate::term::note(&capped.note(|book| format!("-openings file={book}")));
    }
    let saving = state::Saving::of(dialect, &foreign, &args.words).map(state::Saving::on_start);
    let settings = lines::Settings::of(&foreign, saving);
    let planned = lines::planned(&run.spec);
    let mut printer = lines::Lines::new(settings, &run.spec, planned);
    super::games::start_as(
        &run.play,
        &run.records,
        run.spec,
        &run.book,
        super::games::Chosen::default(),
        View::Lines(&mut printer),
    )
    .await
}

/// An option given to an engine that does not declare it, or a value the
/// option does not take: left out with fastchess's own warning line on
/// standard output (`Warning; NAME doesn't have option OPTION`, `Warning;
/// Invalid value for option OPTION; VALUE`, app/src/engine/uci_engine.cpp),
/// which fishtest's worker reads as a fault of the test's options and stops
/// the run for, rather than retrying a failure. arena's own commands refuse
/// such an option before the run instead.
///
/// # Errors
///
/// An engine that cannot be started to read its options, in one line.
async fn drop_undeclared_options(spec: &mut model::GamesSpec) -> CliResult {
    let exe = super::common::arena_exe()?;
    for engine in spec.engines.iter_mut().filter(|e| !e.options.is_empty()) {
        let timeouts = crate::engine_io::process::Timeouts::default();
        // Started without the options, to read which it declares.
        let bare = model::EngineSpec { options: Vec::new(), ..engine.clone() };
        let declared = crate::run::tune::declared_options(&bare, &exe, timeouts).await?;
        let mut kept = Vec::new();
        for (option, value) in std::mem::take(&mut engine.options) {
            match declared.iter().find(|d| d.name.eq_ignore_ascii_case(&option)) {
                None => outln!("Warning; {} doesn't have option {option}", engine.name),
                Some(decl) if decl.kind != "button" && decl.refusal(&value).is_some() => {
                    outln!("Warning; Invalid value for option {option}; {value}")
                }
                Some(_) => kept.push((option, value)),
            }
        }
        engine.options = kept;
    }
    Ok(())
}

/// fastchess's `--compliance ENGINE [ARGS]`: `arena check` of that program
/// with those arguments; exit status 1 if it fails a step (as fastchess).
async fn compliance(words: &[String]) -> CliResult {
    let spec = translate::checked_engine(&words[0], &words[1..])?;
    match super::common::check_one(&spec.name, &spec).await? {
        None => Ok(()),
        Some(failed) => Err(anyhow::anyhow!("{failed} failed the check")),
    }
}

/// What `-help` prints: every option arena reads, from the option tables
/// themselves ([`parse::OPTIONS`], [`parse::ENGINE_KEYS`]: an option added
/// there is listed here), and where the rest is said.
fn help(dialect: Dialect) -> String {
    let keys: Vec<String> = parse::ENGINE_KEYS
        .iter()
        .map(|(key, _)| if *key == "ponder" { (*key).to_string() } else { format!("{key}=") })
        .chain(["option.NAME=".to_string()])
        .collect();
    let options: Vec<String> = parse::OPTIONS
        .iter()
        .map(|(name, _, takes)| if takes.is_empty() { format!("-{name}") } else { format!("-{name} {takes}") })
        .collect();
    format!(
        "arena {}: {}'s command line, played and stored by arena (the guide's page \"Coming from cutechess-cli, fastchess, fishtest or OpenBench\" has the table).\n\
         Read: {};\n\
         the keys of -engine and -each: {};\n\
         --compliance ENGINE [ARGS]. Anything else is refused in one line naming what arena offers instead.",
        dialect.subcommand(),
        dialect.name(),
        options.join("; "),
        keys.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `-help` lists every row of the option tables, so a new option is
    /// listed by its row alone.
    #[test]
    fn help_lists_every_option_and_engine_key_of_the_tables() {
        for dialect in [Dialect::Fastchess, Dialect::Cutechess] {
            let text = help(dialect);
            for (name, _, takes) in parse::OPTIONS {
                let shown = if takes.is_empty() { format!("-{name};") } else { format!("-{name} {takes};") };
                assert!(text.contains(&shown), "-help does not list {shown}\n{text}");
            }
            for (key, _) in parse::ENGINE_KEYS {
                assert!(text.contains(&format!(" {key}")), "-help does not list the engine key {key}\n{text}");
            }
        }
    }
}
