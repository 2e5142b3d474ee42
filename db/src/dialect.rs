//! The two SQL dialects. Statements are written once, with `?` placeholders
//! and a few `{words}` that the dialects spell differently:
//!
//! | word            | SQLite                                   | PostgreSQL                         |
//! |-----------------|------------------------------------------|------------------------------------|
//! | `{now_ms}`      | `julianday('now')` as Unix ms            | `clock_timestamp()` as Unix ms     |
//! | `{for_update}`  | nothing (`BEGIN IMMEDIATE` serialises)   | `FOR UPDATE`                       |
//! | `{for_no_key_update}` | nothing                            | `FOR NO KEY UPDATE`                |
//! | `{skip_locked}` | nothing                                  | `FOR UPDATE SKIP LOCKED`           |
//!
//! PostgreSQL numbers its placeholders (`$1`, `$2`, …); sqlx's `Any` driver
//! passes statements through unchanged, so [`Backend::sql`] does it.

use sqlx::AssertSqlSafe;

/// Which server the pool talks to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Backend {
    /// A SQLite file.
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

impl Backend {
    /// `text` in this backend's dialect.
    pub(crate) fn sql(self, text: &str) -> AssertSqlSafe<String> {
        let words: [(&str, &str); 4] = match self {
            Backend::Sqlite => [
                ("{now_ms}", "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)"),
                ("{for_update}", ""),
                ("{for_no_key_update}", ""),
                ("{skip_locked}", ""),
            ],
            Backend::Postgres => [
                ("{now_ms}", "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)"),
                ("{for_update}", "FOR UPDATE"),
                ("{for_no_key_update}", "FOR NO KEY UPDATE"),
                ("{skip_locked}", "FOR UPDATE SKIP LOCKED"),
            ],
        };
        let mut out = text.to_string();
        for (word, spelling) in words {
            if out.contains(word) {
                out = out.replace(word, spelling);
            }
        }
        if self == Backend::Postgres {
            let mut numbered = String::with_capacity(out.len() + 16);
            let mut n = 0;
            for c in out.chars() {
                if c == '?' {
                    n += 1;
                    numbered.push('$');
                    numbered.push_str(&n.to_string());
                } else {
                    numbered.push(c);
                }
            }
            out = numbered;
        }
        AssertSqlSafe(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_for_postgres_only() {
        let text = "UPDATE t SET a = ?, b = {now_ms} WHERE id = (SELECT id FROM t WHERE c = ? LIMIT 1 {skip_locked})";
        let pg = Backend::Postgres.sql(text).0;
        assert_eq!(
            pg,
            "UPDATE t SET a = $1, b = CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT) \
             WHERE id = (SELECT id FROM t WHERE c = $2 LIMIT 1 FOR UPDATE SKIP LOCKED)"
        );
        let lite = Backend::Sqlite.sql(text).0;
        assert!(lite.contains("a = ?,") && lite.contains("c = ? LIMIT 1 )") && lite.contains("julianday"));
    }
}
