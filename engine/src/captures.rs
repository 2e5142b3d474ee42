//! The captures and promotions of a position, for quiescence, without
//! generating its quiet moves.
//!
//! Most of a position's moves are quiet, and quiescence looks only at
//! captures and promotions; shakmaty 0.30 generates only all legal moves
//! (its `capture_moves` filters them). [`tactical_moves`] generates the
//! captures and promotions alone, legal, **in the order `legal_moves` lists
//! them**: the move picker breaks ties by that order, so the search is the
//! same move for move, node for node (the bench signatures did not change).
//! In check, it takes shakmaty's moves, filtered.

use shakmaty::attacks::{aligned, attacks, between, bishop_attacks, king_attacks, pawn_attacks, rook_attacks};
use shakmaty::{Bitboard, Chess, Color, Move, MoveList, Piece, Position, Role, Square};

use crate::eval::pawn_attacks_towards;

/// True for captures and promotions, the moves quiescence looks at.
pub fn is_tactical(m: Move) -> bool {
    m.is_capture() || m.is_promotion()
}

/// The legal captures and promotions of `pos`, in `legal_moves` order.
pub fn tactical_moves(pos: &Chess) -> MoveList {
    if pos.is_check() {
        return filtered(pos);
    }
    let mut moves = MoveList::new();
    tactical_moves_out_of_check(pos, &mut moves);
    moves
}

/// [`tactical_moves`] of a position whose side to move is not in check
/// (quiescence knows it already, and asking again costs), into `moves`,
/// which must be empty: filled in place, since a move list is a 2 KiB array
/// that every move by value copies.
pub fn tactical_moves_out_of_check(pos: &Chess, moves: &mut MoveList) {
    let board = pos.board();
    let us = pos.turn();
    let Some(king) = board.king_of(us) else {
        *moves = filtered(pos);
        return;
    };
    let them = pos.them();
    let occupied = board.occupied();
    // En passant first, as shakmaty: legal when no enemy piece sees the
    // king once both pawns are gone from their squares (shakmaty's is_safe).
    if let Some(to) = pos.maybe_ep_square() {
        for from in pos.our(Role::Pawn) & pawn_attacks(!us, to) {
            let captured = Square::from_coords(to.file(), from.rank());
            let after = occupied.without(from).without(captured).with(to);
            if board.attacks_to(king, !us, after).without(captured).is_empty() {
                moves.push(Move::EnPassant { from, to });
            }
        }
    }
    // As shakmaty's gen_pawn_moves with the enemy pieces as target: the
    // captures towards one side, then the other (each first without, then
    // with promotion), then the pushes that promote.
    let pawns = pos.our(Role::Pawn);
    let backranks = Bitboard::BACKRANKS;
    for west in [true, false] {
        for to in pawn_attacks_towards(us, pawns, west) & them & !backranks {
            let from = pawn_origin(us, to, west);
            moves.push(Move::Normal { role: Role::Pawn, from, capture: board.role_at(to), to, promotion: None });
        }
        for to in pawn_attacks_towards(us, pawns, west) & them & backranks {
            push_promotions(moves, pawn_origin(us, to, west), to, board.role_at(to));
        }
    }
    let pushes = match us {
        Color::White => Bitboard(pawns.0 << 8),
        Color::Black => Bitboard(pawns.0 >> 8),
    } & !occupied;
    for to in pushes & backranks {
        let from = match us {
            Color::White => Square::new(to as u32 - 8),
            Color::Black => Square::new(to as u32 + 8),
        };
        push_promotions(moves, from, to, None);
    }
    // Pieces, in shakmaty's order: knights, bishops, rooks, queens, king.
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        for from in pos.our(role) {
            for to in attacks(from, Piece { color: us, role }, occupied) & them {
                moves.push(Move::Normal { role, from, capture: board.role_at(to), to, promotion: None });
            }
        }
    }
    for to in king_attacks(king) & them {
        if board.attacks_to(to, !us, occupied).is_empty() {
            moves.push(Move::Normal { role: Role::King, from: king, capture: board.role_at(to), to, promotion: None });
        }
    }
    // A pinned piece moves only along its pin (shakmaty's slider_blockers
    // and is_safe); a king move is safe already, and so is en passant.
    let snipers = ((rook_attacks(king, Bitboard(0)) & board.rooks_and_queens())
        | (bishop_attacks(king, Bitboard(0)) & board.bishops_and_queens()))
        & them;
    let mut pinned = Bitboard(0);
    for sniper in snipers {
        let blockers = between(king, sniper) & occupied;
        if !blockers.more_than_one() {
            pinned |= blockers;
        }
    }
    if pinned.any() {
        moves.retain(|m| match *m {
            Move::Normal { from, to, .. } => !pinned.contains(from) || aligned(from, to, king),
            _ => true,
        });
    }
}

/// shakmaty's legal moves, only the captures and promotions kept.
fn filtered(pos: &Chess) -> MoveList {
    let mut moves = pos.legal_moves();
    moves.retain(|m| is_tactical(*m));
    moves
}

/// The square a pawn of `us` captured to `to` from, towards `west` or not.
fn pawn_origin(us: Color, to: Square, west: bool) -> Square {
    let to = to as u32;
    Square::new(match (us, west) {
        (Color::White, true) => to - 7,
        (Color::White, false) => to - 9,
        (Color::Black, true) => to + 9,
        (Color::Black, false) => to + 7,
    })
}

/// The four promotions of a pawn move, in shakmaty's order.
fn push_promotions(moves: &mut MoveList, from: Square, to: Square, capture: Option<Role>) {
    for promotion in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
        moves.push(Move::Normal { role: Role::Pawn, from, capture, to, promotion: Some(promotion) });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random_games::{positions, random_games};
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    /// Positions with pins, promotions (quiet and capturing, both sides),
    /// king captures next to defended pieces, en passant and checks.
    const FENS: &[&str] = &[
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R b KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
        "4k3/8/8/3q4/8/8/3R4/3K4 w - - 0 1",
        "4k3/8/8/8/1b6/8/3N4/4K3 w - - 0 1",
        "1n2k3/P7/8/8/8/8/7p/4K1N1 w - - 0 1",
        "1n2k3/P7/8/8/8/8/7p/4K1N1 b - - 0 1",
        "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 2",
        "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
        "6bk/8/8/2pP4/8/8/K7/8 w - c6 0 2",
        "4k3/8/1b6/2pP4/8/8/8/7K w - c6 0 2",
        "4k3/8/8/2pP4/1K6/8/8/8 w - c6 0 2",
        "3rk3/8/8/8/8/8/3P4/3K4 w - - 0 1",
        "4k3/8/8/8/3p4/4K3/8/8 w - - 0 1",
    ];

    fn check(pos: &Chess) {
        assert_eq!(
            tactical_moves(pos).as_slice(),
            filtered(pos).as_slice(),
            "{}",
            Fen::from_position(pos, shakmaty::EnPassantMode::Legal)
        );
    }

    #[test]
    fn the_tactical_moves_are_shakmatys_in_its_order() {
        let mut seen = 0;
        for fen in FENS {
            let start: Chess = fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap();
            check(&start);
            // Every position two plies on, and a long line of each.
            for m in start.legal_moves() {
                let child = start.clone().play(m).unwrap();
                check(&child);
                for reply in child.legal_moves() {
                    check(&child.clone().play(reply).unwrap());
                    seen += 1;
                }
            }
        }
        assert!(seen > 9_000, "{seen}");
    }

    #[test]
    fn random_games_agree_to_their_end() {
        // Captures and promotions chosen one time in three (beside their
        // share of all moves), so that games reach endgames and promotions.
        let games = random_games(0x9e37_79b9_7f4a_7c15, 300, 300, |pos, moves, random| {
            let tactical = tactical_moves(pos);
            if !tactical.is_empty() && random.is_multiple_of(3) {
                tactical[(random >> 2) as usize % tactical.len()]
            } else {
                moves[random as usize % moves.len()]
            }
        });
        for pos in positions(&games) {
            check(&pos);
        }
    }
}
