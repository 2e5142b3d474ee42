//! Shell completion that knows arena's values: engine names (the bundled
//! presets and the engines of `./engines.toml`) for `--a`, `--b` and
//! `--engines` (the built-in books beside files for `--openings` are
//! completed by `cli::settings`), and every enum's values. The shell asks the binary as the user types (clap's
//! dynamic completion, `COMPLETE=bash arena`), so the names come from the
//! engines file of the folder the user is in.

use std::ffi::OsStr;

use clap_complete::engine::{CompletionCandidate, PathCompleter, ValueCompleter};

/// Candidates of `values` that start with what is typed, each with its help.
fn matching(typed: &str, values: impl IntoIterator<Item = (String, &'static str)>) -> Vec<CompletionCandidate> {
    values
        .into_iter()
        .filter(|(value, _)| value.starts_with(typed))
        .map(|(value, help)| CompletionCandidate::new(value).help(Some(help.into())))
        .collect()
}

/// Engine names: presets, then `./engines.toml`'s engines; a typed path
/// (with a `/`) completes as a file.
pub(crate) fn engines(current: &OsStr) -> Vec<CompletionCandidate> {
    let typed = current.to_string_lossy();
    if typed.contains('/') {
        return PathCompleter::any().complete(current);
    }
    let registry = crate::engine_io::engines::Registry::load(None).ok();
    let configured = registry.as_ref().map(|r| r.names()).unwrap_or_default();
    let presets = engine::search::pruning::PRESETS;
    let named = configured.into_iter().map(|name| {
        let help = if presets.contains(&name.as_str()) { "bundled preset" } else { "engines.toml" };
        (name, help)
    });
    let mut found = matching(&typed, named);
    if registry.is_none() {
        found.extend(matching(&typed, presets.iter().map(|p| (p.to_string(), "bundled preset"))));
    }
    found
}
