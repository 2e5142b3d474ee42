//! A UCI move in two bytes: from + 64 × to + 4096 × promotion (squares
//! `a1`..`h8` as 0..63, promotions n, b, r, q as 1..4), the token of
//! [`crate::packed`] and the order [`crate::lines`] indexes legal moves in.

/// A square `a1`..`h8` as 0..63.
fn square(file: u8, rank: u8) -> Option<u16> {
    ((b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank))
        .then(|| u16::from(file - b'a') + 8 * u16::from(rank - b'1'))
}

/// A UCI move in two bytes' worth, if the word is one.
pub(crate) fn code(word: &str) -> Option<u16> {
    let b = word.as_bytes();
    if b.len() != 4 && b.len() != 5 {
        return None;
    }
    let promotion = match b.get(4) {
        None => 0,
        Some(b'n') => 1,
        Some(b'b') => 2,
        Some(b'r') => 3,
        Some(b'q') => 4,
        Some(_) => return None,
    };
    Some(square(b[0], b[1])? | square(b[2], b[3])? << 6 | promotion << 12)
}

/// Appends the UCI text of packed move `v` to `out`.
pub(crate) fn push_text(out: &mut String, v: u16) -> Result<(), crate::pack_error::PackError> {
    let promotion = match v >> 12 {
        0 => None,
        1 => Some('n'),
        2 => Some('b'),
        3 => Some('r'),
        4 => Some('q'),
        _ => return Err(crate::pack_error::PackError::NoMove(v)),
    };
    for sq in [v & 63, (v >> 6) & 63] {
        out.push(char::from(b'a' + (sq % 8) as u8));
        out.push(char::from(b'1' + (sq / 8) as u8));
    }
    out.extend(promotion);
    Ok(())
}
