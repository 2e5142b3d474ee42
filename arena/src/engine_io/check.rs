//! `arena check`: an engine's UCI behaviour, step by step, before a long run
//! trusts it. Each step passes, warns (the engine works, but something a
//! run depends on is off) or fails (a run would lose games to it), with the
//! line or the time that decided it.
//!
//! The steps: start (`uci` → `uciok`, `isready` → `readyok`), `isready`
//! alone, every declared option at its bounds, `ucinewgame`, `go` with a
//! clock, `movetime`, `depth`, `nodes`, four games against itself at `go
//! nodes`, `infinite` then `isready` and `stop`, the bestmove, ponder moves,
//! PVs and scores of the single searches, `UCI_Chess960` when declared, and
//! `quit`.

use std::time::Duration;

use model::node_limit_kept;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};
use tokio::time::Instant;

use crate::engine_io::engines::{EngineSpec, Launch};
use crate::engine_io::process::{EngineError, EngineProcess, Timeouts};
use crate::engine_io::uci::output::{EngineLine, parse};
use crate::engine_io::uci::{CHESS960_OPTION, command};

/// A step's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// As the protocol says.
    Pass,
    /// Works, with a caveat a run should know.
    Warn,
    /// A run would lose games to it.
    Fail,
}

impl Status {
    /// `pass`, `warn` or `FAIL`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warn => "warn",
            Status::Fail => "FAIL",
        }
    }
}

/// One step of the check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// What was tried.
    pub step: &'static str,
    /// How it went.
    pub status: Status,
    /// Times, counts, or the line that failed.
    pub detail: String,
}

/// What `arena check` found for one engine.
#[derive(Clone, Debug)]
pub struct Compliance {
    /// The engine's `id name`.
    pub id_name: Option<String>,
    /// The steps, in the order they ran.
    pub findings: Vec<Finding>,
}

impl Compliance {
    /// The worst status of any step.
    pub fn worst(&self) -> Status {
        self.findings.iter().map(|f| f.status).max().unwrap_or(Status::Pass)
    }
}

/// The positions searched: the start after 1. e4 e5, a middlegame (Kiwipete,
/// the perft suite's position 2, where every kind of move is legal), and a
/// Chess960 start (Scharnagl's number 0, BBQNNRKR) with castling rights.
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const CHESS960_START: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";

/// Hash and Threads are tried at their minimum and at most at these values,
/// not at their declared maximum (Stockfish's 33,554,432 MB, 1,024 threads),
/// which would take the machine rather than test the engine.
const HASH_CAP_MB: i64 = 256;

/// The game step: its openings (the start position and three first
/// moves), the longest game in plies, and the node limit per move: a node
/// budget as small as runs use, for long enough that an engine failing
/// only some searches into a game fails here (Debian's Glaurung 2.2
/// answered `bestmove (none)` in 3 of its 4 games at `nodes=2000`, and
/// within one 80-ply game in 7 of 8 checks).
const GAME_OPENINGS: [&str; 4] = ["", "e2e4 c7c5", "d2d4 g8f6", "c2c4 e7e5"];
const GAME_PLIES: usize = 80;
const GAME_NODES: u64 = 1000;
/// The game step's name.
const GAME_STEP: &str = "games at go nodes";
/// How long one of the game's searches may take.
const GAME_WAIT: Duration = Duration::from_secs(5);

/// A search's lines and answer.
struct Search {
    /// Every line printed before `bestmove`.
    lines: Vec<String>,
    /// `bestmove`'s move, and its ponder move.
    best: Option<String>,
    ponder: Option<String>,
    /// From writing `go` to reading `bestmove`.
    elapsed: Duration,
    /// The position searched.
    position: Chess,
    /// Its castling notation.
    mode: CastlingMode,
    /// The step that searched it.
    step: &'static str,
}

/// Checks the engine `spec` launched as `launch`.
pub async fn check(spec: &EngineSpec, launch: &Launch, timeouts: Timeouts) -> Compliance {
    let mut findings = Vec::new();
    let started = Instant::now();
    let mut process = match EngineProcess::start(spec, launch, &[], None, timeouts, None).await {
        Ok(process) => process,
        Err(e) => {
            findings.push(fail("start", e.to_string()));
            return Compliance { id_name: None, findings };
        }
    };
    let id_name = process.id_name().map(str::to_string);
    let start_ms = started.elapsed().as_millis();
    findings.push(match &id_name {
        Some(name) => pass("start", format!("uciok and readyok after {start_ms} ms; id name {name}")),
        None => warn("start", format!("uciok and readyok after {start_ms} ms, but no 'id name' line")),
    });
    let ready = Instant::now();
    findings.push(match process.ready(timeouts.ready).await {
        Ok(()) => pass("isready", format!("readyok after {} ms", ready.elapsed().as_millis())),
        Err(e) => fail("isready", e.to_string()),
    });
    findings.push(options(spec, launch, &process, timeouts).await);
    let new_game = Instant::now();
    findings.push(match process.new_game(timeouts.ready).await {
        Ok(()) => pass("ucinewgame", format!("readyok after {} ms", new_game.elapsed().as_millis())),
        Err(e) => fail("ucinewgame", e.to_string()),
    });
    let mut searches = Vec::new();
    searches_with_limits(&mut process, &mut findings, &mut searches).await;
    // The game needs an engine that stops at `go nodes` and answers legal
    // moves to single searches; otherwise those steps already failed.
    let nodes_kept = findings.iter().any(|f| f.step == "go nodes" && f.status != Status::Fail);
    let mut idle = true;
    if nodes_kept && judge_moves(&searches).is_none() {
        let (finding, answered) = games(&mut process, timeouts).await;
        idle = answered;
        findings.push(finding);
    }
    // The steps that follow need an engine that has answered every search;
    // a wrong answer in the game leaves it waiting, as a fault of options does.
    if idle && findings.iter().all(|f| f.status != Status::Fail || f.step == "options" || f.step == GAME_STEP) {
        findings.push(infinite(&mut process).await);
    }
    findings.extend(judge_searches(&searches));
    if process.declared(CHESS960_OPTION).is_some() {
        findings.push(chess960(&mut process, timeouts).await);
    }
    findings.push(match process.quit_timed(Duration::from_secs(2)).await {
        Some(took) => pass("quit", format!("exited {} ms after quit", took.as_millis())),
        None => fail("quit", "still running 2000 ms after quit (killed)".into()),
    });
    Compliance { id_name, findings }
}

/// Every declared option set at its bounds (spin: min and max, Hash and
/// Threads capped; check: both; combo: every value; string: its default;
/// button: pressed), each followed by `isready`, on a process of its own.
async fn options(spec: &EngineSpec, launch: &Launch, first: &EngineProcess, timeouts: Timeouts) -> Finding {
    let cpus = std::thread::available_parallelism().map_or(1, |n| i64::try_from(n.get()).unwrap_or(1));
    let mut tries: Vec<(String, String)> = Vec::new();
    let mut capped = Vec::new();
    for decl in first.declared_options() {
        if decl.name.eq_ignore_ascii_case(CHESS960_OPTION) {
            continue;
        }
        let name = decl.name.clone();
        match decl.kind.as_str() {
            "spin" => {
                let (min, max) = (decl.min.unwrap_or(0), decl.max.unwrap_or(0));
                let cap = match name.to_ascii_lowercase().as_str() {
                    "hash" => Some(HASH_CAP_MB),
                    "threads" => Some(cpus),
                    _ => None,
                };
                let top = cap.map_or(max, |cap| max.min(cap.max(min)));
                if top < max {
                    capped.push(format!("{name} at {top} of {max}"));
                }
                tries.push((name.clone(), min.to_string()));
                tries.push((name, top.to_string()));
            }
            "check" => {
                tries.push((name.clone(), "true".into()));
                tries.push((name, "false".into()));
            }
            "combo" => tries.extend(decl.vars.iter().map(|v| (name.clone(), v.clone()))),
            "string" => tries.push((name, decl.default.clone().unwrap_or_default())),
            "button" => tries.push((name, String::new())),
            _ => {}
        }
    }
    // A value that kills the engine is noted and the rest are tried on a new process.
    let mut failures = Vec::new();
    let mut process = None;
    for (name, value) in &tries {
        let line = if value.is_empty() && first.declared(name).is_some_and(|d| d.kind == "button") {
            command::setoption(name, None)
        } else {
            command::setoption(name, Some(value))
        };
        if process.is_none() {
            match EngineProcess::start(spec, launch, &[], None, timeouts, None).await {
                Ok(started) => process = Some(started),
                Err(e) => return fail("options", format!("a second process did not start: {e}")),
            }
        }
        let Some(running) = process.as_mut() else { continue };
        let answered = match running.write_line(&line).await {
            Ok(()) => running.ready(timeouts.ready).await,
            Err(e) => Err(e),
        };
        if let Err(e) = answered {
            failures.push(format!("'{line}': {e}"));
            if let Some(dead) = process.take() {
                dead.kill().await;
            }
        }
    }
    if let Some(process) = process {
        process.quit(timeouts.quit).await;
    }
    let count = first.declared_options().len();
    let cap = if capped.is_empty() { String::new() } else { format!(" ({})", capped.join(", ")) };
    if failures.is_empty() {
        pass("options", format!("{count} declared, {} values set and answered readyok{cap}", tries.len()))
    } else {
        let tried = tries.len();
        fail("options", format!("{} of {tried} values failed: {}{cap}", failures.len(), failures.join("; ")))
    }
}

/// `go` with a clock, `movetime`, `depth` and `nodes`.
async fn searches_with_limits(process: &mut EngineProcess, findings: &mut Vec<Finding>, searches: &mut Vec<Search>) {
    let opened = "position startpos moves e2e4 e7e5";
    let clock = "go wtime 10000 btime 10000 winc 100 binc 100 movestogo 20";
    let kiwipete = command::position(KIWIPETE, &[]);
    let steps: [(&'static str, &str, &str, u64); 4] = [
        ("go wtime/btime", opened, clock, 10_000),
        ("go movetime", &kiwipete, "go movetime 300", 300),
        ("go depth", opened, "go depth 4", 30_000),
        ("go nodes", &kiwipete, "go nodes 20000", 30_000),
    ];
    for (step, position, go, allowed_ms) in steps {
        let board = board_of(position);
        match search(process, step, position, go, board, Duration::from_millis(allowed_ms + 5_000)).await {
            Ok(found) => {
                findings.push(judge_limit(&found, go, allowed_ms));
                searches.push(found);
            }
            Err(detail) => {
                findings.push(fail(step, detail.to_string()));
                return;
            }
        }
    }
}

/// How a search kept to its limit.
fn judge_limit(found: &Search, go: &str, allowed_ms: u64) -> Finding {
    let ms = found.elapsed.as_millis();
    let step = found.step;
    match step {
        "go movetime" if ms > u128::from(allowed_ms) => warn(
            step,
            format!(
                "'{go}' answered after {ms} ms: under st= it needs timemargin={} or more",
                ms - u128::from(allowed_ms)
            ),
        ),
        "go wtime/btime" if ms > u128::from(allowed_ms) => {
            fail(step, format!("'{go}' answered after {ms} ms: it would lose on time"))
        }
        "go nodes" => {
            let nodes = found.lines.iter().rev().find_map(|line| match parse(line) {
                EngineLine::Info(info) => info.nodes,
                _ => None,
            });
            match nodes {
                Some(n) if !node_limit_kept(20_000, n) => {
                    warn(step, format!("'{go}' searched {n} nodes: nodes= time controls are not exact with it"))
                }
                Some(n) => pass(step, format!("'{go}' answered after {ms} ms, {n} nodes")),
                None => warn(step, format!("'{go}' answered after {ms} ms, without reporting nodes")),
            }
        }
        _ => pass(step, format!("'{go}' answered after {ms} ms")),
    }
}

/// Games against itself at `go nodes` [`GAME_NODES`], as a run plays them
/// (`ucinewgame`, then the opening and the moves so far before each
/// `go`), one from each of [`GAME_OPENINGS`], each for [`GAME_PLIES`]
/// plies or to its end: every answer a legal move. With whether every
/// search was answered (the engine is idle).
async fn games(process: &mut EngineProcess, timeouts: Timeouts) -> (Finding, bool) {
    let step = GAME_STEP;
    let go = format!("go nodes {GAME_NODES}");
    let started = Instant::now();
    let mut plies = 0;
    for (number, opening) in GAME_OPENINGS.iter().enumerate() {
        if let Err(e) = process.new_game(timeouts.ready).await {
            return (fail(step, e.to_string()), false);
        }
        let mut moves: Vec<String> = opening.split_whitespace().map(str::to_string).collect();
        let mut board = openings::play_out(openings::START_FEN, opening.split_whitespace());
        while moves.len() < GAME_PLIES && !board.is_game_over() {
            let position = command::position(openings::START_FEN, &moves);
            let at = format!("game {}, ply {}", number + 1, moves.len() + 1);
            let searched = search(process, step, &position, &go, (board.clone(), CastlingMode::Standard), GAME_WAIT);
            let found = match searched.await {
                Ok(found) => found,
                Err(detail) => return (fail(step, format!("{at}: {detail}")), false),
            };
            let legal = found.best.as_ref().and_then(|text| text.parse::<UciMove>().ok()?.to_move(&board).ok());
            let Some(mv) = legal else {
                let answer = found.best.as_deref().unwrap_or("(none)");
                let fen = shakmaty::fen::Fen::from_position(&board, shakmaty::EnPassantMode::Legal);
                return (fail(step, format!("{at}: 'bestmove {answer}' is not a legal move in '{fen}'")), true);
            };
            moves.extend(found.best);
            board.play_unchecked(mv);
            plies += 1;
        }
    }
    let ms = started.elapsed().as_millis();
    let count = GAME_OPENINGS.len();
    (pass(step, format!("{count} games, {plies} moves, each legal, in {ms} ms")), true)
}

/// `go infinite`: no `bestmove` before `stop`, `readyok` during the search,
/// `bestmove` soon after `stop`.
async fn infinite(process: &mut EngineProcess) -> Finding {
    let step = "go infinite, stop";
    let position = command::position(KIWIPETE, &[]);
    for line in [position.as_str(), "go infinite"] {
        if let Err(e) = process.write_line(line).await {
            return fail(step, e.to_string());
        }
    }
    // Lines printed in the first 300 ms: no bestmove may be among them.
    let quiet_until = Instant::now() + Duration::from_millis(300);
    loop {
        match process.line_before(quiet_until).await {
            Ok(Some(line)) if line.split_whitespace().next() == Some("bestmove") => {
                return fail(step, format!("'{line}' before stop: go infinite must search until stop"));
            }
            Ok(Some(_)) => {}
            Ok(None) => break,
            Err(e) => return fail(step, e.to_string()),
        }
    }
    let asked = Instant::now();
    if let Err(e) = process.write_line("isready").await {
        return fail(step, e.to_string());
    }
    let ready_ms = match wait_for(process, "readyok", Duration::from_secs(2)).await {
        Ok(found) => found.map(|_| asked.elapsed().as_millis()),
        Err(e) => return fail(step, e.to_string()),
    };
    let stopped = Instant::now();
    if let Err(e) = process.write_line("stop").await {
        return fail(step, e.to_string());
    }
    let answer = wait_for(process, "bestmove", Duration::from_secs(2)).await;
    let ms = stopped.elapsed().as_millis();
    let Some(ready_ms) = ready_ms else {
        // The search is stopped all the same, so that the next step starts idle;
        // a late readyok is read and dropped with the search's lines.
        let _ = wait_for(process, "readyok", Duration::from_millis(500)).await;
        return fail(step, "no readyok within 2000 ms of isready during the search".into());
    };
    match answer {
        Ok(Some(line)) => {
            let detail = format!("readyok during the search after {ready_ms} ms; '{line}' {ms} ms after stop");
            if ms > 200 { warn(step, detail) } else { pass(step, detail) }
        }
        Ok(None) => fail(step, "no bestmove within 2000 ms of stop".into()),
        Err(e) => fail(step, e.to_string()),
    }
}

/// `UCI_Chess960`: a move from a Chess960 start, in its castling notation.
async fn chess960(process: &mut EngineProcess, timeouts: Timeouts) -> Finding {
    let step = "UCI_Chess960";
    if let Err(e) = process.write_line(&command::setoption(CHESS960_OPTION, Some("true"))).await {
        return fail(step, e.to_string());
    }
    if let Err(e) = process.new_game(timeouts.ready).await {
        return fail(step, e.to_string());
    }
    let position = command::position(CHESS960_START, &[]);
    let board = openings::position_of(CHESS960_START).map(|p| (p, CastlingMode::Chess960));
    let Ok(board) = board else { return fail(step, "the test position does not read".into()) };
    let found = match search(process, step, &position, "go depth 3", board, Duration::from_secs(30)).await {
        Ok(found) => found,
        Err(detail) => return fail(step, detail.to_string()),
    };
    let _ = process.write_line(&command::setoption(CHESS960_OPTION, Some("false"))).await;
    match judge_moves(&[found]) {
        Some(problem) => fail(step, problem),
        None => pass(step, "a legal move from a Chess960 start (BBQNNRKR)".into()),
    }
}

/// The checks over every search: bestmoves, ponder moves, PVs and scores.
fn judge_searches(searches: &[Search]) -> Vec<Finding> {
    let count = searches.len();
    let best = match judge_moves(searches) {
        Some(problem) => fail("bestmove, ponder", problem),
        None => pass("bestmove, ponder", format!("legal in all {count} searches")),
    };
    let mut pvs = 0;
    let mut pv_problem = None;
    let mut score_problem = None;
    let mut scores = 0;
    for found in searches {
        for line in &found.lines {
            if !line.starts_with("info") {
                continue;
            }
            if let Some(problem) = score_syntax(line) {
                score_problem.get_or_insert(format!("{}: {problem} in '{}'", found.step, clip(line)));
            } else if line.split_whitespace().any(|t| t == "score") {
                scores += 1;
            }
            if let EngineLine::Info(info) = parse(line)
                && !info.pv.is_empty()
            {
                pvs += 1;
                if let Some(bad) = illegal_in(&found.position, found.mode, &info.pv) {
                    pv_problem.get_or_insert(format!("{}: PV move '{bad}' is illegal in '{}'", found.step, clip(line)));
                }
            }
        }
    }
    let pv = match (pv_problem, pvs) {
        (Some(problem), _) => fail("PVs", problem),
        (None, 0) => warn("PVs", "no info line with a pv: the PGN and mate checks have nothing to read".into()),
        (None, n) => pass("PVs", format!("{n} PVs, every move legal")),
    };
    let score = match (score_problem, scores) {
        (Some(problem), _) => fail("scores", problem),
        (None, 0) => warn("scores", "no info line with a score: adjudication cannot work".into()),
        (None, n) => pass("scores", format!("{n} scores, each cp or mate with an integer")),
    };
    vec![best, pv, score]
}

/// The first illegal bestmove or ponder move of `searches`, described.
fn judge_moves(searches: &[Search]) -> Option<String> {
    for found in searches {
        let Some(best) = &found.best else {
            return Some(format!("{}: bestmove without a move in a live position", found.step));
        };
        let mut moves = vec![best.clone()];
        moves.extend(found.ponder.clone());
        if let Some(bad) = illegal_in(&found.position, found.mode, &moves) {
            let what = if &bad == best { "bestmove" } else { "ponder move" };
            return Some(format!("{}: {what} '{bad}' is illegal", found.step));
        }
    }
    None
}

/// The first move of `moves` that is not legal when played in turn from `position`.
fn illegal_in(position: &Chess, mode: CastlingMode, moves: &[String]) -> Option<String> {
    let mut board = position.clone();
    for text in moves {
        let legal = text.parse::<UciMove>().ok().and_then(|m| m.to_move(&board).ok());
        // Chess960 castling is king-takes-rook; in a standard game e1g1 is the castle.
        let legal = legal.filter(|m| !(mode.is_chess960() && m.is_castle() && !text.ends_with(&rook_square(m))));
        match legal {
            Some(mv) => board.play_unchecked(mv),
            None => return Some(text.clone()),
        }
    }
    None
}

/// The rook's square of a castling move, as Chess960 notation writes its target.
fn rook_square(mv: &shakmaty::Move) -> String {
    match mv {
        shakmaty::Move::Castle { rook, .. } => rook.to_string(),
        _ => String::new(),
    }
}

/// What is wrong with an info line's score, if anything: `score` must be
/// followed by `cp N` or `mate N`, optionally by `lowerbound` or `upperbound`.
fn score_syntax(line: &str) -> Option<&'static str> {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let at = tokens.iter().position(|t| *t == "score")?;
    match (tokens.get(at + 1), tokens.get(at + 2)) {
        (Some(&"cp" | &"mate"), Some(value)) if value.parse::<i64>().is_ok() => None,
        (Some(&"cp" | &"mate"), _) => Some("a score without an integer"),
        _ => Some("a score that is neither cp nor mate"),
    }
}

/// The position a `position …` command sets, standard castling.
fn board_of(position: &str) -> (Chess, CastlingMode) {
    let rest = position.trim_start_matches("position").trim();
    let (setup, moves) = rest.split_once(" moves ").unwrap_or((rest, ""));
    let fen = setup.strip_prefix("fen ").unwrap_or(openings::START_FEN);
    (openings::play_out(fen, moves.split_whitespace()), CastlingMode::Standard)
}

/// A search that ended without a `bestmove`.
#[derive(Debug, thiserror::Error)]
enum SearchFailed {
    /// `position` or `go` could not be sent.
    #[error(transparent)]
    Write(EngineError),
    /// No `bestmove` in time.
    #[error("'{go}': no bestmove within {ms} ms")]
    NoBestMove {
        /// The `go` command.
        go: String,
        /// The time allowed.
        ms: u128,
    },
    /// The engine went away, or wrote what cannot be read.
    #[error("'{go}': {error}")]
    Engine {
        /// The `go` command.
        go: String,
        /// What happened.
        error: EngineError,
    },
}

/// Sends `position` and `go`, and reads until `bestmove` or `limit`.
async fn search(
    process: &mut EngineProcess,
    step: &'static str,
    position: &str,
    go: &str,
    board: (Chess, CastlingMode),
    limit: Duration,
) -> Result<Search, SearchFailed> {
    for line in [position, go] {
        process.write_line(line).await.map_err(SearchFailed::Write)?;
    }
    let start = Instant::now();
    let mut lines = Vec::new();
    loop {
        match process.line_before(start + limit).await {
            Ok(Some(line)) => match parse(&line) {
                EngineLine::BestMove { mv: best, ponder } => {
                    let (position, mode) = board;
                    return Ok(Search { lines, best, ponder, elapsed: start.elapsed(), position, mode, step });
                }
                _ => lines.push(line),
            },
            Ok(None) => return Err(SearchFailed::NoBestMove { go: go.to_string(), ms: limit.as_millis() }),
            Err(error) => return Err(SearchFailed::Engine { go: go.to_string(), error }),
        }
    }
}

/// Reads until a line starting with `word`: the line, or `None` after `limit`.
async fn wait_for(process: &mut EngineProcess, word: &str, limit: Duration) -> Result<Option<String>, EngineError> {
    let deadline = Instant::now() + limit;
    loop {
        match process.line_before(deadline).await {
            Ok(Some(line)) if line.split_whitespace().next() == Some(word) => return Ok(Some(line)),
            Ok(Some(_)) => {}
            Ok(None) => return Ok(None),
            Err(e) => return Err(e),
        }
    }
}

fn clip(line: &str) -> String {
    line.chars().take(80).collect()
}

fn pass(step: &'static str, detail: String) -> Finding {
    Finding { step, status: Status::Pass, detail }
}

fn warn(step: &'static str, detail: String) -> Finding {
    Finding { step, status: Status::Warn, detail }
}

fn fail(step: &'static str, detail: String) -> Finding {
    Finding { step, status: Status::Fail, detail }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_pvs_are_read_as_the_protocol_writes_them() {
        assert_eq!(score_syntax("info depth 3 score cp 25 lowerbound nodes 10"), None);
        assert_eq!(score_syntax("info depth 3 score mate -2 pv e2e4"), None);
        assert_eq!(score_syntax("info depth 3 score 25"), Some("a score that is neither cp nor mate"));
        assert_eq!(score_syntax("info depth 3 score cp x"), Some("a score without an integer"));
        let (start, mode) = board_of("position startpos moves e2e4");
        assert_eq!(illegal_in(&start, mode, &["e7e5".into(), "g1f3".into()]), None);
        assert_eq!(illegal_in(&start, mode, &["e7e5".into(), "e1g1".into()]), Some("e1g1".into()));
    }
}
