//! Where a database lives: a SQLite file (the default) or a PostgreSQL server
//! named by URL. The URL may carry a password; [`Target`]'s `Display` never
//! shows it.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// A database location, as given to `--db`.
#[derive(Clone, PartialEq, Eq)]
pub enum Target {
    /// A SQLite file, created if missing.
    Sqlite(PathBuf),
    /// A PostgreSQL URL (`postgres://user[:password]@host[:port]/database`).
    /// The password may also come from `PGPASSWORD` or `~/.pgpass`.
    Postgres(String),
}

/// Why a `--db` value was refused.
#[derive(Debug, thiserror::Error)]
#[error("bad --db '{shown}': {why} (give a file path, or postgres://user@host:port/database)")]
pub struct BadTarget {
    shown: String,
    why: String,
}

impl Target {
    /// Whether several machines can share it (PostgreSQL).
    pub fn is_shared(&self) -> bool {
        matches!(self, Target::Postgres(_))
    }

    /// Whether the database already exists: a SQLite file on disk; a server is
    /// assumed to exist (connecting tells).
    pub fn exists(&self) -> bool {
        match self {
            Target::Sqlite(path) => path.exists(),
            Target::Postgres(_) => true,
        }
    }
}

impl FromStr for Target {
    type Err = BadTarget;

    fn from_str(text: &str) -> Result<Target, BadTarget> {
        if text.starts_with("postgres://") || text.starts_with("postgresql://") {
            let url = url::Url::parse(text)
                .map_err(|e| BadTarget { shown: redact(text), why: format!("not a URL ({e})") })?;
            if url.host_str().is_none_or(str::is_empty) {
                return Err(BadTarget { shown: redact(text), why: "the URL names no host".into() });
            }
            return Ok(Target::Postgres(text.to_string()));
        }
        if text.contains("://") {
            return Err(BadTarget {
                shown: redact(text),
                why: "only SQLite files and postgres:// URLs are supported".into(),
            });
        }
        let path = text.strip_prefix("sqlite:").unwrap_or(text);
        if path.is_empty() {
            return Err(BadTarget { shown: text.to_string(), why: "empty path".into() });
        }
        Ok(Target::Sqlite(PathBuf::from(path)))
    }
}

/// The URL without its password (and without a `password=` parameter).
fn redact(text: &str) -> String {
    match url::Url::parse(text) {
        Ok(mut url) => {
            let _ = url.set_password(None);
            let kept: Vec<(String, String)> = url
                .query_pairs()
                .filter(|(key, _)| !key.eq_ignore_ascii_case("password"))
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect();
            url.set_query(None);
            if !kept.is_empty() {
                url.query_pairs_mut().extend_pairs(kept);
            }
            url.to_string()
        }
        // Not parseable: show only the scheme, never what might be a secret.
        Err(_) => text.split("://").next().map_or_else(String::new, |scheme| format!("{scheme}://…")),
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Sqlite(path) => write!(f, "{}", path.display()),
            Target::Postgres(url) => f.write_str(&redact(url)),
        }
    }
}

impl fmt::Debug for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Target({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_never_shown() {
        for (given, shown) in [
            ("postgres://arena:s3cret@db.lan:5432/arena", "postgres://arena@db.lan:5432/arena"),
            ("postgresql://u:p%40ss@h/d?sslmode=require&password=x", "postgresql://u@h/d?sslmode=require"),
            ("postgres://u@h/d", "postgres://u@h/d"),
        ] {
            let target: Target = given.parse().unwrap();
            assert_eq!(target.to_string(), shown);
            assert_eq!(format!("{target:?}"), format!("Target({shown})"));
            assert!(target.is_shared());
        }
        let error = "postgres://u:s3cret@/d".parse::<Target>().unwrap_err().to_string();
        assert!(!error.contains("s3cret"), "{error}");
        let error = "mysql://u:s3cret@h/d".parse::<Target>().unwrap_err().to_string();
        assert!(!error.contains("s3cret") && error.contains("only SQLite"), "{error}");
    }

    #[test]
    fn paths_are_sqlite() {
        assert_eq!("runs/a.db".parse::<Target>().unwrap(), Target::Sqlite(PathBuf::from("runs/a.db")));
        assert_eq!("sqlite:a.db".parse::<Target>().unwrap(), Target::Sqlite(PathBuf::from("a.db")));
        assert!("".parse::<Target>().is_err());
    }
}
