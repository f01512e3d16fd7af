//! The library's events shown on the terminal: a progress bar a layer, a line a finished layer,
//! the table plan, and the search's passes. Everything goes to stderr.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use granary::{DiskTraffic, Event, LayerReport, ProcessCost};
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

/// Bytes this process has had read from and written to the storage (`/proc/self/io`, Linux),
/// or `None` where the kernel does not say: what the kernel counts, page-cache write-back of
/// its mapped files included, so a scratch file whose pages are written out and read back
/// again at random shows here and not in the builder's own count of what it writes.
pub fn disk_traffic() -> Option<DiskTraffic> {
    parse_io(&std::fs::read_to_string("/proc/self/io").ok()?)
}

/// The traffic in the text of `/proc/<pid>/io`. Writes cancelled (a dirty page of a file
/// deleted before it reached the disk) are taken off.
fn parse_io(io: &str) -> Option<DiskTraffic> {
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

    fn disk(&self) -> std::sync::MutexGuard<'_, Option<DiskTraffic>> {
        self.disk
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

/// A long search's periodic line: `1:02:03 last proven move 3: +8..+12; 2.100e10 nodes (5.64 M
/// nodes/s); journal 1.50 MiB, 98304 records`, the bounds `last` proven (`move 3: +8..+12`)
/// where there are some, the journal where it keeps one (bytes and records).
fn tick_line(seconds: f64, nodes: u64, journal: Option<(u64, u64)>, last: &str) -> String {
    let journal = journal.map_or(String::new(), |(bytes, records)| {
        format!(
            "; journal {:.2} MiB, {records} records",
            bytes as f64 / f64::from(1 << 20)
        )
    });
    let last = if last.is_empty() {
        String::new()
    } else {
        format!("last proven {last}; ")
    };
    let whole = seconds as u64;
    format!(
        "{}:{:02}:{:02} {last}{:.3e} nodes ({:.2} M nodes/s){journal}",
        whole / 3600,
        whole / 60 % 60,
        whole % 60,
        nodes as f64,
        nodes as f64 / seconds.max(1e-9) / 1e6
    )
}

impl Terminal {
    /// A layer is about to be built: its bar, and the counts its line is measured from.
    fn layer_started(&self, kind: &str, seeds: u32, positions: u64) {
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
            *self.disk() = disk_traffic();
        }
    }

    /// The current layer entered phase `t`: its bar says so, and a build logged to a file a
    /// line now and then.
    fn phase(&self, t: u32) {
        if let Some(bar) = self.bar().as_ref() {
            bar.set_message(format!("phase {t}"));
        }
        if let Some(lines) = &self.phase_lines {
            lines.phase(t);
        }
    }

    /// A layer was built or found built: its bar goes, and a build prints the layer's line
    /// (a layer found built only where it was compressed), with the memory and disk traffic
    /// this process measured while it was built.
    fn layer_done(&self, kind: &str, report: &LayerReport) {
        if let Some(bar) = self.bar().take() {
            bar.finish_and_clear();
        }
        if let Some(lines) = &self.phase_lines {
            lines.done();
        }
        if !self.layer_lines || (report.seconds.is_none() && report.compressed.is_none()) {
            return;
        }
        let started = self.disk().take();
        let process = ProcessCost {
            peak_anon: self.anon.as_ref().map(AnonPeak::since_reset),
            disk: started
                .zip(disk_traffic())
                .map(|(started, now)| now.since(started)),
        };
        eprintln!("{}", report.line(kind, process));
    }

    /// A line said above the bar, if one shows.
    fn say(&self, line: &str) {
        match self.bar().as_ref() {
            Some(bar) => bar.suspend(|| eprintln!("{line}")),
            None => eprintln!("{line}"),
        }
    }

    /// A root move's progress: its line, and the bounds the periodic line repeats.
    fn searched(&self, pit: usize, value: &str, nodes: u64, seconds: f64) {
        eprintln!("{}", search_line(pit, value, nodes, seconds));
        *self.last_bounds() = format!("move {pit}: {value}");
    }
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
            } => self.layer_started(kind, seeds, positions),
            Event::Restarted { .. } => {}
            Event::Checkpointed { seeds, next } => {
                if self.layer_lines {
                    self.say(&format!(
                        "layer {seeds}: checkpoint saved, a rerun resumes at phase {next}"
                    ));
                }
            }
            Event::Advanced { positions } => {
                if let Some(bar) = self.bar().as_ref() {
                    bar.inc(positions);
                }
            }
            Event::Phase { t } => self.phase(t),
            Event::LayerDone { kind, report } => self.layer_done(kind, report),
            Event::Bounds {
                pit,
                lower,
                upper,
                nodes,
                seconds,
            } => self.searched(pit, &format!("{lower:+}..{upper:+}"), nodes, seconds),
            Event::Settled {
                pit,
                worth: w,
                nodes,
                seconds,
            } => self.searched(pit, &worth(w), nodes, seconds),
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
                let line = tick_line(seconds, nodes, journal, &self.last_bounds());
                eprintln!("{line}");
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
        assert_eq!(
            parse_io(io),
            Some(DiskTraffic {
                read: 100_562_583_552,
                written: 83_948_630_016 - 9_940_992
            })
        );
        assert_eq!(parse_io("rchar: 1\n"), None);
        if cfg!(target_os = "linux") {
            assert!(disk_traffic().is_some(), "/proc/self/io is read");
        }
    }

    #[test]
    fn a_search_reports_its_passes_and_a_clock_with_the_last_bounds() {
        assert_eq!(
            search_line(3, "+8..+12", 210_000_000, 41.23),
            "move 3: +8..+12 (41.2 s, 2.10e8 nodes)"
        );
        assert_eq!(
            tick_line(
                3723.5,
                21_000_000_000,
                Some((3 << 19, 98304)),
                "move 3: +8..+12"
            ),
            "1:02:03 last proven move 3: +8..+12; 2.100e10 nodes (5.64 M nodes/s); \
             journal 1.50 MiB, 98304 records"
        );
        assert_eq!(
            tick_line(59.9, 1000, None, ""),
            "0:00:59 1.000e3 nodes (0.00 M nodes/s)"
        );
    }
}
