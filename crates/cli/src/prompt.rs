//! Reading a person's answers in the terminal, for both play commands.

use std::io::Write;

use crate::error::CliError;

/// Prints `prompt: ` and reads the player's line; `None` at the end of the input.
pub fn ask(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
    prompt: &str,
) -> Result<Option<String>, CliError> {
    print!("{prompt}: ");
    std::io::stdout().flush()?;
    match lines.next() {
        Some(line) => Ok(Some(line?)),
        None => {
            println!();
            Ok(None)
        }
    }
}
