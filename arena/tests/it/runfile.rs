//! A run as one file: `arena show RUN --config` writes a stored run as a
//! run file, and `arena run FILE.toml` started from it plans the same games
//! with the same settings — for every kind of run of games; bad files are
//! one line and store nothing.

use std::path::Path;

use crate::common::{FAKE, arena_ok, assert_refused, stdout, temp_dir};
use sqlx::Row;

/// The stored spec (options sorted: a TOML table has no order) and the plan of run 1.
async fn stored(db: &Path) -> (serde_json::Value, Vec<String>) {
    let target = db::Target::Sqlite(db.to_path_buf());
    let handle = db::Db::open(&target).await.unwrap();
    let info = handle.run(1).await.unwrap();
    handle.close().await;
    let mut spec: serde_json::Value = serde_json::from_str(&info.spec).unwrap();
    for engine in spec["engines"].as_array_mut().unwrap() {
        let options = engine["options"].as_array_mut().unwrap();
        options.sort_by_key(|o| o[0].as_str().unwrap().to_string());
    }
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(db);
    let mut connection = sqlx::ConnectOptions::connect(&options).await.unwrap();
    let rows =
        sqlx::query("SELECT idx, engine_a, engine_b, fen, opening_moves FROM pairs WHERE run_id = 1 ORDER BY idx")
            .fetch_all(&mut connection)
            .await
            .unwrap();
    let plan = rows
        .iter()
        .map(|r| {
            let (i, a, b, f, m): (i64, String, String, String, String) =
                (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4));
            format!("{i} {a} {b} {f} {m}")
        })
        .collect();
    (spec, plan)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn show_config_then_run_plans_the_same_run() {
    let dir = temp_dir("runfile");
    let toml = format!(
        "[[engine]]\nname = \"quick\"\ncommand = \"{FAKE}\"\nargs = [\"instant\"]\ntc = \"nodes=10\"\noptions = {{ Hash = 32 }}\n\
         [[engine]]\nname = \"tunable\"\ncommand = \"{FAKE}\"\nargs = [\"tunable\", \"500\"]\n"
    );
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    let tb = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/syzygy");
    let tb = tb.to_str().unwrap();
    let runs: Vec<Vec<&str>> = vec![
        vec![
            "sprt",
            "--a",
            "fhr",
            "--b",
            "quick",
            "--max-games",
            "60",
            "--elo0",
            "-1",
            "--elo1",
            "7.5",
            "--model",
            "logistic",
            "--openings",
            "noob_2moves",
            "--seed",
            "9",
            "--tb",
            tb,
            "--tb-pieces",
            "3",
            "--tb-adjudicate",
            "win",
            "--draw",
            "off",
        ],
        vec![
            "elo",
            "--a",
            "vnm",
            "--b",
            "nmp2",
            "--openings",
            "frc",
            "--games",
            "20",
            "--rounds",
            "2",
            "--seed",
            "4",
            "--resign",
            "movecount=5,score=700",
            "--maxmoves",
            "90",
            "--no-check-mate-pvs",
            "--plies",
            "0",
        ],
        vec![
            "tournament",
            "--engines",
            "fhr,plain,vnm",
            "--gauntlet",
            "fhr",
            "--openings",
            "feldmann25",
            "--start",
            "3",
            "--rounds",
            "2",
            "--tc",
            "40/60+1",
        ],
        vec!["match", "--a", "fhr", "--b", "plain", "--games", "12", "--concurrency", "1", "--maxmoves-score", "300"],
        vec![
            "tune",
            "--engine",
            "tunable",
            "--param",
            "Skill=100..900,start=250,c=40,r=0.01",
            "--games",
            "30",
            "--spsa-seed",
            "5",
            "--tc",
            "nodes=1",
            "--alpha",
            "0.7",
        ],
    ];
    for (i, args) in runs.iter().enumerate() {
        let (first, second, file) = (format!("a{i}.db"), format!("b{i}.db"), dir.join(format!("run{i}.toml")));
        let mut create = args.clone();
        create.extend(["--db", &first, "--no-local"]);
        arena_ok(&dir, &create);
        let config = stdout(&arena_ok(&dir, &["show", "1", "--db", &first, "--config"]));
        std::fs::write(&file, &config).unwrap();
        // Elsewhere, without engines.toml: the file carries its engines.
        let elsewhere = dir.join(format!("elsewhere{i}"));
        std::fs::create_dir_all(&elsewhere).unwrap();
        let second_path = elsewhere.join(&second);
        arena_ok(&elsewhere, &["run", file.to_str().unwrap(), "--db", second_path.to_str().unwrap(), "--no-local"]);
        let (spec_a, plan_a) = stored(&dir.join(&first)).await;
        let (spec_b, plan_b) = stored(&second_path).await;
        assert_eq!(spec_a, spec_b, "{args:?}: the same settings\n{config}");
        assert!(!plan_a.is_empty());
        assert_eq!(plan_a, plan_b, "{args:?}: the same plan");
        let again = stdout(&arena_ok(&elsewhere, &["show", "1", "--db", second_path.to_str().unwrap(), "--config"]));
        assert_eq!(again, config, "{args:?}: a fixed point");
    }
}

#[test]
fn bad_run_files_are_one_line() {
    let dir = temp_dir("runfile-bad");
    for (text, needle) in [
        (
            "command = \"elo\"\nengines = [\"fhr\", \"plain\"]\n[flags]\nspeed = 3\n",
            "bad.toml: [flags] speed is not a flag of arena elo",
        ),
        ("command = \"elo\"\nengines = [\"fhr\"]\n", "two engines"),
        ("command = \"elo\"\nengines = [\"fhr\", \"nobody\"]\n", "unknown engine 'nobody'"),
        ("command = \"elo\"\nengines = [\"fhr\", \"plain\"]\n[flags]\ntc = \"fast\"\n", "bad.toml: [flags] tc: "),
        (
            "command = \"elo\"\nengines = [\"fhr\", \"plain\"]\n[flags]\ngames = -5\n",
            "bad.toml: [flags] games: '-5' is not a whole number",
        ),
        (
            "command = \"elo\"\nengines = [\"fhr\", \"plain\"]\n[flags]\ndb = \"y.db\"\n",
            "[flags] db says how this machine plays",
        ),
        ("command = elo", "bad.toml: "),
    ] {
        std::fs::write(dir.join("bad.toml"), text).unwrap();
        assert_refused(&dir, &["run", "bad.toml", "--db", "x.db"], needle, "x.db");
    }
    assert_refused(&dir, &["run", "missing.toml"], "missing.toml: cannot read the run file", "x.db");
    // What is played is changed with --set, checked as the file's own keys.
    std::fs::write(dir.join("sprt.toml"), "command = \"sprt\"\nengines = [\"fhr\", \"plain\"]\n").unwrap();
    assert_refused(
        &dir,
        &["run", "sprt.toml", "--set", "max-games=401", "--db", "x.db"],
        "sprt.toml: [flags] max-games: games come in pairs",
        "x.db",
    );
    assert_refused(&dir, &["run", "sprt.toml", "--max-games", "400", "--db", "x.db"], "'--max-games'", "x.db");
}

/// `--set` changes what the file plays, and the run stores what was set.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn set_changes_a_files_flag_for_one_run() {
    let dir = temp_dir("runfile-set");
    std::fs::write(
        dir.join("m.toml"),
        "command = \"match\"\nengines = [\"fhr\", \"plain\"]\n[flags]\ngames = 40\ntc = \"nodes=500\"\nopenings = \"feldmann25\"\n",
    )
    .unwrap();
    arena_ok(&dir, &["run", "m.toml", "--set", "games=4", "--set", "seed=3", "--db", "m.db", "--no-local"]);
    let (spec, plan) = stored(&dir.join("m.db")).await;
    assert_eq!(plan.len(), 2, "4 games: 2 pairs, not the file's 40 games");
    assert_eq!(spec["seed"], 3);
    assert_eq!(spec["tc"], "nodes=500");
}
