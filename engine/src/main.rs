//! The `engine` binary: the UCI loop, or `bench`.

use std::io::{BufReader, stdin, stdout};
use std::process::ExitCode;

use engine::bench;
use engine::search::PruningConfig;
use engine::search::pruning::PRESETS;

const USAGE: &str = "usage: engine [--pruning PRESET]            speak UCI on stdin/stdout
       engine bench [DEPTH] [--pruning PRESET]  fixed-depth search of the bench positions
presets: plain nmp1 nmp2 nmp3 nmp-adaptive vnm fhr multicut vnb, combined with '+'";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut preset = "plain".to_string();
    let mut bench_depth: Option<Option<i32>> = None;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--pruning" => match args.get(i + 1) {
                Some(name) => {
                    preset = name.clone();
                    i += 1;
                }
                None => return fail("--pruning needs a preset name"),
            },
            "bench" => bench_depth = Some(None),
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            other => match (bench_depth, other.parse::<i32>()) {
                (Some(None), Ok(depth)) if (1..=64).contains(&depth) => bench_depth = Some(Some(depth)),
                _ => return fail(&format!("unexpected argument '{other}'")),
            },
        }
        i += 1;
    }
    let config = match PruningConfig::preset(&preset) {
        Ok(config) => config,
        Err(e) => return fail(&e.to_string()),
    };
    match bench_depth {
        Some(depth) => {
            let result = bench::run(&config, depth.unwrap_or(bench::DEFAULT_DEPTH));
            println!("info string counters {}", result.counters);
            println!("{} nodes {} nps", result.nodes, result.nps());
        }
        None => {
            if let Err(e) = engine::uci::run(BufReader::new(stdin()), stdout(), &preset) {
                return fail(&e.to_string());
            }
        }
    }
    ExitCode::SUCCESS
}

fn fail(message: &str) -> ExitCode {
    eprintln!("engine: {message} (known presets: {})\n{USAGE}", PRESETS.join(", "));
    ExitCode::from(2)
}
