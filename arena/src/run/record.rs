//! A run's records: its games written out as PGN (`--pgn`, `arena pgn`,
//! a tool's `-pgnout`), its moves as CSV (`arena moves`) and its final
//! positions as EPD (`--epdout`), and the flags that ask for them. A match
//! on SQLite writes its PGN while it plays ([`LivePgn`], following
//! [`super::Events`]), so the file is ready when the last game ends
//! instead of being exported after it.

use std::io::Write;
use std::path::{Path, PathBuf};

use db::{Db, MoveFields, StoredMoves};
use model::{GameRow, Spec, TimeControl, Variant};
use reports::pgn::{Context, Level, write_game};

use db::DbError;

/// Why a record could not be written.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Reading the games failed.
    #[error(transparent)]
    Db(#[from] DbError),
    /// A file or stream could not be written (`what`: a path, or `to the PGN output`).
    #[error("cannot write {what}: {source}")]
    Write {
        /// What was written.
        what: String,
        /// Why not.
        #[source]
        source: std::io::Error,
    },
    /// A PGN file holds games this run did not write.
    #[error("{what} holds {bytes} bytes already: give --pgn a new file, or remove this one to replace it")]
    Holds {
        /// The file.
        what: String,
        /// Its size.
        bytes: u64,
    },
    /// A record's file cannot be opened before the run.
    #[error("cannot write {what}: {source} (give a file in a folder that exists and is writable)")]
    Cannot {
        /// The file.
        what: String,
        /// Why not.
        #[source]
        source: std::io::Error,
    },
    /// The task reading the games ended abnormally.
    #[error("reading the games failed: {0}")]
    Reading(#[source] tokio::task::JoinError),
    /// A thread formatting games ended abnormally.
    #[error("formatting a page of games failed")]
    Formatting,
}

impl RecordError {
    /// A write to `what` that failed.
    fn write(what: impl std::fmt::Display) -> impl Fn(std::io::Error) -> RecordError {
        let what = what.to_string();
        move |source| RecordError::Write { what: what.clone(), source }
    }
}

type RecordResult<T = ()> = Result<T, RecordError>;

/// The tags a run's games share in its PGN, and how much each move says.
struct PgnFormat {
    event: String,
    site: String,
    time_control: String,
    variant: Variant,
    level: Level,
    /// `--pgn-match-line`.
    patterns: Vec<regex::Regex>,
    conventions: reports::pgn::Conventions,
    /// Games in the file already, by Round, White and Black.
    written: std::collections::HashSet<[String; 3]>,
    /// Games whose I/O log could not be read for `patterns`.
    unread_logs: std::sync::atomic::AtomicU64,
}

impl PgnFormat {
    /// The format of run `run`'s games in `style`.
    async fn of(db: &Db, run: i64, style: &PgnStyle) -> RecordResult<PgnFormat> {
        let info = db.run(run).await?;
        let (tc, variant) = match Spec::of(&info) {
            // PGN's `?`: unknown (games played elsewhere, imported).
            Ok(Spec::Games(spec)) => {
                (Some(spec.tc.as_ref().map_or_else(|| "?".into(), TimeControl::pgn_tag)), spec.variant)
            }
            _ => (None, Variant::Standard),
        };
        let event = style.event.clone().unwrap_or_else(|| format!("arena run {run} ({})", info.kind));
        let written = style
            .written
            .iter()
            .filter(|[written_event, ..]| *written_event == event)
            .map(|[_, round, white, black]| [round.clone(), white.clone(), black.clone()])
            .collect();
        Ok(PgnFormat {
            event,
            written,
            site: style.site.clone().unwrap_or(info.machine),
            time_control: tc.unwrap_or_else(|| "-".to_string()),
            variant,
            level: style.level,
            patterns: style.patterns.clone(),
            conventions: style.conventions,
            unread_logs: std::sync::atomic::AtomicU64::new(0),
        })
    }

    /// The fields of each move the PGN reads: all of them at the full
    /// level and for fields chosen one by one (nodes, seldepth, nps, clock
    /// and PV are not among the normal level's).
    fn fields(&self) -> MoveFields {
        match self.level {
            Level::Full | Level::Fields(_) => MoveFields::All,
            Level::Min | Level::Normal => MoveFields::Pgn,
        }
    }

    /// Appends `game` to `text`.
    fn write(&self, text: &mut String, game: &GameRow) {
        let round = format!("{}.{}", game.pair_index + 1, game.game_in_pair + 1);
        if !self.written.is_empty()
            && self.written.contains(&[round.clone(), game.record.white.clone(), game.record.black.clone()])
        {
            return;
        }
        let lines = self.engine_lines(game);
        let context = Context {
            event: &self.event,
            site: &self.site,
            round,
            time_control: &self.time_control,
            variant: self.variant,
            level: self.level,
            lines: &lines,
            conventions: self.conventions,
        };
        write_game(text, &game.record, &context);
    }

    /// Per engine move of `game`, its lines matching `--pgn-match-line`,
    /// read from the game's I/O log (none without patterns).
    fn engine_lines(&self, game: &GameRow) -> Vec<Vec<String>> {
        if self.patterns.is_empty() {
            return Vec::new();
        }
        let text = game
            .record
            .io_log
            .as_deref()
            .and_then(|place| crate::engine_io::iolog::read(crate::engine_io::iolog::split_place(place).1).ok());
        match text {
            Some(text) => crate::engine_io::iolog::move_lines(&text, &self.patterns),
            None => {
                self.unread_logs.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Vec::new()
            }
        }
    }

    /// Says once how many games' moves lack their `--pgn-match-line` lines.
    fn warn_of_unread_logs(&self) {
        let unread = self.unread_logs.swap(0, std::sync::atomic::Ordering::Relaxed);
        if unread > 0 {
            crate::term::warn(&format!(
                "{unread} games have no I/O log here (played elsewhere, with --no-io-log, or rotated away): their moves have no line= in the PGN"
            ));
        }
    }
}

/// Writes a run's games as PGN to `out` in `style`; returns how many.
pub async fn stream_pgn(db: &Db, run: i64, out: &mut impl Write, style: &PgnStyle) -> RecordResult<u64> {
    let format = PgnFormat::of(db, run, style).await?;
    let mut count = 0;
    let pgn = |game: &GameRow, text: &mut String| format.write(text, game);
    export_pages(db, run, "writing PGN", &Format { write: &pgn, fields: format.fields() }, |page| {
        count += page.games;
        page.write_to(out).map_err(RecordError::write("to the PGN output"))
    })
    .await?;
    format.warn_of_unread_logs();
    Ok(count)
}

/// The columns of `arena moves`: a row per engine move, as the view
/// `moves` had them, with the game as the PGN's Round tag names it.
const MOVE_COLUMNS: &str =
    "game_id,game,ply,uci,san,time_ms,clock_ms,score_cp,score_mate,depth,seldepth,nodes,nps,pv,latency_ms,engine_ms";

/// Writes a run's moves as CSV (RFC 4180: a field with a comma, quote or
/// line break quoted) to `out`; returns how many games.
pub async fn stream_moves_csv(db: &Db, run: i64, out: &mut impl Write) -> RecordResult<u64> {
    let mut count = 0;
    let cannot = RecordError::write("to the CSV output");
    out.write_all(format!("{MOVE_COLUMNS}\n").as_bytes()).map_err(&cannot)?;
    export_pages(db, run, "writing moves", &Format { write: &write_moves_csv, fields: MoveFields::All }, |page| {
        count += page.games;
        page.write_to(out).map_err(&cannot)
    })
    .await?;
    Ok(count)
}

/// One game's rows of [`stream_moves_csv`].
fn write_moves_csv(game: &GameRow, text: &mut String) {
    use std::fmt::Write as _;
    let number = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
    let signed = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_default();
    for (ply, m) in game.record.moves.iter().enumerate() {
        let _ = write!(text, "{},{}.{},{ply},", game.id, game.pair_index + 1, game.game_in_pair + 1);
        csv_field(text, &m.uci);
        text.push(',');
        csv_field(text, &m.san);
        let _ = write!(
            text,
            ",{},{},{},{},{},{},{},{},",
            m.time_ms,
            m.clock_ms,
            signed(m.score_cp),
            signed(m.score_mate),
            number(m.depth),
            number(m.seldepth),
            number(m.nodes),
            number(m.nps)
        );
        csv_field(text, &m.pv);
        let _ = writeln!(text, ",{},{}", number(m.latency_ms), number(m.engine_ms));
    }
}

/// A CSV field: quoted, with quotes doubled, when it holds a comma, a quote
/// or a line break (engine output is kept as it came).
fn csv_field(text: &mut String, field: &str) {
    if field.contains([',', '"', '\n', '\r']) {
        text.push('"');
        text.push_str(&field.replace('"', "\"\""));
        text.push('"');
    } else {
        text.push_str(field);
    }
}

/// How one game is written into an export's text, and which fields of its
/// moves that reads.
struct Format<'a> {
    write: &'a (dyn Fn(&GameRow, &mut String) + Sync),
    fields: MoveFields,
}

/// A page of games as an export writes them: `texts` in turn hold `games`
/// games, the last of id `last`.
struct Formatted {
    texts: Vec<String>,
    games: u64,
    last: i64,
}

impl Formatted {
    /// Writes the page's text to `out`.
    fn write_to(&self, out: &mut impl Write) -> std::io::Result<()> {
        self.texts.iter().try_for_each(|text| out.write_all(text.as_bytes()))
    }
}

/// Calls `write` with every game of a run formatted by `format`, a page at
/// a time, counting them on the live line as `label`.
async fn export_pages(
    db: &Db,
    run: i64,
    label: &str,
    format: &Format<'_>,
    mut write: impl FnMut(&Formatted) -> RecordResult<()>,
) -> RecordResult<()> {
    let games = u64::try_from(db.run(run).await?.games).unwrap_or(0);
    let mut meter = crate::term::Meter::new(label, "games", 0, games, true);
    let written = for_each_page(db, run, 0, None, format, |page| {
        write(page)?;
        meter.advance(page.games, "");
        Ok(())
    })
    .await;
    meter.finish();
    written.map(|_| ())
}

/// Calls `write` with a run's games with id above `after` (and at most
/// `until`, when given) formatted by `format`, a page at a time, in id
/// order; returns the last id written. One query streams the games, read
/// up to two pages ahead; a page is decoded and formatted on every core
/// (each thread its chunks, its moves read into one reused vector), while
/// this thread writes the page before.
async fn for_each_page(
    db: &Db,
    run: i64,
    after: i64,
    until: Option<i64>,
    format: &Format<'_>,
    mut write: impl FnMut(&Formatted) -> RecordResult<()>,
) -> RecordResult<i64> {
    const PAGE: usize = 1000;
    let (sender, mut pages) = tokio::sync::mpsc::channel(2);
    let reading = {
        let db = db.clone();
        tokio::spawn(async move { db.send_stored_pages(run, after, until, PAGE, sender).await })
    };
    let mut last_written = after;
    let mut formatted: Option<Formatted> = None;
    let mut write_formatted = |formatted: &mut Option<Formatted>| -> RecordResult<()> {
        if let Some(page) = formatted.take() {
            write(&page)?;
            last_written = page.last;
        }
        Ok(())
    };
    while let Some(page) = pages.recv().await {
        let this = format_page(run, page, format, || write_formatted(&mut formatted))?;
        formatted = Some(this);
    }
    // What was read before a failure is written before it is told.
    write_formatted(&mut formatted)?;
    reading.await.map_err(RecordError::Reading)??;
    Ok(last_written)
}

/// Games a thread formats at a time: a page's chunks are taken in turn by
/// every thread, so that none waits with the page half done while another,
/// sharing its core with the database's reads, has a share left.
const FORMAT_CHUNK: usize = 64;

/// A page's games decoded and formatted, on as many threads as there are
/// cores; this thread calls `meanwhile` before it formats its chunks.
fn format_page(
    run: i64,
    page: Vec<(GameRow, StoredMoves)>,
    format: &Format<'_>,
    meanwhile: impl FnOnce() -> RecordResult<()>,
) -> RecordResult<Formatted> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let last = page.last().map_or(0, |(game, _)| game.id);
    let games = page.len() as u64;
    let mut chunks = Vec::new();
    let mut rest = page;
    while rest.len() > FORMAT_CHUNK {
        let tail = rest.split_off(FORMAT_CHUNK);
        chunks.push(Mutex::new(rest));
        rest = tail;
    }
    chunks.push(Mutex::new(rest));
    let texts: Vec<Mutex<RecordResult<String>>> = chunks.iter().map(|_| Mutex::new(Ok(String::new()))).collect();
    let taken = AtomicUsize::new(0);
    let work = || {
        let mut moves = Vec::new();
        loop {
            let i = taken.fetch_add(1, Ordering::Relaxed);
            let Some(chunk) = chunks.get(i) else { return };
            let chunk = std::mem::take(&mut *chunk.lock().unwrap_or_else(std::sync::PoisonError::into_inner));
            let text = format_chunk(run, chunk, format, &mut moves);
            *texts[i].lock().unwrap_or_else(std::sync::PoisonError::into_inner) = text;
        }
    };
    std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads.min(chunks.len())).map(|_| scope.spawn(work)).collect();
        let written = meanwhile();
        work();
        for other in others {
            other.join().map_err(|_| RecordError::Formatting)?;
        }
        written
    })?;
    let texts = texts
        .into_iter()
        .map(|text| text.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner))
        .collect::<RecordResult<Vec<String>>>()?;
    Ok(Formatted { texts, games, last })
}

/// A chunk of games decoded and formatted into one text, their moves read
/// into `moves` in turn.
fn format_chunk(
    run: i64,
    chunk: Vec<(GameRow, StoredMoves)>,
    format: &Format<'_>,
    moves: &mut Vec<model::MoveRecord>,
) -> RecordResult<String> {
    let mut text = String::with_capacity(chunk.len() * 4096);
    for (mut game, stored) in chunk {
        game.record.moves = std::mem::take(moves);
        stored.read_fields_into(&mut game.record, format.fields).map_err(|source| db::DbError::Moves {
            run,
            game: game.id,
            source,
        })?;
        (format.write)(&game, &mut text);
        *moves = std::mem::take(&mut game.record.moves);
    }
    Ok(text)
}

/// Writes a run's games to `path`; returns how many.
pub async fn write_pgn(db: &Db, run: i64, path: &Path, style: &PgnStyle, append: bool) -> RecordResult<u64> {
    let file = open_record(path, append).map_err(RecordError::write(path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let games = stream_pgn(db, run, &mut out, style).await?;
    out.flush().map_err(RecordError::write(path.display()))?;
    Ok(games)
}

/// The games of the PGN file at `path` by their Event, Round, White and
/// Black tags (none when it cannot be read): what a continued run does not
/// write again.
pub fn games_in(path: &Path) -> std::collections::HashSet<[String; 4]> {
    let mut games = std::collections::HashSet::new();
    let Ok(file) = std::fs::File::open(path) else { return games };
    let mut tags: [String; 4] = Default::default();
    for line in std::io::BufRead::lines(std::io::BufReader::new(file)).map_while(Result::ok) {
        let Some(rest) = line.strip_prefix('[') else { continue };
        let Some((name, value)) = rest.split_once(" \"") else { continue };
        let value = value.trim_end_matches("\"]").replace("\\\"", "\"").replace("\\\\", "\\");
        match name {
            "Event" => tags = [value, String::new(), String::new(), String::new()],
            "Round" => tags[1] = value,
            "White" => tags[2] = value,
            "Black" => {
                tags[3] = value;
                games.insert(tags.clone());
            }
            _ => {}
        }
    }
    games
}

/// What a printer of a local run's games waits on: a change for each pair
/// stored (see [`crate::run::Events`]).
pub type Follow = tokio::sync::watch::Receiver<u64>;

/// A match's PGN written while it plays: as each pair is stored, the games
/// that are final (see [`Db::final_games_until`]) are appended to the file,
/// so it can be followed (`tail -f`) as cutechess's can; when the run ends
/// here the rest follow. The file is then byte for byte what `arena pgn`
/// writes. A run that fails keeps the games written so far (`arena resume`
/// writes the file whole again).
pub struct LivePgn {
    /// A connection of its own (see [`Db::reader`]).
    db: Db,
    format: PgnFormat,
    path: PathBuf,
    out: std::io::BufWriter<std::fs::File>,
    run: i64,
    /// The last game id written.
    after: i64,
    count: u64,
}

impl LivePgn {
    /// A live PGN of run `run` to `path`; `None` on PostgreSQL, where games
    /// are written when the run ends.
    pub async fn create(
        db: &Db,
        run: i64,
        path: &Path,
        style: &PgnStyle,
        append: bool,
    ) -> RecordResult<Option<LivePgn>> {
        if db.is_shared() {
            return Ok(None);
        }
        let format = PgnFormat::of(db, run, style).await?;
        let db = db.reader().await?;
        let file = open_record(path, append).map_err(RecordError::write(path.display()))?;
        Ok(Some(LivePgn {
            db,
            format,
            path: path.to_path_buf(),
            // Small: each append reaches the file at once.
            out: std::io::BufWriter::with_capacity(64 * 1024, file),
            run,
            after: 0,
            count: 0,
        }))
    }

    /// Runs `playing` while appending the games that become final, each
    /// time `events` says a pair was stored. A failure to read or write
    /// stops the appending; [`LivePgn::finish`] tries the rest again and
    /// reports it.
    pub async fn follow<T>(&mut self, events: Follow, playing: impl Future<Output = T>) -> T {
        let step = async || -> Result<(), ()> {
            let until = self.db.final_games_until(self.run).await.map_err(drop)?;
            self.append(until).await.map_err(drop)
        };
        crate::util::while_playing(playing, events, step).await.0
    }

    /// Appends the games after the last written, up to `until` (all when
    /// `None`), and flushes them to the file. A failure midway keeps what
    /// was written, and the next call goes on after it.
    async fn append(&mut self, until: Option<i64>) -> RecordResult<()> {
        if until.is_some_and(|until| until <= self.after) {
            return Ok(());
        }
        let LivePgn { db, format, out, path, after, count, run } = self;
        let cannot = RecordError::write(path.display());
        let pgn = |game: &GameRow, text: &mut String| format.write(text, game);
        let pgn = Format { write: &pgn, fields: format.fields() };
        for_each_page(db, *run, *after, until, &pgn, |page| {
            page.write_to(out).map_err(&cannot)?;
            *after = page.last;
            *count += page.games;
            Ok(())
        })
        .await?;
        out.flush().map_err(&cannot)
    }

    /// Appends the rest of the run's games; returns how many games the file holds.
    pub async fn finish(mut self) -> RecordResult<u64> {
        self.append(None).await?;
        self.format.warn_of_unread_logs();
        self.db.close().await;
        Ok(self.count)
    }
}

/// Writes each game's final position to `path` as EPD (the position, its
/// move counters, the game as `id` and its players and result as `c0`);
/// returns how many.
pub async fn write_epd(db: &Db, run: i64, path: &Path) -> RecordResult<u64> {
    let cannot = RecordError::write(path.display());
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).map_err(&cannot)?);
    let mut count = 0;
    let epd = |game: &GameRow, text: &mut String| {
        let record = &game.record;
        let fen = openings::fen_of(&crate::game::final_position(record));
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let quote = |s: &str| s.replace(['"', ';'], "'");
        *text += &format!(
            "{} hmvc {}; fmvn {}; id \"arena run {run} pair {} game {}\"; c0 \"{} - {} {} ({})\";\n",
            fields[..4].join(" "),
            fields.get(4).unwrap_or(&"0"),
            fields.get(5).unwrap_or(&"1"),
            game.pair_index + 1,
            game.game_in_pair + 1,
            quote(&record.white),
            quote(&record.black),
            record.result.pgn(),
            record.termination.as_str()
        );
    };
    export_pages(db, run, "writing final positions", &Format { write: &epd, fields: MoveFields::All }, |page| {
        count += page.games;
        page.write_to(&mut out).map_err(&cannot)
    })
    .await?;
    out.flush().map_err(&cannot)?;
    Ok(count)
}

/// What the PGN of a run's games holds besides the moves, as the flags of
/// every front end resolve it (`--pgn-level`, `--event`, `--site`,
/// `--pgn-match-line`; a tool's `-pgnout`, `-event`, `-site`).
#[derive(Debug, Clone, Default)]
pub struct PgnStyle {
    /// How much each move's comment says.
    level: Level,
    /// The Event tag (default: "arena run N (kind)").
    event: Option<String>,
    /// The Site tag (default: the machine that created the run).
    site: Option<String>,
    /// `--pgn-match-line`: the engine's output lines added to each move's comment.
    patterns: Vec<regex::Regex>,
    /// Whose PGN conventions: arena's, or those of the tool whose command
    /// line ran (`arena fastchess`, `arena cutechess`).
    conventions: reports::pgn::Conventions,
    /// Games the file holds already, by Event, Round, White and Black: a
    /// game of the run with the same tags is not written again (a tool's
    /// run continued into the file it was writing); filled in by
    /// [`super::life::play_recorded`] from the file itself.
    written: std::sync::Arc<std::collections::HashSet<[String; 4]>>,
}

impl PgnStyle {
    /// A PGN at `level`, with these tags (`None`: arena's defaults) and
    /// output lines, in arena's conventions.
    pub fn new(level: Level, event: Option<String>, site: Option<String>, patterns: Vec<regex::Regex>) -> PgnStyle {
        PgnStyle { level, event, site, patterns, ..PgnStyle::default() }
    }

    /// The same PGN in a tool's conventions.
    #[must_use]
    pub fn in_conventions(self, conventions: reports::pgn::Conventions) -> PgnStyle {
        PgnStyle { conventions, ..self }
    }

    /// The same PGN, leaving out the games `written` names.
    pub(super) fn without(self, written: std::collections::HashSet<[String; 4]>) -> PgnStyle {
        PgnStyle { written: std::sync::Arc::new(written), ..self }
    }
}

/// Where a run's games are written when it ends here (`--pgn`,
/// `--epdout`, a tool's `-pgnout`, `-epdout`) and the PGN's style: what
/// every front end's flags resolve to.
#[derive(Debug, Clone, Default)]
pub struct Records {
    /// The PGN file.
    pub(super) pgn: Option<std::path::PathBuf>,
    /// The final positions' EPD file.
    pub(super) epdout: Option<std::path::PathBuf>,
    /// How the PGN's games are written.
    pub(super) style: PgnStyle,
    /// The PGN file is appended to, as fastchess's and cutechess-cli's
    /// `-pgnout` do; arena's own `--pgn` writes a file of its own.
    pub(super) append: bool,
    /// The run is continued (fastchess's `-config file=`) into the file it
    /// was appending to, which holds some of its games already: the rest
    /// are added.
    pub(super) continued: bool,
}

impl Records {
    /// Games written to `pgn` (a file of the run's own) and final positions
    /// to `epdout`, where given.
    pub fn new(pgn: Option<std::path::PathBuf>, epdout: Option<std::path::PathBuf>, style: PgnStyle) -> Records {
        Records { pgn, epdout, style, append: false, continued: false }
    }

    /// The same records, the PGN file appended to (a tool's `-pgnout`).
    #[must_use]
    pub fn appended(self) -> Records {
        Records { append: true, ..self }
    }

    /// The same records for a run continued into the file it was appending
    /// to: the games the file holds already are not written again.
    #[must_use]
    pub fn continued(self) -> Records {
        Records { continued: self.append, ..self }
    }

    /// The PGN file, if asked for.
    pub fn pgn(&self) -> Option<&Path> {
        self.pgn.as_deref()
    }

    /// The EPD file, if asked for.
    pub fn epdout(&self) -> Option<&Path> {
        self.epdout.as_deref()
    }
}

impl Records {
    /// Opens the output files now, so that a path that cannot be written is
    /// refused in one line before the run starts, not after it. A PGN file
    /// that already holds something is appended to ([`Records::appended`]),
    /// written again when `rewrite` (`arena resume` writes its run's file
    /// whole again), and otherwise refused: a run never overwrites games it
    /// did not write.
    ///
    /// # Errors
    ///
    /// [`RecordError`] naming the file and the reason.
    pub fn check(&self, rewrite: bool) -> RecordResult {
        let cannot = |path: &std::path::Path, source: std::io::Error| RecordError::Cannot {
            what: path.display().to_string(),
            source,
        };
        if let Some(path) = &self.pgn {
            let held = std::fs::metadata(path).map_or(0, |m| m.len());
            if held > 0 && !self.append && !rewrite {
                return Err(RecordError::Holds { what: path.display().to_string(), bytes: held });
            }
            open_record(path, self.append).map_err(|e| cannot(path, e))?;
        }
        if let Some(path) = &self.epdout {
            std::fs::File::create(path).map_err(|e| cannot(path, e))?;
        }
        Ok(())
    }
}

/// `path` opened for writing a run's records: appended to with `append`,
/// else emptied first.
///
/// # Errors
///
/// The file cannot be opened so.
pub fn open_record(path: &std::path::Path, append: bool) -> std::io::Result<std::fs::File> {
    match append {
        true => std::fs::OpenOptions::new().create(true).append(true).open(path),
        false => std::fs::File::create(path),
    }
}
