//! The alpha-beta node: PVS/Negascout, fail-soft, one numbered step per
//! technique. Each pruning step names its paper and figure, what it does and
//! when it is skipped; its parameters are in [`super::pruning`].

use shakmaty::{Move, MoveList, Position, Role};

use super::{NodeType, Searcher};
use crate::board::Board;
use crate::captures::is_tactical;
use crate::eval::{Evaluation, phase};
use crate::moves::{pack, unpack};
use crate::ordering::{HISTORY_MAX, History, MovePicker};
use crate::score::{DRAW, INFINITY, MATE, MATE_BOUND, MAX_PLY, Score};
use crate::see::see;
use crate::tt::Bound;

/// The score of a position without legal moves: mated or stalemate.
pub(super) fn terminal_score(board: &Board, ply: usize) -> Score {
    if board.position().is_check() { -MATE + ply as Score } else { DRAW }
}

/// A node that steps 1-7 left open, as steps 8-12 search it: its window
/// and depth (step 3 may narrow the one, steps 5 and 7 change the other),
/// and what the later steps test.
struct OpenNode {
    alpha: Score,
    beta: Score,
    depth: i32,
    ply: usize,
    node: NodeType,
    /// The verified null-move flag of Fig. 3.
    verify: bool,
    in_check: bool,
    /// Step 6's static evaluation and threat, when a technique needs them.
    evaluation: Option<Evaluation>,
    /// Step 7's verified null move failed high: step 11 searches again at
    /// full depth when no move reaches β.
    verification_pending: bool,
}

/// What the null move of step 7 did.
enum NullMove {
    /// It did not apply, or failed low.
    NotTried,
    /// It failed high: the node's score.
    Cutoff(Score),
    /// It failed high with `verify` set (Fig. 3): search on one ply less,
    /// verification pending.
    Verify,
    /// The search was stopped during it.
    Stopped,
}

impl Searcher {
    /// Searches `board` to `depth` within (`alpha`, `beta`) at `ply` from the
    /// root; `node` is the expected node type, `verify` the verified
    /// null-move flag of Fig. 3 (true at the root).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn alphabeta(
        &mut self,
        board: &Board,
        mut alpha: Score,
        mut beta: Score,
        mut depth: i32,
        ply: usize,
        node: NodeType,
        verify: bool,
    ) -> Score {
        // Step 1. Horizon: hand over to quiescence.
        if depth <= 0 {
            return self.quiescence(board, alpha, beta, ply, None);
        }

        // Step 2. Count the node; stop on the node limit, time or `stop`.
        if self.count_node_and_check_stop() {
            return DRAW;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        let pos = board.position();
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        let in_check = pos.is_check();

        // Step 3. Draws by rule and repetition; mate-distance pruning.
        if !root {
            match self.rule_draw_or_mate_window(board, ply, in_check, (alpha, beta)) {
                Ok(window) => (alpha, beta) = window,
                Err(score) => return score,
            }
        }

        // Step 4. Transposition table: cut off at non-PV nodes with a deep
        // enough entry whose bound decides the window.
        let tt_packed = match self.probe_table(board, ply, depth, (alpha, beta), pv_node) {
            Ok(packed) => packed,
            Err(score) => return score,
        };

        // Step 5. Check extension: one ply when the side to move is in check
        // (with `CheckExtensionLeafOnly`, as the verified null-move paper:
        // only at the last ply before the horizon).
        let extend = in_check && (!self.config.conditions.check_extension_leaf_only || depth == 1);
        if extend {
            depth += 1;
        }
        self.stack[ply].extended = extend;

        // Step 6. Static evaluation and threat, when a technique needs them
        // (FHR evaluates interior nodes: item 8 of the paper; so do the
        // futility family's steps 6a, 6b and 10b).
        let needs_evaluation = self.config.fhr.enabled || self.config.modern.needs_evaluation();
        let evaluation: Option<Evaluation> = (!in_check && needs_evaluation).then(|| self.evaluate(board));

        // Steps 6a and 6b, at non-PV nodes out of check, away from mate scores.
        if let Some(e) = evaluation
            && !pv_node
            && beta.abs() < MATE_BOUND
            && alpha.abs() < MATE_BOUND
        {
            let modern = &self.config.modern;
            // Step 6a. Reverse futility pruning (static null move; CPW
            // "Reverse Futility Pruning"): a static value a margin per ply
            // above β is taken as the node's score.
            if modern.rfp && depth <= modern.rfp_depth && e.score - modern.rfp_margin * depth >= beta {
                self.counters.rfp_cutoffs += 1;
                return e.score;
            }
            // Step 6b. Razoring (Birmingham & Kent; CPW "Razoring"): a static
            // value a margin per ply below α asks quiescence whether the
            // node fails low; when it does, that is the node's score.
            if modern.razoring && depth <= modern.razor_depth && e.score + modern.razor_margin * depth < alpha {
                let score = self.quiescence(board, alpha, alpha + 1, ply, None);
                if self.stopped {
                    return DRAW;
                }
                if score <= alpha {
                    self.counters.razor_cutoffs += 1;
                    return score;
                }
            }
        }

        // Step 7. Null-move pruning: standard (Tabibi & Netanyahu, Fig. 1),
        // verified (same paper, Fig. 3), variable bound (Björnsson &
        // Marsland, Fig. 5); see `null_move`.
        let mut open =
            OpenNode { alpha, beta, depth, ply, node, verify, in_check, evaluation, verification_pending: false };
        match self.null_move(board, ply, node, depth, beta, pv_node, in_check, verify) {
            NullMove::NotTried => {}
            NullMove::Cutoff(score) => return score,
            NullMove::Stopped => return DRAW,
            NullMove::Verify => {
                open.depth -= 1;
                open.verify = false;
                open.verification_pending = true;
            }
        }

        self.search_below(board, open, tt_packed)
    }

    /// Steps 8-12: the node's moves, once steps 1-7 have not decided it;
    /// the score of a mate or stalemate when it has none.
    fn search_below(&mut self, board: &Board, mut n: OpenNode, tt_packed: u16) -> Score {
        let pos = board.position();
        let mut picker = MovePicker::empty();
        picker.fill_legal(pos);
        if picker.is_empty() {
            return terminal_score(board, n.ply);
        }
        let tt_move = unpack(tt_packed, picker.moves());
        let original_alpha = n.alpha;

        loop {
            // Step 8. Fail-High Reductions (Feldmann, Fig. 2): the children
            // one ply less; see `fail_high_reduction`. At depth 1 the
            // reduced depth δ is 0: Fig. 2 generates no successors and
            // returns the static value (≥ β, a cutoff at the frontier).
            let reduction = self.fail_high_reduction(n.evaluation, n.alpha, n.beta);
            let move_depth = n.depth - reduction;
            if reduction > 0 {
                if move_depth > 0 {
                    self.counters.fhr_reductions += 1;
                } else if self.config.fhr.frontier
                    && let Some(e) = n.evaluation
                {
                    self.counters.fhr_frontier_cutoffs += 1;
                    return e.score;
                }
            }

            self.order(&mut picker, pos, n.ply, tt_move);

            // Step 9. Multi-cut (Björnsson & Marsland, "Multi-cut αβ-pruning",
            // Fig. 4): at an expected CUT node, search the first M moves to
            // depth − 1 − R with a null window; when C of them fail high,
            // return β. Skipped: at PV and ALL nodes, when depth ≤ R, in
            // check, in the endgame, and when an extension was applied in the
            // last plies (paper: three).
            if self.multi_cut_applies(board, n.ply, n.node, move_depth, n.in_check) {
                let first = picker.first_moves(self.config.multi_cut.moves);
                if let Some(score) = self.multi_cut(board, first, n.beta, move_depth, n.ply, n.node, n.verify) {
                    return score;
                }
                if self.stopped {
                    return DRAW;
                }
            }

            // Step 10. PVS over the ordered moves.
            let (best, best_move) = self.search_moves(board, &mut picker, &n, move_depth);
            if self.stopped {
                return DRAW;
            }

            // Step 11. Verified null move, zugzwang detection (Fig. 3): the
            // null move failed high but no move reached β, so passing was
            // better than every move. Restore the depth, set `verify` and
            // search the node again.
            if n.verification_pending && best < n.beta {
                n.depth += 1;
                n.verify = true;
                n.verification_pending = false;
                self.counters.zugzwang_researches += 1;
                n.alpha = original_alpha;
                // The same list again, in its generated order: cheaper than
                // a copy kept for this rare case.
                picker.fill_legal(pos);
                continue;
            }

            // Step 12. Store in the transposition table.
            let eval = n.evaluation.map_or(0, |e| e.score);
            self.store(board, n.ply, n.depth, (original_alpha, n.beta), best, best_move, eval);
            return best;
        }
    }

    /// Orders the node's moves: the table move, captures, the ply's
    /// killers and history, unless the run's conditions switch them off.
    fn order(&self, picker: &mut MovePicker, pos: &shakmaty::Chess, ply: usize, tt_move: Option<Move>) {
        let ordering = &self.config.conditions;
        let killers = if ordering.no_killers { [None, None] } else { self.stack[ply].killers };
        let history = if ordering.no_history { History::empty() } else { &self.history };
        picker.order(pos, tt_move, killers, history);
    }

    /// Step 8, Fail-High Reductions (Feldmann, "Fail-High Reductions",
    /// Fig. 2): at a node searched with a null window (α = β − 1, item 5)
    /// whose pessimistic static value e(v) − t(v) reaches β − Δ (item 1),
    /// the children are searched one ply less: the plies to take off, 1 or
    /// 0. The re-search of a child goes to full depth (step 10); the table
    /// stores the nominal depth (item 7). Skipped: full-window nodes, in
    /// check (t = ∞, no evaluation). The caller counts the reduction and
    /// applies the frontier rule.
    fn fail_high_reduction(&mut self, evaluation: Option<Evaluation>, alpha: Score, beta: Score) -> i32 {
        let Some(e) = evaluation else { return 0 };
        let fhr = &self.config.fhr;
        if !fhr.enabled || alpha != beta - 1 || e.score - e.threat < beta - fhr.margin {
            return 0;
        }
        self.counters.fhr_widest_window = self.counters.fhr_widest_window.max(beta - alpha);
        1
    }

    /// Step 12: stores the node's `best` score (and move) searched to
    /// `depth` in (α, β), as a bound or exact.
    #[allow(clippy::too_many_arguments)]
    fn store(
        &mut self,
        board: &Board,
        ply: usize,
        depth: i32,
        (alpha, beta): (Score, Score),
        best: Score,
        best_move: Option<Move>,
        eval: Score,
    ) {
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(board.key(), ply, best_move.map_or(0, pack), best, eval, depth, bound);
    }

    /// Step 3 at a node below the root: `Err` with the score of a draw by
    /// rule or repetition (or the static score at the deepest ply), or `Ok`
    /// with the window narrowed to the mate distances possible from here;
    /// `Err(α)` when that leaves no window.
    fn rule_draw_or_mate_window(
        &mut self,
        board: &Board,
        ply: usize,
        in_check: bool,
        (alpha, beta): (Score, Score),
    ) -> Result<(Score, Score), Score> {
        let pos = board.position();
        if pos.is_insufficient_material() || self.is_repetition(board) {
            return Err(DRAW);
        }
        if pos.halfmoves() >= 100 && !(in_check && pos.legal_moves().is_empty()) {
            return Err(DRAW);
        }
        if ply >= MAX_PLY - 1 {
            return Err(self.static_score(board));
        }
        let alpha = alpha.max(-MATE + ply as Score);
        let beta = beta.min(MATE - ply as Score - 1);
        if alpha >= beta { Err(alpha) } else { Ok((alpha, beta)) }
    }

    /// Step 4: `Err` with the entry's score when it cuts the node off (not
    /// a PV node, deep enough, its bound deciding the window), else `Ok`
    /// with its packed move (0 for none).
    fn probe_table(
        &mut self,
        board: &Board,
        ply: usize,
        depth: i32,
        (alpha, beta): (Score, Score),
        pv_node: bool,
    ) -> Result<u16, Score> {
        let Some(hit) = self.tt.probe(board.key(), ply) else { return Ok(0) };
        let decides = match hit.bound {
            Bound::Exact => true,
            Bound::Lower => hit.score >= beta,
            Bound::Upper => hit.score <= alpha,
        };
        if !pv_node && hit.depth >= depth && decides { Err(hit.score) } else { Ok(hit.best_move) }
    }

    /// Step 7, null-move pruning.
    /// Standard null move (Tabibi & Netanyahu, "Verified Null-Move
    /// Pruning", Fig. 1): pass, search to depth − R − 1 with a null window
    /// at β; a fail-high cuts the node off. R = 1, 2, 3 (nmp1..3) or
    /// Heinz's adaptive R (3 above depth 6, else 2).
    /// Verified (same paper, Fig. 3): with `verify` set, a fail-high does
    /// not cut off: the depth is reduced by one, `verify` is cleared for
    /// the subtree, and a zugzwang re-search follows in step 11.
    /// Variable bound (Björnsson & Marsland, Fig. 5): the cutoff is tested
    /// against β − t, t from the unexplored potentially good alternatives.
    /// Skipped: at PV nodes (unless `NullMovePV`, as Fig. 1), in check,
    /// right after a null move, when `verify` is set at depth 1, and
    /// (guard on) with only king and pawns.
    #[allow(clippy::too_many_arguments)]
    fn null_move(
        &mut self,
        board: &Board,
        ply: usize,
        node: NodeType,
        depth: i32,
        beta: Score,
        pv_node: bool,
        in_check: bool,
        verify: bool,
    ) -> NullMove {
        let null = &self.config.null_move;
        let applies = null.enabled
            && (!pv_node || self.config.conditions.null_at_pv)
            && !in_check
            && !self.stack[ply].after_null
            && (!null.verify || !verify || depth > 1)
            && (!null.guard || has_pieces(board));
        if !applies {
            return NullMove::NotTried;
        }
        let reduction = if null.adaptive { if depth > null.adaptive_depth { 3 } else { 2 } } else { null.reduction };
        let t = self.variable_bound_margin(ply);
        let bound = beta - t;
        let Some(passed) = board.null_move() else { return NullMove::NotTried };
        if t > 0 {
            self.counters.vnb_lowered += 1;
        }
        self.prefetch(&passed, depth - reduction - 1);
        self.counters.null_tries += 1;
        self.enter_child(ply, board.key(), true);
        let score = -self.alphabeta(&passed, -bound, -bound + 1, depth - reduction - 1, ply + 1, node.child(), verify);
        self.path.pop();
        if self.stopped {
            return NullMove::Stopped;
        }
        if score < bound {
            return NullMove::NotTried;
        }
        if self.config.null_move.verify && verify {
            self.counters.verifications += 1;
            return NullMove::Verify;
        }
        self.counters.null_cutoffs += 1;
        if score < beta {
            self.counters.vnb_lowered_cutoffs += 1;
        }
        // Fig. 5 returns β; mate scores from a pass are not proofs.
        NullMove::Cutoff(if t > 0 || score >= MATE_BOUND { beta } else { score })
    }

    /// The move loop of step 10: the first move with the full window, the
    /// rest with a null window and a full-window, full-depth re-search when
    /// they land inside the window. `move_depth` is the (possibly
    /// FHR-reduced) depth for children, `n.depth` the nominal one. Steps
    /// 10a-10d, the modern search's, are off in the papers' presets.
    fn search_moves(
        &mut self,
        board: &Board,
        picker: &mut MovePicker,
        n: &OpenNode,
        move_depth: i32,
    ) -> (Score, Option<Move>) {
        let (mut alpha, beta, depth, ply, node, verify) = (n.alpha, n.beta, n.depth, n.ply, n.node, n.verify);
        let pos = board.position();
        let us = pos.turn();
        let pv_node = beta - alpha > 1;
        // A copy: the loop below calls back into the searcher.
        let modern = self.config.modern;
        // Steps 10a-10c leave out quiet moves of non-PV nodes out of check.
        let may_prune_quiets = !pv_node && !n.in_check && (modern.lmp || modern.futility || modern.see_quiets);
        let futile = modern.futility
            && depth <= modern.futility_depth
            && alpha.abs() < MATE_BOUND
            && n.evaluation.is_some_and(|e| e.score + modern.futility_margin * depth <= alpha);
        let track_alternatives = self.config.variable_bound.enabled && beta - alpha == 1;
        let mut alternatives_left = if track_alternatives {
            picker.remaining().iter().filter(|m| self.potentially_good(us, **m)).count() as i32
        } else {
            0
        };
        let mut best = -INFINITY;
        let mut best_move = None;
        // On the stack: a node's moves never outnumber a move list's room,
        // and a heap list cost an allocation at every node that tried a
        // quiet move.
        let mut quiets_tried = MoveList::new();
        let mut quiets_seen = 0;
        for (index, m) in picker.by_ref().enumerate() {
            // Variable bound bookkeeping (Fig. 5 text): alternatives with
            // positive history still unexplored at this level, not recorded
            // for the first move.
            if track_alternatives {
                if self.potentially_good(us, m) {
                    alternatives_left -= 1;
                }
                self.stack[ply].unexplored_alternatives = if index == 0 { 0 } else { alternatives_left };
            }
            let quiet = !is_tactical(m);
            if quiet {
                quiets_seen += 1;
            }
            let child = board.play(m);
            let gives_check = child.position().is_check();
            // Steps 10a-10c: only once a move has kept the side to move
            // from being mated, so that no mate is proven by a left-out defence.
            if may_prune_quiets && quiet && !gives_check && index > 0 && best > -MATE_BOUND {
                // Step 10a. Late-move pruning (CPW "Futility Pruning",
                // move-count based): past the 3 + depth² first quiet moves.
                if modern.lmp && depth <= modern.lmp_depth && quiets_seen > 3 + depth * depth {
                    self.counters.lmp_prunes += 1;
                    continue;
                }
                // Step 10b. Futility pruning (Heinz, "Extended Futility
                // Pruning"): the static value plus a margin per ply cannot reach α.
                if futile {
                    self.counters.futility_prunes += 1;
                    continue;
                }
                // Step 10c. SEE pruning of quiet moves (CPW "Static Exchange
                // Evaluation"): the move loses more than a margin per ply.
                if modern.see_quiets && depth <= modern.see_depth && see(pos, m) < -modern.see_margin * depth {
                    self.counters.see_prunes += 1;
                    continue;
                }
            }
            self.prefetch(&child, move_depth - 1);
            self.enter_child(ply, board.key(), false);
            let score = if index == 0 {
                let child_type = if node == NodeType::Pv { NodeType::Pv } else { node.child() };
                -self.alphabeta(&child, -beta, -alpha, move_depth - 1, ply + 1, child_type, verify)
            } else {
                // Step 10d. Late-move reductions (CPW "Late Move
                // Reductions"; Ethereal's logarithmic table): a late quiet
                // move is searched less deep first, and again at its full
                // depth when it beats α.
                let reduction = if modern.lmr && quiet && !n.in_check && move_depth >= 3 && index >= 2 {
                    self.lmr_reduction(ply, us, m, move_depth, index, pv_node, gives_check)
                } else {
                    0
                };
                let mut score = -self.alphabeta(
                    &child,
                    -alpha - 1,
                    -alpha,
                    move_depth - 1 - reduction,
                    ply + 1,
                    node.child(),
                    verify,
                );
                if reduction > 0 {
                    self.counters.lmr_reductions += 1;
                    if score > alpha && !self.stopped {
                        self.counters.lmr_researches += 1;
                        score =
                            -self.alphabeta(&child, -alpha - 1, -alpha, move_depth - 1, ply + 1, node.child(), verify);
                    }
                }
                if score > alpha && score < beta && !self.stopped {
                    // Re-search without the reduction (FHR item 6: an
                    // improvement counts only once the re-search confirms it).
                    score = -self.alphabeta(&child, -beta, -alpha, depth - 1, ply + 1, NodeType::Pv, verify);
                }
                score
            };
            self.path.pop();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if ply == 0 {
                        self.iteration_best = Some((m, score));
                    }
                    if score >= beta {
                        self.reward_cutoff(ply, us, m, &quiets_tried, depth);
                        break;
                    }
                    alpha = score;
                }
            }
            if quiet {
                quiets_tried.push(m);
            }
        }
        self.stack[ply].unexplored_alternatives = 0;
        (best, best_move)
    }

    /// Step 10d's reduction of quiet move `m`, the `index`th of its node:
    /// the table's, one ply less for a killer, a check, a good history and
    /// at PV nodes, and never into quiescence.
    #[allow(clippy::too_many_arguments)]
    fn lmr_reduction(
        &self,
        ply: usize,
        us: shakmaty::Color,
        m: Move,
        depth: i32,
        index: usize,
        pv_node: bool,
        gives_check: bool,
    ) -> i32 {
        let mut r = self.lmr_table.get(depth, index + 1);
        let killer = self.stack[ply].killers.contains(&Some(m));
        let good_history = self.history.get(us, m) > HISTORY_MAX / 2;
        r -= i32::from(killer) + i32::from(gives_check) + i32::from(good_history) + i32::from(pv_node);
        r.clamp(0, depth - 2)
    }

    /// Pushes the current key on the path and initialises the child's frame.
    pub(super) fn enter_child(&mut self, ply: usize, key: u64, null_move: bool) {
        self.path.push(key);
        let in_null = self.stack[ply].in_null_search || null_move;
        let child = &mut self.stack[ply + 1];
        child.after_null = null_move;
        child.in_null_search = in_null;
        child.extended = false;
        child.unexplored_alternatives = 0;
        if ply + 2 < self.stack.len() {
            self.stack[ply + 2].killers = [None, None];
        }
    }

    fn reward_cutoff(&mut self, ply: usize, us: shakmaty::Color, m: Move, quiets_tried: &[Move], depth: i32) {
        if is_tactical(m) {
            return;
        }
        let bonus = (depth * depth).min(1200);
        self.history.update(us, m, bonus);
        if self.config.variable_bound.enabled {
            self.credit.credit(us, m, depth);
        }
        for &q in quiets_tried {
            self.history.update(us, q, -bonus);
        }
        let killers = &mut self.stack[ply].killers;
        if killers[0] != Some(m) {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
    }

    /// The variable bound's "potentially good alternative" (Section 6.2): a
    /// quiet move with a positive history value, in the credit-only history
    /// (the paper's) or, with `VarNullBoundCredit` off, the ordering one.
    fn potentially_good(&self, us: shakmaty::Color, m: Move) -> bool {
        !is_tactical(m)
            && if self.config.variable_bound.credit_history {
                self.credit.credited(us, m)
            } else {
                self.history.get(us, m) > 0
            }
    }

    /// Variable bound t (Fig. 5): 0 when off or inside a null-move search,
    /// else from the number of unexplored potentially good alternatives of
    /// the side to move on the path from the root.
    fn variable_bound_margin(&mut self, ply: usize) -> Score {
        let vb = &self.config.variable_bound;
        if !vb.enabled || self.stack[ply].in_null_search {
            return 0;
        }
        let alternatives: i32 = (0..ply).rev().skip(1).step_by(2).map(|p| self.stack[p].unexplored_alternatives).sum();
        let t = if alternatives > vb.many {
            vb.t_many
        } else if alternatives > 0 {
            vb.t_some
        } else {
            0
        };
        self.counters.vnb_max_t = self.counters.vnb_max_t.max(t);
        t
    }

    fn multi_cut_applies(&self, board: &Board, ply: usize, node: NodeType, depth: i32, in_check: bool) -> bool {
        let mc = &self.config.multi_cut;
        mc.enabled
            && node == NodeType::Cut
            && depth > mc.reduction
            && !in_check
            && phase(board.position().board()) > mc.endgame_phase
            && !((ply + 1).saturating_sub(mc.extension_plies)..=ply).any(|p| self.stack[p].extended)
    }

    /// The reduced searches of step 9; `Some(β)` when C moves fail high.
    #[allow(clippy::too_many_arguments)]
    fn multi_cut(
        &mut self,
        board: &Board,
        order: Vec<Move>,
        beta: Score,
        depth: i32,
        ply: usize,
        node: NodeType,
        verify: bool,
    ) -> Option<Score> {
        let mc = self.config.multi_cut.clone();
        if node != NodeType::Cut {
            self.counters.mc_off_cut_tries += 1;
        }
        self.counters.mc_tries += 1;
        let nodes_before = self.counters.nodes;
        let mut cuts = 0;
        let mut pruned = false;
        for m in order.into_iter().take(mc.moves) {
            let child = board.play(m);
            self.prefetch(&child, depth - 1 - mc.reduction);
            self.enter_child(ply, board.key(), false);
            let score =
                -self.alphabeta(&child, -beta, -beta + 1, depth - 1 - mc.reduction, ply + 1, node.child(), verify);
            self.path.pop();
            if self.stopped {
                break;
            }
            if score >= beta {
                cuts += 1;
                if cuts >= mc.cuts {
                    pruned = true;
                    break;
                }
            }
        }
        self.counters.mc_nodes += self.counters.nodes - nodes_before;
        if pruned {
            self.counters.mc_prunes += 1;
            Some(beta)
        } else {
            None
        }
    }
}

/// The side to move has a piece other than king and pawns.
fn has_pieces(board: &Board) -> bool {
    let pos = board.position();
    let b = pos.board();
    let ours = b.by_color(pos.turn());
    (ours & !b.by_role(Role::Pawn) & !b.by_role(Role::King)).any()
}
