//! Static exchange evaluation: the material outcome of the capture sequence
//! on one square, each side recapturing with its least valuable piece.

use shakmaty::{Bitboard, Chess, Move, Position, Role};

use crate::eval::{PIECE_VALUE, role_index};

fn value(role: Role) -> i32 {
    PIECE_VALUE[role_index(role)]
}

/// The static exchange value of `m` for the side making it, in centipawns.
/// Quiet moves and castling score by what they put en prise.
pub fn see(pos: &Chess, m: Move) -> i32 {
    let (from, to) = match m {
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => (from, to),
        _ => return 0,
    };
    let board = pos.board();
    let mut occupied = board.occupied();
    let mut gains = [0i32; 34];
    gains[0] = match m {
        Move::EnPassant { .. } => value(Role::Pawn),
        _ => m.capture().map_or(0, value),
    };
    if let Move::EnPassant { .. } = m {
        let captured = shakmaty::Square::from_coords(to.file(), from.rank());
        occupied.discard(captured);
    }
    let mut on_square = match m.promotion() {
        Some(promoted) => {
            gains[0] += value(promoted) - value(Role::Pawn);
            value(promoted)
        }
        None => value(m.role()),
    };
    occupied.discard(from);
    let mut side = !pos.turn();
    let mut depth = 0;
    loop {
        let attackers = board.attacks_to(to, side, occupied) & occupied;
        if attackers.is_empty() {
            break;
        }
        let Some((role, square)) = least_valuable(board, attackers) else { break };
        depth += 1;
        gains[depth] = on_square - gains[depth - 1];
        if (-gains[depth - 1]).max(gains[depth]) < 0 {
            break;
        }
        if role == Role::King && (board.attacks_to(to, !side, occupied.without(square)) & occupied).any() {
            // The king cannot capture into a defended square.
            depth -= 1;
            break;
        }
        on_square = value(role);
        occupied.discard(square);
        side = !side;
        if depth + 1 >= gains.len() {
            break;
        }
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// Whether the static exchange value of `m` is at least 0, as
/// `see(pos, m) >= 0`, but without playing the exchange out when `m`
/// captures a piece worth at least the capturer: the side making it may stop
/// after any recapture, so it loses at most the capturer, having won the
/// victim.
pub fn see_non_negative(pos: &Chess, m: Move) -> bool {
    let victim = match m {
        Move::EnPassant { .. } => Some(Role::Pawn),
        _ => m.capture(),
    };
    if m.promotion().is_none() && victim.is_some_and(|victim| value(victim) >= value(m.role())) {
        return true;
    }
    see(pos, m) >= 0
}

fn least_valuable(board: &shakmaty::Board, attackers: Bitboard) -> Option<(Role, shakmaty::Square)> {
    Role::ALL.into_iter().find_map(|role| (attackers & board.by_role(role)).first().map(|sq| (role, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random_games::{any, positions, random_games};
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
        let m = uci.parse::<UciMove>().unwrap().to_move(&pos).unwrap();
        see(&pos, m)
    }

    #[test]
    fn the_shortcut_answers_as_the_exchange_does() {
        let games = random_games(0x6a09_e667_f3bc_c909, 200, 200, any);
        let mut shortcuts = 0;
        for pos in positions(&games) {
            for m in pos.legal_moves() {
                assert_eq!(see_non_negative(&pos, m), see(&pos, m) >= 0, "{m:?} in {:?}", pos.board());
                shortcuts += usize::from(m.capture().is_some_and(|v| value(v) >= value(m.role())));
            }
        }
        assert!(shortcuts > 10_000, "{shortcuts}");
    }

    #[test]
    fn free_pawn_wins_a_pawn() {
        assert_eq!(see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), 100);
    }

    #[test]
    fn defended_pawn_taken_by_knight_loses_material() {
        // Nxe5 dxe5? The pawn e5 is defended by d6: knight for pawn.
        assert_eq!(see_of("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5"), 100 - 320);
    }

    #[test]
    fn xray_recapture_is_seen() {
        // Rxd5 with a rook behind; black recaptures with the rook, white with the second rook.
        assert_eq!(see_of("3r2k1/8/8/3p4/8/8/3R4/3R2K1 w - - 0 1", "d2d5"), 100);
    }
}
