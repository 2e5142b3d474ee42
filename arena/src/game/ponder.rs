//! Pondering, as cutechess plays it: after its move, an engine that ponders
//! gets the position after the reply it expects (`bestmove X ponder Y`) and
//! `go ponder` with the clocks as they stand; while the opponent thinks its
//! lines are read into the game's log. If the opponent plays Y the engine
//! gets `ponderhit` and its clock runs from then; otherwise `stop`, its
//! answer is dropped, and it searches the real position as usual. Time spent
//! pondering is never charged.

use shakmaty::uci::UciMove;

use crate::engine_io::player::Player;
use crate::engine_io::process::Thought;
use crate::engine_io::uci::command;
use crate::engine_io::uci::output::Info;
use crate::game::clock::{Clock, go_limits};
use model::{Limit, TimeControl};

use super::Board;

/// What a side that ponders is doing while its opponent thinks.
pub(super) enum Ponder {
    /// Pondering on `expected` (UCI, as the board writes it), with what it
    /// has reported so far.
    On {
        /// The reply it expects.
        expected: String,
        /// Its `info` while pondering.
        info: Info,
    },
    /// It answered before `ponderhit` or `stop`, which the protocol forbids:
    /// the answer stands if the expected reply comes, else it is dropped.
    Answered {
        /// The reply it expected.
        expected: String,
        /// Its early answer.
        early: Thought,
    },
    /// Its output ended while pondering; its next search finds it gone.
    Gone,
}

/// Whether a clock lets an engine ponder: a clock or a time per move, not
/// node-time (a ponder search has no node budget) nor nodes or depth.
pub(super) fn allowed(tc: &TimeControl) -> bool {
    matches!(tc.limit, Limit::Clock(_) | Limit::MoveTime(_)) && tc.node_time.is_none()
}

/// Starts `player` pondering on `reply` from `board` (the position after its
/// own move) when it ponders, the clock allows it and `reply` is legal;
/// `None` otherwise, or when the engine's input is closed (its next search
/// will say so).
pub(super) async fn start(
    player: &mut Player,
    board: &Board,
    reply: Option<&str>,
    clocks: &[Clock; 2],
    side: usize,
) -> Option<Ponder> {
    if !player.ponders() || !allowed(&player.tc) || board.ending.is_some() {
        return None;
    }
    let mv = reply?.parse::<UciMove>().ok()?.to_move(&board.position).ok()?;
    let expected = UciMove::from_move(mv, board.mode).to_string();
    let mut position = board.position_command.clone();
    command::append_move(&mut position, !board.has_moves, &expected);
    // The clocks as they stand, for the side to move after the reply: this side.
    let mut go = command::go(&go_limits(&clocks[side], &clocks[0], &clocks[1]));
    go.insert_str(2, " ponder");
    player.process()?.ponder(&position, &go).await.ok()?;
    Some(Ponder::On { expected, info: Info::default() })
}

/// Ends whatever `player` is pondering when its game ends: `stop` and the
/// answer read, or the process discarded if it does not answer.
pub(super) async fn finish(player: &mut Player, ponder: Option<Ponder>) {
    match ponder {
        Some(Ponder::On { .. }) => {
            let limit = player.timeouts().ready;
            let stopped = match player.process() {
                Some(process) => process.stop_pondering(limit).await.is_ok(),
                None => true,
            };
            if !stopped {
                player.discard().await;
            }
        }
        Some(Ponder::Gone) => player.discard().await,
        Some(Ponder::Answered { .. }) | None => {}
    }
}
