//! Move ordering: transposition-table move, winning captures (MVV-LVA,
//! filtered by static exchange), killers, history, losing captures.

use arrayvec::ArrayVec;
use shakmaty::{Chess, Color, Move, MoveList, Position};

use crate::captures::{is_tactical, tactical_moves_out_of_check};
use crate::eval::{PIECE_VALUE, role_index};
use crate::see::see_non_negative;

const TT_MOVE: i32 = 4_000_000;
const GOOD_CAPTURE: i32 = 2_000_000;
const KILLER: [i32; 2] = [1_000_000, 999_000];
const BAD_CAPTURE: i32 = -2_000_000;
/// History scores stay within ±HISTORY_MAX.
pub const HISTORY_MAX: i32 = 16_384;

/// Butterfly history of quiet moves by side, origin and target square.
pub struct History {
    table: Vec<i32>,
}

impl Default for History {
    fn default() -> Self {
        Self { table: vec![0; 2 * 64 * 64] }
    }
}

fn history_index(color: Color, m: Move) -> usize {
    let from = m.from().map_or(0, |sq| sq as usize);
    (color as usize) * 4096 + from * 64 + m.to() as usize
}

impl History {
    /// The history score of quiet move `m` by `color`.
    pub fn get(&self, color: Color, m: Move) -> i32 {
        self.table[history_index(color, m)]
    }

    /// Rewards (`bonus` > 0) or punishes a quiet move, with gravity towards 0
    /// so that scores stay within ±[`HISTORY_MAX`].
    pub fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let entry = &mut self.table[history_index(color, m)];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.table.fill(0);
    }

    /// A history that knows nothing (every quiet move scores 0), for
    /// ordering without the history heuristic.
    pub fn empty() -> &'static History {
        static EMPTY: std::sync::LazyLock<History> = std::sync::LazyLock::new(History::default);
        &EMPTY
    }
}

/// Schaeffer's history heuristic as the variable null-move bound's paper
/// reads it (Björnsson & Marsland, Section 6.2: "This heuristic gives a
/// credit to moves that cause a cutoff"): quiet moves by side, origin and
/// target, credited and never penalised, so that a positive value means
/// "caused a cutoff in this table's lifetime".
pub struct CutoffCredit {
    table: Vec<u32>,
}

impl Default for CutoffCredit {
    fn default() -> Self {
        Self { table: vec![0; 2 * 64 * 64] }
    }
}

impl CutoffCredit {
    /// Whether quiet move `m` by `color` has been credited.
    pub fn credited(&self, color: Color, m: Move) -> bool {
        self.table[history_index(color, m)] > 0
    }

    /// Credits a quiet move that caused a cutoff at `depth`.
    pub fn credit(&mut self, color: Color, m: Move, depth: i32) {
        let entry = &mut self.table[history_index(color, m)];
        *entry = entry.saturating_add((depth.max(1) as u32).saturating_mul(depth.max(1) as u32));
    }

    /// Forgets every credit.
    pub fn clear(&mut self) {
        self.table.fill(0);
    }
}

/// Most-valuable-victim, least-valuable-attacker key of a capture or promotion.
pub fn mvv_lva(m: Move) -> i32 {
    let victim = match m {
        Move::EnPassant { .. } => PIECE_VALUE[0],
        _ => m.capture().map_or(0, |r| PIECE_VALUE[role_index(r)]),
    };
    let promotion = m.promotion().map_or(0, |r| PIECE_VALUE[role_index(r)]);
    (victim + promotion) * 16 - role_index(m.role()) as i32
}

/// What a shakmaty [`MoveList`] holds (a test checks it).
const MAX_MOVES: usize = 270;

/// Hands out a node's moves best-first by selection, scoring them once.
#[derive(Clone)]
pub struct MovePicker {
    moves: MoveList,
    /// `keys[i]` orders `moves[i]`: its score, then its place (see [`key`]).
    keys: ArrayVec<i64, MAX_MOVES>,
    next: usize,
}

/// The sort key of a move of score `score` at place `i` of the list: the
/// score in the high half, and `u32::MAX − i` in the low half, so that the
/// largest key is the highest score, the earliest of equals, and names its
/// own place. The selection is then a plain maximum, which the compiler
/// vectorises.
fn key(score: i32, i: usize) -> i64 {
    (i64::from(score) << 32) | i64::from(u32::MAX - i as u32)
}

fn score_of(key: i64) -> i32 {
    (key >> 32) as i32
}

fn place_of(key: i64) -> usize {
    (u32::MAX - key as u32) as usize
}

impl MovePicker {
    /// Orders `moves` of `pos` as [`MovePicker::order`] does.
    pub fn new(
        pos: &Chess,
        moves: MoveList,
        tt_move: Option<Move>,
        killers: [Option<Move>; 2],
        history: &History,
    ) -> Self {
        let mut picker = Self { moves, keys: ArrayVec::new(), next: 0 };
        picker.order(pos, tt_move, killers, history);
        picker
    }

    /// Fills the picker with all legal moves of `pos`, where it stands, to
    /// be ordered by [`MovePicker::order`].
    pub fn fill_legal(&mut self, pos: &Chess) {
        self.take_all(pos);
        self.keys.clear();
        self.next = 0;
    }

    /// Sets the list to the legal moves of `pos`. Copying only the moves,
    /// not the whole list that shakmaty returns (its room for 256), saves
    /// a copy of about 1.5 KB per node.
    fn take_all(&mut self, pos: &Chess) {
        let all = pos.legal_moves();
        self.moves.clear();
        // The two lists have the same room: every move fits.
        let _fits = self.moves.try_extend_from_slice(&all);
    }

    /// The moves, in the order of the list until they are handed out.
    pub fn moves(&self) -> &MoveList {
        &self.moves
    }

    /// Orders the moves of `pos` the picker holds: `tt_move` first, then
    /// winning and equal captures and promotions, killers, quiets by
    /// history, losing captures.
    pub fn order(&mut self, pos: &Chess, tt_move: Option<Move>, killers: [Option<Move>; 2], history: &History) {
        let us = pos.turn();
        let scores = self.moves.iter().map(|&m| {
            if Some(m) == tt_move {
                TT_MOVE
            } else if is_tactical(m) {
                if see_non_negative(pos, m) { GOOD_CAPTURE + mvv_lva(m) } else { BAD_CAPTURE + mvv_lva(m) }
            } else if Some(m) == killers[0] {
                KILLER[0]
            } else if Some(m) == killers[1] {
                KILLER[1]
            } else {
                history.get(us, m)
            }
        });
        self.keys.clear();
        self.keys.extend(scores.enumerate().map(|(i, score)| key(score, i)));
        self.next = 0;
    }

    /// A picker with no moves, to be filled by [`MovePicker::fill_legal`] or
    /// [`MovePicker::fill_tactical`] where it stands: a move list is 2 KiB, and every move of one by value
    /// is a copy of it all.
    pub fn empty() -> Self {
        Self { moves: MoveList::new(), keys: ArrayVec::new(), next: 0 }
    }

    /// Orders by MVV-LVA only (for quiescence) the moves that `keep` keeps
    /// of `pos`'s captures and promotions, or of all its moves when it is
    /// `in_check`.
    pub fn fill_tactical(&mut self, pos: &Chess, in_check: bool, keep: impl FnMut(&mut Move) -> bool) {
        self.moves.clear();
        self.keys.clear();
        self.next = 0;
        if in_check {
            self.take_all(pos);
        } else {
            tactical_moves_out_of_check(pos, &mut self.moves);
        }
        self.moves.retain(keep);
        self.keys.extend(self.moves.iter().enumerate().map(|(i, &m)| key(mvv_lva(m), i)));
    }

    /// How many moves the node has in all.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when the node has no moves.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The next best move with its ordering score, or `None` when all are out.
    pub fn next_scored(&mut self) -> Option<(Move, i32)> {
        // The highest score, the earliest of equals.
        let best_key = *self.keys.get(self.next..)?.iter().max()?;
        let best = place_of(best_key);
        if best != self.next {
            // The move at `next` takes the best one's place, its key with it.
            self.moves.swap(self.next, best);
            self.keys[best] = key(score_of(self.keys[self.next]), best);
            self.keys[self.next] = best_key;
        }
        let picked = (self.moves[self.next], score_of(best_key));
        self.next += 1;
        Some(picked)
    }

    /// The next `n` moves in order, without handing them out.
    pub fn first_moves(&self, n: usize) -> Vec<Move> {
        self.clone().take(n).collect()
    }

    /// The moves not handed out yet, in no particular order.
    pub fn remaining(&self) -> &[Move] {
        &self.moves[self.next..]
    }
}

impl Iterator for MovePicker {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        self.next_scored().map(|(m, _)| m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random_games::xorshift;

    #[test]
    fn scores_hold_as_many_as_a_move_list() {
        assert_eq!(MoveList::new().capacity(), MAX_MOVES);
    }

    /// The selection as it was written first: the earliest of the highest
    /// scores at each step, swapped to the front.
    fn by_selection(mut items: Vec<(i32, usize)>) -> Vec<(i32, usize)> {
        for next in 0..items.len() {
            let mut best = next;
            for i in next + 1..items.len() {
                if items[i].0 > items[best].0 {
                    best = i;
                }
            }
            items.swap(next, best);
        }
        items
    }

    #[test]
    fn the_keys_pick_as_the_selection_does() {
        // The legal moves of the start position (20) and of a middlegame
        // (40-odd), scored with many ties and extremes.
        let pos: Chess = "r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9"
            .parse::<shakmaty::fen::Fen>()
            .unwrap()
            .into_position(shakmaty::CastlingMode::Standard)
            .unwrap();
        let mut state = 0x243f_6a88_85a3_08d3_u64;
        for moves in [Chess::default().legal_moves(), pos.legal_moves()] {
            for _ in 0..500 {
                let scores: Vec<i32> = (0..moves.len())
                    .map(|_| {
                        [0, 0, 1, -1, TT_MOVE, BAD_CAPTURE, -HISTORY_MAX, i32::MIN, i32::MAX]
                            [xorshift(&mut state) as usize % 9]
                    })
                    .collect();
                let mut picker = MovePicker {
                    moves: moves.clone(),
                    keys: scores.iter().enumerate().map(|(i, &s)| key(s, i)).collect(),
                    next: 0,
                };
                let picked: Vec<(i32, Move)> =
                    std::iter::from_fn(|| picker.next_scored().map(|(m, s)| (s, m))).collect();
                let expected: Vec<(i32, Move)> = by_selection(scores.into_iter().zip(0..).collect())
                    .into_iter()
                    .map(|(s, i)| (s, moves[i]))
                    .collect();
                assert_eq!(picked, expected);
            }
        }
    }
}
