//! Engines built from source revisions (issue #34), through the binary: a
//! git repository made here holds a small engine whose two commits differ
//! in strength and in bench output, built by a cheap real build command
//! (the engine is a script that runs the scripted engine; the build writes
//! it with the scripted engine's path, and counts itself in a file).

use super::common::{ARENA, FAKE, temp_dir};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The build command of the test engine: the script made executable, one
/// line added to `$BUILD_LOG` per build.
const BUILD: &str = r#"sed "s|@FAKE@|$FAKE_ENGINE|" engine.sh > {exe} && chmod +x {exe} && echo built >> "$BUILD_LOG""#;

/// The test engine at strength `grab` (per mille of its moves that take
/// the most material; 0 plays at random) with `bench` as its bench line.
fn engine_script(grab: u32, bench: &str) -> String {
    format!("#!/bin/sh\nif [ \"$1\" = bench ]; then {bench}; exit 0; fi\nexec @FAKE@ flat {grab}\n")
}

pub(crate) fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(["-c", "user.name=arena", "-c", "user.email=arena@test", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Commits the engine at `grab` with `bench` to the repository's checked-out branch.
pub(crate) fn commit(repo: &Path, grab: u32, bench: &str, message: &str) -> String {
    std::fs::write(repo.join("engine.sh"), engine_script(grab, bench)).unwrap();
    git(repo, &["add", "engine.sh"]);
    git(repo, &["commit", "-qm", message]);
    git(repo, &["rev-parse", "HEAD"])
}

/// A repository with `base` (random moves, bench 1000) and `main` one
/// commit later (material grabs, bench 2000); the two commit ids.
fn repository(dir: &Path) -> (PathBuf, String, String) {
    let repo = dir.join("myengine");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q"]);
    let base = commit(&repo, 0, "echo 'Nodes searched : 1000'", "random mover");
    git(&repo, &["branch", "base"]);
    let main = commit(&repo, 1000, "echo 'Nodes searched : 2000'", "grabs material");
    (repo, main, base)
}

/// A test's folder, its build cache, and the repository of [`repository`].
struct Setup {
    dir: PathBuf,
    cache: PathBuf,
    repo: PathBuf,
    repo_text: String,
    main: String,
    base: String,
}

fn setup(name: &str) -> Setup {
    let dir = temp_dir(name);
    let (repo, main, base) = repository(&dir);
    Setup { cache: dir.join("cache"), repo_text: repo.display().to_string(), dir, repo, main, base }
}

/// `arena ARGS` in `dir` with the build's environment and cache `cache`.
fn command(dir: &Path, cache: &Path, args: &[&str]) -> Command {
    let mut cmd = Command::new(ARENA);
    cmd.args(args)
        .current_dir(dir)
        .env("ARENA_CACHE", cache)
        .env("FAKE_ENGINE", FAKE)
        .env("BUILD_LOG", dir.join("builds.log"));
    cmd
}

fn run(dir: &Path, cache: &Path, args: &[&str]) -> Output {
    command(dir, cache, args).output().unwrap()
}

fn run_ok(dir: &Path, cache: &Path, args: &[&str]) -> String {
    let out = run(dir, cache, args);
    assert!(out.status.success(), "arena {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Requires `args` to fail with one line holding `needle`, and no run stored.
fn assert_one_line_refusal(dir: &Path, cache: &Path, args: &[&str], needle: &str, db: &str) {
    let out = run(dir, cache, args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    let errors: Vec<&str> = stderr.lines().filter(|l| l.starts_with("arena: ")).collect();
    assert_eq!(errors.len(), 1, "{stderr}");
    assert!(errors[0].contains(needle), "wanted '{needle}' in: {stderr}");
    if dir.join(db).exists() {
        let runs = run_ok(dir, cache, &["runs", "--db", db]);
        assert!(runs.lines().count() <= 1, "nothing stored: {runs}");
    }
}

/// Creates a `--no-local` match of `games` games between main and base of `repo`.
fn create_match(dir: &Path, cache: &Path, repo: &str, games: &str, db: &str, extra: &[&str]) {
    let mut args = vec!["match", "--repo", repo, "--dev", "main", "--base", "base", "--build", BUILD];
    args.extend(["--tc", "nodes=1000", "--games", games, "--no-local", "--db", db]);
    args.extend(extra);
    let out = run(dir, cache, &args);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "arena {args:?}: {said}");
    // The worker command it prints names the repository the workers build from.
    let name = model::spec::repo_name(repo);
    assert!(said.contains("arena worker --db ") && said.contains(&format!(" --repo {name}=")), "{said}");
}

fn builds(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("builds.log")).map_or(0, |text| text.lines().count())
}

fn report_json(dir: &Path, cache: &Path, db: &str, run: &str) -> serde_json::Value {
    serde_json::from_str(&run_ok(dir, cache, &["report", run, "--db", db, "--format", "json"])).unwrap()
}

fn wait(mut child: Child, what: &str) -> Output {
    let deadline = Instant::now() + Duration::from_secs(180);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "{what} did not end");
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn an_sprt_between_two_revisions_plays_each_commit_built_once() {
    let Setup { dir, cache, repo, repo_text, main, base } = setup("source-sprt");
    let sprt = |db: &str| {
        let args = [
            "sprt",
            "--repo",
            &repo_text,
            "--dev",
            "main",
            "--base",
            "base",
            "--build",
            BUILD,
            "--tc",
            "nodes=1000",
            "--openings",
            "noob_2moves",
            "--seed",
            "1",
            "--max-games",
            "600",
            "--quiet",
            "--db",
            db,
        ];
        command(&dir, &cache, &args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap()
    };
    // Two processes that need the same two commits at once build each once.
    let (first, second) = (sprt("a.db"), sprt("b.db"));
    for (out, db) in [(wait(first, "the first sprt"), "a.db"), (wait(second, "the second sprt"), "b.db")] {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{db}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains("SPRT accepted H1: main is stronger than base (LLR"), "{db}: {text}");
        assert!(text.contains(&format!("at {} (main)", &main[..8])), "{text}");
        assert!(text.contains("bench signature 2000") && text.contains("bench signature 1000"), "{text}");
        let report = report_json(&dir, &cache, db, "1");
        let engines = &report["header"]["engines"];
        assert_eq!(engines[0]["commit"], main.as_str(), "{db}");
        assert_eq!(engines[1]["commit"], base.as_str(), "{db}");
        assert_eq!(engines[0]["played_by"][0]["bench"], 2000);
    }
    assert_eq!(builds(&dir), 2, "one build per commit for both processes");

    // A run created now means today's main; moving main afterwards changes
    // nothing about what plays on resume, and the cache serves both builds.
    create_match(&dir, &cache, &repo_text, "4", "c.db", &[]);
    let moved = commit(&repo, 0, "echo 'Nodes searched : 3000'", "main moves on");
    assert_ne!(moved, main);
    run_ok(&dir, &cache, &["resume", "1", "--db", "c.db", "--quiet"]);
    let report = report_json(&dir, &cache, "c.db", "1");
    assert_eq!(report["header"]["engines"][0]["commit"], main.as_str());
    assert_eq!(report["header"]["games_played"], 4);
    assert_eq!(builds(&dir), 2, "the second run and its resume reused the cache");
}

#[test]
fn tune_builds_the_revision_before_reading_its_options() {
    let Setup { dir, cache, repo_text, .. } = setup("source-tune");
    let args = [
        "tune",
        "--repo",
        &repo_text,
        "--rev",
        "main",
        "--build",
        BUILD,
        "--param",
        "Hash=1..64",
        "--games",
        "8",
        "--tc",
        "nodes=1000",
        "--plan",
        "--db",
        "t.db",
    ];
    let out = run(&dir, &cache, &args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("built main at") && stderr.contains("Hash"), "{stderr}");
    assert_eq!(builds(&dir), 1);
}

#[test]
fn a_failing_build_an_unknown_revision_and_bad_benches_are_one_line_each() {
    let Setup { dir, cache, repo, repo_text, .. } = setup("source-failures");
    let pair = |dev: &str, build: &str| -> Vec<String> {
        [
            "match",
            "--repo",
            &repo_text,
            "--dev",
            dev,
            "--base",
            "base",
            "--build",
            build,
            "--tc",
            "nodes=1000",
            "--games",
            "2",
            "--db",
            "x.db",
        ]
        .map(str::to_string)
        .to_vec()
    };
    let refuse = |args: Vec<String>, needle: &str| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_one_line_refusal(&dir, &cache, &args, needle, "x.db");
    };
    refuse(
        pair("main", "echo compiling; echo 'error: no such file' >&2; exit 4"),
        "failed (exit status 4): compiling | error: no such file",
    );
    refuse(pair("nope", BUILD), "revision 'nope' is not in");
    refuse(pair("main", "true"), "left no executable");

    // A signature the build does not print, and a bench that is not deterministic.
    commit(&repo, 1000, "echo \"$(od -An -N2 -tu2 /dev/urandom | tr -d ' ') nodes 5 nps\"", "random bench");
    std::fs::write(
        dir.join("engines.toml"),
        format!(
            "[[engine]]\nname = \"wrong\"\ngit = \"{repo_text}\"\nrev = \"base\"\nbuild = '{BUILD}'\nbench = 1234\n\n\
             [[engine]]\nname = \"noisy\"\ngit = \"{repo_text}\"\nrev = \"main\"\nbuild = '{BUILD}'\nbench = \"auto\"\n"
        ),
    )
    .unwrap();
    let named = |a: &str| -> Vec<String> {
        ["match", "--a", a, "--b", "plain", "--tc", "nodes=1000", "--games", "2", "--db", "x.db"]
            .map(str::to_string)
            .to_vec()
    };
    refuse(named("wrong"), "bench of wrong is 1000 nodes, not the 1234 the run expects");
    refuse(named("noisy"), "bench of noisy is not deterministic");
}

#[test]
fn a_worker_builds_only_from_repositories_it_allows_and_serves_its_other_runs() {
    let Setup { dir, cache, repo_text, .. } = setup("source-worker");
    create_match(&dir, &cache, &repo_text, "4", "w.db", &[]);
    run_ok(
        &dir,
        &cache,
        &["match", "--a", "fhr", "--b", "plain", "--tc", "nodes=500", "--games", "2", "--no-local", "--db", "w.db"],
    );
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let other_cache = elsewhere.join("cache");
    let db = dir.join("w.db").display().to_string();
    // No repository allowed: run 1 is refused in one line, run 2 is played.
    let worker = command(&elsewhere, &other_cache, &["worker", "--db", &db, "--poll", "1", "--concurrency", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let runs = run_ok(&dir, &cache, &["runs", "--db", "w.db"]);
        if runs.lines().any(|l| l.trim_start().starts_with("2 ") && l.contains("finished")) {
            break;
        }
        assert!(Instant::now() < deadline, "the worker did not play run 2: {runs}");
        std::thread::sleep(Duration::from_millis(100));
    }
    super::common::signal_job(&worker, "INT");
    let out = wait(worker, "the worker");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("not serving run 1: engine 'main' is built from source (repository myengine")
            && stderr.contains("allows no repository for it: add --repo myengine="),
        "{stderr}"
    );
    assert_eq!(builds(&dir), 2, "the worker built nothing: only the creator's two builds");
    // With its own clone allowed, the worker builds the stored commits and finishes run 1.
    let clone = elsewhere.join("clone");
    git(&elsewhere, &["clone", "-q", &repo_text, &clone.display().to_string()]);
    let allowed = format!("myengine={}", clone.display());
    let out = run(&elsewhere, &other_cache, &["worker", "--db", &db, "--run", "1", "--repo", &allowed, "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report = report_json(&dir, &cache, "w.db", "1");
    assert_eq!(report["header"]["games_played"], 4);
}

#[test]
fn a_swapped_binary_is_refused_on_resume_unless_the_change_is_accepted() {
    let dir = temp_dir("source-swap");
    let cache = dir.join("cache");
    let dev = dir.join("dev-engine");
    std::fs::copy(FAKE, &dev).unwrap();
    std::fs::write(
        dir.join("engines.toml"),
        format!(
            "[[engine]]\nname = \"dev\"\ncommand = \"{}\"\nargs = [\"flat\", \"1000\"]\n\n\
             [[engine]]\nname = \"ref\"\ncommand = \"{FAKE}\"\nargs = [\"flat\", \"0\"]\n",
            dev.display()
        ),
    )
    .unwrap();
    let job = command(
        &dir,
        &cache,
        &[
            "match",
            "--a",
            "dev",
            "--b",
            "ref",
            "--tc",
            "nodes=1000",
            "--games",
            "100000",
            "--openings",
            "noob_2moves",
            "--concurrency",
            "1",
            "--quiet",
            "--db",
            "s.db",
        ],
    )
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .process_group(0)
    .spawn()
    .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !run(&dir, &cache, &["show", "1", "--db", "s.db"]).status.success() || games_played(&dir, &cache) == 0 {
        assert!(Instant::now() < deadline, "no game stored");
        std::thread::sleep(Duration::from_millis(50));
    }
    super::common::signal_job(&job, "KILL");
    let _ = wait(job, "the killed match");
    // Another build under the same name: a script that runs the scripted engine.
    std::fs::remove_file(&dev).unwrap();
    std::fs::write(&dev, format!("#!/bin/sh\nexec {FAKE} \"$@\"\n")).unwrap();
    std::fs::set_permissions(&dev, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    assert_one_line_refusal_keeping_run(&dir, &cache);
    // Accepted, the run plays on (Ctrl-C once it stored more games: the run is long).
    let before = games_played(&dir, &cache);
    let job = command(&dir, &cache, &["resume", "1", "--db", "s.db", "--quiet", "--accept-change"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while games_played(&dir, &cache) <= before {
        assert!(Instant::now() < deadline, "the accepted resume played nothing");
        std::thread::sleep(Duration::from_millis(50));
    }
    super::common::signal_job(&job, "INT");
    assert!(wait(job, "the accepted resume").status.success());
    let report = report_json(&dir, &cache, "s.db", "1");
    let played_by = report["header"]["engines"][0]["played_by"].as_array().unwrap().clone();
    assert_eq!(played_by.len(), 2, "{played_by:?}");
    assert_eq!(played_by[1]["accepted"], true);
    assert_ne!(played_by[0]["sha256"], played_by[1]["sha256"]);
    let text = run_ok(&dir, &cache, &["show", "1", "--db", "s.db"]);
    assert!(text.contains("(a change, accepted with --accept-change)"), "{text}");
}

fn games_played(dir: &Path, cache: &Path) -> u64 {
    report_json(dir, cache, "s.db", "1")["header"]["games_played"].as_u64().unwrap()
}

/// The swapped binary refused: one line naming the engine, both hashes and the flag.
fn assert_one_line_refusal_keeping_run(dir: &Path, cache: &Path) {
    let out = run(dir, cache, &["resume", "1", "--db", "s.db", "--quiet"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().filter(|l| l.starts_with("arena: ")).count(), 1, "{stderr}");
    assert!(
        stderr.contains("engine 'dev' of run 1 is not what this machine")
            && stderr.contains("its executable had sha256")
            && stderr.contains("--accept-change"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_on_postgres_build_the_commits_from_their_own_clones_and_finish_exactly() {
    let Setup { dir, cache, repo_text, main, base, .. } = setup("source-postgres");
    let server = std::env::var("ARENA_TEST_POSTGRES").unwrap_or_else(|_| db::TEST_POSTGRES_DEFAULT.to_string());
    let target = match db::scratch_postgres(&server.parse().unwrap(), "arena_source_workers").await {
        Ok(target) => target,
        Err(e) if std::env::var_os("CI").is_some() => panic!("CI needs a PostgreSQL server: {e}"),
        Err(e) => return eprintln!("skipping: {e}"),
    };
    let db::Target::Postgres(url) = &target else { unreachable!() };
    create_match(&dir, &cache, &repo_text, "40", url, &["--openings", "noob_2moves"]);
    // Two machines: each its own clone, cache and host name.
    let workers: Vec<Child> = ["left", "right"]
        .iter()
        .map(|machine| {
            let home = dir.join(machine);
            std::fs::create_dir_all(&home).unwrap();
            let clone = home.join("clone");
            git(&home, &["clone", "-q", &repo_text, &clone.display().to_string()]);
            let allowed = format!("myengine={}", clone.display());
            command(
                &home,
                &home.join("cache"),
                &[
                    "worker",
                    "--db",
                    url,
                    "--run",
                    "1",
                    "--repo",
                    &allowed,
                    "--concurrency",
                    "1",
                    "--lease",
                    "3",
                    "--poll",
                    "1",
                    "--quiet",
                ],
            )
            .env("HOSTNAME", machine)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
        })
        .collect();
    for worker in workers {
        let out = wait(worker, "a worker");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    for machine in ["left", "right"] {
        assert_eq!(builds(&dir.join(machine)), 2, "{machine} built both commits once");
    }
    let db = db::Db::open(&target).await.unwrap();
    let info = db.run(1).await.unwrap();
    assert_eq!((info.status, info.games, info.pairs_done), (model::RunStatus::Finished, 40, 20));
    let outcomes = db.pair_outcomes(1).await.unwrap();
    let seqs: std::collections::HashSet<i64> = outcomes.iter().map(|o| o.finished_seq).collect();
    assert_eq!((outcomes.len(), seqs.len()), (20, 20), "every pair once");
    let identities = db.identities(1).await.unwrap();
    for (engine, commit) in [("main", &main), ("base", &base)] {
        let hosts: std::collections::BTreeSet<&str> =
            identities.iter().filter(|i| i.engine == engine).map(|i| i.host.as_str()).collect();
        assert!(hosts.contains("left") && hosts.contains("right"), "{engine} on {hosts:?}");
        let report = report_json(&dir, &cache, url, "1");
        assert!(report["header"]["engines"].as_array().unwrap().iter().any(|e| e["commit"] == commit.as_str()));
    }
    db.close().await;
}

/// The bundled engine's identity holds its bench signature: the count
/// `arena engine-uci --pruning P bench` prints for the configuration it
/// plays (an option set on a preset included), measured once per build and
/// kept in the cache folder, so that a run's report can say that arena
/// builds which played it searched alike.
#[test]
fn the_bundled_engine_is_identified_by_its_bench_signature() {
    let dir = temp_dir("bundled-bench");
    let cache = dir.join("cache");
    // nmp2 with R = 3 searches as the nmp3 preset does.
    let toml = "[[engine]]\nname = \"r3\"\npreset = \"nmp2\"\noptions = { NullMoveR = 3 }\n";
    std::fs::write(dir.join("engines.toml"), toml).unwrap();
    let oracle = |preset: &str| {
        let out = Command::new(ARENA).args(["engine-uci", "--pruning", preset, "bench"]).output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        text.split_whitespace().next().and_then(|n| n.parse::<u64>().ok()).unwrap_or_else(|| panic!("{text}"))
    };
    let expected = [oracle("nmp3"), oracle("fhr")];
    assert_ne!(expected[0], oracle("nmp2"), "the option changes the search");
    for run in ["1", "2"] {
        run_ok(
            &dir,
            &cache,
            &["match", "--a", "r3", "--b", "fhr", "--tc", "nodes=500", "--games", "2", "--db", "b.db"],
        );
        let report = report_json(&dir, &cache, "b.db", run);
        let bench = |i: usize| report["header"]["engines"][i]["played_by"][0]["bench"].as_u64();
        assert_eq!([bench(0), bench(1)], expected.map(Some), "run {run}");
        let mut kept: Vec<String> = std::fs::read_dir(cache.join("bench"))
            .unwrap()
            .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
            .collect();
        kept.sort();
        let mut counts: Vec<String> = kept.iter().map(|t| t.split_whitespace().next().unwrap().to_string()).collect();
        counts.sort();
        let mut wanted = expected.map(|n| n.to_string()).to_vec();
        wanted.sort();
        assert_eq!(counts, wanted, "one count per configuration, kept: {kept:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Another arena for the bundled engine plays a run on by itself when it
/// measures the bench signature recorded (the same search), with one
/// warning and the change in the report; one that measures another
/// signature (another search) is refused in one line unless
/// `--accept-change`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_arena_plays_on_by_itself_only_with_the_bench_signature_recorded() {
    let dir = temp_dir("identity-bundled");
    let arena =
        |args: &[&str]| Command::new(ARENA).args(args).args(["--db", "b.db"]).current_dir(&dir).output().unwrap();
    let ok = |args: &[&str]| {
        let out = arena(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        out
    };
    let scale = ["scale", "--a", "vnm", "--b", "nmp2", "--budgets", "nodes=200,nodes=400", "--games", "2"];
    ok(&[&scale[..], &["--openings", "noob_2moves", "--quiet"]].concat());
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(dir.join("b.db"));
    // What an older arena would have recorded: another version, and the
    // signature this one measures (or, below, another).
    let as_if_older = |bench: &'static str| {
        let options = options.clone();
        async move {
            let mut connection = sqlx::ConnectOptions::connect(&options).await.unwrap();
            let sql = format!("UPDATE engine_identities SET id_name = 'arena 0.0.9 (000000000000)', bench = {bench}");
            sqlx::query(sqlx::AssertSqlSafe(sql)).execute(&mut connection).await.unwrap();
        }
    };
    as_if_older("bench").await;
    ok(&["extend", "1", "--budgets", "nodes=800"]);
    let out = ok(&["resume", "1", "--quiet"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("engine 'vnm': accepted a change (arena 0.0.9 (000000000000) then, arena")
            && stderr.contains("the same bench signature"),
        "{stderr}"
    );
    let shown = String::from_utf8_lossy(&ok(&["show", "1"]).stdout).to_string();
    assert!(shown.contains("(a change with the same bench signature: the same search, accepted)"), "{shown}");

    as_if_older("bench + 1").await;
    ok(&["extend", "1", "--budgets", "nodes=1600"]);
    let out = arena(&["resume", "1", "--quiet"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().filter(|l| l.starts_with("arena: ")).count(), 1, "{stderr}");
    assert!(stderr.contains("another search") && stderr.contains("--accept-change"), "{stderr}");
    ok(&["resume", "1", "--quiet", "--accept-change"]);
    let shown = String::from_utf8_lossy(&ok(&["show", "1"]).stdout).to_string();
    let folded =
        "played on vm: 3 binaries, 2 of them accepted changes (each in the JSON report); bench signatures differ";
    assert!(shown.contains(folded), "{shown}");
    let _ = std::fs::remove_dir_all(&dir);
}
