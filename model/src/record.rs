//! Game records: what the arena produces, the database stores and reports read.

use serde::{Deserialize, Serialize};

crate::stored_code! {
    /// The result of a game, stored as its PGN notation.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    pub enum GameResult as "result" {
        /// 1-0.
        WhiteWins = "1-0",
        /// 0-1.
        BlackWins = "0-1",
        /// ½-½.
        Draw = "1/2-1/2",
    }
}

impl GameResult {
    /// PGN notation (the stored text).
    pub fn pgn(self) -> &'static str {
        self.as_str()
    }

    /// Parses PGN notation.
    pub fn from_pgn(text: &str) -> Option<GameResult> {
        crate::code::Code::read(text).ok()
    }

    /// White's score: 1, ½ or 0.
    pub fn white_score(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::BlackWins => 0.0,
            GameResult::Draw => 0.5,
        }
    }
}

crate::stored_code! {
    /// Why a game ended. A new ending is one line here; the compiler then
    /// points at every match that must say what it means (its PGN tag, its
    /// words, whether it is a fault), and the SQL sets of fault endings are
    /// derived from [`Termination::is_fault`] (a test holds the migrations'
    /// copies to it).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    pub enum Termination as "termination" {
        /// Checkmate on the board.
        Checkmate = "checkmate",
        /// Stalemate on the board.
        Stalemate = "stalemate",
        /// The same position for the third time.
        Repetition = "repetition",
        /// Fifty moves without capture or pawn move.
        FiftyMoves = "fifty-moves",
        /// Neither side can mate.
        InsufficientMaterial = "insufficient-material",
        /// Adjudicated draw: scores near zero for many moves.
        AdjudicatedDraw = "adjudicated-draw",
        /// Adjudicated loss: a side's score far below zero for several moves.
        AdjudicatedResign = "adjudicated-resign",
        /// The maximum number of moves was reached and adjudicated.
        MaxMoves = "max-moves",
        /// The loser ran out of time.
        TimeForfeit = "time-forfeit",
        /// The loser played an illegal move, or no move in a live position.
        IllegalMove = "illegal-move",
        /// The loser's process crashed or closed its pipe.
        Disconnect = "disconnect",
        /// The loser gave no `bestmove` within the stall timeout (node or depth limits).
        Stalled = "stalled",
        /// The position was in the Syzygy tables (`--tb`).
        Tablebase = "tablebase",
    }
}

/// All terminations, for reports.
pub const TERMINATIONS: &[Termination] = Termination::ALL;

/// Whose words [`Termination::words`] speaks: arena's PGN comments, or the
/// result texts of cutechess-cli and fastchess (their command lines' output).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wording {
    /// arena's own.
    Arena,
    /// cutechess-cli's, as fastchess prints them too.
    Tools,
}

impl Termination {
    /// Parses [`Termination::as_str`].
    pub fn parse(text: &str) -> Option<Termination> {
        crate::code::Code::read(text).ok()
    }

    /// The fault endings' stored texts as an SQL list, `('a', 'b')`, in
    /// declaration order (the migrations' partial index reads the same text).
    pub fn faults_sql() -> String {
        let quoted: Vec<String> =
            Self::ALL.iter().filter(|t| t.is_fault()).map(|t| format!("'{}'", t.as_str())).collect();
        format!("({})", quoted.join(", "))
    }

    /// Why a game with `result` ended, in `wording`'s words: `White mates`,
    /// `Draw by 3-fold repetition`, `Black loses on time`. The two wordings
    /// share every ending's words but where cutechess-cli's result texts
    /// (which fastchess prints too) say it otherwise.
    pub fn words(self, result: GameResult, wording: Wording) -> String {
        let (winner, loser) = match result {
            GameResult::WhiteWins => ("White", "Black"),
            GameResult::BlackWins => ("Black", "White"),
            GameResult::Draw => ("", ""),
        };
        let tools = wording == Wording::Tools;
        match self {
            Termination::Checkmate => format!("{winner} mates"),
            Termination::Stalemate => "Draw by stalemate".into(),
            Termination::Repetition => "Draw by 3-fold repetition".into(),
            Termination::FiftyMoves => "Draw by fifty moves rule".into(),
            Termination::InsufficientMaterial => "Draw by insufficient mating material".into(),
            Termination::AdjudicatedDraw => "Draw by adjudication".into(),
            Termination::AdjudicatedResign | Termination::MaxMoves if tools && winner.is_empty() => {
                "Draw by adjudication".into()
            }
            Termination::AdjudicatedResign | Termination::MaxMoves if tools => format!("{winner} wins by adjudication"),
            Termination::AdjudicatedResign => format!("{loser} resigns (adjudication)"),
            Termination::MaxMoves => "Adjudicated at the move limit".into(),
            Termination::Tablebase if tools && winner.is_empty() => "Draw by adjudication: SyzygyTB".into(),
            Termination::Tablebase if tools => format!("{winner} wins by adjudication: SyzygyTB"),
            Termination::Tablebase => "Adjudicated by tablebase".into(),
            Termination::TimeForfeit if winner.is_empty() && tools => "Draw by timeout".into(),
            Termination::TimeForfeit if winner.is_empty() => "Draw: time forfeit against insufficient material".into(),
            Termination::TimeForfeit => format!("{loser} loses on time"),
            Termination::IllegalMove => format!("{loser} makes an illegal move"),
            Termination::Disconnect => format!("{loser} disconnects"),
            Termination::Stalled if tools => format!("{loser}'s connection stalls"),
            Termination::Stalled => format!("{loser} stalls"),
        }
    }

    /// The PGN `Termination` tag: `normal`, `adjudication`, `time forfeit`, `rules infraction`, `abandoned`, `stalled`.
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::Checkmate
            | Termination::Stalemate
            | Termination::Repetition
            | Termination::FiftyMoves
            | Termination::InsufficientMaterial => "normal",
            Termination::AdjudicatedDraw
            | Termination::AdjudicatedResign
            | Termination::MaxMoves
            | Termination::Tablebase => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "rules infraction",
            Termination::Disconnect => "abandoned",
            Termination::Stalled => "stalled",
        }
    }

    /// True when the loser misbehaved (time, illegal move, crash, stall).
    pub fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit | Termination::IllegalMove | Termination::Disconnect | Termination::Stalled
        )
    }
}

/// One move an engine played, with what it reported.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The move in UCI notation.
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// Time charged for the move, in milliseconds.
    pub time_ms: u64,
    /// Mover's clock after the move (with increment), in milliseconds; 0 without a clock.
    pub clock_ms: u64,
    /// Score in centipawns from the mover's view.
    pub score_cp: Option<i64>,
    /// Mate in N from the mover's view (negative: mated).
    pub score_mate: Option<i64>,
    /// Depth.
    pub depth: Option<u64>,
    /// Selective depth.
    pub seldepth: Option<u64>,
    /// Nodes.
    pub nodes: Option<u64>,
    /// Nodes per second.
    pub nps: Option<u64>,
    /// Principal variation, space-separated UCI.
    pub pv: String,
    /// Wall time arena measured from sending `go` (or `ponderhit`) to
    /// reading `bestmove`, in milliseconds; `None` in games stored before
    /// it was kept.
    pub latency_ms: Option<u64>,
    /// The time the engine said it used: its last `info … time`.
    pub engine_ms: Option<u64>,
}

impl MoveRecord {
    /// What the move cost beyond what the engine said it used (pipes,
    /// scheduling, the engine's own overhead): latency − engine time, 0 when
    /// the engine says it used more. `None` unless both are known.
    pub fn overhead_ms(&self) -> Option<u64> {
        Some(self.latency_ms?.saturating_sub(self.engine_ms?))
    }
}

crate::stored_code! {
    /// What is wrong with a PV that backs a mate score (`--check-mate-pvs`).
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
    pub enum PvIssueKind as "PV issue kind" {
        /// The PV does not mate within the announced distance: it goes on past
        /// it, reaches a draw, or mates the side that claimed the mate.
        FalseMate = "false-mate",
        /// A PV move is not legal where it is played.
        IllegalPvMove = "illegal-pv-move",
    }
}

impl PvIssueKind {
    /// Parses [`PvIssueKind::as_str`].
    pub fn parse(text: &str) -> Option<PvIssueKind> {
        crate::code::Code::read(text).ok()
    }
}

/// A mate score whose PV does not back it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PvIssue {
    /// Index of the engine move in [`GameRecord::moves`].
    pub ply: usize,
    /// What is wrong.
    pub kind: PvIssueKind,
    /// The claim and the evidence (`mate 1 claimed, PV e2e4 does not mate`).
    pub detail: String,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// White's engine name.
    pub white: String,
    /// Black's engine name.
    pub black: String,
    /// The start position (before the opening moves).
    pub start_fen: String,
    /// The opening's name.
    pub opening: String,
    /// Opening moves (UCI), played before the engines took over.
    pub opening_moves: Vec<String>,
    /// Opening moves in SAN.
    pub opening_san: Vec<String>,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
    /// A detail for faults (the illegal move, the overrun …).
    pub detail: String,
    /// The engines' moves.
    pub moves: Vec<MoveRecord>,
    /// Start, Unix milliseconds.
    pub started_ms: i64,
    /// End, Unix milliseconds.
    pub finished_ms: i64,
    /// Mate scores whose PV does not back them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub pv_issues: Vec<PvIssue>,
    /// Where the game's engine I/O log was written (`host:path`), if kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub io_log: Option<String>,
    /// The machine that played it (`arena worker --name`, else the host
    /// name); empty in games stored before it was kept.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub machine: String,
    /// A game lost on time or by a stall: the wall time arena measured for
    /// the move that lost it, from `go` to `bestmove` or to giving up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lost_ms: Option<u64>,
    /// The factor the game's clocks were multiplied by (`--scale-nps`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc_scale: Option<f64>,
}

impl GameRecord {
    /// Whether White made engine move `ply` (an index into `moves`).
    pub fn is_white_move(&self, ply: usize) -> bool {
        let white_starts = self.start_fen.split_whitespace().nth(1) != Some("b");
        let white_first = white_starts == self.opening_moves.len().is_multiple_of(2);
        white_first == ply.is_multiple_of(2)
    }

    /// Each side's move overheads (White's, Black's), of the moves whose
    /// latency and engine time are both known.
    pub fn overheads(&self) -> [crate::Latencies; 2] {
        let mut sides = [crate::Latencies::default(), crate::Latencies::default()];
        for (ply, m) in self.moves.iter().enumerate() {
            if let Some(ms) = m.overhead_ms() {
                sides[usize::from(!self.is_white_move(ply))].add(ms);
            }
        }
        sides
    }

    /// The engine that made engine move `ply`.
    pub fn mover(&self, ply: usize) -> &str {
        if self.is_white_move(ply) { &self.white } else { &self.black }
    }
}

/// The current time in Unix milliseconds (0 if the clock is before 1970).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_has_words_in_both_wordings_and_they_differ_only_where_the_tools_do() {
        let differ =
            [Termination::AdjudicatedResign, Termination::MaxMoves, Termination::Tablebase, Termination::Stalled];
        for &ending in Termination::ALL {
            let drawn = [
                Termination::Stalemate,
                Termination::Repetition,
                Termination::FiftyMoves,
                Termination::InsufficientMaterial,
                Termination::AdjudicatedDraw,
            ];
            let result = if drawn.contains(&ending) { GameResult::Draw } else { GameResult::BlackWins };
            let (arena, tools) = (ending.words(result, Wording::Arena), ending.words(result, Wording::Tools));
            assert!(!arena.is_empty() && !arena.starts_with(' '), "{ending:?}: '{arena}'");
            assert_eq!(arena != tools, differ.contains(&ending), "{ending:?}: '{arena}' / '{tools}'");
        }
        assert_eq!(Termination::Checkmate.words(GameResult::WhiteWins, Wording::Arena), "White mates");
        assert_eq!(Termination::TimeForfeit.words(GameResult::Draw, Wording::Tools), "Draw by timeout");
        assert_eq!(Termination::Stalled.words(GameResult::WhiteWins, Wording::Tools), "Black's connection stalls");
    }
}
