//! The jobs of a distributed solve, as they travel between the ranks: rank 0's [`Dispatcher`]
//! (the search's [`Remote`]) and the workers' loop ([`serve`]).
//!
//! Messages are arrays of `u64`, tagged:
//!
//! | tag      | from -> to   | words                                                    |
//! |----------|--------------|----------------------------------------------------------|
//! | `JOB`    | 0 -> worker  | id, board (low, high 64 bits), stores and side, alpha, beta |
//! | `CANCEL` | 0 -> worker  | id                                                       |
//! | `RESULT` | worker -> 0  | id, 0 (done) or 1 (given up), value, nodes               |
//! | `STOP`   | 0 -> worker  | (none): the solve is over                                |
//! | `FIGURES`| worker -> 0  | jobs done, jobs given up, nodes, busy and idle nanoseconds |
//!
//! A worker holds one job at a time. During a solve one thread of rank 0 (the dispatcher's)
//! makes every MPI call, and a worker's calls come from its main thread while a job searches on
//! the others: MPI's `MPI_THREAD_SERIALIZED` is enough. Waiting ranks poll with short sleeps
//! instead of blocking in MPI, whose blocking calls spin on a core the search needs.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use granary_rules::Position;
use granary_search::{Remote, Remoted, Solve};

use crate::solve::RankFigures;
use mpi::Tag;
use mpi::point_to_point::MatchedReceiveVec;
use mpi::traits::*;

use super::Cluster;
use super::wire::{decode, encode};

const JOB: Tag = 11;
const CANCEL: Tag = 12;
const RESULT: Tag = 13;
const STOP: Tag = 14;
const FIGURES: Tag = 15;

/// The longest a waiting rank sleeps between looks at its messages: a job's round trip costs
/// up to about three of these, so a job should take far longer (`docs/scale.md`).
const POLL: Duration = Duration::from_micros(100);

/// What a searching thread of rank 0 asks of the dispatcher's thread.
enum Command {
    Job {
        worker: usize,
        words: [u64; 6],
        reply: Sender<Remoted>,
    },
    Cancel {
        worker: usize,
        id: u64,
    },
}

/// Rank 0's side of the jobs: the search's [`Remote`]. Threads that hand out a job pass it to
/// the dispatcher's thread ([`Dispatcher::run`]), the one that talks to the workers, and wait
/// for its answer.
#[derive(Debug)]
pub struct Dispatcher {
    commands: Mutex<Sender<Command>>,
    /// Workers without a job.
    idle: Mutex<Vec<usize>>,
    next_id: AtomicU64,
    workers: usize,
}

impl Dispatcher {
    /// A dispatcher for ranks `1..size`, and the end of its command channel that
    /// [`Dispatcher::run`] reads.
    fn new(size: usize) -> (Arc<Dispatcher>, Receiver<Command>) {
        let (commands, inbox) = channel();
        let dispatcher = Dispatcher {
            commands: Mutex::new(commands),
            idle: Mutex::new((1..size).rev().collect()),
            next_id: AtomicU64::new(1),
            workers: size - 1,
        };
        (Arc::new(dispatcher), inbox)
    }

    fn send(&self, command: Command) -> bool {
        self.commands
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(command)
            .is_ok()
    }

    /// An idle worker for a position hashing to `h`: the one that had its hash last if it is
    /// idle (its transposition table may hold the subtree), else the one idle longest.
    fn take_worker(&self, h: u64) -> Option<usize> {
        let mut idle = self.idle.lock().unwrap_or_else(PoisonError::into_inner);
        let preferred = 1 + (h % self.workers as u64) as usize;
        match idle.iter().position(|&w| w == preferred) {
            Some(i) => Some(idle.remove(i)),
            None => idle.pop(),
        }
    }

    fn give_back(&self, worker: usize) {
        self.idle
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(0, worker);
    }
}

impl Remote for Dispatcher {
    fn search(&self, pos: &Position, alpha: i32, beta: i32, stopped: &dyn Fn() -> bool) -> Remoted {
        // Every job goes to a worker: with all of them busy, the thread waits for one (rank
        // 0's cores search the top of the tree, the workers everything below it).
        let h = granary_search::tt::hash(pos.board);
        let mut quiet = Duration::from_micros(20);
        let worker = loop {
            if let Some(worker) = self.take_worker(h) {
                break worker;
            }
            if stopped() {
                return Remoted::Stopped;
            }
            std::thread::sleep(quiet);
            quiet = (quiet * 2).min(POLL);
        };
        let id = self.next_id.fetch_add(1, Relaxed);
        let (reply, answer) = channel();
        let words = encode(id, pos, alpha, beta);
        if !self.send(Command::Job {
            worker,
            words,
            reply,
        }) {
            return Remoted::Stopped;
        }
        let mut cancelled = false;
        loop {
            match answer.recv_timeout(Duration::from_millis(1)) {
                Ok(remoted) => return remoted,
                Err(RecvTimeoutError::Timeout) => {
                    if !cancelled && stopped() {
                        cancelled = true;
                        self.send(Command::Cancel { worker, id });
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Remoted::Stopped,
            }
        }
    }
}

/// Runs rank 0's side of a distributed solve: `solve` on this thread, with `dispatcher`'s jobs
/// carried to the workers by another; when it returns, every worker is stopped and its figures
/// gathered (ranks 1.., in order).
pub(super) fn dispatch<T>(
    cluster: &Cluster,
    solve: impl FnOnce(Arc<dyn Remote>) -> T,
) -> (T, Vec<RankFigures>) {
    let (dispatcher, inbox) = Dispatcher::new(cluster.world().size() as usize);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (shared, done) = (&*dispatcher, &done);
        let carrier = scope.spawn(move || carry(cluster, shared, &inbox, done));
        // Told when `solve` ends, even by a panic: the carrier stops the workers.
        let _done = Done(done);
        let result = solve(dispatcher.clone());
        drop(_done);
        let figures = carrier.join().unwrap_or_default();
        (result, figures)
    })
}

/// Sets its flag when dropped.
struct Done<'a>(&'a AtomicBool);

impl Drop for Done<'_> {
    fn drop(&mut self) {
        self.0.store(true, Relaxed);
    }
}

/// The dispatcher's thread: sends jobs and cancellations, hands results back to the threads
/// that wait for them; once `done` (no thread waits any more), stops the workers and gathers
/// their figures.
fn carry(
    cluster: &Cluster,
    dispatcher: &Dispatcher,
    inbox: &Receiver<Command>,
    done: &AtomicBool,
) -> Vec<RankFigures> {
    let world = cluster.world();
    let mut waiting: HashMap<u64, (usize, Sender<Remoted>)> = HashMap::new();
    let mut quiet = Duration::from_micros(20);
    loop {
        let mut busy = false;
        let mut next = inbox.try_recv();
        if next.is_err() && quiet > Duration::from_micros(20) {
            // Idle a while: wait for a command, as long as the quiet spell allows.
            next = inbox
                .recv_timeout(quiet)
                .map_err(|_| std::sync::mpsc::TryRecvError::Empty);
        }
        while let Ok(command) = next {
            busy = true;
            next = inbox.try_recv();
            match command {
                Command::Job {
                    worker,
                    words,
                    reply,
                } => {
                    world
                        .process_at_rank(worker as i32)
                        .send_with_tag(&words[..], JOB);
                    waiting.insert(words[0], (worker, reply));
                }
                Command::Cancel { worker, id } => {
                    world
                        .process_at_rank(worker as i32)
                        .send_with_tag(&[id][..], CANCEL);
                }
            }
        }
        while let Some(probed) = world.any_process().immediate_matched_probe_with_tag(RESULT) {
            busy = true;
            let (words, _) = probed.matched_receive_vec::<u64>();
            let &[id, status, value, nodes] = &words[..] else {
                continue;
            };
            if let Some((worker, reply)) = waiting.remove(&id) {
                dispatcher.give_back(worker);
                let _ = reply.send(if status == 0 {
                    Remoted::Done {
                        value: value as i64 as i32,
                        nodes,
                    }
                } else {
                    Remoted::Stopped
                });
            }
        }
        if done.load(Relaxed) && waiting.is_empty() {
            break;
        }
        quiet = if busy {
            Duration::from_micros(20)
        } else {
            (quiet * 2).min(POLL)
        };
    }
    (1..world.size())
        .map(|rank| {
            let worker = world.process_at_rank(rank);
            worker.send_with_tag(&[0u64; 0][..], STOP);
            let (words, _) = worker.receive_vec_with_tag::<u64>(FIGURES);
            let word = |i: usize| words.get(i).copied().unwrap_or(0);
            RankFigures {
                rank: rank as usize,
                jobs: word(0),
                given_up: word(1),
                nodes: word(2),
                busy_seconds: word(3) as f64 * 1e-9,
                idle_seconds: word(4) as f64 * 1e-9,
            }
        })
        .collect()
}

/// A worker's loop: searches the jobs rank 0 sends, with `solver` on `pool` (without one, gives
/// every job up), until rank 0 says stop; then sends its figures.
pub(super) fn serve(cluster: &Cluster, solver: Option<&dyn Solve>, pool: &rayon::ThreadPool) {
    let world = cluster.world();
    let root = world.process_at_rank(0);
    let (mut jobs, mut given_up, mut nodes) = (0u64, 0u64, 0u64);
    let (mut busy, mut idle) = (Duration::ZERO, Duration::ZERO);
    let mut since = Instant::now();
    let mut quiet = Duration::from_micros(20);
    loop {
        let Some(probed) = root.immediate_matched_probe() else {
            std::thread::sleep(quiet);
            quiet = (quiet * 2).min(POLL);
            continue;
        };
        quiet = Duration::from_micros(20);
        let (words, status) = probed.matched_receive_vec::<u64>();
        match status.tag() {
            JOB => {
                let Some((id, pos, alpha, beta)) = decode(&words) else {
                    continue;
                };
                idle += since.elapsed();
                since = Instant::now();
                let cancel = AtomicBool::new(false);
                let mut stop = false;
                let answer = std::thread::scope(|scope| {
                    let (finished, ended) = channel();
                    let (pos, cancel) = (&pos, &cancel);
                    let job = scope.spawn(move || {
                        let answer =
                            solver.and_then(|s| pool.install(|| s.job(pos, alpha, beta, cancel)));
                        let _ = finished.send(());
                        answer
                    });
                    // Wakes when the job ends, and between times looks for a cancellation.
                    while ended.recv_timeout(POLL) == Err(RecvTimeoutError::Timeout) {
                        if let Some(probed) = root.immediate_matched_probe() {
                            let (words, status) = probed.matched_receive_vec::<u64>();
                            match status.tag() {
                                CANCEL if words.first() == Some(&id) => {
                                    cancel.store(true, Relaxed);
                                }
                                STOP => {
                                    cancel.store(true, Relaxed);
                                    stop = true;
                                }
                                _ => {}
                            }
                        }
                    }
                    job.join().ok().flatten()
                });
                let reply = match answer {
                    Some((value, n)) => {
                        jobs += 1;
                        nodes += n;
                        [id, 0, value as i64 as u64, n]
                    }
                    None => {
                        given_up += 1;
                        [id, 1, 0, 0]
                    }
                };
                root.send_with_tag(&reply[..], RESULT);
                busy += since.elapsed();
                since = Instant::now();
                if stop {
                    break;
                }
            }
            STOP => break,
            _ => {}
        }
    }
    idle += since.elapsed();
    let figures = [
        jobs,
        given_up,
        nodes,
        busy.as_nanos() as u64,
        idle.as_nanos() as u64,
    ];
    root.send_with_tag(&figures[..], FIGURES);
}
