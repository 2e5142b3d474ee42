//! Text (a terminal) and markdown (an issue comment) renderings of a report.
//! Plots appear as their one-line captions, or in markdown as images of
//! files beside it.

use super::document::{Align, Block, Layout, Table};
use super::svg::standalone;

/// The report for a terminal.
pub fn render_text(report: &impl Layout) -> String {
    let mut out = String::new();
    for block in report.layout().blocks {
        let heading = matches!(block, Block::Heading(..));
        match block {
            Block::Heading(level, title) => {
                let rule = if level == 1 { '=' } else { '-' };
                out += &format!("{title}\n{}\n", rule.to_string().repeat(title.chars().count()));
            }
            Block::Lines(_, lines) => lines.iter().for_each(|l| out += &format!("{l}\n")),
            Block::Table(table) => out += &table.text(true),
            Block::Plot { caption, .. } => out += &format!("{caption}\n"),
        }
        if !heading {
            out.push('\n');
        }
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

/// The report as GitHub-flavoured markdown, its plots as their captions.
pub fn render_markdown(report: &impl Layout) -> String {
    markdown(report, |caption, _| format!("*{}*\n\n", cell(caption)))
}

/// The report as GitHub-flavoured markdown whose plots are files beside
/// it: each shown as an image `STEM-plot-N.svg` above its caption. Returns
/// the markdown and the plots, `(file name, SVG of its own)`.
pub fn render_markdown_with_plots(report: &impl Layout, stem: &str) -> (String, Vec<(String, String)>) {
    let mut plots = Vec::new();
    let text = markdown(report, |caption, svg| {
        // No `<` or `>` in a file name, and a name with spaces or brackets
        // is a link only between `<` and `>`.
        let name = format!("{}-plot-{}.svg", stem.replace(['<', '>'], "_"), plots.len() + 1);
        let link = if name.contains([' ', '(', ')']) { format!("<{name}>") } else { name.clone() };
        let shown = format!("![{}]({link})\n\n*{}*\n\n", alt(caption), cell(caption));
        plots.push((name, standalone(&svg)));
        shown
    });
    (text, plots)
}

/// An image's alternative text: brackets escaped, no line breaks.
fn alt(text: &str) -> String {
    text.replace('[', "\\[").replace(']', "\\]").replace('\n', " ")
}

fn markdown(report: &impl Layout, mut plot: impl FnMut(&str, String) -> String) -> String {
    let mut out = String::new();
    for block in report.layout().blocks {
        match block {
            Block::Heading(level, title) => out += &format!("{} {title}\n\n", "#".repeat(usize::from(level))),
            Block::Lines(true, lines) => out += &format!("```\n{}\n```\n\n", lines.join("\n")),
            Block::Lines(false, lines) => {
                out += &lines.iter().map(|l| format!("- {}\n", cell(l))).collect::<String>();
                out.push('\n');
            }
            Block::Table(table) => {
                let header: Vec<String> = table.columns.iter().map(|(name, _)| cell(name)).collect();
                let rule: Vec<&str> = table
                    .columns
                    .iter()
                    .map(|(_, align)| if *align == Align::Right { "---:" } else { ":---" })
                    .collect();
                out += &format!("| {} |\n| {} |\n", header.join(" | "), rule.join(" | "));
                for row in &table.rows {
                    out += &format!("| {} |\n", row.iter().map(|c| cell(c)).collect::<Vec<_>>().join(" | "));
                }
                out.push('\n');
            }
            Block::Plot { caption, svg } => out += &plot(&caption, svg),
        }
    }
    out
}

/// A markdown table cell: pipes escaped, no line breaks.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

impl Table {
    /// The table as text, each column padded to its widest cell, two spaces
    /// apart; `rule`: a line of dashes under the header.
    pub fn text(&self, rule: bool) -> String {
        let mut widths: Vec<usize> = self.columns.iter().map(|(name, _)| name.chars().count()).collect();
        for row in &self.rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let line = |cells: Vec<&str>| {
            let padded: Vec<String> = cells
                .iter()
                .zip(&widths)
                .zip(&self.columns)
                .map(|((cell, width), (_, align))| {
                    let pad = " ".repeat(width.saturating_sub(cell.chars().count()));
                    if *align == Align::Right { format!("{pad}{cell}") } else { format!("{cell}{pad}") }
                })
                .collect();
            format!("{}\n", padded.join("  ").trim_end())
        };
        let mut out = line(self.columns.iter().map(|(name, _)| name.as_str()).collect());
        if rule {
            let dashes: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
            out += &line(dashes.iter().map(String::as_str).collect());
        }
        for row in &self.rows {
            out += &line(row.iter().map(String::as_str).collect());
        }
        out
    }
}
