//! The layers of `arena/src` (ARCHITECTURE.md, "Layers"): each module uses
//! only modules of its own layer or below; and in every crate of the
//! workspace no file reaches, through its imports, back to itself. Read
//! from the source text: every `crate::…` and `super::…` path outside
//! comments and the items marked `#[cfg(test)]`, whatever follows them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules, lowest layer first; a module may use those of
/// its own layer and below.
const LAYERS: [&[&str]; 6] =
    [&["util", "term"], &["engine_io"], &["game"], &["run"], &["reporting", "serve"], &["cli"]];

fn layer(top: &str) -> Option<usize> {
    LAYERS.iter().position(|names| names.contains(&top))
}

/// Every module file of the library: its module path (`["run", "pairs"]`) and text.
fn modules(src: &Path) -> BTreeMap<Vec<String>, String> {
    let mut found = BTreeMap::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                if path.file_name().is_some_and(|n| n != "bin") {
                    stack.push(path);
                }
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let relative: PathBuf = path.strip_prefix(src).unwrap().with_extension("");
            let mut module: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
            if module.last().is_some_and(|l| l == "mod") {
                module.pop();
            }
            if module == ["lib"] || module == ["main"] {
                continue;
            }
            found.insert(module, std::fs::read_to_string(&path).unwrap());
        }
    }
    found
}

/// The code of a file without comments and without the items marked
/// `#[cfg(test)]` (a test module, a test helper): the code before and
/// after each of them is kept.
fn code(text: &str) -> String {
    let mut kept = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("#[cfg(test)]") {
        kept.push_str(&rest[..at]);
        rest = &rest[at + "#[cfg(test)]".len()..];
        rest = &rest[item_end(rest)..];
    }
    kept.push_str(rest);
    kept.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
}

/// Where the item that starts `text` ends: after its `;` or its block's
/// closing brace, braces in string and character literals and comments not
/// counted.
fn item_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i += text[i..].find('\n').unwrap_or(text.len() - i);
                continue;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'\'' if bytes.get(i + 2) == Some(&b'\'') => i += 2,
            b'\'' if bytes.get(i + 1) == Some(&b'\\') => i += text[i + 2..].find('\'').map_or(0, |end| end + 2),
            b'{' => depth += 1,
            b'}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            b';' if depth == 0 => return i + 1,
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

/// The paths a file's code names: `crate::a::b`, `super::c`, expanded over one level of braces.
fn paths(code: &str) -> Vec<String> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    for start in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = code[from..].find(start) {
            let begin = from + at;
            from = begin + start.len();
            if begin > 0 && (bytes[begin - 1].is_ascii_alphanumeric() || bytes[begin - 1] == b'_') {
                continue;
            }
            let mut end = begin;
            while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_' || bytes[end] == b':')
            {
                end += 1;
            }
            let head = code[begin..end].trim_end_matches(':').to_string();
            if end < bytes.len() && bytes[end] == b'{' {
                let close = code[end..].find('}').map_or(bytes.len(), |c| end + c);
                for item in code[end + 1..close].split(',') {
                    let item: String =
                        item.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
                    if !item.is_empty() && item != "self" {
                        found.push(format!("{head}::{item}"));
                    }
                }
            }
            found.push(head);
        }
    }
    found
}

/// The module file a path names: its longest prefix that is a module.
fn resolve(from: &[String], path: &str, known: &BTreeMap<Vec<String>, String>) -> Option<Vec<String>> {
    let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: Vec<String> = Vec::new();
    match segments.first() {
        Some(&"crate") => {
            segments.remove(0);
        }
        Some(&"super") => {
            base = from.to_vec();
            while segments.first() == Some(&"super") {
                segments.remove(0);
                base.pop()?;
            }
        }
        _ => return None,
    }
    let mut target = base.clone();
    let mut best = known.contains_key(&base).then(|| base.clone());
    for segment in segments {
        target.push(segment.to_string());
        if known.contains_key(&target) {
            best = Some(target.clone());
        } else {
            break;
        }
    }
    best
}

/// Each module's uses of other modules of its crate (a module declaring or
/// re-exporting its own children is containment, not use).
fn uses(known: &BTreeMap<Vec<String>, String>) -> BTreeMap<Vec<String>, BTreeSet<(Vec<String>, String)>> {
    let mut edges: BTreeMap<Vec<String>, BTreeSet<(Vec<String>, String)>> = BTreeMap::new();
    for (module, text) in known {
        for path in paths(&code(text)) {
            let Some(target) = resolve(module, &path, known) else { continue };
            if target != *module && !target.starts_with(module) {
                edges.entry(module.clone()).or_default().insert((target, path));
            }
        }
    }
    edges
}

/// A path of uses that comes back to where it started, if there is one.
fn circle(known: &BTreeMap<Vec<String>, String>) -> Option<String> {
    let edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = uses(known)
        .into_iter()
        .map(|(module, targets)| (module, targets.into_iter().map(|(target, _)| target).collect()))
        .collect();
    // Depth-first search.
    fn visit(
        node: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        path: &mut Vec<Vec<String>>,
    ) -> Option<Vec<Vec<String>>> {
        match state.get(node) {
            Some(1) => {
                let at = path.iter().position(|n| n == node).unwrap();
                let mut circle = path[at..].to_vec();
                circle.push(node.clone());
                return Some(circle);
            }
            Some(_) => return None,
            None => {}
        }
        state.insert(node.clone(), 1);
        path.push(node.clone());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, edges, state, path) {
                return Some(circle);
            }
        }
        path.pop();
        state.insert(node.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    known.keys().find_map(|module| {
        let circle = visit(module, &edges, &mut state, &mut Vec::new())?;
        Some(circle.iter().map(|m| m.join("::")).collect::<Vec<_>>().join(" → "))
    })
}

/// The uses of `known` that look up a layer, one line each.
fn upward(known: &BTreeMap<Vec<String>, String>) -> Vec<String> {
    let mut upward = Vec::new();
    for (module, targets) in uses(known) {
        let top = &module[0];
        let own = layer(top).unwrap_or_else(|| panic!("module {top} is in no layer of this test and ARCHITECTURE.md"));
        for (target, path) in targets {
            let their = layer(&target[0]).unwrap_or(usize::MAX);
            if their > own {
                upward.push(format!("{} uses {path} (layer {their} above {own})", module.join("::")));
            }
        }
    }
    upward
}

#[test]
fn modules_only_use_their_own_layer_or_lower() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let known = modules(&src);
    let tops: BTreeSet<&str> = known.keys().map(|m| m[0].as_str()).collect();
    for name in LAYERS.iter().copied().flatten() {
        assert!(tops.contains(name), "the layers name a module '{name}' that arena/src does not have");
    }
    let upward = upward(&known);
    assert!(upward.is_empty(), "imports that look up:\n{}", upward.join("\n"));
}

/// The files of `cli/` that every command shares, lowest first: each uses
/// only those before it (and the library below `cli/`). Every other file
/// of `cli/` is a command's (a folder, `cli/dialect/`, is one command).
const CLI_SHARED: [&str; 7] = ["complete", "settings", "shared", "common", "games", "flags", "runfile"];

/// How `cli/` uses itself, one line a breach: a command file that uses
/// another command's file or the dispatcher (`docs`, which prints the whole
/// command line's completions and man pages, may read `Cli`); a shared
/// file that uses a command's file, the dispatcher or a shared file above
/// it; `cli/mod.rs` holding more than the modules, `Cli`, `Command`, its
/// dispatch `run` and the run file's command as a `Command`.
fn cli_breaches(known: &BTreeMap<Vec<String>, String>) -> Vec<String> {
    let cli = |m: &Vec<String>| m.first().is_some_and(|t| t == "cli");
    let file = |m: &Vec<String>| m.get(1).cloned().unwrap_or_default();
    let mut breaches = Vec::new();
    for (module, targets) in uses(known) {
        if !cli(&module) || module.len() < 2 {
            continue;
        }
        let from = file(&module);
        let shared_at = CLI_SHARED.iter().position(|s| *s == from);
        for (target, path) in targets {
            if !cli(&target) {
                continue;
            }
            let to = file(&target);
            let allowed = match (shared_at, CLI_SHARED.iter().position(|s| *s == to)) {
                _ if to == from => true,
                (Some(at), Some(their)) => their < at,
                (Some(_), None) => false,
                (None, Some(_)) => true,
                (None, None) => to.is_empty() && from == "docs" && path.ends_with("::Cli"),
            };
            if !allowed {
                let what = if to.is_empty() { "the dispatcher".to_string() } else { format!("cli::{to}") };
                breaches.push(format!("{} uses {path} ({what})", module.join("::")));
            }
        }
    }
    if let Some(text) = known.get(&vec!["cli".to_string()]) {
        for line in code(text).lines().filter(|l| !l.starts_with(' ') && !l.trim().is_empty()) {
            let item = line.trim_start_matches("pub ").trim_start_matches("pub(crate) ");
            let dispatch = ["mod ", "#[", "use ", "}", "/"].iter().any(|p| item.starts_with(p))
                || [
                    "struct Cli",
                    "enum Command",
                    "fn run_blocking(",
                    "async fn run(",
                    "impl From<runfile::FileCommand> for Command",
                ]
                .iter()
                .any(|p| item.starts_with(p));
            if !dispatch {
                breaches.push(format!("cli/mod.rs holds more than the dispatcher: {}", line.trim()));
            }
        }
    }
    breaches
}

#[test]
fn command_files_never_use_another_commands_file_and_cli_mod_only_dispatches() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let known = modules(&src);
    for name in CLI_SHARED {
        assert!(known.contains_key(&vec!["cli".to_string(), name.to_string()]), "no cli/{name}.rs");
    }
    let breaches = cli_breaches(&known);
    assert!(breaches.is_empty(), "cli/ uses itself across commands:\n{}", breaches.join("\n"));
    // The rule sees a breach: a command file reaching into another's, a
    // shared file into a command's, and an item beside the dispatch.
    let mut planted = known.clone();
    planted.get_mut(&vec!["cli".to_string(), "play".to_string()]).unwrap().push_str("\nuse super::resume::How;\n");
    planted.get_mut(&vec!["cli".to_string(), "games".to_string()]).unwrap().push_str("\nuse super::check::x;\n");
    planted.get_mut(&vec!["cli".to_string()]).unwrap().push_str("\npub struct DbArg;\n");
    let found = cli_breaches(&planted);
    assert_eq!(
        found,
        [
            "cli::games uses super::check::x (cli::check)",
            "cli::play uses super::resume::How (cli::resume)",
            "cli/mod.rs holds more than the dispatcher: pub struct DbArg;"
        ],
        "{found:?}"
    );
}

/// The test reads whole files: an upward import after a file's test module
/// (or after a test helper, or beside a brace in a string) is seen, one
/// inside the test module is not.
#[test]
fn an_upward_import_after_a_test_module_is_seen() {
    let file = "use crate::util::x;\nfn a() { let s = \"}\"; let c = '{'; }\n\
                #[cfg(test)]\nmod tests {\n    use crate::cli::Seen;\n    fn t() { let s = \"{ }}\"; } // }\n}\n\
                #[cfg(test)]\nuse crate::serve::Helper;\n\
                use crate::cli::games::play_run;\n";
    let mut known: BTreeMap<Vec<String>, String> = BTreeMap::new();
    for module in [&["game", "fake"][..], &["cli"], &["cli", "games"], &["serve"], &["util"]] {
        known.insert(module.iter().map(|s| s.to_string()).collect(), String::new());
    }
    known.insert(vec!["game".into(), "fake".into()], file.to_string());
    let found = upward(&known);
    assert_eq!(found, ["game::fake uses crate::cli::games::play_run (layer 5 above 2)"], "{}", code(file));
}

#[test]
fn no_module_of_any_crate_reaches_back_to_itself_through_its_imports() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    for krate in ["arena", "engine", "model", "openings", "db", "reports"] {
        let known = modules(&root.join(krate).join("src"));
        assert!(!known.is_empty(), "{krate}: no modules read");
        if let Some(circle) = circle(&known) {
            panic!("an import circle in {krate}: {circle}");
        }
    }
}
