//! Transposition table: one entry per slot, replacement by depth and age,
//! mate scores stored relative to the node (adjusted by ply).

use crate::score::{MATE_BOUND, Score};

/// What a stored score says about the node's true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (the search failed low).
    Upper,
    /// The score is exact.
    Exact,
}

/// One 16-byte slot.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    best_move: u16,
    score: i16,
    eval: i16,
    depth: i8,
    /// Bound in the low two bits (0 = empty), age in the upper six.
    bound_age: u8,
}

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The best or refuting move, packed by [`crate::moves::pack`]; 0 if none.
    pub best_move: u16,
    /// The score, already converted back to the probing node's ply.
    pub score: Score,
    /// The static evaluation stored with the entry.
    pub eval: Score,
    /// The depth of the search that produced the entry.
    pub depth: i32,
    /// How the score bounds the true value.
    pub bound: Bound,
}

/// A fixed-size, single-threaded transposition table.
pub struct TranspositionTable {
    entries: Vec<Entry>,
    age: u8,
    /// False while no entry was written since the last clear: clearing
    /// again (`ucinewgame` then `Clear Hash`, as `arena suite` sends) is free.
    written: bool,
}

const ENTRY_BYTES: usize = std::mem::size_of::<Entry>();

impl TranspositionTable {
    /// A table of about `megabytes` MiB (at least one entry).
    pub fn new(megabytes: usize) -> Self {
        let count = (megabytes * 1024 * 1024 / ENTRY_BYTES).max(1);
        Self { entries: vec![Entry::default(); count], age: 0, written: false }
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        if self.written {
            self.entries.fill(Entry::default());
            self.written = false;
        }
        self.age = 0;
    }

    /// Marks the start of a new search, so that older entries are replaced first.
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 0x3f;
    }

    fn index(&self, key: u64) -> usize {
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    /// Starts loading `key`'s slot into the cache, for a probe soon after.
    pub fn prefetch(&self, key: u64) {
        prefetch_index::prefetch_index(&self.entries, self.index(key));
    }

    /// Looks up `key`; `ply` converts mate scores to this node's distance.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let entry = self.entries[self.index(key)];
        if entry.key != key || entry.bound_age & 3 == 0 {
            return None;
        }
        let bound = match entry.bound_age & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        };
        Some(Hit {
            best_move: entry.best_move,
            score: score_from_table(Score::from(entry.score), ply),
            eval: Score::from(entry.eval),
            depth: i32::from(entry.depth),
            bound,
        })
    }

    /// Stores a search result. A slot is replaced when it holds the same
    /// position, an entry from an older search, or a shallower (or barely
    /// deeper) result; the old best move is kept when the new result has none.
    #[allow(clippy::too_many_arguments)]
    pub fn store(&mut self, key: u64, ply: usize, best_move: u16, score: Score, eval: Score, depth: i32, bound: Bound) {
        let index = self.index(key);
        self.written = true;
        let slot = &mut self.entries[index];
        let same = slot.key == key;
        let old_age = slot.bound_age >> 2;
        if !same && old_age == self.age && depth + 2 < i32::from(slot.depth) && slot.bound_age & 3 != 0 {
            return;
        }
        let best_move = if best_move == 0 && same { slot.best_move } else { best_move };
        let bound_bits = match bound {
            Bound::Lower => 1,
            Bound::Upper => 2,
            Bound::Exact => 3,
        };
        *slot = Entry {
            key,
            best_move,
            score: score_to_table(score, ply) as i16,
            eval: eval.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            depth: depth.clamp(-1, 127) as i8,
            bound_age: bound_bits | (self.age << 2),
        };
    }

    /// Permille of the first thousand slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used =
            self.entries[..sample].iter().filter(|e| e.bound_age & 3 != 0 && e.bound_age >> 2 == self.age).count();
        (used * 1000 / sample) as u32
    }
}

/// Mate scores are stored as distance from the node, not from the root.
fn score_to_table(score: Score, ply: usize) -> Score {
    let ply = ply as Score;
    if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    }
}

fn score_from_table(score: Score, ply: usize) -> Score {
    let ply = ply as Score;
    if score >= MATE_BOUND {
        score - ply
    } else if score <= -MATE_BOUND {
        score + ply
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::MATE;

    #[test]
    fn stores_and_probes() {
        let mut tt = TranspositionTable::new(1);
        tt.store(42, 0, 7, 123, 50, 5, Bound::Exact);
        let hit = tt.probe(42, 0).unwrap();
        assert_eq!((hit.best_move, hit.score, hit.eval, hit.depth, hit.bound), (7, 123, 50, 5, Bound::Exact));
        assert!(tt.probe(43, 0).is_none());
    }

    #[test]
    fn mate_scores_are_relative_to_the_node() {
        let mut tt = TranspositionTable::new(1);
        // Mate in 3 plies from a node at ply 4 is mate in 7 from the root.
        tt.store(9, 4, 0, MATE - 7, 0, 3, Bound::Exact);
        assert_eq!(tt.probe(9, 2).unwrap().score, MATE - 5);
    }

    #[test]
    fn deeper_entry_of_same_age_survives_shallow_store() {
        let mut tt = TranspositionTable::new(0);
        tt.store(1, 0, 3, 10, 0, 10, Bound::Exact);
        tt.store(2, 0, 4, 20, 0, 1, Bound::Lower);
        assert_eq!(tt.probe(1, 0).unwrap().depth, 10);
        tt.new_search();
        tt.store(2, 0, 4, 20, 0, 1, Bound::Lower);
        assert!(tt.probe(1, 0).is_none());
        assert_eq!(tt.probe(2, 0).unwrap().best_move, 4);
    }
}
