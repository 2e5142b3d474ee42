use model::GameResult::{BlackWins, Draw, WhiteWins};
use model::{EngineMoveTotals, GameCount, PairCount, PairOutcome};
use model::{GameResult, RunKind, RunStatus, Termination};

use super::*;
use crate::stats::sprt::Model;

fn header(names: &[&str]) -> Header {
    Header {
        run: 7,
        kind: RunKind::Sprt,
        status: RunStatus::Finished,
        engines: names
            .iter()
            .map(|n| EngineHeader {
                name: n.to_string(),
                kind: format!("preset {n}"),
                options: vec![("Hash".to_string(), "16".to_string())],
                time_control: None,
                commit: None,
                bench: None,
                played_by: Vec::new(),
            })
            .collect(),
        time_control: "10+0.1".to_string(),
        openings: "feldmann25".to_string(),
        games_planned: 10,
        games_played: 8,
        created: utc_timestamp(1_700_000_000_000),
        finished: None,
        machine: "box".to_string(),
        replayed_pairs: 0,
        unpaired_games: 0,
    }
}

fn pair(index: i64, a: &str, b: &str, results: [GameResult; 2]) -> PairOutcome {
    PairOutcome {
        index,
        engine_a: a.to_string(),
        engine_b: b.to_string(),
        opening_name: format!("opening {index}"),
        results,
        finished_seq: index + 1,
        machine: String::new(),
    }
}

fn games_of(pairs: &[PairOutcome], terminations: &[Termination]) -> Vec<GameCount> {
    let mut games = Vec::new();
    for (p, pair) in pairs.iter().enumerate() {
        for g in 0..2 {
            let (white, black) =
                if g == 0 { (&pair.engine_a, &pair.engine_b) } else { (&pair.engine_b, &pair.engine_a) };
            games.push(GameCount {
                white: white.clone(),
                black: black.clone(),
                result: pair.results[g],
                termination: terminations[(2 * p + g) % terminations.len()],
                plies: 30 + 25 * (2 * p + g) as i64,
                machine: pair.machine.clone(),
                games: 1,
            });
        }
    }
    games
}

fn test() -> Test {
    Test::new(0.0, 5.0, 0.05, 0.05, Model::Normalized).unwrap()
}

#[test]
fn two_engine_report_agrees_with_statistics_and_across_formats() {
    // fhr: W+L, W+W, D+D, L+D (A's view, White first).
    let pairs = vec![
        pair(0, "fhr", "plain", [WhiteWins, WhiteWins]),
        pair(1, "fhr", "plain", [WhiteWins, BlackWins]),
        pair(2, "fhr", "plain", [Draw, Draw]),
        pair(3, "fhr", "plain", [BlackWins, Draw]),
    ];
    let games = games_of(&pairs, &[Termination::Checkmate, Termination::AdjudicatedDraw, Termination::TimeForfeit]);
    let totals = vec![EngineMoveTotals {
        engine: "fhr".to_string(),
        moves: 100,
        time_ms: 5_000,
        depth_sum: 900,
        depth_moves: 100,
        nodes_sum: 1_000_000,
        nodes_moves: 100,
        nps_sum: 50_000_000,
        nps_moves: 50,
        ..EngineMoveTotals::default()
    }];
    let report = Report::build(Inputs {
        header: header(&["fhr", "plain"]),
        pairings: vec![("fhr".to_string(), "plain".to_string())],
        sprt: Some((test(), None)),
        counts: &PairCount::of(&pairs),
        pairs: &pairs,
        progress: None,
        games: &games,
        move_totals: &totals,
        node_limits: Vec::new(),
        anchor: None,
        tune: None,
        pv_issues: &[],
        machines: None,
        family: None,
        scale: None,
    });
    let pairing = &report.pairings[0];
    // Colours: White W W D L → 2-1-1; Black L W D D → 1-2-1.
    assert_eq!(
        (pairing.colours.a_white.wins, pairing.colours.a_white.draws, pairing.colours.a_white.losses),
        (2, 1, 1)
    );
    assert_eq!(
        (pairing.colours.a_black.wins, pairing.colours.a_black.draws, pairing.colours.a_black.losses),
        (1, 2, 1)
    );
    assert_eq!(pairing.colours.a_white.score, 0.625);
    let scores: Vec<(f64, f64, f64)> = pairing.openings.iter().map(|o| (o.a_white, o.a_black, o.score)).collect();
    assert_eq!(scores, vec![(1.0, 0.0, 1.0), (1.0, 1.0, 2.0), (0.5, 0.5, 1.0), (0.0, 0.5, 0.5)]);
    let expected = Statistics::new(Some((3, 3, 2)), Some([0, 1, 2, 0, 1]), Some(test()), None);
    assert_eq!(pairing.statistics, expected);
    // Four pairs are too few for an interval: the Elo curve has no point.
    assert!(pairing.elo_progress.is_empty(), "{:?}", pairing.elo_progress);
    // The LLR after each pair, computed from the counts so far.
    let mut so_far = Tally::default();
    let expected_llrs: Vec<f64> = pairs
        .iter()
        .map(|p| {
            so_far.add_pair(p.results[0], p.results[1]);
            crate::stats::sprt::llr(&test(), &Counts::pairs(&so_far))
        })
        .collect();
    let llrs: Vec<f64> = pairing.llr_progress.iter().map(|p| p.llr).collect();
    assert_eq!(llrs, expected_llrs);
    assert_eq!(llrs.last(), expected.sprt.as_ref().map(|s| s.llr).as_ref());

    let fhr = &report.engines[0];
    assert_eq!((fhr.games, fhr.points, fhr.moves), (8, 4.5, 100));
    assert_eq!(
        (fhr.avg_depth, fhr.avg_nodes, fhr.avg_nps, fhr.avg_time_ms),
        (Some(9.0), Some(10_000.0), Some(1e6), Some(50.0))
    );
    assert_eq!(report.engines[1].avg_depth, None);
    let forfeits = fhr.terminations.iter().find(|t| t.termination == "time-forfeit").unwrap();
    // Games 2 (fhr White, won) and 5 (fhr Black, drawn) ended on time.
    assert_eq!((forfeits.won, forfeits.drawn, forfeits.lost), (1, 1, 0));
    let total: u64 = fhr.terminations.iter().map(|t| t.won + t.drawn + t.lost).sum();
    assert_eq!(total, 8);
    assert_eq!(report.lengths.iter().map(|b| b.games).sum::<u64>(), 8);
    assert_eq!(report.lengths.last().unwrap().to_plies, 219); // longest game 205 plies
    assert!(report.tournament.is_none());

    let elo = format!("{:+.1}", expected.estimate.as_ref().unwrap().elo.unwrap());
    let llr = format!("LLR {:.2}", expected.sprt.as_ref().unwrap().llr);
    let text = render_text(&report);
    let markdown = render_markdown(&report);
    let html = render_html(&report);
    for (format, rendered) in [("text", &text), ("markdown", &markdown), ("html", &html)] {
        assert!(rendered.contains(&elo), "{format} lacks {elo}:\n{rendered}");
        assert!(rendered.contains(&llr), "{format} lacks {llr}");
        assert!(rendered.contains("opening 3") && rendered.contains("time-forfeit"), "{format}");
        assert!(!rendered.contains("NaN"), "{format}");
    }
    // No Elo plot: four pairs have no interval to draw.
    assert_eq!(html.matches("<svg").count(), 2, "LLR and lengths plots");
    // Markdown with its plots as files: the same text, an image line above each caption.
    let (with_plots, plots) = render_markdown_with_plots(&report, "r");
    let names: Vec<&str> = plots.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["r-plot-1.svg", "r-plot-2.svg"]);
    let prose =
        |text: &str| text.lines().filter(|l| !l.is_empty() && !l.starts_with("![")).collect::<Vec<_>>().join("\n");
    assert_eq!(prose(&with_plots), prose(&markdown));
    let (spaced, _) = render_markdown_with_plots(&report, "my run");
    assert!(spaced.contains("](<my run-plot-1.svg>)"), "a name with a space is linked between < and >");
    for (name, svg) in &plots {
        assert_eq!(with_plots.matches(&format!("]({name})")).count(), 1, "{name}");
        assert!(svg.starts_with("<?xml") && svg.contains("<svg width=\"640\" height=\"300\" xmlns="), "{name}");
        assert!(svg.contains("<style>") && svg.matches("<svg").count() == 1 && svg.trim_end().ends_with("</svg>"));
    }
    assert!(markdown.contains("| Pair | Opening | A White | A Black | Pair score |"));
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["version"], REPORT_VERSION);
    assert_eq!(json["pairings"][0]["statistics"]["pentanomial"], serde_json::json!([0, 1, 2, 0, 1]));
    assert_eq!(json["pairings"][0]["statistics"]["estimate"]["elo"], expected.estimate.as_ref().unwrap().elo.unwrap());
    assert_eq!(json["pairings"][0]["statistics"]["estimate"]["model"], "pairs");
    assert_eq!(json["engines"][1]["avg_depth"], serde_json::Value::Null);
}

#[test]
fn tournament_has_a_consistent_crosstable_and_anchored_ratings() {
    let names = ["a", "b", "c"];
    let mut pairs = Vec::new();
    for (k, (x, y)) in [("a", "b"), ("a", "c"), ("b", "c")].into_iter().enumerate() {
        for i in 0..6 {
            let results = match (k, i % 3) {
                (0, 0) | (1, _) => [WhiteWins, BlackWins], // first engine wins both
                (2, 0) => [Draw, Draw],
                _ => [WhiteWins, WhiteWins],
            };
            pairs.push(pair((k * 6 + i) as i64, x, y, results));
        }
    }
    let games = games_of(&pairs, &[Termination::Checkmate]);
    let report = Report::build(Inputs {
        header: header(&names),
        pairings: vec![("a".into(), "b".into()), ("a".into(), "c".into()), ("b".into(), "c".into())],
        sprt: None,
        tune: None,
        pv_issues: &[],
        machines: None,
        family: None,
        scale: None,
        counts: &PairCount::of(&pairs),
        pairs: &pairs,
        progress: None,
        games: &games,
        move_totals: &[],
        node_limits: Vec::new(),
        anchor: Some("b".to_string()),
    });
    let t = report.tournament.as_ref().unwrap();
    for i in 0..3 {
        assert!(t.crosstable[i][i].is_none());
        for j in 0..3 {
            if let (Some(x), Some(y)) = (t.crosstable[i][j], t.crosstable[j][i]) {
                assert_eq!(x.games, y.games);
                assert_eq!(x.points + y.points, x.games as f64);
            }
        }
    }
    // a scores 8/12 against b (2 pairs of 2 wins, 4 split pairs).
    assert_eq!(t.crosstable[0][1].map(|c| (c.points, c.games)), Some((8.0, 12)));
    assert_eq!(t.anchor, "b");
    let rating = |name: &str| t.ratings.iter().find(|r| r.name == name).unwrap().clone();
    assert_eq!(rating("b").elo, Some(0.0));
    assert!(rating("a").elo.unwrap() > 0.0 && rating("c").elo.unwrap() < rating("a").elo.unwrap());
    assert_eq!(t.ratings[0].name, "a", "best first");
    // The short view, from the counts alone (no pair in order), says the same.
    let brief = Report::build(Inputs {
        header: header(&names),
        pairings: vec![("a".into(), "b".into()), ("a".into(), "c".into()), ("b".into(), "c".into())],
        sprt: None,
        tune: None,
        pv_issues: &[],
        machines: None,
        family: None,
        scale: None,
        counts: &PairCount::of(&pairs),
        pairs: &[],
        progress: None,
        games: &[],
        move_totals: &[],
        node_limits: Vec::new(),
        anchor: Some("b".to_string()),
    });
    assert_eq!(brief.tournament, report.tournament);
    for (short, full) in brief.pairings.iter().zip(&report.pairings) {
        assert_eq!((&short.statistics, &short.colours), (&full.statistics, &full.colours));
        assert!(short.openings.is_empty() && !full.openings.is_empty());
    }
    let text = render_text(&report);
    assert!(text.contains("Crosstable") && text.contains("8/12"), "{text}");
    assert!(text.contains(&format!("{:+.1}", rating("a").elo.unwrap())));
}

/// The report of x against y before any game, under `header`.
fn report_without_games(header: Header, sprt: Option<(Test, Option<Verdict>)>) -> Report {
    Report::build(Inputs {
        header,
        pairings: vec![("x".into(), "y".into())],
        sprt,
        counts: &[],
        pairs: &[],
        progress: None,
        games: &[],
        move_totals: &[],
        node_limits: Vec::new(),
        anchor: None,
        tune: None,
        pv_issues: &[],
        machines: None,
        family: None,
        scale: None,
    })
}

#[test]
fn empty_run_renders() {
    let report = report_without_games(header(&["x", "y"]), Some((test(), None)));
    for rendered in [render_text(&report), render_markdown(&report), render_html(&report)] {
        assert!(!rendered.contains("NaN") && rendered.contains("no games yet"), "{rendered}");
    }
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["pairings"][0]["statistics"]["games"], 0);
    assert_eq!(json["lengths"], serde_json::json!([]));
}

/// A machine that played many binaries of an engine gets one line with
/// the count, the first and the last; two or fewer get a line each; the
/// JSON keeps every one.
#[test]
fn many_binaries_on_one_machine_fold_into_one_line() {
    let identity = |host: &str, n: usize| model::EngineIdentity {
        engine: "x".into(),
        host: host.into(),
        sha256: format!("{n:064x}"),
        id_name: format!("x {n}"),
        bench: None,
        nps: None,
        accepted: n > 0,
        seen_ms: n as i64,
    };
    let mut head = header(&["x", "y"]);
    head.engines[0].played_by = (0..5).map(|n| identity("box", n)).chain([identity("other", 9)]).collect();
    head.engines[1].played_by = (0..2).map(|n| identity("box", n)).collect();
    let report = report_without_games(head, None);
    let text = render_text(&report);
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("played on")).collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("  played on box: 5 binaries, 4 of them accepted changes"), "{}", lines[0]);
    assert!(lines[0].contains("first sha256 000000000000, id name x 0;"), "{}", lines[0]);
    assert!(lines[0].contains("last sha256 000000000000, id name x 4"), "{}", lines[0]);
    assert!(lines[1].starts_with("  played on other: sha256 000000000000, id name x 9 (a change"), "{}", lines[1]);
    assert!(!lines[2].contains("accepted") && lines[3].contains("accepted"), "{text}");
    for rendered in [render_markdown(&report), render_html(&report)] {
        assert!(rendered.contains("5 binaries") && !rendered.contains("id name x 2"), "{rendered}");
    }
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    assert_eq!(json["header"]["engines"][0]["played_by"].as_array().map(Vec::len), Some(6));
    assert!(!lines[0].contains("bench"), "no binary measured a bench: {}", lines[0]);
}

/// A change of binary says how it was accepted: by itself when the bench
/// signature stayed, else with the flag.
#[test]
fn an_accepted_change_says_whether_its_bench_signature_stayed() {
    let line = |second: Option<i64>| {
        let identity = |n: usize, bench: Option<i64>| model::EngineIdentity {
            engine: "x".into(),
            host: "box".into(),
            sha256: format!("{n:064x}"),
            id_name: format!("x {n}"),
            bench,
            nps: None,
            accepted: n > 0,
            seen_ms: n as i64,
        };
        let mut head = header(&["x", "y"]);
        head.engines[0].played_by = vec![identity(0, Some(100)), identity(1, second)];
        let text = render_text(&report_without_games(head, None));
        text.lines().filter(|l| l.contains("played on box")).nth(1).unwrap().to_string()
    };
    assert!(
        line(Some(100)).ends_with("(a change with the same bench signature: the same search, accepted)"),
        "{}",
        line(Some(100))
    );
    for other in [Some(101), None] {
        assert!(line(other).ends_with("(a change, accepted with --accept-change)"), "{}", line(other));
    }
}

/// The folded line says whether the binaries that measured a bench
/// signature agree on it (the same search) or not.
#[test]
fn many_binaries_say_whether_their_bench_signatures_agree() {
    let line = |benches: [Option<i64>; 4]| {
        let mut head = header(&["x", "y"]);
        head.engines[0].played_by = benches
            .iter()
            .enumerate()
            .map(|(n, &bench)| model::EngineIdentity {
                engine: "x".into(),
                host: "box".into(),
                sha256: format!("{n:064x}"),
                id_name: format!("x {n}"),
                bench,
                nps: bench.map(|_| 1_000_000),
                accepted: n > 0,
                seen_ms: n as i64,
            })
            .collect();
        let text = render_text(&report_without_games(head, None));
        text.lines().find(|l| l.contains("played on box")).unwrap().to_string()
    };
    let same = line([None, Some(4_648_864), Some(4_648_864), Some(4_648_864)]);
    assert!(
        same.contains("(each in the JSON report); bench 4648864 nodes on each of the 3 that measured one;"),
        "{same}"
    );
    let one = line([None, None, None, Some(4_648_864)]);
    assert!(one.contains("; bench 4648864 nodes on the one that measured it;"), "{one}");
    let differ = line([Some(1), Some(2), Some(1), None]);
    assert!(differ.contains("; bench signatures differ: 1, 2 nodes;"), "{differ}");
}

#[test]
fn timestamps_are_utc() {
    assert_eq!(utc_timestamp(0), "1970-01-01 00:00:00");
    assert_eq!(utc_timestamp(1_700_000_000_000), "2023-11-14 22:13:20");
    assert_eq!(utc_timestamp(951_782_400_000), "2000-02-29 00:00:00");
    assert_eq!(utc_timestamp(i64::MAX), "????-??-?? ??:??:??");
}

/// `pairs` counted by block of `size` pairs in finishing order, as
/// `run_progress` keeps them.
fn blocks_of(pairs: &[PairOutcome], size: i64) -> Vec<ProgressCount> {
    let mut rows: Vec<ProgressCount> = Vec::new();
    for pair in pairs {
        let block = (pair.finished_seq - 1) / size;
        let alike = |r: &&mut ProgressCount| {
            r.block == block
                && r.count.engine_a == pair.engine_a
                && r.count.engine_b == pair.engine_b
                && r.count.results == pair.results
        };
        match rows.iter_mut().find(alike) {
            Some(row) => {
                row.count.pairs += 1;
                row.last_seq = pair.finished_seq;
            }
            None => rows.push(ProgressCount {
                block,
                count: PairCount::of(std::slice::from_ref(pair)).remove(0),
                last_seq: pair.finished_seq,
            }),
        }
    }
    rows
}

#[test]
fn curves_from_blocks_match_the_curves_from_pairs() {
    let results = [[WhiteWins, BlackWins], [WhiteWins, Draw], [Draw, Draw], [BlackWins, WhiteWins], [Draw, BlackWins]];
    // 60 pairs, the pairing's engines in either order, the other pairing between them.
    let pairs: Vec<PairOutcome> = (0..60)
        .map(|i| {
            let (a, b) = match i % 3 {
                0 => ("fhr", "plain"),
                1 => ("plain", "fhr"),
                _ => ("fhr", "vnm"),
            };
            pair(i, a, b, results[(i as usize * 7) % 5])
        })
        .collect();
    let build = |progress: Option<&[ProgressCount]>| {
        Report::build(Inputs {
            header: header(&["fhr", "plain", "vnm"]),
            pairings: vec![("fhr".to_string(), "plain".to_string()), ("fhr".to_string(), "vnm".to_string())],
            sprt: Some((test(), None)),
            counts: &PairCount::of(&pairs),
            pairs: &pairs,
            progress,
            games: &[],
            move_totals: &[],
            node_limits: Vec::new(),
            anchor: None,
            tune: None,
            pv_issues: &[],
            machines: None,
            family: None,
            scale: None,
        })
    };
    let by_pair = build(None);
    // Blocks of one pair draw the same curves, point for point.
    let one = blocks_of(&pairs, 1);
    let by_block = build(Some(&one));
    for (x, y) in by_pair.pairings.iter().zip(&by_block.pairings) {
        assert_eq!(x.elo_progress, y.elo_progress);
        assert_eq!(x.llr_progress, y.llr_progress);
        assert_eq!(x.statistics, y.statistics);
        assert_eq!(x.openings, y.openings);
        assert_eq!((x.openings_of, y.openings_of), (None, Some(x.openings.len() as u64)));
    }
    // Blocks of 8: a point per block, the last the same as the pairs' last.
    let eight = blocks_of(&pairs, 8);
    let by_eight = build(Some(&eight));
    let (x, y) = (&by_pair.pairings[0], &by_eight.pairings[0]);
    assert_eq!(y.llr_progress.len(), 60usize.div_ceil(8));
    assert_eq!(x.elo_progress.last(), y.elo_progress.last());
    assert_eq!(x.llr_progress.last(), y.llr_progress.last());
    // After block 0 (pairs 1 to 8, of which 1, 4 and 7 are fhr against
    // plain, 2 and 5 with colours the other way): the LLR of those counts.
    let counts = PairCount::of(&pairs[..8]);
    let mut tally = Tally::default();
    for count in counts.iter().filter(|c| c.engine_b != "vnm") {
        let a_first = count.engine_a == "fhr";
        let [first, second] = count.results;
        let (white, black) = if a_first { (first, second) } else { (second, first) };
        tally.add_pairs(white, black, count.pairs);
    }
    assert_eq!(tally.games(), 12);
    let llr = crate::stats::sprt::llr(&test(), &Counts::pairs(&tally));
    assert_eq!(y.llr_progress[0], LlrPoint { games: 12, llr });
}
