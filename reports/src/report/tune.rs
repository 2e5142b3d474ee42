//! The SPSA part of a tuning run's report: each parameter's start, current
//! value and bounds, and its trajectory over the iterations.

use model::{Spsa, TuneIteration};
use serde::Serialize;

use super::PROGRESS_POINTS;
use super::document::{Align, Block, Table, columns};
use super::svg::{LinePlot, Series};

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TunedParam {
    /// The UCI option.
    pub name: String,
    /// Lower bound.
    pub min: f64,
    /// Upper bound.
    pub max: f64,
    /// θ at the start.
    pub start: f64,
    /// θ now (after the last stored iteration).
    pub value: f64,
    /// What the engine is given for θ now.
    pub option_value: String,
    /// Integer (a UCI spin).
    pub integer: bool,
    /// Perturbation at the last iteration.
    pub c_end: f64,
    /// Learning rate at the last iteration.
    pub r_end: f64,
}

/// θ after a number of iterations.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThetaPoint {
    /// Iterations counted.
    pub iterations: u64,
    /// θ, in the order of `params`.
    pub theta: Vec<f64>,
}

/// The SPSA state of a tuning run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TuneSection {
    /// Iterations planned (one pair each).
    pub iterations_planned: u64,
    /// Iterations stored.
    pub iterations_played: u64,
    /// α, γ and A of the gains.
    pub alpha: f64,
    /// Exponent of c_k.
    pub gamma: f64,
    /// Stability constant of a_k.
    pub big_a: f64,
    /// The parameters.
    pub params: Vec<TunedParam>,
    /// θ from the start (0 iterations) as iterations finished, at most 200 points.
    pub trajectory: Vec<ThetaPoint>,
}

impl TuneSection {
    /// The section from the run's settings and its stored iterations (in finishing order).
    pub fn build(spsa: &Spsa, iterations: &[TuneIteration]) -> TuneSection {
        let now = iterations.last().map_or_else(|| spsa.start(), |last| last.theta.clone());
        let params = spsa
            .params
            .iter()
            .enumerate()
            .map(|(i, p)| TunedParam {
                name: p.name.clone(),
                min: p.min,
                max: p.max,
                start: p.start,
                value: now.get(i).copied().unwrap_or(p.start),
                option_value: p.option_value(now.get(i).copied().unwrap_or(p.start)),
                integer: p.integer,
                c_end: p.c_end,
                r_end: p.r_end,
            })
            .collect();
        let stride = iterations.len().div_ceil(PROGRESS_POINTS).max(1);
        let mut trajectory = vec![ThetaPoint { iterations: 0, theta: spsa.start() }];
        for (i, iteration) in iterations.iter().enumerate() {
            if (i + 1) % stride == 0 || i + 1 == iterations.len() {
                trajectory.push(ThetaPoint { iterations: i as u64 + 1, theta: iteration.theta.clone() });
            }
        }
        TuneSection {
            iterations_planned: spsa.iterations,
            iterations_played: iterations.len() as u64,
            alpha: spsa.alpha,
            gamma: spsa.gamma,
            big_a: spsa.big_a,
            params,
            trajectory,
        }
    }

    /// The table of parameters (the short view shows only this).
    pub(super) fn table_blocks(&self) -> Vec<Block> {
        let number = |v: f64| if v.fract() == 0.0 { format!("{v}") } else { format!("{v:.2}") };
        vec![
            Block::Heading(2, "SPSA".to_string()),
            Block::Lines(
                false,
                vec![format!(
                    "{} of {} iterations (a pair of games each, θ+ against θ−); α {}, γ {}, A {}",
                    self.iterations_played,
                    self.iterations_planned,
                    self.alpha,
                    self.gamma,
                    number(self.big_a)
                )],
            ),
            Block::Table(Table {
                columns: columns(&[
                    ("Parameter", Align::Left),
                    ("Start", Align::Right),
                    ("Now", Align::Right),
                    ("Engine gets", Align::Right),
                    ("Min", Align::Right),
                    ("Max", Align::Right),
                    ("c_end", Align::Right),
                    ("r_end", Align::Right),
                ]),
                rows: self
                    .params
                    .iter()
                    .map(|p| {
                        vec![
                            p.name.clone(),
                            number(p.start),
                            format!("{:.2}", p.value),
                            p.option_value.clone(),
                            number(p.min),
                            number(p.max),
                            number(p.c_end),
                            format!("{}", p.r_end),
                        ]
                    })
                    .collect(),
            }),
        ]
    }

    /// The table and one trajectory plot per parameter.
    pub(super) fn blocks(&self) -> Vec<Block> {
        let mut out = self.table_blocks();
        for (i, p) in self.params.iter().enumerate() {
            let points: Vec<(f64, f64)> =
                self.trajectory.iter().filter_map(|t| Some((t.iterations as f64, *t.theta.get(i)?))).collect();
            let plot = LinePlot {
                title: format!("{} by iteration (bounds {}..{})", p.name, p.min, p.max),
                x_label: "iterations",
                y_label: "θ",
                series: vec![Series { name: p.name.clone(), points }],
                band: None,
                rules: vec![(p.start, format!("start {}", p.start))],
                x_names: Vec::new(),
            };
            out.push(Block::Plot {
                caption: format!(
                    "{}: {} at the start, {:.2} after {} iterations",
                    p.name, p.start, p.value, self.iterations_played
                ),
                svg: plot.to_svg(),
            });
        }
        out
    }
}
