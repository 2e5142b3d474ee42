//! The scaling part of a report (`arena scale`): A against B at each search
//! budget — its Elo with the interval, W-D-L, draw ratio, and the mean depth
//! and seldepth each side reached — the Elo drawn against log₂ of the
//! budget, and whether the difference changes with the budget, in one line
//! ([`crate::stats::scaling`]).

use serde::Serialize;

use super::PairingReport;
use super::document::{Align, Block, Table, columns};
use super::svg::{Band, LinePlot, Series};
use crate::stats::scaling::{Trend, budget_trend, verdict};

/// One budget of a scaling run, as the report is built from it.
#[derive(Clone, Debug, PartialEq)]
pub struct Budget {
    /// As given, e.g. `nodes=4000` or `4+0.04`.
    pub label: String,
    /// Its size on the x axis: nodes, depth, or milliseconds of a game's clock.
    pub amount: f64,
    /// Mean depth and seldepth of A's and B's moves: `[[A depth, A seldepth], [B …]]`.
    pub depths: [[Option<f64>; 2]; 2],
}

/// One budget's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScalePoint {
    /// The budget, as given.
    pub budget: String,
    /// Its size (nodes, depth, or ms of a game's clock).
    pub amount: f64,
    /// Games played at it.
    pub games: u64,
    /// A's wins, draws and losses.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Elo of A − B (pentanomial), absent before the first pair.
    pub elo: Option<f64>,
    /// Its 95 % interval.
    pub elo_ci95: Option<[f64; 2]>,
    /// The Elo as every view prints it.
    pub elo_text: String,
    /// Draws per game.
    pub draw_ratio: Option<f64>,
    /// Mean depth of A's moves.
    pub a_depth: Option<f64>,
    /// Mean seldepth of A's moves.
    pub a_seldepth: Option<f64>,
    /// Mean depth of B's moves.
    pub b_depth: Option<f64>,
    /// Mean seldepth of B's moves.
    pub b_seldepth: Option<f64>,
}

/// The scaling section.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScaleSection {
    /// Engine A and B, as named on the command line.
    pub a: String,
    /// Engine B.
    pub b: String,
    /// One point per budget, cheapest first.
    pub points: Vec<ScalePoint>,
    /// Elo against log₂ budget, when two budgets have games.
    pub trend: Option<Trend>,
    /// What the trend says, in one line.
    pub verdict: String,
}

impl ScaleSection {
    /// The section of A (`a`) against B at `budgets`, pairing i at budget i.
    pub fn build(a: &str, b: &str, budgets: &[Budget], pairings: &[PairingReport]) -> ScaleSection {
        let points: Vec<ScalePoint> = budgets
            .iter()
            .zip(pairings)
            .map(|(budget, pairing)| {
                let s = &pairing.statistics;
                let estimate = s.pentanomial_estimate.as_ref();
                ScalePoint {
                    budget: budget.label.clone(),
                    amount: budget.amount,
                    games: s.games,
                    wins: s.wins.unwrap_or(0),
                    draws: s.draws.unwrap_or(0),
                    losses: s.losses.unwrap_or(0),
                    elo: estimate.map(|e| e.elo),
                    elo_ci95: estimate.map(|e| e.elo_ci95),
                    elo_text: estimate.map_or_else(|| "-".to_string(), |e| e.elo_text.clone()),
                    draw_ratio: (s.games > 0).then(|| s.draws.unwrap_or(0) as f64 / s.games as f64),
                    a_depth: budget.depths[0][0],
                    a_seldepth: budget.depths[0][1],
                    b_depth: budget.depths[1][0],
                    b_seldepth: budget.depths[1][1],
                }
            })
            .collect();
        let trend = budget_trend(points.iter().filter_map(|p| Some((p.amount, p.elo?, p.elo_ci95?))));
        let verdict = verdict(trend.as_ref());
        ScaleSection { a: a.to_string(), b: b.to_string(), points, trend, verdict }
    }

    /// The verdict, the table per budget and the plot.
    pub(super) fn blocks(&self) -> Vec<Block> {
        let number = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v:.1}"));
        let mut out = vec![
            Block::Heading(2, format!("Scaling: {} against {} by search budget", self.a, self.b)),
            Block::Lines(false, vec![format!("trend: {}", self.verdict)]),
            Block::Table(Table {
                columns: columns(&[
                    ("Budget", Align::Left),
                    ("Games", Align::Right),
                    ("W-D-L", Align::Right),
                    ("Elo", Align::Right),
                    ("Draws", Align::Right),
                    ("Depth A", Align::Right),
                    ("Seldepth A", Align::Right),
                    ("Depth B", Align::Right),
                    ("Seldepth B", Align::Right),
                ]),
                rows: self
                    .points
                    .iter()
                    .map(|p| {
                        vec![
                            p.budget.clone(),
                            p.games.to_string(),
                            format!("+{} ={} -{}", p.wins, p.draws, p.losses),
                            p.elo_text.clone(),
                            p.draw_ratio.map_or("-".to_string(), |d| format!("{:.1} %", 100.0 * d)),
                            number(p.a_depth),
                            number(p.a_seldepth),
                            number(p.b_depth),
                            number(p.b_seldepth),
                        ]
                    })
                    .collect(),
            }),
        ];
        let drawn: Vec<&ScalePoint> = self.points.iter().filter(|p| p.elo.is_some()).collect();
        if drawn.len() >= 2 {
            let x = |p: &ScalePoint| p.amount.log2();
            let mut series = vec![Series {
                name: format!("Elo {} − {}", self.a, self.b),
                points: drawn.iter().filter_map(|p| Some((x(p), p.elo?))).collect(),
            }];
            if let Some(t) = &self.trend {
                let first = x(drawn[0]);
                series.push(Series {
                    name: "weighted line".to_string(),
                    points: drawn.iter().map(|p| (x(p), t.intercept + t.slope * (x(p) - first))).collect(),
                });
            }
            let band =
                Band { points: drawn.iter().filter_map(|p| Some((x(p), p.elo_ci95?[0], p.elo_ci95?[1]))).collect() };
            // Node budgets named by their size ("16k", "1024k"), others as given ("4+0.04").
            let nodes = drawn.iter().all(|p| p.budget.starts_with("nodes="));
            let name = |p: &ScalePoint| if nodes { thousands(p.amount) } else { p.budget.clone() };
            let plot = LinePlot {
                title: format!("Elo of {} against {} by budget, with 95 % intervals", self.a, self.b),
                x_label: if nodes { "nodes per move (log scale)" } else { "budget (log scale)" },
                y_label: "Elo",
                series,
                band: Some(band),
                rules: vec![(0.0, String::new())],
                x_names: drawn.iter().map(|p| (x(p), name(p))).collect(),
            };
            out.push(Block::Plot { caption: format!("Elo against budget: {}", self.verdict), svg: plot.to_svg() });
        }
        out
    }
}
/// A node count in thousands where it is whole thousands ("16k", "1024k",
/// so that a curve's fourfold steps read alike), else as it is.
fn thousands(nodes: f64) -> String {
    if nodes >= 1000.0 && nodes % 1000.0 == 0.0 { format!("{}k", nodes / 1000.0) } else { format!("{nodes}") }
}
