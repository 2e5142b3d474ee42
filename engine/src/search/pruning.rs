//! The forward-pruning methods of the papers, as presets and parameters.
//!
//! Every parameter lives here, once, with the paper's value as its default,
//! and every parameter is a UCI option (see [`PruningConfig::OPTIONS`]).

use std::fmt;

/// Standard, adaptive and verified null-move pruning; the variable bound
/// reuses the same null-move search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NullMove {
    /// Whether null-move searches are made at all.
    pub enabled: bool,
    /// Depth reduction R: the null-move search goes to depth − R − 1.
    pub reduction: i32,
    /// Heinz's adaptive null move: R = 3 above [`Self::adaptive_depth`], else 2.
    pub adaptive: bool,
    /// Remaining depth above which adaptive null move uses R = 3 (Heinz: 6).
    pub adaptive_depth: i32,
    /// Verified null-move pruning (Tabibi & Netanyahu, Fig. 3).
    pub verify: bool,
    /// Zugzwang guard: no null move when the side to move has only king and
    /// pawns. Off in the papers' standard null move.
    pub guard: bool,
}

/// Fail-High Reductions (Feldmann, Fig. 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailHighReductions {
    /// Whether fail-high nodes are searched one ply less.
    pub enabled: bool,
    /// Δ of item 1: reduce when e(v) − t(v) ≥ β − Δ. The paper's best: 0.
    pub margin: i32,
    /// Fig. 2's frontier rule: a fail-high node at depth 1, reduced to
    /// δ = 0, generates no successors and returns its static value. Off,
    /// the node's children go to quiescence as without FHR (UCI
    /// `FHRFrontier false`: the engine before issue #77).
    pub frontier: bool,
}

/// Multi-cut αβ-pruning (Björnsson & Marsland, Fig. 4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiCut {
    /// Whether multi-cut is tried at expected CUT nodes.
    pub enabled: bool,
    /// M: how many moves are searched to reduced depth (paper: 10).
    pub moves: usize,
    /// C: how many of them must fail high to prune (paper: 3).
    pub cuts: usize,
    /// R: the reduced searches go to depth − 1 − R (paper: 2).
    pub reduction: i32,
    /// Endgame rule: no multi-cut when the material phase (knight, bishop 1,
    /// rook 2, queen 4; 24 at the start) is at or below this.
    pub endgame_phase: i32,
    /// No multi-cut when a search extension was applied within this many of
    /// the previous plies (paper: 3).
    pub extension_plies: usize,
}

/// Variable null-move bound (Björnsson & Marsland, Fig. 5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariableBound {
    /// Whether the null-move cutoff is tested against β − t.
    pub enabled: bool,
    /// t when some potentially good alternatives are unexplored (paper: 10).
    pub t_some: i32,
    /// t when more than [`Self::many`] are unexplored (paper: 20).
    pub t_many: i32,
    /// How many alternatives count as many (paper: 15).
    pub many: i32,
    /// Section 6.2's test of a "potentially good alternative": a positive
    /// value in a history that only credits moves that cause a cutoff
    /// (Schaeffer's history heuristic), kept beside the ordering history
    /// and cleared at the start of every search. Off, the test reads the
    /// ordering history, whose penalties and gravity leave few quiet moves
    /// positive (UCI `VarNullBoundCredit false`: the engine before issue #77).
    pub credit_history: bool,
}

/// Search conditions where this engine differs from the verified null-move
/// paper's test engine (Tabibi & Netanyahu, Section 4: "one-ply check
/// extensions on leaf nodes; the quiescence search consisted only of
/// captures/recaptures"; Fig. 1 tries the null move at every node, PV
/// nodes included). Off by default; the preset part `paper` turns all three
/// on (`nmp2+paper`), so the papers' conditions and ours can be compared.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchConditions {
    /// Try the null move at PV nodes too.
    pub null_at_pv: bool,
    /// Extend checks only at the last ply before the horizon (depth 1).
    pub check_extension_leaf_only: bool,
    /// Quiescence: every capture at its first ply, then only recaptures on
    /// the square of the previous capture (and queen promotions nowhere).
    pub quiescence_recaptures: bool,
    /// Not a paper's condition, an experiment (issue #20): quiet moves
    /// ordered without killers (UCI `OrderingKillers false`).
    pub no_killers: bool,
    /// The same for the history heuristic (UCI `OrderingHistory false`).
    pub no_history: bool,
}

/// The techniques strong engines added after the papers, each a switch with
/// its parameters (the `modern` preset turns them on; the papers' presets
/// keep them off, so their searches are unchanged). Each names where it is
/// described; the values are this engine's, on its evaluation's scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Modern {
    /// Late-move reductions (Chess Programming Wiki, "Late Move
    /// Reductions"; the logarithmic table of Ethereal's `search.c`,
    /// 0.75 + ln(depth)·ln(move number)/2.25): quiet moves after the first
    /// few are searched `LMRTable` plies less, one ply less for killers,
    /// moves that give check and moves with good history, and searched
    /// again at full depth when they beat α.
    pub lmr: bool,
    /// The table's constant term, hundredths of a ply (75).
    pub lmr_base: i32,
    /// The table's divisor, hundredths (225).
    pub lmr_divisor: i32,
    /// Late-move pruning (CPW, "Futility Pruning", move-count based
    /// pruning): at a non-PV node of depth ≤ `lmp_depth`, quiet moves past
    /// the 3 + depth² first are not searched.
    pub lmp: bool,
    /// The deepest node late-move pruning applies to (8).
    pub lmp_depth: i32,
    /// Futility pruning (Heinz 1998, "Extended Futility Pruning"; CPW,
    /// "Futility Pruning"): at a non-PV node of depth ≤ `futility_depth`
    /// whose static value + margin·depth cannot reach α, quiet moves that
    /// give no check are not searched.
    pub futility: bool,
    /// Centipawns per ply of depth (100).
    pub futility_margin: i32,
    /// The deepest node futility pruning applies to (6).
    pub futility_depth: i32,
    /// Reverse futility pruning, or static null move (CPW, "Reverse
    /// Futility Pruning"): a non-PV node of depth ≤ `rfp_depth` whose
    /// static value − margin·depth is at or above β returns the static value.
    pub rfp: bool,
    /// Centipawns per ply of depth (80).
    pub rfp_margin: i32,
    /// The deepest node reverse futility pruning applies to (7).
    pub rfp_depth: i32,
    /// Razoring (Birmingham & Kent 1977, as CPW's "Razoring" describes its
    /// modern form): a non-PV node of depth ≤ `razor_depth` whose static
    /// value + margin·depth is below α is decided by a quiescence search
    /// when that search confirms it fails low.
    pub razoring: bool,
    /// Centipawns per ply of depth (250).
    pub razor_margin: i32,
    /// The deepest node razoring applies to (2).
    pub razor_depth: i32,
    /// Aspiration windows (CPW, "Aspiration Windows"): from depth
    /// `aspiration_depth` on, the root is searched in a window of
    /// ± `aspiration_window` around the last iteration's score, widened
    /// (doubled) on the side that fails.
    pub aspiration: bool,
    /// The first window's half width, centipawns (20).
    pub aspiration_window: i32,
    /// The first iteration that uses a window (5).
    pub aspiration_depth: i32,
    /// SEE pruning of quiet moves (CPW, "Static Exchange Evaluation",
    /// pruning; Ethereal's `SEEQuietMargin`): at a non-PV node of depth ≤
    /// `see_depth`, a quiet move whose static exchange loses more than
    /// margin·depth centipawns is not searched.
    pub see_quiets: bool,
    /// Centipawns per ply of depth (60).
    pub see_margin: i32,
    /// The deepest node SEE pruning applies to (8).
    pub see_depth: i32,
}

impl Default for Modern {
    fn default() -> Self {
        Self {
            lmr: false,
            lmr_base: 75,
            lmr_divisor: 225,
            lmp: false,
            lmp_depth: 8,
            futility: false,
            futility_margin: 100,
            futility_depth: 6,
            rfp: false,
            rfp_margin: 80,
            rfp_depth: 7,
            razoring: false,
            razor_margin: 250,
            razor_depth: 2,
            aspiration: false,
            aspiration_window: 20,
            aspiration_depth: 5,
            see_quiets: false,
            see_margin: 60,
            see_depth: 8,
        }
    }
}

impl Modern {
    /// The techniques `modern` plays with: each that an SPRT against
    /// `modern` without it accepted (BENCHMARKS.md). Razoring did not pass
    /// (H0 in 676 games, −2.4 [−23.3, +19.3] Elo) and stays a switch, off.
    fn accepted() -> Self {
        Self {
            lmr: true,
            lmp: true,
            futility: true,
            rfp: true,
            razoring: false,
            aspiration: true,
            see_quiets: true,
            ..Self::default()
        }
    }

    /// Whether a technique that reads the static evaluation is on.
    pub fn needs_evaluation(&self) -> bool {
        self.futility || self.rfp || self.razoring
    }
}

/// A UCI value a pruning parameter does not take.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadOptionValue {
    /// The parameter's UCI name.
    pub name: &'static str,
    /// A spin's range; `None` for a check box.
    pub range: Option<(i32, i32)>,
}

impl std::fmt::Display for BadOptionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.range {
            Some((lo, hi)) => write!(f, "{} must be {lo}..{hi}", self.name),
            None => write!(f, "{} must be true or false", self.name),
        }
    }
}

impl std::error::Error for BadOptionValue {}

/// The complete forward-pruning configuration of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PruningConfig {
    /// Null-move pruning.
    pub null_move: NullMove,
    /// Fail-High Reductions.
    pub fhr: FailHighReductions,
    /// Multi-cut.
    pub multi_cut: MultiCut,
    /// Variable null-move bound.
    pub variable_bound: VariableBound,
    /// Where the search differs from the papers' (see [`SearchConditions`]).
    pub conditions: SearchConditions,
    /// The techniques after the papers (see [`Modern`]).
    pub modern: Modern,
}

/// The preset names, in the order the README lists them.
pub const PRESETS: [&str; 15] = [
    "plain",
    "nmp1",
    "nmp2",
    "nmp3",
    "nmp-adaptive",
    "vnm",
    "fhr",
    "multicut",
    "vnb",
    "modern",
    "modern+nonull",
    "modern+fhr",
    "modern+vnm",
    "modern+multicut",
    "modern+vnb",
];

/// The papers' presets: searches of the papers' era, whose bench signatures
/// are pinned (the `modern` techniques stay off in them).
pub const PAPER_PRESETS: [&str; 9] = ["plain", "nmp1", "nmp2", "nmp3", "nmp-adaptive", "vnm", "fhr", "multicut", "vnb"];

/// A preset name that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownPreset(pub String);

impl fmt::Display for UnknownPreset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown pruning preset '{}'; known: {} (combine with '+', e.g. nmp2+multicut; add +paper for the verified null-move paper's search conditions)",
            self.0,
            PRESETS.join(", ")
        )
    }
}

impl std::error::Error for UnknownPreset {}

/// A UCI spin or check option mapped onto one parameter.
pub struct OptionSpec {
    /// The UCI option name.
    pub name: &'static str,
    /// Minimum and maximum for a spin; `None` for a check box.
    pub range: Option<(i32, i32)>,
    /// Reads the parameter from a config.
    pub get: fn(&PruningConfig) -> i32,
    /// Writes the parameter into a config.
    pub set: fn(&mut PruningConfig, i32),
}

impl Default for PruningConfig {
    fn default() -> Self {
        Self {
            null_move: NullMove {
                enabled: false,
                reduction: 2,
                adaptive: false,
                adaptive_depth: 6,
                verify: false,
                guard: false,
            },
            fhr: FailHighReductions { enabled: false, margin: 0, frontier: true },
            multi_cut: MultiCut {
                enabled: false,
                moves: 10,
                cuts: 3,
                reduction: 2,
                endgame_phase: 6,
                extension_plies: 3,
            },
            variable_bound: VariableBound { enabled: false, t_some: 10, t_many: 20, many: 15, credit_history: true },
            conditions: SearchConditions::default(),
            modern: Modern::default(),
        }
    }
}

fn flag(value: i32) -> bool {
    value != 0
}

impl PruningConfig {
    /// The configuration of a preset or a `+`-joined combination of presets
    /// (`nmp2+multicut`, `fhr+nmp2`). Later parts override earlier ones where
    /// they set the same parameter.
    ///
    /// # Errors
    ///
    /// [`UnknownPreset`] naming the first part that is not a preset.
    pub fn preset(name: &str) -> Result<Self, UnknownPreset> {
        let mut config = Self::default();
        for part in name.split('+').map(str::trim) {
            config.apply_preset(part)?;
        }
        Ok(config)
    }

    fn apply_preset(&mut self, part: &str) -> Result<(), UnknownPreset> {
        let null_with = |config: &mut Self, r: i32| {
            config.null_move.enabled = true;
            config.null_move.reduction = r;
        };
        match part.to_ascii_lowercase().as_str() {
            "plain" => {}
            "nmp1" => null_with(self, 1),
            "nmp2" => null_with(self, 2),
            "nmp3" => null_with(self, 3),
            "nmp-adaptive" => {
                null_with(self, 2);
                self.null_move.adaptive = true;
            }
            "vnm" => {
                null_with(self, 3);
                self.null_move.adaptive = false;
                self.null_move.verify = true;
            }
            "fhr" => self.fhr.enabled = true,
            // Today's search: the techniques of `Modern` that passed, over adaptive
            // null move (R = 3 above depth 6, else 2), as strong engines
            // combine them.
            "modern" => {
                self.modern = Modern::accepted();
                null_with(self, 2);
                self.null_move.adaptive = true;
            }
            // No null move: the baseline a null-move feature replaces
            // (`modern+nonull`).
            "nonull" => self.null_move.enabled = false,
            // The Turk ran multi-cut on top of null move with R = 2.
            "multicut" => {
                if !self.null_move.enabled {
                    null_with(self, 2);
                }
                self.multi_cut.enabled = true;
            }
            "vnb" => {
                if !self.null_move.enabled {
                    null_with(self, 2);
                }
                self.variable_bound.enabled = true;
            }
            // Not a pruning method: the verified null-move paper's search conditions.
            "paper" => {
                self.conditions = SearchConditions {
                    null_at_pv: true,
                    check_extension_leaf_only: true,
                    quiescence_recaptures: true,
                    ..self.conditions
                };
            }
            _ => return Err(UnknownPreset(part.to_string())),
        }
        Ok(())
    }

    /// Every pruning parameter as a UCI option.
    pub const OPTIONS: &'static [OptionSpec] = &[
        OptionSpec {
            name: "NullMove",
            range: None,
            get: |c| c.null_move.enabled.into(),
            set: |c, v| c.null_move.enabled = flag(v),
        },
        OptionSpec {
            name: "NullMoveR",
            range: Some((1, 6)),
            get: |c| c.null_move.reduction,
            set: |c, v| c.null_move.reduction = v,
        },
        OptionSpec {
            name: "NullMoveAdaptive",
            range: None,
            get: |c| c.null_move.adaptive.into(),
            set: |c, v| c.null_move.adaptive = flag(v),
        },
        OptionSpec {
            name: "NullMoveAdaptiveDepth",
            range: Some((1, 30)),
            get: |c| c.null_move.adaptive_depth,
            set: |c, v| c.null_move.adaptive_depth = v,
        },
        OptionSpec {
            name: "NullMoveVerify",
            range: None,
            get: |c| c.null_move.verify.into(),
            set: |c, v| c.null_move.verify = flag(v),
        },
        OptionSpec {
            name: "NullMoveGuard",
            range: None,
            get: |c| c.null_move.guard.into(),
            set: |c, v| c.null_move.guard = flag(v),
        },
        OptionSpec { name: "FHR", range: None, get: |c| c.fhr.enabled.into(), set: |c, v| c.fhr.enabled = flag(v) },
        OptionSpec { name: "FHRMargin", range: Some((0, 1000)), get: |c| c.fhr.margin, set: |c, v| c.fhr.margin = v },
        OptionSpec {
            name: "FHRFrontier",
            range: None,
            get: |c| c.fhr.frontier.into(),
            set: |c, v| c.fhr.frontier = flag(v),
        },
        OptionSpec {
            name: "MultiCut",
            range: None,
            get: |c| c.multi_cut.enabled.into(),
            set: |c, v| c.multi_cut.enabled = flag(v),
        },
        OptionSpec {
            name: "MultiCutM",
            range: Some((1, 64)),
            get: |c| c.multi_cut.moves as i32,
            set: |c, v| c.multi_cut.moves = v as usize,
        },
        OptionSpec {
            name: "MultiCutC",
            range: Some((1, 64)),
            get: |c| c.multi_cut.cuts as i32,
            set: |c, v| c.multi_cut.cuts = v as usize,
        },
        OptionSpec {
            name: "MultiCutR",
            range: Some((0, 6)),
            get: |c| c.multi_cut.reduction,
            set: |c, v| c.multi_cut.reduction = v,
        },
        OptionSpec {
            name: "MultiCutEndgamePhase",
            range: Some((-1, 24)),
            get: |c| c.multi_cut.endgame_phase,
            set: |c, v| c.multi_cut.endgame_phase = v,
        },
        OptionSpec {
            name: "MultiCutExtensionPlies",
            range: Some((0, 8)),
            get: |c| c.multi_cut.extension_plies as i32,
            set: |c, v| c.multi_cut.extension_plies = v as usize,
        },
        OptionSpec {
            name: "VarNullBound",
            range: None,
            get: |c| c.variable_bound.enabled.into(),
            set: |c, v| c.variable_bound.enabled = flag(v),
        },
        OptionSpec {
            name: "VarNullBoundTSome",
            range: Some((0, 200)),
            get: |c| c.variable_bound.t_some,
            set: |c, v| c.variable_bound.t_some = v,
        },
        OptionSpec {
            name: "VarNullBoundTMany",
            range: Some((0, 200)),
            get: |c| c.variable_bound.t_many,
            set: |c, v| c.variable_bound.t_many = v,
        },
        OptionSpec {
            name: "VarNullBoundMany",
            range: Some((0, 200)),
            get: |c| c.variable_bound.many,
            set: |c, v| c.variable_bound.many = v,
        },
        OptionSpec {
            name: "VarNullBoundCredit",
            range: None,
            get: |c| c.variable_bound.credit_history.into(),
            set: |c, v| c.variable_bound.credit_history = flag(v),
        },
        OptionSpec {
            name: "NullMovePV",
            range: None,
            get: |c| c.conditions.null_at_pv.into(),
            set: |c, v| c.conditions.null_at_pv = flag(v),
        },
        OptionSpec {
            name: "CheckExtensionLeafOnly",
            range: None,
            get: |c| c.conditions.check_extension_leaf_only.into(),
            set: |c, v| c.conditions.check_extension_leaf_only = flag(v),
        },
        OptionSpec {
            name: "QuiescenceRecaptures",
            range: None,
            get: |c| c.conditions.quiescence_recaptures.into(),
            set: |c, v| c.conditions.quiescence_recaptures = flag(v),
        },
        OptionSpec {
            name: "OrderingKillers",
            range: None,
            get: |c| (!c.conditions.no_killers).into(),
            set: |c, v| c.conditions.no_killers = !flag(v),
        },
        OptionSpec {
            name: "OrderingHistory",
            range: None,
            get: |c| (!c.conditions.no_history).into(),
            set: |c, v| c.conditions.no_history = !flag(v),
        },
        OptionSpec { name: "LMR", range: None, get: |c| c.modern.lmr.into(), set: |c, v| c.modern.lmr = flag(v) },
        OptionSpec {
            name: "LMRBase",
            range: Some((0, 300)),
            get: |c| c.modern.lmr_base,
            set: |c, v| c.modern.lmr_base = v,
        },
        OptionSpec {
            name: "LMRDivisor",
            range: Some((50, 1000)),
            get: |c| c.modern.lmr_divisor,
            set: |c, v| c.modern.lmr_divisor = v,
        },
        OptionSpec { name: "LMP", range: None, get: |c| c.modern.lmp.into(), set: |c, v| c.modern.lmp = flag(v) },
        OptionSpec {
            name: "LMPDepth",
            range: Some((1, 16)),
            get: |c| c.modern.lmp_depth,
            set: |c, v| c.modern.lmp_depth = v,
        },
        OptionSpec {
            name: "Futility",
            range: None,
            get: |c| c.modern.futility.into(),
            set: |c, v| c.modern.futility = flag(v),
        },
        OptionSpec {
            name: "FutilityMargin",
            range: Some((0, 1000)),
            get: |c| c.modern.futility_margin,
            set: |c, v| c.modern.futility_margin = v,
        },
        OptionSpec {
            name: "FutilityDepth",
            range: Some((1, 16)),
            get: |c| c.modern.futility_depth,
            set: |c, v| c.modern.futility_depth = v,
        },
        OptionSpec { name: "RFP", range: None, get: |c| c.modern.rfp.into(), set: |c, v| c.modern.rfp = flag(v) },
        OptionSpec {
            name: "RFPMargin",
            range: Some((0, 1000)),
            get: |c| c.modern.rfp_margin,
            set: |c, v| c.modern.rfp_margin = v,
        },
        OptionSpec {
            name: "RFPDepth",
            range: Some((1, 16)),
            get: |c| c.modern.rfp_depth,
            set: |c, v| c.modern.rfp_depth = v,
        },
        OptionSpec {
            name: "Razoring",
            range: None,
            get: |c| c.modern.razoring.into(),
            set: |c, v| c.modern.razoring = flag(v),
        },
        OptionSpec {
            name: "RazorMargin",
            range: Some((0, 2000)),
            get: |c| c.modern.razor_margin,
            set: |c, v| c.modern.razor_margin = v,
        },
        OptionSpec {
            name: "RazorDepth",
            range: Some((1, 8)),
            get: |c| c.modern.razor_depth,
            set: |c, v| c.modern.razor_depth = v,
        },
        OptionSpec {
            name: "Aspiration",
            range: None,
            get: |c| c.modern.aspiration.into(),
            set: |c, v| c.modern.aspiration = flag(v),
        },
        OptionSpec {
            name: "AspirationWindow",
            range: Some((1, 500)),
            get: |c| c.modern.aspiration_window,
            set: |c, v| c.modern.aspiration_window = v,
        },
        OptionSpec {
            name: "AspirationDepth",
            range: Some((1, 30)),
            get: |c| c.modern.aspiration_depth,
            set: |c, v| c.modern.aspiration_depth = v,
        },
        OptionSpec {
            name: "SEEQuiets",
            range: None,
            get: |c| c.modern.see_quiets.into(),
            set: |c, v| c.modern.see_quiets = flag(v),
        },
        OptionSpec {
            name: "SEEQuietMargin",
            range: Some((0, 1000)),
            get: |c| c.modern.see_margin,
            set: |c, v| c.modern.see_margin = v,
        },
        OptionSpec {
            name: "SEEQuietDepth",
            range: Some((1, 16)),
            get: |c| c.modern.see_depth,
            set: |c, v| c.modern.see_depth = v,
        },
    ];

    /// Sets the pruning parameter called `name` (any case) from its UCI
    /// value: `true`/`false` for a check box, an integer in range for a
    /// spin. `Ok(false)` when `name` is no pruning parameter.
    ///
    /// # Errors
    ///
    /// [`BadOptionValue`] naming the expected values, when `value` is not one of them.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<bool, BadOptionValue> {
        let Some(spec) = Self::OPTIONS.iter().find(|s| s.name.eq_ignore_ascii_case(name)) else { return Ok(false) };
        let parsed = match spec.range {
            None => match value.to_ascii_lowercase().as_str() {
                "true" => Some(1),
                "false" => Some(0),
                _ => None,
            },
            Some((min, max)) => value.parse::<i32>().ok().filter(|v| (min..=max).contains(v)),
        };
        match parsed {
            Some(v) => {
                (spec.set)(self, v);
                Ok(true)
            }
            None => Err(BadOptionValue { name: spec.name, range: spec.range }),
        }
    }

    /// A short description: the enabled techniques and their parameters.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        let n = &self.null_move;
        if n.enabled {
            let r =
                if n.adaptive { format!("adaptive 2/3 above {}", n.adaptive_depth) } else { n.reduction.to_string() };
            parts.push(format!(
                "null move R={r}{}{}",
                if n.verify { " verified" } else { "" },
                if n.guard { " guarded" } else { "" }
            ));
        }
        if self.fhr.enabled {
            parts.push(format!(
                "FHR Δ={}{}",
                self.fhr.margin,
                if self.fhr.frontier { "" } else { " no frontier rule" }
            ));
        }
        let m = &self.multi_cut;
        if m.enabled {
            parts.push(format!("multi-cut M={} C={} R={}", m.moves, m.cuts, m.reduction));
        }
        let v = &self.variable_bound;
        if v.enabled {
            parts.push(format!(
                "variable bound t={}/{} above {}{}",
                v.t_some,
                v.t_many,
                v.many,
                if v.credit_history { "" } else { " on the ordering history" }
            ));
        }
        let md = &self.modern;
        let modern: Vec<&str> = [
            (md.lmr, "LMR"),
            (md.lmp, "LMP"),
            (md.futility, "futility"),
            (md.rfp, "reverse futility"),
            (md.razoring, "razoring"),
            (md.aspiration, "aspiration windows"),
            (md.see_quiets, "SEE pruning of quiets"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| *name)
        .collect();
        if !modern.is_empty() {
            parts.push(format!("modern: {}", modern.join(", ")));
        }
        let c = &self.conditions;
        let mut text = if parts.is_empty() { "no forward pruning".to_string() } else { parts.join(", ") };
        if c.null_at_pv || c.check_extension_leaf_only || c.quiescence_recaptures {
            let on: Vec<&str> = [
                (c.null_at_pv, "null move at PV nodes"),
                (c.check_extension_leaf_only, "check extension at leaves only"),
                (c.quiescence_recaptures, "captures/recaptures quiescence"),
            ]
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, name)| *name)
            .collect();
            text += &format!("; paper conditions: {}", on.join(", "));
        }
        for (off, name) in [(c.no_killers, "killers"), (c.no_history, "history")] {
            if off {
                text += &format!("; no {name} in move ordering");
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_set_the_papers_parameters() {
        assert_eq!(PruningConfig::preset("plain").unwrap(), PruningConfig::default());
        let vnm = PruningConfig::preset("vnm").unwrap();
        assert!(vnm.null_move.enabled && vnm.null_move.verify && vnm.null_move.reduction == 3);
        let mc = PruningConfig::preset("multicut").unwrap();
        assert_eq!(
            (mc.multi_cut.moves, mc.multi_cut.cuts, mc.multi_cut.reduction, mc.null_move.reduction),
            (10, 3, 2, 2)
        );
        let paper = PruningConfig::preset("nmp2+paper").unwrap();
        assert!(paper.conditions.null_at_pv && paper.conditions.check_extension_leaf_only);
        assert!(paper.conditions.quiescence_recaptures && paper.null_move.reduction == 2);
        assert!(paper.describe().ends_with("captures/recaptures quiescence"), "{}", paper.describe());
        let combo = PruningConfig::preset("nmp3+multicut").unwrap();
        assert_eq!(combo.null_move.reduction, 3);
        assert!(combo.multi_cut.enabled);
        for name in PRESETS {
            assert!(PruningConfig::preset(name).is_ok(), "{name}");
        }
        for name in PAPER_PRESETS {
            assert_eq!(PruningConfig::preset(name).unwrap().modern, Modern::default(), "{name}");
        }
        let modern = PruningConfig::preset("modern").unwrap();
        assert!(modern.modern.lmr && modern.null_move.enabled && modern.null_move.adaptive);
        assert!(!PruningConfig::preset("modern+nonull").unwrap().null_move.enabled);
        let vnm = PruningConfig::preset("modern+vnm").unwrap();
        assert!(vnm.null_move.verify && !vnm.null_move.adaptive && vnm.null_move.reduction == 3 && vnm.modern.lmr);
    }

    #[test]
    fn unknown_preset_names_the_culprit() {
        let err = PruningConfig::preset("fhr+nmp9").unwrap_err();
        assert_eq!(err.0, "nmp9");
        assert!(err.to_string().contains("known: plain"));
    }

    #[test]
    fn every_option_round_trips() {
        for spec in PruningConfig::OPTIONS {
            let mut config = PruningConfig::default();
            let value = spec.range.map_or(1, |(lo, hi)| (lo + hi) / 2 + 1).min(spec.range.map_or(1, |r| r.1));
            (spec.set)(&mut config, value);
            assert_eq!((spec.get)(&config), value, "{}", spec.name);
        }
    }
}
