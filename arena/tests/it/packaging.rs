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
