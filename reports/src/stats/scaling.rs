//! Whether an Elo difference changes with the search budget: a weighted
//! least-squares line through the Elo measured at each budget against
//! log₂ of the budget, each point weighted by the inverse of its variance
//! (its 95 % interval's half-width / 1.96, squared). The slope is Elo per
//! doubling of the budget; its standard error is √(1 / Σ wᵢ(xᵢ − x̄)²), the
//! textbook one for known point variances, and the p-value is that of a
//! normal z = slope / se, two-sided.

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, Normal};

use super::{interval, signed};

/// The line of Elo against log₂ budget.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Trend {
    /// Elo per doubling of the budget.
    pub slope: f64,
    /// Its 95 % interval.
    pub slope_ci95: [f64; 2],
    /// Two-sided p-value of "the Elo does not change with the budget".
    pub p_value: f64,
    /// The line's Elo at the first budget.
    pub intercept: f64,
}

/// The weighted line through `points`: (log₂ budget, Elo, standard error of
/// the Elo). `None` with fewer than two budgets, or budgets all alike.
pub fn trend(points: &[(f64, f64, f64)]) -> Option<Trend> {
    let usable: Vec<(f64, f64, f64)> =
        points.iter().copied().filter(|(x, y, se)| x.is_finite() && y.is_finite() && *se > 0.0).collect();
    if usable.len() < 2 {
        return None;
    }
    let weights: Vec<f64> = usable.iter().map(|(_, _, se)| 1.0 / (se * se)).collect();
    let total: f64 = weights.iter().sum();
    let mean_x = usable.iter().zip(&weights).map(|((x, _, _), w)| w * x).sum::<f64>() / total;
    let mean_y = usable.iter().zip(&weights).map(|((_, y, _), w)| w * y).sum::<f64>() / total;
    let sxx: f64 = usable.iter().zip(&weights).map(|((x, _, _), w)| w * (x - mean_x).powi(2)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let sxy: f64 = usable.iter().zip(&weights).map(|((x, y, _), w)| w * (x - mean_x) * (y - mean_y)).sum();
    let slope = sxy / sxx;
    let se = (1.0 / sxx).sqrt();
    let normal = Normal::standard();
    let z = normal.inverse_cdf(0.975);
    let first_x = usable.iter().map(|(x, _, _)| *x).fold(f64::INFINITY, f64::min);
    Some(Trend {
        slope,
        slope_ci95: [slope - z * se, slope + z * se],
        p_value: 2.0 * normal.cdf(-(slope / se).abs()),
        intercept: mean_y + slope * (first_x - mean_x),
    })
}

/// The trend of Elo measured at budgets: (budget, Elo, its 95 % interval)
/// each, the budget in nodes, depth or ms; the line runs through log₂ of
/// the budget, each point with the standard error its interval implies.
pub fn budget_trend(points: impl IntoIterator<Item = (f64, f64, [f64; 2])>) -> Option<Trend> {
    let line: Vec<(f64, f64, f64)> = points
        .into_iter()
        .map(|(budget, elo, [low, high])| (budget.log2(), elo, (high - low) / 2.0 / 1.959_964))
        .collect();
    trend(&line)
}

/// The slope and its interval, short: `-9.8 per doubling [-13.6, -6.1]`.
pub fn slope_text(trend: &Trend) -> String {
    format!("{} per doubling {}", signed(trend.slope), interval(trend.slope_ci95[0], trend.slope_ci95[1]))
}

/// The trend in one line, for every view.
pub fn verdict(trend: Option<&Trend>) -> String {
    let Some(t) = trend else {
        return "not measured (fewer than two budgets with a two-sided Elo interval)".to_string();
    };
    let change = format!(
        "{} Elo per doubling of the budget {}, {}",
        signed(t.slope),
        interval(t.slope_ci95[0], t.slope_ci95[1]),
        super::p_equals(t.p_value)
    );
    if t.p_value >= 0.05 {
        format!("{change}: no significant change with the budget")
    } else if t.slope > 0.0 {
        format!("{change}: the difference grows with the budget")
    } else {
        format!("{change}: the difference shrinks with the budget")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weighted_line_matches_a_hand_computation() {
        // Three budgets 1, 2, 4 (x = 0, 1, 2), Elo 0, 10, 30, standard errors
        // 10, 10, 20: weights 0.01, 0.01, 0.0025; Σw = 0.0225; x̄ = 0.015 / 0.0225
        // = 2/3; ȳ = (0.1 + 0.075) / 0.0225 = 7.7778; Sxx = 0.01·(4/9) +
        // 0.01·(1/9) + 0.0025·(16/9) = 0.01; Sxy = 0.01·(−2/3)(−7.7778) +
        // 0.01·(1/3)(2.2222) + 0.0025·(4/3)(22.2222) = 0.13333; slope 13.333,
        // se = √(1 / 0.01) = 10, z = 1.3333, p = 2·(1 − Φ(1.3333)) = 0.18242;
        // the line at x = 0: 7.7778 − 13.333·2/3 = −1.1111.
        let t = trend(&[(0.0, 0.0, 10.0), (1.0, 10.0, 10.0), (2.0, 30.0, 20.0)]).unwrap();
        assert!((t.slope - 13.3333).abs() < 1e-3, "{t:?}");
        assert!((t.slope_ci95[1] - t.slope - 19.5996).abs() < 1e-3, "{t:?}");
        assert!((t.p_value - 0.18242).abs() < 1e-4, "{t:?}");
        assert!((t.intercept + 1.1111).abs() < 1e-3, "{t:?}");
        assert!(verdict(Some(&t)).ends_with("no significant change with the budget"));
        let steep = trend(&[(0.0, -50.0, 5.0), (2.0, 0.0, 5.0), (4.0, 50.0, 5.0)]).unwrap();
        assert!(steep.p_value < 1e-6 && verdict(Some(&steep)).ends_with("grows with the budget"));
        assert_eq!(trend(&[(0.0, 1.0, 1.0)]), None);
    }
}
