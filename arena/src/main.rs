//! The `arena` command.

use std::io::{BufReader, stdin, stdout};
use std::process::ExitCode;

use arena::cli::{Cli, ClosedPipe, Command, one_line, run_blocking};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser};

/// mimalloc (a maintained allocator, used by many Rust tools) instead of
/// glibc's: reading a run back allocates each move's strings, and glibc's
/// malloc and free were a fifth of an export's time (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // The shell asking for completions (`COMPLETE=bash arena …`): answered, and the process ends.
    arena::cli::docs::answer_completion_request();
    // Run as `fastchess` or `cutechess-cli` (a link to arena): that tool's command line.
    let program = std::env::args().next().unwrap_or_default();
    let parsed = match arena::cli::dialect::Dialect::of_program(&program) {
        Some(dialect) => {
            let words = std::env::args().skip(1);
            let head = ["arena", dialect.subcommand(), "--"].map(String::from);
            Cli::try_parse_from(head.into_iter().chain(words))
        }
        None => Cli::try_parse(),
    };
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => return refused(&e),
    };
    if let Command::EngineUci { pruning, bench } = &cli.command {
        if bench.is_some() {
            return match engine::search::PruningConfig::preset(pruning) {
                Ok(config) => {
                    let result = engine::bench::run(&config, engine::bench::DEFAULT_DEPTH);
                    println!("{} nodes {} nps", result.nodes, result.nps());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("arena {}: {e}", model::spec::BUNDLED_SUBCOMMAND);
                    ExitCode::from(2)
                }
            };
        }
        return match engine::uci::run(BufReader::new(stdin()), stdout(), pruning) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("arena {}: {e}", model::spec::BUNDLED_SUBCOMMAND);
                ExitCode::from(2)
            }
        };
    }
    let done = match run_blocking(cli) {
        Ok(done) => done,
        Err(e) => {
            eprintln!("arena: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<ClosedPipe>() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arena: {}", one_line(&e));
            ExitCode::from(2)
        }
    }
}

/// A command line clap refused, as one line (`arena: invalid value … for
/// '--draw <RULE>': …`), exit status 2; help and the version print whole.
fn refused(error: &clap::Error) -> ExitCode {
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = error.print();
        return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
    }
    let command = std::env::args()
        .nth(1)
        .filter(|word| !word.starts_with('-') && Cli::command().get_subcommands().any(|c| c.get_name() == word));
    let help = command
        .as_ref()
        .map_or("arena --help lists the commands".to_string(), |c| format!("arena {c} --help lists its flags"));
    eprintln!("arena: {} ({help})", refusal(error, command.as_deref()));
    ExitCode::from(2)
}

/// What clap refused, in one line that names what is wrong: the missing
/// arguments by name (clap lists them on lines of their own), a mistyped
/// command with the nearest command.
fn refusal(error: &clap::Error, command: Option<&str>) -> String {
    match (error.kind(), error.get(ContextKind::InvalidArg), error.get(ContextKind::InvalidSubcommand)) {
        // After a run file come this machine's flags; what is played is the file's.
        (ErrorKind::UnknownArgument, Some(ContextValue::String(flag)), _) if command == Some("run") => {
            let key = flag.trim_start_matches('-').split('=').next().unwrap_or_default();
            format!(
                "unexpected argument '{flag}' after the run file: change what the file plays with --set {key}=VALUE, or edit the file"
            )
        }
        (ErrorKind::MissingRequiredArgument, Some(ContextValue::Strings(missing)), _) => {
            format!("the following required arguments were not provided: {}", missing.join(", "))
        }
        (ErrorKind::InvalidSubcommand, _, Some(ContextValue::String(typed))) => {
            let nearest = Cli::command()
                .get_subcommands()
                .filter(|c| !c.is_hide_set())
                .map(|c| (strsim::damerau_levenshtein(typed, c.get_name()), c.get_name().to_string()))
                .filter(|(distance, name)| *distance <= 2 && *distance < name.len())
                .min();
            match nearest {
                Some((_, name)) => format!("unrecognized command '{typed}'; did you mean '{name}'?"),
                None => clap_line(&error.to_string()),
            }
        }
        _ => clap_line(&error.to_string()),
    }
}

/// The first line of clap's message, without its `error: ` and with a
/// `tip:` of the following lines kept.
fn clap_line(said: &str) -> String {
    let mut lines = said.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or_default().trim_start_matches("error: ").to_string();
    match lines.find_map(|l| l.strip_prefix("tip: ")) {
        Some(tip) => format!("{first}; {tip}"),
        None => first,
    }
}
