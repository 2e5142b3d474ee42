//! Load on `arena serve`: `cargo run --release -p arena --example serve_load
//! -- ADDRESS PATH [REQUESTS] [AT_ONCE] [ROUNDS]` sends REQUESTS (200) GET
//! requests for PATH, AT_ONCE (20) at a time, ROUNDS (1) times, and prints
//! each round's latency (median, p99, max) and status counts. Used by
//! `bench/serve_load.sh`.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn get(address: SocketAddr, path: &str) -> (u16, Duration) {
    let start = Instant::now();
    let Ok(mut stream) = TcpStream::connect(address) else { return (0, start.elapsed()) };
    let request = format!("GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    let mut response = Vec::new();
    if stream.write_all(request.as_bytes()).is_err() || stream.read_to_end(&mut response).is_err() {
        return (0, start.elapsed());
    }
    let text = String::from_utf8_lossy(&response[..response.len().min(20)]).into_owned();
    (text.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0), start.elapsed())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(address), Some(path)) = (args.first().and_then(|a| a.parse::<SocketAddr>().ok()), args.get(1)) else {
        eprintln!("usage: serve_load ADDRESS PATH [REQUESTS] [AT_ONCE] [ROUNDS]");
        std::process::exit(2);
    };
    let number = |i: usize, default: usize| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let (requests, at_once, rounds) = (number(2, 200), number(3, 20).max(1), number(4, 1));
    for round in 1..=rounds {
        let next = Arc::new(AtomicUsize::new(0));
        let results = Arc::new(Mutex::new(Vec::with_capacity(requests)));
        let started = Instant::now();
        let threads: Vec<_> = (0..at_once)
            .map(|_| {
                let (next, results, path) = (next.clone(), results.clone(), path.clone());
                std::thread::spawn(move || {
                    while next.fetch_add(1, Ordering::Relaxed) < requests {
                        let result = get(address, &path);
                        results.lock().unwrap().push(result);
                    }
                })
            })
            .collect();
        for thread in threads {
            let _ = thread.join();
        }
        let wall = started.elapsed();
        let results = results.lock().unwrap();
        let mut latencies: Vec<Duration> = results.iter().map(|r| r.1).collect();
        latencies.sort();
        let at = |q: f64| latencies[((latencies.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1000.0;
        let ok = results.iter().filter(|r| r.0 == 200).count();
        println!(
            "round {round}: {} requests, {at_once} at once, {ok} answered 200, in {:.2} s; latency ms: median {:.1}, p99 {:.1}, max {:.1}",
            results.len(),
            wall.as_secs_f64(),
            at(0.5),
            at(0.99),
            at(1.0)
        );
    }
}
