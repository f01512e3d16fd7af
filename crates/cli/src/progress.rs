//! The library's events shown on the terminal: a progress bar a layer, a line a finished layer,
//! the table plan, and the search's passes. Everything goes to stderr.

use std::sync::Mutex;

use granary::Event;
use indicatif::{ProgressBar, ProgressStyle};

/// Shows events on stderr; `quiet` shows nothing.
#[derive(Debug)]
pub struct Terminal {
    quiet: bool,
    /// A line for every layer built (`granary build`); otherwise only the bar while it builds.
    layer_lines: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl Terminal {
    /// For solves and play: the plan, a bar while a layer builds, the search's passes.
    pub fn new(quiet: bool) -> Terminal {
        Terminal {
            quiet,
            layer_lines: false,
            bar: Mutex::new(None),
        }
    }

    /// For builds: a line for every layer built as well.
    pub fn for_build(quiet: bool) -> Terminal {
        Terminal {
            layer_lines: true,
            ..Terminal::new(quiet)
        }
    }

    fn bar(&self) -> std::sync::MutexGuard<'_, Option<ProgressBar>> {
        self.bar
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
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
            }
            Event::Advanced { positions } => {
                if let Some(bar) = self.bar().as_ref() {
                    bar.inc(positions);
                }
            }
            Event::Phase { t } => {
                if let Some(bar) = self.bar().as_ref() {
                    bar.set_message(format!("phase {t}"));
                }
            }
            Event::LayerDone {
                kind,
                seeds,
                positions,
                seconds,
            } => {
                if let Some(bar) = self.bar().take() {
                    bar.finish_and_clear();
                }
                if let Some(seconds) = seconds.filter(|_| self.layer_lines) {
                    let rate = positions as f64 / seconds.max(1e-9) / 1e6;
                    eprintln!(
                        "{kind} layer {seeds:>2}: {positions:>13} positions in {seconds:>8.2} s ({rate:.2} M/s)"
                    );
                }
            }
            Event::Bounds {
                pit,
                lower,
                upper,
                nodes,
                seconds,
            } => eprintln!(
                "{}",
                search_line(pit, &format!("{lower:+}..{upper:+}"), nodes, seconds)
            ),
            Event::Settled {
                pit,
                value,
                exact,
                nodes,
                seconds,
            } => {
                let bound = if exact { "" } else { "<=" };
                eprintln!(
                    "{}",
                    search_line(pit, &format!("{bound}{value:+}"), nodes, seconds)
                );
            }
            Event::Depth {
                depth,
                verdict,
                seconds,
            } => eprintln!("depth {depth}: {verdict} ({seconds:.1} s)"),
        }
    }
}

/// Peak resident memory of this process so far, in bytes (Linux), for reports.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
