//! The report as one self-contained HTML page: inline CSS and SVG, no
//! script, no network; tables scroll sideways on a phone, plots scale to the
//! width, and the page prints without the scroll boxes.

use super::document::{Align, Block, Layout, Table};
use super::svg::{escape, plot_classes};

/// The page style: inline, so a page needs nothing from the network.
pub const HTML_STYLE: &str = concat!(
    ":root{color-scheme:light;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--accent:#0b5cad;--band:#0b5cad26}\
body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--fg);margin:0 auto;\
max-width:60rem;padding:1rem}\
h1{font-size:1.4rem;margin:.2rem 0 .6rem}h2{font-size:1.15rem;margin:1.6rem 0 .5rem;border-bottom:1px solid var(--line)}\
ul{padding-left:1.2rem;margin:.3rem 0}pre{background:#f6f8fa;padding:.6rem;overflow-x:auto;font-size:13px}\
.scroll{overflow-x:auto;margin:.5rem 0}table{border-collapse:collapse;font-variant-numeric:tabular-nums}\
th,td{padding:.2rem .6rem;border-bottom:1px solid var(--line);white-space:nowrap}th{text-align:left}\
.r{text-align:right}figure{margin:.8rem 0}figcaption{color:var(--muted);font-size:.9rem}\
svg.plot{width:100%;height:auto;max-width:640px;display:block}",
    plot_classes!(),
    "@media print{body{max-width:none}.scroll{overflow:visible}h2{break-after:avoid}figure,table{break-inside:avoid}}"
);

impl Table {
    /// The table as HTML, in a box that scrolls sideways on a narrow screen.
    pub fn html(&self) -> String {
        self.html_linking(None)
    }

    /// [`Table::html`] with the cells of column `link.0` linking to
    /// `link.1` followed by the cell (a run's number to `/runs/N`); an
    /// empty cell links nowhere.
    pub fn html_linking(&self, link: Option<(usize, &str)>) -> String {
        let class = |align: &Align| if *align == Align::Right { " class=\"r\"" } else { "" };
        let mut out = String::from("<div class=\"scroll\"><table><thead><tr>");
        for (name, align) in &self.columns {
            out += &format!("<th{}>{}</th>", class(align), escape(name));
        }
        out += "</tr></thead><tbody>\n";
        for row in &self.rows {
            out += "<tr>";
            for (i, (cell, (_, align))) in row.iter().zip(&self.columns).enumerate() {
                let text = escape(cell);
                let text = match link {
                    Some((column, to)) if column == i && !cell.is_empty() => {
                        format!("<a href=\"{}\">{text}</a>", escape(&format!("{to}{cell}")))
                    }
                    _ => text,
                };
                out += &format!("<td{}>{text}</td>", class(align));
            }
            out += "</tr>\n";
        }
        out + "</tbody></table></div>\n"
    }
}

/// The report as an HTML document.
pub fn render_html(report: &impl Layout) -> String {
    let (title, body) = render_html_body(report);
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{}</title><style>{HTML_STYLE}</style></head>\n<body>\n{body}</body></html>\n",
        escape(&title)
    )
}

/// The report's title and the HTML of its blocks, for a page of one's own
/// (the dashboard) that uses [`HTML_STYLE`].
pub fn render_html_body(report: &impl Layout) -> (String, String) {
    let document = report.layout();
    let title = document.title;
    let mut body = String::new();
    for block in document.blocks {
        match block {
            Block::Heading(level, text) => body += &format!("<h{level}>{}</h{level}>\n", escape(&text)),
            Block::Lines(true, lines) => body += &format!("<pre>{}</pre>\n", escape(&lines.join("\n"))),
            Block::Lines(false, lines) => {
                body += "<ul>";
                for line in lines {
                    body += &format!("<li>{}</li>", escape(&line));
                }
                body += "</ul>\n";
            }
            Block::Table(table) => body += &table.html(),
            Block::Plot { caption, svg } => {
                body += &format!("<figure>{svg}<figcaption>{}</figcaption></figure>\n", escape(&caption));
            }
        }
    }
    (title, body)
}
