//! fastchess's `-config file=config.json`, the way its users continue a
//! stopped tournament: a run started from a fastchess command line writes a
//! small state file (`config.json`, or `-config outname=`) naming the run,
//! its database and the command line, as soon as the run is stored; `arena
//! fastchess -config file=config.json` then plays that run on with the same
//! lines, counting the games played before (`stats=false`: only the new
//! ones). The file is arena's own; fastchess's state (its engines and
//! tallies) cannot be continued, since arena did not play those games.

use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail};
use serde::{Deserialize, Serialize};

use super::Dialect;
use super::lines::{Lines, Settings};
use super::parse::{self, Foreign};
use crate::cli::common::{GameLines, View, open_existing};
use crate::cli::shared::CliResult;

/// What a state file holds.
#[derive(Debug, Serialize, Deserialize)]
struct Saved {
    arena: SavedRun,
}

/// The run a state file names.
#[derive(Debug, Serialize, Deserialize)]
struct SavedRun {
    run: i64,
    /// The database: an absolute SQLite path, or the PostgreSQL URL without its password.
    db: String,
    /// `fastchess` or `cutechess`.
    dialect: String,
    /// The command line the run started from.
    args: Vec<String>,
    /// How to continue by hand.
    resume: String,
}

/// The state file a run started from a foreign command line writes.
#[derive(Clone, Debug)]
pub(super) struct Saving {
    path: PathBuf,
    dialect: Dialect,
    words: Vec<String>,
}

impl Saving {
    /// The state file `foreign` asks for (`None` with `-autosaveinterval 0`).
    pub(super) fn of(dialect: Dialect, foreign: &Foreign, words: &[String]) -> Option<Saving> {
        (foreign.autosave > 0).then(|| Saving {
            path: PathBuf::from(&foreign.config.outname),
            dialect,
            words: words.to_vec(),
        })
    }

    /// Where the state file is written.
    #[cfg(test)]
    pub(super) fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// [`Saving::write`], when the run starts.
    pub(super) fn on_start(self) -> super::lines::OnStart {
        Box::new(move |run, target| self.write(run, target))
    }

    /// Writes the file naming run `run` of `target`.
    ///
    /// # Errors
    ///
    /// The file cannot be written.
    pub(super) fn write(&self, run: i64, target: &db::Target) -> CliResult {
        let db = match target {
            db::Target::Sqlite(path) => {
                std::path::absolute(path).unwrap_or_else(|_| path.clone()).display().to_string()
            }
            db::Target::Postgres(_) => target.to_string(),
        };
        let saved = Saved {
            arena: SavedRun {
                run,
                resume: format!(
                    "arena {} -config file={} (or: arena resume {run} --db {db})",
                    self.dialect.subcommand(),
                    self.path.display()
                ),
                db,
                dialect: self.dialect.subcommand().to_string(),
                args: self.words.clone(),
            },
        };
        let text = serde_json::to_string_pretty(&saved).map_err(|e| anyhow!("cannot write the state file: {e}"))?;
        std::fs::write(&self.path, text + "\n").map_err(|e| {
            anyhow!(
                "cannot write {}: {e} (give -config outname=FILE elsewhere, or -autosaveinterval 0)",
                self.path.display()
            )
        })
    }
}

/// Options that may come with `-config file=`: the run is played as it
/// started, on this machine's concurrency and database.
const WITH_CONFIG: [&str; 3] = ["config", "concurrency", "db"];

/// `-config file=FILE`: plays on the run `FILE` names, as it started, with
/// `given`'s `-concurrency` and `-db` if any.
///
/// # Errors
///
/// A file arena did not write, other options given, or what resuming refuses, in one line.
pub(super) async fn resume(dialect: Dialect, file: &str, given: &Foreign, words: &[String]) -> CliResult {
    if let Some(other) = parse::groups(words)?.iter().find(|g| !WITH_CONFIG.contains(&g.flag.as_str())) {
        bail!(
            "-{}: -config file={file} plays its run as it started; give only -concurrency with it (or -config discard=true to play this command line)",
            other.flag
        );
    }
    let saved = read(Path::new(file))?.arena;
    let saved_dialect = match saved.dialect.as_str() {
        "cutechess" => Dialect::Cutechess,
        _ => Dialect::Fastchess,
    };
    let mut foreign = parse::read(saved_dialect, &saved.args)?;
    // A database given now (moved since) wins over the one the file names.
    foreign.db = given.db.clone().or(Some(saved.db.clone()));
    if given.concurrency.is_some() {
        foreign.concurrency = given.concurrency;
    }
    let (play, records) = super::translate::play_args(saved_dialect, &foreign)?;
    // The file holds the games written before the run stopped: only the rest are added.
    let records = records.continued();
    let target = crate::cli::games::target(&play);
    let db = open_existing(target).await?;
    let info = db.run(saved.run).await?;
    let model::Spec::Games(spec) = model::Spec::of(&info)? else {
        bail!("run {} of {} is not a run of games", saved.run, target);
    };
    let settings = Settings::of(&foreign, Saving::of(dialect, &foreign, &saved.args).map(Saving::on_start));
    let planned = super::lines::planned(&spec);
    let mut printer = Lines::new(settings, &spec, planned);
    printer.silent(true);
    let mut games = |games: &[model::GameRow]| printer.games(games);
    let after = crate::run::life::give_games(&db, saved.run, 0, &mut games).await.map_err(|e| match e {
        crate::run::life::PlayError::Printer(e) => e,
        crate::run::life::PlayError::Record(e) => e.into(),
        crate::run::life::PlayError::Run(e) => e.into(),
    })?;
    db.close().await;
    printer.resumed_after(after, given.config.stats);
    crate::cli::games::resume_as(&play, &records, saved.run, View::Lines(&mut printer)).await
}

/// A state file arena wrote.
fn read(path: &Path) -> CliResult<Saved> {
    let text = std::fs::read_to_string(path).map_err(|e| anyhow!("cannot read {}: {e}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| anyhow!("{} is not a state file (JSON: {e})", path.display()))?;
    if value.get("arena").is_none() && value.get("engines").is_some() {
        bail!(
            "{} is fastchess's own state: arena cannot continue games fastchess played; count them with arena import FILE.pgn",
            path.display()
        );
    }
    serde_json::from_value(value).map_err(|e| {
        anyhow!(
            "{} is not a state file arena wrote ({e}); arena runs lists the runs arena resume continues",
            path.display()
        )
    })
}
