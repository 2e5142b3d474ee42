//! Built-in opening sets, compiled into the binary.

use crate::Book;

/// Names of the built-in sets.
pub const BUILTIN: [&str; 6] = ["feldmann25", "forty", "noob_2moves", "8mvs_+90_+99", "frc", "dfrc"];

/// A built-in set by name: `feldmann25` (the 25 two-ply openings of the FHR
/// paper's Table 2), `forty` (the project's 40 named lines), and the large
/// books `noob_2moves` (7,314 balanced positions) and `8mvs_+90_+99` (8,533
/// unbalanced ones), and the Fischer random start positions: `frc` (the
/// 960 Chess960 arrays by standard index) and `dfrc` (double Fischer random:
/// 960 × 960 pairs of arrays, generated on demand). Sources in `data/SOURCES.md`.
pub fn builtin(name: &str) -> Option<Book> {
    let text = match name {
        "frc" => return Some(crate::chess960::frc_book()),
        "dfrc" => return Some(Book::dfrc()),
        "feldmann25" => include_str!("../data/feldmann25.txt"),
        "forty" => include_str!("../data/forty.txt"),
        "noob_2moves" => include_str!("../../data/openings/noob_2moves.epd"),
        "8mvs_+90_+99" => include_str!("../../data/openings/8mvs_+90_+99.epd"),
        _ => return None,
    };
    let book = Book::parse(name, text).ok()?;
    if name == "feldmann25" {
        let named = book.iter().enumerate().map(|(index, mut opening)| {
            opening.name = format!("{}. {}", index + 1, opening.san.join(" "));
            opening
        });
        return Some(Book::new(name, named.collect()));
    }
    Some(book)
}

/// A built-in set to suggest in place of `book` when a run wants `wanted`
/// openings and `book` holds fewer: of the sets with more openings than
/// `book` and the same castling (standard or Chess960), the smallest that
/// holds `wanted`, else the largest; its name and size. `None` when no
/// built-in set is larger.
pub fn larger_builtin(book: &Book, wanted: usize) -> Option<(&'static str, usize)> {
    let mode = book.get(0).mode;
    let larger: Vec<(&'static str, usize)> = BUILTIN
        .iter()
        .filter_map(|&name| builtin(name).map(|b| (name, b)))
        .filter(|(_, b)| b.len() > book.len() && b.get(0).mode == mode)
        .map(|(name, b)| (name, b.len()))
        .collect();
    let enough = larger.iter().filter(|(_, len)| *len >= wanted).min_by_key(|(_, len)| *len);
    enough.or_else(|| larger.iter().max_by_key(|(_, len)| *len)).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_larger_builtin_is_never_the_book_itself_and_keeps_its_castling() {
        let noob = builtin("noob_2moves").unwrap();
        assert_eq!(larger_builtin(&noob, 8000), Some(("8mvs_+90_+99", 8533)));
        // None holds 10,000 standard openings: the largest there is.
        assert_eq!(larger_builtin(&noob, 10_000), Some(("8mvs_+90_+99", 8533)));
        let eight = builtin("8mvs_+90_+99").unwrap();
        assert_eq!(larger_builtin(&eight, 10_000), None);
        // From the 25 openings, the smallest that holds what is wanted.
        let feldmann = builtin("feldmann25").unwrap();
        assert_eq!(larger_builtin(&feldmann, 30), Some(("forty", 40)));
        assert_eq!(larger_builtin(&feldmann, 100), Some(("noob_2moves", 7314)));
        // Chess960 books suggest Chess960 books only.
        let frc = builtin("frc").unwrap();
        assert_eq!(larger_builtin(&frc, 2000).map(|(name, _)| name), Some("dfrc"));
    }
}
