//! A failure of the machine's is never charged to an engine: when an engine
//! cannot be started for lack of file descriptors, `game::play` reports a
//! machine fault (nothing to store) instead of a game lost by disconnect.
//! Its own test binary, because it lowers the process's limit on open files.

use std::path::Path;

use crate::common::FAKE;
use arena::engine_io::engines::EngineSpec;
use arena::engine_io::player::Player;
use arena::engine_io::process::Timeouts;
use arena::game::adjudication::Adjudication;
use model::TimeControl;
use rlimit::Resource;

fn instant(name: &str) -> Player {
    let spec =
        EngineSpec { name: name.into(), command: FAKE.into(), args: vec!["instant".into()], ..EngineSpec::default() };
    let launch = spec.launch(Path::new(crate::common::ARENA));
    Player::new(spec, "nodes=1000".parse::<TimeControl>().unwrap(), launch, None, Timeouts::default())
}

#[test]
fn an_engine_the_machine_cannot_start_is_a_machine_fault_not_a_lost_game() {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let opening = openings::builtin("forty").unwrap().get(0);
        let (mut white, mut black) = (instant("white"), instant("black"));
        let (soft, hard) = rlimit::getrlimit(Resource::NOFILE).unwrap();
        let open = std::fs::read_dir("/proc/self/fd").unwrap().count() as u64;
        // Room for two more descriptors: an engine needs six (three pipes).
        rlimit::setrlimit(Resource::NOFILE, open + 2, hard).unwrap();
        let starved = arena::game::play(&mut white, &mut black, &opening, Adjudication::default().into()).await;
        rlimit::setrlimit(Resource::NOFILE, soft, hard).unwrap();
        let fault = starved.expect_err("no game may come of an engine that could not start");
        assert!(fault.to_string().contains("os error 24"), "{fault}");

        // With room again, the same players play the game.
        let record = arena::game::play(&mut white, &mut black, &opening, Adjudication::default().into()).await.unwrap();
        assert!(!record.termination.is_fault(), "{:?} {}", record.termination, record.detail);
        white.shutdown().await;
        black.shutdown().await;
    });
}
