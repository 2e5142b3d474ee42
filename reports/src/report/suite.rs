//! The report of a test-suite run (`arena suite`, `arena report` on a suite
//! run), shaped like the papers' tables: total nodes per limit with the
//! percentage of a reference engine (verified null-move paper, Tables 1, 3,
//! 4), positions solved per limit (its Tables 2, 5, 6; the FHR paper's
//! Table 1 for node budgets), and a plot of solved positions against nodes.
//!
//! JSON (version [`SUITE_REPORT_VERSION`]): `version`, `header` (`run`,
//! `status`, `suite`, `positions`, `engines`, `limits`, `created`,
//! `finished`, `machine`), `reference`, `rows[]` (`engine`, `limit`,
//! `answered`, `solved`, `nodes`, `nodes_vs_reference` (percent or `null`),
//! `compared` (only while the engines have not answered the same positions),
//! `time_ms`, `mean_depth`, `faults`), `answers[]` (every stored answer:
//! `engine`, `limit_index`, `limit_label`, `position`, `position_id`,
//! `best_move`, `solved`, `nodes`, `depth`, `time_ms`, `score_cp`,
//! `score_mate`, `fault`).

use model::{RunStatus, SuiteResult};
use serde::Serialize;

use super::EngineHeader;
use super::document::{Align, Block, Document, Layout, Table, columns};
use super::svg::{LinePlot, Series};

/// Version of the suite report's JSON.
pub const SUITE_REPORT_VERSION: u32 = 1;

/// Facts about a suite run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SuiteHeader {
    /// Run id.
    pub run: i64,
    /// Where it stands.
    pub status: RunStatus,
    /// Suite name or file.
    pub suite: String,
    /// Positions in the suite (as run).
    pub positions: usize,
    /// The engines.
    pub engines: Vec<EngineHeader>,
    /// The limits, labelled (`depth 8`, `nodes 5400`).
    pub limits: Vec<String>,
    /// Start (UTC).
    pub created: String,
    /// End (UTC), if finished.
    pub finished: Option<String>,
    /// Machine that created the run.
    pub machine: String,
}

/// What a suite report is built from.
#[derive(Clone, Debug)]
pub struct SuiteInputs<'a> {
    /// Facts about the run.
    pub header: SuiteHeader,
    /// Stored answers.
    pub results: &'a [SuiteResult],
    /// Engine whose node counts are 100 % (the first engine when `None` or unknown).
    pub reference: Option<String>,
}

/// One engine under one limit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SuiteRow {
    /// Engine.
    pub engine: String,
    /// Limit label.
    pub limit: String,
    /// Positions answered.
    pub answered: u64,
    /// Positions solved.
    pub solved: u64,
    /// Total nodes reported.
    pub nodes: u64,
    /// The engine's nodes as a percentage of the reference engine's under
    /// the same limit, both summed over the positions both answered (a run
    /// in progress has answered different positions per engine).
    pub nodes_vs_reference: Option<f64>,
    /// How many positions that percentage is on, when fewer than the engine
    /// or the reference answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compared: Option<u64>,
    /// Total time, milliseconds.
    pub time_ms: u64,
    /// Mean reported depth.
    pub mean_depth: Option<f64>,
    /// Answers lost to a timeout or crash.
    pub faults: u64,
}

/// The whole suite report.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SuiteReport {
    /// [`SUITE_REPORT_VERSION`].
    pub version: u32,
    /// Facts about the run.
    pub header: SuiteHeader,
    /// The engine at 100 %.
    pub reference: String,
    /// Per engine and limit, engines in the run's order, limits in the spec's order.
    pub rows: Vec<SuiteRow>,
    /// Every answer.
    pub answers: Vec<SuiteResult>,
}

impl SuiteReport {
    /// Builds the report from the stored answers.
    pub fn build(inputs: SuiteInputs<'_>) -> SuiteReport {
        let engines: Vec<String> = inputs.header.engines.iter().map(|e| e.name.clone()).collect();
        let reference =
            inputs.reference.filter(|r| engines.contains(r)).or_else(|| engines.first().cloned()).unwrap_or_default();
        let mut rows = Vec::new();
        for engine in &engines {
            for (index, limit) in inputs.header.limits.iter().enumerate() {
                let mine = inputs.results.iter().filter(|r| &r.engine == engine && r.limit_index == index as i64);
                let mut row = SuiteRow {
                    engine: engine.clone(),
                    limit: limit.clone(),
                    answered: 0,
                    solved: 0,
                    nodes: 0,
                    nodes_vs_reference: None,
                    compared: None,
                    time_ms: 0,
                    mean_depth: None,
                    faults: 0,
                };
                let (mut depth_sum, mut depth_count) = (0u64, 0u64);
                for r in mine {
                    row.answered += 1;
                    row.solved += u64::from(r.solved);
                    row.nodes = row.nodes.saturating_add(r.nodes.unwrap_or(0));
                    row.time_ms = row.time_ms.saturating_add(r.time_ms);
                    row.faults += u64::from(!r.fault.is_empty());
                    if let Some(d) = r.depth {
                        depth_sum += d;
                        depth_count += 1;
                    }
                }
                row.mean_depth = (depth_count > 0).then(|| depth_sum as f64 / depth_count as f64);
                rows.push(row);
            }
        }
        for (index, _) in inputs.header.limits.iter().enumerate() {
            let at = |engine: &str| -> std::collections::HashMap<i64, u64> {
                inputs
                    .results
                    .iter()
                    .filter(|r| r.engine == engine && r.limit_index == index as i64)
                    .map(|r| (r.position, r.nodes.unwrap_or(0)))
                    .collect()
            };
            let base = at(&reference);
            for row in rows.iter_mut().filter(|r| r.limit == inputs.header.limits[index]) {
                let mine = at(&row.engine);
                let (mut nodes, mut reference_nodes, mut common) = (0u64, 0u64, 0u64);
                for (position, &n) in &mine {
                    if let Some(&r) = base.get(position) {
                        nodes = nodes.saturating_add(n);
                        reference_nodes = reference_nodes.saturating_add(r);
                        common += 1;
                    }
                }
                row.nodes_vs_reference = (reference_nodes > 0).then(|| 100.0 * nodes as f64 / reference_nodes as f64);
                row.compared = (common < mine.len() as u64 || common < base.len() as u64).then_some(common);
            }
        }
        let answers = inputs.results.to_vec();
        SuiteReport { version: SUITE_REPORT_VERSION, header: inputs.header, reference, rows, answers }
    }

    /// The report as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    fn row(&self, engine: &str, limit: &str) -> Option<&SuiteRow> {
        self.rows.iter().find(|r| r.engine == engine && r.limit == limit)
    }
}

impl Layout for SuiteReport {
    fn layout(&self) -> Document {
        let h = &self.header;
        let mut blocks = vec![Block::Heading(1, format!("arena run {}: suite {} ({})", h.run, h.suite, h.status))];
        let mut facts: Vec<String> =
            h.engines.iter().map(|e| format!("engine {}: {}", e.name, e.kind)).collect::<Vec<_>>();
        facts.push(format!("{} positions, limits: {}", h.positions, h.limits.join(", ")));
        facts.push(format!(
            "started {} UTC{}, machine {}",
            h.created,
            h.finished.as_ref().map(|f| format!(", finished {f} UTC")).unwrap_or_default(),
            h.machine
        ));
        if h.status != RunStatus::Finished {
            // The tables below add up what was answered: say how much that is.
            let answered: u64 = self.rows.iter().map(|r| r.answered).sum();
            let planned = h.positions as u64 * (h.engines.len() * h.limits.len()) as u64;
            facts.push(format!("partial: {answered} of {planned} answers; every figure below covers those alone"));
        }
        blocks.push(Block::Lines(false, facts));
        let mut header = columns(&[("Engine", Align::Left)]);
        header.extend(h.limits.iter().map(|l| (l.clone(), Align::Right)));
        let engines: Vec<&str> = h.engines.iter().map(|e| e.name.as_str()).collect();
        let table = |cell: &dyn Fn(&SuiteRow) -> String| Table {
            columns: header.clone(),
            rows: engines
                .iter()
                .map(|engine| {
                    std::iter::once(engine.to_string())
                        .chain(h.limits.iter().map(|limit| self.row(engine, limit).map_or("-".to_string(), cell)))
                        .collect()
                })
                .collect(),
        };
        blocks.push(Block::Heading(2, format!("Tree size: total nodes (% of {})", self.reference)));
        blocks.push(Block::Table(table(&|r| match (r.nodes_vs_reference, r.compared) {
            (Some(pct), None) => format!("{} ({pct:.0} %)", r.nodes),
            (Some(pct), Some(on)) => format!("{} ({pct:.0} % on {on})", r.nodes),
            (None, _) => r.nodes.to_string(),
        })));
        blocks.push(Block::Heading(2, "Solved".to_string()));
        blocks.push(Block::Table(table(&|r| format!("{}/{}", r.solved, r.answered))));
        blocks.push(Block::Heading(2, "Time and depth".to_string()));
        blocks.push(Block::Table(table(&|r| {
            let depth = r.mean_depth.map_or("-".to_string(), |d| format!("{d:.1}"));
            // Milliseconds below a second: a shallow limit's searches would read 0.0 s.
            let time = if r.time_ms < 1000 {
                format!("{} ms", r.time_ms)
            } else {
                format!("{:.1} s", r.time_ms as f64 / 1000.0)
            };
            format!("{time}, depth {depth}")
        })));
        let faults: u64 = self.rows.iter().map(|r| r.faults).sum();
        if faults > 0 {
            blocks.push(Block::Lines(
                false,
                vec![format!("{faults} answers lost to timeouts or crashes (see the JSON)")],
            ));
        }
        let plot = LinePlot {
            title: "Positions solved against total nodes".to_string(),
            x_label: "total nodes",
            y_label: "solved",
            series: engines
                .iter()
                .map(|engine| Series {
                    name: engine.to_string(),
                    points: self
                        .rows
                        .iter()
                        .filter(|r| r.engine == *engine)
                        .map(|r| (r.nodes as f64, r.solved as f64))
                        .collect(),
                })
                .collect(),
            band: None,
            rules: Vec::new(),
            x_names: Vec::new(),
        };
        blocks.push(Block::Plot {
            caption: "Positions solved against total nodes: each point is one limit; up and to the left is better"
                .to_string(),
            svg: plot.to_svg(),
        });
        Document { title: format!("arena run {} (suite {})", h.run, h.suite), blocks }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{render_html, render_markdown, render_text};

    fn answer(engine: &str, limit: i64, position: i64, solved: bool, nodes: u64) -> SuiteResult {
        SuiteResult {
            engine: engine.to_string(),
            limit_index: limit,
            limit_label: format!("depth {}", limit + 4),
            position,
            position_id: format!("P{position}"),
            best_move: Some("e2e4".to_string()),
            solved,
            nodes: Some(nodes),
            depth: Some(limit as u64 + 4),
            time_ms: 10,
            ..SuiteResult::default()
        }
    }

    #[test]
    fn tables_total_nodes_and_solved_per_limit_against_the_reference() {
        let results = vec![
            answer("plain", 0, 0, true, 1000),
            answer("plain", 0, 1, false, 3000),
            answer("plain", 1, 0, true, 8000),
            answer("plain", 1, 1, true, 12000),
            answer("nmp2", 0, 0, true, 500),
            answer("nmp2", 0, 1, true, 1500),
            answer("nmp2", 1, 0, false, 4000),
        ];
        let engine = |name: &str| EngineHeader {
            name: name.to_string(),
            kind: format!("bundled engine, preset {name}"),
            options: Vec::new(),
            time_control: None,
            commit: None,
            bench: None,
            played_by: Vec::new(),
        };
        let report = SuiteReport::build(SuiteInputs {
            header: SuiteHeader {
                run: 3,
                status: RunStatus::Stopped,
                suite: "wac".to_string(),
                positions: 2,
                engines: vec![engine("plain"), engine("nmp2")],
                limits: vec!["depth 4".to_string(), "depth 5".to_string()],
                created: "2026-11-21 00:00:00".to_string(),
                finished: None,
                machine: "box".to_string(),
            },
            results: &results,
            reference: None,
        });
        assert_eq!(report.reference, "plain");
        let nmp2 = report.row("nmp2", "depth 4").unwrap();
        assert_eq!((nmp2.answered, nmp2.solved, nmp2.nodes, nmp2.nodes_vs_reference), (2, 2, 2000, Some(50.0)));
        // A run in progress: nmp2 has answered position 0 only at depth 5, so
        // its tree is compared with plain's on that position (4000 against
        // 8000), not with plain's total over both (20000).
        let nmp2_5 = report.row("nmp2", "depth 5").unwrap();
        assert_eq!((nmp2_5.answered, nmp2_5.solved, nmp2_5.nodes_vs_reference), (1, 0, Some(50.0)));
        assert_eq!((nmp2_5.compared, nmp2.compared), (Some(1), None));
        assert_eq!(report.row("plain", "depth 5").unwrap().compared, None);
        assert_eq!(report.row("plain", "depth 5").unwrap().mean_depth, Some(5.0));
        let text = render_text(&report);
        assert!(text.contains("2000 (50 %)") && text.contains("20000 (100 %)") && text.contains("2/2"), "{text}");
        assert!(text.contains("4000 (50 % on 1)"), "{text}");
        // 20 ms over two positions reads in milliseconds, not as 0.0 s.
        assert!(text.contains("20 ms, depth 4.0") && !text.contains("0.0 s"), "{text}");
        assert!(text.contains("Positions solved against total nodes: each point is one limit"), "{text}");
        assert!(render_markdown(&report).contains("| Engine | depth 4 | depth 5 |"));
        let html = render_html(&report);
        assert_eq!(html.matches("<polyline").count(), 2, "one line per engine");
        let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        assert_eq!(json["answers"].as_array().unwrap().len(), 7);
        assert_eq!(json["rows"][2]["nodes_vs_reference"], 50.0);
        assert!(json["rows"][2].get("compared").is_none() && json["rows"][3]["compared"] == 1);
    }
}
