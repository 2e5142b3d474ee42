//! `arena report RUN`: the full report of a run (finished or still playing)
//! as text, markdown, HTML or JSON.

use anyhow::Context;
use std::path::PathBuf;

use clap::Args;

use super::common::open_existing;
use super::{CliResult, DbArg, out};
use crate::reporting::{Ask, Detail, Format, report_of};

/// `arena report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Run id (see `arena runs`).
    run: i64,
    #[command(flatten)]
    db: DbArg,
    /// Format (default: from the output file's extension .md/.html/.json, else text).
    #[arg(long, value_enum)]
    format: Option<Format>,
    /// Output file (standard output without it).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Engine rated 0 in a tournament's ratings, or the 100 % reference of a suite run (default: the first engine).
    #[arg(long)]
    anchor: Option<String>,
    /// The games of machines set aside: count them, or leave them out (default: as the run was started, see --count-set-aside).
    #[arg(long, value_enum, value_name = "count|exclude")]
    set_aside: Option<SetAside>,
}

/// `--set-aside`.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum SetAside {
    /// Count their games.
    Count,
    /// Leave their games out.
    Exclude,
}

/// `arena report`.
pub(super) async fn report(args: ReportArgs) -> CliResult {
    let db = open_existing(&args.db.target).await?;
    let format = args.format.unwrap_or_else(|| {
        match args.output.as_ref().and_then(|p| p.extension()).and_then(|e| e.to_str()) {
            Some("md" | "markdown") => Format::Markdown,
            Some("html" | "htm") => Format::Html,
            Some("json") => Format::Json,
            _ => Format::Text,
        }
    });
    let ask = Ask {
        anchor: args.anchor.clone(),
        detail: Detail::Full,
        count_set_aside: args.set_aside.map(|s| matches!(s, SetAside::Count)),
        ..Ask::default()
    };
    let rendered = report_of(&db, args.run, ask).await?.render(format);
    match &args.output {
        Some(path) => {
            std::fs::write(path, rendered)
                .with_context(|| format!("cannot write {} (choose another --output)", path.display()))?;
            let name = match format {
                Format::Text => "text",
                Format::Markdown => "markdown",
                Format::Html => "HTML",
                Format::Json => "JSON",
            };
            crate::term::note(&format!("wrote the {name} report of run {} to {}", args.run, path.display()));
        }
        None => out!("{rendered}"),
    }
    Ok(())
}
