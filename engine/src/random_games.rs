//! Random games (and numbers) for tests that compare a fast path with a
//! slow one on many positions.

use shakmaty::{Chess, Move, MoveList, Position};

/// `games` games from the start position of at most `plies` plies each
/// (fewer when one ends), as their moves. `choose(position, legal moves,
/// random number)` picks each move; the numbers come from `seed`, so the
/// games are the same on every run.
pub fn random_games(
    seed: u64,
    games: usize,
    plies: usize,
    mut choose: impl FnMut(&Chess, &MoveList, u64) -> Move,
) -> Vec<Vec<Move>> {
    let mut state = seed | 1;
    let mut next = move || xorshift(&mut state);
    (0..games)
        .map(|_| {
            let mut pos = Chess::default();
            let mut line = Vec::new();
            while line.len() < plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = choose(&pos, &moves, next());
                pos.play_unchecked(m);
                line.push(m);
            }
            line
        })
        .collect()
}

/// The next number of a xorshift64 sequence whose state is `state`
/// (never 0), its low 8 bits dropped.
pub fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state >> 8
}

/// Picks any legal move, all alike.
pub fn any(_: &Chess, moves: &MoveList, random: u64) -> Move {
    moves[random as usize % moves.len()]
}

/// Every position of `games`, the start position of each included.
pub fn positions(games: &[Vec<Move>]) -> Vec<Chess> {
    let mut all = Vec::new();
    for line in games {
        let mut pos = Chess::default();
        all.push(pos.clone());
        for &m in line {
            pos.play_unchecked(m);
            all.push(pos.clone());
        }
    }
    all
}
