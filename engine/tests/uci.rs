//! The engine driven as a child process over UCI, as a GUI or the arena does.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

/// Generous guard against a hung engine; tests never wait for it to pass.
const GUARD: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_engine"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("engine binary starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, text: &str) {
        self.stdin.write_all(text.as_bytes()).unwrap();
        self.stdin.write_all(b"\n").unwrap();
        self.stdin.flush().unwrap();
    }

    /// All lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self.lines.recv_timeout(GUARD).unwrap_or_else(|_| panic!("no '{prefix}' in {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }

    fn bestmove(&mut self) -> (String, Vec<String>) {
        let lines = self.until("bestmove");
        let best = lines.last().unwrap().split_whitespace().nth(1).unwrap().to_string();
        (best, lines)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.stdin.write_all(b"quit\n");
        let _ = self.child.wait();
    }
}

fn assert_legal(fen: &str, moves: &[&str], best: &str) {
    let mut pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
    for m in moves {
        let m = m.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        pos.play_unchecked(m);
    }
    let m = best.parse::<UciMove>().unwrap_or_else(|_| panic!("'{best}' is not UCI"));
    assert!(m.to_move(&pos).is_ok(), "{best} is illegal");
}

#[test]
fn handshake_lists_options_and_answers_isready() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.until("uciok");
    assert!(lines[0].starts_with("id name"));
    for option in
        ["Hash", "Clear Hash", "Pruning", "NodesTime", "NullMoveR", "FHRMargin", "MultiCutM", "VarNullBoundTMany"]
    {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {option} type"))), "{option} missing");
    }
    engine.send("isready");
    engine.until("readyok");
}

#[test]
fn position_with_moves_and_every_go_limit_give_legal_moves() {
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let moves = ["f1b5", "a7a6"];
    let mut engine = Engine::start();
    engine.send("uci");
    engine.until("uciok");
    for go in [
        "go depth 3",
        "go nodes 5000",
        "go movetime 100",
        "go wtime 2000 btime 2000 winc 20 binc 20",
        "go wtime 3000 btime 3000 movestogo 5",
    ] {
        engine.send(&format!("position fen {fen} moves {}", moves.join(" ")));
        engine.send(go);
        let (best, lines) = engine.bestmove();
        assert_legal(fen, &moves, &best);
        if go == "go nodes 5000" {
            let counters = lines.iter().find(|l| l.starts_with("info string counters")).unwrap();
            let nodes: u64 = counters.split_whitespace().nth(4).unwrap().parse().unwrap();
            assert!(nodes <= 5000, "{counters}");
        }
        if go == "go depth 3" {
            let info = lines.iter().find(|l| l.starts_with("info depth 3 ")).expect("depth 3 reported");
            for field in ["seldepth", "score", "nodes", "nps", "time", "hashfull", "pv"] {
                assert!(info.contains(&format!(" {field} ")), "{field} missing in {info}");
            }
        }
    }
}

#[test]
fn stop_during_go_infinite_answers_within_50_ms() {
    let mut engine = Engine::start();
    engine.send("position startpos");
    engine.send("go infinite");
    engine.until("info depth 5 ");
    let sent = Instant::now();
    engine.send("stop");
    let (best, _) = engine.bestmove();
    let waited = sent.elapsed();
    assert!(waited < Duration::from_millis(50), "stop took {waited:?}");
    assert_legal("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[], &best);
}

#[test]
fn go_nodes_twice_across_ucinewgame_is_identical() {
    let mut engine = Engine::start();
    let run = |engine: &mut Engine| {
        engine.send("ucinewgame");
        engine.send("position startpos moves d2d4 g8f6 c2c4");
        engine.send("go nodes 40000");
        let (best, lines) = engine.bestmove();
        let counters = lines.iter().find(|l| l.starts_with("info string counters")).unwrap().clone();
        (best, counters)
    };
    let first = run(&mut engine);
    let second = run(&mut engine);
    assert_eq!(first, second);
}

#[test]
fn mate_and_stalemate_answer_0000() {
    let mut engine = Engine::start();
    for fen in ["7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "7k/5Q2/5K2/8/8/8/8/8 b - - 0 1"] {
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 4");
        assert_eq!(engine.bestmove().0, "0000");
    }
}

#[test]
fn garbage_is_survived() {
    let mut engine = Engine::start();
    engine.stdin.write_all(b"\xff\xfe\xfd not utf8\n").unwrap();
    engine.send("position fen this is not a fen");
    engine.send("position startpos moves e2e5");
    engine.send("go wtime banana depth");
    engine.send("setoption name NullMoveR value 99");
    engine.send("setoption name Pruning value nmp9");
    engine.send("setoption name NoSuchOption value 1");
    engine.send(&"x".repeat(1 << 20));
    engine.send("");
    engine.send("isready");
    let lines = engine.until("readyok");
    assert!(lines.iter().any(|l| l.contains("invalid FEN")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("NullMoveR must be 1..6")), "{lines:?}");
    assert!(lines.iter().any(|l| l.contains("unknown pruning preset 'nmp9'")), "{lines:?}");
    // The bad `go` above still searched the start position; the engine is alive.
    engine.send("position startpos");
    engine.send("go depth 2");
    let (best, _) = engine.bestmove();
    assert_legal("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[], &best);
}

#[test]
fn pruning_option_switches_presets() {
    let mut engine = Engine::start();
    engine.send("setoption name Pruning value vnm");
    engine.send("position startpos");
    engine.send("go depth 7");
    let (_, lines) = engine.bestmove();
    let counters = lines.iter().find(|l| l.starts_with("info string counters")).unwrap();
    assert!(!counters.contains("null_tries 0 "), "{counters}");
    assert!(!counters.contains("verifications 0 "), "{counters}");
}

/// The engine's threads, by id, from /proc (Linux).
fn threads(engine: &Engine) -> Vec<u64> {
    let dir = format!("/proc/{}/task", engine.child.id());
    let mut ids: Vec<u64> = std::fs::read_dir(dir)
        .map(|entries| entries.filter_map(|e| e.ok()?.file_name().to_str()?.parse().ok()).collect())
        .unwrap_or_default();
    ids.sort_unstable();
    ids
}

#[test]
fn one_search_thread_serves_every_go() {
    let mut engine = Engine::start();
    engine.send("uci");
    engine.until("uciok");
    // Before the first `go`: the main thread only.
    assert_eq!(threads(&engine).len(), 1);
    let mut seen = None;
    for round in 0..12 {
        if round % 4 == 0 {
            engine.send("ucinewgame");
        }
        engine.send("position startpos moves e2e4");
        engine.send(if round % 3 == 2 { "go infinite" } else { "go depth 4" });
        if round % 3 == 2 {
            engine.send("stop");
        }
        let (best, _) = engine.bestmove();
        assert_legal(shakmaty::fen::Fen::default().to_string().as_str(), &["e2e4"], &best);
        engine.send("isready");
        engine.until("readyok");
        // The main thread and the same search thread, after every search.
        let now = threads(&engine);
        assert_eq!(now.len(), 2, "round {round}: {now:?}");
        assert_eq!(*seen.get_or_insert_with(|| now.clone()), now, "round {round}");
    }
}

#[test]
fn go_ponder_searches_until_ponderhit_then_keeps_the_clock_or_answers_stop() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.until("uciok");
    assert!(lines.iter().any(|l| l == "option name Ponder type check default false"), "{lines:?}");
    engine.send("setoption name Ponder value true");
    // Ponder on 1. e4 e5: no bestmove while the opponent thinks, however long.
    engine.send("position startpos moves e2e4 e7e5");
    engine.send("go ponder wtime 1000 btime 1000 winc 0 binc 0");
    engine.until("info depth 4 ");
    engine.send("isready");
    let during = engine.until("readyok");
    assert!(during.iter().all(|l| !l.starts_with("bestmove")), "a bestmove while pondering: {during:?}");
    // ponderhit: the one bestmove comes from a search under the given clock (1 s, so well within it).
    let hit = Instant::now();
    engine.send("ponderhit");
    let (best, lines) = engine.bestmove();
    assert!(hit.elapsed() < Duration::from_millis(900), "{:?}", hit.elapsed());
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    assert_legal("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", &[], &best);
    // A missed ponder move: stop answers with the ponder search's move, at once.
    engine.send("position startpos moves e2e4 c7c5");
    engine.send("go ponder wtime 60000 btime 60000");
    engine.until("info depth 3 ");
    let sent = Instant::now();
    engine.send("stop");
    let (best, _) = engine.bestmove();
    assert!(sent.elapsed() < Duration::from_millis(50), "stop took {:?}", sent.elapsed());
    assert_legal("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", &[], &best);
    // Nothing more: the stopped ponder search printed exactly one bestmove.
    engine.send("isready");
    let after = engine.until("readyok");
    assert_eq!(after, ["readyok"], "{after:?}");
}
