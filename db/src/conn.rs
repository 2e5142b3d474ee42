//! Where statements run, and the one place their sqlx errors become
//! [`DbError`]s (classified by the database's code, see `connect.rs`): a
//! [`Conn`] (a write transaction, or a pooled connection for a statement
//! committed alone) and the pool itself, through [`Db`]'s methods of the
//! same names; and [`Cells`], how every row's columns are read.

use futures_util::{Stream, TryStreamExt};
use sqlx::any::{AnyArguments, AnyQueryResult, AnyRow};
use sqlx::pool::PoolConnection;
use sqlx::query::Query;
use sqlx::{Any, AnyConnection, Row, Transaction};

use crate::dialect::Backend;
use crate::{Db, DbError};

/// A row's columns read by name: a value that does not decode as `T` (a
/// column gone, NULL, another type) is [`DbError::Column`], not sqlx's panic.
pub(crate) trait Cells {
    /// The value of `column`.
    fn cell<T>(&self, column: &str) -> Result<T, DbError>
    where
        T: for<'r> sqlx::Decode<'r, Any> + sqlx::Type<Any>;

    /// The words of text column `column` (moves stored space-separated).
    fn words(&self, column: &str) -> Result<Vec<String>, DbError> {
        Ok(self.cell::<String>(column)?.split_whitespace().map(str::to_string).collect())
    }
}

impl Cells for AnyRow {
    fn cell<T>(&self, column: &str) -> Result<T, DbError>
    where
        T: for<'r> sqlx::Decode<'r, Any> + sqlx::Type<Any>,
    {
        self.try_get(column).map_err(|source| DbError::Column { column: column.to_string(), source })
    }
}

/// One statement with its bound parameters.
pub(crate) type Statement<'q> = Query<'q, Any, AnyArguments>;

/// A connection of `Db`'s pool that statements run on: a write transaction
/// ([`Db::write`], committed by [`Conn::commit`], rolled back when dropped)
/// or a connection whose statements each commit alone ([`Db::alone`]).
pub(crate) struct Conn<'d> {
    db: &'d Db,
    held: Held,
}

enum Held {
    Write(Transaction<'static, Any>),
    Alone(PoolConnection<Any>),
}

impl<'d> Conn<'d> {
    pub(crate) fn write(db: &'d Db, tx: Transaction<'static, Any>) -> Self {
        Conn { db, held: Held::Write(tx) }
    }

    pub(crate) fn alone(db: &'d Db, connection: PoolConnection<Any>) -> Self {
        Conn { db, held: Held::Alone(connection) }
    }

    fn connection(&mut self) -> &mut AnyConnection {
        match &mut self.held {
            Held::Write(tx) => tx,
            Held::Alone(connection) => connection,
        }
    }

    /// Runs a statement that returns no rows.
    pub(crate) async fn execute(&mut self, statement: Statement<'_>) -> Result<AnyQueryResult, DbError> {
        let db = self.db;
        statement.execute(self.connection()).await.map_err(|e| db.error(e))
    }

    /// The first row, if any.
    pub(crate) async fn fetch_optional(&mut self, statement: Statement<'_>) -> Result<Option<AnyRow>, DbError> {
        let db = self.db;
        statement.fetch_optional(self.connection()).await.map_err(|e| db.error(e))
    }

    /// The one row the statement returns (no row is an error).
    pub(crate) async fn fetch_one(&mut self, statement: Statement<'_>) -> Result<AnyRow, DbError> {
        let db = self.db;
        statement.fetch_one(self.connection()).await.map_err(|e| db.error(e))
    }

    /// Every row.
    pub(crate) async fn fetch_all(&mut self, statement: Statement<'_>) -> Result<Vec<AnyRow>, DbError> {
        let db = self.db;
        statement.fetch_all(self.connection()).await.map_err(|e| db.error(e))
    }

    /// Commits a write transaction; a connection's statements are committed
    /// already.
    pub(crate) async fn commit(self) -> Result<(), DbError> {
        match self.held {
            Held::Write(tx) => tx.commit().await.map_err(|e| self.db.error(e)),
            Held::Alone(_) => Ok(()),
        }
    }
}

impl Db {
    /// A write transaction: SQLite takes the write lock at once (`BEGIN
    /// IMMEDIATE`); PostgreSQL locks rows as statements reach them.
    pub(crate) async fn write(&self) -> Result<Conn<'_>, DbError> {
        let begin = || async {
            match self.backend {
                Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await,
                Backend::Postgres => self.pool.begin().await,
            }
        };
        match begin().await {
            // A transaction whose rollback failed (a full disk) left its
            // connection unusable: close it, and begin on a fresh one.
            Err(e) if e.to_string().contains("non-zero transaction depth") => {
                if let Ok(connection) = self.pool.acquire().await {
                    let _ = connection.close().await;
                }
                begin().await
            }
            begun => begun,
        }
        .map(|tx| Conn::write(self, tx))
        .map_err(|e| self.error(e))
    }

    /// A connection of the pool whose statements each commit alone (one
    /// round trip each).
    pub(crate) async fn alone(&self) -> Result<Conn<'_>, DbError> {
        let connection = self.pool.acquire().await.map_err(|e| self.error(e))?;
        Ok(Conn::alone(self, connection))
    }

    /// The first row the statement returns on the pool, if any.
    pub(crate) async fn fetch_optional(&self, statement: Statement<'_>) -> Result<Option<AnyRow>, DbError> {
        statement.fetch_optional(&self.pool).await.map_err(|e| self.error(e))
    }

    /// The one row the statement returns on the pool.
    pub(crate) async fn fetch_one(&self, statement: Statement<'_>) -> Result<AnyRow, DbError> {
        statement.fetch_one(&self.pool).await.map_err(|e| self.error(e))
    }

    /// Every row the statement returns on the pool.
    pub(crate) async fn fetch_all(&self, statement: Statement<'_>) -> Result<Vec<AnyRow>, DbError> {
        statement.fetch_all(&self.pool).await.map_err(|e| self.error(e))
    }

    /// The rows as they arrive, for results too large to hold at once.
    pub(crate) fn fetch<'q>(
        &'q self,
        statement: Statement<'q>,
    ) -> impl Stream<Item = Result<AnyRow, DbError>> + Send + 'q {
        statement.fetch(&self.pool).map_err(|e| self.error(e))
    }
}
