//! A scripted UCI engine for the arena's tests and benchmarks: it plays
//! legal moves at once, or misbehaves in one chosen way.
//!
//! `fake-engine MODE [N]`, where MODE is one of
//! `instant` (a legal move at once), `crash-at-start`, `no-uciok`,
//! `crash-mid-game` (exits at its N-th `go`, status 4, a line on stderr), `hang` (never answers `go`),
//! `hang-off-start` (answers `go` only in the start position, as the run's
//! first search asks: an engine that hangs in the positions of a suite),
//! `illegal` (answers an illegal move), `none` (`bestmove (none)`),
//! `none-after` (`bestmove (none)` from its N-th `go` on, as Debian's
//! Glaurung 2.2 answers some time into a game at small node limits),
//! `garbage` (1 MB lines, invalid UTF-8 and junk before each move),
//! `stderr-spam` (N MB on stderr while playing), `flood` (N `info` lines
//! before each move, in thousands), `slow-quit` (ignores `quit`),
//! `tunable` (for `arena tune`'s convergence test: an option `Skill`, 0 to
//! 1000, whose hidden best value is N; the further `Skill` is from N, the
//! more of its moves are random instead of a one-ply material grab),
//! `budget` (for `arena scale`'s test: the larger its `go nodes`, the more of
//! its moves are the one-ply grab: nodes / N of them, all from N nodes on),
//! `flat` (N / 1000 of its moves are the grab, whatever the budget),
//! `false-mate` (claims `mate 1` with its move as the PV at every move),
//! `illegal-pv` (claims `mate 2` with a PV whose second move is illegal),
//! `bad-score` (`score 35`, neither cp nor mate), `no-infinite` (answers
//! `go infinite` at once instead of at `stop`), `crash-on-option` (exits
//! with status 5, a line on stderr, when its option `Danger` is set to its maximum), `late` (holds each
//! `bestmove` back N ms while saying it used no time: a stalling machine),
//! `busy` (works N ms of processor time on its first `go`, as measured by
//! Linux's schedstat, before it answers: an engine on a busy machine),
//! `few-nodes` (reports 6 nodes whatever `go nodes` asks: an engine that
//! stops short of a node limit),
//! `xboard` (an xboard engine: greets with `tellics say`, answers every
//! command with `Error (unknown command): …`).
//!
//! Every mode but `no-infinite` keeps a `go infinite` or `go ponder` search
//! open until `stop` or `ponderhit`, as the protocol says. Every mode but
//! `few-nodes` reports the nodes a `go nodes N` asks for (1 without it), as
//! an engine that keeps a node limit does; `few-nodes` reports 6 (Ethereal
//! 12 under `go nodes`).

use std::io::{BufRead, Write, stdin, stdout};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position, Role};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mode = args.first().map(String::as_str).unwrap_or("instant").to_string();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    if mode == "crash-at-start" {
        std::process::exit(3);
    }
    let mut fake = Fake { mode, n, position: Chess::default(), goes: 0, skill: 0, open_search: None };
    let mut out = stdout().lock();
    if fake.mode == "xboard" {
        let _ = writeln!(out, "tellics say     fake-xboard 1.0");
        let _ = out.flush();
    }
    let mut line = Vec::new();
    let mut input = stdin().lock();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).unwrap_or(0) == 0 {
            return;
        }
        let text = String::from_utf8_lossy(&line);
        let tokens: Vec<&str> = text.split_whitespace().collect();
        if !fake.answer(&tokens, &mut out) {
            return;
        }
        let _ = out.flush();
    }
}

/// The fake engine: its mode of misbehaving (see the file's doc), the
/// mode's number `n`, and what the commands so far have set.
struct Fake {
    mode: String,
    n: usize,
    position: Chess,
    /// The `go` commands so far.
    goes: usize,
    /// The `Skill` option of mode `tunable`.
    skill: i64,
    /// The answer of a `go infinite` or `go ponder` search, given at `stop` or `ponderhit`.
    open_search: Option<String>,
}

impl Fake {
    /// Answers one command, `tokens`; false at `quit`.
    fn answer(&mut self, tokens: &[&str], out: &mut impl Write) -> bool {
        let mode = self.mode.as_str();
        if mode == "xboard" {
            if tokens.first() == Some(&"quit") {
                return false;
            }
            let _ = writeln!(out, "Error (unknown command): {}", tokens.join(" "));
            return true;
        }
        match tokens.first().copied() {
            Some("uci") => self.uci(out),
            Some("isready") => {
                let _ = writeln!(out, "readyok");
            }
            Some("setoption") if mode == "crash-on-option" && tokens.ends_with(&["Danger", "value", "10"]) => {
                eprintln!("Danger at 10: giving up");
                std::process::exit(5);
            }
            Some("stop" | "ponderhit") => {
                if let Some(best) = self.open_search.take() {
                    let _ = writeln!(out, "bestmove {best}");
                }
            }
            Some("setoption") if mode == "tunable" => {
                if let [_, "name", "Skill", "value", value] = tokens {
                    self.skill = value.parse().unwrap_or(0);
                }
            }
            Some("position") => self.position = parse_position(tokens).unwrap_or_default(),
            Some("go") if mode != "no-infinite" && tokens.iter().any(|t| *t == "infinite" || *t == "ponder") => {
                let _ = writeln!(out, "info depth 1 score cp 0 nodes 1 pv {}", choose(&self.position));
                self.open_search = Some(choose(&self.position));
            }
            Some("go") => self.go(tokens, out),
            Some("quit") => return mode == "slow-quit",
            _ => {}
        }
        true
    }

    /// Answers `uci`: the id, the options, and `uciok` unless the mode
    /// withholds it.
    fn uci(&self, out: &mut impl Write) {
        let mode = self.mode.as_str();
        let _ = writeln!(out, "id name fake-{mode}\nid author arena tests");
        let _ = writeln!(out, "option name Hash type spin default 16 min 1 max 1024");
        let _ = writeln!(out, "option name Clear Hash type button");
        if mode == "crash-on-option" {
            let _ = writeln!(out, "option name Danger type spin default 0 min 0 max 10");
        }
        if mode == "tunable" {
            let _ = writeln!(out, "option name Skill type spin default 0 min 0 max 1000");
        }
        if mode != "no-uciok" {
            let _ = writeln!(out, "uciok");
        }
    }

    /// Answers a timed `go` as the mode has it.
    fn go(&mut self, tokens: &[&str], out: &mut impl Write) {
        self.goes += 1;
        let (n, position) = (self.n, &self.position);
        let mode = self.mode.as_str();
        let asked = tokens.iter().position(|t| *t == "nodes").and_then(|i| tokens.get(i + 1));
        let asked: Option<u64> = asked.and_then(|v| v.parse().ok());
        let nodes = if mode == "few-nodes" { 6 } else { asked.unwrap_or(1) };
        match mode {
            "crash-mid-game" if self.goes >= n => {
                eprintln!("assertion failed at move {n}");
                std::process::exit(4)
            }
            "hang" => return,
            "hang-off-start" if !is_start(position) => return,
            "busy" if self.goes == 1 => burn_cpu(std::time::Duration::from_millis(n as u64)),
            "illegal" => {
                let _ = writeln!(out, "bestmove a1a1");
                return;
            }
            "none-after" if self.goes >= n => {
                let _ = writeln!(out, "bestmove (none)");
                return;
            }
            "none" => {
                let _ = writeln!(out, "bestmove (none)");
                return;
            }
            "garbage" => {
                let _ = out.write_all(&vec![b'x'; 1 << 20]);
                let _ = out.write_all(b"\n\xff\xfe\xfd info depth \xc3\x28 score cp 99999999999999999999999\n");
                let _ = writeln!(out, "info depth 256 seldepth 300 score mate 200 nodes 123456789012345 pv");
                let _ = writeln!(out, "bestmovex e2e4\nreadyok\nuciok\n\t \t");
            }
            "flood" => {
                // A debug build left verbose: N `info` lines before each move.
                let line = format!("info depth 1 seldepth 1 score cp 0 nodes {nodes} nps 1 pv {}\n", choose(position));
                let block = line.repeat(1000);
                for _ in 0..n.div_ceil(1000) {
                    let _ = out.write_all(block.as_bytes());
                }
            }
            "stderr-spam" => {
                let chunk = vec![b'e'; 1 << 20];
                for _ in 0..n {
                    let _ = std::io::stderr().write_all(&chunk);
                }
            }
            "false-mate" | "illegal-pv" => {
                let best = choose(position);
                let pv = if mode == "false-mate" { best.clone() } else { format!("{best} a1a1") };
                let mate = if mode == "false-mate" { 1 } else { 2 };
                let _ = writeln!(out, "info depth 3 score mate {mate} nodes {nodes} pv {pv}\nbestmove {best}");
                return;
            }
            "bad-score" => {
                let best = choose(position);
                let _ = writeln!(out, "info depth 1 score 35 nodes {nodes} pv {best}\nbestmove {best}");
                return;
            }
            "budget" | "flat" => {
                let n = n.max(1) as u64;
                let good = if mode == "budget" { (1000 * asked.unwrap_or(0) / n).min(1000) } else { n.min(1000) };
                let (best, score) = grab_or_random(position, good, 0);
                let _ = writeln!(out, "info depth 1 score cp {score} nodes {nodes} pv {best}\nbestmove {best}");
                return;
            }
            "late" => {
                std::thread::sleep(std::time::Duration::from_millis(n as u64));
                let best = choose(position);
                let _ = writeln!(out, "info depth 1 time 0 score cp 0 nodes {nodes} pv {best}\nbestmove {best}");
                return;
            }
            "tunable" => {
                let (best, score) = tunable(position, self.skill, n as i64);
                let _ = writeln!(out, "info depth 1 score cp {score} nodes {nodes} pv {best}\nbestmove {best}");
                return;
            }
            _ => {}
        }
        let _ = writeln!(out, "info depth 1 score cp 0 nodes {nodes} pv {}", choose(position));
        let _ = writeln!(out, "bestmove {}", choose(position));
    }
}

/// Keeps this thread busy until it has run for `work` on a processor
/// (the first number of Linux's `/proc/thread-self/schedstat`, nanoseconds),
/// however long that takes in wall time.
fn burn_cpu(work: std::time::Duration) {
    let ran = || -> u64 {
        let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
        stat.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(u64::MAX)
    };
    let until = ran().saturating_add(u64::try_from(work.as_nanos()).unwrap_or(u64::MAX));
    let mut x = 0u64;
    while ran() < until {
        for _ in 0..10_000 {
            x = std::hint::black_box(x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1));
        }
    }
}

fn value(role: Role) -> i64 {
    match role {
        Role::Pawn => 100,
        Role::Knight | Role::Bishop => 300,
        Role::Rook => 500,
        Role::Queen => 900,
        Role::King => 0,
    }
}

/// Material of the side to move minus the other's, centipawns.
fn material(position: &Chess) -> i64 {
    let board = position.board();
    let us = position.turn();
    board
        .occupied()
        .into_iter()
        .filter_map(|sq| board.piece_at(sq))
        .map(|p| if p.color == us { value(p.role) } else { -value(p.role) })
        .sum()
}

/// How good a move is at one ply: mate first, then the material it wins
/// minus what it leaves hanging on its target square.
fn grab(position: &Chess, m: &Move) -> i64 {
    let mut after = position.clone();
    after.play_unchecked(*m);
    if after.is_checkmate() {
        return 100_000;
    }
    let won = m.capture().map_or(0, value);
    let hangs = after.legal_moves().iter().any(|reply| reply.to() == m.to() && reply.is_capture());
    won - if hangs { value(m.role()) } else { 0 }
}

/// `tunable`: with probability 1 − √(|skill − best| / 1000) the best one-ply
/// grab, else a random move; the draw is decided by a hash of the position
/// and the skill, so the same values replay the same games. The score is the
/// material after the move, from the mover's side.
fn tunable(position: &Chess, skill: i64, best: i64) -> (String, i64) {
    let distance = (skill - best).abs().min(1000) as f64 / 1000.0;
    let good = (1000.0 * (1.0 - distance.sqrt())) as u64;
    grab_or_random(position, good, skill as u64)
}

/// With probability `good` / 1000 the best one-ply grab, else a random
/// move; the draw is decided by a hash of the position and `salt`, so the
/// same values replay the same games. The score is the material after the
/// move, from the mover's side.
fn grab_or_random(position: &Chess, good: u64, salt: u64) -> (String, i64) {
    let moves = position.legal_moves();
    let Some(first) = moves.first() else { return ("0000".to_string(), 0) };
    let hash = position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal);
    let mut z = hash.0 ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^= z >> 29;
    let chosen = if (z % 1000) < good {
        *moves.iter().max_by_key(|m| grab(position, m)).unwrap_or(first)
    } else {
        moves[(z >> 20) as usize % moves.len()]
    };
    let mut after = position.clone();
    after.play_unchecked(chosen);
    let score = -material(&after);
    (UciMove::from_move(chosen, CastlingMode::Standard).to_string(), score)
}

/// A legal move that depends on the position (so games vary), or `0000`.
fn choose(position: &Chess) -> String {
    let moves = position.legal_moves();
    if moves.is_empty() {
        return "0000".to_string();
    }
    let index = (position.fullmoves().get() as usize * 7 + moves.len() * 13) % moves.len();
    UciMove::from_move(moves[index], CastlingMode::Standard).to_string()
}

/// Whether `position` is the standard start position.
fn is_start(position: &Chess) -> bool {
    let key = |p: &Chess| p.zobrist_hash::<Zobrist64>(EnPassantMode::Legal);
    key(position) == key(&Chess::default()) && position.fullmoves().get() == 1
}

fn parse_position(tokens: &[&str]) -> Option<Chess> {
    let moves_at = tokens.iter().position(|t| *t == "moves").unwrap_or(tokens.len());
    let mut position = match tokens.get(1).copied() {
        Some("startpos") => Chess::default(),
        Some("fen") => tokens[2..moves_at].join(" ").parse::<Fen>().ok()?.into_position(CastlingMode::Standard).ok()?,
        _ => return None,
    };
    for text in tokens.iter().skip(moves_at + 1) {
        let mv = text.parse::<UciMove>().ok()?.to_move(&position).ok()?;
        position.play_unchecked(mv);
    }
    Some(position)
}
