//! `granary compress`: a variant's finished layers compressed in place, one line a layer.

use crate::args::CompressArgs;
use crate::error::CliResult;

pub fn run(args: &CompressArgs) -> CliResult {
    let kind = args.game.kind()?;
    let tablebase = args.dir.existing_tablebase()?;
    let mut options = granary::compress::CompressOptions::default();
    if let Some(block) = args.block_size {
        options.block_entries = block;
    }
    if let Some(level) = args.level {
        options.level = level;
    }
    if let Some(threads) = args.threads {
        options.threads = threads.max(1);
    }
    let layers = granary::compress(&tablebase, kind, options, |layer| {
        if layer.skipped {
            println!(
                "layer {:3}: compressed already, {} bytes",
                layer.seeds, layer.after
            );
        } else {
            println!(
                "layer {:3}: {} -> {} bytes ({:.2}x)",
                layer.seeds,
                layer.before,
                layer.after,
                layer.ratio()
            );
        }
    })?;
    let before: u64 = layers.iter().map(|l| l.before).sum();
    let after: u64 = layers.iter().map(|l| l.after).sum();
    println!(
        "{}: {} layers, {before} -> {after} bytes ({:.2}x)",
        kind.name(),
        layers.len(),
        before as f64 / after.max(1) as f64
    );
    Ok(())
}
