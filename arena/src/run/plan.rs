//! What a stored spec of games means here: each engine's time control, the
//! plan of pairs (for each opening of each round, each pairing; each pair an
//! opening played twice with colours swapped), and a scaling run's budgets
//! and the pairs of budgets added to it.

use model::{Budgets, EngineSpec, GamesKind, GamesSpec, Invalid, PairPlan, TimeControl, Variant};
use openings::{Book, Selection};

/// The pairs to play, in order: for each opening of each round, each pairing.
pub fn plan(spec: &GamesSpec, book: &Book) -> Vec<PairPlan> {
    let selection = Selection { random_seed: spec.seed, start: spec.start, max_plies: spec.max_plies };
    let count = spec.openings_per_round * spec.rounds;
    let openings = book.select(&selection, count);
    let mut plan = Vec::with_capacity(count * spec.pairings.len());
    for (opening_index, opening) in openings.iter().enumerate() {
        for &(a, b) in &spec.pairings {
            plan.push(PairPlan {
                index: plan.len() as i64,
                engine_a: spec.engines[a].name.clone(),
                engine_b: spec.engines[b].name.clone(),
                opening_index: opening_index as i64,
                opening_name: opening.name.clone(),
                fen: opening.fen.clone(),
                opening_moves: opening.moves.clone(),
                opening_san: opening.san.clone(),
            });
        }
    }
    plan
}

pub use crate::engine_io::uci::CHESS960_OPTION;

/// Makes `spec` a Chess960 run when any planned opening needs Chess960
/// castling (each position decided by its castling rights): every game of
/// the run is then played with Chess960 castling, and every engine gets
/// `UCI_Chess960 true` among its options (replacing a value it had), so a
/// worker on another machine sets it too, and an engine that does not declare
/// it is refused before the run starts.
pub fn apply_variant(spec: &mut GamesSpec, plan: &[PairPlan]) {
    let mut checked = std::collections::HashSet::new();
    let chess960 = plan.iter().any(|pair| checked.insert(&pair.fen) && openings::is_chess960(&pair.fen));
    if !chess960 {
        return;
    }
    spec.variant = Variant::Chess960;
    for engine in &mut spec.engines {
        engine.options.retain(|(name, _)| !name.eq_ignore_ascii_case(CHESS960_OPTION));
        engine.options.push((CHESS960_OPTION.to_string(), "true".to_string()));
    }
}

/// Whether an engine of the run plays on a clock (a wall-clock time
/// control or time per move), where its speed, and so the machine, decides.
pub fn on_a_clock(spec: &GamesSpec) -> bool {
    (0..spec.engines.len()).any(|i| spec.time_control(i).is_some_and(|tc| !tc.is_deterministic()))
}

/// Whether stored run `spec` may hold replayed openings: every engine under
/// a deterministic limit, and more openings planned per pairing than its
/// book holds (only runs planned before [`cap_replays`]; a book that cannot
/// be opened any more is taken as large enough).
pub fn may_replay(spec: &GamesSpec) -> bool {
    !matches!(spec.kind, GamesKind::Tune(_) | GamesKind::Import(_))
        && !on_a_clock(spec)
        && book_len(&spec.openings).is_some_and(|len| spec.openings_per_round * spec.rounds > len)
}

/// The number of openings of book `name`, read once per process: every
/// view of every run asks (the runs' list, the dashboard's refreshes), and
/// reading a book parses it whole.
fn book_len(name: &str) -> Option<usize> {
    static LENGTHS: std::sync::LazyLock<std::sync::Mutex<std::collections::HashMap<String, Option<usize>>>> =
        std::sync::LazyLock::new(Default::default);
    let mut lengths = crate::util::lock(&LENGTHS);
    *lengths.entry(name.to_string()).or_insert_with(|| Book::open(name).ok().map(|book| book.len()))
}

/// Under a deterministic limit (every engine's), caps the openings each pairing plays at the
/// book's size and says by how much: a replayed opening replays the same games, which
/// would count as independent evidence they are not. Capped rather than
/// refused: the capped run is the most the book can tell (an SPRT's game
/// count is its cap anyway), and the note names what plays more. `None`
/// when nothing was capped (a tuning run's θ± differ from one iteration to
/// the next, and so do its games).
pub fn cap_replays(spec: &mut GamesSpec, book: &Book) -> Option<Capped> {
    let planned = spec.openings_per_round * spec.rounds;
    if matches!(spec.kind, GamesKind::Tune(_)) || on_a_clock(spec) || planned <= book.len() || book.is_empty() {
        return None;
    }
    spec.openings_per_round = spec.openings_per_round.min(book.len());
    spec.rounds = (book.len() / spec.openings_per_round).clamp(1, spec.rounds);
    Some(Capped {
        sprt: matches!(spec.kind, GamesKind::Sprt(_)),
        games: 2 * spec.openings_per_round * spec.rounds,
        planned: 2 * planned,
        limits: limits(spec),
        book: book.len(),
        larger: openings::larger_builtin(book, planned).map(|(name, len)| (name.to_string(), len, len >= planned)),
    })
}

/// The engines' limits, each once, in the engines' order.
fn limits(spec: &GamesSpec) -> String {
    let mut limits: Vec<String> = Vec::new();
    for limit in (0..spec.engines.len()).filter_map(|i| spec.time_control(i)).map(ToString::to_string) {
        if !limits.contains(&limit) {
            limits.push(limit);
        }
    }
    limits.join(", ")
}

/// What [`cap_replays`] capped, for each front end to say with its own flags.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capped {
    /// An SPRT, whose game count is its cap: most stop long before it.
    sprt: bool,
    /// Games per pairing now, and as planned.
    games: usize,
    planned: usize,
    /// The engines' deterministic limits, each once (`nodes=300`, or
    /// `nodes=300, depth=6` when the engines' own limits differ).
    limits: String,
    /// Openings in the book played.
    book: usize,
    /// A larger built-in book: its name, its openings, whether they suffice.
    larger: Option<(String, usize, bool)>,
}

impl Capped {
    /// The note, naming a book as `book_flag` gives it (`--openings NAME`
    /// for arena's own flags, `-openings file=NAME` for a tool's).
    pub fn note(&self, book_flag: impl Fn(&str) -> String) -> String {
        let larger = match &self.larger {
            Some((name, len, true)) => format!("a larger book ({}: {len} openings)", book_flag(name)),
            Some((name, len, false)) => {
                format!("a larger book ({}: {len} openings, or a file of your own)", book_flag(name))
            }
            None => format!("a larger book of your own ({})", book_flag("FILE")),
        };
        format!(
            "note: {}{} games per pairing, not {}: under a deterministic limit ({}) a book of {} openings gives {} pairs \
             of independent games, and a replayed opening would replay the same games; for more, use {larger} or a \
             wall-clock time control",
            if self.sprt { "up to " } else { "" },
            self.games,
            self.planned,
            self.limits,
            self.book,
            self.book,
        )
    }
}

/// A and B as they play at `budget`: copies named `A@BUDGET` under it.
pub fn at_budget(base: &[EngineSpec], budget: &TimeControl) -> Vec<EngineSpec> {
    base.iter()
        .map(|engine| {
            let mut copy = engine.clone();
            copy.name = format!("{}@{budget}", engine.name);
            copy.tc = Some(budget.clone());
            copy
        })
        .collect()
}

/// The engines of a run's first pairing, A then B (`None` for a damaged spec).
pub fn first_pairing(spec: &GamesSpec) -> Option<[&EngineSpec; 2]> {
    spec.pairings.first().and_then(|&(a, b)| Some([spec.engines.get(a)?, spec.engines.get(b)?]))
}

/// Scaling run `spec` with `added` budgets: its spec with a pairing of A
/// and B copied at each new budget, and the pairs those play, one per
/// opening its first pairing played (`openings`, in order), numbered from
/// `first_index`.
///
/// # Errors
///
/// Budgets of another kind than the run's, given twice, or not larger
/// than every budget before them; a spec with no pairing to copy.
pub fn add_budgets(
    mut spec: GamesSpec,
    added: &Budgets,
    openings: &[PairPlan],
    first_index: i64,
) -> Result<(GamesSpec, Vec<PairPlan>), Invalid> {
    let had = spec.kind.budgets();
    let budgets = Budgets(had.iter().chain(&added.0).cloned().collect());
    budgets.check_axis().and_then(|()| budgets.check_growing(had.len()))?;
    let [a, b] = first_pairing(&spec)
        .ok_or_else(|| Invalid::new("budgets", "the run has no pairing to copy; its spec is damaged"))?;
    // The base engines, as `arena scale` was given them: a copy's name less its `@BUDGET`.
    let base: Vec<EngineSpec> =
        [a, b].map(|engine| EngineSpec { name: model::base_name(&engine.name).to_string(), ..engine.clone() }).into();
    let first_new = spec.pairings.len();
    for budget in &added.0 {
        let next = spec.engines.len();
        spec.engines.extend(at_budget(&base, budget));
        spec.pairings.push((next, next + 1));
    }
    spec.kind = GamesKind::Scale(budgets);
    let mut pairs = Vec::with_capacity(openings.len() * added.0.len());
    for opening in openings {
        for &(a, b) in &spec.pairings[first_new..] {
            let index = first_index + pairs.len() as i64;
            let (engine_a, engine_b) = (spec.engines[a].name.clone(), spec.engines[b].name.clone());
            pairs.push(PairPlan { index, engine_a, engine_b, ..opening.clone() });
        }
    }
    Ok((spec, pairs))
}
