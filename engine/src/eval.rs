//! Static evaluation and the threat score t(v) that Fail-High Reductions needs.
//!
//! The evaluation is tapered between middlegame and endgame by the material
//! phase and covers material, piece-square tables, mobility, pawn structure
//! (doubled, isolated, passed), rook files, the bishop pair and basic king
//! safety (pawn shield, attacks on the king zone). All terms were written for
//! this engine; the piece-square tables are formulas, not copied tables.
//!
//! While evaluating, the attack maps needed for the threat score are at hand,
//! so [`evaluate`] computes `threat` together with `score`, as the FHR paper
//! (Feldmann, §2) asks: t(v) ≥ 0 scores threats against the side to move and
//! is infinite ([`THREAT_INFINITE`]) in check or under a statically visible
//! mate threat.

use shakmaty::attacks::{bishop_attacks, king_attacks, knight_attacks, queen_attacks, rook_attacks};
use shakmaty::{Bitboard, Board, Chess, Color, Piece, Position, Role, Square};

/// Threat score used for "in check" and "mate threatened": no margin can beat it.
pub const THREAT_INFINITE: i32 = 30_000;

/// Piece values in centipawns (pawn = 100), indexed by [`role_index`]; used by
/// move ordering, static exchange and the threat score.
pub const PIECE_VALUE: [i32; 6] = [100, 320, 330, 500, 900, 20_000];

const MG_VALUE: [i32; 6] = [90, 320, 335, 470, 950, 0];
const EG_VALUE: [i32; 6] = [110, 290, 310, 520, 950, 0];
/// Phase weights: knight and bishop 1, rook 2, queen 4; 24 at the start.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 4, 0];
/// The phase of the starting position.
pub const MAX_PHASE: i32 = 24;

const MOBILITY_MG: [i32; 6] = [0, 4, 5, 2, 1, 0];
const MOBILITY_EG: [i32; 6] = [0, 4, 5, 4, 2, 0];
/// Mobility counted relative to a typical square count, so that a piece's
/// value stays close to its material value.
const MOBILITY_BASE: [i32; 6] = [0, 4, 6, 7, 13, 0];

/// Mobility terms (mg, eg) by role and count of reachable squares (a
/// queen reaches at most 27).
static MOBILITY: [[(i32, i32); 28]; 6] = build_mobility();

const fn build_mobility() -> [[(i32, i32); 28]; 6] {
    let mut table = [[(0, 0); 28]; 6];
    let mut role = 0;
    while role < 6 {
        let mut count = 0;
        while count < 28 {
            let reach = count as i32 - MOBILITY_BASE[role];
            table[role][count] = (reach * MOBILITY_MG[role], reach * MOBILITY_EG[role]);
            count += 1;
        }
        role += 1;
    }
    table
}

const PASSED_MG: [i32; 8] = [0, 5, 10, 15, 25, 45, 70, 0];
const PASSED_EG: [i32; 8] = [0, 10, 20, 35, 60, 100, 150, 0];
const DOUBLED: (i32, i32) = (10, 20);
const ISOLATED: (i32, i32) = (12, 15);
const BISHOP_PAIR: (i32, i32) = (30, 50);
const ROOK_OPEN_FILE: (i32, i32) = (20, 10);
const ROOK_SEMI_OPEN_FILE: (i32, i32) = (10, 5);
const SHIELD_PAWN: i32 = 12;
const KING_ATTACK_WEIGHT: [i32; 6] = [1, 2, 2, 3, 5, 0];
const TEMPO: i32 = 10;

/// Index 0..6 of a role: pawn, knight, bishop, rook, queen, king.
pub const fn role_index(role: Role) -> usize {
    role as usize - 1
}

/// The static evaluation of a position from the side to move's view, with the
/// threat score t(v) computed on the same attack maps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluation {
    /// Centipawns for the side to move.
    pub score: i32,
    /// t(v) ≥ 0: the value of the side to move's pieces that are attacked by
    /// lower-valued pieces or attacked and undefended; [`THREAT_INFINITE`] in
    /// check or when a mate is statically threatened.
    pub threat: i32,
}

/// Piece-square tables, white's view, `[role][square]`, middlegame and endgame.
struct Tables {
    mg: [[i32; 64]; 6],
    eg: [[i32; 64]; 6],
}

const fn abs(x: i32) -> i32 {
    if x < 0 { -x } else { x }
}

/// Square-dependent bonus of a role: centralisation for pieces, advancement
/// for pawns, shelter for the middlegame king, activity for the endgame king.
const fn square_bonus(role: usize, square: usize, endgame: bool) -> i32 {
    let file = (square % 8) as i32;
    let rank = (square / 8) as i32;
    // Manhattan distance from the centre, doubled: 2 (centre) ..= 14 (corner).
    let centre = abs(2 * file - 7) + abs(2 * rank - 7);
    let central_file = 7 - abs(2 * file - 7); // 0 (a/h) ..= 6 (d/e)
    match role {
        0 => {
            if rank == 0 || rank == 7 {
                0
            } else if endgame {
                [0, 0, 5, 10, 20, 35, 60, 0][rank as usize]
            } else {
                let centre_push = if rank >= 2 && rank <= 4 { central_file * 3 } else { 0 };
                [0, 0, 3, 6, 12, 25, 45, 0][rank as usize] + centre_push
            }
        }
        1 => (14 - centre) * if endgame { 3 } else { 4 } - 24,
        2 => (14 - centre) * 2 - 12,
        3 => {
            if endgame {
                0
            } else if rank == 6 {
                20
            } else {
                central_file
            }
        }
        4 => (14 - centre) - 8,
        _ => {
            if endgame {
                (14 - centre) * 4 - 28
            } else {
                let home = if rank == 0 { 10 } else { -15 * rank };
                let wing = if file <= 2 || file >= 6 { 15 } else { 0 };
                home + wing
            }
        }
    }
}

const fn build_tables() -> Tables {
    let mut mg = [[0; 64]; 6];
    let mut eg = [[0; 64]; 6];
    let mut role = 0;
    while role < 6 {
        let mut square = 0;
        while square < 64 {
            mg[role][square] = MG_VALUE[role] + square_bonus(role, square, false);
            eg[role][square] = EG_VALUE[role] + square_bonus(role, square, true);
            square += 1;
        }
        role += 1;
    }
    Tables { mg, eg }
}

static TABLES: Tables = build_tables();

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = FILE_A << 7;

/// Pawn-structure masks by colour (indexed `color as usize`: black 0,
/// white 1) and square.
struct Masks {
    /// The squares ahead of a pawn on its own and the adjacent files: an
    /// enemy pawn there stops it from being passed.
    passed: [[Bitboard; 64]; 2],
    /// The shield squares of a king: one and two ranks ahead, on its own and
    /// the adjacent files.
    shield: [[Bitboard; 64]; 2],
}

/// The squares of the files within one of `file`.
const fn files_around(file: usize) -> u64 {
    let own = FILE_A << file;
    let left = if file > 0 { FILE_A << (file - 1) } else { 0 };
    let right = if file < 7 { FILE_A << (file + 1) } else { 0 };
    left | own | right
}

/// The squares of ranks `from..=to` (none when `from > to`).
const fn ranks(from: i32, to: i32) -> u64 {
    let mut bits = 0;
    let mut rank = if from < 0 { 0 } else { from };
    while rank <= to && rank <= 7 {
        bits |= 0xff << (8 * rank);
        rank += 1;
    }
    bits
}

const fn build_masks() -> Masks {
    let mut passed = [[Bitboard(0); 64]; 2];
    let mut shield = [[Bitboard(0); 64]; 2];
    let mut square = 0;
    while square < 64 {
        let (file, rank) = (square % 8, (square / 8) as i32);
        let around = files_around(file);
        // White looks up the board, Black down.
        passed[1][square] = Bitboard(around & ranks(rank + 1, 7));
        passed[0][square] = Bitboard(around & ranks(0, rank - 1));
        shield[1][square] = Bitboard(around & ranks(rank + 1, rank + 2));
        shield[0][square] = Bitboard(around & ranks(rank - 2, rank - 1));
        square += 1;
    }
    Masks { passed, shield }
}

static MASKS: Masks = build_masks();

/// Squares attacked by the pawns `pawns` of `color`.
pub fn pawn_attacks_of(color: Color, pawns: Bitboard) -> Bitboard {
    pawn_attacks_towards(color, pawns, true) | pawn_attacks_towards(color, pawns, false)
}

/// Squares attacked by the pawns `pawns` of `color` towards the a-file
/// (`west`) or towards the h-file.
pub fn pawn_attacks_towards(color: Color, pawns: Bitboard, west: bool) -> Bitboard {
    let p = pawns.0;
    Bitboard(match (color, west) {
        (Color::White, true) => (p & !FILE_A) << 7,
        (Color::White, false) => (p & !FILE_H) << 9,
        (Color::Black, true) => (p & !FILE_A) >> 9,
        (Color::Black, false) => (p & !FILE_H) >> 7,
    })
}

/// Attack maps of one side, by attacking role.
#[derive(Default)]
struct Attacks {
    by_role: [Bitboard; 6],
}

impl Attacks {
    /// Squares attacked by any piece.
    fn all(&self) -> Bitboard {
        self.by_role.iter().fold(Bitboard(0), |acc, bb| acc | *bb)
    }

    /// Squares attacked by pieces of value strictly below `role`'s value.
    fn by_lower_than(&self, role: usize) -> Bitboard {
        let mut lower = Bitboard(0);
        for (r, bb) in self.by_role.iter().enumerate() {
            if PIECE_VALUE[r] < PIECE_VALUE[role] {
                lower |= *bb;
            }
        }
        lower
    }
}

/// Middlegame and endgame accumulators from white's view.
#[derive(Default)]
struct Score {
    mg: i32,
    eg: i32,
}

impl Score {
    fn add(&mut self, sign: i32, (mg, eg): (i32, i32)) {
        self.mg += sign * mg;
        self.eg += sign * eg;
    }
}

/// The material phase, 0 (pawn endgame) ..= [`MAX_PHASE`] (all pieces on).
pub fn phase(board: &Board) -> i32 {
    let mut phase = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        phase += PHASE_WEIGHT[role_index(role)] * board.by_role(role).count() as i32;
    }
    phase.min(MAX_PHASE)
}

fn relative_square(color: Color, square: Square) -> usize {
    match color {
        Color::White => square as usize,
        Color::Black => square as usize ^ 56,
    }
}

fn relative_rank(color: Color, square: Square) -> usize {
    relative_square(color, square) / 8
}

/// Evaluates `pos` for the side to move and computes its threat score.
pub fn evaluate(pos: &Chess) -> Evaluation {
    evaluate_with(pos, pawn_terms(pos.board()))
}

/// [`evaluate`], given the pawn terms of `pos` (from [`pawn_terms`] or a
/// [`PawnCache`]).
fn evaluate_with(pos: &Chess, pawns: (i32, i32)) -> Evaluation {
    let (score, attacks) = score_with(pos, pawns);
    let us = pos.turn();
    let threat = threat_score(pos, &attacks[us as usize], &attacks[(!us) as usize]);
    Evaluation { score, threat }
}

/// The score of [`evaluate_with`] and both sides' attack maps, by colour.
fn score_with(pos: &Chess, pawns: (i32, i32)) -> (i32, [Attacks; 2]) {
    let board = pos.board();
    let mut attacks = [Attacks::default(), Attacks::default()];
    let mut score = Score { mg: pawns.0, eg: pawns.1 };

    // Pieces: material, piece-square tables, mobility, rook files; attack maps.
    let [black, white] = &mut attacks;
    let (white_mg, white_eg) = side_terms(board, Color::White, white);
    let (black_mg, black_eg) = side_terms(board, Color::Black, black);
    score.mg += white_mg - black_mg;
    score.eg += white_eg - black_eg;

    // King safety.
    for color in Color::ALL {
        let sign = if color.is_white() { 1 } else { -1 };
        score.mg -= sign * king_danger(board, color, &attacks[(!color) as usize]);
    }

    let phase = phase(board);
    let white_view = (score.mg * phase + score.eg * (MAX_PHASE - phase)) / MAX_PHASE;
    let score = if pos.turn().is_white() { white_view } else { -white_view } + TEMPO;
    (score, attacks)
}

/// The piece terms of `color` as (mg, eg): material, piece-square tables,
/// mobility, rook files and the bishop pair; fills `side` with its attacks.
/// Inlined for each colour, so that its table lookups and signs are fixed.
#[inline(always)]
fn side_terms(board: &Board, color: Color, side: &mut Attacks) -> (i32, i32) {
    let occupied = board.occupied();
    let own = board.by_color(color);
    let enemy_pawn_attacks = pawn_attacks_of(!color, board.by_piece(Piece { color: !color, role: Role::Pawn }));
    let area = !own & !enemy_pawn_attacks;
    let mut terms = (0, 0);
    let sliding = |attacks: fn(Square, Bitboard) -> Bitboard| move |square| attacks(square, occupied);
    pieces(board, color, Role::Knight, area, knight_attacks, side, &mut terms);
    pieces(board, color, Role::Bishop, area, sliding(bishop_attacks), side, &mut terms);
    pieces(board, color, Role::Rook, area, sliding(rook_attacks), side, &mut terms);
    pieces(board, color, Role::Queen, area, sliding(queen_attacks), side, &mut terms);
    pieces(board, color, Role::King, area, king_attacks, side, &mut terms);
    for square in board.by_piece(Piece { color, role: Role::Rook }) {
        let file = Bitboard::from_file(square.file());
        let bonus = if (file & board.pawns()).is_empty() {
            ROOK_OPEN_FILE
        } else if (file & board.pawns() & own).is_empty() {
            ROOK_SEMI_OPEN_FILE
        } else {
            (0, 0)
        };
        terms.0 += bonus.0;
        terms.1 += bonus.1;
    }
    side.by_role[0] = pawn_attacks_of(color, board.by_piece(Piece { color, role: Role::Pawn }));
    if board.by_piece(Piece { color, role: Role::Bishop }).count() >= 2 {
        terms.0 += BISHOP_PAIR.0;
        terms.1 += BISHOP_PAIR.1;
    }
    terms
}

/// The piece-square and mobility terms (mobility: attacks into `area`) of
/// `color`'s pieces of `role`, added to `terms`; their attacks, by
/// `attacks_of`, go to `side`.
#[inline(always)]
fn pieces(
    board: &Board,
    color: Color,
    role: Role,
    area: Bitboard,
    attacks_of: impl Fn(Square) -> Bitboard,
    side: &mut Attacks,
    terms: &mut (i32, i32),
) {
    let r = role_index(role);
    let mut all = Bitboard(0);
    for square in board.by_piece(Piece { color, role }) {
        let rel = relative_square(color, square);
        let attacked = attacks_of(square);
        all |= attacked;
        let (mobility_mg, mobility_eg) =
            if role == Role::King { (0, 0) } else { MOBILITY[r][(attacked & area).count()] };
        terms.0 += TABLES.mg[r][rel] + mobility_mg;
        terms.1 += TABLES.eg[r][rel] + mobility_eg;
    }
    side.by_role[r] = all;
}

/// Evaluations by Zobrist key, one per slot, newest kept. The search meets
/// the same positions again (transpositions, re-searches, every iteration of
/// iterative deepening), and evaluation is its largest cost. A slot answers
/// only for its own full key, so the search is the same with or without it.
/// Quiescence asks for the score alone, and only Fail-High Reductions for
/// the threat too: a slot holds the threat once it has been asked for.
pub struct EvalCache {
    slots: Vec<EvalSlot>,
    pawns: PawnCache,
}

#[derive(Clone, Copy)]
struct EvalSlot {
    key: u64,
    score: i32,
    /// [`NO_THREAT_YET`] until the threat is asked for.
    threat: i32,
}

/// A threat no position has (threats are 0 or more).
const NO_THREAT_YET: i32 = -1;

/// Slots in an [`EvalCache`], 16 bytes each: 256 KiB, which stays in a
/// core's cache. On bench (nmp2) 2^14 slots took 7 % less time than none,
/// 2^16 as long as none, 2^18 more (see BENCHMARKS.md).
const EVAL_CACHE_SLOTS: usize = 1 << 14;

impl Default for EvalCache {
    fn default() -> Self {
        // Slot i starts with key i ^ 1, which maps to another slot, so no
        // probe of slot i can match it before a store.
        let empty = |i: u64| EvalSlot { key: i ^ 1, score: 0, threat: NO_THREAT_YET };
        Self { slots: (0..EVAL_CACHE_SLOTS as u64).map(empty).collect(), pawns: PawnCache::default() }
    }
}

impl EvalCache {
    /// The evaluation of `pos`, whose key is `key`: from the cache, or
    /// computed and stored.
    pub fn evaluate(&mut self, key: u64, pos: &Chess) -> Evaluation {
        let slot = &mut self.slots[key as usize & (EVAL_CACHE_SLOTS - 1)];
        if slot.key != key || slot.threat == NO_THREAT_YET {
            let Evaluation { score, threat } = evaluate_with(pos, self.pawns.terms(pos.board()));
            *slot = EvalSlot { key, score, threat };
        }
        Evaluation { score: slot.score, threat: slot.threat }
    }

    /// Starts loading `key`'s slot into the cache, for a probe soon after.
    pub fn prefetch(&self, key: u64) {
        prefetch_index::prefetch_index(&self.slots, key as usize & (EVAL_CACHE_SLOTS - 1));
    }

    /// The score of [`EvalCache::evaluate`] alone, which costs less to
    /// compute than the threat.
    pub fn score(&mut self, key: u64, pos: &Chess) -> i32 {
        let slot = &mut self.slots[key as usize & (EVAL_CACHE_SLOTS - 1)];
        if slot.key != key {
            let (score, _) = score_with(pos, self.pawns.terms(pos.board()));
            *slot = EvalSlot { key, score, threat: NO_THREAT_YET };
        }
        slot.score
    }
}

/// The terms that depend on the pawns alone, white's view, as (mg, eg):
/// their material and squares, and their structure.
pub fn pawn_terms(board: &Board) -> (i32, i32) {
    let mut score = Score::default();
    for color in Color::ALL {
        let sign = if color.is_white() { 1 } else { -1 };
        for square in board.by_piece(Piece { color, role: Role::Pawn }) {
            let rel = relative_square(color, square);
            score.add(sign, (TABLES.mg[0][rel], TABLES.eg[0][rel]));
        }
        score.add(sign, pawn_structure(board, color));
    }
    (score.mg, score.eg)
}

/// Pawn terms by the pawns' squares, one per slot, newest kept. Positions
/// of a search share their pawns far more often than their pieces: most
/// moves are not pawn moves. A slot answers only for its own pawns.
pub struct PawnCache {
    slots: Vec<PawnSlot>,
}

#[derive(Clone, Copy)]
struct PawnSlot {
    white: u64,
    black: u64,
    terms: (i32, i32),
}

/// Slots in a [`PawnCache`], 24 bytes each: 96 KiB.
const PAWN_CACHE_SLOTS: usize = 1 << 12;

impl Default for PawnCache {
    fn default() -> Self {
        // An impossible pair (a pawn of each colour on a1) never matches.
        Self { slots: vec![PawnSlot { white: 1, black: 1, terms: (0, 0) }; PAWN_CACHE_SLOTS] }
    }
}

impl PawnCache {
    /// The pawn terms of `board`: from the cache, or computed and stored.
    pub fn terms(&mut self, board: &Board) -> (i32, i32) {
        let white = board.by_piece(Piece { color: Color::White, role: Role::Pawn }).0;
        let black = board.by_piece(Piece { color: Color::Black, role: Role::Pawn }).0;
        // A multiplicative hash of both sets: their high bits pick the slot.
        let mixed = (white ^ black.rotate_left(32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let slot = &mut self.slots[(mixed >> (64 - PAWN_CACHE_SLOTS.trailing_zeros())) as usize];
        if slot.white != white || slot.black != black {
            *slot = PawnSlot { white, black, terms: pawn_terms(board) };
        }
        slot.terms
    }
}

/// Doubled, isolated and passed pawns of `color`, as (mg, eg).
fn pawn_structure(board: &Board, color: Color) -> (i32, i32) {
    let own = board.by_piece(Piece { color, role: Role::Pawn });
    let enemy = board.by_piece(Piece { color: !color, role: Role::Pawn });
    let mut per_file = [0i32; 8];
    for square in own {
        per_file[square.file() as usize] += 1;
    }
    let (mut mg, mut eg) = (0, 0);
    for (file, &count) in per_file.iter().enumerate() {
        if count > 1 {
            mg -= DOUBLED.0 * (count - 1);
            eg -= DOUBLED.1 * (count - 1);
        }
        let left = if file > 0 { per_file[file - 1] } else { 0 };
        let right = if file < 7 { per_file[file + 1] } else { 0 };
        if count > 0 && left == 0 && right == 0 {
            mg -= ISOLATED.0 * count;
            eg -= ISOLATED.1 * count;
        }
    }
    for square in own {
        // Passed: no enemy pawn ahead on its file or the files beside it.
        if (enemy & MASKS.passed[color as usize][square as usize]).is_empty() {
            let rank = relative_rank(color, square);
            mg += PASSED_MG[rank];
            eg += PASSED_EG[rank];
        }
    }
    (mg, eg)
}

/// Middlegame penalty for `color`'s king: missing shield pawns and enemy
/// attacks on the squares around the king.
fn king_danger(board: &Board, color: Color, enemy: &Attacks) -> i32 {
    let Some(king) = board.king_of(color) else { return 0 };
    let mut danger = 0;
    if relative_rank(color, king) <= 1 {
        let own_pawns = board.by_piece(Piece { color, role: Role::Pawn });
        let shield = (own_pawns & MASKS.shield[color as usize][king as usize]).count() as i32;
        danger += SHIELD_PAWN * (3 - shield.min(3));
    }
    let zone = king_attacks(king) | Bitboard::from_square(king);
    let units: i32 = (0..5).map(|r| KING_ATTACK_WEIGHT[r] * (enemy.by_role[r] & zone).count() as i32).sum();
    let queen_factor = if board.by_piece(Piece { color: !color, role: Role::Queen }).is_empty() { 1 } else { 2 };
    danger + (units * units * queen_factor / 2).min(400)
}

/// t(v): threats against the side to move (see [`Evaluation::threat`]).
fn threat_score(pos: &Chess, ours: &Attacks, theirs: &Attacks) -> i32 {
    if pos.is_check() {
        return THREAT_INFINITE;
    }
    let board = pos.board();
    let us = pos.turn();
    if mate_threatened(board, us, ours, theirs) {
        return THREAT_INFINITE;
    }
    let (ours_all, theirs_all) = (ours.all(), theirs.all());
    let mut threat = 0;
    for role in [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        let r = role_index(role);
        let pieces = board.by_piece(Piece { color: us, role }) & theirs_all;
        let by_lower = theirs.by_lower_than(r);
        for square in pieces {
            if by_lower.contains(square) || !ours_all.contains(square) {
                threat += PIECE_VALUE[r];
            }
        }
    }
    threat
}

/// A statically visible mate threat against `us`: an enemy queen attacks a
/// free square next to our king that another enemy piece also attacks and
/// that none of our pieces but the king defends.
fn mate_threatened(board: &Board, us: Color, ours: &Attacks, theirs: &Attacks) -> bool {
    let Some(king) = board.king_of(us) else { return false };
    let queen = theirs.by_role[role_index(Role::Queen)];
    if queen.is_empty() {
        return false;
    }
    let support = (0..6).filter(|&r| r != role_index(Role::Queen)).fold(Bitboard(0), |acc, r| acc | theirs.by_role[r]);
    let defended = (0..5).fold(Bitboard(0), |acc, r| acc | ours.by_role[r]);
    let candidates = king_attacks(king) & !board.by_color(us) & queen & support & !defended;
    candidates.any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random_games::{any, positions, random_games};
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn start_position_is_balanced_but_for_tempo() {
        assert_eq!(evaluate(&Chess::default()).score, TEMPO);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        let white = position("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4");
        let black = position("rnbqk2r/pppp1ppp/5n2/2b1p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R b KQkq - 4 4");
        assert_eq!(evaluate(&white).score, evaluate(&black).score);
    }

    #[test]
    fn extra_queen_is_winning() {
        let pos = position("4k3/8/8/8/8/8/8/3QK3 w - - 0 1");
        assert!(evaluate(&pos).score > 800);
    }

    #[test]
    fn threat_is_infinite_in_check() {
        let pos = position("4k3/8/8/8/8/8/8/4K2r w - - 0 1");
        assert_eq!(evaluate(&pos).threat, THREAT_INFINITE);
    }

    #[test]
    fn threat_counts_piece_attacked_by_lower_value() {
        // White queen on d4 attacked by the black pawn on e5.
        let pos = position("4k3/8/8/4p3/3Q4/8/8/4K3 w - - 0 1");
        assert_eq!(evaluate(&pos).threat, PIECE_VALUE[role_index(Role::Queen)]);
        // Nothing of White's is attacked.
        let quiet = position("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1");
        assert_eq!(evaluate(&quiet).threat, 0);
    }

    #[test]
    fn threat_counts_undefended_piece() {
        // White knight on e4 attacked by the black rook on e8, not defended.
        let pos = position("4r1k1/8/8/8/4N3/8/8/K7 w - - 0 1");
        assert_eq!(evaluate(&pos).threat, PIECE_VALUE[role_index(Role::Knight)]);
    }

    #[test]
    fn the_cache_answers_as_evaluate_does() {
        let mut cache = EvalCache::default();
        let fens = [
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
            "4r1k1/8/8/8/4N3/8/8/K7 w - - 0 1",
            "6kr/8/8/8/8/6q1/5PP1/6K1 w - - 0 1",
        ];
        for _ in 0..2 {
            for fen in fens {
                let board = crate::board::Board::new(position(fen));
                assert_eq!(cache.evaluate(board.key(), board.position()), evaluate(board.position()));
            }
        }
        // Keys that share a slot evict each other instead of answering for each other.
        let a = position(fens[0]);
        let b = position(fens[1]);
        let key = 5 << 20;
        assert_eq!(cache.evaluate(key, &a), evaluate(&a));
        assert_eq!(cache.evaluate(key + EVAL_CACHE_SLOTS as u64 * 3, &b), evaluate(&b));
        assert_eq!(cache.evaluate(key, &a), evaluate(&a));
        // A fresh cache does not answer key 0 with slot 0's starting entry.
        assert_eq!(EvalCache::default().evaluate(0, &b), evaluate(&b));
    }

    #[test]
    fn the_cache_answers_score_and_threat_in_any_order() {
        // Positions of random games, asked for by the score alone, the full
        // evaluation, or both in either order, so that slots are filled
        // without a threat, completed, evicted and asked again.
        let mut cache = EvalCache::default();
        let games = random_games(0x9e37_79b9_7f4a_7c15, 60, 120, any);
        let boards: Vec<crate::board::Board> = positions(&games).into_iter().map(crate::board::Board::new).collect();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for board in boards.iter().chain(boards.iter().rev()) {
            let expected = evaluate(board.position());
            let (key, pos) = (board.key(), board.position());
            match crate::random_games::xorshift(&mut state) % 4 {
                0 => assert_eq!(cache.score(key, pos), expected.score),
                1 => assert_eq!(cache.evaluate(key, pos), expected),
                2 => {
                    assert_eq!(cache.score(key, pos), expected.score);
                    assert_eq!(cache.evaluate(key, pos), expected);
                }
                _ => {
                    assert_eq!(cache.evaluate(key, pos), expected);
                    assert_eq!(cache.score(key, pos), expected.score);
                }
            }
        }
    }

    #[test]
    fn the_pawn_cache_answers_as_pawn_terms_do() {
        // Pawn structures of random games: thousands, so that slots are
        // shared and evicted, each asked for twice, far apart.
        let mut cache = PawnCache::default();
        let games = random_games(0x2545_f491_4f6c_dd1d, 300, 120, any);
        let boards: Vec<Board> = positions(&games).iter().map(|pos| pos.board().clone()).collect();
        let distinct: std::collections::HashSet<_> =
            boards.iter().map(|b| ((b.pawns() & b.white()).0, (b.pawns() & b.black()).0)).collect();
        assert!(distinct.len() > PAWN_CACHE_SLOTS, "{}", distinct.len());
        for _ in 0..2 {
            for board in &boards {
                assert_eq!(cache.terms(board), pawn_terms(board));
            }
        }
    }

    #[test]
    fn pawn_masks_hold_the_squares_their_definitions_name() {
        for color in Color::ALL {
            for square in Square::ALL {
                for other in Square::ALL {
                    let beside = abs(other.file() as i32 - square.file() as i32) <= 1;
                    let ahead = relative_rank(color, other) as i32 - relative_rank(color, square) as i32;
                    let (passed, shield) =
                        (MASKS.passed[color as usize][square as usize], MASKS.shield[color as usize][square as usize]);
                    assert_eq!(passed.contains(other), beside && ahead > 0, "{color:?} {square} {other}");
                    assert_eq!(
                        shield.contains(other),
                        beside && (1..=2).contains(&ahead),
                        "{color:?} {square} {other}"
                    );
                }
            }
        }
    }

    #[test]
    fn queen_and_support_next_to_king_is_a_mate_threat() {
        // Black queen g3 and rook h8 both hit h2 next to the white king on g1.
        let pos = position("6kr/8/8/8/8/6q1/5PP1/6K1 w - - 0 1");
        assert_eq!(evaluate(&pos).threat, THREAT_INFINITE);
    }
}
