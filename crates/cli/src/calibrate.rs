//! `granary calibrate`: the machine measured for the planner, the model saved where it looks.

use granary::plan::CostModel;

use crate::args::CalibrateArgs;
use crate::error::{CliError, CliResult};
use crate::progress::Terminal;
use crate::whole_file::write_whole;

pub fn run(args: &CalibrateArgs) -> CliResult {
    let path = match &args.output {
        Some(path) => path.clone(),
        None => CostModel::default_path().ok_or_else(|| {
            CliError::Failed("no place for the cost model: give --output, or set $HOME".into())
        })?,
    };
    let calibration = granary::calibrate::calibrate(args.threads, &Terminal::new(true))?;
    // Named in errors as the user gave it, or as the place the planner looks.
    let flag = if args.output.is_some() {
        "--output"
    } else {
        "cost model"
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Failed(format!("{flag} {}: {e}", path.display())))?;
    }
    write_whole(flag, &path, &calibration.model.file_text())?;
    if args.json {
        println!("{}", serde_json::to_string(&calibration)?);
        return Ok(());
    }
    for m in &calibration.measured {
        println!(
            "{}: {:.2} s (the default model estimates {:.2} s, {:.2}x)",
            m.what,
            m.seconds,
            m.estimated,
            m.seconds / m.estimated.max(1e-9)
        );
    }
    let model = &calibration.model;
    let rates: Vec<String> = model
        .kalah_rate
        .iter()
        .map(|(_, r)| format!("{:.1}", r / 1e6))
        .collect();
    println!(
        "cost model: kalah build {} M positions/s by layer size, oware build {:.2} M/s, search x{:.3} the fitted model, copy {:.2} GB/s",
        rates.join(" / "),
        model.oware_rate / 1e6,
        model.search_scale,
        model.copy_rate / 1e9
    );
    println!(
        "saved to {} ({:.1} s); `granary solve --dry-run` now estimates with it",
        path.display(),
        calibration.seconds
    );
    Ok(())
}
