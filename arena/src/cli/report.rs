//! `arena report RUN`: the full report of a run (finished or still playing)
//! as text, markdown, HTML or JSON.

use anyhow::Context;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::common::open_existing;
use super::shared::{CliResult, DbArg, out};
use crate::reporting::{Ask, Detail, Format, report_of};

/// `arena report`.
#[derive(Args, Debug)]
pub struct ReportArgs {
    /// Run id (see `arena runs`).
    run: i64,
    #[command(flatten)]
    db: DbArg,
    /// Format (default: from the output file's extension .txt/.md/.html/.json; a file of another extension needs --format).
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

/// The format of a report: `--format`, else the output file's extension,
/// else text. An extension that names no format arena writes (`.pdf`), or
/// another format than `--format`, is refused: the file would not be what
/// its name says.
fn format_of(given: Option<Format>, output: Option<&std::path::Path>) -> CliResult<Format> {
    let extension = output.and_then(|p| p.extension()).map(|e| e.to_string_lossy().to_ascii_lowercase());
    let named = match extension.as_deref() {
        None => None,
        Some("txt" | "text") => Some(Format::Text),
        Some("md" | "markdown") => Some(Format::Markdown),
        Some("html" | "htm") => Some(Format::Html),
        Some("json") => Some(Format::Json),
        Some(other) if given.is_none() => {
            return Err(anyhow::anyhow!(
                "arena report writes text, markdown, HTML or JSON, not .{other}: name the file .txt, .md, .html or .json, or give --format"
            ));
        }
        Some(_) => None,
    };
    match (given, named) {
        (Some(given), Some(named)) if given != named => Err(anyhow::anyhow!(
            "--format {} and a file named .{} disagree: give one of them",
            given.to_possible_value().map_or(String::new(), |v| v.get_name().to_string()),
            extension.unwrap_or_default()
        )),
        (Some(format), _) | (None, Some(format)) => Ok(format),
        (None, None) => Ok(Format::Text),
    }
}

/// `arena report`.
pub(super) async fn report(args: ReportArgs) -> CliResult {
    let format = format_of(args.format, args.output.as_deref())?;
    let db = open_existing(&args.db.target).await?;
    if args.anchor.is_some() {
        let kind = db.run(args.run).await?.kind;
        if !matches!(kind, model::RunKind::Tournament | model::RunKind::Suite) {
            return Err(anyhow::anyhow!(
                "--anchor sets the engine rated 0 in a tournament (or a suite's 100 % reference); run {} ({kind}) rates A against B, no anchor needed",
                args.run
            ));
        }
    }
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
