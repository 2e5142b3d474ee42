//! Mate-PV checks: an engine that announces a mate must back it with its PV.
//! Pruning bugs show up exactly as false mates, so the check is on by
//! default (`--no-check-mate-pvs` turns it off).
//!
//! Given the position the engine moved in, its `score mate N` and its PV:
//! - every PV move must be legal where it is played (else
//!   [`PvIssueKind::IllegalPvMove`]);
//! - `mate N` with N > 0 (the mover mates): the PV must not go past ply
//!   2N − 1 without mating, mate later, end the game otherwise (stalemate,
//!   insufficient material) or mate the mover (else [`PvIssueKind::FalseMate`]).
//!   A PV that stops before ply 2N − 1 without having mated is incomplete, not
//!   false: engines cut PVs at table hits, and nothing in it contradicts the claim;
//! - `mate -N` (the mover is mated): the PV must not mate the opponent.

use model::PvIssueKind;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

/// What is wrong with the PV behind `mate`, if anything.
pub fn check(position: &Chess, mate: i64, pv: &[String]) -> Option<(PvIssueKind, String)> {
    if mate == 0 || pv.is_empty() {
        return None;
    }
    let mover = position.turn();
    let claim = format!("mate {mate} claimed");
    let limit = if mate > 0 { 2 * mate.unsigned_abs() - 1 } else { 2 * mate.unsigned_abs() };
    let mut board = position.clone();
    for (index, text) in pv.iter().enumerate() {
        let ply = index as u64 + 1;
        let Some(mv) = text.parse::<UciMove>().ok().and_then(|m| m.to_move(&board).ok()) else {
            let shown: String = text.chars().take(12).collect();
            let detail = format!("{claim}, PV move {ply} '{shown}' is illegal in {}", openings::fen_of(&board));
            return Some((PvIssueKind::IllegalPvMove, detail));
        };
        board.play_unchecked(mv);
        if board.is_checkmate() {
            let mated = board.turn();
            return if mated == mover && mate > 0 {
                Some((PvIssueKind::FalseMate, format!("{claim}, but its PV mates the side that claimed it")))
            } else if mated != mover && mate < 0 {
                Some((PvIssueKind::FalseMate, format!("{claim} against itself, but its PV mates the opponent")))
            } else if mate > 0 && ply > limit {
                Some((PvIssueKind::FalseMate, format!("{claim}, but its PV mates in {}", ply.div_ceil(2))))
            } else {
                None
            };
        }
        if mate > 0 && (board.is_stalemate() || board.is_insufficient_material()) {
            return Some((PvIssueKind::FalseMate, format!("{claim}, but its PV draws at move {}", ply.div_ceil(2))));
        }
    }
    if mate > 0 && pv.len() as u64 >= limit {
        let shown: Vec<&str> = pv.iter().take(8).map(String::as_str).collect();
        let more = if pv.len() > 8 { " …" } else { "" };
        return Some((PvIssueKind::FalseMate, format!("{claim}, but its PV {}{more} does not mate", shown.join(" "))));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    fn pv(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn true_claims_pass() {
        // Back-rank mate in one, and in two (Qd8+ Rxd8 Rxd8#).
        let one = position("6k1/p4ppp/8/8/8/8/8/3R2K1 w - - 0 1");
        assert_eq!(check(&one, 1, &pv("d1d8")), None);
        let two = position("3r2k1/5ppp/8/8/8/8/3Q4/3R2K1 w - - 0 1");
        assert_eq!(check(&two, 2, &pv("d2d8 d8d8 d1d8")), None);
        // Incomplete PVs contradict nothing.
        assert_eq!(check(&two, 2, &pv("d2d8")), None);
        // Mated in one: the PV lets the opponent mate.
        let mated = position("6k1/p4ppp/8/8/8/8/8/3R2K1 b - - 0 1");
        assert_eq!(check(&mated, -1, &pv("a7a6 d1d8")), None);
        assert_eq!(check(&one, 0, &pv("zzzz")), None, "mate 0 is not a claim here");
    }

    #[test]
    fn false_claims_are_named() {
        let one = position("6k1/p4ppp/8/8/8/8/8/3R2K1 w - - 0 1");
        let (kind, detail) = check(&one, 1, &pv("d1d7")).unwrap();
        assert_eq!(kind, PvIssueKind::FalseMate);
        assert_eq!(detail, "mate 1 claimed, but its PV d1d7 does not mate");
        let (kind, detail) = check(&one, 1, &pv("d1d2 a7a6 d2d8")).unwrap();
        assert_eq!((kind, detail.as_str()), (PvIssueKind::FalseMate, "mate 1 claimed, but its PV mates in 2"));
        let (kind, detail) = check(&one, 3, &pv("d1d7 e2e4")).unwrap();
        assert_eq!(kind, PvIssueKind::IllegalPvMove);
        assert!(detail.starts_with("mate 3 claimed, PV move 2 'e2e4' is illegal in "), "{detail}");
        let (kind, _) = check(&one, 2, &pv("a1a1")).unwrap();
        assert_eq!(kind, PvIssueKind::IllegalPvMove);
        // Claims to be mated, but its PV mates the opponent.
        let (kind, _) = check(&one, -1, &pv("d1d8")).unwrap();
        assert_eq!(kind, PvIssueKind::FalseMate);
        // A PV into stalemate.
        let stale = position("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
        let (kind, detail) = check(&stale, 2, &pv("f1f7")).unwrap();
        assert_eq!((kind, detail.as_str()), (PvIssueKind::FalseMate, "mate 2 claimed, but its PV draws at move 1"));
    }
}
