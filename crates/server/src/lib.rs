//! `granary serve`: perfect play on the web, over the `granary` library.
//!
//! - [`api`]: the JSON API under `/api/v1/` (variants, query, show, Bao's engine move);
//! - [`params`]: query strings checked into the library's [`granary::Setup`], every fault a 400;
//! - [`page`]: the interactive page at `/`, its files embedded in the binary.
//!
//! The table directory is opened once ([`granary::Tablebase`]) and its memory maps are shared by
//! every request. Work that may take long (table reads, searches, the Bao engine) runs on the
//! blocking pool, at most [`Config::max_searches`] at a time: a request that finds them all busy
//! gets 503 with `Retry-After`, and one that takes longer than [`Config::timeout`] gets 503 too.

pub mod api;
pub mod page;
pub mod params;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use tokio::sync::Semaphore;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen; loopback unless the user chooses otherwise.
    pub bind: SocketAddr,
    /// The table directory.
    pub dir: PathBuf,
    /// Searches (and table reads) running at once; more wait in a queue.
    pub max_searches: usize,
    /// Requests waiting for a search slot; more are answered 503 at once.
    pub max_queue: usize,
    /// Longest a request may work before it is answered 503.
    pub timeout: Duration,
}

impl Config {
    /// Defaults: 127.0.0.1:8080, one search a core, 1,024 waiting, 10 s a request.
    #[must_use]
    pub fn new(dir: PathBuf) -> Config {
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            dir,
            max_searches: std::thread::available_parallelism().map_or(2, std::num::NonZero::get),
            max_queue: 1024,
            timeout: Duration::from_secs(10),
        }
    }
}

/// What every request shares.
#[derive(Debug)]
pub struct State {
    pub tablebase: granary::Tablebase,
    pub searches: Arc<Semaphore>,
    /// Requests waiting for a slot now, and the most allowed.
    pub waiting: std::sync::atomic::AtomicUsize,
    pub max_queue: usize,
    pub timeout: Duration,
}

/// The whole application: the API and the page.
pub fn router(config: &Config) -> Router {
    let state = Arc::new(State {
        tablebase: granary::Tablebase::new(config.dir.clone()),
        searches: Arc::new(Semaphore::new(config.max_searches.max(1))),
        waiting: std::sync::atomic::AtomicUsize::new(0),
        max_queue: config.max_queue,
        timeout: config.timeout,
    });
    Router::new()
        .merge(api::routes())
        .merge(page::routes())
        .fallback(api::not_found)
        .with_state(state)
}

/// Serves until Ctrl-C; `ready` hears the address once listening.
///
/// # Errors
/// If the address cannot be bound.
pub async fn serve(config: Config, ready: impl FnOnce(SocketAddr)) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(config.bind).await?;
    ready(listener.local_addr()?);
    axum::serve(listener, router(&config))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
