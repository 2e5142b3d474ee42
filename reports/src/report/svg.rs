//! Plots as inline SVG: a line plot (with an optional interval band and
//! horizontal rules) and a bar chart. Self-contained markup, no script, sized
//! by `viewBox` so a plot scales to a phone's width and prints.

use std::fmt::Write;

/// `text` with the special characters of HTML and SVG (XML) escaped.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The style of a plot's parts, by class, in the colours of `--fg`,
/// `--muted`, `--accent` and `--band`: shared by the HTML page and a plot
/// on its own ([`standalone`]).
macro_rules! plot_classes {
    () => {
        ".plot-title{font-size:13px;font-weight:600;fill:var(--fg)}.tick,.axis-label{font-size:11px;fill:var(--muted)}\
         .grid{stroke:#eaeef2}.axis{stroke:var(--muted)}.rule{stroke:#cf222e;stroke-dasharray:4 3}\
         .line{fill:none;stroke:var(--accent);stroke-width:1.8}.band{fill:var(--band);stroke:none}.bar{fill:var(--accent)}"
    };
}
pub(super) use plot_classes;

/// A plot as a file of its own (beside a markdown report, in a README):
/// its size in pixels, a white ground, and the style the HTML page would
/// give it.
pub(super) fn standalone(svg: &str) -> String {
    let style = concat!(
        "<style>svg{--fg:#1b1f24;--muted:#57606a;--accent:#0b5cad;--band:#0b5cad26;",
        "font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}",
        plot_classes!(),
        "</style><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>"
    );
    let Some(body) = svg.strip_prefix("<svg ") else { return svg.to_string() };
    let Some(end) = body.find('>') else { return svg.to_string() };
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg width=\"{WIDTH}\" height=\"{HEIGHT}\" {}>{style}{}\n",
        &body[..end],
        &body[end + 1..]
    )
}

const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 300.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 40.0;
/// Series colours (distinguishable with common colour-vision deficiencies: Okabe–Ito).
const PALETTE: [&str; 7] = ["#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000"];
/// Series with at most this many points get a marker at each point.
const MARKED_POINTS: usize = 24;

/// A line through points.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Series {
    pub name: String,
    pub points: Vec<(f64, f64)>,
}

/// A shaded interval: (x, low, high).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Band {
    pub points: Vec<(f64, f64, f64)>,
}

/// Lines against x, with an optional band and horizontal rules `(y, label)`.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LinePlot {
    pub title: String,
    pub x_label: &'static str,
    pub y_label: &'static str,
    pub series: Vec<Series>,
    pub band: Option<Band>,
    pub rules: Vec<(f64, String)>,
    /// Ticks on x named instead of numbered, `(x, name)`; numbered when empty.
    pub x_names: Vec<(f64, String)>,
}

/// Labelled bars.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Bars {
    pub title: String,
    pub x_label: &'static str,
    pub y_label: &'static str,
    pub bars: Vec<(String, f64)>,
}

/// "Nice" tick positions (1, 2, 5 × 10ⁿ) covering `[low, high]`.
fn ticks(low: f64, high: f64, wanted: usize) -> Vec<f64> {
    let span = (high - low).max(1e-9);
    let raw = span / wanted.max(1) as f64;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * magnitude).find(|s| *s >= raw).unwrap_or(raw);
    let first = (low / step).ceil() as i64;
    let last = (high / step).floor() as i64;
    (first..=last).map(|i| i as f64 * step).collect()
}

fn label(value: f64) -> String {
    if value.abs() >= 1e6 {
        format!("{}M", trimmed(value / 1e6))
    } else if value.abs() >= 10_000.0 {
        format!("{}k", trimmed(value / 1e3))
    } else if value.fract().abs() < 1e-9 {
        format!("{value:.0}")
    } else {
        format!("{value:.1}")
    }
}

/// At most one decimal, none when whole.
fn trimmed(value: f64) -> String {
    if (value - value.round()).abs() < 0.05 { format!("{value:.0}") } else { format!("{value:.1}") }
}

/// The tick labels under the x axis.
enum XTicks<'a> {
    /// "Nice" numbers.
    Numbered,
    /// At these positions, these names.
    Named(&'a [(f64, String)]),
    /// None (bars label themselves).
    None,
}

/// Maps data coordinates into the plot area.
struct Frame {
    x: (f64, f64),
    y: (f64, f64),
}

impl Frame {
    fn new(x: (f64, f64), y: (f64, f64)) -> Frame {
        let widen = |(lo, hi): (f64, f64)| if hi - lo < 1e-9 { (lo - 1.0, hi + 1.0) } else { (lo, hi) };
        Frame { x: widen(x), y: widen(y) }
    }

    fn px(&self, x: f64) -> f64 {
        LEFT + (x - self.x.0) / (self.x.1 - self.x.0) * (WIDTH - LEFT - RIGHT)
    }

    fn py(&self, y: f64) -> f64 {
        HEIGHT - BOTTOM - (y - self.y.0) / (self.y.1 - self.y.0) * (HEIGHT - TOP - BOTTOM)
    }

    /// Opening tag, title, axes, grid and tick labels.
    fn open(&self, out: &mut String, title: &str, x_label: &str, y_label: &str, x_ticks: XTicks) {
        let _ = write!(
            out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"img\" class=\"plot\" \
             aria-label=\"{t}\"><title>{t}</title>\
             <text x=\"{LEFT}\" y=\"18\" class=\"plot-title\">{t}</text>",
            t = escape(title)
        );
        for y in ticks(self.y.0, self.y.1, 5) {
            let py = self.py(y);
            let _ = write!(
                out,
                "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{py:.1}\" y2=\"{py:.1}\" class=\"grid\"/>\
                 <text x=\"{}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"end\">{}</text>",
                WIDTH - RIGHT,
                LEFT - 6.0,
                py + 4.0,
                label(y)
            );
        }
        let numbered: Vec<(f64, String)>;
        let named = match x_ticks {
            XTicks::Numbered => {
                numbered = ticks(self.x.0, self.x.1, 6).into_iter().map(|x| (x, label(x))).collect();
                &numbered[..]
            }
            XTicks::Named(names) => names,
            XTicks::None => &[],
        };
        for (x, name) in named {
            let _ = write!(
                out,
                "<text x=\"{:.1}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>",
                self.px(*x),
                HEIGHT - BOTTOM + 16.0,
                escape(name)
            );
        }
        let _ = write!(
            out,
            "<line x1=\"{LEFT}\" x2=\"{LEFT}\" y1=\"{TOP}\" y2=\"{b}\" class=\"axis\"/>\
             <line x1=\"{LEFT}\" x2=\"{r}\" y1=\"{b}\" y2=\"{b}\" class=\"axis\"/>\
             <text x=\"{cx}\" y=\"{}\" class=\"axis-label\" text-anchor=\"middle\">{}</text>\
             <text x=\"14\" y=\"{cy}\" class=\"axis-label\" text-anchor=\"middle\" transform=\"rotate(-90 14 {cy})\">{}</text>",
            HEIGHT - 6.0,
            escape(x_label),
            escape(y_label),
            b = HEIGHT - BOTTOM,
            r = WIDTH - RIGHT,
            cx = (LEFT + WIDTH - RIGHT) / 2.0,
            cy = (TOP + HEIGHT - BOTTOM) / 2.0,
        );
    }
}

impl LinePlot {
    /// The plot as an `<svg>` element.
    pub fn to_svg(&self) -> String {
        let frame = self.frame();
        let mut out = String::new();
        let x_ticks = if self.x_names.is_empty() { XTicks::Numbered } else { XTicks::Named(&self.x_names) };
        frame.open(&mut out, &self.title, self.x_label, self.y_label, x_ticks);
        self.draw_band(&frame, &mut out);
        self.draw_rules(&frame, &mut out);
        self.draw_lines(&frame, &mut out);
        self.draw_legend(&mut out);
        out.push_str("</svg>");
        out
    }

    /// The frame that holds every finite point, band edge and rule.
    fn frame(&self) -> Frame {
        let xs = self.series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
        let mut ys: Vec<f64> = self.series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).collect();
        if let Some(band) = &self.band {
            ys.extend(band.points.iter().flat_map(|p| [p.1, p.2]));
        }
        ys.extend(self.rules.iter().map(|r| r.0));
        let finite = |v: &f64| v.is_finite();
        let (x_lo, x_hi) = xs.filter(finite).fold((f64::MAX, f64::MIN), |(lo, hi), x| (lo.min(x), hi.max(x)));
        let (y_lo, y_hi) =
            ys.into_iter().filter(finite).fold((f64::MAX, f64::MIN), |(lo, hi), y| (lo.min(y), hi.max(y)));
        // Counts (games, iterations) from 0; named ticks (budgets on a log
        // scale) span their own range, a little inside the frame.
        let (x_lo, x_hi) = match (x_lo > x_hi, self.x_names.is_empty()) {
            (true, _) => (0.0, 1.0),
            (false, true) => (x_lo.min(0.0), x_hi),
            (false, false) => (x_lo - (x_hi - x_lo) * 0.05, x_hi + (x_hi - x_lo) * 0.05),
        };
        let (y_lo, y_hi) = if y_lo > y_hi { (-1.0, 1.0) } else { (y_lo, y_hi) };
        let pad = (y_hi - y_lo).max(1.0) * 0.05;
        Frame::new((x_lo, x_hi), (y_lo - pad, y_hi + pad))
    }

    fn draw_band(&self, frame: &Frame, out: &mut String) {
        let Some(band) = &self.band else { return };
        let upper = band.points.iter().map(|p| (p.0, p.2));
        let lower = band.points.iter().rev().map(|p| (p.0, p.1));
        let path: Vec<String> = upper
            .chain(lower)
            .filter(|p| p.0.is_finite() && p.1.is_finite())
            .map(|(x, y)| format!("{:.1},{:.1}", frame.px(x), frame.py(y)))
            .collect();
        let _ = write!(out, "<polygon points=\"{}\" class=\"band\"/>", path.join(" "));
    }

    fn draw_rules(&self, frame: &Frame, out: &mut String) {
        for (y, text) in &self.rules {
            let py = frame.py(*y);
            let _ = write!(
                out,
                "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{py:.1}\" y2=\"{py:.1}\" class=\"rule\"/>\
                 <text x=\"{}\" y=\"{:.1}\" class=\"tick\" text-anchor=\"end\">{}</text>",
                WIDTH - RIGHT,
                WIDTH - RIGHT - 4.0,
                py - 4.0,
                escape(text)
            );
        }
    }

    /// Each series as a line in its colour, with a marker at each point when they are few.
    fn draw_lines(&self, frame: &Frame, out: &mut String) {
        for (index, series) in self.series.iter().enumerate() {
            let color = PALETTE[index % PALETTE.len()];
            let points: Vec<(f64, f64)> = series
                .points
                .iter()
                .filter(|p| p.0.is_finite() && p.1.is_finite())
                .map(|(x, y)| (frame.px(*x), frame.py(*y)))
                .collect();
            let path: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            let _ = write!(
                out,
                "<polyline points=\"{}\" class=\"line\" style=\"stroke:{color}\"><title>{}</title></polyline>",
                path.join(" "),
                escape(&series.name)
            );
            if points.len() <= MARKED_POINTS {
                for (x, y) in &points {
                    let _ = write!(out, "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"2.5\" style=\"fill:{color}\"/>");
                }
            }
        }
    }

    /// With more than one series, their names and colours at the top left,
    /// over the lines on a ground of their own.
    fn draw_legend(&self, out: &mut String) {
        if self.series.len() < 2 {
            return;
        }
        let longest = self.series.iter().map(|s| s.name.chars().count()).max().unwrap_or(0);
        let _ = write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{:.0}\" height=\"{}\" fill=\"#fff\" fill-opacity=\"0.85\"/>",
            LEFT + 6.0,
            TOP,
            30.0 + 6.5 * longest as f64,
            14.0 * self.series.len() as f64 + 2.0
        );
        for (index, series) in self.series.iter().enumerate() {
            let y = TOP + 14.0 * index as f64 + 8.0;
            let _ = write!(
                out,
                "<line x1=\"{x0}\" x2=\"{x1}\" y1=\"{y}\" y2=\"{y}\" style=\"stroke:{color};stroke-width:2\"/>\
                 <text x=\"{tx}\" y=\"{ty}\" class=\"tick\">{}</text>",
                escape(&series.name),
                color = PALETTE[index % PALETTE.len()],
                x0 = LEFT + 10.0,
                x1 = LEFT + 26.0,
                tx = LEFT + 30.0,
                ty = y + 4.0,
            );
        }
    }
}

impl Bars {
    /// The chart as an `<svg>` element.
    pub fn to_svg(&self) -> String {
        let top = self.bars.iter().map(|b| b.1).filter(|v| v.is_finite()).fold(0.0f64, f64::max);
        let frame = Frame::new((0.0, self.bars.len().max(1) as f64), (0.0, top.max(1.0) * 1.05));
        let mut out = String::new();
        frame.open(&mut out, &self.title, self.x_label, self.y_label, XTicks::None);
        let slot = (WIDTH - LEFT - RIGHT) / self.bars.len().max(1) as f64;
        let label_every = (self.bars.len() / 12).max(1);
        for (i, (name, value)) in self.bars.iter().enumerate() {
            let x = frame.px(i as f64);
            let y = frame.py(value.max(0.0));
            let _ = write!(
                out,
                "<rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\" class=\"bar\"><title>{}: {}</title></rect>",
                x + slot * 0.1,
                slot * 0.8,
                (HEIGHT - BOTTOM - y).max(0.0),
                escape(name),
                label(*value)
            );
            if i % label_every == 0 {
                let _ = write!(
                    out,
                    "<text x=\"{:.1}\" y=\"{}\" class=\"tick\" text-anchor=\"middle\">{}</text>",
                    x + slot / 2.0,
                    HEIGHT - BOTTOM + 16.0,
                    escape(name)
                );
            }
        }
        out.push_str("</svg>");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 100.0, 5), vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(ticks(-2.94, 2.94, 5), vec![-2.0, 0.0, 2.0]);
        assert_eq!(ticks(-2.94, 2.94, 8), vec![-2.0, -1.0, 0.0, 1.0, 2.0]);
        assert!(ticks(5.0, 5.0, 5).len() <= 1);
    }

    #[test]
    fn plots_survive_empty_and_non_finite_data() {
        let plot = LinePlot {
            title: "t <&>".to_string(),
            x_label: "x",
            y_label: "y",
            series: vec![Series { name: "s".to_string(), points: vec![(0.0, f64::NAN), (1.0, 2.0)] }],
            band: Some(Band { points: vec![] }),
            rules: vec![],
            x_names: Vec::new(),
        };
        let svg = plot.to_svg();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>") && !svg.contains("NaN"), "{svg}");
        assert!(svg.contains("t &lt;&amp;&gt;"));
        let bars = Bars { title: "b".to_string(), x_label: "x", y_label: "y", bars: vec![] };
        assert!(!bars.to_svg().contains("NaN"));
    }
}
