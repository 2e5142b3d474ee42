//! Engine I/O logs: every line the arena sends to an engine and every line
//! it reads back during one game, with the milliseconds since the game
//! started, kept in memory while the game runs and written once at its end
//! as one gzip file per game (`arena-logs/run-N/pair-P-game-G.log.gz`).
//! The game's stored record names the file, and `arena log RUN P.G` prints it.
//!
//! A line reads `   1234 fhr > go wtime 1000 …` (to the engine) or
//! `   1301 fhr < bestmove e2e4` (from it). Compression at gzip's fastest
//! level keeps a game to a few kilobytes (see BENCHMARKS.md).

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;

use crate::work::stop::lock;

/// Which way a line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Sent to the engine.
    ToEngine,
    /// Read from the engine.
    FromEngine,
}

/// The log of one game, shared by its two players' processes.
#[derive(Clone, Debug)]
pub struct IoLog(Arc<Mutex<Inner>>);

#[derive(Debug)]
struct Inner {
    start: Instant,
    text: Vec<u8>,
    path: PathBuf,
}

impl IoLog {
    /// An empty log to be written to `path` (made `.log.gz`).
    pub fn new(path: PathBuf) -> IoLog {
        IoLog(Arc::new(Mutex::new(Inner { start: Instant::now(), text: Vec::with_capacity(64 * 1024), path })))
    }

    /// Records `line` of `engine` going `direction`.
    pub fn line(&self, engine: &str, direction: Direction, line: &str) {
        let mut inner = lock(&self.0);
        let ms = inner.start.elapsed().as_millis();
        let arrow = if direction == Direction::ToEngine { '>' } else { '<' };
        let _ = writeln!(inner.text, "{ms:>7} {engine} {arrow} {line}");
    }

    /// Writes the log (gzip, through a temporary file renamed into place)
    /// and returns its path.
    ///
    /// # Errors
    ///
    /// The I/O error of creating, writing or renaming the file.
    pub fn finish(&self) -> std::io::Result<PathBuf> {
        let inner = lock(&self.0);
        if let Some(folder) = inner.path.parent() {
            std::fs::create_dir_all(folder)?;
        }
        let partial = inner.path.with_extension("gz.partial");
        let mut encoder = GzEncoder::new(std::fs::File::create(&partial)?, Compression::fast());
        encoder.write_all(&inner.text)?;
        encoder.finish()?;
        std::fs::rename(&partial, &inner.path)?;
        Ok(inner.path.clone())
    }
}

/// The text of a written log.
///
/// # Errors
///
/// The I/O error of reading it, or a file that is not gzip.
pub fn read(path: &Path) -> std::io::Result<String> {
    let mut text = String::new();
    GzDecoder::new(std::fs::File::open(path)?).read_to_string(&mut text)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_through_the_file() {
        let dir = std::env::temp_dir().join(format!("arena-iolog-{}", std::process::id()));
        let log = IoLog::new(dir.join("run-1/pair-1-game-2.log.gz"));
        log.line("fhr", Direction::ToEngine, "go nodes 10");
        log.clone().line("fhr", Direction::FromEngine, "bestmove e2e4");
        let path = log.finish().unwrap();
        let text = read(&path).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].ends_with(" fhr > go nodes 10") && lines[1].ends_with(" fhr < bestmove e2e4"), "{text}");
        assert!(!path.with_extension("gz.partial").exists());
        std::fs::write(dir.join("plain"), "not gzip").unwrap();
        assert!(read(&dir.join("plain")).is_err());
    }
}
