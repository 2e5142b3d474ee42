//! Every view of a run says the same thing. For each kind of run (match,
//! elo, sprt, tournament, gauntlet, tune, suite, Chess960, a perfect
//! score, and scale), the numbers of the JSON report — games, W-D-L, pentanomial, Elo
//! and its interval (or its one-sided bound), LLR, ratings, θ, suite rows —
//! appear as the same text in the summary printed after the run, `arena
//! show`, `arena report` as text, markdown and HTML, the dashboard's run page
//! and runs list, `arena runs`, and the same numbers in `/api/runs` and
//! `/api/runs/N`.

use crate::common::{FAKE, arena_ok, http, start_serve, stdout, temp_dir, unescape};

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
        let estimate = &stats["pentanomial_estimate"];
        if estimate["elo_limit"].is_null() {
            let elo = estimate["elo"].as_f64().unwrap();
            let [low, high] = [0, 1].map(|i| estimate["elo_ci95"][i].as_f64().unwrap());
            facts.push((format!("{name} Elo"), signed(elo)));
            facts.push((format!("{name} interval"), format!("[{}, {}]", interval_end(low), interval_end(high))));
        } else {
            facts.push((format!("{name} Elo bound"), estimate["elo_text"].as_str().unwrap().to_string()));
        }
        if let Some(llr) = stats["sprt"]["llr"].as_f64() {
            facts.push((format!("{name} LLR"), format!("LLR {llr:.2}")));
        }
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
    let stats = &first["statistics"];
    let wdl = [&stats["wins"], &stats["draws"], &stats["losses"]];
    assert_eq!(row["wdl"].as_array().unwrap().iter().collect::<Vec<_>>(), wdl, "/api/runs W-D-L: {row}");
    facts.push(("W-D-L".into(), format!("{}-{}-{}", wdl[0], wdl[1], wdl[2])));
    let estimate = &stats["pentanomial_estimate"];
    assert_eq!(row["elo"][0], estimate["elo"], "/api/runs Elo: {row}");
    assert_eq!(row["elo_text"], estimate["elo_text"], "/api/runs Elo text: {row}");
    facts.push(("Elo".into(), estimate["elo_text"].as_str().unwrap().to_string()));
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
    let statistics = &json["pairings"][0]["statistics"];
    let games = statistics["games"].as_u64().unwrap_or(0);
    let one_sided = ["trinomial_estimate", "pentanomial_estimate"]
        .iter()
        .any(|key| !statistics[key]["elo_limit"].is_null() && statistics[key].is_object());
    for (view, text) in &views {
        assert_shows(&format!("run {run}: {view}"), text, &facts);
        if json["header"]["kind"] != "suite" && json["header"]["kind"] != "scale" {
            assert_one_story(&format!("run {run}: {view}"), text, games, one_sided);
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

/// One statistical story in a text view of a run of `games` games (the
/// first pairing): one p-value per line of evidence, the verdict's equal to
/// the LOS line's; no count of games to play below 10 games or on a
/// one-sided sample; a one-sided bound explained where it is printed.
fn assert_one_story(view: &str, text: &str, games: u64, one_sided: bool) {
    assert!(!text.contains(", exact "), "{view}: two p-values on one line:\n{text}");
    let los = text.lines().find_map(|l| l.trim_start().strip_prefix("LOS ")).map(|l| l.split_once("   p ").unwrap().1);
    let verdict = text.lines().find_map(|l| l.split_once("verdict: not significant (p = ").map(|v| v.1));
    if let (Some(los), Some(verdict)) = (los, verdict) {
        let number = |s: &str| s.chars().take_while(|c| c.is_ascii_digit() || *c == '.').collect::<String>();
        assert_eq!(number(los), number(verdict), "{view}: the verdict's p is the LOS line's:\n{text}");
        assert_eq!(los.contains("(exact sign test)"), games < 200, "{view}: {los}");
    }
    if games < 10 || one_sided {
        assert!(!text.contains("more games to resolve"), "{view}: a count of games from too few:\n{text}");
    }
    if one_sided {
        assert!(text.contains("one-sided 95 % bound (Wilson's)"), "{view}: a bound without its note:\n{text}");
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
        vec!["match", "--a", "fhr", "--b", "random", "--games", "6"],
        vec!["scale", "--a", "fhr", "--b", "plain", "--budgets", "nodes=150,nodes=300", "--games", "4"],
        // Small samples: one pair, five pairs, and an even score (a preset
        // against a copy of itself: each pair's games mirror each other).
        vec!["match", "--a", "fhr", "--b", "plain", "--games", "2"],
        vec!["match", "--a", "fhr", "--b", "plain", "--games", "10"],
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

    // The perfect score is a bound in every view, never the regularised thousands.
    let perfect: Value = serde_json::from_str(&get(address, "/api/runs/9")).unwrap();
    let text = perfect["pairings"][0]["statistics"]["pentanomial_estimate"]["elo_text"].as_str().unwrap();
    assert!(text.starts_with("> +") && text.ends_with(')'), "{text}");
    let _ = server.kill();
    let _ = server.wait();
    let _ = std::fs::remove_dir_all(&dir);
}
