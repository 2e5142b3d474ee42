//! One engine process: spawn, UCI handshake, options, `go`/`bestmove`, quit.
//!
//! Every wait has a timeout, stderr is drained into a log (an engine that
//! spams stderr cannot block on a full pipe), its last line kept for the
//! error when the engine exits, and a process is always reaped: `quit`
//! waits, then kills; dropping the handle kills it.

use std::path::Path;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::task::JoinHandle;
use tokio::time::{Instant, timeout_at};

use crate::engine_io::engines::{EngineSpec, Launch};
use crate::engine_io::iolog::{Direction, IoLog};
use crate::engine_io::starvation::{Schedule, Spent, Threads};
use crate::engine_io::uci::command;
use crate::engine_io::uci::lines::LineReader;
use crate::engine_io::uci::output::{EngineLine, Info, OptionDecl, parse};

/// How long each protocol step may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// `uci` → `uciok`.
    pub handshake: Duration,
    /// `isready` → `readyok` (after options or `ucinewgame`).
    pub ready: Duration,
    /// `quit` → exit, before the process is killed.
    pub quit: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts { handshake: Duration::from_secs(10), ready: Duration::from_secs(10), quit: Duration::from_secs(1) }
    }
}

/// What to do about a program that would not start: make it executable,
/// or name it right.
fn spawn_hint(source: &std::io::Error, program: &str) -> String {
    match source.kind() {
        std::io::ErrorKind::PermissionDenied => format!("is it executable? chmod +x '{program}'"),
        _ => "check its command in engines.toml, or PATH".to_string(),
    }
}

/// Why an engine could not be started or configured.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The program could not be started.
    #[error("engine '{name}': cannot start '{program}': {source} ({})", spawn_hint(source, program))]
    Spawn {
        /// Engine name.
        name: String,
        /// Program path.
        program: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The folder it is to run in (`dir =`) is not there.
    #[error("engine '{name}': its folder '{dir}' does not exist (dir = in engines.toml): create it, or give another")]
    NoFolder {
        /// Engine name.
        name: String,
        /// The folder.
        dir: String,
    },
    /// No answer in time.
    #[error("engine '{name}' did not answer '{command}' within {ms} ms{why}")]
    Timeout {
        /// Engine name.
        name: String,
        /// The command that went unanswered.
        command: &'static str,
        /// The timeout.
        ms: u128,
        /// What the engine said instead, when that hints at the cause:
        /// ` (its last line: '…'; is it a UCI engine?)` for a program that
        /// wrote lines to `uci` but none of UCI's; else empty.
        why: String,
    },
    /// The engine rejected `uci` the way an xboard (CECP) engine rejects a
    /// command it does not know (`Error (unknown command): uci`).
    #[error(
        "engine '{name}' does not speak UCI: it answered 'uci' with '{answer}' \
         (an xboard/WinBoard engine? arena plays UCI engines only)"
    )]
    NotUci {
        /// Engine name.
        name: String,
        /// Its answer, cut to 200 characters.
        answer: String,
    },
    /// The process ended.
    #[error("engine '{name}' exited while waiting for '{command}'{why}")]
    Exited {
        /// Engine name.
        name: String,
        /// The command that went unanswered.
        command: &'static str,
        /// Its exit status and last line on stderr, where known, as
        /// ` (exit status: 127; stderr: '…')`; empty when neither is.
        why: String,
    },
    /// A configured option is not declared by the engine or out of range.
    #[error("engine '{name}': {problem}")]
    Option {
        /// Engine name.
        name: String,
        /// What is wrong.
        problem: String,
    },
}

/// What one `go` produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move as printed; `None` for `(none)`, `0000` or an empty `bestmove`.
    pub best: Option<String>,
    /// The reply the engine expects (`bestmove X ponder Y`), if named.
    pub ponder: Option<String>,
    /// The last values reported in `info` lines (first PV line only).
    pub info: Info,
    /// Wall time from writing `go` to reading `bestmove`.
    pub elapsed: Duration,
}

/// How long to wait for `bestmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Deadline {
    /// Wall time, however busy the machine: clocks and move times.
    Wall(Duration),
    /// Time the engine ran: its busiest thread's time on a processor (see
    /// [`crate::engine_io::starvation`]), so that an engine on a machine too
    /// busy to run it, or frozen, is not taken for one that stalls: node and
    /// depth limits, whose results do not depend on time. An engine that
    /// neither runs nor answers (a deadlock) stalls after [`IDLE_LIMITS`]
    /// limits of wall time, less its wait for a processor; where the system
    /// does not say, the limit is wall time.
    Available(Duration),
}

/// Under [`Deadline::Available`], how many limits of wall time an engine
/// that does not run may take: a machine frozen for a minute (a paused
/// virtual machine) is excused, a deadlock is caught.
pub const IDLE_LIMITS: u32 = 5;

impl Deadline {
    /// The limit, in wall time or in time the engine ran.
    pub fn limit(self) -> Duration {
        match self {
            Deadline::Wall(limit) | Deadline::Available(limit) => limit,
        }
    }

    /// At the limit, `elapsed` after `go`: how much longer to wait for the
    /// engine that `spent` this much since (where the system says), or
    /// `None` when it has stalled.
    pub fn more_time(self, elapsed: Duration, spent: Option<Spent>) -> Option<Duration> {
        let (Deadline::Available(limit), Some(spent)) = (self, spent) else { return None };
        let idle_left = (limit * IDLE_LIMITS + spent.waited).saturating_sub(elapsed);
        let run_left = limit.saturating_sub(spent.busiest);
        if idle_left.is_zero() || run_left.is_zero() {
            return None;
        }
        // Looked at again when the engine could have used what it has left,
        // but not sooner than 100 ms, nor later than the idle limit.
        Some(run_left.max(Duration::from_millis(100)).min(idle_left))
    }
}

/// Why a `go` did not produce a `bestmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThinkFailure {
    /// No `bestmove` before the deadline.
    Timeout {
        /// Wall time waited.
        elapsed: Duration,
        /// What the engine did meanwhile, where the system says.
        spent: Option<Spent>,
        /// Nodes last reported before the deadline.
        nodes: Option<u64>,
    },
    /// The process ended or its pipe broke.
    Disconnected,
    /// A ponder search whose move was not played did not answer `stop`.
    StopIgnored {
        /// Wall time waited after `stop`.
        waited: Duration,
    },
}

/// A running engine.
pub struct EngineProcess {
    name: String,
    child: Child,
    /// The process id, for its wait for a processor (`None` once it exited).
    pid: Option<u32>,
    /// Its threads' times, opened at the first search.
    threads: Option<Threads>,
    stdin: ChildStdin,
    stdout: LineReader<BufReader<ChildStdout>>,
    id_name: Option<String>,
    declared: Vec<OptionDecl>,
    /// The game's I/O log, if kept.
    log: Option<IoLog>,
    /// The end of what it wrote to stderr, and the task that drains it.
    stderr: StderrTail,
    stderr_task: Option<JoinHandle<()>>,
}

/// The last bytes an engine wrote to stderr (at most [`TAIL_BYTES`]).
type StderrTail = Arc<Mutex<Vec<u8>>>;

const TAIL_BYTES: usize = 1024;

impl EngineError {
    /// Whether the failure is the machine's, not the engine's: no file
    /// descriptor, memory or process slot to start it with (EMFILE, ENFILE,
    /// ENOMEM, EAGAIN). Such a failure is never charged to the engine as a
    /// lost game (see [`crate::game::MachineFault`]).
    pub fn is_machine_limit(&self) -> bool {
        /// Linux's EAGAIN, ENOMEM, ENFILE, EMFILE.
        const LIMITS: [i32; 4] = [11, 12, 23, 24];
        matches!(self, EngineError::Spawn { source, .. } if source.raw_os_error().is_some_and(|code| LIMITS.contains(&code)))
    }
}

impl EngineProcess {
    /// Starts the engine (on `cpus` when given, see [`crate::engine_io::affinity`]),
    /// runs `uci`, sets the spec's options plus `extra`, and waits for
    /// `readyok`. stderr is appended to `stderr_log` (or discarded).
    ///
    /// # Errors
    ///
    /// [`EngineError`] when it cannot start, does not answer in time, exits,
    /// or does not declare an option it is given.
    pub async fn start(
        spec: &EngineSpec,
        launch: &Launch,
        extra: &[(String, String)],
        stderr_log: Option<&Path>,
        timeouts: Timeouts,
        cpus: Option<&[usize]>,
    ) -> Result<EngineProcess, EngineError> {
        // Held until the engine is ready: its deadlines run only while it starts
        // with few others, not while hundreds of slots start theirs at once.
        let _starting = start_gate().acquire().await.ok();
        let mut command = Command::new(&launch.program);
        command
            .args(&launch.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            // Its own process group: a Ctrl-C at the terminal reaches the arena,
            // which finishes or gives back the games in flight, and not the
            // engines in the middle of a game (where it read as their crash).
            .process_group(0);
        if let Some(dir) = &launch.dir {
            if !dir.is_dir() {
                return Err(EngineError::NoFolder { name: spec.name.clone(), dir: dir.display().to_string() });
            }
            command.current_dir(dir);
        }
        let mut child = crate::engine_io::affinity::spawn_on(cpus, || command.spawn()).map_err(|source| {
            EngineError::Spawn { name: spec.name.clone(), program: launch.program.display().to_string(), source }
        })?;
        let (Some(stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            unreachable!("all three pipes were requested");
        };
        let (stderr_tail, stderr_task) = drain_stderr(stderr, stderr_log);
        let mut process = EngineProcess {
            name: spec.name.clone(),
            pid: child.id(),
            threads: None,
            child,
            stdin,
            stdout: LineReader::new(BufReader::with_capacity(64 * 1024, stdout)),
            id_name: None,
            declared: Vec::new(),
            log: None,
            stderr: stderr_tail,
            stderr_task: Some(stderr_task),
        };
        match process.configure(spec, extra, timeouts).await {
            Ok(()) => Ok(process),
            Err(e) => {
                process.kill().await;
                Err(e)
            }
        }
    }

    async fn configure(
        &mut self,
        spec: &EngineSpec,
        extra: &[(String, String)],
        timeouts: Timeouts,
    ) -> Result<(), EngineError> {
        self.handshake(timeouts.handshake).await?;
        let options: Vec<(String, String)> = spec.options.iter().chain(extra).cloned().collect();
        self.set_options(&options, timeouts.ready).await
    }

    /// Sets `options` (checked against the declarations), then waits for
    /// `readyok`: at start, and between games (a tuning run's values for the
    /// next pair).
    ///
    /// # Errors
    ///
    /// As [`EngineProcess::start`] for a bad option, or [`EngineProcess::ready`].
    pub async fn set_options(&mut self, options: &[(String, String)], limit: Duration) -> Result<(), EngineError> {
        for (name, value) in options {
            let line = self.option_command(name, value)?;
            self.send(&line, "setoption").await?;
        }
        self.ready(limit).await
    }

    /// The name the engine gave in `id name`, if any.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// The options declared at `uci`.
    pub fn declared_options(&self) -> &[OptionDecl] {
        &self.declared
    }

    /// The declared option of this name (UCI names are case-insensitive).
    pub fn declared(&self, name: &str) -> Option<&OptionDecl> {
        self.declared.iter().find(|d| d.name.eq_ignore_ascii_case(name))
    }

    /// Keeps every line to and from the engine in `log` from now on (`None`: stop).
    pub fn set_log(&mut self, log: Option<IoLog>) {
        self.log = log;
    }

    fn logged(&self, direction: Direction, line: &str) {
        if let Some(log) = &self.log {
            log.line(&self.name, direction, line);
        }
    }

    /// The error for an engine found gone while waiting for `command`.
    async fn exited(&mut self, command: &'static str) -> EngineError {
        EngineError::Exited { name: self.name.clone(), command, why: self.exit_reason().await }
    }

    /// Why an engine found gone ended, as ` (exit status: 3; stderr: '…')`:
    /// its exit status and last line on stderr when they come within
    /// moments (its pipes close as it exits); empty when neither does.
    pub async fn exit_reason(&mut self) -> String {
        let moment = Duration::from_millis(200);
        if let Some(task) = self.stderr_task.take() {
            let _ = tokio::time::timeout(moment, task).await;
        }
        let status = match tokio::time::timeout(moment, self.child.wait()).await {
            Ok(Ok(status)) => Some(status.to_string()),
            _ => None,
        };
        let said = last_line(&self.stderr.lock().unwrap_or_else(std::sync::PoisonError::into_inner))
            .map(|line| format!("stderr: '{line}'"));
        let known: Vec<String> = status.into_iter().chain(said).collect();
        if known.is_empty() { String::new() } else { format!(" ({})", known.join("; ")) }
    }

    async fn send(&mut self, line: &str, command: &'static str) -> Result<(), EngineError> {
        self.logged(Direction::ToEngine, line);
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        match self.stdin.write_all(&bytes).await {
            Ok(()) => Ok(()),
            Err(_) => Err(self.exited(command).await),
        }
    }

    /// `uci` → `uciok`, keeping the engine's name and options. A program
    /// that answers as an xboard engine fails at once; one that writes
    /// only lines foreign to UCI is quoted when it times out.
    async fn handshake(&mut self, limit: Duration) -> Result<(), EngineError> {
        self.send(&command::uci(), "uci").await?;
        let deadline = Instant::now() + limit;
        let mut spoke_uci = false;
        let mut foreign = None;
        loop {
            let line = match self.read_line(deadline, "uci", limit).await {
                Ok(line) => line,
                Err(EngineError::Timeout { name, command, ms, .. }) if !spoke_uci && foreign.is_some() => {
                    let why = format!(" (its last line: '{}'; is it a UCI engine?)", foreign.unwrap_or_default());
                    return Err(EngineError::Timeout { name, command, ms, why });
                }
                Err(e) => return Err(e),
            };
            match parse(&line) {
                EngineLine::UciOk => return Ok(()),
                EngineLine::Id { key, value } if key == "name" => self.id_name = Some(value),
                EngineLine::Option(decl) => self.declared.push(decl),
                EngineLine::Other => {
                    if !spoke_uci && rejects_uci(&line) {
                        return Err(EngineError::NotUci { name: self.name.clone(), answer: cut(line.trim()) });
                    }
                    if !line.trim().is_empty() {
                        foreign = Some(cut(line.trim()));
                    }
                    continue;
                }
                _ => {}
            }
            spoke_uci = true;
        }
    }

    /// `isready` → `readyok`.
    ///
    /// # Errors
    ///
    /// [`EngineError::Timeout`] or [`EngineError::Exited`].
    pub async fn ready(&mut self, limit: Duration) -> Result<(), EngineError> {
        self.send(&command::isready(), "isready").await?;
        let deadline = Instant::now() + limit;
        while parse(&self.read_line(deadline, "isready", limit).await?) != EngineLine::ReadyOk {}
        Ok(())
    }

    /// `ucinewgame` + `isready`.
    ///
    /// # Errors
    ///
    /// As [`EngineProcess::ready`].
    pub async fn new_game(&mut self, limit: Duration) -> Result<(), EngineError> {
        self.send(&command::ucinewgame(), "ucinewgame").await?;
        self.ready(limit).await
    }

    /// Presses the engine's `Clear Hash` button, if it declares one (so each
    /// test position starts from an empty table even for engines that keep
    /// their table across `ucinewgame`), then waits for `readyok`.
    ///
    /// # Errors
    ///
    /// As [`EngineProcess::ready`].
    pub async fn clear_hash(&mut self, limit: Duration) -> Result<(), EngineError> {
        let Some(button) = self.declared("Clear Hash").filter(|d| d.kind == "button").map(|d| d.name.clone()) else {
            return Ok(());
        };
        self.send(&command::setoption(&button, None), "setoption").await?;
        self.ready(limit).await
    }

    async fn read_line(
        &mut self,
        deadline: Instant,
        command: &'static str,
        limit: Duration,
    ) -> Result<String, EngineError> {
        match timeout_at(deadline, self.stdout.next_line()).await {
            Ok(Ok(Some(line))) => {
                self.logged(Direction::FromEngine, &line);
                Ok(line)
            }
            Ok(Ok(None) | Err(_)) => Err(self.exited(command).await),
            Err(_) => Err(EngineError::Timeout {
                name: self.name.clone(),
                command,
                ms: limit.as_millis(),
                why: String::new(),
            }),
        }
    }

    fn option_command(&self, name: &str, value: &str) -> Result<String, EngineError> {
        let problem = |problem: String| EngineError::Option { name: self.name.clone(), problem };
        let Some(decl) = self.declared(name) else {
            if name.eq_ignore_ascii_case(crate::engine_io::uci::CHESS960_OPTION) {
                return Err(problem(format!(
                    "does not support Chess960 (it declares no option {name}), so it cannot play Fischer random openings: choose engines that do, or a standard opening book"
                )));
            }
            let known: Vec<&str> = self.declared.iter().map(|d| d.name.as_str()).collect();
            return Err(problem(format!("has no option '{name}' (it declares: {})", known.join(", "))));
        };
        if decl.kind == "button" {
            return Ok(command::setoption(&decl.name, None));
        }
        if let Some(why) = decl.refusal(value) {
            return Err(problem(why));
        }
        Ok(command::setoption(&decl.name, Some(value)))
    }

    /// Sends the position and `go`, and waits up to `deadline` for `bestmove`.
    /// The clock starts once `go` is written.
    ///
    /// # Errors
    ///
    /// [`ThinkFailure`] on timeout or disconnect; the process should then be
    /// discarded (it may still be thinking).
    pub async fn think(&mut self, position: &str, go: &str, deadline: Deadline) -> Result<Thought, ThinkFailure> {
        // Read before `go`, outside the time the clock counts.
        let before = self.schedule();
        let start = self.write_search(position, go).await?;
        self.answer(start, deadline, Info::default(), before).await
    }

    /// Starts pondering: the position after the expected reply and `go ponder …`.
    /// The engine thinks until [`EngineProcess::ponderhit`] or
    /// [`EngineProcess::stop_pondering`].
    ///
    /// # Errors
    ///
    /// [`ThinkFailure::Disconnected`] when the engine's input is closed.
    pub async fn ponder(&mut self, position: &str, go: &str) -> Result<(), ThinkFailure> {
        self.write_search(position, go).await.map(|_| ())
    }

    /// Reads a pondering engine's lines (into its log, its `info` into
    /// `info`) while the opponent thinks; cancel-safe, meant to be dropped
    /// when the opponent answers. Ends only if the engine answers while
    /// pondering (`Some`: its `bestmove`, which the protocol forbids before
    /// `ponderhit` or `stop`) or disconnects (`None`).
    pub async fn listen(&mut self, info: &mut Info) -> Option<Thought> {
        let start = Instant::now();
        loop {
            let Ok(Some(line)) = self.stdout.next_line().await else {
                self.logged(Direction::FromEngine, "(the engine closed its output)");
                return None;
            };
            self.logged(Direction::FromEngine, &line);
            match parse(&line) {
                EngineLine::BestMove { mv, ponder } => {
                    return Some(Thought { best: mv, ponder, info: std::mem::take(info), elapsed: start.elapsed() });
                }
                EngineLine::Info(new) if new.multipv.unwrap_or(1) == 1 => merge(info, new),
                _ => {}
            }
        }
    }

    /// The expected reply was played: `ponderhit`, then the answer, waited
    /// for up to `deadline` from now; the clock starts at `ponderhit`. `info`
    /// is what the engine reported while pondering.
    ///
    /// # Errors
    ///
    /// As [`EngineProcess::think`].
    pub async fn ponderhit(&mut self, deadline: Deadline, info: Info) -> Result<Thought, ThinkFailure> {
        let before = self.schedule();
        let start = self.write_search("ponderhit", "").await?;
        self.answer(start, deadline, info, before).await
    }

    /// Another reply was played (or the game ended): `stop`, and the
    /// pondering search's `bestmove` read and dropped within `limit`.
    ///
    /// # Errors
    ///
    /// As [`EngineProcess::think`]: an engine that does not answer `stop`.
    pub async fn stop_pondering(&mut self, limit: Duration) -> Result<(), ThinkFailure> {
        let start = self.write_search("stop", "").await?;
        self.answer(start, Deadline::Wall(limit), Info::default(), None).await.map(|_| ())
    }

    /// Writes one or two command lines (an empty second is left out) at once,
    /// then logs them; returns when they were written. The log's stamp is
    /// that moment too, so a search's time in the I/O log (from `go` to the
    /// answer) is the time its clock counted, however long the write waited
    /// for this process to be scheduled.
    async fn write_search(&mut self, first: &str, second: &str) -> Result<Instant, ThinkFailure> {
        let lines = [first, second];
        let mut bytes = Vec::with_capacity(first.len() + second.len() + 2);
        for line in lines.iter().filter(|l| !l.is_empty()) {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        let written = self.stdin.write_all(&bytes).await;
        let start = Instant::now();
        for line in lines.iter().filter(|l| !l.is_empty()) {
            self.logged(Direction::ToEngine, line);
        }
        written.map(|()| start).map_err(|_| ThinkFailure::Disconnected)
    }

    /// Reads until `bestmove`, or until `deadline` after `start`; `before`
    /// is the engine's schedule when the search began, where the system
    /// says (a search out of time then says how much it ran and waited).
    async fn answer(
        &mut self,
        start: Instant,
        deadline: Deadline,
        mut info: Info,
        before: Option<Schedule>,
    ) -> Result<Thought, ThinkFailure> {
        // One timer for the whole search, not one per line read; moved on
        // while the engine has not run its limit under `Deadline::Available`.
        let expired = tokio::time::sleep_until(start + deadline.limit());
        tokio::pin!(expired);
        loop {
            let read = tokio::select! {
                biased;
                line = self.stdout.next_line() => Ok(line),
                () = &mut expired => Err(()),
            };
            match read {
                Ok(Ok(Some(line))) => {
                    self.logged(Direction::FromEngine, &line);
                    match parse(&line) {
                        EngineLine::BestMove { mv, ponder } => {
                            let elapsed = start.elapsed();
                            // A search on a clock: how much of it the engine ran and
                            // waited for a processor, for the machine's watch.
                            if let (Deadline::Wall(_), Some(before)) = (deadline, &before)
                                && let Some(now) = self.schedule()
                            {
                                crate::engine_io::starvation::count_clocked(now.since(before));
                            }
                            return Ok(Thought { best: mv, ponder, info, elapsed });
                        }
                        EngineLine::Info(new) if new.multipv.unwrap_or(1) == 1 => merge(&mut info, new),
                        _ => {}
                    }
                }
                Ok(Ok(None) | Err(_)) => {
                    self.logged(Direction::FromEngine, "(the engine closed its output)");
                    return Err(ThinkFailure::Disconnected);
                }
                Err(()) => {
                    let spent = before.as_ref().zip(self.schedule()).map(|(before, now)| now.since(before));
                    if let Some(more) = deadline.more_time(start.elapsed(), spent) {
                        expired.as_mut().reset(Instant::now() + more);
                        continue;
                    }
                    let waited = start.elapsed().as_millis();
                    self.logged(Direction::FromEngine, &format!("(no bestmove after {waited} ms)"));
                    return Err(ThinkFailure::Timeout { elapsed: start.elapsed(), spent, nodes: info.nodes });
                }
            }
        }
    }

    /// The time this engine's threads have run and waited for a
    /// processor, where the system says.
    fn schedule(&mut self) -> Option<Schedule> {
        if self.threads.is_none() {
            self.threads = self.pid.and_then(Threads::of);
        }
        self.threads.as_mut()?.schedule()
    }

    /// Writes one line to the engine, as it is (`arena check` speaks the
    /// protocol a step at a time).
    ///
    /// # Errors
    ///
    /// [`EngineError::Exited`] when the engine's input is closed.
    pub async fn write_line(&mut self, line: &str) -> Result<(), EngineError> {
        self.send(line, "a command").await
    }

    /// The next line the engine prints, or `None` if it prints none before
    /// `deadline`.
    ///
    /// # Errors
    ///
    /// [`EngineError::Exited`] when the engine's output ends.
    pub async fn line_before(&mut self, deadline: Instant) -> Result<Option<String>, EngineError> {
        match timeout_at(deadline, self.stdout.next_line()).await {
            Ok(Ok(Some(line))) => {
                self.logged(Direction::FromEngine, &line);
                Ok(Some(line))
            }
            Ok(Ok(None) | Err(_)) => Err(self.exited("a command").await),
            Err(_) => Ok(None),
        }
    }

    /// Sends `quit` and waits up to `limit` for the process to end: how long
    /// it took, or `None` if it was still running and was killed.
    pub async fn quit_timed(mut self, limit: Duration) -> Option<Duration> {
        let start = Instant::now();
        let _ = self.stdin.write_all(format!("{}\n", command::quit()).as_bytes()).await;
        match tokio::time::timeout(limit, self.child.wait()).await {
            Ok(_) => Some(start.elapsed()),
            Err(_) => {
                let _ = self.child.kill().await;
                None
            }
        }
    }

    /// Sends `quit`, waits up to `limit` for the exit, then kills. The
    /// process is reaped in every case.
    pub async fn quit(mut self, limit: Duration) {
        self.logged(Direction::ToEngine, &command::quit());
        let _ = self.stdin.write_all(format!("{}\n", command::quit()).as_bytes()).await;
        if tokio::time::timeout(limit, self.child.wait()).await.is_err() {
            let _ = self.child.kill().await;
        }
    }

    /// Kills the process at once and reaps it.
    pub async fn kill(mut self) {
        let _ = self.child.kill().await;
    }
}

fn merge(into: &mut Info, new: Info) {
    into.depth = new.depth.or(into.depth);
    into.seldepth = new.seldepth.or(into.seldepth);
    into.time_ms = new.time_ms.or(into.time_ms);
    into.nodes = new.nodes.or(into.nodes);
    into.nps = new.nps.or(into.nps);
    into.score = new.score.or(into.score);
    if !new.pv.is_empty() {
        into.pv = new.pv;
    }
}

/// Engines that start at once in this process: two per CPU. Starting reads
/// an engine's program and its data (an evaluation network can be tens of
/// megabytes) and answers `uci` and `isready` within [`Timeouts`]; at 256
/// slots, 512 engines starting together on two CPUs would each get a
/// five-hundredth of one and miss those deadlines, where taking turns costs
/// the run's start a few seconds.
fn start_gate() -> &'static tokio::sync::Semaphore {
    static GATE: std::sync::OnceLock<tokio::sync::Semaphore> = std::sync::OnceLock::new();
    GATE.get_or_init(|| tokio::sync::Semaphore::new(2 * crate::engine_io::affinity::cpu_count()))
}

/// Reads the engine's stderr to its end, appending it to `log` (if any)
/// and keeping its last bytes: the tail, and the task doing it.
///
/// The log is opened when the engine first writes to stderr, and written
/// with plain file calls: an append of at most 4 KiB to a file in the page
/// cache takes microseconds, where `tokio::fs` would hand each call to a
/// blocking thread, and each slot's runtime would keep one such thread (a
/// stack and an allocator heap) alive per slot for every engine started.
fn drain_stderr(mut stderr: tokio::process::ChildStderr, log: Option<&Path>) -> (StderrTail, JoinHandle<()>) {
    let mut log = log.map(Path::to_path_buf);
    let tail = StderrTail::default();
    let kept = Arc::clone(&tail);
    let task = tokio::spawn(async move {
        let mut file: Option<std::fs::File> = None;
        let mut buffer = [0u8; 4096];
        while let Ok(n @ 1..) = stderr.read(&mut buffer).await {
            if let Some(path) = log.take() {
                file = std::fs::OpenOptions::new().create(true).append(true).open(path).ok();
            }
            if let Some(file) = &mut file {
                let _ = std::io::Write::write_all(file, &buffer[..n]);
            }
            let mut tail = kept.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            tail.extend_from_slice(&buffer[..n]);
            let excess = tail.len().saturating_sub(TAIL_BYTES);
            tail.drain(..excess);
        }
    });
    (tail, task)
}

/// The last non-empty line of `tail`, cut to 200 characters.
fn last_line(tail: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(tail);
    text.lines().map(str::trim).rfind(|line| !line.is_empty()).map(cut)
}

/// `line` cut to 200 characters, an ellipsis marking a cut.
fn cut(line: &str) -> String {
    let mut cut: String = line.chars().take(200).collect();
    if cut.len() < line.len() {
        cut.push('…');
    }
    cut
}

/// Whether `line` is an xboard engine's refusal of `uci`: the protocol's
/// `Error (unknown command): uci`, or `Illegal move: uci` from an engine
/// that took it for a move (Chess Engine Communication Protocol, section 8,
/// "Commands from the engine to xboard").
fn rejects_uci(line: &str) -> bool {
    let line = line.trim();
    (line.starts_with("Error") || line.starts_with("Illegal move")) && line.ends_with(": uci")
}

#[cfg(test)]
mod deadline_tests {
    use super::*;

    #[test]
    fn an_engine_is_given_time_until_it_has_run_its_limit_or_idled_five() {
        let s = Duration::from_secs;
        let ms = Duration::from_millis;
        let spent = |busiest: Duration, waited: Duration| Some(Spent { busiest, waited });
        let limit = Deadline::Available(s(60));
        // Clocks, and systems that do not say: the limit is wall time.
        assert_eq!(Deadline::Wall(s(60)).more_time(s(60), spent(ms(10), ms(0))), None);
        assert_eq!(limit.more_time(s(60), None), None);
        // Searched its minute: stalled (a loop that never answers).
        assert_eq!(limit.more_time(s(60), spent(s(60), ms(0))), None);
        // Frozen for all but 10 ms of the minute (a paused machine): the minute again, less those.
        assert_eq!(limit.more_time(s(60), spent(ms(10), ms(0))), Some(s(60) - ms(10)));
        // Nearly done: looked at again in 100 ms, not at once.
        assert_eq!(limit.more_time(s(75), spent(s(60) - ms(1), ms(0))), Some(ms(100)));
        // Idle for five minutes (a deadlock): stalled, ...
        assert_eq!(limit.more_time(s(300), spent(ms(10), ms(0))), None);
        // ... time waiting for a processor not counted as idle.
        assert_eq!(limit.more_time(s(350), spent(ms(0), s(100))), Some(s(50)));
    }
}

#[cfg(test)]
mod handshake_tests {
    use super::*;

    #[test]
    fn an_xboard_engines_refusal_of_uci_is_told_from_other_lines() {
        for refusal in ["Error (unknown command): uci", "Illegal move: uci", "  Error (unknown command): uci\r"] {
            assert!(rejects_uci(refusal), "{refusal}");
        }
        for other in ["Error (unknown command): ucinewgame", "info string uci", "tellics say Fairy-Max 5.0b", ""] {
            assert!(!rejects_uci(other), "{other}");
        }
        assert_eq!(cut(&"x".repeat(300)).chars().count(), 201);
    }
}
