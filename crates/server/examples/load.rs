//! A load test of a running `granary serve`: CLIENTS concurrent clients send QUERIES requests in
//! all (queries of random awari positions of FEWEST..=MOST seeds, default 1..=16, with some
//! `show` and `variants`), and the run prints errors, throughput and latency percentiles. Every
//! request must be answered 200: the server must hold awari 6-pit tables to MOST seeds
//! (`scripts/bench-server.sh` sets it up).
//!
//! `cargo run --release -p granary-server --example load -- URL [CLIENTS] [QUERIES] [FEWEST MOST]`

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Empty};
use hyper_util::client::legacy::Client;
use hyper_util::rt::TokioExecutor;

/// A random awari position of `fewest..=most` seeds, written out (xorshift; no crate needed).
fn position(state: &mut u64, fewest: u64, most: u64) -> String {
    let mut next = || {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    };
    let total = fewest + next() % (most - fewest + 1);
    let mut pits = [0u64; 12];
    for _ in 0..total {
        pits[(next() % 12) as usize] += 1;
    }
    let side = |p: &[u64]| p.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
    format!("{}/{}", side(&pits[..6]), side(&pits[6..]))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(base) = args.get(1).cloned() else {
        eprintln!("usage: load URL [CLIENTS] [QUERIES] [FEWEST MOST]");
        std::process::exit(2);
    };
    let clients: u64 = args.get(2).map_or(200, |a| a.parse().expect("CLIENTS"));
    let total: u64 = args.get(3).map_or(2000, |a| a.parse().expect("QUERIES"));
    let fewest: u64 = args.get(4).map_or(1, |a| a.parse().expect("FEWEST"));
    let most: u64 = args.get(5).map_or(16, |a| a.parse().expect("MOST"));
    assert!(1 <= fewest && fewest <= most, "1 <= FEWEST <= MOST");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async move {
        let client: Client<_, Empty<bytes::Bytes>> =
            Client::builder(TokioExecutor::new()).build_http();
        let next = Arc::new(AtomicU64::new(0));
        let errors = Arc::new(AtomicU64::new(0));
        let started = Instant::now();
        let mut tasks = Vec::new();
        for c in 0..clients {
            let (client, next, errors, base) =
                (client.clone(), Arc::clone(&next), Arc::clone(&errors), base.clone());
            tasks.push(tokio::spawn(async move {
                let mut seed = 0x9E37_79B9_7F4A_7C15 ^ (c + 1);
                let mut latencies = Vec::new();
                loop {
                    let i = next.fetch_add(1, Relaxed);
                    if i >= total {
                        break;
                    }
                    let uri = match i % 10 {
                        0 => format!("{base}/api/v1/variants"),
                        1 => format!("{base}/api/v1/show?game=oware&rules=awari&moves=1,2,3"),
                        _ => format!(
                            "{base}/api/v1/query?game=oware&rules=awari&position={}",
                            position(&mut seed, fewest, most)
                        ),
                    };
                    let sent = Instant::now();
                    let ok = match client.get(uri.parse().unwrap()).await {
                        Ok(response) => {
                            let status = response.status();
                            let body = response.into_body().collect().await;
                            status.is_success() && body.is_ok()
                        }
                        Err(_) => false,
                    };
                    latencies.push(sent.elapsed());
                    if !ok {
                        errors.fetch_add(1, Relaxed);
                    }
                }
                latencies
            }));
        }
        let mut latencies: Vec<Duration> = Vec::new();
        for t in tasks {
            latencies.extend(t.await.unwrap());
        }
        let seconds = started.elapsed().as_secs_f64();
        latencies.sort();
        let pct = |p: f64| {
            let i = ((latencies.len() as f64 * p).ceil() as usize).clamp(1, latencies.len()) - 1;
            latencies[i].as_secs_f64() * 1e3
        };
        println!(
            "{} requests from {clients} concurrent clients in {seconds:.2} s ({:.0} requests/s); errors {}",
            latencies.len(),
            latencies.len() as f64 / seconds,
            errors.load(Relaxed)
        );
        println!(
            "latency ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
            pct(0.5),
            pct(0.9),
            pct(0.99),
            pct(1.0)
        );
        if errors.load(Relaxed) > 0 {
            std::process::exit(1);
        }
    });
}
