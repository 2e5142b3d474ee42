//! The `arena` command.

use std::io::{BufReader, stdin, stdout};
use std::process::ExitCode;

use arena::cli::{Cli, ClosedPipe, Command, one_line, run};
use clap::Parser;

/// mimalloc (a maintained allocator, used by many Rust tools) instead of
/// glibc's: reading a run back allocates each move's strings, and glibc's
/// malloc and free were a fifth of an export's time (BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Command::EngineUci { pruning, bench } = &cli.command {
        if bench.is_some() {
            return match engine::search::PruningConfig::preset(pruning) {
                Ok(config) => {
                    let result = engine::bench::run(&config, engine::bench::DEFAULT_DEPTH);
                    println!("{} nodes {} nps", result.nodes, result.nps());
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("arena engine-uci: {e}");
                    ExitCode::from(2)
                }
            };
        }
        return match engine::uci::run(BufReader::new(stdin()), stdout(), pruning) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("arena engine-uci: {e}");
                ExitCode::from(2)
            }
        };
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("arena: cannot start the async runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<ClosedPipe>() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("arena: {}", one_line(&e));
            ExitCode::from(2)
        }
    }
}
