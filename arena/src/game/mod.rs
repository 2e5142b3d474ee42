//! One game between two players: clocks, legality (shakmaty), every ending,
//! adjudication, and a full record of each move.
//!
//! Faults (time, illegal move, crash, stall) lose the game for the side that
//! committed them, except that a side that cannot mate by any sequence of
//! legal moves only draws on the opponent's time forfeit (FIDE 6.9). A fault
//! never costs the other side.

pub mod adjudication;
pub mod clock;
pub mod import;
mod ponder;
pub mod pv;
pub mod tablebase;

use std::collections::HashMap;

use model::{GameRecord, GameResult, MoveRecord, PvIssue, Termination, TimeControl, now_ms};
use openings::Opening;
use shakmaty::fen::Fen;
use shakmaty::san::San;
use shakmaty::uci::UciMove;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Outcome, Position};

use crate::engine_io::iolog::IoLog;
use crate::engine_io::player::Player;
use crate::engine_io::process::{Deadline, ThinkFailure, Thought};
use crate::engine_io::starvation::Spent;
use crate::engine_io::uci::command;
use crate::engine_io::uci::output::Score;
use crate::game::clock::{Clock, go_limits};
use crate::game::tablebase::Tablebases;
use adjudication::{Adjudication, Adjudicator};
use ponder::Ponder;

/// A game that could not be played for a reason of the machine's, not of an
/// engine's: an engine could not be started for lack of file descriptors,
/// memory or processes. It is not a result: nothing is stored, and the run
/// stops so that its pair is replayed whole once the machine has room.
#[derive(Debug, thiserror::Error)]
#[error(
    "the machine could not start an engine: {0}; no game was stored: raise `ulimit -n` or free memory, or lower --concurrency, then `arena resume`"
)]
pub struct MachineFault(pub String);

/// What ends a game besides the board and the engines: the adjudication
/// rules and, with `--tb`, the Syzygy tables.
#[derive(Clone, Copy, Debug)]
pub struct Rules<'a> {
    /// Draw, resign and move-limit adjudication.
    pub adjudication: Adjudication,
    /// Tablebase adjudication.
    pub tablebase: Option<&'a Tablebases>,
    /// Check that the PV behind each mate score backs it (see [`pv`]).
    pub check_mate_pvs: bool,
    /// The game's engine I/O log: every line to and from both engines.
    pub log: Option<&'a IoLog>,
}

impl From<Adjudication> for Rules<'_> {
    fn from(adjudication: Adjudication) -> Self {
        Rules { adjudication, tablebase: None, check_mate_pvs: true, log: None }
    }
}

/// Plays one game from `opening`, `white` against `black`. Every way a game
/// can end is charged here: to the board (mate, draws), to adjudication, to
/// the engine at fault (time, illegal move, crash, stall) — or, when the
/// machine could not start an engine, to nobody ([`MachineFault`]).
///
/// # Errors
///
/// [`MachineFault`] when the machine, not an engine, failed.
pub async fn play(
    white: &mut Player,
    black: &mut Player,
    opening: &Opening,
    rules: Rules<'_>,
) -> Result<GameRecord, MachineFault> {
    white.log_to(rules.log.cloned());
    black.log_to(rules.log.cloned());
    let played = play_logged(white, black, opening, rules).await;
    white.log_to(None);
    black.log_to(None);
    played
}

/// [`play`], its players logging to the game's log.
async fn play_logged(
    white: &mut Player,
    black: &mut Player,
    opening: &Opening,
    rules: Rules<'_>,
) -> Result<GameRecord, MachineFault> {
    let started_ms = now_ms();
    let mut underway = Underway::new(opening, [&white.tc, &black.tc], rules.adjudication);
    let mut players = [white, black];
    let ending = match ready_both(&mut players, &underway.game.position).await? {
        Some(ending) => ending,
        None => loop {
            if let Some(ending) = underway.turn(&mut players, rules).await {
                break ending;
            }
        },
    };
    for (player, ponder) in players.iter_mut().zip(std::mem::take(&mut underway.pondering)) {
        ponder::finish(player, ponder).await;
    }
    Ok(underway.record(&players, opening, ending, started_ms))
}

/// How a game ended: its result, termination and detail.
type Ending = (GameResult, Termination, String);

/// A game under way: the board, both clocks, and what its record collects.
struct Underway {
    game: Board,
    clocks: [Clock; 2],
    adjudicator: Adjudicator,
    moves: Vec<MoveRecord>,
    pv_issues: Vec<PvIssue>,
    /// What each side is pondering on while the other thinks.
    pondering: [Option<Ponder>; 2],
    /// The wall time of the move that lost on time or by a stall.
    lost_ms: Option<u64>,
}

impl Underway {
    fn new(opening: &Opening, [white, black]: [&TimeControl; 2], adjudication: Adjudication) -> Self {
        Underway {
            game: Board::new(opening),
            clocks: [Clock::new(white), Clock::new(black)],
            adjudicator: Adjudicator::new(adjudication),
            moves: Vec::new(),
            pv_issues: Vec::new(),
            pondering: [None, None],
            lost_ms: None,
        }
    }

    /// One turn: the ending, if the board, the tables or a fault of the
    /// side to move end the game; else its move played, and `None`.
    async fn turn(&mut self, players: &mut [&mut Player; 2], rules: Rules<'_>) -> Option<Ending> {
        if let Some((result, termination)) = self.game.ending {
            return Some((result, termination, String::new()));
        }
        if let Some((result, detail)) = rules.tablebase.and_then(|tb| tb.adjudicate(&self.game.position)) {
            return Some((result, Termination::Tablebase, detail));
        }
        let mover = self.game.position.turn();
        let side = usize::from(mover == Color::Black);
        let clocks = &self.clocks;
        let go = command::go(&go_limits(&clocks[side], &clocks[0], &clocks[1]));
        let deadline = clocks[side].deadline();
        let reply = self.moves.last().map(|m: &MoveRecord| m.uci.as_str());
        let asked = Search { position: &self.game.position_command, go: &go, deadline, reply };
        let thought = match search(players, &mut self.pondering, side, asked).await {
            Ok(thought) => thought,
            Err(failure) => {
                let why = match (failure, players[side].process()) {
                    (ThinkFailure::Disconnected, Some(process)) => process.exit_reason().await,
                    _ => String::new(),
                };
                players[side].discard().await;
                let (termination, mut detail, wall_ms) = failed_search(failure, &self.clocks[side]);
                detail += &why;
                self.lost_ms = wall_ms;
                return Some(fault(mover, termination, detail, &self.game.position));
            }
        };
        let cost = self.clocks[side].cost_ms(thought.elapsed, thought.info.nodes);
        if let Err(overrun) = self.clocks[side].charge(cost) {
            self.lost_ms = Some(millis(thought.elapsed));
            let detail = format!("{cost} ms used, {} ms over", overrun.by_ms);
            return Some(fault(mover, Termination::TimeForfeit, detail, &self.game.position));
        }
        let mv = match legal_move(thought.best.as_deref(), &self.game.position) {
            Ok(mv) => mv,
            Err(why) => return Some(fault(mover, Termination::IllegalMove, why.to_string(), &self.game.position)),
        };
        if let Some(ending) = self.play(mover, mv, &thought, cost, rules.check_mate_pvs) {
            return Some(ending);
        }
        let expected = thought.ponder.as_deref();
        self.pondering[side] = ponder::start(players[side], &self.game, expected, &self.clocks, side).await;
        None
    }

    /// Plays `mover`'s legal move `mv`, recording it with what the engine
    /// said and the `cost` charged to its clock; the adjudication's ending,
    /// if the move brings one.
    fn play(
        &mut self,
        mover: Color,
        mv: shakmaty::Move,
        thought: &Thought,
        cost: u64,
        check_mate_pvs: bool,
    ) -> Option<Ending> {
        let record = MoveRecord { time_ms: cost, ..thought_record(thought) };
        if let (true, Some(mate)) = (check_mate_pvs, record.score_mate)
            && let Some((kind, detail)) = pv::check(&self.game.position, mate, &thought.info.pv)
        {
            self.pv_issues.push(PvIssue { ply: self.moves.len(), kind, detail });
        }
        let full_move = self.game.position.fullmoves().get();
        let (score_cp, score_mate) = (record.score_cp, record.score_mate);
        let side = usize::from(mover == Color::Black);
        let clock_ms = self.clocks[side].remaining_ms();
        self.moves.push(MoveRecord { clock_ms, ..self.game.play_recorded(mv, record) });
        if self.game.ending.is_some() {
            return None;
        }
        let (result, termination) = self.adjudicator.update(mover, score_cp, score_mate, full_move)?;
        Some((result, termination, String::new()))
    }

    /// The game's record, once it has ended with `ending`.
    fn record(self, players: &[&mut Player; 2], opening: &Opening, ending: Ending, started_ms: i64) -> GameRecord {
        let (result, termination, detail) = ending;
        GameRecord {
            white: players[0].spec.name.clone(),
            black: players[1].spec.name.clone(),
            start_fen: opening.fen.clone(),
            opening: opening.name.clone(),
            opening_moves: opening.moves.clone(),
            opening_san: opening.san.clone(),
            result,
            termination,
            detail,
            moves: self.moves,
            started_ms,
            finished_ms: now_ms(),
            pv_issues: self.pv_issues,
            io_log: None,
            machine: String::new(),
            lost_ms: self.lost_ms,
            tc_scale: None,
        }
    }
}

/// Wall milliseconds of `d`.
fn millis(d: std::time::Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Both engines made ready at once (one round trip per game, not two): the
/// ending if one could not be, charged to it, or a [`MachineFault`].
async fn ready_both(
    players: &mut [&mut Player; 2],
    position: &Chess,
) -> Result<Option<(GameResult, Termination, String)>, MachineFault> {
    let [white, black] = players;
    let (white_ready, black_ready) = tokio::join!(async { white.ready_for_game().await.map(|_| ()) }, async {
        black.ready_for_game().await.map(|_| ())
    });
    for (side, ready) in [white_ready, black_ready].into_iter().enumerate() {
        match ready {
            Ok(()) => {}
            Err(e) if e.is_machine_limit() => return Err(MachineFault(e.to_string())),
            Err(e) => return Ok(Some(fault(side_color(side), Termination::Disconnect, e.to_string(), position))),
        }
    }
    Ok(None)
}

/// The termination and detail of a search that gave no move, and the wall
/// time it lost (none for an ended process). A search out of time under a
/// clock forfeits; under a node or depth limit it stalled.
fn failed_search(failure: ThinkFailure, clock: &Clock) -> (Termination, String, Option<u64>) {
    match failure {
        ThinkFailure::Disconnected => (Termination::Disconnect, "the engine process ended".to_string(), None),
        ThinkFailure::StopIgnored { waited } => (
            Termination::Stalled,
            format!("no bestmove {} ms after stop (its ponder move was not played)", waited.as_millis()),
            Some(millis(waited)),
        ),
        ThinkFailure::Timeout { elapsed, spent, .. } if clock.deadline_is_time_forfeit() => {
            (Termination::TimeForfeit, out_of_time(elapsed, spent), Some(millis(elapsed)))
        }
        ThinkFailure::Timeout { elapsed, spent, .. } => {
            (Termination::Stalled, stalled(elapsed, spent), Some(millis(elapsed)))
        }
    }
}

/// A `bestmove` that cannot be played.
#[derive(Debug, thiserror::Error)]
enum Unplayable {
    /// `bestmove (none)` in a live position.
    #[error("bestmove (none) in a live position")]
    NoMove,
    /// Text that is no legal move there, cut short.
    #[error("illegal move '{0}'")]
    Illegal(String),
}

/// The move `bestmove` named, if legal in `position`.
fn legal_move(best: Option<&str>, position: &Chess) -> Result<shakmaty::Move, Unplayable> {
    let Some(text) = best else { return Err(Unplayable::NoMove) };
    text.parse::<UciMove>()
        .ok()
        .and_then(|m| m.to_move(position).ok())
        .ok_or_else(|| Unplayable::Illegal(text.chars().take(20).collect()))
}

/// What a search reported, as the move's record (its move, time and clock
/// filled in by the caller and [`Board::play_recorded`]).
fn thought_record(thought: &Thought) -> MoveRecord {
    let (score_cp, score_mate) = match thought.info.score {
        Some(Score::Cp(cp)) => (Some(cp), None),
        Some(Score::Mate(m)) => (None, Some(m)),
        None => (None, None),
    };
    MoveRecord {
        uci: String::new(),
        san: String::new(),
        time_ms: 0,
        clock_ms: 0,
        score_cp,
        score_mate,
        depth: thought.info.depth,
        seldepth: thought.info.seldepth,
        nodes: thought.info.nodes,
        nps: thought.info.nps,
        pv: thought.info.pv.join(" "),
        latency_ms: Some(millis(thought.elapsed)),
        engine_ms: thought.info.time_ms,
    }
}

/// What the side to move is asked: the position and `go`, the deadline of
/// its answer, and the reply just played (what a ponder search expected).
struct Search<'a> {
    position: &'a str,
    go: &'a str,
    deadline: Deadline,
    reply: Option<&'a str>,
}

/// One search of the side to move (`side`): `ponderhit` if it pondered on
/// the reply just played, else `stop` to its ponder search and `position` +
/// `go`; while it thinks, the other side's ponder output is read.
async fn search(
    players: &mut [&mut Player; 2],
    pondering: &mut [Option<Ponder>; 2],
    side: usize,
    asked: Search<'_>,
) -> Result<Thought, ThinkFailure> {
    let Search { position, go, deadline, reply } = asked;
    let [white, black] = players;
    let (mover, waiting) = if side == 0 { (white, black) } else { (black, white) };
    let stop_limit = mover.timeouts().ready;
    let Some(process) = mover.process() else { return Err(ThinkFailure::Disconnected) };
    match pondering[side].take() {
        Some(Ponder::On { expected, info }) if Some(expected.as_str()) == reply => {
            return process.ponderhit(deadline, info).await;
        }
        Some(Ponder::Answered { expected, early }) if Some(expected.as_str()) == reply => {
            return Ok(Thought { elapsed: std::time::Duration::ZERO, ..early });
        }
        Some(Ponder::On { .. }) => match process.stop_pondering(stop_limit).await {
            Ok(()) => {}
            Err(ThinkFailure::Timeout { elapsed, .. }) => return Err(ThinkFailure::StopIgnored { waited: elapsed }),
            Err(failure) => return Err(failure),
        },
        Some(Ponder::Answered { .. } | Ponder::Gone) | None => {}
    }
    let other = 1 - side;
    let think = process.think(position, go, deadline);
    tokio::pin!(think);
    let Some(Ponder::On { info, .. }) = &mut pondering[other] else { return think.await };
    let Some(listener) = waiting.process() else { return think.await };
    let early = tokio::select! {
        biased;
        thought = &mut think => return thought,
        early = listener.listen(info) => early,
    };
    let thought = think.await;
    pondering[other] = match (early, pondering[other].take()) {
        (Some(early), Some(Ponder::On { expected, .. })) => Some(Ponder::Answered { expected, early }),
        _ => Some(Ponder::Gone),
    };
    thought
}

/// The position a stored game ended in: its start, the opening moves and
/// the engines' moves (a move that does not replay ends the replay).
pub fn final_position(record: &GameRecord) -> Chess {
    openings::play_out(&record.start_fen, record.opening_moves.iter().chain(record.moves.iter().map(|m| &m.uci)))
}

/// The detail of a stall: the wall time waited, and where the system says
/// so, the part of it the engine's busiest thread ran (what
/// [`Deadline::Available`] counts) and the part it waited for a processor.
/// The rest it was blocked: on itself (a deadlock) or on a frozen machine.
pub fn stalled(elapsed: std::time::Duration, spent: Option<Spent>) -> String {
    let detail = format!("no bestmove after {} ms", elapsed.as_millis());
    match spent {
        Some(spent) => format!("{detail} ({})", ran_and_waited(spent)),
        None => detail,
    }
}

/// The detail of a loss on time, split as a stall's is where the system
/// says. An engine kept waiting for a processor a quarter of the time or
/// more lost to its machine, not to its time management: the detail says
/// so, and what to do. One that neither ran nor waited for most of it was
/// blocked, or the machine was paused (a virtual machine's host took it).
fn out_of_time(elapsed: std::time::Duration, spent: Option<Spent>) -> String {
    let detail = format!("no move after {} ms", elapsed.as_millis());
    let Some(spent) = spent else { return detail };
    let split = ran_and_waited(spent);
    if spent.waited * 4 >= elapsed {
        format!(
            "{detail} ({split}; the machine was too busy for this clock: play fewer games at once \
             (--concurrency), or add ,timemargin=MS to --tc)"
        )
    } else if (spent.busiest + spent.waited) * 2 < elapsed {
        format!("{detail} ({split}; the rest it neither ran nor waited: blocked, or the machine was paused)")
    } else {
        format!("{detail} ({split})")
    }
}

fn ran_and_waited(spent: Spent) -> String {
    format!("{} ms of them on a processor, {} ms waiting for one", spent.busiest.as_millis(), spent.waited.as_millis())
}

fn side_color(side: usize) -> Color {
    if side == 0 { Color::White } else { Color::Black }
}

/// The result when `culprit` misbehaved.
fn fault(
    culprit: Color,
    termination: Termination,
    detail: String,
    position: &Chess,
) -> (GameResult, Termination, String) {
    let winner = !culprit;
    let result = if termination == Termination::TimeForfeit && position.has_insufficient_material(winner) {
        GameResult::Draw
    } else if winner == Color::White {
        GameResult::WhiteWins
    } else {
        GameResult::BlackWins
    };
    (result, termination, detail)
}

/// The position, the `position` command sent to engines, repetition counts,
/// and the rule-based ending, computed once per ply.
///
/// The command starts from the last position that reset the 50-move
/// counter (a capture or a pawn move) and lists the moves since, as
/// c-chess-cli does: no earlier position can repeat a later one, so the
/// engine still sees every position its repetition rule needs, while the
/// command stays short instead of growing with the game (the engine parses
/// and replays it at every move). Between resets it grows by one move per
/// ply instead of being serialized again.
struct Board {
    position: Chess,
    /// How castling is written to the engines (standard or Chess960).
    mode: CastlingMode,
    position_command: String,
    has_moves: bool,
    seen: HashMap<u64, u8>,
    repeated: bool,
    ending: Option<(GameResult, Termination)>,
}

impl Board {
    /// The position after the opening's moves; the moves are sent to the
    /// engines written in the opening's castling mode, whatever notation the
    /// book used.
    fn new(opening: &Opening) -> Board {
        let mut board = Board {
            position: openings::position_of(&opening.fen).unwrap_or_default(),
            mode: opening.mode,
            position_command: command::position(&opening.fen, &[]),
            has_moves: false,
            seen: HashMap::new(),
            repeated: false,
            ending: None,
        };
        board.count();
        for uci in &opening.moves {
            match uci.parse::<UciMove>().ok().and_then(|m| m.to_move(&board.position).ok()) {
                Some(mv) => board.advance(mv),
                None => break,
            }
        }
        board.ending = board.compute_ending();
        board
    }

    fn play(&mut self, mv: shakmaty::Move) {
        self.advance(mv);
        self.ending = self.compute_ending();
    }

    /// Plays `mv` and returns `record` with the move in UCI and SAN: SAN
    /// without its suffix from the position before the move, the check or
    /// mate suffix from the position after it, whose ending the board
    /// computes anyway (no second legal-move generation).
    fn play_recorded(&mut self, mv: shakmaty::Move, record: MoveRecord) -> MoveRecord {
        let san = San::from_move(&self.position, mv);
        let uci = UciMove::from_move(mv, self.mode).to_string();
        self.play(mv);
        let suffix = match self.ending {
            Some((_, Termination::Checkmate)) => "#",
            _ if self.position.is_check() => "+",
            _ => "",
        };
        MoveRecord { uci, san: format!("{san}{suffix}"), ..record }
    }

    fn advance(&mut self, mv: shakmaty::Move) {
        self.position.play_unchecked(mv);
        if self.position.halfmoves() == 0 {
            let fen = Fen::from_position(&self.position, EnPassantMode::Legal).to_string();
            self.position_command = command::position(&fen, &[]);
            self.has_moves = false;
        } else {
            let uci = UciMove::from_move(mv, self.mode);
            command::append_move(&mut self.position_command, !self.has_moves, &uci);
            self.has_moves = true;
        }
        self.count();
    }

    fn count(&mut self) {
        let key = self.position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal);
        let seen = self.seen.entry(key.0).or_insert(0);
        *seen += 1;
        self.repeated |= *seen >= 3;
    }

    /// The rule-based end of the game, if reached.
    fn compute_ending(&self) -> Option<(GameResult, Termination)> {
        match self.position.outcome() {
            Outcome::Known(shakmaty::KnownOutcome::Decisive { winner }) => {
                let result = if winner == Color::White { GameResult::WhiteWins } else { GameResult::BlackWins };
                return Some((result, Termination::Checkmate));
            }
            Outcome::Known(shakmaty::KnownOutcome::Draw) if self.position.is_stalemate() => {
                return Some((GameResult::Draw, Termination::Stalemate));
            }
            _ => {}
        }
        if self.position.is_insufficient_material() {
            return Some((GameResult::Draw, Termination::InsufficientMaterial));
        }
        if self.repeated {
            return Some((GameResult::Draw, Termination::Repetition));
        }
        if self.position.halfmoves() >= 100 {
            return Some((GameResult::Draw, Termination::FiftyMoves));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(moves: &[&str]) -> Board {
        Board::new(&Opening {
            mode: CastlingMode::Standard,
            name: "test".into(),
            fen: openings::START_FEN.into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            san: Vec::new(),
        })
    }

    fn play(board: &mut Board, uci: &str) {
        let mv = uci.parse::<UciMove>().unwrap().to_move(&board.position).unwrap();
        board.play(mv);
    }

    #[test]
    fn the_position_command_starts_at_the_last_capture_or_pawn_move() {
        // Knight moves only: nothing resets the counter, the start position stays.
        let mut b = board(&["g1f3", "g8f6"]);
        assert_eq!(b.position_command, "position startpos moves g1f3 g8f6");
        play(&mut b, "f3g1");
        assert_eq!(b.position_command, "position startpos moves g1f3 g8f6 f3g1");
        // A pawn move starts the command again from the position after it.
        play(&mut b, "e7e5");
        assert_eq!(b.position_command, "position fen rnbqkb1r/pppp1ppp/5n2/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 3");
        play(&mut b, "g1f3");
        play(&mut b, "b8c6");
        assert!(b.position_command.ends_with(" 0 3 moves g1f3 b8c6"), "{}", b.position_command);
        // A capture does too.
        play(&mut b, "f3e5");
        assert_eq!(b.position_command, "position fen r1bqkb1r/pppp1ppp/2n2n2/4N3/8/8/PPPPPPPP/RNBQKB1R b KQkq - 0 4");
        // Repetitions since the reset are still counted from the board.
        for uci in ["c6b8", "e5f3", "b8c6", "f3e5", "c6b8", "e5f3", "b8c6", "f3e5"] {
            play(&mut b, uci);
        }
        assert_eq!(b.ending, Some((GameResult::Draw, Termination::Repetition)));
    }
}
