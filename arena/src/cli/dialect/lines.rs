//! A run's games as fastchess or cutechess-cli print them, line for line
//! (their `output_fastchess.hpp`, `output_cutechess.hpp`, cutechess's
//! `enginematch.cpp` and `tournament.cpp`): `Started game N of M (W vs B)`,
//! `Finished game N (W vs B): 1-0 {White mates}`, the score and result
//! blocks at their intervals, and `Finished match`. The numbers are arena's
//! own statistics ([`Statistics`]); only the layout is theirs. Game 2k−1
//! and 2k are the two games of pair k, the first engine of its pairing
//! White in the first, so that a parser written for those tools (fishtest's
//! worker, OpenBench's client) reads arena unchanged.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use model::{GameResult, GameRow, Termination, Test};
use reports::stats::{Counts, Summary, summarize};
use reports::summary::Statistics;

use super::parse::{Foreign, Style};
use crate::cli::common::GameLines;
use crate::cli::shared::{CliResult, out};

/// One engine's results against one opponent (or all), as the tools count them.
#[derive(Clone, Debug, Default)]
struct Tally {
    wins: u64,
    draws: u64,
    losses: u64,
    /// Wins, losses and draws with White, then with Black (cutechess's lines).
    white: [u64; 3],
    black: [u64; 3],
    /// Pairs by points 0, ½, 1 (split into two losses-and-wins and two draws), 1½, 2.
    ll: u64,
    ld: u64,
    wl: u64,
    dd: u64,
    wd: u64,
    ww: u64,
}

impl Tally {
    fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// A game of this engine: 2 a win, 1 a draw, 0 a loss.
    fn game(&mut self, points: u8, white: bool) {
        let side = if white { &mut self.white } else { &mut self.black };
        match points {
            2 => (self.wins += 1, side[0] += 1),
            1 => (self.draws += 1, side[2] += 1),
            _ => (self.losses += 1, side[1] += 1),
        };
    }

    /// A pair of this engine's games.
    fn pair(&mut self, first: u8, second: u8) {
        match (first + second, first) {
            (0, _) => self.ll += 1,
            (1, _) => self.ld += 1,
            (2, 1) => self.dd += 1,
            (2, _) => self.wl += 1,
            (3, _) => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    fn pentanomial(&self) -> [u64; 5] {
        [self.ll, self.ld, self.wl + self.dd, self.wd, self.ww]
    }

    fn statistics(&self, test: Option<Test>, penta: bool) -> Statistics {
        let pairs = self.pentanomial().iter().sum::<u64>();
        let ptnml = (penta && pairs > 0).then(|| self.pentanomial());
        Statistics::new(Some((self.wins, self.draws, self.losses)), ptnml, test, None)
    }

    /// The figures fastchess and cutechess print (fishtest's formulas: the
    /// normal approximation), of the pairs (`penta`) or the games; `None`
    /// before a game.
    fn figures(&self, penta: bool) -> Option<Summary> {
        let pairs = self.pentanomial().iter().sum::<u64>();
        if penta && pairs > 0 {
            summarize(&Counts::Pentanomial(self.pentanomial()))
        } else if penta {
            None
        } else {
            summarize(&Counts::Trinomial { wins: self.wins, draws: self.draws, losses: self.losses })
        }
    }

    fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }
}

/// The printer of one run's lines.
pub(super) struct Lines {
    style: Style,
    penta: bool,
    rating_interval: u64,
    score_interval: u64,
    crc32: bool,
    /// The run's engines, in the order of the command line.
    names: Vec<String>,
    test: Option<Test>,
    planned: u64,
    /// Run-wide words of fastchess's block head: time control, threads, hash, book.
    head: String,
    finished: u64,
    pairs_done: u64,
    /// Games of pairs whose other game is not read yet.
    waiting: BTreeMap<i64, GameRow>,
    /// The first pairing's first engine against its second (two engines).
    head_to_head: Tally,
    /// Each engine against all.
    engines: Vec<Tally>,
    /// Counting games played before without printing them (a resumed run).
    silent: bool,
    /// The finishing number of the last pair given.
    followed: i64,
    /// Called when the run starts: writes the state file.
    saving: Option<OnStart>,
}

/// What is done when the run starts, given the run and its database.
pub(super) type OnStart = Box<dyn Fn(i64, &db::Target) -> CliResult + Send>;

/// How the printer prints.
pub(super) struct Settings {
    pub(super) style: Style,
    pub(super) penta: bool,
    pub(super) rating_interval: u64,
    pub(super) score_interval: u64,
    pub(super) crc32: bool,
    pub(super) saving: Option<OnStart>,
}

impl Settings {
    /// How `foreign` asks the lines printed, with the state file `saving`.
    pub(super) fn of(foreign: &Foreign, saving: Option<OnStart>) -> Settings {
        Settings {
            style: foreign.style,
            penta: foreign.penta,
            rating_interval: foreign.rating_interval,
            score_interval: foreign.score_interval,
            crc32: foreign.crc32,
            saving,
        }
    }
}

impl Lines {
    /// While `silent`, games given are counted, not printed.
    pub(super) fn silent(&mut self, silent: bool) {
        self.silent = silent;
    }

    /// The games given so far, up to finishing number `after`, were played
    /// before: printing starts after them, and they count only if `counted`.
    pub(super) fn resumed_after(&mut self, after: i64, counted: bool) {
        self.silent = false;
        self.followed = after;
        if !counted {
            self.head_to_head = Tally::default();
            self.engines = vec![Tally::default(); self.names.len()];
            self.finished = 0;
            self.pairs_done = 0;
        }
    }

    /// The lines of a run of `spec` with `planned` games.
    pub(super) fn new(settings: Settings, spec: &model::GamesSpec, planned: u64) -> Lines {
        let names: Vec<String> = spec.engines.iter().map(|e| e.name.clone()).collect();
        // fastchess's head: `8+0.08, 1t, 16MB, book.epd`, `NULL` for an option not set.
        let option = |name: &str, unit: &str| {
            let values: Vec<String> = spec
                .engines
                .iter()
                .map(|e| {
                    let value = e.options.iter().find(|(n, _)| n.eq_ignore_ascii_case(name));
                    value.map_or("NULL".into(), |(_, v)| format!("{v}{unit}"))
                })
                .collect();
            if values.iter().all(|v| *v == values[0]) { values[0].clone() } else { values.join(" - ") }
        };
        let limits: Vec<String> =
            (0..spec.engines.len()).map(|i| spec.time_control(i).map_or_else(String::new, limit_text)).collect();
        let limit = if limits.iter().all(|l| *l == limits[0]) { limits[0].clone() } else { limits.join(" - ") };
        let book = Path::new(&spec.openings).file_name().and_then(|n| n.to_str()).unwrap_or(&spec.openings);
        let head = format!("{limit}, {}, {}, {book}", option("Threads", "t"), option("Hash", "MB"));
        Lines {
            style: settings.style,
            penta: settings.penta,
            rating_interval: settings.rating_interval,
            score_interval: settings.score_interval,
            crc32: settings.crc32,
            engines: vec![Tally::default(); names.len()],
            names,
            test: spec.kind.sprt(),
            planned,
            head,
            finished: 0,
            pairs_done: 0,
            waiting: BTreeMap::new(),
            head_to_head: Tally::default(),
            silent: false,
            followed: 0,
            saving: settings.saving,
        }
    }

    /// The lines of one game.
    fn game_lines(&mut self, game: &GameRow) -> CliResult {
        let number = 2 * game.pair_index + game.game_in_pair + 1;
        let record = &game.record;
        let (white, black) = (&record.white, &record.black);
        let mut text = format!("Started game {number} of {} ({white} vs {black})\n", self.planned);
        if self.style == Style::Fastchess && record.termination == Termination::IllegalMove {
            let loser = if record.result == GameResult::WhiteWins { black } else { white };
            let played = if record.detail.is_empty() { "<none>" } else { record.detail.as_str() };
            let _ = writeln!(text, "Warning; Illegal move {played} played by {loser}");
        }
        let result = match record.result {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        };
        let _ = writeln!(text, "Finished game {number} ({white} vs {black}): {result} {{{}}}", reason(record));
        self.finished += 1;
        let points = match record.result {
            GameResult::WhiteWins => [2, 0],
            GameResult::BlackWins => [0, 2],
            GameResult::Draw => [1, 1],
        };
        for (name, points, is_white) in [(white, points[0], true), (black, points[1], false)] {
            if let Some(i) = self.names.iter().position(|n| n == name) {
                self.engines[i].game(points, is_white);
            }
        }
        if self.names.len() == 2 {
            let first_is_white = *white == self.names[0];
            self.head_to_head.game(if first_is_white { points[0] } else { points[1] }, first_is_white);
            if self.style == Style::Cutechess && self.every(self.score_interval, self.finished) {
                text.push_str(&self.score_line());
            }
        }
        if !self.silent {
            out!("{text}");
            if !self.penta && self.every(self.rating_interval, self.finished) {
                out!("{}", self.block());
            }
        }
        Ok(())
    }

    /// Both games of a pair read: the pentanomial counts.
    fn pair_done(&mut self, first: &GameRow, second: &GameRow) {
        let points = |game: &GameRow, name: &str| match game.record.result {
            GameResult::Draw => 1,
            GameResult::WhiteWins if game.record.white == name => 2,
            GameResult::BlackWins if game.record.black == name => 2,
            _ => 0,
        };
        for (i, name) in self.names.clone().iter().enumerate() {
            if first.record.white == *name || first.record.black == *name {
                self.engines[i].pair(points(first, name), points(second, name));
            }
        }
        if self.names.len() == 2 {
            let a = &self.names[0];
            self.head_to_head.pair(points(first, a), points(second, a));
        }
        self.pairs_done += 1;
    }

    fn every(&self, interval: u64, count: u64) -> bool {
        interval > 0 && count.is_multiple_of(interval)
    }

    /// cutechess's line after a game: `Score of A vs B: W - L - D  [0.500] N`.
    fn score_line(&self) -> String {
        let t = &self.head_to_head;
        let games = t.games();
        let score = if games == 0 { 0.0 } else { t.points() / games as f64 };
        format!(
            "Score of {} vs {}: {} - {} - {}  [{score:.3}] {games}\n",
            self.names[0], self.names[1], t.wins, t.losses, t.draws
        )
    }

    /// The results block at an interval or at the end.
    fn block(&self) -> String {
        match (self.style, self.names.len()) {
            (Style::Fastchess, 2) => self.fastchess_block(),
            (Style::Cutechess, 2) => self.cutechess_block(),
            _ => self.ranking(),
        }
    }

    fn fastchess_block(&self) -> String {
        let t = &self.head_to_head;
        let stats = t.statistics(self.test, self.penta);
        let (mut elo, mut nelo, los, draws) = figures(t.figures(self.penta).as_ref());
        let mut los = format!("{los:.2}");
        if let Some(degenerate) = without_spread(t, self.penta) {
            (elo, nelo, los) = degenerate;
        }
        let games = t.games();
        let pct = if games == 0 { 0.0 } else { 100.0 * t.points() / games as f64 };
        let mut text = String::from("--------------------------------------------------\n");
        let _ = writeln!(text, "Results of {} vs {} ({}):", self.names[0], self.names[1], self.head);
        let _ = writeln!(text, "Elo: {elo}, nElo: {nelo}");
        let pairs_ratio = ratio((t.ww + t.wd) as f64, (t.ll + t.ld) as f64);
        let pairs = if self.penta { format!(", PairsRatio: {pairs_ratio:.2}") } else { String::new() };
        let _ = writeln!(text, "LOS: {los} %, DrawRatio: {draws:.2} %{pairs}");
        let _ = writeln!(
            text,
            "Games: {games}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({pct:.2} %)",
            t.wins,
            t.losses,
            t.draws,
            t.points()
        );
        if self.penta {
            let [a, b, c, d, e] = t.pentanomial();
            let _ = writeln!(
                text,
                "Ptnml(0-2): [{a}, {b}, {c}, {d}, {e}], WL/DD Ratio: {:.2}",
                ratio(t.wl as f64, t.dd as f64)
            );
        }
        if let Some(sprt) = &stats.sprt {
            let fraction = if sprt.llr >= 0.0 { sprt.llr / sprt.upper } else { sprt.llr / sprt.lower };
            let _ = writeln!(
                text,
                "LLR: {:.2} ({:.1}%) ({:.2}, {:.2}) [{:.2}, {:.2}]",
                sprt.llr,
                100.0 * fraction,
                sprt.lower,
                sprt.upper,
                sprt.test.elo0(),
                sprt.test.elo1()
            );
        }
        text.push_str("--------------------------------------------------\n");
        text
    }

    fn cutechess_block(&self) -> String {
        let t = &self.head_to_head;
        let name = &self.names[0];
        let mut text = String::new();
        for (colour, [w, l, d]) in [("White", t.white), ("Black", t.black)] {
            let games = w + l + d;
            if games > 0 {
                let score = (w as f64 + d as f64 / 2.0) / games as f64;
                let _ = writeln!(text, "...      {name} playing {colour}: {w} - {l} - {d}  [{score:.3}] {games}");
            }
        }
        let games = t.games();
        if games > 0 {
            let (ww, wl, d) = (t.white[0] + t.black[1], t.white[1] + t.black[0], t.draws);
            let score = (ww as f64 + d as f64 / 2.0) / games as f64;
            let _ = writeln!(text, "...      White vs Black: {ww} - {wl} - {d}  [{score:.3}] {games}");
        }
        let stats = t.statistics(self.test, false);
        let figures = t.figures(false);
        let estimate = figures.as_ref();
        let (elo, error) = estimate.map_or((0.0, 0.0), |e| (e.elo, (e.elo_ci95.1 - e.elo_ci95.0) / 2.0));
        let los = estimate.map_or(50.0, |e| 100.0 * e.los);
        let draws = if games == 0 { 0.0 } else { 100.0 * t.draws as f64 / games as f64 };
        let _ = writeln!(text, "Elo difference: {elo:.1} +/- {error:.1}, LOS: {los:.1} %, DrawRatio: {draws:.1} %");
        if let Some(sprt) = &stats.sprt {
            let fraction = if sprt.llr < 0.0 { sprt.llr / sprt.lower } else { sprt.llr / sprt.upper };
            let decided = match sprt.verdict {
                Some(model::Verdict::AcceptH1) => " - H1 was accepted",
                Some(model::Verdict::AcceptH0) => " - H0 was accepted",
                _ => "",
            };
            let _ = writeln!(
                text,
                "SPRT: llr {:.2} ({:.1}%), lbound {:.2}, ubound {:.2}{decided}",
                sprt.llr,
                100.0 * fraction,
                sprt.lower,
                sprt.upper
            );
        }
        text
    }

    /// Three engines or more: the ranking table both tools print.
    fn ranking(&self) -> String {
        let width = self.names.iter().map(String::len).max().unwrap_or(0).max(25);
        let mut rows: Vec<(usize, Option<Summary>)> =
            self.engines.iter().enumerate().map(|(i, t)| (i, t.figures(self.penta))).collect();
        let elo = |i: usize| self.engines[i].figures(false).map_or(f64::NAN, |e| e.elo);
        rows.sort_by(|a, b| elo(b.0).total_cmp(&elo(a.0)));
        let mut text = format!(
            "{:<4} {:<width$} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10} {:>10}\n",
            "Rank", "Name", "Elo", "+/-", "nElo", "+/-", "Games", "Score", "Draw"
        );
        for (rank, (i, figures)) in rows.iter().enumerate() {
            let t = &self.engines[*i];
            let (elo, error, nelo, nerror) = figures.as_ref().map_or((0.0, 0.0, 0.0, 0.0), |e| {
                (e.elo, (e.elo_ci95.1 - e.elo_ci95.0) / 2.0, e.nelo, (e.nelo_ci95.1 - e.nelo_ci95.0) / 2.0)
            });
            let games = t.games();
            let score = if games == 0 { 0.0 } else { 100.0 * t.points() / games as f64 };
            let draws = if games == 0 { 0.0 } else { 100.0 * t.draws as f64 / games as f64 };
            let _ = writeln!(
                text,
                "{:>4} {:<width$} {elo:>10.2} {error:>10.2} {nelo:>10.2} {nerror:>10.2} {games:>10} {score:>9.1}% {draws:>9.1}%",
                rank + 1,
                self.names[*i]
            );
        }
        text
    }
}

/// The games a run of `spec` plays: `M` of `Started game N of M`.
pub(super) fn planned(spec: &model::GamesSpec) -> u64 {
    2 * (spec.openings_per_round * spec.rounds * spec.pairings.len()) as u64
}

/// A limit as fastchess's head says it: `40/60+0.6`, `0.5/move`, `8 plies`, `400 nodes`.
fn limit_text(tc: &model::TimeControl) -> String {
    let seconds = |ms: u64| format!("{}", ms as f64 / 1000.0);
    match &tc.limit {
        model::Limit::Clock(periods) => {
            let texts: Vec<String> = periods
                .iter()
                .map(|p| {
                    let moves = p.moves.map_or(String::new(), |m| format!("{m}/"));
                    let increment =
                        if p.increment_ms > 0 { format!("+{}", seconds(p.increment_ms)) } else { String::new() };
                    format!("{moves}{}{increment}", seconds(p.time_ms))
                })
                .collect();
            texts.join(":")
        }
        model::Limit::MoveTime(ms) => format!("{}/move", seconds(*ms)),
        model::Limit::Depth(depth) => format!("{depth} plies"),
        model::Limit::Nodes(nodes) => format!("{nodes} nodes"),
        model::Limit::Infinite => String::new(),
    }
}

/// Elo and nElo as `x +/- y`, LOS and the draw ratio in percent.
fn figures(estimate: Option<&Summary>) -> (String, String, f64, f64) {
    let Some(e) = estimate else {
        return ("0.00 +/- 0.00".into(), "0.00 +/- 0.00".into(), 50.0, 0.0);
    };
    let half = |ci: (f64, f64)| (ci.1 - ci.0) / 2.0;
    (
        format!("{:.2} +/- {:.2}", e.elo + 0.0, half(e.elo_ci95)),
        format!("{:.2} +/- {:.2}", e.nelo + 0.0, half(e.nelo_ci95)),
        100.0 * e.los,
        100.0 * e.draw_ratio,
    )
}

/// fastchess's Elo, nElo and LOS where its samples have no spread (every
/// game, or every pair, scored alike: all won, all lost, all drawn): its
/// formulas (`elo_wdl.cpp`, `elo_pentanomial.cpp`) then divide by a zero
/// variance and print `inf`, `-inf` and `nan`, which a parser of its output
/// meets there; `None` when the sample has a spread (arena's figures, as
/// fastchess's, then).
fn without_spread(t: &Tally, penta: bool) -> Option<(String, String, String)> {
    let (score, variance) = if penta {
        let counts = t.pentanomial();
        let n: u64 = counts.iter().sum();
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let p: Vec<f64> = counts.iter().map(|&c| c as f64 / n as f64).collect();
        let score: f64 = p.iter().zip(values).map(|(p, v)| p * v).sum();
        (score, p.iter().zip(values).map(|(p, v)| p * (v - score).powi(2)).sum::<f64>())
    } else {
        let n = t.games() as f64;
        let (w, d, l) = (t.wins as f64 / n, t.draws as f64 / n, t.losses as f64 / n);
        let score = w + d / 2.0;
        (score, w * (1.0 - score).powi(2) + d * (0.5 - score).powi(2) + l * score.powi(2))
    };
    if t.games() == 0 || variance > 0.0 {
        return None;
    }
    let number = |x: f64| if x.is_nan() { "nan".to_string() } else { format!("{x:.2}") };
    let elo = -400.0 * (1.0 / score - 1.0).log10();
    // The interval's two ends are the score itself: no width, or ∞ − ∞.
    let elo_error = if elo.is_finite() { 0.0 } else { f64::NAN };
    let nelo = if score == 0.5 { f64::NAN } else { (score - 0.5).signum() * f64::INFINITY };
    let los = match score.partial_cmp(&0.5) {
        Some(std::cmp::Ordering::Greater) => 100.0,
        Some(std::cmp::Ordering::Less) => 0.0,
        _ => f64::NAN,
    };
    Some((format!("{} +/- {}", number(elo), number(elo_error)), format!("{} +/- nan", number(nelo)), number(los)))
}

/// `a / b`, as the tools print a ratio of counts (0 over 0 is 0).
fn ratio(a: f64, b: f64) -> f64 {
    if b == 0.0 { if a == 0.0 { 0.0 } else { f64::INFINITY } } else { a / b }
}

/// Why a game ended, in the tools' words (their result texts).
fn reason(record: &model::GameRecord) -> String {
    record.termination.words(record.result, model::Wording::Tools)
}

impl GameLines for Lines {
    fn games(&mut self, games: &[GameRow]) -> CliResult {
        for game in games {
            let Some(other) = self.waiting.remove(&game.pair_index) else {
                self.waiting.insert(game.pair_index, game.clone());
                continue;
            };
            let (first, second) = if other.game_in_pair == 0 { (&other, game) } else { (game, &other) };
            self.game_lines(first)?;
            self.game_lines(second)?;
            self.pair_done(first, second);
            if self.penta && !self.silent && self.every(self.rating_interval, self.pairs_done) {
                out!("{}", self.block());
            }
        }
        Ok(())
    }

    fn started(&mut self, run: i64, target: &db::Target) -> CliResult {
        self.saving.as_ref().map_or(Ok(()), |saving| saving(run, target))
    }

    fn followed(&self) -> i64 {
        self.followed
    }

    fn end(&mut self, pgn: Option<&Path>) -> CliResult {
        let count = if self.penta { self.pairs_done } else { self.finished };
        if !self.every(self.rating_interval, count) || count == 0 {
            if self.style == Style::Cutechess
                && self.names.len() == 2
                && !self.every(self.score_interval, self.finished)
            {
                out!("{}", self.score_line());
            }
            out!("{}", self.block());
        }
        if let (true, Some(path)) = (self.crc32, pgn) {
            let bytes = std::fs::read(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
            out!("File {} has CRC32: {:#x}\n", path.display(), crc32fast::hash(&bytes));
        }
        out!("Finished match\n");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{Tally, without_spread};

    /// What fastchess's formulas give a sample without spread, worked by
    /// hand from `elo_wdl.cpp` and `elo_pentanomial.cpp`.
    #[test]
    fn a_sample_without_spread_reads_as_fastchess_prints_it() {
        let text = |t: &Tally, penta| without_spread(t, penta).map(|(e, n, l)| format!("{e} | {n} | {l}"));
        let all_won = Tally { wins: 4, ww: 2, ..Tally::default() };
        assert_eq!(text(&all_won, false).unwrap(), "inf +/- nan | inf +/- nan | 100.00");
        assert_eq!(text(&all_won, true).unwrap(), "inf +/- nan | inf +/- nan | 100.00");
        let all_lost = Tally { losses: 2, ll: 1, ..Tally::default() };
        assert_eq!(text(&all_lost, false).unwrap(), "-inf +/- nan | -inf +/- nan | 0.00");
        let drawn = Tally { draws: 4, dd: 2, ..Tally::default() };
        assert_eq!(text(&drawn, false).unwrap(), "-0.00 +/- 0.00 | nan +/- nan | nan");
        // Every pair a win and a draw: 75 %, a finite Elo with no width.
        let alike = Tally { wins: 2, draws: 2, wd: 2, ..Tally::default() };
        assert_eq!(text(&alike, true).unwrap(), "190.85 +/- 0.00 | inf +/- nan | 100.00");
        assert_eq!(text(&alike, false), None, "its games differ");
        assert_eq!(text(&Tally::default(), true), None);
    }
}
