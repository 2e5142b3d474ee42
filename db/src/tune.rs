//! SPSA tuning runs (`arena tune`): the iterations and the current θ. An
//! iteration is written by [`Db::finish_pair`] in the transaction that
//! finishes its pair, so θ moves exactly once per counted pair, whoever
//! plays it, and a pair replayed after a crash moves it once.

use sqlx::any::AnyRow;

use model::{Perturbation, Spsa, TuneIteration};

use crate::conn::{Cells, Conn};
use crate::{Db, DbError};

/// θ now: the newest iteration's.
const LATEST_THETA: &str = "SELECT theta FROM tune_iterations WHERE run_id = ? ORDER BY id DESC LIMIT 1";

/// What finishing a tuning pair does: the SPSA step from the iteration played.
#[derive(Clone, Copy, Debug)]
pub struct TuneStep<'a> {
    /// The run's SPSA settings.
    pub spsa: &'a Spsa,
    /// What the pair played.
    pub perturbation: &'a Perturbation,
}

fn vector<T: serde::de::DeserializeOwned>(row: &AnyRow, column: &str) -> Result<Vec<T>, DbError> {
    serde_json::from_str(&row.cell::<String>(column)?)
        .map_err(|source| DbError::Json { column: column.to_string(), source })
}

fn json<T: serde::Serialize>(value: &[T]) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| "[]".to_string())
}

impl Db {
    /// The current θ of tuning run `run`: the newest iteration's, `None` before the first.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn tune_theta(&self, run: i64) -> Result<Option<Vec<f64>>, DbError> {
        let db = self.clone();
        let rows = self.detach(async move { db.rows_of_run(LATEST_THETA, run).await }).await?;
        rows.first().map(|row| vector(row, "theta")).transpose()
    }

    /// Every finished iteration of tuning run `run`, in finishing order.
    ///
    /// # Errors
    ///
    /// A database failure, or a row this version cannot read.
    pub async fn tune_iterations(&self, run: i64) -> Result<Vec<TuneIteration>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT k, flips, plus, minus, score, theta FROM tune_iterations WHERE run_id = ? ORDER BY id",
                run,
            )
            .await?;
        rows.iter()
            .enumerate()
            .map(|(i, row)| {
                Ok(TuneIteration {
                    perturbation: Perturbation {
                        k: u64::try_from(row.cell::<i64>("k")?).unwrap_or(0),
                        flips: vector(row, "flips")?,
                        plus: vector(row, "plus")?,
                        minus: vector(row, "minus")?,
                    },
                    score: row.cell("score")?,
                    theta: vector(row, "theta")?,
                    seq: i as i64 + 1,
                })
            })
            .collect()
    }

    /// Applies `step` to the stored θ for a pair that scored `score` and
    /// stores the iteration, inside the pair's finishing transaction (which
    /// holds the run's row lock, so concurrent pairs update θ one at a time).
    /// Returns θ after it.
    pub(crate) async fn record_iteration(
        &self,
        tx: &mut Conn<'_>,
        run: i64,
        pair: i64,
        step: TuneStep<'_>,
        score: i64,
    ) -> Result<Vec<f64>, DbError> {
        let row = tx.fetch_optional(sqlx::query(self.backend.sql(LATEST_THETA)).bind(run)).await?;
        let theta = match row {
            Some(row) => vector(&row, "theta")?,
            None => step.spsa.start(),
        };
        if theta.len() != step.spsa.params.len() {
            return Err(DbError::Unexpected(format!(
                "run {run} stores θ of {} values for {} parameters",
                theta.len(),
                step.spsa.params.len()
            )));
        }
        let after = step.spsa.step(&theta, step.perturbation, score);
        let p = step.perturbation;
        tx.execute(
            sqlx::query(self.backend.sql(
                "INSERT INTO tune_iterations (run_id, pair_id, k, flips, plus, minus, score, theta, finished_ms) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, {now_ms})",
            ))
            .bind(run)
            .bind(pair)
            .bind(i64::try_from(p.k).unwrap_or(i64::MAX))
            .bind(json(&p.flips))
            .bind(json(&p.plus))
            .bind(json(&p.minus))
            .bind(score)
            .bind(json(&after)),
        )
        .await?;
        Ok(after)
    }
}

#[cfg(test)]
mod tests {
    /// θ as stored reads back bit for bit: two values a tuning test met one
    /// unit in the last place off before serde_json's `float_roundtrip`.
    #[test]
    fn a_stored_vector_reads_back_bit_for_bit() {
        let theta = vec![433.277_956_392_385_93_f64, 205.932_490_541_737_05, 0.1 + 0.2, f64::MIN_POSITIVE, 1e300];
        let back: Vec<f64> = serde_json::from_str(&super::json(&theta)).unwrap();
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&back), bits(&theta));
    }
}
