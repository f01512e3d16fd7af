//! The library's events shown on the terminal: a progress bar a layer, a line a finished layer,
//! the table plan, and the search's passes. Everything goes to stderr.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use granary::Event;
use indicatif::{ProgressBar, ProgressStyle};

/// Shows events on stderr; `quiet` shows nothing.
#[derive(Debug)]
pub struct Terminal {
    quiet: bool,
    /// A line for every layer built (`granary build`); otherwise only the bar while it builds.
    layer_lines: bool,
    bar: Mutex<Option<ProgressBar>>,
    /// The peak anonymous memory of the layer being built (builds only).
    anon: Option<AnonPeak>,
    /// This process's disk traffic when the layer being built started (builds only, Linux).
    disk: Mutex<Option<DiskTraffic>>,
    /// The search's last proven bounds, repeated in its periodic progress lines.
    last_bounds: Mutex<String>,
    /// Phase lines of builds whose stderr is not a terminal ([`Terminal::for_build`]).
    phase_lines: Option<PhaseLines>,
}

/// A line when a phase starts, at most one every `every`, for builds logged to a file, where
/// no bar shows the phase: `oware-6-awari layer 36: phase 30 at 1234 s`.
#[derive(Debug)]
struct PhaseLines {
    every: Duration,
    /// The layer being built (the prefix of its lines), when it started, and the last line.
    layer: Mutex<Option<(String, Instant, Instant)>>,
}

impl PhaseLines {
    fn started(&self, prefix: String) {
        let now = Instant::now();
        *self.layer() = Some((prefix, now, now));
    }

    fn phase(&self, t: u32) {
        if let Some((prefix, started, last)) = self.layer().as_mut()
            && last.elapsed() >= self.every
        {
            eprintln!(
                "{prefix}: phase {t} at {:.0} s",
                started.elapsed().as_secs_f64()
            );
            *last = Instant::now();
        }
    }

    fn done(&self) {
        *self.layer() = None;
    }

    fn layer(&self) -> std::sync::MutexGuard<'_, Option<(String, Instant, Instant)>> {
        self.layer
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// This process's anonymous resident memory (`RssAnon`: the heap and anonymous maps, not the
/// table files' pages), bytes (Linux).
pub fn anon_memory() -> Option<u64> {
    status_kib("RssAnon:")
}

fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Bytes this process has had read from and written to the storage (`/proc/self/io`, Linux):
/// what the kernel counts, page-cache write-back of its mapped files included, so a scratch
/// file whose pages are written out and read back again at random shows here and not in the
/// builder's own count of what it writes. Writes cancelled (a dirty page of a file deleted
/// before it reached the disk) are taken off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiskTraffic {
    pub read: u64,
    pub written: u64,
}

impl DiskTraffic {
    /// Now, or `None` where the kernel does not say.
    pub fn now() -> Option<DiskTraffic> {
        DiskTraffic::parse(&std::fs::read_to_string("/proc/self/io").ok()?)
    }

    /// From the text of `/proc/<pid>/io`.
    fn parse(io: &str) -> Option<DiskTraffic> {
        let field = |name: &str| -> Option<u64> {
            let line = io.lines().find(|l| l.starts_with(name))?;
            line[name.len()..].trim().parse().ok()
        };
        Some(DiskTraffic {
            read: field("read_bytes:")?,
            written: field("write_bytes:")?
                .saturating_sub(field("cancelled_write_bytes:").unwrap_or(0)),
        })
    }

    /// The traffic from `earlier` to `self`.
    fn since(self, earlier: DiskTraffic) -> DiskTraffic {
        DiskTraffic {
            read: self.read.saturating_sub(earlier.read),
            written: self.written.saturating_sub(earlier.written),
        }
    }
}

/// The peak of [`anon_memory`], sampled every 10 ms by a thread of its own (the kernel keeps no
/// peak of it): since the last [`AnonPeak::reset`], and over the whole run.
#[derive(Debug)]
pub struct AnonPeak {
    since: Arc<AtomicU64>,
    overall: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
}

impl AnonPeak {
    fn start() -> AnonPeak {
        let since = Arc::new(AtomicU64::new(0));
        let overall = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (s, o, x) = (since.clone(), overall.clone(), stop.clone());
        std::thread::spawn(move || {
            while !x.load(Relaxed) {
                if let Some(now) = anon_memory() {
                    s.fetch_max(now, Relaxed);
                    o.fetch_max(now, Relaxed);
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        });
        AnonPeak {
            since,
            overall,
            stop,
        }
    }

    fn reset(&self) {
        self.since.store(anon_memory().unwrap_or(0), Relaxed);
    }

    fn since_reset(&self) -> u64 {
        self.since.load(Relaxed)
    }

    /// The peak over the whole run, bytes.
    pub fn overall(&self) -> u64 {
        self.overall.load(Relaxed)
    }
}

impl Drop for AnonPeak {
    fn drop(&mut self) {
        self.stop.store(true, Relaxed);
    }
}

impl Terminal {
    /// For solves and play: the plan, a bar while a layer builds, the search's passes.
    pub fn new(quiet: bool) -> Terminal {
        Terminal {
            quiet,
            layer_lines: false,
            bar: Mutex::new(None),
            anon: None,
            disk: Mutex::new(None),
            last_bounds: Mutex::new(String::new()),
            phase_lines: None,
        }
    }

    /// For builds: a line for every layer built as well, with its peak anonymous memory, and
    /// where stderr is not a terminal, a line when a phase starts, at most one every
    /// `progress_every`.
    pub fn for_build(quiet: bool, progress_every: Duration) -> Terminal {
        Terminal {
            layer_lines: true,
            anon: (!quiet).then(AnonPeak::start),
            phase_lines: (!quiet && !std::io::stderr().is_terminal()).then(|| PhaseLines {
                every: progress_every,
                layer: Mutex::new(None),
            }),
            ..Terminal::new(quiet)
        }
    }

    /// The peak anonymous memory of the whole build, bytes (builds only).
    pub fn peak_anon(&self) -> Option<u64> {
        self.anon.as_ref().map(AnonPeak::overall)
    }

    fn last_bounds(&self) -> std::sync::MutexGuard<'_, String> {
        self.last_bounds
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn bar(&self) -> std::sync::MutexGuard<'_, Option<ProgressBar>> {
        self.bar
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// What a root move is worth in text: `+10` exactly, `<=+10` at most (a bound: no better
/// than the best move).
pub fn worth(worth: granary::Worth) -> String {
    match worth {
        granary::Worth::Exact(v) => format!("{v:+}"),
        granary::Worth::AtMost(u) => format!("<={u:+}"),
    }
}

/// A solve's progress line: `move 3: +8..+12 (41.2 s, 2.1e8 nodes)` after a pass of MTD(f) on
/// root move (pit) 3, `move 3: +10 (...)` when settled, `<=+10` when no better than the best.
fn search_line(pit: usize, value: &str, nodes: u64, seconds: f64) -> String {
    format!(
        "move {pit}: {value} ({seconds:.1} s, {nodes:.2e} nodes)",
        nodes = nodes as f64
    )
}

impl granary::Observer for Terminal {
    fn event(&self, event: Event<'_>) {
        // A refused checkpoint costs the layer's work so far: said even under --quiet.
        if let Event::Restarted { seeds, why } = event {
            eprintln!("layer {seeds}: checkpoint refused: {why}; the layer starts over");
            return;
        }
        if self.quiet {
            return;
        }
        match event {
            Event::Planned(plan) => eprintln!("{}", plan.describe()),
            Event::LayerStarted {
                kind,
                seeds,
                positions,
            } => {
                let bar = ProgressBar::new(positions);
                bar.set_style(
                    ProgressStyle::with_template(
                        "{prefix} [{bar:30}] {human_pos}/{human_len} {per_sec} eta {eta} {msg}",
                    )
                    .expect("valid template")
                    .progress_chars("=> "),
                );
                bar.set_prefix(format!("{kind} layer {seeds:>2}"));
                *self.bar() = Some(bar);
                if let Some(lines) = &self.phase_lines {
                    lines.started(format!("{kind} layer {seeds:>2}"));
                }
                if let Some(anon) = &self.anon {
                    anon.reset();
                }
                if self.layer_lines {
                    *self
                        .disk
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = DiskTraffic::now();
                }
            }
            Event::Restarted { .. } => {}
            Event::Checkpointed { seeds, next } if self.layer_lines => {
                let line =
                    format!("layer {seeds}: checkpoint saved, a rerun resumes at phase {next}");
                match self.bar().as_ref() {
                    Some(bar) => bar.suspend(|| eprintln!("{line}")),
                    None => eprintln!("{line}"),
                }
            }
            Event::Checkpointed { .. } => {}
            Event::Advanced { positions } => {
                if let Some(bar) = self.bar().as_ref() {
                    bar.inc(positions);
                }
            }
            Event::Phase { t } => {
                if let Some(bar) = self.bar().as_ref() {
                    bar.set_message(format!("phase {t}"));
                }
                if let Some(lines) = &self.phase_lines {
                    lines.phase(t);
                }
            }
            Event::LayerDone {
                kind,
                seeds,
                positions,
                seconds,
                traffic,
                sweep,
                compressed,
                resumed,
                counts,
            } => {
                if let Some(bar) = self.bar().take() {
                    bar.finish_and_clear();
                }
                if let Some(lines) = &self.phase_lines {
                    lines.done();
                }
                let compressed = compressed.map_or(String::new(), |(before, after)| {
                    format!(
                        "; compressed {:.1} MB to {:.1} MB ({:.2}x)",
                        before as f64 / 1e6,
                        after as f64 / 1e6,
                        before as f64 / after.max(1) as f64
                    )
                });
                if seconds.is_none() && self.layer_lines && !compressed.is_empty() {
                    eprintln!("{kind} layer {seeds:>2}: kept{compressed}");
                }
                if let Some(seconds) = seconds.filter(|_| self.layer_lines) {
                    let rate = positions as f64 / seconds.max(1e-9) / 1e6;
                    let anon = self.anon.as_ref().map_or(String::new(), |a| {
                        let bytes = a.since_reset();
                        format!(
                            ", peak anonymous memory {:.1} MiB ({:.2} bytes a position)",
                            bytes as f64 / f64::from(1 << 20),
                            bytes as f64 / positions.max(1) as f64
                        )
                    });
                    let traffic = traffic.map_or(String::new(), |t| {
                        let lookups = if t.lookups > 0 {
                            format!(
                                " looked up {} lower-layer entries of each other and",
                                t.lookups
                            )
                        } else {
                            String::new()
                        };
                        format!(
                            "; ranks{lookups} exchanged {} messages ({:.1} MiB) in {} rounds, rank 0 {:.2} s in exchanges",
                            t.messages,
                            t.bytes as f64 / f64::from(1 << 20),
                            t.exchanges,
                            t.seconds
                        )
                    });
                    let resumed = resumed.map_or(String::new(), |t| {
                        format!(", resumed from its checkpoint at phase {t}")
                    });
                    let sweep = sweep.map_or(String::new(), |s| {
                        format!(
                            "; lower layers read in {} tiles ({:.2} GB{})",
                            s.tiles,
                            s.read as f64 / 1e9,
                            if s.misses > 0 {
                                format!(", {} exits at random", s.misses)
                            } else {
                                String::new()
                            }
                        )
                    });
                    let each = |x: u64| x as f64 / positions.max(1) as f64;
                    let counts = counts.map_or(String::new(), |c| {
                        format!(
                            "; {} phases, a position: {:.1} scanned, {:.2} resolved, {:.2} parents, {:.2} bytes written to the file and checkpoints",
                            c.phases,
                            each(c.scanned),
                            each(c.resolved),
                            each(c.parents),
                            each(c.written)
                        )
                    });
                    let started = self
                        .disk
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .take();
                    let disk = match (started, DiskTraffic::now()) {
                        (Some(started), Some(now)) => {
                            let d = now.since(started);
                            format!(
                                "; the disk, a position: {:.2} bytes written, {:.2} read",
                                each(d.written),
                                each(d.read)
                            )
                        }
                        _ => String::new(),
                    };
                    eprintln!(
                        "{kind} layer {seeds:>2}: {positions:>13} positions in {seconds:>8.2} s ({rate:.2} M/s){resumed}{anon}{traffic}{sweep}{counts}{disk}{compressed}"
                    );
                }
            }
            Event::Bounds {
                pit,
                lower,
                upper,
                nodes,
                seconds,
            } => {
                let bounds = format!("move {pit}: {lower:+}..{upper:+}");
                eprintln!(
                    "{}",
                    search_line(pit, &format!("{lower:+}..{upper:+}"), nodes, seconds)
                );
                *self.last_bounds() = bounds;
            }
            Event::Settled {
                pit,
                worth: w,
                nodes,
                seconds,
            } => {
                eprintln!("{}", search_line(pit, &worth(w), nodes, seconds));
                *self.last_bounds() = format!("move {pit}: {}", worth(w));
            }
            Event::Depth {
                depth,
                verdict,
                seconds,
            } => eprintln!("depth {depth}: {verdict} ({seconds:.1} s)"),
            Event::Tick {
                seconds,
                nodes,
                journal,
            } => {
                let journal = journal.map_or(String::new(), |(bytes, records)| {
                    format!(
                        "; journal {:.2} MiB, {records} records",
                        bytes as f64 / f64::from(1 << 20)
                    )
                });
                let bounds = self.last_bounds().clone();
                let bounds = if bounds.is_empty() {
                    String::new()
                } else {
                    format!("last proven {bounds}; ")
                };
                let whole = seconds as u64;
                eprintln!(
                    "{}:{:02}:{:02} {bounds}{:.3e} nodes ({:.2} M nodes/s){journal}",
                    whole / 3600,
                    whole / 60 % 60,
                    whole % 60,
                    nodes as f64,
                    nodes as f64 / seconds.max(1e-9) / 1e6
                );
            }
        }
    }
}

/// Peak resident memory of this process so far, in bytes (Linux), for reports.
pub fn peak_memory() -> Option<u64> {
    status_kib("VmHWM:")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disk_traffic_is_read_from_the_kernels_io_counts_less_cancelled_writes() {
        let io = "rchar: 139973414\nwchar: 10232286372\nsyscr: 788609\nsyscw: 9812\n\
                  read_bytes: 100562583552\nwrite_bytes: 83948630016\n\
                  cancelled_write_bytes: 9940992\n";
        let t = DiskTraffic::parse(io).unwrap();
        assert_eq!(t.read, 100_562_583_552);
        assert_eq!(t.written, 83_948_630_016 - 9_940_992);
        let later = DiskTraffic {
            read: t.read + 5,
            written: t.written + 7,
        };
        assert_eq!(
            later.since(t),
            DiskTraffic {
                read: 5,
                written: 7
            }
        );
        assert_eq!(DiskTraffic::parse("rchar: 1\n"), None);
        if cfg!(target_os = "linux") {
            assert!(DiskTraffic::now().is_some(), "/proc/self/io is read");
        }
    }
}
