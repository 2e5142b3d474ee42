//! A run's games written out: as PGN (`--pgn`, `arena pgn`) and as the
//! final positions in EPD (`--epdout`). A match on SQLite writes its PGN
//! while it plays ([`LivePgn`]), so the file is ready when the last game
//! ends instead of being exported after it.

use anyhow::Context as _;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use db::Db;
use model::{GameRow, Spec, Variant};
use reports::pgn::{Context, Level, write_game};

use super::{CliResult, PgnLevel, PgnStyle};

/// The tags a run's games share in its PGN, and how much each move says.
struct PgnFormat {
    event: String,
    site: String,
    time_control: String,
    variant: Variant,
    level: Level,
}

impl PgnFormat {
    /// The format of run `run`'s games in `style`.
    async fn of(db: &Db, run: i64, style: &PgnStyle) -> CliResult<PgnFormat> {
        let info = db.run(run).await?;
        let (tc, variant) = match Spec::of(&info) {
            Ok(Spec::Games(spec)) => (Some(spec.tc.pgn_tag()), spec.variant),
            _ => (None, Variant::Standard),
        };
        Ok(PgnFormat {
            event: style.event.clone().unwrap_or_else(|| format!("arena run {run} ({})", info.kind)),
            site: style.site.clone().unwrap_or(info.machine),
            time_control: tc.unwrap_or_else(|| "-".to_string()),
            variant,
            level: match style.pgn_level {
                PgnLevel::Min => Level::Min,
                PgnLevel::Normal => Level::Normal,
                PgnLevel::Full => Level::Full,
            },
        })
    }

    /// Appends `games` to `text`.
    fn write(&self, text: &mut String, games: &[GameRow]) {
        for game in games {
            let context = Context {
                event: &self.event,
                site: &self.site,
                round: format!("{}.{}", game.pair_index + 1, game.game_in_pair + 1),
                time_control: &self.time_control,
                variant: self.variant,
                level: self.level,
            };
            write_game(text, &game.record, &context);
        }
    }
}

/// Writes a run's games as PGN to `out` in `style`; returns how many.
pub(super) async fn stream_pgn(db: &Db, run: i64, out: &mut impl Write, style: &PgnStyle) -> CliResult<u64> {
    let format = PgnFormat::of(db, run, style).await?;
    let mut count = 0;
    let mut text = String::with_capacity(1 << 20);
    export_pages(db, run, "writing PGN", |page| {
        text.clear();
        format.write(&mut text, page);
        count += page.len() as u64;
        out.write_all(text.as_bytes()).map_err(|e| super::write_error(e, "the PGN output"))
    })
    .await?;
    Ok(count)
}

/// The columns of `arena moves`: a row per engine move, as the view
/// `moves` had them, with the game as the PGN's Round tag names it.
const MOVE_COLUMNS: &str =
    "game_id,game,ply,uci,san,time_ms,clock_ms,score_cp,score_mate,depth,seldepth,nodes,nps,pv,latency_ms,engine_ms";

/// Writes a run's moves as CSV (RFC 4180: a field with a comma, quote or
/// line break quoted) to `out`; returns how many games.
pub(super) async fn stream_moves_csv(db: &Db, run: i64, out: &mut impl Write) -> CliResult<u64> {
    let mut count = 0;
    let mut text = String::with_capacity(1 << 20);
    text.push_str(MOVE_COLUMNS);
    text.push('\n');
    export_pages(db, run, "writing moves", |page| {
        for game in page {
            write_moves_csv(&mut text, game);
        }
        count += page.len() as u64;
        out.write_all(text.as_bytes()).map_err(|e| super::write_error(e, "the CSV output"))?;
        text.clear();
        Ok(())
    })
    .await?;
    if count == 0 {
        out.write_all(text.as_bytes()).map_err(|e| super::write_error(e, "the CSV output"))?;
    }
    Ok(count)
}

/// One game's rows of [`stream_moves_csv`].
fn write_moves_csv(text: &mut String, game: &GameRow) {
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

/// Calls `write` with every game of a run, a page at a time, counting them
/// on the live line as `label`.
async fn export_pages(
    db: &Db,
    run: i64,
    label: &str,
    mut write: impl FnMut(&[GameRow]) -> CliResult<()>,
) -> CliResult<()> {
    let games = u64::try_from(db.run(run).await?.games).unwrap_or(0);
    let mut meter = crate::term::Meter::new(label, "games", 0, games, true);
    let written = for_each_page(db, run, 0, None, |page| {
        write(page)?;
        meter.advance(page.len() as u64, "");
        Ok(())
    })
    .await;
    meter.finish();
    written.map(|_| ())
}

/// Calls `write` with a run's games with id above `after` (and at most
/// `until`, when given) with their moves, a page at a time, in id order;
/// returns the last id written. The next page is read and decoded by
/// another task while `write` formats this one, so an export keeps two
/// cores busy.
async fn for_each_page(
    db: &Db,
    run: i64,
    after: i64,
    until: Option<i64>,
    mut write: impl FnMut(&[GameRow]) -> CliResult<()>,
) -> CliResult<i64> {
    const PAGE: i64 = 1000;
    let fetch = |after: i64| {
        let db = db.clone();
        tokio::spawn(async move { db.games_page(run, after, PAGE, true).await })
    };
    let mut next = fetch(after);
    let mut last_written = after;
    loop {
        let mut page = next.await.context("reading the games failed")??;
        if let Some(until) = until {
            page.retain(|game| game.id <= until);
        }
        let Some(last) = page.last() else { return Ok(last_written) };
        last_written = last.id;
        if until.is_some_and(|until| last.id >= until) {
            write(&page)?;
            return Ok(last_written);
        }
        next = fetch(last.id);
        write(&page)?;
    }
}

/// Writes a run's games to `path`; returns how many.
pub(super) async fn write_pgn(db: &Db, run: i64, path: &Path, style: &PgnStyle) -> CliResult<u64> {
    let file = std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
    let mut out = std::io::BufWriter::new(file);
    let games = stream_pgn(db, run, &mut out, style).await?;
    out.flush().with_context(|| format!("cannot write {}", path.display()))?;
    Ok(games)
}

/// How often a live PGN looks for games that became final.
const LIVE_EVERY: Duration = Duration::from_millis(200);

/// A match's PGN written while it plays: every [`LIVE_EVERY`], the games
/// that are final (see [`Db::final_games_until`]) are appended to the file,
/// so it can be followed (`tail -f`) as cutechess's can; when the run ends
/// here the rest follow. The file is then byte for byte what `arena pgn`
/// writes. A run that fails keeps the games written so far (`arena resume`
/// writes the file whole again).
pub(super) struct LivePgn {
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
    pub(super) async fn create(db: &Db, run: i64, path: &Path, style: &PgnStyle) -> CliResult<Option<LivePgn>> {
        if db.is_shared() {
            return Ok(None);
        }
        let format = PgnFormat::of(db, run, style).await?;
        let db = db.reader().await?;
        let file = std::fs::File::create(path).with_context(|| format!("cannot write {}", path.display()))?;
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

    /// Runs `playing` while appending the games that become final. A
    /// failure to read or write stops the appending; [`LivePgn::finish`]
    /// tries the rest again and reports it.
    pub(super) async fn follow<T>(&mut self, playing: impl Future<Output = T>) -> T {
        let (done, mut ended) = tokio::sync::watch::channel(false);
        let played = async {
            let end = playing.await;
            let _ = done.send(true);
            end
        };
        let following = async {
            loop {
                tokio::select! {
                    () = tokio::time::sleep(LIVE_EVERY) => {}
                    _ = ended.wait_for(|&ended| ended) => return,
                }
                let Ok(until) = self.db.final_games_until(self.run).await else { return };
                if self.append(until).await.is_err() {
                    return;
                }
            }
        };
        tokio::join!(played, following).0
    }

    /// Appends the games after the last written, up to `until` (all when
    /// `None`), and flushes them to the file. A failure midway keeps what
    /// was written, and the next call goes on after it.
    async fn append(&mut self, until: Option<i64>) -> CliResult<()> {
        if until.is_some_and(|until| until <= self.after) {
            return Ok(());
        }
        let LivePgn { db, format, out, path, after, count, run } = self;
        let cannot = |e: std::io::Error| anyhow::Error::new(e).context(format!("cannot write {}", path.display()));
        let mut text = String::new();
        for_each_page(db, *run, *after, until, |page| {
            text.clear();
            format.write(&mut text, page);
            out.write_all(text.as_bytes()).map_err(cannot)?;
            *after = page.last().map_or(*after, |game| game.id);
            *count += page.len() as u64;
            Ok(())
        })
        .await?;
        out.flush().map_err(cannot)
    }

    /// Appends the rest of the run's games; returns how many games the file holds.
    pub(super) async fn finish(mut self) -> CliResult<u64> {
        self.append(None).await?;
        self.db.close().await;
        Ok(self.count)
    }
}

/// Writes each game's final position to `path` as EPD (the position, its
/// move counters, the game as `id` and its players and result as `c0`);
/// returns how many.
pub(super) async fn write_epd(db: &Db, run: i64, path: &Path) -> CliResult<u64> {
    let cannot = |e: std::io::Error| anyhow::Error::new(e).context(format!("cannot write {}", path.display()));
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).map_err(cannot)?);
    let mut count = 0;
    export_pages(db, run, "writing final positions", |page| {
        let mut text = String::new();
        for game in page {
            let record = &game.record;
            let fen = openings::fen_of(&crate::game::final_position(record));
            let fields: Vec<&str> = fen.split_whitespace().collect();
            let quote = |s: &str| s.replace(['"', ';'], "'");
            text += &format!(
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
            count += 1;
        }
        out.write_all(text.as_bytes()).map_err(cannot)
    })
    .await?;
    out.flush().map_err(cannot)?;
    Ok(count)
}
