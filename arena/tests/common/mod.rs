//! What the arena's integration tests share: the binaries under test, a
//! fresh folder per test, and running the `arena` command in it.

#![allow(dead_code)] // each test file uses its own part

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `arena` binary under test.
pub const ARENA: &str = env!("CARGO_BIN_EXE_arena");
/// The scripted engine.
pub const FAKE: &str = env!("CARGO_BIN_EXE_fake-engine");

/// An empty folder of its own for test `name` (the test binary's pid keeps
/// test binaries that run at once apart).
pub fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("arena-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `arena ARGS` in `dir`.
pub fn arena(dir: &Path, args: &[&str]) -> Output {
    Command::new(ARENA).args(args).current_dir(dir).output().unwrap()
}

/// Runs `arena ARGS` in `dir` and requires it to succeed.
pub fn arena_ok(dir: &Path, args: &[&str]) -> Output {
    let out = arena(dir, args);
    assert!(out.status.success(), "arena {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    out
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}
