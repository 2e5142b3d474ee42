//! Engine I/O logs: every line the arena sends to an engine and every line
//! it reads back during one game, with the milliseconds since the game
//! started, kept in memory while the game runs and written once at its end
//! as one gzip file per game (`arena-logs/run-N/pair-P-game-G.log.gz`).
//! The game's stored record names the file, and `arena log RUN P.G` prints it.
//!
//! A line reads `   1234 fhr > go wtime 1000 …` (to the engine) or
//! `   1301 fhr < bestmove e2e4` (from it). A `position` line that extends
//! the one sent to the same engine before is stored as `…` and the new
//! moves, and [`read`] gives the whole line back: the file grows with the
//! game's length instead of its square. Compression at gzip's fastest level
//! keeps a game to a few kilobytes (see BENCHMARKS.md).

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
    /// The last `position` line sent to each engine.
    positions: Vec<(String, String)>,
}

/// Marks a `position` line stored as the extension of the engine's previous one.
const CONTINUED: char = '…';

impl IoLog {
    /// An empty log to be written to `path` (made `.log.gz`).
    pub fn new(path: PathBuf) -> IoLog {
        IoLog(Arc::new(Mutex::new(Inner {
            start: Instant::now(),
            text: Vec::with_capacity(64 * 1024),
            path,
            positions: Vec::new(),
        })))
    }

    /// Records `line` of `engine` going `direction`.
    pub fn line(&self, engine: &str, direction: Direction, line: &str) {
        let mut inner = lock(&self.0);
        let ms = u64::try_from(inner.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        let Inner { text, positions, .. } = &mut *inner;
        push_head(text, ms, engine, direction);
        if direction == Direction::ToEngine && line.starts_with("position ") {
            let previous = positions.iter().position(|(name, _)| name == engine);
            let extends = previous
                .map(|i| &positions[i].1)
                .filter(|before| line.len() > before.len() && line.starts_with(before.as_str()))
                .map(String::len);
            match extends {
                Some(len) => {
                    let mut mark = [0; 4];
                    text.extend_from_slice(CONTINUED.encode_utf8(&mut mark).as_bytes());
                    text.extend_from_slice(&line.as_bytes()[len..]);
                }
                None => text.extend_from_slice(line.as_bytes()),
            }
            text.push(b'\n');
            match previous {
                Some(i) => {
                    let before = &mut positions[i].1;
                    before.clear();
                    before.push_str(line);
                }
                None => positions.push((engine.to_string(), line.to_string())),
            }
            return;
        }
        text.extend_from_slice(line.as_bytes());
        text.push(b'\n');
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
        let written = (|| {
            let mut encoder = GzEncoder::new(std::fs::File::create(&partial)?, Compression::fast());
            encoder.write_all(&inner.text)?;
            encoder.finish()?;
            std::fs::rename(&partial, &inner.path)
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
        Ok(inner.path.clone())
    }

    /// The file the log goes to.
    pub fn path(&self) -> PathBuf {
        lock(&self.0).path.clone()
    }

    /// The folder the log goes to.
    pub fn folder(&self) -> PathBuf {
        lock(&self.0).path.parent().map(Path::to_path_buf).unwrap_or_default()
    }
}

/// Appends a line's head, `{ms:>7} {engine} {arrow} `, as `writeln!` would
/// write it but without the formatting machinery (a few lines per ply; see
/// BENCHMARKS.md).
fn push_head(text: &mut Vec<u8>, ms: u64, engine: &str, direction: Direction) {
    let mut digits = [b' '; 20];
    let mut at = digits.len();
    let mut rest = ms;
    loop {
        at -= 1;
        // The remainder is below 10: the cast cannot truncate.
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    text.extend_from_slice(&digits[at.min(digits.len() - 7)..]);
    text.push(b' ');
    text.extend_from_slice(engine.as_bytes());
    text.extend_from_slice(if direction == Direction::ToEngine { b" > " } else { b" < " });
}

/// Whether `error` says the disk (or the user's quota) is full.
pub fn is_disk_full(error: &std::io::Error) -> bool {
    const ENOSPC: i32 = 28;
    const EDQUOT: i32 = 122;
    error.kind() == std::io::ErrorKind::StorageFull || matches!(error.raw_os_error(), Some(ENOSPC | EDQUOT))
}

/// The text of a written log.
///
/// # Errors
///
/// The I/O error of reading it, or a file that is not gzip.
pub fn read(path: &Path) -> std::io::Result<String> {
    let mut text = String::new();
    GzDecoder::new(std::fs::File::open(path)?).read_to_string(&mut text)?;
    Ok(expand(&text))
}

/// The stored text with each continued `position` line whole again.
fn expand(text: &str) -> String {
    let mut positions: Vec<(String, String)> = Vec::new();
    let mut out = String::with_capacity(text.len() * 4);
    for line in text.lines() {
        let whole = line.split_once(" > ").and_then(|(head, sent)| {
            let engine = head.trim_start().split_once(' ')?.1.to_string();
            let full = match sent.strip_prefix(CONTINUED) {
                Some(rest) => {
                    let before = positions.iter().find(|(name, _)| *name == engine)?.1.clone();
                    format!("{before}{rest}")
                }
                None if sent.starts_with("position ") => sent.to_string(),
                None => return None,
            };
            match positions.iter_mut().find(|(name, _)| *name == engine) {
                Some(entry) => entry.1 = full.clone(),
                None => positions.push((engine, full.clone())),
            }
            Some(format!("{head} > {full}"))
        });
        out += whole.as_deref().unwrap_or(line);
        out.push('\n');
    }
    out
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
        for (engine, line) in [
            ("fhr", "position startpos"),
            ("plain", "position startpos moves e2e4"),
            ("fhr", "position startpos moves e2e4 e7e5"),
            ("fhr", "position startpos moves e2e4 e7e5 g1f3"),
            ("fhr", "position fen 8/8/8/8/8/8/8/K6k w - - 0 1"),
        ] {
            log.line(engine, Direction::ToEngine, line);
        }
        let path = log.finish().unwrap();
        let mut raw = String::new();
        GzDecoder::new(std::fs::File::open(&path).unwrap()).read_to_string(&mut raw).unwrap();
        assert!(raw.contains(" fhr > … moves e2e4 e7e5\n") && raw.contains(" fhr > … g1f3\n"), "{raw}");
        let text = read(&path).unwrap();
        let sent: Vec<&str> = text.lines().skip(2).map(|l| l.split_once(" > ").unwrap().1).collect();
        assert_eq!(
            sent,
            [
                "position startpos",
                "position startpos moves e2e4",
                "position startpos moves e2e4 e7e5",
                "position startpos moves e2e4 e7e5 g1f3",
                "position fen 8/8/8/8/8/8/8/K6k w - - 0 1"
            ],
            "every line whole again"
        );
        let text: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2, "{text}");
        assert!(lines[0].ends_with(" fhr > go nodes 10") && lines[1].ends_with(" fhr < bestmove e2e4"), "{text}");
        assert!(!path.with_extension("gz.partial").exists());
        std::fs::write(dir.join("plain"), "not gzip").unwrap();
        assert!(read(&dir.join("plain")).is_err());
    }

    #[test]
    fn line_heads_are_written_as_format_writes_them() {
        for ms in [0, 7, 10, 999_999, 1_000_000, 9_999_999, 10_000_000, 123_456_789_012, u64::MAX] {
            for (direction, arrow) in [(Direction::ToEngine, '>'), (Direction::FromEngine, '<')] {
                let mut text = Vec::new();
                push_head(&mut text, ms, "fhr", direction);
                assert_eq!(String::from_utf8(text).unwrap(), format!("{ms:>7} fhr {arrow} "));
            }
        }
    }
}
