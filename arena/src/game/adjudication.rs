//! Adjudication rules, as cutechess names them.
//!
//! - draw: from full move `move_number` on, when both engines' scores stay
//!   within ±`score` cp for `move_count` consecutive moves each, the game is drawn.
//! - resign: a side whose score is ≤ −`score` for `move_count` consecutive
//!   moves of its own loses; with `two_sided`, only when the opponent's score
//!   was ≥ `score` for its last `move_count` moves too.
//! - max moves: at full move `max_moves` the game ends; if both engines'
//!   last scores agree that one side is ahead by at least `max_moves_score`
//!   cp, that side wins, otherwise it is a draw (the FHR paper stopped at
//!   move 100 and adjudicated).
//!
//! Mate scores count as ±100,000 cp.

#[cfg(test)]
use model::adjudication::{parse_draw, parse_resign};
use model::{GameResult, Termination};
use shakmaty::Color;

pub use model::{Adjudication, DrawRule, ResignRule};

const MATE_CP: i64 = 100_000;

/// Tracks scores through a game.
#[derive(Clone, Debug, Default)]
pub struct Adjudicator {
    rules: Adjudication,
    draw_plies: u32,
    losing: [u32; 2],
    winning: [u32; 2],
    last_white_view: [Option<i64>; 2],
}

fn index(color: Color) -> usize {
    usize::from(color == Color::Black)
}

impl Adjudicator {
    /// A tracker for one game.
    pub fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator { rules, ..Adjudicator::default() }
    }

    /// Records the mover's score (cp or mate, from its own view) after its
    /// move; `full_move` is the number of the move just played. Returns a
    /// decision when a rule fires.
    pub fn update(
        &mut self,
        mover: Color,
        cp: Option<i64>,
        mate: Option<i64>,
        full_move: u32,
    ) -> Option<(GameResult, Termination)> {
        let score = match (mate, cp) {
            (Some(m), _) => Some(if m > 0 { MATE_CP } else { -MATE_CP }),
            (None, cp) => cp,
        };
        let me = index(mover);
        self.last_white_view[me] = score.map(|s| if mover == Color::White { s } else { -s });
        match score {
            Some(s) => {
                let rule_score = self.rules.resign.map_or(i64::MAX, |r| r.score);
                self.losing[me] = if s <= -rule_score { self.losing[me] + 1 } else { 0 };
                self.winning[me] = if s >= rule_score { self.winning[me] + 1 } else { 0 };
                let window = self.rules.draw.map_or(-1, |d| d.score);
                self.draw_plies = if s.abs() <= window { self.draw_plies + 1 } else { 0 };
            }
            None => {
                self.losing[me] = 0;
                self.winning[me] = 0;
                self.draw_plies = 0;
            }
        }
        if let Some(rule) = self.rules.resign {
            let opponent = 1 - me;
            for (side, color) in [(me, mover), (opponent, !mover)] {
                if self.losing[side] >= rule.move_count
                    && (!rule.two_sided || self.winning[1 - side] >= rule.move_count)
                {
                    let result = if color == Color::White { GameResult::BlackWins } else { GameResult::WhiteWins };
                    return Some((result, Termination::AdjudicatedResign));
                }
            }
        }
        if let Some(rule) = self.rules.draw
            && full_move >= rule.move_number
            && self.draw_plies >= 2 * rule.move_count
        {
            return Some((GameResult::Draw, Termination::AdjudicatedDraw));
        }
        if let Some(max) = self.rules.max_moves
            && full_move >= max
            && mover == Color::Black
        {
            let lead = self.rules.max_moves_score.max(1);
            let result = match self.last_white_view {
                [Some(w), Some(b)] if w >= lead && b >= lead => GameResult::WhiteWins,
                [Some(w), Some(b)] if w <= -lead && b <= -lead => GameResult::BlackWins,
                _ => GameResult::Draw,
            };
            return Some((result, Termination::MaxMoves));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(rules: Adjudication, scores: &[(i64, i64)], first_move: u32) -> Option<(GameResult, Termination, usize)> {
        let mut adjudicator = Adjudicator::new(rules);
        for (i, (white, black)) in scores.iter().enumerate() {
            let full_move = first_move + i as u32;
            if let Some((r, t)) = adjudicator.update(Color::White, Some(*white), None, full_move) {
                return Some((r, t, i));
            }
            if let Some((r, t)) = adjudicator.update(Color::Black, Some(*black), None, full_move) {
                return Some((r, t, i));
            }
        }
        None
    }

    #[test]
    fn draw_rule_needs_the_move_number_and_enough_quiet_moves() {
        let rules =
            Adjudication { draw: parse_draw("movenumber=10,movecount=3,score=10").unwrap(), ..Adjudication::default() };
        assert_eq!(feed(rules, &[(5, -5); 3], 1), None, "before move 10");
        assert_eq!(feed(rules, &[(5, -5); 3], 10), Some((GameResult::Draw, Termination::AdjudicatedDraw, 2)));
        assert_eq!(feed(rules, &[(5, -5), (5, -50), (5, -5), (5, -5)], 10), None, "a loud move resets the count");
    }

    #[test]
    fn resign_rule_one_and_two_sided() {
        let one = Adjudication {
            resign: parse_resign("movecount=2,score=500,twosided=false").unwrap(),
            ..Adjudication::default()
        };
        assert_eq!(
            feed(one, &[(-600, 0), (-700, 0)], 1),
            Some((GameResult::BlackWins, Termination::AdjudicatedResign, 1))
        );
        let two = Adjudication {
            resign: parse_resign("movecount=2,score=500,twosided=true").unwrap(),
            ..Adjudication::default()
        };
        assert_eq!(feed(two, &[(-600, 0), (-700, 0)], 1), None, "the opponent does not agree");
        assert_eq!(
            feed(two, &[(-600, 600), (-700, 700)], 1),
            Some((GameResult::BlackWins, Termination::AdjudicatedResign, 1))
        );
        let mut mated = Adjudicator::new(one);
        assert_eq!(mated.update(Color::Black, None, Some(-3), 1), None);
        assert_eq!(
            mated.update(Color::Black, None, Some(-2), 2),
            Some((GameResult::WhiteWins, Termination::AdjudicatedResign))
        );
    }

    #[test]
    fn max_moves_adjudicates_agreement_or_draw() {
        let rules = Adjudication { max_moves: Some(100), max_moves_score: 200, ..Adjudication::default() };
        assert_eq!(feed(rules, &[(300, -250)], 100), Some((GameResult::WhiteWins, Termination::MaxMoves, 0)));
        assert_eq!(feed(rules, &[(300, 0)], 100), Some((GameResult::Draw, Termination::MaxMoves, 0)));
        assert_eq!(feed(rules, &[(300, -250)], 99), None);
    }
}
