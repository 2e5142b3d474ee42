//! A database written by the release before the model crate and the one
//! work loop (`tests/fixtures/v1.db`: a finished match, a finished
//! tournament, a stopped SPRT, a finished and a stopped suite run, made by
//! that release's `arena`) still opens, lists, reports exactly as that
//! release reported it (`v1-report-N.json`), and resumes to exactly its
//! planned work.

use crate::common::{arena, arena_ok, stdout, temp_dir};
use serde_json::Value;

const FIXTURE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures");

/// The header of `arena moves`.
const MOVES_HEADER: &str =
    "game_id,game,ply,uci,san,time_ms,clock_ms,score_cp,score_mate,depth,seldepth,nodes,nps,pv,latency_ms,engine_ms";

/// Moves, their node total and games of `arena moves` CSV.
fn move_counts(csv: &str) -> (usize, u64, usize) {
    let rows: Vec<Vec<&str>> = csv.lines().skip(1).map(|l| l.split(',').collect()).collect();
    let nodes = rows.iter().map(|r| r[11].parse::<u64>().unwrap_or(0)).sum();
    let games: std::collections::BTreeSet<&str> = rows.iter().map(|r| r[0]).collect();
    (rows.len(), nodes, games.len())
}

fn report(dir: &std::path::Path, run: &str) -> Value {
    serde_json::from_str(&stdout(&arena_ok(dir, &["report", run, "--format", "json"]))).unwrap()
}

/// The report of `run` as the release that made `before` would have written
/// it, less the changes since: an estimate also carries `elo_limit` and
/// `elo_text` (what the views print: a one-sided bound where the score's
/// interval reaches 100 % or 0 %), and the Elo curve leaves out the points
/// where it does. Those fields are checked and removed, and the only points
/// missing from the curve must be such points (intervals thousands of Elo wide).
fn report_as_before(dir: &std::path::Path, run: &str, before: &Value) -> Value {
    let mut now = report(dir, run);
    // Since machines are watched (migration 0012): the machines section, each
    // game's machine read from the slot that held its pair, and no overhead
    // for moves stored before it was measured.
    if let Some(machines) = now.as_object_mut().and_then(|o| o.remove("machines")) {
        let games: u64 = machines["rows"].as_array().unwrap().iter().map(|r| r["games"].as_u64().unwrap()).sum();
        assert_eq!(Some(games), now["header"]["games_played"].as_u64(), "run {run}: {machines}");
        assert!(machines["rows"].as_array().unwrap().iter().all(|r| r["overhead_p50_ms"].is_null()));
    }
    for engine in now.get_mut("engines").and_then(Value::as_array_mut).into_iter().flatten() {
        for key in ["overhead_p50_ms", "overhead_p99_ms"] {
            assert_eq!(engine.as_object_mut().and_then(|e| e.remove(key)), Some(Value::Null), "run {run}");
        }
        // Since a report judges each engine's mean nodes against its
        // `nodes=` limit: the bundled engine keeps it, where it has one and
        // reported nodes.
        let judged = !engine["avg_nodes"].is_null();
        let limit = engine.as_object_mut().and_then(|e| e.remove("node_limit")).unwrap();
        let kept = engine.as_object_mut().and_then(|e| e.remove("node_limit_kept")).unwrap();
        let expected = if limit.is_null() || !judged { Value::Null } else { Value::Bool(true) };
        assert_eq!(kept, expected, "run {run}: {limit}");
    }
    let Some(pairings) = now.get_mut("pairings").and_then(Value::as_array_mut) else { return now };
    for (k, pairing) in pairings.iter_mut().enumerate() {
        let mut one_sided = false;
        for key in ["trinomial_estimate", "pentanomial_estimate"] {
            let Some(estimate) = pairing["statistics"][key].as_object_mut() else { continue };
            let text = estimate.remove("elo_text").and_then(|t| t.as_str().map(str::to_string)).unwrap();
            let limit = estimate.remove("elo_limit").unwrap();
            assert_eq!(limit.is_null(), !(text.starts_with("> ") || text.starts_with("< ")), "run {run}: {text}");
            // The verdict rests on the pairs where there are any (the last key).
            one_sided = !limit.is_null();
            // A second change: a sample whose score interval reached both 0 %
            // and 100 % (a pair lost, a pair won) had an interval of ±3,600
            // Elo, the clamp, and one whose games (or pairs) all went alike,
            // neither all won nor all lost, only the regularisation's width
            // (25 split pairs: ±1.4 Elo); both now have Wilson's, tens to
            // hundreds of Elo wide, and the verdict's games to play follow.
            let old = &before["pairings"][k]["statistics"][key];
            let edge = |i: usize, sign: f64| old["elo_ci95"][i].as_f64().is_some_and(|e| e * sign >= 3599.0);
            let statistics = &before["pairings"][k]["statistics"];
            let counts: Vec<u64> = match key {
                "pentanomial_estimate" => {
                    statistics["pentanomial"].as_array().unwrap().iter().map(|c| c.as_u64().unwrap()).collect()
                }
                _ => ["losses", "draws", "wins"].iter().map(|k| statistics[k].as_u64().unwrap()).collect(),
            };
            let alike =
                counts.iter().filter(|&&c| c > 0).count() == 1 && counts[0] == 0 && counts[counts.len() - 1] == 0;
            if (edge(0, -1.0) && edge(1, 1.0)) || alike {
                let (low, high) =
                    (estimate["elo_ci95"][0].as_f64().unwrap(), estimate["elo_ci95"][1].as_f64().unwrap());
                assert!(-1000.0 < low && low < high && high < 1000.0, "run {run}: {low} {high}");
                estimate.insert("elo_ci95".into(), old["elo_ci95"].clone());
                pairing["statistics"]["verdict"] = before["pairings"][k]["statistics"]["verdict"].clone();
            }
        }
        // A third change: a verdict on a one-sided sample (all won or all
        // lost) or on fewer than 10 games names no count of games to play,
        // where that release named one from the bound or the interval of a
        // handful of games (`play about 3 more games to resolve ±1161 Elo`,
        // `play about 12959996 more games to resolve ±2 Elo` after 4 games).
        let then = before["pairings"][k]["statistics"]["verdict"].as_str().unwrap_or_default().to_string();
        let verdict = pairing["statistics"]["verdict"].as_str().unwrap_or_default().to_string();
        let few = pairing["statistics"]["games"].as_u64().is_some_and(|games| games < 10);
        if (one_sided || few) && verdict.ends_with(": too few games to size the difference; play more") {
            assert!(then.contains(" more games to resolve "), "run {run}: {then}");
            assert_eq!(verdict.split_once(':').map(|v| v.0), then.split_once(':').map(|t| t.0), "run {run}: same p");
            pairing["statistics"]["verdict"] = then.into();
        }
        let old = before["pairings"][k]["elo_progress"].as_array().cloned().unwrap_or_default();
        let kept = pairing["elo_progress"].as_array().cloned().unwrap_or_default();
        let mut rest = kept.iter().peekable();
        for point in &old {
            if rest.peek() == Some(&point) {
                rest.next();
            } else {
                // Left out now: a point whose interval was thousands of Elo
                // wide, and one whose pairs so far all scored alike (one
                // pair, two split pairs), whose interval was only the
                // regularisation's few tens of Elo. The fixture's runs are
                // small: every pair is listed, in plan order, as they finished.
                let width = point["high"].as_f64().unwrap() - point["low"].as_f64().unwrap();
                let pairs = point["games"].as_u64().unwrap() as usize / 2;
                let mut listed: Vec<(u64, f64)> = pairing["openings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| (o["pair"].as_u64().unwrap(), o["score"].as_f64().unwrap()))
                    .collect();
                listed.sort_by_key(|(pair, _)| *pair);
                let alike = listed.iter().take(pairs).all(|(_, score)| *score == listed[0].1);
                assert!(width > 1000.0 || alike, "run {run}: a two-sided point left the curve: {point}");
            }
        }
        assert!(rest.next().is_none(), "run {run}: a point the release did not draw");
        pairing["elo_progress"] = Value::Array(old);
    }
    now
}

#[test]
fn a_database_of_the_previous_release_reports_and_resumes() {
    let dir = temp_dir("fixture");
    std::fs::copy(format!("{FIXTURE}/v1.db"), dir.join("arena.db")).unwrap();

    let runs = stdout(&arena_ok(&dir, &["runs"]));
    let rows: Vec<Vec<&str>> = runs.lines().skip(1).map(|l| l.split_whitespace().collect()).collect();
    let kinds: Vec<(&str, &str, &str)> = rows.iter().map(|r| (r[0], r[1], r[2])).collect();
    assert_eq!(
        kinds,
        [
            ("5", "suite", "stopped"),
            ("4", "suite", "finished"),
            ("3", "sprt", "stopped"),
            ("2", "tournament", "finished"),
            ("1", "match", "finished")
        ],
        "{runs}"
    );

    // Every report is what the previous release printed, field for field.
    for run in ["1", "2", "3", "4", "5"] {
        let mut before: Value =
            serde_json::from_str(&std::fs::read_to_string(format!("{FIXTURE}/v1-report-{run}.json")).unwrap()).unwrap();
        if run == "5" {
            // One change since: tree sizes are compared on the positions both
            // engines answered. In this stopped run plain answered none, so it
            // gets no percentage (that release said 0 %) and the count is 0.
            assert_eq!(before["rows"][1]["nodes_vs_reference"], 0.0);
            before["rows"][1]["nodes_vs_reference"] = Value::Null;
            before["rows"][1]["compared"] = 0.into();
        }
        assert_eq!(report_as_before(&dir, run, &before), before, "run {run}");
    }
    let show = stdout(&arena_ok(&dir, &["show", "2"]));
    assert!(show.contains("Bradley–Terry") && show.contains("relative to plain"), "{show}");

    // The moves, kept one row each by that release and one JSON value per
    // game since (migration 0010), export byte for byte as that release
    // exported them (`v1-run-2-full.pgn`, written by it at the fullest level),
    // and `arena moves` shows one row per move, as the old table did.
    let pgn_of_run_2 = |dir: &std::path::Path| {
        arena_ok(dir, &["pgn", "2", "--pgn-level", "full", "-o", "run2.pgn"]);
        std::fs::read_to_string(dir.join("run2.pgn")).unwrap()
    };
    let pgn = pgn_of_run_2(&dir);
    assert!(pgn == std::fs::read_to_string(format!("{FIXTURE}/v1-run-2-full.pgn")).unwrap(), "{pgn}");
    let csv = stdout(&arena_ok(&dir, &["moves", "2"]));
    assert_eq!(csv.lines().next(), Some(MOVES_HEADER));
    // 1,278 moves and their node total as the old table held them; 12 games.
    assert_eq!(move_counts(&csv), (1278, 475_187, 12));

    // Packed by `arena compact`: the same reports, PGN and moves, in a smaller file.
    let size = |dir: &std::path::Path| std::fs::metadata(dir.join("arena.db")).unwrap().len();
    let before = size(&dir);
    let reports: Vec<Value> = ["1", "2", "3", "4", "5"].iter().map(|run| report(&dir, run)).collect();
    let compacted = stdout(&arena_ok(&dir, &["compact"]));
    assert!(compacted.starts_with("34 games' moves packed"), "every run's games: {compacted}");
    assert!(size(&dir) < before, "{} bytes, {before} before", size(&dir));
    for (run, before) in ["1", "2", "3", "4", "5"].iter().zip(&reports) {
        assert_eq!(&report(&dir, run), before, "run {run} after compact");
    }
    assert!(pgn_of_run_2(&dir) == pgn, "the PGN after compact");
    assert_eq!(stdout(&arena_ok(&dir, &["moves", "2"])), csv, "the moves after compact");
    assert!(stdout(&arena_ok(&dir, &["compact"])).starts_with("0 games' moves packed"), "nothing left to pack");

    // Only finished runs are pruned: a stopped run is refused in one line.
    let out = arena(&dir, &["prune", "3"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.trim_end().lines().count() == 1 && stderr.contains("run 3 is stopped, not finished"), "{stderr}");
    let dry = stdout(&arena_ok(&dir, &["prune", "--dry-run"]));
    let listed: Vec<&str> = dry.lines().map(|l| l.split(':').next().unwrap()).collect();
    assert_eq!(listed, ["run 4", "run 2", "run 1"], "every finished run: {dry}");

    // The stopped SPRT and the stopped suite run resume to their planned work.
    let out = arena(&dir, &["resume", "3", "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let sprt = report(&dir, "3");
    let header = &sprt["header"];
    assert_eq!(header["status"], "finished");
    let games = header["games_played"].as_u64().unwrap();
    let verdict = sprt["pairings"][0]["statistics"]["sprt"]["verdict"].as_str().unwrap();
    assert!(games == 60 || (verdict != "continue" && verdict != "inconclusive"), "{games} games, {verdict}");
    assert!(games >= 18 && games.is_multiple_of(2), "{games}");

    let out = arena(&dir, &["resume", "5", "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let suite = report(&dir, "5");
    assert_eq!(suite["header"]["status"], "finished");
    assert_eq!(suite["answers"].as_array().unwrap().len(), 48, "2 engines × 24 positions");
    let again = arena(&dir, &["resume", "5"]);
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already finished"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `arena show 1 | head -1`: a reader that goes away ends every printing
/// command quietly (status 0, nothing on standard error), never a panic.
#[test]
fn printing_commands_end_quietly_when_the_reader_goes_away() {
    use std::process::{Command, Stdio};
    let dir = temp_dir("closed-pipe");
    std::fs::copy(format!("{FIXTURE}/v1.db"), dir.join("arena.db")).unwrap();
    let commands: [&[&str]; 9] = [
        &["runs"],
        &["show", "2"],
        &["report", "2"],
        &["report", "2", "--format", "json"],
        &["report", "4"],
        &["pgn", "2"],
        &["engines"],
        &["stats", "--wdl", "3,4,5"],
        &["sprt-calc", "--elo0", "0", "--elo1", "5"],
    ];
    for args in commands {
        let mut child = Command::new(crate::common::ARENA)
            .args(args)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader is gone before the first line
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
        assert!(stderr.is_empty(), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `arena show` as printed since its draw ratio is the games' (draws / games,
/// as W-D-L counts them): the release before printed the pairs' middle share
/// (DD+WL pairs / pairs) as "draw ratio" when pairs were counted.
fn draw_ratios_as_now(show: &str) -> String {
    let mut games_ratio = None;
    let mut lines = Vec::new();
    for line in show.lines() {
        if let Some((_, counts)) = line.split_once(" games, +") {
            let (wins, rest) = counts.split_once(" =").unwrap();
            let (draws, rest) = rest.split_once(" -").unwrap();
            let losses = rest.split_once(',').unwrap().0;
            let [w, d, l] = [wins, draws, losses].map(|n| n.parse::<f64>().unwrap());
            games_ratio = Some(format!("{:.1} %", 100.0 * d / (w + d + l)));
        }
        match (line.split_once("   draw ratio "), &games_ratio) {
            (Some((head, pairs)), Some(games)) if line.starts_with("LOS ") => {
                lines.push(format!("{head}   draw ratio {games} (DD+WL pairs {pairs})"));
            }
            _ => lines.push(line.to_string()),
        }
    }
    lines.join("\n") + if show.ends_with('\n') { "\n" } else { "" }
}

/// `arena show`'s LOS line as it reads now that it gives one p-value, the
/// exact sign test's below 200 games (every run of the fixture): that
/// release printed the normal approximation's beside it (`p 0.178, exact
/// 0.360`), and its verdict already took the larger.
/// And a verdict on fewer than 10 games names no count of games to play.
fn one_p_value(show: &str) -> String {
    let mut games = u64::MAX;
    let lines: Vec<String> = show
        .lines()
        .map(|line| {
            if let Some((head, _)) = line.split_once(" games, ") {
                games = head.rsplit(' ').next().and_then(|n| n.parse().ok()).unwrap_or(u64::MAX);
            }
            if let Some((p, _)) =
                line.strip_prefix("verdict: not significant (").and_then(|v| v.split_once("): play about "))
                && games < 10
            {
                return format!("verdict: not significant ({p}): too few games to size the difference; play more");
            }
            match line.strip_prefix("LOS ").and_then(|rest| rest.split_once("   p ")) {
                Some((los, rest)) => {
                    let (_, rest) = rest.split_once(", exact ").unwrap();
                    let (exact, draws) = rest.split_once("   ").unwrap();
                    format!("LOS {los}   p {exact} (exact sign test)   {draws}")
                }
                None => line.to_string(),
            }
        })
        .collect();
    lines.join("\n") + if show.ends_with('\n') { "\n" } else { "" }
}

/// `arena show` of a v2 run as it reads now that a pairing whose pairs all
/// scored alike (every pair split or drawn) has Wilson's interval: that
/// release gave the regularisation's few Elo. Wilson's for 2N games at ½,
/// by hand: N = 25, 0.3664 … 0.6336, ±95.1; N = 6, ±187.4; N = 2, ±301.3;
/// N = 30, ±87.0. The verdict's games to play follow from the interval.
fn wilson_where_alike(run: &str, before: String) -> String {
    // (run, the pairs' interval then, now, the verdict's games then, now)
    let changed = [
        ("2", "±   1.4  [-1.4, +1.4]", "±  95.1  [-95.1, +95.1]", "2", "113025"),
        ("4", "±   5.7  [-5.7, +5.7]", "± 187.4  [-187.4, +187.4]", "85", "105302"),
        ("6", "±  17.0  [-17.0, +17.0]", "± 301.3  [-301.3, +301.3]", "286", "90765"),
        ("7", "±   1.1  [-1.1, +1.1]", "±  87.0  [-87.0, +87.0]", "", ""),
    ];
    let mut text = before;
    for (_, then, now, games_then, games_now) in changed.iter().filter(|c| c.0 == run) {
        text = text.replace(&format!("Elo (pairs)        +0.0 {then}"), &format!("Elo (pairs)        +0.0 {now}"));
        if !games_then.is_empty() {
            text = text
                .replace(&format!("play about {games_then} more games"), &format!("play about {games_now} more games"));
        }
    }
    text
}

/// Checks a suite's `arena show` (`now`) against what that release printed
/// (`then`), after two changes since: a time under a second reads in
/// milliseconds (then `0.0 s`; each must round to what was printed), and
/// the plot's caption says what it plots.
fn suite_show_as_then(now: &str, then: &str) {
    let caption = "each point is one limit; up and to the left is better";
    let (now_head, now_times) = now.split_once("\nTime and depth\n").unwrap();
    let (then_head, then_times) = then.split_once("\nTime and depth\n").unwrap();
    assert_eq!(now_head, then_head);
    let cells = |line: &str| -> Vec<String> {
        line.split(", depth ").map(|part| part.rsplit("  ").next().unwrap_or(part).trim().to_string()).collect()
    };
    let mut checked = 0;
    for (line, before) in now_times.lines().zip(then_times.lines()).skip(3).take_while(|(l, _)| !l.is_empty()) {
        for (cell, printed) in cells(line).iter().zip(cells(before)).filter(|(c, _)| c.ends_with(" ms")) {
            let ms: f64 = cell.trim_end_matches(" ms").parse().unwrap();
            assert_eq!(format!("{:.1} s", ms / 1000.0), printed, "{line}\n{before}");
            checked += 1;
        }
    }
    assert_eq!(checked, 4, "two engines at two depths: {now_times}");
    assert!(then.contains(&format!("\n{caption}\n")), "{then}");
    assert!(now.contains(&format!("\nPositions solved against total nodes: {caption}\n")), "{now}");
}

/// A database written by the release before the layered `arena/src`
/// (`tests/fixtures/v2.db`, made by that release's `arena`: a finished elo
/// match, tournament, tuning run, suite run, Chess960 match and SPRT, an
/// SPRT created for workers and never played, and an elo match stopped by
/// Ctrl-C after 24 games) lists, shows, reports, writes its run files and
/// exports as that release did, and its two open runs resume to their end.
/// Four changes since: the tournament's (run 2) `arena show` rates its
/// engines as the full report does (that release printed every engine but
/// the anchor unrated, with 0 games), and its run file names the games per
/// pairing (`--games`, which tournaments take since); and an engine's
/// options are named once in a report's header, beside what runs (that
/// release also put them into what runs, so the Chess960 match, run 6,
/// showed `UCI_Chess960=true` twice); and the draw ratio is the games'
/// (see [`draw_ratios_as_now`]); and an Elo of zero prints `+0.0`, never
/// `-0.0` (run 2's even pairing printed `-0.0` then); and a sample whose
/// pairs all went alike has Wilson's interval (run 2's even pairing); and a
/// suite's times under a second read in milliseconds (run 5, see
/// [`suite_show_as_then`]); and the LOS line gives one p-value (see
/// [`one_p_value`]).
#[test]
fn a_database_of_the_release_before_the_layers_reads_and_resumes_as_it_did() {
    let dir = temp_dir("fixture-v2");
    std::fs::copy(format!("{FIXTURE}/v2.db"), dir.join("arena.db")).unwrap();
    let printed = |name: &str| std::fs::read_to_string(format!("{FIXTURE}/{name}")).unwrap();
    let expected = |name: &str| {
        one_p_value(&draw_ratios_as_now(&printed(name).replace("; options UCI_Chess960=true", "")))
            .replace(" -0.0 ±", " +0.0 ±")
    };

    // The list of runs: each line's words as that release printed them, then
    // the columns added since (time control, slots, priority, Elo, LLR,
    // ETA) after the engines; the list is drawn as every table is now, so
    // its spacing is not that release's.
    let runs = stdout(&arena_ok(&dir, &["runs"]));
    let before = expected("v2-runs.txt");
    assert_eq!(runs.lines().count(), before.lines().count(), "{runs}");
    for (now, then) in runs.lines().zip(before.lines()) {
        let (now_words, then_words): (Vec<&str>, Vec<&str>) =
            (now.split_whitespace().collect(), then.split_whitespace().collect());
        assert!(now_words.starts_with(&then_words), "{now}\nbegins as before:\n{then}");
    }
    // The dashboard's filters as flags: the same rows, fewer of them.
    let ids = |args: &[&str]| -> Vec<String> {
        let listed = stdout(&arena_ok(&dir, &[&["runs"][..], args].concat()));
        let words = |line: &str| line.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        for line in listed.lines().skip(1) {
            assert!(runs.lines().any(|l| words(l) == words(line)), "{line}\nis not a row of the whole list:\n{runs}");
        }
        listed.lines().skip(1).map(|l| l.split_whitespace().next().unwrap().to_string()).collect()
    };
    assert_eq!(ids(&["--status", "finished", "--engine", "nmp2"]), ["7", "2"]);
    assert_eq!(ids(&["--count", "3"]), ["8", "7", "6"]);
    assert_eq!(ids(&["--before", "6", "--count", "2"]), ["5", "4"]);
    assert!(ids(&["--status", "running", "--engine", "fhr"]).is_empty());
    // The Elo and the LLR there are the ones `show` prints.
    let row = |run: &str| runs.lines().find(|l| l.split_whitespace().next() == Some(run)).unwrap().to_string();
    let show = |run: &str| stdout(&arena_ok(&dir, &["show", run]));
    let elo = show("1").lines().find_map(|l| l.strip_prefix("Elo (pairs)")).unwrap().trim().to_string();
    assert!(row("1").ends_with(elo.split("  [").next().unwrap()), "{runs}\n{elo}");
    // Run 7 played 30 pairs on the 25 openings of feldmann25 at nodes=250:
    // 5 replays, which its views now count once (that release counted them
    // as independent: LLR -0.05, a pentanomial interval of ±1.1 Elo).
    assert!(row("7").contains("-0.04 (-2.94, 2.94)") && show("7").contains("LLR -0.04 (-2.94, 2.94)"), "{runs}");
    for run in 1..=8 {
        let run = run.to_string();
        let before: Value = serde_json::from_str(&expected(&format!("v2-report-{run}.json"))).unwrap();
        if run == "7" {
            let now = report_as_before(&dir, &run, &before);
            assert_eq!(now["header"]["replayed_pairs"], 5);
            let statistics = &now["pairings"][0]["statistics"];
            assert_eq!(
                (statistics["games"].as_u64(), &statistics["pentanomial"]),
                (Some(50), &serde_json::json!([0, 0, 25, 0, 0]))
            );
            assert_eq!(now["engines"], before["engines"], "run 7's engines");
            assert!(show("7").contains("replays: 5 finished pairs replay an opening"), "{}", show("7"));
            continue;
        }
        assert_eq!(report_as_before(&dir, &run, &before), before, "report of run {run}");
        let show = stdout(&arena_ok(&dir, &["show", &run]));
        let mut config = String::new();
        if run != "5" {
            config = stdout(&arena_ok(&dir, &["show", &run, "--config"]));
        }
        if run == "2" {
            let (head, ratings) = show.split_once("\nRatings\n").unwrap();
            let (before, unrated) = expected("v2-show-2.txt")
                .split_once("\nRatings\n")
                .map(|(h, r)| (h.to_string(), r.to_string()))
                .unwrap();
            assert_eq!(head, wilson_where_alike(&run, before), "run 2 up to its ratings");
            assert!(unrated.contains("unrated") && !ratings.contains("unrated"), "{ratings}");
            let full = stdout(&arena_ok(&dir, &["report", &run]));
            assert!(
                full.contains(ratings.lines().nth(5).unwrap()),
                "the first rated engine as the report has it: {show}"
            );
            let draw = "draw = \"movenumber=40,movecount=8,score=10\"\n";
            let with_games = expected("v2-config-2.toml").replace(draw, &format!("{draw}games = 50\n"));
            assert_eq!(config, with_games, "run file of run 2");
            continue;
        }
        if run == "5" {
            suite_show_as_then(&show, &expected("v2-show-5.txt"));
            continue;
        }
        assert_eq!(show, wilson_where_alike(&run, expected(&format!("v2-show-{run}.txt"))), "run {run}");
        if run != "5" {
            assert_eq!(config, expected(&format!("v2-config-{run}.toml")), "run file of run {run}");
        }
    }
    arena_ok(&dir, &["pgn", "6", "--pgn-level", "full", "-o", "run6.pgn"]);
    assert!(std::fs::read_to_string(dir.join("run6.pgn")).unwrap() == expected("v2-run-6-full.pgn"), "Chess960 PGN");

    // The elo match stopped after 4 of 40 games, and the SPRT no one played.
    arena_ok(&dir, &["resume", "8", "--quiet"]);
    let elo = report(&dir, "8");
    assert_eq!(
        (elo["header"]["status"].as_str(), elo["header"]["games_played"].as_u64()),
        (Some("finished"), Some(40))
    );
    arena_ok(&dir, &["resume", "3", "--quiet"]);
    let sprt = report(&dir, "3");
    let games = sprt["header"]["games_played"].as_u64().unwrap();
    let verdict = sprt["pairings"][0]["statistics"]["sprt"]["verdict"].as_str().unwrap().to_string();
    assert_eq!(sprt["header"]["status"], "finished");
    assert!(games == 40 || !["continue", "inconclusive"].contains(&verdict.as_str()), "{games} games, {verdict}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database whose moves were packed by the release before moves and PV
/// words were indexed among the legal moves (`tests/fixtures/v3.db`, packed
/// format 1, every move a two-byte token; made by that release's `arena`:
/// four games of fhr against plain and two Chess960 games, at nodes=3000)
/// exports its moves as that release exported them (`v3-moves-N.csv`,
/// `v3-run-2-full.pgn`), before `arena compact` and after it has packed
/// them anew, in fewer bytes.
#[test]
fn moves_packed_by_the_release_before_indexed_moves_read_the_same_before_and_after_compact() {
    packed_by_an_older_release_reads_the_same_before_and_after_compact("v3");
}

/// A database of the release before moves were packed in sections
/// (`tests/fixtures/v4.db`, packed format 2: one zstd frame, indices ranked
/// by UCI code; made by that release's `arena elo` with the same engines,
/// openings and budget as `v3.db`) likewise.
#[test]
fn moves_packed_in_one_frame_by_the_release_before_sections_read_the_same_before_and_after_compact() {
    packed_by_an_older_release_reads_the_same_before_and_after_compact("v4");
}

/// Fixture `name`.db (run 1 of 4 standard games, run 2 of 2 Chess960 games,
/// their moves packed in that release's format) exports as that release
/// exported it, before `arena compact` packs its moves anew and after.
fn packed_by_an_older_release_reads_the_same_before_and_after_compact(name: &str) {
    let dir = temp_dir(&format!("fixture-{name}"));
    std::fs::copy(format!("{FIXTURE}/{name}.db"), dir.join("arena.db")).unwrap();
    let exports = |dir: &std::path::Path| {
        arena_ok(dir, &["pgn", "2", "--pgn-level", "full", "-o", "run2.pgn"]);
        let pgn = std::fs::read_to_string(dir.join("run2.pgn")).unwrap();
        [stdout(&arena_ok(dir, &["moves", "1"])), stdout(&arena_ok(dir, &["moves", "2"])), pgn]
    };
    let printed = [format!("{name}-moves-1.csv"), format!("{name}-moves-2.csv"), format!("{name}-run-2-full.pgn")]
        .map(|file| std::fs::read_to_string(format!("{FIXTURE}/{file}")).unwrap());
    assert!(exports(&dir) == printed, "as that release exported them");
    assert!(printed[2].contains("[Variant \"Chess960\"]"), "run 2 is Chess960");

    let compacted = stdout(&arena_ok(&dir, &["compact"]));
    // "6 games' moves packed: 10.3 KB became 8.1 KB"
    let kb: Vec<f64> = compacted.split_whitespace().filter_map(|w| w.parse().ok()).collect();
    assert!(compacted.starts_with("6 games' moves packed") && kb.len() == 3 && kb[2] < kb[1], "{compacted}");
    assert!(exports(&dir) == printed, "the same after compact");
    assert!(stdout(&arena_ok(&dir, &["compact"])).starts_with("0 games' moves packed"), "nothing left to pack");
    let _ = std::fs::remove_dir_all(&dir);
}
