//! A database written by the release before the model crate and the one
//! work loop (`tests/fixtures/v1.db`: a finished match, a finished
//! tournament, a stopped SPRT, a finished and a stopped suite run, made by
//! that release's `arena`) still opens, lists, reports exactly as that
//! release reported it (`v1-report-N.json`), and resumes to exactly its
//! planned work.

use crate::common::{arena, arena_ok, stdout, temp_dir};
use reports::summary::Statistics;
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
/// it, less the changes since (each checked, then undone): the machines
/// section, the engines' overheads and node limits, and one model per run.
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
    let now_header_replays = now["header"]["replayed_pairs"].as_u64().unwrap_or(0);
    let Some(pairings) = now.get_mut("pairings").and_then(Value::as_array_mut) else { return now };
    for (k, pairing) in pairings.iter_mut().enumerate() {
        // Since one model per run: the statistics keep the release's counts
        // and SPRT, and carry one estimate (pairs when played as pairs) in
        // place of the games' and the pairs' normal ones; its verdict is
        // the one the reports crate gives those counts, unless the SPRT decided.
        // (A run with replayed pairs counts them once now: its counts are
        // checked by its own test.)
        let old = before["pairings"][k]["statistics"].clone();
        let statistics = &mut pairing["statistics"];
        if now_header_replays == 0 {
            for key in ["games", "score", "wins", "draws", "losses", "pentanomial", "sprt"] {
                assert_eq!(statistics[key], old[key], "run {run}: {key}");
            }
        }
        assert_eq!(statistics["version"], 2, "run {run}");
        let count = |key: &str| statistics[key].as_u64().unwrap();
        let pentanomial = statistics["pentanomial"].as_array().map(|p| {
            let p: Vec<u64> = p.iter().map(|c| c.as_u64().unwrap()).collect();
            [p[0], p[1], p[2], p[3], p[4]]
        });
        let expected = Statistics::new(Some((count("wins"), count("draws"), count("losses"))), pentanomial, None, None);
        assert_eq!(statistics["estimate"], serde_json::to_value(&expected.estimate).unwrap(), "run {run}");
        let decided = statistics["sprt"]["verdict"].as_str().is_some_and(|v| v != "continue");
        if !decided && before["header"]["status"] == "stopped" && statistics["sprt"].is_object() {
            // An SPRT stopped by hand before a bound now says so.
            let verdict = statistics["verdict"].as_str().unwrap();
            assert!(verdict.starts_with("SPRT stopped by hand before a bound (LLR "), "run {run}: {verdict}");
        } else if !decided {
            assert_eq!(statistics["verdict"].as_str(), Some(expected.verdict.as_str()), "run {run}");
        } else if now_header_replays == 0 {
            assert_eq!(statistics["verdict"], old["verdict"], "run {run}");
        }
        if now_header_replays == 0 {
            *statistics = old;
        }
        // The Elo curve draws only points with a two-sided interval of the
        // one model: a subset of the release's points, at the same games.
        let old_games: Vec<u64> = before["pairings"][k]["elo_progress"]
            .as_array()
            .map(|points| points.iter().map(|p| p["games"].as_u64().unwrap()).collect())
            .unwrap_or_default();
        for point in pairing["elo_progress"].as_array().cloned().unwrap_or_default() {
            let games = point["games"].as_u64().unwrap();
            assert!(games >= 40 && old_games.contains(&games), "run {run}: {point}");
        }
        pairing["elo_progress"] = before["pairings"][k]["elo_progress"].clone();
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

/// `arena show` as printed since one model per run: each statistics block
/// (`A vs B: N games, +w =d -l, …` down to its verdict) keeps the release's
/// counts, pair line and SPRT line, and its Elo, nElo, LOS and p lines,
/// its verdict (unless the SPRT's) and its note are what the reports crate
/// prints for those counts.
fn statistics_as_now(show: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut lines = show.lines().peekable();
    while let Some(line) = lines.next() {
        let Some((names, counts)) = line.split_once(" games, +").and_then(|(head, rest)| {
            let (names, _) = head.split_once(": ")?;
            Some((names.to_string(), rest.to_string()))
        }) else {
            out.push(line.to_string());
            continue;
        };
        let (a, b) = names.split_once(" vs ").unwrap();
        let (wins, rest) = counts.split_once(" =").unwrap();
        let (draws, rest) = rest.split_once(" -").unwrap();
        let losses = rest.split_once(',').unwrap().0;
        let wdl = [wins, draws, losses].map(|n| n.parse::<u64>().unwrap());
        let mut block = Vec::new();
        for next in lines.by_ref() {
            block.push(next.to_string());
            if next.starts_with("verdict: ") {
                break;
            }
        }
        if lines.peek().is_some_and(|l| l.starts_with("note: ")) {
            lines.next();
        }
        let pairs_line = block.iter().find(|l| l.starts_with("pairs LL ")).cloned();
        let pentanomial = pairs_line.as_ref().map(|l| {
            let n: Vec<u64> = l.split_whitespace().filter_map(|w| w.parse().ok()).collect();
            [n[0], n[1], n[2], n[3], n[4]]
        });
        let now = Statistics::new(Some((wdl[0], wdl[1], wdl[2])), pentanomial, None, None).render_text(a, b);
        let sprt = block.iter().find(|l| l.starts_with("SPRT ")).cloned();
        let old_verdict = block.last().cloned().unwrap_or_default();
        out.push(line.to_string());
        for new in now.lines().skip(1) {
            if new.starts_with("verdict: ") {
                out.extend(sprt.clone());
                if old_verdict.starts_with("verdict: SPRT accepted") || old_verdict.starts_with("verdict: SPRT inc") {
                    out.push(old_verdict.clone());
                    continue;
                }
            }
            out.push(new.to_string());
        }
    }
    out.join("\n") + if show.ends_with('\n') { "\n" } else { "" }
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
        statistics_as_now(&printed(name).replace("; options UCI_Chess960=true", "")).replace(" -0.0 ±", " +0.0 ±")
    };

    // The list of runs: each line's words as that release printed them, then
    // the columns added since (time control, slots, priority, Elo, LLR,
    // ETA) after the engines; the list is drawn as every table is now, so
    // its spacing is not that release's.
    let runs = stdout(&arena_ok(&dir, &["runs"]));
    let before = expected("v2-runs.txt");
    assert_eq!(runs.lines().count(), before.lines().count(), "{runs}");
    for (now, then) in runs.lines().zip(before.lines()) {
        // Since one model per run, a finished match's row says its verdict
        // (that release left the column to SPRTs): runs 1 and 6 are too
        // small to decide.
        let now = now.replace(" too few pairs ", " ");
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
    assert!(row("1").contains(" too few pairs ") && row("6").contains(" too few pairs "), "{runs}");
    assert!(!row("2").contains(" too few ") && !row("4").contains(" too few "), "{runs}");
    let elo = show("1").lines().find_map(|l| l.strip_prefix("Elo (pairs)")).unwrap().trim().to_string();
    let collapsed = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let listed = collapsed(row("1").split_once(" 5-0-3 ").unwrap().1);
    let listed = listed.as_str();
    assert!(collapsed(&elo).starts_with(listed.split(" (").next().unwrap()), "{runs}\n{elo}");
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
            assert_eq!(head, before, "run 2 up to its ratings");
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
        assert_eq!(show, expected(&format!("v2-show-{run}.txt")), "run {run}");
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
