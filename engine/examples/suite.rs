//! Evidence for BENCHMARKS.md: tree sizes and solved counts of the presets on
//! an EPD suite.
//!
//! ```text
//! cargo run --release -p engine --example suite -- FILE COUNT depth=7,8 PRESET[,PRESET…]
//! cargo run --release -p engine --example suite -- FILE COUNT nodes=100000 PRESET[,PRESET…]
//! cargo run --release -p engine --example suite -- FILE COUNT depth=9 nmp2:NullMovePV=1,nmp3:NullMovePV=1
//! cargo run --release -p engine --example suite -- FILE COUNT depth=9 nmp2,nmp3 hash=64
//! ```
//! For each preset and limit: total nodes, positions solved (final best move
//! is one of `bm`), and the counters summed over the positions.

use engine::board::Board;
use engine::game::Game;
use engine::search::{Counters, Limits, PruningConfig, Searcher};
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::{CastlingMode, Chess, Move};

fn parse_epd(line: &str) -> Option<(Chess, Vec<Move>)> {
    let fields: Vec<&str> = line.split_whitespace().collect();
    if fields.len() < 5 {
        return None;
    }
    let fen = format!("{} 0 1", fields[..4].join(" "));
    let pos: Chess = fen.parse::<Fen>().ok()?.into_position(CastlingMode::Standard).ok()?;
    let ops = fields[4..].join(" ");
    let bm = ops.split(';').map(str::trim).find_map(|op| op.strip_prefix("bm "))?;
    let moves = bm
        .split_whitespace()
        .filter_map(|san| san.trim_end_matches(['+', '#', '!', '?']).parse::<San>().ok()?.to_move(&pos).ok())
        .collect();
    Some((pos, moves))
}

/// A preset with options: `nmp2:NullMovePV=1:QuiescenceRecaptures=1`.
fn configure(text: &str) -> PruningConfig {
    let mut parts = text.split(':');
    let mut config = PruningConfig::preset(parts.next().unwrap_or_default()).expect("a preset");
    for part in parts {
        let (name, value) = part.split_once('=').expect("Option=Value");
        let option = PruningConfig::OPTIONS.iter().find(|o| o.name == name).expect("a pruning option");
        (option.set)(&mut config, value.parse().expect("a number"));
    }
    config
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !(4..=5).contains(&args.len()) {
        eprintln!("usage: suite FILE COUNT depth=D[,D…]|nodes=N[,N…] PRESET[,PRESET…] [hash=MB]");
        std::process::exit(2);
    }
    let hash: usize = args.get(4).and_then(|h| h.strip_prefix("hash=")).map_or(16, |mb| mb.parse().expect("hash=MB"));
    let text = std::fs::read_to_string(&args[0]).expect("suite file is readable");
    let count: usize = args[1].parse().expect("COUNT is a number");
    let positions: Vec<(Chess, Vec<Move>)> = text.lines().filter_map(parse_epd).take(count).collect();
    let (kind, values) = args[2].split_once('=').expect("depth=… or nodes=…");
    let values: Vec<u64> = values.split(',').map(|v| v.parse().expect("a number")).collect();
    println!("| preset | limit | nodes | solved | counters |");
    println!("|---|---|---:|---:|---|");
    for preset in args[3].split(',') {
        let config = configure(preset);
        for &value in &values {
            let limits = match kind {
                "depth" => Limits { depth: Some(value as i32), ..Limits::default() },
                _ => Limits { nodes: Some(value), ..Limits::default() },
            };
            let mut searcher = Searcher::new(hash, config.clone());
            let mut total = Counters::default();
            let mut solved = 0;
            for (pos, bm) in &positions {
                searcher.clear();
                let game = Game { board: Board::new(pos.clone()), ..Game::default() };
                let result = searcher.search(&game, &limits, &mut |_| {});
                total.accumulate(&result.counters);
                solved += usize::from(result.best_move.is_some_and(|m| bm.contains(&m)));
            }
            println!("| {preset} | {kind} {value} | {} | {solved}/{} | {total} |", total.nodes, positions.len());
        }
    }
}
