//! Games against scripted engines that crash, hang, lie and spam (the
//! `fake-engine` binary): each game ends with the right result and reason,
//! the arena does not panic, and no engine process is left behind.

use crate::common::{ARENA, FAKE};

use std::path::Path;
use std::time::Duration;

use arena::engine_io::engines::EngineSpec;
use arena::engine_io::player::Player;
use arena::engine_io::process::Timeouts;
use arena::game::adjudication::Adjudication;
use model::TimeControl;
use model::{GameResult, Termination};

fn timeouts() -> Timeouts {
    Timeouts {
        handshake: Duration::from_millis(500),
        ready: Duration::from_millis(500),
        quit: Duration::from_millis(300),
    }
}

/// The scripted engine under a name of this test's own (a process's `comm`,
/// kept by a zombie too), so that [`children`] counts only the engines this
/// test started, not those of other tests in the same test binary.
const OWN_NAME: &str = "fake-misbehave";

fn own_fake() -> &'static Path {
    static COPY: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    COPY.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("arena-fake-exe-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let copy = dir.join(OWN_NAME);
        std::fs::copy(FAKE, &copy).unwrap();
        copy
    })
}

fn fake(mode: &str, n: u32, tc: &str, log: Option<&Path>) -> Player {
    let spec = EngineSpec {
        name: format!("fake-{mode}"),
        command: own_fake().display().to_string(),
        args: vec![mode.to_string(), n.to_string()],
        ..EngineSpec::default()
    };
    let launch = spec.launch(Path::new(ARENA));
    Player::new(spec, tc.parse::<TimeControl>().unwrap(), launch, log.map(Path::to_path_buf), timeouts())
}

/// This test's engine processes whose parent is this test process (zombies included).
fn children() -> Vec<u32> {
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        // pid (comm) state ppid ...: comm may contain spaces, so split after the last ')'.
        let Some((head, rest)) = stat.rsplit_once(')') else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let comm = head.split_once('(').map_or("", |(_, comm)| comm);
        if fields.get(1) == Some(&me.as_str()) && comm == OWN_NAME {
            found.push(pid);
        }
    }
    found
}

fn short_game() -> Adjudication {
    Adjudication { max_moves: Some(15), ..Adjudication::default() }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_misbehaviour_ends_the_game_correctly_and_leaves_no_process() {
    let opening = openings::builtin("feldmann25").unwrap().get(0);
    let dir = std::env::temp_dir().join(format!("arena-fake-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let table: &[(&str, u32, &str, Termination)] = &[
        ("crash-at-start", 0, "10+0.1", Termination::Disconnect),
        ("no-uciok", 0, "10+0.1", Termination::Disconnect),
        ("crash-mid-game", 3, "10+0.1", Termination::Disconnect),
        ("hang", 0, "0.3+0", Termination::TimeForfeit),
        ("hang", 0, "nodes=1000,stall=1", Termination::Stalled),
        ("hang", 0, "depth=5,stall=1", Termination::Stalled),
        ("busy", 3000, "nodes=1000,stall=1", Termination::Stalled),
        ("illegal", 0, "10+0.1", Termination::IllegalMove),
        ("none", 0, "10+0.1", Termination::IllegalMove),
    ];
    for &(mode, n, tc, termination) in table {
        for fake_is_white in [true, false] {
            let mut bad = fake(mode, n, tc, None);
            let mut good = fake("instant", 0, tc, None);
            let record = if fake_is_white {
                arena::game::play(&mut bad, &mut good, &opening, short_game().into()).await.unwrap()
            } else {
                arena::game::play(&mut good, &mut bad, &opening, short_game().into()).await.unwrap()
            };
            let expected = if fake_is_white { GameResult::BlackWins } else { GameResult::WhiteWins };
            assert_eq!((record.termination, record.result), (termination, expected), "{mode} {tc}: {}", record.detail);
            assert!(!record.detail.is_empty(), "{mode}: a fault names its detail");
            if termination == Termination::Stalled && cfg!(target_os = "linux") {
                // A stall names the time the engine ran: next to none when
                // it hung, the whole deadline when it searched on.
                let ran: u64 = record
                    .detail
                    .split_once(" (")
                    .and_then(|(_, rest)| rest.split_once(" ms of them on a processor, "))
                    .and_then(|(ran, _)| ran.parse().ok())
                    .unwrap_or_else(|| panic!("{mode}: {}", record.detail));
                assert!(if mode == "hang" { ran < 300 } else { ran >= 900 }, "{mode}: {}", record.detail);
            }
            bad.shutdown().await;
            good.shutdown().await;
            assert_eq!(children(), Vec::<u32>::new(), "{mode}: processes left behind");
        }
    }

    // Output the arena must survive: the game runs to the move limit.
    let log = dir.join("spam.log");
    for (mode, n, log) in [("garbage", 0, None), ("stderr-spam", 3, Some(log.as_path())), ("slow-quit", 0, None)] {
        let mut odd = fake(mode, n, "10+0.1", log);
        let mut good = fake("instant", 0, "10+0.1", None);
        let record = arena::game::play(&mut odd, &mut good, &opening, short_game().into()).await.unwrap();
        assert!(!record.termination.is_fault(), "{mode}: {:?} {}", record.termination, record.detail);
        assert!(record.moves.len() >= 20, "{mode}: {} moves", record.moves.len());
        odd.shutdown().await;
        good.shutdown().await;
        assert_eq!(children(), Vec::<u32>::new(), "{mode}: processes left behind");
    }
    let logged = std::fs::metadata(&log).map(|m| m.len()).unwrap_or(0);
    assert!(logged >= 3 << 20, "stderr went to the log: {logged} bytes");

    // A crashed engine is restarted for the next game, and counted.
    let mut crasher = fake("crash-mid-game", 2, "10+0.1", None);
    let mut good = fake("instant", 0, "10+0.1", None);
    for _ in 0..2 {
        let record = arena::game::play(&mut crasher, &mut good, &opening, short_game().into()).await.unwrap();
        assert_eq!(record.termination, Termination::Disconnect);
        // Its exit status and last words on stderr are the game's detail.
        let why = "the engine process ended (exit status: 4; stderr: 'assertion failed at move 2')";
        assert_eq!(record.detail, why);
    }
    assert_eq!((crasher.restarts(), good.restarts()), (1, 0));
    crasher.shutdown().await;
    good.shutdown().await;
    assert_eq!(children(), Vec::<u32>::new());
    let _ = std::fs::remove_dir_all(&dir);
}

/// This process's niceness (`/proc/self/stat`, field 19).
fn own_niceness() -> i32 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    after_name.split_whitespace().nth(16).and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// An engine kept waiting for a processor by a busy machine is not declared
/// stalled under a node limit: the stall deadline counts only the time it
/// could have run. The scripted engine (nice 19), pinned with a busy loop
/// (nice 5, so that the other tests' processes still come first; the
/// test's own niceness under `nice`) to one processor, runs about a
/// twentieth of the time there (an eighth under `nice`, with more work):
/// its 100 ms of work on the first move take about 2 s of wall time, twice
/// its stall deadline.
/// Under a clock of 1 s it loses on time, and the loss says that it waited
/// for a processor and what to do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_waiting_for_a_processor_is_not_stalled() {
    if !cfg!(target_os = "linux") {
        return;
    }
    // Its own copy and name, apart from the processes the test above counts.
    let dir = std::env::temp_dir().join(format!("arena-fake-starved-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let engine = dir.join("fake-starved");
    std::fs::copy(FAKE, &engine).unwrap();
    // Under `nice cargo test` the busy loop cannot be given less niceness
    // than the test has: it keeps the test's own, and the engine's work
    // grows so that it still waits about 2 s for the processor.
    let niceness = own_niceness();
    let hog_nice = if niceness == 0 { 5 } else { 0 };
    let weight = |nice: i32| 1024.0 / 1.25f64.powi(nice.min(19));
    let share = weight(19) / (weight(niceness + hog_nice) + weight(19));
    let work_ms = ((2000.0 * share) as u64).clamp(100, 1000).to_string();
    let mut hog = std::process::Command::new("taskset")
        .args(["-c", "0", "nice", "-n", &hog_nice.to_string(), "yes"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("taskset (util-linux) runs");
    let players = |tc: &str| {
        let spec = EngineSpec {
            name: "fake-starved".into(),
            command: "taskset".into(),
            args: ["-c", "0", "nice", "-n", "19", &engine.display().to_string(), "busy", &work_ms]
                .map(String::from)
                .to_vec(),
            ..EngineSpec::default()
        };
        let launch = spec.launch(Path::new(ARENA));
        // Generous protocol timeouts: the engine starts on the busy processor.
        let patient = Timeouts {
            handshake: Duration::from_secs(20),
            ready: Duration::from_secs(20),
            quit: Duration::from_secs(1),
        };
        let starved = Player::new(spec, tc.parse::<TimeControl>().unwrap(), launch, None, patient);
        let spec = EngineSpec {
            name: "fake-instant".into(),
            command: engine.display().to_string(),
            args: vec!["instant".into()],
            ..EngineSpec::default()
        };
        let launch = spec.launch(Path::new(ARENA));
        (starved, Player::new(spec, tc.parse::<TimeControl>().unwrap(), launch, None, timeouts()))
    };
    let opening = openings::builtin("feldmann25").unwrap().get(0);
    let mut records = Vec::new();
    for tc in ["nodes=1000,stall=1", "1+0"] {
        let (mut starved, mut good) = players(tc);
        records.push(arena::game::play(&mut starved, &mut good, &opening, short_game().into()).await.unwrap());
        starved.shutdown().await;
        good.shutdown().await;
    }
    let _ = hog.kill();
    let _ = hog.wait();
    let _ = std::fs::remove_dir_all(&dir);
    let record = &records[0];
    assert!(!record.termination.is_fault(), "{:?}: {}", record.termination, record.detail);
    assert!(record.moves.len() >= 20, "{} moves", record.moves.len());
    // The engine was kept waiting: its first answer took longer than the stall deadline.
    assert!(
        record.moves[0].time_ms > 1_000,
        "first move in {} ms: the processor was not busy",
        record.moves[0].time_ms
    );
    let lost = &records[1];
    assert_eq!(lost.termination, Termination::TimeForfeit, "{}", lost.detail);
    for needle in ["no move after 1", "ms waiting for one", "the machine was too busy for this clock", "--concurrency"]
    {
        assert!(lost.detail.contains(needle), "{needle}: {}", lost.detail);
    }
}

/// An engine frozen mid-game (stopped with SIGSTOP for 2.5 s, as a paused
/// virtual machine or a blocking disk would leave it: neither running nor
/// waiting for a processor) is not declared stalled under a node limit of
/// `stall=1`: the deadline counts the time it ran.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_engine_frozen_by_its_machine_is_not_stalled() {
    if !cfg!(target_os = "linux") {
        return;
    }
    const NAME: &str = "fake-frozen";
    let dir = std::env::temp_dir().join(format!("arena-{NAME}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A link, not a copy: the process is named after it, and a binary just
    // written can be "busy" to exec while another test forks.
    let engine = dir.join(NAME);
    let _ = std::fs::remove_file(&engine);
    std::os::unix::fs::symlink(FAKE, &engine).unwrap();
    let tc = "nodes=1000,stall=1";
    let player = |command: &str, args: &[&str], timeouts: Timeouts| {
        let spec = EngineSpec {
            name: args[0].into(),
            command: command.to_string(),
            args: args[1..].iter().map(|a| a.to_string()).collect(),
            ..EngineSpec::default()
        };
        let launch = spec.launch(Path::new(ARENA));
        Player::new(spec, tc.parse::<TimeControl>().unwrap(), launch, None, timeouts)
    };
    // Patient with the handshake, in case the freeze falls there.
    let patient =
        Timeouts { handshake: Duration::from_secs(20), ready: Duration::from_secs(20), quit: Duration::from_secs(1) };
    // 300 ms of work on its first move, so the freeze comes mid-search.
    let mut frozen = player(&engine.display().to_string(), &[NAME, "busy", "300"], patient);
    // The other engine under the usual name, so that only the first is frozen.
    let mut good = player(FAKE, &["instant", "instant"], timeouts());
    let me = std::process::id().to_string();
    let freezer = std::thread::spawn(move || {
        let looking = std::time::Instant::now();
        let pid = loop {
            assert!(looking.elapsed() < Duration::from_secs(60), "no {NAME} process to freeze");
            let found = std::fs::read_dir("/proc").unwrap().flatten().find_map(|entry| {
                let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
                let (head, rest) = stat.rsplit_once(')')?;
                let parent = rest.split_whitespace().nth(1)?;
                (head.ends_with(&format!("({NAME}")) && parent == me).then(|| entry.file_name())
            });
            if let Some(pid) = found {
                break pid.to_string_lossy().into_owned();
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        std::thread::sleep(Duration::from_millis(100));
        let signal = |s: &str| std::process::Command::new("kill").args([s, &pid]).status().unwrap();
        signal("-STOP");
        std::thread::sleep(Duration::from_millis(2500));
        signal("-CONT");
    });
    let opening = openings::builtin("feldmann25").unwrap().get(0);
    let record = arena::game::play(&mut frozen, &mut good, &opening, short_game().into()).await.unwrap();
    freezer.join().unwrap();
    frozen.shutdown().await;
    good.shutdown().await;
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!record.termination.is_fault(), "{:?}: {}", record.termination, record.detail);
    assert!(record.moves.len() >= 20, "{} moves", record.moves.len());
    // The freeze fell in a search: one of its moves took longer than the stall limit.
    let slowest = record.moves.iter().step_by(2).map(|m| m.time_ms).max().unwrap_or(0);
    assert!(slowest > 1_000, "slowest move {slowest} ms: the freeze missed the searches");
}
