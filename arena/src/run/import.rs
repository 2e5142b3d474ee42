//! A run of games played elsewhere (`arena import`): its spec from the
//! games read (engines in order of appearance, a pairing per two engines
//! that met, what arena cannot know left unknown), stored as a run of its
//! own kind, its pairs stored as played pairs are.

use std::collections::HashMap;

use db::{Db, DbError};
use model::{EngineSpec, GamesKind, GamesSpec, ImportedFile, PairPlan, RunKind, Spec};

use super::error::RunError;
use crate::game::import::ImportedGame;

/// A run of imported games, stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Imported {
    /// Its id.
    pub run: i64,
    /// Pairs stored.
    pub pairs: usize,
    /// Games stored.
    pub games: usize,
}

/// Stores `games` (whole pairs, in order) of `files` as a new run.
///
/// # Errors
///
/// [`RunError`] for storage, or games that are not whole pairs.
pub async fn create_imported(
    db: &Db,
    files: Vec<ImportedFile>,
    games: Vec<ImportedGame>,
) -> Result<Imported, RunError> {
    let (spec, plan, ordered) = spec_of(files, games)?;
    let run = db.create_run(&Spec::Games(spec), &plan, &crate::util::machine_name()).await?;
    store(db, run, &ordered).await?;
    Ok(Imported { run, pairs: plan.len(), games: ordered.len() })
}

/// The files of earlier imports, by SHA-256, with their run.
///
/// # Errors
///
/// A database failure.
pub async fn imported_before(db: &Db) -> Result<HashMap<String, i64>, DbError> {
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

/// The run of imported pairs: its engines in order of appearance, a
/// pairing per two engines that met, each pair oriented so that the
/// pairing's first engine has White in its first game.
fn spec_of(
    files: Vec<ImportedFile>,
    games: Vec<ImportedGame>,
) -> Result<(GamesSpec, Vec<PairPlan>, Vec<model::GameRecord>), RunError> {
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
        let [first, second] = pair else { return Err(RunError::OddGame) };
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
async fn store(db: &Db, run: i64, games: &[model::GameRecord]) -> Result<(), RunError> {
    let lost = |problem: String| RunError::Unpaired { run, problem };
    const LEASE: std::time::Duration = std::time::Duration::from_secs(3600);
    let total = games.len() / 2;
    for done in 0..total {
        let pair = db.claim_pair(run, crate::game::import::MACHINE, LEASE).await?;
        let pair = pair.ok_or_else(|| lost(format!("pair {} of {total} could not be taken", done + 1)))?;
        let index = usize::try_from(pair.plan.index).map_err(|_| lost("a pair has no place".into()))?;
        let (Some(first), Some(second)) = (games.get(2 * index), games.get(2 * index + 1)) else {
            return Err(lost(format!("pair {index} is not among the imported games")));
        };
        if !db.save_first_game(&pair, first).await? {
            return Err(lost(format!("pair {index} was taken by another process while importing")));
        }
        db.finish_pair(&pair, second, &db::NoSprt, None).await?;
        if crate::term::is_terminal() && done % 100 == 0 {
            crate::term::set_line(&format!("importing: {done} of {total} pairs stored"));
        }
    }
    crate::term::end_line();
    Ok(())
}
