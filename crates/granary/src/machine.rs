//! What the machine can hold: memory, free disk, cores. The planner sizes tables by it.

use std::path::Path;

/// The resources a plan must fit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Machine {
    /// Physical memory, bytes (`MemTotal`).
    pub memory: u64,
    /// Memory available without swapping, bytes (`MemAvailable`): what the page cache can give
    /// the tables and the search its hash table.
    pub available_memory: u64,
    /// Free disk on the table directory's filesystem, bytes (for an unprivileged user);
    /// `u64::MAX` where the filesystem does not say (writes still reserve their space first).
    pub free_disk: u64,
    /// Cores this process may use.
    pub cores: usize,
}

/// Memory assumed where `/proc/meminfo` cannot be read.
const FALLBACK_MEMORY: u64 = 4 << 30;

/// A `/proc/meminfo` field in bytes.
fn meminfo(text: &str, field: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kib: u64 = line[field.len()..]
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

impl Machine {
    /// This machine, with the free space of the filesystem that holds `dir` (or its nearest
    /// existing ancestor, since the directory may not exist yet).
    #[must_use]
    pub fn detect(dir: &Path) -> Machine {
        let info = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
        let memory = meminfo(&info, "MemTotal:").unwrap_or(FALLBACK_MEMORY);
        let available_memory = meminfo(&info, "MemAvailable:").unwrap_or(memory / 2);
        let existing = dir
            .ancestors()
            .find(|p| p.exists())
            .unwrap_or(Path::new("."));
        let existing = if existing.as_os_str().is_empty() {
            Path::new(".")
        } else {
            existing
        };
        let free_disk = fs4::available_space(existing).unwrap_or(u64::MAX);
        Machine {
            memory,
            available_memory,
            free_disk,
            cores: std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_fields() {
        let text = "MemTotal:       24579900 kB\nMemFree:  100 kB\nMemAvailable:   23000000 kB\n";
        assert_eq!(meminfo(text, "MemTotal:"), Some(24_579_900 * 1024));
        assert_eq!(meminfo(text, "MemAvailable:"), Some(23_000_000 * 1024));
        assert_eq!(meminfo(text, "SwapTotal:"), None);
    }

    #[test]
    fn detects_a_directory_not_yet_made() {
        let dir = tempfile::tempdir().unwrap();
        let m = Machine::detect(&dir.path().join("a/b/c"));
        assert!(m.free_disk > 0 && m.memory > 0 && m.cores >= 1);
    }
}
