//! Small helpers every layer may use: file-name parts, a lock that
//! survives a panicked holder, this machine's name and cache folder,
//! whether a process of this machine has ended, and a step run beside a
//! future.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard};

/// The name `arena worker --name` gave this machine, if it did.
static MACHINE_NAME: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Names this process's machine (`arena worker --name`), once, before it
/// plays; `false` when a name was already set.
pub fn name_machine(name: &str) -> bool {
    MACHINE_NAME.set(name.to_string()).is_ok()
}

/// This machine's name, as runs, games, workers and I/O logs record it: the
/// one given with [`name_machine`], else `$HOSTNAME`, else `/etc/hostname`,
/// else `localhost`.
pub fn machine_name() -> String {
    MACHINE_NAME.get().cloned().unwrap_or_else(host_name)
}

fn host_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok().map(|s| s.trim().to_string()))
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".into())
}

/// This machine's cache folder: `$ARENA_CACHE`, else `$XDG_CACHE_HOME/arena`,
/// else `~/.cache/arena` (`None` without any of them).
pub fn cache_root() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("ARENA_CACHE")
        .or_else(|| var("XDG_CACHE_HOME").map(|dir| dir.join("arena")))
        .or_else(|| var("HOME").map(|home| home.join(".cache").join("arena")))
}

/// `name` as a file-name part: letters, digits, `-` and `_` kept, the rest `_`.
pub fn sanitize(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect()
}

/// An error as one line: its text, then each cause its text does not
/// already say (`cannot listen on …: address in use`).
pub fn one_line(error: &(dyn std::error::Error + 'static)) -> String {
    let mut line = error.to_string();
    let mut cause = error.source();
    while let Some(next) = cause {
        let text = next.to_string();
        if !line.contains(&text) {
            line = format!("{line}: {text}");
        }
        cause = next.source();
    }
    line.replace('\n', " ")
}

/// Locks `mutex`, taking the data as it is if a holder panicked: what it
/// guards here (counts, progress, the current game's log) stays usable.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Whether process `pid` of this machine has ended. A zombie (ended, not
/// yet reaped by its parent) has ended. Where Linux's `/proc` cannot say,
/// the process must be gone from the process table.
pub fn process_ended(pid: i32) -> bool {
    if pid <= 0 {
        return false;
    }
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // `pid (name) S …`: the state follows the name, which may hold ')'.
        Ok(stat) => stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z')),
        Err(_) if std::path::Path::new("/proc/self/stat").exists() => true,
        Err(_) => nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None) == Err(nix::errno::Errno::ESRCH),
    }
}

/// Runs `playing` while `step` runs each time `events` changes (the work
/// loop raises it as each unit of work is stored: see
/// [`crate::run::Events`]); the first step that fails ends the
/// stepping (the play goes on), and its failure comes back beside the
/// play's end. Nothing is polled: with no event, no step runs.
pub async fn while_playing<T, E>(
    playing: impl Future<Output = T>,
    mut events: tokio::sync::watch::Receiver<u64>,
    mut step: impl AsyncFnMut() -> Result<(), E>,
) -> (T, Result<(), E>) {
    let (done, mut ended) = tokio::sync::watch::channel(false);
    let played = async {
        let end = playing.await;
        let _ = done.send(true);
        end
    };
    let stepping = async {
        loop {
            tokio::select! {
                changed = events.changed() => if changed.is_err() { return Ok(()) },
                _ = ended.wait_for(|&ended| ended) => return Ok(()),
            }
            step().await?;
        }
    };
    tokio::join!(played, stepping)
}

#[cfg(test)]
mod tests {
    use super::process_ended;

    #[test]
    fn a_process_has_ended_once_it_exits_even_before_it_is_reaped() {
        assert!(!process_ended(std::process::id() as i32), "this process runs");
        assert!(!process_ended(0) && !process_ended(-1), "not a process");
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id() as i32;
        // Exited but not waited for: a zombie until `wait`.
        while std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z")) {
            std::thread::yield_now();
        }
        assert!(process_ended(pid), "a zombie has ended");
        child.wait().unwrap();
        assert!(process_ended(pid), "a reaped process has ended");
    }
}
