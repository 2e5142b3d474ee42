//! `arena run FILE.toml`: the run a file describes, started as its command
//! line would start it (see [`crate::runfile`]).

use anyhow::{Context, anyhow};
use std::path::PathBuf;

use clap::{Args, Parser};

use super::{Cli, CliResult, Command, run};

/// `arena run`.
#[derive(Args, Debug)]
pub struct RunFileArgs {
    /// The run file (TOML): command, engines, [flags], [[engine]].
    file: PathBuf,
    /// Flags added to the file's, such as --db or --quiet.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
    rest: Vec<String>,
}

/// `arena run`.
pub(super) async fn run_file(args: RunFileArgs) -> CliResult {
    let shown = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file).with_context(|| format!("{shown}: cannot read the run file"))?;
    let line = crate::runfile::to_args(&shown, &text, &args.rest).map_err(anyhow::Error::msg)?;
    let cli = Cli::try_parse_from(std::iter::once("arena".to_string()).chain(line)).map_err(|e| {
        let said = e.to_string();
        let first = said.lines().next().unwrap_or_default().trim_start_matches("error: ").to_string();
        anyhow!("{shown}: {first} (each key of [flags] is a flag of the command, without its dashes)")
    })?;
    if matches!(cli.command, Command::Run(_)) {
        return Err(anyhow!("{shown}: a run file cannot start another run file"));
    }
    run(cli).await
}
