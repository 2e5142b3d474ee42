//! Rebuilds the crate when a migration is added or changed: `sqlx::migrate!`
//! embeds the `migrations` folder when the crate compiles, and cargo does not
//! know that the macro read it (a new migration was otherwise left out of an
//! incremental build).

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
