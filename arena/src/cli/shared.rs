//! What the commands share below them: the error and output helpers
//! (`CliResult`, `out!`, `outln!`), the flags several commands flatten
//! (`--db`, `--engines-file`, `--quiet`, `--concurrency`, the slot flags,
//! the SPRT's), and the parsers of engine names and `--db`.

pub use crate::run::record::RecordError;
use crate::run::record::{PgnStyle, Records};
use anyhow::anyhow;
use clap::Args;
use model::{Model, Test};

/// A command's failure: the typed error of the layer that failed, with the
/// context the command adds, its causes kept; printed once, by `main`, as
/// one line ([`one_line`]).
pub type CliError = anyhow::Error;

/// Result of a subcommand.
pub type CliResult<T = ()> = anyhow::Result<T>;

/// Standard output was closed by its reader (`arena show 1 | head -1`): the
/// command ends quietly with status 0, as `cat` does.
#[derive(Debug, thiserror::Error)]
#[error("standard output was closed")]
pub struct ClosedPipe;

/// A failure as the one line `arena` prints: the error, then each cause
/// that its text does not already say.
pub fn one_line(error: &CliError) -> String {
    crate::util::one_line(error.as_ref())
}

/// Writes to standard output like `print!`, but a reader that went away
/// (`arena show 1 | head -1`) ends the command quietly with status 0, as it
/// ends `cat`, instead of a panic; any other write error is one line.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::shared::write_out(format_args!($($arg)*))?
    };
}
pub(crate) use out;

/// [`out!`] with a newline, like `println!`.
macro_rules! outln {
    () => {
        $crate::cli::shared::write_out(format_args!("\n"))?
    };
    ($($arg:tt)*) => {
        $crate::cli::shared::write_out(format_args!("{}\n", format_args!($($arg)*)))?
    };
}
pub(crate) use outln;

/// What [`out!`] calls.
///
/// # Errors
///
/// [`CliError`] when standard output fails for another reason than a closed pipe.
pub fn write_out(text: std::fmt::Arguments<'_>) -> CliResult {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout.write_fmt(text).and_then(|()| stdout.flush()).map_err(|e| write_error(e, "standard output"))
}

/// A record's error as the command ends with it: [`ClosedPipe`] when the
/// reader of standard output went away (`arena pgn 1 | head`), which ends
/// the command quietly.
pub(crate) fn record_error(error: RecordError) -> CliError {
    match error {
        RecordError::Write { source, .. } if source.kind() == std::io::ErrorKind::BrokenPipe => ClosedPipe.into(),
        error => error.into(),
    }
}

/// The error of a failed write to `what`: [`ClosedPipe`] when the reader
/// went away, which ends the command quietly.
pub(crate) fn write_error(error: std::io::Error, what: &str) -> CliError {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        return ClosedPipe.into();
    }
    anyhow::Error::new(error).context(format!("cannot write to {what}"))
}

/// Default database file.
pub const DEFAULT_DB: &str = "arena.db";

/// `engine-uci --pruning`: a preset or `+`-joined presets the engine knows,
/// checked when clap parses it (the engine is given the name).
pub(crate) fn pruning_preset(name: &str) -> Result<String, engine::search::pruning::UnknownPreset> {
    engine::search::PruningConfig::preset(name).map(|_| name.to_string())
}

/// `--engines-file`, shared by every command that names engines.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Engines")]
pub struct EnginesFileArg {
    /// engines.toml with more engines (default: ./engines.toml if present).
    #[arg(long)]
    pub(crate) engines_file: Option<std::path::PathBuf>,
}

impl EnginesFileArg {
    /// The engines the file names, with the bundled presets.
    ///
    /// # Errors
    ///
    /// The file cannot be read or is not a list of engines.
    pub(crate) fn load(&self) -> CliResult<crate::engine_io::engines::Registry> {
        Ok(crate::engine_io::engines::Registry::load(self.engines_file.as_deref())?)
    }
}

/// `--quiet`, shared by every command that shows progress.
#[derive(Args, Debug, Clone, Copy, Default)]
#[command(next_help_heading = "Output")]
pub struct QuietArg {
    /// No progress line (errors and warnings still print).
    #[arg(long)]
    pub(crate) quiet: bool,
}

/// `--concurrency`, for the commands that play on this machine without
/// [`crate::cli::settings::Settings`] (its help and type are the settings').
#[derive(Args, Debug, Clone, Copy, Default, serde::Serialize)]
#[command(next_help_heading = "This machine")]
pub struct ConcurrencyArg {
    /// Games at once on this machine (its help: [`crate::cli::settings::CONCURRENCY_HELP`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(long, value_name = "N", help = crate::cli::settings::CONCURRENCY_HELP, long_help = crate::cli::settings::CONCURRENCY_HELP, allow_hyphen_values = true)]
    pub(crate) concurrency: Option<crate::run::concurrency::Concurrency>,
}

impl ConcurrencyArg {
    /// The games at once on this machine, one CPU each: the value given,
    /// else two.
    ///
    /// # Errors
    ///
    /// A `-N` that leaves no CPU.
    pub(crate) fn or_default(self) -> Result<usize, model::Invalid> {
        self.concurrency.map_or(Ok(crate::run::concurrency::DEFAULT_CONCURRENCY), |c| c.on_this_machine(1))
    }
}

/// `--db`, shared by every command that opens the database.
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Storage")]
pub struct DbArg {
    /// Database: a SQLite file, or postgres://user@host:port/database (password from PGPASSWORD or ~/.pgpass).
    #[arg(long = "db", default_value = DEFAULT_DB, value_parser = DbParser)]
    pub target: db::Target,
}

impl Default for DbArg {
    /// [`DEFAULT_DB`], as the flag's default.
    fn default() -> DbArg {
        DbArg { target: db::Target::Sqlite(DEFAULT_DB.into()) }
    }
}

/// How this machine plays games: core pinning and engine I/O logs, shared
/// by every command that plays games here.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "This machine")]
pub struct SlotArgs {
    /// Pin each game slot (its engines and the thread that plays them) to CPUs of its own: every CPU this process may use, or a list such as 0-3,6 or 0-63,128-191 (--cpus is the same flag); `none` leaves every engine to the operating system. Without the flag, slots are pinned when --concurrency is 2 or more and each slot can have a CPU of its own.
    #[arg(hide_short_help = true, long, visible_alias = "cpus", num_args = 0..=1, default_missing_value = "", value_name = "CPUS|none")]
    pub(crate) affinity: Option<String>,
    /// Keep no engine I/O logs (by default every game's lines to and from its engines go to arena-logs/, see arena log).
    #[arg(hide_short_help = true, long)]
    pub(crate) no_io_log: bool,
}

impl SlotArgs {
    /// The pinning `--affinity` asks for, the list read (it is checked
    /// against the slots when they are set up: [`crate::run::life::Machine::here`]).
    ///
    /// # Errors
    ///
    /// [`CliError`] for a list that cannot be read.
    pub(crate) fn pinning(&self) -> CliResult<crate::run::life::Pinning> {
        use crate::run::life::Pinning;
        Ok(match self.affinity.as_deref().map(str::trim) {
            None => Pinning::Auto,
            Some("none") => Pinning::Off,
            Some(text) => Pinning::Cpus(crate::engine_io::affinity::Affinity::parse(text)?),
        })
    }
}

/// SPRT parameters shared by `stats`, `sprt-calc` and `sprt`.
#[derive(Args, Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(default)]
#[command(next_help_heading = "SPRT")]
pub struct SprtParams {
    /// Elo under H0 [default: 0; arena stats: a test only when --elo1 is given].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(long, allow_hyphen_values = true)]
    pub(super) elo0: Option<f64>,
    /// Elo under H1 [default: 5; arena stats: a test only when given].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[arg(long, allow_hyphen_values = true)]
    pub(super) elo1: Option<f64>,
    /// False-positive rate.
    #[arg(long, default_value_t = SprtParams::RATE)]
    pub(super) alpha: f64,
    /// False-negative rate.
    #[arg(long, default_value_t = SprtParams::RATE)]
    pub(super) beta: f64,
    /// normalized, logistic or bayesian (BayesElo, the draw Elo from the games).
    #[serde(with = "crate::cli::settings::as_text")]
    #[arg(long, default_value_t)]
    pub(super) model: Model,
}

impl Default for SprtParams {
    /// The flags left out.
    fn default() -> SprtParams {
        SprtParams { elo0: None, elo1: None, alpha: Self::RATE, beta: Self::RATE, model: Model::default() }
    }
}

impl SprtParams {
    /// `--alpha` and `--beta` left out.
    pub(super) const RATE: f64 = 0.05;

    /// The flags of a stored test.
    pub(super) fn of(test: &Test) -> SprtParams {
        SprtParams {
            elo0: Some(test.elo0()),
            elo1: Some(test.elo1()),
            alpha: test.alpha(),
            beta: test.beta(),
            model: test.model(),
        }
    }

    /// The test with elo0 = 0 and elo1 = 5 where not given.
    ///
    /// # Errors
    ///
    /// [`CliError`] for a bad model or bounds.
    pub(super) fn test_or_default(&self) -> CliResult<Test> {
        let given =
            SprtParams { elo0: Some(self.elo0.unwrap_or(0.0)), elo1: Some(self.elo1.unwrap_or(5.0)), ..self.clone() };
        given.test().map(|test| test.expect("both bounds are set"))
    }

    pub(super) fn test(&self) -> CliResult<Option<Test>> {
        let model = self.model;
        match (self.elo0, self.elo1) {
            (None, None) => Ok(None),
            (Some(elo0), Some(elo1)) => {
                let test = Test::new(elo0, elo1, self.alpha, self.beta, model).map_err(|e| anyhow!("bad SPRT: {e}"))?;
                Ok(Some(test))
            }
            _ => Err(anyhow!("give both --elo0 and --elo1")),
        }
    }
}

pub(crate) use crate::cli::settings::{at_least, whole_pairs};

/// An engine's name as clap reads it: any text (a preset, an `engines.toml`
/// name, a program), with the bundled presets offered to shell completion
/// (`arena elo --a <TAB>`) and not listed in the help.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EngineName;

impl clap::builder::TypedValueParser for EngineName {
    type Value = String;

    fn parse_ref(
        &self,
        command: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(command, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = clap::builder::PossibleValue> + '_>> {
        Some(Box::new(engine::search::pruning::PRESETS.iter().map(|p| clap::builder::PossibleValue::new(*p))))
    }
}

/// Parses `--db` without echoing the value in its error: a URL may carry a
/// password, and clap's own message would repeat it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct DbParser;

impl clap::builder::TypedValueParser for DbParser {
    type Value = db::Target;

    fn parse_ref(
        &self,
        command: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<db::Target, clap::Error> {
        let invalid =
            |message: String| clap::Error::raw(clap::error::ErrorKind::InvalidValue, message).with_cmd(command);
        let text = value.to_str().ok_or_else(|| invalid("--db is not valid UTF-8\n".into()))?;
        text.parse().map_err(|e: db::BadTarget| invalid(format!("{e}\n")))
    }
}

/// What the PGN of a run's games holds besides the moves: shared by every
/// command that writes PGN (`--pgn` of the commands that play, `arena pgn`).
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Records")]
pub struct PgnFlags {
    /// Move comments: min (moves only), normal (score/depth time, as cutechess), full (also seldepth, nodes, nps, clock left and PV).
    #[arg(hide_short_help = true, long, value_enum, default_value_t = PgnLevel::Normal)]
    pub(crate) pgn_level: PgnLevel,
    /// The PGN's Event tag (default: "arena run N (kind)").
    #[arg(hide_short_help = true, long)]
    pub(crate) event: Option<String>,
    /// The PGN's Site tag (default: the name of the machine that created the run).
    #[arg(hide_short_help = true, long)]
    pub(crate) site: Option<String>,
    /// Adds to each engine move's comment the last line of the engine's output during that search matching REGEX, as line="…" (from the game's I/O log; repeat for more patterns).
    #[arg(hide_short_help = true, long, value_name = "REGEX", value_parser = read_pattern)]
    pub(crate) pgn_match_line: Vec<regex::Regex>,
}

impl PgnFlags {
    /// The style these flags ask for.
    pub(crate) fn style(&self) -> PgnStyle {
        let level = match self.pgn_level {
            PgnLevel::Min => reports::pgn::Level::Min,
            PgnLevel::Normal => reports::pgn::Level::Normal,
            PgnLevel::Full => reports::pgn::Level::Full,
        };
        PgnStyle::new(level, self.event.clone(), self.site.clone(), self.pgn_match_line.clone())
    }
}

/// A `--pgn-match-line` pattern.
pub(crate) fn read_pattern(text: &str) -> Result<regex::Regex, model::Invalid> {
    regex::Regex::new(text).map_err(|e| {
        let why = e.to_string().lines().last().unwrap_or_default().trim().to_string();
        model::Invalid::new(
            "pgn-match-line",
            format!("not a regular expression ({why}); write it in Rust's regex syntax, e.g. 'info depth \\d+'"),
        )
    })
}

/// `--pgn-level`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum PgnLevel {
    /// Moves only.
    Min,
    /// Score/depth and time after each engine move, and how the game ended.
    #[default]
    Normal,
    /// Also seldepth, nodes, nps, clock left and PV.
    Full,
}

/// Where a run's games are written when it ends here: `--pgn`, `--epdout`
/// and the PGN's style.
#[derive(Args, Debug, Clone, Default)]
#[command(next_help_heading = "Records")]
pub struct RecordArgs {
    /// Also write the games as PGN to this file.
    #[arg(long, value_name = "FILE")]
    pub(crate) pgn: Option<std::path::PathBuf>,
    /// Also write each game's final position to this EPD file.
    #[arg(hide_short_help = true, long, value_name = "FILE")]
    pub(crate) epdout: Option<std::path::PathBuf>,
    /// How the PGN's games are written.
    #[command(flatten)]
    pub(crate) style: PgnFlags,
}

impl RecordArgs {
    /// The records these flags ask for.
    pub(crate) fn records(&self) -> Records {
        Records::new(self.pgn.clone(), self.epdout.clone(), self.style.style())
    }
}
