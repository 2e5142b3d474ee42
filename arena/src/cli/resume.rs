//! `arena resume RUN`: continue a stopped or crashed run of any kind where
//! it stopped.

use clap::Args;

use super::common::{View, machine, open_db, play_run};
use super::shared::{CliResult, ConcurrencyArg, DbArg, QuietArg, RecordArgs, SlotArgs};

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

/// `arena resume`: the run's life ([`crate::run::life::resume`]) with
/// these flags, then played here as every command plays.
pub(super) async fn resume(args: ResumeArgs) -> CliResult {
    let target = &args.db.target;
    let records = args.record.records();
    // The files are checked before the engines start; a resumed run writes its PGN whole again.
    records.check(true)?;
    let machine = machine(target, args.quiet.quiet, &args.slots, true)?;
    let db = open_db(target).await?;
    let (runtime, spec) =
        crate::run::life::resume(&db, args.run, &machine, args.concurrency.concurrency, args.accept_change).await?;
    play_run(&runtime, target, args.run, spec, None, &records, View::Arena).await
}
