//! Benchmark (issue #37): how many workers one PostgreSQL server carries.
//!
//! `cargo run --release -p arena --example fleet -- postgres://USER:PASSWORD@HOST:PORT/DB [N,N,…] [PAIRS] [RUNS]`
//! (defaults: 1,10,100 workers; 2,000 pairs each; 1 run)
//!
//! For each N: a scratch database (`arena_fleet`) with RUNS runs of PAIRS
//! pairs in all (worker k serves run k mod RUNS: with RUNS = N no two
//! workers share a run's row locks, which tells the cost of those locks
//! from the cost of the server's work), and N simulated workers, each with its own connections (a `Db` of
//! its own, as separate machines have), each doing what `arena worker` does
//! with a pair — claim, store the first game, finish with the second — with
//! recorded games and no engines, until no pair is left. The games are
//! packed once before the workers start, as a real fleet packs its games on
//! the workers' own machines: these 2 cores are the server's, not spent
//! packing moves. Prints finished
//! pairs per second and the p50 / p99 of a claim and of a store, then checks
//! the final counts: every pair done once, two games each, the tallies'
//! games twice the pairs. As `arena worker` does, a simulated worker whose
//! claim or store fails (a connection refused at the server's
//! `max_connections`, a pool that waited too long) gives the pair back,
//! waits a second and goes on; the failures are counted and the first named.
//! A pair is leased for 60 s, as a worker's is (its lease is not renewed
//! here: a pair held longer is taken over by another worker, which the
//! final counts would show).
//!
//! With `ARENA_FLEET_VIA=postgres://USER:PASSWORD@HOST:PORT` the workers
//! connect there (a pooler such as PgBouncer in front of the server, same
//! database name) while the scratch database is made and checked directly;
//! `bench/fleet.sh` starts a PgBouncer and runs both ways.

use std::sync::Arc;
use std::time::{Duration, Instant};

use db::{Db, PackedGame, Target};
use model::RunStatus;

#[path = "shared/recorded.rs"]
mod recorded;

/// What one simulated worker measured.
#[derive(Default)]
struct Times {
    claims: Vec<f64>,
    stores: Vec<f64>,
    pairs: u64,
    /// Claims, stores and connections that failed (then retried).
    failures: u64,
    first_failure: Option<String>,
}

impl Times {
    fn failed(&mut self, what: String) {
        self.failures += 1;
        self.first_failure.get_or_insert(what);
    }
}

/// How long a pair is leased, as `arena worker` leases it.
const LEASE: Duration = Duration::from_secs(60);

/// How long a simulated worker waits after a failure.
const PAUSE: Duration = Duration::from_secs(1);

fn ms_since(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1e3
}

/// One simulated worker: pairs until none is left.
async fn worker(target: Target, run: i64, name: String, games: Arc<Vec<[PackedGame; 2]>>) -> Times {
    let mut times = Times::default();
    let db = loop {
        match Db::open(&target).await {
            Ok(db) => break db,
            Err(e) => {
                times.failed(format!("connecting: {e}"));
                tokio::time::sleep(PAUSE).await;
            }
        }
    };
    loop {
        let start = Instant::now();
        let pair = match db.claim_pair(run, &name, LEASE).await {
            Ok(Some(pair)) => pair,
            // Nothing to claim: done, unless pairs in flight may come back
            // (a worker that could not give one back), as a worker idles.
            Ok(None) => match db.run(run).await {
                Ok(info) if info.pairs_done < info.pairs_planned => {
                    tokio::time::sleep(PAUSE).await;
                    continue;
                }
                Ok(_) => break,
                Err(e) => {
                    times.failed(format!("reading the run: {e}"));
                    tokio::time::sleep(PAUSE).await;
                    continue;
                }
            },
            Err(e) => {
                times.failed(format!("claiming: {e}"));
                tokio::time::sleep(PAUSE).await;
                continue;
            }
        };
        times.claims.push(ms_since(start));
        let k = pair.plan.index as usize;
        let [first, second] = &games[k % games.len()];
        let start = Instant::now();
        if let Err(e) = db.save_first_game_packed(&pair, first).await {
            times.failed(format!("storing the first game of pair {k}: {e}"));
            let _ = db.release_pair(&pair).await;
            tokio::time::sleep(PAUSE).await;
            continue;
        }
        times.stores.push(ms_since(start));
        let start = Instant::now();
        match db.finish_pair_packed(&pair, second, &db::NoSprt, None).await {
            Ok(Some(_)) => {}
            Ok(None) => {
                // The lease ran out and another worker took the pair over.
                times.failed(format!("finishing pair {k}: its lease had run out"));
                continue;
            }
            Err(e) => {
                times.failed(format!("finishing pair {k}: {e}"));
                let _ = db.release_pair(&pair).await;
                tokio::time::sleep(PAUSE).await;
                continue;
            }
        }
        times.stores.push(ms_since(start));
        times.pairs += 1;
    }
    db.close().await;
    times
}

fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len()) - 1]
}

async fn one_size(server: &Target, workers: usize, pairs: usize, runs: usize, games: &Arc<Vec<[PackedGame; 2]>>) {
    let target = db::scratch_postgres(server, "arena_fleet").await.expect("scratch database");
    let db = Db::open(&target).await.expect("open");
    let mut ids = Vec::new();
    for _ in 0..runs {
        ids.push(db.create_run(&recorded::spec(), &recorded::plan(pairs / runs), "localhost").await.expect("run"));
    }
    let pairs = pairs / runs * runs;
    let through = via(&target);
    let start = Instant::now();
    let tasks: Vec<_> = (0..workers)
        .map(|w| tokio::spawn(worker(through.clone(), ids[w % runs], format!("sim{w}:1"), games.clone())))
        .collect();
    let mut all = Times::default();
    for task in tasks {
        let times = task.await.expect("worker task");
        all.claims.extend(times.claims);
        all.stores.extend(times.stores);
        all.pairs += times.pairs;
        all.failures += times.failures;
        if let Some(first) = times.first_failure {
            all.first_failure.get_or_insert(first);
        }
    }
    let seconds = start.elapsed().as_secs_f64();
    all.claims.sort_by(f64::total_cmp);
    all.stores.sort_by(f64::total_cmp);
    // The final counts, read back: nothing lost, nothing counted twice.
    let (mut pairs_done, mut stored, mut tallied) = (0, 0, 0);
    for &run in &ids {
        let info = db.run(run).await.expect("run");
        pairs_done += info.pairs_done;
        stored += info.games;
        tallied += db.pairing_counts(run).await.expect("tallies").iter().map(|c| c.tally.games()).sum::<u64>();
    }
    let exact = pairs_done == pairs as i64 && stored == 2 * pairs as i64 && tallied == 2 * pairs as u64;
    println!(
        "| {workers} | {runs} | {} | {:.0} | {:.1} / {:.1} | {:.1} / {:.1} | {} pairs, {} games, tallies {tallied} games{} |",
        all.pairs,
        all.pairs as f64 / seconds,
        quantile(&all.claims, 0.5),
        quantile(&all.claims, 0.99),
        quantile(&all.stores, 0.5),
        quantile(&all.stores, 0.99),
        pairs_done,
        stored,
        if exact { ": exact" } else { ": NOT EXACT" },
    );
    if let Some(first) = &all.first_failure {
        println!("|   | | {} failures retried; the first: {first} | | | | |", all.failures);
    }
    for &run in &ids {
        db.set_status(run, RunStatus::Finished, None).await.expect("status");
    }
    db.close().await;
}

/// The scratch database `target` as the workers reach it: through
/// `ARENA_FLEET_VIA`'s host and port when it is set.
fn via(target: &Target) -> Target {
    let via = std::env::var("ARENA_FLEET_VIA").unwrap_or_default();
    if via.is_empty() {
        return target.clone();
    }
    let Target::Postgres(direct) = target else { return target.clone() };
    let mut url: url::Url = direct.parse().expect("the scratch database's URL");
    let pooler: url::Url = via.parse().expect("ARENA_FLEET_VIA: a postgres:// URL");
    url.set_host(pooler.host_str()).expect("ARENA_FLEET_VIA's host");
    url.set_port(pooler.port()).expect("ARENA_FLEET_VIA's port");
    Target::Postgres(url.to_string())
}

fn main() {
    let mut args = std::env::args().skip(1);
    let server: Target = args.next().expect("a postgres:// URL").parse().expect("a postgres:// URL");
    let sizes: Vec<usize> = args
        .next()
        .map(|list| list.split(',').map(|n| n.parse().expect("N,N,…")).collect())
        .unwrap_or_else(|| vec![1, 10, 100]);
    let pairs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1).max(1);
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("runtime");
    let dir = std::env::temp_dir().join(format!("arena-fleet-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    runtime.block_on(async {
        let recorded = recorded::games(&dir).await;
        // Pair k plays recorded games 2k and 2k + 1 (cyclically), A White first.
        let games: Vec<[PackedGame; 2]> = (0..recorded.len())
            .map(|k| {
                let pack = |game| PackedGame::new(game).expect("pack");
                [pack(recorded::named(&recorded, 2 * k, "a", "b")), pack(recorded::named(&recorded, 2 * k + 1, "b", "a"))]
            })
            .collect();
        let games = Arc::new(games);
        println!(
            "| workers | runs | pairs finished | pairs per second | claim p50 / p99 ms | store p50 / p99 ms | final counts |"
        );
        println!("|---:|---:|---:|---:|---|---|---|");
        for workers in sizes {
            one_size(&server, workers, pairs, runs.min(workers), &games).await;
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
}
