//! What played: each engine's executable, `id name` and bench per run and
//! machine (`engine_identities`).

use model::EngineIdentity;

use crate::conn::Cells;
use crate::{Db, DbError};

impl Db {
    /// Records what played `identity.engine` of run `run` on `identity.host`.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn record_identity(&self, run: i64, identity: &EngineIdentity) -> Result<(), DbError> {
        let mut tx = self.write().await?;
        tx.execute(
            sqlx::query(self.backend.sql(
                "INSERT INTO engine_identities (run_id, engine, host, sha256, id_name, bench, nps, accepted, seen_ms) \
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, {now_ms})",
            ))
            .bind(run)
            .bind(&identity.engine)
            .bind(&identity.host)
            .bind(&identity.sha256)
            .bind(&identity.id_name)
            .bind(identity.bench)
            .bind(identity.nps)
            .bind(i64::from(identity.accepted)),
        )
        .await?;
        tx.commit().await
    }

    /// Everything recorded of run `run`'s engines, oldest first.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn identities(&self, run: i64) -> Result<Vec<EngineIdentity>, DbError> {
        let rows = self
            .rows_of_run(
                "SELECT engine, host, sha256, id_name, bench, nps, accepted, seen_ms FROM engine_identities \
                 WHERE run_id = ? ORDER BY id",
                run,
            )
            .await?;
        rows.iter()
            .map(|r| {
                Ok(EngineIdentity {
                    engine: r.cell("engine")?,
                    host: r.cell("host")?,
                    sha256: r.cell("sha256")?,
                    id_name: r.cell("id_name")?,
                    bench: r.cell("bench")?,
                    nps: r.cell("nps")?,
                    accepted: r.cell::<i64>("accepted")? != 0,
                    seen_ms: r.cell("seen_ms")?,
                })
            })
            .collect()
    }
}
