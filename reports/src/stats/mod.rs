//! Match statistics from trinomial (W/D/L) or pentanomial (game-pair) counts.
//!
//! Conventions follow fishtest: zero counts are regularised to 10⁻³ before
//! estimating (so a sample without losses gives a finite, labelled bound,
//! never a NaN), the 95 % interval is `elo ± (elo(μ⁺) − elo(μ⁻))/2` with
//! μ± = μ ± 1.96σ/√n, normalized Elo is (μ − ½)/σ per game × 800/ln 10.

pub mod answer;
mod distribution;
pub mod elo;
pub mod family;
pub mod machines;
pub mod ratings;
pub mod scaling;
pub mod sequential;
pub mod sprt;

pub use distribution::Counts;
pub use elo::{Summary, summarize};

/// A p-value as the reports print it: three decimals, `< 0.001` for what
/// three decimals would print as 0.000, and four where three would print
/// 0.050, so that the side of 5 % the verdict beside it took shows (0.0496,
/// significant; 0.0502, not).
pub fn p_value(p: f64) -> String {
    if p < 0.0005 {
        "< 0.001".to_string()
    } else if (0.0495..0.0505).contains(&p) {
        format!("{p:.4}")
    } else {
        format!("{p:.3}")
    }
}

/// A likelihood of superiority as the reports print it: one decimal, and
/// where one decimal would print 97.5 % or 2.5 % (the threshold the
/// verdict beside it uses), two, or `> 97.5 %` / `≤ 97.5 %` (`< 2.5 %` /
/// `≥ 2.5 %`) when two would still sit on the line, so that the side the
/// verdict took shows, as [`p_value`] does for p.
pub fn los_text(los: f64) -> String {
    let x = 100.0 * los;
    let shown = format!("{x:.1}");
    if shown != "97.5" && shown != "2.5" {
        return format!("{shown} %");
    }
    let two = format!("{x:.2}");
    let line = if shown == "97.5" { 97.5 } else { 2.5 };
    if two != format!("{line:.2}") {
        return format!("{two} %");
    }
    match (line == 97.5, x > line, x < line) {
        (true, true, _) => "> 97.5 %".to_string(),
        (true, false, _) => "≤ 97.5 %".to_string(),
        (false, _, true) => "< 2.5 %".to_string(),
        (false, _, false) => "≥ 2.5 %".to_string(),
    }
}

/// `x` signed, to one decimal: `+12.3`, `-4.0`, and `+0.0` for whatever
/// rounds to zero, never `-0.0` (a tiny negative difference, or a negative
/// zero, would print so).
pub fn signed(x: f64) -> String {
    let text = format!("{x:+.1}");
    if text == "-0.0" { "+0.0".to_string() } else { text }
}

/// A 95 % interval, `[-3.9, +0.4]`: each end as [`signed`] prints it,
/// but an end that one decimal would print as `+0.0` while it is not zero
/// keeps its sign, with the fewest decimals (two to six) that show a digit
/// other than zero (`-0.04`), so that an interval that excludes zero, as
/// its significant verdict says, shows it (below 10⁻⁶ an end is zero but
/// for rounding).
pub fn interval(low: f64, high: f64) -> String {
    format!("[{}, {}]", interval_end(low), interval_end(high))
}

fn interval_end(x: f64) -> String {
    let text = signed(x);
    if text != "+0.0" || x.abs() < 1e-6 {
        return text;
    }
    (2..=6)
        .map(|decimals| format!("{x:+.decimals$}"))
        .find(|shown| shown.bytes().any(|b| (b'1'..=b'9').contains(&b)))
        .unwrap_or(text)
}

/// `p = 0.046`, or `p < 0.001`, for a sentence.
pub fn p_equals(p: f64) -> String {
    let value = p_value(p);
    if value.starts_with('<') { format!("p {value}") } else { format!("p = {value}") }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_p_values_are_bounded_not_zero() {
        assert_eq!(p_equals(0.0464), "p = 0.046");
        assert_eq!(p_equals(0.0005), "p = 0.001");
        assert_eq!(p_equals(0.000_49), "p < 0.001");
        assert_eq!(p_equals(0.0), "p < 0.001");
        assert_eq!(p_value(1e-12), "< 0.001");
        assert_eq!(p_value(0.5), "0.500");
        assert_eq!(p_equals(0.049_62), "p = 0.0496", "below 5 %, and says so");
        assert_eq!(p_equals(0.050_21), "p = 0.0502");
        assert_eq!(p_equals(0.0505), "p = 0.051");
        assert_eq!(p_equals(0.0494), "p = 0.049");
    }

    #[test]
    fn the_los_on_the_line_shows_its_side() {
        assert_eq!(los_text(0.975_000_000_001), "> 97.5 %");
        assert_eq!(los_text(0.975), "≤ 97.5 %");
        assert_eq!(los_text(0.9749), "97.49 %");
        assert_eq!(los_text(0.9753), "97.53 %");
        assert_eq!(los_text(0.024_999_999_999), "< 2.5 %");
        assert_eq!(los_text(0.025), "≥ 2.5 %");
        assert_eq!(los_text(0.5), "50.0 %");
        assert_eq!(los_text(0.9999), "100.0 %");
    }

    #[test]
    fn an_interval_end_near_zero_keeps_its_sign() {
        assert_eq!(interval(-3.9, -0.036), "[-3.9, -0.04]");
        assert_eq!(interval(0.004, 2.0), "[+0.004, +2.0]");
        assert_eq!(interval(-0.0097, 1.0), "[-0.01, +1.0]", "the fewest decimals that show a digit");
        assert_eq!(interval(-0.0, 0.0), "[+0.0, +0.0]");
        assert_eq!(interval(-12.34, 0.06), "[-12.3, +0.1]");
        assert_eq!(interval(-1e-15, 1.0), "[+0.0, +1.0]", "what is zero but for rounding errors is zero");
    }
}
