//! What a run is started with, stored as JSON with it and read back once
//! into [`Spec`]: the engines, and per kind of run the games (openings, time
//! control, pairings, adjudication, SPRT) or the test suite (positions,
//! limits).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::games_kind::GamesKind;
use crate::invalid::Invalid;
use crate::run::{RunInfo, RunKind};
use crate::sprt::Test;
use crate::time_control::TimeControl;

/// Hidden subcommand that makes the `arena` binary speak UCI as the bundled engine.
pub const BUNDLED_SUBCOMMAND: &str = "engine-uci";

/// The engine a scaling run's copy `A@BUDGET` stands for (`A`), as named on
/// the command line and in `engines.toml`; any other name as it is.
pub fn base_name(name: &str) -> &str {
    name.rsplit_once('@').map_or(name, |(base, _)| base)
}

/// A scaling run's engines as its views name them: each copy `A@BUDGET` as
/// its A, once (`[A, B]`).
pub fn base_names<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut bases: Vec<&str> = Vec::new();
    for name in names {
        let base = base_name(name);
        if !bases.contains(&base) {
            bases.push(base);
        }
    }
    bases
}

/// How to start one engine and configure it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSpec {
    /// Name on the command line and in reports.
    pub name: String,
    /// Program to run (ignored when `preset` is set).
    #[serde(default)]
    pub command: String,
    /// Program arguments.
    #[serde(default)]
    pub args: Vec<String>,
    /// Working directory.
    #[serde(default)]
    pub dir: Option<PathBuf>,
    /// The bundled engine with this pruning preset.
    #[serde(default)]
    pub preset: Option<String>,
    /// UCI options set after the handshake, in order.
    #[serde(default)]
    pub options: Vec<(String, String)>,
    /// The engine's own time control (time odds), overriding the run's.
    #[serde(default)]
    pub tc: Option<TimeControl>,
    /// Ponder (`go ponder` on the expected reply while the opponent
    /// thinks), if the engine declares `Ponder`. Stored only when set, so
    /// the specs of runs without pondering read as they always did.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ponder: bool,
    /// Built from a source revision: the repository, the commit the run
    /// means forever, and the build command (stored only when set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<Source>,
    /// The expected bench signature (nodes of the engine's `bench`), checked
    /// before the engine's first game on a machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bench: Option<BenchSignature>,
    /// Arguments that make the program run its bench (default `bench`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bench_args: Vec<String>,
}

/// Where a source engine comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The repository as the creating machine named it: a path or a URL.
    pub repo: String,
    /// The revision asked for (branch, tag or commit), for reports.
    pub rev: String,
    /// The full commit id `rev` meant when the run was created; empty in an
    /// engine not yet resolved.
    #[serde(default)]
    pub commit: String,
    /// Run in the checkout by `sh -c`; `{exe}` is where the binary must end up.
    pub build: String,
}

/// A repository's short name: the last part of its path or URL without `.git`.
pub fn repo_name(repo: &str) -> &str {
    let trimmed = repo.trim_end_matches('/');
    let last = trimmed.rsplit(['/', ':']).next().unwrap_or(trimmed);
    last.strip_suffix(".git").unwrap_or(last)
}

/// The default build command of a source engine (as OpenBench's `make EXE=`).
pub const DEFAULT_BUILD: &str = "make -j EXE={exe}";

impl Source {
    /// The repository's short name: the last part of its path or URL
    /// without `.git`, which a worker's `--repo NAME=…` may use.
    pub fn repo_name(&self) -> &str {
        repo_name(&self.repo)
    }

    /// The commit's first 8 hex digits, as reports show it.
    pub fn short_commit(&self) -> &str {
        self.commit.get(..8).unwrap_or(&self.commit)
    }
}

/// An engine's bench signature: a node count, or `auto` (taken from the
/// first build when the run is created, then stored as the count).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum BenchSignature {
    /// The node count the bench must print.
    Nodes(u64),
    /// Not known yet: measured when the run is created.
    Auto(AutoWord),
}

/// The word `auto` of [`BenchSignature::Auto`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AutoWord {
    /// `auto`.
    Auto,
}

impl BenchSignature {
    /// The node count, once known.
    pub fn nodes(self) -> Option<u64> {
        match self {
            BenchSignature::Nodes(nodes) => Some(nodes),
            BenchSignature::Auto(_) => None,
        }
    }
}

impl std::str::FromStr for BenchSignature {
    type Err = Invalid;

    fn from_str(text: &str) -> Result<BenchSignature, Invalid> {
        match text.trim() {
            "auto" => Ok(BenchSignature::Auto(AutoWord::Auto)),
            number => number.parse().map(BenchSignature::Nodes).map_err(|_| {
                Invalid::new("bench", format!("bench signature '{text}' is neither a node count nor 'auto'"))
            }),
        }
    }
}

/// Program, arguments and directory of a spawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Launch {
    /// Program.
    pub program: PathBuf,
    /// Arguments.
    pub args: Vec<String>,
    /// Working directory.
    pub dir: Option<PathBuf>,
}

impl EngineSpec {
    /// The bundled engine with a preset (or `+` combination).
    pub fn bundled(preset: &str) -> EngineSpec {
        EngineSpec { name: preset.to_string(), preset: Some(preset.to_string()), ..EngineSpec::default() }
    }

    /// What runs, for reports: `bundled engine, preset P` or the command
    /// line (the options it sets are reported beside it, once).
    pub fn describe(&self) -> String {
        match &self.preset {
            Some(preset) => format!("bundled engine, preset {preset}"),
            None if self.source.is_some() => {
                let source = self.source.as_ref().expect("checked");
                format!("{} at {} ({}), built by: {}", source.repo, source.short_commit(), source.rev, source.build)
            }
            // An imported run's engines played elsewhere (`arena import`).
            None if self.command.is_empty() => "played elsewhere (imported games)".to_string(),
            None => std::iter::once(self.command.as_str())
                .chain(self.args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" "),
        }
    }

    /// How to start it; `arena_exe` is the `arena` binary that can run the
    /// bundled engine through [`BUNDLED_SUBCOMMAND`].
    pub fn launch(&self, arena_exe: &Path) -> Launch {
        match &self.preset {
            Some(preset) => Launch {
                program: arena_exe.to_path_buf(),
                args: vec![BUNDLED_SUBCOMMAND.to_string(), "--pruning".to_string(), preset.clone()],
                dir: self.dir.clone(),
            },
            None => Launch { program: PathBuf::from(&self.command), args: self.args.clone(), dir: self.dir.clone() },
        }
    }
}

/// Parameters of the draw rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    /// First full move at which the rule applies.
    pub move_number: u32,
    /// Consecutive moves per side within the window.
    pub move_count: u32,
    /// Window half-width in centipawns.
    pub score: i64,
}

/// Parameters of the resign rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    /// Consecutive moves of the losing side.
    pub move_count: u32,
    /// Threshold in centipawns.
    pub score: i64,
    /// Require the winner to agree.
    pub two_sided: bool,
}

/// All adjudication settings of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    /// Draw rule.
    pub draw: Option<DrawRule>,
    /// Resign rule.
    pub resign: Option<ResignRule>,
    /// Maximum full moves.
    pub max_moves: Option<u32>,
    /// Lead needed to win at the maximum, in centipawns.
    pub max_moves_score: i64,
}

/// Which tablebase results end a game (`--tb-adjudicate`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TbResults {
    /// Wins only (a drawn position is played on).
    Win,
    /// Draws only.
    Draw,
    /// Wins and draws.
    #[default]
    Both,
}

/// Syzygy adjudication (`--tb`): a game ends as soon as its position is in
/// the tables with a certain result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TablebaseRule {
    /// Folders holding `.rtbw`/`.rtbz` files, absolute.
    pub paths: Vec<String>,
    /// Positions with at most this many pieces (kings included) are probed.
    pub pieces: u32,
    /// Which results end a game.
    pub results: TbResults,
    /// A cursed win or blessed loss counts as decisive (off: a draw, as the
    /// 50-move rule makes it).
    pub ignore_50: bool,
}

fn yes() -> bool {
    true
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's signature
fn is_true(value: &bool) -> bool {
    *value
}

/// The rules a run's games are played under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Standard chess.
    #[default]
    Standard,
    /// Chess960 castling (king takes rook in UCI, `UCI_Chess960` set on the
    /// engines): a run whose openings include a Fischer random position. A
    /// standard position is the same game under these rules.
    Chess960,
}

impl Variant {
    /// Whether it is standard chess.
    pub fn is_standard(&self) -> bool {
        *self == Variant::Standard
    }

    /// The PGN `Variant` tag's value.
    pub fn pgn(self) -> &'static str {
        match self {
            Variant::Standard => "Standard",
            Variant::Chess960 => "Chess960",
        }
    }
}

/// Everything needed to play (and resume) a run of games: `elo`, `match`,
/// `tournament`, `sprt` or `tune`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GamesSpec {
    /// Which of the game-playing kinds, with what only that kind has
    /// (stored flat: `kind`, `sprt`, `tune`, `budgets`, `imported`).
    #[serde(flatten)]
    pub kind: GamesKind,
    /// The engines, fully resolved.
    pub engines: Vec<EngineSpec>,
    /// Who plays whom: indices into `engines`; the first is A.
    pub pairings: Vec<(usize, usize)>,
    /// The run's time control (an engine's own `tc` overrides it); `None`:
    /// unknown, for games played elsewhere (`arena import`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tc: Option<TimeControl>,
    /// Opening set: a built-in name or a file path.
    pub openings: String,
    /// Shuffle seed; `None` for file order.
    pub seed: Option<u64>,
    /// Index of the first opening.
    pub start: usize,
    /// Cut openings to this many plies.
    pub max_plies: Option<usize>,
    /// Openings per pairing (book size by default).
    pub openings_per_round: usize,
    /// Passes through the openings.
    pub rounds: usize,
    /// Games played at once; `None`: unknown (imported games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<usize>,
    /// Adjudication rules; `None`: unknown (imported games).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adjudication: Option<Adjudication>,
    /// Check that the PV behind each mate score backs it: on unless
    /// `--no-check-mate-pvs` (also for runs stored before the check existed:
    /// it only adds warnings, never changes a game).
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub check_mate_pvs: bool,
    /// Syzygy adjudication, if asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<TablebaseRule>,
    /// Standard, or Chess960 when any planned opening needs it.
    #[serde(default, skip_serializing_if = "Variant::is_standard")]
    pub variant: Variant,
    /// How machines are made equal and watched: clocks scaled to each
    /// machine's speed, machines set aside, and whether their games count.
    #[serde(default, skip_serializing_if = "MachineRule::is_default")]
    pub machines: MachineRule,
}

/// How a run treats the machines that play it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MachineRule {
    /// A machine is set aside when its faults, or its residual, are this
    /// unlikely (Bonferroni-corrected p below it; 0: never). See
    /// `reports::stats::machines`.
    pub set_aside_p: f64,
    /// Count the games of machines set aside (by default they are left out).
    pub count_set_aside: bool,
    /// Clocks scaled to each machine: the reference speed in nodes per
    /// second of the run's first engine's bench; each machine plays the time
    /// control × reference / measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_nps: Option<u64>,
    /// With clock scaling, a machine measured slower than this is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_nps: Option<u64>,
}

/// The default of [`MachineRule::set_aside_p`].
pub const SET_ASIDE_P: f64 = 1e-4;

impl Default for MachineRule {
    fn default() -> MachineRule {
        MachineRule { set_aside_p: SET_ASIDE_P, count_set_aside: false, scale_nps: None, min_nps: None }
    }
}

impl MachineRule {
    fn is_default(&self) -> bool {
        *self == MachineRule::default()
    }

    /// The slowest speed a machine may have: `min_nps`, else a quarter of the reference.
    pub fn floor_nps(&self) -> Option<u64> {
        self.min_nps.or(self.scale_nps.map(|reference| reference / 4))
    }
}

impl GamesSpec {
    /// The names of each pairing's engines (A, B).
    pub fn pairing_names(&self) -> Vec<(String, String)> {
        self.pairings.iter().map(|&(a, b)| (self.engines[a].name.clone(), self.engines[b].name.clone())).collect()
    }

    /// A family of SPRTs (`arena sprt --base M --dev A --dev B`): an SPRT
    /// of several pairings, each candidate (A) against the one base (B);
    /// its test and how many candidates.
    pub fn family(&self) -> Option<(Test, usize)> {
        match &self.kind {
            GamesKind::Sprt(test) if self.pairings.len() > 1 => Some((*test, self.pairings.len())),
            _ => None,
        }
    }

    /// The time control of engine `index`: its own, else the run's;
    /// `None` when unknown (imported games).
    pub fn time_control(&self, index: usize) -> Option<&TimeControl> {
        self.engines[index].tc.as_ref().or(self.tc.as_ref())
    }

    /// The games were played elsewhere and imported: what arena played
    /// them with is unknown.
    pub fn is_imported(&self) -> bool {
        matches!(self.kind, GamesKind::Import(_))
    }

    /// What this run plays with, for playing it here: its time controls,
    /// concurrency and adjudication, all known for a run arena plays.
    ///
    /// # Errors
    ///
    /// [`NotPlayable`] for imported games, whose settings are unknown.
    pub fn playable(&self) -> Result<Playable<'_>, NotPlayable> {
        let unknown = || NotPlayable { imported: self.is_imported() };
        let time_controls =
            (0..self.engines.len()).map(|i| self.time_control(i).ok_or_else(unknown)).collect::<Result<Vec<_>, _>>()?;
        Ok(Playable {
            time_controls,
            concurrency: self.concurrency.ok_or_else(unknown)?,
            adjudication: self.adjudication.ok_or_else(unknown)?,
        })
    }
}

/// What a run of games is played with here (see [`GamesSpec::playable`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Playable<'a> {
    /// Each engine's time control, in the order of the run's engines.
    pub time_controls: Vec<&'a TimeControl>,
    /// Games played at once.
    pub concurrency: usize,
    /// Adjudication rules.
    pub adjudication: Adjudication,
}

/// A run of games whose settings are unknown cannot be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotPlayable {
    /// The run holds imported games.
    pub imported: bool,
}

impl std::fmt::Display for NotPlayable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.imported {
            true => "it holds imported games, played elsewhere: there is nothing to play",
            false => "its time control, concurrency or adjudication is not stored",
        })
    }
}

impl std::error::Error for NotPlayable {}

/// One search limit of a suite run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SuiteLimit {
    /// `go depth N`.
    Depth(u32),
    /// `go nodes N`.
    Nodes(u64),
    /// `go movetime MS`.
    MoveTime(u64),
}

impl SuiteLimit {
    /// As shown in tables: `depth 8`, `nodes 5400`, `movetime 100`.
    pub fn label(&self) -> String {
        match self {
            SuiteLimit::Depth(d) => format!("depth {d}"),
            SuiteLimit::Nodes(n) => format!("nodes {n}"),
            SuiteLimit::MoveTime(ms) => format!("movetime {ms}"),
        }
    }
}

/// Default stall timeout of a suite search, seconds.
pub const DEFAULT_STALL_S: u64 = 120;

fn default_stall_s() -> u64 {
    DEFAULT_STALL_S
}

/// Everything needed to run (and resume) a suite experiment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SuiteSpec {
    /// The engines, fully resolved.
    pub engines: Vec<EngineSpec>,
    /// Built-in suite name or file path.
    pub suite: String,
    /// Only the first this many positions (all when `None`).
    pub count: Option<usize>,
    /// Positions the run answers (the suite's, cut to `count`), fixed when it starts.
    pub positions: usize,
    /// The limits, in order.
    pub limits: Vec<SuiteLimit>,
    /// Positions searched at once (one engine process per worker and engine).
    pub concurrency: usize,
    /// Seconds without `bestmove` under a depth or node limit before the answer counts as stalled.
    #[serde(default = "default_stall_s")]
    pub stall_s: u64,
}

impl SuiteSpec {
    /// Answers the run stores when complete: engines × limits × positions.
    pub fn answers_planned(&self) -> usize {
        self.engines.len() * self.limits.len() * self.positions
    }
}

/// A stored spec, read once, by kind of run.
#[derive(Clone, Debug, PartialEq)]
#[expect(clippy::large_enum_variant, reason = "read once per run and then borrowed; boxing buys nothing")]
pub enum Spec {
    /// Games in pairs: `elo`, `match`, `tournament`, `sprt`, `tune`.
    Games(GamesSpec),
    /// Test positions: `suite`.
    Suite(SuiteSpec),
}

/// A stored spec this version cannot read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    /// The run.
    pub run: i64,
    /// What serde said.
    pub cause: String,
}

impl std::fmt::Display for SpecError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "run {} has a spec this version cannot read: {} (use the arena version that started it)",
            self.run, self.cause
        )
    }
}

impl std::error::Error for SpecError {}

impl Spec {
    /// Reads the spec of a stored run, by its kind.
    ///
    /// # Errors
    ///
    /// [`SpecError`] when the JSON does not fit the kind.
    pub fn of(run: &RunInfo) -> Result<Spec, SpecError> {
        Spec::parse(run.id, run.kind, &run.spec)
    }

    /// Reads the JSON stored with run `run` of kind `kind`.
    ///
    /// # Errors
    ///
    /// [`SpecError`] when the JSON does not fit the kind.
    pub fn parse(run: i64, kind: RunKind, json: &str) -> Result<Spec, SpecError> {
        let error = |e: serde_json::Error| SpecError { run, cause: e.to_string() };
        if kind.plays_games() {
            let mut spec: GamesSpec = serde_json::from_str(json).map_err(error)?;
            if spec.is_imported() {
                // Imports stored before these were known to be unknown kept
                // placeholders (an infinite clock, concurrency 1, default adjudication).
                (spec.tc, spec.concurrency, spec.adjudication) = (None, None, None);
            }
            Ok(Spec::Games(spec))
        } else {
            Ok(Spec::Suite(serde_json::from_str(json).map_err(error)?))
        }
    }

    /// The kind of run.
    pub fn kind(&self) -> RunKind {
        match self {
            Spec::Games(spec) => spec.kind.run_kind(),
            Spec::Suite(_) => RunKind::Suite,
        }
    }

    /// The engines.
    pub fn engines(&self) -> &[EngineSpec] {
        match self {
            Spec::Games(spec) => &spec.engines,
            Spec::Suite(spec) => &spec.engines,
        }
    }

    /// The engines, to point them at this machine's programs.
    pub fn engines_mut(&mut self) -> &mut [EngineSpec] {
        match self {
            Spec::Games(spec) => &mut spec.engines,
            Spec::Suite(spec) => &mut spec.engines,
        }
    }

    /// Units of work played at once in the creating process; `None` when
    /// unknown (imported games).
    pub fn concurrency(&self) -> Option<usize> {
        match self {
            Spec::Games(spec) => spec.concurrency,
            Spec::Suite(spec) => Some(spec.concurrency),
        }
    }

    /// Changes the concurrency (at least 1), as `arena resume --concurrency` does.
    pub fn set_concurrency(&mut self, concurrency: usize) {
        let concurrency = concurrency.max(1);
        match self {
            Spec::Games(spec) => spec.concurrency = Some(concurrency),
            Spec::Suite(spec) => spec.concurrency = concurrency,
        }
    }

    /// The JSON stored with the run.
    pub fn to_json(&self) -> String {
        let json = match self {
            Spec::Games(spec) => serde_json::to_string(spec),
            Spec::Suite(spec) => serde_json::to_string(spec),
        };
        json.unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_import_stored_with_placeholders_reads_as_unknown_and_cannot_be_played() {
        let old = r#"{"kind":"import","imported":[],"engines":[{"name":"a","command":""},{"name":"b","command":""}],
            "pairings":[[0,1]],"tc":"inf","openings":"x.pgn","seed":null,"start":0,"max_plies":null,
            "openings_per_round":1,"rounds":1,"concurrency":1,
            "adjudication":{"draw":null,"resign":null,"max_moves":null,"max_moves_score":0}}"#;
        let Spec::Games(spec) = Spec::parse(1, RunKind::Import, old).unwrap() else { panic!("games") };
        assert_eq!((spec.tc.as_ref(), spec.concurrency, spec.adjudication), (None, None, None));
        assert_eq!(spec.time_control(0), None);
        assert_eq!(spec.playable(), Err(NotPlayable { imported: true }));
        let json: serde_json::Value = serde_json::from_str(&Spec::Games(spec).to_json()).unwrap();
        for unknown in ["tc", "concurrency", "adjudication"] {
            assert!(json.get(unknown).is_none(), "{unknown}: {json}");
        }
        // A played run's settings are all known.
        let played = old.replace(r#""kind":"import","imported":[],"#, r#""kind":"match","#);
        let Spec::Games(spec) = Spec::parse(2, RunKind::Match, &played).unwrap() else { panic!("games") };
        let playable = spec.playable().unwrap();
        assert_eq!((playable.concurrency, playable.time_controls.len()), (1, 2));
    }

    #[test]
    fn a_description_names_what_runs_and_leaves_the_options_to_the_report() {
        let mut engine = EngineSpec::bundled("nmp2");
        assert_eq!(engine.describe(), "bundled engine, preset nmp2");
        engine.options = vec![("CheckExtensionLeafOnly".into(), "true".into()), ("Hash".into(), "64".into())];
        assert_eq!(engine.describe(), "bundled engine, preset nmp2");
        let external = EngineSpec {
            name: "sf".into(),
            command: "/usr/games/stockfish".into(),
            args: vec!["--x".into()],
            options: vec![("Threads".into(), "1".into())],
            ..EngineSpec::default()
        };
        assert_eq!(external.describe(), "/usr/games/stockfish --x");
    }
}
