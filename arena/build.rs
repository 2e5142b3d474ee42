//! Names the commit `arena --version` was built from (`unknown commit`
//! outside a git checkout, e.g. from a source archive).

use std::process::Command;

fn main() {
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
