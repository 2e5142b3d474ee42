//! Engines built from source revisions, as fishtest and OpenBench workers
//! build them: a mirror of each repository in the cache, a revision
//! resolved to its full commit id there, and the commit's tree exported and
//! built once per commit and build command, under a file lock so that two
//! processes that need the same build make it once.
//!
//! The cache is `$ARENA_CACHE`, else `$XDG_CACHE_HOME/arena`, else
//! `~/.cache/arena`:
//!
//! ```text
//! repos/NAME-HASH.git        a mirror (git clone --mirror) of one repository
//! builds/COMMIT12-HASH/      one build: src/ (the commit's tree), engine (the binary), build.log
//! ```
//!
//! The `git` program does the work (clone, fetch, rev-parse, archive): it
//! speaks every protocol and credential helper the user's own git does.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::fcntl::{Flock, FlockArg};
use sha2::{Digest, Sha256};

use crate::util::sanitize;

/// A source engine that cannot be fetched, resolved or built.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// No folder for the cache.
    #[error("no cache folder for builds: set ARENA_CACHE (or HOME)")]
    NoCache,
    /// A file operation in the cache failed.
    #[error("{what} {}: {source}", path.display())]
    Io {
        /// What was being done.
        what: &'static str,
        /// Where.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// `git` could not be run or failed.
    #[error("{0}")]
    Git(String),
    /// The revision names no commit of the repository.
    #[error("revision '{rev}' is not in {repo} (name a branch, tag or commit of it)")]
    UnknownRevision {
        /// The revision asked for.
        rev: String,
        /// The repository.
        repo: String,
    },
    /// The commit is not in the repository (a worker's clone that lacks it).
    #[error("commit {commit} is not in {repo} (push it there, or point the engine at a clone that has it)")]
    MissingCommit {
        /// The commit.
        commit: String,
        /// The repository.
        repo: String,
    },
    /// The build command failed.
    #[error("build of {name} at {commit} failed ({status}): {tail} (full output: {})", log.display())]
    BuildFailed {
        /// The engine.
        name: String,
        /// The commit, short.
        commit: String,
        /// The exit status.
        status: String,
        /// The output's last lines, joined.
        tail: String,
        /// The whole output.
        log: PathBuf,
    },
    /// The build succeeded but left no executable where `{exe}` said.
    #[error("build of {name} at {commit} left no executable at {} (the build command must write the binary to {{exe}})", exe.display())]
    NoBinary {
        /// The engine.
        name: String,
        /// The commit, short.
        commit: String,
        /// Where the binary should be.
        exe: PathBuf,
    },
}

/// The folder of mirrors and builds.
#[derive(Clone, Debug)]
pub struct Cache {
    root: PathBuf,
}

/// A finished build: the binary and whether this call made it.
#[derive(Clone, Debug)]
pub struct Build {
    /// The engine binary.
    pub exe: PathBuf,
    /// False when the build was in the cache already.
    pub built: bool,
}

impl Cache {
    /// The cache of this machine (see the module's documentation).
    ///
    /// # Errors
    ///
    /// [`SourceError::NoCache`] without `ARENA_CACHE`, `XDG_CACHE_HOME` or `HOME`.
    pub fn locate() -> Result<Cache, SourceError> {
        Ok(Cache { root: crate::util::cache_root().ok_or(SourceError::NoCache)? })
    }

    /// A cache in `root` (tests).
    pub fn at(root: PathBuf) -> Cache {
        Cache { root }
    }

    /// The full commit id `rev` names in `repo` now (the mirror fetched first).
    ///
    /// # Errors
    ///
    /// [`SourceError::UnknownRevision`], or git's failure to fetch.
    pub fn resolve(&self, repo: &str, rev: &str) -> Result<String, SourceError> {
        let mirror = self.mirror(repo, None)?;
        let spec = format!("{rev}^{{commit}}");
        let out = git(&mirror, &["rev-parse", "--verify", "--quiet", &spec])?;
        match out {
            Ok(commit) if commit.len() == 40 => Ok(commit),
            _ => Err(SourceError::UnknownRevision { rev: rev.to_string(), repo: repo.to_string() }),
        }
    }

    /// The binary of `commit` of `repo` built by `build` (`{exe}` replaced),
    /// from the cache if it was made before; `name` is the engine's, for
    /// messages and the progress line.
    ///
    /// # Errors
    ///
    /// [`SourceError::MissingCommit`], [`SourceError::BuildFailed`],
    /// [`SourceError::NoBinary`] or a failure of git or the cache.
    pub fn build(&self, name: &str, repo: &str, commit: &str, build: &str) -> Result<Build, SourceError> {
        let key = format!("{}-{}", &commit[..commit.len().min(12)], &digest(build)[..8]);
        let builds = self.root.join("builds");
        mkdir(&builds)?;
        let done = builds.join(&key);
        let exe = done.join("engine");
        let _lock = lock_file(&builds.join(format!("{key}.lock")), &format!("the build of {name}"))?;
        if done.join("ok").exists() && exe.exists() {
            return Ok(Build { exe, built: false });
        }
        let mirror = self.mirror(repo, Some(commit))?;
        let work = builds.join(format!("{key}.tmp"));
        if work.exists() {
            std::fs::remove_dir_all(&work).map_err(|e| io("cannot clear", &work, e))?;
        }
        let src = work.join("src");
        mkdir(&src)?;
        export(&mirror, commit, &src)?;
        let short = &commit[..commit.len().min(8)];
        let target = work.join("engine");
        let command = build.replace("{exe}", &quote(&target));
        let log = work.join("build.log");
        run_build(name, short, &command, &src, &log)?;
        if !is_executable(&target) {
            return Err(SourceError::NoBinary { name: name.to_string(), commit: short.to_string(), exe: target });
        }
        File::create(work.join("ok")).map_err(|e| io("cannot write", &work, e))?;
        if done.exists() {
            std::fs::remove_dir_all(&done).map_err(|e| io("cannot clear", &done, e))?;
        }
        std::fs::rename(&work, &done).map_err(|e| io("cannot move the build to", &done, e))?;
        Ok(Build { exe, built: true })
    }

    /// The mirror of `repo`, cloned or fetched; when `need` names a commit
    /// it already holds, it is not fetched again.
    fn mirror(&self, repo: &str, need: Option<&str>) -> Result<PathBuf, SourceError> {
        let repos = self.root.join("repos");
        mkdir(&repos)?;
        let key = format!("{}-{}", sanitize(model::spec::repo_name(repo)), &digest(repo)[..12]);
        let mirror = repos.join(format!("{key}.git"));
        let _lock = lock_file(&repos.join(format!("{key}.lock")), &format!("the clone of {repo}"))?;
        if mirror.exists() {
            if let Some(commit) = need
                && has_commit(&mirror, commit)?
            {
                return Ok(mirror);
            }
            git(&mirror, &["fetch", "--quiet", "--prune", "origin"])?
                .map_err(|e| SourceError::Git(format!("cannot fetch {repo}: {e}")))?;
        } else {
            let tmp = repos.join(format!("{key}.tmp"));
            if tmp.exists() {
                std::fs::remove_dir_all(&tmp).map_err(|e| io("cannot clear", &tmp, e))?;
            }
            let tmp_text = tmp.display().to_string();
            git(&repos, &["clone", "--quiet", "--mirror", "--", repo, &tmp_text])?
                .map_err(|e| SourceError::Git(format!("cannot clone {repo}: {e}")))?;
            std::fs::rename(&tmp, &mirror).map_err(|e| io("cannot move the clone to", &mirror, e))?;
        }
        if let Some(commit) = need
            && !has_commit(&mirror, commit)?
        {
            return Err(SourceError::MissingCommit { commit: commit.to_string(), repo: repo.to_string() });
        }
        Ok(mirror)
    }
}

/// A repository as given (in `engines.toml`, `--repo`): `~/` expanded, and
/// a path that exists made absolute, so that it means the same folder from
/// any working directory (a run stores it); a URL as it is.
pub fn repo_location(text: &str) -> String {
    let expanded = expand_home(text);
    let path = Path::new(&expanded);
    match path.exists() {
        true => std::path::absolute(path).map_or(expanded.clone(), |p| p.display().to_string()),
        false => expanded,
    }
}

/// A leading `~/` as the home folder (as a shell would), for paths in `engines.toml`.
pub fn expand_home(path: &str) -> String {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest).display().to_string(),
        _ => path.to_string(),
    }
}

/// git ran and failed: the last line it wrote to standard error.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct GitFailed(String);

/// Runs git in `dir`: `Ok(Ok(stdout))` on success, `Ok(Err(…))` when git
/// failed, `Err` when git could not be run.
fn git(dir: &Path, args: &[&str]) -> Result<Result<String, GitFailed>, SourceError> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .stdin(Stdio::null())
        .output()
        .map_err(|e| SourceError::Git(format!("cannot run git (is it installed?): {e}")))?;
    if out.status.success() {
        return Ok(Ok(String::from_utf8_lossy(&out.stdout).trim().to_string()));
    }
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("git failed").trim();
    Ok(Err(GitFailed(last.to_string())))
}

fn has_commit(mirror: &Path, commit: &str) -> Result<bool, SourceError> {
    Ok(git(mirror, &["cat-file", "-e", &format!("{commit}^{{commit}}")])?.is_ok())
}

/// Writes `commit`'s tree into `dest` (`git archive | tar -x`): a checkout
/// of its own, never the user's working copy.
fn export(mirror: &Path, commit: &str, dest: &Path) -> Result<(), SourceError> {
    let mut archive = Command::new("git")
        .arg("-C")
        .arg(mirror)
        .args(["archive", "--format=tar", commit])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| SourceError::Git(format!("cannot run git archive: {e}")))?;
    let stdout = archive.stdout.take().expect("piped");
    let tar = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(dest)
        .stdin(stdout)
        .status()
        .map_err(|e| SourceError::Git(format!("cannot run tar to unpack commit {commit}: {e}")))?;
    let archived = archive.wait().map_err(|e| SourceError::Git(format!("git archive: {e}")))?;
    if !archived.success() || !tar.success() {
        return Err(SourceError::Git(format!("cannot unpack commit {commit} into {}", dest.display())));
    }
    Ok(())
}

/// Runs the build command in `src`, its output to `log`, drawing the
/// progress line (elapsed seconds and the output's last line).
fn run_build(name: &str, commit: &str, command: &str, src: &Path, log: &Path) -> Result<(), SourceError> {
    let out = File::create(log).map_err(|e| io("cannot write", log, e))?;
    let err = out.try_clone().map_err(|e| io("cannot write", log, e))?;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(src)
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .map_err(|e| io("cannot run sh in", src, e))?;
    let started = Instant::now();
    let step = if crate::term::is_terminal() { 1 } else { 60 };
    let mut shown = u64::MAX;
    crate::term::set_line(&format!("building {name} at {commit}: {command}"));
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| io("cannot wait for the build in", src, e))? {
            break status;
        }
        let secs = started.elapsed().as_secs();
        if secs / step != shown && secs > 0 {
            shown = secs / step;
            let last = last_lines(log, 1).join("");
            crate::term::set_line(&format!("building {name} at {commit}: {secs} s  {}", clip(&last, 60)));
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    crate::term::end_line();
    if status.success() {
        crate::term::note(&format!("built {name} at {commit} in {:.1} s", started.elapsed().as_secs_f64()));
        return Ok(());
    }
    let status = match status.code() {
        Some(code) => format!("exit status {code}"),
        None => "killed by a signal".to_string(),
    };
    let tail = last_lines(log, 3).join(" | ");
    let tail = if tail.is_empty() { "no output".to_string() } else { tail };
    Err(SourceError::BuildFailed {
        name: name.to_string(),
        commit: commit.to_string(),
        status,
        tail,
        log: log.to_path_buf(),
    })
}

/// The last `n` non-empty lines of a file (its last 4 KiB).
fn last_lines(path: &Path, n: usize) -> Vec<String> {
    let Ok(mut file) = File::open(path) else { return Vec::new() };
    let len = file.metadata().map_or(0, |m| m.len());
    let _ = file.seek(SeekFrom::Start(len.saturating_sub(4096)));
    let mut bytes = Vec::new();
    let _ = file.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes);
    let mut lines: Vec<String> =
        text.lines().rev().map(str::trim).filter(|l| !l.is_empty()).take(n).map(str::to_string).collect();
    lines.reverse();
    lines
}

fn clip(text: &str, width: usize) -> String {
    match text.char_indices().nth(width) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// Takes an exclusive lock on `path`, saying once when another process holds it.
fn lock_file(path: &Path, what: &str) -> Result<Flock<File>, SourceError> {
    let open = || File::options().create(true).truncate(false).write(true).open(path);
    let file = open().map_err(|e| io("cannot open the lock", path, e))?;
    match Flock::lock(file, FlockArg::LockExclusiveNonblock) {
        Ok(lock) => Ok(lock),
        Err((file, _)) => {
            crate::term::note(&format!("waiting for another arena to finish {what}"));
            Flock::lock(file, FlockArg::LockExclusive)
                .map_err(|(_, errno)| io("cannot lock", path, std::io::Error::from(errno)))
        }
    }
}

fn mkdir(dir: &Path) -> Result<(), SourceError> {
    std::fs::create_dir_all(dir).map_err(|e| io("cannot create", dir, e))
}

fn io(what: &'static str, path: &Path, source: std::io::Error) -> SourceError {
    SourceError::Io { what, path: path.to_path_buf(), source }
}

/// A path for `sh -c`, single-quoted.
fn quote(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The sha256 of `text`, in hex.
fn digest(text: &str) -> String {
    format!("{:x}", Sha256::digest(text.as_bytes()))
}

/// The sha256 of a file, in hex.
///
/// # Errors
///
/// The file cannot be read.
pub fn file_digest(path: &Path) -> std::io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher)?;
    Ok(format!("{:x}", hasher.finalize()))
}

/// Where `program` is: itself when it has a `/`, else the first match on `PATH`.
pub fn find_program(program: &Path, dir: Option<&Path>) -> Option<PathBuf> {
    if program.components().count() > 1 {
        let path = match dir {
            Some(dir) if program.is_relative() => dir.join(program),
            _ => program.to_path_buf(),
        };
        return is_executable(&path).then_some(path);
    }
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths).map(|dir| dir.join(program)).find(|p| is_executable(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(dir: &Path, script: &str) {
        let status = Command::new("sh").arg("-c").arg(script).current_dir(dir).status().unwrap();
        assert!(status.success(), "{script}");
    }

    #[test]
    fn a_revision_resolves_to_its_commit_and_builds_once() {
        let tmp = std::env::temp_dir().join(format!("arena-source-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&tmp);
        let repo = tmp.join("repo");
        std::fs::create_dir_all(&repo).unwrap();
        sh(
            &repo,
            "git init -q -b main . && printf 'echo one' > e.sh && git add e.sh && \
             git -c user.name=t -c user.email=t@t commit -qm one",
        );
        let cache = Cache::at(tmp.join("cache"));
        let repo_text = repo.display().to_string();
        let first = cache.resolve(&repo_text, "main").unwrap();
        assert_eq!(first.len(), 40);
        let build = "cp e.sh {exe} && chmod +x {exe}";
        let made = cache.build("t", &repo_text, &first, build).unwrap();
        assert!(made.built && is_executable(&made.exe));
        assert!(!cache.build("t", &repo_text, &first, build).unwrap().built, "the second build is the cached one");
        sh(&repo, "printf 'echo two' > e.sh && git -c user.name=t -c user.email=t@t commit -qam two");
        let second = cache.resolve(&repo_text, "main").unwrap();
        assert_ne!(first, second, "the branch moved and the mirror was fetched");
        let unknown = cache.resolve(&repo_text, "nope").unwrap_err().to_string();
        assert!(unknown.contains("revision 'nope' is not in"), "{unknown}");
        let failed = cache.build("t", &repo_text, &second, "echo compiling; echo 'error: x' >&2; exit 3").unwrap_err();
        let text = failed.to_string();
        assert!(text.contains("exit status 3") && text.contains("compiling | error: x"), "{text}");
        let none = cache.build("t", &repo_text, &second, "true").unwrap_err().to_string();
        assert!(none.contains("left no executable"), "{none}");
        let missing = cache.build("t", &repo_text, &"0".repeat(40), build).unwrap_err().to_string();
        assert!(missing.contains("is not in"), "{missing}");
        let _ = std::fs::remove_dir_all(&tmp);
    }
}
