//! What is wrong with a game's packed moves (`packed.rs`, read through
//! `lines.rs` and `uci_code.rs`): a module of its own, below all three.

/// What is wrong with a packed value.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PackError {
    /// A format this arena does not read.
    #[error("packed moves of format {format}, this arena reads formats 1 to {newest}")]
    Format {
        /// The value's format.
        format: u8,
        /// The newest this arena reads.
        newest: u8,
    },
    /// A section does not decompress.
    #[error("packed moves do not decompress: {0}")]
    Decompress(std::io::Error),
    /// What the value says of itself disagrees with what it holds.
    #[error("packed moves {0}")]
    Inconsistent(String),
    /// A move token that is no move.
    #[error("a move token {0:#x} that is no move")]
    NoMove(u16),
    /// A move index past the legal moves of its position.
    #[error("move {index} of {legal} legal moves")]
    NoSuchMove {
        /// The index stored.
        index: u8,
        /// The legal moves there.
        legal: usize,
    },
    /// A stored number does not fit its field.
    #[error("a {0} out of range")]
    OutOfRange(&'static str),
    /// A part that cannot be read as what it should be.
    #[error("{0}")]
    Damaged(&'static str),
}

impl From<&'static str> for PackError {
    fn from(what: &'static str) -> PackError {
        PackError::Damaged(what)
    }
}
