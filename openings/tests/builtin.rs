//! The built-in opening sets load, are legal and have the promised shape.

use std::collections::HashSet;

use openings::{BUILTIN, Book, Selection, builtin, fen_of};

#[test]
fn feldmann25_is_the_papers_table_of_two_ply_openings() {
    let book = builtin("feldmann25").unwrap();
    assert_eq!(book.len(), 25);
    assert!(book.iter().all(|o| o.moves.len() == 2));
    assert_eq!(book.get(0).san, ["e4", "e5"]);
    assert_eq!(book.get(24).san, ["b4", "e5"]);
    let ends: HashSet<String> = book.iter().map(|o| fen_of(&o.end_position())).collect();
    assert_eq!(ends.len(), 25);
}

#[test]
fn forty_has_forty_distinct_named_lines_across_opening_families() {
    let book = builtin("forty").unwrap();
    assert_eq!(book.len(), 40);
    for opening in book.iter() {
        assert!((10..=12).contains(&opening.moves.len()), "{}: {} plies", opening.name, opening.moves.len());
        let eco = opening.name.split_whitespace().next().unwrap();
        assert!(eco.len() == 3 && ('A'..='E').contains(&eco.chars().next().unwrap()), "{}", opening.name);
    }
    let ends: HashSet<String> = book.iter().map(|o| fen_of(&o.end_position())).collect();
    assert_eq!(ends.len(), 40, "every line ends in a different position");
    let count = |first: &str| book.iter().filter(|o| o.san[0] == first).count();
    let (e4, d4, flank) = (count("e4"), count("d4"), count("c4") + count("Nf3") + count("f4"));
    assert!(e4 >= 15 && d4 >= 10 && flank >= 4, "e4 {e4}, d4 {d4}, flank {flank}");
    let semi_open = book.iter().filter(|o| o.san[0] == "e4" && o.san[1] != "e5").count();
    assert!(semi_open >= 10, "semi-open games: {semi_open}");
}

#[test]
fn large_books_load_completely() {
    assert_eq!(builtin("noob_2moves").unwrap().len(), 7314);
    assert_eq!(builtin("8mvs_+90_+99").unwrap().len(), 8533);
    assert!(BUILTIN.iter().all(|name| builtin(name).is_some()));
}

#[test]
fn selection_orders_starts_wraps_and_truncates() {
    let book = builtin("forty").unwrap();
    let sequential = book.select(&Selection::default(), 45);
    assert_eq!(sequential[0], book.get(0));
    assert_eq!(sequential[41], book.get(1), "wraps around");
    let started = book.select(&Selection { start: 5, ..Selection::default() }, 1);
    assert_eq!(started[0], book.get(5));
    let shuffled = Selection { random_seed: Some(7), ..Selection::default() };
    assert_eq!(book.select(&shuffled, 40), book.select(&shuffled, 40), "same seed, same order");
    assert_ne!(book.select(&shuffled, 40), sequential[..40].to_vec());
    let short = book.select(&Selection { max_plies: Some(4), ..Selection::default() }, 40);
    assert!(short.iter().all(|o| o.moves.len() == 4 && o.san.len() == 4));
}

#[test]
fn missing_file_says_what_to_give_instead() {
    let error = Book::open("no/such/book.epd").unwrap_err().to_string();
    assert!(error.starts_with("no/such/book.epd: cannot read"), "{error}");
    assert!(error.contains("feldmann25"), "{error}");
}

#[test]
fn fischer_random_books_and_castling_detection() {
    let frc = builtin("frc").unwrap();
    assert_eq!(frc.len(), 960);
    assert_eq!(frc.get(518).fen, openings::START_FEN, "518 is the standard array");
    assert!(!frc.get(518).mode.is_chess960(), "the standard array castles as standard chess");
    assert!(frc.iter().filter(|o| o.mode.is_chess960()).count() >= 900);
    assert!(frc.iter().any(|o| o.mode.is_chess960()));
    let dfrc = builtin("dfrc").unwrap();
    assert_eq!(dfrc.len(), 921_600);
    let picked = dfrc.select(&Selection { random_seed: Some(1), ..Selection::default() }, 50);
    let distinct: HashSet<&str> = picked.iter().map(|o| o.fen.as_str()).collect();
    assert_eq!(distinct.len(), 50);
    assert!(picked.iter().all(|o| o.mode.is_chess960() && openings::position_of(&o.fen).is_ok()));
    assert!(!builtin("noob_2moves").unwrap().iter().any(|o| o.mode.is_chess960()));

    // Castling rights decide, in Shredder-FEN, X-FEN or plain KQkq.
    for (fen, chess960) in [
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", false),
        ("bqnb1rkr/pppppppp/3n4/8/8/3N4/PPPPPPPP/BQNB1RKR w HFhf - 0 1", true),
        ("bqnb1rkr/pppppppp/3n4/8/8/3N4/PPPPPPPP/BQNB1RKR w KQkq - 0 1", true),
        ("nrkbbqrn/pppppppp/8/8/8/8/PPPPPPPP/NRKBBQRN w - - 0 1", false),
        ("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", false),
        ("1r2k3/8/8/8/8/8/8/1R2K2R w KQ - 0 1", true),
    ] {
        assert_eq!(openings::is_chess960(fen), chess960, "{fen}");
    }
    let book = Book::parse("t.epd", "1r2k3/8/8/8/8/8/8/1R2K2R w KQ -\n").unwrap();
    let castle = openings::Opening::from_san("c".into(), &book.get(0).fen, &["O-O-O"]).unwrap();
    assert_eq!(castle.moves, ["e1b1"], "Chess960 castling is written king takes rook");
}
