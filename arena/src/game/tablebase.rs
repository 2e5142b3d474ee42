//! Syzygy adjudication (`--tb`): the tables of a run's folders, opened once
//! per process and probed by every game, and what a probe means for the game.
//!
//! A game ends when its position has at most the rule's number of pieces, no
//! castling rights, and a result the tables give for certain: the WDL value
//! with the 50-move counter taken into account (WDL and DTZ tables; with WDL
//! tables alone, only right after a capture or pawn move). A value the DTZ
//! tables leave ambiguous, a missing table and a failed probe all leave the
//! game to be played on: adjudication may come later, never a wrong result.
//! A failed probe (a corrupt or truncated file) is said once per process.
//!
//! `--tb builtin` names the 3–4 piece tables that the binary carries (from
//! `data/syzygy`, 4.4 MB): written once into the cache folder
//! (`$ARENA_CACHE/syzygy-VERSION`, see [`crate::util::cache_root`]) and read
//! from there, so an installed `arena` adjudicates from any folder, and each
//! worker resolves `builtin` to its own copy.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use model::{GameResult, TablebaseRule, TbResults};
use shakmaty::{Chess, Color, Position};
use shakmaty_syzygy::{AmbiguousWdl, Metric, SyzygyError, Tablebase, Wdl};

/// The tables of a rule's folders.
pub struct Tablebases {
    tables: Tablebase<Chess>,
    rule: TablebaseRule,
    warned: AtomicBool,
}

impl std::fmt::Debug for Tablebases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebases").field("rule", &self.rule).finish_non_exhaustive()
    }
}

/// Why the tables of `--tb` cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// No folder given.
    #[error("--tb needs a folder of Syzygy tables (DIR or DIR:DIR…)")]
    NoFolder,
    /// A folder that does not exist here.
    #[error("--tb {0}: no such folder; give the folder that holds the .rtbw/.rtbz files")]
    Missing(String),
    /// A folder without tables.
    #[error("--tb {0}: no Syzygy tables (.rtbw/.rtbz files) in this folder")]
    Empty(String),
    /// A folder that cannot be read.
    #[error("--tb {0}: cannot read the folder")]
    Unreadable(String, #[source] std::io::Error),
    /// The built-in tables cannot be written to the cache.
    #[error("--tb builtin: cannot write the built-in tables to {0} (set ARENA_CACHE to a writable folder)")]
    Unpack(String, #[source] std::io::Error),
    /// No cache folder for the built-in tables.
    #[error("--tb builtin: no cache folder for the built-in tables: set ARENA_CACHE (or HOME)")]
    NoCache,
}

/// The word of `--tb` that names the built-in tables.
pub const BUILTIN: &str = "builtin";

mod embedded {
    include!(concat!(env!("OUT_DIR"), "/syzygy.rs"));
}

/// The folder of the built-in tables, written on first use: each file
/// written whole under a temporary name and renamed, so that processes
/// starting at once never read half a table.
fn builtin_folder() -> Result<PathBuf, TablebaseError> {
    let root = crate::util::cache_root().ok_or(TablebaseError::NoCache)?;
    let folder = root.join(format!("syzygy-{}", env!("CARGO_PKG_VERSION")));
    let unpack = |e| TablebaseError::Unpack(folder.display().to_string(), e);
    std::fs::create_dir_all(&folder).map_err(unpack)?;
    for (name, bytes) in embedded::SYZYGY {
        let path = folder.join(name);
        if std::fs::metadata(&path).is_ok_and(|m| m.len() == bytes.len() as u64) {
            continue;
        }
        let part = folder.join(format!(".{name}.{}", std::process::id()));
        std::fs::write(&part, bytes).and_then(|()| std::fs::rename(&part, &path)).map_err(unpack)?;
    }
    Ok(folder)
}

/// Opens the tables in `paths` (`DIR:DIR…` already split); returns them and
/// the largest number of pieces they cover.
///
/// # Errors
///
/// [`TablebaseError`] for a folder that is missing, not a folder,
/// unreadable, or holds no Syzygy table.
pub fn scan(paths: &[String]) -> Result<(Tablebase<Chess>, u32), TablebaseError> {
    let mut tables = Tablebase::new();
    if paths.is_empty() {
        return Err(TablebaseError::NoFolder);
    }
    for path in paths {
        let unpacked;
        let folder = if path == BUILTIN {
            unpacked = builtin_folder()?;
            unpacked.as_path()
        } else {
            Path::new(path)
        };
        if !folder.is_dir() {
            return Err(TablebaseError::Missing(path.clone()));
        }
        match tables.add_directory(folder) {
            Ok(0) => return Err(TablebaseError::Empty(path.clone())),
            Ok(_) => {}
            Err(e) => return Err(TablebaseError::Unreadable(path.clone(), e)),
        }
    }
    let pieces = u32::try_from(tables.max_pieces()).unwrap_or(u32::MAX);
    Ok((tables, pieces))
}

impl Tablebases {
    /// Opens a stored rule's folders (this machine's: a worker needs the
    /// tables at the same paths).
    ///
    /// # Errors
    ///
    /// As [`scan`].
    pub fn open(rule: &TablebaseRule) -> Result<Tablebases, TablebaseError> {
        let (tables, _) = scan(&rule.paths)?;
        Ok(Tablebases { tables, rule: rule.clone(), warned: AtomicBool::new(false) })
    }

    /// The result the tables give `position` for certain, if the rule
    /// adjudicates it, with a detail such as `KQvK: win for White`.
    pub fn adjudicate(&self, position: &Chess) -> Option<(GameResult, String)> {
        let pieces = position.board().occupied().count();
        if pieces > self.rule.pieces as usize || position.castles().any() {
            return None;
        }
        let wdl = self.probe(position)?;
        let mover = position.turn();
        let (result, label) = match wdl {
            Wdl::Win => (winner(mover), "win"),
            Wdl::Loss => (winner(!mover), "win"),
            Wdl::CursedWin if self.rule.ignore_50 => (winner(mover), "cursed win, the 50-move rule ignored"),
            Wdl::BlessedLoss if self.rule.ignore_50 => (winner(!mover), "cursed win, the 50-move rule ignored"),
            Wdl::CursedWin | Wdl::BlessedLoss => (GameResult::Draw, "draw by the 50-move rule"),
            Wdl::Draw => (GameResult::Draw, "draw"),
        };
        let wanted = match (self.rule.results, result) {
            (TbResults::Both, _) => true,
            (TbResults::Win, r) => r != GameResult::Draw,
            (TbResults::Draw, r) => r == GameResult::Draw,
        };
        let side = match result {
            GameResult::WhiteWins => " for White",
            GameResult::BlackWins => " for Black",
            GameResult::Draw => "",
        };
        wanted.then(|| (result, format!("{}: {label}{side}", material(position))))
    }

    /// The certain WDL value from the mover's view, or `None`.
    fn probe(&self, position: &Chess) -> Option<Wdl> {
        let probed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match self.tables.probe_wdl(position) {
            Ok(wdl) => Ok(AmbiguousWdl::unambiguous(wdl)),
            Err(SyzygyError::MissingTable { metric: Metric::Dtz, .. }) if position.halfmoves() == 0 => {
                self.tables.probe_wdl_after_zeroing(position).map(Some)
            }
            Err(e) => Err(e),
        }));
        match probed {
            Ok(Ok(wdl)) => wdl,
            Ok(Err(SyzygyError::MissingTable { .. } | SyzygyError::TooManyPieces | SyzygyError::Castling)) => None,
            Ok(Err(e)) => {
                self.warn(&e.to_string());
                None
            }
            Err(_) => {
                self.warn("the prober failed on a corrupt table");
                None
            }
        }
    }

    fn warn(&self, problem: &str) {
        if !self.warned.swap(true, Ordering::Relaxed) {
            crate::term::warn(&format!(
                "tablebase: {problem}; games go on without tablebase adjudication where this table is needed (replace the file from a good copy)"
            ));
        }
    }
}

fn winner(color: Color) -> GameResult {
    if color == Color::White { GameResult::WhiteWins } else { GameResult::BlackWins }
}

/// The material as Syzygy names it: `KQvK`, White first.
fn material(position: &Chess) -> String {
    let board = position.board();
    let side = |color: Color| -> String {
        [shakmaty::Role::King, shakmaty::Role::Queen, shakmaty::Role::Rook, shakmaty::Role::Bishop]
            .into_iter()
            .chain([shakmaty::Role::Knight, shakmaty::Role::Pawn])
            .flat_map(|role| {
                let count = (board.by_role(role) & board.by_color(color)).count();
                std::iter::repeat_n(role.upper_char(), count)
            })
            .collect()
    };
    format!("{}v{}", side(Color::White), side(Color::Black))
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn tables(pieces: u32, results: TbResults, ignore_50: bool) -> Tablebases {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/syzygy").to_string();
        Tablebases::open(&TablebaseRule { paths: vec![dir], pieces, results, ignore_50 }).unwrap()
    }

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>().unwrap().into_position(CastlingMode::Standard).unwrap()
    }

    #[test]
    fn known_endings() {
        let tb = tables(4, TbResults::Both, false);
        let cases = [
            // KQvK: White mates whoever moves.
            ("8/8/8/4k3/8/8/8/KQ6 w - - 0 1", Some(GameResult::WhiteWins), "KQvK: win for White"),
            ("8/8/8/4k3/8/8/8/KQ6 b - - 0 1", Some(GameResult::WhiteWins), "KQvK: win for White"),
            // KPvK, the defending king in front of the pawn: a draw.
            ("8/8/8/8/4k3/8/4P3/4K3 b - - 0 1", Some(GameResult::Draw), "KPvK: draw"),
            // KPvK, the pawn on the seventh with its king guarding the queening square.
            ("8/3KP3/8/8/8/8/8/k7 w - - 0 1", Some(GameResult::WhiteWins), "KPvK: win for White"),
            // KRvKP both ways: the rook wins against a pawn its king cannot
            // help, draws against a pawn about to queen with its king
            // beside it, and loses when the pawn queens with check.
            ("R7/8/8/8/8/4k3/7p/K7 w - - 0 1", Some(GameResult::WhiteWins), "KRvKP: win for White"),
            ("K7/8/8/8/8/8/5kp1/7R w - - 0 1", Some(GameResult::Draw), "KRvKP: draw"),
            ("8/8/8/8/8/1k6/p7/2K4R b - - 0 1", Some(GameResult::BlackWins), "KRvKP: win for Black"),
            // KvK is insufficient material for the board; the tables agree.
            ("8/8/8/4k3/8/8/8/K7 w - - 0 1", Some(GameResult::Draw), "KvK: draw"),
        ];
        for (fen, result, detail) in cases {
            let got = tb.adjudicate(&position(fen));
            assert_eq!(got.as_ref().map(|g| g.0), result, "{fen}: {got:?}");
            assert_eq!(got.map(|g| g.1).as_deref(), Some(detail), "{fen}");
        }
        assert_eq!(tb.adjudicate(&position("8/8/8/4k3/8/8/PPP5/K7 w - - 0 1")), None, "five pieces");
        assert_eq!(tb.adjudicate(&position("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")), None, "castling rights");
    }

    #[test]
    fn fifty_move_counter_results_and_pieces() {
        // KQvK, mate 13 plies away (DTZ 13, python-chess) with the counter
        // at 90: the 50-move rule comes first, so the win is cursed: a draw
        // unless the rule is ignored.
        let far = position("7k/8/8/8/8/8/8/KQ6 w - - 90 100");
        let near = position("7k/8/8/8/8/8/8/KQ6 w - - 0 100");
        let strict = tables(4, TbResults::Both, false);
        assert_eq!(strict.adjudicate(&near).map(|g| g.0), Some(GameResult::WhiteWins));
        let cursed = strict.adjudicate(&far).unwrap();
        assert_eq!(cursed.0, GameResult::Draw, "{cursed:?}");
        assert_eq!(tables(4, TbResults::Both, true).adjudicate(&far).map(|g| g.0), Some(GameResult::WhiteWins));
        let draw = position("8/8/8/8/4k3/8/4P3/4K3 b - - 0 1");
        assert_eq!(tables(4, TbResults::Win, false).adjudicate(&draw), None, "wins only");
        assert_eq!(tables(4, TbResults::Draw, false).adjudicate(&near), None, "draws only");
        assert_eq!(
            tables(3, TbResults::Both, false).adjudicate(&position("8/8/8/8/4k3/8/4P3/4K3 b - - 0 1")).map(|g| g.0),
            Some(GameResult::Draw)
        );
        assert_eq!(tables(2, TbResults::Both, false).adjudicate(&draw), None, "--tb-pieces 2");
    }

    #[test]
    fn bad_folders_are_one_line() {
        let empty = std::env::temp_dir().join(format!("arena-tb-empty-{}", std::process::id()));
        std::fs::create_dir_all(&empty).unwrap();
        for (paths, needle) in [
            (vec!["/no/such/folder".to_string()], "no such folder"),
            (vec![empty.display().to_string()], "no Syzygy tables"),
            (vec![], "needs a folder"),
        ] {
            let error = scan(&paths).unwrap_err().to_string();
            assert!(error.contains(needle) && !error.contains('\n'), "{error}");
        }
        let (_, pieces) = scan(&[concat!(env!("CARGO_MANIFEST_DIR"), "/../data/syzygy").to_string()]).unwrap();
        assert_eq!(pieces, 4);
    }

    #[test]
    fn the_builtin_tables_are_the_data_folders_byte_for_byte() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../data/syzygy");
        let files = std::fs::read_dir(dir).unwrap().filter(|e| {
            let name = e.as_ref().unwrap().file_name().into_string().unwrap();
            name.ends_with(".rtbw") || name.ends_with(".rtbz")
        });
        assert_eq!(files.count(), embedded::SYZYGY.len());
        for (name, bytes) in embedded::SYZYGY {
            assert_eq!(std::fs::read(format!("{dir}/{name}")).unwrap(), *bytes, "{name}");
        }
    }
}
