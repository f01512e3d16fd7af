//! A file a user names (`--record-out FILE`, `calibrate --output FILE`), written whole or not
//! at all ([`write_whole`]): a reader, or a crash, finds the old file or the new one, never a
//! part.

use std::io::Write;
use std::path::Path;

use crate::error::CliError;

/// Writes `text` to `path` (given with `flag`, which the error names) whole or not at all: into
/// a new file of a unique name beside it, synced to the disk, then renamed over it.
///
/// # Errors
/// A file that cannot be made, written, synced or renamed: `FLAG PATH: why`.
pub fn write_whole(flag: &str, path: &Path, text: &str) -> Result<(), CliError> {
    let fail = |e: std::io::Error| CliError::Failed(format!("{flag} {}: {e}", path.display()));
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut new = tempfile::Builder::new();
    // An ordinary file, as `std::fs::write` makes one: read and write for all, less the umask
    // (a temporary file's default is the owner's only).
    #[cfg(unix)]
    new.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut tmp = new.tempfile_in(dir).map_err(fail)?;
    tmp.write_all(text.as_bytes()).map_err(fail)?;
    tmp.as_file().sync_all().map_err(fail)?;
    tmp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_replaced_whole_and_nothing_else_is_left_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old\n").unwrap();
        write_whole("--out", &path, "new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["out.txt"]);
    }

    #[test]
    fn a_file_in_no_directory_is_refused_naming_the_flag_and_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing").join("out.txt");
        let err = write_whole("--out", &path, "new\n").unwrap_err();
        assert!(
            matches!(&err, CliError::Failed(m) if m.starts_with(&format!("--out {}: ", path.display()))),
            "{err:?}"
        );
        assert!(!path.exists());
    }
}
