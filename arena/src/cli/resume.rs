//! `arena resume RUN`: continue a stopped or crashed run of any kind where
//! it stopped.

use anyhow::anyhow;
use clap::Args;
use model::{RunStatus, Spec};

use super::common::{View, check_concurrency, here, open_db, play_run};
use super::{CliResult, ConcurrencyArg, DbArg, QuietArg, RecordArgs, SlotArgs};

/// `arena resume`.
#[derive(Args, Debug)]
pub struct ResumeArgs {
    /// Run id (see `arena runs`).
    run: i64,
    #[command(flatten)]
    db: DbArg,
    #[command(flatten)]
    concurrency: ConcurrencyArg,
    #[command(flatten)]
    record: RecordArgs,
    #[command(flatten)]
    slots: SlotArgs,
    #[command(flatten)]
    quiet: QuietArg,
    /// Play on although an engine's binary (or arena, for the bundled engine) is not the one the run started with here and its bench signature is another or none (a change with the same signature plays on by itself); the change is recorded and reported.
    #[arg(long)]
    accept_change: bool,
}

/// `arena resume`.
pub(super) async fn resume(args: ResumeArgs) -> CliResult {
    let how = How {
        target: &args.db.target,
        concurrency: args.concurrency.concurrency,
        record: &args.record,
        slots: &args.slots,
        quiet: args.quiet.quiet,
        accept_change: args.accept_change,
    };
    resume_run(args.run, &how, View::Arena).await
}

/// How a stopped run is played on here: `arena resume`'s flags, or those
/// a foreign command line's state file names.
pub(super) struct How<'a> {
    pub(super) target: &'a db::Target,
    /// `--concurrency`; `None`: as the run started.
    pub(super) concurrency: Option<crate::run::settings::Concurrency>,
    pub(super) record: &'a RecordArgs,
    pub(super) slots: &'a SlotArgs,
    pub(super) quiet: bool,
    pub(super) accept_change: bool,
}

/// Plays stopped run `run` on where it stopped, shown as `view` says.
pub(super) async fn resume_run(run: i64, how: &How<'_>, view: View<'_>) -> CliResult {
    let target = how.target;
    let db = open_db(target).await?;
    let info = db.run(run).await?;
    if info.status == RunStatus::Finished {
        return Err(anyhow!("run {} is already finished (see `arena show {}`)", info.id, info.id));
    }
    if info.kind == model::RunKind::Import {
        return Err(anyhow!("run {} holds imported games, played elsewhere: there is nothing to play", info.id));
    }
    let mut spec = Spec::of(&info)?;
    let stored = spec.concurrency().ok_or_else(|| anyhow!("run {}: its concurrency is not stored", info.id))?;
    let per_slot = match &spec {
        model::Spec::Games(games) => crate::run::settings::cpus_per_slot(&games.engines),
        _ => 1,
    };
    let concurrency = match how.concurrency {
        Some(given) => given.on_this_machine(per_slot)?,
        None => stored,
    };
    check_concurrency(concurrency)?;
    spec.set_concurrency(concurrency);
    how.record.check(true)?;
    let affinity = how.slots.resolve(concurrency, per_slot)?;
    let clocked = matches!(&spec, model::Spec::Games(games) if crate::run::plan::on_a_clock(games));
    super::common::warn_of_sharing(clocked, concurrency, per_slot);
    let here = here(target, how.quiet, affinity, !how.slots.no_io_log);
    let runtime = crate::run::life::ready_again(&db, info.id, &mut spec, here, how.accept_change).await?;
    play_run(&runtime, target, info.id, spec, None, how.record, view).await
}
