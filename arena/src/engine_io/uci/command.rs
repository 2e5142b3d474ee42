//! Commands sent to engines. vampirc-uci serializes them, except
//! `setoption` for buttons, which it would print as `value <empty>`.

use vampirc_uci::{
    Duration, Serializable, UciFen, UciMessage, UciMove, UciPiece, UciSearchControl, UciSquare, UciTimeControl,
};

/// What an engine is asked to do in one `go`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// White's and Black's clocks in milliseconds (both or neither).
    pub clocks_ms: Option<(u64, u64)>,
    /// White's and Black's increments in milliseconds.
    pub increments_ms: Option<(u64, u64)>,
    /// Moves to the next time control.
    pub moves_to_go: Option<u32>,
    /// Fixed time per move.
    pub movetime_ms: Option<u64>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Depth limit.
    pub depth: Option<u32>,
}

/// `uci`.
pub fn uci() -> String {
    UciMessage::Uci.serialize()
}

/// `isready`.
pub fn isready() -> String {
    UciMessage::IsReady.serialize()
}

/// `ucinewgame`.
pub fn ucinewgame() -> String {
    UciMessage::UciNewGame.serialize()
}

/// `quit`.
pub fn quit() -> String {
    UciMessage::Quit.serialize()
}

/// `setoption name N [value V]`.
pub fn setoption(name: &str, value: Option<&str>) -> String {
    match value {
        Some(value) => UciMessage::SetOption { name: name.to_string(), value: Some(value.to_string()) }.serialize(),
        None => format!("setoption name {name}"),
    }
}

/// `position startpos|fen F [moves …]`. Moves that are not UCI moves are skipped
/// (the arena only sends moves it has checked).
pub fn position(fen: &str, moves: &[String]) -> String {
    let startpos = fen == openings::START_FEN;
    UciMessage::Position {
        startpos,
        fen: (!startpos).then(|| UciFen(fen.to_string())),
        moves: moves.iter().filter_map(|m| uci_move(m)).collect(),
    }
    .serialize()
}

/// Appends one move to a `position` command built by [`position`] (the
/// game loop grows the command by a move per ply instead of serializing the
/// whole list again); `first` when the command has no moves yet.
pub fn append_move(command: &mut String, first: bool, mv: &impl std::fmt::Display) {
    use std::fmt::Write;
    if first {
        command.push_str(" moves");
    }
    let _ = write!(command, " {mv}");
}

/// `go …` with the given limits.
pub fn go(limits: &GoLimits) -> String {
    let ms = |v: u64| Duration::milliseconds(i64::try_from(v).unwrap_or(i64::MAX / 1_000_000));
    let time_control = if let Some(movetime) = limits.movetime_ms {
        Some(UciTimeControl::MoveTime(ms(movetime)))
    } else {
        limits.clocks_ms.map(|(white, black)| UciTimeControl::TimeLeft {
            white_time: Some(ms(white)),
            black_time: Some(ms(black)),
            white_increment: limits.increments_ms.map(|(w, _)| ms(w)),
            black_increment: limits.increments_ms.map(|(_, b)| ms(b)),
            moves_to_go: limits.moves_to_go.map(|n| u8::try_from(n).unwrap_or(u8::MAX)),
        })
    };
    let search_control = (limits.nodes.is_some() || limits.depth.is_some()).then(|| UciSearchControl {
        search_moves: Vec::new(),
        mate: None,
        depth: limits.depth.map(|d| u8::try_from(d).unwrap_or(u8::MAX)),
        nodes: limits.nodes,
    });
    let message = match (time_control, search_control) {
        (None, None) => UciMessage::go_infinite(),
        (time_control, search_control) => UciMessage::Go { time_control, search_control },
    };
    message.serialize().trim_end().to_string()
}

fn uci_move(text: &str) -> Option<UciMove> {
    let bytes = text.as_bytes();
    if !(4..=5).contains(&bytes.len()) {
        return None;
    }
    let square = |file: u8, rank: u8| {
        ((b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank))
            .then(|| UciSquare::from(file as char, rank - b'0'))
    };
    let promotion = match bytes.get(4) {
        None => None,
        Some(b'q') => Some(UciPiece::Queen),
        Some(b'r') => Some(UciPiece::Rook),
        Some(b'b') => Some(UciPiece::Bishop),
        Some(b'n') => Some(UciPiece::Knight),
        Some(_) => return None,
    };
    Some(UciMove { from: square(bytes[0], bytes[1])?, to: square(bytes[2], bytes[3])?, promotion })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_the_commands_engines_expect() {
        assert_eq!(uci(), "uci");
        assert_eq!(setoption("Hash", Some("16")), "setoption name Hash value 16");
        assert_eq!(setoption("Clear Hash", None), "setoption name Clear Hash");
        let moves = vec!["e2e4".to_string(), "e7e8q".to_string()];
        assert_eq!(position(openings::START_FEN, &moves), "position startpos moves e2e4 e7e8q");
        assert_eq!(position(openings::START_FEN, &[]), "position startpos");
        let mut grown = position(openings::START_FEN, &[]);
        append_move(&mut grown, true, &"e2e4");
        append_move(&mut grown, false, &"e7e8q");
        assert_eq!(grown, position(openings::START_FEN, &moves));
        let fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1";
        assert_eq!(position(fen, &[]), format!("position fen {fen}"));
        let clock = GoLimits {
            clocks_ms: Some((60_000, 59_000)),
            increments_ms: Some((100, 100)),
            moves_to_go: Some(12),
            ..GoLimits::default()
        };
        assert_eq!(go(&clock), "go wtime 60000 btime 59000 winc 100 binc 100 movestogo 12");
        assert_eq!(go(&GoLimits { nodes: Some(5000), ..GoLimits::default() }), "go nodes 5000");
        assert_eq!(go(&GoLimits { depth: Some(7), ..GoLimits::default() }), "go depth 7");
        assert_eq!(go(&GoLimits { movetime_ms: Some(250), ..GoLimits::default() }), "go movetime 250");
        assert_eq!(go(&GoLimits::default()), "go infinite");
    }
}
