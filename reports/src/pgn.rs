//! PGN export: the seven-tag roster plus FEN/SetUp, TimeControl,
//! Termination and PlyCount; engine moves carry `{score/depth time}`
//! comments as cutechess writes them (score from the mover's view, in pawns,
//! `M5`/`-M5` for mates).

use std::fmt::Write;

use chrono::Datelike;
use model::{GameRecord, Termination, Variant};

/// Standard start position (no FEN tag needed).
const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// What the move comments hold (`--pgn-level`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Level {
    /// Moves only: no comments.
    Min,
    /// `{score/depth time}` after each engine move, as cutechess writes it,
    /// and the way the game ended.
    #[default]
    Normal,
    /// Also the selective depth, nodes, nodes per second, the clock left
    /// and the PV: `{+0.31/12 0.154s, sd=18, n=81234, nps=527000, tl=9.846s, pv=e2e4 e7e5}`.
    Full,
    /// The normal comment and the fields chosen (fastchess's `-pgnout
    /// nodes=true seldepth=true …` each add one).
    Fields(Fields),
}

/// Which of the full level's fields a move comment holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)]
pub struct Fields {
    /// `sd=`: the selective depth.
    pub seldepth: bool,
    /// `n=`: nodes.
    pub nodes: bool,
    /// `nps=`: nodes per second.
    pub nps: bool,
    /// `tl=`: the clock left.
    pub timeleft: bool,
    /// `pv=`: the principal variation.
    pub pv: bool,
}

impl Fields {
    /// Every field: [`Level::Full`].
    pub const ALL: Fields = Fields { seldepth: true, nodes: true, nps: true, timeleft: true, pv: true };

    /// The fields of `level`.
    pub fn of(level: Level) -> Fields {
        match level {
            Level::Full => Fields::ALL,
            Level::Fields(fields) => fields,
            Level::Min | Level::Normal => Fields::default(),
        }
    }
}

/// Whose PGN conventions a file follows: the `Termination` tag's values
/// and where the way the game ended is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Conventions {
    /// arena's own: the PGN standard's tags (`rules infraction`, `stalled`),
    /// the end as a comment of its own after the last move.
    #[default]
    Arena,
    /// fastchess's (app/src/game/pgn/pgn_builder.cpp): `illegal move`, a
    /// stall `abandoned` as a disconnection; the end at the close of the
    /// last move's comment.
    Fastchess,
    /// cutechess-cli's (projects/lib/src/pgngame.cpp): no tag for a game
    /// ended by the rules, `illegal move`, `stalled connection`; the end at
    /// the close of the last move's comment, after `, `.
    Cutechess,
}

impl Conventions {
    /// The `Termination` tag of a game ended by `termination`, if any.
    fn termination(self, termination: Termination) -> Option<&'static str> {
        let standard = termination.pgn_tag();
        match (self, termination) {
            (Conventions::Arena, _) => Some(standard),
            (_, Termination::IllegalMove) => Some("illegal move"),
            (Conventions::Fastchess, Termination::Stalled) => Some("abandoned"),
            (Conventions::Cutechess, Termination::Stalled) => Some("stalled connection"),
            (Conventions::Cutechess, _) if standard == "normal" => None,
            _ => Some(standard),
        }
    }
}

/// Tag values that come from the run, not the game, and the comment level.
#[derive(Clone, Debug, Default)]
pub struct Context<'a> {
    /// `Event`.
    pub event: &'a str,
    /// `Site`.
    pub site: &'a str,
    /// `Round`.
    pub round: String,
    /// `TimeControl` (PGN syntax).
    pub time_control: &'a str,
    /// The run's rules: Chess960 games get `[Variant "Chess960"]` and
    /// always a `FEN` tag, as lichess and python-chess read them.
    pub variant: Variant,
    /// What the move comments hold.
    pub level: Level,
    /// Per engine move, lines of the engine's output to add to its comment
    /// as `line="…"` (fastchess's `-pgnout match_line=`); empty: none.
    pub lines: &'a [Vec<String>],
    /// Whose conventions: arena's, or a tool's whose command line ran.
    pub conventions: Conventions,
}

/// Appends one game in PGN to `out`.
pub fn write_game(out: &mut String, game: &GameRecord, context: &Context<'_>) {
    write_tags(out, game, context);
    let mut fields = game.start_fen.split_whitespace();
    let white_to_move = fields.nth(1) != Some("b");
    let number: u64 = fields.nth(3).and_then(|n| n.parse().ok()).unwrap_or(1);
    // Tokens are written straight into `out` through one reused buffer (no
    // allocation per token: `arena pgn` writes millions of them).
    let mut text = Movetext { line: 0, token: String::with_capacity(256), white_to_move, number, need_number: true };
    for san in &game.opening_san {
        text.san(out, san);
    }
    let ending = if context.level == Level::Min { None } else { ending_comment(game) };
    // The tools close the last move's comment with the end; arena writes it apart.
    let (mut in_last, apart) = match (context.conventions, game.moves.is_empty()) {
        (Conventions::Arena, _) | (_, true) => (None, ending),
        (_, false) => (ending, None),
    };
    let last = game.moves.len().saturating_sub(1);
    for (i, mv) in game.moves.iter().enumerate() {
        text.san(out, &mv.san);
        let lines = context.lines.get(i).map_or(&[][..], Vec::as_slice);
        if context.level == Level::Min && lines.is_empty() {
            continue;
        }
        text.token.clear();
        if context.level == Level::Min {
            text.token.push('{');
        } else {
            move_comment(&mut text.token, mv, context.level);
            text.token.pop();
        }
        for (k, line) in lines.iter().enumerate() {
            let separator = if k == 0 && context.level == Level::Min { "" } else { ", " };
            let _ = write!(text.token, "{separator}line=\"");
            text.token.extend(line.chars().filter(|c| !matches!(c, '{' | '}' | '"')));
            text.token.push('"');
        }
        if i == last
            && let Some(ending) = in_last.take()
        {
            let _ = write!(text.token, ", {ending}");
        }
        text.token.push('}');
        text.flush(out);
        text.need_number = true;
    }
    if let Some(comment) = apart {
        text.token.clear();
        let _ = write!(text.token, "{{{comment}}}");
        text.flush(out);
    }
    text.token.clear();
    text.token.push_str(game.result.pgn());
    text.flush(out);
    out.push_str("\n\n");
}

/// The game's tag pairs and the empty line after them.
fn write_tags(out: &mut String, game: &GameRecord, context: &Context<'_>) {
    let plies = game.opening_moves.len() + game.moves.len();
    // A tag's value with its backslashes and quotes escaped.
    let tag = |out: &mut String, key: &str, value: &str| {
        out.push('[');
        out.push_str(key);
        out.push_str(" \"");
        let mut rest = value;
        while let Some(at) = rest.find(['\\', '"']) {
            out.push_str(&rest[..at]);
            out.push('\\');
            out.push_str(&rest[at..=at]);
            rest = &rest[at + 1..];
        }
        out.push_str(rest);
        out.push_str("\"]\n");
    };
    tag(out, "Event", context.event);
    tag(out, "Site", context.site);
    tag(out, "Date", &date(game.started_ms));
    tag(out, "Round", &context.round);
    tag(out, "White", &game.white);
    tag(out, "Black", &game.black);
    tag(out, "Result", game.result.pgn());
    if !context.variant.is_standard() {
        tag(out, "Variant", context.variant.pgn());
    }
    if game.start_fen != START_FEN || !context.variant.is_standard() {
        tag(out, "FEN", &game.start_fen);
        tag(out, "SetUp", "1");
    }
    tag(out, "Opening", &game.opening);
    tag(out, "TimeControl", context.time_control);
    if let Some(termination) = context.conventions.termination(game.termination) {
        tag(out, "Termination", termination);
    }
    tag(out, "PlyCount", &plies.to_string());
    out.push('\n');
}

/// An engine move's comment: `{+0.31/12 1.204s}`, at `Full` also
/// seldepth, nodes, nps, clock left and the PV (its braces dropped).
fn move_comment(comment: &mut String, mv: &model::MoveRecord, level: Level) {
    comment.push('{');
    match (mv.score_mate, mv.score_cp) {
        (Some(m), _) if m < 0 => {
            let _ = write!(comment, "-M{}", m.unsigned_abs());
        }
        (Some(m), _) => {
            let _ = write!(comment, "+M{m}");
        }
        (None, Some(cp)) => {
            comment.push(if cp < 0 { '-' } else { '+' });
            decimal(comment, cp.unsigned_abs(), 2);
        }
        (None, None) => comment.push('?'),
    }
    if let Some(depth) = mv.depth {
        comment.push('/');
        digits(comment, depth);
    }
    comment.push(' ');
    decimal(comment, mv.time_ms, 3);
    comment.push('s');
    let fields = Fields::of(level);
    {
        let chosen = [(fields.seldepth, "sd", mv.seldepth), (fields.nodes, "n", mv.nodes), (fields.nps, "nps", mv.nps)];
        for (key, value) in chosen.into_iter().filter(|(on, ..)| *on).map(|(_, key, value)| (key, value)) {
            if let Some(value) = value {
                comment.push_str(", ");
                comment.push_str(key);
                comment.push('=');
                digits(comment, value);
            }
        }
        if fields.timeleft && mv.clock_ms > 0 {
            comment.push_str(", tl=");
            decimal(comment, mv.clock_ms, 3);
            comment.push('s');
        }
        let mut words = mv.pv.split_whitespace().peekable();
        if fields.pv && words.peek().is_some() {
            comment.push_str(", pv=");
            for (i, word) in words.enumerate() {
                if i > 0 {
                    comment.push(' ');
                }
                comment.extend(word.chars().filter(|c| !matches!(c, '{' | '}')));
            }
        }
    }
    comment.push('}');
}

/// The movetext being written: lines of at most 79 characters (a token
/// longer than that stands alone), move numbers where PGN needs them.
struct Movetext {
    /// Characters on the current line.
    line: usize,
    /// The token being built.
    token: String,
    white_to_move: bool,
    number: u64,
    /// Black's move needs `N...` (first move, or after a comment).
    need_number: bool,
}

impl Movetext {
    /// Writes a move with its number when it needs one.
    fn san(&mut self, out: &mut String, san: &str) {
        if self.white_to_move || self.need_number {
            let mut number = itoa::Buffer::new();
            let dots = if self.white_to_move { "." } else { "..." };
            self.write(out, &[number.format(self.number), dots]);
        }
        self.write(out, &[san]);
        self.need_number = false;
        if !self.white_to_move {
            self.number += 1;
        }
        self.white_to_move = !self.white_to_move;
    }

    /// Writes the token built in `token`.
    fn flush(&mut self, out: &mut String) {
        let token = std::mem::take(&mut self.token);
        self.write(out, &[&token]);
        self.token = token;
    }

    /// Writes a token made of `parts`, on a new line if it does not fit on
    /// this one.
    fn write(&mut self, out: &mut String, parts: &[&str]) {
        let len: usize = parts.iter().map(|part| part.len()).sum();
        if self.line > 0 && self.line + 1 + len > 79 {
            out.push('\n');
            self.line = 0;
        } else if self.line > 0 {
            out.push(' ');
            self.line += 1;
        }
        self.line += len;
        parts.iter().for_each(|part| out.push_str(part));
    }
}

/// Appends `value` in decimal, by itoa (the formatting machinery is a
/// third of `arena pgn`'s time otherwise).
fn digits(out: &mut String, value: u64) {
    out.push_str(itoa::Buffer::new().format(value));
}

/// Appends `value / 10^places` with `places` decimals (`154, 3` → `0.154`):
/// the digits of `value` once, the point set among them.
fn decimal(out: &mut String, value: u64, places: usize) {
    let mut buffer = itoa::Buffer::new();
    let text = buffer.format(value);
    match text.len().checked_sub(places) {
        Some(whole) if whole > 0 => {
            out.push_str(&text[..whole]);
            out.push('.');
            out.push_str(&text[whole..]);
        }
        _ => {
            out.push_str("0.");
            for _ in text.len()..places {
                out.push('0');
            }
            out.push_str(text);
        }
    }
}

fn ending_comment(game: &GameRecord) -> Option<String> {
    let text = game.termination.words(game.result, model::Wording::Arena);
    let detail =
        if game.detail.is_empty() { String::new() } else { format!(": {}", game.detail.replace(['{', '}'], "")) };
    Some(format!("{text}{detail}"))
}

/// `YYYY.MM.DD` of a Unix millisecond time (UTC), `????.??.??` if unknown.
fn date(unix_ms: i64) -> String {
    match chrono::DateTime::from_timestamp_millis(unix_ms) {
        Some(time) if unix_ms > 0 => format!("{:04}.{:02}.{:02}", time.year(), time.month(), time.day()),
        _ => "????.??.??".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use model::{GameResult, MoveRecord};

    #[test]
    fn numbers_as_format_writes_them() {
        for value in [0, 5, 9, 10, 99, 100, 154, 1000, 1001, 12_345, 999_999, u64::MAX] {
            let (mut two, mut three, mut plain) = (String::new(), String::new(), String::new());
            decimal(&mut two, value, 2);
            decimal(&mut three, value, 3);
            digits(&mut plain, value);
            assert_eq!(two, format!("{}.{:02}", value / 100, value % 100));
            assert_eq!(three, format!("{}.{:03}", value / 1000, value % 1000));
            assert_eq!(plain, value.to_string());
        }
    }

    #[test]
    fn dates_and_movetext() {
        assert_eq!(date(0), "????.??.??");
        assert_eq!(date(1_795_219_200_000), "2026.11.21");
        assert_eq!(date(951_782_400_000), "2000.02.29");
        assert_eq!(date(i64::MAX), "????.??.??");
        let game = GameRecord {
            white: "fhr \\ 2".into(),
            black: "plain \"x\"".into(),
            start_fen: START_FEN.into(),
            opening: "1. e4 e5".into(),
            opening_moves: vec!["e2e4".into(), "e7e5".into()],
            opening_san: vec!["e4".into(), "e5".into()],
            result: GameResult::BlackWins,
            termination: Termination::TimeForfeit,
            detail: "1020 ms used".into(),
            moves: vec![MoveRecord {
                uci: "g1f3".into(),
                san: "Nf3".into(),
                time_ms: 1234,
                score_cp: Some(-35),
                depth: Some(9),
                ..MoveRecord::default()
            }],
            started_ms: 1_795_219_200_000,
            finished_ms: 1_795_219_201_000,
            pv_issues: Vec::new(),
            io_log: None,
            machine: String::new(),
            lost_ms: None,
            tc_scale: None,
        };
        let mut out = String::new();
        write_game(
            &mut out,
            &game,
            &Context { event: "e", site: "s", round: "1.2".into(), time_control: "40/300", ..Context::default() },
        );
        assert!(out.contains("[Black \"plain \\\"x\\\"\"]"), "{out}");
        assert!(out.contains("[White \"fhr \\\\ 2\"]"), "{out}");
        assert!(out.contains("[PlyCount \"3\"]") && !out.contains("[FEN"), "{out}");
        assert!(out.contains("1. e4 e5 2. Nf3 {-0.35/9 1.234s} {White loses on time: 1020 ms used} 0-1"), "{out}");

        let mut full = game.clone();
        full.moves[0] = MoveRecord {
            seldepth: Some(14),
            nodes: Some(81_234),
            nps: Some(527_000),
            clock_ms: 9_846,
            pv: "g1f3 b8c6 f1b5".into(),
            ..full.moves[0].clone()
        };
        let (mut min, mut detailed) = (String::new(), String::new());
        write_game(&mut min, &full, &Context { level: Level::Min, ..Context::default() });
        write_game(&mut detailed, &full, &Context { level: Level::Full, ..Context::default() });
        assert!(min.contains("\n\n1. e4 e5 2. Nf3 0-1\n") && !min.contains('{'), "{min}");
        assert!(
            detailed.contains("2. Nf3\n{-0.35/9 1.234s, sd=14, n=81234, nps=527000, tl=9.846s, pv=g1f3 b8c6 f1b5}"),
            "{detailed}"
        );
        let lines = [vec!["info string hash \"full\" {x}".to_string(), "info depth 9".to_string()]];
        let (mut min, mut normal) = (String::new(), String::new());
        write_game(&mut min, &full, &Context { level: Level::Min, lines: &lines, ..Context::default() });
        write_game(&mut normal, &full, &Context { lines: &lines, ..Context::default() });
        assert!(min.contains("2. Nf3 {line=\"info string hash full x\", line=\"info depth 9\"} 0-1"), "{min}");
        assert!(
            normal.contains("{-0.35/9 1.234s, line=\"info string hash full x\", line=\"info depth 9\"}"),
            "{normal}"
        );
    }
}
