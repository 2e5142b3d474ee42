//! Every view of a run says the same thing. For each kind of run (match,
//! elo, sprt, tournament, gauntlet, tune, suite, Chess960, a perfect
//! score, and scale), the numbers of the JSON report — games, W-D-L, pentanomial, Elo
//! and its interval (or its one-sided bound), LLR, ratings, θ, suite rows —
//! appear as the same text in the summary printed after the run, `arena
//! show`, `arena report` as text, markdown and HTML, the dashboard's run page
//! and runs list, `arena runs`, and the same numbers in `/api/runs` and
//! `/api/runs/N`.

use crate::common::{FAKE, arena, arena_ok, http, start_serve, stdout, temp_dir, unescape};

use serde_json::Value;

fn get(address: std::net::SocketAddr, path: &str) -> String {
    let (status, body) = http(address, "GET", path, &[], "");
    assert_eq!(status, 200, "{path}: {body}");
    body
}

/// A number as every view prints it: signed, one decimal, and `+0.0` for
/// whatever rounds to zero, never `-0.0`.
fn signed(x: f64) -> String {
    let text = format!("{x:+.1}");
    if text == "-0.0" { "+0.0".into() } else { text }
}

/// An interval's end as every view prints it: as [`signed`], but an end
/// near zero and not zero keeps its sign, with the fewest decimals that
/// show a digit other than zero.
fn interval_end(x: f64) -> String {
    let text = signed(x);
    if text != "+0.0" || x.abs() < 1e-6 {
        return text;
    }
    (2..=6)
        .map(|decimals| format!("{x:+.decimals$}"))
        .find(|t| t.chars().any(|c| ('1'..='9').contains(&c)))
        .unwrap_or(text)
}

/// The texts every full view (the summary, show, the report in every
/// format, the run page) must contain, each with what it stands for.
fn facts(report: &Value) -> Vec<(String, String)> {
    let mut facts = Vec::new();
    let header = &report["header"];
    if let Some(played) = header["games_played"].as_u64() {
        facts.push(("games".into(), format!("games {played} of {}", header["games_planned"])));
    }
    for pairing in report["pairings"].as_array().into_iter().flatten() {
        let stats = &pairing["statistics"];
        let name = format!("{} vs {}", pairing["a"].as_str().unwrap(), pairing["b"].as_str().unwrap());
        let (w, d, l) = (&stats["wins"], &stats["draws"], &stats["losses"]);
        facts.push((format!("{name} W-D-L"), format!("+{w} ={d} -{l}")));
        let p = &stats["pentanomial"];
        facts
            .push((format!("{name} pairs"), format!("LL {} LD {} DD+WL {} WD {} WW {}", p[0], p[1], p[2], p[3], p[4])));
        let estimate = &stats["estimate"];
        let ends = [0, 1].map(|i| estimate["elo_ci95"][i].as_f64());
        match (estimate["elo"].as_f64(), ends) {
            (Some(elo), [Some(low), Some(high)]) => {
                facts.push((format!("{name} Elo"), signed(elo)));
                facts.push((format!("{name} interval"), format!("[{}, {}]", interval_end(low), interval_end(high))));
            }
            _ => facts.push((format!("{name} Elo"), estimate["elo_text"].as_str().unwrap().to_string())),
        }
        let sequential = &stats["sequential"];
        if let Some(elo) = sequential["elo"].as_f64() {
            let ends = [0, 1].map(|i| interval_end(sequential["elo_ci95"][i].as_f64().unwrap()));
            facts.push((format!("{name} Elo corrected for the stop"), signed(elo)));
            facts.push((format!("{name} its interval"), format!("[{}, {}]", ends[0], ends[1])));
        }
        if let Some(p) = estimate["p_value"].as_f64() {
            facts.push((format!("{name} p"), format!("p {}", reports::stats::p_value(p))));
        }
        // The JSON's verdict names the engines A and B, the views by name.
        let (a, b) = (pairing["a"].as_str().unwrap(), pairing["b"].as_str().unwrap());
        let verdict = stats["verdict"].as_str().unwrap();
        let named = [
            ("A is ", format!("{a} is ")),
            ("B is ", format!("{b} is ")),
            ("than B", format!("than {b}")),
            ("than A", format!("than {a}")),
            ("A gains ", format!("{a} gains ")),
            ("A loses ", format!("{a} loses ")),
            (" over B", format!(" over {b}")),
            (" to B", format!(" to {b}")),
        ]
        .iter()
        .fold(verdict.to_string(), |v, (from, to)| v.replace(from, to));
        facts.push((format!("{name} verdict"), named));
        if let Some(llr) = stats["sprt"]["llr"].as_f64() {
            facts.push((format!("{name} LLR"), format!("LLR {llr:.2}")));
        }
    }
    // A family's table: each candidate's state (and its place among the
    // decisions), and the family's verdict.
    for candidate in report["family"]["candidates"].as_array().into_iter().flatten() {
        let name = candidate["candidate"].as_str().unwrap();
        let state = candidate["state"].as_str().unwrap();
        let shown = match candidate["decided"].as_u64() {
            Some(n) => format!("{state} (decision {n})"),
            None => state.to_string(),
        };
        facts.push((format!("{name}'s state in the family"), shown));
        facts.push((format!("{name}'s Elo in the family"), candidate["elo"].as_str().unwrap().to_string()));
    }
    if let Some(verdict) = report["family"]["verdict"].as_str() {
        let words = match verdict {
            "H1" => "family: a candidate accepted H1",
            "H0" => "family: every candidate accepted H0",
            _ => "family: inconclusive",
        };
        facts.push(("the family's verdict".into(), words.to_string()));
    }
    if let Some(ratings) = report["tournament"]["ratings"].as_array() {
        for rating in ratings {
            let engine = rating["name"].as_str().unwrap();
            if let Some(elo) = rating["elo"].as_f64() {
                facts.push((format!("rating of {engine}"), signed(elo)));
            }
            if let Some(ci) = rating["elo_ci95"].as_array() {
                let (low, high) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
                facts.push((
                    format!("interval of {engine}"),
                    format!("[{}, {}]", interval_end(low), interval_end(high)),
                ));
            }
        }
    }
    if let Some(tune) = report["tune"].as_object() {
        facts.push((
            "iterations".into(),
            format!("{} of {} iterations", tune["iterations_played"], tune["iterations_planned"]),
        ));
        for param in tune["params"].as_array().unwrap() {
            facts.push((format!("θ of {}", param["name"]), param["option_value"].as_str().unwrap().to_string()));
        }
    }
    if let Some(verdict) = report["scale"]["verdict"].as_str() {
        facts.push(("the scaling trend".into(), verdict.to_string()));
        for point in report["scale"]["points"].as_array().unwrap() {
            facts.push((format!("Elo at {}", point["budget"]), point["elo_text"].as_str().unwrap().to_string()));
        }
    }
    for row in report["rows"].as_array().into_iter().flatten() {
        let what = format!("{} at {}", row["engine"], row["limit"]);
        facts.push((format!("{what} solved"), format!("{}/{}", row["solved"], row["answered"])));
    }
    facts
}

/// What the runs list shows of a run: the first pairing's W-D-L, its Elo
/// as the views print it, and the LLR, or a scaling run's budgets and
/// trend; and the same numbers in `/api/runs`.
fn row_facts(report: &Value, row: &Value) -> Vec<(String, String)> {
    let mut facts = Vec::new();
    let header = &report["header"];
    if let Some(played) = header["games_played"].as_u64() {
        assert_eq!(row["done"].as_u64(), Some(played), "/api/runs games: {row}");
        assert_eq!(row["planned"], header["games_planned"], "/api/runs planned: {row}");
        facts.push(("games".into(), format!("{played}/{}", header["games_planned"])));
    }
    if let Some(scale) = report["scale"].as_object() {
        let budgets: Vec<&str> =
            scale["points"].as_array().unwrap().iter().map(|p| p["budget"].as_str().unwrap()).collect();
        assert_eq!(row["time_control"].as_str(), Some(budgets.join(", ").as_str()), "/api/runs budgets: {row}");
        assert!(row["wdl"].is_null() && row["elo"].is_null(), "a scaling run's row has its trend only: {row}");
        let trend = &scale["trend"];
        assert_eq!(row["trend"], *trend, "/api/runs trend: {row}");
        facts.push(("budgets".into(), budgets.join(", ")));
        if trend.is_null() {
            return facts;
        }
        let [slope, low, high] =
            [&trend["slope"], &trend["slope_ci95"][0], &trend["slope_ci95"][1]].map(|v| v.as_f64().unwrap());
        facts.push((
            "trend".into(),
            format!("{} per doubling [{}, {}]", signed(slope), interval_end(low), interval_end(high)),
        ));
        return facts;
    }
    let Some(first) = report["pairings"].as_array().and_then(|p| p.first()) else { return facts };
    if let Some(engines) = report["tournament"]["engines"].as_array() {
        // A tournament's row is the tournament: its pairings and leader, not
        // its first pairing.
        let pairings = report["pairings"].as_array().unwrap().len();
        assert!(row["wdl"].is_null() && row["elo"].is_null(), "a tournament's row: {row}");
        let text = row["elo_text"].as_str().unwrap();
        assert!(text.starts_with(&format!("{pairings} pairings, leader ")), "{row}");
        let leader = text.split("leader ").nth(1).unwrap().split(' ').next().unwrap();
        assert!(engines.iter().any(|e| e == leader), "{row}");
        facts.push(("tournament".into(), text.to_string()));
        return facts;
    }
    if let Some(candidates) = report["family"]["candidates"].as_array() {
        // A family's row is the family: each candidate's state, with the
        // corrected Elo of those stopped by the rule, and its verdict.
        assert!(row["wdl"].is_null() && row["llr"].is_null(), "a family's row: {row}");
        let text = row["elo_text"].as_str().unwrap();
        assert!(text.starts_with(&format!("{} candidates: ", candidates.len())), "{row}");
        for (candidate, pairing) in candidates.iter().zip(report["pairings"].as_array().unwrap()) {
            let name = candidate["candidate"].as_str().unwrap();
            let state = candidate["state"].as_str().unwrap();
            let sequential = &pairing["statistics"]["sequential"];
            let words = match sequential["elo"].as_f64() {
                Some(elo) => {
                    let ends = [0, 1].map(|i| interval_end(sequential["elo_ci95"][i].as_f64().unwrap()));
                    format!("{name} {state} {} [{}, {}] (SPRT-corrected)", signed(elo), ends[0], ends[1])
                }
                None => format!("{name} {state}"),
            };
            assert!(text.contains(&words), "the runs list says '{words}': {row}");
            facts.push((format!("{name} in the list"), words));
        }
        assert_eq!(row["verdict"], report["family"]["verdict"], "{row}");
        return facts;
    }
    let stats = &first["statistics"];
    let wdl = [&stats["wins"], &stats["draws"], &stats["losses"]];
    assert_eq!(row["wdl"].as_array().unwrap().iter().collect::<Vec<_>>(), wdl, "/api/runs W-D-L: {row}");
    facts.push(("W-D-L".into(), format!("{}-{}-{}", wdl[0], wdl[1], wdl[2])));
    let estimate = &stats["estimate"];
    let sequential = &stats["sequential"];
    if sequential.is_object() {
        // A stopped SPRT's row leads with the estimate corrected for the stop.
        assert_eq!(row["elo"][0], sequential["elo"], "/api/runs Elo: {row}");
        let ends = [0, 1].map(|i| interval_end(sequential["elo_ci95"][i].as_f64().unwrap()));
        let text =
            format!("{} [{}, {}] (SPRT-corrected)", signed(sequential["elo"].as_f64().unwrap()), ends[0], ends[1]);
        assert_eq!(row["elo_text"].as_str(), Some(text.as_str()), "/api/runs Elo text: {row}");
        facts.push(("Elo".into(), text));
    } else {
        if estimate["elo_ci95"][0].is_number() && estimate["elo_ci95"][1].is_number() {
            assert_eq!(row["elo"][0], estimate["elo"], "/api/runs Elo: {row}");
        } else {
            assert!(row["elo"].is_null(), "/api/runs Elo without a two-sided interval: {row}");
        }
        assert_eq!(row["elo_text"], estimate["elo_text"], "/api/runs Elo text: {row}");
        facts.push(("Elo".into(), estimate["elo_text"].as_str().unwrap().to_string()));
    }
    if report["header"]["status"] == "finished" && stats["sprt"].is_null() && report["header"]["kind"] != "tune" {
        assert!(row["verdict"].is_string(), "a finished run's verdict: {row}");
    }
    if let Some(llr) = stats["sprt"]["llr"].as_f64() {
        assert_eq!(row["llr"][0].as_f64(), Some(llr), "/api/runs LLR: {row}");
        facts.push(("LLR".into(), format!("{llr:.2}")));
    }
    facts
}

/// Checks that every view of run `run` in `dir` (served at `address`;
/// `summary` printed after it) shows the numbers of its JSON report.
pub fn assert_views_agree(dir: &std::path::Path, address: std::net::SocketAddr, run: usize, summary: &str) {
    let run = run.to_string();
    let json: Value = serde_json::from_str(&stdout(&arena_ok(dir, &["report", &run, "--format", "json"]))).unwrap();
    let facts = facts(&json);
    assert!(facts.len() >= 2, "run {run}: {facts:?}");
    let html_file = format!("report-{run}.html");
    arena_ok(dir, &["report", &run, "-o", &html_file]);
    let views = [
        ("the summary after the run", summary.to_string()),
        ("show", stdout(&arena_ok(dir, &["show", &run]))),
        ("report", stdout(&arena_ok(dir, &["report", &run]))),
        ("report --format markdown", stdout(&arena_ok(dir, &["report", &run, "--format", "markdown"]))),
        ("report --format html", unescape(&std::fs::read_to_string(dir.join(&html_file)).unwrap())),
        ("the run page", unescape(&get(address, &format!("/runs/{run}")))),
    ];
    let estimate = &json["pairings"][0]["statistics"]["estimate"];
    let one_sided = estimate["elo_ci95"].as_array().is_some_and(|ends| ends.iter().any(Value::is_null));
    let decided = !estimate["elo_ci95"].is_null();
    for (view, text) in &views {
        assert_shows(&format!("run {run}: {view}"), text, &facts);
        if estimate.is_object() && json["header"]["kind"] != "scale" {
            assert_one_story(&format!("run {run}: {view}"), text, decided, one_sided);
        }
    }
    let api_run: Value = serde_json::from_str(&get(address, &format!("/api/runs/{run}"))).unwrap();
    assert_eq!(api_run, json, "run {run}: /api/runs/{run} is the JSON report");
    let api_runs: Value = serde_json::from_str(&get(address, "/api/runs")).unwrap();
    let row = api_runs
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"].as_u64().map(|id| id.to_string()) == Some(run.clone()))
        .unwrap();
    let runs_page = unescape(&get(address, "/"));
    let row_text = runs_page
        .lines()
        .find(|l| l.contains(&format!("<a href=\"/runs/{run}\">")))
        .unwrap_or_else(|| panic!("run {run} is not in the runs list"));
    let row_facts = row_facts(&json, row);
    assert_shows(&format!("run {run}: the runs list"), row_text, &row_facts);
    // `arena runs` prints the same row, less the time control (a scaling
    // run's budgets).
    let runs = stdout(&arena_ok(dir, &["runs"]));
    let line = runs.lines().find(|l| l.split_whitespace().next() == Some(run.as_str())).unwrap_or_default();
    let listed: Vec<(String, String)> = row_facts.into_iter().filter(|(what, _)| what != "budgets").collect();
    assert_shows(&format!("run {run}: arena runs"), line, &listed);
}

/// One statistical story in a text view of a run (its first pairing):
/// one p-value, the verdict's equal to the LOS line's, and significant
/// exactly when the interval excludes zero; no p and no count of games
/// to play where the sample is too small to decide or has an unbounded
/// end; an interval with one end explained where it is printed.
fn assert_one_story(view: &str, text: &str, decided: bool, one_sided: bool) {
    assert!(!text.contains(", exact ") && !text.contains("exact sign test"), "{view}: two p-values:\n{text}");
    let los = text.lines().find_map(|l| l.trim_start().strip_prefix("LOS ")).map(|l| l.split_once("   p ").unwrap().1);
    let verdict = text.lines().find_map(|l| l.split_once("verdict: ").map(|v| v.1)).unwrap_or_default();
    if let (Some(los), Some((_, p))) = (los, verdict.split_once("(p ")) {
        let number =
            |s: &str| s.trim_start_matches("= ").chars().take_while(|c| *c != ')' && *c != ' ').collect::<String>();
        assert_eq!(number(los), number(p), "{view}: the verdict's p is the LOS line's:\n{text}");
    }
    if !decided {
        assert!(verdict.starts_with("too few ") || verdict.starts_with("SPRT"), "{view}: {verdict}");
        assert!(los.is_none_or(|l| l.starts_with('-')), "{view}: a p-value from too few:\n{text}");
    }
    if let Some(elo) =
        text.lines().find(|l| l.trim_start().starts_with("Elo (pairs)") || l.trim_start().starts_with("Elo (games)"))
        && let Some((_, range)) = elo.split_once('[')
    {
        let ends: Vec<f64> = range.trim_end_matches(']').split(", ").map(|e| e.parse().unwrap()).collect();
        let clear = ends[0] > 0.0 || ends[1] < 0.0;
        assert_eq!(clear, verdict.contains("at 5 % significance"), "{view}: interval and verdict:\n{text}");
    }
    if !decided || one_sided {
        assert!(!text.contains("more games to resolve"), "{view}: a count of games from too few:\n{text}");
    }
    if one_sided {
        assert!(text.contains("the end of the 95 % interval that exists"), "{view}: a bound without its note:\n{text}");
    }
}

fn assert_shows(view: &str, text: &str, facts: &[(String, String)]) {
    for (what, needle) in facts {
        assert!(text.contains(needle.as_str()), "{view} does not show {what} as '{needle}':\n{text}");
    }
}

#[test]
fn every_view_of_every_kind_of_run_shows_the_same_numbers() {
    let dir = temp_dir("views");
    std::fs::write(
        dir.join("engines.toml"),
        format!(
            "[[engine]]\nname = \"random\"\ncommand = \"{FAKE}\"\nargs = [\"instant\"]\n\n\
             [[engine]]\nname = \"fhr-copy\"\npreset = \"fhr\"\n"
        ),
    )
    .unwrap();
    // Fast settings for every run; a suite has its own limits and a scaling
    // run's budgets are its time controls.
    let fast = ["--tc", "nodes=300", "--quiet"];
    let runs: Vec<Vec<&str>> = vec![
        vec!["match", "--a", "fhr", "--b", "plain", "--games", "4"],
        vec!["elo", "--a", "nmp2", "--b", "plain", "--games", "4"],
        vec!["sprt", "--a", "fhr", "--b", "plain", "--elo0", "0", "--elo1", "100", "--max-games", "6"],
        vec!["tournament", "--engines", "plain,nmp2,fhr", "--games", "2"],
        vec!["tournament", "--engines", "fhr,plain,nmp2", "--gauntlet", "fhr", "--games", "2"],
        vec!["tune", "--engine", "fhr", "--param", "FHRMargin=0..400", "--games", "4"],
        vec!["suite", "--engines", "plain,fhr", "--suite", "wac", "--depth", "2..3", "--count", "4", "--quiet"],
        vec!["match", "--a", "fhr", "--b", "plain", "--games", "2", "--openings", "frc"],
        // Every pair won (openings fixed by the seed: a shuffle could give a
        // drawn game).
        vec!["match", "--a", "fhr", "--b", "random", "--games", "40", "--seed", "1"],
        vec!["scale", "--a", "fhr", "--b", "plain", "--budgets", "nodes=150,nodes=300", "--games", "4"],
        // Small samples: one pair, and an even score (a preset against a
        // copy of itself: each pair's games mirror each other); and 20
        // pairs, enough for an interval: their openings fixed by the seed
        // (node limits play the same games), 13 pairs decisive.
        vec!["match", "--a", "fhr", "--b", "plain", "--games", "2"],
        vec!["match", "--a", "fhr", "--b", "plain", "--games", "40", "--seed", "3"],
        vec!["match", "--a", "fhr", "--b", "fhr-copy", "--games", "10"],
    ];
    let mut summaries = Vec::new();
    for args in &runs {
        let mut args = args.clone();
        match args[0] {
            "suite" => {}
            "scale" => args.push("--quiet"),
            _ => args.extend(fast),
        }
        summaries.push(stdout(&arena_ok(&dir, &args)));
    }
    let (mut server, address) = start_serve(&dir, &[]);
    for (index, summary) in summaries.iter().enumerate() {
        assert_views_agree(&dir, address, index + 1, summary);
    }
    // The runs list a page at a time, newest first, and filtered.
    let ids = |path: &str| -> Vec<i64> {
        let rows: Value = serde_json::from_str(&get(address, path)).unwrap();
        rows.as_array().unwrap().iter().map(|r| r["id"].as_i64().unwrap()).collect()
    };
    assert_eq!(ids("/api/runs?limit=4"), [13, 12, 11, 10]);
    assert_eq!(ids("/api/runs?limit=4&before=7"), [6, 5, 4, 3]);
    assert_eq!(ids("/api/runs?limit=4&before=3"), [2, 1]);
    assert_eq!(ids("/api/runs").len(), 13);
    assert_eq!(ids("/api/runs?engine=random"), [9]);
    assert_eq!(ids("/api/runs?engine=nmp2"), [5, 4, 2]);
    let fhr = ids("/api/runs?engine=fhr&status=finished");
    assert!(fhr.contains(&10) && fhr.contains(&9) && !fhr.contains(&2), "the scaling run's copies are fhr: {fhr:?}");
    assert!(ids("/api/runs?status=stopped").is_empty());
    let page = get(address, "/?limit=4&engine=fhr");
    assert!(page.contains("Older runs →") && page.contains("engine=fhr&amp;before="), "{page}");
    assert!(page.contains("data-src=\"/live/runs?engine=fhr&amp;limit=4\""), "the live part keeps the filter: {page}");
    for (path, line) in [
        ("/api/runs?status=bogus", "status 'bogus' is not one of running, stopped, finished"),
        ("/api/runs?limit=0", "limit '0' is not a positive number"),
        ("/?before=x", "before 'x' is not a positive number"),
    ] {
        let (status, body) = http(address, "GET", path, &[], "");
        assert!(status == 400 && unescape(&body).contains(line), "{path}: {status} {body}");
    }

    // The perfect score (20 pairs all won) has a lower end and no upper one
    // in every view, never the regularised thousands.
    let perfect: Value = serde_json::from_str(&get(address, "/api/runs/9")).unwrap();
    let text = perfect["pairings"][0]["statistics"]["estimate"]["elo_text"].as_str().unwrap();
    assert!(text.starts_with("> +") && text.ends_with("(all won)"), "{text}");
    // Twenty pairs of fhr against plain: an interval, and a verdict that agrees with it.
    let decided: Value = serde_json::from_str(&get(address, "/api/runs/12")).unwrap();
    assert!(decided["pairings"][0]["statistics"]["estimate"]["p_value"].is_number(), "{decided}");
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A family of candidates against one base (`arena sprt --base --dev
/// --dev --dev`): the candidates play side by side until each is decided
/// or its games run out, a decided candidate's pairs left are skipped, and
/// every view shows the family as one run with each candidate's state, read
/// under the level the sequential Holm procedure gave it.
#[test]
fn a_family_of_candidates_is_one_run_and_every_view_shows_each_state() {
    let dir = temp_dir("family");
    std::fs::write(
        dir.join("engines.toml"),
        format!("[[engine]]\nname = \"random\"\ncommand = \"{FAKE}\"\nargs = [\"instant\"]\n"),
    )
    .unwrap();
    let family = [
        "sprt",
        "--base",
        "nmp2",
        "--dev",
        "random",
        "--dev",
        "fhr",
        "--dev",
        "plain",
        "--elo0",
        "0",
        "--elo1",
        "200",
        "--model",
        "logistic",
        "--max-games",
        "40",
        "--tc",
        "nodes=300",
        "--quiet",
    ];
    let summary = stdout(&arena_ok(&dir, &family));
    let (mut server, address) = start_serve(&dir, &[]);
    assert_views_agree(&dir, address, 1, &summary);
    let json: Value = serde_json::from_str(&get(address, "/api/runs/1")).unwrap();
    assert_eq!(json["header"]["status"], "finished", "{json}");
    crate::common::validate_against_schema(&json);
    let section = &json["family"];
    assert_eq!(section["procedure"], "sequential Holm procedure (Bartroff & Song 2014)");
    let candidates = section["candidates"].as_array().unwrap();
    let names: Vec<&str> = candidates.iter().map(|c| c["candidate"].as_str().unwrap()).collect();
    assert_eq!(names, ["random", "fhr", "plain"]);
    // A random mover loses every game: H0 first, at Bonferroni's β/3, after
    // fewer games than the cap (its pairs left skipped).
    let random = &candidates[0];
    assert_eq!((random["state"].as_str(), random["decided"].as_u64()), (Some("H0"), Some(1)), "{random}");
    assert!((random["beta"].as_f64().unwrap() - 0.05 / 3.0).abs() < 1e-12, "{random}");
    assert!(random["games"].as_u64().unwrap() < 40, "{random}");
    // Every candidate ended: decided, or its 40 games played.
    let decided: Vec<u64> = candidates.iter().filter_map(|c| c["decided"].as_u64()).collect();
    for c in candidates {
        let state = c["state"].as_str().unwrap();
        assert!(["H0", "H1"].contains(&state) || (state == "inconclusive" && c["games"] == 40), "{c}");
        // Each decision's level: α/(k − r), β/(k − a) with the decisions before it.
        if let Some(n) = c["decided"].as_u64() {
            let before = |verdict: &str| {
                candidates
                    .iter()
                    .filter(|o| o["state"] == verdict && o["decided"].as_u64().is_some_and(|m| m < n))
                    .count()
            };
            let (h1, h0) = (before("H1"), before("H0"));
            assert!((c["alpha"].as_f64().unwrap() - 0.05 / (3 - h1) as f64).abs() < 1e-12, "{c}");
            assert!((c["beta"].as_f64().unwrap() - 0.05 / (3 - h0) as f64).abs() < 1e-12, "{c}");
        }
    }
    assert_eq!(decided.len(), candidates.iter().filter(|c| c["state"] != "inconclusive").count());
    let verdict = match () {
        () if candidates.iter().any(|c| c["state"] == "H1") => "H1",
        () if candidates.iter().all(|c| c["state"] == "H0") => "H0",
        () => "inconclusive",
    };
    assert_eq!(section["verdict"], verdict, "{section}");
    let rows: Value = serde_json::from_str(&get(address, "/api/runs")).unwrap();
    assert_eq!(rows[0]["verdict"], verdict, "the runs list's verdict is the family's: {rows}");
    let _ = server.kill();
    let _ = server.wait();

    // A stored verdict this arena does not know is refused, naming the
    // candidate, never read as a decision.
    let db = dir.join("arena.db");
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let sql = "UPDATE run_verdicts SET verdict = 'exploded' WHERE engine_a = 'random'";
    runtime.block_on(crate::strict::execute(&db::Target::Sqlite(db), sql));
    let refused = arena(&dir, &["show", "1"]);
    let err = String::from_utf8_lossy(&refused.stderr).to_string();
    assert!(!refused.status.success(), "{err}");
    assert!(err.contains("run 1 candidate random") && err.contains("exploded"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
