//! Opening a database: a SQLite file (WAL, busy timeout, foreign keys, one
//! connection: one writer) or a PostgreSQL pool, migrated at open with the
//! backend's own folder (`migrations/sqlite`, `migrations/postgres`).

use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyRow};
use sqlx::pool::PoolOptions;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{Any, AnyConnection, AnyPool, ConnectOptions, Connection, Executor};

use crate::dialect::Backend;
use crate::{DbError, Target};

/// Connections per process to a PostgreSQL server: game slots, heartbeats
/// and progress share them.
const POSTGRES_CONNECTIONS: u32 = 8;

/// How long a query waits for a PostgreSQL connection (the pool retries
/// a refused one meanwhile): a server restart is waited out; beyond it the
/// caller hears [`DbError::Unreachable`] (a worker says it once, and tries
/// again).
const POSTGRES_WAIT: Duration = Duration::from_secs(10);

/// The page size of a new SQLite file. A game's packed moves (2 to 3 KB)
/// sit in one row: 4 KB pages hold one such row each and waste a third of
/// the file; 8 KB pages hold three. `arena compact` gives an older file
/// this size too.
pub(crate) const SQLITE_PAGE_SIZE: u32 = 8192;

/// SQLite waits this long for another process's write lock.
const SQLITE_BUSY_TIMEOUT_MS: u32 = 5000;

/// An open database.
#[derive(Clone, Debug)]
pub struct Db {
    pub(crate) pool: AnyPool,
    pub(crate) backend: Backend,
    shown: String,
    /// The SQLite file's URL, for [`Db::reader`].
    sqlite_url: Option<String>,
    /// The secret this process claims leases with on PostgreSQL (the server
    /// keeps its SHA-256: migration `0015_worker_guards`); `None` on SQLite.
    pub(crate) lease_key: Option<std::sync::Arc<str>>,
    /// The connections carried over TLS by this process, for a PostgreSQL
    /// server whose self-signed certificate sqlx's TLS refuses (`tls.rs`);
    /// kept open as long as the pool (held, never read).
    _tunnel: Option<std::sync::Arc<crate::tls::Tunnel>>,
}

/// 32 random bytes from the operating system, as hex: the key of the leases
/// this process claims.
fn new_lease_key() -> Result<std::sync::Arc<str>, DbError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| DbError::Unexpected(format!("no random numbers from the operating system: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect::<String>().into())
}

/// What a failed statement means for the user, as [`classify`] sorts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Failure {
    Denied,
    Lost,
    Locked,
    DiskFull,
    ReadOnly,
}

/// A failure by the database's own code: SQLite's result code (sqlx gives
/// the extended code, whose low byte is the primary: 5 BUSY, 6 LOCKED, 13
/// FULL, 8 READONLY, 14 CANTOPEN, 3 PERM), or PostgreSQL's SQLSTATE (42501
/// insufficient_privilege, class 08 connection exception, 57P operator
/// intervention such as a shutdown, 53100 disk_full, 25006
/// read_only_sql_transaction, 55P03 lock_not_available).
fn by_code(backend: Backend, code: &str) -> Option<Failure> {
    match backend {
        Backend::Sqlite => match code.parse::<i32>().ok()? & 0xff {
            5 | 6 => Some(Failure::Locked),
            13 => Some(Failure::DiskFull),
            3 | 8 | 14 => Some(Failure::ReadOnly),
            _ => None,
        },
        Backend::Postgres => match code {
            "42501" => Some(Failure::Denied),
            "53100" => Some(Failure::DiskFull),
            "25006" => Some(Failure::ReadOnly),
            "55P03" => Some(Failure::Locked),
            code if code.starts_with("08") || code.starts_with("57P") => Some(Failure::Lost),
            _ => None,
        },
    }
}

/// A failure that comes with no database code, by what it is or says: the
/// server unreachable (an I/O error, no connection within the pool's
/// wait), or an error sqlx or the system raised itself (a file that cannot
/// be opened, a disk that filled while writing the log).
fn by_kind(error: &sqlx::Error) -> Option<Failure> {
    if matches!(error, sqlx::Error::Io(_) | sqlx::Error::PoolTimedOut | sqlx::Error::Tls(_)) {
        return Some(Failure::Lost);
    }
    let text = error.to_string();
    let says = |words: &[&str]| words.iter().any(|w| text.contains(w));
    if says(&["database is locked", "database is busy"]) {
        Some(Failure::Locked)
    } else if says(&["disk is full", "No space left", "could not extend file"]) {
        Some(Failure::DiskFull)
    } else if says(&["readonly", "read-only", "unable to open", "permission denied"]) {
        Some(Failure::ReadOnly)
    } else {
        None
    }
}

/// `error` as the [`DbError`] that tells the user what to do, by the
/// database's code where it gives one; any other keeps sqlx's error as
/// its source.
fn classify(shown: &str, backend: Backend, error: sqlx::Error) -> DbError {
    let target = shown.to_string();
    let code = error.as_database_error().and_then(|e| e.code()).map(|code| code.to_string());
    let failure = code.as_deref().and_then(|code| by_code(backend, code)).or_else(|| by_kind(&error));
    let cause = || {
        let text = error.to_string();
        text.strip_prefix("error returned from database: ").unwrap_or(&text).to_string()
    };
    match failure {
        Some(Failure::Denied) => DbError::Denied { target, cause: cause() },
        Some(Failure::Lost) => DbError::Unreachable { target, cause: cause() },
        Some(Failure::Locked) => DbError::Locked { target },
        Some(Failure::DiskFull) => DbError::DiskFull { target },
        Some(Failure::ReadOnly) => DbError::ReadOnly { target },
        None => DbError::Query { target, source: error },
    }
}

/// What a database holding `tables` is when it is not arena's (nor new):
/// tables, but no migration record. The record is the first table arena
/// creates, so a database another arena process is migrating right now is
/// not mistaken for a foreign one (a record of another program's
/// migrations is refused by the migration check itself, before it runs).
fn foreign(tables: &[String]) -> Option<String> {
    let own = tables.iter().filter(|t| !t.starts_with("sqlite_")).count();
    (own > 0 && !tables.iter().any(|t| t == "_sqlx_migrations"))
        .then(|| format!("it holds another program's tables: {own} of them, none of arena's"))
}

/// The database files this process has opened outside SQLite (for the
/// migration lock and the header check), one descriptor per file, kept open
/// until the process ends. They must never be closed while SQLite has the
/// file open: closing any descriptor of a file drops every POSIX (`fcntl`)
/// lock the process holds on it, SQLite's included. A process whose shared
/// lock is gone looks closed to the others, and the next process to close
/// the database would then delete the write-ahead log this one still writes
/// to (two logs, one file: a corrupt database), as happened on a real run;
/// test `arena/tests/it/shared_file.rs`.
#[derive(Debug)]
struct HeldFile {
    file: std::fs::File,
    /// This process's opens of the file, one at a time (`flock` does not
    /// exclude a second lock through the same descriptor).
    opening: std::sync::Arc<tokio::sync::Mutex<()>>,
}

static HELD: std::sync::Mutex<Vec<(std::path::PathBuf, std::sync::Arc<HeldFile>)>> = std::sync::Mutex::new(Vec::new());

/// This process's descriptor of `path`, opened (or created empty) at the
/// first call. `None` when the file cannot be opened: the open that follows
/// says why.
fn held_file(path: &std::path::Path) -> Option<std::sync::Arc<HeldFile>> {
    use std::os::unix::fs::MetadataExt;
    let mut held = HELD.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    // The same file, not only the same name: a file deleted and made anew
    // at the path gets a descriptor of its own (the old one stays open).
    let same = |file: &std::fs::File| match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    };
    if let Some((_, file)) = held.iter().find(|(p, file)| p == path && same(&file.file)) {
        return Some(file.clone());
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .or_else(|_| std::fs::File::open(path))
        .ok()?;
    let file = std::sync::Arc::new(HeldFile { file, opening: std::sync::Arc::new(tokio::sync::Mutex::new(())) });
    held.push((path.to_path_buf(), file.clone()));
    Some(file)
}

/// An exclusive `flock` on the database file, held while one process looks
/// at and migrates it (SQLite's own locks are `fcntl` locks, which this does
/// not touch), with the file's mutex in this process. Released by `unlock`,
/// never by closing the file ([`held_file`]).
struct MigrationLock {
    file: std::sync::Arc<HeldFile>,
    _opening: tokio::sync::OwnedMutexGuard<()>,
}

impl Drop for MigrationLock {
    fn drop(&mut self) {
        let _ = self.file.file.unlock();
    }
}

async fn migration_lock(file: std::sync::Arc<HeldFile>) -> Option<MigrationLock> {
    let opening = file.opening.clone().lock_owned().await;
    let locked = file.clone();
    tokio::task::spawn_blocking(move || locked.file.lock()).await.ok()?.ok()?;
    Some(MigrationLock { file, _opening: opening })
}

/// Refuses, before anything writes to it, a file that is not a SQLite
/// database or one that holds another program's tables: the file stays
/// byte for byte as it was. A missing or empty file is a new database; a
/// file that cannot be inspected read-only is left to the open that follows.
async fn refuse_foreign_sqlite(path: &std::path::Path, file: Option<&HeldFile>, shown: &str) -> Result<(), DbError> {
    use std::os::unix::fs::FileExt;
    let not_arena = |what: String| DbError::NotArena { target: shown.to_string(), what };
    // Read through this process's held descriptor: opening and closing
    // another one here would drop SQLite's locks ([`held_file`]).
    let Some(file) = file else { return Ok(()) };
    let mut header = [0u8; 16];
    let mut read = 0;
    while read < header.len() {
        match file.file.read_at(&mut header[read..], read as u64) {
            Ok(0) => break,
            Ok(n) => read += n,
            Err(_) => return Ok(()),
        }
    }
    let header = &header[..read];
    if header.is_empty() {
        return Ok(());
    }
    if header != b"SQLite format 3\0" {
        return Err(not_arena("it is not a SQLite file".into()));
    }
    let options = SqliteConnectOptions::new().filename(path).read_only(true).disable_statement_logging();
    let Ok(mut connection) = options.connect().await else { return Ok(()) };
    let tables: Result<Vec<String>, _> =
        sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table'").fetch_all(&mut connection).await;
    let _ = connection.close().await;
    match tables {
        Ok(tables) => foreign(&tables).map_or(Ok(()), |what| Err(not_arena(what))),
        Err(e) if e.to_string().contains("not a database") => Err(not_arena("it is not a SQLite file".into())),
        // Held by another process beyond the busy timeout: said now, not
        // after a second wait for the same lock.
        Err(e) => match classify(shown, Backend::Sqlite, e) {
            locked @ DbError::Locked { .. } => Err(locked),
            _ => Ok(()),
        },
    }
}

/// A connection failure in one line, with the fix for the usual causes.
fn postgres_cause(error: &sqlx::Error) -> String {
    let text = error.to_string();
    let text = text.strip_prefix("error returned from database: ").unwrap_or(&text);
    let text = text.strip_prefix("error communicating with database: ").unwrap_or(text);
    if text.contains("password authentication failed") || text.contains("no password") {
        format!("{text} (give the password in PGPASSWORD, ~/.pgpass or the URL)")
    } else if text.contains("Connection refused") || text.contains("failed to lookup address") {
        format!("{text} (is the server running, and listening on that host and port?)")
    } else if text.contains("does not exist") {
        format!("{text} (create it, or name another database in the URL)")
    } else {
        text.to_string()
    }
}

impl Db {
    /// Opens the database: creates a missing SQLite file, connects to a
    /// PostgreSQL server, runs the migrations, and checks that it can be
    /// written.
    ///
    /// # Errors
    ///
    /// [`DbError::Open`], [`DbError::ReadOnly`] or [`DbError::Locked`]; their
    /// messages name the target without its password.
    pub async fn open(target: &Target) -> Result<Db, DbError> {
        Db::open_noting(target, |_| {}).await
    }

    /// [`Db::open`], calling `upgrading` before the schema of an existing
    /// database is migrated (so that a long upgrade can be said).
    ///
    /// # Errors
    ///
    /// As [`Db::open`].
    pub async fn open_noting(target: &Target, upgrading: impl FnOnce(Upgrade)) -> Result<Db, DbError> {
        sqlx::any::install_default_drivers();
        let shown = target.to_string();
        // Held until the migrations ran: SQLite's migrator takes no lock of
        // its own, and two processes migrating one fresh file at once (a run
        // and `arena show`, workers starting together) would both create
        // its tables.
        let mut tunnels = None;
        let (pool, backend, sqlite_url, migrating) = match target {
            Target::Sqlite(path) => {
                let (pool, url, migrating) = connect_sqlite(path, &shown).await?;
                (pool, Backend::Sqlite, Some(url), migrating)
            }
            Target::Postgres(url) => {
                let (pool, tunnel) = connect_postgres(url, &shown).await?;
                tunnels = tunnel;
                (pool, Backend::Postgres, None, None)
            }
        };
        let applied = applied_migrations(&pool).await;
        let migrated = migrate(&pool, backend, &shown, &applied, upgrading).await;
        drop(migrating);
        migrated?;
        if backend == Backend::Sqlite {
            // A new file is migrated with a rollback journal, which holds
            // next to nothing, where a write-ahead log would hold every page
            // written (about 1 MB): the file then enters WAL, which it keeps.
            sqlx::query("PRAGMA journal_mode = WAL")
                .execute(&pool)
                .await
                .map_err(|e| open_error(&shown, Backend::Sqlite, e))?;
            if applied_migrations(&pool).await != applied {
                let _ = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)").execute(&pool).await;
            }
        }
        let lease_key = match backend {
            Backend::Postgres => Some(new_lease_key()?),
            Backend::Sqlite => None,
        };
        let db = Db { pool, backend, shown, sqlite_url, lease_key, _tunnel: tunnels.map(std::sync::Arc::new) };
        let tx = db.write().await?;
        tx.commit().await?;
        // Runs stored before their counts were kept get them now (once).
        db.count_stored_runs().await?;
        Ok(db)
    }

    /// A handle for long reads beside a run's writes (the live PGN): on
    /// SQLite a connection of its own, so a page of games being read does
    /// not hold up the slots' claims and commits on the writing connection
    /// (the write-ahead log lets it read while they write); on PostgreSQL
    /// the same pool.
    ///
    /// # Errors
    ///
    /// [`DbError::Open`] when the second connection cannot be made.
    pub async fn reader(&self) -> Result<Db, DbError> {
        let Some(url) = &self.sqlite_url else { return Ok(self.clone()) };
        let options = AnyConnectOptions::from_url(
            &url.parse()
                .map_err(|e: url::ParseError| DbError::Open { target: self.shown.clone(), cause: e.to_string() })?,
        )
        .map_err(|e| open_error(&self.shown, Backend::Sqlite, e))?;
        let pragmas = vec![format!("PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}"), "PRAGMA query_only = ON".into()];
        let pool = sqlite_pool(options, pragmas, &self.shown).await?;
        Ok(Db {
            pool,
            backend: self.backend,
            shown: self.shown.clone(),
            sqlite_url: self.sqlite_url.clone(),
            lease_key: self.lease_key.clone(),
            _tunnel: None,
        })
    }

    /// Closes the connections (checkpointing SQLite's write-ahead log).
    pub async fn close(&self) {
        self.pool.close().await;
    }

    /// The file or URL, without a password.
    pub fn describe(&self) -> &str {
        &self.shown
    }

    /// Whether several machines can share this database (PostgreSQL).
    pub fn is_shared(&self) -> bool {
        self.backend == Backend::Postgres
    }

    pub(crate) fn error(&self, error: sqlx::Error) -> DbError {
        classify(&self.shown, self.backend, error)
    }

    /// Runs `job` to its end even if the caller stops waiting for it. A
    /// sqlx query dropped mid-way (a heartbeat's renewal when its game ends,
    /// a game's store when its run is decided) could keep SQLite's only
    /// connection from coming back to the pool: every other slot then
    /// waited 30 s for it and failed. Writes that a slot may abandon go
    /// through here: a task of their own, which no drop cancels.
    pub(crate) async fn detach<T: Send + 'static>(
        &self,
        job: impl Future<Output = Result<T, DbError>> + Send + 'static,
    ) -> Result<T, DbError> {
        match tokio::spawn(job).await {
            Ok(done) => done,
            Err(e) => Err(DbError::Unexpected(format!("a database task ended early: {e}"))),
        }
    }

    /// Waits, at most `limit`, until every connection of the pool is back
    /// in it. A query dropped mid-way (a heartbeat cancelled when its game
    /// ends) hands its connection back through a task spawned on the
    /// runtime that dropped it; a slot's own runtime must run that task
    /// before it ends, or SQLite's single connection is lost to every other
    /// slot and the caller (each waits its acquire timeout, then fails).
    pub async fn quiesce(&self, limit: std::time::Duration) {
        let deadline = std::time::Instant::now() + limit;
        while self.pool.num_idle() < self.pool.size() as usize && std::time::Instant::now() < deadline {
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        }
    }

    /// The rows of a query whose only parameter is a run id.
    pub(crate) async fn rows_of_run(&self, sql: &str, run: i64) -> Result<Vec<AnyRow>, DbError> {
        self.fetch_all(sqlx::query(self.backend.sql(sql)).bind(run)).await
    }

    /// The rows of a query about many runs: each `{runs}` in `sql` becomes
    /// a list of their ids, at most [`RUNS_AT_ONCE`] to a statement (a list
    /// of runs takes a statement or two, not one per run).
    pub(crate) async fn rows_of_runs(&self, sql: &str, runs: &[i64]) -> Result<Vec<AnyRow>, DbError> {
        let mut rows = Vec::new();
        for chunk in runs.chunks(RUNS_AT_ONCE) {
            let list = vec!["?"; chunk.len()].join(", ");
            let mut query = sqlx::query(self.backend.sql(&sql.replace("{runs}", &list)));
            for _ in 0..sql.matches("{runs}").count() {
                for &run in chunk {
                    query = query.bind(run);
                }
            }
            rows.extend(self.fetch_all(query).await?);
        }
        Ok(rows)
    }

    /// [`Db::rows_of_run`], each row made a `T` as it arrives: a view's
    /// thousands of rows (a million-game run's progress blocks) are not all
    /// held as rows at once, whose fresh memory a cold page paid for in page
    /// faults.
    pub(crate) async fn each_row_of_run<T>(
        &self,
        sql: &str,
        run: i64,
        mut make: impl FnMut(&AnyRow) -> Result<Option<T>, DbError>,
    ) -> Result<Vec<T>, DbError> {
        use futures_util::TryStreamExt;
        let mut rows = std::pin::pin!(self.fetch(sqlx::query(self.backend.sql(sql)).bind(run)));
        let mut out = Vec::new();
        while let Some(row) = rows.try_next().await? {
            out.extend(make(&row)?);
        }
        Ok(out)
    }
}

/// Run ids in one statement of [`Db::rows_of_runs`]: well below SQLite's
/// and PostgreSQL's limits on parameters, twice over.
const RUNS_AT_ONCE: usize = 500;

/// The PostgreSQL server the tests and benchmarks use: `ARENA_TEST_POSTGRES`,
/// or the one `.ci/start-postgres` starts.
#[cfg(feature = "test-support")]
pub const TEST_POSTGRES_DEFAULT: &str = "postgres://arena_test:arena_test@127.0.0.1:55432/arena_test";

/// Creates (or empties) database `name` on the PostgreSQL server of
/// `server` and returns its target. For tests and benchmarks: the role in
/// `server` needs the `CREATEDB` privilege.
///
/// # Errors
///
/// [`DbError::Open`] when the server cannot be reached or refuses.
#[cfg(feature = "test-support")]
pub async fn scratch_postgres(server: &Target, name: &str) -> Result<Target, DbError> {
    sqlx::any::install_default_drivers();
    let Target::Postgres(url) = server else {
        return Err(DbError::Open { target: server.to_string(), cause: "not a PostgreSQL URL".into() });
    };
    let open_error = |e: sqlx::Error| DbError::Open { target: server.to_string(), cause: e.to_string() };
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(DbError::Open { target: server.to_string(), cause: format!("bad database name '{name}'") });
    }
    let options: AnyConnectOptions = url.parse().map_err(open_error)?;
    let pool = pool_options::<Any>()
        .max_connections(1)
        .acquire_timeout(Duration::from_secs(5))
        .connect_with(options.disable_statement_logging())
        .await
        .map_err(open_error)?;
    for statement in [format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"), format!("CREATE DATABASE {name}")] {
        pool.execute(sqlx::AssertSqlSafe(statement)).await.map_err(open_error)?;
    }
    pool.close().await;
    let mut scratch =
        url::Url::parse(url).map_err(|e| DbError::Open { target: server.to_string(), cause: e.to_string() })?;
    scratch.set_path(&format!("/{name}"));
    Ok(Target::Postgres(scratch.to_string()))
}

/// An existing database's schema about to be upgraded ([`Db::open_noting`]).
#[derive(Clone, Copy, Debug)]
pub struct Upgrade {
    /// Migrations applied before.
    pub from: i64,
    /// Migrations applied after.
    pub to: i64,
}

/// The options every pool starts from: connections kept open, neither
/// closed when idle nor after a lifetime. With either limit set, sqlx 0.9.0
/// runs a task that sweeps the idle connections, and that task can spin at
/// 100 % of a core forever, the process never exiting, when a connection
/// returned at the same moment makes its idle count wrap below zero
/// (transact-rs/sqlx#3645, fixed by #4289 after 0.9.0): seen here as an
/// `arena scale` that had stored its last game and did not exit. A broken
/// connection is still replaced: the pool tests one before handing it out.
/// Tests that open a pool of their own on a database start from these too.
pub fn pool_options<DB: sqlx::Database>() -> PoolOptions<DB> {
    PoolOptions::new().idle_timeout(None).max_lifetime(None)
}

/// True when `error` is the TLS handshake's: sqlx's own TLS error, or the
/// I/O error rustls ends a handshake with when it refuses the server's
/// certificate (`invalid peer certificate: UnknownIssuer`).
fn tls_failure(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Tls(_) => true,
        sqlx::Error::Io(io) => io.kind() == std::io::ErrorKind::InvalidData && io.to_string().contains("certificate"),
        _ => false,
    }
}

/// A failure to open `shown`, its cause kept.
fn open_error(shown: &str, backend: Backend, e: sqlx::Error) -> DbError {
    if tls_failure(&e) {
        let cause = match &e {
            sqlx::Error::Tls(cause) => cause.to_string(),
            other => postgres_cause(other),
        };
        return DbError::Tls { target: shown.to_string(), mode: ssl_mode(shown), cause: tls_cause_in_words(&cause) };
    }
    match classify(shown, backend, e) {
        DbError::Query { source, .. } => DbError::Open { target: shown.to_string(), cause: source.to_string() },
        other => other,
    }
}

/// The `sslmode` of a PostgreSQL URL, libpq's default `prefer` when it
/// names none.
fn ssl_mode(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.query_pairs().find(|(key, _)| key == "sslmode").map(|(_, mode)| mode.into_owned()))
        .unwrap_or_else(|| "prefer".to_string())
}

/// `url` with libpq's default root certificate, `~/.postgresql/root.crt`
/// (under `home`), as its `sslrootcert` when it verifies the server
/// (`verify-ca`, `verify-full`), names none itself, `PGSSLROOTCERT` names
/// none either (`from_env`), and the file exists; else `url` as it is. Where
/// libpq refuses a verifying mode without that file, arena verifies against
/// the Mozilla roots it carries.
fn with_default_root_cert(url: &str, home: Option<&std::path::Path>, from_env: bool) -> String {
    let Ok(mut parsed) = url::Url::parse(url) else { return url.to_string() };
    let pairs: Vec<(String, String)> = parsed.query_pairs().into_owned().collect();
    let verifies = pairs.iter().any(|(k, v)| k == "sslmode" && (v == "verify-ca" || v == "verify-full"));
    let named = pairs.iter().any(|(k, _)| k == "sslrootcert");
    let default = home.map(|home| home.join(".postgresql").join("root.crt"));
    match default.filter(|file| verifies && !named && !from_env && file.is_file()) {
        Some(file) => {
            parsed.query_pairs_mut().append_pair("sslrootcert", &file.to_string_lossy());
            parsed.to_string()
        }
        None => url.to_string(),
    }
}

/// What a TLS library's refusal means, in words: rustls's reasons for
/// refusing a server's certificate (its `CertificateError` names), else the
/// text as it came.
pub(crate) fn tls_cause_in_words(cause: &str) -> String {
    const WORDS: [(&str, &str); 8] = [
        (
            "NotPinned",
            "the server presents a self-signed certificate that is not the one sslrootcert (or ~/.postgresql/root.crt) holds",
        ),
        (
            "CaUsedAsEndEntity",
            "the server presents a certificate authority's own certificate, which sslrootcert (or ~/.postgresql/root.crt) does not hold",
        ),
        (
            "UnknownIssuer",
            "the server's certificate is not signed by an authority that sslrootcert (or ~/.postgresql/root.crt) holds",
        ),
        ("NotValidForName", "the server's certificate does not name the host the URL names"),
        ("Expired", "the server's certificate has expired"),
        ("NotValidYet", "the server's certificate is not valid yet (is this machine's clock right?)"),
        ("Revoked", "the server's certificate has been revoked"),
        ("BadSignature", "the server's certificate's signature does not check"),
    ];
    WORDS
        .iter()
        .find(|(name, _)| cause.contains(name))
        .map_or_else(|| cause.to_string(), |(_, words)| (*words).to_string())
}

/// What to do about a failed TLS handshake under `mode`.
pub(crate) fn tls_hint(mode: &str) -> &'static str {
    match mode {
        "verify-ca" | "verify-full" => {
            "sslrootcert=FILE must name the certificate authority that signed the server's certificate, \
             or the certificate itself if it is self-signed (and verify-full, the host the URL names), \
             or sslmode=require encrypts without checking it (many-machines.md)"
        }
        _ => "check the server's ssl settings (ssl = on, its certificate and key)",
    }
}

/// The pool of one connection to the SQLite file `path` (made if missing,
/// its folder must exist), its URL, and the migration lock on it.
async fn connect_sqlite(
    path: &std::path::Path,
    shown: &str,
) -> Result<(AnyPool, String, Option<MigrationLock>), DbError> {
    let path = std::path::absolute(path).map_err(|e| DbError::Open { target: shown.into(), cause: e.to_string() })?;
    // SQLite says only "unable to open database file".
    if let Some(folder) = path.parent().filter(|folder| !folder.is_dir()) {
        let cause = format!("its folder '{}' does not exist", folder.display());
        return Err(DbError::Open { target: shown.into(), cause });
    }
    // SQLite says "unable to open database file" of a folder (taken for a
    // permission) and "disk I/O error" of a device.
    if let Some(kind) = std::fs::metadata(&path).ok().map(|m| m.file_type()).filter(|kind| !kind.is_file()) {
        let what = if kind.is_dir() { "a folder" } else { "a device, pipe or socket" };
        return Err(DbError::Open { target: shown.into(), cause: format!("it is {what}, not a file") });
    }
    let held = {
        let path = path.clone();
        tokio::task::spawn_blocking(move || held_file(&path)).await.ok().flatten()
    };
    let migrating = match &held {
        Some(file) => migration_lock(file.clone()).await,
        None => None,
    };
    refuse_foreign_sqlite(&path, held.as_deref(), shown).await?;
    let url = SqliteConnectOptions::new().filename(&path).create_if_missing(true).to_url_lossy();
    let options = AnyConnectOptions::from_url(&url).map_err(|e| open_error(shown, Backend::Sqlite, e))?;
    let pragmas = vec![
        format!("PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}"),
        "PRAGMA foreign_keys = ON".to_string(),
        // Only a new file takes it (before its first table).
        format!("PRAGMA page_size = {SQLITE_PAGE_SIZE}"),
        "PRAGMA synchronous = NORMAL".to_string(),
    ];
    let pool = sqlite_pool(options, pragmas, shown).await?;
    Ok((pool, url.to_string(), migrating))
}

/// A pool of one connection to a SQLite file, each connection set up by
/// `pragmas`. One connection is made and set up first, by itself: the
/// pool retries a connection whose setup fails until its acquire timeout
/// (30 s) and then says only "pool timed out", where this says why (a file
/// locked by another process beyond the busy timeout: [`DbError::Locked`]).
async fn sqlite_pool(options: AnyConnectOptions, pragmas: Vec<String>, shown: &str) -> Result<AnyPool, DbError> {
    let mut probe = AnyConnection::connect_with(&options).await.map_err(|e| open_error(shown, Backend::Sqlite, e))?;
    for pragma in &pragmas {
        probe.execute(sqlx::AssertSqlSafe(pragma.as_str())).await.map_err(|e| open_error(shown, Backend::Sqlite, e))?;
    }
    probe.close().await.map_err(|e| open_error(shown, Backend::Sqlite, e))?;
    pool_options::<Any>()
        .max_connections(1)
        .after_connect(move |connection, _| {
            let pragmas = pragmas.clone();
            Box::pin(async move {
                for pragma in pragmas {
                    connection.execute(sqlx::AssertSqlSafe(pragma)).await?;
                }
                Ok(())
            })
        })
        .connect_with(options)
        .await
        .map_err(|e| open_error(shown, Backend::Sqlite, e))
}

/// The pool of connections to the PostgreSQL database at `url`, refused if
/// its schema holds another program's tables.
async fn connect_postgres(url: &str, shown: &str) -> Result<(AnyPool, Option<crate::tls::Tunnel>), DbError> {
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let url = with_default_root_cert(url, home.as_deref(), std::env::var_os("PGSSLROOTCERT").is_some());
    let options: AnyConnectOptions = url.parse().map_err(|e| open_error(shown, Backend::Postgres, e))?;
    let options = options.disable_statement_logging();
    // One direct connection first: its error names the problem
    // (refused, unknown host, bad password) at once, where the
    // pool would retry until its timeout.
    let refused = |e: sqlx::Error| match tls_failure(&e) {
        true => open_error(shown, Backend::Postgres, e),
        false => DbError::Open { target: shown.into(), cause: postgres_cause(&e) },
    };
    let (options, tunnel) = match AnyConnection::connect_with(&options).await {
        Ok(probe) => {
            probe.close().await.map_err(|e| open_error(shown, Backend::Postgres, e))?;
            (options, None)
        }
        // A self-signed certificate, which libpq takes as its own trust
        // anchor where rustls refuses it: carried by this process (tls.rs).
        Err(e) if tls_failure(&e) && postgres_cause(&e).contains("CaUsedAsEndEntity") => {
            let (options, tunnel) = tunnel_to(&url, shown).await?;
            let probe = AnyConnection::connect_with(&options).await.map_err(refused)?;
            probe.close().await.map_err(|e| open_error(shown, Backend::Postgres, e))?;
            (options, Some(tunnel))
        }
        Err(e) => return Err(refused(e)),
    };
    let pool = pool_options::<Any>()
        .max_connections(POSTGRES_CONNECTIONS)
        .acquire_timeout(POSTGRES_WAIT)
        .connect_with(options)
        .await
        .map_err(|e| open_error(shown, Backend::Postgres, e))?;
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT CAST(table_name AS TEXT) FROM information_schema.tables WHERE table_schema = current_schema()",
    )
    .fetch_all(&pool)
    .await
    .map_err(|e| open_error(shown, Backend::Postgres, e))?;
    if let Some(what) = foreign(&tables) {
        pool.close().await;
        return Err(DbError::NotArena { target: shown.into(), what });
    }
    Ok((pool, tunnel))
}

/// The server at `url` through a [`crate::tls::Tunnel`]: its certificate
/// checked by a handshake first (a refusal in words, as sqlx's are), then
/// the options that make sqlx connect to the tunnel's socket without TLS,
/// every other parameter of the URL kept.
async fn tunnel_to(url: &str, shown: &str) -> Result<(AnyConnectOptions, crate::tls::Tunnel), DbError> {
    let tls_error = |cause: String| DbError::Tls { target: shown.into(), mode: ssl_mode(shown), cause };
    let parsed = url::Url::parse(url).map_err(|e| DbError::Open { target: shown.into(), cause: e.to_string() })?;
    let route = crate::tls::route(&parsed).map_err(tls_error)?;
    let checked = crate::tls::connect(&route).await.map_err(|e| tls_error(tls_cause_in_words(&e.to_string())))?;
    drop(checked);
    let tunnel = crate::tls::Tunnel::open(route)
        .map_err(|e| DbError::Open { target: shown.into(), cause: format!("cannot carry its TLS: {e}") })?;
    let mut local = parsed.clone();
    let carried = ["host", "hostaddr", "sslmode", "sslrootcert", "sslcert", "sslkey"];
    let kept: Vec<(String, String)> =
        parsed.query_pairs().into_owned().filter(|(key, _)| !carried.contains(&key.as_str())).collect();
    local
        .query_pairs_mut()
        .clear()
        .extend_pairs(kept)
        .append_pair("sslmode", "disable")
        .append_pair("host", &tunnel.folder().to_string_lossy());
    let options: AnyConnectOptions = local.as_str().parse().map_err(|e| open_error(shown, Backend::Postgres, e))?;
    Ok((options.disable_statement_logging(), tunnel))
}

/// Brings the schema up to date (`applied`: the versions it has), calling
/// `upgrading` first when an existing database is migrated.
async fn migrate(
    pool: &AnyPool,
    backend: Backend,
    shown: &str,
    applied: &[i64],
    upgrading: impl FnOnce(Upgrade),
) -> Result<(), DbError> {
    let applied_before = i64::try_from(applied.len()).unwrap_or(i64::MAX);
    let migrator = match backend {
        Backend::Sqlite => migrator(embedded::SQLITE),
        Backend::Postgres => migrator(embedded::POSTGRES),
    };
    let known = i64::try_from(migrator.iter().count()).unwrap_or(i64::MAX);
    if applied_before > 0 && applied_before < known {
        upgrading(Upgrade { from: applied_before, to: known });
    }
    // A schema already current is left alone: the migrator takes
    // PostgreSQL's advisory lock, a session's, which a transaction
    // pooler (PgBouncer) may leave held on a server connection that the
    // next client's migrator then waits on for ever.
    if applied.iter().copied().eq(migrator.iter().map(|m| m.version)) {
        return Ok(());
    }
    migrator.run(pool).await.map_err(|e| match e {
        sqlx::migrate::MigrateError::Execute(e) => open_error(shown, backend, e),
        sqlx::migrate::MigrateError::VersionMissing(version) => DbError::Newer { target: shown.into(), version },
        other => {
            let text = other.to_string();
            if text.contains("locked") {
                DbError::Locked { target: shown.into() }
            } else if text.contains("readonly") || text.contains("permission denied") {
                DbError::ReadOnly { target: shown.into() }
            } else {
                DbError::Open { target: shown.into(), cause: text }
            }
        }
    })
}

/// The `migrations` folder, embedded by `build.rs`.
mod embedded {
    include!(concat!(env!("OUT_DIR"), "/migrations.rs"));
}

/// sqlx's migrator of the embedded `files` (version, the file name after
/// `VERSION_`, SQL), each migration made as sqlx's `migrate!` makes it: its
/// description the name without `.sql` and with spaces for underscores,
/// its checksum the SQL's SHA-384, outside a transaction when the SQL opens
/// with `-- no-transaction`.
fn migrator(files: &[(i64, &str, &'static str)]) -> sqlx::migrate::Migrator {
    use sqlx::SqlSafeStr;
    use sqlx::migrate::{Migration, MigrationType, Migrator};
    Migrator::with_migrations(
        files
            .iter()
            .map(|&(version, rest, sql)| {
                let kind = MigrationType::from_filename(rest);
                let description = rest.trim_end_matches(kind.suffix()).replace('_', " ");
                let no_tx = sql.starts_with("-- no-transaction");
                Migration::new(version, description.into(), kind, sqlx::AssertSqlSafe(sql).into_sql_str(), no_tx)
            })
            .collect(),
    )
}

/// The versions of the migrations applied with success, in order (none
/// when the database has no tables yet).
async fn applied_migrations(pool: &sqlx::AnyPool) -> Vec<i64> {
    sqlx::query_scalar("SELECT version FROM _sqlx_migrations WHERE success ORDER BY version")
        .fetch_all(pool)
        .await
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verifying_url_without_a_root_certificate_takes_libpqs_default_file() {
        let home = std::env::temp_dir().join(format!("arena-root-crt-{}", std::process::id()));
        std::fs::create_dir_all(home.join(".postgresql")).unwrap();
        let url = "postgres://w@db.lan/arena?sslmode=verify-full";
        // No file: as given (the public authorities then).
        assert_eq!(with_default_root_cert(url, Some(&home), false), url);
        std::fs::write(home.join(".postgresql/root.crt"), "x").unwrap();
        let file = home.join(".postgresql/root.crt").display().to_string();
        let taken = with_default_root_cert(url, Some(&home), false);
        let given: Vec<(String, String)> = url::Url::parse(&taken).unwrap().query_pairs().into_owned().collect();
        assert!(given.contains(&("sslrootcert".into(), file)), "{taken}");
        let verify_ca = "postgres://w@db.lan/arena?sslmode=verify-ca";
        assert_ne!(with_default_root_cert(verify_ca, Some(&home), false), verify_ca);
        // Named in the URL or by PGSSLROOTCERT, or a mode that does not verify: as given.
        for (url, from_env) in [
            ("postgres://w@db.lan/arena?sslmode=verify-full&sslrootcert=/etc/ca.crt", false),
            (url, true),
            ("postgres://w@db.lan/arena?sslmode=require", false),
            ("postgres://w@db.lan/arena", false),
        ] {
            assert_eq!(with_default_root_cert(url, Some(&home), from_env), url);
        }
        std::fs::remove_dir_all(&home).unwrap();
    }

    #[test]
    fn a_refused_certificate_is_said_in_words() {
        let said = tls_cause_in_words("invalid peer certificate: UnknownIssuer");
        assert!(said.starts_with("the server's certificate is not signed by an authority"), "{said}");
        let said = tls_cause_in_words("invalid peer certificate: Other(OtherError(CaUsedAsEndEntity))");
        assert!(said.contains("a certificate authority's own certificate") && !said.contains("Other("), "{said}");
        assert!(tls_cause_in_words("invalid peer certificate: NotValidForNameContext { .. }").contains("host"));
        assert_eq!(tls_cause_in_words("handshake failure"), "handshake failure");
    }

    /// Every pool is made without the sweeping task of [`pool_options`].
    #[tokio::test]
    async fn pools_close_no_connection_by_age() {
        let options = pool_options::<Any>();
        assert_eq!((options.get_idle_timeout(), options.get_max_lifetime()), (None, None));
        let dir = std::env::temp_dir().join(format!("arena-pool-options-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = Db::open(&Target::Sqlite(dir.join("runs.db"))).await.unwrap();
        let options = db.pool.options();
        assert_eq!((options.get_idle_timeout(), options.get_max_lifetime()), (None, None));
        db.pool.close().await;
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
