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
use crate::summary::Estimate;

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
    /// Its 95 % interval, an end `None` when unbounded (all won or lost);
    /// `None` when too few pairs to decide. A budget without both ends is
    /// left out of the curve and the line.
    pub elo_ci95: Option<[Option<f64>; 2]>,
    /// The Elo and interval the curve and the line use ([`Estimate::point`]).
    #[serde(skip)]
    point: Option<(f64, [f64; 2])>,
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
                let estimate = s.estimate.as_ref();
                ScalePoint {
                    budget: budget.label.clone(),
                    amount: budget.amount,
                    games: s.games,
                    wins: s.wins.unwrap_or(0),
                    draws: s.draws.unwrap_or(0),
                    losses: s.losses.unwrap_or(0),
                    elo: estimate.and_then(|e| e.elo),
                    elo_ci95: estimate.and_then(|e| e.elo_ci95),
                    point: estimate.and_then(Estimate::point),
                    elo_text: estimate.map_or_else(|| "-".to_string(), |e| e.elo_text.clone()),
                    draw_ratio: (s.games > 0).then(|| s.draws.unwrap_or(0) as f64 / s.games as f64),
                    a_depth: budget.depths[0][0],
                    a_seldepth: budget.depths[0][1],
                    b_depth: budget.depths[1][0],
                    b_seldepth: budget.depths[1][1],
                }
            })
            .collect();
        let trend = budget_trend(points.iter().filter_map(|p| Some((p.amount, p.point?.0, p.point?.1))));
        let mut verdict = verdict(trend.as_ref());
        let bounded: Vec<&str> =
            points.iter().filter(|p| p.games > 0 && p.point.is_none()).map(|p| p.budget.as_str()).collect();
        if trend.is_some() && !bounded.is_empty() {
            verdict = format!("{verdict}; leaves out {} (no two-sided interval there)", bounded.join(", "));
        }
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
        let drawn: Vec<(&ScalePoint, (f64, [f64; 2]))> =
            self.points.iter().filter_map(|p| Some((p, p.point?))).collect();
        if drawn.len() >= 2 {
            let x = |p: &ScalePoint| p.amount.log2();
            let mut series = vec![Series {
                name: format!("Elo {} − {}", self.a, self.b),
                points: drawn.iter().map(|(p, (elo, _))| (x(p), *elo)).collect(),
            }];
            if let Some(t) = &self.trend {
                let first = x(drawn[0].0);
                series.push(Series {
                    name: "weighted line".to_string(),
                    points: drawn.iter().map(|(p, _)| (x(p), t.intercept + t.slope * (x(p) - first))).collect(),
                });
            }
            let band = Band { points: drawn.iter().map(|(p, (_, [low, high]))| (x(p), *low, *high)).collect() };
            // Node budgets named by their size ("16k", "1024k"), others as given ("4+0.04").
            let nodes = drawn.iter().all(|(p, _)| p.budget.starts_with("nodes="));
            let name = |p: &ScalePoint| if nodes { thousands(p.amount) } else { p.budget.clone() };
            let plot = LinePlot {
                title: format!("Elo of {} against {} by budget, with 95 % intervals", self.a, self.b),
                x_label: if nodes { "nodes per move (log scale)" } else { "budget (log scale)" },
                y_label: "Elo",
                series,
                band: Some(band),
                rules: vec![(0.0, String::new())],
                x_names: drawn.iter().map(|(p, _)| (x(p), name(p))).collect(),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::summary::Statistics;

    fn pairing(pentanomial: [u64; 5]) -> PairingReport {
        PairingReport {
            a: "vnm".to_string(),
            b: "nmp2".to_string(),
            statistics: Statistics::new(None, Some(pentanomial), None, None),
            colours: Default::default(),
            openings: Vec::new(),
            openings_of: None,
            elo_progress: Vec::new(),
            llr_progress: Vec::new(),
        }
    }

    fn budget(nodes: u32) -> Budget {
        Budget { label: format!("nodes={nodes}"), amount: f64::from(nodes), depths: [[None; 2]; 2] }
    }

    /// A section of `(nodes, pentanomial)` budgets.
    fn section(points: &[(u32, [u64; 5])]) -> ScaleSection {
        let budgets: Vec<Budget> = points.iter().map(|(nodes, _)| budget(*nodes)).collect();
        let pairings: Vec<PairingReport> = points.iter().map(|(_, p)| pairing(*p)).collect();
        ScaleSection::build("vnm", "nmp2", &budgets, &pairings)
    }

    fn plots(section: &ScaleSection) -> usize {
        section.blocks().iter().filter(|b| matches!(b, Block::Plot { .. })).count()
    }

    #[test]
    fn a_budget_with_only_a_bound_is_left_out_of_the_line_and_the_curve() {
        // Pairs LL, LD, DD+WL, WD, WW. At 1000 nodes A lost every game of
        // 30 pairs: its Elo has an upper end only ("< …").
        let lost = (1000, [30, 0, 0, 0, 0]);
        let (even, ahead) = ((4000, [10, 20, 40, 20, 10]), (16000, [5, 15, 40, 25, 15]));
        let both = section(&[lost, even, ahead]);
        assert!(both.points[0].point.is_none() && both.points[0].elo_text.starts_with('<'));
        assert!(both.points[1..].iter().all(|p| p.point.is_some()));
        let two = section(&[even, ahead]);
        assert_eq!(both.trend, two.trend, "the bounded budget changes nothing");
        assert!(two.trend.is_some());
        // The verdict says what it left out.
        assert_eq!(both.verdict, format!("{}; leaves out nodes=1000 (no two-sided interval there)", two.verdict));
        assert_eq!(plots(&both), 1);
        // With one budget left there is no line and no curve, and the
        // verdict says why rather than printing a slope of the clamp.
        let one = section(&[lost, even]);
        assert_eq!(one.trend, None);
        assert_eq!(one.verdict, "not measured (fewer than two budgets with a two-sided Elo interval)");
        assert_eq!(plots(&one), 0);
        let json = serde_json::to_value(&one.points[0]).unwrap();
        // All lost: no Elo, an interval with only its upper end.
        assert!(json["elo"].is_null() && json["elo_ci95"][0].is_null() && json["elo_ci95"][1].is_number(), "{json}");
        assert!(json.get("point").is_none());
    }
}
