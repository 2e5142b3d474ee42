//! Chess960 (Fischer random) start positions by their standard index, 0 to
//! 959, in Scharnagl's numbering (the one chessprogramming.org, the FIDE
//! rules' appendix and most software use: 518 is the standard array), and
//! double Fischer random positions (a different array for each side).
//!
//! Index n: n mod 4 places the light-squared bishop (files b, d, f, h);
//! (n / 4) mod 4 the dark-squared bishop (a, c, e, g); (n / 16) mod 6 the
//! queen on the free squares; n / 96 (0 to 9) the two knights on the five
//! squares left (NN---, N-N--, N--N-, N---N, -NN--, -N-N-, -N--N, --NN-,
//! --N-N, ---NN); the last three squares take rook, king, rook.
//!
//! FENs carry Shredder-FEN castling rights (the rooks' files), which no
//! array makes ambiguous.

use crate::{Book, Opening};

/// Positions of the two knights among five free squares, by `n / 96`.
const KNIGHTS: [(usize, usize); 10] = [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];

/// Index of the standard array.
pub const STANDARD_INDEX: u16 = 518;

/// The back rank of start position `index` (White's pieces, a to h, as
/// `RNBQKBNR`), or `None` beyond 959.
pub fn back_rank(index: u16) -> Option<[char; 8]> {
    if index >= 960 {
        return None;
    }
    let mut n = usize::from(index);
    let mut rank = [' '; 8];
    rank[(n % 4) * 2 + 1] = 'B';
    n /= 4;
    rank[(n % 4) * 2] = 'B';
    n /= 4;
    let free = |rank: &[char; 8]| (0..8).filter(|&f| rank[f] == ' ').collect::<Vec<usize>>();
    rank[free(&rank)[n % 6]] = 'Q';
    n /= 6;
    let (first, second) = KNIGHTS[n];
    let squares = free(&rank);
    rank[squares[first]] = 'N';
    rank[squares[second]] = 'N';
    for (square, piece) in free(&rank).into_iter().zip(['R', 'K', 'R']) {
        rank[square] = piece;
    }
    Some(rank)
}

fn rights(rank: &[char; 8], white: bool) -> String {
    let files = (0..8).rev().filter(|&f| rank[f] == 'R').map(|f| (b'a' + f as u8) as char);
    files.map(|c| if white { c.to_ascii_uppercase() } else { c }).collect()
}

/// The FEN of double Fischer random position (`white`, `black`): White's
/// back rank from array `white`, Black's mirrored from array `black`.
/// Chess960 itself is `white == black`.
pub fn double_fen(white: u16, black: u16) -> Option<String> {
    let (w, b) = (back_rank(white)?, back_rank(black)?);
    let lower: String = b.iter().map(char::to_ascii_lowercase).collect();
    let upper: String = w.iter().collect();
    Some(format!("{lower}/pppppppp/8/8/8/8/PPPPPPPP/{upper} w {}{} - 0 1", rights(&w, true), rights(&b, false)))
}

/// The FEN of Chess960 start position `index`.
pub fn fen(index: u16) -> Option<String> {
    double_fen(index, index)
}

/// How many double Fischer random start positions there are (960 × 960).
pub const DFRC_POSITIONS: usize = 960 * 960;

/// The arrays (White's, Black's) of the `index`-th position of the `dfrc`
/// book. Every pair appears once in 0 to 921,599; consecutive indices change
/// both arrays (White's by one, Black's by 389, which is prime to 960), so
/// any stretch of the book is varied even unshuffled. Index 0 is (0, 0).
pub fn dfrc_pair(index: usize) -> (u16, u16) {
    let (lap, white) = (index / 960 % 960, index % 960);
    let black = (lap + 389 * white) % 960;
    (white as u16, black as u16)
}

fn opening(name: String, fen: &str) -> Opening {
    Opening::from_san(name, fen, &[]).expect("every Chess960 array is a legal position")
}

/// Opening `index` of the `dfrc` book (see [`dfrc_pair`]).
pub(crate) fn dfrc_opening(index: usize) -> Opening {
    let (white, black) = dfrc_pair(index);
    opening(format!("DFRC {white}/{black}"), &double_fen(white, black).expect("indices below 960"))
}

/// The `frc` book: the 960 Chess960 start positions by standard index.
pub(crate) fn frc_book() -> Book {
    let openings = (0..960).map(|i| opening(format!("Chess960 {i}"), &fen(i).expect("index below 960"))).collect();
    Book::new("frc", openings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::fen::Fen;
    use shakmaty::{CastlingMode, Chess, Position};

    fn rank(index: u16) -> String {
        back_rank(index).unwrap().iter().collect()
    }

    #[test]
    fn known_indices() {
        // Scharnagl's table (chessprogramming.org, "Chess960 Start Positions").
        assert_eq!(rank(0), "BBQNNRKR");
        assert_eq!(rank(1), "BQNBNRKR");
        assert_eq!(rank(518), "RNBQKBNR");
        assert_eq!(rank(959), "RKRNNQBB");
        assert_eq!(fen(STANDARD_INDEX).unwrap(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
        assert_eq!(back_rank(960), None);
        assert_eq!(fen(960), None);
    }

    #[test]
    fn all_960_are_distinct_legal_arrays() {
        let mut seen = std::collections::HashSet::new();
        for index in 0..960 {
            let r = back_rank(index).unwrap();
            assert!(seen.insert(r), "{index} repeats");
            let at = |piece: char| (0..8).filter(|&f| r[f] == piece).collect::<Vec<usize>>();
            let (bishops, rooks, king) = (at('B'), at('R'), at('K'));
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{index}: bishops on opposite colours");
            assert!(rooks[0] < king[0] && king[0] < rooks[1], "{index}: king between the rooks");
            assert_eq!((at('Q').len(), at('N').len()), (1, 2), "{index}");
            let position: Chess =
                fen(index).unwrap().parse::<Fen>().unwrap().into_position(CastlingMode::Chess960).unwrap();
            assert_eq!(position.castles().castling_rights().count(), 4, "{index}: four castling rights");
        }
        let pairs: std::collections::HashSet<(u16, u16)> = (0..DFRC_POSITIONS).map(dfrc_pair).collect();
        assert_eq!(pairs.len(), DFRC_POSITIONS, "every pair once");
        assert_eq!(dfrc_pair(0), (0, 0));
        assert_ne!(dfrc_pair(1).1, dfrc_pair(0).1, "neighbours differ in both arrays");
        let double = double_fen(0, 959).unwrap();
        assert_eq!(double, "rkrnnqbb/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFca - 0 1");
        assert!(double.parse::<Fen>().unwrap().into_position::<Chess>(CastlingMode::Chess960).is_ok());
    }
}
