//! `arena import FILE.pgn…`: games played elsewhere (cutechess-cli,
//! fastchess, rating lists) stored as a run of their own kind, so that
//! `show`, `report`, the dashboard and `stats` give their Elo, intervals,
//! pentanomial and ratings. The games go in as pairs (two consecutive
//! games on one opening, colours reversed, as the tools play them) through
//! the same storage as played pairs; games not played so (a rating list's)
//! are stored two by two, a game beside one of the same engines with
//! colours reversed, and the run then counts games, not pairs (no
//! pentanomial). A file imported before adds nothing.

use std::collections::HashMap;
use std::path::PathBuf;

use anyhow::{anyhow, bail};
use clap::Args;
use model::{EngineSpec, GamesKind, GamesSpec, ImportedFile, PairPlan, RunKind, Spec};
use sha2::{Digest, Sha256};

use super::common::open_db;
use super::{CliResult, DbArg, QuietArg, outln};
use crate::game::import::{ImportedGame, pairs, read, unrelated_pairs};
use crate::reporting::{Ask, Detail, report_of};

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
    let (spec, plan, ordered) = spec_of(files, games)?;
    let run = db.create_run(&Spec::Games(spec), &plan, &crate::util::machine_name()).await?;
    store(&db, run, &ordered).await?;
    if !args.quiet.quiet {
        let shape = match spec_unpaired {
            0 => format!("{} pairs", plan.len()),
            unpaired => format!("{} in pairs, {unpaired} not", ordered.len() as u64 - unpaired),
        };
        crate::term::note(&format!("run {run}: {} games ({shape}) imported", ordered.len()));
    }
    outln!("{}", report_of(&db, run, Ask::of(Detail::Brief)).await?.brief().trim_end());
    db.close().await;
    Ok(())
}

/// The files of earlier imports, by SHA-256, with their run.
async fn imported_before(db: &db::Db) -> CliResult<HashMap<String, i64>> {
    let mut known = HashMap::new();
    for info in db.runs().await? {
        if info.kind != RunKind::Import {
            continue;
        }
        if let Ok(Spec::Games(GamesSpec { kind: GamesKind::Import(files), .. })) = Spec::of(&info) {
            for file in files {
                known.insert(file.sha256, info.id);
            }
        }
    }
    Ok(known)
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

/// The run of imported pairs: its engines in order of appearance, a
/// pairing per two engines that met, each pair oriented so that the
/// pairing's first engine has White in its first game.
fn spec_of(
    files: Vec<ImportedFile>,
    games: Vec<ImportedGame>,
) -> CliResult<(GamesSpec, Vec<PairPlan>, Vec<model::GameRecord>)> {
    let mut names: Vec<String> = Vec::new();
    let mut pairings: Vec<(usize, usize)> = Vec::new();
    let (mut plan, mut ordered) = (Vec::new(), Vec::with_capacity(games.len()));
    let mut per_pairing: HashMap<(usize, usize), usize> = HashMap::new();
    let index = |name: &str, names: &mut Vec<String>| match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_string());
            names.len() - 1
        }
    };
    for pair in games.chunks(2) {
        let [first, second] = pair else { bail!("an odd game among the pairs") };
        let (a, b) = (index(&first.record.white, &mut names), index(&first.record.black, &mut names));
        let pairing = match pairings.iter().find(|&&(x, y)| (x, y) == (a, b) || (x, y) == (b, a)) {
            Some(&found) => found,
            None => {
                pairings.push((a, b));
                (a, b)
            }
        };
        let (first, second) = if pairing.0 == a { (first, second) } else { (second, first) };
        *per_pairing.entry(pairing).or_default() += 1;
        let record = &first.record;
        plan.push(PairPlan {
            index: i64::try_from(plan.len()).unwrap_or(i64::MAX),
            engine_a: record.white.clone(),
            engine_b: record.black.clone(),
            opening_index: i64::try_from(plan.len()).unwrap_or(i64::MAX),
            opening_name: record.opening.clone(),
            fen: record.start_fen.clone(),
            opening_moves: record.opening_moves.clone(),
            opening_san: record.opening_san.clone(),
        });
        ordered.push(first.record.clone());
        ordered.push(second.record.clone());
    }
    let engines = names.iter().map(|name| EngineSpec { name: name.clone(), ..EngineSpec::default() }).collect();
    let files_named = files.iter().map(|f| f.name.as_str()).collect::<Vec<_>>().join(", ");
    let chess960 = plan.iter().any(|p| openings::is_chess960(&p.fen));
    let spec = GamesSpec {
        kind: GamesKind::Import(files),
        engines,
        pairings,
        // Unknown here: the games were played elsewhere.
        tc: None,
        openings: files_named,
        seed: None,
        start: 0,
        max_plies: None,
        openings_per_round: per_pairing.values().copied().max().unwrap_or(0),
        rounds: 1,
        concurrency: None,
        adjudication: None,
        check_mate_pvs: false,
        tablebase: None,
        variant: if chess960 { model::Variant::Chess960 } else { model::Variant::Standard },
        machines: model::MachineRule::default(),
    };
    Ok((spec, plan, ordered))
}

/// Stores the games of run `run`'s pairs, in plan order, as played pairs are stored.
async fn store(db: &db::Db, run: i64, games: &[model::GameRecord]) -> CliResult {
    const LEASE: std::time::Duration = std::time::Duration::from_secs(3600);
    let total = games.len() / 2;
    for done in 0..total {
        let pair = db.claim_pair(run, crate::game::import::MACHINE, LEASE).await?;
        let pair = pair.ok_or_else(|| anyhow!("run {run}: pair {} of {total} could not be taken", done + 1))?;
        let index = usize::try_from(pair.plan.index).map_err(|_| anyhow!("run {run}: a pair has no place"))?;
        let (Some(first), Some(second)) = (games.get(2 * index), games.get(2 * index + 1)) else {
            bail!("run {run}: pair {index} is not among the imported games");
        };
        if !db.save_first_game(&pair, first).await? {
            bail!("run {run}: pair {index} was taken by another process while importing");
        }
        db.finish_pair(&pair, second, &|_| None, None).await?;
        if crate::term::is_terminal() && done % 100 == 0 {
            crate::term::set_line(&format!("importing: {done} of {total} pairs stored"));
        }
    }
    crate::term::end_line();
    Ok(())
}
