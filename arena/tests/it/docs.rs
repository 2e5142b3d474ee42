//! What arena says about itself: `--version` names the commit it was built
//! from, `arena completions` prints scripts the shells accept, and
//! `arena man` writes a page for arena and for every command users run.

use std::process::Command;

use crate::common::{ARENA, arena_ok, stdout, temp_dir};

#[test]
fn version_names_the_commit_it_was_built_from() {
    let out = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    let version = String::from_utf8_lossy(&Command::new(ARENA).arg("--version").output().unwrap().stdout).into_owned();
    let commit = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() {
        assert!(version.contains("(unknown commit)"), "outside a checkout: {version}");
        return;
    }
    assert_eq!(version.trim(), format!("arena {} ({commit})", env!("CARGO_PKG_VERSION")));
}

#[test]
fn completions_are_scripts_the_shells_accept_and_man_pages_cover_every_command() {
    let dir = temp_dir("docs");
    let bash = stdout(&arena_ok(&dir, &["completions", "bash"]));
    std::fs::write(dir.join("arena.bash"), &bash).unwrap();
    let loaded = Command::new("bash")
        .arg("-c")
        .arg("source ./arena.bash && complete -p arena")
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(loaded.status.success(), "bash rejects the script: {}", String::from_utf8_lossy(&loaded.stderr));
    assert!(String::from_utf8_lossy(&loaded.stdout).contains("_arena"), "{}", String::from_utf8_lossy(&loaded.stdout));
    for (shell, marker) in [("zsh", "#compdef arena"), ("fish", "complete -c arena")] {
        let script = stdout(&arena_ok(&dir, &["completions", shell]));
        assert!(script.contains(marker) && script.contains("sprt") && script.contains("elo0"), "{shell}");
    }

    let said = stdout(&arena_ok(&dir, &["man", "pages"]));
    assert!(said.starts_with("wrote "), "{said}");
    let help = stdout(&arena_ok(&dir, &["--help"]));
    // The commands `arena --help` lists (indented names before their text), and `help` itself.
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    assert!(commands.len() >= 20 && commands.contains(&"elo") && commands.contains(&"man"), "{help}");
    for name in std::iter::once("arena".to_string()).chain(commands.iter().map(|c| format!("arena-{c}"))) {
        let page = std::fs::read_to_string(dir.join(format!("pages/man1/{name}.1"))).unwrap_or_default();
        assert!(page.contains(&format!(".TH {name} 1")), "{name}.1: {page:.200}");
    }
    let elo = std::fs::read_to_string(dir.join("pages/man1/arena-elo.1")).unwrap();
    assert!(elo.contains("\\-\\-tc") && elo.contains("\\-\\-openings"), "arena-elo.1 names its flags");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every relative link of the README and the guide names a file that exists
/// (anchors aside), the README stays a front door (at most 200 lines), and
/// the guide's SUMMARY lists every page of `docs/src`.
#[test]
fn the_readme_and_the_guide_link_only_to_files_that_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    assert!(readme.lines().count() <= 200, "README.md has {} lines", readme.lines().count());
    let mut pages = vec![root.join("README.md")];
    let mut guide: Vec<String> = std::fs::read_dir(root.join("docs/src"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .collect();
    guide.sort();
    pages.extend(guide.iter().map(|name| root.join("docs/src").join(name)));
    let mut links = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for (_, rest) in text.match_indices("](").map(|(at, _)| ((), &text[at + 2..])) {
            let target = rest.split(')').next().unwrap().split('#').next().unwrap();
            if target.is_empty() || target.starts_with("http") {
                continue;
            }
            links += 1;
            let path = page.parent().unwrap().join(target);
            assert!(path.exists(), "{}: the link {target} names no file", page.display());
        }
    }
    assert!(links >= 20, "{links} links");
    let summary = std::fs::read_to_string(root.join("docs/src/SUMMARY.md")).unwrap();
    for name in guide.iter().filter(|n| *n != "SUMMARY.md") {
        assert!(summary.contains(&format!("({name})")), "SUMMARY.md does not list {name}");
    }
}
