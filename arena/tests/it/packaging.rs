//! The systemd unit for workers (`packaging/arena-worker.service`) is one
//! systemd accepts, and starts the `arena worker` command arena parses.

use std::process::Command;

use crate::common::{ARENA, temp_dir};

#[test]
fn the_worker_service_passes_systemd_analyze_verify_and_names_a_real_command() {
    let unit =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../packaging/arena-worker.service")).unwrap();
    let exec = unit.lines().find_map(|l| l.strip_prefix("ExecStart=")).expect("an ExecStart line");
    assert!(unit.contains("KillSignal=SIGINT"), "a stop is arena's first Ctrl-C: the pairs in flight finish");
    // The command line the unit runs, with its environment's example values, is one arena accepts.
    let args: Vec<String> = exec
        .split_whitespace()
        .skip(1)
        .map(|word| word.replace("${ARENA_DB}", "postgres://arena@db.lan/arena").replace("${ARENA_CONCURRENCY}", "8"))
        .collect();
    let mut help = args.clone();
    help.push("--help".into());
    let out = Command::new(ARENA).args(&help).output().unwrap();
    assert!(
        out.status.success(),
        "arena rejects the unit's command {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let Ok(verify) = Command::new("systemd-analyze").arg("--version").output() else {
        assert!(std::env::var_os("CI").is_none(), "CI needs systemd-analyze (apt-get install systemd)");
        return eprintln!("skipping systemd-analyze verify: not installed");
    };
    assert!(verify.status.success());
    // Verified as installed: the unit's binary path pointed at the binary under test.
    let dir = temp_dir("packaging");
    let path = dir.join("arena-worker.service");
    std::fs::write(&path, unit.replace("/usr/local/bin/arena", ARENA)).unwrap();
    let out = Command::new("systemd-analyze").args(["verify", "--man=no"]).arg(&path).output().unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && !said.contains("arena-worker.service:"), "systemd-analyze verify: {said}");
}

/// The container's command, as the image's shell runs it: without ARENA_DB it
/// stops in one line naming the variable; with the environment set, every
/// flag it passes is one `arena worker` accepts, and the engines file it
/// copies into the image is one arena reads. (No container engine runs on
/// the test machines, so the image itself is not built here.)
#[test]
fn the_container_runs_an_arena_worker_from_its_environment() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
    let file = std::fs::read_to_string(format!("{root}/packaging/Containerfile")).unwrap();
    let cmd = file.lines().find_map(|l| l.strip_prefix("CMD ")).expect("a CMD line");
    let argv: Vec<String> = serde_json::from_str(cmd).expect("CMD in exec form");
    assert_eq!(argv[..2], ["sh", "-c"], "{argv:?}");
    assert!(file.contains("STOPSIGNAL SIGINT"), "a stop is arena's first Ctrl-C: the pairs in flight finish");
    assert!(file.contains("COPY packaging/engines.toml /etc/arena/engines.toml"));
    // `arena` on PATH is the binary under test, the engines file the one the image holds.
    let dir = temp_dir("container");
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(ARENA, bin.join("arena")).unwrap();
    let script = argv[2].replace("/etc/arena/engines.toml", &format!("{root}/packaging/engines.toml"));
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let run = |script: &str, db: Option<&str>| {
        let mut command = Command::new("sh");
        command.args(["-c", script]).env("PATH", &path).env("ARENA_CONCURRENCY", "2").env("ARENA_NAME", "box-2");
        command.env_remove("ARENA_DB").current_dir(&dir);
        if let Some(db) = db {
            command.env("ARENA_DB", db);
        }
        command.output().unwrap()
    };
    let out = run(&script, None);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.trim().lines().count() == 1 && stderr.contains("ARENA_DB"), "{stderr}");
    // Served with a run that does not exist: arena parsed every flag and the
    // engines file, opened the database and refused the run in one line.
    let db = dir.join("runs.db");
    std::fs::copy(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/v2.db"), &db).unwrap();
    let out = run(&format!("{script} --run 99"), Some(&db.display().to_string()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.trim().lines().count() == 1 && stderr.contains("run 99"), "{stderr}");
    assert!(!stderr.contains("engines.toml") && !stderr.contains("unexpected argument"), "{stderr}");
}

/// `cargo install --path arena` into a temporary root gives `arena` alone
/// (not the tests' `fake-engine`), and that binary, run from an empty
/// folder, finds everything it carries: the bundled engine, an opening book,
/// a test suite and the 3–4 piece tables (`--tb builtin`, written to its
/// cache folder). The install builds in a target folder of its own beside
/// the tests' (`install-test`, kept between runs): in the tests' own, it
/// would replace the `arena` binary the other tests are running. It builds
/// with the `install-test` profile (release unoptimised: 3.5 minutes of
/// wall time on 2 cores instead of 7.8 for a clean build), since what is
/// tested is what the binary carries, not its speed.
#[test]
fn an_installed_arena_plays_suites_and_adjudicates_from_an_empty_folder() {
    let root = temp_dir("install");
    let (prefix, work, cache) = (root.join("prefix"), root.join("work"), root.join("cache"));
    std::fs::create_dir_all(&work).unwrap();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // This test binary is TARGET/release/deps/it-…: its install folder is TARGET/install-test.
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).expect("the tests' target folder").join("install-test");
    let out = Command::new(cargo)
        .env("CARGO_TARGET_DIR", &target)
        .args(["install", "--path", concat!(env!("CARGO_MANIFEST_DIR")), "--profile", "install-test"])
        .args(["--locked", "--offline", "--quiet", "--root"])
        .arg(&prefix)
        .output()
        .unwrap();
    assert!(out.status.success(), "cargo install: {}", String::from_utf8_lossy(&out.stderr));
    let mut installed: Vec<String> =
        std::fs::read_dir(prefix.join("bin")).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    installed.sort();
    assert_eq!(installed, ["arena"], "the tests' scripted engine stays out of an install");
    let arena = prefix.join("bin/arena");
    // A command line as words (none of these has a space inside a word).
    let run = |line: &str| {
        let args: Vec<&str> = line.split(' ').collect();
        let out = Command::new(&arena).args(&args).current_dir(&work).env("ARENA_CACHE", &cache).output().unwrap();
        assert!(out.status.success(), "installed arena {line}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    run("elo --a fhr --b plain --games 2 --tc nodes=2000 --openings feldmann25 --quiet");
    // Two 4-piece positions: each game ends at once, adjudicated by the built-in tables.
    std::fs::write(work.join("endings.epd"), "8/8/8/4k3/8/8/8/KQ6 w - -\n8/8/8/8/4k3/8/4P3/4K3 b - -\n").unwrap();
    run("elo --a vnm --b nmp2 --games 4 --tc nodes=2000 --openings endings.epd --tb builtin --quiet");
    run("suite --engines fhr --suite wac --count 2 --depth 3 --quiet");
    let pgn = run("pgn 2");
    assert_eq!(pgn.matches("KQvK: win for White").count(), 2, "{pgn}");
    assert_eq!(pgn.matches("KPvK: draw").count(), 2, "{pgn}");
    assert!(cache.join(format!("syzygy-{}/KQvK.rtbw", env!("CARGO_PKG_VERSION"))).is_file());
    let runs = run("runs");
    assert_eq!(runs.matches("finished").count(), 3, "{runs}");
}
