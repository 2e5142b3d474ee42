//! `arena report` end to end: a stored SPRT run and a tournament, reported
//! in every format; the numbers agree with each other, with `arena show` and
//! with the stored games; the JSON validates against `docs/report.schema.json`;
//! the HTML renders in headless Chromium without console messages and with
//! its plots.

use crate::common::{ARENA, arena_ok, stdout, temp_dir, validate_against_schema};

use std::path::Path;
use std::process::Command;

use serde_json::Value;

const CHROMIUM: &str = "/usr/bin/chromium";

/// Chromium's console messages and rendered DOM for a local page, or `None`
/// when Chromium is not installed outside CI (CI installs it and must run this).
fn render_in_chromium(page: &Path, dir: &Path) -> Option<(Vec<String>, String)> {
    if !Path::new(CHROMIUM).exists() {
        assert!(std::env::var_os("CI").is_none(), "CI must install chromium (see .ci/run)");
        eprintln!("skipping the browser check: {CHROMIUM} not installed (apt-get install chromium)");
        return None;
    }
    let url = format!("file://{}", page.display());
    let common = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--enable-logging=stderr",
        "--v=0",
    ];
    let profile = format!("--user-data-dir={}", dir.join("chromium-profile").display());
    let out = Command::new(CHROMIUM).args(common).arg(&profile).arg("--dump-dom").arg(&url).output().unwrap();
    assert!(out.status.success(), "chromium failed: {}", String::from_utf8_lossy(&out.stderr));
    let console: Vec<String> =
        String::from_utf8_lossy(&out.stderr).lines().filter(|l| l.contains(":CONSOLE")).map(str::to_string).collect();
    let screenshot = dir.join("report.png");
    let shot = Command::new(CHROMIUM)
        .args(common)
        .arg(&profile)
        .arg("--window-size=420,2000")
        .arg(format!("--screenshot={}", screenshot.display()))
        .arg(&url)
        .output()
        .unwrap();
    assert!(shot.status.success(), "chromium screenshot failed");
    let png = std::fs::read(&screenshot).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    assert_eq!(width, 420, "phone-width screenshot");
    Some((console, stdout(&out)))
}

#[test]
fn browser_check_detects_console_errors() {
    // The harness itself must be able to fail: a page that logs an error.
    let dir = temp_dir("bad-page");
    let page = dir.join("bad.html");
    std::fs::write(&page, "<!DOCTYPE html><html><body><script>console.error('boom')</script></body></html>").unwrap();
    if let Some((console, _)) = render_in_chromium(&page, &dir) {
        assert!(console.iter().any(|l| l.contains("boom")), "{console:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A short SPRT of the bundled engines.
const SPRT: &[&str] = &[
    "sprt",
    "--a",
    "fhr",
    "--b",
    "plain",
    "--elo0",
    "0",
    "--elo1",
    "200",
    "--max-games",
    "16",
    "--tc",
    "nodes=1500",
    "--quiet",
];

#[test]
fn sprt_run_report_agrees_across_formats_and_renders() {
    let dir = temp_dir("sprt");
    arena_ok(&dir, SPRT);
    let json: Value = serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--format", "json"]))).unwrap();
    validate_against_schema(&json);
    assert_eq!(json["version"], 1);
    assert_eq!(json["header"]["kind"], "sprt");
    let stats = &json["pairings"][0]["statistics"];
    let games = stats["games"].as_u64().unwrap();
    assert!((2..=16).contains(&games) && games.is_multiple_of(2), "{games}");
    assert_eq!(json["header"]["games_played"], games);
    let (w, d, l) =
        (stats["wins"].as_u64().unwrap(), stats["draws"].as_u64().unwrap(), stats["losses"].as_u64().unwrap());
    assert_eq!(w + d + l, games);
    // Per colour and per opening add up to the same games and points.
    let colours = &json["pairings"][0]["colours"];
    let by_colour: u64 = ["a_white", "a_black"]
        .iter()
        .map(|c| ["wins", "draws", "losses"].iter().map(|k| colours[c][k].as_u64().unwrap()).sum::<u64>())
        .sum();
    assert_eq!(by_colour, games);
    let openings = json["pairings"][0]["openings"].as_array().unwrap();
    assert_eq!(openings.len() as u64, games / 2);
    let points: f64 = openings.iter().map(|o| o["score"].as_f64().unwrap()).sum();
    assert_eq!(points, w as f64 + d as f64 / 2.0);
    let fhr = json["engines"].as_array().unwrap().iter().find(|e| e["name"] == "fhr").unwrap();
    assert_eq!(fhr["games"], games);
    assert_eq!(fhr["points"].as_f64().unwrap(), points);
    assert!(fhr["avg_depth"].as_f64().unwrap() > 1.0 && fhr["avg_nodes"].as_f64().unwrap() > 100.0);
    let ended: u64 = fhr["terminations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| ["won", "drawn", "lost"].iter().map(|k| t[k].as_u64().unwrap()).sum::<u64>())
        .sum();
    assert_eq!(ended, games);
    let lengths: u64 = json["lengths"].as_array().unwrap().iter().map(|b| b["games"].as_u64().unwrap()).sum();
    assert_eq!(lengths, games);
    let llr = json["pairings"][0]["llr_progress"].as_array().unwrap();
    assert_eq!(llr.len() as u64, games / 2, "one LLR per finished pair");
    let final_llr = stats["sprt"]["llr"].as_f64().unwrap();
    assert!((llr.last().unwrap()["llr"].as_f64().unwrap() - final_llr).abs() < 1e-9);

    // The same numbers in every format and in `arena show`.
    // The Elo as the views print it: the estimate, or where it is
    // unbounded (all won or lost) the text that says so.
    let estimate = &stats["estimate"];
    let elo = match estimate["elo"].as_f64() {
        // What rounds to zero prints +0.0 (an even score's Elo may be -1e-14).
        Some(elo) => format!("{elo:+.1}").replace("-0.0", "+0.0"),
        None => estimate["elo_text"].as_str().unwrap().split(" (").next().unwrap().to_string(),
    };
    let record = format!("+{w} ={d} -{l}");
    let llr_text = format!("LLR {final_llr:.2}");
    let text = stdout(&arena_ok(&dir, &["report", "1"]));
    let markdown = stdout(&arena_ok(&dir, &["report", "1", "--format", "markdown"]));
    arena_ok(&dir, &["report", "1", "-o", "report.html"]);
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let show = stdout(&arena_ok(&dir, &["show", "1"]));
    // HTML as a reader sees it: `<` of a one-sided bound is written `&lt;`.
    let html_text = html.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    for (format, rendered) in [("text", &text), ("markdown", &markdown), ("html", &html_text), ("show", &show)] {
        for needle in [&elo, &record, &llr_text] {
            assert!(rendered.contains(needle.as_str()), "{format} lacks '{needle}':\n{rendered}");
        }
    }
    assert!(markdown.contains("| Colour | Won | Drawn | Lost | Score |"));
    // Self-contained: no script, no external resource.
    assert!(!html.contains("<script") && !html.contains("src=") && !html.contains("href="));
    assert_eq!(html.matches("http").count(), html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count());
    // The Elo curve leaves out one-sided points; with none left there is no Elo plot.
    let elo_plot = usize::from(!json["pairings"][0]["elo_progress"].as_array().unwrap().is_empty());
    assert_eq!(html.matches("<svg").count(), 2 + elo_plot, "Elo, LLR and game-length plots");

    if let Some((console, dom)) = render_in_chromium(&dir.join("report.html"), &dir) {
        assert!(console.is_empty(), "console messages: {console:?}");
        assert_eq!(dom.matches("<svg").count(), 2 + elo_plot, "plots in the rendered DOM");
        assert_eq!(dom.matches("<polyline").count(), 1 + elo_plot, "Elo and LLR lines");
        assert!(dom.contains("class=\"bar\""), "game-length bars");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tournament_report_has_crosstable_and_anchored_ratings() {
    let dir = temp_dir("tournament");
    std::fs::write(dir.join("two.txt"), "e4 e5\nd4 d5\n").unwrap();
    arena_ok(
        &dir,
        &["tournament", "--engines", "plain,nmp2,fhr", "--openings", "two.txt", "--tc", "nodes=600", "--quiet"],
    );
    let json: Value =
        serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "1", "--format", "json", "--anchor", "nmp2"])))
            .unwrap();
    validate_against_schema(&json);
    let t = &json["tournament"];
    assert_eq!(t["anchor"], "nmp2");
    let engines: Vec<&str> = t["engines"].as_array().unwrap().iter().map(|e| e.as_str().unwrap()).collect();
    assert_eq!(engines, ["plain", "nmp2", "fhr"]);
    for i in 0..3 {
        assert!(t["crosstable"][i][i].is_null());
        for j in 0..3 {
            if i != j {
                let (x, y) = (&t["crosstable"][i][j], &t["crosstable"][j][i]);
                assert_eq!(x["games"], 4);
                assert_eq!(x["points"].as_f64().unwrap() + y["points"].as_f64().unwrap(), 4.0);
            }
        }
    }
    let ratings = t["ratings"].as_array().unwrap();
    let anchor = ratings.iter().find(|r| r["name"] == "nmp2").unwrap();
    assert_eq!(anchor["elo"], 0.0);
    for r in ratings {
        let (elo, ci) = (r["elo"].as_f64().unwrap(), &r["elo_ci95"]);
        assert!(ci[0].as_f64().unwrap() <= elo && elo <= ci[1].as_f64().unwrap(), "{r}");
        assert_eq!(r["games"], 8);
    }
    let text = stdout(&arena_ok(&dir, &["report", "1", "--anchor", "nmp2"]));
    assert!(text.contains("Crosstable") && text.contains("relative to nmp2"), "{text}");
    let show = stdout(&arena_ok(&dir, &["show", "1"]));
    assert!(show.contains("Bradley–Terry") && show.contains("relative to plain"), "{show}");
    // The short view's ratings are the full report's, line for line.
    let ratings =
        |text: &str| text.split("Ratings\n").nth(1).map(|rest| rest.lines().take(7).collect::<Vec<_>>().join("\n"));
    let full = stdout(&arena_ok(&dir, &["report", "1"]));
    assert_eq!(ratings(&show), ratings(&full), "show: {show}\nreport: {full}");
    assert!(ratings(&show).is_some_and(|r| !r.contains("unrated")), "{show}");

    // --games sizes a tournament; an engine's options are named once in the header.
    std::fs::write(
        dir.join("engines.toml"),
        "[[engine]]\nname = \"big\"\npreset = \"plain\"\noptions = { Hash = 32 }\n",
    )
    .unwrap();
    let play = ["tournament", "--engines", "plain,nmp2,big", "--games", "2", "--tc", "nodes=300", "--quiet"];
    arena_ok(&dir, &play);
    let json: Value = serde_json::from_str(&stdout(&arena_ok(&dir, &["report", "2", "--format", "json"]))).unwrap();
    assert_eq!(json["header"]["games_played"], 6, "one opening per pairing, both colours");
    let show = stdout(&arena_ok(&dir, &["show", "2"]));
    let line = show.lines().find(|l| l.starts_with("engine big:")).unwrap_or_default();
    assert_eq!(line, "engine big: bundled engine, preset plain, options Hash=32", "{show}");

    let bad = Command::new(ARENA).args(["report", "1", "--anchor", "nobody"]).current_dir(&dir).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("no engine 'nobody'") && err.contains("plain, nmp2, fhr"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run's report drawn from its pairs counted by block (how a run of more
/// than `PAIRS_READ_UP_TO` finished pairs is reported) says what the report
/// from every pair says, and lists its openings as partial.
#[test]
fn a_large_runs_report_from_its_blocks_agrees_with_the_one_from_its_pairs() {
    use arena::reporting::{Ask, Detail, Format, RunReport, report_of};
    let dir = temp_dir("large-report");
    arena_ok(&dir, SPRT);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (whole, blocks) = runtime.block_on(async {
        let db = db::Db::open(&db::Target::Sqlite(dir.join("arena.db"))).await.unwrap();
        let ask = |up_to| Ask { detail: Detail::Full, pairs_read_up_to: up_to, ..Ask::default() };
        let whole = report_of(&db, 1, ask(None)).await.unwrap();
        let blocks = report_of(&db, 1, ask(Some(0))).await.unwrap();
        (whole, blocks)
    });
    let text = blocks.render(Format::Text);
    let (RunReport::Games(whole, _), RunReport::Games(blocks, _)) = (whole, blocks) else { panic!("not a match") };
    let (x, y) = (&whole.pairings[0], &blocks.pairings[0]);
    assert_eq!(x.statistics, y.statistics);
    assert_eq!(x.openings, y.openings);
    assert_eq!((x.openings_of, y.openings_of), (None, Some(x.openings.len() as u64)));
    // Fewer than 256 pairs: one block, whose point is the curves' last. A
    // one-sided sample (an SPRT stopped after a few pairs, none lost) has no
    // point: then the block has none either, and the pairs' curve ends earlier.
    let games = 2 * x.openings.len() as u64;
    match x.elo_progress.last() {
        Some(last) if last.games == games => assert_eq!(y.elo_progress.last(), Some(last)),
        _ => assert!(y.elo_progress.is_empty(), "{:?} against {:?}", y.elo_progress, x.elo_progress),
    }
    assert_eq!(y.llr_progress.len(), 1);
    assert_eq!(y.llr_progress.last(), x.llr_progress.last());
    assert!(text.contains(&format!("Listed: the first {0} of {0} pairs in plan order.", x.openings.len())), "{text}");
}

/// `arena stats` and `arena sprt-calc` state an SPRT in its model's unit:
/// a verdict claims what the test's error rates bound, and the plan's
/// column of true values is in nElo for the normalized model.
#[test]
fn stats_and_sprt_calc_state_an_sprt_in_its_models_unit() {
    let dir = temp_dir("sprt-units");
    let out = |args: &[&str]| stdout(&arena_ok(&dir, args));
    let passed = out(&["stats", "--wdl", "900,300,300", "--elo0", "0", "--elo1", "5"]);
    assert!(passed.contains("verdict: SPRT accepted H1: A is stronger than B (LLR "), "{passed}");
    let failed = out(&["stats", "--wdl", "300,300,900", "--elo0", "-3", "--elo1", "1", "--model", "logistic"]);
    assert!(failed.contains("verdict: SPRT accepted H0: A gains less than 1 Elo over B (LLR "), "{failed}");
    let plan = |model: &str| out(&["sprt-calc", "--elo0", "0", "--elo1", "5", "--model", model]);
    assert_eq!(
        plan("normalized").lines().nth(1).map(str::split_whitespace).map(|w| w.take(2).collect::<Vec<_>>()),
        Some(vec!["true", "nElo"])
    );
    assert_eq!(
        plan("logistic").lines().nth(1).map(str::split_whitespace).map(|w| w.take(2).collect::<Vec<_>>()),
        Some(vec!["true", "Elo"])
    );
}

/// What a report is asked for and cannot give is one line, and no file: an
/// output name whose extension is no format arena writes (`.pdf`), one
/// that disagrees with `--format`, an anchor for a run without ratings.
#[test]
fn a_report_asked_for_what_it_cannot_be_is_one_line() {
    let dir = temp_dir("report-refusals");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v2.db"), dir.join("arena.db")).unwrap();
    for (args, needle) in [
        (&["report", "1", "-o", "r.pdf"][..], "not .pdf: name the file .txt, .md, .html or .json, or give --format"),
        (&["report", "1", "-o", "r.json", "--format", "html"][..], "--format html and a file named .json disagree"),
        (&["report", "1", "--anchor", "fhr"][..], "run 1 (elo) rates A against B, no anchor needed"),
    ] {
        let out = Command::new(ARENA).args(args).current_dir(&dir).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(needle), "{args:?}: {stderr}");
    }
    assert!(!dir.join("r.pdf").exists() && !dir.join("r.json").exists());
    // What it can be: a tournament's anchor, a named text file, a format given for any name.
    assert!(stdout(&arena_ok(&dir, &["report", "2", "--anchor", "fhr"])).contains("tournament"));
    arena_ok(&dir, &["report", "1", "-o", "r.txt"]);
    arena_ok(&dir, &["report", "1", "-o", "r.out", "--format", "json"]);
    let json: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("r.out")).unwrap()).unwrap();
    assert_eq!(json["header"]["run"], 1);
    let _ = std::fs::remove_dir_all(&dir);
}
