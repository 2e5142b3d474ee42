//! Storage tests, run against SQLite and against PostgreSQL: every test body
//! takes a fresh database of each backend. The PostgreSQL server is
//! `ARENA_TEST_POSTGRES` (default: the one `.ci/start-postgres` starts);
//! when none is reachable the PostgreSQL half is skipped with a printed
//! reason, except under CI (`CI` set), where that is a failure.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Duration;

use db::{ClaimedPair, Db, SprtStep, Target};
use model::{
    Adjudication, EngineSpec, GameRecord, GameResult, GamesSpec, MoveRecord, PairPlan, PairingCounts, RunStatus, Spec,
    SuiteChunkPlan, SuiteResult, SuiteSpec, Termination, Variant, Verdict,
};

const LONG: Duration = Duration::from_secs(600);

/// A fresh SQLite file and, when a server is reachable, a fresh PostgreSQL database.
async fn backends(test: &str) -> Vec<Target> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("storage");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{test}.db"));
    for suffix in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
    }
    let mut targets = vec![Target::Sqlite(file)];
    let server = std::env::var("ARENA_TEST_POSTGRES").unwrap_or_else(|_| db::TEST_POSTGRES_DEFAULT.to_string());
    let server: Target = server.parse().unwrap();
    match db::scratch_postgres(&server, &format!("arena_storage_{test}")).await {
        Ok(target) => targets.push(target),
        Err(e) if std::env::var_os("CI").is_some() => panic!("CI needs a PostgreSQL server: {e}"),
        Err(e) => eprintln!("skipping PostgreSQL for {test}: {e}"),
    }
    targets
}

fn plan(pairs: usize) -> Vec<PairPlan> {
    (0..pairs)
        .map(|i| PairPlan {
            index: i as i64,
            engine_a: "fhr".into(),
            engine_b: "plain".into(),
            opening_index: i as i64,
            opening_name: format!("opening {i}"),
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            opening_moves: vec!["e2e4".into(), "e7e5".into()],
            opening_san: vec!["e4".into(), "e5".into()],
        })
        .collect()
}

fn game(white: &str, black: &str, result: GameResult, plies: usize) -> GameRecord {
    GameRecord {
        white: white.into(),
        black: black.into(),
        start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
        opening: "opening".into(),
        opening_moves: vec!["e2e4".into(), "e7e5".into()],
        opening_san: vec!["e4".into(), "e5".into()],
        result,
        termination: Termination::AdjudicatedDraw,
        detail: "detail with 'quotes' and ? marks".into(),
        moves: (0..plies)
            .map(|i| MoveRecord {
                uci: knight_move(i),
                san: format!("S{i}"),
                time_ms: 10 + i as u64,
                clock_ms: 1000 - i as u64,
                score_cp: (i % 3 != 0).then_some(i as i64 - 5),
                score_mate: (i % 3 == 0).then_some(-(i as i64)),
                depth: Some(i as u64),
                seldepth: (i % 2 == 0).then_some(i as u64 + 3),
                nodes: Some((1 << 40) + i as u64), // large, within the i64 that both servers store
                nps: None,
                // PVs of legal moves (indices among the legal moves) but every fifth.
                pv: if i % 5 == 4 { format!("m{i} x y") } else { format!("{} {}", knight_move(i), knight_move(i + 1)) },
                latency_ms: Some(12 + i as u64),
                engine_ms: (i % 2 == 1).then_some(10),
            })
            .collect(),
        started_ms: 1_700_000_000_000,
        finished_ms: 1_700_000_060_000,
        pv_issues: Vec::new(),
        io_log: None,
        machine: String::new(),
        lost_ms: None,
        tc_scale: None,
    }
}

/// Ply `i` of knights going out and back, a legal game.
fn knight_move(i: usize) -> String {
    ["g1f3", "b8c6", "f3g1", "c6b8"][i % 4].to_string()
}

async fn new_run(db: &Db, pairs: usize) -> i64 {
    let spec = GamesSpec {
        kind: model::GamesKind::Elo,
        engines: vec![EngineSpec::bundled("fhr"), EngineSpec::bundled("plain")],
        pairings: vec![(0, 1)],
        tc: Some("nodes=1000".parse().unwrap()),
        openings: "feldmann25".into(),
        seed: None,
        start: 0,
        max_plies: None,
        openings_per_round: pairs,
        rounds: 1,
        concurrency: Some(1),
        adjudication: Some(Adjudication::default()),
        tablebase: None,
        check_mate_pvs: true,
        variant: Variant::Standard,
        machines: model::MachineRule::default(),
    };
    db.create_run(&Spec::Games(spec), &plan(pairs), "localhost").await.unwrap()
}

fn no_sprt(_: &PairingCounts) -> Option<SprtStep> {
    None
}

/// Plays a claimed pair: A wins with White, draws with Black.
async fn play(db: &Db, pair: &ClaimedPair) -> bool {
    let first = game(&pair.plan.engine_a, &pair.plan.engine_b, GameResult::WhiteWins, 30);
    if !db.save_first_game(pair, &first).await.unwrap() {
        return false;
    }
    let second = game(&pair.plan.engine_b, &pair.plan.engine_a, GameResult::Draw, 40);
    db.finish_pair(pair, &second, &no_sprt, None).await.unwrap().is_some()
}

#[tokio::test]
async fn games_and_moves_round_trip_and_the_run_finishes_with_its_last_pair() {
    for target in backends("round_trip").await {
        let db = Db::open(&target).await.unwrap();
        let run = new_run(&db, 3).await;
        let mut seen = Vec::new();
        while let Some(pair) = db.claim_pair(run, "w1", LONG).await.unwrap() {
            assert_eq!(pair.claim, 1, "{target}");
            seen.push(pair.plan.index);
            assert_eq!(db.run(run).await.unwrap().status, RunStatus::Running);
            assert!(play(&db, &pair).await, "{target}");
        }
        assert_eq!(seen, [0, 1, 2], "{target}: pairs in plan order");
        let info = db.run(run).await.unwrap();
        assert_eq!((info.status.as_str(), info.verdict, info.pairs_done, info.games), ("finished", None, 3, 6));

        let counts = db.pairing_counts(run).await.unwrap();
        assert_eq!(counts.len(), 1);
        assert_eq!((counts[0].tally.wins, counts[0].tally.draws, counts[0].tally.losses), (3, 3, 0), "{target}");
        assert_eq!(counts[0].tally.pentanomial, [0, 0, 0, 3, 0], "{target}: WD pairs are 1.5 points");

        let outcomes = db.pair_outcomes(run).await.unwrap();
        assert_eq!(outcomes.iter().map(|o| o.finished_seq).collect::<Vec<_>>(), [1, 2, 3]);
        assert!(outcomes.iter().all(|o| o.results == [GameResult::WhiteWins, GameResult::Draw]));

        let games = db.games_page(run, 0, 100, true).await.unwrap();
        assert_eq!(games.len(), 6);
        assert_eq!(games[0].record, game("fhr", "plain", GameResult::WhiteWins, 30), "{target}: every field back");
        assert_eq!(games[1].record, game("plain", "fhr", GameResult::Draw, 40), "{target}");
        assert_eq!(db.games_page(run, games[1].id, 2, false).await.unwrap().len(), 2);
        // Streamed as an export reads them, in pages of 3 after the first
        // game and up to the fifth: the same games in order, every field.
        let (sender, mut pages) = tokio::sync::mpsc::channel(1);
        let streaming = tokio::spawn({
            let db = db.clone();
            let (after, until) = (games[0].id, games[4].id);
            async move { db.send_stored_pages(run, after, Some(until), 3, sender).await }
        });
        let mut streamed = Vec::new();
        while let Some(page) = pages.recv().await {
            assert!(page.len() <= 3, "{target}");
            for (mut game, stored) in page {
                stored.read_into(&mut game.record).unwrap();
                streamed.push(game);
            }
        }
        streaming.await.unwrap().unwrap();
        assert_eq!(streamed, games[1..5], "{target}");
        // A reader that goes away ends the stream, not in an error.
        let (sender, pages) = tokio::sync::mpsc::channel(1);
        drop(pages);
        db.send_stored_pages(run, 0, None, 1, sender).await.unwrap();

        let totals = db.move_totals(run).await.unwrap();
        let fhr = totals.iter().find(|t| t.engine == "fhr").unwrap();
        assert_eq!(fhr.moves, 3 * 35, "{target}: half of 30 + 40 plies per pair");
        let games = db.game_counts(run).await.unwrap();
        assert_eq!(games.iter().map(|g| g.plies * g.games as i64).sum::<i64>(), 3 * 70, "{target}");
        assert_eq!(games.iter().map(|g| g.games).sum::<u64>(), 6, "{target}");
        let pairs = db.pair_counts(run).await.unwrap();
        assert_eq!(pairs.len(), 1, "{target}: three pairs alike");
        assert_eq!((pairs[0].pairs, pairs[0].results), (3, [GameResult::WhiteWins, GameResult::Draw]), "{target}");
        // The same three in block 0 of finishing order, the last finished third.
        let progress = db.progress_counts(run).await.unwrap();
        assert_eq!(progress.len(), 1, "{target}");
        assert_eq!((progress[0].block, progress[0].last_seq), (0, 3), "{target}");
        assert_eq!(progress[0].count, pairs[0], "{target}");
        let first = db.first_pair_outcomes(run, 2).await.unwrap();
        assert_eq!(first.iter().map(|p| p.index).collect::<Vec<_>>(), [0, 1], "{target}");
        assert_eq!(db.terminations(run, &[]).await.unwrap(), [(model::Termination::AdjudicatedDraw, 6)]);

        // The runs list by engine and status.
        let page = |engine: &str, status: Option<RunStatus>| db::RunFilter {
            before: None,
            status,
            engine: Some(engine.to_string()),
            limit: 10,
        };
        assert_eq!(db.runs_page(&page("fhr", Some(RunStatus::Finished))).await.unwrap().len(), 1, "{target}");
        assert!(db.runs_page(&page("nmp2", None)).await.unwrap().is_empty(), "{target}");
        assert!(db.runs_page(&page("fhr", Some(RunStatus::Stopped))).await.unwrap().is_empty(), "{target}");
        // Pruned: the moves go, the totals reports read stay.
        let shed = db.prune(run, "box").await.unwrap();
        assert_eq!(shed.games_with_moves, 6, "{target}");
        assert!(db.games_page(run, 0, 100, true).await.unwrap().iter().all(|g| g.record.moves.is_empty()));
        assert_eq!(db.move_totals(run).await.unwrap(), totals, "{target}");
        assert_eq!(db.prunable(run).await.unwrap().games_with_moves, 0, "{target}");
        db.close().await;
    }
}

#[tokio::test]
async fn an_expired_lease_is_replayed_whole_and_the_late_result_discarded() {
    for target in backends("expired_lease").await {
        let db = Db::open(&target).await.unwrap();
        let run = new_run(&db, 1).await;
        let dead = db.claim_pair(run, "dead", Duration::ZERO).await.unwrap().unwrap();
        assert!(db.save_first_game(&dead, &game("fhr", "plain", GameResult::BlackWins, 10)).await.unwrap());
        tokio::time::sleep(Duration::from_millis(5)).await; // the lease ended at claim time; let the clock pass it
        let gone = db.run(run).await.unwrap().games;
        assert_eq!(gone, 0, "{target}: the game of a pair whose lease ran out, to be replayed whole, is not counted");
        let alive = db.claim_pair(run, "alive", LONG).await.unwrap().expect("expired lease handed out again");
        assert_eq!((alive.id, alive.claim), (dead.id, 2), "{target}");
        assert_eq!(db.run(run).await.unwrap().games, 0, "{target}: the dead worker's game is deleted");

        let late = game("plain", "fhr", GameResult::WhiteWins, 10);
        assert!(!db.save_first_game(&dead, &late).await.unwrap(), "{target}");
        assert_eq!(db.finish_pair(&dead, &late, &no_sprt, None).await.unwrap(), None, "{target}");
        assert!(!db.renew_lease(&dead, LONG).await.unwrap());
        assert!(db.renew_lease(&alive, LONG).await.unwrap());
        assert!(play(&db, &alive).await);
        let info = db.run(run).await.unwrap();
        assert_eq!((info.status.as_str(), info.games, info.pairs_done), ("finished", 2, 1), "{target}");
        assert_eq!(db.pair_outcomes(run).await.unwrap()[0].results, [GameResult::WhiteWins, GameResult::Draw]);
        db.close().await;
    }
}

#[tokio::test]
async fn an_sprt_verdict_stops_the_run_in_the_finishing_transaction() {
    for target in backends("sprt_stop").await {
        let db = Db::open(&target).await.unwrap();
        let run = new_run(&db, 6).await;
        let first = db.claim_pair(run, "w1", LONG).await.unwrap().unwrap();
        let in_flight = db.claim_pair(run, "w2", LONG).await.unwrap().unwrap();
        assert!(db.save_first_game(&in_flight, &game("fhr", "plain", GameResult::Draw, 4)).await.unwrap());
        assert!(db.save_first_game(&first, &game("fhr", "plain", GameResult::WhiteWins, 4)).await.unwrap());
        let judge = |counts: &PairingCounts| {
            assert_eq!(counts.tally.pentanomial, [0, 0, 0, 0, 1]);
            Some(SprtStep { llr: 3.5, verdict: Some(Verdict::AcceptH1) })
        };
        let commit = db
            .finish_pair(&first, &game("plain", "fhr", GameResult::BlackWins, 4), &judge, None)
            .await
            .unwrap()
            .unwrap();
        assert!(commit.run_finished, "{target}");
        let info = db.run(run).await.unwrap();
        assert_eq!((info.status.as_str(), info.verdict.map(Verdict::as_str)), ("finished", Some("H1")), "{target}");
        assert_eq!((info.pairs_planned, info.pairs_done, info.games), (1, 1, 2), "{target}: the rest skipped");
        assert!(db.claim_pair(run, "w3", LONG).await.unwrap().is_none(), "{target}: no pair after the verdict");
        assert!(!db.renew_lease(&in_flight, LONG).await.unwrap(), "{target}: the worker in flight moves on");
        let late = game("plain", "fhr", GameResult::Draw, 4);
        assert_eq!(db.finish_pair(&in_flight, &late, &no_sprt, None).await.unwrap(), None, "{target}");
        // The block's counts (the report computes the LLR from them).
        let progress = db.progress_counts(run).await.unwrap();
        assert_eq!(progress.iter().map(|p| (p.block, p.last_seq, p.count.pairs)).collect::<Vec<_>>(), [(0, 1, 1)]);
        db.close().await;
    }
}

/// A first game being stored while another pair's verdict stops the run (on
/// PostgreSQL, where the two are concurrent: a finisher's lock on the run's
/// row lets games be inserted): the verdict waits for it and deletes it with
/// its skipped pair, instead of missing a game not yet committed and leaving
/// it behind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_game_stored_during_a_verdict_goes_with_its_skipped_pair() {
    for target in backends("sprt_race").await {
        let Target::Postgres(url) = &target else { continue };
        let db = Db::open(&target).await.unwrap();
        let run = new_run(&db, 6).await;
        let first = db.claim_pair(run, "w1", LONG).await.unwrap().unwrap();
        let racing = db.claim_pair(run, "w2", LONG).await.unwrap().unwrap();
        assert!(db.save_first_game(&first, &game("fhr", "plain", GameResult::WhiteWins, 4)).await.unwrap());
        // Another worker storing its first game: its pair's row locked, the
        // game inserted (a copy of the first pair's), not yet committed.
        let other = db::pool_options::<sqlx::Postgres>().max_connections(2).connect(url).await.unwrap();
        let columns: String = sqlx::query_scalar(
            "SELECT string_agg(column_name::text, ', ') FROM information_schema.columns \
             WHERE table_name = 'games' AND table_schema = current_schema() \
             AND column_name NOT IN ('id', 'pair_id')",
        )
        .fetch_one(&other)
        .await
        .unwrap();
        let mut storing = other.begin().await.unwrap();
        sqlx::query("SELECT id FROM pairs WHERE id = $1 FOR UPDATE")
            .bind(racing.id)
            .execute(&mut *storing)
            .await
            .unwrap();
        let copy = format!(
            "INSERT INTO games (pair_id, {columns}) SELECT $1, {columns} FROM games WHERE pair_id = $2 AND game_in_pair = 0"
        );
        sqlx::query(sqlx::AssertSqlSafe(copy)).bind(racing.id).bind(first.id).execute(&mut *storing).await.unwrap();
        let judge = |_: &PairingCounts| Some(SprtStep { llr: 3.5, verdict: Some(Verdict::AcceptH1) });
        let verdict = {
            let (db, first) = (db.clone(), first.clone());
            tokio::spawn(async move {
                let second = game("plain", "fhr", GameResult::BlackWins, 4);
                db.finish_pair(&first, &second, &judge, None).await.unwrap().unwrap().run_finished
            })
        };
        // The verdict's transaction reaches the racing pair's row and waits for it.
        while sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
        )
        .fetch_one(&other)
        .await
        .unwrap()
            == 0
        {
            tokio::task::yield_now().await;
        }
        storing.commit().await.unwrap();
        assert!(verdict.await.unwrap(), "{target}");
        let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE pair_id = $1")
            .bind(racing.id)
            .fetch_one(&other)
            .await
            .unwrap();
        assert_eq!(left, 0, "{target}: the skipped pair's game was left behind");
        let info = db.run(run).await.unwrap();
        assert_eq!((info.pairs_planned, info.pairs_done, info.games), (1, 1, 2), "{target}");
        other.close().await;
        db.close().await;
    }
}

#[tokio::test]
async fn a_released_pair_is_pending_again_and_resume_resets_what_a_crash_left() {
    for target in backends("release_reset").await {
        let db = Db::open(&target).await.unwrap();
        let run = new_run(&db, 2).await;
        let pair = db.claim_pair(run, "w1", LONG).await.unwrap().unwrap();
        assert!(db.save_first_game(&pair, &game("fhr", "plain", GameResult::Draw, 4)).await.unwrap());
        db.release_pair(&pair).await.unwrap();
        assert_eq!(db.run(run).await.unwrap().games, 0, "{target}");
        let again = db.claim_pair(run, "w1", LONG).await.unwrap().unwrap();
        assert_eq!((again.plan.index, again.claim), (0, 2), "{target}");

        // A crash leaves `again` running under a live lease: a resume resets
        // it once its holder is known to have ended, or its lease expired.
        assert_eq!(db.pair_holders(run).await.unwrap(), ["w1"], "{target}");
        assert_eq!(db.reset_unfinished(run, &["w9".into()]).await.unwrap(), 0, "{target}: w1 still plays");
        assert_eq!(db.reset_unfinished(run, &["w1".into()]).await.unwrap(), 1, "{target}: w1 ended");
        let expired = db.claim_pair(run, "w2", Duration::ZERO).await.unwrap().unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        assert_eq!(db.reset_unfinished(run, &[]).await.unwrap(), 1, "{target}: its lease expired");
        assert!(!db.renew_lease(&expired, LONG).await.unwrap(), "{target}");
        db.close().await;
    }
}

#[tokio::test]
async fn concurrent_workers_get_each_pair_exactly_once() {
    for target in backends("concurrent_claims").await {
        let setup = Db::open(&target).await.unwrap();
        let run = new_run(&setup, 40).await;
        let mut tasks = tokio::task::JoinSet::new();
        for worker in 0..6 {
            let target = target.clone();
            tasks.spawn(async move {
                let db = Db::open(&target).await.unwrap(); // a pool per worker, as on separate machines
                let mut mine = Vec::new();
                while let Some(pair) = db.claim_pair(run, &format!("w{worker}"), LONG).await.unwrap() {
                    assert!(play(&db, &pair).await);
                    mine.push(pair.plan.index);
                }
                db.close().await;
                mine
            });
        }
        let mut all = Vec::new();
        while let Some(mine) = tasks.join_next().await {
            all.extend(mine.unwrap());
        }
        assert_eq!(all.len(), 40, "{target}");
        assert_eq!(all.iter().collect::<HashSet<_>>().len(), 40, "{target}: no pair twice");
        let info = setup.run(run).await.unwrap();
        assert_eq!((info.status.as_str(), info.games), ("finished", 80), "{target}");
        let counts = &setup.pairing_counts(run).await.unwrap()[0];
        assert_eq!(counts.tally.pentanomial.iter().sum::<u64>(), 40, "{target}");
        setup.close().await;
    }
}

#[tokio::test]
async fn suite_answers_round_trip_and_a_second_answer_replaces_the_first() {
    for target in backends("suite_answers").await {
        let db = Db::open(&target).await.unwrap();
        let run = db.create_run(&suite_spec(), &[], "localhost").await.unwrap();
        let answer = |position: i64, solved: bool| SuiteResult {
            engine: "plain".into(),
            limit_index: 0,
            limit_label: "depth 4".into(),
            position,
            position_id: format!("WAC.{position:03}"),
            best_move: solved.then(|| "e2e4".into()),
            solved,
            nodes: Some(u64::MAX / 4),
            depth: Some(4),
            time_ms: 12,
            score_cp: None,
            score_mate: Some(-2),
            fault: if solved { String::new() } else { "timeout".into() },
        };
        db.save_suite_results(run, &[answer(1, false), answer(2, true)]).await.unwrap();
        db.save_suite_results(run, &[answer(1, true)]).await.unwrap();
        assert_eq!(db.suite_results(run).await.unwrap(), [answer(1, true), answer(2, true)], "{target}");
        db.close().await;
    }
}

#[tokio::test]
async fn suite_chunks_are_leased_like_pairs_and_the_last_one_finishes_the_run() {
    for target in backends("suite_chunks").await {
        let db = Db::open(&target).await.unwrap();
        let run = db.create_run(&suite_spec(), &[], "localhost").await.unwrap();
        let plan = |index: i64| SuiteChunkPlan {
            index,
            engine: "plain".into(),
            limit_index: 0,
            first_position: 2 * index,
            positions: 2,
        };
        assert!(db.plan_suite_chunks(run, &[plan(0), plan(1)]).await.unwrap());
        assert!(!db.plan_suite_chunks(run, &[plan(0)]).await.unwrap(), "{target}: planned once");
        let answer = |position: i64| SuiteResult {
            engine: "plain".into(),
            limit_label: "depth 4".into(),
            position,
            position_id: format!("p{position}"),
            solved: true,
            ..SuiteResult::default()
        };

        let dead = db.claim_suite_chunk(run, "dead", Duration::ZERO).await.unwrap().unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        let first = db.claim_suite_chunk(run, "first", LONG).await.unwrap().unwrap();
        assert_eq!((first.plan.index, first.claim), (1, 1), "{target}: pending chunks before expired ones");
        let alive = db.claim_suite_chunk(run, "alive", LONG).await.unwrap().unwrap();
        assert_eq!((alive.id, alive.claim), (dead.id, 2), "{target}: then the expired chunk");
        assert_eq!(db.finish_suite_chunk(&dead, &[answer(0)], true).await.unwrap(), None, "{target}: late");
        assert!(!db.renew_suite_chunk(&dead, LONG).await.unwrap());
        // Stopped midway: the answer so far is kept, the chunk goes back.
        assert_eq!(db.finish_suite_chunk(&alive, &[answer(0)], false).await.unwrap(), Some(false));
        let again = db.claim_suite_chunk(run, "alive", LONG).await.unwrap().unwrap();
        assert_eq!((again.id, again.claim), (alive.id, 3), "{target}");
        assert_eq!(db.finish_suite_chunk(&again, &[answer(0), answer(1)], true).await.unwrap(), Some(false));
        assert_eq!(db.open_suite_chunks(run).await.unwrap(), 1);
        assert_eq!(db.finish_suite_chunk(&first, &[answer(2), answer(3)], true).await.unwrap(), Some(true));
        assert_eq!(db.run(run).await.unwrap().status, RunStatus::Finished, "{target}");
        assert_eq!(db.suite_results(run).await.unwrap().len(), 4, "{target}: position 0 once");
        assert!(db.claim_suite_chunk(run, "alive", LONG).await.unwrap().is_none());
        db.close().await;
    }
}

fn suite_spec() -> Spec {
    Spec::Suite(SuiteSpec {
        engines: vec![EngineSpec::bundled("plain")],
        suite: "wac".into(),
        count: Some(8),
        positions: 8,
        limits: vec![model::SuiteLimit::Depth(2)],
        concurrency: 1,
        stall_s: 10,
    })
}

/// Another program's database — tables, none of them arena's — is refused
/// before anything is written to it, on both backends; an arena database
/// opens again as it is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_programs_database_is_refused_and_left_alone() {
    for target in backends("foreign").await {
        let url = match &target {
            Target::Sqlite(path) => format!("sqlite://{}?mode=rwc", path.display()),
            Target::Postgres(url) => url.clone(),
        };
        sqlx::any::install_default_drivers();
        let pool = db::pool_options::<sqlx::Any>().max_connections(1).connect(&url).await.unwrap();
        sqlx::query("CREATE TABLE notes (x TEXT)").execute(&pool).await.unwrap();
        pool.close().await;
        let before = match &target {
            Target::Sqlite(path) => std::fs::read(path).unwrap(),
            Target::Postgres(_) => Vec::new(),
        };
        match Db::open(&target).await {
            Err(db::DbError::NotArena { what, .. }) => assert!(what.contains("another program's tables"), "{what}"),
            other => panic!("{target}: {:?}", other.map(|_| "opened")),
        }
        if let Target::Sqlite(path) = &target {
            assert_eq!(std::fs::read(path).unwrap(), before, "{target}: the file is untouched");
        }
        let pool = db::pool_options::<sqlx::Any>().max_connections(1).connect(&url).await.unwrap();
        let migrated: Vec<(String,)> =
            sqlx::query_as("SELECT CAST(table_name AS TEXT) FROM information_schema.tables WHERE table_name = 'runs'")
                .fetch_all(&pool)
                .await
                .unwrap_or_default();
        assert!(migrated.is_empty(), "{target}: no arena table was added");
        pool.close().await;
    }
    // An arena database is not foreign: it opens, and opens again.
    for target in backends("own").await {
        Db::open(&target).await.unwrap().close().await;
        Db::open(&target).await.unwrap().close().await;
    }
}

/// A column that does not hold what arena wrote there (another program
/// changed the file) is an error naming the column, not a panic.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_column_changed_by_another_program_is_an_error_not_a_panic() {
    let target = backends("changed_column").await.remove(0);
    let db = Db::open(&target).await.unwrap();
    let run = new_run(&db, 1).await;
    let pair = db.claim_pair(run, "w", LONG).await.unwrap().unwrap();
    assert!(play(&db, &pair).await);
    assert_eq!(db.game_counts(run).await.unwrap().len(), 2);
    db.close().await;
    let Target::Sqlite(path) = &target else { unreachable!("the first target is the SQLite file") };
    sqlx::any::install_default_drivers();
    let url = format!("sqlite://{}", path.display());
    let change = |sql: &'static str, bind: i64| {
        let url = url.clone();
        async move {
            let pool = db::pool_options::<sqlx::Any>().max_connections(1).connect(&url).await.unwrap();
            sqlx::query(sql).bind(bind).execute(&pool).await.unwrap();
            pool.close().await;
        }
    };

    // One game's packed moves cut short.
    let db = Db::open(&target).await.unwrap();
    let cut = db.games_page(run, 0, 10, false).await.unwrap()[0].id;
    db.close().await;
    change("UPDATE packed_moves SET data = substr(data, 1, 6) WHERE game_id = ?", cut).await;
    let db = Db::open(&target).await.unwrap();
    match db.games_page(run, 0, 10, true).await {
        Err(error @ db::DbError::Moves { game, .. }) => {
            let line = error.to_string();
            assert_eq!(game, cut);
            assert!(line.contains(&format!("game {cut} of run {run}: its stored moves cannot be read (")), "{line}");
            assert!(!line.contains('\n'), "{line}");
        }
        other => panic!("{other:?}"),
    }
    db.close().await;

    // A number column holding text.
    change("UPDATE run_games SET plies = 'many' WHERE run_id = ?", run).await;
    let db = Db::open(&target).await.unwrap();
    match db.game_counts(run).await {
        Err(error @ db::DbError::Column { .. }) => {
            let line = error.to_string();
            assert!(line.contains("column 'plies' cannot be read") && !line.contains('\n'), "{line}");
        }
        other => panic!("{other:?}"),
    }
    db.close().await;
}

/// A database a newer arena migrated (a migration this one lacks) is
/// refused in one line that says so, on both backends.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_of_a_newer_arena_says_so() {
    for target in backends("newer").await {
        Db::open(&target).await.unwrap().close().await;
        let url = match &target {
            Target::Sqlite(path) => format!("sqlite://{}", path.display()),
            Target::Postgres(url) => url.clone(),
        };
        sqlx::any::install_default_drivers();
        let pool = db::pool_options::<sqlx::Any>().max_connections(1).connect(&url).await.unwrap();
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
             SELECT 99999, 'from the future', success, checksum, execution_time FROM _sqlx_migrations \
             WHERE version = 1",
        )
        .execute(&pool)
        .await
        .unwrap();
        pool.close().await;
        match Db::open(&target).await {
            Err(e @ db::DbError::Newer { version: 99999, .. }) => {
                assert!(e.to_string().contains("written by a newer arena"), "{e}");
            }
            other => panic!("{target}: {:?}", other.map(|_| "opened")),
        }
    }
}

/// A PostgreSQL database whose schema is current opens without the
/// migrator's advisory lock, a session's lock that a transaction pooler
/// (PgBouncer) can leave held on a server connection: opening waits for
/// that lock only when a migration is missing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_current_database_opens_without_the_migrators_lock() {
    for target in backends("lock").await {
        let Target::Postgres(url) = &target else { continue };
        Db::open(&target).await.unwrap().close().await;
        // The lock sqlx's migrator takes: a constant times the CRC-32 of the database's name.
        let name = url.rsplit('/').next().unwrap();
        let crc = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC).checksum(name.as_bytes());
        let lock = 0x3d32_ad9e_i64 * i64::from(crc);
        sqlx::any::install_default_drivers();
        let holder = db::pool_options::<sqlx::Any>().max_connections(1).connect(url).await.unwrap();
        let mut held = holder.acquire().await.unwrap();
        sqlx::query("SELECT pg_advisory_lock($1)").bind(lock).execute(&mut *held).await.unwrap();
        let opened = tokio::time::timeout(Duration::from_secs(60), Db::open(&target)).await;
        opened.expect("a current database opens while the lock is held").unwrap().close().await;
        // With a migration missing, the migrator runs and waits for the lock.
        sqlx::query("DELETE FROM _sqlx_migrations WHERE version = (SELECT MAX(version) FROM _sqlx_migrations)")
            .execute(&mut *held)
            .await
            .unwrap();
        let waited = tokio::time::timeout(Duration::from_secs(2), Db::open(&target)).await;
        assert!(waited.is_err(), "{target}: a database with a migration missing opened without the lock");
        sqlx::query("SELECT pg_advisory_unlock($1)").bind(lock).execute(&mut *held).await.unwrap();
        drop(held);
        holder.close().await;
    }
}

/// Several arena processes opening one fresh database at once (a run and
/// `arena show`, workers starting together) all open it: one migrating it
/// is never taken for another program's database by the others.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fresh_database_opened_at_once_by_several_is_arenas_for_all() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("storage-race");
    std::fs::create_dir_all(&dir).unwrap();
    for round in 0..20 {
        let file = dir.join(format!("race-{round}.db"));
        for suffix in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
        }
        let target = Target::Sqlite(file);
        let opens: Vec<_> = (0..4)
            .map(|_| {
                tokio::spawn({
                    let target = target.clone();
                    async move { Db::open(&target).await.map(|db| db.describe().to_string()) }
                })
            })
            .collect();
        for open in opens {
            if let Err(e) = open.await.unwrap() {
                assert!(matches!(e, db::DbError::Locked { .. }), "round {round}: {e}");
            }
        }
    }
}

/// A file another process holds locked against readers too (the exclusive
/// lock of a rollback journal's write: a fresh file being migrated, one
/// being compacted) beyond the busy timeout is refused as locked, the cause
/// named, not after the pool's 30 s retries as "pool timed out".
#[tokio::test]
async fn a_file_locked_against_readers_is_refused_as_locked() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("storage-locked");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("held.db");
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", file.display()));
    }
    Db::open(&Target::Sqlite(file.clone())).await.unwrap().close().await;
    let options = sqlx::sqlite::SqliteConnectOptions::new().filename(&file);
    let mut holder = sqlx::ConnectOptions::connect(&options).await.unwrap();
    for statement in ["PRAGMA journal_mode = DELETE", "BEGIN EXCLUSIVE"] {
        sqlx::Executor::execute(&mut holder, statement).await.unwrap();
    }
    let refused = Db::open(&Target::Sqlite(file)).await.unwrap_err();
    assert!(matches!(refused, db::DbError::Locked { .. }), "{refused}");
    sqlx::Executor::execute(&mut holder, "ROLLBACK").await.unwrap();
    sqlx::Connection::close(holder).await.unwrap();
}

/// Moves packed by the release before moves and PV words were indices among
/// the legal moves (packed format 1) are read as they are, counted as old,
/// and packed anew by `repack_batch` into values that read the same.
#[tokio::test]
async fn moves_of_the_older_packed_format_are_packed_anew_and_read_the_same() {
    // A game's moves packed in format 1 by that release (its unit test's sample).
    const FORMAT_1: &str = "01cd0128b52ffd20cdc50400c407060c070634094605feff01460509b90affff0322785c8401ffff0430303030b90a\
                            000b6238633620206137613871304e000120ffff05776569726401026534026535034e6633000002c3a90c0000\
                            0000ff01c0a90700a7a9070000fcff073e800200060a0f00c1c4070803000200000003010100000bb2f0ff9b1f\
                            010a0060980f029cf348667041c98caae370248a0a18e48c086006";
    // The same in format 2 (indices ranked by UCI code, one frame).
    const FORMAT_2: &str = "02ca0128b52ffd20caad040094070601100c040cff010c11b90affff0322785c8401ffff043030303010000b62\
                            38633620206137613871fe304e000120feffff05776569726401026534026535034e6633000002c3a90c000000\
                            00ff01c0a90700a7a9070000fcff073e800200060a0f00c1c4070803000200000003010100000bb2f0ff9b1f01\
                            0a0060980f029cf348667041c98caae370248a0a18e474086006";
    let bytes = |hex: &str| -> Vec<u8> {
        (0..hex.len()).step_by(2).map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap()).collect()
    };
    let (old, older) = (bytes(FORMAT_2), bytes(FORMAT_1));
    for target in backends("repack").await {
        let db = Db::open(&target).await.unwrap();
        let run = new_run(&db, 2).await;
        while let Some(pair) = db.claim_pair(run, "w1", LONG).await.unwrap() {
            assert!(play(&db, &pair).await);
        }
        let games = db.games_page(run, 0, 100, true).await.unwrap();
        assert_eq!(db.old_move_games().await.unwrap(), (0, 0), "{target}: new games are packed in this format");
        let url = match &target {
            Target::Sqlite(file) => format!("sqlite://{}", file.display()),
            Target::Postgres(url) => url.clone(),
        };
        sqlx::any::install_default_drivers();
        let raw = db::pool_options::<sqlx::Any>().max_connections(1).connect(&url).await.unwrap();
        let update = match target {
            Target::Sqlite(_) => "UPDATE packed_moves SET data = ? WHERE game_id = ?",
            Target::Postgres(_) => "UPDATE packed_moves SET data = $1 WHERE game_id = $2",
        };
        sqlx::query(update).bind(older.clone()).bind(games[1].id).execute(&raw).await.unwrap();
        sqlx::query(update).bind(old.clone()).bind(games[2].id).execute(&raw).await.unwrap();
        // Format 2's indices are read in the positions from the game's start:
        // the sample's, the standard position.
        let start = match target {
            Target::Sqlite(_) => "UPDATE games SET start_fen = ?, opening_moves = '' WHERE id = ?",
            Target::Postgres(_) => "UPDATE games SET start_fen = $1, opening_moves = '' WHERE id = $2",
        };
        let standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        sqlx::query(start).bind(standard).bind(games[2].id).execute(&raw).await.unwrap();
        raw.close().await;
        assert_eq!(db.old_move_games().await.unwrap(), (0, 2), "{target}");
        let before = db.games_page(run, 0, 100, true).await.unwrap();
        assert_eq!(before[0], games[0], "{target}");
        assert_eq!(before[1].record.moves.len(), 6, "{target}: the format 1 value read as it is");
        assert_eq!(before[2].record.moves, before[1].record.moves, "{target}: the format 2 value read as it is");

        let done = db.repack_batch(0, 10).await.unwrap();
        assert_eq!((done.games, done.last_game), (2, games[2].id), "{target}");
        assert!(done.old_bytes == (old.len() + older.len()) as u64 && done.packed_bytes > 0, "{target}: {done:?}");
        assert_eq!(db.old_move_games().await.unwrap(), (0, 0), "{target}");
        assert_eq!(db.repack_batch(done.last_game, 10).await.unwrap().games, 0, "{target}");
        assert_eq!(db.games_page(run, 0, 100, true).await.unwrap(), before, "{target}: the same moves");
        db.close().await;
    }
}

/// The runs list reads every run's counts and live slots in a statement or
/// two: the same as asking run by run, also past one statement's share of
/// ids, and a run without either is absent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counts_and_slots_of_many_runs_are_each_runs_own() {
    for target in backends("many_runs").await {
        let db = Db::open(&target).await.unwrap();
        let (played, holding, idle) = (new_run(&db, 2).await, new_run(&db, 2).await, new_run(&db, 1).await);
        for _ in 0..2 {
            let pair = db.claim_pair(played, "box:1/0", LONG).await.unwrap().unwrap();
            assert!(play(&db, &pair).await);
        }
        let first = db.claim_pair(holding, "box:1/0", LONG).await.unwrap().unwrap();
        assert!(play(&db, &first).await);
        db.claim_pair(holding, "box:2/1", LONG).await.unwrap().unwrap();

        // Ids past the first statement's share, most of them of no run.
        let ids: Vec<i64> = (1..=1_200).rev().collect();
        let counts = db.pairing_counts_of(&ids).await.unwrap();
        let slots = db.slots_of(&ids).await.unwrap();
        for run in [played, holding] {
            assert_eq!(counts[&run], db.pairing_counts(run).await.unwrap(), "{target}: run {run}");
        }
        assert_eq!(counts[&played][0].tally.wins + counts[&played][0].tally.draws, 4, "{target}");
        assert_eq!(counts.len(), 2, "{target}: {counts:?}");
        assert_eq!(slots.get(&holding), Some(&vec!["box:2/1".to_string()]), "{target}");
        assert_eq!(slots.len(), 1, "{target}: {slots:?}");
        assert!(!db.slots_of(&[idle]).await.unwrap().contains_key(&idle));
        db.close().await;
    }
}
