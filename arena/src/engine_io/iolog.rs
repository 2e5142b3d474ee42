//! Engine I/O logs: every line the arena sends to an engine and every line
//! it reads back during one game, with the milliseconds since the game
//! started, kept in memory while the game runs (at most
//! [`FULL_LOG_BYTES`] of each engine's lines, then only its `bestmove`s,
//! so an engine that floods its output costs bounded memory) and
//! compressed once at its end into one gzip member.
//!
//! The members of a process's games of one run are appended to a few files
//! in `arena-logs/run-N/` ([`LogStore`]), not one file per game: making a
//! file per game cost more CPU than compressing it (BENCHMARKS.md,
//! "Throughput against c-chess-cli and fastchess"). A game's stored record names its file, offset and length
//! (`host:…/io-host-pid-1.log.gz@4096+2311`), `arena log RUN P.G` prints it,
//! and since concatenated members are one gzip stream, `zcat` reads a whole
//! file.
//!
//! A line reads `   1234 fhr > go wtime 1000 …` (to the engine) or
//! `   1301 fhr < bestmove e2e4` (from it). A `position` line that extends
//! the one sent to the same engine before is stored as `…` and the new
//! moves, and [`read`] gives the whole line back: the log grows with the
//! game's length instead of its square. Compression at gzip's fastest level
//! keeps a game to a few kilobytes (see BENCHMARKS.md).

use std::collections::{HashMap, VecDeque};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, LazyLock, Mutex};
use std::time::Instant;

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;

use crate::util::lock;

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
    /// The run's folder of logs.
    folder: PathBuf,
    /// The last `position` line sent to each engine.
    positions: Vec<(String, String)>,
    /// Per engine, what it wrote into the log.
    written: Vec<Written>,
}

/// What one engine wrote into a game's log.
#[derive(Debug)]
struct Written {
    engine: String,
    /// Bytes of its lines kept.
    bytes: usize,
    /// Lines it wrote that were left out since the last one kept.
    dropped: u64,
}

/// Marks a `position` line stored as the extension of the engine's previous one.
const CONTINUED: char = '…';

/// What a game's log keeps in full of one engine's lines. Past it, that
/// engine's lines are left out but for its `bestmove` (so the log still
/// shows every command and every answer, and a game's memory is bounded
/// whatever an engine prints); each gap is marked by a line saying how many
/// went. A game of the bundled engine writes about 1 KB a ply.
pub const FULL_LOG_BYTES: usize = 4 << 20;

/// Engines already warned of in this process for flooding a log.
static FLOODED: LazyLock<Mutex<std::collections::HashSet<String>>> = LazyLock::new(Mutex::default);

impl IoLog {
    /// An empty log of a game of the run whose logs go to `folder`.
    pub fn new(folder: PathBuf) -> IoLog {
        IoLog(Arc::new(Mutex::new(Inner {
            start: Instant::now(),
            text: Vec::with_capacity(64 * 1024),
            folder,
            positions: Vec::new(),
            written: Vec::new(),
        })))
    }

    /// Records `line` of `engine` going `direction`.
    pub fn line(&self, engine: &str, direction: Direction, line: &str) {
        let mut inner = lock(&self.0);
        let ms = u64::try_from(inner.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        let Inner { text, positions, written, .. } = &mut *inner;
        if direction == Direction::FromEngine {
            let written = match written.iter().position(|w| w.engine == engine) {
                Some(i) => &mut written[i],
                None => {
                    written.push(Written { engine: engine.to_string(), bytes: 0, dropped: 0 });
                    written.last_mut().expect("just pushed")
                }
            };
            if !written.keeps(line) {
                return;
            }
            if written.dropped > 0 {
                push_head(text, ms, engine, direction);
                let note = format!(
                    "[arena: {} lines of {engine} left out, its part of the game's log past {} MB]\n",
                    written.dropped,
                    FULL_LOG_BYTES >> 20
                );
                text.extend_from_slice(note.as_bytes());
                written.dropped = 0;
            }
            written.bytes += line.len();
        }
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

    /// Compresses the log and appends it to this process's file of the
    /// run ([`LogStore::append`]); `fault` says the game ended by an
    /// engine's fault (its log is never rotated away). Returns where it is,
    /// as a game's record names it: `HOST:FILE@OFFSET+LENGTH`.
    ///
    /// # Errors
    ///
    /// [`LogError::DiskFull`], or the I/O error of making the folder or
    /// appending to the file.
    pub fn store(&self, fault: bool) -> Result<String, LogError> {
        let inner = lock(&self.0);
        let failed = |source: std::io::Error| LogError::of(&inner.folder, source);
        let mut encoder = GzEncoder::new(Vec::with_capacity(inner.text.len() / 4), Compression::fast());
        encoder.write_all(&inner.text).map_err(failed)?;
        let member = encoder.finish().map_err(failed)?;
        let place = LogStore::of(&inner.folder).append(&member, fault).map_err(failed)?;
        Ok(format!("{}:{place}", crate::util::machine_name()))
    }
}

impl Written {
    /// Whether the engine's `line` goes into the log: every line while its
    /// part is below [`FULL_LOG_BYTES`], then only `bestmove`. A line left
    /// out is counted, and the first engine to fill its part in this
    /// process is named in one warning.
    fn keeps(&mut self, line: &str) -> bool {
        if self.bytes < FULL_LOG_BYTES || line.starts_with("bestmove") {
            return true;
        }
        self.dropped += 1;
        if lock(&FLOODED).insert(self.engine.clone()) {
            crate::term::warn(&format!(
                "{} writes more than a game's I/O log keeps ({} MB an engine): past that, its lines but `bestmove` are left out of the log (the game goes on; --no-io-log keeps none)",
                self.engine,
                FULL_LOG_BYTES >> 20
            ));
        }
        false
    }
}

/// Why a game's I/O log was not stored.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// No room left on the disk of the run's folder of logs: the run stops (see `run::disk`).
    #[error("disk full: free space where '{}' is stored, then resume the run (its unfinished pairs are replayed whole)", .0.display())]
    DiskFull(PathBuf),
    /// Any other failure: the game is kept without its log.
    #[error("cannot write an engine I/O log in {}", .0.display())]
    Io(PathBuf, #[source] std::io::Error),
}

impl LogError {
    fn of(folder: &Path, e: std::io::Error) -> LogError {
        if is_disk_full(&e) { LogError::DiskFull(folder.into()) } else { LogError::Io(folder.into(), e) }
    }
}

/// Fault-free games per file: a file is closed after this many, and the
/// oldest closed files beyond [`IO_LOGS_KEPT`] games are deleted.
const SEGMENT_GAMES: usize = 1_000;

/// I/O logs of games without a fault kept per run and process, at least
/// (every faulted game's log is kept): about 133 bytes per ply compressed,
/// so 10,000 games of 112 plies hold some 149 MB.
pub const IO_LOGS_KEPT: usize = 10_000;

/// Where one process appends the I/O logs of one run: fault-free games go
/// to `io-HOST-PID-K.log.gz`, a new `K` every [`SEGMENT_GAMES`] games, the
/// oldest deleted once more than [`IO_LOGS_KEPT`] games are closed; games
/// lost by an engine's fault go to `io-HOST-PID-faults.log.gz`, kept.
#[derive(Debug)]
pub struct LogStore {
    folder: PathBuf,
    stem: String,
    files: Mutex<Files>,
}

#[derive(Debug, Default)]
struct Files {
    /// The file fault-free games go to, and how many it holds.
    current: Option<(Appender, usize)>,
    /// The number of the next such file.
    next: u32,
    /// Closed files of fault-free games, oldest first.
    closed: VecDeque<PathBuf>,
    faults: Option<Appender>,
}

/// A file opened for appending, and its length.
#[derive(Debug)]
struct Appender {
    path: PathBuf,
    file: File,
    len: u64,
}

impl Appender {
    fn open(path: PathBuf) -> std::io::Result<Appender> {
        let file = std::fs::OpenOptions::new().create(true).append(true).open(&path)?;
        let len = file.metadata()?.len();
        Ok(Appender { path, file, len })
    }

    /// Appends `member`; returns `path@offset+length`. A failed write is
    /// cut off again, so the file holds whole members only.
    fn append(&mut self, member: &[u8]) -> std::io::Result<String> {
        let offset = self.len;
        if let Err(e) = self.file.write_all(member) {
            let _ = self.file.set_len(offset);
            return Err(e);
        }
        self.len += member.len() as u64;
        Ok(format!("{}@{offset}+{}", self.path.display(), member.len()))
    }
}

/// The stores of this process, one per run folder.
static STORES: LazyLock<Mutex<HashMap<PathBuf, Arc<LogStore>>>> = LazyLock::new(Mutex::default);

impl LogStore {
    /// This process's store for the run folder `folder`.
    pub fn of(folder: &Path) -> Arc<LogStore> {
        lock(&STORES)
            .entry(folder.to_path_buf())
            .or_insert_with(|| {
                Arc::new(LogStore {
                    folder: folder.to_path_buf(),
                    stem: format!("io-{}-{}", crate::util::sanitize(&crate::util::machine_name()), std::process::id()),
                    files: Mutex::default(),
                })
            })
            .clone()
    }

    /// Appends one game's gzip member; returns where it went.
    ///
    /// # Errors
    ///
    /// The I/O error of making the folder, opening or writing the file.
    pub fn append(&self, member: &[u8], fault: bool) -> std::io::Result<String> {
        let mut files = lock(&self.files);
        if fault {
            let faults = match &mut files.faults {
                Some(faults) => faults,
                None => files.faults.insert(self.open(&format!("{}-faults.log.gz", self.stem))?),
            };
            return faults.append(member);
        }
        if let Some((full, _)) = files.current.take_if(|(_, games)| *games >= SEGMENT_GAMES) {
            files.closed.push_back(full.path);
            while files.closed.len() * SEGMENT_GAMES > IO_LOGS_KEPT {
                if let Some(oldest) = files.closed.pop_front() {
                    let _ = std::fs::remove_file(oldest);
                }
            }
        }
        let (appender, games) = match &mut files.current {
            Some(current) => current,
            None => {
                files.next += 1;
                let appender = self.open(&format!("{}-{}.log.gz", self.stem, files.next))?;
                files.current.insert((appender, 0))
            }
        };
        let place = appender.append(member)?;
        *games += 1;
        Ok(place)
    }

    /// Opens `name` in the run's folder (made if needed) for appending.
    fn open(&self, name: &str) -> std::io::Result<Appender> {
        std::fs::create_dir_all(&self.folder)?;
        Appender::open(self.folder.join(name))
    }

    /// Deletes the files of fault-free games this process wrote for any
    /// run (on a full disk: they are expendable, the games' records are
    /// not). Later games start new files.
    pub fn drop_fault_free() {
        let stores: Vec<Arc<LogStore>> = lock(&STORES).values().cloned().collect();
        for store in stores {
            let mut files = lock(&store.files);
            let current = files.current.take().map(|(appender, _)| appender.path);
            for path in files.closed.drain(..).chain(current) {
                let _ = std::fs::remove_file(path);
            }
        }
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
fn is_disk_full(error: &std::io::Error) -> bool {
    const ENOSPC: i32 = 28;
    const EDQUOT: i32 = 122;
    error.kind() == std::io::ErrorKind::StorageFull || matches!(error.raw_os_error(), Some(ENOSPC | EDQUOT))
}

/// A game record's place of its log, `HOST:PATH`, as (host, path).
pub fn split_place(place: &str) -> (&str, &str) {
    place.split_once(':').unwrap_or(("", place))
}

/// The text of a written log: `place` is a record's path, either
/// `FILE@OFFSET+LENGTH` (one member of a file of logs) or a whole file (one
/// game per file, as older versions of arena wrote them).
///
/// # Errors
///
/// The I/O error of reading it, or bytes that are not gzip.
pub fn read(place: &str) -> std::io::Result<String> {
    let member = place.rsplit_once('@').and_then(|(path, range)| {
        let (offset, len) = range.split_once('+')?;
        Some((path, offset.parse::<u64>().ok()?, len.parse::<u64>().ok()?))
    });
    let mut text = String::new();
    match member {
        Some((path, offset, len)) => {
            let mut file = File::open(path)?;
            file.seek(SeekFrom::Start(offset))?;
            GzDecoder::new(file.take(len)).read_to_string(&mut text)?;
        }
        None => {
            GzDecoder::new(File::open(place)?).read_to_string(&mut text)?;
        }
    }
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

/// Per engine move of a game's log `text`, in order, the last line of the
/// engine's output during that search matching each of `patterns` (a
/// pattern nothing matched adds nothing), as fastchess's `-pgnout
/// match_line=` keeps them. A search is the engine's lines from a `go` to
/// its `bestmove`; a ponder search answered by `stop` played no move.
pub fn move_lines(text: &str, patterns: &[regex::Regex]) -> Vec<Vec<String>> {
    #[derive(Default)]
    struct Search<'t> {
        lines: Vec<&'t str>,
        pondering: bool,
        stopped: bool,
    }
    let mut searches: HashMap<&str, Search> = HashMap::new();
    let mut moves = Vec::new();
    for line in text.lines() {
        let Some((head, to, said)) = line.split_once(" > ").map(|(h, s)| (h, true, s)).or_else(|| {
            let (head, said) = line.split_once(" < ")?;
            Some((head, false, said))
        }) else {
            continue;
        };
        let Some((_, engine)) = head.trim_start().split_once(' ') else { continue };
        let search = searches.entry(engine).or_default();
        let word = said.split_whitespace().next().unwrap_or_default();
        match (to, word) {
            (true, "go") => {
                *search = Search { pondering: said.split_whitespace().any(|w| w == "ponder"), ..Search::default() };
            }
            (true, "ponderhit") => search.pondering = false,
            (true, "stop") => search.stopped = search.pondering,
            (false, "bestmove") => {
                if !search.stopped {
                    let found = patterns
                        .iter()
                        .filter_map(|p| search.lines.iter().rev().find(|l| p.is_match(l)).map(|l| (*l).to_string()))
                        .collect();
                    moves.push(found);
                }
                *search = Search::default();
            }
            (false, _) => search.lines.push(said),
            (true, _) => {}
        }
    }
    moves
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_flooding_engine_fills_the_log_to_its_bound_and_keeps_its_moves() {
        let dir = std::env::temp_dir().join(format!("arena-iolog-flood-{}", std::process::id())).join("run-1");
        let _ = std::fs::remove_dir_all(&dir);
        let log = IoLog::new(dir.clone());
        let info = "info depth 1 seldepth 1 score cp 0 nodes 1 nps 1 pv e2e4 e7e5 g1f3 b8c6 f1b5 a7a6";
        for ply in 0..3 {
            log.line("flood", Direction::ToEngine, "go nodes 10");
            for _ in 0..150_000 {
                log.line("flood", Direction::FromEngine, info);
            }
            log.line("calm", Direction::FromEngine, "info depth 1");
            log.line("flood", Direction::FromEngine, &format!("bestmove e2e{ply}"));
        }
        let held = lock(&log.0).text.len();
        assert!(held < FULL_LOG_BYTES * 5 / 4, "{held} bytes held");
        let text = read(&log.store(false).map(|place| split_place(&place).1.to_string()).unwrap()).unwrap();
        let kept = text.lines().filter(|l| l.ends_with(info)).count();
        assert!((FULL_LOG_BYTES / 100..150_000 * 3).contains(&kept), "{kept} info lines kept");
        for ply in 0..3 {
            assert!(text.contains(&format!(" flood < bestmove e2e{ply}\n")), "every move is kept");
        }
        let gaps: Vec<u64> = text
            .lines()
            .filter_map(|l| l.split_once("[arena: ")?.1.split_once(" lines of flood left out")?.0.parse().ok())
            .collect();
        assert_eq!(gaps.iter().sum::<u64>() + kept as u64, 450_000, "every line kept or counted: {gaps:?}");
        assert_eq!(text.lines().filter(|l| l.contains(" calm < info depth 1")).count(), 3, "the other engine's part");
        let _ = std::fs::remove_dir_all(dir.parent().unwrap());
    }

    #[test]
    fn lines_round_trip_through_the_file() {
        let dir = std::env::temp_dir().join(format!("arena-iolog-{}", std::process::id())).join("run-1");
        let _ = std::fs::remove_dir_all(&dir);
        let log = IoLog::new(dir.clone());
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
        // Another game's log before and after it in the same file.
        let other = |text: &str| {
            let log = IoLog::new(dir.clone());
            log.line("plain", Direction::FromEngine, text);
            log.store(false).map(|place| split_place(&place).1.to_string()).unwrap()
        };
        let before = other("before");
        let place = log.store(false).map(|place| split_place(&place).1.to_string()).unwrap();
        let after = other("after");
        let (path, range) = place.rsplit_once('@').unwrap();
        assert!(path.ends_with(&format!("run-1/{}-1.log.gz", LogStore::of(&dir).stem)), "{place}");
        assert!(LogStore::of(&dir).stem.ends_with(&format!("-{}", std::process::id())), "{place}");
        assert!(before.starts_with(path) && after.starts_with(path), "one file: {before} {place} {after}");
        assert!(before.contains("@0+"), "the first member at the start: {before}");
        let (offset, len) = range.split_once('+').unwrap();
        let mut raw = String::new();
        let bytes = std::fs::read(path).unwrap();
        let member = &bytes[offset.parse::<usize>().unwrap()..][..len.parse::<usize>().unwrap()];
        GzDecoder::new(member).read_to_string(&mut raw).unwrap();
        assert!(raw.contains(" fhr > … moves e2e4 e7e5\n") && raw.contains(" fhr > … g1f3\n"), "{raw}");
        let text = read(&place).unwrap();
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
        let lines: Vec<&str> = text.lines().take(2).collect();
        assert!(lines[0].ends_with(" fhr > go nodes 10") && lines[1].ends_with(" fhr < bestmove e2e4"), "{text}");
        assert!(
            read(&before).unwrap().ends_with(" plain < before\n")
                && read(&after).unwrap().ends_with(" plain < after\n")
        );
        // The file is one gzip stream of its members, as zcat reads it.
        let mut all = String::new();
        flate2::read::MultiGzDecoder::new(bytes.as_slice()).read_to_string(&mut all).unwrap();
        assert!(
            all.contains(" plain < before\n")
                && all.contains(" fhr < bestmove e2e4\n")
                && all.ends_with(" plain < after\n")
        );
        // A faulted game goes to a file of its own; a file of one game per log still reads.
        let fault = IoLog::new(dir.clone());
        fault.line("plain", Direction::FromEngine, "bestmove a1a1");
        let fault = fault.store(true).map(|place| split_place(&place).1.to_string()).unwrap();
        assert!(fault.contains("-faults.log.gz@0+"), "{fault}");
        let whole = dir.join("pair-1-game-1.log.gz");
        std::fs::write(&whole, member).unwrap();
        assert_eq!(read(whole.to_str().unwrap()).unwrap(), text);
        std::fs::write(dir.join("plain"), "not gzip").unwrap();
        assert!(read(dir.join("plain").to_str().unwrap()).is_err());
        assert!(read(&format!("{path}@1+5")).is_err(), "not the start of a member");
    }

    #[test]
    fn files_of_fault_free_games_are_rotated() {
        let dir = std::env::temp_dir().join(format!("arena-iolog-rotate-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = LogStore::of(&dir);
        let fault = store.append(b"fault", true).unwrap();
        let first = store.append(b"first", false).unwrap();
        for _ in 1..IO_LOGS_KEPT + SEGMENT_GAMES {
            store.append(b"x", false).unwrap();
        }
        let file = |place: &str| PathBuf::from(place.rsplit_once('@').unwrap().0);
        assert!(file(&first).exists(), "{} closed files of fault-free games kept", IO_LOGS_KEPT / SEGMENT_GAMES);
        let last = store.append(b"last", false).unwrap();
        assert!(!file(&first).exists(), "the oldest file goes once more are closed");
        assert!(file(&last).exists() && file(&fault).exists(), "faulted games are kept");
        let files = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(files, IO_LOGS_KEPT / SEGMENT_GAMES + 2, "ten closed, the current one, the faults");
        let _ = std::fs::remove_dir_all(&dir);
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
    #[test]
    fn move_lines_keep_the_last_match_of_each_search_and_skip_missed_ponders() {
        let text = "\
      0 a > go wtime 1000
      5 a < info depth 1 score cp 10
      9 a < info depth 2 score cp 12
     10 a < bestmove e2e4 ponder e7e5
     11 a > go ponder wtime 990
     12 b > go wtime 1000
     13 b < info depth 3 score cp -5
     14 b < bestmove d7d5
     15 a > stop
     16 a < info depth 7 score cp 99
     17 a < bestmove d2d4
     18 a > go wtime 980
     19 a < info string nothing
     20 a < bestmove c2c4
";
        let depth = regex::Regex::new(r"^info depth \d+").unwrap();
        let string = regex::Regex::new("string").unwrap();
        let lines = move_lines(text, &[depth, string]);
        assert_eq!(
            lines,
            vec![
                vec!["info depth 2 score cp 12".to_string()],
                vec!["info depth 3 score cp -5".to_string()],
                vec!["info string nothing".to_string()],
            ]
        );
    }
}
