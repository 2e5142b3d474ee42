//! Least privilege on PostgreSQL: the grants and row-level security that
//! make a login role a worker's. The owner (the role that created the
//! tables and runs the migrations) creates runs; a worker role reads
//! everything, claims and renews the leases of unfinished pairs and suite
//! chunks, stores the games of the pairs it holds, and nothing else: no
//! DELETE but of the games of a pair not done, no UPDATE of a game, a
//! finished pair, a finished run, a run's spec or engines, no DDL, and no
//! write to a count table at all: a pair is finished by the server's
//! `arena_finish_pair` (migration `0015_worker_guards`), which checks that
//! the caller holds the pair (the key it claimed it with) and derives every
//! count from the pair's stored games. The server enforces it: the worker
//! role owns nothing, and a table's owner alone bypasses its policies.

use crate::conn::Cells;
use crate::{Db, DbError};

/// The counts kept beside a run's pairs: a worker reads them and never
/// writes them (the server's functions do, as the owner).
const RUN_COUNTS: [&str; 6] =
    ["tallies", "run_pairs", "run_games", "run_engine_totals", "run_overheads", "run_progress"];

/// The server's functions a worker runs: finishing a pair it holds, and
/// taking a machine set aside out of the tallies.
const FUNCTIONS: [&str; 2] = ["arena_finish_pair(BIGINT, BIGINT, TEXT)", "arena_leave_out(BIGINT, TEXT)"];

/// What a worker may write, by table: the statement's grants and its
/// policies (`{running}`: the row's run is running). Who holds a pair or a
/// chunk is checked by the tables' triggers (the claim's key).
const WRITES: [(&str, &str, &[&str]); 13] = [
    (
        "pairs",
        "UPDATE (status, lease_until, claims, worker, lease_key)",
        &["FOR UPDATE USING (status IN ('pending', 'running')) \
           WITH CHECK (status IN ('pending', 'running', 'skipped'))"],
    ),
    (
        "suite_chunks",
        "UPDATE (status, lease_until, claims, worker, lease_key)",
        &["FOR UPDATE USING (status IN ('pending', 'running')) WITH CHECK (status IN ('pending', 'running', 'done'))"],
    ),
    (
        "runs",
        "UPDATE (status, verdict, finished_ms)",
        &["FOR UPDATE USING (status = 'running') WITH CHECK (status = 'finished')"],
    ),
    (
        "games",
        "INSERT, DELETE",
        &[
            "FOR INSERT WITH CHECK (EXISTS (SELECT 1 FROM pairs p WHERE p.id = games.pair_id AND p.status = 'running'))",
            "FOR DELETE USING (EXISTS (SELECT 1 FROM pairs p WHERE p.id = games.pair_id AND p.status <> 'done'))",
        ],
    ),
    ("packed_moves", "INSERT, DELETE", &[]),
    ("pv_issues", "INSERT, DELETE", &[]),
    // Moves of games stored before they were packed: only taken back.
    ("game_moves", "DELETE", &[]),
    ("engine_identities", "INSERT", &["FOR INSERT WITH CHECK ({running})"]),
    ("suite_results", "INSERT", &["FOR INSERT WITH CHECK ({running})"]),
    ("workers", "INSERT, UPDATE", &["FOR INSERT WITH CHECK (true)", "FOR UPDATE USING (true)"]),
    // A machine's speed and standing in a run, as the run's processes measure them.
    (
        "run_machines",
        "INSERT, UPDATE",
        &["FOR INSERT WITH CHECK ({running})", "FOR UPDATE USING ({running}) WITH CHECK ({running})"],
    ),
    // The tuning steps (θ), each moved by the process that finished its pair.
    ("tune_iterations", "INSERT", &["FOR INSERT WITH CHECK ({running})"]),
    // A family's candidates as they are decided, by the process that
    // finished the deciding pair (as it finishes a decided run).
    ("run_verdicts", "INSERT", &["FOR INSERT WITH CHECK ({running})"]),
];

/// Policies a worker's role had in earlier layouts, dropped when the
/// statements are applied again.
const OLD_POLICIES: usize = 4;

/// The policies of a game's rows in `table` (`game_id`): neither stored
/// nor taken back once its pair is done. (The insert cannot ask for a held
/// pair: the game's moves are stored in the statement that stores the
/// game, whose row the policy's query does not see yet.)
fn game_row_policies(table: &str) -> [String; 2] {
    let done = format!(
        "NOT EXISTS (SELECT 1 FROM games g JOIN pairs p ON p.id = g.pair_id WHERE g.id = {table}.game_id AND p.status = 'done')"
    );
    [format!("FOR INSERT WITH CHECK ({done})"), format!("FOR DELETE USING ({done})")]
}

/// A role or schema name that is no plain identifier.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' cannot be a role's name here: use 1 to 63 letters, digits, '_', '-' or '.'")]
pub struct BadIdentifier(pub String);

/// `name` quoted as an SQL identifier, or why it cannot be a role's name
/// here: letters, digits, `_`, `-` and `.` only.
fn identifier(name: &str) -> Result<String, BadIdentifier> {
    let fine = !name.is_empty()
        && name.len() <= 63
        && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    match fine {
        true => Ok(format!("\"{name}\"")),
        false => Err(BadIdentifier(name.to_string())),
    }
}

/// The statements that make login role `role` a worker's in schema
/// `schema`, idempotent: applied again (after an upgrade added tables) they
/// give the same layout.
///
/// # Errors
///
/// A role or schema name that is not a plain identifier.
pub fn worker_role_sql(schema: &str, role: &str) -> Result<Vec<String>, BadIdentifier> {
    let (schema, role) = (identifier(schema)?, identifier(role)?);
    let running =
        |table: &str| format!("EXISTS (SELECT 1 FROM runs r WHERE r.id = {table}.run_id AND r.status = 'running')");
    let mut sql = vec![
        format!("REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {role}"),
        format!("REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM {role}"),
        format!("REVOKE CREATE ON SCHEMA {schema} FROM PUBLIC"),
        format!("REVOKE CREATE ON SCHEMA {schema} FROM {role}"),
        format!("GRANT USAGE ON SCHEMA {schema} TO {role}"),
        format!("GRANT SELECT ON ALL TABLES IN SCHEMA {schema} TO {role}"),
        format!("GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role}"),
    ];
    let mut policies: Vec<(String, Vec<String>)> = Vec::new();
    for (table, grant, rules) in WRITES {
        sql.push(format!("GRANT {grant} ON {schema}.{table} TO {role}"));
        let rules = match table {
            "packed_moves" | "pv_issues" | "game_moves" => game_row_policies(table).to_vec(),
            _ => rules.iter().map(|rule| rule.replace("{running}", &running(table))).collect(),
        };
        policies.push((table.to_string(), rules));
    }
    // Read only: row-level security on, no policy but reading.
    policies.extend(RUN_COUNTS.iter().map(|table| (table.to_string(), Vec::new())));
    for function in FUNCTIONS {
        sql.push(format!("GRANT EXECUTE ON FUNCTION {schema}.{function} TO {role}"));
    }
    for (table, rules) in policies {
        let table = format!("{schema}.{table}");
        sql.push(format!("ALTER TABLE {table} ENABLE ROW LEVEL SECURITY"));
        // Every role the grants let read reads every row.
        sql.push(format!("DROP POLICY IF EXISTS arena_read ON {table}"));
        sql.push(format!("CREATE POLICY arena_read ON {table} FOR SELECT USING (true)"));
        for index in 0..OLD_POLICIES.max(rules.len()) {
            sql.push(format!("DROP POLICY IF EXISTS arena_worker_{index} ON {table}"));
        }
        for (index, rule) in rules.iter().enumerate() {
            sql.push(format!("CREATE POLICY arena_worker_{index} ON {table} {rule}"));
        }
    }
    Ok(sql)
}

impl Db {
    /// The schema this connection's tables are in.
    ///
    /// # Errors
    ///
    /// A database failure.
    pub async fn schema(&self) -> Result<String, DbError> {
        let row = self.fetch_one(sqlx::query("SELECT CAST(current_schema() AS TEXT) AS schema")).await?;
        row.cell::<String>("schema")
    }

    /// Makes existing login role `role` a worker's ([`worker_role_sql`]), in
    /// one transaction; `Err` with one line when this is no PostgreSQL
    /// database, the role does not exist or this role may not grant.
    ///
    /// # Errors
    ///
    /// As above.
    pub async fn grant_worker(&self, role: &str) -> Result<Vec<String>, DbError> {
        if !self.is_shared() {
            return Err(DbError::Unexpected(
                "roles are PostgreSQL's: a SQLite file is guarded by its file's permissions".into(),
            ));
        }
        let sql = worker_role_sql(&self.schema().await?, role)?;
        let exists = self
            .fetch_one(sqlx::query("SELECT COUNT(*) AS roles FROM pg_roles WHERE rolname = $1").bind(role))
            .await?
            .cell::<i64>("roles")?;
        if exists == 0 {
            return Err(DbError::Unexpected(format!(
                "no role '{role}' on this server: create it first, e.g. CREATE ROLE \"{role}\" LOGIN PASSWORD '…' \
                 (as a superuser or a role with CREATEROLE)"
            )));
        }
        let mut tx = self.write().await?;
        for statement in &sql {
            tx.execute(sqlx::query(sqlx::AssertSqlSafe(statement.clone()))).await?;
        }
        tx.commit().await?;
        Ok(sql)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_names_are_quoted_into_the_statements() {
        assert!(worker_role_sql("public", "w1").unwrap().iter().all(|s| !s.contains("\"w1\"\"")));
        for bad in ["", "a\"b", "x; DROP TABLE runs", "a b", &"w".repeat(64)] {
            assert!(worker_role_sql("public", bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn every_table_a_worker_writes_has_row_level_security() {
        let sql = worker_role_sql("public", "w").unwrap();
        for statement in
            sql.iter().filter(|s| s.starts_with("GRANT") && !s.contains(" FUNCTION ") && s.contains(" ON \"public\"."))
        {
            let table = statement.split(" ON ").nth(1).unwrap().split(' ').next().unwrap();
            assert!(sql.contains(&format!("ALTER TABLE {table} ENABLE ROW LEVEL SECURITY")), "{table}");
        }
        assert!(!sql.iter().any(|s| s.contains("DELETE") && (s.contains(".runs ") || s.contains(".tallies "))));
    }

    #[test]
    fn a_worker_is_granted_no_write_of_a_count_table() {
        let sql = worker_role_sql("public", "w").unwrap();
        for table in RUN_COUNTS {
            let grants: Vec<&String> =
                sql.iter().filter(|s| s.starts_with("GRANT") && s.contains(&format!("\"public\".{table} "))).collect();
            assert!(grants.is_empty(), "{table}: {grants:?}");
            assert!(sql.contains(&format!("CREATE POLICY arena_read ON \"public\".{table} FOR SELECT USING (true)")));
            assert!(
                !sql.iter().any(|s| s.starts_with("CREATE POLICY arena_worker") && s.contains(&format!(".{table} ")))
            );
        }
    }
}
