//! Polyglot books (`--openings book.bin`, cutechess-cli's `book=`): a book
//! written with python-chess's own keys drives a match, every game leaves
//! the book only where the book ends, both games of a pair play one line,
//! and a damaged book is one line.

use std::path::Path;
use std::process::Command;

use crate::common::{arena_ok, assert_refused, have_python, stdout, temp_dir};

fn script() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scripts/polyglot_book.py")
}

#[test]
fn a_polyglot_book_made_by_python_chess_drives_the_openings() {
    if !have_python("chess") {
        return;
    }
    let dir = temp_dir("polyglot");
    let book = dir.join("small.bin");
    let made = Command::new("python3").arg(script()).arg("write").arg(&book).output().unwrap();
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    // The book has five lines; under a node limit a run plays each once.
    let args = ["match", "--a", "nmp2", "--b", "plain", "--tc", "nodes=300", "--games", "12", "--openings"];
    let out = arena_ok(&dir, &[&args[..], &["small.bin", "--seed", "3", "--quiet", "--pgn", "games.pgn"]].concat());
    let note = String::from_utf8_lossy(&out.stderr);
    assert!(note.contains("10 games per pairing, not 12") && note.contains("a book of 5 openings"), "{note}");
    // python-chess reads the book and the games: every opening move is a book move.
    let checked = Command::new("python3").arg(script()).arg("check").arg(&book).arg(dir.join("games.pgn")).output();
    let checked = checked.unwrap();
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(checked.status.success(), "{}{said}", String::from_utf8_lossy(&checked.stderr));
    let games: Vec<(String, usize, String)> = said
        .lines()
        .map(|l| {
            let mut words = l.splitn(3, ' ');
            let (round, n) = (words.next().unwrap().to_string(), words.next().unwrap().parse().unwrap());
            (round, n, words.next().unwrap_or_default().to_string())
        })
        .collect();
    let plies: Vec<(String, usize)> = games.iter().map(|(round, n, _)| (round.clone(), *n)).collect();
    assert_eq!(plies.len(), 10);
    // Each line runs to the end of the book: 3 plies after 1. e4 (…e5 Nf3, …c5 Nf3/Nc3) and 1. d4 d5 (c4),
    // 2 after 1. d4 Nf6; never Nf3, whose weight is 0.
    assert!(plies.iter().all(|(_, n)| (2..=3).contains(n)), "{plies:?}");
    // Both games of a pair (rounds P.1 and P.2) share one line.
    let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
    assert!(!pgn.contains("1. Nf3"), "a move of weight 0 is never chosen");
    for pair in 1..=5 {
        let of = |game: u32| plies.iter().find(|(round, _)| *round == format!("{pair}.{game}")).map(|(_, n)| *n);
        assert_eq!(of(1), of(2), "pair {pair}");
    }
    // Five pairs, five lines: each of the book's lines once.
    let lines: std::collections::HashSet<&str> = games.iter().map(|(_, _, line)| line.as_str()).collect();
    let book = ["e4 e5 Nf3", "e4 c5 Nf3", "e4 c5 Nc3", "d4 d5 c4", "d4 Nf6"];
    assert_eq!(lines, book.into_iter().collect(), "{games:?}");
    let shown = stdout(&arena_ok(&dir, &["show", "1"]));
    assert!(shown.contains("openings small.bin"), "{shown}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_damaged_or_foreign_book_is_one_line() {
    let dir = temp_dir("polyglot-bad");
    std::fs::write(dir.join("cut.bin"), [0u8; 20]).unwrap();
    std::fs::write(dir.join("other.bin"), [7u8; 32]).unwrap();
    let args = |book: &'static str| ["match", "--a", "nmp2", "--b", "plain", "--tc", "nodes=300", "--openings", book];
    assert_refused(&dir, &args("cut.bin"), "cut.bin: not a Polyglot opening book (20 bytes", "arena.db");
    assert_refused(&dir, &args("other.bin"), "no move for the start position", "arena.db");
    let _ = std::fs::remove_dir_all(&dir);
}
