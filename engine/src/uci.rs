//! The UCI protocol: reads GUI commands, runs searches on a worker thread,
//! writes `info` and `bestmove` lines.
//!
//! Input is untrusted: unknown or malformed commands are answered with an
//! `info string` naming the problem, never a crash. Invalid UTF-8 is read
//! lossily.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use shakmaty::CastlingMode;

use crate::game::Game;
use crate::moves::uci;
use crate::score::mate_in_moves;
use crate::search::pruning::PruningConfig;
use crate::search::{Limits, Report, Searcher, Settings};
use crate::time::Clock;

/// Engine name sent in `id name`.
pub const ENGINE_NAME: &str = concat!("arena-engine ", env!("CARGO_PKG_VERSION"));
const DEFAULT_HASH_MB: usize = 16;
const MAX_HASH_MB: usize = 4096;

/// Where the engine writes; shared with the search thread, one line at a time.
#[derive(Clone)]
struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    fn say(&self, line: &str) {
        let mut out = self.0.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        // A closed pipe means the GUI is gone; there is nobody left to tell.
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
}

/// A running search: its stop flag, the release for `go infinite` (true:
/// print the bestmove; false: a ponder search ended by `ponderhit`, whose
/// move nobody asked for), and where the search thread hands the searcher back.
struct Running {
    done: Receiver<Box<Searcher>>,
    stop: Arc<AtomicBool>,
    release: Sender<bool>,
}

/// One search to run: the searcher lent to the thread and what it needs.
struct Job {
    searcher: Box<Searcher>,
    game: Game,
    limits: Limits,
    infinite: bool,
    released: Receiver<bool>,
    done: Sender<Box<Searcher>>,
}

/// The search thread, started once and kept for the engine's lifetime: a
/// thread started per `go` cost the arena's suite runs 15 % against the
/// in-process runner (the start, a cold stack, often another core).
struct SearchThread {
    jobs: Sender<Job>,
    handle: JoinHandle<()>,
}

impl SearchThread {
    fn start(out: Output) -> SearchThread {
        let (jobs, queue) = channel::<Job>();
        let handle = std::thread::spawn(move || {
            for mut job in queue {
                run_search(&mut job.searcher, &job.game, &job.limits, job.infinite, &job.released, &out);
                // Nobody waiting means the engine is quitting.
                let _ = job.done.send(job.searcher);
            }
        });
        SearchThread { jobs, handle }
    }
}

enum Slot {
    Idle(Box<Searcher>),
    Busy(Running),
}

/// The engine's state between commands.
struct Engine {
    out: Output,
    game: Game,
    hash_mb: usize,
    preset: String,
    config: PruningConfig,
    settings: Settings,
    slot: Option<Slot>,
    /// Started at the first `go`.
    thread: Option<SearchThread>,
    /// `UCI_Chess960`: how castling is read and written.
    mode: CastlingMode,
    /// While a `go ponder` search runs: its `go` parameters without
    /// `ponder`, searched afresh at `ponderhit` (the table keeps what the
    /// ponder search found), so the clock runs from `ponderhit`.
    pondering: Option<Vec<String>>,
}

/// Runs the UCI loop until `quit` or end of input. `preset` is the initial
/// value of the `Pruning` option.
///
/// # Errors
///
/// [`crate::search::pruning::UnknownPreset`] when `preset` is not a known preset.
pub fn run(
    input: impl BufRead,
    output: impl Write + Send + 'static,
    preset: &str,
) -> Result<(), crate::search::pruning::UnknownPreset> {
    let config = PruningConfig::preset(preset)?;
    let mut engine = Engine {
        out: Output(Arc::new(Mutex::new(Box::new(output)))),
        game: Game::default(),
        hash_mb: DEFAULT_HASH_MB,
        preset: preset.to_string(),
        slot: Some(Slot::Idle(Box::new(Searcher::new(DEFAULT_HASH_MB, config.clone())))),
        config,
        settings: Settings::default(),
        thread: None,
        mode: CastlingMode::Standard,
        pondering: None,
    };
    let mut input = input;
    let mut buffer = Vec::new();
    loop {
        buffer.clear();
        match input.read_until(b'\n', &mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&buffer);
        if !engine.handle(line.trim()) {
            break;
        }
    }
    engine.idle_searcher();
    if let Some(thread) = engine.thread.take() {
        drop(thread.jobs);
        let _ = thread.handle.join();
    }
    Ok(())
}

impl Engine {
    /// Handles one command line; false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let mut tokens = line.split_whitespace();
        let Some(command) = tokens.next() else { return true };
        let rest: Vec<&str> = tokens.collect();
        match command {
            "uci" => self.identify(),
            "isready" => self.out.say("readyok"),
            "ucinewgame" => {
                self.idle_searcher().clear();
                self.game = Game { mode: self.mode, ..Game::default() };
            }
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" => {
                self.idle_searcher();
            }
            "ponderhit" => self.ponderhit(),
            "setoption" => self.set_option(&rest),
            "quit" => return false,
            other => self.out.say(&format!("info string unknown command '{}'", truncate(other))),
        }
        true
    }

    fn identify(&self) {
        self.out.say(&format!("id name {ENGINE_NAME}"));
        self.out.say("id author the arena developers");
        self.out.say(&format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"));
        self.out.say("option name Clear Hash type button");
        self.out.say(&format!(
            "option name Move Overhead type spin default {} min 0 max 5000",
            Settings::default().move_overhead_ms
        ));
        self.out.say("option name NodesTime type spin default 0 min 0 max 1000000");
        self.out.say("option name UCI_Chess960 type check default false");
        self.out.say("option name Ponder type check default false");
        self.out.say(&format!("option name Pruning type string default {}", self.preset));
        for spec in PruningConfig::OPTIONS {
            let value = (spec.get)(&self.config);
            match spec.range {
                Some((min, max)) => {
                    self.out.say(&format!("option name {} type spin default {value} min {min} max {max}", spec.name))
                }
                None => self.out.say(&format!("option name {} type check default {}", spec.name, value != 0)),
            }
        }
        self.out.say("uciok");
    }

    /// Stops any running search, waits for it, and lends out the searcher.
    fn idle_searcher(&mut self) -> &mut Searcher {
        self.stop_search(true)
    }

    /// `ponderhit`: the expected move was played; the ponder search ends
    /// without a bestmove and the search the `go ponder` asked for starts now.
    fn ponderhit(&mut self) {
        let Some(args) = self.pondering.take() else {
            self.out.say("info string ponderhit without go ponder ignored");
            return;
        };
        self.stop_search(false);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        self.go(&args);
    }

    /// Stops any running search (its bestmove printed if `print`), waits
    /// for it, and lends out the searcher.
    fn stop_search(&mut self, print: bool) -> &mut Searcher {
        if print {
            self.pondering = None;
        }
        let searcher = match self.slot.take() {
            Some(Slot::Idle(searcher)) => searcher,
            Some(Slot::Busy(running)) => {
                running.stop.store(true, Ordering::Relaxed);
                let _ = running.release.send(print);
                match running.done.recv() {
                    Ok(searcher) => searcher,
                    Err(_) => {
                        // The thread panicked with the searcher: a new thread at the next `go`.
                        self.thread = None;
                        self.out.say("info string search thread failed; starting afresh");
                        Box::new(Searcher::new(self.hash_mb, self.config.clone()))
                    }
                }
            }
            None => Box::new(Searcher::new(self.hash_mb, self.config.clone())),
        };
        self.slot = Some(Slot::Idle(searcher));
        match self.slot.as_mut() {
            Some(Slot::Idle(searcher)) => searcher,
            _ => unreachable!("the slot was just set to idle"),
        }
    }

    fn position(&mut self, args: &[&str]) {
        self.idle_searcher();
        let moves_at = args.iter().position(|t| *t == "moves");
        let setup = &args[..moves_at.unwrap_or(args.len())];
        let moves: &[&str] = moves_at.map_or(&[], |i| &args[i + 1..]);
        let fen = match setup.first() {
            Some(&"startpos") => None,
            Some(&"fen") => Some(setup[1..].join(" ")),
            _ => {
                self.out.say("info string position needs 'startpos' or 'fen <FEN>'");
                return;
            }
        };
        match Game::from_uci_in(self.mode, fen.as_deref(), moves) {
            Ok(game) => self.game = game,
            Err(e) => self.out.say(&format!("info string {}; position unchanged", truncate(&e.to_string()))),
        }
    }

    fn go(&mut self, args: &[&str]) {
        let (limits, infinite) = self.parse_go(args);
        let white = shakmaty::Position::turn(self.game.board.position()).is_white();
        let ponder = args.contains(&"ponder");
        // A ponder search has no limit until `ponderhit` gives it its own.
        let limits = if ponder { Limits::default() } else { Limits { clock: limits.clock_for(white), ..limits.base } };
        self.idle_searcher();
        self.pondering = ponder.then(|| args.iter().filter(|a| **a != "ponder").map(|a| (*a).to_string()).collect());
        let Some(Slot::Idle(mut searcher)) = self.slot.take() else { unreachable!("the searcher was just made idle") };
        searcher.config = self.config.clone();
        searcher.settings = self.settings.clone();
        let stop = searcher.stop_handle();
        stop.store(false, Ordering::Relaxed);
        let (release, released) = channel();
        let (done, finished) = channel();
        let out = self.out.clone();
        let thread = self.thread.get_or_insert_with(|| SearchThread::start(out));
        let job = Job { searcher, game: self.game.clone(), limits, infinite, released, done };
        if let Err(refused) = thread.jobs.send(job) {
            // The thread is gone (it panicked): start another and hand it the job.
            let again = self.thread.insert(SearchThread::start(self.out.clone()));
            let _ = again.jobs.send(refused.0);
        }
        self.slot = Some(Slot::Busy(Running { done: finished, stop, release }));
    }

    fn parse_go(&self, args: &[&str]) -> (GoLimits, bool) {
        let mut go = GoLimits::default();
        let mut infinite = false;
        let mut i = 0;
        while i < args.len() {
            let key = args[i];
            let value = args.get(i + 1).and_then(|v| v.parse::<i64>().ok());
            let mut takes_value = true;
            match (key, value) {
                ("infinite", _) => {
                    infinite = true;
                    takes_value = false;
                }
                ("ponder", _) => {
                    infinite = true;
                    takes_value = false;
                }
                ("wtime", Some(v)) => go.wtime = Some(v.max(0) as u64),
                ("btime", Some(v)) => go.btime = Some(v.max(0) as u64),
                ("winc", Some(v)) => go.winc = v.max(0) as u64,
                ("binc", Some(v)) => go.binc = v.max(0) as u64,
                ("movestogo", Some(v)) => go.moves_to_go = u32::try_from(v).ok().filter(|m| *m > 0),
                ("movetime", Some(v)) => go.base.movetime_ms = Some(v.max(0) as u64),
                ("depth", Some(v)) => go.base.depth = Some(v.clamp(1, 1000) as i32),
                ("nodes", Some(v)) => go.base.nodes = Some(v.max(1) as u64),
                ("mate", Some(v)) => go.base.depth = Some((2 * v.clamp(1, 60) - 1) as i32),
                _ => {
                    self.out.say(&format!("info string ignoring go parameter '{}'", truncate(key)));
                    takes_value = false;
                }
            }
            i += if takes_value { 2 } else { 1 };
        }
        (go, infinite)
    }

    fn set_option(&mut self, args: &[&str]) {
        self.idle_searcher();
        let value_at = args.iter().position(|t| t.eq_ignore_ascii_case("value"));
        let name_words = &args
            [args.first().is_some_and(|t| t.eq_ignore_ascii_case("name")) as usize..value_at.unwrap_or(args.len())];
        let name = name_words.join(" ");
        let value = value_at.map(|i| args[i + 1..].join(" ")).unwrap_or_default();
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "hash" => match value.parse::<usize>() {
                Ok(mb) if (1..=MAX_HASH_MB).contains(&mb) => {
                    self.hash_mb = mb;
                    self.idle_searcher().resize(mb);
                }
                _ => {
                    self.out.say(&format!("info string Hash must be 1..{MAX_HASH_MB} MiB, got '{}'", truncate(&value)))
                }
            },
            "clear hash" => self.idle_searcher().clear(),
            "uci_chess960" => match value.to_ascii_lowercase().as_str() {
                "true" => self.mode = CastlingMode::Chess960,
                "false" => self.mode = CastlingMode::Standard,
                _ => {
                    self.out.say(&format!("info string UCI_Chess960 must be true or false, got '{}'", truncate(&value)))
                }
            },
            // Pondering is asked for by `go ponder`; the option only says that the engine can.
            "ponder" => {}
            "move overhead" => match value.parse::<u64>() {
                Ok(ms) if ms <= 5000 => self.settings.move_overhead_ms = ms,
                _ => self.out.say(&format!("info string Move Overhead must be 0..5000 ms, got '{}'", truncate(&value))),
            },
            "nodestime" => match value.parse::<u64>() {
                Ok(n) if n <= 1_000_000 => self.settings.nodes_per_ms = n,
                _ => self.out.say(&format!("info string NodesTime must be 0..1000000, got '{}'", truncate(&value))),
            },
            "pruning" => match PruningConfig::preset(&value) {
                Ok(config) => {
                    self.config = config;
                    self.preset = value;
                }
                Err(e) => self.out.say(&format!("info string {}", truncate(&e.to_string()))),
            },
            _ => match self.config.set_option(&name, &value) {
                Ok(true) => {}
                Ok(false) => self.out.say(&format!("info string unknown option '{}'", truncate(&name))),
                Err(expected) => self.out.say(&format!("info string {expected}, got '{}'", truncate(&value))),
            },
        }
    }
}

/// `go` parameters before the side to move picks its clock.
#[derive(Default)]
struct GoLimits {
    base: Limits,
    wtime: Option<u64>,
    btime: Option<u64>,
    winc: u64,
    binc: u64,
    moves_to_go: Option<u32>,
}

impl GoLimits {
    fn clock_for(&self, white: bool) -> Option<Clock> {
        let (time, increment) = if white { (self.wtime, self.winc) } else { (self.btime, self.binc) };
        time.map(|t| Clock { time_left_ms: t, increment_ms: increment, moves_to_go: self.moves_to_go })
    }
}

fn run_search(
    searcher: &mut Searcher,
    game: &Game,
    limits: &Limits,
    infinite: bool,
    released: &Receiver<bool>,
    out: &Output,
) {
    let mode = game.mode;
    let started = std::time::Instant::now();
    let result = searcher.search(game, limits, &mut |report| out.say(&info_line(report, mode)));
    // The whole search, unfinished iteration included, as Stockfish ends a
    // search: what a GUI compares its own clock with.
    let time_ms = started.elapsed().as_millis() as u64;
    // UCI: after `go infinite` or `go ponder` the bestmove waits for `stop`;
    // a ponder search ended by `ponderhit` prints none.
    if infinite && !released.recv().unwrap_or(true) {
        return;
    }
    let nodes = result.counters.nodes;
    out.say(&format!("info nodes {nodes} time {time_ms} nps {}", nodes * 1000 / time_ms.max(1)));
    out.say(&format!("info string counters {}", result.counters));
    let best = result.best_move.map_or_else(|| "0000".to_string(), |m| uci(m, mode));
    // The reply it expects, for a GUI that lets it ponder: the PV's second move.
    match (result.pv.first(), result.pv.get(1)) {
        (Some(first), Some(reply)) if Some(*first) == result.best_move => {
            out.say(&format!("bestmove {best} ponder {}", uci(*reply, mode)));
        }
        _ => out.say(&format!("bestmove {best}")),
    }
}

/// Formats a completed iteration as a UCI `info` line (moves written for `mode`).
pub fn info_line(r: &Report, mode: CastlingMode) -> String {
    let score = match mate_in_moves(r.score) {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {}", r.score),
    };
    let pv: Vec<String> = r.pv.iter().map(|m| uci(*m, mode)).collect();
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} time {} hashfull {} pv {}",
        r.depth,
        r.seldepth,
        r.nodes,
        r.nps(),
        r.time_ms,
        r.hashfull,
        pv.join(" ")
    )
}

/// Echoes of user input are cut to keep replies to hostile input short.
fn truncate(text: &str) -> String {
    text.chars().take(200).collect()
}
