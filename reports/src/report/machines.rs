//! The machines part of a report: per machine that played the run, its
//! games, A's W-D-L and pentanomial (A is each pairing's first engine), its
//! time losses and other faults, its speed and clock factor, the median and
//! p99 of its moves' overhead (wall time beyond the engine's own `info
//! time`), its residual against the pooled result
//! ([`crate::stats::machines`]) and its standing; then each move that lost a
//! game on time or by a stall, with its latency; and which games the result
//! leaves out.

use model::{Latencies, LostMove, MachineRecord, MachineState, PairCount, Tally};
use serde::Serialize;

use super::document::{Align, Block, Table, columns};
use crate::stats::machines::{Residual, pair_scores, residuals};

/// Forfeited moves listed in text formats (JSON lists all).
const LOST_ROWS: usize = 20;

/// What the report is told about the run's machines.
#[derive(Clone, Copy, Debug)]
pub struct MachineInputs<'a> {
    /// What their games say.
    pub records: &'a [MachineRecord],
    /// Their standing (set aside, readmitted) and clock scaling.
    pub states: &'a [MachineState],
    /// Count the games of machines set aside (else they are left out).
    pub count_set_aside: bool,
}

/// One machine's row.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MachineRow {
    /// Its name.
    pub machine: String,
    /// Games it stored.
    pub games: u64,
    /// Finished pairs.
    pub pairs: u64,
    /// A's wins, draws and losses there.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// A's pairs by points in half points, 0 to 4.
    pub pentanomial: [u64; 5],
    /// Games lost on time.
    pub time_losses: u64,
    /// Games lost by an illegal move, a crash or a stall.
    pub other_faults: u64,
    /// Its measured speed (clock scaling), nodes per second.
    pub nps: Option<i64>,
    /// The factor its clocks were multiplied by.
    pub scale: Option<f64>,
    /// Median move overhead, ms.
    pub overhead_p50_ms: Option<u64>,
    /// 99th percentile of the move overhead, ms.
    pub overhead_p99_ms: Option<u64>,
    /// Its residual against the pooled result.
    pub residual: Option<Residual>,
    /// `counted` (its games count), `set aside: WHY` or `readmitted`.
    pub status: String,
}

/// A move that lost on time or by a stall, and where.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LostRow {
    /// The machine.
    pub machine: String,
    /// The move.
    #[serde(flatten)]
    pub lost: LostMove,
}

/// The machines section.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MachineSection {
    /// One row per machine, by name.
    pub rows: Vec<MachineRow>,
    /// Moves that lost on time or by a stall.
    pub lost_moves: Vec<LostRow>,
    /// Machines set aside whose games the result leaves out.
    pub excluded: Vec<String>,
    /// Games left out.
    pub excluded_games: u64,
}

impl MachineSection {
    /// The section from all finished pairs (every machine's, counted or not).
    /// `None` when no game names its machine.
    pub fn build(inputs: MachineInputs<'_>, pairs: &[PairCount]) -> Option<MachineSection> {
        if inputs.records.is_empty() {
            return None;
        }
        let residuals = residuals(&pair_scores(pairs));
        let excluded = excluded(inputs);
        let rows: Vec<MachineRow> =
            inputs.records.iter().map(|record| row(record, inputs.states, pairs, &residuals)).collect();
        let excluded_games = rows.iter().filter(|r| excluded.contains(&r.machine)).map(|r| r.games).sum();
        let lost_moves = inputs
            .records
            .iter()
            .flat_map(|r| r.lost.iter().map(|lost| LostRow { machine: r.machine.clone(), lost: lost.clone() }))
            .collect();
        Some(MachineSection { rows, lost_moves, excluded, excluded_games })
    }

    /// Whether the short view shows the section: several machines, or one
    /// with faults, a scaled clock or set aside.
    fn worth_a_glance(&self) -> bool {
        self.rows.len() > 1
            || self
                .rows
                .iter()
                .any(|r| r.time_losses + r.other_faults > 0 || r.scale.is_some() || r.status != "counted")
    }

    /// The table, the standing and the lost moves (`brief`: the short view's
    /// table and standing, when [`MachineSection::worth_a_glance`]).
    pub(super) fn blocks(&self, brief: bool) -> Vec<Block> {
        if brief && !self.worth_a_glance() {
            return Vec::new();
        }
        let mut out = vec![Block::Heading(2, "Machines".to_string()), self.table(), Block::Lines(false, self.notes())];
        if !brief {
            out.extend(self.lost_move_blocks());
        }
        out
    }

    /// A row per machine: results, faults, speed, clock scale, overhead,
    /// residual, status.
    fn table(&self) -> Block {
        Block::Table(Table {
            columns: columns(&[
                ("Machine", Align::Left),
                ("Games", Align::Right),
                ("W-D-L", Align::Right),
                ("Pentanomial", Align::Right),
                ("Time losses", Align::Right),
                ("Faults", Align::Right),
                ("knps", Align::Right),
                ("Clock ×", Align::Right),
                ("Overhead p50/p99 ms", Align::Right),
                ("Residual z (p)", Align::Right),
                ("Status", Align::Left),
            ]),
            rows: self
                .rows
                .iter()
                .map(|r| {
                    let [p0, p1, p2, p3, p4] = r.pentanomial;
                    vec![
                        r.machine.clone(),
                        r.games.to_string(),
                        format!("+{} ={} -{}", r.wins, r.draws, r.losses),
                        format!("{p0} {p1} {p2} {p3} {p4}"),
                        r.time_losses.to_string(),
                        r.other_faults.to_string(),
                        r.nps.map_or("-".to_string(), |n| (n / 1000).to_string()),
                        r.scale.map_or("-".to_string(), |s| format!("{s:.2}")),
                        format!("{} / {}", ms(r.overhead_p50_ms), ms(r.overhead_p99_ms)),
                        r.residual.map_or("-".to_string(), |z| {
                            format!("{:+.2} ({})", z.z, crate::stats::p_value(z.p_adjusted))
                        }),
                        r.status.clone(),
                    ]
                })
                .collect(),
        })
    }

    /// What the table's columns mean, and the games left out.
    fn notes(&self) -> Vec<String> {
        let mut lines = vec!["W-D-L and pentanomial are A's, each pairing's first engine.".to_string()];
        if self.rows.len() > 1 {
            lines.push(format!(
                "Residual: standard errors from the pooled result; p two-sided, corrected for {} machines.",
                self.rows.len()
            ));
        }
        if !self.excluded.is_empty() {
            lines.push(format!(
                "Left out of the result: {} games of {} (set aside); `arena report --set-aside count` counts them.",
                self.excluded_games,
                self.excluded.join(", ")
            ));
        }
        lines
    }

    /// The moves that lost a game on time or by a stall, the first
    /// [`LOST_ROWS`] of them; nothing without any.
    fn lost_move_blocks(&self) -> Vec<Block> {
        if self.lost_moves.is_empty() {
            return Vec::new();
        }
        let mut out = vec![Block::Table(Table {
            columns: columns(&[
                ("Game", Align::Left),
                ("Machine", Align::Left),
                ("Lost by", Align::Left),
                ("How", Align::Left),
                ("Latency ms", Align::Right),
                ("Detail", Align::Left),
            ]),
            rows: self
                .lost_moves
                .iter()
                .take(LOST_ROWS)
                .map(|l| {
                    vec![
                        format!("pair {} game {}", l.lost.pair_index + 1, l.lost.game_in_pair + 1),
                        l.machine.clone(),
                        l.lost.engine.clone(),
                        l.lost.termination.as_str().to_string(),
                        ms(l.lost.latency_ms),
                        l.lost.detail.clone(),
                    ]
                })
                .collect(),
        })];
        if self.lost_moves.len() > LOST_ROWS {
            out.push(Block::Lines(
                false,
                vec![format!("… and {} more (all in the JSON report).", self.lost_moves.len() - LOST_ROWS)],
            ));
        }
        out
    }
}

/// Milliseconds as a cell: `-` for none.
fn ms(v: Option<u64>) -> String {
    v.map_or("-".to_string(), |v| v.to_string())
}

/// The machines whose games the result leaves out.
pub fn excluded(inputs: MachineInputs<'_>) -> Vec<String> {
    if inputs.count_set_aside {
        return Vec::new();
    }
    inputs.states.iter().filter(|s| s.set_aside.is_some()).map(|s| s.machine.clone()).collect()
}

fn row(
    record: &MachineRecord,
    states: &[MachineState],
    pairs: &[PairCount],
    residuals: &[(String, Option<Residual>)],
) -> MachineRow {
    let mut tally = Tally::default();
    for count in pairs.iter().filter(|c| c.machine == record.machine) {
        tally.add_pairs(count.results[0], count.results[1], count.pairs);
    }
    let mut overheads = Latencies::default();
    for (_, latencies) in &record.overheads {
        overheads.merge(latencies);
    }
    let state = states.iter().find(|s| s.machine == record.machine);
    let status = match state {
        Some(MachineState { set_aside: Some(why), .. }) => format!("set aside: {why}"),
        Some(MachineState { readmitted: true, .. }) => "readmitted".to_string(),
        _ => "counted".to_string(),
    };
    MachineRow {
        machine: record.machine.clone(),
        games: record.games,
        pairs: tally.pentanomial.iter().sum(),
        wins: tally.wins,
        draws: tally.draws,
        losses: tally.losses,
        pentanomial: tally.pentanomial,
        time_losses: record.time_losses,
        other_faults: record.other_faults,
        nps: state.and_then(|s| s.nps),
        scale: state.and_then(|s| s.scale),
        overhead_p50_ms: overheads.quantile(0.5),
        overhead_p99_ms: overheads.quantile(0.99),
        residual: residuals.iter().find(|(m, _)| *m == record.machine).and_then(|(_, r)| *r),
        status,
    }
}
