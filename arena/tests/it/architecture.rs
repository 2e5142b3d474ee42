//! ARCHITECTURE.md stays a true map: its file tables name every Rust file
//! of every crate's `src`, and only files that exist; no line of it is
//! longer than 400 characters.

use std::collections::BTreeSet;
use std::path::Path;

const CRATES: [&str; 6] = ["arena", "engine", "model", "openings", "db", "reports"];

/// Every `.rs` file under `dir`, as a path relative to the repository.
fn rust_files(root: &Path, dir: &Path, found: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(root, &path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.insert(path.strip_prefix(root).unwrap().to_string_lossy().into_owned());
        }
    }
}

/// The files the page's tables name: a table row's first cell, its
/// backticked `.rs` names, relative to the directory its section's heading
/// names in backticks (`## The engine (`engine/src`)`), or to the
/// repository when the heading names none.
fn named_files(page: &str) -> Vec<String> {
    let mut base = String::new();
    let mut named = Vec::new();
    for line in page.lines() {
        if line.starts_with('#') {
            base = line
                .split('`')
                .nth(1)
                .filter(|dir| dir.ends_with("/src"))
                .map(|dir| format!("{dir}/"))
                .unwrap_or_default();
            continue;
        }
        let Some(cell) = line.strip_prefix("| ").and_then(|row| row.split(" |").next()) else { continue };
        for name in cell.split('`').skip(1).step_by(2).filter(|name| name.ends_with(".rs")) {
            named.push(format!("{base}{name}"));
        }
    }
    named
}

#[test]
fn the_architecture_page_names_every_source_file_and_no_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let page = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let mut tree = BTreeSet::new();
    for krate in CRATES {
        rust_files(&root, &root.join(krate).join("src"), &mut tree);
    }
    let named = named_files(&page);
    let listed: BTreeSet<String> = named.iter().cloned().collect();
    assert_eq!(listed.len(), named.len(), "a file named twice: {named:?}");
    let missing: Vec<&String> = tree.difference(&listed).collect();
    let gone: Vec<&String> = listed.difference(&tree).collect();
    assert!(missing.is_empty() && gone.is_empty(), "not in ARCHITECTURE.md: {missing:?}; named but absent: {gone:?}");
    let longest = page.lines().map(|line| line.chars().count()).max().unwrap_or(0);
    assert!(longest <= 400, "a line of {longest} characters");
}
