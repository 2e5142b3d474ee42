//! Elo, intervals, likelihood of superiority, p-values and normalized Elo.

use statrs::distribution::{Binomial, ContinuousCDF, DiscreteCDF, Normal};

use super::distribution::{Counts, mean_variance};

/// 800 / ln 10: normalized Elo per unit of t-value (fishtest's `nelo_divided_by_nt`).
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The expected score of an Elo difference (logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score in (0, 1).
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// Scores are kept this far from 0 and 1 (±3,600 Elo) when turned into Elo.
const SCORE_FLOOR: f64 = 1e-9;

fn standard_normal() -> Normal {
    Normal::standard()
}

/// Everything a user asks of a match result.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// A's mean score per game, in [0, 1] (from the raw counts).
    pub score: f64,
    /// Draw ratio (trinomial: draws/games; pentanomial: DD+WL pairs/pairs).
    pub draw_ratio: f64,
    /// Logistic Elo difference A − B.
    pub elo: f64,
    /// 95 % confidence interval of `elo`.
    pub elo_ci95: (f64, f64),
    /// Likelihood of superiority: P(A stronger than B).
    pub los: f64,
    /// Two-sided p-value of "A and B are equal" (normal approximation).
    pub p_value: f64,
    /// Normalized Elo.
    pub nelo: f64,
    /// 95 % confidence interval of `nelo`.
    pub nelo_ci95: (f64, f64),
    /// Set when A lost no game (or won none): the estimate rests on the
    /// regularised zero count and is a bound, not a point estimate.
    pub bound: Option<OneSided>,
    /// Set when the score's two-sided interval reaches 100 % (or 0 %): all
    /// won, or nearly so, where the Elo interval is unbounded or thousands
    /// wide. The side and the one-sided 95 % bound of the Elo (see
    /// [`one_sided_limit`]), which every view prints instead of `elo` and its
    /// interval.
    pub limit: Option<(OneSided, f64)>,
    /// Set when the normal interval says nothing: it reaches both 0 % and
    /// 100 % in score (a game won and a game lost), or it has no width but
    /// the regularisation's, every game (or pair) alike and neither all won
    /// nor all lost (one pair; a hundred draws, which fishtest's formula
    /// gives ±0.3 Elo). `elo_ci95` is then Wilson's two-sided interval, and
    /// no curve draws the point.
    pub wilson: bool,
}

/// One-sided 95 % bound of the Elo of a sample that lost nothing (or won
/// nothing): Wilson's score bound with a game's variance taken at its
/// largest, μ(1 − μ) (a score in [0, 1] with mean μ varies at most as a coin
/// does). It stays finite at a perfect score, where the two-sided interval of
/// the regularised sample is thousands of Elo wide, and it is conservative below
/// it. `games` counts games (a pair is two).
pub fn one_sided_limit(side: OneSided, score: f64, games: f64) -> f64 {
    let z = standard_normal().inverse_cdf(0.95);
    match side {
        OneSided::AtLeast => elo_of_score(wilson_lower(score, games, z).clamp(SCORE_FLOOR, 1.0 - SCORE_FLOOR)),
        OneSided::AtMost => -elo_of_score(wilson_lower(1.0 - score, games, z).clamp(SCORE_FLOOR, 1.0 - SCORE_FLOOR)),
    }
}

/// Wilson's lower score bound of a mean score `p` over `games` games at
/// `z`, a game's variance taken at its largest, p(1 − p).
fn wilson_lower(p: f64, games: f64, z: f64) -> f64 {
    let n = games.max(1.0);
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (centre - spread) / (1.0 + z * z / n)
}

/// The 95 % Elo interval of a sample for which the normal one says nothing
/// (see [`Summary::wilson`]): Wilson's two-sided score interval, a game's
/// variance at its largest.
fn wilson_elo_interval(score: f64, games: f64) -> (f64, f64) {
    let z = standard_normal().inverse_cdf(0.975);
    let clamp = |x: f64| x.clamp(SCORE_FLOOR, 1.0 - SCORE_FLOOR);
    (elo_of_score(clamp(wilson_lower(score, games, z))), -elo_of_score(clamp(wilson_lower(1.0 - score, games, z))))
}

/// An Elo as every view prints it: `+12.3 ± 4.5`, or where the score's
/// interval reaches 100 % (0 %) its one-sided bound, `> +507.3 (all won)`
/// (`all lost`, or `one-sided 95 % bound` when not every game went one way),
/// never the thousands that the regularised estimate would give.
pub fn elo_text(elo: f64, ci95: (f64, f64), bound: Option<(OneSided, f64)>, score: f64) -> String {
    match bound {
        None => format!("{} ± {:.1}", super::signed(elo), (ci95.1 - ci95.0) / 2.0),
        Some((OneSided::AtLeast, limit)) => {
            format!("> {} ({})", super::signed(limit), if score >= 1.0 { "all won" } else { "one-sided 95 % bound" })
        }
        Some((OneSided::AtMost, limit)) => {
            format!("< {} ({})", super::signed(limit), if score <= 0.0 { "all lost" } else { "one-sided 95 % bound" })
        }
    }
}

impl Summary {
    /// [`elo_text`] of this summary.
    pub fn elo_text(&self) -> String {
        elo_text(self.elo, self.elo_ci95, self.limit, self.score)
    }
}

/// Which side a one-sided estimate bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OneSided {
    /// A scored everything it could: the true Elo is at least about this.
    AtLeast,
    /// A scored nothing: the true Elo is at most about this.
    AtMost,
}

/// True when every sample of `ordered` (counts from the lowest score up)
/// went alike, neither all won nor all lost: one pair, or every game
/// drawn. Its spread is only the regularisation's.
pub fn alike(ordered: &[u64]) -> bool {
    let filled: Vec<usize> = (0..ordered.len()).filter(|&i| ordered[i] > 0).collect();
    matches!(filled[..], [only] if only != 0 && only != ordered.len() - 1)
}

/// The statistics of `counts`, or `None` for an empty sample.
pub fn summarize(counts: &Counts) -> Option<Summary> {
    let games = counts.games();
    if games == 0 {
        return None;
    }
    let ordered = counts.ordered();
    let samples: u64 = ordered.iter().sum();
    let raw_score = ordered.iter().enumerate().map(|(i, &c)| c as f64 * i as f64).sum::<f64>()
        / (samples as f64 * (ordered.len() - 1) as f64);
    let draw_ratio = ordered[ordered.len() / 2] as f64 / samples as f64;

    let (n, pdf) = counts.pdf();
    let (mu, variance) = mean_variance(&pdf);
    // Per-game standard error of μ: pairs count twice, with half the variance each.
    let (per_game_n, per_game_var) = if counts.is_pentanomial() { (2.0 * n, 2.0 * variance) } else { (n, variance) };
    let se = (per_game_var / per_game_n).sqrt();
    let normal = standard_normal();
    let z = normal.inverse_cdf(0.975);
    let elo = elo_of_score(mu);
    // Near score 0 or 1 the interval of μ leaves (0, 1); clamp it so that the
    // bound stays finite (the summary is labelled `bound` then).
    let clamp = |x: f64| x.clamp(SCORE_FLOOR, 1.0 - SCORE_FLOOR);
    let half = (elo_of_score(clamp(mu + z * se)) - elo_of_score(clamp(mu - z * se))) / 2.0;
    let (best, worst) = (ordered[ordered.len() - 1], ordered[0]);
    let wilson = (mu + z * se >= 1.0 && mu - z * se <= 0.0) || alike(&ordered);
    let games_played = if counts.is_pentanomial() { 2.0 * samples as f64 } else { samples as f64 };
    let one_sided = if wilson {
        None
    } else if mu + z * se >= 1.0 {
        Some(OneSided::AtLeast)
    } else if mu - z * se <= 0.0 {
        Some(OneSided::AtMost)
    } else {
        None
    };
    let los = normal.cdf((mu - 0.5) / se);
    let p_value = 2.0 * normal.cdf(-((mu - 0.5) / se).abs());

    // Normalized Elo: the t-value of the sample's score, with the delta-method
    // standard error of a t-value (skewness and kurtosis of the sample).
    let sigma = variance.sqrt();
    let t = (mu - 0.5) / sigma;
    let m3 = pdf.iter().map(|(a, p)| p * (a - mu).powi(3)).sum::<f64>() / sigma.powi(3);
    let m4 = pdf.iter().map(|(a, p)| p * (a - mu).powi(4)).sum::<f64>() / variance.powi(2);
    let t_se = ((1.0 - t * m3 + t * t * (m4 - 1.0) / 4.0) / n).sqrt();
    let per_game = if counts.is_pentanomial() { NELO_PER_T / std::f64::consts::SQRT_2 } else { NELO_PER_T };

    let bound = if samples == best {
        Some(OneSided::AtLeast)
    } else if samples == worst {
        Some(OneSided::AtMost)
    } else {
        let lower_half: u64 = ordered[..ordered.len() / 2].iter().sum();
        let upper_half: u64 = ordered[ordered.len() / 2 + 1..].iter().sum();
        match (lower_half, upper_half) {
            (0, u) if u > 0 => Some(OneSided::AtLeast),
            (l, 0) if l > 0 => Some(OneSided::AtMost),
            _ => None,
        }
    };
    Some(Summary {
        games,
        score: raw_score,
        draw_ratio,
        elo,
        elo_ci95: if wilson { wilson_elo_interval(raw_score, games_played) } else { (elo - half, elo + half) },
        los,
        p_value,
        nelo: t * per_game,
        nelo_ci95: ((t - z * t_se) * per_game, (t + z * t_se) * per_game),
        bound,
        limit: one_sided.map(|side| (side, one_sided_limit(side, raw_score, per_game_n))),
        wilson,
    })
}

/// Exact two-sided sign test of "A and B are equal" on the decisive games:
/// under the null hypothesis each decisive game is a win for A with
/// probability ½, draws carry no information. Honest for the papers' small
/// matches, where the normal approximation is poor.
pub fn exact_p_value(wins: u64, losses: u64) -> f64 {
    let decisive = wins + losses;
    if decisive == 0 {
        return 1.0;
    }
    let Ok(binomial) = Binomial::new(0.5, decisive) else { return 1.0 };
    let extreme = wins.min(losses);
    (2.0 * binomial.cdf(extreme)).min(1.0)
}

/// Cutechess's Elo and 95 % error margin: the same logistic model without
/// regularisation (a sample without wins, draws or losses gives no margin).
pub fn cutechess_elo(wins: u64, draws: u64, losses: u64) -> Option<(f64, f64)> {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return None;
    }
    let (w, d, l) = (wins as f64 / n, draws as f64 / n, losses as f64 / n);
    let mu = w + d / 2.0;
    if mu <= 0.0 || mu >= 1.0 {
        return None;
    }
    let variance = w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2);
    let se = (variance / n).sqrt();
    let z = standard_normal().inverse_cdf(0.975);
    let (lo, hi) = ((mu - z * se).max(SCORE_FLOOR), (mu + z * se).min(1.0 - SCORE_FLOOR));
    Some((elo_of_score(mu), (elo_of_score(hi) - elo_of_score(lo)) / 2.0))
}

#[cfg(test)]
mod one_sided_tests {
    use super::*;

    #[test]
    fn a_one_sided_sample_prints_wilsons_bound() {
        // Wilson's one-sided 95 % bound, z = 1.6449, computed by hand: all of
        // 50 games won gives a score of at least 50 / (50 + z²) = 0.94867, Elo 506.69;
        // 49 of 50 points with no loss (score 0.98) gives 0.91519, Elo 413.24.
        assert!((one_sided_limit(OneSided::AtLeast, 1.0, 50.0) - 506.686).abs() < 0.01);
        assert!((one_sided_limit(OneSided::AtLeast, 0.98, 50.0) - 413.236).abs() < 0.01);
        assert!((one_sided_limit(OneSided::AtMost, 0.0, 50.0) + 506.686).abs() < 0.01);

        // 25 pairs all won: the views print the bound, never the regularised thousands.
        let all_won = summarize(&Counts::Pentanomial([0, 0, 0, 0, 25])).unwrap();
        assert_eq!(all_won.bound, Some(OneSided::AtLeast));
        assert_eq!(all_won.limit.map(|(side, _)| side), Some(OneSided::AtLeast));
        assert_eq!(all_won.elo_text(), "> +506.7 (all won)");
        let no_loss = summarize(&Counts::Trinomial { wins: 48, draws: 2, losses: 0 }).unwrap();
        assert_eq!(no_loss.elo_text(), "> +413.2 (one-sided 95 % bound)");
        let all_lost = summarize(&Counts::Trinomial { wins: 0, draws: 0, losses: 10 }).unwrap();
        assert!(all_lost.elo_text().starts_with("< -") && all_lost.elo_text().ends_with("(all lost)"));
        // No pair lost, but pairs drawn and split: the interval stays inside
        // (0, 1) in score, so the Elo keeps its two-sided interval.
        let split = summarize(&Counts::Pentanomial([0, 0, 3, 0, 1])).unwrap();
        assert_eq!((split.bound, split.limit), (Some(OneSided::AtLeast), None));
        // A game won and a game lost: the normal interval reaches 0 and 1
        // in score, so no side is bounded; Wilson's two-sided interval at
        // n = 2, p = ½ by hand: ½ ± 1.96·√(0.125 + 0.2401) / 2.9208 =
        // [0.09453, 0.90547], Elo ∓392.5.
        let split = summarize(&Counts::Trinomial { wins: 1, draws: 0, losses: 1 }).unwrap();
        assert_eq!((split.limit, split.wilson), (None, true));
        assert_eq!(split.elo_text(), "+0.0 ± 392.5");
        // Every game drawn, or a single pair: no spread but the
        // regularisation's, so Wilson's interval, not fishtest's ±0.3 Elo
        // for 100 draws. By hand, n = 100, p = ½: [0.40383, 0.59617], Elo ∓67.7;
        // one pair won and drawn, n = 2, p = ¾: [0.19787, 0.97332], Elo −243.1 … +624.8.
        let drawn = summarize(&Counts::Trinomial { wins: 0, draws: 100, losses: 0 }).unwrap();
        assert_eq!((drawn.limit, drawn.wilson, drawn.elo_text()), (None, true, "+0.0 ± 67.7".to_string()));
        let one_pair = summarize(&Counts::Pentanomial([0, 0, 0, 1, 0])).unwrap();
        assert!(one_pair.wilson && (one_pair.elo_ci95.0 + 243.1).abs() < 0.1, "{:?}", one_pair.elo_ci95);
        assert!((one_pair.elo_ci95.1 - 624.8).abs() < 0.1, "{:?}", one_pair.elo_ci95);
        // A two-sided sample keeps its interval.
        let mixed = summarize(&Counts::Trinomial { wins: 10, draws: 10, losses: 10 }).unwrap();
        assert_eq!((mixed.limit, mixed.wilson), (None, false));
        assert!(mixed.elo_text().starts_with("+0.0 ± "), "{}", mixed.elo_text());
    }
}
