//! Move overheads as a histogram: what a move cost beyond the time its
//! engine said it used ([`crate::MoveRecord::overhead_ms`]), kept per game
//! and side so that a report adds the histograms of a run's games instead of
//! reading every move.
//!
//! Buckets: every millisecond below 16 ms, then four per doubling (16, 20,
//! 24, 28, 32, 40, …), so a quantile is exact below 16 ms and rounded down
//! by less than a quarter above. The stored text is `bucket:count` pairs,
//! space-separated, buckets ascending (`0:31 1:9 17:1`).

use std::collections::BTreeMap;

/// Overheads of moves, in milliseconds, by bucket.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Latencies {
    counts: BTreeMap<u32, u64>,
}

/// Below this every millisecond has its own bucket.
const EXACT: u64 = 16;

/// The bucket of `ms`.
fn bucket(ms: u64) -> u32 {
    if ms < EXACT {
        return ms as u32;
    }
    let power = 63 - ms.leading_zeros(); // ≥ 4
    let quarter = ((ms >> (power - 2)) & 3) as u32;
    EXACT as u32 + (power - 4) * 4 + quarter
}

/// The smallest value of bucket `bucket`.
fn floor(bucket: u32) -> u64 {
    if u64::from(bucket) < EXACT {
        return u64::from(bucket);
    }
    let above = bucket - EXACT as u32;
    let (power, quarter) = (above / 4 + 4, u64::from(above % 4));
    (4 + quarter).checked_shl(power - 2).unwrap_or(u64::MAX)
}

impl Latencies {
    /// Counts one move that cost `ms` beyond its engine's time.
    pub fn add(&mut self, ms: u64) {
        *self.counts.entry(bucket(ms)).or_default() += 1;
    }

    /// Adds another histogram's moves.
    pub fn merge(&mut self, other: &Latencies) {
        for (&bucket, &count) in &other.counts {
            *self.counts.entry(bucket).or_default() += count;
        }
    }

    /// Its buckets with their counts, ascending (what [`Latencies::add_bucket`] takes).
    pub fn buckets(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.counts.iter().map(|(&bucket, &count)| (bucket, count))
    }

    /// Adds `count` moves to bucket `bucket` (one of [`Latencies::buckets`]);
    /// a bucket past the largest is ignored, as [`Latencies::decode`] does.
    pub fn add_bucket(&mut self, bucket: u32, count: u64) {
        if bucket < 256 {
            *self.counts.entry(bucket).or_default() += count;
        }
    }

    /// Moves counted.
    pub fn moves(&self) -> u64 {
        self.counts.values().sum()
    }

    /// The `q` quantile (0 < q ≤ 1) as its bucket's lower bound: the smallest
    /// bucket holding at least `q` of the moves. `None` without moves.
    pub fn quantile(&self, q: f64) -> Option<u64> {
        let total = self.moves();
        if total == 0 {
            return None;
        }
        let rank = ((q.clamp(0.0, 1.0) * total as f64).ceil() as u64).max(1);
        let mut seen = 0;
        self.counts.iter().find_map(|(&bucket, &count)| {
            seen += count;
            (seen >= rank).then(|| floor(bucket))
        })
    }

    /// The stored text (empty without moves).
    pub fn encode(&self) -> String {
        let pairs: Vec<String> = self.counts.iter().map(|(b, c)| format!("{b}:{c}")).collect();
        pairs.join(" ")
    }

    /// Reads [`Latencies::encode`]'s text; a pair that does not read is skipped.
    pub fn decode(text: &str) -> Latencies {
        let mut latencies = Latencies::default();
        for pair in text.split_whitespace() {
            if let Some((bucket, count)) = pair.split_once(':')
                && let (Ok(bucket), Ok(count)) = (bucket.parse::<u32>(), count.parse::<u64>())
                && bucket < 256
            {
                *latencies.counts.entry(bucket).or_default() += count;
            }
        }
        latencies
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_exact_below_16_then_four_per_doubling() {
        for ms in 0..16 {
            assert_eq!(floor(bucket(ms)), ms);
        }
        let floors: Vec<u64> = [16, 19, 20, 23, 24, 28, 31, 32, 39, 40, 1000].map(|ms| floor(bucket(ms))).to_vec();
        assert_eq!(floors, [16, 16, 20, 20, 24, 28, 28, 32, 32, 40, 896]);
        for ms in [16u64, 100, 1_000, 123_456, u64::MAX / 3] {
            let low = floor(bucket(ms));
            assert!(low <= ms && ms - low < low / 4 + 1, "{ms} → {low}");
        }
    }

    #[test]
    fn quantiles_of_a_merged_histogram_and_its_text() {
        let mut a = Latencies::default();
        for ms in [0, 1, 1, 2, 3] {
            a.add(ms);
        }
        let mut b = Latencies::default();
        for ms in [2, 2, 2, 2, 250] {
            b.add(ms);
        }
        a.merge(&b);
        assert_eq!(a.moves(), 10);
        assert_eq!(a.quantile(0.5), Some(2));
        assert_eq!(a.quantile(0.9), Some(3));
        assert_eq!(a.quantile(0.99), Some(224));
        assert_eq!(Latencies::decode(&a.encode()), a);
        assert_eq!(a.encode(), "0:1 1:2 2:5 3:1 31:1");
        assert_eq!(Latencies::default().quantile(0.5), None);
        assert_eq!(Latencies::decode("x 1:y 999:3 2:1").encode(), "2:1");
    }
}
