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
    let report = report_of(&db, args.run, ask).await?;
    let name = match format {
        Format::Text => "text",
        Format::Markdown => "markdown",
        Format::Html => "HTML",
        Format::Json => "JSON",
    };
    match &args.output {
        Some(path) if format == Format::Markdown => {
            let stem = path.file_stem().map_or("report".into(), |s| s.to_string_lossy());
            let (text, plots) = report.markdown_with_plots(&stem);
            write(path, text)?;
            let beside = path.parent().unwrap_or(std::path::Path::new(""));
            for (file, svg) in &plots {
                write(&beside.join(file), svg)?;
            }
            let plots = match (plots.first(), plots.last()) {
                (Some((first, _)), Some((last, _))) if plots.len() > 1 => {
                    format!(", and its {} plots beside it ({first} … {last})", plots.len())
                }
                (Some((only, _)), _) => format!(", and its plot beside it ({only})"),
                _ => String::new(),
            };
            crate::term::note(&format!("wrote the {name} report of run {} to {}{plots}", args.run, path.display()));
        }
        Some(path) => {
            write(path, report.render(format))?;
            crate::term::note(&format!("wrote the {name} report of run {} to {}", args.run, path.display()));
        }
        None => out!("{}", report.render(format)),
    }
    Ok(())
}

/// Writes a file of the report, or says which and why not.
fn write(path: &std::path::Path, contents: impl AsRef<[u8]>) -> anyhow::Result<()> {
    std::fs::write(path, contents).with_context(|| format!("cannot write {} (choose another --output)", path.display()))
}
