//! `GET /api/v1/query`: perfect play in a Kalah or Oware position, as the library's rule of what
//! is answered has it ([`granary::plan::reach`], with the server's search limit): from the
//! tables where they cover it, else (Kalah) kept from an earlier search or searched over them
//! ([`crate::search`]).
//!
//! - 200 with the answer ([`crate::described`]): from the tables, kept, or searched within the
//!   request limit;
//! - 202 with `Location: /api/v1/jobs/{id}` and a job's report: the search outlasts the request.
//!   The job (kind `query`, [`crate::jobs`]) follows the search and holds the answer once done;
//!   the search is shared by every request for the position and goes on to its end, its answer
//!   kept, whether or not the job is followed or cancelled;
//! - 200 with the engine's estimate for a position beyond what the server answers exactly
//!   ([`crate::described::EstimateAnswer`]: `estimate`, never `value`), searched for `ms` in
//!   the searches' pool ([`granary::Tablebase::estimate`]);
//! - 400 for a request that is wrong; 503 with `Retry-After` for a full queue or as many jobs as
//!   the server takes.

use std::sync::Arc;
use std::time::Duration;

use aide::generate::GenContext;
use aide::openapi::Operation;
use axum::Json;
use axum::extract::State as Shared;
use axum::response::{IntoResponse, Response};
use granary::plan::Reach;
use granary::{GameName, Mancala, Query, Setup};
use schemars::JsonSchema;
use serde::Deserialize;
use tokio::sync::watch;

use crate::State;
use crate::api::blocking;
use crate::described::{EstimateAnswer, PositionAnswer, described};
use crate::error::{ApiError, Failure, internal};
use crate::jobs::{JobResult, Report};
use crate::params::{self, Params};
use crate::route::{self, Doc, Route};
use crate::search::{Follower, Leader, Outcome, Plan, Searches};

/// The query's route ([`crate::route`]).
pub fn routes() -> Vec<Route> {
    vec![Route::get(
        "/api/v1/query",
        query,
        Doc {
            id: "query",
            summary: "Perfect play in a Kalah or Oware position.",
            description: "The position's value, final score and result, every move with its \
                          value and what it leads to, and the principal variation: from the \
                          tables where they cover the position, else (Kalah) from a search over \
                          them when the cost model expects it within the server's limit; \
                          beyond that, the engine's estimate, searched for `ms`, in fields of \
                          its own (`estimate`, with its depth and time; never `value`). A \
                          search that outlasts the request limit is answered 202 with a job's \
                          report and `Location: /api/v1/jobs/{id}`: the job holds the answer \
                          once the search ends. The search goes on to its end whether or not the \
                          job is followed, and its answer is kept.",
            answer: "The position answered.",
            failures: &[
                Failure::BAD_REQUEST,
                Failure::INTERNAL,
                Failure::UNAVAILABLE,
            ],
        },
    )]
}

/// `GET /api/v1/query`'s parameters.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(transform = params::two_row)]
pub struct QueryParams {
    #[serde(default, deserialize_with = "params::text")]
    pub game: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub rules: Option<String>,
    #[serde(default, deserialize_with = "params::text")]
    pub sweep: Option<String>,
    #[serde(default, deserialize_with = "params::whole")]
    pub pits: Option<usize>,
    #[serde(default, deserialize_with = "params::whole")]
    pub seeds: Option<u32>,
    #[serde(default, deserialize_with = "params::text")]
    #[schemars(with = "String")]
    pub position: Option<String>,
    /// The engine's time for a position beyond what is answered exactly.
    #[serde(default, deserialize_with = "params::whole")]
    pub ms: Option<u64>,
}

async fn query(
    Shared(state): Shared<Arc<State>>,
    Params(asked): Params<QueryParams>,
) -> Result<QueryReply, ApiError> {
    let game = params::game(asked.game.as_deref()).map_err(ApiError::bad)?;
    if game == GameName::Bao {
        return Err(ApiError::bad(
            "bao has no tables: use /api/v1/show for its moves and /api/v1/bao/move for the engine's",
        ));
    }
    let setup = Setup {
        pits: asked.pits,
        seeds: asked.seeds,
        rules: asked.rules,
        sweep: asked.sweep,
        ..Setup::default()
    };
    let millis = params::millis(asked.ms).map_err(ApiError::bad)?;
    let mancala = setup.mancala(game, asked.position.as_deref())?;
    match answer(&state, &mancala).await? {
        Answered::Now(query) => Ok(QueryReply::Done(Box::new(PositionAnswer::Exact(
            described(&mancala, &query),
        )))),
        Answered::Later { receiver, estimate } => {
            follow(&state, mancala, receiver, estimate).map(QueryReply::Running)
        }
        Answered::Beyond(why) => {
            let time = Duration::from_millis(millis);
            let estimate = blocking(&state, &state.searches, move |s| {
                Ok(s.tablebase.estimate(&mancala, time, None)?)
            })
            .await?;
            Ok(QueryReply::Done(Box::new(PositionAnswer::Estimate(
                EstimateAnswer {
                    estimate,
                    beyond: why,
                },
            ))))
        }
    }
}

/// How a position is answered: now, by a search that outlasts the request, or not exactly.
#[derive(Debug)]
pub enum Answered {
    Now(Arc<Query>),
    /// Beyond what the server answers exactly: why, in a plain clause.
    Beyond(String),
    /// Still searching once the request limit passed: its outcome's channel, and the search's
    /// estimate in seconds.
    Later {
        receiver: watch::Receiver<Option<Outcome>>,
        estimate: f64,
    },
}

/// The answer for `game`'s position, as the library's rule of what is answered beyond the tables
/// has it ([`granary::plan::reach`], with the server's search limit): from the tables where they
/// cover it, else (Kalah) kept from an earlier search, or searched (joining the search of the
/// position running already), waiting for it up to the request limit.
///
/// # Errors
/// 503 for a full queue; 500 for damaged tables.
pub async fn answer(state: &Arc<State>, game: &Mancala) -> Result<Answered, ApiError> {
    let present = state.tablebase.complete_up_to(game.kind());
    let estimate = match state.solved.reach(game, present) {
        Reach::Tables => {
            let game = *game;
            return blocking(state, &state.small, move |s| {
                Ok(Arc::new(s.tablebase.query(&game)?))
            })
            .await
            .map(Answered::Now);
        }
        Reach::Beyond(why) => return Ok(Answered::Beyond(why.to_string())),
        Reach::Search { seconds, .. } => seconds,
    };
    let deadline = tokio::time::Instant::now() + state.timeout;
    let mut receiver = match state.solved.plan(game, present, estimate) {
        Plan::Kept(query) => return Ok(Answered::Now(query)),
        Plan::Running(receiver) => receiver,
        Plan::Start(leader) => {
            let receiver = leader.receiver.clone();
            start(state, *game, leader, deadline).await?;
            receiver
        }
    };
    let heard = tokio::time::timeout_at(deadline, receiver.wait_for(Option::is_some))
        .await
        .map(|outcome| outcome.map(|o| o.clone()));
    match heard {
        Ok(Ok(Some(outcome))) => outcome.map(Answered::Now),
        Ok(_) => Err(internal("internal error while searching")),
        Err(_) => Ok(Answered::Later { receiver, estimate }),
    }
}

/// Starts `leader`'s search once a slot is free; it runs to its end even if every request for
/// it has been answered, and keeps its answer.
async fn start(
    state: &Arc<State>,
    game: Mancala,
    leader: Leader,
    deadline: tokio::time::Instant,
) -> Result<(), ApiError> {
    let slot = match state.searches.slot(deadline, state.timeout).await {
        Ok(slot) => slot,
        Err(e) => {
            state.solved.finish(leader, Err(e.clone()));
            return Err(e);
        }
    };
    let shared = Arc::clone(state);
    // A thread that cannot start drops the leader: its waiters hear an internal error.
    state.searches.spawn(slot, move || {
        shared.solved.run(&shared.tablebase, &game, leader);
    })?;
    Ok(())
}

/// A job (kind `query`) that follows the search of `game`'s position until its outcome: the
/// answer described, or the search's error. The same position asked again while its job runs
/// joins that job. The search tells the job as it ends ([`Searches::follow`]), so the job
/// needs no task of its own. Cancelling the job ends the following, not the search.
///
/// # Errors
/// 503 with `Retry-After`: the server holds as many jobs as it takes.
fn follow(
    state: &Arc<State>,
    game: Mancala,
    receiver: watch::Receiver<Option<Outcome>>,
    estimate: f64,
) -> Result<Report, ApiError> {
    let what = format!(
        "a search of this position, about {} estimated",
        granary::units::human_seconds(estimate)
    );
    let key = Searches::key(&game);
    let (job, new) = state.jobs.follow(format!("query {key}"), what)?;
    if new {
        job.begin();
        let told = Arc::clone(&job);
        let follower: Follower = Box::new(move |outcome| match outcome {
            Ok(query) => told.done(JobResult::Query(Arc::new(described(&game, query)))),
            Err(e) => told.fail(e),
        });
        // Ended since the request stopped waiting: its outcome is on the channel already.
        if let Err(follower) = state.solved.follow(&key, follower) {
            match &*receiver.borrow() {
                Some(outcome) => follower(outcome),
                None => job.fail(&internal("internal error while searching")),
            }
        }
    }
    Ok(job.report())
}

/// A query's answer: the position answered (200), or the job following its search (202, with
/// `Location`).
#[derive(Debug)]
pub enum QueryReply {
    Done(Box<PositionAnswer>),
    Running(Report),
}

impl IntoResponse for QueryReply {
    fn into_response(self) -> Response {
        match self {
            QueryReply::Done(answer) => Json(answer).into_response(),
            QueryReply::Running(report) => crate::jobs::accepted(report),
        }
    }
}

impl aide::OperationOutput for QueryReply {
    type Inner = PositionAnswer;

    fn inferred_responses(
        ctx: &mut GenContext,
        _: &mut Operation,
    ) -> Vec<(Option<u16>, aide::openapi::Response)> {
        vec![
            (
                Some(200),
                route::json_response::<PositionAnswer>(
                    ctx,
                    "The position answered: exact (`value`), or beyond what the server answers \
                     exactly, the engine's estimate (`estimate`).",
                ),
            ),
            (
                Some(202),
                crate::jobs::accepted_response(
                    ctx,
                    "The search outlasts the request: follow its job at `Location`.",
                ),
            ),
        ]
    }
}
