//! `arena check`: the compliant bundled engine and scripted engine pass,
//! each scripted fault is named on the step it breaks, and the status
//! gates a script.

use crate::common::{FAKE, arena, stdout, temp_dir};

/// The step lines of one engine's table: (step, status, detail).
fn table(text: &str, engine: &str) -> Vec<(String, String, String)> {
    let mut rows = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("engine ") {
            inside = line.starts_with(&format!("engine {engine}:"));
            continue;
        }
        if !inside || !line.starts_with("  ") || line.starts_with(&format!("  {engine}:")) {
            continue;
        }
        // Steps are padded to one width, then the status, then the detail.
        let status_at = [" pass ", " warn ", " FAIL "].iter().filter_map(|s| line.find(s)).min().unwrap();
        let step = line[..status_at].trim().to_string();
        let status = line[status_at + 1..status_at + 5].to_string();
        rows.push((step, status, line[status_at + 6..].trim().to_string()));
    }
    rows
}

#[test]
fn each_scripted_fault_fails_its_own_step_and_the_status_says_so() {
    let dir = temp_dir("check");
    let faults = [
        // An xboard engine is told apart at once, not after the handshake's timeout.
        (
            "xboard",
            "start",
            "engine 'xboard' does not speak UCI: it answered 'uci' with 'Error (unknown command): uci'",
        ),
        ("illegal", "bestmove, ponder", "bestmove 'a1a1' is illegal"),
        ("illegal-pv", "PVs", "PV move 'a1a1' is illegal"),
        ("slow-quit", "quit", "still running"),
        ("no-infinite", "go infinite, stop", "before stop"),
        // Legal answers to single searches, then none some plies into a game.
        ("none-after 10", "games at go nodes", "game 1, ply 6: 'bestmove (none)' is not a legal move in '"),
        ("bad-score", "scores", "neither cp nor mate"),
        // An engine that exits is quoted: its status and last line on stderr.
        (
            "crash-on-option",
            "options",
            "'setoption name Danger value 10': engine 'crash-on-option' exited while waiting for 'isready' \
             (exit status: 5; stderr: 'Danger at 10: giving up')",
        ),
    ];
    let mut toml = format!("[[engine]]\nname = \"fake\"\ncommand = \"{FAKE}\"\nargs = [\"instant\"]\n");
    // A fault is a scripted mode and its number, if any; the engine is named by the mode.
    let name = |fault: &str| fault.split(' ').next().unwrap_or_default().to_string();
    for fault in faults.iter().map(|(fault, _, _)| *fault).chain(["few-nodes"]) {
        let args: Vec<String> = fault.split(' ').map(|word| format!("\"{word}\"")).collect();
        toml +=
            &format!("[[engine]]\nname = \"{}\"\ncommand = \"{FAKE}\"\nargs = [{}]\n", name(fault), args.join(", "));
    }
    std::fs::write(dir.join("engines.toml"), toml).unwrap();

    // The bundled engine and a well-behaved scripted one: no step fails,
    // status 0. One that stops short of a node limit is warned of, and
    // passes.
    let good = arena(&dir, &["check", "fhr", "fake", "few-nodes"]);
    let text = stdout(&good);
    assert!(good.status.success(), "{text}{}", String::from_utf8_lossy(&good.stderr));
    let bundled = table(&text, "fhr");
    let steps: Vec<&str> = bundled.iter().map(|(step, _, _)| step.as_str()).collect();
    for step in [
        "start",
        "options",
        "go wtime/btime",
        "go movetime",
        "go nodes",
        "games at go nodes",
        "go infinite, stop",
        "UCI_Chess960",
        "quit",
    ] {
        assert!(steps.contains(&step), "{step} missing: {text}");
    }
    assert!(bundled.iter().all(|(_, status, _)| status == "pass"), "{text}");
    assert!(table(&text, "fake").iter().all(|(_, status, _)| status == "pass"), "{text}");
    let few = table(&text, "few-nodes");
    let warned: Vec<_> = few.iter().filter(|(_, status, _)| status != "pass").collect();
    assert_eq!(warned.len(), 1, "{text}");
    assert_eq!((warned[0].0.as_str(), warned[0].1.as_str()), ("go nodes", "warn"), "{text}");
    assert!(warned[0].2.contains("'go nodes 20000' searched 6 nodes"), "{text}");

    // Each fault fails the step it breaks and no other.
    let names: Vec<String> = faults.iter().map(|(fault, _, _)| name(fault)).collect();
    let mut args = vec!["check"];
    args.extend(names.iter().map(String::as_str));
    let bad = arena(&dir, &args);
    assert_eq!(bad.status.code(), Some(2));
    let text = stdout(&bad);
    for (mode, step, needle) in faults {
        let mode = name(mode);
        let failed: Vec<_> = table(&text, &mode).into_iter().filter(|(_, status, _)| status == "FAIL").collect();
        assert_eq!(failed.len(), 1, "{mode}: {failed:?}\n{text}");
        assert_eq!(failed[0].0, step, "{mode}: {text}");
        assert!(failed[0].2.contains(needle), "{mode}: {:?}", failed[0]);
    }
    let err = String::from_utf8_lossy(&bad.stderr);
    let last = err.lines().last().unwrap_or_default();
    assert!(last.contains("8 of 8 engines failed the check") && last.contains("crash-on-option (options)"), "{err}");

    // An engine that is neither a name nor a program: one line.
    let unknown = arena(&dir, &["check", "nobody"]);
    assert_eq!(unknown.status.code(), Some(2));
    let err = String::from_utf8_lossy(&unknown.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("unknown engine 'nobody'"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A program's path names an engine wherever engines are named on the
/// command line: it plays under that name, by its absolute path (so a
/// resume from another folder finds it), and a path to no program is one
/// line that creates no run.
#[test]
fn a_programs_path_plays_as_an_engine() {
    let dir = temp_dir("path-engine");
    std::fs::create_dir_all(dir.join("bin")).unwrap();
    std::fs::copy(FAKE, dir.join("bin/fake")).unwrap();
    let out =
        arena(&dir, &["match", "--a", "./bin/fake", "--b", "fhr", "--games", "2", "--tc", "nodes=300", "--quiet"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let show = stdout(&arena(&dir, &["show", "1"]));
    assert!(show.contains("engine ./bin/fake: ") && show.contains("./bin/fake vs fhr: 2 games"), "{show}");
    let config = stdout(&arena(&dir, &["show", "1", "--config"]));
    let absolute = std::fs::canonicalize(dir.join("bin/fake")).unwrap();
    assert!(config.contains(&format!("command = \"{}\"", absolute.display())), "{config}");
    let out = arena(&dir, &["match", "--a", "./bin/nothing", "--b", "fhr", "--games", "2", "--tc", "nodes=300"]);
    let error = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && error.trim().lines().count() == 1, "{error}");
    assert!(error.contains("./bin/nothing: no engine program there"), "{error}");
    assert_eq!(stdout(&arena(&dir, &["runs"])).lines().count(), 2, "no run for the bad path");
}
