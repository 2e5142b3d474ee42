//! `arena import FILE.pgn…`: games played elsewhere (cutechess-cli,
//! fastchess, rating lists) stored as a run of their own kind, so that
//! `show`, `report`, the dashboard and `stats` give their Elo, intervals,
//! pentanomial and ratings. The games go in as pairs (two consecutive
//! games on one opening, colours reversed, as the tools play them) through
//! the same storage as played pairs; games not played so (a rating list's)
//! are stored two by two, a game beside one of the same engines with
//! colours reversed, and the run then counts games, not pairs (no
//! pentanomial). A file imported before adds nothing.

use std::path::PathBuf;

use anyhow::{anyhow, bail};
use clap::Args;
use model::ImportedFile;
use sha2::{Digest, Sha256};

use super::common::open_db;
use super::shared::{CliResult, DbArg, QuietArg, outln};
use crate::game::import::{ImportedGame, pairs, read, unrelated_pairs};
use crate::reporting::{Ask, Detail, report_of};
use crate::run::import::{create_imported, imported_before};

/// `arena import`.
#[derive(Args, Debug)]
pub struct ImportArgs {
    /// PGN files of finished games (cutechess-cli's, fastchess's, a rating list's).
    #[arg(required = true, value_name = "FILE.pgn")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    db: DbArg,
    #[command(flatten)]
    quiet: QuietArg,
}

/// A file to import: its name, content and SHA-256.
struct Source {
    name: String,
    text: String,
    sha256: String,
}

/// `arena import`.
pub(super) async fn import(args: ImportArgs) -> CliResult {
    let mut sources = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let bytes = std::fs::read(path).map_err(|e| anyhow!("cannot read {}: {e}", path.display()))?;
        let sha256 = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        sources.push(Source { name: path.display().to_string(), text: String::from_utf8_lossy(&bytes).into(), sha256 });
    }
    // Read and paired before the database is opened: a file without a
    // pair of games is refused with nothing stored.
    let mut read_files = Vec::with_capacity(sources.len());
    for source in sources {
        let reading = read(&source.name, &source.text);
        note_skipped(&reading.skipped, "skipped");
        let (pairs_of_file, alone) = pairs(reading.games);
        let (unrelated, alone) = unrelated_pairs(alone);
        let alone: Vec<String> = alone
            .iter()
            .map(|g| {
                format!(
                    "{}: no other game of {} vs {} with colours reversed to count it beside",
                    g.at, g.record.white, g.record.black
                )
            })
            .collect();
        note_skipped(&alone, "left out");
        read_files.push((source, pairs_of_file, unrelated));
    }
    if read_files.iter().all(|(_, pairs, unrelated)| pairs.is_empty() && unrelated.is_empty()) {
        let names: Vec<&str> = read_files.iter().map(|(s, _, _)| s.name.as_str()).collect();
        bail!("no two games of the same engines with colours reversed in {}: nothing imported", names.join(", "));
    }
    let db = open_db(&args.db.target).await?;
    let known = imported_before(&db).await?;
    let mut files = Vec::new();
    let mut games: Vec<ImportedGame> = Vec::new();
    for (source, pairs_of_file, unrelated) in read_files {
        if let Some(run) = known.get(&source.sha256) {
            crate::term::note(&format!("{} was imported before, as run {run}: nothing added from it", source.name));
            continue;
        }
        let unpaired = 2 * unrelated.len() as u64;
        let count = 2 * pairs_of_file.len() as u64 + unpaired;
        if unpaired > 0 {
            crate::term::note(&format!(
                "{}: {unpaired} games were not played as pairs (one opening, colours reversed): the run counts games (trinomial), not pairs",
                source.name
            ));
        }
        files.push(ImportedFile { name: source.name, sha256: source.sha256, games: count, unpaired });
        games.extend(pairs_of_file.into_iter().chain(unrelated).flatten());
    }
    if games.is_empty() {
        db.close().await;
        return Ok(());
    }
    let spec_unpaired = files.iter().map(|f| f.unpaired).sum::<u64>();
    let imported = create_imported(&db, files, games).await?;
    let run = imported.run;
    if !args.quiet.quiet {
        let shape = match spec_unpaired {
            0 => format!("{} pairs", imported.pairs),
            unpaired => format!("{} in pairs, {unpaired} not", imported.games as u64 - unpaired),
        };
        crate::term::note(&format!("run {run}: {} games ({shape}) imported", imported.games));
    }
    outln!("{}", report_of(&db, run, Ask::of(Detail::Brief)).await?.brief().trim_end());
    db.close().await;
    Ok(())
}

/// Says the first of `lines` and how many more.
fn note_skipped(lines: &[String], what: &str) {
    for line in lines.iter().take(10) {
        crate::term::note(&format!("{what}: {line}"));
    }
    if lines.len() > 10 {
        crate::term::note(&format!("{what}: {} more games", lines.len() - 10));
    }
}
