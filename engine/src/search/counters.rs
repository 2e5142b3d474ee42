//! What each pruning technique did during one search: the numbers the papers report.

use std::fmt;

/// Counters of one search (all iterations).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Nodes of the main search and quiescence together.
    pub nodes: u64,
    /// Nodes in quiescence.
    pub qnodes: u64,
    /// Null-move searches made.
    pub null_tries: u64,
    /// Null-move searches that failed high and cut off the node.
    pub null_cutoffs: u64,
    /// Verified null move: fail-highs with `verify` set, searched on at depth − 1.
    pub verifications: u64,
    /// Verified null move: nodes whose verification ended below β (zugzwang), re-searched.
    pub zugzwang_researches: u64,
    /// FHR: nodes above the frontier (depth ≥ 2) whose children were
    /// searched one ply less. At depth 1 a reduction changes nothing but
    /// through the frontier rule, counted in [`Self::fhr_frontier_cutoffs`].
    pub fhr_reductions: u64,
    /// FHR: fail-high nodes at depth 1 that returned their static value
    /// (Fig. 2: δ = 0, no successors).
    pub fhr_frontier_cutoffs: u64,
    /// FHR: the widest window (β − α) at which a reduction was made (1 when FHR is faithful).
    pub fhr_widest_window: i32,
    /// Multi-cut: nodes where the reduced searches were made.
    pub mc_tries: u64,
    /// Multi-cut: nodes pruned because C moves failed high.
    pub mc_prunes: u64,
    /// Multi-cut: nodes spent inside the reduced searches.
    pub mc_nodes: u64,
    /// Multi-cut: tries at nodes not expected to be CUT nodes (0 when faithful).
    pub mc_off_cut_tries: u64,
    /// Variable bound: null-move searches made against a lowered bound (t > 0).
    pub vnb_lowered: u64,
    /// Variable bound: null-move cutoffs that needed t > 0 (score in [β − t, β)).
    pub vnb_lowered_cutoffs: u64,
    /// Variable bound: the largest t used.
    pub vnb_max_t: i32,
    /// Late-move reductions made.
    pub lmr_reductions: u64,
    /// Reduced searches that beat α and were searched again at full depth.
    pub lmr_researches: u64,
    /// Quiet moves left out by late-move pruning.
    pub lmp_prunes: u64,
    /// Quiet moves left out by futility pruning.
    pub futility_prunes: u64,
    /// Quiet moves left out by SEE pruning.
    pub see_prunes: u64,
    /// Nodes cut off by reverse futility pruning.
    pub rfp_cutoffs: u64,
    /// Nodes decided by razoring's quiescence search.
    pub razor_cutoffs: u64,
    /// Root searches whose aspiration window failed and was widened.
    pub aspiration_fails: u64,
}

impl fmt::Display for Counters {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let percent = |part: u64, whole: u64| if whole == 0 { 0.0 } else { 100.0 * part as f64 / whole as f64 };
        write!(
            f,
            "nodes {} qnodes {} null_tries {} null_cutoffs {} verifications {} zugzwangs {} fhr_reductions {} \
             fhr_frontier {} mc_tries {} mc_prunes {} ({:.1}% of tries) mc_nodes {} ({:.1}% of nodes) vnb_lowered {} \
             vnb_lowered_cutoffs {} ({:.1}% of null cutoffs) lmr {} lmr_researches {} lmp {} futility {} see {} \
             rfp {} razor {} aspiration_fails {}",
            self.nodes,
            self.qnodes,
            self.null_tries,
            self.null_cutoffs,
            self.verifications,
            self.zugzwang_researches,
            self.fhr_reductions,
            self.fhr_frontier_cutoffs,
            self.mc_tries,
            self.mc_prunes,
            percent(self.mc_prunes, self.mc_tries),
            self.mc_nodes,
            percent(self.mc_nodes, self.nodes),
            self.vnb_lowered,
            self.vnb_lowered_cutoffs,
            percent(self.vnb_lowered_cutoffs, self.null_cutoffs),
            self.lmr_reductions,
            self.lmr_researches,
            self.lmp_prunes,
            self.futility_prunes,
            self.see_prunes,
            self.rfp_cutoffs,
            self.razor_cutoffs,
            self.aspiration_fails,
        )
    }
}

impl Counters {
    /// Adds another search's counters to these (for totals over a position set).
    pub fn accumulate(&mut self, other: &Counters) {
        self.nodes += other.nodes;
        self.qnodes += other.qnodes;
        self.null_tries += other.null_tries;
        self.null_cutoffs += other.null_cutoffs;
        self.verifications += other.verifications;
        self.zugzwang_researches += other.zugzwang_researches;
        self.fhr_reductions += other.fhr_reductions;
        self.fhr_frontier_cutoffs += other.fhr_frontier_cutoffs;
        self.fhr_widest_window = self.fhr_widest_window.max(other.fhr_widest_window);
        self.mc_tries += other.mc_tries;
        self.mc_prunes += other.mc_prunes;
        self.mc_nodes += other.mc_nodes;
        self.mc_off_cut_tries += other.mc_off_cut_tries;
        self.vnb_lowered += other.vnb_lowered;
        self.vnb_lowered_cutoffs += other.vnb_lowered_cutoffs;
        self.vnb_max_t = self.vnb_max_t.max(other.vnb_max_t);
        self.lmr_reductions += other.lmr_reductions;
        self.lmr_researches += other.lmr_researches;
        self.lmp_prunes += other.lmp_prunes;
        self.futility_prunes += other.futility_prunes;
        self.see_prunes += other.see_prunes;
        self.rfp_cutoffs += other.rfp_cutoffs;
        self.razor_cutoffs += other.razor_cutoffs;
        self.aspiration_fails += other.aspiration_fails;
    }
}
