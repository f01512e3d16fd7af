//! `granary serve`: perfect play on the web, over the `granary` library.
//!
//! - [`api`]: the JSON API under `/api/v1/`: its errors, variants and show;
//! - [`bao`]: Bao's engine move and every move's evaluation;
//! - [`query`]: perfect play in a Kalah or Oware position, a long search followed as a job;
//! - [`described`]: a position's answer as the API writes it;
//! - [`review`]: a game reviewed against perfect play, as a job;
//! - [`jobs`]: long answers as jobs a client follows and may cancel;
//! - [`kept`]: answers kept for later requests, bounded;
//! - [`prepare`]: the tables a review of the default game needs, built in the background;
//! - [`error`]: the API's error answer, `{"error": "..."}` with its status;
//! - [`params`]: query strings and JSON bodies read into each endpoint's request struct, every
//!   fault a 400;
//! - [`pool`]: bounded pools of work off the async runtime, each with its own queue;
//! - [`search`]: Kalah positions beyond the tables, searched within a limit and kept;
//! - [`tables`]: the tables present of a game, and the variant the page's game selector shows;
//! - [`page`]: the interactive page at `/`, its files embedded in the binary;
//! - [`route`]: routes declared once, each module's table building its router and the API's
//!   description;
//! - [`openapi`]: the API's description, OpenAPI 3.1, generated from the handlers' types and
//!   served at `/api/v1/openapi.json`.
//!
//! The table directory is opened once ([`granary::Tablebase`]) and its memory maps are shared by
//! every request. Work that may take long runs in one of two pools ([`pool::Pool`]), each with
//! its own slots and its own queue: searches (Kalah searches beyond the tables, the Bao engine),
//! at most [`Config::max_searches`] at a time, each on a thread of its own; and small work
//! (positions shown, answers read from the tables), at most [`Config::max_small`] at a time, on
//! tokio's blocking pool. A small request never waits behind a search. A request that finds its
//! pool's queue full gets 503 with `Retry-After`, and one that takes longer than
//! [`Config::timeout`] gets 503 too; the list of variants and tables is answered at once.
//! A Kalah position the tables do not cover is searched over them if the cost model expects the
//! search to take at most [`Config::search_seconds`]; the search goes on past the request's
//! timeout (the request answered with a job that follows it, [`query`]) and its answer is kept
//! ([`Config::cache_entries`] answers at most). Serving begins
//! with the search of the page's opening positions, Kalah(6,4) in both capture rules, where it is
//! within the limit, once the tables built in the background are complete ([`prepare`]).

pub mod api;
pub mod bao;
pub mod described;
pub mod error;
pub mod jobs;
pub mod kept;
pub mod openapi;
pub mod page;
pub mod params;
pub mod pool;
pub mod prepare;
pub mod query;
pub mod review;
pub mod route;
pub mod search;
pub mod tables;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;

use crate::pool::{Pool, Threads};

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen; loopback unless the user chooses otherwise.
    pub bind: SocketAddr,
    /// The table directory.
    pub dir: PathBuf,
    /// Searches (Kalah beyond the tables, the Bao engine) running at once; more wait in a queue.
    pub max_searches: usize,
    /// Small pieces of work (positions shown, answers read from the tables) running at once;
    /// more wait in a queue of their own.
    pub max_small: usize,
    /// Requests waiting in each queue; more are answered 503 at once.
    pub max_queue: usize,
    /// Longest a request may work before it is answered 503.
    pub timeout: Duration,
    /// Longest search (estimated by the cost model, `granary calibrate`) of a Kalah position
    /// beyond the tables; longer ones are refused with 422.
    pub search_seconds: f64,
    /// Searched answers kept for later requests.
    pub cache_entries: usize,
    /// Long answers (reviews) queued or running at once; more are answered 503.
    pub max_jobs: usize,
    /// A job nobody has asked about for this long is cancelled; a finished one is forgotten.
    pub job_idle: Duration,
    /// Finished reviews kept for later requests.
    pub reviews_kept: usize,
    /// The engine's budget a reviewed ply beyond what is answered exactly; `None`: such a ply
    /// has no estimate, only its reason.
    pub review_estimate: Option<granary::estimate::Budget>,
    /// Kalah(6)'s layers up to this many seeds, both capture rules, built in the background
    /// when serving begins where they are missing ([`prepare`]); `None`: nothing is built.
    pub prepare_seeds: Option<u32>,
    /// Bytes of memory for the values of layers with filled don't-cares, held from the bottom
    /// up by a thread of their own as serving begins ([`granary::Tablebase::hold_filled`]): the
    /// layers above then read them directly. 0: none held, every read settles.
    pub filled_memory: u64,
}

impl Config {
    /// Defaults: 127.0.0.1:8080, one search a core, two small pieces of work a core, 1,024
    /// waiting in each queue, 10 s a request, searches estimated at up to 60 s, 4,096 searched
    /// answers kept, 32 jobs queued or running, cancelled after 60 s unasked about, 256
    /// reviews kept, the engine's estimates of a reviewed ply beyond the exact reach in
    /// [`granary::review::ESTIMATE_TIME`], nothing built in the background (`granary serve`
    /// builds [`prepare::REVIEW_SEEDS`]), no filled layer's values held.
    #[must_use]
    pub fn new(dir: PathBuf) -> Config {
        let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
        Config {
            bind: SocketAddr::from(([127, 0, 0, 1], 8080)),
            dir,
            max_searches: cores,
            max_small: 2 * cores,
            max_queue: 1024,
            timeout: Duration::from_secs(10),
            search_seconds: 60.0,
            cache_entries: 4096,
            max_jobs: 32,
            job_idle: Duration::from_secs(60),
            reviews_kept: 256,
            review_estimate: Some(granary::estimate::Budget::Time(
                granary::review::ESTIMATE_TIME,
            )),
            prepare_seeds: None,
            filled_memory: 0,
        }
    }
}

/// What every request shares.
#[derive(Debug)]
pub struct State {
    pub tablebase: granary::Tablebase,
    /// Searches: Kalah beyond the tables, the Bao engine; a thread of its own each.
    pub searches: Pool,
    /// Small work: positions shown, answers read from the tables.
    pub small: Pool,
    pub timeout: Duration,
    /// Searches beyond the tables, and their answers.
    pub solved: search::Searches,
    /// Long answers (reviews) as jobs, and the reviews they finished.
    pub jobs: jobs::Jobs,
    /// The engine's budget a reviewed ply beyond what is answered exactly.
    pub review_estimate: Option<granary::estimate::Budget>,
    /// The tables built in the background for reviews, and how far.
    pub preparing: prepare::Preparation,
    /// What a proof search proves of each Bao rule set's start (`None` if nothing).
    pub start_proofs: std::sync::Mutex<std::collections::HashMap<String, Option<bao::Proof>>>,
}

/// What every request shares, for `config`. The cost model is the one `granary calibrate`
/// saved, else the defaults.
#[must_use]
pub fn state(config: &Config) -> Arc<State> {
    let model = granary::plan::CostModel::load().unwrap_or_default();
    let cores = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    Arc::new(State {
        tablebase: granary::Tablebase::new(config.dir.clone()),
        searches: Pool::new(
            config.max_searches,
            config.max_queue,
            Threads::Own("granary-search"),
        ),
        small: Pool::new(config.max_small, config.max_queue, Threads::Blocking),
        timeout: config.timeout,
        solved: search::Searches::new(config.cache_entries, config.search_seconds, model, cores),
        jobs: jobs::Jobs::new(
            jobs::Limits {
                max_jobs: config.max_jobs,
                idle: config.job_idle,
            },
            config.reviews_kept,
        ),
        review_estimate: config.review_estimate,
        preparing: prepare::Preparation::default(),
        start_proofs: std::sync::Mutex::new(std::collections::HashMap::new()),
    })
}

/// The whole application: the API and the page.
pub fn router(config: &Config) -> Router {
    app(state(config))
}

/// Every route of the JSON API, each module's table: what [`app`] serves beside the page, and
/// what the API's description ([`openapi`]) names.
#[must_use]
pub fn api_routes() -> Vec<route::Route> {
    [
        api::routes(),
        bao::routes(),
        query::routes(),
        review::routes(),
        jobs::routes(),
        tables::routes(),
        openapi::routes(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The application over `state`.
pub fn app(state: Arc<State>) -> Router {
    route::router(api_routes())
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
    let state = state(&config);
    tokio::spawn(sweep(Arc::clone(&state)));
    prepare::start(&state, config.prepare_seeds);
    hold_filled(&state, config.filled_memory);
    axum::serve(listener, app(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}

/// Holds the values of filled layers within `memory` bytes on a thread of its own
/// ([`Config::filled_memory`]), saying on standard error what it held (if anything), or why it
/// stopped.
pub fn hold_filled(state: &Arc<State>, memory: u64) -> Option<std::thread::JoinHandle<()>> {
    if memory == 0 {
        return None;
    }
    let shared = Arc::clone(state);
    std::thread::Builder::new()
        .name("granary-hold".into())
        .spawn(move || {
            let began = std::time::Instant::now();
            match shared.tablebase.hold_filled(memory) {
                Ok(0) => {}
                Ok(held) => eprintln!(
                    "granary: filled layers' values held in memory: {} in {:.1} s",
                    granary::units::human_bytes(held),
                    began.elapsed().as_secs_f64()
                ),
                Err(err) => eprintln!("granary: filled layers' values not held: {err}"),
            }
        })
        .ok()
}

/// Cancels the jobs nobody asks about any more, and forgets the finished ones, once a second
/// ([`jobs::Jobs::sweep`]).
pub async fn sweep(state: Arc<State>) {
    let mut every = tokio::time::interval(Duration::from_secs(1));
    loop {
        every.tick().await;
        state.jobs.sweep(std::time::Instant::now());
    }
}
