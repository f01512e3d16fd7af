//! The JSON API, version 1. Every answer is JSON; every error is `{"error": "..."}` with 400
//! (the request is wrong), 404 (no such path), 422 (the position is beyond what the server
//! answers: a plain sentence, never a file or a build), 503 (queue full, too slow, or a search
//! still running; `Retry-After`) or 500 (the server's tables are damaged).
//!
//! - `GET /api/v1/variants`: games, options, defaults, the tables present, and the tables built
//!   in the background for reviews ([`crate::prepare`]);
//! - `GET /api/v1/query?game=&rules=&pits=&position=`: value, final score, every move with its
//!   value, the final score and result it leads to and its resulting position, principal
//!   variation (Kalah, Oware); Kalah positions beyond the tables are searched ([`crate::search`]);
//! - `POST /api/v1/review` and `/api/v1/jobs/{id}`: see [`crate::review`] and [`crate::jobs`];
//! - `GET /api/v1/show?game=&position=&moves=`: the position after moves, as data;
//! - `GET /api/v1/bao/move?position=&ms=` (and Bao's options): the engine's move;
//! - `GET /api/v1/bao/hint?position=` (and Bao's options): every legal move with the engine's
//!   evaluation, best first, and at a start position the result a proof search proves, if any.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::extract::{RawQuery, State as Shared};
use axum::http::{StatusCode, Uri};
use granary::outcome::{final_stores, result_word};
use granary::plan::Reach;
use granary::{GameName, Mancala, Query, Seeds, Side};
use serde_json::{Value, json};

use crate::State;
use crate::error::{ApiError, internal};
use crate::params::Params;
use crate::pool::Pool;
use crate::route::Route;
use crate::search::{Leader, Plan};

type Answer = Result<Json<Value>, ApiError>;

/// Runs `work` in `pool` once it has a free slot, within the timeout (queueing included); 503 if
/// the queue is full or the time runs out.
async fn blocking<T: Send + 'static>(
    state: &Arc<State>,
    pool: &Pool,
    work: impl FnOnce(&State) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let shared = Arc::clone(state);
    pool.run(state.timeout, move || work(&shared))
        .await?
        .map_err(|e| e.within(state.tablebase.root()))
}

/// [`blocking`], the answer as JSON.
async fn blocking_json<T: serde::Serialize + Send + 'static>(
    state: &Arc<State>,
    pool: &Pool,
    work: impl FnOnce(&State) -> Result<T, ApiError> + Send + 'static,
) -> Answer {
    let value = blocking(state, pool, work).await?;
    serde_json::to_value(value)
        .map(Json)
        .map_err(|e| internal(e.to_string()))
}

/// The API's routes ([`crate::route`]).
pub fn routes() -> Vec<Route> {
    vec![
        Route::get("/api/v1/variants", variants),
        Route::get("/api/v1/query", query),
        Route::get("/api/v1/show", show),
        Route::get("/api/v1/bao/move", bao_move),
        Route::get("/api/v1/bao/hint", bao_hint),
    ]
}

/// Any other path.
pub async fn not_found(uri: Uri) -> ApiError {
    let path: String = uri.path().chars().take(200).collect();
    ApiError::new(StatusCode::NOT_FOUND, format!("no such path: {path}"))
}

async fn variants(Shared(state): Shared<Arc<State>>) -> Answer {
    let games = granary::game::catalogue();
    let tables = state
        .tablebase
        .present()
        .map_err(|e| ApiError::from(e).within(state.tablebase.root()))?;
    let preparing = state.preparing.status();
    Ok(Json(
        json!({ "games": games, "tables": tables, "preparing": preparing }),
    ))
}

async fn query(Shared(state): Shared<Arc<State>>, RawQuery(raw): RawQuery) -> Answer {
    let params = Params::parse(raw.as_deref()).map_err(ApiError::bad)?;
    let game = params.game().map_err(ApiError::bad)?;
    if game == GameName::Bao {
        return Err(ApiError::bad(
            "bao has no tables: use /api/v1/show for its moves and /api/v1/bao/move for the engine's",
        ));
    }
    if params.get("moves").is_some() || params.get("ms").is_some() {
        return Err(ApiError::bad("query takes no 'moves' or 'ms'"));
    }
    let setup = params.setup().map_err(ApiError::bad)?;
    let mancala = setup.mancala(game, params.get("position"))?;
    let query = answer(&state, &mancala).await?;
    described(&mancala, &query).map(Json)
}

/// The answer for `game`'s position, as the library's rule of what is answered beyond the tables
/// has it ([`granary::plan::reach`], with the server's search limit): from the tables where they
/// cover it, else (Kalah) kept from an earlier search or searched.
///
/// # Errors
/// 422 (Oware beyond its tables, Kalah beyond the search limit) in a plain sentence; 503 while
/// a search outlasts the request; 500 for damaged tables.
pub async fn answer(state: &Arc<State>, game: &Mancala) -> Result<Arc<Query>, ApiError> {
    let present = state.tablebase.complete_up_to(game.kind());
    let estimate = match state.solved.reach(game, present) {
        Reach::Tables => {
            let game = *game;
            return blocking(state, &state.small, move |s| {
                Ok(Arc::new(s.tablebase.query(&game)?))
            })
            .await;
        }
        Reach::Beyond(why) => {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("this position is beyond what this server answers: {why}"),
            ));
        }
        Reach::Search { seconds, .. } => seconds,
    };
    let deadline = tokio::time::Instant::now() + state.timeout;
    let mut receiver = match state.solved.plan(game, present, estimate) {
        Plan::Kept(query) => return Ok(query),
        Plan::Running(receiver) => receiver,
        Plan::Start(leader) => {
            let receiver = leader.receiver.clone();
            start(state, *game, leader, deadline).await?;
            receiver
        }
    };
    match tokio::time::timeout_at(deadline, receiver.wait_for(Option::is_some)).await {
        Ok(Ok(outcome)) => outcome.clone().expect("waited for an outcome"),
        Ok(Err(_)) => Err(internal("internal error while searching")),
        Err(_) => Err(ApiError {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: format!(
                "this position is being searched (about {} estimated) and the answer will be \
                 kept: ask again shortly",
                granary::units::human_seconds(estimate)
            ),
            retry_after: Some((estimate / 4.0).clamp(1.0, 10.0) as u64),
        }),
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
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            crate::search::search(&shared.tablebase, &game, leader.horizon, leader.estimate)
        }));
        let outcome = match outcome {
            Ok(Ok(query)) => Ok(Arc::new(query)),
            Ok(Err(e)) => Err(ApiError::from(e).within(shared.tablebase.root())),
            Err(_) => Err(internal("internal error while searching")),
        };
        shared.solved.finish(leader, outcome);
    })?;
    Ok(())
}

/// `query` as JSON, with what each move leads to under perfect play: `final` (the final stores
/// `[south, north]`), `result` (`win`, `draw` or `loss` for the player to move) and `margin`
/// (the mover's final store less the opponent's); `margin` for the position too; `pv_steps`, the
/// principal variation's moves with the side that plays each and the position after it.
///
/// # Errors
/// 500 if the answer cannot be written (it always can).
pub fn described(game: &Mancala, query: &Query) -> Result<Value, ApiError> {
    let pos = &game.position;
    let pits = game.kind().pits;
    let margin = |f: [Seeds; 2]| {
        Seeds(if pos.to_move == Side::South {
            f[0].0 - f[1].0
        } else {
            f[1].0 - f[0].0
        })
    };
    let mut value = serde_json::to_value(query).map_err(|e| internal(e.to_string()))?;
    value["margin"] = json!(margin(query.final_stores));
    for (i, mv) in query.moves.iter().enumerate() {
        let finals = final_stores(pos, pits, mv.value);
        let entry = &mut value["moves"][i];
        entry["final"] = json!(finals);
        entry["result"] = json!(result_word(pos, finals));
        entry["margin"] = json!(margin(finals));
    }
    let mut steps = Vec::new();
    let mut at = *game;
    for &pit in &query.pv {
        let Ok(after) = granary::show::show(&at, &[pit]) else {
            break;
        };
        steps.push(json!({
            "move": pit,
            "side": at.position.to_move.name(),
            "position": after.position,
        }));
        at.position = after.pos;
    }
    value["pv_steps"] = json!(steps);
    Ok(value)
}

async fn show(Shared(state): Shared<Arc<State>>, RawQuery(raw): RawQuery) -> Answer {
    let params = Params::parse(raw.as_deref()).map_err(ApiError::bad)?;
    let game = params.game().map_err(ApiError::bad)?;
    let setup = params.setup().map_err(ApiError::bad)?;
    let moves = params.moves();
    let position = params.get("position").map(String::from);
    // Off the async runtime, within the limits. Kalah and Oware moves are small work (never
    // behind a search); Bao's move generation follows relay sowings to their end (endless ones
    // are detected), which can take long: among the searches, so that it never holds up the
    // small work.
    let pool = if game == GameName::Bao {
        &state.searches
    } else {
        &state.small
    };
    blocking_json(&state, pool, move |_| -> Result<Value, ApiError> {
        let value = if game == GameName::Bao {
            let (rules, pos) = setup.bao(position.as_deref())?;
            serde_json::to_value(granary::bao::show(&rules, pos, &moves)?)
        } else {
            let mancala = setup.mancala(game, position.as_deref())?;
            let pits = granary::game::parse_pits(&moves)?;
            serde_json::to_value(granary::show::show(&mancala, &pits)?)
        };
        value.map_err(|e| internal(e.to_string()))
    })
    .await
}

async fn bao_move(Shared(state): Shared<Arc<State>>, RawQuery(raw): RawQuery) -> Answer {
    let params = Params::parse(raw.as_deref()).map_err(ApiError::bad)?;
    if params.get("game").is_some_and(|g| g != "bao") {
        return Err(ApiError::bad("bao/move is for bao; leave 'game' out"));
    }
    let millis = params.millis().map_err(ApiError::bad)?;
    let (rules, pos) = params
        .setup()
        .map_err(ApiError::bad)?
        .bao(params.get("position"))?;
    blocking_json(&state, &state.searches, move |_| {
        let mut player = granary::bao::Player::new(&rules);
        player
            .choose(&pos, Duration::from_millis(millis))
            .map(|(mv, _)| mv)
            .ok_or_else(|| {
                ApiError::new(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "the player to move has no legal move: the game is over",
                )
            })
    })
    .await
}

/// Tree nodes the proof of a start position may use (Bao la kujifunza's takes under 9,000).
pub const START_PROOF_NODES: usize = 200_000;

async fn bao_hint(Shared(state): Shared<Arc<State>>, RawQuery(raw): RawQuery) -> Answer {
    let params = Params::parse(raw.as_deref()).map_err(ApiError::bad)?;
    if params.get("game").is_some_and(|g| g != "bao") {
        return Err(ApiError::bad("bao/hint is for bao; leave 'game' out"));
    }
    if params.get("moves").is_some() || params.get("ms").is_some() {
        return Err(ApiError::bad("bao/hint takes no 'moves' or 'ms'"));
    }
    let setup = params.setup().map_err(ApiError::bad)?;
    let (rules, pos) = setup.bao(params.get("position"))?;
    let start = granary::BaoPosition::start(&rules);
    blocking_json(&state, &state.searches, move |s| {
        let mut player = granary::bao::Player::new(&rules);
        let mut moves: Vec<(String, f64)> = player.hint(&pos);
        moves.sort_by(|a, b| b.1.total_cmp(&a.1));
        let at_start = granary::bao::format_position(&pos) == granary::bao::format_position(&start);
        let proven = if at_start {
            s.start_proofs
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .entry(rules.describe())
                .or_insert_with(|| start_proof(&rules, &start))
                .clone()
        } else {
            Value::Null
        };
        Ok(json!({
            "rules": rules.describe(),
            "position": granary::bao::format_position(&pos),
            "to_move": pos.to_move.name(),
            "moves": moves
                .iter()
                .map(|(mv, score)| json!({ "move": mv, "score": score }))
                .collect::<Vec<_>>(),
            "proven": proven,
        }))
    })
    .await
}

/// What a proof-number search proves of a start position, once per rule set: `null` if it
/// proves nothing within [`START_PROOF_NODES`].
fn start_proof(rules: &granary::BaoRules, start: &granary::BaoPosition) -> Value {
    let proof = granary::bao::prove_pns(rules, start, START_PROOF_NODES);
    let mover = start.to_move;
    let winner = match proof.value {
        "win" => mover,
        "loss" => mover.other(),
        _ => return Value::Null,
    };
    let start_name = rules.start.name();
    let published = if start_name == "kujifunza" {
        "; the published result of Donkers & Uiterwijk, Programming Bao (2002)"
    } else {
        ""
    };
    json!({
        "winner": winner.name(),
        "move": proof.best,
        "nodes": proof.nodes,
        "how": format!(
            "proved by proof-number search over every reply ({} tree nodes), as \
             `granary solve bao --rules {start_name}` proves it{published}",
            proof.nodes
        ),
    })
}
