//! Names the commit `arena --version` was built from (`unknown commit`
//! outside a git checkout, e.g. from a source archive), and lists the 3–4
//! piece Syzygy tables of `data/syzygy` that the binary carries (`--tb builtin`).

use std::process::Command;

fn main() {
    embed_syzygy();
    let git = |args: &[&str]| {
        Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|out| out.status.success())
            .and_then(|out| String::from_utf8(out.stdout).ok())
            .map(|text| text.trim().to_string())
    };
    let commit = git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown commit".into());
    println!("cargo:rustc-env=ARENA_COMMIT={commit}");
    if let Some(dir) = git(&["rev-parse", "--absolute-git-dir"]) {
        for moved in ["HEAD", "refs", "packed-refs"] {
            println!("cargo:rerun-if-changed={dir}/{moved}");
        }
    }
}

/// Writes `$OUT_DIR/syzygy.rs`: `const SYZYGY: &[(&str, &[u8])]`, each table
/// of `data/syzygy` by name with its bytes.
fn embed_syzygy() {
    // Asked when the script runs, not when it was compiled: a build script
    // compiled for another checkout of the same commit (a worktree sharing
    // this target directory) would otherwise read that checkout's folder.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR");
    let dir = std::path::Path::new(&manifest).join("../data/syzygy");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter(|n| n.ends_with(".rtbw") || n.ends_with(".rtbz"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut code =
        String::from("/// The embedded Syzygy tables, by file name.\npub const SYZYGY: &[(&str, &[u8])] = &[\n");
    for name in names {
        let path = dir.join(&name).canonicalize().expect("a readable table");
        code += &format!("    ({name:?}, include_bytes!({:?})),\n", path.display().to_string());
    }
    code += "];\n";
    let out = std::path::Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("syzygy.rs");
    std::fs::write(out, code).expect("OUT_DIR writable");
}
