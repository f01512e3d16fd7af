//! Long answers as jobs: a review whose positions are searched takes seconds to minutes, longer
//! than a request may work, so it runs as a job that a client follows and may cancel; so does
//! a query whose search outlasts the request.
//!
//! - `POST /api/v1/review` starts a job ([`crate::review`]); the same game asked again while its
//!   job runs joins that job, and once reviewed is answered from the reviews kept;
//! - `GET /api/v1/query` of a position whose search outlasts the request starts a job that
//!   follows the search ([`crate::query`]; kind `query`, one step), or joins the one following
//!   it;
//! - `GET /api/v1/jobs/{id}`: the job's state (`queued`, `running`, `done`, `failed`,
//!   `cancelled`), `done` plies of `total`, the plies reviewed so far, and the `result` once
//!   done (or `error`, with its `status`, once failed). With `since=V` (the `version` of the
//!   answer before) the request waits, up to the request limit, until the job has changed
//!   since: a client follows a job without polling blind;
//! - `DELETE /api/v1/jobs/{id}`: cancels the job; its searches stop ([`granary::Cancel`]) and
//!   its slot is freed as they return.
//!
//! A job runs in the searches' pool ([`crate::State::searches`]) or, when its game reads the
//! tables alone, the small work's: it holds one slot for its whole length, and waits for one
//! as `queued`. The server holds at most [`crate::Config::max_jobs`] jobs queued or running;
//! past that a new one is answered 503 with `Retry-After`. A job nobody has asked about for
//! [`crate::Config::job_idle`] is cancelled, and a finished job is forgotten after as long
//! ([`Jobs::sweep`]); its result stays among the reviews kept.
//!
//! The positions a review searches are kept with the query's answers ([`crate::search`]), and
//! a review looks there first ([`granary::review::Watch`]): a longer game, a second review, or
//! a query of a position reviewed, finds them kept.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use aide::generate::GenContext;
use axum::Json;
use axum::extract::{Path, State as Shared};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use granary::record::RecordReview;
use granary::review::{Ply, Watch};
use granary::{Cancel, Mancala, Query};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tokio::sync::{Notify, watch};

use crate::State;
use crate::described::QueryAnswer;
use crate::error::{ApiError, Failure, internal};
use crate::kept::Kept;
use crate::params::Params;
use crate::pool::Pool;
use crate::route::{self, Doc, Route};

/// Where a job stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Waiting for a slot.
    Queued,
    /// Holding a slot, reviewing.
    Running,
    /// Finished: `result` holds the answer.
    Done,
    /// Finished with an error: `error` and `status` say which.
    Failed,
    /// Cancelled (by a client, or because nobody asked about it).
    Cancelled,
}

impl JobState {
    /// Whether the job has ended.
    #[must_use]
    pub fn finished(self) -> bool {
        matches!(
            self,
            JobState::Done | JobState::Failed | JobState::Cancelled
        )
    }
}

/// What a job has done so far: what `GET /api/v1/jobs/{id}` answers.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[schemars(rename = "Job")]
pub struct Report {
    pub id: String,
    /// What the job does: `review` (a game reviewed) or `query` (a position searched).
    #[schemars(schema_with = "job_kind")]
    pub kind: &'static str,
    /// What the job works on, in words: for a query, the search it waits for and its
    /// estimate.
    pub what: String,
    pub state: JobState,
    /// Steps done, of `total`: plies reviewed; for a query, 1 once answered.
    pub done: usize,
    pub total: usize,
    /// Seconds since the job was started.
    pub seconds: f64,
    /// Seconds the job waited for a slot (so far, while queued).
    pub queued_seconds: f64,
    /// Bumped by every change: `since` of the next request.
    pub version: u64,
    /// The plies reviewed so far, in order, each as the review's `plies` has it.
    pub plies: Vec<Arc<Ply>>,
    /// The answer once done: a review as `POST /api/v1/review` answers it, a position as
    /// `GET /api/v1/query` answers it.
    pub result: Option<JobResult>,
    /// Why the job failed or was cancelled.
    pub error: Option<String>,
    /// The status the failure would have had as an answer (400, 422, 500).
    pub status: Option<u16>,
}

/// A job's answer once done: its kind's.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum JobResult {
    Review(Arc<RecordReview>),
    Query(Arc<QueryAnswer>),
}

/// The kinds of job: `review`, `query`.
fn job_kind(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": [REVIEW, QUERY] })
}

/// A review's job kind.
const REVIEW: &str = "review";
/// A query's job kind.
const QUERY: &str = "query";

/// A job: its report, the request that stops it, and when it was last asked about.
#[derive(Debug)]
pub struct Job {
    pub id: String,
    /// The game reviewed, written out as a record: jobs of one key are one job.
    key: String,
    cancel: Cancel,
    /// Wakes the job's runner out of its queue when it is cancelled.
    woken: Notify,
    created: Instant,
    started: Mutex<Option<Instant>>,
    report: Mutex<Report>,
    /// The report's version, for those waiting for a change.
    changed: watch::Sender<u64>,
    /// When a client last asked about the job.
    seen: Mutex<Instant>,
}

impl Job {
    fn new(id: String, key: String, kind: &'static str, what: String, total: usize) -> Job {
        let now = Instant::now();
        Job {
            report: Mutex::new(Report {
                id: id.clone(),
                kind,
                what,
                state: JobState::Queued,
                done: 0,
                total,
                seconds: 0.0,
                queued_seconds: 0.0,
                version: 0,
                plies: Vec::new(),
                result: None,
                error: None,
                status: None,
            }),
            id,
            key,
            cancel: Cancel::new(),
            woken: Notify::new(),
            created: now,
            started: Mutex::new(None),
            changed: watch::channel(0).0,
            seen: Mutex::new(now),
        }
    }

    /// The report now, its times up to date.
    #[must_use]
    pub fn report(&self) -> Report {
        let mut report = lock(&self.report).clone();
        let started = *lock(&self.started);
        report.seconds = self.created.elapsed().as_secs_f64();
        report.queued_seconds = started
            .unwrap_or_else(Instant::now)
            .duration_since(self.created)
            .as_secs_f64();
        report
    }

    /// Changes the report with `change` (a finished job changes no more), bumping its
    /// version and waking those waiting for it.
    fn update(&self, change: impl FnOnce(&mut Report)) {
        let version = {
            let mut report = lock(&self.report);
            if report.state.finished() {
                return;
            }
            change(&mut report);
            report.version += 1;
            report.version
        };
        self.changed.send_replace(version);
    }

    /// Ends the job cancelled, with `why`, and asks its searches to stop.
    pub fn cancel(&self, why: &str) {
        self.cancel.cancel();
        self.update(|r| {
            r.state = JobState::Cancelled;
            r.error = Some(why.into());
        });
        self.woken.notify_one();
    }

    fn state(&self) -> JobState {
        lock(&self.report).state
    }

    /// Marks the job running: it holds what it works with.
    pub fn begin(&self) {
        *lock(&self.started) = Some(Instant::now());
        self.update(|r| r.state = JobState::Running);
    }

    /// Ends the job done, with `result`, every step done.
    pub fn done(&self, result: JobResult) {
        self.update(|r| {
            r.state = JobState::Done;
            r.done = r.total;
            r.result = Some(result);
        });
    }

    /// Ends the job failed with `err`'s message and status.
    pub fn fail(&self, err: &ApiError) {
        self.update(|r| {
            r.state = JobState::Failed;
            r.error = Some(err.message.clone());
            r.status = Some(err.status.as_u16());
        });
    }

    /// The report once it has changed since `version`, or once `deadline` passes.
    pub async fn report_since(&self, version: u64, deadline: tokio::time::Instant) -> Report {
        let mut changed = self.changed.subscribe();
        let _ = tokio::time::timeout_at(deadline, changed.wait_for(|&v| v > version)).await;
        self.report()
    }

    /// The report once the job has finished, or once `deadline` passes.
    pub async fn finished_by(&self, deadline: tokio::time::Instant) -> Report {
        let mut changed = self.changed.subscribe();
        let _ = tokio::time::timeout_at(
            deadline,
            changed.wait_for(|_| lock(&self.report).state.finished()),
        )
        .await;
        self.report()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many jobs a server holds, and for how long.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Jobs queued or running at once; more are refused (503).
    pub max_jobs: usize,
    /// A job unasked about for this long is cancelled; a finished one is forgotten.
    pub idle: Duration,
}

/// The jobs of one server, and the reviews they finished.
#[derive(Debug)]
pub struct Jobs {
    jobs: Mutex<HashMap<String, Arc<Job>>>,
    reviews: Mutex<Kept<Arc<RecordReview>>>,
    limits: Limits,
    ids: RandomState,
    count: AtomicU64,
}

/// What [`Jobs::start`] found for a game.
#[derive(Debug)]
pub enum Started {
    /// Reviewed before: the answer.
    Kept(Arc<RecordReview>),
    /// A job for it, new or already running.
    Job(Arc<Job>),
}

impl Jobs {
    /// Jobs within `limits`; `reviews` finished reviews kept.
    #[must_use]
    pub fn new(limits: Limits, reviews: usize) -> Jobs {
        Jobs {
            jobs: Mutex::new(HashMap::new()),
            reviews: Mutex::new(Kept::new(reviews)),
            limits,
            ids: RandomState::new(),
            count: AtomicU64::new(0),
        }
    }

    /// The job `id`, marked as asked about.
    #[must_use]
    pub fn get(&self, id: &str) -> Option<Arc<Job>> {
        let job = lock(&self.jobs).get(id).cloned()?;
        *lock(&job.seen) = Instant::now();
        Some(job)
    }

    /// The review kept for `key`, the job reviewing it, or a new job of `total` plies for it.
    ///
    /// # Errors
    /// 503 with `Retry-After`: the server holds as many jobs queued or running as it may.
    pub fn start(&self, key: String, total: usize) -> Result<(Started, bool), ApiError> {
        if let Some(kept) = lock(&self.reviews).get(&key) {
            return Ok((Started::Kept(kept), false));
        }
        let what = format!("a review of {total} plies");
        self.admit(key, REVIEW, what, total)
            .map(|(job, new)| (Started::Job(job), new))
    }

    /// The job following the search `key` names, or a new one (`what` it waits for, in
    /// words): a query's job, of one step.
    ///
    /// # Errors
    /// 503 with `Retry-After`: the server holds as many jobs queued or running as it may.
    pub fn follow(&self, key: String, what: String) -> Result<(Arc<Job>, bool), ApiError> {
        self.admit(key, QUERY, what, 1)
    }

    /// The job of `key` queued or running, or a new one of `kind` within the bound.
    fn admit(
        &self,
        key: String,
        kind: &'static str,
        what: String,
        total: usize,
    ) -> Result<(Arc<Job>, bool), ApiError> {
        let now = Instant::now();
        self.sweep(now);
        let mut jobs = lock(&self.jobs);
        if let Some(job) = jobs
            .values()
            .find(|j| j.key == key && !j.state().finished())
        {
            *lock(&job.seen) = now;
            return Ok((Arc::clone(job), false));
        }
        let active = jobs.values().filter(|j| !j.state().finished()).count();
        if active >= self.limits.max_jobs {
            return Err(ApiError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                message: format!(
                    "the server is running as many long answers as it takes ({active}); try \
                     again shortly"
                ),
                retry_after: Some(5),
            });
        }
        let n = self.count.fetch_add(1, Relaxed);
        let id = format!("{:016x}", self.ids.hash_one(n));
        let job = Arc::new(Job::new(id.clone(), key, kind, what, total));
        jobs.insert(id, Arc::clone(&job));
        Ok((job, true))
    }

    /// Cancels every job queued or running that nobody has asked about since `now - idle`,
    /// and forgets every finished one unasked about as long.
    pub fn sweep(&self, now: Instant) {
        let idle = self.limits.idle;
        let mut stale = Vec::new();
        lock(&self.jobs).retain(|_, job| {
            let unseen = now.saturating_duration_since(*lock(&job.seen)) > idle;
            if !unseen {
                return true;
            }
            if job.state().finished() {
                return false;
            }
            stale.push(Arc::clone(job));
            true
        });
        for job in stale {
            job.cancel(&format!(
                "cancelled: nobody asked about it for {} s",
                idle.as_secs()
            ));
        }
    }

    /// Jobs queued or running now.
    #[must_use]
    pub fn active(&self) -> usize {
        lock(&self.jobs)
            .values()
            .filter(|j| !j.state().finished())
            .count()
    }

    /// Jobs started since the server began (a game joined or kept starts none).
    #[must_use]
    pub fn started(&self) -> u64 {
        self.count.load(Relaxed)
    }

    /// Reviews kept now.
    #[must_use]
    pub fn kept_reviews(&self) -> usize {
        lock(&self.reviews).len()
    }

    fn keep(&self, key: String, review: Arc<RecordReview>) {
        lock(&self.reviews).insert(key, review);
    }
}

/// What a review job's review is given and tells ([`Watch`]): its cancel, the server's kept
/// answers, and each ply into the job's report.
struct Watcher<'a> {
    job: &'a Job,
    state: &'a State,
    /// The server's runtime, to wait for a search running elsewhere.
    runtime: Option<tokio::runtime::Handle>,
}

impl Watch for Watcher<'_> {
    fn cancel(&self) -> Option<&Cancel> {
        Some(&self.job.cancel)
    }

    /// Kept, or being searched by other work (the opening's search as serving begins, a
    /// query's): that search is waited for, not repeated. A cancel ends the wait at once.
    fn known(&self, game: &Mancala) -> Option<Query> {
        let key = crate::search::Searches::key(game);
        if let Some(kept) = self.state.solved.kept(&key) {
            return Some((*kept).clone());
        }
        let mut running = self.state.solved.running(&key)?;
        let runtime = self.runtime.as_ref()?;
        let tick = Duration::from_millis(20);
        while !self.job.cancel.is_cancelled() {
            let heard = runtime.block_on(async {
                tokio::time::timeout(tick, running.wait_for(Option::is_some))
                    .await
                    .map(|outcome| outcome.map(|o| o.clone()))
            });
            match heard {
                Ok(Ok(Some(Ok(answer)))) => return Some((*answer).clone()),
                // Failed, or its leader gone: the review searches it itself.
                Ok(_) => return None,
                Err(_) => {}
            }
        }
        None
    }

    fn searched(&self, game: &Mancala, answer: &Query) {
        self.state.solved.keep(game, Arc::new(answer.clone()));
    }

    fn ply(&self, ply: &Ply, total: usize) {
        self.job.update(|r| {
            r.plies.push(Arc::new(ply.clone()));
            r.done = r.plies.len();
            r.total = total;
        });
    }
}

/// Runs `job`, reviewing `record` in `pool`: at once if a slot is free, else once one is (the
/// job `queued` meanwhile, and cancellable). Its report follows the review ply by ply, and
/// ends done (the review kept), failed or cancelled. The review runs on a thread of its own and
/// ends the job there, so the job ends whoever still awaits it.
pub fn launch(state: &Arc<State>, job: Arc<Job>, record: granary::GameRecord, pool: PoolOf) {
    match pool.of(state).try_slot() {
        Some(slot) => begin(state, &job, record, pool, slot),
        None => {
            tokio::spawn(queued(Arc::clone(state), job, record, pool));
        }
    }
}

/// `job` waiting for a slot of `pool`, then begun.
async fn queued(state: Arc<State>, job: Arc<Job>, record: granary::GameRecord, pool: PoolOf) {
    let slot = tokio::select! {
        slot = pool.of(&state).queued_slot() => slot,
        () = job.woken.notified() => None,
    };
    match slot {
        Some(slot) => begin(&state, &job, record, pool, slot),
        // Cancelled while queued, or the server is shutting down.
        None => job.cancel("cancelled before it started"),
    }
}

/// `job`'s review begun on a thread of its own, holding `slot` until it ends.
fn begin(
    state: &Arc<State>,
    job: &Arc<Job>,
    record: granary::GameRecord,
    pool: PoolOf,
    slot: tokio::sync::OwnedSemaphorePermit,
) {
    if job.cancel.is_cancelled() {
        return;
    }
    job.begin();
    let shared = Arc::clone(state);
    let running = Arc::clone(job);
    let runtime = tokio::runtime::Handle::try_current().ok();
    // The job ends on its own thread, whoever still awaits it.
    let spawned = pool.of(state).spawn(slot, move || {
        let watcher = Watcher {
            job: &running,
            state: &shared,
            runtime,
        };
        // A pool of its own: a search waiting in a split of rayon's shared pool may steal and run
        // another job's subtree, and then outlive its own cancel by that subtree's length.
        let review = || {
            shared.tablebase.review_record(
                &record,
                shared.solved.limit,
                shared.review_estimate,
                &watcher,
            )
        };
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            match rayon::ThreadPoolBuilder::new()
                .thread_name(|i| format!("granary-job-{i}"))
                .build()
            {
                Ok(pool) => pool.install(review),
                Err(_) => review(),
            }
        }));
        finish(&shared, &running, outcome);
    });
    if let Err(e) = spawned {
        job.fail(&e);
    }
}

/// Ends `job` as its review ended: done (the review kept), cancelled or failed.
fn finish(
    state: &State,
    job: &Job,
    outcome: std::thread::Result<Result<granary::record::RecordReview, granary::ReviewError>>,
) {
    match outcome {
        Ok(Ok(review)) => {
            let review = Arc::new(review);
            state.jobs.keep(job.key.clone(), Arc::clone(&review));
            job.done(JobResult::Review(review));
        }
        Ok(Err(granary::ReviewError::Cancelled { .. })) => job.cancel("cancelled"),
        Ok(Err(e)) => job.fail(&ApiError::from(e).within(state.tablebase.root())),
        Err(_) => job.fail(&internal("internal error while reviewing")),
    }
}

/// A job's answer while it runs: 202, its report, and `Location: /api/v1/jobs/{id}`.
pub fn accepted(report: Report) -> Response {
    let location = format!("/api/v1/jobs/{}", report.id);
    (
        StatusCode::ACCEPTED,
        [(header::LOCATION, location)],
        axum::Json(report),
    )
        .into_response()
}

/// [`accepted`] as the API's description has it, `description` saying why.
pub fn accepted_response(ctx: &mut GenContext, description: &str) -> aide::openapi::Response {
    let mut running = route::json_response::<Report>(ctx, description);
    running.headers.insert(
        "Location".into(),
        route::header(
            "The job, `/api/v1/jobs/{id}`.",
            ctx.schema.subschema_for::<String>(),
        ),
    );
    running
}

/// Which of the server's pools a job runs in.
#[derive(Clone, Copy, Debug)]
pub enum PoolOf {
    Searches,
    Small,
}

impl PoolOf {
    fn of(self, state: &State) -> &Pool {
        match self {
            PoolOf::Searches => &state.searches,
            PoolOf::Small => &state.small,
        }
    }
}

/// The jobs' routes ([`crate::route`]).
pub fn routes() -> Vec<Route> {
    vec![
        Route::get(
            "/api/v1/jobs/{id}",
            job_report,
            Doc {
                id: "job",
                summary: "A job's report: its state, the plies done so far, and its result once \
                          done.",
                description: "With `since` (the `version` of a report before), the answer waits \
                              until the job has changed since, at most the request limit: a \
                              client follows a job without polling blind. Asking keeps a job \
                              alive: one nobody has asked about for a minute is cancelled, and a \
                              finished one is forgotten as long after (its review stays kept).",
                answer: "The job's report.",
                failures: &[Failure::BAD_REQUEST, Failure::NO_JOB],
            },
        ),
        Route::delete(
            "/api/v1/jobs/{id}",
            job_cancel,
            Doc {
                id: "cancel_job",
                summary: "Cancels a job: its searches stop and its slot is freed.",
                description: "The job ends `cancelled`, unless it had finished.",
                answer: "The job's report, `cancelled` (or the state it had finished in).",
                failures: &[Failure::NO_JOB],
            },
        ),
    ]
}

/// A job's path.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(inline)]
pub struct JobPath {
    /// The job's id, from `Location` or the report's `id`.
    pub id: String,
}

/// The job `id`, or 404.
fn job_of(state: &State, id: &str) -> Result<Arc<Job>, ApiError> {
    state.jobs.get(id).ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "no such job: {}; a finished job is kept until nobody has asked about it for {} s",
                id.chars().take(40).collect::<String>(),
                state.jobs.limits.idle.as_secs()
            ),
        )
    })
}

/// A job's query string.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct JobQuery {
    /// Wait for a report newer than this version.
    #[serde(default, deserialize_with = "crate::params::whole")]
    #[schemars(with = "u64")]
    pub since: Option<u64>,
}

async fn job_report(
    Shared(state): Shared<Arc<State>>,
    Path(JobPath { id }): Path<JobPath>,
    Params(JobQuery { since }): Params<JobQuery>,
) -> Result<Json<Report>, ApiError> {
    let job = job_of(&state, &id)?;
    Ok(Json(match since {
        Some(version) => {
            let deadline = tokio::time::Instant::now() + state.timeout;
            job.report_since(version, deadline).await
        }
        None => job.report(),
    }))
}

async fn job_cancel(
    Shared(state): Shared<Arc<State>>,
    Path(JobPath { id }): Path<JobPath>,
) -> Result<Json<Report>, ApiError> {
    let job = job_of(&state, &id)?;
    job.cancel("cancelled");
    Ok(Json(job.report()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A review of no moves, its record `record`.
    fn reviewed(record: &str) -> Arc<RecordReview> {
        let game = granary::GameRecord::new(
            granary::GameName::Kalah,
            &granary::Setup::default(),
            None,
            &[],
        )
        .unwrap();
        Arc::new(RecordReview {
            review: granary::Review {
                tables: None,
                plies: Vec::new(),
                sides: Default::default(),
            },
            setup: game.described(),
            record: record.into(),
        })
    }

    #[test]
    fn a_job_changes_until_it_finishes_then_never_again() {
        let job = Job::new("a".into(), "k".into(), REVIEW, "a review".into(), 3);
        job.update(|r| r.state = JobState::Running);
        assert_eq!(job.report().version, 1);
        job.cancel("cancelled");
        assert_eq!(job.report().state, JobState::Cancelled);
        assert!(job.cancel.is_cancelled());
        job.update(|r| r.state = JobState::Done);
        let report = job.report();
        assert_eq!((report.state, report.version), (JobState::Cancelled, 2));
    }

    #[test]
    fn the_bound_counts_jobs_queued_or_running_and_one_game_is_one_job() {
        let jobs = Jobs::new(
            Limits {
                max_jobs: 2,
                idle: Duration::from_secs(60),
            },
            4,
        );
        let (Started::Job(a), true) = jobs.start("a".into(), 1).unwrap() else {
            panic!("a new job");
        };
        let (Started::Job(again), false) = jobs.start("a".into(), 1).unwrap() else {
            panic!("the same job");
        };
        assert_eq!(a.id, again.id);
        let (Started::Job(b), true) = jobs.start("b".into(), 1).unwrap() else {
            panic!("a new job");
        };
        assert_ne!(a.id, b.id);
        let full = jobs.start("c".into(), 1).unwrap_err();
        assert_eq!(full.status, StatusCode::SERVICE_UNAVAILABLE);
        assert!(full.retry_after.is_some());
        // A finished job leaves room; its result, kept, answers its game.
        jobs.keep("b".into(), reviewed("b"));
        b.update(|r| r.state = JobState::Done);
        assert!(matches!(
            jobs.start("c".into(), 1),
            Ok((Started::Job(_), true))
        ));
        assert!(
            matches!(jobs.start("b".into(), 1), Ok((Started::Kept(v), false)) if v.record == "b")
        );
    }

    #[test]
    fn a_job_nobody_asks_about_is_cancelled_then_forgotten() {
        let idle = Duration::from_secs(60);
        let jobs = Jobs::new(Limits { max_jobs: 4, idle }, 4);
        let (Started::Job(job), _) = jobs.start("a".into(), 1).unwrap() else {
            panic!("a new job");
        };
        let now = Instant::now();
        jobs.sweep(now);
        assert_eq!(job.report().state, JobState::Queued);
        jobs.sweep(now + idle + Duration::from_secs(1));
        let report = job.report();
        assert_eq!(report.state, JobState::Cancelled);
        assert!(report.error.unwrap().contains("nobody asked"));
        assert!(job.cancel.is_cancelled());
        assert!(jobs.get(&job.id).is_some(), "kept while it is asked about");
        jobs.sweep(Instant::now() + idle + Duration::from_secs(1));
        assert!(
            jobs.get(&job.id).is_none(),
            "forgotten once finished and unasked"
        );
    }
}
