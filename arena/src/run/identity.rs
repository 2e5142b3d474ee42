//! What plays a run on this machine, made ready and proven: source engines
//! built (their revision resolved when the run is created), every engine
//! started once (preflight), each engine's executable hashed and its bench
//! run where it has a signature, and all of it compared with what this
//! machine recorded for the run before.
//!
//! Identity, by kind of engine:
//! - a path engine is its executable's sha256 on each machine; across
//!   machines only a bench signature proves it the same;
//! - a source engine is its commit (fixed when the run is created) and its
//!   bench signature;
//! - the bundled engine is arena's version (and the binary's sha256, kept),
//!   and its bench signature, which stays when a new arena leaves the
//!   search as it was.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use db::Db;
use model::{EngineIdentity, Spec};

use super::error::{NotHere, RunError};
use super::preflight::preflight;
use crate::engine_io::bench::{bundled_signature, signature};
use crate::engine_io::engines::{BenchSignature, EngineSpec, Source};
use crate::engine_io::process::Timeouts;
use crate::engine_io::source::{Cache, file_digest, find_program};

/// arena's version as the bundled engine's identity.
pub const ARENA_VERSION: &str = concat!("arena ", env!("CARGO_PKG_VERSION"), " (", env!("ARENA_COMMIT"), ")");

/// Where this machine takes a source engine's code from: the repository
/// and build command to use, or why it will not build it.
pub type RepoChoice<'a> = &'a (dyn Fn(&EngineSpec) -> Result<(String, String), NotHere> + Sync);

/// The repository and build stored with the engine: for the machine that
/// creates the run and for `arena resume` (the user's own run).
pub fn stored_repo(engine: &EngineSpec) -> Result<(String, String), NotHere> {
    let source = engine.source.as_ref().ok_or_else(|| NotHere::NotSource(engine.name.clone()))?;
    Ok((source.repo.clone(), source.build.clone()))
}

/// Makes `spec`'s engines ready on this machine: source engines built and
/// pointed at their binaries, every engine started once, identities
/// measured (a bench `auto` becomes the measured count). Returns one
/// identity per engine of the run (a scaling run's copies share theirs).
///
/// # Errors
///
/// [`RunError`] for a build, bench or repository problem, or the
/// preflight's engine error.
pub async fn make_ready(
    arena_exe: &Path,
    timeouts: Timeouts,
    spec: &mut Spec,
    repos: RepoChoice<'_>,
) -> Result<Vec<EngineIdentity>, RunError> {
    build_here(spec.engines_mut(), repos).await?;
    let ids = preflight(arena_exe, timeouts, spec).await?;
    let (exe, mut engines) = (arena_exe.to_path_buf(), spec.engines().to_vec());
    let (engines, measured) = blocking(move || measure(&exe, &mut engines, &ids).map(|m| (engines, m))).await?;
    spec.engines_mut().clone_from_slice(&engines);
    Ok(measured)
}

/// Builds the source engines among `engines` here (a revision not yet
/// resolved is resolved now) and points each at its binary; also for
/// commands that start engines outside a run (`arena check`).
///
/// # Errors
///
/// [`RunError`] for a repository, revision or build problem.
pub async fn build_here(engines: &mut [EngineSpec], repos: RepoChoice<'_>) -> Result<(), RunError> {
    let jobs = source_jobs(engines, repos)?;
    if jobs.is_empty() {
        return Ok(());
    }
    for (i, exe, commit) in blocking(move || build_sources(jobs)).await? {
        let engine = &mut engines[i];
        engine.command = exe;
        engine.args.clear();
        if let Some(source) = engine.source.as_mut() {
            source.commit = commit;
        }
    }
    Ok(())
}

/// Runs `job` (builds, benches: minutes of blocking work) off the async threads.
async fn blocking<T: Send + 'static>(
    job: impl FnOnce() -> Result<T, RunError> + Send + 'static,
) -> Result<T, RunError> {
    tokio::task::spawn_blocking(job).await.map_err(|source| RunError::Task { what: "a build or bench", source })?
}

/// A source engine to build: its index, name, repository, build command
/// and source as stored.
type SourceJob = (usize, String, String, String, Source);

/// The source engines of a run and where this machine takes each from.
fn source_jobs(engines: &[EngineSpec], repos: RepoChoice<'_>) -> Result<Vec<SourceJob>, RunError> {
    let mut jobs = Vec::new();
    for (i, engine) in engines.iter().enumerate() {
        let Some(source) = engine.source.clone() else { continue };
        let (repo, build) = repos(engine)?;
        jobs.push((i, model::base_name(&engine.name).to_string(), repo, build, source));
    }
    Ok(jobs)
}

/// Builds each job (one build per commit and command, a revision resolved
/// once): each engine's binary and commit.
fn build_sources(jobs: Vec<SourceJob>) -> Result<Vec<(usize, String, String)>, RunError> {
    let cache = Cache::locate().map_err(RunError::from)?;
    let mut commits: HashMap<(String, String), String> = HashMap::new();
    let mut built = Vec::with_capacity(jobs.len());
    for (i, name, repo, build, source) in jobs {
        let commit = match (source.commit.is_empty(), commits.get(&(repo.clone(), source.rev.clone()))) {
            (false, _) => source.commit.clone(),
            (true, Some(commit)) => commit.clone(),
            (true, None) => {
                let commit = cache.resolve(&repo, &source.rev).map_err(RunError::from)?;
                commits.insert((repo.clone(), source.rev.clone()), commit.clone());
                commit
            }
        };
        let exe = cache.build(&name, &repo, &commit, &build).map_err(RunError::from)?.exe;
        built.push((i, exe.display().to_string(), commit));
    }
    Ok(built)
}

/// Hashes each engine's executable and runs its bench where it has a
/// signature (once per engine of a scaling run's copies).
fn measure(
    arena_exe: &Path,
    engines: &mut [EngineSpec],
    ids: &[Option<String>],
) -> Result<Vec<EngineIdentity>, RunError> {
    let host = crate::util::machine_name();
    let mut measured: Vec<EngineIdentity> = Vec::new();
    for (i, engine) in engines.iter_mut().enumerate() {
        let name = model::base_name(&engine.name).to_string();
        if let Some(done) = measured.iter().find(|m| m.engine == name) {
            if let Some(nodes) = done.bench {
                engine.bench = Some(BenchSignature::Nodes(nodes as u64));
            }
            continue;
        }
        let mut identity = EngineIdentity {
            engine: name.clone(),
            host: host.clone(),
            sha256: String::new(),
            id_name: ids.get(i).cloned().flatten().unwrap_or_default(),
            bench: None,
            nps: None,
            accepted: false,
            seen_ms: model::now_ms(),
        };
        if let Some(preset) = &engine.preset {
            identity.sha256 = arena_digest(arena_exe)?;
            identity.id_name = ARENA_VERSION.to_string();
            let bench = bundled_signature(&identity.sha256, preset, &engine.options);
            identity.bench = bench.map(|b| b.nodes as i64);
            identity.nps = bench.map(|b| b.nps as i64);
            measured.push(identity);
            continue;
        }
        let launch = engine.launch(arena_exe);
        let program = find_program(&launch.program, launch.dir.as_deref())
            .ok_or_else(|| RunError::NoProgram { engine: name.clone(), program: launch.program.clone() })?;
        identity.sha256 = file_digest(&program).map_err(|source| RunError::Unreadable {
            what: format!("engine '{name}'"),
            program: program.clone(),
            source,
        })?;
        if let Some(expected) = engine.bench {
            crate::term::set_line(&format!("bench of {name}…"));
            let result = signature(&name, &launch, &engine.bench_args, expected.nodes());
            crate::term::end_line();
            let result = result?;
            crate::term::note(&format!("bench of {name}: {} nodes, {} nps", result.nodes, result.nps));
            engine.bench = Some(BenchSignature::Nodes(result.nodes));
            identity.bench = Some(result.nodes as i64);
            identity.nps = Some(result.nps as i64);
        }
        measured.push(identity);
    }
    Ok(measured)
}

/// The sha256 of the `arena` binary, computed once per process.
fn arena_digest(arena_exe: &Path) -> Result<String, RunError> {
    static DIGEST: OnceLock<String> = OnceLock::new();
    if let Some(digest) = DIGEST.get() {
        return Ok(digest.clone());
    }
    let digest = file_digest(arena_exe).map_err(|source| RunError::Unreadable {
        what: "the arena binary".into(),
        program: arena_exe.to_path_buf(),
        source,
    })?;
    Ok(DIGEST.get_or_init(|| digest).clone())
}

/// Compares what plays here with what this machine recorded for run `run`
/// and records what is new. A different executable of a path engine, or a
/// different arena for the bundled engine, plays on by itself when its
/// bench signature is the one recorded (the same search, as fishtest and
/// OpenBench take it); otherwise it is refused unless `accept`. Either way
/// the change is recorded as accepted, and reports show it. Warns once when
/// a path engine without a bench signature has played on more than one
/// machine.
///
/// # Errors
///
/// [`RunError`] naming the engine, both hashes and the flag;
/// [`RunError::Db`].
pub async fn check_identities(
    db: &Db,
    run: i64,
    engines: &[EngineSpec],
    measured: &[EngineIdentity],
    accept: bool,
) -> Result<(), RunError> {
    let recorded = db.identities(run).await?;
    for now in measured {
        let Some(engine) = engines.iter().find(|e| model::base_name(&e.name) == now.engine) else { continue };
        let before = recorded.iter().rev().find(|r| r.engine == now.engine && r.host == now.host);
        let changed = match before {
            None => None,
            Some(before) => changed(engine, before, now),
        };
        match (before, changed) {
            (Some(_), None) => {}
            (Some(before), Some(what)) if !accept && !same_bench(before, now) => {
                return Err(RunError::NotAsBefore {
                    engine: now.engine.clone(),
                    run,
                    host: now.host.clone(),
                    change: what,
                });
            }
            (Some(_), Some(what)) => {
                crate::term::warn(&format!("engine '{}': accepted a change ({what}); the report shows it", now.engine));
                db.record_identity(run, &EngineIdentity { accepted: true, ..now.clone() }).await?;
            }
            (None, _) => {
                warn_unproven(engine, &recorded, now);
                db.record_identity(run, now).await?;
            }
        }
    }
    Ok(())
}

/// What makes `now` another engine than `before` on the same machine, if
/// anything, and whether its bench signature says the search stayed.
fn changed(engine: &EngineSpec, before: &EngineIdentity, now: &EngineIdentity) -> Option<String> {
    let short = |sha: &str| sha.get(..12).unwrap_or(sha).to_string();
    let what = if engine.preset.is_some() {
        (before.id_name != now.id_name).then(|| format!("{} then, {} now", before.id_name, now.id_name))
    } else if engine.source.is_some() {
        None // the commit is the run's; its bench was checked
    } else {
        (before.sha256 != now.sha256).then(|| {
            format!("its executable had sha256 {}…, it has {}… now", short(&before.sha256), short(&now.sha256))
        })
    }?;
    let search = match (before.bench, now.bench) {
        (Some(then), Some(now)) if then == now => format!("; the same bench signature, {now} nodes: the same search"),
        (Some(then), Some(now)) => format!("; bench {then} nodes then, {now} now: another search"),
        _ => String::new(),
    };
    Some(format!("{what}{search}"))
}

/// Whether `now` measured the bench signature `before` recorded: a rebuild
/// that searches as the old build did.
fn same_bench(before: &EngineIdentity, now: &EngineIdentity) -> bool {
    matches!((before.bench, now.bench), (Some(then), Some(now)) if then == now)
}

/// One warning when a path engine without a bench signature is played on a
/// second machine: nothing proves the two builds alike.
fn warn_unproven(engine: &EngineSpec, recorded: &[EngineIdentity], now: &EngineIdentity) {
    let elsewhere = recorded.iter().any(|r| r.engine == now.engine && r.host != now.host);
    if elsewhere && engine.preset.is_none() && engine.bench.is_none() {
        crate::term::warn(&format!(
            "engine '{}' plays on more than one machine without a bench signature: its identity across machines cannot be proven (give it bench = N or \"auto\" in engines.toml)",
            now.engine
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new arena for the bundled engine is a change; its bench signature
    /// says whether the search stayed.
    #[test]
    fn a_new_arena_is_a_change_whose_bench_says_whether_the_search_stayed() {
        let engine = EngineSpec::bundled("vnm");
        let identity = |version: &str, bench: Option<i64>| EngineIdentity {
            engine: "vnm".into(),
            host: "box".into(),
            sha256: version.repeat(64),
            id_name: format!("arena 0.1.0 ({version})"),
            bench,
            nps: None,
            accepted: false,
            seen_ms: 0,
        };
        let before = identity("a", Some(4_648_864));
        assert_eq!(changed(&engine, &before, &identity("a", Some(4_648_864))), None);
        assert_eq!(
            changed(&engine, &before, &identity("b", Some(4_648_864))).as_deref(),
            Some("arena 0.1.0 (a) then, arena 0.1.0 (b) now; the same bench signature, 4648864 nodes: the same search")
        );
        assert_eq!(
            changed(&engine, &before, &identity("b", Some(4_650_000))).as_deref(),
            Some("arena 0.1.0 (a) then, arena 0.1.0 (b) now; bench 4648864 nodes then, 4650000 now: another search")
        );
        assert_eq!(
            changed(&engine, &identity("a", None), &identity("b", Some(1))).as_deref(),
            Some("arena 0.1.0 (a) then, arena 0.1.0 (b) now")
        );
        // The same signature plays on by itself; another, or none, needs --accept-change.
        assert!(same_bench(&before, &identity("b", Some(4_648_864))));
        assert!(!same_bench(&before, &identity("b", Some(4_650_000))));
        assert!(!same_bench(&identity("a", None), &identity("b", None)));
        // A rebuilt path engine with a bench signature says so too.
        let path = EngineSpec { name: "dev".into(), command: "/x/dev".into(), ..EngineSpec::default() };
        assert_eq!(
            changed(&path, &before, &identity("b", Some(4_648_864))).as_deref(),
            Some(
                "its executable had sha256 aaaaaaaaaaaa…, it has bbbbbbbbbbbb… now; the same bench signature, 4648864 nodes: the same search"
            )
        );
        assert_eq!(changed(&path, &before, &identity("a", Some(1))), None, "the same executable");
    }
}
