//! The integration tests of the `arena` binary and library, as one test
//! binary (one link step): a module per subject, sharing [`common`].

mod affinity;
mod check;
mod chess960;
mod common;
mod debian_engines;
mod dialects;
mod disk_full;
mod docs;
mod fixture;
mod io_log;
mod layers;
mod live_pgn;
mod machine_limits;
mod machines;
mod mate_pvs;
mod misbehaving_engines;
mod packaging;
mod polyglot;
mod ponder;
mod records;
mod report;
mod runfile;
mod runs;
mod scale;
mod serve;
mod shared_file;
mod source;
mod stockfish;
mod storage;
mod suite;
mod tablebase;
mod time_controls;
mod tune;
mod views;
mod workers;
