//! Quiescence search: captures and promotions until the position is quiet.

use shakmaty::{Position, Role, Square};

use super::Searcher;
use crate::board::Board;
use crate::captures::is_tactical;
use crate::ordering::MovePicker;
use crate::score::{DRAW, MATE, MAX_PLY, Score};
use crate::see::see_non_negative;

impl Searcher {
    /// Stand pat on the static evaluation, then try captures and queen
    /// promotions (MVV-LVA order, losing captures skipped). In check every
    /// evasion is searched and there is no stand pat, so mates are seen.
    /// With `QuiescenceRecaptures` (the verified null-move paper's
    /// "captures/recaptures"), below its first ply only captures on
    /// `recapture`, the square of the previous capture, are tried.
    pub(super) fn quiescence(
        &mut self,
        board: &Board,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        recapture: Option<Square>,
    ) -> Score {
        if self.count_node_and_check_stop() {
            return DRAW;
        }
        self.counters.qnodes += 1;
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        let pos = board.position();
        if ply >= MAX_PLY - 1 {
            return self.static_score(board);
        }
        let in_check = pos.is_check();
        let mut best = if in_check {
            -MATE + ply as Score
        } else {
            let stand_pat = self.static_score(board);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            stand_pat
        };
        let only_on = recapture.filter(|_| self.config.conditions.quiescence_recaptures);
        let mut picker = MovePicker::empty();
        picker.fill_tactical(pos, in_check, |m| {
            in_check
                || (is_tactical(*m)
                    && m.promotion().is_none_or(|r| r == Role::Queen)
                    && only_on.is_none_or(|square| m.is_capture() && m.to() == square))
        });
        for m in &mut picker {
            if !in_check && m.is_capture() && !see_non_negative(pos, m) {
                continue;
            }
            let child = board.play(m);
            self.prefetch(&child, 0);
            let next = if m.is_capture() { Some(m.to()) } else { recapture };
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, next);
            if self.stopped {
                return DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        best
    }
}
