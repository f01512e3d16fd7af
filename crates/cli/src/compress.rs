//! `granary compress`: a variant's finished layers compressed in place (format 3 unless asked
//! for 2, its don't-cares filled or stored), one line a layer.

use granary::compress::{
    Codec, CompressOptions, MAX_BLOCK_ENTRIES, MAX_CODED_BLOCK_ENTRIES, MIN_BLOCK_ENTRIES,
    MIN_CODED_BLOCK_ENTRIES,
};

use crate::args::{CompressArgs, DontCares};
use crate::error::{CliError, CliResult};

pub fn run(args: &CompressArgs) -> CliResult {
    let kind = args.game.kind()?;
    let mut options = match (args.format, args.level, args.dont_cares) {
        (3, Some(_), _) => {
            return Err(CliError::Failed(
                "--level is the zstd level of format 2: add --format 2, or leave it out".into(),
            ));
        }
        (3, None, dont_cares) => CompressOptions {
            codec: match dont_cares {
                None => granary::compress::default_codec(kind),
                Some(DontCares::Filled) => Codec::Filled,
                Some(DontCares::Stored) => Codec::Coded,
            },
            ..CompressOptions::default()
        },
        (_, _, Some(_)) => {
            return Err(CliError::Failed(
                "--dont-cares is a choice of format 3: leave out --format 2, or --dont-cares"
                    .into(),
            ));
        }
        (_, level, None) => {
            CompressOptions::zstd(level.unwrap_or(granary::compress::DEFAULT_LEVEL))
        }
    };
    if let Some(block) = args.block_size {
        let (min, max) = if args.format == 3 {
            (MIN_CODED_BLOCK_ENTRIES, MAX_CODED_BLOCK_ENTRIES)
        } else {
            (MIN_BLOCK_ENTRIES, MAX_BLOCK_ENTRIES)
        };
        if !(min..=max).contains(&block) {
            return Err(CliError::Failed(format!(
                "block size {block} entries (--block-size): format {} takes blocks of {min} to {max} entries",
                args.format
            )));
        }
        options.block_entries = block;
    }
    let tablebase = args.dir.existing_tablebase()?;
    if let Some(threads) = args.threads {
        options.threads = threads.max(1);
    }
    let layers = granary::compress(&tablebase, kind, options, |layer| {
        if layer.skipped {
            println!(
                "layer {:3}: in this format already, {} bytes ({:.2} bits a position)",
                layer.seeds,
                layer.after,
                layer.bits()
            );
        } else {
            println!(
                "layer {:3}: {} -> {} bytes ({:.2}x, {:.2} bits a position)",
                layer.seeds,
                layer.before,
                layer.after,
                layer.ratio(),
                layer.bits()
            );
        }
    })?;
    let before: u64 = layers.iter().map(|l| l.before).sum();
    let after: u64 = layers.iter().map(|l| l.after).sum();
    let entries: u64 = layers.iter().map(|l| l.entries).sum();
    println!(
        "{}: {} layers, {before} -> {after} bytes ({:.2}x, {:.2} bits a position)",
        kind.name(),
        layers.len(),
        before as f64 / after.max(1) as f64,
        8.0 * after as f64 / entries.max(1) as f64
    );
    Ok(())
}
