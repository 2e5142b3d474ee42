//! Embeds the `migrations` folder: `$OUT_DIR/migrations.rs` lists each
//! backend's migration files (their version, the rest of their name, their
//! SQL by `include_str!`), which `connect.rs` makes sqlx's `Migrator` of at
//! run time, as `sqlx::migrate!` would at compile time (the same version,
//! description and checksum per file). sqlx's macros are not built: they
//! compile sqlx's drivers a second time for the compiler's own use.
//! A new or changed migration rebuilds the crate (`rerun-if-changed`).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
    let root = Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("../migrations");
    let mut out = String::new();
    for (name, folder) in [("SQLITE", "sqlite"), ("POSTGRES", "postgres")] {
        let mut files: Vec<(i64, String, std::path::PathBuf)> = std::fs::read_dir(root.join(folder))
            .unwrap_or_else(|e| panic!("migrations/{folder}: {e}"))
            .map(|entry| entry.unwrap().path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "sql"))
            .map(|path| {
                let file = path.file_name().unwrap().to_str().expect("a migration's name is UTF-8").to_string();
                let (version, rest) = file.split_once('_').unwrap_or_else(|| panic!("{file}: not VERSION_NAME.sql"));
                let version = version.parse().unwrap_or_else(|_| panic!("{file}: its version is not a number"));
                (version, rest.to_string(), path.canonicalize().unwrap())
            })
            .collect();
        files.sort();
        writeln!(out, "/// The {folder} migrations: version, the name after it, the SQL.").unwrap();
        writeln!(out, "pub(crate) const {name}: &[(i64, &str, &str)] = &[").unwrap();
        for (version, rest, path) in files {
            writeln!(out, "    ({version}, {rest:?}, include_str!({:?})),", path.display().to_string()).unwrap();
        }
        writeln!(out, "];").unwrap();
    }
    let target = Path::new(&std::env::var("OUT_DIR").unwrap()).join("migrations.rs");
    std::fs::write(target, out).unwrap();
}
