//! `arena compact` and `arena prune`: keeping a database small. Compacting
//! converts moves stored as JSON by older versions to packed values, and
//! values packed in an older format to this release's;
//! pruning makes finished runs shed their moves and I/O logs, keeping their
//! games, tallies and reports.

use std::collections::BTreeSet;

use clap::Args;
use model::RunStatus;

use super::common::open_existing;
use super::shared::{CliResult, DbArg, outln};

/// `arena compact`.
#[derive(Args, Debug)]
pub struct CompactArgs {
    #[command(flatten)]
    db: DbArg,
}

/// `arena prune`.
#[derive(Args, Debug)]
pub struct PruneArgs {
    /// Runs to prune (default: every finished run). A run that is not finished is refused.
    runs: Vec<i64>,
    #[command(flatten)]
    db: DbArg,
    /// Say what would be freed, change nothing.
    #[arg(long)]
    dry_run: bool,
}

/// `arena roles`.
#[derive(Args, Debug)]
pub struct RolesArgs {
    /// The database, as its owner: postgres://OWNER@host:port/database.
    #[arg(long = "db", value_parser = super::shared::DbParser)]
    db: db::Target,
    /// The login role workers connect as (create it first: CREATE ROLE NAME LOGIN PASSWORD '…').
    #[arg(long, value_name = "NAME")]
    worker: String,
    /// Print the SQL instead of applying it.
    #[arg(long)]
    print: bool,
}

/// `arena roles`: the grants and row policies that make a login role a
/// worker's, applied as the owner (or printed).
pub(super) async fn roles(args: RolesArgs) -> CliResult {
    if !matches!(args.db, db::Target::Postgres(_)) {
        anyhow::bail!(
            "roles are PostgreSQL's: give --db postgres://OWNER@host/database (a SQLite file is guarded by its file's permissions)"
        );
    }
    let db = open_existing(&args.db).await?;
    if args.print {
        let sql = db::worker_role_sql(&db.schema().await?, &args.worker)?;
        for statement in sql {
            outln!("{statement};");
        }
        return Ok(());
    }
    let sql = db.grant_worker(&args.worker).await?;
    outln!(
        "role {} is a worker's on {} ({} statements): it reads runs, claims and renews pairs and stores the games of the \
         pairs it holds; connect workers as it: arena worker --db postgres://{}@HOST/DATABASE",
        args.worker,
        db.describe(),
        sql.len(),
        args.worker
    );
    Ok(())
}

/// Games converted per transaction: each batch is whole or not at all, so
/// stopping `arena compact` anywhere loses nothing.
const BATCH: i64 = 1000;

/// `arena compact`: every game's moves packed in this release's format,
/// then the file shrunk.
pub(super) async fn compact(args: CompactArgs) -> CliResult {
    let db = open_existing(&args.db.target).await?;
    let (json, old_format) = db.old_move_games().await?;
    let mut done = db::Compacted::default();
    let mut meter = crate::term::Meter::new("compacting moves", "games", 0, json + old_format, true);
    let mut add = |batch: db::Compacted| {
        done.games += batch.games;
        done.old_bytes += batch.old_bytes;
        done.packed_bytes += batch.packed_bytes;
        meter.advance(batch.games, "");
        batch.games > 0
    };
    while add(db.compact_batch(BATCH).await?) {}
    let mut after = 0;
    loop {
        let batch = db.repack_batch(after, BATCH).await?;
        after = batch.last_game;
        if !add(batch) {
            break;
        }
    }
    meter.finish();
    if done.games > 0 {
        crate::term::set_line("giving the freed space back to the file system");
        db.vacuum().await?;
        crate::term::end_line();
    }
    db.close().await;
    outln!("{} games' moves packed: {} became {}", done.games, megabytes(done.old_bytes), megabytes(done.packed_bytes));
    Ok(())
}

/// `arena prune`: finished runs shed their moves and I/O logs.
pub(super) async fn prune(args: PruneArgs) -> CliResult {
    let db = open_existing(&args.db.target).await?;
    let runs = if args.runs.is_empty() {
        db.runs().await?.into_iter().filter(|r| r.status == RunStatus::Finished).map(|r| r.id).collect()
    } else {
        args.runs.clone()
    };
    let here = crate::util::machine_name();
    let mut freed = 0;
    for run in runs {
        let shed = if args.dry_run { db.prunable(run).await? } else { db.prune(run, &here).await? };
        let (files, elsewhere) = log_files(&shed.io_logs, &here);
        let log_bytes: u64 = files.iter().filter_map(|f| std::fs::metadata(f).ok()).map(|m| m.len()).sum();
        if !args.dry_run {
            for file in &files {
                if let Err(e) = std::fs::remove_file(file)
                    && e.kind() != std::io::ErrorKind::NotFound
                {
                    crate::term::warn(&format!("cannot delete the I/O log {file}: {e}"));
                }
            }
        }
        freed += shed.move_bytes + log_bytes;
        let other = if elsewhere > 0 {
            format!("; {elsewhere} games' I/O logs are on other machines: run arena prune {run} there")
        } else {
            String::new()
        };
        outln!(
            "run {run}: {} the moves of {} games ({}) and {} I/O log files here ({}){other}",
            if args.dry_run { "would shed" } else { "shed" },
            shed.games_with_moves,
            megabytes(shed.move_bytes),
            files.len(),
            megabytes(log_bytes),
        );
    }
    if !args.dry_run && freed > 0 {
        db.vacuum().await?;
    }
    db.close().await;
    Ok(())
}

/// The distinct files of I/O log places on this machine, and how many
/// places name another machine.
fn log_files(places: &[String], here: &str) -> (BTreeSet<String>, usize) {
    let mut files = BTreeSet::new();
    let mut elsewhere = 0;
    for place in places {
        let (host, path) = crate::engine_io::iolog::split_place(place);
        if host != here {
            elsewhere += 1;
            continue;
        }
        let file = path.rsplit_once('@').map_or(path, |(file, _)| file);
        files.insert(file.to_string());
    }
    (files, elsewhere)
}

/// A size in MB, or in KB below one MB.
fn megabytes(bytes: u64) -> String {
    if bytes < 1_000_000 { format!("{:.1} KB", bytes as f64 / 1e3) } else { format!("{:.1} MB", bytes as f64 / 1e6) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_files_are_this_machines_distinct_files() {
        let places = [
            "box:/l/run-1/io-box-7-1.log.gz@0+10".to_string(),
            "box:/l/run-1/io-box-7-1.log.gz@10+12".to_string(),
            "box:/l/run-1/io-box-7-faults.log.gz@0+9".to_string(),
            "other:/l/run-1/io-other-3-1.log.gz@0+10".to_string(),
            "box:/l/old-game-3.log.gz".to_string(),
        ];
        let (files, elsewhere) = log_files(&places, "box");
        assert_eq!(
            files.into_iter().collect::<Vec<_>>(),
            ["/l/old-game-3.log.gz", "/l/run-1/io-box-7-1.log.gz", "/l/run-1/io-box-7-faults.log.gz"]
        );
        assert_eq!(elsewhere, 1);
    }
}
