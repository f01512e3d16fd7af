//! `granary serve`: the web front end (crates/server) on a tokio runtime.

use std::time::Duration;

use crate::args::ServeArgs;
use crate::error::{CliError, CliResult};

pub fn run(args: &ServeArgs) -> CliResult {
    if !(args.timeout > 0.0 && args.timeout <= 3600.0) {
        return Err(CliError::Failed(format!(
            "--timeout {}: give seconds, more than 0 and at most 3600",
            args.timeout
        )));
    }
    let dir = args.dir.tablebase_creating_default()?.root().to_path_buf();
    let mut config = granary_server::Config::new(dir.clone());
    config.bind = args.bind;
    config.timeout = Duration::from_secs_f64(args.timeout);
    if let Some(n) = args.max_searches {
        if n == 0 {
            return Err(CliError::Failed("--max-searches must be at least 1".into()));
        }
        config.max_searches = n;
    }
    if args.search_seconds.is_nan() || args.search_seconds < 0.0 {
        return Err(CliError::Failed(format!(
            "--search-seconds {}: give seconds, 0 or more",
            args.search_seconds
        )));
    }
    config.search_seconds = args.search_seconds;
    config.prepare_seeds = (args.prepare > 0).then_some(args.prepare);
    config.filled_memory = args
        .filled_memory
        .unwrap_or_else(|| granary::machine::Machine::detect(&dir).available_memory / 4);
    let runtime = tokio::runtime::Runtime::new()?;
    runtime
        .block_on(granary_server::serve(config, |addr| {
            eprintln!(
                "granary: serving tables from {} at http://{addr}/ (Ctrl-C stops)",
                dir.display()
            );
        }))
        .map_err(|e| CliError::Failed(format!("--bind {}: {e}", args.bind)))
}
