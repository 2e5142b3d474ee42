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
