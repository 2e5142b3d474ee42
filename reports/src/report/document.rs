//! The report laid out as a sequence of blocks (headings, lines, tables,
//! plots) that every renderer walks: text, markdown and HTML differ only in
//! how they draw a block, never in what the report says.

use super::svg::{Band, Bars, LinePlot, Series};
use super::{Report, Tournament};
use crate::stats::{interval, signed};

/// Pairs listed one by one up to this many; beyond, only the most one-sided.
const OPENING_ROWS: usize = 100;
/// Most one-sided pairs listed each way in large runs.
const DECISIVE_OPENINGS: usize = 25;

/// Column alignment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    /// Text.
    Left,
    /// Numbers.
    Right,
}

/// A table with a header row: a report's, and every list arena prints or
/// serves (`arena runs`, the dashboard's lists), drawn by
/// [`Table::text`], [`Table::html`] and the markdown renderer.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// Each column's name and alignment.
    pub columns: Vec<(String, Align)>,
    /// The cells, row by row, as many as columns.
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// A table of `columns` (name, alignment) and `rows`.
    pub fn new(columns: &[(&str, Align)], rows: Vec<Vec<String>>) -> Table {
        Table { columns: self::columns(columns), rows }
    }
}

/// One piece of the report.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Block {
    /// Level 1 or 2.
    Heading(u8, String),
    /// Lines of prose (`false`) or preformatted, aligned lines (`true`).
    Lines(bool, Vec<String>),
    Table(Table),
    /// An SVG figure with its caption; text formats show the caption only when asked.
    Plot {
        caption: String,
        svg: String,
    },
}

pub(super) fn columns(spec: &[(&str, Align)]) -> Vec<(String, Align)> {
    spec.iter().map(|(name, align)| (name.to_string(), *align)).collect()
}

fn points(p: f64) -> String {
    if p == 0.5 {
        "½".to_string()
    } else if p.fract() == 0.5 {
        format!("{}½", p.trunc())
    } else {
        format!("{p}")
    }
}

fn optional(value: Option<f64>, decimals: usize) -> String {
    value.map_or("-".to_string(), |v| format!("{v:.decimals$}"))
}

/// A report laid out for rendering: its title and blocks (see
/// [`super::render_text`], [`super::render_markdown`], [`super::render_html`]).
pub struct Document {
    pub(super) title: String,
    pub(super) blocks: Vec<Block>,
}

/// Something that can be laid out as a [`Document`]: a match report or a suite report.
pub trait Layout {
    /// The document.
    fn layout(&self) -> Document;
}

impl Layout for Report {
    fn layout(&self) -> Document {
        Document { title: format!("arena run {} ({})", self.header.run, self.header.kind), blocks: blocks(self) }
    }
}

/// The short view of a report (`arena show`, the summary after a run): its
/// header, each pairing's statistics, the terminations and a tournament's
/// ratings — the same blocks the full report shows. The terminations are
/// given as counts (termination, games), so the view needs no pass over
/// the games; the report may be built without them.
pub struct Brief<'a> {
    /// The report.
    pub report: &'a Report,
    /// Games by termination ([`model::Termination::as_str`], count), most first.
    pub terminations: &'a [(model::Termination, i64)],
}

impl Layout for Brief<'_> {
    fn layout(&self) -> Document {
        let report = self.report;
        let mut blocks = header_blocks(report);
        if let Some(tune) = &report.tune {
            blocks.extend(tune.table_blocks());
        }
        if let Some(scale) = &report.scale {
            blocks.extend(scale.blocks().into_iter().filter(|b| !matches!(b, Block::Plot { .. })));
        }
        if let Some(family) = &report.family {
            blocks.extend(family.blocks());
        }
        for pairing in &report.pairings {
            blocks.extend(statistics_blocks(pairing));
        }
        if !self.terminations.is_empty() {
            let text: Vec<String> = self.terminations.iter().map(|(t, n)| format!("{} {n}", t.as_str())).collect();
            blocks.push(Block::Lines(false, vec![format!("terminations: {}", text.join(", "))]));
        }
        let overheads: Vec<String> = report
            .engines
            .iter()
            .filter_map(|e| Some(format!("{} {} / {}", e.name, e.overhead_p50_ms?, e.overhead_p99_ms?)))
            .collect();
        if !overheads.is_empty() {
            blocks.push(Block::Lines(false, vec![format!("move overhead ms, p50 / p99: {}", overheads.join(", "))]));
        }
        blocks.extend(node_limit_block(&report.engines));
        blocks.extend(mate_pv_blocks(report));
        if let Some(machines) = &report.machines {
            blocks.extend(machines.blocks(true));
        }
        if let Some(tournament) = &report.tournament {
            blocks.extend(ratings_blocks(tournament));
        }
        Document { title: format!("arena run {} ({})", report.header.run, report.header.kind), blocks }
    }
}

/// A line per engine whose mean nodes per move did not keep its `nodes=`
/// limit (nothing when every engine kept its own): its games were played
/// at another budget than the run says.
fn node_limit_block(engines: &[super::EngineReport]) -> Option<Block> {
    let lines: Vec<String> = engines
        .iter()
        .filter(|e| e.node_limit_kept == Some(false))
        .filter_map(|e| {
            Some(format!(
                "warning: engine '{}' searched {:.0} nodes a move on average at nodes={}: its games were not played \
                 at the run's node budget",
                e.name, e.avg_nodes?, e.node_limit?
            ))
        })
        .collect();
    (!lines.is_empty()).then_some(Block::Lines(false, lines))
}

/// The mate scores whose PV did not back them (nothing when there were none).
fn mate_pv_blocks(report: &Report) -> Vec<Block> {
    if report.mate_pvs.is_empty() {
        return Vec::new();
    }
    let rows = report
        .mate_pvs
        .iter()
        .map(|row| vec![row.engine.clone(), row.problem.replace('-', " "), row.moves.to_string(), row.first.clone()])
        .collect();
    vec![
        Block::Heading(2, "Mate PV checks".into()),
        Block::Table(Table {
            columns: columns(&[
                ("Engine", Align::Left),
                ("Problem", Align::Left),
                ("Moves", Align::Right),
                ("First", Align::Left),
            ]),
            rows,
        }),
    ]
}

/// The title and the facts of a run.
fn header_blocks(report: &Report) -> Vec<Block> {
    let h = &report.header;
    let mut out = vec![Block::Heading(1, format!("arena run {}: {} ({})", h.run, h.kind, h.status))];
    let mut facts = Vec::new();
    // A scaling run's copies `A@BUDGET` are A at each budget: A once.
    let scaling = report.scale.is_some();
    let mut shown: Vec<&str> = Vec::new();
    for engine in &h.engines {
        let name = if scaling { model::base_name(&engine.name) } else { engine.name.as_str() };
        if shown.contains(&name) {
            continue;
        }
        shown.push(name);
        let options: Vec<String> = engine.options.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let options = if options.is_empty() { String::new() } else { format!(", options {}", options.join(" ")) };
        let tc = match &engine.time_control {
            _ if scaling => ", at every budget".to_string(),
            Some(tc) => format!(", time control {tc}"),
            None => String::new(),
        };
        let bench = engine.bench.map(|n| format!(", bench signature {n}")).unwrap_or_default();
        facts.push(format!("engine {name}: {}{options}{tc}{bench}", engine.kind));
        facts.extend(played_by_hosts(&engine.played_by, |host| machine_label(report, host)));
    }
    facts.push(format!("time control {}, openings {}", h.time_control, h.openings));
    facts.push(format!("games {} of {} planned", h.games_played, h.games_planned));
    if h.replayed_pairs > 0 {
        facts.push(format!(
            "replays: {} finished pairs replay an opening their pairing played before, under a deterministic limit: \
             the same games again, not independent evidence, so every count below leaves them out",
            h.replayed_pairs
        ));
    }
    if h.unpaired_games > 0 {
        facts.push(format!(
            "unpaired: {} imported games were not played as pairs (one opening, colours reversed): \
             Elo and p-values below are from games (trinomial); no pentanomial is given",
            h.unpaired_games
        ));
    }
    facts.push(format!(
        "started {} UTC{}, machine {}",
        h.created,
        h.finished.as_ref().map(|f| format!(", finished {f} UTC")).unwrap_or_default(),
        h.machine
    ));
    out.push(Block::Lines(false, facts));
    out
}

/// How the header names `host`: "played on" it when it stored games of
/// the run, else "ready on" it (a machine made ready records its engines
/// before it plays; the one that creates a run with `--no-local` records
/// them and plays none). Without a machines section no game names a
/// machine, so any game counts.
fn machine_label(report: &Report, host: &str) -> String {
    let played = match &report.machines {
        Some(machines) => machines.rows.iter().any(|row| row.machine == host && row.games > 0),
        None => report.header.games_played > 0,
    };
    let yet = if report.header.finished.is_none() { " yet" } else { "" };
    if played { format!("played on {host}") } else { format!("ready on {host}, no games there{yet}") }
}

/// What played an engine, a line per machine: its binary, or, when the
/// machine played more than two (a run kept going across rebuilds), how
/// many with the first and the last; the JSON report lists each. A change
/// is accepted by itself when the bench signature stayed, else with
/// `--accept-change`. `label` names a machine ([`machine_label`]).
fn played_by_hosts(identities: &[model::EngineIdentity], label: impl Fn(&str) -> String) -> Vec<String> {
    let mut hosts: Vec<(&str, Vec<&model::EngineIdentity>)> = Vec::new();
    for identity in identities {
        match hosts.iter_mut().find(|(host, _)| *host == identity.host) {
            Some((_, list)) => list.push(identity),
            None => hosts.push((&identity.host, vec![identity])),
        }
    }
    let mut lines = Vec::new();
    for (host, list) in hosts {
        let on = label(host);
        match list.as_slice() {
            [first, .., last] if list.len() > 2 => {
                let accepted = list.iter().filter(|i| i.accepted).count();
                lines.push(format!(
                    "  {on}: {} binaries, {accepted} of them accepted changes (each in the JSON report){}; first {}; last {}",
                    list.len(),
                    benches(&list),
                    binary(first),
                    binary(last)
                ));
            }
            _ => lines.extend(list.iter().enumerate().map(|(i, identity)| {
                let before = i.checked_sub(1).map(|i| list[i]);
                format!("  {on}: {}{}", binary(identity), accepted(identity, before))
            })),
        }
    }
    lines
}

/// How `identity`, played after `before` on its machine, came to play: a
/// change accepted by itself (the same bench signature) or by the flag.
fn accepted(identity: &model::EngineIdentity, before: Option<&model::EngineIdentity>) -> &'static str {
    let same_bench = identity.bench.is_some() && before.is_some_and(|b| b.bench == identity.bench);
    match (identity.accepted, same_bench) {
        (false, _) => "",
        (true, true) => " (a change with the same bench signature: the same search, accepted)",
        (true, false) => " (a change, accepted with --accept-change)",
    }
}

/// What the bench signatures of many binaries say: one count for all that
/// measured one (the same search), or each count, first seen first.
fn benches(list: &[&model::EngineIdentity]) -> String {
    let mut counts: Vec<i64> = Vec::new();
    for bench in list.iter().filter_map(|i| i.bench) {
        if !counts.contains(&bench) {
            counts.push(bench);
        }
    }
    let measured = list.iter().filter(|i| i.bench.is_some()).count();
    match counts.as_slice() {
        [] => String::new(),
        [one] if measured == 1 => format!("; bench {one} nodes on the one that measured it"),
        [one] => format!("; bench {one} nodes on each of the {measured} that measured one"),
        _ => {
            let counts: Vec<String> = counts.iter().map(ToString::to_string).collect();
            format!("; bench signatures differ: {} nodes", counts.join(", "))
        }
    }
}

/// One binary that played an engine: its hash, `id name` and bench.
fn binary(identity: &model::EngineIdentity) -> String {
    let sha = identity.sha256.get(..12).unwrap_or(&identity.sha256);
    let id = if identity.id_name.is_empty() { String::new() } else { format!(", id name {}", identity.id_name) };
    let bench = match (identity.bench, identity.nps) {
        (Some(nodes), Some(nps)) => format!(", bench {nodes} nodes at {} knps", nps / 1000),
        (Some(nodes), None) => format!(", bench {nodes} nodes"),
        _ => String::new(),
    };
    format!("sha256 {sha}{id}{bench}")
}

/// A pairing's heading and statistics.
fn statistics_blocks(pairing: &super::PairingReport) -> [Block; 2] {
    let (a, b) = (&pairing.a, &pairing.b);
    let text = pairing.statistics.render_text(a, b);
    [Block::Heading(2, format!("{a} vs {b}")), Block::Lines(true, text.lines().map(str::to_string).collect())]
}

/// The blocks of a report.
fn blocks(report: &Report) -> Vec<Block> {
    let mut out = header_blocks(report);
    if let Some(tune) = &report.tune {
        out.extend(tune.blocks());
    }
    if let Some(scale) = &report.scale {
        out.extend(scale.blocks());
    }
    out.extend(mate_pv_blocks(report));
    if let Some(family) = &report.family {
        out.extend(family.blocks());
    }
    for pairing in &report.pairings {
        out.extend(pairing_blocks(pairing));
    }
    out.push(Block::Heading(2, "Engines".to_string()));
    out.push(engine_table(&report.engines));
    out.extend(node_limit_block(&report.engines));
    out.push(Block::Heading(2, "Terminations".to_string()));
    out.push(termination_table(&report.engines));
    if let Some(machines) = &report.machines {
        out.extend(machines.blocks(false));
    }
    out.extend(length_blocks(&report.lengths));
    if let Some(tournament) = &report.tournament {
        out.extend(tournament_blocks(tournament));
    }
    out
}

/// A pairing's statistics, results by colour, Elo and LLR plots, openings.
fn pairing_blocks(pairing: &super::PairingReport) -> Vec<Block> {
    let mut out = Vec::from(statistics_blocks(pairing));
    out.push(colour_table(pairing));
    out.extend(elo_plot(pairing));
    out.extend(sprt_plot(pairing));
    out.extend(opening_blocks(pairing));
    out
}

/// A's wins, draws, losses and score with White and with Black.
fn colour_table(pairing: &super::PairingReport) -> Block {
    let a = &pairing.a;
    let row = |label: String, r: &super::ColourResult| {
        vec![label, r.wins.to_string(), r.draws.to_string(), r.losses.to_string(), format!("{:.1} %", 100.0 * r.score)]
    };
    Block::Table(Table {
        columns: columns(&[
            ("Colour", Align::Left),
            ("Won", Align::Right),
            ("Drawn", Align::Right),
            ("Lost", Align::Right),
            ("Score", Align::Right),
        ]),
        rows: vec![
            row(format!("{a} White"), &pairing.colours.a_white),
            row(format!("{a} Black"), &pairing.colours.a_black),
        ],
    })
}

/// The Elo as games came in, with its 95 % band; none before a game.
fn elo_plot(pairing: &super::PairingReport) -> Option<Block> {
    let (a, b) = (&pairing.a, &pairing.b);
    let last = pairing.elo_progress.last()?;
    // The first few pairs have intervals hundreds of Elo wide that
    // would flatten the rest of the curve: the plot starts at 10 % of the games.
    let shown: Vec<&super::EloPoint> = pairing.elo_progress.iter().filter(|p| p.games * 10 >= last.games).collect();
    let series =
        Series { name: format!("Elo {a} − {b}"), points: shown.iter().map(|p| (p.games as f64, p.elo)).collect() };
    let band = Band { points: shown.iter().map(|p| (p.games as f64, p.low, p.high)).collect() };
    let plot = LinePlot {
        title: format!("Elo of {a} against {b} with its 95 % interval"),
        x_label: "games",
        y_label: "Elo",
        series: vec![series],
        band: Some(band),
        rules: vec![(0.0, String::new())],
        x_names: Vec::new(),
    };
    let caption = match &pairing.statistics.estimate {
        Some(e) if e.point().is_none() => format!("Elo after {} games: {}", pairing.statistics.games, e.elo_text),
        _ => format!("Elo after {} games: {} {}", last.games, signed(last.elo), interval(last.low, last.high)),
    };
    Some(Block::Plot { caption, svg: plot.to_svg() })
}

/// An SPRT's LLR as games came in, against its bounds; none without one.
fn sprt_plot(pairing: &super::PairingReport) -> Option<Block> {
    let (Some(sprt), Some(last)) = (&pairing.statistics.sprt, pairing.llr_progress.last()) else { return None };
    let plot = LinePlot {
        title: format!("SPRT [{}, {}]: LLR against its bounds", sprt.test.elo0(), sprt.test.elo1()),
        x_label: "games",
        y_label: "LLR",
        series: vec![Series {
            name: "LLR".to_string(),
            points: std::iter::once((0.0, 0.0))
                .chain(pairing.llr_progress.iter().map(|p| (p.games as f64, p.llr)))
                .collect(),
        }],
        band: None,
        rules: vec![(sprt.upper, format!("H1 {:.2}", sprt.upper)), (sprt.lower, format!("H0 {:.2}", sprt.lower))],
        x_names: Vec::new(),
    };
    Some(Block::Plot {
        caption: format!("LLR after {} games: {:.2} ({})", last.games, last.llr, sprt.verdict_label()),
        svg: plot.to_svg(),
    })
}

/// Each engine's games, points, moves and what a move cost.
fn engine_table(engines: &[super::EngineReport]) -> Block {
    Block::Table(Table {
        columns: columns(&[
            ("Engine", Align::Left),
            ("Games", Align::Right),
            ("Points", Align::Right),
            ("Moves", Align::Right),
            ("Depth", Align::Right),
            ("Nodes/move", Align::Right),
            ("nps", Align::Right),
            ("ms/move", Align::Right),
            ("Overhead p50/p99 ms", Align::Right),
        ]),
        rows: engines
            .iter()
            .map(|e| {
                vec![
                    e.name.clone(),
                    e.games.to_string(),
                    points(e.points),
                    e.moves.to_string(),
                    optional(e.avg_depth, 1),
                    optional(e.avg_nodes, 0),
                    optional(e.avg_nps, 0),
                    optional(e.avg_time_ms, 1),
                    match (e.overhead_p50_ms, e.overhead_p99_ms) {
                        (Some(p50), Some(p99)) => format!("{p50} / {p99}"),
                        _ => "-".to_string(),
                    },
                ]
            })
            .collect(),
    })
}

/// How each engine's games ended: won, drawn and lost per termination.
fn termination_table(engines: &[super::EngineReport]) -> Block {
    Block::Table(Table {
        columns: columns(&[
            ("Engine", Align::Left),
            ("Termination", Align::Left),
            ("Won", Align::Right),
            ("Drawn", Align::Right),
            ("Lost", Align::Right),
        ]),
        rows: engines
            .iter()
            .flat_map(|e| {
                e.terminations.iter().map(|t| {
                    vec![
                        e.name.clone(),
                        t.termination.to_string(),
                        t.won.to_string(),
                        t.drawn.to_string(),
                        t.lost.to_string(),
                    ]
                })
            })
            .collect(),
    })
}

/// Games by length: a bar chart and its table; nothing without games.
fn length_blocks(lengths: &[super::LengthBin]) -> Vec<Block> {
    if lengths.is_empty() {
        return Vec::new();
    }
    let bars = Bars {
        title: "Games by length (engine plies)".to_string(),
        x_label: "plies",
        y_label: "games",
        bars: lengths.iter().map(|b| (format!("{}", b.from_plies), b.games as f64)).collect(),
    };
    let games: u64 = lengths.iter().map(|b| b.games).sum();
    vec![
        Block::Heading(2, "Game lengths".to_string()),
        Block::Plot { caption: format!("{games} games by length"), svg: bars.to_svg() },
        Block::Table(Table {
            columns: columns(&[("Plies", Align::Left), ("Games", Align::Right)]),
            rows: lengths
                .iter()
                .filter(|b| b.games > 0)
                .map(|b| vec![format!("{}–{}", b.from_plies, b.to_plies), b.games.to_string()])
                .collect(),
        }),
    ]
}

fn opening_blocks(pairing: &super::PairingReport) -> Vec<Block> {
    let a = &pairing.a;
    let heading = Block::Heading(2, format!("{a} vs {} by opening", pairing.b));
    let columns = columns(&[
        ("Pair", Align::Right),
        ("Opening", Align::Left),
        ("A White", Align::Right),
        ("A Black", Align::Right),
        ("Pair score", Align::Right),
    ]);
    let row = |r: &super::OpeningRow| {
        vec![r.pair.to_string(), r.opening.clone(), points(r.a_white), points(r.a_black), points(r.score)]
    };
    // A large run lists only its first pairs in plan order.
    let listed = match pairing.openings_of {
        Some(total) => format!("the first {} of {total} pairs in plan order", pairing.openings.len()),
        None => format!("{} pairs", pairing.openings.len()),
    };
    if pairing.openings.len() <= OPENING_ROWS {
        let mut lines = vec![format!("A is {a}; points are A's (the FHR paper's Table 2 layout).")];
        if pairing.openings_of.is_some() {
            lines.push(format!("Listed: {listed}."));
        }
        return vec![
            heading,
            Block::Lines(false, lines),
            Block::Table(Table { columns, rows: pairing.openings.iter().map(row).collect() }),
        ];
    }
    let mut sorted: Vec<&super::OpeningRow> = pairing.openings.iter().collect();
    sorted.sort_by(|x, y| y.score.total_cmp(&x.score).then(x.pair.cmp(&y.pair)));
    let best: Vec<Vec<String>> = sorted.iter().take(DECISIVE_OPENINGS).map(|r| row(r)).collect();
    let worst: Vec<Vec<String>> = sorted.iter().rev().take(DECISIVE_OPENINGS).map(|r| row(r)).collect();
    vec![
        heading,
        Block::Lines(
            false,
            vec![match pairing.openings_of {
                None => format!(
                    "{listed}; the {DECISIVE_OPENINGS} best and worst for {a} are listed (all pairs are in the JSON report)."
                ),
                Some(_) => format!(
                    "Of {listed}, the {DECISIVE_OPENINGS} best and worst for {a} (the JSON report holds those {}).",
                    pairing.openings.len()
                ),
            }],
        ),
        Block::Table(Table { columns: columns.clone(), rows: best }),
        Block::Table(Table { columns, rows: worst }),
    ]
}

/// A tournament's Bradley–Terry ratings.
fn ratings_blocks(t: &Tournament) -> Vec<Block> {
    let mut out = vec![Block::Heading(2, "Ratings".to_string())];
    out.push(Block::Lines(
        false,
        vec![format!(
            "Bradley–Terry maximum likelihood, relative to {} (rated 0); 95 % intervals relative to the anchor.",
            t.anchor
        )],
    ));
    out.push(Block::Table(Table {
        columns: columns(&[
            ("Rank", Align::Right),
            ("Engine", Align::Left),
            ("Elo", Align::Right),
            ("95 % interval", Align::Right),
            ("Games", Align::Right),
            ("Points", Align::Right),
        ]),
        rows: t
            .ratings
            .iter()
            .enumerate()
            .map(|(i, r)| {
                vec![
                    (i + 1).to_string(),
                    r.name.clone(),
                    r.elo.map_or("unrated".to_string(), signed),
                    r.elo_ci95.map_or("-".to_string(), |[lo, hi]| interval(lo, hi)),
                    r.games.to_string(),
                    points(r.points),
                ]
            })
            .collect(),
    }));
    out
}

fn tournament_blocks(t: &Tournament) -> Vec<Block> {
    let mut out = ratings_blocks(t);
    out.push(Block::Heading(2, "Crosstable".to_string()));
    let mut columns = columns(&[("Engine", Align::Left)]);
    columns.extend(t.engines.iter().map(|name| (name.clone(), Align::Right)));
    let mut rows = Vec::new();
    for (i, name) in t.engines.iter().enumerate() {
        let mut row = vec![name.clone()];
        for cell in &t.crosstable[i] {
            row.push(cell.map_or("·".to_string(), |c| format!("{}/{}", points(c.points), c.games)));
        }
        rows.push(row);
    }
    out.push(Block::Table(Table { columns, rows }));
    out
}
